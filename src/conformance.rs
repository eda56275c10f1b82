//! The constraint conformance kit: property tests for any [`Constraint`], in one call.
//!
//! A constraint is correct when its `propagate` keeps the [contract](crate::constraints) of the
//! trait. [`ConformanceTest`] checks that contract on many small random cases, against a brute
//! force enumeration filtered by the constraint's own [`check`](Constraint::check), at each
//! [`PropagationLevel`]:
//!
//! 1. **Soundness**: propagation never removes a value that belongs to a solution of the
//!    constraint alone under the current domains, and reports a [`Conflict`](crate::Conflict)
//!    only when there is no such solution.
//! 2. **Failure detection**: on a full assignment of the scope, `propagate` reports a conflict
//!    exactly when `check` rejects the values; and it never returns `Ok` with a domain left
//!    empty (a conflict from the context must be passed on).
//! 3. **Idempotence**: when [`is_idempotent`](Constraint::is_idempotent) says so, a second
//!    call prunes nothing and reports no conflict. When it does not say so, the report counts
//!    how often a second call pruned more, so you can tell whether it could.
//! 4. **Undo**: after propagation, undoing through the search's trail restores every domain
//!    exactly (bit for bit).
//! 5. **Locality**: propagation prunes nothing outside the scope, and its pruning does not
//!    change when domains outside the scope change.
//! 6. **State**, for a constraint that creates a [`Propagator`]
//!    ([`Constraint::propagator`]): its first run, then a run told of the changes since (as in a
//!    search: a new level, some variables of the scope narrowed), are sound and detect failures
//!    like `propagate`; and after a backtrack its state is restored exactly: on another branch
//!    from the same node it prunes exactly as a fresh propagator that never saw the undone
//!    branch. A propagator that keeps node state in a plain field instead of a
//!    [`Reversible`](crate::Reversible) fails here.
//!
//! Besides, the constraint must post without error on the random model, and no call may panic.
//! The first violation stops the run and comes back as a [`ConformanceFailure`], whose
//! `Display` names the property, the level, the domains before and after, and the seed that
//! reproduces the case. A passing run returns a [`ConformanceReport`] that also measures
//! strength: how often propagation left the domains domain consistent (every value left has a
//! support), which lets a test assert what the documentation of a constraint claims.
//!
//! # How a case is made
//!
//! Each case declares a fresh [`Model`] with the scope's variables plus one variable before and
//! one after them (which the constraint must leave alone), each with a random initial domain of
//! 1 to [`max_domain_size`](ConformanceTest::max_domain_size) values drawn from the value range;
//! calls the builder with the scope's variables and posts what it returns (so
//! [`prepare`](Constraint::prepare) runs as in a real model). It then derives current domains
//! from the initial ones (each variable kept whole, fixed to one value, or cut to a random
//! subset), shrunk until the scope has at most
//! [`max_assignments`](ConformanceTest::max_assignments) full assignments, and runs the checks
//! above at the three levels, plus the failure-detection check on up to 16 full assignments
//! (half of them solutions when there are any).
//!
//! Costs: per case, one brute-force enumeration of at most `max_assignments` assignments and
//! about 60 calls of `propagate`; a few hundred cases of a small constraint take milliseconds
//! in a release build. Everything is deterministic: the same seed gives the same cases, on
//! every platform. Randomness comes from [`SplitMix64`], a small generator kept in this module,
//! so the kit adds no dependency and needs no cargo feature.
//!
//! # Examples
//!
//! A constraint `x ≤ y`, written from scratch and tested in one call:
//!
//! ```
//! use cspkit::conformance::ConformanceTest;
//! use cspkit::{Conflict, Constraint, PropagationContext, PropagationLevel, VarId};
//!
//! #[derive(Debug)]
//! struct LessOrEqual([VarId; 2]);
//!
//! impl Constraint for LessOrEqual {
//!     fn scope(&self) -> &[VarId] { &self.0 }
//!     fn check(&self, values: &[i32]) -> bool { values[0] <= values[1] }
//!     fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
//!         let [x, y] = self.0;
//!         let max_y = ctx.domain(y).max().ok_or(Conflict)?;
//!         ctx.remove_above(x, max_y)?;
//!         let min_x = ctx.domain(x).min().ok_or(Conflict)?;
//!         ctx.remove_below(y, min_x)?;
//!         Ok(())
//!     }
//!     fn is_idempotent(&self, _: PropagationLevel) -> bool { true }
//! }
//!
//! // Arity 2, values from -3 to 3, built from the variables the kit provides.
//! let report = ConformanceTest::new(2, -3..=3, |vars| LessOrEqual([vars[0], vars[1]]))
//!     .cases(300)
//!     .seed(7)
//!     .run()?;
//! // Bounds reasoning on `≤` is also domain consistent.
//! assert!(report.level(PropagationLevel::Full).is_domain_consistent());
//! println!("{report}");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A mistake is caught, with the case to reproduce it:
//!
//! ```
//! # use cspkit::conformance::{ConformanceTest, Property};
//! # use cspkit::{Conflict, Constraint, PropagationContext, VarId};
//! /// Claims x < y but prunes as if x < y - 1.
//! #[derive(Debug)]
//! struct OffByOne([VarId; 2]);
//!
//! impl Constraint for OffByOne {
//!     fn scope(&self) -> &[VarId] { &self.0 }
//!     fn check(&self, values: &[i32]) -> bool { values[0] < values[1] }
//!     fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
//!         let [x, y] = self.0;
//!         let max_y = ctx.domain(y).max().ok_or(Conflict)?;
//!         ctx.remove_above(x, max_y - 2)?; // should be max_y - 1
//!         Ok(())
//!     }
//! }
//!
//! let failure = ConformanceTest::new(2, 0..=4, |vars| OffByOne([vars[0], vars[1]]))
//!     .run()
//!     .unwrap_err();
//! assert_eq!(failure.property, Property::Soundness);
//! println!("{failure}"); // the property, the domains, the seed
//! ```
//!
//! In a `#[test]`, [`assert_conforms`](ConformanceTest::assert_conforms) panics with the
//! failure's message instead of returning it. A constraint with parameters (a table, an array,
//! offsets) is best tested with random parameters too:
//! [`with_parameters`](ConformanceTest::with_parameters) hands the builder the case's
//! generator.

use std::fmt;
use std::ops::RangeInclusive;
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::constraints::{
    Change, Constraint, DomainEvent, PropagationContext, Propagator, PropagatorSetup, WakeOn,
};
use crate::domain::Domain;
use crate::ids::VarId;
use crate::kernel::PropagationLevel;
use crate::kernel::trail::Trail;
use crate::model::Model;

/// The three levels, weakest first, in the order of [`ConformanceReport::levels`].
const LEVELS: [PropagationLevel; 3] = [
    PropagationLevel::None,
    PropagationLevel::Forward,
    PropagationLevel::Full,
];

/// Full assignments checked per case for failure detection.
const FULL_ASSIGNMENTS: usize = 16;

/// The builder, with its parameters' generator, type-erased.
type Builder<'a> = Box<dyn FnMut(&[VarId], &mut SplitMix64) -> Box<dyn Constraint> + 'a>;

