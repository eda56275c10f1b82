//! One constraint run alone, outside a search, on domains the caller owns.
//!
//! [`propagate_alone`] is the one call for it: what a constraint alone deduces from some
//! domains (grading and explaining a puzzle, checking a reason, measuring a propagator in a
//! benchmark, asking "what does this constraint prune here?" in a test). [`Sandbox`] is the
//! reusable form underneath, for callers that also want one call of `propagate` instead of
//! a fixpoint, the domains as a failing call left them, or an undo.
//!
//! Both run the constraint's stateless [`Constraint::propagate`] (not a
//! [`Propagator`](crate::Propagator) it may create for a search), with no other constraint
//! and no wake-up queue: a change is seen by the constraint's next call only. The domains are
//! indexed by variable, as in the model (`domains[v.index()]` is the domain of `v`).
//!
//! Costs: the calls of `propagate`, plus one trail record per domain word changed, to undo.

use crate::domain::Domain;
use crate::kernel::PropagationLevel;
use crate::kernel::trail::Trail;
use crate::kernel::{Conflict, Constraint, PropagationContext};

/// Propagates `constraint` alone on `domains` at `level` until it prunes nothing more, and
/// reports whether it pruned anything.
///
/// One call of `propagate` need not reach the constraint's fixpoint, so it is called again
/// while it prunes some variable of its scope. `domains[v.index()]` is the domain of variable
/// `v`.
///
/// # Errors
///
/// [`Conflict`] when the constraint has no solution within the domains: a call reported one,
/// or left a domain of its scope empty. `domains` are then exactly as they were given.
///
/// # Panics
///
/// When a variable of the scope has no domain in `domains` (its index is out of range), or
/// when the constraint itself panics.
///
/// # Examples
///
/// What all-different alone deduces when `x` is fixed to 1:
///
/// ```
/// use cspkit::kernel::propagate_alone;
/// use cspkit::{AllDifferent, Domain, Model, PropagationLevel};
///
/// let mut model = Model::new();
/// let [x, y, z] = [model.new_var(1..=1)?, model.new_var(1..=2)?, model.new_var(1..=3)?];
/// let mut domains: Vec<Domain> = model.variables().map(|v| model.domain(v).clone()).collect();
///
/// let different = AllDifferent::new(&[x, y, z]);
/// assert_eq!(propagate_alone(&different, &mut domains, PropagationLevel::Forward), Ok(true));
/// // y lost 1; z lost 1, then 2 once y was fixed: a fixpoint, not a single call.
/// assert_eq!(domains[y.index()].value(), Some(2));
/// assert_eq!(domains[z.index()].value(), Some(3));
///
/// // Nothing is left to prune; a fourth variable would fail, leaving the domains alone.
/// assert_eq!(propagate_alone(&different, &mut domains, PropagationLevel::Forward), Ok(false));
/// let w = model.new_var(1..=3)?;
/// domains.push(model.domain(w).clone());
/// let before = domains.clone();
/// let crowded = AllDifferent::new(&[x, y, z, w]);
/// assert!(propagate_alone(&crowded, &mut domains, PropagationLevel::Full).is_err());
/// assert_eq!(domains, before);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn propagate_alone(
    constraint: &dyn Constraint,
    domains: &mut [Domain],
    level: PropagationLevel,
) -> Result<bool, Conflict> {
    let mut sandbox = Sandbox::new();
    let result = sandbox.propagate(constraint, domains, level);
    if result.is_err() {
        sandbox.undo(domains);
    }
    result
}

