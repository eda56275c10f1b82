//! The search tree as one self-contained HTML page, made to be read from the back of a
//! lecture room: the tree drawn to fit the window, with zoom and pan, the board and the domains
//! at the selected node, keys to walk the tree, auto-play, collapsible subtrees, and at a failed
//! node the variables that clash marked on the board; a click on a value struck out in the
//! domains shows why it was removed, as a chain of reasons back to the decisions (for the
//! first nodes, see `removals.rs`). A pixel tree of the whole search sits
//! above the tree, the nodes beyond `--tree-limit` included. No network, no external script:
//! the page carries its data, its style and its script, and opens in any browser.
//!
//! [`render_comparison`] puts the trees of several searches of one model side by side (two
//! columns; three or four panels in a 2 x 2 grid), each on a readable scale of its own, and
//! names where they part: a sentence for the first divergence, and the list of all of them,
//! largest subtree first, each a click (or `d`) away.
//!
//! # Readable on open
//!
//! The tree is laid out with each node as wide as its label in the page's 18 px font, so that
//! at scale 1 no two labels meet. The page opens on a picture a class can read from the back:
//! the whole tree when it fits the window that way; else the subtrees holding failures only
//! collapsed into triangles that count the nodes they hide (as Gecode's Gist draws them); else
//! also the largest other subtrees off the path to the first solution, as few as it takes. A
//! path deeper than the window has rows for (a binary search without propagation, such as a
//! Sudoku's 256 levels of `x = v` / `x ≠ v`) is folded in its middle: a dashed edge stands for
//! the levels left out, and selecting a node in them, or `e`, opens them. Every collapse or
//! expansion fits the tree to the window again. Zoomed out further, labels that would overlap
//! are left out, never drawn over each other.
//!
//! A search with conflict-directed backjumping has its jumps marked: at a failed node its
//! conflict set in the model's names, the decision the search went back to and the decisions
//! it jumped over; in the tree a dashed arc from the failure back to that decision and the
//! decisions jumped over in grey (their tooltip: they had nothing to do with the failure),
//! with a legend under the tree. Zoomed far out, or with more jumps in the window than the
//! page draws, only the selected failure's arc is drawn. The notes at a failed node sit in one
//! object per node in the page's data, so other notes on a failure can join them.
//!
//! A search that learns ([`SearchConfig::with_learning`](crate::SearchConfig::with_learning))
//! has at each failed node the nogood learned there, in the model's names ("learned: never
//! r1c2 = 4 with r1c8 = 4"), with how often it removed a value and failed a node afterwards;
//! under the tree, the nogoods used most, wherever they were learned (the search they saved),
//! each a link to its failure when that node is drawn.
//!
//! The tree is drawn on a canvas, nodes outside the window skipped, so that a tree of 100,000
//! nodes opens in about a second and pans smoothly.
//!
//! # Keys
//!
//! | key | does |
//! |---|---|
//! | ← → | previous / next node in search order |
//! | ↑ ↓ | parent / first child |
//! | `[` `]` | previous / next sibling |
//! | `f` `F` | next / previous failure |
//! | `s` `S` | next / previous solution |
//! | `c` | collapse or expand the selected subtree |
//! | `x` `e` | collapse every failed subtree / expand all |
//! | `r` | the readable view the page opened on |
//! | space | play or pause (search order, at the speed of the slider) |
//! | `+` `-` `0` | zoom in, zoom out, fit to the window |
//! | Home | the root |
//! | `d` `D` | next / previous divergence, largest first (comparison pages) |
//! | `t` | keys move every panel in step, or the active one (comparison pages) |
//! | `g` | each panel on its own scale, or all on one (comparison pages) |
//! | `b` | show or hide the boards and domains beside the trees (comparison pages) |
//!
//! For scripted use (tests, screenshots), the page reads its address: a fragment `#node=N`
//! selects node `N` on load, and a query `?keys=…` replays keys through the page's own handler
//! (`R` `L` `U` `D` for the arrows, `H` for Home, `_` for space, any other character as
//! itself), in the first panel or in the panel `?panel=K`. The page writes its state on the
//! `body` element's `data-` attributes (selected node, scale, nodes drawn, the selected node's
//! place on the screen, the tree's extent, the label boxes drawn and how many overlap, nodes
//! drawn without a label, levels folded, divergences, load time) for the same tests;
//! `?together=no` starts a comparison page with keys moving one panel.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::svg::escape_xml;
use super::tree::{LearnedMark, NodeStatus, SearchTree};
use crate::domain::Domain;
use crate::ids::VarId;
use crate::search::learning::describe_nogood;
use crate::search::observer::BranchKind;
use crate::search::stats::SearchStats;

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
    /// A model's own arrays (FlatZinc's output arrays): each drawn as a row of cells (one
    /// index set) or a grid (two; more are drawn as rows of the last), a fixed cell with its
    /// value and an open one with its candidates.
    Arrays(Vec<BoardArray>),
}

