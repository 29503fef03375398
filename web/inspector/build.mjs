#!/usr/bin/env node
// sinew — see include/sinew.h for version and licence
// Builds the inspector page into web/inspector/dist/ (npm run build-inspector; npm pack runs it): index.html,
// inspector.js (inspector.mjs with three.js, its GLTFLoader and OrbitControls, sinew.mjs, compress.mjs and
// the three.js adapter bundled by esbuild from web/node_modules: no CDN, works offline) and the .wasm files
// the bundle fetches next to itself.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const web = join(here, '..');
const dist = join(here, 'dist');

export async function buildInspector({ minify = true } = {}) {
	let esbuild;
	try {
		esbuild = await import('esbuild');
	} catch {
		throw new Error('sinew inspector: esbuild is not installed; run `npm ci --prefix web` (the package ships the page built)');
	}
	rmSync(dist, { recursive: true, force: true });
	mkdirSync(dist, { recursive: true });
	await esbuild.build({
		entryPoints: [join(here, 'inspector.mjs')], bundle: true, format: 'esm', platform: 'browser', target: 'es2022',
		outfile: join(dist, 'inspector.js'), external: ['node:*'], minify, legalComments: 'eof', logLevel: 'warning',
		absWorkingDir: web, nodePaths: [join(web, 'node_modules')],
	});
	copyFileSync(join(here, 'index.html'), join(dist, 'index.html'));
	for (const f of ['sinew.wasm', 'sinew-simd.wasm', 'sinew-compress.wasm']) copyFileSync(join(web, f), join(dist, f));
	return dist;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const out = await buildInspector({ minify: !process.argv.includes('--no-minify') });
	console.log(`sinew inspector built in ${out}`);
}
