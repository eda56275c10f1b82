//! The `cspkit` program, run as a user would: inputs, outputs, exit codes.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use crate::common;

use common::{BAEKJOON_2239, BAEKJOON_2239_ANSWER};

/// The Baekjoon 2580 example (problem statement): spaced input.
const BAEKJOON_2580: &str = "\
0 3 5 4 6 9 2 7 8
7 8 2 1 0 5 6 0 9
0 6 0 2 7 8 1 3 5
3 2 1 0 4 6 8 9 7
8 0 4 9 1 3 5 0 6
5 9 6 8 2 0 4 1 3
9 1 7 6 5 2 0 8 0
6 0 3 7 0 1 9 5 2
2 5 8 3 9 4 7 6 0
";

fn cspkit(args: &[&str], stdin: &str) -> Output {
    cspkit_bytes(args, stdin.as_bytes())
}

fn cspkit_bytes(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cspkit"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the cspkit binary runs");
    // Programs that reject their arguments exit without reading: a broken pipe is fine then.
    let _ = child.stdin.take().expect("stdin is piped").write_all(stdin);
    child.wait_with_output().expect("cspkit finishes")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 messages")
}

/// Parses a grid of digits or spaced numbers into rows of values.
fn grid(text: &str) -> Vec<Vec<u32>> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            if l.trim().contains(' ') {
                l.split_whitespace().map(|t| t.parse().unwrap()).collect()
            } else {
                l.trim()
                    .chars()
                    .map(|c| c.to_digit(36).map_or(0, |d| if c == '.' { 0 } else { d }))
                    .collect()
            }
        })
        .collect()
}

/// Whether `solution` is a valid complete Sudoku that keeps every given of `puzzle`.
fn solves(puzzle: &[Vec<u32>], solution: &[Vec<u32>]) -> bool {
    let n = puzzle.len();
    let b = (1..=6).find(|b| b * b == n).expect("a square side");
    let complete = solution.len() == n && solution.iter().all(|r| r.len() == n);
    let keeps = puzzle
        .iter()
        .flatten()
        .zip(solution.iter().flatten())
        .all(|(&g, &v)| g == 0 || g == v);
    let all_different = |cells: Vec<u32>| {
        let mut sorted = cells;
        sorted.sort_unstable();
        sorted == (1..=n as u32).collect::<Vec<_>>()
    };
    complete
        && keeps
        && (0..n).all(|i| {
            all_different((0..n).map(|k| solution[i][k]).collect())
                && all_different((0..n).map(|k| solution[k][i]).collect())
                && all_different(
                    (0..n)
                        .map(|k| solution[i / b * b + k / b][i % b * b + k % b])
                        .collect(),
                )
        })
}

/// A deliberately naive textbook solver: row-major cells, ascending values, check the row, the
/// column and the box of each placement. Its first solution is the lexicographic minimum; it
/// also counts solutions (up to `max`).
fn brute_force(grid: &mut Vec<Vec<u32>>, cell: usize, found: &mut Vec<Vec<Vec<u32>>>, max: usize) {
    let n = grid.len();
    let b = (1..=6).find(|b| b * b == n).unwrap();
    if found.len() >= max {
        return;
    }
    if cell == n * n {
        found.push(grid.clone());
        return;
    }
    let (r, c) = (cell / n, cell % n);
    if grid[r][c] != 0 {
        return brute_force(grid, cell + 1, found, max);
    }
    for v in 1..=n as u32 {
        let clash = (0..n).any(|k| {
            grid[r][k] == v || grid[k][c] == v || grid[r / b * b + k / b][c / b * b + k % b] == v
        });
        if !clash {
            grid[r][c] = v;
            brute_force(grid, cell + 1, found, max);
            grid[r][c] = 0;
        }
    }
}

#[test]
fn the_baekjoon_2239_example_prints_the_published_answer() {
    let output = cspkit(&["sudoku"], BAEKJOON_2239);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), BAEKJOON_2239_ANSWER);
}

#[test]
fn the_baekjoon_2580_example_is_completed_in_the_spaced_layout() {
    let output = cspkit(&["sudoku"], BAEKJOON_2580);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.lines().all(|l| l.split(' ').count() == 9), "{text}");
    assert!(solves(&grid(BAEKJOON_2580), &grid(&text)), "{text}");
}

#[test]
fn a_puzzle_file_is_read_from_its_path() {
    let path = std::env::temp_dir().join(format!("cspkit-cli-{}.txt", std::process::id()));
    std::fs::write(&path, BAEKJOON_2239).unwrap();
    let output = cspkit(&["sudoku", path.to_str().unwrap()], "");
    std::fs::remove_file(&path).unwrap();
    assert_eq!(stdout(&output), BAEKJOON_2239_ANSWER);
    let missing = cspkit(&["sudoku", "/nonexistent/cspkit/puzzle.txt"], "");
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("puzzle.txt"));
}

