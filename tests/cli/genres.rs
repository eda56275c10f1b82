//! `cspkit generate GENRE` and `cspkit GENRE FILE`: generated puzzles read back and solved
//! by the program, malformed files named with line and column, and a long generation stopped
//! cleanly by a signal.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn cspkit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cspkit"))
        .args(args)
        .output()
        .unwrap()
}

/// Writes `text` into a file of the tests' folder named `name`.
fn write(name: &str, text: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn each_generated_genre_puzzle_is_solved_uniquely_by_its_command() {
    for (genre, size) in [
        ("futoshiki", "5"),
        ("kenken", "5"),
        ("kakuro", "6"),
        ("skyscrapers", "4"),
        ("killer", "4"),
    ] {
        let made = cspkit(&["generate", genre, "--size", size, "--seed", "3", "-q"]);
        assert_eq!(made.status.code(), Some(0), "{genre}");
        let text = String::from_utf8(made.stdout).unwrap();
        let file = write(&format!("generated-{genre}.txt"), &text);
        let solved = cspkit(&[genre, file.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&solved.stderr);
        assert_eq!(solved.status.code(), Some(0), "{genre}: {err}");
        assert!(err.contains("unique"), "{genre}: {err}");
        // Every cell filled: no empty cell `.` left (Futoshiki and Skyscrapers also write `.`
        // for a missing sign or edge clue).
        let out = String::from_utf8(solved.stdout).unwrap();
        assert!(!out.trim().is_empty(), "{genre}");
        if !["futoshiki", "skyscrapers"].contains(&genre) {
            assert!(out.split_whitespace().all(|w| w != "."), "{genre}:\n{out}");
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_puzzles() {
    let once = cspkit(&["generate", "kenken", "--count", "3", "--seed", "9", "-q"]);
    let again = cspkit(&["generate", "kenken", "--count", "3", "--seed", "9", "-q"]);
    assert_eq!(once.status.code(), Some(0));
    assert_eq!(once.stdout, again.stdout);
    let other = cspkit(&["generate", "kenken", "--count", "3", "--seed", "10", "-q"]);
    assert_ne!(once.stdout, other.stdout);
}

#[test]
fn a_malformed_puzzle_is_named_with_its_line_and_column() {
    let file = write("bad-skyscrapers.txt", ". 3 .\n. . . . .\n");
    let out = cspkit(&["skyscrapers", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 1"), "{err}");
    let file = write("bad-kenken.txt", "A A\nB B\nA 3+\nB 9z\n");
    let out = cspkit(&["kenken", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 1") && err.contains("3 to 9"), "{err}");
    let file = write(
        "bad-kenken3.txt",
        "A A B\nC D B\nC D D\nA 1-\nB 3/\nC 6x\nD 9z\n",
    );
    let out = cspkit(&["kenken", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("line 7, column 3") && err.contains("9z"),
        "{err}"
    );
}

#[test]
fn a_puzzle_with_two_solutions_is_said_to_have_more_than_one() {
    let file = write(
        "two-futoshiki.txt",
        "1 . . . .\n. . .\n. . . . .\n. . .\n. . . . .\n",
    );
    let out = cspkit(&["futoshiki", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("more than one"));
}

#[test]
fn a_grade_band_gives_puzzles_of_that_grade() {
    let out = cspkit(&[
        "generate", "sudoku", "--count", "5", "--band", "full", "--seed", "2", "-q",
    ]);
    assert_eq!(out.status.code(), Some(0));
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let file = write("band.txt", line);
        let graded = cspkit(&["sudoku", "--grade", file.to_str().unwrap()]);
        let text = String::from_utf8_lossy(&graded.stdout);
        assert!(text.contains("difficulty: full"), "{line}: {text}");
    }
    let out = cspkit(&["generate", "sudoku", "--band", "search..full"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_signal_stops_a_25x25_generation_cleanly_with_progress_on_stderr() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cspkit"))
        .args(["generate", "sudoku", "--size", "25", "--count", "100"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let sent = Command::new("kill")
        .arg("-INT")
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(sent.success());
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(started.elapsed() < Duration::from_secs(20), "still running");
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    assert_eq!(status.code(), Some(3), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    assert!(err.contains("tried"), "a progress line: {err}");
    // Every puzzle printed is whole: 625 cells on its line.
    for line in out.lines() {
        assert_eq!(line.chars().count(), 625);
    }
    let _ = std::io::stderr().flush();
}
