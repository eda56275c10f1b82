//! All different: no two variables of the scope take the same value, or no two views of them
//! ([`IntView`](crate::IntView): a constant added, a factor applied) the same view value.

mod general;
mod incremental;
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
/// Wider value ranges (N-Queens diagonals and anti-diagonals beyond 32 queens): `Forward` removes the value of
/// each newly fixed variable from the unfixed ones (kept as a sparse set whose size is
/// reversible), O(unfixed) domain operations per fixed variable; `Full` uses a general
/// implementation on sorted value lists that allocates per call.
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

    fn regin_general(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let n = self.scope.len();
        let candidates = self.regin_candidates(ctx);
        // Value nodes: the distinct shifted values, sorted; edges: each variable's candidates.
        let mut keys: Vec<i64> = candidates.iter().flatten().copied().collect();
        keys.sort_unstable();
        keys.dedup();
        let adjacency: Vec<Vec<u32>> = candidates
            .iter()
            .map(|values| {
                values
                    .iter()
                    .map(|key| keys.binary_search(key).unwrap_or(0) as u32)
                    .collect()
            })
            .collect();
        let keep = general::regin(&adjacency, keys.len()).ok_or(Conflict)?;
        for (i, &var) in self.scope.iter().enumerate() {
            let doomed: Vec<i32> = adjacency[i]
                .iter()
                .zip(&keep[i])
                .filter(|&(_, &kept)| !kept)
                .filter_map(|(&k, _)| self.value_of(i, keys[k as usize]))
                .collect();
            for value in doomed {
                ctx.remove(var, value)?;
            }
        }
        debug_assert_eq!(adjacency.len(), n);
        Ok(())
    }

    /// The shifted values (keys) of each variable that Régin's graph needs. A variable with
    /// fewer than `n` values (`n` the scope's length) brings all of them. A variable with `n`
    /// or more brings its keys that some smaller variable also has, and `n` of its other keys:
    /// whatever the others take, it keeps a free one, so its keys that no smaller variable has
    /// are never pruned and the graph stays small however wide the domains are. The pruning is
    /// the same as on the whole graph: a matching that uses a left-out key can trade it for one
    /// of the `n` kept ones.
    fn regin_candidates(&self, ctx: &PropagationContext<'_>) -> Vec<SmallVec<[i64; INLINE]>> {
        let n = self.scope.len();
        let keys_of = |i: usize| {
            ctx.domain(self.scope[i])
                .iter()
                .map(move |v| self.key(i, v))
        };
        let is_big = |i: usize| ctx.domain(self.scope[i]).size() >= n;
        let mut shared: Vec<i64> = (0..n).filter(|&i| !is_big(i)).flat_map(keys_of).collect();
        shared.sort_unstable();
        shared.dedup();
        (0..n)
            .map(|i| {
                if !is_big(i) {
                    return keys_of(i).collect();
                }
                let domain = ctx.domain(self.scope[i]);
                let in_domain = |&key: &i64| {
                    self.value_of(i, key)
                        .is_some_and(|value| domain.contains(value))
                };
                let mut keys: SmallVec<[i64; INLINE]> =
                    shared.iter().copied().filter(in_domain).collect();
                let others = keys_of(i).filter(|key| shared.binary_search(key).is_err());
                keys.extend(others.take(n));
                keys.sort_unstable();
                keys
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
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

    #[test]
    fn general_regin_agrees_with_the_mask_version() {
        let cases: &[&[&[u32]]] = &[
            &[&[1, 2], &[1, 2], &[1, 2, 3, 4], &[1, 2, 4, 5]],
            &[&[1, 2, 3], &[1, 2], &[1, 2], &[1, 2, 3, 4]],
            &[&[0, 5, 9], &[5, 9], &[0, 9], &[0, 1, 2]],
            &[&[1, 2], &[1, 2], &[1, 2]],
        ];
        for sets in cases {
            let mut m = masks(sets);
            let small = small::regin(&mut m).ok().map(|_| m);
            let adjacency: Vec<Vec<u32>> = sets.iter().map(|s| s.to_vec()).collect();
            let general = general::regin(&adjacency, 64).map(|keep| {
                adjacency
                    .iter()
                    .zip(keep)
                    .map(|(edges, kept)| {
                        edges
                            .iter()
                            .zip(kept)
                            .filter(|&(_, k)| k)
                            .fold(0u64, |m, (&b, _)| m | 1 << b)
                    })
                    .collect::<Vec<_>>()
            });
            assert_eq!(small, general, "{sets:?}");
        }
    }
}
