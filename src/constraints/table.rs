//! Table: the allowed tuples of a scope, listed one by one (an "extensional" constraint).

use std::fmt;

use smallvec::SmallVec;

use crate::constraints::{Conflict, Constraint, PropagationContext, WakeOn};
use crate::error::ModelError;
use crate::ids::VarId;
use crate::kernel::PropagationLevel;

/// The most memory the support bitsets of one table may take; a larger table filters by
/// scanning its tuples instead.
const MAX_SUPPORT_BYTES: usize = 64 << 20;

/// Inline capacity of per-call bitsets, in 64-bit words: tables of up to 1024 tuples (after
/// posting, see below) filter without touching the heap.
const INLINE_WORDS: usize = 16;

/// The values of the scope form one of the given tuples: `(x₀, …, xₙ₋₁) ∈ T`.
///
/// Any relation over a few variables can be written this way, which makes a table the
/// catch-all of constraint modelling: a puzzle's rule given as a list of allowed combinations,
/// a relation computed by another program, a lookup table.
///
/// Propagation, by [`PropagationLevel`] (a tuple is *valid* when each of its values is still
/// in the domain it is for):
///
/// - `None`: fails when no tuple agrees with the values of the fixed variables; prunes
///   nothing. Wakes only when a variable is fixed.
/// - `Forward`: keeps, for each unfixed variable, the values that some tuple agreeing with the
///   fixed variables has in that position; repeated while this fixes new variables. Wakes
///   only when a variable is fixed.
/// - `Full`: generalised arc consistency (domain consistency): a value is kept exactly when
///   some valid tuple uses it, so exactly when some solution of the constraint alone does.
///   One call reaches this fixpoint (the constraint is idempotent).
///
/// Filtering follows the idea of compact-table (J. Demeulenaere, R. Hartert, C. Lecoutre,
/// G. Perez, L. Perron, J.-C. Régin, P. Schaus, "Compact-Table: Efficiently Filtering Table
/// Constraints with Reversible Sparse Bit-Sets", CP 2016): when the table is posted, each
/// (variable, value) pair gets a bitset of the tuples that support it; a call intersects
/// these to get the set of valid tuples, a word at a time, then keeps the values whose
/// support bitset meets it, looking only at the words still non-zero. Unlike compact-table,
/// which keeps the valid set between calls and restores it on backtrack, this constraint
/// recomputes it on each call from the domains (constraints here keep no state of their own),
/// choosing for each variable the cheaper of the values present or the values removed.
///
/// Cost: building the bitsets takes `r·d·t/64` words for `t` tuples over `r` variables with `d`
/// distinct values per position; a call costs at worst about as many word operations, and
/// allocates only for more than 1024 tuples or more than 64 values in a position. Tuples using
/// a value outside the initial domains are dropped when the table is posted. A table whose
/// bitsets would exceed 64 MiB (or one propagated without being posted) filters by scanning
/// all its tuples instead: `O(r·t)` per call, the same pruning at `Full` (at the other levels,
/// the dropped tuples may keep a few more values).
///
/// # Examples
///
/// ```
/// use cspkit::{Model, Table};
///
/// // A domino's two halves: (x, y) with x ≤ y, from a hand-written list.
/// let mut model = Model::new();
/// let x = model.new_var(0..=2)?;
/// let y = model.new_var(0..=2)?;
/// let dominoes = [[0, 0], [0, 1], [0, 2], [1, 1], [1, 2], [2, 2]];
/// model.post(Table::new(&[x, y], dominoes)?)?;
/// model.fix(y, 1)?;
/// let solution = model.solve().solution().unwrap();
/// assert_eq!(solution.values(), [0, 1]);
/// assert_eq!(model.solver().count().solutions, 2); // (0, 1) and (1, 1)
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Table {
    scope: Vec<VarId>,
    /// The allowed tuples, sorted lexicographically without repeats, one after the other:
    /// tuple `k` is `tuples[k * arity..(k + 1) * arity]`.
    tuples: Vec<i32>,
    /// Built by `prepare`; without it, filtering scans `tuples`.
    supports: Option<Supports>,
}

