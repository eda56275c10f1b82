//! The events of a search, checked against a trace worked out by hand, and the full event
//! stream ([`Event`]) checked against the summaries and against the tree it must describe.
#![allow(
    deprecated,
    reason = "checks that the deprecated per-event methods and `EventRecorder` still work"
)]

use cspkit::{
    BranchKind, ConstraintId, Domain, Event, EventRecorder, Model, NotEqual, PropagationLevel,
    SearchEvent, SearchObserver, SearchStats, VarId,
};

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
        stats.decisions,
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
        solver.stats().decisions
    };
    let none = nodes(PropagationLevel::None);
    let forward = nodes(PropagationLevel::Forward);
    let full = nodes(PropagationLevel::Full);
    assert!(forward < none, "forward {forward} vs none {none}");
    assert!(full <= forward);
}

/// Keeps the full event stream, owning copies of the domains, and the summaries beside it.
#[derive(Default)]
struct Stream {
    summaries: EventRecorder,
    events: Vec<Owned>,
    propagation: bool,
}

#[derive(Debug, Clone, PartialEq)]
enum Owned {
    Node {
        node: u64,
        parent: u64,
        var: VarId,
        value: i32,
        kind: BranchKind,
        depth: usize,
    },
    Pruned {
        node: u64,
        var: VarId,
        before: Domain,
        after: Domain,
        constraint: ConstraintId,
    },
    Failure {
        node: u64,
        constraint: Option<ConstraintId>,
        var: Option<VarId>,
        depth: usize,
    },
    Solution {
        node: u64,
        depth: usize,
    },
    Propagated {
        node: u64,
        domains: Vec<Domain>,
    },
}

impl SearchObserver for Stream {
    fn decision(&mut self, var: VarId, value: i32, depth: usize) {
        self.summaries.decision(var, value, depth);
    }
    fn failure(&mut self, constraint: Option<ConstraintId>, depth: usize) {
        self.summaries.failure(constraint, depth);
    }
    fn backtrack(&mut self, var: VarId, value: i32, depth: usize) {
        self.summaries.backtrack(var, value, depth);
    }
    fn solution(&mut self, depth: usize) {
        self.summaries.solution(depth);
    }
    fn event(&mut self, event: &Event<'_>) {
        self.events.push(match *event {
            Event::Node {
                node,
                parent,
                var,
                value,
                kind,
                depth,
            } => Owned::Node {
                node,
                parent,
                var,
                value,
                kind,
                depth,
            },
            Event::Pruned {
                node,
                var,
                before,
                after,
                constraint,
            } => Owned::Pruned {
                node,
                var,
                before: before.clone(),
                after: after.clone(),
                constraint,
            },
            Event::Failure {
                node,
                constraint,
                var,
                depth,
            } => Owned::Failure {
                node,
                constraint,
                var,
                depth,
            },
            Event::Solution { node, depth } => Owned::Solution { node, depth },
            Event::Propagated { node, domains } => Owned::Propagated {
                node,
                domains: domains.to_vec(),
            },
            _ => unreachable!("an event this test does not know"),
        });
    }
    fn observes_propagation(&self) -> bool {
        self.propagation
    }
}

/// The full stream of a search, at `level`, all solutions.
fn stream(model: &Model, level: PropagationLevel, propagation: bool) -> (Stream, SearchStats) {
    let mut stream = Stream {
        propagation,
        ..Stream::default()
    };
    let mut solver = model
        .solver()
        .with_propagation(level)
        .with_observer(&mut stream);
    solver.count();
    let stats = solver.stats();
    drop(solver);
    (stream, stats)
}

#[test]
fn the_full_stream_agrees_with_the_summaries_event_for_event() {
    let (model, _, _) = four_queens();
    for level in [
        PropagationLevel::None,
        PropagationLevel::Forward,
        PropagationLevel::Full,
    ] {
        let (stream, stats) = stream(&model, level, false);
        // The summaries, rebuilt from the full stream alone.
        let rebuilt: Vec<SearchEvent> = stream
            .events
            .iter()
            .scan(Vec::new(), |path: &mut Vec<(VarId, i32)>, event| {
                Some(match *event {
                    Owned::Node {
                        var,
                        value,
                        kind: BranchKind::Equal,
                        depth,
                        ..
                    } => {
                        path.truncate(depth - 1);
                        path.push((var, value));
                        vec![SearchEvent::Decision { var, value, depth }]
                    }
                    Owned::Node {
                        var,
                        value,
                        kind: BranchKind::NotEqual,
                        depth,
                        ..
                    } => {
                        path.truncate(depth);
                        vec![SearchEvent::Backtrack {
                            var,
                            value,
                            depth: depth + 1,
                        }]
                    }
                    Owned::Failure {
                        constraint, depth, ..
                    } => vec![SearchEvent::Failure { constraint, depth }],
                    Owned::Solution { depth, .. } => vec![SearchEvent::Solution { depth }],
                    ref other => panic!("unexpected {other:?}"),
                })
            })
            .flatten()
            .collect();
        assert_eq!(rebuilt, stream.summaries.events(), "{level:?}");
        let nodes = stream
            .events
            .iter()
            .filter(|e| matches!(e, Owned::Node { .. }))
            .count() as u64;
        assert_eq!(nodes, stats.decisions + stats.refutations, "{level:?}");
        assert_eq!(nodes + 1, stats.tree_nodes(), "{level:?}");
    }
}

