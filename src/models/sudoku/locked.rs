//! Locked candidates: a value confined to the intersection of a box and a line leaves the
//! rest of the other unit. Pointing: the box confines it to one row or column (SE 2.6);
//! claiming: the row or column confines it to one box (SE 2.8).

use super::Technique;
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
                    (Technique::Pointing, 2.6)
                } else {
                    (Technique::Claiming, 2.8)
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
