//! Two constraints written from scratch with the public API only, the way a user of the crate
//! would, and tested the way the `constraints` module recommends: against a brute-force
//! enumeration filtered by their own `check`.
//!
//! - [`LessThan`]: `x < y`, with bounds pruning.
//! - [`NoAdjacentStep`]: no two neighbours in a sequence differ by exactly one, pruned a machine
//!   word at a time with [`Domain::window`] and [`PropagationContext::retain_window`].
//!
//! Checked at every propagation level: the solutions of random models that mix them with the
//! built-ins are the brute-force solutions, in the same order; pruning never removes a value of
//! a solution; a fixed scope that breaks a rule fails; forward checking reaches the naive
//! fixpoint; and full propagation, being arc consistency, keeps exactly the supported values
//! of a lone sequence and of a tree of these constraints.

use crate::common;

use common::{
    ConstraintRecipe, ConstraintSpec, LEVELS, ModelSpec, Pair, brute_force, clustered_domain,
    clustered_model_specs, collect_solutions, domain, forward_checking_fixpoint,
    full_root_propagation_is_exact, model_specs, root_domains, scale, scope, supported_values,
};
use cspkit::{
    Conflict, Constraint, Descending, Domain, PropagationContext, PropagationLevel, SmallestDomain,
    VarId, WakeOn,
};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::subsequence;

// ----- x < y -----

/// `x < y`.
///
/// - `None`: fails when both are fixed and `x ≥ y`.
/// - `Forward`: a fixed `x` removes from `y` every value up to `x`; a fixed `y` removes from `x`
///   every value from `y` up.
/// - `Full`: bounds consistency, `x ≤ max(y) − 1` and `y ≥ min(x) + 1`, which for `<` is also
///   domain consistency: every value left has a support.
#[derive(Debug)]
struct LessThan {
    scope: [VarId; 2],
}

impl Constraint for LessThan {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[i32]) -> bool {
        values[0] < values[1]
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let [x, y] = self.scope;
        let (low_x, high_y) = match ctx.level() {
            PropagationLevel::None => {
                return match (ctx.value(x), ctx.value(y)) {
                    (Some(vx), Some(vy)) if vx >= vy => Err(Conflict),
                    _ => Ok(()),
                };
            }
            PropagationLevel::Forward => (ctx.value(x), ctx.value(y)),
            PropagationLevel::Full => (ctx.domain(x).min(), ctx.domain(y).max()),
        };
        if let Some(high_y) = high_y {
            ctx.remove_above(x, high_y.checked_sub(1).ok_or(Conflict)?)?;
        }
        if let Some(low_x) = low_x {
            ctx.remove_below(y, low_x.checked_add(1).ok_or(Conflict)?)?;
        }
        Ok(())
    }

    fn wake_on(&self, level: PropagationLevel) -> WakeOn {
        match level {
            PropagationLevel::Full => WakeOn::AnyChange,
            _ => WakeOn::Fixed,
        }
    }

    fn is_idempotent(&self, _level: PropagationLevel) -> bool {
        // Lowering max(x) leaves min(x) alone, and raising min(y) leaves max(y) alone (short of
        // emptying a domain, which is a conflict), so a second call finds nothing new.
        true
    }
}

// ----- |xᵢ − xᵢ₊₁| ≠ 1 -----

/// No two neighbours in the sequence `scope` differ by exactly one: `|xᵢ − xᵢ₊₁| ≠ 1`.
///
/// - `None`: fails when two fixed neighbours differ by one.
/// - `Forward`: a fixed neighbour `v` removes `v − 1` and `v + 1`. One pass; the engine calls
///   again when that fixes another variable.
/// - `Full`: arc consistency on every pair of neighbours, repeated until nothing changes. A
///   value `w` of `a` has no support in its neighbour `b` exactly when `b ⊆ {w − 1, w + 1}`;
///   with the bits of `b` shifted one place either way (`below`: `b` holds `w − 1`; `above`:
///   `b` holds `w + 1`), the values without support are `below | above` when `b` has one
///   value, `below & above` when it has two, and none when it has more. The sequence is a
///   path, so arc consistency keeps exactly the values that some solution of the constraint
///   uses.
#[derive(Debug)]
struct NoAdjacentStep {
    scope: Vec<VarId>,
}

