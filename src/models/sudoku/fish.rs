//! Basic fish: a value whose places in `k` rows (the base) lie in only `k` columns (the
//! cover) is in those columns only in those rows, so it leaves the rest of the cover; the
//! same with rows and columns swapped. X-wing (`k` = 2, SE 3.2), swordfish (3, SE 3.8),
//! jellyfish (4, SE 5.2).

use super::HumanTechnique;
use super::board::{Board, Found, Mask, any_subset};

/// A fish of size `k` that removes a candidate.
pub(crate) fn fish(board: &Board, k: usize) -> Option<Found> {
    let geo = &board.geo;
    let n = geo.n;
    for v in 1..=n as u8 {
        // Rows as the base (cover: columns), then columns as the base (cover: rows).
        for (base_kind, cover_kind) in [(0usize, 1usize), (1, 0)] {
            // Each candidate line with the cover lines its places lie in, as a mask of their
            // indices (so that a base is tried without allocating).
            let lines: Vec<(usize, Mask)> = (0..n)
                .map(|i| base_kind * n + i)
                .filter(|&u| !board.holds(u, v))
                .map(|u| {
                    let crossed = board.places(u, v).fold(0, |m: Mask, c| {
                        m | 1 << (geo.unit_of[c][cover_kind] - cover_kind * n)
                    });
                    (u, crossed)
                })
                .filter(|&(_, crossed)| (2..=k).contains(&(crossed.count_ones() as usize)))
                .collect();
            let mut found = None;
            any_subset(&lines, k, &mut |chosen| {
                let crossed = chosen.iter().fold(0, |m, &(_, c)| m | c);
                if crossed.count_ones() as usize != k {
                    return false;
                }
                let base: Vec<usize> = chosen.iter().map(|&(u, _)| u).collect();
                let base = &base[..];
                let cover: Vec<usize> = (0..n)
                    .filter(|&i| crossed >> i & 1 != 0)
                    .map(|i| cover_kind * n + i)
                    .collect();
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
                    technique: HumanTechnique::Fish(k),
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
                        HumanTechnique::Fish(k),
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

#[cfg(test)]
mod tests {
    use super::super::board::tests::{open_board, removals, remove};
    use super::*;

    #[test]
    fn an_x_wing_clears_its_columns() {
        // In rows 2 and 8, 5 fits only columns 3 and 7: the two 5s of those rows fill
        // columns 3 and 7, so no other row has 5 there.
        let mut board = open_board();
        for r in [2, 8] {
            remove(&mut board, 5, [1, 2, 4, 5, 6, 8, 9].map(|c| (r, c)));
        }
        let found = fish(&board, 2).expect("an X-wing");
        assert_eq!(found.technique, HumanTechnique::Fish(2));
        let mut expected: Vec<_> = [1, 3, 4, 5, 6, 7, 9]
            .into_iter()
            .flat_map(|r| [(r, 3, 5), (r, 7, 5)])
            .collect();
        expected.sort_unstable();
        assert_eq!(removals(&found), expected);
    }

    #[test]
    fn a_swordfish_need_not_fill_its_three_by_three() {
        // Rows 1, 5, 9 have 5 only in columns 2, 5 and 8, two each: three 5s in three
        // columns, so the other rows lose 5 in those columns. No two rows make an X-wing.
        let mut board = open_board();
        let keep = [(1, [2, 5]), (5, [5, 8]), (9, [2, 8])];
        for (r, cols) in keep {
            remove(
                &mut board,
                5,
                (1..=9).filter(|c| !cols.contains(c)).map(|c| (r, c)),
            );
        }
        assert!(fish(&board, 2).is_none());
        let found = fish(&board, 3).expect("a swordfish");
        let mut expected: Vec<_> = [2, 3, 4, 6, 7, 8]
            .into_iter()
            .flat_map(|r| [(r, 2, 5), (r, 5, 5), (r, 8, 5)])
            .collect();
        expected.sort_unstable();
        assert_eq!(removals(&found), expected);
    }
}
