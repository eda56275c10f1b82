//! Parallel search: counting and listing solutions on several threads of one machine.
//!
//! The tree is split into subtrees by the sequential search itself: it runs down to a depth
//! `d`, records the domains at every node it reaches at that depth (the root of a subtree), skips
//! that subtree, and goes on, so the subtrees and the solutions found above depth `d` come out
//! in the sequential search's order. The depth is the smallest that gives at least
//! [`SUBTREES_PER_THREAD`] subtrees per thread (each shallower trial is thrown away; they cost
//! little). Threads then take subtrees in order from a shared counter (work sharing) and search
//! each from its recorded domains, with their own copy of the orders and their own engine.
//!
//! - Counts add up. Listing hands solutions over subtree by subtree, in the order of the
//!   subtrees, which is the order of the sequential search: with orders that are functions of
//!   the domains (every built-in order, the randomised ones included), the same as
//!   [`Solver::solutions`] whatever the number of threads.
//! - Many more subtrees than threads keep the threads busy to the end although subtrees differ
//!   in size by orders of magnitude; the threads share nothing but two counters, so the speed-up
//!   is close to the number of cores until subtrees get too few.
//! - A limit in one thread raises a flag that stops the others at their next decision.

use std::collections::BTreeMap;
use std::num::NonZeroUsize;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use super::config::Plan;
use super::engine::{Engine, Run, Step};
use super::limits::{Budget, Clock, Limit, Limits, NodeShare, Pause, SharedNodes};
use super::observer::{NoObserver, SearchObserver};
use super::ordering::{ValueOrder, VariableOrder};
use super::pause::{Progress, Tracked};
use super::stats::SearchStats;
use super::{Count, Solution, Solver};
use crate::domain::Domain;
use crate::ids::VarId;
use crate::model::Model;

/// Whether this target can start threads: not the browser's WebAssembly
/// (`wasm32-unknown-unknown`), where a parallel search runs on the calling thread alone.
const THREADS_AVAILABLE: bool = !cfg!(all(target_arch = "wasm32", target_os = "unknown"));

/// The number of subtrees per thread a split aims for.
const SUBTREES_PER_THREAD: usize = 32;

/// The most subtrees per thread a split records (each keeps a copy of the domains).
const MAX_SUBTREES_PER_THREAD: usize = 32 * 64;

/// The most memory the recorded domains of a split may take, roughly.
const MAX_SPLIT_BYTES: usize = 64 << 20;

/// The most solutions a split records above its depth: past them, the rest of the tree is one
/// last subtree (a model whose solutions come at the first decisions is split no further).
const MAX_SPLIT_SOLUTIONS: usize = 1024;

/// A thread listing solutions of a subtree whose turn has not come sends them in chunks of
/// this many (those of the subtree being handed over go one at a time, as they are found).
const CHUNK: usize = 64;

/// The most solutions a thread keeps waiting for the caller in a subtree that is not yet its
/// turn, before it pauses: listing holds at most about `threads ×` this many.
const MAX_AHEAD: usize = 4096;

/// What a parallel search shares between its threads.
struct Context<'a> {
    model: &'a Model,
    /// The solver's options (a projection is searched on one thread).
    plan: &'a Plan,
    /// The wall time of this search, on top of the solver's earlier calls.
    clock: Clock,
    shared_nodes: Option<&'a SharedNodes>,
    /// Raised to stop every thread: a limit was reached, enough solutions were found, or the
    /// caller asked to stop.
    stop: &'a AtomicBool,
}

impl Context<'_> {
    /// An engine for the solver's model and options.
    fn engine(&self) -> Engine<'_> {
        Engine::new(self.model, self.plan)
    }

    /// A budget for one call of the engine: the user's limits, shared between the threads, and
    /// the stop flag.
    fn budget<'b>(&'b self, share: Option<&'b NodeShare<'b>>) -> Budget<'b> {
        let budget = Budget::start(&self.plan.config.limits, self.clock).with_pause(Pause {
            flag: Some(self.stop),
            ..Pause::default()
        });
        match share {
            Some(share) => budget.with_shared_nodes(share),
            None => budget,
        }
    }

    /// An engine at the root of the problem: the model's domains with `fixes` fixed.
    fn root_engine(&self, fixes: &[(VarId, i32)]) -> Engine<'_> {
        let mut engine = self.engine();
        for &(var, value) in fixes {
            engine.fix_before_search(var, value);
        }
        engine
    }
}

