#!/usr/bin/env node
// sinew — see include/sinew.h for version and licence
// Serves the inspector page (web/inspector/dist/, built by build.mjs) on 127.0.0.1 with the model to open:
//   npx sinew-anim inspect model.glb [--port 8080] [--error-cm 0.01] [--gltfpack PATH] [--no-open]
// (a .bvh, .amc or .acl.sjson is served as it is and converted to glTF in the page; other formats are refused
// with what to do; a busy port is one line naming it).
// GET /api/status says which model (and its folder's files, for a .gltf's buffers and images) and whether
// gltfpack is present; GET /model/FILE serves them; POST /api/gltfpack runs gltfpack -cc on a file the page
// sends and returns the bytes of its animation data. gltfpack is used when present: --gltfpack PATH (its
// npm package's cli.js or a binary), $SINEW_GLTFPACK, the npm package `gltfpack` resolvable from here or
// from the working folder, or `gltfpack` on the PATH. Nothing is fetched from anywhere else.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, normalize, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const TYPES = {
	'.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.json': 'application/json',
	'.wasm': 'application/wasm', '.gltf': 'model/gltf+json', '.glb': 'model/gltf-binary', '.bin': 'application/octet-stream',
	'.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp', '.ktx2': 'image/ktx2',
};
const GLTFPACK_ARGS = ['-cc'];

// gltfpack: [command, args prefix, version] or null
function findGltfpack(given) {
	const candidates = [];
	if (given) candidates.push(given);
	if (process.env.SINEW_GLTFPACK) candidates.push(process.env.SINEW_GLTFPACK);
	for (const from of [here, process.cwd()]) {
		try { candidates.push(createRequire(join(from, 'x.js')).resolve('gltfpack/cli.js')); } catch { /* not installed */ }
	}
	const onPath = spawnSync('gltfpack', ['-v'], { encoding: 'utf8' });
	if (onPath.status === 0 || /gltfpack/.test(onPath.stdout + onPath.stderr)) candidates.push('gltfpack');
	for (const c of candidates) {
		const cmd = /\.m?js$/.test(c) ? [process.execPath, [c]] : [c, []];
		const v = spawnSync(cmd[0], [...cmd[1], '-v'], { encoding: 'utf8' });
		const text = `${v.stdout}${v.stderr}`;
		const m = /gltfpack\s+([0-9.]+)/.exec(text);
		if (m || v.status === 0) return { command: cmd[0], prefix: cmd[1], version: m ? `gltfpack ${m[1]}` : 'gltfpack' };
	}
	return null;
}

const COMPONENTS = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 };
function glbJson(bytes) {
	if (bytes.readUInt32LE(0) !== 0x46546c67) return JSON.parse(bytes.toString('utf8'));
	return JSON.parse(bytes.subarray(20, 20 + bytes.readUInt32LE(12)).toString('utf8'));
}
// the bytes of the bufferViews gltfpack's animation accessors use (compressed size when meshopt-compressed),
// as bench/gltf_sizes.mjs counts them
function animationBytes(json) {
	const accessors = new Set();
	for (const a of json.animations ?? []) for (const s of a.samplers ?? []) accessors.add(s.input), accessors.add(s.output);
	const views = new Set([...accessors].map((i) => json.accessors?.[i]?.bufferView).filter((v) => v !== undefined));
	return [...views].reduce((n, v) => n + (json.bufferViews[v].extensions?.EXT_meshopt_compression?.byteLength ?? json.bufferViews[v].byteLength), 0);
}