#[test]
fn crlf_line_endings_and_trailing_blanks_are_accepted() {
    let crlf = BAEKJOON_2239.replace('\n', " \r\n") + "\r\n";
    let output = cspkit(&["sudoku"], &crlf);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), BAEKJOON_2239_ANSWER);
}

#[test]
fn the_output_format_can_differ_from_the_input_format() {
    let output = cspkit(&["sudoku", "--format", "line"], BAEKJOON_2239);
    assert_eq!(
        stdout(&output),
        BAEKJOON_2239_ANSWER.replace('\n', "") + "\n"
    );
    let line = BAEKJOON_2239.replace('\n', "").replace('0', ".");
    let output = cspkit(&["sudoku", "--format", "spaced"], &line);
    assert!(stdout(&output).starts_with("1 4 3 6 2 8 5 7 9\n"));
}

#[test]
fn a_multi_solution_puzzle_gets_the_lexicographically_smallest_answer() {
    // The 2239 answer with its bottom band erased (rows within a band can be swapped, so it has
    // several completions) and a few more cells.
    let mut puzzle = grid(BAEKJOON_2239_ANSWER);
    for row in &mut puzzle[6..9] {
        row.iter_mut().for_each(|v| *v = 0);
    }
    for (r, c) in [(0, 0), (1, 4), (2, 8), (4, 4), (5, 1)] {
        puzzle[r][c] = 0;
    }
    let text: String = puzzle
        .iter()
        .map(|r| r.iter().map(|v| v.to_string()).collect::<String>() + "\n")
        .collect();
    let mut found = Vec::new();
    brute_force(&mut puzzle.clone(), 0, &mut found, usize::MAX);
    assert!(found.len() > 1, "the puzzle must have several solutions");
    let output = cspkit(&["sudoku"], &text);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(grid(&stdout(&output)), found[0]);
    let count = cspkit(&["sudoku", "--count"], &text);
    assert_eq!(stdout(&count).trim(), found.len().to_string());
    // Other strategies give some valid completion.
    for flags in [["--var-order", "mrv"], ["--value-order", "desc"]] {
        let output = cspkit(&["sudoku", flags[0], flags[1]], &text);
        assert!(found.contains(&grid(&stdout(&output))));
    }
}

#[test]
fn the_empty_grid_is_completed_with_the_smallest_rows() {
    let empty = "000000000\n".repeat(9);
    let output = cspkit(&["sudoku"], &empty);
    let text = stdout(&output);
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows[..3], ["123456789", "456789123", "789123456"]);
    assert!(solves(&grid(&empty), &grid(&text)));
}

#[test]
fn four_by_four_and_sixteen_by_sixteen_puzzles_are_solved() {
    let four = "1..4\n..1.\n.1..\n4...\n";
    let output = cspkit(&["sudoku"], four);
    assert_eq!(stdout(&output), "1234\n3412\n2143\n4321\n");

    // A 16x16 puzzle: a pattern solution with most cells erased.
    let (b, n) = (4, 16);
    let puzzle: Vec<Vec<u32>> = (0..n)
        .map(|r| {
            (0..n)
                .map(|c| {
                    let v = ((b * (r % b) + r / b + c) % n + 1) as u32;
                    if (r * 7 + c * 3) % 5 < 2 { v } else { 0 }
                })
                .collect()
        })
        .collect();
    let spaced: String = puzzle
        .iter()
        .map(|r| r.iter().map(u32::to_string).collect::<Vec<_>>().join(" ") + "\n")
        .collect();
    let output = cspkit(&["sudoku"], &spaced);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(solves(&puzzle, &grid(&stdout(&output))));
    // The same puzzle on one line, with letters for 10-16.
    let line: String = puzzle
        .iter()
        .flatten()
        .map(|&v| std::char::from_digit(v, 17).map_or('.', |c| if v == 0 { '.' } else { c }))
        .map(|c| c.to_ascii_uppercase())
        .collect();
    let output = cspkit(&["sudoku"], &line);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let solved: Vec<u32> = stdout(&output)
        .trim()
        .chars()
        .map(|c| c.to_digit(17).unwrap())
        .collect();
    let rows: Vec<Vec<u32>> = solved.chunks(16).map(<[u32]>::to_vec).collect();
    assert!(solves(&puzzle, &rows));
}

