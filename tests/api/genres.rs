//! The puzzle genres (`models::futoshiki`, `kenken`, `kakuro`, `skyscrapers`,
//! `killer_sudoku`): generated puzzles are unique and minimal by a counter written here (plain
//! backtracking over the cells with each genre's rules, not cspkit's solver nor its models),
//! the same seed gives the same puzzle, text round-trips, and malformed text is an error naming
//! its line, column and value.

use cspkit::models::futoshiki::Futoshiki;
use cspkit::models::genre::{self, Genre};
use cspkit::models::kakuro::Kakuro;
use cspkit::models::kenken::{KenKen, Operation};
use cspkit::models::killer_sudoku::KillerSudoku;
use cspkit::models::skyscrapers::Skyscrapers;
use cspkit::puzzle::Limits;

/// Solutions of `cells` cells with values 1 to `max`, filled in order, counted up to two:
/// `ok(values, i)` says whether the value just put in cell `i` keeps every rule whose cells
/// are all filled (cells after `i` are 0).
fn count(cells: usize, max: i32, ok: &dyn Fn(&[i32], usize) -> bool) -> u64 {
    fn go(values: &mut [i32], i: usize, max: i32, ok: &dyn Fn(&[i32], usize) -> bool) -> u64 {
        if i == values.len() {
            return 1;
        }
        let mut found = 0;
        for v in 1..=max {
            values[i] = v;
            if ok(values, i) {
                found += go(values, i + 1, max, ok);
                if found >= 2 {
                    break;
                }
            }
        }
        values[i] = 0;
        found
    }
    go(&mut vec![0; cells], 0, max, ok)
}

/// Whether cell `i` of an `n × n` grid differs from the filled cells before it in its row and
/// column.
fn latin(values: &[i32], i: usize, n: usize) -> bool {
    let (r, c) = (i / n, i % n);
    (0..c).all(|k| values[r * n + k] != values[i]) && (0..r).all(|k| values[k * n + c] != values[i])
}

/// Buildings seen along `line`.
fn seen(line: &[i32]) -> i32 {
    let mut top = 0;
    let mut count = 0;
    for &h in line {
        if h > top {
            top = h;
            count += 1;
        }
    }
    count
}

/// Whether `sum` is still reachable by the run `run` (filled cells non-zero, each value once,
/// `low..=high` the values): the filled cells' sum plus the least and most the others can add.
fn sum_reachable(values: &[i32], run: &[usize], sum: i32, high: i32) -> bool {
    let filled: Vec<i32> = run.iter().map(|&k| values[k]).filter(|&v| v > 0).collect();
    let partial: i32 = filled.iter().sum();
    let left = (run.len() - filled.len()) as i32;
    let unused = |v: &i32| !filled.contains(v);
    let least: i32 = (1..=high).filter(unused).take(left as usize).sum();
    let most: i32 = (1..=high).rev().filter(unused).take(left as usize).sum();
    partial + least <= sum && sum <= partial + most
}

/// The independent count of a Futoshiki's solutions (clues in the documented order).
fn futoshiki_count(p: &Futoshiki) -> u64 {
    let n = p.side();
    let clues = p.clues().to_vec();
    let row_sign = |r: usize, c: usize| clues[n * n + r * (n - 1) + c];
    let col_sign = |r: usize, c: usize| clues[n * n + n * (n - 1) + r * n + c];
    count(n * n, n as i32, &|v, i| {
        let (r, c) = (i / n, i % n);
        let holds = |sign: Option<i32>, a: i32, b: i32| match sign {
            Some(1) => a < b,
            Some(_) => a > b,
            None => true,
        };
        latin(v, i, n)
            && clues[i].is_none_or(|g| g == v[i])
            && (c == 0 || holds(row_sign(r, c - 1), v[i - 1], v[i]))
            && (r == 0 || holds(col_sign(r - 1, c), v[i - n], v[i]))
    })
}