/// One array of a [`Board::Arrays`].
#[derive(Debug, Clone)]
pub struct BoardArray {
    /// The array's name.
    pub name: String,
    /// Cells per row (the length of the last index set).
    pub columns: usize,
    /// The cells, row by row; `None` for a constant.
    pub cells: Vec<Option<VarId>>,
    /// The value of each constant cell, by position (a given number of a puzzle); empty, or
    /// as long as `cells`. A constant without a value is drawn `·`.
    pub constants: Vec<Option<i64>>,
}

/// One search of a comparison page ([`render_comparison`]).
#[derive(Debug, Clone, Copy)]
pub struct Panel<'a> {
    /// The tree the search made.
    pub tree: &'a SearchTree<'a>,
    /// How to draw the puzzle.
    pub board: &'a Board,
    /// The panel's heading, such as the strategy's name.
    pub title: &'a str,
    /// A line of statistics under the heading.
    pub stats: &'a str,
}

/// A JSON string literal, safe inside a `<script>` element.
pub(crate) fn json_string(text: &str) -> String {
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

/// A domain of `var` for the page: its text (with the names of its values, if they have
/// some), and its values when they are few enough to draw.
fn json_var_domain(model: &crate::Model, var: VarId, domain: &Domain) -> String {
    if !model.has_value_names(var) {
        return json_domain(domain);
    }
    let values = if domain.size() <= 64 {
        let list: Vec<String> = domain.iter().map(|v| v.to_string()).collect();
        format!("[{}]", list.join(","))
    } else {
        "null".to_owned()
    };
    format!(
        "{{\"t\":{},\"v\":{values}}}",
        json_string(&model.domain_text(var, domain))
    )
}

/// The names of the variables' values, for the page: `"valueNames"`, the index of each
/// variable's names in `"enums"` (or `null`), and `"enums"`, each `[first, [names]]`.
fn json_value_names(out: &mut String, model: &crate::Model) {
    let mut enums: Vec<(i32, &std::sync::Arc<[Box<str>]>)> = Vec::new();
    let mut of_var = Vec::with_capacity(model.num_variables());
    for var in model.variables() {
        of_var.push(match model.value_names_of(var) {
            None => "null".to_owned(),
            Some((first, names)) => {
                let at = enums
                    .iter()
                    .position(|&(f, n)| f == first && std::sync::Arc::ptr_eq(n, names))
                    .unwrap_or_else(|| {
                        enums.push((first, names));
                        enums.len() - 1
                    });
                at.to_string()
            }
        });
    }
    if enums.is_empty() {
        return;
    }
    let _ = write!(out, "\"valueNames\":[{}],", of_var.join(","));
    let list: Vec<String> = enums
        .iter()
        .map(|(first, names)| {
            let names: Vec<String> = names.iter().map(|n| json_string(n)).collect();
            format!("[{first},[{}]]", names.join(","))
        })
        .collect();
    let _ = write!(out, "\"enums\":[{}],", list.join(","));
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

/// Distinct JSON values, each numbered in the order first met: the page refers to repeated
/// labels, reasons and domains by number.
#[derive(Default)]
struct Distinct {
    numbers: HashMap<String, usize>,
    items: Vec<String>,
}

impl Distinct {
    fn number(&mut self, json: String) -> usize {
        if let Some(&n) = self.numbers.get(&json) {
            return n;
        }
        let n = self.items.len();
        self.items.push(json.clone());
        self.numbers.insert(json, n);
        n
    }
}

/// Writes `"name":[items],`.
fn json_array<T: std::fmt::Display>(out: &mut String, name: &str, items: impl Iterator<Item = T>) {
    let _ = write!(out, "\"{name}\":[");
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{item}");
    }
    out.push_str("],");
}

/// The one-letter code of a node's status on the page.
fn status_code(status: NodeStatus) -> char {
    match status {
        NodeStatus::Inner => 'i',
        NodeStatus::Failed { .. } => 'f',
        NodeStatus::Solution => 's',
        NodeStatus::Open => 'o',
    }
}

/// A panel's data: variables, domains, nodes (as columns of equal length), the scopes of the
/// constraints that failed, the board and the overview.
fn json_panel(panel: &Panel<'_>) -> String {
    let tree = panel.tree;
    let model = tree.model();
    let nodes = tree.nodes();
    let mut out = String::from("{");
    let _ = write!(
        out,
        "\"title\":{},\"stats\":{},",
        json_string(panel.title),
        json_string(panel.stats)
    );
    json_array(
        &mut out,
        "names",
        model.variables().map(|v| json_string(&model.var_name(v))),
    );
    let mut domains = Distinct::default();
    let initial: Vec<usize> = model
        .variables()
        .zip(model.initial_domains())
        .map(|(var, d)| domains.number(json_var_domain(model, var, d)))
        .collect();
    json_value_names(&mut out, model);
    json_array(&mut out, "initial", initial.iter());
    let mut reasons = Distinct::default();
    let reason: Vec<i64> = nodes
        .iter()
        .enumerate()
        .map(|(id, node)| match node.status {
            NodeStatus::Failed { .. } => {
                reasons.number(json_string(&tree.reason(id as u64))) as i64
            }
            _ => -1,
        })
        .collect();
    json_array(
        &mut out,
        "parent",
        nodes.iter().map(|n| n.parent.map_or(-1, |p| p as i64)),
    );
    json_array(
        &mut out,
        "var",
        nodes
            .iter()
            .map(|n| n.branch.map_or(-1, |b| b.var.index() as i64)),
    );
    json_array(
        &mut out,
        "value",
        nodes.iter().map(|n| n.branch.map_or(0, |b| b.value)),
    );
    let status: String = nodes.iter().map(|n| status_code(n.status)).collect();
    let _ = write!(out, "\"status\":\"{status}\",");
    json_array(&mut out, "reason", reason.iter());
    let mut failing = Vec::new();
    let failure = |n: &super::tree::TreeNode| match n.status {
        NodeStatus::Failed { constraint, var } => (constraint, var),
        _ => (None, None),
    };
    json_array(
        &mut out,
        "emptied",
        nodes
            .iter()
            .map(|n| failure(n).1.map_or(-1, |v| v.index() as i64)),
    );
    json_array(
        &mut out,
        "constraint",
        nodes.iter().map(|n| {
            failure(n).0.map_or(-1, |c| {
                failing.push(c);
                c.index() as i64
            })
        }),
    );
    // The branch's kind: 1 `=`, 2 `≠`, 3 `≤`, 4 `>` (0 for the root).
    json_array(
        &mut out,
        "kind",
        nodes.iter().map(|n| match n.branch.map(|b| b.kind) {
            None => 0,
            Some(BranchKind::Equal) => 1,
            Some(BranchKind::NotEqual) => 2,
            Some(BranchKind::AtMost) => 3,
            Some(BranchKind::Above) => 4,
        }),
    );
    json_array(
        &mut out,
        "changes",
        nodes.iter().map(|n| {
            let pairs: Vec<String> = n
                .changes
                .iter()
                .map(|(var, domain)| {
                    let json = json_var_domain(model, *var, domain);
                    format!("{},{}", var.index(), domains.number(json))
                })
                .collect();
            format!("[{}]", pairs.join(","))
        }),
    );
    let _ = write!(out, "\"recorded\":{},", tree.has_domains());
    // Why each value struck out at a node left (clicking it shows the chain).
    out.push_str(&super::removals::json(tree));
    if tree.has_domains() {
        json_array(
            &mut out,
            "cnames",
            model
                .constraints()
                .map(|(id, _)| json_string(model.constraint_name(id))),
        );
    }
    json_array(&mut out, "reasons", reasons.items.iter());
    json_array(&mut out, "domains", domains.items.iter());
    // The clashing variables of each failed node, by node id.
    let clashes: Vec<String> = nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| matches!(n.status, NodeStatus::Failed { .. }))
        .filter_map(|(id, _)| {
            let clash = tree.clash(id as u64);
            (!clash.is_empty()).then(|| {
                let vars: Vec<String> = clash.iter().map(|v| v.index().to_string()).collect();
                format!("\"{id}\":[{}]", vars.join(","))
            })
        })
        .collect();
    let _ = write!(out, "\"clash\":{{{}}},", clashes.join(","));
    out.push_str(&json_failure_notes(tree));
    failing.sort_unstable();
    failing.dedup();
    let scopes: Vec<String> = failing
        .iter()
        .filter_map(|&c| {
            let (_, constraint) = model.constraints().nth(c.index())?;
            let vars: Vec<String> = constraint
                .scope()
                .iter()
                .map(|v| v.index().to_string())
                .collect();
            Some(format!("\"{}\":[{}]", c.index(), vars.join(",")))
        })
        .collect();
    let _ = write!(out, "\"scopes\":{{{}}},", scopes.join(","));
    let board = match panel.board {
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
        Board::Arrays(arrays) => {
            let list: Vec<String> = arrays
                .iter()
                .map(|a| {
                    let cells: Vec<String> = a
                        .cells
                        .iter()
                        .map(|c| c.map_or(-1, |v| v.index() as i64).to_string())
                        .collect();
                    let constants: Vec<String> = a
                        .constants
                        .iter()
                        .map(|c| c.map_or_else(|| "null".to_owned(), |v| v.to_string()))
                        .collect();
                    format!(
                        "{{\"name\":{},\"columns\":{},\"cells\":[{}],\"constants\":[{}]}}",
                        json_string(&a.name),
                        a.columns.max(1),
                        cells.join(","),
                        constants.join(",")
                    )
                })
                .collect();
            format!("{{\"kind\":\"arrays\",\"arrays\":[{}]}}", list.join(","))
        }
    };
    let overview = tree.overview();
    let columns: Vec<String> = overview
        .columns()
        .iter()
        .map(|cells| {
            let digits: String = cells.iter().map(|&f| char::from(b'0' + f)).collect();
            format!("\"{digits}\"")
        })
        .collect();
    let _ = write!(
        out,
        "\"board\":{board},\"total\":{},\"overview\":{{\"width\":{},\"columns\":[{}]}}}}",
        nodes.len() as u64 + tree.cut(),
        overview.column_width(),
        columns.join(",")
    );
    out
}

