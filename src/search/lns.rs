//! Large-neighbourhood search beside branch and bound ([`Solver::with_lns`]).
//!
//! Branch and bound in a fixed order spends a long time under the first decisions: a better
//! solution that differs from the best one at the top of the tree is out of reach until the
//! search backtracks there. Large-neighbourhood search (Shaw, "Using constraint programming and
//! local search methods to solve vehicle routing problems", CP 1998) looks near the best
//! solution instead: it fixes most of the decision variables to their values in that solution,
//! and searches the rest, the *neighbourhood*, for a better one, within a small failure budget;
//! then again, around the newest best solution, with other variables left free.
//!
//! Here it runs beside the complete search, not instead of it: once branch and bound has its
//! first solution and has made a number of decisions ([`Lns::with_warmup`]), the two take
//! turns of so many decisions each ([`Lns::with_turn`]), on engines of their own, and every
//! better solution either of them finds tightens the bound of both. The complete search still
//! ends the optimisation: it proves the last solution optimal when its tree is exhausted, so
//! without a limit the answer is the one of branch and bound alone; under a limit, the
//! neighbourhoods' decisions are taken from branch and bound's.
//!
//! Each neighbourhood is one of two kinds, in turn: each decision variable kept free with
//! probability `r`, or a run of consecutive decision variables (a fraction `r` of them, from a
//! random start) kept free. `r` adapts as in the adaptive LNS of Pisinger and Ropke (2010, in
//! spirit): a neighbourhood searched to its end without a better solution was too small, and
//! `r` grows; one that used up its failure budget was too large, and `r` shrinks.

use std::fmt;
use std::sync::{Arc, Mutex};

use super::ordering::{Ascending, DomWdeg, ValueOrder, VariableOrder};
use crate::ids::VarId;

/// Large-neighbourhood search beside branch and bound: what [`Solver::with_lns`] takes.
///
/// The neighbourhoods are searched with their own orders (by default [`DomWdeg`] and
/// [`Ascending`]: the failures met in one neighbourhood guide the next), over the decision
/// variables given with [`with_variables`](Lns::with_variables) (by default every variable of
/// the model but those of the objective).
///
/// A clone shares the neighbourhoods' orders with the original, and what they learn in one
/// optimisation (dom/wdeg's weights) carries over to the next of either, as it does from one
/// optimisation to the next of one solver. Give each of several solvers that run at the same
/// time an `Lns` of its own, for searches that are functions of their seeds.
///
/// [`Solver::with_lns`]: crate::Solver::with_lns
///
/// # Examples
///
/// ```
/// use cspkit::{LinearExpr, Lns, Model, Optimum};
///
/// // Ten items, at most 20 in weight, of the greatest value.
/// let weights = [4, 7, 3, 9, 5, 6, 2, 8, 3, 5];
/// let values = [6, 9, 4, 12, 7, 8, 3, 11, 5, 6];
/// let mut model = Model::new();
/// let take = model.new_vars(10, 0..=1)?;
/// let weight: LinearExpr = take.iter().zip(weights).map(|(&x, w)| LinearExpr::from(x) * w).sum();
/// let value: LinearExpr = take.iter().zip(values).map(|(&x, v)| LinearExpr::from(x) * v).sum();
/// model.post(weight.le(20))?;
/// let mut solver = model.solver().with_lns(Lns::new().with_seed(7));
/// let optimum = solver.maximize(value)?;
/// // The complete search still proves the optimum.
/// assert!(matches!(optimum, Optimum::Optimal { value: 29, .. }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Lns {
    pub(super) seed: u64,
    warmup: u64,
    pub(super) turn: u64,
    pub(super) failures: u64,
    pub(super) variables: Option<Vec<VarId>>,
    /// The orders, locked by one turn of neighbourhoods at a time.
    pub(super) orders: Arc<Mutex<Orders>>,
}

/// The orders that search the neighbourhoods.
pub(super) struct Orders {
    pub(super) variable: Box<dyn VariableOrder + Send>,
    pub(super) value: Box<dyn ValueOrder + Send>,
}

impl fmt::Debug for Lns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Lns")
            .field("seed", &self.seed)
            .field("warmup", &self.warmup)
            .field("turn", &self.turn)
            .field("failures", &self.failures)
            .field("variables", &self.variables)
            .finish_non_exhaustive()
    }
}

impl Default for Lns {
    fn default() -> Self {
        Lns::new()
    }
}

impl Lns {
    /// Neighbourhoods with seed 0, searched by [`DomWdeg`] and [`Ascending`], over every
    /// variable but the objective's; branch and bound makes 2,000 decisions before the first
    /// neighbourhood, then the two take turns of 1,000 decisions, and a neighbourhood may meet
    /// 200 failures.
    pub fn new() -> Self {
        Lns {
            seed: 0,
            warmup: 2_000,
            turn: 1_000,
            failures: 200,
            variables: None,
            orders: Arc::new(Mutex::new(Orders {
                variable: Box::new(DomWdeg::new()),
                value: Box::new(Ascending),
            })),
        }
    }

    /// The decisions branch and bound makes (in all, and with a solution) before the first
    /// neighbourhood: a search that finishes within them runs as without neighbourhoods.
    pub fn with_warmup(mut self, decisions: u64) -> Self {
        self.warmup = decisions;
        self
    }

    /// The decisions of each turn, of branch and bound and of the neighbourhoods alike (at
    /// least 1).
    pub fn with_turn(mut self, decisions: u64) -> Self {
        self.turn = decisions.max(1);
        self
    }

    /// The failures one neighbourhood may meet before it is left (at least 1).
    pub fn with_failures(mut self, failures: u64) -> Self {
        self.failures = failures.max(1);
        self
    }

    /// The seed of the neighbourhoods' random choices: a search is a function of it.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// The decision variables: those a neighbourhood fixes to their values in the best
    /// solution or keeps free. The others are always free (variables a constraint defines,
    /// such as an objective or a sum, are best left out).
    pub fn with_variables(mut self, variables: &[VarId]) -> Self {
        self.variables = Some(variables.to_vec());
        self
    }

    /// The orders that search each neighbourhood.
    pub fn with_orders(
        mut self,
        variable_order: impl VariableOrder + Send + 'static,
        value_order: impl ValueOrder + Send + 'static,
    ) -> Self {
        self.orders = Arc::new(Mutex::new(Orders {
            variable: Box::new(variable_order),
            value: Box::new(value_order),
        }));
        self
    }
}

impl Lns {
    /// Where branch and bound's first turn ends, once it has a solution, `decisions` made.
    pub(crate) fn first_turn_end(&self, decisions: u64) -> u64 {
        self.warmup.max(decisions.saturating_add(self.turn))
    }
}
