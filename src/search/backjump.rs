//! Looking backward: why each value left its domain, and conflict-directed backjumping
//! (AIMA 6.3.3; Prosser 1993).
//!
//! Chronological backtracking undoes the last decision when a node fails, even when that
//! decision had nothing to do with the failure: with `x1 = 1, …, x5 = 5` decided and `x6`
//! wiped out by constraints between `x6` and `x2` alone, trying the other values of `x5`,
//! `x4` and `x3` fails again and again. A search that knows *why* `x6` failed jumps straight
//! back to `x2`.
//!
//! # The causes of removals
//!
//! When backjumping is on, every value removed from a domain below the root is written down
//! here with its level (the decisions on the path when it was removed) and its cause
//! ([`Cause`]):
//!
//! - a **decision** `x = v` (or `x ≤ v`) removes the other values of `x`;
//! - a **constraint's run** removes values from the domains its scope had before the run. Its
//!   reason is not computed then: the scope's domains are kept (a copy of those few domains)
//!   and [`Constraint::explain`] is asked only if a conflict ever needs it — lazily, as lazy
//!   clause generation does. A constraint with no `explain` of its own is explained by its
//!   scope's domains as they stood ([`scope_reason`]), always right and coarser;
//! - textbook **forward checking** from `x = v` removes values that clash with `x = v` alone:
//!   its reason is that one literal;
//! - the **objective's bound** of branch and bound removes values because of the other terms'
//!   bounds: their bounds are its reason;
//! - a **refutation** `x ≠ v` made after the subtree of `x = v` failed: its reason is that
//!   subtree's conflict set, the earlier decisions that, with `x = v`, made it fail.
//!
//! Changes made at the root are facts of the model and need no cause.
//!
//! # Conflict sets
//!
//! When a node fails, the failing constraint's reason (its [`explain`](Constraint::explain)
//! of [`Inference::Failed`] from the domains it saw) is a list of literals; each literal is
//! true because of some removals, and each removal has a cause with literals of its own. The
//! [`conflict set`](Backjump::trace) follows these back to the decisions: the levels of the
//! decisions the failure rests on. The search then jumps back to the deepest of them,
//! skipping every decision in between, which had nothing to do with it; the conflict set
//! without that decision becomes the reason of its refutation. With d-way branching (one
//! child per value, as AIMA draws the tree) each node collects the conflict sets of its
//! children instead, `conf(x)`, and when its values run out fails with `conf(x)` and the
//! reasons its values were removed — AIMA's "conf(Xj) ← conf(Xj) ∪ conf(Xi) − {Xj}".
//!
//! # What it takes
//!
//! Causes are written per value, so the domains must be bitsets (at most
//! [`Domain::MAX_SPAN`] values between their bounds): on a model with a wider domain, or with
//! [`Propagation::Ac3`](crate::Propagation::Ac3) (whose revisions do not go through the
//! constraints' runs), the search backtracks chronologically, as without the option
//! ([`backjumps_on`]). None of this is on the way of a search without backjumping: the engine
//! holds it in an `Option` and asks once per node.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use smallvec::SmallVec;

use crate::PropagationLevel;
use crate::domain::Domain;
use crate::ids::VarId;
use crate::kernel::explain::{ExplainContext, Inference, Literal, scope_reason};
use crate::kernel::propagate_alone;
use crate::kernel::propagation::RunHook;
use crate::model::Model;

/// Whether backjumping can run on `model` with AC-3 on or off (`ac3`): every domain is a
/// bitset and the constraints' own propagation is used.
pub(crate) fn backjumps_on(model: &Model, ac3: bool) -> bool {
    !ac3 && model.initial_domains().iter().all(Domain::is_bitset)
}

/// A set of decision levels (1 for the first decision), as bits.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct LevelSet {
    words: SmallVec<[u64; 2]>,
}

impl LevelSet {
    /// The levels `1..=depth`: every decision on a path of `depth` decisions.
    pub(crate) fn up_to(depth: usize) -> Self {
        let mut set = LevelSet::default();
        for level in 1..=depth {
            set.insert(level);
        }
        set
    }

