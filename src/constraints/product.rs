//! The product of any number of variables: `z = x₁ · x₂ · … · xₙ`.

use smallvec::SmallVec;

use crate::constraints::bounds::{
    ceil_div_wide as ceil_div, floor_div_wide as floor_div, keep_at_least, keep_at_most,
};
use crate::constraints::{Conflict, Constraint, PropagationContext, WakeOn};
use crate::ids::VarId;
use crate::kernel::PropagationLevel;

/// The magnitude at which products saturate: beyond every `i32`, and small enough that a
/// saturated value times an `i32`, or times another saturated value, fits an `i128`.
const CAP: i128 = 1 << 62;

/// The most values of one domain the forward rule and the divisor rule visit.
const VISITED_VALUES: usize = 1 << 16;

/// `z = x₁ · x₂ · … · xₙ`: the product of any number of variables ("the cells of this cage
/// multiply to 60", KenKen's `×` cages; MiniZinc's `product` over variables). The product of no
/// factor is 1. [`Model::product`](crate::Model::product) creates `z` for you.
///
/// A variable may appear more than once, as a factor or as both a factor and `z`
/// (`x · x = z`, `x · y = x`): its positions are treated as separate variables, which stays
/// sound. All arithmetic is done in `i64`/`i128` with saturation, so no product overflows,
/// whatever the domains.
///
/// Propagation, by [`PropagationLevel`]:
///
/// - `None`: fails when the whole scope is fixed to values that violate it.
/// - `Forward`: once every variable but one is fixed, the last one keeps the values that
///   satisfy it (`z` is fixed to the product; a factor to `z` divided by the others, or it
///   fails when they do not divide `z`). Wakes when a variable is fixed.
/// - `Full`: the forward rule, plus bounds and divisor reasoning (not bounds consistency):
///   - zero: when no factor can be 0, neither can `z`; when `z` cannot be 0, no factor can;
///   - bounds of `z` from the product of the factors' bounds (interval arithmetic), and of
///     each factor from the bounds of `z` divided by the product of the others' bounds
///     (when that product cannot be 0; split around 0 when it cannot be 0 only because `z`
///     cannot);
///   - divisors: with `z` fixed to `v ≠ 0`, each unfixed factor keeps only the divisors of
///     `v / f`, with `f` the product of the fixed factors at the other positions (a domain of
///     more than 65,536 values is left to the bounds).
///
///   O(n) bounds work per call plus O(Σ|Dᵢ|) for the divisors; wakes on any change.
///
/// # Examples
///
/// ```
/// use cspkit::{Model, Product};
///
/// // Three dice whose product is 60: {2, 5, 6} and {3, 4, 5}, each in 6 orders.
/// let mut model = Model::new();
/// let dice = model.new_vars(3, 1..=6)?;
/// let sixty = model.new_var(60..=60)?;
/// model.post(Product::new(&dice, sixty))?;
/// assert_eq!(model.solver().count().solutions, 12);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Product {
    /// The factors, then `z`.
    scope: Vec<VarId>,
}

impl Product {
    /// `z = factors[0] · factors[1] · …` (1 for no factor).
    pub fn new(factors: &[VarId], z: VarId) -> Product {
        let mut scope = factors.to_vec();
        scope.push(z);
        Product { scope }
    }

    /// The factors.
    pub fn factors(&self) -> &[VarId] {
        &self.scope[..self.scope.len() - 1]
    }

    /// The product `z`.
    pub fn result(&self) -> VarId {
        self.scope[self.scope.len() - 1]
    }

