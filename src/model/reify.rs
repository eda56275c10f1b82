//! Reification of linear constraints: a boolean that is true exactly when a constraint holds
//! ([`Model::reify`]), or whose truth forces it ([`Model::imply`]).
//!
//! A linear constraint `Σ aᵢ·xᵢ ≤ r` is reified with two linear constraints ("big M", with `M`
//! computed from the variables' declared domains, so it is as tight as those bounds allow):
//! `Σ aᵢ·xᵢ + M·b ≤ r + M` (b true forces the constraint) and `Σ aᵢ·xᵢ + M′·b ≥ r + 1` (b false
//! forces its negation). `≥`, `<` and `>` are `≤` in disguise; `=` is the conjunction of two
//! inequalities and `≠` its negation. At full propagation the pair prunes `b` as soon as the
//! bounds decide the constraint, and the bounds as soon as `b` is known.
//!
//! Bounds are all a false `b` can move, which for `x = c` over one variable is too little: `x ≠
//! c` is a hole in the middle of a domain. So `a·x = c` and `a·x ≠ c` are posted as a [`Member`]
//! instead (`b ⇔ x ∈ {c / a}`, the constraint [`Model::reify_in`] posts), which is domain
//! consistent at `Forward` and `Full`: a false `b` removes `c / a` from `x`.
//!
//! The boolean may be negated (`!b`): `m·¬b` is `m − m·b` in the sums above.

use crate::constraints::{Comparison, Constraint, Linear, Member, ReifiedEquality};
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

/// The terms of `Σ + m·b`, and what moves to the right-hand side: for a negated boolean,
/// `m·(1 − v)` is `−m·v` plus the constant `m`.
fn terms_with(
    terms: &[(i128, VarId)],
    m: i128,
    b: BoolVar,
) -> Result<(Vec<(i64, VarId)>, i128), ModelError> {
    let (coefficient, constant) = if b.is_negated() { (-m, m) } else { (m, 0) };
    let terms = terms
        .iter()
        .chain([&(coefficient, b.var())])
        .map(|&(a, v)| narrow(a).map(|a| (a, v)))
        .collect::<Result<_, _>>()?;
    Ok((terms, constant))
}

/// `a·x = c` or `a·x ≠ c` over one variable, as `x ∈ values` (`inside`) or `x ∉ values`: the one
/// value `c / a`, or none when `a` does not divide `c`.
fn single_variable(constraint: &Linear) -> Option<(VarId, Vec<i32>, bool)> {
    let inside = match constraint.comparison() {
        Comparison::Eq => true,
        Comparison::Ne => false,
        _ => return None,
    };
    let mut terms = constraint.terms();
    let ((a, x), None) = (terms.next()?, terms.next()) else {
        return None;
    };
    let c = i128::from(constraint.constant());
    let a = i128::from(a);
    let values = if c % a == 0 {
        i32::try_from(c / a).map(|v| vec![v]).unwrap_or_default()
    } else {
        Vec::new()
    };
    Some((x, values, inside))
}

