// cspkit's live page: pick or write a model, choose a strategy, watch the search.
//
// The search runs in a Web Worker (worker.js, cspkit's WebAssembly module); the tree is
// cspkit's own tree page (`cspkit ... --tree page.html`), made by the module and shown in an
// <iframe> from a blob URL (`#node=N` keeps the selected node across refreshes). A MiniZinc
// model is compiled in the page by MiniZinc's compiler (mzn.js), loaded on first use only.
//
// Stable element ids (for tests and for links into the page):
//   #model-kind       select: queens | sudoku | colouring | minizinc | flatzinc
//   #queens-n         N-Queens size
//   #sudoku-grid      the 9x9 grid; its cells are inputs #cell-R-C (R, C from 1 to 9)
//   #sudoku-line      a pasted puzzle; #sudoku-load fills the grid from it, #sudoku-clear empties it
//   #colouring-map    map name (from the module's models()); #colouring-colours number of colours
//   #mzn-source       MiniZinc model text; #mzn-data its DZN data; #mzn-status compiler state
//   #fzn-source       FlatZinc text
//   #mzn-lines, #fzn-lines   line-number gutters; the line of an error is marked (<mark>)
//   #editor-error     a MiniZinc/FlatZinc/model error: data-line, data-column, data-what set
//   #propagation #var-order #value-order #branching #counting   strategy ('' = the CLI's default)
//   #backjump         checkbox: conflict-directed backjumping (the CLI's --backjump)
//   #solutions-mode   first | all | n, with #solutions-n
//   #node-limit       nodes (default 100000); #time-limit seconds (default 10)
//   #run #stop #step #step-reset #replay     actions
//   #b-propagation #b-var-order #b-value-order #b-branching   strategy B; #compare
//   #explain #hint #why     Sudoku explanations, shown in #explain-text
//   #share-link       the link to the current model and settings
//   #state            idle | compiling | running | done | stopped | stepping | comparing | compared | error
//   #count-decisions #count-nodes (tree nodes) #count-failures #count-solutions #answer #elapsed
//                     the search's counts, named as `--stats` names them; with #backjump,
//                     #count-backjumps #count-levels-skipped (in #backjump-counts)
//   #run-error        an error that is not about the editor (a bad setting)
//   #tree             the iframe holding the tree page
//   #trace            the trace lines of Step
// The body's data attributes, for tests: data-ready="1" once the engine answered,
// data-readyms (ms from navigation), data-runms (Run to the search's end), data-drawnms
// (Run to the final tree loaded), data-pages (tree pages loaded), data-minizinc (version).
//
// The model and settings live in the address's fragment (#model=queens&n=8&propagation=fc…;
// MiniZinc, DZN and FlatZinc text and the Sudoku grid in base64url), written on Run and read
// on load, so a link hands out a prepared exercise.

import { compileMiniZinc, miniZincVersion, MODEL_FILE, DATA_FILE } from './mzn.js';

/** Nodes drawn in a tree page while the search runs (the page's thread draws it). */
const LIVE_NODES = 2000;
/** Milliseconds between two tree pages while the search runs. */
const LIVE_EVERY_MS = 1000;
/** Nodes kept and drawn once the search ends. */
const TREE_LIMIT = 100000;

const $ = (id) => document.getElementById(id);
const STRATEGY = ['propagation', 'var-order', 'value-order', 'branching'];
/** Keys of the address for each setting. */
const URL_KEYS = { propagation: 'propagation', 'var-order': 'var', 'value-order': 'value', branching: 'branching' };

// samples/sudoku/2239.txt of the repository.
const SAMPLE_SUDOKU =
  '103000509002109400000704000300502006060000050700803004000401000009205800804000107';
