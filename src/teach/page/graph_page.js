"use strict";
// The AC-3 graph page: DATA holds the variables (name, place, initial domain), the edges and
// the steps (kind, text, depth, arc, removed values, queue, domains changed).
(function () {
  const vars = DATA.vars, edges = DATA.edges, steps = DATA.steps;
  const n = vars.length;
  const svg = document.getElementById("graph");
  const NS = "http://www.w3.org/2000/svg";
  const el = (name, attrs, parent) => {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  };
  // The drawing is laid out in the window's pixels (the view box is the SVG's own size), so
  // that every text is at least FONT px on the screen.
  const FONT = 16;
  const frame = svg.getBoundingClientRect();
  const W = Math.max(320, frame.width || 800), H = Math.max(240, frame.height || 560);
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const chars = (s) => 0.62 * FONT * String(s).length;
  // A Sudoku-like grid of small values: candidates drawn as pencil marks, 3 by 3.
  const marks = DATA.grid && vars.every((v) => v.d.length <= 9 && v.d.every((x) => x >= 1 && x <= 9));
  let nearest = 1;
  const [minX, maxX, minY, maxY] = vars.reduce(([a, b, c, d], v) =>
    [Math.min(a, v.x), Math.max(b, v.x), Math.min(c, v.y), Math.max(d, v.y)], [1, 0, 1, 0]);
  if (n <= 400) {
    nearest = 2;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const dist = Math.hypot(vars[i].x - vars[j].x, vars[i].y - vars[j].y);
        if (dist > 0) nearest = Math.min(nearest, dist);
      }
    }
  } else {
    nearest = 1 / Math.sqrt(n);
  }
  // Node boxes: as wide as their texts, as large as the spacing allows.
  const nameWidth = Math.max(...vars.map((v) => chars(v.name) + 0.1 * FONT * v.name.length), 0);
  const size = (scale) => Math.max(marks ? 3.4 * FONT : 2.6 * FONT, Math.min(150, 0.88 * nearest * scale));
  const fit = (w, h) => Math.min(
    maxX > minX ? (W - w - 24) / (maxX - minX) : Infinity,
    maxY > minY ? (H - h - 2.4 * FONT - 24) / (maxY - minY) : Infinity);
  const least = [Math.max(2.6 * FONT, nameWidth + 12, chars("{1..9}·9") + 12), marks ? 3.4 * FONT : 2.6 * FONT];
  let scale = fit(marks ? least[1] : least[0], least[1]);
  if (!isFinite(scale)) scale = 0;
  const box = size(scale);
  const nodeW = marks ? box : Math.max(box, least[0]);
  const nodeH = marks ? box : Math.max(2.6 * FONT, Math.min(box, 4 * FONT));
  scale = fit(nodeW, nodeH);
  if (!isFinite(scale)) scale = 0;
  const radius = Math.max(nodeW, nodeH) / 2;
  const offX = (W - (maxX - minX) * scale) / 2, offY = (H - 1.4 * FONT - (maxY - minY) * scale) / 2;
  const px = (i) => [offX + (vars[i].x - minX) * scale, offY + (vars[i].y - minY) * scale];
  document.body.dataset.layout = DATA.grid ? "grid" : "points";
  const defs = el("defs", {}, svg);
  const marker = el("marker", { id: "arrow", viewBox: "0 0 10 10", refX: "9", refY: "5",
    markerWidth: "4", markerHeight: "4", orient: "auto-start-reverse" }, defs);
  el("path", { d: "M 0 0 L 10 5 L 0 10 z" }, marker);

  // An edge bends when a third node lies on its straight line (a Sudoku's rows).
  function edgePath(i, j, bendAlways) {
    const [x1, y1] = px(i), [x2, y2] = px(j);
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    let blocked = bendAlways;
    for (let k = 0; k < n && !blocked; k++) {
      if (k === i || k === j) continue;
      const [x, y] = px(k);
      const t = ((x - x1) * (x2 - x1) + (y - y1) * (y2 - y1)) / (len * len);
      if (t <= 0 || t >= 1) continue;
      const dist = Math.abs((x2 - x1) * (y1 - y) - (x1 - x) * (y2 - y1)) / len;
      if (dist < radius * 1.05) blocked = true;
    }
    if (!blocked) return [`M ${x1} ${y1} L ${x2} ${y2}`, null];
    // Far enough to pass beside the nodes in between.
    const bend = Math.max(0.18 * len, 0.8 * nodeW + 0.35 * len);
    const cx = (x1 + x2) / 2 - (y2 - y1) / len * bend, cy = (y1 + y2) / 2 + (x2 - x1) / len * bend;
    return [`M ${x1} ${y1} Q ${cx} ${cy} ${x2} ${y2}`, [cx, cy]];
  }
  const edgeLayer = el("g", {}, svg);
  const edgeOf = new Map();
  edges.forEach(([i, j, names]) => {
    const [d, control] = edgePath(i, j, false);
    const path = el("path", { class: "edge", d }, edgeLayer);
    el("title", {}, path).textContent = `${vars[i].name} — ${vars[j].name}: ${names}`;
    edgeOf.set(i + "," + j, { path, i, j, control });
    edgeOf.set(j + "," + i, { path, i, j, control });
  });
  const arcLayer = el("g", {}, svg);
  const arcPath = el("path", { class: "edge active", "marker-end": "url(#arrow)", d: "" }, arcLayer);

  const nodeLayer = el("g", {}, svg);
  const font = FONT;
  const nodes = vars.map((v, i) => {
    const [x, y] = px(i);
    const g = el("g", { class: "node", transform: `translate(${x} ${y})`, "data-name": v.name }, nodeLayer);
    el("title", {}, g).textContent = v.name;
    el("rect", { x: -nodeW / 2, y: -nodeH / 2, width: nodeW, height: nodeH, rx: marks ? 4 : nodeH / 2.5 }, g);
    const name = marks ? null : el("text", { class: "name", y: -0.15 * font, "font-size": font }, g);
    if (name) name.textContent = v.name;
    const domain = el("text", { class: "domain", y: marks ? 0 : 0.95 * font, "font-size": font }, g);
    // Values removed: beside a node, on the lower edge of a grid's cell.
    const removed = el("text", marks
      ? { class: "removed", y: nodeH / 2 - 2, "font-size": font, style: "paint-order: stroke; stroke: #fff; stroke-width: 4px" }
      : { class: "removed", x: nodeW / 2 + 6, y: 0.35 * font, "font-size": font, style: "text-anchor: start" }, g);
    return { g, domain, removed };
  });

  // The domains after step k, from snapshots every 64 steps.
  const SNAP = 64;
  const snaps = [vars.map((v) => v.d)];
  function domainsAfter(k) {
    if (k < 0) return snaps[0];
    const s = Math.floor((k + 1) / SNAP);
    while (snaps.length <= s) {
      const base = snaps[snaps.length - 1].slice();
      const from = (snaps.length - 1) * SNAP;
      for (let t = from; t < from + SNAP && t < steps.length; t++) apply(base, steps[t]);
      snaps.push(base);
    }
    const state = snaps[s].slice();
    for (let t = s * SNAP; t <= k; t++) apply(state, steps[t]);
    return state;
  }
  function apply(state, step) {
    if (step.c) for (const [v, d] of step.c) state[v] = d;
  }
  const show = (d) => (d.length > 6 ? `{${d[0]}..${d[d.length - 1]}}·${d.length}` : `{${d.join(",")}}`);

  const QUEUE_SHOWN = 12;
  const arcName = (a) => `(${vars[a[0]].name}, ${vars[a[1]].name})`;
  let current = 0, timer = null;
  const text = document.getElementById("step-text");
  const count = document.getElementById("step-count");
  const queue = document.getElementById("queue");
  const log = document.getElementById("log");

  function draw() {
    const step = steps[current];
    const doms = domainsAfter(current);
    nodes.forEach((node, i) => {
      const d = doms[i];
      const label = show(d);
      if (marks) {
        // A value alone, large; candidates as pencil marks, each value in its place.
        node.domain.textContent = "";
        if (d.length === 1) {
          const big = el("tspan", { x: 0, dy: 0.35 * Math.max(font, nodeH * 0.5), "font-size": Math.max(font, nodeH * 0.5), class: "value" }, node.domain);
          big.textContent = String(d[0]);
        } else {
          for (let r = 0; r < 3; r++) {
            const line = [1, 2, 3].map((c) => (d.includes(3 * r + c) ? String(3 * r + c) : " ")).join("");
            const t = el("tspan", { x: 0, y: (r - 1) * font * 1.02 + 0.35 * font, "xml:space": "preserve" }, node.domain);
            t.textContent = line;
          }
        }
      } else {
        // The values listed if they fit the node, else the first, the last and how many.
        node.domain.textContent = chars(label) <= nodeW - 8 || d.length < 2 ? label
          : `{${d[0]}..${d[d.length - 1]}}·${d.length}`;
      }
      node.g.setAttribute("class", "node" + (d.length === 1 ? " fixed" : "") + (d.length === 0 ? " empty" : ""));
      node.removed.textContent = "";
    });
    arcPath.setAttribute("d", "");
    document.body.dataset.arc = "";
    if (!step) {
      text.textContent = "no steps recorded";
      return;
    }
    if (step.a) {
      const [i, j] = step.a;
      nodes[i].g.classList.add("revised");
      nodes[j].g.classList.add("support");
      if (step.r) nodes[i].removed.textContent = "−" + step.r.join(",");
      const [x1, y1] = px(i), [x2, y2] = px(j);
      const e = edgeOf.get(i + "," + j);
      // From Xi to the rim of Xj, along the edge's curve.
      const [tx, ty] = e && e.control ? e.control : [x1, y1];
      const len = Math.hypot(x2 - tx, y2 - ty) || 1;
      const ex = x2 - (x2 - tx) / len * (radius + 6), ey = y2 - (y2 - ty) / len * (radius + 6);
      arcPath.setAttribute("d", e && e.control
        ? `M ${x1} ${y1} Q ${e.control[0]} ${e.control[1]} ${ex} ${ey}` : `M ${x1} ${y1} L ${ex} ${ey}`);
      document.body.dataset.arc = vars[i].name + "," + vars[j].name;
    }
    if (step.b !== undefined) nodes[step.b].g.classList.add("branched");
    text.textContent = step.t;
    text.className = step.k;
    count.textContent = `step ${current + 1} of ${steps.length}` + (DATA.cut ? ` (${DATA.cut} more not recorded)` : "") + ` · depth ${step.d}`;
    // The queue after the step: the last run's, if this step has none.
    let q = null;
    for (let t = current; t >= 0 && !q; t--) {
      if (steps[t].q) q = steps[t];
      if (steps[t].k === "decision" || steps[t].k === "refutation") break;
    }
    queue.textContent = "";
    if (q) {
      q.q.slice(0, QUEUE_SHOWN).forEach((a) => { const li = document.createElement("li"); li.textContent = arcName(a); queue.appendChild(li); });
      if (q.ql > Math.min(q.q.length, QUEUE_SHOWN)) {
        const li = document.createElement("li"); li.className = "more";
        li.textContent = `… ${q.ql} arcs in all`; queue.appendChild(li);
      }
      if (q.ql === 0) { const li = document.createElement("li"); li.className = "more"; li.textContent = "(empty)"; queue.appendChild(li); }
    }
    log.textContent = "";
    for (let t = Math.max(0, current - 14); t <= Math.min(steps.length - 1, current + 4); t++) {
      const li = document.createElement("li");
      li.textContent = "  ".repeat(steps[t].d) + steps[t].t;
      if (t === current) li.className = "now";
      log.appendChild(li);
    }
    // The smallest text on the screen, in px (the drawing's scale included).
    const ratio = svg.getBoundingClientRect().width / W || 1;
    let least = Infinity;
    for (const e of document.querySelectorAll("body *")) {
      const own = Array.from(e.childNodes).some((c) => c.nodeType === 3 && c.textContent.trim());
      if (!own || e.closest("title, script, style")) continue;
      const px = parseFloat(getComputedStyle(e).fontSize) * (e.closest("svg") ? ratio : 1);
      least = Math.min(least, px);
    }
    document.body.dataset.minFont = String(Math.round(least * 10) / 10);
    document.body.dataset.step = String(current);
    document.body.dataset.kind = step.k;
  }

  function go(k) {
    current = Math.max(0, Math.min(steps.length - 1, k));
    draw();
  }
  function seek(test) {
    for (let t = current + 1; t < steps.length; t++) if (test(steps[t])) return go(t);
  }
  function play(on) {
    if (timer) { clearInterval(timer); timer = null; }
    if (on) {
      const speed = Number(document.getElementById("speed").value) || 3;
      timer = setInterval(() => {
        if (current >= steps.length - 1) return play(false);
        go(current + 1);
      }, 1000 / speed);
    }
    document.body.dataset.playing = on ? "true" : "false";
    document.getElementById("play").textContent = on ? "⏸ Pause" : "▶ Play";
  }
  function key(k) {
    switch (k) {
      case "ArrowRight": go(current + 1); break;
      case "ArrowLeft": go(current - 1); break;
      case "Home": go(0); break;
      case "End": go(steps.length - 1); break;
      case " ": play(!timer); break;
      case "r": seek((s) => s.k === "revise" && s.r); break;
      case "b": seek((s) => s.k === "decision" || s.k === "refutation"); break;
      case "f": seek((s) => s.k === "failure"); break;
      case "s": seek((s) => s.k === "solution"); break;
      default: return false;
    }
    return true;
  }
  document.addEventListener("keydown", (e) => {
    if (e.target && e.target.tagName === "INPUT") return;
    if (key(e.key)) e.preventDefault();
  });
  document.getElementById("first").onclick = () => go(0);
  document.getElementById("prev").onclick = () => go(current - 1);
  document.getElementById("next").onclick = () => go(current + 1);
  document.getElementById("last").onclick = () => go(steps.length - 1);
  document.getElementById("play").onclick = () => play(!timer);
  document.getElementById("speed").oninput = () => { if (timer) play(true); };

  // Scripted use: #step=N, then ?keys=… (R L H E for the arrows, Home, End; _ for space).
  const hash = /step=(\d+)/.exec(location.hash);
  current = hash ? Math.min(Number(hash[1]), Math.max(0, steps.length - 1)) : 0;
  document.body.dataset.playing = "false";
  draw();
  const keys = new URLSearchParams(location.search).get("keys") || "";
  const names = { R: "ArrowRight", L: "ArrowLeft", H: "Home", E: "End", _: " " };
  for (const c of keys) key(names[c] || c);
})();
