//! Variables wider than a bitset (`Domain::MAX_SPAN` values and more): bound reasoning, search
//! and the value-visiting constraints stay fast and exact when a variable is declared over a
//! billion values or the whole `i32` range. Every answer is checked against a count worked out
//! by hand in the test's comment, or against the same model over narrow domains.

use std::time::Duration;

use cspkit::{
    AllDifferent, Ascending, Branching, Comparison, Distance, Domain, Element, InputOrder,
    LinearExpr, MiddleOut, Model, PropagationLevel, RandomValue, Relation, Table, ValueOrder,
    VarId,
};

const BILLION: i32 = 1_000_000_000;
/// Counts the solutions at `Full` (bounds and domain reasoning: `None` and `Forward` wait for
/// variables to be fixed, so a search at those levels enumerates a wide domain value by value,
/// as a textbook backtracker would) and at the other `levels`, with both branchings; all must
/// agree, and the decision limit makes a search that enumerates a wide domain fail, not hang.
fn count_everywhere(model: &Model, levels: &[PropagationLevel]) -> u64 {
    let mut counts = Vec::new();
    for &level in [PropagationLevel::Full].iter().chain(levels) {
        for branching in [Branching::Assign, Branching::Split] {
            let mut solver = model
                .solver()
                .with_propagation(level)
                .with_branching(branching)
                .with_decision_limit(100_000)
                .with_time_limit(Duration::from_secs(20));
            let count = solver.count();
            assert!(count.is_exact(), "{level:?} {branching:?}: {count:?}");
            counts.push(count.solutions);
        }
    }
    assert!(counts.windows(2).all(|w| w[0] == w[1]), "{counts:?}");
    counts[0]
}

fn wide(model: &mut Model) -> VarId {
    model.new_var(0..=BILLION).unwrap()
}

#[test]
fn a_billion_values_are_one_variable_and_bounds_reasoning_fixes_it() {
    let mut model = Model::new();
    let (x, y) = (wide(&mut model), wide(&mut model));
    assert_eq!(model.domain(x).size(), BILLION as usize + 1);
    // x = 3y + 7, y >= 123456789, x <= 370370375: only y = 123456789 fits.
    model
        .post(LinearExpr::from(x).eq(LinearExpr::new(&[(3, y)], 7)))
        .unwrap();
    model.post(LinearExpr::from(y).ge(123_456_789)).unwrap();
    model.post(LinearExpr::from(x).le(370_370_375)).unwrap();
    assert_eq!(count_everywhere(&model, &[]), 1);
    let solution = model.solve().solution().unwrap();
    assert_eq!((solution[x], solution[y]), (370_370_374, 123_456_789));
}

#[test]
fn sums_over_wide_domains_count_exactly() {
    // x + y = 5 over 0..=1e9: six solutions, once the bounds are cut to 0..=5.
    let mut model = Model::new();
    let (x, y) = (wide(&mut model), wide(&mut model));
    model.post(LinearExpr::sum(&[x, y]).eq(5)).unwrap();
    assert_eq!(count_everywhere(&model, &[]), 6);

    // x + y >= 2e9 - 1 at the top of the range: (1e9, 1e9), (1e9, 1e9 - 1), (1e9 - 1, 1e9).
    let mut model = Model::new();
    let (x, y) = (wide(&mut model), wide(&mut model));
    model
        .post(LinearExpr::sum(&[x, y]).ge(2 * BILLION - 1))
        .unwrap();
    assert_eq!(count_everywhere(&model, &[]), 3);
}