/// An item of the sequential order of a split: a solution found above the split's depth, or a
/// subtree (an index into [`Split::subtrees`]).
enum Task {
    Solution(Solution),
    Subtree(usize),
}

/// The top of the search tree, down to `depth`.
struct Split {
    tasks: Vec<Task>,
    /// The domains at the root of each subtree.
    subtrees: Vec<Box<[Domain]>>,
    depth: usize,
    stats: SearchStats,
    /// The limit that stopped the split itself (the tasks are then a prefix).
    stopped_by: Option<Limit>,
}

/// How the search of one subtree ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    Exhausted,
    Limit(Limit),
    /// Stopped by the stop flag: another thread reached a limit, or the caller had enough.
    Interrupted,
}

/// What a thread found in one subtree, or in its next part when listing (the solutions come
/// in chunks, the last one with how the subtree ended).
struct Found {
    index: usize,
    /// The solutions, in order, when they are listed.
    solutions: Vec<Solution>,
    count: u64,
    /// How the subtree ended; `None` for a chunk with more to come.
    end: Option<End>,
}

/// What the caller wants of the solutions.
enum Want<'v> {
    /// Their number, up to `max`.
    Count { max: u64 },
    /// Each of them, in order.
    Each(&'v mut dyn FnMut(Solution) -> ControlFlow<()>),
}

