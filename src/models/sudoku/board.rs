//! A Sudoku's pencil marks: the candidates of each cell, as a person solving by hand keeps
//! them, for the human techniques of [`rating`](super::rating).
//!
//! Cells are numbered row by row from 0; a candidate set is a bitmask (bit `v − 1` for the
//! value `v`), so grids up to 36x36 fit a `u64`. Units are numbered rows first (`0..n`), then
//! columns (`n..2n`), then boxes (`2n..3n`), and named as the model names its constraints
//! (`row 1`, `column 3`, `box 2`).

use std::sync::Arc;

use super::Grid;

/// A set of values, bit `v − 1` for the value `v`.
pub(crate) type Mask = u64;

/// The bit of value `v`.
pub(crate) fn bit(v: u8) -> Mask {
    1 << (v - 1)
}

/// The values of a mask, ascending.
pub(crate) fn values(mut mask: Mask) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let v = mask.trailing_zeros() as u8 + 1;
        mask &= mask - 1;
        Some(v)
    })
}

/// The rows, columns, boxes and peers of a grid size.
#[derive(Debug)]
pub(crate) struct Geometry {
    /// The side `n`.
    pub(crate) n: usize,
    /// The cells of each unit, in reading order.
    pub(crate) units: Vec<Vec<usize>>,
    /// The row, column and box of each cell (unit numbers).
    pub(crate) unit_of: Vec<[usize; 3]>,
    /// The other cells of a cell's row, column and box, each once, ascending.
    pub(crate) peers: Vec<Vec<usize>>,
}

impl Geometry {
    fn new(b: usize) -> Geometry {
        let n = b * b;
        let mut units = vec![Vec::with_capacity(n); 3 * n];
        let mut unit_of = vec![[0; 3]; n * n];
        for (cell, of) in unit_of.iter_mut().enumerate() {
            let (r, c) = (cell / n, cell % n);
            let bx = r / b * b + c / b;
            *of = [r, n + c, 2 * n + bx];
            for u in *of {
                units[u].push(cell);
            }
        }
        let peers = (0..n * n)
            .map(|cell| {
                let mut p: Vec<usize> = unit_of[cell]
                    .iter()
                    .flat_map(|&u| units[u].iter().copied())
                    .filter(|&o| o != cell)
                    .collect();
                p.sort_unstable();
                p.dedup();
                p
            })
            .collect();
        Geometry {
            n,
            units,
            unit_of,
            peers,
        }
    }

    /// Whether two distinct cells share a unit.
    pub(crate) fn sees(&self, a: usize, b: usize) -> bool {
        a != b && {
            let (x, y) = (self.unit_of[a], self.unit_of[b]);
            x[0] == y[0] || x[1] == y[1] || x[2] == y[2]
        }
    }

    /// `r3c4`.
    pub(crate) fn cell_name(&self, cell: usize) -> String {
        format!("r{}c{}", cell / self.n + 1, cell % self.n + 1)
    }

    /// `row 3`, `column 4`, `box 2`.
    pub(crate) fn unit_name(&self, unit: usize) -> String {
        let n = self.n;
        match unit / n {
            0 => format!("row {}", unit + 1),
            1 => format!("column {}", unit - n + 1),
            _ => format!("box {}", unit - 2 * n + 1),
        }
    }
}

/// A grid being solved by hand: the values placed and the candidates of the open cells.
#[derive(Debug, Clone)]
pub(crate) struct Board {
    pub(crate) geo: Arc<Geometry>,
    /// The value of each cell, 0 while open.
    pub(crate) value: Vec<u8>,
    /// The candidates of each open cell (0 for a placed cell).
    pub(crate) cand: Vec<Mask>,
}

impl Board {
    /// The board of `grid`'s givens, each given's value removed from its peers; `None` if two
    /// givens of a unit share a value.
    pub(crate) fn new(grid: &Grid) -> Option<Board> {
        let geo = Arc::new(Geometry::new(grid.box_size()));
        let n = geo.n;
        let all: Mask = if n == 64 { !0 } else { (1 << n) - 1 };
        let mut board = Board {
            value: vec![0; n * n],
            cand: vec![all; n * n],
            geo,
        };
        for (cell, &v) in grid.cells().iter().enumerate() {
            if v != 0 {
                if board.cand[cell] & bit(v) == 0 {
                    return None;
                }
                board.place(cell, v);
            }
        }
        Some(board)
    }

