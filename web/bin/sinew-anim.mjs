#!/usr/bin/env node
// sinew — see include/sinew.h for version and licence
// The sinew-anim command: `npx sinew-anim inspect model.glb` serves the inspector page (web/inspector/) for a
// model; `npx sinew-anim compress|pack|info|... ARGS` runs the sinew CLI in WebAssembly (sinew-compress.wasm, a
// WASI command) through node:wasi on the machine's files, as the native CLI runs: paths absolute or relative to
// the working folder, an AMC's .asf found in its folder, outputs written to a temporary name and renamed.
import { resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';

const [command, ...args] = process.argv.slice(2);
if (command === 'inspect') {
	const { main } = await import('../inspector/serve.mjs');
	await main(args).catch((e) => { console.error(`sinew-anim inspect: ${e.message}`); process.exit(1); });
} else if (!command || command === '-h' || command === '--help') {
	console.log('usage: sinew-anim inspect [FILE.glb|.gltf|.bvh|.amc|.acl.sjson] [--port N] [--error-cm E] [--no-open]\n' +
		'       sinew-anim COMMAND ARGS...   the sinew CLI in WebAssembly (compress, pack, unpack, info, error, ...; sinew-anim --help-cli)');
} else {
	// node:wasi's calls into node are V8 "fast API calls", inside which an allocation can start a garbage
	// collection that corrupts the heap (nodejs/node#46777: a segfault now and then); this process runs
	// nothing else, so they are turned off before node:wasi is loaded. Loading it, node warns that WASI is
	// experimental: a warning about the API this file pins, not about the user's files, held back (only it).
	setFlagsFromString('--no-turbo-fast-api-calls');
	const emitWarning = process.emitWarning;
	process.emitWarning = (warning, ...rest) => {
		const type = typeof rest[0] === 'string' ? rest[0] : rest[0]?.type;
		if (!(type === 'ExperimentalWarning' && /^WASI\b/.test(String(warning)))) emitWarning.call(process, warning, ...rest);
	};
	const { WASI } = await import('node:wasi');
	process.emitWarning = emitWarning;
	const { compressorModule } = await import('../compress.mjs');
	const cliArgs = command === '--help-cli' ? ['--help'] : [command, ...args];
	// every path the CLI names: "/" is preopened as the machine's root and the CLI starts in $PWD
	const wasi = new WASI({ version: 'preview1', args: ['sinew', ...cliArgs], env: { PWD: resolve('.') }, preopens: { '/': '/' }, returnOnExit: true });
	const memory = new WebAssembly.Memory({ initial: 32, maximum: 65536 }); // the module's minimum: 2 MB
	const instance = await WebAssembly.instantiate(await compressorModule(), { env: { memory }, wasi_snapshot_preview1: wasi.wasiImport });
	process.exitCode = wasi.start({ exports: { ...instance.exports, memory } });
}
