//! `RawModel`: the library's `Model` and its variables by index, with the searches.

use std::sync::Arc;

use cspkit::{
    AllDifferent, Circuit, Comparison, Element, GlobalCardinality, Inverse, LexLessEq, LinearExpr,
    Model, Optimum, Outcome, Table, VarId,
};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::errors::raised;
use crate::options::SearchOptions;
use crate::run::interruptible;
use crate::solutions::RawSolutions;
use crate::spec::{self, Literal, Reader, Spec};
use crate::stats::stats_dict;

/// What `optimize` answers: status, values of the best solution, its objective, statistics.
type Optimized<'py> = (String, Option<Vec<i32>>, Option<i64>, Bound<'py, PyDict>);

/// A model under construction: variables (by index, in declaration order) and constraints.
///
/// Searches read a snapshot of the model, so it may be changed while a solution iterator
/// of an earlier state is still alive.
#[pyclass(module = "cspkit._cspkit")]
#[derive(Debug, Clone, Default)]
pub struct RawModel {
    model: Arc<Model>,
    /// The model's variables by index (auxiliary ones included), for constant-time lookup.
    vars: Vec<VarId>,
}

impl RawModel {
    /// The model wrapping `model`.
    pub fn wrapping(model: Model) -> RawModel {
        let mut raw = RawModel {
            model: Arc::new(model),
            vars: Vec::new(),
        };
        raw.sync_vars();
        raw
    }

    /// The model, to change (copied first if a search still holds it).
    fn model_mut(&mut self) -> &mut Model {
        Arc::make_mut(&mut self.model)
    }

    /// Catches up the variable list with the model's variables (declared, or added by a
    /// constraint's decomposition).
    fn sync_vars(&mut self) {
        let known = self.vars.len();
        if self.model.num_variables() > known {
            self.vars.extend(self.model.variables().skip(known));
        }
    }

    /// Posts `constraint` and records any variable it added.
    fn post(&mut self, constraint: impl cspkit::Constraint + 'static) -> PyResult<()> {
        self.model_mut().post(constraint).map_err(raised)?;
        self.sync_vars();
        Ok(())
    }

    /// The variable with index `index`.
    fn var(&self, index: usize) -> PyResult<VarId> {
        self.vars.get(index).copied().ok_or_else(|| {
            raised(format!(
                "no variable with index {index} (the model has {})",
                self.vars.len()
            ))
        })
    }

    /// The variables with these indices.
    fn vars(&self, indices: &[usize]) -> PyResult<Vec<VarId>> {
        indices.iter().map(|&index| self.var(index)).collect()
    }

    /// The constraint of kind `kind` with arguments `args`, as Python describes it.
    fn spec(&self, kind: &str, args: &Bound<'_, PyTuple>) -> PyResult<Spec> {
        Reader {
            model: &self.model,
            vars: &self.vars,
            args,
        }
        .spec(kind)
    }

    /// The literal `(index, negated)` as the library's boolean.
    fn literal(&self, literal: Literal) -> PyResult<cspkit::BoolVar> {
        spec::literal(&self.model, &self.vars, literal)
    }

    /// Runs `change` on the model, then records any variable it added.
    fn change<T>(
        &mut self,
        change: impl FnOnce(&mut Model) -> Result<T, cspkit::ModelError>,
    ) -> PyResult<T> {
        let result = change(self.model_mut()).map_err(raised);
        self.sync_vars();
        result
    }

    /// The linear expression `sum(coefficient * var) + constant`.
    fn linear(&self, terms: &[(i64, usize)], constant: i64) -> PyResult<LinearExpr> {
        let terms = terms
            .iter()
            .map(|&(coefficient, index)| Ok((coefficient, self.var(index)?)))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(LinearExpr::new(&terms, constant))
    }
}

#[pymethods]
impl RawModel {
    /// An empty model.
    #[new]
    fn new() -> Self {
        RawModel::default()
    }

    /// Declares an integer variable with values `lo..=hi`; returns its index.
    #[pyo3(signature = (lo, hi, name=None))]
    fn int_var(&mut self, lo: i32, hi: i32, name: Option<String>) -> PyResult<usize> {
        let model = self.model_mut();
        let var = match name {
            Some(name) => model.new_named_var(name, lo..=hi),
            None => model.new_var(lo..=hi),
        }
        .map_err(raised)?;
        self.sync_vars();
        Ok(var.index())
    }

