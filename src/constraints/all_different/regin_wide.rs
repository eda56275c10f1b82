//! The propagator of an [`AllDifferent`] at full propagation when its values do not fit one
//! 64-value window: value elimination from the newly fixed variables, then Régin's filtering
//! over the variables that can belong to a Hall set (see `general.rs`), with the matching of the
//! last run tried first.
//!
//! State, beside the sparse set of unfixed positions of the forward checking on wide domains:
//!
//! - a lower bound on the size of each unfixed variable, kept as `bases[i] − eliminated`:
//!   `eliminated` counts the values removed from every unfixed variable by value elimination
//!   on this branch (one per fixed variable, at most one value each), and `bases[i]` is set
//!   from the size measured when the variable last changed for another reason. So value
//!   elimination, which removes a value from each unfixed variable per fixed one, writes one
//!   reversible word per run and not one per variable; a domain is measured again only when
//!   another constraint changed it, or when its bound makes it a candidate;
//! - in plain fields, the key each position was last matched to, checked against the domains
//!   before it is used (a hint, valid at any node), and the scratch space of the filtering.
//!
//! Cost of a run: O(changes) to read the changes (a measure of each changed domain), O(unfixed)
//! domain operations per newly fixed variable, O(unfixed) to find the candidates, and the
//! filtering of the candidates, which in a search in input order over `n` variables with
//! values `1..=n` never has any.

use super::AllDifferent;
use super::general::{Scratch, hall_bound};
use crate::constraints::{
    Conflict, DomainEvent, PropagationContext, Propagator, PropagatorSetup, Reversible,
};
use crate::util::sparse_set::SparseSet;

/// Domain consistency on wide domains, with state (see the module's docs).
#[derive(Debug)]
pub(super) struct ReginWide<'a> {
    constraint: &'a AllDifferent,
    /// The unfixed positions: the first `size` members.
    positions: SparseSet,
    size: Reversible<u32>,
    /// Per position, a size measured plus the value of `eliminated` then.
    bases: Vec<Reversible<u64>>,
    eliminated: Reversible<u64>,
    /// Per position, the key it was last matched to (`i64::MIN` for none).
    hints: Vec<i64>,
    scratch: Scratch,
    /// Per run: the positions fixed and not yet dealt with, the unfixed positions and their
    /// size bounds.
    fixed: Vec<u32>,
    unfixed: Vec<u32>,
    sizes: Vec<usize>,
    counts: Vec<u32>,
}

impl<'a> ReginWide<'a> {
    pub(super) fn new(constraint: &'a AllDifferent, setup: &mut PropagatorSetup<'_>) -> Self {
        let n = constraint.scope.len();
        ReginWide {
            constraint,
            positions: SparseSet::full(n),
            size: setup.reversible(n as u32),
            bases: (0..n).map(|_| setup.reversible(0)).collect(),
            eliminated: setup.reversible(0),
            hints: vec![i64::MIN; n],
            scratch: Scratch::default(),
            fixed: Vec::new(),
            unfixed: Vec::new(),
            sizes: Vec::new(),
            counts: Vec::new(),
        }
    }

    /// The lower bound on the size of `position`, at least 1.
    fn bound(&self, ctx: &PropagationContext<'_>, position: u32, eliminated: u64) -> u64 {
        ctx.get(self.bases[position as usize])
            .saturating_sub(eliminated)
            .max(1)
    }

    /// The first run (or a run told nothing): value elimination and the state from the domains.
    fn first_run(&mut self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let constraint = self.constraint;
        let (low, high) = constraint.key_range(|var| ctx.domain(var))?;
        constraint.forward_general(ctx, low, high)?;
        let n = constraint.scope.len() as u32;
        self.positions.reset();
        let mut size = n;
        for position in 0..n {
            let domain = ctx.domain(constraint.scope[position as usize]);
            if domain.is_fixed() {
                self.positions.remove(position, &mut size);
            } else {
                ctx.set(self.bases[position as usize], domain.size() as u64);
            }
        }
        ctx.set(self.eliminated, 0);
        self.filter(ctx, size, 0)
    }

