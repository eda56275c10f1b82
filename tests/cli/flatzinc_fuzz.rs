//! A differential fuzz of the FlatZinc front end: random models of the integer builtins over
//! edge values (the ends of the 32-bit range, empty intersections, indices out of range,
//! constants in any argument), every solution listed with `-a` and compared with a brute force
//! written here from the builtins' definitions. A model without solutions must be answered
//! `=====UNSATISFIABLE=====`, never refused as malformed.

use std::collections::BTreeSet;

use cspkit::flatzinc::{self, Options, Status};
use proptest::prelude::*;

/// Values at the edges: the ends of `i32`, around zero, and a few in between.
const EDGES: [i64; 11] = [
    i32::MIN as i64,
    i32::MIN as i64 + 1,
    -65_536,
    -3,
    -1,
    0,
    1,
    2,
    3,
    65_536,
    i32::MAX as i64,
];

/// An argument: one of the model's variables (by index), or a constant.
#[derive(Debug, Clone)]
enum Arg {
    Var(usize),
    Const(i64),
}

/// A builtin's definition: whether it holds for these values of its arguments (false where
/// it is undefined, which no solution may use).
type Definition = fn(&[i64]) -> bool;

/// The builtins: name, number of integer arguments, and definition.
fn builtins() -> Vec<(&'static str, usize, Definition)> {
    vec![
        ("int_eq", 2, |v| v[0] == v[1]),
        ("int_ne", 2, |v| v[0] != v[1]),
        ("int_le", 2, |v| v[0] <= v[1]),
        ("int_lt", 2, |v| v[0] < v[1]),
        ("int_plus", 3, |v| v[0] + v[1] == v[2]),
        ("int_times", 3, |v| v[0] * v[1] == v[2]),
        // Truncating division and its remainder, undefined for a zero divisor.
        ("int_div", 3, |v| v[1] != 0 && v[0] / v[1] == v[2]),
        ("int_mod", 3, |v| v[1] != 0 && v[0] % v[1] == v[2]),
        ("int_abs", 2, |v| v[0].abs() == v[1]),
        ("int_min", 3, |v| v[0].min(v[1]) == v[2]),
        ("int_max", 3, |v| v[0].max(v[1]) == v[2]),
        ("int_pow", 3, |v| {
            u32::try_from(v[1])
                .ok()
                .and_then(|e| i128::from(v[0]).checked_pow(e))
                == Some(i128::from(v[2]))
        }),
    ]
}

/// A random model: up to three variables over small sets of edge values, and one or two
/// calls, plain or reified, among them a linear one, an element and a set membership.
#[derive(Debug, Clone)]
struct RandomModel {
    domains: Vec<Vec<i64>>,
    text: String,
    /// The constraints, as a test of an assignment.
    calls: Vec<Checked>,
}

#[derive(Debug, Clone)]
enum Checked {
    Builtin {
        definition: Definition,
        args: Vec<Arg>,
        /// `b ⇔ call`, with `b` the variable of this index (0/1).
        reified: Option<usize>,
    },
    Linear {
        coefficients: Vec<i64>,
        args: Vec<Arg>,
        rhs: i64,
    },
    Element {
        index: Arg,
        array: Vec<i64>,
        value: Arg,
    },
    SetIn {
        x: Arg,
        set: Vec<i64>,
    },
}

fn value_of(arg: &Arg, values: &[i64]) -> i64 {
    match arg {
        Arg::Var(i) => values[*i],
        Arg::Const(c) => *c,
    }
}

impl Checked {
    fn holds(&self, values: &[i64]) -> bool {
        match self {
            Checked::Builtin {
                definition,
                args,
                reified,
            } => {
                let v: Vec<i64> = args.iter().map(|a| value_of(a, values)).collect();
                let holds = definition(&v);
                match reified {
                    None => holds,
                    Some(b) => (values[*b] == 1) == holds,
                }
            }
            Checked::Linear {
                coefficients,
                args,
                rhs,
            } => {
                let sum: i128 = coefficients
                    .iter()
                    .zip(args)
                    .map(|(&a, x)| i128::from(a) * i128::from(value_of(x, values)))
                    .sum();
                sum == i128::from(*rhs)
            }
            Checked::Element {
                index,
                array,
                value,
            } => {
                let i = value_of(index, values);
                (1..=array.len() as i64).contains(&i)
                    && array[(i - 1) as usize] == value_of(value, values)
            }
            Checked::SetIn { x, set } => set.contains(&value_of(x, values)),
        }
    }
}

fn text_of(arg: &Arg) -> String {
    match arg {
        Arg::Var(i) => format!("x{i}"),
        Arg::Const(c) => c.to_string(),
    }
}

fn edge_set(max: usize) -> impl Strategy<Value = Vec<i64>> {
    proptest::sample::subsequence(EDGES.to_vec(), 1..=max)
}

