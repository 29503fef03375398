// sinew — see include/sinew.h for version and licence
// One measurement in node (run by run.mjs in its own process, with --expose-gc, so heap deltas are clean):
//   node --expose-gc bench_node.mjs ENGINE SCENE.glb SCENE.sinew FRAMES WARMUP [BASELINE_SINEW_MJS_URL]   -> one JSON line on stdout
import { readFileSync } from 'node:fs';
import { setup, timeFrames } from './samplers.mjs';

const [engine, glbPath, blobPath, frames, warmup, base] = process.argv.slice(2);
const glb = readFileSync(glbPath); // a Buffer is a Uint8Array; no copy, so nothing is freed during the heap deltas
const blob = readFileSync(blobPath);
const gc = globalThis.gc ?? (() => {});
gc(); gc();
const m0 = process.memoryUsage();
const t0 = performance.now();
const s = await setup(engine, glb, blob, base || null);
const loadMs = performance.now() - t0;
s.sample(0);
gc(); gc();
const m1 = process.memoryUsage();
const timing = timeFrames(s, +frames, +warmup);
console.log(JSON.stringify({
	env: 'node', engine, loadMs, heapDelta: m1.heapUsed - m0.heapUsed, externalDelta: m1.arrayBuffers - m0.arrayBuffers,
	wasmMemory: s.wasmMemory ? s.wasmMemory() : 0, info: s.info, duration: s.duration, ...timing,
}));
