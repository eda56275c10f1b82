//! `cspkit mzn` and the teaching options of `cspkit fzn`: a MiniZinc model traced and drawn in
//! its own names, with the decisions of the same puzzle written in Rust; the strategy options
//! in place of the annotations; `compare` and `--step` on a model.
//!
//! The tests that compile MiniZinc need `minizinc` (Debian's package): without it they say that
//! they skipped; with `CSPKIT_REQUIRE_MINIZINC=1` (set by `.ci/run`) they fail instead.

use std::path::Path;
use std::process::{Command, Output, Stdio};

#[allow(dead_code, reason = "the example's main is not called here")]
#[path = "../../examples/futoshiki.rs"]
mod futoshiki;

use cspkit::PropagationLevel;
use cspkit::teach::trace::Trace;

/// Whether `minizinc` can be run; if not, says that the test skipped (or fails, if required).
pub(crate) fn has_minizinc(test: &str) -> bool {
    let found = Command::new("minizinc")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        assert!(
            std::env::var_os("CSPKIT_REQUIRE_MINIZINC").is_none(),
            "CSPKIT_REQUIRE_MINIZINC is set, but minizinc is not found"
        );
        crate::common::skipped(&format!(
            "{test} needs minizinc (Debian package `minizinc`)"
        ));
    }
    found
}

