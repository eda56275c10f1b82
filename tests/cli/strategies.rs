//! The `cspkit` program's strategy and thread options: random orders, seeds, restarts and
//! `--jobs`, run as a user would.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use crate::common;

use common::{BAEKJOON_2239, BAEKJOON_2239_ANSWER};

fn cspkit(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cspkit"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the cspkit binary runs");
    // Programs that reject their arguments exit without reading: a broken pipe is fine then.
    let _ = child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(stdin.as_bytes());
    child.wait_with_output().expect("cspkit finishes")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 messages")
}

/// Whether the last line of a `cspkit queens` answer, the columns from 1, is a placement of
/// `n` queens.
fn is_placement(answer: &str, n: usize) -> bool {
    let Some(line) = answer.lines().last() else {
        return false;
    };
    let columns: Vec<i64> = line
        .split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect();
    columns.len() == n
        && columns.iter().all(|&c| (1..=n as i64).contains(&c))
        && (0..n).all(|i| {
            (i + 1..n).all(|j| {
                let (a, b) = (columns[i], columns[j]);
                a != b && (a - b).abs() != (j - i) as i64
            })
        })
}

#[test]
fn random_orders_place_the_queens_the_same_way_for_the_same_seed() {
    let mut placements = Vec::new();
    for seed in ["0", "1", "2", "3"] {
        let args = [
            "queens",
            "30",
            "--var-order",
            "mrv-random",
            "--value-order",
            "random",
            "--seed",
            seed,
        ];
        let first = cspkit(&args, "");
        assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
        assert!(is_placement(&stdout(&first), 30), "{}", stdout(&first));
        assert_eq!(stdout(&cspkit(&args, "")), stdout(&first), "seed {seed}");
        placements.push(stdout(&first));
    }
    placements.sort();
    placements.dedup();
    assert!(placements.len() > 1, "every seed gave the same placement");
    // Without --seed, the seed is 0.
    let default = cspkit(&["queens", "30", "--value-order", "random"], "");
    let zero = cspkit(
        &["queens", "30", "--value-order", "random", "--seed", "0"],
        "",
    );
    assert_eq!(stdout(&default), stdout(&zero));
}

#[test]
fn middle_out_and_restarts_place_many_queens() {
    let middle = cspkit(
        &[
            "queens",
            "200",
            "--var-order",
            "mrv",
            "--value-order",
            "middle",
        ],
        "",
    );
    assert!(is_placement(&stdout(&middle), 200));
    for restarts in ["luby", "geometric"] {
        let output = cspkit(
            &[
                "queens",
                "300",
                "--var-order",
                "mrv-random",
                "--value-order",
                "middle",
                "--restarts",
                restarts,
                "--restart-base",
                "5",
                "--seed",
                "11",
                "--stats",
            ],
            "",
        );
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        assert!(is_placement(&stdout(&output), 300));
        assert!(
            stderr(&output).contains("decisions "),
            "{}",
            stderr(&output)
        );
    }
}

#[test]
fn a_restart_search_proves_that_a_puzzle_has_no_solution() {
    // No two givens clash, but the top-left cell has no value left.
    let dead_end = "012345678\n900000000\n".to_owned() + &"000000000\n".repeat(7);
    for level in ["none", "forward", "full"] {
        let output = cspkit(
            &[
                "sudoku",
                "--value-order",
                "random",
                "--restarts",
                "luby",
                "--restart-base",
                "1",
                "--propagation",
                level,
            ],
            &dead_end,
        );
        assert_eq!(output.status.code(), Some(1), "{level}");
        assert!(stderr(&output).contains("no solution"));
    }
    let solved = cspkit(
        &[
            "sudoku",
            "--var-order",
            "mrv-random",
            "--restarts",
            "geometric",
        ],
        BAEKJOON_2239,
    );
    assert_eq!(stdout(&solved), BAEKJOON_2239_ANSWER);
}

