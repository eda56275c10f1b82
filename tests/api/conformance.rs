//! The conformance kit on every built-in constraint, and on broken constraints it must catch.

use cspkit::conformance::{ConformanceReport, ConformanceTest, Consistency, Property, SplitMix64};
use cspkit::{
    AllDifferent, Conflict, Constraint, Element, IntView, NotEqual, Predicate, PropagationContext,
    PropagationLevel, Table, VarId,
};

const CASES: usize = 400;

/// Asserts what the documentation of a constraint claims: domain consistency and idempotence
/// at `Full`, and that the checks had something to bite on.
fn assert_full_is_domain_consistent(report: &ConformanceReport) {
    let full = report.level(PropagationLevel::Full);
    assert!(full.is_domain_consistent(), "{report}");
    assert!(
        full.declared_idempotent == full.propagations && full.looks_idempotent(),
        "{report}"
    );
    assert!(full.pruned > 0 && full.conflicts > 0, "too easy: {report}");
}

#[test]
fn all_different_conforms_with_and_without_offsets() {
    for (values, max_domain_size) in [(-3..=4, 5), (-40..=40, 12)] {
        let report = ConformanceTest::with_parameters(4, values, |vars, random| {
            if random.chance(1, 3) {
                AllDifferent::new(vars)
            } else {
                let offsets: Vec<i32> = vars.iter().map(|_| random.value_in(-2..=2)).collect();
                AllDifferent::with_offsets(vars, &offsets).expect("one offset per variable")
            }
        })
        .cases(CASES)
        .max_domain_size(max_domain_size)
        .assert_conforms();
        // Régin's algorithm: domain consistency.
        assert_full_is_domain_consistent(&report);
    }
}

#[test]
fn all_different_over_views_conforms_whatever_the_factors() {
    for (values, max_domain_size) in [(-3..=4, 5), (-20..=20, 8)] {
        let report = ConformanceTest::with_parameters(4, values, |vars, random| {
            let views: Vec<IntView> = vars
                .iter()
                .map(|&x| {
                    let scale = [-3, -2, -1, 1, 2, 3][random.below(6) as usize];
                    x.scale(scale).offset(random.value_in(-3..=3))
                })
                .collect();
            AllDifferent::over_views(&views).expect("small factors and constants")
        })
        .cases(CASES)
        .max_domain_size(max_domain_size)
        .assert_conforms();
        assert_full_is_domain_consistent(&report);
    }
}

#[test]
fn not_equal_conforms_and_is_arc_consistent_from_forward_up() {
    let report = ConformanceTest::with_parameters(2, -3..=3, |vars, random| {
        NotEqual::with_offset(vars[0], vars[1], random.value_in(-2..=2))
    })
    .cases(CASES)
    .assert_conforms();
    assert_full_is_domain_consistent(&report);
    assert!(
        report
            .level(PropagationLevel::Forward)
            .is_domain_consistent()
    );
}

/// A random table over `arity` variables: up to `max_tuples` tuples of values in `values`.
fn random_table(
    vars: &[VarId],
    random: &mut SplitMix64,
    values: std::ops::RangeInclusive<i32>,
    max_tuples: u64,
) -> Table {
    let count = random.below(max_tuples + 1);
    let tuples: Vec<Vec<i32>> = (0..count)
        .map(|_| {
            vars.iter()
                .map(|_| random.value_in(values.clone()))
                .collect()
        })
        .collect();
    Table::new(vars, &tuples).expect("tuples of the scope's length")
}

#[test]
fn table_conforms_and_is_domain_consistent_at_full() {
    for arity in 1..=4 {
        let report = ConformanceTest::with_parameters(arity, -2..=3, |vars, random| {
            random_table(vars, random, -2..=3, 30)
        })
        .cases(CASES)
        .assert_conforms();
        assert_full_is_domain_consistent(&report);
    }
}

#[test]
fn table_conforms_on_wide_domains_and_many_tuples() {
    // Values over 100 integers (domains past one machine word) and up to 300 tuples (bitsets
    // of several words).
    let report = ConformanceTest::with_parameters(3, -50..=49, |vars, random| {
        random_table(vars, random, -50..=49, 300)
    })
    .cases(CASES / 2)
    .max_domain_size(40)
    .assert_conforms();
    assert!(
        report.level(PropagationLevel::Full).is_domain_consistent(),
        "{report}"
    );
}

