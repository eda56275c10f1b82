//! Boolean variables and logic: [`BoolVar`], and the connectives and cardinality constraints
//! a model posts over them ([`Model::and`], [`Model::clause`], [`Model::at_least`], …).
//!
//! A boolean is an integer variable with domain `{0, 1}` (false, true), so it takes part in
//! sums ([`LinearExpr`]) as it is, and its negation is the view `1 − b` ([`BoolVar::not`]).
//! Each connective is posted as the linear (or table) constraints that define it, which at
//! [`PropagationLevel::Full`](crate::PropagationLevel::Full) prune exactly what the
//! connective allows (bounds on 0/1 variables are their domains).

use std::ops::Not;

use crate::constraints::{Comparison, Linear, Table};
use crate::error::ModelError;
use crate::ids::{ConstraintId, VarId};
use crate::kernel::IntView;
use crate::model::{LinearExpr, Model};

/// A 0/1 variable of a [`Model`], false or true.
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
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoolVar(VarId);

impl BoolVar {
    /// The integer variable underneath (0 false, 1 true).
    pub fn var(self) -> VarId {
        self.0
    }
}

impl Not for BoolVar {
    type Output = IntView;

    /// The negation, as the view `1 − b`.
    fn not(self) -> IntView {
        self.0.minus().offset(1)
    }
}

impl From<BoolVar> for VarId {
    fn from(b: BoolVar) -> VarId {
        b.0
    }
}

impl From<BoolVar> for LinearExpr {
    fn from(b: BoolVar) -> LinearExpr {
        LinearExpr::from(b.0)
    }
}

/// `Σ bools` as (1, b) terms.
fn ones(bools: &[BoolVar]) -> Vec<(i64, VarId)> {
    bools.iter().map(|b| (1, b.0)).collect()
}

impl Model {
    /// Declares a boolean variable (domain `{0, 1}`).
    ///
    /// # Errors
    ///
    /// None in practice; the signature matches [`Model::new_var`].
    pub fn new_bool(&mut self) -> Result<BoolVar, ModelError> {
        self.new_var(0..=1).map(BoolVar)
    }

    /// Declares a named boolean variable.
    ///
    /// # Errors
    ///
    /// As [`Model::new_bool`].
    pub fn new_named_bool(&mut self, name: impl Into<String>) -> Result<BoolVar, ModelError> {
        self.new_named_var(name, 0..=1).map(BoolVar)
    }

    /// Treats an existing 0/1 variable as a boolean.
    ///
    /// # Errors
    ///
    /// [`ModelError::InvalidConstraint`] if its domain holds anything but 0 and 1.
    pub fn as_bool(&self, var: VarId) -> Result<BoolVar, ModelError> {
        let domain = self.domain(var);
        if domain.iter().all(|v| v == 0 || v == 1) {
            Ok(BoolVar(var))
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

    fn post_sum(
        &mut self,
        terms: &[(i64, VarId)],
        comparison: Comparison,
        rhs: i64,
    ) -> Result<ConstraintId, ModelError> {
        self.post(Linear::new(terms, comparison, rhs))
    }

    /// `result ⇔ (inputs all true)` (`result` true for no input).
    ///
    /// # Errors
    ///
    /// As [`Model::post`].
    pub fn and(&mut self, inputs: &[BoolVar], result: BoolVar) -> Result<(), ModelError> {
        for &x in inputs {
            // result ≤ x
            self.post_sum(&[(1, result.0), (-1, x.0)], Comparison::Le, 0)?;
        }
        // result ≥ Σ x − (n − 1)
        let mut terms = ones(inputs);
        terms.push((-1, result.0));
        self.post_sum(&terms, Comparison::Le, inputs.len() as i64 - 1)?;
        Ok(())
    }

    /// `result ⇔ (some input true)` (`result` false for no input).
    ///
    /// # Errors
    ///
    /// As [`Model::post`].
    pub fn or(&mut self, inputs: &[BoolVar], result: BoolVar) -> Result<(), ModelError> {
        for &x in inputs {
            // x ≤ result
            self.post_sum(&[(1, x.0), (-1, result.0)], Comparison::Le, 0)?;
        }
        // result ≤ Σ x
        let mut terms = ones(inputs);
        terms.push((-1, result.0));
        self.post_sum(&terms, Comparison::Ge, 0)?;
        Ok(())
    }

    /// `result ⇔ (a xor b)`.
    ///
    /// # Errors
    ///
    /// As [`Model::post`].
    pub fn xor(&mut self, a: BoolVar, b: BoolVar, result: BoolVar) -> Result<(), ModelError> {
        let table = Table::new(
            &[a.0, b.0, result.0],
            [[0, 0, 0], [0, 1, 1], [1, 0, 1], [1, 1, 0]],
        )?;
        self.post(table).map(drop)
    }

    /// `a → b`.
    ///
    /// # Errors
    ///
    /// As [`Model::post`].
    pub fn implies(&mut self, a: BoolVar, b: BoolVar) -> Result<(), ModelError> {
        self.post_sum(&[(1, a.0), (-1, b.0)], Comparison::Le, 0)
            .map(drop)
    }

    /// `a ⇔ b`.
    ///
    /// # Errors
    ///
    /// As [`Model::post`].
    pub fn equivalent(&mut self, a: BoolVar, b: BoolVar) -> Result<(), ModelError> {
        self.post_sum(&[(1, a.0), (-1, b.0)], Comparison::Eq, 0)
            .map(drop)
    }

    /// The clause `p₁ ∨ … ∨ ¬n₁ ∨ …`: some of `positive` true, or some of `negative` false.
    ///
    /// # Errors
    ///
    /// [`ModelError::EmptyScope`] for a clause with no literal (which could never hold), and
    /// as [`Model::post`].
    pub fn clause(&mut self, positive: &[BoolVar], negative: &[BoolVar]) -> Result<(), ModelError> {
        // Σ p + Σ (1 − n) ≥ 1  ⇔  Σ p − Σ n ≥ 1 − |negative|
        let mut terms = ones(positive);
        terms.extend(negative.iter().map(|n| (-1, n.0)));
        self.post_sum(&terms, Comparison::Ge, 1 - negative.len() as i64)
            .map(drop)
    }

    /// At least `k` of `bools` are true.
    ///
    /// # Errors
    ///
    /// As [`Model::post`]; an empty list is refused as an empty scope (for this and the other
    /// counts).
    pub fn at_least(&mut self, k: i64, bools: &[BoolVar]) -> Result<(), ModelError> {
        self.post_sum(&ones(bools), Comparison::Ge, k).map(drop)
    }

    /// At most `k` of `bools` are true.
    ///
    /// # Errors
    ///
    /// As [`Model::post`].
    pub fn at_most(&mut self, k: i64, bools: &[BoolVar]) -> Result<(), ModelError> {
        self.post_sum(&ones(bools), Comparison::Le, k).map(drop)
    }

    /// Exactly `k` of `bools` are true.
    ///
    /// # Errors
    ///
    /// As [`Model::post`].
    pub fn exactly(&mut self, k: i64, bools: &[BoolVar]) -> Result<(), ModelError> {
        self.post_sum(&ones(bools), Comparison::Eq, k).map(drop)
    }
}
