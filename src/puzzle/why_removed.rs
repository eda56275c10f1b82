//! [`RemovalReplay`]: why a value is no longer possible at a node of a search, as a chain of
//! reasons back to the decisions and the givens.
//!
//! The replay starts from the model's domains, fixes the givens, then takes the decisions of a
//! path one after the other, and after each propagates constraint by constraint (forward
//! checking to its fixpoint first, then each constraint's strongest filtering), noting for
//! every value removed the constraint that removed it and its reason
//! ([`Constraint::explain`](crate::Constraint::explain), or every variable of the scope as it
//! stood, [`scope_reason`]). Each reason is checked with [`reason_implies`] as it is noted; one
//! that does not imply its removal is replaced by the scope's.
//!
//! A chain ([`RemovalChain`]) then follows the reasons back: each fact of a reason (`x ≠ 3`,
//! `x = 4`, `x ≥ 2`) to the removals that made it true, until only givens and decisions are
//! left. Costs: the replay is one propagation per node of the path, with one call of `explain`
//! and one of `reason_implies` per value removed; a chain is a walk over the removals it needs.
//!
//! The replay runs its own propagation, not the engine's: it reaches the same fixpoint for
//! monotone constraints (the built-ins), but values removed by a search's learnt nogoods or an
//! optimisation's bound are not removed here.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;

use crate::domain::Domain;
use crate::ids::{ConstraintId, VarId};
use crate::kernel::{
    Constraint, ExplainContext, Inference, PropagationLevel, Sandbox, reason_implies, scope_reason,
};
use crate::model::Model;
use crate::puzzle::describe_literals;
use crate::{Literal, ModelError};

/// What a chain ends in: a given or a decision of the path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Premise {
    /// A given (a puzzle's clue): `var = value`, by its index among the givens.
    Given {
        /// Its index among the givens passed to [`RemovalReplay::new`].
        index: usize,
        /// The variable.
        var: VarId,
        /// Its value.
        value: i32,
    },
    /// A decision of the path: `position` counts from 0 in the order taken.
    Decision {
        /// Its position on the path, from 0.
        position: usize,
        /// The decision: `x = v`, `x ≠ v`, `x ≤ v` or `x ≥ v`.
        literal: Literal,
    },
}

impl Premise {
    /// The premise as a line in the model's names: `given r1c1 = 5`, `decision 2: r4c4 ≠ 1`.
    pub fn describe(&self, model: &Model) -> String {
        match *self {
            Premise::Given { var, value, .. } => {
                format!("given {} = {value}", model.var_name(var))
            }
            Premise::Decision { position, literal } => format!(
                "decision {}: {}",
                position + 1,
                describe_literals(model, &[literal])
            ),
        }
    }
}

/// One step of a chain: a constraint removed these values from these facts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainStep {
    /// The `(variable, value)` pairs removed, in the order the replay removed them.
    pub removed: Vec<(VarId, i32)>,
    /// The constraint that removed them.
    pub constraint: ConstraintId,
    /// Its reason: facts each true before the step, made true by earlier steps or premises.
    pub reason: Vec<Literal>,
}

impl ChainStep {
    /// The step as a line: `r3c4 ≠ 5: by row 3, since r3c1 = 5`.
    pub fn describe(&self, model: &Model) -> String {
        let removed: Vec<Literal> = self
            .removed
            .iter()
            .map(|&(var, value)| Literal::Ne(var, value))
            .collect();
        let since = if self.reason.is_empty() {
            String::new()
        } else {
            format!(", since {}", describe_literals(model, &self.reason))
        };
        format!(
            "{}: by {}{since}",
            describe_literals(model, &removed),
            model.constraint_name(self.constraint)
        )
    }
}

/// Why `var ≠ value` holds at a node: the premises it rests on and the steps from them to it,
/// in the order the replay took them (the last step removes `value` from `var`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemovalChain {
    /// The variable asked about.
    pub var: VarId,
    /// The value asked about.
    pub value: i32,
    /// The givens and decisions the chain rests on: givens first, then decisions in the order
    /// of the path. Nothing else is assumed.
    pub premises: Vec<Premise>,
    /// The steps, each from the premises and earlier steps; empty when a premise removed the
    /// value by itself (a given or a decision on `var`).
    pub steps: Vec<ChainStep>,
}

