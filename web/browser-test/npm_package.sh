#!/usr/bin/env bash
# sinew — see include/sinew.h for version and licence
# The npm package (web/package.json) as a user gets it: `npm pack`, install the tarball into a
# fresh temporary project, import it by package name from node, then bundle a page with esbuild
# (from npm) and run it in headless Chromium (web/browser-test/npm_page.mjs; needs web/browser-test's
# node_modules for playwright-core); the compressor (sinew-anim/compress) and the glTF-Transform step
# (sinew-anim/gltf-transform, with @gltf-transform/core from npm) by package name, the CLI in wasm
# (sinew-anim compress) on an absolute path, and the inspector (npx sinew-anim inspect) serving its page. `npm pack` builds the inspector (web/node_modules: npm ci
# --prefix web). Usage: web/browser-test/npm_package.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
ESBUILD_VERSION=${ESBUILD_VERSION:-0.25.12}
GLTF_TRANSFORM_VERSION=${GLTF_TRANSFORM_VERSION:-4.5.1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tarball=$(cd web && npm pack --silent --pack-destination "$tmp" | tail -1)
echo "npm pack: $tarball ($(wc -c < "$tmp/$tarball") bytes, $(tar -tzf "$tmp/$tarball" | wc -l) files)"
mkdir "$tmp/app"
cd "$tmp/app"
echo '{ "name": "sinew-anim-smoke", "private": true, "type": "module" }' > package.json
npm install --silent --no-audit --no-fund "$tmp/$tarball" "esbuild@$ESBUILD_VERSION" "@gltf-transform/core@$GLTF_TRANSFORM_VERSION" > /dev/null
for f in compress.mjs sinew-compress.wasm gltf-transform.mjs inspector/dist/inspector.js inspector/dist/index.html inspector/dist/sinew-compress.wasm; do
	[ -e "node_modules/sinew-anim/$f" ] || { echo "the package lacks $f"; exit 1; }
done
cp "$repo/data/godot_platformer_player.glb" hero.glb
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
# the compressor and the glTF-Transform step, by package name
cat > tooling_check.mjs <<'JS'
import { readFileSync, writeFileSync } from 'node:fs';
import Sinew from 'sinew-anim';
import { compress, pack, SinewError } from 'sinew-anim/compress';
import { NodeIO } from '@gltf-transform/core';
import { SinewAnimationCompression, sinew, EXTENSION_NAME } from 'sinew-anim/gltf-transform';
const glb = readFileSync('hero.glb');
const { blob, report } = await compress(glb, { errorCm: 0.01 });
writeFileSync('api.sinew', blob);
const anim = await Sinew.load(blob);
const packed = await pack(glb);
const loaded = await Sinew.loadPacked(packed.glb);
let named = null;
try { await compress(glb.subarray(0, 100)); } catch (e) { named = e instanceof SinewError ? e.codeName : String(e); }
const io = new NodeIO().registerExtensions([SinewAnimationCompression]);
const doc = await io.readBinary(glb);
await doc.transform(sinew({ errorCm: 0.01 }));
const written = await io.writeBinary(doc);
const viaTransform = await Sinew.loadPacked(written);
const again = (await io.readBinary(written)).getRoot().getExtension(EXTENSION_NAME);
const ok = report.max_error_cm <= 0.01 && report.compressed_bytes === blob.length && anim.clipCount === report.clips.length &&
	loaded.animation.clipCount === anim.clipCount && named === 'TRUNCATED' && viaTransform.animation.clipCount === anim.clipCount &&
	again && again.getBlob().length > 0;
console.log(`compress by package name: ${glb.length} -> ${blob.length} bytes (max ${report.max_error_cm} cm), pack ${packed.glb.length} bytes, ` +
	`truncated input ${named}; glTF-Transform sinew(): ${written.length} bytes, ${viaTransform.animation.clipCount} clips, read back: ${ok ? 'ok' : 'FAILED'}`);
if (!ok) process.exit(1);
JS
node tooling_check.mjs
# the CLI in wasm from the installed package (node:wasi, the machine's files): an absolute path from another
# folder writes the blob compress() gave (the WASI shim, in memory)
mkdir elsewhere
(cd elsewhere && ../node_modules/.bin/sinew-anim compress "$tmp/app/hero.glb" -o "$tmp/app/cli.sinew" -q)
cmp cli.sinew api.sinew || { echo "sinew-anim compress wrote another blob than compress()"; exit 1; }
echo "npx sinew-anim compress $tmp/app/hero.glb from another folder: $(wc -c < cli.sinew) bytes, compress()'s blob"
# the inspector from the installed package: `npx sinew-anim inspect FILE` serves the page and the model
# in its own process group: npx runs the server as a child, and killing npx alone left it serving
setsid npx --no-install sinew-anim inspect hero.glb --no-open --port 0 > inspect.log 2>&1 &
inspector=$!
trap 'kill -- -"$inspector" 2> /dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do grep -q 'http://' inspect.log && break; sleep 0.2; done
url=$(grep -o 'http://127.0.0.1:[0-9]*/' inspect.log | head -1)
served=$(node -e 'const u = process.argv[1]; Promise.all([fetch(u).then((r) => r.text()), fetch(u + "api/status").then((r) => r.json()),
	fetch(u + "inspector.js").then((r) => r.status)]).then(([html, status, js]) => console.log(html.includes("sinew inspector") && status.model?.name === "hero.glb" && js === 200 ? "ok" : "no"), () => console.log("no"))' "$url")
kill -- -"$inspector"
[ "$served" = ok ] || { echo "npx sinew-anim inspect did not serve the page ($url)"; cat inspect.log; exit 1; }
echo "npx sinew-anim inspect: the page and hero.glb served at $url"
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
