// sinew — see include/sinew.h for version and licence
// three.js adapter over the world runtime (web/world.mjs): many characters (SkinnedMesh scenes
// from GLTFLoader, or clones of one) in ONE world, each with an AnimationMixer-like object whose
// clipAction() handles blend: play, stop, reset, fadeIn, fadeOut, crossFadeTo / crossFadeFrom,
// setEffectiveWeight, timeScale, setLoop (LoopOnce / LoopRepeat / LoopPingPong), clampWhenFinished,
// blendMode (additive against the clip's first sample, like AnimationUtils.makeClipAdditive), and
// 'loop' / 'finished' events. SinewSceneMixer.update(dt) is ONE wasm call for the whole scene,
// then writes every character's nodes (position / quaternion / scale, morphTargetInfluences).
//
//   const scene = await SinewSceneMixer.create();             // or new SinewSceneMixer(world)
//   const blob = scene.load(bytes);                            // compressed from robot.glb, with metadata
//   const mixer = scene.add(gltf, [blob]);                     // per character (gltf or { scene } + nodes)
//   mixer.clipAction('Idle').play();
//   mixer.clipAction('Idle').crossFadeTo(mixer.clipAction('Run').play(), 0.5);
//   renderer.setAnimationLoop(() => { scene.update(clock.getDelta()); renderer.render(...); });
import { createWorld } from '../world.mjs';
import { nodeLookup, morphMeshes } from './three.mjs';
import { engineDuration } from './gltf_clips.mjs';
import { lazyRotation, threeNodes, writeThreeNodes } from './three_write.mjs';
import { SinewAction as ThreeAction, LoopOnce, LoopRepeat, LoopPingPong, NormalAnimationBlendMode, AdditiveAnimationBlendMode } from './three_action.mjs';

export { LoopOnce, LoopRepeat, LoopPingPong, NormalAnimationBlendMode, AdditiveAnimationBlendMode };
import { applyGltfParticipation, bindCharacter, writeMorphs, Events } from './world_binding.mjs';

// The rotation writes by syncRotation (three_write.mjs writeThreeNodes): 'lazy' (default) the quaternion now and
// Object3D.rotation (three's Euler angles for it) when something reads it; true the rotation at once, as
// quaternion.set does; false the quaternion's components alone, without its change callback, so
// Object3D.rotation is not updated (the matrices, skinning and rendering use the quaternion; saves three's
// quaternion -> Euler conversion per written node, the largest part of the writes).
const getLocal = (o) => [o.quaternion.x, o.quaternion.y, o.quaternion.z, o.quaternion.w, o.position.x, o.position.y, o.position.z,
	o.scale.x, o.scale.y, o.scale.z];

/**
 * One clip on one character, as THREE.AnimationAction: its time, weights, fades, warps, loops and events are
 * three's own (adapters/three_action.mjs); it owns one layer of the character's player, into which it writes
 * the clip time and weight of each frame before the world's frame call blends every layer of the scene.
 */
export class SinewAction extends ThreeAction {
	constructor(mixer, clip, layer) {
		// three's clip duration: the last key time (float32), where its loops wrap
		super(mixer, { index: clip.index, name: clip.name, duration: engineDuration(mixer._json, clip, clip.index, clip.blob.clipCount), clip });
		this._layer = layer;
		layer.setClip(clip, { scalarMap: mixer._binding.scalarMap(clip) });
		layer.loop = 'once'; // (the time is set every frame: 'once' keeps the end where 'repeat' would wrap it)
		layer.speed = 0;
		layer.weight = 0;
		layer.enabled = false;
	}
	/** The world clip (WorldClip) this action plays. */
	getClip() { return this._clip.clip; }
	get blendMode() { return this._blendMode; }
	/** AdditiveAnimationBlendMode: additive against the clip's first sample, as three plays a clip made with AnimationUtils.makeClipAdditive. */
	set blendMode(m) { this._blendMode = m; if (this._layer) this._layer.additive = m === AdditiveAnimationBlendMode ? 'first' : false; }
	// the frame's clip time and weight into the layer (inactive or weightless: left out of the blend)
	_sync(weight) {
		const l = this._layer;
		if (!(weight > 0)) { if (l.enabled) l.enabled = false; return; }
		l.time = this._clipTime;
		l.weight = weight;
		if (!l.enabled) l.enabled = true;
	}
}

