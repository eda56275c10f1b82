//! FlatZinc items to a cspkit [`Model`]: variables, the builtins, the solve item, the output.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use crate::Constraint as _;
use crate::constraints::{
    AllDifferent, Among, Arithmetic, Circuit, Comparison, Cumulative, Dfa, Disjunctive, Element,
    Extremum, GlobalCardinality, Inverse, LexLessEq, Linear, Member, Operation, Regular,
    Subcircuit, Table,
};
use crate::error::{DomainError, ModelError};
use crate::flatzinc::parse::{Expr, FznError, Item, Pos, Type};
use crate::ids::VarId;
use crate::model::{BoolVar, LinearExpr, Model};

/// A resolved value: a constant, a variable, or an array of them. Arrays are never copied:
/// an array of values is shared, an array of integer literals is the parsed text's.
#[derive(Debug, Clone, PartialEq)]
enum Val<'a> {
    Int(i64),
    Bool(bool),
    /// A set of integers, ascending.
    Set(Vec<i64>),
    /// A variable, and whether it is boolean.
    Var(VarId, bool),
    Array(Rc<[Val<'a>]>),
    /// An array of integer constants, as parsed ([`Expr::IntArray`]).
    Ints(&'a [i32]),
}

/// The elements of an array value, however it is stored.
#[derive(Debug, Clone, Copy)]
enum Elements<'v, 'a> {
    Vals(&'v [Val<'a>]),
    Ints(&'a [i32]),
}

impl<'v, 'a> Elements<'v, 'a> {
    fn len(self) -> usize {
        match self {
            Elements::Vals(items) => items.len(),
            Elements::Ints(items) => items.len(),
        }
    }

    fn get(self, i: usize) -> Option<Val<'a>> {
        match self {
            Elements::Vals(items) => items.get(i).cloned(),
            Elements::Ints(items) => items.get(i).map(|&v| Val::Int(v.into())),
        }
    }

    fn iter(self) -> impl Iterator<Item = Val<'a>> + 'v
    where
        'a: 'v,
    {
        (0..self.len()).map(move |i| self.get(i).expect("an index below the length"))
    }
}

/// How the search picks a variable, from a search annotation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VarChoice {
    /// `input_order`.
    InputOrder,
    /// `first_fail`: the smallest domain.
    FirstFail,
    /// `dom_w_deg`: the smallest ratio of domain size to weighted degree
    /// ([`DomWdeg`](crate::DomWdeg)).
    DomWdeg,
    /// `most_constrained`: the smallest domain, ties to the most constraints.
    MostConstrained,
    /// `occurrence`: the most constraints.
    Occurrence,
    /// `anti_first_fail`.
    AntiFirstFail,
    /// `smallest`: the smallest value in its domain.
    Smallest,
    /// `largest`: the largest value in its domain.
    Largest,
}

/// How the search picks a value, from a search annotation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueChoice {
    /// `indomain_min`, `indomain`, `indomain_interval`.
    Min,
    /// `indomain_split`: `x ≤ middle` first, then `x > middle` (bisection), when every
    /// annotated group splits ([`FznModel::branching`]); the smallest value otherwise.
    Split,
    /// `indomain_max`, `indomain_reverse_split` (run as `indomain_max`).
    Max,
    /// `indomain_median`, `indomain_middle`.
    Median,
    /// `indomain_random`.
    Random,
}

/// One `int_search` or `bool_search` of the solve item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchGroup {
    /// The variables, in the annotation's order.
    pub vars: Vec<VarId>,
    /// The variable choice.
    pub var_choice: VarChoice,
    /// The value choice.
    pub value_choice: ValueChoice,
}

/// What to print for a solution: a variable, or an array of them with its index sets.
#[derive(Debug, Clone, PartialEq)]
pub enum OutputItem {
    /// `name = value;`
    Scalar {
        /// The name in the model.
        name: String,
        /// Its value: a variable or a constant.
        value: OutputValue,
    },
    /// `name = arrayNd(ranges, [values]);`
    Array {
        /// The name in the model.
        name: String,
        /// The index sets of `output_array`, as `(low, high)`.
        ranges: Vec<(i64, i64)>,
        /// The elements.
        values: Vec<OutputValue>,
    },
}

/// An element of the output: a variable's value or a constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputValue {
    /// A variable; `true` if boolean.
    Var(VarId, bool),
    /// An integer constant.
    Int(i64),
    /// A boolean constant.
    Bool(bool),
}

/// The goal of the solve item.
#[derive(Debug, Clone)]
pub enum Goal {
    /// `solve satisfy`.
    Satisfy,
    /// `solve minimize` (`true`) or `maximize` (`false`) of a variable or a constant.
    Optimize {
        /// The objective.
        objective: LinearExpr,
        /// Whether it is minimised.
        minimize: bool,
    },
}

/// A FlatZinc model built on cspkit: the model, the goal, the search annotations, the output.
#[derive(Debug)]
pub struct FznModel {
    /// The model.
    pub model: Model,
    /// What to solve for.
    pub goal: Goal,
    /// The search annotations, flattened from `seq_search`, in order.
    pub search: Vec<SearchGroup>,
    /// What to print for each solution, in declaration order.
    pub output: Vec<OutputItem>,
    /// The variables whose declared domain reached beyond cspkit's 32-bit integers (bounds
    /// MiniZinc computed for an intermediate expression, such as `x * x`), clamped to them.
    /// Every solution found is still a solution; but one that needs a value beyond 32 bits
    /// cannot be found, so [`solve`](crate::flatzinc::solve) then never claims that there is
    /// none, that all were listed, or that a best one is optimal.
    pub clamped: Vec<String>,
    /// What the model asked that cspkit does not do, and ignored (a search annotation it does
    /// not know), one line each with the line of the model.
    pub warnings: Vec<String>,
    /// Whether a variable is neither shown by the output nor defined by a constraint
    /// (`defines_var`): two solutions may then show the same values, and
    /// [`solve`](crate::flatzinc::solve) projects an all-solutions search on the
    /// [`shown_variables`](FznModel::shown_variables), so that each is printed once.
    pub hidden: bool,
    /// The variables declared one by one, without a value, that no constraint defines
    /// (`defines_var`), in declaration order: those a solution is made of, the others follow.
    pub independent: Vec<VarId>,
    /// The start times of the tasks of the model's `disjunctive` and `cumulative` constraints
    /// whose durations (and demands and capacity) are constants, each once, in the order they
    /// first appear. In a scheduling model ([`FznModel::is_scheduling`]) the searches branch
    /// on them first, by smallest minimum ([`SmallestMinimum`](crate::SmallestMinimum)).
    pub start_times: Vec<VarId>,
}

struct Builder<'a> {
    model: Model,
    env: HashMap<String, Val<'a>>,
    constants: HashMap<i64, VarId>,
    output: Vec<OutputItem>,
    goal: Option<Goal>,
    search: Vec<SearchGroup>,
    clamped: Vec<String>,
    warnings: Vec<String>,
    /// The start times of the scheduling constraints, in order, and which variables they are.
    start_times: Vec<VarId>,
    is_start_time: HashSet<VarId>,
    /// The label of the constraints posted for the item being read: its builtin and line
    /// (`int_lin_eq (line 31)`), for traces and the tree page.
    label: String,
}

