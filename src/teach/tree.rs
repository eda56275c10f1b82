//! [`SearchTree`]: the tree a search explored, recorded from the event stream, for drawing.

use super::replay::Replay;
use super::sentences;
use crate::PropagationLevel;
use crate::domain::Domain;
use crate::ids::{ConstraintId, VarId};
use crate::kernel::Sandbox;
use crate::kernel::explain::Literal;
use crate::model::Model;
use crate::search::observer::{BranchKind, Event, SearchObserver};

/// How a node ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeStatus {
    /// The search branched below it.
    Inner,
    /// A dead end: the constraint that reported it, if one did, and the variable left with no
    /// value, if one was.
    Failed {
        /// The constraint that reported the conflict.
        constraint: Option<ConstraintId>,
        /// The variable whose domain was emptied.
        var: Option<VarId>,
    },
    /// A solution.
    Solution,
    /// Neither: the search stopped here (a limit), or the tree was cut before its end.
    Open,
}

/// The branch from a node's parent: `var kind value`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Branch {
    /// The variable branched on.
    pub var: VarId,
    /// `=`, `≠`, `≤` or `>`.
    pub kind: BranchKind,
    /// The value.
    pub value: i32,
}

/// One node of a [`SearchTree`].
#[derive(Debug, Clone)]
pub struct TreeNode {
    /// The parent's id (`None` for the root, node 0).
    pub parent: Option<u64>,
    /// The branch that made the node (`None` for the root).
    pub branch: Option<Branch>,
    /// Decisions on the path to the node.
    pub depth: usize,
    /// How the node ended.
    pub status: NodeStatus,
    /// The children's ids, in the order the search made them.
    pub children: Vec<u64>,
    /// With domains recorded: each variable whose domain at the end of the node (after its
    /// propagation, or at its failure) differs from its parent's, or from the model's for the
    /// root, with that domain.
    pub changes: Vec<(VarId, Domain)>,
}

/// A conflict-directed backjump from a failed node
/// ([`SearchConfig::with_backjumping`](crate::SearchConfig::with_backjumping)), placed on the
/// recorded tree: the failure's conflict set, the decision the search went back to and the
/// decisions it jumped over. What a page shows at the failed node.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct BackjumpMark {
    /// The failed node.
    pub node: u64,
    /// The variables of the decisions the failure rests on (its conflict set), shallowest
    /// first.
    pub conflict: Vec<VarId>,
    /// The node of the decision the search went back to (the deepest of the conflict set);
    /// `None` when none was left and the search ended.
    pub to: Option<u64>,
    /// The nodes of the decisions jumped over without trying their other branches, deepest
    /// first: they had nothing to do with the failure. Empty when the search went back to
    /// the last decision, as chronological backtracking would.
    pub skipped: Vec<u64>,
}

/// A nogood learned from a failure
/// ([`SearchConfig::with_learning`](crate::SearchConfig::with_learning)), with how much search
/// it saved: how often it removed a value, and how often it failed a node, afterwards.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct LearnedMark {
    /// The failed node it was learned at.
    pub node: u64,
    /// Its literals, the asserting one first.
    pub nogood: Vec<Literal>,
    /// The values it removed afterwards, all its other literals holding.
    pub removals: u64,
    /// The nodes it failed afterwards, all its literals holding.
    pub failures: u64,
}

impl LearnedMark {
    /// How often the nogood was used: the values it removed and the nodes it failed.
    pub fn uses(&self) -> u64 {
        self.removals + self.failures
    }
}

