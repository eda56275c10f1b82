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

/// The size of a slide picture, in user units (pixels at that size): the whole tree fits it,
/// with text at least [`Slide::FONT`] units high.
///
/// The default is a 16:9 slide, 1920 × 1080.
///
/// # Examples
///
/// ```
/// use cspkit::teach::svg::Slide;
///
/// let slide: Slide = "1280x720".parse()?;
/// assert_eq!((slide.width(), slide.height()), (1280, 720));
/// assert_eq!(Slide::default(), Slide::new(1920, 1080)?);
/// assert!("0x5".parse::<Slide>().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Slide {
    width: u32,
    height: u32,
}

/// A slide size that cannot be used: not `WxH`, or too small or too large to draw on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a slide size: write WIDTHxHEIGHT, each from {min_w}x{min_h} to {max} \
     (for example 1920x1080)",
    min_w = Slide::MIN_WIDTH,
    min_h = Slide::MIN_HEIGHT,
    max = Slide::MAX_SIDE
)]
pub struct BadSlideSize(pub String);

impl Slide {
    /// The smallest text drawn on a slide, in user units.
    pub const FONT: f64 = 18.0;
    /// The narrowest slide.
    pub const MIN_WIDTH: u32 = 640;
    /// The lowest slide.
    pub const MIN_HEIGHT: u32 = 360;
    /// The longest side of a slide.
    pub const MAX_SIDE: u32 = 100_000;

    /// A slide `width` × `height` units.
    ///
    /// # Errors
    ///
    /// [`BadSlideSize`] if a side is below [`Slide::MIN_WIDTH`] × [`Slide::MIN_HEIGHT`] or
    /// above [`Slide::MAX_SIDE`].
    pub fn new(width: u32, height: u32) -> Result<Slide, BadSlideSize> {
        if !(Self::MIN_WIDTH..=Self::MAX_SIDE).contains(&width)
            || !(Self::MIN_HEIGHT..=Self::MAX_SIDE).contains(&height)
        {
            return Err(BadSlideSize(format!("{width}x{height}")));
        }
        Ok(Slide { width, height })
    }

    /// The slide's width.
    pub fn width(self) -> u32 {
        self.width
    }

    /// The slide's height.
    pub fn height(self) -> u32 {
        self.height
    }
}

impl Default for Slide {
    fn default() -> Self {
        Slide {
            width: 1920,
            height: 1080,
        }
    }
}

impl std::str::FromStr for Slide {
    type Err = BadSlideSize;

    /// `WxH` (or `W×H`), as `1920x1080`.
    fn from_str(text: &str) -> Result<Slide, BadSlideSize> {
        let bad = || BadSlideSize(text.to_owned());
        let lower = text.trim().to_ascii_lowercase();
        let (w, h) = lower
            .split_once('x')
            .or_else(|| lower.split_once('×'))
            .ok_or_else(bad)?;
        let w: u32 = w.trim().parse().map_err(|_| bad())?;
        let h: u32 = h.trim().parse().map_err(|_| bad())?;
        Slide::new(w, h).map_err(|_| bad())
    }
}

/// The tree as an SVG picture that fits `slide`, for a lecture: text at least
/// [`Slide::FONT`] units high at the slide's size, no two labels overlapping.
///
/// When the whole tree does not fit with readable labels, the picture gives up detail step by
/// step, as Gecode's Gist draws a tree: failed subtrees become triangles labelled with their
/// counts (`37 (19✗)`: 37 tree nodes, 19 failures; `✓` counts solutions), labels shrink to
/// the value alone under a row whose variable is named at the left, then the largest
/// subtrees off the path to the first solution are collapsed too, and sibling triangles
/// merged. The path to the first solution stays expanded. A binary search (`x = v`, `x ≠ v`)
/// is drawn d-way: the refutations `x ≠ v` are folded into their parent, so that the values
/// tried for `x` are siblings. Long runs of levels with nothing but failures beside them are
/// drawn as one box (`⋮ 70 levels`). Every drawn node, triangle and box carries the number of
/// tree nodes it stands for in `data-nodes`; they add up to the tree's node count.
///
/// # Examples
///
/// ```
/// use cspkit::models::queens::Queens;
/// use cspkit::teach::{svg, tree::SearchTree};
///
/// let queens = Queens::new(6)?;
/// let mut tree = SearchTree::new(queens.model());
/// let _ = queens.model().solver().with_observer(&mut tree).count();
/// let picture = svg::render_slide(&tree, svg::Slide::default());
/// assert!(picture.contains("width=\"1920\" height=\"1080\""));
/// let drawn: u64 = picture
///     .split("data-nodes=\"")
///     .skip(1)
///     .map(|rest| rest[..rest.find('"').unwrap()].parse::<u64>().unwrap())
///     .sum();
/// assert_eq!(drawn, tree.nodes().len() as u64);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn render_slide(tree: &SearchTree<'_>, slide: Slide) -> String {
    slide::render(tree, slide)
}