impl<'m, V, W, O> Solver<'m, V, W, O>
where
    V: VariableOrder + Clone + Send,
    W: ValueOrder + Clone + Send,
    O: SearchObserver,
{
    /// Counts all solutions on `threads` threads.
    ///
    /// The count is the same as [`Solver::count`] gives, whatever the number of threads.
    /// Unlike `count`, which counts the solutions this solver has not reported yet, a parallel
    /// search always searches the whole problem: the model, with the fixes of the last
    /// [`Solver::restart_with`]. The solver's own search is left where it was.
    ///
    /// How it works: the sequential search is run down to a small depth, splitting the tree
    /// into many more subtrees than threads (32 per thread, or as close as the tree allows);
    /// the threads take subtrees one at a time from a shared counter, each with its own copy
    /// of the orders (hence `Clone + Send`) and its own search state. With one thread, it is
    /// the sequential search, on the calling thread; so it is on a target that cannot start
    /// threads (the browser's WebAssembly, `wasm32-unknown-unknown`), whatever `threads` says.
    ///
    /// - Limits count over the life of the solver, as for the sequential search. The decision
    ///   limit counts the decisions of all threads together and is never overrun (each thread
    ///   reserves its decisions in batches of 32, and makes none it has not reserved), and the
    ///   cancellation flag stops every thread. When one thread reaches a limit, the others stop
    ///   at their next decision;
    ///   the count is then the number found so far, with the limit in
    ///   [`stopped_by`](Count::stopped_by), never reported as exact.
    /// - Statistics: the threads' work is added to the solver's ([`SearchStats::add`]). Decisions,
    ///   failures, backtracks and solutions are those of the sequential search (the split does
    ///   each decision above its depth once, the threads the ones below); propagations are a
    ///   few more (each subtree's root is propagated again); `elapsed` is the wall time.
    /// - The restart policy ([`Solver::with_restarts`]) does not apply, and the observer sees
    ///   nothing of a parallel search (it would need one per thread).
    ///
    /// # Panics
    ///
    /// If the value order returns a value that is not in the domain of the chosen variable.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::num::NonZeroUsize;
    ///
    /// use cspkit::models::queens::Queens;
    /// use cspkit::PropagationLevel;
    ///
    /// let queens = Queens::new(10)?;
    /// let mut solver = queens.model().solver().with_propagation(PropagationLevel::Forward);
    /// let threads = NonZeroUsize::new(2).unwrap();
    /// let count = solver.count_parallel(threads);
    /// assert_eq!((count.solutions, count.is_exact()), (724, true));
    /// assert_eq!(solver.count().solutions, 724); // the same as sequentially
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn count_parallel(&mut self, threads: NonZeroUsize) -> Count {
        self.count_up_to_parallel(u64::MAX, threads)
    }

    /// Counts the solutions on `threads` threads, stopping as soon as `max` are found; see
    /// [`Solver::count_parallel`] and [`Solver::count_up_to`].
    ///
    /// The answer is the same whatever the number of threads: the exact count if there are
    /// fewer than `max` solutions, else `max` with [`Limit::Solutions`].
    ///
    /// # Panics
    ///
    /// If the value order returns a value that is not in the domain of the chosen variable.
    pub fn count_up_to_parallel(&mut self, max: u64, threads: NonZeroUsize) -> Count {
        let (solutions, stopped_by) = self.search_parallel(threads, Want::Count { max });
        Count {
            solutions,
            stopped_by,
        }
    }

    /// Hands every solution to `visit`, in the order of the sequential search, searching on
    /// `threads` threads; `visit` runs on the calling thread and may stop the search by
    /// returning [`ControlFlow::Break`]. See [`Solver::count_parallel`] for how the search is
    /// shared and for limits and statistics.
    ///
    /// The solutions, and their order, are those of [`Solver::solutions`] on a new search of
    /// the problem, whatever the number of threads, for every order that depends only on the
    /// domains, as the built-in ones do (an order that keeps state of its own, or reads
    /// [`SearchView::depth`](crate::SearchView::depth), may see the subtrees differently; the
    /// set of solutions is the same). Solutions are handed over subtree by subtree: those of
    /// a subtree are kept until the subtrees before it are finished.
    ///
    /// Returns the limit that stopped the search, or `None` if every solution was handed over
    /// or `visit` asked to stop. When a limit stops it, the solutions handed over are the first
    /// ones of the sequential order, without a gap.
    ///
    /// # Panics
    ///
    /// If the value order returns a value that is not in the domain of the chosen variable.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::num::NonZeroUsize;
    /// use std::ops::ControlFlow;
    ///
    /// use cspkit::{AllDifferent, Model};
    ///
    /// let mut model = Model::new();
    /// let xs = model.new_vars(4, 1..=4)?;
    /// model.post(AllDifferent::new(&xs))?;
    /// let mut solver = model.solver();
    /// let mut found = Vec::new();
    /// let stopped_by = solver.for_each_solution_parallel(NonZeroUsize::new(3).unwrap(), |s| {
    ///     found.push(s.values().to_vec());
    ///     ControlFlow::Continue(())
    /// });
    /// assert_eq!(stopped_by, None);
    /// assert_eq!(found.len(), 24);
    /// assert_eq!(found[0], [1, 2, 3, 4]); // lexicographic order, as sequentially
    /// assert_eq!(found[23], [4, 3, 2, 1]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn for_each_solution_parallel(
        &mut self,
        threads: NonZeroUsize,
        mut visit: impl FnMut(Solution) -> ControlFlow<()>,
    ) -> Option<Limit> {
        self.search_parallel(threads, Want::Each(&mut visit)).1
    }

    /// The parallel search: the number of solutions counted or handed over, and the limit
    /// that stopped it.
    fn search_parallel(
        &mut self,
        threads: NonZeroUsize,
        mut want: Want<'_>,
    ) -> (u64, Option<Limit>) {
        if let Want::Count { max: 0 } = want {
            return (0, Some(Limit::Solutions));
        }
        // The limits count over the life of the solver, as for the sequential search.
        let shared_nodes = self
            .plan
            .config
            .decision_limit()
            .map(|max| SharedNodes::new(max, self.stats.decisions));
        let stop = AtomicBool::new(false);
        let context = Context {
            model: self.model,
            plan: &self.plan,
            clock: Clock::start(self.stats.elapsed),
            shared_nodes: shared_nodes.as_ref(),
            stop: &stop,
        };
        // Subtrees split below the projected variables could hold the same projected
        // solution: a projected search runs on one thread.
        // Without threads (the browser's WebAssembly), the same search on the calling thread.
        let (result, stats) =
            if threads.get() == 1 || !THREADS_AVAILABLE || self.plan.project.is_some() {
                sequential(
                    &context,
                    &self.fixes,
                    self.variable_order.clone(),
                    self.value_order.clone(),
                    &mut want,
                )
            } else {
                let split = split(
                    &context,
                    &self.fixes,
                    self.variable_order.clone(),
                    self.value_order.clone(),
                    threads.get(),
                );
                if let Some(shared) = &shared_nodes {
                    shared.add(split.stats.decisions);
                }
                share_out(
                    &context,
                    split,
                    &self.variable_order,
                    &self.value_order,
                    threads,
                    &mut want,
                )
            };
        let elapsed = context.clock.elapsed();
        self.stats.add(&stats);
        self.stats.elapsed = elapsed;
        result
    }
}

