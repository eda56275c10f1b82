'use strict';
// The search tree page: PANELS (one per search) is written before this script by
// cspkit::teach::html. Each panel holds its nodes as columns of equal length (parent, var,
// value, kind, status, reason, emptied, constraint, changes), indexed by node id; ids are in
// search order, so a child's id is larger than its parent's.

const started = performance.now();
const UX = 34;          // layout unit across, in CSS pixels at scale 1
const UY = 64;          // one level down
const FONT = '18px sans-serif';
const NAMES = 70;       // room for the rows' names, in CSS pixels
const SYMBOL = ['', '=', '≠', '≤', '>'];
const COLOUR = { i: '#4a7fb5', f: '#d62728', s: '#2ca02c', o: '#bbbbbb' };
const multi = PANELS.length > 1;
let active = 0;
let playing = null;

function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

// ---- the tree: children, subtree counts, layout -----------------------------------------

function prepare(D, index) {
  const n = D.parent.length;
  const P = { D, index, n, selected: 0, scale: 1, yscale: 1, tx: 0, ty: 0 };
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
  P.collapsed = new Uint8Array(n);
  P.x = new Float64Array(n);
  P.hidden = new Uint8Array(n);
  layout(P);
  return P;
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
  return D.names[D.var[v]] + ' ' + SYMBOL[D.kind[v]] + ' ' + valueText(D, D.var[v], D.value[v]);
}

