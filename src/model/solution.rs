//! [`Solution`]: a value for every variable of a model.

use std::ops::Index;

use crate::domain::Domain;
use crate::ids::VarId;
use crate::model::Model;

/// A value for every variable of a model.
///
/// Index it with a [`VarId`], or read [`values`](Solution::values) in declaration order.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Solution {
    model: u32,
    values: Box<[i32]>,
}

impl Solution {
    /// The solution with these values, one per variable of `model` in declaration order.
    pub(crate) fn from_values(model: &Model, values: Vec<i32>) -> Solution {
        Solution {
            model: model.id(),
            values: values.into_boxed_slice(),
        }
    }

    /// The solution held by `domains`, all fixed.
    pub(crate) fn from_domains(model: &Model, domains: &[Domain]) -> Solution {
        Solution {
            model: model.id(),
            values: domains.iter().filter_map(Domain::value).collect(),
        }
    }

    /// The value of `var`, or `None` if `var` is not a variable of the solved model.
    pub fn get(&self, var: VarId) -> Option<i32> {
        if var.model != self.model {
            return None;
        }
        self.values.get(var.index()).copied()
    }

    /// The values of all variables, in declaration order.
    pub fn values(&self) -> &[i32] {
        &self.values
    }

    /// The values of `vars`, in their order.
    ///
    /// # Panics
    ///
    /// If one of `vars` is not a variable of the solved model.
    pub fn values_of(&self, vars: &[VarId]) -> Vec<i32> {
        vars.iter().map(|&v| self[v]).collect()
    }
}

impl Index<VarId> for Solution {
    type Output = i32;

    /// # Panics
    ///
    /// If `var` is not a variable of the solved model.
    fn index(&self, var: VarId) -> &i32 {
        assert!(
            var.model == self.model,
            "{var:?} is not a variable of the solved model"
        );
        &self.values[var.index()]
    }
}

impl std::fmt::Debug for Solution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Solution").field(&self.values).finish()
    }
}