fn sample(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("samples")
        .join("minizinc")
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

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The decisions of a trace: its lines `x = v` and `x ≠ v` with their indentation, without the
/// values propagation fixed, and without what failed (the constraints' names differ).
fn decisions(trace: &str) -> Vec<&str> {
    trace
        .lines()
        .filter(|l| {
            let l = l.trim_start();
            l.starts_with("x[") && !l.contains("(only value left")
        })
        .map(|l| l.split(" ✗").next().unwrap_or(l))
        .collect()
}

/// The trace of the Rust model of the same Futoshiki, at `level`.
fn rust_trace(level: PropagationLevel) -> String {
    let (model, _) = futoshiki::futoshiki(&futoshiki::GIVEN, &futoshiki::LESS).unwrap();
    let mut trace = Trace::new(&model, Vec::new()).with_limit(usize::MAX);
    let mut solver = model
        .solver()
        .with_propagation(level)
        .with_observer(&mut trace);
    assert!(solver.next_solution().solution().is_some());
    drop(solver);
    trace.finish().unwrap();
    String::from_utf8(trace.writer_mut().clone()).unwrap()
}

#[test]
fn a_minizinc_model_is_traced_in_its_names_with_the_decisions_of_the_same_model_in_rust() {
    if !has_minizinc("the trace of futoshiki.mzn") {
        return;
    }
    let (model, data) = (sample("futoshiki.mzn"), sample("futoshiki.dzn"));
    for level in ["forward", "full", "none"] {
        let run = cspkit(&[
            "mzn",
            &model,
            &data,
            "--propagation",
            level,
            "--trace",
            "--trace-limit",
            "1000000",
        ]);
        let out = text(&run.stdout);
        assert!(run.status.success(), "{}", text(&run.stderr));
        let rust = rust_trace(level.parse().unwrap());
        let (ours, theirs) = (decisions(&out), decisions(&rust));
        assert!(!ours.is_empty() || level == "full", "{out}");
        assert_eq!(ours, theirs, "{level}: MiniZinc's decisions against Rust's");
        assert!(!out.contains("X_INTRODUCED"), "{out}");
        // The model's own output item writes the solution, as Gecode's run prints it.
        assert!(out.contains("3 5 6 2 4 1\n1 2 5 4 3 6\n"), "{out}");
    }
    // At forward checking the signs fail nodes, named by where they are in the model.
    let run = cspkit(&["mzn", &model, &data, "--propagation", "forward", "--trace"]);
    let out = text(&run.stdout);
    assert!(out.contains("✗ '<' (futoshiki.mzn:19, k=4)"), "{out}");
    assert!(
        out.contains("(only value left, all_different (futoshiki.mzn:16, i=1))"),
        "{out}"
    );
}

#[test]
fn introduced_variables_are_named_after_where_the_model_makes_them() {
    if !has_minizinc("the names of queens.mzn") {
        return;
    }
    let run = cspkit(&[
        "mzn",
        &sample("queens.mzn"),
        &sample("queens.dzn"),
        "--trace",
        "--trace-limit",
        "3",
    ]);
    let out = text(&run.stdout);
    assert!(run.status.success(), "{}", text(&run.stderr));
    // q[i] + i, for i = 1, in the all_different of line 10.
    assert!(
        out.contains(
            "all_different@10[i=1] = 2 (only value left, '+' in all_different (queens.mzn:10, i=1))"
        ),
        "{out}"
    );
}

#[test]
fn the_page_of_a_minizinc_model_draws_its_output_array_as_a_grid() {
    if !has_minizinc("the page of futoshiki.mzn") {
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mzn-page");
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("futoshiki.html");
    let run = cspkit(&[
        "mzn",
        &sample("futoshiki.mzn"),
        &sample("futoshiki.dzn"),
        "--propagation",
        "forward",
        "--tree",
        page.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("\"board\":{\"kind\":\"arrays\",\"arrays\":[{\"name\":\"x\",\"columns\":6,")
    );
    assert!(html.contains("\"x[6,6]\""));
    // The given numbers are constants of the array, drawn as such: row 2 gives a 3 in column 5.
    assert!(
        html.contains("\"constants\":[null,null,null,null,null,null,null,null,null,null,3,null,")
    );
    assert!(!html.contains("X_INTRODUCED"));
}

#[test]
fn compare_gives_the_strategy_table_of_a_minizinc_model() {
    if !has_minizinc("compare futoshiki.mzn") {
        return;
    }
    let run = cspkit(&[
        "compare",
        &sample("futoshiki.mzn"),
        &sample("futoshiki.dzn"),
        "--var-order",
        "input",
        "--value-order",
        "asc",
        "--propagation",
        "forward,full",
        "--format",
        "csv",
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let out = text(&run.stdout);
    let rows: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{out}");
    // The forward row makes the decisions its trace shows.
    let traced = cspkit(&[
        "mzn",
        &sample("futoshiki.mzn"),
        &sample("futoshiki.dzn"),
        "--propagation",
        "forward",
        "--trace",
        "--trace-limit",
        "100000",
    ]);
    let lefts = decisions(&text(&traced.stdout))
        .iter()
        .filter(|l| !l.contains('≠'))
        .count();
    assert!(
        rows[0].starts_with(&format!("input,asc,forward,assign,{lefts},")),
        "{out}"
    );
    // A FlatZinc model takes no data.
    let refused = cspkit(&["compare", &sample("queens8.fzn"), &sample("queens.dzn")]);
    assert_eq!(refused.status.code(), Some(2));
}

#[test]
fn cspkit_mzn_without_minizinc_says_what_is_missing() {
    let empty = Path::new(env!("CARGO_TARGET_TMPDIR")).join("no-programs");
    std::fs::create_dir_all(&empty).unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_cspkit"))
        .env("PATH", &empty)
        .args(["mzn", &sample("queens.mzn"), &sample("queens.dzn")])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let stderr = text(&run.stderr);
    assert!(
        stderr.contains("needs MiniZinc's compiler, `minizinc`, on the PATH"),
        "{stderr}"
    );
    let missing = cspkit(&["mzn", "no-such-model.mzn"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing.stderr).contains("cannot read no-such-model.mzn"));
}

#[test]
fn strategy_options_replace_a_models_search_annotations() {
    let model = sample("queens8.fzn");
    let annotated = cspkit(&["fzn", &model, "--stats"]);
    assert!(annotated.status.success());
    assert!(text(&annotated.stdout).starts_with("q = array1d(1..8, [1, 5, 8, 6, 3, 7, 2, 4]);"));
    assert!(
        text(&annotated.stderr)
            .contains("strategy: var-order annotations, value-order annotations, propagation full"),
        "{}",
        text(&annotated.stderr)
    );
    // The largest value first: the mirror image of the first placement.
    let descending = cspkit(&["fzn", &model, "--value-order", "desc", "--stats=csv"]);
    assert!(descending.status.success());
    assert!(
        text(&descending.stdout).starts_with("q = array1d(1..8, [8, 4, 1, 3, 6, 2, 7, 5]);"),
        "{}",
        text(&descending.stdout)
    );
    let stats = text(&descending.stderr);
    assert!(stats.contains("annotations,desc,full,assign,"), "{stats}");
    // -f and --var-order both replace the annotations.
    let both = cspkit(&["fzn", &model, "-f", "--var-order", "mrv"]);
    assert_eq!(both.status.code(), Some(2));
    // A limit in decisions stops the search, as for the built-in puzzles.
    let limited = cspkit(&[
        "fzn",
        &model,
        "--decision-limit",
        "2",
        "--propagation",
        "none",
    ]);
    assert_eq!(limited.status.code(), Some(3));
    assert!(text(&limited.stdout).contains("=====UNKNOWN====="));
}

#[test]
fn stepping_through_a_flatzinc_model_shows_its_output_array_with_candidates() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cspkit"))
        .args(["fzn", &sample("queens8.fzn"), "--step"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write as _;
        let mut input = child.stdin.take().unwrap();
        input.write_all(b"\n\nq\n").unwrap();
    }
    let run = child.wait_with_output().unwrap();
    assert_eq!(run.status.code(), Some(3), "{}", text(&run.stderr));
    let out = text(&run.stdout);
    // The root's board: every queen open; then q[1] = 1 and its consequences.
    assert!(out.contains("q:\n"), "{out}");
    assert!(out.contains("{1..8}"), "{out}");
    assert!(out.contains("q[1] = 1"), "{out}");
    assert!(out.contains("  1 {3..8} {2, 4..8}"), "{out}");
}

#[test]
fn min_conflicts_solves_a_flatzinc_model_and_never_calls_it_unsatisfiable() {
    for seed in ["1", "2", "3", "4"] {
        let run = cspkit(&[
            "fzn",
            &sample("queens8.fzn"),
            "--local-search",
            "min-conflicts",
            "--seed",
            seed,
        ]);
        assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
        let out = text(&run.stdout);
        // q = array1d(1..8, [..]);: eight queens, no two in a column or on a diagonal.
        let inside = out
            .split('[')
            .nth(1)
            .and_then(|rest| rest.split(']').next())
            .unwrap_or_else(|| panic!("{out}"));
        let q: Vec<i64> = inside.split(", ").map(|v| v.parse().unwrap()).collect();
        assert_eq!(q.len(), 8, "{out}");
        for i in 0..8 {
            for j in i + 1..8 {
                assert_ne!(q[i], q[j], "{out}");
                assert_ne!((q[i] - q[j]).abs(), (j - i) as i64, "{out}");
            }
        }
    }
    // Two variables, x < y and y < x: no solution, which local search cannot know.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mzn-local");
    std::fs::create_dir_all(&dir).unwrap();
    let model = dir.join("cycle.fzn");
    std::fs::write(
        &model,
        "var 1..3: x :: output_var;\nvar 1..3: y :: output_var;\n\
         constraint int_lt(x, y);\nconstraint int_lt(y, x);\nsolve satisfy;\n",
    )
    .unwrap();
    let run = cspkit(&[
        "fzn",
        model.to_str().unwrap(),
        "--local-search",
        "min-conflicts",
        "--max-steps",
        "500",
    ]);
    assert_eq!(run.status.code(), Some(3));
    assert!(!text(&run.stdout).contains("UNSATISFIABLE"));
    assert!(text(&run.stderr).contains("no solution found in 500 steps"));
}

#[test]
fn ac3_runs_on_a_minizinc_model_of_binary_constraints() {
    if !has_minizinc("AC-3 on futoshiki.mzn") {
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mzn-ac3");
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("ac3.html");
    let run = cspkit(&[
        "mzn",
        &sample("futoshiki.mzn"),
        &sample("futoshiki.dzn"),
        "--propagation",
        "ac3",
        "--stats",
        "--ac3-page",
        page.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert!(text(&run.stdout).contains("3 5 6 2 4 1\n"));
    let stats = text(&run.stderr);
    assert!(stats.contains("propagation ac3"), "{stats}");
    assert!(stats.contains("arc revisions "), "{stats}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("x[1,1]"));
}

#[test]
fn cspkit_mzn_prints_set_variables_as_sets() {
    if !has_minizinc("the sets of sets.mzn") {
        return;
    }
    let model = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mzn/sets.mzn");
    // In the FlatZinc format: the model's output item would print them by MiniZinc's rules.
    let run = cspkit(&["mzn", &model.display().to_string(), "--fzn-output"]);
    let out = text(&run.stdout);
    assert_eq!(run.status.code(), Some(0), "{out}");
    // MiniZinc's booleans for the elements stay inside: s and t are printed as sets.
    assert!(!out.contains("X_INTRODUCED"), "{out}");
    let set = |name: &str| -> Vec<i32> {
        let line = out
            .lines()
            .find_map(|line| line.strip_prefix(&format!("{name} = {{")))
            .unwrap_or_else(|| panic!("no set {name}: {out}"));
        let inner = line.strip_suffix("};").unwrap();
        inner
            .split(',')
            .filter(|e| !e.is_empty())
            .map(|e| e.parse().unwrap())
            .collect()
    };
    let (s, t) = (set("s"), set("t"));
    // card(s) = 2, 3 in s, 1 not in s, s and t disjoint, card(t) <= 2.
    assert!(s.len() == 2 && s.contains(&3) && !s.contains(&1), "{out}");
    assert!(t.len() <= 2 && t.iter().all(|e| !s.contains(e)), "{out}");
}

#[test]
fn compiling_a_model_writes_nothing_beside_it() {
    if !has_minizinc("compiling_a_model_writes_nothing_beside_it") {
        return;
    }
    // MiniZinc's symbol table (`--keep-paths`) went to MODEL.paths, beside the user's model.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mzn-beside");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["queens.mzn", "queens.dzn"] {
        std::fs::copy(sample(name), dir.join(name)).unwrap();
    }
    let model = dir.join("queens.mzn").display().to_string();
    let data = dir.join("queens.dzn").display().to_string();
    let out = cspkit(&["mzn", &model, &data]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("----------"));
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files, ["queens.dzn", "queens.mzn"]);
}