// A compact layout: each subtree keeps the contours of its left and right sides, level by
// level, and each child is put as far left as its contour allows against the siblings before
// it; a parent sits midway over its first and last child. Collapsed subtrees are a triangle.
function layout(P) {
  const n = P.n;
  const D = P.D;
  for (let v = 1; v < n; v++) {
    const p = D.parent[v];
    P.hidden[v] = P.hidden[p] || P.collapsed[p] ? 1 : 0;
  }
  const left = new Array(n), right = new Array(n);
  const rel = new Float64Array(n);
  for (let v = n - 1; v >= 0; v--) {
    if (P.hidden[v]) continue;
    const ks = children(P, v);
    if (ks.length === 0 || P.collapsed[v]) {
      const w = P.collapsed[v] && ks.length ? 0.9 : 0;
      left[v] = w ? [0, -w] : [0];
      right[v] = w ? [0, w] : [0];
      continue;
    }
    let accL = left[ks[0]], accR = right[ks[0]];
    const off = [0];
    for (let i = 1; i < ks.length; i++) {
      const cl = left[ks[i]], cr = right[ks[i]];
      let shift = -Infinity;
      const m = Math.min(accR.length, cl.length);
      for (let d = 0; d < m; d++) shift = Math.max(shift, accR[d] - cl[d] + 1);
      off.push(shift);
      for (let d = 0; d < cr.length; d++) {
        if (d < accR.length) accR[d] = cr[d] + shift; else accR.push(cr[d] + shift);
      }
      for (let d = accL.length; d < cl.length; d++) accL.push(cl[d] + shift);
      left[ks[i]] = right[ks[i]] = null;
    }
    const mid = (off[0] + off[off.length - 1]) / 2;
    ks.forEach((k, i) => { rel[k] = off[i] - mid; });
    left[v] = [0].concat(accL.map((x) => x - mid));
    right[v] = [0].concat(accR.map((x) => x - mid));
    left[ks[0]] = right[ks[0]] = null;
  }
  P.x[0] = 0;
  P.visible = [0];
  P.maxDepth = 0; P.minX = 0; P.maxX = 0;
  for (let v = 1; v < n; v++) {
    if (P.hidden[v]) continue;
    P.x[v] = P.x[D.parent[v]] + rel[v];
    P.visible.push(v);
  }
  for (const v of P.visible) {
    const below = P.collapsed[v] && P.size[v] > 1 ? 1 : 0;
    P.maxDepth = Math.max(P.maxDepth, P.depth[v] + below);
    P.minX = Math.min(P.minX, P.x[v] - below);
    P.maxX = Math.max(P.maxX, P.x[v] + below);
  }
  // Rows where every branch is on one variable name it once, at the left.
  P.rowVar = new Int32Array(P.maxDepth + 2).fill(-2);
  for (const v of P.visible) {
    if (v === 0) continue;
    const d = P.depth[v], x = D.var[v];
    P.rowVar[d] = P.rowVar[d] === -2 || P.rowVar[d] === x ? x : -1;
  }
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
      td.appendChild(el('span', { class: 'removed' },
        m.removed[i].map((value) => valueText(P.D, i, value)).join(' ')));
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

function sx(P, v) { return P.tx + P.x[v] * UX * P.scale; }
function sy(P, v) { return P.ty + P.depth[v] * UY * P.yscale; }

function draw(P) {
  const { ctx, w, h } = sizeCanvas(P.ui.canvas);
  P.w = w; P.h = h;
  ctx.clearRect(0, 0, w, h);
  const D = P.D;
  const r = Math.max(1.5, Math.min(11, 9 * P.scale));
  const pad = 40;
  const inView = (x, y) => x > -pad && x < w + pad && y > -pad && y < h + pad;
  // Edges, in one path.
  ctx.strokeStyle = '#999';
  ctx.lineWidth = P.scale > 0.5 ? 1.5 : 1;
  ctx.beginPath();
  let drawn = 0;
  for (const v of P.visible) {
    if (v === 0) continue;
    const p = D.parent[v];
    const x1 = sx(P, p), y1 = sy(P, p), x2 = sx(P, v), y2 = sy(P, v);
    if (!inView(x1, y1) && !inView(x2, y2)) continue;
    ctx.moveTo(x1, y1); ctx.lineTo(x2, y2);
  }
  ctx.stroke();
  // Nodes, one path per status; collapsed subtrees as triangles.
  const tri = [];
  for (const s of 'iofs') {
    ctx.fillStyle = COLOUR[s];
    ctx.beginPath();
    for (const v of P.visible) {
      if (D.status[v] !== s) continue;
      const x = sx(P, v), y = sy(P, v);
      if (!inView(x, y)) continue;
      drawn++;
      if (P.collapsed[v] && P.size[v] > 1) tri.push(v);
      if (r < 2.5) { ctx.rect(x - r, y - r, 2 * r, 2 * r); continue; }
      if (s === 'f') ctx.rect(x - r, y - r, 2 * r, 2 * r);
      else if (s === 's') { ctx.moveTo(x, y - r * 1.3); ctx.lineTo(x + r * 1.3, y); ctx.lineTo(x, y + r * 1.3); ctx.lineTo(x - r * 1.3, y); ctx.closePath(); }
      else { ctx.moveTo(x + r, y); ctx.arc(x, y, r, 0, 2 * Math.PI); }
    }
    ctx.fill();
  }
  ctx.font = FONT;
  ctx.textAlign = 'center';
  for (const v of tri) {
    const x = sx(P, v), y = sy(P, v), half = 0.9 * UX * P.scale, down = UY * P.yscale;
    ctx.beginPath();
    ctx.moveTo(x, y + r); ctx.lineTo(x + half, y + down); ctx.lineTo(x - half, y + down); ctx.closePath();
    ctx.fillStyle = P.sols[v] ? '#cfe8cf' : P.opens[v] ? '#e4e4e4' : '#f3d0d0';
    ctx.fill(); ctx.strokeStyle = '#888'; ctx.stroke();
    // Its counts, as Gist writes them: nodes hidden, failures, solutions.
    if (half > 10) {
      const counts = half > 55
        ? (P.size[v] - 1) + ' · ' + P.fails[v] + '✗ · ' + P.sols[v] + '✓'
        : String(P.size[v] - 1);
      halo(ctx, counts, x, y + down + 4, '#222');
    }
  }
  // Branch labels when they fit: the value alone under a row named at the left, else all.
  const spacing = UX * P.scale;
  const named = P.rowVar;
  let labels = 0;
  if (spacing >= 16 && UY * P.yscale >= 40) {
    ctx.textBaseline = 'bottom';
    for (const v of P.visible) {
      if (v === 0) continue;
      const x = sx(P, v), y = sy(P, v);
      if (!inView(x, y)) continue;
      // Under a named row, `= v` is the value alone.
      const text = named[P.depth[v]] < 0 ? label(P, v)
        : D.kind[v] === 1 ? valueText(D, D.var[v], D.value[v])
        : SYMBOL[D.kind[v]] + ' ' + valueText(D, D.var[v], D.value[v]);
      if (ctx.measureText(text).width > spacing * 1.6) continue;
      halo(ctx, text, x, y - r - 3, '#333');
      labels++;
    }
    ctx.textAlign = 'left';
    for (let d = 1; d < named.length; d++) {
      if (named[d] < 0) continue;
      const y = P.ty + d * UY * P.yscale;
      if (y < 0 || y > h + 20) continue;
      halo(ctx, D.names[named[d]], 6, y - r - 3, '#1f5f99');
    }
  }
  // The selected node: a ring and its label, always.
  const v = P.selected;
  const x = sx(P, v), y = sy(P, v);
  ctx.lineWidth = 4;
  ctx.strokeStyle = '#1f77b4';
  ctx.beginPath(); ctx.arc(x, y, Math.max(r, 5) + 5, 0, 2 * Math.PI); ctx.stroke();
  if (P.diverge >= 0 && !P.hidden[P.diverge]) {
    ctx.strokeStyle = '#ff7f0e';
    ctx.setLineDash([6, 4]);
    ctx.beginPath(); ctx.arc(sx(P, P.diverge), sy(P, P.diverge), Math.max(r, 5) + 10, 0, 2 * Math.PI); ctx.stroke();
    ctx.setLineDash([]);
  }
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  const text = label(P, v);
  const tw = ctx.measureText(text).width;
  ctx.fillStyle = 'rgba(255,255,255,0.9)';
  ctx.fillRect(x - tw / 2 - 4, y + Math.max(r, 5) + 7, tw + 8, 24);
  ctx.fillStyle = '#1f5f99';
  ctx.fillText(text, x, y + Math.max(r, 5) + 9);
  drawOverview(P);
  P.drawn = drawn; P.labels = labels;
  report();
}

function halo(ctx, text, x, y, colour) {
  ctx.lineWidth = 4; ctx.strokeStyle = 'rgba(255,255,255,0.9)';
  ctx.strokeText(text, x, y);
  ctx.fillStyle = colour; ctx.fillText(text, x, y);
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
// apart than the nodes of a level, up to a limit, to use the height of a wide tree).
function fitScale(P) {
  const { w, h } = sizeCanvas(P.ui.canvas);
  const width = (P.maxX - P.minX) * UX + 2 * UX, height = P.maxDepth * UY + UY;
  // Room at the left for the names of the rows.
  const across = (w - 20 - NAMES) / width, down = (h - 60) / height;
  const scale = Math.min(2, across, down);
  return [scale, Math.max(scale, Math.min(down, 1.2))];
}

function fit(quiet) {
  const fits = panels.map(fitScale);
  const scale = Math.min(...fits.map((f) => f[0]));
  const yscale = Math.min(...fits.map((f) => f[1]));
  for (const P of panels) {
    P.scale = scale;
    P.yscale = yscale;
    const { w } = sizeCanvas(P.ui.canvas);
    P.tx = (w + NAMES) / 2 - ((P.minX + P.maxX) / 2) * UX * scale;
    P.ty = 36;
    if (!quiet) draw(P);
  }
}

function zoom(factor, P0, cx, cy) {
  for (const P of multi ? panels : [P0]) {
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
  // A node inside a collapsed subtree opens the way to it.
  let opened = false;
  for (let u = P.D.parent[v]; u >= 0; u = P.D.parent[u]) {
    if (P.collapsed[u]) { P.collapsed[u] = 0; opened = true; }
  }
  if (opened) layout(P);
  describe(P);
  const { w, h } = sizeCanvas(P.ui.canvas);
  P.w = w; P.h = h;
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
  draw(P);
}

// Collapses each largest subtree holding failures only (no solution, nothing open).
function collapseFailed(P) {
  for (let v = 0; v < P.n; v++) {
    const dead = P.size[v] > 1 && P.sols[v] === 0 && P.opens[v] === 0;
    const parentDead = v > 0 && P.D.parent[v] >= 0 && isDead(P, P.D.parent[v]);
    P.collapsed[v] = dead && !parentDead ? 1 : 0;
  }
  for (let u = P.D.parent[P.selected]; u >= 0; u = P.D.parent[u]) {
    if (P.collapsed[u]) P.selected = u;
  }
  layout(P);
  describe(P);
  draw(P);
}

function isDead(P, v) { return P.size[v] > 1 && P.sols[v] === 0 && P.opens[v] === 0; }

function expandAll(P) {
  P.collapsed.fill(0);
  layout(P);
  draw(P);
}

function key(P, k) {
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
    case 'x': for (const Q of multi ? panels : [P]) collapseFailed(Q); return true;
    case 'e': for (const Q of multi ? panels : [P]) expandAll(Q); return true;
    case '+': case '=': zoom(1.25, P); return true;
    case '-': zoom(0.8, P); return true;
    case '0': fit(); return true;
    case ' ': play(); return true;
    default: return false;
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
      for (const P of multi ? panels : [panels[active]]) {
        if (P.selected + 1 < P.n) { select(P, P.selected + 1); moved = true; }
      }
      if (!moved) play();
      report();
    }, 1000 / speed);
    button.textContent = '❚❚ Pause';
  }
  report();
}