    /// Adds `level`.
    pub(crate) fn insert(&mut self, level: usize) {
        let (word, bit) = (level / 64, level % 64);
        if self.words.len() <= word {
            self.words.resize(word + 1, 0);
        }
        self.words[word] |= 1 << bit;
    }

    /// Takes `level` out.
    pub(crate) fn remove(&mut self, level: usize) {
        if let Some(word) = self.words.get_mut(level / 64) {
            *word &= !(1 << (level % 64));
        }
    }

    /// Whether `level` is in the set.
    pub(crate) fn contains(&self, level: usize) -> bool {
        self.words
            .get(level / 64)
            .is_some_and(|word| word & (1 << (level % 64)) != 0)
    }

    /// Adds every level of `other`.
    pub(crate) fn union_with(&mut self, other: &LevelSet) {
        if self.words.len() < other.words.len() {
            self.words.resize(other.words.len(), 0);
        }
        for (word, &bits) in self.words.iter_mut().zip(&other.words) {
            *word |= bits;
        }
    }

    /// The number of levels in the set.
    pub(crate) fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The deepest level, or 0 for an empty set.
    pub(crate) fn deepest(&self) -> usize {
        self.words
            .iter()
            .enumerate()
            .rev()
            .find(|(_, word)| **word != 0)
            .map_or(0, |(i, word)| i * 64 + 63 - word.leading_zeros() as usize)
    }

    /// The levels, shallowest first.
    pub(crate) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &word)| {
            (0..64)
                .filter(move |bit| word & (1 << bit) != 0)
                .map(move |bit| i * 64 + bit)
        })
    }

    /// Empties the set.
    pub(crate) fn clear(&mut self) {
        self.words.clear();
    }
}

/// Why a value was removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cause {
    /// The decision of its level.
    Decision,
    /// A run of constraint `constraint` from the domains of its scope kept at `seen` (in
    /// scope order) in [`Backjump::seen`]: explained when asked.
    Run { constraint: u32, seen: u32 },
    /// The literals `literals[from..from + len]` of [`Backjump`].
    Because { from: u32, len: u32 },
    /// The decision levels `levels[from..from + len]` of [`Backjump`].
    Refuted { from: u32, len: u32 },
}

/// One value removed below the root: its variable, value, level and cause.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Removal {
    pub(crate) var: u32,
    pub(crate) value: i32,
    pub(crate) level: u32,
    pub(crate) cause: Cause,
}

/// The lengths of the logs when a level was opened: what undoing it keeps.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mark {
    pub(crate) removals: usize,
    seen: usize,
    literals: usize,
    levels: usize,
}

/// What follows the log beside backjumping (learning's nogoods): told when the log is cleared
/// or cut back, and asked for the reason of the last failure it found. Learning builds on this
/// module, not the other way round.
pub(crate) trait LogFollower {
    /// The log was cleared: a new search from the model's root.
    fn reset(&mut self);
    /// The log was cut back to `len` removals.
    fn undone_to(&mut self, len: usize);
    /// The reason of the last failure the follower found (literals that cannot all hold),
    /// taken.
    fn take_failure(&mut self) -> Option<Vec<Literal>>;
}

