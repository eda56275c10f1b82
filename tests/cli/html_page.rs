//! The HTML page of `cspkit … --tree page.html` and `cspkit compare … --tree page.html`,
//! loaded in a real headless browser (Debian's Chromium): keys replayed through the page's own
//! handler from `?keys=`, a node selected from the address (`#node=N`), and what the page then
//! shows: the selected node, its status, the board with the clash of a failed node, the
//! domains, and the state of the drawing the page writes on its `body` (scale, the tree's
//! extent on the screen, nodes drawn, collapsed subtrees, auto-play). The expected nodes come
//! from the same search recorded through the library.
//!
//! Without Chromium the tests say they are skipped and pass, unless `CSPKIT_REQUIRE_BROWSER`
//! is set (CI sets it: there a missing browser fails the run).

use std::path::{Path, PathBuf};
use std::process::Command;

use cspkit::models::queens::Queens;
use cspkit::teach::tree::{NodeStatus, SearchTree};
use cspkit::{Branching, PropagationLevel};

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

/// The browser, or `None` after saying that `test` is skipped (a failure instead, when
/// `CSPKIT_REQUIRE_BROWSER` is set). Shared with the AC-3 page's tests.
pub(crate) fn browser_or_skip(test: &str) -> Option<PathBuf> {
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
pub(crate) fn dom(browser: &Path, page: &Path, suffix: &str) -> String {
    let url = format!("file://{}{suffix}", page.display());
    let output = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--window-size=1280,720",
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

/// A number the page wrote on its `body`: `data-NAME="…"`.
fn state(dom: &str, name: &str) -> f64 {
    let key = format!("data-{name}=\"");
    let at = dom
        .find(&key)
        .unwrap_or_else(|| panic!("the body has no data-{name}"))
        + key.len();
    let value = &dom[at..at + dom[at..].find('"').unwrap()];
    value
        .parse()
        .unwrap_or_else(|_| panic!("data-{name}={value:?}"))
}

/// The variables (indices) of the board cells and domain rows with `class` in the first panel.
fn marked(dom: &str, class: &str) -> Vec<usize> {
    let panel = &dom[..dom.find("id=\"panel-1\"").unwrap_or(dom.len())];
    let mut vars: Vec<usize> = panel
        .split('<')
        .filter_map(|tag| tag.strip_prefix("td ").or_else(|| tag.strip_prefix("tr ")))
        .filter_map(|cell| {
            let end = cell.find('>')?;
            let attrs = &cell[..end];
            let classes = attrs.split("class=\"").nth(1)?.split('"').next()?;
            if !classes.split(' ').any(|c| c == class) {
                return None;
            }
            attrs
                .split("data-var=\"")
                .nth(1)?
                .split('"')
                .next()?
                .parse()
                .ok()
        })
        .collect();
    vars.sort_unstable();
    vars.dedup();
    vars
}

/// The tree of 4-Queens with `level` and `branching`, as the page is made from it.
fn queens_tree(queens: &Queens, level: PropagationLevel, branching: Branching) -> SearchTree<'_> {
    let mut tree = SearchTree::new(queens.model()).with_domains(true);
    let mut solver = queens
        .model()
        .solver()
        .with_propagation(level)
        .with_branching(branching)
        .with_observer(&mut tree);
    let _ = solver.count();
    drop(solver);
    tree
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
    // Forward checking took values from the other rows at node 1: marked as removed.
    assert!(
        !marked(&back, "changed").is_empty(),
        "no domain marked as changed"
    );
    assert!(back.contains("class=\"removed\""));

    // A solution, selected from the address: four queens, and the domains say so.
    let solution = dom(&browser, &path, "#node=5");
    assert_eq!(selected(&solution), 5);
    assert!(text_of(&solution, "status").starts_with("solution"));
    assert_eq!(queens_on_board(&solution), [(0, 1), (1, 3), (2, 0), (3, 2)]);
    assert!(solution.contains("<td>row 2</td><td class=\"domain\">{4}"));

    // Stepping past the last node stays there; before the first, at the root.
    let nodes = state(&start, "visible") as u64;
    let end = dom(
        &browser,
        &path,
        &format!("?keys={}", "R".repeat(nodes as usize + 3)),
    );
    assert_eq!(selected(&end), nodes - 1);
    assert_eq!(selected(&dom(&browser, &path, "?keys=LL")), 0);
}

#[test]
fn the_page_opens_fitted_to_the_window_and_zooms() {
    let Some(browser) = browser_or_skip("fit and zoom in Chromium") else {
        return;
    };
    // The d-way tree of 4-Queens without propagation: wide, drawn 3,020 px wide before.
    let path = page(
        "queens4-dway.html",
        &[
            "queens",
            "4",
            "--count",
            "--branching",
            "dway",
            "--propagation",
            "none",
        ],
    );
    let open = dom(&browser, &path, "");
    let (width, height) = (state(&open, "cw"), state(&open, "ch"));
    assert!(width > 300.0 && height > 200.0, "{width} x {height}");
    // The whole tree inside the canvas, the root included.
    assert!(state(&open, "left") >= 0.0, "{}", state(&open, "left"));
    assert!(state(&open, "right") <= width, "{}", state(&open, "right"));
    assert!(
        state(&open, "bottom") <= height,
        "{}",
        state(&open, "bottom")
    );
    let (x, y) = (state(&open, "selx"), state(&open, "sely"));
    assert!((0.0..=width).contains(&x) && (0.0..=height).contains(&y));
    assert_eq!(state(&open, "drawn"), state(&open, "visible"));
    // The branches are labelled, in text as large as the page's.
    assert!(state(&open, "labels") > 0.0);
    assert!(open.contains("font: 18px") && open.contains("const FONT = '18px"));

    let scale = state(&open, "scale");
    // `+` is `%2B` in an address (a bare `+` is a space there).
    let zoomed = dom(&browser, &path, "?keys=%2B%2B");
    assert!((state(&zoomed, "scale") / scale - 1.5625).abs() < 0.01);
    let out = dom(&browser, &path, "?keys=-");
    assert!((state(&out, "scale") / scale - 0.8).abs() < 0.01);
    let fitted = dom(&browser, &path, "?keys=%2B%2B%2B0");
    assert!((state(&fitted, "scale") - scale).abs() < 1e-3);
    // Zoomed in far, the node selected by a key is always brought into view.
    for keys in ["ffff", "fffffff", "ss", "sD]"] {
        let near = dom(&browser, &path, &format!("?keys={}{keys}", "%2B".repeat(8)));
        let (x, y) = (state(&near, "selx"), state(&near, "sely"));
        assert!(
            (0.0..=width).contains(&x) && (0.0..=height).contains(&y),
            "{keys}: node {} at {x}, {y}",
            selected(&near)
        );
    }
}

#[test]
fn keys_walk_the_tree_and_collapse_subtrees() {
    let Some(browser) = browser_or_skip("lecture keys in Chromium") else {
        return;
    };
    let queens = Queens::new(4).unwrap();
    let tree = queens_tree(&queens, PropagationLevel::None, Branching::DWay);
    let path = page(
        "queens4-keys.html",
        &[
            "queens",
            "4",
            "--count",
            "--branching",
            "dway",
            "--propagation",
            "none",
        ],
    );
    let nodes = tree.nodes();
    let first_child = |v: u64| nodes[v as usize].children[0];
    let with = |status: fn(&NodeStatus) -> bool| -> Vec<u64> {
        (0..nodes.len() as u64)
            .filter(|&v| status(&nodes[v as usize].status))
            .collect()
    };
    let failures = with(|s| matches!(s, NodeStatus::Failed { .. }));
    let solutions = with(|s| *s == NodeStatus::Solution);
    let expect = |keys: &str, node: u64| {
        let shown = dom(&browser, &path, &format!("?keys={keys}"));
        assert_eq!(selected(&shown), node, "keys {keys}");
    };
    expect("D", first_child(0));
    expect("DD", first_child(first_child(0)));
    expect("DDU", first_child(0));
    expect("D]", nodes[0].children[1]);
    expect("D]]", nodes[0].children[2]);
    expect("D][", nodes[0].children[0]);
    expect("f", failures[0]);
    expect("ff", failures[1]);
    expect("fffF", failures[1]);
    expect("s", solutions[0]);
    expect("ss", solutions[1]);
    expect("sfH", 0);

    // Collapsing the root leaves it alone; expanding brings every node back.
    let all = nodes.len() as f64;
    let open = dom(&browser, &path, "");
    assert_eq!(state(&open, "visible"), all);
    let folded = dom(&browser, &path, "?keys=c");
    assert_eq!(state(&folded, "visible"), 1.0);
    assert_eq!(state(&folded, "collapsed"), 1.0);
    let unfolded = dom(&browser, &path, "?keys=cc");
    assert_eq!(state(&unfolded, "visible"), all);

    // Collapsing the failed subtrees folds each largest subtree without a solution.
    let size = |v: usize| -> usize {
        let mut stack = vec![v];
        let mut count = 0;
        while let Some(u) = stack.pop() {
            count += 1;
            stack.extend(nodes[u].children.iter().map(|&c| c as usize));
        }
        count
    };
    let dead = |v: usize| -> bool {
        let mut stack = vec![v];
        let mut inner = false;
        while let Some(u) = stack.pop() {
            if nodes[u].status == NodeStatus::Solution || nodes[u].status == NodeStatus::Open {
                return false;
            }
            inner |= !nodes[u].children.is_empty();
            stack.extend(nodes[u].children.iter().map(|&c| c as usize));
        }
        inner
    };
    let tops: Vec<usize> = (0..nodes.len())
        .filter(|&v| dead(v) && nodes[v].parent.is_none_or(|p| !dead(p as usize)))
        .collect();
    let hidden: usize = tops.iter().map(|&v| size(v) - 1).sum();
    assert!(!tops.is_empty());
    let failed = dom(&browser, &path, "?keys=x");
    assert_eq!(state(&failed, "collapsed"), tops.len() as f64);
    assert_eq!(state(&failed, "visible"), all - hidden as f64);
    // The first failure lies in a folded subtree: going to it opens the way.
    let reopened = dom(&browser, &path, "?keys=xf");
    assert_eq!(selected(&reopened), failures[0]);
    assert!(state(&reopened, "visible") > state(&failed, "visible"));
    let expanded = dom(&browser, &path, "?keys=xe");
    assert_eq!(state(&expanded, "visible"), all);
    assert_eq!(state(&expanded, "collapsed"), 0.0);
}

#[test]
fn auto_play_walks_the_search_in_order() {
    let Some(browser) = browser_or_skip("auto-play in Chromium") else {
        return;
    };
    let path = page("queens5-play.html", &["queens", "5", "--count"]);
    // Four nodes a second for the 3 s the browser runs the page: about a dozen nodes on.
    let playing = dom(&browser, &path, "?keys=_");
    assert!(selected(&playing) > 5, "{}", selected(&playing));
    assert!(playing.contains("data-playing=\"yes\""));
    let paused = dom(&browser, &path, "?keys=__");
    assert_eq!(selected(&paused), 0);
    assert!(paused.contains("data-playing=\"no\""));
}

#[test]
fn a_failed_node_shows_the_clash_on_the_board() {
    let Some(browser) = browser_or_skip("the clash of a failed node in Chromium") else {
        return;
    };
    // Plain backtracking on 4-Queens: node 2 (row 2 = 1 under row 1 = 1) fails on the
    // columns, the two queens of column 1 clashing.
    let path = page(
        "queens4-none.html",
        &["queens", "4", "--propagation", "none"],
    );
    let failed = dom(&browser, &path, "#node=2");
    assert_eq!(text_of(&failed, "label"), "node 2: row 2 = 1");
    assert!(text_of(&failed, "status").starts_with("failed"));
    let queens = Queens::new(4).unwrap();
    let rows: Vec<usize> = queens.rows().iter().map(|v| v.index()).collect();
    assert_eq!(marked(&failed, "clash"), [rows[0], rows[1]]);
    assert_eq!(queens_on_board(&failed), [(0, 0), (1, 0)]);

    // A Sudoku without propagation: at each of its first failures the page marks the cells
    // the library names, two or more cells of one unit, each holding its value.
    let puzzle = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/sudoku/2239.txt");
    let path = page(
        "sudoku-none.html",
        &["sudoku", puzzle.to_str().unwrap(), "--propagation", "none"],
    );
    let grid =
        cspkit::models::sudoku::Grid::parse(&std::fs::read_to_string(&puzzle).unwrap(), None)
            .unwrap();
    let sudoku = cspkit::models::sudoku::Sudoku::new(&grid).unwrap();
    let mut tree = SearchTree::new(sudoku.model())
        .with_domains(true)
        .with_limit(5000);
    let _ = sudoku
        .model()
        .solver()
        .with_propagation(PropagationLevel::None)
        .with_observer(&mut tree)
        .next_solution();
    let failures: Vec<u64> = (0..tree.nodes().len() as u64)
        .filter(|&v| matches!(tree.nodes()[v as usize].status, NodeStatus::Failed { .. }))
        .take(3)
        .collect();
    assert_eq!(failures.len(), 3);
    for (i, &node) in failures.iter().enumerate() {
        let shown = dom(&browser, &path, &format!("?keys={}", "f".repeat(i + 1)));
        assert_eq!(selected(&shown), node);
        let expected: Vec<usize> = tree.clash(node).iter().map(|v| v.index()).collect();
        assert!(expected.len() >= 2, "node {node}: {expected:?}");
        assert_eq!(marked(&shown, "clash"), expected, "node {node}");
        // The failing unit is outlined too.
        assert!(marked(&shown, "scope").len() >= 9, "node {node}");
    }
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
    assert_eq!(root.matches("class=\"candidates").count(), 16);
    let one = dom(&browser, &path, "?keys=R");
    assert_eq!(text_of(&one, "label"), "node 1: r1c1 = 1");
    assert!(one.contains("<td class=\"value placed\" data-var=\"0\">1</td>"));
}

#[test]
fn a_comparison_page_shows_two_searches_on_one_scale() {
    let Some(browser) = browser_or_skip("the comparison page in Chromium") else {
        return;
    };
    let path = page(
        "compare.html",
        &[
            "compare",
            "queens",
            "6",
            "--var-order",
            "input",
            "--value-order",
            "asc",
            "--propagation",
            "none,forward",
        ],
    );
    // Both trees start with row 1 = 1; without propagation node 2 is row 2 = 1, with
    // forward checking row 2 = 3: they part at node 2.
    let shown = dom(&browser, &path, "");
    assert!(shown.contains("id=\"panel-1\""));
    assert_eq!(state(&shown, "diverge"), 2.0);
    assert!(
        shown.contains("input, asc, none, assign") && shown.contains("input, asc, forward, assign")
    );
    // Keys move every panel in step by default; `t` (or `together=no`) the active one alone.
    let second = dom(&browser, &path, "?panel=1&keys=RR");
    assert_eq!(state(&second, "active"), 1.0);
    assert_eq!(selected(&second), 2);
    assert_eq!(text_of(&second, "label-1"), "node 2: row 2 = 3");
    assert_eq!(text_of(&second, "label"), "node 2: row 2 = 1");
    for alone in ["?panel=1&together=no&keys=RR", "?panel=1&keys=tRR"] {
        let one = dom(&browser, &path, alone);
        assert_eq!(text_of(&one, "label-1"), "node 2: row 2 = 3", "{alone}");
        assert_eq!(text_of(&one, "label"), "node 0: root", "{alone}");
        assert!(one.contains("data-together=\"no\""), "{alone}");
    }
    // Each panel on its own scale; `g` puts them on one (the smaller), and zooming in step
    // zooms both.
    let own = dom(&browser, &path, "?panel=1");
    let one_scale = dom(&browser, &path, "?panel=1&keys=g");
    assert!(state(&one_scale, "scale") <= state(&own, "scale") + 1e-4);
    assert!(
        (state(&one_scale, "scale") - state(&shown, "scale").min(state(&own, "scale"))).abs()
            < 1e-3
    );
    let zoomed = dom(&browser, &path, "?panel=1&keys=%2B");
    assert!((state(&zoomed, "scale") / state(&own, "scale") - 1.25).abs() < 0.01);

    // More runs than fit on a page are refused before any search.
    let refused = Command::new(env!("CARGO_BIN_EXE_cspkit"))
        .args(["compare", "queens", "6", "--tree", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("at most 4 runs"));
}

#[test]
fn a_hundred_thousand_node_tree_opens_and_reports_its_load_time() {
    let Some(browser) = browser_or_skip("a 100,000-node page in Chromium") else {
        return;
    };
    let path = page(
        "queens10-big.html",
        &[
            "queens",
            "10",
            "--count",
            "--propagation",
            "none",
            "--tree-limit",
            "100000",
        ],
    );
    let shown = dom(&browser, &path, "");
    assert!(shown.contains("the first 100000 of 626671 tree nodes"));
    // It opens on a readable picture: most of it collapsed or folded.
    assert!(state(&shown, "visible") < 1000.0);
    readable_at_open(&shown, "100,000 nodes");
    // Expanded, every node is there.
    let all = dom(&browser, &path, "?keys=e");
    assert_eq!(state(&all, "visible"), 100_000.0);
    assert!(state(&all, "drawn") > 1000.0);
    let load = state(&shown, "loadms");
    // The figure is reported, not judged: a guard against a page that hangs, no benchmark.
    eprintln!("a 100,000-node page opened in {load} ms (to the first drawing, in Chromium)");
    assert!(load < 30_000.0, "{load} ms");
    // The overview covers the whole search, the nodes beyond the limit included.
    assert!(shown.contains("\"total\":626671"));
}

#[test]
fn a_models_array_board_shows_its_constants_and_candidates() {
    let Some(browser) = browser_or_skip("a model's array board in Chromium") else {
        return;
    };
    // An output array of two variables around a constant: a given number of a puzzle.
    let model = Path::new(env!("CARGO_TARGET_TMPDIR")).join("html-page-array.fzn");
    std::fs::write(
        &model,
        "var 1..2: a;\nvar 1..2: b;\n\
         array [1..3] of var int: x :: output_array([1..3]) = [a, 7, b];\n\
         constraint int_ne(a, b);\nsolve satisfy;\n",
    )
    .unwrap();
    let path = page(
        "array.html",
        &["fzn", model.to_str().unwrap(), "--propagation", "none"],
    );
    let root = dom(&browser, &path, "");
    assert!(root.contains("<td class=\"value given\">7</td>"), "{root}");
    // At the root, both variables are open: their candidates.
    assert_eq!(root.matches("class=\"candidates").count(), 2, "{root}");
}

/// The label boxes the page measured (`x0,y0,x1,y1;…`, CSS pixels on the canvas).
fn label_boxes(dom: &str) -> Vec<[f64; 4]> {
    let key = "data-boxes=\"";
    let at = dom.find(key).expect("the body lists its label boxes") + key.len();
    let list = &dom[at..at + dom[at..].find('"').unwrap()];
    list.split(';')
        .filter(|b| !b.is_empty())
        .map(|b| {
            let v: Vec<f64> = b.split(',').map(|x| x.parse().unwrap()).collect();
            [v[0], v[1], v[2], v[3]]
        })
        .collect()
}

/// The page as it opens is readable from the back of a room: every node on the screen has
/// its label, in text of at least 18 px, no two label boxes overlap (checked here on the
/// boxes, not taken from the page's own count), and the tree lies inside its canvas.
fn readable_at_open(dom: &str, what: &str) {
    assert!(state(dom, "labelpx") >= 18.0, "{what}");
    let drawn = state(dom, "drawn");
    assert!(drawn >= 2.0, "{what}: {drawn} nodes drawn");
    assert_eq!(
        state(dom, "unlabelled"),
        0.0,
        "{what}: nodes drawn without a label"
    );
    assert_eq!(state(dom, "labels"), drawn, "{what}");
    let boxes = label_boxes(dom);
    assert!(boxes.len() as f64 >= drawn, "{what}: {} boxes", boxes.len());
    for b in &boxes {
        // A line of 18 px text is at least 18 px high.
        assert!(b[3] - b[1] >= 18.0 && b[2] > b[0], "{what}: box {b:?}");
    }
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            let apart = a[2] <= b[0] || b[2] <= a[0] || a[3] <= b[1] || b[3] <= a[1];
            assert!(apart, "{what}: labels overlap: {a:?} and {b:?}");
        }
    }
    assert_eq!(state(dom, "overlaps"), 0.0, "{what}");
    let (width, height) = (state(dom, "cw"), state(dom, "ch"));
    for b in &boxes {
        let inside = b[0] >= 0.0 && b[1] >= 0.0 && b[2] <= width && b[3] <= height;
        assert!(
            inside,
            "{what}: label box {b:?} outside the {width} x {height} canvas"
        );
    }
    inside_canvas(dom, what);
}

