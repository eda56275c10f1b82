//! The six comparison operators, shared by the arithmetic constraints.

use std::fmt;

/// A comparison between two integers: `=`, `≠`, `≤`, `<`, `≥` or `>`.
///
/// It is the operator of [`Linear`](crate::Linear) (`Σ aᵢ·xᵢ op c`),
/// [`Relation`](crate::Relation) (`x op y + c`) and [`Distance`](crate::Distance)
/// (`|x − y| op c`).
///
/// # Examples
///
/// ```
/// use cspkit::Comparison;
///
/// assert!(Comparison::Le.holds(3, 3));
/// assert!(!Comparison::Lt.holds(3, 3));
/// assert_eq!(Comparison::Lt.flipped(), Comparison::Gt); // a < b  ⇔  b > a
/// assert_eq!(Comparison::Lt.negated(), Comparison::Ge); // ¬(a < b)  ⇔  a ≥ b
/// assert_eq!(Comparison::Ne.to_string(), "≠");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Comparison {
    /// `=`
    Eq,
    /// `≠`
    Ne,
    /// `≤`
    Le,
    /// `<`
    Lt,
    /// `≥`
    Ge,
    /// `>`
    Gt,
}

impl Comparison {
    /// All six operators.
    pub const ALL: [Comparison; 6] = [
        Comparison::Eq,
        Comparison::Ne,
        Comparison::Le,
        Comparison::Lt,
        Comparison::Ge,
        Comparison::Gt,
    ];

    /// Whether `lhs op rhs`.
    #[inline]
    pub fn holds(self, lhs: i64, rhs: i64) -> bool {
        match self {
            Comparison::Eq => lhs == rhs,
            Comparison::Ne => lhs != rhs,
            Comparison::Le => lhs <= rhs,
            Comparison::Lt => lhs < rhs,
            Comparison::Ge => lhs >= rhs,
            Comparison::Gt => lhs > rhs,
        }
    }

    /// The operator with its sides swapped: `a op b` exactly when `b op.flipped() a`.
    pub fn flipped(self) -> Comparison {
        match self {
            Comparison::Le => Comparison::Ge,
            Comparison::Lt => Comparison::Gt,
            Comparison::Ge => Comparison::Le,
            Comparison::Gt => Comparison::Lt,
            same => same,
        }
    }

    /// The opposite operator: `a op.negated() b` exactly when not `a op b`.
    pub fn negated(self) -> Comparison {
        match self {
            Comparison::Eq => Comparison::Ne,
            Comparison::Ne => Comparison::Eq,
            Comparison::Le => Comparison::Gt,
            Comparison::Lt => Comparison::Ge,
            Comparison::Ge => Comparison::Lt,
            Comparison::Gt => Comparison::Le,
        }
    }

    /// The mathematical symbol: `=`, `≠`, `≤`, `<`, `≥`, `>`.
    pub fn symbol(self) -> &'static str {
        match self {
            Comparison::Eq => "=",
            Comparison::Ne => "≠",
            Comparison::Le => "≤",
            Comparison::Lt => "<",
            Comparison::Ge => "≥",
            Comparison::Gt => ">",
        }
    }
}

impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flipped_and_negated_agree_with_holds() {
        for op in Comparison::ALL {
            for a in -2..=2 {
                for b in -2..=2 {
                    assert_eq!(op.holds(a, b), op.flipped().holds(b, a), "{op} flipped");
                    assert_eq!(op.holds(a, b), !op.negated().holds(a, b), "{op} negated");
                }
            }
        }
    }
}