fn arg(vars: usize) -> impl Strategy<Value = Arg> {
    prop_oneof![
        3 => (0..vars).prop_map(Arg::Var),
        1 => proptest::sample::select(EDGES.to_vec()).prop_map(Arg::Const),
    ]
}

fn random_model() -> impl Strategy<Value = RandomModel> {
    let domains = proptest::collection::vec(edge_set(3), 1..=3);
    domains
        .prop_flat_map(|domains| {
            let vars = domains.len();
            let call = (
                0..builtins().len(),
                proptest::collection::vec(arg(vars), 3),
                any::<bool>(),
                proptest::collection::vec(-2i64..=2, 3),
                proptest::sample::select(EDGES.to_vec()),
                edge_set(3),
                0..4u8,
            );
            (Just(domains), proptest::collection::vec(call, 1..=2))
        })
        .prop_map(|(domains, calls)| {
            let mut text = String::new();
            for (i, domain) in domains.iter().enumerate() {
                let set: Vec<String> = domain.iter().map(ToString::to_string).collect();
                text.push_str(&format!(
                    "var {{{}}}: x{i} :: output_var;\n",
                    set.join(", ")
                ));
            }
            let mut domains = domains;
            let mut checked = Vec::new();
            for (k, (builtin, args, reify, coefficients, rhs, set, kind)) in
                calls.into_iter().enumerate()
            {
                let (name, arity, definition) = builtins()[builtin];
                match kind {
                    0 | 1 => {
                        let args: Vec<Arg> = args[..arity].to_vec();
                        let listed: Vec<String> = args.iter().map(text_of).collect();
                        // Only the comparisons have reified forms.
                        let reified = reify && arity == 2 && name != "int_abs";
                        if reified {
                            let b = domains.len();
                            domains.push(vec![0, 1]);
                            text.push_str(&format!("var bool: x{b} :: output_var;\n"));
                            text.push_str(&format!(
                                "constraint {name}_reif({}, x{b});\n",
                                listed.join(", ")
                            ));
                            checked.push(Checked::Builtin {
                                definition,
                                args,
                                reified: Some(b),
                            });
                        } else {
                            text.push_str(&format!("constraint {name}({});\n", listed.join(", ")));
                            checked.push(Checked::Builtin {
                                definition,
                                args,
                                reified: None,
                            });
                        }
                    }
                    2 => {
                        let listed: Vec<String> = args.iter().map(text_of).collect();
                        let coefficients: Vec<String> =
                            coefficients.iter().map(ToString::to_string).collect();
                        let rhs = if k == 0 { rhs } else { 0 };
                        text.push_str(&format!(
                            "constraint int_lin_eq([{}], [{}], {rhs});\n",
                            coefficients.join(", "),
                            listed.join(", ")
                        ));
                        checked.push(Checked::Linear {
                            coefficients: coefficients.iter().map(|c| c.parse().unwrap()).collect(),
                            args,
                            rhs,
                        });
                    }
                    _ if reify => {
                        let array: Vec<i64> = set.clone();
                        let listed: Vec<String> = array.iter().map(ToString::to_string).collect();
                        text.push_str(&format!(
                            "constraint array_int_element({}, [{}], {});\n",
                            text_of(&args[0]),
                            listed.join(", "),
                            text_of(&args[1])
                        ));
                        checked.push(Checked::Element {
                            index: args[0].clone(),
                            array,
                            value: args[1].clone(),
                        });
                    }
                    _ => {
                        let listed: Vec<String> = set.iter().map(ToString::to_string).collect();
                        text.push_str(&format!(
                            "constraint set_in({}, {{{}}});\n",
                            text_of(&args[0]),
                            listed.join(", ")
                        ));
                        checked.push(Checked::SetIn {
                            x: args[0].clone(),
                            set,
                        });
                    }
                }
            }
            text.push_str("solve satisfy;\n");
            RandomModel {
                domains,
                text,
                calls: checked,
            }
        })
}

/// Every solution by brute force, each written as `-a` prints it.
fn expected(model: &RandomModel) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut values = vec![0i64; model.domains.len()];
    fn go(model: &RandomModel, i: usize, values: &mut Vec<i64>, found: &mut BTreeSet<String>) {
        if i == model.domains.len() {
            if model.calls.iter().all(|c| c.holds(values)) {
                found.insert(show(model, values));
            }
            return;
        }
        for &v in &model.domains[i] {
            values[i] = v;
            go(model, i + 1, values, found);
        }
    }
    go(model, 0, &mut values, &mut found);
    found
}

