//! The search configuration: every option of a search but its orders and its observer, as one
//! value ([`SearchConfig`]), and the one choice of inference ([`Propagation`]).
//!
//! A configuration is plain data: its builder methods chain and never fail, and it can be kept,
//! cloned and handed to many solvers. What only a model can tell (whether AC-3 can read it,
//! whether the variables named belong to it) is checked once, when a solver is made from it
//! ([`Model::solver_with`], [`Solver::with_config`]); the engine is then built from the checked
//! configuration, a [`Plan`], and reads it once, at construction.
//!
//! A new search option is a field of [`SearchConfig`] with its builder method and getter, and
//! the line of the engine (or of the solver) that reads it.
//!
//! [`Model::solver_with`]: crate::Model::solver_with
//! [`Solver::with_config`]: crate::Solver::with_config

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::constraint_graph::ConstraintGraph;
use super::limits::Limits;
use super::lns::Lns;
use super::restarts::RestartPolicy;
use super::{Branching, PropagationLevel};
use crate::ModelError;
use crate::ids::VarId;
use crate::model::Model;

/// The inference after each decision: how much the constraints prune, and by which algorithm.
///
/// Three are the levels every constraint offers ([`PropagationLevel`], which converts into
/// this); two are textbook algorithms that replace the constraints' own propagation, for
/// teaching and for comparing against the books. Names as the command line's `--propagation`
/// writes them: `none`, `fc`, `forward`, `full` (or `mac`), `ac3`.
///
/// # Examples
///
/// ```
/// use cspkit::models::queens::Queens;
/// use cspkit::{Propagation, PropagationLevel, SearchConfig};
///
/// let queens = Queens::new(6)?;
/// for propagation in Propagation::ALL {
///     let config = SearchConfig::new().with_propagation(propagation);
///     let mut solver = queens.model().solver_with(config)?;
///     assert_eq!(solver.count().solutions, 4, "{propagation}");
/// }
/// // A level is a propagation.
/// assert_eq!(Propagation::from(PropagationLevel::Forward), Propagation::Forward);
/// assert_eq!("mac".parse::<Propagation>()?, Propagation::Full);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Propagation {
    /// Check only ([`PropagationLevel::None`]): a constraint fails once the variables fixed
    /// so far violate it, and prunes nothing. Plain backtracking.
    None,
    /// Forward checking as the textbooks define it (AIMA's FORWARD-CHECKING), instead of the
    /// constraints' own propagation.
    ///
    /// After each decision `x = v`, and only then, each constraint on `x` removes from each
    /// other variable of its scope not yet assigned the values that clash with `x = v` (the
    /// pair alone, the rest of the scope left free: exactly the neighbours' inconsistent
    /// values for binary constraints, and for all-different read as pairwise `≠`). Nothing is
    /// propagated from a variable this leaves with one value, and every variable is assigned
    /// by a decision of its own, fixed or not, as the textbooks count assignments. A domain
    /// emptied is a failure. Otherwise the constraints only check, as with
    /// [`Propagation::None`]. (Parallel searches run without it: the same solutions, other
    /// node counts.)
    TextbookForward,
    /// Forward checking that goes on from the variables it fixes
    /// ([`PropagationLevel::Forward`]).
    Forward,
    /// Each constraint's strongest filtering, to a fixpoint, after every decision and
    /// refutation: MAC ([`PropagationLevel::Full`], the default).
    #[default]
    Full,
    /// MAC with AC-3 as the textbooks write it (Mackworth 1977; AIMA's AC-3 and MAC), instead
    /// of the constraints' own propagation.
    ///
    /// The model's constraints are read as a [`ConstraintGraph`]: binary constraints, and
    /// all-different as its pairwise `≠` decomposition; a model with another constraint on
    /// more than two variables, or a variable with more than 4096 values, is refused with
    /// [`ModelError::NotForAc3`] when a solver is made. At the root AC-3 starts from every
    /// arc, in the graph's documented order; after each branch on `x` (a decision or its
    /// refutation), from the arcs `(Xk, x)` of the neighbours of `x` still unfixed (not yet
    /// assigned, under [`Counting::Aima`], the default with [`Branching::DWay`]).
    /// REVISE(Xi, Xj) removes from `Xi` every value with no value of `Xj` allowed by the
    /// constraints between them; when it removes any, the arcs `(Xk, Xi)`, `k ≠ j`, join the
    /// end of the queue unless already in it (first in, first out). A domain emptied is a
    /// failure. The observer receives [`Event::ArcQueue`](crate::Event::ArcQueue) and one
    /// [`Event::Revise`](crate::Event::Revise) per revision;
    /// [`SearchStats::revisions`](crate::SearchStats::revisions) and
    /// [`SearchStats::removals`](crate::SearchStats::removals) count them.
    ///
    /// For binary constraints this reaches the same fixpoint as [`Propagation::Full`]; on
    /// all-different, `Full` (Régin's matching) is stronger than the decomposition.
    Ac3,
}

