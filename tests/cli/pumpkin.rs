//! cspkit's proofs against certified ones: small random models, each solved by `fzn-cspkit`
//! and by Pumpkin (`pumpkin-solver`, a lazy clause generation solver), whose proof of
//! unsatisfiability or of the optimum (DRCP) is then verified by `pumpkin-checker`. Where the
//! checker accepts Pumpkin's proof, cspkit must agree with it: the same unsatisfiability, the
//! same optimum. Every solution cspkit prints is also checked against the model here.
//!
//! Pumpkin's checker reads only linear equalities and inequalities, all-different and
//! cumulative, so the models are made of linear constraints and all-different; each is written
//! twice, with all-different under Pumpkin's name and under MiniZinc's standard one.
//!
//! Needs `pumpkin-solver` and `pumpkin-checker` 0.5 (`bench/minizinc-challenge/install-pumpkin.sh`
//! installs both from crates.io). Without them the tests say that they skipped; with
//! `CSPKIT_REQUIRE_PUMPKIN=1` (set by `.ci/run`) they fail instead.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::common::output_within;

/// A small seeded generator (SplitMix64), so that every run draws the same models.
struct SplitMix64(u64);

impl SplitMix64 {
    fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    fn below(&mut self, bound: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % bound
    }
}

/// Longer than this, a run on one of these small models counts as a hang.
const PATIENCE: Duration = Duration::from_secs(60);

/// The two programs of Pumpkin, or why the tests cannot run.
fn pumpkin() -> Option<(PathBuf, PathBuf)> {
    let find = |program: &str| -> Option<PathBuf> {
        let on_path = Command::new("sh")
            .arg("-c")
            .arg(format!("command -v {program}"))
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
        on_path.or_else(|| {
            let home = std::env::var_os("CARGO_HOME")
                .map(PathBuf::from)
                .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")))?;
            Some(home.join("bin").join(program)).filter(|p| p.is_file())
        })
    };
    match (find("pumpkin-solver"), find("pumpkin-checker")) {
        (Some(solver), Some(checker)) => Some((solver, checker)),
        _ if std::env::var_os("CSPKIT_REQUIRE_PUMPKIN").is_some() => {
            panic!(
                "CSPKIT_REQUIRE_PUMPKIN is set, but pumpkin-solver or pumpkin-checker is missing"
            )
        }
        _ => {
            crate::common::skipped(
                "the Pumpkin cross-checks need pumpkin-solver and pumpkin-checker \
                 (bench/minizinc-challenge/install-pumpkin.sh)",
            );
            None
        }
    }
}

/// `sum(coefficients[i] * vars[i]) <= bound` (or `= bound`).
#[derive(Debug, Clone)]
struct Linear {
    terms: Vec<(i32, usize)>,
    equality: bool,
    bound: i32,
}

/// A random model: variables over `1..=size`, linear constraints, perhaps one all-different,
/// perhaps an objective (a linear sum to minimise).
#[derive(Debug, Clone)]
struct RandomModel {
    vars: usize,
    size: i32,
    linear: Vec<Linear>,
    all_different: Option<Vec<usize>>,
    objective: Option<Vec<(i32, usize)>>,
}

impl RandomModel {
    fn draw(random: &mut SplitMix64) -> RandomModel {
        let vars = 3 + random.below(4) as usize;
        let size = 2 + random.below(3) as i32;
        let pick = |random: &mut SplitMix64| random.below(vars as u64) as usize;
        let coefficient = |random: &mut SplitMix64| {
            let c = 1 + random.below(3) as i32;
            if random.below(3) == 0 { -c } else { c }
        };
        let linear = (0..1 + random.below(3))
            .map(|_| {
                let terms: Vec<(i32, usize)> = (0..2 + random.below(2))
                    .map(|_| (coefficient(random), pick(random)))
                    .collect();
                // A bound around the middle of the sum's range, so that some models have no
                // solution and most have some.
                let middle: i32 = terms.iter().map(|&(c, _)| c * (size + 1) / 2).sum();
                Linear {
                    terms,
                    equality: random.below(4) == 0,
                    bound: middle + random.below(5) as i32 - 3,
                }
            })
            .collect();
        let all_different = (random.below(3) != 0).then(|| {
            let mut scope: Vec<usize> = (0..vars).filter(|_| random.below(3) != 0).collect();
            if scope.len() < 2 {
                scope = vec![0, 1];
            }
            scope
        });
        let objective =
            (random.below(2) == 0).then(|| (0..vars).map(|v| (coefficient(random), v)).collect());
        RandomModel {
            vars,
            size,
            linear,
            all_different,
            objective,
        }
    }

