//! Handles: [`VarId`] for a variable, [`ConstraintId`] for a posted constraint. They are the
//! bottom layer of the crate: every other module may use them.

use std::fmt;

/// A handle to a variable of one [`Model`](crate::Model).
///
/// It is a small `Copy` value: an index into the model plus the model's identity, so using a
/// handle with another model is caught (as [`ModelError::ForeignVariable`](crate::ModelError)).
/// Handles are ordered by declaration, which is the order [`InputOrder`](crate::InputOrder)
/// branches in.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId {
    // `model` first would order handles of different models apart; within one model (the only
    // comparison that matters) the order is the declaration order either way.
    pub(crate) model: u32,
    pub(crate) index: u32,
}

impl VarId {
    /// The position of the variable in declaration order, starting at 0.
    ///
    /// Useful to index vectors kept beside a model, such as a
    /// [`Solution`](crate::Solution)'s [`values`](crate::Solution::values).
    #[inline]
    pub fn index(self) -> usize {
        self.index as usize
    }
}

impl fmt::Debug for VarId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "VarId({})", self.index)
    }
}

impl fmt::Display for VarId {
    /// The default display name of an unnamed variable: `x` and its index, as in `x3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "x{}", self.index)
    }
}

/// Identifies a constraint posted on a model, in posting order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConstraintId(pub(crate) u32);

impl ConstraintId {
    /// The position of the constraint in posting order, starting at 0.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