impl NoAdjacentStep {
    /// Removes from `a` the values without support in its neighbour `b`, 64 at a time.
    /// Returns whether `a` changed.
    fn revise(ctx: &mut PropagationContext<'_>, a: VarId, b: VarId) -> Result<bool, Conflict> {
        let neighbour: &Domain = ctx.domain(b);
        let size = neighbour.size();
        if size == 0 {
            return Err(Conflict);
        }
        if size > 2 {
            return Ok(false);
        }
        let (Some(low), Some(high)) = (ctx.domain(a).min(), ctx.domain(a).max()) else {
            return Err(Conflict);
        };
        let mut changed = false;
        let mut base = low;
        loop {
            let neighbour = ctx.domain(b);
            let bits = neighbour.window(base);
            let has = |value: Option<i32>| u64::from(value.is_some_and(|v| neighbour.contains(v)));
            // Bit i of `below` / `above`: the neighbour holds base + i − 1 / base + i + 1.
            let below = bits << 1 | has(base.checked_sub(1));
            let above = bits >> 1 | has(base.checked_add(64)) << 63;
            let doomed = if size == 1 {
                below | above
            } else {
                below & above
            };
            if doomed != 0 {
                changed |= ctx.retain_window(a, base, !doomed)?;
            }
            match base.checked_add(64) {
                Some(next) if next <= high => base = next,
                _ => return Ok(changed),
            }
        }
    }
}

impl Constraint for NoAdjacentStep {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[i32]) -> bool {
        values
            .windows(2)
            .all(|pair| (i64::from(pair[0]) - i64::from(pair[1])).abs() != 1)
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        match ctx.level() {
            PropagationLevel::None => {
                for pair in self.scope.windows(2) {
                    if let (Some(a), Some(b)) = (ctx.value(pair[0]), ctx.value(pair[1]))
                        && !self.check(&[a, b])
                    {
                        return Err(Conflict);
                    }
                }
                Ok(())
            }
            PropagationLevel::Forward => {
                for pair in self.scope.windows(2) {
                    for (fixed, other) in [(pair[0], pair[1]), (pair[1], pair[0])] {
                        if let Some(v) = ctx.value(fixed) {
                            for step in [v.checked_sub(1), v.checked_add(1)].into_iter().flatten() {
                                ctx.remove(other, step)?;
                            }
                        }
                    }
                }
                Ok(())
            }
            PropagationLevel::Full => loop {
                let mut changed = false;
                for pair in self.scope.windows(2) {
                    changed |= Self::revise(ctx, pair[0], pair[1])?;
                    changed |= Self::revise(ctx, pair[1], pair[0])?;
                }
                if !changed {
                    return Ok(());
                }
            },
        }
    }

    fn wake_on(&self, level: PropagationLevel) -> WakeOn {
        match level {
            PropagationLevel::Full => WakeOn::AnyChange,
            _ => WakeOn::Fixed,
        }
    }

    fn is_idempotent(&self, level: PropagationLevel) -> bool {
        // `Full` loops to its own fixpoint; `Forward` makes one pass, and a variable it fixes
        // must be looked at again.
        level != PropagationLevel::Forward
    }
}

// ----- Random models with the two constraints -----

/// How to post one of the constraints of this file: variables by index in declaration order.
#[derive(Debug, Clone)]
enum Custom {
    /// `LessThan` on `x`, `y`.
    Less { x: usize, y: usize },
    /// `NoAdjacentStep` on a sequence.
    NoStep { sequence: Vec<usize> },
}

impl ConstraintRecipe for Custom {
    fn build(&self, vars: &[VarId]) -> Box<dyn Constraint> {
        match self {
            Custom::Less { x, y } => Box::new(LessThan {
                scope: [vars[*x], vars[*y]],
            }),
            Custom::NoStep { sequence } => Box::new(NoAdjacentStep {
                scope: sequence.iter().map(|&i| vars[i]).collect(),
            }),
        }
    }
}

impl Custom {
    /// The binary relations forward checking enforces for the constraint.
    fn pairs(&self) -> Vec<Pair> {
        match self {
            &Custom::Less { x, y } => vec![Pair::new(x, y, |a, b| a < b)],
            Custom::NoStep { sequence } => sequence
                .windows(2)
                .map(|pair| {
                    Pair::new(pair[0], pair[1], |a, b| {
                        (i64::from(a) - i64::from(b)).abs() != 1
                    })
                })
                .collect(),
        }
    }
}

