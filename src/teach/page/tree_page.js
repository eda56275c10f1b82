'use strict';
// The search tree page: PANELS (one per search) is written before this script by
// cspkit::teach::html. Each panel holds its nodes as columns of equal length (parent, var,
// value, kind, status, reason, emptied, constraint, changes), indexed by node id; ids are in
// search order, so a child's id is larger than its parent's.
//
// The tree is laid out in CSS pixels at scale 1, each node as wide as its label in the page's
// 18 px font, so that at scale 1 or more no two labels meet. The page opens on a readable
// picture (`readable`): when the whole tree does not fit the canvas at scale 1, the subtrees
// holding failures only are collapsed into counted triangles, then, if that is not enough,
// the largest other subtrees off the path to the first solution, until it fits; a path deeper
// than the canvas has rows for is folded in its middle (a dashed edge stands for the levels
// left out). Labels that would overlap are left out (never drawn over each other), so a view
// zoomed far out shows fewer labels, never a smudge.

const started = performance.now();
const ROW = 44;         // one level down, in CSS pixels at scale 1
const GAP = 10;         // the least room across between two neighbours' labels
const FONT_PX = 18;
const FONT = '18px sans-serif';
const BOLD = 'bold 18px sans-serif';
const TOP = 34;         // the root's distance from the canvas' top edge
const SYMBOL = ['', '=', '≠', '≤', '>'];
const COLOUR = { i: '#4a7fb5', f: '#d62728', s: '#2ca02c', o: '#bbbbbb' };
const multi = PANELS.length > 1;
let active = 0;
let playing = null;
// Compare pages: keys move every panel (or the active one), each panel on its own scale (or
// one scale for all).
let together = true;
let shared = false;

const measurer = document.createElement('canvas').getContext('2d');
measurer.font = FONT;
const widths = new Map();
function textWidth(t) {
  let w = widths.get(t);
  if (w === undefined) { w = measurer.measureText(t).width; widths.set(t, w); }
  return w;
}

function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

// ---- the tree: children, subtree counts, layout -----------------------------------------

function prepare(D, index) {
  const n = D.parent.length;
  const P = { D, index, n, selected: 0, scale: 1, yscale: 1, tx: 0, ty: TOP, diverge: -1 };
  // Children in search order, as ranges of one array (compressed rows).
  const count = new Int32Array(n + 1);
  for (let v = 1; v < n; v++) count[D.parent[v] + 1]++;
  for (let v = 0; v < n; v++) count[v + 1] += count[v];
  const kids = new Int32Array(Math.max(n - 1, 0));
  const fill = count.slice(0, n);
  for (let v = 1; v < n; v++) kids[fill[D.parent[v]]++] = v;
  P.first = count; P.kids = kids;
  P.depth = new Int32Array(n);
  for (let v = 1; v < n; v++) P.depth[v] = P.depth[D.parent[v]] + 1;
  // Per subtree: nodes, failures, solutions, open nodes.
  P.size = new Int32Array(n).fill(1);
  P.fails = new Int32Array(n);
  P.sols = new Int32Array(n);
  P.opens = new Int32Array(n);
  for (let v = n - 1; v >= 0; v--) {
    const s = D.status[v];
    if (s === 'f') P.fails[v]++;
    if (s === 's') P.sols[v]++;
    if (s === 'o') P.opens[v]++;
    if (v > 0) {
      const p = D.parent[v];
      P.size[p] += P.size[v]; P.fails[p] += P.fails[v];
      P.sols[p] += P.sols[v]; P.opens[p] += P.opens[v];
    }
  }
  // The path kept open: to the first solution (the root alone without one).
  P.onPath = new Uint8Array(n);
  P.path = [];
  const target = D.status.indexOf('s');
  for (let u = target; u >= 0; u = D.parent[u]) P.path.push(u);
  if (!P.path.length) P.path.push(0);
  P.path.reverse();
  for (const u of P.path) P.onPath[u] = 1;
  prepareJumps(P);
  P.collapsed = new Uint8Array(n);
  P.bunch = new Uint8Array(n);    // a node whose runs of failed leaves are drawn as one mark each
  P.lead = new Int32Array(n).fill(-1); // a failed leaf in a run drawn as one: the run's first
  P.run = new Int32Array(n);      // at a run's first leaf: the leaves in the run
  P.skip = new Uint8Array(n);     // a path node folded away (its off-path subtrees too)
  P.hidden = new Uint8Array(n);
  P.row = new Int32Array(n);
  P.dpar = new Int32Array(n);     // the parent drawn: the parent, or above a fold
  P.x = new Float64Array(n);
  P.hw = new Float64Array(n);     // half the room a node takes across
  P.thw = new Float64Array(n);    // half the width of a collapsed subtree's triangle
  layout(P);
  return P;
}

// ---- backjumps: the notes at failed nodes ------------------------------------------------
//
// D.notes holds, by failed node id, an object with one field per kind of note on that
// failure: `backjump` (its conflict set, the decision gone back to, the decisions jumped
// over) and `learned` (the nogood learned there and how often it was used), both shown by
// `describeNotes`.

const JUMP = '#7b4fb0';       // a backjump's arc and the conflict set's words
const SKIPPED = '#c4c4c4';    // a decision jumped over
const MAX_ARCS = 300;         // more arcs in the window than this: the selected one alone

function prepareJumps(P) {
  const D = P.D, notes = D.notes || {};
  P.jumps = [];                               // failed nodes whose jump skipped decisions
  P.skippedBy = new Int32Array(P.n).fill(-1); // a decision jumped over: the failed node
  P.noted = 0;
  for (const key of Object.keys(notes)) {
    const v = Number(key), jump = notes[key].backjump;
    if (!jump || v >= P.n) continue;
    P.noted++;
    if (!jump.skipped.length) continue;
    P.jumps.push(v);
    for (const u of jump.skipped) if (u < P.n && P.skippedBy[u] < 0) P.skippedBy[u] = v;
  }
  P.jumps.sort((a, b) => a - b);
}

function conflictText(D, jump) {
  return '{' + jump.conflict.map((x) => D.names[x]).join(', ') + '}';
}

// The sentences of the notes at node v (failed, or a decision jumped over), or ''.
function describeNotes(P, v) {
  const D = P.D, note = (D.notes || {})[v];
  const out = [];
  if (note && note.backjump) {
    const j = note.backjump;
    let text = '↩ conflict set ' + conflictText(D, j);
    if (j.to < 0) text += ': no decision left to go back to, the search is over';
    else text += ': back to ' + label(P, j.to) + ' (node ' + j.to + ')';
    if (j.skipped.length) {
      text += '; ' + j.skipped.map((u) => label(P, u)).join(', ') +
        (j.skipped.length === 1 ? ' was' : ' were') + ' jumped over: had nothing to do with the failure';
    }
    out.push(text);
  }
  if (note && note.learned) out.push(learnedText(note.learned));
  if (P.skippedBy[v] >= 0) {
    out.push('jumped over by the backjump from node ' + P.skippedBy[v] +
      ': had nothing to do with the failure');
  }
  return out.join('\n');
}

// A learned nogood and how often it was used afterwards.
function learnedText(learned) {
  const times = (n, what) => n + ' ' + what + (n === 1 ? '' : 's');
  return learned.text + ' (afterwards it removed ' + times(learned.removals, 'value') +
    ' and failed ' + times(learned.failures, 'node') + ')';
}

// The nogoods used most, under the tree: each a link to the failure it was learned at when
// that node is drawn.
function nogoodList(P, suffix) {
  const D = P.D, list = D.nogoods || [];
  if (!list.length) return null;
  const box = el('details', { class: 'nogoods', id: 'nogoods' + suffix, open: '' });
  box.appendChild(el('summary', {}, 'the ' + list.length + ' learned nogoods used most (of ' +
    D.learnedCount + ' learned): the search they saved'));
  const ol = el('ol');
  for (const item of list) {
    const li = el('li', {}, learnedText(item.nogood) + ' · learned at node ' + item.node);
    if (item.node < P.n) {
      li.classList.add('link');
      li.addEventListener('click', () => { activate(P); select(P, item.node); });
    }
    ol.appendChild(li);
  }
  box.appendChild(ol);
  return box;
}

