// The front end of cspkit's notebook widget (cspkit/widget.py, an anywidget).
//
// It shows the tree page the Python side sends (`page`: cspkit's own self-contained tree
// page, as `cspkit ... --tree page.html` writes it) in an <iframe> from `srcdoc`, as the
// live web page shows it (web/site/app.js): the page draws the tree and, for the node
// clicked, its board and domains. Above it, the search's status and counts and a Stop
// button, which sends {type: "stop"} to the Python side.
//
// A new page (every second at most while the search runs, then the complete tree) replaces
// the old one; the node selected stays selected (the page opens on `#node=N`).
//
// Stable hooks for tests: the root has class `cspkit-tree-widget` and data-status,
// data-pages (pages shown) and data-selected (the node kept across pages); inside,
// `.cspkit-status`, `.cspkit-counts`, `button.cspkit-stop` and `iframe.cspkit-page`.

/** What the frame shows before the first page. */
const WAITING = '<!doctype html><meta charset="utf-8"><body style="font:14px sans-serif;color:#666">' +
  'the search tree appears here as the search runs…</body>';

/** Statuses after which the search no longer runs. */
const ENDED = new Set(['solved', 'complete', 'infeasible', 'limit', 'stopped', 'error']);

/**
 * `html` opening on node `node`: the tree page reads `#node=N` from its address. A srcdoc
 * document's address is about:srcdoc; its fragment is set without a new history entry (a
 * relative '#node=N' would resolve against the notebook's address), else by `location.hash`.
 */
function openingOn(html, node) {
  if (!(node > 0)) return html;
  const script = '<script>try{history.replaceState(null,"",location.href.split("#")[0]+' +
    `"#node=${node}")}catch(e){location.hash="node=${node}"}</script>`;
  const head = /<head[^>]*>/i.exec(html);
  return head
    ? html.slice(0, head.index + head[0].length) + script + html.slice(head.index + head[0].length)
    : script + html;
}

/** "1 234" for 1234: counts read at a glance. */
function count(value) {
  return typeof value === 'number' ? value.toLocaleString('en').replace(/,/g, '\u2009') : '–';
}

function element(tag, attributes = {}, text = '') {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}

function render({ model, el }) {
  const root = element('div', { class: 'cspkit-tree-widget' });
  root.style.cssText = 'font:13px system-ui,sans-serif;border:1px solid #ccc;border-radius:4px;';
  const bar = element('div', { class: 'cspkit-bar' });
  bar.style.cssText = 'display:flex;gap:1em;align-items:center;padding:4px 8px;' +
    'background:#f6f6f6;border-bottom:1px solid #ddd;flex-wrap:wrap';
  const status = element('b', { class: 'cspkit-status' });
  const counts = element('span', { class: 'cspkit-counts' });
  const stop = element('button', { class: 'cspkit-stop', type: 'button', title: 'stop the search; the tree so far stays' }, 'Stop');
  const error = element('span', { class: 'cspkit-error' });
  error.style.color = '#b00';
  bar.append(status, counts, stop, error);
  const frame = element('iframe', {
    class: 'cspkit-page',
    title: 'Search tree, with the board and domains of the selected node',
  });
  frame.style.cssText = 'width:100%;border:0;display:block';
  root.append(bar, frame);
  el.appendChild(root);

  let pages = 0;
  let loaded = false;
  let selected = 0;

  /** The node selected in the page shown, once it has loaded (else the one kept). */
  function selectedNow() {
    if (!loaded) return selected;
    try {
      const body = frame.contentDocument && frame.contentDocument.body;
      const value = body && body.dataset.selected;
      return value !== undefined && value !== '' ? Number(value) : selected;
    } catch (_) {
      return selected; // a frame of another origin: keep what we had
    }
  }

  frame.addEventListener('load', () => {
    loaded = true;
    root.dataset.pages = String(pages);
  });

  function showPage() {
    const html = model.get('page');
    selected = selectedNow();
    root.dataset.selected = String(selected);
    loaded = false;
    if (!html) {
      frame.srcdoc = WAITING;
      return;
    }
    pages += 1;
    frame.srcdoc = openingOn(html, selected);
  }

  function showState() {
    const s = model.get('status') || 'idle';
    const stats = model.get('stats') || {};
    status.textContent = s;
    root.dataset.status = s;
    const seconds = model.get('elapsed');
    counts.textContent = [
      `decisions ${count(stats.decisions)}`,
      `tree nodes ${count(stats.nodes)}`,
      `failures ${count(stats.failures)}`,
      `solutions ${count(model.get('solutions'))}`,
      typeof seconds === 'number' ? `${seconds.toFixed(2)} s` : '',
    ].filter(Boolean).join(' · ');
    stop.disabled = s !== 'running';
    error.textContent = model.get('error') || '';
  }

  function showHeight() {
    frame.style.height = `${model.get('height') || 600}px`;
  }

  stop.addEventListener('click', () => {
    if (ENDED.has(model.get('status'))) return;
    stop.disabled = true;
    status.textContent = 'stopping';
    model.send({ type: 'stop' });
  });

  const onPage = () => showPage();
  const onState = () => showState();
  const onHeight = () => showHeight();
  model.on('change:page', onPage);
  for (const name of ['status', 'stats', 'solutions', 'elapsed', 'error']) {
    model.on(`change:${name}`, onState);
  }
  model.on('change:height', onHeight);
  showHeight();
  showState();
  showPage();

  return () => {
    model.off('change:page', onPage);
    for (const name of ['status', 'stats', 'solutions', 'elapsed', 'error']) {
      model.off(`change:${name}`, onState);
    }
    model.off('change:height', onHeight);
  };
}

export { render };
export default { render };
