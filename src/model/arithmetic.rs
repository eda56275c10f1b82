//! Modelling shortcuts that create a variable for a result: `|x|`, `x · y`, `x div y`,
//! `x mod y`, `x ^ y`, `x₁ · … · xₙ`, `min`, `max`, a linear expression; narrowing a domain
//! after creation; reifying any constraint.

use smallvec::SmallVec;

use crate::constraints::{
    Arithmetic, Constraint, Extremum, Member, Operation, Product, Reified, product_range,
};
use crate::domain::{Domain, IntoDomain};
use crate::error::ModelError;
use crate::ids::VarId;
use crate::model::{BoolVar, LinearExpr, Model};

/// The most pairs of values whose results are listed exactly in a result's domain; beyond it,
/// the domain is a range that holds every result.
const EXACT_PAIRS: usize = 4096;

impl Model {
    /// Narrows the domain of `var` to the values it shares with `domain` (a range, a list, a
    /// [`Domain`]): a clue learnt after the variables were declared, or a domain cut by
    /// reasoning outside the model.
    ///
    /// # Errors
    ///
    /// [`ModelError::ForeignVariable`] for a variable of another model,
    /// [`ModelError::InvalidDomain`] if `domain` has no values, [`ModelError::DomainWipeout`]
    /// if no value would be left (naming the variable and one of its values).
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::Model;
    ///
    /// let mut model = Model::new();
    /// let x = model.new_named_var("x", 1..=9)?;
    /// model.restrict(x, [2, 4, 6, 8, 10])?;
    /// assert_eq!(model.domain(x).iter().collect::<Vec<_>>(), [2, 4, 6, 8]);
    /// assert!(model.restrict(x, 20..=30).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn restrict(&mut self, var: VarId, domain: impl IntoDomain) -> Result<(), ModelError> {
        if !self.owns(var) {
            return Err(ModelError::ForeignVariable {
                context: "restrict".into(),
                variable: format!("{var:?}"),
            });
        }
        let keep = domain
            .into_domain()
            .map_err(|source| ModelError::InvalidDomain {
                variable: self.var_name(var).into_owned(),
                source,
            })?;
        let mut narrowed = self.domain(var).clone();
        narrowed.retain_domain(&keep, &mut |_, _| {});
        if narrowed.is_empty() {
            return Err(ModelError::DomainWipeout {
                variable: self.var_name(var).into_owned(),
                value: self.domain(var).min().unwrap_or(0),
            });
        }
        self.set_domain(var, narrowed);
        Ok(())
    }

    /// A new variable equal to `expr`, with the range of values `expr` can take over the
    /// current domains: `let d = model.var_for(x - y)?; let gap = model.abs(d)?;` is
    /// `|x − y|` as a variable.
    ///
    /// # Errors
    ///
    /// [`ModelError::ArithmeticOverflow`] if the expression overflowed or its range leaves
    /// `i32`; the errors of [`Model::post`].
    pub fn var_for(&mut self, expr: impl Into<LinearExpr>) -> Result<VarId, ModelError> {
        let expr = expr.into();
        let overflow = |detail: String| ModelError::ArithmeticOverflow {
            constraint: "var_for".into(),
            detail,
        };
        if expr.has_overflowed() {
            return Err(overflow(
                "the expression overflowed while it was built".into(),
            ));
        }
        let (mut low, mut high) = (i128::from(expr.constant()), i128::from(expr.constant()));
        for &(a, var) in expr.terms() {
            let d = self.domain(var);
            let (min, max) = (
                i128::from(d.min().unwrap_or(0)),
                i128::from(d.max().unwrap_or(0)),
            );
            low += (i128::from(a) * min).min(i128::from(a) * max);
            high += (i128::from(a) * min).max(i128::from(a) * max);
        }
        let (low, high) = match (i32::try_from(low), i32::try_from(high)) {
            (Ok(low), Ok(high)) => (low, high),
            _ => {
                return Err(overflow(format!(
                    "its values range over {low}..={high}, beyond i32"
                )));
            }
        };
        let result = self.new_auxiliary(low..=high)?;
        self.post(expr.eq(result))?;
        Ok(result)
    }

    /// A new variable `|x|`.
    ///
    /// # Errors
    ///
    /// The errors of [`Model::post`] (a variable of another model).
    pub fn abs(&mut self, x: VarId) -> Result<VarId, ModelError> {
        self.operation(Operation::Abs, x, x)
    }

    /// A new variable `x · y`.
    ///
    /// # Errors
    ///
    /// As [`Model::abs`].
    pub fn times(&mut self, x: VarId, y: VarId) -> Result<VarId, ModelError> {
        self.operation(Operation::Times, x, y)
    }

    /// A new variable `x div y` (rounded towards zero; `y = 0` has no solution).
    ///
    /// # Errors
    ///
    /// As [`Model::abs`].
    pub fn div(&mut self, x: VarId, y: VarId) -> Result<VarId, ModelError> {
        self.operation(Operation::Div, x, y)
    }

    /// A new variable `x mod y` (with the sign of `x`; `y = 0` has no solution).
    ///
    /// # Errors
    ///
    /// As [`Model::abs`].
    pub fn modulo(&mut self, x: VarId, y: VarId) -> Result<VarId, ModelError> {
        self.operation(Operation::Mod, x, y)
    }

    /// A new variable `x ^ y` (`y < 0` has no solution).
    ///
    /// # Errors
    ///
    /// As [`Model::abs`].
    pub fn pow(&mut self, x: VarId, y: VarId) -> Result<VarId, ModelError> {
        self.operation(Operation::Pow, x, y)
    }

    /// A new variable `z = op(x, y)` with the values `op` can produce from the current domains
    /// (listed exactly for up to 4096 pairs of values, as a covering range beyond), and the
    /// [`Arithmetic`] constraint that links them.
    ///
    /// # Errors
    ///
    /// [`ModelError::ForeignVariable`]; [`ModelError::InvalidDomain`] when no pair of values
    /// gives a result (`x div y` with `y` fixed to 0).
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::{Model, Operation};
    ///
    /// // |x − y| = 2 through a variable for x − y: (1, 3), (2, 4) and the same reversed.
    /// let mut model = Model::new();
    /// let x = model.new_var(1..=4)?;
    /// let y = model.new_var(1..=4)?;
    /// let difference = model.var_for(x - y)?;
    /// let gap = model.operation(Operation::Abs, difference, difference)?;
    /// model.fix(gap, 2)?;
    /// assert_eq!(model.solver().count().solutions, 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn operation(
        &mut self,
        operation: Operation,
        x: VarId,
        y: VarId,
    ) -> Result<VarId, ModelError> {
        for var in [x, y] {
            if !self.owns(var) {
                return Err(ModelError::ForeignVariable {
                    context: operation.to_string(),
                    variable: format!("{var:?}"),
                });
            }
        }
        let domain =
            result_domain(operation, self.domain(x), self.domain(y)).map_err(|source| {
                ModelError::InvalidDomain {
                    variable: format!("{operation}({}, {})", self.var_name(x), self.var_name(y)),
                    source,
                }
            })?;
        let z = self.new_auxiliary(domain)?;
        self.post(Arithmetic::new(operation, x, y, z))?;
        Ok(z)
    }

    /// A new variable `x₁ · x₂ · … · xₙ` for the variables `factors` (1 for none), and the
    /// [`Product`] constraint that links them: a KenKen `×` cage in one call, where
    /// [`Model::times`] would need a chain of intermediate products.
    ///
    /// Its domain holds the products the factors' domains can give, listed exactly while that
    /// takes fewer than 65,536 steps, as a covering range beyond (within `i32`); a variable
    /// given twice counts as two factors there, so the list may hold more (`x · x` for `x` in
    /// `{1, 2}` gets `{1, 2, 4}`), which the constraint then rules out.
    ///
    /// # Errors
    ///
    /// [`ModelError::ForeignVariable`]; [`ModelError::InvalidDomain`] when no product of values
    /// fits an `i32`.
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::Model;
    ///
    /// // A 3-cell "60×" cage of a 6×6 KenKen, its cells all different.
    /// let mut model = Model::new();
    /// let cells = model.new_vars(3, 1..=6)?;
    /// let product = model.product(&cells)?;
    /// model.fix(product, 60)?;
    /// model.post(cspkit::AllDifferent::new(&cells))?;
    /// assert_eq!(model.solver().count().solutions, 12); // {2, 5, 6} and {3, 4, 5}
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn product(&mut self, factors: &[VarId]) -> Result<VarId, ModelError> {
        if let Some(&var) = factors.iter().find(|&&v| !self.owns(v)) {
            return Err(ModelError::ForeignVariable {
                context: "product".into(),
                variable: format!("{var:?}"),
            });
        }
        let domains: Vec<&Domain> = factors.iter().map(|&x| self.domain(x)).collect();
        let domain = product_domain(&domains).map_err(|source| {
            let names: Vec<String> = factors
                .iter()
                .map(|&x| self.var_name(x).into_owned())
                .collect();
            ModelError::InvalidDomain {
                variable: format!("product({})", names.join(", ")),
                source,
            }
        })?;
        let z = self.new_auxiliary(domain)?;
        self.post(Product::new(factors, z))?;
        Ok(z)
    }

    /// A new variable `min(vars)`.
    ///
    /// # Errors
    ///
    /// [`ModelError::EmptyScope`] for no variables; as [`Model::post`].
    pub fn min(&mut self, vars: &[VarId]) -> Result<VarId, ModelError> {
        self.extremum(vars, false)
    }

    /// A new variable `max(vars)`.
    ///
    /// # Errors
    ///
    /// As [`Model::min`].
    pub fn max(&mut self, vars: &[VarId]) -> Result<VarId, ModelError> {
        self.extremum(vars, true)
    }

    fn extremum(&mut self, vars: &[VarId], maximum: bool) -> Result<VarId, ModelError> {
        let name = if maximum { "max" } else { "min" };
        if vars.is_empty() {
            return Err(ModelError::EmptyScope {
                constraint: name.into(),
            });
        }
        if let Some(&var) = vars.iter().find(|&&v| !self.owns(v)) {
            return Err(ModelError::ForeignVariable {
                context: name.into(),
                variable: format!("{var:?}"),
            });
        }
        let low = vars.iter().filter_map(|&v| self.domain(v).min()).min();
        let high = vars.iter().filter_map(|&v| self.domain(v).max()).max();
        let result = self.new_auxiliary(low.unwrap_or(0)..=high.unwrap_or(0))?;
        let constraint = if maximum {
            Extremum::maximum(vars, result)
        } else {
            Extremum::minimum(vars, result)
        };
        self.post(constraint)?;
        Ok(result)
    }

    /// A new boolean, true exactly when `x` takes one of `values` ([`Member::reified`]).
    ///
    /// # Errors
    ///
    /// As [`Model::post`].
    pub fn reify_in(&mut self, x: VarId, values: &[i32]) -> Result<BoolVar, ModelError> {
        let b = self.new_auxiliary_bool()?;
        self.post(Member::reified(x, values, b.var()))?;
        Ok(b)
    }

    /// A new boolean, true exactly when `constraint` holds ([`Reified::new`]): any constraint,
    /// a table, an all-different, one of your own.
    ///
    /// # Errors
    ///
    /// As [`Model::post`].
    pub fn reify_constraint(
        &mut self,
        constraint: impl Constraint + 'static,
    ) -> Result<BoolVar, ModelError> {
        let b = self.new_auxiliary_bool()?;
        self.post(Reified::new(constraint, b.var()))?;
        Ok(b)
    }

    /// `b ⇒ constraint` for any constraint ([`Reified::implied`]), for a boolean `b` negated
    /// or not: `imply_constraint(!b, c)` says that `c` holds when `b` is false.
    ///
    /// # Errors
    ///
    /// As [`Model::post`].
    pub fn imply_constraint(
        &mut self,
        b: BoolVar,
        constraint: impl Constraint + 'static,
    ) -> Result<(), ModelError> {
        self.post(Reified::with_polarity(constraint, b.polarity(), true))?;
        Ok(())
    }
}

