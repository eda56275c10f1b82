//! The propagation queue and the fixpoint loop.
//!
//! Invariants and costs: each constraint is in the queue at most once (a flag per constraint),
//! so the queue is a ring buffer of fixed capacity, allocated once per search. A domain change
//! of variable `x` schedules the constraints that watch `x` for any change, then, if a bound of
//! `x` moved, those that watch its bounds, then, if `x` became fixed, those that watch it for
//! fixing: one contiguous prefix of `x`'s row of watchers (compressed rows, sorted by kind, built
//! once per search from [`Constraint::wake_on`]). A constraint that declares itself idempotent is not re-scheduled by
//! its own changes. Constraints run in first-in, first-out order until the queue is empty (the
//! fixpoint) or one reports a conflict, which empties it.
//!
//! For a constraint run by a [`Propagator`], each stay in the queue also collects the changes
//! that scheduled it: the positions in its scope of the changed variables, each once, with the
//! strongest [`DomainEvent`] seen, in slots reserved per constraint (one per scope position, so
//! the list is never cut short). They are handed over as [`PropagationContext::changes`]. The
//! list is exact because the queue only empties at a fixpoint or on a conflict, and after a
//! conflict the search backtracks to a state that was a fixpoint: since the propagator's last
//! run on the current branch, every change of its variables that it watches woke it, except
//! those it made itself while idempotent.

use std::sync::Arc;

use crate::domain::Domain;
use crate::kernel::PropagationLevel;
use crate::kernel::trail::Trail;
use crate::kernel::{Change, Constraint, DomainEvent, PropagationContext, Propagator, WakeOn};

/// The propagators of one search: `Some` for a constraint that created one, `None` for a
/// constraint run through its stateless `propagate`.
pub(crate) type Propagators<'m> = Vec<Option<Box<dyn Propagator + 'm>>>;

/// For each variable, the constraints to wake on its changes, as compressed rows: row `v` lists
/// the constraints watching `v` for any change, then those watching its bounds, then those
/// watching its fixing, so that an event schedules one contiguous prefix of the row. Each entry
/// is a constraint and the position of the variable in its scope (or [`NO_EVENTS`] if the
/// constraint does not read its changes).
#[derive(Debug)]
pub(crate) struct Watchers {
    /// Row `v` is `entries[ends[v][0]..ends[v][3]]`; `ends[v][k]` ends the watchers that
    /// `Removed` (k = 1), `Bounds` (k = 2) and `Fixed` (k = 3) events wake.
    ends: Vec<[u32; 4]>,
    entries: Vec<(u32, u32)>,
    idempotent: Vec<bool>,
    /// Per variable: whether some watcher tells a moved bound from another removal (it
    /// watches bounds, or reads its changes and hears every removal), so that the event must
    /// be classified exactly.
    precise: Vec<bool>,
}

/// Whether `scope` names a variable at two positions.
pub(crate) fn has_repeats(scope: &[crate::ids::VarId]) -> bool {
    if scope.len() <= 16 {
        return scope
            .iter()
            .enumerate()
            .any(|(i, v)| scope[..i].contains(v));
    }
    let mut sorted = scope.to_vec();
    sorted.sort_unstable();
    sorted.windows(2).any(|pair| pair[0] == pair[1])
}

/// The rank of a [`WakeOn`] in a row of [`Watchers`].
fn rank(wake: WakeOn) -> usize {
    match wake {
        WakeOn::AnyChange => 0,
        WakeOn::Bounds => 1,
        WakeOn::Fixed => 2,
    }
}