/// The tree's extent on the screen lies inside the canvas.
fn inside_canvas(dom: &str, what: &str) {
    let (width, height) = (state(dom, "cw"), state(dom, "ch"));
    assert!(
        state(dom, "left") >= 0.0,
        "{what}: left {}",
        state(dom, "left")
    );
    assert!(
        state(dom, "right") <= width,
        "{what}: right {} > {width}",
        state(dom, "right")
    );
    assert!(
        state(dom, "top") >= -1.0,
        "{what}: top {}",
        state(dom, "top")
    );
    assert!(
        state(dom, "bottom") <= height,
        "{what}: bottom {} > {height}",
        state(dom, "bottom")
    );
}

#[test]
fn every_page_opens_readable_with_labels_that_do_not_overlap() {
    let Some(browser) = browser_or_skip("readable pages in Chromium") else {
        return;
    };
    // 61 nodes: the whole tree, nothing collapsed.
    let small = page(
        "readable-61.html",
        &[
            "queens",
            "4",
            "--count",
            "--branching",
            "dway",
            "--propagation",
            "none",
        ],
    );
    let open = dom(&browser, &small, "");
    assert_eq!(state(&open, "visible"), 61.0);
    assert_eq!(state(&open, "collapsed"), 0.0);
    readable_at_open(&open, "61 nodes");

    // 877 nodes: failed subtrees in counted triangles, the path to the solution open.
    let queens = page(
        "readable-877.html",
        &[
            "queens",
            "8",
            "--branching",
            "dway",
            "--propagation",
            "none",
        ],
    );
    let open = dom(&browser, &queens, "");
    assert!(open.contains("(877 tree nodes)"));
    assert!(state(&open, "collapsed") > 0.0);
    readable_at_open(&open, "877 nodes");
    // Going to the first solution opens nothing: its path is drawn.
    let solution = dom(&browser, &queens, "?keys=s");
    assert!(text_of(&solution, "status").starts_with("solution"));
    assert_eq!(state(&solution, "visible"), state(&open, "visible"));
    assert_eq!(state(&solution, "collapsed"), state(&open, "collapsed"));

    // 2,644 nodes, 256 levels of binary branching (Sudoku 2239 without propagation): the
    // path folded in its middle, the rest readable.
    let puzzle = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/sudoku/2239.txt");
    let sudoku = page(
        "readable-sudoku.html",
        &["sudoku", puzzle.to_str().unwrap(), "--propagation", "none"],
    );
    let open = dom(&browser, &sudoku, "");
    assert!(open.contains("(2644 tree nodes)"));
    assert!(state(&open, "folded") > 0.0);
    readable_at_open(&open, "2,644 nodes");
    // The solution is on the screen, at the end of the folded path.
    let solution = dom(&browser, &sudoku, "?keys=s");
    assert_eq!(state(&solution, "folded"), state(&open, "folded"));

    // 100,000 nodes: in a_hundred_thousand_node_tree_opens_and_reports_its_load_time.
}

