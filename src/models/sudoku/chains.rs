//! Chains of alternating inferences on candidates. A strong link joins two candidates of
//! which one at least is true (the two places of a value in a unit, the two values of a cell
//! with two); a weak link joins two that are not both true (two values of a cell, one value
//! in two cells that see each other). A chain that starts with a strong link and alternates
//! shows that if its first candidate is false its last is true: one of the two ends is true,
//! so any candidate weakly linked to both ends is false (and a chain back to its own start
//! proves the start).
//!
//! - X-chain: one value throughout (SE 6.5 and up, by length);
//! - XY-chain: strong links inside cells with two values, weak links between cells on one
//!   value (SE 6.6 and up);
//! - alternating inference chain (AIC): both kinds mixed (SE 7.0 and up).
//!
//! The search is breadth first from every candidate, so each chain found from a start is a
//! shortest one; the easiest (lowest rated) of all is kept.

use std::collections::VecDeque;

use super::HumanTechnique;
use super::board::{Board, Found, bit, length_adder, values};

/// Which links a chain may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// One value: conjugate places as strong links, peers as weak links.
    X,
    /// Cells with two values as strong links, peers on one value as weak links.
    Xy,
    /// Every link.
    Mixed,
}

/// The links of every candidate of a board.
struct Links {
    n: usize,
    /// Per node (`cell · n + value − 1`): strong links, each with whether it is inside a cell.
    strong: Vec<Vec<(usize, bool)>>,
    /// Per node: weak links, each with whether it is inside a cell.
    weak: Vec<Vec<(usize, bool)>>,
}

impl Links {
    fn new(board: &Board) -> Links {
        let geo = &board.geo;
        let n = geo.n;
        let mut strong = vec![Vec::new(); n * n * n];
        let mut weak = vec![Vec::new(); n * n * n];
        for cell in 0..n * n {
            let cand = board.cand[cell];
            for v in values(cand) {
                let node = cell * n + usize::from(v) - 1;
                if cand.count_ones() == 2 {
                    let other = values(cand & !bit(v)).next().expect("two values");
                    strong[node].push((cell * n + usize::from(other) - 1, true));
                }
                for w in values(cand & !bit(v)) {
                    weak[node].push((cell * n + usize::from(w) - 1, true));
                }
                for &p in &geo.peers[cell] {
                    if board.cand[p] & bit(v) != 0 {
                        weak[node].push((p * n + usize::from(v) - 1, false));
                    }
                }
                for u in geo.unit_of[cell] {
                    let mut places = board.places(u, v).filter(|&c| c != cell);
                    if let (Some(other), None) = (places.next(), places.next()) {
                        let target = (other * n + usize::from(v) - 1, false);
                        if !strong[node].contains(&target) {
                            strong[node].push(target);
                        }
                    }
                }
            }
        }
        Links { n, strong, weak }
    }

    fn allowed(kind: Kind, inside_cell: bool, strong: bool) -> bool {
        match kind {
            Kind::X => !inside_cell,
            Kind::Xy => inside_cell == strong,
            Kind::Mixed => true,
        }
    }
}

/// The easiest chain that proves or removes a candidate, if any.
pub(crate) fn chain(board: &Board) -> Option<Found> {
    let links = Links::new(board);
    let n = links.n;
    let mut best: Option<Found> = None;
    for kind in [Kind::X, Kind::Xy, Kind::Mixed] {
        for start in 0..n * n * n {
            if board.cand[start / n] & bit((start % n) as u8 + 1) == 0 {
                continue;
            }
            let floor = best.as_ref().map_or(f64::MAX, |b| b.rating);
            if base(kind) + length_adder(2) >= floor {
                break;
            }
            if let Some(found) = from_start(board, &links, kind, start, floor)
                && best.as_ref().is_none_or(|b| found.rating < b.rating)
            {
                best = Some(found);
            }
        }
    }
    best
}

fn base(kind: Kind) -> f64 {
    match kind {
        Kind::X => 6.5,
        Kind::Xy => 6.6,
        Kind::Mixed => 7.0,
    }
}

/// The shortest chain of `kind` from `start` (assumed false) that concludes something,
/// rated below `floor`.
fn from_start(board: &Board, links: &Links, kind: Kind, start: usize, floor: f64) -> Option<Found> {
    let n = links.n;
    let geo = &board.geo;
    // States: node · 2 + (1 if the node is true).
    let mut parent = vec![usize::MAX; n * n * n * 2];
    let mut depth = vec![0usize; n * n * n * 2];
    let mut queue = VecDeque::new();
    parent[start * 2] = start * 2;
    queue.push_back(start * 2);
    while let Some(state) = queue.pop_front() {
        let (node, on) = (state / 2, state % 2 == 1);
        let nodes = depth[state] + 1;
        if base(kind) + length_adder(nodes) >= floor {
            return None;
        }
        if on && let Some(found) = conclude(board, kind, start, node, &parent, state) {
            return Some(found);
        }
        let (next, next_on) = if on {
            (&links.weak[node], 0)
        } else {
            (&links.strong[node], 1)
        };
        for &(target, inside) in next {
            if !Links::allowed(kind, inside, !on) {
                continue;
            }
            if kind == Kind::X && target % n != start % n {
                continue;
            }
            let s = target * 2 + next_on;
            if parent[s] == usize::MAX {
                parent[s] = state;
                depth[s] = depth[state] + 1;
                queue.push_back(s);
            }
        }
    }
    let _ = geo;
    None
}

