//! A student's MiniZinc model as the built-in puzzles are shown: `--count`, `--all` and
//! `--limit` counted as MiniZinc's Gecode counts; the solutions written by the model's own
//! `output` item, as `minizinc --solver gecode` writes them; enums by name in the trace, in
//! stepping and on the tree page; the plain variables in one table; a failure's clash marked
//! when stepping.
//!
//! Every test needs `minizinc` with Gecode: without it, each says that it skipped (or fails
//! with `CSPKIT_REQUIRE_MINIZINC=1`).

use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::html_page::{browser_or_skip, dom};
use crate::mzn::has_minizinc;

fn model(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/mzn")
        .join(name)
        .display()
        .to_string()
}

fn cspkit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cspkit"))
        .args(args)
        .output()
        .expect("cspkit runs")
}

fn cspkit_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cspkit"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cspkit runs");
    let _ = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes());
    child.wait_with_output().expect("cspkit finishes")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The solutions MiniZinc prints with Gecode for `model` (`-a`), each the text before its
/// `----------`.
fn gecode_solutions(model: &str) -> Vec<String> {
    let out = Command::new("minizinc")
        // With the standard library's decompositions (`-G std`): Debian's Gecode 6.2 library
        // does not type-check with MiniZinc 2.6's `globals.mzn` (its `inverse` lacks the
        // `var opt int` overload that std/inverse_fn.mzn calls), and these models include it.
        .args(["--solver", "gecode", "-G", "std", "--all-solutions", model])
        .output()
        .expect("minizinc runs");
    assert!(out.status.success(), "{}", text(&out.stderr));
    blocks(&text(&out.stdout))
}

/// The solutions of an output: the texts that each `----------` ends.
fn blocks(out: &str) -> Vec<String> {
    let mut solutions = Vec::new();
    let mut block = String::new();
    for line in out.lines() {
        match line {
            "----------" => solutions.push(std::mem::take(&mut block)),
            "==========" => {}
            _ => {
                block.push_str(line);
                block.push('\n');
            }
        }
    }
    solutions
}

/// The borders of the Australia model: its `colour[A] != colour[B]` constraints.
fn borders() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(model("australia.mzn")).unwrap();
    text.lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("constraint colour[")?;
            let (a, rest) = rest.split_once("] != colour[")?;
            let (b, _) = rest.split_once(']')?;
            Some((a.to_owned(), b.to_owned()))
        })
        .collect()
}

#[test]
fn count_all_and_limit_count_what_gecode_counts() {
    if !has_minizinc("cspkit mzn --count against Gecode") {
        return;
    }
    for name in ["australia.mzn", "two_two_four.mzn", "send_more.mzn"] {
        let path = model(name);
        let gecode = gecode_solutions(&path);
        let run = cspkit(&["mzn", &path, "--count"]);
        assert!(run.status.success(), "{name}: {}", text(&run.stderr));
        assert_eq!(text(&run.stdout), format!("{}\n", gecode.len()), "{name}");
        // --all prints each solution once, as Gecode's run prints it (the model's output).
        let all = cspkit(&["mzn", &path, "--all"]);
        let ours = blocks(&text(&all.stdout));
        let theirs: BTreeSet<&String> = gecode.iter().collect();
        assert_eq!(ours.len(), gecode.len(), "{name}");
        assert_eq!(ours.iter().collect::<BTreeSet<_>>(), theirs, "{name}");
    }
    let path = model("australia.mzn");
    // --limit, as the puzzles take it: that many, and a note that there may be more.
    let limited = cspkit(&["mzn", &path, "--count", "--limit", "5"]);
    assert!(limited.status.success());
    assert_eq!(text(&limited.stdout), "5\n");
    assert!(
        text(&limited.stderr).contains("stopped after 5 solutions (--limit); there may be more"),
        "{}",
        text(&limited.stderr)
    );
    let listed = cspkit(&["mzn", &path, "--all", "--limit", "2"]);
    assert_eq!(blocks(&text(&listed.stdout)).len(), 2);
    // Above the count, the count is whole: no note.
    let above = cspkit(&["mzn", &path, "--count", "--limit", "100"]);
    assert_eq!(text(&above.stdout), "18\n");
    assert!(!text(&above.stderr).contains("--limit"));
    // --limit alone is refused, as for the puzzles.
    assert_eq!(
        cspkit(&["mzn", &path, "--limit", "2"]).status.code(),
        Some(2)
    );
    // An optimisation has no count of solutions.
    let optimising = cspkit(&["mzn", &model("colouring.mzn"), "--count"]);
    assert_eq!(optimising.status.code(), Some(2));
    assert!(text(&optimising.stderr).contains("--count"));
}