/// What the page shows at each failed node beyond its reason, by node id: an object per
/// failed node with a field per kind of note: `"backjump"` (its conflict set as variable
/// indices, the node of the decision the search went back to, -1 if none, and the nodes of
/// the decisions jumped over, deepest first) and `"learned"` (the nogood learned there, in
/// the model's names, and how often it removed a value and failed a node afterwards). Then
/// `"nogoods"`: the [`MOST_USED_NOGOODS`] nogoods used most, wherever they were learned,
/// most used first, each with the node it was learned at.
fn json_failure_notes(tree: &SearchTree<'_>) -> String {
    let mut notes: std::collections::BTreeMap<u64, Vec<String>> = Default::default();
    let mut jumps: Vec<(u64, String)> = Vec::new();
    for jump in tree.backjumps() {
        let conflict: Vec<String> = jump
            .conflict
            .iter()
            .map(|v| v.index().to_string())
            .collect();
        let skipped: Vec<String> = jump.skipped.iter().map(u64::to_string).collect();
        let note = format!(
            "\"backjump\":{{\"conflict\":[{}],\"to\":{},\"skipped\":[{}]}}",
            conflict.join(","),
            jump.to.map_or(-1, |to| to as i64),
            skipped.join(",")
        );
        // A node's last jump wins (one per failure in the engine).
        match jumps.last_mut() {
            Some((node, text)) if *node == jump.node => *text = note,
            _ => jumps.push((jump.node, note)),
        }
    }
    for (node, note) in jumps {
        notes.entry(node).or_default().push(note);
    }
    let learned = |mark: &LearnedMark| {
        format!(
            "{{\"text\":{},\"removals\":{},\"failures\":{}}}",
            json_string(&describe_nogood(tree.model(), &mark.nogood)),
            mark.removals,
            mark.failures
        )
    };
    let recorded = tree.nodes().len() as u64;
    for mark in tree.learned().iter().filter(|mark| mark.node < recorded) {
        notes
            .entry(mark.node)
            .or_default()
            .push(format!("\"learned\":{}", learned(mark)));
    }
    let items: Vec<String> = notes
        .iter()
        .map(|(node, fields)| format!("\"{node}\":{{{}}}", fields.join(",")))
        .collect();
    let mut used: Vec<&LearnedMark> = tree.learned().iter().filter(|m| m.uses() > 0).collect();
    used.sort_by_key(|mark| (std::cmp::Reverse(mark.uses()), mark.node));
    let most: Vec<String> = used
        .iter()
        .take(MOST_USED_NOGOODS)
        .map(|mark| format!("{{\"node\":{},\"nogood\":{}}}", mark.node, learned(mark)))
        .collect();
    format!(
        "\"notes\":{{{}}},\"nogoods\":[{}],\"learnedCount\":{},",
        items.join(","),
        most.join(","),
        tree.learned().len()
    )
}

