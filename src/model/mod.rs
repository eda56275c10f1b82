//! The model: variables with their initial domains, and the constraints posted on them.
//!
//! A [`Model`] is the problem, never the state of a search: solving borrows it immutably, so
//! one model can be solved many times, with different strategies, even from several threads.
//! Every way of building a model that a user can get wrong returns a [`ModelError`].

mod arithmetic;
mod boolean;
mod linear_expr;
mod reify;
mod solution;

pub use boolean::BoolVar;
pub use linear_expr::LinearExpr;
pub use solution::Solution;

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::constraints::Constraint;
use crate::domain::{Domain, IntoDomain};
use crate::error::ModelError;
use crate::ids::{ConstraintId, VarId};
use crate::kernel::ModelView;

/// A constraint satisfaction problem: integer variables with finite domains, and constraints.
///
/// A clone is a copy of the problem that can be changed apart from the original: the
/// variables' handles ([`VarId`]) of the original are valid in the clone, and a variable or a
/// constraint added to one is not in the other. The two share one identity, so keep the
/// handles of variables declared after the clone with the model that declared them: the
/// `n`-th variable declared in each after cloning gets the same handle in both, and neither
/// model can tell the other's apart from its own. Posted constraints never change, so the clone
/// shares them with the original instead of copying them: cloning costs the domains and the
/// names, whatever the constraints hold (a table's tuples, a predicate's closure). A user
/// constraint with interior mutability (a `Mutex` inside) is shared too.
///
/// # Examples
///
/// ```
/// use cspkit::{AllDifferent, Model, Outcome};
///
/// let mut model = Model::new();
/// let xs = model.new_vars(3, 1..=3)?;
/// model.post(AllDifferent::new(&xs))?;
/// model.fix(xs[0], 2)?;
/// let Outcome::Solved(solution) = model.solve() else { panic!("no solution") };
/// assert_eq!(solution.values(), [2, 1, 3]);
///
/// // A variant of the problem, the original untouched.
/// let mut variant = model.clone();
/// variant.remove(xs[1], 1)?;
/// variant.remove(xs[1], 3)?;
/// assert_eq!(variant.solver().count().solutions, 0);
/// assert_eq!(model.solver().count().solutions, 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Model {
    id: u32,
    domains: Vec<Domain>,
    names: Vec<Option<Box<str>>>,
    degrees: Vec<u32>,
    /// Whether each variable was created by a modelling shortcut (`abs`, `reify`, …).
    auxiliary: Vec<bool>,
    /// Shared with the clones: a constraint is immutable once posted.
    constraints: Vec<Arc<dyn Constraint>>,
    labels: Vec<Option<Box<str>>>,
    /// The names of the values of each variable given some ([`Model::name_values`]); empty
    /// while none has.
    value_names: Vec<Option<ValueNames>>,
}

/// The names of consecutive values of a variable: `names[i]` names `first + i`. Shared by the
/// variables of one enum.
#[derive(Clone, Debug, PartialEq)]
struct ValueNames {
    first: i32,
    names: Arc<[Box<str>]>,
}

static NEXT_MODEL_ID: AtomicU32 = AtomicU32::new(0);

impl Model {
    /// An empty model.
    pub fn new() -> Self {
        Model {
            id: NEXT_MODEL_ID.fetch_add(1, Ordering::Relaxed),
            domains: Vec::new(),
            names: Vec::new(),
            degrees: Vec::new(),
            auxiliary: Vec::new(),
            constraints: Vec::new(),
            labels: Vec::new(),
            value_names: Vec::new(),
        }
    }

    /// Declares a variable with the given initial domain (a range such as `1..=9`, or any set of
    /// values as a slice, array or vector).
    ///
    /// # Errors
    ///
    /// [`ModelError::InvalidDomain`] if the domain is empty. Any range or set of `i32` values is
    /// a domain; those spanning more than [`Domain::MAX_SPAN`] integers are kept as bounds and
    /// holes (see [`Domain`]).
    pub fn new_var(&mut self, domain: impl IntoDomain) -> Result<VarId, ModelError> {
        self.declare(None, domain)
    }

    /// Declares a variable with a name, shown in messages, traces and [`Model::var_name`].
    ///
    /// # Errors
    ///
    /// As [`Model::new_var`].
    pub fn new_named_var(
        &mut self,
        name: impl Into<String>,
        domain: impl IntoDomain,
    ) -> Result<VarId, ModelError> {
        self.declare(Some(name.into()), domain)
    }