/// A conformance test of one constraint type: what to build, on which values, how many cases.
///
/// Configure it with the builder methods, then call [`run`](ConformanceTest::run) or
/// [`assert_conforms`](ConformanceTest::assert_conforms). See the [module
/// documentation](self) for the properties checked and a complete example.
pub struct ConformanceTest<'a> {
    arity: usize,
    values: RangeInclusive<i32>,
    build: Builder<'a>,
    cases: usize,
    seed: u64,
    max_domain_size: usize,
    max_assignments: usize,
    repeats: bool,
    required: Vec<(PropagationLevel, Consistency)>,
}

impl fmt::Debug for ConformanceTest<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConformanceTest")
            .field("arity", &self.arity)
            .field("values", &self.values)
            .field("cases", &self.cases)
            .field("seed", &self.seed)
            .field("max_domain_size", &self.max_domain_size)
            .field("max_assignments", &self.max_assignments)
            .finish_non_exhaustive()
    }
}

impl<'a> ConformanceTest<'a> {
    /// The default number of cases.
    pub const DEFAULT_CASES: usize = 200;
    /// The default seed.
    pub const DEFAULT_SEED: u64 = 0x5eed;

    /// Tests the constraints that `build` makes from `arity` variables whose domains are drawn
    /// from `values`.
    ///
    /// `build` receives the variables of the scope (fresh ones for each case) and returns the
    /// constraint; it may use fewer of them or put them in another order, and the kit tests
    /// the scope the constraint declares.
    pub fn new<C: Constraint + 'static>(
        arity: usize,
        values: RangeInclusive<i32>,
        mut build: impl FnMut(&[VarId]) -> C + 'a,
    ) -> Self {
        Self::with_parameters(arity, values, move |vars, _| build(vars))
    }

    /// As [`ConformanceTest::new`], for a builder that also draws parameters of the
    /// constraint (tuples, constants, offsets) from the case's generator, so that each case
    /// tests another instance and the seed reproduces it.
    pub fn with_parameters<C: Constraint + 'static>(
        arity: usize,
        values: RangeInclusive<i32>,
        mut build: impl FnMut(&[VarId], &mut SplitMix64) -> C + 'a,
    ) -> Self {
        ConformanceTest {
            arity,
            values,
            build: Box::new(move |vars, random| Box::new(build(vars, random))),
            cases: Self::DEFAULT_CASES,
            seed: Self::DEFAULT_SEED,
            max_domain_size: 5,
            max_assignments: 1024,
            repeats: false,
            required: Vec::new(),
        }
    }

    /// The number of random cases (200 by default).
    pub fn cases(mut self, cases: usize) -> Self {
        self.cases = cases;
        self
    }

    /// The seed of the cases ([`DEFAULT_SEED`](Self::DEFAULT_SEED) by default). Case 0 of a
    /// run uses the seed itself, so a failing case `k` reported with its own seed `s` is run
    /// again, alone, by `.seed(s).cases(1)`.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// The most values in a random initial domain (5 by default).
    pub fn max_domain_size(mut self, size: usize) -> Self {
        self.max_domain_size = size;
        self
    }

    /// The most full assignments of the scope a case may have (1024 by default): current
    /// domains are cut down to this before the brute force enumeration.
    pub fn max_assignments(mut self, count: usize) -> Self {
        self.max_assignments = count;
        self
    }

    /// Also tests scopes that name one variable at two positions: in about a third of the
    /// cases (arity 2 or more), the builder is handed a list in which one position repeats an
    /// earlier variable, as `Count` over `[x, y, x]` or `x = y · x` would be posted. The brute
    /// force gives repeated positions one value. Declared idempotence is not enforced on those
    /// cases (a relaxation that treats the positions apart may need a second call; see
    /// [`Constraint::scope`]).
    pub fn repeated_variables(mut self) -> Self {
        self.repeats = true;
        self
    }

    /// Requires `consistency` after every propagation at `level` (the documented strength of
    /// the constraint). Unlike the other properties, a weak case does not stop the run: every
    /// case is run, and the failure reported is the smallest weak case (fewest values in the
    /// scope's domains), with the value left without support and the seed that reproduces it.
    ///
    /// [`Consistency::Bounds`] is checked on cases whose domains' hulls hold at most 2^20
    /// assignments (all of them with the default value ranges).
    pub fn require(mut self, level: PropagationLevel, consistency: Consistency) -> Self {
        self.required.push((level, consistency));
        self
    }

    /// Runs every case.
    ///
    /// # Errors
    ///
    /// The first [`ConformanceFailure`]: a property violated, the constraint rejected by the
    /// model or panicking, or a configuration that cannot make a case (arity 0, an empty value
    /// range or one wider than [`Domain::MAX_SPAN`], which the kit's random domains cannot
    /// span, a zero maximum).
    #[allow(
        clippy::result_large_err,
        reason = "a failure ends a test run once; a plain value is easier to match and print"
    )]
    pub fn run(&mut self) -> Result<ConformanceReport, ConformanceFailure> {
        self.validate()?;
        let mut report = ConformanceReport {
            seed: self.seed,
            cases: 0,
            constraint: String::new(),
            levels: LEVELS.map(|level| LevelReport {
                level,
                ..LevelReport::default()
            }),
        };
        let mut seeds = SplitMix64::new(self.seed);
        let mut weakest: Option<(usize, Box<ConformanceFailure>)> = None;
        for case in 0..self.cases {
            let case_seed = if case == 0 {
                self.seed
            } else {
                seeds.next_u64()
            };
            let mut run = CaseRun {
                test: self,
                case,
                case_seed,
                state: None,
                constraint: String::new(),
                level: None,
                weak: Default::default(),
            };
            let outcome = catch_unwind(AssertUnwindSafe(|| run.run(&mut report)));
            if let Some(weak) = run.weak.take() {
                let size: usize = weak.before.iter().map(Domain::size).sum();
                if weakest
                    .as_ref()
                    .is_none_or(|(smallest, _)| size < *smallest)
                {
                    weakest = Some((size, weak));
                }
            }
            match outcome {
                Ok(Ok(())) => {}
                Ok(Err(failure)) => return Err(*failure),
                Err(payload) => {
                    let message = payload
                        .downcast_ref::<&str>()
                        .map(|s| (*s).to_owned())
                        .or_else(|| payload.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "a panic with a non-text payload".to_owned());
                    return Err(*run.failure(
                        Property::NoPanic,
                        None,
                        format!("the constraint panicked: {message}"),
                    ));
                }
            }
            report.cases += 1;
        }
        match weakest {
            Some((_, failure)) => Err(*failure),
            None => Ok(report),
        }
    }

    /// Runs every case and returns the report.
    ///
    /// # Panics
    ///
    /// On the first failure, with its message (the property, the domains, the seed): this is
    /// the form to use inside `#[test]`.
    #[track_caller]
    pub fn assert_conforms(&mut self) -> ConformanceReport {
        match self.run() {
            Ok(report) => report,
            Err(failure) => panic!("{failure}"),
        }
    }

    #[allow(
        clippy::result_large_err,
        reason = "called once per run, on the way to `run`'s own result"
    )]
    fn validate(&self) -> Result<(), ConformanceFailure> {
        let problem = if self.arity == 0 {
            Some("arity 0: a constraint needs at least one variable".to_owned())
        } else if self.values.is_empty() {
            Some(format!("the value range {:?} is empty", self.values))
        } else if span(&self.values) > Domain::MAX_SPAN as u64 {
            Some(format!(
                "the value range {:?} is wider than the kit draws domains from ({} values)",
                self.values,
                Domain::MAX_SPAN
            ))
        } else if self.max_domain_size == 0 || self.max_assignments == 0 {
            Some("max_domain_size and max_assignments must be at least 1".to_owned())
        } else {
            None
        };
        match problem {
            None => Ok(()),
            Some(message) => Err(ConformanceFailure {
                property: Property::Setup,
                level: None,
                constraint: String::new(),
                seed: self.seed,
                case: 0,
                case_seed: self.seed,
                variables: Vec::new(),
                before: Vec::new(),
                after: None,
                message,
            }),
        }
    }
}