impl Propagation {
    /// Every propagation, in the order of the command line's list: `none`, `fc`, `forward`,
    /// `full`, `ac3`.
    pub const ALL: [Propagation; 5] = [
        Propagation::None,
        Propagation::TextbookForward,
        Propagation::Forward,
        Propagation::Full,
        Propagation::Ac3,
    ];

    /// The name, as the command line and `--stats` write it: `none`, `fc`, `forward`, `full`,
    /// `ac3`.
    pub fn name(self) -> &'static str {
        match self {
            Propagation::None => "none",
            Propagation::TextbookForward => "fc",
            Propagation::Forward => "forward",
            Propagation::Full => "full",
            Propagation::Ac3 => "ac3",
        }
    }

    /// The level the constraints are set up at: [`PropagationLevel::None`] for `None` and
    /// `TextbookForward` (the constraints only check), `Forward`, and `Full` for `Full` and
    /// `Ac3` (AC-3 replaces the constraints' propagation; the level plays no part in it).
    pub fn level(self) -> PropagationLevel {
        match self {
            Propagation::None | Propagation::TextbookForward => PropagationLevel::None,
            Propagation::Forward => PropagationLevel::Forward,
            Propagation::Full | Propagation::Ac3 => PropagationLevel::Full,
        }
    }
}

impl From<PropagationLevel> for Propagation {
    fn from(level: PropagationLevel) -> Self {
        match level {
            PropagationLevel::None => Propagation::None,
            PropagationLevel::Forward => Propagation::Forward,
            PropagationLevel::Full => Propagation::Full,
        }
    }
}

impl std::fmt::Display for Propagation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Propagation {
    type Err = crate::ParseNameError;

    /// `none`, `fc`, `forward`, `full`, `mac` (the textbooks' name for `full`) or `ac3`.
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        // `mac` is the one alias; an error names what was given, since only `mac` changes.
        let given = if name == "mac" { "full" } else { name };
        let names = Propagation::ALL.map(|propagation| (propagation.name(), propagation));
        let expected = &["none", "fc", "forward", "full", "mac", "ac3"];
        crate::error::parse_name("propagation", given, &names, expected)
    }
}

