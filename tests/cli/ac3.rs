//! `--propagation ac3`: the trace's queue and revisions, the counts of `--stats`, the refusals,
//! and the `--ac3-page` page loaded in headless Chromium (skipped without it, unless
//! `CSPKIT_REQUIRE_BROWSER` is set).

use std::path::Path;
use std::process::{Command, Output};

use cspkit::models::queens::Queens;
use cspkit::teach::graph_page::Ac3Recorder;

use crate::html_page::{browser_or_skip, dom};

fn cspkit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cspkit"))
        .args(args)
        .output()
        .expect("the cspkit binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

#[test]
fn the_trace_shows_the_queue_and_every_revision() {
    let output = cspkit(&["queens", "4", "--propagation", "ac3", "--trace"]);
    assert!(output.status.success());
    let trace = text(&output.stdout);
    let lines: Vec<&str> = trace.lines().collect();
    assert!(lines[0].starts_with("AC-3 queue: (row 1, row 2), (row 2, row 1), (row 1, row 3)"));
    assert!(lines[0].ends_with("… (12 arcs)"), "{}", lines[0]);
    // Row 1 = 1: the queue holds the arcs into row 1, then each REVISE says what it removed.
    let decision = lines.iter().position(|l| *l == "row 1 = 1").unwrap();
    assert_eq!(
        &lines[decision + 1..decision + 6],
        [
            "  AC-3 queue: (row 2, row 1), (row 3, row 1), (row 4, row 1)",
            "  revise(row 2, row 1): removed 1, 2; queued (row 3, row 2), (row 4, row 2)",
            "  revise(row 3, row 1): removed 1, 3; queued (row 2, row 3), (row 4, row 3)",
            "  revise(row 4, row 1): removed 1, 4; queued (row 2, row 4), (row 3, row 4)",
            "  revise(row 3, row 2): removed 4; queued (row 1, row 3)",
        ]
    );
    assert!(trace.contains("  revise(row 4, row 3): removed 2, 3\n  ✗ row 4 has no value left\n"));
    let revisions = lines.iter().filter(|l| l.contains("revise(")).count();
    let stats = cspkit(&["queens", "4", "--propagation", "ac3", "--stats"]);
    let stderr = text(&stats.stderr);
    assert!(
        stderr.contains(&format!("arc revisions {revisions}, values removed 19")),
        "{stderr}"
    );
}

#[test]
fn australia_revises_with_the_names_of_the_map() {
    let output = cspkit(&["colour", "australia", "--propagation", "ac3", "--trace"]);
    assert!(output.status.success());
    let trace = text(&output.stdout);
    assert!(trace.contains(
        "WA = 1\n  AC-3 queue: (NT, WA), (SA, WA)\n  revise(NT, WA): removed 1; queued (SA, NT), \
         (Q, NT)\n"
    ));
    assert!(trace.contains("    SA = 3 (only value left)\n"));
}

#[test]
fn stats_count_revisions_only_with_ac3() {
    let grid = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/sudoku/2239.txt");
    let grid = grid.to_str().unwrap();
    let ac3 = cspkit(&["sudoku", grid, "--propagation", "ac3", "--stats"]);
    let full = cspkit(&["sudoku", grid, "--stats"]);
    assert!(ac3.status.success() && full.status.success());
    assert_eq!(ac3.stdout, full.stdout, "the same solution");
    assert!(text(&ac3.stderr).contains("propagation ac3"));
    assert!(text(&ac3.stderr).contains(", arc revisions "));
    assert!(!text(&full.stderr).contains("arc revisions"));
}

#[test]
fn the_page_needs_ac3() {
    let output = cspkit(&["queens", "4", "--ac3-page", "/nonexistent/x.html"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("--ac3-page shows AC-3's revisions: it needs"));
}

fn attribute(dom: &str, name: &str) -> String {
    let at = dom
        .find(&format!("{name}=\""))
        .unwrap_or_else(|| panic!("no {name}"))
        + name.len()
        + 2;
    dom[at..at + dom[at..].find('"').unwrap()].to_owned()
}

fn text_of(dom: &str, id: &str) -> String {
    let start = dom.find(&format!("id=\"{id}\"")).unwrap();
    let open = dom[start..].find('>').unwrap() + start + 1;
    let close = dom[open..].find('<').unwrap() + open;
    dom[open..close].to_owned()
}

#[test]
#[allow(
    deprecated,
    reason = "checks that the deprecated `with_ac3` still works"
)]
fn the_page_steps_through_the_revisions() {
    let Some(browser) = browser_or_skip("the AC-3 page") else {
        return;
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ac3-page");
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("queens4.html");
    let output = cspkit(&[
        "queens",
        "4",
        "--propagation",
        "ac3",
        "--ac3-page",
        page.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    // The steps the page holds, recorded through the library from the same search.
    let queens = Queens::new(4).unwrap();
    let mut recorder = Ac3Recorder::new(queens.model());
    let mut solver = queens
        .model()
        .solver()
        .with_ac3(true)
        .unwrap()
        .with_observer(&mut recorder);
    assert!(solver.next_solution().is_solved());
    drop(solver);
    let lines: Vec<&str> = recorder.lines().collect();

    // The first branch, then three revisions that remove values: the third is row 4's.
    let shown = dom(&browser, &page, "?keys=brrr");
    let step: usize = attribute(&shown, "data-step").parse().unwrap();
    assert_eq!(lines[step], "revise(row 4, row 1): removed 1, 4");
    assert_eq!(text_of(&shown, "step-text"), lines[step]);
    assert_eq!(attribute(&shown, "data-arc"), "row 4,row 1");
    assert_eq!(attribute(&shown, "data-kind"), "revise");
    // The arc is drawn, and the values removed are written under row 4.
    assert!(shown.contains("marker-end=\"url(#arrow)\" d=\"M "));
    assert!(shown.contains("class=\"node revised\""));
    assert!(shown.contains(">−1,4<"));
    // Step 0 is the root's queue; End is the solution; a step by the address.
    let first = dom(&browser, &page, "");
    assert_eq!(attribute(&first, "data-step"), "0");
    assert!(text_of(&first, "step-text").starts_with("AC-3 starts: 12 arcs queued"));
    let last = dom(&browser, &page, "?keys=E");
    assert_eq!(text_of(&last, "step-text"), "✓ solution");
    assert_eq!(attribute(&last, "data-step"), (lines.len() - 1).to_string());
    let back = dom(&browser, &page, "?keys=L#step=5");
    assert_eq!(attribute(&back, "data-step"), "4");
    // Auto-play moves on by itself.
    let played = dom(&browser, &page, "?keys=_");
    assert_eq!(attribute(&played, "data-playing"), "true");
    assert!(attribute(&played, "data-step").parse::<usize>().unwrap() > 0);
}

#[test]
fn stepping_shows_the_revisions_too() {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_cspkit"))
        .args(["queens", "4", "--propagation", "ac3", "--step"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"c\n").unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let shown = text(&output.stdout);
    assert!(
        shown.contains("row 1 = 1\n  AC-3 queue: (row 2, row 1), (row 3, row 1), (row 4, row 1)\n  revise(row 2, row 1): removed 1, 2;"),
        "{shown}"
    );
}
