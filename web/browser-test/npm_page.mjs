// sinew — see include/sinew.h for version and licence
// Runs the esbuild-bundled page of web/browser-test/npm_package.sh in headless Chromium and checks what it
// reports: the world's frames are one wasm call each, poses finite, the crossfade done.
import { chromium } from './node_modules/playwright-core/index.mjs';
import { startServer } from './server.mjs';

const dir = process.argv[2];
const server = await startServer({ app: dir });
const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
	args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
let failed = false;
try {
	const page = await browser.newPage();
	const errors = [];
	page.on('pageerror', (e) => errors.push(String(e)));
	await page.goto(`http://127.0.0.1:${server.address().port}/app/index.html`);
	await page.waitForFunction(() => window.result, null, { timeout: 30000 });
	const r = await page.evaluate(() => window.result);
	failed = errors.length > 0 || r.calls !== 60 || r.frames !== 60 || !r.finite || r.weight !== 1 || r.adapter !== 'function';
	console.log(`esbuild page in Chromium: ${JSON.stringify(r)}${errors.length ? ` errors: ${errors}` : ''}: ${failed ? 'FAILED' : 'ok'}`);
} finally {
	await browser.close();
	server.close();
}
process.exit(failed ? 1 : 0);