/// Which variables the search assigns by a decision of its own, and so what its counts mean:
/// cspkit's convention, or the textbook's (AIMA's BACKTRACKING-SEARCH).
///
/// - [`Counting::Cspkit`]: a variable that propagation left with one value is fixed, and the
///   search never branches on it. The fewest decisions for the inference.
/// - [`Counting::Aima`]: every variable is assigned by a decision of its own, in the variable
///   order, even when propagation already fixed it (the decision then has one value to try,
///   and the trace says so: `SA = 3 (only value left)`). With [`Propagation::Ac3`], the
///   queue after a decision on `x` holds the arcs `(Xk, x)` of the neighbours of `x` not yet
///   assigned, fixed or not, as AIMA's MAC writes it. [`SearchStats::decisions`],
///   [`SearchStats::nassigns`] and [`SearchStats::revisions`] are then what AIMA's
///   BACKTRACKING-SEARCH with FORWARD-CHECKING or MAC counts on the same problem and orders
///   (with [`Branching::DWay`], the book's tree; AC-3 also runs once on every arc before the
///   first decision, and its revisions count).
///
/// The default depends on the inference: `Aima` for [`Propagation::TextbookForward`] (which
/// only ever propagates from a decision, so it needs every variable decided: it ignores
/// `Cspkit`) and for [`Propagation::Ac3`] with [`Branching::DWay`] (the book's MAC on the
/// book's tree); `Cspkit` otherwise. Names as the command line's `--count-as` writes them:
/// `cspkit`, `aima`.
///
/// # Examples
///
/// ```
/// use cspkit::models::colouring::Colouring;
/// use cspkit::{Branching, Counting, Propagation, SearchConfig};
///
/// // Australia, 3 colours, MAC with AC-3 on the book's tree: AIMA assigns all 7 regions.
/// let australia = Colouring::australia(3)?;
/// let config = SearchConfig::new()
///     .with_propagation(Propagation::Ac3)
///     .with_branching(Branching::DWay);
/// assert_eq!(config.counting(), Counting::Aima);
/// for (counting, decisions) in [(Counting::Aima, 7), (Counting::Cspkit, 3)] {
///     let mut solver = australia
///         .model()
///         .solver_with(config.clone().with_counting(counting))?;
///     assert!(solver.next_solution().is_solved());
///     assert_eq!(solver.stats().decisions, decisions, "{counting}");
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// [`SearchStats::decisions`]: crate::SearchStats::decisions
/// [`SearchStats::nassigns`]: crate::SearchStats::nassigns
/// [`SearchStats::revisions`]: crate::SearchStats::revisions
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Counting {
    /// A variable propagation fixed is never branched on.
    Cspkit,
    /// Every variable is assigned by a decision of its own, as AIMA's BACKTRACKING-SEARCH
    /// does.
    Aima,
}

impl Counting {
    /// Both conventions, in the order of the command line's list: `cspkit`, `aima`.
    pub const ALL: [Counting; 2] = [Counting::Cspkit, Counting::Aima];

    /// The name, as the command line writes it: `cspkit`, `aima`.
    pub fn name(self) -> &'static str {
        match self {
            Counting::Cspkit => "cspkit",
            Counting::Aima => "aima",
        }
    }

    /// The convention a search with `propagation` and `branching` follows unless told
    /// otherwise: `Aima` for textbook forward checking, and for AC-3 with d-way branching;
    /// `Cspkit` otherwise.
    pub fn default_for(propagation: Propagation, branching: Branching) -> Counting {
        match (propagation, branching) {
            (Propagation::TextbookForward, _) | (Propagation::Ac3, Branching::DWay) => {
                Counting::Aima
            }
            _ => Counting::Cspkit,
        }
    }
}

impl std::fmt::Display for Counting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Counting {
    type Err = crate::ParseNameError;

    /// `cspkit` or `aima`.
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        let names = Counting::ALL.map(|counting| (counting.name(), counting));
        crate::error::parse_name("counting", name, &names, &["cspkit", "aima"])
    }
}