#[test]
fn malformed_input_exits_2_with_line_and_column_and_prints_nothing() {
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "the input is empty"),
        ("\n \n".into(), "the input is empty"),
        (
            BAEKJOON_2239.replacen("002109400", "0021x9400", 1),
            "line 2, column 5",
        ),
        (
            BAEKJOON_2239.replacen("002109400", "00210940", 1),
            "line 2: expected 9 cells, found 8",
        ),
        (
            BAEKJOON_2239.replacen("000704000\n", "", 1),
            "expected 9 rows, found 8",
        ),
        (
            BAEKJOON_2239.to_owned() + "123456789\n",
            "line 10: expected 9 rows, found 10",
        ),
        (
            BAEKJOON_2580.replacen("0 3 5", "0 3 15", 1),
            "line 1, column 5: value 15 is out of range",
        ),
        (
            BAEKJOON_2580.replacen("0 3 5", "0 -3 5", 1),
            "line 1, column 3: value -3 is out of range",
        ),
        (
            BAEKJOON_2580.replacen("7 8 2", "7 8 2x", 1),
            "line 2, column 5: \"2x\" is not a number",
        ),
        ("1234567\n".repeat(7), "7 is not a supported grid size"),
        ("123".into(), "line 1: 3 is not a supported grid size"),
    ];
    for (input, message) in cases {
        let output = cspkit(&["sudoku"], &input);
        assert_eq!(output.status.code(), Some(2), "{input:?}");
        assert!(
            stderr(&output).contains(message),
            "{input:?}: {}",
            stderr(&output)
        );
        assert!(output.stdout.is_empty(), "{input:?}");
    }
    let binary = cspkit_bytes(&["sudoku"], b"1030005\xff9\n");
    assert_eq!(binary.status.code(), Some(2));
    assert!(stderr(&binary).contains("line 1, column 8: the input is not valid UTF-8"));
}

#[test]
fn contradicting_givens_and_dead_ends_exit_1() {
    let twice_in_a_row = BAEKJOON_2239.replacen("103000509", "103000503", 1);
    let output = cspkit(&["sudoku"], &twice_in_a_row);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("no solution"));
    assert!(output.stdout.is_empty());
    // No two givens clash, but the top-left cell has no value left: 1-8 are in its row, 9 in
    // its column.
    let dead_end = "012345678\n900000000\n".to_owned() + &"000000000\n".repeat(7);
    let output = cspkit(&["sudoku", "--propagation", "none"], &dead_end);
    assert_eq!(output.status.code(), Some(1));
    let count = cspkit(&["sudoku", "--count"], &dead_end);
    assert_eq!((count.status.code(), stdout(&count).trim()), (Some(1), "0"));
}

#[test]
fn a_search_stopped_by_a_limit_exits_3_and_says_so() {
    let empty = "000000000\n".repeat(9);
    let output = cspkit(&["sudoku", "--decision-limit", "3"], &empty);
    assert_eq!(output.status.code(), Some(3));
    assert!(stderr(&output).contains("decision limit"));
    assert!(output.stdout.is_empty());
    let output = cspkit(&["queens", "20", "--count", "--time-limit", "0"], "");
    assert_eq!(output.status.code(), Some(3));
    assert!(stderr(&output).contains("time limit"));
    // A count cut short is a lower bound: it is in the message, not on standard output.
    let output = cspkit(&["queens", "10", "--count", "--decision-limit", "200"], "");
    assert_eq!(output.status.code(), Some(3));
    assert!(output.stdout.is_empty(), "{}", stdout(&output));
    assert!(stderr(&output).contains("decision limit"));
}