/// How many of the most used learned nogoods a page lists.
const MOST_USED_NOGOODS: usize = 20;

/// The page: the tree beside the board of `board`, under `title`.
///
/// Record the tree with domains ([`SearchTree::with_domains`]) for the page to show them;
/// without, it shows the model's domains.
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
/// let page = html::render(&tree, &board, "4-Queens");
/// assert!(page.starts_with("<!DOCTYPE html>"));
/// assert!(!page.contains("http://") && !page.contains("https://"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn render(tree: &SearchTree<'_>, board: &Board, title: &str) -> String {
    let panel = Panel {
        tree,
        board,
        title: "",
        stats: "",
    };
    page(title, &[panel])
}

/// One page with the trees of several searches of the same model side by side, each with its
/// heading, its statistics and its own board, each on a readable scale of its own (one scale
/// for all on a key); the nodes where the trees part (matched by their decisions from the
/// root down) are named in a sentence and a list, largest subtree first, and marked in each.
///
/// # Examples
///
/// ```
/// use cspkit::models::queens::Queens;
/// use cspkit::teach::html::{self, Board, Panel};
/// use cspkit::teach::tree::SearchTree;
/// use cspkit::{Descending, PropagationLevel};
///
/// let queens = Queens::new(5)?;
/// let model = queens.model();
/// let mut ascending = SearchTree::new(model).with_domains(true);
/// let _ = model.solver().with_observer(&mut ascending).next_solution();
/// let mut descending = SearchTree::new(model).with_domains(true);
/// let _ = model
///     .solver()
///     .with_value_order(Descending)
///     .with_observer(&mut descending)
///     .next_solution();
/// let board = Board::Queens { rows: queens.rows().to_vec(), first_column: 1 };
/// let page = html::render_comparison(
///     "5-Queens, two value orders",
///     &[
///         Panel { tree: &ascending, board: &board, title: "ascending", stats: "" },
///         Panel { tree: &descending, board: &board, title: "descending", stats: "" },
///     ],
/// );
/// assert!(page.contains("\"title\":\"descending\""));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn render_comparison(title: &str, panels: &[Panel<'_>]) -> String {
    page(title, panels)
}

