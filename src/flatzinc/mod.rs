//! FlatZinc: MiniZinc models solved by cspkit.
//!
//! MiniZinc compiles a model and its data into FlatZinc, a flat list of variables and
//! builtin constraints; a solver reads it and prints its solutions in a fixed format. This
//! module is that solver's front end: [`parse`] reads the text (every error names its line and
//! column), [`build`] makes a cspkit [`Model`](crate::Model) of it (the builtins listed in
//! [`SUPPORTED`], on integers and booleans; floats and set variables are refused by name), and
//! [`run`] solves it with MiniZinc's options and prints the output. `cspkit fzn` and the
//! `fzn-cspkit` program MiniZinc calls are thin wrappers over them.
//!
//! cspkit's MiniZinc library (`share/minizinc/cspkit`, installed by
//! `cspkit fzn --install-msc`) tells the compiler which global constraints to keep whole:
//! all-different, table, global cardinality, circuit, inverse, regular, lex, count and among
//! arrive as one constraint each instead of their decompositions.
//!
//! # Examples
//!
//! ```
//! use cspkit::flatzinc::{self, Options, Status};
//!
//! let text = "var 1..3: x :: output_var;\n\
//!             var 1..3: y :: output_var;\n\
//!             constraint int_lt(x, y);\n\
//!             solve maximize x;\n";
//! let model = flatzinc::build(&flatzinc::parse(text)?)?;
//! let mut out = Vec::new();
//! let status = flatzinc::run(&model, &Options::default(), &mut out)?;
//! assert_eq!(status, Status::Complete);
//! assert_eq!(String::from_utf8(out)?, "x = 2;\ny = 3;\n----------\n==========\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod build;
mod parse;
mod run;

pub use build::{
    FznModel, Goal, OutputItem, OutputValue, SUPPORTED, SearchGroup, ValueChoice, VarChoice, build,
};
pub use parse::{FznError, Pos, parse};
pub use run::{
    AnnotatedOrder, AnnotatedValues, FreeOrder, Options, Status, run, run_observed, solve,
    solver_for, write_solution,
};

/// An expression of the FlatZinc syntax tree.
#[deprecated(
    since = "0.3.0",
    note = "the FlatZinc syntax tree is internal: pass what `parse` returns to `build`"
)]
#[doc(hidden)]
pub type Expr = parse::Expr;

/// An item of the FlatZinc syntax tree.
#[deprecated(
    since = "0.3.0",
    note = "the FlatZinc syntax tree is internal: pass what `parse` returns to `build`"
)]
#[doc(hidden)]
pub type Item = parse::Item;

/// A type of the FlatZinc syntax tree.
#[deprecated(
    since = "0.3.0",
    note = "the FlatZinc syntax tree is internal: pass what `parse` returns to `build`"
)]
#[doc(hidden)]
pub type Type = parse::Type;

