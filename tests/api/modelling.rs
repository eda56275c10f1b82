//! The modelling shortcuts: variables for results (`abs`, `times`, `div`, `modulo`, `pow`,
//! `product`, `min`, `max`, `var_for`), `restrict`, and reification of membership and of any constraint,
//! against their definitions on every pair of values, at every level.

use crate::common;

use common::LEVELS;
use cspkit::{AllDifferent, LinearExpr, Model, ModelError, Operation, Table};
use proptest::collection::btree_set;
use proptest::prelude::*;

fn values() -> impl Strategy<Value = Vec<i32>> {
    btree_set(-6i32..=6, 1..=5).prop_map(|s| s.into_iter().collect())
}

const OPERATIONS: [Operation; 5] = [
    Operation::Abs,
    Operation::Times,
    Operation::Div,
    Operation::Mod,
    Operation::Pow,
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn a_result_variable_takes_exactly_the_defined_results(
        xs in values(), ys in values(), op in 0usize..5,
    ) {
        let operation = OPERATIONS[op];
        let mut model = Model::new();
        let x = model.new_var(xs.clone()).unwrap();
        let y = model.new_var(ys.clone()).unwrap();
        let z = match model.operation(operation, x, y) {
            Ok(z) => z,
            // No pair defines a result (a divisor fixed to 0): nothing to solve.
            Err(ModelError::InvalidDomain { .. }) => {
                prop_assert!(xs.iter().all(|&a| ys.iter().all(|&b| operation.apply(a, b).is_none())));
                return Ok(());
            }
            Err(other) => panic!("{other}"),
        };
        let mut expected: Vec<(i32, i32, i32)> = xs
            .iter()
            .flat_map(|&a| ys.iter().filter_map(move |&b| operation.apply(a, b).map(|c| (a, b, c))))
            .collect();
        expected.sort_unstable();
        for level in LEVELS {
            let mut found: Vec<(i32, i32, i32)> = model
                .solver()
                .with_propagation(level)
                .solutions()
                .map(|s| (s[x], s[y], s[z]))
                .collect();
            found.sort_unstable();
            prop_assert_eq!(&found, &expected, "{} at {:?}", operation, level);
        }
    }

    #[test]
    fn a_product_variable_takes_exactly_the_products(
        factors in proptest::collection::vec(values(), 0..=3), repeat in any::<bool>(),
    ) {
        let mut model = Model::new();
        let mut xs: Vec<_> = factors.iter().map(|d| model.new_var(d.clone()).unwrap()).collect();
        if repeat && !xs.is_empty() {
            xs.push(xs[0]); // x · … · x: a repeated factor
        }
        let z = model.product(&xs).unwrap();
        // Every assignment of the distinct factors, with its product.
        let mut expected: Vec<Vec<i32>> = vec![Vec::new()];
        for d in &factors {
            expected = expected
                .iter()
                .flat_map(|row| d.iter().map(move |&v| [row.clone(), vec![v]].concat()))
                .collect();
        }
        let product = |row: &[i32]| -> i32 {
            xs.iter().map(|x| row[x.index()]).product()
        };
        let mut products: Vec<i32> = expected.iter().map(|row| product(row)).collect();
        products.sort_unstable();
        products.dedup();
        let domain: Vec<i32> = model.domain(z).iter().collect();
        if repeat {
            // Positions are independent factors for the domain: it may hold more.
            prop_assert!(products.iter().all(|p| domain.contains(p)), "{:?} {:?}", domain, products);
        } else {
            prop_assert_eq!(domain, products);
        }
        for row in &mut expected {
            let p = product(row);
            row.push(p);
        }
        expected.sort();
        for level in LEVELS {
            let mut found: Vec<Vec<i32>> = model
                .solver()
                .with_propagation(level)
                .solutions()
                .map(|s| s.values().to_vec())
                .collect();
            found.sort();
            prop_assert_eq!(&found, &expected, "at {:?}", level);
        }
    }

    #[test]
    fn min_max_and_var_for_are_their_definitions(xs in values(), ys in values(), zs in values()) {
        let mut model = Model::new();
        let x = model.new_var(xs).unwrap();
        let y = model.new_var(ys).unwrap();
        let w = model.new_var(zs).unwrap();
        let low = model.min(&[x, y, w]).unwrap();
        let high = model.max(&[x, y, w]).unwrap();
        let difference = model.var_for(x - y + 3).unwrap();
        let gap = model.abs(difference).unwrap();
        for level in LEVELS {
            let mut count = 0;
            for s in model.solver().with_propagation(level).solutions() {
                let (a, b, c) = (s[x], s[y], s[w]);
                prop_assert_eq!(s[low], a.min(b).min(c));
                prop_assert_eq!(s[high], a.max(b).max(c));
                prop_assert_eq!(s[difference], a - b + 3);
                prop_assert_eq!(s[gap], (a - b + 3).abs());
                count += 1;
            }
            // One solution per assignment of x, y, w.
            let expected = model.domain(x).size() * model.domain(y).size() * model.domain(w).size();
            prop_assert_eq!(count, expected);
        }
    }

    #[test]
    fn reified_membership_and_constraints_are_true_exactly_when_they_hold(
        xs in values(), ys in values(), set in values(),
    ) {
        let mut model = Model::new();
        let x = model.new_var(xs).unwrap();
        let y = model.new_var(ys).unwrap();
        let inside = model.reify_in(x, &set).unwrap();
        let different = model.reify_constraint(AllDifferent::new(&[x, y])).unwrap();
        let table = Table::new(&[x, y], &[vec![0, 0], vec![1, -1], vec![2, 3]]).unwrap();
        let listed = model.reify_constraint(table).unwrap();
        let forced = model.new_bool().unwrap();
        model.imply_constraint(forced, cspkit::Relation::new(x, cspkit::Comparison::Lt, y)).unwrap();
        for level in LEVELS {
            let mut count = 0;
            for s in model.solver().with_propagation(level).solutions() {
                let (a, b) = (s[x], s[y]);
                prop_assert_eq!(s[inside.var()] == 1, set.contains(&a));
                prop_assert_eq!(s[different.var()] == 1, a != b);
                prop_assert_eq!(s[listed.var()] == 1, [(0, 0), (1, -1), (2, 3)].contains(&(a, b)));
                prop_assert!(s[forced.var()] == 0 || a < b);
                count += 1;
            }
            let pairs = model.domain(x).size() * model.domain(y).size();
            let below = model.solver().solutions().filter(|s| s[x] < s[y]).count() / 2;
            // `forced` is free where x < y, false elsewhere.
            prop_assert_eq!(count, pairs + below);
        }
    }
}

