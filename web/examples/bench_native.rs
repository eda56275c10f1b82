//! The benchmark's native side (see `web/bench/run.sh`): the same workloads as the
//! WebAssembly module's `bench_queens_count` and `bench_sudoku`, from the same code, timed
//! `RUNS` times; prints one JSON line per run: `{"ms": ..., "result": {...}}`.
//!
//! ```text
//! cargo run --release --example bench_native -- queens N RUNS
//! cargo run --release --example bench_native -- sudoku FILE LIMIT RUNS
//! ```

use std::process::ExitCode;
use std::time::Instant;

use cspkit_web::bench;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |text: &str| text.parse::<usize>().map_err(|e| format!("{text:?}: {e}"));
    let run = || -> Result<(), String> {
        match args
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice()
        {
            ["queens", n, runs] => {
                let n = number(n)?;
                for _ in 0..number(runs)? {
                    let started = Instant::now();
                    let result = bench::queens_count(n).map_err(|e| e.message)?;
                    print(started, &result);
                }
                Ok(())
            }
            ["sudoku", file, limit, runs] => {
                let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
                let limit = number(limit)?;
                for _ in 0..number(runs)? {
                    let started = Instant::now();
                    let result = bench::sudoku_workload(&text, limit).map_err(|e| e.message)?;
                    print(started, &result);
                }
                Ok(())
            }
            _ => Err("usage: bench_native queens N RUNS | sudoku FILE LIMIT RUNS".into()),
        }
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("bench_native: {message}");
            ExitCode::from(2)
        }
    }
}

/// Prints one run's time and result.
fn print(started: Instant, result: &serde_json::Value) {
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    println!("{}", serde_json::json!({"ms": ms, "result": result}));
}