/// A [`SearchObserver`] that records the search tree: every node (up to a limit) with its
/// parent, its branch, how it ended, and, if asked, the domains at it.
///
/// Node ids are those of the event stream: the root is 0 and the others are numbered in the
/// order the search made them, so `nodes()[id]` is node `id`.
///
/// # Examples
///
/// ```
/// use cspkit::models::queens::Queens;
/// use cspkit::teach::tree::{NodeStatus, SearchTree};
///
/// let queens = Queens::new(4)?;
/// let mut tree = SearchTree::new(queens.model());
/// let mut solver = queens.model().solver().with_observer(&mut tree);
/// let count = solver.count().solutions;
/// let stats = solver.stats();
/// drop(solver);
/// let solutions = tree.nodes().iter().filter(|n| n.status == NodeStatus::Solution).count();
/// assert_eq!(solutions as u64, count);
/// // One node per decision and per refutation, and the root.
/// assert_eq!(tree.nodes().len() as u64, stats.tree_nodes());
/// assert_eq!(tree.label(1), "row 1 = 1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct SearchTree<'m> {
    model: &'m Model,
    nodes: Vec<TreeNode>,
    limit: usize,
    cut: u64,
    domains: bool,
    /// The domains along the current path, rebuilt from the events.
    replay: Replay,
    /// Every node of the search, recorded or not, in a picture of bounded size.
    overview: Overview,
    /// The backjumps from recorded nodes, in search order.
    backjumps: Vec<BackjumpMark>,
    /// The nogoods learned (the first [`SearchTree::MAX_LEARNED`]), in search order: by the
    /// node they were learned at, which only grows.
    learned: Vec<LearnedMark>,
}

/// The whole search at a glance, in bounded memory however long it runs: the nodes in search
/// order, gathered into at most [`Overview::MAX_COLUMNS`] columns of equal width (in nodes),
/// and for each column and depth whether it holds a node, a failure or a solution (a "pixel
/// tree", as in CP-Profiler). When the columns run out, neighbouring columns merge and each
/// column covers twice as many nodes.
#[derive(Debug, Clone, Default)]
pub struct Overview {
    /// Nodes per column (a power of two).
    width: u64,
    /// Nodes seen.
    nodes: u64,
    /// Per column, per depth (at most [`Overview::MAX_DEPTH`]), the flags
    /// [`Overview::NODE`], [`Overview::FAILURE`] and [`Overview::SOLUTION`].
    columns: Vec<Vec<u8>>,
}

impl Overview {
    /// The most columns kept.
    pub const MAX_COLUMNS: usize = 1024;
    /// Depths beyond this one are drawn at it.
    pub const MAX_DEPTH: usize = 1024;
    /// A column's flag: a node at this depth.
    pub const NODE: u8 = 1;
    /// A column's flag: a failed node at this depth.
    pub const FAILURE: u8 = 2;
    /// A column's flag: a solution at this depth.
    pub const SOLUTION: u8 = 4;

    /// Nodes per column.
    pub fn column_width(&self) -> u64 {
        self.width.max(1)
    }

    /// The nodes seen, recorded in the tree or not.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The columns, in search order: for each, its flags by depth.
    pub fn columns(&self) -> &[Vec<u8>] {
        &self.columns
    }

    /// Marks `flag` at node `id` (ids in search order) and `depth`.
    fn mark(&mut self, id: u64, depth: usize, flag: u8) {
        self.width = self.width.max(1);
        let mut column = (id / self.width) as usize;
        while column >= Self::MAX_COLUMNS {
            self.merge();
            column = (id / self.width) as usize;
        }
        if self.columns.len() <= column {
            self.columns.resize_with(column + 1, Vec::new);
        }
        let cells = &mut self.columns[column];
        let depth = depth.min(Self::MAX_DEPTH);
        if cells.len() <= depth {
            cells.resize(depth + 1, 0);
        }
        cells[depth] |= flag;
    }

    /// Halves the number of columns: each pair becomes one, twice as wide.
    fn merge(&mut self) {
        let merged = self
            .columns
            .chunks_mut(2)
            .map(|pair| {
                let mut cells = std::mem::take(&mut pair[0]);
                if let Some(right) = pair.get(1) {
                    if cells.len() < right.len() {
                        cells.resize(right.len(), 0);
                    }
                    for (cell, flag) in cells.iter_mut().zip(right) {
                        *cell |= flag;
                    }
                }
                cells
            })
            .collect();
        self.columns = merged;
        self.width *= 2;
    }
}

impl<'m> SearchTree<'m> {
    /// The default limit on the number of nodes recorded.
    pub const DEFAULT_LIMIT: usize = 5000;

    /// The most learned nogoods recorded, wherever they were learned (later ones are not).
    pub const MAX_LEARNED: usize = 20_000;

