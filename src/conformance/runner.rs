//! [`ConformanceTest`]: the settings of a run, and how each case is made and run.

use std::fmt;
use std::ops::RangeInclusive;
use std::panic::{AssertUnwindSafe, catch_unwind};

use super::SplitMix64;
use super::report::{
    ConformanceFailure, ConformanceReport, Consistency, LevelReport, Property, describe, var_at,
};
use crate::constraints::Constraint;
use crate::domain::Domain;
use crate::ids::VarId;
use crate::kernel::PropagationLevel;
use crate::model::Model;

/// The three levels, weakest first, in the order of [`ConformanceReport::levels`].
pub(super) const LEVELS: [PropagationLevel; 3] = [
    PropagationLevel::None,
    PropagationLevel::Forward,
    PropagationLevel::Full,
];

/// The builder, with its parameters' generator, type-erased.
pub(super) type Builder<'a> = Box<dyn FnMut(&[VarId], &mut SplitMix64) -> Box<dyn Constraint> + 'a>;

/// A conformance test of one constraint type: what to build, on which values, how many cases.
///
/// Configure it with the builder methods, then call [`run`](ConformanceTest::run) or
/// [`assert_conforms`](ConformanceTest::assert_conforms). See the [module
/// documentation](super) for the properties checked and a complete example.
pub struct ConformanceTest<'a> {
    pub(super) arity: usize,
    pub(super) values: RangeInclusive<i32>,
    pub(super) build: Builder<'a>,
    pub(super) cases: usize,
    pub(super) seed: u64,
    pub(super) max_domain_size: usize,
    pub(super) max_assignments: usize,
    pub(super) repeats: bool,
    pub(super) required: Vec<(PropagationLevel, Consistency)>,
}

impl fmt::Debug for ConformanceTest<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConformanceTest")
            .field("arity", &self.arity)
            .field("values", &self.values)
            .field("cases", &self.cases)
            .field("seed", &self.seed)
            .field("max_domain_size", &self.max_domain_size)
            .field("max_assignments", &self.max_assignments)
            .finish_non_exhaustive()
    }
}

impl<'a> ConformanceTest<'a> {
    /// The default number of cases.
    pub const DEFAULT_CASES: usize = 200;
    /// The default seed.
    pub const DEFAULT_SEED: u64 = 0x5eed;

