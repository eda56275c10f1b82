//! `--backjump`: the same answers as chronological backtracking, its counts in `--stats`, its
//! conflict sets and jumps in `--trace`, in the model's names, and its refusal of AC-3.

use crate::support::{cspkit, stat, text};

#[test]
fn backjumping_counts_the_same_solutions_in_fewer_decisions() {
    for propagation in ["none", "fc", "forward"] {
        let plain = cspkit(&[
            "queens",
            "8",
            "--count",
            "--stats",
            "--propagation",
            propagation,
        ]);
        let jumping = cspkit(&[
            "queens",
            "8",
            "--count",
            "--stats",
            "--backjump",
            "--propagation",
            propagation,
        ]);
        assert!(plain.status.success() && jumping.status.success());
        assert_eq!(text(&plain.stdout), text(&jumping.stdout), "{propagation}");
        assert!(text(&jumping.stdout).contains("92"), "{propagation}");
        let (plain, jumping) = (text(&plain.stderr), text(&jumping.stderr));
        assert!(jumping.contains("backjumping"), "{jumping}");
        assert!(
            stat(&jumping, "decisions") <= stat(&plain, "decisions"),
            "{propagation}: {jumping} against {plain}"
        );
        assert!(stat(&jumping, "levels skipped") >= stat(&jumping, "backjumps"));
    }
}

#[test]
fn the_trace_prints_conflict_sets_and_jumps_in_the_models_names() {
    let out = cspkit(&[
        "queens",
        "8",
        "--propagation",
        "fc",
        "--branching",
        "dway",
        "--backjump",
        "--trace",
    ]);
    assert!(out.status.success());
    let trace = text(&out.stdout);
    assert!(trace.contains("↩ conflict set {row 1"), "{trace}");
    let jump = trace
        .lines()
        .find(|line| line.contains(": back to row "))
        .unwrap_or_else(|| panic!("no jump in {trace}"));
    assert!(jump.contains("nothing to do with it"), "{jump}");
}

#[test]
fn backjumping_refuses_ac3() {
    let out = cspkit(&["colour", "australia", "--propagation", "ac3", "--backjump"]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("--backjump") && stderr.contains("ac3"),
        "{stderr}"
    );
}