/// The most steps (a partial product times a value) [`Model::product`] spends listing the
/// products exactly.
const EXACT_PRODUCT_STEPS: usize = 1 << 16;

/// The values `x₁ · … · xₙ` can take: exact while listing them is cheap, a covering range
/// otherwise.
fn product_domain(domains: &[&Domain]) -> Result<Domain, crate::error::DomainError> {
    // Products with no factor 0, without repeats; a magnitude beyond 2³¹ can only grow with
    // more nonzero factors, so it is dropped. 0 is possible when some factor can be 0.
    let zero = domains.iter().any(|d| d.contains(0));
    let limit = i64::from(i32::MAX) + 1;
    let mut products: Vec<i64> = vec![1];
    let mut steps = 0usize;
    let mut exact = true;
    for d in domains {
        steps = steps.saturating_add(products.len().saturating_mul(d.size()));
        if steps > EXACT_PRODUCT_STEPS {
            exact = false;
            break;
        }
        let mut next: Vec<i64> = products
            .iter()
            .flat_map(|&p| d.iter().filter(|&v| v != 0).map(move |v| p * i64::from(v)))
            .filter(|p| p.abs() <= limit)
            .collect();
        next.sort_unstable();
        next.dedup();
        products = next;
    }
    if exact {
        let mut values: Vec<i32> = products
            .into_iter()
            .filter_map(|p| i32::try_from(p).ok())
            .collect();
        if zero {
            values.push(0);
        }
        return Domain::from_values(values);
    }
    let (low, high) = domains.iter().fold((1i128, 1i128), |range, d| {
        let hull = (
            i128::from(d.min().unwrap_or(0)),
            i128::from(d.max().unwrap_or(0)),
        );
        product_range(range, hull)
    });
    let clamp = |v: i128| v.clamp(i128::from(i32::MIN), i128::from(i32::MAX)) as i32;
    Domain::range(clamp(low), clamp(high))
}

