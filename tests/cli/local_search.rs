//! `--local-search min-conflicts`: every solution printed is valid (checked here with an
//! independent check, not the library's), a run that finds nothing exits 3 with "no solution
//! found in N steps" and never says that there is no solution, and the options that make no
//! sense with local search are refused.

use crate::support::cspkit;
use std::process::{Command, Output};

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The columns of the last line of `cspkit queens`' output.
fn columns(text: &str) -> Vec<usize> {
    let last = text.lines().last().unwrap_or_default();
    last.split(' ')
        .map(|c| c.parse().expect("a column"))
        .collect()
}

/// Whether `columns` places non-attacking queens, by counting rows per column and diagonal.
fn non_attacking(columns: &[usize]) -> bool {
    let n = columns.len();
    let (mut column, mut diagonal, mut anti) =
        (vec![0; n + 1], vec![0; 2 * n + 1], vec![0; 2 * n + 1]);
    for (row, &c) in columns.iter().enumerate() {
        if !(1..=n).contains(&c) {
            return false;
        }
        column[c] += 1;
        diagonal[c + n - row] += 1;
        anti[c + row] += 1;
    }
    column.iter().chain(&diagonal).chain(&anti).all(|&k| k <= 1)
}

/// The message of a run that found nothing: it says that this is not a proof.
fn assert_not_found_and_not_unsatisfiable(output: &Output) {
    let err = stderr(output);
    assert_eq!(output.status.code(), Some(3), "{err}");
    assert!(err.contains("cspkit: no solution found in "), "{err}");
    assert!(err.contains("this does not mean there is none"), "{err}");
    assert!(
        !err.lines().any(|l| l.trim() == "cspkit: no solution"),
        "{err}"
    );
    assert!(stdout(output).is_empty());
}

#[test]
fn queens_placed_by_local_search_never_attack_each_other_whatever_the_seed() {
    for n in [4, 8, 9, 25, 100, 1000] {
        for seed in 0..6 {
            let seed = seed.to_string();
            let n_text = n.to_string();
            let output = cspkit(&[
                "queens",
                &n_text,
                "--local-search",
                "min-conflicts",
                "--seed",
                &seed,
            ]);
            assert_eq!(
                output.status.code(),
                Some(0),
                "n = {n}, seed {seed}: {}",
                stderr(&output)
            );
            let text = stdout(&output);
            let placed = columns(&text);
            assert_eq!(placed.len(), n);
            assert!(non_attacking(&placed), "n = {n}, seed {seed}");
            // The board is drawn above the columns, a queen per row at its column.
            let board: Vec<&str> = text.lines().take(n).collect();
            for (row, line) in board.iter().enumerate() {
                assert_eq!(line.find('Q'), Some(placed[row] - 1));
            }
        }
    }
}

