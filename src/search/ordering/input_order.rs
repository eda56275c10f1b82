//! [`InputOrder`]: the first unfixed variable in declaration order.

use super::{SearchView, VariableOrder};
use crate::ids::VarId;

/// Branch on the first unfixed variable in declaration order (also called static or
/// lexicographic order). With [`Ascending`](crate::Ascending) values, solutions come in
/// lexicographic order.
#[derive(Debug, Clone, Copy, Default)]
pub struct InputOrder;

impl VariableOrder for InputOrder {
    #[inline]
    fn select_variable(&mut self, view: &SearchView<'_>) -> Option<VarId> {
        view.unfixed().next()
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
        assert_eq!(InputOrder.select_variable(&view_of(&m, d)), Some(v[2]));
        let (m, _) = model_with(&[&[1], &[2]]);
        let d = m.initial_domains();
        assert_eq!(InputOrder.select_variable(&view_of(&m, d)), None);
    }
}
