//! The index of domain sizes behind [`SearchView::smallest_domain`]: the variable with the
//! fewest values left, found in O(1) instead of a pass over the variables.
//!
//! A tournament tree over the variables: each leaf holds a variable's key, `size << 32 |
//! index` (or [`CLOSED`] for a variable not to branch on), and each inner node the smaller
//! key of its two children, so the root names the smallest domain, the earliest declared
//! among ties: the choice of [`SmallestDomain`](crate::SmallestDomain).
//!
//! The engine keeps the tree in step with the domains from the trail, at no cost to a search
//! that does not use it: before each choice of variable it updates the leaves of the
//! variables whose domains changed since the last choice, which are those of the trail
//! entries pushed since then and of the entries backtracking undid (the engine hands those
//! over before undoing them). Each trail entry is handled at most twice, once made and once
//! undone, at O(log n) each (a change the trail folds into an entry it already has, as it does
//! for wide domains, it notes apart for the index), so a search costs O(changes · log n) in the index rather than
//! O(variables) per decision. Changes at the root are not on the trail: at depth 0 the tree
//! is rebuilt, which happens once per search and after each refutation of a root decision.
//!
//! The index is switched on by the orders that need it: a view without an active index
//! answers by a pass and, when that pass was long, asks the engine for the index from the
//! next choice on ([`SizeIndex::want`]).

use std::cell::Cell;

use crate::domain::Domain;
use crate::kernel::trail::Trail;

/// The key of a variable the search does not branch on (fixed, or not a decision variable).
const CLOSED: u128 = u128::MAX;

/// A pass over more variables than this asks for the index.
pub(crate) const LONG_PASS: usize = 128;

#[derive(Debug, Default)]
pub(crate) struct SizeIndex {
    /// Set through a view when an order found the smallest domain by a long pass.
    wanted: Cell<bool>,
    /// Whether the tree follows the domains (synchronised before each choice).
    active: bool,
    /// `tree[width + i]` is variable `i`'s key; `tree[k]` the smaller of `tree[2k]` and
    /// `tree[2k + 1]`; `tree[0]` is unused.
    tree: Vec<u128>,
    width: usize,
    /// The variables whose leaves are out of date, each once (`stale` marks them).
    dirty: Vec<u32>,
    stale: Vec<bool>,
    /// The trail's length at the last synchronisation, or the lowest it has been since:
    /// entries above it were pushed after the last synchronisation.
    low: usize,
}

impl SizeIndex {
    /// Whether the engine must tell the index about trail entries before undoing them.
    #[inline]
    pub(crate) fn is_active(&self) -> bool {
        self.active
    }

    /// Asks for the index from the next choice on (through a view).
    pub(crate) fn want(&self) {
        self.wanted.set(true);
    }

    /// Whether the engine should synchronise before the next choice.
    #[inline]
    pub(crate) fn is_wanted(&self) -> bool {
        self.active || self.wanted.get()
    }

    /// The variables of the trail entries above `level`, about to be undone.
    #[inline]
    pub(crate) fn undoing(&mut self, trail: &Trail, level: usize) {
        for var in trail.vars_above(level) {
            self.touch(var);
        }
    }

    /// The trail was undone to `len` entries.
    #[inline]
    pub(crate) fn undone_to(&mut self, len: usize) {
        self.low = self.low.min(len);
    }

    /// Forgets the tree (a new search): the next synchronisation rebuilds it.
    pub(crate) fn reset(&mut self) {
        self.active = false;
        self.low = 0;
        for &var in &self.dirty {
            self.stale[var as usize] = false;
        }
        self.dirty.clear();
    }

    fn touch(&mut self, var: u32) {
        let stale = &mut self.stale[var as usize];
        if !*stale {
            *stale = true;
            self.dirty.push(var);
        }
    }

    /// Brings the tree in step with `domains` before a choice at `depth`: rebuilt at the root
    /// (whose changes are not on the trail) or when first asked for, updated otherwise.
    pub(crate) fn sync(
        &mut self,
        domains: &[Domain],
        trail: &mut Trail,
        depth: usize,
        branch: Option<&[bool]>,
    ) {
        let key = |i: usize| {
            let d = &domains[i];
            if d.is_fixed() || branch.is_some_and(|b| !b[i]) {
                CLOSED
            } else {
                (d.size() as u128) << 32 | i as u128
            }
        };
        if !self.active || depth == 0 {
            let n = domains.len();
            self.width = n.next_power_of_two().max(1);
            self.tree.clear();
            self.tree.resize(2 * self.width, CLOSED);
            for i in 0..n {
                self.tree[self.width + i] = key(i);
            }
            for k in (1..self.width).rev() {
                self.tree[k] = self.tree[2 * k].min(self.tree[2 * k + 1]);
            }
            self.stale.clear();
            self.stale.resize(n, false);
            self.dirty.clear();
            self.active = true;
            trail.note_quiet_changes();
            trail.take_quiet().for_each(drop);
        } else {
            for var in trail.vars_since(self.low) {
                self.touch(var);
            }
            // Changes the trail folded into an entry it already had: no entry of their own.
            for var in trail.take_quiet() {
                self.touch(var);
            }
            for &var in &self.dirty {
                let i = var as usize;
                self.stale[i] = false;
                let mut k = self.width + i;
                self.tree[k] = key(i);
                while k > 1 {
                    k /= 2;
                    let smaller = self.tree[2 * k].min(self.tree[2 * k + 1]);
                    if self.tree[k] == smaller {
                        break;
                    }
                    self.tree[k] = smaller;
                }
            }
            self.dirty.clear();
        }
        self.low = trail.len();
    }

