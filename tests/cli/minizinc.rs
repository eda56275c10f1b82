//! The MiniZinc models of `tests/mzn/`, solved through `minizinc --solver cspkit` and through
//! Gecode's FlatZinc solver: the same satisfiability, the same set of solutions under `-a`
//! for satisfaction problems, the same optimum for optimisation problems, whose cspkit
//! solution Gecode then re-solves with every variable fixed to it.
//!
//! Needs Debian's `minizinc` package (it brings `fzn-gecode`). Without it the tests say that
//! they skipped; with `CSPKIT_REQUIRE_MINIZINC=1` (set by `.ci/run`) they fail instead.
//!
//! Gecode runs with MiniZinc's standard library (its own solver library in Debian's package
//! does not match MiniZinc 2.6's), through a configuration written here.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The directory of the solver configurations, or why the tests cannot run.
fn solvers() -> Option<&'static PathBuf> {
    static DIR: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let found = |program: &str| {
            Command::new("sh")
                .arg("-c")
                .arg(format!("command -v {program}"))
                .output()
                .ok()
                .filter(|o| o.status.success())
                .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        };
        let (Some(_), Some(gecode)) = (found("minizinc"), found("fzn-gecode")) else {
            return Err("minizinc or fzn-gecode not found (Debian package `minizinc`)".into());
        };
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("minizinc-solvers");
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let install = Command::new(env!("CARGO_BIN_EXE_fzn-cspkit"))
            .arg("--install-msc")
            .arg(&dir)
            .output()
            .map_err(|e| e.to_string())?;
        if !install.status.success() {
            return Err(format!(
                "fzn-cspkit --install-msc failed: {}",
                String::from_utf8_lossy(&install.stderr)
            ));
        }
        let gecode_msc = format!(
            r#"{{"id": "org.cspkit.test.gecode", "name": "gecode-std", "version": "6",
"executable": "{gecode}", "tags": ["cp", "int"],
"stdFlags": ["-a", "-f", "-n", "-p", "-r", "-s", "-t"],
"supportsMzn": false, "supportsFzn": true, "needsSolns2Out": true}}"#
        );
        std::fs::write(dir.join("gecode-std.msc"), gecode_msc).map_err(|e| e.to_string())?;
        Ok(dir)
    });
    match dir {
        Ok(dir) => Some(dir),
        Err(why) if std::env::var_os("CSPKIT_REQUIRE_MINIZINC").is_some() => {
            panic!("CSPKIT_REQUIRE_MINIZINC is set, but: {why}")
        }
        Err(why) => {
            crate::common::skipped(&format!(
                "the MiniZinc tests need minizinc and Gecode: {why}"
            ));
            None
        }
    }
}

/// What a solver printed: the solutions (each block of dzn lines) and the final status line.
#[derive(Debug, PartialEq)]
struct Run {
    solutions: Vec<String>,
    status: String,
}

/// Runs `minizinc --solver SOLVER` on `model` (a path or, with `text`, a model written to a
/// file first) with `flags`.
fn minizinc(dir: &Path, solver: &str, model: &Path, flags: &[&str]) -> Run {
    let output = Command::new("minizinc")
        .env("MZN_SOLVER_PATH", dir)
        .args([
            "--solver",
            solver,
            "--output-mode",
            "dzn",
            "--output-objective",
        ])
        .args(flags)
        .arg(model)
        .output()
        .expect("minizinc runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() || stdout.contains("UNSATISFIABLE"),
        "{solver} on {}: {}\n{stdout}",
        model.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    let mut solutions = Vec::new();
    let mut block = String::new();
    let mut status = String::new();
    for line in stdout.lines() {
        match line {
            "----------" => solutions.push(std::mem::take(&mut block)),
            "==========" | "=====UNSATISFIABLE=====" | "=====UNKNOWN=====" => {
                status = line.to_owned();
            }
            _ if line.starts_with('%') => {}
            _ => {
                block.push_str(line);
                block.push('\n');
            }
        }
    }
    Run { solutions, status }
}

fn models() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("mzn");
    let mut models: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/mzn")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "mzn"))
        .collect();
    models.sort();
    models
}

fn is_optimisation(model: &Path) -> bool {
    let text = std::fs::read_to_string(model).expect("a model");
    text.contains("minimize") || text.contains("maximize")
}

