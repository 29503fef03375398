// sinew — see include/sinew.h for version and licence
// Tiny static file server for the browser tests: /repo/ serves the repository, /corpus/ the
// shared corpus (when present). GET only, no directory listings, no path escapes. Single byte
// ranges (`Range: bytes=a-b`) are answered 206, as streaming players fetch pages; server.ranges
// counts them; `?latency=MS` on a URL delays its range answers by MS milliseconds (a network). Files under a
// node_modules/ folder may be cached by the browser, nothing else.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const TYPES = {
	'.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.json': 'application/json',
	'.wasm': 'application/wasm', '.gltf': 'model/gltf+json', '.glb': 'model/gltf-binary', '.bin': 'application/octet-stream',
	'.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.sinew': 'application/octet-stream', '.map': 'application/json',
};

export function startServer(roots) { // roots: { prefix: directory }
	const server = createServer(async (req, res) => {
		try {
			const url = new URL(req.url, 'http://x');
			const path = decodeURIComponent(url.pathname);
			const prefix = Object.keys(roots).find((p) => path.startsWith(`/${p}/`));
			if (req.method !== 'GET' || !prefix) throw Object.assign(new Error('not found'), { status: 404 });
			const rel = normalize(path.slice(prefix.length + 2));
			if (rel.startsWith('..') || rel.split(sep).includes('..')) throw Object.assign(new Error('bad path'), { status: 403 });
			const file = join(roots[prefix], rel);
			if (!(await stat(file)).isFile()) throw Object.assign(new Error('not a file'), { status: 404 });
			const body = await readFile(file);
			const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
			const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
			if (range) {
				const latency = Math.min(Number(url.searchParams.get('latency') ?? 0) || 0, 2000);
				if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
				const start = Number(range[1]), end = Math.min(Number(range[2]), body.length - 1);
				if (start > end) throw Object.assign(new Error('range not satisfiable'), { status: 416 });
				server.ranges++;
				res.writeHead(206, { 'content-type': type, 'cache-control': 'no-store', 'content-range': `bytes ${start}-${end}/${body.length}` });
				res.end(body.subarray(start, end + 1));
				return;
			}
			// third-party packages do not change during a run: cached (run.mjs's pages share one context); the rest never
			const cache = rel.split(sep).includes('node_modules') ? 'public, max-age=86400, immutable' : 'no-store';
			res.writeHead(200, { 'content-type': type, 'cache-control': cache });
			res.end(body);
		} catch (e) {
			res.writeHead(e.status ?? (e.code === 'ENOENT' ? 404 : 500), { 'content-type': 'text/plain' });
			res.end(String(e.message));
		}
	});
	server.ranges = 0;
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
