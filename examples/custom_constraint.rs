//! A constraint written from scratch, tested with the conformance kit, then used on a puzzle.
//!
//! The constraint: the values of two neighbouring cells are not consecutive, `|x − y| ≠ 1`.
//! The puzzle: write 1 to 8 in the eight circles below, each once, so that no two circles
//! joined by a line hold consecutive numbers.
//!
//! ```text
//!         A     B
//!       / | \ / | \
//!      C--D--E--F          (all lines: A–C A–D A–E B–D B–E B–F C–D D–E E–F
//!       \ | / \ | /                     C–G D–G D–H E–G E–H F–H)
//!         G     H
//! ```
//!
//! `docs/custom-constraints.md` walks through this file step by step.
//!
//! Run with `cargo run --release --example custom_constraint`.

use cspkit::conformance::ConformanceTest;
use cspkit::kernel::{Conflict, Constraint, PropagationContext, WakeOn};
use cspkit::{
    AllDifferent, InputOrder, Model, ModelError, Predicate, PropagationLevel, SmallestDomain, VarId,
};

/// `|x − y| ≠ 1`: the values of `x` and `y` are not consecutive.
///
/// Propagation: at `None`, fails once both are fixed to consecutive values; at `Forward`, when
/// one is fixed to `v`, removes `v − 1` and `v + 1` from the other; at `Full`, arc consistency:
/// also, when the other holds exactly `{v − 1, v + 1}`, removes `v`, which both of them rule
/// out.
#[derive(Debug, Clone)]
pub struct NotConsecutive {
    scope: [VarId; 2],
}

impl NotConsecutive {
    /// `|x − y| ≠ 1`.
    pub fn new(x: VarId, y: VarId) -> Self {
        NotConsecutive { scope: [x, y] }
    }
}

impl Constraint for NotConsecutive {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[i32]) -> bool {
        // In i64, so that i32::MIN and i32::MAX cannot overflow.
        (i64::from(values[0]) - i64::from(values[1])).abs() != 1
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let [x, y] = self.scope;
        if ctx.level() == PropagationLevel::None {
            return match (ctx.value(x), ctx.value(y)) {
                (Some(a), Some(b)) if !self.check(&[a, b]) => Err(Conflict),
                _ => Ok(()),
            };
        }
        revise(ctx, x, y)?;
        revise(ctx, y, x)
    }

    fn wake_on(&self, level: PropagationLevel) -> WakeOn {
        match level {
            PropagationLevel::Full => WakeOn::AnyChange,
            _ => WakeOn::Fixed,
        }
    }

    fn is_idempotent(&self, _level: PropagationLevel) -> bool {
        // A value that supports another is supported by it, so the second `revise` never
        // removes a support the first one relied on.
        true
    }
}

/// Removes from `target` the values that no value of `other` supports.
///
/// A value `a` lacks support only if every value of `other` is `a − 1` or `a + 1`: `other`
/// is `{a − 1}`, `{a + 1}` or `{a − 1, a + 1}`. So only an `other` of one or two values
/// prunes anything.
fn revise(ctx: &mut PropagationContext<'_>, target: VarId, other: VarId) -> Result<(), Conflict> {
    let domain = ctx.domain(other);
    let (Some(low), Some(high)) = (domain.min(), domain.max()) else {
        return Err(Conflict);
    };
    match domain.size() {
        1 => {
            // `other` is fixed to `low`: its two neighbours are ruled out.
            if let Some(below) = low.checked_sub(1) {
                ctx.remove(target, below)?;
            }
            if let Some(above) = low.checked_add(1) {
                ctx.remove(target, above)?;
            }
        }
        2 if ctx.level() == PropagationLevel::Full && i64::from(high) - i64::from(low) == 2 => {
            // `other` is `{v − 1, v + 1}`: `v` is next to both.
            ctx.remove(target, low + 1)?;
        }
        _ => {}
    }
    Ok(())
}

