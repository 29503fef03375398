// sinew — see include/sinew.h for version and licence
// Writing rotations into three.js Object3Ds with the result `object.quaternion.set(x, y, z, w)` has: the
// quaternion, and the Euler angles three keeps in step with it (Object3D's onQuaternionChange:
// Euler.setFromQuaternion, through Matrix4.makeRotationFromQuaternion and setFromRotationMatrix), which
// cost most of a node write (an asin and two atan2 per node per frame).
//
// - setQuaternion: three's arithmetic inline for the default 'XYZ' order (the same doubles, without the
//   two callbacks and the 16-element matrix).
// - setQuaternionLazy (after lazyRotation(o) once per object): the quaternion now, the Euler angles when
//   something reads them: the object's rotation gets accessors for _x, _y, _z (and _order) that compute, on
//   the first read after a write, what setFromQuaternion would have stored at the write (the same
//   arithmetic, from the quaternion, which holds what was written: three's methods that change it call its
//   callback, which resolves the angles before overwriting them), so every read of `rotation` (x / y / z,
//   toArray, clone, copy, equals, Quaternion.setFromEuler, order changes ...) gives three's value while
//   frames nobody reads it cost nothing. A write by other code (rotation.set, quaternion.set, ...) resolves
//   first, then stores, as three would. (Writing the quaternion's private _x.._w directly, without its
//   callback, would change the angles a later read computes; three's own code never does.)
// Objects whose rotation order is not 'XYZ' or whose quaternion callback is not three's own go through
// quaternion.set.
const clamp = (value, min, max) => Math.max(min, Math.min(max, value)); // three's MathUtils.clamp

// three's Euler.setFromQuaternion(q) for order 'XYZ', into out[0..2] (x, y, z)
function eulerXYZ(x, y, z, w, out) {
	// Matrix4.compose(zero, q, one): the elements setFromRotationMatrix reads (times a scale of 1: exact)
	const x2 = x + x, y2 = y + y, z2 = z + z;
	const xx = x * x2, xy = x * y2, xz = x * z2;
	const yy = y * y2, yz = y * z2, zz = z * z2;
	const wx = w * x2, wy = w * y2, wz = w * z2;
	const m11 = 1 - (yy + zz), m12 = xy - wz, m13 = xz + wy;
	const m22 = 1 - (xx + zz), m23 = yz - wx;
	const m32 = yz + wx, m33 = 1 - (xx + yy);
	out[1] = Math.asin(clamp(m13, -1, 1));
	if (Math.abs(m13) < 0.9999999) {
		out[0] = Math.atan2(-m23, m33);
		out[2] = Math.atan2(-m12, m11);
	} else {
		out[0] = Math.atan2(m32, m22);
		out[2] = 0;
	}
}

const own = (q) => q._onChangeCallback?.name === 'onQuaternionChange';
const scratch = [0, 0, 0];

/** object.quaternion.set(x, y, z, w)'s result, computed inline. */
export function setQuaternion(o, x, y, z, w) {
	const q = o.quaternion, r = o.rotation;
	if (!r || r._order !== 'XYZ' || !own(q)) { q.set(x, y, z, w); return; }
	q._x = x; q._y = y; q._z = z; q._w = w;
	eulerXYZ(x, y, z, w, scratch);
	r._x = scratch[0]; r._y = scratch[1]; r._z = scratch[2];
}

const LAZY = Symbol('sinew: deferred Euler angles');

