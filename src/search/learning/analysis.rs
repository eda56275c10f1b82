//! First-UIP conflict analysis over the removal log of [`Backjump`].
//!
//! A failure's reason is a list of literals that cannot all hold. Each literal rests on
//! removals (`x ≥ 3` on the removals of the values below 3), or on a decision alone (`x = 2`
//! after the decision `x = 2`). The removals of the current level are *pending*; the others
//! go into the nogood as they are (`x ≠ v`), and a decision of an earlier level as its
//! literal. Walking the log back from its end, each pending removal is replaced by the
//! literals of its cause (a constraint's explanation, asked now; the literals of a
//! forward-checking or bound cause or of a nogood; the decisions of a refutation), until one
//! pending item is left: the first unique implication point, a removal or the level's
//! decision.
//!
//! A literal that rests only on removals of earlier levels goes into the nogood as it is
//! (`x ≥ 3`, not `x ≠ 1` and `x ≠ 2`): it is implied by them, so the nogood is as valid, and
//! shorter. Before the nogood is kept, the literals on one variable are merged: the strongest
//! bound of each side, the `≠` literals inside both bounds, or an `=` literal alone.

use rustc_hash::{FxHashMap, FxHashSet};
use smallvec::SmallVec;

use crate::domain::Domain;
use crate::ids::VarId;
use crate::kernel::explain::Literal;
use crate::model::Model;
use crate::search::backjump::{Backjump, Cause, LevelSet, satisfied_by};
use crate::search::learning::Learning;

/// A nogood from conflict analysis: `literals[0]` is the one of the failing level (the
/// asserting literal, made false once the search is back at `level`), the others hold at
/// `level`, the deepest of their levels.
#[derive(Debug, Clone)]
pub(crate) struct Learned {
    pub(crate) literals: Vec<Literal>,
    pub(crate) level: usize,
    /// The position in `literals` of one of level `level` (1 if there is none: the nogood
    /// has a single literal, or its others are root facts).
    pub(crate) second: usize,
    /// Its literal block distance: the number of decision levels among its literals (0 for
    /// a nogood to keep whatever it is).
    pub(crate) lbd: u32,
    /// The failed node it was learned at (`None` for one that blocks a solution).
    pub(crate) origin: Option<u64>,
}

/// The state of one analysis.
struct Analysis {
    depth: usize,
    /// Pending items of the current level (the decision counted once).
    pending: usize,
    decision_pending: bool,
    /// Earlier levels whose decision is in the nogood.
    levels: LevelSet,
    /// Removals of earlier levels in the nogood (indices into the log).
    atoms: Vec<u32>,
    /// Literals that rest on removals of earlier levels only, with the deepest level among
    /// those removals, kept as they are.
    kept: Vec<(Literal, usize)>,
    /// Per variable with many removals, its removals by value (indices into the log).
    by_value: FxHashMap<u32, FxHashMap<i32, u32>>,
    /// The literals expanded so far but the `≠` ones (told by their removal's mark). The log
    /// is walked back, so a literal met again rests on removals older than those of its first
    /// meeting, which that meeting took in already.
    expanded: FxHashSet<Literal>,
}

/// A variable with more removals than this has them indexed by value for its `≠` literals.
const INDEXED_REMOVALS: usize = 16;

/// How often (in removals replaced by their causes) an analysis asks whether to stop.
const STOP_CHECK: usize = 64;

