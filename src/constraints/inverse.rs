//! Two arrays that are inverse permutations of each other.

use smallvec::SmallVec;

use crate::constraints::bounds::{keep_at_least, keep_at_most};
use crate::constraints::{
    AllDifferent, Conflict, Constraint, PropagationContext, WakeOn, check_then_any_change,
};
use crate::error::ModelError;
use crate::ids::VarId;
use crate::kernel::{ModelView, PropagationLevel};

/// `f[i] = j ⇔ g[j] = i`: `f` and `g` are permutations, each the inverse of the other. The
/// channel between two viewpoints of one problem ("which position holds item i" and "which
/// item is at position j"), MiniZinc's `inverse`.
///
/// Indices count from 0 ([`new`](Inverse::new)) or from given bases
/// ([`with_bases`](Inverse::with_bases): MiniZinc's arrays count from 1).
///
/// Propagation, by [`PropagationLevel`]:
///
/// - `None`: fails when the whole scope is fixed to values that violate it.
/// - `Forward` and `Full`: arc consistency of the channel (each value `j` of `f[i]` is kept
///   only while `g[j]` can be `i`, and the reverse; values outside the index ranges removed),
///   together with [`AllDifferent`] on `f` and on `g` at the same level (both are
///   permutations; at `Full`, Régin's matching), to their common fixpoint. O(n²) per pass of
///   the channel, plus all-different's cost.
///
/// # Examples
///
/// ```
/// use cspkit::{Inverse, Model};
///
/// let mut model = Model::new();
/// let f = model.new_vars(3, 0..=2)?;
/// let g = model.new_vars(3, 0..=2)?;
/// model.post(Inverse::new(&f, &g)?)?;
/// // One solution per permutation of three items.
/// assert_eq!(model.solver().count().solutions, 6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Inverse {
    /// `f` then `g`.
    scope: Vec<VarId>,
    /// `f` and `g` each take distinct values.
    different: [AllDifferent; 2],
    f_base: i64,
    g_base: i64,
}

impl Inverse {
    /// `f[i] = j ⇔ g[j] = i`, indices from 0.
    ///
    /// # Errors
    ///
    /// [`ModelError::InvalidConstraint`] if the arrays differ in length.
    pub fn new(f: &[VarId], g: &[VarId]) -> Result<Inverse, ModelError> {
        Inverse::with_bases(f, 0, g, 0)
    }

    /// `f[i] = j ⇔ g[j] = i`, where `f`'s positions count from `f_base` (the values of `g`)
    /// and `g`'s from `g_base` (the values of `f`).
    ///
    /// # Errors
    ///
    /// [`ModelError::InvalidConstraint`] if the arrays differ in length.
    pub fn with_bases(
        f: &[VarId],
        f_base: i32,
        g: &[VarId],
        g_base: i32,
    ) -> Result<Inverse, ModelError> {
        if f.len() != g.len() {
            return Err(ModelError::InvalidConstraint {
                constraint: "Inverse".into(),
                reason: format!(
                    "the arrays differ in length ({} and {}): no permutation maps one onto the \
                     other",
                    f.len(),
                    g.len()
                ),
            });
        }
        let mut scope = f.to_vec();
        scope.extend_from_slice(g);
        Ok(Inverse {
            scope,
            different: [AllDifferent::new(f), AllDifferent::new(g)],
            f_base: i64::from(f_base),
            g_base: i64::from(g_base),
        })
    }

    fn len(&self) -> usize {
        self.scope.len() / 2
    }

    /// One pass over one side: keeps a value `v` of `side[i]` only while the other side's
    /// variable at `v` can hold `i`. Returns whether it pruned.
    fn revise(
        &self,
        ctx: &mut PropagationContext<'_>,
        side: &[VarId],
        other: &[VarId],
        side_base: i64,
        other_base: i64,
    ) -> Result<bool, Conflict> {
        let n = self.len() as i64;
        let mut changed = false;
        for (i, &var) in side.iter().enumerate() {
            changed |= keep_at_least(ctx, var, other_base)?;
            changed |= keep_at_most(ctx, var, other_base + n - 1)?;
            let me = side_base + i as i64;
            let values: SmallVec<[i32; 64]> = ctx.domain(var).iter().collect();
            for v in values {
                let target = other[(i64::from(v) - other_base) as usize];
                let back = i32::try_from(me).ok();
                if !back.is_some_and(|back| ctx.domain(target).contains(back)) {
                    changed |= ctx.remove(var, v)?;
                }
            }
        }
        Ok(changed)
    }
}