/// The slide picture: a display tree fitted by level of detail, then drawn.
mod slide {
    use std::fmt::Write as _;

    use super::{Slide, escape_xml, shape_class};
    use crate::ids::VarId;
    use crate::search::observer::BranchKind;
    use crate::teach::tree::{NodeStatus, SearchTree};

    const F: f64 = Slide::FONT;
    /// A node's radius.
    const R: f64 = 8.0;
    /// Half a triangle's base, and its height below the node's centre.
    const TRI: f64 = 15.0;
    /// The vertical distance between rows.
    const ROW: f64 = 74.0;
    /// The space between two boxes on a row.
    const GAP: f64 = 14.0;
    const MARGIN: f64 = 24.0;
    /// The first row's centre, below the top.
    const TOP: f64 = MARGIN + R + 8.0 + F;
    /// Room at the bottom: the last row's lowest text, and the legend.
    const BOTTOM: f64 = TRI + 8.0 + 1.3 * F + 12.0 + 1.4 * F + MARGIN / 2.0;
    /// A tree with more nodes is never tried fully expanded.
    const FULL_LIMIT: usize = 3000;

    /// The width of a text of `chars` characters, generously (about 0.6 em a character).
    pub(super) fn text_width(text: &str) -> f64 {
        text.chars().count() as f64 * 0.62 * F
    }

    /// Counts of search-tree nodes.
    #[derive(Debug, Clone, Copy, Default)]
    struct Counts {
        nodes: u64,
        failures: u64,
        solutions: u64,
    }

    impl Counts {
        fn add(&mut self, other: Counts) {
            self.nodes += other.nodes;
            self.failures += other.failures;
            self.solutions += other.solutions;
        }

        /// `37 (19✗)`, `12 (3✗ 1✓)`.
        fn text(self) -> String {
            let mut parts = Vec::new();
            if self.failures > 0 {
                parts.push(format!("{}✗", self.failures));
            }
            if self.solutions > 0 {
                parts.push(format!("{}✓", self.solutions));
            }
            if parts.is_empty() {
                self.nodes.to_string()
            } else {
                format!("{} ({})", self.nodes, parts.join(" "))
            }
        }
    }

    /// What the search tree looks like d-way, computed once.
    struct Facts {
        /// Per search node: its children in the d-way view (refutations folded in), and how
        /// many refutations were folded into it.
        view: Vec<Vec<u64>>,
        folded: Vec<u64>,
        /// Per search node: the counts of its subtree.
        subtree: Vec<Counts>,
        /// On the path from the root to the first solution.
        on_path: Vec<bool>,
    }

