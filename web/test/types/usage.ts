// sinew — see include/sinew.h for version and licence
// Compiled (never run) with `tsc --strict` against the declaration files next to the modules, as
// a TypeScript user would import them: every exported name and member used here must be typed.
import Sinew, { load, loadPacked, loadLossless, readMetadata, simdSupported, SinewAnimation, SinewError } from '../../sinew.mjs';
import type { ClipInfo, JointInfo, LoadOptions, SinewRig } from '../../sinew.mjs';

export async function usage(bytes: Uint8Array, glb: Uint8Array): Promise<number> {
	const options: LoadOptions = { simd: simdSupported(), randomAccess: false };
	const anim: SinewAnimation = await load(bytes, options);
	const again: SinewAnimation = await Sinew.load(bytes);
	const info: ClipInfo = anim.clip(0);
	const pose: Float32Array = anim.sample(0, info.duration / 2);
	const first: Float32Array = anim.sample(0.5);
	const bits: Uint32Array = anim.changed(0);
	const serial: number = anim.serial;
	const joints: readonly JointInfo[] | null = info.joints;
	const node: number | null = joints ? joints[0].node : null;
	const meta = readMetadata(bytes);
	const rig: SinewRig = anim.rig;
	const names: (string | null)[] = Array.from(rig.nodes, (_, j) => rig.jointName(j));
	const parents: Int32Array = rig.parents, rest: Float32Array = rig.restPose;
	const sameRig: boolean = info.rig === rig && rig.animatesNode(0, 0) && (meta.rig?.nodeCount ?? 0) === rig.nodeCount;
	const packed = await loadPacked(glb);
	const lossless = await loadLossless(glb);
	try {
		await load(new Uint8Array(4));
	} catch (e) {
		if (e instanceof SinewError) return e.code;
	}
	anim.dispose();
	again.dispose();
	return pose[0] + first[0] + bits[0] + serial + (node ?? 0) + meta.length + packed.animation.clipCount +
		(lossless ? 1 : 0) + info.scalarTracks.length + names.length + parents[0] + rest[0] + (sameRig ? 1 : 0);
}

// The lossless runtime and the adapters, driven through their declared types only.
import { createRuntime, createRuntimeSync, restoreRuntime, restoreRuntimeSync, build } from '../../lossless/lossless.mjs';
import { SinewMixer, LoopOnce as ThreeLoopOnce } from '../../adapters/three.mjs';
import { SinewAnimationGroup, SinewUnsupportedError, gltfNodeMap } from '../../adapters/babylon.mjs';

type V3 = { x: number; y: number; z: number; set(x: number, y: number, z: number): void };
type Q = { x: number; y: number; z: number; w: number; set(x: number, y: number, z: number, w: number): void };