fn span(values: &RangeInclusive<i32>) -> u64 {
    (i64::from(*values.end()) - i64::from(*values.start()) + 1) as u64
}

/// The state of one case: the model (which owns the constraint), the domains.
struct CaseState {
    model: Model,
    /// Positions (variable indices) of the constraint's scope.
    scope: Vec<usize>,
    initial: Vec<Domain>,
    current: Vec<Domain>,
}

/// One case being run, with what a failure report needs.
struct CaseRun<'t, 'a> {
    test: &'t mut ConformanceTest<'a>,
    case: usize,
    case_seed: u64,
    state: Option<CaseState>,
    constraint: String,
    level: Option<PropagationLevel>,
    /// The first propagation of this case weaker than a required consistency.
    weak: std::cell::RefCell<Option<Box<ConformanceFailure>>>,
}

/// The result of one propagation call from given domains.
struct Propagated {
    conflict: bool,
    after: Vec<Domain>,
    restored: bool,
}

/// Runs `propagate` once on a copy of `domains`, then undoes it through a trail.
fn propagate_once(
    constraint: &dyn Constraint,
    domains: &[Domain],
    level: PropagationLevel,
) -> Propagated {
    let mut work = domains.to_vec();
    let mut trail = Trail::default();
    trail.push_level();
    let conflict = {
        let mut ctx = PropagationContext::new(&mut work, &mut trail, None, level);
        constraint.propagate(&mut ctx).is_err()
    };
    let after = work.clone();
    trail.undo_to(0, &mut work);
    Propagated {
        conflict,
        after,
        restored: work == domains,
    }
}

/// Removes from `domain` every value but those `keep` accepts, as the search would (same
/// window, same representation).
fn restrict(domain: &Domain, keep: impl FnMut(i32) -> bool) -> Domain {
    let mut d = domain.clone();
    d.retain(keep, &mut |_, _| {});
    d
}

impl CaseRun<'_, '_> {
    fn failure(
        &self,
        property: Property,
        after: Option<&[Domain]>,
        message: String,
    ) -> Box<ConformanceFailure> {
        let (variables, before, after) = match &self.state {
            Some(state) => (
                state
                    .scope
                    .iter()
                    .map(|&i| state.model.var_name(var_at(&state.model, i)).into_owned())
                    .collect(),
                state
                    .scope
                    .iter()
                    .map(|&i| state.current[i].clone())
                    .collect(),
                after.map(|after| state.scope.iter().map(|&i| after[i].clone()).collect()),
            ),
            None => (Vec::new(), Vec::new(), None),
        };
        Box::new(ConformanceFailure {
            property,
            level: self.level,
            constraint: self.constraint.clone(),
            seed: self.test.seed,
            case: self.case,
            case_seed: self.case_seed,
            variables,
            before,
            after,
            message,
        })
    }

    fn run(&mut self, report: &mut ConformanceReport) -> Result<(), Box<ConformanceFailure>> {
        let mut random = SplitMix64::new(self.case_seed);
        let arity = self.test.arity;
        // The model: one variable outside the scope, the scope, one more outside.
        let mut model = Model::new();
        let mut vars = Vec::with_capacity(arity + 2);
        for _ in 0..arity + 2 {
            let domain = self.random_domain(&mut random);
            let var = model.new_var(domain).map_err(|error| {
                self.failure(Property::Setup, None, format!("cannot declare: {error}"))
            })?;
            vars.push(var);
        }
        if self.test.repeats && arity >= 2 && random.chance(1, 3) {
            // Position `later` of the scope names the variable at `earlier`; the variable it
            // replaces stays in the model, outside the scope.
            let later = 1 + random.below(arity as u64 - 1) as usize;
            let earlier = random.below(later as u64) as usize;
            vars[1 + later] = vars[1 + earlier];
        }
        let constraint = (self.test.build)(&vars[1..=arity], &mut random);
        self.constraint = describe(&*constraint);
        if let Err(error) = model.post_boxed(None, constraint) {
            return Err(self.failure(
                Property::Posting,
                None,
                format!("posting on fresh variables failed: {error}"),
            ));
        }
        if report.constraint.is_empty() {
            report.constraint = model.constraint_list()[0].name().to_owned();
        }
        let scope: Vec<usize> = model.constraint_list()[0]
            .scope()
            .iter()
            .map(|var| var.index())
            .collect();
        let initial = model.initial_domains().to_vec();
        let mut current: Vec<Domain> = initial
            .iter()
            .map(|d| random_subdomain(d, &mut random))
            .collect();
        self.shrink(&mut current, &scope, &mut random);
        self.state = Some(CaseState {
            model,
            scope,
            initial,
            current,
        });
        for (slot, level) in LEVELS.into_iter().enumerate() {
            self.level = Some(level);
            self.check_level(level, &mut report.levels[slot], &mut random)?;
        }
        Ok(())
    }

    /// A random initial domain from the test's value range.
    fn random_domain(&self, random: &mut SplitMix64) -> Domain {
        let low = i64::from(*self.test.values.start());
        let width = span(&self.test.values);
        let size = 1 + random.below(self.test.max_domain_size.min(width as usize) as u64);
        let mut offsets: Vec<u64> = Vec::with_capacity(size as usize);
        if width <= 4096 {
            // Partial Fisher-Yates over all offsets.
            let mut all: Vec<u64> = (0..width).collect();
            for i in 0..size as usize {
                let j = i + random.below(width - i as u64) as usize;
                all.swap(i, j);
                offsets.push(all[i]);
            }
        } else {
            while offsets.len() < size as usize {
                let o = random.below(width);
                if !offsets.contains(&o) {
                    offsets.push(o);
                }
            }
        }
        let values = offsets.iter().map(|&o| (low + o as i64) as i32);
        // The range was checked against MAX_SPAN, so this cannot fail; keep a fallback anyway.
        Domain::from_values(values).unwrap_or_else(|_| {
            Domain::from_values([*self.test.values.start()]).expect("a one-value domain")
        })
    }

    /// Cuts the scope's domains until it has at most `max_assignments` full assignments.
    fn shrink(&self, current: &mut [Domain], scope: &[usize], random: &mut SplitMix64) {
        loop {
            let count = scope
                .iter()
                .try_fold(1usize, |n, &i| n.checked_mul(current[i].size()));
            if count.is_some_and(|n| n <= self.test.max_assignments) {
                return;
            }
            let Some(&largest) = scope.iter().max_by_key(|&&i| current[i].size()) else {
                return;
            };
            let values: Vec<i32> = current[largest].iter().collect();
            let doomed = values[random.below(values.len() as u64) as usize];
            current[largest] = restrict(&current[largest], |v| v != doomed);
        }
    }

