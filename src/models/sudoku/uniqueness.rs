//! Uniqueness techniques: deductions that rest on the puzzle having one solution, not on the
//! rules alone, so they are used only when asked ([`Sudoku::with_uniqueness`]) and only on a
//! puzzle whose solution has been proved unique.
//!
//! - Unique rectangle, type 1 (SE 4.5): four open cells at the corners of a rectangle over two
//!   rows, two columns and two boxes; three hold exactly the same two candidates `a b`, the
//!   fourth holds both and more. Were the fourth `a` or `b`, the four cells would hold `a` and
//!   `b` crosswise and could swap them: two solutions. So `a` and `b` leave the fourth.
//! - BUG+1 (bivalue universal grave plus one, SE 5.6): every open cell has two candidates but
//!   one, which has three. Without its extra value the grid would be a "grave" in which each
//!   value appears twice in every unit, which has no solution or several; so the one of the
//!   three that appears three times in each of the cell's units is the cell's value.
//!
//! [`Sudoku::with_uniqueness`]: super::Sudoku::with_uniqueness

use super::HumanTechnique;
use super::board::{Board, Found, Mask, mask_text, values};

/// A unique rectangle of type 1 that removes a candidate.
pub(crate) fn unique_rectangle(board: &Board) -> Option<Found> {
    let geo = &board.geo;
    let n = geo.n;
    let open_pair = |c: usize| board.value[c] == 0 && board.cand[c].count_ones() == 2;
    for r1 in 0..n {
        for r2 in r1 + 1..n {
            for c1 in 0..n {
                for c2 in c1 + 1..n {
                    let corners = [r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2];
                    if corners.iter().any(|&c| board.value[c] != 0) {
                        continue;
                    }
                    // Two boxes: the rows share a band or the columns share a stack, not both.
                    let boxes = |c: usize| geo.unit_of[c][2];
                    let mut distinct: Vec<usize> = corners.iter().map(|&c| boxes(c)).collect();
                    distinct.sort_unstable();
                    distinct.dedup();
                    if distinct.len() != 2 {
                        continue;
                    }
                    if let Some(found) = rectangle_at(board, &corners, &open_pair) {
                        return Some(found);
                    }
                }
            }
        }
    }
    None
}

/// The type 1 deduction at `corners`, if three of them are the same pair.
fn rectangle_at(
    board: &Board,
    corners: &[usize; 4],
    open_pair: &impl Fn(usize) -> bool,
) -> Option<Found> {
    for (k, &fourth) in corners.iter().enumerate() {
        let others: Vec<usize> = (0..4).filter(|&i| i != k).map(|i| corners[i]).collect();
        let pair: Mask = board.cand[others[0]];
        if !others
            .iter()
            .all(|&c| open_pair(c) && board.cand[c] == pair)
        {
            continue;
        }
        let extra = board.cand[fourth] & !pair;
        if board.cand[fourth] & pair != pair || extra == 0 {
            continue;
        }
        let geo = &board.geo;
        let removed: Vec<(usize, u8)> = values(pair).map(|v| (fourth, v)).collect();
        let pattern: Vec<(usize, u8)> = corners
            .iter()
            .flat_map(|&c| values(board.cand[c] & pair).map(move |v| (c, v)))
            .collect();
        return Some(Found {
            technique: HumanTechnique::UniqueRectangle,
            rating: HumanTechnique::UniqueRectangle.se_rating(),
            placed: Vec::new(),
            removed,
            pattern,
            why: format!(
                "{}: {} hold only {}; were {} one of them too, the four cells could swap \
                 them and the puzzle would have two solutions",
                HumanTechnique::UniqueRectangle,
                board.cells_text(&others),
                mask_text(pair),
                geo.cell_name(fourth)
            ),
        });
    }
    None
}

