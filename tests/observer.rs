//! The events of a search, checked against a trace worked out by hand.

use cspkit::{ConstraintId, EventRecorder, Model, NotEqual, PropagationLevel, SearchEvent, VarId};

/// 4-Queens: `q[i]` is the column (1..=4) of the queen in row `i`. For each pair of rows
/// `i < j`, three constraints are posted in this order: `q[i] ≠ q[j]`, `q[i] ≠ q[j] + (j − i)`,
/// `q[i] ≠ q[j] − (j − i)`. So constraint `3·p + k` is kind `k` of the `p`-th pair, the pairs
/// being (0,1), (0,2), (0,3), (1,2), (1,3), (2,3).
fn four_queens() -> (Model, Vec<VarId>, Vec<ConstraintId>) {
    let mut model = Model::new();
    let q = model.new_vars(4, 1..=4).unwrap();
    let mut ids = Vec::new();
    for i in 0..4 {
        for j in i + 1..4 {
            let d = (j - i) as i32;
            ids.push(model.post(NotEqual::new(q[i], q[j])).unwrap());
            ids.push(model.post(NotEqual::with_offset(q[i], q[j], d)).unwrap());
            ids.push(model.post(NotEqual::with_offset(q[i], q[j], -d)).unwrap());
        }
    }
    (model, q, ids)
}

#[test]
fn plain_backtracking_on_four_queens_follows_the_hand_worked_trace() {
    let (model, q, ids) = four_queens();
    let mut recorder = EventRecorder::default();
    let mut solver = model
        .solver()
        .with_propagation(PropagationLevel::None)
        .with_observer(&mut recorder);
    let solution = solver
        .next_solution()
        .solution()
        .expect("4-Queens has solutions");
    let stats = solver.stats();
    drop(solver);

    let d = |row: usize, col: i32, depth| SearchEvent::Decision {
        var: q[row],
        value: col,
        depth,
    };
    let b = |row: usize, col: i32, depth| SearchEvent::Backtrack {
        var: q[row],
        value: col,
        depth,
    };
    let f = |c: usize, depth| SearchEvent::Failure {
        constraint: Some(ids[c]),
        depth,
    };
    // With None, a constraint is checked when its second variable is fixed; after each decision
    // the constraints of the decided variable run in posting order, and the first violated one
    // is the failure. A refutation that leaves one value fixes the variable, which is checked
    // the same way one level up.
    #[rustfmt::skip]
    let expected = vec![
        d(0, 1, 1),
        d(1, 1, 2), f(0, 2), b(1, 1, 2),              // same column as row 0
        d(1, 2, 2), f(2, 2), b(1, 2, 2),              // diagonal with row 0
        d(1, 3, 2),
        d(2, 1, 3), f(3, 3), b(2, 1, 3),              // column of row 0
        d(2, 2, 3), f(10, 3), b(2, 2, 3),             // diagonal with row 1
        d(2, 3, 3), f(5, 3), b(2, 3, 3),              // diagonal with row 0
        f(11, 2),                                     // q2 = 4 by refutation: diagonal with row 1
        b(1, 3, 2),                                   // q1 = 4 by refutation
        d(2, 1, 2), f(3, 2), b(2, 1, 2),
        d(2, 2, 2),
        d(3, 1, 3), f(6, 3), b(3, 1, 3),
        d(3, 2, 3), f(13, 3), b(3, 2, 3),
        d(3, 3, 3), f(17, 3), b(3, 3, 3),
        f(8, 2),                                      // q3 = 4 by refutation: diagonal with row 0
        b(2, 2, 2),
        d(2, 3, 2), f(5, 2), b(2, 3, 2),
        f(9, 1),                                      // q2 = 4 by refutation: column of row 1
        b(0, 1, 1),                                   // no placement with q0 = 1
        d(0, 2, 1),
        d(1, 1, 2), f(1, 2), b(1, 1, 2),
        d(1, 2, 2), f(0, 2), b(1, 2, 2),
        d(1, 3, 2), f(2, 2), b(1, 3, 2),              // q1 = 4 by refutation, consistent
        d(2, 1, 2),
        d(3, 1, 3), f(15, 3), b(3, 1, 3),
        d(3, 2, 3), f(6, 3), b(3, 2, 3),
        d(3, 3, 3),
        SearchEvent::Solution { depth: 3 },
    ];
    assert_eq!(recorder.events(), expected.as_slice());
    assert_eq!(solution.values(), [2, 4, 1, 3]);

    // The statistics count the same events.
    let count = |pred: fn(&SearchEvent) -> bool| expected.iter().filter(|e| pred(e)).count() as u64;
    assert_eq!(
        stats.nodes,
        count(|e| matches!(e, SearchEvent::Decision { .. }))
    );
    assert_eq!(
        stats.failures,
        count(|e| matches!(e, SearchEvent::Failure { .. }))
    );
    assert_eq!(
        stats.backtracks,
        count(|e| matches!(e, SearchEvent::Backtrack { .. }))
    );
    assert_eq!(stats.solutions, 1);
    assert_eq!(stats.max_depth, 3);
}

#[test]
fn forward_checking_visits_fewer_nodes_than_plain_backtracking_on_four_queens() {
    let (model, _, _) = four_queens();
    let nodes = |level| {
        let mut solver = model.solver().with_propagation(level);
        assert_eq!(solver.count().solutions, 2, "4-Queens has 2 solutions");
        solver.stats().nodes
    };
    let none = nodes(PropagationLevel::None);
    let forward = nodes(PropagationLevel::Forward);
    let full = nodes(PropagationLevel::Full);
    assert!(forward < none, "forward {forward} vs none {none}");
    assert!(full <= forward);
}