    fn facts(tree: &SearchTree<'_>) -> Facts {
        let nodes = tree.nodes();
        let n = nodes.len();
        let mut subtree = vec![Counts::default(); n];
        for (id, node) in nodes.iter().enumerate() {
            subtree[id] = Counts {
                nodes: 1,
                failures: u64::from(matches!(node.status, NodeStatus::Failed { .. })),
                solutions: u64::from(node.status == NodeStatus::Solution),
            };
        }
        // Children have larger ids than their parents.
        for id in (1..n).rev() {
            if let Some(p) = nodes[id].parent {
                let c = subtree[id];
                subtree[p as usize].add(c);
            }
        }
        let mut on_path = vec![false; n];
        if let Some(first) = nodes.iter().position(|x| x.status == NodeStatus::Solution) {
            let mut at = Some(first as u64);
            while let Some(id) = at {
                on_path[id as usize] = true;
                at = nodes[id as usize].parent;
            }
        }
        // A refutation `x ≠ v` (or `x > v`) that is its parent's last child and branches on
        // `x` again is folded into the parent: its children become the parent's.
        let folds = |id: u64| {
            let node = &nodes[id as usize];
            let Some(branch) = node.branch else {
                return false;
            };
            let refutes = matches!(branch.kind, BranchKind::NotEqual | BranchKind::Above);
            refutes
                && node.children.first().is_some_and(|&c| {
                    nodes[c as usize]
                        .branch
                        .is_some_and(|b| b.var == branch.var)
                })
        };
        let mut view = vec![Vec::new(); n];
        let mut folded = vec![0u64; n];
        for id in 0..n {
            let mut list = Vec::new();
            let mut at = id as u64;
            loop {
                let children = &nodes[at as usize].children;
                let Some((&last, rest)) = children.split_last() else {
                    break;
                };
                list.extend_from_slice(rest);
                if folds(last) {
                    folded[id] += 1;
                    at = last;
                } else {
                    list.push(last);
                    break;
                }
            }
            view[id] = list;
        }
        Facts {
            view,
            folded,
            subtree,
            on_path,
        }
    }

    /// What one drawn item is.
    #[derive(Debug, Clone)]
    enum Kind {
        /// A search node.
        Node { id: u64 },
        /// Collapsed subtrees, from the search node `first` to `last` (siblings).
        Triangle { first: u64, last: u64 },
        /// A run of levels drawn as one box.
        Chain { levels: usize },
    }

    /// One drawn item of the display tree.
    #[derive(Debug, Clone)]
    struct Item {
        kind: Kind,
        /// The tree nodes it stands for.
        counts: Counts,
        parent: Option<usize>,
        children: Vec<usize>,
        row: usize,
        alive: bool,
    }

    /// How much detail a picture keeps.
    #[derive(Debug, Clone)]
    struct Detail {
        /// Search nodes drawn as triangles.
        collapsed: Vec<bool>,
        /// Values only, under a row named at the left.
        short: bool,
        /// Neighbouring sibling triangles merged into one.
        merge: bool,
    }

    /// The display tree built with `detail`, rows compressed to at most `max_rows`.
    fn build(tree: &SearchTree<'_>, facts: &Facts, detail: &Detail, max_rows: usize) -> Vec<Item> {
        let nodes = tree.nodes();
        let mut items = vec![Item {
            kind: Kind::Node { id: 0 },
            counts: Counts::default(),
            parent: None,
            children: Vec::new(),
            row: 0,
            alive: true,
        }];
        let mut stack = vec![0usize];
        while let Some(at) = stack.pop() {
            let Kind::Node { id } = items[at].kind else {
                continue;
            };
            let node = &nodes[id as usize];
            let folded = facts.folded[id as usize];
            if detail.collapsed[id as usize] {
                items[at].kind = Kind::Triangle {
                    first: id,
                    last: id,
                };
                items[at].counts = facts.subtree[id as usize];
                continue;
            }
            items[at].counts = Counts {
                nodes: 1 + folded,
                failures: u64::from(matches!(node.status, NodeStatus::Failed { .. })),
                solutions: u64::from(node.status == NodeStatus::Solution),
            };
            let row = items[at].row + 1;
            let mut children: Vec<usize> = Vec::new();
            for &child in &facts.view[id as usize] {
                let collapsed = detail.collapsed[child as usize];
                let previous = children
                    .last()
                    .copied()
                    .filter(|_| collapsed && detail.merge);
                if let Some(prev) = previous
                    && let Kind::Triangle { first, .. } = items[prev].kind
                {
                    items[prev].kind = Kind::Triangle { first, last: child };
                    let c = facts.subtree[child as usize];
                    items[prev].counts.add(c);
                    continue;
                }
                let index = items.len();
                items.push(Item {
                    kind: if collapsed {
                        Kind::Triangle {
                            first: child,
                            last: child,
                        }
                    } else {
                        Kind::Node { id: child }
                    },
                    counts: facts.subtree[child as usize],
                    parent: Some(at),
                    children: Vec::new(),
                    row,
                    alive: true,
                });
                children.push(index);
                if !collapsed {
                    stack.push(index);
                }
            }
            items[at].children = children;
        }
        compress(&mut items, max_rows);
        items
    }

