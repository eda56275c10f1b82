//! [`NonAttacking`], the N-Queens rule as one model-level constraint: checked by the
//! conformance kit, and searched node for node against the three all-different constraints of
//! [`Queens::new`], whose forward checking prunes the same values.

use cspkit::conformance::ConformanceTest;
use cspkit::models::queens::{NonAttacking, Queens, is_valid_placement};
use cspkit::{PropagationLevel, SearchStats, SmallestDomain, Solver};

/// Every solution of `queens`, in the order the search finds them, and its statistics.
fn listed(mut solver: Solver<'_, impl cspkit::VariableOrder>) -> (Vec<Vec<i32>>, SearchStats) {
    let mut solutions = Vec::new();
    while let cspkit::Outcome::Solved(solution) = solver.next_solution() {
        solutions.push(solution.values().to_vec());
    }
    (solutions, solver.stats())
}

#[test]
fn the_kit_finds_it_sound_complete_and_exactly_restored() {
    // Values start below 1 and rows repeat, unlike any board: the reference and the bitboard
    // propagator (every scope here fits its words) must agree on any case.
    let report = ConformanceTest::new(5, -2..=6, NonAttacking::new)
        .repeated_variables()
        .cases(300)
        .assert_conforms();
    let forward = report.level(PropagationLevel::Forward);
    assert!(forward.pruned > 0 && forward.conflicts > 0, "{forward:?}");
}

#[test]
fn it_searches_as_the_three_all_different_constraints_do_at_forward_checking() {
    for n in 1..=10 {
        for level in [PropagationLevel::None, PropagationLevel::Forward] {
            let (board, alldiff) = (Queens::non_attacking(n).unwrap(), Queens::new(n).unwrap());
            let (found, stats) = listed(board.model().solver().with_propagation(level));
            let (expected, expected_stats) =
                listed(alldiff.model().solver().with_propagation(level));
            assert_eq!(found, expected, "n = {n} at {level:?}");
            assert_eq!(
                (stats.decisions, stats.failures),
                (expected_stats.decisions, expected_stats.failures),
                "n = {n} at {level:?}"
            );
            for solution in &found {
                let columns: Vec<usize> = solution.iter().map(|&c| c as usize).collect();
                assert!(is_valid_placement(&columns));
            }
        }
    }
}

#[test]
fn boards_on_both_sides_of_32_columns_find_the_same_placement_as_the_all_different_model() {
    // Up to 32 the bitboard propagator runs, above it the reference. Smallest domain first
    // follows the pruning closely: the same domains give the same choices, so the same first
    // placement after the same decisions.
    for n in [31, 32, 33, 40] {
        let first = |queens: &Queens| {
            let mut solver = queens
                .model()
                .solver()
                .with_variable_order(SmallestDomain)
                .with_propagation(PropagationLevel::Forward);
            let solution = solver.next_solution().solution();
            (
                solution.map(|s| s.values().to_vec()),
                solver.stats().decisions,
            )
        };
        let board = first(&Queens::non_attacking(n).unwrap());
        assert_eq!(board, first(&Queens::new(n).unwrap()), "n = {n}");
        assert!(board.0.is_some());
    }
}
