//! The reasons of every built-in constraint the FlatZinc solver posts, fuzzed: on random small
//! domains, each value no assignment of the constraint supports (found by brute force over its
//! scope) and each failure is asked for a reason; the reason's literals must hold in the
//! domains, must imply the inference again (`reason_implies`), and none of them may be
//! dropped. A constraint that gives no reason must be one whose own propagation cannot draw
//! the inference from the scope's domains either (then `scope_reason` does not imply it).

use super::reasons::assignments;
use cspkit::kernel::{ExplainContext, Inference, Literal, reason_implies, scope_reason};
use cspkit::{
    Among, Arithmetic, Circuit, Comparison, Constraint, Cumulative, Dfa, Disjunctive, Distance,
    Domain, Element, Extremum, GlobalCardinality, Inverse, LexLessEq, Linear, Member, Model,
    NotEqual, Operation, Product, Regular, Reified, ReifiedEquality, Relation, Subcircuit, VarId,
};
use proptest::prelude::*;

/// What [`check`] saw: how many inferences got a reason of the constraint's own, and how many
/// were left to the fallback.
#[derive(Debug, Default)]
struct Tally {
    explained: usize,
    fallback: usize,
}

/// Checks the reason of `inference` (true on the domains `current`) for `constraint`.
fn check_one(
    constraint: &dyn Constraint,
    initial: &[Domain],
    current: &[Domain],
    inference: Inference,
    minimal: bool,
    tally: &mut Tally,
) {
    let ctx = ExplainContext::new(initial, current);
    let Some(reason) = constraint.explain(inference, &ctx) else {
        // No reason of its own: then the constraint's propagation cannot draw it from the
        // scope's domains either.
        let fallback = scope_reason(constraint, &ctx);
        assert!(
            !reason_implies(constraint, initial, &fallback, inference),
            "{}: no reason for {inference:?} on {current:?}, yet {fallback:?} implies it",
            constraint.name()
        );
        tally.fallback += 1;
        return;
    };
    for literal in &reason {
        assert!(
            literal.holds_in(&current[literal.var().index()]),
            "{}: {literal} of {reason:?} does not hold in {current:?}",
            constraint.name()
        );
    }
    assert!(
        reason_implies(constraint, initial, &reason, inference),
        "{}: {reason:?} does not imply {inference:?} on {current:?}",
        constraint.name()
    );
    // Whole variables are dropped from every reason: none of those left may go. (Linear's
    // bounds reasons are not cut down: on a model that cannot hold from the start, they may
    // cite a bound the model's domains already imply.)
    let mut vars: Vec<VarId> = reason.iter().map(|l| l.var()).collect();
    vars.dedup();
    if constraint.name() == "Linear" {
        vars.clear();
    }
    for var in vars {
        let without: Vec<Literal> = reason.iter().copied().filter(|l| l.var() != var).collect();
        assert!(
            !reason_implies(constraint, initial, &without, inference),
            "{}: {reason:?} for {inference:?} on {current:?} does not need {var}: {without:?} does",
            constraint.name()
        );
    }
    if minimal {
        for i in 0..reason.len() {
            let mut smaller = reason.clone();
            smaller.remove(i);
            assert!(
                !reason_implies(constraint, initial, &smaller, inference),
                "{}: {reason:?} for {inference:?} on {current:?} is not minimal: {smaller:?} does",
                constraint.name()
            );
        }
    }
    tally.explained += 1;
}

/// Checks every reason `constraint` (posted on `model`, whose variables are its scope's) owes
/// on the domains `now` (one list of values per variable of the model), against brute force.
/// `minimal`: every literal of a reason must be needed (else only every variable).
fn check(model: &Model, constraint: &dyn Constraint, now: &[Vec<i32>], minimal: bool) -> Tally {
    let initial: Vec<Domain> = model.variables().map(|v| model.domain(v).clone()).collect();
    let current: Vec<Domain> = now
        .iter()
        .map(|values| Domain::from_values(values.iter().copied()).unwrap())
        .collect();
    let scope: Vec<VarId> = constraint.scope().to_vec();
    let solutions: Vec<Vec<i32>> = assignments(now)
        .into_iter()
        .filter(|a| {
            let values: Vec<i32> = scope.iter().map(|v| a[v.index()]).collect();
            constraint.check(&values)
        })
        .collect();
    let mut tally = Tally::default();
    if solutions.is_empty() {
        let failed = Inference::Failed;
        check_one(constraint, &initial, &current, failed, minimal, &mut tally);
        return tally;
    }
    for var in model.variables() {
        for &value in &now[var.index()] {
            if solutions.iter().any(|s| s[var.index()] == value) {
                continue;
            }
            let removed = Inference::Removed { var, value };
            check_one(constraint, &initial, &current, removed, minimal, &mut tally);
        }
    }
    tally
}

