//! The domains along the current path of a search, rebuilt from its event stream: what the
//! trace and the tree recorder both need to say what a node looked like.

use crate::domain::Domain;
use crate::model::Model;
use crate::search::observer::{BranchKind, Event};

/// The domains of the current node, and those of each node on the path above it after its
/// propagation; kept up to date by [`observe`](Replay::observe).
#[derive(Debug, Clone)]
pub(crate) struct Replay {
    initial: Vec<Domain>,
    path: Vec<(u64, Vec<Domain>)>,
    current: Vec<Domain>,
}

impl Replay {
    pub(crate) fn new(model: &Model) -> Self {
        Replay {
            initial: model.initial_domains().to_vec(),
            path: Vec::new(),
            current: model.initial_domains().to_vec(),
        }
    }

    /// The current node's domains, as its events have left them.
    pub(crate) fn current(&self) -> &[Domain] {
        &self.current
    }

    /// The domains of node `node` after its propagation, if it is on the current path; the
    /// model's for `None` (the root's parent).
    pub(crate) fn at(&self, node: Option<u64>) -> Option<&[Domain]> {
        match node {
            None => Some(&self.initial),
            Some(id) => self
                .path
                .iter()
                .rev()
                .find(|(n, _)| *n == id)
                .map(|(_, d)| d.as_slice()),
        }
    }

    /// Follows one event: a new node starts from its parent's domains narrowed by its branch,
    /// a pruning narrows the current domains, a node's fixpoint joins the path.
    pub(crate) fn observe(&mut self, event: &Event<'_>) {
        match *event {
            Event::Node {
                parent,
                var,
                value,
                kind,
                ..
            } => {
                while self.path.last().is_some_and(|(n, _)| *n != parent) {
                    self.path.pop();
                }
                let base = self.path.last().map_or(&self.initial, |(_, d)| d);
                self.current.clone_from(base);
                if let Some(domain) = self.current.get_mut(var.index()) {
                    let record = &mut |_, _| {};
                    match kind {
                        BranchKind::Equal => domain.fix_to(value, record),
                        BranchKind::NotEqual => domain.remove(value, record),
                        BranchKind::AtMost => domain.clamp(i32::MIN, value, record),
                        BranchKind::Above => {
                            domain.clamp(value.saturating_add(1), i32::MAX, record)
                        }
                    };
                }
            }
            Event::Pruned { var, after, .. } => {
                if let Some(domain) = self.current.get_mut(var.index()) {
                    domain.clone_from(after);
                }
            }
            Event::Propagated { node, domains } => {
                self.current.clone_from_slice(domains);
                self.path.push((node, domains.to_vec()));
            }
            // AC-3's removals come as `Pruned` events too.
            Event::Failure { .. }
            | Event::Solution { .. }
            | Event::Improved { .. }
            | Event::ArcQueue { .. }
            | Event::Revise { .. } => {}
        }
    }
}
