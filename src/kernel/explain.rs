//! Reasons: which facts about the domains made a constraint remove a value, fix a variable or
//! fail. [`Constraint::explain`](crate::Constraint::explain) gives them; the explanations of the
//! [`puzzle`](crate::puzzle) module print them in the model's words.
//!
//! A reason is a list of [`Literal`]s: facts about single variables (`x = 3`, `x ≠ 3`, `x ≥ 3`,
//! `x ≤ 3`), each true in the domains the constraint saw, such that the constraint alone,
//! propagated from the model's initial domains cut down to those facts, draws the same
//! [`Inference`]. That is what [`reason_implies`] checks, and what the tests of every built-in
//! explanation run on each reason given.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};

use smallvec::SmallVec;

use crate::domain::Domain;
use crate::ids::VarId;
use crate::kernel::{Conflict, Constraint, PropagationLevel, propagate_alone};

/// A fact about one variable's domain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Literal {
    /// The variable has the value.
    Eq(VarId, i32),
    /// The variable does not have the value.
    Ne(VarId, i32),
    /// The variable is at least the value.
    Ge(VarId, i32),
    /// The variable is at most the value.
    Le(VarId, i32),
}

impl Literal {
    /// The variable the fact is about.
    pub fn var(self) -> VarId {
        match self {
            Literal::Eq(var, _)
            | Literal::Ne(var, _)
            | Literal::Ge(var, _)
            | Literal::Le(var, _) => var,
        }
    }

    /// The value the fact compares the variable with.
    pub fn value(self) -> i32 {
        match self {
            Literal::Eq(_, value)
            | Literal::Ne(_, value)
            | Literal::Ge(_, value)
            | Literal::Le(_, value) => value,
        }
    }

    /// Whether every value left in `domain` satisfies the fact.
    pub fn holds_in(self, domain: &Domain) -> bool {
        match self {
            Literal::Eq(_, value) => domain.value() == Some(value),
            Literal::Ne(_, value) => !domain.contains(value),
            Literal::Ge(_, value) => domain.min().is_some_and(|min| min >= value),
            Literal::Le(_, value) => domain.max().is_some_and(|max| max <= value),
        }
    }

    /// The operator as a mathematician writes it: `=`, `≠`, `≥`, `≤`.
    pub fn operator(self) -> &'static str {
        match self {
            Literal::Eq(..) => "=",
            Literal::Ne(..) => "≠",
            Literal::Ge(..) => "≥",
            Literal::Le(..) => "≤",
        }
    }

    /// Cuts `domain` down to the values that satisfy the fact; `Err` if none does.
    /// A word operation per block (a value at a time would make a reason of many literals
    /// on wide domains quadratic: thousands of `≠` literals, each rebuilding the domain). The
    /// domain is left empty on `Err`.
    pub(crate) fn apply(self, domain: &mut Domain) -> Result<(), Conflict> {
        // A scratch domain: no undo is needed.
        let mut unrecorded = |_: u32, _: u64| {};
        match self {
            Literal::Eq(_, value) => domain.fix_to(value, &mut unrecorded),
            Literal::Ne(_, value) => domain.remove(value, &mut unrecorded),
            Literal::Ge(_, value) => domain.clamp(value, i32::MAX, &mut unrecorded),
            Literal::Le(_, value) => domain.clamp(i32::MIN, value, &mut unrecorded),
        };
        if domain.is_empty() {
            Err(Conflict)
        } else {
            Ok(())
        }
    }
}

impl fmt::Display for Literal {
    /// `x3 ≠ 4`, with the variable's number; a model names it in its own words
    /// ([`Model::var_name`](crate::Model::var_name)).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.var(), self.operator(), self.value())
    }
}

/// What a constraint concluded, and asks the reason of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Inference {
    /// `var ≠ value`: the value was removed from the variable's domain.
    Removed {
        /// The variable.
        var: VarId,
        /// The value removed.
        value: i32,
    },
    /// `var = value`: every other value was removed from the variable's domain.
    Fixed {
        /// The variable.
        var: VarId,
        /// The value left.
        value: i32,
    },
    /// No assignment of the domains satisfies the constraint.
    Failed,
}

