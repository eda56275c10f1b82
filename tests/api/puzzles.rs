//! The worked puzzles of `examples/`, solved with the examples' own models and checked by
//! checkers written here: each restates the puzzle's rules on the solution, independently of
//! the library. Known answers are data, with their source. Counts are checked under two
//! strategies.

use std::collections::BTreeSet;

use cspkit::{
    DomainOverDegree, InputOrder, Model, PropagationLevel, SmallestDomain, Solution, VarId,
};

#[path = "../../examples/send_more_money.rs"]
#[allow(dead_code, reason = "the example's main is not called by the tests")]
mod send_more_money;

#[path = "../../examples/map_colouring.rs"]
#[allow(dead_code, reason = "the example's main is not called by the tests")]
mod map_colouring;

#[path = "../../examples/magic_square.rs"]
#[allow(dead_code, reason = "the example's main is not called by the tests")]
mod magic_square;

#[path = "../../examples/killer_sudoku.rs"]
#[allow(dead_code, reason = "the example's main is not called by the tests")]
mod killer_sudoku;

#[path = "../../examples/zebra.rs"]
#[allow(dead_code, reason = "the example's main is not called by the tests")]
mod zebra;

#[path = "../../examples/kakuro.rs"]
#[allow(dead_code, reason = "the example's main is not called by the tests")]
mod kakuro;

#[path = "../../examples/nonogram.rs"]
#[allow(dead_code, reason = "the example's main is not called by the tests")]
mod nonogram;

#[path = "../../examples/golomb.rs"]
#[allow(dead_code, reason = "the example's main is not called by the tests")]
mod golomb;

#[path = "../../examples/chromatic.rs"]
#[allow(dead_code, reason = "the example's main is not called by the tests")]
mod chromatic;

#[path = "../../examples/langford.rs"]
#[allow(dead_code, reason = "the example's main is not called by the tests")]
mod langford;

#[path = "../../examples/all_interval.rs"]
#[allow(dead_code, reason = "the example's main is not called by the tests")]
mod all_interval;

#[path = "../../examples/knights_tour.rs"]
#[allow(dead_code, reason = "the example's main is not called by the tests")]
mod knights_tour;

#[path = "../../examples/skyscrapers.rs"]
#[allow(dead_code, reason = "the example's main is not called by the tests")]
mod skyscrapers;

#[path = "../../examples/kenken.rs"]
#[allow(dead_code, reason = "the example's main is not called by the tests")]
mod kenken;

#[path = "../../examples/magic_sequence.rs"]
#[allow(dead_code, reason = "the example's main is not called by the tests")]
mod magic_sequence;

/// Every solution of `model` under two strategies (input order with full propagation, and
/// smallest domain first with forward checking); asserts that both find the same set.
fn all_solutions(model: &Model) -> Vec<Solution> {
    let first: Vec<Solution> = model
        .solver()
        .with_variable_order(InputOrder)
        .solutions()
        .collect();
    let second: Vec<Solution> = model
        .solver()
        .with_variable_order(SmallestDomain)
        .with_propagation(PropagationLevel::Forward)
        .solutions()
        .collect();
    let key = |solutions: &[Solution]| -> BTreeSet<Vec<i32>> {
        solutions.iter().map(|s| s.values().to_vec()).collect()
    };
    assert_eq!(key(&first), key(&second), "the two strategies disagree");
    assert_eq!(
        key(&first).len(),
        first.len(),
        "a solution was reported twice"
    );
    first
}

/// The number of solutions, at most `max`, under two strategies; asserts that they agree.
fn count_up_to(model: &Model, max: u64) -> u64 {
    let first = model.solver().count_up_to(max).solutions;
    let second = model
        .solver()
        .with_variable_order(DomainOverDegree)
        .with_propagation(PropagationLevel::Forward)
        .count_up_to(max)
        .solutions;
    assert_eq!(first, second, "the two strategies disagree");
    first
}

// ----- SEND + MORE = MONEY -----

