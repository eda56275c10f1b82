//! [`Explainer`]: a solving path a person can follow, one deduction at a time, each with the
//! reason the constraint that drew it gives.

use std::collections::{HashMap, VecDeque};
use std::fmt::Write as _;

use crate::domain::Domain;
use crate::ids::{ConstraintId, VarId};
use crate::kernel::explain::describe;
use crate::kernel::{
    Conflict, ExplainContext, Inference, Literal, PropagationLevel, propagate_alone, scope_reason,
};
use crate::model::Model;

/// Why a value left a variable's domain: the constraint that removed it and its reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cause {
    /// The value removed.
    pub value: i32,
    /// The constraint that removed it.
    pub constraint: ConstraintId,
    /// The facts it removed it from.
    pub reason: Vec<Literal>,
}

/// One deduction of a solving path.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Step {
    /// The variable has one value left: each other value was removed earlier, for the cause
    /// given (Sudoku's naked single).
    OnlyValue {
        /// The variable.
        var: VarId,
        /// The value left.
        value: i32,
        /// Why each other value of its initial domain left, in ascending order of the values.
        causes: Vec<Cause>,
    },
    /// A constraint, from the reason's facts, leaves the variable this one value.
    Forced {
        /// The variable.
        var: VarId,
        /// Its value.
        value: i32,
        /// The constraint.
        constraint: ConstraintId,
        /// The facts.
        reason: Vec<Literal>,
    },
    /// A constraint, from the reason's facts, removes these values.
    Eliminated {
        /// The `(variable, value)` pairs removed.
        removed: Vec<(VarId, i32)>,
        /// The constraint.
        constraint: ConstraintId,
        /// The facts.
        reason: Vec<Literal>,
    },
    /// Propagation at the explainer's level deduces nothing more: the variable is given the
    /// value of the solution the explainer was told of (a guess that is known to be right).
    Guess {
        /// The variable.
        var: VarId,
        /// The value.
        value: i32,
    },
    /// Propagation deduces nothing more and no solution was given to guess from.
    Stuck,
    /// The constraint cannot be satisfied under the reason's facts: the path ends there.
    Contradiction {
        /// The constraint.
        constraint: ConstraintId,
        /// The facts.
        reason: Vec<Literal>,
    },
    /// Every variable is fixed: the path ends there.
    Solved,
}

impl Step {
    /// Whether the path ends with this step.
    pub fn is_last(&self) -> bool {
        matches!(
            self,
            Step::Stuck | Step::Contradiction { .. } | Step::Solved
        )
    }

    /// The step as a line in the model's words: variable names from
    /// [`Model::var_name`], constraint names from [`Model::constraint_name`].
    ///
    /// ```text
    /// r3c4 = 5: only value left (row 3 has 1 2; column 4 has 3 6 7; box 2 has 8 9)
    /// r7c2 = 8: forced by box 7, since r7c1 ≠ 8, r8c1 ≠ 8, r9c3 ≠ 8
    /// ```
    pub fn describe(&self, model: &Model) -> String {
        let name = |var: VarId| model.var_name(var).into_owned();
        match self {
            Step::OnlyValue { var, value, causes } => {
                format!(
                    "{} = {value}: only value left ({})",
                    name(*var),
                    describe_causes(model, causes)
                )
            }
            Step::Forced {
                var,
                value,
                constraint,
                reason,
            } => format!(
                "{} = {value}: forced by {}{}",
                name(*var),
                model.constraint_name(*constraint),
                since(model, reason)
            ),
            Step::Eliminated {
                removed,
                constraint,
                reason,
            } => format!(
                "{}: by {}{}",
                describe_removals(model, removed),
                model.constraint_name(*constraint),
                since(model, reason)
            ),
            Step::Guess { var, value } => format!(
                "no deduction left: guess {} = {value} (the value of the solution)",
                name(*var)
            ),
            Step::Stuck => "no deduction left: a guess is needed".to_owned(),
            Step::Contradiction { constraint, reason } => format!(
                "contradiction: {} cannot hold{}",
                model.constraint_name(*constraint),
                since(model, reason)
            ),
            Step::Solved => "solved".to_owned(),
        }
    }
}