    fn check_level(
        &self,
        level: PropagationLevel,
        stats: &mut LevelReport,
        random: &mut SplitMix64,
    ) -> Result<(), Box<ConformanceFailure>> {
        let state = self.state.as_ref().expect("the case is set up");
        let constraint = &*state.model.constraint_list()[0];
        let scope = &state.scope;
        let current = &state.current;
        let solutions = solutions(constraint, scope, current);
        let main = propagate_once(constraint, current, level);
        stats.propagations += 1;
        let declared_idempotent = constraint.is_idempotent(level);
        stats.declared_idempotent += usize::from(declared_idempotent);

        // Undo.
        if !main.restored {
            return Err(self.failure(
                Property::Undo,
                Some(&main.after),
                "undoing through the trail did not restore the domains exactly: a domain \
                 was changed without going through the PropagationContext"
                    .to_owned(),
            ));
        }
        // Locality: nothing outside the scope changes.
        for (i, (before, after)) in current.iter().zip(&main.after).enumerate() {
            if !scope.contains(&i) && before != after {
                let name = state.model.var_name(var_at(&state.model, i));
                return Err(self.failure(
                    Property::Locality,
                    Some(&main.after),
                    format!(
                        "variable {name}, outside the scope, was pruned from {before} to {after}"
                    ),
                ));
            }
        }
        // Failure detection (no empty domain behind an `Ok`) and soundness.
        if let Some(unsound) = first_unsound(&main, scope, &solutions) {
            let name = |i: usize| state.model.var_name(var_at(&state.model, i));
            let show = |solution: &[i32]| show_assignment(&state.model, scope, solution);
            return Err(match unsound {
                Unsound::Empty(i) => self.failure(
                    Property::FailureDetection,
                    Some(&main.after),
                    format!(
                        "propagate returned Ok but left the domain of {} empty (a Conflict \
                         from the context was dropped)",
                        name(i)
                    ),
                ),
                Unsound::Conflict(solution) => self.failure(
                    Property::Soundness,
                    None,
                    format!(
                        "propagate reported a conflict, but {} is a solution",
                        show(solution)
                    ),
                ),
                Unsound::Pruned(i, v, solution) => self.failure(
                    Property::Soundness,
                    Some(&main.after),
                    format!(
                        "value {v} of {} was pruned, but the solution {} uses it",
                        name(i),
                        show(solution)
                    ),
                ),
            });
        }
        // Failure detection: a scope fixed by propagation itself must satisfy the rule. The
        // engine runs a constraint again after its own pruning unless it is idempotent (and
        // always with a variable at two positions): so does the kit, to the fixpoint, before
        // it judges.
        let mut settled = Propagated {
            conflict: main.conflict,
            after: main.after.clone(),
            restored: true,
        };
        if has_repeats(scope) || !declared_idempotent {
            while !settled.conflict {
                let again = propagate_once(constraint, &settled.after, level);
                let changed = again.after != settled.after;
                settled = again;
                if !changed {
                    break;
                }
            }
        }
        if !settled.conflict && scope.iter().all(|&i| settled.after[i].is_fixed()) {
            let values: Vec<i32> = scope
                .iter()
                .filter_map(|&i| settled.after[i].value())
                .collect();
            if !constraint.check(&values) {
                return Err(self.failure(
                    Property::FailureDetection,
                    Some(&settled.after),
                    format!(
                        "propagation fixed the scope to {}, which check rejects, and reported \
                         no conflict",
                        show_assignment(&state.model, scope, &values)
                    ),
                ));
            }
        }
        if main.conflict {
            stats.conflicts += 1;
        }
        if main.after != *current {
            stats.pruned += 1;
        }
        if is_domain_consistent(&main, scope, &solutions) {
            stats.domain_consistent += 1;
        }
        self.check_strength(level, &main, &solutions);
        // Locality: the same pruning when the domains outside the scope are different.
        let mut elsewhere = current.clone();
        for (i, domain) in elsewhere.iter_mut().enumerate() {
            if !scope.contains(&i) {
                *domain = random_subdomain(&state.initial[i], random);
            }
        }
        let other = propagate_once(constraint, &elsewhere, level);
        if !same_result(&other, &main, scope) {
            let outside: Vec<String> = (0..current.len())
                .filter(|i| !scope.contains(i))
                .map(|i| {
                    let name = state.model.var_name(var_at(&state.model, i));
                    format!("{name} ∈ {} (then {})", current[i], elsewhere[i])
                })
                .collect();
            return Err(self.failure(
                Property::Locality,
                Some(&main.after),
                format!(
                    "the result changed when only domains outside the scope changed: {}; \
                     the second time, {}",
                    outside.join(", "),
                    show_result(&state.model, scope, &other),
                ),
            ));
        }
        // Idempotence.
        if !main.conflict {
            let again = propagate_once(constraint, &main.after, level);
            if again.conflict || again.after != main.after {
                stats.second_call_pruned += 1;
                if declared_idempotent && !has_repeats(scope) {
                    return Err(self.failure(
                        Property::Idempotence,
                        Some(&main.after),
                        format!(
                            "is_idempotent({level:?}) is true, but a second call on these \
                             domains gave {}",
                            show_result(&state.model, scope, &again)
                        ),
                    ));
                }
            }
        }
        // Failure detection on full assignments.
        for assignment in sample_assignments(scope, current, &solutions, random) {
            let mut fixed = current.clone();
            for (&i, &v) in scope.iter().zip(&assignment) {
                fixed[i] = restrict(&current[i], |w| w == v);
            }
            let accepted = constraint.check(&assignment);
            let result = propagate_once(constraint, &fixed, level);
            stats.full_assignments += 1;
            if result.conflict == accepted {
                let shown = show_assignment(&state.model, scope, &assignment);
                let message = if accepted {
                    format!("check accepts {shown}, but propagate reported a conflict")
                } else {
                    format!("check rejects {shown}, but propagate reported no conflict")
                };
                return Err(self.failure(Property::FailureDetection, None, message));
            }
        }
        self.check_propagator(level, stats, random)
    }

    /// Records this case as weak if `result` misses a consistency required at `level`.
    fn check_strength(&self, level: PropagationLevel, result: &Propagated, solutions: &[Vec<i32>]) {
        let required: Vec<Consistency> = self
            .test
            .required
            .iter()
            .filter(|(at, _)| *at == level)
            .map(|&(_, consistency)| consistency)
            .collect();
        for consistency in required {
            if self.weak.borrow().is_some() {
                break;
            }
            let state = self.state.as_ref().expect("the case is set up");
            let (constraint, scope) = (&*state.model.constraint_list()[0], &state.scope);
            let gap = match consistency {
                Consistency::Domain => domain_gap(result, scope, solutions),
                Consistency::Bounds => bounds_gap(constraint, result, scope),
            };
            let Some(gap) = gap else { continue };
            let message = match gap {
                Gap::MissedConflict => format!(
                    "{consistency} consistency required at {level:?}: no solution is left, but \
                     propagation reported no conflict"
                ),
                Gap::Unsupported(i, v) => format!(
                    "{consistency} consistency required at {level:?}: value {v} of {} is left \
                     but has no support ({})",
                    state.model.var_name(var_at(&state.model, i)),
                    match consistency {
                        Consistency::Domain => "no solution within the domains left uses it",
                        Consistency::Bounds =>
                            "no solution within the bounds of the domains left uses it",
                    }
                ),
            };
            let failure = self.failure(Property::Strength, Some(&result.after), message);
            *self.weak.borrow_mut() = Some(failure);
        }
    }

