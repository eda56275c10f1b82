// The check of the notebook widget's front end (cspkit/widget.js) in headless Chromium.
//
//   node check.mjs STATES.json [WIDGET.js]
//
// Loads widget.js as an ES module in a page, renders it with `render({model, el})` on a
// minimal stand-in for an anywidget model (get/set/on/off/send), and feeds it the states
// the real Python widget went through (STATES.json, written by states.py: 6-Queens, all
// solutions, several live pages then the complete tree). Checks, one PASS/FAIL line each:
//   tree      the first live page shows the tree page: its tree drawn, the counts and status
//   click     a click on a node of the tree selects it and shows its board and domains
//   live      the next pages replace the page (titles follow the counts), the node stays selected
//   final     the complete tree at the end: its node count, 4 solutions, Stop disabled
//   stop      Stop sends {type: "stop"} to the Python side, once, and then is disabled
//   cleanup   after the view's cleanup, a new page no longer reaches the frame
// WIDGET_CHECK_TIMEOUT: milliseconds to wait for a page (10000).
// Exit status 0 when every check passes, 1 otherwise (2: could not run).
// Chromium: /usr/bin/chromium, or the CHROMIUM environment variable.

import { readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const [statesPath, widgetPath = join(here, '..', 'cspkit', 'widget.js')] = process.argv.slice(2);
if (!statesPath) {
  console.error('usage: node check.mjs STATES.json [WIDGET.js]');
  process.exit(2);
}

/** playwright-core: this folder's node_modules (npm ci here), else web/'s. */
function playwright() {
  const require = createRequire(import.meta.url);
  for (const dir of [join(here, 'node_modules'), join(here, '..', '..', 'web', 'node_modules')]) {
    if (existsSync(join(dir, 'playwright-core'))) return require(join(dir, 'playwright-core'));
  }
  console.error('check.mjs: playwright-core is missing: run npm ci in python/widget-check');
  process.exit(2);
}

const { states } = JSON.parse(readFileSync(statesPath, 'utf8'));
const widgetSource = readFileSync(resolve(widgetPath), 'utf8');
const idle = states[0];
const live = states.filter((s) => s.live);
const final = states[states.length - 1];
const titles = states.slice(1).map((s) => (/<h1>(.*?)<\/h1>/.exec(s.page) || [])[1]);
if (idle.page !== '' || live.length < 2 || final.live || final.status !== 'complete' ||
    new Set(titles).size !== titles.length || titles.includes(undefined)) {
  console.error('check.mjs: STATES.json should hold the idle state, 2 live pages or more, then the complete tree, each page with a title of its own');
  process.exit(2);
}

const ORIGIN = 'http://widget.test';
const HOST = `<!doctype html><meta charset="utf-8"><title>widget check</title>
<body style="margin:0;width:1200px"><div id="host"></div>
<script type="module">
import widget from '${ORIGIN}/widget.js';
// The stand-in for an anywidget model: Backbone's get/set/on/off, and send.
class Model {
  constructor(state) { this.state = { ...state }; this.handlers = {}; this.sent = []; }
  get(key) { return this.state[key]; }
  set(key, value) { this.state[key] = value; }
  save_changes() {}
  on(event, handler) { (this.handlers[event] ||= []).push(handler); }
  off(event, handler) {
    if (!handler) delete this.handlers[event];
    else this.handlers[event] = (this.handlers[event] || []).filter((h) => h !== handler);
  }
  send(content) { this.sent.push(content); }
  // A state from the kernel: every key set first, then one change event per changed key.
  feed(state) {
    const changed = Object.keys(state).filter((k) => JSON.stringify(this.state[k]) !== JSON.stringify(state[k]));
    Object.assign(this.state, state);
    for (const k of changed) for (const h of this.handlers['change:' + k] || []) h();
  }
  listeners() { return Object.values(this.handlers).reduce((n, list) => n + list.length, 0); }
}
window.start = (state) => {
  const el = document.getElementById('host');
  el.replaceChildren();
  window.model = new Model(state);
  window.cleanup = widget.render({ model: window.model, el });
};
window.ready = true;
</script></body>`;

const { chromium } = playwright();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
const problems = [];
page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
await page.route(`${ORIGIN}/**`, (route) => {
  const path = new URL(route.request().url()).pathname;
  if (path === '/') return route.fulfill({ contentType: 'text/html', body: HOST });
  if (path === '/widget.js') return route.fulfill({ contentType: 'text/javascript', body: widgetSource });
  return route.fulfill({ status: 404, body: 'not found' });
});
await page.goto(`${ORIGIN}/`);
await page.waitForFunction(() => window.ready === true, null, { timeout: 10000 });

// ---------------------------------------------------------------- helpers

/** Milliseconds to wait for a page (the broken copies of run.sh use less). */
const TIMEOUT = Number(process.env.WIDGET_CHECK_TIMEOUT || 10000);
/** The tree page's frame, once the page in it has drawn its tree and named its title. */
async function treeFrame(title) {
  await page.waitForFunction((title) => {
    const f = document.querySelector('.cspkit-tree-widget iframe.cspkit-page');
    const d = f && f.contentDocument;
    const h = d && d.querySelector('h1');
    return !!(h && h.textContent.includes(title) && d.body.dataset.drawn && Number(d.body.dataset.drawn) > 0);
  }, title, { timeout: TIMEOUT });
  const handle = await page.$('iframe.cspkit-page');
  return handle.contentFrame();
}
/** The title of a state's tree page (its <h1>: the tree nodes drawn). */
const titleOf = (state) => /<h1>(.*?)<\/h1>/.exec(state.page)[1];
const bar = () => page.evaluate(() => ({
  status: document.querySelector('.cspkit-status').textContent,
  counts: document.querySelector('.cspkit-counts').textContent,
  stop: document.querySelector('button.cspkit-stop').disabled,
  sent: window.model.sent,
}));
const feed = (state) => page.evaluate((s) => window.model.feed(s), state);
const selectedIn = (frame) => frame.evaluate(() => Number(document.body.dataset.selected));

const results = [];
async function check(name, run) {
  try {
    await run();
    results.push([name, 'PASS', '']);
  } catch (e) {
    results.push([name, 'FAIL', String(e && e.message ? e.message : e).split('\n')[0]]);
  }
}
function expect(ok, what) {
  if (!ok) throw new Error(what);
}

// ---------------------------------------------------------------- the checks

let frame = null;
let clicked = -1;

await check('tree', async () => {
  await page.evaluate((s) => window.start(s), idle);
  const before = await bar();
  expect(before.status === 'idle', `status before the search: ${before.status}`);
  await feed(live[0]);
  frame = await treeFrame(titleOf(live[0]));
  const shown = await bar();
  expect(shown.status === 'running', `status while running: ${shown.status}`);
  expect(!shown.stop, 'Stop is disabled while the search runs');
  expect(shown.counts.includes(`tree nodes ${live[0].stats.nodes}`), `counts: ${shown.counts}`);
  expect(shown.counts.includes(`decisions ${live[0].stats.decisions}`), `counts: ${shown.counts}`);
  const canvases = await frame.evaluate(() => document.querySelectorAll('canvas.tree').length);
  expect(canvases === 1, `tree canvases in the page: ${canvases}`);
});

await check('click', async () => {
  expect(frame, 'no tree page to click');
  // Find where a deeper node is drawn: walk to it with the page's own keys, read its
  // position, go back to the root, then click there with the mouse.
  const canvas = await frame.$('canvas.tree');
  await canvas.click({ position: { x: 5, y: 5 } });
  for (const key of ['Home', 'ArrowRight', 'ArrowRight', 'ArrowRight']) await frame.press('canvas.tree', key);
  const target = await frame.evaluate(() => ({
    node: Number(document.body.dataset.selected),
    x: Number(document.body.dataset.selx),
    y: Number(document.body.dataset.sely),
  }));
  expect(target.node === 3, `three steps right of the root is node ${target.node}`);
  await frame.press('canvas.tree', 'Home');
  expect((await selectedIn(frame)) === 0, 'Home did not go back to the root');
  const rootBoard = await frame.evaluate(() => document.getElementById('board').innerHTML);
  await canvas.click({ position: { x: target.x, y: target.y } });
  const after = await frame.evaluate(() => ({
    node: Number(document.body.dataset.selected),
    board: document.getElementById('board').innerHTML,
    label: document.getElementById('label').textContent,
    domainRows: document.querySelectorAll('#domains tr').length,
  }));
  expect(after.node === target.node, `the click selected node ${after.node}, not ${target.node}`);
  expect(after.board !== '' && after.board !== rootBoard, 'the board did not change for the node clicked');
  expect(after.label.trim() !== '', 'no label for the node clicked');
  // 6-Queens has one variable a row: the domains table has a row for each (and maybe a header).
  expect(after.domainRows >= 6, `domains rows: ${after.domainRows}`);
  clicked = target.node;
});

await check('live', async () => {
  expect(clicked > 0, 'no node selected to keep');
  for (const state of live.slice(1)) {
    await feed(state);
    frame = await treeFrame(titleOf(state));
    const kept = await selectedIn(frame);
    expect(kept === clicked, `after the page of ${state.stats.nodes} nodes the selected node is ${kept}, not ${clicked}`);
    const shown = await bar();
    expect(shown.counts.includes(`solutions ${state.solutions}`), `counts: ${shown.counts}`);
  }
  const pages = await page.evaluate(() => document.querySelector('.cspkit-tree-widget').dataset.pages);
  expect(Number(pages) === live.length, `pages shown: ${pages}, sent: ${live.length}`);
});

await check('final', async () => {
  await feed(final);
  // The complete tree: every node the search made is drawn.
  expect(titleOf(final).includes(`(${final.stats.nodes} tree nodes)`), `final title: ${titleOf(final)}`);
  frame = await treeFrame(titleOf(final));
  const shown = await bar();
  expect(shown.status === 'complete', `status at the end: ${shown.status}`);
  expect(shown.stop, 'Stop is still enabled after the end');
  // 6-Queens has 4 solutions (a known figure, not one read from the states).
  expect(shown.counts.includes('solutions 4'), `counts: ${shown.counts}`);
  const solutions = await frame.evaluate(() => document.body.innerHTML.length > 0 && document.querySelectorAll('canvas.tree').length);
  expect(solutions === 1, 'the final page has no tree');
  expect((await selectedIn(frame)) === clicked, 'the final page lost the selected node');
});

await check('stop', async () => {
  await page.evaluate((s) => window.start(s), live[0]);
  await treeFrame(titleOf(live[0]));
  await page.click('button.cspkit-stop');
  await page.click('button.cspkit-stop', { force: true, timeout: 1000 }).catch(() => {});
  const shown = await bar();
  expect(JSON.stringify(shown.sent) === JSON.stringify([{ type: 'stop' }]), `sent: ${JSON.stringify(shown.sent)}`);
  expect(shown.stop, 'Stop is still enabled after a click');
  await feed({ ...final, status: 'stopped' });
  const after = await bar();
  expect(after.status === 'stopped', `status after Stop: ${after.status}`);
});

await check('cleanup', async () => {
  await page.evaluate((s) => window.start(s), live[0]);
  await treeFrame(titleOf(live[0]));
  const count = await page.evaluate(() => { window.cleanup(); return window.model.listeners(); });
  expect(count === 0, `listeners left after cleanup: ${count}`);
});

await browser.close();
for (const p of problems) results.push(['page', 'FAIL', p]);
for (const [name, verdict, why] of results) console.log(`${verdict} ${name}${why ? `: ${why}` : ''}`);
process.exit(results.every(([, verdict]) => verdict === 'PASS') ? 0 : 1);