/// For each position of the scope and each value it can take, the tuples that support it.
#[derive(Clone)]
struct Supports {
    /// The number of tuples indexed (those whose values all lie in the initial domains).
    tuples: usize,
    /// Words per bitset: `tuples.div_ceil(64)`.
    words: usize,
    columns: Vec<Column>,
}

/// The supports of one position of the scope.
#[derive(Clone)]
struct Column {
    /// The values this position takes in the indexed tuples, ascending.
    values: Vec<i32>,
    /// `rows[i * words..(i + 1) * words]`: bit `k` is set when indexed tuple `k` has
    /// `values[i]` in this position.
    rows: Vec<u64>,
}

impl Column {
    #[inline]
    fn row(&self, i: usize, words: usize) -> &[u64] {
        &self.rows[i * words..(i + 1) * words]
    }
}

impl Table {
    /// The values of `vars` form one of `tuples` (each tuple lists one value per variable, in
    /// the order of `vars`). Repeated tuples count once; with no tuples at all, the constraint
    /// has no solution.
    ///
    /// # Errors
    ///
    /// [`ModelError::EmptyScope`] if `vars` is empty; [`ModelError::TupleArity`] (naming the
    /// tuple) if a tuple's length differs from the number of variables.
    pub fn new<T: AsRef<[i32]>>(
        vars: &[VarId],
        tuples: impl IntoIterator<Item = T>,
    ) -> Result<Table, ModelError> {
        let arity = vars.len();
        if arity == 0 {
            return Err(ModelError::EmptyScope {
                constraint: "Table".into(),
            });
        }
        let mut flat: Vec<i32> = Vec::new();
        for (k, tuple) in tuples.into_iter().enumerate() {
            let tuple = tuple.as_ref();
            if tuple.len() != arity {
                return Err(ModelError::TupleArity {
                    constraint: "Table".into(),
                    tuple: k,
                    found: tuple.len(),
                    expected: arity,
                });
            }
            flat.extend_from_slice(tuple);
        }
        let mut order: Vec<&[i32]> = flat.chunks_exact(arity).collect();
        order.sort_unstable();
        order.dedup();
        let tuples = order.concat();
        Ok(Table {
            scope: vars.to_vec(),
            tuples,
            supports: None,
        })
    }

    fn arity(&self) -> usize {
        self.scope.len()
    }

    /// The number of distinct tuples.
    pub fn len(&self) -> usize {
        self.tuples.len() / self.arity()
    }

    /// Whether there are no tuples (the constraint can never be satisfied).
    pub fn is_empty(&self) -> bool {
        self.tuples.is_empty()
    }

    fn tuple_list(&self) -> std::slice::ChunksExact<'_, i32> {
        self.tuples.chunks_exact(self.arity())
    }
}

impl Supports {
    /// The supports of the tuples of `table` that fit in `fits`, or `None` if they would take
    /// more than [`MAX_SUPPORT_BYTES`].
    fn build(table: &Table, mut fits: impl FnMut(usize, i32) -> bool) -> Option<Supports> {
        let arity = table.arity();
        let kept: Vec<&[i32]> = table
            .tuple_list()
            .filter(|tuple| tuple.iter().enumerate().all(|(i, &v)| fits(i, v)))
            .collect();
        let words = kept.len().div_ceil(64);
        let mut columns: Vec<Column> = (0..arity)
            .map(|i| {
                let mut values: Vec<i32> = kept.iter().map(|tuple| tuple[i]).collect();
                values.sort_unstable();
                values.dedup();
                Column {
                    values,
                    rows: Vec::new(),
                }
            })
            .collect();
        let rows: usize = columns.iter().map(|c| c.values.len()).sum();
        if rows.saturating_mul(words).saturating_mul(8) > MAX_SUPPORT_BYTES {
            return None;
        }
        for column in &mut columns {
            column.rows = vec![0; column.values.len() * words];
        }
        for (k, tuple) in kept.iter().enumerate() {
            for (column, value) in columns.iter_mut().zip(tuple.iter()) {
                if let Ok(i) = column.values.binary_search(value) {
                    column.rows[i * words + k / 64] |= 1 << (k % 64);
                }
            }
        }
        Some(Supports {
            tuples: kept.len(),
            words,
            columns,
        })
    }
}

