//! One cycle through some of the nodes, given by successors; the others point at themselves.

use smallvec::SmallVec;

use crate::constraints::circuit::{Successors, successor};
use crate::constraints::{AllDifferent, Conflict, Constraint, PropagationContext, WakeOn};
use crate::error::ModelError;
use crate::ids::VarId;
use crate::kernel::{ModelView, PropagationLevel};

/// `succ[i]` is the node after node `i` on one cycle through some of the nodes, and
/// `succ[i] = i` for the nodes left out: a tour that need not visit every city (the prize
/// collecting travelling salesman, a route through some of the stops); MiniZinc's
/// `subcircuit`. No node on the cycle is the empty cycle, which is allowed: every node then
/// points at itself.
///
/// Nodes count from 0 ([`new`](Subcircuit::new)) or from a base
/// ([`with_base`](Subcircuit::with_base): MiniZinc counts from 1).
///
/// Propagation, by [`PropagationLevel`]:
///
/// - `None`: fails when the whole scope is fixed to anything but one cycle and self-loops.
/// - `Forward`: [`AllDifferent`] at `Forward`, and subtour elimination: a node some fixed
///   successor points at is on the cycle (it loses its self-loop); each path of fixed
///   successors may close only if every node off it can be left out (otherwise its start is
///   removed from the successors of its end); once a cycle of fixed successors is closed,
///   every node off it is left out.
/// - `Full`: the same with [`AllDifferent`] at `Full` (Régin's matching). Not domain
///   consistent. O(n) per pass besides all-different's cost, to a fixpoint.
///
/// # Examples
///
/// ```
/// use cspkit::{Model, Subcircuit};
///
/// // Three nodes: the empty cycle, three cycles of two nodes, two of three.
/// let mut model = Model::new();
/// let succ = model.new_vars(3, 0..=2)?;
/// model.post(Subcircuit::new(&succ))?;
/// assert_eq!(model.solver().count().solutions, 6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Subcircuit {
    different: AllDifferent,
    base: i64,
}

impl Subcircuit {
    /// The successors of nodes `0..n`.
    pub fn new(succ: &[VarId]) -> Subcircuit {
        Subcircuit::with_base(succ, 0)
    }

    /// The successors of nodes `base..base + n`.
    pub fn with_base(succ: &[VarId], base: i32) -> Subcircuit {
        Subcircuit {
            different: AllDifferent::new(succ),
            base: i64::from(base),
        }
    }

    /// Whether node `i` may still be left out (its successor may be itself).
    fn may_leave_out(&self, ctx: &PropagationContext<'_>, i: usize) -> bool {
        i32::try_from(self.node(i)).is_ok_and(|me| ctx.domain(self.scope()[i]).contains(me))
    }
}

impl Successors for Subcircuit {
    const MAY_LEAVE_OUT: bool = true;

    fn parts(&self) -> (&AllDifferent, i64) {
        (&self.different, self.base)
    }

    /// The successor of node `i` (counted from 0), if fixed, in range and not `i` itself.
    fn next(&self, ctx: &PropagationContext<'_>, i: usize) -> Option<usize> {
        let value = ctx.value(self.scope()[i])?;
        let j = i64::from(value) - self.base;
        usize::try_from(j)
            .ok()
            .filter(|&j| j < self.scope().len() && j != i)
    }

    /// Subtour elimination on the fixed successors; whether it pruned.
    fn break_subtours(&self, ctx: &mut PropagationContext<'_>) -> Result<bool, Conflict> {
        let succ = self.scope();
        let n = succ.len();
        let has_pred = self.predecessors(ctx)?;
        // A node with a predecessor is on the cycle.
        for j in (0..n).filter(|&j| has_pred[j]) {
            if let Ok(me) = i32::try_from(self.node(j))
                && ctx.remove(succ[j], me)?
            {
                return Ok(true);
            }
        }
        let must_stay = (0..n).filter(|&i| !self.may_leave_out(ctx, i)).count();
        let mut visited: SmallVec<[bool; 64]> = SmallVec::from_elem(false, n);
        for start in 0..n {
            if has_pred[start] || self.next(ctx, start).is_none() {
                continue;
            }
            // Follow the path from `start` to its end, counting the nodes on it that cannot
            // be left out.
            let mut staying = usize::from(!self.may_leave_out(ctx, start));
            let (end, _) = self.follow(ctx, start, &mut visited, |node| {
                staying += usize::from(!self.may_leave_out(ctx, node));
            })?;
            // Closing the path now leaves out a node that must stay: not allowed.
            if staying < must_stay
                && let Ok(closing) = i32::try_from(self.node(start))
                && ctx.remove(succ[end], closing)?
            {
                return Ok(true);
            }
        }
        // What is left of the fixed successors are cycles: with one, every other node is out.
        let Some(on_cycle) = (0..n).find(|&i| !visited[i] && self.next(ctx, i).is_some()) else {
            return Ok(false);
        };
        let mut cycle: SmallVec<[bool; 64]> = SmallVec::from_elem(false, n);
        let mut node = on_cycle;
        while !cycle[node] {
            cycle[node] = true;
            node = self.next(ctx, node).ok_or(Conflict)?;
        }
        let mut changed = false;
        for i in (0..n).filter(|&i| !cycle[i]) {
            let me = i32::try_from(self.node(i)).map_err(|_| Conflict)?;
            changed |= ctx.fix(succ[i], me)?;
        }
        Ok(changed)
    }
}

impl Constraint for Subcircuit {
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
        let mut pointed: SmallVec<[bool; 64]> = SmallVec::from_elem(false, n);
        for i in 0..n {
            match next(i) {
                Some(j) if !pointed[j] => pointed[j] = true,
                _ => return false, // out of range, or a value taken twice
            }
        }
        let on: SmallVec<[usize; 64]> = (0..n).filter(|&i| next(i) != Some(i)).collect();
        let Some(&first) = on.first() else {
            return true; // the empty cycle
        };
        let (mut node, mut steps) = (first, 0);
        loop {
            node = next(node).expect("checked in range");
            steps += 1;
            if node == first {
                return steps == on.len();
            }
            if steps > n {
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
