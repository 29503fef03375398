// sinew — see include/sinew.h for version and licence
// glTF-Transform (@gltf-transform/core, a peer dependency) support for SINEW_compressed_animation
// (docs/gltf_extension.md), as meshopt and Draco plug in:
//
//   import { NodeIO } from '@gltf-transform/core';
//   import { SinewAnimationCompression, sinew } from 'sinew-anim/gltf-transform';
//   const io = new NodeIO().registerExtensions([SinewAnimationCompression]);
//   const document = await io.read('hero.glb');
//   await document.transform(sinew({ errorCm: 0.01 }));   // the animations become one compressed blob
//   await io.write('hero.packed.glb', document);
//
// sinew() writes the document to a GLB (a .gltf and its buffers when it has several), packs it with the wasm
// compressor (web/compress.mjs, the bytes `sinew pack` writes), takes the blob and the clip list from the packed file, removes the animations (and
// the accessors only they used) and attaches the blob to the root as a CompressedAnimation. The blob's
// metadata names glTF nodes (and, for pointer tracks, materials, meshes and cameras) by index; the property
// keeps references to those objects, and writing refuses a document in which one of them has moved to
// another index or is gone (run sinew() after transforms that remove or reorder nodes, such as prune()).
// The blob goes into the document's first buffer; a document of several buffers is written as a .gltf, or
// merged into one (unpartition() of @gltf-transform/functions) before it is written as a GLB, as for any GLB.
import { Extension, ExtensionProperty, Format, PropertyType, RefList, WebIO } from '@gltf-transform/core';

import { pack } from './compress.mjs';
import { readMetadata } from './sinew.mjs';

export const EXTENSION_NAME = 'SINEW_compressed_animation';
const PROPERTY_TYPE = 'SinewCompressedAnimation';

// The document collections a blob refers to by index: node tracks (Source_index) and pointer tracks' targets.
const COLLECTIONS = {
	nodes: { list: (root) => root.listNodes(), readerKey: 'nodes', writerMap: 'nodeIndexMap' },
	materials: { list: (root) => root.listMaterials(), readerKey: 'materials', writerMap: 'materialIndexMap' },
	meshes: { list: (root) => root.listMeshes(), readerKey: 'meshes', writerMap: 'meshIndexMap' },
	cameras: { list: (root) => root.listCameras(), readerKey: 'cameras', writerMap: 'cameraIndexMap' },
};

// { nodes: [indices], materials: [...], ... } the blob's metadata refers to.
function referencedIndices(blob) {
	const out = { nodes: new Set(), materials: new Set(), meshes: new Set(), cameras: new Set() };
	for (const clip of readMetadata(blob)) {
		if (!clip) throw new Error(`${EXTENSION_NAME}: the blob has no metadata (compressed with --strip?): it cannot be mapped to nodes`);
		for (const j of clip.joints) if (j.node !== null && j.node >= 0) out.nodes.add(j.node);
		for (const s of clip.scalars) {
			if (s.pointer) {
				const m = /^\/(nodes|materials|meshes|cameras)\/(\d+)(\/|$)/.exec(s.pointer);
				if (m) out[m[1]].add(Number(m[2]));
			} else if (s.node !== null && s.node >= 0) {
				out.nodes.add(s.node);
			}
		}
	}
	const sorted = {};
	for (const [k, v] of Object.entries(out)) sorted[k] = [...v].sort((a, b) => a - b);
	return sorted;
}

/**
 * The compressed animation of a document (root extension): the blob, the clip list of the extension's JSON,
 * and references to every object the blob names by index, with those indices.
 */
export class CompressedAnimation extends ExtensionProperty {
	static EXTENSION_NAME = EXTENSION_NAME;

	init() {
		this.extensionName = EXTENSION_NAME;
		this.propertyType = PROPERTY_TYPE;
		this.parentTypes = [PropertyType.ROOT];
	}

	getDefaults() {
		return Object.assign(super.getDefaults(), {
			blob: null, version: 2, clips: [], targets: {},
			nodes: new RefList(), materials: new RefList(), meshes: new RefList(), cameras: new RefList(),
		});
	}

