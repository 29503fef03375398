// sinew — see include/sinew.h for version and licence
// The sinew compressor in WebAssembly (sinew-compress.wasm: the CLI and the whole library built with clang for
// wasm32-wasi over wasi-libc, a WASI command), for node and browsers. It writes the bytes the native CLI
// writes for the same input and options (web/test/compress.test.mjs checks it on the corpus).
//
//   import { compress, pack } from 'sinew-anim/compress';
//   const { blob, report } = await compress(glbBytes, { errorCm: 0.01 });   // report: `sinew compress --json`
//   const { glb } = await pack(glbBytes, { errorCm: 0.01 });               // SINEW_compressed_animation
//
// Each call runs the CLI in a fresh instance on an in-memory folder (preopened as "/") holding the input and its
// resources, through the WASI shim @bjorn3/browser_wasi_shim, in browsers and in node alike (node's own
// node:wasi crashes the process now and then when run many times in one process: its fast API calls let V8
// collect garbage inside a call, nodejs/node#46777; `npx sinew-anim` runs the CLI on the machine's files
// through node:wasi with those calls turned off, bin/sinew-anim.mjs). Its memory grows as the input needs
// (maxMemoryBytes bounds it; then OUT_OF_MEMORY). A rejected input throws SinewError with the library's result
// code (TRUNCATED, PARSE, CORRUPT, ...) and the CLI's one-line message; a wasm trap would be reported the same
// way (code UNKNOWN) and never escapes as a RuntimeError.
import { SinewError } from './sinew.mjs';

export { SinewError };

const PAGE = 65536;
const INITIAL_PAGES = 32; // the module's own minimum (--initial-memory): 1 MB of stack, data, first heap

let modulePromise = null;

async function readModule() {
	const url = new URL('./sinew-compress.wasm', import.meta.url);
	if (url.protocol === 'file:') {
		const fs = await import('node:fs/promises');
		return WebAssembly.compile(await fs.readFile(url));
	}
	const response = await fetch(url);
	if (!response.ok) throw new Error(`sinew: cannot fetch ${url}: ${response.status}`);
	return WebAssembly.compileStreaming ? WebAssembly.compileStreaming(response) : WebAssembly.compile(await response.arrayBuffer());
}

/** The compiled module (fetched next to this file once; `wasm` bytes or a Module to serve it yourself). */
export function compressorModule(wasm) {
	if (wasm !== undefined) return wasm instanceof WebAssembly.Module ? Promise.resolve(wasm) : WebAssembly.compile(wasm);
	if (!modulePromise) {
		modulePromise = readModule();
		modulePromise.catch(() => { modulePromise = null; });
	}
	return modulePromise;
}

function toBytes(data, what) {
	if (data instanceof Uint8Array) return data;
	if (data instanceof ArrayBuffer) return new Uint8Array(data);
	if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
	if (typeof data === 'string') return new TextEncoder().encode(data);
	throw new TypeError(`sinew: ${what} must be bytes (Uint8Array, ArrayBuffer, a typed array) or a string`);
}

// A name for the input from its first bytes, so the CLI picks the importer as it does for a file.
function inputName(bytes) {
	const head = new TextDecoder().decode(bytes.subarray(0, 64)).trimStart();
	if (bytes.length >= 4 && bytes[0] === 0x67 && bytes[1] === 0x6c && bytes[2] === 0x54 && bytes[3] === 0x46) return 'input.glb';
	if (head.startsWith('{')) return 'input.gltf';
	if (head.startsWith('HIERARCHY')) return 'input.bvh';
	if (head.startsWith('#') || head.startsWith(':')) return 'input.amc';
	if (head.startsWith('//') || head.startsWith('version')) return 'input.acl.sjson';
	if (bytes.length >= 4 && bytes[0] === 0x53 && bytes[1] === 0x4e && bytes[2] === 0x45 && bytes[3] === 0x57) return 'input.sinew';
	return 'input';
}

// A file name of the run's folder as its parts ('a/b.bin' -> ['a', 'b.bin']); a name that leaves the folder
// (absolute, '..') is refused.
function nameParts(name) {
	const parts = String(name).split(/[\\/]/).filter((p) => p !== '' && p !== '.');
	if (!parts.length || parts.includes('..') || /^[\\/]/.test(name) || /^[A-Za-z]:/.test(name))
		throw new TypeError(`sinew: file name ${JSON.stringify(name)} is not inside the run's folder`);
	return parts;
}

/* ---- the WASI host ---- */

function newMemory(options) {
	const max = options.maxMemoryBytes ? Math.max(INITIAL_PAGES, Math.floor(options.maxMemoryBytes / PAGE)) : 65536;
	return new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum: max });
}