    /// The model in FlatZinc, all-different under the name `all_different`.
    fn flatzinc(&self, all_different: &str) -> String {
        let mut text = String::new();
        for v in 0..self.vars {
            writeln!(text, "var 1..{}: x{v} :: output_var;", self.size).unwrap();
        }
        let objective_range = self.objective.as_ref().map(|terms| {
            let reach = |c: i32| [c, c * self.size];
            let low: i32 = terms
                .iter()
                .map(|&(c, _)| reach(c)[0].min(reach(c)[1]))
                .sum();
            let high: i32 = terms
                .iter()
                .map(|&(c, _)| reach(c)[0].max(reach(c)[1]))
                .sum();
            (low, high)
        });
        if let Some((low, high)) = objective_range {
            writeln!(text, "var {low}..{high}: obj :: output_var;").unwrap();
        }
        let list = |terms: &[(i32, usize)]| {
            let coefficients: Vec<String> = terms.iter().map(|(c, _)| c.to_string()).collect();
            let vars: Vec<String> = terms.iter().map(|(_, v)| format!("x{v}")).collect();
            (coefficients.join(","), vars.join(","))
        };
        for linear in &self.linear {
            let (coefficients, vars) = list(&linear.terms);
            let name = if linear.equality {
                "int_lin_eq"
            } else {
                "int_lin_le"
            };
            writeln!(
                text,
                "constraint {name}([{coefficients}],[{vars}],{});",
                linear.bound
            )
            .unwrap();
        }
        if let Some(scope) = &self.all_different {
            let vars: Vec<String> = scope.iter().map(|v| format!("x{v}")).collect();
            writeln!(text, "constraint {all_different}([{}]);", vars.join(",")).unwrap();
        }
        match &self.objective {
            Some(terms) => {
                let (coefficients, vars) = list(terms);
                writeln!(
                    text,
                    "constraint int_lin_eq([{coefficients},-1],[{vars},obj],0);"
                )
                .unwrap();
                text.push_str("solve minimize obj;\n");
            }
            None => text.push_str("solve satisfy;\n"),
        }
        text
    }

    fn satisfied_by(&self, values: &[i32]) -> bool {
        let sum =
            |terms: &[(i32, usize)]| -> i32 { terms.iter().map(|&(c, v)| c * values[v]).sum() };
        let linear = self.linear.iter().all(|l| {
            let s = sum(&l.terms);
            if l.equality {
                s == l.bound
            } else {
                s <= l.bound
            }
        });
        let distinct = self.all_different.as_ref().is_none_or(|scope| {
            scope
                .iter()
                .enumerate()
                .all(|(i, &a)| scope[i + 1..].iter().all(|&b| values[a] != values[b]))
        });
        linear && distinct && values.iter().all(|&v| (1..=self.size).contains(&v))
    }

    fn objective_of(&self, values: &[i32]) -> Option<i32> {
        self.objective
            .as_ref()
            .map(|terms| terms.iter().map(|&(c, v)| c * values[v]).sum())
    }
}

/// What a solver concluded: no solution, or the last solution and whether its search completed.
#[derive(Debug, PartialEq)]
enum Answer {
    Unsatisfiable,
    Solved { values: Vec<i32>, complete: bool },
}

/// Reads the FlatZinc output of a solver: `x0 = 3;` lines, `----------`, `==========`.
fn answer(stdout: &str, vars: usize) -> Answer {
    if stdout.contains("=====UNSATISFIABLE=====") {
        return Answer::Unsatisfiable;
    }
    let mut values = vec![0; vars];
    let mut last = None;
    for line in stdout.lines() {
        if line == "----------" {
            last = Some(values.clone());
        } else if let Some((name, value)) = line.trim_end_matches(';').split_once(" = ")
            && let Some(index) = name.strip_prefix('x').and_then(|i| i.parse::<usize>().ok())
        {
            values[index] = value.parse().expect("an integer value");
        }
    }
    let values = last.unwrap_or_else(|| panic!("no solution and no UNSATISFIABLE in:\n{stdout}"));
    Answer::Solved {
        values,
        complete: stdout.contains("=========="),
    }
}