#[test]
fn enums_are_named_in_the_trace_as_in_minizincs_output() {
    if !has_minizinc("enum names in the trace of australia.mzn") {
        return;
    }
    let run = cspkit(&["mzn", &model("australia.mzn"), "--trace"]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let out = text(&run.stdout);
    let solution = blocks(&out)
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("no solution: {out}"));
    // The solution is written by the model's output item, one of Gecode's solutions.
    let gecode = gecode_solutions(&model("australia.mzn"));
    assert!(
        gecode.contains(&solution.lines().filter(|l| l.contains(": ")).fold(
            String::new(),
            |mut s, l| {
                s.push_str(l);
                s.push('\n');
                s
            }
        ))
    );
    // Each value the trace gives is the one the output item prints, by name.
    let printed: Vec<(String, String)> = solution
        .lines()
        .filter_map(|l| l.split_once(": "))
        .map(|(s, c)| (s.to_owned(), c.to_owned()))
        .collect();
    assert_eq!(printed.len(), 7, "{solution}");
    for (state, colour) in &printed {
        let assigned = format!("colour[{state}] = {colour}");
        assert!(
            out.lines().any(|l| l.trim_start().starts_with(&assigned)),
            "no `{assigned}` in the trace:\n{out}"
        );
    }
    assert!(!out.contains("colour[1]"), "{out}");
}

#[test]
fn stepping_marks_the_clash_and_prompts_with_its_keys() {
    if !has_minizinc("--step on australia.mzn") {
        return;
    }
    // Plain backtracking: WA = red, then NT = red fails on their border.
    let run = cspkit_with_input(
        &[
            "mzn",
            &model("australia.mzn"),
            "--step",
            "--propagation",
            "none",
        ],
        "\n\n\nq\n",
    );
    let out = text(&run.stdout);
    assert_eq!(run.status.code(), Some(3), "{out}");
    assert!(
        out.lines()
            .any(|l| l == "[Enter] next  [c] continue  [q] quit"),
        "{out}"
    );
    // Standard output is a pipe: the clash between `*`s, no colour.
    assert!(!out.contains('\u{1b}'), "{out}");
    let clash = out
        .lines()
        .find_map(|l| l.trim().strip_prefix("✗ clash: "))
        .unwrap_or_else(|| panic!("no clash line: {out}"));
    let marked: Vec<&str> = clash
        .split(", ")
        .map(|part| {
            part.strip_prefix('*')
                .and_then(|p| p.strip_suffix('*'))
                .unwrap_or_else(|| panic!("unmarked {part}"))
        })
        .collect();
    assert_eq!(marked, ["colour[NT] = red", "colour[WA] = red"], "{out}");
    // Those two share a border in the model, and their cells are marked on the board.
    assert!(borders().contains(&("WA".to_owned(), "NT".to_owned())));
    assert!(out.contains("*red* *red* {red, green, blue}"), "{out}");
    // The board heads the row with the states' names.
    assert!(
        out.lines().any(|l| l.split_whitespace().collect::<Vec<_>>()
            == ["WA", "NT", "SA", "Q", "NSW", "V", "T"]),
        "{out}"
    );
}

