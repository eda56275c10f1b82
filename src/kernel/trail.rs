//! The trail: the undo log of domain changes and of the propagators' reversible state, grouped
//! by level.
//!
//! Invariants and costs: each entry is one word as it was before a change (16 bytes): a domain
//! word, or one of the reversible words the trail keeps for the propagators
//! ([`Reversible`](crate::Reversible)). Both share one log, so a single backward pass restores
//! domains and propagator state together. Opening a level is a push; undoing to a level pops
//! exactly the entries recorded since, in reverse order, so every word is restored bit for bit.
//! Changes made at level 0 (the root, before any decision) are permanent for the search and are
//! not recorded. The vectors keep their capacity, so a search allocates only while it reaches
//! new depths.
//!
//! A level can see many changes: every refutation made at a level stays on it, and a search
//! that refutes `x = min` of a variable of 2³² values may do so billions of times at one level.
//! Its length is bounded by the state it undoes, not by those changes: a word that an undo
//! overwrites whole and that a domain marks as such ([`Record::record_once`], the bounds of a
//! wide domain) is recorded once per level, and a domain may rewrite the last record it marked
//! as amendable ([`Record::amend`], the hole of a wide domain that a refutation widens).

use crate::domain::{Domain, Record};

#[derive(Debug, Clone, Copy)]
struct Entry {
    var: u32,
    word: u32,
    old: u64,
}

/// In an entry, the `var` of a reversible word (its index is then in `word`).
const STATE: u32 = u32::MAX;

/// Flags on the `word` of an entry: made by [`Trail::record_once`] or
/// [`Trail::record_amendable`] (undoing it restores where the variable's previous such record
/// is); the rest of `word` is the domain's word.
const ONCE: u32 = 1 << 31;
const AMENDABLE: u32 = 1 << 30;
const WORD: u32 = AMENDABLE - 1;

/// No record: the position of a variable that has none on the trail.
const NOWHERE: usize = usize::MAX;

/// The undo log of one search, and the reversible words of its propagators.
#[derive(Debug, Default)]
pub(crate) struct Trail {
    entries: Vec<Entry>,
    /// `marks[l]` is the length of `entries` when level `l + 1` was opened.
    marks: Vec<usize>,
    /// The propagators' reversible words, and what each was created with.
    words: Vec<u64>,
    initial_words: Vec<u64>,
    /// Per variable: where in `entries` its last [`record_once`](Self::record_once) and its
    /// last [`record_amendable`](Self::record_amendable) are ([`NOWHERE`] if it has none);
    /// grown on demand.
    once_at: Vec<usize>,
    amendable_at: Vec<usize>,
    /// For each flagged entry, in order: the position its variable's previous record of the
    /// same kind had, put back when the entry is undone.
    previous: Vec<usize>,
    /// While `noting`: the variables changed with no new entry (a record kept once per level,
    /// or one amended), for those that follow the changes through the entries (the engine's
    /// index of domain sizes). Emptied by [`take_quiet`](Self::take_quiet).
    noting: bool,
    quiet: Vec<u32>,
    /// Domain words changed (at every level, the root included) since the last
    /// [`take_changes`](Self::take_changes): the statistics' domain changes.
    changes: u64,
}

impl Trail {
    pub(crate) fn with_capacity(entries: usize) -> Self {
        Trail {
            entries: Vec::with_capacity(entries),
            ..Trail::default()
        }
    }

    /// Forgets every level and entry, keeping the capacity, and gives every reversible word its
    /// initial value back (a new search).
    pub(crate) fn clear(&mut self) {
        self.entries.clear();
        self.marks.clear();
        self.previous.clear();
        self.quiet.clear();
        self.once_at.fill(NOWHERE);
        self.amendable_at.fill(NOWHERE);
        self.words.copy_from_slice(&self.initial_words);
    }

    /// A new reversible word; returns its index.
    pub(crate) fn new_word(&mut self, initial: u64) -> u32 {
        self.words.push(initial);
        self.initial_words.push(initial);
        (self.words.len() - 1) as u32
    }

    /// The current value of reversible word `index`.
    #[inline]
    pub(crate) fn word(&self, index: u32) -> u64 {
        self.words[index as usize]
    }

    /// Sets reversible word `index`, recording its old value if it changes.
    #[inline]
    pub(crate) fn set_word(&mut self, index: u32, value: u64) {
        let slot = &mut self.words[index as usize];
        let old = *slot;
        if old != value {
            *slot = value;
            if !self.marks.is_empty() {
                self.entries.push(Entry {
                    var: STATE,
                    word: index,
                    old,
                });
            }
        }
    }

    /// The current level: the number of levels opened and not undone.
    pub(crate) fn level(&self) -> usize {
        self.marks.len()
    }

