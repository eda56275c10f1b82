//! Lexicographic order of two arrays: the workhorse of symmetry breaking.

use std::cmp::Ordering;

use crate::constraints::bounds::{keep_at_least, keep_at_most};
use crate::constraints::{Conflict, Constraint, PropagationContext, WakeOn};
use crate::ids::VarId;
use crate::kernel::PropagationLevel;

/// `xs ≤lex ys` ([`LexLessEq::new`]) or `xs <lex ys` ([`LexLessEq::strict`]): the two arrays,
/// read as words, are in dictionary order. Ordering the rows of a matrix model this way
/// removes its row symmetry (each class of equivalent solutions keeps one member); MiniZinc's
/// `lex_lesseq` and `lex_less`. Arrays of different lengths compare as words do: a proper
/// prefix is smaller.
///
/// Propagation, by [`PropagationLevel`]:
///
/// - `None`: fails when both arrays are fixed and out of order.
/// - `Forward` and `Full`: domain consistency (the algorithm of Frisch, Hnich, Kiziltan,
///   Miguel and Walsh, "Global constraints for lexicographic orderings", CP 2002, without its
///   incremental bookkeeping): past the prefix of positions fixed to equal values, at the first
///   open position `α`, `xs[α] ≤ ys[α]`, and `xs[α] < ys[α]` when the rest cannot be kept in
///   order with equality at `α` (judged on the smallest values of `xs` and the largest of
///   `ys`). O(n) per call, with a pass per position that becomes fixed and equal.
///
/// # Examples
///
/// ```
/// use cspkit::{LexLessEq, Model};
///
/// // Two rows of two bits, the first at most the second: 10 of the 16 pairs of rows.
/// let mut model = Model::new();
/// let a = model.new_vars(2, 0..=1)?;
/// let b = model.new_vars(2, 0..=1)?;
/// model.post(LexLessEq::new(&a, &b))?;
/// assert_eq!(model.solver().count().solutions, 10);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct LexLessEq {
    /// `xs` then `ys`.
    scope: Vec<VarId>,
    split: usize,
    strict: bool,
}

impl LexLessEq {
    /// `xs ≤lex ys`.
    pub fn new(xs: &[VarId], ys: &[VarId]) -> LexLessEq {
        let mut scope = xs.to_vec();
        scope.extend_from_slice(ys);
        LexLessEq {
            scope,
            split: xs.len(),
            strict: false,
        }
    }

    /// `xs <lex ys`.
    pub fn strict(xs: &[VarId], ys: &[VarId]) -> LexLessEq {
        LexLessEq {
            strict: true,
            ..LexLessEq::new(xs, ys)
        }
    }

    /// Whether the order is strict.
    pub fn is_strict(&self) -> bool {
        self.strict
    }

    fn arrays(&self) -> (&[VarId], &[VarId]) {
        self.scope.split_at(self.split)
    }

    /// Whether `xs ≤lex ys` (or `<`) can hold from position `from` on, judged on the smallest
    /// values of `xs` and the largest of `ys`: the best case for the order.
    fn can_hold_from(&self, ctx: &PropagationContext<'_>, from: usize) -> Result<bool, Conflict> {
        let (xs, ys) = self.arrays();
        for i in from..xs.len().min(ys.len()) {
            let low = ctx.domain(xs[i]).min().ok_or(Conflict)?;
            let high = ctx.domain(ys[i]).max().ok_or(Conflict)?;
            match low.cmp(&high) {
                Ordering::Less => return Ok(true),
                Ordering::Greater => return Ok(false),
                Ordering::Equal => {}
            }
        }
        Ok(self.ends_in_order())
    }

    /// Whether two arrays equal on their common length are in order.
    fn ends_in_order(&self) -> bool {
        let (xs, ys) = self.arrays();
        xs.len() < ys.len() || (!self.strict && xs.len() == ys.len())
    }
}

impl Constraint for LexLessEq {
    fn scope(&self) -> &[VarId] {
        &self.scope
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
        let (xs, ys) = values.split_at(self.split);
        match xs.cmp(ys) {
            Ordering::Less => true,
            Ordering::Equal => !self.strict,
            Ordering::Greater => false,
        }
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        if ctx.level() == PropagationLevel::None {
            return ctx.check_if_fixed(self);
        }
        let (xs, ys) = self.arrays();
        let common = xs.len().min(ys.len());
        let mut alpha = 0;
        loop {
            // Skip the positions fixed to equal values.
            while alpha < common {
                match (ctx.value(xs[alpha]), ctx.value(ys[alpha])) {
                    (Some(a), Some(b)) if a == b => alpha += 1,
                    _ => break,
                }
            }
            if alpha == common {
                return if self.ends_in_order() {
                    Ok(())
                } else {
                    Err(Conflict)
                };
            }
            let (x, y) = (xs[alpha], ys[alpha]);
            // Equality at α is allowed only if the rest can stay in order.
            let strict = !self.can_hold_from(ctx, alpha + 1)?;
            let gap = i64::from(strict);
            let y_max = ctx.domain(y).max().ok_or(Conflict)?;
            keep_at_most(ctx, x, i64::from(y_max) - gap)?;
            let x_min = ctx.domain(x).min().ok_or(Conflict)?;
            keep_at_least(ctx, y, i64::from(x_min) + gap)?;
            // Pruning may have fixed both to one value: then the next position decides.
            match (ctx.value(x), ctx.value(y)) {
                (Some(a), Some(b)) if a == b => alpha += 1,
                _ => return Ok(()),
            }
        }
    }

    fn wake_on(&self, level: PropagationLevel) -> WakeOn {
        match level {
            PropagationLevel::None => WakeOn::Fixed,
            _ => WakeOn::Bounds,
        }
    }
}
