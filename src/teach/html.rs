//! The search tree as one self-contained HTML page: the tree and the board side by side, a
//! node selected by a click or by the arrow keys (search order), and the board and the
//! domains at that node. No network, no external script: the page carries its data, its style
//! and its script.
//!
//! For scripted use (tests, screenshots), the page reads two things from its address: a
//! fragment `#node=N` selects node `N` on load, and a query `?keys=RRL` replays arrow keys
//! (`R` right, `L` left) through the same handler the keyboard uses.

use std::fmt::Write as _;

use super::svg::{self, class, escape};
use super::tree::SearchTree;
use crate::domain::Domain;
use crate::ids::VarId;

/// How to draw the puzzle beside the tree.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Board {
    /// A grid of cells, row by row (Sudoku): a fixed cell shows its value, an open one its
    /// candidates.
    Grid {
        /// Cells per row.
        columns: usize,
        /// The cells, row by row.
        cells: Vec<VarId>,
    },
    /// N-Queens: one variable per row holding its queen's column, from `first_column`.
    Queens {
        /// The rows' variables.
        rows: Vec<VarId>,
        /// The value of the leftmost column (1 for cspkit's model).
        first_column: i32,
    },
    /// Any model: a table of the variables and their domains.
    Table,
}

/// A JSON string literal, safe inside a `<script>` element.
fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A domain for the page: its text, and its values when they are few enough to draw.
fn json_domain(domain: &Domain) -> String {
    let values = if domain.size() <= 64 {
        let list: Vec<String> = domain.iter().map(|v| v.to_string()).collect();
        format!("[{}]", list.join(","))
    } else {
        "null".to_owned()
    };
    format!(
        "{{\"t\":{},\"v\":{values}}}",
        json_string(&domain.to_string())
    )
}

/// The page's data: variables, initial domains, nodes with their changes, the board.
fn json_data(tree: &SearchTree<'_>, board: &Board, title: &str) -> String {
    let model = tree.model();
    let mut out = String::from("{");
    let _ = write!(out, "\"title\":{},", json_string(title));
    let names: Vec<String> = model
        .variables()
        .map(|v| json_string(&model.var_name(v)))
        .collect();
    let _ = write!(out, "\"names\":[{}],", names.join(","));
    let initial: Vec<String> = model.initial_domains().iter().map(json_domain).collect();
    let _ = write!(out, "\"initial\":[{}],", initial.join(","));
    out.push_str("\"nodes\":[");
    for (id, node) in tree.nodes().iter().enumerate() {
        if id > 0 {
            out.push(',');
        }
        let changes: Vec<String> = node
            .changes
            .iter()
            .map(|(var, domain)| format!("[{},{}]", var.index(), json_domain(domain)))
            .collect();
        let _ = write!(
            out,
            "{{\"p\":{},\"l\":{},\"s\":\"{}\",\"r\":{},\"c\":[{}]}}",
            node.parent.map_or(-1, |p| p as i64),
            json_string(&tree.label(id as u64)),
            class(node.status),
            json_string(&tree.reason(id as u64)),
            changes.join(",")
        );
    }
    out.push_str("],");
    let board = match board {
        Board::Grid { columns, cells } => format!(
            "{{\"kind\":\"grid\",\"columns\":{columns},\"cells\":[{}]}}",
            cells
                .iter()
                .map(|v| v.index().to_string())
                .collect::<Vec<_>>()
                .join(",")
        ),
        Board::Queens { rows, first_column } => format!(
            "{{\"kind\":\"queens\",\"first\":{first_column},\"rows\":[{}]}}",
            rows.iter()
                .map(|v| v.index().to_string())
                .collect::<Vec<_>>()
                .join(",")
        ),
        Board::Table => "{\"kind\":\"table\"}".to_owned(),
    };
    let _ = write!(out, "\"board\":{board},\"cut\":{}}}", tree.cut());
    out
}

/// The page: the tree (at most `budget` nodes drawn) beside the board of `board`.
///
/// Record the tree with domains ([`SearchTree::with_domains`]) for the page to show them;
/// without, it shows the model's domains with each path's decisions.
///
/// # Examples
///
/// ```
/// use cspkit::models::queens::Queens;
/// use cspkit::teach::html::{self, Board};
/// use cspkit::teach::tree::SearchTree;
///
/// let queens = Queens::new(4)?;
/// let mut tree = SearchTree::new(queens.model()).with_domains(true);
/// let _ = queens.model().solver().with_observer(&mut tree).next_solution();
/// let board = Board::Queens { rows: queens.rows().to_vec(), first_column: 1 };
/// let page = html::render(&tree, &board, "4-Queens", 400);
/// assert!(page.starts_with("<!DOCTYPE html>"));
/// assert!(!page.contains("http://") || page.contains("http://www.w3.org/2000/svg"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn render(tree: &SearchTree<'_>, board: &Board, title: &str, budget: usize) -> String {
    let picture = svg::render(tree, budget);
    let data = json_data(tree, board, title);
    let mut out = String::with_capacity(picture.len() + data.len() + PAGE.len());
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>");
    out.push_str(&escape(title));
    out.push_str("</title>\n<style>");
    out.push_str(PAGE_STYLE);
    out.push_str("</style></head>\n<body data-selected=\"0\">\n<header><h1>");
    out.push_str(&escape(title));
    out.push_str(
        "</h1><p>Click a node, or step with ← and → (search order).</p></header>\n\
         <main><section id=\"tree\">",
    );
    out.push_str(&picture);
    out.push_str(
        "</section>\n<aside><h2 id=\"label\"></h2><p id=\"status\"></p>\
         <div id=\"board\"></div><table id=\"domains\"></table></aside></main>\n<script>\nconst DATA = ",
    );
    out.push_str(&data);
    out.push_str(";\n");
    out.push_str(PAGE);
    out.push_str("</script>\n</body></html>\n");
    out
}