/// What Pumpkin's proof concludes, once the checker has accepted it: unsatisfiable, or the
/// objective bound it proves (`obj >= value`, for a minimisation).
#[derive(Debug, PartialEq)]
enum Conclusion {
    Unsatisfiable,
    AtLeast(i32),
}

fn conclusion(proof: &str) -> Conclusion {
    let last = proof
        .lines()
        .rev()
        .find(|l| l.starts_with("c "))
        .unwrap_or_else(|| panic!("no conclusion in the proof:\n{proof}"));
    let claim = &last[2..];
    if claim == "UNSAT" {
        return Conclusion::Unsatisfiable;
    }
    // `c -30`: the negation of atomic 30, declared as `a 30 [obj <= 12]` (or the conclusion
    // names the bound directly, `c [obj >= 13]`).
    let atomic = match claim.parse::<i64>() {
        Ok(id) => {
            let prefix = format!("a {} ", id.abs());
            let declared = proof
                .lines()
                .find_map(|l| l.strip_prefix(&prefix))
                .unwrap_or_else(|| panic!("atomic {id} is not declared in the proof"));
            (declared.to_owned(), id < 0)
        }
        Err(_) => (claim.to_owned(), false),
    };
    let (text, negated) = atomic;
    let inner = text.trim().trim_start_matches('[').trim_end_matches(']');
    let mut parts = inner.split_whitespace();
    let (name, operator, value) = (parts.next(), parts.next(), parts.next());
    assert_eq!(name, Some("obj"), "a conclusion about {inner}");
    let value: i32 = value.and_then(|v| v.parse().ok()).expect("a bound");
    match (operator, negated) {
        (Some(">="), false) => Conclusion::AtLeast(value),
        (Some("<="), true) => Conclusion::AtLeast(value + 1),
        other => panic!("an unexpected conclusion {other:?} in {inner}"),
    }
}