#[test]
fn stepping_shows_the_plain_variables_on_one_line() {
    if !has_minizinc("--step on two_two_four.mzn") {
        return;
    }
    let run = cspkit_with_input(&["mzn", &model("two_two_four.mzn"), "--step"], "q\n");
    let out = text(&run.stdout);
    let root = out.lines().next().unwrap_or_default();
    let names: Vec<&str> = root
        .split("  ")
        .filter_map(|part| part.split_once(" = ").map(|(name, _)| name))
        .collect();
    // The output's variables (MiniZinc fixes F, the last carry, when it compiles), in the
    // order declared, on the root's one line; no board of one cell per variable (`T:`).
    let declared = DECLARED.iter().filter(|n| names.contains(n));
    assert!(names.len() >= 5 && declared.eq(names.iter()), "{out}");
    assert!(!out.lines().any(|l| l.trim() == "T:"), "{out}");
}

/// The plain variables of two_two_four.mzn, in the order declared.
const DECLARED: [&str; 9] = ["T", "W", "O", "F", "U", "R", "c1", "c2", "c3"];

#[test]
fn min_conflicts_prints_its_start() {
    if !has_minizinc("min-conflicts on australia.mzn") {
        return;
    }
    let run = cspkit(&[
        "mzn",
        &model("australia.mzn"),
        "--local-search",
        "min-conflicts",
        "--trace",
        "--seed",
        "4",
    ]);
    let out = text(&run.stdout);
    assert!(run.status.success(), "{out}");
    let start = out
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("start: "))
        .unwrap_or_else(|| panic!("no start: {out}"));
    let (values, conflicts) = start.rsplit_once(" (").unwrap();
    let colour: std::collections::HashMap<&str, &str> = values
        .split(", ")
        .map(|part| {
            let (var, value) = part.split_once(" = ").unwrap();
            let state = var
                .strip_prefix("colour[")
                .unwrap()
                .strip_suffix(']')
                .unwrap();
            assert!(["red", "green", "blue"].contains(&value), "{value}");
            (state, value)
        })
        .collect();
    assert_eq!(colour.len(), 7, "{start}");
    // The conflicts it gives are the borders between states of one colour.
    let clashing = borders()
        .iter()
        .filter(|(a, b)| colour[a.as_str()] == colour[b.as_str()])
        .count();
    let plural = if clashing == 1 { "" } else { "s" };
    assert_eq!(
        conflicts,
        format!("{clashing} conflict{plural})"),
        "{start}"
    );
}

#[test]
fn the_page_of_a_minizinc_model_names_enums_and_tables_plain_variables() {
    if !has_minizinc("the tree page of australia.mzn") {
        return;
    }
    let Some(browser) = browser_or_skip("the MiniZinc page in Chromium") else {
        return;
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mzn-enums");
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("australia.html");
    let run = cspkit(&[
        "mzn",
        &model("australia.mzn"),
        "--tree",
        page.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    // The solution as MiniZinc's printer writes it, by the model's output item.
    let printed = text(&run.stdout);
    let wa = printed
        .lines()
        .find_map(|l| l.strip_prefix("WA: "))
        .unwrap_or_else(|| panic!("no WA: {printed}"));
    // The last node is the solution: its board and domains by name.
    let html = dom(&browser, &page, &format!("?keys={}", "R".repeat(40)));
    assert!(
        html.contains(&format!("<td>colour[WA]</td><td class=\"domain\">{{{wa}}}")),
        "{html}"
    );
    assert!(html.contains("<th>WA</th><th>NT</th>"), "{html}");
    assert!(
        html.contains(&format!("title=\"colour[WA]\">{wa}</td>")),
        "{html}"
    );
    let label = html
        .split("id=\"label\"")
        .nth(1)
        .and_then(|rest| rest.split('<').next())
        .unwrap_or_default();
    assert!(
        ["red", "green", "blue"].iter().any(|c| label.ends_with(c)),
        "{label}"
    );

    // TWO+TWO=FOUR: the plain variables of its output in one table, not a board each.
    let page = dir.join("two_two_four.html");
    let run = cspkit(&[
        "mzn",
        &model("two_two_four.mzn"),
        "--tree",
        page.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let html = dom(&browser, &page, "");
    assert_eq!(html.matches("class=\"board plain\"").count(), 1, "{html}");
    assert_eq!(html.matches("class=\"array-name\"").count(), 0, "{html}");
    let rows = DECLARED
        .iter()
        .filter(|name| html.contains(&format!("<th>{name}</th>")))
        .count();
    assert!(rows >= 5, "{html}");
}