/// The title `cspkit ... --tree page.html` gives the page of `tree`: how many tree nodes it
/// holds, and of how many when the tree was cut at its limit. For a program that draws the
/// same page ([`render`]) and wants the same words.
///
/// # Examples
///
/// ```
/// use cspkit::models::queens::Queens;
/// use cspkit::teach::html;
/// use cspkit::teach::tree::SearchTree;
///
/// let queens = Queens::new(4)?;
/// let mut tree = SearchTree::new(queens.model()).with_limit(5);
/// let _ = queens.model().solver().with_observer(&mut tree).count();
/// assert!(html::tree_title(&tree).starts_with("cspkit: the search tree (the first 5 of "));
/// let root = SearchTree::new(queens.model());
/// assert_eq!(html::tree_title(&root), "cspkit: the search tree (1 tree node)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn tree_title(tree: &SearchTree<'_>) -> String {
    let held = tree.nodes().len() as u64;
    if tree.cut() > 0 {
        format!(
            "cspkit: the search tree (the first {} of {} tree nodes)",
            held,
            held + tree.cut()
        )
    } else {
        format!(
            "cspkit: the search tree ({})",
            super::sentences::counted(held, "tree node")
        )
    }
}

/// The line of statistics under a panel's heading on the page `cspkit compare ... --tree
/// page.html` writes ([`Panel::stats`]): how the run ended (`done`, or the limit that stopped
/// it), then its decisions, tree nodes, failures and solutions.
///
/// # Examples
///
/// ```
/// use cspkit::models::queens::Queens;
/// use cspkit::teach::html;
///
/// let queens = Queens::new(4)?;
/// let mut solver = queens.model().solver();
/// assert_eq!(solver.count().solutions, 2);
/// let line = html::panel_stats(&solver.stats(), "done");
/// assert!(line.starts_with("done; decisions "));
/// assert!(line.ends_with(", solutions 2"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn panel_stats(stats: &SearchStats, status: &str) -> String {
    format!(
        "{}; decisions {}, tree nodes {}, failures {}, solutions {}",
        status,
        stats.decisions,
        stats.tree_nodes(),
        stats.failures,
        stats.solutions
    )
}