    /// Property 6: the constraint's propagator, if it has one, on a root, a branch, a
    /// backtrack and another branch, against a fresh propagator that sees only the second one.
    fn check_propagator(
        &self,
        level: PropagationLevel,
        stats: &mut LevelReport,
        random: &mut SplitMix64,
    ) -> Result<(), Box<ConformanceFailure>> {
        let state = self.state.as_ref().expect("the case is set up");
        let constraint = &*state.model.constraint_list()[0];
        let (scope, current) = (&state.scope, &state.current);
        let initial = state.model.initial_domains();
        let mut trail = Trail::default();
        let Some(mut walker) =
            constraint.propagator(&mut PropagatorSetup::new(initial, &mut trail, level))
        else {
            return Ok(());
        };
        let mut fresh_trail = Trail::default();
        let Some(mut fresh) =
            constraint.propagator(&mut PropagatorSetup::new(initial, &mut fresh_trail, level))
        else {
            return Err(self.failure(
                Property::State,
                None,
                "propagator returned a propagator once and None the second time".to_owned(),
            ));
        };
        let wake = constraint.wake_on(level);
        let runner = Runner {
            scope,
            level,
            wake,
            idempotent: constraint.is_idempotent(level) && !has_repeats(scope),
        };
        // The root: a first run, told nothing.
        let mut domains = current.clone();
        let root = runner.run(&mut *walker, &mut domains, &mut trail, None);
        self.check_sound(
            Property::State,
            &root,
            current,
            "the propagator's first run",
        )?;
        if root.conflict {
            return Ok(());
        }
        let node = domains.clone();
        // A branch, explored and undone.
        trail.push_level();
        let (branch, changes) = narrow(&node, scope, wake, random);
        apply(&mut domains, &mut trail, &branch, level);
        if !changes.is_empty() {
            stats.incremental_runs += 1;
            let first = runner.run(&mut *walker, &mut domains, &mut trail, Some(&changes));
            self.check_sound(
                Property::State,
                &first,
                &branch,
                "a run told of the changes",
            )?;
        }
        trail.undo_to(0, &mut domains);
        if domains != node {
            return Err(self.failure(
                Property::Undo,
                Some(&domains),
                "backtracking over a propagator's run did not restore the domains exactly"
                    .to_owned(),
            ));
        }
        // Another branch from the same node, for the walker and for the fresh propagator.
        let (other, changes) = narrow(&node, scope, wake, random);
        if changes.is_empty() {
            return Ok(());
        }
        stats.incremental_runs += 1;
        trail.push_level();
        apply(&mut domains, &mut trail, &other, level);
        let walked = runner.run(&mut *walker, &mut domains, &mut trail, Some(&changes));
        self.check_sound(Property::State, &walked, &other, "a run after a backtrack")?;
        let mut fresh_domains = current.clone();
        let fresh_root = runner.run(&mut *fresh, &mut fresh_domains, &mut fresh_trail, None);
        if fresh_root.conflict || fresh_domains != node {
            return Err(self.failure(
                Property::State,
                Some(&fresh_domains),
                "two fresh propagators disagree on their first run".to_owned(),
            ));
        }
        fresh_trail.push_level();
        apply(&mut fresh_domains, &mut fresh_trail, &other, level);
        let expected = runner.run(
            &mut *fresh,
            &mut fresh_domains,
            &mut fresh_trail,
            Some(&changes),
        );
        if !same_result(&walked, &expected, scope) {
            let narrowed: Vec<String> = changes
                .iter()
                .map(|c| {
                    let i = scope[c.position];
                    let name = state.model.var_name(var_at(&state.model, i));
                    format!("{name} {} -> {}", node[i], other[i])
                })
                .collect();
            return Err(self.failure(
                Property::State,
                Some(&walked.after),
                format!(
                    "after a branch was explored and undone, the propagator pruned differently \
                     from a fresh one on the next branch ({}): it gave {}, a fresh one {}; its \
                     state was not restored",
                    narrowed.join(", "),
                    show_result(&state.model, scope, &walked),
                    show_result(&state.model, scope, &expected),
                ),
            ));
        }
        Ok(())
    }

