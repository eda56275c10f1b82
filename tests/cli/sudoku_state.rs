//! `cspkit sudoku --state --hint | --explain`: a player's state read from a file or standard
//! input, run as a user would. The solution each line is checked against comes from
//! `cspkit sudoku` solving the givens.

use crate::support::run;

/// The first puzzles of the rated sample of tests/data, on one line each.
fn puzzles(count: usize) -> Vec<String> {
    include_str!("../data/sudoku_se_rated_sample.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().nth(1).map(str::to_owned))
        .take(count)
        .collect()
}

/// The solution of a puzzle, as `cspkit sudoku` prints it, as 81 digits.
fn solution(puzzle: &str) -> Vec<u8> {
    let (code, out, _) = run(&["sudoku", "--format", "line"], puzzle);
    assert_eq!(code, 0);
    out.trim().bytes().map(|b| b - b'0').collect()
}

/// `(cell, value)` pairs, cells numbered from 0 in reading order.
type Cells = Vec<(usize, u8)>;

/// The effects of a step line (`r1c1 = 5` or `r1c2 ≠ 4 7, r1c3 ≠ 4: …`): placed and removed
/// `(cell, value)` pairs.
fn effects(line: &str) -> (Cells, Cells) {
    let head = line.split(": ").next().unwrap();
    let (mut placed, mut removed) = (Vec::new(), Vec::new());
    for part in head.split(", ") {
        let cell = |name: &str| {
            let (r, c) = name.trim_start_matches('r').split_once('c').unwrap();
            (r.parse::<usize>().unwrap() - 1) * 9 + c.parse::<usize>().unwrap() - 1
        };
        if let Some((name, v)) = part.split_once(" = ") {
            placed.push((cell(name), v.parse().unwrap()));
        } else if let Some((name, vs)) = part.split_once(" ≠ ") {
            for v in vs.split(' ') {
                removed.push((cell(name), v.parse().unwrap()));
            }
        } else {
            panic!("no effect in {line:?}");
        }
    }
    (placed, removed)
}

#[test]
fn explain_from_a_state_places_the_solutions_values_and_hint_is_its_first_line() {
    let mut techniques = String::new();
    for puzzle in puzzles(6) {
        let answer = solution(&puzzle);
        // The state: the givens, two right entries, and the first open cell's marks narrowed
        // to the solution's value and one other candidate.
        let mut tokens: Vec<String> = puzzle
            .chars()
            .map(|ch| {
                if ch == '0' {
                    ".".to_owned()
                } else {
                    ch.to_string()
                }
            })
            .collect();
        let open: Vec<usize> = (0..81).filter(|&c| tokens[c] == ".").collect();
        for &c in &open[1..3] {
            tokens[c] = format!("+{}", answer[c]);
        }
        let other = if answer[open[0]] == 9 { 8 } else { 9 };
        let mut pair = [answer[open[0]], other];
        pair.sort_unstable();
        tokens[open[0]] = format!("[{}{}]", pair[0], pair[1]);
        let state: String = tokens.chunks(9).map(|row| row.join(" ") + "\n").collect();
        let (code, out, err) = run(&["sudoku", "--state", "--explain"], &state);
        assert_eq!(code, 0, "{err}");
        let mut filled: Vec<bool> = tokens.iter().map(|t| !t.starts_with(['.', '['])).collect();
        for line in out.lines() {
            let (placed, removed) = effects(line);
            for (c, v) in placed {
                assert_eq!(answer[c], v, "{line}");
                filled[c] = true;
            }
            for (c, v) in removed {
                assert_ne!(answer[c], v, "{line}");
            }
        }
        assert!(
            filled.iter().all(|&f| f),
            "the path leaves cells open:\n{out}"
        );
        techniques.push_str(&out);
        let (code, hint, _) = run(&["sudoku", "--state", "--hint"], &state);
        assert_eq!(code, 0);
        assert_eq!(hint.lines().next(), out.lines().next());
        assert_eq!(hint.lines().count(), 1);
    }
    // Techniques beyond one unit are hinted in these puzzles (SE 5.0 and up).
    assert!(techniques.contains("pointing") || techniques.contains("claiming"));
    assert!(
        techniques.contains("chain") || techniques.contains("wing") || techniques.contains("net")
    );
}

#[test]
fn a_sukaku_file_gives_the_same_hint_as_the_state_it_writes() {
    let puzzle = &puzzles(1)[0];
    // Sukaku of the givens alone: a given is its digit in its place, an open cell every digit.
    let sukaku: String = puzzle
        .bytes()
        .map(|b| match b {
            b'1'..=b'9' => (1..=9u8)
                .map(|v| if v == b - b'0' { char::from(b) } else { '.' })
                .collect(),
            _ => "123456789".to_owned(),
        })
        .collect();
    let (code, from_sukaku, err) = run(&["sudoku", "--state", "--hint"], &sukaku);
    assert_eq!(code, 0, "{err}");
    let (_, from_givens, _) = run(&["sudoku", "--state", "--hint"], puzzle);
    assert_eq!(from_sukaku, from_givens);
    assert!(!from_sukaku.trim().is_empty());
}

#[test]
fn wrong_entries_and_lost_marks_are_named_with_exit_code_1() {
    let puzzle = &puzzles(1)[0];
    let answer = solution(puzzle);
    let open: Vec<usize> = (0..81).filter(|&c| puzzle.as_bytes()[c] == b'0').collect();
    let c = open[0];
    // A wrong entry: a value its peers' givens allow that the solution has not.
    let allowed = |v: u8| {
        (0..81).all(|o| {
            let same =
                o / 9 == c / 9 || o % 9 == c % 9 || (o / 27 == c / 27 && o % 9 / 3 == c % 9 / 3);
            !same || puzzle.as_bytes()[o] != b'0' + v
        })
    };
    let wrong = (1..=9).find(|&v| v != answer[c] && allowed(v)).unwrap();
    let mut cells: Vec<String> = puzzle.chars().map(|ch| ch.to_string()).collect();
    cells[c] = format!("+{wrong}");
    let (code, out, err) = run(&["sudoku", "--state", "--hint"], &cells.concat());
    assert_eq!(code, 1, "{err}");
    let name = format!(
        "r{}c{} = {wrong} contradicts the givens: ",
        c / 9 + 1,
        c % 9 + 1
    );
    assert!(out.starts_with(&name), "{out}");
    assert!(err.contains("mistakes"), "{err}");
    // Marks without the solution's value.
    let marks: String = (1..=9)
        .filter(|&v| v != answer[c])
        .map(|v| char::from(b'0' + v))
        .collect();
    cells[c] = format!("[{marks}]");
    let (code, out, _) = run(&["sudoku", "--state", "--explain"], &cells.concat());
    assert_eq!(code, 1);
    assert_eq!(
        out,
        format!(
            "r{}c{}: the pencil marks {} lost the cell's value in the solution\n",
            c / 9 + 1,
            c % 9 + 1,
            marks
                .chars()
                .map(String::from)
                .collect::<Vec<_>>()
                .join(" ")
        )
    );
}

#[test]
fn bad_states_and_options_are_refused_with_the_place() {
    let (code, _, err) = run(&["sudoku", "--state", "--hint"], "1 2 3 4\n3 4 [1x] .\n");
    assert_eq!(code, 2);
    assert!(
        err.contains("standard input: line 2, column 7: 'x'"),
        "{err}"
    );
    let (code, _, err) = run(&["sudoku", "--state", "--grade"], "1...");
    assert_eq!(code, 2);
    assert!(
        err.contains("--state goes with --hint or --explain"),
        "{err}"
    );
}

#[test]
fn a_complete_grid_and_several_solutions_are_said() {
    let (code, out, _) = run(&["sudoku", "--state", "--hint"], "1234 3412 2143 432+1");
    assert_eq!((code, out.as_str()), (0, "the grid is complete\n"));
    let (code, _, err) = run(&["sudoku", "--state", "--hint"], "1234 34.. 2143 43..");
    assert_eq!(code, 0);
    assert!(err.contains("several solutions"), "{err}");
}
