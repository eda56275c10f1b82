//! [`IntView`]: a variable seen through an affine map, `scale · x + offset`.
//!
//! A view lets one constraint serve many shapes of argument without auxiliary variables or
//! special cases: the diagonals and anti-diagonals of N-Queens are all-different over `q[i] − i`
//! and `q[i] + i` (offset views), `x ≥ -y` is a comparison with a minus view, `2·x` is a scale
//! view; a negated boolean `!b` is the view `1 − b` (scale −1, offset 1;
//! [`BoolVar::view`](crate::BoolVar::view)). Constraints written
//! against views read and prune through them, and the variable underneath is what the search
//! sees.
//!
//! Reading through a view maps each value `v` of `x` to `scale · v + offset`; pruning a view
//! value `w` prunes `(w − offset) / scale` from `x` when that is a whole number, and nothing
//! otherwise (no value of `x` maps to `w`). A negative scale reverses the order: the view's
//! minimum comes from `x`'s maximum. All arithmetic is done in `i64`, so views never overflow;
//! view values are `i64` for the same reason.

use std::fmt;

use crate::domain::Domain;
use crate::ids::VarId;
use crate::kernel::{Conflict, PropagationContext};

/// The variable `var` seen as `scale · var + offset` (`scale ≠ 0`).
///
/// Built from a [`VarId`]: `x.offset(3)` is `x + 3`, `x.minus()` is `−x`, `x.scale(2)` is `2x`,
/// and they compose (`x.scale(2).offset(1)` is `2x + 1`). `IntView::from(x)` is `x` itself.
///
/// # Examples
///
/// ```
/// use cspkit::kernel::IntView;
/// use cspkit::{Domain, Model};
///
/// let mut model = Model::new();
/// let x = model.new_var(1..=4)?;
/// let view = x.scale(-2).offset(1); // 1 − 2x: the values 1..=4 become -7, -5, -3, -1
/// let domain = model.domain(x);
/// assert_eq!((view.min(domain), view.max(domain)), (Some(-7), Some(-1)));
/// assert_eq!(view.values(domain).collect::<Vec<_>>(), [-7, -5, -3, -1]);
/// assert!(view.contains(domain, -3) && !view.contains(domain, -4));
/// assert_eq!(view.to_string(), "-2·x0 + 1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IntView {
    var: VarId,
    scale: i64,
    offset: i64,
}

impl From<VarId> for IntView {
    fn from(var: VarId) -> IntView {
        IntView {
            var,
            scale: 1,
            offset: 0,
        }
    }
}

impl VarId {
    /// The view `self + offset`.
    pub fn offset(self, offset: i32) -> IntView {
        IntView::from(self).offset(offset)
    }

    /// The view `scale · self`.
    ///
    /// # Panics
    ///
    /// If `scale` is 0 (a view must be one-to-one).
    pub fn scale(self, scale: i32) -> IntView {
        IntView::from(self).scale(scale)
    }

    /// The view `−self`.
    pub fn minus(self) -> IntView {
        IntView::from(self).minus()
    }
}

impl IntView {
    /// The variable underneath.
    pub fn var(&self) -> VarId {
        self.var
    }

    /// The factor the variable is multiplied by (never 0).
    pub fn factor(&self) -> i64 {
        self.scale
    }

    /// The constant added after the multiplication.
    pub fn constant(&self) -> i64 {
        self.offset
    }

    /// This view plus `offset`.
    pub fn offset(self, offset: i32) -> IntView {
        IntView {
            offset: self.offset.saturating_add(i64::from(offset)),
            ..self
        }
    }

    /// This view times `scale`.
    ///
    /// # Panics
    ///
    /// If `scale` is 0 (a view must be one-to-one).
    pub fn scale(self, scale: i32) -> IntView {
        assert!(scale != 0, "a view's scale must not be 0");
        let scale = i64::from(scale);
        IntView {
            var: self.var,
            scale: self.scale.saturating_mul(scale),
            offset: self.offset.saturating_mul(scale),
        }
    }

    /// This view negated.
    pub fn minus(self) -> IntView {
        self.scale(-1)
    }

    /// Whether the view is the variable itself.
    pub fn is_identity(&self) -> bool {
        self.scale == 1 && self.offset == 0
    }

    /// The view's value for the variable's value `value`.
    #[inline]
    pub fn apply(&self, value: i32) -> i64 {
        self.scale
            .saturating_mul(i64::from(value))
            .saturating_add(self.offset)
    }

    /// The variable's value whose image is `view_value`, if there is one.
    #[inline]
    pub fn preimage(&self, view_value: i64) -> Option<i32> {
        let shifted = view_value.checked_sub(self.offset)?;
        (shifted % self.scale == 0)
            .then(|| shifted / self.scale)
            .and_then(|v| i32::try_from(v).ok())
    }

