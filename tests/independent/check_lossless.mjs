// sinew — see include/sinew.h for version and licence
// Independent judge of the lossless runtime (web/lossless/): every animation of each glTF file is played by
// three.js r187's own GLTFLoader and AnimationMixer (nothing of sinew), and sampled by the lossless runtime's two
// builds (wasm baseline and SIMD128) from the same document; at every key time of the clip and at the 1/4, 1/2
// and 3/4 points between keys (evaluate.mjs checkTimes), and before and after the keys, every channel the block
// holds must give the node's local translation, rotation and scale, and the morph weights three's mixer writes,
// within TOL of the largest magnitude (at least 1) of that value: the runtime interpolates in float32 and three in
// double. A rotation is compared as the rotation it stands for (both normalized, either sign): three's slerp
// renormalizes between keys less than 3.6 degrees apart, also at a key itself, and the glTF formula does not, which
// differs where a file's keys are not unit length (SimpleSkin's three-digit keys are up to 2.3e-4 from it): a
// clip's rotations are allowed TOL plus that distance. Every node TRS / weights track three plays must have its
// channel in the block.
//
//   node tests/independent/check_lossless.mjs [--json] FILE...
// Prints one line per file (worst difference, values compared) and `N passed, N failed`; exits 1 on a failure.
import { dirname, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import * as L from '../../web/lossless/lossless.mjs';
import { loadGltf, readGltf } from './gltf_node.mjs';
import { SceneEval, ThreePlayer, checkTimes } from './evaluate.mjs';

const TOL = 4e-6;
const args = process.argv.slice(2);
const JSON_OUT = args.includes('--json');
const files = args.filter((a) => !a.startsWith('--'));
if (!files.length) { console.error('usage: node tests/independent/check_lossless.mjs [--json] FILE...'); process.exit(2); }

// The document's buffers as the lossless builder takes them: the GLB BIN chunk, external files read, data: URIs
// left to the builder.
function buffersOf(path, json) {
	const { bin } = readGltf(path);
	return (json.buffers ?? []).map((b, i) => {
		if (b.uri === undefined) return i === 0 ? bin : null;
		if (b.uri.startsWith('data:')) return null;
		return readFileSync(resolve(dirname(path), decodeURIComponent(b.uri)));
	});
}

async function checkFile(path, runtimes) {
	const { gltf, json } = await loadGltf(path);
	const buffers = buffersOf(path, json);
	const scene = new SceneEval(gltf, json);
	let worst = 0, compared = 0, where = '';
	const failures = [], notes = [];
	const count = json.animations?.length ?? 0;
	for (let a = 0; a < count; a++) {
		const clip = gltf.animations[a];
		const block = L.build(json, buffers, { animation: a });
		const groups = runtimes.map((rt) => rt.load(block));
		const d = L.describe(block);
		// every node TRS / weights track three plays has its channel (three names a track node.property)
		const have = new Set(d.channels.map((c) => `${c.node}:${c.path}`));
		for (const ch of json.animations[a].channels ?? []) {
			const p = ch.target?.path;
			if (ch.target?.node === undefined || !['translation', 'rotation', 'scale', 'weights'].includes(p)) continue;
			if (!have.has(`${ch.target.node}:${p}`)) failures.push(`animation ${a}: node ${ch.target.node} ${p} has no channel in the block`);
		}
		// how far the clip's rotation keys are from unit length, as three loaded them: the two formulas may differ by that
		let eps = 0;
		for (const track of clip.tracks) {
			if (track.ValueTypeName !== 'quaternion') continue;
			const q = track.values;
			for (let i = 0; i + 3 < q.length; i += 4) eps = Math.max(eps, Math.abs(Math.hypot(q[i], q[i + 1], q[i + 2], q[i + 3]) - 1));
		}
		if (eps > 1e-5) notes.push(`animation ${a}: rotation keys up to ${eps.toExponential(2)} from unit length (rotations within ${(TOL + eps).toExponential(2)})`);
		const player = new ThreePlayer(scene, clip);
		const { times } = checkTimes(clip);
		const span = times.length ? [times[0] - 0.25, times[times.length - 1] + 0.25] : [];
		for (const t of [...times, ...span]) {
			player.pose(t);
			for (const [k, g] of groups.entries()) {
				const out = g.sample(t).outputs;
				for (const c of d.channels) {
					const slot = scene.slot.get(c.node);
					if (slot === undefined) continue; // a node no scene holds: three plays nothing there
					const o = scene.objects[slot];
					let v = Array.from(out.subarray(c.offset, c.offset + c.components));
					let want;
					if (c.path === 'translation') want = o.position.toArray();
					else if (c.path === 'scale') want = o.scale.toArray();
					else if (c.path === 'rotation') { // as the rotations they stand for (the header says why)
						const n = Math.hypot(v[0], v[1], v[2], v[3]);
						v = v.map((x) => x / n);
						want = o.quaternion.clone().normalize().toArray();
						if (want[0] * v[0] + want[1] * v[1] + want[2] * v[2] + want[3] * v[3] < 0) want = want.map((x) => -x);
					} else {
						const meshes = scene.morphs[slot];
						if (!meshes.length) continue;
						want = Array.from(meshes[0].mesh.morphTargetInfluences);
					}
					if (want.length !== c.components) { failures.push(`animation ${a} node ${c.node} ${c.path}: ${c.components} floats, three ${want.length}`); continue; }
					const scale = Math.max(1, ...want.map(Math.abs)), tol = c.path === 'rotation' ? TOL + eps : TOL;
					for (let i = 0; i < want.length; i++) {
						const e = Math.abs(v[i] - want[i]) / scale;
						compared++;
						if (!(e <= worst)) { worst = e; where = `animation ${a} t=${t} node ${c.node} ${c.path}[${i}] ${k ? 'simd' : 'baseline'}: ${v[i]} vs three ${want[i]}`; }
						if (!(e <= tol) && failures.length < 5) failures.push(`animation ${a} t=${t} node ${c.node} ${c.path}[${i}] ${k ? 'simd' : 'baseline'}: ${v[i]} vs three ${want[i]}`);
					}
				}
			}
		}
		player.dispose();
		for (const g of groups) g.unload();
	}
	return { file: path, animations: count, compared, worst, where, failures, notes };
}

const runtimes = [await L.createRuntime({ simd: false }), await L.createRuntime({ simd: true })];
let passed = 0, failed = 0;
const results = [];
for (const f of files) {
	let r;
	try { r = await checkFile(f, runtimes); } catch (e) { r = { file: f, failures: [`error: ${e.message}`] }; }
	results.push(r);
	if (r.failures.length) failed++; else passed++;
	if (!JSON_OUT) {
		console.log(`${r.failures.length ? 'FAIL' : 'ok  '} ${f}: ${r.animations ?? 0} animations, ${r.compared ?? 0} values, worst ${(r.worst ?? NaN).toExponential(2)}` +
			(r.where ? ` (${r.where})` : ''));
		for (const m of [...(r.notes ?? []), ...r.failures]) console.log(`     ${m}`);
	}
}
if (JSON_OUT) console.log(JSON.stringify({ tolerance: TOL, results }, null, 1));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