impl Watchers {
    /// The watch lists of `constraints` over `n` variables at `level`; `records[c]` says
    /// whether constraint `c` reads its changes (it has a propagator).
    pub(crate) fn new(
        constraints: &[Arc<dyn Constraint>],
        n: usize,
        level: PropagationLevel,
        records: &[bool],
    ) -> Self {
        let ranks: Vec<usize> = constraints.iter().map(|c| rank(c.wake_on(level))).collect();
        // Counting sort of (variable, rank) pairs: count, prefix sums, place.
        let mut counts = vec![[0u32; 3]; n];
        for (c, constraint) in constraints.iter().enumerate() {
            for var in constraint.scope() {
                counts[var.index()][ranks[c]] += 1;
            }
        }
        let mut ends = Vec::with_capacity(n);
        let mut total = 0u32;
        for count in &counts {
            let start = total;
            let removed = start + count[0];
            let bounds = removed + count[1];
            total = bounds + count[2];
            ends.push([start, removed, bounds, total]);
        }
        let mut next: Vec<[u32; 3]> = ends.iter().map(|e| [e[0], e[1], e[2]]).collect();
        let mut entries = vec![(0, 0); total as usize];
        for (c, constraint) in constraints.iter().enumerate() {
            for (position, var) in constraint.scope().iter().enumerate() {
                let slot = &mut next[var.index()][ranks[c]];
                let position = if records[c] {
                    position as u32
                } else {
                    NO_EVENTS
                };
                entries[*slot as usize] = (c as u32, position);
                *slot += 1;
            }
        }
        let precise = ends
            .iter()
            .map(|e| {
                // Watchers of bounds, or readers of changes that hear removals too.
                e[2] > e[1]
                    || entries[e[0] as usize..e[1] as usize]
                        .iter()
                        .any(|&(_, position)| position != NO_EVENTS)
            })
            .collect();
        Watchers {
            ends,
            entries,
            precise,
            // A constraint with a variable at two positions is woken by its own changes even
            // if it claims idempotence: pruning one position changes the other, and a
            // propagator must hear of it (see `Constraint::scope`).
            idempotent: constraints
                .iter()
                .map(|c| c.is_idempotent(level) && !has_repeats(c.scope()))
                .collect(),
        }
    }
}

/// The constraints waiting to run: a ring buffer with a membership flag per constraint, and for
/// each queued propagator the changes that woke it.
#[derive(Debug)]
pub(crate) struct Queue {
    ring: Vec<u32>,
    head: usize,
    len: usize,
    queued: Vec<bool>,
    pending: Vec<Pending>,
    /// Per recording constraint, one slot per scope position: the changed positions, in order.
    positions: Vec<u32>,
    /// Per recording constraint and scope position: the strongest pending event's code, or 0.
    events: Vec<u8>,
}

/// Where a constraint's changes are kept while it is queued: positions in
/// `positions[start..start + len]`, events in `events[start + position]`.
#[derive(Debug, Clone, Copy)]
struct Pending {
    start: u32,
    /// [`UNKNOWN`] when the constraint was queued for another reason (or does not record).
    len: u32,
}

const UNKNOWN: u32 = u32::MAX;

/// In a watch list, the position of a constraint that does not read its changes.
const NO_EVENTS: u32 = u32::MAX;

impl Queue {
    /// The queue of `constraints`, with room for the changes of those `records` marks.
    pub(crate) fn new(constraints: &[Arc<dyn Constraint>], records: &[bool]) -> Self {
        let mut start = 0;
        let pending: Vec<Pending> = constraints
            .iter()
            .zip(records)
            .map(|(c, &record)| {
                let capacity = if record { c.scope().len() as u32 } else { 0 };
                start += capacity;
                Pending {
                    start: start - capacity,
                    len: UNKNOWN,
                }
            })
            .collect();
        let constraints = pending.len();
        Queue {
            ring: vec![0; constraints.max(1)],
            head: 0,
            len: 0,
            queued: vec![false; constraints],
            pending,
            positions: vec![0; start as usize],
            events: vec![0; start as usize],
        }
    }

    /// Schedules `c` for a reason other than a recorded change: it will be told nothing.
    #[inline]
    pub(crate) fn push(&mut self, c: u32) {
        self.enqueue(c);
        self.forget_changes(c);
    }

    /// Schedules `c` because the variable at `position` in its scope saw `event`.
    #[inline]
    fn push_change(&mut self, c: u32, position: u32, event: DomainEvent) {
        if self.enqueue(c) {
            self.pending[c as usize].len = 0;
        }
        let pending = &mut self.pending[c as usize];
        if pending.len == UNKNOWN {
            return;
        }
        let code = &mut self.events[(pending.start + position) as usize];
        if *code == 0 {
            self.positions[(pending.start + pending.len) as usize] = position;
            pending.len += 1;
        }
        *code = (*code).max(event.code());
    }

    /// Marks the changes of `c` unknown, clearing the slots its list used.
    #[inline]
    fn forget_changes(&mut self, c: u32) {
        let pending = &mut self.pending[c as usize];
        if pending.len != UNKNOWN {
            let start = pending.start as usize;
            for &position in &self.positions[start..start + pending.len as usize] {
                self.events[start + position as usize] = 0;
            }
            pending.len = UNKNOWN;
        }
    }