#[test]
fn all_different_over_the_whole_i32_range_with_narrow_neighbours() {
    // a, b in {0, 1}; c anything; all different, and c <= 2, c >= 0: c = 2, (a, b) either way.
    let mut model = Model::new();
    let a = model.new_var(0..=1).unwrap();
    let b = model.new_var(0..=1).unwrap();
    let c = model.new_var(i32::MIN..=i32::MAX).unwrap();
    model.post(AllDifferent::new(&[a, b, c])).unwrap();
    model.post(LinearExpr::from(c).le(2)).unwrap();
    model.post(LinearExpr::from(c).ge(0)).unwrap();
    assert_eq!(count_everywhere(&model, &[]), 2);
    // Without the bounds on c, forward checking would enumerate it; with c fixed first it is
    // enough at every level.
    let mut model = Model::new();
    let c = model.new_var(i32::MIN..=i32::MAX).unwrap();
    let a = model.new_var(0..=1).unwrap();
    let b = model.new_var(0..=1).unwrap();
    model.post(AllDifferent::new(&[a, b, c])).unwrap();
    model.post(LinearExpr::from(c).eq(1)).unwrap();
    assert_eq!(
        count_everywhere(&model, &[PropagationLevel::Forward]),
        0,
        "c = 1 leaves a and b one value between them"
    );

    // Régin prunes {0, 1} from the wide variable at the root, before any bound is known.
    let mut model = Model::new();
    let a = model.new_var(0..=1).unwrap();
    let b = model.new_var(0..=1).unwrap();
    let c = model.new_var(0..=BILLION).unwrap();
    model.post(AllDifferent::new(&[a, b, c])).unwrap();
    let mut solver = model
        .solver()
        .with_propagation(PropagationLevel::Full)
        .with_variable_order(InputOrder)
        .with_value_order(Ascending);
    let first = solver.next_solution().solution().unwrap();
    assert_eq!((first[a], first[b], first[c]), (0, 1, 2));
    assert_eq!(solver.stats().failures, 0);
}

#[test]
fn value_visiting_constraints_narrow_a_wide_variable_from_the_narrow_side() {
    // Each pairs a wide variable with a narrow one; a search that visited the wide domain's
    // values would hit the decision limit of `count_everywhere`.
    type Post = Box<dyn Fn(&mut Model, VarId, VarId)>;
    let cases: Vec<(&str, Post, u64)> = vec![
        (
            "x = y + 1000 (relation)",
            Box::new(|m, x, y| {
                m.post(Relation::with_offset(x, Comparison::Eq, y, 1000))
                    .unwrap();
            }),
            10,
        ),
        (
            "|x - y| = 5 (distance)",
            // y in 0..=9 and x may be negative: x = y + 5 or x = y - 5, ten each.
            Box::new(|m, x, y| {
                m.post(Distance::new(x, y, Comparison::Eq, 5)).unwrap();
            }),
            20,
        ),
        (
            "(x, y) in a table",
            Box::new(|m, x, y| {
                let rows = [[7, 1], [BILLION, 2], [3, 3]];
                m.post(Table::new(&[x, y], rows).unwrap()).unwrap();
            }),
            3,
        ),
        (
            "x = [5, 6, 7, ...][y] (element)",
            Box::new(|m, x, y| {
                let array: Vec<i32> = (5..15).collect();
                m.post(Element::new(&array, y, x)).unwrap();
            }),
            10,
        ),
    ];
    for (name, post, expected) in cases {
        let mut model = Model::new();
        let x = model.new_var(-BILLION..=BILLION).unwrap();
        let y = model.new_var(0..=9).unwrap();
        post(&mut model, x, y);
        assert_eq!(count_everywhere(&model, &[]), expected, "{name}");
    }
}

#[test]
fn every_value_order_picks_a_value_of_a_wide_domain_without_visiting_them_all() {
    let mut model = Model::new();
    let x = model.new_var(0..=BILLION).unwrap();
    let y = model.new_var(0..=BILLION).unwrap();
    model.post(Relation::new(x, Comparison::Lt, y)).unwrap();
    let first = |order: Box<dyn ValueOrder>| {
        let mut solver = model
            .solver()
            .with_variable_order(InputOrder)
            .with_value_order(order);
        let s = solver.next_solution().solution().unwrap();
        assert!(s[x] < s[y]);
        assert!(solver.stats().decisions < 10, "{:?}", solver.stats());
        (s[x], s[y])
    };
    assert_eq!(first(Box::new(Ascending)), (0, 1));
    let (mx, _) = first(Box::new(MiddleOut));
    assert!((BILLION / 2 - 1..=BILLION / 2 + 1).contains(&mx), "{mx}");
    let random = first(Box::new(RandomValue::new(3)));
    assert_eq!(
        first(Box::new(RandomValue::new(3))),
        random,
        "the same seed, the same values"
    );
}