#[test]
fn collapsing_and_expanding_fit_the_tree_again() {
    let Some(browser) = browser_or_skip("refit after collapse in Chromium") else {
        return;
    };
    let path = page(
        "refit-877.html",
        &[
            "queens",
            "8",
            "--branching",
            "dway",
            "--propagation",
            "none",
        ],
    );
    let open = dom(&browser, &path, "");
    let opened = state(&open, "visible");
    for keys in ["x", "e", "xe", "ex", "ec", "xDc", "er"] {
        let shown = dom(&browser, &path, &format!("?keys={keys}"));
        inside_canvas(&shown, keys);
        // Labels never overlap, even when most are left out.
        assert_eq!(state(&shown, "overlaps"), 0.0, "{keys}");
    }
    // `e` brings every node back, `r` the readable picture the page opened on.
    assert_eq!(state(&dom(&browser, &path, "?keys=e"), "visible"), 877.0);
    assert_eq!(state(&dom(&browser, &path, "?keys=er"), "visible"), opened);
    // Zoomed in, `x` fits the tree again.
    let zoomed = dom(&browser, &path, "?keys=%2B%2B%2Bx");
    inside_canvas(&zoomed, "+++x");
}

/// Where two trees part: the matched nodes, and the first differing child in each.
type Parting = ((u64, u64), Option<u64>, Option<u64>);