/// The independent count of a Skyscrapers' solutions.
fn skyscrapers_count(p: &Skyscrapers) -> u64 {
    let n = p.side();
    let clues = p.clues().to_vec();
    count(n * n, n as i32, &|v, i| {
        let (r, c) = (i / n, i % n);
        if !latin(v, i, n) || clues[4 * n + i].is_some_and(|g| g != v[i]) {
            return false;
        }
        let agrees = |clue: Option<i32>, line: &[i32]| clue.is_none_or(|k| k == seen(line));
        if c == n - 1 {
            let mut row: Vec<i32> = v[r * n..r * n + n].to_vec();
            if !agrees(clues[2 * n + r], &row) {
                return false;
            }
            row.reverse();
            if !agrees(clues[3 * n + r], &row) {
                return false;
            }
        }
        if r == n - 1 {
            let mut col: Vec<i32> = (0..n).map(|k| v[k * n + c]).collect();
            if !agrees(clues[c], &col) {
                return false;
            }
            col.reverse();
            if !agrees(clues[n + c], &col) {
                return false;
            }
        }
        true
    })
}

/// The independent count of a KenKen's solutions.
fn kenken_count(p: &KenKen) -> u64 {
    let n = p.side();
    let cages: Vec<_> = p.cages().to_vec();
    let clues = p.clues().to_vec();
    count(n * n, n as i32, &|v, i| {
        if !latin(v, i, n) {
            return false;
        }
        let k = cages
            .iter()
            .position(|(cells, _)| cells.contains(&i))
            .unwrap();
        let (cells, op) = &cages[k];
        let Some(target) = clues[k] else {
            // A hidden target: a quotient must still be whole.
            if *op == Operation::Divide && cells.iter().all(|&c| c <= i) {
                let (a, b) = (v[cells[0]], v[cells[1]]);
                return a.max(b) % a.min(b) == 0;
            }
            return true;
        };
        let filled: Vec<i32> = cells.iter().filter(|&&c| c <= i).map(|&c| v[c]).collect();
        let complete = filled.len() == cells.len();
        match op {
            Operation::Given => v[i] == target,
            Operation::Add => {
                let s: i32 = filled.iter().sum();
                if complete { s == target } else { s < target }
            }
            Operation::Multiply => {
                let m: i32 = filled.iter().product();
                if complete {
                    m == target
                } else {
                    target % m == 0
                }
            }
            Operation::Subtract if complete => (filled[0] - filled[1]).abs() == target,
            Operation::Divide if complete => {
                let (a, b) = (filled[0].max(filled[1]), filled[0].min(filled[1]));
                a % b == 0 && a / b == target
            }
            _ => true,
        }
    })
}

/// The independent count of a 4x4 or 9x9 Killer Sudoku's solutions.
fn killer_count(p: &KillerSudoku) -> u64 {
    let n = p.side();
    let b = if n == 4 { 2 } else { 3 };
    let cages = p.cages().to_vec();
    let clues = p.clues().to_vec();
    count(n * n, n as i32, &|v, i| {
        let (r, c) = (i / n, i % n);
        let in_box = (0..i).all(|j| !(j / n / b == r / b && j % n / b == c / b) || v[j] != v[i]);
        if !latin(v, i, n) || !in_box {
            return false;
        }
        let k = cages.iter().position(|cells| cells.contains(&i)).unwrap();
        let cells = &cages[k];
        let filled: Vec<usize> = cells.iter().copied().filter(|&c| c <= i).collect();
        if filled.iter().any(|&c| c != i && v[c] == v[i]) {
            return false;
        }
        clues[k].is_none_or(|sum| sum_reachable(v, cells, sum, n as i32))
    })
}