/// Every option of a search but its orders and its observer: propagation, branching, limits,
/// restarts, large-neighbourhood search, decision variables and projection.
///
/// Plain data: the builder methods chain and never fail; the default is the default search
/// (full propagation, [`Branching::Assign`], no limit, no restarts, every variable). Hand it to
/// [`Model::solver_with`] or [`Solver::with_config`], which check it against the model: that is
/// where it can fail, with [`ModelError::NotForAc3`] for [`Propagation::Ac3`] on a model AC-3
/// cannot read, or [`ModelError::ForeignVariable`] for a decision or projected variable of
/// another model. The solver's own `with_*` methods set the same options one at a time;
/// [`Solver::config`] reads them back.
///
/// A clone shares the cancellation flag, and the neighbourhoods' orders of an [`Lns`] (see
/// [`Lns`]): what dom/wdeg learns in one solver's neighbourhoods carries over to the next
/// solver made from a clone. Give each solver its own `Lns` for searches that must not
/// influence each other.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
///
/// use cspkit::models::queens::Queens;
/// use cspkit::{Branching, Propagation, SearchConfig, SmallestDomain};
///
/// let config = SearchConfig::new()
///     .with_propagation(Propagation::Forward)
///     .with_branching(Branching::DWay)
///     .with_decision_limit(100_000)
///     .with_time_limit(Duration::from_secs(10));
/// let queens = Queens::new(8)?;
/// let mut solver = queens
///     .model()
///     .solver_with(config.clone())?
///     .with_variable_order(SmallestDomain);
/// assert_eq!(solver.count().solutions, 92);
/// assert_eq!(solver.config().propagation(), Propagation::Forward);
/// assert_eq!(solver.config().decision_limit(), Some(100_000));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// [`Model::solver_with`]: crate::Model::solver_with
/// [`Solver::with_config`]: crate::Solver::with_config
/// [`Solver::config`]: crate::Solver::config
#[derive(Debug, Clone, Default)]
pub struct SearchConfig {
    propagation: Propagation,
    branching: Branching,
    pub(crate) limits: Limits,
    restarts: Option<RestartPolicy>,
    pub(crate) lns: Option<Lns>,
    decision_variables: Vec<VarId>,
    projection: Vec<VarId>,
    /// The counting convention asked for (`None`: the default for the propagation and
    /// branching, [`Counting::default_for`]).
    counting: Option<Counting>,
    /// Conflict-directed backjumping ([`SearchConfig::with_backjumping`]).
    backjumping: bool,
    /// Learning from failures ([`SearchConfig::with_learning`]).
    learning: bool,
}

impl SearchConfig {
    /// The default search: [`Propagation::Full`], [`Branching::Assign`], no limit, no
    /// restarts, no large-neighbourhood search, every variable branched on and told apart.
    pub fn new() -> Self {
        SearchConfig::default()
    }

    /// The inference after each decision ([`Propagation`]; a [`PropagationLevel`] converts
    /// into it).
    pub fn with_propagation(mut self, propagation: impl Into<Propagation>) -> Self {
        self.propagation = propagation.into();
        self
    }

    /// How a node is split into branches ([`Branching`]).
    pub fn with_branching(mut self, branching: Branching) -> Self {
        self.branching = branching;
        self
    }

    /// Stops the search after `decisions` decisions in total.
    pub fn with_decision_limit(mut self, decisions: u64) -> Self {
        self.limits.decisions = Some(decisions);
        self
    }

    /// Stops the search once it has run for `time` in total (the wall time of the solver's
    /// calls; see [`Solver::with_time_limit`](crate::Solver::with_time_limit)).
    pub fn with_time_limit(mut self, time: Duration) -> Self {
        self.limits.time = Some(time);
        self
    }

    /// Stops the search when `flag` becomes true, from any thread.
    pub fn with_cancel_flag(mut self, flag: Arc<AtomicBool>) -> Self {
        self.limits.cancel = Some(flag);
        self
    }

    /// Searches for the first solution (and an optimum) by runs that restart from the root
    /// after a budget of failures ([`RestartPolicy`]; see
    /// [`Solver::with_restarts`](crate::Solver::with_restarts)).
    pub fn with_restarts(mut self, policy: RestartPolicy) -> Self {
        self.restarts = Some(policy);
        self
    }

    /// Searches neighbourhoods of the best solution beside branch and bound ([`Lns`]).
    pub fn with_lns(mut self, lns: Lns) -> Self {
        self.lns = Some(lns);
        self
    }

