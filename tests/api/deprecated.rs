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
