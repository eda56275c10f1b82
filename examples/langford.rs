//! Langford's problem L(2, n): arrange two 1s, two 2s, …, two ns in a row so that the two
//! copies of k have exactly k numbers between them. For n = 3: 2 3 1 2 1 3.
//!
//! One variable per number, the position of its first copy; the second is at `first + k + 1`.
//! All 2n positions differ: one [`AllDifferent`] over the views `first[k]` and
//! `first[k] + k + 1`, each variable appearing twice in the scope.
//!
//! Run with `cargo run --release --example langford [N]` (7 by default).

use cspkit::{AllDifferent, Model, ModelError, Solution, VarId};

/// The model for L(2, n): `first[k - 1]` is the position (from 0) of the first copy of `k`.
pub fn model(n: usize) -> Result<(Model, Vec<VarId>), ModelError> {
    let mut model = Model::new();
    let length = 2 * n as i32;
    let mut first = Vec::with_capacity(n);
    for k in 1..=n as i32 {
        // The second copy, at first + k + 1, must fit in the row.
        let last_start = (length - k - 2).max(0);
        first.push(model.new_named_var(format!("first {k}"), 0..=last_start)?);
    }
    let mut scope = Vec::with_capacity(2 * n);
    let mut offsets = Vec::with_capacity(2 * n);
    for (k, &var) in (1..=n as i32).zip(&first) {
        scope.extend([var, var]);
        offsets.extend([0, k + 1]);
    }
    model.post(AllDifferent::with_offsets(&scope, &offsets)?)?;
    Ok((model, first))
}

/// The row of numbers a solution stands for.
pub fn sequence(solution: &Solution, first: &[VarId]) -> Vec<usize> {
    let mut row = vec![0; 2 * first.len()];
    for (k, &var) in (1..).zip(first) {
        let p = solution[var] as usize;
        row[p] = k;
        row[p + k + 1] = k;
    }
    row
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = match std::env::args().nth(1) {
        Some(arg) => arg.parse().map_err(|_| format!("not a size: {arg}"))?,
        None => 7,
    };
    if n == 0 || n > 64 {
        return Err(format!("n between 1 and 64, not {n}").into());
    }
    let (model, first) = model(n)?;
    let mut solver = model.solver();
    let mut count = 0u64;
    for solution in solver.solutions() {
        if count < 3 {
            let row: Vec<String> = sequence(&solution, &first)
                .iter()
                .map(usize::to_string)
                .collect();
            println!("{}", row.join(" "));
        }
        count += 1;
    }
    // Each arrangement is counted with its reverse.
    println!(
        "L(2, {n}): {} arrangements up to reversal ({count} in all)",
        count / 2
    );
    Ok(())
}
