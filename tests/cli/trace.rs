//! `--trace`: the search as it runs, checked against the statistics of the same search and
//! against an independent reading of the trace's own lines.

use std::path::Path;
use std::process::{Command, Output};

use crate::common;

use crate::support::{cspkit, stat, text};
use common::BAEKJOON_2239;

/// The trace's decisions: branch lines `NAME = VALUE` (a failure or a solution may follow
/// on the line), not the values fixed by propagation, which end with `(only value left, …)`.
fn decisions(trace: &str) -> Vec<&str> {
    trace
        .lines()
        .map(str::trim_start)
        .filter(|l| !l.contains("only value left") && !l.starts_with('·'))
        .filter(|l| {
            let head = l.split(" ✗").next().unwrap_or(l);
            let head = head.split(" ✓").next().unwrap_or(head);
            head.rsplit_once(" = ")
                .is_some_and(|(_, v)| v.parse::<i32>().is_ok())
        })
        .collect()
}

fn puzzle_file() -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("cspkit-trace-{}.txt", std::process::id()));
    std::fs::write(&path, BAEKJOON_2239).unwrap();
    path
}

#[test]
fn the_trace_prints_exactly_the_decisions_the_statistics_count() {
    let file = puzzle_file();
    let file = file.to_str().unwrap();
    let runs: Vec<Vec<&str>> = vec![
        vec!["queens", "6", "--trace", "--trace-limit", "100000"],
        vec![
            "queens",
            "6",
            "--count",
            "--trace",
            "--propagation",
            "none",
            "--trace-limit",
            "100000",
        ],
        vec![
            "queens",
            "8",
            "--trace",
            "--var-order",
            "mrv",
            "--propagation",
            "full",
        ],
        vec![
            "queens",
            "7",
            "--trace",
            "--branching",
            "split",
            "--trace-limit",
            "100000",
        ],
        vec![
            "sudoku",
            file,
            "--trace",
            "--propagation",
            "forward",
            "--trace-limit",
            "100000",
        ],
    ];
    for args in runs {
        let mut args = args.clone();
        args.push("--stats");
        let output = cspkit(&args);
        assert!(
            output.status.success(),
            "{args:?}: {}",
            text(&output.stderr)
        );
        let trace = text(&output.stdout);
        let nodes = stat(&text(&output.stderr), "decisions");
        let printed = decisions(&trace);
        let printed = if args.contains(&"split") {
            trace.lines().filter(|l| l.contains(" ≤ ")).count()
        } else {
            printed.len()
        };
        assert_eq!(printed as u64, nodes, "{args:?}\n{trace}");
        let failures = trace.matches('✗').count() as u64;
        assert_eq!(
            failures,
            stat(&text(&output.stderr), "failures"),
            "{args:?}"
        );
    }
}

#[test]
fn plain_backtracking_explains_each_failure_in_the_puzzle_s_own_words() {
    let output = cspkit(&["queens", "4", "--trace", "--propagation", "none"]);
    let trace = text(&output.stdout);
    let lines: Vec<&str> = trace.lines().take(5).collect();
    assert_eq!(
        lines,
        [
            "row 1 = 1",
            "  row 2 = 1 ✗ columns already has 1 (row 1)",
            "  row 2 ≠ 1",
            "  row 2 = 2 ✗ diagonals, with row 1 = 1",
            "  row 2 ≠ 2",
        ]
    );
    let file = puzzle_file();
    let output = cspkit(&[
        "sudoku",
        file.to_str().unwrap(),
        "--trace",
        "--propagation",
        "none",
    ]);
    let trace = text(&output.stdout);
    // The first empty cell of the Baekjoon 2239 example is r1c2; r1c1 holds 1, r2c3 holds 2.
    assert!(trace.starts_with(
        "r1c2 = 1 ✗ row 1 already has 1 (r1c1)\nr1c2 ≠ 1\nr1c2 = 2 ✗ box 1 already has 2 (r2c3)\n"
    ), "{trace}");
}

#[test]
fn forward_checking_shows_what_propagation_fixed_and_the_domains_when_asked() {
    let output = cspkit(&["queens", "5", "--trace-domains"]);
    let trace = text(&output.stdout);
    let lines: Vec<&str> = trace.lines().collect();
    assert_eq!(
        lines[..8],
        [
            "· row 1 ∈ {1..5}, row 2 ∈ {1..5}, row 3 ∈ {1..5}, row 4 ∈ {1..5}, row 5 ∈ {1..5}",
            "row 1 = 1",
            "  · row 2 ∈ {3..5}, row 3 ∈ {2, 4..5}, row 4 ∈ {2..3, 5}, row 5 ∈ {2..4}",
            "  row 2 = 3",
            "    row 3 = 5 (only value left, diagonals)",
            "    row 4 = 2 (only value left, diagonals)",
            "    row 5 = 4 (only value left, columns)",
            "    ✓ solution",
        ]
    );
    // Then the answer, columns from 1.
    assert!(trace.ends_with("1 3 5 2 4\n"), "{trace}");
}

