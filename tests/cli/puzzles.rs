//! `cspkit sudoku --generate | --grade | --explain | --hint | --why` and `cspkit fzn --explain`,
//! run as a user would; generated puzzles are checked by `cspkit sudoku --count`.

use std::process::{Command, Stdio};

use crate::common::BAEKJOON_2239;
use crate::support::run;

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

/// A file of `tests/data`.
fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs `cspkit` with no input, and fails the test if it is still running after `seconds`
/// (a generous bound, to catch a limit that does not hold): exit code, standard output,
/// standard error.
fn run_within(args: &[&str], seconds: u64) -> (i32, String, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_cspkit"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cspkit runs");
    let pid = child.id();
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(child.wait_with_output());
    });
    match receiver.recv_timeout(std::time::Duration::from_secs(seconds)) {
        Ok(output) => {
            let output = output.unwrap();
            (
                output.status.code().unwrap_or(-1),
                String::from_utf8_lossy(&output.stdout).into_owned(),
                String::from_utf8_lossy(&output.stderr).into_owned(),
            )
        }
        Err(_) => {
            let _ = Command::new("kill").arg(pid.to_string()).status();
            panic!("cspkit {args:?} still running after {seconds} s");
        }
    }
}

#[test]
fn why_on_a_large_clash_stops_at_its_time_limit_with_the_givens_found_so_far() {
    let file = data("sudoku_25x25_clash.txt");
    let (code, out, err) = run_within(&["sudoku", &file, "--why", "--time-limit", "1"], 30);
    assert_eq!(code, 3, "{err}");
    assert!(out.starts_with("givens r1c1=7"), "{out}");
    assert!(err.contains("--why stopped (time limit reached"), "{err}");
}

#[test]
fn grade_explain_and_hint_stop_at_their_time_limit() {
    let file = data("sudoku_25x25_slow_to_grade.txt");
    for task in ["--grade", "--explain", "--hint"] {
        let (code, _, err) = run_within(&["sudoku", &file, task, "--time-limit", "1"], 30);
        // The path may end before the limit; if not, the limit says so.
        assert!(
            code == 0 || (code == 3 && err.contains("time limit reached")),
            "{task}: {code} {err}"
        );
    }
    let (code, _, err) = run_within(&["sudoku", &file, "--grade", "--time-limit", "1"], 30);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("--grade stopped (time limit reached"), "{err}");
}

#[test]
fn a_25x25_puzzle_is_generated_and_a_time_limit_stops_generation_with_the_puzzles_made() {
    let (code, out, err) = run_within(&["sudoku", "--generate", "--size", "25"], 240);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim().len(), 625);
    assert_eq!(solutions(&out), "1", "{out}");
    let args = ["sudoku", "--generate", "--size", "25", "--count", "1000"];
    let (code, out, err) = run_within(&[&args[..], &["--time-limit", "1"]].concat(), 30);
    assert_eq!(code, 3, "{err}");
    assert!(out.lines().count() < 1000);
    assert!(
        err.contains("--generate stopped (time limit reached, --time-limit) after"),
        "{err}"
    );
}

#[test]
fn explain_and_hint_on_a_sudoku_without_solution_say_it_has_none() {
    // No solution, and no chain of single-unit deductions shows it.
    let puzzle =
        "301800000000009400080005000000100600100004830090502000400007050709040006002000907";
    let (code, out, err) = run(&["sudoku", "--explain"], puzzle);
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(
        out.lines().last(),
        Some("no deduction left, and a search finds no solution: the puzzle has none")
    );
    assert!(!out.contains("a guess is needed"), "{out}");
    let (code, _, err) = run(&["sudoku", "--hint"], puzzle);
    assert_eq!(code, 1);
    assert!(err.contains("no solution"), "{err}");
}

#[test]
fn a_flatzinc_model_without_solution_is_explained_as_having_none() {
    let model = data("pigeonhole_4_into_3.fzn");
    let (code, out, _) = run(&["fzn", &model, "--explain"], "");
    assert_eq!(code, 1, "{out}");
    assert_eq!(
        out.lines().last(),
        Some("no deduction left, and a search finds no solution: the model has none")
    );
}

#[test]
fn grade_says_when_a_puzzle_has_several_solutions() {
    let mut puzzle = ".".repeat(81);
    puzzle.replace_range(0..1, "5");
    let (code, out, err) = run(&["sudoku", "--grade"], &puzzle);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("solutions: several"), "{out}");
    let (_, out, _) = run(&["sudoku", "--grade"], BAEKJOON_2239);
    assert!(out.contains("solutions: 1"), "{out}");
}

#[test]
fn generate_refuses_a_clue_target_beyond_the_grid_and_speaks_the_options_words() {
    for (size, clues, range) in [
        ("9", "200", "1 to 81"),
        ("4", "17", "1 to 16"),
        ("9", "0", "1 to 81"),
    ] {
        let (code, _, err) = run(
            &["sudoku", "--generate", "--size", size, "--clues", clues],
            "",
        );
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains(&format!("--clues {clues}")) && err.contains(range),
            "{err}"
        );
    }
    // No 4x4 puzzle needs a guess: the message names the difficulty as it was asked for.
    let (code, _, err) = run(
        &[
            "sudoku",
            "--generate",
            "--size",
            "4",
            "--difficulty",
            "hard",
            "--seed",
            "3",
        ],
        "",
    );
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("no puzzle of difficulty hard in 100 attempts: "),
        "{err}"
    );
    assert!(!err.contains("search"), "{err}");
}

#[test]
fn a_batch_line_may_have_blanks_on_either_side() {
    let line: String = BAEKJOON_2239.lines().collect();
    let input = format!("  {line}\n{line}  \n\t{line}\t\n");
    let (code, out, err) = run(&["sudoku", "--batch"], &input);
    assert_eq!(code, 0, "{err}");
    let answers: Vec<&str> = out.lines().collect();
    assert_eq!(answers.len(), 3, "{out}");
    assert!(
        answers.iter().all(|a| *a == answers[0] && a.len() == 81),
        "{out}"
    );
}

#[test]
fn why_reports_two_equal_givens_in_a_row_as_that_pair_among_many_givens() {
    // A published puzzle (magictour top 1465, number 9) with two 5s added in row 1.
    let puzzle =
        "5.5...41.9..3.....3...5.....48..7..........62.1.......6..2....5.7....8......9....";
    let (code, out, _) = run(&["sudoku", "--why"], puzzle);
    assert_eq!(code, 1);
    assert!(
        out.starts_with("givens r1c1=5, r1c3=5: two 5s in row 1"),
        "{out}"
    );
}