/// Analyses the failure whose reason is `reason` at the current level of `bj`; `None` if the
/// reason rests on nothing of the current level (the caller falls back to backjumping), or
/// if `stop` (asked now and then) said to stop: a long analysis does not overrun a limit.
pub(crate) fn analyze(
    bj: &mut Backjump<Learning>,
    model: &Model,
    domains: &[Domain],
    reason: &[Literal],
    stop: &dyn Fn() -> bool,
) -> Option<Learned> {
    let depth = bj.level();
    if depth == 0 {
        return None;
    }
    let start = bj.marks[depth - 1].removals;
    bj.begin_trace();
    let mut state = Analysis {
        depth,
        pending: 0,
        decision_pending: false,
        levels: LevelSet::default(),
        atoms: Vec::new(),
        kept: Vec::new(),
        by_value: FxHashMap::default(),
        expanded: FxHashSet::default(),
    };
    let end = bj.removals.len();
    for &literal in reason {
        expand(bj, &mut state, literal, end);
    }
    let mut at = end;
    let mut steps = 0;
    let uip = loop {
        steps += 1;
        if steps % STOP_CHECK == 0 && stop() {
            return None;
        }
        if state.pending == 0 {
            return None;
        }
        if state.pending == 1 && state.decision_pending {
            break bj.decision_literals.get(depth - 1).copied()?;
        }
        // The latest pending removal of the current level.
        let r = loop {
            if at <= start {
                return None;
            }
            at -= 1;
            let removal = bj.removals[at];
            if bj.visited[at] == bj.stamp
                && removal.level as usize == depth
                && removal.cause != Cause::Decision
            {
                break at;
            }
        };
        let removal = bj.removals[r];
        let var = VarId {
            model: model.id(),
            index: removal.var,
        };
        if state.pending == 1 {
            break Literal::Ne(var, removal.value);
        }
        state.pending -= 1;
        match removal.cause {
            Cause::Decision => return None,
            Cause::Because { from, len } => {
                let literals: SmallVec<[Literal; 8]> = bj.literals
                    [from as usize..(from + len) as usize]
                    .iter()
                    .copied()
                    .collect();
                for literal in literals {
                    expand(bj, &mut state, literal, r);
                }
            }
            Cause::Refuted { from, len } => {
                let levels: SmallVec<[u32; 8]> = bj.levels[from as usize..(from + len) as usize]
                    .iter()
                    .copied()
                    .collect();
                for level in levels {
                    decision_of(&mut state, level as usize);
                }
            }
            Cause::Run { constraint, seen } => {
                let literals = bj.explain_run(model, constraint, seen, var, removal.value);
                for literal in literals {
                    expand(bj, &mut state, literal, r);
                }
            }
        }
    };
    let mut rest = std::mem::take(&mut state.kept);
    for l in state.levels.iter() {
        let literal = bj.decision_literals.get(l - 1).copied()?;
        rest.push((literal, l));
    }
    for &r in &state.atoms {
        let removal = bj.removals[r as usize];
        let var = VarId {
            model: model.id(),
            index: removal.var,
        };
        rest.push((Literal::Ne(var, removal.value), removal.level as usize));
    }
    // The root domain of a variable: its values still there, and those removed below it.
    let root_values = |var: VarId| RootValues {
        current: &domains[var.index()],
        removed: bj.by_var[var.index()]
            .iter()
            .map(|&r| bj.removals[r as usize].value)
            .collect(),
    };
    merge_per_variable(&mut rest, root_values);
    let mut levels: SmallVec<[usize; 16]> = rest.iter().map(|&(_, at)| at).collect();
    levels.push(depth);
    levels.sort_unstable();
    levels.dedup();
    let mut literals = vec![uip];
    let (mut level, mut second) = (0, 1);
    for (literal, at) in rest {
        if at > level {
            level = at;
            second = literals.len();
        }
        literals.push(literal);
    }
    Some(Learned {
        literals,
        level,
        second,
        lbd: levels.len() as u32,
        origin: None,
    })
}

/// The values of a variable's domain at the root: those still in its domain, and those
/// removed below the root.
struct RootValues<'a> {
    current: &'a Domain,
    removed: Vec<i32>,
}

impl RootValues<'_> {
    /// The smallest and the largest root value that `cut` does not take away.
    fn kept_bounds(&self, cut: impl Fn(i32) -> bool) -> (Option<i32>, Option<i32>) {
        let kept = self.removed.iter().copied().filter(|&v| !cut(v));
        let (mut low, mut high) = (self.current.min(), self.current.max());
        for v in kept {
            low = Some(low.map_or(v, |l| l.min(v)));
            high = Some(high.map_or(v, |h| h.max(v)));
        }
        (low, high)
    }
}

/// Merges the literals (each with its level) that name one variable, all holding together:
/// an `=` literal alone, else the strongest `≥` and `≤` and the `≠` literals between them;
/// a literal stated twice once. `≠` literals that remove every value of the root domain
/// below (above) some value become the bound they amount to (`x ≠ 1, x ≠ 2` is `x ≥ 3` when
/// the root left `x` in `1..=9`); `root` gives a variable's root domain.
fn merge_per_variable<'a>(
    literals: &mut Vec<(Literal, usize)>,
    root: impl Fn(VarId) -> RootValues<'a>,
) {
    // Grouped by variable, a literal stated twice next to itself.
    literals.sort_unstable_by_key(|&(literal, _)| (literal.var().index(), literal));
    literals.dedup_by_key(|(literal, _)| *literal);
    let mut merged = Vec::with_capacity(literals.len());
    let mut start = 0;
    while start < literals.len() {
        let var = literals[start].0.var();
        let end = start
            + literals[start..]
                .iter()
                .position(|(l, _)| l.var() != var)
                .unwrap_or(literals.len() - start);
        let group = &literals[start..end];
        start = end;
        if let Some(&eq) = group.iter().find(|(l, _)| matches!(l, Literal::Eq(..))) {
            merged.push(eq);
            continue;
        }
        let ne: SmallVec<[(i32, usize); 16]> = group
            .iter()
            .filter_map(|&(l, at)| match l {
                Literal::Ne(_, v) => Some((v, at)),
                _ => None,
            })
            .collect();
        let (mut from_below, mut from_above) = (None, None);
        if !ne.is_empty() {
            // `ne` is sorted by value (the literals are). Every root value below the
            // smallest one kept is cut by `ne`: they amount to a bound, if there are any.
            let cut = |v: i32| ne.binary_search_by_key(&v, |&(value, _)| value).is_ok();
            let (low, high) = root(var).kept_bounds(cut);
            let deepest =
                |values: &mut dyn Iterator<Item = &(i32, usize)>| values.map(|&(_, at)| at).max();
            from_below = low.and_then(|low| {
                deepest(&mut ne.iter().filter(|&&(v, _)| v < low))
                    .map(|at| (Literal::Ge(var, low), at))
            });
            from_above = high.and_then(|high| {
                deepest(&mut ne.iter().filter(|&&(v, _)| v > high))
                    .map(|at| (Literal::Le(var, high), at))
            });
        }
        let low = group
            .iter()
            .copied()
            .chain(from_below)
            .filter(|(l, _)| matches!(l, Literal::Ge(..)))
            .max_by_key(|(l, at)| (l.value(), std::cmp::Reverse(*at)));
        let high = group
            .iter()
            .copied()
            .chain(from_above)
            .filter(|(l, _)| matches!(l, Literal::Le(..)))
            .min_by_key(|(l, at)| (l.value(), *at));
        let inside = |v: i32| {
            low.is_none_or(|(l, _)| v >= l.value()) && high.is_none_or(|(h, _)| v <= h.value())
        };
        merged.extend(low);
        merged.extend(high);
        merged.extend(
            group
                .iter()
                .filter(|(l, _)| matches!(l, Literal::Ne(_, v) if inside(*v))),
        );
    }
    *literals = merged;
}

