//! Tasks on one machine: no two run at once.

use super::{AmountArg, Task, edge_finding, layout, lengths_differ, precedences, time_table};
use crate::constraints::{Conflict, Constraint, PropagationContext, WakeOn};
use crate::error::ModelError;
use crate::ids::VarId;
use crate::kernel::PropagationLevel;

use super::Amount;

/// Tasks `i`, starting at `starts[i]` and running for `durations[i]`, never overlap: for each
/// pair, one ends before the other starts. The jobs of one machine in a job shop, the talks of
/// one room; MiniZinc's `disjunctive` and `disjunctive_strict`.
///
/// Durations are at least 0. A task of duration 0 may be placed anywhere, even inside another
/// task, unless the constraint is [`strict`](Disjunctive::strict): then it may not fall
/// strictly inside one. Durations are constants ([`new`](Disjunctive::new)) or variables
/// ([`with_variables`](Disjunctive::with_variables), whose smallest values enter the
/// reasoning).
///
/// Propagation, by [`PropagationLevel`]:
///
/// - `None`: fails when the whole scope is fixed to an overlap.
/// - `Forward` and `Full`: the bounds of the starts, by pairwise precedences (when one task
///   cannot end before another starts, it runs after that one ends: the detectable
///   precedences, pair by pair), edge-finding with overload checking (a task that cannot
///   run before the end of a set of others runs after all of them; Vilím's Θ-Λ-tree,
///   O(n log n), both directions) and time-tabling (as [`Cumulative`](crate::Cumulative)
///   with capacity 1), run to a fixpoint by the engine. O(n²) per run, for the pairs. Not
///   bounds consistent; not-first/not-last is not done.
///
/// # Examples
///
/// ```
/// use cspkit::{Disjunctive, Model};
///
/// // Three jobs of lengths 3, 2 and 1 on one machine, all finished by time 6.
/// let mut model = Model::new();
/// let a = model.new_var(0..=3)?;
/// let b = model.new_var(0..=4)?;
/// let c = model.new_var(0..=5)?;
/// model.post(Disjunctive::new(&[a, b, c], &[3, 2, 1])?)?;
/// // The machine is busy all the time: one order of the three jobs per solution.
/// assert_eq!(model.solver().count().solutions, 6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Disjunctive {
    /// The starts, then the variable durations.
    scope: Vec<VarId>,
    durations: Vec<Amount>,
    strict: bool,
}

impl Disjunctive {
    /// Tasks of constant durations.
    ///
    /// # Errors
    ///
    /// [`ModelError::InvalidConstraint`] if the arrays differ in length.
    pub fn new(starts: &[VarId], durations: &[i32]) -> Result<Disjunctive, ModelError> {
        let durations: Vec<AmountArg> = durations.iter().map(|&d| AmountArg::Const(d)).collect();
        Disjunctive::build(starts, &durations)
    }

    /// Tasks whose durations are variables.
    ///
    /// # Errors
    ///
    /// [`ModelError::InvalidConstraint`] if the arrays differ in length.
    pub fn with_variables(
        starts: &[VarId],
        durations: &[VarId],
    ) -> Result<Disjunctive, ModelError> {
        let durations: Vec<AmountArg> = durations.iter().map(|&d| AmountArg::Var(d)).collect();
        Disjunctive::build(starts, &durations)
    }

    /// The same tasks, where a task of duration 0 may not fall strictly inside another
    /// (MiniZinc's `disjunctive_strict`).
    pub fn strict(mut self) -> Disjunctive {
        self.strict = true;
        self
    }

    fn build(starts: &[VarId], durations: &[AmountArg]) -> Result<Disjunctive, ModelError> {
        if durations.len() != starts.len() {
            return Err(lengths_differ(
                "Disjunctive",
                &[("starts", starts.len()), ("durations", durations.len())],
            ));
        }
        let (scope, durations) = layout(starts, durations);
        Ok(Disjunctive {
            scope,
            durations,
            strict: false,
        })
    }

    fn tasks(&self) -> usize {
        self.durations.len()
    }

    /// Whether two tasks may not overlap: always when strict, otherwise when both surely run.
    fn exclusive(&self, a: &Task, b: &Task) -> bool {
        self.strict || (a.duration > 0 && b.duration > 0)
    }
}

impl Constraint for Disjunctive {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    /// The scope's domains cut down by the constraint's own propagation
    /// ([`minimized_reason`](crate::kernel::minimized_reason)).
    fn explain(
        &self,
        inference: crate::kernel::Inference,
        ctx: &crate::kernel::ExplainContext<'_>,
    ) -> Option<Vec<crate::kernel::Literal>> {
        crate::kernel::minimized_reason(self, inference, ctx)
    }

    fn check(&self, values: &[i32]) -> bool {
        let n = self.tasks();
        let start = |i: usize| i64::from(values[i]);
        let duration = |i: usize| self.durations[i].value(values);
        if (0..n).any(|i| duration(i) < 0) {
            return false;
        }
        (0..n).all(|i| {
            (i + 1..n).all(|j| {
                let apart =
                    start(i) + duration(i) <= start(j) || start(j) + duration(j) <= start(i);
                apart || (!self.strict && (duration(i) == 0 || duration(j) == 0))
            })
        })
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        if ctx.level() == PropagationLevel::None {
            return ctx.check_if_fixed(self);
        }
        let n = self.tasks();
        let scope = &self.scope;
        for duration in &self.durations {
            duration.keep_non_negative(ctx, scope)?;
        }
        let mut tasks = super::read_tasks(ctx, scope, n, &self.durations, None)?;
        precedences(ctx, &scope[..n], &mut tasks, |a, b| self.exclusive(a, b))?;
        edge_finding(ctx, &scope[..n], &mut tasks)?;
        time_table(ctx, &scope[..n], &mut tasks, 1)?;
        Ok(())
    }

    fn wake_on(&self, level: PropagationLevel) -> WakeOn {
        match level {
            PropagationLevel::None => WakeOn::Fixed,
            _ => WakeOn::Bounds,
        }
    }
}
