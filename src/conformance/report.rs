//! What a run returns ([`ConformanceReport`], [`ConformanceFailure`]) and how a case is
//! written in a message.

use std::fmt;

use crate::constraints::Constraint;
use crate::domain::Domain;
use crate::ids::VarId;
use crate::kernel::PropagationLevel;
use crate::model::Model;

/// The result of one propagation call from given domains.
pub(super) struct Propagated {
    pub(super) conflict: bool,
    pub(super) after: Vec<Domain>,
    pub(super) restored: bool,
}

pub(super) fn show_domains(model: &Model, scope: &[usize], domains: &[Domain]) -> String {
    let parts: Vec<String> = scope
        .iter()
        .map(|&i| format!("{} ∈ {}", model.var_name(var_at(model, i)), domains[i]))
        .collect();
    parts.join(", ")
}

/// The variable at `index` of `model`.
pub(super) fn var_at(model: &Model, index: usize) -> VarId {
    VarId {
        model: model.id(),
        index: index as u32,
    }
}

/// `Debug` of the constraint, shortened for messages.
pub(super) fn describe(constraint: &dyn Constraint) -> String {
    const LIMIT: usize = 300;
    let text = format!("{constraint:?}");
    match text.char_indices().nth(LIMIT) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

pub(super) fn show_assignment(model: &Model, scope: &[usize], values: &[i32]) -> String {
    let parts: Vec<String> = scope
        .iter()
        .zip(values)
        .map(|(&i, v)| format!("{} = {v}", model.var_name(var_at(model, i))))
        .collect();
    format!("({})", parts.join(", "))
}

pub(super) fn show_result(model: &Model, scope: &[usize], result: &Propagated) -> String {
    if result.conflict {
        return "a conflict".to_owned();
    }
    let parts: Vec<String> = scope
        .iter()
        .map(|&i| format!("{} ∈ {}", model.var_name(var_at(model, i)), result.after[i]))
        .collect();
    parts.join(", ")
}

/// What a passing run measured, per propagation level.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ConformanceReport {
    /// The seed of the run.
    pub seed: u64,
    /// The number of cases run.
    pub cases: usize,
    /// The name of the constraint tested ([`Constraint::name`]).
    pub constraint: String,
    /// One report per level: `None`, `Forward`, `Full`.
    pub levels: [LevelReport; 3],
}

impl ConformanceReport {
    /// The report of one level.
    pub fn level(&self, level: PropagationLevel) -> &LevelReport {
        match level {
            PropagationLevel::None => &self.levels[0],
            PropagationLevel::Forward => &self.levels[1],
            PropagationLevel::Full => &self.levels[2],
        }
    }
}

/// What a passing run measured at one propagation level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct LevelReport {
    /// The level.
    pub level: PropagationLevel,
    /// Propagation calls checked for soundness (one per case).
    pub propagations: usize,
    /// Of those, the calls that pruned something.
    pub pruned: usize,
    /// Of those, the calls that reported a conflict.
    pub conflicts: usize,
    /// Of those, the calls after which every value left in the scope had a support (a
    /// solution of the constraint within the domains left), or that rightly reported a
    /// conflict.
    pub domain_consistent: usize,
    /// Of those, the calls after which a second call pruned more or reported a conflict.
    pub second_call_pruned: usize,
    /// Of those, the calls for which [`Constraint::is_idempotent`] said true at this level
    /// (all or none of them, unless the answer depends on the constraint's parameters).
    pub declared_idempotent: usize,
    /// Full assignments checked for failure detection.
    pub full_assignments: usize,
    /// Runs of the constraint's [`Propagator`](crate::Propagator) told of changes (after a
    /// first run, on a narrowed branch), checked for soundness and for the restoration of its
    /// state; 0 for a constraint without one.
    pub incremental_runs: usize,
}

impl LevelReport {
    /// Whether every call checked left the domains domain consistent.
    pub fn is_domain_consistent(&self) -> bool {
        self.domain_consistent == self.propagations
    }

    /// Whether no second call ever pruned more, so that declaring the constraint idempotent
    /// at this level is plausible (not proven). Informative for a constraint that does not
    /// declare it: where it is declared, a second call that prunes more fails the run.
    pub fn looks_idempotent(&self) -> bool {
        self.second_call_pruned == 0
    }
}

