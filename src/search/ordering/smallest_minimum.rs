//! [`SmallestMinimum`]: the variable with the smallest value left (the earliest start, for
//! start times), ties to the smallest domain.

use super::{SearchView, VariableOrder};
use crate::ids::VarId;

/// Branch on the variable whose smallest value is the smallest (MiniZinc's `smallest`, Gecode's
/// `INT_VAR_MIN_MIN`); ties go to the smallest domain, then to the earliest declared.
///
/// This is the order for start times. With [`Ascending`](crate::Ascending) values it
/// schedules the task that can start first, at its earliest start, as the *set times*
/// heuristic of scheduling does (Le Pape, Couronné, Vergamini and Gosselin, 1994): the
/// schedule grows from time 0 forward, every task placed as early as what is already placed
/// allows, and on a job shop with a horizon long enough for the tasks one after another
/// (the sum of the durations) the first solution comes without a failure. [`SmallestDomain`]
/// is the wrong order here: under a common horizon, the start with the fewest values left is
/// the one whose earliest start was pushed the latest, so smallest-domain-first places tasks
/// late first and leaves gaps that the earlier tasks cannot fill; on the Lawrence job shops
/// la07, la08 and la10 it finds no schedule in seconds (`docs/strategies.md`).
///
/// [`SmallestDomain`]: crate::SmallestDomain
///
/// Cost per call: one pass over the unfixed variables.
///
/// # Examples
///
/// Two tasks of durations 3 and 2 on one machine, and a third that follows the first:
///
/// ```
/// use cspkit::{Disjunctive, LinearExpr, Model, SmallestMinimum};
///
/// let mut model = Model::new();
/// let start = model.new_vars(3, 0..=10)?;
/// model.post(Disjunctive::new(&start[..2], &[3, 2])?)?;
/// model.post((LinearExpr::from(start[0]) + 3).le(start[2]))?;
/// let mut solver = model.solver().with_variable_order(SmallestMinimum);
/// let solution = solver.next_solution().solution().unwrap();
/// // The first task at 0, the second after it, the third as soon as the first ends.
/// assert_eq!(solution.values(), [0, 3, 3]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct SmallestMinimum;

impl VariableOrder for SmallestMinimum {
    fn select_variable(&mut self, view: &SearchView<'_>) -> Option<VarId> {
        smallest_minimum_among(view, view.unfixed())
    }
}

/// The variable of `candidates` with the smallest minimum, ties to the smallest domain, then
/// to the first: the choice of [`SmallestMinimum`] among some variables only.
pub(crate) fn smallest_minimum_among(
    view: &SearchView<'_>,
    candidates: impl Iterator<Item = VarId>,
) -> Option<VarId> {
    let mut best: Option<(i32, usize, VarId)> = None;
    for var in candidates {
        let domain = view.domain(var);
        let key = (domain.min().unwrap_or(i32::MAX), domain.size());
        if best.is_none_or(|(min, size, _)| key < (min, size)) {
            best = Some((key.0, key.1, var));
        }
    }
    best.map(|(_, _, var)| var)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{model_with, narrowed, view_of};
    use super::*;

    #[test]
    fn the_variable_with_the_smallest_value_is_chosen() {
        let (m, v) = model_with(&[&[3, 4, 5], &[2, 9], &[1], &[4, 5]]);
        let d = m.initial_domains();
        // v[2] is fixed: never chosen, though its value is the smallest.
        assert_eq!(SmallestMinimum.select_variable(&view_of(&m, d)), Some(v[1]));
    }

    #[test]
    fn ties_go_to_the_smallest_domain_then_the_earliest_declared() {
        let (m, v) = model_with(&[&[1, 2, 3], &[1, 5], &[1, 7], &[2, 3]]);
        let d = m.initial_domains();
        assert_eq!(SmallestMinimum.select_variable(&view_of(&m, d)), Some(v[1]));
        let mut below = d.to_vec();
        below[1] = narrowed(&d[1], &[5]);
        assert_eq!(
            SmallestMinimum.select_variable(&view_of(&m, &below)),
            Some(v[2])
        );
    }

    #[test]
    fn nothing_is_chosen_when_every_variable_is_fixed() {
        let (m, _) = model_with(&[&[1], &[2]]);
        let d = m.initial_domains();
        assert_eq!(SmallestMinimum.select_variable(&view_of(&m, d)), None);
    }
}
