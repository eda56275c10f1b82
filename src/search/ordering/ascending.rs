//! [`Ascending`]: the smallest value first.

use super::{SearchView, ValueOrder};
use crate::ids::VarId;

/// Try the smallest value first.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ascending;

impl ValueOrder for Ascending {
    #[inline]
    fn select_value(&mut self, var: VarId, view: &SearchView<'_>) -> i32 {
        view.domain(var).min().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{model_with, view_of};
    use super::*;

    #[test]
    fn ascending_picks_the_smallest_value() {
        let (m, v) = model_with(&[&[-4, 0, 9]]);
        let d = m.initial_domains();
        assert_eq!(Ascending.select_value(v[0], &view_of(&m, d)), -4);
    }
}
