//! [`SmallestDomain`]: the variable with the fewest values left (MRV, first-fail).

use super::{SearchView, VariableOrder};
use crate::ids::VarId;

/// Branch on the variable with the fewest values left (also called MRV, minimum remaining
/// values, or first-fail); ties go to the earliest declared. For ties broken at random, see
/// [`SmallestDomainRandomTies`](crate::SmallestDomainRandomTies).
///
/// Not for start times of tasks: under a common horizon the start with the fewest values
/// left is the one whose earliest start is the latest, so this order places the latest task
/// first and can search for seconds without finding a schedule of a job shop. Use
/// [`SmallestMinimum`](crate::SmallestMinimum) there.
///
/// Cost: see [`SearchView::smallest_domain`], which makes the choice: a pass over the open
/// variables while those are few or a domain of two values comes early, O(1) from an index of
/// the domain sizes once the passes get long.
#[derive(Debug, Clone, Copy, Default)]
pub struct SmallestDomain;

impl VariableOrder for SmallestDomain {
    #[inline]
    fn select_variable(&mut self, view: &SearchView<'_>) -> Option<VarId> {
        view.smallest_domain()
    }
}

/// The candidate with the fewest values left, the first of `candidates` among ties, or `None`
/// if there is none: the pass of [`SearchView::smallest_domain`], over any candidates in any
/// order. FlatZinc's `first_fail` runs it over an annotation's variables, in the annotation's
/// order, which breaks ties as MiniZinc asks.
///
/// The pass stops at the first domain of [`SearchView::min_unfixed_size`]: no candidate still
/// to branch on has fewer values.
#[inline]
pub(crate) fn smallest_domain_among(
    view: &SearchView<'_>,
    candidates: impl Iterator<Item = VarId>,
) -> Option<VarId> {
    let mut best: Option<(usize, VarId)> = None;
    let floor = view.min_unfixed_size();
    for var in candidates {
        let size = view.domain(var).size();
        if best.is_none_or(|(s, _)| size < s) {
            best = Some((size, var));
            if size <= floor {
                break; // No unfixed domain is smaller.
            }
        }
    }
    best.map(|(_, var)| var)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{model_with, view_of};
    use super::*;

    #[test]
    fn fixed_variables_are_never_selected() {
        let (m, v) = model_with(&[&[1], &[2], &[1, 2, 3], &[4, 5]]);
        let d = m.initial_domains();
        assert_eq!(SmallestDomain.select_variable(&view_of(&m, d)), Some(v[3]));
        let (m, _) = model_with(&[&[1], &[2]]);
        let d = m.initial_domains();
        assert_eq!(SmallestDomain.select_variable(&view_of(&m, d)), None);
    }

    #[test]
    fn smallest_domain_breaks_ties_by_declaration_order() {
        let (m, v) = model_with(&[&[1, 2, 3], &[1, 2], &[3, 4], &[1, 2, 3, 4]]);
        let d = m.initial_domains();
        assert_eq!(SmallestDomain.select_variable(&view_of(&m, d)), Some(v[1]));
    }

    #[test]
    fn among_candidates_ties_go_to_the_first_candidate_in_their_order() {
        let (m, v) = model_with(&[&[1, 2, 3], &[1, 2], &[3, 4], &[7]]);
        let d = m.initial_domains();
        let view = view_of(&m, d);
        let pick = |order: &[usize]| smallest_domain_among(&view, order.iter().map(|&i| v[i]));
        assert_eq!(pick(&[0, 2, 1]), Some(v[2]));
        assert_eq!(pick(&[0, 1, 2]), Some(v[1]));
        assert_eq!(pick(&[0]), Some(v[0]));
        assert_eq!(pick(&[]), None);
    }
}
