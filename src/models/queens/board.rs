//! [`NonAttacking`]: the whole N-Queens rule as one constraint, with a propagator that keeps the
//! board's taken columns and diagonals in three words, as a bitboard solver does.
//!
//! This is a model-level constraint written on the crate's public API only (the extension
//! point of `docs/custom-constraints.md`): what a user would write to make one model fast. It
//! measures what the generic kernel leaves on the table for N-Queens (`bench/engine.md`): the
//! three [`AllDifferent`](crate::AllDifferent) constraints of [`Queens::new`](super::Queens::new)
//! each run on every fixing and each write the domains they prune, where this constraint runs
//! once and writes each open row at most once.

use crate::{
    Conflict, Constraint, PropagationContext, PropagationLevel, Propagator, PropagatorSetup,
    Reversible, VarId, WakeOn,
};

/// No two of the rows attack each other: `q[i] ≠ q[j]`, `q[i] − i ≠ q[j] − j` and
/// `q[i] + i ≠ q[j] + j` for every pair of positions `i < j` of the scope (its order gives the
/// rows).
///
/// Its strength is forward checking at every level but [`PropagationLevel::None`], where it
/// only checks the fixed rows: the value of each fixed row is removed from the other rows'
/// column and both diagonals, to a fixpoint. Full propagation does not add Régin's filtering
/// of the three all-different constraints; use [`Queens::new`](super::Queens::new) for that.
///
/// On boards of at most 32 rows whose domains lie within 32 consecutive values (any N-Queens
/// board up to 32), the search runs a propagator that keeps the taken columns, diagonals and
/// anti-diagonals in three reversible words; elsewhere it runs [`Constraint::propagate`].
#[derive(Debug, Clone)]
pub struct NonAttacking {
    rows: Vec<VarId>,
}

impl NonAttacking {
    /// The rule over `rows`, in order.
    pub fn new(rows: &[VarId]) -> NonAttacking {
        NonAttacking {
            rows: rows.to_vec(),
        }
    }
}

/// Whether queens on rows `i` and `j` in columns `a` and `b` attack each other.
fn attack(i: usize, a: i32, j: usize, b: i32) -> bool {
    let gap = i64::try_from(j.abs_diff(i)).unwrap_or(i64::MAX);
    a == b || (i64::from(a) - i64::from(b)).abs() == gap
}

impl Constraint for NonAttacking {
    fn scope(&self) -> &[VarId] {
        &self.rows
    }

    fn check(&self, values: &[i32]) -> bool {
        (0..values.len())
            .all(|i| (i + 1..values.len()).all(|j| !attack(i, values[i], j, values[j])))
    }

    /// The reference: checks the fixed rows against each other, then (above `None`) removes
    /// the squares they attack from the open rows, and again for the rows that leaves fixed.
    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        loop {
            let fixed: Vec<(usize, i32)> = (0..self.rows.len())
                .filter_map(|i| ctx.value(self.rows[i]).map(|v| (i, v)))
                .collect();
            for (k, &(i, a)) in fixed.iter().enumerate() {
                if fixed[k + 1..].iter().any(|&(j, b)| attack(i, a, j, b)) {
                    return Err(Conflict);
                }
            }
            if ctx.level() == PropagationLevel::None {
                return Ok(());
            }
            let mut fixed_more = false;
            for (j, &row) in self.rows.iter().enumerate() {
                if ctx.is_fixed(row) {
                    continue;
                }
                ctx.retain(row, |b| fixed.iter().all(|&(i, a)| !attack(i, a, j, b)))?;
                fixed_more |= ctx.is_fixed(row);
            }
            if !fixed_more {
                return Ok(());
            }
        }
    }

    fn wake_on(&self, _: PropagationLevel) -> WakeOn {
        WakeOn::Fixed
    }

    fn is_idempotent(&self, _: PropagationLevel) -> bool {
        true
    }

    fn propagator(&self, setup: &mut PropagatorSetup<'_>) -> Option<Box<dyn Propagator + '_>> {
        let n = self.rows.len();
        let base = self
            .rows
            .iter()
            .map(|&row| setup.domain(row).min())
            .min()??;
        let top = self
            .rows
            .iter()
            .map(|&row| setup.domain(row).max())
            .max()??;
        if n > 32 || i64::from(top) - i64::from(base) >= 32 {
            return None;
        }
        Some(Box::new(Bitboard {
            rows: &self.rows,
            base,
            prune: setup.level() != PropagationLevel::None,
            columns: setup.reversible(0),
            diagonals: setup.reversible(0),
            anti_diagonals: setup.reversible(0),
            open: setup.reversible(0),
        }))
    }

    fn name(&self) -> &str {
        "no two queens attack"
    }
}

