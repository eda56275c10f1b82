//! The cheapest hitting set of a family of sets: the proposer of the implicit hitting-set
//! search in [`smallest_conflict`](super::smallest_conflict).
//!
//! Elements are `0..n`, each with a cost; a hitting set shares an element with every set of
//! the family. [`HittingSets::cheapest`] is exact, by branch and bound: branch on the elements
//! of an unhit set with the fewest elements left (taking the first, or leaving it out for
//! good and taking the next), bounded below by a packing of unhit sets that share no element
//! left (each needs one element of its own, at least its cheapest).
//! [`HittingSets::greedy`] is the quick one: the element that hits most unhit sets per unit of
//! cost, then redundant elements dropped.

/// A family of sets over elements `0..n` with costs.
#[derive(Debug, Clone)]
pub(crate) struct HittingSets {
    costs: Vec<u64>,
    sets: Vec<Vec<usize>>,
}

/// What [`HittingSets::cheapest`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Cheapest {
    /// The cheapest hitting set (ascending) and its cost, below the bound asked for.
    Found(Vec<usize>, u64),
    /// No hitting set costs less than the bound asked for.
    NoneBelow,
    /// `stop` said to stop first.
    Stopped,
}

/// Nodes of the branch and bound between two calls of the stop test.
const NODES_PER_CHECK: u64 = 256;

impl HittingSets {
    /// No set yet, over elements with these costs.
    pub(crate) fn new(costs: Vec<u64>) -> Self {
        HittingSets {
            costs,
            sets: Vec::new(),
        }
    }

    /// Adds a set (of elements below `n`). An empty set can never be hit.
    pub(crate) fn add(&mut self, mut set: Vec<usize>) {
        set.sort_unstable();
        set.dedup();
        self.sets.push(set);
    }

    /// The total cost of `elements`.
    #[cfg(test)]
    fn cost(&self, elements: &[usize]) -> u64 {
        elements
            .iter()
            .fold(0u64, |sum, &e| sum.saturating_add(self.costs[e]))
    }

    /// A hitting set found greedily (not always the cheapest), ascending; `None` if a set is
    /// empty.
    pub(crate) fn greedy(&self) -> Option<Vec<usize>> {
        if self.sets.iter().any(Vec::is_empty) {
            return None;
        }
        let n = self.costs.len();
        let mut hit = vec![false; self.sets.len()];
        let mut chosen = vec![false; n];
        let mut count = vec![0usize; n];
        loop {
            count.iter_mut().for_each(|c| *c = 0);
            for (set, _) in self.sets.iter().zip(&hit).filter(|(_, h)| !**h) {
                for &e in set {
                    count[e] += 1;
                }
            }
            // The most sets per unit of cost: count / (cost + 1) compared as fractions.
            let best = (0..n).filter(|&e| count[e] > 0).max_by(|&a, &b| {
                let left = count[a] as u128 * (u128::from(self.costs[b]) + 1);
                let right = count[b] as u128 * (u128::from(self.costs[a]) + 1);
                left.cmp(&right).then(b.cmp(&a))
            });
            let Some(e) = best else { break };
            chosen[e] = true;
            for (set, h) in self.sets.iter().zip(hit.iter_mut()) {
                if !*h && set.binary_search(&e).is_ok() {
                    *h = true;
                }
            }
        }
        // Drop elements the others make redundant, the most expensive first.
        let mut order: Vec<usize> = (0..n).filter(|&e| chosen[e]).collect();
        order.sort_by_key(|&e| std::cmp::Reverse(self.costs[e]));
        for e in order {
            chosen[e] = false;
            let still = self.sets.iter().all(|set| set.iter().any(|&x| chosen[x]));
            if !still {
                chosen[e] = true;
            }
        }
        Some((0..n).filter(|&e| chosen[e]).collect())
    }

    /// The cheapest hitting set that costs less than `below`, exactly; `stop` is asked now
    /// and then whether to give up.
    pub(crate) fn cheapest(&self, below: u64, stop: &mut dyn FnMut() -> bool) -> Cheapest {
        let mut search = Search {
            family: self,
            chosen: vec![false; self.costs.len()],
            excluded: vec![false; self.costs.len()],
            hits: vec![0; self.sets.len()],
            best: None,
            bound: below,
            nodes: 0,
            stopped: false,
            used: vec![false; self.costs.len()],
            stop,
        };
        search.branch(0);
        match (search.stopped, search.best) {
            (true, _) => Cheapest::Stopped,
            (false, Some((set, cost))) => Cheapest::Found(set, cost),
            (false, None) => Cheapest::NoneBelow,
        }
    }
}

