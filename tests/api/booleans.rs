//! Boolean variables and the connectives over them, against their truth tables: every
//! solution found at every level equals the assignments that satisfy the definition.

use cspkit::{AllDifferent, BoolVar, LinearExpr, Member, Model, ModelError, PropagationLevel};
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

/// `bools` with the `i`-th negated when bit `i` of `mask` is set.
fn literals(bools: &[BoolVar], mask: u32) -> Vec<BoolVar> {
    bools
        .iter()
        .enumerate()
        .map(|(i, &b)| if mask >> i & 1 == 1 { !b } else { b })
        .collect()
}

/// The truth values of those literals, for the variables' values `v`.
fn truths(v: &[i32], mask: u32) -> Vec<i32> {
    v.iter()
        .enumerate()
        .map(|(i, &x)| if mask >> i & 1 == 1 { 1 - x } else { x })
        .collect()
}

proptest! {
    /// Each connective over booleans, some of them negated (bit `i` of `mask` negates the
    /// `i`-th argument, the result last), against its truth table over the variables.
    #[test]
    fn every_connective_has_exactly_its_truth_table(
        n in 1usize..=4, k in 0i64..=5, split in 0usize..=4, mask in 0u32..32,
    ) {
        let split = split.min(n);
        let count = |v: &[i32]| v.iter().filter(|&&b| b == 1).count() as i64;

        // and / or: inputs then the result.
        for is_and in [true, false] {
            let mut model = Model::new();
            let xs = bools(&mut model, n + 1);
            let lits = literals(&xs, mask);
            if is_and {
                model.and(&lits[..n], lits[n]).unwrap()
            } else {
                model.or(&lits[..n], lits[n]).unwrap()
            }
            let expected = truth_table(n + 1, |v| {
                let t = truths(v, mask);
                let (inputs, result) = (&t[..n], t[n] == 1);
                result == if is_and { inputs.iter().all(|&b| b == 1) } else { inputs.contains(&1) }
            });
            prop_assert_eq!(solutions(&model), expected, "and: {}, mask {:b}", is_and, mask);
        }

        // A clause: the first `split` literals positive, the others negative.
        let mut model = Model::new();
        let xs = bools(&mut model, n);
        let lits = literals(&xs, mask);
        model.clause(&lits[..split], &lits[split..]).unwrap();
        let expected = truth_table(n, |v| {
            let t = truths(v, mask);
            t[..split].contains(&1) || t[split..].contains(&0)
        });
        prop_assert_eq!(solutions(&model), expected, "clause, mask {:b}", mask);

        // Cardinality.
        for which in 0..3 {
            let mut model = Model::new();
            let xs = bools(&mut model, n);
            let lits = literals(&xs, mask);
            match which {
                0 => model.at_least(k, &lits).unwrap(),
                1 => model.at_most(k, &lits).unwrap(),
                _ => model.exactly(k, &lits).unwrap(),
            }
            let expected = truth_table(n, |v| {
                let t = truths(v, mask);
                match which {
                    0 => count(&t) >= k,
                    1 => count(&t) <= k,
                    _ => count(&t) == k,
                }
            });
            prop_assert_eq!(solutions(&model), expected, "cardinality {}, mask {:b}", which, mask);
        }

        // A sum of literals: Σ literals = k, each negated one counting as 1 − b.
        let mut model = Model::new();
        let xs = bools(&mut model, n);
        let lits = literals(&xs, mask);
        let total: LinearExpr = lits.iter().sum();
        model.post(total.eq(LinearExpr::new(&[], k))).unwrap();
        let expected = truth_table(n, |v| count(&truths(v, mask)) == k);
        prop_assert_eq!(solutions(&model), expected, "sum, mask {:b}", mask);
    }
}

#[test]
fn xor_implication_and_equivalence_with_every_negation() {
    for mask in 0..8 {
        let mut model = Model::new();
        let xs = bools(&mut model, 3);
        let l = literals(&xs, mask);
        model.xor(l[0], l[1], l[2]).unwrap();
        let expected = truth_table(3, |v| {
            let t = truths(v, mask);
            t[2] == (t[0] ^ t[1])
        });
        assert_eq!(solutions(&model), expected, "xor, mask {mask:b}");
    }
    for mask in 0..4 {
        let mut model = Model::new();
        let xs = bools(&mut model, 2);
        let l = literals(&xs, mask);
        model.implies(l[0], l[1]).unwrap();
        let expected = truth_table(2, |v| {
            let t = truths(v, mask);
            t[0] <= t[1]
        });
        assert_eq!(solutions(&model), expected, "implies, mask {mask:b}");

        let mut model = Model::new();
        let xs = bools(&mut model, 2);
        let l = literals(&xs, mask);
        model.equivalent(l[0], l[1]).unwrap();
        let expected = truth_table(2, |v| {
            let t = truths(v, mask);
            t[0] == t[1]
        });
        assert_eq!(solutions(&model), expected, "equivalent, mask {mask:b}");
    }
}