/// The causes of the removals on the current path, and the conflict set of the last failure.
/// One per engine that backjumps; see the module documentation. `F` follows the log (learning).
#[derive(Debug)]
pub(crate) struct Backjump<F> {
    /// Every removal below the root on the path, in the order they were made (the trail
    /// order conflict analysis walks back).
    pub(crate) removals: Vec<Removal>,
    /// Per variable: its removals on the path, oldest first (indices into `removals`).
    pub(crate) by_var: Vec<Vec<u32>>,
    /// Per variable: the level and value of the decision that fixed it (`x = v`), if one did.
    pub(crate) decided: Vec<Option<(u32, i32)>>,
    /// The variables `decided` names, in the order of their levels.
    decision_vars: Vec<u32>,
    /// The scopes' domains constraints ran from.
    seen: DomainStack,
    pub(crate) literals: Vec<Literal>,
    pub(crate) levels: Vec<u32>,
    pub(crate) marks: Vec<Mark>,
    /// The decision of each level as a literal (`x = v`, or `x ≤ v` when splitting).
    pub(crate) decision_literals: Vec<Literal>,
    /// Learning from failures (`None` without it): the nogoods and the reason of the last
    /// failure, which conflict analysis starts from.
    pub(crate) learning: Option<Box<F>>,
    /// The model's initial domains, and a copy whose scope is overwritten to explain a run.
    initial: Vec<Domain>,
    scratch: Vec<Domain>,
    /// The initial domains again, for constraints that minimize a reason by running alone.
    spare: Mutex<Vec<Domain>>,
    /// The scope's domains before the constraint that runs now, and the constraint.
    before: Vec<Domain>,
    /// A constraint that failed, and the domains its scope had before it ran.
    failed: Option<u32>,
    failed_seen: Vec<Domain>,
    model_id: u32,
    /// The conflict set of the last failure, until the search backtracks from it.
    pub(crate) conflict: Option<LevelSet>,
    /// The reason of a failure found where the model is not at hand, to trace.
    pub(crate) unexplained: Option<Vec<Literal>>,
    /// D-way branching: `conf(x)` of the node at each depth (index `depth`: the node after
    /// `depth` decisions).
    pub(crate) dway: Vec<LevelSet>,
    /// Which removals the trace running now has visited (a stamp per removal).
    pub(crate) visited: Vec<u32>,
    pub(crate) stamp: u32,
    /// The reason last given for a removal by a constraint's run, kept for the other
    /// removals of that run (see [`explain_run`](Backjump::explain_run)).
    run_reason: Option<RunReason>,
}

/// A reason given for one removal of a constraint's run, and what it implies.
#[derive(Debug)]
struct RunReason {
    constraint: u32,
    seen: u32,
    reason: Vec<Literal>,
    /// What the constraint alone infers from the reason, once asked.
    implied: Option<Implied>,
}

/// What a constraint alone infers from a reason.
#[derive(Debug)]
enum Implied {
    /// The domains of its scope (in scope order) after its propagation.
    Scope(Vec<Domain>),
    /// It fails: the reason implies every removal.
    Everything,
    /// The literals contradict each other: nothing is taken from it.
    Nothing,
}

impl<F: LogFollower> Backjump<F> {
    /// The logs for a search of `model`, empty.
    pub(crate) fn new(model: &Model) -> Self {
        let n = model.num_variables();
        Backjump {
            removals: Vec::new(),
            by_var: vec![Vec::new(); n],
            decided: vec![None; n],
            decision_vars: Vec::new(),
            seen: DomainStack::default(),
            literals: Vec::new(),
            levels: Vec::new(),
            marks: Vec::new(),
            decision_literals: Vec::new(),
            learning: None,
            initial: model.initial_domains().to_vec(),
            scratch: model.initial_domains().to_vec(),
            spare: Mutex::new(model.initial_domains().to_vec()),
            before: Vec::new(),
            failed: None,
            failed_seen: Vec::new(),
            model_id: model.id(),
            conflict: None,
            unexplained: None,
            dway: Vec::new(),
            visited: Vec::new(),
            stamp: 0,
            run_reason: None,
        }
    }

    /// Forgets everything (a new search from the root).
    pub(crate) fn reset(&mut self) {
        self.removals.clear();
        self.by_var.iter_mut().for_each(Vec::clear);
        self.decided.iter_mut().for_each(|d| *d = None);
        self.decision_vars.clear();
        self.seen.clear();
        self.literals.clear();
        self.levels.clear();
        self.marks.clear();
        self.decision_literals.clear();
        if let Some(learning) = &mut self.learning {
            learning.reset();
        }
        self.failed = None;
        self.conflict = None;
        self.unexplained = None;
        self.dway.clear();
        self.visited.clear();
        self.run_reason = None;
    }

    /// The current level: the decisions on the path.
    pub(crate) fn level(&self) -> usize {
        self.marks.len()
    }

    /// A decision opens a new level.
    pub(crate) fn open_level(&mut self) {
        self.marks.push(Mark {
            removals: self.removals.len(),
            seen: self.seen.len(),
            literals: self.literals.len(),
            levels: self.levels.len(),
        });
    }

