//! Membership in a set of values, plain or reified.

use smallvec::SmallVec;

use crate::constraints::count::{Standing, keep_in_or_out, standing};
use crate::constraints::{Conflict, Constraint, PropagationContext, WakeOn, check_then_any_change};
use crate::ids::VarId;
use crate::kernel::PropagationLevel;

/// `x ∈ values` ([`new`](Member::new)), `b ⇔ x ∈ values` ([`reified`](Member::reified)) or
/// `b ⇒ x ∈ values` ([`implied`](Member::implied)), for a 0/1 variable `b`: "this cell is a
/// vowel", "if the light is on, the switch is in one of these positions"; MiniZinc's `set_in`,
/// `set_in_reif`, `set_in_imp` on a constant set.
///
/// Propagation, by [`PropagationLevel`]:
///
/// - `None`: fails when the whole scope is fixed to values that violate it.
/// - `Forward` and `Full`: domain consistency: `b` is fixed as soon as the domain of `x` lies
///   inside the set (true; not for `implied`) or outside it (false); once `b` is known, `x`
///   keeps the values of the set (true) or loses them (false; not for `implied`). `b` keeps
///   only 0 and 1. O(min(|Dx|, |values|) · log |values|) per call.
///
/// # Examples
///
/// ```
/// use cspkit::{Member, Model};
///
/// let mut model = Model::new();
/// let x = model.new_var(1..=6)?;
/// let even = model.new_bool()?;
/// model.post(Member::reified(x, &[2, 4, 6], even.var()))?;
/// model.fix(even.var(), 0)?;
/// let odd: Vec<i32> = model.solver().solutions().map(|s| s[x]).collect();
/// assert_eq!(odd, [1, 3, 5]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Member {
    /// `x`, then `b` when reified.
    scope: SmallVec<[VarId; 2]>,
    /// Ascending, without repeats.
    values: Vec<i32>,
    /// Only `b ⇒ x ∈ values`.
    implied: bool,
}

impl Member {
    /// `x ∈ values`.
    pub fn new(x: VarId, values: &[i32]) -> Member {
        Member::build(&[x], values, false)
    }

    /// `b ⇔ x ∈ values`.
    pub fn reified(x: VarId, values: &[i32], b: VarId) -> Member {
        Member::build(&[x, b], values, false)
    }

    /// `b ⇒ x ∈ values`.
    pub fn implied(x: VarId, values: &[i32], b: VarId) -> Member {
        Member::build(&[x, b], values, true)
    }

    fn build(scope: &[VarId], values: &[i32], implied: bool) -> Member {
        let mut values = values.to_vec();
        values.sort_unstable();
        values.dedup();
        Member {
            scope: SmallVec::from_slice(scope),
            values,
            implied,
        }
    }

    /// The set, ascending.
    pub fn values(&self) -> &[i32] {
        &self.values
    }
}

impl Constraint for Member {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[i32]) -> bool {
        let inside = self.values.binary_search(&values[0]).is_ok();
        match values.get(1) {
            None => inside,
            Some(&b) if self.implied => b == 0 || (b == 1 && inside),
            Some(&b) => (b == 1 && inside) || (b == 0 && !inside),
        }
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        if ctx.level() == PropagationLevel::None {
            return ctx.check_if_fixed(self);
        }
        let x = self.scope[0];
        let Some(&b) = self.scope.get(1) else {
            ctx.retain_sorted(x, &self.values)?;
            return Ok(());
        };
        ctx.remove_below(b, 0)?;
        ctx.remove_above(b, 1)?;
        match ctx.value(b) {
            Some(1) => {
                keep_in_or_out(ctx, x, &self.values, true)?;
            }
            Some(_) if !self.implied => {
                keep_in_or_out(ctx, x, &self.values, false)?;
            }
            Some(_) => {}
            None => match standing(ctx.domain(x), &self.values) {
                Standing::Inside if !self.implied => {
                    ctx.fix(b, 1)?;
                }
                Standing::Outside => {
                    ctx.fix(b, 0)?;
                }
                _ => {}
            },
        }
        Ok(())
    }

    fn wake_on(&self, level: PropagationLevel) -> WakeOn {
        check_then_any_change(level)
    }

    fn is_idempotent(&self, level: PropagationLevel) -> bool {
        level != PropagationLevel::None
    }
}