/// A place to run constraints alone on domains the caller owns, which records every change so
/// that [`undo`](Sandbox::undo) restores the domains exactly.
///
/// [`propagate_alone`] is the usual way in; a sandbox is for one call of `propagate`
/// ([`propagate_once`](Sandbox::propagate_once), as the conformance kit checks a single
/// call), for looking at the domains a failing call left, or for trying something and taking
/// it back. A sandbox keeps its buffers, so reusing one allocates nothing once they have grown.
///
/// # Examples
///
/// ```
/// use cspkit::kernel::Sandbox;
/// use cspkit::{Domain, Model, NotEqual, PropagationLevel};
///
/// let mut model = Model::new();
/// let [x, y] = [model.new_var(1..=1)?, model.new_var(1..=3)?];
/// let mut domains: Vec<Domain> = model.variables().map(|v| model.domain(v).clone()).collect();
/// let original = domains.clone();
///
/// let mut sandbox = Sandbox::new();
/// sandbox.propagate_once(&NotEqual::new(x, y), &mut domains, PropagationLevel::Forward)?;
/// assert!(!domains[y.index()].contains(1));
/// sandbox.undo(&mut domains);
/// assert_eq!(domains, original);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Sandbox {
    trail: Trail,
}

impl Default for Sandbox {
    fn default() -> Self {
        Sandbox::new()
    }
}

impl Sandbox {
    /// An empty sandbox: nothing to undo.
    pub fn new() -> Self {
        let mut trail = Trail::with_capacity(0);
        // Changes at the root level are permanent; those of level 1 can be undone.
        trail.push_level();
        Sandbox { trail }
    }

    /// Calls the constraint's `propagate` once on `domains` at `level`, recording its changes.
    ///
    /// Unlike [`propagate_alone`], this is one call (it need not reach the constraint's
    /// fixpoint), and a conflict leaves the domains as the call left them (some may be empty)
    /// until [`undo`](Sandbox::undo).
    ///
    /// # Errors
    ///
    /// The [`Conflict`] the call reported. An `Ok` with a domain left empty is passed on as
    /// it is (the conformance kit reports it as a bug of the constraint).
    ///
    /// # Panics
    ///
    /// As [`propagate_alone`].
    pub fn propagate_once(
        &mut self,
        constraint: &dyn Constraint,
        domains: &mut [Domain],
        level: PropagationLevel,
    ) -> Result<(), Conflict> {
        let mut ctx = PropagationContext::new(domains, &mut self.trail, None, level);
        constraint.propagate(&mut ctx)
    }

    /// Calls the constraint's `propagate` on `domains` at `level` until it prunes nothing more
    /// in its scope, recording its changes; whether it pruned anything.
    ///
    /// # Errors
    ///
    /// [`Conflict`] when a call reported one or left a domain of the scope empty; the domains
    /// are left as that call left them, until [`undo`](Sandbox::undo).
    ///
    /// # Panics
    ///
    /// As [`propagate_alone`].
    pub fn propagate(
        &mut self,
        constraint: &dyn Constraint,
        domains: &mut [Domain],
        level: PropagationLevel,
    ) -> Result<bool, Conflict> {
        let scope = constraint.scope();
        let size =
            |domains: &[Domain]| -> usize { scope.iter().map(|v| domains[v.index()].size()).sum() };
        let start = size(domains);
        let mut before = start;
        loop {
            self.propagate_once(constraint, domains, level)?;
            if scope.iter().any(|v| domains[v.index()].is_empty()) {
                return Err(Conflict);
            }
            let after = size(domains);
            if after == before {
                return Ok(after != start);
            }
            before = after;
        }
    }