const SAMPLE_MINIZINC = `% Place n queens; q[i] is the column of the queen in row i.
include "globals.mzn";
int: n = 6;
array[1..n] of var 1..n: q;
constraint all_different(q);
constraint all_different([q[i] + i | i in 1..n]);
constraint all_different([q[i] - i | i in 1..n]);
solve satisfy;
output ["q = \\(q)\\n"];
`;
const SAMPLE_FLATZINC = `var 1..3: x :: output_var;
var 1..3: y :: output_var;
constraint int_lt(x, y);
solve satisfy;
`;

// ---------------------------------------------------------------- the worker

let worker = null;
let nextId = 1;
const handlers = new Map();
let running = null; // {id, started}
let info = null;
let stepping = false; // a stepping session is open in the worker

function startWorker() {
  worker = new Worker('worker.js', { type: 'module' });
  worker.onmessage = (e) => {
    const handler = handlers.get(e.data.id);
    if (handler) handler(e.data);
  };
  worker.onerror = (e) => {
    showRunError(`The engine failed: ${e.message || 'could not load worker.js or the WebAssembly module'}`);
    setState('error');
  };
}

/** Sends a message; `onAnswer` gets every answer to it until it returns true (finished). */
function send(message, onAnswer) {
  const id = nextId++;
  handlers.set(id, (data) => { if (onAnswer(data)) handlers.delete(id); });
  worker.postMessage({ ...message, id });
  return id;
}

/** One request, one answer. */
function ask(message) {
  return new Promise((resolve, reject) => {
    send(message, (data) => {
      if (data.type === 'error') reject(data.error); else resolve(data);
      return true;
    });
  });
}

/** Ends whatever the worker is doing: a new worker for what comes next. */
function restartWorker() {
  worker.terminate();
  handlers.clear();
  startWorker();
}

// ---------------------------------------------------------------- the model's panels

function fillSelect(select, names, withDefault) {
  const keep = select.value;
  select.textContent = '';
  if (withDefault) select.add(new Option('default', ''));
  for (const name of names) select.add(new Option(name, name));
  if ([...select.options].some((o) => o.value === keep)) select.value = keep;
}

function showModelPanel() {
  const kind = $('model-kind').value;
  for (const panel of document.querySelectorAll('.model-panel')) panel.hidden = panel.dataset.model !== kind;
  $('explain-box').hidden = kind !== 'sudoku';
  clearEditorError();
}

function buildSudokuGrid() {
  const grid = $('sudoku-grid');
  for (let r = 1; r <= 9; r++) {
    const row = document.createElement('div');
    row.setAttribute('role', 'row');
    for (let c = 1; c <= 9; c++) {
      const cell = document.createElement('input');
      cell.id = `cell-${r}-${c}`;
      cell.className = 'cell';
      cell.maxLength = 1;
      cell.inputMode = 'numeric';
      cell.setAttribute('aria-label', `row ${r} column ${c}`);
      cell.setAttribute('role', 'gridcell');
      if (c % 3 === 0 && c < 9) cell.classList.add('box-right');
      if (r % 3 === 0 && r < 9) cell.classList.add('box-bottom');
      cell.addEventListener('input', () => {
        cell.value = cell.value.replace(/[^1-9]/g, '').slice(-1);
      });
      row.append(cell);
    }
    grid.append(row);
  }
}

/** The grid as 81 characters, `.` for a blank. */
function sudokuText() {
  let text = '';
  for (let r = 1; r <= 9; r++) for (let c = 1; c <= 9; c++) text += $(`cell-${r}-${c}`).value || '.';
  return text;
}

/** Fills the grid from a puzzle's text; returns an error message or null. */
function setSudoku(text) {
  const cells = text.replace(/[^0-9.]/g, '');
  if (cells.length !== 81) {
    return `A 9x9 puzzle has 81 cells (digits, . or 0 for a blank); this text has ${cells.length}.`;
  }
  for (let i = 0; i < 81; i++) {
    const ch = cells[i];
    $(`cell-${Math.floor(i / 9) + 1}-${(i % 9) + 1}`).value = ch === '.' || ch === '0' ? '' : ch;
  }
  return null;
}

