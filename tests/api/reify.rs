//! Reified and half-reified linear constraints against their definition: every solution at
//! every level equals the assignments where the boolean is the truth of the constraint (or,
//! half reified, where a true boolean implies it).

use std::collections::BTreeSet;

use cspkit::{BoolVar, Comparison, Linear, LinearExpr, Model, PropagationLevel, VarId};
use proptest::collection::{btree_set, vec};
use proptest::prelude::*;

use crate::common::root_domains;

fn comparison() -> impl Strategy<Value = Comparison> {
    prop_oneof![
        Just(Comparison::Eq),
        Just(Comparison::Ne),
        Just(Comparison::Le),
        Just(Comparison::Lt),
        Just(Comparison::Ge),
        Just(Comparison::Gt),
    ]
}

fn holds(comparison: Comparison, sum: i64, c: i64) -> bool {
    match comparison {
        Comparison::Eq => sum == c,
        Comparison::Ne => sum != c,
        Comparison::Le => sum <= c,
        Comparison::Lt => sum < c,
        Comparison::Ge => sum >= c,
        Comparison::Gt => sum > c,
    }
}

/// The model's solutions restricted to its first `n` variables and `b`, the same at every
/// level (auxiliary booleans may multiply a solution: duplicates are removed).
fn projected(model: &Model, vars: &[VarId], b: VarId) -> Vec<Vec<i32>> {
    let mut per_level = Vec::new();
    for level in [
        PropagationLevel::None,
        PropagationLevel::Forward,
        PropagationLevel::Full,
    ] {
        let mut found: Vec<Vec<i32>> = model
            .solver()
            .with_propagation(level)
            .solutions()
            .map(|s| vars.iter().chain([&b]).map(|&v| s[v]).collect())
            .collect();
        found.sort();
        found.dedup();
        per_level.push(found);
    }
    assert!(per_level.windows(2).all(|w| w[0] == w[1]));
    per_level.pop().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn a_reified_sum_is_true_exactly_when_it_holds(
        domains in vec(btree_set(-3i32..=3, 1..=4), 1..=3),
        coefficients in vec(-3i64..=3, 3),
        comparison in comparison(),
        c in -6i64..=6,
        half in any::<bool>(),
        negated in any::<bool>(),
    ) {
        let mut model = Model::new();
        let vars: Vec<VarId> = domains
            .iter()
            .map(|d| model.new_var(d.iter().copied().collect::<Vec<_>>()).unwrap())
            .collect();
        let terms: Vec<(i64, VarId)> = coefficients.iter().zip(&vars).map(|(&a, &v)| (a, v)).collect();
        prop_assume!(terms.iter().any(|&(a, _)| a != 0));
        let constraint = Linear::new(&terms, comparison, c);
        let b = model.new_bool().unwrap();
        // The boolean posted is `b` or `¬b`; the oracle reads its truth from b's value.
        let literal = if negated { !b } else { b };
        if half {
            model.imply(literal, constraint).unwrap();
        } else {
            model.reify_into(constraint, literal).unwrap();
        }
        // The oracle: every assignment of the variables, with each b the definition allows.
        let mut expected = Vec::new();
        let mut stack = vec![Vec::new()];
        while let Some(prefix) = stack.pop() {
            if prefix.len() == vars.len() {
                let sum: i64 = prefix.iter().zip(&coefficients).map(|(&v, &a)| a * i64::from(v)).sum();
                let truth = holds(comparison, sum, c);
                for bit in [0, 1] {
                    let literal_true = (bit == 1) != negated;
                    let allowed = if half { !literal_true || truth } else { literal_true == truth };
                    if allowed {
                        let mut row = prefix.clone();
                        row.push(bit);
                        expected.push(row);
                    }
                }
                continue;
            }
            for &v in &domains[prefix.len()] {
                let mut next = prefix.clone();
                next.push(v);
                stack.push(next);
            }
        }
        expected.sort();
        prop_assert_eq!(projected(&model, &vars, b.var()), expected);
    }
}

#[test]
fn a_sum_too_large_for_i64_is_refused_by_name() {
    let mut model = Model::new();
    let x = model.new_var(0..=i32::MAX).unwrap();
    let big = Linear::new(&[(i64::MAX / 2, x)], Comparison::Le, 0);
    let error = model.reify(big).unwrap_err();
    assert!(
        error.to_string().contains("reification") || error.to_string().contains("overflow"),
        "{error}"
    );
}

/// `b ⇔ x = 3`, `b ⇔ x ≠ 3`, `b ⇒ x ≠ 3` and `¬b ⇒ x = 3`, with `b` fixed so that 3 is
/// ruled out: the root propagation removes 3 from the middle of `x`'s domain at `Forward` and
/// `Full`, the levels at which `Member` claims domain consistency.
/// Posts a reification of something about `x` with the boolean `b`.
type Post = fn(&mut Model, VarId, BoolVar);

