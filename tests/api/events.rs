//! One event stream: what an observer receives ([`Event`]), what an [`EventLog`] keeps and
//! what [`Solver::next_step`] hands out ([`OwnedEvent`]) are the same sequence; and an observer
//! written for the per-event methods of earlier versions gets the same calls as before.

use cspkit::models::queens::Queens;
use cspkit::{
    BranchKind, Branching, ConstraintId, Event, EventLog, OwnedEvent, Propagation,
    PropagationLevel, RandomValue, RestartPolicy, SearchConfig, SearchObserver, SearchStep,
    SmallestDomainRandomTies, Solver, VarId,
};

/// The searches compared: 6-Queens under each propagation and branching, and AC-3.
fn searches(queens: &Queens) -> Vec<Solver<'_>> {
    let mut solvers: Vec<Solver<'_>> = [
        (PropagationLevel::Full, Branching::Assign),
        (PropagationLevel::Forward, Branching::Assign),
        (PropagationLevel::None, Branching::Assign),
        (PropagationLevel::Full, Branching::Split),
        (PropagationLevel::Forward, Branching::DWay),
    ]
    .into_iter()
    .map(|(level, branching)| {
        queens
            .model()
            .solver()
            .with_propagation(level)
            .with_branching(branching)
    })
    .collect();
    let ac3 = SearchConfig::new().with_propagation(Propagation::Ac3);
    solvers.push(queens.model().solver_with(ac3).unwrap());
    solvers
}

#[test]
fn the_logged_and_the_stepped_streams_of_a_search_are_the_same() {
    let queens = Queens::new(6).unwrap();
    for (logged, stepped) in searches(&queens).into_iter().zip(searches(&queens)) {
        let mut log = EventLog::new().with_propagation();
        let mut logged = logged.with_observer(&mut log);
        let count = logged.count();
        drop(logged);

        let mut stepped = stepped;
        let mut events = Vec::new();
        let mut solutions = 0;
        loop {
            let step = stepped.next_step();
            if let Some(event) = step.event() {
                events.push(event.to_owned_event());
            }
            match step {
                SearchStep::Solution { .. } => solutions += 1,
                SearchStep::Exhausted => break,
                SearchStep::Stopped(limit) => panic!("no limit was set: {limit}"),
                _ => {}
            }
        }
        assert_eq!(solutions, count.solutions);
        assert!(log.events().len() > 100);
        assert_eq!(log.events(), events);
        let backtracks = events
            .iter()
            .filter(|e| matches!(e, OwnedEvent::Backtrack { .. }))
            .count() as u64;
        assert_eq!(backtracks, stepped.stats().backtracks);
    }
}

#[test]
fn an_owned_event_lends_back_the_event_it_was_made_from() {
    let queens = Queens::new(5).unwrap();
    let mut log = EventLog::new().with_propagation();
    let _ = queens.model().solver().with_observer(&mut log).count();
    for event in log.events() {
        assert_eq!(&event.as_event().to_owned_event(), event);
    }
}

/// The calls an observer written for the per-event methods receives.
#[derive(Debug, Default, PartialEq)]
struct OldStyle {
    decisions: Vec<(VarId, i32, usize)>,
    failures: Vec<(Option<ConstraintId>, usize)>,
    backtracks: Vec<(VarId, i32, usize)>,
    solutions: Vec<usize>,
    /// Every call in order: `d`ecision, `f`ailure, `b`acktrack, `s`olution, `e`vent.
    calls: String,
}

impl SearchObserver for OldStyle {
    fn decision(&mut self, var: VarId, value: i32, depth: usize) {
        self.decisions.push((var, value, depth));
        self.calls.push('d');
    }
    fn failure(&mut self, constraint: Option<ConstraintId>, depth: usize) {
        self.failures.push((constraint, depth));
        self.calls.push('f');
    }
    fn backtrack(&mut self, var: VarId, value: i32, depth: usize) {
        self.backtracks.push((var, value, depth));
        self.calls.push('b');
    }
    fn solution(&mut self, depth: usize) {
        self.solutions.push(depth);
        self.calls.push('s');
    }
    fn event(&mut self, _event: &Event<'_>) {
        self.calls.push('e');
    }
}

