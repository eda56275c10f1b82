//! `cspkit sudoku --grade` gives the rating on the Sudoku Explainer scale and the ladder's
//! level, and every puzzle task says when a puzzle has more than one solution.

use crate::support::run;

#[test]
fn grade_prints_the_se_rating_and_the_level() {
    // A public-domain puzzle of the Sudoku Exchange bank, published at SE 7.1: it needs a
    // chain (unfair) or a contradiction (extreme) on our ladder, and rates above 6.
    let puzzle =
        "000000900008203100690500070020060830000108000085020090060002087007609300003000000\n";
    let (code, out, err) = run(&["sudoku", "--grade"], puzzle);
    assert_eq!(code, 0, "{err}");
    let rating: f64 = out
        .lines()
        .find_map(|l| l.strip_prefix("rating: "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|r| r.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert!((6.0..=9.0).contains(&rating), "{out}");
    assert!(
        out.contains("level: unfair (technique ladder)")
            || out.contains("level: extreme (technique ladder)"),
        "{out}"
    );
}

#[test]
fn every_task_flags_a_puzzle_with_several_solutions() {
    // Five givens of a 4x4 grid: several completions.
    let puzzle = "1..4..1..1..4...\n";
    for task in ["--grade", "--explain", "--hint", "--why"] {
        let (code, _, err) = run(&["sudoku", task], puzzle);
        assert_eq!(code, 0, "{task}: {err}");
        assert!(err.contains("several solutions"), "{task}: {err}");
    }
    // A proper puzzle is not flagged.
    let proper = "12.434..2143432.\n";
    for task in ["--grade", "--explain", "--hint"] {
        let (_, _, err) = run(&["sudoku", task], proper);
        assert!(!err.contains("several solutions"), "{task}: {err}");
    }
}

#[test]
fn uniqueness_is_used_only_when_asked() {
    // A puzzle of the SE-rated sample whose last hard step, with uniqueness, is a BUG+1.
    let puzzle =
        "003418700100000003004000600000601000400207008000509000001825300390000084200000006\n";
    let (code, plain, _) = run(&["sudoku", "--grade"], puzzle);
    assert_eq!(code, 0);
    assert!(!plain.contains("BUG+1"), "{plain}");
    let (code, asked, _) = run(&["sudoku", "--grade", "--uniqueness"], puzzle);
    assert_eq!(code, 0);
    assert!(asked.contains("hardest step: BUG+1"), "{asked}");
    let (code, steps, _) = run(&["sudoku", "--state", "--explain", "--uniqueness"], puzzle);
    assert_eq!(code, 0);
    assert!(steps.contains(": BUG+1: "), "{steps}");
    // The reason-backed path of --explain without --state knows no uniqueness.
    let (code, _, err) = run(&["sudoku", "--explain", "--uniqueness"], puzzle);
    assert_eq!(code, 2);
    assert!(
        err.contains("--uniqueness goes with --grade or --state"),
        "{err}"
    );
}