/// The values `op(x, y)` can take: exact for few pairs, a covering range otherwise.
fn result_domain(
    operation: Operation,
    x: &Domain,
    y: &Domain,
) -> Result<Domain, crate::error::DomainError> {
    let unary = operation == Operation::Abs;
    let pairs = if unary {
        Some(x.size())
    } else {
        x.size().checked_mul(y.size())
    };
    if pairs.is_some_and(|n| n <= EXACT_PAIRS) {
        let ys: SmallVec<[i32; 64]> = if unary {
            SmallVec::from_slice(&[0])
        } else {
            y.iter().collect()
        };
        let values: Vec<i32> = x
            .iter()
            .flat_map(|a| ys.iter().filter_map(move |&b| operation.apply(a, b)))
            .collect();
        return Domain::from_values(values);
    }
    let bound = |d: &Domain| -> (i64, i64) {
        (
            i64::from(d.min().unwrap_or(0)),
            i64::from(d.max().unwrap_or(0)),
        )
    };
    let ((a, b), (c, d)) = (bound(x), bound(y));
    let largest_x = a.abs().max(b.abs());
    let (low, high) = match operation {
        Operation::Abs => (0, largest_x),
        Operation::Times => {
            let corners = [a * c, a * d, b * c, b * d];
            (
                corners.into_iter().min().unwrap_or(0),
                corners.into_iter().max().unwrap_or(0),
            )
        }
        Operation::Div => (-largest_x, largest_x),
        Operation::Mod => {
            let m = largest_x.min(c.abs().max(d.abs()) - 1).max(0);
            (-m, m)
        }
        _ => (i64::from(i32::MIN), i64::from(i32::MAX)),
    };
    let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
    Domain::range(clamp(low), clamp(high))
}