    /// The index of the unfixed variable with the smallest domain (the earliest declared among
    /// ties), `Some(None)` if none is left, or `None` if the index is not in step.
    #[inline]
    pub(crate) fn smallest(&self) -> Option<Option<u32>> {
        self.active.then(|| {
            let root = self.tree[1];
            (root != CLOSED).then_some(root as u32)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(domains: &[Domain]) -> Option<u32> {
        (0..domains.len())
            .filter(|&i| !domains[i].is_fixed())
            .min_by_key(|&i| domains[i].size())
            .map(|i| i as u32)
    }

    #[test]
    fn the_index_follows_prunings_and_undos_as_a_pass_would_see_them() {
        // Small domains, and wide ones whose bounds the trail records once per level and
        // whose holes it amends in place: changes with no entry of their own.
        let mut domains: Vec<Domain> = (0..37)
            .map(|i| match i % 9 {
                8 => Domain::range(0, 3 + i % 5).unwrap(),
                _ => Domain::range(0, (1 << 21) + i % 5).unwrap(),
            })
            .collect();
        let mut trail = Trail::default();
        let mut index = SizeIndex::default();
        index.sync(&domains, &mut trail, 0, None);
        assert_eq!(index.smallest(), Some(scan(&domains)));
        let mut state = 1u64;
        for step in 0..20_000 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let r = (state >> 33) as usize;
            let level = trail.level();
            if r.is_multiple_of(7) && level > 0 {
                let to = r % level;
                index.undoing(&trail, to);
                trail.undo_to(to, &mut domains);
                index.undone_to(trail.len());
            } else if r % 7 == 1 || level == 0 {
                trail.push_level();
            } else {
                let var = (r / 7) % domains.len();
                let domain = &domains[var];
                let (min, max) = (domain.min().unwrap(), domain.max().unwrap());
                let value = match (r / 300) % 4 {
                    0 => min,
                    1 => max,
                    2 => (1 << 20) + ((r / 1200) % 3) as i32,
                    _ => ((r / 1200) % 14) as i32,
                };
                if domain.size() > 1 && domain.contains(value) {
                    domains[var].remove(value, &mut trail.recorder(var as u32));
                }
            }
            if r.is_multiple_of(3) {
                let depth = trail.level().max(1);
                index.sync(&domains, &mut trail, depth, None);
                assert_eq!(index.smallest(), Some(scan(&domains)), "step {step}");
            }
        }
    }

    #[test]
    fn changes_the_trail_folds_into_an_earlier_entry_reach_the_index() {
        // x has two values more than y. At one level, x loses a value (an entry for its
        // bounds, or for a hole), the index is brought in step, then x loses the next value:
        // the trail keeps its first entry (bounds) or amends it (the hole, widened), and x
        // now ties with y, declared after it.
        for (first, second) in [(0, 1), (100, 101)] {
            let mut domains = vec![
                Domain::range(0, (1 << 21) + 1).unwrap(),
                Domain::range(0, (1 << 21) - 1).unwrap(),
            ];
            let mut trail = Trail::default();
            let mut index = SizeIndex::default();
            index.sync(&domains, &mut trail, 0, None);
            assert_eq!(index.smallest(), Some(Some(1)));
            trail.push_level();
            assert!(domains[0].remove(first, &mut trail.recorder(0)));
            index.sync(&domains, &mut trail, 1, None);
            assert_eq!(index.smallest(), Some(Some(1)));
            let entries = trail.len();
            assert!(domains[0].remove(second, &mut trail.recorder(0)));
            assert_eq!(trail.len(), entries, "no entry of its own");
            index.sync(&domains, &mut trail, 1, None);
            assert_eq!(index.smallest(), Some(Some(0)), "after removing {second}");
            index.undoing(&trail, 0);
            trail.undo_to(0, &mut domains);
            index.undone_to(trail.len());
            index.sync(&domains, &mut trail, 1, None);
            assert_eq!(index.smallest(), Some(Some(1)));
        }
    }

    #[test]
    fn variables_not_to_branch_on_are_left_out_and_an_inactive_index_says_so() {
        let domains: Vec<Domain> = [3, 2, 5, 0]
            .iter()
            .map(|&h| Domain::range(0, h).unwrap())
            .collect();
        let mut trail = Trail::default();
        let mut index = SizeIndex::default();
        assert_eq!(index.smallest(), None);
        index.sync(&domains, &mut trail, 0, Some(&[true, false, true, true]));
        assert_eq!(index.smallest(), Some(Some(0)));
        index.sync(&domains, &mut trail, 0, Some(&[false, false, false, true]));
        assert_eq!(index.smallest(), Some(None));
    }
}