#[test]
fn reifying_a_single_variable_equality_prunes_the_value_when_the_boolean_rules_it_out() {
    let posts: [(&str, Post, i32); 5] = [
        (
            "b ⇔ x = 3",
            |m, x, b| m.reify_into(LinearExpr::from(x).eq(3), b).unwrap(),
            0,
        ),
        (
            "b ⇔ x ≠ 3",
            |m, x, b| m.reify_into(LinearExpr::from(x).ne(3), b).unwrap(),
            1,
        ),
        (
            "b ⇒ x ≠ 3",
            |m, x, b| m.imply(b, LinearExpr::from(x).ne(3)).unwrap(),
            1,
        ),
        (
            "¬b ⇔ 2x = 6",
            |m, x, b| m.reify_into((x * 2).eq(6), !b).unwrap(),
            1,
        ),
        (
            "¬b ⇒ x ≠ 3",
            |m, x, b| m.imply(!b, LinearExpr::from(x).ne(3)).unwrap(),
            0,
        ),
    ];
    for (what, post, fixed) in posts {
        let mut model = Model::new();
        let x = model.new_var(1..=5).unwrap();
        let b = model.new_bool().unwrap();
        post(&mut model, x, b);
        model.fix(b.var(), fixed).unwrap();
        for level in [PropagationLevel::Forward, PropagationLevel::Full] {
            let domains = root_domains(&model, level).unwrap();
            assert_eq!(
                domains[x.index()],
                BTreeSet::from([1, 2, 4, 5]),
                "{what}, b = {fixed}, at {level:?}"
            );
        }
    }
    // A coefficient that does not divide the constant: 2x = 5 never holds, so b is false.
    let mut model = Model::new();
    let x = model.new_var(1..=5).unwrap();
    let b = model.reify((x * 2).eq(5)).unwrap();
    let domains = root_domains(&model, PropagationLevel::Forward).unwrap();
    assert_eq!(domains[b.var().index()], BTreeSet::from([0]));
}

/// A self-describing sequence (`s[i]` is the number of times `i` occurs in `s`), its counts
/// made of booleans `s[j] = i`: reified as linear equalities or by `reify_in`, the search is
/// the same, node for node.
#[test]
fn a_count_model_reified_through_equalities_searches_as_with_reify_in() {
    fn sequence(n: usize, through_reify_in: bool) -> (Model, Vec<VarId>) {
        let mut model = Model::new();
        let top = i32::try_from(n).unwrap() - 1;
        let s = model.new_named_vars("s", n, 0..=top).unwrap();
        for i in 0..n {
            let value = i32::try_from(i).unwrap();
            let hits: Vec<BoolVar> = s
                .iter()
                .map(|&x| {
                    if through_reify_in {
                        model.reify_in(x, &[value]).unwrap()
                    } else {
                        model.reify(LinearExpr::from(x).eq(value)).unwrap()
                    }
                })
                .collect();
            let count: LinearExpr = hits.iter().sum();
            model.post(count.eq(s[i])).unwrap();
        }
        (model, s)
    }
    for n in [7, 8] {
        let mut runs = Vec::new();
        for through_reify_in in [false, true] {
            let (model, s) = sequence(n, through_reify_in);
            let mut solver = model.solver();
            let found: Vec<Vec<i32>> = solver.solutions().map(|x| x.values_of(&s)).collect();
            runs.push((found, solver.stats().decisions));
        }
        assert_eq!(
            runs[0], runs[1],
            "n = {n}: (solutions, nodes) through reify, reify_in"
        );
        assert_eq!(runs[0].0.len(), 1, "one magic sequence of length {n}");
    }
}

#[test]
fn a_constraint_reified_into_its_own_boolean_means_what_it_says() {
    // For each comparison of a·b + k·x against c, with b among its own terms (alone when
    // k = 0, as FlatZinc's `bool_le_reif(true, x, x)` is): the solutions are the (b, x) where
    // b is the truth of the comparison (reified), or where a true b implies it (half
    // reified), checked against the definition on every pair.
    let forms = [(2, 1), (1, 0), (-1, 0), (3, 0)];
    for (a, k, comparison, c, half) in forms.into_iter().flat_map(|(a, k)| {
        [
            Comparison::Eq,
            Comparison::Ne,
            Comparison::Le,
            Comparison::Gt,
        ]
        .into_iter()
        .flat_map(move |comparison| {
            (-1..=4).flat_map(move |c| [false, true].map(|half| (a, k, comparison, c, half)))
        })
    }) {
        {
            {
                let mut model = Model::new();
                let b = model.new_bool().unwrap();
                let x = model.new_var(0..=2).unwrap();
                let terms: Vec<(i64, VarId)> = [(a, b.var()), (k, x)]
                    .into_iter()
                    .filter(|&(coefficient, _)| coefficient != 0)
                    .collect();
                let linear = Linear::new(&terms, comparison, c);
                if half {
                    model.imply(b, linear).unwrap();
                } else {
                    model.reify_into(linear, b).unwrap();
                }
                let mut expected = Vec::new();
                for bv in 0..=1 {
                    for xv in 0..=2 {
                        let truth = holds(comparison, a * bv + k * xv, c);
                        let ok = if half {
                            bv == 0 || truth
                        } else {
                            (bv == 1) == truth
                        };
                        if ok {
                            expected.push(vec![bv as i32, xv as i32]);
                        }
                    }
                }
                for level in [PropagationLevel::None, PropagationLevel::Full] {
                    let found: Vec<Vec<i32>> = model
                        .solver()
                        .with_propagation(level)
                        .with_projection(&[b.var(), x])
                        .unwrap()
                        .solutions()
                        .map(|s| vec![s[b.var()], s[x]])
                        .collect();
                    assert_eq!(
                        found, expected,
                        "{a}·b + {k}·x {comparison:?} {c}, half {half}, {level:?}"
                    );
                }
            }
        }
    }
}
