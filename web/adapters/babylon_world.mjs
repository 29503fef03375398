// sinew — see include/sinew.h for version and licence
// Babylon.js adapter over the world runtime (web/world.mjs): many characters loaded by
// @babylonjs/loaders' glTF loader in ONE world, each clip an AnimationGroup-like handle with
// weight (0..1; -1, Babylon's "no blending", counts as 1), enableBlending + blendingSpeed (a weight
// ramp from 0 at blendingSpeed per frame, done inside the world's frame call), speedRatio,
// from / to (frames), loopAnimation, start / play / pause / stop / reset / goToFrame, and the
// onAnimationGroupLoopObservable / onAnimationGroupEndObservable events. The scene advances it:
// on onBeforeAnimationsObservable ONE wasm call (world.update) moves every character, then the
// nodes (position / rotationQuaternion / scaling, morph target influences) are written.
//
//   const worldScene = await SinewWorldScene.create(scene);
//   const blob = worldScene.load(bytes);
//   const hero = worldScene.add([...container.transformNodes, ...container.meshes], [blob]);
//   const idle = hero.group('Idle').start(true), run = hero.group('Run');
//   run.enableBlending = true; run.blendingSpeed = 0.05; run.start(true);  // ramps in over 20 frames
//
// Handedness: as adapters/babylon.mjs, the glTF-space local values go unchanged into the nodes
// carrying `/nodes/<i>` pointers (the loader's __root__ converts).
import { createWorld, LayerEvent } from '../world.mjs';
import { gltfNodeMap, morphMeshes } from './babylon.mjs';
import { applyGltfParticipation, bindCharacter, writePose, Observable } from './world_binding.mjs';

const SET = {
	rotation: (n, v, i) => n.rotationQuaternion.set(v[i], v[i + 1], v[i + 2], v[i + 3]),
	translation: (n, v, i) => n.position.set(v[i], v[i + 1], v[i + 2]),
	scale: (n, v, i) => n.scaling.set(v[i], v[i + 1], v[i + 2]),
};
const getLocal = (n) => {
	if (!n.rotationQuaternion) n.rotationQuaternion = n.rotation.toQuaternion();
	const q = n.rotationQuaternion, p = n.position, s = n.scaling;
	return [q.x, q.y, q.z, q.w, p.x, p.y, p.z, s.x, s.y, s.z];
};

/** One clip of one character, controlled like a Babylon AnimationGroup; owns one world layer. */
export class SinewWorldAnimationGroup {
	constructor(character, clip, layer, fps) {
		this.character = character;
		this.clip = clip;
		this.name = clip.name;
		this.fps = fps;
		this._layer = layer;
		this._weight = -1;
		this.enableBlending = false;
		this.blendingSpeed = 0.01;
		this._speedRatio = 1;
		this._from = 0;
		this._to = clip.duration * fps;
		this.loopAnimation = false;
		this.isStarted = false;
		this._playing = false;
		this._blendTarget = null;
		this.onAnimationGroupLoopObservable = new Observable();
		this.onAnimationGroupEndObservable = new Observable();
		this.onAnimationGroupPlayObservable = new Observable();
		this.onAnimationGroupPauseObservable = new Observable();
		layer.setClip(clip, { scalarMap: character._binding.scalarMap(clip) });
		layer.enabled = false;
	}
	get isPlaying() { return this._playing; }
	/** Frames (fps per second) of the played range. */
	get from() { return this._from; }
	set from(f) { this._from = +f; this._syncRange(); }
	get to() { return this._to; }
	set to(f) { this._to = +f; this._syncRange(); }
	get speedRatio() { return this._speedRatio; }
	set speedRatio(s) { this._speedRatio = +s; this._layer.speed = this._speedRatio; }
	/** 0..1, or -1 (Babylon's default: not blended, counts as 1). Cancels a blending ramp. */
	get weight() { return this._weight; }
	set weight(w) {
		if (!(w === -1 || (w >= 0 && w <= 1))) throw new RangeError(`sinew Babylon: weight ${w} (0..1 or -1)`);
		this._weight = w;
		this._blendTarget = null;
		this._layer.weight = w === -1 ? 1 : w;
	}
	setWeightForAllAnimatables(w) { this.weight = w; return this; }
	getCurrentFrame() { return this._layer.time * this.fps; }

	_syncRange() {
		const d = this.clip.duration;
		const a = Math.max(0, this._from / this.fps), b = Math.min(d, this._to / this.fps);
		this._layer.range = b > a && (a > 0 || b < d) ? [a, b] : null;
	}
	/** Starts from `from` (Babylon's start): loop, speedRatio, from, to as AnimationGroup.start. */
	start(loop = false, speedRatio = 1, from, to) {
		if (from !== undefined) this._from = from;
		if (to !== undefined) this._to = to;
		this._syncRange();
		this.loopAnimation = loop;
		this.speedRatio = speedRatio;
		this._layer.loop = loop ? 'repeat' : 'once';
		this._layer.time = this._from / this.fps;
		this._begin();
		return this;
	}
	/** Resumes (or starts) playing; loop sets loopAnimation. */
	play(loop) {
		if (loop !== undefined) this.loopAnimation = !!loop;
		this._layer.loop = this.loopAnimation ? 'repeat' : 'once';
		if (!this.isStarted) { this._layer.time = this._from / this.fps; this._begin(); return this; }
		this._layer.paused = false;
		this._playing = true;
		this.onAnimationGroupPlayObservable.notifyObservers(this);
		return this;
	}
	_begin() {
		const w = this._weight === -1 ? 1 : this._weight;
		if (this.enableBlending && this.blendingSpeed > 0) { this._layer.weight = 0; this._blendTarget = w; }
		else { this._layer.weight = w; this._blendTarget = null; }
		this._layer.paused = false;
		this._layer.enabled = true;
		this._firstFrame = true; // Babylon shows `from` on the first frame after start (its clock starts then)
		this.isStarted = true;
		this._playing = true;
		this.onAnimationGroupPlayObservable.notifyObservers(this);
	}
	pause() { this._layer.paused = true; this._playing = false; this.onAnimationGroupPauseObservable.notifyObservers(this); return this; }
	/**
	 * Stops: the group no longer contributes (the other groups and the rest pose decide the nodes;
	 * Babylon leaves nodes no group drives at their last values). As AnimationGroup.stop, notifies
	 * onAnimationGroupEndObservable (unless skipOnAnimationEnd) and clears the loop observers.
	 */
	stop(skipOnAnimationEnd = false) {
		if (!this.isStarted) return this;
		this._layer.enabled = false;
		this._playing = false;
		this.isStarted = false;
		this._blendTarget = null;
		if (!skipOnAnimationEnd) this.onAnimationGroupEndObservable.notifyObservers(this);
		this.onAnimationGroupLoopObservable.clear();
		return this;
	}
	reset() { this._layer.time = this._from / this.fps; return this; }
	goToFrame(frame) { this._layer.time = frame / this.fps; return this; }

