//! Singles: the last open cell of a unit (full house), the only place of a value in a unit
//! (hidden single), the only value left in a cell (naked single).

use super::HumanTechnique;
use super::board::{Board, Found, bit, values};

/// A unit with one open cell: it takes the value the unit lacks (SE 1.0).
pub(crate) fn full_house(board: &Board) -> Option<Found> {
    let geo = &board.geo;
    for (u, unit) in geo.units.iter().enumerate() {
        let mut open = unit.iter().filter(|&&c| board.value[c] == 0);
        let (Some(&cell), None) = (open.next(), open.next()) else {
            continue;
        };
        let cand = board.cand[cell];
        if cand.count_ones() != 1 {
            continue;
        }
        let v = values(cand).next()?;
        return Some(Found {
            technique: HumanTechnique::HiddenSingle,
            rating: 1.0,
            placed: vec![(cell, v)],
            removed: Vec::new(),
            pattern: vec![(cell, v)],
            why: format!("full house: the last open cell of {}", geo.unit_name(u)),
        });
    }
    None
}

/// A value with one place in a unit: boxes first (SE 1.2), then rows and columns (SE 1.5).
pub(crate) fn hidden_single(board: &Board, boxes: bool) -> Option<Found> {
    let geo = &board.geo;
    let n = geo.n;
    let units = if boxes { 2 * n..3 * n } else { 0..2 * n };
    for u in units {
        for v in 1..=n as u8 {
            if board.holds(u, v) {
                continue;
            }
            let mut places = board.places(u, v);
            let (Some(cell), None) = (places.next(), places.next()) else {
                continue;
            };
            return Some(Found {
                technique: HumanTechnique::HiddenSingle,
                rating: if boxes { 1.2 } else { 1.5 },
                placed: vec![(cell, v)],
                removed: Vec::new(),
                pattern: vec![(cell, v)],
                why: format!(
                    "hidden single: the only cell of {} where {v} can go",
                    geo.unit_name(u)
                ),
            });
        }
    }
    None
}

/// An open cell with one candidate left (SE 2.3).
pub(crate) fn naked_single(board: &Board) -> Option<Found> {
    let n = board.geo.n;
    (0..n * n).find_map(|cell| {
        let cand = board.cand[cell];
        (board.value[cell] == 0 && cand.count_ones() == 1).then(|| {
            let v = cand.trailing_zeros() as u8 + 1;
            debug_assert_eq!(bit(v), cand);
            Found {
                technique: HumanTechnique::NakedSingle,
                rating: 2.3,
                placed: vec![(cell, v)],
                removed: Vec::new(),
                pattern: vec![(cell, v)],
                why: "naked single: the only candidate left in the cell".to_owned(),
            }
        })
    })
}
