//! cspkit: a small, fast, generic constraint-satisfaction engine.
//!
//! Integer variables with finite domains, constraints behind one trait, pluggable variable and
//! value orderings, and chronological backtracking with propagation and a trail for undo.
//!
//! Contents: [quick start](#quick-start) · [concepts](#concepts-and-glossary) ·
//! [arithmetic](#arithmetic) · [choosing a strategy](#choosing-a-strategy) ·
//! [randomisation and restarts](#randomisation-and-restarts) ·
//! [parallel search](#parallel-search) ·
//! [writing a constraint](#writing-your-own-constraint) ·
//! [watching the search](#watching-the-search) · [where things are](#where-things-are) ·
//! [cargo features](#cargo-features)
//!
//! The crate's modules and the layers they form are drawn in `docs/architecture.md`.
//!
//! # Quick start
//!
//! A model declares variables and posts constraints; a solver searches it.
//!
//! ```
//! use cspkit::{AllDifferent, Model, NotEqual, Outcome};
//!
//! // Colour a triangle plus a pendant vertex with colours 1..=3.
//! let mut model = Model::new();
//! let a = model.new_named_var("a", 1..=3)?;
//! let b = model.new_named_var("b", 1..=3)?;
//! let c = model.new_named_var("c", 1..=3)?;
//! let d = model.new_named_var("d", 1..=3)?;
//! model.post(AllDifferent::new(&[a, b, c]))?;
//! model.post(NotEqual::new(c, d))?;
//!
//! // The first solution in the default strategy is the lexicographically smallest.
//! match model.solve() {
//!     Outcome::Solved(solution) => assert_eq!(solution.values(), [1, 2, 3, 1]),
//!     Outcome::Exhausted => println!("no solution"),
//!     Outcome::LimitReached(limit) => println!("stopped: {limit}"),
//! }
//!
//! // Every solution, lazily; or just how many.
//! let mut solver = model.solver();
//! assert_eq!(solver.solutions().count(), 12);
//! assert_eq!(model.solver().count().solutions, 12);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Concepts and glossary
//!
//! One word per concept, used the same way in the whole crate:
//!
//! - **variable**: an unknown of the problem ([`VarId`]), declared on a [`Model`].
//! - **value**: an `i32` a variable may take.
//! - **domain**: the set of values a variable may still take ([`Domain`]); its **size** is the
//!   number of values left.
//! - **scope**: the variables a constraint is about.
//! - **constraint**: a rule over a scope ([`Constraint`]).
//! - **propagate**: let a constraint remove values that cannot be part of any solution.
//! - **prune**: remove a value from a domain. **fix**: reduce a domain to one value.
//! - **decision**: a branch `x = v` (or `x ≤ v`) chosen by the search; its **refutation** is
//!   `x ≠ v` (or `x > v`).
//! - **tree node**: a node of the search tree: the root, and each decision and refutation
//!   ([`SearchStats::tree_nodes`]); the tree drawings, the trace and `--stats` count them so.
//! - **nassigns**: AIMA's count of assignments, the decisions `x = v` whose value passed the
//!   consistency check against the variables already assigned ([`SearchStats::nassigns`]).
//! - **level**: the trail's unit of undo, one per decision on the current path; also
//!   [`PropagationLevel`], the propagation strength asked of the constraints.
//! - **failure**: a dead end: a constraint reported a [`Conflict`], or a domain became empty.
//! - **backtrack**: undo the last decision (restoring domains from the trail) and take its
//!   refutation instead.
//! - **solution**: a value for every variable that satisfies every constraint ([`Solution`]).
//!
//! The model is the problem and never changes during search; a [`Solver`] holds the state of
//! one search. The search is depth first with binary branching (`x = v`, then `x ≠ v`),
//! undoes changes through a trail, and runs the constraints woken by each change to a
//! fixpoint. The outcome of a search is one of three answers: [`Outcome::Solved`],
//! [`Outcome::Exhausted`] (no further solution) or [`Outcome::LimitReached`] (stopped by a
//! decision limit, a time limit or a cancellation flag before knowing). To solve one model under many
//! sets of givens (a file of puzzles), keep one solver and call [`Solver::restart_with`] per
//! instance: it fixes the givens on top of the model's domains without rebuilding anything.
//!
//! # Arithmetic
//!
//! Sums and comparisons are written as arithmetic on variables: `+`, `-` and `*` by an integer
//! build a [`LinearExpr`], and its [`eq`](LinearExpr::eq), [`le`](LinearExpr::le) (and `ne`,
//! `lt`, `ge`, `gt`) make a [`Linear`] constraint to post. [`Relation`] (`x op y + c`) and
//! [`Distance`] (`|x − y| op c`) cover two variables; all share [`Comparison`]. Grids and
//! arrays of named variables come from [`Model::new_grid`] and [`Model::new_named_vars`], and
//! [`Model::var_by_name`] finds a variable again. The `examples/` directory holds worked
//! puzzles: SEND + MORE = MONEY, map colouring, magic squares, Killer Sudoku, the zebra puzzle,
//! Kakuro and KenKen ([`Model::product`] for its `×` cages).
//!
//! ```
//! use cspkit::{AllDifferent, LinearExpr, Model};
//!
//! let mut model = Model::new();
//! let mut digit = |letter: &str| model.new_named_var(letter, 0..=9);
//! let [s, e, n, d] = [digit("S")?, digit("E")?, digit("N")?, digit("D")?];
//! let [m, o, r, y] = [digit("M")?, digit("O")?, digit("R")?, digit("Y")?];
//! let send = LinearExpr::from_digits(&[s, e, n, d], 10);
//! let more = LinearExpr::from_digits(&[m, o, r, e], 10);
//! let money = LinearExpr::from_digits(&[m, o, n, e, y], 10);
//! model.post((send.clone() + more).eq(money))?;
//! model.post(AllDifferent::new(&[s, e, n, d, m, o, r, y]))?;
//! model.remove(s, 0)?; // no leading zero
//! model.remove(m, 0)?;
//!
//! let solution = model.solve().solution().unwrap();
//! assert_eq!(send.value(&solution), Some(9567));
//! assert_eq!(solution[model.var_by_name("Y").unwrap()], 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Choosing a strategy
//!
//! - Variable order ([`VariableOrder`]): [`InputOrder`] (declaration order), [`SmallestDomain`]
//!   (MRV, first-fail), [`SmallestDomainRandomTies`] (the same, ties broken at random),
//!   [`DomainOverDegree`] (dom/deg), [`SmallestMinimum`] (the smallest value left: the order
//!   for start times of tasks), or any closure `FnMut(&SearchView) -> Option<VarId>`.
//! - Value order ([`ValueOrder`]): [`Ascending`], [`Descending`], [`MiddleOut`] (the middle of
//!   the domain first), [`RandomValue`], or any closure `FnMut(VarId, &SearchView) -> i32`.
//! - Propagation ([`PropagationLevel`]): `None` (check only: plain backtracking), `Forward`
//!   (forward checking), `Full` (each constraint's strongest filtering).
//!
//! [`InputOrder`] with [`Ascending`] enumerates solutions in lexicographic order at every
//! propagation level, because propagation only removes values that belong to no solution.
//! [`SmallestDomain`] usually makes far fewer decisions when any solution will do, but not on
//! start times of tasks: there the fewest values left means the latest earliest start, and
//! smallest-domain-first can search for seconds without a schedule of a job shop that
//! [`SmallestMinimum`] (the earliest start first) schedules without a failure
//! (`docs/strategies.md`, "Start times").
//!
//! ```
//! use cspkit::{AllDifferent, Descending, Model, PropagationLevel, SmallestDomain};
//! use std::time::Duration;
//!
//! let mut model = Model::new();
//! let xs = model.new_vars(5, 1..=5)?;
//! model.post(AllDifferent::new(&xs))?;
//! let mut solver = model
//!     .solver()
//!     .with_variable_order(SmallestDomain)
//!     .with_value_order(Descending)
//!     .with_propagation(PropagationLevel::Forward)
//!     .with_time_limit(Duration::from_secs(1));
//! let first = solver.next_solution().solution().unwrap();
//! assert_eq!(first.values(), [5, 4, 3, 2, 1]);
//! println!("{} decisions", solver.stats().decisions);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Randomisation and restarts
//!
//! When any solution will do, a search that starts badly can run for very long although most
//! starts would be quick: N-Queens with smallest-domain-first is solved in milliseconds for
//! most board sizes and runs for minutes for some. The remedy is to randomise the search and
//! restart it: [`SmallestDomainRandomTies`] and [`RandomValue`] draw their choices from a seed,
//! and [`Solver::with_restarts`] cuts the first-solution search into runs with a growing
//! budget of failures ([`RestartPolicy::luby`], [`RestartPolicy::geometric`]), each run with new
//! random choices. It stays complete: a run that exhausts its tree proves there is no solution.
//! The random orders are functions of their seed, so every search is reproducible. Counting
//! and listing ignore restarts. `docs/strategies.md` compares the strategies on N-Queens up to
//! 1000 queens.
//!
//! ```
//! use cspkit::models::queens::Queens;
//! use cspkit::{MiddleOut, PropagationLevel, RestartPolicy, SmallestDomainRandomTies};
//!
//! let queens = Queens::new(120)?;
//! let mut solver = queens
//!     .model()
//!     .solver()
//!     .with_variable_order(SmallestDomainRandomTies::new(1))
//!     .with_value_order(MiddleOut)
//!     .with_propagation(PropagationLevel::Forward)
//!     .with_restarts(RestartPolicy::luby(100));
//! assert!(solver.next_solution().is_solved());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Local search
//!
//! [`MinConflicts`] is AIMA's MIN-CONFLICTS: a complete assignment repaired one variable in
//! conflict at a time, seeded and reproducible. It is incomplete: [`LocalOutcome::NotFound`]
//! never means that there is no solution. It restarts after steps without progress, counts
//! conflicts per value in constant time on all-different constraints, and is reached from a
//! solver too ([`Solver::min_conflicts`], which keeps the solver's time limit and
//! cancellation flag). `docs/strategies.md` measures it on N-Queens up to a million queens.
//!
//! # Parallel search
//!
//! [`Solver::count_parallel`], [`Solver::count_up_to_parallel`] and
//! [`Solver::for_each_solution_parallel`] count and list solutions on several threads of one
//! machine. The tree is split into many more subtrees than threads, in the order of the
//! sequential search, and the threads take subtrees from a shared counter; the answers do not
//! depend on the number of threads (the same count, the same solutions in the same order).
//! Each thread needs its own copy of the orders, hence `Clone + Send` bounds. To solve many
//! instances at once, give each thread its own [`Solver`] of the shared model, as
//! `cspkit sudoku --batch --jobs N` does.
//!
//! ```
//! use std::num::NonZeroUsize;
//!
//! use cspkit::models::queens::Queens;
//!
//! let queens = Queens::new(8)?;
//! let threads = NonZeroUsize::new(2).unwrap();
//! assert_eq!(queens.model().solver().count_parallel(threads).solutions, 92);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Writing your own constraint
//!
//! Implement [`kernel::Constraint`]: a scope, a `check` of full assignments, and a `propagate`
//! that prunes through a [`kernel::PropagationContext`]. The [`constraints`] module documents the contract
//! and gives a step-by-step recipe with a complete example. The [`conformance`] kit tests a
//! constraint against that contract in one call (soundness, failure detection, idempotence,
//! undo, locality, and the restoration of a propagator's state), on random cases it can
//! reproduce from a seed. A constraint that gains from remembering what it learnt creates a
//! [`kernel::Propagator`] per search, whose [`kernel::Reversible`] state the engine restores on
//! backtracking and which is told what changed since its last run ([`kernel::Change`],
//! [`kernel::DomainEvent`]). Before
//! writing one, see
//! whether [`Table`] (allowed tuples), [`Element`] (`value = array[index]`) or [`Predicate`]
//! (any closure) already says it.
//!
//! # Watching the search
//!
//! A [`SearchObserver`] receives the search's [`Event`]s, one method for all of them
//! ([`SearchObserver::on_event`]): every node (a decision or a refutation), failure (with the
//! constraint that failed), backtrack and solution, and, if it asks, every pruning. The solver
//! is generic over it, so the default [`NoObserver`] costs nothing. [`EventLog`] keeps the
//! events, as [`OwnedEvent`]s; [`SearchStats`] counts them. [`Solver::next_step`] runs a search
//! one event at a time ([`SearchStep`]); the domains after each node's propagation come with
//! [`OwnedEvent::Propagated`], for drawing the state as it goes
//! ([`Queens::board_at`](models::queens::Queens::board_at),
//! [`Sudoku::board_at`](models::sudoku::Sudoku::board_at)). The [`teach`] module turns the
//! events into a trace, a tree and a page.
//!
//! # Where things are
//!
//! Every public item has one documented path:
//!
//! - **The crate root** holds what a model needs: [`Model`] and its handles ([`VarId`],
//!   [`BoolVar`], [`ConstraintId`]), [`LinearExpr`], [`Domain`], the built-in constraints
//!   ([`AllDifferent`], [`Linear`], [`Table`], …) with [`Comparison`], [`Operation`] and
//!   [`Dfa`], the errors, [`Solution`] and [`Literal`] (the facts of an explanation), and the
//!   solver with its options, orders, limits, outcomes and observers.
//! - **A module** holds what a specialist needs: [`kernel`] for writing constraints and
//!   propagators ([`kernel::Constraint`], [`kernel::PropagationContext`], [`kernel::IntView`],
//!   …), [`conformance`] for testing them, [`models`], [`puzzle`], [`teach`] and [`flatzinc`]
//!   for what their names say.
//!
//! Older paths (`cspkit::Constraint`, `cspkit::constraints::AllDifferent`,
//! `cspkit::kernel::Literal`, …) still compile and are left out of the documentation; new code
//! uses the paths above. `docs/modelling.md` lists every modelling call, its options and which
//! calls return a `Result`, and why: in short, declaring and posting always return one, a
//! constraint's constructor returns one when its arguments must agree with one another (lengths,
//! arities, durations, automaton states), and arithmetic leaving the 64-bit range is reported by
//! [`Model::post`], because sums are written with operators where no `?` fits.
//!
//! # Cargo features
//!
//! - `cli` (default): builds the `cspkit` command-line program (it pulls in `clap` and
//!   `indicatif`). Library users can depend on `cspkit` with `default-features = false`; the
//!   library itself only needs `fixedbitset`, `smallvec` and `thiserror`.
//!
//! The library builds and runs in the browser's WebAssembly (`wasm32-unknown-unknown`, after
//! `rustup target add wasm32-unknown-unknown`), default features included: the CLI's crates
//! are not dependencies of that target, time limits read the page's clock (through the
//! `web-time` crate, that target's one extra dependency), and a parallel search
//! ([`Solver::count_parallel`]) runs on the calling thread, which cannot start others there.