/** Line numbers beside an editor, the line `marked` (if any) highlighted. */
function drawGutter(editorId, gutterId, marked) {
  const lines = $(editorId).value.split('\n').length;
  const gutter = $(gutterId);
  gutter.textContent = '';
  for (let i = 1; i <= lines; i++) {
    const line = i === marked ? document.createElement('mark') : document.createTextNode('');
    line.textContent = `${i}\n`;
    gutter.append(line);
  }
  gutter.scrollTop = $(editorId).scrollTop;
}

function watchEditor(editorId, gutterId) {
  const editor = $(editorId);
  editor.addEventListener('input', () => drawGutter(editorId, gutterId, null));
  editor.addEventListener('scroll', () => { $(gutterId).scrollTop = editor.scrollTop; });
  drawGutter(editorId, gutterId, null);
}

// ---------------------------------------------------------------- settings and the address

function solutionsWanted() {
  const mode = $('solutions-mode').value;
  if (mode === 'all') return 0;
  if (mode === 'n') return Math.max(1, Math.floor(Number($('solutions-n').value) || 1));
  return 1;
}

function limits() {
  const nodes = Math.floor(Number($('node-limit').value));
  const seconds = Number($('time-limit').value);
  return {
    node_limit: nodes > 0 ? nodes : 100000,
    time_limit_ms: seconds > 0 ? Math.round(seconds * 1000) : 10000,
  };
}

/** The strategy part of a spec from the selects `prefix`+name. */
function strategy(prefix) {
  const s = {};
  for (const name of STRATEGY) {
    const value = $(prefix + name).value;
    if (value) s[name.replace('-', '_')] = value;
  }
  return s;
}

const toBase64Url = (text) => {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};
const fromBase64Url = (text) => {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
};

/** The model and settings as the address's fragment. */
function stateToFragment() {
  const p = new URLSearchParams();
  const kind = $('model-kind').value;
  p.set('model', kind);
  if (kind === 'queens') p.set('n', $('queens-n').value);
  if (kind === 'sudoku') p.set('grid', sudokuText());
  if (kind === 'colouring') { p.set('map', $('colouring-map').value); p.set('colours', $('colouring-colours').value); }
  if (kind === 'minizinc') {
    p.set('mzn', toBase64Url($('mzn-source').value));
    if ($('mzn-data').value.trim()) p.set('dzn', toBase64Url($('mzn-data').value));
  }
  if (kind === 'flatzinc') p.set('fzn', toBase64Url($('fzn-source').value));
  for (const name of STRATEGY) if ($(name).value) p.set(URL_KEYS[name], $(name).value);
  if ($('counting').value) p.set('counting', $('counting').value);
  if ($('backjump').checked) p.set('backjump', 'on');
  const mode = $('solutions-mode').value;
  p.set('solutions', mode === 'n' ? String(solutionsWanted()) : mode);
  p.set('nodes', $('node-limit').value);
  p.set('time', $('time-limit').value);
  for (const name of STRATEGY) if ($(`b-${name}`).value) p.set(`b${URL_KEYS[name]}`, $(`b-${name}`).value);
  return p.toString();
}

/** Sets a select's value if it offers it; returns a note when it does not. */
function setSelect(select, value, what) {
  if ([...select.options].some((o) => o.value === value)) { select.value = value; return null; }
  return `${what} "${value}" is not one of the page's choices`;
}