#[test]
fn a_cut_trace_says_what_it_left_out_and_the_counts_add_up() {
    let output = cspkit(&[
        "queens",
        "8",
        "--count",
        "--trace",
        "--trace-limit",
        "10",
        "--stats",
    ]);
    assert!(output.status.success());
    let trace = text(&output.stdout);
    let lines: Vec<&str> = trace.lines().collect();
    // Ten lines of trace, the count, then the summary.
    assert_eq!(lines.len(), 12, "{trace}");
    let summary = lines[11];
    assert!(
        summary.starts_with("… trace cut after 10 lines (") && summary.contains(" bytes): "),
        "{summary}"
    );
    let number = |word: &str| -> u64 {
        let before = summary.split(&format!(" {word}")).next().unwrap();
        before
            .rsplit(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let stderr = text(&output.stderr);
    let shown = decisions(&lines[..10].join("\n")).len() as u64;
    assert_eq!(shown + number("decisions"), stat(&stderr, "decisions"));
    assert_eq!(number("solutions"), 92);
}

#[test]
fn a_trace_of_several_searches_at_once_is_refused() {
    for args in [
        &["queens", "8", "--count", "--jobs", "2", "--trace"][..],
        &["sudoku", "--batch", "--trace", "-"][..],
    ] {
        let output = cspkit(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(text(&output.stderr).contains("--trace and --step follow one search"));
    }
}

fn cspkit_with_input(args: &[&str], input: &str) -> Output {
    use std::io::Write as _;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_cspkit"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the cspkit binary runs");
    let _ = child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes());
    child.wait_with_output().expect("cspkit finishes")
}

/// The board of 4-Queens before the search: every square open.
const OPEN_4: &str = "oooo\noooo\noooo\noooo\n";

/// The prompt of `--step` before each wait, a line of its own when standard output is not a
/// terminal.
const PROMPT: &str = "[Enter] next  [c] continue  [q] quit\n";

#[test]
fn stepping_shows_one_node_per_enter_with_its_board_and_q_quits() {
    let output = cspkit_with_input(&["queens", "4", "--step"], "\n\nq\n");
    assert_eq!(output.status.code(), Some(3));
    // The root, then one node per Enter, each with the board where the search stands: after
    // row 1 = 1, its queen in column 1 and the squares still open; after row 2 = 3, the
    // queens propagation placed and the clash on a diagonal: the rows of the failing
    // constraint that have a queen marked (between `*`s, standard output being a pipe), and
    // listed, the branch's first. A prompt before each wait. Then q.
    let expected = [
        OPEN_4,
        PROMPT,
        "row 1 = 1\n",
        "  Q...\n  ..oo\n  .o.o\n  .oo.\n",
        PROMPT,
        "  row 2 = 3\n",
        "    row 3 = 4 (only value left, columns)\n",
        "    row 4 = 2 (only value left, columns)\n",
        "    ✗ diagonals\n",
        "    *Q...*\n    *..Q.*\n    *...Q*\n    *.Q..*\n",
        "    ✗ clash: *row 2 = 3*, *row 1 = 1*, *row 3 = 4*, *row 4 = 2*\n",
        PROMPT,
    ]
    .concat();
    assert_eq!(text(&output.stdout), expected);
    assert!(text(&output.stderr).contains("stopped by q"));
}

#[test]
fn stepping_a_sudoku_shows_values_and_the_candidates_of_cells_with_few() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/sudoku/multi.txt");
    let output = cspkit_with_input(&["sudoku", file.to_str().unwrap(), "--step"], "q\n");
    assert_eq!(output.status.code(), Some(3));
    let stdout = text(&output.stdout);
    // The root's propagation fixes cells, then the grid after it: values, candidates up to
    // three, `.` for more, boxes marked.
    let board = [
        "1   4   367 | 36  2   8   | 5   367 9",
        "5   367 2   | 1   36  9   | 4   367 8",
        "9   368 368 | 7   5   4   | 26  136 12",
        "------------+-------------+------------",
        "3   9   1   | 5   4   2   | 7   8   6",
    ]
    .join("\n");
    assert!(
        stdout.starts_with("r8c1 = 6 (only value left, row 8)\n"),
        "{stdout}"
    );
    assert!(stdout.contains(&format!("\n{board}\n")), "{stdout}");
}

