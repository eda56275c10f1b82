//! The built-in propagators with state against their stateless reference, on models large enough
//! for long chains of fixings and deep backtracking: N-Queens (narrow and wide domains) and Sudoku.
//! The search must be the same node for node: same solutions in the same order, same number of
//! nodes, failures and backtracks. `AllDifferent` has propagators at `None` and `Forward`, and at
//! `Full` on values wider than a 64-value window (the wide N-Queens below); on narrower values
//! it runs its stateless Régin filtering either way.

use crate::common;

use common::{BAEKJOON_2239, LEVELS, Stateless};
use cspkit::{
    AllDifferent, InputOrder, Model, PropagationLevel, SmallestDomain, VarId, VariableOrder,
};

/// `n` queens with columns and diagonal offsets multiplied by `scale` (above 6 the values no
/// longer fit a 64-value window), with the stateful constraints or their stateless reference.
fn queens(n: i32, scale: i32, stateful: bool) -> Model {
    let mut model = Model::new();
    let columns: Vec<i32> = (0..n).map(|c| c * scale).collect();
    let rows: Vec<VarId> = (0..n)
        .map(|_| model.new_var(columns.clone()).unwrap())
        .collect();
    let up: Vec<i32> = (0..n).map(|i| i * scale).collect();
    let down: Vec<i32> = (0..n).map(|i| -i * scale).collect();
    let constraints = [
        AllDifferent::new(&rows),
        AllDifferent::with_offsets(&rows, &up).unwrap(),
        AllDifferent::with_offsets(&rows, &down).unwrap(),
    ];
    for constraint in constraints {
        if stateful {
            model.post(constraint).unwrap();
        } else {
            model.post(Stateless(constraint)).unwrap();
        }
    }
    model
}

/// A 9x9 Sudoku from its 81 digits (0 for an empty cell).
fn sudoku(digits: &str, stateful: bool) -> Model {
    let mut model = Model::new();
    let cells: Vec<VarId> = digits
        .chars()
        .filter(char::is_ascii_digit)
        .map(|c| match c.to_digit(10).unwrap() {
            0 => model.new_var(1..=9).unwrap(),
            d => model.new_var([d as i32]).unwrap(),
        })
        .collect();
    assert_eq!(cells.len(), 81);
    let mut groups: Vec<Vec<VarId>> = Vec::new();
    for i in 0..9 {
        groups.push((0..9).map(|j| cells[9 * i + j]).collect());
        groups.push((0..9).map(|j| cells[9 * j + i]).collect());
        groups.push(
            (0..9)
                .map(|j| cells[9 * (3 * (i / 3) + j / 3) + 3 * (i % 3) + j % 3])
                .collect(),
        );
    }
    for group in groups {
        if stateful {
            model.post(AllDifferent::new(&group)).unwrap();
        } else {
            model.post(Stateless(AllDifferent::new(&group))).unwrap();
        }
    }
    model
}

/// The solutions (up to `max`) in the order found, and the nodes, failures and backtracks.
fn record(model: &Model, level: PropagationLevel, smallest: bool, max: usize) -> String {
    let order: Box<dyn VariableOrder> = if smallest {
        Box::new(SmallestDomain)
    } else {
        Box::new(InputOrder)
    };
    let mut solver = model
        .solver()
        .with_propagation(level)
        .with_variable_order(order);
    let solutions: Vec<Vec<i32>> = solver
        .solutions()
        .take(max)
        .map(|s| s.values().to_vec())
        .collect();
    let stats = solver.stats();
    format!(
        "{} solutions, first {:?}, last {:?}; nodes {}, failures {}, backtracks {}",
        solutions.len(),
        solutions.first(),
        solutions.last(),
        stats.decisions,
        stats.failures,
        stats.backtracks
    )
}

#[test]
fn queens_search_node_for_node_as_the_stateless_reference() {
    for n in 4..=9 {
        for scale in [1, 40] {
            for level in LEVELS {
                for smallest in [false, true] {
                    let stateful = record(&queens(n, scale, true), level, smallest, usize::MAX);
                    let reference = record(&queens(n, scale, false), level, smallest, usize::MAX);
                    assert_eq!(stateful, reference, "{n} queens, scale {scale}, {level:?}");
                }
            }
        }
    }
}

#[test]
fn first_placements_of_larger_boards_are_found_as_by_the_reference() {
    // Input order where the first placement is cheap; smallest domain first beyond 32 queens,
    // where the diagonals no longer fit 64 values.
    for (n, smallest) in [(20, false), (25, false), (33, true), (40, true), (64, true)] {
        for level in [PropagationLevel::Forward, PropagationLevel::Full] {
            let stateful = record(&queens(n, 1, true), level, smallest, 1);
            let reference = record(&queens(n, 1, false), level, smallest, 1);
            assert_eq!(stateful, reference, "{n} queens, {level:?}");
        }
    }
}

#[test]
fn sudoku_searches_node_for_node_as_the_stateless_reference() {
    // The Baekjoon sample, the same grid with the givens of its first rows removed (several
    // solutions), and an empty grid (the first solutions of a huge tree).
    let sample: String = BAEKJOON_2239.chars().filter(char::is_ascii_digit).collect();
    let sparse = format!("{}{}", "0".repeat(27), &sample[27..]);
    let empty = "0".repeat(81);
    for grid in [&sample, &sparse, &empty] {
        // Plain backtracking would take too long on the grids with empty rows.
        let levels = if grid == &sample {
            &LEVELS[..]
        } else {
            &LEVELS[1..]
        };
        for &level in levels {
            for smallest in [false, true] {
                let stateful = record(&sudoku(grid, true), level, smallest, 50);
                let reference = record(&sudoku(grid, false), level, smallest, 50);
                assert_eq!(stateful, reference, "{grid}, {level:?}");
            }
        }
    }
}
