//! SEND + MORE = MONEY: every letter is a different digit, and no number starts with 0.
//!
//! Run with `cargo run --release --example send_more_money`.

use cspkit::{AllDifferent, LinearExpr, Model, ModelError, VarId};

/// The puzzle's model and its letters S, E, N, D, M, O, R, Y.
pub fn model() -> Result<(Model, [VarId; 8]), ModelError> {
    let mut model = Model::new();
    let mut digit = |letter: &str| model.new_named_var(letter, 0..=9);
    let [s, e, n, d, m, o, r, y] = [
        digit("S")?,
        digit("E")?,
        digit("N")?,
        digit("D")?,
        digit("M")?,
        digit("O")?,
        digit("R")?,
        digit("Y")?,
    ];

    let send = LinearExpr::from_digits(&[s, e, n, d], 10);
    let more = LinearExpr::from_digits(&[m, o, r, e], 10);
    let money = LinearExpr::from_digits(&[m, o, n, e, y], 10);
    model.post((send + more).eq(money))?;
    model.post(AllDifferent::new(&[s, e, n, d, m, o, r, y]))?;
    model.remove(s, 0)?;
    model.remove(m, 0)?;
    Ok((model, [s, e, n, d, m, o, r, y]))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (model, [s, e, n, d, m, o, r, y]) = model()?;
    let mut solver = model.solver();
    let solution = solver.next_solution().solution().ok_or("no solution")?;
    let number = |digits: &[VarId]| LinearExpr::from_digits(digits, 10).value(&solution);
    println!(
        "  {}\n+ {}\n= {}",
        number(&[s, e, n, d]).unwrap_or_default(),
        number(&[m, o, r, e]).unwrap_or_default(),
        number(&[m, o, n, e, y]).unwrap_or_default(),
    );
    let stats = solver.stats();
    println!("{} decisions, {:?}", stats.decisions, stats.elapsed);
    Ok(())
}
