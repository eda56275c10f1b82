//! The learned nogoods, propagated by two watched literals each.
//!
//! A nogood is a list of literals that cannot all hold. Two of its literals that do not hold
//! yet are *watched*: while both do not hold, the nogood can neither fail nor propagate, and
//! nothing needs to look at it. When a watched literal comes to hold (a removal on its
//! variable), another literal that does not hold takes its place; if there is none, the
//! other watched literal must be made false (unit propagation), or, if it holds too, the
//! nogood fails. Backtracking makes literals hold less, so the watches stay valid and are not
//! restored.
//!
//! Below the root every domain change is in the backjumping log, so a pass looks at the
//! variables of the removals made since the last pass. At the root nothing is logged: a pass
//! there looks at every nogood and chooses its watches afresh.
//!
//! The database is reduced as it grows, by *literal block distance* (LBD: the number of
//! decision levels among a nogood's literals when it was learned; Audemard and Simon,
//! "Predicting learnt clauses quality in modern SAT solvers", IJCAI 2009): nogoods of LBD 2
//! or less and the nogoods that block solutions already reported are kept for good; once the
//! others number more than a limit (2,000 at first, 300 more after each reduction, as in
//! Glucose), the worse half of them, by LBD and then by age, is forgotten. A nogood's
//! literals were copied where they serve as a reason, so forgetting it changes no reason.

use crate::domain::Domain;
use crate::kernel::explain::Literal;
use crate::search::backjump::Removal;
use crate::search::learning::is_false;

/// The nogoods that may be forgotten, past which the database is reduced the first time.
const FIRST_REDUCTION: usize = 2_000;

/// How much the limit grows after each reduction.
const REDUCTION_STEP: usize = 300;

/// Nogoods of at most this LBD are kept for good ("glue" nogoods).
const KEPT_LBD: u32 = 2;

/// What a pass found a nogood to require.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unit {
    /// Every literal of nogood `id` holds: the node fails.
    Conflict { id: u32 },
    /// Every literal of nogood `id` but `literal` (its position) holds: it must be made false.
    Assert { id: u32, literal: u32 },
}

/// A watched literal, in the list of its variable: the literal is kept beside the nogood's
/// id, so that a pass tells whether it holds without reading the nogood.
#[derive(Debug, Clone, Copy)]
struct Watch {
    id: u32,
    literal: Literal,
}

/// Puts nogood `id` (its `literals`) in the watch lists of its literals at the positions
/// `watched` (once if they are equal).
fn watch(watches: &mut [Vec<Watch>], id: u32, literals: &[Literal], watched: [u32; 2]) {
    let [a, b] = watched;
    for &p in &watched[..if a == b { 1 } else { 2 }] {
        let literal = literals[p as usize];
        watches[literal.var().index()].push(Watch { id, literal });
    }
}

/// The learned nogoods and their watches.
#[derive(Debug, Default)]
pub(crate) struct Nogoods {
    list: Vec<Vec<Literal>>,
    /// The LBD of each nogood; 0 for one kept for good whatever it is.
    lbd: Vec<u32>,
    /// The failed node each nogood was learned at (`None` for one that blocks a solution).
    origin: Vec<Option<u64>>,
    /// The nogoods that may be forgotten, and how many past which the next reduction comes.
    reducible: usize,
    limit: usize,
    /// The positions of the two watched literals of each nogood (equal for a nogood of one).
    watched: Vec<[u32; 2]>,
    /// Per variable: the nogoods with a watched literal on it, each with that literal.
    watches: Vec<Vec<Watch>>,
    /// The removals of the log already looked at.
    cursor: usize,
    /// Scratch: the variables a pass visits, and a stamp per variable.
    vars: Vec<u32>,
    stamps: Vec<u32>,
    stamp: u32,
}

impl Nogoods {
    /// No nogood, for a model of `n` variables.
    pub(crate) fn new(n: usize) -> Self {
        Nogoods {
            watches: vec![Vec::new(); n],
            stamps: vec![0; n],
            limit: FIRST_REDUCTION,
            ..Nogoods::default()
        }
    }

    /// Forgets every nogood.
    pub(crate) fn clear(&mut self) {
        self.list.clear();
        self.lbd.clear();
        self.origin.clear();
        self.reducible = 0;
        self.limit = FIRST_REDUCTION;
        self.watched.clear();
        self.watches.iter_mut().for_each(Vec::clear);
        self.cursor = 0;
    }

