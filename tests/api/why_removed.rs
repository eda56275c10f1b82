//! "Why was this value removed?": every chain of [`RemovalReplay`] checked step by step on
//! Sudoku, N-Queens and random small models, against the search's own domains, and its
//! errors.

use std::collections::BTreeSet;

use cspkit::conformance::SplitMix64;
use cspkit::kernel::{Inference, propagate_alone, reason_implies};
use cspkit::models::queens::Queens;
use cspkit::models::sudoku::{Grid, Sudoku};
use cspkit::puzzle::{
    Premise, RemovalChain, RemovalReplay, WhyRemoved, WhyRemovedError, parse_literal, parse_path,
    why_removed,
};
use cspkit::teach::tree::SearchTree;
use cspkit::{
    AllDifferent, Comparison, Domain, Linear, Literal, Model, PropagationLevel, Table, VarId,
};

/// Puzzles with their source: the first of Gordon Royle's 17-clue collection, and the
/// "easy" example of Peter Norvig's "Solving Every Sudoku Puzzle" (both public).
const PUZZLES: [&str; 2] = [
    "000000010400000000020000000000050407008000300001090000300400200050100000000806000",
    "003020600900305001001806400008102900700000008006708200002609500800203009005010300",
];

fn domains_of(model: &Model) -> Vec<Domain> {
    model.variables().map(|v| model.domain(v).clone()).collect()
}

/// Whether `value` satisfies `literal`.
fn satisfies(literal: Literal, value: i32) -> bool {
    match literal {
        Literal::Eq(_, v) => value == v,
        Literal::Ne(_, v) => value != v,
        Literal::Ge(_, v) => value >= v,
        Literal::Le(_, v) => value <= v,
    }
}

/// The model's domains cut down to `literals`, then every constraint propagated alone at
/// `level` in rounds until none prunes; `None` on a conflict.
fn propagate_from(
    model: &Model,
    literals: &[Literal],
    level: PropagationLevel,
) -> Option<Vec<Domain>> {
    let mut domains = domains_of(model);
    for &literal in literals {
        let d = &mut domains[literal.var().index()];
        *d = Domain::from_values(d.iter().filter(|&v| satisfies(literal, v))).ok()?;
    }
    loop {
        let mut pruned = false;
        for (_, constraint) in model.constraints() {
            pruned |= propagate_alone(constraint, &mut domains, level).ok()?;
        }
        if !pruned {
            return Some(domains);
        }
    }
}

/// Checks one chain, independently of how it was built:
/// - each step's reason implies each of its removals (`reason_implies`);
/// - each fact of each reason holds in the model's domains cut down by the premises and the
///   steps before it (so the chain rests on its premises alone, in order);
/// - its last step (or a premise, for an empty chain) removes the value asked about;
/// - propagating from the premises alone removes it too.
fn check_chain(model: &Model, chain: &RemovalChain) {
    let initial = domains_of(model);
    let mut removed: BTreeSet<(VarId, i32)> = BTreeSet::new();
    for literal in chain.premise_literals() {
        let var = literal.var();
        removed.extend(
            initial[var.index()]
                .iter()
                .filter(|&v| !satisfies(literal, v))
                .map(|v| (var, v)),
        );
    }
    let holds = |removed: &BTreeSet<(VarId, i32)>, literal: Literal| {
        let var = literal.var();
        initial[var.index()]
            .iter()
            .filter(|&v| !satisfies(literal, v))
            .all(|v| removed.contains(&(var, v)))
    };
    for step in &chain.steps {
        let (_, constraint) = model
            .constraints()
            .find(|(id, _)| *id == step.constraint)
            .expect("a constraint of the model");
        for &(var, value) in &step.removed {
            assert!(
                reason_implies(
                    constraint,
                    &initial,
                    &step.reason,
                    Inference::Removed { var, value }
                ),
                "a reason that does not imply its removal: {}",
                step.describe(model)
            );
        }
        for &literal in &step.reason {
            assert!(
                holds(&removed, literal),
                "{} rests on a fact no premise or earlier step made true: {}",
                step.describe(model),
                literal
            );
        }
        removed.extend(step.removed.iter().copied());
    }
    assert!(
        removed.contains(&(chain.var, chain.value)),
        "the chain does not reach its removal: {:?}",
        chain.describe(model)
    );
    if let Some(last) = chain.steps.last() {
        assert!(last.removed.contains(&(chain.var, chain.value)));
    }
    let alone = propagate_from(model, &chain.premise_literals(), PropagationLevel::Full);
    if let Some(domains) = alone {
        assert!(
            !domains[chain.var.index()].contains(chain.value),
            "the premises alone do not remove it: {:?}",
            chain.describe(model)
        );
    }
}

