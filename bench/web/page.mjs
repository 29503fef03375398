// sinew — see include/sinew.h for version and licence
// Browser side of the benchmark: run.mjs (playwright) calls these in stages and reads the heap between them.
import { setup, timeFrames } from './samplers.mjs';

let glb = null, blob = null, s = null;
async function bytes(url) {
	const r = await fetch(url);
	if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
	return new Uint8Array(await r.arrayBuffer());
}
window.benchFetch = async (glbUrl, blobUrl) => {
	glb = await bytes(glbUrl);
	blob = await bytes(blobUrl);
	return { crossOriginIsolated: self.crossOriginIsolated, userAgent: navigator.userAgent };
};
window.benchSetup = async (engine) => {
	const t0 = performance.now();
	s = await setup(engine, glb, blob, '/base/web/sinew.mjs'); // (used by the base-* engines: run.mjs --baseline)
	const loadMs = performance.now() - t0;
	s.sample(0);
	return { loadMs, info: s.info, duration: s.duration, wasmMemory: s.wasmMemory ? s.wasmMemory() : 0 };
};
window.benchRun = (frames, warmup) => timeFrames(s, frames, warmup);
window.benchReady = true;
