//! Reasons of all-different's inferences, by Hall sets.
//!
//! A value `w` can be removed from position `p` exactly when some set `H` of other positions
//! has as many positions as values between them, `w` among those values (a Hall set): `H`
//! takes all its values, so `p` cannot take `w`. A fixed variable is a Hall set of one; a
//! naked pair of Sudoku is one of two; a hidden single, the other positions of a unit without
//! its value. The reason is the literals that confine each position of `H` to the Hall set's
//! values. A failure is explained the same way by a set of positions with fewer values than
//! positions between them.
//!
//! Both sets are found from a maximum matching of positions to values, as in Régin's
//! filtering: the Hall set is everything reachable from `w` by alternating paths (a value to
//! the position matched to it, a position to the values of its domain), and a failure's set is
//! everything reachable from a position the matching cannot cover. The commonest Hall set, one
//! position fixed to `w`, is looked for first. The matching is Kuhn's augmenting paths from a
//! greedy start, over the values numbered densely: conflict analysis asks for many reasons.

use std::collections::VecDeque;

use crate::constraints::AllDifferent;
use crate::ids::VarId;
use crate::kernel::{ExplainContext, Inference, Literal};

/// No mate: a free value or position.
const FREE: u32 = u32::MAX;

/// The positions and the values (numbered `0..keys.len()`), with a matching between them.
struct Graph {
    /// The view values of all positions, ascending: value `k` is `keys[k]`.
    keys: Vec<i64>,
    /// The values of each position, ascending.
    values: Vec<Vec<u32>>,
    /// The value matched to each position, or [`FREE`].
    mate_of_position: Vec<u32>,
    /// The position matched to each value, or [`FREE`].
    mate_of_value: Vec<u32>,
    /// Per value: the augmentation that last visited it.
    visited: Vec<u32>,
    stamp: u32,
}

impl Graph {
    /// A maximum matching of positions whose view values are `values`.
    fn new(values: &[Vec<i64>]) -> Graph {
        let mut keys: Vec<i64> = values.iter().flatten().copied().collect();
        keys.sort_unstable();
        keys.dedup();
        let values: Vec<Vec<u32>> = values
            .iter()
            .map(|row| {
                row.iter()
                    .map(|k| keys.binary_search(k).map_or(FREE, |i| i as u32))
                    .collect()
            })
            .collect();
        let (n, m) = (values.len(), keys.len());
        let mut graph = Graph {
            keys,
            values,
            mate_of_position: vec![FREE; n],
            mate_of_value: vec![FREE; m],
            visited: vec![0; m],
            stamp: 0,
        };
        // Greedy first: most positions find a free value of their own.
        for p in 0..n {
            if let Some(&w) = graph.values[p]
                .iter()
                .find(|&&w| graph.mate_of_value[w as usize] == FREE)
            {
                graph.mate_of_position[p] = w;
                graph.mate_of_value[w as usize] = p as u32;
            }
        }
        for p in 0..n {
            if graph.mate_of_position[p] == FREE {
                graph.stamp += 1;
                graph.augment(p);
            }
        }
        graph
    }

    /// The number of value `key`, if a position has it.
    fn value(&self, key: i64) -> Option<usize> {
        self.keys.binary_search(&key).ok()
    }

    /// The position matched to value `w`, if one is.
    fn mate(&self, w: usize) -> Option<usize> {
        let q = self.mate_of_value[w];
        (q != FREE).then_some(q as usize)
    }

    /// Kuhn's augmenting path from position `p`; `true` if `p` got a value.
    fn augment(&mut self, p: usize) -> bool {
        for k in 0..self.values[p].len() {
            let w = self.values[p][k] as usize;
            if self.visited[w] == self.stamp {
                continue;
            }
            self.visited[w] = self.stamp;
            let free = match self.mate(w) {
                None => true,
                Some(q) => self.augment(q),
            };
            if free {
                self.mate_of_position[p] = w as u32;
                self.mate_of_value[w] = p as u32;
                return true;
            }
        }
        false
    }

    /// The positions reachable by alternating paths from the positions in `start`: each
    /// position leads to every value of its domain, each value to the position matched to it.
    /// `None` if a free value is reached, or `avoid`.
    fn closure(&self, start: &[usize], avoid: Option<usize>) -> Option<Vec<usize>> {
        let mut reached = vec![false; self.values.len()];
        let mut queue: VecDeque<usize> = start.iter().copied().collect();
        for &p in start {
            reached[p] = true;
        }
        let mut order = Vec::new();
        while let Some(p) = queue.pop_front() {
            if Some(p) == avoid {
                return None;
            }
            order.push(p);
            for &w in &self.values[p] {
                let q = self.mate(w as usize)?;
                if !reached[q] {
                    reached[q] = true;
                    queue.push_back(q);
                }
            }
        }
        order.sort_unstable();
        Some(order)
    }
}

