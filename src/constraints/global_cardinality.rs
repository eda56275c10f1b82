//! Global cardinality: how often each of a list of values is taken.

use smallvec::SmallVec;

use crate::constraints::bounds::{keep_at_least, keep_at_most};
use crate::constraints::{Conflict, Constraint, PropagationContext, WakeOn, check_then_any_change};
use crate::error::ModelError;
use crate::ids::VarId;
use crate::kernel::PropagationLevel;

/// For each `j`, value `values[j]` is taken by a number of `vars` within its count: a variable
/// `counts[j]` ([`new`](GlobalCardinality::new)) or a constant range
/// ([`with_bounds`](GlobalCardinality::with_bounds)). "Each digit exactly twice", "between one
/// and three nurses per shift", MiniZinc's `global_cardinality` and
/// `global_cardinality_low_up`. By default the variables may take values outside `values`;
/// [`closed`](GlobalCardinality::closed) forbids it.
///
/// Propagation, by [`PropagationLevel`]:
///
/// - `None`: fails when the whole scope is fixed and a count is wrong.
/// - `Forward` and `Full`: each value as an [`Among`](crate::Among) (its count kept between the
///   variables fixed to it and those that can take it; the value removed from the others when
///   the count is reached, the variables that can take it fixed to it when all are needed), and
///   the counts together: no count above the number of variables minus the others' minimums,
///   none below it minus the others' maximums when closed. Not domain consistent in general
///   (that needs a flow algorithm, Régin 1996); O(|vars| · |values|) per call.
///
/// # Examples
///
/// ```
/// use cspkit::{GlobalCardinality, Model};
///
/// // Four variables over 1..=3: value 1 exactly twice, value 2 once or twice.
/// let mut model = Model::new();
/// let x = model.new_vars(4, 1..=3)?;
/// model.post(GlobalCardinality::with_bounds(&x, &[1, 2], &[(2, 2), (1, 2)])?)?;
/// // Choose the two 1s (6 ways), then the rest: 2 and 3 in either order, or 2 and 2.
/// assert_eq!(model.solver().count().solutions, 6 * 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct GlobalCardinality {
    /// The variables, then the count variables (if any).
    scope: Vec<VarId>,
    vars: usize,
    values: Vec<i32>,
    /// Constant count ranges, when the counts are not variables.
    bounds: Option<Vec<(i64, i64)>>,
    closed: bool,
}

fn invalid(reason: String) -> ModelError {
    ModelError::InvalidConstraint {
        constraint: "GlobalCardinality".into(),
        reason,
    }
}

fn check_values(values: &[i32], counts: usize) -> Result<(), ModelError> {
    if values.len() != counts {
        return Err(invalid(format!(
            "{} values but {} counts",
            values.len(),
            counts
        )));
    }
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    if let Some(pair) = sorted.windows(2).find(|pair| pair[0] == pair[1]) {
        return Err(invalid(format!("value {} is listed twice", pair[0])));
    }
    Ok(())
}

impl GlobalCardinality {
    /// `counts[j] = #{ i : vars[i] = values[j] }` for every `j`.
    ///
    /// # Errors
    ///
    /// [`ModelError::InvalidConstraint`] if `values` and `counts` differ in length or a value is
    /// listed twice.
    pub fn new(
        vars: &[VarId],
        values: &[i32],
        counts: &[VarId],
    ) -> Result<GlobalCardinality, ModelError> {
        check_values(values, counts.len())?;
        let mut scope = vars.to_vec();
        scope.extend_from_slice(counts);
        Ok(GlobalCardinality {
            scope,
            vars: vars.len(),
            values: values.to_vec(),
            bounds: None,
            closed: false,
        })
    }

    /// `low ≤ #{ i : vars[i] = values[j] } ≤ high` for every `j`, with `(low, high) =
    /// bounds[j]`.
    ///
    /// # Errors
    ///
    /// [`ModelError::InvalidConstraint`] if `values` and `bounds` differ in length or a value is
    /// listed twice.
    pub fn with_bounds(
        vars: &[VarId],
        values: &[i32],
        bounds: &[(u32, u32)],
    ) -> Result<GlobalCardinality, ModelError> {
        check_values(values, bounds.len())?;
        Ok(GlobalCardinality {
            scope: vars.to_vec(),
            vars: vars.len(),
            values: values.to_vec(),
            bounds: Some(
                bounds
                    .iter()
                    .map(|&(low, high)| (i64::from(low), i64::from(high)))
                    .collect(),
            ),
            closed: false,
        })
    }