// ---- the first node where the trees part --------------------------------------------------

function diverge() {
  for (const P of panels) P.diverge = -1;
  if (!multi) return;
  const n = Math.max(...panels.map((P) => P.n));
  for (let v = 1; v < n; v++) {
    const a = panels[0];
    const same = panels.every((P) => v < P.n && v < a.n && P.D.parent[v] === a.D.parent[v] &&
      P.D.var[v] === a.D.var[v] && P.D.value[v] === a.D.value[v] && P.D.kind[v] === a.D.kind[v]);
    if (!same) { for (const P of panels) P.diverge = v < P.n ? v : -1; return; }
  }
}

// ---- state for scripts and tests ----------------------------------------------------------

function report() {
  const P = panels[active];
  const b = document.body.dataset;
  b.selected = String(P.selected);
  b.scale = P.scale.toFixed(4);
  b.drawn = String(P.drawn || 0);
  b.visible = String(P.visible.length);
  b.labels = String(P.labels || 0);
  b.collapsed = String(P.collapsed.reduce((a, c) => a + c, 0));
  b.selx = sx(P, P.selected).toFixed(1);
  b.sely = sy(P, P.selected).toFixed(1);
  b.cw = String(P.w || 0);
  b.ch = String(P.h || 0);
  b.left = (P.tx + P.minX * UX * P.scale).toFixed(1);
  b.right = (P.tx + P.maxX * UX * P.scale).toFixed(1);
  b.bottom = (P.ty + P.maxDepth * UY * P.yscale).toFixed(1);
  b.playing = playing ? 'yes' : 'no';
  b.diverge = String(P.diverge);
  b.active = String(active);
}