    /// Soundness and failure detection of one result on `domains`.
    fn check_sound(
        &self,
        property: Property,
        result: &Propagated,
        domains: &[Domain],
        what: &str,
    ) -> Result<(), Box<ConformanceFailure>> {
        let state = self.state.as_ref().expect("the case is set up");
        let (constraint, scope) = (&*state.model.constraint_list()[0], &state.scope);
        let solutions = solutions(constraint, scope, domains);
        if let Some(unsound) = first_unsound(result, scope, &solutions) {
            let name = |i: usize| state.model.var_name(var_at(&state.model, i));
            let (show, on) = (
                |solution: &[i32]| show_assignment(&state.model, scope, solution),
                show_domains(&state.model, scope, domains),
            );
            let (after, message) = match unsound {
                Unsound::Empty(i) => (
                    Some(&result.after[..]),
                    format!(
                        "{what} returned Ok but left the domain of {} empty",
                        name(i)
                    ),
                ),
                Unsound::Conflict(solution) => (
                    None,
                    format!(
                        "{what} reported a conflict on {on}, but {} is a solution",
                        show(solution)
                    ),
                ),
                Unsound::Pruned(i, v, solution) => (
                    Some(&result.after[..]),
                    format!(
                        "{what} on {on} pruned value {v} of {}, but the solution {} uses it",
                        name(i),
                        show(solution)
                    ),
                ),
            };
            return Err(self.failure(property, after, message));
        }
        if result.conflict {
            return Ok(());
        }
        if scope.iter().all(|&i| result.after[i].is_fixed()) {
            let values: Vec<i32> = scope
                .iter()
                .filter_map(|&i| result.after[i].value())
                .collect();
            if !constraint.check(&values) {
                return Err(self.failure(
                    property,
                    Some(&result.after),
                    format!(
                        "{what} returned Ok on the full assignment {}, which check rejects",
                        show_assignment(&state.model, scope, &values)
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// The first way a propagation result breaks soundness or failure detection.
enum Unsound<'s> {
    /// A conflict, while this is a solution.
    Conflict(&'s [i32]),
    /// `Ok`, with the domain of this variable (an index in the model) left empty.
    Empty(usize),
    /// Value `v` of this variable was pruned, while this solution uses it.
    Pruned(usize, i32, &'s [i32]),
}

/// Checks `result` against the brute-force `solutions` of the scope.
fn first_unsound<'s>(
    result: &Propagated,
    scope: &[usize],
    solutions: &'s [Vec<i32>],
) -> Option<Unsound<'s>> {
    if result.conflict {
        return solutions.first().map(|s| Unsound::Conflict(s));
    }
    if let Some(&i) = scope.iter().find(|&&i| result.after[i].is_empty()) {
        return Some(Unsound::Empty(i));
    }
    solutions.iter().find_map(|solution| {
        scope
            .iter()
            .zip(solution)
            .find(|&(&i, &v)| !result.after[i].contains(v))
            .map(|(&i, &v)| Unsound::Pruned(i, v, solution))
    })
}

/// Whether two results agree on the scope: both conflicts, or the same domains.
fn same_result(a: &Propagated, b: &Propagated, scope: &[usize]) -> bool {
    a.conflict == b.conflict && (a.conflict || scope.iter().all(|&i| a.after[i] == b.after[i]))
}

/// How a propagator is run in the kit: as the engine would, again after its own changes
/// unless it is idempotent, each time told of the changes since its last run.
struct Runner<'s> {
    scope: &'s [usize],
    level: PropagationLevel,
    wake: WakeOn,
    idempotent: bool,
}

impl Runner<'_> {
    /// Runs `propagator` on `domains` (changed in place, through `trail`), told of `changes`
    /// (`None`: a first run), until it reports a conflict or changes nothing it would hear of.
    fn run(
        &self,
        propagator: &mut dyn Propagator,
        domains: &mut [Domain],
        trail: &mut Trail,
        changes: Option<&[Change]>,
    ) -> Propagated {
        let mut changes = changes.map(<[Change]>::to_vec);
        // A propagator that keeps pruning its own domains ends within this many runs, since
        // each run with changes removes at least one value of the scope.
        let mut runs_left: usize = 1 + self.scope.iter().map(|&i| domains[i].size()).sum::<usize>();
        loop {
            let before = domains.to_vec();
            let conflict = {
                let mut ctx = PropagationContext::new(domains, trail, None, self.level)
                    .with_changes(changes.as_deref());
                propagator.propagate(&mut ctx).is_err()
            };
            runs_left -= 1;
            let own = if conflict || self.idempotent || runs_left == 0 {
                Vec::new()
            } else {
                heard_changes(&before, domains, self.scope, self.wake)
            };
            if own.is_empty() {
                return Propagated {
                    conflict,
                    after: domains.to_vec(),
                    restored: true,
                };
            }
            changes = Some(own);
        }
    }
}

/// The changes from `before` to `after` in the scope that a propagator waking on `wake` hears.
fn heard_changes(
    before: &[Domain],
    after: &[Domain],
    scope: &[usize],
    wake: WakeOn,
) -> Vec<Change> {
    let mut changes = Vec::new();
    for (position, &i) in scope.iter().enumerate() {
        let (old, new) = (&before[i], &after[i]);
        if old == new || new.is_empty() {
            continue;
        }
        let event = if new.is_fixed() {
            DomainEvent::Fixed
        } else if (new.min(), new.max()) != (old.min(), old.max()) {
            DomainEvent::Bounds
        } else {
            DomainEvent::Removed
        };
        let heard = match wake {
            WakeOn::Fixed => event == DomainEvent::Fixed,
            WakeOn::Bounds => event >= DomainEvent::Bounds,
            _ => true,
        };
        if heard {
            changes.push(Change { position, event });
        }
    }
    changes
}

/// A random narrowing of some variables of the scope (as other constraints and decisions
/// would), and the changes a propagator waking on `wake` would be told of.
fn narrow(
    node: &[Domain],
    scope: &[usize],
    wake: WakeOn,
    random: &mut SplitMix64,
) -> (Vec<Domain>, Vec<Change>) {
    let mut narrowed = node.to_vec();
    for &i in scope {
        if node[i].size() < 2 || !random.chance(1, 2) {
            continue;
        }
        let values: Vec<i32> = node[i].iter().collect();
        narrowed[i] = if random.chance(1, 3) {
            let v = values[random.below(values.len() as u64) as usize];
            restrict(&node[i], |w| w == v)
        } else {
            random_subdomain(&node[i], random)
        };
    }
    let changes = heard_changes(node, &narrowed, scope, wake);
    (narrowed, changes)
}

/// Narrows `domains` to `target` through a context, so that the trail records it.
fn apply(domains: &mut [Domain], trail: &mut Trail, target: &[Domain], level: PropagationLevel) {
    let mut ctx = PropagationContext::new(domains, trail, None, level);
    for (i, domain) in target.iter().enumerate() {
        let var = VarId {
            model: 0,
            index: i as u32,
        };
        // `target` is within the domains and not empty, so this cannot fail.
        let _ = ctx.retain(var, |v| domain.contains(v));
    }
}

fn show_domains(model: &Model, scope: &[usize], domains: &[Domain]) -> String {
    let parts: Vec<String> = scope
        .iter()
        .map(|&i| format!("{} ∈ {}", model.var_name(var_at(model, i)), domains[i]))
        .collect();
    parts.join(", ")
}

/// The variable at `index` of `model`.
fn var_at(model: &Model, index: usize) -> VarId {
    VarId {
        model: model.id(),
        index: index as u32,
    }
}

/// `Debug` of the constraint, shortened for messages.
fn describe(constraint: &dyn Constraint) -> String {
    const LIMIT: usize = 300;
    let text = format!("{constraint:?}");
    match text.char_indices().nth(LIMIT) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

fn show_assignment(model: &Model, scope: &[usize], values: &[i32]) -> String {
    let parts: Vec<String> = scope
        .iter()
        .zip(values)
        .map(|(&i, v)| format!("{} = {v}", model.var_name(var_at(model, i))))
        .collect();
    format!("({})", parts.join(", "))
}

fn show_result(model: &Model, scope: &[usize], result: &Propagated) -> String {
    if result.conflict {
        return "a conflict".to_owned();
    }
    let parts: Vec<String> = scope
        .iter()
        .map(|&i| format!("{} ∈ {}", model.var_name(var_at(model, i)), result.after[i]))
        .collect();
    parts.join(", ")
}

/// A random non-empty subset of `domain`: the whole of it, one value, or a random cut.
fn random_subdomain(domain: &Domain, random: &mut SplitMix64) -> Domain {
    let values: Vec<i32> = domain.iter().collect();
    match random.below(10) {
        0..=3 => domain.clone(),
        4..=5 => {
            let v = values[random.below(values.len() as u64) as usize];
            restrict(domain, |w| w == v)
        }
        _ => {
            let keep: Vec<bool> = values.iter().map(|_| random.below(2) == 1).collect();
            let rescue = random.below(values.len() as u64) as usize;
            let mut position = 0;
            let none_kept = !keep.contains(&true);
            restrict(domain, |_| {
                let kept = keep[position] || (none_kept && position == rescue);
                position += 1;
                kept
            })
        }
    }
}

/// Every assignment of the scope's current domains that `check` accepts, in lexicographic
/// order.
fn solutions(constraint: &dyn Constraint, scope: &[usize], domains: &[Domain]) -> Vec<Vec<i32>> {
    let lists: Vec<Vec<i32>> = scope.iter().map(|&i| domains[i].iter().collect()).collect();
    let mut found = Vec::new();
    if lists.iter().any(Vec::is_empty) {
        return found;
    }
    let mut digits = vec![0usize; lists.len()];
    let mut values: Vec<i32> = lists.iter().map(|l| l[0]).collect();
    loop {
        if agrees(scope, &values) && constraint.check(&values) {
            found.push(values.clone());
        }
        let mut p = lists.len();
        loop {
            if p == 0 {
                return found;
            }
            p -= 1;
            digits[p] += 1;
            if digits[p] < lists[p].len() {
                values[p] = lists[p][digits[p]];
                break;
            }
            digits[p] = 0;
            values[p] = lists[p][0];
        }
    }
}

/// Whether, after `result`, every value left in the scope belongs to a solution within the
/// domains left (or the conflict was right).
/// Whether the scope names a variable at two positions.
fn has_repeats(scope: &[usize]) -> bool {
    scope
        .iter()
        .enumerate()
        .any(|(p, i)| scope[..p].contains(i))
}

/// Whether `values` gives the same value at the positions of one variable.
fn agrees(scope: &[usize], values: &[i32]) -> bool {
    scope
        .iter()
        .enumerate()
        .all(|(p, i)| match scope[..p].iter().position(|j| j == i) {
            Some(q) => values[q] == values[p],
            None => true,
        })
}

/// How a propagation result falls short of a consistency.
enum Gap {
    /// Some value left has no support: (variable index, value).
    Unsupported(usize, i32),
    /// No solution is left, but no conflict was reported.
    MissedConflict,
}

/// The first value left without a support among the solutions within the domains left.
fn domain_gap(result: &Propagated, scope: &[usize], solutions: &[Vec<i32>]) -> Option<Gap> {
    if result.conflict {
        return None; // soundness already checked that no solution exists
    }
    let within = |solution: &&Vec<i32>| {
        scope
            .iter()
            .zip(solution.iter())
            .all(|(&i, &v)| result.after[i].contains(v))
    };
    let left: Vec<&Vec<i32>> = solutions.iter().filter(within).collect();
    if left.is_empty() {
        return Some(Gap::MissedConflict);
    }
    for (p, &i) in scope.iter().enumerate() {
        if let Some(v) = result.after[i]
            .iter()
            .find(|&v| !left.iter().any(|s| s[p] == v))
        {
            return Some(Gap::Unsupported(i, v));
        }
    }
    None
}

/// The first bound left without a support among the assignments of the domains' hulls (bounds
/// consistency over the integers); `None` also when the hulls are too large to enumerate.
fn bounds_gap(constraint: &dyn Constraint, result: &Propagated, scope: &[usize]) -> Option<Gap> {
    const LIMIT: u64 = 1 << 20;
    if result.conflict {
        return None;
    }
    let hulls: Vec<(i32, i32)> = scope
        .iter()
        .map(|&i| (result.after[i].min(), result.after[i].max()))
        .map(|(lo, hi)| (lo.unwrap_or(0), hi.unwrap_or(-1)))
        .collect();
    let count = hulls.iter().try_fold(1u64, |n, &(lo, hi)| {
        n.checked_mul((i64::from(hi) - i64::from(lo) + 1).max(0) as u64)
    });
    if count.is_none_or(|n| n > LIMIT) {
        return None;
    }
    let mut low_seen = vec![false; scope.len()];
    let mut high_seen = vec![false; scope.len()];
    let mut values: Vec<i32> = hulls.iter().map(|&(lo, _)| lo).collect();
    'enumerate: loop {
        if agrees(scope, &values) && constraint.check(&values) {
            for (p, &(lo, hi)) in hulls.iter().enumerate() {
                low_seen[p] |= values[p] == lo;
                high_seen[p] |= values[p] == hi;
            }
        }
        let mut p = scope.len();
        loop {
            if p == 0 {
                break 'enumerate;
            }
            p -= 1;
            if values[p] < hulls[p].1 {
                values[p] += 1;
                break;
            }
            values[p] = hulls[p].0;
        }
    }
    if !low_seen.iter().any(|&seen| seen) {
        return Some(Gap::MissedConflict);
    }
    (0..scope.len()).find_map(|p| {
        if !low_seen[p] {
            Some(Gap::Unsupported(scope[p], hulls[p].0))
        } else if !high_seen[p] {
            Some(Gap::Unsupported(scope[p], hulls[p].1))
        } else {
            None
        }
    })
}

fn is_domain_consistent(result: &Propagated, scope: &[usize], solutions: &[Vec<i32>]) -> bool {
    if result.conflict {
        return solutions.is_empty();
    }
    let mut supported: Vec<Vec<i32>> = vec![Vec::new(); scope.len()];
    for solution in solutions {
        if scope
            .iter()
            .zip(solution)
            .all(|(&i, &v)| result.after[i].contains(v))
        {
            for (list, &v) in supported.iter_mut().zip(solution) {
                list.push(v);
            }
        }
    }
    supported.iter_mut().zip(scope).all(|(list, &i)| {
        list.sort_unstable();
        list.dedup();
        list.len() == result.after[i].size()
    })
}

/// Up to [`FULL_ASSIGNMENTS`] full assignments of the scope's current domains: half solutions
/// (if any), the rest uniform.
fn sample_assignments(
    scope: &[usize],
    domains: &[Domain],
    solutions: &[Vec<i32>],
    random: &mut SplitMix64,
) -> Vec<Vec<i32>> {
    let lists: Vec<Vec<i32>> = scope.iter().map(|&i| domains[i].iter().collect()).collect();
    let mut sample: Vec<Vec<i32>> = Vec::with_capacity(FULL_ASSIGNMENTS);
    if solutions.len() <= FULL_ASSIGNMENTS / 2 {
        sample.extend(solutions.iter().cloned());
    } else {
        for _ in 0..FULL_ASSIGNMENTS / 2 {
            sample.push(solutions[random.below(solutions.len() as u64) as usize].clone());
        }
    }
    while sample.len() < FULL_ASSIGNMENTS {
        let mut values: Vec<i32> = lists
            .iter()
            .map(|list| list[random.below(list.len() as u64) as usize])
            .collect();
        // The positions of one variable take the value of its first.
        for (p, i) in scope.iter().enumerate() {
            if let Some(q) = scope[..p].iter().position(|j| j == i) {
                values[p] = values[q];
            }
        }
        sample.push(values);
    }
    sample
}

/// What a passing run measured, per propagation level.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ConformanceReport {
    /// The seed of the run.
    pub seed: u64,
    /// The number of cases run.
    pub cases: usize,
    /// The name of the constraint tested ([`Constraint::name`]).
    pub constraint: String,
    /// One report per level: `None`, `Forward`, `Full`.
    pub levels: [LevelReport; 3],
}

impl ConformanceReport {
    /// The report of one level.
    pub fn level(&self, level: PropagationLevel) -> &LevelReport {
        match level {
            PropagationLevel::None => &self.levels[0],
            PropagationLevel::Forward => &self.levels[1],
            PropagationLevel::Full => &self.levels[2],
        }
    }
}

/// What a passing run measured at one propagation level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct LevelReport {
    /// The level.
    pub level: PropagationLevel,
    /// Propagation calls checked for soundness (one per case).
    pub propagations: usize,
    /// Of those, the calls that pruned something.
    pub pruned: usize,
    /// Of those, the calls that reported a conflict.
    pub conflicts: usize,
    /// Of those, the calls after which every value left in the scope had a support (a
    /// solution of the constraint within the domains left), or that rightly reported a
    /// conflict.
    pub domain_consistent: usize,
    /// Of those, the calls after which a second call pruned more or reported a conflict.
    pub second_call_pruned: usize,
    /// Of those, the calls for which [`Constraint::is_idempotent`] said true at this level
    /// (all or none of them, unless the answer depends on the constraint's parameters).
    pub declared_idempotent: usize,
    /// Full assignments checked for failure detection.
    pub full_assignments: usize,
    /// Runs of the constraint's [`Propagator`] told of changes (after a
    /// first run, on a narrowed branch), checked for soundness and for the restoration of its
    /// state; 0 for a constraint without one.
    pub incremental_runs: usize,
}

impl LevelReport {
    /// Whether every call checked left the domains domain consistent.
    pub fn is_domain_consistent(&self) -> bool {
        self.domain_consistent == self.propagations
    }

    /// Whether no second call ever pruned more, so that declaring the constraint idempotent
    /// at this level is plausible (not proven). Informative for a constraint that does not
    /// declare it: where it is declared, a second call that prunes more fails the run.
    pub fn looks_idempotent(&self) -> bool {
        self.second_call_pruned == 0
    }
}

impl fmt::Display for ConformanceReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} conforms: {} cases, seed {:#x}",
            self.constraint, self.cases, self.seed
        )?;
        writeln!(
            f,
            "  level    calls  pruned  conflicts  domain consistent  second call pruned  \
             declared idempotent"
        )?;
        for l in &self.levels {
            writeln!(
                f,
                "  {:<7} {:>6} {:>7} {:>10} {:>18} {:>19} {:>20}",
                format!("{:?}", l.level),
                l.propagations,
                l.pruned,
                l.conflicts,
                l.domain_consistent,
                l.second_call_pruned,
                l.declared_idempotent,
            )?;
        }
        Ok(())
    }
}