/// Runs a program on a model within [`PATIENCE`]; returns its standard output. (`fzn-cspkit`
/// ends with a non-zero code on a model without solution.)
fn run(command: &mut Command, what: &str) -> String {
    let bounded = output_within(command, PATIENCE);
    assert!(
        !bounded.timed_out,
        "{what}: still running after {PATIENCE:?}"
    );
    let output = bounded.output;
    assert!(
        output.status.success()
            || String::from_utf8_lossy(&output.stdout).contains("=====UNSATISFIABLE====="),
        "{what}: {}\n{}",
        String::from_utf8_lossy(&output.stderr),
        String::from_utf8_lossy(&output.stdout)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// `cases` random models, each solved by Pumpkin with a checked proof and by `fzn-cspkit` with
/// `flags`; returns how many were unsatisfiable and how many optimisations.
fn agree_with_checked_proofs(seed: u64, cases: usize, flags: &[&str]) -> (usize, usize) {
    let Some((solver, checker)) = pumpkin() else {
        return (0, 0);
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("pumpkin-{seed}"));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let mut random = SplitMix64::new(seed);
    let (mut unsatisfiable, mut optimised) = (0, 0);
    for case in 0..cases {
        let model = RandomModel::draw(&mut random);
        let theirs = dir.join(format!("{case}-pumpkin.fzn"));
        let ours = dir.join(format!("{case}-cspkit.fzn"));
        let proof = dir.join(format!("{case}.drcp"));
        std::fs::write(&theirs, model.flatzinc("pumpkin_all_different")).expect("a model file");
        std::fs::write(&ours, model.flatzinc("fzn_all_different_int")).expect("a model file");
        let what = format!("case {case} ({model:?})");
        let their_output = run(
            Command::new(&solver)
                .arg("--proof-path")
                .arg(&proof)
                .args(["--proof-type", "full"])
                .arg(&theirs),
            &format!("pumpkin-solver on {what}"),
        );
        let their_answer = answer(&their_output, model.vars);
        let mut ours_command = Command::new(env!("CARGO_BIN_EXE_fzn-cspkit"));
        ours_command.args(flags).arg(&ours);
        let our_answer = answer(
            &run(&mut ours_command, &format!("fzn-cspkit on {what}")),
            model.vars,
        );
        for (solver, answer) in [("cspkit", &our_answer), ("Pumpkin", &their_answer)] {
            if let Answer::Solved { values, .. } = answer {
                assert!(
                    model.satisfied_by(values),
                    "{what}: {solver}'s {values:?} breaks the model"
                );
            }
        }
        // A proof concludes something only when there is no solution or for an optimum;
        // a satisfiable model without objective has nothing to certify.
        let certified = matches!(their_answer, Answer::Unsatisfiable) || model.objective.is_some();
        if !certified {
            assert!(
                matches!(our_answer, Answer::Solved { .. }),
                "{what}: cspkit found no solution, Pumpkin found one"
            );
            continue;
        }
        let verdict = run(
            Command::new(&checker).arg(&theirs).arg(&proof),
            &format!("pumpkin-checker on {what}"),
        );
        assert!(
            verdict.contains("Proof is valid"),
            "{what}: Pumpkin's proof was not accepted:\n{verdict}"
        );
        let proof_text = std::fs::read_to_string(&proof).expect("Pumpkin's proof");
        match (conclusion(&proof_text), &our_answer) {
            (Conclusion::Unsatisfiable, Answer::Unsatisfiable) => unsatisfiable += 1,
            (Conclusion::AtLeast(bound), Answer::Solved { values, complete }) => {
                assert!(complete, "{what}: cspkit did not prove its optimum");
                let optimum = model.objective_of(values).expect("an objective");
                assert_eq!(
                    optimum, bound,
                    "{what}: cspkit's optimum against Pumpkin's proof"
                );
                optimised += 1;
            }
            (proved, ours) => panic!("{what}: Pumpkin proves {proved:?}, cspkit answers {ours:?}"),
        }
    }
    (unsatisfiable, optimised)
}

#[test]
fn unsatisfiability_and_optima_agree_with_pumpkins_checked_proofs() {
    let (unsatisfiable, optimised) = agree_with_checked_proofs(41, 60, &[]);
    if pumpkin().is_some() {
        // The random models must exercise both kinds of proof.
        assert!(
            unsatisfiable >= 5,
            "only {unsatisfiable} unsatisfiable models"
        );
        assert!(optimised >= 5, "only {optimised} optimisations");
    }
}

#[test]
fn the_checker_refuses_a_proof_of_the_wrong_conclusion() {
    // The cross-check is worth only as much as the checker: a proof whose conclusion is
    // changed must be refused.
    let Some((solver, checker)) = pumpkin() else {
        return;
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pumpkin-tampered");
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let model = dir.join("pigeons.fzn");
    // Four pigeons, three holes: no solution.
    std::fs::write(
        &model,
        "var 1..3: a;\nvar 1..3: b;\nvar 1..3: c;\nvar 1..3: d;\n\
         constraint pumpkin_all_different([a,b,c,d]);\nsolve satisfy;\n",
    )
    .expect("a model file");
    let proof = dir.join("pigeons.drcp");
    run(
        Command::new(&solver)
            .arg("--proof-path")
            .arg(&proof)
            .args(["--proof-type", "full"])
            .arg(&model),
        "pumpkin-solver on four pigeons",
    );
    let valid = run(
        Command::new(&checker).arg(&model).arg(&proof),
        "the checker",
    );
    assert!(valid.contains("Proof is valid"), "{valid}");
    // Keep only the conclusion: nothing derives it any more.
    let text = std::fs::read_to_string(&proof).expect("the proof");
    let tampered: String = text
        .lines()
        .filter(|l| l.starts_with("a ") || l.starts_with("c "))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&proof, tampered).expect("the proof");
    let refused = output_within(Command::new(&checker).arg(&model).arg(&proof), PATIENCE);
    assert!(
        !refused.output.status.success()
            && !String::from_utf8_lossy(&refused.output.stdout).contains("Proof is valid"),
        "the checker accepted a proof with its steps removed"
    );
}

#[test]
fn learning_agrees_with_pumpkins_checked_proofs() {
    // Learning from failures must not change a proof of unsatisfiability or an optimum.
    let (unsatisfiable, optimised) = agree_with_checked_proofs(4141, 40, &["--learn"]);
    if pumpkin().is_some() {
        assert!(
            unsatisfiable >= 3,
            "only {unsatisfiable} unsatisfiable models"
        );
        assert!(optimised >= 3, "only {optimised} optimisations");
    }
}