/// The start of a self-contained page: its head, titled `title` with the style sheet `style`,
/// then `<body>` with `body_attributes` and the header's title; `extra` more bytes reserved.
pub(crate) fn page_start(extra: usize, title: &str, style: &str, body_attributes: &str) -> String {
    let mut out = String::with_capacity(extra + style.len() + 512);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str("<title>");
    out.push_str(&escape_xml(title));
    out.push_str("</title>\n<style>");
    out.push_str(style);
    out.push_str("</style></head>\n<body ");
    out.push_str(body_attributes);
    out.push_str(">\n<header><h1>");
    out.push_str(&escape_xml(title));
    out.push_str("</h1>");
    out
}

fn page(title: &str, panels: &[Panel<'_>]) -> String {
    let data: Vec<String> = panels.iter().map(json_panel).collect();
    let data_len: usize = data.iter().map(String::len).sum();
    let mut out = page_start(
        data_len + SCRIPT.len() + 4096,
        title,
        STYLE,
        "data-selected=\"0\"",
    );
    out.push_str(TOOLBAR);
    out.push_str("</header>\n<section id=\"divergences\"></section>\n<main id=\"panels\"></main>\n<script>\nconst PANELS = [");
    out.push_str(&data.join(",\n"));
    out.push_str("];\n");
    out.push_str(SCRIPT);
    out.push_str(WHY_SCRIPT);
    out.push_str("</script>\n</body></html>\n");
    out
}

const TOOLBAR: &str = "<nav id=\"toolbar\">\
<button id=\"fit\" title=\"fit to the window (0)\">Fit</button>\
<button id=\"zoom-in\" title=\"zoom in (+)\">+</button>\
<button id=\"zoom-out\" title=\"zoom out (-)\">−</button>\
<button id=\"play\" title=\"play or pause (space)\">▶ Play</button>\
<label>speed <input id=\"speed\" type=\"range\" min=\"1\" max=\"30\" value=\"4\"></label>\
<button id=\"collapse-failed\" title=\"collapse every failed subtree (x)\">Collapse failed</button>\
<button id=\"expand-all\" title=\"expand all (e)\">Expand all</button>\
<button id=\"readable\" title=\"the readable view the page opened on (r)\">Readable</button>\
<button id=\"together\" title=\"keys move every panel or the active one (t)\">Keys: all panels</button>\
<button id=\"shared\" title=\"each panel on its own scale or all on one (g)\">Scale: own</button>\
<button id=\"boards\" title=\"show or hide the boards and domains (b)\">Boards</button>\
<span class=\"keys\">← → search order · ↑ ↓ parent, child · [ ] siblings · f F failures · \
s S solutions · c collapse · d divergences</span></nav>";

const STYLE: &str = include_str!("page/tree_page.css");

const SCRIPT: &str = include_str!("page/tree_page.js");

/// Clicking a struck-out value in the domains panel: its chain of reasons.
const WHY_SCRIPT: &str = include_str!("page/why_removed.js");