#[test]
fn element_with_constants_conforms_and_is_domain_consistent_at_full() {
    let report = ConformanceTest::with_parameters(2, -1..=5, |vars, random| {
        let len = random.below(7) as usize;
        let array: Vec<i32> = (0..len).map(|_| random.value_in(-1..=4)).collect();
        Element::new(&array, vars[0], vars[1])
    })
    .cases(CASES)
    .assert_conforms();
    assert_full_is_domain_consistent(&report);
}

#[test]
fn element_with_distinct_variables_conforms_and_is_domain_consistent_at_full() {
    let report = ConformanceTest::new(5, -1..=3, |vars| {
        Element::with_variables(&vars[2..], vars[0], vars[1])
    })
    .cases(CASES)
    .assert_conforms();
    assert_full_is_domain_consistent(&report);
}

#[test]
fn element_with_repeated_variables_conforms() {
    // The array draws from all the variables, index and value included, with repeats.
    let report = ConformanceTest::with_parameters(4, -1..=3, |vars, random| {
        let len = 1 + random.below(4) as usize;
        let array: Vec<VarId> = (0..len)
            .map(|_| vars[random.below(vars.len() as u64) as usize])
            .collect();
        Element::with_variables(&array, vars[0], vars[1])
    })
    .cases(CASES)
    .assert_conforms();
    let full = report.level(PropagationLevel::Full);
    assert!(full.pruned > 0, "{report}");
    // Only the instances without repeats declare idempotence.
    assert!(0 < full.declared_idempotent && full.declared_idempotent < full.propagations);
}

#[test]
fn predicate_conforms_and_forward_checks() {
    let report = ConformanceTest::with_parameters(3, -2..=4, |vars, random| {
        // A random rule: a linear combination of the values, compared with a constant.
        let weights: Vec<i32> = vars.iter().map(|_| random.value_in(-2..=2)).collect();
        let target = random.value_in(-3..=3);
        Predicate::new(vars, move |values| {
            values.iter().zip(&weights).map(|(v, w)| v * w).sum::<i32>() <= target
        })
    })
    .cases(CASES)
    .assert_conforms();
    let forward = report.level(PropagationLevel::Forward);
    assert!(forward.pruned > 0 && forward.looks_idempotent(), "{report}");
    assert_eq!(report.level(PropagationLevel::None).pruned, 0, "{report}");
}

// ----- Broken constraints: the kit must catch each mistake. -----

/// `x < y` with the pruning of `x` off by one: it removes `max(y) - 1`, a value of solutions.
#[derive(Debug)]
struct OffByOne([VarId; 2]);

impl Constraint for OffByOne {
    fn scope(&self) -> &[VarId] {
        &self.0
    }
    fn check(&self, values: &[i32]) -> bool {
        values[0] < values[1]
    }
    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let [x, y] = self.0;
        let max_y = ctx.domain(y).max().ok_or(Conflict)?;
        ctx.remove_above(x, max_y - 2)?;
        Ok(())
    }
}

#[test]
fn an_unsound_constraint_is_caught_with_a_reproducible_case() {
    let failure = ConformanceTest::new(2, 0..=4, |vars| OffByOne([vars[0], vars[1]]))
        .run()
        .expect_err("the pruning is unsound");
    assert_eq!(failure.property, Property::Soundness);
    let text = failure.to_string();
    assert!(
        text.contains("soundness") && text.contains("OffByOne"),
        "{text}"
    );
    assert!(
        text.contains(&format!("{:#x}", failure.case_seed)),
        "{text}"
    );
    // The case's own seed runs it again, alone, with the same result.
    let again = ConformanceTest::new(2, 0..=4, |vars| OffByOne([vars[0], vars[1]]))
        .seed(failure.case_seed)
        .cases(1)
        .run()
        .expect_err("the same case");
    assert_eq!(again.message, failure.message);
    assert_eq!(again.before, failure.before);
}

#[test]
#[should_panic(expected = "conformance failure: soundness")]
fn assert_conforms_panics_with_the_failure() {
    ConformanceTest::new(2, 0..=4, |vars| OffByOne([vars[0], vars[1]])).assert_conforms();
}

/// `x ≠ y` that never reports a conflict.
#[derive(Debug)]
struct NeverFails([VarId; 2]);