    /// The decision of the level just opened fixes `var` to `value` (whether or not its
    /// domain still had other values): a literal that holds when `var = value` rests on it
    /// alone.
    pub(crate) fn decide(&mut self, var: u32, value: i32) {
        self.decided_literal(Literal::Eq(
            VarId {
                model: self.model_id,
                index: var,
            },
            value,
        ));
        self.decided[var as usize] = Some((self.marks.len() as u32, value));
        self.decision_vars.push(var);
    }

    /// Forgets the removals of the levels above `level` (their decisions are undone).
    pub(crate) fn undo_to(&mut self, level: usize) {
        if level >= self.marks.len() {
            return;
        }
        let mark = self.marks[level];
        self.marks.truncate(level);
        self.decision_literals.truncate(level);
        if let Some(learning) = &mut self.learning {
            learning.undone_to(mark.removals);
        }
        for removal in self.removals.drain(mark.removals..).rev() {
            let list = &mut self.by_var[removal.var as usize];
            list.pop();
        }
        while let Some(&var) = self.decision_vars.last() {
            match self.decided[var as usize] {
                Some((at, _)) if at as usize > level => {
                    self.decided[var as usize] = None;
                    self.decision_vars.pop();
                }
                _ => break,
            }
        }
        self.seen.truncate(mark.seen);
        self.literals.truncate(mark.literals);
        self.levels.truncate(mark.levels);
        self.failed = None;
        // The offsets of `seen` will be used again by other runs.
        self.run_reason = None;
    }

    /// A cause whose reason is `literals`.
    pub(crate) fn because(&mut self, literals: &[Literal]) -> Cause {
        let from = self.literals.len() as u32;
        self.literals.extend_from_slice(literals);
        Cause::Because {
            from,
            len: literals.len() as u32,
        }
    }

    /// A cause whose reason is the decisions of `levels`.
    pub(crate) fn refuted(&mut self, levels: &LevelSet) -> Cause {
        let from = self.levels.len() as u32;
        self.levels.extend(levels.iter().map(|l| l as u32));
        Cause::Refuted {
            from,
            len: self.levels.len() as u32 - from,
        }
    }

    /// Writes down the values of `var` in `before` and not in `after` as removed by `cause`
    /// at the current level (nothing at the root).
    pub(crate) fn note(&mut self, var: u32, before: &Domain, after: &Domain, cause: Cause) {
        let level = self.marks.len() as u32;
        if level == 0 || before.size() == after.size() {
            return;
        }
        for value in before.iter().filter(|&v| !after.contains(v)) {
            self.by_var[var as usize].push(self.removals.len() as u32);
            self.removals.push(Removal {
                var,
                value,
                level,
                cause,
            });
        }
    }

    /// The conflict set of a failure whose reason is `literals`, with the levels of `extra`:
    /// the decisions the literals rest on, followed back through the causes of the removals
    /// that make them true.
    pub(crate) fn trace(
        &mut self,
        model: &Model,
        literals: &[Literal],
        extra: &LevelSet,
    ) -> LevelSet {
        let mut levels = extra.clone();
        let mut work: Vec<u32> = Vec::new();
        self.begin_trace();
        for &literal in literals {
            self.rests_on(literal, &mut levels, &mut work);
        }
        self.follow(model, &mut levels, &mut work);
        levels
    }

    /// The conflict set of `var`'s domain as it stands: the decisions behind every removal of
    /// one of its values (a wipe-out, or a variable whose values ran out), with `extra`.
    pub(crate) fn trace_var(&mut self, model: &Model, var: u32, extra: &LevelSet) -> LevelSet {
        let mut levels = extra.clone();
        self.begin_trace();
        let mut work: Vec<u32> = self.by_var[var as usize].clone();
        self.follow(model, &mut levels, &mut work);
        levels
    }

    /// The conflict set of the constraint that failed in the last fixpoint, from the domains
    /// its scope had before it ran; `None` if no constraint failed there.
    pub(crate) fn trace_failed(&mut self, model: &Model) -> Option<LevelSet> {
        let reason = self.failed_reason(model)?;
        Some(self.trace(model, &reason, &LevelSet::default()))
    }

    /// The reason of the constraint that failed in the last fixpoint, from the domains its
    /// scope had before it ran; `None` if no constraint failed there.
    pub(crate) fn failed_reason(&mut self, model: &Model) -> Option<Vec<Literal>> {
        let c = self.failed.take()?;
        Some(self.explain(model, c, Inference::Failed, true))
    }

