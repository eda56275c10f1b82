//! Errors a user can cause while building a model.
//!
//! Failures *during* search are not errors: a propagator that finds a contradiction returns a
//! [`Conflict`](crate::Conflict), and a model without solutions yields
//! [`Outcome::Exhausted`](crate::Outcome::Exhausted).

use thiserror::Error;

/// A set of values cannot be made into a [`Domain`](crate::Domain).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum DomainError {
    /// No values were given.
    #[error("the domain is empty")]
    Empty,
}

/// Something is wrong with how a model was built.
///
/// Every variant names what is wrong and where (the variable or the constraint), so the message
/// can be shown to a user as it is.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ModelError {
    /// A variable was declared with an unusable domain.
    #[error("variable {variable}: {source}")]
    InvalidDomain {
        /// The variable's display name.
        variable: String,
        /// What is wrong with the domain.
        #[source]
        source: DomainError,
    },
    /// A variable handle from another model (or forged) was used with this model.
    #[error("{context}: variable {variable} does not belong to this model")]
    ForeignVariable {
        /// Where the variable was used (a constraint name or an operation).
        context: String,
        /// The debug form of the handle.
        variable: String,
    },
    /// A constraint was posted with no variables.
    #[error("constraint {constraint} has an empty scope")]
    EmptyScope {
        /// The constraint's name.
        constraint: String,
    },
    /// A variable was fixed to, or asked to keep, a value its domain does not hold.
    #[error("variable {variable} cannot take the value {value}: it is not in its domain {domain}")]
    ValueNotInDomain {
        /// The variable's display name.
        variable: String,
        /// The value asked for.
        value: i32,
        /// The domain, as written by [`Domain`](crate::Domain)'s `Display`.
        domain: String,
    },
    /// Removing a value from a variable left it with none.
    #[error("removing {value} from variable {variable} leaves its domain empty")]
    DomainWipeout {
        /// The variable's display name.
        variable: String,
        /// The value whose removal emptied the domain.
        value: i32,
    },
    /// A tuple of a table has a different number of values than the table's scope.
    #[error(
        "constraint {constraint}: tuple {tuple} has {found} values, but the scope has {expected} variables"
    )]
    TupleArity {
        /// The constraint's name.
        constraint: String,
        /// The position of the tuple in the list given, starting at 0.
        tuple: usize,
        /// The number of values in the tuple.
        found: usize,
        /// The number of variables in the scope.
        expected: usize,
    },
    /// A coefficient or constant is too large for the arithmetic of a constraint.
    #[error("constraint {constraint}: arithmetic overflow: {detail}")]
    ArithmeticOverflow {
        /// The constraint's name.
        constraint: String,
        /// Which number overflows, and why.
        detail: String,
    },
    /// A constraint's own argument check failed.
    #[error("constraint {constraint}: {reason}")]
    InvalidConstraint {
        /// The constraint's name.
        constraint: String,
        /// What is wrong with its arguments.
        reason: String,
    },
    /// AC-3 ([`Propagation::Ac3`](crate::Propagation::Ac3)) was asked for a model it cannot
    /// take: a constraint on more than two variables that is not an all-different, or a
    /// variable with too many values to revise one by one.
    #[error("AC-3 cannot take {item}: {reason}")]
    NotForAc3 {
        /// The constraint or variable, by name.
        item: String,
        /// Why, and what AC-3 takes.
        reason: String,
    },
}

/// A name given for one of the crate's named choices ([`PropagationLevel`], [`Branching`],
/// [`GridFormat`], a table format) is not one of its names.
///
/// [`PropagationLevel`]: crate::PropagationLevel
/// [`Branching`]: crate::Branching
/// [`GridFormat`]: crate::models::sudoku::GridFormat
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown {kind} {given:?}: expected one of {}", expected.join(", "))]
pub struct ParseNameError {
    /// What was being named (`propagation level`, …).
    pub kind: &'static str,
    /// The name given.
    pub given: String,
    /// The names accepted.
    pub expected: &'static [&'static str],
}

/// Finds `given` among `names` (each a name and its value), or says what was expected.
pub(crate) fn parse_name<T: Copy>(
    kind: &'static str,
    given: &str,
    names: &[(&str, T)],
    expected: &'static [&'static str],
) -> Result<T, ParseNameError> {
    names
        .iter()
        .find(|(name, _)| *name == given)
        .map(|&(_, value)| value)
        .ok_or_else(|| ParseNameError {
            kind,
            given: given.to_owned(),
            expected,
        })
}
