//! Boolean variables and logic: [`BoolVar`], and the connectives and cardinality constraints
//! a model posts over them ([`Model::and`], [`Model::clause`], [`Model::at_least`], …).
//!
//! A boolean is an integer variable with domain `{0, 1}` (false, true), or the negation of one:
//! `!b` is a [`BoolVar`] too, true exactly when `b` is false, so every connective, every sum
//! ([`LinearExpr`], where it counts as `1 − b`) and every reification accepts it where it
//! accepts `b`; a constraint over views takes it as the view `1 − b` ([`BoolVar::view`]).
//! Each connective is posted as the linear (or table) constraints that define it, which at
//! [`PropagationLevel::Full`](crate::PropagationLevel::Full) prune exactly what the
//! connective allows (bounds on 0/1 variables are their domains).

use std::iter::Sum;
use std::ops::{Add, Index, Mul, Neg, Not, Sub};

use crate::constraints::{Comparison, Linear, Member, Table};
use crate::error::ModelError;
use crate::ids::VarId;
use crate::kernel::IntView;
use crate::model::{LinearExpr, Model, Solution};

/// A boolean of a [`Model`]: a 0/1 variable (0 false, 1 true), or the negation of one.
///
/// `!b` is the boolean that is true exactly when `b` is false. It is a `BoolVar` like `b`, over
/// the same variable ([`var`](BoolVar::var)), with the negation remembered
/// ([`is_negated`](BoolVar::is_negated)), so it goes wherever a boolean goes: the connectives
/// ([`Model::and`], [`Model::clause`], …), sums (`!b` counts as `1 − b` in a [`LinearExpr`]),
/// reification ([`Model::reify_into`], [`Model::imply`], [`Model::imply_constraint`]), and
/// constraints over views ([`BoolVar::view`], the view `1 − b`). Read its value in a solution
/// with `solution[b]` (0 or 1, negation included).
///
/// # Examples
///
/// ```
/// use cspkit::{LinearExpr, Model};
///
/// // Exactly two of a, b, c, and a → b.
/// let mut model = Model::new();
/// let [a, b, c] = [model.new_bool()?, model.new_bool()?, model.new_bool()?];
/// model.exactly(2, &[a, b, c])?;
/// model.implies(a, b)?;
/// let found: Vec<Vec<i32>> = model.solver().solutions().map(|s| s.values().to_vec()).collect();
/// assert_eq!(found, [[0, 1, 1], [1, 1, 0]]);
///
/// // Negations go where booleans go: a ∨ ¬c, and ¬a + b + ¬c ≥ 2.
/// model.clause(&[a, !c], &[])?;
/// model.post((!a + b + !c).ge(2))?;
/// let solution = model.solve().solution().unwrap();
/// assert_eq!((solution[a], solution[!a], solution[c]), (1, 0, 0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoolVar {
    var: VarId,
    negated: bool,
}

impl BoolVar {
    /// The boolean that is the 0/1 variable `var` itself (checked by the caller).
    pub(crate) fn positive(var: VarId) -> BoolVar {
        BoolVar {
            var,
            negated: false,
        }
    }

    /// The 0/1 variable underneath: the same for `b` and `!b` (see
    /// [`is_negated`](BoolVar::is_negated)).
    ///
    /// A constraint that takes its boolean as a [`VarId`] ([`Member::reified`],
    /// [`Reified::new`](crate::Reified::new)) reads that variable as the truth, so give it a
    /// boolean that is not negated, or go through the model's shortcuts
    /// ([`Model::imply_constraint`], [`Model::reify_into`]), which accept either.
    pub fn var(self) -> VarId {
        self.var
    }

    /// Whether this boolean is the negation of its variable: true for `!b` when `b` came from
    /// [`Model::new_bool`].
    pub fn is_negated(self) -> bool {
        self.negated
    }

    /// The value of the variable underneath for which this boolean is true: 1, or 0 for a
    /// negated one.
    pub fn true_value(self) -> i32 {
        if self.negated { 0 } else { 1 }
    }