/// The first node (in search order) where two recorded trees part: the deepest node both
/// reach by the same decisions whose children differ, with the first differing child in each
/// tree (`None` when that tree has no child there).
fn first_parting(a: &SearchTree<'_>, b: &SearchTree<'_>) -> Option<Parting> {
    let mut stack = vec![(0u64, 0u64)];
    while let Some((u, v)) = stack.pop() {
        let (ka, kb) = (
            &a.nodes()[u as usize].children,
            &b.nodes()[v as usize].children,
        );
        let branch = |t: &SearchTree<'_>, k: u64| t.nodes()[k as usize].branch;
        let mut at = 0;
        while at < ka.len() && at < kb.len() && branch(a, ka[at]) == branch(b, kb[at]) {
            at += 1;
        }
        if at < ka.len().max(kb.len())
            || a.nodes()[u as usize].status != b.nodes()[v as usize].status
        {
            return Some(((u, v), ka.get(at).copied(), kb.get(at).copied()));
        }
        for i in (0..ka.len()).rev() {
            stack.push((ka[i], kb[i]));
        }
    }
    None
}

#[test]
fn a_comparison_page_names_where_the_searches_part() {
    let Some(browser) = browser_or_skip("the divergences of a comparison page in Chromium") else {
        return;
    };
    let path = page(
        "compare-partings.html",
        &[
            "compare",
            "queens",
            "6",
            "--var-order",
            "input",
            "--value-order",
            "asc",
            "--branching",
            "dway",
            "--propagation",
            "none,forward",
        ],
    );
    // The same two searches, recorded through the library.
    let queens = Queens::new(6).unwrap();
    let record = |level| {
        let mut tree = SearchTree::new(queens.model()).with_domains(true);
        let mut solver = queens
            .model()
            .solver()
            .with_propagation(level)
            .with_branching(Branching::DWay)
            .with_observer(&mut tree);
        let _ = solver.next_solution();
        drop(solver);
        tree
    };
    let (none, forward) = (
        record(PropagationLevel::None),
        record(PropagationLevel::Forward),
    );
    let ((u, v), a, b) = first_parting(&none, &forward).expect("the searches differ");
    let (a, b) = (
        a.expect("a child in the first"),
        b.expect("a child in the second"),
    );
    let shown = dom(&browser, &path, "");
    let said = first_sentence(&shown);
    assert!(said.contains("first part"), "{said}");
    assert_eq!(u, v);
    for part in [
        format!("after {} (node {u})", none.label(u)),
        format!("none → {} (node {a})", none.label(a)),
        format!("forward → {} (node {b})", forward.label(b)),
    ] {
        assert!(said.contains(&part), "{part:?} not in {said:?}");
    }
    // The ring marks the first parting in the panel shown.
    assert_eq!(state(&shown, "diverge"), a as f64);
    // The list: every divergence, largest first, each naming its nodes; `d` goes to the first
    // of the list in every panel.
    let count = state(&shown, "divergences");
    assert!(count >= 1.0);
    let list = &shown[shown.find("id=\"divergence-list\"").expect("a list")..];
    let items: Vec<&str> = list.split("<li ").skip(1).collect();
    assert_eq!(items.len() as f64, count.min(50.0));
    let sizes: Vec<u64> = items
        .iter()
        .map(|item| {
            let text = &item[item.find('>').unwrap() + 1..item.find("</li>").unwrap()];
            let tail = text.rsplit(" — ").next().unwrap();
            tail.trim_end_matches(" nodes below").parse().unwrap()
        })
        .collect();
    assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "{sizes:?}");
    let nodes = |item: &str| -> Vec<u64> {
        let at = item.find("data-nodes=\"").unwrap() + 12;
        item[at..at + item[at..].find('"').unwrap()]
            .split(',')
            .map(|x| x.parse().unwrap())
            .collect()
    };
    let jumped = dom(&browser, &path, "?keys=d");
    let target = nodes(items[0]);
    assert_eq!(selected(&jumped), target[0]);
    assert_eq!(
        text_of(&jumped, "label-1").split(':').next().unwrap(),
        format!("node {}", target[1])
    );
    assert_eq!(state(&jumped, "diverge"), target[0] as f64);
}

