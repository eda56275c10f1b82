//! Every limit (decisions, time, cancellation) on every search path: first solution, count,
//! listing, parallel count and listing, restarts, branch and bound, stepping, textbook forward
//! checking, the least-constraining value order, and FlatZinc's `-t`. The model is the pigeonhole problem with
//! pairwise `≠` at forward checking: no solution, and a search far too long to finish, so each
//! path must be stopped by its limit, say which, and keep to it.

use std::num::NonZeroUsize;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

#[allow(
    deprecated,
    reason = "checks that the deprecated `Solver::step` still stops"
)]
use cspkit::StepEvent;
use cspkit::{
    Branching, LeastConstraining, Limit, LinearExpr, Model, NotEqual, Optimum, Outcome,
    PropagationLevel, RandomValue, RestartPolicy, SmallestDomainRandomTies, Solver,
};

/// 13 pigeons, 12 holes, one `≠` per pair.
fn pigeons() -> Model {
    let mut model = Model::new();
    let xs = model.new_vars(13, 1..=12).unwrap();
    for i in 0..xs.len() {
        for j in i + 1..xs.len() {
            model.post(NotEqual::new(xs[i], xs[j])).unwrap();
        }
    }
    model
}

/// How a limit is set on a solver.
#[derive(Debug, Clone, Copy)]
enum Set {
    Decisions(u64),
    Time(Duration),
    Cancelled,
}

impl Set {
    fn expected(self) -> Limit {
        match self {
            Set::Decisions(_) => Limit::Decisions,
            Set::Time(_) => Limit::Time,
            Set::Cancelled => Limit::Cancelled,
        }
    }
}

fn limited(model: &Model, set: Set) -> Solver<'_> {
    let solver = model.solver().with_propagation(PropagationLevel::Forward);
    match set {
        Set::Decisions(n) => solver.with_decision_limit(n),
        Set::Time(t) => solver.with_time_limit(t),
        Set::Cancelled => solver.with_cancel_flag(Arc::new(AtomicBool::new(true))),
    }
}

/// The limit that ended a first-solution search, if one did.
fn limit_of(outcome: &Outcome) -> Option<Limit> {
    match outcome {
        Outcome::LimitReached(limit) => Some(*limit),
        _ => None,
    }
}

/// Each search path, run under a limit: the limit it reports and the decisions it made.
#[allow(
    deprecated,
    reason = "checks that the deprecated `with_textbook_forward_checking` and `Solver::step` still work"
)]
fn every_path(model: &Model, set: Set) -> Vec<(&'static str, Option<Limit>, u64)> {
    let two = NonZeroUsize::new(2).unwrap();
    let mut runs = Vec::new();

    let mut solver = limited(model, set);
    let outcome = solver.next_solution();
    runs.push((
        "first solution",
        limit_of(&outcome),
        solver.stats().decisions,
    ));

    let mut solver = limited(model, set);
    let count = solver.count();
    runs.push(("count", count.stopped_by, solver.stats().decisions));

    let mut solver = limited(model, set);
    let stopped = {
        let mut solutions = solver.solutions();
        assert!(solutions.next().is_none());
        solutions.stopped_by()
    };
    runs.push(("listing", stopped, solver.stats().decisions));

    let mut solver = limited(model, set);
    let count = solver.count_up_to_parallel(u64::MAX, two);
    runs.push(("parallel count", count.stopped_by, solver.stats().decisions));

    let mut solver = limited(model, set);
    let stopped = solver.for_each_solution_parallel(two, |_| ControlFlow::Continue(()));
    runs.push(("parallel listing", stopped, solver.stats().decisions));

    let mut solver = limited(model, set)
        .with_variable_order(SmallestDomainRandomTies::new(7))
        .with_value_order(RandomValue::new(7))
        .with_restarts(RestartPolicy::luby(10));
    let outcome = solver.next_solution();
    runs.push(("restarts", limit_of(&outcome), solver.stats().decisions));

    let mut solver = limited(model, set);
    let sum = model
        .variables()
        .fold(LinearExpr::new(&[], 0), |sum, x| sum + x);
    let stopped = match solver.minimize(sum).unwrap() {
        Optimum::Unknown(limit) => Some(limit),
        other => panic!("branch and bound: {other:?}"),
    };
    runs.push(("branch and bound", stopped, solver.stats().decisions));

    let mut solver = limited(model, set);
    let stopped = loop {
        match solver.step() {
            StepEvent::Stopped(limit) => break Some(limit),
            StepEvent::Exhausted => break None,
            _ => {}
        }
    };
    runs.push(("stepping", stopped, solver.stats().decisions));

    let mut solver = limited(model, set)
        .with_propagation(PropagationLevel::None)
        .with_textbook_forward_checking(true)
        .with_branching(Branching::DWay);
    let count = solver.count();
    runs.push(("textbook", count.stopped_by, solver.stats().decisions));

    let mut solver = limited(model, set).with_value_order(LeastConstraining::new());
    let count = solver.count();
    runs.push((
        "least constraining",
        count.stopped_by,
        solver.stats().decisions,
    ));
    runs
}

