//! Driving a search one step at a time ([`Solver::step`]), the view of where it stands, and
//! searches resumed after a limit, checked against the same searches run without stopping.
#![allow(
    deprecated,
    reason = "checks that the deprecated `Solver::step` and `StepEvent` still work"
)]

use cspkit::models::queens::Queens;
use cspkit::{
    BranchKind, Branching, Domain, Event, Limit, Model, Outcome, PropagationLevel, SearchObserver,
    StepEvent, VarId,
};

/// The node, failure and solution events of an uninterrupted search, as the stream gives them.
#[derive(Default)]
struct Stream(Vec<(u64, u64, VarId, i32, BranchKind)>, Vec<u64>, Vec<u64>);

impl SearchObserver for Stream {
    fn event(&mut self, event: &Event<'_>) {
        match *event {
            Event::Node {
                node,
                parent,
                var,
                value,
                kind,
                ..
            } => self.0.push((node, parent, var, value, kind)),
            Event::Failure { node, .. } => self.1.push(node),
            Event::Solution { node, .. } => self.2.push(node),
            _ => {}
        }
    }
}

fn queens(n: usize) -> Queens {
    Queens::new(n).unwrap()
}

#[test]
fn stepping_to_the_end_meets_every_event_of_the_uninterrupted_search() {
    for (level, branching) in [
        (PropagationLevel::Forward, Branching::Assign),
        (PropagationLevel::None, Branching::Assign),
        (PropagationLevel::Full, Branching::Split),
    ] {
        let q = queens(6);
        let mut stream = Stream::default();
        let mut whole = q
            .model()
            .solver()
            .with_propagation(level)
            .with_branching(branching)
            .with_observer(&mut stream);
        let count = whole.count();
        let stats = whole.stats();
        drop(whole);

        let mut solver = q
            .model()
            .solver()
            .with_propagation(level)
            .with_branching(branching);
        let (mut nodes, mut failures, mut solutions) = (Vec::new(), Vec::new(), Vec::new());
        loop {
            match solver.step() {
                StepEvent::Node {
                    node,
                    parent,
                    var,
                    value,
                    kind,
                    depth,
                } => {
                    nodes.push((node, parent, var, value, kind));
                    // The view is that of the end of the step: never shallower than a node
                    // the step made by a decision.
                    if kind == BranchKind::Equal || kind == BranchKind::AtMost {
                        assert!(depth >= 1);
                    }
                }
                StepEvent::Pruned { after, var, .. } => {
                    assert!(after.size() < q.n(), "{var:?}");
                }
                StepEvent::Failure { node, .. } => failures.push(node),
                StepEvent::Solution { node, solution } => {
                    assert!(q.model().is_solution(solution.values()));
                    // At a solution every domain the view shows is fixed, to the solution.
                    let view: Vec<i32> = solver
                        .domains()
                        .iter()
                        .map(|d| d.value().unwrap())
                        .collect();
                    assert_eq!(view, solution.values());
                    // The path to it: each decision holds in the solution.
                    for (var, value) in solver.decisions() {
                        match branching {
                            Branching::Assign => assert_eq!(solution[var], value),
                            _ => assert!(solution[var] <= value),
                        }
                    }
                    solutions.push(node);
                }
                StepEvent::Propagated { .. } => {}
                StepEvent::Exhausted => break,
                other => panic!("unexpected {other:?}"),
            }
        }
        assert_eq!(solver.step(), StepEvent::Exhausted, "the end is the end");
        assert_eq!((nodes, failures), (stream.0, stream.1), "{level:?}");
        assert_eq!(solutions, stream.2);
        assert_eq!(solutions.len() as u64, count.solutions);
        assert_eq!(solver.stats().decisions, stats.decisions);
        assert_eq!(solver.stats().failures, stats.failures);
    }
}

/// The domains at the end of each node's propagation, as the stream gives them.
#[derive(Default)]
struct Fixpoints(Vec<(u64, Vec<Domain>)>);

impl SearchObserver for Fixpoints {
    fn observes_propagation(&self) -> bool {
        true
    }
    fn event(&mut self, event: &Event<'_>) {
        if let Event::Propagated { node, domains } = *event {
            self.0.push((node, domains.to_vec()));
        }
    }
}

