//! The chromatic number of a graph by minimisation: colour the vertices so that neighbours
//! differ, with as few colours as possible. The Mycielski graphs have no triangle, yet need
//! one more colour at each step: myciel3 needs 4, myciel4 needs 5.
//!
//! The colours used are `0..=top`, with `top` the [`Model::max`] of the vertices' colours;
//! [`Solver::minimize`](cspkit::Solver::minimize) finds a colouring and proves no smaller
//! `top` works.
//!
//! Run with `cargo run --release --example chromatic [ORDER]` (4 by default: myciel4).

use std::time::Instant;

use cspkit::models::colouring::Colouring;
use cspkit::{Model, ModelError, NotEqual, Optimum, VarId};

/// The colouring model of a graph with `vertices` vertices and the given edges: the colours,
/// and the largest colour used.
pub fn model(
    vertices: usize,
    edges: &[(usize, usize)],
) -> Result<(Model, Vec<VarId>, VarId), ModelError> {
    let mut model = Model::new();
    let colours = model.new_named_vars("colour", vertices, 0..=vertices as i32 - 1)?;
    for &(a, b) in edges {
        model.post(NotEqual::new(colours[a], colours[b]))?;
    }
    // Colours are interchangeable: the ends of the first edge take 0 and 1.
    if let Some(&(a, b)) = edges.first() {
        model.fix(colours[a], 0)?;
        model.fix(colours[b], 1)?;
    }
    let top = model.max(&colours)?;
    Ok((model, colours, top))
}

/// The chromatic number of the graph, proved: `None` if a limit stopped the search.
pub fn chromatic_number(
    vertices: usize,
    edges: &[(usize, usize)],
) -> Result<Option<i64>, ModelError> {
    let (model, _, top) = model(vertices, edges)?;
    let optimum = model
        .solver()
        .with_variable_order(cspkit::DomainOverDegree)
        .minimize(top)?;
    Ok(match optimum {
        Optimum::Optimal { value, .. } => Some(value + 1),
        _ => None,
    })
}

/// The vertices and edges of the Mycielski graph of `order` (myciel2 is an edge).
pub fn mycielski(order: u32) -> Result<(usize, Vec<(usize, usize)>), ModelError> {
    let graph = Colouring::mycielski(order, 2)?;
    Ok((graph.vertices().len(), graph.edges().to_vec()))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let order: u32 = match std::env::args().nth(1) {
        Some(arg) => arg.parse().map_err(|_| format!("not an order: {arg}"))?,
        None => 4,
    };
    let (vertices, edges) = mycielski(order)?;
    let start = Instant::now();
    match chromatic_number(vertices, &edges)? {
        Some(k) => println!(
            "myciel{order} ({vertices} vertices, {} edges): chromatic number {k} (proved in {:.1?})",
            edges.len(),
            start.elapsed()
        ),
        None => println!("myciel{order}: not proved"),
    }
    Ok(())
}