impl Constraint for NeverFails {
    fn scope(&self) -> &[VarId] {
        &self.0
    }
    fn check(&self, values: &[i32]) -> bool {
        values[0] != values[1]
    }
    fn propagate(&self, _ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        Ok(())
    }
}

#[test]
fn a_constraint_that_misses_conflicts_is_caught() {
    let failure = ConformanceTest::new(2, 0..=3, |vars| NeverFails([vars[0], vars[1]]))
        .run()
        .expect_err("fixed equal values are not detected");
    assert_eq!(failure.property, Property::FailureDetection);
    assert!(failure.message.contains("no conflict"), "{failure}");
}

/// `x ≤ y` by bounds, one value at a time, yet declared idempotent.
#[derive(Debug)]
struct OneStepAtATime([VarId; 2]);

impl Constraint for OneStepAtATime {
    fn scope(&self) -> &[VarId] {
        &self.0
    }
    fn check(&self, values: &[i32]) -> bool {
        values[0] <= values[1]
    }
    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let [x, y] = self.0;
        let (max_x, max_y) = (ctx.domain(x).max(), ctx.domain(y).max());
        if let (Some(max_x), Some(max_y)) = (max_x, max_y)
            && max_x > max_y
        {
            ctx.remove(x, max_x)?; // only the largest value, not all those above max_y
        }
        let (min_x, min_y) = (ctx.domain(x).min(), ctx.domain(y).min());
        if let (Some(min_x), Some(min_y)) = (min_x, min_y)
            && min_y < min_x
        {
            ctx.remove(y, min_y)?;
        }
        Ok(())
    }
    fn is_idempotent(&self, _level: PropagationLevel) -> bool {
        true
    }
}

#[test]
fn a_false_claim_of_idempotence_is_caught_and_an_honest_one_is_reported() {
    let failure = ConformanceTest::new(2, 0..=5, |vars| OneStepAtATime([vars[0], vars[1]]))
        .run()
        .expect_err("a second call prunes more");
    assert_eq!(failure.property, Property::Idempotence);
    // Without the claim, the same behaviour passes and is counted.
    #[derive(Debug)]
    struct Honest(OneStepAtATime);
    impl Constraint for Honest {
        fn scope(&self) -> &[VarId] {
            self.0.scope()
        }
        fn check(&self, values: &[i32]) -> bool {
            self.0.check(values)
        }
        fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
            self.0.propagate(ctx)
        }
    }
    let report = ConformanceTest::new(2, 0..=5, |vars| Honest(OneStepAtATime([vars[0], vars[1]])))
        .assert_conforms();
    let full = report.level(PropagationLevel::Full);
    assert!(
        full.declared_idempotent == 0 && !full.looks_idempotent(),
        "{report}"
    );
}

/// Declares the scope `[y]` but prunes `x` too.
#[derive(Debug)]
struct PrunesOutside {
    declared: [VarId; 1],
    hidden: VarId,
}

impl Constraint for PrunesOutside {
    fn scope(&self) -> &[VarId] {
        &self.declared
    }
    fn check(&self, _values: &[i32]) -> bool {
        true
    }
    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        if let Some(min) = ctx.domain(self.hidden).min()
            && !ctx.is_fixed(self.hidden)
        {
            ctx.remove(self.hidden, min)?;
        }
        Ok(())
    }
}

#[test]
fn pruning_outside_the_scope_is_caught() {
    let failure = ConformanceTest::new(2, 0..=3, |vars| PrunesOutside {
        declared: [vars[1]],
        hidden: vars[0],
    })
    .run()
    .expect_err("it prunes a variable it does not declare");
    assert_eq!(failure.property, Property::Locality);
    assert!(failure.message.contains("outside the scope"), "{failure}");
}

/// Declares the scope `[y]`, and fixes `y` to the smallest value of `x`.
#[derive(Debug)]
struct ReadsOutside {
    declared: [VarId; 1],
    hidden: VarId,
}

impl Constraint for ReadsOutside {
    fn scope(&self) -> &[VarId] {
        &self.declared
    }
    fn check(&self, _values: &[i32]) -> bool {
        true
    }
    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let [y] = self.declared;
        // Unsound as well, but only where x's minimum is outside y's domain; the kit looks
        // at locality first.
        if let Some(min) = ctx.domain(self.hidden).min()
            && ctx.domain(y).contains(min)
            && ctx.domain(y).size() > 1
        {
            ctx.remove(y, min)?;
        }
        Ok(())
    }
}