/// The propagator: the squares taken by the rows already placed, as three words, and the
/// open rows as a fourth.
///
/// Column bit `k` is value `base + k`. A queen on row `i` at bit `k` takes column bit `k`,
/// diagonal bit `k − i + (n − 1)` and anti-diagonal bit `k + i` (at most 62, since there are
/// at most 32 rows and 32 values). Row `j` then loses the bits of
/// `columns | diagonals >> (n − 1 − j) | anti_diagonals >> j`: one write per open row.
#[derive(Debug)]
struct Bitboard<'a> {
    rows: &'a [VarId],
    base: i32,
    prune: bool,
    columns: Reversible<u64>,
    diagonals: Reversible<u64>,
    anti_diagonals: Reversible<u64>,
    /// The rows not placed yet.
    open: Reversible<u64>,
}

/// The taken squares, as the propagator works on them between two reads of its state.
struct Taken {
    columns: u64,
    diagonals: u64,
    anti_diagonals: u64,
}

impl Taken {
    /// Places a queen on row `i` (of `n`) at column bit `k`, or reports that it is attacked.
    fn place(&mut self, n: usize, i: usize, k: u32) -> Result<(), Conflict> {
        let (column, diagonal, anti) = (
            1u64 << k,
            1u64 << (k as usize + n - 1 - i),
            1u64 << (k as usize + i),
        );
        if self.columns & column != 0
            || self.diagonals & diagonal != 0
            || self.anti_diagonals & anti != 0
        {
            return Err(Conflict);
        }
        self.columns |= column;
        self.diagonals |= diagonal;
        self.anti_diagonals |= anti;
        Ok(())
    }

    /// The column bits row `j` (of `n`) may no longer take.
    fn attacked(&self, n: usize, j: usize) -> u64 {
        self.columns | self.diagonals >> (n - 1 - j) | self.anti_diagonals >> j
    }
}

impl Bitboard<'_> {
    /// The column bit of fixed row `i`.
    fn bit(&self, ctx: &PropagationContext<'_>, i: usize) -> Option<u32> {
        let word = ctx.domain(self.rows[i]).window(self.base);
        word.is_power_of_two().then(|| word.trailing_zeros())
    }
}

impl Propagator for Bitboard<'_> {
    fn propagate(&mut self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let n = self.rows.len();
        let mut open = ctx.get(self.open);
        let mut taken = Taken {
            columns: ctx.get(self.columns),
            diagonals: ctx.get(self.diagonals),
            anti_diagonals: ctx.get(self.anti_diagonals),
        };
        // The rows fixed since the last run (every row, at the root).
        let mut placing = match ctx.changes() {
            Some(changes) => changes.iter().fold(0u64, |m, c| m | 1 << c.position),
            None => {
                // Rebuilt from the domains alone, as the first run of a search must.
                open = (1u64 << n) - 1;
                taken = Taken {
                    columns: 0,
                    diagonals: 0,
                    anti_diagonals: 0,
                };
                (0..n)
                    .filter(|&i| ctx.is_fixed(self.rows[i]))
                    .fold(0, |m, i| m | 1 << i)
            }
        } & open;
        // Each pass places the rows found fixed, then takes the squares they attack from the
        // open rows; the rows that leaves with one square are placed by the next pass.
        while placing != 0 {
            let mut rest = placing;
            while rest != 0 {
                let i = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let k = self.bit(ctx, i).ok_or(Conflict)?;
                taken.place(n, i, k)?;
            }
            open &= !placing;
            placing = 0;
            if !self.prune {
                break;
            }
            let mut rest = open;
            while rest != 0 {
                let j = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let attacked = taken.attacked(n, j);
                if ctx.retain_window(self.rows[j], self.base, !attacked)?
                    && ctx.is_fixed(self.rows[j])
                {
                    placing |= 1 << j;
                }
            }
        }
        ctx.set(self.open, open);
        ctx.set(self.columns, taken.columns);
        ctx.set(self.diagonals, taken.diagonals);
        ctx.set(self.anti_diagonals, taken.anti_diagonals);
        Ok(())
    }
}
