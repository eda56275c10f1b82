//! Why each value left a domain at each node of a recorded tree, for the page: clicking a
//! struck-out value in its domains panel shows the chain of reasons back to the decisions.
//!
//! Each node is replayed from its parent's recorded domains: the branch, then propagation
//! constraint by constraint (forward checking to its fixpoint, then each constraint's strongest
//! filtering, one at a time), noting for each value removed the constraint and its reason
//! ([`Constraint::explain`](crate::Constraint::explain), or the scope as it stood), checked
//! with [`reason_implies`]. The page follows the reasons back through the node's ancestors
//! (`puzzle::RemovalReplay` does the same for a library user, on any path).

use std::fmt::Write as _;

use super::tree::SearchTree;
use crate::Literal;
use crate::domain::Domain;
use crate::kernel::{
    Constraint, ExplainContext, Inference, PropagationLevel, Sandbox, reason_implies, scope_reason,
};
use crate::search::observer::BranchKind;

/// The most nodes whose removals the page explains (the first in search order): each costs a
/// propagation with a reason per value removed.
pub(crate) const MAX_NODES: usize = 2000;

/// The most work the page spends on explaining, in constraint calls and reasons checked, each
/// weighed by the constraint's arity and counted over all nodes: past it, the nodes that follow are left unexplained (`whyNodes`
/// says how many are). A count, not a clock, so that the page is the same on every machine;
/// it keeps the page's cost to a fraction of a second on a large model (30-Queens replays
/// hundreds of constraint calls a node).
const MAX_WORK: usize = 100_000;

/// `"why":[...],"whyNodes":N,` for the page: per node, its removals as flat lists
/// `var, value, constraint (-1: the branch), n, then n literals as kind (0 =, 1 ≠, 2 ≥, 3 ≤),
/// var, value`; empty without recorded domains.
pub(crate) fn json(tree: &SearchTree<'_>) -> String {
    if !tree.has_domains() {
        return String::new();
    }
    let model = tree.model();
    let initial = model.initial_domains();
    let nodes = tree.nodes();
    let mut count = nodes.len().min(MAX_NODES);
    let mut work = 0;
    let mut out = String::from("\"why\":[");
    for (id, node) in nodes[..count].iter().enumerate() {
        if work >= MAX_WORK {
            count = id;
            break;
        }
        if id > 0 {
            out.push(',');
        }
        let mut domains = match node.parent {
            Some(parent) => tree.domains_at(parent),
            None => initial.to_vec(),
        };
        let mut record = Vec::new();
        if let Some(branch) = node.branch {
            let var = branch.var;
            let keep = |v: i32| match branch.kind {
                BranchKind::Equal => v == branch.value,
                BranchKind::NotEqual => v != branch.value,
                BranchKind::AtMost => v <= branch.value,
                BranchKind::Above => v > branch.value,
            };
            let domain = &domains[var.index()];
            for v in domain.iter().filter(|&v| !keep(v)) {
                let _ = write!(record_sep(&mut record), "{},{v},-1,0", var.index());
            }
            match Domain::from_values(domain.iter().filter(|&v| keep(v))) {
                Ok(kept) => domains[var.index()] = kept,
                Err(_) => {
                    let _ = write!(out, "[{}]", record.join(","));
                    continue;
                }
            }
        }
        propagate(model, initial, &mut domains, &mut record, &mut work);
        let _ = write!(out, "[{}]", record.join(","));
    }
    let _ = write!(out, "],\"whyNodes\":{count},");
    out
}

/// A new record's text, pushed on `records`.
fn record_sep(records: &mut Vec<String>) -> &mut String {
    records.push(String::new());
    records.last_mut().expect("pushed")
}

/// Propagates to the common fixpoint (or a conflict), writing each removal's record; adds the
/// constraint calls and the reasons checked to `work`.
fn propagate(
    model: &crate::Model,
    initial: &[Domain],
    domains: &mut [Domain],
    records: &mut Vec<String>,
    work: &mut usize,
) {
    loop {
        let mut changed = false;
        for (id, constraint) in model.constraints() {
            match run(
                constraint,
                id.index(),
                initial,
                domains,
                records,
                PropagationLevel::Forward,
                work,
            ) {
                Some(pruned) => changed |= pruned,
                None => return,
            }
        }
        if changed {
            continue;
        }
        for (id, constraint) in model.constraints() {
            match run(
                constraint,
                id.index(),
                initial,
                domains,
                records,
                PropagationLevel::Full,
                work,
            ) {
                Some(true) => {
                    changed = true;
                    break;
                }
                Some(false) => {}
                None => return,
            }
        }
        if !changed {
            return;
        }
    }
}

/// One call of the constraint's `propagate`: whether it pruned, `None` on a conflict.
fn run(
    constraint: &dyn Constraint,
    index: usize,
    initial: &[Domain],
    domains: &mut [Domain],
    records: &mut Vec<String>,
    level: PropagationLevel,
    work: &mut usize,
) -> Option<bool> {
    let scope = constraint.scope();
    *work += scope.len();
    // The domains before the call, to explain from.
    let previous = domains.to_vec();
    let mut sandbox = Sandbox::new();
    let failed = sandbox.propagate_once(constraint, domains, level).is_err()
        || scope.iter().any(|v| domains[v.index()].is_empty());
    if failed {
        sandbox.undo(domains);
        return None;
    }
    let mut removed: Vec<(crate::VarId, i32)> = Vec::new();
    for &var in scope {
        let (old, now) = (&previous[var.index()], &domains[var.index()]);
        if old.size() != now.size() {
            removed.extend(old.iter().filter(|&v| !now.contains(v)).map(|v| (var, v)));
        }
    }
    removed.sort_unstable();
    removed.dedup();
    let ctx = ExplainContext::new(initial, &previous);
    *work += removed.len() * scope.len();
    for &(var, value) in &removed {
        let inference = Inference::Removed { var, value };
        let reason = constraint
            .explain(inference, &ctx)
            .filter(|reason| reason_implies(constraint, initial, reason, inference))
            .unwrap_or_else(|| scope_reason(constraint, &ctx));
        let text = record_sep(records);
        let _ = write!(text, "{},{value},{index},{}", var.index(), reason.len());
        for literal in reason {
            let kind = match literal {
                Literal::Eq(..) => 0,
                Literal::Ne(..) => 1,
                Literal::Ge(..) => 2,
                Literal::Le(..) => 3,
            };
            let _ = write!(
                text,
                ",{kind},{},{}",
                literal.var().index(),
                literal.value()
            );
        }
    }
    Some(!removed.is_empty())
}
