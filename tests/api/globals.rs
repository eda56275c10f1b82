//! The global constraints through the conformance kit: every constraint on random instances at
//! every level, sound against brute force, failures detected, repeated variables handled, and
//! the strength each one documents required where it claims one.

use crate::common;

use cspkit::conformance::{ConformanceReport, ConformanceTest, Consistency, SplitMix64};
use cspkit::{
    Among, Arithmetic, Circuit, Cumulative, Dfa, Disjunctive, Extremum, GlobalCardinality, Inverse,
    LexLessEq, Member, Model, Operation, Product, PropagationLevel, Regular, Reified,
    ReifiedEquality, Subcircuit, Table, VarId,
};

const CASES: usize = 400;
const PRUNING: [PropagationLevel; 2] = [PropagationLevel::Forward, PropagationLevel::Full];

/// Runs the test `make` builds, requiring `consistency` at `levels`; then again with a
/// variable at two positions in a third of the cases, for soundness.
fn conforms<'a>(
    name: &str,
    make: impl Fn() -> ConformanceTest<'a>,
    levels: &[PropagationLevel],
    consistency: Option<Consistency>,
) -> ConformanceReport {
    let outcome = make().repeated_variables().cases(CASES).run();
    if let Err(failure) = outcome {
        panic!("{name} with repeated variables: {failure}");
    }
    let mut test = make().cases(CASES);
    if let Some(consistency) = consistency {
        for &level in levels {
            test = test.require(level, consistency);
        }
    }
    let report = test
        .run()
        .unwrap_or_else(|failure| panic!("{name}: {failure}"));
    let full = report.level(PropagationLevel::Full);
    assert!(full.pruned > 0, "{name} never pruned: {report}");
    assert!(full.conflicts > 0, "{name} never failed: {report}");
    report
}

#[test]
fn among_is_domain_consistent() {
    let build = |vars: &[VarId], random: &mut SplitMix64| {
        let values: Vec<i32> = (0..1 + random.below(3))
            .map(|_| random.value_in(-1..=3))
            .collect();
        Among::new(&vars[..vars.len() - 1], &values, vars[vars.len() - 1])
    };
    conforms(
        "among",
        || ConformanceTest::with_parameters(4, -1..=3, build),
        &PRUNING,
        Some(Consistency::Domain),
    );
}

#[test]
fn global_cardinality_conforms() {
    let build = |vars: &[VarId], random: &mut SplitMix64| {
        let values: Vec<i32> = match random.below(3) {
            0 => vec![0],
            1 => vec![0, 1],
            _ => vec![2, 0, 1],
        };
        let (x, counts) = vars.split_at(vars.len() - values.len());
        let gcc = if random.chance(1, 2) {
            GlobalCardinality::new(x, &values, counts).expect("one count per value")
        } else {
            let bounds: Vec<(u32, u32)> = values
                .iter()
                .map(|_| {
                    let low = random.below(3) as u32;
                    (low, low + random.below(3) as u32)
                })
                .collect();
            GlobalCardinality::with_bounds(vars, &values, &bounds).expect("one range per value")
        };
        if random.chance(1, 3) {
            gcc.closed()
        } else {
            gcc
        }
    };
    conforms(
        "gcc",
        || ConformanceTest::with_parameters(6, -1..=3, build),
        &[],
        None,
    );
}

#[test]
fn minimum_and_maximum_are_bounds_consistent() {
    let build = |vars: &[VarId], random: &mut SplitMix64| {
        let (xs, result) = vars.split_at(vars.len() - 1);
        if random.chance(1, 2) {
            Extremum::minimum(xs, result[0])
        } else {
            Extremum::maximum(xs, result[0])
        }
    };
    for (values, size) in [(-3..=3, 5), (-20..=20, 10)] {
        conforms(
            "extremum",
            || ConformanceTest::with_parameters(4, values.clone(), build).max_domain_size(size),
            &PRUNING,
            Some(Consistency::Bounds),
        );
    }
}