    /// Régin's filtering over the candidates among the `size` unfixed positions, their bounds
    /// made exact first; then the state brought up to date with what it pruned.
    fn filter(
        &mut self,
        ctx: &mut PropagationContext<'_>,
        mut size: u32,
        eliminated: u64,
    ) -> Result<(), Conflict> {
        let constraint = self.constraint;
        let k = size as usize;
        self.unfixed.clear();
        self.unfixed.extend_from_slice(self.positions.members(size));
        self.sizes.clear();
        for &position in &self.unfixed {
            self.sizes
                .push(self.bound(ctx, position, eliminated) as usize);
        }
        let bound = hall_bound(self.sizes.iter().copied(), k, &mut self.counts);
        if bound > 0 {
            for (&position, size) in self.unfixed.iter().zip(self.sizes.iter_mut()) {
                if *size <= bound {
                    let exact = ctx.domain(constraint.scope[position as usize]).size();
                    if exact != *size {
                        *size = exact;
                        ctx.set(self.bases[position as usize], exact as u64 + eliminated);
                    }
                }
            }
            constraint.filter(
                ctx,
                &self.unfixed,
                &self.sizes,
                Some(&self.hints),
                &mut self.scratch,
            )?;
            for index in 0..self.scratch.pruned.len() {
                let (position, removed) = self.scratch.pruned[index];
                let base = self.bases[position as usize];
                let value = ctx.get(base).saturating_sub(u64::from(removed));
                ctx.set(base, value);
                if self.bound(ctx, position, eliminated) <= 1
                    && ctx.is_fixed(constraint.scope[position as usize])
                {
                    // Its value is gone from the others already: the filtering is complete.
                    self.positions.remove(position, &mut size);
                }
            }
            for &(position, key) in &self.scratch.matched {
                self.hints[position as usize] = key;
            }
        }
        ctx.set(self.size, size);
        ctx.set(self.eliminated, eliminated);
        Ok(())
    }
}

