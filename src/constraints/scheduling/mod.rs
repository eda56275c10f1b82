//! Scheduling: tasks that share a resource, each given by a start, a duration and a demand.
//!
//! [`Cumulative`] lets tasks overlap while their demands fit a capacity; [`Disjunctive`] runs
//! them one at a time. Both reason on the same picture of the current domains: each task's
//! earliest and latest start, and its smallest duration and demand ([`Task`]). This module
//! holds the filtering they share:
//!
//! - **time-tabling** ([`time_table`]): a task whose latest start comes before its earliest
//!   end surely runs in between (its *compulsory part*); the compulsory parts add up to a
//!   profile of the resource's sure use, which may not exceed the capacity, and a task that
//!   would overload the profile wherever it starts is pushed past the overload;
//! - **energy overload** ([`overload`]): the tasks that must run inside a window need no more
//!   than the window's length times the capacity;
//! - **pairwise precedences** ([`precedences`]): two tasks that cannot overlap (demands above
//!   the capacity together, or one machine) and where one cannot end before the other starts
//!   must run the other way round;
//! - **edge-finding** on one machine ([`edge_finding`], in `theta_lambda.rs`): a task that
//!   cannot run before the end of a set of others runs after all of them.
//!
//! All arithmetic is in `i64`: ends of tasks may lie past the `i32` range of the starts.

mod cumulative;
mod disjunctive;
mod theta_lambda;

pub use cumulative::Cumulative;
pub use disjunctive::Disjunctive;

use smallvec::SmallVec;

use crate::constraints::bounds::{keep_at_least, keep_at_most};
use crate::constraints::{Conflict, PropagationContext};
use crate::ids::VarId;

/// A duration, demand or capacity: a constant, or the variable at a position of the scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Amount {
    Const(i32),
    Var(usize),
}

impl Amount {
    fn min(self, ctx: &PropagationContext<'_>, scope: &[VarId]) -> Result<i64, Conflict> {
        match self {
            Amount::Const(c) => Ok(i64::from(c)),
            Amount::Var(k) => ctx.domain(scope[k]).min().map(i64::from).ok_or(Conflict),
        }
    }

    fn max(self, ctx: &PropagationContext<'_>, scope: &[VarId]) -> Result<i64, Conflict> {
        match self {
            Amount::Const(c) => Ok(i64::from(c)),
            Amount::Var(k) => ctx.domain(scope[k]).max().map(i64::from).ok_or(Conflict),
        }
    }

    fn value(self, values: &[i32]) -> i64 {
        match self {
            Amount::Const(c) => i64::from(c),
            Amount::Var(k) => i64::from(values[k]),
        }
    }

    /// Removes the negative values of a variable amount; a negative constant fails.
    fn keep_non_negative(
        self,
        ctx: &mut PropagationContext<'_>,
        scope: &[VarId],
    ) -> Result<(), Conflict> {
        match self {
            Amount::Const(c) if c < 0 => Err(Conflict),
            Amount::Const(_) => Ok(()),
            Amount::Var(k) => ctx.remove_below(scope[k], 0).map(|_| ()),
        }
    }
}

/// The scope of `n` tasks: the starts at positions `0..n`, then each variable amount (given
/// in order) at the next position; the amounts as they are then read.
fn layout(starts: &[VarId], amounts: &[AmountArg]) -> (Vec<VarId>, Vec<Amount>) {
    let mut scope = starts.to_vec();
    let amounts = amounts
        .iter()
        .map(|&amount| match amount {
            AmountArg::Const(c) => Amount::Const(c),
            AmountArg::Var(var) => {
                scope.push(var);
                Amount::Var(scope.len() - 1)
            }
        })
        .collect();
    (scope, amounts)
}

/// A duration, demand or capacity as a constructor receives it.
#[derive(Debug, Clone, Copy)]
enum AmountArg {
    Const(i32),
    Var(VarId),
}

/// One task as the current domains bound it: earliest and latest start, smallest duration
/// and demand.
#[derive(Debug, Clone, Copy)]
struct Task {
    est: i64,
    lst: i64,
    duration: i64,
    demand: i64,
}

impl Task {
    /// The earliest end.
    fn ect(&self) -> i64 {
        self.est + self.duration
    }

    /// The latest end.
    fn lct(&self) -> i64 {
        self.lst + self.duration
    }

    /// Whether the task surely uses the resource: some duration and some demand.
    fn is_busy(&self) -> bool {
        self.duration > 0 && self.demand > 0
    }

