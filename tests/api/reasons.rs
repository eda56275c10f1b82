//! The reasons built-in constraints give for their inferences (`Constraint::explain`): on
//! random domains, every value that no assignment of the constraint supports (found here by
//! brute force) gets a reason whose literals hold in the domains and which, re-propagated from
//! the model's domains cut down to the reason alone, removes the value again
//! (`reason_implies`). Failures likewise.

use cspkit::kernel::{ExplainContext, Inference, Literal, reason_implies};
use cspkit::{AllDifferent, Comparison, Constraint, Domain, Linear, Model, Table, VarId};
use proptest::prelude::*;

/// Every assignment of `domains` (one per variable of `scope`), by brute force.
pub(crate) fn assignments(domains: &[Vec<i32>]) -> Vec<Vec<i32>> {
    let mut all = vec![Vec::new()];
    for values in domains {
        all = all
            .into_iter()
            .flat_map(|prefix: Vec<i32>| {
                values.iter().map(move |&v| {
                    let mut next = prefix.clone();
                    next.push(v);
                    next
                })
            })
            .collect();
    }
    all
}

/// Checks the reasons of `constraint` (posted on `model`, its scope the model's variables in
/// order) for the domains `now`, against brute force; whether it explained something.
fn check_reasons(model: &Model, constraint: &dyn Constraint, now: &[Vec<i32>], must: bool) -> bool {
    let initial: Vec<Domain> = model.variables().map(|v| model.domain(v).clone()).collect();
    let current: Vec<Domain> = now
        .iter()
        .map(|values| Domain::from_values(values.iter().copied()).unwrap())
        .collect();
    let ctx = ExplainContext::new(&initial, &current);
    let scope: Vec<VarId> = constraint.scope().to_vec();
    let solutions: Vec<Vec<i32>> = assignments(now)
        .into_iter()
        .filter(|a| constraint.check(a))
        .collect();
    let holds = |reason: &[Literal]| reason.iter().all(|l| l.holds_in(&current[l.var().index()]));
    let mut explained = false;
    if solutions.is_empty() {
        let reason = constraint.explain(Inference::Failed, &ctx);
        assert!(
            !must || reason.is_some(),
            "no reason for a failure on {now:?}"
        );
        if let Some(reason) = reason {
            assert!(holds(&reason), "{reason:?} does not hold in {now:?}");
            assert!(
                reason_implies(constraint, &initial, &reason, Inference::Failed),
                "{reason:?} does not imply the failure on {now:?}"
            );
            explained = true;
        }
        return explained;
    }
    for (i, &var) in scope.iter().enumerate() {
        for &value in &now[i] {
            if solutions.iter().any(|s| s[i] == value) {
                continue;
            }
            let inference = Inference::Removed { var, value };
            let reason = constraint.explain(inference, &ctx);
            assert!(
                !must || reason.is_some(),
                "no reason for {var} ≠ {value} on {now:?}"
            );
            if let Some(reason) = reason {
                assert!(holds(&reason), "{reason:?} does not hold in {now:?}");
                assert!(
                    reason_implies(constraint, &initial, &reason, inference),
                    "{reason:?} does not imply {var} ≠ {value} on {now:?}"
                );
                explained = true;
            }
        }
    }
    explained
}

/// Domains within `1..=6`: a non-empty subset for each of `n` variables.
fn subsets(n: usize) -> impl Strategy<Value = Vec<Vec<i32>>> {
    prop::collection::vec(prop::collection::btree_set(1..=6i32, 1..=6), n)
        .prop_map(|sets| sets.into_iter().map(|s| s.into_iter().collect()).collect())
}

proptest! {
    #[test]
    fn all_different_explains_every_unsupported_value_by_a_hall_set(
        now in (2usize..=5).prop_flat_map(subsets),
        offsets in prop::collection::vec(-2i32..=2, 5),
    ) {
        let mut model = Model::new();
        let xs = model.new_vars(now.len(), 1..=6).unwrap();
        let constraint = AllDifferent::with_offsets(&xs, &offsets[..xs.len()]).unwrap();
        let id = model.post(constraint).unwrap();
        let posted = model.constraints().find(|(c, _)| *c == id).unwrap().1;
        check_reasons(&model, posted, &now, true);
    }

    #[test]
    fn linear_explains_what_bounds_remove(
        now in (1usize..=4).prop_flat_map(subsets),
        coefficients in prop::collection::vec(prop_oneof![-3i64..=-1, 1i64..=3], 4),
        comparison in prop_oneof![Just(Comparison::Le), Just(Comparison::Ge), Just(Comparison::Eq), Just(Comparison::Ne)],
        constant in -10i64..=20,
    ) {
        let mut model = Model::new();
        let xs = model.new_vars(now.len(), 1..=6).unwrap();
        let terms: Vec<(i64, VarId)> = coefficients.iter().copied().zip(xs.iter().copied()).collect();
        let linear = Linear::new(&terms, comparison, constant);
        let id = model.post(linear.clone()).unwrap();
        let posted = model.constraints().find(|(c, _)| *c == id).unwrap().1;
        // `≤` and `≥` remove by bounds only: each value removed has a reason.
        let must = matches!(comparison, Comparison::Le | Comparison::Ge);
        check_reasons(&model, posted, &now, must);
    }

    #[test]
    fn table_explains_every_unsupported_value_by_its_tuples(
        now in (1usize..=3).prop_flat_map(subsets),
        tuples in prop::collection::vec(prop::collection::vec(1..=6i32, 3), 0..12),
    ) {
        let mut model = Model::new();
        let xs = model.new_vars(now.len(), 1..=6).unwrap();
        let tuples: Vec<Vec<i32>> = tuples.into_iter().map(|t| t[..xs.len()].to_vec()).collect();
        let table = Table::new(&xs, &tuples).unwrap();
        let id = model.post(table).unwrap();
        let posted = model.constraints().find(|(c, _)| *c == id).unwrap().1;
        check_reasons(&model, posted, &now, true);
    }
}

#[test]
fn a_hidden_single_is_explained_by_the_other_cells_lacking_the_value() {
    let mut model = Model::new();
    let xs = model.new_vars(4, 1..=4).unwrap();
    let id = model.post(AllDifferent::new(&xs)).unwrap();
    let row = model.constraints().find(|(c, _)| *c == id).unwrap().1;
    let initial: Vec<Domain> = xs.iter().map(|&x| model.domain(x).clone()).collect();
    // 4 fits only the first cell.
    let now: Vec<Domain> = [vec![1, 2, 4], vec![1, 2, 3], vec![2, 3], vec![1, 3]]
        .iter()
        .map(|v| Domain::from_values(v.iter().copied()).unwrap())
        .collect();
    let ctx = ExplainContext::new(&initial, &now);
    let fixed = Inference::Fixed {
        var: xs[0],
        value: 4,
    };
    let reason = row.explain(fixed, &ctx).unwrap();
    assert_eq!(
        reason,
        [
            Literal::Ne(xs[1], 4),
            Literal::Ne(xs[2], 4),
            Literal::Ne(xs[3], 4)
        ]
    );
    assert!(reason_implies(row, &initial, &reason, fixed));
    // Half the reason is not enough: the check refuses it.
    assert!(!reason_implies(row, &initial, &reason[..2], fixed));
}