/** One character's mixer (like THREE.AnimationMixer on one root); made by SinewSceneMixer.add(). */
export class SinewCharacterMixer extends Events {
	constructor(scene, root, blobs, options) {
		super();
		this._scene = scene;
		this._root = root.scene ?? root;
		this._matrices = !!(options.matrices ?? scene.matrices);
		this.blobs = blobs;
		// blend exactly the tracks three's own clips of this glTF have (options.gltfParticipation: false keeps the blob's)
		this._json = root.parser?.json ?? options.json ?? null;
		if (options.gltfParticipation !== false && this._json) applyGltfParticipation(this._json, blobs);
		const find = nodeLookup(root, options);
		const associations = root.parser?.associations ?? options.associations;
		this._binding = bindCharacter(scene.world, blobs, {
			find, getLocal,
			morphs: (node, target) => morphMeshes(node, associations).filter((m) => target < m.morphTargetInfluences.length)
				.map((m) => ({ get: () => m.morphTargetInfluences[target], set: (v) => { m.morphTargetInfluences[target] = v; } })),
		}, { layers: options.layers ?? Math.max(2, blobs.reduce((s, b) => s + b.clipCount, 0)),
			extra: this._matrices ? (targets) => matrixJoints(this._root, targets) : null });
		this.player = this._binding.player;
		if (scene.syncRotation === 'lazy' && !this._matrices) for (const t of this._binding.targets) lazyRotation(t);
		this._nodes = this._matrices ? null : threeNodes(this._binding.targets);
		if (this._matrices) this._bindMatrices();
		this._actions = new Map();
		this._active = [];   // the playing actions, in three's order (activation, swapped on stop)
		this.time = 0;       // the mixer's clock (fades and warps are scheduled on it)
		this.timeScale = 1;
		this._nextLayer = 0;
	}
	// three's AnimationMixer._activateAction / _deactivateAction, without bindings: the layer plays from the
	// next frame on; a stopped action's layer leaves the blend (three puts the nodes' original values back)
	_activateAction(action) {
		if (action._active) return;
		action._active = true;
		this._active.push(action);
	}
	_deactivateAction(action) {
		if (!action._active) return;
		action._active = false;
		const i = this._active.indexOf(action), last = this._active.length - 1;
		this._active[i] = this._active[last];
		this._active.pop();
		action._layer.enabled = false;
	}
	// the frame's step of three's AnimationMixer.update for this character: every playing action's time,
	// weight and events (before the world's one call blends them)
	_advance(deltaTime) {
		deltaTime *= this.timeScale;
		const time = this.time += deltaTime, timeDirection = Math.sign(deltaTime), actions = this._active;
		for (let i = 0; i !== actions.length; ++i) {
			const a = actions[i];
			a._sync(a._update(time, deltaTime, timeDirection));
		}
	}
	/** The clip by WorldClip, name or index over the character's blobs. */
	_clipOf(clip) {
		if (typeof clip === 'object' && clip !== null) return clip;
		const all = this.blobs.flatMap((b) => b.clips);
		const c = typeof clip === 'number' ? all[clip] : all.find((x) => x.name === clip);
		if (!c) throw new RangeError(`sinew three: no clip ${clip}`);
		return c;
	}
	clipAction(clip) {
		const c = this._clipOf(clip);
		let a = this._actions.get(c);
		if (!a) {
			if (this._nextLayer >= this.player.layerCount) throw new RangeError(`sinew three: more actions than the ${this.player.layerCount} layers (options.layers)`);
			a = new SinewAction(this, c, this.player.layer(this._nextLayer++));
			this._actions.set(c, a);
		}
		return a;
	}
	/** The next frame writes every node again (after other code moved them). */
	invalidate() { this._binding.invalidate(); return this; }
	existingAction(clip) { return this._actions.get(this._clipOf(clip)) ?? null; }
	stopAllAction() { for (let i = this._active.length - 1; i >= 0; --i) this._active[i].stop(); return this; }
	/** Per-character update is not a thing here: the scene's update() advances everyone in one call. */
	update() { throw new Error('sinew three: call SinewSceneMixer.update(dt) once per frame for the whole scene'); }
	_write() {
		const b = this._binding;
		if (this._matrices) { this._matrixViews(); writeMorphs(b); return; }
		const pose = b.player.pose;
		if (!b._last || b._full) { b._last = new Float32Array(pose.length).fill(NaN); b._full = false; }
		writeThreeNodes(this._nodes, pose, b._last, this._scene.syncRotation);
		writeMorphs(b);
	}