    /// Declares `count` variables with the same initial domain.
    ///
    /// # Errors
    ///
    /// As [`Model::new_var`].
    pub fn new_vars(
        &mut self,
        count: usize,
        domain: impl IntoDomain,
    ) -> Result<Vec<VarId>, ModelError> {
        let domain = checked_domain(domain, || format!("x{}", self.domains.len()))?;
        (0..count)
            .map(|_| self.declare(None, domain.clone()))
            .collect()
    }

    /// Declares `count` variables named `name[0]`, `name[1]`, … with the same initial domain.
    ///
    /// # Errors
    ///
    /// As [`Model::new_var`].
    pub fn new_named_vars(
        &mut self,
        name: impl Into<String>,
        count: usize,
        domain: impl IntoDomain,
    ) -> Result<Vec<VarId>, ModelError> {
        let name = name.into();
        let domain = checked_domain(domain, || format!("{name}[0]"))?;
        (0..count)
            .map(|i| self.declare(Some(format!("{name}[{i}]")), domain.clone()))
            .collect()
    }

    /// Declares a grid of `rows × cols` variables with the same initial domain, named
    /// `name[r][c]` (from 0), and returns it row by row: `grid[r][c]`.
    ///
    /// ```
    /// use cspkit::{AllDifferent, Model};
    ///
    /// let mut model = Model::new();
    /// let cell = model.new_grid("cell", 2, 3, 1..=6)?;
    /// model.post(AllDifferent::new(&cell.concat()))?;
    /// assert_eq!(model.var_name(cell[1][2]), "cell[1][2]");
    /// assert_eq!(model.var_by_name("cell[0][1]"), Some(cell[0][1]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Model::new_var`].
    pub fn new_grid(
        &mut self,
        name: impl Into<String>,
        rows: usize,
        cols: usize,
        domain: impl IntoDomain,
    ) -> Result<Vec<Vec<VarId>>, ModelError> {
        let name = name.into();
        let domain = checked_domain(domain, || format!("{name}[0][0]"))?;
        (0..rows)
            .map(|r| {
                (0..cols)
                    .map(|c| self.declare(Some(format!("{name}[{r}][{c}]")), domain.clone()))
                    .collect()
            })
            .collect()
    }

    /// The first variable declared with the name `name`, if any (a linear search).
    ///
    /// With it a solution can be read by name: `solution[model.var_by_name("x").unwrap()]`.
    pub fn var_by_name(&self, name: &str) -> Option<VarId> {
        let index = self.names.iter().position(|n| n.as_deref() == Some(name))?;
        Some(VarId {
            model: self.id,
            index: index as u32,
        })
    }

    fn declare(
        &mut self,
        name: Option<String>,
        domain: impl IntoDomain,
    ) -> Result<VarId, ModelError> {
        let index = self.domains.len() as u32;
        let domain = checked_domain(domain, || {
            name.clone().unwrap_or_else(|| format!("x{index}"))
        })?;
        self.domains.push(domain);
        self.names.push(name.map(String::into_boxed_str));
        self.degrees.push(0);
        self.auxiliary.push(false);
        Ok(VarId {
            model: self.id,
            index,
        })
    }

    /// Declares a variable for a modelling shortcut's result or its inner workings: unnamed,
    /// and left out of [`Model::display_solution`].
    pub(crate) fn new_auxiliary(&mut self, domain: impl IntoDomain) -> Result<VarId, ModelError> {
        let var = self.declare(None, domain)?;
        self.auxiliary[var.index()] = true;
        Ok(var)
    }

    /// Whether `var` was created by a modelling shortcut rather than declared: the result
    /// variables of [`Model::var_for`], [`Model::abs`], [`Model::times`] and the other
    /// operations, [`Model::product`], [`Model::min`], [`Model::max`], the booleans of
    /// [`Model::reify`], [`Model::reify_in`] and [`Model::reify_constraint`], and the booleans
    /// reification makes for itself. [`Model::display_solution`] leaves them out.
    ///
    /// # Panics
    ///
    /// If `var` is not a variable of this model.
    pub fn is_auxiliary(&self, var: VarId) -> bool {
        assert!(self.owns(var), "{var:?} is not a variable of this model");
        self.auxiliary[var.index()]
    }