/// An observer of earlier versions that wants the decisions only.
#[derive(Debug, Default)]
struct DecisionsOnly(Vec<(VarId, i32, usize)>);

impl SearchObserver for DecisionsOnly {
    fn decision(&mut self, var: VarId, value: i32, depth: usize) {
        self.0.push((var, value, depth));
    }
}

/// The calls the engine of earlier versions made for this stream: a decision before the
/// event of each left branch, a failure or a solution before its event, a backtrack alone.
fn calls_before(events: &[OwnedEvent]) -> OldStyle {
    let mut old = OldStyle::default();
    for event in events {
        match *event {
            OwnedEvent::Node {
                var,
                value,
                kind: BranchKind::Equal | BranchKind::AtMost,
                depth,
                ..
            } => {
                old.decisions.push((var, value, depth));
                old.calls.push_str("de");
            }
            OwnedEvent::Failure {
                constraint, depth, ..
            } => {
                old.failures.push((constraint, depth));
                old.calls.push_str("fe");
            }
            OwnedEvent::Backtrack { var, value, depth } => {
                old.backtracks.push((var, value, depth));
                old.calls.push('b');
            }
            OwnedEvent::Solution { depth, .. } => {
                old.solutions.push(depth);
                old.calls.push_str("se");
            }
            _ => old.calls.push('e'),
        }
    }
    old
}

#[test]
fn an_observer_written_for_the_per_event_methods_gets_the_same_calls_as_before() {
    let queens = Queens::new(6).unwrap();
    for (logged, watched) in searches(&queens).into_iter().zip(searches(&queens)) {
        let mut log = EventLog::new();
        let mut logged = logged.with_observer(&mut log);
        let _ = logged.count();
        let stats = logged.stats();
        drop(logged);

        let mut old = OldStyle::default();
        let mut only = DecisionsOnly::default();
        let _ = watched.with_observer((&mut old, &mut only)).count();

        let expected = calls_before(log.events());
        assert_eq!(old, expected);
        assert_eq!(only.0, expected.decisions);
        assert_eq!(old.decisions.len() as u64, stats.decisions);
        assert_eq!(old.failures.len() as u64, stats.failures);
        assert_eq!(old.backtracks.len() as u64, stats.backtracks);
        assert_eq!(old.solutions.len() as u64, stats.solutions);
    }
}

#[test]
fn a_search_with_restarts_hands_its_observer_the_whole_stream() {
    let queens = Queens::new(30).unwrap();
    let mut log = EventLog::new().with_propagation();
    let mut solver = queens
        .model()
        .solver()
        .with_variable_order(SmallestDomainRandomTies::new(9))
        .with_value_order(RandomValue::new(9))
        .with_propagation(PropagationLevel::Forward)
        .with_restarts(RestartPolicy::luby(1))
        .with_observer(&mut log);
    assert!(solver.next_solution().is_solved());
    let stats = solver.stats();
    drop(solver);
    assert!(stats.restarts > 2, "{stats:?}");
    let count = |kind: fn(&OwnedEvent) -> bool| log.events().iter().filter(|e| kind(e)).count();
    assert_eq!(
        count(|e| matches!(
            e,
            OwnedEvent::Node {
                kind: BranchKind::Equal,
                ..
            }
        )) as u64,
        stats.decisions
    );
    assert_eq!(
        count(|e| matches!(e, OwnedEvent::Failure { .. })) as u64,
        stats.failures
    );
    // Each run starts at a root of its own, whose fixpoint comes first.
    assert!(count(|e| matches!(e, OwnedEvent::Propagated { node: 0, .. })) as u64 > stats.restarts);
}