fn show(model: &RandomModel, values: &[i64]) -> String {
    let mut out = String::new();
    for (i, v) in values.iter().enumerate() {
        // The booleans of reified calls are printed as booleans.
        let is_bool = model.text.contains(&format!("var bool: x{i} "));
        if is_bool {
            out.push_str(&format!("x{i} = {};\n", *v == 1));
        } else {
            out.push_str(&format!("x{i} = {v};\n"));
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn every_builtin_over_edge_values_answers_as_brute_force(model in random_model()) {
        let items = flatzinc::parse(&model.text).expect("the generated model parses");
        let built = flatzinc::build(&items);
        prop_assert!(built.is_ok(), "{}\nrefused: {:?}", model.text, built.err());
        let built = built.unwrap();
        let mut out = Vec::new();
        let options = Options { all: true, ..Options::default() };
        let status = flatzinc::run(&built, &options, &mut out).expect("runs");
        let out = String::from_utf8(out).unwrap();
        let found: Vec<String> = out
            .split("----------\n")
            .filter(|block| block.contains(" = "))
            .map(str::to_owned)
            .collect();
        let distinct: BTreeSet<String> = found.iter().cloned().collect();
        prop_assert_eq!(distinct.len(), found.len(), "a solution printed twice:\n{}", model.text);
        let expected = expected(&model);
        prop_assert_eq!(&distinct, &expected, "{}", model.text);
        if expected.is_empty() {
            prop_assert_eq!(status, Status::Unsatisfiable, "{}", model.text);
            prop_assert_eq!(out.as_str(), "=====UNSATISFIABLE=====\n", "{}", model.text);
        } else {
            prop_assert_eq!(status, Status::Complete, "{}", model.text);
            prop_assert!(out.ends_with("==========\n"), "{}", model.text);
        }
    }
}

/// A model of `n` variables over `0..=2` with `int_ne` and `int_lin_le` calls, searched by
/// two `int_search` groups in `input_order`: the variables of `order` split at `split`, the
/// first group with `indomain_min`. Returns the text and the constraints as a test.
fn ordered_model(
    n: usize,
    order: &[usize],
    split: usize,
    pairs: &[(usize, usize)],
    sums: &[(usize, usize, i64)],
) -> (String, impl Fn(&[i64]) -> bool) {
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!("var 0..2: x{i} :: output_var;\n"));
    }
    let pairs: Vec<(usize, usize)> = pairs
        .iter()
        .map(|&(a, b)| (a % n, b % n))
        .filter(|(a, b)| a != b)
        .collect();
    let sums: Vec<(usize, usize, i64)> = sums.iter().map(|&(a, b, c)| (a % n, b % n, c)).collect();
    for &(a, b) in &pairs {
        text.push_str(&format!("constraint int_ne(x{a}, x{b});\n"));
    }
    for &(a, b, c) in &sums {
        text.push_str(&format!(
            "constraint int_lin_le([1, 1], [x{a}, x{b}], {c});\n"
        ));
    }
    let names = |vars: &[usize]| {
        let names: Vec<String> = vars.iter().map(|i| format!("x{i}")).collect();
        names.join(", ")
    };
    let (first, second) = order.split_at(split.min(order.len()));
    text.push_str(&format!(
        "solve :: seq_search([int_search([{}], input_order, indomain_min, complete), \
         int_search([{}], input_order, indomain_min, complete)]) satisfy;\n",
        names(first),
        names(second)
    ));
    let holds = move |values: &[i64]| {
        pairs.iter().all(|&(a, b)| values[a] != values[b])
            && sums.iter().all(|&(a, b, c)| values[a] + values[b] <= c)
    };
    (text, holds)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The search annotations' input order keeps, down each path, where the choice above it
    /// found its variable: the solutions must still come in the lexicographic order of the
    /// annotated variable order, every one of them, as a plain depth-first search lists them.
    #[test]
    fn annotated_input_order_lists_solutions_in_lexicographic_order(
        order in Just((0..7).collect::<Vec<usize>>()).prop_shuffle(),
        split in 0usize..8,
        pairs in proptest::collection::vec((0usize..7, 0usize..7), 0..6),
        sums in proptest::collection::vec((0usize..7, 0usize..7, 0i64..4), 0..4),
    ) {
        let n = 7;
        let (text, holds) = ordered_model(n, &order, split, &pairs, &sums);
        let items = flatzinc::parse(&text).expect("the generated model parses");
        let built = flatzinc::build(&items).expect("builds");
        let mut out = Vec::new();
        let options = Options { all: true, ..Options::default() };
        flatzinc::run(&built, &options, &mut out).expect("runs");
        let out = String::from_utf8(out).unwrap();
        let found: Vec<Vec<i64>> = out
            .split("----------\n")
            .filter(|block| block.contains(" = "))
            .map(|block| {
                let mut values = vec![0; n];
                for line in block.lines() {
                    let (name, value) = line.trim_end_matches(';').split_once(" = ").unwrap();
                    values[name[1..].parse::<usize>().unwrap()] = value.parse().unwrap();
                }
                // In the annotation's order, to compare lexicographically.
                order.iter().map(|&i| values[i]).collect()
            })
            .collect();
        let mut expected = Vec::new();
        for code in 0..3usize.pow(n as u32) {
            let values: Vec<i64> = (0..n).map(|i| (code / 3usize.pow(i as u32) % 3) as i64).collect();
            if holds(&values) {
                expected.push(order.iter().map(|&i| values[i]).collect::<Vec<i64>>());
            }
        }
        expected.sort();
        prop_assert_eq!(found, expected, "{}", text);
    }
}