/// The runs of a Kakuro found here from its white cells: in the order of their black cells,
/// the run down before the run across, as white-cell indices.
fn kakuro_runs(p: &Kakuro) -> Vec<Vec<usize>> {
    let (rows, cols) = p.size();
    let white = p.white();
    let index = |cell: usize| white[..cell].iter().filter(|&&w| w).count();
    let mut runs = Vec::new();
    for black in (0..rows * cols).filter(|&i| !white[i]) {
        let (r, c) = (black / cols, black % cols);
        let down: Vec<usize> = (r + 1..rows)
            .map(|k| k * cols + c)
            .take_while(|&i| white[i])
            .map(index)
            .collect();
        let across: Vec<usize> = (c + 1..cols)
            .map(|k| r * cols + k)
            .take_while(|&i| white[i])
            .map(index)
            .collect();
        runs.extend([down, across].into_iter().filter(|run| !run.is_empty()));
    }
    runs
}

/// The independent count of a Kakuro's solutions.
fn kakuro_count(p: &Kakuro) -> u64 {
    let runs = kakuro_runs(p);
    let clues = p.clues().to_vec();
    assert_eq!(runs.len(), clues.len(), "one clue per run");
    let cells = p.white().iter().filter(|&&w| w).count();
    count(cells, 9, &|v, i| {
        runs.iter().zip(&clues).all(|(run, clue)| {
            if !run.contains(&i) {
                return true;
            }
            let repeated = run.iter().any(|&c| c != i && v[c] == v[i]);
            !repeated && clue.is_none_or(|sum| sum_reachable(v, run, sum, 9))
        })
    })
}

/// Generates puzzles of `G` at `size` for a few seeds and checks each: one solution by the
/// counter, and every clue needed (without it, two solutions); the generator's cells agree.
fn check_genre<G: Genre>(size: usize, seeds: std::ops::Range<u64>, counter: fn(&G) -> u64) {
    for seed in seeds {
        let (puzzle, made): (G, _) = genre::generate(size, seed, 20, |g| g).unwrap();
        assert!(made.minimal, "{} {size} seed {seed}: not minimal", G::NAME);
        assert_eq!(
            counter(&puzzle),
            1,
            "{} seed {seed}:\n{}",
            G::NAME,
            puzzle.to_text()
        );
        let model = puzzle.model().unwrap();
        let solved = model.solve(puzzle.clues(), &Limits::new()).unwrap();
        assert_eq!(solved.solutions, 1);
        let given: Vec<usize> = (0..puzzle.clues().len())
            .filter(|&k| puzzle.clues()[k].is_some())
            .collect();
        assert!(!given.is_empty());
        for k in given {
            let mut fewer = puzzle.clues().to_vec();
            fewer[k] = None;
            let weaker = puzzle.with_clues(fewer);
            assert!(
                counter(&weaker) >= 2,
                "{} seed {seed}: clue {k} is not needed:\n{}",
                G::NAME,
                puzzle.to_text()
            );
        }
        // The text reads back as the same puzzle.
        assert_eq!(
            G::parse(&puzzle.to_text()).unwrap().to_text(),
            puzzle.to_text()
        );
    }
}

#[test]
fn generated_futoshiki_puzzles_are_unique_and_minimal() {
    check_genre::<Futoshiki>(4, 0..4, futoshiki_count);
    check_genre::<Futoshiki>(5, 0..2, futoshiki_count);
}

#[test]
fn generated_skyscrapers_puzzles_are_unique_and_minimal() {
    check_genre::<Skyscrapers>(4, 0..4, skyscrapers_count);
    check_genre::<Skyscrapers>(5, 0..1, skyscrapers_count);
}

#[test]
fn generated_kenken_puzzles_are_unique_and_minimal() {
    check_genre::<KenKen>(4, 0..4, kenken_count);
    check_genre::<KenKen>(5, 0..2, kenken_count);
}

#[test]
fn generated_killer_sudoku_puzzles_are_unique_and_minimal() {
    check_genre::<KillerSudoku>(4, 0..6, killer_count);
}

#[test]
fn generated_kakuro_puzzles_are_unique_and_minimal() {
    check_genre::<Kakuro>(4, 0..4, kakuro_count);
    check_genre::<Kakuro>(5, 0..3, kakuro_count);
}