// Where node v is drawn: itself, or the mark of the run of failed leaves it is in; -1 when
// it is hidden (in a collapsed subtree or a fold).
function shownAs(P, v) {
  const u = P.lead[v] >= 0 ? P.lead[v] : v;
  return P.hidden[u] || P.skip[u] ? -1 : u;
}

// Each backjump in the window as a dashed arc from the failed node back to the decision it
// returned to, bowed to the left of the path; the selected node's bold. Zoomed far out, or
// with more arcs in the window than MAX_ARCS, the selected node's alone.
function drawJumps(P, ctx, inView, r) {
  const D = P.D;
  const arcs = [];
  const add = (v) => {
    const j = D.notes[v].backjump;
    const a = shownAs(P, v), b = shownAs(P, j.to < 0 ? 0 : j.to);
    if (a < 0 || b < 0) return;
    arcs.push([v, sx(P, a), sy(P, a), sx(P, b), sy(P, b)]);
  };
  const sel = P.selected;
  const selNote = (D.notes || {})[sel];
  if (r >= 2.5) {
    for (const v of P.jumps) {
      const a = shownAs(P, v);
      if (a >= 0 && inView(sx(P, a), sy(P, a))) add(v);
      if (arcs.length > MAX_ARCS) { arcs.length = 0; break; }
    }
  }
  if (selNote && selNote.backjump && selNote.backjump.skipped.length && !arcs.some((q) => q[0] === sel)) add(sel);
  ctx.setLineDash([6, 4]);
  ctx.strokeStyle = JUMP;
  for (const [v, x1, y1, x2, y2] of arcs) {
    ctx.lineWidth = v === sel ? 3 : 1.5;
    ctx.globalAlpha = v === sel ? 1 : 0.7;
    const bow = Math.max(24, Math.abs(y1 - y2) * 0.35);
    const cx = Math.min(x1, x2) - bow, cy = (y1 + y2) / 2;
    ctx.beginPath(); ctx.moveTo(x1, y1); ctx.quadraticCurveTo(cx, cy, x2, y2); ctx.stroke();
    // An arrowhead at the decision gone back to.
    const ang = Math.atan2(y2 - cy, x2 - cx), hl = v === sel ? 11 : 8, tip = Math.max(r, 5) + 2;
    const tx = x2 - Math.cos(ang) * tip, ty = y2 - Math.sin(ang) * tip;
    ctx.setLineDash([]);
    ctx.beginPath();
    ctx.moveTo(tx, ty);
    ctx.lineTo(tx - hl * Math.cos(ang - 0.45), ty - hl * Math.sin(ang - 0.45));
    ctx.moveTo(tx, ty);
    ctx.lineTo(tx - hl * Math.cos(ang + 0.45), ty - hl * Math.sin(ang + 0.45));
    ctx.stroke();
    ctx.setLineDash([6, 4]);
  }
  ctx.setLineDash([]);
  ctx.globalAlpha = 1;
  return arcs.length;
}

// What the canvas' tooltip says over node v.
function tooltip(P, v) {
  if (v < 0) return '';
  if (P.skippedBy[v] >= 0) {
    return label(P, v) + ': jumped over by the backjump from node ' + P.skippedBy[v] +
      ' — had nothing to do with the failure';
  }
  const note = (P.D.notes || {})[v];
  if (note && note.backjump) return label(P, v) + ': conflict set ' + conflictText(P.D, note.backjump);
  if (note && note.learned) return label(P, v) + ': ' + note.learned.text;
  return '';
}

function children(P, v) { return P.kids.subarray(P.first[v], P.first[v + 1]); }

// A value of variable x as the model names it (a MiniZinc enum's `blue`), or the number.
function valueText(D, x, value) {
  const e = D.valueNames ? D.valueNames[x] : null;
  if (e == null) return String(value);
  const [first, names] = D.enums[e];
  const name = names[value - first];
  return name === undefined ? String(value) : name;
}

function label(P, v) {
  const D = P.D;
  if (v === 0) return 'root';
  if (P.run[v] > 1) return D.names[D.var[v]] + ': ' + P.run[v] + '✗';
  return D.names[D.var[v]] + ' ' + SYMBOL[D.kind[v]] + ' ' + valueText(D, D.var[v], D.value[v]);
}

// The label drawn on the tree: under a row named at the left (every branch of the row on one
// variable), the value alone (`3`, or `≠ 3` for other kinds than `=`).
function shortLabel(P, v) {
  if (v === 0) return 'root';
  const D = P.D;
  if (P.rowVar[P.row[v]] !== D.var[v]) return label(P, v);
  if (P.run[v] > 1) return P.run[v] + '✗';
  const value = valueText(D, D.var[v], D.value[v]);
  return D.kind[v] === 1 ? value : SYMBOL[D.kind[v]] + ' ' + value;
}

// Finds the runs (two or more) of consecutive failed leaves under each node of `bunch`: each
// is drawn as one mark, at its first leaf, that says how many failed (`4✗`).
function findRuns(P) {
  const D = P.D, lead = P.lead, run = P.run;
  lead.fill(-1); run.fill(0);
  for (let p = 0; p < P.n; p++) {
    if (!P.bunch[p]) continue;
    const a = P.first[p], b = P.first[p + 1];
    for (let i = a; i < b;) {
      let j = i;
      while (j < b && P.size[P.kids[j]] === 1 && D.status[P.kids[j]] === 'f') j++;
      if (j - i >= 2) {
        const first = P.kids[i];
        run[first] = j - i;
        for (let k = i; k < j; k++) lead[P.kids[k]] = first;
      }
      i = Math.max(j, i + 1);
    }
  }
}

// What a collapsed subtree's triangle says, as Gist counts: the nodes it hides, and its
// solutions when it has some.
function countText(P, v) {
  return String(P.size[v] - 1) + (P.sols[v] ? ' (' + P.sols[v] + '✓)' : '');
}

function isDead(P, v) { return P.size[v] > 1 && P.sols[v] === 0 && P.opens[v] === 0; }

