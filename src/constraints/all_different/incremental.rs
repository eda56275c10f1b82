//! The propagators an [`AllDifferent`] creates for a search: forward checking (and, at `None`,
//! the check of fixed values) that starts from the newly fixed variables only; and, at `Full` on
//! values wider than a 64-value window, Régin's filtering with state (`regin_wide.rs`).
//!
//! The stateless [`AllDifferent::propagate`](crate::Constraint::propagate) stays the reference:
//! each propagator runs it on its first call (the root) and then keeps what it needs to work
//! from the changes alone. The tests compare the two node for node.

use smallvec::SmallVec;

use super::{AllDifferent, INLINE};
use crate::constraints::{
    Change, Conflict, Constraint, PropagationContext, Propagator, PropagatorSetup, Reversible,
};
use crate::kernel::PropagationLevel;
use crate::util::sparse_set::SparseSet;

/// The propagator for `constraint` at the setup's level, or `None` where the stateless
/// `propagate` is as good.
pub(super) fn create<'a>(
    constraint: &'a AllDifferent,
    setup: &mut PropagatorSetup<'_>,
) -> Option<Box<dyn Propagator + 'a>> {
    let level = setup.level();
    let n = constraint.scope.len();
    let window = !constraint.window_bases.is_empty();
    match level {
        PropagationLevel::None | PropagationLevel::Forward if window && n <= 64 => {
            // Each variable's word in the window's terms: bit `b` of the window is bit
            // `b + shift` of the word.
            let shifts = constraint
                .scope
                .iter()
                .zip(&constraint.window_bases)
                .map(|(&var, &base)| {
                    let (offset, _) = setup.domain(var).small()?;
                    i8::try_from(i64::from(base) - i64::from(offset))
                        .ok()
                        .filter(|s| (-63..=63).contains(s))
                })
                .collect::<Option<Vec<i8>>>()?;
            Some(Box::new(ForwardMasks {
                constraint,
                shifts,
                prune: level == PropagationLevel::Forward,
                taken: setup.reversible(0),
                unfixed: setup.reversible(0),
            }))
        }
        PropagationLevel::Forward if !window => Some(Box::new(ForwardWide {
            constraint,
            positions: SparseSet::full(n),
            size: setup.reversible(0),
        })),
        PropagationLevel::Full if !window => Some(Box::new(super::regin_wide::ReginWide::new(
            constraint, setup,
        ))),
        _ => None,
    }
}

/// Forward checking (or, with `prune` false, only the check of fixed values) on `u64` masks.
///
/// Reversible state: `taken`, the window bits of the values of the fixed variables already
/// dealt with, and `unfixed`, the positions of the others. A run reads only the variables that
/// were fixed since the last one and the unfixed ones, and writes one mask per unfixed variable
/// that holds a newly taken value.
#[derive(Debug)]
struct ForwardMasks<'a> {
    constraint: &'a AllDifferent,
    /// Per position, where the window starts in the variable's word.
    shifts: Vec<i8>,
    prune: bool,
    taken: Reversible<u64>,
    unfixed: Reversible<u64>,
}

impl ForwardMasks<'_> {
    /// The first run: the stateless propagation, then the state rebuilt from the domains.
    fn first_run(&mut self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        self.constraint.propagate(ctx)?;
        let (mut taken, mut unfixed) = (0u64, 0u64);
        for (i, (&var, &base)) in self
            .constraint
            .scope
            .iter()
            .zip(&self.constraint.window_bases)
            .enumerate()
        {
            let mask = ctx.domain(var).window(base);
            if mask.is_power_of_two() {
                taken |= mask;
            } else {
                unfixed |= 1 << i;
            }
        }
        ctx.set(self.taken, taken);
        ctx.set(self.unfixed, unfixed);
        Ok(())
    }
}

/// A word's bits moved into the window's terms.
#[inline]
fn to_window(word: u64, shift: i8) -> u64 {
    if shift >= 0 {
        word >> shift
    } else {
        word << -shift
    }
}