    /// Puts `c` at the end of the queue if it is not queued yet; returns whether it was added.
    #[inline]
    fn enqueue(&mut self, c: u32) -> bool {
        let flag = &mut self.queued[c as usize];
        if *flag {
            return false;
        }
        *flag = true;
        let cap = self.ring.len();
        let mut slot = self.head + self.len;
        if slot >= cap {
            slot -= cap;
        }
        self.ring[slot] = c;
        self.len += 1;
        true
    }

    /// Takes the next constraint off the queue, with whether its changes are known; if they
    /// are, they are moved into `changes`.
    #[inline(always)]
    fn pop(&mut self, changes: &mut Vec<Change>) -> Option<(u32, bool)> {
        if self.len == 0 {
            return None;
        }
        let c = self.ring[self.head];
        self.head += 1;
        if self.head == self.ring.len() {
            self.head = 0;
        }
        self.len -= 1;
        self.queued[c as usize] = false;
        let pending = &mut self.pending[c as usize];
        if pending.len == UNKNOWN {
            return Some((c, false));
        }
        let start = pending.start as usize;
        changes.clear();
        for &position in &self.positions[start..start + pending.len as usize] {
            let code = std::mem::take(&mut self.events[start + position as usize]);
            changes.push(Change {
                position: position as usize,
                event: DomainEvent::from_code(code),
            });
        }
        pending.len = UNKNOWN;
        Some((c, true))
    }

    pub(crate) fn clear(&mut self) {
        while self.len > 0 {
            let c = self.ring[self.head];
            self.queued[c as usize] = false;
            self.forget_changes(c);
            self.head += 1;
            if self.head == self.ring.len() {
                self.head = 0;
            }
            self.len -= 1;
        }
    }
}

/// What a [`PropagationContext`] needs to schedule the watchers of a changed variable.
#[derive(Debug)]
pub(crate) struct Wake<'a> {
    pub(crate) queue: &'a mut Queue,
    pub(crate) watchers: &'a Watchers,
    /// The running constraint, if it is idempotent (it need not be woken by its own changes).
    pub(crate) skip: u32,
}

impl Wake<'_> {
    /// Whether the changes of `var` must be classified exactly (see [`Watchers`]).
    #[inline]
    pub(crate) fn is_precise(&self, var: u32) -> bool {
        self.watchers.precise[var as usize]
    }

    #[inline(always)]
    pub(crate) fn changed(&mut self, var: u32, event: DomainEvent) {
        // Most changes wake nobody (a removal under forward checking): decide that inline.
        let ends = &self.watchers.ends[var as usize];
        let end = match event {
            DomainEvent::Removed => ends[1],
            DomainEvent::Bounds => ends[2],
            DomainEvent::Fixed => ends[3],
        };
        if end != ends[0] {
            self.schedule(ends[0], end, event);
        }
    }

    /// Schedules the watchers `entries[start..end]` for `event`.
    #[inline(never)]
    fn schedule(&mut self, start: u32, end: u32, event: DomainEvent) {
        for &(c, position) in &self.watchers.entries[start as usize..end as usize] {
            if c == self.skip {
                continue;
            }
            if position == NO_EVENTS {
                self.queue.enqueue(c);
            } else {
                self.queue.push_change(c, position, event);
            }
        }
    }
}

/// Sees each propagator run of [`fixpoint`]: the domains before it and after it. The unit type
/// is the hook that sees nothing, and costs nothing.
pub(crate) trait RunHook {
    /// Constraint `c` is about to run on `domains`.
    #[inline]
    fn before(&mut self, c: u32, domains: &[Domain]) {
        let _ = (c, domains);
    }

    /// Constraint `c` ran (and failed, if `failed`), leaving `domains`.
    #[inline]
    fn after(&mut self, c: u32, domains: &[Domain], failed: bool) {
        let _ = (c, domains, failed);
    }
}

impl RunHook for () {}

/// How a call of [`fixpoint`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fixpoint {
    /// The queue ran empty: no propagator has anything left to do.
    Reached,
    /// The constraint with this index failed; the queue is empty.
    Failed(u32),
    /// `interrupt` asked to stop between two runs; the queue keeps the constraints still to
    /// run, and a later call goes on where this one stopped.
    Interrupted,
}

/// Propagator runs (counted over the whole search) between two questions to `interrupt` in
/// [`fixpoint`]: a counter test on the way of every run, and a question (a clock read when a
/// time limit is set) every this many runs, some microseconds of propagation apart.
pub(crate) const RUNS_BETWEEN_INTERRUPTS: u64 = 64;