/// Checks the chain of every value removed at the replay's node; how many.
fn check_every_removal(model: &Model, replay: &RemovalReplay<'_>) -> usize {
    let mut chains = 0;
    for var in model.variables() {
        for value in model.domain(var).iter() {
            match replay.why(var, value).unwrap() {
                WhyRemoved::Removed(chain) => {
                    check_chain(model, &chain);
                    chains += 1;
                }
                WhyRemoved::StillPossible { .. } => {
                    assert!(replay.domains()[var.index()].contains(value));
                }
                other => panic!("unexpected {other:?}"),
            }
        }
    }
    chains
}

#[test]
fn every_chain_on_sudoku_rests_on_givens_and_decisions_with_checked_reasons() {
    let empty = Sudoku::new(&Grid::empty(3).unwrap()).unwrap();
    let model = empty.model();
    for text in PUZZLES {
        let grid = Grid::parse_line(text, 1).unwrap();
        let givens: Vec<(VarId, i32)> = empty.givens(&grid).collect();
        let solution = Sudoku::new(&grid).unwrap().solve().unwrap();
        let mut replay = RemovalReplay::new(model, &givens, PropagationLevel::Full).unwrap();
        let mut chains = check_every_removal(model, &replay);
        // Two decisions of the solution's values, on the first open cells.
        for _ in 0..2 {
            let Some(var) = model
                .variables()
                .find(|v| !replay.domains()[v.index()].is_fixed())
            else {
                break;
            };
            let (row, col) = (var.index() / 9, var.index() % 9);
            let value = i32::from(solution.get(row, col));
            replay.decide(Literal::Eq(var, value)).unwrap();
            chains += check_every_removal(model, &replay);
        }
        assert!(chains > 500, "{chains}");
    }
}

#[test]
fn every_chain_on_n_queens_is_checked_at_every_node_of_a_path() {
    let queens = Queens::new(8).unwrap();
    let model = queens.model();
    let rows = queens.rows();
    let mut replay = RemovalReplay::new(model, &[], PropagationLevel::Full).unwrap();
    // A path with a refutation: row 1 ≠ 1, then row 2 = 4 (a solution: 2 4 6 8 3 1 7 5).
    for decision in [Literal::Ne(rows[0], 1), Literal::Eq(rows[1], 4)] {
        replay.decide(decision).unwrap();
        assert!(check_every_removal(model, &replay) > 0);
    }
}

/// A random small model with a planted solution: 3 to 5 variables over -1..=4, an
/// all-different over some, linear constraints and a table, each satisfied by the plant.
fn planted_model(random: &mut SplitMix64) -> (Model, Vec<VarId>, Vec<i32>) {
    let mut model = Model::new();
    let n = 3 + random.below(3) as usize;
    let vars: Vec<VarId> = (0..n)
        .map(|i| model.new_named_var(format!("v{i}"), -1..=4).unwrap())
        .collect();
    // Distinct values for the first three, so that an all-different over them holds.
    let mut plant: Vec<i32> = (0..n).map(|_| random.value_in(-1..=4)).collect();
    while plant[1] == plant[0] {
        plant[1] = (plant[1] + 2).rem_euclid(6) - 1;
    }
    while plant[2] == plant[0] || plant[2] == plant[1] {
        plant[2] = (plant[2] + 2).rem_euclid(6) - 1;
    }
    model
        .post_named("all different", AllDifferent::new(&vars[..3]))
        .unwrap();
    for k in 0..2 {
        let a = vars[random.below(n as u64) as usize];
        let b = vars[random.below(n as u64) as usize];
        if a == b {
            continue;
        }
        let (ca, cb) = (
            i64::from(random.value_in(1..=2)),
            -i64::from(random.value_in(1..=2)),
        );
        let total = ca * i64::from(plant[a.index()]) + cb * i64::from(plant[b.index()]);
        let (comparison, bound) = if random.chance(1, 2) {
            (Comparison::Le, total + i64::from(random.value_in(0..=1)))
        } else {
            (Comparison::Eq, total)
        };
        model
            .post_named(
                format!("linear {k}"),
                Linear::new(&[(ca, a), (cb, b)], comparison, bound),
            )
            .unwrap();
    }
    let (a, b) = (vars[n - 2], vars[n - 1]);
    let mut tuples = vec![[plant[a.index()], plant[b.index()]]];
    tuples.extend((0..4).map(|_| [random.value_in(-1..=4), random.value_in(-1..=4)]));
    model
        .post_named("table", Table::new(&[a, b], tuples).unwrap())
        .unwrap();
    (model, vars, plant)
}