	/** The sinew blob (docs/format.md), with metadata. */
	getBlob() { return this.get('blob'); }
	setBlob(blob) { return this.set('blob', blob); }
	/** The blob's Format_version. */
	getVersion() { return this.get('version'); }
	setVersion(version) { return this.set('version', version); }
	/** [{ name?, duration }] per clip, as the extension's JSON lists them. */
	getClips() { return this.get('clips'); }
	setClips(clips) { return this.set('clips', clips); }

	/** Records that the blob names `property` (a Node, Material, Mesh or Camera) by `index` in `collection`. */
	addTarget(collection, index, property) {
		if (!COLLECTIONS[collection]) throw new Error(`${EXTENSION_NAME}: unknown collection ${collection}`);
		const targets = { ...this.get('targets') };
		targets[collection] = [...(targets[collection] ?? []), index];
		this.set('targets', targets);
		return this.addRef(collection, property);
	}

	/** [[index, property]] the blob names in `collection` (a disposed property is no longer listed). */
	listTargets(collection) {
		const indices = this.get('targets')[collection] ?? [], refs = this.listRefs(collection);
		return indices.map((index, i) => [index, refs[i] ?? null]);
	}

	// every recorded target still at its index (writer's maps), else an Error naming the first that is not
	check(indexMaps) {
		for (const [collection, { writerMap }] of Object.entries(COLLECTIONS)) {
			const indices = this.get('targets')[collection] ?? [], refs = this.listRefs(collection);
			if (refs.length !== indices.length)
				return new Error(`${EXTENSION_NAME}: ${indices.length - refs.length} of the ${collection} the compressed animation drives were removed since it was compressed; compress (sinew()) after removing them`);
			for (let i = 0; i < indices.length; i++) {
				const now = indexMaps[writerMap].get(refs[i]);
				if (now !== indices[i])
					return new Error(`${EXTENSION_NAME}: ${collection.slice(0, -1)} ${indices[i]} ("${refs[i].getName()}") of the compressed animation is now at index ${now}; compress (sinew()) after transforms that reorder or remove ${collection}`);
			}
		}
		return null;
	}
}
/** The glTF-Transform Extension that reads and writes SINEW_compressed_animation. */
export class SinewAnimationCompression extends Extension {
	static EXTENSION_NAME = EXTENSION_NAME;
	extensionName = EXTENSION_NAME;
	prewriteTypes = [PropertyType.BUFFER];

	/** A new, empty CompressedAnimation (attach it with document.getRoot().setExtension(EXTENSION_NAME, it)). */
	createCompressedAnimation() {
		return new CompressedAnimation(this.document.getGraph());
	}

	read(context) {
		const def = context.jsonDoc.json.extensions?.[EXTENSION_NAME];
		if (!def) return this;
		const views = context.jsonDoc.json.bufferViews ?? [];
		if (!Number.isInteger(def.bufferView) || def.bufferView < 0 || def.bufferView >= views.length)
			throw new Error(`${EXTENSION_NAME}: bufferView ${def.bufferView} out of range (${views.length} bufferViews)`);
		const bytes = context.bufferViews[def.bufferView];
		if (!bytes) throw new Error(`${EXTENSION_NAME}: bufferView ${def.bufferView} has no data`);
		const blob = bytes.slice();
		const prop = this.createCompressedAnimation().setBlob(blob).setVersion(def.version).setClips(def.clips ?? []);
		const targets = referencedIndices(blob);
		for (const [collection, indices] of Object.entries(targets))
			for (const index of indices) {
				const target = context[COLLECTIONS[collection].readerKey][index];
				if (!target) throw new Error(`${EXTENSION_NAME}: the blob drives ${collection} ${index}, which the document lacks`);
				prop.addTarget(collection, index, target);
			}
		this.document.getRoot().setExtension(EXTENSION_NAME, prop);
		return this;
	}

	prewrite(context, propertyType) {
		if (propertyType !== PropertyType.BUFFER) return this;
		const prop = this.document.getRoot().getExtension(EXTENSION_NAME);
		if (!prop || !prop.getBlob()) return this;
		const buffer = this.document.getRoot().listBuffers()[0];
		if (!buffer) throw new Error(`${EXTENSION_NAME}: the document has no buffer for the compressed animation (create one)`);
		const views = context.otherBufferViews.get(buffer) ?? [];
		views.push(prop.getBlob());
		context.otherBufferViews.set(buffer, views);
		return this;
	}