    /// A recorder for searches of `model`, keeping up to [`DEFAULT_LIMIT`](Self::DEFAULT_LIMIT)
    /// nodes, without their domains.
    pub fn new(model: &'m Model) -> Self {
        let mut overview = Overview {
            nodes: 1,
            ..Overview::default()
        };
        overview.mark(0, 0, Overview::NODE);
        SearchTree {
            model,
            nodes: vec![TreeNode {
                parent: None,
                branch: None,
                depth: 0,
                status: NodeStatus::Open,
                children: Vec::new(),
                changes: Vec::new(),
            }],
            limit: Self::DEFAULT_LIMIT,
            cut: 0,
            domains: false,
            replay: Replay::new(model),
            overview,
            backjumps: Vec::new(),
            learned: Vec::new(),
        }
    }

    /// Records at most `nodes` nodes (the root included); later ones are only counted.
    pub fn with_limit(mut self, nodes: usize) -> Self {
        self.limit = nodes.max(1);
        self
    }

    /// Also records the domains at each node (what the HTML page shows when a node is
    /// selected).
    pub fn with_domains(mut self, domains: bool) -> Self {
        self.domains = domains;
        self
    }

    /// The model searched.
    pub fn model(&self) -> &'m Model {
        self.model
    }

    /// The nodes, indexed by id.
    pub fn nodes(&self) -> &[TreeNode] {
        &self.nodes
    }

    /// How many nodes the search made beyond the limit (not recorded).
    pub fn cut(&self) -> u64 {
        self.cut
    }

    /// The tree cut to its first `nodes` nodes (at least the root), in search order, as
    /// [`with_limit`](SearchTree::with_limit) cuts it: the others are counted in
    /// [`cut`](SearchTree::cut), and each kept node keeps its status; the overview still
    /// shows the whole search. For drawing a part of a large tree (a live page that draws the
    /// first nodes of a search it keeps whole).
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::models::queens::Queens;
    /// use cspkit::teach::tree::SearchTree;
    ///
    /// let queens = Queens::new(6)?;
    /// let mut whole = SearchTree::new(queens.model());
    /// let _ = queens.model().solver().with_observer(&mut whole).count();
    /// let mut limited = SearchTree::new(queens.model()).with_limit(10);
    /// let _ = queens.model().solver().with_observer(&mut limited).count();
    /// let first = whole.truncated(10);
    /// assert_eq!(first.nodes().len(), 10);
    /// assert_eq!(first.cut(), limited.cut());
    /// assert_eq!(first.nodes()[0].children, limited.nodes()[0].children);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn truncated(&self, nodes: usize) -> SearchTree<'m> {
        let keep = nodes.max(1);
        let mut tree = self.clone();
        if tree.nodes.len() > keep {
            tree.cut += (tree.nodes.len() - keep) as u64;
            tree.nodes.truncate(keep);
            for node in &mut tree.nodes {
                node.children.retain(|&child| (child as usize) < keep);
            }
        }
        tree.limit = keep;
        tree
    }

    /// The nogoods the search learned (without learning, none), in search order, wherever
    /// they were learned, up to [`MAX_LEARNED`](Self::MAX_LEARNED); each with how often it
    /// was used afterwards.
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::models::queens::Queens;
    /// use cspkit::teach::tree::SearchTree;
    ///
    /// let queens = Queens::new(8)?;
    /// let mut tree = SearchTree::new(queens.model());
    /// let mut solver = queens.model().solver().with_learning(true).with_observer(&mut tree);
    /// let _ = solver.count();
    /// let learned = solver.stats().learned;
    /// drop(solver);
    /// assert_eq!(tree.learned().len() as u64, learned);
    /// // Some nogood was of use later on.
    /// assert!(tree.learned().iter().any(|mark| mark.uses() > 0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn learned(&self) -> &[LearnedMark] {
        &self.learned
    }

    /// The whole search, recorded nodes and those beyond the limit, as a pixel tree.
    pub fn overview(&self) -> &Overview {
        &self.overview
    }

    /// The backjumps from the recorded nodes, in search order (empty without backjumping).
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::models::queens::Queens;
    /// use cspkit::teach::tree::SearchTree;
    /// use cspkit::Propagation;
    ///
    /// let queens = Queens::new(6)?;
    /// let mut tree = SearchTree::new(queens.model());
    /// let _ = queens
    ///     .model()
    ///     .solver()
    ///     .with_propagation(Propagation::TextbookForward)
    ///     .with_backjumping(true)
    ///     .with_observer(&mut tree)
    ///     .count();
    /// let jump = tree.backjumps().iter().find(|j| !j.skipped.is_empty()).unwrap();
    /// // The search went back to the decision on the deepest variable of the conflict set.
    /// let to = jump.to.unwrap();
    /// let last = *jump.conflict.last().unwrap();
    /// assert_eq!(tree.nodes()[to as usize].branch.unwrap().var, last);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn backjumps(&self) -> &[BackjumpMark] {
        &self.backjumps
    }

    /// The decisions on the path to node `id` (itself included if it is one), root first:
    /// the nodes of the branches `x = v` and `x ≤ v`, the ones that count in a node's depth.
    fn decisions_to(&self, id: u64) -> Vec<u64> {
        let mut path = Vec::new();
        let mut at = Some(id);
        while let Some(v) = at {
            let Some(node) = self.nodes.get(v as usize) else {
                break;
            };
            if node
                .branch
                .is_some_and(|b| matches!(b.kind, BranchKind::Equal | BranchKind::AtMost))
            {
                path.push(v);
            }
            at = node.parent;
        }
        path.reverse();
        path
    }

    /// Whether domains are recorded.
    pub fn has_domains(&self) -> bool {
        self.domains
    }

    /// The branch of node `id` as a person reads it, `row 2 = 4`; `root` for the root.
    pub fn label(&self, id: u64) -> String {
        match self.nodes.get(id as usize).and_then(|n| n.branch) {
            Some(b) => sentences::branch(self.model, b.var, b.kind, b.value),
            None => "root".to_owned(),
        }
    }

    /// Why node `id` failed, in words (empty if it did not).
    pub fn reason(&self, id: u64) -> String {
        match self.nodes.get(id as usize).map(|n| n.status) {
            Some(NodeStatus::Failed { constraint, var }) => {
                sentences::failure(self.model, constraint, var)
            }
            _ => String::new(),
        }
    }

    /// The domains at node `id`: the model's, with the changes of every node on the path.
    pub fn domains_at(&self, id: u64) -> Vec<Domain> {
        let mut path = Vec::new();
        let mut at = Some(id);
        while let Some(node) = at.and_then(|i| self.nodes.get(i as usize)) {
            path.push(node);
            at = node.parent;
        }
        let mut domains = self.model.initial_domains().to_vec();
        for node in path.into_iter().rev() {
            for (var, domain) in &node.changes {
                domains[var.index()].clone_from(domain);
            }
        }
        domains
    }

    /// At a failed node recorded with its domains, the variables of the failing constraint that
    /// clash: a set of its variables fixed at the node, none of which can be left out, such
    /// that the constraint alone, with them fixed and every other variable free (over the
    /// values of the scope's declared domains), fails at full propagation; if no such set exists, the same with the other
    /// variables at their domains at the parent. Found by deletion: each fixed variable is
    /// freed in turn, and stays free if the constraint still fails. Empty at any other node,
    /// and if the constraint alone fails neither way (the failure needed other constraints'
    /// pruning).
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::models::queens::Queens;
    /// use cspkit::teach::tree::{NodeStatus, SearchTree};
    /// use cspkit::PropagationLevel;
    ///
    /// let queens = Queens::new(4)?;
    /// let mut tree = SearchTree::new(queens.model()).with_domains(true);
    /// let _ = queens
    ///     .model()
    ///     .solver()
    ///     .with_propagation(PropagationLevel::None)
    ///     .with_observer(&mut tree)
    ///     .next_solution();
    /// // Node 2 is row 2 = 1 under row 1 = 1: the columns clash.
    /// assert!(matches!(tree.nodes()[2].status, NodeStatus::Failed { .. }));
    /// let names: Vec<_> = tree.clash(2).iter().map(|&v| queens.model().var_name(v)).collect();
    /// assert_eq!(names, ["row 1", "row 2"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn clash(&self, id: u64) -> Vec<VarId> {
        let Some(node) = self.nodes.get(id as usize) else {
            return Vec::new();
        };
        let (
            NodeStatus::Failed {
                constraint: Some(c),
                ..
            },
            Some(parent),
            true,
        ) = (node.status, node.parent, self.domains)
        else {
            return Vec::new();
        };
        let Some((_, constraint)) = self.model.constraints().nth(c.index()) else {
            return Vec::new();
        };
        let at = self.domains_at(id);
        let mut sandbox = Sandbox::new();
        let mut fails = |work: &mut Vec<Domain>| {
            let failed = sandbox
                .propagate_once(constraint, work, PropagationLevel::Full)
                .is_err();
            sandbox.undo(work);
            failed
        };
        let mut scope_fixed: Vec<VarId> = Vec::new();
        for &var in constraint.scope() {
            if at[var.index()].is_fixed() && !scope_fixed.contains(&var) {
                scope_fixed.push(var);
            }
        }
        // The scope free first (the clash alone: every variable of the scope over the values
        // any of them was declared with, so that a given is free too), else the variables at
        // their parent's domains.
        let initial = self.model.initial_domains();
        let mut free = initial.to_vec();
        let low = constraint
            .scope()
            .iter()
            .filter_map(|v| initial[v.index()].min())
            .min();
        let high = constraint
            .scope()
            .iter()
            .filter_map(|v| initial[v.index()].max())
            .max();
        if let (Some(low), Some(high)) = (low, high)
            && let Ok(hull) = Domain::range(low, high)
        {
            for &var in constraint.scope() {
                free[var.index()].clone_from(&hull);
            }
        }
        for base in [free, self.domains_at(parent)] {
            let mut work = base.clone();
            for &var in &scope_fixed {
                work[var.index()].clone_from(&at[var.index()]);
            }
            if scope_fixed.is_empty() || !fails(&mut work) {
                continue;
            }
            let mut fixed = scope_fixed.clone();
            fixed.retain(|&var| {
                work[var.index()].clone_from(&base[var.index()]);
                if fails(&mut work) {
                    return false;
                }
                work[var.index()].clone_from(&at[var.index()]);
                true
            });
            return fixed;
        }
        Vec::new()
    }

    /// Keeps, for node `id`, the domains that differ from its parent's (read from the
    /// changes the node's events made, not from every domain).
    fn close(&mut self, id: u64) {
        if !self.domains || id as usize >= self.nodes.len() {
            return;
        }
        self.nodes[id as usize].changes = self.replay.node_changes();
    }

    /// Whether the domains are still followed: asked for, and no node cut yet (every node
    /// after the first one cut is cut too, so their domains are never needed).
    fn follows_domains(&self) -> bool {
        self.domains && self.cut == 0
    }
}