	// before the frame call: the enableBlending ramp as a world fade of blendingSpeed per frame
	_before(dt) {
		if (this._firstFrame) this._layer.paused = true;
		if (this._blendTarget === null || !(dt > 0)) return;
		const l = this._layer;
		if (l.weight >= this._blendTarget) { this._blendTarget = null; return; }
		l.fadeTo(this._blendTarget, (this._blendTarget - l.weight) / (this.blendingSpeed / dt));
	}
	_after() {
		if (this._firstFrame) { this._firstFrame = false; if (this._playing) this._layer.paused = false; }
		const ev = this._layer.events;
		if (!ev) return;
		if (ev & LayerEvent.LOOP) this.onAnimationGroupLoopObservable.notifyObservers(this);
		if (ev & LayerEvent.FINISHED) {
			this._playing = false;
			this.isStarted = false;
			this._layer.enabled = false; // Babylon drops a finished group from the blend
			this.onAnimationGroupEndObservable.notifyObservers(this);
		}
		if (ev & LayerEvent.FADE_DONE) this._blendTarget = null;
	}
}

/** One character: its AnimationGroup-like handles, one per clip of its blobs. */
export class SinewWorldCharacter {
	constructor(worldScene, nodes, blobs, options) {
		this.worldScene = worldScene;
		this.blobs = blobs;
		const map = typeof nodes === 'function' ? null : nodes instanceof Map ? nodes : gltfNodeMap(nodes);
		const find = map ? (i) => map.get(i) ?? null : nodes;
		if (options.json && options.gltfParticipation !== false) applyGltfParticipation(options.json, blobs);
		const clips = blobs.flatMap((b) => b.clips);
		this._binding = bindCharacter(worldScene.world, blobs, {
			find, getLocal,
			morphs: (node, target) => morphMeshes(node).map((m) => m.morphTargetManager.getTarget(target)).filter(Boolean)
				.map((t) => ({ get: () => t.influence, set: (v) => { t.influence = v; } })),
		}, { layers: options.layers ?? Math.max(1, clips.length) });
		this.player = this._binding.player;
		const fps = options.fps ?? 60;
		this.animationGroups = clips.slice(0, this.player.layerCount).map((c, i) => new SinewWorldAnimationGroup(this, c, this.player.layer(i), fps));
	}
	/** The next frame writes every node again (after other code moved them). */
	invalidate() { this._binding.invalidate(); return this; }
	/** The group of a clip by name or index. */
	group(key) {
		const g = typeof key === 'number' ? this.animationGroups[key] : this.animationGroups.find((x) => x.name === key);
		if (!g) throw new RangeError(`sinew Babylon: no animation group ${key}`);
		return g;
	}
}

/** The whole Babylon scene on one world: one wasm call per frame. */
export class SinewWorldScene {
	constructor(world, scene = null) {
		this.world = world;
		this.scene = scene;
		this.characters = [];
		this._observer = scene ? scene.onBeforeAnimationsObservable.add(() => this._step()) : null;
	}
	static async create(scene, options = {}) { return new SinewWorldScene(await createWorld(options), scene); }
	load(bytes, options) { return this.world.load(bytes, options); }
	/** nodes: the loaded Babylon nodes (scanned for /nodes/<i> pointers), a Map, or a function of the glTF node index. */
	add(nodes, blobs, options = {}) {
		const c = new SinewWorldCharacter(this, nodes, Array.isArray(blobs) ? blobs : [blobs], options);
		this.characters.push(c);
		return c;
	}
	_step() {
		const s = this.scene;
		if (!s.animationsEnabled) return;
		const ms = s.useConstantAnimationDeltaTime ? 16 : s.getEngine().getDeltaTime();
		this.update((ms / 1000) * (s.animationTimeScale ?? 1));
	}
	/** Advances every character by dt seconds: ONE wasm call, then the node writes and events. */
	update(dt) {
		for (const c of this.characters) for (const g of c.animationGroups) g._before(dt);
		this.world.update(dt);
		for (const c of this.characters) {
			if (!c.player.active) continue;
			writePose(c._binding, SET);
			for (const g of c.animationGroups) g._after();
		}
		return this;
	}
	dispose() {
		if (this._observer) this.scene.onBeforeAnimationsObservable.remove(this._observer);
		this._observer = null;
	}
}

export default SinewWorldScene;