#[test]
fn stepping_with_trace_domains_prints_the_domains_beside_the_board() {
    let output = cspkit_with_input(&["queens", "4", "--step", "--trace-domains"], "\nq\n");
    assert_eq!(output.status.code(), Some(3), "{}", text(&output.stderr));
    let expected = [
        "· row 1 ∈ {1..4}, row 2 ∈ {1..4}, row 3 ∈ {1..4}, row 4 ∈ {1..4}\n",
        OPEN_4,
        PROMPT,
        "row 1 = 1\n",
        "  · row 2 ∈ {3..4}, row 3 ∈ {2, 4}, row 4 ∈ {2..3}\n",
        "  Q...\n  ..oo\n  .o.o\n  .oo.\n",
        PROMPT,
    ]
    .concat();
    assert_eq!(text(&output.stdout), expected);
}

/// The `n{id} [` lines of a DOT tree: one per node.
fn dot_nodes(dot: &str) -> usize {
    dot.lines()
        .filter(|l| {
            let l = l.trim_start();
            l.strip_prefix('n')
                .and_then(|rest| rest.split_once(" ["))
                .is_some_and(|(id, _)| id.parse::<u64>().is_ok())
        })
        .count()
}

#[test]
fn stepping_writes_the_tree_of_the_nodes_stepped_through() {
    let dir = std::env::temp_dir().join(format!("cspkit-step-tree-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tree_nodes = {
        let output = cspkit(&["queens", "5", "--count", "--stats"]);
        stat(&text(&output.stderr), "tree nodes")
    };
    for extension in ["dot", "html"] {
        let path = dir.join(format!("tree.{extension}"));
        let path = path.to_str().unwrap();
        let args = ["queens", "5", "--count", "--step", "--tree", path];
        // q after the root and three nodes: the tree holds those four.
        let quit = cspkit_with_input(&args, "\n\n\nq\n");
        assert_eq!(quit.status.code(), Some(3), "{}", text(&quit.stderr));
        let early = std::fs::read_to_string(path).expect("the tree is written when q quits");
        // To the end, by c or by the end of the input: the whole tree.
        let whole = cspkit_with_input(&args, "\nc\n");
        assert!(whole.status.success(), "{}", text(&whole.stderr));
        let full = std::fs::read_to_string(path).unwrap();
        let _ = cspkit_with_input(&args, "");
        assert_eq!(std::fs::read_to_string(path).unwrap(), full);
        assert!(early.len() < full.len(), "{extension}");
        if extension == "dot" {
            assert_eq!(dot_nodes(&early), 4, "{early}");
            assert_eq!(dot_nodes(&full) as u64, tree_nodes, "{full}");
            // The same tree as a trace's (which, as stepping does, watches propagation, so
            // a failure names the variable a propagator emptied).
            let _ = cspkit(&["queens", "5", "--count", "--trace", "--tree", path]);
            assert_eq!(std::fs::read_to_string(path).unwrap(), full);
        } else {
            assert!(early.contains("(4 tree nodes)"), "{early}");
            assert!(full.contains(&format!("({tree_nodes} tree nodes)")));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stepping_to_the_end_prints_what_the_trace_prints() {
    for extra in [
        &[][..],
        &["--all"][..],
        &["--count", "--propagation", "none"][..],
        &["--count", "--trace-limit", "3"][..],
    ] {
        let mut step = vec!["queens", "5", "--step"];
        step.extend_from_slice(extra);
        let mut trace = vec!["queens", "5", "--trace"];
        trace.extend_from_slice(extra);
        // `c` runs to the end; so does the end of the input. Both come after the root's
        // board, and the rest has none.
        for input in ["c\n", ""] {
            let stepped = cspkit_with_input(&step, input);
            let traced = cspkit(&trace);
            assert!(stepped.status.success(), "{extra:?}");
            let stepped = text(&stepped.stdout);
            let rest = stepped
                .strip_prefix(&("ooooo\n".repeat(5) + PROMPT))
                .unwrap_or_else(|| panic!("no board of the root: {stepped}"));
            // The same events through the same trace: the same lines, and the same answers.
            assert_eq!(rest, text(&traced.stdout), "{extra:?} {input:?}");
        }
    }
}

#[test]
#[allow(
    deprecated,
    reason = "checks that the deprecated `with_textbook_forward_checking` still works"
)]
fn textbook_options_reach_the_library_as_documented() {
    use cspkit::models::queens::Queens;
    use cspkit::{Branching, PropagationLevel};
    let queens = Queens::new(7).unwrap();
    let library = |level: PropagationLevel, textbook: bool| -> u64 {
        let mut solver = queens
            .model()
            .solver()
            .with_branching(Branching::DWay)
            .with_propagation(level)
            .with_textbook_forward_checking(textbook);
        assert_eq!(solver.count().solutions, 40);
        solver.stats().decisions
    };
    for (flag, level, textbook) in [
        ("none", PropagationLevel::None, false),
        ("fc", PropagationLevel::None, true),
        ("forward", PropagationLevel::Forward, false),
        ("full", PropagationLevel::Full, false),
        ("mac", PropagationLevel::Full, false),
    ] {
        let output = cspkit(&[
            "queens",
            "7",
            "--count",
            "--branching",
            "dway",
            "--propagation",
            flag,
            "--stats",
        ]);
        assert!(output.status.success(), "{flag}: {}", text(&output.stderr));
        assert_eq!(text(&output.stdout), "40\n");
        assert_eq!(
            stat(&text(&output.stderr), "decisions"),
            library(level, textbook),
            "--propagation {flag}"
        );
    }
}

#[test]
fn the_tree_file_is_checked_before_the_search_and_its_errors_are_named() {
    let output = cspkit(&["queens", "6", "--tree", "tree.png"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("must end in .dot, .svg or .html"));
    assert!(output.stdout.is_empty(), "nothing searched");

    let output = cspkit(&["queens", "6", "--tree", "/nonexistent-dir/tree.svg"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("cannot write the tree to /nonexistent-dir/tree.svg"));
    assert!(output.stdout.is_empty(), "nothing searched");

    let output = cspkit(&["queens", "8", "--count", "--jobs", "2", "--tree", "t.svg"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("--tree draws one search"));

    // A tree cut by --tree-limit says so, and still draws what it holds.
    let dir = std::env::temp_dir().join(format!("cspkit-tree-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("cut.dot");
    let output = cspkit(&[
        "queens",
        "8",
        "--count",
        "--tree",
        path.to_str().unwrap(),
        "--tree-limit",
        "50",
    ]);
    assert!(output.status.success());
    assert!(text(&output.stderr).contains("the tree holds the first 50 tree nodes"));
    let dot = std::fs::read_to_string(&path).unwrap();
    assert_eq!(dot.matches(" -> ").count(), 49);
    std::fs::remove_dir_all(&dir).ok();
}

/// One vocabulary: `--stats`, the trace, the tree file and the page's title count the same
/// things by the same names. The trace's branch lines are the decisions (`x = v`) and the
/// refutations (`x ≠ v`); with the root they are the tree's nodes, which the page's title
/// gives and the DOT file draws.
#[test]
fn stats_trace_tree_and_page_count_the_same_tree_nodes() {
    let dir = std::env::temp_dir().join(format!("cspkit-vocabulary-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (n, mode, branching) in [
        ("4", "--count", "assign"),
        ("5", "--count", "dway"),
        ("6", "--all", "assign"),
    ] {
        let page = dir.join("t.html");
        let dot = dir.join("t.dot");
        let traced = cspkit(&[
            "queens",
            n,
            mode,
            "--branching",
            branching,
            "--trace",
            "--stats",
            "--tree",
            page.to_str().unwrap(),
        ]);
        assert!(traced.status.success());
        let stderr = text(&traced.stderr);
        let trace = text(&traced.stdout);
        let refutations = trace
            .lines()
            .filter(|l| l.trim_start().starts_with("row ") && l.contains(" ≠ "))
            .count() as u64;
        let decisions = decisions(&trace).len() as u64;
        assert_eq!(decisions, stat(&stderr, "decisions"), "{n} {branching}");
        let tree_nodes = stat(&stderr, "tree nodes");
        assert_eq!(1 + decisions + refutations, tree_nodes, "{n} {branching}");
        let html = std::fs::read_to_string(&page).unwrap();
        assert!(
            html.contains(&format!("the search tree ({tree_nodes} tree nodes)")),
            "{n} {branching}: the page's title"
        );
        let drawn = cspkit(&[
            "queens",
            n,
            mode,
            "--branching",
            branching,
            "--tree",
            dot.to_str().unwrap(),
        ]);
        assert!(drawn.status.success());
        let dot = std::fs::read_to_string(&dot).unwrap();
        assert_eq!(
            dot.matches(" -> ").count() as u64,
            tree_nodes - 1,
            "{n} {branching}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The trace is limited in bytes as well as in lines: the domains of a large model make long
/// lines, and a thousand of them would be hundreds of megabytes.
#[test]
fn the_domains_trace_of_a_large_model_stays_within_its_byte_limit() {
    let output = cspkit(&[
        "queens",
        "300",
        "--var-order",
        "mrv",
        "--value-order",
        "middle",
        "--trace-domains",
    ]);
    assert!(output.status.success());
    let trace = text(&output.stdout);
    assert!(
        trace.len() <= (4 << 20) + 64 * 1024,
        "{} bytes",
        trace.len()
    );
    let last = trace.lines().last().unwrap();
    assert!(last.starts_with("… trace cut after "), "{last}");
}
