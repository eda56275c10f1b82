//! `--tree FILE.svg` as a slide: the picture has the slide's size (16:9 by default,
//! `--tree-size WxH` to choose), every text is at least 18 units high at that size, no two
//! texts overlap (boxes estimated from the characters, 0.6 em each), and the drawn nodes and
//! the counts of the collapsed triangles and boxes add up to the search's tree nodes, as the
//! search counts them (`--stats`).

use std::path::Path;
use std::process::Command;

/// Runs cspkit with `args` and `--tree` into `name`, with `--stats`; returns the picture and
/// the search's tree nodes.
fn slide(name: &str, args: &[&str]) -> (String, u64) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("svg-slide");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let output = Command::new(env!("CARGO_BIN_EXE_cspkit"))
        .args(args)
        .args(["--stats", "--tree", path.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let all = format!("{}{stderr}", String::from_utf8_lossy(&output.stdout));
    let nodes = all
        .split("tree nodes ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no tree nodes in the stats: {all}"));
    (std::fs::read_to_string(&path).unwrap(), nodes)
}

/// The value of attribute `name` in the tag starting `tag`.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let len = tag[start..].find('"')?;
    Some(&tag[start..start + len])
}

fn number(tag: &str, name: &str) -> f64 {
    attr(tag, name)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no number {name} in {tag}"))
}

/// One text of the picture: its box, its size, and its characters.
#[derive(Debug)]
struct Label {
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
    size: f64,
    text: String,
}

fn labels(svg: &str) -> Vec<Label> {
    svg.split("<text")
        .skip(1)
        .map(|rest| {
            let end = rest.find('>').unwrap();
            let tag = &rest[..end];
            let content = &rest[end + 1..rest.find("</text>").unwrap()];
            let text = content
                .replace("&amp;", "&")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&#39;", "'");
            let (x, y, size) = (number(tag, "x"), number(tag, "y"), number(tag, "font-size"));
            let width = text.chars().count() as f64 * size * 0.6;
            let (left, right) = match attr(tag, "text-anchor") {
                Some("middle") => (x - width / 2.0, x + width / 2.0),
                Some("end") => (x - width, x),
                _ => (x, x + width),
            };
            Label {
                left,
                right,
                top: y - 0.8 * size,
                bottom: y + 0.2 * size,
                size,
                text,
            }
        })
        .collect()
}

/// Checks the picture against a slide of `width` × `height` and the search's `nodes`; returns
/// the number of triangles and boxes.
fn check(svg: &str, width: f64, height: f64, nodes: u64) -> usize {
    let root = &svg[..svg.find('>').unwrap()];
    assert_eq!(number(root, "width"), width);
    assert_eq!(number(root, "height"), height);
    let view: Vec<f64> = attr(root, "viewBox")
        .unwrap()
        .split(' ')
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(view[..2], [0.0, 0.0]);
    // The view box has the slide's proportions, so that it fills the slide.
    assert!(
        (view[2] / view[3] - width / height).abs() < 0.01,
        "{view:?} against {width}x{height}"
    );
    let scale = width / view[2];
    let texts = labels(svg);
    assert!(!texts.is_empty());
    for t in &texts {
        assert!(
            t.size * scale >= 18.0 - 1e-9,
            "{:?} is drawn {:.1} units high",
            t.text,
            t.size * scale
        );
        assert!(
            t.left >= 0.0 && t.right <= view[2] && t.top >= 0.0 && t.bottom <= view[3],
            "{t:?} is outside the picture {view:?}"
        );
    }
    for (i, a) in texts.iter().enumerate() {
        for b in &texts[i + 1..] {
            let apart =
                a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
            assert!(apart, "{a:?} overlaps {b:?}");
        }
    }
    let drawn: u64 = svg
        .split(" data-nodes=\"")
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap()].parse::<u64>().unwrap())
        .sum();
    assert_eq!(drawn, nodes, "the drawing stands for {drawn} tree nodes");
    svg.matches("<g class=\"collapsed").count() + svg.matches("<g class=\"chain\"").count()
}

#[test]
fn the_61_node_tree_of_4_queens_fits_a_slide_whole() {
    let (svg, nodes) = slide(
        "q4.svg",
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
    assert_eq!(nodes, 61);
    assert_eq!(check(&svg, 1920.0, 1080.0, nodes), 0, "nothing collapsed");
    assert_eq!(svg.matches("class=\"node solution\"").count(), 2);
}

#[test]
fn the_877_node_backtracking_of_8_queens_keeps_the_path_to_its_solution() {
    let args = [
        "queens",
        "8",
        "--branching",
        "dway",
        "--propagation",
        "none",
    ];
    let (svg, nodes) = slide("q8.svg", &args);
    assert_eq!(nodes, 877);
    assert!(
        check(&svg, 1920.0, 1080.0, nodes) > 0,
        "some subtrees collapsed"
    );
    // The solution and the eight decisions that lead to it are drawn.
    assert_eq!(svg.matches("class=\"node solution\"").count(), 1);
    // At a projector's size too.
    let mut small = args.to_vec();
    small.extend(["--tree-size", "1280x720"]);
    let (svg, nodes) = slide("q8-small.svg", &small);
    check(&svg, 1280.0, 720.0, nodes);
    assert_eq!(svg.matches("class=\"node solution\"").count(), 1);
}

#[test]
fn a_sudoku_without_propagation_is_not_a_diagonal_line() {
    let sudoku = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/sudoku/2239.txt");
    let (svg, nodes) = slide("sudoku.svg", &["sudoku", sudoku, "--propagation", "none"]);
    assert!(nodes > 2000, "{nodes}");
    assert!(check(&svg, 1920.0, 1080.0, nodes) > 0);
    assert_eq!(svg.matches("class=\"node solution\"").count(), 1);
    // Binary branching drawn d-way: the values tried for a cell are siblings.
    let (svg, nodes) = slide(
        "sudoku-4x3.svg",
        &[
            "sudoku",
            sudoku,
            "--propagation",
            "none",
            "--tree-size",
            "800x600",
        ],
    );
    check(&svg, 800.0, 600.0, nodes);
}

#[test]
fn a_bad_tree_size_is_named() {
    for bad in ["0x5", "abc", "1920x", "320x180"] {
        let output = Command::new(env!("CARGO_BIN_EXE_cspkit"))
            .args(["queens", "4", "--tree-size", bad, "--tree", "never.svg"])
            .output()
            .unwrap();
        assert!(!output.status.success());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(&format!("'{bad}'")), "{stderr}");
        assert!(stderr.contains("--tree-size"), "{stderr}");
        assert!(!Path::new("never.svg").exists());
    }
    // A size with no picture to give it to is a usage error, not silently ignored.
    let output = Command::new(env!("CARGO_BIN_EXE_cspkit"))
        .args(["queens", "4", "--tree-size", "800x600"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--tree <FILE>"));
}