// A compact layout, in CSS pixels at scale 1: each subtree keeps the contours of its left and
// right sides, level by level (each node as wide as its label), and each child is put as far
// left as its contour allows against the siblings before it; a parent sits midway over its
// first and last child. A collapsed subtree is a triangle one level deep.
function layout(P) {
  const n = P.n, D = P.D;
  const hidden = P.hidden, skip = P.skip, dpar = P.dpar, row = P.row, collapsed = P.collapsed;
  findRuns(P);
  const lead = P.lead;
  const visible = [0];
  dpar[0] = -1; row[0] = 0; hidden[0] = 0;
  let maxRow = 0;
  for (let v = 1; v < n; v++) {
    const p = D.parent[v];
    hidden[v] = hidden[p] || collapsed[p] || (skip[p] && !P.onPath[v]) ||
      (lead[v] >= 0 && lead[v] !== v) ? 1 : 0;
    if (hidden[v]) continue;
    dpar[v] = skip[p] ? dpar[p] : p;
    row[v] = row[dpar[v]] + 1;
    if (skip[v]) continue;
    visible.push(v);
    if (row[v] > maxRow) maxRow = row[v];
  }
  // Each row names the variable of most of its branches (two or more, or all) once, at the
  // left; the other branches of the row (below a fold, or under another variable order) keep
  // full labels.
  const rowVar = new Int32Array(maxRow + 2).fill(-1);
  const tally = new Map();
  for (let i = 1; i < visible.length; i++) {
    const v = visible[i], key = row[v] * D.names.length + D.var[v];
    const c = (tally.get(key) || 0) + 1;
    tally.set(key, c);
  }
  const most = new Int32Array(maxRow + 2);
  for (const [key, c] of tally) {
    const r = Math.floor(key / D.names.length);
    if (c > most[r]) { most[r] = c; rowVar[r] = key - r * D.names.length; }
  }
  // A row of one branch per variable is named by none (full labels throughout).
  const kinds = new Int32Array(maxRow + 2);
  for (const key of tally.keys()) kinds[Math.floor(key / D.names.length)]++;
  for (let r = 0; r < rowVar.length; r++) if (most[r] < 2 && kinds[r] > 1) rowVar[r] = -1;
  P.rowVar = rowVar;
  P.namesW = 0;
  for (let r = 1; r < rowVar.length; r++) {
    if (rowVar[r] >= 0) P.namesW = Math.max(P.namesW, textWidth(D.names[rowVar[r]]) + 16);
  }
  const hw = P.hw, thw = P.thw;
  for (const v of visible) {
    hw[v] = Math.max(9, textWidth(shortLabel(P, v)) / 2 + GAP / 2);
    // The count sits inside the triangle, low: the triangle is wide enough around it.
    thw[v] = collapsed[v] && P.size[v] > 1
      ? Math.max(hw[v], textWidth(countText(P, v)) * 0.95 + 8) : 0;
  }
  // The children drawn, as ranges of one array.
  const first = new Int32Array(n + 1);
  for (let i = 1; i < visible.length; i++) first[dpar[visible[i]] + 1]++;
  for (let v = 0; v < n; v++) first[v + 1] += first[v];
  const kids = new Int32Array(Math.max(visible.length - 1, 0));
  const fill = first.slice(0, n);
  for (let i = 1; i < visible.length; i++) { const v = visible[i]; kids[fill[dpar[v]]++] = v; }
  const left = new Array(n), right = new Array(n);
  const rel = new Float64Array(n);
  for (let i = visible.length - 1; i >= 0; i--) {
    const v = visible[i];
    const a = first[v], b = first[v + 1];
    if (a === b || collapsed[v]) {
      const t = thw[v];
      left[v] = t ? [-hw[v], -t] : [-hw[v]];
      right[v] = t ? [hw[v], t] : [hw[v]];
      continue;
    }
    const k0 = kids[a];
    const accL = left[k0], accR = right[k0];
    const off = [0];
    for (let j = a + 1; j < b; j++) {
      const k = kids[j];
      const cl = left[k], cr = right[k];
      let shift = -Infinity;
      const m = Math.min(accR.length, cl.length);
      for (let d = 0; d < m; d++) shift = Math.max(shift, accR[d] - cl[d]);
      off.push(shift);
      for (let d = 0; d < cr.length; d++) {
        if (d < accR.length) accR[d] = cr[d] + shift; else accR.push(cr[d] + shift);
      }
      for (let d = accL.length; d < cl.length; d++) accL.push(cl[d] + shift);
      left[k] = right[k] = null;
    }
    const mid = (off[0] + off[off.length - 1]) / 2;
    for (let j = a; j < b; j++) rel[kids[j]] = off[j - a] - mid;
    left[v] = [-hw[v]].concat(accL.map((x) => x - mid));
    right[v] = [hw[v]].concat(accR.map((x) => x - mid));
    left[k0] = right[k0] = null;
  }
  P.x[0] = 0;
  P.minX = -hw[0]; P.maxX = hw[0];
  P.maxRow = 0;
  for (let i = 1; i < visible.length; i++) {
    const v = visible[i];
    P.x[v] = P.x[dpar[v]] + rel[v];
  }
  for (const v of visible) {
    const e = Math.max(hw[v], thw[v]);
    P.minX = Math.min(P.minX, P.x[v] - e);
    P.maxX = Math.max(P.maxX, P.x[v] + e);
    P.maxRow = Math.max(P.maxRow, row[v] + (thw[v] ? 1 : 0));
  }
  P.visible = visible;
  P.dfirst = first; P.dkids = kids;
  let folded = 0;
  for (let v = 0; v < n; v++) if (skip[v]) folded++;
  P.folded = folded;
}

// Collapses each largest subtree off the kept path that holds failures only (when `dead`) or
// has more than `limit` nodes.
function collapseBeyond(P, limit, dead) {
  const D = P.D, c = P.collapsed;
  const under = new Uint8Array(P.n);
  c.fill(0);
  for (let v = 1; v < P.n; v++) {
    const p = D.parent[v];
    under[v] = under[p] || c[p];
    if (under[v] || P.onPath[v] || P.size[v] <= 1) continue;
    if ((dead && isDead(P, v)) || P.size[v] > limit) c[v] = 1;
  }
}

// Folds the middle of the kept path when it is deeper than the canvas has rows for.
function foldPath(P, rows) {
  P.skip.fill(0);
  const L = P.path.length - 1;
  if (L + 1 <= rows || rows < 3) return;
  const below = Math.floor((rows - 1) / 2), above = rows - 1 - below;
  for (let d = above + 1; d <= L - below; d++) P.skip[P.path[d]] = 1;
}

// Whether the panel's tree fits its canvas at scale 1, every label drawn.
function fitsReadable(P) {
  const { w, h } = sizeCanvas(P.ui.canvas);
  return P.maxX - P.minX <= w - 16 - P.namesW && P.maxRow * ROW <= h - TOP - 12;
}

// The picture the page opens on: the whole tree if it fits with its labels; else failed
// subtrees collapsed; else the largest subtrees off the path to the first solution collapsed
// too, as few as it takes (the largest limit that fits, found by bisection).
function readable(P) {
  const { h } = sizeCanvas(P.ui.canvas);
  foldPath(P, Math.floor((h - TOP - 12) / ROW));
  P.bunch.fill(0);
  const attempt = (limit, dead) => { collapseBeyond(P, limit, dead); layout(P); return fitsReadable(P); };
  // A tree with more leaves than the canvas has room for side by side cannot fit whole: its
  // layout is not tried (the costly one on a large tree).
  const { w } = sizeCanvas(P.ui.canvas);
  let leaves = 0;
  for (let v = 0; v < P.n; v++) if (P.first[v] === P.first[v + 1]) leaves++;
  if (leaves * 18 <= w && attempt(Infinity, false)) return;
  if (attempt(Infinity, true)) return;
  // Then runs of failed sibling leaves drawn as one counted mark each.
  P.bunch.fill(1);
  if (attempt(Infinity, true)) return;
  const sizes = [];
  for (let v = 1; v < P.n; v++) if (!P.onPath[v] && P.size[v] > 1) sizes.push(P.size[v]);
  const limits = [1].concat(Array.from(new Set(sizes)).sort((a, b) => a - b));
  // The largest limit that fits; below it, more is collapsed.
  let lo = 0, hi = limits.length - 1, best = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (attempt(limits[mid], true)) { best = mid; lo = mid + 1; } else hi = mid - 1;
  }
  attempt(limits[best], true);
}

// ---- domains at a node ------------------------------------------------------------------

function domainsAt(P, v) {
  const D = P.D;
  const path = [];
  for (let u = v; u >= 0; u = D.parent[u]) path.push(u);
  const doms = D.initial.map((i) => D.domains[i]);
  for (let i = path.length - 1; i >= 0; i--) {
    const u = path[i];
    const c = D.changes[u];
    for (let j = 0; j < c.length; j += 2) doms[c[j]] = D.domains[c[j + 1]];
    if (!D.recorded && D.kind[u] === 1) {
      doms[D.var[u]] = { t: valueText(D, D.var[u], D.value[u]), v: [D.value[u]] };
    }
  }
  return doms;
}

// What the selected node shows on the board: values removed since the parent, and at a
// failure the variable emptied, the failing constraint's scope and the variables that clash.
function marks(P, v, doms) {
  const D = P.D;
  const before = v > 0 ? domainsAt(P, D.parent[v]) : D.initial.map((i) => D.domains[i]);
  const removed = doms.map((d, i) => {
    const b = before[i];
    if (!b.v || !d.v) return [];
    return b.v.filter((x) => !d.v.includes(x));
  });
  const scope = new Set(), clash = new Set();
  const emptied = D.emptied[v];
  const c = D.constraint[v];
  // A scope as wide as the model (N-Queens' diagonals) would mark everything: left out.
  if (c >= 0 && D.scopes[c] && D.scopes[c].length < D.names.length) {
    for (const x of D.scopes[c]) scope.add(x);
  }
  for (const x of D.clash[v] || []) clash.add(x);
  return { removed, scope, clash, emptied, before };
}

// ---- the side panel: label, status, board, domains ----------------------------------------

