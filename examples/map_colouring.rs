//! Map colouring: give each region a colour so that neighbours differ.
//!
//! Run with `cargo run --release --example map_colouring`.

use cspkit::{Model, ModelError, NotEqual, VarId};

/// Australia's states and territories, and the pairs that share a border.
pub const AUSTRALIA: [&str; 7] = ["WA", "NT", "SA", "Q", "NSW", "V", "T"];
/// The borders of [`AUSTRALIA`]; Tasmania (T) has none.
#[rustfmt::skip]
pub const AUSTRALIA_BORDERS: [(&str, &str); 9] = [
    ("WA", "NT"), ("WA", "SA"), ("NT", "SA"), ("NT", "Q"), ("SA", "Q"),
    ("SA", "NSW"), ("SA", "V"), ("Q", "NSW"), ("NSW", "V"),
];

/// One variable per region with colours `1..=colours`, and `≠` across every border.
pub fn model<S: AsRef<str>>(
    regions: &[S],
    borders: &[(S, S)],
    colours: i32,
) -> Result<(Model, Vec<VarId>), ModelError> {
    let mut model = Model::new();
    let mut vars = Vec::new();
    for region in regions {
        vars.push(model.new_named_var(region.as_ref(), 1..=colours)?);
    }
    for (a, b) in borders {
        let (a, b) = (a.as_ref(), b.as_ref());
        let (Some(x), Some(y)) = (model.var_by_name(a), model.var_by_name(b)) else {
            return Err(ModelError::InvalidConstraint {
                constraint: format!("border {a}-{b}"),
                reason: "no region of that name".into(),
            });
        };
        model.post(NotEqual::new(x, y))?;
    }
    Ok((model, vars))
}

/// The Petersen graph: an outer 5-cycle `o0..o4`, an inner pentagram `i0..i4`, and spokes.
pub fn petersen() -> (Vec<String>, Vec<(String, String)>) {
    let names = (0..5)
        .map(|i| format!("o{i}"))
        .chain((0..5).map(|i| format!("i{i}")));
    let edges = (0..5).flat_map(|i| {
        [
            (format!("o{i}"), format!("o{}", (i + 1) % 5)),
            (format!("o{i}"), format!("i{i}")),
            (format!("i{i}"), format!("i{}", (i + 2) % 5)),
        ]
    });
    (names.collect(), edges.collect())
}

fn main() -> Result<(), ModelError> {
    let (australia, regions) = model(&AUSTRALIA, &AUSTRALIA_BORDERS, 3)?;
    let solution = australia.solve().solution();
    for (region, var) in AUSTRALIA.iter().zip(&regions) {
        println!(
            "{region}: colour {}",
            solution.as_ref().map_or(0, |s| s[*var])
        );
    }
    println!("{} colourings", australia.solver().count().solutions);
    let (mainland, _) = model(&AUSTRALIA[..6], &AUSTRALIA_BORDERS, 3)?;
    println!("{} without Tasmania", mainland.solver().count().solutions);

    let (names, edges) = petersen();
    for colours in [2, 3] {
        let (graph, _) = model(&names, &edges, colours)?;
        let colourable = graph.solve().is_solved();
        println!(
            "Petersen graph, {colours} colours: {}",
            if colourable { "yes" } else { "no" }
        );
    }
    Ok(())
}