    /// The compulsory part `[lst, ect)`, if not empty.
    fn compulsory(&self) -> Option<(i64, i64)> {
        (self.is_busy() && self.lst < self.ect()).then_some((self.lst, self.ect()))
    }
}

type Tasks = SmallVec<[Task; 32]>;

/// Whether a full assignment keeps the load of every moment within `capacity`: the load is
/// highest at some start, so the starts are the moments to check. Tasks with no duration or
/// no demand take nothing.
fn fits(starts: &[i64], durations: &[i64], demands: &[i64], capacity: i64) -> bool {
    let n = starts.len();
    (0..n).all(|j| {
        if durations[j] <= 0 || demands[j] <= 0 {
            return true;
        }
        let t = starts[j];
        let load: i64 = (0..n)
            .filter(|&i| durations[i] > 0 && starts[i] <= t && t < starts[i] + durations[i])
            .map(|i| demands[i].max(0))
            .sum();
        load <= capacity
    })
}

/// Time-tabling: the profile of the compulsory parts may not exceed `capacity`, and each task
/// starts neither where nor so that it would overload it. Returns the profile's peak; tightens
/// `tasks` with what it prunes.
fn time_table(
    ctx: &mut PropagationContext<'_>,
    starts: &[VarId],
    tasks: &mut [Task],
    capacity: i64,
) -> Result<i64, Conflict> {
    let mut events: SmallVec<[(i64, i64); 64]> = SmallVec::new();
    for task in tasks.iter() {
        if let Some((from, to)) = task.compulsory() {
            events.push((from, task.demand));
            events.push((to, -task.demand));
        }
    }
    if events.is_empty() {
        return Ok(0);
    }
    // At one moment the ends (negative) come before the starts.
    events.sort_unstable();
    // The profile: segments [from, to) of positive height, in time order.
    let mut profile: SmallVec<[(i64, i64, i64); 64]> = SmallVec::new();
    let (mut height, mut peak) = (0i64, 0i64);
    for (k, &(at, delta)) in events.iter().enumerate() {
        height += delta;
        let Some(&(next, _)) = events.get(k + 1) else {
            break;
        };
        if next > at && height > 0 {
            if height > capacity {
                return Err(Conflict);
            }
            peak = peak.max(height);
            profile.push((at, next, height));
        }
    }
    for (i, task) in tasks.iter_mut().enumerate() {
        if !task.is_busy() || peak + task.demand <= capacity {
            continue;
        }
        let own = task.compulsory();
        let others = |from: i64, to: i64, height: i64| match own {
            Some((lo, hi)) if from >= lo && to <= hi => height - task.demand,
            _ => height,
        };
        let room = capacity - task.demand;
        // The earliest start: past each overloaded segment the task would overlap.
        let mut start = task.est;
        for &(from, to, height) in &profile {
            if to <= start {
                continue;
            }
            if from >= start + task.duration {
                break;
            }
            if others(from, to, height) > room {
                start = to;
            }
        }
        // The latest end: before each overloaded segment, from the right.
        let mut end = task.lct();
        for &(from, to, height) in profile.iter().rev() {
            if from >= end {
                continue;
            }
            if to <= end - task.duration {
                break;
            }
            if others(from, to, height) > room {
                end = from;
            }
        }
        if start > task.est {
            keep_at_least(ctx, starts[i], start)?;
            task.est = start;
        }
        if end - task.duration < task.lst {
            keep_at_most(ctx, starts[i], end - task.duration)?;
            task.lst = end - task.duration;
        }
        if task.est > task.lst {
            return Err(Conflict);
        }
    }
    Ok(peak)
}

/// Energy overload: for every window from a task's earliest start to a task's latest end,
/// the tasks that must run inside it need at most its length times `capacity`. O(n²).
fn overload(tasks: &[Task], capacity: i64) -> Result<(), Conflict> {
    let mut by_end: SmallVec<[Task; 32]> = tasks.iter().copied().filter(Task::is_busy).collect();
    by_end.sort_unstable_by_key(Task::lct);
    for window in &by_end {
        let from = window.est;
        let mut energy = 0i64;
        for task in by_end.iter().filter(|t| t.est >= from) {
            energy = energy.saturating_add(task.duration.saturating_mul(task.demand));
            if energy > capacity.saturating_mul(task.lct() - from) {
                return Err(Conflict);
            }
        }
    }
    Ok(())
}