function cellClass(m, x) {
  return (m.emptied === x ? ' emptied' : '') + (m.clash.has(x) ? ' clash' : '') +
    (m.scope.has(x) ? ' scope' : '');
}

function drawBoard(P, box, doms, m) {
  box.textContent = '';
  const b = P.D.board;
  if (b.kind === 'grid') {
    const side = Math.round(Math.sqrt(b.columns));
    const t = el('table', { class: 'board' + (side * side === b.columns && side === 3 ? ' thick' : '') });
    for (let r = 0; r * b.columns < b.cells.length; r++) {
      const tr = el('tr');
      for (let c = 0; c < b.columns; c++) {
        const x = b.cells[r * b.columns + c];
        const d = doms[x];
        const fixed = d.v && d.v.length === 1;
        const wasFixed = m.before[x].v && m.before[x].v.length === 1;
        const td = el('td', { class: (fixed ? 'value' : 'candidates') +
          (fixed && !wasFixed ? ' placed' : '') + cellClass(m, x), 'data-var': x });
        if (fixed) td.textContent = String(d.v[0]);
        else if (d.v) {
          const shown = d.v.concat(m.removed[x]).sort((p, q) => p - q);
          shown.forEach((value, i) => {
            if (i) td.appendChild(document.createTextNode(' '));
            const gone = m.removed[x].includes(value);
            td.appendChild(el('span', gone ? { class: 'removed' } : {}, String(value)));
          });
        } else td.textContent = d.t;
        tr.appendChild(td);
      }
      t.appendChild(tr);
    }
    box.appendChild(t);
  } else if (b.kind === 'arrays') {
    const shown = (x, d) => d.v && d.v.length === 1 ? valueText(P.D, x, d.v[0])
      : d.v ? d.v.map((value) => valueText(P.D, x, value)).join(' ') : d.t;
    // The plain (scalar) variables together: one table, a row each (name, value or domain).
    const plain = b.arrays.filter((a) => a.cells.length === 1);
    if (plain.length) {
      const t = el('table', { class: 'board plain' });
      for (const a of plain) {
        const x = a.cells[0];
        const tr = el('tr');
        tr.appendChild(el('th', {}, a.name));
        if (x < 0) {
          const k = a.constants[0];
          tr.appendChild(el('td', { class: 'value given' }, k == null ? '·' : String(k)));
        } else {
          const d = doms[x];
          const fixed = d.v && d.v.length === 1;
          tr.appendChild(el('td', { class: (fixed ? 'value' : 'candidates') + cellClass(m, x),
            'data-var': x, title: P.D.names[x] }, shown(x, d)));
        }
        t.appendChild(tr);
      }
      box.appendChild(t);
    }
    // An array indexed by an enum: a row of its index names above the cells.
    const indexOf = (a, x) => {
      const name = P.D.names[x];
      const open = a.name + '[';
      return name.startsWith(open) && name.endsWith(']') ? name.slice(open.length, -1) : null;
    };
    for (const a of b.arrays.filter((a) => a.cells.length > 1)) {
      box.appendChild(el('p', { class: 'array-name' }, a.name));
      const t = el('table', { class: 'board' });
      for (let r = 0; r * a.columns < a.cells.length; r++) {
        const tr = el('tr');
        for (let c = 0; c < a.columns && r * a.columns + c < a.cells.length; c++) {
          const x = a.cells[r * a.columns + c];
          if (x < 0) {
            const k = a.constants[r * a.columns + c];
            tr.appendChild(el('td', { class: 'value given' }, k == null ? '·' : String(k)));
            continue;
          }
          const d = doms[x];
          const fixed = d.v && d.v.length === 1;
          const td = el('td', { class: (fixed ? 'value' : 'candidates') + cellClass(m, x),
            'data-var': x, title: P.D.names[x] }, shown(x, d));
          tr.appendChild(td);
        }
        t.appendChild(tr);
      }
      if (a.cells.length === a.columns) {
        const heads = a.cells.map((x) => (x < 0 ? null : indexOf(a, x)));
        if (heads.every((h) => h !== null) && heads.some((h) => !/^-?[0-9]+$/.test(h))) {
          const tr = el('tr', { class: 'index' });
          for (const h of heads) tr.appendChild(el('th', {}, h));
          t.insertBefore(tr, t.firstChild);
        }
      }
      box.appendChild(t);
    }
  } else if (b.kind === 'queens') {
    const n = b.rows.length;
    const t = el('table', { class: 'board' });
    for (let r = 0; r < n; r++) {
      const x = b.rows[r];
      const d = doms[x];
      const tr = el('tr');
      for (let c = 0; c < n; c++) {
        const value = b.first + c;
        const has = d.v ? d.v.includes(value) : true;
        const fixed = d.v && d.v.length === 1 && has;
        const gone = m.removed[x].includes(value);
        // A clash marks the queen, an emptied row the whole row.
        const mark = (m.emptied === x ? ' emptied' : '') + (fixed && m.clash.has(x) ? ' clash' : '');
        const cls = ((r + c) % 2 ? 'dark ' : '') +
          (fixed ? 'queen' : has ? 'maybe' : gone ? 'removed' : '') + mark;
        tr.appendChild(el('td', { class: cls, 'data-var': x },
          fixed ? '♛' : has ? '·' : gone ? '×' : ''));
      }
      t.appendChild(tr);
    }
    box.appendChild(t);
  }
}

function drawDomains(P, table, doms, m) {
  table.textContent = '';
  P.D.names.forEach((name, i) => {
    const tr = el('tr', { class: (m.removed[i].length ? 'changed' : '') + cellClass(m, i),
      'data-var': i });
    tr.appendChild(el('td', {}, name));
    const td = el('td', { class: 'domain' }, doms[i].t);
    if (m.removed[i].length) {
      td.appendChild(document.createTextNode(' '));
      // Each value a click away from why it was removed (page/why_removed.js).
      const gone = el('span', { class: 'removed' });
      m.removed[i].forEach((value, k) => {
        if (k) gone.appendChild(document.createTextNode(' '));
        gone.appendChild(el('span', { class: 'why', 'data-var': i, 'data-value': value,
          title: 'why was it removed? (click)' }, valueText(P.D, i, value)));
      });
      td.appendChild(gone);
    }
    tr.appendChild(td);
    table.appendChild(tr);
  });
}

function describe(P) {
  const D = P.D, v = P.selected;
  P.ui.label.textContent = 'node ' + v + ': ' + label(P, v);
  const s = D.status[v];
  const status = P.ui.status;
  status.className = 'status ' + (s === 'f' ? 'failed' : s === 's' ? 'solution' : 'other') + '-text';
  const counts = P.size[v] > 1
    ? ' · subtree: ' + P.size[v] + ' nodes, ' + P.fails[v] + ' failed, ' + P.sols[v] + ' solutions'
    : '';
  status.textContent = (s === 'f' ? 'failed: ' + D.reasons[D.reason[v]]
    : s === 's' ? 'solution' : s === 'o' ? 'open' : 'branched') + counts;
  P.ui.notes.textContent = describeNotes(P, v);
  const doms = domainsAt(P, v);
  const m = marks(P, v, doms);
  drawBoard(P, P.ui.board, doms, m);
  drawDomains(P, P.ui.domains, doms, m);
}

// ---- drawing -----------------------------------------------------------------------------

function sizeCanvas(canvas) {
  const r = canvas.getBoundingClientRect();
  const ratio = window.devicePixelRatio || 1;
  const w = Math.max(1, Math.round(r.width)), h = Math.max(1, Math.round(r.height));
  if (canvas.width !== w * ratio || canvas.height !== h * ratio) {
    canvas.width = w * ratio; canvas.height = h * ratio;
  }
  const ctx = canvas.getContext('2d');
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  return { ctx, w, h };
}

function sx(P, v) { return P.tx + P.x[v] * P.scale; }
function sy(P, v) { return P.ty + P.row[v] * ROW * P.yscale; }
function radius(P) { return Math.max(1.5, Math.min(7, 7 * P.scale)); }

