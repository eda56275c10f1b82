//! The `cspkit` program against malformed and hostile input: every case ends in time, without
//! a panic, with the documented exit code, nothing on standard output when the input is
//! refused, and a message naming where the problem is.

use std::io::{Read, Write};
use std::process::{Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crate::common;

use common::{BAEKJOON_2239 as PUZZLE, BAEKJOON_2239_ANSWER as ANSWER};

/// Longer than this, a run counts as a hang.
const DEADLINE: Duration = Duration::from_secs(60);

fn command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cspkit"));
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// Runs cspkit with `input` on standard input, fed from a thread so that a large input cannot
/// block it; fails the test if it runs past the deadline.
fn cspkit(args: &[&str], input: impl Into<Vec<u8>>) -> Output {
    let mut child = command(args).spawn().expect("the cspkit binary runs");
    let input = input.into();
    let mut stdin = child.stdin.take().expect("stdin is piped");
    // Programs that refuse their input exit without reading it all: a broken pipe is fine.
    let writer = thread::spawn(move || drop(stdin.write_all(&input)));
    let mut stdout = child.stdout.take().expect("stdout is piped");
    let mut stderr = child.stderr.take().expect("stderr is piped");
    let out = thread::spawn(move || {
        let mut bytes = Vec::new();
        stdout.read_to_end(&mut bytes).map(|_| bytes)
    });
    let err = thread::spawn(move || {
        let mut bytes = Vec::new();
        stderr.read_to_end(&mut bytes).map(|_| bytes)
    });
    let status = wait(&mut child, args);
    writer.join().expect("the writer thread ends");
    Output {
        status,
        stdout: out.join().unwrap().unwrap(),
        stderr: err.join().unwrap().unwrap(),
    }
}

fn wait(child: &mut std::process::Child, args: &[&str]) -> std::process::ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("cspkit can be waited for") {
            return status;
        }
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            panic!("cspkit {args:?} still runs after {DEADLINE:?}");
        }
        thread::sleep(Duration::from_millis(5));
    }
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Everything left to read from a child's piped stream.
fn read_all(pipe: Option<impl Read>) -> String {
    let mut text = String::new();
    pipe.expect("the stream is piped")
        .read_to_string(&mut text)
        .expect("the stream reads as UTF-8");
    text
}

/// The run ended normally: it did not panic.
fn assert_no_panic(output: &Output, case: &str) {
    assert!(
        !stderr(output).contains("panicked") && output.status.code() != Some(101),
        "{case}: {}",
        stderr(output)
    );
}

/// Exit 2, nothing on standard output, and a message with every one of `fragments`.
fn assert_refused(output: &Output, fragments: &[&str], case: &str) {
    assert_no_panic(output, case);
    let message = stderr(output);
    assert_eq!(output.status.code(), Some(2), "{case}: {message}");
    assert!(output.stdout.is_empty(), "{case}: {}", stdout(output));
    for fragment in fragments {
        assert!(
            message.contains(fragment),
            "{case}: {message:?} lacks {fragment:?}"
        );
    }
    assert!(
        message.len() < 400,
        "{case}: a message this long hides its point"
    );
}

fn assert_solved(output: &Output, answer: &str, case: &str) {
    assert_no_panic(output, case);
    assert_eq!(output.status.code(), Some(0), "{case}: {}", stderr(output));
    assert_eq!(stdout(output), answer, "{case}");
}

/// The puzzle on one line, `.` for empty cells, and its answer on one line.
fn line_puzzle() -> (String, String) {
    (
        PUZZLE.replace('\n', "").replace('0', "."),
        ANSWER.replace('\n', ""),
    )
}

/// The puzzle in the spaced format, with `separator` between cells.
fn spaced(grid: &str, separator: &str) -> String {
    grid.lines()
        .map(|row| {
            row.chars()
                .map(String::from)
                .collect::<Vec<_>>()
                .join(separator)
                + "\n"
        })
        .collect()
}

#[test]
fn empty_and_blank_inputs_are_refused() {
    for input in [
        "",
        "\n",
        " \n\t\n",
        "\r\n\r\n",
        "\r\r",
        "\u{feff}",
        "\u{feff}\n  \n",
    ] {
        let output = cspkit(&["sudoku"], input);
        assert_refused(&output, &["standard input: the input is empty"], input);
        let batch = cspkit(&["sudoku", "--batch"], input);
        assert_refused(&batch, &["no puzzle"], input);
    }
}

