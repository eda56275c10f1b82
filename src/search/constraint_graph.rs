//! The constraint graph of a model of binary constraints: its variables are the nodes, and two
//! variables are joined by an edge when a constraint links them. AC-3
//! ([`Propagation::Ac3`](crate::Propagation::Ac3)) revises its arcs.
//!
//! An edge stands for every constraint between its two variables at once: the pair `(a, b)`
//! is allowed on the edge when each of them allows it. A binary constraint (any constraint
//! whose scope holds two distinct variables) makes one edge; an all-different constraint
//! (any constraint whose [`distinct_views`](crate::Constraint::distinct_views) answers) is read
//! as its binary decomposition, one `≠` per pair of its variables, as the textbooks present
//! Sudoku and map colouring. A constraint on one variable (or an all-different pair on one
//! variable) is unary: AC-3 applies it once, at the root, before the first arc (node
//! consistency). Any other constraint on more than two variables has no arcs, and
//! [`ConstraintGraph::new`] refuses it.
//!
//! Costs: building the graph visits every pair of every all-different, O(Σ k²) for scopes of
//! `k` variables; a revision of the arc `(x, y)` tests at most `|Dx|·|Dy|` pairs, each against
//! the constraints of the edge.

use std::collections::BTreeMap;

use smallvec::SmallVec;

use crate::error::ModelError;
use crate::ids::{ConstraintId, VarId};
use crate::kernel::IntView;
use crate::model::Model;

/// The most values a variable may have for AC-3, which revises arcs value by value.
pub(crate) const MAX_VALUES: usize = 4096;

/// One constraint's test of a pair of values on an edge.
#[derive(Debug, Clone)]
enum Test {
    /// The constraint's own [`check`](crate::Constraint::check): at each position of its scope,
    /// `true` takes the value of the edge's first variable, `false` its second's.
    Check {
        constraint: u32,
        first: SmallVec<[bool; 2]>,
    },
    /// One pair of an all-different: the two views must differ.
    Distinct {
        constraint: u32,
        first: IntView,
        second: IntView,
    },
}

impl Test {
    fn constraint(&self) -> u32 {
        match self {
            Test::Check { constraint, .. } | Test::Distinct { constraint, .. } => *constraint,
        }
    }
}

/// An edge of the graph: two variables and the constraints between them.
#[derive(Debug, Clone)]
struct Edge {
    first: VarId,
    second: VarId,
    tests: Vec<Test>,
}

/// A unary constraint: `var` alone must satisfy the test (both of its values are `var`'s).
#[derive(Debug, Clone)]
struct Unary {
    var: VarId,
    test: Test,
}

/// The constraint graph of a model whose constraints are binary or all-different.
///
/// Its order is documented because AC-3's trace depends on it:
///
/// - **edges** come in the order of the constraints that make them (posting order), and within
///   an all-different in the order of its pairs, `(x₁, x₂), (x₁, x₃), …, (x₂, x₃), …`; an edge
///   already made by an earlier constraint is not repeated, the later constraint joins it;
/// - **arcs**, AC-3's initial queue: for each edge `(x, y)` in that order, `(x, y)` then
///   `(y, x)`;
/// - the **neighbours** of a variable come in the order of their edges.
///
/// # Examples
///
/// ```
/// use cspkit::{ConstraintGraph, Model, NotEqual};
///
/// let mut model = Model::new();
/// let wa = model.new_named_var("WA", 1..=3)?;
/// let nt = model.new_named_var("NT", 1..=3)?;
/// let sa = model.new_named_var("SA", 1..=3)?;
/// model.post(NotEqual::new(wa, nt))?;
/// model.post(NotEqual::new(wa, sa))?;
/// model.post(NotEqual::new(nt, sa))?;
/// let graph = ConstraintGraph::new(&model)?;
/// assert_eq!(graph.edges().count(), 3);
/// let arcs: Vec<_> = graph.arcs().collect();
/// assert_eq!(&arcs[..3], &[(wa, nt), (nt, wa), (wa, sa)]);
/// assert_eq!(graph.neighbours(sa).collect::<Vec<_>>(), [wa, nt]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct ConstraintGraph {
    edges: Vec<Edge>,
    /// For each variable, the arcs `(xₖ, x)` into it (arc `2e` is edge `e` forwards, `2e + 1`
    /// backwards), in edge order.
    incoming: Vec<Vec<u32>>,
    unary: Vec<Unary>,
}

