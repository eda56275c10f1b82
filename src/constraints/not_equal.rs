//! `x ≠ y + c`.

use crate::constraints::{Conflict, Constraint, PropagationContext, WakeOn};
use crate::ids::VarId;
use crate::kernel::{ExplainContext, Inference, Literal, PropagationLevel};

/// `x ≠ y + offset`: the binary disequality, with an optional constant offset.
///
/// The offset is what N-Queens diagonals need: queens in rows `i` and `j` (columns `qᵢ`, `qⱼ`)
/// share a diagonal exactly when `qᵢ = qⱼ − (j − i)`, and an anti-diagonal exactly when
/// `qᵢ = qⱼ + (j − i)`.
///
/// Propagation: at [`PropagationLevel::None`] it fails once both variables are fixed to values
/// that violate it; at `Forward` and `Full` (the same here, and arc consistent), once one
/// variable is fixed it removes the forbidden value from the other. Wakes only on fixing.
/// Arithmetic is done in `i64`, so no offset overflows.
///
/// # Examples
///
/// ```
/// use cspkit::{Model, NotEqual};
///
/// let mut model = Model::new();
/// let x = model.new_var(1..=3)?;
/// let y = model.new_var(1..=3)?;
/// model.post(NotEqual::with_offset(x, y, 1))?; // x ≠ y + 1
/// model.fix(y, 1)?;
/// let solution = model.solve().solution().unwrap();
/// assert_eq!(solution[x], 1); // 2 is ruled out; 1 is the smallest value left
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct NotEqual {
    scope: [VarId; 2],
    offset: i32,
}

impl NotEqual {
    /// `x ≠ y`.
    pub fn new(x: VarId, y: VarId) -> Self {
        Self::with_offset(x, y, 0)
    }

    /// `x ≠ y + offset`.
    pub fn with_offset(x: VarId, y: VarId, offset: i32) -> Self {
        NotEqual {
            scope: [x, y],
            offset,
        }
    }
}

impl Constraint for NotEqual {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[i32]) -> bool {
        i64::from(values[0]) != i64::from(values[1]) + i64::from(self.offset)
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let [x, y] = self.scope;
        let c = i64::from(self.offset);
        match (ctx.value(x), ctx.value(y)) {
            (Some(vx), Some(vy)) if i64::from(vx) == i64::from(vy) + c => Err(Conflict),
            _ if ctx.level() == PropagationLevel::None => Ok(()),
            (Some(vx), None) => {
                if let Ok(forbidden) = i32::try_from(i64::from(vx) - c) {
                    ctx.remove(y, forbidden)?;
                }
                Ok(())
            }
            (None, Some(vy)) => {
                if let Ok(forbidden) = i32::try_from(i64::from(vy) + c) {
                    ctx.remove(x, forbidden)?;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// The other variable's value: `y ≠ 3` because `x = 3` (for `x ≠ y`); both values for a
    /// failure.
    fn explain(&self, inference: Inference, ctx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let [x, y] = self.scope;
        let c = i64::from(self.offset);
        // `Eq(var, value)`, unless the model's domain already says it.
        let fixed = |var: VarId| -> Option<Vec<Literal>> {
            let value = ctx.domain(var).value()?;
            Some(if ctx.initial(var).value() == Some(value) {
                Vec::new()
            } else {
                vec![Literal::Eq(var, value)]
            })
        };
        match inference {
            Inference::Removed { var, value } if var == y && x != y => {
                let vx = ctx.domain(x).value()?;
                (i64::from(vx) - c == i64::from(value)).then(|| fixed(x))?
            }
            Inference::Removed { var, value } if var == x && x != y => {
                let vy = ctx.domain(y).value()?;
                (i64::from(vy) + c == i64::from(value)).then(|| fixed(y))?
            }
            Inference::Failed => {
                let (vx, vy) = (ctx.domain(x).value()?, ctx.domain(y).value()?);
                if i64::from(vx) != i64::from(vy) + c {
                    return None;
                }
                let mut reason = fixed(x)?;
                if x != y {
                    reason.extend(fixed(y)?);
                }
                Some(reason)
            }
            _ => None,
        }
    }

    fn wake_on(&self, _level: PropagationLevel) -> WakeOn {
        WakeOn::Fixed
    }

    fn is_idempotent(&self, _level: PropagationLevel) -> bool {
        true
    }
}
