//! Magic sequences: `s[0..n]` where `s[i]` is the number of times `i` occurs in `s`. For
//! n = 7: 3 2 1 1 0 0 0 (three 0s, two 1s, one 2, one 3).
//!
//! Each `s[i]` counts the value `i` among all the `s`, itself included: [`Among::value`] with
//! the counted variable inside its own count.
//!
//! Run with `cargo run --release --example magic_sequence [N]` (10 by default).

use cspkit::{Among, LinearExpr, Model, ModelError, VarId};

/// The model of the magic sequences of length `n`.
pub fn model(n: usize) -> Result<(Model, Vec<VarId>), ModelError> {
    let mut model = Model::new();
    let s = model.new_named_vars("s", n, 0..=n as i32)?;
    for (i, &count) in s.iter().enumerate() {
        model.post(Among::value(&s, i as i32, count))?;
    }
    // Redundant: the counts add up to n, and Σ i·s[i] = n (each position holds one value).
    model.post(LinearExpr::sum(&s).eq(n as i32))?;
    let weighted: Vec<(i64, VarId)> = s.iter().enumerate().map(|(i, &v)| (i as i64, v)).collect();
    model.post(LinearExpr::new(&weighted, 0).eq(n as i32))?;
    Ok((model, s))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = match std::env::args().nth(1) {
        Some(arg) => arg.parse().map_err(|_| format!("not a length: {arg}"))?,
        None => 10,
    };
    if n == 0 || n > 1000 {
        return Err(format!("a length between 1 and 1000, not {n}").into());
    }
    let (model, s) = model(n)?;
    let mut found = 0;
    for solution in model.solver().solutions() {
        let values: Vec<String> = s.iter().map(|&v| solution[v].to_string()).collect();
        println!("{}", values.join(" "));
        found += 1;
    }
    println!("{found} magic sequence(s) of length {n}");
    Ok(())
}