    /// The boolean as a view of its variable, 1 when true and 0 when false: the variable
    /// itself, or `1 − b` for a negated one. For constraints that take views
    /// ([`AllDifferent::over_views`](crate::AllDifferent::over_views), …); also
    /// `IntView::from(b)`.
    pub fn view(self) -> IntView {
        if self.negated {
            self.var.minus().offset(1)
        } else {
            IntView::from(self.var)
        }
    }

    /// The variable underneath and its value for true, for the constraints that take a
    /// boolean's polarity.
    pub(crate) fn polarity(self) -> (VarId, i32) {
        (self.var, self.true_value())
    }

    /// Whether the boolean is true when its variable takes `value`.
    pub(crate) fn is_true_at(self, value: i32) -> bool {
        value == self.true_value()
    }
}

impl Not for BoolVar {
    type Output = BoolVar;

    /// The negation: true exactly when `self` is false, over the same variable.
    fn not(self) -> BoolVar {
        BoolVar {
            negated: !self.negated,
            ..self
        }
    }
}

impl From<BoolVar> for IntView {
    fn from(b: BoolVar) -> IntView {
        b.view()
    }
}

impl From<BoolVar> for LinearExpr {
    /// `b`, or `1 − b` for a negated boolean.
    fn from(b: BoolVar) -> LinearExpr {
        if b.negated {
            LinearExpr::new(&[(-1, b.var)], 1)
        } else {
            LinearExpr::from(b.var)
        }
    }
}

impl From<&BoolVar> for LinearExpr {
    fn from(b: &BoolVar) -> LinearExpr {
        LinearExpr::from(*b)
    }
}

impl<T: Into<LinearExpr>> Add<T> for BoolVar {
    type Output = LinearExpr;
    fn add(self, rhs: T) -> LinearExpr {
        LinearExpr::from(self) + rhs
    }
}

impl<T: Into<LinearExpr>> Sub<T> for BoolVar {
    type Output = LinearExpr;
    fn sub(self, rhs: T) -> LinearExpr {
        LinearExpr::from(self) - rhs
    }
}

impl Neg for BoolVar {
    type Output = LinearExpr;
    fn neg(self) -> LinearExpr {
        -LinearExpr::from(self)
    }
}

impl Mul<i32> for BoolVar {
    type Output = LinearExpr;
    fn mul(self, factor: i32) -> LinearExpr {
        LinearExpr::from(self) * factor
    }
}

impl Mul<BoolVar> for i32 {
    type Output = LinearExpr;
    fn mul(self, b: BoolVar) -> LinearExpr {
        LinearExpr::from(b) * self
    }
}

impl Add<BoolVar> for i32 {
    type Output = LinearExpr;
    fn add(self, b: BoolVar) -> LinearExpr {
        LinearExpr::from(b) + self
    }
}

impl Sub<BoolVar> for i32 {
    type Output = LinearExpr;
    fn sub(self, b: BoolVar) -> LinearExpr {
        -LinearExpr::from(b) + self
    }
}

impl Sum<BoolVar> for LinearExpr {
    /// The number of true booleans.
    fn sum<I: Iterator<Item = BoolVar>>(bools: I) -> LinearExpr {
        bools.map(LinearExpr::from).sum()
    }
}

impl<'a> Sum<&'a BoolVar> for LinearExpr {
    fn sum<I: Iterator<Item = &'a BoolVar>>(bools: I) -> LinearExpr {
        bools.copied().sum()
    }
}

impl Index<BoolVar> for Solution {
    type Output = i32;

    /// The boolean's value, 1 (true) or 0 (false), its negation included.
    ///
    /// # Panics
    ///
    /// If the boolean's variable is not a variable of the solved model.
    fn index(&self, b: BoolVar) -> &i32 {
        let value = self[b.var];
        if !b.negated {
            &self[b.var]
        } else if value == 0 {
            &1
        } else {
            &0
        }
    }
}

