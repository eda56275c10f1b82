//! All different: no two variables of the scope take the same value, or no two views of them
//! ([`IntView`](crate::IntView): a constant added, a factor applied) the same view value.

mod explain;
mod general;
mod incremental;
mod regin_wide;
mod small;

use smallvec::SmallVec;

use crate::constraints::{
    Conflict, Constraint, PropagationContext, Propagator, PropagatorSetup, WakeOn,
};
use crate::domain::Domain;
use crate::ids::VarId;
use crate::kernel::propagation::has_repeats;
use crate::kernel::{IntView, PropagationLevel};

/// Inline capacity of per-call scratch vectors: scopes up to this size never touch the heap.
const INLINE: usize = 64;

/// `aᵢ·xᵢ + oᵢ` pairwise distinct, for the variables `xᵢ` of the scope seen through views
/// ([`AllDifferent::over_views`]; `aᵢ = 1`, `oᵢ = 0` for [`AllDifferent::new`]).
///
/// Propagation, by [`PropagationLevel`]:
///
/// - `None`: fails when two fixed variables collide; prunes nothing.
/// - `Forward`: value elimination — the value of each fixed variable is removed from the others,
///   repeated until no new variable gets fixed. Wakes only when a variable is fixed.
/// - `Full`: domain consistency (generalised arc consistency), by Régin's algorithm: a maximum
///   matching between variables and values, then the strongly connected components of the
///   residual graph; a value is kept exactly when some solution of the constraint uses it
///   (J.-C. Régin, "A filtering algorithm for constraints of difference in CSPs", AAAI 1994).
///   This finds every Hall set: a value that fits only one variable is forced there, and `k`
///   variables sharing `k` values take those values from all others.
///
/// Cost: when all shifted values of the scope lie within 64 consecutive integers (Sudoku up to
/// 64x64, N-Queens columns up to 64), every level works on `u64` masks with no heap allocation.
/// In a search, the constraint runs through a [propagator with state](crate::Propagator):
///
/// - `None` and `Forward` keep, in two [reversible](crate::Reversible) words, the values of the
///   fixed variables already dealt with and the positions of the unfixed ones; a run reads only
///   the variables fixed since the last one ([`PropagationContext::changes`]) and visits only
///   the unfixed variables, one word operation each (O(unfixed) per run instead of O(n)).
/// - `Full` runs the stateless Régin filtering on masks, O(n²) word operations at worst for the
///   matching plus O(n + d) for the components over the unfixed variables. (A matching kept
///   across calls and repaired where its values were removed measured 7% slower on Sudoku,
///   where the greedy matching is rarely wrong: see `bench/engine.md`.)
///
/// Views with a factor other than 1 (`−x`, `2x`) are handled by the general algorithms below
/// (their values are not one contiguous window of each variable's word).
///
/// Wider value ranges (N-Queens diagonals and anti-diagonals beyond 32 queens, `n` variables
/// over `1..=n`): `Forward` removes the value of each newly fixed variable from the unfixed ones
/// (kept as a sparse set whose size is reversible), O(unfixed) domain operations per fixed
/// variable. `Full` does the same first, then runs Régin's algorithm only over the variables
/// that can belong to a Hall set: of `k` unfixed variables, a Hall set other than all of them
/// lies among those of size at most the largest `h < k` that at least `h` sizes do not exceed,
/// and when there is no such `h` nothing is left to prune. The value graph is read from the
/// domains' words (no list of edges for dense domains), the matching of the last run is
/// repaired rather than rebuilt, and a lower bound on each size is kept so that a run measures
/// only the domains that another constraint changed. One `AllDifferent` over 10,000 variables
/// over `1..=10000`, first solution in input order, takes as long as forward checking; see
/// `general.rs` for the costs.
///
/// The stateless [`propagate`](crate::Constraint::propagate) computes the same pruning from the
/// domains alone, on every call; it runs outside a search and is the reference the propagators
/// are tested against, node for node.
///
/// # Examples
///
/// ```
/// use cspkit::{AllDifferent, Model};
///
/// // Three variables, values 1..=3, the first two limited to {1, 2}: the third must be 3.
/// let mut model = Model::new();
/// let x = model.new_var([1, 2])?;
/// let y = model.new_var([1, 2])?;
/// let z = model.new_var(1..=3)?;
/// model.post(AllDifferent::new(&[x, y, z]))?;
/// let solution = model.solve().solution().unwrap();
/// assert_eq!(solution.values(), [1, 2, 3]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct AllDifferent {
    scope: Vec<VarId>,
    /// One per variable; empty when all are zero.
    offsets: Vec<i32>,
    /// One per variable; empty when all are one.
    scales: Vec<i32>,
    /// When the initial domains fit a 64-value window: for each variable, the value its bit 0
    /// stands for (the window's base minus the offset). Set by `prepare`; empty otherwise.
    window_bases: Vec<i32>,
    /// Whether a variable appears at two positions (`x` and `x + 2`): then forward checking
    /// takes the path that rereads every fixed position, and no propagator is made.
    repeated: bool,
}

