//! Property tests of the arithmetic constraints (`Linear`, `Relation`, `Distance`) and of
//! `LinearExpr`, against brute force on small random instances.
//!
//! The oracle never uses the constraints' own arithmetic: [`Recipe::holds`] restates each rule
//! directly, and the checkers are first tested against it. The last tests run the crate's
//! conformance kit on each constraint, and assert the consistency the documentation claims.

use crate::common;

use std::collections::BTreeSet;

use common::{
    ConstraintRecipe, LEVELS, ModelSpec, brute_force, collect_solutions, domain, model_specs,
    root_domains, scale, scope, supported_values,
};
use cspkit::conformance::{ConformanceReport, ConformanceTest, SplitMix64};
use cspkit::{
    Comparison, Constraint, Distance, Linear, LinearExpr, Model, PropagationLevel, Relation,
    SmallestDomain, VarId,
};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;

/// One arithmetic constraint; variables are indices in declaration order.
#[derive(Debug, Clone)]
enum Recipe {
    /// `Σ aᵢ·x_vᵢ op c`, variables possibly repeated, coefficients possibly zero.
    Linear {
        terms: Vec<(i64, usize)>,
        op: Comparison,
        constant: i64,
    },
    /// `x op y + offset`.
    Relation {
        x: usize,
        y: usize,
        op: Comparison,
        offset: i32,
    },
    /// `|x − y| op distance`.
    Distance {
        x: usize,
        y: usize,
        op: Comparison,
        distance: i32,
    },
}

impl ConstraintRecipe for Recipe {
    fn build(&self, vars: &[VarId]) -> Box<dyn Constraint> {
        match self {
            Recipe::Linear {
                terms,
                op,
                constant,
            } => {
                let terms: Vec<(i64, VarId)> = terms.iter().map(|&(a, i)| (a, vars[i])).collect();
                Box::new(Linear::new(&terms, *op, *constant))
            }
            Recipe::Relation { x, y, op, offset } => {
                Box::new(Relation::with_offset(vars[*x], *op, vars[*y], *offset))
            }
            Recipe::Distance { x, y, op, distance } => {
                Box::new(Distance::new(vars[*x], vars[*y], *op, *distance))
            }
        }
    }
}

impl Recipe {
    /// The rule, restated with plain `i64` arithmetic on a full assignment.
    fn holds(&self, values: &[i32]) -> bool {
        let v = |i: usize| i64::from(values[i]);
        match self {
            Recipe::Linear {
                terms,
                op,
                constant,
            } => op.holds(terms.iter().map(|&(a, i)| a * v(i)).sum(), *constant),
            Recipe::Relation { x, y, op, offset } => op.holds(v(*x), v(*y) + i64::from(*offset)),
            Recipe::Distance { x, y, op, distance } => {
                op.holds((v(*x) - v(*y)).abs(), i64::from(*distance))
            }
        }
    }

    /// Whether full propagation is documented as domain consistent for this constraint over
    /// these initial domains.
    fn is_domain_consistent(&self, domains: &[Vec<i32>]) -> bool {
        match self {
            Recipe::Linear { terms, op, .. } if *op == Comparison::Eq => {
                // Domain consistent when the span of sums is below 4096; the initial span bounds
                // the span at every call.
                let span: i64 = merged(terms)
                    .iter()
                    .map(|&(a, i)| {
                        let min = i64::from(*domains[i].iter().min().unwrap());
                        let max = i64::from(*domains[i].iter().max().unwrap());
                        a.abs() * (max - min)
                    })
                    .sum();
                span < Linear::SUPPORT_SPAN
            }
            _ => true,
        }
    }
}

/// The terms with repeated variables merged and zero coefficients dropped.
fn merged(terms: &[(i64, usize)]) -> Vec<(i64, usize)> {
    let mut sums: Vec<(i64, usize)> = Vec::new();
    for &(a, i) in terms {
        match sums.iter_mut().find(|(_, j)| *j == i) {
            Some((sum, _)) => *sum += a,
            None => sums.push((a, i)),
        }
    }
    sums.retain(|&(a, _)| a != 0);
    sums
}

fn comparison() -> impl Strategy<Value = Comparison> {
    select(Comparison::ALL.to_vec())
}