/// Runs `every_path` on a thread of its own, so that a limit that does not hold fails the test
/// instead of hanging it.
fn within_a_minute(set: Set) -> Vec<(&'static str, Option<Limit>, u64)> {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let model = pigeons();
        let _ = sender.send(every_path(&model, set));
    });
    receiver
        .recv_timeout(Duration::from_secs(60))
        .unwrap_or_else(|_| panic!("{set:?}: a search ran past its limit"))
}

#[test]
fn every_search_path_keeps_to_every_limit() {
    for set in [
        Set::Decisions(2_000),
        Set::Time(Duration::from_millis(100)),
        Set::Cancelled,
    ] {
        for (path, stopped, decisions) in within_a_minute(set) {
            assert_eq!(stopped, Some(set.expected()), "{path} under {set:?}");
            match set {
                Set::Decisions(n) => assert!(decisions <= n, "{path}: {decisions} > {n}"),
                Set::Cancelled => assert_eq!(decisions, 0, "{path}: a raised flag stops at once"),
                Set::Time(_) => {}
            }
        }
    }
}

/// The same pigeons in FlatZinc, to satisfy or to minimise the sum of the holes.
fn pigeons_fzn(goal: &str) -> String {
    let mut text = String::new();
    for i in 0..13 {
        text.push_str(&format!("var 1..12: x{i} :: output_var;\n"));
    }
    text.push_str("var 13..156: total :: output_var;\n");
    for i in 0..13 {
        for j in i + 1..13 {
            text.push_str(&format!("constraint int_ne(x{i}, x{j});\n"));
        }
    }
    let xs: Vec<String> = (0..13).map(|i| format!("x{i}")).collect();
    let ones = vec!["1"; 13].join(", ");
    text.push_str(&format!(
        "constraint int_lin_eq([{ones}, -1], [{}, total], 0);\n",
        xs.join(", ")
    ));
    text.push_str(&format!("solve {goal};\n"));
    text
}

#[test]
fn a_flatzinc_time_limit_holds_to_satisfy_to_list_and_to_optimise() {
    use cspkit::flatzinc::{self, Options, Status};
    for (goal, all) in [
        ("satisfy", false),
        ("satisfy", true),
        ("minimize total", false),
        ("minimize total", true),
    ] {
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let items = flatzinc::parse(&pigeons_fzn(goal)).unwrap();
            let built = flatzinc::build(&items).unwrap();
            let options = Options {
                all,
                time_limit: Some(Duration::from_millis(100)),
                ..Options::default()
            };
            let mut out = Vec::new();
            let status = flatzinc::run(&built, &options, &mut out).unwrap();
            let _ = sender.send((status, String::from_utf8(out).unwrap()));
        });
        let (status, out) = receiver
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("{goal}, all = {all}: the search ran past -t"));
        assert_eq!(status, Status::Unknown, "{goal}, all = {all}");
        assert_eq!(out, "=====UNKNOWN=====\n", "{goal}, all = {all}");
    }
}

/// `x < y` and `y < x` over `0..=max`: bounds reasoning takes one value off each bound per
/// propagator run, so the root fixpoint takes some `max` runs before it empties a domain.
fn bounds_ping_pong(max: i32) -> Model {
    let mut model = Model::new();
    let x = model.new_var(0..=max).unwrap();
    let y = model.new_var(0..=max).unwrap();
    model.post(LinearExpr::from(x).lt(y)).unwrap();
    model.post(LinearExpr::from(y).lt(x)).unwrap();
    model
}