	// Matrix mode: the world computes every joint's matrixWorld and every skin's bone matrices in
	// its frame call; the joints' matrixWorld.elements and the skeletons' boneMatrices (and bone
	// texture data) are views of wasm memory, so JS does no per-bone work.
	_bindMatrices() {
		const targets = this._binding.targets, index = new Map(targets.map((t, j) => [t, j]));
		const anchors = [];
		const parents = targets.map((t) => {
			if (index.has(t.parent)) return index.get(t.parent);
			let k = anchors.indexOf(t.parent ?? null);
			if (k < 0) { k = anchors.length; anchors.push(t.parent ?? null); }
			return -1 - k;
		});
		const skins = [], skeletons = [], byKey = new Map();
		this._root.traverse?.((o) => { // (skins are found under an Object3D root; a root without one has none)
			const sk = o.isSkinnedMesh ? o.skeleton : null;
			if (!sk || skeletons.some((s) => s.skeleton === sk)) return;
			const joints = sk.bones.map((b) => index.get(b));
			if (joints.some((j) => j === undefined)) return; // a missing bone: left to three
			const inverses = new Float32Array(16 * joints.length);
			sk.boneInverses.forEach((m, i) => inverses.set(m.elements, 16 * i));
			if (sk.computeBoneTexture && !sk.boneTexture) sk.computeBoneTexture();
			const capacity = sk.boneMatrices.length, key = `${joints.join()}|${inverses.join()}|${capacity}`;
			if (!byKey.has(key)) { byKey.set(key, skins.length); skins.push({ joints, inverses, capacity }); }
			skeletons.push({ skeleton: sk, skin: byKey.get(key) });
		});
		// an attached skinned mesh's bindMatrixInverse is its inverted matrixWorld (three recomputes it in
		// SkinnedMesh.updateMatrixWorld): the world writes it too
		const inverted = targets.filter((t) => t.isSkinnedMesh && t.bindMode === 'attached');
		this.player.setMatrices({ parents, anchors: Math.max(1, anchors.length), skins, inverses: inverted.map((t) => index.get(t)) });
		for (const t of targets) { t.matrixAutoUpdate = false; t.matrixWorldAutoUpdate = false; }
		this._inverted = inverted;
		prune(new Set(targets), new Set(inverted));
		const update = function () { if (this.boneTexture) this.boneTexture.needsUpdate = true; };
		// skeletons of one skin share its bone texture too: one upload per frame per skin instead of
		// one per skinned mesh (GLTFLoader makes a skeleton per mesh: 19 per raylib robot)
		const shared = new Map();
		for (const x of skeletons) {
			const sk = x.skeleton, first = shared.get(x.skin);
			if (!first) shared.set(x.skin, sk);
			else if (sk.boneTexture && first.boneTexture && sk.boneTexture !== first.boneTexture) { sk.boneTexture.dispose(); sk.boneTexture = first.boneTexture; }
			sk.update = update; // the bone matrices are already there
		}
		this._anchorObjects = anchors;
		this._skeletons = skeletons;
		this._viewBuffer = null;
		this._matrixViews();
	}
	// (re)points the engine's matrices at wasm memory (again after the memory grew: a later load)
	_matrixViews() {
		if (this._viewBuffer !== null && this._viewBuffer.byteLength !== 0) return; // (growth detaches the buffer)
		this._viewBuffer = this.player.world.memory.buffer;
		const world = this.player.worldMatrices;
		this._binding.targets.forEach((t, j) => { t.matrixWorld.elements = world.subarray(16 * j, 16 * j + 16); });
		const inverses = this.player.inverseMatrices;
		this._inverted.forEach((t, k) => { t.bindMatrixInverse.elements = inverses.subarray(16 * k, 16 * k + 16); });
		for (const { skeleton, skin } of this._skeletons) {
			const v = this.player.skinMatrices(skin);
			skeleton.boneMatrices = v;
			if (skeleton.boneTexture) { skeleton.boneTexture.image.data = v; skeleton.boneTexture.needsUpdate = true; }
		}
		this._anchorViews = this._anchorObjects.map((a, k) => (a ? this.player.anchorMatrix(k) : null));
	}
	// before the frame call: the anchors' current world matrices (the character's placement)
	_anchorsIn() {
		this._matrixViews();
		const objects = this._anchorObjects, views = this._anchorViews;
		for (let k = 0; k < objects.length; k++) {
			const a = objects[k];
			if (!a) continue;
			a.updateWorldMatrix(true, false);
			views[k].set(a.matrixWorld.elements);
		}
	}
}