    /// Restores `domains` exactly as they were before every change recorded since this sandbox
    /// was made or last undone, and forgets those changes.
    ///
    /// `domains` must be the slice the recorded calls changed (or one equal to it then).
    pub fn undo(&mut self, domains: &mut [Domain]) {
        self.trail.undo_to(0, domains);
        self.trail.push_level();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::SplitMix64;
    use crate::constraints::{AllDifferent, Comparison, Linear, NotEqual, Table};
    use crate::{Model, Outcome, VarId};

    /// A random small model: 3 or 4 variables with values drawn from -2..=3, one to three
    /// constraints among all-different, ≠, a difference compared with a constant, a table,
    /// and [`Increasing`].
    fn random_model(random: &mut SplitMix64) -> Model {
        let mut model = Model::new();
        let n = 3 + random.below(2) as usize;
        let vars: Vec<VarId> = (0..n)
            .map(|_| {
                let values: Vec<i32> = (-2..=3).filter(|_| random.chance(2, 3)).collect();
                model
                    .new_var(if values.is_empty() { vec![0] } else { values })
                    .unwrap()
            })
            .collect();
        for _ in 0..1 + random.below(3) {
            let a = vars[random.below(n as u64) as usize];
            let b = vars[(a.index() + 1 + random.below(n as u64 - 1) as usize) % n];
            let posted = match random.below(5) {
                4 => model.post(Increasing {
                    vars: vars[..2 + random.below(n as u64 - 1) as usize].to_vec(),
                }),
                0 => model.post(AllDifferent::new(&vars)),
                1 => model.post(NotEqual::new(a, b)),
                2 => {
                    let comparison =
                        [Comparison::Le, Comparison::Eq, Comparison::Ne][random.below(3) as usize];
                    let k = i64::from(random.value_in(-2..=2));
                    model.post(Linear::new(&[(1, a), (-1, b)], comparison, k))
                }
                _ => {
                    let tuples: Vec<[i32; 2]> = (0..5)
                        .map(|_| [random.value_in(-2..=3), random.value_in(-2..=3)])
                        .collect();
                    model.post(Table::new(&[a, b], tuples).unwrap())
                }
            };
            posted.unwrap();
        }
        model
    }

    /// `x₀ < x₁ < …`, pruning at most one value from each end of a pair per call: it needs
    /// several calls to reach its fixpoint.
    #[derive(Debug)]
    struct Increasing {
        vars: Vec<VarId>,
    }

    impl Constraint for Increasing {
        fn scope(&self) -> &[VarId] {
            &self.vars
        }

        fn check(&self, values: &[i32]) -> bool {
            values.windows(2).all(|pair| pair[0] < pair[1])
        }

        fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
            for pair in self.vars.windows(2) {
                let (below, above) = (ctx.domain(pair[0]), ctx.domain(pair[1]));
                let (Some(top), Some(ceiling)) = (below.max(), above.max()) else {
                    return Err(Conflict);
                };
                let (Some(floor), Some(bottom)) = (below.min(), above.min()) else {
                    return Err(Conflict);
                };
                if top >= ceiling {
                    ctx.remove(pair[0], top)?;
                }
                if bottom <= floor {
                    ctx.remove(pair[1], bottom)?;
                }
            }
            Ok(())
        }
    }

    fn domains_of(model: &Model) -> Vec<Domain> {
        model.variables().map(|v| model.domain(v).clone()).collect()
    }

    /// Rounds of `propagate_alone` over every constraint until none prunes: the common
    /// fixpoint, or `None` on a conflict. Checks on the way that a conflict leaves the domains
    /// as given and that `Ok(true)` means exactly that something was pruned.
    fn rounds(model: &Model, level: PropagationLevel) -> Option<Vec<Domain>> {
        let mut domains = domains_of(model);
        loop {
            let mut pruned = false;
            for (_, constraint) in model.constraints() {
                let before = domains.clone();
                match propagate_alone(constraint, &mut domains, level) {
                    Ok(p) => {
                        assert_eq!(p, domains != before, "Ok(pruned) at {level:?}");
                        pruned |= p;
                    }
                    Err(Conflict) => {
                        assert_eq!(domains, before, "a conflict changed the domains");
                        return None;
                    }
                }
            }
            if !pruned {
                return Some(domains);
            }
        }
    }

