//! AC-3 on a drawing of the constraint graph, as one self-contained HTML page: the variables
//! as nodes with their domains, the binary constraints as edges, and the search stepped
//! through one event at a time (each branch, each run of AC-3 with its queue, each REVISE with
//! the values it removes, each failure and solution), the arc being revised drawn as an arrow
//! from `Xi` to `Xj`, with keys and auto-play. No network, no external script.
//!
//! [`Ac3Recorder`] watches a search made with [`Propagation::Ac3`]; [`render`] draws what it
//! recorded.
//!
//! # Keys
//!
//! | key | does |
//! |---|---|
//! | ← → | previous / next step |
//! | `r` | next revision that removes values |
//! | `b` | next branch (decision or refutation) |
//! | `f` `s` | next failure / solution |
//! | space | play or pause, at the speed of the slider |
//! | Home End | the first / last step |
//!
//! For scripted use (tests, screenshots) the page reads its address as the tree page does: a
//! fragment `#step=N` selects step `N` on load, and a query `?keys=…` replays keys (`R` `L`
//! for the arrows, `H` `E` for Home and End, `_` for space, any other character as itself).
//! It writes its state on the `body` element's `data-` attributes: the step shown
//! (`data-step`), its kind (`data-kind`), the arc highlighted (`data-arc`, `Xi,Xj` by name),
//! whether it plays (`data-playing`).
//!
//! [`Propagation::Ac3`]: crate::Propagation::Ac3

use std::fmt::Write as _;

use super::html::{json_string, page_start};
use super::replay::Replay;
use super::sentences;
use crate::domain::Domain;
use crate::ids::VarId;
use crate::model::Model;
use crate::search::constraint_graph::ConstraintGraph;
use crate::search::observer::{BranchKind, Event, SearchObserver};

/// Where the nodes of the graph go on the page.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum GraphLayout {
    /// Evenly on a circle, in variable order (clockwise from the top).
    Circle,
    /// On a grid, row by row, `columns` per row (a Sudoku's cells).
    Grid {
        /// Nodes per row.
        columns: usize,
    },
    /// At the given points, one per variable in variable order (`x` right, `y` down, any
    /// scale: the page fits them to the window); missing points go on a circle.
    Points(Vec<(f64, f64)>),
    /// In columns by distance in the constraint graph, left to right: each connected part
    /// from its first variable (a map listed west to east reads as the map), each column
    /// ordered after its neighbours in the column before.
    Layered,
}

/// One step of the page.
#[derive(Debug, Clone)]
struct Step {
    kind: &'static str,
    text: String,
    depth: usize,
    arc: Option<(VarId, VarId)>,
    /// The variable of a branch.
    branched: Option<VarId>,
    removed: Vec<i32>,
    /// The queue after the step (its first [`QUEUE_SHOWN`] arcs) and its length.
    queue: Vec<(VarId, VarId)>,
    queue_len: usize,
    /// The domains the step changed, as they are after it.
    changes: Vec<(VarId, Domain)>,
}

/// The arcs of a queue written in the page.
const QUEUE_SHOWN: usize = 40;

/// Records a search made with AC-3 for [`render`]: every branch, run of AC-3, revision,
/// failure and solution, with the domains each changes, up to a limit of steps.
///
/// # Examples
///
/// ```
/// use cspkit::models::colouring::Colouring;
/// use cspkit::teach::graph_page::{self, Ac3Recorder, GraphLayout};
/// use cspkit::{Propagation, SearchConfig};
///
/// let australia = Colouring::australia(3)?;
/// let model = australia.model();
/// let mut recorder = Ac3Recorder::new(model);
/// let ac3 = SearchConfig::new().with_propagation(Propagation::Ac3);
/// let mut solver = model.solver_with(ac3)?.with_observer(&mut recorder);
/// assert!(solver.next_solution().is_solved());
/// drop(solver);
/// let page = graph_page::render(model, &recorder, &GraphLayout::Circle, "Australia")?;
/// assert!(page.contains("revise(NT, WA): removed 1"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Ac3Recorder<'m> {
    model: &'m Model,
    replay: Replay,
    current: Vec<Domain>,
    steps: Vec<Step>,
    limit: usize,
    cut: u64,
    depth: usize,
}

impl<'m> Ac3Recorder<'m> {
    /// The default limit on the steps recorded.
    pub const DEFAULT_LIMIT: usize = 20_000;