    /// Branches only on `vars`, then on the others in input order (an empty list: every
    /// variable); see
    /// [`Solver::with_decision_variables`](crate::Solver::with_decision_variables). Checked
    /// when a solver is made: [`ModelError::ForeignVariable`] for a variable of another model.
    pub fn with_decision_variables(mut self, vars: &[VarId]) -> Self {
        self.decision_variables = vars.to_vec();
        self
    }

    /// Reports each solution once per assignment of `vars` (an empty list: every variable);
    /// see [`Solver::with_projection`](crate::Solver::with_projection). Checked when a solver
    /// is made: [`ModelError::ForeignVariable`] for a variable of another model.
    pub fn with_projection(mut self, vars: &[VarId]) -> Self {
        self.projection = vars.to_vec();
        self
    }

    /// Which variables are assigned by a decision of their own ([`Counting`]): cspkit's
    /// convention, or AIMA's, where every variable is, even one propagation fixed. Without
    /// it, the default for the propagation and the branching ([`Counting::default_for`]).
    /// [`Propagation::TextbookForward`] always assigns every variable.
    pub fn with_counting(mut self, counting: Counting) -> Self {
        self.counting = Some(counting);
        self
    }

    /// Conflict-directed backjumping (AIMA 6.3.3): when a node fails, the search finds the
    /// decisions the failure rests on (its conflict set, from the failing constraint's reason
    /// and the causes of the removals that reason relies on) and jumps back to the deepest of
    /// them, skipping the decisions in between, instead of undoing the last one. The same
    /// solutions in the same order; fewer nodes where decisions are independent of each
    /// other. Every propagation works with it (textbook forward checking and plain
    /// backtracking included) except [`Propagation::Ac3`]; on a model with a variable of more
    /// than [`Domain::MAX_SPAN`](crate::Domain::MAX_SPAN) values between its bounds, or with
    /// AC-3, the search backtracks chronologically (see
    /// [`Solver::backjumps`](crate::Solver::backjumps)).
    /// [`SearchStats::backjumps`](crate::SearchStats::backjumps) counts the jumps.
    pub fn with_backjumping(mut self, on: bool) -> Self {
        self.backjumping = on;
        self
    }

    /// Whether conflict-directed backjumping was asked for.
    pub fn backjumping(&self) -> bool {
        self.backjumping
    }

    /// Learning from failures, in the style of lazy clause generation: when a node fails,
    /// first-UIP conflict analysis turns the failure's reason (and the reasons of the removals
    /// it rests on) into a **nogood**, literals that cannot all hold; the search jumps back
    /// to the deepest level where all but one of them hold and makes that one false there,
    /// and keeps the nogood, propagated with the constraints from then on (two watched
    /// literals per nogood). The same solutions and the same optimum, usually in fewer nodes
    /// where failures repeat for the same few reasons.
    ///
    /// Learning implies backjumping and needs what it needs (bitset domains, the
    /// constraints' own propagation: not [`Propagation::Ac3`]); it also needs two-way
    /// branching (not [`Branching::DWay`]) and the constraints' propagation (not
    /// [`Propagation::TextbookForward`] nor AIMA's plain backtracking): elsewhere the search
    /// backjumps without learning. Nogoods are forgotten when a search starts again from the
    /// root (a restart, a neighbourhood of large-neighbourhood search, new fixes).
    /// [`SearchStats::learned`](crate::SearchStats::learned) counts the nogoods.
    pub fn with_learning(mut self, on: bool) -> Self {
        self.learning = on;
        self
    }

    /// Whether learning from failures was asked for.
    pub fn learning(&self) -> bool {
        self.learning
    }

