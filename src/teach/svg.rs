//! The search tree drawn as SVG, by cspkit itself: no external program.
//!
//! Layout: leaves left to right in the order the search met them, each parent centred over its
//! children, one row per level of the tree. Decisions label the edges; failures are red (the
//! failing constraint in the node's tooltip and under it), solutions green, open nodes grey.
//! A tree larger than the drawing's budget shows its top levels and collapses each subtree
//! that does not fit into a triangle labelled with the number of nodes it holds.

use std::fmt::Write as _;

use super::tree::{NodeStatus, SearchTree};

/// The most nodes a drawing shows by default; deeper subtrees are collapsed.
pub const DEFAULT_BUDGET: usize = 400;

const DX: f64 = 96.0;
const DY: f64 = 72.0;
const MARGIN: f64 = 40.0;
const RADIUS: f64 = 7.0;

/// Where `layout` puts the shown nodes of a tree, and the size of the picture.
#[deprecated(
    since = "0.3.0",
    note = "an internal of `svg::render`, no longer public in the next version"
)]
#[allow(deprecated, reason = "the deprecated `Layout` itself")]
#[derive(Debug, Clone)]
pub struct Layout {
    /// The shown nodes, in search order: id, x, y, and for a collapsed subtree, the number of
    /// nodes hidden under it.
    pub nodes: Vec<Placed>,
    /// The drawing's size.
    pub width: f64,
    /// The drawing's size.
    pub height: f64,
}

/// One shown node of a `Layout`.
#[deprecated(
    since = "0.3.0",
    note = "an internal of `svg::render`, no longer public in the next version"
)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placed {
    /// The node's id.
    pub id: u64,
    /// Its centre.
    pub x: f64,
    /// Its centre.
    pub y: f64,
    /// The nodes hidden under it, if its subtree is collapsed.
    pub hidden: Option<u64>,
}

/// Lays out the tree, showing at most `budget` nodes (at least the root).
#[deprecated(
    since = "0.3.0",
    note = "an internal of `svg::render`, no longer public in the next version"
)]
#[doc(hidden)]
#[allow(deprecated, reason = "the deprecated `layout` itself")]
pub fn layout(tree: &SearchTree<'_>, budget: usize) -> Layout {
    let drawing = place(tree, budget);
    Layout {
        nodes: drawing
            .nodes
            .iter()
            .map(|spot| Placed {
                id: spot.id,
                x: spot.x,
                y: spot.y,
                hidden: spot.hidden,
            })
            .collect(),
        width: drawing.width,
        height: drawing.height,
    }
}

/// Where each shown node is drawn: the shown nodes in search order, and the drawing's size.
struct Drawing {
    nodes: Vec<Spot>,
    width: f64,
    height: f64,
}

/// One shown node of a [`Drawing`]: its id, its centre, and for a collapsed subtree, the
/// number of nodes hidden under it.
struct Spot {
    id: u64,
    x: f64,
    y: f64,
    hidden: Option<u64>,
}

/// Lays out the tree, showing at most `budget` nodes (at least the root).
fn place(tree: &SearchTree<'_>, budget: usize) -> Drawing {
    let nodes = tree.nodes();
    let n = nodes.len();
    // Subtree sizes: children have larger ids than their parents.
    let mut size = vec![1u64; n];
    for id in (1..n).rev() {
        if let Some(p) = nodes[id].parent {
            size[p as usize] += size[id];
        }
    }
    // Expand level by level while the budget lasts.
    let mut expanded = vec![false; n];
    let mut shown = 1usize;
    let mut queue = std::collections::VecDeque::from([0usize]);
    while let Some(id) = queue.pop_front() {
        let children = &nodes[id].children;
        if children.is_empty() || shown + children.len() > budget.max(1) {
            continue;
        }
        expanded[id] = true;
        shown += children.len();
        queue.extend(children.iter().map(|&c| c as usize));
    }
    // Leaves of the drawing take slots left to right; parents sit over their children.
    let mut placed = vec![None::<(f64, f64)>; n];
    let mut order = Vec::new();
    let mut slot = 0.0f64;
    let mut max_level = 0usize;
    let mut stack = vec![(0usize, 0usize, false)];
    while let Some((id, level, visited)) = stack.pop() {
        max_level = max_level.max(level);
        let y = MARGIN + level as f64 * DY;
        if !expanded[id] {
            placed[id] = Some((MARGIN + slot * DX, y));
            slot += 1.0;
            order.push(id);
            continue;
        }
        if visited {
            let children = &nodes[id].children;
            let first = placed[children[0] as usize].map_or(0.0, |p| p.0);
            let last = placed[children[children.len() - 1] as usize].map_or(0.0, |p| p.0);
            placed[id] = Some(((first + last) / 2.0, y));
            order.push(id);
            continue;
        }
        stack.push((id, level, true));
        for &child in nodes[id].children.iter().rev() {
            stack.push((child as usize, level + 1, false));
        }
    }
    order.sort_unstable();
    let nodes_out = order
        .into_iter()
        .filter_map(|id| {
            let (x, y) = placed[id]?;
            let hidden = (!expanded[id] && size[id] > 1).then_some(size[id] - 1);
            Some(Spot {
                id: id as u64,
                x,
                y,
                hidden,
            })
        })
        .collect();
    Drawing {
        nodes: nodes_out,
        width: 2.0 * MARGIN + (slot - 1.0).max(0.0) * DX + 60.0,
        height: 2.0 * MARGIN + max_level as f64 * DY + 40.0,
    }
}