/// The search on the calling thread alone: the sequential search of the whole problem.
fn sequential<V: VariableOrder, W: ValueOrder>(
    context: &Context<'_>,
    fixes: &[(VarId, i32)],
    mut variable_order: V,
    mut value_order: W,
    want: &mut Want<'_>,
) -> ((u64, Option<Limit>), SearchStats) {
    let mut engine = context.root_engine(fixes);
    let share = context.shared_nodes.map(NodeShare::new);
    let mut stats = SearchStats::default();
    let mut found = 0;
    variable_order.start_run(0);
    value_order.start_run(0);
    let end = search_subtree(
        context,
        &mut engine,
        &mut variable_order,
        &mut value_order,
        share.as_ref(),
        &mut stats,
        &mut |solution| {
            found += 1;
            match want {
                Want::Count { max } if found >= *max => ControlFlow::Break(()),
                Want::Count { .. } => ControlFlow::Continue(()),
                Want::Each(visit) => visit(solution()),
            }
        },
    );
    let stopped_by = match (end, &want) {
        (End::Limit(limit), _) => Some(limit),
        (End::Interrupted, Want::Count { .. }) => Some(Limit::Solutions),
        (End::Interrupted, Want::Each(_)) | (End::Exhausted, _) => None,
    };
    ((found, stopped_by), stats)
}

/// Searches the subtree below the engine's root to its end, a limit, or until `on_solution`
/// (given a way to build the solution) breaks.
fn search_subtree<V: VariableOrder, W: ValueOrder>(
    context: &Context<'_>,
    engine: &mut Engine,
    variable_order: &mut V,
    value_order: &mut W,
    share: Option<&NodeShare<'_>>,
    stats: &mut SearchStats,
    on_solution: &mut dyn FnMut(&dyn Fn() -> Solution) -> ControlFlow<()>,
) -> End {
    loop {
        let budget = context.budget(share);
        let step = engine.next(&mut Run {
            model: context.model,
            variable_order: &mut *variable_order,
            value_order: &mut *value_order,
            observer: &mut NoObserver,
            budget: &budget,
            stats: &mut *stats,
        });
        match step {
            Step::Solution => {
                let solution = || Solution::from_domains(context.model, engine.domains());
                if on_solution(&solution).is_break() {
                    context.stop.store(true, Ordering::Relaxed);
                    return End::Interrupted;
                }
            }
            Step::Exhausted => return End::Exhausted,
            Step::Limit(_) if budget.paused() => return End::Interrupted,
            Step::Limit(limit) => {
                context.stop.store(true, Ordering::Relaxed);
                return End::Limit(limit);
            }
        }
    }
}