#[test]
fn arithmetic_is_domain_consistent_on_small_domains() {
    let build = |vars: &[VarId], random: &mut SplitMix64| {
        let operation = [
            Operation::Abs,
            Operation::Times,
            Operation::Div,
            Operation::Mod,
            Operation::Pow,
        ][random.below(5) as usize];
        Arithmetic::new(operation, vars[0], vars[1], vars[2])
    };
    conforms(
        "arithmetic",
        || ConformanceTest::with_parameters(3, -4..=4, build).max_domain_size(6),
        &[PropagationLevel::Full],
        Some(Consistency::Domain),
    );
}

#[test]
fn a_product_with_a_boolean_factor_is_domain_consistent() {
    // Domains of one or two values from -1..=2: a factor often lies in {0, 1}, which takes
    // the one-pass rule for `z = b · x`.
    let build = |vars: &[VarId], random: &mut SplitMix64| {
        let (x, y) = if random.below(2) == 0 { (0, 1) } else { (1, 0) };
        Arithmetic::new(Operation::Times, vars[x], vars[y], vars[2])
    };
    conforms(
        "times by a boolean",
        || ConformanceTest::with_parameters(3, -1..=2, build).max_domain_size(2),
        &[PropagationLevel::Full],
        Some(Consistency::Domain),
    );
}

#[test]
fn arithmetic_on_wide_domains_is_sound() {
    // Past 256 pairs, Full falls back on bounds: sound, and exact once fixed.
    let build = |vars: &[VarId], random: &mut SplitMix64| {
        let operation = [
            Operation::Abs,
            Operation::Times,
            Operation::Div,
            Operation::Mod,
            Operation::Pow,
        ][random.below(5) as usize];
        Arithmetic::new(operation, vars[0], vars[1], vars[2])
    };
    ConformanceTest::with_parameters(3, -300..=300, build)
        .max_domain_size(100)
        .max_assignments(300_000)
        .cases(60)
        .assert_conforms();
}

#[test]
fn lex_is_domain_consistent() {
    let build = |vars: &[VarId], random: &mut SplitMix64| {
        let split = random.below(vars.len() as u64 + 1) as usize;
        let (xs, ys) = vars.split_at(split);
        if random.chance(1, 2) {
            LexLessEq::new(xs, ys)
        } else {
            LexLessEq::strict(xs, ys)
        }
    };
    conforms(
        "lex",
        || ConformanceTest::with_parameters(6, 0..=2, build),
        &PRUNING,
        Some(Consistency::Domain),
    );
}

#[test]
fn inverse_conforms() {
    let build = |vars: &[VarId], random: &mut SplitMix64| {
        let (f, g) = vars.split_at(vars.len() / 2);
        if random.chance(1, 2) {
            Inverse::new(f, g).expect("equal lengths")
        } else {
            Inverse::with_bases(f, 1, g, 0).expect("equal lengths")
        }
    };
    conforms(
        "inverse",
        || ConformanceTest::with_parameters(6, 0..=3, build),
        &[],
        None,
    );
}

#[test]
fn circuit_conforms() {
    let build = |vars: &[VarId], random: &mut SplitMix64| {
        if random.chance(1, 2) {
            Circuit::new(vars)
        } else {
            Circuit::with_base(vars, 1)
        }
    };
    for arity in [1, 2, 4, 5] {
        let make = || ConformanceTest::with_parameters(arity, 0..=5, build).max_domain_size(5);
        if arity > 2 {
            conforms("circuit", make, &[], None);
        } else {
            // Too few nodes to prune or fail often: sound, with and without repeats.
            make().cases(CASES).assert_conforms();
            make().repeated_variables().cases(CASES).assert_conforms();
        }
    }
}

#[test]
fn regular_is_domain_consistent() {
    let build = |vars: &[VarId], random: &mut SplitMix64| {
        let dfa = if random.chance(1, 2) {
            let blocks: Vec<usize> = (0..random.below(3))
                .map(|_| 1 + random.below(2) as usize)
                .collect();
            Dfa::blocks(&blocks)
        } else {
            // A random partial automaton over 3 states and values 0..=2.
            let mut transitions = Vec::new();
            for from in 0..3 {
                for value in 0..=2 {
                    if random.chance(2, 3) {
                        transitions.push((from, value, random.below(3) as usize));
                    }
                }
            }
            let accepting: Vec<usize> = (0..3).filter(|_| random.chance(1, 2)).collect();
            Dfa::new(3, 0, &accepting, &transitions).expect("a deterministic automaton")
        };
        Regular::new(vars, dfa)
    };
    conforms(
        "regular",
        || ConformanceTest::with_parameters(5, -1..=2, build),
        &PRUNING,
        Some(Consistency::Domain),
    );
}

