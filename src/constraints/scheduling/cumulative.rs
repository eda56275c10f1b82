//! Tasks sharing a resource of limited capacity.

use super::{
    Amount, AmountArg, Task, edge_finding, layout, lengths_differ, overload, precedences,
    read_tasks, time_table,
};
use crate::constraints::bounds::keep_at_least;
use crate::constraints::{Conflict, Constraint, PropagationContext, WakeOn};
use crate::error::ModelError;
use crate::ids::VarId;
use crate::kernel::PropagationLevel;
use smallvec::SmallVec;

/// Tasks `i` start at `starts[i]`, run for `durations[i]` and use `demands[i]` of a resource
/// whose `capacity` is never exceeded: at every moment the demands of the running tasks add
/// up to at most the capacity. Workers on a building site, machines of a shop, the RCPSP;
/// MiniZinc's `cumulative`.
///
/// Durations and demands are at least 0 (a task with none of either takes nothing), and so is
/// the capacity of a non-empty set of tasks. They are constants ([`new`](Cumulative::new)) or
/// variables ([`with_variables`](Cumulative::with_variables)), whose smallest values then
/// enter the reasoning (and whose negative values are removed).
///
/// Propagation, by [`PropagationLevel`]:
///
/// - `None`: fails when the whole scope is fixed to an overload.
/// - `Forward` and `Full`: the bounds of the starts, four ways, run to a fixpoint by the
///   engine: time-tabling (the compulsory parts of the tasks form a profile that may not
///   exceed the capacity, and each task is pushed past the parts of the profile it would
///   overload; the capacity is raised to the profile's peak), energy overload on each window
///   from a task's earliest start to a task's latest end, and pairwise precedences between
///   the tasks whose demands together exceed the capacity (one of them cannot end before the
///   other starts: it runs second), and edge-finding among the tasks whose demand exceeds
///   half the capacity (any two of them exclude each other: they share the resource as one
///   machine, as [`Disjunctive`](crate::Disjunctive) reasons). O(n²) per run. Not bounds
///   consistent (deciding that is NP-hard); edge-finding on the cumulative resource itself is
///   not done.
///
/// # Examples
///
/// ```
/// use cspkit::{Cumulative, Model};
///
/// // Three tasks of length 2 on a capacity of 2: demands 1, 1 and 2 over 0..=4.
/// let mut model = Model::new();
/// let starts = model.new_vars(3, 0..=2)?;
/// model.post(Cumulative::new(&starts, &[2, 2, 2], &[1, 1, 2], 2)?)?;
/// // The big task runs alone: first (the others share 2..4) or last (they share 0..2).
/// let solutions: Vec<Vec<i32>> = model.solver().solutions().map(|s| s.values().to_vec()).collect();
/// assert_eq!(solutions, [vec![0, 0, 2], vec![2, 2, 0]]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Cumulative {
    /// The starts, then the variable amounts.
    scope: Vec<VarId>,
    durations: Vec<Amount>,
    demands: Vec<Amount>,
    capacity: Amount,
}

impl Cumulative {
    /// Tasks of constant durations and demands on a resource of constant capacity.
    ///
    /// # Errors
    ///
    /// [`ModelError::InvalidConstraint`] if the arrays differ in length.
    pub fn new(
        starts: &[VarId],
        durations: &[i32],
        demands: &[i32],
        capacity: i32,
    ) -> Result<Cumulative, ModelError> {
        let constants = |values: &[i32]| values.iter().map(|&c| AmountArg::Const(c)).collect();
        Cumulative::build(
            starts,
            constants(durations),
            constants(demands),
            AmountArg::Const(capacity),
        )
    }

    /// Tasks whose durations, demands and the capacity are variables (a fixed variable
    /// stands for a constant).
    ///
    /// # Errors
    ///
    /// [`ModelError::InvalidConstraint`] if the arrays differ in length.
    pub fn with_variables(
        starts: &[VarId],
        durations: &[VarId],
        demands: &[VarId],
        capacity: VarId,
    ) -> Result<Cumulative, ModelError> {
        let variables = |vars: &[VarId]| vars.iter().map(|&v| AmountArg::Var(v)).collect();
        Cumulative::build(
            starts,
            variables(durations),
            variables(demands),
            AmountArg::Var(capacity),
        )
    }

    fn build(
        starts: &[VarId],
        durations: Vec<AmountArg>,
        demands: Vec<AmountArg>,
        capacity: AmountArg,
    ) -> Result<Cumulative, ModelError> {
        let n = starts.len();
        if durations.len() != n || demands.len() != n {
            return Err(lengths_differ(
                "Cumulative",
                &[
                    ("starts", n),
                    ("durations", durations.len()),
                    ("demands", demands.len()),
                ],
            ));
        }
        let mut amounts = durations;
        amounts.extend(demands);
        amounts.push(capacity);
        let (scope, mut amounts) = layout(starts, &amounts);
        let capacity = amounts.pop().expect("the capacity was pushed last");
        let demands = amounts.split_off(n);
        Ok(Cumulative {
            scope,
            durations: amounts,
            demands,
            capacity,
        })
    }

    fn tasks(&self) -> usize {
        self.durations.len()
    }
}

impl Constraint for Cumulative {
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
        let starts: Vec<i64> = values[..n].iter().map(|&s| i64::from(s)).collect();
        let durations: Vec<i64> = self.durations.iter().map(|d| d.value(values)).collect();
        let demands: Vec<i64> = self.demands.iter().map(|r| r.value(values)).collect();
        let capacity = self.capacity.value(values);
        durations.iter().chain(&demands).all(|&a| a >= 0)
            && (n == 0 || capacity >= 0)
            && super::fits(&starts, &durations, &demands, capacity)
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        if ctx.level() == PropagationLevel::None {
            return ctx.check_if_fixed(self);
        }
        let n = self.tasks();
        if n == 0 {
            return Ok(());
        }
        let scope = &self.scope;
        for amount in self.durations.iter().chain(&self.demands) {
            amount.keep_non_negative(ctx, scope)?;
        }
        self.capacity.keep_non_negative(ctx, scope)?;
        let mut tasks = read_tasks(ctx, scope, n, &self.durations, Some(&self.demands))?;
        let capacity = self.capacity.max(ctx, scope)?;
        let peak = time_table(ctx, &scope[..n], &mut tasks, capacity)?;
        if let Amount::Var(k) = self.capacity {
            keep_at_least(ctx, scope[k], peak)?;
        }
        overload(&tasks, capacity)?;
        precedences(ctx, &scope[..n], &mut tasks, |a, b| {
            a.is_busy() && b.is_busy() && a.demand + b.demand > capacity
        })?;
        // The tasks above half the capacity run one at a time: a machine inside the resource.
        let heavy: SmallVec<[usize; 32]> = (0..n)
            .filter(|&i| tasks[i].is_busy() && 2 * tasks[i].demand > capacity)
            .collect();
        if heavy.len() >= 2 {
            let starts: SmallVec<[VarId; 32]> = heavy.iter().map(|&i| scope[i]).collect();
            let mut machine: SmallVec<[Task; 32]> = heavy.iter().map(|&i| tasks[i]).collect();
            edge_finding(ctx, &starts, &mut machine)?;
        }
        Ok(())
    }

    fn wake_on(&self, level: PropagationLevel) -> WakeOn {
        match level {
            PropagationLevel::None => WakeOn::Fixed,
            _ => WakeOn::Bounds,
        }
    }
}
