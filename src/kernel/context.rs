//! [`PropagationContext`]: the only door to the domains during propagation.

use crate::domain::Domain;
use crate::ids::VarId;
use crate::kernel::propagation::Wake;
use crate::kernel::trail::{Trail, TrailRecorder};
use crate::kernel::{Change, Conflict, DomainEvent, PropagationLevel, Reversible, ReversibleValue};

/// The only door to the domains during propagation: read them, prune them; and, for a
/// [`Propagator`](crate::Propagator), its reversible state and the changes since its last run.
///
/// Every change is recorded on the search's trail (so backtracking undoes it) and wakes the
/// constraints that watch the changed variable. A change that empties a domain returns
/// `Err(Conflict)`, so pruning code can use `?` throughout.
///
/// # Panics
///
/// Every method taking a [`VarId`] panics if the variable is not one of the model being solved;
/// posting checks scopes, so this only happens when a constraint reads outside its scope.
#[derive(Debug)]
pub struct PropagationContext<'a> {
    domains: &'a mut [Domain],
    trail: &'a mut Trail,
    wake: Option<Wake<'a>>,
    level: PropagationLevel,
    changes: Option<&'a [Change]>,
}

impl<'a> PropagationContext<'a> {
    pub(crate) fn new(
        domains: &'a mut [Domain],
        trail: &'a mut Trail,
        wake: Option<Wake<'a>>,
        level: PropagationLevel,
    ) -> Self {
        PropagationContext {
            domains,
            trail,
            wake,
            level,
            changes: None,
        }
    }

    /// Tells the propagator about to run what changed since it last ran.
    pub(crate) fn with_changes(mut self, changes: Option<&'a [Change]>) -> Self {
        self.changes = changes;
        self
    }

    /// The propagation strength the solve asked for.
    #[inline]
    pub fn level(&self) -> PropagationLevel {
        self.level
    }

    /// What changed since the running [`Propagator`](crate::Propagator) last ran on the current branch of the
    /// search: the variables of its scope whose domains changed (each once, in the order of
    /// their first change, with the strongest event each saw). After a backtrack, "last ran"
    /// means the state the search went back to, in which every propagator had run and every
    /// reversible value was restored.
    ///
    /// `None` means "look at the whole scope": the first run of a propagator (the root of a
    /// search), and always for a constraint run through its stateless
    /// [`propagate`](crate::Constraint::propagate).
    ///
    /// A propagator of an [idempotent](crate::Constraint::is_idempotent) constraint is not told about
    /// the changes it made itself: it is expected to have dealt with them in the run that made
    /// them. It hears only of the events its [`wake_on`](crate::Constraint::wake_on) asks for: a
    /// propagator that wakes on [`WakeOn::Fixed`](crate::WakeOn::Fixed) is told of fixed variables only.
    #[inline]
    pub fn changes(&self) -> Option<&[Change]> {
        self.changes
    }

    /// The current value of a reversible value of the running [`Propagator`](crate::Propagator).
    ///
    /// # Panics
    ///
    /// If `state` was not created for the search being run.
    #[inline]
    pub fn get<T: ReversibleValue>(&self, state: Reversible<T>) -> T {
        T::from_word(self.trail.word(state.index()))
    }

    /// Changes a reversible value of the running [`Propagator`](crate::Propagator); the engine restores the old
    /// value when the search backtracks past this point.
    ///
    /// # Panics
    ///
    /// If `state` was not created for the search being run.
    #[inline]
    pub fn set<T: ReversibleValue>(&mut self, state: Reversible<T>, value: T) {
        self.trail.set_word(state.index(), value.to_word());
    }

    /// `Err(Conflict)` if every variable of `constraint`'s scope is fixed and its
    /// [`check`](crate::Constraint::check) rejects the values; `Ok` otherwise. This is the whole of
    /// propagation at [`PropagationLevel::None`], and the first correct `propagate` of the
    /// recipe in the [`constraints`](crate::constraints) module.
    pub fn check_if_fixed<C: crate::Constraint + ?Sized>(
        &self,
        constraint: &C,
    ) -> Result<(), Conflict> {
        let scope = constraint.scope();
        let mut values: smallvec::SmallVec<[i32; 32]> =
            smallvec::SmallVec::with_capacity(scope.len());
        for &var in scope {
            match self.value(var) {
                Some(value) => values.push(value),
                None => return Ok(()),
            }
        }
        if constraint.check(&values) {
            Ok(())
        } else {
            Err(Conflict)
        }
    }

    /// Whether `constraint`, propagated alone on the current domains at the current level,
    /// reports a conflict. The domains are left as they were, and no constraint is woken: a
    /// probe for reification (if a constraint is bound to fail, its boolean is false) and for
    /// custom constraints that reason about another one.
    ///
    /// `constraint` must read and prune only variables of the running constraint's scope.
    pub fn fails(&mut self, constraint: &dyn crate::Constraint) -> bool {
        let level = self.trail.level();
        self.trail.push_level();
        let failed = {
            let mut probe = PropagationContext::new(self.domains, self.trail, None, self.level);
            constraint.propagate(&mut probe).is_err()
        };
        self.trail.undo_to(level, self.domains);
        failed
    }

