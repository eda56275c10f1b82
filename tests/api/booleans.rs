//! Boolean variables and the connectives over them, against their truth tables: every
//! solution found at every level equals the assignments that satisfy the definition.

use cspkit::{BoolVar, LinearExpr, Model, ModelError, PropagationLevel};
use proptest::prelude::*;

/// Every solution at every level, as 0/1 vectors; they must agree.
fn solutions(model: &Model) -> Vec<Vec<i32>> {
    let mut all: Vec<Vec<Vec<i32>>> = Vec::new();
    for level in [
        PropagationLevel::None,
        PropagationLevel::Forward,
        PropagationLevel::Full,
    ] {
        all.push(
            model
                .solver()
                .with_propagation(level)
                .solutions()
                .map(|s| s.values().to_vec())
                .collect(),
        );
    }
    assert!(all.windows(2).all(|w| w[0] == w[1]), "{all:?}");
    all.pop().unwrap()
}

/// The 0/1 vectors of length `n` that `holds`.
fn truth_table(n: usize, holds: impl Fn(&[i32]) -> bool) -> Vec<Vec<i32>> {
    (0..1u32 << n)
        .map(|bits| {
            (0..n)
                .map(|i| (bits >> (n - 1 - i) & 1) as i32)
                .collect::<Vec<_>>()
        })
        .filter(|v| holds(v))
        .collect()
}

fn bools(model: &mut Model, n: usize) -> Vec<BoolVar> {
    (0..n).map(|_| model.new_bool().unwrap()).collect()
}

proptest! {
    #[test]
    fn every_connective_has_exactly_its_truth_table(n in 1usize..=4, k in 0i64..=5, split in 0usize..=4) {
        let split = split.min(n);
        let count = |v: &[i32]| v.iter().filter(|&&b| b == 1).count() as i64;

        // and / or: inputs then the result.
        for is_and in [true, false] {
            let mut model = Model::new();
            let xs = bools(&mut model, n);
            let r = model.new_bool().unwrap();
            if is_and { model.and(&xs, r).unwrap() } else { model.or(&xs, r).unwrap() }
            let expected = truth_table(n + 1, |v| {
                let (inputs, result) = (&v[..n], v[n] == 1);
                result == if is_and { inputs.iter().all(|&b| b == 1) } else { inputs.contains(&1) }
            });
            prop_assert_eq!(solutions(&model), expected, "and: {}", is_and);
        }

        // A clause: the first `split` literals positive, the others negative.
        let mut model = Model::new();
        let xs = bools(&mut model, n);
        model.clause(&xs[..split], &xs[split..]).unwrap();
        let expected = truth_table(n, |v| v[..split].contains(&1) || v[split..].contains(&0));
        prop_assert_eq!(solutions(&model), expected);

        // Cardinality.
        for which in 0..3 {
            let mut model = Model::new();
            let xs = bools(&mut model, n);
            match which {
                0 => model.at_least(k, &xs).unwrap(),
                1 => model.at_most(k, &xs).unwrap(),
                _ => model.exactly(k, &xs).unwrap(),
            }
            let expected = truth_table(n, |v| match which {
                0 => count(v) >= k,
                1 => count(v) <= k,
                _ => count(v) == k,
            });
            prop_assert_eq!(solutions(&model), expected, "cardinality {}", which);
        }
    }
}

#[test]
fn xor_implication_equivalence_and_negation() {
    let mut model = Model::new();
    let [a, b, c] = [
        model.new_bool().unwrap(),
        model.new_bool().unwrap(),
        model.new_bool().unwrap(),
    ];
    model.xor(a, b, c).unwrap();
    assert_eq!(solutions(&model), truth_table(3, |v| v[2] == (v[0] ^ v[1])));

    let mut model = Model::new();
    let [a, b] = [model.new_bool().unwrap(), model.new_bool().unwrap()];
    model.implies(a, b).unwrap();
    assert_eq!(solutions(&model), truth_table(2, |v| v[0] <= v[1]));

    let mut model = Model::new();
    let [a, b] = [model.new_bool().unwrap(), model.new_bool().unwrap()];
    model.equivalent(a, b).unwrap();
    assert_eq!(solutions(&model), truth_table(2, |v| v[0] == v[1]));

    // ¬a is the view 1 − a: all different from a, it is any value but a's complement…
    let mut model = Model::new();
    let [a, b] = [model.new_bool().unwrap(), model.new_bool().unwrap()];
    model
        .post(cspkit::AllDifferent::over_views(&[(!a), b.var().into()]).unwrap())
        .unwrap();
    // …so b ≠ 1 − a, that is b = a.
    assert_eq!(solutions(&model), [[0, 0], [1, 1]]);
}

#[test]
fn booleans_count_in_sums_and_only_0_1_variables_are_booleans() {
    let mut model = Model::new();
    let xs = bools(&mut model, 4);
    let n = model.new_var(0..=4).unwrap();
    // n = the number of true booleans, and n ≥ 3.
    let sum = xs.iter().fold(LinearExpr::default(), |e, &b| e + b);
    model.post(sum.eq(n)).unwrap();
    model.post(LinearExpr::from(n).ge(3)).unwrap();
    assert_eq!(model.solver().count().solutions, 5);

    let wide = model.new_var(0..=2).unwrap();
    let error = model.as_bool(wide).unwrap_err();
    assert!(
        matches!(error, ModelError::InvalidConstraint { .. }),
        "{error}"
    );
    let flag = model.new_var(0..=1).unwrap();
    assert!(model.as_bool(flag).is_ok());
    // A clause with no literal is refused.
    assert!(model.clause(&[], &[]).is_err());
}