/// The domains a constraint explains its inference from (those it saw before it drew it), and
/// the model's initial domains, which a reason's literals cut down.
#[derive(Debug, Clone, Copy)]
pub struct ExplainContext<'a> {
    initial: &'a [Domain],
    domains: &'a [Domain],
    /// Set when [`minimized_reason`] ran: the reason cost runs of the constraint.
    minimized: Option<&'a AtomicBool>,
    /// A copy of `initial` that [`minimized_reason`] may work in (and leaves as it found it),
    /// instead of copying every domain of the model at each call.
    spare: Option<&'a Mutex<Vec<Domain>>>,
}

impl<'a> ExplainContext<'a> {
    /// A context over the domains of every variable of a model, both indexed by variable: the
    /// model's (`initial`) and those the inference was drawn from. For testing a constraint's
    /// [`explain`](crate::Constraint::explain).
    pub fn new(initial: &'a [Domain], domains: &'a [Domain]) -> Self {
        ExplainContext {
            initial,
            domains,
            minimized: None,
            spare: None,
        }
    }

    /// The same context, with `spare`, a copy of the initial domains that
    /// [`minimized_reason`] works in and gives back unchanged.
    pub(crate) fn with_spare(self, spare: &'a Mutex<Vec<Domain>>) -> Self {
        ExplainContext {
            spare: Some(spare),
            ..self
        }
    }

    /// The same context, setting `flag` when a reason is found by [`minimized_reason`] (the
    /// backjumping log reuses such costly reasons for the other removals of one run).
    pub(crate) fn flagging_minimized(self, flag: &'a AtomicBool) -> Self {
        ExplainContext {
            minimized: Some(flag),
            ..self
        }
    }

    /// The domain of `var` in the model, before any propagation: a reason need not state what
    /// it already says.
    ///
    /// # Panics
    ///
    /// If `var` is not a variable of the model.
    pub fn initial(&self, var: VarId) -> &'a Domain {
        &self.initial[var.index()]
    }

    /// The domain of `var` before the inference.
    ///
    /// # Panics
    ///
    /// If `var` is not a variable of the model.
    pub fn domain(&self, var: VarId) -> &'a Domain {
        &self.domains[var.index()]
    }
}

/// The reason that is always right: every variable of the scope as its domain stands, as
/// literals against its initial domain (`x = v` for a fixed variable, else its bounds and the
/// values removed between them). It is what [`Constraint::explain`] falls back to.
pub fn scope_reason(constraint: &dyn Constraint, ctx: &ExplainContext<'_>) -> Vec<Literal> {
    let mut reason = Vec::new();
    let mut seen: SmallVec<[VarId; 16]> = SmallVec::new();
    for &var in constraint.scope() {
        if seen.contains(&var) {
            continue;
        }
        seen.push(var);
        describe(var, ctx.initial(var), ctx.domain(var), &mut reason);
    }
    reason
}

/// Appends the literals that cut `initial` down to `now`.
pub(crate) fn describe(var: VarId, initial: &Domain, now: &Domain, reason: &mut Vec<Literal>) {
    if let Some(value) = now.value() {
        if initial.value() != Some(value) {
            reason.push(Literal::Eq(var, value));
        }
        return;
    }
    let (Some(low), Some(high)) = (now.min(), now.max()) else {
        return;
    };
    if initial.min().is_some_and(|min| min < low) {
        reason.push(Literal::Ge(var, low));
    }
    if initial.max().is_some_and(|max| max > high) {
        reason.push(Literal::Le(var, high));
    }
    reason.extend(
        initial
            .iter()
            .filter(|&v| v > low && v < high && !now.contains(v))
            .map(|v| Literal::Ne(var, v)),
    );
}