export async function adapters(anim: SinewAnimation, gltfJson: object, bin: Uint8Array, objects: { position: V3; quaternion: Q; scale: V3 }[],
	babylonNodes: { position: V3; scaling: V3; rotationQuaternion: Q }[]): Promise<number> {
	const runtime = await createRuntime({ simd: 'auto' });
	const block = build(gltfJson, [bin]);
	const lossless = runtime.load(block);
	const out = lossless.sample(0.25);
	const second = runtime.load(block);
	second.time = 0.5;
	second.active = true;
	runtime.sampleAll();
	const text: string = runtime.serialize({ encoding: 'base64' });
	const image: Uint8Array = runtime.serialize();
	const again = await restoreRuntime(text, { reserve: 4096 });
	const sync = createRuntimeSync({ wasm: bin, simd: false });
	const restored = restoreRuntimeSync(image, { wasm: bin });
	const first = lossless.channel(0), node: number = lossless.channelNode(0), count: number = lossless.channelCount;
	const slots = lossless.channelOffset(0) + lossless.channelComponents(0) + (lossless.channelPath(0) === first.path ? node + count : 0);
	second.unload();
	const groups = again.groups.filter((g) => g !== null).length + sync.groups.length + restored.heapBytes + second.outputs.length + slots;
	const mixer = new SinewMixer({ scene: {} }, anim, { nodes: objects, json: gltfJson });
	mixer.timeScale = 2;
	const walk = mixer.clipAction(0).setLoop(ThreeLoopOnce, 1), run = mixer.clipAction('run');
	walk.clampWhenFinished = true;
	walk.play().crossFadeTo(run.play(), 0.3, true);
	mixer.addEventListener('finished', (e) => void e.action.getEffectiveWeight());
	mixer.update(1 / 60).setTime(0.5).invalidate().stopAllAction();
	run.fadeOut(0.2).halt(0.1).startAt(1).setEffectiveTimeScale(2).warp(1, 2, 0.5);
	const group = new SinewAnimationGroup(anim, gltfNodeMap(babylonNodes), { clip: 0, fps: 30, json: gltfJson });
	group.start(true, 1.5, 0, 20).goToFrame(12).pause();
	group.speedRatio = 0.5;
	group.weight = 0.5;
	group.mask = { retainsTarget: (name: string) => name !== 'Head' };
	group.onAnimationGroupLoopObservable.add((g) => void g.getCurrentFrame());
	group.onAnimationEndObservable.add((t) => void t.animation.targetProperty);
	group.invalidate().update(0.016).restart().reset();
	try { group.normalize(); } catch (e) { if (e instanceof SinewUnsupportedError) void e.member; }
	const length = group.getLength() + group.targetedAnimations.length + (group.isPlaying ? 1 : 0);
	group.dispose();
	return groups + out.outputs.length + mixer.time + group.getCurrentFrame() + mixer.targetsOf(0).length + group.missing.length + length + walk.time;
}

// The world runtime and its adapters.
import { createWorld, restoreWorld, LayerEvent } from '../../world.mjs';
import type { SinewWorld, WorldBlob, WorldPlayer, WorldLayer } from '../../world.mjs';
import { SinewSceneMixer, LoopOnce, AdditiveAnimationBlendMode } from '../../adapters/three_world.mjs';
import { SinewWorldScene } from '../../adapters/babylon_world.mjs';

export async function world(bytes: Uint8Array, gltf: object, babylonNodes: object[]): Promise<number> {
	const w: SinewWorld = await createWorld({ simd: false });
	const blob: WorldBlob = w.load(bytes, { randomAccess: true });
	const p: WorldPlayer = w.addPlayer({ clip: blob.clip(0), layers: 2 });
	const l: WorldLayer = p.layer(0).play(blob.clip(0), { loop: 'pingpong', weight: 0.5, range: [0, 0.5], additive: false });
	p.layer(1).play(blob.clip('walk'), { additive: 'first', mask: new Float32Array(p.jointCount) });
	l.fadeTo(1, 0.3, { stop: false });
	l.warp(1, 2, 0.5).repetitions = 3;
	const loopsDone: number = l.loopCount + (l.warping ? 1 : 0) + ((l.events & LayerEvent.WARP_DONE) ? 1 : 0);
	p.setMatrices({ parents: new Int32Array(p.jointCount).fill(-1), anchors: 1, skins: [{ joints: [0], inverses: new Float32Array(16), capacity: 64 }] });
	p.anchorMatrix(0).set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
	const m0: number = p.worldMatrices[0] + p.skinMatrices(0)[0] + p.skinCount + loopsDone + blob.rig.parents[0] + (blob.clip(0).rig === blob.rig ? 1 : 0);
	const sampled: number = w.update(1 / 60);
	const finished = (l.events & LayerEvent.FINISHED) !== 0;
	const copy: SinewWorld = await restoreWorld(w.save());
	const text: string = w.save('base64');
	await restoreWorld(text);
	const portable: Uint8Array = w.save({ portable: true });
	const portableText: string = w.save({ portable: true, encoding: 'base64' });
	await restoreWorld(portable, { simd: false, reserve: 4096 }); await restoreWorld(portableText);
	const scene = await SinewSceneMixer.create({ simd: true, matrices: false });
	const character = scene.add(gltf, [scene.load(bytes)], { matrices: true });
	character.clipAction(1).setLoop(LoopOnce + 1, 2).warp(1, 0.5, 0.3).stopWarping();
	const a = character.clipAction(0).play(), b = character.clipAction('walk');
	b.setLoop(LoopOnce); b.clampWhenFinished = true; b.blendMode = AdditiveAnimationBlendMode;
	a.crossFadeTo(b.play(), 0.5).setEffectiveWeight(0.8).fadeOut(0.2);
	character.addEventListener('finished', (e: any) => void e);
	scene.update(1 / 60);
	const bs = await SinewWorldScene.create(null);
	const group = bs.add(babylonNodes, bs.load(bytes)).group(0);
	group.enableBlending = true; group.blendingSpeed = 0.05; group.weight = 0.5;
	group.start(true, 1.5, 0, 30).onAnimationGroupEndObservable.add((g) => void g.name);
	bs.update(0.016);
	return sampled + (finished ? 1 : 0) + copy.players.length + p.pose[0] + group.getCurrentFrame() + a.getEffectiveWeight() + m0;
}