impl Constraint for Table {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    /// By the tuples: for each tuple that would support the value (or, for a failure, each
    /// tuple), one value of it that is gone, reusing those already cited.
    fn explain(
        &self,
        inference: crate::kernel::Inference,
        ctx: &crate::kernel::ExplainContext<'_>,
    ) -> Option<Vec<crate::kernel::Literal>> {
        use crate::kernel::{Inference, Literal};
        let arity = self.scope.len();
        let at = match inference {
            Inference::Removed { var, value } => {
                let mut positions = self.scope.iter().enumerate().filter(|(_, v)| **v == var);
                let (k, _) = positions.next()?;
                if positions.next().is_some() {
                    return None;
                }
                Some((k, value))
            }
            Inference::Failed => None,
            Inference::Fixed { .. } => return None,
        };
        let mut reason: Vec<Literal> = Vec::new();
        for tuple in self.tuples.chunks_exact(arity.max(1)) {
            if at.is_some_and(|(k, value)| tuple[k] != value) {
                continue;
            }
            let gone = |i: usize| {
                at.is_none_or(|(k, _)| k != i) && {
                    let var = self.scope[i];
                    !ctx.domain(var).contains(tuple[i])
                }
            };
            let cited = (0..arity)
                .any(|i| gone(i) && reason.contains(&Literal::Ne(self.scope[i], tuple[i])));
            if cited {
                continue;
            }
            let i = (0..arity).find(|&i| gone(i))?;
            if ctx.initial(self.scope[i]).contains(tuple[i]) {
                reason.push(Literal::Ne(self.scope[i], tuple[i]));
            }
        }
        Some(reason)
    }

    fn check(&self, values: &[i32]) -> bool {
        // Binary search over the sorted tuples.
        let arity = self.arity();
        let (mut low, mut high) = (0, self.len());
        while low < high {
            let middle = low + (high - low) / 2;
            match self.tuples[middle * arity..(middle + 1) * arity].cmp(values) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => return true,
            }
        }
        false
    }

    fn prepare(&mut self, model: &crate::ModelView<'_>) -> Result<(), ModelError> {
        let scope = &self.scope;
        self.supports = Supports::build(self, |i, v| model.domain(scope[i]).contains(v));
        Ok(())
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        match &self.supports {
            Some(supports) => self.propagate_with_supports(supports, ctx),
            None => self.propagate_by_scanning(ctx),
        }
    }

    fn wake_on(&self, level: PropagationLevel) -> WakeOn {
        match level {
            PropagationLevel::Full => WakeOn::AnyChange,
            _ => WakeOn::Fixed,
        }
    }

    fn is_idempotent(&self, _level: PropagationLevel) -> bool {
        // `Full` keeps every value of every valid tuple, so the valid tuples stay valid and a
        // second call finds the same set; `Forward` loops until no new variable is fixed.
        true
    }
}

/// A set of tuples as a bitset, with the list of its non-zero words (the "sparse bitset" of
/// compact-table, rebuilt per call).
struct Valid {
    bits: SmallVec<[u64; INLINE_WORDS]>,
    nonzero: SmallVec<[u32; INLINE_WORDS]>,
}

impl Valid {
    fn all(tuples: usize) -> Valid {
        let words = tuples.div_ceil(64);
        let mut bits: SmallVec<[u64; INLINE_WORDS]> = smallvec::smallvec![u64::MAX; words];
        if !tuples.is_multiple_of(64) {
            bits[words - 1] = (1 << (tuples % 64)) - 1;
        }
        Valid {
            bits,
            nonzero: (0..words as u32).collect(),
        }
    }

    fn is_empty(&self) -> bool {
        self.nonzero.is_empty()
    }