#[test]
fn every_chain_on_random_small_models_is_checked() {
    let mut random = SplitMix64::new(4242);
    let (mut chains, mut with_decisions) = (0, 0);
    for _ in 0..300 {
        let (model, vars, plant) = planted_model(&mut random);
        for level in [PropagationLevel::Forward, PropagationLevel::Full] {
            let mut replay = RemovalReplay::new(&model, &[], level).unwrap();
            chains += check_every_removal(&model, &replay);
            // Decide the plant's values one by one: never a failure.
            for (&var, &value) in vars.iter().zip(&plant) {
                replay.decide(Literal::Eq(var, value)).unwrap();
                let found = check_every_removal(&model, &replay);
                chains += found;
                with_decisions += found;
            }
        }
    }
    assert!(
        chains > 1000 && with_decisions > 500,
        "{chains} {with_decisions}"
    );
}

#[test]
fn a_chain_of_one_given_disappears_without_that_given() {
    // An empty grid with one given: every value removed rests on that given alone.
    let empty = Sudoku::new(&Grid::empty(3).unwrap()).unwrap();
    let model = empty.model();
    let given = (empty.cell(4, 4), 7);
    let replay = RemovalReplay::new(model, &[given], PropagationLevel::Full).unwrap();
    let without = RemovalReplay::new(model, &[], PropagationLevel::Full).unwrap();
    let mut singletons = 0;
    for var in model.variables() {
        for value in 1..=9 {
            let WhyRemoved::Removed(chain) = replay.why(var, value).unwrap() else {
                continue;
            };
            assert_eq!(
                chain.premises,
                [Premise::Given {
                    index: 0,
                    var: given.0,
                    value: 7
                }]
            );
            singletons += 1;
            // Without the given, the value is back.
            assert!(matches!(
                without.why(var, value).unwrap(),
                WhyRemoved::StillPossible { .. }
            ));
        }
    }
    // r5c5's 8 other values, and 7 from the 20 cells that see it.
    assert_eq!(singletons, 8 + 20);
}

