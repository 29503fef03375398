// sinew — see include/sinew.h for version and licence
// Time to the first pose of a paged blob streamed from a file through web/stream.mjs (node):
// header, resident part, wasm instantiation, the first prefetch window, one sample. A range read
// costs LATENCY_MS (default 0) like a network round trip. Prints one JSON line.
//   node bench/web/first_pose.mjs FILE.sinew [LATENCY_MS]
import { open } from 'node:fs/promises';
import Sinew from '../../web/sinew.mjs';

const [file, latencyArg] = process.argv.slice(2);
const latency = Number(latencyArg ?? 0);
const handle = await open(file, 'r');
let reads = 0, bytes = 0;
const read = async (start, end) => {
	reads++;
	if (latency) await new Promise((resolve) => setTimeout(resolve, latency));
	const out = Buffer.alloc(end - start);
	await handle.read(out, 0, end - start, start);
	bytes += end - start;
	return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
};
await Sinew.load(new Uint8Array(32)).catch(() => {}); // warm the module cache like a page that loaded before
const t0 = performance.now();
const anim = await Sinew.loadStreaming(read, { budgetBytes: 65536, prefetchSeconds: 0.5 });
await anim.ready(0, 0);
const pose = anim.sample(0, 0);
const ms = performance.now() - t0;
console.log(JSON.stringify({ file, latency_ms: latency, first_pose_ms: +ms.toFixed(2), reads, bytes, ok: !!pose }));
await handle.close();