#[test]
fn a_byte_order_mark_at_the_start_is_skipped() {
    let output = cspkit(&["sudoku"], format!("\u{feff}{PUZZLE}"));
    assert_solved(&output, ANSWER, "compact");
    let (line, answer) = line_puzzle();
    let batch = cspkit(&["sudoku", "--batch"], format!("\u{feff}{line}\n{line}\n"));
    assert_solved(&batch, &format!("{answer}\n{answer}\n"), "batch");
}

#[test]
fn nul_and_control_characters_are_named_with_their_line_and_column() {
    for (bad, shown) in [
        ('\0', "'\\0'"),
        ('\u{1b}', "'\\u{1b}'"),
        ('\u{7f}', "'\\u{7f}'"),
    ] {
        // In place of a cell, and added to a row.
        let replaced = PUZZLE.replacen("002109400", &format!("0021{bad}9400"), 1);
        let added = PUZZLE.replacen("002109400", &format!("0021{bad}09400"), 1);
        for input in [replaced, added] {
            let output = cspkit(&["sudoku"], input.clone());
            assert_refused(&output, &["line 2, column 5", shown], &input);
        }
    }
    let (line, answer) = line_puzzle();
    let with_nul = format!("{}\0{}", &line[..40], &line[41..]);
    let batch = cspkit(&["sudoku", "--batch"], format!("{with_nul}\n{line}\n"));
    assert_eq!(batch.status.code(), Some(2));
    let lines: Vec<String> = stdout(&batch).lines().map(str::to_owned).collect();
    assert!(
        lines[0].starts_with("malformed: line 1, column 41: '\\0'"),
        "{lines:?}"
    );
    assert_eq!(lines[1], answer);
}

#[test]
fn invalid_utf8_is_named_with_its_line_and_column() {
    let mut input = PUZZLE.as_bytes().to_vec();
    input[21] = 0xff; // line 3, column 2
    let output = cspkit(&["sudoku"], input);
    assert_refused(
        &output,
        &["line 3, column 2", "not valid UTF-8"],
        "invalid UTF-8",
    );
    let (line, answer) = line_puzzle();
    let mut batch_input = format!("{line}\n{line}\n").into_bytes();
    batch_input[82 + 10] = 0xc3; // a truncated two-byte sequence on line 2, column 11
    let batch = cspkit(&["sudoku", "--batch"], batch_input);
    let lines: Vec<String> = stdout(&batch).lines().map(str::to_owned).collect();
    assert_eq!(lines[0], answer);
    assert!(
        lines[1].starts_with("malformed: line 2, column 11: "),
        "{lines:?}"
    );
    assert_eq!(batch.status.code(), Some(2));
}

#[test]
fn crlf_and_cr_line_endings_and_trailing_blanks_are_accepted() {
    for ending in ["\r\n", "\r", " \t\r\n"] {
        let input = PUZZLE.replace('\n', ending) + ending;
        let output = cspkit(&["sudoku"], input);
        assert_solved(&output, ANSWER, &format!("{ending:?}"));
    }
    let (line, answer) = line_puzzle();
    let batch = cspkit(
        &["sudoku", "--batch"],
        format!("{line}\r{line}\r\r\n{line}\r\n"),
    );
    assert_solved(&batch, &format!("{answer}\n").repeat(3), "batch");
    // Line numbers count a lone CR as a line ending.
    let bad = format!("{line}\r\r{}x\r\n", &line[1..]);
    let batch = cspkit(&["sudoku", "--batch"], bad);
    assert!(
        stdout(&batch).contains("malformed: line 3, column 81: 'x'"),
        "{}",
        stdout(&batch)
    );
}

#[test]
fn tabs_mixed_blanks_and_dots_are_accepted_in_spaced_grids() {
    let expected = cspkit(&["sudoku", "--format", "spaced"], PUZZLE);
    assert_eq!(expected.status.code(), Some(0));
    let mixed = spaced(PUZZLE, " \t ");
    let dotted = spaced(PUZZLE, " ").replace('0', ".");
    let signed = spaced(PUZZLE, " ").replacen("1 0 3", "+1 000 03", 1);
    assert!(signed.starts_with("+1 000 03 "));
    for input in [spaced(PUZZLE, "\t"), mixed, dotted, signed] {
        let output = cspkit(&["sudoku"], input.clone());
        assert_solved(&output, &stdout(&expected), &input);
    }
}