    /// Declares an integer variable whose domain is the given values (in any order,
    /// repeats allowed), named `name` if given; returns its index.
    #[pyo3(signature = (values, name=None))]
    fn int_var_in(&mut self, values: Vec<i32>, name: Option<String>) -> PyResult<usize> {
        let model = self.model_mut();
        let var = match name {
            Some(name) => model.new_named_var(name, values),
            None => model.new_var(values),
        }
        .map_err(raised)?;
        self.sync_vars();
        Ok(var.index())
    }

    /// Declares `count` integer variables with values `lo..=hi`, named `name[i]` if a name
    /// is given; returns the index of the first (the others follow).
    #[pyo3(signature = (count, lo, hi, name=None))]
    fn int_vars(
        &mut self,
        count: usize,
        lo: i32,
        hi: i32,
        name: Option<String>,
    ) -> PyResult<usize> {
        let first = self.model.num_variables();
        let model = self.model_mut();
        match name {
            Some(name) => model.new_named_vars(name, count, lo..=hi),
            None => model.new_vars(count, lo..=hi),
        }
        .map_err(raised)?;
        self.sync_vars();
        Ok(first)
    }

    /// Declares a boolean (0/1) variable; returns its index.
    #[pyo3(signature = (name=None))]
    fn bool_var(&mut self, name: Option<String>) -> PyResult<usize> {
        let model = self.model_mut();
        let var = match name {
            Some(name) => model.new_named_bool(name),
            None => model.new_bool(),
        }
        .map_err(raised)?;
        self.sync_vars();
        Ok(var.var().index())
    }

    /// The number of variables.
    fn num_variables(&self) -> usize {
        self.model.num_variables()
    }

    /// The number of constraints.
    fn num_constraints(&self) -> usize {
        self.model.num_constraints()
    }

    /// The name of the variable with index `index`.
    fn var_name(&self, index: usize) -> PyResult<String> {
        Ok(self.model.var_name(self.var(index)?).into_owned())
    }

    /// The smallest and largest values of the variable's declared domain.
    fn bounds(&self, index: usize) -> PyResult<(i32, i32)> {
        let domain = self.model.domain(self.var(index)?);
        match (domain.min(), domain.max()) {
            (Some(lo), Some(hi)) => Ok((lo, hi)),
            _ => Err(raised("the variable's domain is empty")),
        }
    }

    /// Posts `sum(coefficient * var) + constant <op> 0`, `op` one of `== != <= < >= >`.
    fn post_linear(&mut self, terms: Vec<(i64, usize)>, constant: i64, op: &str) -> PyResult<()> {
        let comparison = match op {
            "==" => Comparison::Eq,
            "!=" => Comparison::Ne,
            "<=" => Comparison::Le,
            "<" => Comparison::Lt,
            ">=" => Comparison::Ge,
            ">" => Comparison::Gt,
            _ => return Err(raised(format!("unknown comparison {op:?}"))),
        };
        let constraint = self.linear(&terms, constant)?.compare(comparison, 0i64);
        self.post(constraint)
    }

    /// Posts all-different over the variables.
    fn post_all_different(&mut self, vars: Vec<usize>) -> PyResult<()> {
        let vars = self.vars(&vars)?;
        self.post(AllDifferent::new(&vars))
    }

    /// Posts `array[index] == value` (0-based index).
    fn post_element(&mut self, array: Vec<i32>, index: usize, value: usize) -> PyResult<()> {
        let element = Element::new(&array, self.var(index)?, self.var(value)?);
        self.post(element)
    }

    /// Posts that the variables' values form one of the tuples.
    fn post_table(&mut self, vars: Vec<usize>, tuples: Vec<Vec<i32>>) -> PyResult<()> {
        let vars = self.vars(&vars)?;
        let table = Table::new(&vars, &tuples).map_err(raised)?;
        self.post(table)
    }

    /// Posts that the successors (0-based) form one Hamiltonian circuit.
    fn post_circuit(&mut self, vars: Vec<usize>) -> PyResult<()> {
        let vars = self.vars(&vars)?;
        self.post(Circuit::new(&vars))
    }