    /// The same, and every variable takes one of `values` (MiniZinc's `_closed` forms).
    pub fn closed(mut self) -> GlobalCardinality {
        self.closed = true;
        self
    }

    /// The current range of count `j`.
    fn count_range(&self, ctx: &PropagationContext<'_>, j: usize) -> Result<(i64, i64), Conflict> {
        match &self.bounds {
            Some(bounds) => Ok(bounds[j]),
            None => {
                let domain = ctx.domain(self.scope[self.vars + j]);
                Ok((
                    i64::from(domain.min().ok_or(Conflict)?),
                    i64::from(domain.max().ok_or(Conflict)?),
                ))
            }
        }
    }

    /// Narrows count `j` to `low..=high` (a conflict for an empty constant range).
    fn narrow_count(
        &self,
        ctx: &mut PropagationContext<'_>,
        j: usize,
        low: i64,
        high: i64,
    ) -> Result<(), Conflict> {
        match &self.bounds {
            Some(bounds) if bounds[j].0 > high || bounds[j].1 < low => Err(Conflict),
            Some(_) => Ok(()),
            None => {
                let count = self.scope[self.vars + j];
                keep_at_least(ctx, count, low)?;
                keep_at_most(ctx, count, high)?;
                Ok(())
            }
        }
    }
}

impl Constraint for GlobalCardinality {
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
        let (vars, counts) = values.split_at(self.vars);
        if self.closed && vars.iter().any(|v| !self.values.contains(v)) {
            return false;
        }
        self.values.iter().enumerate().all(|(j, value)| {
            let n = vars.iter().filter(|&v| v == value).count() as i64;
            match &self.bounds {
                Some(bounds) => (bounds[j].0..=bounds[j].1).contains(&n),
                None => n == i64::from(counts[j]),
            }
        })
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        if ctx.level() == PropagationLevel::None {
            return ctx.check_if_fixed(self);
        }
        let vars = &self.scope[..self.vars];
        if self.closed {
            let mut sorted = self.values.clone();
            sorted.sort_unstable();
            for &var in vars {
                ctx.retain_sorted(var, &sorted)?;
            }
        }
        // Each value on its own.
        let m = self.values.len();
        let mut ranges: SmallVec<[(i64, i64); 16]> = SmallVec::with_capacity(m);
        for (j, &value) in self.values.iter().enumerate() {
            let (mut sure, mut possible) = (0i64, 0i64);
            for &var in vars {
                if ctx.domain(var).contains(value) {
                    possible += 1;
                    sure += i64::from(ctx.is_fixed(var));
                }
            }
            self.narrow_count(ctx, j, sure, possible)?;
            let (low, high) = self.count_range(ctx, j)?;
            if sure < possible && (high == sure || low == possible) {
                for &var in vars {
                    if !ctx.is_fixed(var) && ctx.domain(var).contains(value) {
                        if high == sure {
                            ctx.remove(var, value)?;
                        } else {
                            ctx.fix(var, value)?;
                        }
                    }
                }
            }
            ranges.push(self.count_range(ctx, j)?);
        }
        // The counts together: they share the variables.
        let n = self.vars as i64;
        let lows: i64 = ranges.iter().map(|r| r.0).sum();
        let highs: i64 = ranges.iter().map(|r| r.1).sum();
        if lows > n || (self.closed && highs < n) {
            return Err(Conflict);
        }
        for (j, &(low, high)) in ranges.iter().enumerate() {
            let most = n - (lows - low);
            let least = if self.closed { n - (highs - high) } else { 0 };
            self.narrow_count(ctx, j, least, most)?;
        }
        Ok(())
    }

    fn wake_on(&self, level: PropagationLevel) -> WakeOn {
        check_then_any_change(level)
    }
}