/// Whether `reason` really implies `inference` for `constraint`: the constraint alone,
/// propagated at [`PropagationLevel::Full`] to its own fixpoint from `initial` (the model's
/// domains, indexed by variable) cut down to the literals, removes the value, fixes the
/// variable, or fails. A reason whose literals contradict each other or `initial` implies
/// nothing and is refused.
pub fn reason_implies(
    constraint: &dyn Constraint,
    initial: &[Domain],
    reason: &[Literal],
    inference: Inference,
) -> bool {
    let mut domains = initial.to_vec();
    for literal in reason {
        let Some(domain) = domains.get_mut(literal.var().index()) else {
            return false;
        };
        if literal.apply(domain).is_err() {
            return false;
        }
    }
    match propagate_alone(constraint, &mut domains, PropagationLevel::Full) {
        Err(Conflict) => true,
        Ok(_) => match inference {
            Inference::Removed { var, value } => !domains[var.index()].contains(value),
            Inference::Fixed { var, value } => domains[var.index()].value() == Some(value),
            Inference::Failed => false,
        },
    }
}

/// The literals applied and scope variables propagated, summed over [`minimized_reason`]'s
/// checks, past which it stops dropping variables.
const MINIMIZING_WORK: usize = 20_000;

/// How many single literals [`minimized_reason`] tries to drop, after whole variables: past
/// it, the reason left (still right) is given as it stands.
const SINGLE_LITERAL_TRIES: usize = 48;

/// The largest scope (in variables) whose reasons [`minimized_reason`] cuts down literal by
/// literal; a larger one only drops whole variables, since each try runs the constraint.
const SINGLE_LITERAL_SCOPE: usize = 4;

/// A reason found by the constraint's own propagation: the scope's domains
/// ([`scope_reason`]), cut down greedily — first whole variables, then every `≠` literal of
/// those left at once (when their bounds alone do), then single literals (for a scope of at
/// most 4 variables, at most 48 tries) — while what is left still
/// [implies](reason_implies) `inference`. Every literal holds in the domains of `ctx`, and
/// none of the variables left can be dropped, unless the checks grow large (past 20,000
/// literals applied and variables propagated in all, the variables not yet tried stay: on
/// wide domains and large scopes, minimizing would cost more than the search it serves).
/// `None` when even the
/// scope's domains do not imply the inference at [`PropagationLevel::Full`] (the caller then
/// falls back on [`scope_reason`]).
///
/// It costs one run of the constraint alone per literal tried, so a constraint with a cheap
/// reason of its own should give that instead; it is the reason of the constraints whose own
/// would be a propagator's worth of code (arithmetic, scheduling, circuits...).
pub fn minimized_reason(
    constraint: &dyn Constraint,
    inference: Inference,
    ctx: &ExplainContext<'_>,
) -> Option<Vec<Literal>> {
    if let Some(flag) = ctx.minimized {
        flag.store(true, Ordering::Relaxed);
    }
    let mut reason = scope_reason(constraint, ctx);
    let mut check = ReasonCheck::new(constraint, ctx);
    if !check.implies(&reason, inference) {
        return None;
    }
    let mut vars: SmallVec<[VarId; 16]> = SmallVec::new();
    for literal in &reason {
        if !vars.contains(&literal.var()) {
            vars.push(literal.var());
        }
    }
    // Each check applies the literals and propagates the scope: the work is bounded, so that
    // a reason over wide domains (thousands of `≠` literals) and a large scope does not stall
    // the search. Past the bound, the reason left (still right) is given as it stands.
    // (Dropping a group of variables at a time, halved when it cannot go, was measured: slower
    // on trucking and diameterc-mst, whose reasons need most of their scopes.)
    let mut work = 0;
    for var in vars {
        if work > MINIMIZING_WORK {
            return Some(reason);
        }
        work += reason.len() + constraint.scope().len();
        let trial: Vec<Literal> = reason.iter().copied().filter(|l| l.var() != var).collect();
        if check.implies(&trial, inference) {
            reason = trial;
        }
    }
    // Then the values removed inside the bounds of the variables left (`≠` literals,
    // thousands on a wide domain), all at once, when the bounds alone imply the inference,
    // as they do for the propagators that reason on bounds. (Tried before dropping
    // variables, it made those checks propagate wider domains: slower on cvrp.)
    if reason.iter().any(|l| matches!(l, Literal::Ne(..))) {
        let bounds: Vec<Literal> = reason
            .iter()
            .copied()
            .filter(|l| !matches!(l, Literal::Ne(..)))
            .collect();
        if check.implies(&bounds, inference) {
            reason = bounds;
        }
    }
    let budget = if constraint.scope().len() <= SINGLE_LITERAL_SCOPE {
        SINGLE_LITERAL_TRIES
    } else {
        0
    };
    let (mut i, mut tries) = (0, 0);
    while i < reason.len() && tries < budget {
        tries += 1;
        let mut trial = reason.clone();
        trial.remove(i);
        if check.implies(&trial, inference) {
            reason = trial;
        } else {
            i += 1;
        }
    }
    Some(reason)
}

