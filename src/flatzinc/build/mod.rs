//! FlatZinc items to a cspkit [`Model`]: variables, the builtins, the solve item, the output.
//!
//! [`build`] reads the items in order with a `Builder`: `declarations` for parameters, variables
//! and arrays, `builtins` for the constraints (one table of names and functions, from which
//! [`SUPPORTED`] comes), `annotations` for the solve item's search annotations and the origin of
//! items in the MiniZinc model; `values` resolves the expressions they all read.

mod annotations;
mod builtins;
mod declarations;
mod values;

use std::collections::{HashMap, HashSet};

use crate::Constraint as _;
use crate::constraints::{Linear, Member};
use crate::error::{DomainError, ModelError};
use crate::flatzinc::parse::{Expr, FznError, Item, Pos};
use crate::ids::VarId;
use crate::model::{BoolVar, LinearExpr, Model};

use annotations::origin;
pub use builtins::SUPPORTED;
use declarations::name_output_elements;
use values::Val;

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
///
/// Read it through its methods: [`model`](FznModel::model()), [`goal`](FznModel::goal()),
/// [`output`](FznModel::output()), [`warnings`](FznModel::warnings()) and the others below.
/// The public fields are deprecated (since 0.3.0) and will become private.
///
/// # Examples
///
/// ```
/// use cspkit::flatzinc::{self, Goal};
///
/// let text = "var 1..3: x :: output_var;\n\
///             var 1..3: y;\n\
///             constraint int_lt(x, y);\n\
///             solve :: int_search([x], first_fail, indomain_min) minimize x;\n";
/// let fzn = flatzinc::build(&flatzinc::parse(text)?)?;
/// assert_eq!(fzn.model().num_variables(), 2);
/// assert!(matches!(fzn.goal(), Goal::Optimize { minimize: true, .. }));
/// assert_eq!(fzn.search().len(), 1);
/// assert_eq!(fzn.output().len(), 1);
/// // `y` is neither shown nor defined by a constraint.
/// assert!(fzn.has_hidden_variables());
/// assert_eq!(fzn.independent().len(), 2);
/// assert!(fzn.warnings().is_empty() && fzn.clamped().is_empty());
/// assert!(fzn.start_times().is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct FznModel {
    /// The model.
    #[deprecated(since = "0.3.0", note = "use `FznModel::model()`")]
    pub model: Model,
    /// What to solve for.
    #[deprecated(since = "0.3.0", note = "use `FznModel::goal()`")]
    pub goal: Goal,
    /// The search annotations, flattened from `seq_search`, in order.
    #[deprecated(since = "0.3.0", note = "use `FznModel::search()`")]
    pub search: Vec<SearchGroup>,
    /// What to print for each solution, in declaration order.
    #[deprecated(since = "0.3.0", note = "use `FznModel::output()`")]
    pub output: Vec<OutputItem>,
    /// The variables whose declared domain was clamped to 32 bits
    /// ([`FznModel::clamped()`]).
    #[deprecated(since = "0.3.0", note = "use `FznModel::clamped()`")]
    pub clamped: Vec<String>,
    /// What the model asked that cspkit ignored ([`FznModel::warnings()`]).
    #[deprecated(since = "0.3.0", note = "use `FznModel::warnings()`")]
    pub warnings: Vec<String>,
    /// Whether a variable is neither shown nor defined
    /// ([`FznModel::has_hidden_variables()`]).
    #[deprecated(since = "0.3.0", note = "use `FznModel::has_hidden_variables()`")]
    pub hidden: bool,
    /// The variables no constraint defines ([`FznModel::independent()`]).
    #[deprecated(since = "0.3.0", note = "use `FznModel::independent()`")]
    pub independent: Vec<VarId>,
    /// The start times of the tasks of fixed durations ([`FznModel::start_times()`]).
    #[deprecated(since = "0.3.0", note = "use `FznModel::start_times()`")]
    pub start_times: Vec<VarId>,
}

// The accessors are the one place that reads the deprecated fields, until they become private.
#[allow(
    deprecated,
    reason = "the accessors that replace the deprecated public fields"
)]
impl FznModel {
    /// The cspkit model: its variables (named as in the FlatZinc text, or after where MiniZinc
    /// made them) and constraints (labelled with the builtin and its line).
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// Renames `var` in the views of a search: FlatZinc numbers the elements of an output
    /// array (`colour[1]`), where the MiniZinc model may index it by an enum (`colour[WA]`).
    ///
    /// # Panics
    ///
    /// If `var` is not a variable of this model.
    pub fn rename_var(&mut self, var: VarId, name: impl Into<String>) {
        assert!(
            self.model.owns(var),
            "{var:?} is not a variable of this model"
        );
        self.model.set_name(var, name.into());
    }

    /// Names values of `var` in the views of a search, as [`Model::name_values`]: FlatZinc
    /// writes the values of a MiniZinc enum as numbers from 1.
    ///
    /// # Panics
    ///
    /// If `var` is not a variable of this model.
    pub fn name_values<S: AsRef<str>>(&mut self, var: VarId, first: i32, names: &[S]) {
        self.model.name_values(var, first, names);
    }

    /// What to solve for: satisfy, or minimise or maximise an objective.
    pub fn goal(&self) -> &Goal {
        &self.goal
    }

    /// The search annotations of the solve item, flattened from `seq_search`, in order (empty
    /// if the model has none: [`run`](crate::flatzinc::run) then searches freely).
    pub fn search(&self) -> &[SearchGroup] {
        &self.search
    }

    /// What to print for each solution, in declaration order (`output_var` and
    /// `output_array`).
    pub fn output(&self) -> &[OutputItem] {
        &self.output
    }

    /// The variables whose declared domain reached beyond cspkit's 32-bit integers (bounds
    /// MiniZinc computed for an intermediate expression, such as `x * x`), clamped to them.
    /// Every solution found is still a solution; but one that needs a value beyond 32 bits
    /// cannot be found, so [`solve`](crate::flatzinc::solve) then never claims that there is
    /// none, that all were listed, or that a best one is optimal.
    pub fn clamped(&self) -> &[String] {
        &self.clamped
    }

    /// What the model asked that cspkit does not do, and ignored (a search annotation it does
    /// not know), one line each with the line of the model.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Whether a variable is neither shown by the output nor defined by a constraint
    /// (`defines_var`): two solutions may then show the same values, and
    /// [`solve`](crate::flatzinc::solve) projects an all-solutions search on the
    /// [`shown_variables`](FznModel::shown_variables), so that each is printed once.
    pub fn has_hidden_variables(&self) -> bool {
        self.hidden
    }

    /// The variables declared one by one, without a value, that no constraint defines
    /// (`defines_var`), in declaration order: those a solution is made of, the others follow.
    pub fn independent(&self) -> &[VarId] {
        &self.independent
    }

    /// The start times of the tasks of the model's `disjunctive` and `cumulative` constraints
    /// whose durations (and demands and capacity) are constants, each once, in the order they
    /// first appear. In a scheduling model ([`FznModel::is_scheduling`]) the searches branch
    /// on them first, by smallest minimum ([`SmallestMinimum`](crate::SmallestMinimum)).
    pub fn start_times(&self) -> &[VarId] {
        &self.start_times
    }
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
    /// The builtin table ([`SUPPORTED`]), by name.
    builtins: HashMap<&'static str, builtins::Post>,
}

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
        builtins: builtins::by_name(),
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
    #[allow(
        deprecated,
        reason = "the crate builds the model, whose public fields are deprecated"
    )]
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