const PAGE_STYLE: &str = "
body { font-family: sans-serif; margin: 0 1em; color: #222 }
main { display: flex; gap: 1.5em; align-items: flex-start }
#tree { overflow: auto; max-width: 65vw; max-height: 85vh; border: 1px solid #ddd }
aside { min-width: 18em }
.point, .collapsed { cursor: pointer }
.selected circle, .selected polygon { stroke: #1f77b4; stroke-width: 3 }
table.board { border-collapse: collapse; margin: 0.5em 0 }
table.board td { width: 2em; height: 2em; text-align: center; border: 1px solid #999;
  font-size: 1.1em }
table.board td.candidates { font-size: 0.6em; color: #777 }
table.board td.dark { background: #eee }
table.board td.queen { color: #000; font-weight: bold }
table.board td.maybe { color: #1f77b4 }
#domains td { padding: 0 0.6em; font-size: 0.9em }
.failed-text { color: #d62728 } .solution-text { color: #2ca02c }
";

const PAGE: &str = r#"
const nodes = DATA.nodes;
let selected = 0;

function domainsAt(id) {
  const path = [];
  for (let n = id; n >= 0; n = nodes[n].p) path.push(n);
  const domains = DATA.initial.slice();
  for (const n of path.reverse()) for (const [v, d] of nodes[n].c) domains[v] = d;
  return domains;
}

function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

function drawBoard(domains) {
  const box = document.getElementById('board');
  box.textContent = '';
  const b = DATA.board;
  if (b.kind === 'grid') {
    const t = el('table', {class: 'board'});
    for (let r = 0; r * b.columns < b.cells.length; r++) {
      const tr = el('tr', {});
      for (let c = 0; c < b.columns; c++) {
        const d = domains[b.cells[r * b.columns + c]];
        const fixed = d.v && d.v.length === 1;
        tr.appendChild(el('td', {class: fixed ? 'value' : 'candidates'},
          fixed ? String(d.v[0]) : (d.v ? d.v.join(' ') : d.t)));
      }
      t.appendChild(tr);
    }
    box.appendChild(t);
  } else if (b.kind === 'queens') {
    const n = b.rows.length;
    const t = el('table', {class: 'board'});
    for (let r = 0; r < n; r++) {
      const d = domains[b.rows[r]];
      const tr = el('tr', {});
      for (let c = 0; c < n; c++) {
        const value = b.first + c;
        const has = d.v ? d.v.includes(value) : true;
        const fixed = d.v && d.v.length === 1 && has;
        const cls = ((r + c) % 2 ? 'dark ' : '') + (fixed ? 'queen' : has ? 'maybe' : '');
        tr.appendChild(el('td', {class: cls}, fixed ? '♛' : has ? '·' : ''));
      }
      t.appendChild(tr);
    }
    box.appendChild(t);
  }
}

function select(id) {
  if (id < 0 || id >= nodes.length) return;
  selected = id;
  document.body.dataset.selected = String(id);
  for (const g of document.querySelectorAll('.selected')) g.classList.remove('selected');
  const mark = document.querySelector('[data-id="' + id + '"]');
  if (mark) mark.classList.add('selected');
  const node = nodes[id];
  document.getElementById('label').textContent = 'node ' + id + ': ' + node.l;
  const status = document.getElementById('status');
  status.className = node.s + '-text';
  status.textContent = node.s === 'failed' ? 'failed: ' + node.r
    : node.s === 'solution' ? 'solution' : node.s === 'open' ? 'open' : 'branched';
  const domains = domainsAt(id);
  drawBoard(domains);
  const table = document.getElementById('domains');
  table.textContent = '';
  DATA.names.forEach((name, i) => {
    const tr = el('tr', {});
    tr.appendChild(el('td', {}, name));
    tr.appendChild(el('td', {class: 'domain'}, domains[i].t));
    table.appendChild(tr);
  });
}

document.addEventListener('keydown', (e) => {
  if (e.key === 'ArrowRight') { select(selected + 1); e.preventDefault(); }
  if (e.key === 'ArrowLeft') { select(selected - 1); e.preventDefault(); }
});
for (const g of document.querySelectorAll('[data-id]')) {
  g.addEventListener('click', () => select(Number(g.dataset.id)));
}

const start = /node=(\d+)/.exec(location.hash);
select(start ? Number(start[1]) : 0);
const keys = new URLSearchParams(location.search).get('keys') || '';
for (const k of keys) {
  const key = k === 'R' ? 'ArrowRight' : k === 'L' ? 'ArrowLeft' : '';
  if (key) document.dispatchEvent(new KeyboardEvent('keydown', {key}));
}
"#;
