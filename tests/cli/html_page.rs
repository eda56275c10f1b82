//! The HTML page of `cspkit … --tree page.html`, loaded in a real headless browser (Debian's
//! Chromium): step forward and back with the arrow keys (replayed through the page's own key
//! handler from `?keys=`), select a node from the address (`#node=N`), and check what the page
//! shows: the selected node, its status, the queens on the board and the domains.
//!
//! Without Chromium the tests say they are skipped and pass, unless `CSPKIT_REQUIRE_BROWSER`
//! is set (CI sets it: there a missing browser fails the run).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The browser, if one is installed.
fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            let found = Command::new("which").arg(name).output().ok()?;
            let path = String::from_utf8(found.stdout).ok()?;
            let path = path.trim();
            (found.status.success() && !path.is_empty()).then(|| PathBuf::from(path))
        })
}

fn browser_or_skip(test: &str) -> Option<PathBuf> {
    match chromium() {
        Some(browser) => Some(browser),
        None if std::env::var_os("CSPKIT_REQUIRE_BROWSER").is_some() => {
            panic!("{test}: Chromium is required here (CSPKIT_REQUIRE_BROWSER) but was not found")
        }
        None => {
            crate::common::skipped(&format!(
                "{test} (Chromium not found: install Debian's chromium package; \
                 .ci/run does)"
            ));
            None
        }
    }
}

/// Writes the page of `args` (a cspkit command line) into a fresh directory.
fn page(name: &str, args: &[&str]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("html-page");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--tree", path.to_str().unwrap()]);
    let output = Command::new(env!("CARGO_BIN_EXE_cspkit"))
        .args(&all)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    path
}

/// The page's DOM after its script ran, loaded from `page` with `suffix` (a query and/or a
/// fragment) appended to its address.
fn dom(browser: &Path, page: &Path, suffix: &str) -> String {
    let url = format!("file://{}{suffix}", page.display());
    let output = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--virtual-time-budget=3000",
            "--dump-dom",
            &url,
        ])
        .output()
        .expect("the browser runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// The text of the element with `id`.
fn text_of(dom: &str, id: &str) -> String {
    let start = dom
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id}"));
    let open = dom[start..].find('>').unwrap() + start + 1;
    let close = dom[open..].find('<').unwrap() + open;
    dom[open..close].to_owned()
}

fn selected(dom: &str) -> u64 {
    let at = dom
        .find("data-selected=\"")
        .expect("the body says which node")
        + 15;
    dom[at..at + dom[at..].find('"').unwrap()].parse().unwrap()
}

/// The queens on the board: (row, column), from 0.
fn queens_on_board(dom: &str) -> Vec<(usize, usize)> {
    let board = &dom[dom.find("<table class=\"board\"").expect("a board")..];
    let board = &board[..board.find("</table>").unwrap()];
    board
        .split("<tr>")
        .skip(1)
        .enumerate()
        .flat_map(|(r, row)| {
            row.split("<td")
                .skip(1)
                .enumerate()
                .filter(|(_, cell)| cell.contains("queen"))
                .map(move |(c, _)| (r, c))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn stepping_through_four_queens_shows_each_node_and_its_board() {
    let Some(browser) = browser_or_skip("the 4-Queens page in Chromium") else {
        return;
    };
    // Forward checking, all solutions: node 1 is row 1 = 1, node 2 row 2 = 3 (a dead end).
    let path = page("queens4.html", &["queens", "4", "--count"]);
    let start = dom(&browser, &path, "");
    assert_eq!(selected(&start), 0);
    assert_eq!(text_of(&start, "label"), "node 0: root");
    assert!(queens_on_board(&start).is_empty());

    // Two steps forward: node 2, row 1 = 1 and row 2 = 3 placed, failed on the diagonals.
    let two = dom(&browser, &path, "?keys=RR");
    assert_eq!(selected(&two), 2);
    assert_eq!(text_of(&two, "label"), "node 2: row 2 = 3");
    assert!(
        text_of(&two, "status").starts_with("failed"),
        "{}",
        text_of(&two, "status")
    );
    let placed = queens_on_board(&two);
    assert!(
        placed.contains(&(0, 0)) && placed.contains(&(1, 2)),
        "{placed:?}"
    );

    // Three forward and two back is one forward.
    let back = dom(&browser, &path, "?keys=RRRLL");
    assert_eq!(selected(&back), 1);
    assert_eq!(text_of(&back, "label"), "node 1: row 1 = 1");
    assert_eq!(queens_on_board(&back), [(0, 0)]);

    // A solution, selected from the address: four queens, and the domains say so.
    let solution = dom(&browser, &path, "#node=5");
    assert_eq!(selected(&solution), 5);
    assert_eq!(text_of(&solution, "status"), "solution");
    assert_eq!(queens_on_board(&solution), [(0, 1), (1, 3), (2, 0), (3, 2)]);
    assert!(solution.contains("<td>row 2</td><td class=\"domain\">{4}</td>"));

    // Stepping past the last node stays there; before the first, at the root.
    let nodes = start.matches("<g class=\"point").count() as u64;
    let end = dom(
        &browser,
        &path,
        &format!("?keys={}", "R".repeat(nodes as usize + 3)),
    );
    assert_eq!(selected(&end), nodes - 1);
    assert_eq!(selected(&dom(&browser, &path, "?keys=LL")), 0);
}

#[test]
fn a_sudoku_page_shows_the_grid_with_candidates() {
    let Some(browser) = browser_or_skip("a Sudoku page in Chromium") else {
        return;
    };
    let puzzle = Path::new(env!("CARGO_TARGET_TMPDIR")).join("html-page-puzzle.txt");
    std::fs::write(&puzzle, ".".repeat(16)).unwrap();
    let path = page(
        "sudoku4.html",
        &[
            "sudoku",
            puzzle.to_str().unwrap(),
            "--propagation",
            "forward",
        ],
    );
    let root = dom(&browser, &path, "");
    // The empty 4x4 grid: sixteen cells of candidates.
    assert_eq!(root.matches("class=\"candidates\"").count(), 16);
    let one = dom(&browser, &path, "?keys=R");
    assert_eq!(text_of(&one, "label"), "node 1: r1c1 = 1");
    assert!(one.contains("<td class=\"value\">1</td>"));

    // A screenshot of the page, for the record.
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("html-page-sudoku4.png");
    let url = format!("file://{}#node=3", path.display());
    let status = Command::new(&browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--window-size=1100,600",
        ])
        .arg(format!("--screenshot={}", shot.display()))
        .arg(&url)
        .output()
        .unwrap()
        .status;
    assert!(status.success() && shot.exists());
}
