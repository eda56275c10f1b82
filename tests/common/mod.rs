//! Helpers shared by the integration tests, on the public API only:
//!
//! - [`brute_force`], the oracle: a deliberately naive enumeration of every full assignment of a
//!   model's initial domains, in lexicographic order, filtered by the constraints' own checkers;
//! - [`ModelSpec`], a printable, shrinkable description of a small model, and
//!   [`model_specs`], the proptest strategy that produces them (with planted solutions half
//!   the time, so that many cases are satisfiable), and [`clustered_model_specs`], the same over
//!   domains that straddle machine-word boundaries;
//! - small observation helpers: [`collect_solutions`] and [`root_domains`];
//! - [`output_within`], which runs a program with a deadline and ends it (and every process it
//!   started) when the deadline passes.

#![allow(
    dead_code,
    reason = "each integration test crate uses a different subset of these helpers"
)]

use std::collections::BTreeSet;
use std::fmt::Debug;
use std::ops::RangeInclusive;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use cspkit::{
    AllDifferent, Constraint, Limit, Model, NotEqual, PropagationLevel, SearchObserver, SearchView,
    Solver, ValueOrder, VarId, VariableOrder,
};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{Index, subsequence};

/// Says on the terminal that a test skipped something, and why (a program it drives is not
/// installed). Written to standard error directly, past the test harness's capture, so that a
/// passing `cargo test` still shows it.
pub fn skipped(why: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "skipped: {why}");
}

/// What a program printed before it ended, or before the deadline of [`output_within`] ended it.
#[derive(Debug)]
pub struct Bounded {
    /// The exit status and everything printed (only what came before the deadline, if it
    /// passed).
    pub output: Output,
    /// Whether the deadline passed and the program was ended.
    pub timed_out: bool,
}