    /// Tests the constraints that `build` makes from `arity` variables whose domains are drawn
    /// from `values`.
    ///
    /// `build` receives the variables of the scope (fresh ones for each case) and returns the
    /// constraint; it may use fewer of them or put them in another order, and the kit tests
    /// the scope the constraint declares.
    pub fn new<C: Constraint + 'static>(
        arity: usize,
        values: RangeInclusive<i32>,
        mut build: impl FnMut(&[VarId]) -> C + 'a,
    ) -> Self {
        Self::with_parameters(arity, values, move |vars, _| build(vars))
    }

    /// As [`ConformanceTest::new`], for a builder that also draws parameters of the
    /// constraint (tuples, constants, offsets) from the case's generator, so that each case
    /// tests another instance and the seed reproduces it.
    pub fn with_parameters<C: Constraint + 'static>(
        arity: usize,
        values: RangeInclusive<i32>,
        mut build: impl FnMut(&[VarId], &mut SplitMix64) -> C + 'a,
    ) -> Self {
        ConformanceTest {
            arity,
            values,
            build: Box::new(move |vars, random| Box::new(build(vars, random))),
            cases: Self::DEFAULT_CASES,
            seed: Self::DEFAULT_SEED,
            max_domain_size: 5,
            max_assignments: 1024,
            repeats: false,
            required: Vec::new(),
        }
    }

    /// The number of random cases (200 by default).
    pub fn cases(mut self, cases: usize) -> Self {
        self.cases = cases;
        self
    }

    /// The seed of the cases ([`DEFAULT_SEED`](Self::DEFAULT_SEED) by default). Case 0 of a
    /// run uses the seed itself, so a failing case `k` reported with its own seed `s` is run
    /// again, alone, by `.seed(s).cases(1)`.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// The most values in a random initial domain (5 by default).
    pub fn max_domain_size(mut self, size: usize) -> Self {
        self.max_domain_size = size;
        self
    }

    /// The most full assignments of the scope a case may have (1024 by default): current
    /// domains are cut down to this before the brute force enumeration.
    pub fn max_assignments(mut self, count: usize) -> Self {
        self.max_assignments = count;
        self
    }

    /// Also tests scopes that name one variable at two positions: in about a third of the
    /// cases (arity 2 or more), the builder is handed a list in which one position repeats an
    /// earlier variable, as `Count` over `[x, y, x]` or `x = y · x` would be posted. The brute
    /// force gives repeated positions one value. Declared idempotence is not enforced on those
    /// cases (a relaxation that treats the positions apart may need a second call; see
    /// [`Constraint::scope`]).
    pub fn repeated_variables(mut self) -> Self {
        self.repeats = true;
        self
    }

    /// Requires `consistency` after every propagation at `level` (the documented strength of
    /// the constraint). Unlike the other properties, a weak case does not stop the run: every
    /// case is run, and the failure reported is the smallest weak case (fewest values in the
    /// scope's domains), with the value left without support and the seed that reproduces it.
    ///
    /// [`Consistency::Bounds`] is checked on cases whose domains' hulls hold at most 2^20
    /// assignments (all of them with the default value ranges).
    pub fn require(mut self, level: PropagationLevel, consistency: Consistency) -> Self {
        self.required.push((level, consistency));
        self
    }

    /// Runs every case.
    ///
    /// # Errors
    ///
    /// The first [`ConformanceFailure`]: a property violated, the constraint rejected by the
    /// model or panicking, or a configuration that cannot make a case (arity 0, an empty value
    /// range or one wider than [`Domain::MAX_SPAN`], which the kit's random domains cannot
    /// span, a zero maximum).
    #[allow(
        clippy::result_large_err,
        reason = "a failure ends a test run once; a plain value is easier to match and print"
    )]
    pub fn run(&mut self) -> Result<ConformanceReport, ConformanceFailure> {
        self.validate()?;
        let mut report = ConformanceReport {
            seed: self.seed,
            cases: 0,
            constraint: String::new(),
            levels: LEVELS.map(|level| LevelReport {
                level,
                ..LevelReport::default()
            }),
        };
        let mut seeds = SplitMix64::new(self.seed);
        let mut weakest: Option<(usize, Box<ConformanceFailure>)> = None;
        for case in 0..self.cases {
            let case_seed = if case == 0 {
                self.seed
            } else {
                seeds.next_u64()
            };
            let mut run = CaseRun {
                test: self,
                case,
                case_seed,
                state: None,
                constraint: String::new(),
                level: None,
                weak: Default::default(),
            };
            let outcome = catch_unwind(AssertUnwindSafe(|| run.run(&mut report)));
            if let Some(weak) = run.weak.take() {
                let size: usize = weak.before.iter().map(Domain::size).sum();
                if weakest
                    .as_ref()
                    .is_none_or(|(smallest, _)| size < *smallest)
                {
                    weakest = Some((size, weak));
                }
            }
            match outcome {
                Ok(Ok(())) => {}
                Ok(Err(failure)) => return Err(*failure),
                Err(payload) => {
                    let message = payload
                        .downcast_ref::<&str>()
                        .map(|s| (*s).to_owned())
                        .or_else(|| payload.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "a panic with a non-text payload".to_owned());
                    return Err(*run.failure(
                        Property::NoPanic,
                        None,
                        format!("the constraint panicked: {message}"),
                    ));
                }
            }
            report.cases += 1;
        }
        match weakest {
            Some((_, failure)) => Err(*failure),
            None => Ok(report),
        }
    }

    /// Runs every case and returns the report.
    ///
    /// # Panics
    ///
    /// On the first failure, with its message (the property, the domains, the seed): this is
    /// the form to use inside `#[test]`.
    #[track_caller]
    pub fn assert_conforms(&mut self) -> ConformanceReport {
        match self.run() {
            Ok(report) => report,
            Err(failure) => panic!("{failure}"),
        }
    }

    #[allow(
        clippy::result_large_err,
        reason = "called once per run, on the way to `run`'s own result"
    )]
    fn validate(&self) -> Result<(), ConformanceFailure> {
        let problem = if self.arity == 0 {
            Some("arity 0: a constraint needs at least one variable".to_owned())
        } else if self.values.is_empty() {
            Some(format!("the value range {:?} is empty", self.values))
        } else if span(&self.values) > Domain::MAX_SPAN as u64 {
            Some(format!(
                "the value range {:?} is wider than the kit draws domains from ({} values)",
                self.values,
                Domain::MAX_SPAN
            ))
        } else if self.max_domain_size == 0 || self.max_assignments == 0 {
            Some("max_domain_size and max_assignments must be at least 1".to_owned())
        } else {
            None
        };
        match problem {
            None => Ok(()),
            Some(message) => Err(ConformanceFailure {
                property: Property::Setup,
                level: None,
                constraint: String::new(),
                seed: self.seed,
                case: 0,
                case_seed: self.seed,
                variables: Vec::new(),
                before: Vec::new(),
                after: None,
                message,
            }),
        }
    }
}