/// Window bits moved into a word's terms.
#[inline]
fn to_word(window: u64, shift: i8) -> u64 {
    if shift >= 0 {
        window << shift
    } else {
        window >> -shift
    }
}

impl Propagator for ForwardMasks<'_> {
    fn propagate(&mut self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let Some(changes) = ctx.changes() else {
            return self.first_run(ctx);
        };
        let scope = &self.constraint.scope[..];
        let shifts = &self.shifts[..scope.len()];
        let mut taken = ctx.get(self.taken);
        let mut unfixed = ctx.get(self.unfixed);
        // The values of the variables fixed since the last run (the constraint wakes on fixing
        // only, so every change is one).
        let mut new = 0u64;
        for &Change { position, .. } in changes {
            if unfixed >> position & 1 == 0 {
                continue;
            }
            let (_, word) = ctx.small(scope[position]).ok_or(Conflict)?;
            let mask = to_window(word, shifts[position]);
            debug_assert!(mask.is_power_of_two(), "a change that is not a fixing");
            if mask & (taken | new) != 0 {
                return Err(Conflict);
            }
            new |= mask;
            unfixed &= !(1 << position);
        }
        if !self.prune {
            ctx.set(self.taken, taken | new);
            ctx.set(self.unfixed, unfixed);
            return Ok(());
        }
        // Value elimination: each pass removes the values fixed by the one before.
        while new != 0 {
            taken |= new;
            let removing = new;
            new = 0;
            let mut rest = unfixed;
            while rest != 0 {
                let j = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let var = scope[j];
                let doomed = to_word(removing, shifts[j]);
                let Some(left) = ctx.prune_small(var, doomed)? else {
                    continue;
                };
                if left.is_power_of_two() {
                    let value = to_window(left, shifts[j]);
                    if value & (taken | new) != 0 {
                        return Err(Conflict);
                    }
                    new |= value;
                    unfixed &= !(1 << j);
                }
            }
        }
        ctx.set(self.taken, taken);
        ctx.set(self.unfixed, unfixed);
        Ok(())
    }
}

/// Forward checking on wide domains: the value of each newly fixed variable is removed from the
/// unfixed ones, O(unfixed) domain operations per fixed variable.
///
/// State: the unfixed positions as a sparse set, the first `size` members. Only `size` is
/// reversible: removing a member swaps it past the end, so after a backtrack the first `size`
/// members are the same positions again (in another order, which changes no result).
#[derive(Debug)]
struct ForwardWide<'a> {
    constraint: &'a AllDifferent,
    positions: SparseSet,
    size: Reversible<u32>,
}

impl Propagator for ForwardWide<'_> {
    fn propagate(&mut self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let scope = &self.constraint.scope;
        let mut size = ctx.get(self.size);
        let mut fixed: SmallVec<[u32; INLINE]> = match ctx.changes() {
            Some(changes) => changes.iter().map(|c| c.position as u32).collect(),
            None => {
                self.constraint.propagate(ctx)?;
                size = scope.len() as u32;
                for position in 0..scope.len() as u32 {
                    if ctx.is_fixed(scope[position as usize]) {
                        self.positions.remove(position, &mut size);
                    }
                }
                ctx.set(self.size, size);
                return Ok(());
            }
        };
        while let Some(position) = fixed.pop() {
            let i = position as usize;
            let Some(value) = ctx.value(scope[i]) else {
                continue;
            };
            if !self.positions.remove(position, &mut size) {
                continue;
            }
            let key = self.constraint.key(i, value);
            for &j in self.positions.members(size) {
                let j = j as usize;
                let Some(other) = self.constraint.value_of(j, key) else {
                    continue;
                };
                // A member fixed to the same value (by another constraint, its change not yet
                // handled here) is emptied: the conflict.
                if ctx.remove(scope[j], other)? && ctx.is_fixed(scope[j]) {
                    fixed.push(j as u32);
                }
            }
        }
        ctx.set(self.size, size);
        Ok(())
    }
}