/// Runs `command` (no standard input, its output read as it comes) for at most `deadline`, then
/// ends it with every process it started: a program that hangs fails its test in time, and
/// leaves nothing running.
///
/// # Panics
///
/// If the program cannot be started or waited for.
pub fn output_within(command: &mut Command, deadline: Duration) -> Bounded {
    use std::io::Read as _;
    #[cfg(unix)]
    {
        // A process group of its own, so that the programs it starts end with it.
        use std::os::unix::process::CommandExt as _;
        command.process_group(0);
    }
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{command:?} cannot start: {e}"));
    let read = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = read(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = read(child.stderr.take().map(|p| Box::new(p) as _));
    let started = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait().expect("the program can be waited for") {
            break status;
        }
        if started.elapsed() > deadline {
            timed_out = true;
            #[cfg(unix)]
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.kill();
            break child.wait().expect("the program can be waited for");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Bounded {
        output: Output {
            status,
            stdout: stdout.join().expect("the reader of standard output"),
            stderr: stderr.join().expect("the reader of standard error"),
        },
        timed_out,
    }
}

/// The Baekjoon 2239 example (problem statement).
pub const BAEKJOON_2239: &str = "\
103000509
002109400
000704000
300502006
060000050
700803004
000401000
009205800
804000107
";

/// Its expected output (problem statement).
pub const BAEKJOON_2239_ANSWER: &str = "\
143628579
572139468
986754231
391542786
468917352
725863914
237481695
619275843
854396127
";

/// The three propagation levels, weakest first.
pub const LEVELS: [PropagationLevel; 3] = [
    PropagationLevel::None,
    PropagationLevel::Forward,
    PropagationLevel::Full,
];

/// The values random domains are drawn from (before scaling): a few negatives, zero, positives.
pub const BASE_VALUES: RangeInclusive<i32> = -3..=5;

/// The most values a random domain holds, which keeps brute force at 5^6 assignments at most.
pub const MAX_DOMAIN_SIZE: usize = 5;

/// The factor that spreads the values of a "wide" model: 40 × (-3..=5) spans 321 integers, more
/// than the 64 that fit one machine word, so domains and `AllDifferent` take their general path.
pub const WIDE_SCALE: i32 = 40;

/// Every solution of `model`, in lexicographic order of the values in declaration order.
///
/// Naive on purpose: every full assignment of the initial domains is built, in lexicographic
/// order (the last variable changing fastest), and kept when [`Model::is_solution`] accepts it,
/// that is when every constraint's own `check` passes. Exponential; for a few variables only.
pub fn brute_force(model: &Model) -> Vec<Vec<i32>> {
    let domains: Vec<Vec<i32>> = model
        .variables()
        .map(|var| {
            let mut values: Vec<i32> = model.domain(var).iter().collect();
            values.sort_unstable();
            values.dedup();
            values
        })
        .collect();
    if domains.iter().any(Vec::is_empty) {
        return Vec::new();
    }
    let mut solutions = Vec::new();
    let mut digits = vec![0usize; domains.len()];
    loop {
        let values: Vec<i32> = digits
            .iter()
            .zip(&domains)
            .map(|(&digit, domain)| domain[digit])
            .collect();
        if model.is_solution(&values) {
            solutions.push(values);
        }
        // Odometer step: the last variable changes fastest.
        let mut i = domains.len();
        loop {
            if i == 0 {
                return solutions;
            }
            i -= 1;
            digits[i] += 1;
            if digits[i] < domains[i].len() {
                break;
            }
            digits[i] = 0;
        }
    }
}

/// For each of `num_variables` variables, the values it takes in some of `solutions`.
pub fn supported_values(solutions: &[Vec<i32>], num_variables: usize) -> Vec<BTreeSet<i32>> {
    let mut supported = vec![BTreeSet::new(); num_variables];
    for solution in solutions {
        for (set, &value) in supported.iter_mut().zip(solution) {
            set.insert(value);
        }
    }
    supported
}

/// The initial domains of `model`, as sets.
pub fn initial_domains(model: &Model) -> Vec<BTreeSet<i32>> {
    model
        .variables()
        .map(|var| model.domain(var).iter().collect())
        .collect()
}

/// Every remaining solution of `solver` (as value vectors, in the order reported), and what
/// stopped the iteration (`None` when the search was exhausted).
pub fn collect_solutions<V: VariableOrder, W: ValueOrder, O: SearchObserver>(
    solver: &mut Solver<'_, V, W, O>,
) -> (Vec<Vec<i32>>, Option<Limit>) {
    let mut solutions = solver.solutions();
    let values = solutions
        .by_ref()
        .map(|solution| solution.values().to_vec())
        .collect();
    (values, solutions.stopped_by())
}

/// The domains after propagation at the root, at `level`, as the variable order sees them on its
/// first call (at depth 0); `None` if root propagation failed, in which case the order is never
/// asked.
///
/// # Panics
///
/// If the first call of the variable order is not at depth 0.
pub fn root_domains(model: &Model, level: PropagationLevel) -> Option<Vec<BTreeSet<i32>>> {
    let mut seen: Option<Vec<BTreeSet<i32>>> = None;
    let spy = |view: &SearchView<'_>| -> Option<VarId> {
        if seen.is_none() {
            assert_eq!(view.depth(), 0, "the first call of an order is at the root");
            seen = Some(
                view.variables()
                    .map(|var| view.domain(var).iter().collect())
                    .collect(),
            );
        }
        view.unfixed().next()
    };
    // One decision is enough: the order is asked before the first one.
    let _ = model
        .solver()
        .with_variable_order(spy)
        .with_propagation(level)
        .with_decision_limit(1)
        .next_solution();
    seen
}

/// Root propagation at `Full` on `spec` keeps exactly the values some solution uses, and fails
/// exactly when there is no solution.
pub fn full_root_propagation_is_exact<X: ConstraintRecipe>(
    spec: &ModelSpec<X>,
) -> Result<(), TestCaseError> {
    let (model, _) = spec.build();
    let expected = brute_force(&model);
    let supported = supported_values(&expected, model.num_variables());
    match root_domains(&model, PropagationLevel::Full) {
        None => prop_assert!(expected.is_empty(), "root failed, yet there are solutions"),
        Some(root) => {
            prop_assert!(
                !expected.is_empty(),
                "no solution, yet the root did not fail"
            );
            prop_assert_eq!(root, supported, "root domains vs supported values");
        }
    }
    Ok(())
}

/// Whether `sorted` holds no value twice (it must be sorted).
pub fn has_no_repeats<T: PartialEq>(sorted: &[T]) -> bool {
    sorted.windows(2).all(|pair| pair[0] != pair[1])
}

/// A binary relation between two variables (indices in declaration order): what forward
/// checking enforces once one of them is fixed.
pub struct Pair {
    /// The first variable.
    pub x: usize,
    /// The second variable.
    pub y: usize,
    /// Whether `x = a` and `y = b` go together.
    pub allowed: Box<dyn Fn(i32, i32) -> bool>,
}

impl Pair {
    /// The relation `allowed` between `x` and `y`.
    pub fn new(x: usize, y: usize, allowed: impl Fn(i32, i32) -> bool + 'static) -> Self {
        Pair {
            x,
            y,
            allowed: Box::new(allowed),
        }
    }
}

/// The domains that forward checking leaves, worked out naively: as long as some pair has one
/// variable fixed, remove from the other variable every value the pair forbids with it; `None`
/// if a domain runs empty (which includes two fixed variables that a pair forbids together).
///
/// The result does not depend on the order of the steps: each step only removes values, and a
/// step that is possible stays possible until it is taken.
pub fn forward_checking_fixpoint(
    domains: &[Vec<i32>],
    pairs: &[Pair],
) -> Option<Vec<BTreeSet<i32>>> {
    let mut domains: Vec<BTreeSet<i32>> = domains
        .iter()
        .map(|d| d.iter().copied().collect())
        .collect();
    loop {
        let mut changed = false;
        for pair in pairs {
            for (fixed, other, fixed_is_x) in [(pair.x, pair.y, true), (pair.y, pair.x, false)] {
                if domains[fixed].len() != 1 {
                    continue;
                }
                let v = *domains[fixed].first()?;
                let before = domains[other].len();
                domains[other].retain(|&w| {
                    if fixed_is_x {
                        (pair.allowed)(v, w)
                    } else {
                        (pair.allowed)(w, v)
                    }
                });
                if domains[other].is_empty() {
                    return None;
                }
                changed |= domains[other].len() != before;
            }
        }
        if !changed {
            return Some(domains);
        }
    }
}

/// A constraint type defined by a test file, described by a printable value that builds it.
pub trait ConstraintRecipe: Clone + Debug {
    /// Builds the constraint; `vars` are the model's variables in declaration order.
    fn build(&self, vars: &[VarId]) -> Box<dyn Constraint>;
}

/// No extra constraint: for models made of built-in constraints only.
#[derive(Debug, Clone, Copy)]
pub enum NoRecipe {}

impl ConstraintRecipe for NoRecipe {
    fn build(&self, _vars: &[VarId]) -> Box<dyn Constraint> {
        match *self {}
    }
}

/// One constraint of a [`ModelSpec`]; variables are indices in declaration order.
#[derive(Debug, Clone)]
pub enum ConstraintSpec<X> {
    /// `AllDifferent::new` (no offsets) or `AllDifferent::with_offsets`.
    AllDifferent {
        /// The scope, each variable once, in any order.
        scope: Vec<usize>,
        /// One offset per variable of the scope, or `None` for `AllDifferent::new`.
        offsets: Option<Vec<i32>>,
    },
    /// `x ≠ y + offset`.
    NotEqual {
        /// The first variable.
        x: usize,
        /// The second variable.
        y: usize,
        /// The constant added to `y`.
        offset: i32,
    },
    /// A constraint defined by the test file.
    Extra(X),
}

impl<X> ConstraintSpec<X> {
    /// The built-in constraint as the binary relations forward checking enforces: every pair of
    /// an `AllDifferent`, or the `NotEqual` itself; `None` for a constraint of a test file.
    pub fn builtin_pairs(&self) -> Option<Vec<Pair>> {
        match self {
            ConstraintSpec::AllDifferent { scope, offsets } => {
                let offset = |k: usize| offsets.as_ref().map_or(0, |o| i64::from(o[k]));
                let mut pairs = Vec::new();
                for (k, &x) in scope.iter().enumerate() {
                    for (l, &y) in scope.iter().enumerate().skip(k + 1) {
                        let (ox, oy) = (offset(k), offset(l));
                        pairs.push(Pair::new(x, y, move |a, b| {
                            i64::from(a) + ox != i64::from(b) + oy
                        }));
                    }
                }
                Some(pairs)
            }
            &ConstraintSpec::NotEqual { x, y, offset } => {
                Some(vec![Pair::new(x, y, move |a, b| {
                    i64::from(a) != i64::from(b) + i64::from(offset)
                })])
            }
            ConstraintSpec::Extra(_) => None,
        }
    }
}

impl<X: ConstraintRecipe> ConstraintSpec<X> {
    /// Builds the constraint; `vars` are the model's variables in declaration order.
    pub fn build(&self, vars: &[VarId]) -> Box<dyn Constraint> {
        match self {
            ConstraintSpec::AllDifferent { scope, offsets } => {
                let scope: Vec<VarId> = scope.iter().map(|&i| vars[i]).collect();
                match offsets {
                    None => Box::new(AllDifferent::new(&scope)),
                    Some(offsets) => Box::new(
                        AllDifferent::with_offsets(&scope, offsets)
                            .expect("one offset per variable"),
                    ),
                }
            }
            ConstraintSpec::NotEqual { x, y, offset: 0 } => {
                Box::new(NotEqual::new(vars[*x], vars[*y]))
            }
            ConstraintSpec::NotEqual { x, y, offset } => {
                Box::new(NotEqual::with_offset(vars[*x], vars[*y], *offset))
            }
            ConstraintSpec::Extra(recipe) => recipe.build(vars),
        }
    }

    /// Whether a full assignment (one value per variable, in declaration order) satisfies the
    /// constraint, by the constraint's own `check`.
    pub fn is_satisfied_by(&self, values: &[i32]) -> bool {
        let mut model = Model::new();
        let vars: Vec<VarId> = values
            .iter()
            .map(|&v| model.new_var([v]).expect("a one-value domain"))
            .collect();
        let constraint = self.build(&vars);
        let scoped: Vec<i32> = constraint
            .scope()
            .iter()
            .map(|var| values[var.index()])
            .collect();
        constraint.check(&scoped)
    }
}

/// A small model: the initial domains of its variables and its constraints.
#[derive(Debug, Clone)]
pub struct ModelSpec<X> {
    /// One domain per variable, in declaration order.
    pub domains: Vec<Vec<i32>>,
    /// The constraints, in posting order.
    pub constraints: Vec<ConstraintSpec<X>>,
    /// The assignment the constraints were chosen to satisfy, if the case was planted.
    pub planted: Option<Vec<i32>>,
}

impl<X: ConstraintRecipe> ModelSpec<X> {
    /// Declares the variables and posts the constraints.
    ///
    /// # Panics
    ///
    /// If the model rejects the description (the strategies only produce valid ones).
    pub fn build(&self) -> (Model, Vec<VarId>) {
        let mut model = Model::new();
        let vars: Vec<VarId> = self
            .domains
            .iter()
            .map(|domain| model.new_var(domain.as_slice()).expect("a valid domain"))
            .collect();
        for constraint in &self.constraints {
            model
                .post_boxed(None, constraint.build(&vars))
                .expect("a valid constraint");
        }
        (model, vars)
    }
}

/// A random domain: a non-empty subset of [`BASE_VALUES`] of at most [`MAX_DOMAIN_SIZE`]
/// values, multiplied by `scale`.
pub fn domain(scale: i32) -> impl Strategy<Value = Vec<i32>> {
    subsequence(BASE_VALUES.collect::<Vec<_>>(), 1..=MAX_DOMAIN_SIZE)
        .prop_map(move |values| values.into_iter().map(|v| v * scale).collect())
}

/// The scale of a random model: 1 three times out of four, [`WIDE_SCALE`] otherwise.
pub fn scale() -> impl Strategy<Value = i32> {
    prop_oneof![3 => Just(1), 1 => Just(WIDE_SCALE)]
}

/// A random offset, a multiple of `scale` (so that shifted values still collide).
pub fn offset(scale: i32) -> impl Strategy<Value = i32> {
    (-3i32..=3).prop_map(move |o| o * scale)
}

/// A random scope of `sizes` distinct variables among `num_variables`, in random order.
pub fn scope(
    num_variables: usize,
    sizes: RangeInclusive<usize>,
) -> impl Strategy<Value = Vec<usize>> {
    subsequence((0..num_variables).collect::<Vec<_>>(), sizes).prop_shuffle()
}

/// A random built-in constraint over `num_variables` (at least 2) variables: an `AllDifferent`
/// with or without offsets, or a `NotEqual` with an offset.
pub fn builtin_constraint<X: Debug + Clone>(
    num_variables: usize,
    scale: i32,
) -> impl Strategy<Value = ConstraintSpec<X>> {
    let all_different = (
        scope(num_variables, 2..=num_variables),
        any::<bool>(),
        vec(offset(scale), num_variables),
    )
        .prop_map(
            |(scope, with_offsets, offsets)| ConstraintSpec::AllDifferent {
                offsets: with_offsets.then(|| offsets[..scope.len()].to_vec()),
                scope,
            },
        );
    let not_equal = (scope(num_variables, 2..=2), offset(scale)).prop_map(|(pair, offset)| {
        ConstraintSpec::NotEqual {
            x: pair[0],
            y: pair[1],
            offset,
        }
    });
    prop_oneof![all_different, not_equal]
}

/// Random small models of `num_variables` variables with domains from [`domain`] (wide one time
/// in four) and up to six constraints: built-ins, and, with weight `extra_weight` against 2 for
/// the built-ins, constraints drawn from `extra(num_variables, scale)`.
///
/// Half the cases are planted: a random assignment of the domains is drawn, and only the
/// constraints it satisfies (by their own `check`) are kept, so the model has that solution.
pub fn model_specs<X, S, F>(
    num_variables: RangeInclusive<usize>,
    extra_weight: u32,
    extra: F,
) -> impl Strategy<Value = ModelSpec<X>>
where
    X: ConstraintRecipe + 'static,
    S: Strategy<Value = X> + 'static,
    F: Fn(usize, i32) -> S + Clone + 'static,
{
    model_specs_over(num_variables, scale(), domain, extra_weight, extra)
}

/// The values of [`clustered_domain`]: runs of consecutive integers spread over more than 64,
/// with runs that straddle the multiples of 64 and zero.
pub const CLUSTERED_VALUES: [i32; 16] = [
    -70, -69, -68, -2, -1, 0, 1, 2, 62, 63, 64, 65, 66, 127, 128, 129,
];

/// A random domain of at most [`MAX_DOMAIN_SIZE`] values from [`CLUSTERED_VALUES`]: some fit
/// one machine word, others span several, and neighbouring values are common (so offsets of a
/// few units make values collide across word boundaries).
pub fn clustered_domain() -> impl Strategy<Value = Vec<i32>> {
    subsequence(CLUSTERED_VALUES.to_vec(), 1..=MAX_DOMAIN_SIZE)
}

/// Random small models like [`model_specs`], but with domains from [`clustered_domain`] (and
/// offsets of a few units).
pub fn clustered_model_specs<X, S, F>(
    num_variables: RangeInclusive<usize>,
    extra_weight: u32,
    extra: F,
) -> impl Strategy<Value = ModelSpec<X>>
where
    X: ConstraintRecipe + 'static,
    S: Strategy<Value = X> + 'static,
    F: Fn(usize, i32) -> S + Clone + 'static,
{
    model_specs_over(
        num_variables,
        Just(1),
        |_| clustered_domain(),
        extra_weight,
        extra,
    )
}

/// Random small models of `num_variables` variables with domains from `domain(scale)`, for a
/// scale drawn from `scales`, and up to six constraints: built-ins, and, with weight
/// `extra_weight` against 2 for the built-ins, constraints drawn from
/// `extra(num_variables, scale)`.
///
/// Half the cases are planted: a random assignment of the domains is drawn, and only the
/// constraints it satisfies (by their own `check`) are kept, so the model has that solution.
pub fn model_specs_over<X, S, F, D, DS>(
    num_variables: RangeInclusive<usize>,
    scales: impl Strategy<Value = i32> + 'static,
    domain: D,
    extra_weight: u32,
    extra: F,
) -> impl Strategy<Value = ModelSpec<X>>
where
    X: ConstraintRecipe + 'static,
    S: Strategy<Value = X> + 'static,
    F: Fn(usize, i32) -> S + Clone + 'static,
    D: Fn(i32) -> DS + Clone + 'static,
    DS: Strategy<Value = Vec<i32>> + 'static,
{
    (num_variables, scales, any::<bool>())
        .prop_flat_map(move |(n, scale, planted)| {
            let constraint = prop_oneof![
                2 => builtin_constraint(n, scale),
                extra_weight => extra(n, scale).prop_map(ConstraintSpec::Extra),
            ];
            (
                vec(domain(scale), n),
                vec(constraint, 0..=6),
                Just(planted),
                vec(any::<Index>(), n),
            )
        })
        .prop_map(|(domains, constraints, planted, picks)| {
            let planted: Option<Vec<i32>> = planted.then(|| {
                domains
                    .iter()
                    .zip(&picks)
                    .map(|(domain, pick)| *pick.get(domain))
                    .collect()
            });
            let constraints = match &planted {
                Some(values) => constraints
                    .into_iter()
                    .filter(|c| c.is_satisfied_by(values))
                    .collect(),
                None => constraints,
            };
            ModelSpec {
                domains,
                constraints,
                planted,
            }
        })
}

/// A constraint run through its stateless `propagate` only: everything but `propagator` is
/// passed on, so the engine treats it exactly as the wrapped constraint minus its state. The
/// reference the stateful propagators are compared with, node for node.
#[derive(Debug)]
pub struct Stateless<C>(pub C);

impl<C: Constraint> Constraint for Stateless<C> {
    fn scope(&self) -> &[VarId] {
        self.0.scope()
    }
    fn check(&self, values: &[i32]) -> bool {
        self.0.check(values)
    }
    fn propagate(&self, ctx: &mut cspkit::PropagationContext<'_>) -> Result<(), cspkit::Conflict> {
        self.0.propagate(ctx)
    }
    fn wake_on(&self, level: PropagationLevel) -> cspkit::WakeOn {
        self.0.wake_on(level)
    }
    fn is_idempotent(&self, level: PropagationLevel) -> bool {
        self.0.is_idempotent(level)
    }
    fn prepare(&mut self, model: &cspkit::ModelView<'_>) -> Result<(), cspkit::ModelError> {
        self.0.prepare(model)
    }
}

/// Checks that `model` has exactly the solutions `expected` (in lexicographic order) at every
/// propagation level, under input order with ascending values (in that order) and under
/// smallest domain first with descending values (as a set).
pub fn check_every_level_and_strategy(
    model: &Model,
    expected: &[Vec<i32>],
) -> Result<(), TestCaseError> {
    for level in LEVELS {
        let (found, stopped) = collect_solutions(&mut model.solver().with_propagation(level));
        prop_assert!(stopped.is_none());
        prop_assert_eq!(&found, expected, "at {:?}", level);
        let mut solver = model
            .solver()
            .with_propagation(level)
            .with_variable_order(cspkit::SmallestDomain)
            .with_value_order(cspkit::Descending);
        let (mut found, _) = collect_solutions(&mut solver);
        found.sort();
        prop_assert_eq!(&found, expected, "at {:?}, smallest domain first", level);
    }
    Ok(())
}

/// A job shop: each job a sequence of tasks, each on one machine for a duration.
#[derive(Debug, Clone)]
pub struct JobShop {
    /// Per job, its tasks in order, as (machine, duration).
    pub jobs: Vec<Vec<(usize, i32)>>,
    /// The number of machines.
    pub machines: usize,
}

impl JobShop {
    /// Lawrence's la07 (15 jobs, 5 machines; optimal makespan 890), from
    /// `tests/data/jobshop/la07.txt`.
    pub fn la07() -> JobShop {
        JobShop::read(include_str!("../data/jobshop/la07.txt"))
    }

    /// Reads OR-Library's format: `jobs machines`, then per job its tasks as
    /// `machine duration` pairs; lines starting with `#` are comments.
    ///
    /// # Panics
    ///
    /// On text not in that format.
    pub fn read(text: &str) -> JobShop {
        let mut lines = text.lines().filter(|line| !line.starts_with('#'));
        let numbers = |line: &str| -> Vec<i32> {
            line.split_whitespace()
                .map(|n| n.parse().expect("a number"))
                .collect()
        };
        let head = numbers(lines.next().expect("the sizes"));
        let (jobs, machines) = (head[0] as usize, head[1] as usize);
        let jobs = (0..jobs)
            .map(|_| {
                let tasks = numbers(lines.next().expect("a job"));
                assert_eq!(tasks.len(), 2 * machines, "one task per machine");
                tasks
                    .chunks(2)
                    .map(|pair| (pair[0] as usize, pair[1]))
                    .collect()
            })
            .collect();
        JobShop { jobs, machines }
    }

    /// The sum of all durations: a makespan that every order of the tasks on their
    /// machines can keep to.
    pub fn horizon(&self) -> i32 {
        self.jobs.iter().flatten().map(|&(_, d)| d).sum()
    }

    /// The tasks on `machine`, as (job, position in the job).
    pub fn tasks_on(&self, machine: usize) -> Vec<(usize, usize)> {
        let mut tasks = Vec::new();
        for (j, job) in self.jobs.iter().enumerate() {
            for (k, &(m, _)) in job.iter().enumerate() {
                if m == machine {
                    tasks.push((j, k));
                }
            }
        }
        tasks
    }

    /// The FlatZinc of the job shop with one `disjunctive` per machine and no search
    /// annotation, minimising the makespan `t_end`: what MiniZinc makes of such a model with
    /// cspkit's library. The start of task `k` of job `j` is `s_j_k`.
    pub fn flatzinc(&self) -> String {
        let horizon = self.horizon();
        let mut text = String::new();
        for (j, job) in self.jobs.iter().enumerate() {
            for k in 0..job.len() {
                text += &format!("var 0..{horizon}: s_{j}_{k} :: output_var;\n");
            }
        }
        text += &format!("var 0..{horizon}: t_end :: output_var;\n");
        for (j, job) in self.jobs.iter().enumerate() {
            for k in 0..job.len() {
                let next = if k + 1 < job.len() {
                    format!("s_{j}_{}", k + 1)
                } else {
                    "t_end".to_owned()
                };
                let duration = job[k].1;
                text +=
                    &format!("constraint int_lin_le([1, -1], [s_{j}_{k}, {next}], -{duration});\n");
            }
        }
        for machine in 0..self.machines {
            let tasks = self.tasks_on(machine);
            let starts: Vec<String> = tasks.iter().map(|(j, k)| format!("s_{j}_{k}")).collect();
            let durations: Vec<String> = tasks
                .iter()
                .map(|&(j, k)| self.jobs[j][k].1.to_string())
                .collect();
            text += &format!(
                "constraint cspkit_disjunctive([{}], [{}], false);\n",
                starts.join(", "),
                durations.join(", ")
            );
        }
        text + "solve minimize t_end;\n"
    }
}
