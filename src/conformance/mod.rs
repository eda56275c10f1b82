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
//! every platform. Randomness comes from [`SplitMix64`], the crate's own small generator, so
//! the kit adds no dependency and needs no cargo feature.
//!
//! # Examples
//!
//! A constraint `x ≤ y`, written from scratch and tested in one call:
//!
//! ```
//! use cspkit::conformance::ConformanceTest;
//! use cspkit::VarId;
//! use cspkit::kernel::{Conflict, Constraint, PropagationContext, PropagationLevel};
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
//! # use cspkit::VarId;
//! # use cspkit::kernel::{Conflict, Constraint, PropagationContext};
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
//!
//! # Where things are
//!
//! - `runner.rs`: [`ConformanceTest`], its settings, and how each case is made (the random
//!   model, its domains) and run;
//! - `checks.rs`: the properties above, checked on one case at each level;
//! - `oracles.rs`: the brute force the checks compare with (the solutions of the scope,
//!   domain and bounds consistency, sampled full assignments);
//! - `report.rs`: what a run returns, [`ConformanceReport`] or [`ConformanceFailure`], and how
//!   a case is written in a message.

mod checks;
mod oracles;
mod report;
mod runner;

pub use report::{ConformanceFailure, ConformanceReport, Consistency, LevelReport, Property};
pub use runner::ConformanceTest;

pub use crate::util::random::SplitMix64;

#[cfg(doc)]
use crate::{Constraint, Model, PropagationLevel, Propagator};