/// The binary relations of every constraint of `spec`.
fn pairs(spec: &ModelSpec<Custom>) -> Vec<Pair> {
    spec.constraints
        .iter()
        .flat_map(|c| match c {
            ConstraintSpec::Extra(custom) => custom.pairs(),
            builtin => builtin.builtin_pairs().expect("a built-in constraint"),
        })
        .collect()
}

/// A domain of one to three values among `m` + {0, 1, 62, 63, 64, 65, 127, 128}, for `m` in
/// -2..=2: values one apart straddle the ends of 64-value windows, wherever these start.
fn boundary_domain() -> impl Strategy<Value = Vec<i32>> {
    (
        -2i32..=2,
        subsequence(vec![0, 1, 62, 63, 64, 65, 127, 128], 1..=3),
    )
        .prop_map(|(m, values)| values.into_iter().map(|v| m + v).collect())
}

/// A domain for the exactness tests: one to three values of -2..=3 (neighbours are common, and
/// so are neighbours with one or two values, the only ones that prune), clustered values, or
/// values around window boundaries.
fn dense_domain() -> impl Strategy<Value = Vec<i32>> {
    prop_oneof![
        subsequence((-2..=3).collect::<Vec<i32>>(), 1..=3),
        clustered_domain(),
        boundary_domain(),
    ]
}

/// A random constraint of this file over `num_variables` (at least 2) variables.
fn custom(num_variables: usize, _scale: i32) -> impl Strategy<Value = Custom> {
    prop_oneof![
        scope(num_variables, 2..=2).prop_map(|pair| Custom::Less {
            x: pair[0],
            y: pair[1]
        }),
        scope(num_variables, 2..=num_variables.min(4))
            .prop_map(|sequence| Custom::NoStep { sequence }),
    ]
}

/// Random models of two to five variables mixing the built-ins and the constraints of this
/// file, over small, spread-out or clustered domains (where neighbouring values straddle the
/// multiples of 64).
fn models() -> impl Strategy<Value = ModelSpec<Custom>> {
    prop_oneof![
        model_specs(2..=5, 3, custom),
        clustered_model_specs(2..=5, 3, custom),
    ]
}

/// A tree of binary constraints of this file over two to six variables: each variable after the
/// first is tied to one earlier variable, by `LessThan` (either way round) or by a two-variable
/// `NoAdjacentStep`, over domains from [`dense_domain`].
fn trees() -> impl Strategy<Value = ModelSpec<Custom>> {
    (2usize..=6)
        .prop_flat_map(|n| {
            let edges = (1..n).map(|child| (0..child, 0u8..3)).collect::<Vec<_>>();
            (vec(dense_domain(), n), edges)
        })
        .prop_map(|(domains, edges)| {
            let constraints = edges
                .into_iter()
                .enumerate()
                .map(|(i, (parent, kind))| {
                    let child = i + 1;
                    ConstraintSpec::Extra(match kind {
                        0 => Custom::Less {
                            x: parent,
                            y: child,
                        },
                        1 => Custom::Less {
                            x: child,
                            y: parent,
                        },
                        _ => Custom::NoStep {
                            sequence: vec![parent, child],
                        },
                    })
                })
                .collect();
            ModelSpec {
                domains,
                constraints,
                planted: None,
            }
        })
}

