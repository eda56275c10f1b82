//! `--learn`: the same answers as the plain search, its counts in `--stats`, each learned
//! nogood in `--trace` in the model's names, and its refusal of AC-3.

use crate::support::{cspkit, stat, text};
use std::process::Command;

#[test]
fn learning_counts_the_same_queens_in_a_smaller_tree() {
    let plain = cspkit(&["queens", "8", "--count", "--stats"]);
    let learning = cspkit(&["queens", "8", "--count", "--stats", "--learn"]);
    assert!(plain.status.success() && learning.status.success());
    // 92 solutions: the number of eight-queens placements (Gauss, Nauck).
    assert_eq!(text(&plain.stdout).trim(), "92");
    assert_eq!(text(&learning.stdout).trim(), "92");
    let (plain, learning) = (text(&plain.stderr), text(&learning.stderr));
    assert!(stat(&learning, "tree nodes ") < stat(&plain, "tree nodes "));
    let learned = stat(&learning, "nogoods learned ");
    assert!(learned > 0, "{learning}");
    assert!(stat(&learning, "conflicts ") >= learned);
}

#[test]
fn the_trace_prints_each_nogood_in_the_models_names() {
    let out = cspkit(&["queens", "6", "--learn", "--trace"]);
    assert!(out.status.success());
    let trace = text(&out.stdout) + &text(&out.stderr);
    let line = trace
        .lines()
        .find(|l| l.contains("learned: never "))
        .unwrap_or_else(|| panic!("no learned nogood in {trace}"));
    assert!(line.contains("row "), "{line}");
}

#[test]
fn learning_refuses_ac3() {
    let out = cspkit(&["queens", "6", "--learn", "--propagation", "ac3"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("--learn"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn fzn_cspkit_accepts_learn_and_no_learn() {
    let model = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/pigeonhole_4_into_3.fzn"
    );
    for flag in ["--learn", "--no-learn"] {
        let out = Command::new(env!("CARGO_BIN_EXE_fzn-cspkit"))
            .args([flag, model])
            .output()
            .expect("fzn-cspkit runs");
        assert!(
            text(&out.stdout).contains("=====UNSATISFIABLE====="),
            "{flag}"
        );
    }
}

#[test]
fn the_activity_order_counts_the_same_queens() {
    let input = cspkit(&["queens", "8", "--count", "--stats", "--learn"]);
    for learn in [true, false] {
        let mut args = vec![
            "queens",
            "8",
            "--count",
            "--stats",
            "--var-order",
            "activity",
        ];
        if learn {
            args.push("--learn");
        }
        let out = cspkit(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(text(&out.stdout).trim(), "92", "learn {learn}");
        let stats = text(&out.stderr);
        assert!(stats.contains("activity"), "learn {learn}: {stats}");
        if learn {
            // The order follows the nogoods: another tree than the input order's.
            assert_ne!(
                stat(&stats, "tree nodes "),
                stat(&text(&input.stderr), "tree nodes "),
                "{stats}"
            );
        }
    }
}