    /// The smallest view value over `domain` (the variable's domain).
    pub fn min(&self, domain: &Domain) -> Option<i64> {
        let end = if self.scale > 0 {
            domain.min()
        } else {
            domain.max()
        };
        end.map(|v| self.apply(v))
    }

    /// The largest view value over `domain`.
    pub fn max(&self, domain: &Domain) -> Option<i64> {
        let end = if self.scale > 0 {
            domain.max()
        } else {
            domain.min()
        };
        end.map(|v| self.apply(v))
    }

    /// Whether `view_value` is a view value over `domain`.
    pub fn contains(&self, domain: &Domain, view_value: i64) -> bool {
        self.preimage(view_value)
            .is_some_and(|v| domain.contains(v))
    }

    /// The view values over `domain`, ascending.
    pub fn values<'d>(&self, domain: &'d Domain) -> impl Iterator<Item = i64> + 'd {
        let view = *self;
        let ascending = self.scale > 0;
        let mut up = domain.iter();
        // Descending values of the variable, for a negative scale: read from the top with
        // `below`, so that no buffer is needed.
        let mut next_down = domain.max();
        std::iter::from_fn(move || {
            let v = if ascending {
                up.next()?
            } else {
                let v = next_down?;
                next_down = domain.below(v);
                v
            };
            Some(view.apply(v))
        })
    }

    /// Removes the view value `view_value`; returns whether the domain changed.
    ///
    /// # Errors
    ///
    /// [`Conflict`] if the domain is left empty.
    pub fn remove(
        &self,
        ctx: &mut PropagationContext<'_>,
        view_value: i64,
    ) -> Result<bool, Conflict> {
        match self.preimage(view_value) {
            Some(v) => ctx.remove(self.var, v),
            None => Ok(false),
        }
    }

    /// Keeps only the view values at most `bound`.
    ///
    /// # Errors
    ///
    /// [`Conflict`] if the domain is left empty.
    pub fn remove_above(
        &self,
        ctx: &mut PropagationContext<'_>,
        bound: i64,
    ) -> Result<bool, Conflict> {
        // scale · v ≤ bound − offset: v ≤ ⌊…/scale⌋ for a positive scale, v ≥ ⌈…/scale⌉ for a
        // negative one.
        let (shifted, scale) = (
            i128::from(bound) - i128::from(self.offset),
            i128::from(self.scale),
        );
        if scale > 0 {
            keep_at_most(ctx, self.var, floor_div(shifted, scale))
        } else {
            keep_at_least(ctx, self.var, ceil_div(shifted, scale))
        }
    }

    /// Keeps only the view values at least `bound`.
    ///
    /// # Errors
    ///
    /// [`Conflict`] if the domain is left empty.
    pub fn remove_below(
        &self,
        ctx: &mut PropagationContext<'_>,
        bound: i64,
    ) -> Result<bool, Conflict> {
        let (shifted, scale) = (
            i128::from(bound) - i128::from(self.offset),
            i128::from(self.scale),
        );
        if scale > 0 {
            keep_at_least(ctx, self.var, ceil_div(shifted, scale))
        } else {
            keep_at_most(ctx, self.var, floor_div(shifted, scale))
        }
    }

    /// Reduces the view to `view_value` alone.
    ///
    /// # Errors
    ///
    /// [`Conflict`] if `view_value` is not a view value of the domain.
    pub fn fix(&self, ctx: &mut PropagationContext<'_>, view_value: i64) -> Result<bool, Conflict> {
        match self.preimage(view_value) {
            Some(v) => ctx.fix(self.var, v),
            None => Err(Conflict),
        }
    }
}

/// `⌊a / b⌋` for `b ≠ 0`. A factor of ±1, the common view, costs no 128-bit division.
fn floor_div(a: i128, b: i128) -> i128 {
    match b {
        1 => return a,
        -1 => return -a,
        _ => {}
    }
    let q = a / b;
    if a % b != 0 && (a < 0) != (b < 0) {
        q - 1
    } else {
        q
    }
}

/// `⌈a / b⌉` for `b ≠ 0`.
fn ceil_div(a: i128, b: i128) -> i128 {
    match b {
        1 => return a,
        -1 => return -a,
        _ => {}
    }
    let q = a / b;
    if a % b != 0 && (a < 0) == (b < 0) {
        q + 1
    } else {
        q
    }
}

fn keep_at_most(
    ctx: &mut PropagationContext<'_>,
    var: VarId,
    bound: i128,
) -> Result<bool, Conflict> {
    match i32::try_from(bound) {
        Ok(bound) => ctx.remove_above(var, bound),
        Err(_) if bound > 0 => Ok(false),
        Err(_) => Err(Conflict),
    }
}

fn keep_at_least(
    ctx: &mut PropagationContext<'_>,
    var: VarId,
    bound: i128,
) -> Result<bool, Conflict> {
    match i32::try_from(bound) {
        Ok(bound) => ctx.remove_below(var, bound),
        Err(_) if bound < 0 => Ok(false),
        Err(_) => Err(Conflict),
    }
}