function draw(P) {
  const { ctx, w, h } = sizeCanvas(P.ui.canvas);
  P.w = w; P.h = h;
  ctx.clearRect(0, 0, w, h);
  const D = P.D;
  const r = radius(P);
  const pitch = ROW * P.yscale;
  const pad = 40;
  const inView = (x, y) => x > -pad && x < w + pad && y > -pad && y < h + pad;
  // Edges, in one path; an edge over a fold dashed.
  ctx.strokeStyle = '#999';
  ctx.lineWidth = P.scale > 0.5 ? 1.5 : 1;
  const folds = [];
  ctx.beginPath();
  for (const v of P.visible) {
    if (v === 0) continue;
    const p = P.dpar[v];
    const x1 = sx(P, p), y1 = sy(P, p), x2 = sx(P, v), y2 = sy(P, v);
    if (!inView(x1, y1) && !inView(x2, y2)) continue;
    if (p !== D.parent[v]) { folds.push([x1, y1, x2, y2]); continue; }
    ctx.moveTo(x1, y1); ctx.lineTo(x2, y2);
  }
  ctx.stroke();
  if (folds.length) {
    ctx.setLineDash([5, 5]); ctx.lineWidth = 3; ctx.strokeStyle = '#555';
    ctx.beginPath();
    for (const [x1, y1, x2, y2] of folds) { ctx.moveTo(x1, y1); ctx.lineTo(x2, y2); }
    ctx.stroke(); ctx.setLineDash([]);
  }
  // Collapsed subtrees as triangles, their counts inside.
  ctx.font = FONT;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'alphabetic';
  const boxes = [], counted = [];
  const canLabel = pitch >= FONT_PX + 2 * r + 8;
  for (const v of P.visible) {
    if (!P.thw[v]) continue;
    const x = sx(P, v), y = sy(P, v), half = P.thw[v] * P.scale, base = y + pitch - 3;
    if (!inView(x, y)) continue;
    ctx.beginPath();
    ctx.moveTo(x, y + r); ctx.lineTo(x + half, base); ctx.lineTo(x - half, base); ctx.closePath();
    ctx.fillStyle = P.sols[v] ? '#cfe8cf' : P.opens[v] ? '#e4e4e4' : '#f3d0d0';
    ctx.fill(); ctx.lineWidth = 1; ctx.strokeStyle = '#888'; ctx.stroke();
    const text = countText(P, v), tw = textWidth(text);
    const top = base - 3 - 14;
    const room = half * (top - y - r) / (base - y - r);
    if (canLabel && room >= tw / 2 + 1) {
      ctx.fillStyle = '#222'; ctx.fillText(text, x, base - 3);
      const b = [x - tw / 2, base - 3 - FONT_PX - 2, x + tw / 2, base - 1];
      boxes.push(b);
      counted.push(b);
    }
  }
  // Nodes, one path per status.
  let drawn = 0;
  const jumped = P.jumps.length > 0;
  let greyed = 0;
  for (const s of 'iofsg') {
    ctx.fillStyle = s === 'g' ? SKIPPED : COLOUR[s];
    ctx.beginPath();
    for (const v of P.visible) {
      // 'g': the decisions jumped over by a backjump, in grey whatever their status.
      if (s === 'g' ? !jumped || P.skippedBy[v] < 0 : D.status[v] !== s || (jumped && P.skippedBy[v] >= 0)) continue;
      const x = sx(P, v), y = sy(P, v);
      if (!inView(x, y)) continue;
      drawn++;
      if (s === 'g') { greyed++; ctx.moveTo(x + r, y); ctx.arc(x, y, r, 0, 2 * Math.PI); continue; }
      if (r < 2.5) { ctx.rect(x - r, y - r, 2 * r, 2 * r); continue; }
      if (s === 'f' && P.run[v] > 1) { ctx.rect(x - r * 1.6, y - r, r * 1.2, 2 * r); ctx.rect(x + r * 0.4, y - r, r * 1.2, 2 * r); }
      else if (s === 'f') ctx.rect(x - r, y - r, 2 * r, 2 * r);
      else if (s === 's') { ctx.moveTo(x, y - r * 1.3); ctx.lineTo(x + r * 1.3, y); ctx.lineTo(x, y + r * 1.3); ctx.lineTo(x - r * 1.3, y); ctx.closePath(); }
      else { ctx.moveTo(x + r, y); ctx.arc(x, y, r, 0, 2 * Math.PI); }
    }
    ctx.fill();
    if (s === 'g' && greyed && r >= 2.5) {
      ctx.lineWidth = 1.5; ctx.strokeStyle = '#777'; ctx.setLineDash([3, 2]); ctx.stroke(); ctx.setLineDash([]);
    }
  }
  P.greyed = greyed;
  P.arcs = jumped ? drawJumps(P, ctx, inView, r) : 0;
  // Labels above their nodes, each in a box of its own: a label that would overlap one already
  // placed in its row is left out. The rows' names first, then the selected node's full
  // label, then the others in search order (left to right within a row).
  const lastRight = new Float64Array(P.maxRow + 2).fill(-Infinity);
  const box = (x, y, tw) => [x - tw / 2 - 1, y - r - 5 - FONT_PX - 2, x + tw / 2 + 1, y - r - 4];
  let labelled = 0;
  const sel = P.selected;
  let selBox = null;
  if (canLabel) {
    ctx.textAlign = 'left';
    ctx.textBaseline = 'bottom';
    for (let d = 1; d < P.rowVar.length; d++) {
      if (P.rowVar[d] < 0) continue;
      const y = P.ty + d * pitch;
      if (y < 0 || y > h + 20) continue;
      const text = D.names[P.rowVar[d]], tw = textWidth(text);
      halo(ctx, text, 6, y - r - 5, '#1f5f99');
      boxes.push([6, y - r - 5 - FONT_PX - 2, 6 + tw, y - r - 4]);
      lastRight[d] = 6 + tw;
    }
    ctx.textAlign = 'center';
    const selShown = !P.hidden[sel] && !P.skip[sel];
    if (selShown && inView(sx(P, sel), sy(P, sel))) {
      ctx.font = BOLD;
      const text = label(P, sel), tw = ctx.measureText(text).width;
      const b = box(sx(P, sel), sy(P, sel), tw);
      if (b[0] > lastRight[P.row[sel]] + 2) {
        selBox = b;
        ctx.fillStyle = 'rgba(255,255,255,0.9)';
        ctx.fillRect(b[0] - 3, b[1], b[2] - b[0] + 6, b[3] - b[1]);
        ctx.fillStyle = '#1f5f99'; ctx.fillText(text, sx(P, sel), sy(P, sel) - r - 5);
        boxes.push(b); labelled++;
      }
      ctx.font = FONT;
    }
    for (const v of P.visible) {
      if (v === sel && selBox) continue;
      const x = sx(P, v), y = sy(P, v);
      if (!inView(x, y)) continue;
      const text = shortLabel(P, v), tw = textWidth(text);
      const b = box(x, y, tw);
      const row = P.row[v];
      if (b[0] < lastRight[row] + 2) continue;
      if (selBox && P.row[sel] === row && b[2] > selBox[0] - 2 && b[0] < selBox[2] + 2) continue;
      // A triangle's count reaches into the label zone of the row below its node.
      if (counted.some((c) => c[0] < b[2] + 2 && b[0] < c[2] + 2 && c[1] < b[3] && b[1] < c[3])) continue;
      halo(ctx, text, x, y - r - 5, '#333');
      boxes.push(b); labelled++;
      lastRight[row] = b[2];
    }
  }
  // The selected node: a ring.
  const x = sx(P, sel), y = sy(P, sel);
  ctx.lineWidth = 4;
  ctx.strokeStyle = '#1f77b4';
  ctx.beginPath(); ctx.arc(x, y, Math.max(r, 5) + 4, 0, 2 * Math.PI); ctx.stroke();
  if (P.diverge >= 0 && !P.hidden[P.diverge] && !P.skip[P.diverge]) {
    ctx.strokeStyle = '#ff7f0e';
    ctx.setLineDash([6, 4]);
    ctx.beginPath(); ctx.arc(sx(P, P.diverge), sy(P, P.diverge), Math.max(r, 5) + 9, 0, 2 * Math.PI); ctx.stroke();
    ctx.setLineDash([]);
  }
  drawOverview(P);
  P.drawn = drawn;
  P.labels = labelled;
  P.boxes = boxes;
  // Nodes on the screen without their label.
  P.unlabelled = drawn - labelled;
  P.ui.fold.textContent = P.folded
    ? 'The dashed edge folds ' + P.folded + (P.folded === 1 ? ' level' : ' levels') +
      ' of the path (e opens ' + (P.folded === 1 ? 'it)' : 'them)') : '';
  report();
}