#[test]
fn send_more_money_has_one_solution_and_it_adds_up() {
    let (model, letters) = send_more_money::model().unwrap();
    let solutions = all_solutions(&model);
    assert_eq!(solutions.len(), 1);
    let [s, e, n, d, m, o, r, y] = letters.map(|var| i64::from(solutions[0][var]));
    let number = |digits: &[i64]| digits.iter().fold(0, |total, digit| total * 10 + digit);
    assert_eq!(
        number(&[s, e, n, d]) + number(&[m, o, r, e]),
        number(&[m, o, n, e, y])
    );
    let distinct: BTreeSet<i64> = [s, e, n, d, m, o, r, y].into();
    assert_eq!(distinct.len(), 8);
    assert!(s != 0 && m != 0);
    // The known answer (H. E. Dudeney, Strand Magazine, July 1924): 9567 + 1085 = 10652.
    assert_eq!((number(&[s, e, n, d]), number(&[m, o, r, e])), (9567, 1085));
}

#[test]
fn send_more_money_is_unique_by_exhaustive_enumeration() {
    // Every assignment of distinct digits to the eight letters (10!/2! of them), checked by
    // arithmetic: exactly one adds up with no leading zero.
    let mut found = 0;
    let mut digits = [0i64; 8];
    fn place(k: usize, used: u16, digits: &mut [i64; 8], found: &mut u32) {
        if k == 8 {
            let [s, e, n, d, m, o, r, y] = *digits;
            let sum = 1000 * s + 100 * e + 10 * n + d + 1000 * m + 100 * o + 10 * r + e;
            let money = 10000 * m + 1000 * o + 100 * n + 10 * e + y;
            if s != 0 && m != 0 && sum == money {
                *found += 1;
            }
            return;
        }
        for digit in 0..10 {
            if used & (1 << digit) == 0 {
                digits[k] = i64::from(digit);
                place(k + 1, used | (1 << digit), digits, found);
            }
        }
    }
    place(0, 0, &mut digits, &mut found);
    assert_eq!(found, 1);
}

// ----- Map colouring -----

/// The number of proper colourings with `colours` colours, by enumerating all assignments.
fn count_colourings(vertices: usize, edges: &[(usize, usize)], colours: u32) -> u64 {
    let total = u64::from(colours).pow(vertices as u32);
    (0..total)
        .filter(|&code| {
            let colour = |v: usize| code / u64::from(colours).pow(v as u32) % u64::from(colours);
            edges.iter().all(|&(a, b)| colour(a) != colour(b))
        })
        .count() as u64
}

/// The edges as index pairs into `names`.
fn index_edges<S: AsRef<str>>(names: &[S], edges: &[(S, S)]) -> Vec<(usize, usize)> {
    let index = |name: &S| {
        names
            .iter()
            .position(|n| n.as_ref() == name.as_ref())
            .unwrap()
    };
    edges.iter().map(|(a, b)| (index(a), index(b))).collect()
}

fn assert_proper(solution: &Solution, vars: &[VarId], edges: &[(usize, usize)]) {
    for &(a, b) in edges {
        assert_ne!(solution[vars[a]], solution[vars[b]], "edge {a}-{b}");
    }
}

#[test]
fn australia_has_18_three_colourings_and_6_without_tasmania() {
    use map_colouring::{AUSTRALIA, AUSTRALIA_BORDERS, model};
    let edges = index_edges(&AUSTRALIA, &AUSTRALIA_BORDERS);
    let (australia, vars) = model(&AUSTRALIA, &AUSTRALIA_BORDERS, 3).unwrap();
    let solutions = all_solutions(&australia);
    for solution in &solutions {
        assert_proper(solution, &vars, &edges);
    }
    assert_eq!(solutions.len() as u64, count_colourings(7, &edges, 3));
    // South Australia touches every other mainland region, which form a path WA-NT-Q-NSW-V:
    // 3 colours for SA, then the path alternates the other two (2 ways), times 3 for Tasmania.
    assert_eq!(solutions.len(), 18);

    let (mainland, vars) = model(&AUSTRALIA[..6], &AUSTRALIA_BORDERS, 3).unwrap();
    let solutions = all_solutions(&mainland);
    for solution in &solutions {
        assert_proper(solution, &vars, &edges);
    }
    assert_eq!(solutions.len() as u64, count_colourings(6, &edges, 3));
    assert_eq!(solutions.len(), 6);
}