#[test]
fn counts_and_listings_are_the_same_on_any_number_of_threads() {
    // Placements of n queens, n = 6..=9 (OEIS A000170).
    for (n, expected) in [(6, "4"), (7, "40"), (8, "92"), (9, "352")] {
        let n = n.to_string();
        let sequential_all = cspkit(&["queens", &n, "--all"], "");
        for jobs in ["1", "2", "3", "4"] {
            let count = cspkit(&["queens", &n, "--count", "--jobs", jobs], "");
            assert_eq!(stdout(&count).trim(), expected, "n = {n}, {jobs} jobs");
            let all = cspkit(&["queens", &n, "--all", "--jobs", jobs], "");
            assert_eq!(
                stdout(&all),
                stdout(&sequential_all),
                "n = {n}, {jobs} jobs"
            );
            let limited = cspkit(&["queens", &n, "--all", "--limit", "3", "--jobs", jobs], "");
            let first_three: Vec<String> = stdout(&sequential_all)
                .split("\n\n")
                .take(3)
                .map(|s| s.trim().to_owned())
                .collect();
            let got: Vec<String> = stdout(&limited)
                .split("\n\n")
                .map(|s| s.trim().to_owned())
                .collect();
            assert_eq!(got, first_three, "n = {n}, {jobs} jobs");
            assert!(stderr(&limited).contains("stopped after 3 solutions"));
        }
    }
    // A Sudoku with many completions, counted and capped on two threads.
    let puzzle = "1000\n0000\n0000\n0002\n";
    let one = cspkit(&["sudoku", "--count"], puzzle);
    let two = cspkit(&["sudoku", "--count", "--jobs", "2"], puzzle);
    assert_eq!(stdout(&one), stdout(&two));
    let capped = cspkit(
        &["sudoku", "--count", "--limit", "2", "--jobs", "2"],
        puzzle,
    );
    assert_eq!(stdout(&capped).trim(), "2");
    let all_one = cspkit(&["sudoku", "--all", "--var-order", "mrv"], puzzle);
    let all_three = cspkit(
        &["sudoku", "--all", "--var-order", "mrv", "--jobs", "3"],
        puzzle,
    );
    assert_eq!(stdout(&all_one), stdout(&all_three));
}

#[test]
fn a_parallel_count_stopped_by_a_limit_is_not_printed_as_the_answer() {
    let output = cspkit(
        &[
            "queens",
            "12",
            "--count",
            "--jobs",
            "2",
            "--decision-limit",
            "500",
        ],
        "",
    );
    assert_eq!(output.status.code(), Some(3));
    assert!(output.stdout.is_empty(), "{}", stdout(&output));
    assert!(
        stderr(&output).contains("decision limit"),
        "{}",
        stderr(&output)
    );
    let output = cspkit(
        &[
            "queens",
            "14",
            "--count",
            "--jobs",
            "2",
            "--time-limit",
            "0",
        ],
        "",
    );
    assert_eq!(output.status.code(), Some(3));
    assert!(stderr(&output).contains("time limit"));
}

#[test]
fn a_batch_gives_the_same_lines_in_the_same_order_on_any_number_of_threads() {
    let solvable = BAEKJOON_2239.replace('\n', "").replace('0', ".");
    let unsolvable = "11".to_owned() + &".".repeat(79);
    let four = "1...............";
    let sixteen_empty = ".".repeat(256);
    let mut input = String::new();
    for i in 0..60 {
        match i % 7 {
            0 => input.push_str(&solvable),
            1 => input.push_str(&unsolvable),
            2 => input.push_str(&"1".repeat(80)),
            3 => input.push_str(&"x".repeat(81)),
            4 => input.push_str(four),
            5 => input.push_str(&sixteen_empty),
            _ => input.push_str(&"9".repeat(5000)),
        }
        input.push_str(if i % 2 == 0 { "\n" } else { "\r\n\n" });
    }
    for extra in [&[][..], &["--count", "--limit", "2"][..]] {
        let run = |jobs: &str| {
            let mut args = vec!["sudoku", "--batch", "--jobs", jobs];
            args.extend_from_slice(extra);
            cspkit(&args, &input)
        };
        let one = run("1");
        let lines = stdout(&one).lines().count();
        assert_eq!(lines, 60, "{extra:?}");
        assert_eq!(one.status.code(), Some(2));
        for jobs in ["2", "3"] {
            let many = run(jobs);
            assert_eq!(stdout(&many), stdout(&one), "{jobs} jobs, {extra:?}");
            assert_eq!(many.status.code(), one.status.code());
            let summary = |output: &Output| {
                let text = stderr(output);
                text[..text.find(';').unwrap()].to_owned()
            };
            assert_eq!(summary(&many), summary(&one));
        }
    }
    let one = cspkit(&["sudoku", "--batch"], &input);
    assert!(stdout(&one).contains("malformed: line 10: longer than 4096 bytes"));
}