/// A random arithmetic constraint over `n` variables (at least 2); constants are multiples of
/// `scale`, so that they meet the values of scaled domains. Linear terms may repeat a variable
/// and have zero coefficients, but always keep at least one variable.
fn recipe(n: usize, scale: i32) -> impl Strategy<Value = Recipe> {
    let linear = (
        vec((-4i64..=4, 0..n), 1..=4),
        comparison(),
        -12i64..=12,
        0..n,
        1i64..=3,
    )
        .prop_map(move |(mut terms, op, constant, anchor, coefficient)| {
            if merged(&terms).is_empty() {
                terms.push((coefficient, anchor));
            }
            Recipe::Linear {
                terms,
                op,
                constant: constant * i64::from(scale),
            }
        });
    let relation = (scope(n, 2..=2), comparison(), -3i32..=3).prop_map(move |(pair, op, o)| {
        Recipe::Relation {
            x: pair[0],
            y: pair[1],
            op,
            offset: o * scale,
        }
    });
    let distance = (scope(n, 2..=2), comparison(), -1i32..=4).prop_map(move |(pair, op, d)| {
        Recipe::Distance {
            x: pair[0],
            y: pair[1],
            op,
            distance: d * scale,
        }
    });
    prop_oneof![2 => linear, 1 => relation, 1 => distance]
}

/// A model of random domains with one random arithmetic constraint.
fn single_constraint() -> impl Strategy<Value = (Vec<Vec<i32>>, Recipe)> {
    (2usize..=4, scale()).prop_flat_map(|(n, scale)| (vec(domain(scale), n), recipe(n, scale)))
}

fn build(domains: &[Vec<i32>], recipe: &Recipe) -> Model {
    let mut model = Model::new();
    let vars: Vec<VarId> = domains
        .iter()
        .map(|d| model.new_var(d.as_slice()).unwrap())
        .collect();
    model.post_boxed(None, recipe.build(&vars)).unwrap();
    model
}