#[test]
fn the_petersen_graph_needs_three_colours() {
    let (names, edges) = map_colouring::petersen();
    let indexed = index_edges(&names, &edges);
    assert_eq!((names.len(), indexed.len()), (10, 15));
    // Every vertex has degree 3.
    for v in 0..10 {
        assert_eq!(
            indexed.iter().filter(|&&(a, b)| a == v || b == v).count(),
            3
        );
    }
    let (two, _) = map_colouring::model(&names, &edges, 2).unwrap();
    assert_eq!(count_up_to(&two, 1), 0);
    assert_eq!(count_colourings(10, &indexed, 2), 0);

    let (three, vars) = map_colouring::model(&names, &edges, 3).unwrap();
    let solutions = all_solutions(&three);
    assert!(!solutions.is_empty());
    for solution in &solutions {
        assert_proper(solution, &vars, &indexed);
    }
    assert_eq!(solutions.len() as u64, count_colourings(10, &indexed, 3));
}

// ----- Magic squares -----

/// Whether `square` holds 1..=n² once each, with equal sums on rows, columns and diagonals.
fn is_magic(square: &[Vec<i32>]) -> bool {
    let n = square.len();
    let sum = |cells: &mut dyn Iterator<Item = (usize, usize)>| -> i32 {
        cells.map(|(r, c)| square[r][c]).sum()
    };
    let target = sum(&mut (0..n).map(|c| (0, c)));
    let numbers: BTreeSet<i32> = square.iter().flatten().copied().collect();
    numbers == (1..=(n * n) as i32).collect()
        && (0..n).all(|i| sum(&mut (0..n).map(|c| (i, c))) == target)
        && (0..n).all(|i| sum(&mut (0..n).map(|r| (r, i))) == target)
        && sum(&mut (0..n).map(|i| (i, i))) == target
        && sum(&mut (0..n).map(|i| (i, n - 1 - i))) == target
}

fn squares_of(solutions: &[Solution], grid: &[Vec<VarId>]) -> BTreeSet<Vec<Vec<i32>>> {
    solutions
        .iter()
        .map(|s| grid.iter().map(|row| s.values_of(row)).collect())
        .collect()
}

#[test]
fn there_are_8_magic_squares_of_order_3() {
    let (model, grid) = magic_square::magic_square(3).unwrap();
    let found = squares_of(&all_solutions(&model), &grid);
    assert!(found.iter().all(|square| is_magic(square)));

    // Every arrangement of 1..=9, by Heap's algorithm, filtered by the checker.
    let mut cells: Vec<i32> = (1..=9).collect();
    let mut expected = BTreeSet::new();
    let mut stack = [0usize; 9];
    let mut record = |cells: &[i32]| {
        let square: Vec<Vec<i32>> = cells.chunks(3).map(<[i32]>::to_vec).collect();
        if is_magic(&square) {
            expected.insert(square);
        }
    };
    record(&cells);
    let mut i = 0;
    while i < 9 {
        if stack[i] < i {
            cells.swap(if i % 2 == 0 { 0 } else { stack[i] }, i);
            record(&cells);
            stack[i] += 1;
            i = 0;
        } else {
            stack[i] = 0;
            i += 1;
        }
    }
    assert_eq!(found, expected);
    // The Lo Shu square and its 7 rotations and reflections.
    assert_eq!(found.len(), 8);
}