type Args<'a> = &'a [(Expr, Pos)];

/// The names of the constraints cspkit reads, for error messages and the documentation.
pub const SUPPORTED: &[&str] = &[
    "int_eq",
    "int_ne",
    "int_le",
    "int_lt",
    "int_eq_reif",
    "int_ne_reif",
    "int_le_reif",
    "int_lt_reif",
    "int_eq_imp",
    "int_ne_imp",
    "int_le_imp",
    "int_lt_imp",
    "int_lin_eq",
    "int_lin_ne",
    "int_lin_le",
    "int_lin_eq_reif",
    "int_lin_ne_reif",
    "int_lin_le_reif",
    "int_lin_eq_imp",
    "int_lin_ne_imp",
    "int_lin_le_imp",
    "int_plus",
    "int_minus",
    "int_times",
    "int_div",
    "int_mod",
    "int_abs",
    "int_pow",
    "int_min",
    "int_max",
    "array_int_element",
    "array_var_int_element",
    "array_bool_element",
    "array_var_bool_element",
    "array_int_maximum",
    "array_int_minimum",
    "array_bool_and",
    "array_bool_or",
    "array_bool_xor",
    "bool2int",
    "bool_eq",
    "bool_ne",
    "bool_not",
    "bool_le",
    "bool_lt",
    "bool_and",
    "bool_or",
    "bool_xor",
    "bool_clause",
    "bool_eq_reif",
    "bool_ne_reif",
    "bool_le_reif",
    "bool_lt_reif",
    "bool_eq_imp",
    "bool_le_imp",
    "bool_lt_imp",
    "bool_lin_eq",
    "bool_lin_le",
    "set_in",
    "set_in_reif",
    "set_in_imp",
    "fzn_all_different_int",
    "fzn_table_int",
    "fzn_table_bool",
    "fzn_global_cardinality",
    "fzn_global_cardinality_closed",
    "fzn_global_cardinality_low_up",
    "fzn_global_cardinality_low_up_closed",
    "cspkit_circuit",
    "cspkit_inverse",
    "fzn_regular",
    "fzn_lex_lesseq_int",
    "fzn_lex_less_int",
    "fzn_lex_lesseq_bool",
    "fzn_lex_less_bool",
    "cspkit_count_eq",
    "cspkit_cumulative",
    "cspkit_disjunctive",
    "cspkit_subcircuit",
    "fzn_among",
];

impl<'a> Builder<'a> {
    fn model_error(pos: Pos, error: impl Into<ModelError>) -> FznError {
        let error = error.into();
        // A wipe-out (or an empty domain) while building is no fault of the model's text: the
        // model has no solution.
        let infeasible = matches!(
            error,
            ModelError::DomainWipeout { .. }
                | ModelError::InvalidDomain {
                    source: DomainError::Empty,
                    ..
                }
        );
        FznError {
            infeasible,
            ..FznError::at(pos, error.to_string())
        }
    }

