//! No allocation per search node: the number of allocations a search makes must not grow with
//! the number of nodes it visits.
//!
//! A counting global allocator (`stats_alloc`) counts every allocation. Each case runs the same
//! model and strategy twice, stopped by a decision limit of 1,000 and of 100,000, and compares the
//! counts. These are counts, not times: they are the same on every machine.

use std::alloc::System;
use std::sync::Mutex;

use cspkit::models::queens::Queens;
use cspkit::models::sudoku::{Grid, Sudoku};
use cspkit::{Limit, Model, PropagationLevel, SmallestDomain};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// The counts are global, so the tests of this file take turns.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The allocations and reallocations made while `work` runs.
fn allocations_during<T>(work: impl FnOnce() -> T) -> (T, usize) {
    let region = Region::new(GLOBAL);
    let result = work();
    let change = region.change();
    (result, change.allocations + change.reallocations)
}

const SHORT: u64 = 1_000;
const LONG: u64 = 100_000;

/// The allocations of a counting search stopped after `nodes` nodes; asserts that it was the
/// node limit that stopped it, so that both searches really visit that many nodes.
fn count_allocations(
    model: &Model,
    level: PropagationLevel,
    smallest_domain: bool,
    nodes: u64,
) -> usize {
    let (stopped_by, allocations) = allocations_during(|| {
        if smallest_domain {
            let mut solver = model
                .solver()
                .with_variable_order(SmallestDomain)
                .with_propagation(level)
                .with_decision_limit(nodes);
            solver.count().stopped_by
        } else {
            let mut solver = model
                .solver()
                .with_propagation(level)
                .with_decision_limit(nodes);
            solver.count().stopped_by
        }
    });
    assert_eq!(
        stopped_by,
        Some(Limit::Decisions),
        "the search must run into the decision limit"
    );
    allocations
}

/// Asserts that a search of 100,000 nodes allocates at most one more time per 1,000 extra
/// nodes than a search of 1,000 nodes: room for buffers that grow with the deepest level
/// reached, none for an allocation per node.
fn assert_no_allocation_per_node(model: &Model, level: PropagationLevel, smallest_domain: bool) {
    let short = count_allocations(model, level, smallest_domain, SHORT);
    let long = count_allocations(model, level, smallest_domain, LONG);
    let allowed = ((LONG - SHORT) / 1_000) as usize;
    assert!(
        long <= short + allowed,
        "{short} allocations in {SHORT} nodes but {long} in {LONG} nodes \
         ({level:?}, smallest domain first: {smallest_domain})"
    );
}

#[test]
fn counting_queens_allocates_the_same_for_1000_and_100000_nodes() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let queens = Queens::new(13).unwrap();
    for level in [
        PropagationLevel::None,
        PropagationLevel::Forward,
        PropagationLevel::Full,
    ] {
        for smallest_domain in [false, true] {
            assert_no_allocation_per_node(queens.model(), level, smallest_domain);
        }
    }
}

#[test]
fn counting_wide_queens_allocates_the_same_for_1000_and_100000_nodes() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // 40 queens: the diagonals span 79 values, beyond the 64-value masks; at `Full`, Régin's
    // filtering by the propagator that keeps its buffers.
    let queens = Queens::new(40).unwrap();
    for level in [
        PropagationLevel::None,
        PropagationLevel::Forward,
        PropagationLevel::Full,
    ] {
        for smallest_domain in [false, true] {
            assert_no_allocation_per_node(queens.model(), level, smallest_domain);
        }
    }
}

#[test]
fn counting_sudoku_completions_allocates_the_same_for_1000_and_100000_nodes() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // An empty 9x9 grid: the count never ends, so both searches stop at their decision limit.
    let sudoku = Sudoku::new(&Grid::empty(3).unwrap()).unwrap();
    for level in [
        PropagationLevel::None,
        PropagationLevel::Forward,
        PropagationLevel::Full,
    ] {
        for smallest_domain in [false, true] {
            assert_no_allocation_per_node(sudoku.model(), level, smallest_domain);
        }
    }
}