#[test]
fn there_are_7040_magic_squares_of_order_4() {
    let (model, grid) = magic_square::magic_square(4).unwrap();
    // Frénicle de Bessy (1693): 880 squares up to rotation and reflection, so 8 × 880 = 7040
    // (OEIS A006052). Both strategies use full propagation: forward checking is much slower.
    for order in [true, false] {
        let solutions: Vec<Solution> = if order {
            model
                .solver()
                .with_variable_order(DomainOverDegree)
                .solutions()
                .collect()
        } else {
            model
                .solver()
                .with_variable_order(SmallestDomain)
                .solutions()
                .collect()
        };
        let squares = squares_of(&solutions, &grid);
        assert_eq!(
            squares.len(),
            solutions.len(),
            "a square was reported twice"
        );
        assert!(squares.iter().all(|square| is_magic(square)));
        assert_eq!(squares.len(), 7040);
    }
}

// ----- Killer Sudoku -----

/// The published solution of the Wikipedia Killer Sudoku (`Killersudoku_color_solution.svg`).
const KILLER_SOLUTION: [&str; 9] = [
    "215647398",
    "368952174",
    "794381652",
    "586274931",
    "142593867",
    "973816425",
    "821739546",
    "659428713",
    "437165289",
];

#[test]
fn the_killer_sudoku_has_the_published_solution_and_no_other() {
    let sudoku = killer_sudoku::model().unwrap();
    assert_eq!(count_up_to(sudoku.model(), 2), 1);
    let solution = sudoku.model().solve().solution().unwrap();
    let grid: Vec<Vec<i32>> = (0..9)
        .map(|r| (0..9).map(|c| solution[sudoku.cell(r, c)]).collect())
        .collect();

    for (r, row) in KILLER_SOLUTION.iter().enumerate() {
        for (c, digit) in row.bytes().enumerate() {
            assert_eq!(grid[r][c], i32::from(digit - b'0'), "cell ({r}, {c})");
        }
    }

    // The rules, restated: rows, columns and boxes hold 1..=9; cages add up, without repeats.
    let digits: BTreeSet<i32> = (1..=9).collect();
    for i in 0..9 {
        let row: BTreeSet<i32> = (0..9).map(|c| grid[i][c]).collect();
        let col: BTreeSet<i32> = (0..9).map(|r| grid[r][i]).collect();
        let boxed: BTreeSet<i32> = (0..9)
            .map(|k| grid[i / 3 * 3 + k / 3][i % 3 * 3 + k % 3])
            .collect();
        assert!(
            row == digits && col == digits && boxed == digits,
            "group {i}"
        );
    }
    let mut covered = 0;
    for (letter, sum) in killer_sudoku::SUMS {
        let cage: Vec<i32> = (0..81)
            .filter(|&i| killer_sudoku::CAGES[i / 9].as_bytes()[i % 9] == letter as u8)
            .map(|i| grid[i / 9][i % 9])
            .collect();
        covered += cage.len();
        assert_eq!(
            cage.iter().map(|&v| i64::from(v)).sum::<i64>(),
            sum,
            "cage {letter}"
        );
        assert_eq!(
            cage.iter().collect::<BTreeSet<_>>().len(),
            cage.len(),
            "cage {letter}"
        );
    }
    assert_eq!(covered, 81, "the cages cover the grid once");
}

// ----- Zebra -----

#[test]
fn the_norwegian_drinks_water_and_the_japanese_owns_the_zebra() {
    let model = zebra::model().unwrap();
    let solutions = all_solutions(&model);
    assert_eq!(solutions.len(), 1);
    let solution = &solutions[0];
    let house = |name: &str| solution[model.var_by_name(name).unwrap()];

    // The clues, restated on the houses found.
    let next_to = |a: &str, b: &str| (house(a) - house(b)).abs() == 1;
    for group in zebra::GROUPS {
        let houses: BTreeSet<i32> = group.iter().map(|name| house(name)).collect();
        assert_eq!(houses, (1..=5).collect(), "{group:?}");
    }
    assert_eq!(house("Englishman"), house("red"));
    assert_eq!(house("Spaniard"), house("dog"));
    assert_eq!(house("coffee"), house("green"));
    assert_eq!(house("Ukrainian"), house("tea"));
    assert_eq!(house("green"), house("ivory") + 1);
    assert_eq!(house("Old Gold"), house("snails"));
    assert_eq!(house("Kools"), house("yellow"));
    assert_eq!(house("milk"), 3);
    assert_eq!(house("Norwegian"), 1);
    assert!(next_to("Chesterfield", "fox"));
    assert!(next_to("Kools", "horse"));
    assert_eq!(house("Lucky Strike"), house("orange juice"));
    assert_eq!(house("Japanese"), house("Parliament"));
    assert!(next_to("Norwegian", "blue"));

    assert_eq!(house("water"), house("Norwegian"));
    assert_eq!(house("zebra"), house("Japanese"));
}