impl fmt::Display for IntView {
    /// `x0`, `x0 + 3`, `-x0`, `2·x0 - 1`: with the variable's index (a model's names are not
    /// known here: use [`Model::var_name`](crate::Model::var_name) for those).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.scale {
            1 => write!(f, "{}", self.var)?,
            -1 => write!(f, "-{}", self.var)?,
            s => write!(f, "{s}·{}", self.var)?,
        }
        match self.offset {
            0 => Ok(()),
            o if o > 0 => write!(f, " + {o}"),
            o => write!(f, " - {}", o.unsigned_abs()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::PropagationLevel;
    use crate::kernel::trail::Trail;
    use proptest::prelude::*;

    fn var(index: u32) -> VarId {
        VarId { model: 0, index }
    }

    /// Runs `prune` on a context over `domain` and returns the view values left, or `None` on
    /// a conflict.
    fn after(
        domain: &Domain,
        view: IntView,
        prune: impl FnOnce(&mut PropagationContext<'_>) -> Result<bool, Conflict>,
    ) -> Option<Vec<i64>> {
        let mut domains = vec![domain.clone()];
        let mut trail = Trail::default();
        let mut ctx =
            PropagationContext::new(&mut domains, &mut trail, None, PropagationLevel::Full);
        prune(&mut ctx).ok()?;
        let mut values: Vec<i64> = view.values(&domains[0]).collect();
        values.sort_unstable();
        Some(values)
    }

    #[test]
    fn views_compose_and_print() {
        let x = var(3);
        assert!(IntView::from(x).is_identity());
        let v = x.scale(2).offset(1).minus();
        assert_eq!((v.factor(), v.constant()), (-2, -1));
        assert_eq!(v.apply(5), -11);
        assert_eq!(v.preimage(-11), Some(5));
        assert_eq!(v.preimage(-10), None, "no integer maps to -10");
        assert_eq!(v.to_string(), "-2·x3 - 1");
        assert_eq!(x.offset(4).to_string(), "x3 + 4");
    }

    #[test]
    fn the_ends_of_i32_map_without_overflow() {
        let d = Domain::from_values([i32::MIN, i32::MAX]).unwrap();
        let v = var(0).scale(-3).offset(i32::MAX);
        assert_eq!(
            v.min(&d),
            Some(-3 * i64::from(i32::MAX) + i64::from(i32::MAX))
        );
        assert_eq!(
            v.max(&d),
            Some(-3 * i64::from(i32::MIN) + i64::from(i32::MAX))
        );
        assert_eq!(v.preimage(i64::MAX), None);
        assert_eq!(
            after(&d, v, |ctx| v.remove_above(ctx, i64::MAX)).map(|v| v.len()),
            Some(2)
        );
        assert_eq!(after(&d, v, |ctx| v.remove_below(ctx, i64::MAX)), None);
    }

    proptest! {
        #[test]
        fn pruning_through_a_view_keeps_exactly_the_view_values_asked_for(
            values in proptest::collection::btree_set(-10i32..=10, 1..12),
            scale in prop_oneof![-3i32..=-1, 1i32..=3],
            offset in -6i32..=6,
            bound in -45i64..=45,
        ) {
            let domain = Domain::from_values(values.iter().copied()).unwrap();
            let view = var(0).scale(scale).offset(offset);
            let mut all: Vec<i64> = values.iter().map(|&v| view.apply(v)).collect();
            all.sort_unstable();
            let listed: Vec<i64> = view.values(&domain).collect();
            prop_assert!(listed.windows(2).all(|w| w[0] < w[1]), "ascending: {:?}", listed);
            prop_assert_eq!(&listed, &all);
            prop_assert_eq!(view.min(&domain), all.first().copied());
            prop_assert_eq!(view.max(&domain), all.last().copied());
            let expect = |keep: &dyn Fn(i64) -> bool| {
                let kept: Vec<i64> = all.iter().copied().filter(|&w| keep(w)).collect();
                (!kept.is_empty()).then_some(kept)
            };
            prop_assert_eq!(after(&domain, view, |ctx| view.remove_above(ctx, bound)), expect(&|w| w <= bound));
            prop_assert_eq!(after(&domain, view, |ctx| view.remove_below(ctx, bound)), expect(&|w| w >= bound));
            prop_assert_eq!(after(&domain, view, |ctx| view.remove(ctx, bound)), expect(&|w| w != bound));
            prop_assert_eq!(after(&domain, view, |ctx| view.fix(ctx, bound)), expect(&|w| w == bound));
            for &w in &all {
                prop_assert!(view.contains(&domain, w));
            }
            prop_assert_eq!(view.contains(&domain, bound), all.contains(&bound));
        }
    }
}