    /// Replaces runs of levels, where the path goes on through one item and everything beside
    /// it is a leaf, by one box each, until the tree has at most `max_rows` rows (or no run
    /// is left).
    fn compress(items: &mut Vec<Item>, max_rows: usize) {
        loop {
            let deepest = (0..items.len())
                .filter(|&i| items[i].alive)
                .max_by_key(|&i| items[i].row)
                .unwrap_or(0);
            let rows = items[deepest].row + 1;
            if rows <= max_rows {
                return;
            }
            let excess = rows - max_rows;
            let mut path = vec![deepest];
            while let Some(p) = items[*path.last().unwrap_or(&0)].parent {
                path.push(p);
            }
            path.reverse();
            // A path item can go into a box if it is a node whose other children are leaves.
            let boxable = |k: usize| {
                k > 0
                    && k + 1 < path.len()
                    && matches!(items[path[k]].kind, Kind::Node { .. })
                    && items[path[k]]
                        .children
                        .iter()
                        .all(|&c| c == path[k + 1] || items[c].children.is_empty())
            };
            // The longest run of boxable items; its bottom part becomes the box.
            let (mut best, mut start) = ((0usize, 0usize), None);
            for k in 0..path.len() {
                if boxable(k) {
                    let s = *start.get_or_insert(k);
                    if k + 1 - s > best.1 - best.0 {
                        best = (s, k + 1);
                    }
                } else {
                    start = None;
                }
            }
            let length = best.1 - best.0;
            let take = length.min(excess + 1);
            if take < 2 {
                return;
            }
            let (from, to) = (best.1 - take, best.1);
            let mut counts = Counts::default();
            for &k in &path[from..to] {
                counts.add(items[k].counts);
                for c in items[k].children.clone() {
                    if !path[from..=to].contains(&c) {
                        counts.add(items[c].counts);
                        items[c].alive = false;
                    }
                }
                items[k].alive = false;
            }
            let above = path[from - 1];
            let below = path[to];
            let index = items.len();
            items.push(Item {
                kind: Kind::Chain { levels: take },
                counts,
                parent: Some(above),
                children: vec![below],
                row: items[path[from]].row,
                alive: true,
            });
            for c in &mut items[above].children {
                if *c == path[from] {
                    *c = index;
                }
            }
            items[below].parent = Some(index);
            // The rows below move up.
            let mut stack = vec![below];
            while let Some(i) = stack.pop() {
                items[i].row -= take - 1;
                stack.extend(items[i].children.iter().copied());
            }
        }
    }

    /// The texts of an item: its label above, and the text below or inside it.
    struct Texts {
        label: String,
        below: String,
    }

    /// The rows whose branches all name one variable (the row's name at the left, with short
    /// labels).
    fn row_vars(tree: &SearchTree<'_>, items: &[Item]) -> Vec<Option<VarId>> {
        let rows = items
            .iter()
            .filter(|i| i.alive)
            .map(|i| i.row + 1)
            .max()
            .unwrap_or(1);
        let mut vars: Vec<Option<Option<VarId>>> = vec![None; rows];
        for item in items.iter().filter(|i| i.alive) {
            let id = match item.kind {
                Kind::Node { id } | Kind::Triangle { first: id, .. } => id,
                Kind::Chain { .. } => continue,
            };
            let Some(branch) = tree.nodes()[id as usize].branch else {
                continue;
            };
            let slot = &mut vars[item.row];
            match slot {
                None => *slot = Some(Some(branch.var)),
                Some(Some(v)) if *v == branch.var => {}
                _ => *slot = Some(None),
            }
        }
        vars.into_iter().map(Option::flatten).collect()
    }

    /// The value part of a branch: `4`, `≠ 4`.
    fn short_label(tree: &SearchTree<'_>, id: u64) -> String {
        match tree.nodes()[id as usize].branch {
            Some(b) if b.kind == BranchKind::Equal => b.value.to_string(),
            Some(b) => format!("{} {}", b.kind.symbol(), b.value),
            None => "root".to_owned(),
        }
    }