#[test]
fn reading_outside_the_scope_is_caught() {
    let failure = ConformanceTest::new(2, 0..=3, |vars| ReadsOutside {
        declared: [vars[1]],
        hidden: vars[0],
    })
    .run()
    .expect_err("its pruning depends on a variable it does not declare");
    assert!(
        matches!(failure.property, Property::Locality | Property::Soundness),
        "{failure}"
    );
}

#[test]
fn a_panicking_constraint_is_reported_with_its_case() {
    let failure = ConformanceTest::new(3, 0..=3, |vars| {
        Predicate::new(vars, |values| {
            assert!(values[0] != 2, "the rule refuses to look at a 2");
            true
        })
    })
    .run()
    .expect_err("the rule panics");
    assert_eq!(failure.property, Property::NoPanic);
    assert!(
        failure.message.contains("refuses to look at a 2"),
        "{failure}"
    );
}

#[test]
fn a_configuration_that_cannot_make_a_case_is_a_failure_not_a_panic() {
    #[allow(
        clippy::reversed_empty_ranges,
        reason = "an empty range is the point of the test"
    )]
    let empty = 3..=1;
    for mut test in [
        ConformanceTest::new(0, 0..=3, |vars| Predicate::new(vars, |_| true)),
        ConformanceTest::new(1, empty, |vars| Predicate::new(vars, |_| true)),
        ConformanceTest::new(1, i32::MIN..=i32::MAX, |vars| {
            Predicate::new(vars, |_| true)
        }),
    ] {
        let failure = test.run().expect_err("no case can be made");
        assert_eq!(failure.property, Property::Setup, "{failure}");
    }
}

#[test]
fn the_same_seed_gives_the_same_report() {
    let run = |seed| {
        ConformanceTest::with_parameters(3, -2..=3, |vars, random| {
            random_table(vars, random, -2..=3, 12)
        })
        .seed(seed)
        .cases(50)
        .assert_conforms()
    };
    assert_eq!(run(11), run(11));
    assert_ne!(run(11).levels, run(12).levels);
}

/// Every built-in over scopes that name a variable twice: sound, failures detected, state
/// restored (the kit gives repeated positions one value in its brute force).
#[test]
fn every_built_in_conforms_with_a_variable_at_two_positions() {
    use cspkit::{Comparison, Distance, Linear, Relation};
    let op = |random: &mut SplitMix64| Comparison::ALL[random.below(6) as usize];
    let tests: Vec<(&str, ConformanceTest<'_>)> = vec![
        (
            "all-different",
            ConformanceTest::new(4, -2..=3, AllDifferent::new),
        ),
        (
            "all-different with offsets",
            ConformanceTest::with_parameters(4, -2..=3, |vars, random| {
                let offsets: Vec<i32> = vars.iter().map(|_| random.value_in(-3..=3)).collect();
                AllDifferent::with_offsets(vars, &offsets).expect("one offset per variable")
            }),
        ),
        (
            "linear",
            ConformanceTest::with_parameters(4, -3..=3, move |vars, random| {
                let terms: Vec<(i64, VarId)> = vars
                    .iter()
                    .map(|&x| (i64::from(random.value_in(-3..=3)), x))
                    .collect();
                let constant = i64::from(random.value_in(-5..=5));
                Linear::new(&terms, op(random), constant)
            }),
        ),
        (
            "table",
            ConformanceTest::with_parameters(3, -2..=2, |vars, random| {
                random_table(vars, random, -2..=2, 20)
            }),
        ),
        (
            "relation",
            ConformanceTest::with_parameters(2, -3..=3, move |vars, random| {
                Relation::new(vars[0], op(random), vars[1])
            }),
        ),
        (
            "distance",
            ConformanceTest::with_parameters(2, -3..=3, move |vars, random| {
                Distance::new(vars[0], vars[1], op(random), random.value_in(0..=3))
            }),
        ),
        (
            "element",
            ConformanceTest::new(4, -1..=3, |vars| {
                Element::with_variables(&vars[2..], vars[0], vars[1])
            }),
        ),
    ];
    for (name, test) in tests {
        let report = test.repeated_variables().cases(CASES).run();
        assert!(report.is_ok(), "{name}: {}", report.unwrap_err());
    }
}