#[test]
fn boards_beyond_the_tree_search_take_local_search_and_print_the_columns_only() {
    let output = cspkit(&["queens", "20000"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("--local-search"),
        "{}",
        stderr(&output)
    );
    let output = cspkit(&[
        "queens",
        "20000",
        "--local-search",
        "min-conflicts",
        "--seed",
        "4",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert_eq!(text.lines().count(), 1);
    let placed = columns(&text);
    assert_eq!(placed.len(), 20_000);
    assert!(non_attacking(&placed));
    let output = cspkit(&[
        "queens",
        "20000",
        "--model",
        "binary",
        "--local-search",
        "min-conflicts",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let output = cspkit(&["queens", "10000001", "--local-search", "min-conflicts"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn colourings_and_sudokus_by_local_search_satisfy_every_constraint() {
    // Australia's borders (AIMA figure 6.1).
    let borders = [
        ("WA", "NT"),
        ("WA", "SA"),
        ("NT", "SA"),
        ("NT", "Q"),
        ("SA", "Q"),
        ("SA", "NSW"),
        ("SA", "V"),
        ("Q", "NSW"),
        ("NSW", "V"),
    ];
    for seed in 0..20 {
        let seed = seed.to_string();
        let output = cspkit(&[
            "colour",
            "australia",
            "--local-search",
            "min-conflicts",
            "--seed",
            &seed,
        ]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let text = stdout(&output);
        let colour = |region: &str| -> u32 {
            let pair = text
                .split_whitespace()
                .find(|p| p.split('=').next() == Some(region))
                .expect("every region is coloured");
            pair.split('=')
                .nth(1)
                .and_then(|c| c.parse().ok())
                .expect("a colour")
        };
        for (a, b) in borders {
            assert_ne!(colour(a), colour(b), "{a} and {b}, seed {seed}: {text}");
            assert!((1..=3).contains(&colour(a)));
        }
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/sudoku/2580.txt");
    let givens = std::fs::read_to_string(path).unwrap();
    for seed in 0..5 {
        let seed = seed.to_string();
        let output = cspkit(&[
            "sudoku",
            path,
            "--local-search",
            "min-conflicts",
            "--seed",
            &seed,
        ]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let grid: Vec<Vec<u32>> = stdout(&output)
            .lines()
            .map(|l| l.split_whitespace().map(|d| d.parse().unwrap()).collect())
            .collect();
        let puzzle: Vec<Vec<u32>> = givens
            .lines()
            .map(|l| l.split_whitespace().map(|d| d.parse().unwrap()).collect())
            .collect();
        let all = |cells: Vec<u32>| {
            let mut sorted = cells;
            sorted.sort_unstable();
            sorted == (1..=9).collect::<Vec<_>>()
        };
        for i in 0..9 {
            assert!(all(grid[i].clone()), "row {i}");
            assert!(all((0..9).map(|r| grid[r][i]).collect()), "column {i}");
            let (r0, c0) = (3 * (i / 3), 3 * (i % 3));
            assert!(
                all((0..9).map(|k| grid[r0 + k / 3][c0 + k % 3]).collect()),
                "box {i}"
            );
            for j in 0..9 {
                assert!(
                    puzzle[i][j] == 0 || puzzle[i][j] == grid[i][j],
                    "given at {i}, {j}"
                );
            }
        }
    }
}

#[test]
fn a_run_that_finds_nothing_says_so_and_never_that_there_is_no_solution() {
    // 3 queens have no placement, Australia no 2-colouring: the tree search says "no
    // solution" (exit 1); local search cannot know.
    let output = cspkit(&[
        "queens",
        "3",
        "--local-search",
        "min-conflicts",
        "--max-steps",
        "2000",
    ]);
    assert_not_found_and_not_unsatisfiable(&output);
    assert!(
        stderr(&output).contains("found in 2000 steps"),
        "{}",
        stderr(&output)
    );
    let output = cspkit(&[
        "colour",
        "australia",
        "--colours",
        "2",
        "--local-search",
        "min-conflicts",
    ]);
    assert_not_found_and_not_unsatisfiable(&output);
    assert_eq!(
        cspkit(&["colour", "australia", "--colours", "2"])
            .status
            .code(),
        Some(1)
    );
    // A model with solutions, given too few steps.
    let output = cspkit(&[
        "queens",
        "200",
        "--local-search",
        "min-conflicts",
        "--max-steps",
        "0",
    ]);
    assert_not_found_and_not_unsatisfiable(&output);
    // Stopped by the time limit: the same answer, and the limit named.
    let output = cspkit(&[
        "queens",
        "3",
        "--local-search",
        "min-conflicts",
        "--time-limit",
        "0",
        "--max-steps",
        "100000000",
    ]);
    assert_not_found_and_not_unsatisfiable(&output);
    assert!(
        stderr(&output).contains("time limit"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn the_trace_shows_each_step_in_the_models_names_up_to_its_limit() {
    let output = cspkit(&[
        "queens",
        "8",
        "--local-search",
        "min-conflicts",
        "--seed",
        "1",
        "--trace",
        "--trace-limit",
        "2000",
    ]);
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    let steps: Vec<&str> = text.lines().filter(|l| l.starts_with("step ")).collect();
    assert!(!steps.is_empty());
    assert!(steps[0].starts_with("step 1: row "), "{}", steps[0]);
    assert!(
        steps
            .iter()
            .all(|l| l.contains(" -> ") && l.contains("(conflicts "))
    );
    // Seed 1 on 8 queens wanders on a plateau and restarts once (see --stats).
    assert!(
        text.lines().any(|l| l.starts_with("restart 1 after ")),
        "{text}"
    );
    assert!(
        steps.last().unwrap().ends_with(", 0 in all)"),
        "{}",
        steps.last().unwrap()
    );
    let output = cspkit(&[
        "queens",
        "8",
        "--local-search",
        "min-conflicts",
        "--seed",
        "1",
        "--trace",
        "--trace-limit",
        "3",
    ]);
    let text = stdout(&output);
    // The start, then two steps: three lines.
    assert!(text.starts_with("start: row 1 = "), "{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with("step ")).count(), 2);
    assert!(
        text.contains("more trace lines not shown (--trace-limit 3)"),
        "{text}"
    );
}

#[test]
fn stats_give_the_steps_and_restarts() {
    let output = cspkit(&[
        "queens",
        "8",
        "--local-search",
        "min-conflicts",
        "--seed",
        "1",
        "--stats",
    ]);
    let err = stderr(&output);
    assert!(
        err.contains("strategy: local search min-conflicts, seed 1"),
        "{err}"
    );
    assert!(err.contains("steps 1039, restarts 1,"), "{err}");
    let output = cspkit(&[
        "queens",
        "8",
        "--local-search",
        "min-conflicts",
        "--stats=json",
    ]);
    let err = stderr(&output);
    assert!(
        err.trim().starts_with("{\"method\":\"min-conflicts\""),
        "{err}"
    );
    assert!(err.contains("\"status\":\"solved\""), "{err}");
    let output = cspkit(&[
        "queens",
        "3",
        "--local-search",
        "min-conflicts",
        "--max-steps",
        "10",
        "--stats=csv",
    ]);
    let err = stderr(&output);
    assert!(err.starts_with("method,seed,max_steps,restart_after,steps,restarts,time_ms,status\n"));
    assert!(err.contains(",10,0,"), "{err}");
    assert!(err.contains(",not found\n"), "{err}");
}

#[test]
fn options_of_the_tree_search_are_refused_with_local_search() {
    for extra in [
        &["--count"][..],
        &["--all"],
        &["--tree", "tree.svg"],
        &["--step"],
        &["--trace-domains"],
        &["--jobs", "2"],
        &["--restarts", "luby", "--var-order", "mrv-random"],
        &["--decision-limit", "10"],
    ] {
        let mut args = vec!["queens", "8", "--local-search", "min-conflicts"];
        args.extend_from_slice(extra);
        let output = cspkit(&args);
        assert_eq!(output.status.code(), Some(2), "{extra:?}");
        assert!(
            stderr(&output).contains("--local-search"),
            "{extra:?}: {}",
            stderr(&output)
        );
        assert!(stdout(&output).is_empty());
    }
    let output = cspkit(&[
        "sudoku",
        "--batch",
        "--local-search",
        "min-conflicts",
        "x.txt",
    ]);
    assert_eq!(output.status.code(), Some(2));
    // The step options need --local-search; --seed without a random order still needs it.
    assert_eq!(
        cspkit(&["queens", "8", "--max-steps", "10"]).status.code(),
        Some(2)
    );
    assert_eq!(
        cspkit(&["queens", "8", "--seed", "3"]).status.code(),
        Some(2)
    );
    assert_eq!(
        cspkit(&["queens", "8", "--local-search", "other"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn local_search_on_an_optimisation_says_that_the_objective_is_ignored() {
    let path = std::env::temp_dir().join(format!("cspkit-local-min-{}.fzn", std::process::id()));
    std::fs::write(
        &path,
        "var 1..9: x :: output_var;\nvar 1..9: y;\nconstraint int_ne(x, y);\nsolve minimize x;\n",
    )
    .unwrap();
    let path_text = path.to_str().unwrap();
    let output = cspkit(&["fzn", path_text, "--local-search", "min-conflicts"]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("ignores the objective (minimize)"),
        "{}",
        stderr(&output)
    );
    // A solution, never claimed optimal.
    assert!(stdout(&output).contains("----------"));
    assert!(!stdout(&output).contains("=========="));
}

#[test]
fn the_time_limit_holds_while_a_large_board_is_built() {
    // Four million queens take seconds to build (their model, before any step), which the
    // time limit counts: a limit of 0.2 s ends the run long before the board is built.
    let run = crate::common::output_within(
        Command::new(env!("CARGO_BIN_EXE_cspkit")).args([
            "queens",
            "4000000",
            "--local-search",
            "min-conflicts",
            "--time-limit",
            "0.2",
        ]),
        std::time::Duration::from_millis(1500),
    );
    assert!(!run.timed_out, "still building after 1.5 s");
    assert_eq!(run.output.status.code(), Some(3));
    assert!(
        stderr(&run.output).contains("time limit"),
        "{}",
        stderr(&run.output)
    );
}
