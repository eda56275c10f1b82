//! Learning from failures, in the style of lazy clause generation (Ohrimenko, Stuckey and
//! Codish 2009; Chuffed, Pumpkin, Huub).
//!
//! Built on the log of [conflict-directed backjumping](super::backjump): every value removed
//! below the root is written down in trail order, with its level and its cause. When a node
//! fails:
//!
//! 1. **Conflict analysis** ([`analysis`]) starts from the failure's reason (literals that
//!    together cannot hold) and replaces, one at a time and latest first, each removal of the
//!    current level by the reason of its cause, until one literal of the current level is
//!    left: the *first unique implication point* (1UIP). The result is a **nogood**: literals
//!    that cannot all hold in any solution (of the model, under the bound of a branch and
//!    bound search, and beside the solutions already reported).
//! 2. **Backjumping**: the search goes back to the second-highest level among the nogood's
//!    literals, where all but the 1UIP literal still hold, and there makes the 1UIP literal
//!    false (its *asserting* literal), with the rest of the nogood as the reason.
//! 3. **Propagation** ([`nogoods`]): the nogood is kept, and from then on, whenever all its
//!    literals but one hold, the last one is made false, with two watched literals per
//!    nogood, after the constraints' fixpoint and until both are at a fixpoint together.
//!
//! Literals fit the bitset domains: a removal is the literal `x ≠ v`; `x = v`, `x ≥ v` and
//! `x ≤ v` are the removals of the other values, of the values below `v`, of those above.
//! Removals at the root are facts and appear in no nogood.

pub(crate) mod analysis;
pub(crate) mod nogoods;

use crate::kernel::explain::Literal;
use crate::search::backjump::LogFollower;
use crate::search::learning::nogoods::Nogoods;

/// What learning keeps beside the backjumping log: the nogoods, and the reason of the last
/// failure until the search analyses it.
#[derive(Debug, Default)]
pub(crate) struct Learning {
    pub(crate) nogoods: Nogoods,
    /// The reason of the last failure: literals that cannot all hold.
    pub(crate) failure: Option<Vec<Literal>>,
    /// The search leaves a solution: its decisions become a nogood (a blocking clause),
    /// so that no later jump back above them can find the solution again.
    pub(crate) at_solution: bool,
}

impl Learning {
    /// Learning for a model of `n` variables, with no nogood yet.
    pub(crate) fn new(n: usize) -> Self {
        Learning {
            nogoods: Nogoods::new(n),
            failure: None,
            at_solution: false,
        }
    }

    /// A new search from the model's root: the nogoods are forgotten (they may rest on the
    /// fixes, restriction or bound of the search that learned them).
    pub(crate) fn reset(&mut self) {
        self.nogoods.clear();
        self.failure = None;
        self.at_solution = false;
    }

    /// The removal log was cut back to `len` entries.
    pub(crate) fn undone_to(&mut self, len: usize) {
        self.nogoods.undone_to(len);
        self.failure = None;
    }
}

impl LogFollower for Learning {
    fn reset(&mut self) {
        Learning::reset(self);
    }

    fn undone_to(&mut self, len: usize) {
        Learning::undone_to(self, len);
    }

    fn take_failure(&mut self) -> Option<Vec<Literal>> {
        self.failure.take()
    }
}

/// Whether `literal` can no longer hold in `domain`: no value left satisfies it.
pub(crate) fn is_false(literal: Literal, domain: &crate::domain::Domain) -> bool {
    match literal {
        Literal::Eq(_, v) => !domain.contains(v),
        Literal::Ne(_, v) => domain.value() == Some(v),
        Literal::Ge(_, v) => domain.max().is_none_or(|max| max < v),
        Literal::Le(_, v) => domain.min().is_none_or(|min| min > v),
    }
}

/// A nogood in the model's words, as the trace prints it: `learned: never r1c2 = 4 with
/// r1c8 = 4` (its asserting literal first).
pub(crate) fn describe_nogood(model: &crate::model::Model, nogood: &[Literal]) -> String {
    let name = |l: &Literal| format!("{} {} {}", model.var_name(l.var()), l.operator(), l.value());
    let mut text = String::from("learned: never ");
    if let Some(first) = nogood.first() {
        text.push_str(&name(first));
    }
    if nogood.len() > 1 {
        let rest: Vec<String> = nogood[1..].iter().map(name).collect();
        text.push_str(" with ");
        text.push_str(&rest.join(", "));
    }
    text
}