/// What a chain from `start` (false) to `end` (true) proves: `start` itself if it comes back,
/// else the candidates weakly linked to both ends.
fn conclude(
    board: &Board,
    kind: Kind,
    start: usize,
    end: usize,
    parent: &[usize],
    state: usize,
) -> Option<Found> {
    let geo = &board.geo;
    let n = geo.n;
    let (cs, vs) = (start / n, (start % n) as u8 + 1);
    let (ce, ve) = (end / n, (end % n) as u8 + 1);
    let mut placed = Vec::new();
    let mut removed = Vec::new();
    if start == end {
        placed.push((cs, vs));
    } else if cs == ce {
        removed.extend(values(board.cand[cs] & !bit(vs) & !bit(ve)).map(|v| (cs, v)));
    } else if vs == ve {
        removed.extend(
            (0..n * n)
                .filter(|&c| c != cs && c != ce && board.cand[c] & bit(vs) != 0)
                .filter(|&c| geo.sees(c, cs) && geo.sees(c, ce))
                .map(|c| (c, vs)),
        );
    } else if geo.sees(cs, ce) {
        if board.cand[cs] & bit(ve) != 0 {
            removed.push((cs, ve));
        }
        if board.cand[ce] & bit(vs) != 0 {
            removed.push((ce, vs));
        }
    }
    if placed.is_empty() && removed.is_empty() {
        return None;
    }
    // The chain, from its start.
    let mut path = vec![state];
    let mut s = state;
    while parent[s] != s {
        s = parent[s];
        path.push(s);
    }
    path.reverse();
    let pattern: Vec<(usize, u8)> = path
        .iter()
        .map(|&s| (s / 2 / n, (s / 2 % n) as u8 + 1))
        .collect();
    let mut text = String::new();
    for (i, &(c, v)) in pattern.iter().enumerate() {
        if i > 0 {
            text.push_str(if i % 2 == 1 { " = " } else { " - " });
        }
        text.push_str(&format!("{}({v})", geo.cell_name(c)));
    }
    let technique = match kind {
        Kind::X => HumanTechnique::XChain,
        Kind::Xy => HumanTechnique::XyChain,
        Kind::Mixed => HumanTechnique::AlternatingChain,
    };
    let ends = if start == end {
        format!("so {}({vs}) is true", geo.cell_name(cs))
    } else {
        format!(
            "so {}({vs}) or {}({ve}) is true",
            geo.cell_name(cs),
            geo.cell_name(ce)
        )
    };
    Some(Found {
        technique,
        rating: base(kind) + length_adder(pattern.len()),
        placed,
        removed,
        pattern,
        why: format!("{technique}: {text}: {ends}"),
    })
}

#[cfg(test)]
mod tests {
    use super::super::board::tests::{open_board, removals, remove, set};
    use super::*;

    #[test]
    fn a_skyscraper_is_a_four_link_x_chain() {
        // 5 fits column 1 only at r1c1 and r8c1, column 5 only at r3c5 and r8c5. r8c1 and
        // r8c5 share row 8, so one of them at most is 5: then r1c1 or r3c5 is. Cells seeing
        // both: r1c4 r1c6 (row 1, box 2) and r3c2 r3c3 (row 3, box 1).
        let mut board = open_board();
        remove(
            &mut board,
            5,
            (1..=9).filter(|r| ![1, 8].contains(r)).map(|r| (r, 1)),
        );
        remove(
            &mut board,
            5,
            (1..=9).filter(|r| ![3, 8].contains(r)).map(|r| (r, 5)),
        );
        let found = chain(&board).expect("an X-chain");
        assert_eq!(found.technique, HumanTechnique::XChain);
        assert_eq!(
            removals(&found),
            [(1, 4, 5), (1, 6, 5), (3, 2, 5), (3, 3, 5)]
        );
        assert!((found.rating - 6.5).abs() < 1e-9, "{}", found.rating);
    }

    #[test]
    fn an_xy_chain_through_four_cells() {
        // r1c1 {1 2}, r1c5 {2 3}, r5c5 {3 4}, r5c9 {4 1}: if r1c1 is not 1 it is 2, so r1c5
        // is 3, r5c5 is 4 and r5c9 is 1. One of r1c1 and r5c9 is 1: r1c9 and r5c1, which
        // see both, lose 1. Eight candidates: SE's 6.6 and two tenths for the length.
        let mut board = open_board();
        set(&mut board, 1, 1, &[1, 2]);
        set(&mut board, 1, 5, &[2, 3]);
        set(&mut board, 5, 5, &[3, 4]);
        set(&mut board, 5, 9, &[1, 4]);
        let found = chain(&board).expect("an XY-chain");
        assert_eq!(found.technique, HumanTechnique::XyChain);
        assert_eq!(removals(&found), [(1, 9, 1), (5, 1, 1)]);
        assert_eq!(found.pattern.len(), 8);
        assert!((found.rating - 6.8).abs() < 1e-9, "{}", found.rating);
    }
}
