//! Runs that stop before the end of their search: `fzn-cspkit` stopped by a signal or by
//! `-n N` on an optimisation, and `cspkit mzn` stopped while MiniZinc compiles. What was found
//! is printed whole, and nothing is left behind.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use cspkit::flatzinc::{self, Options, Status};

/// One variable over 0..=10^8 maximised with the smallest value first: one improving solution
/// after another, 10^8 of them, far too many to finish.
const CLIMB: &str = "var 0..100000000: x :: output_var;\n\
                     solve :: int_search([x], input_order, indomain_min, complete) maximize x;\n";

/// Writes `text` into a file of the tests' folder named `name`.
fn write(name: &str, text: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Waits for `child` to end, reading its standard output; kills it and fails if it runs for
/// more than 20 s (a hang, not a timing).
fn finish(mut child: Child) -> (String, Option<i32>) {
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running after 20 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    (reader.join().unwrap(), status.code())
}

/// Sends `signal` (`TERM`, `INT`) to `child`.
fn signal(child: &Child, signal: &str) {
    let sent = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(sent.success());
}

/// The values of x in the solutions printed, each checked to be a whole solution.
fn solutions_of(out: &str) -> Vec<i64> {
    let body = out.split("%%%mzn-stat").next().unwrap();
    let mut values = Vec::new();
    for block in body.split_terminator("----------\n") {
        let value = block
            .strip_prefix("x = ")
            .and_then(|rest| rest.strip_suffix(";\n"))
            .unwrap_or_else(|| panic!("not a whole solution: {block:?} in {out}"));
        values.push(value.parse().unwrap());
    }
    values
}

#[cfg(unix)]
#[test]
fn a_signal_stops_an_optimisation_which_prints_its_best_solution_and_statistics() {
    let model = write("climb.fzn", CLIMB);
    for (sig, all) in [("TERM", false), ("INT", false), ("TERM", true)] {
        let mut command = Command::new(env!("CARGO_BIN_EXE_fzn-cspkit"));
        command.arg("-s").arg("--no-lns");
        if all {
            command.arg("-a");
        }
        let child = command.arg(&model).stdout(Stdio::piped()).spawn().unwrap();
        // Long enough for the program to be searching.
        std::thread::sleep(Duration::from_secs(1));
        signal(&child, sig);
        let (out, code) = finish(child);
        let values = solutions_of(&out);
        // A solution found and not proved optimal: no `==========`, exit code 0.
        assert_eq!(code, Some(0), "SIG{sig}, -a {all}: {out}");
        assert!(!out.contains("=========="), "{out}");
        assert!(
            out.contains("%%%mzn-stat: solutions=") && out.ends_with("%%%mzn-stat-end\n"),
            "SIG{sig}, -a {all}: {out}"
        );
        if all {
            // Every improving solution, in order, each whole.
            assert!(values.len() > 1, "{out}");
            assert!(values.windows(2).all(|w| w[0] + 1 == w[1]), "{out}");
        } else {
            // The best one.
            assert_eq!(values.len(), 1, "SIG{sig}: {out}");
            assert!(values[0] > 0, "{out}");
        }
    }
}

#[test]
fn n_improving_solutions_end_an_optimisation_each_printed_as_found() {
    let model = write("climb-n.fzn", CLIMB);
    let child = Command::new(env!("CARGO_BIN_EXE_fzn-cspkit"))
        .args(["-n", "3"])
        .arg(&model)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let (out, code) = finish(child);
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(solutions_of(&out), [0, 1, 2], "{out}");
    assert!(!out.contains("=========="), "{out}");
}

#[test]
fn a_one_variable_objective_is_proved_at_its_first_solution() {
    // Without annotations: free search gives the objective its best value first.
    for (goal, best) in [("maximize", 100_000_000), ("minimize", 0)] {
        let text = format!("var 0..100000000: x :: output_var;\nsolve {goal} x;\n");
        let model = flatzinc::build(&flatzinc::parse(&text).unwrap()).unwrap();
        let options = Options {
            statistics: true,
            // Generous: only a hang reaches it.
            time_limit: Some(Duration::from_secs(20)),
            ..Options::default()
        };
        let mut out = Vec::new();
        let status = flatzinc::run(&model, &options, &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert_eq!(status, Status::Complete, "{out}");
        assert!(
            out.starts_with(&format!("x = {best};\n----------\n==========\n")),
            "{out}"
        );
        assert!(out.contains("%%%mzn-stat: solutions=1\n"), "{out}");
    }
}

/// The processes whose command line mentions `needle` (Linux: read from `/proc`).
#[cfg(target_os = "linux")]
fn processes_mentioning(needle: &str) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if let Ok(command) = std::fs::read(entry.path().join("cmdline"))
            && String::from_utf8_lossy(&command).contains(needle)
        {
            found.push(pid);
        }
    }
    found
}

#[cfg(target_os = "linux")]
#[test]
fn cspkit_mzn_stopped_while_minizinc_compiles_leaves_neither_minizinc_nor_its_folder() {
    if !crate::mzn::has_minizinc("a compilation stopped by a signal") {
        return;
    }
    // Millions of constraints: minizinc compiles it for many seconds.
    let model = write(
        "slow-to-compile-queens.mzn",
        "int: n = 4000;\narray[1..n] of var 1..n: q;\n\
         constraint forall(i, j in 1..n where i < j)\
         (q[i] != q[j] /\\ q[i] + i != q[j] + j /\\ q[i] - i != q[j] - j);\n\
         solve satisfy;\n",
    );
    let needle = model.display().to_string();
    for sig in ["TERM", "INT"] {
        let child = Command::new(env!("CARGO_BIN_EXE_cspkit"))
            .arg("mzn")
            .arg(&model)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let id = child.id();
        // Until minizinc runs.
        let started = Instant::now();
        while !processes_mentioning(&needle).iter().any(|&pid| pid != id) {
            assert!(started.elapsed() < Duration::from_secs(20), "no minizinc");
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(200));
        signal(&child, sig);
        let (_, code) = finish(child);
        // The child is reaped before cspkit ends.
        let left = processes_mentioning(&needle);
        for &pid in &left {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
        }
        assert!(left.is_empty(), "SIG{sig}: minizinc left running: {left:?}");
        assert_eq!(code, Some(3), "SIG{sig}: stopped, not failed");
        let prefix = format!("cspkit-mzn-{id}-");
        let folders: Vec<_> = std::fs::read_dir(std::env::temp_dir())
            .unwrap()
            .flatten()
            .filter(|entry| entry.file_name().to_string_lossy().starts_with(&prefix))
            .collect();
        assert!(folders.is_empty(), "SIG{sig}: left behind: {folders:?}");
    }
}

#[test]
fn a_directory_given_as_a_model_is_named_as_one() {
    let dir = env!("CARGO_TARGET_TMPDIR");
    for (program, args) in [
        (env!("CARGO_BIN_EXE_cspkit"), vec!["fzn", dir]),
        (env!("CARGO_BIN_EXE_fzn-cspkit"), vec![dir]),
        (env!("CARGO_BIN_EXE_cspkit"), vec!["mzn", dir]),
    ] {
        let run = Command::new(program).args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(&format!("cannot read {dir}: it is a directory")),
            "{args:?}: {stderr}"
        );
    }
}
