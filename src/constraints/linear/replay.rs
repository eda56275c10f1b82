//! Reasons for what a linear equality's propagation drew over several passes, found by
//! replaying them.
//!
//! One run of `=` tightens bounds pass after pass, each pass from the bounds the one before
//! left: a value removed by the third pass rests on bounds that no domain had when the run
//! began, so the bounds the run saw do not explain it. The replay runs the passes again from
//! those domains, keeping each pass's bounds, and explains a bound by the other terms' bounds
//! of the pass before, themselves explained the same way back to the domains the run saw, and
//! by the values the bound jumped over (holes of the domain). This is the reason lazy clause
//! generation would have built, had each pass's bounds been literals of their own.

use rustc_hash::FxHashSet;

use super::{Kind, Linear};
use crate::ids::VarId;
use crate::kernel::{ExplainContext, Inference, Literal};

/// The most passes replayed; a run that took more is left to minimizing.
const MAX_PASSES: usize = 64;

/// The longest reason built (the holes of wide domains can be many); past it, minimizing.
const MAX_LITERALS: usize = 4096;

/// A side of a term's bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Side {
    Low,
    High,
}

/// The bounds of every term after each pass (pass 0: the domains the run saw), and the bounds
/// each pass computed before they were moved onto values of the domains.
struct Passes {
    lows: Vec<Vec<i64>>,
    highs: Vec<Vec<i64>>,
    computed_lows: Vec<Vec<i64>>,
    computed_highs: Vec<Vec<i64>>,
    /// The pass whose bounds cannot reach the right-hand side, and whether their least sum is
    /// above it (else their greatest is below it).
    failed: Option<(usize, bool)>,
}

impl Passes {
    fn bound(&self, side: Side, pass: usize, term: usize) -> i64 {
        match side {
            Side::Low => self.lows[pass][term],
            Side::High => self.highs[pass][term],
        }
    }
}

impl Linear {
    /// The reason of an inference of `=` drawn by bounds over several passes, or `None` (not
    /// an equality, or drawn otherwise: by the support filter, or a domain emptied).
    pub(super) fn replay_reason(
        &self,
        inference: Inference,
        ctx: &ExplainContext<'_>,
    ) -> Option<Vec<Literal>> {
        if self.kind != Kind::Eq || self.invalid.is_some() || self.infeasible {
            return None;
        }
        let passes = self.replay(ctx)?;
        let mut reason = Reason {
            linear: self,
            ctx,
            passes: &passes,
            done: FxHashSet::default(),
            literals: Vec::new(),
        };
        match inference {
            Inference::Removed { var, value } => {
                let k = self.scope.iter().position(|&v| v == var)?;
                let value = i64::from(value);
                let (side, pass) = (1..passes.lows.len()).find_map(|p| {
                    if value > passes.highs[p][k] {
                        Some((Side::High, p))
                    } else if value < passes.lows[p][k] {
                        Some((Side::Low, p))
                    } else {
                        None
                    }
                })?;
                reason.need(k, side, pass)?;
            }
            Inference::Failed => {
                let (pass, least_above) = passes.failed?;
                for term in 0..self.scope.len() {
                    reason.need(term, self.contribution(term, least_above), pass)?;
                }
            }
            Inference::Fixed { .. } => return None,
        }
        Some(reason.literals)
    }

    /// The side of term `term`'s bounds that gives its least contribution (`least`) or its
    /// greatest.
    fn contribution(&self, term: usize, least: bool) -> Side {
        if (self.coefficients[term] > 0) == least {
            Side::Low
        } else {
            Side::High
        }
    }