impl Model {
    /// Declares a boolean variable (domain `{0, 1}`).
    ///
    /// # Errors
    ///
    /// None in practice; the signature matches [`Model::new_var`].
    pub fn new_bool(&mut self) -> Result<BoolVar, ModelError> {
        self.new_var(0..=1).map(BoolVar::positive)
    }

    /// A boolean for a modelling shortcut ([`Model::is_auxiliary`]).
    pub(crate) fn new_auxiliary_bool(&mut self) -> Result<BoolVar, ModelError> {
        self.new_auxiliary(0..=1).map(BoolVar::positive)
    }

    /// Declares a named boolean variable.
    ///
    /// # Errors
    ///
    /// As [`Model::new_bool`].
    pub fn new_named_bool(&mut self, name: impl Into<String>) -> Result<BoolVar, ModelError> {
        self.new_named_var(name, 0..=1).map(BoolVar::positive)
    }

    /// Declares `count` boolean variables.
    ///
    /// # Errors
    ///
    /// As [`Model::new_bool`].
    pub fn new_bools(&mut self, count: usize) -> Result<Vec<BoolVar>, ModelError> {
        let vars = self.new_vars(count, 0..=1)?;
        Ok(vars.into_iter().map(BoolVar::positive).collect())
    }

    /// Declares `count` boolean variables named `name[0]`, `name[1]`, …
    ///
    /// # Errors
    ///
    /// As [`Model::new_bool`].
    pub fn new_named_bools(
        &mut self,
        name: impl Into<String>,
        count: usize,
    ) -> Result<Vec<BoolVar>, ModelError> {
        let vars = self.new_named_vars(name, count, 0..=1)?;
        Ok(vars.into_iter().map(BoolVar::positive).collect())
    }

    /// Treats an existing 0/1 variable as a boolean.
    ///
    /// # Errors
    ///
    /// [`ModelError::ForeignVariable`] for a variable of another model;
    /// [`ModelError::InvalidConstraint`] if its domain holds anything but 0 and 1.
    pub fn as_bool(&self, var: VarId) -> Result<BoolVar, ModelError> {
        self.validate(var, "as_bool")?;
        let domain = self.domain(var);
        if domain.iter().all(|v| v == 0 || v == 1) {
            Ok(BoolVar::positive(var))
        } else {
            Err(ModelError::InvalidConstraint {
                constraint: "as_bool".into(),
                reason: format!(
                    "{} has the domain {domain}, not within {{0, 1}}",
                    self.var_name(var)
                ),
            })
        }
    }

    /// Posts `linear`, a relation over the booleans `literals`. When its terms cancel out (a
    /// boolean with its own negation, or twice with opposite signs), the relation is a
    /// comparison of constants, decided here: nothing is posted if it holds, and a constraint
    /// no value satisfies if it does not.
    pub(crate) fn post_logic(
        &mut self,
        literals: &[BoolVar],
        linear: Linear,
    ) -> Result<(), ModelError> {
        if linear.terms().len() > 0 || linear.is_invalid() {
            return self.post(linear).map(drop);
        }
        let Some(first) = literals.first() else {
            // No boolean at all: refused by `post` as an empty scope.
            return self.post(linear).map(drop);
        };
        for b in literals {
            self.validate(b.var, "Linear")?;
        }
        if linear.comparison().holds(0, linear.constant()) {
            Ok(())
        } else {
            self.post(Member::new(first.var, &[])).map(drop)
        }
    }

    /// `result ⇔ (inputs all true)` (`result` true for no input).
    ///
    /// # Errors
    ///
    /// As [`Model::post`].
    pub fn and(&mut self, inputs: &[BoolVar], result: BoolVar) -> Result<(), ModelError> {
        for &x in inputs {
            // result → x
            self.implies(result, x)?;
        }
        // (all inputs) → result:  Σ x − result ≤ n − 1
        let all = inputs.iter().sum::<LinearExpr>() - result;
        let n = i64::try_from(inputs.len()).unwrap_or(i64::MAX);
        let literals = [inputs, &[result]].concat();
        self.post_logic(&literals, all.le(LinearExpr::new(&[], n - 1)))
    }

