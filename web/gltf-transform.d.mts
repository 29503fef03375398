// sinew — see include/sinew.h for version and licence
// Types of web/gltf-transform.mjs (sinew-anim/gltf-transform): SINEW_compressed_animation for glTF-Transform.
import type { Camera, Document, ExtensionProperty, IProperty, Material, Mesh, Node, PlatformIO, RefList, Transform } from '@gltf-transform/core';
import { Extension, ReaderContext, WriterContext } from '@gltf-transform/core';
import type { CompressOptions, PackReport, RunOptions } from './compress.mjs';

export declare const EXTENSION_NAME: 'SINEW_compressed_animation';

/** A clip as the extension's JSON lists it. */
export interface CompressedClip {
	name?: string;
	/** Seconds. */
	duration: number;
}

/** The document collections whose objects a blob names by index. */
export type TargetCollection = 'nodes' | 'materials' | 'meshes' | 'cameras';

interface ICompressedAnimation extends IProperty {
	blob: Uint8Array | null;
	version: number;
	clips: CompressedClip[];
	targets: Partial<Record<TargetCollection, number[]>>;
	nodes: RefList<Node>;
	materials: RefList<Material>;
	meshes: RefList<Mesh>;
	cameras: RefList<Camera>;
}

/** The compressed animation of a document (a root extension property). */
export declare class CompressedAnimation extends ExtensionProperty<ICompressedAnimation> {
	static EXTENSION_NAME: 'SINEW_compressed_animation';
	readonly extensionName: 'SINEW_compressed_animation';
	readonly propertyType: 'SinewCompressedAnimation';
	readonly parentTypes: string[];
	protected init(): void;
	/** The sinew blob (docs/format.md), with metadata. */
	getBlob(): Uint8Array | null;
	setBlob(blob: Uint8Array): this;
	/** The blob's Format_version. */
	getVersion(): number;
	setVersion(version: number): this;
	getClips(): CompressedClip[];
	setClips(clips: CompressedClip[]): this;
	/** Records that the blob names `property` by `index` in `collection`. */
	addTarget(collection: TargetCollection, index: number, property: Node | Material | Mesh | Camera): this;
	/** [index, property] pairs the blob names in `collection` (a disposed property shows as null). */
	listTargets(collection: TargetCollection): [number, Node | Material | Mesh | Camera | null][];
}

/** The glTF-Transform Extension that reads and writes SINEW_compressed_animation. */
export declare class SinewAnimationCompression extends Extension {
	static EXTENSION_NAME: 'SINEW_compressed_animation';
	readonly extensionName: 'SINEW_compressed_animation';
	createCompressedAnimation(): CompressedAnimation;
	read(context: ReaderContext): this;
	write(context: WriterContext): this;
}

export interface SinewTransformOptions extends CompressOptions, RunOptions {
	/** The IO that writes the document for the compressor (default a WebIO with the document's extensions). */
	io?: PlatformIO;
	/** Receives `sinew pack --json`'s report. */
	onReport?: (report: PackReport) => void;
}

/** A transform that compresses the document's animations into one SINEW_compressed_animation blob. */
export declare function sinew(options?: SinewTransformOptions): Transform;

declare const _default: {
	SinewAnimationCompression: typeof SinewAnimationCompression;
	CompressedAnimation: typeof CompressedAnimation;
	sinew: typeof sinew;
	EXTENSION_NAME: typeof EXTENSION_NAME;
};
export default _default;

export type { Document };
