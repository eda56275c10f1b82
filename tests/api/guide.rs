//! The guide stays true to its worked example: its excerpts are the example's code, verbatim,
//! and the conformance report it shows is the one the kit prints.

use cspkit::conformance::ConformanceTest;

#[allow(
    dead_code,
    reason = "only the constraint is used here, not the example's main"
)]
#[path = "../../examples/custom_constraint.rs"]
mod example;

const GUIDE: &str = include_str!("../../docs/custom-constraints.md");

/// Every `rust,ignore` block of the guide is an excerpt of `examples/custom_constraint.rs`
/// (the guide's complete blocks run as doctests instead).
#[test]
fn the_guides_excerpts_are_verbatim_in_the_example() {
    let example = include_str!("../../examples/custom_constraint.rs");
    let mut excerpts = 0;
    for block in GUIDE.split("```rust,ignore\n").skip(1) {
        let code = block.split("\n```").next().expect("a closed code block");
        assert!(
            example.contains(code),
            "this excerpt is not in examples/custom_constraint.rs:\n{code}"
        );
        excerpts += 1;
    }
    assert_eq!(excerpts, 7, "the guide's excerpts were counted wrong");
}

#[test]
fn the_guides_conformance_report_is_the_one_the_kit_prints() {
    let report = ConformanceTest::new(2, -3..=6, |vars| {
        example::NotConsecutive::new(vars[0], vars[1])
    })
    .cases(500)
    .assert_conforms();
    let printed = report.to_string();
    assert!(
        GUIDE.contains(&printed),
        "the guide should show:\n{printed}"
    );
}

/// The guide's catalogue names every constraint the crate exports, so that a new one cannot
/// be left out of it.
#[test]
fn the_catalogue_lists_every_built_in_constraint() {
    let lib = include_str!("../../src/lib.rs");
    let catalogue = GUIDE
        .split("## Which constraint do I need?")
        .next()
        .expect("the guide has a catalogue");
    let mut listed = 0;
    for line in lib
        .lines()
        .filter(|l| l.starts_with("pub use constraints::"))
    {
        let names = line
            .trim_start_matches("pub use ")
            .trim_end_matches(';')
            .rsplit("::")
            .next()
            .expect("a path");
        for name in names.trim_matches(|c| c == '{' || c == '}').split(',') {
            let name = name.trim();
            if ["Comparison", "Operation", "Dfa"].contains(&name) || name.is_empty() {
                continue; // arguments of constraints, not constraints
            }
            assert!(
                catalogue.contains(&format!("`{name}::")),
                "the catalogue of docs/custom-constraints.md does not list {name}"
            );
            listed += 1;
        }
    }
    assert!(
        listed >= 18,
        "only {listed} constraints found in src/lib.rs"
    );
}