#[test]
fn a_boolean_with_its_own_negation_is_decided_when_posted() {
    // a ∨ ¬a always holds: nothing to post, every assignment is a solution.
    let mut model = Model::new();
    let a = model.new_bool().unwrap();
    model.clause(&[a, !a], &[]).unwrap();
    model.clause(&[a], &[a]).unwrap();
    model.implies(a, a).unwrap();
    assert_eq!(solutions(&model), [[0], [1]]);
    // a ⇔ ¬a never holds.
    let mut model = Model::new();
    let a = model.new_bool().unwrap();
    model.equivalent(a, !a).unwrap();
    assert!(solutions(&model).is_empty());
    // r ⇔ (a ∧ ¬a) is false; r ⇔ (a xor ¬a) is true; ¬¬a is a.
    let mut model = Model::new();
    let [a, r, t] = [
        model.new_bool().unwrap(),
        model.new_bool().unwrap(),
        model.new_bool().unwrap(),
    ];
    model.and(&[a, !a], r).unwrap();
    model.xor(a, !a, t).unwrap();
    assert_eq!(solutions(&model), [[0, 0, 1], [1, 0, 1]]);
    assert_eq!(!!a, a);
    assert!((!a).is_negated() && (!a).var() == a.var() && (!a).true_value() == 0);
    // A variable of another model is still refused, cancelled or not.
    let other = Model::new().new_bool().unwrap();
    assert!(matches!(
        model.clause(&[other, !other], &[]),
        Err(ModelError::ForeignVariable { .. })
    ));
}

#[test]
fn a_negated_boolean_reads_negated_and_is_the_view_one_minus_b() {
    // ¬a is the view 1 − a: all different from b, it makes b equal to a.
    let mut model = Model::new();
    let [a, b] = [model.new_bool().unwrap(), model.new_bool().unwrap()];
    model
        .post(AllDifferent::over_views(&[(!a).into(), b.view()]).unwrap())
        .unwrap();
    assert_eq!(solutions(&model), [[0, 0], [1, 1]]);
    assert_eq!((!a).view().to_string(), format!("-{} + 1", a.var()));
    for s in model.solver().solutions() {
        assert_eq!(s[!a], 1 - s[a]);
        assert_eq!(s[a], s[a.var()]);
    }
    // Arithmetic on booleans: 3·¬a + b − 1 ≥ 2.
    let mut model = Model::new();
    let [a, b] = [model.new_bool().unwrap(), model.new_bool().unwrap()];
    model.post((3 * !a + b - 1).ge(2)).unwrap();
    assert_eq!(solutions(&model), [[0, 0], [0, 1]]);
}

#[test]
fn negated_booleans_reify_and_imply() {
    // ¬b ⇒ x ≤ 2 for any constraint; ¬c ⇔ x + y = 3.
    let mut model = Model::new();
    let [x, y] = [model.new_var(0..=3).unwrap(), model.new_var(0..=3).unwrap()];
    let [b, c] = [model.new_bool().unwrap(), model.new_bool().unwrap()];
    model
        .imply_constraint(!b, Member::new(x, &[0, 1, 2]))
        .unwrap();
    model.reify_into((x + y).eq(3), !c).unwrap();
    let mut count = 0;
    for s in model.solver().solutions() {
        assert!(s[b] == 1 || s[x] <= 2);
        assert_eq!(s[c] == 0, s[x] + s[y] == 3);
        count += 1;
    }
    // 16 pairs, b free where x ≤ 2 (12 pairs) and true where x = 3 (4).
    assert_eq!(count, 12 * 2 + 4);
}

#[test]
fn booleans_count_in_sums_and_only_0_1_variables_are_booleans() {
    let mut model = Model::new();
    let xs = bools(&mut model, 4);
    let n = model.new_var(0..=4).unwrap();
    // n = the number of true booleans, and n ≥ 3.
    let sum: LinearExpr = xs.iter().sum();
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
    let foreign = Model::new().new_var(0..=1).unwrap();
    assert!(matches!(
        model.as_bool(foreign),
        Err(ModelError::ForeignVariable { .. })
    ));
    // A clause with no literal is refused.
    assert!(model.clause(&[], &[]).is_err());
}
