//! Basic fish: a value whose places in `k` rows (the base) lie in only `k` columns (the
//! cover) is in those columns only in those rows, so it leaves the rest of the cover; the
//! same with rows and columns swapped. X-wing (`k` = 2, SE 3.2), swordfish (3, SE 3.8),
//! jellyfish (4, SE 5.2).

use super::Technique;
use super::board::{Board, Found, any_subset};

/// A fish of size `k` that removes a candidate.
pub(crate) fn fish(board: &Board, k: usize) -> Option<Found> {
    let geo = &board.geo;
    let n = geo.n;
    for v in 1..=n as u8 {
        // Rows as the base (cover: columns), then columns as the base (cover: rows).
        for (base_kind, cover_kind) in [(0usize, 1usize), (1, 0)] {
            let lines: Vec<usize> = (0..n)
                .map(|i| base_kind * n + i)
                .filter(|&u| !board.holds(u, v))
                .filter(|&u| (2..=k).contains(&board.places(u, v).count()))
                .collect();
            let mut found = None;
            any_subset(&lines, k, &mut |base| {
                let mut cover: Vec<usize> = base
                    .iter()
                    .flat_map(|&u| board.places(u, v))
                    .map(|c| geo.unit_of[c][cover_kind])
                    .collect();
                cover.sort_unstable();
                cover.dedup();
                if cover.len() != k {
                    return false;
                }
                let removed: Vec<(usize, u8)> = cover
                    .iter()
                    .flat_map(|&u| board.places(u, v))
                    .filter(|&c| !base.contains(&geo.unit_of[c][base_kind]))
                    .map(|c| (c, v))
                    .collect();
                if removed.is_empty() {
                    return false;
                }
                let pattern: Vec<(usize, u8)> = base
                    .iter()
                    .flat_map(|&u| board.places(u, v))
                    .map(|c| (c, v))
                    .collect();
                let names = |units: &[usize]| {
                    units
                        .iter()
                        .map(|&u| geo.unit_name(u))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                found = Some(Found {
                    technique: Technique::Fish(k),
                    rating: match k {
                        2 => 3.2,
                        3 => 3.8,
                        _ => 5.2,
                    },
                    placed: Vec::new(),
                    removed,
                    pattern,
                    why: format!(
                        "{}: in {}, {v} lies only in {}",
                        Technique::Fish(k),
                        names(base),
                        names(&cover)
                    ),
                });
                true
            });
            if found.is_some() {
                return found;
            }
        }
    }
    None
}