/// The property a [`ConformanceFailure`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Property {
    /// Propagation removed a value that a solution uses, or reported a conflict while a
    /// solution exists.
    Soundness,
    /// On a full assignment, propagation disagreed with `check`; or it returned `Ok` with an
    /// empty domain.
    FailureDetection,
    /// The constraint declared itself idempotent, but a second call pruned more.
    Idempotence,
    /// Undoing through the trail did not restore the domains exactly.
    Undo,
    /// A propagator behaved differently after a backtrack than a fresh one: its state was not
    /// restored exactly.
    State,
    /// Propagation pruned a variable outside the scope, or its result depended on one.
    Locality,
    /// The model rejected the constraint when it was posted.
    Posting,
    /// The builder or the constraint panicked.
    NoPanic,
    /// The test's configuration cannot make a case.
    Setup,
    /// Propagation left a value without support where a
    /// [required](ConformanceTest::require) consistency allows none.
    Strength,
}

/// A strength of propagation the kit can [require](ConformanceTest::require) after every
/// call at a level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Consistency {
    /// Domain (generalised arc) consistency: every value left in the scope belongs to a
    /// solution of the constraint within the domains left; and a conflict when none is left.
    Domain,
    /// Bounds consistency over the integers (bounds(Z)): the smallest and the largest value
    /// left of each variable belong to a solution whose values lie between the bounds of the
    /// domains left (holes ignored); and a conflict when there is none.
    Bounds,
}