impl Constraint for Inverse {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    /// A value `v` of `f[i]` outside `g`'s positions needs no reason; one whose partner
    /// `g[v]` had lost `i` has that removal as its reason (`g[v] ≠ i`), and the same the
    /// other way round. Else a Hall set of the side's permutation (as
    /// [`AllDifferent`](crate::AllDifferent) explains it), and failing that the scope's
    /// domains cut down by the constraint's own propagation
    /// ([`minimized_reason`](crate::kernel::minimized_reason)).
    fn explain(
        &self,
        inference: crate::kernel::Inference,
        ctx: &crate::kernel::ExplainContext<'_>,
    ) -> Option<Vec<crate::kernel::Literal>> {
        use crate::kernel::{Inference, Literal};
        if let Inference::Removed { var, value } = inference
            && let Some(at) = self.scope.iter().position(|&v| v == var)
        {
            let n = self.len();
            let (f, g) = self.scope.split_at(n);
            let (me, other, other_base) = if at < n {
                (self.f_base + at as i64, g, self.g_base)
            } else {
                (self.g_base + (at - n) as i64, f, self.f_base)
            };
            let position = i64::from(value) - other_base;
            if !(0..n as i64).contains(&position) {
                return Some(Vec::new());
            }
            let partner = other[position as usize];
            let Ok(back) = i32::try_from(me) else {
                return Some(Vec::new());
            };
            if !ctx.initial(partner).contains(back) {
                return Some(Vec::new());
            }
            if !ctx.domain(partner).contains(back) {
                return Some(vec![Literal::Ne(partner, back)]);
            }
            // The value went by a Hall set of this side; or the run took `back` from the
            // partner first (a Hall set of the other side), then this value through the
            // channel, and the other side's reason for that removal is the reason.
            let mine = usize::from(at >= n);
            return [
                (var, value, &self.different[mine]),
                (partner, back, &self.different[1 - mine]),
            ]
            .into_iter()
            .find_map(|(var, value, different)| {
                different.explain(Inference::Removed { var, value }, ctx)
            })
            .or_else(|| crate::kernel::minimized_reason(self, inference, ctx));
        }
        // Each side is a permutation: a Hall set of one side is a reason here too.
        let side = match inference {
            Inference::Removed { var, .. } | Inference::Fixed { var, .. } => {
                let at = self.scope.iter().position(|&v| v == var)?;
                std::slice::from_ref(&self.different[usize::from(at >= self.len())])
            }
            Inference::Failed => &self.different[..],
        };
        side.iter()
            .find_map(|different| different.explain(inference, ctx))
            .or_else(|| crate::kernel::minimized_reason(self, inference, ctx))
    }

    fn check(&self, values: &[i32]) -> bool {
        let (f, g) = values.split_at(self.len());
        let n = self.len() as i64;
        let maps = |side: &[i32], other: &[i32], side_base: i64, other_base: i64| {
            side.iter().enumerate().all(|(i, &v)| {
                let j = i64::from(v) - other_base;
                (0..n).contains(&j) && i64::from(other[j as usize]) == side_base + i as i64
            })
        };
        maps(f, g, self.f_base, self.g_base) && maps(g, f, self.g_base, self.f_base)
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        if ctx.level() == PropagationLevel::None {
            return ctx.check_if_fixed(self);
        }
        let (f, g) = self.scope.split_at(self.len());
        loop {
            let mut changed = self.revise(ctx, f, g, self.f_base, self.g_base)?;
            changed |= self.revise(ctx, g, f, self.g_base, self.f_base)?;
            if !changed {
                // The channel is at its fixpoint: the permutations' own reasoning next.
                let before: usize = self.scope.iter().map(|&v| ctx.domain(v).size()).sum();
                for different in &self.different {
                    if !different.scope().is_empty() {
                        different.propagate(ctx)?;
                    }
                }
                let after: usize = self.scope.iter().map(|&v| ctx.domain(v).size()).sum();
                if after == before {
                    return Ok(());
                }
            }
        }
    }

    fn prepare(&mut self, model: &ModelView<'_>) -> Result<(), ModelError> {
        for different in &mut self.different {
            different.prepare(model)?;
        }
        Ok(())
    }

    fn wake_on(&self, level: PropagationLevel) -> WakeOn {
        check_then_any_change(level)
    }

    fn is_idempotent(&self, level: PropagationLevel) -> bool {
        level != PropagationLevel::None
    }
}
