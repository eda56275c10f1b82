//! Golomb rulers: marks on a ruler such that every two marks are a different distance apart;
//! the shortest ruler with a given number of marks, found and proved by branch and bound.
//!
//! Run with `cargo run --release --example golomb [MARKS]` (8 by default).

use std::time::Instant;

use cspkit::{AllDifferent, LinearExpr, Model, ModelError, Optimum, VarId};

/// The ruler's model: the marks `m[0] = 0 < m[1] < …`, and one variable per pair of marks for
/// their distance, all different. Returns the model and the marks.
pub fn model(marks: usize) -> Result<(Model, Vec<VarId>), ModelError> {
    let mut model = Model::new();
    // 2^marks is longer than any optimal ruler (a greedy ruler of powers of two is one).
    let top = 1i32 << marks.min(30);
    let m = model.new_named_vars("m", marks, 0..=top)?;
    model.fix(m[0], 0)?;
    for pair in m.windows(2) {
        model.post(LinearExpr::from(pair[0]).lt(pair[1]))?;
    }
    let mut distances = Vec::new();
    for i in 0..marks {
        for j in i + 1..marks {
            distances.push(model.var_for(LinearExpr::from(m[j]) - m[i])?);
        }
    }
    model.post(AllDifferent::new(&distances))?;
    // A ruler read backwards is a ruler: keep the one whose first gap is the smaller.
    if distances.len() > 1 {
        model.post(LinearExpr::from(distances[0]).lt(distances[distances.len() - 1]))?;
    }
    Ok((model, m))
}

/// The shortest ruler with `marks` marks: its marks, and whether it is proved optimal.
pub fn shortest(marks: usize) -> Result<(Vec<i32>, bool), ModelError> {
    let (model, m) = model(marks)?;
    let optimum = model.solver().minimize(m[marks - 1])?;
    let (solution, _) = optimum.best().expect("a ruler always exists");
    let ruler = m.iter().map(|&v| solution[v]).collect();
    Ok((ruler, matches!(optimum, Optimum::Optimal { .. })))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let marks: usize = match std::env::args().nth(1) {
        Some(arg) => arg
            .parse()
            .map_err(|_| format!("not a number of marks: {arg}"))?,
        None => 8,
    };
    if !(2..=14).contains(&marks) {
        return Err(format!("between 2 and 14 marks, not {marks}").into());
    }
    let (model, m) = model(marks)?;
    let start = Instant::now();
    let optimum = model
        .solver()
        .minimize_with(m[marks - 1], |solution, length| {
            let ruler: Vec<i32> = m.iter().map(|&v| solution[v]).collect();
            println!("length {length:>3}: {ruler:?}");
        })?;
    match optimum {
        Optimum::Optimal { value, .. } => {
            println!("optimal: {value} (proved in {:.1?})", start.elapsed());
        }
        other => println!("{other:?}"),
    }
    Ok(())
}