    /// Places `v` in `cell` and removes it from the cell's peers.
    pub(crate) fn place(&mut self, cell: usize, v: u8) {
        self.value[cell] = v;
        self.cand[cell] = 0;
        let geo = Arc::clone(&self.geo);
        for &p in &geo.peers[cell] {
            self.cand[p] &= !bit(v);
        }
    }

    /// Whether every cell has a value.
    pub(crate) fn is_solved(&self) -> bool {
        self.value.iter().all(|&v| v != 0)
    }

    /// Whether the board cannot be completed for a plain reason: an open cell without
    /// candidates, or a value with no place left in a unit that lacks it.
    pub(crate) fn is_broken(&self) -> bool {
        let n = self.geo.n;
        if (0..n * n).any(|c| self.value[c] == 0 && self.cand[c] == 0) {
            return true;
        }
        self.geo.units.iter().any(|unit| {
            let mut seen: Mask = 0;
            for &c in unit {
                seen |= self.cand[c];
                if self.value[c] != 0 {
                    seen |= bit(self.value[c]);
                }
            }
            seen.count_ones() as usize != n
        })
    }

    /// The open cells of `unit` where `v` is a candidate.
    pub(crate) fn places(&self, unit: usize, v: u8) -> impl Iterator<Item = usize> + '_ {
        self.geo.units[unit]
            .iter()
            .copied()
            .filter(move |&c| self.cand[c] & bit(v) != 0)
    }

    /// Whether `unit` already holds `v`.
    pub(crate) fn holds(&self, unit: usize, v: u8) -> bool {
        self.geo.units[unit].iter().any(|&c| self.value[c] == v)
    }
}

/// Calls `f` on each `k`-subset of `items` (in lexicographic order of positions) until it
/// returns `true`; whether one did.
pub(crate) fn any_subset<T: Copy>(items: &[T], k: usize, f: &mut impl FnMut(&[T]) -> bool) -> bool {
    fn go<T: Copy>(
        items: &[T],
        k: usize,
        start: usize,
        chosen: &mut Vec<T>,
        f: &mut impl FnMut(&[T]) -> bool,
    ) -> bool {
        if chosen.len() == k {
            return f(chosen);
        }
        for i in start..items.len() {
            if items.len() - i < k - chosen.len() {
                break;
            }
            chosen.push(items[i]);
            if go(items, k, i + 1, chosen, f) {
                return true;
            }
            chosen.pop();
        }
        false
    }
    go(items, k, 0, &mut Vec::with_capacity(k), f)
}

/// One deduction of a human technique, on board cells.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Found {
    /// The technique.
    pub(crate) technique: super::HumanTechnique,
    /// Its rating on the Sudoku Explainer scale.
    pub(crate) rating: f64,
    /// Values placed: `(cell, value)`.
    pub(crate) placed: Vec<(usize, u8)>,
    /// Candidates removed: `(cell, value)`.
    pub(crate) removed: Vec<(usize, u8)>,
    /// The candidates that make the pattern (for a chain, in the chain's order).
    pub(crate) pattern: Vec<(usize, u8)>,
    /// Why, in Sudoku's words, after the effect (`r1c1 = 5: ` is put before it).
    pub(crate) why: String,
}

impl Board {
    /// Applies a deduction.
    pub(crate) fn apply(&mut self, found: &Found) {
        for &(cell, v) in &found.removed {
            self.cand[cell] &= !bit(v);
        }
        for &(cell, v) in &found.placed {
            if self.value[cell] == 0 {
                self.place(cell, v);
            }
        }
    }

    /// `r1c1 = 5` or `r1c5 ≠ 4 7, r1c6 ≠ 4`: the effect of a deduction.
    pub(crate) fn effect_text(&self, found: &Found) -> String {
        let mut parts: Vec<String> = found
            .placed
            .iter()
            .map(|&(c, v)| format!("{} = {v}", self.geo.cell_name(c)))
            .collect();
        let mut removed = found.removed.clone();
        removed.sort_unstable();
        let mut k = 0;
        while k < removed.len() {
            let cell = removed[k].0;
            let mut end = k;
            let mut vals = Vec::new();
            while end < removed.len() && removed[end].0 == cell {
                vals.push(removed[end].1.to_string());
                end += 1;
            }
            parts.push(format!("{} ≠ {}", self.geo.cell_name(cell), vals.join(" ")));
            k = end;
        }
        parts.join(", ")
    }