#[test]
#[allow(
    deprecated,
    reason = "checks that the deprecated `with_textbook_forward_checking` still works"
)]
fn each_node_that_does_not_fail_hands_out_its_domains_in_step_with_its_events() {
    for (level, branching, textbook) in [
        (PropagationLevel::Forward, Branching::Assign, false),
        (PropagationLevel::None, Branching::DWay, true),
        (PropagationLevel::Full, Branching::Split, false),
    ] {
        let q = queens(6);
        let solver = || {
            q.model()
                .solver()
                .with_propagation(level)
                .with_branching(branching)
                .with_textbook_forward_checking(textbook)
        };
        let mut fixpoints = Fixpoints::default();
        let count = solver().with_observer(&mut fixpoints).count().solutions;
        assert_eq!(count, 4);

        let mut stepper = solver();
        let mut stepped = Vec::new();
        // The node whose events are being handed out: the root until the first decision.
        let mut current = 0;
        let mut failed = Vec::new();
        loop {
            match stepper.step() {
                StepEvent::Node { node, .. } => current = node,
                StepEvent::Propagated { node, domains } => {
                    assert_eq!(node, current, "a node's domains come with its own events");
                    assert!(!failed.contains(&node), "a failed node has no fixpoint");
                    stepped.push((node, domains));
                }
                StepEvent::Failure { node, .. } => failed.push(node),
                StepEvent::Exhausted => break,
                _ => {}
            }
        }
        assert_eq!(
            stepped.first().map(|(node, _)| *node),
            Some(0),
            "the root first"
        );
        assert_eq!(stepped, fixpoints.0, "{level:?} {branching:?}");
    }
}

#[test]
fn the_board_after_a_step_is_that_of_the_node_handed_out_not_of_the_engine() {
    // 4-Queens: row 1 = 1 holds, row 2 = 3 fails; when the failure is handed out, the engine
    // has already refuted row 2 = 3, seen row 2 ≠ 3 fail too, and propagated row 1 ≠ 1.
    let q = queens(4);
    let mut solver = q.model().solver();
    let mut boards = Vec::new();
    loop {
        match solver.step() {
            StepEvent::Propagated { domains, .. } => boards.push(q.board_at(&domains)),
            StepEvent::Failure { .. } => break,
            _ => {}
        }
    }
    assert_eq!(
        boards,
        ["oooo\n".repeat(4), "Q...\n..oo\n.o.o\n.oo.\n".to_owned()]
    );
    // The engine stands at row 1 ≠ 1, ahead of the events handed out.
    assert_eq!(
        q.board_at(solver.domains()),
        ".ooo\n".to_owned() + &"oooo\n".repeat(3)
    );
}

#[test]
fn a_step_then_a_whole_search_goes_on_from_the_same_place() {
    let q = queens(8);
    let first = q.model().solve().solution().unwrap();
    let mut solver = q.model().solver();
    for _ in 0..5 {
        let _ = solver.step();
    }
    assert_eq!(solver.next_solution(), Outcome::Solved(first));
}

#[test]
fn a_search_stopped_by_a_node_limit_goes_on_once_the_limit_is_raised() {
    let q = queens(10);
    let all = q.model().solver().count().solutions;
    let mut solver = q.model().solver().with_decision_limit(50);
    let first = solver.count();
    assert_eq!(first.stopped_by, Some(Limit::Decisions));
    // The same limit: the same answer, nothing more.
    assert_eq!(solver.count().solutions, 0);
    solver.set_decision_limit(None);
    let rest = solver.count();
    assert!(rest.is_exact());
    assert_eq!(first.solutions + rest.solutions, all);

    // A first solution, in two calls.
    let expected = q.model().solve().solution().unwrap();
    let mut solver = q.model().solver().with_decision_limit(3);
    assert_eq!(
        solver.next_solution(),
        Outcome::LimitReached(Limit::Decisions)
    );
    assert_eq!(
        solver.next_solution(),
        Outcome::LimitReached(Limit::Decisions)
    );
    solver.set_decision_limit(Some(1_000));
    assert_eq!(solver.next_solution(), Outcome::Solved(expected));
}

#[test]
fn stepping_reports_a_limit_and_resumes_after_it() {
    let mut model = Model::new();
    let x = model.new_vars(3, 1..=3).unwrap();
    model.post(cspkit::AllDifferent::new(&x)).unwrap();
    let mut solver = model.solver().with_decision_limit(1);
    let mut events = Vec::new();
    loop {
        let event = solver.step();
        let stop = matches!(event, StepEvent::Stopped(_) | StepEvent::Exhausted);
        events.push(event);
        if stop {
            break;
        }
    }
    assert_eq!(events.last(), Some(&StepEvent::Stopped(Limit::Decisions)));
    solver.set_decision_limit(None);
    let solutions = std::iter::from_fn(|| match solver.step() {
        StepEvent::Exhausted => None,
        event => Some(event),
    })
    .filter(|e| matches!(e, StepEvent::Solution { .. }))
    .count();
    assert_eq!(solutions, 6);
}
