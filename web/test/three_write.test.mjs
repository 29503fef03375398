// sinew — see include/sinew.h for version and licence
// adapters/three_write.mjs against three.js itself (web/node_modules, npm ci --prefix web): a rotation
// written by setQuaternion or setQuaternionLazy leaves an Object3D exactly as object.quaternion.set leaves
// it, Euler angles included, bit for bit, whatever reads and writes other code interleaves.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { lazyRotation, setQuaternion, setQuaternionLazy, threeNodes, writeThreeNodes } from '../adapters/three_write.mjs';

const THREE_DIR = fileURLToPath(new URL('../node_modules/three/', import.meta.url));
const skip = !existsSync(THREE_DIR) && `no ${THREE_DIR} (npm ci --prefix web)`;

let seed = 12345;
const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
const quaternion = () => {
	const q = [rnd() * 2 - 1, rnd() * 2 - 1, rnd() * 2 - 1, rnd() * 2 - 1], n = Math.hypot(...q);
	return q.map((v) => Math.fround(v / n)); // as the runtimes write them: float32
};

test('setQuaternion: the quaternion and Euler angles quaternion.set leaves, bit for bit (300,000 rotations, gimbal lock included)', { skip }, async () => {
	const THREE = await import('three');
	const a = new THREE.Object3D(), b = new THREE.Object3D();
	const gimbal = [[0.7071067811865476, 0, 0, 0.7071067811865476], [0, 0.7071067811865475, 0, 0.7071067811865476], [0, -0.7071067811865475, 0, 0.7071067811865476]];
	for (let i = 0; i < 300000; i++) {
		const q = i < gimbal.length ? gimbal[i].map(Math.fround) : quaternion();
		a.quaternion.set(...q); setQuaternion(b, ...q);
		for (const k of ['_x', '_y', '_z']) assert.ok(Object.is(a.rotation[k], b.rotation[k]), `${q}: rotation.${k} ${a.rotation[k]} vs ${b.rotation[k]}`);
		assert.ok(a.quaternion.equals(b.quaternion));
	}
	// another order goes through quaternion.set
	a.rotation.order = b.rotation.order = 'ZYX';
	const q = quaternion();
	a.quaternion.set(...q); setQuaternion(b, ...q);
	assert.deepEqual(b.rotation.toArray(), a.rotation.toArray());
});

test('setQuaternionLazy: every read of rotation gives what three stored at the write, through 60,000 interleaved operations', { skip }, async () => {
	const THREE = await import('three');
	let checks = 0;
	for (let trial = 0; trial < 2000; trial++) {
		const a = new THREE.Object3D(), b = new THREE.Object3D(); // a: three's own writes, b: the lazy ones
		assert.equal(lazyRotation(b), true);
		const same = (what) => {
			const ea = a.rotation, eb = b.rotation;
			for (const k of ['x', 'y', 'z']) assert.ok(Object.is(ea[k], eb[k]), `${what}: rotation.${k} ${ea[k]} vs ${eb[k]}`);
			assert.equal(eb.order, ea.order);
			assert.deepEqual(eb.toArray(), ea.toArray());
			assert.ok(ea.equals(eb.clone()) && a.quaternion.equals(b.quaternion), what);
			checks++;
		};
		for (let k = 0; k < 30; k++) {
			const op = Math.floor(rnd() * 10);
			if (op <= 3) { // sinew writes, sometimes several before anything reads
				const q = quaternion();
				a.quaternion.set(...q); setQuaternionLazy(b, ...q);
				if (rnd() < 0.5) continue;
			} else if (op === 4) { const e = [rnd() * 6 - 3, rnd() * 6 - 3, rnd() * 6 - 3]; a.rotation.set(...e); b.rotation.set(...e); }
			else if (op === 5) { const v = rnd() * 3; a.rotation.x = v; b.rotation.x = v; }
			else if (op === 6) { const o = ['XYZ', 'YXZ', 'ZXY', 'XYZ'][Math.floor(rnd() * 4)]; a.rotation.order = o; b.rotation.order = o; } // setFromEuler reads the angles
			else if (op === 7) { const q = quaternion(); a.quaternion.set(...q); b.quaternion.set(...q); }
			else if (op === 8) { const c = new THREE.Object3D().copy(a), d = new THREE.Object3D().copy(b); assert.ok(c.rotation.equals(d.rotation) && c.quaternion.equals(d.quaternion)); }
			else { const q = quaternion(); a.quaternion.set(...q); setQuaternion(b, ...q); }
			same(`trial ${trial} op ${op}`);
		}
	}
	assert.ok(checks > 40000);
	// an object whose quaternion callback is not three's own is written through quaternion.set
	const c = new THREE.Object3D();
	let called = 0;
	c.quaternion._onChange(() => called++);
	assert.equal(lazyRotation(c), false);
	setQuaternionLazy(c, ...quaternion());
	assert.equal(called, 1);
});

