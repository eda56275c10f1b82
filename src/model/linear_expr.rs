//! Linear expressions over variables, written with ordinary arithmetic.

use std::iter::Sum;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

use crate::constraints::{Comparison, InvalidLinear, Linear};
use crate::ids::VarId;
use crate::model::Solution;

/// `a₁·x₁ + … + aₙ·xₙ + b`: integer coefficients on variables, plus a constant.
///
/// Expressions are written with `+`, `-` and `*` on [`VarId`]s, booleans
/// ([`BoolVar`](crate::BoolVar)s, a negated one `!b` counting as `1 − b`), integers and other
/// expressions, and turned into a
/// [`Linear`] constraint by comparing them with
/// [`eq`](LinearExpr::eq), [`ne`](LinearExpr::ne), [`le`](LinearExpr::le),
/// [`lt`](LinearExpr::lt), [`ge`](LinearExpr::ge) or [`gt`](LinearExpr::gt). Either side of a
/// comparison may hold variables and constants; repeated variables are merged when the
/// constraint is built.
///
/// Integers are `i32` (the type of values) or `i64` (the type of coefficients, constants,
/// counts and objective values, as in [`LinearExpr::new`],
/// [`Model::at_least`](crate::Model::at_least) and [`Optimum`](crate::Optimum)). Both convert
/// into an expression, so either is a constant term (`expr + k`) or the right-hand side of a
/// comparison (`expr.le(k)`): a bound read from an objective is posted back as it is. The
/// operators `*`, and `+`, `-` with the number on the left, take `i32`; an `i64` coefficient
/// goes through [`LinearExpr::new`].
///
/// Arithmetic on coefficients and constants is checked: an overflow is remembered and reported
/// as [`ModelError::ArithmeticOverflow`](crate::ModelError::ArithmeticOverflow) when the
/// constraint is posted, never as a panic.
///
/// # Examples
///
/// ```
/// use cspkit::{LinearExpr, Model};
///
/// let mut model = Model::new();
/// let [x, y] = [model.new_var(0..=9)?, model.new_var(0..=9)?];
/// model.post((x * 3 + y).eq(2 * y + 7))?; // 3x + y = 2y + 7
/// model.post((x + y).le(10))?;
/// let solutions: Vec<(i32, i32)> =
///     model.solver().solutions().map(|s| (s[x], s[y])).collect();
/// assert_eq!(solutions, [(3, 2), (4, 5)]);
///
/// // A number from its digits, most significant first: 10·x + y.
/// let xy = LinearExpr::from_digits(&[x, y], 10);
/// let first = model.solve().solution().unwrap();
/// assert_eq!(xy.value(&first), Some(32));
///
/// // `i64` constants too: at most the value of the first solution.
/// let bound: i64 = xy.value(&first).unwrap();
/// model.post(xy.clone().le(bound - 1))?;
/// assert_eq!(model.solve().solution().and_then(|s| xy.value(&s)), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct LinearExpr {
    terms: Vec<(i64, VarId)>,
    constant: i64,
    overflowed: bool,
}

impl LinearExpr {
    /// The sum of `vars`.
    pub fn sum(vars: &[VarId]) -> LinearExpr {
        vars.iter().sum()
    }

    /// `Σ aᵢ·xᵢ + constant`, from pairs `(aᵢ, xᵢ)`.
    ///
    /// The operators take `i32` coefficients, like the values of variables; this constructor
    /// takes the full `i64` range of [`Linear`].
    pub fn new(terms: &[(i64, VarId)], constant: i64) -> LinearExpr {
        LinearExpr {
            terms: terms.to_vec(),
            constant,
            overflowed: false,
        }
    }

    /// The number whose digits in `base` are `digits`, most significant first:
    /// `from_digits(&[s, e, n, d], 10)` is `1000·s + 100·e + 10·n + d`.
    ///
    /// The digits' domains are not restricted here: post `0..base` domains for real digits.
    pub fn from_digits(digits: &[VarId], base: i32) -> LinearExpr {
        let mut expr = LinearExpr::default();
        let mut weight: Option<i64> = Some(1);
        for &digit in digits.iter().rev() {
            match weight {
                Some(w) => expr.terms.push((w, digit)),
                None => expr.overflowed = true,
            }
            weight = weight.and_then(|w| w.checked_mul(i64::from(base)));
        }
        expr.terms.reverse();
        expr
    }

    /// The terms `(aᵢ, xᵢ)` as written (a variable may appear more than once).
    pub fn terms(&self) -> &[(i64, VarId)] {
        &self.terms
    }

    /// Whether building the expression overflowed `i64` (such an expression is refused when
    /// posted or optimised).
    pub fn has_overflowed(&self) -> bool {
        self.overflowed
    }

    /// The constant `b`.
    pub fn constant(&self) -> i64 {
        self.constant
    }

