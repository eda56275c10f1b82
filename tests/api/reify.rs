//! Reified and half-reified linear constraints against their definition: every solution at
//! every level equals the assignments where the boolean is the truth of the constraint (or,
//! half reified, where a true boolean implies it).

use cspkit::{Comparison, Linear, Model, PropagationLevel, VarId};
use proptest::collection::{btree_set, vec};
use proptest::prelude::*;

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
        if half {
            model.imply(b, constraint).unwrap();
        } else {
            model.reify_into(constraint, b).unwrap();
        }
        // The oracle: every assignment of the variables, with each b the definition allows.
        let mut expected = Vec::new();
        let mut stack = vec![Vec::new()];
        while let Some(prefix) = stack.pop() {
            if prefix.len() == vars.len() {
                let sum: i64 = prefix.iter().zip(&coefficients).map(|(&v, &a)| a * i64::from(v)).sum();
                let truth = holds(comparison, sum, c);
                for bit in [0, 1] {
                    let allowed = if half { bit == 0 || truth } else { (bit == 1) == truth };
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