    /// The current domain of `var`.
    #[inline]
    pub fn domain(&self, var: VarId) -> &Domain {
        &self.domains[var.index()]
    }

    /// The value of `var` if it is fixed.
    #[inline]
    pub fn value(&self, var: VarId) -> Option<i32> {
        self.domain(var).value()
    }

    /// Whether `var` has exactly one value left.
    #[inline]
    pub fn is_fixed(&self, var: VarId) -> bool {
        self.domain(var).is_fixed()
    }

    /// Removes `value` from the domain of `var`.
    ///
    /// Returns whether the domain changed.
    ///
    /// # Errors
    ///
    /// [`Conflict`] if the domain is left empty.
    #[inline]
    pub fn remove(&mut self, var: VarId, value: i32) -> Result<bool, Conflict> {
        let domain = &mut self.domains[var.index()];
        if !domain.remove(value, &mut self.trail.recorder(var.index)) {
            return Ok(false);
        }
        // One value gone: the bounds after the removal tell whether the domain is empty or
        // fixed, and whether a bound moved (the value lay beyond them), without reading the
        // bounds before it (a scan of the words each, on a bitset domain).
        let (fixed, moved) = match domain.small() {
            Some((_, 0)) => return Err(Conflict),
            Some((offset, word)) => {
                let bit = i64::from(value) - i64::from(offset);
                let (low, high) = (word.trailing_zeros(), 63 - word.leading_zeros());
                (
                    word.is_power_of_two(),
                    bit < i64::from(low) || bit > i64::from(high),
                )
            }
            None => {
                let (Some(min), Some(max)) = (domain.min(), domain.max()) else {
                    return Err(Conflict);
                };
                (min == max, value < min || value > max)
            }
        };
        if let Some(wake) = &mut self.wake {
            let event = if fixed {
                DomainEvent::Fixed
            } else if moved && wake.is_precise(var.index) {
                DomainEvent::Bounds
            } else {
                DomainEvent::Removed
            };
            wake.changed(var.index, event);
        }
        Ok(true)
    }

    /// Reduces the domain of `var` to `value` alone.
    ///
    /// Returns whether the domain changed.
    ///
    /// # Errors
    ///
    /// [`Conflict`] if `value` is not in the domain.
    #[inline]
    pub fn fix(&mut self, var: VarId, value: i32) -> Result<bool, Conflict> {
        self.update(var, |d, rec| d.fix_to(value, rec))
    }

    /// Removes the values from `low` to `high` (inclusive; none if `low > high`) from the
    /// domain of `var`: a word operation per 64 values of a bitset, O(log holes) for a wide
    /// domain, however many values the range holds.
    ///
    /// Returns whether the domain changed.
    ///
    /// # Errors
    ///
    /// [`Conflict`] if the domain is left empty.
    pub fn remove_range(&mut self, var: VarId, low: i32, high: i32) -> Result<bool, Conflict> {
        let d = self.domain(var);
        match (d.min(), d.max()) {
            (Some(min), Some(max)) if low <= high && low <= max && high >= min => {}
            _ => return Ok(false),
        }
        self.update(var, |d, rec| d.remove_range(low, high, rec))
    }

    /// Removes every value smaller than `bound` from the domain of `var`.
    ///
    /// # Errors
    ///
    /// [`Conflict`] if the domain is left empty.
    pub fn remove_below(&mut self, var: VarId, bound: i32) -> Result<bool, Conflict> {
        if self.domain(var).min().is_some_and(|min| min >= bound) {
            return Ok(false);
        }
        self.update(var, |d, rec| d.clamp(bound, i32::MAX, rec))
    }

    /// Removes every value larger than `bound` from the domain of `var`.
    ///
    /// # Errors
    ///
    /// [`Conflict`] if the domain is left empty.
    pub fn remove_above(&mut self, var: VarId, bound: i32) -> Result<bool, Conflict> {
        if self.domain(var).max().is_some_and(|max| max <= bound) {
            return Ok(false);
        }
        self.update(var, |d, rec| d.clamp(i32::MIN, bound, rec))
    }

    /// Keeps only the values of `var` for which `keep` returns true.
    ///
    /// # Errors
    ///
    /// [`Conflict`] if the domain is left empty.
    pub fn retain(&mut self, var: VarId, keep: impl FnMut(i32) -> bool) -> Result<bool, Conflict> {
        self.update(var, |d, rec| d.retain(keep, rec))
    }

    /// Keeps only the values of `var` that `sorted` lists (ascending, without repeats).
    ///
    /// The same as [`retain`](Self::retain) with a binary search, but a wide domain (more than
    /// [`Domain::MAX_SPAN`] values) costs only the length of the list, not its own size: its
    /// bounds move, and each gap of the list is removed as one range.
    ///
    /// # Errors
    ///
    /// [`Conflict`] if the domain is left empty.
    pub fn retain_sorted(&mut self, var: VarId, sorted: &[i32]) -> Result<bool, Conflict> {
        debug_assert!(sorted.is_sorted(), "retain_sorted needs an ascending list");
        self.update(var, |d, rec| d.retain_sorted(sorted, rec))
    }