/// A model of one variable per range, and random non-empty subsets of them (the domains the
/// constraint sees).
fn within(ranges: Vec<(i32, i32)>) -> impl Strategy<Value = Vec<Vec<i32>>> {
    ranges
        .into_iter()
        .map(|(low, high)| {
            let size = (high - low + 1) as usize;
            prop::collection::btree_set(low..=high, 1..=size)
                .prop_map(|s| s.into_iter().collect::<Vec<i32>>())
        })
        .collect::<Vec<_>>()
}

/// A model with a variable per range.
fn model_of(ranges: &[(i32, i32)]) -> (Model, Vec<VarId>) {
    let mut model = Model::new();
    let vars = ranges
        .iter()
        .map(|&(low, high)| model.new_var(low..=high).unwrap())
        .collect();
    (model, vars)
}

/// Posts `constraint` on the variables of `ranges` and checks its reasons on `now`.
fn run(
    ranges: &[(i32, i32)],
    now: &[Vec<i32>],
    minimal: bool,
    build: impl FnOnce(&[VarId]) -> Box<dyn Constraint>,
) -> Tally {
    let (mut model, vars) = model_of(ranges);
    let id = model.post_boxed(None, build(&vars)).unwrap();
    let posted = model.constraints().find(|(c, _)| *c == id).unwrap().1;
    check(&model, posted, now, minimal)
}

fn comparisons() -> impl Strategy<Value = Comparison> {
    prop::sample::select(Comparison::ALL.to_vec())
}