impl RemovalChain {
    /// The chain as lines: the question, the premises, then the steps numbered.
    ///
    /// ```text
    /// r1c2 ≠ 5, because:
    ///   given r1c1 = 5
    ///   1. r1c2 ≠ 5: by row 1, since r1c1 = 5
    /// ```
    pub fn describe(&self, model: &Model) -> Vec<String> {
        let mut lines = vec![format!(
            "{} ≠ {}, because:",
            model.var_name(self.var),
            self.value
        )];
        for premise in &self.premises {
            lines.push(format!("  {}", premise.describe(model)));
        }
        for (k, step) in self.steps.iter().enumerate() {
            lines.push(format!("  {}. {}", k + 1, step.describe(model)));
        }
        lines
    }

    /// The literals that hold the premises: `var = value` for each given, the decision's literal
    /// for each decision. Propagating from them alone removes the value again.
    pub fn premise_literals(&self) -> Vec<Literal> {
        self.premises
            .iter()
            .map(|p| match *p {
                Premise::Given { var, value, .. } => Literal::Eq(var, value),
                Premise::Decision { literal, .. } => literal,
            })
            .collect()
    }
}

/// The answer to "why is `value` no longer possible for `var`?".
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum WhyRemoved {
    /// It was removed, for this chain of reasons.
    Removed(RemovalChain),
    /// It was not removed: the value is still possible at the node.
    StillPossible {
        /// The variable.
        var: VarId,
        /// The value.
        value: i32,
    },
}

impl WhyRemoved {
    /// The answer as lines: the chain's, or `5 is still possible in r3c4 at this node`.
    pub fn describe(&self, model: &Model) -> Vec<String> {
        match self {
            WhyRemoved::Removed(chain) => chain.describe(model),
            WhyRemoved::StillPossible { var, value } => vec![format!(
                "{value} is still possible in {} at this node",
                model.var_name(*var)
            )],
        }
    }
}

/// What went wrong, named in the model's words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WhyRemovedError {
    /// A name that is no variable of the model.
    #[error("no variable named {name:?} in the model")]
    UnknownVariable {
        /// The name given.
        name: String,
    },
    /// A value outside the variable's initial domain: it was never possible.
    #[error("{value} is not in the initial domain of {variable}, {domain}: it was never possible")]
    ValueNotInDomain {
        /// The variable's name.
        variable: String,
        /// The value asked about.
        value: i32,
        /// The variable's initial domain.
        domain: String,
    },
    /// A question or a decision that cannot be read.
    #[error("cannot read {text:?}: {expected}")]
    Syntax {
        /// The text given.
        text: String,
        /// What was expected.
        expected: String,
    },
    /// Two givens for one variable that disagree, or propagating the givens fails.
    #[error("the givens have no solution: {why}")]
    GivensFail {
        /// Why, in the model's words.
        why: String,
    },
    /// A decision of the path is impossible, or propagating after it fails: the node is not
    /// one the search makes.
    #[error("the path fails at decision {position} ({decision}): {why}")]
    PathFails {
        /// The decision's position on the path, from 1.
        position: usize,
        /// The decision in the model's words.
        decision: String,
        /// Why, in the model's words.
        why: String,
    },
    /// A variable of another model.
    #[error(transparent)]
    Model(#[from] ModelError),
}

/// How a removal came about.
#[derive(Debug, Clone)]
enum Origin {
    Premise(Premise),
    Constraint {
        constraint: ConstraintId,
        reason: Vec<Literal>,
    },
}

/// One value removed by the replay.
#[derive(Debug, Clone)]
struct Record {
    var: VarId,
    value: i32,
    origin: Origin,
}

