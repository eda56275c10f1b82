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

use smallvec::SmallVec;

use crate::ids::VarId;
use crate::kernel::explain::{Inference, Literal};
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
}

/// Analyses the failure whose reason is `reason` at the current level of `bj`; `None` if the
/// reason rests on nothing of the current level (the caller falls back to backjumping).
pub(crate) fn analyze(
    bj: &mut Backjump<Learning>,
    model: &Model,
    reason: &[Literal],
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
    };
    let end = bj.removals.len();
    for &literal in reason {
        expand(bj, &mut state, literal, end);
    }
    let mut at = end;
    let uip = loop {
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
                bj.load(model, constraint, seen as usize);
                let inference = Inference::Removed {
                    var,
                    value: removal.value,
                };
                let literals = bj.explain(model, constraint, inference, false);
                for literal in literals {
                    expand(bj, &mut state, literal, r);
                }
            }
        }
    };
    let mut literals = vec![uip];
    let (mut level, mut second) = (0, 1);
    let mut keep = |literals: &mut Vec<Literal>, literal: Literal, at: usize| {
        if at > level {
            level = at;
            second = literals.len();
        }
        literals.push(literal);
    };
    for l in state.levels.iter() {
        let literal = bj.decision_literals.get(l - 1).copied()?;
        keep(&mut literals, literal, l);
    }
    for &r in &state.atoms {
        let removal = bj.removals[r as usize];
        let var = VarId {
            model: model.id(),
            index: removal.var,
        };
        keep(
            &mut literals,
            Literal::Ne(var, removal.value),
            removal.level as usize,
        );
    }
    Some(Learned {
        literals,
        level,
        second,
    })
}

/// Adds to the analysis what `literal` rests on among the removals before `before`.
fn expand(bj: &mut Backjump<Learning>, state: &mut Analysis, literal: Literal, before: usize) {
    let var = literal.var().index();
    if let Some((level, value)) = bj.decided[var]
        && satisfied_by(literal, value)
        && bj.marks[level as usize - 1].removals <= before
    {
        decision_of(state, level as usize);
        return;
    }
    for i in 0..bj.by_var[var].len() {
        let r = bj.by_var[var][i] as usize;
        if r >= before {
            break;
        }
        let removal = bj.removals[r];
        let needed = match literal {
            Literal::Eq(_, v) => removal.value != v,
            Literal::Ne(_, v) => removal.value == v,
            Literal::Ge(_, v) => removal.value < v,
            Literal::Le(_, v) => removal.value > v,
        };
        if !needed || bj.visited[r] == bj.stamp {
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
