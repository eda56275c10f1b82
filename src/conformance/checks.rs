//! The properties of the module's docs, checked on one case at each level.

use super::SplitMix64;
use super::oracles::{
    Gap, bounds_gap, domain_gap, has_repeats, is_domain_consistent, sample_assignments, solutions,
};
use super::report::{
    ConformanceFailure, Consistency, LevelReport, Propagated, Property, show_assignment,
    show_domains, show_result, var_at,
};
use super::runner::{CaseRun, random_subdomain, restrict};
use crate::constraints::{
    Change, Constraint, DomainEvent, PropagationContext, Propagator, PropagatorSetup, WakeOn,
};
use crate::domain::Domain;
use crate::ids::VarId;
use crate::kernel::trail::Trail;
use crate::kernel::{PropagationLevel, Sandbox};

/// Runs `propagate` once on a copy of `domains`, then undoes it.
pub(super) fn propagate_once(
    constraint: &dyn Constraint,
    domains: &[Domain],
    level: PropagationLevel,
) -> Propagated {
    let mut work = domains.to_vec();
    let mut sandbox = Sandbox::new();
    let conflict = sandbox
        .propagate_once(constraint, &mut work, level)
        .is_err();
    let after = work.clone();
    sandbox.undo(&mut work);
    Propagated {
        conflict,
        after,
        restored: work == domains,
    }
}

impl CaseRun<'_, '_> {
    pub(super) fn check_level(
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
    pub(super) fn check_strength(
        &self,
        level: PropagationLevel,
        result: &Propagated,
        solutions: &[Vec<i32>],
    ) {
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
    pub(super) fn check_propagator(
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
    pub(super) fn check_sound(
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
pub(super) enum Unsound<'s> {
    /// A conflict, while this is a solution.
    Conflict(&'s [i32]),
    /// `Ok`, with the domain of this variable (an index in the model) left empty.
    Empty(usize),
    /// Value `v` of this variable was pruned, while this solution uses it.
    Pruned(usize, i32, &'s [i32]),
}

/// Checks `result` against the brute-force `solutions` of the scope.
pub(super) fn first_unsound<'s>(
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
pub(super) fn same_result(a: &Propagated, b: &Propagated, scope: &[usize]) -> bool {
    a.conflict == b.conflict && (a.conflict || scope.iter().all(|&i| a.after[i] == b.after[i]))
}

/// How a propagator is run in the kit: as the engine would, again after its own changes
/// unless it is idempotent, each time told of the changes since its last run.
pub(super) struct Runner<'s> {
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
pub(super) fn heard_changes(
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
pub(super) fn narrow(
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
pub(super) fn apply(
    domains: &mut [Domain],
    trail: &mut Trail,
    target: &[Domain],
    level: PropagationLevel,
) {
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