pub mod conformance;
pub mod constraints;
mod domain;
mod error;
pub mod flatzinc;
mod ids;
pub mod kernel;
mod model;
pub mod models;
pub mod puzzle;
mod search;
pub mod teach;
mod util;

pub use constraints::all_different::AllDifferent;
pub use constraints::arithmetic::{Arithmetic, Operation};
pub use constraints::circuit::Circuit;
pub use constraints::comparison::Comparison;
pub use constraints::count::Among;
pub use constraints::distance::Distance;
pub use constraints::element::Element;
pub use constraints::extremum::Extremum;
pub use constraints::global_cardinality::GlobalCardinality;
pub use constraints::inverse::Inverse;
pub use constraints::lex::LexLessEq;
pub use constraints::linear::Linear;
pub use constraints::member::Member;
pub use constraints::not_equal::NotEqual;
pub use constraints::predicate::Predicate;
pub use constraints::product::Product;
pub use constraints::regular::{Dfa, Regular};
pub use constraints::reified::Reified;
pub use constraints::reified_equality::ReifiedEquality;
pub use constraints::relation::Relation;
pub use constraints::scheduling::{Cumulative, Disjunctive};
pub use constraints::subcircuit::Subcircuit;
pub use constraints::table::Table;
pub use domain::{Domain, IntoDomain, Values};
pub use error::{DomainError, ModelError, ParseNameError};
pub use ids::{ConstraintId, VarId};
pub use kernel::explain::Literal;
pub use model::{BoolVar, LinearExpr, Model, Solution};
pub use search::config::{Counting, Propagation, SearchConfig};
pub use search::constraint_graph::ConstraintGraph;
pub use search::limits::Limit;
pub use search::lns::Lns;
pub use search::min_conflicts::{
    LocalOutcome, LocalSearchObserver, LocalSearchStats, MinConflicts, MinConflictsRestart,
    MinConflictsStart, MinConflictsStep,
};
pub use search::observer::{BranchKind, Event, EventLog, NoObserver, OwnedEvent, SearchObserver};
#[allow(
    deprecated,
    reason = "the deprecated `EventRecorder` and `SearchEvent` stay public"
)]
pub use search::observer::{EventRecorder, SearchEvent};
pub use search::optimize::Optimum;
pub use search::ordering::{
    Activity, Ascending, Descending, DomWdeg, DomainOverDegree, InputOrder, LeastConstraining,
    MiddleOut, RandomValue, SearchView, SmallestDomain, SmallestDomainRandomTies, SmallestMinimum,
    Unfixed, ValueOrder, VariableOrder,
};
pub use search::restarts::RestartPolicy;
pub use search::stats::SearchStats;
pub use search::stepping::SearchStep;
#[allow(deprecated, reason = "the deprecated `StepEvent` stays public")]
pub use search::stepping::StepEvent;
pub use search::{Branching, Count, Outcome, PropagationLevel, Solutions, Solver};

