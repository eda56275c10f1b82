//! Graph colouring: give each vertex (a region of a map) one of `k` colours so that
//! neighbours differ. One variable per vertex holding its colour (`1..=k`), one `≠` per edge.
//!
//! This module is built on the crate's public API only: it is what a user could have written.
//!
//! Two built-in graphs, both classics of courses and benchmarks, with vertices of different
//! degrees (so degree-based variable orders behave differently from smallest-domain-first):
//!
//! - [`Colouring::australia`]: the states and territories of Australia (AIMA's first CSP),
//!   three colours suffice; Tasmania has no neighbour.
//! - [`Colouring::mycielski`]: the Mycielski graphs (`myciel3` to `myciel5` of the DIMACS
//!   colouring benchmarks: 11, 23 and 47 vertices), triangle-free but needing 4, 5 and 6
//!   colours, which makes "k − 1 colours" a hard proof of impossibility for backtracking.
//!
//! ```
//! use cspkit::models::colouring::Colouring;
//!
//! let map = Colouring::australia(3)?;
//! assert_eq!(map.count(), 18);
//! let myciel3 = Colouring::mycielski(3, 3)?;
//! assert_eq!(myciel3.count(), 0); // its chromatic number is 4
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::{Model, ModelError, NotEqual, Solution, VarId};

/// A graph colouring model: the model, its vertices' variables and its edges.
#[derive(Debug)]
pub struct Colouring {
    model: Model,
    vertices: Vec<VarId>,
    edges: Vec<(usize, usize)>,
}

/// Australia's states and territories.
const AUSTRALIA: [&str; 7] = ["WA", "NT", "SA", "Q", "NSW", "V", "T"];
/// Their borders, as pairs of indices into [`AUSTRALIA`].
const AUSTRALIA_BORDERS: [(usize, usize); 9] = [
    (0, 1),
    (0, 2),
    (1, 2),
    (1, 3),
    (2, 3),
    (2, 4),
    (2, 5),
    (3, 4),
    (4, 5),
];

impl Colouring {
    /// The graph with vertices named `names` and `edges` (pairs of indices into `names`), in
    /// `colours` colours.
    ///
    /// # Errors
    ///
    /// [`ModelError::InvalidDomain`] if `colours` is not positive,
    /// [`ModelError::InvalidConstraint`] for an edge naming a vertex that does not exist, and
    /// the model's own error for an edge joining a vertex to itself.
    pub fn new<S: AsRef<str>>(
        names: &[S],
        edges: &[(usize, usize)],
        colours: i32,
    ) -> Result<Colouring, ModelError> {
        let mut model = Model::new();
        let vertices = names
            .iter()
            .map(|name| model.new_named_var(name.as_ref(), 1..=colours))
            .collect::<Result<Vec<_>, _>>()?;
        for &(a, b) in edges {
            let (Some(&x), Some(&y)) = (vertices.get(a), vertices.get(b)) else {
                return Err(ModelError::InvalidConstraint {
                    constraint: format!("edge {a}-{b}"),
                    reason: format!("the graph has {} vertices", vertices.len()),
                });
            };
            model.post_named(
                format!("{}-{}", names[a].as_ref(), names[b].as_ref()),
                NotEqual::new(x, y),
            )?;
        }
        Ok(Colouring {
            model,
            vertices,
            edges: edges.to_vec(),
        })
    }

    /// The map of Australia in `colours` colours.
    ///
    /// # Errors
    ///
    /// As [`Colouring::new`].
    pub fn australia(colours: i32) -> Result<Colouring, ModelError> {
        Colouring::new(&AUSTRALIA, &AUSTRALIA_BORDERS, colours)
    }

    /// The Mycielski graph `myciel{order}` (DIMACS naming: 3 is the 11-vertex Grötzsch graph,
    /// each next one doubles it plus one vertex) in `colours` colours. Its chromatic number is
    /// `order + 1`.
    ///
    /// Built from an edge by applying the Mycielskian `order − 1` times: every vertex `v` gets
    /// a twin `v'` adjacent to `v`'s neighbours, and a new vertex is adjacent to every twin.
    ///
    /// # Errors
    ///
    /// [`ModelError::InvalidConstraint`] if `order` is not between 2 and 8 (myciel8 has 383
    /// vertices), and as [`Colouring::new`].
    pub fn mycielski(order: u32, colours: i32) -> Result<Colouring, ModelError> {
        if !(2..=8).contains(&order) {
            return Err(ModelError::InvalidConstraint {
                constraint: format!("myciel{order}"),
                reason: "the Mycielski graphs built in go from myciel2 to myciel8".into(),
            });
        }
        let (mut n, mut edges) = (2usize, vec![(0usize, 1usize)]);
        for _ in 1..order {
            let mut next = edges.clone();
            for &(a, b) in &edges {
                next.push((a, n + b));
                next.push((n + a, b));
            }
            next.extend((0..n).map(|v| (n + v, 2 * n)));
            edges = next;
            n = 2 * n + 1;
        }
        let names: Vec<String> = (1..=n).map(|v| format!("v{v}")).collect();
        Colouring::new(&names, &edges, colours)
    }

    /// The model, to solve with any strategy.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The vertices' variables, in the order given.
    pub fn vertices(&self) -> &[VarId] {
        &self.vertices
    }

    /// The edges, as pairs of indices into [`vertices`](Self::vertices).
    pub fn edges(&self) -> &[(usize, usize)] {
        &self.edges
    }

    /// A solution as `name=colour` pairs separated by spaces.
    ///
    /// # Panics
    ///
    /// If `solution` is not a solution of this model.
    pub fn describe(&self, solution: &Solution) -> String {
        self.vertices
            .iter()
            .map(|&v| format!("{}={}", self.model.var_name(v), solution[v]))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The number of colourings.
    pub fn count(&self) -> u64 {
        self.model.solver().count().solutions
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mycielski_graphs_have_the_published_sizes() {
        // DIMACS: myciel3 11 vertices 20 edges, myciel4 23/71, myciel5 47/236.
        for (order, vertices, edges) in [(3, 11, 20), (4, 23, 71), (5, 47, 236)] {
            let g = Colouring::mycielski(order, 3).unwrap();
            assert_eq!((g.vertices().len(), g.edges().len()), (vertices, edges));
        }
        assert!(Colouring::mycielski(9, 3).is_err());
    }

    #[test]
    fn myciel3_needs_four_colours_and_has_no_triangle() {
        assert_eq!(Colouring::mycielski(3, 3).unwrap().count(), 0);
        let g = Colouring::mycielski(3, 4).unwrap();
        assert!(g.model().solve().is_solved());
        let adjacent = |a, b| g.edges().iter().any(|&e| e == (a, b) || e == (b, a));
        for a in 0..11 {
            for b in a + 1..11 {
                for c in b + 1..11 {
                    assert!(!(adjacent(a, b) && adjacent(b, c) && adjacent(a, c)));
                }
            }
        }
    }

    #[test]
    fn an_edge_to_nowhere_is_refused_by_name() {
        let error = Colouring::new(&["a", "b"], &[(0, 2)], 2).unwrap_err();
        assert!(error.to_string().contains("edge 0-2"), "{error}");
    }
}