    /// `r1c1 r1c2`.
    pub(crate) fn cells_text(&self, cells: &[usize]) -> String {
        cells
            .iter()
            .map(|&c| self.geo.cell_name(c))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// `1 2 3`.
pub(crate) fn mask_text(mask: Mask) -> String {
    values(mask)
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// SE's growth of a chain's rating with its length (the number of candidates it links):
/// 0.1 more each time the length passes 4, 6, 8, 12, 16, 24, 32, 48, … (the threshold grows
/// by 3/2 and 4/3 in turn).
pub(crate) fn length_adder(length: usize) -> f64 {
    let mut added = 0.0;
    let mut ceiling = 4;
    let mut odd = false;
    while length > ceiling {
        added += 0.1;
        ceiling = if odd {
            ceiling * 4 / 3
        } else {
            ceiling * 3 / 2
        };
        odd = !odd;
    }
    added
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// An open 9x9 board, every candidate everywhere, to draw textbook patterns on.
    pub(crate) fn open_board() -> Board {
        Board::new(&Grid::empty(3).expect("9x9")).expect("no givens")
    }

    /// The cell of `r1c1`-style coordinates (from 1).
    pub(crate) fn at(row: usize, col: usize) -> usize {
        (row - 1) * 9 + col - 1
    }

    /// Sets the candidates of a cell.
    pub(crate) fn set(board: &mut Board, row: usize, col: usize, vals: &[u8]) {
        board.cand[at(row, col)] = vals.iter().fold(0, |m, &v| m | bit(v));
    }

    /// Removes `v` from each cell of `cells` (`(row, col)` from 1).
    pub(crate) fn remove(
        board: &mut Board,
        v: u8,
        cells: impl IntoIterator<Item = (usize, usize)>,
    ) {
        for (r, c) in cells {
            board.cand[at(r, c)] &= !bit(v);
        }
    }

    /// The removals, sorted, as `(row, col, value)` from 1.
    pub(crate) fn removals(found: &Found) -> Vec<(usize, usize, u8)> {
        let mut out: Vec<_> = found
            .removed
            .iter()
            .map(|&(c, v)| (c / 9 + 1, c % 9 + 1, v))
            .collect();
        out.sort_unstable();
        out
    }

    #[test]
    fn subsets_are_enumerated_in_order() {
        let mut seen = Vec::new();
        any_subset(&[1, 2, 3, 4], 2, &mut |s| {
            seen.push(s.to_vec());
            false
        });
        assert_eq!(seen.len(), 6);
        assert_eq!(seen[0], [1, 2]);
        assert_eq!(seen[5], [3, 4]);
    }

    #[test]
    fn a_given_leaves_its_peers_and_clashing_givens_are_refused() {
        let mut cells = vec![0u8; 81];
        cells[0] = 5;
        let board = Board::new(&Grid::from_cells(&cells).expect("9x9")).expect("valid");
        assert_eq!(board.cand[1] & bit(5), 0, "same row");
        assert_eq!(board.cand[9 * 4] & bit(5), 0, "same column");
        assert_eq!(board.cand[10] & bit(5), 0, "same box");
        assert_ne!(board.cand[40] & bit(5), 0, "elsewhere");
        cells[8] = 5;
        assert!(Board::new(&Grid::from_cells(&cells).expect("9x9")).is_none());
    }

    #[test]
    fn the_length_adder_grows_at_the_se_thresholds() {
        // Thresholds 4, 6, 8, 12, 16: each passed adds a tenth.
        let at = |l| (length_adder(l) * 10.0_f64).round() as u32;
        assert_eq!(
            [
                at(4),
                at(5),
                at(6),
                at(7),
                at(8),
                at(9),
                at(12),
                at(13),
                at(16),
                at(17)
            ],
            [0, 1, 1, 2, 2, 3, 3, 4, 4, 5]
        );
    }
}