/// This library's version (`CARGO_PKG_VERSION`), for programs built on it that report it, such
/// as the WebAssembly module of the live page.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

// The kernel's items at their old paths, `cspkit::Constraint` and so on: they are for writing
// constraints and propagators, and `cspkit::kernel` is their one documented path.
#[deprecated(since = "0.3.0", note = "use `cspkit::kernel::` and the same name")]
#[doc(hidden)]
pub use kernel::{
    Change, Conflict, Constraint, DomainEvent, IntView, ModelView, PropagationContext, Propagator,
    PropagatorSetup, Reversible, ReversibleValue, WakeOn,
};

/// The README's code blocks, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The code blocks of `docs/custom-constraints.md`, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/custom-constraints.md")]
pub struct GuideDoctests;

/// The code blocks of `docs/reasons.md`, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/reasons.md")]
pub struct ReasonsDoctests;

/// The code blocks of `docs/tutorial.md`, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/tutorial.md")]
pub struct TutorialDoctests;

/// The code blocks of `docs/puzzles.md`, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/puzzles.md")]
pub struct PuzzlesDoctests;

/// The code blocks of `docs/modelling.md`, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/modelling.md")]
pub struct ModellingDoctests;

/// The code blocks of `docs/strategies.md`, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/strategies.md")]
pub struct StrategiesDoctests;