impl AllDifferent {
    /// All of `vars` take different values.
    pub fn new(vars: &[VarId]) -> Self {
        AllDifferent {
            scope: vars.to_vec(),
            offsets: Vec::new(),
            scales: Vec::new(),
            window_bases: Vec::new(),
            repeated: has_repeats(vars),
        }
    }

    /// The values `vars[i] + offsets[i]` are all different.
    ///
    /// With offsets `0, 1, 2, …` over the queens of N-Queens (one variable per row holding its
    /// column), this says that no two queens share an anti-diagonal (`q[i] + i`); with offsets
    /// `0, −1, −2, …`, a diagonal (`q[i] − i`).
    ///
    /// # Errors
    ///
    /// [`ModelError::InvalidConstraint`](crate::ModelError::InvalidConstraint) if the two slices
    /// differ in length.
    pub fn with_offsets(vars: &[VarId], offsets: &[i32]) -> Result<Self, crate::ModelError> {
        if vars.len() != offsets.len() {
            return Err(crate::ModelError::InvalidConstraint {
                constraint: "AllDifferent".into(),
                reason: format!("{} variables but {} offsets", vars.len(), offsets.len()),
            });
        }
        let offsets = if offsets.iter().all(|&o| o == 0) {
            Vec::new()
        } else {
            offsets.to_vec()
        };
        Ok(AllDifferent {
            scope: vars.to_vec(),
            offsets,
            scales: Vec::new(),
            window_bases: Vec::new(),
            repeated: has_repeats(vars),
        })
    }

    /// The view values `views[i]` pairwise distinct: `q[i].offset(-i)` and `q[i].offset(i)` for
    /// the diagonals and anti-diagonals of N-Queens, `x.minus()`, `x.scale(2).offset(1)`, or
    /// plain variables.
    ///
    /// Offset views (factor 1) keep every fast path of [`AllDifferent::new`]; other factors go
    /// through the general algorithms.
    ///
    /// # Errors
    ///
    /// [`ModelError::InvalidConstraint`](crate::ModelError::InvalidConstraint) if a view's factor
    /// or constant is outside the `i32` range (views built from `i32` arguments can compose
    /// beyond it).
    pub fn over_views(views: &[IntView]) -> Result<Self, crate::ModelError> {
        let narrow = |value: i64, what: &str| {
            i32::try_from(value).map_err(|_| crate::ModelError::InvalidConstraint {
                constraint: "AllDifferent".into(),
                reason: format!("a view's {what} {value} is outside the i32 range"),
            })
        };
        let scope: Vec<VarId> = views.iter().map(IntView::var).collect();
        let offsets = views
            .iter()
            .map(|v| narrow(v.constant(), "constant"))
            .collect::<Result<Vec<i32>, _>>()?;
        let scales = views
            .iter()
            .map(|v| narrow(v.factor(), "factor"))
            .collect::<Result<Vec<i32>, _>>()?;
        let mut constraint = AllDifferent::with_offsets(&scope, &offsets)?;
        if scales.iter().any(|&a| a != 1) {
            constraint.scales = scales;
        }
        Ok(constraint)
    }

