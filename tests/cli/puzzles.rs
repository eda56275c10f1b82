//! `cspkit sudoku --generate | --grade | --explain | --hint | --why` and `cspkit fzn --explain`,
//! run as a user would; generated puzzles are checked by `cspkit sudoku --count`.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common::BAEKJOON_2239;

/// Runs `cspkit` with `stdin`: exit code, standard output, standard error.
fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cspkit"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cspkit runs");
    // A program that refuses its options exits without reading: the pipe may be closed.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let output = child.wait_with_output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The number of solutions of a puzzle, up to 2, as `cspkit sudoku --count` says.
fn solutions(puzzle: &str) -> String {
    let (_, out, _) = run(&["sudoku", "--count", "--limit", "2"], puzzle);
    out.trim().to_owned()
}

#[test]
fn generated_puzzles_are_unique_reproducible_and_summarised() {
    let args = ["sudoku", "--generate", "--count", "4", "--seed", "7"];
    let (code, out, err) = run(&args, "");
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4);
    for line in &lines {
        assert_eq!(line.len(), 81);
        assert_eq!(solutions(line), "1", "{line}");
    }
    assert!(
        err.contains("4 puzzles in") && err.contains("clues: min"),
        "{err}"
    );
    assert_eq!(
        run(&args, "").1,
        out,
        "the same seed gives the same puzzles"
    );
    let other = run(&["sudoku", "--generate", "--count", "4", "--seed", "8"], "").1;
    assert_ne!(other, out);
}

#[test]
fn generated_puzzles_meet_the_size_symmetry_and_difficulty_asked() {
    let (code, out, _) = run(
        &["sudoku", "--generate", "--size", "4", "--format", "compact"],
        "",
    );
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 4);
    assert_eq!(solutions(&out), "1");
    let (_, easy, _) = run(
        &[
            "sudoku",
            "--generate",
            "--symmetric",
            "--difficulty",
            "easy",
            "--seed",
            "2",
        ],
        "",
    );
    let cells: Vec<char> = easy.trim().chars().collect();
    for i in 0..81 {
        assert_eq!(cells[i] == '0', cells[80 - i] == '0', "cell {i} of {easy}");
    }
    let (_, grade, _) = run(&["sudoku", "--grade"], &easy);
    assert!(grade.starts_with("difficulty: forward"), "{grade}");
    let (_, hard, _) = run(
        &[
            "sudoku",
            "--generate",
            "--difficulty",
            "hard",
            "--seed",
            "2",
        ],
        "",
    );
    let (_, grade, _) = run(&["sudoku", "--grade"], &hard);
    assert!(
        grade.starts_with("difficulty: search (hardest technique: guess)"),
        "{grade}"
    );
}

#[test]
fn the_explanation_places_the_solutions_values_and_the_hint_is_its_first_line() {
    let (code, out, _) = run(&["sudoku", "--explain"], BAEKJOON_2239);
    assert_eq!(code, 0);
    let (_, solved, _) = run(&["sudoku", "--format", "line"], BAEKJOON_2239);
    let solved: Vec<char> = solved.trim().chars().collect();
    let mut placed = 0;
    for line in out.lines() {
        // `r3c4 = 5: ...`
        let Some((cell, rest)) = line.split_once(" = ") else {
            continue;
        };
        let Some((row, col)) = cell.strip_prefix('r').and_then(|c| c.split_once('c')) else {
            continue;
        };
        let (row, col): (usize, usize) = (row.parse().unwrap(), col.parse().unwrap());
        let value = rest.split(':').next().unwrap();
        assert_eq!(value, solved[(row - 1) * 9 + col - 1].to_string(), "{line}");
        placed += 1;
    }
    let givens = BAEKJOON_2239
        .chars()
        .filter(|c| ('1'..='9').contains(c))
        .count();
    assert_eq!(placed, 81 - givens);
    assert_eq!(out.lines().last(), Some("solved"));
    let (code, hint, _) = run(&["sudoku", "--hint"], BAEKJOON_2239);
    assert_eq!(code, 0);
    assert_eq!(
        hint.lines().collect::<Vec<_>>(),
        [out.lines().next().unwrap()]
    );
}

#[test]
fn why_names_the_clashing_givens_and_grade_reports_no_solution() {
    let mut puzzle = ".".repeat(81);
    puzzle.replace_range(0..1, "5");
    puzzle.replace_range(8..9, "5");
    puzzle.replace_range(40..41, "3");
    let (code, out, _) = run(&["sudoku", "--why"], &puzzle);
    assert_eq!(code, 1);
    assert!(
        out.starts_with("givens r1c1=5, r1c9=5: two 5s in row 1"),
        "{out}"
    );
    let (code, out, _) = run(&["sudoku", "--grade"], &puzzle);
    assert_eq!((code, out.starts_with("no solution")), (1, true), "{out}");
    let (code, out, _) = run(&["sudoku", "--why"], BAEKJOON_2239);
    assert_eq!(code, 0);
    assert!(out.contains("has a solution"), "{out}");
}

#[test]
fn bad_puzzle_options_are_refused_with_a_message() {
    for (args, says) in [
        (
            &["sudoku", "--generate", "--count", "x"][..],
            "--count needs a number",
        ),
        (&["sudoku", "--generate", "--size", "5"], "4, 9, 16 or 25"),
        (
            &["sudoku", "--explain", "--all"],
            "cannot be combined with --all",
        ),
        (&["sudoku", "--grade", "--why"], "cannot be used with"),
        (&["sudoku", "--clues", "20"], "--generate"),
    ] {
        let (code, _, err) = run(args, BAEKJOON_2239);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn a_flatzinc_model_is_explained_in_its_own_names() {
    let model = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/minizinc/queens8.fzn");
    let (code, out, _) = run(&["fzn", model, "--explain"], "");
    assert_eq!(code, 0);
    assert!(out.lines().any(|l| l.starts_with("q[")), "{out}");
    assert_eq!(out.lines().last(), Some("solved"));
}