    /// The value of the expression in `solution`, or `None` if a variable does not belong to
    /// the solved model or the value does not fit an `i64`.
    pub fn value(&self, solution: &Solution) -> Option<i64> {
        if self.overflowed {
            return None;
        }
        let mut total = i128::from(self.constant);
        for &(a, var) in &self.terms {
            total += i128::from(a) * i128::from(solution.get(var)?);
        }
        i64::try_from(total).ok()
    }

    /// The constraint `self op rhs`.
    pub fn compare(self, comparison: Comparison, rhs: impl Into<LinearExpr>) -> Linear {
        // self − rhs op 0, that is: the terms of self − rhs op −(its constant).
        let difference = self - rhs.into();
        let constant = difference.constant.checked_neg();
        let invalid =
            (difference.overflowed || constant.is_none()).then_some(InvalidLinear::Expression);
        Linear::build(difference.terms, comparison, constant.unwrap_or(0), invalid)
    }

    /// The constraint `self = rhs`.
    pub fn eq(self, rhs: impl Into<LinearExpr>) -> Linear {
        self.compare(Comparison::Eq, rhs)
    }

    /// The constraint `self ≠ rhs`.
    pub fn ne(self, rhs: impl Into<LinearExpr>) -> Linear {
        self.compare(Comparison::Ne, rhs)
    }

    /// The constraint `self ≤ rhs`.
    pub fn le(self, rhs: impl Into<LinearExpr>) -> Linear {
        self.compare(Comparison::Le, rhs)
    }

    /// The constraint `self < rhs`.
    pub fn lt(self, rhs: impl Into<LinearExpr>) -> Linear {
        self.compare(Comparison::Lt, rhs)
    }

    /// The constraint `self ≥ rhs`.
    pub fn ge(self, rhs: impl Into<LinearExpr>) -> Linear {
        self.compare(Comparison::Ge, rhs)
    }

    /// The constraint `self > rhs`.
    pub fn gt(self, rhs: impl Into<LinearExpr>) -> Linear {
        self.compare(Comparison::Gt, rhs)
    }

    /// Multiplies every coefficient and the constant by `factor`.
    fn scaled(mut self, factor: i64) -> LinearExpr {
        for (a, _) in &mut self.terms {
            match a.checked_mul(factor) {
                Some(product) => *a = product,
                None => self.overflowed = true,
            }
        }
        match self.constant.checked_mul(factor) {
            Some(product) => self.constant = product,
            None => self.overflowed = true,
        }
        self
    }
}

impl From<VarId> for LinearExpr {
    fn from(var: VarId) -> LinearExpr {
        LinearExpr {
            terms: vec![(1, var)],
            ..LinearExpr::default()
        }
    }
}

impl From<&VarId> for LinearExpr {
    fn from(var: &VarId) -> LinearExpr {
        LinearExpr::from(*var)
    }
}

impl From<i32> for LinearExpr {
    fn from(constant: i32) -> LinearExpr {
        LinearExpr::new(&[], i64::from(constant))
    }
}

impl From<i64> for LinearExpr {
    fn from(constant: i64) -> LinearExpr {
        LinearExpr::new(&[], constant)
    }
}

impl<T: Into<LinearExpr>> AddAssign<T> for LinearExpr {
    fn add_assign(&mut self, rhs: T) {
        let rhs = rhs.into();
        self.terms.extend(rhs.terms);
        match self.constant.checked_add(rhs.constant) {
            Some(sum) => self.constant = sum,
            None => self.overflowed = true,
        }
        if rhs.overflowed {
            self.overflowed = true;
        }
    }
}

impl<T: Into<LinearExpr>> SubAssign<T> for LinearExpr {
    fn sub_assign(&mut self, rhs: T) {
        *self += -rhs.into();
    }
}

impl<T: Into<LinearExpr>> Add<T> for LinearExpr {
    type Output = LinearExpr;
    fn add(mut self, rhs: T) -> LinearExpr {
        self += rhs;
        self
    }
}

impl<T: Into<LinearExpr>> Sub<T> for LinearExpr {
    type Output = LinearExpr;
    fn sub(mut self, rhs: T) -> LinearExpr {
        self -= rhs;
        self
    }
}

impl Neg for LinearExpr {
    type Output = LinearExpr;
    fn neg(self) -> LinearExpr {
        self.scaled(-1)
    }
}

impl<T: Into<LinearExpr>> Add<T> for VarId {
    type Output = LinearExpr;
    fn add(self, rhs: T) -> LinearExpr {
        LinearExpr::from(self) + rhs
    }
}

impl<T: Into<LinearExpr>> Sub<T> for VarId {
    type Output = LinearExpr;
    fn sub(self, rhs: T) -> LinearExpr {
        LinearExpr::from(self) - rhs
    }
}

impl Neg for VarId {
    type Output = LinearExpr;
    fn neg(self) -> LinearExpr {
        -LinearExpr::from(self)
    }
}

