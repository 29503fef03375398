// sinew — see include/sinew.h for version and licence
// Types of web/rig.mjs.
import type { JointInfo, ScalarInfo, TimeMark } from './sinew.mjs';

/**
 * A format-3 blob's rig (docs/format.md §rig): one per blob, shared by its clips. The tables are typed arrays
 * and the names stay in the blob's bytes (its copy in the wasm heap once loaded), decoded when asked for.
 */
export declare class SinewRig {
	/** Parses and checks the rig of a blob's bytes (SinewError CORRUPT 'rig: ...'); options as Sinew.load's for packed blobs. */
	constructor(bytes: Uint8Array, options?: { restPose?: Float32Array; restScalars?: Float32Array; pointers?: string[]; clipNames?: (string | null)[] });
	readonly nodeCount: number;
	readonly scalarCount: number;
	readonly clipCount: number;
	/** Floats of the scalar tracks (the sum of their components). */
	readonly scalarFloats: number;
	/** Something maps the outputs to a document (parents, glTF nodes or names); false for a --strip blob. */
	readonly mapped: boolean;
	/** Blob_flags Rest_defaults: sub-tracks holding the rest value throughout are stored as nothing. */
	readonly restDefaults: boolean;
	/** The rig stores its rest pose (a packed glTF's takes its document's). */
	readonly hasRest: boolean;
	/** Per node: parent node, -1 for a root. */
	readonly parents: Int32Array;
	/** Per node: glTF node index (Node_sources), -1 when unknown. */
	readonly nodes: Int32Array;
	/** Per node: shell distance, precision. */
	readonly shells: Float32Array;
	/** Rest pose: 10 floats per node (rotation x y z w, translation x y z, scale x y z). */
	readonly restPose: Float32Array;
	/** Rest values of the scalar tracks (scalarFloats floats). */
	readonly restScalars: Float32Array;
	readonly scalarComponents: Uint8Array;
	/** First float of each scalar track. */
	readonly scalarOffsets: Uint32Array;
	/** Per scalar track: glTF node (-1 unknown, -2 a KHR_animation_pointer track) and morph target (or the pointer's first float). */
	readonly scalarNodes: Int32Array;
	readonly scalarTargets: Int32Array;
	readonly scalarPrecision: Float32Array;
	/** Reads the blob at memory.buffer[ptr, ptr + size) from now on (its copy in the wasm heap). */
	attach(memory: WebAssembly.Memory, ptr: number, size: number): this;
	jointName(j: number): string | null;
	scalarName(k: number): string | null;
	clipName(c: number): string | null;
	/** Index of the node of that name, or -1. */
	findJoint(name: string): number;
	animatesNode(clip: number, j: number): boolean;
	animatesScalar(clip: number, k: number): boolean;
	animates(clip: number): readonly boolean[];
	animatesScalars(clip: number): readonly boolean[];
	slerpFit(clip: number): boolean;
	timeMarks(clip: number): readonly TimeMark[] | null;
	/** The nodes as objects, built on the first call and kept; null when not mapped. */
	joints(): readonly JointInfo[] | null;
	scalars(): readonly ScalarInfo[] | null;
	metadata(clip: number): { name: string | null; joints: readonly JointInfo[]; scalars: readonly ScalarInfo[]; animates: readonly boolean[]; animatesScalars: readonly boolean[] } | null;
}
