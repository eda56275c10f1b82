//! Criterion micro-benchmarks, named `group/case`:
//!
//! - `domain/*`: the read operations of [`Domain`] on a one-word domain (`1..=9`) and on a
//!   multi-word one (`1..=1000` with every third value);
//! - `all_different/*`: one propagation of a 9-variable [`AllDifferent`] to its fixpoint, at
//!   each level. `alone_*` run the constraint alone on a copy of the domains
//!   ([`propagate_alone`]); the others are a solver stopped before its first decision: setting
//!   up the search state plus the root propagation. `all_different/setup_only` is that without
//!   the constraint, to subtract;
//! - `sudoku/*`: building the model of a 9x9 Sudoku, and solving it with the default strategy
//!   (its lexicographically smallest solution), from its own model or, as `cspkit sudoku
//!   --batch` does, by restarting a solver of the empty grid with the givens
//!   (`restart_solve_demo`). The puzzle of the `cspkit` demo is always run;
//!   the first puzzle of top1465 is added when the data directory is found
//!   (`CSPKIT_BENCH_DATA`, by default `../shared/data/sudoku` beside the crate).
//!
//! Run with `cargo bench --bench micro` (add `-- domain/` to pick a group).

use std::hint::black_box;
use std::path::PathBuf;

use criterion::Criterion;
use cspkit::kernel::propagate_alone;
use cspkit::models::sudoku::{Grid, Sudoku};
use cspkit::{AllDifferent, Domain, Model, PropagationLevel, VarId};

fn domains(c: &mut Criterion) {
    let word = Domain::range(1, 9).unwrap();
    let set = Domain::from_values((1..=1000).filter(|v| v % 3 != 0)).unwrap();
    let mut group = c.benchmark_group("domain");
    group.bench_function("size_word", |b| b.iter(|| black_box(&word).size()));
    group.bench_function("size_set", |b| b.iter(|| black_box(&set).size()));
    group.bench_function("min_max_set", |b| {
        b.iter(|| (black_box(&set).min(), black_box(&set).max()))
    });
    group.bench_function("contains_word", |b| {
        b.iter(|| black_box(&word).contains(black_box(5)))
    });
    group.bench_function("iter_word", |b| {
        b.iter(|| black_box(&word).iter().sum::<i32>())
    });
    group.bench_function("iter_set", |b| {
        b.iter(|| black_box(&set).iter().sum::<i32>())
    });
    group.bench_function("window_set", |b| {
        b.iter(|| black_box(&set).window(black_box(500)))
    });
    group.bench_function("range_word", |b| {
        b.iter(|| Domain::range(black_box(1), black_box(9)))
    });
    group.finish();
}

/// Nine variables `1..=9` under one AllDifferent, with a Hall set: the first three variables
/// can only take 1, 2 and 3, so full propagation removes those values from the six others.
fn all_different_model(with_constraint: bool) -> Model {
    let mut model = Model::new();
    let xs: Vec<VarId> = model.new_vars(9, 1..=9).unwrap();
    for &x in &xs[..3] {
        for value in 4..=9 {
            model.remove(x, value).unwrap();
        }
    }
    if with_constraint {
        model.post(AllDifferent::new(&xs)).unwrap();
    }
    model
}

fn all_different(c: &mut Criterion) {
    let mut group = c.benchmark_group("all_different");
    let bare = all_different_model(false);
    group.bench_function("setup_only", |b| {
        b.iter(|| {
            black_box(&bare)
                .solver()
                .with_decision_limit(0)
                .next_solution()
        })
    });
    let model = all_different_model(true);
    for (name, level) in [
        ("none_9", PropagationLevel::None),
        ("forward_9", PropagationLevel::Forward),
        ("full_9", PropagationLevel::Full),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                black_box(&model)
                    .solver()
                    .with_propagation(level)
                    .with_decision_limit(0)
                    .next_solution()
            })
        });
    }
    // The constraint alone, outside a search: a copy of the domains, then its fixpoint.
    let (_, constraint) = model.constraints().next().expect("the all-different");
    let domains: Vec<Domain> = model.variables().map(|v| model.domain(v).clone()).collect();
    let mut work = domains.clone();
    for (name, level) in [
        ("alone_none_9", PropagationLevel::None),
        ("alone_forward_9", PropagationLevel::Forward),
        ("alone_full_9", PropagationLevel::Full),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                work.clone_from(&domains);
                propagate_alone(black_box(constraint), &mut work, level)
            })
        });
    }
    group.finish();
}

/// The demo puzzle of the `cspkit` program (Baekjoon 2239).
const DEMO: &str =
    "103000509002109400000704000300502006060000050700803004000401000009205800804000107";

/// The first puzzle of top1465, if the data directory is there.
fn top1465_first() -> Option<String> {
    let dir = std::env::var_os("CSPKIT_BENCH_DATA").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/sudoku"),
        PathBuf::from,
    );
    let text = std::fs::read_to_string(dir.join("puzzles3_magictour_top1465.txt")).ok()?;
    text.lines().next().map(str::to_string)
}

fn sudoku(c: &mut Criterion) {
    let mut group = c.benchmark_group("sudoku");
    let demo = Grid::parse_line(DEMO, 1).unwrap();
    group.bench_function("build_demo", |b| b.iter(|| Sudoku::new(black_box(&demo))));
    let model = Sudoku::new(&demo).unwrap();
    group.bench_function("solve_demo", |b| b.iter(|| black_box(&model).solve()));
    // The batch path: one model of the empty grid, one solver restarted with the givens.
    let empty = Sudoku::new(&Grid::empty(3).unwrap()).unwrap();
    let mut solver = empty.model().solver();
    group.bench_function("restart_solve_demo", |b| {
        b.iter(|| {
            solver.restart_with(empty.givens(black_box(&demo))).unwrap();
            solver.next_solution()
        })
    });
    if let Some(line) = top1465_first() {
        let hard = Sudoku::new(&Grid::parse_line(&line, 1).unwrap()).unwrap();
        group.bench_function("solve_top1465_first", |b| {
            b.iter(|| black_box(&hard).solve())
        });
    }
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    domains(&mut c);
    all_different(&mut c);
    sudoku(&mut c);
    c.final_summary();
}