/// Runs the queued constraints to a fixpoint, each through its propagator if it has one.
///
/// `runs` counts the propagator calls; `changes` is scratch space for the changes handed over;
/// `hook` sees every run; `interrupt` is asked every [`RUNS_BETWEEN_INTERRUPTS`] runs whether
/// to stop before the next (a time limit reached during a long fixpoint).
#[allow(clippy::too_many_arguments)]
pub(crate) fn fixpoint(
    constraints: &[Arc<dyn Constraint>],
    domains: &mut [Domain],
    trail: &mut Trail,
    queue: &mut Queue,
    watchers: &Watchers,
    propagators: &mut Propagators<'_>,
    changes: &mut Vec<Change>,
    level: PropagationLevel,
    runs: &mut u64,
    hook: &mut impl RunHook,
    interrupt: &mut impl FnMut() -> bool,
) -> Fixpoint {
    while let Some((c, known)) = queue.pop(changes) {
        *runs += 1;
        hook.before(c, domains);
        let skip = if watchers.idempotent[c as usize] {
            c
        } else {
            u32::MAX
        };
        let wake = Wake {
            queue: &mut *queue,
            watchers,
            skip,
        };
        let mut ctx = PropagationContext::new(domains, trail, Some(wake), level)
            .with_changes(known.then_some(&changes[..]));
        let result = match &mut propagators[c as usize] {
            Some(propagator) => propagator.propagate(&mut ctx),
            None => constraints[c as usize].propagate(&mut ctx),
        };
        hook.after(c, domains, result.is_err());
        if result.is_err() {
            queue.clear();
            return Fixpoint::Failed(c);
        }
        if runs.is_multiple_of(RUNS_BETWEEN_INTERRUPTS) && queue.len > 0 && interrupt() {
            return Fixpoint::Interrupted;
        }
    }
    Fixpoint::Reached
}

/// Schedules every constraint (the root of a search).
pub(crate) fn schedule_all(queue: &mut Queue, constraints: usize) {
    for c in 0..constraints {
        queue.push(c as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AllDifferent;

    /// A model with one all-different constraint over `n` variables, and its queue, recording
    /// the constraint's changes.
    fn queue_for(n: usize) -> Queue {
        let mut model = crate::Model::new();
        let xs = model.new_vars(n, 0..=99).unwrap();
        model.post(AllDifferent::new(&xs)).unwrap();
        Queue::new(model.constraint_list(), &[true])
    }

    fn change(position: usize, event: DomainEvent) -> Change {
        Change { position, event }
    }

    #[test]
    fn changes_that_wake_a_constraint_are_handed_to_it_once_each_with_the_strongest_event() {
        let mut queue = queue_for(20);
        let mut changes = Vec::new();
        queue.push_change(0, 7, DomainEvent::Removed);
        queue.push_change(0, 3, DomainEvent::Fixed);
        queue.push_change(0, 7, DomainEvent::Bounds);
        assert_eq!(queue.pop(&mut changes), Some((0, true)));
        assert_eq!(
            changes,
            [
                change(7, DomainEvent::Bounds),
                change(3, DomainEvent::Fixed)
            ]
        );
        assert_eq!(queue.pop(&mut changes), None);
        // A new stay in the queue starts a new list.
        queue.push_change(0, 7, DomainEvent::Removed);
        assert_eq!(queue.pop(&mut changes), Some((0, true)));
        assert_eq!(changes, [change(7, DomainEvent::Removed)]);
    }

    #[test]
    fn every_position_of_the_scope_fits_in_the_list() {
        let mut queue = queue_for(40);
        let mut changes = Vec::new();
        for position in (0..40).rev() {
            queue.push_change(0, position, DomainEvent::Fixed);
        }
        assert_eq!(queue.pop(&mut changes), Some((0, true)));
        assert_eq!(changes.len(), 40);
        assert_eq!(changes[0].position, 39);
    }

    #[test]
    fn a_constraint_queued_for_another_reason_is_told_nothing_and_a_cleared_queue_forgets() {
        let mut queue = queue_for(20);
        let mut changes = Vec::new();
        queue.push_change(0, 1, DomainEvent::Fixed);
        queue.push(0);
        queue.push_change(0, 2, DomainEvent::Fixed);
        assert_eq!(queue.pop(&mut changes), Some((0, false)));
        // Cleared on a conflict: the next stay starts afresh.
        queue.push_change(0, 2, DomainEvent::Fixed);
        queue.clear();
        queue.push_change(0, 4, DomainEvent::Removed);
        assert_eq!(queue.pop(&mut changes), Some((0, true)));
        assert_eq!(changes, [change(4, DomainEvent::Removed)]);
    }
}
