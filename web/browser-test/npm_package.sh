#!/usr/bin/env bash
# sinew — see include/sinew.h for version and licence
# The npm package (web/package.json) as a user gets it: `npm pack`, install the tarball into a
# fresh temporary project, import it by package name from node, then bundle a page with esbuild
# (from npm) and run it in headless Chromium (web/browser-test/npm_page.mjs; needs web/browser-test's
# node_modules for playwright-core). Usage: web/browser-test/npm_package.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
ESBUILD_VERSION=${ESBUILD_VERSION:-0.25.12}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tarball=$(cd web && npm pack --silent --pack-destination "$tmp" | tail -1)
echo "npm pack: $tarball ($(wc -c < "$tmp/$tarball") bytes, $(tar -tzf "$tmp/$tarball" | wc -l) files)"
mkdir "$tmp/app"
cd "$tmp/app"
echo '{ "name": "sinew-anim-smoke", "private": true, "type": "module" }' > package.json
npm install --silent --no-audit --no-fund "$tmp/$tarball" "esbuild@$ESBUILD_VERSION" > /dev/null
cp "$repo/web/test/data/godot_platformer_player.sinew" walk.sinew
# node, by package name: the decoder, the world (a crossfade) and the adapters' modules resolve
cat > node_check.mjs <<'JS'
import { readFileSync } from 'node:fs';
import Sinew, { SinewError } from 'sinew-anim';
import { createWorld, restoreWorld } from 'sinew-anim/world';
import { SinewSceneMixer } from 'sinew-anim/three-world';
import { SinewWorldScene } from 'sinew-anim/babylon-world';
import { createRuntime } from 'sinew-anim/lossless';
import pkg from 'sinew-anim/package.json' with { type: 'json' };
const bytes = readFileSync('walk.sinew');
const anim = await Sinew.load(bytes);
const world = await createWorld();
const blob = world.load(bytes);
const p = world.addPlayer({ clip: blob.clip('idle'), layers: 2 });
p.layer(0).play(blob.clip('idle'), { loop: 'repeat', speed: 0, time: 0.3 });
world.update(0);
const want = anim.sample(1, 0.3);
// (quaternions compared up to sign; sub-tracks the clip leaves at the default come from the rest pose)
let same = 0;
for (let i = 0; i < want.length; i++) {
	const o = i - (i % 10), flip = i < 280 && i % 10 < 4 && want[o] * p.pose[o] + want[o + 1] * p.pose[o + 1] + want[o + 2] * p.pose[o + 2] + want[o + 3] * p.pose[o + 3] < 0;
	if (Math.abs(want[i] - (flip ? -p.pose[i] : p.pose[i])) < 1e-5) same++;
}
p.layer(1).play(blob.clip('walk'), { loop: 'repeat', weight: 0 });
p.layer(0).fadeTo(0, 0.2, { stop: true }); p.layer(1).fadeTo(1, 0.2);
for (let f = 0; f < 30; f++) world.update(1 / 60);
let rejected = false;
try { world.load(bytes.subarray(0, 64)); } catch (e) { rejected = e instanceof SinewError; }
const copy = await restoreWorld(world.save());
await createRuntime({ simd: 'auto' });
const ok = same === want.length && !p.layer(0).enabled && p.layer(1).weight === 1 && rejected && copy.players.length === 1
	&& typeof SinewSceneMixer === 'function' && typeof SinewWorldScene === 'function';
console.log(`node import by package name (${pkg.name} ${pkg.version}): single layer = sample() ${same}/${want.length}, crossfade done, bad blob rejected, restore ok: ${ok ? 'ok' : 'FAILED'}`);
if (!ok) process.exit(1);
JS
node node_check.mjs
# a page bundled with esbuild: the wasm files sit next to the bundle (the modules fetch them
# relative to import.meta.url); node: built-ins are only used for file: URLs, so they stay external
mkdir dist
cat > page.mjs <<'JS'
import Sinew from 'sinew-anim';
import { createWorld } from 'sinew-anim/world';
import { SinewSceneMixer } from 'sinew-anim/three-world';
const bytes = new Uint8Array(await (await fetch('walk.sinew')).arrayBuffer());
const anim = await Sinew.load(bytes);
const world = await createWorld();
const blob = world.load(bytes);
const players = [];
for (let i = 0; i < 20; i++) {
	const p = world.addPlayer({ clip: blob.clip('idle'), layers: 2 });
	p.layer(0).play(blob.clip('idle'), { loop: 'repeat', time: i * 0.05 });
	p.layer(1).play(blob.clip('run'), { loop: 'pingpong', weight: 0 });
	p.layer(0).fadeTo(0, 0.25); p.layer(1).fadeTo(1, 0.25);
	players.push(p);
}
let calls = 0;
const update = world._x.sinew_world_update;
world._x = { ...world._x, sinew_world_update: (dt) => (calls++, update(dt)) };
for (let f = 0; f < 60; f++) world.update(1 / 60);
window.result = {
	simd: anim.simd, worldSimd: world.simd, kernel: anim.clip(0).kernel, calls, frames: world.frames,
	finite: players.every((p) => p.pose.every(Number.isFinite)), weight: players[0].layer(1).weight,
	adapter: typeof SinewSceneMixer,
};
JS
npx --no-install esbuild page.mjs --bundle --format=esm --platform=browser --external:node:* --outfile=dist/page.js --log-level=warning
cp node_modules/sinew-anim/*.wasm walk.sinew dist/
echo '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module" src="page.js"></script>' > dist/index.html
echo "esbuild $ESBUILD_VERSION bundle: $(wc -c < dist/page.js) bytes"
node "$repo/web/browser-test/npm_page.mjs" "$tmp/app/dist"