/// A replay of a path of a search, from the model's domains and the givens through the
/// decisions, that keeps why each value left each domain; [`why`](RemovalReplay::why) answers
/// "why is this value no longer possible here?" with a [`RemovalChain`].
///
/// # Examples
///
/// ```
/// use cspkit::puzzle::{Premise, RemovalReplay, WhyRemoved};
/// use cspkit::{AllDifferent, Literal, Model, PropagationLevel};
///
/// let mut model = Model::new();
/// let xs = model.new_named_vars("x", 3, 1..=3)?;
/// model.post_named("the row", AllDifferent::new(&xs))?;
/// // No givens; one decision, x[0] = 1.
/// let mut replay = RemovalReplay::new(&model, &[], PropagationLevel::Full)?;
/// replay.decide(Literal::Eq(xs[0], 1))?;
/// let WhyRemoved::Removed(chain) = replay.why(xs[2], 1)? else { panic!() };
/// assert_eq!(chain.premises, [Premise::Decision { position: 0, literal: Literal::Eq(xs[0], 1) }]);
/// assert_eq!(
///     chain.describe(&model),
///     ["x[2] ≠ 1, because:", "  decision 1: x[0] = 1", "  1. x[2] ≠ 1: by the row, since x[0] = 1"]
/// );
/// assert!(matches!(replay.why(xs[2], 2)?, WhyRemoved::StillPossible { .. }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct RemovalReplay<'m> {
    model: &'m Model,
    level: PropagationLevel,
    initial: Vec<Domain>,
    domains: Vec<Domain>,
    scratch: Vec<Domain>,
    records: Vec<Record>,
    /// The record of each removal.
    by_removal: HashMap<(VarId, i32), usize>,
    /// Decisions taken so far.
    decisions: usize,
}

impl<'m> RemovalReplay<'m> {
    /// The replay at the root of a search of `model` under `givens` (`variable = value` pairs,
    /// a puzzle's clues; none for a model that holds its data), propagated at `level`.
    ///
    /// # Errors
    ///
    /// [`WhyRemovedError::Model`] for a variable of another model,
    /// [`WhyRemovedError::ValueNotInDomain`] for a given outside its variable's domain,
    /// [`WhyRemovedError::GivensFail`] when the givens contradict each other or propagation.
    pub fn new(
        model: &'m Model,
        givens: &[(VarId, i32)],
        level: PropagationLevel,
    ) -> Result<Self, WhyRemovedError> {
        let initial: Vec<Domain> = model.variables().map(|v| model.domain(v).clone()).collect();
        let mut replay = RemovalReplay {
            model,
            level,
            domains: initial.clone(),
            scratch: initial.clone(),
            initial,
            records: Vec::new(),
            by_removal: HashMap::new(),
            decisions: 0,
        };
        for (index, &(var, value)) in givens.iter().enumerate() {
            replay.check_value(var, value)?;
            let premise = Premise::Given { index, var, value };
            if !replay.domains[var.index()].contains(value) {
                return Err(WhyRemovedError::GivensFail {
                    why: format!(
                        "{} = {value} contradicts another given of {}",
                        model.var_name(var),
                        model.var_name(var)
                    ),
                });
            }
            replay.assume(Literal::Eq(var, value), premise);
        }
        replay
            .propagate()
            .map_err(|why| WhyRemovedError::GivensFail { why })?;
        Ok(replay)
    }

    /// Takes the next decision of the path (`x = v`, `x ≠ v`, `x ≤ v` or `x ≥ v`) and
    /// propagates.
    ///
    /// # Errors
    ///
    /// [`WhyRemovedError::Model`] for a variable of another model,
    /// [`WhyRemovedError::ValueNotInDomain`] for `x = v` or `x ≠ v` with `v` outside the
    /// variable's initial domain, [`WhyRemovedError::PathFails`] when the decision leaves the variable no value or
    /// propagation after it fails. The replay is then left as it was before the call.
    pub fn decide(&mut self, decision: Literal) -> Result<(), WhyRemovedError> {
        let var = decision.var();
        match decision {
            // A bound may lie outside the domain: `x ≤ 0` leaves no value, `x ≤ 10` all.
            Literal::Ge(..) | Literal::Le(..) => self.check_value(var, self.initial_value(var))?,
            _ => self.check_value(var, decision.value())?,
        }
        let position = self.decisions + 1;
        let fails = |why: String| WhyRemovedError::PathFails {
            position,
            decision: describe_literals(self.model, &[decision]),
            why,
        };
        let domain = &self.domains[var.index()];
        if !domain.iter().any(|v| satisfies(decision, v)) {
            return Err(fails(format!(
                "{} is {} here",
                self.model.var_name(var),
                self.model.domain_text(var, domain)
            )));
        }
        let saved = (
            self.domains.clone(),
            self.records.len(),
            self.by_removal.clone(),
        );
        let premise = Premise::Decision {
            position: self.decisions,
            literal: decision,
        };
        self.assume(decision, premise);
        if let Err(why) = self.propagate() {
            let why = fails(why);
            let (domains, records, by_removal) = saved;
            self.scratch.clone_from(&domains);
            self.domains = domains;
            self.records.truncate(records);
            self.by_removal = by_removal;
            return Err(why);
        }
        self.decisions += 1;
        Ok(())
    }

