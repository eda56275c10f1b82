//! A single Hamiltonian cycle, given by successors.

use smallvec::SmallVec;

use crate::constraints::bounds::{keep_at_least, keep_at_most};
use crate::constraints::{AllDifferent, Conflict, Constraint, PropagationContext, WakeOn};
use crate::error::ModelError;
use crate::ids::VarId;
use crate::kernel::{ModelView, PropagationLevel};

/// `succ[i]` is the node after node `i` on one cycle through all the nodes: a Hamiltonian
/// circuit. A knight's tour that returns to its square, a Hidato path closed by one extra node,
/// a travelling salesman's round; MiniZinc's `circuit`.
///
/// Nodes count from 0 ([`new`](Circuit::new)) or from a base
/// ([`with_base`](Circuit::with_base): MiniZinc counts from 1). One node is a circuit of
/// itself; from two nodes on, no node is its own successor.
///
/// Propagation, by [`PropagationLevel`]:
///
/// - `None`: fails when the whole scope is fixed to anything but a single cycle.
/// - `Forward`: [`AllDifferent`] at `Forward`, no self-loops, and subtour elimination: each
///   path of fixed successors, from a node with no fixed predecessor to its end `e`, may not
///   close early: its start is removed from `succ[e]` unless the path visits every node (then
///   `succ[e]` is fixed to it); a closed cycle of fixed successors shorter than `n` fails.
/// - `Full`: the same with [`AllDifferent`] at `Full` (Régin's matching). Not domain
///   consistent (that is NP-hard to decide). O(n) per pass besides all-different's cost, to a
///   fixpoint.
///
/// # Examples
///
/// ```
/// use cspkit::{Circuit, Model};
///
/// // Four nodes: (n − 1)! = 6 cycles.
/// let mut model = Model::new();
/// let succ = model.new_vars(4, 0..=3)?;
/// model.post(Circuit::new(&succ))?;
/// assert_eq!(model.solver().count().solutions, 6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Circuit {
    different: AllDifferent,
    base: i64,
}

impl Circuit {
    /// The successors of nodes `0..n`.
    pub fn new(succ: &[VarId]) -> Circuit {
        Circuit::with_base(succ, 0)
    }

    /// The successors of nodes `base..base + n`.
    pub fn with_base(succ: &[VarId], base: i32) -> Circuit {
        Circuit {
            different: AllDifferent::new(succ),
            base: i64::from(base),
        }
    }
}

impl Successors for Circuit {
    const MAY_LEAVE_OUT: bool = false;

    fn parts(&self) -> (&AllDifferent, i64) {
        (&self.different, self.base)
    }

    /// The successor of node `i` (counted from 0), if fixed and in range.
    fn next(&self, ctx: &PropagationContext<'_>, i: usize) -> Option<usize> {
        let value = ctx.value(self.scope()[i])?;
        let j = i64::from(value) - self.base;
        usize::try_from(j).ok().filter(|&j| j < self.scope().len())
    }

    /// Subtour elimination on the paths of fixed successors; whether it pruned.
    fn break_subtours(&self, ctx: &mut PropagationContext<'_>) -> Result<bool, Conflict> {
        let succ = self.scope();
        let n = succ.len();
        let has_pred = self.predecessors(ctx)?;
        let mut visited: SmallVec<[bool; 64]> = SmallVec::from_elem(false, n);
        for start in 0..n {
            if has_pred[start] {
                continue;
            }
            let (end, edges) = self.follow(ctx, start, &mut visited, |_| {})?;
            let closing = self.node(start);
            let last = succ[end];
            let changed = if edges + 1 == n {
                ctx.fix(last, i32::try_from(closing).map_err(|_| Conflict)?)?
            } else {
                match i32::try_from(closing) {
                    Ok(closing) => ctx.remove(last, closing)?,
                    Err(_) => false,
                }
            };
            if changed {
                // The fixed successors changed: start again from a fresh picture.
                return Ok(true);
            }
        }
        // What is left of the fixed successors are cycles: only one through every node is good.
        for i in 0..n {
            if visited[i] || self.next(ctx, i).is_none() {
                continue;
            }
            let (mut node, mut length) = (i, 0);
            while !visited[node] {
                if length > n {
                    return Err(Conflict);
                }
                visited[node] = true;
                length += 1;
                node = self.next(ctx, node).ok_or(Conflict)?;
            }
            if length < n {
                return Err(Conflict);
            }
        }
        Ok(false)
    }
}

impl Constraint for Circuit {
    fn scope(&self) -> &[VarId] {
        self.different.scope()
    }

