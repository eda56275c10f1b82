//! No allocation per search node: the number of allocations a search makes must not grow with
//! the number of nodes it visits.
//!
//! A counting global allocator (`stats_alloc`) counts every allocation. Each case runs the same
//! model and strategy twice, stopped by a decision limit of 1,000 and of 100,000, and compares the
//! counts. These are counts, not times: they are the same on every machine.
//!
//! Nor memory that grows with the nodes: a search that refutes value after value of a variable
//! with 2³² values, at one level, must hold as many bytes after 100,000 nodes as after 1,000
//! (the bytes allocated and not freed, counting what reallocated buffers grew).
//!
//! And no memory out of proportion to a FlatZinc model's text: every byte allocated while a
//! model holding a long array of integers is read, built and solved is counted (an upper bound
//! on what is held at any moment), and compared with the text's length.

use std::alloc::System;
use std::sync::Mutex;

use cspkit::flatzinc::{self, Options, Status};
use cspkit::models::queens::Queens;
use cspkit::models::sudoku::{Grid, Sudoku};
use cspkit::{Arithmetic, Limit, Model, PropagationLevel, SearchView, SmallestDomain, VarId};
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
fn counting_queens_on_the_board_model_allocates_the_same_for_1000_and_100000_nodes() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // 13 queens: the bitboard propagator of `NonAttacking`.
    let queens = Queens::non_attacking(13).unwrap();
    for level in [PropagationLevel::None, PropagationLevel::Forward] {
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

/// The bytes a search of `model` in input order, at `level`, with `value_order`, holds when it
/// runs into a limit of `nodes` decisions: allocated and not freed since it was created (the
/// counts include what reallocations grew or shrank by).
fn bytes_of_a_search(
    model: &Model,
    level: PropagationLevel,
    value_order: impl FnMut(VarId, &SearchView<'_>) -> i32,
    nodes: u64,
) -> i64 {
    let region = Region::new(GLOBAL);
    let mut solver = model
        .solver()
        .with_propagation(level)
        .with_value_order(value_order)
        .with_decision_limit(nodes);
    let stopped_by = solver.count().stopped_by;
    let change = region.change();
    assert_eq!(stopped_by, Some(Limit::Decisions));
    change.bytes_allocated as i64 - change.bytes_deallocated as i64
}

#[test]
fn refuting_values_of_a_wide_domain_at_one_level_holds_the_same_memory_for_1000_and_100000_nodes() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // `x` is decided first; then `y mod 3 = 1` and `y mod 3 = 2` reject every value of `y`, one
    // at a time, each refutation made at the level of `x = 0`.
    let mut model = Model::new();
    let x = model.new_var(0..=1).unwrap();
    let y = model.new_var(i32::MIN..=i32::MAX).unwrap();
    let three = model.new_var(3..=3).unwrap();
    for remainder in [1, 2] {
        let r = model.new_var(remainder..=remainder).unwrap();
        model.post(Arithmetic::modulo(y, three, r)).unwrap();
    }
    assert!(x.index() < y.index(), "x is decided first");
    // The smallest value first moves the bound; the largest value at most 0 first (as a
    // median would) makes a hole in the middle and widens it (without propagation, which
    // would keep y positive).
    let smallest = |var: VarId, view: &SearchView<'_>| view.domain(var).min().unwrap_or(0);
    let middle = |var: VarId, view: &SearchView<'_>| {
        let domain = view.domain(var);
        domain.below(1).or(domain.min()).unwrap_or(0)
    };
    let bytes = |level, middle_first: bool, nodes| {
        if middle_first {
            bytes_of_a_search(&model, level, middle, nodes)
        } else {
            bytes_of_a_search(&model, level, smallest, nodes)
        }
    };
    for (level, middle_first) in [
        (PropagationLevel::Full, false),
        (PropagationLevel::None, false),
        (PropagationLevel::None, true),
    ] {
        let (short, long) = (
            bytes(level, middle_first, SHORT),
            bytes(level, middle_first, LONG),
        );
        assert!(
            long <= short + 4096,
            "{short} bytes held after {SHORT} nodes but {long} after {LONG} \
             ({level:?}, middle value first: {middle_first})"
        );
    }
}

/// The bytes allocated while `work` runs, freed or not (a reallocation counts what it grew).
fn bytes_allocated_during<T>(work: impl FnOnce() -> T) -> (T, usize) {
    let region = Region::new(GLOBAL);
    let result = work();
    (result, region.change().bytes_allocated)
}

#[test]
fn a_flatzinc_array_of_integers_costs_a_small_multiple_of_its_text() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // 300,000 numbers of up to 8 digits, about 9 bytes each, one of which is 424242.
    let n = 300_000u64;
    let values: Vec<String> = (0..n)
        .map(|i| match i {
            299_998 => "424242".to_owned(),
            _ => ((i * 7_919 + 13) % 100_000_000).to_string(),
        })
        .collect();
    let text = format!(
        "array [1..{n}] of int: a = [{}];\nvar 1..{n}: i :: output_var;\nvar int: v;\n\
         constraint array_int_element(i, a, v);\nconstraint int_eq(v, 424242);\n\
         solve satisfy;\n",
        values.join(",")
    );
    drop(values);
    let (items, parse) = bytes_allocated_during(|| flatzinc::parse(&text).unwrap());
    let (model, build) = bytes_allocated_during(|| flatzinc::build(&items).unwrap());
    drop(items);
    let ((status, out), run) = bytes_allocated_during(|| {
        let mut out = Vec::new();
        let status = flatzinc::run(&model, &Options::default(), &mut out).unwrap();
        (status, out)
    });
    assert_eq!(status, Status::Solutions);
    assert_eq!(String::from_utf8(out).unwrap(), "i = 299999;\n----------\n");
    let size = text.len();
    for (phase, bytes) in [("parse", parse), ("build", build), ("run", run)] {
        assert!(
            bytes <= 2 * size,
            "{phase} allocated {bytes} bytes for a text of {size} bytes"
        );
    }
}
