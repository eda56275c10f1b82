//! The propagation queue and the fixpoint loop.
//!
//! Invariants and costs: each constraint is in the queue at most once (a flag per constraint),
//! so the queue is a ring buffer of fixed capacity, allocated once per search. A domain change
//! of variable `x` schedules the constraints that watch `x` for any change, plus, if `x` became
//! fixed, those that watch it for fixing; both lists are contiguous slices (compressed rows)
//! built once per search from [`Constraint::wake_on`]. A constraint that declares itself
//! idempotent is not re-scheduled by its own changes. Constraints run in first-in, first-out
//! order until the queue is empty (the fixpoint) or one reports a conflict, which empties it.
//!
//! For a constraint that asks for them ([`Constraint::wants_newly_fixed`]), each stay in the
//! queue also collects the scope positions of the variables whose fixing scheduled it, in slots
//! reserved per constraint (at most [`MAX_EVENTS`]; beyond, the list is marked unknown). They
//! are handed over as [`PropagationContext::newly_fixed`]. The list is exact because the queue
//! only empties at a fixpoint or on a conflict, and after a conflict the search backtracks to a
//! state that was a fixpoint: since the constraint's last run on the current branch, every
//! fixing of its variables woke it, except those it made itself while idempotent.

use crate::constraints::{Constraint, PropagationContext, WakeOn};
use crate::domain::Domain;
use crate::model::{Model, VarId};
use crate::search::PropagationLevel;
use crate::search::trail::Trail;

/// For each variable, the constraints to wake on its changes (compressed rows).
#[derive(Debug)]
pub(crate) struct Watchers {
    on_change_start: Vec<u32>,
    on_change: Vec<u32>,
    on_fix_start: Vec<u32>,
    /// Constraint and position of the variable in its scope, or [`NO_EVENTS`] if the constraint
    /// does not read them.
    on_fix: Vec<(u32, u32)>,
    idempotent: Vec<bool>,
}

impl Watchers {
    pub(crate) fn new(model: &Model, level: PropagationLevel) -> Self {
        let constraints = model.constraint_list();
        let on_fix: Vec<bool> = constraints
            .iter()
            .map(|c| matches!(c.wake_on(level), WakeOn::Fixed))
            .collect();
        let rows = |fix: bool| {
            compressed_rows(
                model.num_variables(),
                constraints
                    .iter()
                    .zip(&on_fix)
                    .enumerate()
                    .filter(move |&(_, (_, &f))| f == fix)
                    .map(|(c, (constraint, _))| (c as u32, constraint.scope())),
            )
        };
        let (on_change_start, on_change) = rows(false);
        let (on_fix_start, mut on_fix) = rows(true);
        for (c, position) in &mut on_fix {
            if !constraints[*c as usize].wants_newly_fixed(level) {
                *position = NO_EVENTS;
            }
        }
        Watchers {
            on_change_start,
            on_change: on_change.into_iter().map(|(c, _)| c).collect(),
            on_fix_start,
            on_fix,
            idempotent: constraints.iter().map(|c| c.is_idempotent(level)).collect(),
        }
    }
}

/// For each of `n` variables, the constraints whose scopes hold it, with its position in each
/// scope, as compressed rows: row `v` is `flat[start[v]..start[v + 1]]`, in constraint order.
/// Two counting passes, so building it takes a fixed number of allocations whatever the model's
/// size.
fn compressed_rows<'a>(
    n: usize,
    scopes: impl Iterator<Item = (u32, &'a [VarId])> + Clone,
) -> (Vec<u32>, Vec<(u32, u32)>) {
    let mut start = vec![0u32; n + 1];
    for (_, scope) in scopes.clone() {
        for var in scope {
            start[var.index() + 1] += 1;
        }
    }
    for v in 0..n {
        start[v + 1] += start[v];
    }
    let mut next = start.clone();
    let mut flat = vec![(0, 0); start[n] as usize];
    for (c, scope) in scopes {
        for (position, var) in scope.iter().enumerate() {
            let slot = &mut next[var.index()];
            flat[*slot as usize] = (c, position as u32);
            *slot += 1;
        }
    }
    (start, flat)
}

/// The most fixing events recorded for one stay of a constraint in the queue; beyond, the
/// constraint is told nothing and must look at its whole scope.
const MAX_EVENTS: usize = 16;

/// The constraints waiting to run: a ring buffer with a membership flag per constraint, and for
/// each queued constraint the positions in its scope of the variables whose fixing woke it.
#[derive(Debug)]
pub(crate) struct Queue {
    ring: Vec<u32>,
    head: usize,
    len: usize,
    queued: Vec<bool>,
    pending: Vec<Pending>,
    events: Vec<u32>,
}

/// Where a constraint's fixing events are kept while it is queued: `events[start..start + len]`.
#[derive(Debug, Clone, Copy)]
struct Pending {
    start: u32,
    capacity: u32,
    /// [`UNKNOWN`] when the constraint was queued for another reason or ran out of room.
    len: u32,
}

const UNKNOWN: u32 = u32::MAX;

/// In a watch list, the position of a constraint that does not want its fixings recorded.
const NO_EVENTS: u32 = u32::MAX;