    /// A recorder for searches of `model`.
    pub fn new(model: &'m Model) -> Self {
        Ac3Recorder {
            model,
            replay: Replay::new(model),
            current: model.initial_domains().to_vec(),
            steps: Vec::new(),
            limit: Self::DEFAULT_LIMIT,
            cut: 0,
            depth: 0,
        }
    }

    /// Records at most `steps` steps; the others are counted.
    pub fn with_limit(mut self, steps: usize) -> Self {
        self.limit = steps;
        self
    }

    /// The steps recorded.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether no step was recorded.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The steps left out past the limit.
    pub fn cut(&self) -> u64 {
        self.cut
    }

    /// The lines of the steps, as the page writes them (`revise(WA, NT): removed 1`).
    pub fn lines(&self) -> impl Iterator<Item = &str> {
        self.steps.iter().map(|s| s.text.as_str())
    }

    fn push(&mut self, step: Step) {
        if self.steps.len() < self.limit {
            self.steps.push(step);
        } else {
            self.cut += 1;
        }
    }

    fn step(&self, kind: &'static str, text: String) -> Step {
        Step {
            kind,
            text,
            depth: self.depth,
            arc: None,
            branched: None,
            removed: Vec::new(),
            queue: Vec::new(),
            queue_len: 0,
            changes: Vec::new(),
        }
    }

    /// Records the change of `var` to `domain` on the last step.
    fn changed(&mut self, var: VarId, domain: &Domain) {
        self.current[var.index()].clone_from(domain);
        if self.cut == 0
            && let Some(last) = self.steps.last_mut()
        {
            last.changes.push((var, domain.clone()));
        }
    }
}

impl SearchObserver for Ac3Recorder<'_> {
    /// The 0.2 way to feed an event, kept for callers that still do: the same as `on_event`.
    #[allow(
        deprecated,
        reason = "forwards the deprecated method of 0.2 to `on_event`"
    )]
    fn event(&mut self, event: &Event<'_>) {
        self.on_event(event);
    }

    fn observes_propagation(&self) -> bool {
        true
    }

    fn on_event(&mut self, event: &Event<'_>) {
        self.replay.observe(event);
        match *event {
            Event::Node {
                var,
                value,
                kind,
                depth,
                ..
            } => {
                self.depth = depth;
                let text = sentences::branch(self.model, var, kind, value);
                let kind = if matches!(kind, BranchKind::Equal | BranchKind::AtMost) {
                    "decision"
                } else {
                    "refutation"
                };
                let mut step = self.step(kind, text);
                step.branched = Some(var);
                self.push(step);
                // The branch's domains: the parent's, narrowed by the branch.
                let now = self.replay.current().to_vec();
                for (i, domain) in now.iter().enumerate() {
                    if *domain != self.current[i] {
                        let var = VarId {
                            model: var.model,
                            index: i as u32,
                        };
                        self.changed(var, domain);
                    }
                }
            }
            Event::ArcQueue { arcs, .. } => {
                let mut step = self.step("queue", String::new());
                step.text = format!(
                    "AC-3 starts: {} queued",
                    sentences::counted(arcs.len() as u64, "arc")
                );
                step.queue = arcs.iter().take(QUEUE_SHOWN).copied().collect();
                step.queue_len = arcs.len();
                self.push(step);
            }
            Event::Revise {
                from,
                to,
                removed,
                queue,
                ..
            } => {
                let text = sentences::revise(self.model, from, to, removed);
                let mut step = self.step("revise", text);
                step.arc = Some((from, to));
                step.removed = removed.to_vec();
                step.queue = queue.iter().take(QUEUE_SHOWN).copied().collect();
                step.queue_len = queue.len();
                self.push(step);
            }
            Event::Pruned { var, after, .. } => self.changed(var, after),
            Event::Propagated { domains, .. } => {
                // Every change was seen; this keeps the record exact all the same.
                for (i, domain) in domains.iter().enumerate() {
                    if *domain != self.current[i] {
                        let var = VarId {
                            model: self.model.id(),
                            index: i as u32,
                        };
                        self.changed(var, domain);
                    }
                }
            }
            Event::Failure { var, .. } => {
                let text = match var {
                    Some(var) => format!("✗ {}", sentences::no_value_left(self.model, var, None)),
                    None => "✗ failure".to_owned(),
                };
                let step = self.step("failure", text);
                self.push(step);
            }
            Event::Solution { .. } => {
                let step = self.step("solution", sentences::SOLUTION.to_owned());
                self.push(step);
            }
            Event::Improved { .. }
            | Event::Backtrack { .. }
            | Event::Backjump { .. }
            | Event::Learned { .. }
            | Event::NogoodUsed { .. } => {}
        }
    }
}