    /// The conflict set of the last failure: the one traced, else the one of the reason
    /// learning kept, else every decision on the path.
    pub(crate) fn take_conflict(&mut self, model: &Model) -> LevelSet {
        if let Some(conflict) = self.conflict.take() {
            return conflict;
        }
        if let Some(reason) = self.learning.as_mut().and_then(|l| l.take_failure()) {
            return self.trace(model, &reason, &LevelSet::default());
        }
        LevelSet::up_to(self.marks.len())
    }

    /// The decision of the level just opened is `literal` (recorded for conflict analysis).
    pub(crate) fn decided_literal(&mut self, literal: Literal) {
        self.decision_literals
            .truncate(self.marks.len().saturating_sub(1));
        self.decision_literals.push(literal);
    }

    pub(crate) fn begin_trace(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.visited.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        self.visited.resize(self.removals.len(), 0);
    }

    /// The level at which `literal` came to hold: its variable's decision if that alone
    /// makes it hold, else the deepest level of the removals it rests on (0 at the root).
    pub(crate) fn level_of(&self, literal: Literal) -> usize {
        let var = literal.var().index();
        if let Some((level, value)) = self.decided[var]
            && satisfied_by(literal, value)
        {
            return level as usize;
        }
        self.by_var[var]
            .iter()
            .rev()
            .map(|&r| self.removals[r as usize])
            .find(|removal| !satisfied_by(literal, removal.value))
            .map_or(0, |removal| removal.level as usize)
    }

    /// Adds to `work` the removals `literal` rests on, or to `levels` the decision that alone
    /// makes it true.
    fn rests_on(&mut self, literal: Literal, levels: &mut LevelSet, work: &mut Vec<u32>) {
        let var = literal.var().index();
        if let Some((level, value)) = self.decided[var]
            && satisfied_by(literal, value)
        {
            levels.insert(level as usize);
            return;
        }
        for &r in &self.by_var[var] {
            let value = self.removals[r as usize].value;
            let needed = match literal {
                Literal::Eq(_, v) => value != v,
                Literal::Ne(_, v) => value == v,
                Literal::Ge(_, v) => value < v,
                Literal::Le(_, v) => value > v,
            };
            if needed {
                work.push(r);
            }
        }
    }

    /// Follows the removals of `work` back to decisions; stops early once every decision of
    /// the path is in `levels` (the set can grow no more).
    fn follow(&mut self, model: &Model, levels: &mut LevelSet, work: &mut Vec<u32>) {
        let depth = self.marks.len();
        // Counting the levels costs a pass over their words: it is done every 64 steps.
        let mut steps = 0usize;
        while let Some(r) = work.pop() {
            if steps.is_multiple_of(64) && levels.len() >= depth {
                work.clear();
                return;
            }
            steps += 1;
            let slot = &mut self.visited[r as usize];
            if *slot == self.stamp {
                continue;
            }
            *slot = self.stamp;
            let removal = self.removals[r as usize];
            match removal.cause {
                Cause::Decision => levels.insert(removal.level as usize),
                Cause::Refuted { from, len } => {
                    for &level in &self.levels[from as usize..(from + len) as usize] {
                        levels.insert(level as usize);
                    }
                }
                Cause::Because { from, len } => {
                    let reason: SmallVec<[Literal; 8]> = self.literals
                        [from as usize..(from + len) as usize]
                        .iter()
                        .copied()
                        .collect();
                    for literal in reason {
                        self.rests_on(literal, levels, work);
                    }
                }
                Cause::Run { constraint, seen } => {
                    let var = VarId {
                        model: model.id(),
                        index: removal.var,
                    };
                    let reason = self.explain_run(model, constraint, seen, var, removal.value);
                    for literal in reason {
                        self.rests_on(literal, levels, work);
                    }
                }
            }
        }
    }