#[test]
fn the_same_seed_gives_the_same_puzzle_and_seeds_differ() {
    fn texts<G: Genre>(size: usize) -> Vec<String> {
        (0..4)
            .map(|seed| {
                let (p, _): (G, _) = genre::generate(size, seed, 20, |g| g).unwrap();
                p.to_text()
            })
            .collect()
    }
    fn check<G: Genre>(size: usize) {
        let first = texts::<G>(size);
        assert_eq!(first, texts::<G>(size), "{}", G::NAME);
        assert!(first.windows(2).any(|w| w[0] != w[1]), "{}", G::NAME);
    }
    check::<Futoshiki>(5);
    check::<KenKen>(5);
    check::<Kakuro>(5);
    check::<Skyscrapers>(4);
    check::<KillerSudoku>(4);
}

/// The example of the Killer Sudoku module's docs.
const KILLER: &str =
    "A A B B\nC C D D\nE F G H\nE I I H\nA ?\nB ?\nC 6\nD ?\nE 5\nF 1\nG ?\nH 3\nI ?\n";

#[test]
fn the_documented_examples_have_the_counted_number_of_solutions() {
    let sky = Skyscrapers::parse(
        ". 3 2 1 2 .\n2 . . . . 2\n2 . . . . 2\n4 . . . . 1\n1 . . . . 4\n. 1 2 3 2 .\n",
    )
    .unwrap();
    assert_eq!(skyscrapers_count(&sky), 1);
    let killer = KillerSudoku::parse(KILLER).unwrap();
    assert_eq!(killer_count(&killer), 1);
    let ken = KenKen::parse("A A B\nC D B\nC D D\nA 1-\nB 3/\nC 6x\nD 6+\n").unwrap();
    assert_eq!(kenken_count(&ken), 1);
    let kakuro = Kakuro::parse("#   4\\  3\\\n\\3  .   .\n\\4  .   .\n").unwrap();
    assert_eq!(kakuro_count(&kakuro), 1);
    // Without the sign, the 3x3 Futoshiki has the two Latin squares with 1 in the corner.
    let futoshiki = Futoshiki::parse("1 . . . .\n. . .\n. . . . .\n. . .\n. . . . .\n").unwrap();
    assert_eq!(futoshiki_count(&futoshiki), 2);
}

/// The error of `text` read as `G`: its line, column, and a word of its message.
fn error_of<G: Genre + std::fmt::Debug>(text: &str) -> (usize, usize, String) {
    let error = G::parse(text).expect_err(text);
    (error.line, error.column, error.message)
}

#[test]
fn malformed_futoshiki_text_names_the_line_column_and_value() {
    let (line, column, message) =
        error_of::<Futoshiki>("1 . . . .\n. x .\n. . . . .\n. . .\n. . . . .\n");
    assert_eq!((line, column), (2, 3));
    assert!(message.contains("\"x\""), "{message}");
    let (line, column, message) =
        error_of::<Futoshiki>("1 . 4 . .\n. . .\n. . . . .\n. . .\n. . . . .\n");
    assert_eq!((line, column), (1, 5));
    assert!(
        message.contains("\"4\"") && message.contains("1 to 3"),
        "{message}"
    );
    let (line, _, message) = error_of::<Futoshiki>("1 . . . .\n. . .\n");
    assert_eq!(line, 3);
    assert!(message.contains("2 lines"), "{message}");
    let (_, _, message) = error_of::<Futoshiki>("1 . .\n. . . .\n. . .\n");
    assert!(message.contains("4 words"), "{message}");
    let (_, _, message) = error_of::<Futoshiki>("\n\n");
    assert!(message.contains("no puzzle"), "{message}");
}

