// Independent judge of sinew's error guarantee — loading glTF with three.js's own GLTFLoader in
// node. Nothing here comes from sinew: the file is read, its images/textures/materials are
// dropped (node has no image decoding and the judge needs none of them), external buffers are
// inlined as data: URIs (node's fetch reads data: but not file: URLs), Draco-compressed primitives
// become empty attributes (no decoder in node; vertex data does not matter for node transforms or
// morph weights), and three's GLTFLoader.parse builds the scene.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import { GLTFLoader } from '../../web/browser-test/node_modules/three/examples/jsm/loaders/GLTFLoader.js';
// EXT_meshopt_compression (gltfpack -cc output, bench/gltf_sizes.mjs): three's own decoder
import { MeshoptDecoder } from '../../web/browser-test/node_modules/three/examples/jsm/libs/meshopt_decoder.module.js';

// three's FileLoader (used for data: URI buffers) reports progress with ProgressEvent, which node
// 20 does not define.
if (typeof globalThis.ProgressEvent === 'undefined') {
	globalThis.ProgressEvent = class ProgressEvent extends Event {
		constructor(type, init = {}) {
			super(type);
			this.lengthComputable = !!init.lengthComputable;
			this.loaded = init.loaded ?? 0;
			this.total = init.total ?? 0;
		}
	};
}

const GLB_MAGIC = 0x46546c67, CHUNK_JSON = 0x4e4f534a, CHUNK_BIN = 0x004e4942;

// { json, bin } of a .glb or .gltf file (bin: the GLB BIN chunk or null).
export function readGltf(path) {
	const bytes = readFileSync(path);
	if (bytes.length >= 12 && bytes.readUInt32LE(0) === GLB_MAGIC) {
		let json = null, bin = null;
		for (let at = 12; at + 8 <= bytes.length;) {
			const length = bytes.readUInt32LE(at), type = bytes.readUInt32LE(at + 4);
			const chunk = bytes.subarray(at + 8, at + 8 + length);
			if (type === CHUNK_JSON && json === null) json = JSON.parse(chunk.toString('utf8'));
			else if (type === CHUNK_BIN && bin === null) bin = chunk;
			at += 8 + length;
		}
		if (!json) throw new Error(`${path}: GLB without a JSON chunk`);
		return { json, bin };
	}
	return { json: JSON.parse(bytes.toString('utf8')), bin: null };
}

const DROPPED_EXTENSIONS = /^(KHR_materials_|KHR_texture_|EXT_texture_|KHR_draco_mesh_compression$|MSFT_texture_dds$)/;

// A copy of the document that three can load in node without images: materials reduced to their
// names (three then builds default materials), images/textures/samplers removed, external buffers
// inlined, Draco primitives turned into attributes without data.
export function sanitize(json, baseDir) {
	const j = structuredClone(json);
	delete j.images;
	delete j.textures;
	delete j.samplers;
	if (j.materials) j.materials = j.materials.map((m) => (m && m.name !== undefined ? { name: m.name } : {}));
	for (const key of ['extensionsUsed', 'extensionsRequired']) {
		if (j[key]) j[key] = j[key].filter((e) => !DROPPED_EXTENSIONS.test(e));
	}
	for (const mesh of j.meshes ?? []) {
		for (const p of mesh.primitives ?? []) {
			if (p.extensions) {
				delete p.extensions.KHR_draco_mesh_compression;
				delete p.extensions.KHR_materials_variants;
			}
		}
	}
	// KHR_animation_pointer: three r187's GLTFLoader has no support for it. A pointer to a node's
	// translation/rotation/scale/weights is by the extension's spec the same as a plain channel, so it
	// becomes one; other pointers (materials, cameras, lights) stay, ignored by three.
	for (const anim of j.animations ?? []) {
		for (const ch of anim.channels ?? []) {
			const ptr = ch.target?.extensions?.KHR_animation_pointer?.pointer;
			const m = ch.target?.path === 'pointer' && typeof ptr === 'string' ? /^\/nodes\/(\d+)\/(translation|rotation|scale|weights)$/.exec(ptr) : null;
			if (m) ch.target = { node: Number(m[1]), path: m[2] };
		}
	}
	for (const buffer of j.buffers ?? []) {
		if (typeof buffer.uri === 'string' && !buffer.uri.startsWith('data:')) {
			const file = resolve(baseDir, decodeURIComponent(buffer.uri));
			buffer.uri = 'data:application/octet-stream;base64,' + readFileSync(file).toString('base64');
		}
	}
	return j;
}

// A GLB (ArrayBuffer) of json + bin.
export function makeGlb(json, bin) {
	const pad = (n) => (n + 3) & ~3;
	const jsonBytes = Buffer.from(JSON.stringify(json), 'utf8');
	const jsonLen = pad(jsonBytes.length), binLen = bin ? pad(bin.length) : 0;
	const total = 12 + 8 + jsonLen + (bin ? 8 + binLen : 0);
	const out = Buffer.alloc(total, 0);
	out.writeUInt32LE(GLB_MAGIC, 0);
	out.writeUInt32LE(2, 4);
	out.writeUInt32LE(total, 8);
	out.writeUInt32LE(jsonLen, 12);
	out.writeUInt32LE(CHUNK_JSON, 16);
	jsonBytes.copy(out, 20);
	out.fill(0x20, 20 + jsonBytes.length, 20 + jsonLen);
	if (bin) {
		const at = 20 + jsonLen;
		out.writeUInt32LE(binLen, at);
		out.writeUInt32LE(CHUNK_BIN, at + 4);
		Buffer.from(bin.buffer, bin.byteOffset, bin.length).copy(out, at + 8);
	}
	return out.buffer.slice(out.byteOffset, out.byteOffset + out.length);
}

// Loads a glTF/GLB file with three's GLTFLoader. Returns { gltf, json } (json: the original
// document, for node names). Warnings three prints while parsing are collected in `warnings`.
export async function loadGltf(path) {
	const { json, bin } = readGltf(path);
	const clean = sanitize(json, dirname(resolve(path)));
	const data = makeGlb(clean, bin);
	const loader = new GLTFLoader();
	await MeshoptDecoder.ready;
	loader.setMeshoptDecoder(MeshoptDecoder);
	const warnings = [];
	const warn = console.warn;
	console.warn = (...args) => warnings.push(args.map(String).join(' '));
	try {
		const gltf = await new Promise((ok, fail) => loader.parse(data, dirname(resolve(path)) + '/', ok, fail));
		return { gltf, json, warnings };
	} finally {
		console.warn = warn;
	}
}
