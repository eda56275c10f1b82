//! The guide's excerpts of the worked example are the example's code, verbatim.

/// Every `rust,ignore` block of `docs/custom-constraints.md` is an excerpt of
/// `examples/custom_constraint.rs` (the guide's complete blocks run as doctests instead).
#[test]
fn the_guides_excerpts_are_verbatim_in_the_example() {
    let guide = include_str!("../docs/custom-constraints.md");
    let example = include_str!("../examples/custom_constraint.rs");
    let mut excerpts = 0;
    for block in guide.split("```rust,ignore\n").skip(1) {
        let code = block.split("\n```").next().expect("a closed code block");
        assert!(
            example.contains(code),
            "this excerpt is not in examples/custom_constraint.rs:\n{code}"
        );
        excerpts += 1;
    }
    assert_eq!(excerpts, 7, "the guide's excerpts were counted wrong");
}