pub(super) fn span(values: &RangeInclusive<i32>) -> u64 {
    (i64::from(*values.end()) - i64::from(*values.start()) + 1) as u64
}

/// The state of one case: the model (which owns the constraint), the domains.
pub(super) struct CaseState {
    pub(super) model: Model,
    /// Positions (variable indices) of the constraint's scope.
    pub(super) scope: Vec<usize>,
    pub(super) initial: Vec<Domain>,
    pub(super) current: Vec<Domain>,
}

/// One case being run, with what a failure report needs.
pub(super) struct CaseRun<'t, 'a> {
    pub(super) test: &'t mut ConformanceTest<'a>,
    pub(super) case: usize,
    pub(super) case_seed: u64,
    pub(super) state: Option<CaseState>,
    pub(super) constraint: String,
    pub(super) level: Option<PropagationLevel>,
    /// The first propagation of this case weaker than a required consistency.
    pub(super) weak: std::cell::RefCell<Option<Box<ConformanceFailure>>>,
}

/// Removes from `domain` every value but those `keep` accepts, as the search would (same
/// window, same representation).
pub(super) fn restrict(domain: &Domain, keep: impl FnMut(i32) -> bool) -> Domain {
    let mut d = domain.clone();
    d.retain(keep, &mut |_, _| {});
    d
}

impl CaseRun<'_, '_> {
    pub(super) fn failure(
        &self,
        property: Property,
        after: Option<&[Domain]>,
        message: String,
    ) -> Box<ConformanceFailure> {
        let (variables, before, after) = match &self.state {
            Some(state) => (
                state
                    .scope
                    .iter()
                    .map(|&i| state.model.var_name(var_at(&state.model, i)).into_owned())
                    .collect(),
                state
                    .scope
                    .iter()
                    .map(|&i| state.current[i].clone())
                    .collect(),
                after.map(|after| state.scope.iter().map(|&i| after[i].clone()).collect()),
            ),
            None => (Vec::new(), Vec::new(), None),
        };
        Box::new(ConformanceFailure {
            property,
            level: self.level,
            constraint: self.constraint.clone(),
            seed: self.test.seed,
            case: self.case,
            case_seed: self.case_seed,
            variables,
            before,
            after,
            message,
        })
    }

