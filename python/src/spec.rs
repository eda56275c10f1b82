//! Constraints described from Python (a kind and its arguments, variables by index), and how
//! each is posted, reified (`b ⇔ c`) or implied (`b ⇒ c`) with the library's own methods.

use cspkit::kernel::Constraint;
use cspkit::{
    AllDifferent, Among, Arithmetic, BoolVar, Circuit, Comparison, Cumulative, Dfa, Disjunctive,
    Element, Extremum, GlobalCardinality, Inverse, LexLessEq, Linear, LinearExpr, Member, Model,
    ModelError, Operation, Product, Regular, Reified, Subcircuit, Table, VarId,
};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::errors::raised;

/// A literal as Python passes it: a boolean variable's index, and whether it is negated.
pub type Literal = (usize, bool);

/// A constraint ready for the library.
#[derive(Debug)]
pub enum Spec {
    /// A linear comparison (reified by the library's stronger [`Model::reify_into`]).
    Linear(Linear),
    /// `x ∈ values` (reified by [`Member::reified`]).
    Member(VarId, Vec<i32>),
    /// Any other constraint of the catalogue.
    Boxed(Box<dyn Constraint>),
    /// At least one literal is true (a clause).
    AnyOf(Vec<BoolVar>),
    /// Every literal is true.
    AllOf(Vec<BoolVar>),
    /// An odd number of the literals are true.
    Xor(Vec<BoolVar>),
    /// The negation of a constraint.
    Not(Box<Spec>),
}

/// The comparison written `op` (`==`, `!=`, `<=`, `<`, `>=`, `>`).
pub fn comparison(op: &str) -> PyResult<Comparison> {
    Ok(match op {
        "==" => Comparison::Eq,
        "!=" => Comparison::Ne,
        "<=" => Comparison::Le,
        "<" => Comparison::Lt,
        ">=" => Comparison::Ge,
        ">" => Comparison::Gt,
        _ => return Err(raised(format!("unknown comparison {op:?}"))),
    })
}

/// The arithmetic operation called `name` (`abs`, `times`, `div`, `mod`, `pow`).
pub fn operation(name: &str) -> PyResult<Operation> {
    Ok(match name {
        "abs" => Operation::Abs,
        "times" => Operation::Times,
        "div" => Operation::Div,
        "mod" => Operation::Mod,
        "pow" => Operation::Pow,
        _ => return Err(raised(format!("unknown arithmetic operation {name:?}"))),
    })
}

/// The variable with index `index`.
fn var(vars: &[VarId], index: usize) -> PyResult<VarId> {
    vars.get(index).copied().ok_or_else(|| {
        raised(format!(
            "no variable with index {index} (the model has {})",
            vars.len()
        ))
    })
}

/// The literal `(index, negated)` as the library's boolean (an error if the variable is not 0/1).
pub fn literal(model: &Model, vars: &[VarId], (index, negated): Literal) -> PyResult<BoolVar> {
    let b = model.as_bool(var(vars, index)?).map_err(raised)?;
    Ok(if negated { !b } else { b })
}

/// Reads the arguments of a constraint described from Python, variables resolved by `var`.
pub struct Reader<'a, 'py> {
    /// The model, for the booleans of literals.
    pub model: &'a Model,
    /// The model's variables by index.
    pub vars: &'a [VarId],
    /// The arguments.
    pub args: &'a Bound<'py, PyTuple>,
}

impl Reader<'_, '_> {
    fn arg<T: for<'a> FromPyObject<'a>>(&self, position: usize) -> PyResult<T> {
        self.args.get_item(position)?.extract()
    }

    fn var(&self, index: usize) -> PyResult<VarId> {
        var(self.vars, index)
    }

    fn var_arg(&self, position: usize) -> PyResult<VarId> {
        self.var(self.arg(position)?)
    }

    fn vars_arg(&self, position: usize) -> PyResult<Vec<VarId>> {
        let indices: Vec<usize> = self.arg(position)?;
        indices.into_iter().map(|index| self.var(index)).collect()
    }

    fn literal(&self, literal: Literal) -> PyResult<BoolVar> {
        self::literal(self.model, self.vars, literal)
    }

    fn literals_arg(&self, position: usize) -> PyResult<Vec<BoolVar>> {
        let literals: Vec<Literal> = self.arg(position)?;
        literals.into_iter().map(|l| self.literal(l)).collect()
    }

    /// `sum(literals) <op> k` as a linear constraint (a negated literal counts as `1 − b`).
    fn counting(&self, op: Comparison) -> PyResult<Spec> {
        let k: i64 = self.arg(0)?;
        let literals = self.literals_arg(1)?;
        let mut terms = Vec::with_capacity(literals.len());
        let mut constant = 0;
        for b in literals {
            if b.is_negated() {
                terms.push((-1, b.var()));
                constant += 1;
            } else {
                terms.push((1, b.var()));
            }
        }
        Ok(Spec::Linear(
            LinearExpr::new(&terms, constant).compare(op, k),
        ))
    }