const PAIR: [(i32, i32); 2] = [(1, 5), (1, 5)];
const ARITHMETIC: [(i32, i32); 3] = [(-3, 3), (-3, 3), (-6, 6)];
const FOUR: [(i32, i32); 4] = [(1, 4), (1, 4), (1, 4), (1, 4)];
const CIRCUIT: [(i32, i32); 4] = [(0, 3), (0, 3), (0, 3), (0, 3)];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn not_equal_gives_the_other_value(now in within(PAIR.to_vec()), offset in -2i32..=2) {
        let tally = run(&PAIR, &now, true, |v| Box::new(NotEqual::with_offset(v[0], v[1], offset)));
        prop_assert_eq!(tally.fallback, 0);
    }

    #[test]
    fn relation_reasons(now in within(PAIR.to_vec()), op in comparisons(), offset in -2i32..=2) {
        run(&PAIR, &now, true, |v| Box::new(Relation::with_offset(v[0], op, v[1], offset)));
    }

    #[test]
    fn distance_reasons(now in within(PAIR.to_vec()), op in comparisons(), d in 0i32..=3) {
        run(&PAIR, &now, true, |v| Box::new(Distance::new(v[0], v[1], op, d)));
    }

    #[test]
    fn two_term_linear_equality_explains_its_holes(
        now in within(PAIR.to_vec()),
        a in prop_oneof![-2i64..=-1, 1i64..=2],
        b in prop_oneof![-2i64..=-1, 1i64..=2],
        c in -6i64..=10,
    ) {
        let tally = run(&PAIR, &now, false, |v| {
            Box::new(Linear::new(&[(a, v[0]), (b, v[1])], Comparison::Eq, c))
        });
        // Domain consistent on two terms: every removal is explained.
        prop_assert_eq!(tally.fallback, 0);
    }

    #[test]
    fn arithmetic_reasons(
        now in within(ARITHMETIC.to_vec()),
        operation in prop::sample::select(vec![Operation::Times, Operation::Div, Operation::Mod, Operation::Abs, Operation::Pow]),
    ) {
        run(&ARITHMETIC, &now, true, |v| match operation {
            Operation::Abs => Box::new(Arithmetic::abs(v[0], v[2])),
            _ => Box::new(Arithmetic::new(operation, v[0], v[1], v[2])),
        });
    }

    #[test]
    fn product_reasons(now in within(ARITHMETIC.to_vec())) {
        run(&ARITHMETIC, &now, true, |v| Box::new(Product::new(&v[..2], v[2])));
    }

    #[test]
    fn extremum_reasons(now in within(FOUR.to_vec()), maximum in any::<bool>()) {
        run(&FOUR, &now, true, |v| if maximum {
            Box::new(Extremum::maximum(&v[..3], v[3]))
        } else {
            Box::new(Extremum::minimum(&v[..3], v[3]))
        });
    }

    #[test]
    fn element_of_constants_reasons(
        now in within(vec![(0, 4), (1, 4)]),
        array in prop::collection::vec(1i32..=4, 5),
    ) {
        run(&[(0, 4), (1, 4)], &now, true, |v| Box::new(Element::new(&array, v[0], v[1])));
    }

    #[test]
    fn element_of_variables_reasons(now in within(vec![(1, 3), (1, 3), (1, 3), (0, 2), (1, 3)])) {
        let ranges = [(1, 3), (1, 3), (1, 3), (0, 2), (1, 3)];
        run(&ranges, &now, false, |v| Box::new(Element::with_variables(&v[..3], v[3], v[4])));
    }

    /// Arrays that name a variable twice: at two positions, and as the index too.
    #[test]
    fn element_of_aliased_variables_reasons(now in within(vec![(1, 3), (1, 3), (0, 3), (1, 3)])) {
        let ranges = [(1, 3), (1, 3), (0, 3), (1, 3)];
        run(&ranges, &now, false, |v| {
            Box::new(Element::with_variables(&[v[0], v[1], v[0], v[1]], v[2], v[3]))
        });
        run(&ranges, &now, false, |v| {
            Box::new(Element::with_variables(&[v[0], v[1], v[0], v[2]], v[2], v[3]))
        });
    }

    #[test]
    fn member_reasons(
        now in within(vec![(1, 6), (0, 1)]),
        set in prop::collection::btree_set(1i32..=6, 0..=6),
        mode in 0u8..3,
    ) {
        let set: Vec<i32> = set.into_iter().collect();
        run(&[(1, 6), (0, 1)], &now, true, |v| match mode {
            0 => Box::new(Member::reified(v[0], &set, v[1])),
            1 => Box::new(Member::implied(v[0], &set, v[1])),
            _ => Box::new(Member::new(v[0], &set)),
        });
    }

    #[test]
    fn reified_linear_reasons(
        now in within(vec![(1, 4), (1, 4), (0, 1)]),
        op in prop_oneof![Just(Comparison::Le), Just(Comparison::Eq), Just(Comparison::Ne)],
        c in -3i64..=3,
        implied in any::<bool>(),
    ) {
        run(&[(1, 4), (1, 4), (0, 1)], &now, true, |v| {
            let linear = Linear::new(&[(1, v[0]), (-1, v[1])], op, c);
            if implied {
                Box::new(Reified::implied(linear, v[2]))
            } else {
                Box::new(Reified::new(linear, v[2]))
            }
        });
    }

    #[test]
    fn reified_equality_reasons(now in within(vec![(1, 4), (1, 4), (0, 1)]), offset in -2i32..=2) {
        run(&[(1, 4), (1, 4), (0, 1)], &now, true, |v| {
            Box::new(ReifiedEquality::new(v[0], v[1], offset, v[2]))
        });
    }

    #[test]
    fn among_reasons(
        now in within(vec![(1, 3), (1, 3), (1, 3), (0, 3)]),
        values in prop::collection::btree_set(1i32..=3, 1..=2),
    ) {
        let values: Vec<i32> = values.into_iter().collect();
        run(&[(1, 3), (1, 3), (1, 3), (0, 3)], &now, true, |v| Box::new(Among::new(&v[..3], &values, v[3])));
    }

    #[test]
    fn lex_reasons(now in within(vec![(1, 3); 4]), strict in any::<bool>()) {
        run(&[(1, 3); 4], &now, true, |v| if strict {
            Box::new(LexLessEq::strict(&v[..2], &v[2..]))
        } else {
            Box::new(LexLessEq::new(&v[..2], &v[2..]))
        });
    }

    #[test]
    fn global_cardinality_reasons(now in within(vec![(1, 3), (1, 3), (1, 3), (0, 3), (0, 3)]), closed in any::<bool>()) {
        run(&[(1, 3), (1, 3), (1, 3), (0, 3), (0, 3)], &now, false, |v| {
            let gcc = GlobalCardinality::new(&v[..3], &[1, 2], &v[3..]).unwrap();
            Box::new(if closed { gcc.closed() } else { gcc })
        });
    }

    #[test]
    fn inverse_reasons(now in within(vec![(0, 2); 6])) {
        run(&[(0, 2); 6], &now, false, |v| Box::new(Inverse::new(&v[..3], &v[3..]).unwrap()));
    }

    #[test]
    fn circuit_reasons(now in within(CIRCUIT.to_vec()), sub in any::<bool>()) {
        run(&CIRCUIT, &now, true, |v| if sub {
            Box::new(Subcircuit::new(v))
        } else {
            Box::new(Circuit::new(v))
        });
    }

    #[test]
    fn regular_reasons(now in within(vec![(0, 1); 5]), first in 1usize..=2, second in 0usize..=2) {
        run(&[(0, 1); 5], &now, false, |v| Box::new(Regular::new(v, Dfa::blocks(&[first, second]))));
    }

    #[test]
    fn cumulative_reasons(
        now in within(vec![(0, 3); 3]),
        durations in prop::collection::vec(1i32..=2, 3),
        demands in prop::collection::vec(1i32..=2, 3),
        capacity in 1i32..=3,
    ) {
        run(&[(0, 3); 3], &now, true, |v| Box::new(Cumulative::new(v, &durations, &demands, capacity).unwrap()));
    }

    #[test]
    fn disjunctive_reasons(now in within(vec![(0, 3); 3]), durations in prop::collection::vec(1i32..=2, 3)) {
        run(&[(0, 3); 3], &now, true, |v| Box::new(Disjunctive::new(v, &durations).unwrap()));
    }
}