/** Restores the model and settings from the address's fragment (or query). */
function restoreState() {
  const source = location.hash.length > 1 ? location.hash.slice(1) : location.search.slice(1);
  if (!source) return;
  const p = new URLSearchParams(source);
  const notes = [];
  const note = (n) => { if (n) notes.push(n); };
  const text = (key) => {
    try { return fromBase64Url(p.get(key)); } catch (_) { notes.push(`${key}: not base64url text`); return ''; }
  };
  if (p.has('model')) note(setSelect($('model-kind'), p.get('model'), 'model'));
  if (p.has('n')) $('queens-n').value = p.get('n');
  if (p.has('grid')) note(setSudoku(p.get('grid')));
  if (p.has('map')) note(setSelect($('colouring-map'), p.get('map'), 'map'));
  if (p.has('colours')) $('colouring-colours').value = p.get('colours');
  if (p.has('mzn')) $('mzn-source').value = text('mzn');
  if (p.has('dzn')) $('mzn-data').value = text('dzn');
  if (p.has('fzn')) $('fzn-source').value = text('fzn');
  for (const name of STRATEGY) {
    if (p.has(URL_KEYS[name])) note(setSelect($(name), p.get(URL_KEYS[name]), name));
    if (p.has(`b${URL_KEYS[name]}`)) note(setSelect($(`b-${name}`), p.get(`b${URL_KEYS[name]}`), `${name} (B)`));
  }
  if (p.has('counting')) note(setSelect($('counting'), p.get('counting'), 'counting'));
  $('backjump').checked = p.get('backjump') === 'on';
  const solutions = p.get('solutions');
  if (solutions === 'all' || solutions === 'first') $('solutions-mode').value = solutions;
  else if (solutions && /^\d+$/.test(solutions)) { $('solutions-mode').value = 'n'; $('solutions-n').value = solutions; }
  if (p.has('nodes')) $('node-limit').value = p.get('nodes');
  if (p.has('time')) $('time-limit').value = p.get('time');
  $('solutions-n').hidden = $('solutions-mode').value !== 'n';
  showModelPanel();
  drawGutter('mzn-source', 'mzn-lines', null);
  drawGutter('fzn-source', 'fzn-lines', null);
  if (notes.length) showRunError(`The link's settings: ${notes.join('; ')}.`);
}

function writeState() {
  const fragment = stateToFragment();
  history.replaceState(null, '', `#${fragment}`);
  $('share-link').href = `#${fragment}`;
}

// ---------------------------------------------------------------- the spec

let compiled = { key: null, fzn: null };

/** The spec for the module (a JSON string), compiling a MiniZinc model first. */
async function buildSpec(strategyPrefix = '') {
  const kind = $('model-kind').value;
  let model;
  if (kind === 'queens') model = { kind: 'queens', n: Math.floor(Number($('queens-n').value)) };
  else if (kind === 'sudoku') model = { kind: 'sudoku', grid: sudokuText() };
  else if (kind === 'colouring') {
    model = { kind: 'colouring', map: $('colouring-map').value, colours: Math.floor(Number($('colouring-colours').value)) };
  } else if (kind === 'flatzinc') model = { kind: 'flatzinc', text: $('fzn-source').value };
  else model = { kind: 'flatzinc', text: await compiledMiniZinc() };
  const spec = {
    model,
    ...strategy(strategyPrefix),
    ...($('counting').value ? { counting: $('counting').value } : {}),
    ...($('backjump').checked ? { backjump: true } : {}),
    solutions: solutionsWanted(),
    ...limits(),
    tree_limit: TREE_LIMIT,
  };
  return JSON.stringify(spec);
}

/** The FlatZinc of the MiniZinc editor's model, compiled once per text. */
async function compiledMiniZinc() {
  const source = $('mzn-source').value;
  const data = $('mzn-data').value;
  const key = `${source}\u0000${data}`;
  if (compiled.key === key) return compiled.fzn;
  const previous = $('state').textContent;
  setState('compiling');
  $('mzn-status').textContent = 'Loading and running MiniZinc’s compiler…';
  try {
    const fzn = await compileMiniZinc(source, data, info && info.mznlib);
    compiled = { key, fzn };
    const version = await miniZincVersion();
    document.body.dataset.minizinc = version;
    $('mzn-status').textContent = `Compiled by MiniZinc ${version}${info && info.mznlib ? ' with cspkit’s globals library' : ''}.`;
    return fzn;
  } catch (e) {
    $('mzn-status').textContent = '';
    setState(previous);
    throw { ...e, source: 'minizinc' };
  }
}