    /// Bit-parallel pruning: of the values `base..base + 64`, keeps in the domain of `var` only
    /// those whose bit (`value - base`) is set in `mask`. Values outside the window are kept.
    ///
    /// Together with [`Domain::window`] this lets a constraint over small domains work a word at
    /// a time, as [`AllDifferent`](crate::AllDifferent) does.
    ///
    /// # Errors
    ///
    /// [`Conflict`] if the domain is left empty.
    #[inline(always)]
    pub fn retain_window(&mut self, var: VarId, base: i32, mask: u64) -> Result<bool, Conflict> {
        // A domain of one word: the window's complement moved onto the word, pruned as the
        // built-in propagators prune (one test, one write, one trail entry).
        if let Some((offset, _)) = self.small(var) {
            let doomed = match i64::from(base) - i64::from(offset) {
                shift @ 0..=63 => !mask << shift,
                shift @ -63..=-1 => !mask >> -shift,
                _ => return Ok(false),
            };
            return Ok(self.prune_small(var, doomed)?.is_some());
        }
        self.update(var, |d, rec| d.retain_window(base, mask, rec))
    }

    /// [`retain_window`](Self::retain_window) for the consecutive windows at `base`,
    /// `base + 64`, …, one per mask, as one change of the domain: one trail check per block,
    /// one wake-up.
    ///
    /// # Errors
    ///
    /// [`Conflict`] if the domain is left empty.
    pub(crate) fn retain_windows(
        &mut self,
        var: VarId,
        base: i32,
        masks: &[u64],
    ) -> Result<bool, Conflict> {
        self.update(var, |d, rec| d.retain_windows(base, masks, rec))
    }

    /// The fast path for propagators on domains of at most 64 values: the domain's offset and
    /// word (see [`Domain::small`]), `None` for a wider domain.
    #[inline]
    pub(crate) fn small(&self, var: VarId) -> Option<(i32, u64)> {
        self.domains[var.index()].small()
    }

    /// The fast path's pruning: removes from the word of `var` (a domain of at most 64 values)
    /// the bits set in `doomed`, with the trail and the wake-ups of any change. Returns the word
    /// left, or `None` if nothing was removed (also for a wider domain, which is left alone:
    /// callers check [`small`](Self::small) first).
    ///
    /// # Errors
    ///
    /// [`Conflict`] if the domain is left empty.
    #[inline(always)]
    pub(crate) fn prune_small(&mut self, var: VarId, doomed: u64) -> Result<Option<u64>, Conflict> {
        let domain = &mut self.domains[var.index()];
        let Some((_, old)) = domain.small() else {
            return Ok(None);
        };
        if old & doomed == 0 {
            return Ok(None);
        }
        let new = old & !doomed;
        domain.replace_small(new, &mut self.trail.recorder(var.index));
        if new == 0 {
            return Err(Conflict);
        }
        if let Some(wake) = &mut self.wake {
            let event = if new.is_power_of_two() {
                DomainEvent::Fixed
            } else if wake.is_precise(var.index)
                && (new.trailing_zeros() != old.trailing_zeros()
                    || new.leading_zeros() != old.leading_zeros())
            {
                DomainEvent::Bounds
            } else {
                DomainEvent::Removed
            };
            wake.changed(var.index, event);
        }
        Ok(Some(new))
    }

    /// Applies a mutation, records it on the trail and wakes the watchers of `var`.
    #[inline]
    fn update(
        &mut self,
        var: VarId,
        mutate: impl FnOnce(&mut Domain, &mut TrailRecorder<'_>) -> bool,
    ) -> Result<bool, Conflict> {
        let domain = &mut self.domains[var.index()];
        // Whether a moved bound matters to anyone watching `var`; if not, a change that leaves
        // more than one value is reported as a removal, which wakes the same watchers.
        let precise = self.wake.as_ref().is_some_and(|w| w.is_precise(var.index));
        let bounds = if precise {
            (domain.min(), domain.max())
        } else {
            (None, None)
        };
        let changed = mutate(domain, &mut self.trail.recorder(var.index));
        if !changed {
            return Ok(false);
        }
        // Emptiness and fixing from the word itself when the domain is one word (the common
        // case), from the general queries otherwise.
        let (empty, fixed) = match domain.small() {
            Some((_, word)) => (word == 0, word.is_power_of_two()),
            None => (domain.is_empty(), domain.is_fixed()),
        };
        if empty {
            return Err(Conflict);
        }
        if let Some(wake) = &mut self.wake {
            let event = if fixed {
                DomainEvent::Fixed
            } else if precise && (domain.min(), domain.max()) != bounds {
                DomainEvent::Bounds
            } else {
                DomainEvent::Removed
            };
            wake.changed(var.index, event);
        }
        Ok(true)
    }
}