    /// The passes of bounds propagation from the domains of `ctx`, as
    /// `equality_bounds_pass` makes them; `None` if a domain empties or the passes do not end.
    fn replay(&self, ctx: &ExplainContext<'_>) -> Option<Passes> {
        let domains: Vec<_> = self.scope.iter().map(|&var| ctx.domain(var)).collect();
        let mut passes = Passes {
            lows: vec![
                domains
                    .iter()
                    .map(|d| d.min().map(i64::from))
                    .collect::<Option<_>>()?,
            ],
            highs: vec![
                domains
                    .iter()
                    .map(|d| d.max().map(i64::from))
                    .collect::<Option<_>>()?,
            ],
            computed_lows: vec![Vec::new()],
            computed_highs: vec![Vec::new()],
            failed: None,
        };
        let rhs = i128::from(self.rhs);
        for pass in 0..=MAX_PASSES {
            let (lows, highs) = (&passes.lows[pass], &passes.highs[pass]);
            let (mut least, mut most) = (0i128, 0i128);
            for (i, &a) in self.coefficients.iter().enumerate() {
                let a = i128::from(a);
                let (p, q) = (a * i128::from(lows[i]), a * i128::from(highs[i]));
                least += p.min(q);
                most += p.max(q);
            }
            if least > rhs || most < rhs {
                passes.failed = Some((pass, least > rhs));
                return Some(passes);
            }
            if pass == MAX_PASSES {
                return None;
            }
            let (above, below) = (rhs - least, most - rhs);
            let mut next = (lows.clone(), highs.clone());
            let mut computed = (Vec::new(), Vec::new());
            let mut changed = false;
            for (i, &a) in self.coefficients.iter().enumerate() {
                let a = i128::from(a);
                let (min, max) = (i128::from(lows[i]), i128::from(highs[i]));
                let (up, down) = if a > 0 {
                    (min + above / a, max - below / a)
                } else {
                    (min - below / a, max + above / a)
                };
                // Moved onto the domain's values, as `remove_above` and `remove_below` do.
                if up < max {
                    let below_up = i32::try_from(up + 1).ok().and_then(|u| domains[i].below(u));
                    next.1[i] = i64::from(below_up?);
                    changed = true;
                }
                if down > min {
                    let above_down = i32::try_from(down - 1)
                        .ok()
                        .and_then(|d| domains[i].above(d));
                    next.0[i] = i64::from(above_down?);
                    changed = true;
                }
                if next.0[i] > next.1[i] {
                    return None;
                }
                computed
                    .0
                    .push(down.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64);
                computed
                    .1
                    .push(up.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64);
            }
            if !changed {
                return Some(passes);
            }
            passes.lows.push(next.0);
            passes.highs.push(next.1);
            passes.computed_lows.push(computed.0);
            passes.computed_highs.push(computed.1);
        }
        None
    }
}

/// A reason under construction: each bound needed, explained once.
struct Reason<'a> {
    linear: &'a Linear,
    ctx: &'a ExplainContext<'a>,
    passes: &'a Passes,
    done: FxHashSet<(usize, Side, usize)>,
    literals: Vec<Literal>,
}