// ---------------------------------------------------------------- errors

function clearEditorError() {
  const box = $('editor-error');
  box.hidden = true;
  box.textContent = '';
  delete box.dataset.line;
  delete box.dataset.column;
  delete box.dataset.what;
  drawGutter('mzn-source', 'mzn-lines', null);
  drawGutter('fzn-source', 'fzn-lines', null);
  $('run-error').hidden = true;
}

function showRunError(message) {
  const box = $('run-error');
  box.textContent = message;
  box.hidden = false;
}

/**
 * Shows an error from the compiler or the module. An error about the model's text goes
 * beside its editor, with its line and column, the line quoted and marked in the gutter.
 */
function showError(error) {
  const kind = $('model-kind').value;
  const what = error.what || 'model';
  if (what === 'spec') {
    showRunError(`Setting: ${error.error}`);
    setState('error');
    return;
  }
  const box = $('editor-error');
  box.textContent = '';
  box.dataset.what = what;
  let editor = null;
  let where = '';
  if (error.source === 'minizinc') {
    editor = error.file === DATA_FILE ? 'mzn-data' : 'mzn-source';
    where = `MiniZinc error in ${error.file || MODEL_FILE}`;
  } else if (kind === 'flatzinc') {
    editor = 'fzn-source';
    where = 'FlatZinc error';
  } else if (kind === 'minizinc') {
    // cspkit read the compiled FlatZinc: its lines are not the model's.
    where = 'Error in the FlatZinc compiled from the model';
  } else {
    where = 'Model error';
  }
  if (what === 'unsupported') where = `Unsupported by cspkit${where ? ` (${where})` : ''}`;
  const line = Number.isInteger(error.line) ? error.line : null;
  const column = Number.isInteger(error.column) ? error.column : null;
  if (line !== null) {
    box.dataset.line = String(line);
    where += `, line ${line}`;
    if (column !== null) { box.dataset.column = String(column); where += `, column ${column}`; }
  }
  const head = document.createElement('strong');
  head.textContent = `${where}: `;
  // The module's messages may start with their own `line L, column C: `: said once, above.
  const message = String(error.error).replace(/^line \d+(, column \d+)?: /, '');
  box.append(head, document.createTextNode(message));
  if (editor && line !== null) {
    const text = $(editor).value.split('\n')[line - 1];
    if (text !== undefined) {
      const quote = document.createElement('pre');
      quote.className = 'quote';
      quote.textContent = `${line} | ${text}${column !== null ? `\n${' '.repeat(String(line).length + 2 + column)}^` : ''}`;
      box.append(quote);
    }
    if (editor !== 'mzn-data') drawGutter(editor, editor === 'fzn-source' ? 'fzn-lines' : 'mzn-lines', line);
    box.onclick = () => selectLine($(editor), line);
  }
  box.hidden = false;
  setState('error');
}

/** Selects line `line` of a textarea and scrolls to it. */
function selectLine(textarea, line) {
  const lines = textarea.value.split('\n');
  let start = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) start += lines[i].length + 1;
  textarea.focus();
  textarea.setSelectionRange(start, start + (lines[line - 1] || '').length);
}

// ---------------------------------------------------------------- the counts and the tree

function setState(state) {
  $('state').textContent = state;
  document.body.dataset.state = state;
}

function showProgress(p) {
  $('count-decisions').textContent = String(p.nodes);
  $('count-nodes').textContent = String(p.tree_nodes ?? p.nodes);
  $('count-failures').textContent = String(p.failures);
  $('backjump-counts').hidden = !$('backjump').checked;
  $('count-backjumps').textContent = String(p.backjumps ?? 0);
  $('count-levels-skipped').textContent = String(p.levels_skipped ?? 0);
  $('count-solutions').textContent = String(p.solutions);
  $('answer').textContent = p.answer || '–';
  $('elapsed').textContent = String(Math.round(p.elapsed_ms));
}

