//! Locked candidates: a value confined to the intersection of a box and a line leaves the
//! rest of the other unit. Pointing: the box confines it to one row or column (SE 2.6);
//! claiming: the row or column confines it to one box (SE 2.8).

use super::HumanTechnique;
use super::board::{Board, Found};

/// Pointing when `pointing`, claiming otherwise.
pub(crate) fn locked_candidates(board: &Board, pointing: bool) -> Option<Found> {
    let geo = &board.geo;
    let n = geo.n;
    let units = if pointing { 2 * n..3 * n } else { 0..2 * n };
    for u in units {
        for v in 1..=n as u8 {
            if board.holds(u, v) {
                continue;
            }
            let places: Vec<usize> = board.places(u, v).collect();
            if places.len() < 2 {
                continue;
            }
            // The other units the places share: for a box, its row or column; for a line,
            // its box.
            let kinds: &[usize] = if pointing { &[0, 1] } else { &[2] };
            for &kind in kinds {
                let other = geo.unit_of[places[0]][kind];
                if other == u || places.iter().any(|&c| geo.unit_of[c][kind] != other) {
                    continue;
                }
                let removed: Vec<(usize, u8)> = board
                    .places(other, v)
                    .filter(|c| !places.contains(c))
                    .map(|c| (c, v))
                    .collect();
                if removed.is_empty() {
                    continue;
                }
                let (technique, rating) = if pointing {
                    (HumanTechnique::Pointing, 2.6)
                } else {
                    (HumanTechnique::Claiming, 2.8)
                };
                return Some(Found {
                    technique,
                    rating,
                    placed: Vec::new(),
                    removed,
                    pattern: places.iter().map(|&c| (c, v)).collect(),
                    why: format!(
                        "{}: in {}, {v} lies only in {} ({}), so it leaves the rest of {}",
                        if pointing { "pointing" } else { "claiming" },
                        geo.unit_name(u),
                        geo.unit_name(other),
                        board.cells_text(&places),
                        geo.unit_name(other)
                    ),
                });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::board::tests::{open_board, removals, remove};
    use super::*;

    #[test]
    fn pointing_removes_the_value_from_the_rest_of_the_row() {
        // In box 1, 5 is left only in r1c1 and r1c2: whichever holds it, row 1 gets its 5
        // in box 1, so r1c4..r1c9 lose 5.
        let mut board = open_board();
        remove(
            &mut board,
            5,
            [(1, 3), (2, 1), (2, 2), (2, 3), (3, 1), (3, 2), (3, 3)],
        );
        let found = locked_candidates(&board, true).expect("pointing");
        assert_eq!(found.technique, HumanTechnique::Pointing);
        assert_eq!(
            removals(&found),
            (4..=9).map(|c| (1, c, 5)).collect::<Vec<_>>()
        );
    }

    #[test]
    fn claiming_removes_the_value_from_the_rest_of_the_box() {
        // In row 1, 5 is left only in r1c1..r1c3, all in box 1: box 1's 5 is in row 1, so
        // rows 2 and 3 of box 1 lose 5.
        let mut board = open_board();
        remove(&mut board, 5, (4..=9).map(|c| (1, c)));
        assert!(
            locked_candidates(&board, true).is_none(),
            "no box confines 5 to a line"
        );
        let found = locked_candidates(&board, false).expect("claiming");
        assert_eq!(found.technique, HumanTechnique::Claiming);
        let expected: Vec<_> = [2, 3]
            .into_iter()
            .flat_map(|r| (1..=3).map(move |c| (r, c, 5)))
            .collect();
        assert_eq!(removals(&found), expected);
    }
}
