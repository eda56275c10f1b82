//! A plain bitboard N-Queens solver: the reference for counting and for the lexicographically
//! first placement. Rows are filled in order; three masks hold the columns and the two
//! diagonals attacked in the current row. Nodes are placements tried.
//!
//! `bitboard queens count N...` and `bitboard queens lex N...`, for N up to 64.

use cspkit_bench_peers::{columns_text, emit, timed, unsupported, Args};

/// Counts the placements of the remaining rows; `nodes` counts queens placed.
fn count(full: u64, columns: u64, left: u64, right: u64, nodes: &mut u64) -> u64 {
    if columns == full {
        return 1;
    }
    let mut free = full & !(columns | left | right);
    let mut total = 0;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        *nodes += 1;
        total += count(
            full,
            columns | bit,
            (left | bit) << 1,
            (right | bit) >> 1,
            nodes,
        );
    }
    total
}

/// The first placement in lexicographic order (smallest column first), as bits per row.
fn first(
    full: u64,
    columns: u64,
    left: u64,
    right: u64,
    placed: &mut Vec<u64>,
    nodes: &mut u64,
) -> bool {
    if columns == full {
        return true;
    }
    let mut free = full & !(columns | left | right);
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        *nodes += 1;
        placed.push(bit);
        if first(
            full,
            columns | bit,
            (left | bit) << 1,
            (right | bit) >> 1,
            placed,
            nodes,
        ) {
            return true;
        }
        placed.pop();
    }
    false
}

fn mask(n: usize) -> u64 {
    if n == 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

fn main() {
    let args = Args::parse();
    if args.problem != "queens" {
        unsupported(&args);
    }
    for n in args.sizes() {
        let mut nodes = 0;
        let (answer, time) = match args.mode.as_str() {
            "count" if n <= 64 => timed(|| count(mask(n), 0, 0, 0, &mut nodes).to_string()),
            "lex" if n <= 64 => timed(|| {
                let mut placed = Vec::with_capacity(n);
                if first(mask(n), 0, 0, 0, &mut placed, &mut nodes) {
                    columns_text(placed.iter().map(|bit| bit.trailing_zeros() as i32 + 1))
                } else {
                    "none".to_string()
                }
            }),
            _ => unsupported(&args),
        };
        emit(n, &answer, time, Some(nodes), None);
    }
}