    /// Posts that `counts[k]` variables of `vars` take the value `values[k]`.
    fn post_global_cardinality(
        &mut self,
        vars: Vec<usize>,
        values: Vec<i32>,
        counts: Vec<usize>,
    ) -> PyResult<()> {
        let (vars, counts) = (self.vars(&vars)?, self.vars(&counts)?);
        let constraint = GlobalCardinality::new(&vars, &values, &counts).map_err(raised)?;
        self.post(constraint)
    }

    /// Posts `f[i] == j` if and only if `g[j] == i` (0-based).
    fn post_inverse(&mut self, f: Vec<usize>, g: Vec<usize>) -> PyResult<()> {
        let (f, g) = (self.vars(&f)?, self.vars(&g)?);
        let constraint = Inverse::new(&f, &g).map_err(raised)?;
        self.post(constraint)
    }

    /// Posts that `xs` is lexicographically less than or equal to `ys`.
    fn post_lex_less_eq(&mut self, xs: Vec<usize>, ys: Vec<usize>) -> PyResult<()> {
        let (xs, ys) = (self.vars(&xs)?, self.vars(&ys)?);
        self.post(LexLessEq::new(&xs, &ys))
    }

    /// Posts the constraint of kind `kind` described by `args` (variables by index).
    fn post_constraint(&mut self, kind: &str, args: &Bound<'_, PyTuple>) -> PyResult<()> {
        let spec = self.spec(kind, args)?;
        self.change(|model| spec::post(model, spec))
    }

    /// Posts `b <=> constraint` for the literal `(b, negated)`.
    fn reify_constraint(
        &mut self,
        kind: &str,
        args: &Bound<'_, PyTuple>,
        b: Literal,
    ) -> PyResult<()> {
        let spec = self.spec(kind, args)?;
        let b = self.literal(b)?;
        self.change(|model| spec::reify_into(model, spec, b))
    }

    /// Posts `b => constraint` for the literal `(b, negated)`.
    fn imply_constraint(
        &mut self,
        b: Literal,
        kind: &str,
        args: &Bound<'_, PyTuple>,
    ) -> PyResult<()> {
        let spec = self.spec(kind, args)?;
        let b = self.literal(b)?;
        self.change(|model| spec::imply(model, b, spec))
    }

    /// Fixes the variable to `value`.
    fn fix(&mut self, index: usize, value: i32) -> PyResult<()> {
        let var = self.var(index)?;
        self.change(|model| model.fix(var, value))
    }

    /// A new variable equal to `sum(coefficient * var) + constant`; returns its index.
    fn var_for(&mut self, terms: Vec<(i64, usize)>, constant: i64) -> PyResult<usize> {
        let expr = self.linear(&terms, constant)?;
        self.change(|model| model.var_for(expr)).map(VarId::index)
    }

    /// A new variable `op(x, y)`, `op` one of `abs` (of `x`), `times`, `div`, `mod`, `pow`;
    /// returns its index.
    fn operation(&mut self, op: &str, x: usize, y: usize) -> PyResult<usize> {
        let (op, x, y) = (spec::operation(op)?, self.var(x)?, self.var(y)?);
        self.change(|model| model.operation(op, x, y))
            .map(VarId::index)
    }

    /// A new variable: the minimum (`maximum` false) or maximum of the variables.
    fn extremum(&mut self, vars: Vec<usize>, maximum: bool) -> PyResult<usize> {
        let vars = self.vars(&vars)?;
        self.change(|model| {
            if maximum {
                model.max(&vars)
            } else {
                model.min(&vars)
            }
        })
        .map(VarId::index)
    }

    /// A new variable: the product of the variables.
    fn product_of(&mut self, vars: Vec<usize>) -> PyResult<usize> {
        let vars = self.vars(&vars)?;
        self.change(|model| model.product(&vars)).map(VarId::index)
    }

    /// The names of the constraints posted (after the library's decomposition), in order.
    fn constraint_names(&self) -> Vec<String> {
        self.model
            .constraints()
            .map(|(_, constraint)| constraint.name().to_owned())
            .collect()
    }

