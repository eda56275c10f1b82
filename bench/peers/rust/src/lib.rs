//! What every driver of `bench/run.sh` shares: its arguments and its output lines.
//!
//! ```text
//! DRIVER sudoku MODE FILE [--limit K] [--timeout SECONDS]
//! DRIVER queens MODE N... [--timeout SECONDS]
//! ```
//!
//! One line per puzzle or board size on standard output, flushed as soon as it is known:
//! `ITEM ANSWER MICROSECONDS NODES FAILURES`, with `-` for a figure the peer does not report.
//! `ANSWER` is 81 digits, the columns from 1 joined by commas, a count, `none`, `limit` (the
//! peer's time limit stopped it) or `not-unique` (a peer that can only say "not exactly one").
//! The time covers building the model and solving it; reading and parsing the input do not
//! count.

use std::io::Write;
use std::time::{Duration, Instant};

/// A puzzle: its line number (from 1) and its 81 cells, 0 for a blank.
pub type Puzzle = (usize, [u8; 81]);

/// The parsed command line.
#[derive(Debug)]
pub struct Args {
    /// `sudoku` or `queens`.
    pub problem: String,
    /// The workload's mode (`lex`, `mrv`, `count2`, `count`).
    pub mode: String,
    /// The puzzle file, or the board sizes.
    pub items: Vec<String>,
    /// At most this many puzzles.
    pub limit: Option<usize>,
    /// The time limit per puzzle or board, for peers that have one.
    pub timeout: Duration,
}

impl Args {
    /// Reads the command line; exits with a usage message if it is malformed.
    pub fn parse() -> Args {
        let mut positional = Vec::new();
        let mut limit = None;
        let mut timeout = Duration::from_secs(60);
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--limit" => limit = args.next().and_then(|v| v.parse().ok()),
                "--timeout" => {
                    let seconds: f64 = args.next().and_then(|v| v.parse().ok()).unwrap_or(60.0);
                    timeout = Duration::from_secs_f64(seconds);
                }
                _ => positional.push(arg),
            }
        }
        if positional.len() < 3 {
            eprintln!("usage: DRIVER sudoku|queens MODE FILE|N... [--limit K] [--timeout SECONDS]");
            std::process::exit(2);
        }
        let items = positional.split_off(2);
        Args {
            problem: positional[0].clone(),
            mode: positional[1].clone(),
            items,
            limit,
            timeout,
        }
    }

    /// The puzzles of the file named by the first item.
    pub fn puzzles(&self) -> Vec<Puzzle> {
        let text = std::fs::read_to_string(&self.items[0]).unwrap_or_else(|e| {
            eprintln!("{}: {e}", self.items[0]);
            std::process::exit(2);
        });
        text.lines()
            .enumerate()
            .filter(|(_, line)| line.len() == 81)
            .take(self.limit.unwrap_or(usize::MAX))
            .map(|(index, line)| {
                let mut cells = [0u8; 81];
                for (cell, byte) in cells.iter_mut().zip(line.bytes()) {
                    *cell = if byte.is_ascii_digit() {
                        byte - b'0'
                    } else {
                        0
                    };
                }
                (index + 1, cells)
            })
            .collect()
    }

    /// The board sizes.
    pub fn sizes(&self) -> Vec<usize> {
        self.items.iter().filter_map(|n| n.parse().ok()).collect()
    }
}

/// Times `work`: its result and the elapsed wall time.
pub fn timed<T>(work: impl FnOnce() -> T) -> (T, Duration) {
    let started = Instant::now();
    let result = work();
    (result, started.elapsed())
}

/// Writes one result line and flushes it.
pub fn emit(item: usize, answer: &str, time: Duration, nodes: Option<u64>, failures: Option<u64>) {
    let figure = |x: Option<u64>| x.map_or("-".to_string(), |x| x.to_string());
    let mut out = std::io::stdout().lock();
    let line = format!(
        "{item} {answer} {:.1} {} {}",
        time.as_secs_f64() * 1e6,
        figure(nodes),
        figure(failures)
    );
    // A closed pipe ends the driver quietly.
    if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
        std::process::exit(0);
    }
}

/// A grid as 81 digits.
pub fn grid_text(values: impl IntoIterator<Item = i32>) -> String {
    values
        .into_iter()
        .map(|v| char::from(b'0' + v as u8))
        .collect()
}

/// Columns as `c1,c2,...`.
pub fn columns_text(columns: impl IntoIterator<Item = i32>) -> String {
    let columns: Vec<String> = columns.into_iter().map(|c| c.to_string()).collect();
    columns.join(",")
}

/// Exits with a message naming a mode the driver does not offer.
pub fn unsupported(args: &Args) -> ! {
    eprintln!("this peer has no {} {} workload", args.problem, args.mode);
    std::process::exit(2);
}