    /// The constraint of kind `kind` with these arguments.
    pub fn spec(&self, kind: &str) -> PyResult<Spec> {
        let boxed = |c: Box<dyn Constraint>| Ok(Spec::Boxed(c));
        match kind {
            "linear" => {
                let terms: Vec<(i64, usize)> = self.arg(0)?;
                let constant: i64 = self.arg(1)?;
                let op: String = self.arg(2)?;
                let terms = terms
                    .into_iter()
                    .map(|(c, index)| Ok((c, self.var(index)?)))
                    .collect::<PyResult<Vec<_>>>()?;
                let expr = LinearExpr::new(&terms, constant);
                Ok(Spec::Linear(expr.compare(comparison(&op)?, 0i64)))
            }
            "member" => Ok(Spec::Member(self.var_arg(0)?, self.arg(1)?)),
            "any_of" => Ok(Spec::AnyOf(self.literals_arg(0)?)),
            "all_of" => Ok(Spec::AllOf(self.literals_arg(0)?)),
            "xor" => Ok(Spec::Xor(self.literals_arg(0)?)),
            "at_least" => self.counting(Comparison::Ge),
            "at_most" => self.counting(Comparison::Le),
            "exactly" => self.counting(Comparison::Eq),
            "not" => {
                let inner_kind: String = self.arg(0)?;
                let inner_args = self.args.get_item(1)?;
                let inner = Reader {
                    args: inner_args.downcast::<PyTuple>()?,
                    ..*self
                };
                Ok(Spec::Not(Box::new(inner.spec(&inner_kind)?)))
            }
            "all_different" => boxed(Box::new(AllDifferent::new(&self.vars_arg(0)?))),
            "element" => {
                let array: Vec<i32> = self.arg(0)?;
                boxed(Box::new(Element::new(
                    &array,
                    self.var_arg(1)?,
                    self.var_arg(2)?,
                )))
            }
            "element_vars" => boxed(Box::new(Element::with_variables(
                &self.vars_arg(0)?,
                self.var_arg(1)?,
                self.var_arg(2)?,
            ))),
            "table" => {
                let tuples: Vec<Vec<i32>> = self.arg(1)?;
                let table = Table::new(&self.vars_arg(0)?, &tuples).map_err(raised)?;
                boxed(Box::new(table))
            }
            "circuit" => boxed(Box::new(Circuit::new(&self.vars_arg(0)?))),
            "subcircuit" => boxed(Box::new(Subcircuit::new(&self.vars_arg(0)?))),
            "global_cardinality" | "global_cardinality_closed" => {
                let values: Vec<i32> = self.arg(1)?;
                let gcc = GlobalCardinality::new(&self.vars_arg(0)?, &values, &self.vars_arg(2)?)
                    .map_err(raised)?;
                let gcc = if kind == "global_cardinality" {
                    gcc
                } else {
                    gcc.closed()
                };
                boxed(Box::new(gcc))
            }
            "global_cardinality_bounds" => {
                let values: Vec<i32> = self.arg(1)?;
                let bounds: Vec<(u32, u32)> = self.arg(2)?;
                let gcc = GlobalCardinality::with_bounds(&self.vars_arg(0)?, &values, &bounds)
                    .map_err(raised)?;
                boxed(Box::new(gcc))
            }
            "inverse" => {
                let inverse =
                    Inverse::new(&self.vars_arg(0)?, &self.vars_arg(1)?).map_err(raised)?;
                boxed(Box::new(inverse))
            }
            "lex_less_eq" => boxed(Box::new(LexLessEq::new(
                &self.vars_arg(0)?,
                &self.vars_arg(1)?,
            ))),
            "lex_less" => boxed(Box::new(LexLessEq::strict(
                &self.vars_arg(0)?,
                &self.vars_arg(1)?,
            ))),
            "cumulative" => {
                let cumulative = Cumulative::with_variables(
                    &self.vars_arg(0)?,
                    &self.vars_arg(1)?,
                    &self.vars_arg(2)?,
                    self.var_arg(3)?,
                )
                .map_err(raised)?;
                boxed(Box::new(cumulative))
            }
            "disjunctive" => {
                let disjunctive =
                    Disjunctive::with_variables(&self.vars_arg(0)?, &self.vars_arg(1)?)
                        .map_err(raised)?;
                boxed(Box::new(disjunctive))
            }
            "regular" => {
                let states: usize = self.arg(1)?;
                let start: usize = self.arg(2)?;
                let accepting: Vec<usize> = self.arg(3)?;
                let transitions: Vec<(usize, i32, usize)> = self.arg(4)?;
                let dfa = Dfa::new(states, start, &accepting, &transitions).map_err(raised)?;
                boxed(Box::new(Regular::new(&self.vars_arg(0)?, dfa)))
            }
            "minimum" => boxed(Box::new(Extremum::minimum(
                &self.vars_arg(0)?,
                self.var_arg(1)?,
            ))),
            "maximum" => boxed(Box::new(Extremum::maximum(
                &self.vars_arg(0)?,
                self.var_arg(1)?,
            ))),
            "arithmetic" => {
                let op: String = self.arg(0)?;
                boxed(Box::new(Arithmetic::new(
                    operation(&op)?,
                    self.var_arg(1)?,
                    self.var_arg(2)?,
                    self.var_arg(3)?,
                )))
            }
            "product" => boxed(Box::new(Product::new(&self.vars_arg(0)?, self.var_arg(1)?))),
            "among" => {
                let values: Vec<i32> = self.arg(1)?;
                boxed(Box::new(Among::new(
                    &self.vars_arg(0)?,
                    &values,
                    self.var_arg(2)?,
                )))
            }
            _ => Err(raised(format!("unknown constraint kind {kind:?}"))),
        }
    }
}