#[test]
fn a_batch_with_restarts_and_random_orders_answers_the_same_on_any_number_of_threads() {
    let solvable = BAEKJOON_2239.replace('\n', "").replace('0', ".");
    let unsolvable = "11".to_owned() + &".".repeat(79);
    let empty = ".".repeat(81);
    let input = [solvable.as_str(), &empty, &unsolvable, &empty, &solvable].join("\n");
    let args = |jobs| {
        vec![
            "sudoku",
            "--batch",
            "--var-order",
            "mrv-random",
            "--value-order",
            "random",
            "--seed",
            "9",
            "--restarts",
            "luby",
            "--restart-base",
            "3",
            "--jobs",
            jobs,
        ]
    };
    let one = cspkit(&args("1"), &input);
    let three = cspkit(&args("3"), &input);
    assert_eq!(stdout(&one), stdout(&three));
    let text = stdout(&one);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], BAEKJOON_2239_ANSWER.replace('\n', ""));
    assert_eq!(lines[2], "no solution");
    assert_eq!(lines[1], lines[3]);
}

#[test]
fn meaningless_combinations_are_refused_with_exit_code_2() {
    let cases: [(&[&str], &str); 14] = [
        (&["queens", "8", "--jobs", "0"], "give 1 or more"),
        (&["queens", "8", "--count", "--jobs", "0"], "give 1 or more"),
        (&["queens", "8", "--count", "--jobs", "257"], "at most 256"),
        (
            &["queens", "8", "--count", "--jobs", "two"],
            "not a whole number",
        ),
        (&["queens", "8", "--jobs", "2"], "--jobs shares out"),
        (&["sudoku", "--jobs", "2"], "--jobs shares out"),
        (
            &[
                "queens",
                "8",
                "--count",
                "--restarts",
                "luby",
                "--value-order",
                "random",
            ],
            "--restarts is for a first solution",
        ),
        (
            &[
                "queens",
                "8",
                "--all",
                "--restarts",
                "luby",
                "--var-order",
                "mrv-random",
            ],
            "--restarts is for a first solution",
        ),
        (
            &[
                "sudoku",
                "--batch",
                "--count",
                "--restarts",
                "luby",
                "--value-order",
                "random",
            ],
            "--restarts is for a first solution",
        ),
        (
            &["queens", "8", "--restarts", "luby"],
            "needs a random order",
        ),
        (
            &["queens", "8", "--seed", "4"],
            "--seed needs a random order",
        ),
        (
            &["sudoku", "--batch", "--seed", "4"],
            "--seed needs a random order",
        ),
        (&["queens", "8", "--restart-base", "10"], "--restarts"),
        (
            &[
                "queens",
                "8",
                "--restarts",
                "luby",
                "--value-order",
                "random",
                "--restart-base",
                "0",
            ],
            "give 1 or more",
        ),
    ];
    for (args, message) in cases {
        let output = cspkit(args, BAEKJOON_2239);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        assert!(
            stderr(&output).contains(message),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn help_lists_the_new_options() {
    for sub in ["sudoku", "queens"] {
        let help = stdout(&cspkit(&[sub, "--help"], ""));
        for option in [
            "--jobs",
            "--seed",
            "--restarts",
            "--restart-base",
            "mrv-random",
            "middle",
        ] {
            assert!(help.contains(option), "{sub}: {option}");
        }
    }
}