impl AllDifferent {
    /// The reason of an inference drawn from the domains of `ctx` (see the module's comment).
    pub(super) fn hall_reason(
        &self,
        inference: Inference,
        ctx: &ExplainContext<'_>,
    ) -> Option<Vec<Literal>> {
        if self.repeated {
            return None;
        }
        if let Inference::Removed { var, value } = inference {
            // The smallest Hall set: another position fixed to the value.
            let p = self.scope.iter().position(|&v| v == var)?;
            let w = self.key(p, value);
            if let Some(q) = self.scope.iter().enumerate().position(|(q, &other)| {
                q != p && ctx.domain(other).value().map(|v| self.key(q, v)) == Some(w)
            }) {
                return Some(self.confine(&[q], ctx));
            }
        }
        let keys = |i: usize, var: VarId| -> Vec<i64> {
            ctx.domain(var).iter().map(|v| self.key(i, v)).collect()
        };
        let mut values: Vec<Vec<i64>> = self
            .scope
            .iter()
            .enumerate()
            .map(|(i, &var)| keys(i, var))
            .collect();
        let set = match inference {
            Inference::Failed => {
                let graph = Graph::new(&values);
                let uncovered = graph.mate_of_position.iter().position(|&w| w == FREE)?;
                graph.closure(&[uncovered], None)?
            }
            Inference::Removed { var, value } => {
                let p = self.scope.iter().position(|&v| v == var)?;
                let w = self.key(p, value);
                // A matching that does not use the edge (p, w); p must still be matched.
                values[p].retain(|&k| k != w);
                let graph = Graph::new(&values);
                if graph.mate_of_position[p] == FREE {
                    return None;
                }
                let q = graph.mate(graph.value(w)?)?;
                graph.closure(&[q], Some(p))?
            }
            Inference::Fixed { var, value } => {
                // The only place for the value: every other position lacks it, and the scope
                // has as many positions as values (so every value is taken).
                let p = self.scope.iter().position(|&v| v == var)?;
                let w = self.key(p, value);
                let mut all: Vec<i64> = self
                    .scope
                    .iter()
                    .enumerate()
                    .flat_map(|(i, &v)| ctx.initial(v).iter().map(move |x| self.key(i, x)))
                    .collect();
                all.sort_unstable();
                all.dedup();
                let alone = values
                    .iter()
                    .enumerate()
                    .all(|(i, keys)| i == p || !keys.contains(&w));
                if all.len() != self.scope.len() || !alone {
                    return None;
                }
                let mut reason = Vec::new();
                for (i, &other) in self.scope.iter().enumerate() {
                    if i == p {
                        continue;
                    }
                    match self.value_of(i, w) {
                        Some(x) if ctx.initial(other).contains(x) => {
                            reason.push(match ctx.domain(other).value() {
                                Some(fixed) => Literal::Eq(other, fixed),
                                None => Literal::Ne(other, x),
                            });
                        }
                        _ => {}
                    }
                }
                return Some(reason);
            }
        };
        Some(self.confine(&set, ctx))
    }

    /// The literals that confine each position of `set` to the values its positions have
    /// between them: `x = v` for a fixed variable, else `x ≠ u` for each value `u` of its
    /// initial domain outside them.
    fn confine(&self, set: &[usize], ctx: &ExplainContext<'_>) -> Vec<Literal> {
        let mut union: Vec<i64> = set
            .iter()
            .flat_map(|&i| {
                let var = self.scope[i];
                ctx.domain(var).iter().map(move |v| self.key(i, v))
            })
            .collect();
        union.sort_unstable();
        union.dedup();
        let mut reason = Vec::new();
        for &i in set {
            let var = self.scope[i];
            if let Some(value) = ctx.domain(var).value() {
                if ctx.initial(var).value() != Some(value) {
                    reason.push(Literal::Eq(var, value));
                }
                continue;
            }
            reason.extend(
                ctx.initial(var)
                    .iter()
                    .filter(|&v| union.binary_search(&self.key(i, v)).is_err())
                    .map(|v| Literal::Ne(var, v)),
            );
        }
        reason
    }
}