#[test]
fn bad_numbers_in_spaced_grids_are_named_with_their_line_and_column() {
    let grid = spaced(PUZZLE, " ");
    let huge = "9".repeat(100_000);
    let cases = [
        ("-8", "value -8 is out of range 0..=9"),
        ("10", "value 10 is out of range 0..=9"),
        ("+-8", "\"+-8\" is not a number"),
        ("8.", "\"8.\" is not a number"),
        ("1e1", "\"1e1\" is not a number"),
        ("８", "\"８\" is not a number"),
        (&huge, "value 99999"),
    ];
    for (number, message) in cases {
        // The second cell of line 2, at column 3.
        let input = grid.replacen("0 0 2 1", &format!("0 {number} 2 1"), 1);
        assert_ne!(input, grid);
        let output = cspkit(&["sudoku"], input);
        assert_refused(&output, &["line 2, column 3: ", message], number);
    }
}

#[test]
fn missing_extra_and_uneven_rows_are_named_with_their_line() {
    let rows: Vec<&str> = PUZZLE.lines().collect();
    let cases = [
        (rows[..5].join("\n"), "line 6: expected 9 rows, found 5"),
        (rows[..2].join("\n"), "line 3: expected 9 rows, found 2"),
        (
            format!("{PUZZLE}123456789\n"),
            "line 10: expected 9 rows, found 10",
        ),
        (
            format!("{PUZZLE}{PUZZLE}"),
            "line 10: expected 9 rows, found 18",
        ),
        (
            PUZZLE.replacen("000704000", "0007040001", 1),
            "line 3: expected 9 cells, found 10",
        ),
        (
            PUZZLE.replacen("000704000", "00070400", 1),
            "line 3: expected 9 cells, found 8",
        ),
        (
            format!("{PUZZLE}\nhello\n"),
            "line 11: unexpected text after the grid",
        ),
        (
            format!("{PUZZLE}\n\n\n{PUZZLE}"),
            "line 13: unexpected text after the grid",
        ),
        (
            PUZZLE.replacen("000704000\n", "000704000\n\n", 1),
            "line 4: empty line inside",
        ),
        (
            "1234567\n".repeat(7),
            "line 1: 7 is not a supported grid size",
        ),
    ];
    for (input, message) in cases {
        let output = cspkit(&["sudoku"], input.clone());
        assert_refused(&output, &[message], &input);
    }
    let (line, _) = line_puzzle();
    let output = cspkit(&["sudoku"], format!("{line}\ngarbage\n"));
    assert_refused(
        &output,
        &["line 2: unexpected text after the grid", "use --batch"],
        "two lines",
    );
    let output = cspkit(
        &["sudoku", "--input-format", "line"],
        format!("{line}\ngarbage\n"),
    );
    assert_refused(
        &output,
        &["line 2: unexpected text after the grid"],
        "forced line",
    );
    let output = cspkit(&["sudoku", "--input-format", "line"], PUZZLE);
    assert_refused(
        &output,
        &["line 1: 9 is not a supported grid size"],
        "compact as line",
    );
    let output = cspkit(
        &["sudoku", "--input-format", "compact"],
        spaced(PUZZLE, " "),
    );
    assert_refused(&output, &["line 1, column 2: ' '"], "spaced as compact");
}

/// A 36x36 puzzle, spaced: a pattern solution with a fifth of its cells erased.
fn puzzle_36() -> String {
    let (b, n) = (6, 36);
    (0..n)
        .map(|r| {
            let row: Vec<String> = (0..n)
                .map(|c| {
                    let value = (b * (r % b) + r / b + c) % n + 1;
                    if (r * 7 + c * 3) % 5 < 4 { value } else { 0 }
                })
                .map(|v| v.to_string())
                .collect();
            row.join(" ") + "\n"
        })
        .collect()
}

