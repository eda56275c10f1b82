//! Puzzle generation at scale, on one thread, medians of several runs:
//!
//! - `sudoku9`: unique minimal 9x9 Sudoku a second (the library's `Generator`, one puzzle per
//!   seed, every uniqueness check settled: each puzzle is checked `minimal`);
//! - `bands`: the hit rate of each grade band on minimal 9x9 puzzles, the share of attempts
//!   (random solutions carved to a minimal puzzle) whose `puzzle::grade` level lies in it;
//! - `sudoku25`: seconds per 25x25 Sudoku (uniqueness checks of at most 100 decisions, as
//!   `cspkit generate sudoku --size 25`);
//! - `genres`: puzzles a second of each genre of `models::genre`.
//!
//! Run with `cargo bench --bench generate` (add a group's name to run only it, such as
//! `cargo bench --bench generate -- sudoku9`).

use std::time::Instant;

use cspkit::models::futoshiki::Futoshiki;
use cspkit::models::genre::{self, Genre};
use cspkit::models::kakuro::Kakuro;
use cspkit::models::kenken::KenKen;
use cspkit::models::killer_sudoku::KillerSudoku;
use cspkit::models::skyscrapers::Skyscrapers;
use cspkit::models::sudoku::{Grid, Sudoku};
use cspkit::puzzle::{Difficulty, Generator};

/// The median of `values`.
fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn sudoku9() {
    let empty = Sudoku::new(&Grid::empty(3).expect("9x9")).expect("a model");
    let per_run = 200;
    let mut rates = Vec::new();
    let mut clues = 0;
    for run in 0..5u64 {
        let started = Instant::now();
        for k in 0..per_run {
            let puzzle = Generator::new(empty.model(), empty.cells())
                .with_seed(run << 32 | k)
                .generate()
                .expect("a puzzle");
            assert!(puzzle.minimal);
            clues += puzzle.clues.len();
        }
        rates.push(per_run as f64 / started.elapsed().as_secs_f64());
    }
    println!(
        "sudoku9: median {:.0} unique minimal puzzles a second (5 runs of {per_run}, mean {:.2} \
         clues)",
        median(rates),
        clues as f64 / (5 * per_run) as f64
    );
}

fn bands() {
    let empty = Sudoku::new(&Grid::empty(3).expect("9x9")).expect("a model");
    let attempts = 1000u64;
    let mut counts = [0u32; 4];
    for seed in 0..attempts {
        let puzzle = Generator::new(empty.model(), empty.cells())
            .with_seed(seed)
            .with_attempts(1)
            .generate()
            .expect("a puzzle");
        counts[puzzle.grade.difficulty as usize] += 1;
    }
    let levels = [
        Difficulty::Given,
        Difficulty::Forward,
        Difficulty::Full,
        Difficulty::Search,
    ];
    for (level, count) in levels.iter().zip(counts) {
        println!(
            "bands: {:<8} {:>5.1}% of {attempts} attempts",
            level.name(),
            100.0 * f64::from(count) / attempts as f64
        );
    }
    // The band as a target: attempts per puzzle and time, with any grading function.
    for (low, high) in [
        (Difficulty::Forward, Difficulty::Forward),
        (Difficulty::Full, Difficulty::Full),
        (Difficulty::Search, Difficulty::Search),
    ] {
        let started = Instant::now();
        let made = 50u64;
        for seed in 0..made {
            let level = |model: &cspkit::Model, clues: &[(cspkit::VarId, i32)]| {
                cspkit::puzzle::grade(model, clues, 1_000_000)
                    .ok()
                    .map(|g| g.difficulty)
            };
            Generator::new(empty.model(), empty.cells())
                .with_seed(seed)
                .with_attempts(1000)
                .with_grade_band(level, low..=high)
                .generate()
                .expect("a puzzle in the band");
        }
        println!(
            "bands: target {}: {:.1} ms a puzzle ({made} puzzles)",
            low.name(),
            started.elapsed().as_secs_f64() * 1000.0 / made as f64
        );
    }
}

fn sudoku25() {
    let empty = Sudoku::new(&Grid::empty(5).expect("25x25")).expect("a model");
    let mut times = Vec::new();
    let mut clues = Vec::new();
    for seed in 0..5 {
        let started = Instant::now();
        let puzzle = Generator::new(empty.model(), empty.cells())
            .with_seed(seed)
            .with_check_decision_limit(100)
            .generate()
            .expect("a puzzle");
        times.push(started.elapsed().as_secs_f64());
        clues.push(puzzle.clues.len() as f64);
    }
    let slowest = times.iter().copied().fold(0.0, f64::max);
    println!(
        "sudoku25: median {:.2} s a puzzle (slowest {slowest:.2} s of 5), median {:.0} clues",
        median(times),
        median(clues)
    );
}

fn genre_rate<G: Genre>(size: usize, count: u64) {
    let mut rates = Vec::new();
    for run in 0..3u64 {
        let started = Instant::now();
        for k in 0..count {
            let _: (G, _) = genre::generate(size, run << 32 | k, 20, |g| g).expect("a puzzle");
        }
        rates.push(count as f64 / started.elapsed().as_secs_f64());
    }
    println!(
        "genres: {} {size}: median {:.1} puzzles a second (3 runs of {count})",
        G::NAME,
        median(rates)
    );
}

fn genres() {
    genre_rate::<Futoshiki>(5, 50);
    genre_rate::<Futoshiki>(7, 20);
    genre_rate::<KenKen>(5, 50);
    genre_rate::<KenKen>(7, 20);
    genre_rate::<Kakuro>(5, 50);
    genre_rate::<Kakuro>(7, 20);
    genre_rate::<Skyscrapers>(5, 10);
    genre_rate::<KillerSudoku>(4, 50);
}

fn main() {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wanted = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));
    let groups: [(&str, fn()); 4] = [
        ("sudoku9", sudoku9),
        ("bands", bands),
        ("sudoku25", sudoku25),
        ("genres", genres),
    ];
    for (name, run) in groups {
        if wanted(name) {
            run();
        }
    }
}
