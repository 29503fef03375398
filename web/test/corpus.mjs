// sinew — see include/sinew.h for version and licence
// Where the node tests find their inputs: the shared corpus (../shared/corpus beside the repository, or
// $SINEW_CORPUS) and the native CLI ($SINEW_CLI, relative to the repository or absolute). A test that needs
// one of them is skipped with a reason when it is absent (node --test counts it as skipped); a file missing
// from a corpus that is present fails its test.
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));

function isDir(p) {
	try {
		return statSync(p).isDirectory();
	} catch {
		return false;
	}
}

/** The corpus folder, or null. */
export function corpusDir() {
	const dir = process.env.SINEW_CORPUS ? resolve(process.env.SINEW_CORPUS) : resolve(REPO, '../shared/corpus');
	return isDir(dir) ? dir : null;
}

export const CORPUS = corpusDir();
export const NO_CORPUS = 'corpus absent (../shared/corpus beside the repository, or $SINEW_CORPUS)';

/** A file of the corpus (the corpus must be present: check CORPUS first). */
export function corpusFile(relative) {
	return join(CORPUS, relative);
}

/** The native CLI, or null. */
export function cliPath() {
	const cli = process.env.SINEW_CLI;
	if (!cli) return null;
	const p = isAbsolute(cli) ? cli : join(REPO, cli);
	return existsSync(p) ? p : null;
}

export const CLI = cliPath();
export const NO_CLI = process.env.SINEW_CLI ? `SINEW_CLI ${process.env.SINEW_CLI} not found` : 'SINEW_CLI not set';