let treeUrl = null;
let treeLoading = false;
let pagesLoaded = 0;

/** The node selected in the tree page shown now, if any. */
function selectedNode() {
  try {
    const doc = $('tree').contentDocument;
    const selected = doc && doc.body && doc.body.dataset.selected;
    return selected ? Number(selected) : null;
  } catch (_) {
    return null;
  }
}

/** The node selected when the tree was last readable (a live page's frame is not). */
let lastSelected = null;

/**
 * Shows a tree page (HTML text); keeps the selected node unless `select` names one.
 * A `live` page (while the search runs) is loaded sandboxed: in a frame of its own origin,
 * which the browser may run off this page's thread, so its drawing never holds up input;
 * the others are same-origin, so the page can read the selected node and drive the player.
 */
function showTree(html, select = null, onLoad = null, live = false) {
  const current = selectedNode();
  if (current !== null) lastSelected = current;
  const node = select !== null ? select : lastSelected;
  const url = URL.createObjectURL(new Blob([html], { type: 'text/html' }));
  const frame = $('tree');
  if (live) frame.setAttribute('sandbox', 'allow-scripts');
  else frame.removeAttribute('sandbox');
  const old = treeUrl;
  treeUrl = url;
  treeLoading = true;
  frame.onload = () => {
    treeLoading = false;
    pagesLoaded += 1;
    document.body.dataset.pages = String(pagesLoaded);
    if (old) URL.revokeObjectURL(old);
    if (onLoad) onLoad();
  };
  frame.src = node !== null && node > 0 ? `${url}#node=${node}` : url;
}

// ---------------------------------------------------------------- actions

async function onRun(event) {
  if (event) event.preventDefault();
  clearEditorError();
  if (running) stop('restarted');
  const clicked = performance.now();
  let spec;
  try {
    spec = await buildSpec();
  } catch (e) {
    showError(e);
    return;
  }
  writeState();
  stepping = false;
  lastSelected = null;
  $('trace').textContent = '';
  setState('running');
  $('stop').disabled = false;
  delete document.body.dataset.runms;
  delete document.body.dataset.drawnms;
  const id = send({ type: 'run', spec, live: LIVE_NODES, every: LIVE_EVERY_MS, full: TREE_LIMIT }, (m) => {
    if (!running || running.id !== id) return true;
    if (m.type === 'progress') showProgress(m.progress);
    else if (m.type === 'page') { if (!treeLoading) showTree(m.html, null, null, true); } else if (m.type === 'done') {
      running = null;
      showProgress(m.progress);
      setState('done');
      $('stop').disabled = true;
      document.body.dataset.runms = (performance.now() - clicked).toFixed(0);
      showTree(m.html, null, () => { document.body.dataset.drawnms = (performance.now() - clicked).toFixed(0); });
      return true;
    } else if (m.type === 'error') {
      running = null;
      $('stop').disabled = true;
      showError(m.error);
      return true;
    }
    return false;
  });
  running = { id, started: clicked };
}

/** Ends the running search: its worker goes, what was drawn and counted stays. */
function stop(why = 'stopped') {
  if (!running) return;
  running = null;
  restartWorker();
  stepping = false;
  $('stop').disabled = true;
  setState(why);
  if (why === 'stopped') $('answer').textContent = 'stopped';
}

async function onStep(reset) {
  clearEditorError();
  if (running) stop();
  let spec;
  try {
    spec = await buildSpec();
  } catch (e) {
    showError(e);
    return;
  }
  if (reset || !stepping) $('trace').textContent = '';
  try {
    const answer = await ask({ type: 'step', spec, reset: reset || !stepping, draw: LIVE_NODES });
    stepping = true;
    const trace = $('trace');
    // The step's trace lines (a step runs to the next line); the search's end is named.
    const step = answer.event || {};
    const text = step.line || (step.event ? `(${step.event})` : '');
    if (text) {
      trace.textContent += `${text}\n`;
      trace.scrollTop = trace.scrollHeight;
    }
    showProgress(answer.progress);
    setState(answer.progress.state === 'done' ? 'done' : 'stepping');
    showTree(answer.html, Math.max(0, (answer.progress.tree_nodes ?? answer.progress.nodes) - 1));
  } catch (e) {
    showError(e);
  }
}