	write(context) {
		const prop = this.document.getRoot().getExtension(EXTENSION_NAME);
		if (!prop || !prop.getBlob()) return this;
		const problem = prop.check(context);
		if (problem) throw problem;
		const json = context.jsonDoc.json;
		json.extensions = json.extensions ?? {};
		json.extensions[EXTENSION_NAME] = {
			bufferView: context.otherBufferViewsIndexMap.get(prop.getBlob()),
			version: prop.getVersion(),
			clips: prop.getClips(),
		};
		return this;
	}
}

function glbParts(glb) {
	const dv = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
	const jsonLength = dv.getUint32(12, true);
	const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
	const binAt = 20 + jsonLength;
	const bin = glb.subarray(binAt + 8, binAt + 8 + dv.getUint32(binAt, true));
	return { json, bin };
}

/**
 * A glTF-Transform transform that compresses a Document's animations into a SINEW_compressed_animation blob.
 * Options: those of compress.mjs's pack() (errorCm, shellCm, level, segment, plainKnots, skinShells, args,
 * maxMemoryBytes, wasm), and `io`: the PlatformIO that writes the document for the compressor (default a
 * WebIO with the document's extensions registered; pass your own when an extension needs dependencies to
 * write, e.g. Draco's encoder). `onReport(report)` receives `sinew pack --json`'s report.
 */
export function sinew(options = {}) {
	return async function sinewTransform(document) {
		const root = document.getRoot(), logger = document.getLogger();
		if (root.getExtension(EXTENSION_NAME)) throw new Error(`${EXTENSION_NAME}: the document has a compressed animation already`);
		const animations = root.listAnimations();
		if (animations.length === 0) {
			logger.warn(`${EXTENSION_NAME}: no animation to compress`);
			return;
		}
		let io = options.io;
		if (!io) {
			io = new WebIO();
			const used = root.listExtensionsUsed().map((e) => e.constructor);
			if (used.length) io.registerExtensions(used);
		}
		// a GLB holds one buffer: a document with several (a .gltf read as it is, assimp's simple_skin has four) goes
		// to the compressor as a .gltf and its buffers as resources, the user's buffers left as they are
		let input;
		if (root.listBuffers().length > 1) {
			const { json, resources } = await io.writeJSON(document, { format: Format.GLTF, basename: 'document' });
			input = [new TextEncoder().encode(JSON.stringify(json)), { name: 'document.gltf', resources }];
		} else {
			input = [await io.writeBinary(document), { name: 'document.glb' }];
		}
		const { glb: packed, report } = await pack(input[0], { ...options, ...input[1] });
		options.onReport?.(report);
		const { json, bin } = glbParts(packed);
		const def = json.extensions[EXTENSION_NAME];
		const view = json.bufferViews[def.bufferView];
		const blob = bin.slice(view.byteOffset ?? 0, (view.byteOffset ?? 0) + view.byteLength);
		// the indices in the blob are those of the GLB just written: the document's own list order
		const extension = document.createExtension(SinewAnimationCompression);
		const prop = extension.createCompressedAnimation().setBlob(blob).setVersion(def.version).setClips(def.clips);
		for (const [collection, indices] of Object.entries(referencedIndices(blob))) {
			const list = COLLECTIONS[collection].list(root);
			for (const index of indices) {
				if (!list[index]) throw new Error(`${EXTENSION_NAME}: the blob drives ${collection} ${index}, which the document lacks`);
				prop.addTarget(collection, index, list[index]);
			}
		}
		// the animations, and the accessors only they used, go
		for (const animation of animations) {
			const accessors = new Set();
			for (const sampler of animation.listSamplers()) {
				if (sampler.getInput()) accessors.add(sampler.getInput());
				if (sampler.getOutput()) accessors.add(sampler.getOutput());
			}
			for (const channel of animation.listChannels()) channel.dispose();
			for (const sampler of animation.listSamplers()) sampler.dispose();
			animation.dispose();
			for (const a of accessors) if (a.listParents().every((p) => p === root)) a.dispose();
		}
		root.setExtension(EXTENSION_NAME, prop);
		logger.info(`${EXTENSION_NAME}: ${animations.length} animation(s), ${report.animation_bytes_before} bytes of keyframes -> ${blob.length} bytes (blob)`);
	};
}

export default { SinewAnimationCompression, CompressedAnimation, sinew, EXTENSION_NAME };