/// `, since x ≠ 1, y = 2`, or nothing for an empty reason.
fn since(model: &Model, reason: &[Literal]) -> String {
    if reason.is_empty() {
        return String::new();
    }
    format!(", since {}", describe_literals(model, reason))
}

/// Literals in the model's words, those of one variable and one operator together:
/// `r1c1 ≠ 2 3, r1c2 = 4`.
pub fn describe_literals(model: &Model, literals: &[Literal]) -> String {
    let mut out = String::new();
    let mut k = 0;
    while k < literals.len() {
        let first = literals[k];
        let mut end = k + 1;
        while end < literals.len()
            && literals[end].var() == first.var()
            && literals[end].operator() == first.operator()
            && first.operator() == "≠"
        {
            end += 1;
        }
        if !out.is_empty() {
            out.push_str(", ");
        }
        let _ = write!(
            out,
            "{} {} {}",
            model.var_name(first.var()),
            first.operator(),
            values_text(literals[k..end].iter().map(|l| l.value()))
        );
        k = end;
    }
    out
}

/// `r1c5 ≠ 4 7, r1c6 ≠ 4`.
fn describe_removals(model: &Model, removed: &[(VarId, i32)]) -> String {
    let literals: Vec<Literal> = removed.iter().map(|&(v, x)| Literal::Ne(v, x)).collect();
    describe_literals(model, &literals)
}

/// Values separated by blanks.
fn values_text(values: impl Iterator<Item = i32>) -> String {
    values.map(|v| v.to_string()).collect::<Vec<_>>().join(" ")
}