#[test]
fn malformed_skyscrapers_text_names_the_line_column_and_value() {
    let text = ". 3 2 1 2 .\n2 . . . . 2\n2 . . . . 2\n4 . . 7 . 1\n1 . . . . 4\n. 1 2 3 2 .\n";
    let (line, column, message) = error_of::<Skyscrapers>(text);
    assert_eq!((line, column), (4, 7));
    assert!(
        message.contains("\"7\"") && message.contains("height"),
        "{message}"
    );
    let text = "3 3 2 1 2 .\n2 . . . . 2\n2 . . . . 2\n4 . . . . 1\n1 . . . . 4\n. 1 2 3 2 .\n";
    let (line, column, message) = error_of::<Skyscrapers>(text);
    assert_eq!((line, column), (1, 1));
    assert!(message.contains("corner"), "{message}");
    let text = ". 5 2 1 2 .\n2 . . . . 2\n2 . . . . 2\n4 . . . . 1\n1 . . . . 4\n. 1 2 3 2 .\n";
    let (line, column, message) = error_of::<Skyscrapers>(text);
    assert_eq!((line, column), (1, 3));
    assert!(
        message.contains("\"5\"") && message.contains("edge clue"),
        "{message}"
    );
}

#[test]
fn malformed_kenken_text_names_the_line_column_and_value() {
    let (line, column, message) =
        error_of::<KenKen>("A A B\nC D B\nC D D\nA 1-\nB 3/\nC 6x\nD 6%\n");
    assert_eq!((line, column), (7, 3));
    assert!(message.contains("6%"), "{message}");
    let (line, column, message) = error_of::<KenKen>("A A B\nC D B\nC D D\nA 1-\nB 3/\nC 6x\n");
    assert_eq!((line, column), (6, 0));
    assert!(message.contains("\"D\" has no clue"), "{message}");
    let (line, column, message) =
        error_of::<KenKen>("A A B\nC D B\nC D D\nA 1-\nB 3/\nC 6x\nD 6-\n");
    assert_eq!((line, column), (7, 3));
    assert!(message.contains("two cells"), "{message}");
    let (line, column, message) =
        error_of::<KenKen>("A B A\nC D B\nC D D\nA 1-\nB 3/\nC 6x\nD 6+\n");
    assert_eq!((line, column), (1, 1));
    assert!(message.contains("not connected"), "{message}");
    let (line, column, message) =
        error_of::<KenKen>("A A B\nC D B\nC D D\nA 1-\nB 3/\nC 6x\nD 6+\nE 2\n");
    assert_eq!((line, column), (8, 1));
    assert!(message.contains("\"E\""), "{message}");
}

#[test]
fn malformed_killer_sudoku_text_names_the_line_column_and_value() {
    let map = "A A B B\nC D D B\nC E F F\nE E G G\n";
    let (line, column, message) =
        error_of::<KillerSudoku>(&format!("{map}A 3\nB 9\nC 7\nD 5\nE nine\nF 5\nG 4\n"));
    assert_eq!((line, column), (9, 3));
    assert!(message.contains("\"nine\""), "{message}");
    let (line, _, message) = error_of::<KillerSudoku>("A A B\nC D B\nC D D\nA 3\n");
    assert_eq!(line, 1);
    assert!(
        message.contains("4 or 9") || message.contains("4 to 9"),
        "{message}"
    );
}

#[test]
fn malformed_kakuro_text_names_the_line_column_and_value() {
    let (line, column, message) = error_of::<Kakuro>("#   4\\  3\\\n\\3  .   .\n\\4  .   x\n");
    assert_eq!((line, column), (3, 9));
    assert!(message.contains("\"x\""), "{message}");
    let (line, column, message) = error_of::<Kakuro>("#   4\\  3\\\n\\3  .   .\n\\44 .   .\n");
    assert_eq!((line, column), (3, 2));
    assert!(
        message.contains("\"44\"") && message.contains("3 to 17"),
        "{message}"
    );
    let (line, column, message) = error_of::<Kakuro>("#   4\\  3\\5\n\\3  .   .\n\\4  .   .\n");
    assert_eq!((line, column), (1, 11));
    assert!(message.contains("no run"), "{message}");
}

#[test]
fn a_hidden_clue_and_a_given_read_back_as_written() {
    let text = "A A B\nC D B\nC D D\nA ?-\nB 3/\nC 6x\nD 6+\n";
    let puzzle = KenKen::parse(text).unwrap();
    assert_eq!(puzzle.clues()[0], None);
    assert_eq!(puzzle.to_text(), text);
}