/** Gives o.rotation the deferring accessors (once); false when o cannot have them (then setQuaternionLazy writes eagerly). */
export function lazyRotation(o) {
	if (o[LAZY]) return true;
	const q = o.quaternion, r = o.rotation;
	if (!q || !r || !own(q) || !Object.getOwnPropertyDescriptor(r, '_x')?.writable || !Object.getOwnPropertyDescriptor(r, '_order')?.writable) return false;
	// xyz: the order is 'XYZ' (the _order accessor keeps it current, so a write checks it in this object).
	// The angles are computed from the quaternion as it is when read: every three.js method that changes it
	// calls its callback (which reads the angles, resolving them first: from the values just set, which it
	// then overwrites with the same), so until then it holds what the last lazy write put there.
	const st = { pending: false, q, callback: q._onChangeCallback, e: [r._x, r._y, r._z], order: r._order, xyz: r._order === 'XYZ' };
	const resolve = () => { st.pending = false; eulerXYZ(q._x, q._y, q._z, q._w, st.e); };
	const field = (i) => ({
		get() { if (st.pending) resolve(); return st.e[i]; },
		set(v) { if (st.pending) resolve(); st.e[i] = v; },
		configurable: true, enumerable: true,
	});
	Object.defineProperties(r, {
		_x: field(0), _y: field(1), _z: field(2),
		_order: { get() { return st.order; }, set(v) { if (st.pending) resolve(); st.order = v; st.xyz = v === 'XYZ'; }, configurable: true, enumerable: true },
	});
	o[LAZY] = st;
	return true;
}

/** o's deferral state (lazyRotation), or null. */
export function lazyState(o) { return o[LAZY] ?? null; }

/** The quaternion now; three's Euler angles for it when read (see above). */
export function setQuaternionLazy(o, x, y, z, w) {
	const st = o[LAZY], q = o.quaternion;
	if (st === undefined || q._onChangeCallback !== st.callback || !st.xyz) { setQuaternion(o, x, y, z, w); return; }
	q._x = x; q._y = y; q._z = z; q._w = w;
	st.pending = true;
}

/**
 * A character's pose (10 floats a node: quaternion, position, scale) written into its three.js nodes, only the
 * properties that differ from what was written last (`last`, NaN to write everything): what world_binding's
 * writePose does with the setters above, over the nodes' own Quaternion / Vector3 objects and deferral states
 * gathered once (`nodes` from threeNodes: the same results; a loop over objects of one class each rather than
 * over Object3D, Bone, Mesh and SkinnedMesh nodes). mode: 'lazy', true (eager) or false (quaternion alone).
 */
export function threeNodes(targets) {
	return {
		objects: targets,
		quaternions: targets.map((t) => t.quaternion),
		positions: targets.map((t) => t.position),
		scales: targets.map((t) => t.scale),
		lazy: targets.map((t) => t[LAZY] ?? null),
	};
}
export function writeThreeNodes(nodes, pose, last, mode) {
	const { objects, quaternions, positions, scales, lazy } = nodes, J = objects.length;
	for (let j = 0, o = 0; j < J; j++, o += 10) {
		const x = pose[o], y = pose[o + 1], z = pose[o + 2], w = pose[o + 3];
		if (x !== last[o] || y !== last[o + 1] || z !== last[o + 2] || w !== last[o + 3]) {
			const q = quaternions[j], st = lazy[j];
			if (mode === false) { q._x = x; q._y = y; q._z = z; q._w = w; }
			else if (mode === 'lazy' && st !== null && st.xyz && q._onChangeCallback === st.callback) {
				q._x = x; q._y = y; q._z = z; q._w = w;
				st.pending = true;
			} else setQuaternion(objects[j], x, y, z, w);
			last[o] = x; last[o + 1] = y; last[o + 2] = z; last[o + 3] = w;
		}
		const tx = pose[o + 4], ty = pose[o + 5], tz = pose[o + 6];
		if (tx !== last[o + 4] || ty !== last[o + 5] || tz !== last[o + 6]) {
			positions[j].set(tx, ty, tz);
			last[o + 4] = tx; last[o + 5] = ty; last[o + 6] = tz;
		}
		const sx = pose[o + 7], sy = pose[o + 8], sz = pose[o + 9];
		if (sx !== last[o + 7] || sy !== last[o + 8] || sz !== last[o + 9]) {
			scales[j].set(sx, sy, sz);
			last[o + 7] = sx; last[o + 8] = sy; last[o + 9] = sz;
		}
	}
}