    /// The value of an expression.
    fn resolve(&self, expr: &'a Expr, pos: Pos) -> Result<Val<'a>, FznError> {
        Ok(match expr {
            Expr::Int(v) => Val::Int(*v),
            Expr::Bool(b) => Val::Bool(*b),
            Expr::Float(_) => {
                return Err(FznError::unsupported(
                    pos,
                    "floats are not supported by cspkit",
                ));
            }
            Expr::Str(_) | Expr::Call(..) => {
                return Err(FznError::at(pos, "an annotation where a value is expected"));
            }
            Expr::Ident(name) => self
                .env
                .get(name)
                .cloned()
                .ok_or_else(|| FznError::at(pos, format!("unknown name `{name}`")))?,
            Expr::Access(name, index) => {
                let array = self
                    .env
                    .get(name)
                    .ok_or_else(|| FznError::at(pos, format!("unknown array `{name}`")))?;
                let Ok(items) = Self::elements(array, pos) else {
                    return Err(FznError::at(pos, format!("`{name}` is not an array")));
                };
                usize::try_from(*index - 1)
                    .ok()
                    .and_then(|i| items.get(i))
                    .ok_or_else(|| {
                        FznError::at(
                            pos,
                            format!("index {index} is outside {name}'s 1..{}", items.len()),
                        )
                    })?
            }
            Expr::Array(items) => Val::Array(
                items
                    .iter()
                    .map(|(e, p)| self.resolve(e, *p))
                    .collect::<Result<_, _>>()?,
            ),
            Expr::IntArray(values) => Val::Ints(values),
            Expr::Range(low, high) => {
                if high.saturating_sub(*low) > 1 << 20 {
                    return Err(FznError::unsupported(
                        pos,
                        "a constant set of more than 2^20 values",
                    ));
                }
                Val::Set((*low..=*high).collect())
            }
            Expr::Set(values) => {
                let mut values = values.clone();
                values.sort_unstable();
                values.dedup();
                Val::Set(values)
            }
        })
    }

    fn arg(&self, args: Args<'a>, i: usize, name: &str, pos: Pos) -> Result<Val<'a>, FznError> {
        let (expr, at) = args.get(i).ok_or_else(|| {
            FznError::at(
                pos,
                format!(
                    "{name}: expected at least {} arguments, found {}",
                    i + 1,
                    args.len()
                ),
            )
        })?;
        self.resolve(expr, *at)
    }

    fn int_const(&self, value: &Val, pos: Pos) -> Result<i64, FznError> {
        match value {
            Val::Int(v) => Ok(*v),
            Val::Bool(b) => Ok(i64::from(*b)),
            Val::Var(var, _) => self
                .model
                .domain(*var)
                .value()
                .map(i64::from)
                .ok_or_else(|| FznError::at(pos, "a variable where a constant is expected")),
            _ => Err(FznError::at(pos, "expected an integer")),
        }
    }

    fn to_i32(value: i64, pos: Pos) -> Result<i32, FznError> {
        i32::try_from(value).map_err(|_| {
            FznError::unsupported(pos, format!("{value} is outside cspkit's 32-bit integers"))
        })
    }

    /// A variable for a value: itself, or a fixed variable for a constant.
    fn var(&mut self, value: &Val, pos: Pos) -> Result<VarId, FznError> {
        match value {
            Val::Var(var, _) => Ok(*var),
            Val::Int(_) | Val::Bool(_) => {
                let v = self.int_const(value, pos)?;
                if let Some(&var) = self.constants.get(&v) {
                    return Ok(var);
                }
                let v32 = Self::to_i32(v, pos)?;
                // Named by its value: a trace then says `already has 3 (the constant 3)`.
                let var = self
                    .model
                    .new_named_var(format!("the constant {v32}"), v32..=v32)
                    .map_err(|e| Self::model_error(pos, e))?;
                self.constants.insert(v, var);
                Ok(var)
            }
            _ => Err(FznError::at(pos, "expected an integer or a variable")),
        }
    }

    fn bool_var(&mut self, value: &Val, pos: Pos) -> Result<BoolVar, FznError> {
        let var = self.var(value, pos)?;
        self.model
            .as_bool(var)
            .map_err(|e| Self::model_error(pos, e))
    }

    fn elements<'v>(value: &'v Val<'a>, pos: Pos) -> Result<Elements<'v, 'a>, FznError> {
        match value {
            Val::Array(items) => Ok(Elements::Vals(items)),
            Val::Ints(items) => Ok(Elements::Ints(items)),
            _ => Err(FznError::at(pos, "expected an array")),
        }
    }

    fn vars(&mut self, value: &Val<'a>, pos: Pos) -> Result<Vec<VarId>, FznError> {
        // A handle on the array (shared, not copied), so that `self` can change.
        let value = value.clone();
        Self::elements(&value, pos)?
            .iter()
            .map(|v| self.var(&v, pos))
            .collect()
    }

    fn bools(&mut self, value: &Val<'a>, pos: Pos) -> Result<Vec<BoolVar>, FznError> {
        let value = value.clone();
        Self::elements(&value, pos)?
            .iter()
            .map(|v| self.bool_var(&v, pos))
            .collect()
    }

    fn ints(&self, value: &Val<'a>, pos: Pos) -> Result<Vec<i64>, FznError> {
        Self::elements(value, pos)?
            .iter()
            .map(|v| self.int_const(&v, pos))
            .collect()
    }

    /// The elements as 32-bit integers, after `room` free places at the front (filled with
    /// zeros): one vector of the array's length, however long.
    fn ints32_after(&self, room: usize, value: &Val<'a>, pos: Pos) -> Result<Vec<i32>, FznError> {
        let elements = Self::elements(value, pos)?;
        let mut values = Vec::with_capacity(room + elements.len());
        values.resize(room, 0);
        for v in elements.iter() {
            values.push(Self::to_i32(self.int_const(&v, pos)?, pos)?);
        }
        Ok(values)
    }

    fn ints32(&self, value: &Val<'a>, pos: Pos) -> Result<Vec<i32>, FznError> {
        self.ints32_after(0, value, pos)
    }

    fn set(value: &Val, pos: Pos) -> Result<Vec<i32>, FznError> {
        match value {
            Val::Set(values) => values.iter().map(|&v| Self::to_i32(v, pos)).collect(),
            _ => Err(FznError::at(pos, "expected a set of integers")),
        }
    }

    /// A term of a linear expression: a constant or a variable.
    fn expr_of(&mut self, value: &Val, pos: Pos) -> Result<LinearExpr, FznError> {
        match value {
            Val::Int(v) => Ok(LinearExpr::new(&[], *v)),
            Val::Bool(b) => Ok(LinearExpr::new(&[], i64::from(*b))),
            Val::Var(var, _) => Ok(LinearExpr::from(*var)),
            _ => Err(FznError::at(pos, "expected an integer or a variable")),
        }
    }

    /// Records `starts` as start times of tasks (each variable once).
    fn add_start_times(&mut self, starts: &[VarId]) {
        for &start in starts {
            if self.is_start_time.insert(start) {
                self.start_times.push(start);
            }
        }
    }

    fn post(
        &mut self,
        pos: Pos,
        constraint: impl crate::Constraint + 'static,
    ) -> Result<(), FznError> {
        if constraint.scope().is_empty() {
            // Every argument a constant (`int_eq(1, 1)`, a sum of constants): decided now.
            return if constraint.check(&[]) {
                Ok(())
            } else {
                self.post_false(pos)
            };
        }
        self.model
            .post_named(self.label.clone(), constraint)
            .map(|_| ())
            .map_err(|e| Self::model_error(pos, e))
    }

    /// Posts a constraint no assignment satisfies (an empty automaton, an empty range).
    fn post_false(&mut self, pos: Pos) -> Result<(), FznError> {
        let one = self.var(&Val::Int(1), pos)?;
        self.post(pos, Member::new(one, &[]))
    }

    /// Posts `linear`, its reification into `b`, or its implication by `b`.
    fn post_linear(
        &mut self,
        pos: Pos,
        linear: Linear,
        reified: Option<(BoolVar, bool)>,
    ) -> Result<(), FznError> {
        if linear.scope().is_empty() {
            // Every term a constant: the constraint is true or false now, and so is `b`
            // (reified), or `b` must be false if it is (implied).
            let holds = linear.check(&[]);
            return match reified {
                None => self.post(pos, linear),
                Some((b, true)) => self.restrict_bool(b, holds, pos),
                Some((b, false)) if !holds => self.restrict_bool(b, false, pos),
                Some(_) => Ok(()),
            };
        }
        let result = match reified {
            None => self
                .model
                .post_named(self.label.clone(), linear)
                .map(|_| ()),
            Some((b, true)) => self.model.reify_into(linear, b),
            Some((b, false)) => self.model.imply(b, linear),
        };
        result.map_err(|e| Self::model_error(pos, e))
    }

    /// Fixes the boolean `b` to `value` (a failing constraint if it cannot take it).
    fn restrict_bool(&mut self, b: BoolVar, value: bool, pos: Pos) -> Result<(), FznError> {
        let v = i32::from(value);
        self.model
            .restrict(b.var(), v..=v)
            .map_err(|e| Self::model_error(pos, e))
    }

    fn constraint(&mut self, name: &str, args: Args<'a>, pos: Pos) -> Result<(), FznError> {
        let arg = |b: &Self, i: usize| b.arg(args, i, name, pos);
        // `_reif` and `_imp` forms: the last argument is the boolean.
        let (base, mode) = if let Some(base) = name.strip_suffix("_reif") {
            (base, Some(true))
        } else if let Some(base) = name.strip_suffix("_imp") {
            (base, Some(false))
        } else {
            (name, None)
        };
        let reified = match mode {
            Some(full) => {
                let last = args
                    .len()
                    .checked_sub(1)
                    .ok_or_else(|| FznError::at(pos, format!("{name}: no arguments")))?;
                let b = arg(self, last)?;
                Some((self.bool_var(&b, pos)?, full))
            }
            None => None,
        };
        let comparison = |op: &str| match op {
            "eq" => Some(Comparison::Eq),
            "ne" => Some(Comparison::Ne),
            "le" => Some(Comparison::Le),
            "lt" => Some(Comparison::Lt),
            _ => None,
        };
        match base {
            "int_eq" | "int_ne" | "int_le" | "int_lt" | "bool_eq" | "bool_le" | "bool_lt"
            | "bool_ne" => {
                let op = comparison(&base[base.len() - 2..]).expect("a comparison suffix");
                let (a, b) = (arg(self, 0)?, arg(self, 1)?);
                let (a, b) = (self.expr_of(&a, pos)?, self.expr_of(&b, pos)?);
                self.post_linear(pos, a.compare(op, b), reified)
            }
            "int_lin_eq" | "int_lin_ne" | "int_lin_le" | "bool_lin_eq" | "bool_lin_le" => {
                let op = comparison(&base[base.len() - 2..]).expect("a comparison suffix");
                let coefficients = self.ints(&arg(self, 0)?, pos)?;
                let vars = arg(self, 1)?;
                let vars = self.vars(&vars, pos)?;
                // bool_lin_eq's right-hand side may be a variable.
                let rhs = arg(self, 2)?;
                let rhs = self.expr_of(&rhs, pos)?;
                if coefficients.len() != vars.len() {
                    return Err(FznError::at(
                        pos,
                        format!(
                            "{name}: {} coefficients for {} variables",
                            coefficients.len(),
                            vars.len()
                        ),
                    ));
                }
                let terms: Vec<(i64, VarId)> = coefficients.into_iter().zip(vars).collect();
                let expr = LinearExpr::new(&terms, 0);
                if expr.has_overflowed() {
                    return Err(FznError::unsupported(
                        pos,
                        format!("{name}: coefficients overflow"),
                    ));
                }
                self.post_linear(pos, expr.compare(op, rhs), reified)
            }
            _ if reified.is_some() && base == "set_in" => {
                let x = arg(self, 0)?;
                let x = self.var(&x, pos)?;
                let set = Self::set(&arg(self, 1)?, pos)?;
                let (b, full) = reified.expect("checked");
                if full {
                    self.post(pos, Member::reified(x, &set, b.var()))
                } else {
                    self.post(pos, Member::implied(x, &set, b.var()))
                }
            }
            _ if reified.is_some() => Err(FznError::unsupported(
                pos,
                format!("unsupported constraint `{name}`"),
            )),
            "set_in" => {
                let x = arg(self, 0)?;
                let x = self.var(&x, pos)?;
                let set = Self::set(&arg(self, 1)?, pos)?;
                self.model
                    .restrict(x, set)
                    .map_err(|e| Self::model_error(pos, e))
            }
            "int_plus" | "int_minus" => {
                let (a, b, c) = (arg(self, 0)?, arg(self, 1)?, arg(self, 2)?);
                let (a, b, c) = (
                    self.expr_of(&a, pos)?,
                    self.expr_of(&b, pos)?,
                    self.expr_of(&c, pos)?,
                );
                let lhs = if base == "int_plus" { a + b } else { a - b };
                self.post_linear(pos, lhs.eq(c), None)
            }
            "int_times" | "int_div" | "int_mod" | "int_pow" | "int_abs" => {
                let operation = match base {
                    "int_times" => Operation::Times,
                    "int_div" => Operation::Div,
                    "int_mod" => Operation::Mod,
                    "int_pow" => Operation::Pow,
                    _ => Operation::Abs,
                };
                let x = arg(self, 0)?;
                let x = self.var(&x, pos)?;
                if operation == Operation::Abs {
                    let z = arg(self, 1)?;
                    let z = self.var(&z, pos)?;
                    return self.post(pos, Arithmetic::abs(x, z));
                }
                let (y, z) = (arg(self, 1)?, arg(self, 2)?);
                let (y, z) = (self.var(&y, pos)?, self.var(&z, pos)?);
                self.post(pos, Arithmetic::new(operation, x, y, z))
            }
            "int_min" | "int_max" => {
                let (a, b, c) = (arg(self, 0)?, arg(self, 1)?, arg(self, 2)?);
                let (a, b, c) = (self.var(&a, pos)?, self.var(&b, pos)?, self.var(&c, pos)?);
                if base == "int_min" {
                    self.post(pos, Extremum::minimum(&[a, b], c))
                } else {
                    self.post(pos, Extremum::maximum(&[a, b], c))
                }
            }
            "array_int_maximum" | "array_int_minimum" => {
                let m = arg(self, 0)?;
                let m = self.var(&m, pos)?;
                let xs = arg(self, 1)?;
                let xs = self.vars(&xs, pos)?;
                if base == "array_int_maximum" {
                    self.post(pos, Extremum::maximum(&xs, m))
                } else {
                    self.post(pos, Extremum::minimum(&xs, m))
                }
            }
            "array_int_element"
            | "array_bool_element"
            | "array_var_int_element"
            | "array_var_bool_element" => {
                let index = arg(self, 0)?;
                let index = self.var(&index, pos)?;
                let array = arg(self, 1)?;
                let value = arg(self, 2)?;
                let value = self.var(&value, pos)?;
                let len = Self::elements(&array, pos)?.len();
                if len == 0 {
                    return Err(FznError::at(pos, format!("{name}: an empty array")));
                }
                // FlatZinc counts from 1; Element from 0: a copy of the first entry at 0,
                // which the index cannot take.
                self.model
                    .restrict(index, 1..=len as i32)
                    .map_err(|e| Self::model_error(pos, e))?;
                if base.starts_with("array_var") {
                    let mut vars = self.vars(&array, pos)?;
                    vars.insert(0, vars[0]);
                    self.post(pos, Element::with_variables(&vars, index, value))
                } else {
                    let mut values = self.ints32_after(1, &array, pos)?;
                    values[0] = values[1];
                    self.post(pos, Element::new(&values, index, value))
                }
            }
            "array_bool_and" | "array_bool_or" => {
                let inputs = arg(self, 0)?;
                let inputs = self.bools(&inputs, pos)?;
                let r = arg(self, 1)?;
                let r = self.bool_var(&r, pos)?;
                let result = if base == "array_bool_and" {
                    self.model.and(&inputs, r)
                } else {
                    self.model.or(&inputs, r)
                };
                result.map_err(|e| Self::model_error(pos, e))
            }
            "array_bool_xor" => {
                // An odd number of them true: their sum is 2k + 1.
                let inputs = arg(self, 0)?;
                let inputs = self.vars(&inputs, pos)?;
                let half = self
                    .model
                    .new_var(0..=inputs.len() as i32 / 2)
                    .map_err(|e| Self::model_error(pos, e))?;
                let sum = LinearExpr::sum(&inputs);
                self.post_linear(pos, sum.eq(LinearExpr::from(half) * 2 + 1), None)
            }
            "bool2int" => {
                let (a, b) = (arg(self, 0)?, arg(self, 1)?);
                let (a, b) = (self.expr_of(&a, pos)?, self.expr_of(&b, pos)?);
                self.post_linear(pos, a.eq(b), None)
            }
            "bool_not" => {
                let (a, b) = (arg(self, 0)?, arg(self, 1)?);
                let (a, b) = (self.expr_of(&a, pos)?, self.expr_of(&b, pos)?);
                self.post_linear(pos, (a + b).eq(1), None)
            }
            "bool_and" | "bool_or" | "bool_xor" => {
                let (a, b) = (arg(self, 0)?, arg(self, 1)?);
                let (a, b) = (self.bool_var(&a, pos)?, self.bool_var(&b, pos)?);
                if args.len() == 2 && base == "bool_xor" {
                    // bool_xor(a, b): a ≠ b.
                    return self.post_linear(pos, (LinearExpr::from(a) + b).eq(1), None);
                }
                let r = arg(self, 2)?;
                let r = self.bool_var(&r, pos)?;
                let result = match base {
                    "bool_and" => self.model.and(&[a, b], r),
                    "bool_or" => self.model.or(&[a, b], r),
                    _ => self.model.xor(a, b, r),
                };
                result.map_err(|e| Self::model_error(pos, e))
            }
            "bool_clause" => {
                let (p, n) = (arg(self, 0)?, arg(self, 1)?);
                let (p, n) = (self.bools(&p, pos)?, self.bools(&n, pos)?);
                if p.is_empty() && n.is_empty() {
                    return self.post_false(pos); // The empty clause.
                }
                self.model
                    .clause(&p, &n)
                    .map_err(|e| Self::model_error(pos, e))
            }
            "fzn_all_different_int" => {
                let xs = arg(self, 0)?;
                let xs = self.vars(&xs, pos)?;
                if xs.is_empty() {
                    return Ok(());
                }
                self.post(pos, AllDifferent::new(&xs))
            }
            "fzn_table_int" | "fzn_table_bool" => {
                let xs = arg(self, 0)?;
                let xs = self.vars(&xs, pos)?;
                let flat = self.ints32(&arg(self, 1)?, pos)?;
                if xs.is_empty() {
                    return Ok(());
                }
                if flat.len() % xs.len() != 0 {
                    return Err(FznError::at(
                        pos,
                        format!(
                            "{name}: {} table entries for {} variables",
                            flat.len(),
                            xs.len()
                        ),
                    ));
                }
                let tuples: Vec<Vec<i32>> = flat.chunks(xs.len()).map(<[i32]>::to_vec).collect();
                let table = Table::new(&xs, &tuples).map_err(|e| Self::model_error(pos, e))?;
                self.post(pos, table)
            }
            "fzn_global_cardinality"
            | "fzn_global_cardinality_closed"
            | "fzn_global_cardinality_low_up"
            | "fzn_global_cardinality_low_up_closed" => {
                let xs = arg(self, 0)?;
                let xs = self.vars(&xs, pos)?;
                let cover = self.ints32(&arg(self, 1)?, pos)?;
                let gcc = if base.contains("low_up") {
                    let low = self.ints(&arg(self, 2)?, pos)?;
                    let high = self.ints(&arg(self, 3)?, pos)?;
                    if low.len() != high.len()
                        || low.iter().zip(&high).any(|(l, h)| h < l || *h < 0)
                    {
                        return self.post_false(pos); // an empty range
                    }
                    let clamp = |v: i64| v.clamp(0, u32::MAX.into()) as u32;
                    let bounds: Vec<(u32, u32)> = low
                        .iter()
                        .zip(&high)
                        .map(|(&l, &h)| (clamp(l), clamp(h)))
                        .collect();
                    GlobalCardinality::with_bounds(&xs, &cover, &bounds)
                } else {
                    let counts = arg(self, 2)?;
                    let counts = self.vars(&counts, pos)?;
                    GlobalCardinality::new(&xs, &cover, &counts)
                };
                let gcc = gcc.map_err(|e| Self::model_error(pos, e))?;
                self.post(
                    pos,
                    if base.ends_with("closed") {
                        gcc.closed()
                    } else {
                        gcc
                    },
                )
            }
            "cspkit_circuit" => {
                let xs = arg(self, 0)?;
                let xs = self.vars(&xs, pos)?;
                let base_node = Self::to_i32(self.int_const(&arg(self, 1)?, pos)?, pos)?;
                if xs.is_empty() {
                    return Ok(());
                }
                self.post(pos, Circuit::with_base(&xs, base_node))
            }
            "cspkit_subcircuit" => {
                let xs = arg(self, 0)?;
                let xs = self.vars(&xs, pos)?;
                let base_node = Self::to_i32(self.int_const(&arg(self, 1)?, pos)?, pos)?;
                if xs.is_empty() {
                    return Ok(());
                }
                self.post(pos, Subcircuit::with_base(&xs, base_node))
            }
            "cspkit_inverse" => {
                let f = arg(self, 0)?;
                let f = self.vars(&f, pos)?;
                let f_base = Self::to_i32(self.int_const(&arg(self, 1)?, pos)?, pos)?;
                let g = arg(self, 2)?;
                let g = self.vars(&g, pos)?;
                let g_base = Self::to_i32(self.int_const(&arg(self, 3)?, pos)?, pos)?;
                if f.is_empty() && g.is_empty() {
                    return Ok(());
                }
                // `with_bases` takes each array's first index: f's positions are g's values.
                let inverse = Inverse::with_bases(&f, f_base, &g, g_base)
                    .map_err(|e| Self::model_error(pos, e))?;
                self.post(pos, inverse)
            }
            "fzn_regular" => {
                let xs = arg(self, 0)?;
                let xs = self.vars(&xs, pos)?;
                let states = self.int_const(&arg(self, 1)?, pos)?;
                let symbols = self.int_const(&arg(self, 2)?, pos)?;
                let table = self.ints(&arg(self, 3)?, pos)?;
                let start = self.int_const(&arg(self, 4)?, pos)?;
                let accepting = match arg(self, 5)? {
                    Val::Set(values) => values,
                    _ => {
                        return Err(FznError::at(
                            pos,
                            "fzn_regular: the accepting states are a set",
                        ));
                    }
                };
                let (q, s) = (
                    usize::try_from(states).unwrap_or(0),
                    usize::try_from(symbols).unwrap_or(0),
                );
                if Some(table.len()) != q.checked_mul(s)
                    || q == 0
                    || start < 1
                    || start as usize > q
                {
                    return Err(FznError::at(
                        pos,
                        "fzn_regular: the transition table does not match Q × S",
                    ));
                }
                // States 1..=Q become 0..Q; state 0 (failure) has no transition.
                let mut transitions = Vec::new();
                for (i, &to) in table.iter().enumerate() {
                    if to >= 1 && to as usize <= q {
                        transitions.push((i / s, (i % s + 1) as i32, to as usize - 1));
                    }
                }
                let accepting: Vec<usize> = accepting
                    .iter()
                    .filter(|&&f| f >= 1 && f as usize <= q)
                    .map(|&f| f as usize - 1)
                    .collect();
                let dfa = Dfa::new(q, start as usize - 1, &accepting, &transitions)
                    .map_err(|e| Self::model_error(pos, e))?;
                if xs.is_empty() {
                    return if dfa.accepts(&[]) {
                        Ok(())
                    } else {
                        self.post_false(pos)
                    };
                }
                self.post(pos, Regular::new(&xs, dfa))
            }
            "fzn_lex_lesseq_int"
            | "fzn_lex_less_int"
            | "fzn_lex_lesseq_bool"
            | "fzn_lex_less_bool" => {
                let (x, y) = (arg(self, 0)?, arg(self, 1)?);
                let (x, y) = (self.vars(&x, pos)?, self.vars(&y, pos)?);
                let strict = base.starts_with("fzn_lex_less_");
                if x.is_empty() && y.is_empty() {
                    return if strict { self.post_false(pos) } else { Ok(()) };
                }
                self.post(
                    pos,
                    if strict {
                        LexLessEq::strict(&x, &y)
                    } else {
                        LexLessEq::new(&x, &y)
                    },
                )
            }
            "cspkit_count_eq" => {
                let xs = arg(self, 0)?;
                let xs = self.vars(&xs, pos)?;
                let value = Self::to_i32(self.int_const(&arg(self, 1)?, pos)?, pos)?;
                let count = arg(self, 2)?;
                let count = self.var(&count, pos)?;
                self.post(pos, Among::value(&xs, value, count))
            }
            "cspkit_cumulative" => {
                let (s, d, r, b) = (arg(self, 0)?, arg(self, 1)?, arg(self, 2)?, arg(self, 3)?);
                let starts = self.vars(&s, pos)?;
                // Tasks of fixed durations and demands: their starts are all there is to
                // decide (not so for tasks whose mode or machine is still to be chosen).
                let mut fixed_tasks = false;
                let cumulative = match (
                    self.ints(&d, pos),
                    self.ints(&r, pos),
                    self.int_const(&b, pos),
                ) {
                    (Ok(d), Ok(r), Ok(b)) => {
                        let narrow = |values: Vec<i64>| -> Result<Vec<i32>, FznError> {
                            values.into_iter().map(|v| Self::to_i32(v, pos)).collect()
                        };
                        fixed_tasks = true;
                        Cumulative::new(&starts, &narrow(d)?, &narrow(r)?, Self::to_i32(b, pos)?)
                    }
                    _ => {
                        let (d, r, b) =
                            (self.vars(&d, pos)?, self.vars(&r, pos)?, self.var(&b, pos)?);
                        Cumulative::with_variables(&starts, &d, &r, b)
                    }
                };
                let cumulative = cumulative.map_err(|e| Self::model_error(pos, e))?;
                self.post(pos, cumulative)?;
                if fixed_tasks {
                    self.add_start_times(&starts);
                }
                Ok(())
            }
            "cspkit_disjunctive" => {
                let (s, d) = (arg(self, 0)?, arg(self, 1)?);
                let starts = self.vars(&s, pos)?;
                let strict = matches!(arg(self, 2)?, Val::Bool(true));
                let mut fixed_tasks = false;
                let disjunctive = match self.ints(&d, pos) {
                    Ok(d) => {
                        let d: Vec<i32> = d
                            .into_iter()
                            .map(|v| Self::to_i32(v, pos))
                            .collect::<Result<_, _>>()?;
                        fixed_tasks = true;
                        Disjunctive::new(&starts, &d)
                    }
                    Err(_) => {
                        let d = self.vars(&d, pos)?;
                        Disjunctive::with_variables(&starts, &d)
                    }
                };
                let disjunctive = disjunctive.map_err(|e| Self::model_error(pos, e))?;
                self.post(
                    pos,
                    if strict {
                        disjunctive.strict()
                    } else {
                        disjunctive
                    },
                )?;
                if fixed_tasks {
                    self.add_start_times(&starts);
                }
                Ok(())
            }
            "fzn_among" => {
                let n = arg(self, 0)?;
                let n = self.var(&n, pos)?;
                let xs = arg(self, 1)?;
                let xs = self.vars(&xs, pos)?;
                let values = Self::set(&arg(self, 2)?, pos)?;
                self.post(pos, Among::new(&xs, &values, n))
            }
            _ => Err(FznError::unsupported(
                pos,
                format!(
                    "unsupported constraint `{name}` (cspkit reads the builtins listed by `cspkit fzn --help`, and its own MiniZinc library)"
                ),
            )),
        }
    }

    fn declare(&mut self, item: &'a Item) -> Result<(), FznError> {
        let Item::Decl {
            var,
            array,
            ty,
            name,
            annotations,
            value,
            pos,
        } = item
        else {
            return Ok(());
        };
        let (var, array, pos, value) = (*var, *array, *pos, value.as_ref());
        if self.env.contains_key(name.as_str()) {
            return Err(FznError::at(pos, format!("`{name}` is declared twice")));
        }
        if matches!(ty, Type::Float) {
            return Err(FznError::unsupported(
                pos,
                format!("`{name}`: floats are not supported by cspkit"),
            ));
        }
        if var && matches!(ty, Type::SetOfInt) {
            return Err(FznError::unsupported(
                pos,
                format!("`{name}`: set variables are not supported by cspkit"),
            ));
        }
        let is_bool = matches!(ty, Type::Bool);
        let resolved = value.map(|(e, p)| self.resolve(e, *p)).transpose()?;
        let val = match (var, array) {
            (false, _) => {
                let value = resolved
                    .ok_or_else(|| FznError::at(pos, format!("parameter `{name}` has no value")))?;
                if let Some(len) = array
                    && let Ok(items) = Self::elements(&value, pos)
                    && items.len() != len
                {
                    return Err(FznError::at(
                        pos,
                        format!("`{name}`: {} elements for 1..{len}", items.len()),
                    ));
                }
                value
            }
            (true, Some(len)) => {
                let Some(items @ (Val::Array(_) | Val::Ints(_))) = resolved else {
                    return Err(FznError::at(
                        pos,
                        format!("array of variables `{name}` has no list of elements"),
                    ));
                };
                let found = Self::elements(&items, pos)?.len();
                if found != len {
                    return Err(FznError::at(
                        pos,
                        format!("`{name}`: {found} elements for 1..{len}"),
                    ));
                }
                items
            }
            (true, None) => {
                let domain: Vec<i32> = match ty {
                    Type::Bool => vec![0, 1],
                    Type::IntSet(values) => values
                        .iter()
                        .map(|&v| Self::to_i32(v, pos))
                        .collect::<Result<_, _>>()?,
                    _ => Vec::new(),
                };
                let new = match ty {
                    Type::Int => self.model.new_named_var(name, i32::MIN..=i32::MAX),
                    Type::IntRange(low, high) => {
                        // A bound beyond 32 bits is clamped, and the model marked so that no
                        // answer claims what the clamp could have made false.
                        if *high < i64::from(i32::MIN) || *low > i64::from(i32::MAX) {
                            Self::to_i32(*low, pos)?;
                            Self::to_i32(*high, pos)?;
                        }
                        let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX));
                        let (low32, high32) = (clamp(*low) as i32, clamp(*high) as i32);
                        if (i64::from(low32), i64::from(high32)) != (*low, *high) && low <= high {
                            self.clamped.push(name.to_owned());
                            self.warnings.push(format!(
                                "line {}: the domain of `{name}`, {low}..{high}, is clamped to \
                                 cspkit's 32-bit integers: the answer will not claim that no \
                                 solution, or no better one, exists",
                                pos.line
                            ));
                        }
                        if low > high {
                            Err(ModelError::InvalidDomain {
                                variable: name.to_owned(),
                                source: DomainError::Empty,
                            })
                        } else {
                            self.model.new_named_var(name, low32..=high32)
                        }
                    }
                    _ => self.model.new_named_var(name, domain),
                };
                let new = match new {
                    Err(ModelError::InvalidDomain {
                        source: DomainError::Empty,
                        ..
                    }) => {
                        // No value at all: the model has no solution. The variable still
                        // stands (with a placeholder value) for the items that name it.
                        self.post_false(pos)?;
                        self.model.new_named_var(name, 0..=0)
                    }
                    other => other,
                };
                let new = new.map_err(|e| Self::model_error(pos, e))?;
                match resolved {
                    None => Val::Var(new, is_bool),
                    Some(other) => {
                        // `= value` or `= other_variable`: equal to it.
                        let target = self.var(&other, pos)?;
                        self.post_linear(pos, LinearExpr::from(new).eq(target), None)?;
                        Val::Var(new, is_bool)
                    }
                }
            }
        };
        let val = match val {
            // Constants of a bool array stay booleans; variables of a bool array are booleans.
            Val::Array(_) | Val::Ints(_) if is_bool && (var || matches!(val, Val::Array(_))) => {
                Val::Array(
                    Self::elements(&val, pos)?
                        .iter()
                        .map(|v| match v {
                            Val::Var(x, _) => Val::Var(x, true),
                            Val::Int(i) if var => Val::Bool(i != 0),
                            other => other,
                        })
                        .collect(),
                )
            }
            other => other,
        };
        for (annotation, at) in annotations {
            match annotation {
                Expr::Ident(a) if a == "output_var" => {
                    let value = Self::output_value(&val, *at)?;
                    self.output.push(OutputItem::Scalar {
                        name: name.to_owned(),
                        value,
                    });
                }
                Expr::Call(a, ranges) if a == "output_array" => {
                    let items = Self::elements(&val, *at)?;
                    let ranges = match ranges.first() {
                        Some((Expr::Array(list), _)) => list
                            .iter()
                            .map(|(e, p)| match e {
                                Expr::Range(l, h) => Ok((*l, *h)),
                                _ => Err(FznError::at(*p, "output_array: expected ranges")),
                            })
                            .collect::<Result<Vec<_>, _>>()?,
                        _ => {
                            return Err(FznError::at(
                                *at,
                                "output_array: expected a list of ranges",
                            ));
                        }
                    };
                    let shape: Option<i128> = ranges.iter().try_fold(1i128, |n, &(l, h)| {
                        let len = (i128::from(h) - i128::from(l) + 1).max(0);
                        n.checked_mul(len)
                    });
                    if shape != Some(items.len() as i128) {
                        return Err(FznError::at(
                            *at,
                            format!(
                                "output_array of `{name}`: its index sets hold {} elements, the \
                                 array {}",
                                shape.map_or_else(|| "too many".to_owned(), |n| n.to_string()),
                                items.len()
                            ),
                        ));
                    }
                    let values = items
                        .iter()
                        .map(|v| Self::output_value(&v, *at))
                        .collect::<Result<_, _>>()?;
                    self.output.push(OutputItem::Array {
                        name: name.to_owned(),
                        ranges,
                        values,
                    });
                }
                _ => {}
            }
        }
        self.env.insert(name.to_owned(), val);
        Ok(())
    }

    fn output_value(value: &Val<'a>, pos: Pos) -> Result<OutputValue, FznError> {
        match value {
            Val::Var(var, is_bool) => Ok(OutputValue::Var(*var, *is_bool)),
            Val::Int(v) => Ok(OutputValue::Int(*v)),
            Val::Bool(b) => Ok(OutputValue::Bool(*b)),
            _ => Err(FznError::unsupported(
                pos,
                "only integer and boolean outputs are supported",
            )),
        }
    }

    /// Ignores a search annotation with a choice cspkit does not know, as the FlatZinc
    /// specification asks, with a warning.
    fn ignore(&mut self, at: Pos, name: &str, what: &str, choice: &str) -> Result<(), FznError> {
        self.warnings.push(format!(
            "line {}: {name} ignored: cspkit does not know the {what} `{choice}`",
            at.line
        ));
        Ok(())
    }

    fn search_annotation(&mut self, annotation: &'a Expr, pos: Pos) -> Result<(), FznError> {
        let Expr::Call(name, args) = annotation else {
            return Ok(()); // other annotations (e.g. `restart_none`) are ignored
        };
        match name.as_str() {
            "seq_search" => {
                if let Some((Expr::Array(items), _)) = args.first() {
                    for (item, at) in items {
                        self.search_annotation(item, *at)?;
                    }
                }
                Ok(())
            }
            "int_search" | "bool_search" => {
                if args.len() < 3 {
                    return Err(FznError::at(
                        pos,
                        format!("{name}: expected variables, a variable choice and a value choice"),
                    ));
                }
                let vars = self.resolve(&args[0].0, args[0].1)?;
                let vars = self.vars(&vars, pos)?;
                let choice = |e: &Expr| match e {
                    Expr::Ident(s) => s.clone(),
                    _ => String::new(),
                };
                let var_choice = match choice(&args[1].0).as_str() {
                    "input_order" => VarChoice::InputOrder,
                    "first_fail" => VarChoice::FirstFail,
                    "dom_w_deg" => VarChoice::DomWdeg,
                    "most_constrained" => VarChoice::MostConstrained,
                    "occurrence" => VarChoice::Occurrence,
                    "anti_first_fail" => VarChoice::AntiFirstFail,
                    "smallest" => VarChoice::Smallest,
                    "largest" => VarChoice::Largest,
                    other => {
                        return self.ignore(args[1].1, name, "variable choice", other);
                    }
                };
                let value_choice = match choice(&args[2].0).as_str() {
                    "indomain_min" | "indomain" | "indomain_interval" => ValueChoice::Min,
                    "indomain_split" => ValueChoice::Split,
                    "indomain_max" | "indomain_reverse_split" => ValueChoice::Max,
                    "indomain_median" | "indomain_middle" => ValueChoice::Median,
                    "indomain_random" => ValueChoice::Random,
                    other => {
                        return self.ignore(args[2].1, name, "value choice", other);
                    }
                };
                self.search.push(SearchGroup {
                    vars,
                    var_choice,
                    value_choice,
                });
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

/// Where an item comes from in the MiniZinc model, as its `mzn_path` annotation says (MiniZinc
/// writes it with `--keep-paths`): segments `file|line|column|line|column|kind|detail;`, from
/// the outermost expression in; the kinds read here are calls (`ca`), operators (`bin`, `un`)
/// and the bindings of comprehensions (`i=2`).
#[derive(Debug, PartialEq)]
struct Origin {
    /// The file's name, without its folders.
    file: String,
    /// The line of the outermost expression.
    line: u32,
    /// The outermost call or operator: `all_different`, `'<'`.
    what: String,
    /// The innermost operator, if there is one besides `what`: `'+'` in `q[i] + i`.
    op: Option<String>,
    /// The comprehensions' bindings, outermost first: `i=2`.
    bindings: Vec<String>,
}

impl Origin {
    /// `all_different (queens.mzn:10)`, `'<' (futoshiki.mzn:17, i=2, j=3)`, `'+' in
    /// all_different (queens.mzn:10, i=1)`.
    fn constraint_label(&self) -> String {
        let mut label = match &self.op {
            Some(op) => format!("{op} in {}", self.what),
            None => self.what.clone(),
        };
        label.push_str(&format!(" ({}:{}", self.file, self.line));
        for binding in &self.bindings {
            label.push_str(", ");
            label.push_str(binding);
        }
        label.push(')');
        label
    }

    /// `all_different@10[i=1]`: short, as a trace names a variable at each line.
    fn var_name(&self) -> String {
        if self.bindings.is_empty() {
            format!("{}@{}", self.what, self.line)
        } else {
            format!("{}@{}[{}]", self.what, self.line, self.bindings.join(","))
        }
    }
}

/// The [`Origin`] in `annotations`, if they hold a `mzn_path` that reads as one.
fn origin(annotations: &[(Expr, Pos)]) -> Option<Origin> {
    let path = annotations
        .iter()
        .find_map(|(annotation, _)| match annotation {
            Expr::Call(name, args) if name == "mzn_path" => match args.first() {
                Some((Expr::Str(path), _)) => Some(path.as_str()),
                _ => None,
            },
            _ => None,
        })?;
    let mut origin: Option<Origin> = None;
    let mut bindings = Vec::new();
    let mut op = None;
    for segment in path.split(';').filter(|s| !s.is_empty()) {
        let fields: Vec<&str> = segment.split('|').collect();
        let (Some(file), Some(line), Some(kind)) = (fields.first(), fields.get(1), fields.get(5))
        else {
            continue;
        };
        let detail = fields.get(6).copied().unwrap_or("");
        // The conjunctions `forall` makes say nothing of the expression.
        if matches!(*kind, "bin" | "un") && !matches!(detail, "" | "'/\\'") && origin.is_some() {
            op = Some(detail.to_owned());
        }
        let what = match *kind {
            // A call's name may carry a prefix up to `@` (`\\4@all_different`); `forall` and
            // `exists` only hold the expressions that say something.
            "ca" => match detail.rsplit('@').next().unwrap_or(detail) {
                "forall" | "exists" => continue,
                name => name,
            },
            "bin" | "un" => detail,
            binding if binding.contains('=') => {
                bindings.push(binding.to_owned());
                continue;
            }
            _ => continue,
        };
        if what.is_empty() || origin.is_some() {
            continue;
        }
        origin = Some(Origin {
            file: file.rsplit(['/', '\\']).next().unwrap_or(file).to_owned(),
            line: line.parse().ok()?,
            what: what.to_owned(),
            op: None,
            bindings: Vec::new(),
        });
    }
    let mut origin = origin?;
    origin.bindings = bindings;
    origin.op = op;
    Some(origin)
}

/// Names each variable of an output array that MiniZinc introduced (`X_INTRODUCED_17_`) after
/// the array and its indices, as the model writes it: `q[3]`, `x[2,5]`. A variable in two
/// arrays keeps the first name.
fn name_output_elements(model: &mut Model, output: &[OutputItem]) {
    let mut named = std::collections::HashSet::new();
    for item in output {
        let OutputItem::Array {
            name,
            ranges,
            values,
        } = item
        else {
            continue;
        };
        for (position, value) in values.iter().enumerate() {
            let OutputValue::Var(var, _) = *value else {
                continue;
            };
            let current = model.var_name(var);
            let introduced = current.starts_with("X_INTRODUCED_");
            if !introduced || !named.insert(var) {
                continue;
            }
            // Row-major: the last index varies fastest.
            let mut rest = position as i64;
            let mut indices = vec![0i64; ranges.len()];
            for (slot, &(low, high)) in indices.iter_mut().zip(ranges).rev() {
                let len = (high - low + 1).max(1);
                *slot = low + rest % len;
                rest /= len;
            }
            let indices: Vec<String> = indices.iter().map(i64::to_string).collect();
            model.set_name(var, format!("{name}[{}]", indices.join(",")));
        }
    }
}

/// Builds the cspkit model of FlatZinc `items`.
///
/// # Errors
///
/// A [`FznError`] naming the item's line: an unknown name, a wrong argument, an unsupported
/// constraint or type (`unsupported` set), a model error (an empty domain, an overflow).
pub fn build(items: &[Item]) -> Result<FznModel, FznError> {
    let mut builder = Builder {
        model: Model::new(),
        env: HashMap::new(),
        constants: HashMap::new(),
        output: Vec::new(),
        goal: None,
        search: Vec::new(),
        clamped: Vec::new(),
        warnings: Vec::new(),
        start_times: Vec::new(),
        is_start_time: HashSet::new(),
        label: String::new(),
    };
    // Readable names for the variables MiniZinc introduced: where the model's source says
    // they come from (`mzn_path`), else the constraint that defines them (`defines_var`).
    let mut introduced: Vec<(&str, Option<String>)> = Vec::new();
    let mut defined_by: HashMap<&str, String> = HashMap::new();
    // The variables declared one by one, without a value: the search gives them theirs.
    let mut free: Vec<&str> = Vec::new();
    for item in items {
        match item {
            Item::Decl {
                name,
                annotations,
                var,
                array,
                value,
                ..
            } => {
                builder.label = format!("the declaration of {name}");
                if *var && array.is_none() && value.is_none() {
                    free.push(name);
                }
                if name.starts_with("X_INTRODUCED_") {
                    introduced.push((name, origin(annotations).map(|o| o.var_name())));
                }
                match builder.declare(item) {
                    Err(error) if error.infeasible => builder.post_false(error.pos)?,
                    result => result?,
                }
            }
            Item::Constraint {
                name,
                args,
                annotations,
                pos,
            } => {
                builder.label = origin(annotations).map_or_else(
                    || format!("{name} (line {})", pos.line),
                    |origin| origin.constraint_label(),
                );
                for (annotation, _) in annotations {
                    if let Expr::Call(a, defined) = annotation
                        && a == "defines_var"
                        && let Some((Expr::Ident(var), _)) = defined.first()
                    {
                        defined_by
                            .entry(var.as_str())
                            .or_insert_with(|| format!("{name}@{}", pos.line));
                    }
                }
                match builder.constraint(name, args, *pos) {
                    Err(error) if error.infeasible => builder.post_false(*pos)?,
                    result => result?,
                }
            }
            Item::Solve {
                goal,
                annotations,
                pos,
            } => {
                if builder.goal.is_some() {
                    return Err(FznError::at(*pos, "a second solve item"));
                }
                for (annotation, at) in annotations {
                    builder.search_annotation(annotation, *at)?;
                }
                builder.goal = Some(match goal {
                    None => Goal::Satisfy,
                    Some(((expr, at), minimize)) => {
                        let value = builder.resolve(expr, *at)?;
                        Goal::Optimize {
                            objective: builder.expr_of(&value, *at)?,
                            minimize: *minimize,
                        }
                    }
                });
            }
        }
    }
    let goal = builder
        .goal
        .ok_or_else(|| FznError::at(Pos { line: 1, column: 1 }, "the model has no solve item"))?;
    for (name, from_source) in introduced {
        if let (Some(Val::Var(var, _)), Some(label)) = (
            builder.env.get(name),
            from_source.or_else(|| defined_by.get(name).cloned()),
        ) {
            builder.model.set_name(*var, label);
        }
    }
    // A variable the output does not show, and that no constraint defines, can take several
    // values under one solution of the output's variables.
    let shown: std::collections::HashSet<VarId> = builder
        .output
        .iter()
        .flat_map(|item| match item {
            OutputItem::Scalar { value, .. } => std::slice::from_ref(value),
            OutputItem::Array { values, .. } => values.as_slice(),
        })
        .filter_map(|value| match *value {
            OutputValue::Var(var, _) => Some(var),
            _ => None,
        })
        .collect();
    let hidden = free.iter().any(|name| {
        !defined_by.contains_key(name)
            && matches!(builder.env.get(*name), Some(Val::Var(var, _)) if !shown.contains(var))
    });
    let independent = free
        .iter()
        .filter(|name| !defined_by.contains_key(*name))
        .filter_map(|name| match builder.env.get(*name) {
            Some(Val::Var(var, _)) => Some(*var),
            _ => None,
        })
        .collect();
    name_output_elements(&mut builder.model, &builder.output);
    Ok(FznModel {
        model: builder.model,
        goal,
        search: builder.search,
        output: builder.output,
        clamped: builder.clamped,
        warnings: builder.warnings,
        hidden,
        independent,
        start_times: builder.start_times,
    })
}