/// The text of the first divergence, tags removed.
fn first_sentence(dom: &str) -> String {
    let at = dom.find("id=\"divergence-first\"").unwrap();
    let end = dom[at..].find("</p>").unwrap() + at;
    let mut out = String::new();
    let mut inside = false;
    for c in dom[at..end].chars() {
        match c {
            '<' => inside = true,
            '>' => inside = false,
            c if !inside => out.push(c),
            _ => {}
        }
    }
    out.replace("&amp;", "&")
}

#[test]
fn four_panels_share_the_page_in_a_grid() {
    let Some(browser) = browser_or_skip("four panels in Chromium") else {
        return;
    };
    let path = page(
        "compare-four.html",
        &[
            "compare",
            "queens",
            "6",
            "--var-order",
            "input",
            "--value-order",
            "asc,desc",
            "--propagation",
            "none,forward",
        ],
    );
    let shown = dom(&browser, &path, "");
    assert!(shown.contains("id=\"panel-3\""));
    // Two columns: each canvas about half the page wide, far more than a speck.
    assert!(
        state(&shown, "cw") > 500.0 && state(&shown, "ch") > 100.0,
        "{} x {}",
        state(&shown, "cw"),
        state(&shown, "ch")
    );
    // The boards are folded away, shown with `b`.
    assert!(shown.contains("class=\"no-boards\""));
    assert!(!dom(&browser, &path, "?keys=b").contains("class=\"no-boards\""));
}