const VAR_CHOICES: [&str; 8] = [
    "input_order",
    "first_fail",
    "anti_first_fail",
    "smallest",
    "largest",
    "dom_w_deg",
    "most_constrained",
    "occurrence",
];
const VALUE_CHOICES: [&str; 6] = [
    "indomain_min",
    "indomain_max",
    "indomain_median",
    "indomain_split",
    "indomain_reverse_split",
    "indomain_random",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// Every variable and value choice of a search annotation, and free search (dom/wdeg with
    /// restarts, also what a model without annotations gets), list every solution once.
    #[test]
    fn every_search_annotation_and_free_search_list_every_solution_once(
        order in Just((0..6).collect::<Vec<usize>>()).prop_shuffle(),
        split in 0usize..7,
        choices in (0usize..8, 0usize..6, 0usize..8, 0usize..6),
        pairs in proptest::collection::vec((0usize..6, 0usize..6), 0..6),
        sums in proptest::collection::vec((0usize..6, 0usize..6, 0i64..4), 0..4),
        search in 0usize..3,
    ) {
        let n = 6;
        let (text, holds) = ordered_model(n, &order, split, &pairs, &sums);
        let (model, _) = text.rsplit_once("solve ").expect("a solve item");
        let names = |vars: &[usize]| -> String {
            vars.iter().map(|i| format!("x{i}")).collect::<Vec<_>>().join(", ")
        };
        let (first, second) = order.split_at(split.min(order.len()));
        let solve = match search {
            // Two annotated groups, whatever their choices.
            0 | 1 => format!(
                "solve :: seq_search([int_search([{}], {}, {}, complete), \
                 int_search([{}], {}, {}, complete)]) satisfy;\n",
                names(first), VAR_CHOICES[choices.0], VALUE_CHOICES[choices.1],
                names(second), VAR_CHOICES[choices.2], VALUE_CHOICES[choices.3],
            ),
            // No annotation: free search.
            _ => "solve satisfy;\n".to_owned(),
        };
        let text = format!("{model}{solve}");
        let items = flatzinc::parse(&text).expect("the generated model parses");
        let built = flatzinc::build(&items).expect("builds");
        let mut out = Vec::new();
        let options = Options { all: true, free: search == 1, ..Options::default() };
        flatzinc::run(&built, &options, &mut out).expect("runs");
        let out = String::from_utf8(out).unwrap();
        let mut found: Vec<Vec<i64>> = out
            .split("----------\n")
            .filter(|block| block.contains(" = "))
            .map(|block| {
                let mut values = vec![0; n];
                for line in block.lines() {
                    let (name, value) = line.trim_end_matches(';').split_once(" = ").unwrap();
                    values[name[1..].parse::<usize>().unwrap()] = value.parse().unwrap();
                }
                values
            })
            .collect();
        found.sort();
        let expected: Vec<Vec<i64>> = (0..3usize.pow(n as u32))
            .map(|code| (0..n).map(|i| (code / 3usize.pow(i as u32) % 3) as i64).collect())
            .filter(|values: &Vec<i64>| holds(values))
            .collect();
        let mut expected = expected;
        expected.sort();
        prop_assert_eq!(found, expected, "{}", text);
    }
}

#[test]
fn indomain_split_in_every_group_bisects() {
    let text = "var 0..9: x :: output_var;\nvar 0..9: y :: output_var;\n\
                constraint int_lin_eq([1, 1], [x, y], 9);\n\
                solve :: int_search([x, y], dom_w_deg, indomain_split, complete) satisfy;\n";
    let built = flatzinc::build(&flatzinc::parse(text).unwrap()).unwrap();
    assert_eq!(built.branching(), cspkit::Branching::Split);
    let mixed = text.replace(
        "int_search([x, y], dom_w_deg, indomain_split, complete)",
        "seq_search([int_search([x], input_order, indomain_split, complete), \
         int_search([y], input_order, indomain_min, complete)])",
    );
    let built = flatzinc::build(&flatzinc::parse(&mixed).unwrap()).unwrap();
    assert_eq!(built.branching(), cspkit::Branching::Assign);
}