    /// The number of entries: a position in the log that stays valid as long as the search
    /// does not undo below it.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The variables of the domain entries from position `from` on (a variable once per entry).
    #[inline]
    pub(crate) fn vars_since(&self, from: usize) -> impl Iterator<Item = u32> + '_ {
        self.entries[from.min(self.entries.len())..]
            .iter()
            .filter(|entry| entry.var != STATE)
            .map(|entry| entry.var)
    }

    /// The variables of the domain entries that `undo_to(level)` would undo.
    #[inline]
    pub(crate) fn vars_above(&self, level: usize) -> impl Iterator<Item = u32> + '_ {
        let from = self.marks.get(level).copied().unwrap_or(self.entries.len());
        self.vars_since(from)
    }

    /// From now on, notes the variables changed with no new entry, for
    /// [`take_quiet`](Self::take_quiet).
    pub(crate) fn note_quiet_changes(&mut self) {
        self.noting = true;
    }

    /// The domain words changed since the last call, and the count started again.
    #[inline]
    pub(crate) fn take_changes(&mut self) -> u64 {
        std::mem::take(&mut self.changes)
    }

    /// The variables changed with no new entry since the last call (while noting).
    pub(crate) fn take_quiet(&mut self) -> std::vec::Drain<'_, u32> {
        self.quiet.drain(..)
    }

    /// Opens a new level; changes from now on are undone by `undo_to(level() - 1)`.
    #[inline]
    pub(crate) fn push_level(&mut self) {
        self.marks.push(self.entries.len());
    }

    /// Records that word `word` of variable `var` held `old` before a change.
    #[inline]
    pub(crate) fn record(&mut self, var: u32, word: u32, old: u64) {
        self.changes += 1;
        if !self.marks.is_empty() {
            self.entries.push(Entry { var, word, old });
        }
    }

    /// Records `(var, word, old)` unless the current level already holds a record of that
    /// word made here (whose undo overwrites the word whole, so it alone restores it).
    #[inline]
    pub(crate) fn record_once(&mut self, var: u32, word: u32, old: u64) {
        self.changes += 1;
        let Some(&mark) = self.marks.last() else {
            return;
        };
        let at = self.once_at.get(var as usize).copied().unwrap_or(NOWHERE);
        if at != NOWHERE && at >= mark {
            debug_assert_eq!(self.entries[at].word, word | ONCE, "one word per variable");
            if self.noting {
                self.quiet.push(var);
            }
            return;
        }
        self.push_flagged(var, word | ONCE, old);
    }

    /// Records `(var, word, old)` as the last amendable record of `var`.
    #[inline]
    pub(crate) fn record_amendable(&mut self, var: u32, word: u32, old: u64) {
        self.changes += 1;
        if !self.marks.is_empty() {
            self.push_flagged(var, word | AMENDABLE, old);
        }
    }

    /// Pushes a flagged entry, and notes it as its variable's last of its kind.
    fn push_flagged(&mut self, var: u32, word: u32, old: u64) {
        let slots = if word & ONCE != 0 {
            &mut self.once_at
        } else {
            &mut self.amendable_at
        };
        let slot = var as usize;
        if slot >= slots.len() {
            slots.resize(slot + 1, NOWHERE);
        }
        self.previous.push(slots[slot]);
        slots[slot] = self.entries.len();
        self.entries.push(Entry { var, word, old });
    }

    /// Rewrites the last amendable record of `var` to hold `new`, if it is in the current
    /// level and holds `(word, old)`; returns whether it did.
    #[inline]
    pub(crate) fn amend(&mut self, var: u32, word: u32, old: u64, new: u64) -> bool {
        let (Some(&mark), Some(&at)) = (self.marks.last(), self.amendable_at.get(var as usize))
        else {
            return false;
        };
        if at == NOWHERE || at < mark {
            return false;
        }
        let entry = &mut self.entries[at];
        if entry.word == word | AMENDABLE && entry.old == old {
            entry.old = new;
            self.changes += 1;
            if self.noting {
                self.quiet.push(var);
            }
            true
        } else {
            false
        }
    }

    /// A recorder for the changes of one variable.
    #[inline]
    pub(crate) fn recorder(&mut self, var: u32) -> TrailRecorder<'_> {
        TrailRecorder { trail: self, var }
    }

    /// Undoes every change made since level `level` was current, and closes the levels above it.
    #[inline]
    pub(crate) fn undo_to(&mut self, level: usize, domains: &mut [Domain]) {
        if level >= self.marks.len() {
            return;
        }
        let mark = self.marks[level];
        self.marks.truncate(level);
        if self.previous.is_empty() {
            // No flagged entry (no wide domain changed): the plain loop.
            for entry in self.entries.drain(mark..).rev() {
                if entry.var == STATE {
                    self.words[entry.word as usize] = entry.old;
                } else {
                    domains[entry.var as usize].restore_word(entry.word, entry.old);
                }
            }
            return;
        }
        for entry in self.entries.drain(mark..).rev() {
            if entry.var == STATE {
                self.words[entry.word as usize] = entry.old;
                continue;
            }
            if entry.word & !WORD != 0 {
                let slots = if entry.word & ONCE != 0 {
                    &mut self.once_at
                } else {
                    &mut self.amendable_at
                };
                slots[entry.var as usize] = self.previous.pop().unwrap_or(NOWHERE);
            }
            domains[entry.var as usize].restore_word(entry.word & WORD, entry.old);
        }
    }
}