#[test]
fn every_panel_of_a_comparison_page_opens_readable() {
    let Some(browser) = browser_or_skip("the panels of a comparison page in Chromium") else {
        return;
    };
    // 8-Queens by plain backtracking (877 tree nodes) beside forward checking (89), each
    // panel about half the page wide: rows of failed leaves up to 8 wide under the path.
    let path = page(
        "compare8-readable.html",
        &[
            "compare",
            "queens",
            "8",
            "--var-order",
            "input",
            "--value-order",
            "asc",
            "--branching",
            "dway",
            "--propagation",
            "none,fc",
        ],
    );
    for panel in 0..2 {
        // The body describes the active panel: each one in turn, checked on its boxes.
        let shown = dom(&browser, &path, &format!("?panel={panel}"));
        assert_eq!(state(&shown, "active"), panel as f64);
        readable_at_open(&shown, &format!("compare 8-Queens, panel {panel}"));
        assert!(
            state(&shown, "scale") >= 1.0,
            "panel {panel} at scale {}",
            state(&shown, "scale")
        );
        // The per-panel summary agrees: no panel has a node without its label, overlapping
        // labels, or a label reaching out of its canvas.
        let key = "data-panels=\"";
        let at = shown.find(key).expect("the body sums up each panel") + key.len();
        let list = &shown[at..at + shown[at..].find('"').unwrap()];
        let rows: Vec<&str> = list.split(';').collect();
        assert_eq!(rows.len(), 2, "{list}");
        for row in rows {
            assert!(row.starts_with("0,0,0,"), "{list}");
        }
    }
}