/// The page of `recorder`'s search of `model`, its nodes placed by `layout`, with the title
/// `title`.
///
/// # Errors
///
/// [`ModelError::NotForAc3`](crate::ModelError::NotForAc3) if `model` has no constraint
/// graph (see [`ConstraintGraph::new`]).
pub fn render(
    model: &Model,
    recorder: &Ac3Recorder<'_>,
    layout: &GraphLayout,
    title: &str,
) -> Result<String, crate::ModelError> {
    let graph = ConstraintGraph::new(model)?;
    let ids: Vec<VarId> = model.variables().collect();
    let points = positions(layout, &ids, &graph);
    let mut data = String::with_capacity(4096 + recorder.steps.len() * 64);
    let _ = write!(
        data,
        "{{\"grid\":{},\"vars\":[",
        matches!(layout, GraphLayout::Grid { .. })
    );
    for (i, var) in model.variables().enumerate() {
        if i > 0 {
            data.push(',');
        }
        let (x, y) = points[i];
        let _ = write!(
            data,
            "{{\"name\":{},\"x\":{x:.4},\"y\":{y:.4},\"d\":{}}}",
            json_string(&model.var_name(var)),
            values(model.domain(var))
        );
    }
    data.push_str("],\"edges\":[");
    let edges: Vec<String> = graph
        .edges()
        .map(|(x, y)| {
            let names: Vec<String> = graph
                .constraints_between(x, y)
                .into_iter()
                .map(|c| model.constraint_name(c).to_owned())
                .collect();
            format!(
                "[{},{},{}]",
                x.index(),
                y.index(),
                json_string(&names.join(", "))
            )
        })
        .collect();
    data.push_str(&edges.join(","));
    data.push_str("],\"steps\":[");
    for (k, step) in recorder.steps.iter().enumerate() {
        if k > 0 {
            data.push_str(",\n");
        }
        let _ = write!(
            data,
            "{{\"k\":\"{}\",\"t\":{},\"d\":{}",
            step.kind,
            json_string(&step.text),
            step.depth
        );
        if let Some((x, y)) = step.arc {
            let _ = write!(data, ",\"a\":[{},{}]", x.index(), y.index());
        }
        if let Some(var) = step.branched {
            let _ = write!(data, ",\"b\":{}", var.index());
        }
        if !step.removed.is_empty() {
            let list: Vec<String> = step.removed.iter().map(ToString::to_string).collect();
            let _ = write!(data, ",\"r\":[{}]", list.join(","));
        }
        if step.kind == "queue" || step.kind == "revise" {
            let list: Vec<String> = step
                .queue
                .iter()
                .map(|(x, y)| format!("[{},{}]", x.index(), y.index()))
                .collect();
            let _ = write!(
                data,
                ",\"q\":[{}],\"ql\":{}",
                list.join(","),
                step.queue_len
            );
        }
        if !step.changes.is_empty() {
            let list: Vec<String> = step
                .changes
                .iter()
                .map(|(var, d)| format!("[{},{}]", var.index(), values(d)))
                .collect();
            let _ = write!(data, ",\"c\":[{}]", list.join(","));
        }
        data.push('}');
    }
    let _ = write!(data, "],\"cut\":{}}}", recorder.cut);

    let mut out = page_start(
        data.len() + SCRIPT.len() + 4096,
        title,
        STYLE,
        "data-step=\"0\"",
    );
    out.push_str(TOOLBAR);
    out.push_str(
        "</header>\n<main><svg id=\"graph\" role=\"img\" aria-label=\"the constraint graph\">\
         </svg><aside id=\"side\"><div id=\"step-text\"></div><div id=\"step-count\"></div>\
         <h2>Queue</h2><ol id=\"queue\"></ol><h2>Steps</h2><ol id=\"log\"></ol></aside>\
         </main>\n<script>\nconst DATA = ",
    );
    out.push_str(&data);
    out.push_str(";\n");
    out.push_str(SCRIPT);
    out.push_str("</script>\n</body></html>\n");
    Ok(out)
}

/// A domain's values as a JSON array (its first 64 values, for a wide one).
fn values(domain: &Domain) -> String {
    let list: Vec<String> = domain.iter().take(64).map(|v| v.to_string()).collect();
    format!("[{}]", list.join(","))
}

