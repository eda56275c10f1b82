//! The propagation queue and the fixpoint loop.
//!
//! Invariants and costs: each constraint is in the queue at most once (a flag per constraint),
//! so the queue is a ring buffer of fixed capacity, allocated once per search. A domain change
//! of variable `x` schedules the constraints that watch `x` for any change, plus, if `x` became
//! fixed, those that watch it for fixing; both lists are contiguous slices (compressed rows)
//! built once per search from [`Constraint::wake_on`]. A constraint that declares itself
//! idempotent is not re-scheduled by its own changes. Constraints run in first-in, first-out
//! order until the queue is empty (the fixpoint) or one reports a conflict, which empties it.

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
    on_fix: Vec<u32>,
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
                    .filter(move |&(_, &f)| f == fix)
                    .map(|(c, _)| c.scope()),
                constraints
                    .iter()
                    .zip(&on_fix)
                    .enumerate()
                    .filter(move |&(_, (_, &f))| f == fix)
                    .map(|(i, _)| i as u32),
            )
        };
        let (on_change_start, on_change) = rows(false);
        let (on_fix_start, on_fix) = rows(true);
        Watchers {
            on_change_start,
            on_change,
            on_fix_start,
            on_fix,
            idempotent: constraints.iter().map(|c| c.is_idempotent(level)).collect(),
        }
    }
}

/// For each of `n` variables, the constraints (numbered by `ids`) whose scopes hold it, as
/// compressed rows: row `v` is `flat[start[v]..start[v + 1]]`, in constraint order. Two counting
/// passes, so building it takes a fixed number of allocations whatever the model's size.
fn compressed_rows<'a>(
    n: usize,
    scopes: impl Iterator<Item = &'a [VarId]> + Clone,
    ids: impl Iterator<Item = u32>,
) -> (Vec<u32>, Vec<u32>) {
    let mut start = vec![0u32; n + 1];
    for scope in scopes.clone() {
        for var in scope {
            start[var.index() + 1] += 1;
        }
    }
    for v in 0..n {
        start[v + 1] += start[v];
    }
    let mut next = start.clone();
    let mut flat = vec![0u32; start[n] as usize];
    for (scope, c) in scopes.zip(ids) {
        for var in scope {
            let slot = &mut next[var.index()];
            flat[*slot as usize] = c;
            *slot += 1;
        }
    }
    (start, flat)
}

/// The constraints waiting to run: a ring buffer with a membership flag per constraint.
#[derive(Debug)]
pub(crate) struct Queue {
    ring: Vec<u32>,
    head: usize,
    len: usize,
    queued: Vec<bool>,
}

impl Queue {
    pub(crate) fn new(constraints: usize) -> Self {
        Queue {
            ring: vec![0; constraints.max(1)],
            head: 0,
            len: 0,
            queued: vec![false; constraints],
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, c: u32) {
        let flag = &mut self.queued[c as usize];
        if *flag {
            return;
        }
        *flag = true;
        let cap = self.ring.len();
        let mut slot = self.head + self.len;
        if slot >= cap {
            slot -= cap;
        }
        self.ring[slot] = c;
        self.len += 1;
    }

    #[inline]
    fn pop(&mut self) -> Option<u32> {
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
        Some(c)
    }

    pub(crate) fn clear(&mut self) {
        while self.pop().is_some() {}
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
            self.schedule(&w.on_fix[w.on_fix_start[v] as usize..w.on_fix_start[v + 1] as usize]);
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
    while let Some(c) = queue.pop() {
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
        let mut ctx = PropagationContext::new(domains, trail, Some(wake), level);
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
