//! Reification of linear constraints: a boolean that is true exactly when a constraint holds
//! ([`Model::reify`]), or whose truth forces it ([`Model::imply`]).
//!
//! A linear constraint `Σ aᵢ·xᵢ ≤ r` is reified with two linear constraints ("big M", with `M`
//! computed from the variables' declared domains, so it is as tight as those bounds allow):
//! `Σ aᵢ·xᵢ + M·b ≤ r + M` (b true forces the constraint) and `Σ aᵢ·xᵢ + M′·b ≥ r + 1` (b false
//! forces its negation). `≥`, `<` and `>` are `≤` in disguise; `=` is the conjunction of two
//! inequalities and `≠` its negation. At full propagation the pair prunes `b` as soon as the
//! bounds decide the constraint, and the bounds as soon as `b` is known.

use crate::constraints::{Comparison, Linear};
use crate::error::ModelError;
use crate::ids::VarId;
use crate::model::{BoolVar, Model};

/// `Σ terms ≤ rhs`, in 128 bits.
struct LessEq {
    terms: Vec<(i128, VarId)>,
    rhs: i128,
}

impl LessEq {
    /// The least and the greatest value of the sum over the model's declared domains.
    fn range(&self, model: &Model) -> (i128, i128) {
        let (mut low, mut high) = (0i128, 0i128);
        for &(a, var) in &self.terms {
            let d = model.domain(var);
            let (min, max) = (
                i128::from(d.min().unwrap_or(0)),
                i128::from(d.max().unwrap_or(0)),
            );
            low += (a * min).min(a * max);
            high += (a * min).max(a * max);
        }
        (low, high)
    }

    fn negated(&self) -> LessEq {
        LessEq {
            terms: self.terms.iter().map(|&(a, v)| (-a, v)).collect(),
            rhs: -self.rhs,
        }
    }
}

/// An `i64`, or an error naming the reification.
fn narrow(value: i128) -> Result<i64, ModelError> {
    i64::try_from(value).map_err(|_| ModelError::InvalidConstraint {
        constraint: "reification".into(),
        reason: format!("a bound of the reified sum, {value}, does not fit an i64"),
    })
}

fn terms_with(terms: &[(i128, VarId)], b: (i128, VarId)) -> Result<Vec<(i64, VarId)>, ModelError> {
    terms
        .iter()
        .chain([&b])
        .map(|&(a, v)| narrow(a).map(|a| (a, v)))
        .collect()
}

/// The constraint's sum as a function of its right-hand side, and its constant.
fn sides(constraint: &Linear) -> (impl Fn(i128) -> LessEq + '_, i128) {
    let terms: Vec<(i128, VarId)> = constraint
        .terms()
        .map(|(a, v)| (i128::from(a), v))
        .collect();
    let sum = move |rhs: i128| LessEq {
        terms: terms.clone(),
        rhs,
    };
    (sum, i128::from(constraint.constant()))
}

/// `≤`, `<`, `≥` and `>` as one `Σ ≤ r`; `None` for `=` and `≠`.
fn inequality(constraint: &Linear) -> Option<LessEq> {
    let (sum, c) = sides(constraint);
    match constraint.comparison() {
        Comparison::Le => Some(sum(c)),
        Comparison::Lt => Some(sum(c - 1)),
        Comparison::Ge => Some(sum(c).negated()),
        Comparison::Gt => Some(sum(c + 1).negated()),
        Comparison::Eq | Comparison::Ne => None,
    }
}

impl Model {
    /// A new boolean `b` with `b ⇔ constraint`.
    ///
    /// # Errors
    ///
    /// As [`Model::reify_into`].
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::{LinearExpr, Model};
    ///
    /// // b ⇔ x + y ≤ 3, over x, y in 0..=3: b is true for 10 of the 16 pairs.
    /// let mut model = Model::new();
    /// let x = model.new_var(0..=3)?;
    /// let y = model.new_var(0..=3)?;
    /// let b = model.reify((LinearExpr::from(x) + y).le(3))?;
    /// model.post(LinearExpr::from(b).eq(1))?;
    /// assert_eq!(model.solver().count().solutions, 10);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reify(&mut self, constraint: Linear) -> Result<BoolVar, ModelError> {
        let b = self.new_bool()?;
        self.reify_into(constraint, b)?;
        Ok(b)
    }

    /// `b ⇔ constraint`, for an existing boolean `b`.
    ///
    /// # Errors
    ///
    /// [`ModelError::InvalidConstraint`] if a bound of the sum does not fit an `i64`, and the
    /// errors of posting the constraints it is made of (a variable of another model, …).
    pub fn reify_into(&mut self, constraint: Linear, b: BoolVar) -> Result<(), ModelError> {
        if let Some(single) = inequality(&constraint) {
            return self.reify_le(&single, b);
        }
        // `=` or `≠`: e ⇔ (Σ ≤ c ∧ Σ ≥ c); b is e, or its negation.
        let (sum, c) = sides(&constraint);
        let (low, high) = (self.new_bool()?, self.new_bool()?);
        self.reify_le(&sum(c), low)?;
        self.reify_le(&sum(c).negated(), high)?;
        let e = if constraint.comparison() == Comparison::Eq {
            b
        } else {
            let e = self.new_bool()?;
            self.post(Linear::new(
                &[(1, e.var()), (1, b.var())],
                Comparison::Eq,
                1,
            ))?;
            e
        };
        self.and(&[low, high], e)
    }

    /// `b → constraint`: when `b` is true the constraint holds; when false, nothing is said.
    ///
    /// # Errors
    ///
    /// As [`Model::reify_into`].
    pub fn imply(&mut self, b: BoolVar, constraint: Linear) -> Result<(), ModelError> {
        if let Some(single) = inequality(&constraint) {
            return self.imply_le(&single, b);
        }
        let (sum, c) = sides(&constraint);
        if constraint.comparison() == Comparison::Eq {
            self.imply_le(&sum(c), b)?;
            return self.imply_le(&sum(c).negated(), b);
        }
        // b → (Σ ≤ c − 1 ∨ Σ ≥ c + 1): one of two fresh booleans, each implying a side.
        let (below, above) = (self.new_bool()?, self.new_bool()?);
        self.imply_le(&sum(c - 1), below)?;
        self.imply_le(&sum(c + 1).negated(), above)?;
        self.clause(&[below, above], &[b])
    }

    /// `b → Σ ≤ r`: `Σ + M·b ≤ r + M`, with `M` the most the sum can exceed `r` by.
    fn imply_le(&mut self, sum: &LessEq, b: BoolVar) -> Result<(), ModelError> {
        let (_, high) = sum.range(self);
        let m = (high - sum.rhs).max(0);
        let terms = terms_with(&sum.terms, (m, b.var()))?;
        self.post(Linear::new(&terms, Comparison::Le, narrow(sum.rhs + m)?))
            .map(drop)
    }

    /// `b ⇔ Σ ≤ r`: `b → Σ ≤ r`, and `¬b → Σ ≥ r + 1` as `Σ + M′·b ≥ r + 1`.
    fn reify_le(&mut self, sum: &LessEq, b: BoolVar) -> Result<(), ModelError> {
        self.imply_le(sum, b)?;
        let (low, _) = sum.range(self);
        let m = (sum.rhs + 1 - low).max(0);
        let terms = terms_with(&sum.terms, (m, b.var()))?;
        self.post(Linear::new(&terms, Comparison::Ge, narrow(sum.rhs + 1)?))
            .map(drop)
    }
}