/** Replays the shown tree with its own player, from the root. */
function onReplay() {
  const frame = $('tree');
  const doc = frame.contentDocument;
  if (!doc || !doc.getElementById('play')) return;
  doc.dispatchEvent(new frame.contentWindow.KeyboardEvent('keydown', { key: 'Home' }));
  doc.getElementById('play').click();
}

async function onCompare() {
  clearEditorError();
  if (running) stop();
  let specA;
  let specB;
  try {
    specA = await buildSpec();
    specB = await buildSpec('b-');
  } catch (e) {
    showError(e);
    return;
  }
  writeState();
  setState('comparing');
  try {
    const answer = await ask({ type: 'compare', specA, specB });
    setState('compared');
    showTree(answer.html, 0);
  } catch (e) {
    showError(e);
  }
}

async function onExplain(what) {
  clearEditorError();
  const out = $('explain-text');
  out.textContent = '…';
  try {
    const answer = await ask({ type: 'explain', spec: await buildSpec(), what });
    out.textContent = answer.text;
  } catch (e) {
    out.textContent = '';
    showError(e);
  }
}

// ---------------------------------------------------------------- start

async function main() {
  buildSudokuGrid();
  setSudoku(SAMPLE_SUDOKU);
  $('sudoku-line').value = SAMPLE_SUDOKU;
  $('mzn-source').value = SAMPLE_MINIZINC;
  $('fzn-source').value = SAMPLE_FLATZINC;
  watchEditor('mzn-source', 'mzn-lines');
  watchEditor('fzn-source', 'fzn-lines');

  $('model-kind').addEventListener('change', showModelPanel);
  $('solutions-mode').addEventListener('change', () => { $('solutions-n').hidden = $('solutions-mode').value !== 'n'; });
  $('sudoku-load').addEventListener('click', () => {
    const problem = setSudoku($('sudoku-line').value);
    if (problem) showError({ error: problem, what: 'model' }); else clearEditorError();
  });
  $('sudoku-clear').addEventListener('click', () => setSudoku('.'.repeat(81)));
  $('setup').addEventListener('submit', onRun);
  $('stop').addEventListener('click', () => stop('stopped'));
  $('step').addEventListener('click', () => onStep(false));
  $('step-reset').addEventListener('click', () => onStep(true));
  $('replay').addEventListener('click', onReplay);
  $('compare').addEventListener('click', onCompare);
  for (const what of ['explain', 'hint', 'why']) $(what).addEventListener('click', () => onExplain(what));
  $('share-link').addEventListener('click', (e) => {
    e.preventDefault();
    writeState();
    if (navigator.clipboard) navigator.clipboard.writeText(location.href).catch(() => {});
  });

  startWorker();
  try {
    info = await ask({ type: 'info' });
  } catch (e) {
    showRunError(`The engine did not start: ${e.error || e}`);
    return;
  }
  const m = info.models;
  for (const [name, key] of [['propagation', 'propagation'], ['var-order', 'var_order'], ['value-order', 'value_order'], ['branching', 'branching']]) {
    fillSelect($(name), m[key] || [], true);
    fillSelect($(`b-${name}`), m[key] || [], true);
  }
  fillSelect($('colouring-map'), m.maps || ['australia'], false);
  $('engine').textContent = `cspkit ${info.version}, compiled to WebAssembly, runs in this page.`;
  showModelPanel();
  restoreState();
  document.body.dataset.readyms = performance.now().toFixed(0);
  document.body.dataset.ready = '1';
}

main();