#[test]
fn runs_of_failed_leaves_open_as_one_counted_mark() {
    let Some(browser) = browser_or_skip("runs of failed leaves in Chromium") else {
        return;
    };
    // a = 1 … 39 each fail at once (a >= 40): 39 failed leaves side by side under the root,
    // far wider than the canvas at 18 px labels; then a = 40, b = 1, the solution.
    let model = Path::new(env!("CARGO_TARGET_TMPDIR")).join("html-page-wide.fzn");
    std::fs::write(
        &model,
        "var 1..40: a :: output_var;\nvar 1..40: b :: output_var;\n\
         constraint int_lin_eq([1, 1], [a, b], 41);\nconstraint int_le(40, a);\n\
         solve satisfy;\n",
    )
    .unwrap();
    let path = page(
        "wide.html",
        &[
            "fzn",
            model.to_str().unwrap(),
            "--propagation",
            "none",
            "--branching",
            "dway",
        ],
    );
    let shown = dom(&browser, &path, "");
    // The root, one mark for the 39 failures, a = 40 and b = 1: every one labelled.
    assert_eq!(state(&shown, "visible"), 4.0);
    readable_at_open(&shown, "39 failed leaves");
    assert!(state(&shown, "scale") >= 1.0);
    // Selecting a failure inside the mark opens it; the arrows walk through the leaves.
    let first = dom(&browser, &path, "?keys=R");
    assert_eq!(selected(&first), 1);
    assert_eq!(state(&first, "visible"), 42.0);
    let third = dom(&browser, &path, "?keys=RRR");
    assert_eq!(selected(&third), 3);
    assert!(text_of(&third, "label").contains("a = 3"));
    // Expanding everything opens it; the readable view (`r`) closes it again.
    assert_eq!(state(&dom(&browser, &path, "?keys=e"), "visible"), 42.0);
    assert_eq!(state(&dom(&browser, &path, "?keys=er"), "visible"), 4.0);
}

/// The backjumps of 6-Queens with textbook forward checking, as the page is made from it.
fn queens_backjumps(queens: &Queens) -> SearchTree<'_> {
    let mut tree = SearchTree::new(queens.model()).with_domains(true);
    let _ = queens
        .model()
        .solver()
        .with_propagation(cspkit::Propagation::TextbookForward)
        .with_backjumping(true)
        .with_observer(&mut tree)
        .count();
    tree
}

