//! The domains along the current path of a search, rebuilt from its event stream: what the
//! trace and the tree recorder both need to say what a node looked like.
//!
//! Costs: following an event costs the domains it changes, not the model's size. The domains
//! of the current node are kept in one vector, with a log of the domains each change replaced
//! (as the engine's trail does); a node on the path is the length of the log at its fixpoint,
//! and going back to it undoes the log down to that length. Two kinds of event are read in
//! full, at a cost in the model's size: the root's fixpoint (once per run, restarts included),
//! and, once an objective has improved, every fixpoint, since the bound of branch and bound
//! narrows domains without [`Event::Pruned`] events.

use crate::domain::Domain;
use crate::ids::VarId;
use crate::model::Model;
use crate::search::observer::{BranchKind, Event};

/// The domains of the current node, and the way back to those of each node on the path above
/// it; kept up to date by [`observe`](Replay::observe).
#[derive(Debug, Clone)]
pub(crate) struct Replay {
    model_id: u32,
    /// The current node's domains.
    current: Vec<Domain>,
    /// Each change since the model's domains: the variable and the domain it replaced.
    log: Vec<(u32, Domain)>,
    /// The nodes on the current path that reached their fixpoint, each with the length of the
    /// log then.
    path: Vec<(u64, usize)>,
    /// The length of the log when the current node started.
    node_start: usize,
    /// Whether an objective has improved: the bound of branch and bound may then change
    /// domains without events, so each fixpoint is read in full.
    bounded: bool,
    /// A stamp per variable, to list each changed variable once.
    seen: Vec<u32>,
    stamp: u32,
}

impl Replay {
    pub(crate) fn new(model: &Model) -> Self {
        Replay {
            model_id: model.id(),
            current: model.initial_domains().to_vec(),
            log: Vec::new(),
            path: Vec::new(),
            node_start: 0,
            bounded: false,
            seen: Vec::new(),
            stamp: 0,
        }
    }

    /// The current node's domains, as its events have left them.
    pub(crate) fn current(&self) -> &[Domain] {
        &self.current
    }

    /// Each variable whose domain now differs from the one it had when the current node
    /// started (its parent's after the branch's parent fixpoint, or the model's for the
    /// root), with its domain now, in the order of the variables.
    pub(crate) fn node_changes(&mut self) -> Vec<(VarId, Domain)> {
        if self.seen.len() != self.current.len() {
            self.seen = vec![0; self.current.len()];
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.stamp = 1;
        }
        let mut changed: Vec<u32> = Vec::new();
        // The first change of a variable in the node replaced its domain at the start.
        for (var, before) in &self.log[self.node_start..] {
            let i = *var as usize;
            if self.seen[i] != self.stamp {
                self.seen[i] = self.stamp;
                if *before != self.current[i] {
                    changed.push(*var);
                }
            }
        }
        changed.sort_unstable();
        changed
            .into_iter()
            .map(|index| {
                let var = VarId {
                    model: self.model_id,
                    index,
                };
                (var, self.current[index as usize].clone())
            })
            .collect()
    }

    /// Follows one event: a new node goes back to its parent's domains and narrows them by its
    /// branch, a pruning narrows the current domains, a node's fixpoint joins the path.
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
                let mark = self.path.last().map_or(0, |&(_, mark)| mark);
                self.undo_to(mark);
                self.node_start = self.log.len();
                let Some(domain) = self.current.get(var.index()) else {
                    return;
                };
                let mut domain = domain.clone();
                let record = &mut |_, _| {};
                match kind {
                    BranchKind::Equal => domain.fix_to(value, record),
                    BranchKind::NotEqual => domain.remove(value, record),
                    BranchKind::AtMost => domain.clamp(i32::MIN, value, record),
                    BranchKind::Above => domain.clamp(value.saturating_add(1), i32::MAX, record),
                };
                self.set(var.index, &domain);
            }
            Event::Pruned { var, after, .. } => self.set(var.index, after),
            Event::Propagated { node, domains } => {
                if node == 0 {
                    // A root: the first, or that of a new run (a restart) whose root may
                    // differ. Everything is read again, from the model's domains.
                    self.undo_to(0);
                    self.path.clear();
                    self.node_start = 0;
                    self.sync(domains);
                } else if self.bounded {
                    self.sync(domains);
                } else {
                    debug_assert!(
                        self.current.as_slice() == domains,
                        "every change of the domains at a node comes as an event"
                    );
                }
                self.path.push((node, self.log.len()));
            }
            Event::Improved { .. } => self.bounded = true,
            // AC-3's removals come as `Pruned` events too.
            Event::Failure { .. }
            | Event::Solution { .. }
            | Event::Backtrack { .. }
            | Event::Backjump { .. }
            | Event::Learned { .. }
            | Event::NogoodUsed { .. }
            | Event::ArcQueue { .. }
            | Event::Revise { .. } => {}
        }
    }

    /// Gives variable `index` the domain `domain`, logging the one it replaces.
    fn set(&mut self, index: u32, domain: &Domain) {
        let Some(now) = self.current.get_mut(index as usize) else {
            return;
        };
        if now != domain {
            let before = std::mem::replace(now, domain.clone());
            self.log.push((index, before));
        }
    }

    /// Makes the current domains `domains`, logging each one that changes (a scan of every
    /// variable).
    fn sync(&mut self, domains: &[Domain]) {
        for (i, (now, then)) in self.current.iter_mut().zip(domains).enumerate() {
            if now != then {
                let before = std::mem::replace(now, then.clone());
                self.log.push((i as u32, before));
            }
        }
    }

    /// Undoes the log down to `mark` changes.
    fn undo_to(&mut self, mark: usize) {
        while self.log.len() > mark {
            if let Some((i, before)) = self.log.pop() {
                self.current[i as usize] = before;
            }
        }
    }
}