impl SearchObserver for SearchTree<'_> {
    /// The 0.2 way to feed an event, kept for callers that still do: the same as `on_event`.
    #[allow(
        deprecated,
        reason = "forwards the deprecated method of 0.2 to `on_event`"
    )]
    fn event(&mut self, event: &Event<'_>) {
        self.on_event(event);
    }

    fn observes_propagation(&self) -> bool {
        self.follows_domains()
    }

    fn on_event(&mut self, event: &Event<'_>) {
        if self.cut > 0 {
            // Past the limit: the overview alone, at a cost per node that does not grow with
            // the model.
            match *event {
                Event::Node { node, depth, .. } => {
                    self.overview.nodes += 1;
                    self.overview.mark(node, depth, Overview::NODE);
                    self.cut += 1;
                }
                Event::Failure { node, depth, .. } => {
                    self.overview.mark(node, depth, Overview::FAILURE);
                }
                Event::Solution { node, depth } => {
                    self.overview.mark(node, depth, Overview::SOLUTION);
                }
                _ => {}
            }
            return;
        }
        if self.domains && !matches!(event, Event::Propagated { .. }) {
            self.replay.observe(event);
        }
        match *event {
            Event::Node {
                node,
                parent,
                var,
                value,
                kind,
                depth,
            } => {
                self.overview.nodes += 1;
                self.overview.mark(node, depth, Overview::NODE);
                if self.nodes.len() >= self.limit || node as usize != self.nodes.len() {
                    self.cut += 1;
                    return;
                }
                if let Some(p) = self.nodes.get_mut(parent as usize) {
                    p.children.push(node);
                    if p.status == NodeStatus::Open {
                        p.status = NodeStatus::Inner;
                    }
                }
                self.nodes.push(TreeNode {
                    parent: Some(parent),
                    branch: Some(Branch { var, kind, value }),
                    depth,
                    status: NodeStatus::Open,
                    children: Vec::new(),
                    changes: Vec::new(),
                });
            }
            Event::Pruned { .. } => {}
            Event::Propagated { node, .. } => {
                // The node's fixpoint joins the path; its changes are those since it started.
                if self.domains {
                    self.replay.observe(event);
                }
                self.close(node);
            }
            Event::Failure {
                node,
                constraint,
                var,
                depth,
            } => {
                self.overview.mark(node, depth, Overview::FAILURE);
                self.close(node);
                if let Some(n) = self.nodes.get_mut(node as usize) {
                    n.status = NodeStatus::Failed { constraint, var };
                }
            }
            Event::Solution { node, depth } => {
                self.overview.mark(node, depth, Overview::SOLUTION);
                if let Some(n) = self.nodes.get_mut(node as usize) {
                    n.status = NodeStatus::Solution;
                }
            }
            Event::Backjump {
                node,
                depth,
                to,
                conflict,
                skipped,
            } => {
                if node as usize >= self.nodes.len() {
                    return;
                }
                // The decisions on the path, one per level: the event's levels are theirs.
                let decisions = self.decisions_to(node);
                let level = |depth: usize| decisions.get(depth.checked_sub(1)?).copied();
                let skipped_nodes: Vec<u64> = (to + 1..=depth).rev().filter_map(level).collect();
                debug_assert_eq!(skipped_nodes.len(), skipped.len());
                self.backjumps.push(BackjumpMark {
                    node,
                    conflict: conflict.to_vec(),
                    to: level(to),
                    skipped: skipped_nodes,
                });
            }
            Event::Improved { .. }
            | Event::ArcQueue { .. }
            | Event::Revise { .. }
            | Event::Backtrack { .. } => {}
            Event::Learned { node, nogood, .. } => {
                if self.learned.len() < Self::MAX_LEARNED {
                    self.learned.push(LearnedMark {
                        node,
                        nogood: nogood.to_vec(),
                        removals: 0,
                        failures: 0,
                    });
                }
            }
            Event::NogoodUsed {
                learned_at, failed, ..
            } => {
                if let Ok(i) = self.learned.binary_search_by_key(&learned_at, |m| m.node) {
                    let mark = &mut self.learned[i];
                    if failed {
                        mark.failures += 1;
                    } else {
                        mark.removals += 1;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_overview_keeps_every_node_in_bounded_columns() {
        let mut overview = Overview::default();
        overview.mark(0, 0, Overview::NODE);
        // 10,000 nodes: a path down to depth 9 and back, failures at the bottom.
        for id in 1..10_000u64 {
            let depth = (id % 10) as usize;
            overview.mark(id, depth, Overview::NODE);
            if depth == 9 {
                overview.mark(id, depth, Overview::FAILURE);
            }
        }
        overview.mark(9_999, 9, Overview::SOLUTION);
        assert!(overview.columns().len() <= Overview::MAX_COLUMNS);
        // 10,000 nodes in at most 1,024 columns: 16 nodes each.
        assert_eq!(overview.column_width(), 16);
        assert_eq!(overview.columns().len(), 625);
        for column in overview.columns() {
            // Each column of 16 consecutive nodes meets every depth, and a failure at 9.
            assert_eq!(column.len(), 10);
            assert!(column.iter().all(|&f| f & Overview::NODE != 0));
            assert!(column[9] & Overview::FAILURE != 0);
            assert!(column[..9].iter().all(|&f| f & Overview::FAILURE == 0));
        }
        assert!(overview.columns()[624][9] & Overview::SOLUTION != 0);
        assert!(
            overview.columns()[..624]
                .iter()
                .all(|c| c[9] & Overview::SOLUTION == 0)
        );
    }

    #[test]
    fn the_tree_counts_the_nodes_beyond_its_limit_in_the_overview() {
        let queens = crate::models::queens::Queens::new(6).unwrap();
        let mut tree = SearchTree::new(queens.model()).with_limit(10);
        let mut solver = queens.model().solver().with_observer(&mut tree);
        let _ = solver.count();
        let made = solver.stats().tree_nodes();
        drop(solver);
        assert_eq!(tree.nodes().len(), 10);
        assert_eq!(tree.overview().nodes(), made);
        let solutions: u64 = tree
            .overview()
            .columns()
            .iter()
            .map(|c| c.iter().filter(|&&f| f & Overview::SOLUTION != 0).count() as u64)
            .sum();
        assert!((1..=4).contains(&solutions));
    }
}