    fn texts(tree: &SearchTree<'_>, item: &Item, short: bool) -> Texts {
        let label_of = |id: u64| {
            if short {
                short_label(tree, id)
            } else {
                tree.label(id)
            }
        };
        match item.kind {
            Kind::Node { id } => {
                let label = if id == 0 { String::new() } else { label_of(id) };
                let below = match tree.nodes()[id as usize].status {
                    NodeStatus::Failed { constraint, .. } if !short => constraint
                        .map_or("✗".to_owned(), |c| {
                            tree.model().constraint_name(c).to_owned()
                        }),
                    _ => String::new(),
                };
                Texts { label, below }
            }
            Kind::Triangle { first, last } => {
                let label = if first == 0 {
                    String::new()
                } else if first == last {
                    label_of(first)
                } else {
                    format!("{}…{}", label_of(first), short_label(tree, last))
                };
                Texts {
                    label,
                    below: item.counts.text(),
                }
            }
            Kind::Chain { levels } => Texts {
                label: String::new(),
                below: format!("⋮ {levels} levels: {}", item.counts.text()),
            },
        }
    }

    /// A laid-out picture: each item's centre, and the drawing's extent.
    struct Placement {
        x: Vec<f64>,
        /// The width the tree needs, headers included.
        width: f64,
        rows: usize,
        /// The row headers' width (0 without).
        header: f64,
        labels: Vec<Texts>,
        row_names: Vec<Option<String>>,
    }

    /// Lays out the items: each subtree's rows packed against its left sibling's (a tidy
    /// tree), each parent centred over its children.
    fn place(tree: &SearchTree<'_>, items: &[Item], short: bool) -> Placement {
        let vars = if short {
            row_vars(tree, items)
        } else {
            Vec::new()
        };
        let named = |item: &Item| short && vars.get(item.row).copied().flatten().is_some();
        let labels: Vec<Texts> = items
            .iter()
            .map(|item| texts(tree, item, named(item)))
            .collect();
        let row_names: Vec<Option<String>> = vars
            .iter()
            .map(|v| v.map(|v| tree.model().var_name(v).into_owned()))
            .collect();
        let header = row_names
            .iter()
            .flatten()
            .map(|name| text_width(name) + GAP)
            .fold(0.0, f64::max);
        let n = items.len();
        // Half-width of each item's box.
        let half: Vec<f64> = items
            .iter()
            .zip(&labels)
            .map(|(item, t)| {
                let shape = match item.kind {
                    Kind::Node { .. } => 2.0 * R,
                    Kind::Triangle { .. } => 2.0 * TRI,
                    Kind::Chain { .. } => 0.0,
                };
                (text_width(&t.label)
                    .max(text_width(&t.below) + 12.0)
                    .max(shape)
                    + GAP)
                    / 2.0
            })
            .collect();
        // The items from the root, parents before their children.
        let mut order = Vec::with_capacity(n);
        let mut stack = vec![0usize];
        while let Some(at) = stack.pop() {
            order.push(at);
            stack.extend(items[at].children.iter().copied());
        }
        // Contours, bottom-up.
        let mut contour: Vec<Vec<(f64, f64)>> = vec![Vec::new(); n];
        let mut offset = vec![0.0f64; n];
        for &at in order.iter().rev() {
            let mut acc: Vec<(f64, f64)> = Vec::new();
            let children = &items[at].children;
            let mut shifts = Vec::with_capacity(children.len());
            for &c in children {
                let mine = std::mem::take(&mut contour[c]);
                let shift = if acc.is_empty() {
                    0.0
                } else {
                    acc.iter()
                        .zip(&mine)
                        .map(|(a, m)| a.1 - m.0)
                        .fold(f64::MIN, f64::max)
                };
                for (d, &(l, r)) in mine.iter().enumerate() {
                    if d < acc.len() {
                        acc[d].1 = shift + r;
                    } else {
                        acc.push((shift + l, shift + r));
                    }
                }
                shifts.push(shift);
            }
            let centre = match (shifts.first(), shifts.last()) {
                (Some(a), Some(b)) => (a + b) / 2.0,
                _ => 0.0,
            };
            for (&c, s) in children.iter().zip(&shifts) {
                offset[c] = s - centre;
            }
            let mut mine = Vec::with_capacity(acc.len() + 1);
            mine.push((-half[at], half[at]));
            mine.extend(acc.iter().map(|&(l, r)| (l - centre, r - centre)));
            contour[at] = mine;
        }
        let (left, right) = contour[0]
            .iter()
            .fold((0.0f64, 0.0f64), |(l, r), &(a, b)| (l.min(a), r.max(b)));
        let rows = contour[0].len();
        let mut x = vec![0.0f64; n];
        x[0] = -left;
        for &at in &order[1..] {
            if let Some(p) = items[at].parent {
                x[at] = x[p] + offset[at];
            }
        }
        Placement {
            x,
            width: header + (right - left) + 2.0 * MARGIN,
            rows,
            header,
            labels,
            row_names,
        }
    }