/// Records the changes of one variable on the trail.
#[derive(Debug)]
pub(crate) struct TrailRecorder<'t> {
    trail: &'t mut Trail,
    var: u32,
}

impl Record for TrailRecorder<'_> {
    #[inline]
    fn record(&mut self, word: u32, old: u64) {
        self.trail.record(self.var, word, old);
    }

    #[inline]
    fn record_once(&mut self, word: u32, old: u64) {
        self.trail.record_once(self.var, word, old);
    }

    #[inline]
    fn record_amendable(&mut self, word: u32, old: u64) {
        self.trail.record_amendable(self.var, word, old);
    }

    #[inline]
    fn amend(&mut self, word: u32, old: u64, new: u64) -> bool {
        self.trail.amend(self.var, word, old, new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn remove(domains: &mut [Domain], trail: &mut Trail, var: usize, value: i32) -> bool {
        domains[var].remove(value, &mut trail.recorder(var as u32))
    }

    #[test]
    fn undo_restores_the_domain_exactly() {
        let mut domains = vec![
            Domain::range(1, 9).unwrap(),
            Domain::range(-100, 100).unwrap(),
        ];
        let original = domains.clone();
        let mut trail = Trail::default();
        trail.push_level();
        assert!(remove(&mut domains, &mut trail, 0, 3));
        assert!(remove(&mut domains, &mut trail, 1, -100));
        trail.push_level();
        assert!(remove(&mut domains, &mut trail, 0, 4));
        assert!(remove(&mut domains, &mut trail, 1, 100));
        let at_level_one = {
            let mut d = original.clone();
            d[0].remove(3, &mut |_, _| {});
            d[1].remove(-100, &mut |_, _| {});
            d
        };
        trail.undo_to(1, &mut domains);
        assert_eq!(domains, at_level_one);
        assert_eq!(trail.level(), 1);
        trail.undo_to(0, &mut domains);
        assert_eq!(domains, original);
        assert_eq!(trail.level(), 0);
    }

    #[test]
    fn root_changes_are_permanent() {
        let mut domains = vec![Domain::range(1, 4).unwrap()];
        let mut trail = Trail::default();
        assert!(remove(&mut domains, &mut trail, 0, 1));
        trail.push_level();
        assert!(remove(&mut domains, &mut trail, 0, 2));
        trail.undo_to(0, &mut domains);
        assert_eq!(domains[0].iter().collect::<Vec<_>>(), [2, 3, 4]);
    }

    #[test]
    fn undo_restores_reversible_words_with_the_domains() {
        let mut domains = vec![Domain::range(1, 9).unwrap()];
        let mut trail = Trail::default();
        let w = trail.new_word(5);
        trail.set_word(w, 6); // at the root: permanent
        trail.push_level();
        trail.set_word(w, 7);
        assert!(remove(&mut domains, &mut trail, 0, 3));
        trail.push_level();
        trail.set_word(w, 8);
        trail.set_word(w, 9);
        trail.undo_to(1, &mut domains);
        assert_eq!(trail.word(w), 7);
        trail.undo_to(0, &mut domains);
        assert_eq!(trail.word(w), 6);
        assert!(domains[0].contains(3));
        trail.clear();
        assert_eq!(trail.word(w), 5);
    }

    #[test]
    fn refuting_the_smallest_value_of_a_wide_domain_again_and_again_keeps_one_record() {
        let mut domains = vec![Domain::range(i32::MIN, i32::MAX).unwrap()];
        let original = domains.clone();
        let mut trail = Trail::default();
        trail.push_level();
        for _ in 0..1000 {
            // A decision `x = min` one level down, undone, then `x ≠ min` at this level.
            let min = domains[0].min().unwrap();
            trail.push_level();
            assert!(domains[0].fix_to(min, &mut trail.recorder(0)));
            trail.undo_to(1, &mut domains);
            assert!(remove(&mut domains, &mut trail, 0, min));
        }
        assert_eq!(domains[0].min(), Some(i32::MIN + 1000));
        assert_eq!(trail.len(), 1, "the bounds, once");
        trail.undo_to(0, &mut domains);
        assert_eq!(domains, original);
    }

    #[test]
    fn a_hole_widened_at_its_level_keeps_one_record() {
        let mut domains = vec![Domain::range(i32::MIN, i32::MAX).unwrap()];
        let original = domains.clone();
        let mut trail = Trail::default();
        trail.push_level();
        assert!(remove(&mut domains, &mut trail, 0, 0));
        for v in (-1000..0).rev() {
            // A deeper level that makes a hole of its own, undone, then `x ≠ v` here.
            trail.push_level();
            assert!(remove(&mut domains, &mut trail, 0, 5000));
            assert!(domains[0].fix_to(v, &mut trail.recorder(0)));
            trail.undo_to(1, &mut domains);
            assert!(remove(&mut domains, &mut trail, 0, v));
        }
        assert_eq!(domains[0].below(1), Some(-1001));
        assert!(domains[0].contains(1) && domains[0].contains(5000));
        assert_eq!(trail.len(), 1, "the hole's record, rewritten");
        // A hole that already was there when the level opened is merged the usual way.
        trail.push_level();
        assert!(remove(&mut domains, &mut trail, 0, 1));
        assert_eq!(trail.len(), 3, "the old hole removed, the new one added");
        trail.undo_to(1, &mut domains);
        assert_eq!(domains[0].below(2), Some(1));
        trail.undo_to(0, &mut domains);
        assert_eq!(domains, original);
    }

    proptest! {
        /// The same on a domain of the whole `i32` range, with values near its ends and its
        /// middle so that bounds move and holes are made, widened and merged at every level.
        #[test]
        fn on_a_wide_domain_any_sequence_of_levels_prunings_and_undos_restores_each_level(
            ops in proptest::collection::vec((0usize..3, 0i32..24, 0u8..6), 0..120)
        ) {
            let mut domains = vec![Domain::range(i32::MIN, i32::MAX).unwrap()];
            let at = |zone: usize, k: i32| match zone {
                0 => i32::MIN + k,
                1 => k - 12,
                _ => i32::MAX - k,
            };
            let mut trail = Trail::default();
            trail.push_level();
            let mut snapshots = vec![domains.clone()];
            for (zone, k, action) in ops {
                let v = at(zone, k);
                match action {
                    0 => {
                        trail.push_level();
                        snapshots.push(domains.clone());
                    }
                    1 if trail.level() > 1 => {
                        let target = 1 + k as usize % (trail.level() - 1);
                        trail.undo_to(target, &mut domains);
                        prop_assert_eq!(trail.level(), target);
                        prop_assert_eq!(&domains, &snapshots[target]);
                        snapshots.truncate(target);
                    }
                    2 => {
                        // A range around v: clamped bounds from one side.
                        let (low, high) = if zone == 0 { (v, i32::MAX) } else { (i32::MIN, v) };
                        domains[0].clamp(low, high, &mut trail.recorder(0));
                    }
                    _ => {
                        remove(&mut domains, &mut trail, 0, v);
                    }
                }
            }
            trail.undo_to(0, &mut domains);
            prop_assert_eq!(&domains, &snapshots[0]);
        }

        #[test]
        fn any_sequence_of_levels_prunings_and_undos_restores_each_level(
            ops in proptest::collection::vec((0usize..3, -5i32..80, 0u8..4), 0..80)
        ) {
            let mut domains = vec![
                Domain::range(0, 8).unwrap(),
                Domain::range(-5, 79).unwrap(),
                Domain::from_values([1, 2, 40, 70]).unwrap(),
            ];
            let mut trail = Trail::default();
            trail.push_level();
            // snapshots[l] = the domains when level l + 1 was opened.
            let mut snapshots = vec![domains.clone()];
            for (var, value, action) in ops {
                match action {
                    0 => {
                        trail.push_level();
                        snapshots.push(domains.clone());
                    }
                    1 if trail.level() > 1 => {
                        let target = 1 + value.unsigned_abs() as usize % (trail.level() - 1);
                        trail.undo_to(target, &mut domains);
                        prop_assert_eq!(trail.level(), target);
                        prop_assert_eq!(&domains, &snapshots[target]);
                        snapshots.truncate(target);
                    }
                    _ => {
                        remove(&mut domains, &mut trail, var, value);
                    }
                }
            }
            trail.undo_to(0, &mut domains);
            prop_assert_eq!(&domains, &snapshots[0]);
        }
    }
}