#[test]
fn satisfaction_models_have_the_same_solutions_as_with_gecode() {
    let Some(dir) = solvers() else { return };
    let mut checked = 0;
    for model in models().iter().filter(|m| !is_optimisation(m)) {
        let ours = minizinc(dir, "cspkit", model, &["-a"]);
        let theirs = minizinc(dir, "gecode-std", model, &["-a"]);
        let name = model.display();
        assert_eq!(ours.status, theirs.status, "{name}");
        let (a, b): (BTreeSet<_>, BTreeSet<_>) = (
            ours.solutions.iter().collect(),
            theirs.solutions.iter().collect(),
        );
        assert_eq!(
            a.len(),
            ours.solutions.len(),
            "{name}: a solution printed twice"
        );
        assert_eq!(a, b, "{name}: the solutions differ");
        // The first solution alone (no -a): one solution, the search not reported complete
        // unless it was the only one.
        let first = minizinc(dir, "cspkit", model, &[]);
        assert!(
            first.solutions.len() <= 1
                && (first.solutions.is_empty() || a.contains(&first.solutions[0])),
            "{name}"
        );
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} satisfaction models");
}

#[test]
fn optimisation_models_reach_gecodes_optimum_with_a_valid_solution() {
    let Some(dir) = solvers() else { return };
    let mut checked = 0;
    for model in models().iter().filter(|m| is_optimisation(m)) {
        let name = model.display();
        let ours = minizinc(dir, "cspkit", model, &[]);
        let theirs = minizinc(dir, "gecode-std", model, &[]);
        assert_eq!(ours.status, "==========", "{name}: not proved optimal");
        assert_eq!(theirs.status, "==========", "{name}: Gecode did not finish");
        let objective = |run: &Run| {
            run.solutions.last().and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("_objective"))
                    .map(str::to_owned)
            })
        };
        assert_eq!(objective(&ours), objective(&theirs), "{name}");
        // Every solution cspkit reports with -a (each improving one, the last optimal), fixed
        // in the model: Gecode must accept it, with the objective cspkit printed.
        let all = minizinc(dir, "cspkit", model, &["-a"]);
        assert_eq!(objective(&all), objective(&ours), "{name}");
        for (k, solution) in all.solutions.iter().enumerate() {
            let mut text = std::fs::read_to_string(model).expect("the model");
            // The solution is dzn: one `name = value;` statement per variable (a 2-d array
            // over several lines); each becomes a constraint.
            for statement in solution.split(';').map(str::trim) {
                if !statement.is_empty() && !statement.starts_with('_') {
                    text.push_str(&format!("\nconstraint {statement};"));
                }
            }
            let fixed = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
                "fixed-{k}-{}",
                model.file_name().expect("a file name").to_string_lossy()
            ));
            std::fs::write(&fixed, text).expect("a scratch file");
            let check = minizinc(dir, "gecode-std", &fixed, &[]);
            assert_eq!(
                check.solutions.len(),
                1,
                "{name}: Gecode rejects cspkit's {solution}"
            );
            let value = |s: &str| {
                s.lines()
                    .find(|l| l.starts_with("_objective"))
                    .map(str::to_owned)
            };
            assert_eq!(
                value(&check.solutions[0]),
                value(solution),
                "{name}: {solution}"
            );
        }
        checked += 1;
    }
    assert!(checked >= 4, "only {checked} optimisation models");
}

#[test]
fn standard_flags_pass_through_minizinc() {
    let Some(dir) = solvers() else { return };
    let queens = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mzn/queens.mzn");
    assert_eq!(
        minizinc(dir, "cspkit", &queens, &["-n", "5"])
            .solutions
            .len(),
        5
    );
    let free = minizinc(dir, "cspkit", &queens, &["-a", "-f", "-s"]);
    assert_eq!(
        (free.solutions.len(), free.status.as_str()),
        (92, "==========")
    );
    let timed = minizinc(
        dir,
        "cspkit",
        &queens,
        &["-t", "10000", "-r", "3", "-p", "1"],
    );
    assert_eq!(timed.solutions.len(), 1);
}

#[test]
fn the_maximum_and_minimum_of_an_array_reach_cspkit_whole() {
    let Some(dir) = solvers() else { return };
    let model = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mzn/extremes.mzn");
    let fzn = Path::new(env!("CARGO_TARGET_TMPDIR")).join("extremes.fzn");
    let output = Command::new("minizinc")
        .env("MZN_SOLVER_PATH", dir)
        .args(["--solver", "cspkit", "-c", "--fzn"])
        .arg(&fzn)
        .arg(&model)
        .output()
        .expect("minizinc runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(&fzn).expect("the FlatZinc");
    let constraints: Vec<&str> = text
        .lines()
        .filter_map(|line| line.strip_prefix("constraint "))
        .map(|c| c.split('(').next().unwrap_or(c))
        .collect();
    // One constraint each over the whole array, not a chain of binary max/min.
    for name in ["array_int_maximum", "array_int_minimum"] {
        assert_eq!(
            constraints.iter().filter(|&&c| c == name).count(),
            1,
            "{name} in {constraints:?}"
        );
    }
    assert!(
        !constraints.contains(&"int_max") && !constraints.contains(&"int_min"),
        "{constraints:?}"
    );
}