/// Splits the tree for `threads` threads: the shallowest split with enough subtrees.
///
/// A split records at most `threads ×` [`MAX_SUBTREES_PER_THREAD`] subtrees, and no more than
/// [`MAX_SPLIT_BYTES`] of domains: a deeper trial that would record more is abandoned for the
/// shallower one, and the first (depth 1), if it reaches the cap, records the rest of the tree
/// as one last subtree.
fn split<V: VariableOrder, W: ValueOrder>(
    context: &Context<'_>,
    fixes: &[(VarId, i32)],
    mut variable_order: V,
    mut value_order: W,
    threads: usize,
) -> Split {
    let mut engine = context.root_engine(fixes);
    let limits = Limits {
        decisions: context.shared_nodes.map(SharedNodes::left),
        ..context.plan.config.limits.clone()
    };
    let target = threads * SUBTREES_PER_THREAD;
    let cap = (threads * MAX_SUBTREES_PER_THREAD)
        .min(MAX_SPLIT_BYTES / snapshot_bytes(context.model))
        .max(target);
    let mut chosen: Option<Split> = None;
    for depth in 1..=context.model.num_variables() {
        if depth > 1 {
            engine.reset(context.model);
            for &(var, value) in fixes {
                engine.fix_before_search(var, value);
            }
        }
        let Some(split) = split_at(
            context,
            &limits,
            &mut engine,
            &mut variable_order,
            &mut value_order,
            depth,
            cap,
        ) else {
            break; // Too many subtrees: keep the shallower split.
        };
        let enough = split.subtrees.len() >= target
            || split.subtrees.is_empty()
            || split.stopped_by.is_some();
        chosen = Some(split);
        if enough {
            break;
        }
    }
    chosen.unwrap_or_else(|| {
        // No variable: the root is the only subtree.
        Split {
            tasks: vec![Task::Subtree(0)],
            subtrees: vec![engine.domains().into()],
            depth: 0,
            stats: SearchStats::default(),
            stopped_by: None,
        }
    })
}

/// About how many bytes a copy of the domains of `model` takes.
fn snapshot_bytes(model: &Model) -> usize {
    let words: usize = model
        .variables()
        .map(|var| {
            let domain = model.domain(var);
            match (domain.min(), domain.max()) {
                (Some(min), Some(max)) => (i64::from(max) - i64::from(min)) as usize / 64 + 1,
                _ => 1,
            }
        })
        .sum();
    (model.num_variables() * std::mem::size_of::<Domain>() + words * 8).max(1)
}

/// Runs the sequential search from the engine's root down to `depth`, recording the subtrees
/// at that depth and the solutions above it. Past `cap` subtrees or [`MAX_SPLIT_SOLUTIONS`]
/// solutions, a deeper split is abandoned (`None`) and the first one, at depth 1, records the
/// rest of the tree as one last subtree.
fn split_at<V: VariableOrder, W: ValueOrder>(
    context: &Context<'_>,
    limits: &Limits,
    engine: &mut Engine,
    variable_order: &mut V,
    value_order: &mut W,
    depth: usize,
    cap: usize,
) -> Option<Split> {
    variable_order.start_run(0);
    value_order.start_run(0);
    let progress = Progress::default();
    let mut split = Split {
        tasks: Vec::new(),
        subtrees: Vec::new(),
        depth,
        stats: SearchStats::default(),
        stopped_by: None,
    };
    // Where to pause: at `depth`, or, once the cap is reached at depth 1, at the next node at
    // the root, whose subtree is all that is left of the tree.
    let mut pause_depth = depth;
    let mut solutions = 0;
    loop {
        // Each trial counts its own decisions against what is left of the decision limit; only
        // those of the split kept are added to the threads' count (the others are done again).
        let budget = Budget::start(limits, context.clock).with_pause(Pause {
            depth: Some(pause_depth),
            progress: Some(&progress),
            ..Pause::default()
        });
        let step = engine.next(&mut Run {
            model: context.model,
            variable_order: &mut *variable_order,
            value_order: &mut *value_order,
            observer: &mut Tracked {
                inner: &mut NoObserver,
                progress: &progress,
            },
            budget: &budget,
            stats: &mut split.stats,
        });
        match step {
            Step::Solution => {
                split.tasks.push(Task::Solution(Solution::from_domains(
                    context.model,
                    engine.domains(),
                )));
                solutions += 1;
                if solutions >= MAX_SPLIT_SOLUTIONS {
                    if depth > 1 {
                        return None; // Keep the shallower split.
                    }
                    // Enough kept: the next node is at the root, and its subtree, all that
                    // is left of the tree, is one last subtree.
                    pause_depth = 0;
                }
            }
            Step::Exhausted => break,
            Step::Limit(_) if budget.paused() => {
                split.tasks.push(Task::Subtree(split.subtrees.len()));
                split.subtrees.push(engine.domains().into());
                if pause_depth == 0 {
                    break; // The rest of the tree.
                }
                if depth > 1 && split.subtrees.len() > cap {
                    return None;
                }
                if depth == 1 && split.subtrees.len() >= cap {
                    pause_depth = 0;
                }
                engine.skip_subtree();
            }
            Step::Limit(limit) => {
                split.stopped_by = Some(limit);
                break;
            }
        }
    }
    Some(split)
}