function halo(ctx, text, x, y, colour) {
  ctx.lineWidth = 4; ctx.strokeStyle = 'rgba(255,255,255,0.9)';
  ctx.strokeText(text, x, y);
  ctx.fillStyle = colour; ctx.fillText(text, x, y);
}

// Pairs of label boxes that overlap (0 by construction; measured for the tests).
function overlaps(boxes) {
  const b = boxes.slice().sort((p, q) => p[0] - q[0]);
  let count = 0;
  for (let i = 0; i < b.length; i++) {
    for (let j = i + 1; j < b.length && b[j][0] < b[i][2]; j++) {
      if (b[j][1] < b[i][3] && b[i][1] < b[j][3]) count++;
    }
  }
  return count;
}

// The pixel tree of the whole search: search order across, depth down.
function drawOverview(P) {
  const { ctx, w, h } = sizeCanvas(P.ui.overview);
  const O = P.D.overview;
  ctx.clearRect(0, 0, w, h);
  const cols = O.columns.length;
  if (!cols) return;
  let deepest = 1;
  for (const c of O.columns) deepest = Math.max(deepest, c.length);
  const cw = w / Math.max(cols, P.D.total / O.width);
  const rh = h / deepest;
  const recorded = Math.min(w, (P.n / O.width) * cw);
  ctx.fillStyle = '#f2f6fb';
  ctx.fillRect(0, 0, recorded, h);
  const paint = [[1, '#9aa7b5'], [2, '#d62728'], [4, '#2ca02c']];
  for (const [flag, colour] of paint) {
    ctx.fillStyle = colour;
    O.columns.forEach((cells, i) => {
      for (let d = 0; d < cells.length; d++) {
        if ((cells.charCodeAt(d) - 48) & flag) ctx.fillRect(i * cw, d * rh, Math.max(cw, 1), Math.max(rh, 1));
      }
    });
  }
  if (P.n < P.D.total) {
    ctx.strokeStyle = '#555'; ctx.setLineDash([4, 3]);
    ctx.beginPath(); ctx.moveTo(recorded, 0); ctx.lineTo(recorded, h); ctx.stroke();
    ctx.setLineDash([]);
  }
  ctx.fillStyle = '#1f77b4';
  ctx.fillRect((P.selected / O.width) * cw - 1, 0, 2, h);
}

// ---- the view: fit, zoom, pan, scroll into view --------------------------------------------

// The scales that fit the tree to its canvas: across, and down (levels may spread further
// apart than at scale 1, up to a limit, to use the height of a wide tree).
function fitScale(P) {
  const { w, h } = sizeCanvas(P.ui.canvas);
  const width = Math.max(1, P.maxX - P.minX), height = P.maxRow * ROW;
  const across = (w - 16 - P.namesW) / width, down = height ? (h - TOP - 12) / height : 2;
  const scale = Math.min(1.5, across, down);
  return [scale, Math.max(scale, Math.min(down, 1.25))];
}

function place(P, scale, yscale) {
  const { w } = sizeCanvas(P.ui.canvas);
  P.scale = scale;
  P.yscale = yscale;
  const room = w - 16 - P.namesW;
  P.tx = P.namesW + 8 + room / 2 - ((P.minX + P.maxX) / 2) * scale;
  P.ty = TOP;
}

// Fits every panel to its canvas, each on its own scale (or one scale for all, `g`).
function fit(quiet) {
  const fits = panels.map(fitScale);
  const common = [Math.min(...fits.map((f) => f[0])), Math.min(...fits.map((f) => f[1]))];
  panels.forEach((P, i) => {
    const [scale, yscale] = shared ? common : fits[i];
    place(P, scale, yscale);
    if (quiet !== true) draw(P);
  });
}

// After a collapse or an expansion: the panel fitted again (all of them on one scale).
function refit(P) {
  if (shared) { fit(); return; }
  const [scale, yscale] = fitScale(P);
  place(P, scale, yscale);
  draw(P);
}

function zoom(factor, P0, cx, cy) {
  for (const P of targets(P0)) {
    const x = cx === undefined ? (P.w || 0) / 2 : cx, y = cy === undefined ? (P.h || 0) / 2 : cy;
    const scale = Math.max(1e-4, Math.min(8, P.scale * factor));
    const ratio = scale / P.scale;
    P.tx = x - (x - P.tx) * ratio;
    P.ty = y - (y - P.ty) * ratio;
    P.scale = scale;
    P.yscale *= ratio;
    draw(P);
  }
}

function intoView(P) {
  const v = P.selected, m = 16;
  const x = sx(P, v), y = sy(P, v);
  if (x < m || x > P.w - m) P.tx += P.w / 2 - x;
  if (y < m || y > P.h - m - 30) P.ty += P.h / 2 - y;
}

// ---- selection and navigation -----------------------------------------------------------

function select(P, v) {
  if (v < 0 || v >= P.n) return;
  P.selected = v;
  // A node inside a collapsed subtree or a fold opens the way to it; the tree is fitted again.
  let opened = false;
  if (P.lead[v] >= 0) { P.bunch[P.D.parent[v]] = 0; layout(P); opened = true; }
  if (P.skip[v] || P.hidden[v]) {
    for (let u = P.D.parent[v]; u >= 0; u = P.D.parent[u]) {
      if (P.collapsed[u]) { P.collapsed[u] = 0; opened = true; }
    }
    if (P.folded && (P.skip[v] || P.hidden[v])) { P.skip.fill(0); opened = true; }
  }
  if (opened) layout(P);
  describe(P);
  const { w, h } = sizeCanvas(P.ui.canvas);
  P.w = w; P.h = h;
  if (opened) refit(P);
  intoView(P);
  draw(P);
}

function find(P, from, step, status) {
  for (let v = from + step; v >= 0 && v < P.n; v += step) if (P.D.status[v] === status) return v;
  return -1;
}

function sibling(P, step) {
  const v = P.selected;
  if (v === 0) return -1;
  const ks = children(P, P.D.parent[v]);
  const i = ks.indexOf(v) + step;
  return i >= 0 && i < ks.length ? ks[i] : -1;
}

function toggle(P, v) {
  if (P.size[v] <= 1) return;
  P.collapsed[v] ^= 1;
  layout(P);
  refit(P);
}

// Collapses each largest subtree holding failures only (no solution, nothing open).
function collapseFailed(P) {
  P.skip.fill(0);
  for (let v = 0; v < P.n; v++) {
    const dead = isDead(P, v);
    const parentDead = v > 0 && isDead(P, P.D.parent[v]);
    P.collapsed[v] = dead && !parentDead ? 1 : 0;
  }
  for (let u = P.D.parent[P.selected]; u >= 0; u = P.D.parent[u]) {
    if (P.collapsed[u]) P.selected = u;
  }
  layout(P);
  describe(P);
  refit(P);
}

function expandAll(P) {
  P.collapsed.fill(0);
  P.bunch.fill(0);
  P.skip.fill(0);
  layout(P);
  refit(P);
}

// Back to the picture the page opened on.
function reread(P) {
  readable(P);
  let u = P.selected;
  while (u > 0 && (P.hidden[u] || P.skip[u] || P.lead[u] >= 0)) u = P.D.parent[u];
  P.selected = u;
  describe(P);
  refit(P);
}

// The panels a key moves: all of them in step (compare pages, `t` toggles), else the active one.
function targets(P) { return multi && together ? panels : [P]; }