#[test]
fn domain_splitting_gives_the_same_answers_as_assignment() {
    for value_order in ["asc", "middle", "desc"] {
        let split = cspkit(
            &[
                "queens",
                "8",
                "--count",
                "--branching",
                "split",
                "--value-order",
                value_order,
            ],
            "",
        );
        assert_eq!(stdout(&split).trim(), "92", "{value_order}");
    }
    // Under input order both visit solutions in lexicographic order: same first placement.
    let assign = cspkit(&["queens", "12"], "");
    let split = cspkit(
        &[
            "queens",
            "12",
            "--branching",
            "split",
            "--value-order",
            "middle",
        ],
        "",
    );
    assert!(split.status.success());
    assert_eq!(stdout(&assign), stdout(&split));
    let bad = cspkit(&["queens", "8", "--branching", "halves"], "");
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn bad_usage_exits_2() {
    for args in [
        &["sudoku", "--var-order", "random"][..],
        &["queens"],
        &["queens", "0"],
        &["queens", "eight"],
        &["sudoku", "--count", "--all"],
        &["sudoku", "--batch", "--all"],
        &["frobnicate"],
    ] {
        let output = cspkit(args, BAEKJOON_2239);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn count_and_all_agree_with_brute_force_and_respect_the_limit() {
    // A 4x4 grid with two givens has many completions.
    let puzzle = "1000\n0000\n0000\n0002\n";
    let mut found = Vec::new();
    brute_force(&mut grid(puzzle), 0, &mut found, usize::MAX);
    let count = cspkit(&["sudoku", "--count"], puzzle);
    assert_eq!(stdout(&count).trim(), found.len().to_string());
    let all = cspkit(&["sudoku", "--all"], puzzle);
    let blocks: Vec<Vec<Vec<u32>>> = stdout(&all).split("\n\n").map(grid).collect();
    assert_eq!(blocks, found, "every solution, in lexicographic order");
    let limited = cspkit(&["sudoku", "--all", "--limit", "3"], puzzle);
    assert_eq!(stdout(&limited).split("\n\n").count(), 3);
    assert_eq!(limited.status.code(), Some(0));
    let capped = cspkit(&["sudoku", "--count", "--limit", "2"], puzzle);
    assert_eq!(stdout(&capped).trim(), "2");
}

#[test]
fn batch_mode_answers_every_line_in_order_with_markers() {
    let solvable = BAEKJOON_2239.replace('\n', "").replace('0', ".");
    let unsolvable = "11".to_owned() + &".".repeat(79);
    let input = format!(
        "{solvable}\n\n{}\r\n{unsolvable}\n{}\n{solvable}",
        "1".repeat(80),
        "x".repeat(81)
    );
    let output = cspkit(&["sudoku", "--batch"], &input);
    let lines: Vec<String> = stdout(&output).lines().map(str::to_owned).collect();
    let answer = BAEKJOON_2239_ANSWER.replace('\n', "");
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert_eq!(lines[0], answer);
    assert!(lines[1].starts_with("malformed: line 3: 80 is not a supported grid size"));
    assert_eq!(lines[2], "no solution");
    assert!(lines[3].starts_with("malformed: line 5, column 1: 'x'"));
    assert_eq!(lines[4], answer);
    assert_eq!(output.status.code(), Some(2));
    let summary = stderr(&output);
    assert!(
        summary.contains("5 puzzles: 2 solved, 1 without solution, 2 malformed"),
        "{summary}"
    );

    let counts = cspkit(&["sudoku", "--batch", "--count", "--limit", "2"], &input);
    let lines: Vec<String> = stdout(&counts).lines().map(str::to_owned).collect();
    assert_eq!(lines[0], "1");
    assert_eq!(lines[2], "0");
}

#[test]
fn queens_prints_a_board_and_its_columns() {
    let output = cspkit(&["queens", "4"], "");
    assert_eq!(stdout(&output), ".Q..\n...Q\nQ...\n..Q.\n2 4 1 3\n");
    let none = cspkit(&["queens", "3"], "");
    assert_eq!(none.status.code(), Some(1));
    let all = cspkit(&["queens", "6", "--all"], "");
    assert_eq!(stdout(&all).split("\n\n").count(), 4);
}

#[test]
fn queens_counts_match_the_known_numbers() {
    // Number of solutions of n-Queens for n = 1..=12 (OEIS A000170).
    let known = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];
    for (n, expected) in (1..).zip(known) {
        let output = cspkit(&["queens", &n.to_string(), "--count"], "");
        assert_eq!(stdout(&output).trim(), expected.to_string(), "n = {n}");
        assert_eq!(output.status.code(), Some(if expected > 0 { 0 } else { 1 }));
    }
    let mrv = cspkit(
        &[
            "queens",
            "8",
            "--count",
            "--var-order",
            "mrv",
            "--propagation",
            "full",
        ],
        "",
    );
    assert_eq!(stdout(&mrv).trim(), "92");
}

#[test]
fn without_arguments_the_samples_are_solved_without_reading_input() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cspkit"))
        .stdin(Stdio::piped()) // kept open: the program must not wait for it
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take();
    let output = child.wait_with_output().unwrap();
    drop(stdin);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(0));
    assert!(text.contains("103000509   143628579"), "{text}");
    assert!(text.contains("columns 1 5 8 6 3 7 2 4"), "{text}");
    assert!(text.contains("cspkit sudoku"));
}

#[test]
fn help_describes_each_subcommand_with_an_example() {
    for sub in ["sudoku", "queens"] {
        let output = cspkit(&[sub, "--help"], "");
        assert_eq!(output.status.code(), Some(0));
        assert!(stdout(&output).contains(&format!("cspkit {sub} ")));
    }
}