    /// Posts a constraint.
    ///
    /// # Errors
    ///
    /// [`ModelError::EmptyScope`] if the scope is empty, [`ModelError::ForeignVariable`] if it
    /// names a variable of another model; any error of the constraint's own
    /// [`prepare`](Constraint::prepare).
    pub fn post(
        &mut self,
        constraint: impl Constraint + 'static,
    ) -> Result<ConstraintId, ModelError> {
        self.post_boxed(None, Box::new(constraint))
    }

    /// Posts a constraint with a label for messages and traces (`"row 3"`), instead of its
    /// type's name.
    ///
    /// # Errors
    ///
    /// As [`Model::post`].
    pub fn post_named(
        &mut self,
        label: impl Into<String>,
        constraint: impl Constraint + 'static,
    ) -> Result<ConstraintId, ModelError> {
        self.post_boxed(Some(label.into()), Box::new(constraint))
    }

    /// Posts a boxed constraint, as [`Model::post_named`] (with an optional label).
    ///
    /// # Errors
    ///
    /// As [`Model::post`].
    pub fn post_boxed(
        &mut self,
        label: Option<String>,
        mut constraint: Box<dyn Constraint>,
    ) -> Result<ConstraintId, ModelError> {
        let describe = || {
            label
                .clone()
                .unwrap_or_else(|| constraint.name().to_owned())
        };
        let scope = constraint.scope();
        if scope.is_empty() {
            return Err(ModelError::EmptyScope {
                constraint: describe(),
            });
        }
        if let Some(&var) = scope.iter().find(|&&var| !self.owns(var)) {
            self.validate(var, &describe())?;
        }
        constraint.prepare(&self.view())?;
        for &var in constraint.scope() {
            self.degrees[var.index()] += 1;
        }
        let id = ConstraintId(self.constraints.len() as u32);
        self.constraints.push(Arc::from(constraint));
        self.labels.push(label.map(String::into_boxed_str));
        Ok(id)
    }

    /// Fixes a variable to a value (a given of a puzzle).
    ///
    /// # Errors
    ///
    /// [`ModelError::ForeignVariable`] for a variable of another model;
    /// [`ModelError::ValueNotInDomain`] if the value is not in the variable's domain.
    pub fn fix(&mut self, var: VarId, value: i32) -> Result<(), ModelError> {
        self.check_fix(var, value)?;
        self.domains[var.index()].fix_to(value, &mut |_, _| {});
        Ok(())
    }

    /// Whether `var = value` can be fixed: `var` is a variable of this model and `value` is in
    /// its domain.
    pub(crate) fn check_fix(&self, var: VarId, value: i32) -> Result<(), ModelError> {
        self.validate(var, "fix")?;
        if !self.domains[var.index()].contains(value) {
            return Err(ModelError::ValueNotInDomain {
                variable: self.var_name(var).into_owned(),
                value,
                domain: self.domains[var.index()].to_string(),
            });
        }
        Ok(())
    }

    /// Removes a value from a variable's initial domain. Removing a value that is not there does
    /// nothing.
    ///
    /// # Errors
    ///
    /// [`ModelError::ForeignVariable`] for a variable of another model;
    /// [`ModelError::DomainWipeout`] if it was the last value.
    pub fn remove(&mut self, var: VarId, value: i32) -> Result<(), ModelError> {
        self.validate(var, "remove")?;
        let domain = &mut self.domains[var.index()];
        if domain.contains(value) && domain.is_fixed() {
            return Err(ModelError::DomainWipeout {
                variable: self.var_name(var).into_owned(),
                value,
            });
        }
        domain.remove(value, &mut |_, _| {});
        Ok(())
    }

    fn validate(&self, var: VarId, context: &str) -> Result<(), ModelError> {
        if !self.owns(var) {
            return Err(ModelError::ForeignVariable {
                context: context.to_owned(),
                variable: format!("{var:?}"),
            });
        }
        Ok(())
    }

    /// Replaces the initial domain of `var` (a variable of this model, checked by the caller)
    /// with a narrower one.
    pub(crate) fn set_domain(&mut self, var: VarId, domain: Domain) {
        self.domains[var.index()] = domain;
    }