impl ConstraintGraph {
    /// The constraint graph of `model`.
    ///
    /// # Errors
    ///
    /// [`ModelError::NotForAc3`] for a constraint on more than two variables that is not an
    /// all-different (it has no arcs), and for a variable with more than 4096 values, which
    /// AC-3 would revise one by one.
    pub fn new(model: &Model) -> Result<ConstraintGraph, ModelError> {
        let mut edges: Vec<Edge> = Vec::new();
        let mut index: BTreeMap<(u32, u32), usize> = BTreeMap::new();
        let mut unary = Vec::new();
        let mut add = |x: VarId, y: VarId, test: Test| {
            if x == y {
                unary.push(Unary { var: x, test });
                return;
            }
            let key = (x.index.min(y.index), x.index.max(y.index));
            let e = *index.entry(key).or_insert_with(|| {
                edges.push(Edge {
                    first: x,
                    second: y,
                    tests: Vec::new(),
                });
                edges.len() - 1
            });
            let edge = &mut edges[e];
            // Tests are written for (x, y): flip them for an edge made the other way round.
            let test = if edge.first == x {
                test
            } else {
                match test {
                    Test::Check { constraint, first } => Test::Check {
                        constraint,
                        first: first.iter().map(|&f| !f).collect(),
                    },
                    Test::Distinct {
                        constraint,
                        first,
                        second,
                    } => Test::Distinct {
                        constraint,
                        first: second,
                        second: first,
                    },
                }
            };
            edge.tests.push(test);
        };
        for (c, constraint) in model.constraints() {
            let scope = constraint.scope();
            let constraint_index = c.index() as u32;
            let mut distinct: SmallVec<[VarId; 2]> = SmallVec::new();
            for &v in scope {
                if !distinct.contains(&v) {
                    distinct.push(v);
                }
                if distinct.len() > 2 {
                    break;
                }
            }
            if distinct.len() <= 2 {
                let x = distinct[0];
                let y = *distinct.last().unwrap_or(&x);
                let first = scope.iter().map(|&v| v == x).collect();
                add(
                    x,
                    y,
                    Test::Check {
                        constraint: constraint_index,
                        first,
                    },
                );
            } else if let Some(views) = constraint.distinct_views() {
                for (i, &a) in views.iter().enumerate() {
                    for &b in &views[i + 1..] {
                        let test = Test::Distinct {
                            constraint: constraint_index,
                            first: a,
                            second: b,
                        };
                        add(a.var(), b.var(), test);
                    }
                }
            } else {
                return Err(ModelError::NotForAc3 {
                    item: format!(
                        "constraint {} (over {} variables)",
                        model.constraint_name(c),
                        scope.len()
                    ),
                    reason: "only binary constraints, and all-different read as pairwise ≠, \
                             have arcs"
                        .to_owned(),
                });
            }
        }
        let mut incoming = vec![Vec::new(); model.num_variables()];
        for (e, edge) in edges.iter().enumerate() {
            incoming[edge.second.index()].push(2 * e as u32);
            incoming[edge.first.index()].push(2 * e as u32 + 1);
        }
        let graph = ConstraintGraph {
            edges,
            incoming,
            unary,
        };
        if let Some(var) = model
            .variables()
            .find(|&v| model.domain(v).size() > MAX_VALUES && !graph.incoming[v.index()].is_empty())
        {
            return Err(ModelError::NotForAc3 {
                item: format!("variable {}", model.var_name(var)),
                reason: format!(
                    "it has {} values, and AC-3 revises arcs value by value, up to {MAX_VALUES} \
                     values per variable",
                    model.domain(var).size()
                ),
            });
        }
        Ok(graph)
    }