/// cspkit's MiniZinc library: the file name and the text of each of its `.mzn` files.
pub const MZNLIB: &[(&str, &str)] = &[
    (
        "redefinitions.mzn",
        include_str!("../../share/minizinc/cspkit/redefinitions.mzn"),
    ),
    (
        "redefinitions-2.0.mzn",
        include_str!("../../share/minizinc/cspkit/redefinitions-2.0.mzn"),
    ),
    (
        "fzn_all_different_int.mzn",
        include_str!("../../share/minizinc/cspkit/fzn_all_different_int.mzn"),
    ),
    (
        "fzn_table_int.mzn",
        include_str!("../../share/minizinc/cspkit/fzn_table_int.mzn"),
    ),
    (
        "fzn_table_bool.mzn",
        include_str!("../../share/minizinc/cspkit/fzn_table_bool.mzn"),
    ),
    (
        "fzn_global_cardinality.mzn",
        include_str!("../../share/minizinc/cspkit/fzn_global_cardinality.mzn"),
    ),
    (
        "fzn_global_cardinality_closed.mzn",
        include_str!("../../share/minizinc/cspkit/fzn_global_cardinality_closed.mzn"),
    ),
    (
        "fzn_global_cardinality_low_up.mzn",
        include_str!("../../share/minizinc/cspkit/fzn_global_cardinality_low_up.mzn"),
    ),
    (
        "fzn_global_cardinality_low_up_closed.mzn",
        include_str!("../../share/minizinc/cspkit/fzn_global_cardinality_low_up_closed.mzn"),
    ),
    (
        "fzn_circuit.mzn",
        include_str!("../../share/minizinc/cspkit/fzn_circuit.mzn"),
    ),
    (
        "fzn_inverse.mzn",
        include_str!("../../share/minizinc/cspkit/fzn_inverse.mzn"),
    ),
    (
        "fzn_regular.mzn",
        include_str!("../../share/minizinc/cspkit/fzn_regular.mzn"),
    ),
    (
        "fzn_lex_lesseq_int.mzn",
        include_str!("../../share/minizinc/cspkit/fzn_lex_lesseq_int.mzn"),
    ),
    (
        "fzn_lex_less_int.mzn",
        include_str!("../../share/minizinc/cspkit/fzn_lex_less_int.mzn"),
    ),
    (
        "fzn_count_eq.mzn",
        include_str!("../../share/minizinc/cspkit/fzn_count_eq.mzn"),
    ),
    (
        "fzn_among.mzn",
        include_str!("../../share/minizinc/cspkit/fzn_among.mzn"),
    ),
    (
        "fzn_subcircuit.mzn",
        include_str!("../../share/minizinc/cspkit/fzn_subcircuit.mzn"),
    ),
    (
        "fzn_cumulative.mzn",
        include_str!("../../share/minizinc/cspkit/fzn_cumulative.mzn"),
    ),
    (
        "fzn_disjunctive.mzn",
        include_str!("../../share/minizinc/cspkit/fzn_disjunctive.mzn"),
    ),
    (
        "fzn_disjunctive_strict.mzn",
        include_str!("../../share/minizinc/cspkit/fzn_disjunctive_strict.mzn"),
    ),
];

#[cfg(test)]
mod tests {
    use super::MZNLIB;

    #[test]
    fn the_embedded_library_is_every_file_of_the_share_folder() {
        let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/share/minizinc/cspkit");
        let mut on_disk: Vec<String> = std::fs::read_dir(folder)
            .expect("the library's folder")
            .map(|entry| {
                entry
                    .expect("an entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        on_disk.sort();
        let mut embedded: Vec<String> = MZNLIB.iter().map(|(name, _)| name.to_string()).collect();
        embedded.sort();
        assert_eq!(embedded, on_disk, "MZNLIB and share/minizinc/cspkit differ");
    }

    #[test]
    #[allow(
        deprecated,
        reason = "checks that the deprecated fields and aliases still work"
    )]
    fn the_deprecated_fields_and_syntax_tree_aliases_still_work() {
        let text = "var 1..3: x :: output_var;\nvar 1..3: y;\nconstraint int_lt(x, y);\n\
                    solve :: int_search([x], input_order, indomain_min) minimize x;\n";
        let items: Vec<super::Item> = super::parse(text).expect("valid FlatZinc");
        assert!(matches!(items[0], super::Item::Decl { .. }));
        let fzn = super::build(&items).expect("a model cspkit reads");
        assert_eq!(fzn.model.num_variables(), fzn.model().num_variables());
        assert!(matches!(
            fzn.goal,
            super::Goal::Optimize { minimize: true, .. }
        ));
        assert_eq!(fzn.search, fzn.search());
        assert_eq!(fzn.output, fzn.output());
        assert_eq!(fzn.clamped, fzn.clamped());
        assert_eq!(fzn.warnings, fzn.warnings());
        assert_eq!(fzn.hidden, fzn.has_hidden_variables());
        assert!(fzn.hidden);
        assert_eq!(fzn.independent, fzn.independent());
        assert_eq!(fzn.start_times, fzn.start_times());
    }
}