impl fmt::Display for Consistency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Consistency::Domain => "domain",
            Consistency::Bounds => "bounds",
        })
    }
}

impl fmt::Display for Property {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Property::Soundness => "soundness (never prune a value some solution uses)",
            Property::FailureDetection => {
                "failure detection (a conflict exactly when check rejects a full assignment)"
            }
            Property::Idempotence => "idempotence (as declared by is_idempotent)",
            Property::Undo => "undo (the trail restores every domain exactly)",
            Property::State => {
                "state (after a backtrack, a propagator prunes as a fresh one would)"
            }
            Property::Locality => "locality (read and prune only the scope)",
            Property::Posting => "posting (the model accepts the constraint)",
            Property::NoPanic => "no panic",
            Property::Setup => "setup (the test's configuration)",
            Property::Strength => "strength (the consistency required after propagation)",
        })
    }
}

/// A property violated by one case: everything needed to understand and reproduce it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ConformanceFailure {
    /// The property violated.
    pub property: Property,
    /// The propagation level of the failing call, if the failure is about one.
    pub level: Option<PropagationLevel>,
    /// The constraint, as its `Debug` shows it (shortened).
    pub constraint: String,
    /// The seed of the run.
    pub seed: u64,
    /// The failing case, counted from 0.
    pub case: usize,
    /// The seed of the failing case: `.seed(case_seed).cases(1)` runs it alone.
    pub case_seed: u64,
    /// The names of the scope's variables, in the order of the scope.
    pub variables: Vec<String>,
    /// Their domains before the failing call.
    pub before: Vec<Domain>,
    /// Their domains after it, when it returned normally.
    pub after: Option<Vec<Domain>>,
    /// What went wrong, in words.
    pub message: String,
}

impl fmt::Display for ConformanceFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "conformance failure: {}", self.property)?;
        if !self.constraint.is_empty() {
            write!(f, "  constraint: {}", self.constraint)?;
            match self.level {
                Some(level) => writeln!(f, ", at PropagationLevel::{level:?}")?,
                None => writeln!(f)?,
            }
        }
        for (i, (name, before)) in self.variables.iter().zip(&self.before).enumerate() {
            write!(f, "  {name} ∈ {before}")?;
            match self.after.as_ref().and_then(|after| after.get(i)) {
                Some(after) => writeln!(f, "  →  {after}")?,
                None => writeln!(f)?,
            }
        }
        writeln!(f, "  {}", self.message)?;
        write!(
            f,
            "  reproduce: case {} of seed {:#x}; alone: .seed({:#x}).cases(1)",
            self.case, self.seed, self.case_seed
        )
    }
}

impl std::error::Error for ConformanceFailure {}

/// A small, fast, seedable pseudo-random generator (SplitMix64, by Guy L. Steele, Doug Lea
/// and Christine H. Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014).
///
/// Not for cryptography: it draws test cases. The same seed gives the same sequence on every
/// platform.
///
/// # Examples
///
/// ```
/// use cspkit::conformance::SplitMix64;
///
/// let mut random = SplitMix64::new(42);
/// let die = random.value_in(1..=6);
/// assert!((1..=6).contains(&die));
/// assert_eq!(SplitMix64::new(42).value_in(1..=6), die);
/// ```
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (0 when `bound` is 0), by multiply-and-shift: the bias is below
    /// `bound / 2^64`, negligible for test cases.
    pub fn below(&mut self, bound: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(bound)) >> 64) as u64
    }

    /// A value in `range` (its start when the range is empty).
    pub fn value_in(&mut self, range: RangeInclusive<i32>) -> i32 {
        let (low, high) = (*range.start(), *range.end());
        if low >= high {
            return low;
        }
        let width = (i64::from(high) - i64::from(low) + 1) as u64;
        (i64::from(low) + self.below(width) as i64) as i32
    }

    /// True with probability `numerator / denominator` (false when the denominator is 0).
    pub fn chance(&mut self, numerator: u64, denominator: u64) -> bool {
        self.below(denominator) < numerator
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_the_reference_sequence() {
        // First outputs of the reference implementation seeded with 1234567.
        let mut random = SplitMix64::new(1234567);
        assert_eq!(random.next_u64(), 6457827717110365317);
        assert_eq!(random.next_u64(), 3203168211198807973);
    }

    #[test]
    fn random_subdomains_keep_the_window_and_are_never_empty() {
        let mut random = SplitMix64::new(3);
        let wide = Domain::from_values([-100, 0, 7, 200]).unwrap();
        for _ in 0..200 {
            let d = random_subdomain(&wide, &mut random);
            assert!(!d.is_empty());
            assert!(d.iter().all(|v| wide.contains(v)));
        }
    }
}