#[test]
fn node_ids_rebuild_a_tree_whose_leaves_are_the_failures_and_solutions() {
    let (model, _, _) = four_queens();
    for level in [PropagationLevel::None, PropagationLevel::Forward] {
        let (stream, stats) = stream(&model, level, false);
        // parent[n] for every node, the root (0) included; ids come in order 1, 2, 3, ...
        let mut parent = vec![None];
        let mut depth_of = vec![0usize];
        let mut current = 0u64;
        let mut leaves = 0;
        for event in &stream.events {
            match *event {
                Owned::Node {
                    node,
                    parent: p,
                    kind,
                    depth,
                    ..
                } => {
                    assert_eq!(node as usize, parent.len(), "ids are consecutive");
                    assert!(p < node, "a parent comes before its children");
                    // A left branch adds a decision to its parent's path; a right one does not.
                    let expected = depth_of[p as usize] + usize::from(kind == BranchKind::Equal);
                    assert_eq!(depth, expected, "node {node}");
                    parent.push(Some(p));
                    depth_of.push(depth);
                    current = node;
                }
                Owned::Failure { node, .. } | Owned::Solution { node, .. } => {
                    assert_eq!(node, current, "a verdict is about the current node");
                    leaves += 1;
                }
                Owned::Pruned { .. } | Owned::Propagated { .. } => unreachable!("not asked for"),
            }
        }
        assert_eq!(leaves, stats.failures + stats.solutions, "{level:?}");
        // Every inner node has exactly two children (binary branching), and the tree is whole.
        let mut children = vec![0; parent.len()];
        for p in parent.iter().flatten() {
            children[*p as usize] += 1;
        }
        assert!(children.iter().all(|&c| c == 0 || c == 2), "{children:?}");
    }
}

#[test]
fn prunings_name_their_constraint_and_narrow_the_domain_they_report() {
    let (model, q, _) = four_queens();
    let (stream, _) = stream(&model, PropagationLevel::Forward, true);
    let (silent, _) = stream_without_prunings(&model);
    // The same search: only the prunings are added.
    let without: Vec<Owned> = stream
        .events
        .iter()
        .filter(|e| !matches!(e, Owned::Pruned { .. } | Owned::Propagated { .. }))
        .cloned()
        .collect();
    assert_eq!(without, silent.events);

    let mut fixed_by_propagation = 0;
    for event in &stream.events {
        if let Owned::Pruned {
            var,
            before,
            after,
            constraint,
            ..
        } = event
        {
            assert!(after.size() < before.size(), "{before} -> {after}");
            assert!(after.iter().all(|v| before.contains(v)));
            let (_, posted) = model
                .constraints()
                .find(|(id, _)| id == constraint)
                .expect("a constraint of the model");
            assert!(posted.scope().contains(var));
            fixed_by_propagation += usize::from(after.is_fixed());
        }
    }
    // On 4-Queens, forward checking fixes rows by propagation: after q0 = 2, rows 1..3 are
    // narrowed, and q1 = 4 leaves row 2 one value.
    assert!(fixed_by_propagation > 0);
    // A wiped-out domain is named in the failure that follows it: on the all-different model of
    // 4-Queens, forward checking empties rows.
    for stream in [&stream, &stream_of_queens(4)] {
        for (i, event) in stream.events.iter().enumerate() {
            if let Owned::Pruned { var, after, .. } = event
                && after.is_empty()
            {
                assert!(
                    matches!(&stream.events[i + 1], Owned::Failure { var: Some(failed), .. } if failed == var),
                    "{:?}",
                    &stream.events[i..i + 2]
                );
            }
        }
    }
    // x < y with x in 5..=9 and y in 0..=3: the bound x <= 2 empties x at the root (a
    // propagator may also report a conflict without emptying anything: `var` is then `None`).
    let mut sum = Model::new();
    let x = sum.new_var(5..=9).unwrap();
    let y = sum.new_var(0..=3).unwrap();
    let c = sum
        .post(cspkit::Relation::new(x, cspkit::Comparison::Lt, y))
        .unwrap();
    let (root, _) = stream_at(&sum, PropagationLevel::Full);
    assert_eq!(
        root.events.last(),
        Some(&Owned::Failure {
            node: 0,
            constraint: Some(c),
            var: Some(x),
            depth: 0
        })
    );
    // Replayed from the root, the branches and the prunings give every node's domains.
    replay(&stream.events, 4);
    replay(&stream_of_queens(5).events, 5);
    // Root propagation at forward checking prunes nothing on an empty board.
    assert!(
        !stream
            .events
            .iter()
            .any(|e| matches!(e, Owned::Pruned { node: 0, .. }))
    );
    assert_eq!(q.len(), 4);
}