    /// The views of the scope.
    pub fn views(&self) -> Vec<IntView> {
        self.scope
            .iter()
            .enumerate()
            .map(|(i, &var)| {
                let scale = self.scales.get(i).copied().unwrap_or(1);
                let offset = self.offsets.get(i).copied().unwrap_or(0);
                var.scale(scale).offset(offset)
            })
            .collect()
    }

    /// The offset of position `i` (for the paths where every factor is 1).
    #[inline]
    fn offset(&self, i: usize) -> i64 {
        self.offsets.get(i).map_or(0, |&o| i64::from(o))
    }

    /// The key (view value) of value `v` at position `i`: `aᵢ·v + oᵢ`, exact in `i64`.
    #[inline]
    fn key(&self, i: usize, v: i32) -> i64 {
        let scale = self.scales.get(i).map_or(1, |&a| i64::from(a));
        scale * i64::from(v) + self.offset(i)
    }

    /// The value at position `i` whose key is `key`, if there is one.
    #[inline]
    fn value_of(&self, i: usize, key: i64) -> Option<i32> {
        let scale = self.scales.get(i).map_or(1, |&a| i64::from(a));
        let shifted = key - self.offset(i);
        (shifted % scale == 0)
            .then(|| shifted / scale)
            .and_then(|v| i32::try_from(v).ok())
    }

    /// The smallest and the largest shifted value (`v + oᵢ`) over the given domains.
    fn key_range<'d>(
        &self,
        mut domain: impl FnMut(VarId) -> &'d Domain,
    ) -> Result<(i64, i64), Conflict> {
        let (mut low, mut high) = (i64::MAX, i64::MIN);
        for (i, &var) in self.scope.iter().enumerate() {
            let d = domain(var);
            let (min, max) = (d.min().ok_or(Conflict)?, d.max().ok_or(Conflict)?);
            let (a, b) = (self.key(i, min), self.key(i, max));
            low = low.min(a.min(b));
            high = high.max(a.max(b));
        }
        Ok((low, high))
    }

    /// If the shifted values `low..=high` fit one 64-value window: for each variable, the value
    /// its bit 0 stands for (the window's base minus the variable's offset).
    fn window_bases(&self, low: i64, high: i64) -> Option<SmallVec<[i32; INLINE]>> {
        if high - low >= 64 || !self.scales.is_empty() {
            return None;
        }
        (0..self.scope.len())
            .map(|i| i32::try_from(low - self.offset(i)).ok())
            .collect()
    }
}

impl Constraint for AllDifferent {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn distinct_views(&self) -> Option<Vec<IntView>> {
        Some(self.views())
    }

    /// By Hall sets: the positions that take all the values between them, or, for a failure,
    /// have too few (see `explain.rs`).
    fn explain(
        &self,
        inference: crate::kernel::Inference,
        ctx: &crate::kernel::ExplainContext<'_>,
    ) -> Option<Vec<crate::kernel::Literal>> {
        self.hall_reason(inference, ctx)
    }

    fn check(&self, values: &[i32]) -> bool {
        let mut keys: SmallVec<[i64; INLINE]> = values
            .iter()
            .enumerate()
            .map(|(i, &v)| self.key(i, v))
            .collect();
        keys.sort_unstable();
        keys.windows(2).all(|pair| pair[0] != pair[1])
    }

    fn prepare(&mut self, model: &crate::ModelView<'_>) -> Result<(), crate::ModelError> {
        self.window_bases.clear();
        if let Ok((low, high)) = self.key_range(|var| model.domain(var)) {
            self.window_bases = self
                .window_bases(low, high)
                .map_or_else(Vec::new, |b| b.to_vec());
        }
        Ok(())
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let level = ctx.level();
        if self.repeated && level != PropagationLevel::Full {
            // Pruning one position of a variable fixes its others too: only the loop that
            // rereads every fixed position sees them all.
            return match level {
                PropagationLevel::None => self.check_fixed_values(ctx),
                _ => self.forward_sparse(ctx),
            };
        }
        // The window found by `prepare` holds for good; without one (a constraint not posted on
        // a model, or wide initial domains), see whether the current domains fit one.
        if !self.window_bases.is_empty() {
            return self.propagate_window(ctx, &self.window_bases, level);
        }
        let (low, high) = self.key_range(|var| ctx.domain(var))?;
        if let Some(bases) = self.window_bases(low, high) {
            return self.propagate_window(ctx, &bases, level);
        }
        match level {
            PropagationLevel::None => self.check_fixed_values(ctx),
            PropagationLevel::Forward => self.forward_general(ctx, low, high),
            PropagationLevel::Full => self.regin_general(ctx),
        }
    }

