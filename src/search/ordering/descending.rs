//! [`Descending`]: the largest value first.

use super::{SearchView, ValueOrder};
use crate::ids::VarId;

/// Try the largest value first.
#[derive(Debug, Clone, Copy, Default)]
pub struct Descending;

impl ValueOrder for Descending {
    #[inline]
    fn select_value(&mut self, var: VarId, view: &SearchView<'_>) -> i32 {
        view.domain(var).max().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{model_with, view_of};
    use super::*;

    #[test]
    fn descending_picks_the_largest_value() {
        let (m, v) = model_with(&[&[-4, 0, 9]]);
        let d = m.initial_domains();
        assert_eq!(Descending.select_value(v[0], &view_of(&m, d)), 9);
    }
}