fn stream_without_prunings(model: &Model) -> (Stream, SearchStats) {
    stream(model, PropagationLevel::Forward, false)
}

fn stream_of_queens(n: usize) -> Stream {
    let queens = cspkit::models::queens::Queens::new(n).unwrap();
    stream(queens.model(), PropagationLevel::Forward, true).0
}

fn stream_at(model: &Model, level: PropagationLevel) -> (Stream, SearchStats) {
    stream(model, level, true)
}

/// Replays a stream: each node starts from its parent's propagated domains with its branch
/// applied, each pruning must start from the domain replayed so far, and each `Propagated`
/// event must show exactly the replayed domains.
fn replay(events: &[Owned], n: i32) {
    let mut at: Vec<Vec<Domain>> = vec![vec![Domain::range(1, n).unwrap(); n as usize]];
    let mut state = at[0].clone();
    let mut checked = 0;
    for event in events {
        match event {
            Owned::Node {
                node,
                parent,
                var,
                value,
                kind,
                ..
            } => {
                state = at[*parent as usize].clone();
                let domain = &state[var.index()];
                let kept: Vec<i32> = domain
                    .iter()
                    .filter(|&v| match kind {
                        BranchKind::Equal => v == *value,
                        BranchKind::NotEqual => v != *value,
                        BranchKind::AtMost => v <= *value,
                        BranchKind::Above => v > *value,
                    })
                    .collect();
                state[var.index()] = Domain::from_values(kept).unwrap_or(domain.clone());
                assert_eq!(*node as usize, at.len());
                at.push(state.clone());
            }
            Owned::Pruned {
                var, before, after, ..
            } => {
                assert_eq!(&state[var.index()], before);
                state[var.index()] = after.clone();
            }
            Owned::Propagated { node, domains } => {
                assert_eq!(domains, &state, "node {node}");
                at[*node as usize] = state.clone();
                checked += 1;
            }
            Owned::Failure { .. } | Owned::Solution { .. } => {}
        }
    }
    assert!(checked > 3);
}

#[test]
#[allow(
    deprecated,
    reason = "checks that the deprecated `with_textbook_forward_checking` still works"
)]
fn a_d_way_tree_has_one_child_per_value_tried_and_its_leaves_are_the_verdicts() {
    let (model, _, _) = four_queens();
    for textbook in [false, true] {
        let mut events = Stream::default();
        let mut solver = model
            .solver()
            .with_branching(cspkit::Branching::DWay)
            .with_propagation(PropagationLevel::None)
            .with_textbook_forward_checking(textbook)
            .with_observer(&mut events);
        solver.count();
        let stats = solver.stats();
        drop(solver);
        let mut depth_of = vec![0usize];
        let mut children: Vec<Vec<i32>> = vec![Vec::new()];
        let mut verdicts = 0;
        for event in &events.events {
            match event {
                Owned::Node {
                    node,
                    parent,
                    value,
                    kind,
                    depth,
                    ..
                } => {
                    assert_eq!(*kind, BranchKind::Equal, "d-way has no ≠ branch");
                    assert_eq!(*node as usize, depth_of.len());
                    assert_eq!(*depth, depth_of[*parent as usize] + 1);
                    depth_of.push(*depth);
                    children.push(Vec::new());
                    children[*parent as usize].push(*value);
                }
                Owned::Failure { .. } | Owned::Solution { .. } => verdicts += 1,
                Owned::Pruned { .. } | Owned::Propagated { .. } => {}
            }
        }
        assert_eq!(depth_of.len() as u64 - 1, stats.decisions);
        // Siblings take distinct values, in ascending order (the default value order).
        for values in &children {
            assert!(values.windows(2).all(|w| w[0] < w[1]), "{values:?}");
        }
        // The leaves are the verdicts: a node fails or succeeds before it has children.
        let leaves = children.iter().skip(1).filter(|c| c.is_empty()).count() as u64;
        assert_eq!(leaves, verdicts);
        assert_eq!(verdicts, stats.failures + stats.solutions);
    }
}

#[test]
#[allow(
    deprecated,
    reason = "checks that the deprecated `with_textbook_forward_checking` still works"
)]
fn a_textbook_stream_replays_from_the_root_like_any_other() {
    let queens = cspkit::models::queens::Queens::new(5).unwrap();
    for branching in [cspkit::Branching::DWay, cspkit::Branching::Assign] {
        let mut recorded = Stream {
            propagation: true,
            ..Stream::default()
        };
        let mut solver = queens
            .model()
            .solver()
            .with_branching(branching)
            .with_textbook_forward_checking(true)
            .with_observer(&mut recorded);
        solver.count();
        drop(solver);
        replay(&recorded.events, 5);
    }
}