#[test]
fn a_time_limit_interrupts_a_long_fixpoint() {
    // About 2 * 10^9 propagator runs: minutes if the root fixpoint ran to its end.
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let model = bounds_ping_pong(i32::MAX - 1);
        let mut solver = model.solver().with_time_limit(Duration::from_millis(100));
        let outcome = solver.next_solution();
        let _ = sender.send((limit_of(&outcome), solver.stats().decisions));
    });
    let (stopped, decisions) = receiver
        .recv_timeout(Duration::from_secs(60))
        .expect("the root fixpoint ran past the time limit");
    assert_eq!(stopped, Some(Limit::Time));
    assert_eq!(decisions, 0);
}

#[test]
fn a_search_interrupted_in_a_fixpoint_resumes_it() {
    // A flag raised before the search stops the root fixpoint within its first runs; lowered,
    // the search goes on from there to the answer an uninterrupted search gives.
    let flag = Arc::new(AtomicBool::new(true));
    let unsatisfiable = bounds_ping_pong(10_000);
    let mut solver = unsatisfiable.solver().with_cancel_flag(Arc::clone(&flag));
    assert_eq!(limit_of(&solver.next_solution()), Some(Limit::Cancelled));
    let runs = solver.stats().propagations;
    assert!(
        runs < 1_000,
        "{runs} propagator runs before the flag was seen"
    );
    flag.store(false, std::sync::atomic::Ordering::Relaxed);
    assert!(matches!(solver.next_solution(), Outcome::Exhausted));
    let whole = {
        let mut solver = unsatisfiable.solver();
        assert!(matches!(solver.next_solution(), Outcome::Exhausted));
        solver.stats()
    };
    assert_eq!(solver.stats().propagations, whole.propagations);
    assert_eq!(solver.stats().failures, whole.failures);

    // A chain x0 < x1 < ... < x99 over 0..=10_000: solutions, listed in the same order.
    let mut chain = Model::new();
    let xs = chain.new_vars(100, 0..=10_000).unwrap();
    for pair in xs.windows(2) {
        chain.post(LinearExpr::from(pair[0]).lt(pair[1])).unwrap();
    }
    flag.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut solver = chain.solver().with_cancel_flag(Arc::clone(&flag));
    assert_eq!(limit_of(&solver.next_solution()), Some(Limit::Cancelled));
    assert_eq!(solver.stats().decisions, 0);
    flag.store(false, std::sync::atomic::Ordering::Relaxed);
    let resumed: Vec<Vec<i32>> = solver
        .solutions()
        .take(3)
        .map(|s| s.values().to_vec())
        .collect();
    let fresh: Vec<Vec<i32>> = chain
        .solver()
        .solutions()
        .take(3)
        .map(|s| s.values().to_vec())
        .collect();
    assert_eq!(resumed.len(), 3);
    assert_eq!(resumed, fresh);
}

#[test]
fn the_time_between_improving_solutions_counts_against_the_time_limit() {
    // x over 0..=10^8, maximised with the smallest value first: one improving solution after
    // another, each found at once. The callback takes 20 ms per solution: that time is part of
    // the optimisation's, so a limit of 100 ms stops it after a handful of solutions (when only
    // the engine's own time counted, it ran on for millions; a flag raised at the 200th
    // solution stops that case).
    let mut model = Model::new();
    let x = model.new_var(0..=100_000_000).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let mut solver = model
        .solver()
        .with_time_limit(Duration::from_millis(100))
        .with_cancel_flag(Arc::clone(&stop));
    let mut improvements = 0;
    let optimum = solver
        .maximize_with(x, |_, _| {
            improvements += 1;
            std::thread::sleep(Duration::from_millis(20));
            if improvements >= 200 {
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        })
        .unwrap();
    assert!(
        matches!(
            optimum,
            Optimum::BestFound {
                stopped_by: Limit::Time,
                ..
            }
        ),
        "{optimum:?} after {improvements} improvements"
    );
    assert!(improvements < 200, "{improvements}");
    // The statistics say the same time.
    assert!(solver.stats().elapsed >= Duration::from_millis(100));
}