    /// The reason of the removal of `value` from `var` by the run of constraint `c` from the
    /// domains kept at `seen`. A run often removes many values (a bound moved past a range),
    /// and one reason often implies them all: the reason given for the previous removal of
    /// the same run is taken again when the constraint alone, propagated from it, removes
    /// this value too (one run of the constraint for the whole run, where asking each
    /// removal's reason would minimise each).
    pub(crate) fn explain_run(
        &mut self,
        model: &Model,
        c: u32,
        seen: u32,
        var: VarId,
        value: i32,
    ) -> Vec<Literal> {
        if let Some(mut cached) = self
            .run_reason
            .take()
            .filter(|cached| cached.constraint == c && cached.seen == seen)
        {
            if cached.implied.is_none() {
                cached.implied = Some(self.implied_by(model, c, &cached.reason));
            }
            self.run_reason = Some(cached);
            let scope = model.constraint_list()[c as usize].scope();
            if let Some(cached) = self.run_reason.as_ref() {
                let covered = match &cached.implied {
                    Some(Implied::Everything) => true,
                    Some(Implied::Scope(domains)) => scope
                        .iter()
                        .position(|&v| v == var)
                        .is_some_and(|i| !domains[i].contains(value)),
                    Some(Implied::Nothing) | None => false,
                };
                if covered {
                    return cached.reason.clone();
                }
            }
        }
        self.load(model, c, seen as usize);
        let minimized = AtomicBool::new(false);
        let reason = self.explain_flagging(
            model,
            c,
            Inference::Removed { var, value },
            false,
            Some(&minimized),
        );
        // A reason of the constraint's own is cheaper to ask again than to test on the next
        // removal; one found by minimizing is worth testing.
        if minimized.load(Ordering::Relaxed) {
            self.run_reason = Some(RunReason {
                constraint: c,
                seen,
                reason: reason.clone(),
                implied: None,
            });
        }
        reason
    }

    /// What constraint `c` alone infers from `reason` (applied to the initial domains);
    /// `scratch` is given the initial domains back.
    fn implied_by(&mut self, model: &Model, c: u32, reason: &[Literal]) -> Implied {
        let constraint = &model.constraint_list()[c as usize];
        let consistent = reason
            .iter()
            .all(|l| l.apply(&mut self.scratch[l.var().index()]).is_ok());
        let implied = if !consistent {
            Implied::Nothing
        } else {
            match propagate_alone(
                constraint.as_ref(),
                &mut self.scratch,
                PropagationLevel::Full,
            ) {
                Err(_) => Implied::Everything,
                Ok(_) => Implied::Scope(
                    constraint
                        .scope()
                        .iter()
                        .map(|var| self.scratch[var.index()].clone())
                        .collect(),
                ),
            }
        };
        for var in constraint
            .scope()
            .iter()
            .copied()
            .chain(reason.iter().map(|l| l.var()))
        {
            self.scratch[var.index()].clone_from(&self.initial[var.index()]);
        }
        implied
    }

    /// Puts the domains a run of `c` saw (kept at `seen`) into `scratch`.
    pub(crate) fn load(&mut self, model: &Model, c: u32, seen: usize) {
        let scope = model.constraint_list()[c as usize].scope();
        for (i, var) in scope.iter().enumerate() {
            self.scratch[var.index()].clone_from(&self.seen[seen + i]);
        }
    }

    /// The reason constraint `c` gives for `inference` from the domains in `scratch` (or, for
    /// the failed run, those kept in `failed_seen`), its scope's domains if it gives none;
    /// `scratch` is given the initial domains back.
    pub(crate) fn explain(
        &mut self,
        model: &Model,
        c: u32,
        inference: Inference,
        failed: bool,
    ) -> Vec<Literal> {
        self.explain_flagging(model, c, inference, failed, None)
    }

    /// [`explain`](Self::explain), setting `minimized` when the reason was found by
    /// [`minimized_reason`](crate::kernel::minimized_reason).
    fn explain_flagging(
        &mut self,
        model: &Model,
        c: u32,
        inference: Inference,
        failed: bool,
        minimized: Option<&AtomicBool>,
    ) -> Vec<Literal> {
        let constraint = &model.constraint_list()[c as usize];
        let scope = constraint.scope();
        if failed {
            for (i, var) in scope.iter().enumerate() {
                self.scratch[var.index()].clone_from(&self.failed_seen[i]);
            }
        }
        let mut ctx = ExplainContext::new(&self.initial, &self.scratch).with_spare(&self.spare);
        if let Some(flag) = minimized {
            ctx = ctx.flagging_minimized(flag);
        }
        let reason = constraint
            .explain(inference, &ctx)
            .unwrap_or_else(|| scope_reason(constraint.as_ref(), &ctx));
        for var in scope {
            self.scratch[var.index()].clone_from(&self.initial[var.index()]);
        }
        reason
    }

