//! The SE-like rating of `Sudoku::rate` on a public puzzle set: puzzles rated a second, the
//! ladder's levels, and, for a set that carries published Sudoku Explainer ratings, the
//! Spearman rank correlation between those and ours.
//!
//! ```text
//! cargo bench --bench sudoku_rating -- FILE [--limit N] [--every K]
//! ```
//!
//! FILE has one puzzle a line: 81 symbols (`1`-`9`, `.` or `0`), optionally preceded by an
//! identifier and followed by a published rating (the Sudoku Exchange puzzle bank's
//! `hash puzzle rating` lines; a line of the puzzle alone has no published rating).
//! `--every K` keeps every K-th line (a spread sample of a large file), `--limit N` the first
//! N kept. The data is read from the path given; none is shipped.

use std::time::Instant;

use cspkit::models::sudoku::{Grid, Level, Sudoku};

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let Some(path) = args.first() else {
        eprintln!("usage: cargo bench --bench sudoku_rating -- FILE [--limit N] [--every K]");
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
    let mut puzzles: Vec<(Grid, Option<f64>)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if i % every != 0 || puzzles.len() >= limit {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let Some(k) = fields.iter().position(|f| f.len() == 81) else {
            continue;
        };
        let grid = Grid::parse(fields[k], None).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        let published = fields.get(k + 1).and_then(|r| r.parse::<f64>().ok());
        puzzles.push((grid, published));
    }
    let empty = Sudoku::new(&Grid::empty(3).expect("9x9")).expect("the empty grid");
    let started = Instant::now();
    let mut ours = Vec::new();
    let mut levels = [0usize; 5];
    let mut slowest = 0.0f64;
    let mut guesses = 0;
    for (grid, _) in &puzzles {
        let t = Instant::now();
        let rating = empty.rate(grid).expect("a rated puzzle");
        slowest = slowest.max(t.elapsed().as_secs_f64());
        if rating
            .steps
            .iter()
            .any(|s| s.technique == cspkit::models::sudoku::HumanTechnique::Guess)
        {
            guesses += 1;
        }
        levels[match rating.level {
            Level::Easy => 0,
            Level::Medium => 1,
            Level::Hard => 2,
            Level::Unfair => 3,
            _ => 4,
        }] += 1;
        if args.iter().any(|a| a == "--detail") {
            println!(
                "{} {:?} {:.1} {}",
                grid.to_text(cspkit::models::sudoku::GridFormat::Line)
                    .unwrap_or_default()
                    .trim(),
                puzzles[ours.len()].1,
                rating.rating,
                rating.hardest.map(|t| t.to_string()).unwrap_or_default()
            );
        }
        ours.push(rating.rating);
    }
    let seconds = started.elapsed().as_secs_f64();
    println!("file: {path}");
    println!(
        "puzzles: {}, {seconds:.2} s, {:.1} puzzles a second, slowest {:.3} s",
        puzzles.len(),
        puzzles.len() as f64 / seconds,
        slowest
    );
    println!(
        "levels: easy {}, medium {}, hard {}, unfair {}, extreme {} (of which {guesses} guess)",
        levels[0], levels[1], levels[2], levels[3], levels[4]
    );
    let paired: Vec<(f64, f64)> = puzzles
        .iter()
        .zip(&ours)
        .filter_map(|((_, p), &o)| p.map(|p| (p, o)))
        .collect();
    if paired.len() > 1 {
        let (p, o): (Vec<f64>, Vec<f64>) = paired.iter().copied().unzip();
        println!(
            "published SE ratings: {} puzzles, Spearman rank correlation {:.3}, exact {:.1}%, within 0.5 {:.1}%",
            paired.len(),
            spearman(&p, &o),
            100.0 * paired.iter().filter(|(p, o)| (p - o).abs() < 0.05).count() as f64
                / paired.len() as f64,
            100.0
                * paired
                    .iter()
                    .filter(|(p, o)| (p - o).abs() <= 0.5 + 1e-9)
                    .count() as f64
                / paired.len() as f64,
        );
    }
}

/// Ranks with ties given their mean rank.
fn ranks(xs: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..xs.len()).collect();
    order.sort_by(|&a, &b| xs[a].total_cmp(&xs[b]));
    let mut ranks = vec![0.0; xs.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && xs[order[j + 1]] == xs[order[i]] {
            j += 1;
        }
        let mean = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            ranks[k] = mean;
        }
        i = j + 1;
    }
    ranks
}

/// Spearman's rank correlation: Pearson's correlation of the ranks (ties averaged).
fn spearman(a: &[f64], b: &[f64]) -> f64 {
    let (ra, rb) = (ranks(a), ranks(b));
    let n = ra.len() as f64;
    let (ma, mb) = (ra.iter().sum::<f64>() / n, rb.iter().sum::<f64>() / n);
    let cov: f64 = ra.iter().zip(&rb).map(|(x, y)| (x - ma) * (y - mb)).sum();
    let va: f64 = ra.iter().map(|x| (x - ma).powi(2)).sum();
    let vb: f64 = rb.iter().map(|y| (y - mb).powi(2)).sum();
    cov / (va * vb).sqrt()
}