    fn wake_on(&self, level: PropagationLevel) -> WakeOn {
        match level {
            PropagationLevel::Full => WakeOn::AnyChange,
            _ => WakeOn::Fixed,
        }
    }

    fn propagator(&self, setup: &mut PropagatorSetup<'_>) -> Option<Box<dyn Propagator + '_>> {
        if self.repeated {
            return None;
        }
        incremental::create(self, setup)
    }

    fn is_idempotent(&self, _level: PropagationLevel) -> bool {
        // None prunes nothing; Forward loops until no new variable is fixed; Full leaves every
        // remaining value in some maximum matching, which the next call would find again.
        true
    }
}

/// The widest span of shifted values that forward checking marks in a bitset (128 KiB).
const MAX_MARKED_SPAN: usize = 1 << 20;

/// Bits `start..start + 64` of a bitset (zero beyond its end); `start` is not negative.
fn bits_at(words: &[u64], start: i64) -> u64 {
    let (word, shift) = ((start / 64) as usize, (start % 64) as u32);
    let low = words.get(word).map_or(0, |&w| w >> shift);
    let high = match shift {
        0 => 0,
        _ => words.get(word + 1).map_or(0, |&w| w << (64 - shift)),
    };
    low | high
}

/// Fails if two fixed variables (single-bit masks) share a value.
fn check_fixed_masks(masks: &[u64]) -> Result<(), Conflict> {
    let mut seen = 0u64;
    for &m in masks {
        if m.is_power_of_two() {
            if seen & m != 0 {
                return Err(Conflict);
            }
            seen |= m;
        }
    }
    Ok(())
}

impl AllDifferent {
    /// Propagation when every shifted value lies in one 64-value window: the domains become
    /// `u64` masks on the stack, and only the masks that changed are written back.
    #[inline]
    fn propagate_window(
        &self,
        ctx: &mut PropagationContext<'_>,
        bases: &[i32],
        level: PropagationLevel,
    ) -> Result<(), Conflict> {
        match self.scope.len() {
            0..=16 => self.propagate_masks::<16>(ctx, bases, level),
            17..=64 => self.propagate_masks::<64>(ctx, bases, level),
            // More than 64 variables cannot take distinct values among 64.
            _ => Err(Conflict),
        }
    }

    /// [`propagate_window`](Self::propagate_window) with room for `N` variables.
    #[inline]
    fn propagate_masks<const N: usize>(
        &self,
        ctx: &mut PropagationContext<'_>,
        bases: &[i32],
        level: PropagationLevel,
    ) -> Result<(), Conflict> {
        let n = self.scope.len();
        let mut masks = [0u64; N];
        for ((mask, &var), &base) in masks.iter_mut().zip(&self.scope).zip(bases) {
            *mask = match ctx.small(var) {
                // A one-word domain whose values start at the window's base: its word.
                Some((offset, word)) if offset == base => word,
                _ => ctx.domain(var).window(base),
            };
        }
        let mut changed = match level {
            PropagationLevel::None => return check_fixed_masks(&masks[..n]),
            PropagationLevel::Forward => small::forward(&mut masks[..n])?,
            PropagationLevel::Full => small::regin(&mut masks[..n])?,
        };
        while changed != 0 {
            let i = changed.trailing_zeros() as usize;
            changed &= changed - 1;
            let var = self.scope[i];
            match ctx.small(var) {
                Some((offset, word)) if offset == bases[i] => {
                    ctx.prune_small(var, word & !masks[i])?;
                }
                _ => {
                    ctx.retain_window(var, bases[i], masks[i])?;
                }
            }
        }
        Ok(())
    }