    /// The decisions of the path at `levels`, as (variable, value) of `decisions` (the
    /// path from the root).
    pub(crate) fn decisions_of(
        levels: &LevelSet,
        decisions: impl Iterator<Item = (u32, i32)>,
    ) -> Vec<(u32, i32)> {
        decisions
            .enumerate()
            .filter(|(i, _)| levels.contains(i + 1))
            .map(|(_, d)| d)
            .collect()
    }
}

/// A stack of domains that keeps the allocations of the domains popped off it: a run's scope
/// is copied onto it at every change below the root, and backtracking pops them, so that
/// copies into kept domains replace an allocation and a free per domain.
#[derive(Debug, Default)]
struct DomainStack {
    slots: Vec<Domain>,
    len: usize,
}

impl DomainStack {
    fn len(&self) -> usize {
        self.len
    }

    fn clear(&mut self) {
        self.len = 0;
    }

    fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Pushes copies of `domains`.
    fn extend_from(&mut self, domains: &[Domain]) {
        for domain in domains {
            match self.slots.get_mut(self.len) {
                Some(slot) => slot.clone_from(domain),
                None => self.slots.push(domain.clone()),
            }
            self.len += 1;
        }
    }
}

impl std::ops::Index<usize> for DomainStack {
    type Output = Domain;
    fn index(&self, i: usize) -> &Domain {
        &self.slots[..self.len][i]
    }
}

/// Whether `literal` holds when its variable has the one value `value`.
pub(crate) fn satisfied_by(literal: Literal, value: i32) -> bool {
    match literal {
        Literal::Eq(_, v) => value == v,
        Literal::Ne(_, v) => value != v,
        Literal::Ge(_, v) => value >= v,
        Literal::Le(_, v) => value <= v,
    }
}

/// The [`RunHook`] that writes down the removals of each constraint's run, with the domains
/// its scope had before (kept for a lazy explanation), and remembers a failing run.
pub(crate) struct Recorder<'a, F> {
    pub(crate) backjump: &'a mut Backjump<F>,
    pub(crate) model: &'a Model,
}

impl<F: LogFollower> RunHook for Recorder<'_, F> {
    fn before(&mut self, c: u32, domains: &[Domain]) {
        let scope = self.model.constraint_list()[c as usize].scope();
        // Copied into the buffers of the last run, which keeps their allocations.
        let before = &mut self.backjump.before;
        before.truncate(scope.len());
        for (slot, var) in before.iter_mut().zip(scope) {
            slot.clone_from(&domains[var.index()]);
        }
        let kept = before.len();
        before.extend(scope[kept..].iter().map(|var| domains[var.index()].clone()));
    }

    fn after(&mut self, c: u32, domains: &[Domain], failed: bool) {
        let scope = self.model.constraint_list()[c as usize].scope();
        let bj = &mut *self.backjump;
        if failed {
            std::mem::swap(&mut bj.failed_seen, &mut bj.before);
            bj.failed = Some(c);
            return;
        }
        if bj.level() == 0 {
            return;
        }
        let changed = bj
            .before
            .iter()
            .zip(scope)
            .any(|(before, var)| before.size() != domains[var.index()].size());
        if !changed {
            return;
        }
        let seen = bj.seen.len() as u32;
        bj.seen.extend_from(&bj.before);
        let cause = Cause::Run {
            constraint: c,
            seen,
        };
        let before = std::mem::take(&mut bj.before);
        for (i, (old, var)) in before.iter().zip(scope).enumerate() {
            let now = &domains[var.index()];
            // A variable the scope names twice is written down once (looked for only among
            // the changed: a scope can be thousands of variables long).
            if old.size() == now.size() || scope[..i].contains(var) {
                continue;
            }
            bj.note(var.index, old, now, cause);
        }
        bj.before = before;
    }
}