function runGltfpack(tool, request) {
	const dir = mkdtempSync(join(tmpdir(), 'sinew-inspector-gltfpack-'));
	try {
		for (const [name, b64] of Object.entries(request.files)) {
			const rel = normalize(name);
			if (rel.startsWith('..') || rel.split(sep).includes('..') || rel.startsWith(sep)) throw new Error(`bad file name ${name}`);
			mkdirSync(dirname(join(dir, rel)), { recursive: true });
			writeFileSync(join(dir, rel), Buffer.from(b64, 'base64'));
		}
		const out = join(dir, 'gltfpack-out.glb');
		const r = spawnSync(tool.command, [...tool.prefix, '-i', join(dir, normalize(request.name)), '-o', out, ...GLTFPACK_ARGS], { encoding: 'utf8' });
		if (r.status !== 0 || !existsSync(out)) return { error: `gltfpack failed: ${(r.stderr || r.stdout).trim().split('\n').pop()}` };
		return { bytes: animationBytes(glbJson(readFileSync(out))), args: GLTFPACK_ARGS, version: tool.version };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

function listFiles(dir, limit = 512) {
	const out = [];
	const walk = (d) => {
		for (const name of readdirSync(d)) {
			const p = join(d, name);
			if (out.length >= limit) return;
			if (statSync(p).isDirectory()) walk(p);
			else out.push(relative(dir, p).split(sep).join('/'));
		}
	};
	walk(dir);
	return out;
}

// The page shows glTF, and converts BVH, CMU AMC and ACL clips to glTF first (the wasm CLI's `sinew convert`);
// other formats are refused here with what to do instead.
const SHOWN = /\.(gltf|glb)$/i, CONVERTED = /\.(bvh|amc|acl\.sjson)$/i;
// the extensions the native importer hands to assimp (src/import/import.c): a HL1 .mdl or a .csm was 'not an animation file'
const ASSIMP = /\.(3d|3ds|3mf|ac|ac3d|acc|amf|ase|ask|assbin|b3d|blend|bsp|cob|csm|dae|dxf|enff|fbx|hmp|ifc|ifczip|iqm|irr|irrmesh|lwo|lws|lxo|md2|md3|md5anim|md5camera|md5mesh|mdc|mdl|mesh|mesh\.xml|mot|ms3d|ndo|nff|obj|off|ogex|pk3|ply|pmx|prj|q3o|q3s|raw|scn|sib|smd|step|stl|stp|ter|uc|vta|x|x3d|x3db|xgl|zae|zgl)$/i;
function checkFormat(file) {
	if (SHOWN.test(file) || CONVERTED.test(file)) return;
	const stem = basename(file).replace(/\.[^.]*$/, '');
	if (ASSIMP.test(file))
		throw new Error(`${file}: the inspector reads glTF, BVH, AMC and ACL; FBX, COLLADA and the other assimp formats go through ` +
			`the native sinew built with assimp first: sinew convert ${file} -o ${stem}.glb, then inspect ${stem}.glb`);
	throw new Error(`${file}: not an animation file the inspector reads (.glb, .gltf, .bvh, .amc with its .asf, .acl.sjson)`);
}

// The page is built when absent, and rebuilt when what it bundles changed since (a source checkout after `make
// wasm` served the compressor of the page's first build: its report disagreed with the native CLI's). An npm
// package ships its page built from its own modules.
function pageIsStale(dist) {
	const page = join(dist, 'inspector.js');
	if (!existsSync(page)) return true;
	// only a source checkout rebuilds: a page built elsewhere is the caller's, and an installed package has no
	// inspector.mjs or build.mjs (npm gives its files their unpacking times, which say nothing of their builds)
	if (dist !== join(here, 'dist') || !existsSync(join(here, 'inspector.mjs')) || !existsSync(join(here, 'build.mjs'))) return false;
	for (const f of ['sinew.wasm', 'sinew-simd.wasm', 'sinew-compress.wasm']) {
		const source = join(here, '..', f), built = join(dist, f);
		if (existsSync(source) && (!existsSync(built) || !readFileSync(source).equals(readFileSync(built)))) return true;
	}
	const builtAt = statSync(page).mtimeMs;
	for (const f of ['inspector/inspector.mjs', 'inspector/index.html', 'sinew.mjs', 'compress.mjs', 'adapters/three.mjs'])
		if (existsSync(join(here, '..', f)) && statSync(join(here, '..', f)).mtimeMs > builtAt) return true;
	return false;
}

/** Starts the server; resolves to { server, url, close() }. */
export async function startInspector({ file = null, port = 0, errorCm = null, gltfpack = undefined, dist = join(here, 'dist') } = {}) {
	let model = null, modelDir = null;
	if (file) {
		const path = resolve(file);
		if (!existsSync(path)) throw new Error(`${file}: no such file`);
		if (!statSync(path).isFile()) throw new Error(`${file}: is a directory, not a file`);
		checkFormat(file);
		modelDir = dirname(path);
		const name = basename(path);
		// a .gltf names its buffers and images relative to itself: offer the files of its folder; an .amc its .asf
		const lower = name.toLowerCase();
		const files = lower.endsWith('.gltf') ? listFiles(modelDir)
			: lower.endsWith('.amc') ? [name, ...readdirSync(modelDir).filter((f) => f.toLowerCase().endsWith('.asf'))] : [name];
		model = { name, files };
	}
	if (pageIsStale(dist)) {
		const { buildInspector } = await import('./build.mjs'); // a source checkout: build the page first
		await buildInspector();
	}
	const tool = gltfpack === false ? null : findGltfpack(gltfpack);
	const server = createServer((req, res) => {
		const send = (code, type, body) => { res.writeHead(code, { 'content-type': type, 'cache-control': 'no-store' }); res.end(body); };
		try {
			const url = new URL(req.url, 'http://x');
			const path = decodeURIComponent(url.pathname);
			if (path === '/api/status') return send(200, TYPES['.json'], JSON.stringify({ model, errorCm, gltfpack: tool ? tool.version : null }));
			if (path === '/api/gltfpack' && req.method === 'POST') {
				if (!tool) return send(404, TYPES['.json'], JSON.stringify({ error: 'gltfpack is not available' }));
				const chunks = [];
				req.on('data', (c) => chunks.push(c));
				req.on('end', () => {
					try {
						send(200, TYPES['.json'], JSON.stringify(runGltfpack(tool, JSON.parse(Buffer.concat(chunks).toString('utf8')))));
					} catch (e) {
						send(400, TYPES['.json'], JSON.stringify({ error: e.message }));
					}
				});
				return;
			}
			if (req.method !== 'GET') return send(405, 'text/plain', 'GET only');
			let root = dist, rel = path === '/' ? 'index.html' : path.slice(1);
			if (path.startsWith('/model/')) {
				if (!model || !model.files.includes(path.slice(7))) return send(404, 'text/plain', 'not found');
				root = modelDir, rel = path.slice(7);
			}
			rel = normalize(rel);
			if (rel.startsWith('..') || rel.split(sep).includes('..')) return send(403, 'text/plain', 'bad path');
			const full = join(root, rel);
			if (!existsSync(full) || !statSync(full).isFile()) return send(404, 'text/plain', 'not found');
			send(200, TYPES[extname(full).toLowerCase()] ?? 'application/octet-stream', readFileSync(full));
		} catch (e) {
			send(500, 'text/plain', String(e.message));
		}
	});
	await new Promise((ok, fail) => {
		server.once('error', (e) => fail(e.code === 'EADDRINUSE'
			? new Error(`port ${port} is busy (another server listens on it): pick another with --port N, or leave --port out for a free one`)
			: e));
		server.listen(port, '127.0.0.1', ok);
	});
	const url = `http://127.0.0.1:${server.address().port}/`;
	return { server, url, gltfpack: tool, close: () => new Promise((ok) => server.close(ok)) };
}

function openBrowser(url) {
	const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'start' : 'xdg-open';
	try { execFileSync(cmd, [url], { stdio: 'ignore' }); } catch { /* no browser here: the URL is printed */ }
}

export async function main(argv) {
	const o = { file: null, port: 0, errorCm: null, gltfpack: undefined, open: true };
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		if (a === '--port') {
			o.port = Number(argv[++i]);
			if (!Number.isInteger(o.port) || o.port < 0 || o.port > 65535) throw new Error(`--port needs a port number, 0 to 65535 (got '${argv[i] ?? ''}')`);
		} else if (a === '--error-cm') {
			o.errorCm = Number(argv[++i]);
			if (!(o.errorCm > 0 && o.errorCm <= 1e6)) throw new Error(`--error-cm needs a bound in cm above 0 (got '${argv[i] ?? ''}')`);
		} else if (a === '--gltfpack') o.gltfpack = argv[++i];
		else if (a === '--no-gltfpack') o.gltfpack = false;
		else if (a === '--no-open') o.open = false;
		else if (a === '-h' || a === '--help') {
			console.log('usage: sinew-anim inspect [FILE.glb|.gltf|.bvh|.amc|.acl.sjson] [--port N] [--error-cm E] [--gltfpack PATH | --no-gltfpack] [--no-open]');
			return;
		} else if (!o.file) o.file = a;
		else throw new Error(`unexpected argument ${a}`);
	}
	const s = await startInspector(o);
	console.log(`sinew inspector: ${s.url}${o.file ? ` (${basename(o.file)})` : ''}; gltfpack: ${s.gltfpack ? s.gltfpack.version : 'not found'}; Ctrl-C stops it`);
	if (o.open) openBrowser(s.url);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	main(process.argv.slice(2)).catch((e) => { console.error(`sinew-anim inspect: ${e.message}`); process.exit(1); });
}