// three's updateMatrixWorld visits every object of the scene each frame (matrixWorldAutoUpdate =
// false only skips the multiply), and each skinned mesh inverts its matrixWorld into
// bindMatrixInverse: 0.6 ms of a 100-robot frame. The joints' world matrices and the attached
// skinned meshes' bindMatrixInverse (`inverted`) are the world's, so the visit stops at a joint when
// everything below it is such a joint too. Another skinned mesh keeps three's own method; a joint
// with other objects below (an attachment: a sword in a hand) visits its children with force, as
// its matrixWorld changed. A child added or removed under a joint re-decides (three's childadded
// and childremoved events, r163 on; with an older three, attach before binding).
function prune(joints, inverted) {
	const stop = function () {};
	const visit = function () { const c = this.children; for (let i = 0; i < c.length; i++) c[i].updateMatrixWorld(true); };
	const decide = () => {
		const only = new Map(); // joint -> its subtree holds nothing three must update
		const jointsOnly = (o) => {
			if (!joints.has(o) || (o.isSkinnedMesh && !inverted.has(o))) return false;
			let v = only.get(o);
			if (v === undefined) { v = o.children.every(jointsOnly); only.set(o, v); }
			return v;
		};
		for (const t of joints) {
			if (t.isSkinnedMesh && !inverted.has(t)) delete t.updateMatrixWorld;
			else t.updateMatrixWorld = jointsOnly(t) ? stop : visit;
		}
	};
	decide();
	for (const t of joints) { t.addEventListener('childadded', decide); t.addEventListener('childremoved', decide); }
}

// The joints a character needs for matrix outputs: its skins' bones, the objects between two
// joints (so every joint's parent is a joint or an anchor outside the animated hierarchy), and its
// skinned meshes with their nodes up to a joint or an anchor.
function matrixJoints(root, targets) {
	const set = new Set(targets), extra = [];
	const add = (o) => { if (!set.has(o)) { set.add(o); extra.push(o); } };
	const meshes = [];
	root.traverse?.((o) => { if (o.isSkinnedMesh && o.skeleton) { meshes.push(o); for (const b of o.skeleton.bones) if (b) add(b); } });
	const close = () => {
		for (let changed = true; changed;) {
			changed = false;
			for (const o of [...set]) {
				const path = [];
				let a = o.parent;
				while (a && !set.has(a)) { path.push(a); a = a.parent; }
				if (a && path.length) { path.forEach(add); changed = true; }
			}
		}
	};
	close();
	// the skinned meshes (and their nodes) under the joints' anchors: their matrixWorld is computed
	// with the joints' (three would recompose them every frame; they usually do not move)
	const anchors = new Set([...set].filter((o) => !set.has(o.parent)).map((o) => o.parent).filter(Boolean));
	for (const m of meshes) {
		const path = [];
		let a = m;
		while (a && !set.has(a) && !anchors.has(a)) { path.push(a); a = a.parent; }
		if (a) path.forEach(add);
	}
	close();
	return extra;
}

/** The whole scene: one world, one update() = one wasm call per frame for every character. */
export class SinewSceneMixer {
	// options.syncRotation: how Object3D.rotation follows the written quaternions (three_write.mjs):
	// 'lazy' (default) computed when read, as three would have stored it; true at each write, as
	// quaternion.set does; false never (the quaternion, matrices and skinning are right, the Euler angles stale).
	// options.matrices (default false): characters get matrix outputs (SinewCharacterMixer matrix
	// mode: joints' matrixWorld and skinning matrices computed in the frame call; position /
	// quaternion / scale of the joints are then not written).
	constructor(world, options = {}) {
		this.world = world;
		this.characters = [];
		this.time = 0;
		this.syncRotation = options.syncRotation ?? 'lazy';
		this.matrices = options.matrices ?? false;
	}
	static async create(options = {}) { return new SinewSceneMixer(await createWorld(options), options); }
	load(bytes, options) { return this.world.load(bytes, options); }
	/** A character: root is a GLTFLoader result (nodes via parser.associations) or an Object3D with options.nodes. */
	add(root, blobs, options = {}) {
		const c = new SinewCharacterMixer(this, root, Array.isArray(blobs) ? blobs : [blobs], options);
		this.characters.push(c);
		return c;
	}
	/** One frame: advance(dt), then every active character's nodes (or, in matrix mode, morph weights) written. */
	update(dt) {
		this.advance(dt);
		for (const c of this.characters) if (c.player.active) c._write();
		return this;
	}
	/**
	 * The frame without the node writes: every character's actions advanced (three's logic: times,
	 * weights, events), then the one wasm call that blends every player (and its matrices). The poses
	 * are then in each character's player.pose.
	 */
	advance(dt) {
		this.time += dt;
		for (const c of this.characters) {
			c._advance(dt);
			if (c._matrices && c.player.active) c._anchorsIn();
		}
		this.world.update(dt); // the one wasm call
		return this;
	}
}

export default SinewSceneMixer;