/// The state of one branch and bound.
struct Search<'a> {
    family: &'a HittingSets,
    chosen: Vec<bool>,
    excluded: Vec<bool>,
    /// How many chosen elements each set holds.
    hits: Vec<u32>,
    best: Option<(Vec<usize>, u64)>,
    /// Only hitting sets cheaper than this are looked for.
    bound: u64,
    nodes: u64,
    stopped: bool,
    /// Scratch marks of the lower bound.
    used: Vec<bool>,
    stop: &'a mut dyn FnMut() -> bool,
}

impl Search<'_> {
    fn branch(&mut self, cost: u64) {
        if self.stopped {
            return;
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(NODES_PER_CHECK) && (self.stop)() {
            self.stopped = true;
            return;
        }
        // The unhit sets, the most constrained first.
        let family = self.family;
        let mut unhit: Vec<(usize, usize)> = Vec::new();
        for (k, set) in family.sets.iter().enumerate() {
            if self.hits[k] == 0 {
                let open = set.iter().filter(|&&e| !self.excluded[e]).count();
                if open == 0 {
                    return;
                }
                unhit.push((open, k));
            }
        }
        if unhit.is_empty() {
            if cost < self.bound {
                let set = (0..self.chosen.len()).filter(|&e| self.chosen[e]).collect();
                self.best = Some((set, cost));
                self.bound = cost;
            }
            return;
        }
        unhit.sort_unstable();
        if cost.saturating_add(self.packing_bound(&unhit)) >= self.bound {
            return;
        }
        let (_, k) = unhit[0];
        let mut open: Vec<usize> = family.sets[k]
            .iter()
            .copied()
            .filter(|&e| !self.excluded[e])
            .collect();
        open.sort_by_key(|&e| (family.costs[e], e));
        for &e in &open {
            self.set_chosen(e, true);
            self.branch(cost.saturating_add(family.costs[e]));
            self.set_chosen(e, false);
            if self.stopped {
                break;
            }
            self.excluded[e] = true;
        }
        for &e in &open {
            self.excluded[e] = false;
        }
    }

    fn set_chosen(&mut self, e: usize, chosen: bool) {
        self.chosen[e] = chosen;
        for (set, hits) in self.family.sets.iter().zip(self.hits.iter_mut()) {
            if set.binary_search(&e).is_ok() {
                if chosen {
                    *hits += 1;
                } else {
                    *hits -= 1;
                }
            }
        }
    }

    /// A lower bound on the cost of hitting the `unhit` sets: sets that share no open element
    /// each need one of their own.
    fn packing_bound(&mut self, unhit: &[(usize, usize)]) -> u64 {
        let family = self.family;
        let mut bound = 0u64;
        let mut marked = Vec::new();
        for &(_, k) in unhit {
            let set = &family.sets[k];
            let open = || set.iter().copied().filter(|&e| !self.excluded[e]);
            if open().any(|e| self.used[e]) {
                continue;
            }
            bound = bound.saturating_add(open().map(|e| family.costs[e]).min().unwrap_or(0));
            let elements: Vec<usize> = open().collect();
            for e in elements {
                self.used[e] = true;
                marked.push(e);
            }
        }
        for e in marked {
            self.used[e] = false;
        }
        bound
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cheapest hitting set by trying every subset.
    fn brute_force(costs: &[u64], sets: &[Vec<usize>]) -> Option<u64> {
        let n = costs.len();
        (0u32..1 << n)
            .filter(|mask| sets.iter().all(|s| s.iter().any(|&e| mask >> e & 1 == 1)))
            .map(|mask| {
                (0..n)
                    .filter(|&e| mask >> e & 1 == 1)
                    .map(|e| costs[e])
                    .sum()
            })
            .min()
    }

    #[test]
    fn the_cheapest_hitting_set_matches_brute_force_on_random_families() {
        let mut seed = 12345u64;
        let mut next = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for _ in 0..300 {
            let n = 1 + next(9) as usize;
            let costs: Vec<u64> = (0..n).map(|_| next(4)).collect();
            let mut family = HittingSets::new(costs.clone());
            let mut sets = Vec::new();
            for _ in 0..next(7) {
                let set: Vec<usize> = (0..n).filter(|_| next(3) == 0).collect();
                if !set.is_empty() {
                    sets.push(set.clone());
                    family.add(set);
                }
            }
            let expected = brute_force(&costs, &sets).unwrap();
            match family.cheapest(u64::MAX, &mut || false) {
                Cheapest::Found(set, cost) => {
                    assert_eq!(cost, expected, "{costs:?} {sets:?}");
                    assert_eq!(family.cost(&set), cost);
                    assert!(sets.iter().all(|s| s.iter().any(|e| set.contains(e))));
                }
                other => panic!("{other:?} for {costs:?} {sets:?}"),
            }
            assert_eq!(
                family.cheapest(expected, &mut || false),
                Cheapest::NoneBelow
            );
            let greedy = family.greedy().unwrap();
            assert!(sets.iter().all(|s| s.iter().any(|e| greedy.contains(e))));
        }
    }
}