/// The nodes' positions in the unit square.
fn positions(layout: &GraphLayout, ids: &[VarId], graph: &ConstraintGraph) -> Vec<(f64, f64)> {
    let n = ids.len();
    let circle = |i: usize| {
        let angle = std::f64::consts::TAU * i as f64 / n.max(1) as f64;
        (0.5 + 0.45 * angle.sin(), 0.5 - 0.45 * angle.cos())
    };
    let raw: Vec<(f64, f64)> = match layout {
        GraphLayout::Circle => (0..n).map(circle).collect(),
        GraphLayout::Grid { columns } => {
            let columns = (*columns).max(1);
            (0..n)
                .map(|i| ((i % columns) as f64, (i / columns) as f64))
                .collect()
        }
        GraphLayout::Points(points) => (0..n)
            .map(|i| points.get(i).copied().unwrap_or_else(|| circle(i)))
            .collect(),
        GraphLayout::Layered => layered(ids, graph),
    };
    // Fitted to the unit square, keeping the proportions.
    let finite = |v: f64| if v.is_finite() { v } else { 0.0 };
    let (mut low_x, mut low_y, mut high_x, mut high_y) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for &(x, y) in &raw {
        let (x, y) = (finite(x), finite(y));
        low_x = low_x.min(x);
        low_y = low_y.min(y);
        high_x = high_x.max(x);
        high_y = high_y.max(y);
    }
    let span = (high_x - low_x).max(high_y - low_y);
    if raw.is_empty() || span <= 0.0 {
        return raw.iter().map(|_| (0.5, 0.5)).collect();
    }
    let (pad_x, pad_y) = (
        (span - (high_x - low_x)) / 2.0,
        (span - (high_y - low_y)) / 2.0,
    );
    raw.iter()
        .map(|&(x, y)| {
            (
                (finite(x) - low_x + pad_x) / span,
                (finite(y) - low_y + pad_y) / span,
            )
        })
        .collect()
}

/// The [`GraphLayout::Layered`] points: column = distance from the first variable of the
/// connected part (parts side by side), row = order in the column, after the mean row of the
/// neighbours in the column before.
fn layered(ids: &[VarId], graph: &ConstraintGraph) -> Vec<(f64, f64)> {
    let n = ids.len();
    let mut column = vec![usize::MAX; n];
    let mut row = vec![0.0f64; n];
    let mut points = vec![(0.0, 0.0); n];
    let mut first_column = 0usize;
    for start in 0..n {
        if column[start] != usize::MAX {
            continue;
        }
        // Breadth first from `start`: the columns of this part.
        let mut layers: Vec<Vec<usize>> = vec![vec![start]];
        column[start] = first_column;
        loop {
            let mut next = Vec::new();
            for &v in layers.last().map(Vec::as_slice).unwrap_or(&[]) {
                for w in graph.neighbours(ids[v]) {
                    let w = w.index();
                    if column[w] == usize::MAX {
                        column[w] = first_column + layers.len();
                        next.push(w);
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            // In the order of their neighbours in the column before.
            let key = |w: usize| {
                let (sum, count) = graph
                    .neighbours(ids[w])
                    .map(VarId::index)
                    .filter(|&u| column[u] + 1 == column[w])
                    .fold((0.0, 0.0), |(s, c), u| (s + row[u], c + 1.0));
                if count > 0.0 { sum / count } else { 0.0 }
            };
            next.sort_by(|&a, &b| key(a).total_cmp(&key(b)).then(a.cmp(&b)));
            for (k, &w) in next.iter().enumerate() {
                row[w] = k as f64;
            }
            layers.push(next);
        }
        let tallest = layers.iter().map(Vec::len).max().unwrap_or(1) as f64;
        for (c, layer) in layers.iter().enumerate() {
            // Each column centred on the tallest.
            let top = (tallest - layer.len() as f64) / 2.0;
            for (k, &v) in layer.iter().enumerate() {
                points[v] = ((first_column + c) as f64 * 1.6, top + k as f64);
            }
        }
        first_column += layers.len();
    }
    points
}

const TOOLBAR: &str = "<nav id=\"toolbar\">\
<button id=\"first\" title=\"the first step (Home)\">|◀</button>\
<button id=\"prev\" title=\"previous step (←)\">◀</button>\
<button id=\"play\" title=\"play or pause (space)\">▶ Play</button>\
<button id=\"next\" title=\"next step (→)\">▶</button>\
<button id=\"last\" title=\"the last step (End)\">▶|</button>\
<label>speed <input id=\"speed\" type=\"range\" min=\"1\" max=\"30\" value=\"3\"></label>\
<span class=\"keys\">← → steps · r next removal · b branch · f failure · s solution · \
space play</span>\
</nav>";

const STYLE: &str = include_str!("page/graph_page.css");

const SCRIPT: &str = include_str!("page/graph_page.js");