    /// The counting convention the search follows: the one asked for, else the default for
    /// the propagation and the branching ([`Counting::default_for`]);
    /// [`Counting::Aima`] whatever was asked for with [`Propagation::TextbookForward`].
    pub fn counting(&self) -> Counting {
        match (self.propagation, self.counting) {
            (Propagation::TextbookForward, _) => Counting::Aima,
            (_, Some(counting)) => counting,
            (propagation, None) => Counting::default_for(propagation, self.branching),
        }
    }

    /// The inference after each decision.
    pub fn propagation(&self) -> Propagation {
        self.propagation
    }

    /// How a node is split.
    pub fn branching(&self) -> Branching {
        self.branching
    }

    /// The decision limit, if any.
    pub fn decision_limit(&self) -> Option<u64> {
        self.limits.decisions
    }

    /// The time limit, if any.
    pub fn time_limit(&self) -> Option<Duration> {
        self.limits.time
    }

    /// The cancellation flag, if any.
    pub fn cancel_flag(&self) -> Option<&Arc<AtomicBool>> {
        self.limits.cancel.as_ref()
    }

    /// The restart policy of the first-solution search, if any.
    pub fn restart_policy(&self) -> Option<RestartPolicy> {
        self.restarts
    }

    /// The large-neighbourhood search, if any.
    pub fn lns(&self) -> Option<&Lns> {
        self.lns.as_ref()
    }

    /// The decision variables (empty: every variable).
    pub fn decision_variables(&self) -> &[VarId] {
        &self.decision_variables
    }

    /// The projected variables (empty: every variable).
    pub fn projection(&self) -> &[VarId] {
        &self.projection
    }

    /// Sets the decision limit (`None`: no limit).
    pub(crate) fn set_decision_limit(&mut self, decisions: Option<u64>) {
        self.limits.decisions = decisions;
    }

    /// Sets the time limit (`None`: no limit).
    pub(crate) fn set_time_limit(&mut self, time: Option<Duration>) {
        self.limits.time = time;
    }
}

/// A configuration checked against a model, with what it means there: the constraint graph of
/// AC-3 and the variables to branch on and to tell solutions apart, as masks indexed by
/// variable. What the engine is built from.
#[derive(Debug, Clone, Default)]
pub(crate) struct Plan {
    pub(crate) config: SearchConfig,
    /// AC-3's constraint graph, with [`Propagation::Ac3`].
    pub(crate) ac3: Option<Arc<ConstraintGraph>>,
    /// The variables to branch on, if not all.
    pub(crate) branch: Option<Arc<[bool]>>,
    /// The variables that tell solutions apart, if not all.
    pub(crate) project: Option<Arc<[bool]>>,
}

impl Plan {
    /// `config`, checked against `model`.
    pub(crate) fn new(model: &Model, config: SearchConfig) -> Result<Self, ModelError> {
        let mut plan = Plan::default();
        plan.set_propagation(model, config.propagation)?;
        for (list, vars, context) in [
            (
                VariableList::Decision,
                &config.decision_variables,
                "with_decision_variables",
            ),
            (
                VariableList::Projection,
                &config.projection,
                "with_projection",
            ),
        ] {
            plan.set_variables(model, list, vars, context)?;
        }
        plan.config = config;
        Ok(plan)
    }

    /// Sets the propagation, building AC-3's constraint graph for [`Propagation::Ac3`]; an
    /// error leaves the plan unchanged.
    pub(crate) fn set_propagation(
        &mut self,
        model: &Model,
        propagation: Propagation,
    ) -> Result<(), ModelError> {
        self.ac3 = match propagation {
            Propagation::Ac3 => Some(Arc::new(ConstraintGraph::new(model)?)),
            _ => None,
        };
        self.config.propagation = propagation;
        Ok(())
    }

    /// Sets the decision variables or the projection to `vars`; `context` names the call in
    /// an error, which leaves the plan unchanged.
    pub(crate) fn set_variables(
        &mut self,
        model: &Model,
        list: VariableList,
        vars: &[VarId],
        context: &str,
    ) -> Result<(), ModelError> {
        let marked = mask(model, vars, context)?;
        let (mask, listed) = match list {
            VariableList::Decision => (&mut self.branch, &mut self.config.decision_variables),
            VariableList::Projection => (&mut self.project, &mut self.config.projection),
        };
        *mask = marked;
        *listed = vars.to_vec();
        Ok(())
    }

