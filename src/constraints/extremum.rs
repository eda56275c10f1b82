//! The smallest or the largest of a list of variables.

use smallvec::SmallVec;

use crate::constraints::words::keep_masked;
use crate::constraints::{Conflict, Constraint, PropagationContext, WakeOn};
use crate::ids::VarId;
use crate::kernel::{IntView, PropagationLevel};

/// `result = min(vars)` ([`Extremum::minimum`]) or `result = max(vars)`
/// ([`Extremum::maximum`]): "the earliest finish", "the makespan is the latest end", MiniZinc's
/// `min`, `max`, `array_int_minimum`. An empty list makes the constraint unsatisfiable.
///
/// The maximum is the minimum of the negated variables, through [views](IntView): one
/// algorithm serves both.
///
/// Propagation (stated for the minimum), by [`PropagationLevel`]:
///
/// - `None`: fails when the whole scope is fixed to values that violate it.
/// - `Forward` and `Full`: bounds consistency: `result` between the smallest minimum and the
///   smallest maximum of the variables; every variable at least `min(result)`; when one
///   variable alone can reach `max(result)`, it is at most `max(result)`. At `Full`, `result`
///   also keeps only values some variable holds: a word at a time when every domain is a
///   bitset (at most [`Domain::MAX_SPAN`](crate::Domain::MAX_SPAN) values wide), value by
///   value when `result` has at most 4096 values, not at all otherwise. O(|vars|) per call,
///   plus O(|vars| · span / 64) for that rule.
///
/// # Examples
///
/// ```
/// use cspkit::{Extremum, Model};
///
/// let mut model = Model::new();
/// let tasks = model.new_vars(3, 2..=9)?;
/// let makespan = model.new_var(0..=4)?;
/// model.post(Extremum::maximum(&tasks, makespan))?;
/// // Every task ends by 4.
/// assert!(model.solver().solutions().all(|s| s.values()[..3].iter().all(|&t| t <= 4)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Extremum {
    /// The variables, then the result.
    scope: Vec<VarId>,
    /// The same, as views: negated for a maximum.
    views: Vec<IntView>,
    maximum: bool,
}

impl Extremum {
    /// `result = min(vars)`.
    pub fn minimum(vars: &[VarId], result: VarId) -> Extremum {
        Extremum::build(vars, result, false)
    }

    /// `result = max(vars)`.
    pub fn maximum(vars: &[VarId], result: VarId) -> Extremum {
        Extremum::build(vars, result, true)
    }

    fn build(vars: &[VarId], result: VarId, maximum: bool) -> Extremum {
        let mut scope = vars.to_vec();
        scope.push(result);
        let views = scope
            .iter()
            .map(|&v| if maximum { v.minus() } else { IntView::from(v) })
            .collect();
        Extremum {
            scope,
            views,
            maximum,
        }
    }

    /// Whether this is a maximum.
    pub fn is_maximum(&self) -> bool {
        self.maximum
    }
}