    /// The shifted values of the fixed variables, sorted; fails on a repeat.
    fn fixed_keys(
        &self,
        ctx: &PropagationContext<'_>,
    ) -> Result<SmallVec<[i64; INLINE]>, Conflict> {
        let mut keys: SmallVec<[i64; INLINE]> = self
            .scope
            .iter()
            .enumerate()
            .filter_map(|(i, &var)| Some(self.key(i, ctx.value(var)?)))
            .collect();
        keys.sort_unstable();
        if keys.windows(2).any(|pair| pair[0] == pair[1]) {
            return Err(Conflict);
        }
        Ok(keys)
    }

    fn check_fixed_values(&self, ctx: &PropagationContext<'_>) -> Result<(), Conflict> {
        self.fixed_keys(ctx).map(|_| ())
    }

    /// Value elimination when the shifted values span more than 64 integers (`low..=high`):
    /// the values of the fixed variables are marked in a bitset over that span, and each
    /// unfixed variable loses them one value at a time while they are few, a 64-value window at a
    /// time once they are many. Later passes remove only the values of the variables the
    /// previous pass fixed.
    fn forward_general(
        &self,
        ctx: &mut PropagationContext<'_>,
        low: i64,
        high: i64,
    ) -> Result<(), Conflict> {
        let span = (high - low + 1) as usize;
        if span > MAX_MARKED_SPAN || !self.scales.is_empty() {
            return self.forward_sparse(ctx);
        }
        let mut taken: SmallVec<[u64; 16]> = smallvec::smallvec![0; span.div_ceil(64)];
        // Marks a value as taken; fails if it already was.
        let mark = |taken: &mut [u64], key: i64| -> Result<(), Conflict> {
            let k = (key - low) as usize;
            let bit = 1 << (k % 64);
            if taken[k / 64] & bit != 0 {
                return Err(Conflict);
            }
            taken[k / 64] |= bit;
            Ok(())
        };
        let mut removing: SmallVec<[i64; INLINE]> = SmallVec::new();
        for (i, &var) in self.scope.iter().enumerate() {
            if let Some(value) = ctx.value(var) {
                let key = i64::from(value) + self.offset(i);
                mark(&mut taken, key)?;
                removing.push(key);
            }
        }
        while !removing.is_empty() {
            let mut newly_fixed: SmallVec<[i64; INLINE]> = SmallVec::new();
            for (i, &var) in self.scope.iter().enumerate() {
                let domain = ctx.domain(var);
                if domain.is_fixed() {
                    continue;
                }
                let offset = self.offset(i);
                let (min, max) = (domain.min().ok_or(Conflict)?, domain.max().ok_or(Conflict)?);
                let windows = (i64::from(max) - i64::from(min)) as usize / 64 + 1;
                if removing.len() <= windows {
                    for &key in &removing {
                        if let Ok(value) = i32::try_from(key - offset) {
                            ctx.remove(var, value)?;
                        }
                    }
                } else {
                    let mut base = i64::from(min);
                    while base <= i64::from(max) {
                        let gone = bits_at(&taken, base + offset - low);
                        ctx.retain_window(var, base as i32, !gone)?;
                        base += 64;
                    }
                }
                if let Some(value) = ctx.value(var) {
                    let key = i64::from(value) + offset;
                    mark(&mut taken, key)?;
                    newly_fixed.push(key);
                }
            }
            removing = newly_fixed;
        }
        Ok(())
    }