    /// Sets the options that need no check against the model with `change`, a chain of the
    /// configuration's builder methods: the propagation, the decision variables and the
    /// projection have setters of their own.
    pub(crate) fn update(&mut self, change: impl FnOnce(SearchConfig) -> SearchConfig) {
        let before = std::mem::take(&mut self.config);
        let (propagation, decisions, projected) = (
            before.propagation,
            before.decision_variables.len(),
            before.projection.len(),
        );
        self.config = change(before);
        debug_assert!(
            self.config.propagation == propagation
                && self.config.decision_variables.len() == decisions
                && self.config.projection.len() == projected,
            "a checked option changed without its check"
        );
    }

    /// The level the constraints are set up at.
    pub(crate) fn level(&self) -> PropagationLevel {
        self.config.propagation.level()
    }

    /// Whether the propagation is textbook forward checking.
    pub(crate) fn textbook(&self) -> bool {
        self.config.propagation == Propagation::TextbookForward
    }

    /// Whether every variable is assigned by a decision of its own (AIMA's counting).
    pub(crate) fn assigns_all(&self) -> bool {
        self.config.counting() == Counting::Aima
    }

    /// Plain backtracking counted as AIMA counts ([`Propagation::None`] with
    /// [`Counting::Aima`], a decision assigning one value): AIMA's BACKTRACKING-SEARCH with no
    /// inference, which checks a value against the variables already *assigned* only. A
    /// variable whose domain has one value is not assigned until its own decision, so no
    /// constraint is checked before all its variables are decided. The engine does so on
    /// models of unary and binary constraints only, AIMA's CSPs.
    pub(crate) fn checks_assigned(&self) -> bool {
        self.config.propagation == Propagation::None
            && self.assigns_all()
            && self.config.branching() != Branching::Split
    }
}

/// The two lists of variables a configuration names.
#[derive(Debug, Clone, Copy)]
pub(crate) enum VariableList {
    /// The variables to branch on ([`SearchConfig::with_decision_variables`]).
    Decision,
    /// The variables that tell solutions apart ([`SearchConfig::with_projection`]).
    Projection,
}

/// `vars` as a mask indexed by variable (`None` for an empty list), or the first variable not
/// of `model`.
fn mask(model: &Model, vars: &[VarId], context: &str) -> Result<Option<Arc<[bool]>>, ModelError> {
    if let Some(&foreign) = vars.iter().find(|&&v| !model.owns(v)) {
        return Err(ModelError::ForeignVariable {
            context: context.into(),
            variable: format!("{foreign:?}"),
        });
    }
    Ok((!vars.is_empty()).then(|| {
        let mut marked = vec![false; model.num_variables()];
        for &v in vars {
            marked[v.index()] = true;
        }
        Arc::from(marked)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_propagation_reads_back_its_name() {
        for propagation in Propagation::ALL {
            assert_eq!(propagation.name().parse::<Propagation>(), Ok(propagation));
        }
        assert!("fast".parse::<Propagation>().is_err());
    }

    #[test]
    fn a_level_keeps_its_level() {
        for level in PropagationLevel::ALL {
            assert_eq!(Propagation::from(level).level(), level);
        }
    }

    #[test]
    fn a_foreign_variable_is_refused_when_the_plan_is_made() {
        let model = Model::new();
        let other = Model::new().new_var(1..=3).unwrap();
        for config in [
            SearchConfig::new().with_decision_variables(&[other]),
            SearchConfig::new().with_projection(&[other]),
        ] {
            assert!(matches!(
                Plan::new(&model, config),
                Err(ModelError::ForeignVariable { .. })
            ));
        }
    }
}