// ---- the page ----------------------------------------------------------------------------

const main = document.getElementById('panels');
if (multi) main.classList.add('multi');
const panels = PANELS.map((D, i) => {
  const P = prepare(D, i);
  const suffix = i ? '-' + i : '';
  const panel = el('section', { class: 'panel', id: 'panel' + suffix });
  const view = el('div', { class: 'view' });
  if (D.title) view.appendChild(el('h2', {}, D.title));
  if (D.stats) view.appendChild(el('p', { class: 'stats' }, D.stats));
  const overview = el('canvas', { class: 'overview', title: 'the whole search: search order across, depth down' });
  const canvas = el('canvas', { class: 'tree', tabindex: '0' });
  view.appendChild(overview); view.appendChild(canvas);
  const aside = el('aside');
  const info = el('div');
  const labelEl = el('p', { class: 'label', id: 'label' + suffix });
  const status = el('p', { class: 'status', id: 'status' + suffix });
  const board = el('div', { id: 'board' + suffix });
  info.appendChild(labelEl); info.appendChild(status); info.appendChild(board);
  const domains = el('table', { class: 'domains', id: 'domains' + suffix });
  aside.appendChild(info); aside.appendChild(domains);
  panel.appendChild(view); panel.appendChild(aside);
  main.appendChild(panel);
  P.ui = { canvas, overview, label: labelEl, status, board, domains, panel };
  return P;
});

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
    if (!drag) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    if (!drag.moved) return;
    for (const Q of multi ? panels : [P]) {
      if (Q === P) { Q.tx = drag.tx + dx; Q.ty = drag.ty + dy; draw(Q); }
    }
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
document.getElementById('fit').addEventListener('click', fit);
document.getElementById('zoom-in').addEventListener('click', () => zoom(1.25, panels[active]));
document.getElementById('zoom-out').addEventListener('click', () => zoom(0.8, panels[active]));
document.getElementById('play').addEventListener('click', play);
document.getElementById('speed').addEventListener('change', () => { if (playing) { play(); play(); } });
document.getElementById('collapse-failed').addEventListener('click', () => key(panels[active], 'x'));
document.getElementById('expand-all').addEventListener('click', () => key(panels[active], 'e'));
window.addEventListener('resize', () => { for (const P of panels) draw(P); });

diverge();
activate(panels[0]);
const prepared = performance.now();
// The side panels first: their size decides the canvases'.
const start = /node=(\d+)/.exec(location.hash);
for (const P of panels) {
  P.selected = start ? Math.min(Number(start[1]), P.n - 1) : 0;
  describe(P);
}
fit(true);
for (const P of panels) select(P, P.selected);
const query = new URLSearchParams(location.search);
const target = panels[Math.min(Number(query.get('panel') || 0), panels.length - 1)];
activate(target);
const NAMED = { R: 'ArrowRight', L: 'ArrowLeft', U: 'ArrowUp', D: 'ArrowDown', H: 'Home', _: ' ' };
for (const k of query.get('keys') || '') {
  document.dispatchEvent(new KeyboardEvent('keydown', { key: NAMED[k] || k }));
}
// From the start of navigation (the page's data read included) to the first tree drawn.
document.body.dataset.loadms = performance.now().toFixed(0);
document.body.dataset.preparems = (prepared - started).toFixed(0);
report();