    #[test]
    fn propagating_alone_agrees_with_the_solver_on_random_small_models() {
        let mut random = SplitMix64::new(37);
        let (mut solved_at_root, mut failed_at_root) = (0, 0);
        for _ in 0..600 {
            let model = random_model(&mut random);
            let solutions: Vec<Vec<i32>> = model
                .solver()
                .solutions()
                .map(|s| s.values().to_vec())
                .collect();
            for level in PropagationLevel::ALL {
                let alone = rounds(&model, level);
                // Sound: no solution of the model is pruned, a conflict only without one.
                match &alone {
                    None => assert!(solutions.is_empty(), "a conflict at {level:?}: {model:?}"),
                    Some(domains) => {
                        for solution in &solutions {
                            let kept = solution.iter().zip(domains).all(|(&v, d)| d.contains(v));
                            assert!(kept, "{solution:?} pruned at {level:?}: {model:?}");
                        }
                    }
                }
                // At least as strong as the solver's own root propagation (stopped before its
                // first decision): what the solver decides without a decision, so does it.
                let root = model
                    .solver()
                    .with_propagation(level)
                    .with_decision_limit(0)
                    .next_solution();
                match root {
                    Outcome::Exhausted => {
                        failed_at_root += 1;
                        assert_eq!(alone, None, "the solver failed at {level:?}: {model:?}");
                    }
                    Outcome::Solved(solution) => {
                        solved_at_root += 1;
                        let fixed: Option<Vec<i32>> = alone
                            .as_ref()
                            .and_then(|domains| domains.iter().map(Domain::value).collect());
                        assert_eq!(fixed.as_deref(), Some(solution.values()), "{model:?}");
                    }
                    Outcome::LimitReached(_) => {}
                }
            }
        }
        assert!(
            solved_at_root > 10 && failed_at_root > 50,
            "{solved_at_root} {failed_at_root}"
        );
    }

    #[test]
    fn a_fixpoint_prunes_nothing_more_and_one_call_prunes_no_more_than_the_fixpoint() {
        let mut random = SplitMix64::new(38);
        for _ in 0..300 {
            let model = random_model(&mut random);
            for level in PropagationLevel::ALL {
                for (_, constraint) in model.constraints() {
                    let mut once = domains_of(&model);
                    let mut sandbox = Sandbox::new();
                    let once_failed = sandbox
                        .propagate_once(constraint, &mut once, level)
                        .is_err();
                    let mut fixpoint = domains_of(&model);
                    match propagate_alone(constraint, &mut fixpoint, level) {
                        Ok(_) => {
                            assert!(!once_failed);
                            assert!(
                                fixpoint
                                    .iter()
                                    .zip(&once)
                                    .all(|(f, o)| f.iter().all(|v| o.contains(v)))
                            );
                            let again = fixpoint.clone();
                            assert_eq!(
                                propagate_alone(constraint, &mut fixpoint, level),
                                Ok(false)
                            );
                            assert_eq!(fixpoint, again);
                        }
                        Err(Conflict) => assert_eq!(fixpoint, domains_of(&model)),
                    }
                    // Undo restores the model's domains exactly, whatever the call did.
                    sandbox.undo(&mut once);
                    assert_eq!(once, domains_of(&model));
                }
            }
        }
    }

    #[test]
    fn a_sandbox_keeps_what_a_failing_call_left_until_undo() {
        let mut model = Model::new();
        let x = model.new_var(1..=1).unwrap();
        let y = model.new_var(1..=1).unwrap();
        let mut domains = domains_of(&model);
        let mut sandbox = Sandbox::new();
        let different = NotEqual::new(x, y);
        assert_eq!(
            sandbox.propagate(&different, &mut domains, PropagationLevel::Forward),
            Err(Conflict)
        );
        sandbox.undo(&mut domains);
        assert_eq!(domains, domains_of(&model));
        // Reused after an undo, it still undoes.
        let z = model.new_var(1..=2).unwrap();
        domains.push(model.domain(z).clone());
        let to_z = NotEqual::new(x, z);
        assert_eq!(
            sandbox.propagate(&to_z, &mut domains, PropagationLevel::Forward),
            Ok(true)
        );
        assert_eq!(domains[z.index()].value(), Some(2));
        sandbox.undo(&mut domains);
        assert_eq!(domains, domains_of(&model));
    }
}