#[test]
fn member_plain_reified_and_implied_is_domain_consistent() {
    let build = |vars: &[VarId], random: &mut SplitMix64| {
        let values: Vec<i32> = (0..random.below(4))
            .map(|_| random.value_in(-2..=3))
            .collect();
        match random.below(3) {
            0 => Member::new(vars[0], &values),
            1 => Member::reified(vars[0], &values, vars[1]),
            _ => Member::implied(vars[0], &values, vars[1]),
        }
    };
    conforms(
        "member",
        || ConformanceTest::with_parameters(2, -2..=3, build),
        &PRUNING,
        Some(Consistency::Domain),
    );
}

/// A random table over `vars`.
fn random_table(vars: &[VarId], random: &mut SplitMix64) -> Table {
    let tuples: Vec<Vec<i32>> = (0..random.below(12))
        .map(|_| vars.iter().map(|_| random.value_in(-1..=2)).collect())
        .collect();
    Table::new(vars, &tuples).expect("tuples of the scope's length")
}

#[test]
fn reified_constraints_conform_at_every_level() {
    use cspkit::{AllDifferent, Comparison, Linear};
    let build = |vars: &[VarId], random: &mut SplitMix64| {
        let (inner, b) = vars.split_at(vars.len() - 1);
        let b = b[0];
        let implied = random.chance(1, 3);
        let constraint: Box<dyn cspkit::Constraint> = match random.below(4) {
            0 => Box::new(random_table(inner, random)),
            1 => Box::new(AllDifferent::new(inner)),
            2 => {
                let terms: Vec<(i64, VarId)> = inner
                    .iter()
                    .map(|&x| (i64::from(random.value_in(-2..=2)), x))
                    .collect();
                let op = Comparison::ALL[random.below(6) as usize];
                Box::new(Linear::new(&terms, op, i64::from(random.value_in(-3..=3))))
            }
            _ => Box::new(Arithmetic::new(
                Operation::Times,
                inner[0],
                inner[1],
                inner[2],
            )),
        };
        if implied {
            Reified::implied(constraint, b)
        } else {
            Reified::new(constraint, b)
        }
    };
    conforms(
        "reified",
        || ConformanceTest::with_parameters(4, -1..=2, build),
        &[],
        None,
    );
}

#[test]
fn product_conforms_and_solves_the_last_variable_at_forward() {
    // 0 to 3 factors and the product, over values around 0 so that signs and zero both occur;
    // repeated variables (x · x = z, x · y = x) in the second run of `conforms`.
    let build = |vars: &[VarId], random: &mut SplitMix64| {
        let factors = random.below(4) as usize;
        Product::new(&vars[..factors], vars[vars.len() - 1])
    };
    let report = conforms(
        "product",
        || ConformanceTest::with_parameters(4, -3..=4, build),
        &PRUNING,
        None,
    );
    // Forward is the forward rule: once one variable is left, it keeps exactly its supports.
    let forward = report.level(PropagationLevel::Forward);
    assert!(forward.pruned > 0, "{report}");
    // Wider values, where the bounds and divisors of Full do most of the work.
    conforms(
        "product, wide values",
        || ConformanceTest::with_parameters(4, -12..=30, build).max_domain_size(8),
        &PRUNING,
        None,
    );
}

#[test]
fn cumulative_conforms_with_constant_and_variable_amounts() {
    // Constant durations and demands: 2 to 4 tasks, capacities from 0 (nothing may run) up.
    let constants = |vars: &[VarId], random: &mut SplitMix64| {
        let n = 2 + random.below(3) as usize;
        let durations: Vec<i32> = (0..n).map(|_| random.value_in(0..=3)).collect();
        let demands: Vec<i32> = (0..n).map(|_| random.value_in(0..=2)).collect();
        let capacity = random.value_in(0..=3);
        Cumulative::new(&vars[..n], &durations, &demands, capacity).expect("one entry per task")
    };
    conforms(
        "cumulative",
        || ConformanceTest::with_parameters(4, 0..=6, constants).max_domain_size(6),
        &[],
        None,
    );
    // Two tasks whose durations, demands and the capacity are variables, negative values
    // included (the check refuses them).
    let variables = |vars: &[VarId], _: &mut SplitMix64| {
        Cumulative::with_variables(&vars[..2], &vars[2..4], &vars[4..6], vars[6])
            .expect("one entry per task")
    };
    conforms(
        "cumulative with variables",
        || ConformanceTest::with_parameters(7, -1..=3, variables).max_assignments(4096),
        &[],
        None,
    );
}