    /// A solution of this model written with the variables' names, in declaration order:
    /// `p[0] = 2, p[1] = 4, …` (a [`VarId`] alone cannot know its name; the model does).
    ///
    /// Only the variables declared with `new_var`, `new_vars`, `new_named_var`, `new_grid`,
    /// `new_bool`, … are written: those the modelling shortcuts create ([`Model::is_auxiliary`]:
    /// `var_for`, `abs`, `max`, the booleans of `reify`, …) are implementation, which a puzzle's
    /// answer seldom wants. [`Model::display_solution_of`] writes any list, auxiliary or not.
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::Model;
    ///
    /// let mut model = Model::new();
    /// let p = model.new_named_vars("p", 2, 1..=2)?;
    /// model.post(cspkit::NotEqual::new(p[0], p[1]))?;
    /// let gap = model.var_for(p[1] - p[0])?; // auxiliary: not shown
    /// let solution = model.solve().solution().unwrap();
    /// assert_eq!(model.display_solution(&solution), "p[0] = 1, p[1] = 2");
    /// assert_eq!(model.display_solution_of(&solution, &[p[1], gap]), "p[1] = 2, x2 = 1");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn display_solution(&self, solution: &Solution) -> String {
        let declared: Vec<VarId> = self
            .variables()
            .filter(|var| !self.auxiliary[var.index()])
            .collect();
        self.display_solution_of(solution, &declared)
    }

    /// The values of `vars` in `solution`, in the order given, written with the variables'
    /// names: `x = 3, y = 1`. A variable that is not one of the solved model's is left out.
    pub fn display_solution_of(&self, solution: &Solution, vars: &[VarId]) -> String {
        vars.iter()
            .filter(|&&var| self.owns(var))
            .filter_map(|&var| {
                let value = solution.get(var)?;
                Some(format!(
                    "{} = {}",
                    self.var_name(var),
                    self.value_name(var, value)
                ))
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Whether `var` is a variable of this model.
    #[inline]
    pub fn owns(&self, var: VarId) -> bool {
        var.model == self.id && var.index() < self.domains.len()
    }

    /// The number of variables.
    pub fn num_variables(&self) -> usize {
        self.domains.len()
    }

    /// The number of constraints.
    pub fn num_constraints(&self) -> usize {
        self.constraints.len()
    }

    /// The variables, in declaration order.
    pub fn variables(&self) -> impl ExactSizeIterator<Item = VarId> + '_ {
        (0..self.domains.len() as u32).map(|index| VarId {
            model: self.id,
            index,
        })
    }

    /// The initial domain of `var`.
    ///
    /// # Panics
    ///
    /// If `var` is not a variable of this model.
    pub fn domain(&self, var: VarId) -> &Domain {
        assert!(self.owns(var), "{var:?} is not a variable of this model");
        &self.domains[var.index()]
    }

    /// The name of `var`: the one it was declared with, or `x` and its index (`x3`).
    pub fn var_name(&self, var: VarId) -> Cow<'_, str> {
        self.view().var_name(var)
    }

    /// What a constraint sees of the model when it is posted.
    pub(crate) fn view(&self) -> ModelView<'_> {
        ModelView::new(self.id, &self.domains, &self.names)
    }

    /// The number of constraints whose scope holds `var` (its static degree).
    ///
    /// # Panics
    ///
    /// If `var` is not a variable of this model.
    pub fn degree(&self, var: VarId) -> usize {
        assert!(self.owns(var), "{var:?} is not a variable of this model");
        self.degrees[var.index()] as usize
    }

    /// The constraints, in posting order.
    pub fn constraints(&self) -> impl ExactSizeIterator<Item = (ConstraintId, &dyn Constraint)> {
        self.constraints
            .iter()
            .enumerate()
            .map(|(i, c)| (ConstraintId(i as u32), &**c))
    }

    pub(crate) fn constraint_list(&self) -> &[Arc<dyn Constraint>] {
        &self.constraints
    }

    /// The label of a constraint if it was posted with one, otherwise its type's name.
    ///
    /// # Panics
    ///
    /// If `id` does not name a constraint of this model.
    pub fn constraint_name(&self, id: ConstraintId) -> &str {
        match &self.labels[id.index()] {
            Some(label) => label,
            None => self.constraints[id.index()].name(),
        }
    }

    /// Whether `values` (one per variable, in declaration order) is a solution: every value in
    /// its variable's initial domain and every constraint's [`check`](Constraint::check) passed.
    pub fn is_solution(&self, values: &[i32]) -> bool {
        values.len() == self.domains.len()
            && values
                .iter()
                .zip(&self.domains)
                .all(|(&v, d)| d.contains(v))
            && self.violated_constraint(values).is_none()
    }

    /// The first constraint whose `check` rejects `values` (one per variable).
    pub(crate) fn violated_constraint(&self, values: &[i32]) -> Option<ConstraintId> {
        let mut scoped: smallvec::SmallVec<[i32; 16]> = smallvec::SmallVec::new();
        self.constraints.iter().enumerate().find_map(|(i, c)| {
            scoped.clear();
            scoped.extend(c.scope().iter().map(|v| values[v.index()]));
            (!c.check(&scoped)).then_some(ConstraintId(i as u32))
        })
    }

    /// Gives `var` the name `name` (the FlatZinc reader names the elements of an output array
    /// after it).
    pub(crate) fn set_name(&mut self, var: VarId, name: String) {
        if let Some(slot) = self.names.get_mut(var.index()) {
            *slot = Some(name.into_boxed_str());
        }
    }

    /// Names values of `var` for the views of a search (traces, trees, pages, solutions
    /// written by [`Model::display_solution`]): `names[i]` is the name of the value
    /// `first + i`; other values keep their numbers. A MiniZinc enum is named so: `enum Colour
    /// = {red, green, blue}` is 1, 2 and 3. The search itself is unchanged. Naming again
    /// replaces the names.
    ///
    /// # Panics
    ///
    /// If `var` is not a variable of this model.
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::Model;
    ///
    /// let mut model = Model::new();
    /// let wa = model.new_named_var("WA", 1..=3)?;
    /// model.name_values(wa, 1, &["red", "green", "blue"]);
    /// assert_eq!(model.value_name(wa, 3), "blue");
    /// assert_eq!(model.value_name(wa, 4), "4");
    /// assert_eq!(model.domain_text(wa, model.domain(wa)), "{red, green, blue}");
    /// # Ok::<(), cspkit::ModelError>(())
    /// ```
    pub fn name_values<S: AsRef<str>>(&mut self, var: VarId, first: i32, names: &[S]) {
        assert!(self.owns(var), "{var:?} is not a variable of this model");
        let names: Vec<Box<str>> = names.iter().map(|n| n.as_ref().into()).collect();
        // The variables of one enum share its names.
        let shared = self
            .value_names
            .iter()
            .rev()
            .flatten()
            .find(|known| known.first == first && *known.names == *names)
            .cloned();
        let named = shared.unwrap_or_else(|| ValueNames {
            first,
            names: names.into(),
        });
        if self.value_names.len() < self.domains.len() {
            self.value_names.resize(self.domains.len(), None);
        }
        self.value_names[var.index()] = Some(named);
    }

    /// The name of `value` as a value of `var`: the one [`Model::name_values`] gave it, or
    /// the number.
    pub fn value_name(&self, var: VarId, value: i32) -> Cow<'_, str> {
        let named = self.value_names.get(var.index()).and_then(|names| {
            let names = names.as_ref()?;
            let at = usize::try_from(i64::from(value) - i64::from(names.first)).ok()?;
            names.names.get(at)
        });
        match named {
            Some(name) => Cow::Borrowed(name),
            None => Cow::Owned(value.to_string()),
        }
    }

    /// The names [`Model::name_values`] gave the values of `var`: the first value named, and
    /// the names, shared by the variables named alike.
    pub(crate) fn value_names_of(&self, var: VarId) -> Option<(i32, &Arc<[Box<str>]>)> {
        let names = self.value_names.get(var.index())?.as_ref()?;
        Some((names.first, &names.names))
    }

    /// Whether some value of `var` has a name ([`Model::name_values`]).
    pub fn has_value_names(&self, var: VarId) -> bool {
        self.value_names
            .get(var.index())
            .is_some_and(Option::is_some)
    }

    /// `domain`, a domain of `var`, written with the names of its values: `{red, blue}`; as
    /// [`Domain`] writes itself (`{1..3, 5}`) if `var`'s values have no names.
    pub fn domain_text(&self, var: VarId, domain: &Domain) -> String {
        if !self.has_value_names(var) {
            return domain.to_string();
        }
        let names: Vec<Cow<'_, str>> = domain.iter().map(|v| self.value_name(var, v)).collect();
        format!("{{{}}}", names.join(", "))
    }

    pub(crate) fn initial_domains(&self) -> &[Domain] {
        &self.domains
    }

    pub(crate) fn id(&self) -> u32 {
        self.id
    }
}

