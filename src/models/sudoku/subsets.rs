//! Naked and hidden sets of one unit: `k` cells holding `k` values between them (naked), or
//! `k` values fitting only `k` cells (hidden). SE: naked pair 3.0, hidden pair 3.4, naked
//! triple 3.6, hidden triple 4.0, naked quad 5.0, hidden quad 5.4.

use super::HumanTechnique;
use super::board::{Board, Found, Mask, any_subset, bit, mask_text, values};

/// A naked set of `k` cells in some unit that removes a candidate.
pub(crate) fn naked_set(board: &Board, k: usize) -> Option<Found> {
    let geo = &board.geo;
    for (u, unit) in geo.units.iter().enumerate() {
        let open: Vec<usize> = unit
            .iter()
            .copied()
            .filter(|&c| board.value[c] == 0)
            .collect();
        if open.len() <= k {
            continue;
        }
        let small: Vec<usize> = open
            .iter()
            .copied()
            .filter(|&c| (2..=k).contains(&(board.cand[c].count_ones() as usize)))
            .collect();
        let mut found = None;
        any_subset(&small, k, &mut |cells| {
            let union: Mask = cells.iter().fold(0, |m, &c| m | board.cand[c]);
            if union.count_ones() as usize != k {
                return false;
            }
            let removed: Vec<(usize, u8)> = open
                .iter()
                .filter(|c| !cells.contains(c))
                .flat_map(|&c| values(board.cand[c] & union).map(move |v| (c, v)))
                .collect();
            if removed.is_empty() {
                return false;
            }
            found = Some(Found {
                technique: HumanTechnique::NakedSet(k),
                rating: naked_rating(k),
                placed: Vec::new(),
                removed,
                pattern: cells
                    .iter()
                    .flat_map(|&c| values(board.cand[c]).map(move |v| (c, v)))
                    .collect(),
                why: format!(
                    "{}: {} hold {} in {}",
                    HumanTechnique::NakedSet(k),
                    board.cells_text(cells),
                    mask_text(union),
                    geo.unit_name(u)
                ),
            });
            true
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// A hidden set of `k` values in some unit that removes a candidate.
pub(crate) fn hidden_set(board: &Board, k: usize) -> Option<Found> {
    let geo = &board.geo;
    let n = geo.n;
    for (u, unit) in geo.units.iter().enumerate() {
        let open = unit.iter().filter(|&&c| board.value[c] == 0).count();
        if open <= k {
            continue;
        }
        // Each value the unit lacks with its places, as a mask of positions in the unit (so
        // that a set of values is tried without allocating).
        let missing: Vec<(u8, Mask)> = (1..=n as u8)
            .filter(|&v| !board.holds(u, v))
            .map(|v| {
                let places = unit.iter().enumerate().fold(0, |m: Mask, (i, &c)| {
                    m | Mask::from(board.cand[c] & bit(v) != 0) << i
                });
                (v, places)
            })
            .filter(|&(_, places)| (2..=k).contains(&(places.count_ones() as usize)))
            .collect();
        let mut found = None;
        any_subset(&missing, k, &mut |chosen| {
            let places = chosen.iter().fold(0, |m, &(_, p)| m | p);
            if places.count_ones() as usize != k {
                return false;
            }
            // The unit's cells are in reading order: positions ascending are cells ascending.
            let cells: Vec<usize> = (0..unit.len())
                .filter(|&i| places >> i & 1 != 0)
                .map(|i| unit[i])
                .collect();
            let keep: Mask = chosen.iter().fold(0, |m, &(v, _)| m | bit(v));
            let removed: Vec<(usize, u8)> = cells
                .iter()
                .flat_map(|&c| values(board.cand[c] & !keep).map(move |v| (c, v)))
                .collect();
            if removed.is_empty() {
                return false;
            }
            found = Some(Found {
                technique: HumanTechnique::HiddenSet(k),
                rating: hidden_rating(k),
                placed: Vec::new(),
                removed,
                pattern: cells
                    .iter()
                    .flat_map(|&c| values(board.cand[c] & keep).map(move |v| (c, v)))
                    .collect(),
                why: format!(
                    "{}: {} fit only {} in {}",
                    HumanTechnique::HiddenSet(k),
                    mask_text(keep),
                    board.cells_text(&cells),
                    geo.unit_name(u)
                ),
            });
            true
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

fn naked_rating(k: usize) -> f64 {
    match k {
        2 => 3.0,
        3 => 3.6,
        _ => 5.0,
    }
}

fn hidden_rating(k: usize) -> f64 {
    match k {
        2 => 3.4,
        3 => 4.0,
        _ => 5.4,
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::tests::{open_board, removals, remove, set};
    use super::*;

    #[test]
    fn a_naked_pair_clears_its_values_from_the_row() {
        // r1c1 and r1c2 hold only 1 and 2: those two values go to them, so the rest of
        // row 1 loses 1 and 2.
        let mut board = open_board();
        set(&mut board, 1, 1, &[1, 2]);
        set(&mut board, 1, 2, &[1, 2]);
        let found = naked_set(&board, 2).expect("a naked pair");
        assert_eq!(found.technique, HumanTechnique::NakedSet(2));
        let expected: Vec<_> = (3..=9).flat_map(|c| [(1, c, 1), (1, c, 2)]).collect();
        assert_eq!(removals(&found), expected);
    }

    #[test]
    fn a_naked_triple_need_not_have_three_values_in_each_cell() {
        // {1 2}, {2 3}, {1 3}: three cells, three values between them.
        let mut board = open_board();
        set(&mut board, 1, 1, &[1, 2]);
        set(&mut board, 1, 2, &[2, 3]);
        set(&mut board, 1, 3, &[1, 3]);
        assert!(naked_set(&board, 2).is_none());
        let found = naked_set(&board, 3).expect("a naked triple");
        let expected: Vec<_> = (4..=9)
            .flat_map(|c| [(1, c, 1), (1, c, 2), (1, c, 3)])
            .collect();
        assert_eq!(removals(&found), expected);
    }

    #[test]
    fn a_hidden_pair_clears_the_other_values_of_its_cells() {
        // In row 1, 1 and 2 fit only r1c1 and r1c2: those cells take them, so they lose
        // 3 to 9.
        let mut board = open_board();
        remove(&mut board, 1, (3..=9).map(|c| (1, c)));
        remove(&mut board, 2, (3..=9).map(|c| (1, c)));
        let found = hidden_set(&board, 2).expect("a hidden pair");
        assert_eq!(found.technique, HumanTechnique::HiddenSet(2));
        let expected: Vec<_> = [1, 2]
            .into_iter()
            .flat_map(|c| (3..=9).map(move |v| (1, c, v)))
            .collect();
        assert_eq!(removals(&found), expected);
    }
}