    /// `result ⇔ (some input true)` (`result` false for no input).
    ///
    /// # Errors
    ///
    /// As [`Model::post`].
    pub fn or(&mut self, inputs: &[BoolVar], result: BoolVar) -> Result<(), ModelError> {
        for &x in inputs {
            // x → result
            self.implies(x, result)?;
        }
        // result → (some input):  Σ x − result ≥ 0
        let any = inputs.iter().sum::<LinearExpr>() - result;
        let literals = [inputs, &[result]].concat();
        self.post_logic(&literals, any.ge(0))
    }

    /// `result ⇔ (a xor b)`.
    ///
    /// # Errors
    ///
    /// As [`Model::post`].
    pub fn xor(&mut self, a: BoolVar, b: BoolVar, result: BoolVar) -> Result<(), ModelError> {
        // The values of the three variables underneath for which the booleans agree.
        let tuples: Vec<[i32; 3]> = (0..8)
            .map(|bits| [bits >> 2 & 1, bits >> 1 & 1, bits & 1])
            .filter(|&[x, y, z]| (a.is_true_at(x) != b.is_true_at(y)) == result.is_true_at(z))
            .collect();
        let table = Table::new(&[a.var, b.var, result.var], tuples)?;
        self.post(table).map(drop)
    }

    /// `a → b`.
    ///
    /// # Errors
    ///
    /// As [`Model::post`].
    pub fn implies(&mut self, a: BoolVar, b: BoolVar) -> Result<(), ModelError> {
        self.post_logic(&[a, b], (a - b).le(0))
    }

    /// `a ⇔ b`.
    ///
    /// # Errors
    ///
    /// As [`Model::post`].
    pub fn equivalent(&mut self, a: BoolVar, b: BoolVar) -> Result<(), ModelError> {
        self.post_logic(&[a, b], (a - b).eq(0))
    }

    /// The clause `p₁ ∨ … ∨ ¬n₁ ∨ …`: some of `positive` true, or some of `negative` false.
    ///
    /// Either list may hold negated booleans: `clause(&[a, !b], &[])` is
    /// `clause(&[a], &[b])`.
    ///
    /// # Errors
    ///
    /// [`ModelError::EmptyScope`] for a clause with no literal (which could never hold), and
    /// as [`Model::post`].
    pub fn clause(&mut self, positive: &[BoolVar], negative: &[BoolVar]) -> Result<(), ModelError> {
        let literals: Vec<BoolVar> = positive
            .iter()
            .copied()
            .chain(negative.iter().map(|&n| !n))
            .collect();
        // Σ literals ≥ 1
        let sum: LinearExpr = literals.iter().sum();
        self.post_logic(&literals, sum.ge(1))
    }

    /// At least `k` of `bools` are true.
    ///
    /// # Errors
    ///
    /// As [`Model::post`]; an empty list is refused as an empty scope (for this and the other
    /// counts).
    pub fn at_least(&mut self, k: i64, bools: &[BoolVar]) -> Result<(), ModelError> {
        self.count_bools(bools, Comparison::Ge, k)
    }

    /// At most `k` of `bools` are true.
    ///
    /// # Errors
    ///
    /// As [`Model::post`].
    pub fn at_most(&mut self, k: i64, bools: &[BoolVar]) -> Result<(), ModelError> {
        self.count_bools(bools, Comparison::Le, k)
    }

    /// Exactly `k` of `bools` are true.
    ///
    /// # Errors
    ///
    /// As [`Model::post`].
    pub fn exactly(&mut self, k: i64, bools: &[BoolVar]) -> Result<(), ModelError> {
        self.count_bools(bools, Comparison::Eq, k)
    }

    fn count_bools(
        &mut self,
        bools: &[BoolVar],
        comparison: Comparison,
        k: i64,
    ) -> Result<(), ModelError> {
        let sum: LinearExpr = bools.iter().sum();
        let linear = sum.compare(comparison, LinearExpr::new(&[], k));
        self.post_logic(bools, linear)
    }
}