/// The eight circles, in the order A to H, and the lines between them.
#[rustfmt::skip]
const LINES: [(usize, usize); 15] = [
    (0, 2), (0, 3), (0, 4), (1, 3), (1, 4), (1, 5), (2, 3), (3, 4),
    (4, 5), (2, 6), (3, 6), (3, 7), (4, 6), (4, 7), (5, 7),
];

/// How the "not consecutive" rule is posted.
#[derive(Debug, Clone, Copy)]
enum Rule {
    /// A closure, with the catalogue's `Predicate`: quick to write, forward checking at best.
    Closure,
    /// The constraint above.
    Dedicated,
}

/// The puzzle: one variable per circle, values 1 to 8, all different, and the rule on
/// every line.
fn eight_circles(rule: Rule) -> Result<(Model, Vec<VarId>), ModelError> {
    let mut model = Model::new();
    let circles: Vec<VarId> = ["A", "B", "C", "D", "E", "F", "G", "H"]
        .into_iter()
        .map(|name| model.new_named_var(name, 1..=8))
        .collect::<Result<_, _>>()?;
    model.post(AllDifferent::new(&circles))?;
    for (a, b) in LINES {
        let (x, y) = (circles[a], circles[b]);
        match rule {
            Rule::Closure => model.post(Predicate::new(&[x, y], |v| (v[0] - v[1]).abs() != 1))?,
            Rule::Dedicated => model.post(NotConsecutive::new(x, y))?,
        };
    }
    Ok((model, circles))
}

/// Every arrangement of 1 to 8 that the model accepts, by brute force over the 8!
/// permutations (Heap's algorithm).
fn brute_force(model: &Model) -> usize {
    let mut values: Vec<i32> = (1..=8).collect();
    let mut counters = [0usize; 8];
    let mut found = usize::from(model.is_solution(&values));
    let mut i = 1;
    while i < 8 {
        if counters[i] < i {
            let j = if i % 2 == 0 { 0 } else { counters[i] };
            values.swap(j, i);
            found += usize::from(model.is_solution(&values));
            counters[i] += 1;
            i = 1;
        } else {
            counters[i] = 0;
            i += 1;
        }
    }
    found
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // 1. Test the constraint alone: 500 random cases, every level, every property.
    let report = ConformanceTest::new(2, -3..=6, |vars| NotConsecutive::new(vars[0], vars[1]))
        .cases(500)
        .assert_conforms();
    print!("{report}");
    assert!(report.level(PropagationLevel::Full).is_domain_consistent());

    // 2. Solve the puzzle.
    let (model, circles) = eight_circles(Rule::Dedicated)?;
    let solution = model
        .solve()
        .solution()
        .ok_or("the puzzle has no solution")?;
    let [a, b, c, d, e, f, g, h] = solution.values_of(&circles)[..] else {
        unreachable!("eight circles")
    };
    println!("\n    {a}   {b}\n  {c} {d}   {e} {f}\n    {g}   {h}\n");
    let count = model.solver().count().solutions;
    assert_eq!(count as usize, brute_force(&model));
    println!("{count} solutions (the brute force agrees)");

    // 3. Compare strategies: nodes to find every solution.
    println!("\nrule       propagation  input order  smallest domain");
    for (rule, level) in [
        (Rule::Closure, PropagationLevel::None),
        (Rule::Closure, PropagationLevel::Forward),
        (Rule::Dedicated, PropagationLevel::Forward),
        (Rule::Dedicated, PropagationLevel::Full),
    ] {
        let (model, _) = eight_circles(rule)?;
        let mut input = model
            .solver()
            .with_propagation(level)
            .with_variable_order(InputOrder);
        let mut smallest = model
            .solver()
            .with_propagation(level)
            .with_variable_order(SmallestDomain);
        assert_eq!(input.count().solutions, count);
        assert_eq!(smallest.count().solutions, count);
        println!(
            "{:<10} {:<12} {:>11} {:>16}",
            format!("{rule:?}"),
            format!("{level:?}"),
            input.stats().decisions,
            smallest.stats().decisions
        );
    }
    Ok(())
}