/// A lone `NoAdjacentStep` over two to five variables taken in random order, with domains from
/// [`dense_domain`] or as in the random models.
fn lone_sequences() -> impl Strategy<Value = ModelSpec<Custom>> {
    (2usize..=5, scale(), any::<bool>())
        .prop_flat_map(|(n, scale, dense)| {
            let domain = if dense {
                dense_domain().boxed()
            } else {
                domain(scale).boxed()
            };
            (vec(domain, n), scope(n, 2..=n))
        })
        .prop_map(|(domains, sequence)| ModelSpec {
            domains,
            constraints: vec![ConstraintSpec::Extra(Custom::NoStep { sequence })],
            planted: None,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn models_with_custom_constraints_have_exactly_the_brute_force_solutions(spec in models()) {
        let (model, _) = spec.build();
        let expected = brute_force(&model);
        for level in LEVELS {
            // Input order and ascending values: the brute-force order itself.
            let mut solver = model.solver().with_propagation(level);
            let (found, stopped_by) = collect_solutions(&mut solver);
            prop_assert_eq!(stopped_by, None);
            prop_assert_eq!(&found, &expected, "at {:?}", level);
            // Another strategy: the same set.
            let mut solver = model
                .solver()
                .with_variable_order(SmallestDomain)
                .with_value_order(Descending)
                .with_propagation(level);
            let (mut found, _) = collect_solutions(&mut solver);
            found.sort();
            prop_assert_eq!(&found, &expected, "at {:?} with SmallestDomain, Descending", level);
        }
    }

    #[test]
    fn custom_constraints_never_prune_a_value_of_a_solution(spec in models()) {
        let (model, _) = spec.build();
        let expected = brute_force(&model);
        let supported = supported_values(&expected, model.num_variables());
        for level in LEVELS {
            match root_domains(&model, level) {
                None => prop_assert!(expected.is_empty(), "root failed at {:?}", level),
                Some(root) => {
                    for (i, (root, supported)) in root.iter().zip(&supported).enumerate() {
                        prop_assert!(
                            supported.is_subset(root),
                            "x{} at {:?}: {:?} pruned, but solutions use {:?}",
                            i, level, root, supported
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn custom_constraints_fail_on_every_fixed_violating_assignment(
        spec in models(),
        picks in vec(any::<proptest::sample::Index>(), 5),
    ) {
        let values: Vec<i32> = spec
            .domains
            .iter()
            .zip(&picks)
            .map(|(domain, pick)| *pick.get(domain))
            .collect();
        for constraint in &spec.constraints {
            let lone = ModelSpec {
                domains: values.iter().map(|&v| vec![v]).collect(),
                constraints: vec![constraint.clone()],
                planted: None,
            };
            let (model, _) = lone.build();
            let satisfied = constraint.is_satisfied_by(&values);
            for level in LEVELS {
                let solved = model.solver().with_propagation(level).next_solution().is_solved();
                prop_assert_eq!(solved, satisfied, "{:?} on {:?} at {:?}", constraint, values, level);
            }
        }
    }

}

// Root propagation only, on tiny models: cheap, so more cases.
proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn forward_checking_at_the_root_reaches_the_fixpoint_of_the_binary_relations(
        spec in prop_oneof![models(), trees(), lone_sequences()],
    ) {
        let (model, _) = spec.build();
        let expected = forward_checking_fixpoint(&spec.domains, &pairs(&spec));
        prop_assert_eq!(root_domains(&model, PropagationLevel::Forward), expected);
    }

    #[test]
    fn full_propagation_of_a_lone_no_adjacent_step_keeps_only_supported_values(
        spec in lone_sequences(),
    ) {
        full_root_propagation_is_exact(&spec)?;
    }

    #[test]
    fn full_propagation_on_a_tree_of_custom_constraints_keeps_only_supported_values(
        spec in trees(),
    ) {
        // Each constraint of a tree is made arc consistent, and an arc-consistent tree of binary
        // constraints has a solution through every value left; so this also checks that the
        // engine runs the constraints to a common fixpoint.
        full_root_propagation_is_exact(&spec)?;
    }
}

#[test]
fn a_constraint_is_woken_again_when_another_one_shrinks_a_variable_without_fixing_it() {
    // Posted first, `NoAdjacentStep [p, c]` finds nothing to prune: c = {0, 2, 3} gives every
    // value of p a support. Then `c < d` removes 3 from c, and p = 1 loses its supports (0 and
    // 2 are both one away). Only a second run of the first constraint, woken by that change,
    // prunes it.
    let spec = ModelSpec {
        domains: vec![vec![0, 1, 2], vec![0, 2, 3], vec![3]],
        constraints: vec![
            ConstraintSpec::Extra(Custom::NoStep {
                sequence: vec![0, 1],
            }),
            ConstraintSpec::Extra(Custom::Less { x: 1, y: 2 }),
        ],
        planted: None,
    };
    full_root_propagation_is_exact(&spec).expect("exact pruning at the root");
}