    /// Value elimination on sorted value lists, for spans too wide to mark in a bitset.
    fn forward_sparse(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        loop {
            let fixed = self.fixed_keys(ctx)?;
            let mut newly_fixed = false;
            for (i, &var) in self.scope.iter().enumerate() {
                if ctx.is_fixed(var) {
                    continue;
                }
                for &key in &fixed {
                    if let Some(value) = self.value_of(i, key) {
                        ctx.remove(var, value)?;
                    }
                }
                newly_fixed |= ctx.is_fixed(var);
            }
            if !newly_fixed {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn masks(sets: &[&[u32]]) -> Vec<u64> {
        sets.iter()
            .map(|s| s.iter().fold(0u64, |m, &b| m | 1 << b))
            .collect()
    }

    /// `n` queens, with every column number and offset multiplied by `scale`: for a scale above
    /// 6 the shifted values no longer fit 64 integers, and the wide-domain code runs.
    fn scaled_queens(n: i32, scale: i32) -> crate::Model {
        let mut model = crate::Model::new();
        let columns: Vec<i32> = (0..n).map(|c| c * scale).collect();
        let rows: Vec<VarId> = (0..n)
            .map(|_| model.new_var(columns.clone()).unwrap())
            .collect();
        let up: Vec<i32> = (0..n).map(|i| i * scale).collect();
        let down: Vec<i32> = (0..n).map(|i| -i * scale).collect();
        model.post(AllDifferent::new(&rows)).unwrap();
        model
            .post(AllDifferent::with_offsets(&rows, &up).unwrap())
            .unwrap();
        model
            .post(AllDifferent::with_offsets(&rows, &down).unwrap())
            .unwrap();
        model
    }

    #[test]
    fn wide_domains_prune_exactly_as_masks_do() {
        // Same counts, and the same search tree node for node: the wide-domain propagation
        // (incremental forward checking, general Régin) removes what the mask version removes.
        for level in [
            PropagationLevel::None,
            PropagationLevel::Forward,
            PropagationLevel::Full,
        ] {
            let narrow = scaled_queens(9, 1);
            let wide = scaled_queens(9, 40);
            let count = |model: &crate::Model| {
                let mut solver = model
                    .solver()
                    .with_propagation(level)
                    .with_variable_order(crate::SmallestDomain);
                let count = solver.count();
                (
                    count.solutions,
                    solver.stats().decisions,
                    solver.stats().failures,
                )
            };
            let (solutions, nodes, failures) = count(&narrow);
            assert_eq!(solutions, 352, "{level:?}");
            assert_eq!(count(&wide), (solutions, nodes, failures), "{level:?}");
        }
    }

    #[test]
    fn forward_removes_fixed_values_until_nothing_new_is_fixed() {
        let mut m = masks(&[&[1], &[1, 2], &[1, 2, 3], &[1, 2, 3, 4]]);
        small::forward(&mut m).unwrap();
        assert_eq!(m, masks(&[&[1], &[2], &[3], &[4]]));
        let mut m = masks(&[&[1], &[1]]);
        assert_eq!(small::forward(&mut m), Err(Conflict));
    }

    #[test]
    fn regin_forces_a_value_that_fits_only_one_variable() {
        // Value 3 fits only the last variable; a pair {1, 2} is a Hall set for the first two.
        let mut m = masks(&[&[1, 2], &[1, 2], &[1, 2, 3, 4], &[1, 2, 4, 5]]);
        small::regin(&mut m).unwrap();
        assert_eq!(m, masks(&[&[1, 2], &[1, 2], &[3, 4], &[4, 5]]));
        let mut m = masks(&[&[1, 2, 3], &[1, 2], &[1, 2], &[1, 2, 3, 4]]);
        small::regin(&mut m).unwrap();
        assert_eq!(m, masks(&[&[3], &[1, 2], &[1, 2], &[4]]));
    }

    #[test]
    fn regin_fails_when_no_matching_covers_every_variable() {
        let mut m = masks(&[&[1, 2], &[1, 2], &[1, 2], &[3, 4, 5]]);
        assert_eq!(small::regin(&mut m), Err(Conflict));
    }

    /// The domains left by the stateless `propagate` at `Full` of one `AllDifferent` over
    /// variables with `sets` of values multiplied by `spread` (above 1 the values no longer fit
    /// a 64-value window, and the general filtering runs), as masks of the original values;
    /// `None` on a conflict.
    fn full_general(sets: &[&[u32]], spread: i32) -> Option<Vec<u64>> {
        let mut model = crate::Model::new();
        let vars: Vec<VarId> = sets
            .iter()
            .map(|s| {
                let values: Vec<i32> = s.iter().map(|&v| v as i32 * spread).collect();
                model.new_var(values).unwrap()
            })
            .collect();
        let constraint = AllDifferent::new(&vars);
        let mut domains: Vec<Domain> = vars.iter().map(|&v| model.domain(v).clone()).collect();
        crate::kernel::Sandbox::new()
            .propagate_once(&constraint, &mut domains, PropagationLevel::Full)
            .ok()?;
        Some(
            domains
                .iter()
                .map(|d| d.iter().fold(0u64, |m, v| m | 1 << (v / spread)))
                .collect(),
        )
    }

    #[test]
    fn general_regin_agrees_with_the_mask_version() {
        let cases: &[&[&[u32]]] = &[
            &[&[1, 2], &[1, 2], &[1, 2, 3, 4], &[1, 2, 4, 5]],
            &[&[1, 2, 3], &[1, 2], &[1, 2], &[1, 2, 3, 4]],
            &[&[0, 5, 9], &[5, 9], &[0, 9], &[0, 1, 2]],
            &[&[1, 2], &[1, 2], &[1, 2]],
            &[&[1, 2], &[1, 2], &[3, 4], &[3, 4], &[1, 2, 3, 4, 5, 6, 7]],
            &[&[3], &[3, 4], &[4, 5, 6], &[1, 2, 3, 4, 5, 6]],
        ];
        for sets in cases {
            let mut m = masks(sets);
            let small = small::regin(&mut m).ok().map(|_| m);
            for spread in [1, 7, 100, 1000] {
                assert_eq!(
                    small,
                    full_general(sets, spread),
                    "{sets:?}, spread {spread}"
                );
            }
        }
    }

    #[test]
    fn hall_bound_finds_the_largest_possible_hall_set_below_all() {
        let mut counts = Vec::new();
        let bound = |sizes: &[usize], counts: &mut Vec<u32>| {
            general::hall_bound(sizes.iter().copied(), sizes.len(), counts)
        };
        // n variables of size n: no Hall set but all of them.
        assert_eq!(bound(&[5; 5], &mut counts), 0);
        // Two of size 2: a pair can be one.
        assert_eq!(bound(&[2, 2, 5, 5, 5], &mut counts), 2);
        assert_eq!(bound(&[2, 3, 5, 5, 5], &mut counts), 0);
        // Three of size at most 3, and four of size at most 4.
        assert_eq!(bound(&[2, 3, 3, 4, 9, 9], &mut counts), 4);
        // Every size below the count: any proper subset could be one.
        assert_eq!(bound(&[2, 2, 2], &mut counts), 2);
        assert_eq!(bound(&[7], &mut counts), 0);
    }

    /// The model of an [`Instance`], every value and offset multiplied by `spread`.
    fn random_model(
        domains: &[Vec<i32>],
        constraints: &[(Vec<usize>, Vec<i32>)],
        spread: i32,
    ) -> crate::Model {
        let mut model = crate::Model::new();
        let vars: Vec<VarId> = domains
            .iter()
            .map(|d| {
                let values: Vec<i32> = d.iter().map(|v| v * spread).collect();
                model.new_var(values).unwrap()
            })
            .collect();
        for (scope, offsets) in constraints {
            let scope: Vec<VarId> = scope.iter().map(|&i| vars[i]).collect();
            let offsets: Vec<i32> = offsets.iter().map(|o| o * spread).collect();
            model
                .post(AllDifferent::with_offsets(&scope, &offsets).unwrap())
                .unwrap();
        }
        model
    }

    /// Domains, and constraints as a scope (variable indices) with offsets.
    type Instance = (Vec<Vec<i32>>, Vec<(Vec<usize>, Vec<i32>)>);

    /// 8 to 24 variables (domains of 2 to 8 values among `0..n + 4`) and one to three
    /// `AllDifferent` constraints over random parts of them, with offsets of at most 2.
    fn random_instance() -> impl Strategy<Value = Instance> {
        (8usize..=24).prop_flat_map(|n| {
            let domain =
                proptest::sample::subsequence((0..n as i32 + 4).collect::<Vec<_>>(), 2..=8);
            let constraint = proptest::sample::subsequence((0..n).collect::<Vec<_>>(), 2..=n)
                .prop_flat_map(|scope| {
                    let len = scope.len();
                    (Just(scope), proptest::collection::vec(-2i32..=2, len))
                });
            (
                proptest::collection::vec(domain, n),
                proptest::collection::vec(constraint, 1..=3),
            )
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Full propagation on wide values (the propagator with its kept matching and size
        /// bounds) prunes at every node of a search exactly what the mask version prunes on
        /// the same model in a 64-value window: the same solutions, decisions and failures,
        /// under two variable orders.
        #[test]
        fn wide_full_propagation_searches_exactly_as_the_masks_do(
            (domains, constraints) in random_instance(),
        ) {
            for smallest in [false, true] {
                let run = |spread: i32| {
                    let model = random_model(&domains, &constraints, spread);
                    let order: Box<dyn crate::VariableOrder> = if smallest {
                        Box::new(crate::SmallestDomain)
                    } else {
                        Box::new(crate::InputOrder)
                    };
                    let mut solver = model
                        .solver()
                        .with_propagation(PropagationLevel::Full)
                        .with_variable_order(order)
                        .with_decision_limit(3000);
                    let solutions: Vec<Vec<i32>> = solver
                        .solutions()
                        .take(20)
                        .map(|s| s.values().iter().map(|v| v / spread).collect())
                        .collect();
                    let stats = solver.stats();
                    (solutions, stats.decisions, stats.failures)
                };
                prop_assert_eq!(run(1), run(50), "smallest domain first: {}", smallest);
            }
        }
    }

    /// 64 to 120 variables over `0..n`: most with about three values in four, some groups
    /// of them sharing a few values (Hall sets, and near ones), some with a few values.
    fn dense_instance() -> impl Strategy<Value = Vec<Vec<i32>>> {
        (64usize..=120, any::<u64>()).prop_map(|(n, seed)| {
            let mut random = crate::util::random::SplitMix64::new(seed);
            let top = n as i32;
            let mut domains: Vec<Vec<i32>> = (0..n)
                .map(|_| (0..top).filter(|_| !random.chance(1, 4)).collect())
                .collect();
            // `count` distinct values of `0..top`, by a partial shuffle.
            let pick = |count: usize, random: &mut crate::util::random::SplitMix64| {
                let mut pool: Vec<i32> = (0..top).collect();
                for k in 0..count {
                    let j = k + random.below((pool.len() - k) as u64) as usize;
                    pool.swap(k, j);
                }
                pool.truncate(count);
                pool
            };
            let mut next = 0;
            while next + 12 < n && random.chance(3, 4) {
                let size = 2 + random.below(10) as usize;
                let values = pick(size + random.below(3) as usize, &mut random);
                for domain in &mut domains[next..next + size] {
                    *domain = values.clone();
                }
                next += size + random.below(8) as usize;
            }
            for domain in &mut domains {
                if random.chance(1, 16) {
                    *domain = pick(2 + random.below(3) as usize, &mut random);
                }
                domain.sort_unstable();
                if domain.is_empty() {
                    domain.push(0);
                }
            }
            domains
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// On dense domains, Régin's filtering peels the large components off a word at a time;
        /// on sparse ones (the same values spread out) it finds them edge by edge, on sorted
        /// lists or bitsets. All three prune the same at every node of a search.
        #[test]
        fn dense_and_sparse_filtering_prune_the_same(domains in dense_instance()) {
            let run = |spread: i32| {
                let n = domains.len();
                let constraints = [((0..n).collect::<Vec<_>>(), vec![0; n])];
                let model = random_model(&domains, &constraints, spread);
                let mut solver = model
                    .solver()
                    .with_propagation(PropagationLevel::Full)
                    .with_decision_limit(150);
                let solutions: Vec<Vec<i32>> = solver
                    .solutions()
                    .take(3)
                    .map(|s| s.values().iter().map(|v| v / spread).collect())
                    .collect();
                let stats = solver.stats();
                (solutions, stats.decisions, stats.failures, stats.propagations)
            };
            let dense = run(1);
            prop_assert_eq!(&dense, &run(3));
            prop_assert_eq!(&dense, &run(70));
        }
    }
}