// A key for one panel.
function keyOne(P, k) {
  const v = P.selected;
  switch (k) {
    case 'ArrowRight': select(P, v + 1); return true;
    case 'ArrowLeft': select(P, v - 1); return true;
    case 'ArrowUp': select(P, P.D.parent[v]); return true;
    case 'ArrowDown': { const ks = children(P, v); if (ks.length) select(P, ks[0]); return true; }
    case ']': { const u = sibling(P, 1); if (u >= 0) select(P, u); return true; }
    case '[': { const u = sibling(P, -1); if (u >= 0) select(P, u); return true; }
    case 'f': { const u = find(P, v, 1, 'f'); if (u >= 0) select(P, u); return true; }
    case 'F': { const u = find(P, v, -1, 'f'); if (u >= 0) select(P, u); return true; }
    case 's': { const u = find(P, v, 1, 's'); if (u >= 0) select(P, u); return true; }
    case 'S': { const u = find(P, v, -1, 's'); if (u >= 0) select(P, u); return true; }
    case 'Home': select(P, 0); return true;
    case 'c': toggle(P, v); return true;
    case 'x': collapseFailed(P); return true;
    case 'e': expandAll(P); return true;
    case 'r': reread(P); return true;
    default: return false;
  }
}

function key(P, k) {
  switch (k) {
    case '+': case '=': zoom(1.25, P); return true;
    case '-': zoom(0.8, P); return true;
    case '0': fit(); return true;
    case ' ': play(); return true;
    case 'd': jump(1); return true;
    case 'D': jump(-1); return true;
    case 't': together = !together; settings(); return true;
    case 'g': shared = !shared; settings(); fit(); return true;
    case 'b': document.body.classList.toggle('no-boards'); settings(); fit(); return true;
    default: {
      let used = false;
      for (const Q of targets(P)) used = keyOne(Q, k) || used;
      return used;
    }
  }
}

function play() {
  const button = document.getElementById('play');
  if (playing) {
    clearInterval(playing); playing = null;
    button.textContent = '▶ Play';
  } else {
    const speed = Number(document.getElementById('speed').value);
    playing = setInterval(() => {
      let moved = false;
      for (const P of targets(panels[active])) {
        if (P.selected + 1 < P.n) { select(P, P.selected + 1); moved = true; }
      }
      if (!moved) play();
      report();
    }, 1000 / speed);
    button.textContent = '❚❚ Pause';
  }
  report();
}

// ---- where the trees part -----------------------------------------------------------------

// The nodes of the panels are matched from the roots down by their decisions (the same
// variable, kind and value under matched parents). A divergence is a matched node whose
// children differ between the panels (other decisions, or none in some), or whose status
// differs; it is told by the first child where the panels part. Found in search order; listed
// by the size of the subtrees below it, largest first.
let partings = [];
let parting = -1;

function divergences() {
  partings = [];
  if (!multi) return;
  const decision = (P, v) => P.D.var[v] + ':' + P.D.kind[v] + ':' + P.D.value[v];
  const stack = [panels.map(() => 0)];
  while (stack.length) {
    const ids = stack.pop();
    const kids = panels.map((P, i) => Array.from(children(P, ids[i])));
    const keys = kids.map((ks, i) => ks.map((k) => decision(panels[i], k)));
    const status = panels.map((P, i) => P.D.status[ids[i]]);
    let at = 0;
    const longest = Math.max(...keys.map((k) => k.length));
    while (at < longest && keys.every((k) => k[at] !== undefined && k[at] === keys[0][at])) at++;
    if (at < longest || status.some((s) => s !== status[0])) {
      const nodes = kids.map((ks, i) => (at < ks.length ? ks[at] : ids[i]));
      const size = panels.reduce((a, P, i) => a + P.size[ids[i]], 0);
      partings.push({ ids, nodes, size, order: partings.length });
    }
    // The children all panels share, searched next (in search order).
    const common = [];
    keys[0].forEach((k, j) => {
      const match = keys.map((ks) => ks.indexOf(k));
      if (match.every((m) => m >= 0)) common.push(match.map((m, i) => kids[i][m]));
    });
    for (let j = common.length - 1; j >= 0; j--) stack.push(common[j]);
  }
}

// What panel `i` does where the trees part.
function doesAt(d, i) {
  const P = panels[i], v = d.nodes[i];
  if (v !== d.ids[i]) return label(P, v) + ' (node ' + v + ')';
  const s = P.D.status[v];
  return (s === 'f' ? 'fails' : s === 's' ? 'a solution' : s === 'o' ? 'stops' : 'branches') +
    ' (node ' + v + ')';
}

// The panels' names, by the parts of their titles that differ.
function shortTitles() {
  const parts = panels.map((P) => (P.D.title || 'search ' + (P.index + 1)).split(', '));
  const differ = parts[0].map((_, j) => parts.some((p) => p[j] !== parts[0][j]));
  return parts.map((p, i) => {
    const kept = p.filter((_, j) => differ[j]);
    return kept.length ? kept.join(', ') : 'search ' + (i + 1);
  });
}

function describeParting(d, names) {
  const same = d.ids.every((v) => v === d.ids[0]);
  const where = d.ids[0] === 0 ? 'at the root' : 'after ' + label(panels[0], d.ids[0]) +
    (same ? ' (node ' + d.ids[0] + ')' : ' (nodes ' + d.ids.join(' · ') + ')');
  return where + ': ' + names.map((n, i) => n + ' → ' + doesAt(d, i)).join('; ');
}

function showPartings() {
  const box = document.getElementById('divergences');
  if (!multi) { box.remove(); return; }
  const names = shortTitles();
  const first = el('p', { id: 'divergence-first' });
  if (!partings.length) first.textContent = 'The searches make the same tree.';
  else {
    first.appendChild(el('b', {}, 'The searches first part ' ));
    first.appendChild(document.createTextNode(describeParting(partings[0], names) + '.'));
  }
  box.appendChild(first);
  if (partings.length) {
    const details = el('details');
    details.appendChild(el('summary', {}, partings.length +
      (partings.length > 1 ? ' divergences, largest first (d D: next, previous)' : ' divergence (d: go there)')));
    const list = el('ol', { id: 'divergence-list' });
    const sorted = partings.slice().sort((a, b) => b.size - a.size || a.order - b.order);
    sorted.slice(0, 50).forEach((d, j) => {
      const item = el('li', { 'data-nodes': d.nodes.join(',') },
        describeParting(d, names) + ' — ' + d.size + ' nodes below');
      item.addEventListener('click', () => { parting = j; goTo(d); report(); });
      list.appendChild(item);
    });
    details.appendChild(list);
    box.appendChild(details);
    partings.sorted = sorted;
  }
}

function goTo(d) {
  panels.forEach((P, i) => { P.diverge = d.nodes[i]; select(P, d.nodes[i]); });
}

// `d` and `D`: the next and previous divergence, largest first.
function jump(step) {
  const list = partings.sorted || [];
  if (!list.length) return;
  parting = (parting + step + list.length) % list.length;
  goTo(list[parting]);
}

// ---- state for scripts and tests ----------------------------------------------------------

function settings() {
  const t = document.getElementById('together');
  if (t) t.textContent = together ? 'Keys: all panels' : 'Keys: one panel';
  const g = document.getElementById('shared');
  if (g) g.textContent = shared ? 'Scale: shared' : 'Scale: own';
}

function report() {
  const P = panels[active];
  const b = document.body.dataset;
  b.selected = String(P.selected);
  b.scale = P.scale.toFixed(4);
  b.drawn = String(P.drawn || 0);
  b.visible = String(P.visible.length);
  b.labels = String(P.labels || 0);
  b.unlabelled = String(P.unlabelled || 0);
  b.labelpx = String(FONT_PX);
  b.overlaps = String(overlaps(P.boxes || []));
  b.boxes = (P.boxes || []).slice(0, 3000).map((q) => q.map((x) => x.toFixed(1)).join(',')).join(';');
  b.folded = String(P.folded);
  b.collapsed = String(P.collapsed.reduce((a, c) => a + c, 0));
  b.selx = sx(P, P.selected).toFixed(1);
  b.sely = sy(P, P.selected).toFixed(1);
  b.cw = String(P.w || 0);
  b.ch = String(P.h || 0);
  b.left = (P.tx + P.minX * P.scale).toFixed(1);
  b.right = (P.tx + P.maxX * P.scale).toFixed(1);
  b.top = (P.ty - radius(P) - 5 - FONT_PX - 2).toFixed(1);
  b.bottom = (P.ty + P.maxRow * ROW * P.yscale).toFixed(1);
  b.playing = playing ? 'yes' : 'no';
  b.diverge = String(P.diverge);
  b.divergences = String(partings.length);
  b.together = together ? 'yes' : 'no';
  b.shared = shared ? 'yes' : 'no';
  b.active = String(active);
  b.backjumps = String(P.jumps.length);
  b.jumparcs = String(P.arcs || 0);
  b.greyed = String(P.greyed || 0);
  // Per panel: nodes on the screen without their label, overlapping label boxes, label boxes
  // reaching out of the canvas, runs drawn as one mark, and the scale.
  b.panels = panels.map((Q) => {
    const out = (Q.boxes || []).filter((q) => q[0] < 0 || q[1] < 0 || q[2] > Q.w || q[3] > Q.h).length;
    let runs = 0;
    for (const v of Q.visible) if (Q.run[v] > 1) runs++;
    return [Q.unlabelled || 0, overlaps(Q.boxes || []), out, runs, Q.scale.toFixed(4)].join(',');
  }).join(';');
}

