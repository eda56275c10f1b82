//! Edge-finding on one machine, in O(n log n) with a Θ-Λ-tree (Vilím, "O(n log n) filtering
//! algorithms for unary resource constraint", CPAIOR 2004).
//!
//! The rule: if a task `i` together with a set Ω of other tasks cannot all be done by the
//! latest end of Ω (`ECT(Ω ∪ {i}) > lct(Ω)`), then `i` ends after every task of Ω, so it
//! starts no earlier than `ECT(Ω)`, the earliest time Ω can be done. ECT of a set is the
//! largest `est(Ω') + p(Ω')` over its subsets Ω' made of the tasks from some earliest start
//! on.
//!
//! The tree has a leaf per task, in the order of earliest starts; each node keeps, for the
//! tasks of its leaves, the total duration and ECT of the set Θ (white leaves), and the same
//! two when at most one gray task (the set Λ) may join Θ, with that gray task: the one
//! *responsible*. Tasks are taken by latest end, from the last: a task leaves Θ for Λ, and
//! while some gray task would push ECT past the latest end of what is left in Θ, that task
//! must end after all of Θ.

use smallvec::SmallVec;

use crate::constraints::Conflict;

/// No gray task.
const NONE: usize = usize::MAX;
/// Minus infinity for earliest completion times: far from overflow when durations are added.
const NEG: i64 = i64::MIN / 4;

type Column<T> = SmallVec<[T; 64]>;

/// The Θ-Λ-tree: a complete binary tree over `size` leaves, node 1 the root, node `v`'s
/// children `2v` and `2v + 1`, leaf `k` at node `size + k`.
struct Tree {
    size: usize,
    /// Σp over Θ.
    sum: Column<i64>,
    /// ECT of Θ.
    ect: Column<i64>,
    /// Σp over Θ and at most one gray task, the largest.
    sum_gray: Column<i64>,
    /// ECT of Θ and at most one gray task, the largest.
    ect_gray: Column<i64>,
    /// The gray task of `sum_gray`, or `NONE`.
    sum_responsible: Column<usize>,
    /// The gray task of `ect_gray`, or `NONE`.
    ect_responsible: Column<usize>,
}

impl Tree {
    fn new(leaves: usize) -> Tree {
        let size = leaves.next_power_of_two().max(1);
        let nodes = 2 * size;
        Tree {
            size,
            sum: SmallVec::from_elem(0, nodes),
            ect: SmallVec::from_elem(NEG, nodes),
            sum_gray: SmallVec::from_elem(0, nodes),
            ect_gray: SmallVec::from_elem(NEG, nodes),
            sum_responsible: SmallVec::from_elem(NONE, nodes),
            ect_responsible: SmallVec::from_elem(NONE, nodes),
        }
    }

    /// Builds every inner node from its children, bottom up.
    fn build(&mut self) {
        for v in (1..self.size).rev() {
            self.combine(v);
        }
    }

    fn combine(&mut self, v: usize) {
        let (l, r) = (2 * v, 2 * v + 1);
        self.sum[v] = self.sum[l] + self.sum[r];
        self.ect[v] = self.ect[r].max(self.ect[l] + self.sum[r]);
        // On ties, a candidate with a gray task wins: its value is reached with it.
        let best = |candidates: [(i64, usize); 3]| {
            candidates
                .into_iter()
                .max_by_key(|&(value, gray)| (value, gray != NONE))
                .expect("three candidates")
        };
        let (sum_gray, sum_responsible) = best([
            (self.sum_gray[l] + self.sum[r], self.sum_responsible[l]),
            (self.sum[l] + self.sum_gray[r], self.sum_responsible[r]),
            (NEG, NONE),
        ]);
        self.sum_gray[v] = sum_gray;
        self.sum_responsible[v] = sum_responsible;
        let (ect_gray, ect_responsible) = best([
            (self.ect_gray[r], self.ect_responsible[r]),
            (self.ect[l] + self.sum_gray[r], self.sum_responsible[r]),
            (self.ect_gray[l] + self.sum[r], self.ect_responsible[l]),
        ]);
        self.ect_gray[v] = ect_gray;
        self.ect_responsible[v] = ect_responsible;
    }

    fn update(&mut self, leaf: usize) {
        let mut v = (self.size + leaf) / 2;
        while v >= 1 {
            self.combine(v);
            v /= 2;
        }
    }

    /// Sets leaf `leaf` to a white task (in Θ), without updating the inner nodes.
    fn set_white(&mut self, leaf: usize, est: i64, duration: i64) {
        let v = self.size + leaf;
        self.sum[v] = duration;
        self.ect[v] = est + duration;
        self.sum_gray[v] = duration;
        self.ect_gray[v] = est + duration;
        self.sum_responsible[v] = NONE;
        self.ect_responsible[v] = NONE;
    }