test('writeThreeNodes: each mode leaves the nodes as three\'s own writes leave them, and writes only what changed', { skip }, async () => {
	const THREE = await import('three');
	const J = 48, kinds = [THREE.Object3D, THREE.Bone, THREE.Mesh, THREE.Group];
	for (const mode of ['lazy', true, false]) {
		const a = [], b = [];
		for (let j = 0; j < J; j++) { const K = kinds[j % kinds.length]; a.push(new K()); b.push(new K()); }
		if (mode === 'lazy') b.forEach((o, j) => { if (j !== 5) assert.equal(lazyRotation(o), true); }); // node 5 writes eagerly
		b[7].rotation.order = a[7].rotation.order = 'ZYX'; // another order: through quaternion.set
		let sets = 0;
		b[9].position.set = function (...v) { sets++; return THREE.Vector3.prototype.set.apply(this, v); };
		const nodes = threeNodes(b), pose = new Float32Array(10 * J), last = new Float32Array(10 * J).fill(NaN);
		for (let f = 0; f < 300; f++) {
			for (let j = 0; j < J; j++) {
				const o = 10 * j;
				if (f === 0 || rnd() < 0.6) pose.set(quaternion(), o);
				if (f === 0 || rnd() < 0.3) pose.set([rnd(), rnd(), rnd()].map(Math.fround), o + 4);
				if (f === 0 || rnd() < 0.1) pose.set([rnd(), rnd(), rnd()].map(Math.fround), o + 7);
				a[j].quaternion.set(...pose.subarray(o, o + 4)); a[j].position.set(...pose.subarray(o + 4, o + 7)); a[j].scale.set(...pose.subarray(o + 7, o + 10));
			}
			if (f === 150) { a[11].rotation.order = b[11].rotation.order = 'YXZ'; } // an order change after lazy writes
			const before = sets, moved = [94, 95, 96].some((i) => pose[i] !== last[i]); // node 9's position
			writeThreeNodes(nodes, pose, last, mode);
			assert.equal(sets - before, moved ? 1 : 0, `frame ${f}: node 9's position written ${sets - before} times, moved ${moved}`);
			if (f % 7 !== 0) continue; // (reads between some frames only: lazy angles pile up unread)
			for (let j = 0; j < J; j++) {
				assert.ok(a[j].quaternion.equals(b[j].quaternion) && a[j].position.equals(b[j].position) && a[j].scale.equals(b[j].scale), `${mode} frame ${f} node ${j}`);
				if (mode !== false) for (const k of ['x', 'y', 'z']) assert.ok(Object.is(a[j].rotation[k], b[j].rotation[k]), `${mode} frame ${f} node ${j}: rotation.${k}`);
				assert.equal(b[j].rotation.order, a[j].rotation.order);
			}
		}
		assert.ok(sets > 50 && sets < 200, `${sets} position writes of node 9 over 300 frames (changed in about 90)`);
	}
});