/// Pairwise precedences between the tasks `exclusive` says may not overlap: when `i` cannot
/// end before `j` starts, `j` runs first (and if neither order fits, the pair fails). Tightens
/// `tasks` with what it prunes; whether it pruned.
fn precedences(
    ctx: &mut PropagationContext<'_>,
    starts: &[VarId],
    tasks: &mut [Task],
    exclusive: impl Fn(&Task, &Task) -> bool,
) -> Result<bool, Conflict> {
    let mut pruned = false;
    for i in 0..tasks.len() {
        for j in i + 1..tasks.len() {
            let (a, b) = (tasks[i], tasks[j]);
            if !exclusive(&a, &b) {
                continue;
            }
            let a_first = a.ect() <= b.lst;
            let b_first = b.ect() <= a.lst;
            let (first, then) = match (a_first, b_first) {
                (false, false) => return Err(Conflict),
                (true, true) => continue,
                (true, false) => (i, j),
                (false, true) => (j, i),
            };
            // `first` ends before `then` starts.
            let earliest = tasks[first].ect();
            if earliest > tasks[then].est {
                keep_at_least(ctx, starts[then], earliest)?;
                tasks[then].est = earliest;
                pruned = true;
            }
            let latest = tasks[then].lst - tasks[first].duration;
            if latest < tasks[first].lst {
                keep_at_most(ctx, starts[first], latest)?;
                tasks[first].lst = latest;
                pruned = true;
            }
        }
    }
    Ok(pruned)
}

/// Edge-finding in both directions on the tasks of one machine that surely take time (see
/// [`theta_lambda`]); tightens `tasks` with what it prunes. Fails on an overload.
fn edge_finding(
    ctx: &mut PropagationContext<'_>,
    starts: &[VarId],
    tasks: &mut [Task],
) -> Result<(), Conflict> {
    let busy: SmallVec<[usize; 32]> = (0..tasks.len())
        .filter(|&i| tasks[i].duration > 0)
        .collect();
    if busy.len() < 2 {
        return Ok(());
    }
    let duration: SmallVec<[i64; 32]> = busy.iter().map(|&i| tasks[i].duration).collect();
    // Earliest starts.
    let est: SmallVec<[i64; 32]> = busy.iter().map(|&i| tasks[i].est).collect();
    let lct: SmallVec<[i64; 32]> = busy.iter().map(|&i| tasks[i].lct()).collect();
    let mut earliest = est.clone();
    theta_lambda::edge_finding(&est, &lct, &duration, &mut earliest)?;
    for (k, &i) in busy.iter().enumerate() {
        if earliest[k] > tasks[i].est {
            keep_at_least(ctx, starts[i], earliest[k])?;
            tasks[i].est = earliest[k];
        }
    }
    // Latest ends: the same on the mirrored times, where a task runs from −lct to −est.
    let est: SmallVec<[i64; 32]> = busy.iter().map(|&i| -tasks[i].lct()).collect();
    let lct: SmallVec<[i64; 32]> = busy.iter().map(|&i| -tasks[i].est).collect();
    let mut earliest = est.clone();
    theta_lambda::edge_finding(&est, &lct, &duration, &mut earliest)?;
    for (k, &i) in busy.iter().enumerate() {
        let latest = -earliest[k] - tasks[i].duration;
        if latest < tasks[i].lst {
            keep_at_most(ctx, starts[i], latest)?;
            tasks[i].lst = latest;
        }
    }
    Ok(())
}

/// The tasks' bounds under the current domains; without `demands`, each demand is 1.
fn read_tasks(
    ctx: &PropagationContext<'_>,
    scope: &[VarId],
    n: usize,
    durations: &[Amount],
    demands: Option<&[Amount]>,
) -> Result<Tasks, Conflict> {
    (0..n)
        .map(|i| {
            let start = ctx.domain(scope[i]);
            Ok(Task {
                est: start.min().map(i64::from).ok_or(Conflict)?,
                lst: start.max().map(i64::from).ok_or(Conflict)?,
                duration: durations[i].min(ctx, scope)?,
                demand: match demands {
                    Some(demands) => demands[i].min(ctx, scope)?,
                    None => 1,
                },
            })
        })
        .collect()
}

/// The error of a constructor whose arrays differ in length.
fn lengths_differ(constraint: &str, lengths: &[(&str, usize)]) -> crate::ModelError {
    let listed: Vec<String> = lengths
        .iter()
        .map(|(what, n)| format!("{n} {what}"))
        .collect();
    crate::ModelError::InvalidConstraint {
        constraint: constraint.into(),
        reason: format!(
            "one entry per task is needed in each array, got {}",
            listed.join(", ")
        ),
    }
}