    /// Every node of a subtree of search nodes not on the path to the first solution,
    /// biggest first.
    fn candidates(facts: &Facts, items: &[Item]) -> Vec<u64> {
        let mut list: Vec<u64> = items
            .iter()
            .filter(|i| i.alive && !i.children.is_empty())
            .filter_map(|i| match i.kind {
                Kind::Node { id } if id != 0 && !facts.on_path[id as usize] => Some(id),
                _ => None,
            })
            .collect();
        list.sort_by_key(|&id| std::cmp::Reverse(facts.subtree[id as usize].nodes));
        list
    }

    pub(super) fn render(tree: &SearchTree<'_>, slide: Slide) -> String {
        let (w, h) = (f64::from(slide.width), f64::from(slide.height));
        let max_rows = (((h - TOP - BOTTOM) / ROW).floor() as usize + 1).max(2);
        let facts = facts(tree);
        let n = tree.nodes().len();
        let fits = |p: &Placement| p.width <= w && p.rows <= max_rows;
        let mut detail = Detail {
            collapsed: vec![false; n],
            short: false,
            merge: false,
        };
        let attempt = |detail: &Detail| {
            let items = build(tree, &facts, detail, max_rows);
            let placement = place(tree, &items, detail.short);
            (items, placement)
        };
        let mut best = None;
        if n <= FULL_LIMIT {
            for short in [false, true] {
                detail.short = short;
                let (items, p) = attempt(&detail);
                if fits(&p) {
                    best = Some((items, p, short));
                    break;
                }
            }
        }
        if best.is_none() {
            // Failed subtrees (no solution, nothing left open) of two nodes or more.
            for id in 1..n {
                let c = facts.subtree[id];
                let open = tree.nodes()[id].status == NodeStatus::Open;
                let parent_failed = tree.nodes()[id]
                    .parent
                    .is_some_and(|p| detail.collapsed[p as usize]);
                if parent_failed
                    || (c.nodes >= 2 && c.solutions == 0 && !open && !has_open(tree, id))
                {
                    detail.collapsed[id] = true;
                }
            }
            for short in [false, true] {
                detail.short = short;
                let (items, p) = attempt(&detail);
                if fits(&p) {
                    best = Some((items, p, short));
                    break;
                }
            }
        }
        if best.is_none() {
            // The biggest subtrees off the path, one at a time; then sibling triangles merged.
            for merge in [false, true] {
                detail.merge = merge;
                loop {
                    let (items, p) = attempt(&detail);
                    if fits(&p) {
                        best = Some((items, p, true));
                        break;
                    }
                    let Some(&id) = candidates(&facts, &items).first() else {
                        break;
                    };
                    detail.collapsed[id as usize] = true;
                }
                if best.is_some() {
                    break;
                }
            }
        }
        let (items, placement, short) = best.unwrap_or_else(|| {
            let (items, p) = attempt(&detail);
            (items, p, true)
        });
        draw(tree, &items, &placement, short, slide)
    }

    /// Whether a subtree holds a node left open.
    fn has_open(tree: &SearchTree<'_>, id: usize) -> bool {
        let mut stack = vec![id as u64];
        while let Some(at) = stack.pop() {
            let node = &tree.nodes()[at as usize];
            if node.status == NodeStatus::Open {
                return true;
            }
            stack.extend(node.children.iter().copied());
        }
        false
    }