/// Shares the subtrees of `split` out to `threads` threads and gathers what they find.
fn share_out<V, W>(
    context: &Context<'_>,
    split: Split,
    variable_order: &V,
    value_order: &W,
    threads: NonZeroUsize,
    want: &mut Want<'_>,
) -> ((u64, Option<Limit>), SearchStats)
where
    V: VariableOrder + Clone + Send,
    W: ValueOrder + Clone + Send,
{
    let mut stats = split.stats;
    let depth = split.depth;
    if let Some(limit) = split.stopped_by {
        // The split itself was stopped: only the solutions before its first subtree are known
        // to come first.
        let solutions = split.tasks.into_iter().map_while(|task| match task {
            Task::Solution(solution) => Some(solution),
            Task::Subtree(_) => None,
        });
        let found = match want {
            Want::Count { max } => {
                let found = solutions.count() as u64;
                if found >= *max {
                    return ((*max, Some(Limit::Solutions)), stats);
                }
                found
            }
            Want::Each(visit) => {
                let mut found = 0;
                for solution in solutions {
                    found += 1;
                    if visit(solution).is_break() {
                        return ((found, None), stats);
                    }
                }
                found
            }
        };
        return ((found, Some(limit)), stats);
    }
    let listing = matches!(want, Want::Each(_));
    let above = split
        .tasks
        .iter()
        .filter(|task| matches!(task, Task::Solution(_)))
        .count() as u64;
    // Solutions found so far, for a count that stops at a maximum.
    let counted = AtomicU64::new(above);
    let max = match want {
        Want::Count { max } => *max,
        Want::Each(_) => u64::MAX,
    };
    if above >= max {
        return ((max, Some(Limit::Solutions)), stats);
    }
    let next = AtomicUsize::new(0);
    // The subtree whose solutions the caller is being handed (listing).
    let turn = AtomicUsize::new(0);
    let subtrees = &split.subtrees;
    let (sender, receiver) = mpsc::channel::<Found>();
    let result = thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.get().min(subtrees.len()))
            .map(|_| {
                let sender = sender.clone();
                let mut variable_order = variable_order.clone();
                let mut value_order = value_order.clone();
                let (next, counted, turn) = (&next, &counted, &turn);
                scope.spawn(move || {
                    let mut engine = context.engine();
                    let share = context.shared_nodes.map(NodeShare::new);
                    let mut stats = SearchStats::default();
                    while !context.stop.load(Ordering::Relaxed) {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(root) = subtrees.get(index) else {
                            break;
                        };
                        engine.reset(context.model);
                        engine.restrict_before_search(root);
                        variable_order.start_run(0);
                        value_order.start_run(0);
                        let mut solutions = Vec::new();
                        let mut count = 0;
                        let mut ahead = 0;
                        let mut cut = false;
                        let end = search_subtree(
                            context,
                            &mut engine,
                            &mut variable_order,
                            &mut value_order,
                            share.as_ref(),
                            &mut stats,
                            &mut |solution| {
                                count += 1;
                                if listing {
                                    solutions.push(solution());
                                    // The subtree being handed over sends each solution at
                                    // once; the others, in chunks.
                                    let now = turn.load(Ordering::Relaxed) >= index;
                                    if now || solutions.len() >= CHUNK {
                                        let chunk = Found {
                                            index,
                                            solutions: std::mem::take(&mut solutions),
                                            count: 0,
                                            end: None,
                                        };
                                        if sender.send(chunk).is_err() {
                                            cut = true;
                                            return ControlFlow::Break(());
                                        }
                                        ahead += CHUNK;
                                        if now {
                                            ahead = 0;
                                        }
                                        // Not yet this subtree's turn: wait rather than pile
                                        // up solutions the caller may never want.
                                        while ahead >= MAX_AHEAD
                                            && turn.load(Ordering::Relaxed) < index
                                            && !context.stop.load(Ordering::Relaxed)
                                        {
                                            thread::sleep(Duration::from_millis(1));
                                        }
                                    }
                                } else if max < u64::MAX
                                    && counted.fetch_add(1, Ordering::Relaxed) + 1 >= max
                                {
                                    return ControlFlow::Break(());
                                }
                                ControlFlow::Continue(())
                            },
                        );
                        let found = Found {
                            index,
                            solutions,
                            count,
                            end: Some(end),
                        };
                        if cut || sender.send(found).is_err() {
                            break;
                        }
                    }
                    if let Some(share) = &share {
                        share.flush(stats.decisions);
                    }
                    stats
                })
            })
            .collect();
        drop(sender);
        let result = match want {
            Want::Count { .. } => gather_count(&receiver, above, max),
            Want::Each(visit) => {
                gather_in_order(&receiver, split.tasks, context.stop, &turn, visit)
            }
        };
        drop(receiver);
        for worker in workers {
            match worker.join() {
                Ok(mut worker_stats) => {
                    worker_stats.max_depth += depth;
                    stats.add(&worker_stats);
                }
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        result
    });
    (result, stats)
}

