//! Constraints over views ([`IntView`]: `a·x + b`): every solution found at every propagation
//! level, against an oracle that knows nothing of views but the arithmetic.

use cspkit::{AllDifferent, Branching, IntView, Model, PropagationLevel};
use proptest::collection::{btree_set, vec};
use proptest::prelude::*;

/// Every assignment of `domains`, in lexicographic order, whose view values are distinct.
fn brute_force(domains: &[Vec<i32>], views: &[(i32, i32)]) -> Vec<Vec<i32>> {
    let mut out = Vec::new();
    let mut current = Vec::new();
    fn go(
        k: usize,
        domains: &[Vec<i32>],
        views: &[(i32, i32)],
        current: &mut Vec<i32>,
        out: &mut Vec<Vec<i32>>,
    ) {
        if k == domains.len() {
            let mut keys: Vec<i64> = current
                .iter()
                .zip(views)
                .map(|(&v, &(a, b))| i64::from(a) * i64::from(v) + i64::from(b))
                .collect();
            keys.sort_unstable();
            if keys.windows(2).all(|w| w[0] != w[1]) {
                out.push(current.clone());
            }
            return;
        }
        for &v in &domains[k] {
            current.push(v);
            go(k + 1, domains, views, current, out);
            current.pop();
        }
    }
    go(0, domains, views, &mut current, &mut out);
    out
}

fn view_spec() -> impl Strategy<Value = (i32, i32)> {
    (prop_oneof![-3i32..=-1, 1i32..=3], -4i32..=4)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn all_different_over_views_finds_exactly_the_solutions(
        specs in vec((btree_set(-5i32..=5, 1..6), view_spec()), 2..6),
        wide in any::<bool>(),
    ) {
        // Spread the values over more than 64 integers half the time (the general paths).
        let stretch = if wide { 40 } else { 1 };
        let domains: Vec<Vec<i32>> = specs
            .iter()
            .map(|(values, _)| values.iter().map(|v| v * stretch).collect())
            .collect();
        let views: Vec<(i32, i32)> = specs.iter().map(|(_, view)| *view).collect();
        let expected = brute_force(&domains, &views);
        let mut model = Model::new();
        let vars: Vec<_> = domains.iter().map(|d| model.new_var(d.clone()).unwrap()).collect();
        let over: Vec<IntView> = vars
            .iter()
            .zip(&views)
            .map(|(&x, &(a, b))| x.scale(a).offset(b))
            .collect();
        model.post(AllDifferent::over_views(&over).unwrap()).unwrap();
        for level in [PropagationLevel::None, PropagationLevel::Forward, PropagationLevel::Full] {
            for branching in [Branching::Assign, Branching::Split] {
                let found: Vec<Vec<i32>> = model
                    .solver()
                    .with_propagation(level)
                    .with_branching(branching)
                    .solutions()
                    .map(|s| s.values().to_vec())
                    .collect();
                prop_assert_eq!(&found, &expected, "{:?} {:?}", level, branching);
            }
        }
    }
}

#[test]
fn the_queens_diagonals_as_offset_views_keep_the_counts() {
    // Placements of n queens, n = 1..=9 (OEIS A000170).
    let counts = [1, 0, 0, 2, 10, 4, 40, 92, 352];
    for (n, &expected) in (1..).zip(&counts) {
        let queens = cspkit::models::queens::Queens::new(n).unwrap();
        assert_eq!(queens.count(), expected, "{n} queens");
    }
}

/// The constraint of `model` posted with the label `name`.
fn constraint_named<'m>(model: &'m Model, name: &str) -> &'m dyn cspkit::Constraint {
    model
        .constraints()
        .find(|&(id, _)| model.constraint_name(id) == name)
        .map(|(_, constraint)| constraint)
        .unwrap_or_else(|| panic!("no constraint named {name}"))
}

/// Matrix convention: queens at (1, 1) and (2, 2) share a diagonal (`q[i] − i`), queens at
/// (1, 2) and (2, 1) an anti-diagonal (`q[i] + i`); both N-Queens models name them so.
#[test]
fn the_queens_constraints_name_diagonals_and_anti_diagonals_as_a_matrix_does() {
    use cspkit::models::queens::Queens;
    let queens = Queens::new(4).unwrap();
    let model = queens.model();
    let diagonals = constraint_named(model, "diagonals");
    let anti_diagonals = constraint_named(model, "anti-diagonals");
    // Queens on the main diagonal, then on the main anti-diagonal.
    assert!(!diagonals.check(&[1, 2, 3, 4]) && anti_diagonals.check(&[1, 2, 3, 4]));
    assert!(diagonals.check(&[4, 3, 2, 1]) && !anti_diagonals.check(&[4, 3, 2, 1]));

    let pairwise = Queens::pairwise(4).unwrap();
    let model = pairwise.model();
    let diagonal = constraint_named(model, "rows 1 and 2: diagonal");
    let anti_diagonal = constraint_named(model, "rows 1 and 2: anti-diagonal");
    assert!(!diagonal.check(&[1, 2]) && anti_diagonal.check(&[1, 2]));
    assert!(diagonal.check(&[2, 1]) && !anti_diagonal.check(&[2, 1]));
}

#[test]
fn views_that_leave_the_i32_range_are_refused_by_name() {
    let mut model = Model::new();
    let x = model.new_var(0..=3).unwrap();
    let huge = x.scale(i32::MAX).scale(4);
    let error = AllDifferent::over_views(&[huge, x.into()]).unwrap_err();
    assert!(error.to_string().contains("factor"), "{error}");
}
