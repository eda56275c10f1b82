//! The sentences the views of a search write about its events, written once, so that the
//! trace, the tree's page and the AC-3 page say the same thing in the same words.

use crate::ids::{ConstraintId, VarId};
use crate::model::Model;
use crate::search::observer::BranchKind;

/// What a solution's line says.
pub(crate) const SOLUTION: &str = "✓ solution";

/// A branch: `row 2 = 4`, `x ≠ 3`, `y ≤ 5`, `y > 5`.
pub(crate) fn branch(model: &Model, var: VarId, kind: BranchKind, value: i32) -> String {
    format!(
        "{} {} {}",
        model.var_name(var),
        kind.symbol(),
        model.value_name(var, value)
    )
}

/// `var` lost its last value: `row 3 has no value left`, with the constraint that emptied it
/// if there is one (`row 3 has no value left (diagonals)`).
pub(crate) fn no_value_left(model: &Model, var: VarId, constraint: Option<ConstraintId>) -> String {
    match constraint {
        Some(c) => format!(
            "{} has no value left ({})",
            model.var_name(var),
            model.constraint_name(c)
        ),
        None => format!("{} has no value left", model.var_name(var)),
    }
}

/// Why a node failed: the variable left without a value and the constraint that reported it,
/// whichever are known.
pub(crate) fn failure(
    model: &Model,
    constraint: Option<ConstraintId>,
    var: Option<VarId>,
) -> String {
    match (constraint, var) {
        (_, Some(var)) => no_value_left(model, var, constraint),
        (Some(c), None) => model.constraint_name(c).to_owned(),
        (None, None) => "no value left".to_owned(),
    }
}

/// AC-3's REVISE(`from`, `to`) and what it removed: `revise(x, y): removed 1, 2` or
/// `revise(x, y): nothing removed`.
pub(crate) fn revise(model: &Model, from: VarId, to: VarId, removed: &[i32]) -> String {
    let mut text = format!("revise({}, {}): ", model.var_name(from), model.var_name(to));
    if removed.is_empty() {
        text.push_str("nothing removed");
    } else {
        let values: Vec<String> = removed
            .iter()
            .map(|&v| model.value_name(from, v).into_owned())
            .collect();
        text.push_str("removed ");
        text.push_str(&values.join(", "));
    }
    text
}

/// `n` things, in the plural unless `n` is 1: `1 arc`, `3 decisions`.
pub(crate) fn counted(n: u64, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sentences_name_variables_and_constraints_as_the_model_does() {
        let mut model = Model::new();
        let x = model.new_named_var("x", 0..=3).unwrap();
        let y = model.new_named_var("y", 0..=3).unwrap();
        let c = model.post(crate::NotEqual::new(x, y)).unwrap();
        let name = model.constraint_name(c).to_owned();
        assert_eq!(branch(&model, x, BranchKind::NotEqual, 2), "x ≠ 2");
        assert_eq!(
            failure(&model, Some(c), Some(y)),
            format!("y has no value left ({name})")
        );
        assert_eq!(failure(&model, Some(c), None), name);
        assert_eq!(failure(&model, None, Some(x)), "x has no value left");
        assert_eq!(failure(&model, None, None), "no value left");
        assert_eq!(revise(&model, x, y, &[]), "revise(x, y): nothing removed");
        assert_eq!(revise(&model, x, y, &[1, 3]), "revise(x, y): removed 1, 3");
        assert_eq!(counted(1, "arc"), "1 arc");
        assert_eq!(counted(0, "arc"), "0 arcs");
    }
}