    /// The domains at the node the replay stands at.
    pub fn domains(&self) -> &[Domain] {
        &self.domains
    }

    /// The model's domains, before the givens: what reasons are written against.
    pub fn initial_domains(&self) -> &[Domain] {
        &self.initial
    }

    /// The constraint that removed `value` from `var` and its reason (facts that held before
    /// it did), or `None` if a premise removed it or it was not removed.
    pub fn cause(&self, var: VarId, value: i32) -> Option<(ConstraintId, &[Literal])> {
        let record = &self.records[*self.by_removal.get(&(var, value))?];
        match &record.origin {
            Origin::Constraint { constraint, reason } => Some((*constraint, reason)),
            Origin::Premise(_) => None,
        }
    }

    /// Why `value` is no longer possible for `var` here: the chain of reasons back to givens and
    /// decisions, or [`WhyRemoved::StillPossible`].
    ///
    /// # Errors
    ///
    /// [`WhyRemovedError::Model`] for a variable of another model,
    /// [`WhyRemovedError::ValueNotInDomain`] for a value outside the variable's initial domain.
    pub fn why(&self, var: VarId, value: i32) -> Result<WhyRemoved, WhyRemovedError> {
        self.check_value(var, value)?;
        let Some(&target) = self.by_removal.get(&(var, value)) else {
            return Ok(WhyRemoved::StillPossible { var, value });
        };
        // Every record the target needs, by index (the order of the replay).
        let mut needed = BTreeSet::new();
        let mut stack = vec![target];
        while let Some(index) = stack.pop() {
            if !needed.insert(index) {
                continue;
            }
            if let Origin::Constraint { reason, .. } = &self.records[index].origin {
                for &literal in reason {
                    stack.extend(self.support(literal));
                }
            }
        }
        let mut premises = BTreeSet::new();
        let mut steps: Vec<ChainStep> = Vec::new();
        for index in needed {
            let record = &self.records[index];
            match &record.origin {
                Origin::Premise(premise) => {
                    premises.insert(*premise);
                }
                Origin::Constraint { constraint, reason } => {
                    // Removals with one constraint and one reason read as one step.
                    match steps
                        .iter_mut()
                        .find(|s| s.constraint == *constraint && s.reason == *reason)
                    {
                        Some(step) => step.removed.push((record.var, record.value)),
                        None => steps.push(ChainStep {
                            removed: vec![(record.var, record.value)],
                            constraint: *constraint,
                            reason: reason.clone(),
                        }),
                    }
                }
            }
        }
        Ok(WhyRemoved::Removed(RemovalChain {
            var,
            value,
            premises: premises.into_iter().collect(),
            steps,
        }))
    }

