//! `cspkit sudoku | fzn | mzn --why-removed VAR=VALUE [--at NODE]`, run as a user would.

use crate::support::run;

/// A 9x9 grid with one given, 5 in r1c1.
fn one_given() -> String {
    format!("5{}\n", ".".repeat(80))
}

#[test]
fn a_value_removed_by_a_given_names_the_given_and_the_row() {
    let (code, out, err) = run(&["sudoku", "--why-removed", "r1c4=5"], &one_given());
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "at the root:\nr1c4 ≠ 5, because:\n  given r1c1 = 5\n  1. r1c4 ≠ 5: by row 1, since r1c1 = 5\n"
    );
    let (code, out, _) = run(&["sudoku", "--why-removed", "r2c2=5"], &one_given());
    assert_eq!(code, 0);
    assert!(out.ends_with("by box 1, since r1c1 = 5\n"), "{out}");
    let (code, out, _) = run(&["sudoku", "--why-removed", "r5c5=5"], &one_given());
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "at the root:\n5 is still possible in r5c5 at this node\n"
    );
}

#[test]
fn a_node_by_its_number_is_the_node_by_its_decisions() {
    // An empty 4x4 grid: the search's first decision (node 1) is r1c1 = 1.
    let empty = "................\n";
    let by_number = run(&["sudoku", "--why-removed", "r1c2=1", "--at", "1"], empty);
    let by_path = run(
        &["sudoku", "--why-removed", "r1c2=1", "--at", "r1c1=1"],
        empty,
    );
    assert_eq!(by_number.0, 0, "{}", by_number.2);
    assert_eq!(by_number, by_path);
    assert!(
        by_path.1.contains("  decision 1: r1c1 = 1\n"),
        "{}",
        by_path.1
    );
    // The root is node 0.
    let root = run(&["sudoku", "--why-removed", "r1c2=1", "--at", "0"], empty);
    assert_eq!(
        root.1,
        "at the root:\n1 is still possible in r1c2 at this node\n"
    );
}

#[test]
fn malformed_questions_and_nodes_are_named() {
    let grid = one_given();
    let cases: [(&[&str], &str); 9] = [
        (&["--why-removed", "r1c4"], "cannot read \"r1c4\""),
        (&["--why-removed", "r1c4=five"], "cannot read \"r1c4=five\""),
        (&["--why-removed", "r10c1=5"], "no variable named \"r10c1\""),
        (
            &["--why-removed", "r1c4=10"],
            "10 is not in the initial domain of r1c4",
        ),
        (
            &["--why-removed", "r1c4!=5"],
            "ask about one value, as VAR=VALUE",
        ),
        (
            &["--why-removed", "r1c4=5", "--at", "r1c1=4"],
            "the path fails at decision 1 (r1c1 = 4): r1c1 is {5} here",
        ),
        (
            &["--why-removed", "r1c4=5", "--at", "r1c2=1,r1c3"],
            "--at: cannot read \"r1c3\"",
        ),
        (
            &["--why-removed", "r1c4=5", "--at", "r1c2<1"],
            "the path fails at decision 1 (r1c2 ≤ 0)",
        ),
        (
            &["--why-removed", "r1c4=5", "--trace"],
            "--why-removed cannot be combined with --trace",
        ),
    ];
    for (args, message) in cases {
        let mut all = vec!["sudoku"];
        all.extend_from_slice(args);
        let (code, out, err) = run(&all, &grid);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // A node the search does not make (an empty 4x4 grid has 288 solutions, found in fewer).
    let (code, _, err) = run(
        &["sudoku", "--why-removed", "r1c4=1", "--at", "999999"],
        "................\n",
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("--at: no node 999999: the search makes "),
        "{err}"
    );
    // A node beyond a limit is not said to be beyond the search's end.
    let empty_9x9 = ".".repeat(81) + "\n";
    let (code, _, err) = run(
        &[
            "sudoku",
            "--why-removed",
            "r1c4=1",
            "--at",
            "999999",
            "--decision-limit",
            "40",
        ],
        &empty_9x9,
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--at: node 999999 not reached: the search stopped after ")
            && err.contains("decision limit reached"),
        "{err}"
    );
    // --at needs --why-removed.
    let (code, _, err) = run(&["sudoku", "--at", "1"], &grid);
    assert_eq!(code, 2);
    assert!(err.contains("--why-removed"), "{err}");
}

#[test]
fn a_flatzinc_model_is_asked_in_its_own_names() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("why-removed");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("three.fzn");
    std::fs::write(
        &file,
        "var 1..3: a :: output_var;\nvar 1..3: b :: output_var;\nvar 1..3: c :: output_var;\n\
         constraint int_ne(a, b);\nconstraint int_lt(b, c);\nsolve satisfy;\n",
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let (code, out, err) = run(&["fzn", file, "--why-removed", "c=2", "--at", "a=2"], "");
    assert_eq!(code, 0, "{err}");
    // a = 2 removes 2 from b (int_ne), so b ≥ 1 … b = 1 or 3, c > b: c = 2 needs b = 1, still
    // possible; c = 1 was removed at the root, with no decision.
    assert!(out.contains("2 is still possible in c"), "{out}");
    let (code, out, _) = run(&["fzn", file, "--why-removed", "c=1", "--at", "a=2"], "");
    assert_eq!(code, 0);
    assert!(
        out.starts_with("at the node a = 2:\nc ≠ 1, because:\n  1. "),
        "{out}"
    );
    assert!(!out.contains("decision"), "{out}");
    // b < c ≤ 3 removes 3 from b at the root; a = 2 removes 2 from b.
    let (code, out, _) = run(&["fzn", file, "--why-removed", "b=3", "--at", "a=2"], "");
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "at the node a = 2:\nb ≠ 3, because:\n  1. b ≠ 3: by int_lt (line 5)\n"
    );
    let (code, out, _) = run(&["fzn", file, "--why-removed", "b=2", "--at", "a=2"], "");
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "at the node a = 2:\nb ≠ 2, because:\n  decision 1: a = 2\n  1. b ≠ 2: by int_ne (line 4), since a = 2\n"
    );
    let (code, _, err) = run(&["fzn", file, "--why-removed", "d=1"], "");
    assert_eq!(code, 2);
    assert!(err.contains("no variable named \"d\""), "{err}");
}