#[test]
fn a_required_consistency_reports_the_smallest_weak_case() {
    // Forward checking of x ≠ y is domain consistent; at `None` nothing is pruned, so
    // requiring domain consistency there fails, on a case as small as the kit makes.
    let failure = ConformanceTest::new(2, 0..=4, |vars| NotEqual::new(vars[0], vars[1]))
        .require(PropagationLevel::None, Consistency::Domain)
        .cases(CASES)
        .run()
        .unwrap_err();
    assert_eq!(failure.property, Property::Strength);
    let values: usize = failure.before.iter().map(|d| d.size()).sum();
    // x fixed and y ∈ {that value, another}: three values, the fewest with a value to prune.
    assert_eq!(values, 3, "{failure}");
    let shown = failure.to_string();
    assert!(
        shown.contains("has no support") && shown.contains(".cases(1)"),
        "{shown}"
    );
    // Run alone from its seed, the case fails again.
    let again = ConformanceTest::new(2, 0..=4, |vars| NotEqual::new(vars[0], vars[1]))
        .require(PropagationLevel::None, Consistency::Domain)
        .seed(failure.case_seed)
        .cases(1)
        .run()
        .unwrap_err();
    assert_eq!(again.before, failure.before);
    // What is claimed holds.
    ConformanceTest::new(2, 0..=4, |vars| NotEqual::new(vars[0], vars[1]))
        .require(PropagationLevel::Forward, Consistency::Domain)
        .require(PropagationLevel::Full, Consistency::Domain)
        .cases(CASES)
        .assert_conforms();
}

/// x = y by bounds alone: each bound moves to the other's, holes stay.
#[derive(Debug)]
struct BoundsEqual([VarId; 2]);

impl Constraint for BoundsEqual {
    fn scope(&self) -> &[VarId] {
        &self.0
    }
    fn check(&self, values: &[i32]) -> bool {
        values[0] == values[1]
    }
    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let [x, y] = self.0;
        loop {
            let (lo, hi) = (
                ctx.domain(x)
                    .min()
                    .max(ctx.domain(y).min())
                    .ok_or(Conflict)?,
                ctx.domain(x)
                    .max()
                    .min(ctx.domain(y).max())
                    .ok_or(Conflict)?,
            );
            let mut changed = false;
            for var in [x, y] {
                changed |= ctx.remove_below(var, lo)?;
                changed |= ctx.remove_above(var, hi)?;
            }
            if !changed {
                return Ok(());
            }
        }
    }
}

#[test]
fn bounds_consistency_is_told_from_domain_consistency() {
    let build = |vars: &[VarId]| BoundsEqual([vars[0], vars[1]]);
    ConformanceTest::new(2, -3..=3, build)
        .require(PropagationLevel::Full, Consistency::Bounds)
        .cases(CASES)
        .assert_conforms();
    let failure = ConformanceTest::new(2, -3..=3, build)
        .require(PropagationLevel::Full, Consistency::Domain)
        .cases(CASES)
        .run()
        .unwrap_err();
    assert_eq!(failure.property, Property::Strength, "{failure}");
    // A hole inside the common bounds: its value has no partner.
    assert!(
        failure.to_string().contains("within the domains left"),
        "{failure}"
    );
}