#[test]
fn cumulative_finds_edges_among_the_tasks_above_half_the_capacity() {
    // Demands 2 of a capacity of 3: no two tasks overlap. A and B fit only in 0..6; C (2 long)
    // cannot run before both, since the three need 8 units of time from 0, so it starts at 6.
    // Time-tabling (no compulsory parts), energy (12 of 18 in 0..6) and pairs (C fits before
    // A or B alone) see nothing.
    let mut model = Model::new();
    let a = model.new_var(0..=3).unwrap();
    let b = model.new_var(0..=3).unwrap();
    let c = model.new_var(0..=18).unwrap();
    let tasks = [a, b, c];
    model
        .post(Cumulative::new(&tasks, &[3, 3, 2], &[2, 2, 2], 3).unwrap())
        .unwrap();
    let domains = common::root_domains(&model, PropagationLevel::Forward).unwrap();
    assert_eq!(domains[c.index()].first(), Some(&6));
    // With demands of 1 the tasks may overlap, and nothing moves.
    let mut model = Model::new();
    let tasks: Vec<VarId> = [0..=3, 0..=3, 0..=18]
        .into_iter()
        .map(|range| model.new_var(range).unwrap())
        .collect();
    model
        .post(Cumulative::new(&tasks, &[3, 3, 2], &[1, 2, 2], 3).unwrap())
        .unwrap();
    let domains = common::root_domains(&model, PropagationLevel::Forward).unwrap();
    assert_eq!(domains[tasks[2].index()].first(), Some(&0));
}

#[test]
fn disjunctive_conforms_strict_or_not() {
    let constants = |vars: &[VarId], random: &mut SplitMix64| {
        let n = 2 + random.below(3) as usize;
        let durations: Vec<i32> = (0..n).map(|_| random.value_in(0..=3)).collect();
        let disjunctive = Disjunctive::new(&vars[..n], &durations).expect("one entry per task");
        if random.chance(1, 2) {
            disjunctive.strict()
        } else {
            disjunctive
        }
    };
    conforms(
        "disjunctive",
        || ConformanceTest::with_parameters(4, 0..=6, constants).max_domain_size(6),
        &[],
        None,
    );
    let variables = |vars: &[VarId], random: &mut SplitMix64| {
        let disjunctive =
            Disjunctive::with_variables(&vars[..3], &vars[3..]).expect("one entry per task");
        if random.chance(1, 2) {
            disjunctive.strict()
        } else {
            disjunctive
        }
    };
    conforms(
        "disjunctive with variables",
        || ConformanceTest::with_parameters(6, -1..=4, variables).max_assignments(4096),
        &[],
        None,
    );
}

#[test]
fn subcircuit_conforms() {
    let build = |vars: &[VarId], random: &mut SplitMix64| {
        if random.chance(1, 2) {
            Subcircuit::new(vars)
        } else {
            Subcircuit::with_base(vars, 1)
        }
    };
    for arity in [1, 2, 4, 5] {
        let make = || ConformanceTest::with_parameters(arity, 0..=5, build).max_domain_size(5);
        if arity > 2 {
            conforms("subcircuit", make, &[], None);
        } else {
            make().cases(CASES).assert_conforms();
            make().repeated_variables().cases(CASES).assert_conforms();
        }
    }
}

#[test]
fn reified_equality_is_domain_consistent() {
    // x, y, and b over 0/1 (the kit draws b's domain from -1..=4 too: the check refuses
    // values other than 0 and 1).
    let build = |vars: &[VarId], random: &mut SplitMix64| {
        ReifiedEquality::new(vars[0], vars[1], random.value_in(-2..=2), vars[2])
    };
    conforms(
        "reified equality",
        || ConformanceTest::with_parameters(3, -1..=4, build),
        &PRUNING,
        Some(Consistency::Domain),
    );
}
