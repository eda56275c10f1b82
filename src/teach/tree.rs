//! [`SearchTree`]: the tree a search explored, recorded from the event stream, for drawing.

use super::replay::Replay;
use crate::domain::Domain;
use crate::ids::{ConstraintId, VarId};
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
}

impl<'m> SearchTree<'m> {
    /// The default limit on the number of nodes recorded.
    pub const DEFAULT_LIMIT: usize = 5000;

    /// A recorder for searches of `model`, keeping up to [`DEFAULT_LIMIT`](Self::DEFAULT_LIMIT)
    /// nodes, without their domains.
    pub fn new(model: &'m Model) -> Self {
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

    /// Whether domains are recorded.
    pub fn has_domains(&self) -> bool {
        self.domains
    }

    /// The branch of node `id` as a person reads it, `row 2 = 4`; `root` for the root.
    pub fn label(&self, id: u64) -> String {
        match self.nodes.get(id as usize).and_then(|n| n.branch) {
            Some(b) => format!(
                "{} {} {}",
                self.model.var_name(b.var),
                b.kind.symbol(),
                b.value
            ),
            None => "root".to_owned(),
        }
    }

    /// Why node `id` failed, in words (empty if it did not).
    pub fn reason(&self, id: u64) -> String {
        match self.nodes.get(id as usize).map(|n| n.status) {
            Some(NodeStatus::Failed { constraint, var }) => match (constraint, var) {
                (Some(c), Some(v)) => format!(
                    "{} has no value left ({})",
                    self.model.var_name(v),
                    self.model.constraint_name(c)
                ),
                (Some(c), None) => self.model.constraint_name(c).to_owned(),
                (None, Some(v)) => format!("{} has no value left", self.model.var_name(v)),
                (None, None) => "no value left".to_owned(),
            },
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

    /// Keeps, for node `id`, the domains that differ from its parent's.
    fn close(&mut self, id: u64) {
        if !self.domains || id as usize >= self.nodes.len() {
            return;
        }
        let Some(parent) = self.replay.at(self.nodes[id as usize].parent) else {
            return;
        };
        let changes: Vec<(VarId, Domain)> = self
            .model
            .variables()
            .zip(parent.iter().zip(self.replay.current()))
            .filter(|(_, (before, now))| before != now)
            .map(|(var, (_, now))| (var, now.clone()))
            .collect();
        self.nodes[id as usize].changes = changes;
    }
}

impl SearchObserver for SearchTree<'_> {
    fn observes_propagation(&self) -> bool {
        self.domains
    }

    fn event(&mut self, event: &Event<'_>) {
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
                // The node's changes are read against its parent's domains, then it joins
                // the path.
                self.replay.observe(event);
                self.close(node);
            }
            Event::Failure {
                node,
                constraint,
                var,
                ..
            } => {
                self.close(node);
                if let Some(n) = self.nodes.get_mut(node as usize) {
                    n.status = NodeStatus::Failed { constraint, var };
                }
            }
            Event::Solution { node, .. } => {
                if let Some(n) = self.nodes.get_mut(node as usize) {
                    n.status = NodeStatus::Solution;
                }
            }
            Event::Improved { .. } => {}
        }
    }
}