// ----- Kakuro -----

/// The published solution of the Wikipedia Kakuro (`Kakuro_black_box.svg`); `#` is black.
const KAKURO_SOLUTION: [&str; 7] = [
    "97##879", "89#8957", "68597##", "#61#26#", "##46132", "8931#14", "312##21",
];

#[test]
fn the_kakuro_has_the_published_solution_and_no_other() {
    let (model, cells) = kakuro::model().unwrap();
    let solutions = all_solutions(&model);
    assert_eq!(solutions.len(), 1);
    let grid: Vec<Vec<Option<i32>>> = (0..7)
        .map(|r| {
            (0..7)
                .map(|c| cells.get(&(r, c)).map(|&var| solutions[0][var]))
                .collect()
        })
        .collect();
    for (r, row) in KAKURO_SOLUTION.iter().enumerate() {
        for (c, symbol) in row.bytes().enumerate() {
            let expected = (symbol != b'#').then(|| i32::from(symbol - b'0'));
            assert_eq!(grid[r][c], expected, "cell ({r}, {c})");
        }
    }

    // The rules, restated: maximal runs of white cells, scanned here, add up to their clues
    // (across in reading order, down column by column) without a repeated digit.
    let runs = |lines: Vec<Vec<Option<i32>>>| -> Vec<Vec<i32>> {
        lines
            .iter()
            .flat_map(|line| line.split(Option::is_none))
            .filter(|run| run.len() >= 2)
            .map(|run| run.iter().flatten().copied().collect())
            .collect()
    };
    let columns = (0..7)
        .map(|c| grid.iter().map(|row| row[c]).collect())
        .collect();
    let across = runs(grid.clone());
    let down = runs(columns);
    assert_eq!((across.len(), down.len()), (12, 12));
    for (run, clue) in across
        .iter()
        .zip(kakuro::ACROSS)
        .chain(down.iter().zip(kakuro::DOWN))
    {
        assert!(run.iter().all(|digit| (1..=9).contains(digit)));
        assert_eq!(
            run.iter().map(|&d| i64::from(d)).sum::<i64>(),
            clue,
            "{run:?}"
        );
        assert_eq!(
            run.iter().collect::<BTreeSet<_>>().len(),
            run.len(),
            "{run:?}"
        );
    }
}

/// The blocks of shaded cells of a line, as a Nonogram clue states them.
fn blocks(line: &[bool]) -> Vec<usize> {
    line.split(|&shaded| !shaded)
        .map(<[bool]>::len)
        .filter(|&len| len > 0)
        .collect()
}

#[test]
fn the_nonogram_has_the_published_picture_and_no_other() {
    let (model, grid) = nonogram::model(&nonogram::ROWS, &nonogram::COLUMNS).unwrap();
    let solutions = all_solutions(&model);
    assert_eq!(solutions.len(), 1);
    let shaded: Vec<Vec<bool>> = grid
        .iter()
        .map(|row| row.iter().map(|&cell| solutions[0][cell] == 1).collect())
        .collect();
    // The clues, read back from the picture.
    for (row, clue) in shaded.iter().zip(nonogram::ROWS) {
        assert_eq!(blocks(row), clue);
    }
    for (c, clue) in nonogram::COLUMNS.iter().enumerate() {
        let column: Vec<bool> = shaded.iter().map(|row| row[c]).collect();
        assert_eq!(blocks(&column), *clue);
    }
    // The picture printed with the puzzle (problem 98 of the Ninety-Nine Haskell Problems).
    let published = [
        ".###....", "##.#....", ".###..##", "..##..##", "..######", "#.#####.", "######..",
        "....#...", "...##...",
    ];
    assert_eq!(
        nonogram::picture(&solutions[0], &grid),
        published.join("\n")
    );
}