/// `row 3 has 1 2; 7 ruled out by box 2`: the causes grouped by constraint. A value removed
/// because another variable of the constraint holds it reads "has".
fn describe_causes(model: &Model, causes: &[Cause]) -> String {
    let mut parts: Vec<(ConstraintId, bool, Vec<i32>)> = Vec::new();
    for cause in causes {
        let held = matches!(cause.reason.as_slice(), [Literal::Eq(_, v)] if *v == cause.value);
        match parts
            .iter_mut()
            .find(|(c, h, _)| *c == cause.constraint && *h == held)
        {
            Some((_, _, values)) => values.push(cause.value),
            None => parts.push((cause.constraint, held, vec![cause.value])),
        }
    }
    parts
        .iter()
        .map(|(constraint, held, values)| {
            let name = model.constraint_name(*constraint);
            let values = values_text(values.iter().copied());
            if *held {
                format!("{name} has {values}")
            } else {
                format!("{values} ruled out by {name}")
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// A solving path of a model, one [`Step`] at a time: first what forward checking gives (each
/// variable left with one value is a step, with the cause of each value it lost), then, when
/// that is exhausted, the one deduction of the strongest propagation with the smallest reason
/// (a variable fixed before values removed), then forward checking again.
///
/// Each step's reason comes from its constraint's [`explain`](crate::Constraint::explain)
/// (every variable of the scope as it stands when the constraint has none), so it can be
/// checked with [`reason_implies`](crate::kernel::reason_implies).
///
/// # Examples
///
/// ```
/// use cspkit::puzzle::Explainer;
/// use cspkit::{AllDifferent, Model};
///
/// let mut model = Model::new();
/// let xs = model.new_named_vars("x", 3, 1..=3)?;
/// model.post_named("the row", AllDifferent::new(&xs))?;
/// let mut explainer = Explainer::new(&model).with_fixed(&[(xs[0], 1), (xs[1], 2)])?;
/// let first = explainer.next_step().unwrap();
/// assert_eq!(first.describe(&model), "x[2] = 3: only value left (the row has 1 2)");
/// assert_eq!(explainer.next_step().unwrap().describe(&model), "solved");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Explainer<'m> {
    model: &'m Model,
    /// The cost of a candidate deduction, from the domains before it: the cheapest is taken.
    cost: Option<Box<Cost<'m>>>,
    level: PropagationLevel,
    /// The model's domains (before any fix): what reasons are written against.
    initial: Vec<Domain>,
    /// Where the path stands.
    domains: Vec<Domain>,
    /// A copy of `domains` that constraints prune, to compare with it.
    scratch: Vec<Domain>,
    /// The domains the last step was drawn from.
    previous: Vec<Domain>,
    /// Why each removed value left.
    causes: HashMap<(VarId, i32), Cause>,
    /// Variables whose being fixed the path has stated (or that were fixed from the start).
    announced: Vec<bool>,
    /// Variables fixed by forward checking and not stated yet, in the order they were fixed.
    pending: VecDeque<VarId>,
    /// The values to guess from.
    solution: Option<Vec<i32>>,
    finished: bool,
}

/// Removals of one constraint that share a reason.
type Group = (Vec<Literal>, Vec<(VarId, i32)>);

/// How an [`Explainer`] ranks the deductions it could make next.
type Cost<'m> = dyn Fn(&Step, &[Domain]) -> usize + 'm;

impl std::fmt::Debug for Explainer<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Explainer")
            .field("level", &self.level)
            .field("domains", &self.domains)
            .field("cost", &self.cost.as_ref().map(|_| "custom"))
            .finish_non_exhaustive()
    }
}

impl<'m> Explainer<'m> {
    /// A solving path of `model` from its own domains, at [`PropagationLevel::Full`].
    pub fn new(model: &'m Model) -> Self {
        let initial: Vec<Domain> = model.variables().map(|v| model.domain(v).clone()).collect();
        let announced = initial.iter().map(Domain::is_fixed).collect();
        Explainer {
            model,
            cost: None,
            level: PropagationLevel::Full,
            domains: initial.clone(),
            scratch: initial.clone(),
            previous: initial.clone(),
            initial,
            causes: HashMap::new(),
            announced,
            pending: VecDeque::new(),
            solution: None,
            finished: false,
        }
    }

    /// Starts from these values fixed (a puzzle's clues), without steps for them.
    ///
    /// # Errors
    ///
    /// [`ModelError::ForeignVariable`](crate::ModelError) for a variable of another model,
    /// [`ModelError::ValueNotInDomain`](crate::ModelError) for a value outside its domain.
    pub fn with_fixed(mut self, fixed: &[(VarId, i32)]) -> Result<Self, crate::ModelError> {
        for &(var, value) in fixed {
            self.model.check_fix(var, value)?;
            let domain = &mut self.domains[var.index()];
            if !domain.contains(value) {
                return Err(crate::ModelError::ValueNotInDomain {
                    variable: self.model.var_name(var).into_owned(),
                    value,
                    domain: domain.to_string(),
                });
            }
            *domain = Domain::from_values([value]).expect("one value");
            self.announced[var.index()] = true;
        }
        self.scratch.clone_from(&self.domains);
        self.previous.clone_from(&self.domains);
        Ok(self)
    }

    /// The strongest propagation the path uses: [`PropagationLevel::Forward`] for forward
    /// checking only, [`PropagationLevel::Full`] (the default) for each constraint's strongest
    /// filtering. [`PropagationLevel::None`] deduces nothing.
    pub fn with_level(mut self, level: PropagationLevel) -> Self {
        self.level = level;
        self
    }

    /// When propagation deduces nothing more, guess the value `solution` gives (one value per
    /// variable of the model) instead of stopping with [`Step::Stuck`]; a solution too short
    /// for the variable to guess stops the path there.
    pub fn with_guesses_from(mut self, solution: &[i32]) -> Self {
        self.solution = Some(solution.to_vec());
        self
    }

    /// Ranks the deductions propagation could make next by `cost` (of the step, given the
    /// domains before it), the cheapest first, ties broken by the smallest reason; by default
    /// the smallest reason wins. A puzzle's techniques, in their order of difficulty, make the
    /// path the one a person solving by the simplest technique first takes.
    pub fn with_cost(mut self, cost: impl Fn(&Step, &[Domain]) -> usize + 'm) -> Self {
        self.cost = Some(Box::new(cost));
        self
    }

    /// The domains where the path stands.
    pub fn domains(&self) -> &[Domain] {
        &self.domains
    }

    /// The domains the last step was drawn from: its reason's facts hold in them. They differ
    /// from those before [`next_step`](Explainer::next_step) was called when forward checking
    /// removed values (without fixing a variable, so without a step) on the way to the step.
    pub fn previous_domains(&self) -> &[Domain] {
        &self.previous
    }

    /// Why `value` left `var`'s domain, if the path removed it.
    pub fn cause(&self, var: VarId, value: i32) -> Option<&Cause> {
        self.causes.get(&(var, value))
    }

    /// The next deduction, or `None` after the last step.
    pub fn next_step(&mut self) -> Option<Step> {
        if self.finished {
            return None;
        }
        let step = self.find_step();
        self.finished = step.is_last();
        Some(step)
    }

    fn find_step(&mut self) -> Step {
        loop {
            if let Some(var) = self.next_pending() {
                self.previous.clone_from(&self.domains);
                let value = self.domains[var.index()].value().expect("fixed");
                let causes = self.initial[var.index()]
                    .iter()
                    .filter(|&v| v != value)
                    .filter_map(|v| self.causes.get(&(var, v)).cloned())
                    .collect();
                return Step::OnlyValue { var, value, causes };
            }
            if self.level >= PropagationLevel::Forward {
                match self.forward() {
                    Err(step) => return step,
                    Ok(true) => continue,
                    Ok(false) => {}
                }
            }
            self.previous.clone_from(&self.domains);
            if self.domains.iter().all(Domain::is_fixed) {
                return Step::Solved;
            }
            if self.level >= PropagationLevel::Full
                && let Some(step) = self.strongest()
            {
                return step;
            }
            let Some(solution) = &self.solution else {
                return Step::Stuck;
            };
            // The unfixed variable with the fewest values, the first of those.
            let var = self
                .model
                .variables()
                .filter(|v| !self.domains[v.index()].is_fixed())
                .min_by_key(|v| self.domains[v.index()].size())
                .expect("an unfixed variable");
            let Some(&value) = solution.get(var.index()) else {
                return Step::Stuck;
            };
            self.set_domain(var, Domain::from_values([value]).expect("one value"));
            self.announced[var.index()] = true;
            return Step::Guess { var, value };
        }
    }

    /// The pending variable to state next: the first whose causes cite only stated variables
    /// (so that each line reads from the lines before it), else the first.
    fn next_pending(&mut self) -> Option<VarId> {
        self.pending.retain(|v| !self.announced[v.index()]);
        let ready = self.pending.iter().position(|&var| {
            self.initial[var.index()].iter().all(|v| {
                self.causes.get(&(var, v)).is_none_or(|cause| {
                    cause.reason.iter().all(|l| match l {
                        Literal::Eq(cited, _) => *cited == var || self.announced[cited.index()],
                        _ => true,
                    })
                })
            })
        });
        let var = self.pending.remove(ready.unwrap_or(0))?;
        self.announced[var.index()] = true;
        Some(var)
    }

    /// Forward checking to its fixpoint; `Ok(true)` if some variable got fixed, or
    /// `Err(Contradiction)`.
    fn forward(&mut self) -> Result<bool, Step> {
        let mut fixed_any = false;
        loop {
            let mut changed = false;
            for (id, constraint) in self.model.constraints() {
                let pruned = self.run(constraint, PropagationLevel::Forward);
                let removed = match pruned {
                    Err(Conflict) => {
                        self.previous.clone_from(&self.domains);
                        return Err(self.contradiction(id, constraint));
                    }
                    Ok(removed) => removed,
                };
                if removed.is_empty() {
                    continue;
                }
                changed = true;
                // Reasons from the domains the run left (with the variable's own domain as it
                // was): a value removed because the same run fixed another variable cites that
                // variable's value, which the path states first.
                let mut causes = Vec::with_capacity(removed.len());
                for &(var, value) in &removed {
                    let after = std::mem::replace(
                        &mut self.scratch[var.index()],
                        self.domains[var.index()].clone(),
                    );
                    let ctx = ExplainContext::new(&self.initial, &self.scratch);
                    let reason = reason_of(constraint, Inference::Removed { var, value }, &ctx);
                    self.scratch[var.index()] = after;
                    let cause = Cause {
                        value,
                        constraint: id,
                        reason,
                    };
                    causes.push(((var, value), cause));
                }
                self.causes.extend(causes);
                for &var in constraint.scope() {
                    let now = self.scratch[var.index()].clone();
                    let fixed = now.is_fixed() && !self.domains[var.index()].is_fixed();
                    self.domains[var.index()] = now;
                    if fixed && !self.announced[var.index()] {
                        self.pending.push_back(var);
                        fixed_any = true;
                    }
                }
            }
            if !changed || fixed_any {
                return Ok(fixed_any);
            }
        }
    }

    /// The deduction of the strongest propagation with the smallest reason, a fixed variable
    /// first; applied. `None` if no constraint prunes.
    fn strongest(&mut self) -> Option<Step> {
        // The cheapest, then the smallest reason, a fixed variable before removed values.
        let mut best: Option<((usize, usize, bool), Step)> = None;
        for (id, constraint) in self.model.constraints() {
            let removed = match self.run(constraint, self.level) {
                Err(Conflict) => return Some(self.contradiction(id, constraint)),
                Ok(removed) => removed,
            };
            if removed.is_empty() {
                continue;
            }
            let ctx = ExplainContext::new(&self.initial, &self.domains);
            let mut candidates: Vec<(usize, bool, Step)> = Vec::new();

            // A variable the constraint fixes.
            for &var in constraint.scope() {
                let (before, after) = (&self.domains[var.index()], &self.scratch[var.index()]);
                if let (false, Some(value)) = (before.is_fixed(), after.value()) {
                    let inference = Inference::Fixed { var, value };
                    let reason = match constraint.explain(inference, &ctx) {
                        Some(reason) => reason,
                        None => {
                            // The values removed now, and those the variable had already lost.
                            let mut reason = union_reason(
                                constraint,
                                before.iter().filter(|&v| v != value).map(|v| (var, v)),
                                &ctx,
                            );
                            describe(var, ctx.initial(var), before, &mut reason);
                            reason.sort_unstable();
                            reason.dedup();
                            reason
                        }
                    };
                    let step = Step::Forced {
                        var,
                        value,
                        constraint: id,
                        reason,
                    };
                    candidates.push((literal_count(&step), false, step));
                }
            }
            // Removals, grouped by reason.
            let mut groups: Vec<Group> = Vec::new();
            for &(var, value) in &removed {
                let reason = reason_of(constraint, Inference::Removed { var, value }, &ctx);
                match groups.iter_mut().find(|(r, _)| *r == reason) {
                    Some((_, pairs)) => pairs.push((var, value)),
                    None => groups.push((reason, vec![(var, value)])),
                }
            }
            for (reason, removed) in groups {
                let step = Step::Eliminated {
                    removed,
                    constraint: id,
                    reason,
                };
                candidates.push((literal_count(&step), true, step));
            }
            for (size, eliminates, step) in candidates {
                let cost = self
                    .cost
                    .as_ref()
                    .map_or(0, |cost| cost(&step, &self.domains));
                let key = (cost, size, eliminates);
                if best.as_ref().is_none_or(|(best, _)| key < *best) {
                    best = Some((key, step));
                }
            }
            // Back to where the path stands.
            for &var in constraint.scope() {
                self.scratch[var.index()].clone_from(&self.domains[var.index()]);
            }
        }
        let (_, step) = best?;
        self.previous.clone_from(&self.domains);
        match &step {
            Step::Forced {
                var,
                value,
                constraint,
                reason,
            } => {
                for v in self.domains[var.index()].iter().filter(|v| v != value) {
                    self.causes.insert(
                        (*var, v),
                        Cause {
                            value: v,
                            constraint: *constraint,
                            reason: reason.clone(),
                        },
                    );
                }
                self.set_domain(*var, Domain::from_values([*value]).expect("one value"));
                self.announced[var.index()] = true;
            }
            Step::Eliminated {
                removed,
                constraint,
                reason,
            } => {
                for &(var, value) in removed {
                    self.causes.insert(
                        (var, value),
                        Cause {
                            value,
                            constraint: *constraint,
                            reason: reason.clone(),
                        },
                    );
                    let kept = Domain::from_values(
                        self.domains[var.index()].iter().filter(|&v| v != value),
                    )
                    .expect("propagation left a value");
                    let fixed = kept.is_fixed();
                    self.set_domain(var, kept);
                    if fixed && !self.announced[var.index()] {
                        self.pending.push_back(var);
                    }
                }
            }
            _ => {}
        }
        Some(step)
    }

    /// Propagates `constraint` alone on the scratch copy; the values it removed (the scratch
    /// keeps them removed), or its conflict (the scratch is then as it was).
    fn run(
        &mut self,
        constraint: &dyn crate::Constraint,
        level: PropagationLevel,
    ) -> Result<Vec<(VarId, i32)>, Conflict> {
        propagate_alone(constraint, &mut self.scratch, level)?;
        let mut removed = Vec::new();
        for &var in constraint.scope() {
            let (before, after) = (&self.domains[var.index()], &self.scratch[var.index()]);
            if before.size() != after.size() {
                removed.extend(
                    before
                        .iter()
                        .filter(|&v| !after.contains(v))
                        .map(|v| (var, v)),
                );
            }
        }
        removed.sort_unstable();
        removed.dedup();
        Ok(removed)
    }

    fn contradiction(&self, id: ConstraintId, constraint: &dyn crate::Constraint) -> Step {
        let ctx = ExplainContext::new(&self.initial, &self.domains);
        Step::Contradiction {
            constraint: id,
            reason: reason_of(constraint, Inference::Failed, &ctx),
        }
    }

    fn set_domain(&mut self, var: VarId, domain: Domain) {
        self.scratch[var.index()].clone_from(&domain);
        self.domains[var.index()] = domain;
    }
}

/// The constraint's reason for `inference`, or every variable of its scope as it stands.
fn reason_of(
    constraint: &dyn crate::Constraint,
    inference: Inference,
    ctx: &ExplainContext<'_>,
) -> Vec<Literal> {
    let mut reason = constraint
        .explain(inference, ctx)
        .unwrap_or_else(|| scope_reason(constraint, ctx));
    reason.sort_unstable();
    reason.dedup();
    reason
}

/// The union of the reasons of several removals (the reason of a variable's being fixed, for a
/// constraint that has none of its own).
fn union_reason(
    constraint: &dyn crate::Constraint,
    removed: impl Iterator<Item = (VarId, i32)>,
    ctx: &ExplainContext<'_>,
) -> Vec<Literal> {
    let mut reason: Vec<Literal> = removed
        .flat_map(|(var, value)| reason_of(constraint, Inference::Removed { var, value }, ctx))
        .collect();
    reason.sort_unstable();
    reason.dedup();
    reason
}

/// How many facts a person reads in the step's reason.
fn literal_count(step: &Step) -> usize {
    match step {
        Step::Forced { reason, .. } | Step::Eliminated { reason, .. } => reason.len(),
        _ => 0,
    }
}