/// `x ≠ y` removing 3 from `y` because `x = 3`: that, and nothing else, is the reason; a
/// wrong value or an empty reason is refused.
#[test]
fn not_equal_removal_is_explained_by_the_other_value_alone() {
    let (model, v) = model_of(&PAIR);
    let constraint = NotEqual::new(v[0], v[1]);
    let initial: Vec<Domain> = model.variables().map(|x| model.domain(x).clone()).collect();
    let current = [
        Domain::from_values([3]).unwrap(),
        Domain::from_values([1, 3, 4]).unwrap(),
    ];
    let ctx = ExplainContext::new(&initial, &current);
    let removed = Inference::Removed {
        var: v[1],
        value: 3,
    };
    let reason = constraint.explain(removed, &ctx).unwrap();
    assert_eq!(reason, [Literal::Eq(v[0], 3)]);
    assert!(reason_implies(&constraint, &initial, &reason, removed));
    // A mutated reason is refused: another value, or nothing.
    assert!(!reason_implies(
        &constraint,
        &initial,
        &[Literal::Eq(v[0], 4)],
        removed
    ));
    assert!(!reason_implies(&constraint, &initial, &[], removed));
}

/// `x ≤ y`, with `y ≤ 2`: 3 leaves `x` because of `y`'s upper bound, not `x`'s own holes.
#[test]
fn a_bound_is_explained_by_the_other_bound() {
    let (model, v) = model_of(&PAIR);
    let constraint = Relation::new(v[0], Comparison::Le, v[1]);
    let initial: Vec<Domain> = model.variables().map(|x| model.domain(x).clone()).collect();
    let current = [
        Domain::from_values([1, 3, 5]).unwrap(),
        Domain::from_values([1, 2]).unwrap(),
    ];
    let ctx = ExplainContext::new(&initial, &current);
    let removed = Inference::Removed {
        var: v[0],
        value: 3,
    };
    let reason = constraint.explain(removed, &ctx).unwrap();
    assert_eq!(reason, [Literal::Le(v[1], 2)]);
}