    /// Keeps only the tuples of `row`.
    fn intersect(&mut self, row: &[u64]) {
        let bits = &mut self.bits;
        self.nonzero.retain(|w| {
            let w = *w as usize;
            bits[w] &= row[w];
            bits[w] != 0
        });
    }

    /// Keeps only the tuples in the union of `rows` (or, if `complement`, outside it).
    fn intersect_union<'r>(&mut self, rows: impl Iterator<Item = &'r [u64]>, complement: bool) {
        let mut union: SmallVec<[u64; INLINE_WORDS]> = smallvec::smallvec![0; self.bits.len()];
        for row in rows {
            for &w in &self.nonzero {
                union[w as usize] |= row[w as usize];
            }
        }
        let flip = if complement { u64::MAX } else { 0 };
        let bits = &mut self.bits;
        self.nonzero.retain(|w| {
            let w = *w as usize;
            bits[w] &= union[w] ^ flip;
            bits[w] != 0
        });
    }

    /// Whether some tuple of `row` is in the set.
    #[inline]
    fn meets(&self, row: &[u64]) -> bool {
        self.nonzero
            .iter()
            .any(|&w| self.bits[w as usize] & row[w as usize] != 0)
    }
}

impl Table {
    fn propagate_with_supports(
        &self,
        supports: &Supports,
        ctx: &mut PropagationContext<'_>,
    ) -> Result<(), Conflict> {
        let words = supports.words;
        let level = ctx.level();
        let mut valid = Valid::all(supports.tuples);
        if level == PropagationLevel::Full {
            // Valid tuples: for each variable, those whose value is still in its domain.
            for (column, &var) in supports.columns.iter().zip(&self.scope) {
                let domain = ctx.domain(var);
                let present = column
                    .values
                    .iter()
                    .filter(|&&v| domain.contains(v))
                    .count();
                if present == column.values.len() {
                    continue;
                }
                // The rows of a column split the tuples, so the tuples of the removed values
                // are the complement of those of the present ones: use the shorter list.
                let complement = present > column.values.len() - present;
                let rows = column
                    .values
                    .iter()
                    .enumerate()
                    .filter(|&(_, &v)| domain.contains(v) != complement)
                    .map(|(i, _)| column.row(i, words));
                valid.intersect_union(rows, complement);
                if valid.is_empty() {
                    return Err(Conflict);
                }
            }
            if valid.is_empty() {
                return Err(Conflict);
            }
            for (column, &var) in supports.columns.iter().zip(&self.scope) {
                self.keep_supported(ctx, var, column, words, &valid)?;
            }
            return Ok(());
        }
        // `None` and `Forward`: valid tuples are those agreeing with the fixed variables.
        let mut applied: SmallVec<[bool; 16]> = smallvec::smallvec![false; self.arity()];
        let mut first = true;
        loop {
            let mut new_fixed = false;
            for ((column, &var), applied) in
                supports.columns.iter().zip(&self.scope).zip(&mut applied)
            {
                if *applied {
                    continue;
                }
                let Some(value) = ctx.value(var) else {
                    continue;
                };
                let Ok(i) = column.values.binary_search(&value) else {
                    return Err(Conflict);
                };
                valid.intersect(column.row(i, words));
                *applied = true;
                new_fixed = true;
            }
            if valid.is_empty() {
                return Err(Conflict);
            }
            if level == PropagationLevel::None || !(new_fixed || first) {
                return Ok(());
            }
            first = false;
            for ((column, &var), &applied) in supports.columns.iter().zip(&self.scope).zip(&applied)
            {
                if !applied {
                    self.keep_supported(ctx, var, column, words, &valid)?;
                }
            }
        }
    }

    /// Prunes the values of `var` that no tuple of `valid` supports.
    fn keep_supported(
        &self,
        ctx: &mut PropagationContext<'_>,
        var: VarId,
        column: &Column,
        words: usize,
        valid: &Valid,
    ) -> Result<(), Conflict> {
        let domain = ctx.domain(var);
        let keep: SmallVec<[i32; 64]> = column
            .values
            .iter()
            .enumerate()
            .filter(|&(i, &v)| domain.contains(v) && valid.meets(column.row(i, words)))
            .map(|(_, &v)| v)
            .collect();
        if keep.len() < domain.size() {
            ctx.retain_sorted(var, &keep)?;
        }
        Ok(())
    }

