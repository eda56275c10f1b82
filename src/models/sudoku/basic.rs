//! The techniques up to the quads, in the order of their SE ratings: the easiest deduction of
//! them all.

use super::board::{Board, Found};
use super::fish::fish;
use super::locked::locked_candidates;
use super::singles::{full_house, hidden_single, naked_single};
use super::subsets::{hidden_set, naked_set};
use super::wings::wing;

/// The easiest deduction of the techniques up to the wings and the quads (SE ≤ 5.4).
pub(crate) fn basic_step(board: &Board) -> Option<Found> {
    full_house(board)
        .or_else(|| hidden_single(board, true))
        .or_else(|| hidden_single(board, false))
        .or_else(|| naked_single(board))
        .or_else(|| locked_candidates(board, true))
        .or_else(|| locked_candidates(board, false))
        .or_else(|| naked_set(board, 2))
        .or_else(|| fish(board, 2))
        .or_else(|| hidden_set(board, 2))
        .or_else(|| naked_set(board, 3))
        .or_else(|| fish(board, 3))
        .or_else(|| hidden_set(board, 3))
        .or_else(|| wing(board, false))
        .or_else(|| wing(board, true))
        .or_else(|| naked_set(board, 4))
        .or_else(|| fish(board, 4))
        .or_else(|| hidden_set(board, 4))
}