/// BUG+1: the value of the one open cell with three candidates, when every other open cell
/// has two.
pub(crate) fn bug_plus_one(board: &Board) -> Option<Found> {
    let geo = &board.geo;
    let n = geo.n;
    let mut three = None;
    for c in (0..n * n).filter(|&c| board.value[c] == 0) {
        match board.cand[c].count_ones() {
            2 => {}
            3 if three.is_none() => three = Some(c),
            _ => return None,
        }
    }
    let cell = three?;
    let units = geo.unit_of[cell];
    let mut odd = values(board.cand[cell])
        .filter(|&v| units.iter().all(|&u| board.places(u, v).count() == 3));
    let (Some(v), None) = (odd.next(), odd.next()) else {
        return None;
    };
    Some(Found {
        technique: HumanTechnique::Bug,
        rating: HumanTechnique::Bug.se_rating(),
        placed: vec![(cell, v)],
        removed: Vec::new(),
        pattern: vec![(cell, v)],
        why: format!(
            "{}: every other open cell has two candidates, and {v} appears three times in \
             each unit of {}; without it the grid would have no solution or several",
            HumanTechnique::Bug,
            geo.cell_name(cell)
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::super::board::bit;
    use super::super::board::tests::{open_board, removals, set};
    use super::*;

    #[test]
    fn a_unique_rectangle_clears_the_pair_from_its_fourth_corner() {
        // r1c1, r1c4, r2c1 hold 3 5 only; r2c4 holds 3 5 7. Rows 1–2 share a band, columns 1
        // and 4 are in two stacks: two boxes.
        let mut board = open_board();
        for (r, c) in [(1, 1), (1, 4), (2, 1)] {
            set(&mut board, r, c, &[3, 5]);
        }
        set(&mut board, 2, 4, &[3, 5, 7]);
        let found = unique_rectangle(&board).expect("a unique rectangle");
        assert_eq!(found.technique, HumanTechnique::UniqueRectangle);
        assert_eq!(removals(&found), [(2, 4, 3), (2, 4, 5)]);
        assert!(
            found.why.contains("r1c1 r1c4 r2c1 hold only 3 5"),
            "{}",
            found.why
        );
    }

    #[test]
    fn four_boxes_are_no_unique_rectangle() {
        // Rows 1 and 4 (two bands) and columns 1 and 4 (two stacks): four boxes, where the
        // swap may be blocked by the other cells of the boxes.
        let mut board = open_board();
        for (r, c) in [(1, 1), (1, 4), (4, 1)] {
            set(&mut board, r, c, &[3, 5]);
        }
        set(&mut board, 4, 4, &[3, 5, 7]);
        assert!(unique_rectangle(&board).is_none());
    }

    #[test]
    fn bug_plus_one_places_the_value_seen_three_times() {
        // A 4x4 grave: every open cell two candidates, r1c1 three; 3 appears three times in
        // row 1, column 1 and box 1, the others twice.
        let mut board = Board::new(&crate::models::sudoku::Grid::empty(2).unwrap()).unwrap();
        let rows: [[&[u8]; 4]; 4] = [
            [&[1, 2, 3], &[1, 3], &[2, 4], &[3, 4]],
            [&[3, 4], &[2, 4], &[1, 3], &[1, 2]],
            [&[2, 4], &[1, 2], &[3, 4], &[1, 3]],
            [&[1, 3], &[3, 4], &[1, 2], &[2, 4]],
        ];
        for (r, row) in rows.iter().enumerate() {
            for (c, vals) in row.iter().enumerate() {
                board.cand[r * 4 + c] = vals.iter().fold(0, |m, &v| m | bit(v));
            }
        }
        let found = bug_plus_one(&board).expect("BUG+1");
        assert_eq!(found.technique, HumanTechnique::Bug);
        assert_eq!(found.placed, [(0, 3)]);
        // One more candidate anywhere, and it is no grave.
        board.cand[5] |= bit(1);
        assert!(bug_plus_one(&board).is_none());
    }
}
