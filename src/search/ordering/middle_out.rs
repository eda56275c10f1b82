//! [`MiddleOut`]: the values nearest the middle of the declared domain first.

use super::{SearchView, ValueOrder};
use crate::ids::VarId;
use crate::search::Branching;

/// Try the value nearest the middle of the variable's declared domain first, then the others
/// outwards (also called centre-first); of two values as near, the smaller one first.
///
/// The middle is that of the domain the variable was declared with ([`Model::domain`]), not of
/// its current domain, so the preference is the same at every node: a variable declared over
/// `0..=7` has its values tried in the order 3, 4, 2, 5, 1, 6, 0, 7 (skipping the values no
/// longer in its domain). On N-Queens, where a queen in a central column attacks more squares,
/// this is the classic value order that, with [`SmallestDomain`](crate::SmallestDomain), places
/// thousands of queens with little backtracking (Kalé, "An almost perfect heuristic for the N
/// nonattacking queens problem", 1990).
///
/// With [`Branching::Split`], whose value is the bound of the left branch `x ≤ v`, the value is
/// instead the largest one at most the middle of the *current* bounds, `(min + max) / 2`
/// rounded down: each split halves the range left, so a variable over the whole `i32` range is
/// fixed in 32 splits (bisection), where the declared middle would peel one value a split off
/// each half.
///
/// Cost: a scan from the middle out to the nearest value left, at most the width of the
/// declared domain; with `Split`, one search for the value below the middle.
///
/// [`Branching::Split`]: crate::Branching::Split
///
/// [`Model::domain`]: crate::Model::domain
///
/// # Examples
///
/// ```
/// use cspkit::{MiddleOut, Model};
///
/// let mut model = Model::new();
/// let x = model.new_var(0..=7)?;
/// let mut solver = model.solver().with_value_order(MiddleOut);
/// let order: Vec<i32> = solver.solutions().map(|s| s[x]).collect();
/// assert_eq!(order, [3, 4, 2, 5, 1, 6, 0, 7]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct MiddleOut;

impl ValueOrder for MiddleOut {
    fn select_value(&mut self, var: VarId, view: &SearchView<'_>) -> i32 {
        let domain = view.domain(var);
        let declared = view.model().domain(var);
        let (Some(min), Some(max)) = (domain.min(), domain.max()) else {
            return 0; // An empty domain is never branched on.
        };
        if view.branching() == Branching::Split {
            let middle = (i64::from(min) + i64::from(max)).div_euclid(2) as i32;
            // `middle < max` when there are two values or more, so `middle + 1` fits.
            return domain.below(middle.saturating_add(1)).unwrap_or(min);
        }
        let (low, high) = match (declared.min(), declared.max()) {
            (Some(low), Some(high)) => (i64::from(low), i64::from(high)),
            _ => (i64::from(min), i64::from(max)),
        };
        // Twice the middle: the two central values of an even width are equally near.
        let twice_middle = low + high;
        let nearness = |value: i32| ((2 * i64::from(value) - twice_middle).abs(), value);
        if domain.size() <= SMALL {
            return domain.iter().min_by_key(|&v| nearness(v)).unwrap_or(min);
        }
        // Scan from the middle outwards: the lower candidate, then the upper one.
        let below = twice_middle.div_euclid(2);
        let above = twice_middle - below;
        let (min, max) = (i64::from(min), i64::from(max));
        let mut distance = 0;
        loop {
            let (down, up) = (below - distance, above + distance);
            if down > max || up < min {
                // Every value left is on one side of the middle: jump to the nearer end.
                distance += (down - max).max(min - up);
                continue;
            }
            if down >= min && domain.contains(down as i32) {
                return down as i32;
            }
            if up <= max && domain.contains(up as i32) {
                return up as i32;
            }
            distance += 1;
        }
    }
}

/// Domains of at most this many values are searched value by value rather than by a scan out
/// from the middle (which may cross a wide gap).
const SMALL: usize = 16;

