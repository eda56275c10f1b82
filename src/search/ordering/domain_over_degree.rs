//! [`DomainOverDegree`]: the smallest ratio of domain size to degree (dom/deg).

use super::{SearchView, VariableOrder};
use crate::ids::VarId;

/// Branch on the variable with the smallest ratio of domain size to degree (the number of
/// constraints on it), also called dom/deg; ties go to the earliest declared. A variable under
/// no constraint has an infinite ratio and comes after all others (among themselves, the
/// smallest domain first).
#[derive(Debug, Clone, Copy, Default)]
pub struct DomainOverDegree;

impl VariableOrder for DomainOverDegree {
    fn select_variable(&mut self, view: &SearchView<'_>) -> Option<VarId> {
        let mut best: Option<(u64, u64, VarId)> = None;
        for var in view.unfixed() {
            let size = view.domain(var).size() as u64;
            let degree = view.degree(var) as u64;
            // size / degree < best_size / best_degree, compared without division; degree 0
            // counts as an infinitely large ratio.
            let better = match best {
                None => true,
                Some((s, d, _)) => match (degree, d) {
                    (0, 0) => size < s,
                    (0, _) => false,
                    (_, 0) => true,
                    _ => size * d < s * degree,
                },
            };
            if better {
                best = Some((size, degree, var));
            }
        }
        best.map(|(_, _, var)| var)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{model_with, view_of};
    use super::*;

    #[test]
    fn fixed_variables_are_never_selected() {
        let (m, v) = model_with(&[&[1], &[2], &[1, 2, 3], &[4, 5]]);
        let d = m.initial_domains();
        assert_eq!(
            DomainOverDegree.select_variable(&view_of(&m, d)),
            Some(v[3])
        );
        let (m, _) = model_with(&[&[1], &[2]]);
        let d = m.initial_domains();
        assert_eq!(DomainOverDegree.select_variable(&view_of(&m, d)), None);
    }

    #[test]
    fn domain_over_degree_prefers_constrained_variables() {
        let (mut m, v) = model_with(&[&[1, 2], &[1, 2, 3, 4], &[1, 2, 3, 4], &[1, 2, 3]]);
        // v1 has degree 3: ratio 4/3 < 2/1 (v0, degree 1) and < 3/0 (v3, no constraint).
        m.post(crate::NotEqual::new(v[1], v[0])).unwrap();
        m.post(crate::NotEqual::new(v[1], v[2])).unwrap();
        m.post(crate::NotEqual::with_offset(v[1], v[2], 1)).unwrap();
        let d = m.initial_domains();
        assert_eq!(
            DomainOverDegree.select_variable(&view_of(&m, d)),
            Some(v[1])
        );
    }
}