#[test]
fn a_backjump_is_marked_at_its_failure_with_the_levels_it_skipped() {
    let Some(browser) = browser_or_skip("the backjumps of a tree in Chromium") else {
        return;
    };
    let args = ["queens", "6", "--count", "--propagation", "fc"];
    let mut jumping = args.to_vec();
    jumping.push("--backjump");
    let path = page("queens6-backjump.html", &jumping);
    let queens = Queens::new(6).unwrap();
    let tree = queens_backjumps(&queens);
    let model = queens.model();
    let jumps: Vec<_> = tree
        .backjumps()
        .iter()
        .filter(|j| !j.skipped.is_empty())
        .collect();
    assert!(!jumps.is_empty(), "6-Queens with forward checking jumps");
    // Each jump goes back to a decision on the deepest variable of its conflict set, and
    // jumps over decisions between it and the failure, none on a variable of the set.
    for jump in &jumps {
        let to = jump.to.expect("a decision to go back to");
        let var = |v: u64| tree.nodes()[v as usize].branch.unwrap().var;
        assert_eq!(var(to), *jump.conflict.last().unwrap());
        for &s in &jump.skipped {
            assert!(
                s > to && s <= jump.node,
                "{s} between {to} and {}",
                jump.node
            );
            assert!(!jump.conflict.contains(&var(s)));
        }
    }
    let all = dom(&browser, &path, "?keys=e");
    assert_eq!(state(&all, "backjumps"), jumps.len() as f64);
    assert!(
        all.contains("id=\"legend\""),
        "the legend explains the marks"
    );
    let jump = jumps[0];
    let shown = dom(&browser, &path, &format!("#node={}", jump.node));
    assert_eq!(selected(&shown), jump.node);
    // The failed node: its conflict set in the model's names, the decision gone back to,
    // the decisions jumped over; its arc drawn, the skipped decisions in grey.
    let names: Vec<String> = jump
        .conflict
        .iter()
        .map(|&v| model.var_name(v).into_owned())
        .collect();
    let notes = text_of(&shown, "notes");
    assert!(
        notes.contains(&format!("conflict set {{{}}}", names.join(", "))),
        "{notes}"
    );
    assert!(
        notes.contains(&format!("back to {}", tree.label(jump.to.unwrap()))),
        "{notes}"
    );
    assert!(notes.contains(&tree.label(jump.skipped[0])), "{notes}");
    assert!(
        notes.contains("had nothing to do with the failure"),
        "{notes}"
    );
    assert!(state(&shown, "jumparcs") >= 1.0);
    assert!(state(&shown, "greyed") >= jump.skipped.len() as f64);
    // A decision jumped over says so.
    let skipped = dom(&browser, &path, &format!("#node={}", jump.skipped[0]));
    assert!(text_of(&skipped, "notes").contains(&format!(
        "jumped over by the backjump from node {}",
        jump.node
    )));
    // Without backjumping: no marks, no legend.
    let plain = dom(&browser, &page("queens6-plain.html", &args), "?keys=e");
    assert_eq!(state(&plain, "backjumps"), 0.0);
    assert_eq!(state(&plain, "greyed"), 0.0);
    assert!(!plain.contains("id=\"legend\""));
}

#[test]
fn each_learned_nogood_is_shown_at_its_failure_and_the_most_used_are_listed() {
    let Some(browser) = browser_or_skip("the learned nogoods of a tree in Chromium") else {
        return;
    };
    let path = page("queens8-learn.html", &["queens", "8", "--count", "--learn"]);
    let queens = Queens::new(8).unwrap();
    let model = queens.model();
    // As the command line searches: forward checking.
    let mut tree = SearchTree::new(model).with_domains(true);
    let _ = model
        .solver()
        .with_propagation(cspkit::Propagation::Forward)
        .with_learning(true)
        .with_observer(&mut tree)
        .count();
    let words = |mark: &cspkit::teach::tree::LearnedMark| -> Vec<String> {
        mark.nogood
            .iter()
            .map(|l| format!("{} {} {}", model.var_name(l.var()), l.operator(), l.value()))
            .collect()
    };
    // The nogood learned at a failure the page draws, in the model's names, with its uses.
    let mark = tree
        .learned()
        .iter()
        .find(|m| m.uses() > 0 && (m.node as usize) < tree.nodes().len())
        .expect("a nogood used later, learned at a recorded node");
    let shown = dom(&browser, &path, &format!("#node={}", mark.node));
    assert_eq!(selected(&shown), mark.node);
    let notes = text_of(&shown, "notes");
    let names = words(mark);
    assert!(
        notes.contains(&format!(
            "learned: never {} with {}",
            names[0],
            names[1..].join(", ")
        )),
        "{notes}"
    );
    assert!(
        notes.contains(&format!("removed {} value", mark.removals)),
        "{notes}"
    );
    // The list: the most used first, as many as the page lists.
    let page_text = dom(&browser, &path, "");
    let list = &page_text[page_text
        .find("id=\"nogoods\"")
        .expect("the list of nogoods")..];
    let list = &list[..list.find("</ol>").unwrap()];
    let most = tree.learned().iter().map(|m| m.uses()).max().unwrap();
    let first = list.split("<li").nth(1).expect("an item");
    assert!(
        first.contains(&format!(
            "removed {}",
            tree.learned()
                .iter()
                .find(|m| m.uses() == most)
                .unwrap()
                .removals
        )),
        "{first}"
    );
    assert!(list.matches("<li").count() <= 20);
    assert!(list.contains(&format!("of {} learned", tree.learned().len())));
    // Without learning: no list.
    let plain = dom(
        &browser,
        &page("queens8-plain.html", &["queens", "8", "--count"]),
        "",
    );
    assert!(!plain.contains("id=\"nogoods\""));
}

#[test]
fn a_large_tree_with_backjumps_opens_fast_and_bounds_its_arcs() {
    let Some(browser) = browser_or_skip("a large tree with backjumps in Chromium") else {
        return;
    };
    let path = page(
        "queens11-backjump.html",
        &[
            "queens",
            "11",
            "--count",
            "--propagation",
            "fc",
            "--backjump",
            "--tree-limit",
            "100000",
        ],
    );
    let shown = dom(&browser, &path, "?keys=e");
    assert_eq!(state(&shown, "visible"), 100_000.0);
    assert!(state(&shown, "backjumps") > 100.0);
    // Zoomed out to the whole tree the arcs are left out; the selected failure's is drawn.
    assert!(state(&shown, "jumparcs") <= 300.0);
    let load = state(&shown, "loadms");
    eprintln!("a 100,000-node page with backjumps opened in {load} ms");
    assert!(load < 30_000.0, "{load} ms");
    readable_at_open(&dom(&browser, &path, ""), "100,000 nodes with backjumps");
}