#[test]
fn restrict_narrows_and_names_the_variable_it_would_empty() {
    let mut model = Model::new();
    let x = model.new_named_var("cell", 1..=9).unwrap();
    model.restrict(x, 3..=20).unwrap();
    model.restrict(x, [1, 3, 5, 7]).unwrap();
    assert_eq!(model.domain(x).iter().collect::<Vec<_>>(), [3, 5, 7]);
    let err = model.restrict(x, [4, 6]).unwrap_err();
    assert!(
        matches!(&err, ModelError::DomainWipeout { variable, .. } if variable == "cell"),
        "{err}"
    );
    // Unchanged by the failed call; wide domains work too.
    assert_eq!(model.domain(x).size(), 3);
    let wide = model.new_var(-2_000_000_000..=2_000_000_000).unwrap();
    model.restrict(wide, -5..=1_999_999_999).unwrap();
    model.restrict(wide, [7, -9, 12]).unwrap();
    assert_eq!(model.domain(wide).iter().collect::<Vec<_>>(), [7, 12]);
    let other = Model::new().new_var(0..=1).unwrap();
    assert!(matches!(
        model.restrict(other, 0..=1),
        Err(ModelError::ForeignVariable { .. })
    ));
}

#[test]
fn display_solution_writes_the_declared_variables_and_display_solution_of_any_list() {
    let mut model = Model::new();
    let x = model.new_named_var("x", 1..=3).unwrap();
    let y = model.new_named_var("y", 1..=3).unwrap();
    let plain = model.new_var(5..=5).unwrap();
    let flag = model.new_named_bool("flag").unwrap();
    // Auxiliary variables, from every kind of shortcut.
    let difference = model.var_for(x - y).unwrap();
    let gap = model.abs(difference).unwrap();
    let top = model.max(&[x, y]).unwrap();
    let product = model.times(x, y).unwrap();
    let equal = model.reify(LinearExpr::from(x).eq(y)).unwrap();
    let inside = model.reify_in(x, &[1]).unwrap();
    model.imply(flag, LinearExpr::from(x).ne(y)).unwrap();
    model.post(LinearExpr::from(gap).eq(2)).unwrap();
    model.post(LinearExpr::from(flag).eq(1)).unwrap();
    let solution = model.solve().solution().unwrap();

    assert_eq!(
        model.display_solution(&solution),
        format!("x = 1, y = 3, {} = 5, flag = 1", model.var_name(plain))
    );
    assert_eq!(
        model.display_solution_of(&solution, &[top, x, equal.var(), product]),
        format!(
            "{} = 3, x = 1, {} = 0, {} = 3",
            model.var_name(top),
            model.var_name(equal.var()),
            model.var_name(product)
        )
    );
    for var in model.variables() {
        let declared = [x, y, plain, flag.var()].contains(&var);
        assert_eq!(
            model.is_auxiliary(var),
            !declared,
            "{}",
            model.var_name(var)
        );
    }
    assert!(model.is_auxiliary(inside.var()) && model.is_auxiliary(difference));
    // A variable of another model is left out, not a panic.
    let foreign = Model::new().new_var(0..=1).unwrap();
    assert_eq!(model.display_solution_of(&solution, &[foreign, y]), "y = 3");
}

#[test]
fn every_name_argument_takes_a_str_a_string_or_a_borrowed_string() {
    let mut model = Model::new();
    let prefix = String::from("row");
    let x = model.new_named_var("x", 0..=1).unwrap();
    let a = model.new_named_var(String::from("a"), 0..=1).unwrap();
    let rows = model.new_named_vars(&prefix, 2, 0..=1).unwrap();
    let cols = model.new_named_vars(format!("col{}", 1), 1, 0..=1).unwrap();
    let cells = model.new_grid("cell", 1, 2, 0..=1).unwrap();
    let more = model.new_grid(prefix.clone() + "s", 1, 1, 0..=1).unwrap();
    let b = model.new_named_bool(&prefix).unwrap();
    let bits = model.new_named_bools("bit", 2).unwrap();
    let flags = model.new_named_bools(String::from("flag"), 1).unwrap();
    model
        .post_named(&prefix, cspkit::NotEqual::new(x, a))
        .unwrap();
    let names: Vec<String> = [x, a, rows[1], cols[0], cells[0][1], more[0][0], b.var()]
        .into_iter()
        .chain([bits[1].var(), flags[0].var()])
        .map(|var| model.var_name(var).into_owned())
        .collect();
    assert_eq!(
        names,
        [
            "x",
            "a",
            "row[1]",
            "col1[0]",
            "cell[0][1]",
            "rows[0][0]",
            "row",
            "bit[1]",
            "flag[0]"
        ]
    );
    assert_eq!(model.new_bools(3).unwrap().len(), 3);
}
