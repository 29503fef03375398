// sinew — see include/sinew.h for version and licence
// Streaming playback (web/stream.mjs, web/sinew-stream*.wasm) on paged blobs of real clips the
// CLI writes (SINEW_CLI=build/sinew): poses equal the whole blob's bit for bit, page memory
// stays within the budget and the wasm memory never grows after load, 1x playback with prefetch
// has no misses, hostile pages are refused with the clip unchanged, tiers load base first.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import Sinew, { SinewError } from '../sinew.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const cli = process.env.SINEW_CLI;
const skip = !cli && 'SINEW_CLI not set';
const dir = cli ? mkdtempSync(join(tmpdir(), 'sinew-stream-')) : null;

function compress(input, out, ...args) {
	execFileSync(here(`../../${cli}`), ['compress', here(`../../${input}`), '-o', join(dir, out), '-q', ...args]);
	return readFileSync(join(dir, out));
}

// A byte-range reader over a file's bytes, as a server with Range support would answer; counts
// requests and can corrupt a page.
function reader(bytes, { corrupt } = {}) {
	const r = async (start, end) => {
		r.requests++;
		await new Promise((resolve) => setImmediate(resolve)); // a network round trip later
		const out = bytes.slice(start, end);
		if (corrupt && start === corrupt.offset) out[corrupt.at] ^= 0x40;
		return out;
	};
	r.requests = 0;
	return r;
}

const same = (a, b) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));

for (const simd of [false, true]) {
	test(`streaming (${simd ? 'simd' : 'baseline'}): 1x forward and back on a paged mocap clip, within the budget, no misses`, { skip }, async () => {
		const bytes = compress('data/cmu_01_01.bvh', 'cmu4k.sinew', '--page-bytes', '4096');
		const whole = await Sinew.load(bytes, { simd });
		const anim = await Sinew.loadStreaming(reader(bytes), { budgetBytes: 16384, prefetchSeconds: 0.5, simd });
		assert.equal(anim.clipCount, 1);
		const info = anim.clip(0);
		const memory = anim.memoryBytes;
		await anim.ready(0, 0);
		let frames = 0;
		for (const forward of [true, false]) {
			for (let f = 0; f <= Math.ceil(info.duration * 60); f++) {
				const t = forward ? Math.min(f / 60, info.duration) : Math.max(info.duration - f / 60, 0);
				const pose = anim.sample(0, t, forward ? 1 : -1); // one wasm call: the pose and the prefetch list
				assert.ok(pose, `t ${t}: page missing`);
				assert.ok(same(pose, whole.sample(0, t)), `t ${t}: differs from the whole blob`);
				assert.ok(anim.stats.residentPageBytes <= 16384);
				await new Promise((resolve) => setImmediate(resolve)); // the frame ends; fetches land
				frames++;
			}
		}
		await anim.idle();
		assert.equal(anim.stats.misses, 0);
		assert.equal(anim.errors.length, 0);
		assert.equal(anim.memoryBytes, memory, 'wasm memory grew after load');
		assert.equal(anim.wasmCalls, frames, 'one wasm sampling call per frame');
		assert.ok(anim.stats.pagesLoaded >= 77 && anim.stats.peakPageBytes <= 16384);
		console.log(`    ${frames} frames: ${anim.stats.pagesLoaded} pages loaded (${anim.stats.bytesFetched} bytes), ` +
			`peak ${anim.stats.peakPageBytes} bytes of pages, ${anim.stats.misses} misses, wasm memory ${memory} bytes`);
		anim.dispose();
		whole.dispose();
	});
}

test('streaming: a seek without prefetch misses once, names nothing wrong, and plays after the page lands', { skip }, async () => {
	const bytes = compress('data/cmu_01_01.bvh', 'cmu4k.sinew', '--page-bytes', '4096');
	const whole = await Sinew.load(bytes);
	const anim = await Sinew.loadStreaming(reader(bytes), { budgetBytes: 8192 });
	assert.equal(anim.sample(0, 12.3), null);
	assert.equal(anim.stats.misses, 1);
	await anim.idle();
	assert.ok(same(anim.sample(0, 12.3), whole.sample(0, 12.3)));
});

test('streaming: a hostile page is refused with a SinewError and the clip unchanged; a good copy then plays', { skip }, async () => {
	const bytes = compress('data/cmu_01_01.bvh', 'cmu4k.sinew', '--page-bytes', '4096');
	const whole = await Sinew.load(bytes);
	const probe = await Sinew.loadStreaming(reader(bytes), { budgetBytes: 8192 });
	const page = probe._pages[0][3];
	probe.dispose();
	const t = (page.startTime + page.endTime) / 2;
	const bad = await Sinew.loadStreaming(reader(bytes, { corrupt: { offset: page.offset, at: 100 } }), { budgetBytes: 8192 });
	assert.equal(bad.sample(0, t), null);
	await bad.idle();
	assert.equal(bad.errors.length, 1);
	assert.ok(bad.errors[0] instanceof SinewError);
	assert.equal(bad.errors[0].codeName, 'CHECKSUM');
	assert.equal(bad._pages[0][3].slot, -1); // refused: not installed (the window's next page did load)
	assert.equal(bad.stats.residentPageBytes, bad._pages[0].filter((p) => p.slot >= 0).reduce((n, p) => n + p.size, 0));
	assert.equal(bad.sample(0, t), null); // still missing, and it asks again
	bad._read = reader(bytes);
	await bad.idle();
	await bad.update(0, t);
	await bad.idle();
	assert.ok(same(bad.sample(0, t), whole.sample(0, t)));
});

test('streaming: quality tiers load base first and play each tier as the C library does', { skip }, async () => {
	const bytes = compress('data/cmu_01_01.bvh', 'tiers.sinew', '--tiers', '0.1,0.01', '--page-bytes', '8192');
	const t = 5.55;
	// the base tier alone: a budget of two slots holds the base pages of one window only
	const base = await Sinew.loadStreaming(reader(bytes), { budgetBytes: 16384, tiers: 1 });
	await base.ready(0, t);
	const expected = JSON.parse(execFileSync(here(`../../${cli}`), ['sample', join(dir, 'tiers.sinew'), '--time', String(t), '--tier', '0', '--json']));
	const pose = base.sample(0, t);
	expected.joints.forEach((j, k) => {
		const got = [...j.rotation, ...j.translation, ...j.scale];
		for (let i = 0; i < 10; i++) assert.equal(Math.fround(got[i]), pose[k * 10 + i]);
	});
	assert.ok(base._pages[0].filter((p) => p.slot >= 0).every((p) => p.tier === 0));
	// every tier with room for them: the finest plays
	const all = await Sinew.loadStreaming(reader(bytes), { budgetBytes: 1 << 20 });
	await all.ready(0, t);
	const whole = await Sinew.load(bytes);
	assert.ok(same(all.sample(0, t), whole.sample(0, t)));
	assert.ok(!same(pose, whole.sample(0, t)));
});

test('streaming: a blob without pages loads whole', { skip }, async () => {
	const bytes = compress('data/acl_09_02.acl.sjson', 'plain.sinew');
	const anim = await Sinew.loadStreaming(reader(bytes));
	const whole = await Sinew.load(bytes);
	assert.ok(same(anim.sample(0, 0.4), whole.sample(0, 0.4)));
});
