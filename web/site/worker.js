// The search, off the page's thread: cspkit's WebAssembly module in a Web Worker.
//
// Messages in (from app.js), each with an `id` echoed in the answers:
//   {type: 'info'}                          -> {type: 'info', models, version, mznlib}
//   {type: 'run', spec, live, every, full}  -> 'progress'..., 'page'..., then 'done'
//       advances the search ~50 ms at a time; posts the progress after each slice and a
//       tree page of at most `live` nodes at most every `every` ms; at the end the page of
//       up to `full` nodes and the solutions.
//   {type: 'step', spec, reset, draw}       -> {type: 'step', line, event, progress, page}
//       one event of a stepping session kept here (a new one when `reset` or the spec changed).
//   {type: 'compare', specA, specB}         -> {type: 'compare', html}
//   {type: 'explain', spec, what}           -> {type: 'explain', text}
// Any failure -> {type: 'error', error: {error, line, column, what}}.
// The page stops a run by terminating this worker and starting a new one.

import init, { Session, compare, explain, models, version } from './pkg/cspkit_web.js';
import * as web from './pkg/cspkit_web.js';

const ready = init();
let stepping = null; // {spec, session}

/** The module's error (a JSON string) as an object; anything else as a message. */
function asError(e) {
  if (typeof e === 'string') {
    try {
      const parsed = JSON.parse(e);
      if (parsed && typeof parsed.error === 'string') return parsed;
    } catch (_) { /* not JSON: a plain message */ }
    return { error: e, line: null, column: null, what: 'model' };
  }
  return { error: String(e && e.message ? e.message : e), line: null, column: null, what: 'model' };
}

const yieldNow = () => new Promise((resolve) => setTimeout(resolve, 0));

async function run(id, spec, live, every, full) {
  const session = new Session(spec);
  try {
    let last = performance.now();
    for (;;) {
      const progress = JSON.parse(session.advance(50));
      postMessage({ id, type: 'progress', progress });
      if (progress.state === 'done') {
        const html = session.page(full);
        postMessage({ id, type: 'done', progress, html, solutions: JSON.parse(session.solutions()) });
        return;
      }
      const now = performance.now();
      if (now - last >= every) {
        postMessage({ id, type: 'page', html: session.page(live), progress });
        last = performance.now();
      }
      await yieldNow();
    }
  } finally {
    session.free();
  }
}

function step(id, spec, reset, draw) {
  if (reset || !stepping || stepping.spec !== spec) {
    if (stepping) stepping.session.free();
    stepping = { spec, session: new Session(spec) };
  }
  const event = JSON.parse(stepping.session.step());
  const progress = JSON.parse(stepping.session.progress());
  postMessage({ id, type: 'step', event, progress, html: stepping.session.page(draw) });
}

onmessage = async (message) => {
  const m = message.data;
  try {
    await ready;
    switch (m.type) {
      case 'info':
        postMessage({
          id: m.id,
          type: 'info',
          models: JSON.parse(models()),
          version: version(),
          // cspkit's MiniZinc library, when the module offers it: [[file name, text], ...].
          mznlib: typeof web.mznlib === 'function' ? JSON.parse(web.mznlib()) : null,
        });
        break;
      case 'run':
        await run(m.id, m.spec, m.live, m.every, m.full);
        break;
      case 'step':
        step(m.id, m.spec, m.reset, m.draw);
        break;
      case 'compare':
        postMessage({ id: m.id, type: 'compare', html: compare(m.specA, m.specB) });
        break;
      case 'explain':
        postMessage({ id: m.id, type: 'explain', text: explain(m.spec, m.what) });
        break;
      default:
        throw `unknown message ${m.type}`;
    }
  } catch (e) {
    postMessage({ id: m.id, type: 'error', error: asError(e) });
  }
};