    /// The same filtering as [`Table::propagate_with_supports`], by a pass over the tuples.
    fn propagate_by_scanning(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let level = ctx.level();
        loop {
            let fixed: SmallVec<[Option<i32>; 16]> =
                self.scope.iter().map(|&var| ctx.value(var)).collect();
            let mut keep: SmallVec<[Vec<i32>; 16]> = smallvec::smallvec![Vec::new(); self.arity()];
            let mut any = false;
            for tuple in self.tuple_list() {
                let valid = match level {
                    PropagationLevel::Full => self
                        .scope
                        .iter()
                        .zip(tuple)
                        .all(|(&var, &v)| ctx.domain(var).contains(v)),
                    _ => fixed
                        .iter()
                        .zip(tuple)
                        .all(|(f, &v)| f.is_none_or(|f| f == v)),
                };
                if !valid {
                    continue;
                }
                any = true;
                if level == PropagationLevel::None {
                    break;
                }
                for (values, &v) in keep.iter_mut().zip(tuple) {
                    values.push(v);
                }
            }
            if !any {
                return Err(Conflict);
            }
            if level == PropagationLevel::None {
                return Ok(());
            }
            let mut new_fixed = false;
            for ((&var, values), was_fixed) in self.scope.iter().zip(&mut keep).zip(&fixed) {
                if level == PropagationLevel::Forward && was_fixed.is_some() {
                    continue;
                }
                values.sort_unstable();
                values.dedup();
                ctx.retain_sorted(var, values)?;
                new_fixed |= was_fixed.is_none() && ctx.is_fixed(var);
            }
            if level == PropagationLevel::Full || !new_fixed {
                return Ok(());
            }
        }
    }
}

