//! Wings: a pivot cell and two pincers among its peers. XY-wing (SE 4.2): pivot `xy`,
//! pincers `xz` and `yz`, all three with two candidates; whichever value the pivot takes, one
//! pincer is `z`, so `z` leaves every cell that sees both pincers. XYZ-wing (SE 4.4): pivot
//! `xyz`, the same pincers; `z` leaves every cell that sees all three.

use super::HumanTechnique;
use super::board::{Board, Found, Mask, bit, mask_text, values};

/// An XY-wing (`xyz` false) or an XYZ-wing (`xyz` true) that removes a candidate.
pub(crate) fn wing(board: &Board, xyz: bool) -> Option<Found> {
    let geo = &board.geo;
    let n = geo.n;
    let size = if xyz { 3 } else { 2 };
    for pivot in 0..n * n {
        let pc = board.cand[pivot];
        if board.value[pivot] != 0 || pc.count_ones() != size {
            continue;
        }
        let pincers: Vec<usize> = geo.peers[pivot]
            .iter()
            .copied()
            .filter(|&p| board.value[p] == 0 && board.cand[p].count_ones() == 2)
            .collect();
        for (i, &a) in pincers.iter().enumerate() {
            for &b in &pincers[i + 1..] {
                let (ca, cb) = (board.cand[a], board.cand[b]);
                let Some(z) = wing_value(pc, ca, cb, xyz) else {
                    continue;
                };
                let removed: Vec<(usize, u8)> = (0..n * n)
                    .filter(|&c| c != pivot && c != a && c != b)
                    .filter(|&c| board.cand[c] & bit(z) != 0)
                    .filter(|&c| geo.sees(c, a) && geo.sees(c, b))
                    .filter(|&c| !xyz || geo.sees(c, pivot))
                    .map(|c| (c, z))
                    .collect();
                if removed.is_empty() {
                    continue;
                }
                let pattern = [pivot, a, b]
                    .iter()
                    .flat_map(|&c| values(board.cand[c]).map(move |v| (c, v)))
                    .collect();
                let technique = if xyz {
                    HumanTechnique::XyzWing
                } else {
                    HumanTechnique::XyWing
                };
                return Some(Found {
                    technique,
                    rating: if xyz { 4.4 } else { 4.2 },
                    placed: Vec::new(),
                    removed,
                    pattern,
                    why: format!(
                        "{technique}: pivot {} ({}), pincers {} ({}) and {} ({}): one of them is {z}",
                        geo.cell_name(pivot),
                        mask_text(pc),
                        geo.cell_name(a),
                        mask_text(ca),
                        geo.cell_name(b),
                        mask_text(cb)
                    ),
                });
            }
        }
    }
    None
}

/// The value `z` the pincers `a` and `b` share, if pivot and pincers make a wing.
fn wing_value(pivot: Mask, a: Mask, b: Mask, xyz: bool) -> Option<u8> {
    let z = a & b;
    if z.count_ones() != 1 || a == b {
        return None;
    }
    let fits = if xyz {
        // Pivot xyz, pincers xz and yz: both inside the pivot, covering it.
        a & !pivot == 0 && b & !pivot == 0 && a | b == pivot
    } else {
        // Pivot xy, pincers xz and yz: z outside the pivot, the others making it.
        z & pivot == 0 && (a | b) & !z == pivot
    };
    fits.then(|| z.trailing_zeros() as u8 + 1)
}

#[cfg(test)]
mod tests {
    use super::super::board::tests::{open_board, removals, set};
    use super::*;

    #[test]
    fn an_xy_wing_clears_the_cells_that_see_both_pincers() {
        // Pivot r1c1 {1 2}, pincers r1c5 {1 3} (row 1) and r3c2 {2 3} (box 1): if the pivot
        // is 1, r1c5 is 3; if 2, r3c2 is 3. Cells seeing both pincers: r1c2 r1c3 (row 1 and
        // box 1) and r3c4 r3c5 r3c6 (row 3 and box 2).
        let mut board = open_board();
        set(&mut board, 1, 1, &[1, 2]);
        set(&mut board, 1, 5, &[1, 3]);
        set(&mut board, 3, 2, &[2, 3]);
        let found = wing(&board, false).expect("an XY-wing");
        assert_eq!(found.technique, HumanTechnique::XyWing);
        assert_eq!(
            removals(&found),
            [(1, 2, 3), (1, 3, 3), (3, 4, 3), (3, 5, 3), (3, 6, 3)]
        );
    }

    #[test]
    fn an_xyz_wing_clears_the_cells_that_see_all_three() {
        // Pivot r1c1 {1 2 3}, pincers r1c5 {1 3} and r2c2 {2 3}: one of the three is 3.
        // Cells seeing all three: r1c2 and r1c3.
        let mut board = open_board();
        set(&mut board, 1, 1, &[1, 2, 3]);
        set(&mut board, 1, 5, &[1, 3]);
        set(&mut board, 2, 2, &[2, 3]);
        assert!(wing(&board, false).is_none());
        let found = wing(&board, true).expect("an XYZ-wing");
        assert_eq!(found.technique, HumanTechnique::XyzWing);
        assert_eq!(removals(&found), [(1, 2, 3), (1, 3, 3)]);
    }
}
