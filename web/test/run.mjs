// The live page's browser tests: the built site (web/dist) served on a loopback port and
// driven in headless Chromium. Run from the repository's root by web/test.sh:
//   node web/test/run.mjs [--screenshots] [--only a,b,...] [--site DIR]
// Prints one line per check (PASS/FAIL, with the measured figures) and exits 1 on any failure.

import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { startServer } from './server.mjs';
import { CHECKS, SCREENSHOTS } from './checks.mjs';

const require = createRequire(import.meta.url);
const { chromium } = require('../node_modules/playwright-core');

const args = process.argv.slice(2);
const screenshots = args.includes('--screenshots');
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? new Set(args[onlyAt + 1].split(',')) : null;
const siteAt = args.indexOf('--site');
const site = siteAt >= 0 ? args[siteAt + 1] : 'web/dist';

const server = await startServer(site);
console.log(`site: ${server.url} (${server.how})`);
const profile = mkdtempSync(join(tmpdir(), 'cspkit-page-test-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1280, height: 720 },
  args: [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
  ],
});

/** A fresh tab on the page (with `fragment`), once the engine has answered. */
async function open(fragment = '') {
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  // Nothing but the site: the page must need no network.
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(server.url) || url.startsWith('blob:') || url.startsWith('data:')) route.continue();
    else { problems.push(`outside request: ${url}`); route.abort(); }
  });
  await page.goto(server.url + fragment);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
  page.problems = problems;
  return page;
}

const results = [];
const context_ = { open, repo: process.cwd(), read: (p) => readFileSync(p, 'utf8') };
const list = screenshots ? [...CHECKS, ...SCREENSHOTS] : CHECKS;
for (const check of list) {
  if (only && !only.has(check.key)) continue;
  const started = Date.now();
  let outcome;
  try {
    const detail = await check.run(context_);
    outcome = { ok: true, detail };
  } catch (e) {
    outcome = { ok: false, detail: e && e.message ? e.message : String(e) };
  }
  for (const page of context.pages()) await page.close().catch(() => {});
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const line = `${outcome.ok ? 'PASS' : 'FAIL'} (${check.key}) ${check.name} [${seconds} s]: ${outcome.detail}`;
  console.log(line);
  results.push(outcome.ok);
}

await context.close();
server.stop();
rmSync(profile, { recursive: true, force: true });
const failed = results.filter((ok) => !ok).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed || results.length === 0 ? 1 : 0);