    /// Whether the variable was added by the library (a decomposition), not declared.
    fn is_auxiliary(&self, index: usize) -> PyResult<bool> {
        Ok(self.model.is_auxiliary(self.var(index)?))
    }

    /// Searches for one solution: `(status, values or None, stats)`, status one of
    /// `"solved"`, `"infeasible"`, `"limit"`, with the limit's reason in the stats'
    /// `stopped_by`.
    #[pyo3(signature = (**options))]
    fn solve<'py>(
        &self,
        py: Python<'py>,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<(String, Option<Vec<i32>>, Bound<'py, PyDict>)> {
        let options = SearchOptions::from_keywords(options)?.without_objective()?;
        let (outcome, stats) = interruptible(py, Arc::clone(&self.model), options, |solver| {
            Ok(solver.next_solution())
        })?;
        let stats = stats_dict(py, &stats)?;
        Ok(match outcome {
            Outcome::Solved(solution) => ("solved".into(), Some(solution.values().to_vec()), stats),
            Outcome::LimitReached(limit) => {
                stats.set_item("stopped_by", limit.to_string())?;
                ("limit".into(), None, stats)
            }
            _ => ("infeasible".into(), None, stats),
        })
    }

    /// Counts the solutions: `(count, status, stats)`, status `"complete"` (the count is
    /// exact) or `"limit"` (a lower bound).
    #[pyo3(signature = (**options))]
    fn count<'py>(
        &self,
        py: Python<'py>,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<(u64, String, Bound<'py, PyDict>)> {
        let options = SearchOptions::from_keywords(options)?.without_objective()?;
        let (count, stats) = interruptible(py, Arc::clone(&self.model), options, |solver| {
            Ok(solver.count())
        })?;
        let stats = stats_dict(py, &stats)?;
        let status = match count.stopped_by {
            Some(limit) => {
                stats.set_item("stopped_by", limit.to_string())?;
                "limit"
            }
            None => "complete",
        };
        Ok((count.solutions, status.into(), stats))
    }

    /// Minimises (or maximises) `sum(coefficient * var) + constant` by branch and bound:
    /// `(status, values or None, objective or None, stats)`, status one of `"optimal"`,
    /// `"infeasible"`, `"limit"` (the best found, if any, not proved optimal).
    #[pyo3(signature = (terms, constant, maximize, **options))]
    fn optimize<'py>(
        &self,
        py: Python<'py>,
        terms: Vec<(i64, usize)>,
        constant: i64,
        maximize: bool,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Optimized<'py>> {
        let options = SearchOptions::from_keywords(options)?;
        let objective = self.linear(&terms, constant)?;
        let (optimum, stats) =
            interruptible(py, Arc::clone(&self.model), options, move |solver| {
                if maximize {
                    solver.maximize(objective)
                } else {
                    solver.minimize(objective)
                }
            })?;
        let stats = stats_dict(py, &stats)?;
        Ok(match optimum {
            Optimum::Optimal { solution, value } => (
                "optimal".into(),
                Some(solution.values().to_vec()),
                Some(value),
                stats,
            ),
            Optimum::BestFound {
                solution,
                value,
                bound,
                stopped_by,
            } => {
                stats.set_item("stopped_by", stopped_by.to_string())?;
                stats.set_item("bound", bound)?;
                (
                    "limit".into(),
                    Some(solution.values().to_vec()),
                    Some(value),
                    stats,
                )
            }
            Optimum::Unknown(limit) => {
                stats.set_item("stopped_by", limit.to_string())?;
                ("limit".into(), None, None, stats)
            }
            _ => ("infeasible".into(), None, None, stats),
        })
    }

    /// The solutions, lazily, as a `RawSolutions` iterator of value lists.
    #[pyo3(signature = (**options))]
    fn solutions(&self, options: Option<&Bound<'_, PyDict>>) -> PyResult<RawSolutions> {
        let options = SearchOptions::from_keywords(options)?.without_objective()?;
        Ok(RawSolutions::start(Arc::clone(&self.model), options))
    }
}

/// What the teaching views (`views.rs` and the files beside it) read of a model.
impl RawModel {
    /// The model as searches read it (shared, not copied).
    pub fn shared_model(&self) -> Arc<Model> {
        Arc::clone(&self.model)
    }
}