/// Adds to the analysis what `literal` rests on among the removals before `before`.
fn expand(bj: &mut Backjump<Learning>, state: &mut Analysis, literal: Literal, before: usize) {
    // A `≠` literal rests on one removal, whose mark tells whether it was met already: only
    // the other literals need the set (a reason over a wide domain lists thousands of `≠`).
    if !matches!(literal, Literal::Ne(..)) && !state.expanded.insert(literal) {
        return;
    }
    let var = literal.var().index();
    if let Some((level, value)) = bj.decided[var]
        && satisfied_by(literal, value)
        && bj.marks[level as usize - 1].removals <= before
    {
        decision_of(state, level as usize);
        return;
    }
    if let Literal::Ne(_, value) = literal {
        let Some(r) = removal_of(bj, state, var, value, before) else {
            return; // removed at the root: a fact
        };
        if bj.visited[r] == bj.stamp {
            return;
        }
        bj.visited[r] = bj.stamp;
        let removal = bj.removals[r];
        if (removal.level as usize) < state.depth {
            state.kept.push((literal, removal.level as usize));
        } else if removal.cause == Cause::Decision {
            decision_of(state, removal.level as usize);
        } else {
            state.pending += 1;
        }
        return;
    }
    let needed = |value: i32| match literal {
        Literal::Eq(_, v) => value != v,
        Literal::Ne(_, v) => value == v,
        Literal::Ge(_, v) => value < v,
        Literal::Le(_, v) => value > v,
    };
    // The removals of `var` are in log order, so levels only grow along them: the latest
    // removal the literal needs has the deepest level.
    let list = &bj.by_var[var];
    let end = list.partition_point(|&r| (r as usize) < before);
    let deepest = list[..end]
        .iter()
        .rev()
        .map(|&r| bj.removals[r as usize])
        .find(|removal| needed(removal.value))
        .map(|removal| removal.level as usize);
    match deepest {
        // True at the root: a fact.
        None => return,
        Some(level) if level < state.depth => {
            state.kept.push((literal, level));
            return;
        }
        Some(_) => {}
    }
    for i in 0..end {
        let r = bj.by_var[var][i] as usize;
        let removal = bj.removals[r];
        if !needed(removal.value) || bj.visited[r] == bj.stamp {
            continue;
        }
        bj.visited[r] = bj.stamp;
        if removal.cause == Cause::Decision {
            decision_of(state, removal.level as usize);
        } else if removal.level as usize == state.depth {
            state.pending += 1;
        } else {
            state.atoms.push(r as u32);
        }
    }
}

/// The removal of `value` from variable `var` among the removals before `before` (an index
/// into the log), if it was removed below the root.
fn removal_of(
    bj: &Backjump<Learning>,
    state: &mut Analysis,
    var: usize,
    value: i32,
    before: usize,
) -> Option<usize> {
    let list = &bj.by_var[var];
    let r = if list.len() > INDEXED_REMOVALS {
        // One removal to find among many: through an index of the variable's removals by
        // value, built once per analysis.
        let index = state.by_value.entry(var as u32).or_insert_with(|| {
            list.iter()
                .map(|&r| (bj.removals[r as usize].value, r))
                .collect()
        });
        *index.get(&value)?
    } else {
        *list
            .iter()
            .find(|&&r| bj.removals[r as usize].value == value)?
    };
    ((r as usize) < before).then_some(r as usize)
}

/// The decision of `level` is part of the reason.
fn decision_of(state: &mut Analysis, level: usize) {
    if level == state.depth {
        if !state.decision_pending {
            state.decision_pending = true;
            state.pending += 1;
        }
    } else if level > 0 {
        state.levels.insert(level);
    }
}
