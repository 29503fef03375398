#!/usr/bin/env node
// sinew — see include/sinew.h for version and licence
// The sinew-anim command: `npx sinew-anim inspect model.glb` serves the inspector page (web/inspector/) for a
// model; `npx sinew-anim compress|pack|info|... ARGS` runs the sinew CLI in WebAssembly on local files
// (web/compress.mjs: the bytes the native CLI writes).
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';

const [command, ...args] = process.argv.slice(2);
if (command === 'inspect') {
	const { main } = await import('../inspector/serve.mjs');
	await main(args).catch((e) => { console.error(`sinew-anim inspect: ${e.message}`); process.exit(1); });
} else if (!command || command === '-h' || command === '--help') {
	console.log('usage: sinew-anim inspect [FILE.glb|.gltf] [--port N] [--error-cm E] [--no-open]\n' +
		'       sinew-anim COMMAND ARGS...   the sinew CLI in WebAssembly (compress, pack, unpack, info, error, ...; sinew-anim --help-cli)');
} else {
	// the CLI over the files its arguments name, in the working folder or below: inputs read into the run,
	// outputs written back
	const { run } = await import('../compress.mjs');
	const cliArgs = command === '--help-cli' ? ['--help'] : [command, ...args];
	const files = {}, mapped = [];
	for (const a of cliArgs) {
		if (a.startsWith('-') || a === command) { mapped.push(a); continue; }
		const rel = relative(process.cwd(), resolve(a));
		if (rel.startsWith('..') || isAbsolute(rel)) { console.error(`sinew-anim: ${a}: files must be inside the working folder`); process.exit(2); }
		if (existsSync(a) && statSync(a).isFile()) files[rel] = readFileSync(a);
		mapped.push(rel);
	}
	const r = await run(mapped, files);
	process.stdout.write(r.stdout);
	process.stderr.write(r.stderr);
	for (const [name, data] of Object.entries(r.files)) {
		if (files[name] && Buffer.from(files[name]).equals(Buffer.from(data))) continue;
		mkdirSync(dirname(resolve(name)), { recursive: true });
		writeFileSync(resolve(name), data);
	}
	process.exit(r.code);
}