#[test]
fn a_36x36_grid_is_read_spaced_and_refused_in_the_symbol_formats() {
    let puzzle = puzzle_36();
    let output = cspkit(&["sudoku"], puzzle.clone());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output).lines().count(), 36);
    let as_line = cspkit(&["sudoku", "--format", "line"], puzzle.clone());
    assert_refused(
        &as_line,
        &["36x36 grid cannot be written in the line format"],
        "line",
    );
    let compact = "0".repeat(36) + "\n";
    let output = cspkit(&["sudoku"], compact.repeat(36));
    assert_refused(
        &output,
        &["line 1: 36 is not a supported", "spaced format"],
        "compact",
    );
    let output = cspkit(&["sudoku"], ".".repeat(1296));
    assert_refused(
        &output,
        &["line 1: 1296 is not a supported", "spaced format"],
        "line",
    );
    let output = cspkit(&["sudoku", "--batch"], ".".repeat(1296));
    assert!(stdout(&output).starts_with("malformed: line 1: 1296 is not a supported"));
}

#[test]
fn letters_stand_for_values_above_9_in_either_case_but_only_in_large_grids() {
    // A 16x16 pattern solution with every third cell erased, on one line, in lowercase.
    let line: String = (0..256)
        .map(|i| {
            let (r, c) = (i / 16, i % 16);
            let value = (4 * (r % 4) + r / 4 + c) % 16 + 1;
            if i % 3 == 0 {
                '.'
            } else {
                std::char::from_digit(value, 17).unwrap()
            }
        })
        .collect();
    let output = cspkit(&["sudoku"], line.clone());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output).trim().len(), 256);
    let too_big = line.replacen('a', "q", 1);
    let column = line.find('a').unwrap() + 1;
    let output = cspkit(&["sudoku"], too_big);
    assert_refused(
        &output,
        &[&format!("column {column}: value q is out of range 0..=16")],
        "q",
    );
    let letter_in_9x9 = PUZZLE.replacen("002109400", "0021a9400", 1);
    let output = cspkit(&["sudoku"], letter_in_9x9);
    assert_refused(
        &output,
        &["line 2, column 5: 'a' is not a cell symbol (a digit or '.')"],
        "a",
    );
}

#[test]
fn unreadable_and_missing_files_are_named() {
    let dir = std::env::temp_dir();
    let dir_name = dir.to_str().unwrap();
    for args in [
        vec!["sudoku", dir_name],
        vec!["sudoku", "--batch", dir_name],
    ] {
        let output = cspkit(&args, "");
        assert_refused(&output, &[dir_name], dir_name);
        assert!(
            !stderr(&output).contains("cannot write"),
            "{}",
            stderr(&output)
        );
    }
    let missing = "/nonexistent/cspkit/puzzles.txt";
    for args in [vec!["sudoku", missing], vec!["sudoku", "--batch", missing]] {
        let output = cspkit(&args, PUZZLE);
        assert_refused(&output, &[missing], missing);
    }
    let output = cspkit(&["sudoku", "-"], PUZZLE);
    assert_solved(&output, ANSWER, "- for standard input");
    for args in [&["sudoku", "-"][..], &["sudoku", "--batch", "-"]] {
        let output = cspkit(args, "\n");
        assert_refused(&output, &["cspkit: standard input: "], &format!("{args:?}"));
    }
}

#[cfg(unix)]
#[test]
fn a_closed_standard_input_is_an_empty_input() {
    for flags in ["", "--batch"] {
        let script = format!("exec \"$0\" sudoku {flags} <&-");
        let output = Command::new("sh")
            .args(["-c", &script, env!("CARGO_BIN_EXE_cspkit")])
            .output()
            .expect("sh runs");
        assert_refused(&output, &["standard input"], flags);
    }
}

#[test]
fn input_longer_than_any_grid_is_refused_with_bounded_reading() {
    // 3 MB of digits without a line ending.
    let digits = "1".repeat(3 << 20);
    let output = cspkit(&["sudoku"], digits.clone());
    assert_refused(&output, &["longer than 1048576 bytes"], "one long line");
    let (line, answer) = line_puzzle();
    let batch = cspkit(
        &["sudoku", "--batch"],
        format!("{line}\n{digits}\n{line}\n{digits}"),
    );
    assert_eq!(batch.status.code(), Some(2), "{}", stderr(&batch));
    let expected = format!(
        "{answer}\nmalformed: line 2: longer than 4096 bytes\n{answer}\n\
         malformed: line 4: longer than 4096 bytes\n"
    );
    assert_eq!(stdout(&batch), expected);
    assert!(stderr(&batch).contains("4 puzzles: 2 solved, 0 without solution, 2 malformed"));
}