impl fmt::Display for ConformanceReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} conforms: {} cases, seed {:#x}",
            self.constraint, self.cases, self.seed
        )?;
        writeln!(
            f,
            "  level    calls  pruned  conflicts  domain consistent  second call pruned  \
             declared idempotent"
        )?;
        for l in &self.levels {
            writeln!(
                f,
                "  {:<7} {:>6} {:>7} {:>10} {:>18} {:>19} {:>20}",
                format!("{:?}", l.level),
                l.propagations,
                l.pruned,
                l.conflicts,
                l.domain_consistent,
                l.second_call_pruned,
                l.declared_idempotent,
            )?;
        }
        Ok(())
    }
}

/// The property a [`ConformanceFailure`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Property {
    /// Propagation removed a value that a solution uses, or reported a conflict while a
    /// solution exists.
    Soundness,
    /// On a full assignment, propagation disagreed with `check`; or it returned `Ok` with an
    /// empty domain.
    FailureDetection,
    /// The constraint declared itself idempotent, but a second call pruned more.
    Idempotence,
    /// Undoing through the trail did not restore the domains exactly.
    Undo,
    /// A propagator behaved differently after a backtrack than a fresh one: its state was not
    /// restored exactly.
    State,
    /// Propagation pruned a variable outside the scope, or its result depended on one.
    Locality,
    /// The model rejected the constraint when it was posted.
    Posting,
    /// The builder or the constraint panicked.
    NoPanic,
    /// The test's configuration cannot make a case.
    Setup,
    /// Propagation left a value without support where a
    /// [required](super::ConformanceTest::require) consistency allows none.
    Strength,
}

/// A strength of propagation the kit can [require](super::ConformanceTest::require) after every
/// call at a level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Consistency {
    /// Domain (generalised arc) consistency: every value left in the scope belongs to a
    /// solution of the constraint within the domains left; and a conflict when none is left.
    Domain,
    /// Bounds consistency over the integers (bounds(Z)): the smallest and the largest value
    /// left of each variable belong to a solution whose values lie between the bounds of the
    /// domains left (holes ignored); and a conflict when there is none.
    Bounds,
}

impl fmt::Display for Consistency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Consistency::Domain => "domain",
            Consistency::Bounds => "bounds",
        })
    }
}

impl fmt::Display for Property {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Property::Soundness => "soundness (never prune a value some solution uses)",
            Property::FailureDetection => {
                "failure detection (a conflict exactly when check rejects a full assignment)"
            }
            Property::Idempotence => "idempotence (as declared by is_idempotent)",
            Property::Undo => "undo (the trail restores every domain exactly)",
            Property::State => {
                "state (after a backtrack, a propagator prunes as a fresh one would)"
            }
            Property::Locality => "locality (read and prune only the scope)",
            Property::Posting => "posting (the model accepts the constraint)",
            Property::NoPanic => "no panic",
            Property::Setup => "setup (the test's configuration)",
            Property::Strength => "strength (the consistency required after propagation)",
        })
    }
}

/// A property violated by one case: everything needed to understand and reproduce it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ConformanceFailure {
    /// The property violated.
    pub property: Property,
    /// The propagation level of the failing call, if the failure is about one.
    pub level: Option<PropagationLevel>,
    /// The constraint, as its `Debug` shows it (shortened).
    pub constraint: String,
    /// The seed of the run.
    pub seed: u64,
    /// The failing case, counted from 0.
    pub case: usize,
    /// The seed of the failing case: `.seed(case_seed).cases(1)` runs it alone.
    pub case_seed: u64,
    /// The names of the scope's variables, in the order of the scope.
    pub variables: Vec<String>,
    /// Their domains before the failing call.
    pub before: Vec<Domain>,
    /// Their domains after it, when it returned normally.
    pub after: Option<Vec<Domain>>,
    /// What went wrong, in words.
    pub message: String,
}

impl fmt::Display for ConformanceFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "conformance failure: {}", self.property)?;
        if !self.constraint.is_empty() {
            write!(f, "  constraint: {}", self.constraint)?;
            match self.level {
                Some(level) => writeln!(f, ", at PropagationLevel::{level:?}")?,
                None => writeln!(f)?,
            }
        }
        for (i, (name, before)) in self.variables.iter().zip(&self.before).enumerate() {
            write!(f, "  {name} ∈ {before}")?;
            match self.after.as_ref().and_then(|after| after.get(i)) {
                Some(after) => writeln!(f, "  →  {after}")?,
                None => writeln!(f)?,
            }
        }
        writeln!(f, "  {}", self.message)?;
        write!(
            f,
            "  reproduce: case {} of seed {:#x}; alone: .seed({:#x}).cases(1)",
            self.case, self.seed, self.case_seed
        )
    }
}

impl std::error::Error for ConformanceFailure {}