// One run of `argv` (argv[0] names the entry: "sinew", or "sinew-errors") on `files` in an in-memory folder
// preopened as "/": the exit code, what was printed, every file afterwards, and the instance's exports and
// memory for what the run recorded. The module imports its memory; the shim finds it on the instance given.
async function start(module, argv, files, options) {
	const { WASI, File, Directory, OpenFile, ConsoleStdout, PreopenDirectory } = await import('@bjorn3/browser_wasi_shim');
	const top = new Map();
	for (const [name, data] of Object.entries(files)) {
		const parts = nameParts(name);
		let dir = top;
		for (const part of parts.slice(0, -1)) {
			if (!dir.has(part)) dir.set(part, new Directory(new Map()));
			const d = dir.get(part);
			if (!(d instanceof Directory)) throw new TypeError(`sinew: file name ${JSON.stringify(name)} is inside a file`);
			dir = d.contents;
		}
		dir.set(parts[parts.length - 1], new File(data));
	}
	const sink = (chunks) => new ConsoleStdout((bytes) => chunks.push(bytes.slice()));
	const stdout = [], stderr = [];
	const root = new PreopenDirectory('/', top);
	// (debug: false, or the shim logs to the console: it reads an absent option as true)
	const wasi = new WASI(argv, [], [new OpenFile(new File([])), sink(stdout), sink(stderr), root], { debug: false });
	const memory = newMemory(options);
	const instance = await WebAssembly.instantiate(module, { env: { memory }, wasi_snapshot_preview1: wasi.wasiImport });
	const exports = { ...instance.exports, memory };
	const code = wasi.start({ exports });
	const text = (chunks) => {
		const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
		let at = 0;
		for (const c of chunks) all.set(c, at), at += c.length;
		return new TextDecoder().decode(all);
	};
	const result = { code, exports, memory, stdout: text(stdout), stderr: text(stderr), files: {} };
	const walk = (contents, prefix) => {
		for (const [name, inode] of contents) {
			if (inode instanceof Directory) walk(inode.contents, `${prefix}${name}/`);
			else if (inode instanceof File) result.files[`${prefix}${name}`] = inode.data.slice();
		}
	};
	walk(root.dir.contents, '');
	return result;
}

function cString(memory, p) {
	if (!p) return null;
	const m = new Uint8Array(memory.buffer);
	let end = p;
	while (m[end]) end++;
	return new TextDecoder().decode(m.subarray(p, end));
}

// The result code of the failure the CLI printed (its message ends with the library's message).
function failureCode(run, line) {
	for (let back = 0; back < 16; back++) {
		const code = run.exports.sinew_wc_failure_code(back);
		if (code < 0) break;
		const message = cString(run.memory, run.exports.sinew_wc_failure_message(back));
		if (message && line.endsWith(message)) return code;
	}
	return run.code === 2 ? 40 : -1; // usage errors of the command line: INVALID_ARGUMENT
}

async function execute(entry, args, files, options) {
	const module = await compressorModule(options.wasm);
	const inputs = {};
	for (const [name, data] of Object.entries(files)) inputs[name] = toBytes(data, `file ${name}`);
	let r;
	try {
		r = await start(module, [entry, ...args.map(String)], inputs, options);
	} catch (e) {
		if (e instanceof WebAssembly.RuntimeError || e instanceof RangeError)
			throw new SinewError(-1, `internal error in the compressor (${e.message}); please report the input`);
		throw e;
	}
	const warnings = [];
	for (let i = 0, p; (p = r.exports.sinew_wc_warning(i)); i++) warnings.push(cString(r.memory, p));
	const result = { code: r.code, stdout: r.stdout, stderr: r.stderr, files: r.files, warnings, memoryBytes: r.memory.buffer.byteLength };
	if (r.code !== 0) {
		const line = r.stderr.split('\n').filter((l) => l.startsWith('sinew: error: ')).pop()?.slice(14) ?? r.stderr.trim();
		result.errorCode = failureCode(r, line);
		result.errorMessage = line;
	}
	return result;
}

/**
 * Runs the sinew CLI (`args` as on the command line, without "sinew") over `files` ({ name: bytes }, names
 * relative to the run's folder, subfolders included). Returns { code, stdout, stderr, files, warnings,
 * memoryBytes }: the exit code, what it printed, every file afterwards (inputs included) and the importer's
 * warnings.
 */
export async function run(args, files = {}, options = {}) {
	return execute('sinew', args, files, options);
}

function fail(result) {
	throw new SinewError(result.errorCode, result.errorMessage || `exit code ${result.code}`);
}