/// A new boolean of `model`, fixed to `value` if given.
fn new_bool(model: &mut Model, value: Option<bool>) -> Result<BoolVar, ModelError> {
    let b = model.new_bool()?;
    if let Some(value) = value {
        model.fix(b.var(), i32::from(value))?;
    }
    Ok(b)
}

/// The negation of a linear constraint.
fn negated(linear: &Linear) -> Linear {
    let terms: Vec<(i64, VarId)> = linear.terms().collect();
    Linear::new(&terms, linear.comparison().negated(), linear.constant())
}

/// The error of a constraint over no literal, which never holds (reify it to get false).
fn empty(constraint: &str) -> ModelError {
    ModelError::EmptyScope {
        constraint: constraint.into(),
    }
}

/// Posts `spec`.
pub fn post(model: &mut Model, spec: Spec) -> Result<(), ModelError> {
    match spec {
        Spec::Linear(linear) => model.post(linear).map(drop),
        Spec::Member(x, values) => model.post(Member::new(x, &values)).map(drop),
        Spec::Boxed(constraint) => model.post_boxed(None, constraint).map(drop),
        Spec::AnyOf(literals) if literals.is_empty() => Err(empty("any_of")),
        Spec::AnyOf(literals) => model.clause(&literals, &[]),
        Spec::AllOf(literals) => literals
            .into_iter()
            .try_for_each(|b| model.fix(b.var(), b.true_value())),
        Spec::Xor(literals) if literals.is_empty() => Err(empty("xor")),
        Spec::Xor(_) => {
            let truth = new_bool(model, Some(true))?;
            reify_into(model, spec, truth)
        }
        Spec::Not(inner) => match *inner {
            Spec::Linear(linear) => model.post(negated(&linear)).map(drop),
            inner => {
                let falsity = new_bool(model, Some(false))?;
                reify_into(model, inner, falsity)
            }
        },
    }
}

/// Posts `b ⇔ spec`.
pub fn reify_into(model: &mut Model, spec: Spec, b: BoolVar) -> Result<(), ModelError> {
    match spec {
        Spec::Linear(linear) => model.reify_into(linear, b),
        Spec::Member(x, values) => {
            let own = if b.is_negated() {
                new_bool(model, None)?
            } else {
                b
            };
            model.post(Member::reified(x, &values, own.var()))?;
            if own != b {
                model.equivalent(own, b)?;
            }
            Ok(())
        }
        Spec::Boxed(constraint) if !b.is_negated() => {
            model.post(Reified::new(constraint, b.var())).map(drop)
        }
        Spec::Boxed(constraint) => {
            let own = model.reify_constraint(constraint)?;
            model.equivalent(own, b)
        }
        Spec::AnyOf(literals) => model.or(&literals, b),
        Spec::AllOf(literals) => model.and(&literals, b),
        Spec::Xor(literals) => match literals.as_slice() {
            [] => model.fix(b.var(), 1 - b.true_value()),
            [only] => model.equivalent(*only, b),
            [first, middle @ .., last] => {
                let mut parity = *first;
                for &literal in middle {
                    let next = new_bool(model, None)?;
                    model.xor(parity, literal, next)?;
                    parity = next;
                }
                model.xor(parity, *last, b)
            }
        },
        Spec::Not(inner) => reify_into(model, *inner, !b),
    }
}

/// Posts `b ⇒ spec`.
pub fn imply(model: &mut Model, b: BoolVar, spec: Spec) -> Result<(), ModelError> {
    match spec {
        Spec::Linear(linear) => model.imply(b, linear),
        Spec::Member(x, values) => {
            let own = if b.is_negated() {
                new_bool(model, None)?
            } else {
                b
            };
            model.post(Member::implied(x, &values, own.var()))?;
            if own != b {
                model.equivalent(own, b)?;
            }
            Ok(())
        }
        Spec::Boxed(constraint) => model.imply_constraint(b, constraint),
        Spec::AnyOf(mut literals) => {
            literals.push(!b);
            model.clause(&literals, &[])
        }
        Spec::AllOf(literals) => literals
            .into_iter()
            .try_for_each(|literal| model.implies(b, literal)),
        Spec::Not(inner) => match *inner {
            Spec::Linear(linear) => model.imply(b, negated(&linear)),
            inner => {
                let holds = new_bool(model, None)?;
                reify_into(model, inner, holds)?;
                model.implies(b, !holds)
            }
        },
        spec => {
            let holds = new_bool(model, None)?;
            reify_into(model, spec, holds)?;
            model.implies(b, holds)
        }
    }
}