#[test]
fn golomb_rulers_of_5_to_8_marks_have_their_published_optimal_lengths() {
    // Optimal Golomb rulers (OEIS A003022): 5 marks 11, 6 marks 17, 7 marks 25, 8 marks 34.
    for (marks, length) in [(5, 11), (6, 17), (7, 25), (8, 34)] {
        let (ruler, proved) = golomb::shortest(marks).unwrap();
        assert!(proved, "{marks} marks: not proved");
        assert_eq!(ruler.len(), marks);
        assert_eq!((ruler[0], ruler[marks - 1]), (0, length), "{ruler:?}");
        let mut distances: Vec<i32> = (0..marks)
            .flat_map(|i| (i + 1..marks).map(move |j| (i, j)))
            .map(|(i, j)| ruler[j] - ruler[i])
            .collect();
        assert!(distances.iter().all(|&d| d > 0), "{ruler:?}");
        distances.sort_unstable();
        assert!(distances.windows(2).all(|w| w[0] < w[1]), "{ruler:?}");
    }
}

#[test]
fn the_mycielski_graphs_3_and_4_need_4_and_5_colours() {
    for (order, expected) in [(3, 4i32), (4, 5)] {
        let (vertices, edges) = chromatic::mycielski(order).unwrap();
        assert_eq!(
            chromatic::chromatic_number(vertices, &edges).unwrap(),
            Some(i64::from(expected)),
            "myciel{order}"
        );
        // A colouring with that many colours is proper; one colour fewer has none.
        let (model, colours, top) = chromatic::model(vertices, &edges).unwrap();
        let mut tighter = model;
        tighter.restrict(top, 0..=expected - 1).unwrap();
        let solution = tighter.solve().solution().expect("a colouring");
        assert!(
            edges
                .iter()
                .all(|&(a, b)| solution[colours[a]] != solution[colours[b]])
        );
        tighter.restrict(top, 0..=expected - 2).unwrap();
        assert_eq!(count_up_to(&tighter, 1), 0, "myciel{order}");
    }
}

#[test]
fn langford_counts_are_1_1_26_150_for_3_4_7_8() {
    // L(2, n), a sequence and its reverse counted once (OEIS A014552).
    for (n, expected) in [(3, 1), (4, 1), (5, 0), (7, 26), (8, 150)] {
        let (model, first) = langford::model(n).unwrap();
        let solutions = all_solutions(&model);
        for solution in &solutions {
            let row = langford::sequence(solution, &first);
            for k in 1..=n {
                let at: Vec<usize> = (0..2 * n).filter(|&p| row[p] == k).collect();
                assert_eq!(at.len(), 2, "{row:?}");
                assert_eq!(at[1] - at[0], k + 1, "{row:?}");
            }
        }
        assert_eq!(solutions.len() % 2, 0);
        assert_eq!(solutions.len() / 2, expected, "L(2, {n})");
    }
}

/// The all-interval series of length `n`, by a plain backtracking over permutations.
fn count_all_interval(n: usize) -> u64 {
    fn extend(row: &mut Vec<usize>, used: &mut [bool], gaps: &mut [bool], n: usize) -> u64 {
        if row.len() == n {
            return 1;
        }
        let mut count = 0;
        for v in 0..n {
            if used[v] {
                continue;
            }
            let gap = row.last().map(|&last: &usize| last.abs_diff(v));
            if gap.is_some_and(|g| gaps[g]) {
                continue;
            }
            used[v] = true;
            if let Some(g) = gap {
                gaps[g] = true;
            }
            row.push(v);
            count += extend(row, used, gaps, n);
            row.pop();
            if let Some(g) = gap {
                gaps[g] = false;
            }
            used[v] = false;
        }
        count
    }
    extend(&mut Vec::new(), &mut vec![false; n], &mut vec![false; n], n)
}