// ---- the page ----------------------------------------------------------------------------

const main = document.getElementById('panels');
if (multi) {
  main.classList.add('multi');
  main.classList.add('panels-' + PANELS.length);
  // The trees get the room of the boards, shown with `b`.
  document.body.classList.add('no-boards');
} else {
  for (const id of ['together', 'shared']) document.getElementById(id).remove();
}
const panels = PANELS.map((D, i) => {
  const P = prepare(D, i);
  const suffix = i ? '-' + i : '';
  const panel = el('section', { class: 'panel', id: 'panel' + suffix });
  const view = el('div', { class: 'view' });
  if (D.title) view.appendChild(el('h2', {}, D.title));
  if (D.stats) view.appendChild(el('p', { class: 'stats' }, D.stats));
  const overview = el('canvas', { class: 'overview', title: 'the whole search: search order across, depth down' });
  const canvas = el('canvas', { class: 'tree', tabindex: '0' });
  const fold = el('p', { class: 'fold' });
  view.appendChild(overview); view.appendChild(canvas); view.appendChild(fold);
  if (P.noted) view.appendChild(legend(suffix));
  const nogoods = nogoodList(P, suffix);
  if (nogoods) view.appendChild(nogoods);
  const aside = el('aside');
  const info = el('div');
  const labelEl = el('p', { class: 'label', id: 'label' + suffix });
  const status = el('p', { class: 'status', id: 'status' + suffix });
  const notes = el('p', { class: 'notes', id: 'notes' + suffix });
  const board = el('div', { id: 'board' + suffix });
  info.appendChild(labelEl); info.appendChild(status); info.appendChild(notes); info.appendChild(board);
  const domains = el('table', { class: 'domains', id: 'domains' + suffix });
  aside.appendChild(info); aside.appendChild(domains);
  panel.appendChild(view); panel.appendChild(aside);
  main.appendChild(panel);
  P.ui = { canvas, overview, label: labelEl, status, notes, board, domains, panel, fold };
  return P;
});

// The legend of a tree searched with backjumping.
function legend(suffix) {
  const p = el('p', { class: 'legend', id: 'legend' + suffix });
  p.appendChild(el('span', { class: 'jump-key' }, '╌╌➜'));
  p.appendChild(document.createTextNode(' backjump: from a failure back to the deepest decision of its ' +
    'conflict set (the decisions the failure rests on) · '));
  p.appendChild(el('span', { class: 'skipped-key' }, '●'));
  p.appendChild(document.createTextNode(' grey: decisions jumped over, untried: they had nothing to do ' +
    'with the failure · select a failure for its conflict set'));
  return p;
}

function activate(P) {
  active = P.index;
  for (const Q of panels) Q.ui.panel.classList.toggle('active', Q === P);
}

function nearest(P, x, y) {
  let best = -1, dist = 24 * 24;
  for (const v of P.visible) {
    const dx = sx(P, v) - x, dy = sy(P, v) - y, d = dx * dx + dy * dy;
    if (d < dist) { best = v; dist = d; }
  }
  return best;
}

for (const P of panels) {
  const c = P.ui.canvas;
  let drag = null;
  c.addEventListener('pointerdown', (e) => {
    activate(P);
    drag = { x: e.clientX, y: e.clientY, tx: P.tx, ty: P.ty, moved: false };
    c.setPointerCapture(e.pointerId);
  });
  c.addEventListener('pointermove', (e) => {
    if (!drag) {
      if (P.noted) {
        const r = c.getBoundingClientRect();
        const v = nearest(P, e.clientX - r.left, e.clientY - r.top);
        const text = tooltip(P, v);
        if (c.title !== text) c.title = text;
      }
      return;
    }
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    if (!drag.moved) return;
    P.tx = drag.tx + dx; P.ty = drag.ty + dy; draw(P);
  });
  c.addEventListener('pointerup', (e) => {
    if (drag && !drag.moved) {
      const r = c.getBoundingClientRect();
      const v = nearest(P, e.clientX - r.left, e.clientY - r.top);
      if (v >= 0) {
        if (P.collapsed[v] && v === P.selected) toggle(P, v);
        select(P, v);
      }
    }
    drag = null;
    report();
  });
  c.addEventListener('dblclick', (e) => {
    const r = c.getBoundingClientRect();
    const v = nearest(P, e.clientX - r.left, e.clientY - r.top);
    if (v >= 0) toggle(P, v);
  });
  c.addEventListener('wheel', (e) => {
    e.preventDefault();
    const r = c.getBoundingClientRect();
    zoom(Math.exp(-e.deltaY * 0.0015), P, e.clientX - r.left, e.clientY - r.top);
  }, { passive: false });
  P.ui.overview.addEventListener('click', (e) => {
    activate(P);
    const r = P.ui.overview.getBoundingClientRect();
    const O = P.D.overview;
    const cw = r.width / Math.max(O.columns.length, P.D.total / O.width);
    const v = Math.floor((e.clientX - r.left) / cw) * O.width;
    select(P, Math.min(v, P.n - 1));
  });
}

document.addEventListener('keydown', (e) => {
  if (e.target && e.target.tagName === 'INPUT') return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (key(panels[active], e.key)) { e.preventDefault(); report(); }
});
const button = (id, k) => {
  const b = document.getElementById(id);
  if (b) b.addEventListener('click', () => { key(panels[active], k); report(); });
};
button('fit', '0'); button('zoom-in', '+'); button('zoom-out', '-'); button('play', ' ');
button('collapse-failed', 'x'); button('expand-all', 'e'); button('readable', 'r');
button('together', 't'); button('shared', 'g'); button('boards', 'b');
document.getElementById('speed').addEventListener('change', () => { if (playing) { play(); play(); } });
window.addEventListener('resize', () => { for (const P of panels) draw(P); });

activate(panels[0]);
divergences();
showPartings();
settings();
const prepared = performance.now();
// The side panels first: their size decides the canvases'.
const start = /node=(\d+)/.exec(location.hash);
for (const P of panels) {
  P.selected = start ? Math.min(Number(start[1]), P.n - 1) : 0;
  describe(P);
}
const t0 = performance.now();
for (const P of panels) readable(P);
document.body.dataset.readablems = (performance.now() - t0).toFixed(0);
if (partings.length) panels.forEach((P, i) => { P.diverge = partings[0].nodes[i]; });
fit(true);
for (const P of panels) select(P, P.selected);
const query = new URLSearchParams(location.search);
const target = panels[Math.min(Number(query.get('panel') || 0), panels.length - 1)];
activate(target);
if (query.get('together') === 'no') { together = false; settings(); }
const NAMED = { R: 'ArrowRight', L: 'ArrowLeft', U: 'ArrowUp', D: 'ArrowDown', H: 'Home', _: ' ' };
for (const k of query.get('keys') || '') {
  document.dispatchEvent(new KeyboardEvent('keydown', { key: NAMED[k] || k }));
}
// From the start of navigation (the page's data read included) to the first tree drawn.
document.body.dataset.loadms = performance.now().toFixed(0);
document.body.dataset.preparems = (prepared - started).toFixed(0);
report();