/// The filters that work a word at a time (an equality of two unit terms, `abs`, a reified
/// equality, the values a minimum or a maximum holds) on domains spread over several words and across zero, where
/// a window of one domain meets two blocks of the other, shifted or mirrored: domain
/// consistent where the documentation says so, sound everywhere.
#[test]
fn word_at_a_time_filters_conform_on_domains_of_several_words() {
    use cspkit::{Arithmetic, Comparison, Extremum, Linear, ReifiedEquality};
    let unit = |random: &mut SplitMix64| if random.chance(1, 2) { 1 } else { -1 };
    ConformanceTest::with_parameters(2, -100..=100, move |vars, random| {
        let terms = [(unit(random), vars[0]), (unit(random), vars[1])];
        Linear::new(&terms, Comparison::Eq, i64::from(random.value_in(-40..=40)))
    })
    .max_domain_size(40)
    .max_assignments(2048)
    .require(PropagationLevel::Full, Consistency::Domain)
    .cases(CASES)
    .assert_conforms();
    ConformanceTest::new(2, -100..=100, |vars| Arithmetic::abs(vars[0], vars[1]))
        .max_domain_size(40)
        .max_assignments(2048)
        .require(PropagationLevel::Full, Consistency::Domain)
        .cases(CASES)
        .assert_conforms();
    ConformanceTest::with_parameters(3, -100..=100, |vars, random| {
        ReifiedEquality::new(vars[0], vars[1], random.value_in(-70..=70), vars[2])
    })
    .max_domain_size(40)
    .max_assignments(4096)
    .require(PropagationLevel::Full, Consistency::Domain)
    .cases(CASES)
    .assert_conforms();
    ConformanceTest::with_parameters(3, -100..=100, |vars, random| {
        if random.chance(1, 2) {
            Extremum::minimum(&vars[..2], vars[2])
        } else {
            Extremum::maximum(&vars[..2], vars[2])
        }
    })
    .max_domain_size(12)
    .max_assignments(2048)
    .require(PropagationLevel::Full, Consistency::Bounds)
    .cases(CASES)
    .assert_conforms();
}

/// At `Full` the result of a minimum keeps only values some variable holds, a word at a time
/// over a domain of several words.
#[test]
fn a_minimum_keeps_only_the_values_its_variables_hold() {
    use cspkit::{Extremum, Model};
    let mut model = Model::new();
    let x = model.new_var([0, 70, 140, 300]).unwrap();
    let y = model.new_var([5, 75, 199]).unwrap();
    let z = model.new_var(-50..=250).unwrap();
    model.post(Extremum::minimum(&[x, y], z)).unwrap();
    let root = crate::common::root_domains(&model, PropagationLevel::Full).unwrap();
    assert_eq!(
        root[z.index()].iter().copied().collect::<Vec<_>>(),
        [0, 5, 70, 75, 140, 199]
    );
}

/// A reified equality over domains of several words finds the one value they share wherever it
/// falls in a window (the first bit, or inside), and fixes `b` false only when there is none.
#[test]
fn a_reified_equality_finds_the_one_value_two_wide_domains_share() {
    use cspkit::{Model, ReifiedEquality};
    for (shared, offset) in [(100, 0), (163, 7), (-64, -30)] {
        for (xs, expect_open) in [
            (vec![shared, shared + 150], true),
            (vec![shared - 200, shared, shared + 150], true),
            (vec![shared - 200, shared + 1, shared + 150], false),
        ] {
            let ys = [shared - offset - 90, shared - offset, shared - offset + 77];
            let mut model = Model::new();
            let x = model.new_var(xs.clone()).unwrap();
            let y = model.new_var(ys).unwrap();
            let b = model.new_var(0..=1).unwrap();
            model.post(ReifiedEquality::new(x, y, offset, b)).unwrap();
            let root = crate::common::root_domains(&model, PropagationLevel::Full).unwrap();
            let open = root[b.index()].len() == 2;
            assert_eq!(
                open, expect_open,
                "x in {xs:?}, y in {ys:?}, offset {offset}"
            );
            // Every pair of values, b telling whether they are equal.
            assert_eq!(
                model.solver().count().solutions,
                (xs.len() * ys.len()) as u64
            );
        }
    }
}

/// `abs` at the ends of the `i32` range: the mirror image of a value near `i32::MAX` lies in a
/// window that starts below `i32::MIN`.
#[test]
fn abs_by_words_reaches_the_ends_of_the_i32_range() {
    use cspkit::{Arithmetic, Model};
    // Two narrow domains (one word each) at the two ends of the range.
    let mut model = Model::new();
    let x = model.new_var([i32::MIN + 1, i32::MIN + 3]).unwrap();
    let z = model.new_var([i32::MAX - 1, i32::MAX]).unwrap();
    model.post(Arithmetic::abs(x, z)).unwrap();
    let root = crate::common::root_domains(&model, PropagationLevel::Full);
    assert_eq!(model.solver().count().solutions, 1);
    let root = root.expect("the root is consistent");
    assert_eq!(
        root[x.index()].iter().copied().collect::<Vec<_>>(),
        [i32::MIN + 1]
    );
    assert_eq!(
        root[z.index()].iter().copied().collect::<Vec<_>>(),
        [i32::MAX]
    );
}
