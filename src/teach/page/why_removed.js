
// ---- why was this value removed? (a click on a struck-out value of the domains panel) ------
// D.why[v] holds node v's removals as flat lists (see src/teach/removals.rs): variable, value,
// constraint (-1: the node's branch), n, then n literals (kind 0 = 1 ≠ 2 ≥ 3 ≤, variable,
// value). A chain follows each literal to the removals that made it true, on the node's path.

const WHY_OPS = ['=', '≠', '≥', '≤'];

function whyRecords(D, v) {
  if (!D.whyParsed) D.whyParsed = [];
  if (!D.whyParsed[v]) {
    const flat = (D.why && D.why[v]) || [];
    const list = [];
    for (let j = 0; j < flat.length;) {
      const r = { node: v, index: list.length, x: flat[j], value: flat[j + 1], c: flat[j + 2], lits: [] };
      const n = flat[j + 3];
      j += 4;
      for (let k = 0; k < n; k++, j += 3) r.lits.push([flat[j], flat[j + 1], flat[j + 2]]);
      list.push(r);
    }
    D.whyParsed[v] = list;
  }
  return D.whyParsed[v];
}

// The removal of `value` from variable x on the path from the root to node v.
function whyFind(D, v, x, value) {
  for (let u = v; u >= 0; u = D.parent[u]) {
    if (u >= (D.whyNodes || 0)) continue;
    const r = whyRecords(D, u).find((r) => r.x === x && r.value === value);
    if (r) return r;
  }
  return null;
}

function whySatisfies(kind, value, bound) {
  return kind === 0 ? value === bound : kind === 1 ? value !== bound
    : kind === 2 ? value >= bound : value <= bound;
}

function whyLiteral(D, [kind, x, value]) {
  return D.names[x] + ' ' + WHY_OPS[kind] + ' ' + valueText(D, x, value);
}

// The chain's lines: the question, the decisions it rests on, the steps in order.
function whyChain(P, v, x, value) {
  const D = P.D;
  const head = 'why ' + D.names[x] + ' ≠ ' + valueText(D, x, value) + ' at node ' + v + ':';
  const target = whyFind(D, v, x, value);
  if (!target) {
    return [head, D.whyNodes > v ? 'no reason recorded (not a removal the page can replay)'
      : 'reasons are recorded for the first ' + (D.whyNodes || 0) + ' nodes only'];
  }
  const needed = new Set();
  const stack = [target];
  while (stack.length) {
    const r = stack.pop();
    if (needed.has(r)) continue;
    needed.add(r);
    for (const [kind, y, bound] of r.lits) {
      const initial = D.domains[D.initial[y]].v || [];
      for (const b of initial) {
        if (whySatisfies(kind, b, bound)) continue;
        const s = whyFind(D, r.node, y, b);
        if (s) stack.push(s);
      }
    }
  }
  const order = Array.from(needed).sort((a, b) => a.node - b.node || a.index - b.index);
  const lines = [head];
  const decisions = new Set(order.filter((r) => r.c < 0).map((r) => r.node));
  for (const u of Array.from(decisions).sort((a, b) => a - b)) {
    lines.push('decision at node ' + u + ': ' + label(P, u));
  }
  // Removals of one node, one constraint and one reason read as one step.
  const steps = [];
  for (const r of order.filter((r) => r.c >= 0)) {
    const key = r.node + '|' + r.c + '|' + r.lits.join(';');
    const last = steps.find((s) => s.key === key);
    if (last) last.removed.push(r);
    else steps.push({ key, removed: [r], c: r.c, lits: r.lits });
  }
  steps.forEach((s, k) => {
    const removed = s.removed.map((r) => D.names[r.x] + ' ≠ ' + valueText(D, r.x, r.value));
    const since = s.lits.length ? ', since ' + s.lits.map((l) => whyLiteral(D, l)).join(', ') : '';
    lines.push((k + 1) + '. ' + removed.join(', ') + ': by ' + D.cnames[s.c] + since);
  });
  return lines;
}

function whyShow(P, lines) {
  if (!P.ui.why) {
    P.ui.why = el('div', { class: 'why-chain' });
    P.ui.domains.parentNode.insertBefore(P.ui.why, P.ui.domains);
  }
  P.ui.why.textContent = '';
  for (const line of lines) P.ui.why.appendChild(el('p', {}, line));
  document.body.dataset.why = lines.join('\n');
}

document.addEventListener('click', (event) => {
  const span = event.target.closest && event.target.closest('span.why');
  if (!span) return;
  const P = panels.find((Q) => Q.ui.domains.contains(span));
  if (!P) return;
  whyShow(P, whyChain(P, P.selected, Number(span.dataset.var), Number(span.dataset.value)));
});

// Another node selected: the chain shown was of the last one.
{
  const drawn = describe;
  describe = function (P) {
    drawn(P);
    if (P.ui.why) P.ui.why.textContent = '';
  };
}

// For scripted use: `?why=X,V` clicks value V of the variable numbered X in the domains of the
// node selected on load (`#node=N`) of the first panel.
{
  const asked = new URLSearchParams(location.search).get('why');
  if (asked) {
    const [x, value] = asked.split(',');
    const span = panels[0].ui.domains.querySelector(
      'span.why[data-var="' + Number(x) + '"][data-value="' + Number(value) + '"]');
    if (span) span.click();
    else document.body.dataset.why = 'not struck out at this node';
  }
}