#[test]
fn all_interval_series_counts_agree_with_a_plain_enumeration() {
    for n in 6..=10 {
        let (model, x, distances) = all_interval::model(n).unwrap();
        let expected = count_all_interval(n);
        assert_eq!(count_up_to(&model, u64::MAX), expected, "n = {n}");
        let first = model.solve().solution().unwrap();
        let row: Vec<i32> = x.iter().map(|&v| first[v]).collect();
        let gaps: BTreeSet<i32> = row.windows(2).map(|w| (w[1] - w[0]).abs()).collect();
        assert_eq!(gaps.len(), n - 1, "{row:?}");
        assert!(distances.iter().all(|&d| (1..n as i32).contains(&first[d])));
    }
}

#[test]
fn knights_tours_are_closed_tours_of_the_board() {
    for (rows, columns) in [(6, 6), (5, 6), (8, 8), (3, 4)] {
        let (model, next) = knights_tour::model(rows, columns).unwrap();
        let mut solver = model.solver().with_variable_order(SmallestDomain);
        let outcome = solver.next_solution();
        if (rows * columns) % 2 == 1 || rows.min(columns) < 5 && (rows, columns) != (5, 6) {
            // No closed tour: an odd number of squares, or a board too narrow (3 × 4).
            assert!(outcome.solution().is_none(), "{rows} × {columns}");
            continue;
        }
        let solution = outcome.solution().expect("a closed tour");
        let board = knights_tour::board(&solution, &next, columns);
        let mut at = vec![(0, 0); rows * columns + 1];
        for (r, row) in board.iter().enumerate() {
            for (c, &step) in row.iter().enumerate() {
                at[step] = (r as i64, c as i64);
            }
        }
        // Steps 1..=n are each on one square, one knight's move apart, and the last returns.
        let steps: BTreeSet<usize> = board.iter().flatten().copied().collect();
        assert_eq!(steps, (1..=rows * columns).collect());
        for step in 1..=rows * columns {
            let (a, b) = (at[step], at[step % (rows * columns) + 1]);
            let (dr, dc) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
            assert!(
                (dr, dc) == (1, 2) || (dr, dc) == (2, 1),
                "step {step} of {rows} × {columns}"
            );
        }
    }
}

/// How many buildings of `line` are seen from its start.
fn seen(line: &[i32]) -> usize {
    let mut tallest = 0;
    line.iter()
        .filter(|&&h| {
            let visible = h > tallest;
            tallest = tallest.max(h);
            visible
        })
        .count()
}

#[test]
fn the_skyscrapers_puzzle_has_its_solution_and_no_other() {
    use skyscrapers::{BOTTOM, LEFT, RIGHT, TOP};
    let (model, grid) = skyscrapers::model(&TOP, &BOTTOM, &LEFT, &RIGHT).unwrap();
    // Input order branches on the grid, declared first; the other variables follow from it.
    // (Smallest domain first would branch on the booleans of the clues.)
    let mut solutions = Vec::new();
    for level in [
        PropagationLevel::None,
        PropagationLevel::Forward,
        PropagationLevel::Full,
    ] {
        solutions = model.solver().with_propagation(level).solutions().collect();
        assert_eq!(solutions.len(), 1, "at {level:?}");
    }
    let h: Vec<Vec<i32>> = grid
        .iter()
        .map(|row| row.iter().map(|&v| solutions[0][v]).collect())
        .collect();
    // The clues, read back from the grid.
    for i in 0..4 {
        let mut row = h[i].clone();
        assert_eq!(seen(&row), LEFT[i]);
        row.reverse();
        assert_eq!(seen(&row), RIGHT[i]);
        let mut column: Vec<i32> = h.iter().map(|r| r[i]).collect();
        assert_eq!(seen(&column), TOP[i]);
        column.reverse();
        assert_eq!(seen(&column), BOTTOM[i]);
    }
    // The walkthrough's first steps place rows 3 and 4 and the 4 of column 3 in row 1; the rest
    // follows from the clues (derived here by hand).
    assert_eq!(h, [[2, 1, 4, 3], [3, 4, 1, 2], [1, 2, 3, 4], [4, 3, 2, 1]]);
}