impl Reason<'_> {
    /// Adds what makes term `term`'s bound on `side` after pass `pass` hold; `None` past
    /// [`MAX_LITERALS`].
    fn need(&mut self, term: usize, side: Side, pass: usize) -> Option<()> {
        let mut work = vec![(term, side, pass)];
        while let Some((term, side, pass)) = work.pop() {
            let passes = self.passes;
            let value = passes.bound(side, pass, term);
            // The pass that made the bound: the first that has it (bounds only tighten).
            let made = (0..=pass)
                .find(|&p| passes.bound(side, p, term) == value)
                .unwrap_or(pass);
            if !self.done.insert((term, side, made)) {
                continue;
            }
            let var = self.linear.scope[term];
            let value = value as i32; // a value of the domain
            if made == 0 {
                self.seen_bound(var, side, value);
                continue;
            }
            // The values between the bound computed and the bound kept: holes of the domain.
            let initial = self.ctx.initial(var);
            let (mut hole, end) = match side {
                Side::Low => {
                    let from = passes.computed_lows[made][term].max(i64::from(i32::MIN)) as i32;
                    (initial.above(from.saturating_sub(1)), value)
                }
                Side::High => {
                    let to = passes.computed_highs[made][term].min(i64::from(i32::MAX)) as i32;
                    (initial.above(value), to.saturating_add(1))
                }
            };
            while let Some(v) = hole.filter(|&v| v < end) {
                if self.literals.len() >= MAX_LITERALS {
                    return None;
                }
                self.literals.push(Literal::Ne(var, v));
                hole = initial.above(v);
            }
            // The other terms' least contributions bound this one from above when its
            // coefficient is positive (and from below when negative); their greatest, the
            // other way round.
            let positive = self.linear.coefficients[term] > 0;
            let least = (side == Side::High) == positive;
            for other in 0..self.linear.scope.len() {
                if other != term {
                    work.push((other, self.linear.contribution(other, least), made - 1));
                }
            }
        }
        Some(())
    }

    /// The literal of a bound the run saw, unless the initial domain has it already.
    fn seen_bound(&mut self, var: VarId, side: Side, value: i32) {
        let initial = self.ctx.initial(var);
        match side {
            Side::Low if initial.min().is_some_and(|min| min < value) => {
                self.literals.push(Literal::Ge(var, value));
            }
            Side::High if initial.max().is_some_and(|max| max > value) => {
                self.literals.push(Literal::Le(var, value));
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::Constraint;
    use crate::kernel::{propagate_alone, reason_implies};
    use crate::util::random::SplitMix64;
    use crate::{Comparison, Domain, Model, PropagationLevel};

    /// Random equalities over three variables, on random domains with holes: every reason the
    /// replay gives holds in the domains it was drawn from and implies its inference again, and
    /// some of them explain what the bounds the run saw do not (the passes after the first).
    #[test]
    fn replayed_reasons_hold_and_imply_what_they_explain() {
        let mut random = SplitMix64::new(41);
        let (mut replayed, mut beyond_first_pass) = (0, 0);
        for _ in 0..3000 {
            let mut model = Model::new();
            let vars = model.new_vars(3, -4..=8).unwrap();
            let terms: Vec<(i64, VarId)> = vars
                .iter()
                .map(|&var| {
                    let a = i64::from(random.value_in(1..=3));
                    (if random.chance(1, 2) { a } else { -a }, var)
                })
                .collect();
            let mut linear = Linear::new(&terms, Comparison::Eq, random.value_in(-8..=12).into());
            linear.prepare(&model.view()).unwrap();
            let initial: Vec<Domain> = vars.iter().map(|&v| model.domain(v).clone()).collect();
            let seen: Vec<Domain> = (0..3)
                .map(|_| {
                    let values: Vec<i32> = (-4..=8).filter(|_| random.chance(2, 3)).collect();
                    Domain::from_values(values).unwrap_or_else(|_| Domain::range(0, 0).unwrap())
                })
                .collect();
            let mut after = seen.clone();
            let inferences: Vec<Inference> =
                match propagate_alone(&linear, &mut after, PropagationLevel::Full) {
                    Err(_) => vec![Inference::Failed],
                    Ok(_) => vars
                        .iter()
                        .flat_map(|&var| {
                            let (before, now) = (&seen[var.index()], &after[var.index()]);
                            before
                                .iter()
                                .filter(|&v| !now.contains(v))
                                .map(move |value| Inference::Removed { var, value })
                        })
                        .collect(),
                };
            let ctx = ExplainContext::new(&initial, &seen);
            for inference in inferences {
                let Some(reason) = linear.replay_reason(inference, &ctx) else {
                    continue;
                };
                for literal in &reason {
                    assert!(
                        literal.holds_in(&seen[literal.var().index()]),
                        "{literal} on {seen:?}"
                    );
                }
                assert!(
                    reason_implies(&linear, &initial, &reason, inference),
                    "{terms:?}: {reason:?} does not imply {inference:?} on {seen:?}"
                );
                replayed += 1;
                if linear.bounds_reason(inference, &ctx).is_none() {
                    beyond_first_pass += 1;
                }
            }
        }
        assert!(
            replayed > 100 && beyond_first_pass > 10,
            "{replayed}, {beyond_first_pass}"
        );
    }
}