    /// The records of the removals that make `literal` true (none for a value outside the
    /// initial domain).
    fn support(&self, literal: Literal) -> impl Iterator<Item = usize> + '_ {
        let var = literal.var();
        self.initial[var.index()]
            .iter()
            .filter(move |&v| !satisfies(literal, v))
            .filter_map(move |v| self.by_removal.get(&(var, v)).copied())
    }

    /// A value of `var`'s initial domain (any), to check the variable alone.
    fn initial_value(&self, var: VarId) -> i32 {
        self.initial
            .get(var.index())
            .and_then(Domain::min)
            .unwrap_or_default()
    }

    fn check_value(&self, var: VarId, value: i32) -> Result<(), WhyRemovedError> {
        if !self.model.owns(var) {
            return Err(ModelError::ForeignVariable {
                context: "why removed".to_owned(),
                variable: format!("{var:?}"),
            }
            .into());
        }
        let domain = &self.initial[var.index()];
        if !domain.contains(value) {
            return Err(WhyRemovedError::ValueNotInDomain {
                variable: self.model.var_name(var).into_owned(),
                value,
                domain: self.model.domain_text(var, domain),
            });
        }
        Ok(())
    }

    /// Removes the values `literal` rules out, as the premise's doing.
    fn assume(&mut self, literal: Literal, premise: Premise) {
        let var = literal.var();
        let domain = &self.domains[var.index()];
        let gone: Vec<i32> = domain.iter().filter(|&v| !satisfies(literal, v)).collect();
        let kept =
            Domain::from_values(domain.iter().filter(|&v| satisfies(literal, v))).expect("a value");
        for value in gone {
            self.note(var, value, Origin::Premise(premise));
        }
        self.scratch[var.index()].clone_from(&kept);
        self.domains[var.index()] = kept;
    }

    fn note(&mut self, var: VarId, value: i32, origin: Origin) {
        self.by_removal.insert((var, value), self.records.len());
        self.records.push(Record { var, value, origin });
    }

    /// Forward checking to its fixpoint, then the first constraint whose strongest filtering
    /// prunes, then forward checking again, until nothing prunes; on a failure, why.
    fn propagate(&mut self) -> Result<(), String> {
        let model = self.model;
        loop {
            let mut changed = false;
            if self.level >= PropagationLevel::Forward {
                for (id, constraint) in model.constraints() {
                    changed |= self.run(id, constraint, PropagationLevel::Forward)?;
                }
                if changed {
                    continue;
                }
            }
            if self.level >= PropagationLevel::Full {
                for (id, constraint) in model.constraints() {
                    if self.run(id, constraint, self.level)? {
                        changed = true;
                        break;
                    }
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }

    /// One call of the constraint's `propagate`; whether it pruned, each removal noted with
    /// its reason; on a conflict, why in the model's words.
    fn run(
        &mut self,
        id: ConstraintId,
        constraint: &dyn Constraint,
        level: PropagationLevel,
    ) -> Result<bool, String> {
        let mut sandbox = Sandbox::new();
        let result = sandbox.propagate_once(constraint, &mut self.scratch, level);
        let scope = constraint.scope();
        if result.is_err() || scope.iter().any(|v| self.scratch[v.index()].is_empty()) {
            sandbox.undo(&mut self.scratch);
            let ctx = ExplainContext::new(&self.initial, &self.domains);
            let reason = reason_of(constraint, Inference::Failed, &ctx, &self.initial);
            let mut why = format!("{} cannot hold", self.model.constraint_name(id));
            if !reason.is_empty() {
                let _ = write!(why, ", since {}", describe_literals(self.model, &reason));
            }
            return Err(why);
        }
        let mut removed = Vec::new();
        for &var in scope {
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
        if removed.is_empty() {
            return Ok(false);
        }
        let reasons: Vec<Vec<Literal>> = {
            let ctx = ExplainContext::new(&self.initial, &self.domains);
            removed
                .iter()
                .map(|&(var, value)| {
                    reason_of(
                        constraint,
                        Inference::Removed { var, value },
                        &ctx,
                        &self.initial,
                    )
                })
                .collect()
        };
        for (&(var, value), reason) in removed.iter().zip(reasons) {
            self.note(
                var,
                value,
                Origin::Constraint {
                    constraint: id,
                    reason,
                },
            );
        }
        for &var in scope {
            self.domains[var.index()].clone_from(&self.scratch[var.index()]);
        }
        Ok(true)
    }
}

/// Whether `value` satisfies `literal` (for the literal's variable).
fn satisfies(literal: Literal, value: i32) -> bool {
    match literal {
        Literal::Eq(_, v) => value == v,
        Literal::Ne(_, v) => value != v,
        Literal::Ge(_, v) => value >= v,
        Literal::Le(_, v) => value <= v,
    }
}

/// The constraint's reason for `inference`, checked with [`reason_implies`]; the scope as it
/// stands if the constraint gives none or one that does not imply the inference.
fn reason_of(
    constraint: &dyn Constraint,
    inference: Inference,
    ctx: &ExplainContext<'_>,
    initial: &[Domain],
) -> Vec<Literal> {
    let given = constraint.explain(inference, ctx).map(|mut reason| {
        reason.sort_unstable();
        reason.dedup();
        reason
    });
    if let Some(reason) = given
        && reason_implies(constraint, initial, &reason, inference)
    {
        return reason;
    }
    let mut reason = scope_reason(constraint, ctx);
    reason.sort_unstable();
    reason.dedup();
    reason
}

/// Reads a fact about one variable, in the model's names: `r3c4=5`, `x[3] != 2` (or `≠`),
/// `y<=4` (or `≤`), `y>=4` (or `≥`), `y>3`, `y<5`; blanks around the operator are allowed.
/// `x > v` is read as `x ≥ v + 1` and `x < v` as `x ≤ v - 1`.
///
/// # Errors
///
/// [`WhyRemovedError::Syntax`] when the text is not `name operator integer`,
/// [`WhyRemovedError::UnknownVariable`] for a name that is no variable of the model.
///
/// # Examples
///
/// ```
/// use cspkit::puzzle::parse_literal;
/// use cspkit::{Literal, Model};
///
/// let mut model = Model::new();
/// let x = model.new_named_var("x[3]", 1..=9)?;
/// assert_eq!(parse_literal(&model, "x[3]=5")?, Literal::Eq(x, 5));
/// assert_eq!(parse_literal(&model, "x[3] > 5")?, Literal::Ge(x, 6));
/// assert!(parse_literal(&model, "y=5").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_literal(model: &Model, text: &str) -> Result<Literal, WhyRemovedError> {
    let syntax = || WhyRemovedError::Syntax {
        text: text.to_owned(),
        expected: "a variable, an operator (=, !=, <=, >=, <, >) and an integer, as r3c4=5"
            .to_owned(),
    };
    // The operator: the first of its characters, then one more if it makes a longer one.
    let at = text
        .find(['=', '!', '<', '>', '≠', '≤', '≥'])
        .ok_or_else(syntax)?;
    let rest = &text[at..];
    let (operator, length) = [
        ("!=", "≠"),
        ("<=", "≤"),
        (">=", "≥"),
        ("≠", "≠"),
        ("≤", "≤"),
        ("≥", "≥"),
        ("=", "="),
        ("<", "<"),
        (">", ">"),
    ]
    .iter()
    .find(|(written, _)| rest.starts_with(written))
    .map(|&(written, operator)| (operator, written.len()))
    .ok_or_else(syntax)?;
    let name = text[..at].trim();
    let number = text[at + length..].trim();
    if name.is_empty() {
        return Err(syntax());
    }
    let value: i64 = number.parse().map_err(|_| syntax())?;
    let var = model
        .var_by_name(name)
        .ok_or_else(|| WhyRemovedError::UnknownVariable {
            name: name.to_owned(),
        })?;
    let out_of_range = || WhyRemovedError::Syntax {
        text: text.to_owned(),
        expected: "a value that fits in 32 bits".to_owned(),
    };
    let value = i32::try_from(value).map_err(|_| out_of_range())?;
    Ok(match operator {
        "=" => Literal::Eq(var, value),
        "≠" => Literal::Ne(var, value),
        "≤" => Literal::Le(var, value),
        "≥" => Literal::Ge(var, value),
        "<" => Literal::Le(var, value.checked_sub(1).ok_or_else(out_of_range)?),
        _ => Literal::Ge(var, value.checked_add(1).ok_or_else(out_of_range)?),
    })
}

/// Reads a path of decisions separated by commas: `r1c1=1, r1c2≠3` (each as
/// [`parse_literal`] reads it); an empty text is the root.
///
/// # Errors
///
/// As [`parse_literal`], for the first decision that cannot be read.
pub fn parse_path(model: &Model, text: &str) -> Result<Vec<Literal>, WhyRemovedError> {
    text.split(',')
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(|part| parse_literal(model, part))
        .collect()
}

/// Why `value` is no longer possible for `var` at the node of `model` that `path` reaches from
/// the root under `givens`, at `level`: [`RemovalReplay`] in one call.
///
/// # Errors
///
/// As [`RemovalReplay::new`], [`RemovalReplay::decide`] and [`RemovalReplay::why`].
///
/// # Examples
///
/// ```
/// use cspkit::models::sudoku::{Grid, Sudoku};
/// use cspkit::puzzle::{WhyRemoved, why_removed};
/// use cspkit::PropagationLevel;
///
/// let empty = Sudoku::new(&Grid::empty(3).unwrap())?;
/// let grid = Grid::parse_line(&format!("5{}", ".".repeat(80)), 1)?;
/// let givens: Vec<_> = empty.givens(&grid).collect();
/// let answer = why_removed(empty.model(), &givens, &[], empty.cell(0, 3), 5, PropagationLevel::Full)?;
/// assert_eq!(
///     answer.describe(empty.model()).last().unwrap(),
///     "  1. r1c4 ≠ 5: by row 1, since r1c1 = 5"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn why_removed(
    model: &Model,
    givens: &[(VarId, i32)],
    path: &[Literal],
    var: VarId,
    value: i32,
    level: PropagationLevel,
) -> Result<WhyRemoved, WhyRemovedError> {
    let mut replay = RemovalReplay::new(model, givens, level)?;
    for &decision in path {
        replay.decide(decision)?;
    }
    replay.why(var, value)
}
