//! `--count-as aima|cspkit`: what decisions, nassigns and arc revisions count, the arc
//! revisions in `--stats`, `--stats=json|csv` and `cspkit compare`, and the `fc` and `ac3`
//! traces printing a forced value once.
//!
//! The figures under AIMA's counting (7 decisions and 45 arc revisions on Australia, 20 and
//! 707 on 8-Queens, first solution, d-way branching) are those of the reference written from
//! the book in `tests/api/aima.rs`; here they are checked against the trace's own lines too.

use crate::support::{cspkit, stat, text};

/// The number after `"key": ` in a JSON row.
fn json_number(json: &str, key: &str) -> u64 {
    let start = json
        .find(&format!("\"{key}\": "))
        .unwrap_or_else(|| panic!("no {key} in {json}"))
        + key.len()
        + 4;
    let digits: String = json[start..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().unwrap()
}

/// The lines of a trace that give a variable a value (`NAME = VALUE`, whatever follows).
fn assignments(trace: &str) -> Vec<&str> {
    trace
        .lines()
        .map(str::trim_start)
        .filter(|l| {
            l.split_once(" = ").is_some_and(|(name, rest)| {
                !name.contains(' ')
                    && rest
                        .split(' ')
                        .next()
                        .is_some_and(|v| v.parse::<i32>().is_ok())
            })
        })
        .collect()
}

#[test]
fn aimas_counting_is_the_default_of_ac3_on_the_textbook_tree() {
    for (puzzle, target, aima, cspkit_counts) in [
        ("colour", "australia", [7, 7, 45], [3, 3, 40]),
        ("queens", "8", [20, 20, 707], [15, 15, 697]),
    ] {
        let run = |extra: &[&str]| -> [u64; 3] {
            let mut args = vec![
                puzzle,
                target,
                "--propagation",
                "ac3",
                "--branching",
                "dway",
                "--stats=json",
            ];
            args.extend(extra);
            let output = cspkit(&args);
            assert!(
                output.status.success(),
                "{args:?}: {}",
                text(&output.stderr)
            );
            let row = text(&output.stderr);
            ["decisions", "nassigns", "arc_revisions"].map(|key| json_number(&row, key))
        };
        assert_eq!(run(&[]), aima, "{puzzle} {target}");
        assert_eq!(run(&["--count-as", "aima"]), aima, "{puzzle} {target}");
        assert_eq!(
            run(&["--count-as", "cspkit"]),
            cspkit_counts,
            "{puzzle} {target}"
        );
    }
}

#[test]
fn the_traces_print_each_assignment_and_revision_once() {
    for propagation in ["fc", "ac3"] {
        let output = cspkit(&[
            "colour",
            "australia",
            "--propagation",
            propagation,
            "--branching",
            "dway",
            "--trace",
            "--stats",
        ]);
        assert!(output.status.success(), "{}", text(&output.stderr));
        let trace = text(&output.stdout);
        let stderr = text(&output.stderr);
        // No backtracking on the way to the first colouring: each region is given its colour
        // on one line, the decision that assigns it, which says when it was the only one left.
        let lines = assignments(&trace);
        assert_eq!(lines.len() as u64, stat(&stderr, "decisions"), "{trace}");
        for region in ["WA", "NT", "SA", "Q", "NSW", "V", "T"] {
            let given = lines
                .iter()
                .filter(|l| l.starts_with(&format!("{region} = ")))
                .count();
            assert_eq!(given, 1, "{propagation}: {region} in\n{trace}");
        }
        assert!(
            trace.contains("\n    SA = 3 (only value left"),
            "{propagation}:\n{trace}"
        );
        if propagation == "ac3" {
            let revisions = trace.lines().filter(|l| l.contains("revise(")).count();
            assert_eq!(revisions as u64, stat(&stderr, "arc revisions"));
            assert_eq!(revisions, 45);
        }
    }
    // cspkit's counting: the value is printed where AC-3 fixed it, and no decision repeats it.
    let output = cspkit(&[
        "colour",
        "australia",
        "--propagation",
        "ac3",
        "--branching",
        "dway",
        "--count-as",
        "cspkit",
        "--trace",
    ]);
    let trace = text(&output.stdout);
    assert_eq!(
        trace.lines().filter(|l| l.contains("SA = ")).count(),
        1,
        "{trace}"
    );
    assert!(trace.contains("    SA = 3 (only value left)\n"), "{trace}");
}

#[test]
fn arc_revisions_have_their_own_column() {
    let compare = cspkit(&[
        "compare",
        "colour",
        "australia",
        "--var-order",
        "input",
        "--value-order",
        "asc",
        "--propagation",
        "full,ac3",
        "--branching",
        "dway",
        "--format",
        "csv",
    ]);
    assert!(compare.status.success(), "{}", text(&compare.stderr));
    let table = text(&compare.stdout);
    let mut lines = table.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|&h| h == name).unwrap();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 2);
    let (full, ac3) = (&rows[0], &rows[1]);
    assert_eq!(full[column("propagation")], "full");
    assert_eq!(full[column("arc_revisions")], "0");
    assert_eq!(ac3[column("propagation")], "ac3");
    assert_eq!(ac3[column("arc_revisions")], "45");
    assert_eq!(ac3[column("values_removed")], "9");
    assert_eq!(ac3[column("decisions")], "7");
    // The single run's row says the same.
    let single = cspkit(&[
        "colour",
        "australia",
        "--propagation",
        "ac3",
        "--branching",
        "dway",
        "--stats=csv",
    ]);
    let csv = text(&single.stderr);
    assert_eq!(csv.lines().next().unwrap(), header.join(","));
    let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    for name in ["decisions", "nassigns", "arc_revisions", "values_removed"] {
        assert_eq!(row[column(name)], ac3[column(name)], "{name}");
    }
    // The text line of a search with AC-3 names them even when there are none.
    let none = cspkit(&["queens", "1", "--propagation", "ac3", "--stats"]);
    let stderr = text(&none.stderr);
    assert!(none.status.success(), "{stderr}");
    assert!(
        stderr.contains(", arc revisions 0, values removed 0"),
        "{stderr}"
    );
}

#[test]
fn forward_checking_refuses_cspkits_counting() {
    let output = cspkit(&["queens", "6", "--propagation", "fc", "--count-as", "cspkit"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("cannot be combined with --count-as cspkit"),
        "{}",
        text(&output.stderr)
    );
    assert!(output.stdout.is_empty());
}