    /// The number of nogoods kept.
    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }

    /// The literals of nogood `id`.
    pub(crate) fn literals(&self, id: u32) -> &[Literal] {
        &self.list[id as usize]
    }

    /// The failed node nogood `id` was learned at (`None` for one that blocks a solution).
    pub(crate) fn origin(&self, id: u32) -> Option<u64> {
        self.origin[id as usize]
    }

    /// The log was cut back to `len` removals.
    pub(crate) fn undone_to(&mut self, len: usize) {
        self.cursor = self.cursor.min(len);
    }

    /// Keeps `literals`, of LBD `lbd` (0: to keep for good), watching the first (which does
    /// not hold) and the second (the one of the deepest level among the others); first, if
    /// the database has grown past its limit, forgets the worse half of the nogoods it may
    /// forget. Returns how many it forgot.
    pub(crate) fn add(
        &mut self,
        literals: Vec<Literal>,
        second: usize,
        lbd: u32,
        origin: Option<u64>,
    ) -> usize {
        let forgotten = if self.reducible > self.limit {
            self.reduce()
        } else {
            0
        };
        if lbd > KEPT_LBD {
            self.reducible += 1;
        }
        self.lbd.push(lbd);
        self.origin.push(origin);
        self.push(literals, second);
        forgotten
    }

    /// Forgets the worse half of the nogoods that may be forgotten (the highest LBD, the
    /// oldest among equals) and raises the limit; returns how many it forgot.
    fn reduce(&mut self) -> usize {
        let mut candidates: Vec<(u32, usize)> = (0..self.list.len())
            .filter(|&id| self.lbd[id] > KEPT_LBD)
            .map(|id| (self.lbd[id], id))
            .collect();
        // The highest LBD first; among equals, the oldest.
        candidates.sort_unstable_by_key(|&(lbd, id)| (std::cmp::Reverse(lbd), id));
        let forget = candidates.len() / 2;
        let mut dropped = vec![false; self.list.len()];
        for &(_, id) in &candidates[..forget] {
            dropped[id] = true;
        }
        let mut kept = 0;
        for (id, &gone) in dropped.iter().enumerate() {
            if !gone {
                self.list.swap(kept, id);
                self.lbd.swap(kept, id);
                self.origin.swap(kept, id);
                self.watched.swap(kept, id);
                kept += 1;
            }
        }
        self.list.truncate(kept);
        self.lbd.truncate(kept);
        self.origin.truncate(kept);
        self.watched.truncate(kept);
        // The watches, by the new ids.
        self.watches.iter_mut().for_each(Vec::clear);
        for (id, (literals, &watched)) in self.list.iter().zip(&self.watched).enumerate() {
            watch(&mut self.watches, id as u32, literals, watched);
        }
        self.reducible -= forget;
        self.limit += REDUCTION_STEP;
        forget
    }

    /// Keeps `literals` with their watches; returns the id.
    fn push(&mut self, literals: Vec<Literal>, second: usize) -> u32 {
        let id = self.list.len() as u32;
        let second = if literals.len() > 1 { second.max(1) } else { 0 } as u32;
        watch(&mut self.watches, id, &literals, [0, second]);
        self.watched.push([0, second]);
        self.list.push(literals);
        id
    }

    /// Looks at the nogoods watching a variable of the removals `log[cursor..]` (every
    /// nogood if `root`), and appends to `units` what they require in `domains`.
    pub(crate) fn pass(
        &mut self,
        domains: &[Domain],
        log: &[Removal],
        root: bool,
        units: &mut Vec<Unit>,
    ) {
        if root {
            self.cursor = log.len();
            self.rewatch_all(domains, units);
            return;
        }
        if self.cursor >= log.len() {
            self.cursor = log.len();
            return;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.stamps.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        self.vars.clear();
        for removal in &log[self.cursor..] {
            let slot = &mut self.stamps[removal.var as usize];
            if *slot != self.stamp {
                *slot = self.stamp;
                self.vars.push(removal.var);
            }
        }
        self.cursor = log.len();
        for i in 0..self.vars.len() {
            let var = self.vars[i];
            self.visit(var, domains, units);
        }
    }

    /// The nogoods watching `var`, one of whose watched literals may have come to hold.
    fn visit(&mut self, var: u32, domains: &[Domain], units: &mut Vec<Unit>) {
        let list = std::mem::take(&mut self.watches[var as usize]);
        let domain = &domains[var as usize];
        // The domain's bounds, read once for the whole list.
        let (min, max) = (domain.min(), domain.max());
        let holds_here = |literal: Literal| match literal {
            Literal::Eq(_, v) => min == Some(v) && max == Some(v),
            Literal::Ne(_, v) => !domain.contains(v),
            Literal::Ge(_, v) => min.is_some_and(|min| min >= v),
            Literal::Le(_, v) => max.is_some_and(|max| max <= v),
        };
        let mut kept = Vec::with_capacity(list.len());
        for watch in list {
            if !holds_here(watch.literal) {
                kept.push(watch);
                continue;
            }
            let id = watch.id;
            let literals = &self.list[id as usize];
            let [a, b] = self.watched[id as usize];
            let holds = |p: u32| {
                literals[p as usize].holds_in(&domains[literals[p as usize].var().index()])
            };
            // The watched position of this literal (either, if both are on it).
            let (mine, other) = if literals[a as usize] == watch.literal {
                (a, b)
            } else {
                (b, a)
            };
            if a == b {
                // A nogood of one literal that holds.
                kept.push(watch);
                units.push(Unit::Conflict { id });
                continue;
            }
            let replacement = (0..literals.len() as u32).find(|&p| p != a && p != b && !holds(p));
            if let Some(p) = replacement {
                let literal = literals[p as usize];
                let slot = if mine == a { 0 } else { 1 };
                self.watched[id as usize][slot] = p;
                let moved = Watch { id, literal };
                if literal.var().index() == var as usize {
                    kept.push(moved);
                } else {
                    self.watches[literal.var().index()].push(moved);
                }
                continue;
            }
            kept.push(watch);
            let last = literals[other as usize];
            if holds(other) {
                units.push(Unit::Conflict { id });
            } else if !is_false(last, &domains[last.var().index()]) {
                units.push(Unit::Assert { id, literal: other });
            }
        }
        // Nogoods moved onto `var` itself while visiting were pushed to the emptied list.
        let moved = std::mem::take(&mut self.watches[var as usize]);
        kept.extend(moved);
        self.watches[var as usize] = kept;
    }

    /// At the root: every nogood's watches chosen afresh among its literals that do not
    /// hold, and what each requires.
    fn rewatch_all(&mut self, domains: &[Domain], units: &mut Vec<Unit>) {
        self.watches.iter_mut().for_each(Vec::clear);
        for (id, literals) in self.list.iter().enumerate() {
            let id = id as u32;
            let holds = |p: usize| literals[p].holds_in(&domains[literals[p].var().index()]);
            let mut open = (0..literals.len()).filter(|&p| !holds(p));
            let first = open.next();
            let second = open.next();
            let watched = match (first, second) {
                (Some(a), Some(b)) => [a, b],
                (Some(a), None) => {
                    if !is_false(literals[a], &domains[literals[a].var().index()]) {
                        units.push(Unit::Assert {
                            id,
                            literal: a as u32,
                        });
                    }
                    [a, if a == 0 { literals.len().min(2) - 1 } else { 0 }]
                }
                (None, _) => {
                    units.push(Unit::Conflict { id });
                    [0, literals.len().min(2) - 1]
                }
            };
            let watched = [watched[0] as u32, watched[1] as u32];
            watch(&mut self.watches, id, literals, watched);
            self.watched[id as usize] = watched;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Model;

    #[test]
    fn reduction_forgets_the_worse_half_and_keeps_glue_nogoods_and_watches() {
        let mut m = Model::new();
        let x = m.new_vars(10, 1..=3).unwrap();
        let mut nogoods = Nogoods::new(10);
        let lbd_of = |i: usize| {
            if i.is_multiple_of(4) {
                2
            } else {
                3 + (i % 7) as u32
            }
        };
        let mut forgotten = 0;
        let total = 2 * FIRST_REDUCTION;
        for i in 0..total {
            let literals = vec![Literal::Eq(x[i % 10], 1), Literal::Ne(x[(i + 3) % 10], 2)];
            forgotten += nogoods.add(literals, 1, lbd_of(i), Some(i as u64));
        }
        assert!(forgotten > 0);
        assert_eq!(nogoods.len(), total - forgotten);
        // Every glue nogood is kept; the worst (LBD 9) went first, the best (LBD 3) stayed.
        let glue = (0..total).filter(|&i| lbd_of(i) <= KEPT_LBD).count();
        let count = |lbd: u32| nogoods.lbd.iter().filter(|&&l| l == lbd).count();
        assert_eq!(nogoods.lbd.iter().filter(|&&l| l <= KEPT_LBD).count(), glue);
        let added = |lbd: u32| (0..total).filter(|&i| lbd_of(i) == lbd).count();
        assert_eq!(count(3), added(3));
        assert!(count(9) < added(9) / 2);
        // The watches name exactly the nogoods watching each variable.
        for (var, list) in nogoods.watches.iter().enumerate() {
            for watch in list {
                let [a, b] = nogoods.watched[watch.id as usize];
                let literals = nogoods.literals(watch.id);
                assert_eq!(watch.literal.var().index(), var);
                assert!(
                    literals[a as usize] == watch.literal || literals[b as usize] == watch.literal
                );
            }
        }
        let watching: usize = nogoods.watches.iter().map(Vec::len).sum();
        assert_eq!(watching, 2 * nogoods.len());
    }
}