#[cfg(test)]
mod tests {
    use super::super::testing::{model_with, narrowed, view_of};
    use super::*;
    use crate::domain::Domain;

    /// The order in which `MiddleOut` tries the values of a variable declared over `declared`
    /// whose domain has been narrowed to `left`.
    fn order(declared: &[i32], left: &[i32]) -> Vec<i32> {
        let (m, v) = model_with(&[declared]);
        let mut domains = vec![narrowed(&m.initial_domains()[0], left)];
        let mut order = Vec::new();
        while domains[0].size() > 1 {
            let value = MiddleOut.select_value(v[0], &view_of(&m, &domains));
            assert!(domains[0].contains(value), "{value} is not in the domain");
            order.push(value);
            domains[0] = narrowed(
                &domains[0],
                &domains[0]
                    .iter()
                    .filter(|&w| w != value)
                    .collect::<Vec<_>>(),
            );
        }
        order.extend(domains[0].iter());
        order
    }

    #[test]
    fn values_come_from_the_middle_outwards_the_smaller_first() {
        let even: Vec<i32> = (0..8).collect();
        assert_eq!(order(&even, &even), [3, 4, 2, 5, 1, 6, 0, 7]);
        let odd: Vec<i32> = (-4..=4).collect();
        assert_eq!(order(&odd, &odd), [0, -1, 1, -2, 2, -3, 3, -4, 4]);
    }

    #[test]
    fn with_split_branching_the_value_bisects_the_current_bounds() {
        let (m, v) = model_with(&[&(0..10).collect::<Vec<i32>>()]);
        let at = |left: &[i32]| {
            let domains = vec![narrowed(&m.initial_domains()[0], left)];
            let view = view_of(&m, &domains).with_branching(Branching::Split);
            MiddleOut.select_value(v[0], &view)
        };
        assert_eq!(at(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]), 4);
        // The left half's middle, not the declared one (which is its largest value).
        assert_eq!(at(&[0, 1, 2, 3, 4]), 2);
        assert_eq!(at(&[5, 6, 7, 8, 9]), 7);
        // Below the middle when it is a hole; never the largest value.
        assert_eq!(at(&[1, 2, 8, 9]), 2);
        assert_eq!(at(&[8, 9]), 8);
        let full = Domain::range(i32::MIN, i32::MAX).unwrap();
        let (m, v) = model_with(&[&[0, 1]]);
        let domains = vec![full];
        let view = view_of(&m, &domains).with_branching(Branching::Split);
        assert_eq!(MiddleOut.select_value(v[0], &view), -1);
    }

    #[test]
    fn the_middle_is_that_of_the_declared_domain() {
        let declared: Vec<i32> = (0..10).collect();
        assert_eq!(order(&declared, &[0, 1, 2, 7, 9]), [2, 7, 1, 0, 9]);
        // Every value left on one side of the middle: the nearest comes first.
        assert_eq!(order(&declared, &[8, 9]), [8, 9]);
        assert_eq!(order(&declared, &[0, 1]), [1, 0]);
    }

    #[test]
    fn wide_and_sparse_domains_work() {
        let declared = [-1000, -3, 5, 64, 65, 2000];
        // The middle of -1000..=2000 is 500.
        assert_eq!(order(&declared, &declared), [65, 64, 5, -3, -1000, 2000]);
        let far = [-(1 << 19), (1 << 19) - 1];
        assert_eq!(order(&far, &far), far);
        // Many values, far from the middle: the scan jumps to the nearest end.
        let declared: Vec<i32> = (0..1000).collect();
        let low: Vec<i32> = (0..100).collect();
        assert_eq!(order(&declared, &low)[..3], [99, 98, 97]);
        let high: Vec<i32> = (900..1000).collect();
        assert_eq!(order(&declared, &high)[..3], [900, 901, 902]);
        let spread: Vec<i32> = (0..1000).step_by(7).collect();
        // 497 and 504 are 2.5 and 4.5 away from 499.5.
        assert_eq!(order(&declared, &spread)[..3], [497, 504, 490]);
    }
}