impl fmt::Debug for Table {
    /// The scope and up to 8 tuples; the count of the others.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHOWN: usize = 8;
        struct Tuples<'a>(&'a Table);
        impl fmt::Debug for Tuples<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let mut list = f.debug_list();
                list.entries(self.0.tuple_list().take(SHOWN));
                if self.0.len() > SHOWN {
                    list.entry(&format_args!("… {} more", self.0.len() - SHOWN));
                }
                list.finish()
            }
        }
        f.debug_struct("Table")
            .field("scope", &self.scope)
            .field("tuples", &Tuples(self))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Model;
    use proptest::prelude::*;

    fn propagate(
        table: &Table,
        domains: &[Vec<i32>],
        level: PropagationLevel,
    ) -> Result<Vec<Vec<i32>>, Conflict> {
        crate::constraints::propagate_once(table, domains, level)
    }

    fn posted(domains: &[Vec<i32>], tuples: &[Vec<i32>]) -> (Model, Table) {
        let mut model = Model::new();
        let vars: Vec<VarId> = domains
            .iter()
            .map(|d| model.new_var(d.as_slice()).unwrap())
            .collect();
        let mut table = Table::new(&vars, tuples).unwrap();
        table.prepare(&model.view()).unwrap();
        (model, table)
    }

    #[test]
    fn tuples_of_the_wrong_length_are_rejected_with_their_position() {
        let mut model = Model::new();
        let xs = model.new_vars(2, 0..3).unwrap();
        let err = Table::new(&xs, [vec![1, 2], vec![1, 2, 3]]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "constraint Table: tuple 1 has 3 values, but the scope has 2 variables"
        );
        let none: [[i32; 0]; 0] = [];
        assert!(matches!(
            Table::new(&[], none),
            Err(ModelError::EmptyScope { .. })
        ));
    }

    #[test]
    fn check_accepts_exactly_the_listed_tuples() {
        let mut model = Model::new();
        let xs = model.new_vars(2, 0..3).unwrap();
        let table = Table::new(&xs, [[2, 1], [0, 0], [2, 1], [1, 2]]).unwrap();
        assert_eq!(table.len(), 3);
        for a in -1..4 {
            for b in -1..4 {
                let listed = [[2, 1], [0, 0], [1, 2]].contains(&[a, b]);
                assert_eq!(table.check(&[a, b]), listed, "({a}, {b})");
            }
        }
    }

    #[test]
    fn an_empty_table_fails_at_every_level() {
        let (_, table) = posted(&[vec![1, 2], vec![1, 2]], &[]);
        for level in [
            PropagationLevel::None,
            PropagationLevel::Forward,
            PropagationLevel::Full,
        ] {
            assert_eq!(
                propagate(&table, &[vec![1, 2], vec![1, 2]], level),
                Err(Conflict)
            );
        }
    }

    #[test]
    fn full_keeps_exactly_the_values_of_valid_tuples() {
        let domains = vec![vec![1, 2, 3], vec![1, 2, 3], vec![1, 2, 3]];
        let tuples = vec![vec![1, 2, 3], vec![2, 3, 1], vec![3, 3, 3], vec![1, 1, 2]];
        let (_, table) = posted(&domains, &tuples);
        // With 3 removed from the last variable, only (2, 3, 1) and (1, 1, 2) stay valid.
        let now = vec![vec![1, 2, 3], vec![1, 2, 3], vec![1, 2]];
        assert_eq!(
            propagate(&table, &now, PropagationLevel::Full),
            Ok(vec![vec![1, 2], vec![1, 3], vec![1, 2]])
        );
        // Forward looks only at fixed variables: none here.
        assert_eq!(
            propagate(&table, &now, PropagationLevel::Forward),
            Ok(now.clone())
        );
        // With the first fixed to 3, Forward fixes the others to the only tuple left.
        let fixed = vec![vec![3], vec![1, 2, 3], vec![1, 2, 3]];
        assert_eq!(
            propagate(&table, &fixed, PropagationLevel::Forward),
            Ok(vec![vec![3], vec![3], vec![3]])
        );
        assert_eq!(propagate(&table, &fixed, PropagationLevel::None), Ok(fixed));
    }

    fn domain_strategy() -> impl Strategy<Value = Vec<i32>> {
        proptest::sample::subsequence((-2..=4).collect::<Vec<i32>>(), 1..=4)
    }

    proptest! {
        #[test]
        fn bitsets_and_scanning_prune_the_same_values(
            initial in proptest::collection::vec(domain_strategy(), 1..=4),
            tuples in proptest::collection::vec(proptest::collection::vec(-2i32..=4, 4), 0..150),
            keep in proptest::collection::vec(any::<u8>(), 4),
        ) {
            let arity = initial.len();
            let tuples: Vec<Vec<i32>> = tuples.into_iter().map(|t| t[..arity].to_vec()).collect();
            let (_, indexed) = posted(&initial, &tuples);
            prop_assert!(indexed.supports.is_some());
            // Posting drops the tuples outside the initial domains; scan the same ones.
            let fitting: Vec<Vec<i32>> = tuples
                .iter()
                .filter(|t| t.iter().zip(&initial).all(|(v, d)| d.contains(v)))
                .cloned()
                .collect();
            let mut scanning = Table::new(&indexed.scope, &fitting).unwrap();
            scanning.supports = None;
            // Current domains: subsets of the initial ones, chosen by the bits of `keep`.
            let current: Vec<Vec<i32>> = initial
                .iter()
                .zip(&keep)
                .map(|(values, &bits)| {
                    let kept: Vec<i32> = values
                        .iter()
                        .enumerate()
                        .filter(|&(i, _)| bits >> i & 1 == 1)
                        .map(|(_, &v)| v)
                        .collect();
                    if kept.is_empty() { values.clone() } else { kept }
                })
                .collect();
            for level in [PropagationLevel::None, PropagationLevel::Forward, PropagationLevel::Full] {
                prop_assert_eq!(
                    propagate(&indexed, &current, level),
                    propagate(&scanning, &current, level)
                );
            }
        }
    }
}
