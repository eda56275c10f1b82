//! The search tree as Graphviz DOT text (`dot -Tsvg tree.dot > tree.svg` draws it).

use std::fmt::Write as _;

use super::tree::{NodeStatus, SearchTree};

/// A DOT string literal's contents.
fn quote(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// The recorded tree as a DOT digraph: one line per node (`n0`, `n1`, …, filled red for a
/// failure with the reason as tooltip, green for a solution) and one per edge, labelled with
/// the decision.
///
/// # Examples
///
/// ```
/// use cspkit::models::queens::Queens;
/// use cspkit::teach::{dot, tree::SearchTree};
///
/// let queens = Queens::new(4)?;
/// let mut tree = SearchTree::new(queens.model());
/// let _ = queens.model().solver().with_observer(&mut tree).next_solution();
/// let text = dot::render(&tree);
/// assert!(text.starts_with("digraph search {"));
/// assert!(text.contains("n0 -> n1 [label=\"row 1 = 1\"];"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn render(tree: &SearchTree<'_>) -> String {
    let mut out = String::from(
        "digraph search {\n  node [shape=circle, label=\"\", width=0.2, style=filled, \
         fillcolor=white];\n  edge [fontsize=9];\n",
    );
    for (id, node) in tree.nodes().iter().enumerate() {
        let id = id as u64;
        let (color, tip) = match node.status {
            NodeStatus::Failed { .. } => ("#d62728", tree.reason(id)),
            NodeStatus::Solution => ("#2ca02c", "solution".to_owned()),
            NodeStatus::Open => ("#cccccc", "open".to_owned()),
            NodeStatus::Inner => ("white", String::new()),
        };
        let _ = writeln!(
            out,
            "  n{id} [fillcolor=\"{color}\", tooltip=\"node {id}: {}{}{}\"];",
            quote(&tree.label(id)),
            if tip.is_empty() { "" } else { " — " },
            quote(&tip)
        );
    }
    for (id, node) in tree.nodes().iter().enumerate() {
        if let Some(parent) = node.parent {
            let _ = writeln!(
                out,
                "  n{parent} -> n{id} [label=\"{}\"];",
                quote(&tree.label(id as u64))
            );
        }
    }
    if tree.cut() > 0 {
        let _ = writeln!(
            out,
            "  cut [shape=plaintext, label=\"{} more tree nodes not recorded\"];",
            tree.cut()
        );
    }
    out.push_str("}\n");
    out
}
