//! Hints from a player's state on a public puzzle set: the time of `Sudoku::hint_from` (median,
//! 90th percentile, max; each state's time the median of three runs) and the techniques hinted, on
//! three states per puzzle: the givens alone (every candidate the givens allow), a state of correct
//! partial progress (a fifth of the open cells entered with the solution's value, and in half of
//! the others pencil marks with a third of the wrong candidates struck out), and the state where
//! singles stop (every single the hints give entered, until a hint is another technique).
//!
//! ```text
//! cargo run --release --example sudoku_hints -- FILE [--limit N] [--every K]
//! ```
//!
//! FILE has one 9x9 puzzle a line (81 symbols, `.` or `0` for an empty cell, anywhere on the
//! line among blank-separated fields); `--every K` keeps every K-th line, `--limit N` the first
//! N kept. The data is read from the path given; none is shipped.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use cspkit::models::sudoku::{Grid, HumanTechnique, Sudoku, SudokuState};
use cspkit::puzzle::Limits;

/// A small deterministic generator for the partial progress.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// A state of correct partial progress on `grid` towards `solution`.
fn progress(grid: &Grid, solution: &Grid, rng: &mut Lcg) -> SudokuState {
    let mut state = SudokuState::from_grid(grid);
    for c in 0..81 {
        let (r, k) = (c / 9, c % 9);
        if grid.get(r, k) != 0 {
            continue;
        }
        let value = solution.get(r, k);
        match rng.below(10) {
            0 | 1 => {
                state.set_entry(r, k, value);
            }
            2..=6 => {
                let marks: Vec<u8> = (1..=9)
                    .filter(|&v| v == value || rng.below(3) != 0)
                    .collect();
                state.set_marks(r, k, &marks);
            }
            _ => {}
        }
    }
    state
}

/// The state where singles stop: the singles the hints give, entered one by one.
fn after_singles(empty: &Sudoku, grid: &Grid) -> SudokuState {
    let mut state = SudokuState::from_grid(grid);
    loop {
        let hint = empty.hint_from(&state, &Limits::new()).expect("a hint");
        let Some(step) = hint.steps.first() else {
            return state;
        };
        let single = matches!(
            step.technique,
            HumanTechnique::NakedSingle | HumanTechnique::HiddenSingle
        );
        if !single {
            return state;
        }
        for &(var, value) in &step.placed {
            let c = empty
                .cells()
                .iter()
                .position(|&v| v == var)
                .expect("a cell");
            state.set_entry(c / 9, c % 9, value as u8);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!(
            "usage: cargo run --release --example sudoku_hints -- FILE [--limit N] [--every K]"
        );
        return;
    };
    let option = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse::<usize>().ok())
    };
    let limit = option("--limit").unwrap_or(usize::MAX);
    let every = option("--every").unwrap_or(1).max(1);
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let grids: Vec<Grid> = text
        .lines()
        .enumerate()
        .filter(|(i, _)| i % every == 0)
        .filter_map(|(_, line)| {
            let field = line.split_whitespace().find(|f| f.len() == 81)?;
            Grid::parse(field, None).ok()
        })
        .take(limit)
        .collect();
    let empty = Sudoku::new(&Grid::empty(3).expect("9x9")).expect("the empty grid");
    let mut rng = Lcg(1);
    let mut times: [Vec<Duration>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    let mut techniques: BTreeMap<String, usize> = BTreeMap::new();
    let mut slowest: Option<(Duration, String)> = None;
    for grid in &grids {
        let Some(solution) = Sudoku::new(grid).ok().and_then(|s| s.solve()) else {
            continue;
        };
        let states = [
            SudokuState::from_grid(grid),
            progress(grid, &solution, &mut rng),
            after_singles(&empty, grid),
        ];
        for (k, state) in states.iter().enumerate() {
            // The median of three runs: one state's time, not the machine's hiccups.
            let mut runs = [Duration::ZERO; 3];
            let mut hint = None;
            for run in &mut runs {
                let started = Instant::now();
                hint = Some(empty.hint_from(state, &Limits::new()).expect("a hint"));
                *run = started.elapsed();
            }
            runs.sort_unstable();
            let (took, hint) = (runs[1], hint.expect("three runs"));
            times[k].push(took);
            if slowest.as_ref().is_none_or(|(t, _)| took > *t) {
                slowest = Some((took, state.to_string()));
            }
            let name = hint
                .steps
                .first()
                .map_or_else(|| "none".to_owned(), |s| s.technique.to_string());
            *techniques.entry(name).or_insert(0) += 1;
        }
    }
    println!("{} puzzles from {path}", grids.len());
    for (k, what) in ["givens alone", "partial progress", "where singles stop"]
        .iter()
        .enumerate()
    {
        let list = &mut times[k];
        list.sort_unstable();
        if list.is_empty() {
            continue;
        }
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        println!(
            "{what}: hint in median {:.2} ms, p90 {:.2} ms, max {:.2} ms ({} states)",
            ms(list[list.len() / 2]),
            ms(list[list.len() * 9 / 10]),
            ms(list[list.len() - 1]),
            list.len()
        );
    }
    let hinted: Vec<String> = techniques.iter().map(|(t, n)| format!("{t} {n}")).collect();
    println!("techniques hinted: {}", hinted.join(", "));
    if let Some((took, state)) = slowest {
        // In the state format of `cspkit sudoku --state`, to time or profile it alone.
        println!(
            "slowest state ({:.2} ms):\n{state}",
            took.as_secs_f64() * 1000.0
        );
    }
}