    /// The scope's domains cut down by the constraint's own propagation
    /// ([`minimized_reason`](crate::kernel::minimized_reason)).
    fn explain(
        &self,
        inference: crate::kernel::Inference,
        ctx: &crate::kernel::ExplainContext<'_>,
    ) -> Option<Vec<crate::kernel::Literal>> {
        crate::kernel::minimized_reason(self, inference, ctx)
    }

    fn check(&self, values: &[i32]) -> bool {
        let n = values.len();
        let next = |i: usize| successor(values, i, self.base);
        let (mut node, mut steps) = (0, 0);
        loop {
            match next(node) {
                Some(j) => node = j,
                None => return false,
            }
            steps += 1;
            if node == 0 {
                return steps == n;
            }
            if steps >= n {
                return false;
            }
        }
    }

    fn prepare(&mut self, model: &ModelView<'_>) -> Result<(), ModelError> {
        self.different.prepare(model)
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        self.propagate_successors(ctx)
    }

    fn wake_on(&self, level: PropagationLevel) -> WakeOn {
        match level {
            PropagationLevel::Full => WakeOn::AnyChange,
            _ => WakeOn::Fixed,
        }
    }
}

/// The node after node `i` in a full assignment of successors numbered from `base`, if in
/// range (the `check` of [`Circuit`] and [`Subcircuit`](crate::Subcircuit)).
pub(crate) fn successor(values: &[i32], i: usize, base: i64) -> Option<usize> {
    usize::try_from(i64::from(values[i]) - base)
        .ok()
        .filter(|&j| j < values.len())
}

/// What [`Circuit`] and [`Subcircuit`](crate::Subcircuit) share: successor variables under an
/// all-different, nodes numbered from a base, and the propagation around their own subtour
/// elimination.
pub(crate) trait Successors: Constraint + Sized {
    /// Whether a node may be left out of the cycle, as its own successor.
    const MAY_LEAVE_OUT: bool;

    /// The all-different over the successors, and the number of the first node.
    fn parts(&self) -> (&AllDifferent, i64);

    /// The node after node `i` (counted from 0) on the cycle, if its successor is fixed and
    /// makes an edge.
    fn next(&self, ctx: &PropagationContext<'_>, i: usize) -> Option<usize>;

    /// Subtour elimination on the fixed successors; whether it pruned.
    fn break_subtours(&self, ctx: &mut PropagationContext<'_>) -> Result<bool, Conflict>;

    /// The number of the first node.
    fn base(&self) -> i64 {
        self.parts().1
    }

    /// Node `i` as a value of a successor variable.
    fn node(&self, i: usize) -> i64 {
        self.base() + i as i64
    }

    /// Which nodes an edge of fixed successors points at; a conflict when one has two.
    fn predecessors(&self, ctx: &PropagationContext<'_>) -> Result<SmallVec<[bool; 64]>, Conflict> {
        let n = self.scope().len();
        let mut has_pred: SmallVec<[bool; 64]> = SmallVec::from_elem(false, n);
        for i in 0..n {
            if let Some(j) = self.next(ctx, i) {
                if has_pred[j] {
                    return Err(Conflict); // two fixed predecessors
                }
                has_pred[j] = true;
            }
        }
        Ok(has_pred)
    }

    /// Follows the path of fixed successors from `start` to its end, marking each node
    /// `visited` and handing each after `start` to `each`: the end and the number of edges. A
    /// walk longer than `n` has met a node twice (two variables share a value): a conflict.
    fn follow(
        &self,
        ctx: &PropagationContext<'_>,
        start: usize,
        visited: &mut [bool],
        mut each: impl FnMut(usize),
    ) -> Result<(usize, usize), Conflict> {
        let n = self.scope().len();
        let (mut end, mut edges) = (start, 0);
        visited[start] = true;
        while let Some(j) = self.next(ctx, end) {
            end = j;
            edges += 1;
            if edges > n {
                return Err(Conflict);
            }
            visited[end] = true;
            each(end);
        }
        Ok((end, edges))
    }

    /// The propagation of both: the check alone at `None`; otherwise the successors kept
    /// within the nodes (and off their own node, unless a node may be left out), then the
    /// all-different and the subtour elimination to their common fixpoint.
    fn propagate_successors(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let succ = self.scope();
        let n = succ.len();
        if ctx.level() == PropagationLevel::None {
            return ctx.check_if_fixed(self);
        }
        for (i, &var) in succ.iter().enumerate() {
            keep_at_least(ctx, var, self.base())?;
            keep_at_most(ctx, var, self.base() + n as i64 - 1)?;
            if !Self::MAY_LEAVE_OUT
                && n > 1
                && let Ok(me) = i32::try_from(self.node(i))
            {
                ctx.remove(var, me)?;
            }
        }
        loop {
            self.parts().0.propagate(ctx)?;
            if !self.break_subtours(ctx)? {
                return Ok(());
            }
        }
    }
}