/// `x − y = c` or `x − y ≠ c` (two variables, coefficients 1 and −1): `(x, y, c)`.
fn difference(constraint: &Linear) -> Option<(VarId, VarId, i32)> {
    if !matches!(constraint.comparison(), Comparison::Eq | Comparison::Ne) {
        return None;
    }
    let mut terms = constraint.terms();
    let ((a, first), (b, second), None) = (terms.next()?, terms.next()?, terms.next()) else {
        return None;
    };
    let c = i32::try_from(constraint.constant()).ok()?;
    match (a, b) {
        (1, -1) => Some((first, second, c)),
        (-1, 1) => Some((second, first, c)),
        _ => None,
    }
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
        self.check_linear(&constraint)?;
        let b = self.new_auxiliary_bool()?;
        self.reify_into(constraint, b)?;
        Ok(b)
    }

    /// `b ⇔ constraint`, for an existing boolean `b` (negated or not).
    ///
    /// A constraint over one variable, `a·x = c` or `a·x ≠ c`, is posted as a [`Member`]
    /// ([`Member::reified`]), which is domain consistent: once `b` is false, `x` loses `c / a`.
    /// One over two variables, `x − y = c` or `x − y ≠ c`, is a [`ReifiedEquality`], also domain
    /// consistent (up to 4096 values a domain). Other constraints are posted as linear constraints over the sum and `b`, with "big M"
    /// coefficients computed from the declared domains (`Σ + M·b ≤ r + M` for `b → Σ ≤ r`),
    /// which move bounds.
    ///
    /// # Errors
    ///
    /// [`ModelError::ForeignVariable`] for a variable of another model; the constraint's own
    /// argument errors ([`ModelError::ArithmeticOverflow`]); [`ModelError::InvalidConstraint`]
    /// if a bound of the sum does not fit an `i64`; and the errors of posting the constraints it
    /// is made of.
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::{LinearExpr, Model, PropagationLevel};
    ///
    /// // b ⇔ x = 3: once b is false, 3 is gone from x (not only its bounds).
    /// let mut model = Model::new();
    /// let x = model.new_var(1..=5)?;
    /// let b = model.new_bool()?;
    /// model.reify_into(LinearExpr::from(x).eq(3), b)?;
    /// model.fix(b.var(), 0)?;
    /// let mut solver = model.solver().with_propagation(PropagationLevel::Forward);
    /// assert_eq!(solver.count().solutions, 4);
    /// assert_eq!(solver.stats().failures, 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reify_into(&mut self, constraint: Linear, b: BoolVar) -> Result<(), ModelError> {
        self.check_reified(&constraint, b)?;
        if let Some(own) = self.own_boolean(&constraint, b)? {
            // `b ⇔ C(b)`: C reified into a fresh boolean equal to `b`, so that no rule below
            // sees its boolean among the terms it rewrites.
            self.reify_into(constraint, own)?;
            return self.equivalent(own, b);
        }
        if let Some((x, values, inside)) = single_variable(&constraint) {
            let member = Member::with_polarity(x, &values, b.polarity(), inside, false);
            return self.post(member).map(drop);
        }
        if let Some((x, y, offset)) = difference(&constraint) {
            let (var, truth) = b.polarity();
            let truth = if constraint.comparison() == Comparison::Eq {
                truth
            } else {
                1 - truth
            };
            let equality = ReifiedEquality::with_truth(x, y, offset, var, truth);
            return self.post(equality).map(drop);
        }
        if let Some(single) = inequality(&constraint) {
            return self.reify_le(&single, b);
        }
        // `=` or `≠`: e ⇔ (Σ ≤ c ∧ Σ ≥ c); b is e, or its negation.
        let (sum, c) = sides(&constraint);
        let (low, high) = (self.new_auxiliary_bool()?, self.new_auxiliary_bool()?);
        self.reify_le(&sum(c), low)?;
        self.reify_le(&sum(c).negated(), high)?;
        let e = if constraint.comparison() == Comparison::Eq {
            b
        } else {
            !b
        };
        self.and(&[low, high], e)
    }

    /// `b → constraint`: when `b` is true the constraint holds; when false, nothing is said.
    ///
    /// A constraint over one variable, `a·x = c` or `a·x ≠ c`, is posted as a [`Member`]
    /// ([`Member::implied`]): domain consistent, as in [`Model::reify_into`].
    ///
    /// # Errors
    ///
    /// As [`Model::reify_into`].
    pub fn imply(&mut self, b: BoolVar, constraint: Linear) -> Result<(), ModelError> {
        self.check_reified(&constraint, b)?;
        if let Some(own) = self.own_boolean(&constraint, b)? {
            self.imply(own, constraint)?;
            return self.equivalent(own, b);
        }
        if let Some((x, values, inside)) = single_variable(&constraint) {
            let member = Member::with_polarity(x, &values, b.polarity(), inside, true);
            return self.post(member).map(drop);
        }
        if let Some(single) = inequality(&constraint) {
            return self.imply_le(&single, b);
        }
        let (sum, c) = sides(&constraint);
        if constraint.comparison() == Comparison::Eq {
            self.imply_le(&sum(c), b)?;
            return self.imply_le(&sum(c).negated(), b);
        }
        // b → (Σ ≤ c − 1 ∨ Σ ≥ c + 1): one of two fresh booleans, each implying a side.
        let (below, above) = (self.new_auxiliary_bool()?, self.new_auxiliary_bool()?);
        self.imply_le(&sum(c - 1), below)?;
        self.imply_le(&sum(c + 1).negated(), above)?;
        self.clause(&[below, above], &[b])
    }

    /// The errors of posting `constraint` and `b` as they are: variables of another model, and
    /// the constraint's own argument checks (overflow), before anything is built from them.
    /// A fresh boolean to stand for `b` if `b`'s variable is a term of `constraint` (as in
    /// FlatZinc's `bool_le_reif(true, x, x)`), `None` otherwise.
    fn own_boolean(
        &mut self,
        constraint: &Linear,
        b: BoolVar,
    ) -> Result<Option<BoolVar>, ModelError> {
        if constraint.terms().any(|(_, var)| var == b.var()) {
            self.new_auxiliary_bool().map(Some)
        } else {
            Ok(None)
        }
    }

    fn check_reified(&self, constraint: &Linear, b: BoolVar) -> Result<(), ModelError> {
        self.validate(b.var(), "reification")?;
        self.check_linear(constraint)
    }

    /// The errors of posting `constraint` alone, without posting it.
    fn check_linear(&self, constraint: &Linear) -> Result<(), ModelError> {
        for (_, var) in constraint.terms() {
            self.validate(var, "reification")?;
        }
        constraint.clone().prepare(&self.view())
    }

    /// `b → Σ ≤ r`: `Σ + M·b ≤ r + M`, with `M` the most the sum can exceed `r` by.
    fn imply_le(&mut self, sum: &LessEq, b: BoolVar) -> Result<(), ModelError> {
        let (_, high) = sum.range(self);
        let m = (high - sum.rhs).max(0);
        let (terms, shift) = terms_with(&sum.terms, m, b)?;
        let rhs = narrow(sum.rhs + m - shift)?;
        self.post(Linear::new(&terms, Comparison::Le, rhs))
            .map(drop)
    }

    /// `b ⇔ Σ ≤ r`: `b → Σ ≤ r`, and `¬b → Σ ≥ r + 1` as `Σ + M′·b ≥ r + 1`.
    fn reify_le(&mut self, sum: &LessEq, b: BoolVar) -> Result<(), ModelError> {
        self.imply_le(sum, b)?;
        let (low, _) = sum.range(self);
        let m = (sum.rhs + 1 - low).max(0);
        let (terms, shift) = terms_with(&sum.terms, m, b)?;
        let rhs = narrow(sum.rhs + 1 - shift)?;
        self.post(Linear::new(&terms, Comparison::Ge, rhs))
            .map(drop)
    }
}
