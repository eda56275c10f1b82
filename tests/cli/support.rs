//! What the themes share: running `cspkit` and reading what it prints.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `cspkit` with `args` and no input.
pub fn cspkit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cspkit"))
        .args(args)
        .output()
        .expect("the cspkit binary runs")
}

/// Output as text (it must be UTF-8).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// Runs `cspkit` with `stdin`: exit code, standard output, standard error.
pub fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
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

/// The count after `key` in the text line of `--stats` (`decisions 12, failures 3, …`): the
/// first word after the key, which may be followed by more words (`learned 15 (…)`).
pub fn stat(stderr: &str, key: &str) -> u64 {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("decisions "))
        .unwrap_or_else(|| panic!("no statistics in {stderr:?}"));
    line.split(", ")
        .find_map(|part| {
            part.strip_prefix(key)?
                .trim_start()
                .split(' ')
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or_else(|| panic!("no {key} in {line:?}"))
}