#[test]
fn values_scattered_over_the_whole_range_are_a_domain() {
    let mut model = Model::new();
    let x = model
        .new_named_var("p[0]", [BILLION, 7, i32::MIN, 0, BILLION])
        .unwrap();
    assert_eq!(
        model.domain(x).to_string(),
        "{-2147483648, 0, 7, 1000000000}"
    );
    let y = model.new_var(0..=9).unwrap();
    // x >= 8 leaves x = 1e9; x - 999999991 = y then fixes y = 9.
    model.post(LinearExpr::from(x).ge(8)).unwrap();
    model
        .post(Relation::with_offset(x, Comparison::Eq, y, 999_999_991))
        .unwrap();
    assert_eq!(count_everywhere(&model, &[]), 1);
    let solution = model.solve().solution().unwrap();
    assert_eq!((solution[x], solution[y]), (BILLION, 9));
    // A range with holes over more than a bitset's span.
    let values: Vec<i32> = (0..=2_000_000).filter(|v| v % 1000 != 0).collect();
    let d = Domain::from_values(values).unwrap();
    assert_eq!(d.size(), 2_000_001 - 2001);
    assert_eq!(d.below(2000), Some(1999));
}

/// `x · x ≤ 400` over the whole `i32` range: the product of a variable with itself bounds it
/// (41 solutions, `−20..=20`), where two independent factors would leave it unbounded.
#[test]
fn a_square_bounds_its_variable() {
    let mut model = Model::new();
    let x = model.new_var(i32::MIN..=i32::MAX).unwrap();
    let square = model.new_var(i32::MIN..=400).unwrap();
    model.post(cspkit::Arithmetic::times(x, x, square)).unwrap();
    assert_eq!(count_everywhere(&model, &[]), 41);
    let mut solver = model.solver();
    let first = solver.next_solution().solution().unwrap();
    assert_eq!((first[x], first[square]), (-20, 400));
    // No value of the square is reachable below 100 once |x| ≥ 10 is asked for.
    let mut model = Model::new();
    let x = model.new_var(i32::MIN..=i32::MAX).unwrap();
    let square = model.new_var(100..=i32::MAX).unwrap();
    model.post(cspkit::Arithmetic::times(x, x, square)).unwrap();
    model.post(LinearExpr::from(x).le(1000)).unwrap();
    model.post(LinearExpr::from(x).ge(-1000)).unwrap();
    assert_eq!(count_everywhere(&model, &[]), 2 * (1000 - 10 + 1));
}

#[test]
fn a_congruence_over_a_wide_domain_rounds_its_bounds_and_splits_to_every_solution() {
    // `x mod 97 = 0` over 1..=300000 (MiniZinc's `int_mod`, as in the Challenge's evilshop):
    // the bounds move to 97 and 3092 · 97 = 299924; the values between keep their holes to
    // the search rather than thousands of them at once.
    let mut model = Model::new();
    let x = model.new_var(1..=300_000).unwrap();
    let (modulus, zero) = (
        model.new_var(97..=97).unwrap(),
        model.new_var(0..=0).unwrap(),
    );
    model
        .post(cspkit::Arithmetic::modulo(x, modulus, zero))
        .unwrap();
    for level in [PropagationLevel::Forward, PropagationLevel::Full] {
        let root = crate::common::root_domains(&model, level).unwrap();
        let x_root = &root[x.index()];
        assert_eq!(x_root.first(), Some(&97), "{level:?}");
        assert_eq!(x_root.last(), Some(&299_924), "{level:?}");
        let mut solver = model.solver().with_propagation(level);
        let first = solver.next_solution().solution().unwrap();
        assert_eq!(first[x], 97, "{level:?}");
    }
    let mut solver = model
        .solver()
        .with_propagation(PropagationLevel::Full)
        .with_branching(Branching::Split)
        .with_decision_limit(100_000);
    let count = solver.count();
    assert!(count.is_exact());
    assert_eq!(count.solutions, 3092, "the multiples of 97 up to 300000");
}

#[test]
fn a_congruence_filters_a_domain_that_another_constraint_narrowed() {
    // `x mod 7 = 3` over 0..=1000 moves only the bounds at first (too many values to filter one
    // by one); `x ≤ y` with y = 200 then narrows x, and the congruence, woken by that change
    // alone, filters the 198 values left to those ≡ 3 (mod 7).
    let mut model = Model::new();
    let x = model.new_var(0..=1000).unwrap();
    let (seven, three) = (model.new_var(7..=7).unwrap(), model.new_var(3..=3).unwrap());
    let y = model.new_var(200..=200).unwrap();
    model
        .post(cspkit::Arithmetic::modulo(x, seven, three))
        .unwrap();
    model.post(Relation::new(x, Comparison::Le, y)).unwrap();
    let root = crate::common::root_domains(&model, PropagationLevel::Full).unwrap();
    let expected: Vec<i32> = (3..=200).step_by(7).collect();
    assert_eq!(
        root[x.index()].iter().copied().collect::<Vec<_>>(),
        expected
    );
}