/// Spawns cspkit, reads one line of its output and closes the pipe.
fn read_one_line_then_close(args: &[&str], input: String) -> Output {
    let mut child = command(args).spawn().expect("the cspkit binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let writer = thread::spawn(move || drop(stdin.write_all(input.as_bytes())));
    let mut stdout = child.stdout.take().unwrap();
    let mut first = Vec::new();
    let mut byte = [0];
    while stdout.read(&mut byte).unwrap_or(0) == 1 && byte[0] != b'\n' {
        first.push(byte[0]);
    }
    drop(stdout);
    let mut stderr = child.stderr.take().unwrap();
    let mut messages = Vec::new();
    stderr.read_to_end(&mut messages).unwrap();
    let status = wait(&mut child, args);
    writer.join().unwrap();
    Output {
        status,
        stdout: first,
        stderr: messages,
    }
}

/// A pipe whose reading end is already closed: every write to it fails with a broken pipe.
fn pipe_without_reader() -> Stdio {
    // `cspkit queens 1` exits without reading its input, so its input pipe is left unread.
    let mut reader = Command::new(env!("CARGO_BIN_EXE_cspkit"))
        .args(["queens", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("the cspkit binary runs");
    let write_end = reader.stdin.take().expect("stdin is piped");
    reader.wait().expect("cspkit queens 1 ends");
    Stdio::from(write_end)
}

/// Spawns cspkit with its standard output already closed, then feeds it `input`.
fn with_closed_output(args: &[&str], input: String) -> Output {
    let mut child = command(args)
        .stdout(pipe_without_reader())
        .spawn()
        .expect("the cspkit binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let writer = thread::spawn(move || drop(stdin.write_all(input.as_bytes())));
    let mut messages = Vec::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_end(&mut messages)
        .unwrap();
    let status = wait(&mut child, args);
    writer.join().unwrap();
    Output {
        status,
        stdout: Vec::new(),
        stderr: messages,
    }
}

#[test]
fn a_reader_that_stops_early_ends_the_run_quietly() {
    // Both produce more output than a pipe holds, so writing fails after the first line.
    let (line, answer) = line_puzzle();
    let many = format!("{line}\n").repeat(3000);
    let batch = read_one_line_then_close(&["sudoku", "--batch"], many.clone());
    assert_no_panic(&batch, "batch");
    assert_eq!(batch.status.code(), Some(0), "{}", stderr(&batch));
    assert_eq!(stdout(&batch), answer);
    let all = read_one_line_then_close(&["queens", "11", "--all"], String::new());
    assert_no_panic(&all, "queens --all");
    assert_eq!(all.status.code(), Some(0), "{}", stderr(&all));
    assert_eq!(stdout(&all), "Q..........");
    // Output closed before the first write.
    for (args, input) in [
        (&["sudoku", "--batch"][..], many),
        (&["sudoku"], PUZZLE.to_owned()),
        (&["queens", "8", "--count"], String::new()),
        (&[], String::new()),
    ] {
        let output = with_closed_output(args, input);
        assert_no_panic(&output, &format!("{args:?}"));
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn a_closed_standard_error_is_no_reason_to_panic() {
    for args in [&["sudoku"][..], &["sudoku", "--batch", "--stats"]] {
        let mut child = command(args).spawn().expect("the cspkit binary runs");
        // The error output is closed before cspkit reads its input, so before it writes.
        drop(child.stderr.take());
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"12345\n").unwrap();
        drop(stdin);
        let mut out = Vec::new();
        child.stdout.take().unwrap().read_to_end(&mut out).unwrap();
        let status = wait(&mut child, args);
        assert_eq!(status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn out_of_range_limits_are_refused_and_zero_limits_stop_at_once() {
    for value in [
        "NaN", "nan", "inf", "-inf", "infinity", "1e300", "1e20", "-1", "-0.5", "", "x",
    ] {
        for flag in [format!("--time-limit={value}"), "--time-limit".to_owned()] {
            let mut args = vec!["sudoku", flag.as_str()];
            if !flag.contains('=') {
                args.push(value);
            }
            let output = cspkit(&args, PUZZLE);
            assert_refused(&output, &["--time-limit"], &format!("{args:?}"));
            assert!(
                stderr(&output).contains(&format!("'{value}'")),
                "{}",
                stderr(&output)
            );
        }
    }
    let huge = cspkit(&["sudoku", "--time-limit", "1e9"], PUZZLE);
    assert_solved(&huge, ANSWER, "a very long time limit");
    for args in [
        &["sudoku", "--time-limit", "0"][..],
        &["sudoku", "--decision-limit", "0"],
        &["sudoku", "--count", "--decision-limit", "0"],
    ] {
        let output = cspkit(args, "0000\n".repeat(4));
        assert_eq!(output.status.code(), Some(3), "{args:?}");
        assert!(stderr(&output).contains("limit reached"), "{args:?}");
    }
    for args in [
        &["queens", "6", "--all", "--limit", "0"][..],
        &["queens", "6", "--count", "--limit", "-1"],
        &["queens", "6", "--all", "--limit", "18446744073709551616"],
        &["queens", "6", "--decision-limit", "-5"],
        &["queens", "6", "--decision-limit", "1e3"],
        &["queens", "6", "--limit", "2"],
        &["queens", "-3"],
        &["queens", "0"],
        &["queens", "10001"],
    ] {
        let output = cspkit(args, "");
        assert_refused(&output, &[], &format!("{args:?}"));
    }
    let all = cspkit(
        &["queens", "6", "--all", "--limit", "18446744073709551615"],
        "",
    );
    assert_eq!(all.status.code(), Some(0));
    assert_eq!(stdout(&all).split("\n\n").count(), 4);
    let one = cspkit(&["queens", "6", "--all", "--limit", "1"], "");
    assert_eq!(one.status.code(), Some(0));
    assert!(stderr(&one).contains("stopped after 1 solution (--limit)"));
}

#[test]
fn conflicting_flags_are_refused() {
    for args in [
        &["sudoku", "--count", "--all"][..],
        &["queens", "6", "--count", "--all"],
        &["sudoku", "--batch", "--all"],
        &["sudoku", "--batch", "--format", "compact"],
        &["sudoku", "--batch", "--input-format", "spaced"],
        &["sudoku", "--limit", "2"],
        &["sudoku", "--input-format", "grid"],
    ] {
        let output = cspkit(args, PUZZLE);
        assert_refused(&output, &[], &format!("{args:?}"));
    }
}

#[test]
fn tiny_and_huge_queens_boards() {
    let one = cspkit(&["queens", "1"], "");
    assert_solved(&one, "Q\n1\n", "1");
    for n in ["2", "3"] {
        let output = cspkit(&["queens", n], "");
        assert_eq!(output.status.code(), Some(1), "{n}");
        assert!(output.stdout.is_empty());
        assert!(stderr(&output).contains("no solution"));
        let count = cspkit(&["queens", n, "--count"], "");
        assert_eq!(
            (count.status.code(), stdout(&count).as_str()),
            (Some(1), "0\n")
        );
    }
    let huge = cspkit(&["queens", "2000", "--count", "--time-limit", "0.1"], "");
    assert_eq!(huge.status.code(), Some(3), "{}", stderr(&huge));
    assert!(stderr(&huge).contains("time limit reached"));
}

#[test]
fn every_help_page_has_examples() {
    for args in [
        &["--help"][..],
        &["help"],
        &["help", "sudoku"],
        &["sudoku", "--help"],
        &["sudoku", "-h"],
        &["help", "queens"],
        &["queens", "--help"],
    ] {
        let output = cspkit(args, "");
        assert_eq!(output.status.code(), Some(0), "{args:?}");
        let text = stdout(&output);
        assert!(text.contains("Usage: cspkit"), "{args:?}: {text}");
        assert!(text.contains("Examples:\n  cspkit "), "{args:?}: {text}");
        assert!(text.contains("Exit codes"), "{args:?}: {text}");
    }
}

/// The most virtual memory the runs on endless input may take (768 MiB): what a reader that
/// kept its input would exceed in a second or two, with room for the model cap of `cspkit
/// fzn` (256 MiB read before it refuses).
const MEMORY_CAP_KIB: u32 = 786_432;

/// `cspkit args…` in a shell that caps its virtual memory at [`MEMORY_CAP_KIB`] first.
fn capped(args: &[&str]) -> Command {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("ulimit -v {MEMORY_CAP_KIB} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_cspkit"))
        .args(args);
    command
}

/// Endless input never fills the memory, as runs under a memory cap show: stepping reads a key
/// a line, at most a few bytes of it (a stream of zero bytes with no line break ends the
/// stepping), `cspkit fzn` refuses a model larger than it reads, and the grid reader an input
/// longer than any grid.
#[test]
fn endless_input_is_read_in_bounded_pieces() {
    let zeros = || std::fs::File::open("/dev/zero").expect("/dev/zero");
    let run = |args: &[&str]| {
        let mut child = capped(args)
            .stdin(zeros())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let out = read_all(child.stdout.take());
        let err = read_all(child.stderr.take());
        (wait(&mut child, args), out, err)
    };
    let (status, out, err) = run(&["queens", "8", "--count", "--step"]);
    assert!(status.success(), "{err}");
    assert!(out.contains("\n92\n"), "{out}");

    for (args, says) in [
        (&["fzn", "/dev/zero"][..], "larger than 256 MiB"),
        (&["fzn", "/dev/stdin"][..], "larger than 256 MiB"),
        (&["sudoku", "/dev/zero"][..], "longer than 1048576 bytes"),
    ] {
        let (status, out, err) = run(args);
        assert_eq!(status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
    }
}

/// The first line the child writes on its piped standard output, if it comes within `time`.
fn first_line_within(
    child: &mut std::process::Child,
    time: Duration,
) -> Result<String, std::sync::mpsc::RecvTimeoutError> {
    let (sender, receiver) = std::sync::mpsc::channel();
    let mut stdout = child.stdout.take().expect("the output is piped");
    thread::spawn(move || {
        let mut first = Vec::new();
        let mut byte = [0];
        while stdout.read(&mut byte).unwrap_or(0) == 1 && byte[0] != b'\n' {
            first.push(byte[0]);
        }
        let _ = sender.send(String::from_utf8_lossy(&first).into_owned());
    });
    receiver.recv_timeout(time)
}

/// A batch read from a pipe that stays open answers each line as it comes: the answer to a
/// line typed at a terminal does not wait for the next line or the end of the input.
#[test]
fn a_batch_answers_a_line_before_its_input_ends() {
    let (line, answer) = line_puzzle();
    for jobs in ["1", "2"] {
        let mut child = command(&["sudoku", "--batch", "--jobs", jobs])
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(format!("{line}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
        let first = first_line_within(&mut child, DEADLINE);
        drop(stdin);
        let status = wait(&mut child, &["sudoku", "--batch", "--jobs", jobs]);
        let first = first.unwrap_or_else(|_| panic!("--jobs {jobs}: no answer while open"));
        assert_eq!(first, answer, "--jobs {jobs}");
        assert!(status.success(), "--jobs {jobs}");
    }
}

/// A batch line that never ends is reported once it is longer than any grid, not waited for;
/// the reader then skips the rest of it in bounded memory (for ever, on `/dev/zero`: the test
/// stops it once the report is read).
#[test]
fn a_batch_line_that_never_ends_is_reported_at_once() {
    for jobs in ["1", "2"] {
        let mut child = capped(&["sudoku", "--batch", "--jobs", jobs])
            .stdin(std::fs::File::open("/dev/zero").expect("/dev/zero"))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let first = first_line_within(&mut child, DEADLINE);
        let still_running = child.try_wait().unwrap().is_none();
        let _ = child.kill();
        let _ = child.wait();
        let first = first.unwrap_or_else(|_| panic!("--jobs {jobs}: no answer for line 1"));
        assert_eq!(
            first, "malformed: line 1: longer than 4096 bytes",
            "--jobs {jobs}"
        );
        assert!(
            still_running,
            "--jobs {jobs}: the run ended (under the memory cap?)"
        );
    }
}

/// A trace whose reader has gone stops the search (it would otherwise run to its end for
/// nobody), and Ctrl-C stops a search cleanly: the statistics so far, and the exit code of a
/// search stopped before its answer.
#[test]
fn a_closed_trace_or_an_interrupt_stops_the_search_and_reports_it() {
    // Traced to its end, counting 16-Queens would take hours: the deadline catches a search
    // that goes on once `head` has what it wants.
    let mut piped = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "{} queens 16 --count --trace --trace-limit 100000000 | head -3",
            env!("CARGO_BIN_EXE_cspkit")
        ))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let head = read_all(piped.stdout.take());
    wait(&mut piped, &["queens", "16", "--trace", "| head -3"]);
    assert_eq!(head.lines().count(), 3, "{head}");

    let mut child = Command::new(env!("CARGO_BIN_EXE_cspkit"))
        .args(["queens", "30", "--count", "--stats"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    thread::sleep(Duration::from_millis(300));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = wait(&mut child, &["queens", "30", "--count"]);
    let err = read_all(child.stderr.take());
    let out = read_all(child.stdout.take());
    assert_eq!(status.code(), Some(3), "{err}");
    assert!(err.contains("\ndecisions "), "{err}");
    assert!(err.contains("cancelled"), "{err}");
    assert!(out.is_empty(), "a cut count is no answer: {out}");
}

/// Messages that name the real fault.
#[test]
fn usage_errors_name_the_real_fault() {
    for (args, expected) in [
        (
            &["queens", "8", "--count", "--jobs", "99999999999999999999"][..],
            "too many (at most 256)",
        ),
        (&["colour", "myciel9"], "unknown graph \"myciel9\""),
        (
            &["colour", "australia", "--colours", "-1"],
            "-1 is not in 1..=1000",
        ),
    ] {
        let output = cspkit(args, "");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&output).contains(expected),
            "{args:?}: {}",
            stderr(&output)
        );
    }
    let dir = std::env::temp_dir().join(format!("cspkit-fzn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (text, expected) in [
        (
            "var 1..3: x :: output_var;\nvar 1..3: x;\nsolve satisfy;\n",
            "line 2, column 1: `x` is declared twice",
        ),
        (
            "var 1..3: x;\narray [1..2] of var int: a :: output_array([1..3]) = [x, x];\n\
             solve satisfy;\n",
            "its index sets hold 3 elements, the array 2",
        ),
    ] {
        let path = dir.join("m.fzn");
        std::fs::write(&path, text).unwrap();
        let output = cspkit(&["fzn", path.to_str().unwrap()], "");
        assert_eq!(output.status.code(), Some(2), "{text}");
        assert!(stderr(&output).contains(expected), "{}", stderr(&output));
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A trace past its limit writes nothing more, yet a reader that has gone still ends the run
/// at once and quietly (`head` took its line; counting 16-Queens would take hours).
#[test]
fn a_reader_gone_after_the_trace_limit_ends_the_run_quietly() {
    let mut piped = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "{} queens 16 --count --trace | head -1",
            env!("CARGO_BIN_EXE_cspkit")
        ))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let head = read_all(piped.stdout.take());
    wait(
        &mut piped,
        &["queens", "16", "--count", "--trace", "| head -1"],
    );
    let err = read_all(piped.stderr.take());
    assert_eq!(head, "row 1 = 1\n");
    assert_eq!(err, "", "quietly");
}

/// Local search over two variables of 2³² values each, under a memory cap: the time limit
/// ends it (it used to allocate 17 GB for one step and panic after a minute).
#[test]
fn local_search_over_full_i32_domains_keeps_its_memory_and_its_time_limit() {
    let dir = std::env::temp_dir();
    let path = dir.join(format!("cspkit-wide-local-{}.fzn", std::process::id()));
    std::fs::write(
        &path,
        "var -2147483648..2147483647: x :: output_var;\n\
         var -2147483648..2147483647: y :: output_var;\n\
         constraint int_lin_eq([1, 1], [x, y], 5);\nsolve satisfy;\n",
    )
    .unwrap();
    let path_text = path.to_str().unwrap().to_owned();
    let args = [
        "fzn",
        &path_text,
        "--local-search",
        "min-conflicts",
        "--time-limit",
        "1",
        "--max-steps",
        "1000000000",
    ];
    let mut child = capped(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = wait(&mut child, &args);
    let err = read_all(child.stderr.take());
    let _ = std::fs::remove_file(&path);
    assert_eq!(status.code(), Some(3), "{err}");
    assert!(err.contains("time limit"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