    /// The edges, in the order documented on the type: each joins two variables that one or
    /// more constraints link.
    pub fn edges(&self) -> impl ExactSizeIterator<Item = (VarId, VarId)> + '_ {
        self.edges.iter().map(|e| (e.first, e.second))
    }

    /// The arcs, in the order of AC-3's initial queue: each edge `(x, y)`, then `(y, x)`.
    pub fn arcs(&self) -> impl ExactSizeIterator<Item = (VarId, VarId)> + '_ {
        (0..self.num_arcs()).map(|a| self.arc(a as u32))
    }

    /// The variables `var` shares an edge with, in edge order.
    pub fn neighbours(&self, var: VarId) -> impl Iterator<Item = VarId> + '_ {
        self.incoming
            .get(var.index())
            .into_iter()
            .flatten()
            .map(|&a| self.arc(a).0)
    }

    /// The constraints behind the edge between `x` and `y`, in posting order (none if there is
    /// no edge).
    pub fn constraints_between(&self, x: VarId, y: VarId) -> Vec<ConstraintId> {
        let mut found: Vec<ConstraintId> = self
            .edges
            .iter()
            .filter(|e| (e.first, e.second) == (x, y) || (e.first, e.second) == (y, x))
            .flat_map(|e| e.tests.iter().map(|t| ConstraintId(t.constraint())))
            .collect();
        found.dedup();
        found
    }

    pub(crate) fn num_arcs(&self) -> usize {
        2 * self.edges.len()
    }

    /// The variables of arc `a`: `(from, to)`, revised as REVISE(from, to).
    #[inline]
    pub(crate) fn arc(&self, a: u32) -> (VarId, VarId) {
        let edge = &self.edges[(a / 2) as usize];
        if a.is_multiple_of(2) {
            (edge.first, edge.second)
        } else {
            (edge.second, edge.first)
        }
    }

    /// The arcs `(xₖ, var)` into `var`, in edge order.
    pub(crate) fn incoming(&self, var: VarId) -> &[u32] {
        &self.incoming[var.index()]
    }

    /// The first constraint of arc `a`'s edge, to name in a failure.
    pub(crate) fn arc_constraint(&self, a: u32) -> ConstraintId {
        ConstraintId(self.edges[(a / 2) as usize].tests[0].constraint())
    }

    /// Whether `from = a, to = b` satisfies every constraint of arc `arc`'s edge. `values` is
    /// scratch space for the scope of a constraint's check.
    #[inline]
    pub(crate) fn allows(
        &self,
        model: &Model,
        arc: u32,
        a: i32,
        b: i32,
        values: &mut Vec<i32>,
    ) -> bool {
        let edge = &self.edges[(arc / 2) as usize];
        // The edge's (first, second) values.
        let (p, q) = if arc.is_multiple_of(2) {
            (a, b)
        } else {
            (b, a)
        };
        edge.tests
            .iter()
            .all(|test| test_pair(model, test, p, q, values))
    }

    /// The values of `domains` that fail a unary constraint, in order, each with its variable
    /// and the constraint.
    pub(crate) fn unary_removals(
        &self,
        model: &Model,
        domains: &[crate::Domain],
        values: &mut Vec<i32>,
    ) -> Vec<(VarId, i32, ConstraintId)> {
        let mut removals: Vec<(VarId, i32, ConstraintId)> = Vec::new();
        for unary in &self.unary {
            for a in domains[unary.var.index()].iter() {
                if !test_pair(model, &unary.test, a, a, values)
                    && !removals.iter().any(|r| (r.0, r.1) == (unary.var, a))
                {
                    removals.push((unary.var, a, ConstraintId(unary.test.constraint())));
                }
            }
        }
        removals
    }
}

/// Whether one test allows the edge's first variable `p` and its second `q`.
#[inline]
fn test_pair(model: &Model, test: &Test, p: i32, q: i32, values: &mut Vec<i32>) -> bool {
    match test {
        Test::Distinct { first, second, .. } => first.apply(p) != second.apply(q),
        Test::Check { constraint, first } => {
            values.clear();
            values.extend(first.iter().map(|&f| if f { p } else { q }));
            model.constraint_list()[*constraint as usize].check(values)
        }
    }
}