    /// The forward rule: with every variable but one fixed, the last keeps what satisfies it.
    fn forward(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let mut unfixed: Option<VarId> = None;
        for &var in &self.scope {
            if !ctx.is_fixed(var) {
                match unfixed {
                    None => unfixed = Some(var),
                    Some(seen) if seen == var => {}
                    Some(_) => return Ok(()),
                }
            }
        }
        let mut values: SmallVec<[i32; 8]> = self
            .scope
            .iter()
            .map(|&var| ctx.domain(var).min().unwrap_or(0))
            .collect();
        let Some(var) = unfixed else {
            return if self.check(&values) {
                Ok(())
            } else {
                Err(Conflict)
            };
        };
        let positions: SmallVec<[usize; 4]> = (0..self.scope.len())
            .filter(|&p| self.scope[p] == var)
            .collect();
        if ctx.domain(var).size() <= VISITED_VALUES {
            ctx.retain(var, |v| {
                for &p in &positions {
                    values[p] = v;
                }
                self.check(&values)
            })?;
            return Ok(());
        }
        // A wide domain: only the cases with one position are solved directly.
        let last = self.scope.len() - 1;
        match positions[..] {
            [p] if p == last => {
                let z = product(values[..last].iter().copied()).ok_or(Conflict)?;
                ctx.fix(var, i32::try_from(z).map_err(|_| Conflict)?)?;
            }
            [p] => {
                let z = i64::from(values[last]);
                let others = (0..last).filter(|&q| q != p).map(|q| values[q]);
                match product(others) {
                    Some(0) if z != 0 => return Err(Conflict),
                    Some(0) => {}
                    Some(f) if z % f == 0 => {
                        ctx.fix(var, i32::try_from(z / f).map_err(|_| Conflict)?)?;
                    }
                    // The others' product is beyond every i32: only x = 0 = z is left.
                    None if z == 0 => {
                        ctx.fix(var, 0)?;
                    }
                    _ => return Err(Conflict),
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// With `z` fixed to `v ≠ 0`: each factor divides `v` over the fixed others' product.
    fn divisors(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let Some(v) = ctx.value(self.result()) else {
            return Ok(());
        };
        if v == 0 {
            return Ok(());
        }
        let factors = self.factors();
        for (k, &x) in factors.iter().enumerate() {
            if ctx.is_fixed(x) || ctx.domain(x).size() > VISITED_VALUES {
                continue;
            }
            let fixed = factors
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != k)
                .filter_map(|(_, &y)| ctx.value(y));
            // The others' fixed product divides v: it is neither 0 nor beyond every i32.
            let f = match product(fixed) {
                Some(f) if f != 0 && i64::from(v) % f == 0 => f,
                _ => return Err(Conflict),
            };
            let quotient = i64::from(v) / f;
            ctx.retain(x, |d| d != 0 && quotient % i64::from(d) == 0)?;
        }
        Ok(())
    }
}

/// The zero rule and the bounds rules of [`Product`] for `z = factors[0] · factors[1] · …`:
/// zero, then bounds of `z` and of each factor. [`Arithmetic`](crate::Arithmetic)'s `times`
/// uses it too.
pub(crate) fn product_bounds(
    ctx: &mut PropagationContext<'_>,
    factors: &[VarId],
    z: VarId,
) -> Result<(), Conflict> {
    if !ctx.domain(z).contains(0) {
        for &x in factors {
            ctx.remove(x, 0)?;
        }
    } else if factors.iter().all(|&x| !ctx.domain(x).contains(0)) {
        ctx.remove(z, 0)?;
    }
    let hulls: SmallVec<[(i128, i128); 8]> = factors
        .iter()
        .map(|&x| hull(ctx, x))
        .collect::<Result<_, _>>()?;
    // prefix[k] is the product of the factors before k, suffix[k] of those from k on.
    let n = factors.len();
    let mut prefix: SmallVec<[(i128, i128); 9]> = SmallVec::with_capacity(n + 1);
    prefix.push((1, 1));
    for k in 0..n {
        prefix.push(times(prefix[k], hulls[k]));
    }
    let mut suffix: SmallVec<[(i128, i128); 9]> = SmallVec::from_elem((1, 1), n + 1);
    for k in (0..n).rev() {
        suffix[k] = times(hulls[k], suffix[k + 1]);
    }
    let (low, high) = prefix[n];
    keep_at_least(ctx, z, narrow(low))?;
    keep_at_most(ctx, z, narrow(high))?;

    let (z_low, z_high) = hull(ctx, z)?;
    let z_nonzero = !ctx.domain(z).contains(0);
    for k in 0..n {
        let (o_low, o_high) = times(prefix[k], suffix[k + 1]);
        // The product of the others, as ranges that do not contain 0.
        let mut parts: SmallVec<[(i128, i128); 2]> = SmallVec::new();
        if o_low > 0 || o_high < 0 {
            parts.push((o_low, o_high));
        } else if z_nonzero {
            // Every factor lost 0 above, so the others' product is not 0.
            if o_low <= -1 {
                parts.push((o_low, -1));
            }
            if o_high >= 1 {
                parts.push((1, o_high));
            }
        } else {
            continue;
        }
        if parts.is_empty() {
            return Err(Conflict);
        }
        // x = z / o is monotone in z and in o on each part: its extremes are at corners.
        let (mut low, mut high) = (i128::MAX, i128::MIN);
        for (a, b) in parts {
            for zc in [z_low, z_high] {
                for oc in [a, b] {
                    low = low.min(ceil_div(zc, oc));
                    high = high.max(floor_div(zc, oc));
                }
            }
        }
        keep_at_least(ctx, factors[k], narrow(low))?;
        keep_at_most(ctx, factors[k], narrow(high))?;
    }
    Ok(())
}

/// The product of `values`, or `None` when its magnitude exceeds every `i32` (and 2⁶²): with
/// no factor 0, a product only grows in magnitude, so it is never an `i32` again.
pub(crate) fn product(values: impl IntoIterator<Item = i32>) -> Option<i64> {
    let mut total: i128 = 1;
    let mut beyond = false;
    for v in values {
        if v == 0 {
            return Some(0);
        }
        if !beyond {
            total *= i128::from(v);
            beyond = total.abs() > CAP;
        }
    }
    if beyond {
        None
    } else {
        i64::try_from(total).ok()
    }
}

/// The range of `x · y` for `x` in `a` and `y` in `b`, with both ends clamped to `±2⁶²`: the
/// ends are exact when within, and a clamped end stands for every value beyond.
pub(crate) fn times((a, b): (i128, i128), (c, d): (i128, i128)) -> (i128, i128) {
    let corners = [a * c, a * d, b * c, b * d].map(|p| p.clamp(-CAP, CAP));
    let low = corners.iter().copied().min().unwrap_or(0);
    let high = corners.iter().copied().max().unwrap_or(0);
    (low, high)
}

/// The smallest and the largest value of `var`.
fn hull(ctx: &PropagationContext<'_>, var: VarId) -> Result<(i128, i128), Conflict> {
    let d = ctx.domain(var);
    Ok((
        i128::from(d.min().ok_or(Conflict)?),
        i128::from(d.max().ok_or(Conflict)?),
    ))
}

/// A bound within `±2⁶²` as an `i64`.
fn narrow(bound: i128) -> i64 {
    i64::try_from(bound.clamp(-CAP, CAP)).unwrap_or(0)
}

impl Constraint for Product {
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
        let (factors, z) = values.split_at(values.len() - 1);
        product(factors.iter().copied()) == Some(i64::from(z[0]))
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        match ctx.level() {
            PropagationLevel::None => ctx.check_if_fixed(self),
            PropagationLevel::Forward => self.forward(ctx),
            PropagationLevel::Full => {
                product_bounds(ctx, self.factors(), self.result())?;
                self.divisors(ctx)?;
                self.forward(ctx)
            }
        }
    }

    fn wake_on(&self, level: PropagationLevel) -> WakeOn {
        match level {
            PropagationLevel::Full => WakeOn::AnyChange,
            _ => WakeOn::Fixed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::propagate_once;

    fn var(index: u32) -> VarId {
        VarId { model: 0, index }
    }

    #[test]
    fn products_saturate_instead_of_overflowing() {
        assert_eq!(product([]), Some(1));
        assert_eq!(product([2, -3, 7]), Some(-42));
        assert_eq!(product([i32::MAX, i32::MAX, i32::MAX, 0]), Some(0));
        assert_eq!(product([i32::MIN; 5]), None);
        assert_eq!(product([i32::MIN, -1]), Some(1 << 31));
        let wide = (i128::from(i32::MIN), i128::from(i32::MAX));
        let (low, high) = times(times(wide, wide), times(wide, wide));
        assert_eq!((low, high), (-CAP, CAP));
        assert_eq!(times((-2, 3), (4, 5)), (-10, 15));
    }

    #[test]
    fn full_keeps_the_divisors_and_the_bounds_of_a_cage() {
        // x · y · w = 60 with x, y, w in 1..=7: 1 is too small (6 · 7 < 60), 7 divides nothing.
        let cage = Product::new(&[var(0), var(1), var(2)], var(3));
        let dice: Vec<i32> = (1..=7).collect();
        let domains = [dice.clone(), dice.clone(), dice, vec![60]];
        let after = propagate_once(&cage, &domains, PropagationLevel::Full).unwrap();
        assert_eq!(after[0], [2, 3, 4, 5, 6]);
        // With one factor fixed to 5, the others divide 12 and reach it together.
        let domains = [vec![5], (1..=7).collect(), (1..=7).collect(), vec![60]];
        let after = propagate_once(&cage, &domains, PropagationLevel::Full).unwrap();
        assert_eq!(after[1], [2, 3, 4, 6]);
        // z's bounds are the product of the factors' bounds.
        let domains = [vec![-2, 0, 3], vec![1, 4], vec![1], (-20..=20).collect()];
        let after = propagate_once(&cage, &domains, PropagationLevel::Full).unwrap();
        assert_eq!(after[3], (-8..=12).collect::<Vec<_>>());
    }

    #[test]
    fn forward_solves_the_last_variable_even_in_a_wide_domain() {
        let cage = Product::new(&[var(0), var(1)], var(2));
        let wide = [vec![6], (-100_000..=100_000).collect(), vec![42]];
        let after = propagate_once(&cage, &wide, PropagationLevel::Forward).unwrap();
        assert_eq!(after[1], [7]);
        let none = [vec![5], vec![1, 2], vec![42]];
        assert!(propagate_once(&cage, &none, PropagationLevel::Forward).is_err());
    }
}