#[test]
fn a_minizinc_model_is_asked_in_the_names_minizinc_prints() {
    if !crate::mzn::has_minizinc("a_minizinc_model_is_asked_in_the_names_minizinc_prints") {
        return;
    }
    let model = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mzn/queens.mzn");
    // q[1] = 1 takes 2 from q[2] by a diagonal.
    let (code, out, err) = run(
        &["mzn", model, "--why-removed", "q[2]=2", "--at", "q[1]=1"],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("at the node q[1] = 1:\nq[2] ≠ 2, because:\n  decision 1: q[1] = 1\n"),
        "{out}"
    );
    assert!(
        out.contains(" by all_different (queens.mzn:"),
        "constraints named by their line: {out}"
    );
    assert!(
        out.lines().last().unwrap().contains(". q[2] ≠ 2: by "),
        "{out}"
    );
    let (code, out, _) = run(
        &["mzn", model, "--why-removed", "q[3]=2", "--at", "q[1]=1"],
        "",
    );
    assert_eq!(code, 0);
    assert!(out.contains("2 is still possible in q[3]"), "{out}");
    let (code, _, err) = run(&["mzn", model, "--why-removed", "q[9]=1"], "");
    assert_eq!(code, 2);
    assert!(err.contains("no variable named \"q[9]\""), "{err}");
}

/// The `data-why` attribute of the page's body: the chain last shown.
fn shown_chain(dom: &str) -> String {
    let at = dom.find("data-why=\"").expect("the body holds the chain") + 10;
    dom[at..at + dom[at..].find('"').unwrap()].to_owned()
}

#[test]
fn clicking_a_struck_out_value_on_the_tree_page_shows_its_chain() {
    let Some(browser) = crate::html_page::browser_or_skip(
        "clicking_a_struck_out_value_on_the_tree_page_shows_its_chain",
    ) else {
        return;
    };
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("why-removed");
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("queens4.html");
    let (code, _, err) = run(&["queens", "4", "--tree", page.to_str().unwrap()], "");
    assert_eq!(code, 0, "{err}");
    // Node 1 is row 1 = 1: the queen attacks column 2 of row 2 on a diagonal.
    let dom = crate::html_page::dom(&browser, &page, "?why=1,2#node=1");
    assert_eq!(
        shown_chain(&dom),
        "why row 2 ≠ 2 at node 1:\ndecision at node 1: row 1 = 1\n\
         1. row 2 ≠ 2: by diagonals, since row 1 = 1"
    );
    assert!(dom.contains("<div class=\"why-chain\"><p>why row 2 ≠ 2 at node 1:</p>"));
    // Row 2 keeps 3 and 4 at node 1: nothing to click.
    let dom = crate::html_page::dom(&browser, &page, "?why=1,3#node=1");
    assert_eq!(shown_chain(&dom), "not struck out at this node");
}