#[test]
fn magic_sequences_count_themselves() {
    // n = 4: 1 2 1 0 and 2 0 2 0; n = 5: 2 1 2 0 0; from 7 on, one: n − 4, 2, 1, 0, …, 1, 0, 0, 0.
    for n in [4, 5, 7, 10, 20] {
        let (model, s) = magic_sequence::model(n).unwrap();
        let solutions = all_solutions(&model);
        for solution in &solutions {
            let values: Vec<i32> = s.iter().map(|&v| solution[v]).collect();
            for (i, &count) in values.iter().enumerate() {
                assert_eq!(
                    values.iter().filter(|&&v| v == i as i32).count(),
                    count as usize
                );
            }
        }
        let expected = match n {
            4 => 2,
            _ => 1,
        };
        assert_eq!(solutions.len(), expected, "n = {n}");
    }
}

// ----- KenKen -----

/// The published answer of the example puzzle of Wikipedia's "KenKen" article, row by row.
const KENKEN_SOLUTION: [[i32; 6]; 6] = [
    [5, 6, 3, 4, 1, 2],
    [6, 1, 4, 5, 2, 3],
    [4, 5, 2, 3, 6, 1],
    [3, 4, 1, 2, 5, 6],
    [2, 3, 6, 1, 4, 5],
    [1, 2, 5, 6, 3, 4],
];

#[test]
fn the_kenken_keeps_every_rule_and_has_no_other_solution() {
    use kenken::Operation;

    let (model, grid) = kenken::model(&kenken::CAGES, &kenken::CLUES).unwrap();
    assert_eq!(count_up_to(&model, 2), 1, "one solution, and no second");
    let solution = model.solve().solution().unwrap();
    let values: Vec<Vec<i32>> = grid
        .iter()
        .map(|row| row.iter().map(|&c| solution[c]).collect())
        .collect();

    // The rules, restated: every row and column holds 1..=6 once.
    let digits: BTreeSet<i32> = (1..=6).collect();
    for i in 0..6 {
        let row: BTreeSet<i32> = values[i].iter().copied().collect();
        let column: BTreeSet<i32> = values.iter().map(|row| row[i]).collect();
        assert!(row == digits && column == digits, "line {i}");
    }
    // Every cage gives its target, and the cages cover the grid once.
    let mut covered = BTreeSet::new();
    for (letter, operation, target) in kenken::CLUES {
        let cells = kenken::cage_cells(&kenken::CAGES, letter);
        let cage: Vec<i64> = cells
            .iter()
            .map(|&(r, c)| i64::from(values[r][c]))
            .collect();
        let target = i64::from(target);
        let holds = match (operation, &cage[..]) {
            (Operation::Add, _) => cage.iter().sum::<i64>() == target,
            (Operation::Multiply, _) => cage.iter().product::<i64>() == target,
            (Operation::Subtract, &[a, b]) => (a - b).abs() == target,
            (Operation::Divide, &[a, b]) => a.max(b) == target * a.min(b),
            _ => false,
        };
        assert!(holds, "cage {letter}: {operation:?} {target} over {cage:?}");
        for cell in cells {
            assert!(covered.insert(cell), "cell {cell:?} in two cages");
        }
    }
    assert_eq!(covered.len(), 36, "the cages cover the grid");
    assert_eq!(
        values,
        KENKEN_SOLUTION.map(Vec::from),
        "the published answer"
    );
}
