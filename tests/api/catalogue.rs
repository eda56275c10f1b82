//! Table, Element and Predicate inside whole models: the solutions the engine finds, at every
//! propagation level and under two strategies, are exactly the brute-force solutions.
//!
//! The conformance kit (`tests/conformance.rs`) tests each constraint alone; this file tests
//! them together with the engine's wake-ups and idempotence shortcuts, mixed with the other
//! built-ins.

use crate::common;

use common::{ConstraintRecipe, brute_force, check_every_level_and_strategy, model_specs, scope};
use cspkit::{Constraint, Element, Predicate, Table, VarId};
use proptest::collection::vec;
use proptest::prelude::*;

/// A catalogue constraint over variables given by their declaration index.
#[derive(Debug, Clone)]
enum Catalogue {
    Table {
        scope: Vec<usize>,
        tuples: Vec<Vec<i32>>,
    },
    ElementOfConstants {
        index: usize,
        value: usize,
        array: Vec<i32>,
    },
    /// The array may repeat variables and contain `index` or `value`.
    ElementOfVariables {
        index: usize,
        value: usize,
        array: Vec<usize>,
    },
    /// `Σ weights[i] · x[scope[i]] ≤ bound`, as a closure.
    Predicate {
        scope: Vec<usize>,
        weights: Vec<i32>,
        bound: i32,
    },
}

impl ConstraintRecipe for Catalogue {
    fn build(&self, vars: &[VarId]) -> Box<dyn Constraint> {
        let pick = |indices: &[usize]| -> Vec<VarId> { indices.iter().map(|&i| vars[i]).collect() };
        match self {
            Catalogue::Table { scope, tuples } => {
                Box::new(Table::new(&pick(scope), tuples).expect("tuples of the scope's length"))
            }
            Catalogue::ElementOfConstants {
                index,
                value,
                array,
            } => Box::new(Element::new(array, vars[*index], vars[*value])),
            Catalogue::ElementOfVariables {
                index,
                value,
                array,
            } => Box::new(Element::with_variables(
                &pick(array),
                vars[*index],
                vars[*value],
            )),
            Catalogue::Predicate {
                scope,
                weights,
                bound,
            } => {
                let (weights, bound) = (weights.clone(), *bound);
                Box::new(Predicate::new(&pick(scope), move |values| {
                    let sum: i64 = values
                        .iter()
                        .zip(&weights)
                        .map(|(&v, &w)| i64::from(v) * i64::from(w))
                        .sum();
                    sum <= i64::from(bound)
                }))
            }
        }
    }
}

/// A value as the random domains draw them: from -3..=5, times `scale`.
fn value(scale: i32) -> impl Strategy<Value = i32> {
    (-3i32..=5).prop_map(move |v| v * scale)
}

fn catalogue(num_variables: usize, scale: i32) -> impl Strategy<Value = Catalogue> {
    let n = num_variables;
    let table = scope(n, 1..=n.min(3)).prop_flat_map(move |scope| {
        let arity = scope.len();
        (Just(scope), vec(vec(value(scale), arity), 0..=12))
            .prop_map(|(scope, tuples)| Catalogue::Table { scope, tuples })
    });
    // Arrays of up to 6 entries, so indices 0..=5 (in every domain at scale 1) matter.
    let constants = (scope(n, 2..=2), vec(value(scale), 0..=6)).prop_map(|(pair, array)| {
        Catalogue::ElementOfConstants {
            index: pair[0],
            value: pair[1],
            array,
        }
    });
    let variables = (scope(n, 2..=2), vec(0..n, 1..=5)).prop_map(|(pair, array)| {
        Catalogue::ElementOfVariables {
            index: pair[0],
            value: pair[1],
            array,
        }
    });
    let predicate = scope(n, 1..=n.min(3)).prop_flat_map(move |scope| {
        let arity = scope.len();
        (Just(scope), vec(-2i32..=2, arity), -6i32..=6).prop_map(move |(scope, weights, b)| {
            Catalogue::Predicate {
                scope,
                weights,
                bound: b * scale,
            }
        })
    });
    prop_oneof![table, constants, variables, predicate]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_level_and_strategy_finds_exactly_the_brute_force_solutions(
        spec in model_specs(2..=5, 4, catalogue)
    ) {
        let (model, _) = spec.build();
        let expected = brute_force(&model);
        if let Some(planted) = &spec.planted {
            prop_assert!(expected.contains(planted), "the planted solution is lost");
        }
        check_every_level_and_strategy(&model, &expected)?;
    }
}
