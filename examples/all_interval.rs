//! All-interval series: arrange the numbers `0..n` so that the `n − 1` distances between
//! neighbours are all different (so they are `1..n`). For n = 4: 0 3 1 2 (distances 3 2 1).
//!
//! The distances are variables, `|x[i + 1] − x[i]|`, built with [`Model::var_for`] and
//! [`Model::abs`]; both the numbers and the distances are all different.
//!
//! Run with `cargo run --release --example all_interval [N]` (10 by default).

use cspkit::{AllDifferent, LinearExpr, Model, ModelError, VarId};

/// The model of the all-interval series of length `n`: the numbers, then the distances.
pub fn model(n: usize) -> Result<(Model, Vec<VarId>, Vec<VarId>), ModelError> {
    let mut model = Model::new();
    let x = model.new_named_vars("x", n, 0..=n as i32 - 1)?;
    let mut distances = Vec::with_capacity(n.saturating_sub(1));
    for pair in x.windows(2) {
        let step = model.var_for(LinearExpr::from(pair[1]) - pair[0])?;
        distances.push(model.abs(step)?);
    }
    model.post(AllDifferent::new(&x))?;
    if !distances.is_empty() {
        model.post(AllDifferent::new(&distances))?;
    }
    Ok((model, x, distances))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = match std::env::args().nth(1) {
        Some(arg) => arg.parse().map_err(|_| format!("not a length: {arg}"))?,
        None => 10,
    };
    if !(1..=40).contains(&n) {
        return Err(format!("a length between 1 and 40, not {n}").into());
    }
    let (model, x, _) = model(n)?;
    let mut solver = model.solver();
    let mut count = 0u64;
    for solution in solver.solutions() {
        if count == 0 {
            let values: Vec<String> = x.iter().map(|&v| solution[v].to_string()).collect();
            println!("first: {}", values.join(" "));
        }
        count += 1;
    }
    println!(
        "{count} all-interval series of length {n} ({} nodes)",
        solver.stats().decisions
    );
    Ok(())
}