    pub(super) fn run(
        &mut self,
        report: &mut ConformanceReport,
    ) -> Result<(), Box<ConformanceFailure>> {
        let mut random = SplitMix64::new(self.case_seed);
        let arity = self.test.arity;
        // The model: one variable outside the scope, the scope, one more outside.
        let mut model = Model::new();
        let mut vars = Vec::with_capacity(arity + 2);
        for _ in 0..arity + 2 {
            let domain = self.random_domain(&mut random);
            let var = model.new_var(domain).map_err(|error| {
                self.failure(Property::Setup, None, format!("cannot declare: {error}"))
            })?;
            vars.push(var);
        }
        if self.test.repeats && arity >= 2 && random.chance(1, 3) {
            // Position `later` of the scope names the variable at `earlier`; the variable it
            // replaces stays in the model, outside the scope.
            let later = 1 + random.below(arity as u64 - 1) as usize;
            let earlier = random.below(later as u64) as usize;
            vars[1 + later] = vars[1 + earlier];
        }
        let constraint = (self.test.build)(&vars[1..=arity], &mut random);
        self.constraint = describe(&*constraint);
        if let Err(error) = model.post_boxed(None, constraint) {
            return Err(self.failure(
                Property::Posting,
                None,
                format!("posting on fresh variables failed: {error}"),
            ));
        }
        if report.constraint.is_empty() {
            report.constraint = model.constraint_list()[0].name().to_owned();
        }
        let scope: Vec<usize> = model.constraint_list()[0]
            .scope()
            .iter()
            .map(|var| var.index())
            .collect();
        let initial = model.initial_domains().to_vec();
        let mut current: Vec<Domain> = initial
            .iter()
            .map(|d| random_subdomain(d, &mut random))
            .collect();
        self.shrink(&mut current, &scope, &mut random);
        self.state = Some(CaseState {
            model,
            scope,
            initial,
            current,
        });
        for (slot, level) in LEVELS.into_iter().enumerate() {
            self.level = Some(level);
            self.check_level(level, &mut report.levels[slot], &mut random)?;
        }
        Ok(())
    }

    /// A random initial domain from the test's value range.
    pub(super) fn random_domain(&self, random: &mut SplitMix64) -> Domain {
        let low = i64::from(*self.test.values.start());
        let width = span(&self.test.values);
        let size = 1 + random.below(self.test.max_domain_size.min(width as usize) as u64);
        let mut offsets: Vec<u64> = Vec::with_capacity(size as usize);
        if width <= 4096 {
            // Partial Fisher-Yates over all offsets.
            let mut all: Vec<u64> = (0..width).collect();
            for i in 0..size as usize {
                let j = i + random.below(width - i as u64) as usize;
                all.swap(i, j);
                offsets.push(all[i]);
            }
        } else {
            while offsets.len() < size as usize {
                let o = random.below(width);
                if !offsets.contains(&o) {
                    offsets.push(o);
                }
            }
        }
        let values = offsets.iter().map(|&o| (low + o as i64) as i32);
        // The range was checked against MAX_SPAN, so this cannot fail; keep a fallback anyway.
        Domain::from_values(values).unwrap_or_else(|_| {
            Domain::from_values([*self.test.values.start()]).expect("a one-value domain")
        })
    }

    /// Cuts the scope's domains until it has at most `max_assignments` full assignments.
    pub(super) fn shrink(&self, current: &mut [Domain], scope: &[usize], random: &mut SplitMix64) {
        loop {
            let count = scope
                .iter()
                .try_fold(1usize, |n, &i| n.checked_mul(current[i].size()));
            if count.is_some_and(|n| n <= self.test.max_assignments) {
                return;
            }
            let Some(&largest) = scope.iter().max_by_key(|&&i| current[i].size()) else {
                return;
            };
            let values: Vec<i32> = current[largest].iter().collect();
            let doomed = values[random.below(values.len() as u64) as usize];
            current[largest] = restrict(&current[largest], |v| v != doomed);
        }
    }
}

/// A random non-empty subset of `domain`: the whole of it, one value, or a random cut.
pub(super) fn random_subdomain(domain: &Domain, random: &mut SplitMix64) -> Domain {
    let values: Vec<i32> = domain.iter().collect();
    match random.below(10) {
        0..=3 => domain.clone(),
        4..=5 => {
            let v = values[random.below(values.len() as u64) as usize];
            restrict(domain, |w| w == v)
        }
        _ => {
            let keep: Vec<bool> = values.iter().map(|_| random.below(2) == 1).collect();
            let rescue = random.below(values.len() as u64) as usize;
            let mut position = 0;
            let none_kept = !keep.contains(&true);
            restrict(domain, |_| {
                let kept = keep[position] || (none_kept && position == rescue);
                position += 1;
                kept
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_subdomains_keep_the_window_and_are_never_empty() {
        let mut random = SplitMix64::new(3);
        let wide = Domain::from_values([-100, 0, 7, 200]).unwrap();
        for _ in 0..200 {
            let d = random_subdomain(&wide, &mut random);
            assert!(!d.is_empty());
            assert!(d.iter().all(|v| wide.contains(v)));
        }
    }
}