    /// Turns leaf `leaf` gray: task `task` moves from Θ to Λ.
    fn make_gray(&mut self, leaf: usize, task: usize) {
        let v = self.size + leaf;
        self.sum[v] = 0;
        self.ect[v] = NEG;
        self.sum_responsible[v] = task;
        self.ect_responsible[v] = task;
        self.update(leaf);
    }

    /// Empties leaf `leaf`: its task leaves Λ.
    fn remove(&mut self, leaf: usize) {
        let v = self.size + leaf;
        self.sum[v] = 0;
        self.ect[v] = NEG;
        self.sum_gray[v] = 0;
        self.ect_gray[v] = NEG;
        self.sum_responsible[v] = NONE;
        self.ect_responsible[v] = NONE;
        self.update(leaf);
    }
}

/// Edge-finding for the tasks `(est, lct, duration)` of one machine (durations above 0):
/// raises `earliest[i]` (which starts as a copy of the earliest starts) to where edge-finding
/// puts task `i`.
///
/// # Errors
///
/// [`Conflict`] when the tasks that must end by some latest end cannot (overload).
pub(super) fn edge_finding(
    est: &[i64],
    lct: &[i64],
    duration: &[i64],
    earliest: &mut [i64],
) -> Result<(), Conflict> {
    let n = est.len();
    let mut by_start: SmallVec<[usize; 32]> = (0..n).collect();
    by_start.sort_unstable_by_key(|&i| est[i]);
    let mut leaf: SmallVec<[usize; 32]> = SmallVec::from_elem(0, n);
    let mut tree = Tree::new(n);
    for (k, &i) in by_start.iter().enumerate() {
        leaf[i] = k;
        tree.set_white(k, est[i], duration[i]);
    }
    tree.build();
    let mut by_end: SmallVec<[usize; 32]> = (0..n).collect();
    by_end.sort_unstable_by_key(|&i| std::cmp::Reverse(lct[i]));
    for (k, &j) in by_end.iter().enumerate() {
        if tree.ect[1] > lct[j] {
            return Err(Conflict);
        }
        tree.make_gray(leaf[j], j);
        let Some(&next) = by_end.get(k + 1) else {
            break;
        };
        while tree.ect_gray[1] > lct[next] {
            let i = tree.ect_responsible[1];
            if i == NONE {
                break; // Θ alone overloads: the check above fails on the next task.
            }
            earliest[i] = earliest[i].max(tree.ect[1]);
            tree.remove(leaf[i]);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::edge_finding;

    /// Brute force: for each task `i` and each set Ω of the others whose union with `i`
    /// overloads Ω's latest end, `i` starts after ECT(Ω).
    fn brute_force(est: &[i64], lct: &[i64], p: &[i64]) -> Option<Vec<i64>> {
        let n = est.len();
        let ect = |set: u32| -> i64 {
            // The largest est(Ω') + p(Ω') over the tails of the set by earliest start.
            (0..n)
                .filter(|&k| set & (1 << k) != 0)
                .map(|k| {
                    let tail: i64 = (0..n)
                        .filter(|&m| set & (1 << m) != 0 && est[m] >= est[k])
                        .map(|m| p[m])
                        .sum();
                    est[k] + tail
                })
                .max()
                .unwrap_or(i64::MIN)
        };
        let lct_of = |set: u32| {
            (0..n)
                .filter(|&k| set & (1 << k) != 0)
                .map(|k| lct[k])
                .max()
                .unwrap()
        };
        let mut earliest = est.to_vec();
        for set in 1u32..(1 << n) {
            if ect(set) > lct_of(set) {
                return None;
            }
            for i in (0..n).filter(|&i| set & (1 << i) == 0) {
                if ect(set | 1 << i) > lct_of(set) {
                    earliest[i] = earliest[i].max(ect(set));
                }
            }
        }
        Some(earliest)
    }

    #[test]
    fn edge_finding_agrees_with_the_rule_applied_to_every_set() {
        let mut random = crate::util::random::SplitMix64::new(11);
        let mut pushed = 0;
        let mut failed = 0;
        for _ in 0..3000 {
            let n = 1 + random.below(5) as usize;
            let p: Vec<i64> = (0..n).map(|_| 1 + random.below(4) as i64).collect();
            let est: Vec<i64> = (0..n).map(|_| random.below(8) as i64).collect();
            let lct: Vec<i64> = (0..n)
                .map(|i| est[i] + p[i] + random.below(6) as i64)
                .collect();
            let mut earliest = est.clone();
            let found = edge_finding(&est, &lct, &p, &mut earliest)
                .ok()
                .map(|()| earliest);
            let expected = brute_force(&est, &lct, &p);
            assert_eq!(found, expected, "est {est:?} lct {lct:?} p {p:?}");
            match expected {
                None => failed += 1,
                Some(e) if e != est => pushed += 1,
                _ => {}
            }
        }
        assert!(
            pushed > 100 && failed > 100,
            "pushed {pushed}, failed {failed}"
        );
    }
}