// streaming (web/stream.mjs)
import { loadStreaming as streamLoad, StreamingAnimation } from '../../stream.mjs';
async function streaming(): Promise<void> {
	const anim = await streamLoad(async (start: number, end: number) => new Uint8Array(end - start), { budgetBytes: 65536, prefetchSeconds: 0.5 });
	if (anim instanceof StreamingAnimation) {
		await anim.ready(0, 0);
		await anim.update(0, 0.5, 1);
		const pose: Float32Array | null = anim.sample(0, 0.5);
		const misses: number = anim.stats.misses + anim.stats.peakPageBytes;
		const errs: Error[] = anim.errors;
		void pose, misses, errs;
		await anim.idle();
	}
	const other = await Sinew.loadStreaming('hero.sinew', { tiers: 1 });
	void other;
}
void streaming;

// the compressor (web/compress.mjs) and the glTF-Transform step (web/gltf-transform.mjs)
import compressor, { compress, pack, info, errors, run, cliOptions, SinewError as CompressError } from '../../compress.mjs';
import type { CompressReport, CompressResult, JointErrors, PackResult, RunResult } from '../../compress.mjs';
import { NodeIO } from '@gltf-transform/core';
import { CompressedAnimation, EXTENSION_NAME, SinewAnimationCompression, sinew } from '../../gltf-transform.mjs';
import type { CompressedClip } from '../../gltf-transform.mjs';

export async function tooling(glb: Uint8Array, bvh: string): Promise<number> {
	const c: CompressResult = await compress(glb, { errorCm: 0.01, level: 2, tiers: [0.1, 0.01], name: 'hero.glb', maxMemoryBytes: 1 << 28 });
	const report: CompressReport = c.report;
	const p: PackResult = await pack(glb, { plainKnots: true, gltf: true, resources: { 'hero.bin': new Uint8Array(4) } });
	const b = await compressor.compress(bvh, { unitCm: 5.644, noEndSites: true, args: ['--strip'] });
	const sizes = await info(c.blob, { sizes: true });
	const e: JointErrors = await errors(glb, c.blob, { clip: 0 });
	const r: RunResult = await run(['info', 'x.sinew', '--json'], { 'x.sinew': c.blob });
	const args: string[] = cliOptions({ errorCm: 0.1, skinShells: true });
	try {
		await compress(new Uint8Array(3));
	} catch (x) {
		if (x instanceof CompressError) return x.code;
	}
	const io = new NodeIO().registerExtensions([SinewAnimationCompression]);
	const document = await io.readBinary(glb);
	await document.transform(sinew({ errorCm: 0.01, onReport: (rep) => void rep.animation_bytes_after }));
	const prop = document.getRoot().getExtension<CompressedAnimation>(EXTENSION_NAME);
	const clips: CompressedClip[] = prop ? prop.getClips() : [];
	const blob = prop?.getBlob();
	const nodes = prop ? prop.listTargets('nodes').length : 0;
	await io.writeBinary(document);
	return report.clips[0].max_error_cm + p.glb.length + b.blob.length + Object.keys(sizes).length + e.errors[0] + r.code +
		args.length + clips.length + (blob ? blob.length : 0) + nodes + c.warnings.length;
}