#[test]
fn single_premise_chains_on_random_models_fall_without_their_premise() {
    let mut random = SplitMix64::new(77);
    let mut checked = 0;
    for _ in 0..300 {
        let (model, vars, plant) = planted_model(&mut random);
        let root = RemovalReplay::new(&model, &[], PropagationLevel::Full).unwrap();
        let mut replay = root.clone();
        replay.decide(Literal::Eq(vars[0], plant[0])).unwrap();
        for var in model.variables() {
            for value in model.domain(var).iter() {
                let WhyRemoved::Removed(chain) = replay.why(var, value).unwrap() else {
                    continue;
                };
                if chain.premises.len() != 1 {
                    continue;
                }
                // Without its one premise, the chain's removal is not made: the root keeps
                // the value.
                let alone = propagate_from(&model, &[], PropagationLevel::Full).unwrap();
                assert!(
                    alone[var.index()].contains(value),
                    "{:?}",
                    chain.describe(&model)
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn the_replay_reaches_the_searchs_domains_at_every_node() {
    // The tree's domains (the engine's propagation) against the replay of each node's path.
    let queens = Queens::new(6).unwrap();
    let model = queens.model();
    let mut tree = SearchTree::new(model).with_domains(true);
    let _ = model.solver().with_observer(&mut tree).count();
    let nodes = tree.nodes();
    let mut compared = 0;
    for (id, node) in nodes.iter().enumerate() {
        if matches!(node.status, cspkit::teach::tree::NodeStatus::Failed { .. }) {
            continue;
        }
        let mut path = Vec::new();
        let mut at = id;
        while let Some(parent) = nodes[at].parent {
            let b = nodes[at].branch.unwrap();
            path.push(match b.kind {
                cspkit::BranchKind::Equal => Literal::Eq(b.var, b.value),
                cspkit::BranchKind::NotEqual => Literal::Ne(b.var, b.value),
                cspkit::BranchKind::AtMost => Literal::Le(b.var, b.value),
                cspkit::BranchKind::Above => Literal::Ge(b.var, b.value + 1),
            });
            at = parent as usize;
        }
        path.reverse();
        let mut replay = RemovalReplay::new(model, &[], PropagationLevel::Full).unwrap();
        for &d in &path {
            replay.decide(d).unwrap();
        }
        assert_eq!(
            replay.domains(),
            tree.domains_at(id as u64).as_slice(),
            "node {id}"
        );
        compared += 1;
    }
    assert!(compared > 5, "{compared}");
}

#[test]
fn a_value_still_there_or_never_there_is_said_so() {
    let empty = Sudoku::new(&Grid::empty(2).unwrap()).unwrap();
    let model = empty.model();
    let replay =
        RemovalReplay::new(model, &[(empty.cell(0, 0), 1)], PropagationLevel::Full).unwrap();
    let still = replay.why(empty.cell(3, 3), 1).unwrap();
    assert_eq!(
        still.describe(model),
        ["1 is still possible in r4c4 at this node"]
    );
    let never = replay.why(empty.cell(3, 3), 5).unwrap_err();
    assert!(matches!(
        never,
        WhyRemovedError::ValueNotInDomain { value: 5, .. }
    ));
    assert_eq!(
        never.to_string(),
        "5 is not in the initial domain of r4c4, {1..4}: it was never possible"
    );
}

#[test]
fn bad_questions_and_paths_are_named() {
    let empty = Sudoku::new(&Grid::empty(2).unwrap()).unwrap();
    let model = empty.model();
    assert!(matches!(
        parse_literal(model, "r9c9=1"),
        Err(WhyRemovedError::UnknownVariable { name }) if name == "r9c9"
    ));
    for text in ["r1c1", "=3", "r1c1=x", "r1c1=99999999999", "r1c1 ~ 3"] {
        assert!(
            matches!(
                parse_literal(model, text),
                Err(WhyRemovedError::Syntax { .. })
            ),
            "{text}"
        );
    }
    let a = empty.cell(0, 0);
    assert_eq!(
        parse_path(model, "r1c1=1, r1c2 != 2,r1c3<=3 ,r1c4>1").unwrap(),
        [
            Literal::Eq(a, 1),
            Literal::Ne(empty.cell(0, 1), 2),
            Literal::Le(empty.cell(0, 2), 3),
            Literal::Ge(empty.cell(0, 3), 2)
        ]
    );
    // A decision the node has no value for, and one whose propagation fails.
    let givens = [(a, 1)];
    let error = why_removed(
        model,
        &givens,
        &[Literal::Eq(empty.cell(0, 1), 1)],
        a,
        2,
        PropagationLevel::Full,
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "the path fails at decision 1 (r1c2 = 1): r1c2 is {2..4} here"
    );
    let mut replay = RemovalReplay::new(model, &givens, PropagationLevel::Full).unwrap();
    // r1c2 ≤ 1 leaves r1c2 no value.
    assert!(matches!(
        replay.decide(Literal::Le(empty.cell(0, 1), 1)),
        Err(WhyRemovedError::PathFails { position: 1, .. })
    ));
    // A decision whose propagation fails: x + y + z = 6 with x ≠ y and all three ≤ 2.
    let mut small = Model::new();
    let xyz = small.new_named_vars("v", 3, 1..=3).unwrap();
    small
        .post_named("v0 ≠ v1", AllDifferent::new(&xyz[..2]))
        .unwrap();
    small
        .post_named(
            "the sum",
            Linear::new(&[(1, xyz[0]), (1, xyz[1]), (1, xyz[2])], Comparison::Eq, 6),
        )
        .unwrap();
    let mut replay = RemovalReplay::new(&small, &[], PropagationLevel::Full).unwrap();
    replay.decide(Literal::Le(xyz[0], 2)).unwrap();
    replay.decide(Literal::Le(xyz[1], 2)).unwrap();
    let before = replay.domains().to_vec();
    let error = replay.decide(Literal::Le(xyz[2], 2)).unwrap_err();
    assert!(
        matches!(error, WhyRemovedError::PathFails { position: 3, .. }),
        "{error:?}"
    );
    assert!(error.to_string().contains("cannot hold"), "{error}");
    // A failed decision leaves the replay where it stood, and it goes on.
    assert_eq!(replay.domains(), before.as_slice());
    replay.decide(Literal::Eq(xyz[2], 3)).unwrap();
    // Two givens that clash.
    let clash = RemovalReplay::new(
        model,
        &[(a, 1), (empty.cell(0, 3), 1)],
        PropagationLevel::Full,
    );
    assert!(
        matches!(clash, Err(WhyRemovedError::GivensFail { .. })),
        "{clash:?}"
    );
}
