//! The global constraints inside whole models: at every propagation level and under two
//! strategies, the engine finds exactly the brute-force solutions, with the globals mixed with
//! each other and with the built-ins, and with variables repeated inside a scope.

use crate::common;

use common::{ConstraintRecipe, brute_force, check_every_level_and_strategy, model_specs, scope};
use cspkit::{
    Among, Arithmetic, Circuit, Constraint, Cumulative, Dfa, Disjunctive, Extremum,
    GlobalCardinality, Inverse, LexLessEq, Member, Operation, Product, Regular, Reified, Table,
    VarId,
};
use proptest::collection::vec;
use proptest::prelude::*;

/// A global constraint over variables given by their declaration index (repeats allowed
/// where the field says "any").
#[derive(Debug, Clone)]
enum Global {
    /// Counted variables (any), values, the count variable (any, may be counted too).
    Among(Vec<usize>, Vec<i32>, usize),
    /// Variables (any), values, constant count ranges, closed.
    Cardinality(Vec<usize>, Vec<i32>, Vec<(u32, u32)>, bool),
    /// Variables (any), result (any), maximum or minimum.
    Extremum(Vec<usize>, usize, bool),
    /// x, y, z (any), the operation.
    Arithmetic(usize, usize, usize, Operation),
    /// xs, ys (any), strict.
    Lex(Vec<usize>, Vec<usize>, bool),
    /// f then g: distinct variables.
    Inverse(Vec<usize>),
    /// Distinct successors, node base.
    Circuit(Vec<usize>, i32),
    /// Variables (any), blocks of a Nonogram clue.
    Blocks(Vec<usize>, Vec<usize>),
    /// x, values, b: b ⇔ x ∈ values.
    Member(usize, Vec<i32>, usize),
    /// b ⇔ table over the scope.
    ReifiedTable(Vec<usize>, Vec<Vec<i32>>, usize),
    /// All-different with offsets over variables (any): `x` and `x + 2` both in one scope.
    DifferentWithOffsets(Vec<usize>, Vec<i32>),
    /// Factors (any), the product (any).
    Product(Vec<usize>, usize),
    /// Starts (any), constant durations and demands, constant capacity.
    Cumulative(Vec<usize>, Vec<i32>, Vec<i32>, i32),
    /// Starts (any), durations (any), demands (any), capacity (any): all variables.
    CumulativeOfVariables(Vec<usize>, Vec<usize>, Vec<usize>, usize),
    /// Starts (any), constant durations, strict.
    Disjunctive(Vec<usize>, Vec<i32>, bool),
    /// Starts (any), durations (any), strict.
    DisjunctiveOfVariables(Vec<usize>, Vec<usize>, bool),
}

impl ConstraintRecipe for Global {
    fn build(&self, vars: &[VarId]) -> Box<dyn Constraint> {
        let pick = |indices: &[usize]| -> Vec<VarId> { indices.iter().map(|&i| vars[i]).collect() };
        match self {
            Global::Among(xs, values, count) => {
                Box::new(Among::new(&pick(xs), values, vars[*count]))
            }
            Global::Cardinality(xs, values, bounds, closed) => {
                let gcc = GlobalCardinality::with_bounds(&pick(xs), values, bounds)
                    .expect("one range per value");
                Box::new(if *closed { gcc.closed() } else { gcc })
            }
            Global::Extremum(xs, result, maximum) => Box::new(if *maximum {
                Extremum::maximum(&pick(xs), vars[*result])
            } else {
                Extremum::minimum(&pick(xs), vars[*result])
            }),
            Global::Arithmetic(x, y, z, operation) => {
                Box::new(Arithmetic::new(*operation, vars[*x], vars[*y], vars[*z]))
            }
            Global::Lex(xs, ys, strict) => Box::new(if *strict {
                LexLessEq::strict(&pick(xs), &pick(ys))
            } else {
                LexLessEq::new(&pick(xs), &pick(ys))
            }),
            Global::Inverse(fg) => {
                let (f, g) = fg.split_at(fg.len() / 2);
                Box::new(Inverse::new(&pick(f), &pick(g)).expect("equal halves"))
            }
            Global::Circuit(succ, base) => Box::new(Circuit::with_base(&pick(succ), *base)),
            Global::Blocks(xs, blocks) => Box::new(Regular::new(&pick(xs), Dfa::blocks(blocks))),
            Global::Member(x, values, b) => Box::new(Member::reified(vars[*x], values, vars[*b])),
            Global::DifferentWithOffsets(xs, offsets) => Box::new(
                cspkit::AllDifferent::with_offsets(&pick(xs), offsets).expect("one offset each"),
            ),
            Global::Product(xs, z) => Box::new(Product::new(&pick(xs), vars[*z])),
            Global::Cumulative(starts, durations, demands, capacity) => Box::new(
                Cumulative::new(&pick(starts), durations, demands, *capacity)
                    .expect("one entry per task"),
            ),
            Global::CumulativeOfVariables(starts, durations, demands, capacity) => Box::new(
                Cumulative::with_variables(
                    &pick(starts),
                    &pick(durations),
                    &pick(demands),
                    vars[*capacity],
                )
                .expect("one entry per task"),
            ),
            Global::Disjunctive(starts, durations, strict) => {
                let d = Disjunctive::new(&pick(starts), durations).expect("one entry per task");
                Box::new(if *strict { d.strict() } else { d })
            }
            Global::DisjunctiveOfVariables(starts, durations, strict) => {
                let d = Disjunctive::with_variables(&pick(starts), &pick(durations))
                    .expect("one entry per task");
                Box::new(if *strict { d.strict() } else { d })
            }
            Global::ReifiedTable(xs, tuples, b) => Box::new(Reified::new(
                Table::new(&pick(xs), tuples).expect("tuples of the scope's length"),
                vars[*b],
            )),
        }
    }
}