/// [`reason_implies`] for many reasons of one constraint: the checks work in one copy of the
/// model's domains (the context's spare one if it has one), and only the domains a check
/// touched are put back between two checks.
struct ReasonCheck<'a> {
    constraint: &'a dyn Constraint,
    initial: &'a [Domain],
    domains: Workspace<'a>,
}

/// The domains a [`ReasonCheck`] works in: the context's spare copy of the initial domains
/// when it has one (and no other check holds it), else a copy of its own.
enum Workspace<'a> {
    Spare(MutexGuard<'a, Vec<Domain>>),
    Own(Vec<Domain>),
}

impl std::ops::Deref for Workspace<'_> {
    type Target = Vec<Domain>;
    fn deref(&self) -> &Vec<Domain> {
        match self {
            Workspace::Spare(spare) => spare,
            Workspace::Own(own) => own,
        }
    }
}

impl std::ops::DerefMut for Workspace<'_> {
    fn deref_mut(&mut self) -> &mut Vec<Domain> {
        match self {
            Workspace::Spare(spare) => spare,
            Workspace::Own(own) => own,
        }
    }
}

impl<'a> ReasonCheck<'a> {
    fn new(constraint: &'a dyn Constraint, ctx: &ExplainContext<'a>) -> Self {
        let domains = match ctx.spare.and_then(|spare| spare.try_lock().ok()) {
            Some(spare) => Workspace::Spare(spare),
            None => Workspace::Own(ctx.initial.to_vec()),
        };
        ReasonCheck {
            constraint,
            initial: ctx.initial,
            domains,
        }
    }

    /// Whether `reason` implies `inference`, as [`reason_implies`] decides.
    fn implies(&mut self, reason: &[Literal], inference: Inference) -> bool {
        let mut consistent = true;
        for literal in reason {
            let Some(domain) = self.domains.get_mut(literal.var().index()) else {
                consistent = false;
                break;
            };
            if literal.apply(domain).is_err() {
                consistent = false;
                break;
            }
        }
        let implied = consistent
            && match propagate_alone(self.constraint, &mut self.domains, PropagationLevel::Full) {
                Err(Conflict) => true,
                Ok(_) => match inference {
                    Inference::Removed { var, value } => !self.domains[var.index()].contains(value),
                    Inference::Fixed { var, value } => {
                        self.domains[var.index()].value() == Some(value)
                    }
                    Inference::Failed => false,
                },
            };
        for var in self
            .constraint
            .scope()
            .iter()
            .copied()
            .chain(reason.iter().map(|l| l.var()))
        {
            if let (Some(domain), Some(initial)) = (
                self.domains.get_mut(var.index()),
                self.initial.get(var.index()),
            ) {
                domain.clone_from(initial);
            }
        }
        implied
    }
}