impl Default for Model {
    fn default() -> Self {
        Model::new()
    }
}

impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Model")
            .field("variables", &self.domains.len())
            .field("constraints", &self.constraints.len())
            .finish_non_exhaustive()
    }
}

/// Builds a domain, or the error naming the variable it was meant for.
fn checked_domain(
    domain: impl IntoDomain,
    variable: impl FnOnce() -> String,
) -> Result<Domain, ModelError> {
    domain
        .into_domain()
        .map_err(|source| ModelError::InvalidDomain {
            variable: variable(),
            source,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AllDifferent, DomainError, NotEqual};

    #[test]
    fn variables_of_another_model_are_rejected() {
        let mut a = Model::new();
        let mut b = Model::new();
        let x = a.new_var(0..3).unwrap();
        let y = b.new_var(0..3).unwrap();
        let _ = b.new_var(0..3).unwrap();
        assert!(matches!(
            b.post(NotEqual::new(x, y)),
            Err(ModelError::ForeignVariable { .. })
        ));
        assert!(matches!(
            b.fix(x, 1),
            Err(ModelError::ForeignVariable { .. })
        ));
        assert_eq!(b.num_constraints(), 0);
    }

    #[test]
    fn empty_scopes_are_rejected_and_repeated_variables_accepted() {
        let mut m = Model::new();
        let x = m.new_named_var("cell", 1..=4).unwrap();
        let y = m.new_var(1..=4).unwrap();
        assert!(matches!(
            m.post(AllDifferent::new(&[])),
            Err(ModelError::EmptyScope { .. })
        ));
        // x twice in one all-different: no solution, found by propagation.
        m.post(AllDifferent::new(&[x, y, x])).unwrap();
        assert_eq!(m.solver().count().solutions, 0);
    }

    #[test]
    fn bad_domains_and_values_are_errors_naming_the_variable() {
        let mut m = Model::new();
        let err = m.new_named_var("q", Vec::new()).unwrap_err();
        assert_eq!(
            err,
            ModelError::InvalidDomain {
                variable: "q".into(),
                source: DomainError::Empty
            }
        );
        let x = m.new_var([1, 3]).unwrap();
        let err = m.fix(x, 2).unwrap_err();
        assert_eq!(
            err.to_string(),
            "variable x0 cannot take the value 2: it is not in its domain {1, 3}"
        );
        m.remove(x, 1).unwrap();
        assert!(matches!(
            m.remove(x, 3),
            Err(ModelError::DomainWipeout { .. })
        ));
    }

    #[test]
    fn arrays_and_grids_are_named_by_their_indices_and_found_by_name() {
        let mut m = Model::new();
        let xs = m.new_named_vars("x", 3, 0..=1).unwrap();
        let grid = m.new_grid("cell", 2, 3, 1..=6).unwrap();
        assert_eq!(m.var_name(xs[2]), "x[2]");
        assert_eq!((grid.len(), grid[1].len()), (2, 3));
        assert_eq!(m.var_name(grid[1][0]), "cell[1][0]");
        assert_eq!(m.var_by_name("cell[0][2]"), Some(grid[0][2]));
        assert_eq!(m.var_by_name("cell[2][0]"), None);
        let err = m.new_grid("empty", 2, 2, Vec::new()).unwrap_err();
        assert_eq!(err.to_string(), "variable empty[0][0]: the domain is empty");
        assert_eq!(m.num_variables(), 9);
    }

    #[test]
    fn degree_counts_the_constraints_on_a_variable() {
        let mut m = Model::new();
        let xs = m.new_vars(3, 0..3).unwrap();
        m.post(AllDifferent::new(&xs)).unwrap();
        m.post(NotEqual::new(xs[0], xs[1])).unwrap();
        assert_eq!(m.degree(xs[0]), 2);
        assert_eq!(m.degree(xs[2]), 1);
    }
}