/// Adds up the counts of the subtrees: the total (at most `max`) and the limit that stopped
/// the count, if any.
fn gather_count(receiver: &mpsc::Receiver<Found>, above: u64, max: u64) -> (u64, Option<Limit>) {
    let mut total = above;
    let mut stopped_by = None;
    for found in receiver {
        total += found.count;
        if let Some(End::Limit(limit)) = found.end {
            stopped_by.get_or_insert(limit);
        }
    }
    if total >= max {
        (max, Some(Limit::Solutions))
    } else {
        (total, stopped_by)
    }
}

/// Hands the solutions to `visit` in the order of `tasks`, those of each subtree as its
/// chunks arrive (the chunks of later subtrees wait their turn, which `turn` tells the
/// threads): the number handed over and the limit that stopped the search (`None` if every
/// solution was handed over or `visit` asked to stop).
fn gather_in_order(
    receiver: &mpsc::Receiver<Found>,
    tasks: Vec<Task>,
    stop: &AtomicBool,
    turn: &AtomicUsize,
    visit: &mut dyn FnMut(Solution) -> ControlFlow<()>,
) -> (u64, Option<Limit>) {
    let mut waiting: BTreeMap<usize, std::collections::VecDeque<Found>> = BTreeMap::new();
    let mut handed = 0;
    let mut stopped_by = None;
    let mut hand = |solution: Solution, handed: &mut u64| {
        *handed += 1;
        let flow = visit(solution);
        if flow.is_break() {
            stop.store(true, Ordering::Relaxed);
        }
        flow
    };
    for task in tasks {
        let index = match task {
            Task::Solution(solution) => {
                if hand(solution, &mut handed).is_break() {
                    return (handed, None);
                }
                continue;
            }
            Task::Subtree(index) => index,
        };
        turn.store(index, Ordering::Relaxed);
        let end = loop {
            let part = match waiting.get_mut(&index).and_then(|parts| parts.pop_front()) {
                Some(part) => part,
                None => match receiver.recv() {
                    Ok(found) => {
                        if let Some(End::Limit(limit)) = found.end {
                            stopped_by.get_or_insert(limit);
                        }
                        waiting.entry(found.index).or_default().push_back(found);
                        continue;
                    }
                    // Every thread has ended without this subtree: they were stopped, and the
                    // limit that stopped them has been reported.
                    Err(_) => return (handed, stopped_by.or(Some(Limit::Cancelled))),
                },
            };
            for solution in part.solutions {
                if hand(solution, &mut handed).is_break() {
                    return (handed, None);
                }
            }
            if let Some(end) = part.end {
                break end;
            }
        };
        waiting.remove(&index);
        if end != End::Exhausted {
            // The first unfinished subtree: nothing is known of what follows. Wait for the
            // threads to stop, and for the report of the limit that stopped them.
            stop.store(true, Ordering::Relaxed);
            for found in receiver {
                if let Some(End::Limit(limit)) = found.end {
                    stopped_by.get_or_insert(limit);
                }
            }
            return (handed, stopped_by.or(Some(Limit::Cancelled)));
        }
    }
    (handed, None)
}
