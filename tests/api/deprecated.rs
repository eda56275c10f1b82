//! Public items renamed or retired keep their old names for at least one minor version
//! (CHANGELOG.md lists them): code written against an older cspkit still compiles and still
//! reads the same values.
#![allow(deprecated)]

use cspkit::models::queens::Queens;

#[test]
fn the_old_name_of_the_decision_count_reads_the_decisions() {
    let queens = Queens::new(6).unwrap();
    let mut solver = queens.model().solver();
    assert_eq!(solver.count().solutions, 4);
    let stats = solver.stats();
    assert!(stats.decisions > 0);
    assert_eq!(stats.nodes, stats.decisions);
}

#[test]
fn a_trace_fed_through_the_old_event_method_prints_what_on_event_prints() {
    use cspkit::teach::trace::Trace;
    use cspkit::{EventLog, SearchObserver};

    let queens = Queens::new(4).unwrap();
    let mut log = EventLog::new();
    queens.model().solver().with_observer(&mut log).count();
    let (mut old, mut new) = (
        Trace::new(queens.model(), Vec::new()),
        Trace::new(queens.model(), Vec::new()),
    );
    for event in log.events() {
        old.event(&event.as_event());
        new.on_event(&event.as_event());
    }
    old.finish().unwrap();
    new.finish().unwrap();
    let (old, new) = (old.writer_mut().clone(), new.writer_mut().clone());
    assert!(!new.is_empty());
    assert_eq!(
        String::from_utf8(old).unwrap(),
        String::from_utf8(new).unwrap()
    );
}
