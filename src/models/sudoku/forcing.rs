//! Contradictions: a candidate is false if assuming it true leads, by easier deductions, to a
//! cell without candidates or a value without a place in a unit.
//!
//! - Nishio: the deductions are those of the candidate's value only (it leaves its peers; a
//!   unit with one place left for it takes it there) (SE 7.5 and up, by length);
//! - forcing net: every single (naked or hidden) of every value (SE 8.5 and up);
//! - nested forcing net: the techniques up to the wings, singles included (SE 9.5 and up).
//!
//! Of all candidates, the one whose contradiction comes in the fewest deductions is removed.
//! The candidates of a known solution are not assumed: deductions from a true assumption never
//! break the board, so trying them could only cost time (on the hardest states, most of it:
//! a false assumption usually breaks the board in a few deductions, a true one runs on until
//! the deductions stop).

use super::HumanTechnique;
use super::basic::basic_step;
use super::board::{Board, Found, Mask, bit, length_adder, values};
use super::singles::{full_house, hidden_single, naked_single};

/// Which deductions follow an assumption.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Depth {
    /// One value's placements.
    Nishio,
    /// Singles.
    Singles,
    /// The techniques up to the wings.
    Nested,
}

/// The candidate whose assumption breaks the board in the fewest deductions at `depth`.
/// `answer` is a solution the board's candidates keep (0 for a cell without one), whose
/// values are not assumed.
pub(crate) fn contradiction(board: &Board, depth: Depth, answer: &[u8]) -> Option<Found> {
    let geo = &board.geo;
    let n = geo.n;
    let (technique, base) = match depth {
        Depth::Nishio => (HumanTechnique::Nishio, 7.5),
        Depth::Singles => (HumanTechnique::ForcingNet, 8.5),
        Depth::Nested => (HumanTechnique::NestedForcingNet, 9.5),
    };
    // The cells with the fewest candidates first: their assumptions tend to break the board
    // soonest, and the shortest contradiction found bounds the search of every later one. Of
    // two equally short, the first in reading order is kept, whatever order they were tried in.
    let mut cells: Vec<usize> = (0..n * n).filter(|&c| board.cand[c] != 0).collect();
    cells.sort_by_key(|&c| (board.cand[c].count_ones(), c));
    let mut best: Option<(usize, usize, u8, String)> = None;
    for cell in cells {
        let known = answer
            .get(cell)
            .map_or(0, |&v| if v == 0 { 0 } else { bit(v) });
        for v in values(board.cand[cell] & !known) {
            let limit = best.as_ref().map_or(usize::MAX, |b| {
                // One more allowed if this candidate comes first in reading order.
                b.0 + usize::from((cell, v) < (b.1, b.2))
            });
            if let Some((steps, why)) = assume(board, cell, v, depth, limit) {
                best = Some((steps, cell, v, why));
            }
        }
    }
    let (steps, cell, v, why) = best?;
    Some(Found {
        technique,
        rating: base + length_adder(steps + 1),
        placed: Vec::new(),
        removed: vec![(cell, v)],
        pattern: vec![(cell, v)],
        why: format!(
            "{technique}: if {} were {v}, {} later {why}",
            geo.cell_name(cell),
            match steps {
                1 => "one deduction".to_owned(),
                k => format!("{k} deductions"),
            }
        ),
    })
}

/// Assumes `cell = v` and deduces at `depth`: the number of deductions to a contradiction
/// (fewer than `limit`) and what breaks, or `None`.
fn assume(
    board: &Board,
    cell: usize,
    v: u8,
    depth: Depth,
    limit: usize,
) -> Option<(usize, String)> {
    let mut trial = board.clone();
    trial.place(cell, v);
    let mut steps = 0;
    loop {
        if let Some(why) = broken(&trial, depth, v) {
            let steps = steps.max(1);
            return (steps < limit).then_some((steps, why));
        }
        if steps + 1 >= limit {
            return None;
        }
        let found = match depth {
            Depth::Nishio => value_single(&trial, v),
            Depth::Singles => full_house(&trial)
                .or_else(|| hidden_single(&trial, true))
                .or_else(|| hidden_single(&trial, false))
                .or_else(|| naked_single(&trial)),
            Depth::Nested => basic_step(&trial),
        }?;
        trial.apply(&found);
        steps += 1;
    }
}

/// A unit with one place left for `v`.
fn value_single(board: &Board, v: u8) -> Option<Found> {
    let geo = &board.geo;
    geo.units.iter().enumerate().find_map(|(u, _)| {
        if board.holds(u, v) {
            return None;
        }
        let mut places = board.places(u, v);
        let (Some(cell), None) = (places.next(), places.next()) else {
            return None;
        };
        Some(Found {
            technique: HumanTechnique::HiddenSingle,
            rating: 1.5,
            placed: vec![(cell, v)],
            removed: Vec::new(),
            pattern: vec![(cell, v)],
            why: String::new(),
        })
    })
}

/// What breaks, in words: `r4c5 has no candidate left`, `5 has no place in row 3`. For a
/// Nishio, only `v`'s places count.
fn broken(board: &Board, depth: Depth, v: u8) -> Option<String> {
    let geo = &board.geo;
    let n = geo.n;
    if depth != Depth::Nishio
        && let Some(cell) = (0..n * n).find(|&c| board.value[c] == 0 && board.cand[c] == 0)
    {
        return Some(format!("{} has no candidate left", geo.cell_name(cell)));
    }
    let wanted: Mask = match depth {
        Depth::Nishio => bit(v),
        _ if n == 64 => !0,
        _ => (1 << n) - 1,
    };
    // A value that a unit neither holds nor has a place for: the first unit, the least value.
    geo.units.iter().enumerate().find_map(|(u, unit)| {
        let seen = unit.iter().fold(0, |seen, &c| {
            let placed = if board.value[c] == 0 {
                0
            } else {
                bit(board.value[c])
            };
            seen | board.cand[c] | placed
        });
        let missing = wanted & !seen;
        (missing != 0).then(|| {
            let d = missing.trailing_zeros() + 1;
            format!("{d} has no place left in {}", geo.unit_name(u))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::super::board::tests::{at, open_board, remove};
    use super::*;

    #[test]
    fn a_nishio_removes_a_value_that_leaves_a_column_without_a_place() {
        // 5 fits column 2 only at r2c2 and r3c2, both in box 1. If r1c1 were 5, box 1 would
        // lose its other 5s, and column 2 would have none: r1c1 is not 5 (nor any cell of box
        // 1 outside column 2; r1c1 is the first).
        let mut board = open_board();
        remove(
            &mut board,
            5,
            (1..=9).filter(|r| ![2, 3].contains(r)).map(|r| (r, 2)),
        );
        let found = contradiction(&board, Depth::Nishio, &[]).expect("a Nishio");
        assert_eq!(found.technique, HumanTechnique::Nishio);
        assert_eq!(found.removed, [(at(1, 1), 5)]);
        assert!(
            found.why.contains("5 has no place left in column 2"),
            "{}",
            found.why
        );
    }
}