impl Extremum {
    /// One round of the rules of the minimum of `vars` (views); whether it pruned anything.
    fn narrow(
        &self,
        ctx: &mut PropagationContext<'_>,
        vars: &[IntView],
        result: IntView,
    ) -> Result<bool, Conflict> {
        let bounds =
            |ctx: &PropagationContext<'_>, view: &IntView| -> Result<(i64, i64), Conflict> {
                let domain = ctx.domain(view.var());
                Ok((
                    view.min(domain).ok_or(Conflict)?,
                    view.max(domain).ok_or(Conflict)?,
                ))
            };
        let mut changed = false;
        // result ∈ [min of the minimums, min of the maximums].
        let mut lowest = i64::MAX;
        let mut least_max = i64::MAX;
        for view in vars {
            let (low, high) = bounds(ctx, view)?;
            lowest = lowest.min(low);
            least_max = least_max.min(high);
        }
        changed |= result.remove_below(ctx, lowest)?;
        changed |= result.remove_above(ctx, least_max)?;
        let (result_low, result_high) = bounds(ctx, &result)?;
        // Every variable is at least the result.
        for view in vars {
            changed |= view.remove_below(ctx, result_low)?;
        }
        // The variables that can be at most result_high: the minimum is one of them.
        let mut reach = vars.iter().filter(|view| {
            view.min(ctx.domain(view.var()))
                .is_some_and(|low| low <= result_high)
        });
        match (reach.next(), reach.next()) {
            (None, _) => return Err(Conflict),
            (Some(&only), None) => {
                changed |= only.remove_above(ctx, result_high)?;
            }
            _ => {}
        }
        // A variable that holds every value from the result's bounds (a unit view of a domain
        // without holes that spans them) leaves nothing to remove: skip the pass.
        let spans = |view: &IntView| {
            let domain = ctx.domain(view.var());
            match (view.factor().abs() == 1, domain.min(), domain.max()) {
                (true, Some(low), Some(high)) => {
                    let (a, b) = (view.apply(low), view.apply(high));
                    a.min(b) <= result_low
                        && a.max(b) >= result_high
                        && domain.size() as i64 == i64::from(high) - i64::from(low) + 1
                }
                _ => false,
            }
        };
        if ctx.level() != PropagationLevel::Full || vars.iter().any(spans) {
            return Ok(changed);
        }
        if let Some(pruned) = self.held_by_words(ctx)? {
            changed |= pruned;
        } else if ctx.domain(result.var()).size() <= 4096 {
            // A value of the result must be held by some variable.
            let domain = ctx.domain(result.var()).clone();
            let held: SmallVec<[i32; 64]> = domain
                .iter()
                .filter(|&v| {
                    let w = result.apply(v);
                    vars.iter()
                        .any(|view| view.contains(ctx.domain(view.var()), w))
                })
                .collect();
            if held.len() < domain.size() {
                changed |= ctx.retain_sorted(result.var(), &held)?;
            }
        }
        Ok(changed)
    }

    /// The rule "a value of the result is held by some variable" a word at a time, when every
    /// domain of the scope is a bitset (at most [`Domain::MAX_SPAN`] values wide): every view
    /// applies the same sign to its variable, so the values the variables hold are the union
    /// of their domains, and the result keeps its values in it, 64 at a time. Returns whether
    /// it pruned, `None` for a wider domain (the caller enumerates values then).
    fn held_by_words(&self, ctx: &mut PropagationContext<'_>) -> Result<Option<bool>, Conflict> {
        if !self.scope.iter().all(|&var| ctx.domain(var).is_bitset()) {
            return Ok(None);
        }
        let (vars, result) = self.scope.split_at(self.scope.len() - 1);
        let pruned = keep_masked(ctx, result[0], |ctx, base| {
            vars.iter()
                .fold(0, |held, &var| held | ctx.domain(var).window(base as i32))
        })?;
        Ok(Some(pruned))
    }
}

impl Constraint for Extremum {
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
        let (vars, result) = values.split_at(values.len() - 1);
        let extremum = if self.maximum {
            vars.iter().max()
        } else {
            vars.iter().min()
        };
        extremum == Some(&result[0])
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let (vars, result) = self.views.split_at(self.views.len() - 1);
        let result = result[0];
        if vars.is_empty() {
            return Err(Conflict);
        }
        if ctx.level() == PropagationLevel::None {
            return ctx.check_if_fixed(self);
        }
        // Each rule below is sound alone; repeat them to their common fixpoint, so that one
        // call leaves the bounds consistent.
        while self.narrow(ctx, vars, result)? {}
        Ok(())
    }

    fn is_idempotent(&self, _level: PropagationLevel) -> bool {
        true
    }

    fn wake_on(&self, level: PropagationLevel) -> WakeOn {
        match level {
            PropagationLevel::None => WakeOn::Fixed,
            PropagationLevel::Forward => WakeOn::Bounds,
            PropagationLevel::Full => WakeOn::AnyChange,
        }
    }
}