impl Queue {
    pub(crate) fn new(model: &Model) -> Self {
        let mut start = 0;
        let pending: Vec<Pending> = model
            .constraint_list()
            .iter()
            .map(|c| {
                let capacity = c.scope().len().min(MAX_EVENTS) as u32;
                start += capacity;
                Pending {
                    start: start - capacity,
                    capacity,
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
            events: vec![0; start as usize],
        }
    }

    /// Schedules `c` for a reason other than a fixing (it will be told nothing).
    ///
    /// A constraint that reads its fixings is watched for fixings only, so it is never pushed
    /// here while queued with events (except at the root, with the queue empty).
    #[inline]
    pub(crate) fn push(&mut self, c: u32) {
        self.enqueue(c);
    }

    /// Schedules `c` because the variable at `position` in its scope became fixed.
    #[inline]
    fn push_fixed(&mut self, c: u32, position: u32) {
        let added = self.enqueue(c);
        let pending = &mut self.pending[c as usize];
        if added {
            pending.len = 0;
        }
        // An unknown length is never below the capacity: it stays unknown.
        if pending.len < pending.capacity {
            self.events[(pending.start + pending.len) as usize] = position;
            pending.len += 1;
        } else {
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
        self.pending[c as usize].len = UNKNOWN;
        let cap = self.ring.len();
        let mut slot = self.head + self.len;
        if slot >= cap {
            slot -= cap;
        }
        self.ring[slot] = c;
        self.len += 1;
        true
    }

    /// Takes the next constraint off the queue, copying the fixing events that woke it into
    /// `events` if they are all known; returns the constraint and the number of events (`None`:
    /// not known).
    #[inline]
    fn pop(&mut self, events: &mut [u32; MAX_EVENTS]) -> Option<(u32, Option<usize>)> {
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
        let pending = self.pending[c as usize];
        if pending.len == UNKNOWN {
            return Some((c, None));
        }
        let (start, len) = (pending.start as usize, pending.len as usize);
        events[..len].copy_from_slice(&self.events[start..start + len]);
        Some((c, Some(len)))
    }

    pub(crate) fn clear(&mut self) {
        while self.len > 0 {
            let c = self.ring[self.head];
            self.queued[c as usize] = false;
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
    #[inline]
    pub(crate) fn changed(&mut self, var: u32, fixed: bool) {
        let w = self.watchers;
        let v = var as usize;
        self.schedule(
            &w.on_change[w.on_change_start[v] as usize..w.on_change_start[v + 1] as usize],
        );
        if fixed {
            let watches = &w.on_fix[w.on_fix_start[v] as usize..w.on_fix_start[v + 1] as usize];
            for &(c, position) in watches {
                if c == self.skip {
                    continue;
                }
                if position == NO_EVENTS {
                    self.queue.push(c);
                } else {
                    self.queue.push_fixed(c, position);
                }
            }
        }
    }

    #[inline]
    fn schedule(&mut self, constraints: &[u32]) {
        for &c in constraints {
            if c != self.skip {
                self.queue.push(c);
            }
        }
    }
}

/// Runs the queued constraints to a fixpoint.
///
/// Returns the index of the constraint that failed, if one did; the queue is then empty.
/// `runs` counts the propagator calls.
pub(crate) fn fixpoint(
    model: &Model,
    domains: &mut [Domain],
    trail: &mut Trail,
    queue: &mut Queue,
    watchers: &Watchers,
    level: PropagationLevel,
    runs: &mut u64,
) -> Result<(), u32> {
    let constraints = model.constraint_list();
    let mut events = [0; MAX_EVENTS];
    while let Some((c, fixed)) = queue.pop(&mut events) {
        *runs += 1;
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
            .with_fixed(fixed.map(|len| &events[..len]));
        if constraints[c as usize].propagate(&mut ctx).is_err() {
            queue.clear();
            return Err(c);
        }
    }
    Ok(())
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

    /// A model with one all-different constraint over `n` variables, and its queue.
    fn queue_for(n: usize) -> Queue {
        let mut model = Model::new();
        let xs = model.new_vars(n, 0..=99).unwrap();
        model.post(AllDifferent::new(&xs)).unwrap();
        Queue::new(&model)
    }

    #[test]
    fn fixings_that_wake_a_constraint_are_handed_to_it() {
        let mut queue = queue_for(20);
        let mut events = [0; MAX_EVENTS];
        queue.push_fixed(0, 7);
        queue.push_fixed(0, 3);
        assert_eq!(queue.pop(&mut events), Some((0, Some(2))));
        assert_eq!(events[..2], [7, 3]);
        assert_eq!(queue.pop(&mut events), None);
        // A new stay in the queue starts a new list.
        queue.push_fixed(0, 5);
        assert_eq!(queue.pop(&mut events), Some((0, Some(1))));
        assert_eq!(events[0], 5);
    }

    #[test]
    fn a_constraint_queued_for_another_reason_or_too_often_is_told_nothing() {
        let mut queue = queue_for(20);
        let mut events = [0; MAX_EVENTS];
        queue.push(0);
        queue.push_fixed(0, 1);
        assert_eq!(queue.pop(&mut events), Some((0, None)));
        for position in 0..=MAX_EVENTS as u32 {
            queue.push_fixed(0, position);
        }
        assert_eq!(queue.pop(&mut events), Some((0, None)));
        // Cleared on a conflict: the next stay starts afresh.
        queue.push_fixed(0, 2);
        queue.clear();
        queue.push_fixed(0, 4);
        assert_eq!(queue.pop(&mut events), Some((0, Some(1))));
        assert_eq!(events[0], 4);
    }

    #[test]
    fn a_constraint_has_room_for_one_event_per_variable() {
        let mut queue = queue_for(2);
        let mut events = [0; MAX_EVENTS];
        queue.push_fixed(0, 0);
        queue.push_fixed(0, 1);
        assert_eq!(queue.pop(&mut events), Some((0, Some(2))));
        queue.push_fixed(0, 0);
        queue.push_fixed(0, 1);
        queue.push_fixed(0, 1);
        assert_eq!(queue.pop(&mut events), Some((0, None)));
    }
}