/// The class of a node's shape: `inner`, `failed`, `solution` or `open`.
#[deprecated(
    since = "0.3.0",
    note = "an internal of `svg::render`, no longer public in the next version"
)]
#[doc(hidden)]
pub fn class(status: NodeStatus) -> &'static str {
    shape_class(status)
}

/// The class of a node's shape: `inner`, `failed`, `solution` or `open`.
fn shape_class(status: NodeStatus) -> &'static str {
    match status {
        NodeStatus::Inner => "inner",
        NodeStatus::Failed { .. } => "failed",
        NodeStatus::Solution => "solution",
        NodeStatus::Open => "open",
    }
}

/// Text escaped for XML and HTML.
#[deprecated(
    since = "0.3.0",
    note = "an internal of the pages and pictures, no longer public in the next version"
)]
#[doc(hidden)]
pub fn escape(text: &str) -> String {
    escape_xml(text)
}

/// Text escaped for XML and HTML.
pub(crate) fn escape_xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The tree as an SVG picture, showing at most `budget` nodes.
///
/// # Examples
///
/// ```
/// use cspkit::models::queens::Queens;
/// use cspkit::teach::{svg, tree::SearchTree};
///
/// let queens = Queens::new(4)?;
/// let mut tree = SearchTree::new(queens.model());
/// let _ = queens.model().solver().with_observer(&mut tree).next_solution();
/// let picture = svg::render(&tree, svg::DEFAULT_BUDGET);
/// assert!(picture.starts_with("<svg"));
/// assert_eq!(picture.matches("class=\"node solution\"").count(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn render(tree: &SearchTree<'_>, budget: usize) -> String {
    let layout = place(tree, budget);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"search-tree\" width=\"{:.0}\" \
         height=\"{:.0}\" viewBox=\"0 0 {:.0} {:.0}\" font-family=\"sans-serif\">",
        layout.width, layout.height, layout.width, layout.height
    );
    out.push_str(STYLE);
    let position: std::collections::HashMap<u64, (f64, f64)> =
        layout.nodes.iter().map(|p| (p.id, (p.x, p.y))).collect();
    // Edges first, so that nodes are drawn over them.
    for placed in &layout.nodes {
        let Some(parent) = tree.nodes()[placed.id as usize].parent else {
            continue;
        };
        let Some(&(px, py)) = position.get(&parent) else {
            continue;
        };
        let label = escape_xml(&tree.label(placed.id));
        // The label just above its child, centred: siblings are a slot apart, so their labels
        // do not run into each other however many there are.
        let _ = writeln!(
            out,
            "<line class=\"edge\" x1=\"{px:.1}\" y1=\"{py:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/>\
             <text class=\"decision\" text-anchor=\"middle\" x=\"{:.1}\" y=\"{:.1}\">{label}</text>",
            placed.x,
            placed.y,
            placed.x,
            placed.y - RADIUS - 6.0,
        );
    }
    for placed in &layout.nodes {
        let node = &tree.nodes()[placed.id as usize];
        let (x, y) = (placed.x, placed.y);
        let mut title = format!("node {}: {}", placed.id, tree.label(placed.id));
        let reason = tree.reason(placed.id);
        if !reason.is_empty() {
            let _ = write!(title, " ✗ {reason}");
        }
        if let Some(hidden) = placed.hidden {
            let _ = writeln!(
                out,
                "<g class=\"collapsed\" data-id=\"{}\"><title>{}: {hidden} more tree nodes</title>\
                 <polygon class=\"collapsed\" points=\"{x:.1},{:.1} {:.1},{:.1} {:.1},{:.1}\"/>\
                 <text class=\"count\" x=\"{x:.1}\" y=\"{:.1}\">{hidden}</text></g>",
                placed.id,
                escape_xml(&title),
                y - RADIUS,
                x - 12.0,
                y + 16.0,
                x + 12.0,
                y + 16.0,
                y + 28.0,
            );
            continue;
        }
        let kind = shape_class(node.status);
        let _ = write!(
            out,
            "<g class=\"point\" data-id=\"{}\"><title>{}</title>\
             <circle class=\"node {kind}\" cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{RADIUS}\"/>",
            placed.id,
            escape_xml(&title),
        );
        if let NodeStatus::Failed { constraint, .. } = node.status {
            let short = constraint.map_or("✗".to_owned(), |c| {
                escape_xml(tree.model().constraint_name(c))
            });
            let _ = write!(
                out,
                "<text class=\"why\" x=\"{x:.1}\" y=\"{:.1}\">{short}</text>",
                y + 24.0
            );
        }
        out.push_str("</g>\n");
    }
    if tree.cut() > 0 {
        let _ = writeln!(
            out,
            "<text class=\"note\" x=\"8\" y=\"18\">the first {} of {} tree nodes \
             (--tree-limit)</text>",
            tree.nodes().len(),
            tree.nodes().len() as u64 + tree.cut()
        );
    }
    out.push_str("</svg>\n");
    out
}

const STYLE: &str = "<style>
.edge { stroke: #888; stroke-width: 1 }
.decision { font-size: 16px; fill: #333; paint-order: stroke; stroke: #fff; stroke-width: 3px }
.node { stroke: #333; stroke-width: 1; fill: #fff }
.node.failed { fill: #d62728 }
.node.solution { fill: #2ca02c }
.node.open { fill: #ccc }
.why { font-size: 14px; fill: #d62728; text-anchor: middle }
polygon.collapsed { fill: #ddd; stroke: #888 }
.count { font-size: 14px; text-anchor: middle }
.note { font-size: 16px; fill: #555 }
</style>
";
