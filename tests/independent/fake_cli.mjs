#!/usr/bin/env node
// A sinew CLI that lies, for selftest.mjs: every command is delegated to the real CLI
// ($SINEW_FAKE_REAL), then, by $SINEW_FAKE_MODE, the output is corrupted the way a broken compressor
// could corrupt it. The judge (check_gltf.mjs --cli fake_cli.mjs) must fail every mode but `honest`.
//
//   honest            delegate everything unchanged
//   perturb           decompress: the first translation channel's keys moved by +1 mm in x
//   drop-scale        decompress: every scale channel removed (the output keeps the rest scale)
//   missing-node      decompress: the last node removed (and the channels that target it)
//   missing-clip      decompress: the last animation removed
//   perturb-pointer   decompress: the first KHR_animation_pointer channel's values + 0.01
//   pack-perturbed    pack: packs a copy of the source whose first translation channel is moved by +1 mm
//   pack-perturbed-pointer  pack: a copy of the source whose first pointer channel's values are + 0.01
//   refuse            compress: exits 1 with "sinew: error: $SINEW_FAKE_MESSAGE" (default "refused")
//   crash             compress: killed by SIGSEGV after printing "sinew: error: $SINEW_FAKE_MESSAGE"
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { makeGlb } from './gltf_node.mjs';
import { loadDocument } from './pointers.mjs';

const real = process.env.SINEW_FAKE_REAL, mode = process.env.SINEW_FAKE_MODE ?? 'honest';
const message = process.env.SINEW_FAKE_MESSAGE ?? 'refused';
if (!real) { console.error('fake_cli: SINEW_FAKE_REAL is not set'); process.exit(125); }
const args = process.argv.slice(2), cmd = args[0];
const outArg = () => { const i = args.indexOf('-o'); return i >= 0 ? args[i + 1] : null; };
const delegate = (a) => {
	const r = spawnSync(real, a, { stdio: 'inherit' });
	if (r.error) { console.error(`fake_cli: ${r.error.message}`); process.exit(125); }
	return r.status ?? 125;
};

// Adds `delta` to every float of accessor `index` (floats only, any byteStride).
function shiftAccessor(doc, index, delta, firstComponentOnly = false) {
	const a = doc.json.accessors[index], v = doc.json.bufferViews[a.bufferView];
	if (a.componentType !== 5126) throw new Error(`fake_cli: accessor ${index} is not float`);
	const n = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4 }[a.type], buf = doc.buffers[v.buffer];
	const dv = new DataView(buf.buffer, buf.byteOffset + (v.byteOffset ?? 0) + (a.byteOffset ?? 0));
	const stride = v.byteStride || 4 * n;
	for (let i = 0; i < a.count; i++)
		for (let c = 0; c < (firstComponentOnly ? 1 : n); c++) dv.setFloat32(i * stride + 4 * c, dv.getFloat32(i * stride + 4 * c, true) + delta, true);
}

function firstChannel(doc, test) {
	for (const anim of doc.json.animations ?? []) for (const ch of anim.channels) if (test(ch)) return anim.samplers[ch.sampler];
	throw new Error(`fake_cli: no channel to corrupt for ${mode}`);
}
const isTranslation = (ch) => ch.target.path === 'translation';
const isPointer = (ch) => ch.target.path === 'pointer';

function save(doc, path) {
	if (/\.glb$/i.test(path)) {
		if (doc.buffers.length !== 1) throw new Error('fake_cli: GLB with more than one buffer');
		doc.json.buffers = [{ byteLength: doc.buffers[0].length }];
		writeFileSync(path, Buffer.from(makeGlb(doc.json, doc.buffers[0])));
	} else {
		doc.json.buffers = doc.buffers.map((b) => ({ byteLength: b.length, uri: 'data:application/octet-stream;base64,' + Buffer.from(b).toString('base64') }));
		writeFileSync(path, JSON.stringify(doc.json));
	}
}

function corruptOutput(path) {
	const doc = loadDocument(path), j = doc.json;
	switch (mode) {
		case 'perturb': shiftAccessor(doc, firstChannel(doc, isTranslation).output, 1e-3, true); break;
		case 'perturb-pointer': shiftAccessor(doc, firstChannel(doc, isPointer).output, 0.01); break;
		case 'drop-scale':
			for (const anim of j.animations ?? []) anim.channels = anim.channels.filter((ch) => ch.target.path !== 'scale');
			break;
		case 'missing-node': {
			const gone = j.nodes.length - 1;
			if (j.nodes[gone].children?.length || (j.skins ?? []).some((s) => s.joints.includes(gone) || s.skeleton === gone)) throw new Error('fake_cli: the last node is not a free leaf');
			j.nodes.pop();
			for (const n of j.nodes) if (n.children) n.children = n.children.filter((c) => c !== gone);
			for (const s of j.scenes ?? []) s.nodes = (s.nodes ?? []).filter((c) => c !== gone);
			for (const anim of j.animations ?? []) anim.channels = anim.channels.filter((ch) => ch.target.node !== gone);
			break;
		}
		case 'missing-clip': j.animations.pop(); break;
		default: return;
	}
	save(doc, path);
}

try {
	if (cmd === 'compress' && (mode === 'refuse' || mode === 'crash')) {
		console.error(`sinew: error: ${message}`);
		if (mode === 'crash') process.kill(process.pid, 'SIGSEGV');
		process.exit(1);
	}
	if (cmd === 'pack' && (mode === 'pack-perturbed' || mode === 'pack-perturbed-pointer')) {
		const dir = mkdtempSync(join(tmpdir(), 'sinew-fake-'));
		let status;
		try {
			const doc = loadDocument(args[1]);
			if (mode === 'pack-perturbed') shiftAccessor(doc, firstChannel(doc, isTranslation).output, 1e-3, true);
			else shiftAccessor(doc, firstChannel(doc, isPointer).output, 0.01);
			const copy = join(dir, 'perturbed.gltf');
			save(doc, copy);
			status = delegate(['pack', copy, ...args.slice(2)]);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
		process.exit(status);
	}
	const status = delegate(args);
	if (status === 0 && cmd === 'decompress') corruptOutput(outArg());
	process.exit(status);
} catch (e) {
	console.error(e.message);
	process.exit(125);
}