impl Propagator for ReginWide<'_> {
    fn propagate(&mut self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let Some(changes) = ctx.changes() else {
            return self.first_run(ctx);
        };
        let constraint = self.constraint;
        let scope = &constraint.scope;
        let mut size = ctx.get(self.size);
        let eliminated = ctx.get(self.eliminated);
        // The changed unfixed positions: the fixed ones to eliminate, the others to measure.
        self.fixed.clear();
        self.unfixed.clear();
        for change in changes {
            if !self.positions.contains(change.position, size) {
                continue;
            }
            match change.event {
                DomainEvent::Fixed => self.fixed.push(change.position as u32),
                _ => self.unfixed.push(change.position as u32),
            }
        }
        for &position in &self.unfixed {
            let exact = ctx.domain(scope[position as usize]).size() as u64;
            ctx.set(self.bases[position as usize], exact + eliminated);
        }
        // Value elimination: each fixed variable's value leaves the unfixed ones.
        let mut newly = 0u64;
        while let Some(position) = self.fixed.pop() {
            if !self.positions.remove(position, &mut size) {
                continue;
            }
            let i = position as usize;
            let value = ctx.value(scope[i]).ok_or(Conflict)?;
            let key = constraint.key(i, value);
            newly += 1;
            for &j in self.positions.members(size) {
                let var = scope[j as usize];
                let Some(other) = constraint.value_of(j as usize, key) else {
                    continue;
                };
                if !ctx.domain(var).contains(other) {
                    continue;
                }
                // A member fixed to the same value (by another constraint, its change not yet
                // dealt with here) is emptied: the conflict.
                ctx.remove(var, other)?;
                if self.bound(ctx, j, eliminated + newly) <= 1 && ctx.is_fixed(var) {
                    self.fixed.push(j);
                }
            }
        }
        self.filter(ctx, size, eliminated + newly)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::AllDifferent;
    use crate::constraints::{Change, DomainEvent, PropagationContext};
    use crate::domain::Domain;
    use crate::ids::VarId;
    use crate::kernel::trail::Trail;
    use crate::kernel::{PropagationLevel, PropagatorSetup};

    /// For each variable, the values some solution of the constraint alone gives it (shifted
    /// values `value + offset` all different), by brute force; `None` if there is no solution.
    fn supported(domains: &[Domain], offsets: &[i32]) -> Option<Vec<Vec<i32>>> {
        fn walk(
            i: usize,
            domains: &[Domain],
            offsets: &[i32],
            chosen: &mut Vec<i32>,
            seen: &mut [Vec<i32>],
        ) {
            if i == domains.len() {
                for (list, &v) in seen.iter_mut().zip(chosen.iter()) {
                    list.push(v);
                }
                return;
            }
            for v in domains[i].iter() {
                let key = i64::from(v) + i64::from(offsets[i]);
                let clash = chosen
                    .iter()
                    .enumerate()
                    .any(|(j, &w)| i64::from(w) + i64::from(offsets[j]) == key);
                if !clash {
                    chosen.push(v);
                    walk(i + 1, domains, offsets, chosen, seen);
                    chosen.pop();
                }
            }
        }
        let mut seen = vec![Vec::new(); domains.len()];
        walk(0, domains, offsets, &mut Vec::new(), &mut seen);
        for list in &mut seen {
            list.sort_unstable();
            list.dedup();
        }
        seen.iter().all(|l| !l.is_empty()).then_some(seen)
    }

    fn values(domains: &[Domain]) -> Vec<Vec<i32>> {
        domains.iter().map(|d| d.iter().collect()).collect()
    }

    /// The change a narrowing from `before` to `after` makes, as the engine reports it.
    fn change(position: usize, before: &Domain, after: &Domain) -> Change {
        let event = if after.is_fixed() {
            DomainEvent::Fixed
        } else if (before.min(), before.max()) != (after.min(), after.max()) {
            DomainEvent::Bounds
        } else {
            DomainEvent::Removed
        };
        Change { position, event }
    }

    /// An instance: domains drawn from `n + 2` values spread `spread` apart from `start`
    /// (wider than a 64-value window), offsets of at most one spread, and a walk of narrowings
    /// and backtracks.
    /// Initial domains, offsets, and steps: (action, and two choices of variable or value).
    type Instance = (Vec<Vec<i32>>, Vec<i32>, Vec<(u8, u8, u8)>);

    fn instance() -> impl Strategy<Value = Instance> {
        (
            2usize..=6,
            prop::sample::select(vec![30i32, 37, 1000]),
            prop::sample::select(vec![0i32, -70, 40]),
        )
            .prop_flat_map(|(n, spread, start)| {
                let pool: Vec<i32> = (0..n as i32 + 2).map(|v| start + v * spread).collect();
                let domain = prop::sample::subsequence(pool, 1..=4);
                let offset = (-1i32..=1).prop_map(move |o| o * spread);
                let steps = prop::collection::vec((0u8..4, any::<u8>(), any::<u8>()), 0..24);
                (
                    prop::collection::vec(domain, n),
                    prop::collection::vec(offset, n),
                    steps,
                )
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(600))]

        /// The propagator at every run of a walk down and back up a search, told only of the
        /// changes since its last run: exactly the values with a support are left, and it
        /// fails exactly when there is no solution.
        #[test]
        fn every_run_leaves_exactly_the_supported_values(
            (initial, offsets, steps) in instance(),
        ) {
            let mut model = crate::Model::new();
            let vars: Vec<VarId> = initial
                .iter()
                .map(|d| model.new_var(d.as_slice()).expect("a valid domain"))
                .collect();
            model
                .post(AllDifferent::with_offsets(&vars, &offsets).expect("one offset each"))
                .expect("a valid constraint");
            let constraint = &model.constraint_list()[0];
            let mut trail = Trail::default();
            let mut domains = model.initial_domains().to_vec();
            let setup = &mut PropagatorSetup::new(&domains, &mut trail, PropagationLevel::Full);
            // Values that happen to fit a 64-value window are filtered on masks, statelessly.
            let propagator = constraint.propagator(setup);
            prop_assume!(propagator.is_some());
            let mut propagator = propagator.expect("wide values");
            let level = PropagationLevel::Full;
            let expected = supported(&domains, &offsets);
            let result = {
                let mut ctx = PropagationContext::new(&mut domains, &mut trail, None, level);
                propagator.propagate(&mut ctx)
            };
            prop_assert_eq!(result.is_ok(), expected.is_some());
            let Some(expected) = expected else { return Ok(()) };
            prop_assert_eq!(values(&domains), expected);
            for (action, a, b) in steps {
                let depth = trail.level();
                if action == 0 && depth > 0 {
                    trail.undo_to(usize::from(a) % depth, &mut domains);
                    continue;
                }
                // A new level: one or two variables narrowed (fixed, or a value removed).
                trail.push_level();
                let before = domains.clone();
                for (pick, how) in [(a, b), (b, a)].into_iter().take(1 + usize::from(action == 3)) {
                    let i = usize::from(pick) % vars.len();
                    let present: Vec<i32> = domains[i].iter().collect();
                    if present.len() < 2 {
                        continue;
                    }
                    let v = present[usize::from(how) % present.len()];
                    let mut ctx = PropagationContext::new(&mut domains, &mut trail, None, level);
                    let narrowed = if how % 2 == 0 {
                        ctx.fix(vars[i], v)
                    } else {
                        ctx.remove(vars[i], v)
                    };
                    prop_assert!(narrowed.is_ok());
                }
                let changes: Vec<Change> = (0..vars.len())
                    .filter(|&i| domains[i] != before[i])
                    .map(|i| change(i, &before[i], &domains[i]))
                    .collect();
                if changes.is_empty() {
                    continue;
                }
                let expected = supported(&domains, &offsets);
                let result = {
                    let mut ctx = PropagationContext::new(&mut domains, &mut trail, None, level)
                        .with_changes(Some(&changes));
                    propagator.propagate(&mut ctx)
                };
                prop_assert_eq!(result.is_ok(), expected.is_some(), "{:?}", before);
                match expected {
                    Some(expected) => prop_assert_eq!(values(&domains), expected),
                    None => trail.undo_to(depth, &mut domains),
                }
            }
        }
    }
}