    fn draw(
        tree: &SearchTree<'_>,
        items: &[Item],
        p: &Placement,
        short: bool,
        slide: Slide,
    ) -> String {
        let (w, h) = (f64::from(slide.width), f64::from(slide.height));
        // The drawing is centred; one too wide for the slide (nothing else could be given
        // up) is scaled down by a wider view box.
        // A small tree is drawn larger, up to twice the size.
        let height = TOP + (p.rows.max(1) - 1) as f64 * ROW + BOTTOM;
        let zoom = (w / p.width).min(h / height).clamp(1.0, 2.0);
        let (view_w, view_h) = if p.width > w {
            (p.width, p.width * h / w)
        } else {
            (w / zoom, h / zoom)
        };
        let dx = (view_w - p.width) / 2.0 + MARGIN + p.header;
        let y = |row: usize| TOP + row as f64 * ROW;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"search-tree slide\" \
             width=\"{}\" height=\"{}\" viewBox=\"0 0 {view_w:.0} {view_h:.0}\" \
             font-family=\"sans-serif\">",
            slide.width, slide.height
        );
        out.push_str(SLIDE_STYLE);
        let _ = writeln!(
            out,
            "<rect class=\"background\" width=\"{view_w:.0}\" height=\"{view_h:.0}\"/>"
        );
        let text = |out: &mut String, class: &str, x: f64, y: f64, anchor: &str, s: &str| {
            if s.is_empty() {
                return;
            }
            let _ = write!(
                out,
                "<text class=\"{class}\" x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"{F}\" \
                 text-anchor=\"{anchor}\">{}</text>",
                escape_xml(s)
            );
        };
        // Row names at the left.
        if short {
            for (row, name) in p.row_names.iter().enumerate() {
                if let Some(name) = name {
                    text(
                        &mut out,
                        "row-name",
                        dx - p.header,
                        y(row) + 0.35 * F,
                        "start",
                        name,
                    );
                }
            }
            out.push('\n');
        }
        // Edges first, so that nodes are drawn over them.
        for (i, item) in items.iter().enumerate() {
            let Some(parent) = item.parent.filter(|_| item.alive) else {
                continue;
            };
            let (x1, y1) = (dx + p.x[parent], y(items[parent].row));
            // An edge ends above its child's label, so that it crosses no label of its own.
            let above = if p.labels[i].label.is_empty() {
                if matches!(item.kind, Kind::Chain { .. }) {
                    0.75 * F
                } else {
                    R
                }
            } else {
                R + 6.0 + F
            };
            let (x2, y2) = (dx + p.x[i], y(item.row) - above);
            let class = if matches!(item.kind, Kind::Chain { .. })
                || matches!(items[parent].kind, Kind::Chain { .. })
            {
                "edge chain"
            } else {
                "edge"
            };
            let _ = writeln!(
                out,
                "<line class=\"{class}\" x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" \
                 y2=\"{y2:.1}\"/>"
            );
        }
        let mut drawn = 0u64;
        let mut triangles = 0u64;
        for (i, item) in items.iter().enumerate() {
            if !item.alive {
                continue;
            }
            let (x, yy) = (dx + p.x[i], y(item.row));
            let t = &p.labels[i];
            match item.kind {
                Kind::Node { id } => {
                    drawn += 1;
                    let node = &tree.nodes()[id as usize];
                    let mut title = format!("node {id}: {}", tree.label(id));
                    let reason = tree.reason(id);
                    if !reason.is_empty() {
                        let _ = write!(title, " ✗ {reason}");
                    }
                    let _ = write!(
                        out,
                        "<g class=\"point\" data-id=\"{id}\" data-nodes=\"{}\"><title>{}</title>\
                         <circle class=\"node {}\" cx=\"{x:.1}\" cy=\"{yy:.1}\" r=\"{R}\"/>",
                        item.counts.nodes,
                        escape_xml(&title),
                        shape_class(node.status)
                    );
                    text(&mut out, "decision", x, yy - R - 6.0, "middle", &t.label);
                    text(
                        &mut out,
                        "why",
                        x,
                        yy + R + 4.0 + 0.8 * F,
                        "middle",
                        &t.below,
                    );
                }
                Kind::Triangle { first, last } => {
                    triangles += 1;
                    let title = if first == last {
                        format!("{}: {}", tree.label(first), count_words(item.counts))
                    } else {
                        format!(
                            "{} to {}: {}",
                            tree.label(first),
                            tree.label(last),
                            count_words(item.counts)
                        )
                    };
                    let kind = if item.counts.solutions > 0 {
                        "collapsed solved"
                    } else {
                        "collapsed"
                    };
                    let _ = write!(
                        out,
                        "<g class=\"{kind}\" data-id=\"{first}\" data-nodes=\"{}\">\
                         <title>{}</title><polygon points=\"{x:.1},{:.1} {:.1},{:.1} \
                         {:.1},{:.1}\"/>",
                        item.counts.nodes,
                        escape_xml(&title),
                        yy - R,
                        x - TRI,
                        yy + TRI,
                        x + TRI,
                        yy + TRI,
                    );
                    text(&mut out, "decision", x, yy - R - 6.0, "middle", &t.label);
                    text(
                        &mut out,
                        "count",
                        x,
                        yy + TRI + 4.0 + 0.8 * F,
                        "middle",
                        &t.below,
                    );
                }
                Kind::Chain { levels } => {
                    triangles += 1;
                    let width = text_width(&t.below) + 12.0;
                    let _ = write!(
                        out,
                        "<g class=\"chain\" data-nodes=\"{}\"><title>{levels} levels drawn as \
                         one: {}</title><rect x=\"{:.1}\" y=\"{:.1}\" width=\"{width:.1}\" \
                         height=\"{:.1}\" rx=\"6\"/>",
                        item.counts.nodes,
                        count_words(item.counts),
                        x - width / 2.0,
                        yy - 0.75 * F,
                        1.5 * F,
                    );
                    text(&mut out, "count", x, yy + 0.35 * F, "middle", &t.below);
                }
            }
            out.push_str("</g>\n");
        }
        // The legend, at the bottom left, as much of it as fits.
        let total = tree.nodes().len() as u64;
        let mut legend = format!("{total} tree nodes");
        if tree.cut() > 0 {
            let _ = write!(legend, " (the first {total} of {})", total + tree.cut());
        }
        if triangles > 0 {
            let _ = write!(legend, ", {drawn} drawn");
            let key = "; ▲ nodes (✗ failures, ✓ solutions)";
            if text_width(&legend) + text_width(key) + 2.0 * MARGIN <= view_w {
                legend.push_str(key);
            }
        }
        text(
            &mut out,
            "note",
            MARGIN,
            view_h - MARGIN / 2.0 - 0.3 * F,
            "start",
            &legend,
        );
        out.push_str("\n</svg>\n");
        out
    }

    /// `37 tree nodes, 19 failures, 1 solution`.
    fn count_words(c: Counts) -> String {
        let plural =
            |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        format!(
            "{}, {}, {}",
            plural(c.nodes, "tree node", "tree nodes"),
            plural(c.failures, "failure", "failures"),
            plural(c.solutions, "solution", "solutions")
        )
    }

    const SLIDE_STYLE: &str = "<style>
.background { fill: #fff }
.edge { stroke: #888; stroke-width: 1.5 }
.edge.chain { stroke-dasharray: 6 4 }
text { fill: #222; paint-order: stroke; stroke: #fff; stroke-width: 4px; stroke-linejoin: round }
.node { stroke: #333; stroke-width: 1.5; fill: #fff }
.node.failed { fill: #d62728 }
.node.solution { fill: #2ca02c }
.node.open { fill: #ccc }
.why { fill: #b01c1d }
.row-name { font-weight: bold; fill: #444 }
.collapsed polygon { fill: #f3c6c6; stroke: #b01c1d; stroke-width: 1.5 }
.collapsed.solved polygon { fill: #c9e8c9; stroke: #2a7a2a }
.chain rect { fill: #f4f4f4; stroke: #888; stroke-dasharray: 6 4 }
.note { fill: #555 }
</style>
";
}