// The CLI options of an options object (the CLI validates the values and names a bad one).
export function cliOptions(options = {}) {
	const a = [];
	const num = (flag, v) => { if (v !== undefined && v !== null) a.push(flag, String(v)); };
	num('--error-cm', options.errorCm);
	num('--shell-cm', options.shellCm);
	num('--level', options.level);
	num('--segment', options.segment);
	num('--page-bytes', options.pageBytes);
	if (options.tiers !== undefined) a.push('--tiers', [].concat(options.tiers).join(','));
	num('--rate', options.rate);
	num('--unit-cm', options.unitCm);
	if (options.strip) a.push('--strip');
	if (options.plainKnots) a.push('--plain-knots');
	if (options.skinShells) a.push('--skin-shells');
	if (options.noEndSites) a.push('--no-end-sites');
	if (options.args) a.push(...options.args.map(String));
	return a;
}

// OUT's name in the report: the input's with another extension (not one of the inputs' names)
function outputName(name, ext) {
	return `${name.replace(/(\.acl\.sjson|\.[^./]*)$/, '')}${ext}`;
}

function inputFiles(input, options) {
	const bytes = toBytes(input, 'input');
	const name = options.name ? String(options.name).split(/[\\/]/).pop() : inputName(bytes);
	const files = {};
	for (const [uri, data] of Object.entries(options.resources ?? {})) files[uri] = data;
	files[name] = bytes;
	return { name, files };
}

/**
 * Compresses every clip of a glTF/GLB (or BVH, ASF/AMC, ACL) file: `sinew compress IN -o OUT --json`.
 * Returns { blob, report, warnings, memoryBytes }; `report` is the object the CLI prints.
 */
export async function compress(input, options = {}) {
	const { name, files } = inputFiles(input, options);
	const out = outputName(name, '.sinew');
	const r = await execute('sinew', ['compress', name, '-o', out, '--json', ...cliOptions(options)], files, options);
	if (r.code !== 0) fail(r);
	return { blob: r.files[out], report: JSON.parse(r.stdout), warnings: r.warnings, memoryBytes: r.memoryBytes };
}

/**
 * A glTF with its animations compressed inside (SINEW_compressed_animation): `sinew pack IN -o OUT --json`.
 * Returns { glb, report, warnings, memoryBytes } (`glb` is a .gltf with an embedded buffer when
 * options.gltf is true); `report` is the object the CLI prints (file and animation bytes before and after).
 */
export async function pack(input, options = {}) {
	const { name, files } = inputFiles(input, options);
	const out = outputName(name, options.gltf ? '.packed.gltf' : '.packed.glb');
	const r = await execute('sinew', ['pack', name, '-o', out, '--json', ...cliOptions(options)], files, options);
	if (r.code !== 0) fail(r);
	return { glb: r.files[out], report: JSON.parse(r.stdout), warnings: r.warnings, memoryBytes: r.memoryBytes };
}

/** `sinew info BLOB --json` (with `sizes: true`, `--sizes`: where every byte goes). */
export async function info(blob, options = {}) {
	const args = ['info', 'input.sinew', '--json'];
	if (options.sizes) args.push('--sizes');
	const r = await execute('sinew', args, { 'input.sinew': blob }, options);
	if (r.code !== 0) fail(r);
	return JSON.parse(r.stdout);
}

/**
 * The shell error of every joint of clip `options.clip` (default 0) of `blob` against its source, through
 * the decoder, at every sample time, sample midpoint (when the source checks them) and source check time:
 * { times: Float64Array, kinds: Uint8Array (0 sample, 1 midpoint, 2 check time), joints, errors
 * (Float64Array, times.length x joints, cm) }. Import options as for compress().
 */
export async function errors(input, blob, options = {}) {
	const { name, files } = inputFiles(input, options);
	files['input.sinew'] = blob;
	const out = outputName(name, '.errors');
	const args = [name, 'input.sinew', '-o', out, '--clip', String(options.clip ?? 0), ...cliOptions(options)];
	const r = await execute('sinew-errors', args, files, options);
	if (r.code !== 0) fail(r);
	const bytes = r.files[out];
	const head = new Uint32Array(bytes.buffer, bytes.byteOffset, 4);
	const rows = head[0], joints = head[1], width = 2 + joints;
	const all = new Float64Array(bytes.buffer, bytes.byteOffset + 16, rows * width);
	const times = new Float64Array(rows), kinds = new Uint8Array(rows), values = new Float64Array(rows * joints);
	for (let i = 0; i < rows; i++) {
		times[i] = all[i * width];
		kinds[i] = all[i * width + 1];
		values.set(all.subarray(i * width + 2, (i + 1) * width), i * joints);
	}
	return { times, kinds, joints, samples: head[2], errors: values };
}

export default { compress, pack, info, errors, run, cliOptions, compressorModule, SinewError };