/// Every full assignment of `domains`, by the test's own enumeration.
fn assignments(domains: &[Vec<i32>]) -> Vec<Vec<i32>> {
    domains.iter().fold(vec![Vec::new()], |prefixes, domain| {
        let mut sorted = domain.clone();
        sorted.sort_unstable();
        sorted.dedup();
        prefixes
            .iter()
            .flat_map(|p| {
                sorted.iter().map(move |&v| {
                    let mut next = p.clone();
                    next.push(v);
                    next
                })
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// The checkers agree with the rules restated in the test, so brute force (which filters by
    /// the checkers) is a trustworthy oracle for what follows.
    #[test]
    fn checkers_agree_with_the_rules_restated((domains, recipe) in single_constraint()) {
        let model = build(&domains, &recipe);
        let expected: Vec<Vec<i32>> =
            assignments(&domains).into_iter().filter(|v| recipe.holds(v)).collect();
        prop_assert_eq!(brute_force(&model), expected);
    }

    /// Soundness: at every level, propagation at the root keeps every value some solution of
    /// the constraint uses. Where full propagation is documented as domain consistent, it keeps
    /// nothing else, and it fails exactly when there is no solution.
    #[test]
    fn propagation_keeps_every_supported_value((domains, recipe) in single_constraint()) {
        let model = build(&domains, &recipe);
        let solutions = brute_force(&model);
        let supported = supported_values(&solutions, domains.len());
        for level in LEVELS {
            match root_domains(&model, level) {
                None => prop_assert!(solutions.is_empty(), "{level:?} failed with solutions"),
                Some(left) => {
                    for (var, values) in supported.iter().enumerate() {
                        prop_assert!(
                            values.is_subset(&left[var]),
                            "{level:?} pruned a supported value of x{var}: {values:?} ⊄ {:?}",
                            left[var]
                        );
                    }
                    if level == PropagationLevel::Full && recipe.is_domain_consistent(&domains) {
                        prop_assert!(!solutions.is_empty(), "no solution, yet no failure");
                        prop_assert_eq!(&left, &supported, "not domain consistent");
                    }
                }
            }
        }
    }

    /// On a full assignment, propagation fails exactly when the checker rejects it.
    #[test]
    fn on_full_assignments_propagation_fails_exactly_when_check_rejects(
        (domains, recipe, picks) in single_constraint().prop_flat_map(|(domains, recipe)| {
            let n = domains.len();
            (Just(domains), Just(recipe), vec(any::<proptest::sample::Index>(), n))
        })
    ) {
        let values: Vec<i32> = domains.iter().zip(&picks).map(|(d, p)| *p.get(d)).collect();
        let fixed: Vec<Vec<i32>> = values.iter().map(|&v| vec![v]).collect();
        let model = build(&fixed, &recipe);
        let accepted = model.is_solution(&values);
        for level in LEVELS {
            let count = model.solver().with_propagation(level).count();
            prop_assert_eq!(count.solutions, u64::from(accepted), "at {:?}", level);
        }
    }

    /// Whole models mixing arithmetic and built-in constraints: every strategy and level finds
    /// exactly the brute-force solutions, in lexicographic order under input order.
    #[test]
    fn models_with_arithmetic_constraints_find_every_solution(
        spec in model_specs(2..=5, 3, recipe)
    ) {
        check_model(&spec)?;
    }
}

proptest! {
    /// The levels are honoured: `None` prunes nothing (it may only fail on a fixed, violated
    /// scope), and `Forward` prunes nothing while two variables of the scope are unfixed.
    #[test]
    fn weaker_levels_prune_only_what_they_promise((domains, recipe) in single_constraint()) {
        let model = build(&domains, &recipe);
        let initial: Vec<BTreeSet<i32>> = domains.iter().map(|d| d.iter().copied().collect()).collect();
        let scope: BTreeSet<usize> = match &recipe {
            Recipe::Linear { terms, .. } => merged(terms).iter().map(|&(_, i)| i).collect(),
            Recipe::Relation { x, y, .. } | Recipe::Distance { x, y, .. } => [*x, *y].into(),
        };
        let unfixed = scope.iter().filter(|&&i| initial[i].len() > 1).count();
        match root_domains(&model, PropagationLevel::None) {
            Some(left) => prop_assert_eq!(&left, &initial, "None pruned"),
            None => prop_assert!(unfixed == 0, "None failed before the scope was fixed"),
        }
        if unfixed >= 2 {
            prop_assert_eq!(root_domains(&model, PropagationLevel::Forward), Some(initial));
        }
    }

    /// The constraints' `wake_on` and `is_idempotent` lose no pruning: a search with the
    /// constraint wrapped so that it wakes on every change and never claims a fixpoint visits
    /// exactly the same nodes, with the same domains, at every level.
    #[test]
    fn wake_conditions_and_idempotence_lose_no_pruning((domains, recipe) in single_constraint()) {
        let model = build(&domains, &recipe);
        let mut conservative = Model::new();
        let vars: Vec<VarId> =
            domains.iter().map(|d| conservative.new_var(d.as_slice()).unwrap()).collect();
        conservative.post(Conservative(recipe.build(&vars))).unwrap();
        for level in LEVELS {
            prop_assert_eq!(
                search_trace(&model, level),
                search_trace(&conservative, level),
                "at {:?}",
                level
            );
        }
    }
}

/// A constraint with the always-correct defaults: woken by any change, never idempotent.
#[derive(Debug)]
struct Conservative(Box<dyn Constraint>);

impl Constraint for Conservative {
    fn scope(&self) -> &[VarId] {
        self.0.scope()
    }
    fn check(&self, values: &[i32]) -> bool {
        self.0.check(values)
    }
    fn propagate(&self, ctx: &mut cspkit::PropagationContext<'_>) -> Result<(), cspkit::Conflict> {
        self.0.propagate(ctx)
    }
    fn prepare(&mut self, model: &cspkit::ModelView<'_>) -> Result<(), cspkit::ModelError> {
        self.0.prepare(model)
    }
}

/// The domains seen at every node of a complete search in input order.
fn search_trace(model: &Model, level: PropagationLevel) -> Vec<Vec<Vec<i32>>> {
    let mut trace = Vec::new();
    let spy = |view: &cspkit::SearchView<'_>| -> Option<VarId> {
        trace.push(
            view.variables()
                .map(|var| view.domain(var).iter().collect())
                .collect(),
        );
        view.unfixed().next()
    };
    let _ = model
        .solver()
        .with_variable_order(spy)
        .with_propagation(level)
        .count();
    trace
}

fn check_model(spec: &ModelSpec<Recipe>) -> Result<(), TestCaseError> {
    let (model, _) = spec.build();
    let expected = brute_force(&model);
    if let Some(planted) = &spec.planted {
        prop_assert!(expected.contains(planted));
    }
    for level in LEVELS {
        let mut solver = model.solver().with_propagation(level);
        let (found, stopped) = collect_solutions(&mut solver);
        prop_assert_eq!(stopped, None);
        prop_assert_eq!(&found, &expected, "input order at {:?}", level);
        let mut solver = model
            .solver()
            .with_propagation(level)
            .with_variable_order(SmallestDomain);
        let (found, _) = collect_solutions(&mut solver);
        let found: BTreeSet<Vec<i32>> = found.into_iter().collect();
        let expected: BTreeSet<Vec<i32>> = expected.iter().cloned().collect();
        prop_assert_eq!(found, expected, "smallest domain at {:?}", level);
    }
    Ok(())
}

proptest! {
    /// Arithmetic written with operators means what it says: the solutions of
    /// `Σ aᵢ·xᵢ + b op Σ cⱼ·yⱼ + d`, built term by term with `*`, `+` and `-`, are the assignments
    /// where the two sides, computed by the test, compare as asked.
    #[test]
    fn expressions_built_with_operators_mean_what_they_say(
        domains in vec(domain(1), 2..=3),
        left in vec((-3i32..=3, 0usize..3), 0..=3),
        right in vec((-3i32..=3, 0usize..3), 1..=3),
        b in -5i32..=5,
        d in -5i32..=5,
        op in comparison(),
    ) {
        let n = domains.len();
        let mut model = Model::new();
        let vars: Vec<VarId> =
            domains.iter().map(|dom| model.new_var(dom.as_slice()).unwrap()).collect();
        let mut lhs = LinearExpr::from(b);
        for &(a, i) in &left {
            lhs += vars[i % n] * a;
        }
        let rhs: LinearExpr = right.iter().map(|&(c, j)| c * vars[j % n]).sum::<LinearExpr>() + d;
        let side = |terms: &[(i32, usize)], constant: i32, values: &[i32]| -> i64 {
            terms.iter().map(|&(a, i)| i64::from(a) * i64::from(values[i % n])).sum::<i64>()
                + i64::from(constant)
        };
        let expected: Vec<Vec<i32>> = assignments(&domains)
            .into_iter()
            .filter(|v| op.holds(side(&left, b, v), side(&right, d, v)))
            .collect();
        match model.post(lhs.compare(op, rhs)) {
            Ok(_) => {
                let mut solver = model.solver();
                let (found, _) = collect_solutions(&mut solver);
                prop_assert_eq!(found, expected);
            }
            // Every term cancelled: the comparison of two constants has an empty scope.
            Err(cspkit::ModelError::EmptyScope { .. }) => {
                let all_or_none = expected.is_empty() || expected.len() == assignments(&domains).len();
                prop_assert!(all_or_none);
            }
            Err(other) => prop_assert!(false, "unexpected error {other}"),
        }
    }
}

#[test]
fn misuse_is_a_model_error_not_a_panic() {
    let mut a = Model::new();
    let mut b = Model::new();
    let x = a.new_named_var("x", 0..=9).unwrap();
    let y = b.new_var(0..=9).unwrap();
    assert!(matches!(
        b.post((x + y).eq(3)),
        Err(cspkit::ModelError::ForeignVariable { .. })
    ));
    assert!(matches!(
        b.post(Linear::sum(&[], Comparison::Eq, 0)),
        Err(cspkit::ModelError::EmptyScope { .. })
    ));
    // A variable twice in one scope is allowed: y < y has no solution.
    b.post(Relation::new(y, Comparison::Lt, y)).unwrap();
    assert_eq!(b.solver().count().solutions, 0);
    let overflow = LinearExpr::from_digits(&[x; 20], 10).eq(0);
    let err = a.post(overflow).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("constraint Linear: arithmetic overflow"),
        "{err}"
    );
}

#[test]
fn a_large_equality_keeps_to_bounds_and_stays_correct() {
    // 1000·x + y = 123456 with y in 0..=999 and x in 0..=999: one solution, found without
    // the dynamic programming (the span is about a million).
    let mut model = Model::new();
    let x = model.new_var(0..=999).unwrap();
    let y = model.new_var(0..=999).unwrap();
    model.post((x * 1000 + y).eq(123_456)).unwrap();
    for level in LEVELS {
        let mut solver = model.solver().with_propagation(level);
        let (found, _) = collect_solutions(&mut solver);
        assert_eq!(found, [[123, 456]], "at {level:?}");
    }
    // At full propagation the bounds alone fix both variables: no decision.
    let mut solver = model.solver();
    solver.count();
    assert_eq!(solver.stats().decisions, 0);
}

#[test]
fn bounds_stand_in_for_supports_only_when_the_intervals_bridge_every_hole() {
    // x + y + z = 3, x in {0, 3}: for z, x + y reaches {0, 1, 3, 4}, not an interval, and
    // z = 1 has no support (x = 0 needs y = 2, x = 3 needs y = -1); the bounds remove nothing.
    // The domains without holes (y, z) are too narrow to bridge x's gap of two values whichever
    // is left out, so the supports are computed.
    let mut model = Model::new();
    let x = model.new_var([0, 3]).unwrap();
    let y = model.new_var(0..=1).unwrap();
    let z = model.new_var(0..=2).unwrap();
    model.post((x + y + z).eq(3)).unwrap();
    let root = root_domains(&model, PropagationLevel::Full).unwrap();
    assert_eq!(root[z.index()], BTreeSet::from([0, 2]));
    // With y in 0..=2 the gap is bridged for every term left out: every value has a support,
    // and the root keeps every domain whole.
    let mut model = Model::new();
    let x = model.new_var([0, 3]).unwrap();
    let y = model.new_var(0..=2).unwrap();
    let z = model.new_var(0..=2).unwrap();
    model.post((x + y + z).eq(3)).unwrap();
    let root = root_domains(&model, PropagationLevel::Full).unwrap();
    assert_eq!(root[x.index()], BTreeSet::from([0, 3]));
    assert_eq!(root[z.index()], BTreeSet::from([0, 1, 2]));
}

// ----- The conformance kit -----

/// A random comparison.
fn random_comparison(random: &mut SplitMix64) -> Comparison {
    Comparison::ALL[random.below(6) as usize]
}

/// Asserts what the documentation claims at `Full`: every call reaches its own fixpoint (and
/// says so), the checks had something to bite on, and, if `consistent`, domain consistency.
fn assert_full(report: &ConformanceReport, consistent: bool) {
    let full = report.level(PropagationLevel::Full);
    assert!(!consistent || full.is_domain_consistent(), "{report}");
    assert_eq!(full.declared_idempotent, full.propagations, "{report}");
    assert!(full.looks_idempotent(), "{report}");
    assert!(full.pruned > 0 && full.conflicts > 0, "too easy: {report}");
}

/// `Σ aᵢ·xᵢ op c` over the kit's variables, with a repeated variable now and then (merged, or
/// cancelled down to the other terms) and coefficients in `-max..=max`.
fn random_linear(vars: &[VarId], random: &mut SplitMix64, max: i32) -> Linear {
    let mut terms: Vec<(i64, VarId)> = vars
        .iter()
        .map(|&var| (i64::from(random.value_in(-max..=max)), var))
        .collect();
    if random.chance(1, 4) {
        let (a, var) = terms[random.below(terms.len() as u64) as usize];
        terms.push((if random.chance(1, 2) { -a } else { a }, var));
    }
    let op = random_comparison(random);
    let constant = i64::from(random.value_in(-4 * max..=4 * max));
    let linear = Linear::new(&terms, op, constant);
    if linear.terms().len() == 0 {
        Linear::new(&[(1, vars[0])], op, constant)
    } else {
        linear
    }
}

#[test]
fn linear_conforms_and_is_domain_consistent_at_full_on_small_spans() {
    for (arity, values, max_domain_size) in [(1, -4..=6, 5), (3, -4..=6, 5), (4, -30..=30, 9)] {
        let report = ConformanceTest::with_parameters(arity, values, |vars, random| {
            random_linear(vars, random, 3)
        })
        .cases(400)
        .max_domain_size(max_domain_size)
        .assert_conforms();
        // Spans stay below Linear::SUPPORT_SPAN: 4 terms × 3 × 60 = 720.
        assert_full(&report, true);
    }
}

#[test]
fn linear_with_large_coefficients_conforms_with_bounds_only() {
    // Coefficients up to 2000 on values -30..=30: spans beyond 4096, so `=` keeps to bounds.
    let report = ConformanceTest::with_parameters(3, -30..=30, |vars, random| {
        random_linear(vars, random, 2000)
    })
    .cases(400)
    .max_domain_size(9)
    .assert_conforms();
    assert_full(&report, false);
}

#[test]
fn relation_conforms_and_is_arc_consistent_at_full() {
    let report = ConformanceTest::with_parameters(2, -4..=4, |vars, random| {
        let op = random_comparison(random);
        Relation::with_offset(vars[0], op, vars[1], random.value_in(-3..=3))
    })
    .cases(400)
    .assert_conforms();
    assert_full(&report, true);
}

#[test]
fn distance_conforms_and_is_arc_consistent_at_full() {
    for (values, max_domain_size) in [(-4..=4, 5), (-50..=50, 12)] {
        let report = ConformanceTest::with_parameters(2, values, |vars, random| {
            let op = random_comparison(random);
            Distance::new(vars[0], vars[1], op, random.value_in(-1..=6))
        })
        .cases(400)
        .max_domain_size(max_domain_size)
        .assert_conforms();
        assert_full(&report, true);
    }
}