fn globals(num_variables: usize, _scale: i32) -> impl Strategy<Value = Global> {
    let n = num_variables;
    let vars = move |len: std::ops::RangeInclusive<usize>| vec(0..n, len);
    let values = || vec(-3i32..=5, 1..=3);
    let operation = prop_oneof![
        Just(Operation::Abs),
        Just(Operation::Times),
        Just(Operation::Div),
        Just(Operation::Mod),
        Just(Operation::Pow)
    ];
    prop_oneof![
        (vars(1..=4), values(), 0..n).prop_map(|(xs, v, c)| Global::Among(xs, v, c)),
        (vars(1..=4), values(), any::<bool>()).prop_flat_map(|(xs, mut v, closed)| {
            v.sort_unstable();
            v.dedup();
            let m = v.len();
            (
                Just(xs),
                Just(v),
                vec((0u32..=2, 0u32..=2), m),
                Just(closed),
            )
                .prop_map(|(xs, v, ranges, closed)| {
                    let bounds = ranges.into_iter().map(|(l, d)| (l, l + d)).collect();
                    Global::Cardinality(xs, v, bounds, closed)
                })
        }),
        (vars(1..=4), 0..n, any::<bool>()).prop_map(|(xs, r, max)| Global::Extremum(xs, r, max)),
        (0..n, 0..n, 0..n, operation).prop_map(|(x, y, z, op)| Global::Arithmetic(x, y, z, op)),
        (vars(0..=3), vars(1..=3), any::<bool>()).prop_map(|(xs, ys, s)| Global::Lex(xs, ys, s)),
        scope(n, 2..=n.min(4))
            .prop_filter("an even count", |s| s.len() % 2 == 0)
            .prop_map(Global::Inverse),
        (scope(n, 1..=n.min(5)), -3i32..=1).prop_map(|(s, base)| Global::Circuit(s, base)),
        (vars(1..=5), vec(1usize..=2, 0..=2)).prop_map(|(xs, b)| Global::Blocks(xs, b)),
        (0..n, values(), 0..n).prop_map(|(x, v, b)| Global::Member(x, v, b)),
        scope(n, 1..=n.min(3)).prop_flat_map(move |s| {
            let arity = s.len();
            (Just(s), vec(vec(-3i32..=5, arity), 0..=8), 0..n)
                .prop_map(|(s, t, b)| Global::ReifiedTable(s, t, b))
        }),
        vars(2..=6).prop_flat_map(|xs| {
            let len = xs.len();
            (Just(xs), vec(-3i32..=3, len))
                .prop_map(|(xs, offsets)| Global::DifferentWithOffsets(xs, offsets))
        }),
        (vars(0..=4), 0..n).prop_map(|(xs, z)| Global::Product(xs, z)),
        vars(1..=4).prop_flat_map(|starts| {
            let len = starts.len();
            (
                Just(starts),
                vec(0i32..=3, len),
                vec(0i32..=2, len),
                0i32..=3,
            )
                .prop_map(|(s, d, r, c)| Global::Cumulative(s, d, r, c))
        }),
        vars(1..=2).prop_flat_map(move |starts| {
            let len = starts.len();
            (Just(starts), vec(0..n, len), vec(0..n, len), 0..n)
                .prop_map(|(s, d, r, c)| Global::CumulativeOfVariables(s, d, r, c))
        }),
        vars(1..=4).prop_flat_map(|starts| {
            let len = starts.len();
            (Just(starts), vec(0i32..=3, len), any::<bool>())
                .prop_map(|(s, d, strict)| Global::Disjunctive(s, d, strict))
        }),
        vars(1..=3).prop_flat_map(move |starts| {
            let len = starts.len();
            (Just(starts), vec(0..n, len), any::<bool>())
                .prop_map(|(s, d, strict)| Global::DisjunctiveOfVariables(s, d, strict))
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn every_level_and_strategy_finds_exactly_the_brute_force_solutions(
        spec in model_specs(2..=5, 6, globals)
    ) {
        let (model, _) = spec.build();
        let expected = brute_force(&model);
        if let Some(planted) = &spec.planted {
            prop_assert!(expected.contains(planted), "the planted solution is lost");
        }
        check_every_level_and_strategy(&model, &expected)?;
    }
}

/// A dense model: `n` variables over subsets of `0..n`, where permutations and cycles are
/// common, with one structural global and a second constraint over the same variables.
#[derive(Debug, Clone)]
struct Dense {
    domains: Vec<Vec<i32>>,
    /// 0: circuit, 1: inverse of the two halves, 2: closed cardinality, 3: lex of the halves,
    /// 4: Langford-like, each variable twice in one all-different: `x[k]` and `x[k] + k + 2`.
    kind: u8,
    /// For the cardinality: one range per value `0..n`.
    bounds: Vec<(u32, u32)>,
    /// Also `Among` of the value 0 counted into the last variable.
    among: bool,
}

fn dense() -> impl Strategy<Value = Dense> {
    (2usize..=6, 0u8..5, any::<bool>()).prop_flat_map(|(n, kind, among)| {
        let values: Vec<i32> = (0..n as i32).collect();
        let domain = proptest::sample::subsequence(values, 1..=n);
        (
            vec(domain, n),
            vec((0u32..=1, 0u32..=2), n),
            Just(kind),
            Just(among),
        )
            .prop_map(|(domains, ranges, kind, among)| Dense {
                domains,
                kind,
                bounds: ranges.into_iter().map(|(l, d)| (l, l + d)).collect(),
                among,
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn dense_permutation_models_agree_with_brute_force(spec in dense()) {
        let mut model = cspkit::Model::new();
        let vars: Vec<VarId> = spec
            .domains
            .iter()
            .map(|d| model.new_var(d.clone()).expect("a non-empty domain"))
            .collect();
        let n = vars.len();
        let (front, back) = vars.split_at(n / 2);
        match spec.kind {
            0 => model.post(Circuit::new(&vars)),
            1 if n.is_multiple_of(2) => model.post(Inverse::new(front, back).expect("equal halves")),
            2 => {
                let values: Vec<i32> = (0..n as i32).collect();
                model.post(
                    GlobalCardinality::with_bounds(&vars, &values, &spec.bounds)
                        .expect("a range per value")
                        .closed(),
                )
            }
            3 => model.post(LexLessEq::new(front, back)),
            _ => {
                let twice: Vec<VarId> = vars.iter().flat_map(|&v| [v, v]).collect();
                let offsets: Vec<i32> = (0..n as i32).flat_map(|k| [0, k + 2]).collect();
                model.post(cspkit::AllDifferent::with_offsets(&twice, &offsets).expect("one offset each"))
            }
        }
        .expect("a valid constraint");
        if spec.among {
            model.post(Among::value(&vars, 0, vars[n - 1])).expect("a valid constraint");
        }
        let expected = brute_force(&model);
        check_every_level_and_strategy(&model, &expected)?;
    }
}