/// `VarId * n`, `n * VarId`, `LinearExpr * n`, `n * LinearExpr`, `n + VarId`, `n - VarId`,
/// `n + LinearExpr`, `n - LinearExpr` for an integer type `n`. One type only (`i32`, the type of
/// values): with two, the type of `x * 3` would depend on the literal's, and `x * 3 + y` would
/// not compile. An `i64` enters an expression through [`From`] (`expr + k`, `expr.le(k)`) or
/// [`LinearExpr::new`].
macro_rules! integer_operators {
    ($($int:ty),*) => {$(
        impl Mul<$int> for LinearExpr {
            type Output = LinearExpr;
            fn mul(self, factor: $int) -> LinearExpr {
                self.scaled(i64::from(factor))
            }
        }
        impl Mul<LinearExpr> for $int {
            type Output = LinearExpr;
            fn mul(self, expr: LinearExpr) -> LinearExpr {
                expr.scaled(i64::from(self))
            }
        }
        impl Mul<$int> for VarId {
            type Output = LinearExpr;
            fn mul(self, factor: $int) -> LinearExpr {
                LinearExpr::new(&[(i64::from(factor), self)], 0)
            }
        }
        impl Mul<VarId> for $int {
            type Output = LinearExpr;
            fn mul(self, var: VarId) -> LinearExpr {
                var * self
            }
        }
        impl Add<VarId> for $int {
            type Output = LinearExpr;
            fn add(self, var: VarId) -> LinearExpr {
                var + self
            }
        }
        impl Add<LinearExpr> for $int {
            type Output = LinearExpr;
            fn add(self, expr: LinearExpr) -> LinearExpr {
                expr + self
            }
        }
        impl Sub<VarId> for $int {
            type Output = LinearExpr;
            fn sub(self, var: VarId) -> LinearExpr {
                -var + self
            }
        }
        impl Sub<LinearExpr> for $int {
            type Output = LinearExpr;
            fn sub(self, expr: LinearExpr) -> LinearExpr {
                -expr + self
            }
        }
    )*};
}

integer_operators!(i32);

impl Sum<VarId> for LinearExpr {
    fn sum<I: Iterator<Item = VarId>>(vars: I) -> LinearExpr {
        LinearExpr {
            terms: vars.map(|var| (1, var)).collect(),
            ..LinearExpr::default()
        }
    }
}

impl<'a> Sum<&'a VarId> for LinearExpr {
    fn sum<I: Iterator<Item = &'a VarId>>(vars: I) -> LinearExpr {
        vars.copied().sum()
    }
}

impl Sum<LinearExpr> for LinearExpr {
    fn sum<I: Iterator<Item = LinearExpr>>(exprs: I) -> LinearExpr {
        exprs.fold(LinearExpr::default(), |total, expr| total + expr)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Model, ModelError};

    #[test]
    fn operators_build_the_expected_terms_and_constant() {
        let mut m = Model::new();
        let [x, y] = [m.new_var(0..=1).unwrap(), m.new_var(0..=1).unwrap()];
        let e = 3 * x - (y * 2 + 5) + 1 - x;
        assert_eq!(e.terms(), [(3, x), (-2, y), (-1, x)]);
        assert_eq!(e.constant(), -4);
        let e = -(x + 2) * 4;
        assert_eq!((e.terms(), e.constant()), (&[(-4, x)][..], -8));
        let total: LinearExpr = [x, y].iter().sum();
        assert_eq!(total.terms(), [(1, x), (1, y)]);
        assert_eq!(
            LinearExpr::from_digits(&[x, y, x], 10).terms(),
            [(100, x), (10, y), (1, x)]
        );
    }

    #[test]
    fn comparisons_move_everything_to_one_side() {
        let mut m = Model::new();
        let [x, y] = [m.new_var(0..=1).unwrap(), m.new_var(0..=1).unwrap()];
        let c = (x * 2 + 3).le(y - x + 10);
        assert_eq!(c.terms().collect::<Vec<_>>(), [(3, x), (-1, y)]);
        assert_eq!((c.comparison(), c.constant()), (Comparison::Le, 7));
    }

    #[test]
    fn overflowing_arithmetic_is_reported_when_posting() {
        let mut m = Model::new();
        let x = m.new_var(0..=9).unwrap();
        let huge = LinearExpr::new(&[(i64::MAX, x)], 0) * 2;
        let err = m.post(huge.eq(0)).unwrap_err();
        assert!(
            matches!(err, ModelError::ArithmeticOverflow { .. }),
            "{err}"
        );
        let digits = LinearExpr::from_digits(&[x; 20], 10);
        assert!(m.post(digits.ge(1)).is_err());
        let constant = LinearExpr::new(&[(1, x)], i64::MAX) + 1;
        assert!(m.post(constant.le(0)).is_err());
        assert_eq!(m.num_constraints(), 0);
    }
}
