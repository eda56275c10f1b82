//! `--propagation ac3`: the trace's queue and revisions, the counts of `--stats`, the refusals,
//! and the `--ac3-page` page loaded in headless Chromium (skipped without it, unless
//! `CSPKIT_REQUIRE_BROWSER` is set).

use std::path::Path;
use std::process::Command;

use cspkit::models::queens::Queens;
use cspkit::teach::graph_page::Ac3Recorder;

use crate::html_page::{browser_or_skip, dom};
use crate::support::{cspkit, text};

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

/// The AC-3 page of `args` loaded at 1280 × 720: its DOM after the script ran.
fn ac3_dom(browser: &Path, name: &str, args: &[&str]) -> String {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ac3-page");
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join(name);
    let mut all = args.to_vec();
    all.extend(["--propagation", "ac3", "--ac3-page", page.to_str().unwrap()]);
    let output = cspkit(&all);
    assert!(output.status.success(), "{}", text(&output.stderr));
    dom(browser, &page, "?keys=brrr")
}

/// The centre of the node of variable `name`, from its `translate(x y)`.
fn centre(dom: &str, name: &str) -> (f64, f64) {
    let at = dom
        .find(&format!("data-name=\"{name}\""))
        .unwrap_or_else(|| panic!("no node {name}"));
    let tag = &dom[dom[..at].rfind("<g").unwrap()..at];
    let inside = &tag[tag.find("translate(").unwrap() + 10..];
    let inside = &inside[..inside.find(')').unwrap()];
    let mut parts = inside.split([' ', ',']).filter(|p| !p.is_empty());
    let mut next = || parts.next().unwrap().parse::<f64>().unwrap();
    (next(), next())
}

/// Every text the page shows is at least 16 px: the smallest computed font size the page
/// measured, and each font size written on the drawing (drawn 1:1, its view box being its
/// own size).
fn assert_readable(dom: &str) {
    let least: f64 = attribute(dom, "data-min-font").parse().unwrap();
    assert!(least >= 16.0, "a text of {least} px");
    for rest in dom.split("font-size=\"").skip(1) {
        let size: f64 = rest[..rest.find('"').unwrap()].parse().unwrap();
        assert!(size >= 16.0, "font-size {size}");
    }
}

#[test]
fn a_sudoku_is_drawn_as_its_grid_in_readable_text() {
    let Some(browser) = browser_or_skip("the AC-3 page of a Sudoku") else {
        return;
    };
    let sudoku = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/sudoku/2239.txt");
    let dom = ac3_dom(&browser, "sudoku.html", &["sudoku", sudoku]);
    assert_readable(&dom);
    let (a, b, c) = (
        centre(&dom, "r1c1"),
        centre(&dom, "r1c2"),
        centre(&dom, "r2c1"),
    );
    let (i, j) = (centre(&dom, "r9c9"), centre(&dom, "r5c5"));
    assert!(
        (a.1 - b.1).abs() < 0.5 && b.0 > a.0,
        "r1c2 right of r1c1: {a:?} {b:?}"
    );
    assert!(
        (a.0 - c.0).abs() < 0.5 && c.1 > a.1,
        "r2c1 under r1c1: {a:?} {c:?}"
    );
    // Evenly: the centre cell halfway between the corners.
    assert!((j.0 - (a.0 + i.0) / 2.0).abs() < 0.5 && (j.1 - (a.1 + i.1) / 2.0).abs() < 0.5);
    // The cells do not overlap: a cell is narrower than the step between cells.
    let width: f64 = attribute(&dom[dom.find("data-name=\"r1c1\"").unwrap()..], "width")
        .parse()
        .unwrap();
    assert!(
        width <= b.0 - a.0,
        "cells {width} wide, {} apart",
        b.0 - a.0
    );
}

#[test]
fn queens_rows_stand_in_a_column_and_a_map_in_columns_west_to_east() {
    let Some(browser) = browser_or_skip("the AC-3 page's layouts") else {
        return;
    };
    let dom = ac3_dom(&browser, "queens8.html", &["queens", "8"]);
    assert_readable(&dom);
    let rows: Vec<(f64, f64)> = (1..=8).map(|k| centre(&dom, &format!("row {k}"))).collect();
    for pair in rows.windows(2) {
        assert!(
            (pair[0].0 - pair[1].0).abs() < 0.5 && pair[1].1 > pair[0].1,
            "{rows:?}"
        );
    }
    let dom = ac3_dom(&browser, "australia.html", &["colour", "australia"]);
    assert_readable(&dom);
    let x = |name: &str| centre(&dom, name).0;
    // Columns by distance from WA: WA; NT and SA; Q, NSW and V.
    assert!(
        x("WA") < x("NT") && (x("NT") - x("SA")).abs() < 0.5,
        "{dom}"
    );
    for east in ["Q", "NSW", "V"] {
        assert!(x(east) > x("SA"), "{east}");
    }
}
