// sinew — see include/sinew.h for version and licence
// Runs the Khronos glTF-Validator on .gltf/.glb files (directories are searched recursively).
// Prints one line per file with its issue counts, then each error and warning on its own line
// (--verbose: infos and hints too).
//
// A file exported from a source document may have a `<file>.source` note beside it (one line: the
// source's path). The source is validated too, and an error of the export whose code and message also
// occur in the source's report is counted as inherited (the source's own problem, e.g. non-normalized
// skin weights) rather than as an error of the export.
//
// Exit code: 0 when no file has errors of its own, 1 otherwise, 2 on usage problems or when no file is found.
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const validator = require('gltf-validator');

const severities = ['error', 'warning', 'info', 'hint'];
const MAX_PRINTED = 20; // per file and severity class

async function collect(target, out, explicit) {
	const info = await stat(target);
	if (info.isDirectory()) {
		const entries = (await readdir(target)).sort();
		for (const entry of entries) await collect(path.join(target, entry), out, false);
	} else if (explicit || /\.(gltf|glb)$/i.test(target)) {
		out.push(target);
	}
}

async function validateFile(file) {
	const bytes = await readFile(file);
	return validator.validateBytes(new Uint8Array(bytes), {
		uri: path.basename(file),
		maxIssues: 0, // every issue
		externalResourceFunction: (uri) =>
			readFile(path.resolve(path.dirname(file), decodeURIComponent(uri))).then((data) => new Uint8Array(data)),
	});
}

async function sourceOf(file) {
	try {
		return (await readFile(`${file}.source`, 'utf8')).trim() || null;
	} catch {
		return null;
	}
}

const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const targets = args.filter((a) => a !== '--verbose');
if (targets.length === 0) {
	console.error('usage: node validate.mjs [--verbose] <file.gltf|file.glb|directory>...');
	process.exit(2);
}
const files = [];
for (const target of targets) {
	try {
		await collect(target, files, true);
	} catch (e) {
		console.error(`${target}: ${e.message}`);
		process.exit(2);
	}
}
if (files.length === 0) {
	console.error('no .gltf or .glb files found');
	process.exit(2);
}

let failed = 0;
for (const file of files) {
	let report;
	try {
		report = await validateFile(file);
	} catch (e) {
		console.log(`${file}: the validator could not read the file: ${e}`);
		++failed;
		continue;
	}
	const issues = report.issues;
	// Errors the source already had, as multisets keyed by "code message" (data errors keep their message
	// when objects are renumbered) and, for I/O errors whose message names a different path, "code pointer".
	const byMessage = new Map(), byPointer = new Map();
	const take = (pool, k) => {
		const left = pool.get(k) || 0;
		if (left > 0) pool.set(k, left - 1);
		return left > 0;
	};
	const source = await sourceOf(file);
	if (source && issues.numErrors > 0) {
		try {
			for (const m of (await validateFile(source)).issues.messages) {
				if (m.severity !== 0) continue;
				for (const [pool, k] of [[byMessage, `${m.code} ${m.message}`], [byPointer, `${m.code} ${m.pointer}`]])
					pool.set(k, (pool.get(k) || 0) + 1);
			}
		} catch (e) {
			console.log(`${file}: cannot validate its source ${source}: ${e}`);
		}
	}
	let own = 0, inherited = 0;
	const lines = [];
	const printed = [0, 0, 0, 0];
	for (const m of issues.messages) {
		let tag = severities[m.severity];
		if (m.severity === 0) {
			const io = m.code === 'IO_ERROR' || m.code === 'FILE_NOT_FOUND';
			if (take(byMessage, `${m.code} ${m.message}`) || (io && take(byPointer, `${m.code} ${m.pointer}`))) {
				++inherited;
				tag = 'error (inherited from source)';
			} else {
				++own;
			}
		}
		if (m.severity > 1 && !verbose) continue;
		if (printed[m.severity]++ === MAX_PRINTED) lines.push(`  ... more ${severities[m.severity]}s not shown`);
		if (printed[m.severity] > MAX_PRINTED) continue;
		lines.push(`  ${tag} ${m.code} ${m.pointer || ''} ${m.message}`);
	}
	const inheritedText = inherited ? ` (${own} own, ${inherited} inherited from ${source})` : '';
	console.log(`${file}: ${issues.numErrors} errors${inheritedText}, ${issues.numWarnings} warnings, ` +
		`${issues.numInfos} infos, ${issues.numHints} hints`);
	for (const line of lines) console.log(line);
	if (own > 0) ++failed;
}
console.log(`${files.length} files, ${failed} with errors of their own`);
process.exit(failed ? 1 : 0);
