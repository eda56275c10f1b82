//! The FlatZinc front end without MiniZinc: builtins against their definitions on every
//! assignment, clear errors for unsupported and malformed input (with line and column), no
//! panic on mutated or random text, and `cspkit fzn` on the command line.

use std::process::Command;

use cspkit::flatzinc::{self, Options, Status};
use proptest::prelude::*;

/// Every solution `cspkit` prints for `text` with `-a`, as the lines of each.
fn all_solutions(text: &str) -> (Vec<String>, Status) {
    let model = flatzinc::build(&flatzinc::parse(text).expect("parses")).expect("builds");
    let mut out = Vec::new();
    let options = Options {
        all: true,
        ..Options::default()
    };
    let status = flatzinc::run(&model, &options, &mut out).expect("runs");
    let out = String::from_utf8(out).expect("UTF-8");
    let solutions = out
        .split("----------\n")
        .filter(|block| block.contains(" = "))
        .map(str::to_owned)
        .collect();
    (solutions, status)
}

/// Counts the pairs of `-4..=4` (and results in `-20..=20`) that satisfy `holds`.
fn count_pairs(holds: impl Fn(i64, i64) -> Option<i64>) -> usize {
    (-4..=4)
        .flat_map(|x| (-4..=4).map(move |y| (x, y)))
        .filter(|&(x, y)| holds(x, y).is_some_and(|z| (-20..=20).contains(&z)))
        .count()
}

#[test]
fn arithmetic_builtins_have_one_solution_per_defined_pair() {
    type Definition = fn(i64, i64) -> Option<i64>;
    let cases: [(&str, Definition); 6] = [
        ("int_times(x, y, z)", |x, y| Some(x * y)),
        ("int_div(x, y, z)", |x, y| (y != 0).then(|| x / y)),
        ("int_mod(x, y, z)", |x, y| (y != 0).then(|| x % y)),
        ("int_pow(x, y, z)", |x, y| {
            u32::try_from(y).ok().map(|y| x.pow(y))
        }),
        ("int_min(x, y, z)", |x, y| Some(x.min(y))),
        ("int_max(x, y, z)", |x, y| Some(x.max(y))),
    ];
    for (constraint, definition) in cases {
        let text = format!(
            "var -4..4: x :: output_var;\nvar -4..4: y :: output_var;\n\
             var -20..20: z :: output_var;\nconstraint {constraint};\nsolve satisfy;\n"
        );
        let (solutions, status) = all_solutions(&text);
        assert_eq!(status, Status::Complete);
        assert_eq!(solutions.len(), count_pairs(definition), "{constraint}");
        // Each printed solution satisfies the definition.
        for solution in &solutions {
            let value = |name: &str| -> i64 {
                let line = solution
                    .lines()
                    .find(|l| l.starts_with(&format!("{name} = ")))
                    .expect("the variable is printed");
                line[name.len() + 3..line.len() - 1]
                    .parse()
                    .expect("an integer")
            };
            assert_eq!(
                definition(value("x"), value("y")),
                Some(value("z")),
                "{constraint}: {solution}"
            );
        }
    }
}

#[test]
fn boolean_and_reified_builtins_match_their_truth_tables() {
    let header = "var bool: a :: output_var;\nvar bool: b :: output_var;\nvar bool: c :: output_var;\n\
                  var 0..3: x :: output_var;\n";
    type Definition = fn(bool, bool, bool, i64) -> bool;
    let cases: [(&str, Definition); 9] = [
        ("bool_xor(a, b, c)", |a, b, c, _| c == (a ^ b)),
        ("array_bool_xor([a, b, c])", |a, b, c, _| a ^ b ^ c),
        ("bool_clause([a, b], [c])", |a, b, c, _| a || b || !c),
        ("array_bool_and([a, b], c)", |a, b, c, _| c == (a && b)),
        ("array_bool_or([a, b], c)", |a, b, c, _| c == (a || b)),
        ("set_in_reif(x, {1, 3}, a)", |a, _, _, x| {
            a == (x == 1 || x == 3)
        }),
        ("int_lin_ne_reif([1, 2], [x, x], 3, a)", |a, _, _, x| {
            a == (3 * x != 3)
        }),
        ("int_le_imp(x, 1, a)", |a, _, _, x| !a || x <= 1),
        ("bool_lt_reif(a, b, c)", |a, b, c, _| c == (!a && b)),
    ];
    for (constraint, definition) in cases {
        let text = format!("{header}constraint {constraint};\nsolve satisfy;\n");
        let (solutions, _) = all_solutions(&text);
        let mut expected = 0;
        for bits in 0..8u8 {
            for x in 0..=3 {
                let (a, b, c) = (bits & 1 != 0, bits & 2 != 0, bits & 4 != 0);
                if definition(a, b, c, x) {
                    expected += 1;
                    let shown = format!("a = {a};\nb = {b};\nc = {c};\nx = {x};\n");
                    assert!(solutions.contains(&shown), "{constraint}: {shown} missing");
                }
            }
        }
        assert_eq!(solutions.len(), expected, "{constraint}");
    }
}

#[test]
fn output_arrays_and_optimisation_print_in_the_flatzinc_format() {
    let text = "array [1..2] of int: w = [2, 3];\n\
                var 0..3: x;\nvar 0..3: y;\n\
                array [1..4] of var int: g :: output_array([1..2, 1..2]) = [x, y, 7, x];\n\
                var bool: big :: output_var;\n\
                constraint int_lin_le(w, [x, y], 9);\n\
                constraint int_le_reif(4, x, big);\n\
                solve maximize x;\n";
    let model = flatzinc::build(&flatzinc::parse(text).unwrap()).unwrap();
    let mut out = Vec::new();
    let status = flatzinc::run(&model, &Options::default(), &mut out).unwrap();
    assert_eq!(status, Status::Complete);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "g = array2d(1..2, 1..2, [3, 0, 7, 3]);\nbig = false;\n----------\n==========\n"
    );
}

#[test]
fn neighbourhoods_beside_branch_and_bound_reach_the_same_proved_optimum() {
    // Σ (i + 1)·x[i] over the permutations of 1..=7, smallest, searched in input order from
    // the worst permutation: 1,344 decisions, enough for turns of neighbourhoods.
    let vars: Vec<String> = (1..=7).map(|i| format!("x{i}")).collect();
    let mut text: String = vars.iter().map(|v| format!("var 1..7: {v};\n")).collect();
    text += &format!(
        "array [1..7] of var int: x :: output_array([1..7]) = [{}];\n\
         var 0..1000: cost :: output_var;\n\
         constraint fzn_all_different_int(x);\n\
         constraint int_lin_eq([1, 2, 3, 4, 5, 6, 7, -1], [{}, cost], 0);\n\
         solve :: int_search(x, input_order, indomain_max, complete) minimize cost;\n",
        vars.join(", "),
        vars.join(", ")
    );
    let path = std::env::temp_dir().join(format!("cspkit-lns-{}.fzn", std::process::id()));
    let solve = |extra: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_fzn-cspkit"))
            .args(["-a", "-s"])
            .args(extra)
            .arg(&path)
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    // The largest values on the smallest weights: 1·7 + 2·6 + … + 7·1.
    let optimum = "%%%mzn-stat: objective=84\n";
    // The neighbourhoods fix variables no constraint defines: here the x's, not the cost.
    let fzn = flatzinc::build(&flatzinc::parse(&text).unwrap()).unwrap();
    let names: Vec<String> = fzn
        .independent()
        .iter()
        .map(|&v| fzn.model().var_name(v).into_owned())
        .collect();
    assert_eq!(names.len(), 8, "{names:?}");
    let text = text.replace(
        "int_lin_eq([1, 2, 3, 4, 5, 6, 7, -1], [x1, x2, x3, x4, x5, x6, x7, cost], 0);",
        "int_lin_eq([1, 2, 3, 4, 5, 6, 7, -1], [x1, x2, x3, x4, x5, x6, x7, cost], 0) \
         :: defines_var(cost);",
    );
    let fzn = flatzinc::build(&flatzinc::parse(&text).unwrap()).unwrap();
    let shown = |v: &cspkit::VarId| fzn.model().var_name(*v).into_owned();
    let names: Vec<String> = fzn.independent().iter().map(shown).collect();
    assert_eq!(names, vars);
    std::fs::write(&path, &text).unwrap();
    let runs = [solve(&[]), solve(&["--no-lns"])];
    std::fs::remove_file(&path).unwrap();
    for out in runs {
        assert!(
            out.contains("cost = 84;\n----------\n==========\n"),
            "{out}"
        );
        assert!(out.contains(optimum), "{out}");
    }
}

#[test]
fn unsatisfiable_and_limited_runs_say_so() {
    let text = "var 1..3: x :: output_var;\nconstraint int_lt(x, 1);\nsolve satisfy;\n";
    let (solutions, status) = all_solutions(text);
    assert!(solutions.is_empty());
    assert_eq!(status, Status::Unsatisfiable);
    // Golomb-like search with a time limit of zero: nothing found, UNKNOWN.
    let text = "var 0..1000: m1;\nvar 0..1000: m2;\nvar 0..1000: m3;\nvar 0..1000: m4;\n\
                var 0..1000: m5;\nvar 0..1000: m6;\n\
                array [1..6] of var int: m :: output_array([1..6]) = [m1, m2, m3, m4, m5, m6];\n\
                constraint fzn_all_different_int(m);\n\
                constraint int_lin_eq([1, 1, 1, 1, 1, 1], m, 2999);\n\
                solve satisfy;\n";
    let model = flatzinc::build(&flatzinc::parse(text).unwrap()).unwrap();
    let mut out = Vec::new();
    let options = Options {
        time_limit: Some(std::time::Duration::ZERO),
        ..Options::default()
    };
    let status = flatzinc::run(&model, &options, &mut out).unwrap();
    assert_eq!(status, Status::Unknown);
    assert!(
        String::from_utf8(out)
            .unwrap()
            .ends_with("=====UNKNOWN=====\n")
    );
}

#[test]
fn unsupported_models_are_refused_by_name_and_line() {
    let cases = [
        ("var 0.0..1.0: f;\nsolve satisfy;\n", 1, "floats"),
        (
            "var 1..3: x;\nvar set of 1..3: s;\nsolve satisfy;\n",
            2,
            "set variables",
        ),
        (
            "var 1..3: x;\nconstraint int_lin_eq_reif_weird(x);\nsolve satisfy;\n",
            2,
            "int_lin_eq_reif_weird",
        ),
        (
            "var 1..3: x;\nconstraint float_lin_le([1.0], [x], 2.0);\nsolve satisfy;\n",
            2,
            "float",
        ),
        (
            "var 1..3: x;\nvar 3000000000..4000000000: big;\nsolve satisfy;\n",
            2,
            "32-bit",
        ),
    ];
    for (text, line, word) in cases {
        let error = flatzinc::parse(text)
            .and_then(|items| flatzinc::build(&items))
            .expect_err(text);
        assert_eq!(error.pos.line, line, "{error}");
        assert!(error.to_string().contains(word), "{error}");
    }
    let malformed = [
        ("var 1..3: x\nsolve satisfy;", 2),
        ("var 1..3: x;\nconstraint int_eq(x, y);\nsolve satisfy;", 2),
        ("array [1..2] of var 1..3: xs = [1];\nsolve satisfy;", 1),
        (
            "var 1..3: x;\nconstraint int_lin_eq([1, 2], [x], 3);\nsolve satisfy;",
            2,
        ),
        ("var 1..3: x;\nconstraint int_eq(x);\nsolve satisfy;", 2),
        ("var 1..3: x;", 1),
    ];
    for (text, line) in malformed {
        let error = flatzinc::parse(text)
            .and_then(|items| flatzinc::build(&items))
            .expect_err(text);
        assert!(!error.unsupported, "{error}");
        assert_eq!(error.pos.line, line, "{text}: {error}");
    }
    // An empty range is well-formed FlatZinc for a model without solutions: not refused.
    let model = flatzinc::build(&flatzinc::parse("var 3..1: x;\nsolve satisfy;").unwrap())
        .expect("an empty range builds");
    let mut out = Vec::new();
    let status = flatzinc::run(&model, &Options::default(), &mut out).unwrap();
    assert_eq!(status, Status::Unsatisfiable);
    assert_eq!(String::from_utf8(out).unwrap(), "=====UNSATISFIABLE=====\n");
}

const VALID: &str = "predicate p(var int: x);\n\
    array [1..3] of int: c = [1, -2, 3];\n\
    var 1..5: x :: output_var;\nvar {1, 3, 5}: y :: output_var;\nvar bool: b :: output_var;\n\
    array [1..2] of var int: xs :: output_array([1..2]) = [x, y];\n\
    constraint int_lin_le(c, [x, y, x], 9);\nconstraint int_ne_reif(x, y, b);\n\
    constraint fzn_all_different_int(xs);\n\
    solve :: int_search(xs, first_fail, indomain_median, complete) maximize x;\n";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Mutated FlatZinc: an error with a position inside the text, or a model that solves.
    #[test]
    fn mutated_models_never_panic(
        edits in proptest::collection::vec((0usize..400, any::<u8>(), 0u8..3), 1..6)
    ) {
        let mut text: Vec<u8> = VALID.as_bytes().to_vec();
        for (at, byte, kind) in edits {
            let at = at % (text.len() + 1);
            const ALPHABET: &[u8] = b" ;:,[](){}=.-+0123456789abxyz_\"%\n";
            let byte = ALPHABET[byte as usize % ALPHABET.len()];
            match kind {
                0 => text.insert(at, byte),
                1 if at < text.len() => { text.remove(at); }
                _ if at < text.len() => text[at] = byte,
                _ => {}
            }
        }
        let text = String::from_utf8_lossy(&text).into_owned();
        match flatzinc::parse(&text).and_then(|items| flatzinc::build(&items)) {
            Ok(model) => {
                let options = Options { time_limit: Some(std::time::Duration::from_millis(200)), ..Options::default() };
                flatzinc::run(&model, &options, &mut Vec::new()).expect("writes to memory");
            }
            Err(error) => {
                prop_assert!(error.pos.line >= 1 && error.pos.line <= text.lines().count() + 1, "{}", error);
                prop_assert!(error.pos.column >= 1);
            }
        }
    }

    #[test]
    fn random_text_never_panics(text in "\\PC{0,200}") {
        let _ = flatzinc::parse(&text).and_then(|items| flatzinc::build(&items));
    }
}

#[test]
fn the_command_line_reads_files_and_exits_with_meaningful_codes() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let cspkit = env!("CARGO_BIN_EXE_cspkit");
    let good = write("good.fzn", VALID);
    let run = Command::new(cspkit)
        .arg("fzn")
        .arg("-s")
        .arg(&good)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("x = 4;")
            && stdout.contains("==========")
            && stdout.contains("%%%mzn-stat: nodes="),
        "{stdout}"
    );
    let unsat = write(
        "unsat.fzn",
        "var 1..3: x;\nconstraint int_lt(x, 0);\nsolve satisfy;\n",
    );
    let run = Command::new(cspkit)
        .args(["fzn"])
        .arg(&unsat)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&run.stdout),
        "=====UNSATISFIABLE=====\n"
    );
    let bad = write(
        "bad.fzn",
        "var 1..3: x;\nconstraint int_lt(x 0);\nsolve satisfy;\n",
    );
    let run = Command::new(env!("CARGO_BIN_EXE_fzn-cspkit"))
        .arg(&bad)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2));
    assert!(stderr.contains("bad.fzn: line 2, column 21"), "{stderr}");
    let run = Command::new(cspkit)
        .args(["fzn", "-q", "x.fzn"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let run = Command::new(cspkit)
        .args(["fzn", "--help"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&run.stdout).contains("int_lin_eq_reif"));
    let run = Command::new(cspkit)
        .args(["fzn", "missing.fzn"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("cannot read missing.fzn"));
}

#[test]
fn extreme_numbers_are_errors_not_overflows() {
    let cases = [
        "constraint set_in(x, -9223372036854775807..9223372036854775807);\nsolve satisfy;\n",
        "var 1..2: x;\nconstraint fzn_regular([x], 4611686018427387904, 4, [1], 1, {1});\nsolve satisfy;\n",
        "var 1..2: x;\nconstraint int_lin_eq([9223372036854775807, 9223372036854775807], [x, x], 1);\nsolve satisfy;\n",
        "array [1..9223372036854775807] of int: a = [1];\nsolve satisfy;\n",
    ];
    for text in cases {
        let result = flatzinc::parse(text).and_then(|items| flatzinc::build(&items));
        assert!(result.is_err(), "{text}");
    }
}

/// The value of `name` in a solution block (`name = value;`).
fn value_in(solution: &str, name: &str) -> i64 {
    let prefix = format!("{name} = ");
    solution
        .lines()
        .find_map(|line| line.strip_prefix(&prefix))
        .and_then(|rest| rest.trim_end_matches(';').parse().ok())
        .unwrap_or_else(|| panic!("no {name} in {solution}"))
}

#[test]
fn arithmetic_at_the_ends_of_i32_is_solved_within_its_time_limit() {
    // x = -2³¹ and y, z over the whole i32 range: a search over y or z value by value would
    // take hours; the bounds of mod, div, times and pow leave a handful of values.
    type Definition = fn(i64, i64) -> Option<i64>;
    let cases: [(&str, Definition); 4] = [
        ("int_mod", |x, y| (y != 0).then(|| x % y)),
        ("int_div", |x, y| (y != 0).then(|| x / y)),
        ("int_times", |x, y| Some(x * y)),
        ("int_pow", |x, y| {
            u32::try_from(y).ok().and_then(|y| x.checked_pow(y))
        }),
    ];
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let full = "-2147483648..2147483647";
    for (name, definition) in cases {
        for (x, search) in [
            (format!("var {full}: x :: output_var = -2147483648;"), ""),
            (
                format!("var {full}: x :: output_var;"),
                ":: int_search([x, y, z], input_order, indomain_min, complete)",
            ),
        ] {
            let text = format!(
                "{x}\nvar {full}: y :: output_var;\nvar {full}: z :: output_var;\n\
                 constraint {name}(x, y, z);\nsolve {search} satisfy;\n"
            );
            let path = dir.join(format!("{name}_at_the_ends.fzn"));
            std::fs::write(&path, &text).unwrap();
            let run = Command::new(env!("CARGO_BIN_EXE_cspkit"))
                .args(["fzn", "-t", "20000"])
                .arg(&path)
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&run.stdout);
            assert!(stdout.contains("----------"), "{text}\n{stdout}");
            let (x, y, z) = (
                value_in(&stdout, "x"),
                value_in(&stdout, "y"),
                value_in(&stdout, "z"),
            );
            assert_eq!(x, -2147483648, "{text}\n{stdout}");
            assert_eq!(definition(x, y), Some(z), "{text}\n{stdout}");
        }
    }
}

/// A FlatZinc model watched as the built-in puzzles are: `--trace` and `--tree` speak of the
/// model's own names (an output array's elements as `q[1]`, `x[2,1]`, its constraints by
/// builtin and line), and the tree's file is checked before the model is read.
#[test]
fn a_flatzinc_search_can_be_traced_and_drawn_in_the_models_names() {
    let text = "var 1..2: X_INTRODUCED_0_;\nvar 1..2: X_INTRODUCED_1_;\n\
                var 1..2: X_INTRODUCED_2_;\nvar 1..2: X_INTRODUCED_3_;\n\
                array [1..4] of var int: x :: output_array([1..2, 1..2]) = \
                [X_INTRODUCED_0_, X_INTRODUCED_1_, X_INTRODUCED_2_, X_INTRODUCED_3_];\n\
                constraint int_ne(X_INTRODUCED_0_, X_INTRODUCED_1_);\n\
                constraint int_ne(X_INTRODUCED_2_, X_INTRODUCED_3_);\n\
                constraint int_ne(X_INTRODUCED_0_, X_INTRODUCED_2_);\n\
                solve satisfy;\n";
    let items = flatzinc::parse(text).unwrap();
    let built = flatzinc::build(&items).unwrap();
    let names: Vec<String> = built
        .model()
        .variables()
        .map(|v| built.model().var_name(v).into_owned())
        .collect();
    assert_eq!(names, ["x[1,1]", "x[1,2]", "x[2,1]", "x[2,2]"]);
    let labels: Vec<&str> = built
        .model()
        .constraints()
        .map(|(c, _)| built.model().constraint_name(c))
        .collect();
    assert_eq!(labels[0], "int_ne (line 6)");

    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("fzn-watch");
    std::fs::create_dir_all(&dir).unwrap();
    let model = dir.join("grid.fzn");
    std::fs::write(&model, text).unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_cspkit"))
            .arg("fzn")
            .args(args)
            .output()
            .unwrap()
    };
    let traced = run(&[model.to_str().unwrap(), "--trace"]);
    assert!(traced.status.success());
    let out = String::from_utf8(traced.stdout).unwrap();
    assert!(out.starts_with("x[1,1] = 1\n"), "{out}");
    assert!(
        out.contains("x[1,2] = 2 (only value left, int_ne (line 6))"),
        "{out}"
    );
    assert!(
        out.contains("x = array2d(1..2, 1..2, [1, 2, 2, 1]);\n----------\n"),
        "{out}"
    );
    assert!(!out.contains("X_INTRODUCED"), "{out}");

    let page = dir.join("grid.html");
    let drawn = run(&[model.to_str().unwrap(), "--tree", page.to_str().unwrap()]);
    assert!(drawn.status.success());
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("\"names\":[\"x[1,1]\",\"x[1,2]\",\"x[2,1]\",\"x[2,2]\"]"));
    // The board is the model's output array, a 2 x 2 grid of its variables.
    assert!(html.contains(
        "\"board\":{\"kind\":\"arrays\",\"arrays\":[{\"name\":\"x\",\"columns\":2,\"cells\":[0,1,2,3],\"constants\":[null,null,null,null]}]}"
    ));
    let dot = dir.join("grid.dot");
    assert!(
        run(&[model.to_str().unwrap(), "--tree", dot.to_str().unwrap()])
            .status
            .success()
    );
    assert!(
        std::fs::read_to_string(&dot)
            .unwrap()
            .contains("x[1,1] = 1")
    );

    // A tree file of no known format is refused before the model is read.
    let refused = run(&["no-such-model.fzn", "--tree", "t.png"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("must end in .dot, .svg or .html"));
}

/// What MiniZinc users met (the MiniZinc Challenge issue): a square bounded only by its
/// constraint, a bound MiniZinc computed beyond 32 bits, a search annotation cspkit does not
/// know, and solutions that differ only in variables the output does not show.
#[test]
fn models_minizinc_emits_are_answered_as_minizinc_expects() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("fzn-minizinc-classes");
    std::fs::create_dir_all(&dir).unwrap();
    let run = |name: &str, text: &str, flags: &[&str]| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let output = Command::new(env!("CARGO_BIN_EXE_fzn-cspkit"))
            .args(flags)
            .arg(&path)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        (output.status.code(), stdout, stderr)
    };
    // var int: x; x * x <= 400: 41 solutions, all listed, in well under the limit.
    let (code, out, _) = run(
        "square.fzn",
        "var int: x :: output_var;\nvar int: y;\nconstraint int_le(y, 400);\n\
         constraint int_times(x, x, y);\nsolve satisfy;\n",
        &["-a", "-t", "20000"],
    );
    assert_eq!(code, Some(0));
    assert_eq!(out.matches("----------").count(), 41, "{out}");
    assert!(out.ends_with("==========\n"), "{out}");
    // MiniZinc's 64-bit bound of x * x is clamped: the solutions are found, but the search
    // does not claim to have listed them all.
    let (code, out, err) = run(
        "clamped.fzn",
        "var -100000..100000: x :: output_var;\nvar -10000000000..400: y;\n\
         constraint int_le(y, 400);\nconstraint int_times(x, x, y);\nsolve satisfy;\n",
        &["-a"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.matches("----------").count(), 41, "{out}");
    assert!(!out.contains("=========="), "{out}");
    assert!(err.contains("clamped to cspkit's 32-bit integers"), "{err}");
    // ... nor that a clamped model has no solution.
    let (code, out, _) = run(
        "clamped-unsat.fzn",
        "var 0..10000000000: y :: output_var;\nconstraint int_le(y, -1);\nsolve satisfy;\n",
        &[],
    );
    assert_eq!(code, Some(3));
    assert_eq!(out, "=====UNKNOWN=====\n");
    // A bound wholly beyond 32 bits is still refused.
    let (code, _, err) = run(
        "beyond.fzn",
        "var 10000000000..20000000000: y :: output_var;\nsolve satisfy;\n",
        &[],
    );
    assert_eq!(code, Some(2));
    assert!(err.contains("outside cspkit's 32-bit integers"), "{err}");
    // Unknown search annotations are ignored with a warning, with or without -f.
    let annotated = "var 1..3: x1;\nvar 1..3: x2;\n\
                     array [1..2] of var int: x :: output_array([1..2]) = [x1, x2];\n\
                     constraint int_lt(x[1], x[2]);\n\
                     solve :: int_search(x, max_regret, indomain_split_random) satisfy;\n";
    for flags in [&[][..], &["-f"][..]] {
        let (code, out, err) = run("annotated.fzn", annotated, flags);
        assert_eq!(code, Some(0), "{err}");
        assert!(out.starts_with("x = array1d(1..2, [1, 2]);"), "{out}");
        assert!(err.contains("int_search ignored"), "{err}");
    }
    // Two solutions to the user, not four: the hidden boolean does not make new ones.
    let (code, out, _) = run(
        "hidden.fzn",
        "var bool: a :: output_var;\nvar bool: b;\nsolve satisfy;\n",
        &["-a"],
    );
    assert_eq!(code, Some(0));
    assert_eq!(
        out,
        "a = false;\n----------\na = true;\n----------\n==========\n"
    );
    // Only such models keep the solutions shown, to print each once: a variable a constraint
    // defines is no hidden one.
    let hidden = |text: &str| {
        flatzinc::build(&flatzinc::parse(text).unwrap())
            .unwrap()
            .has_hidden_variables()
    };
    assert!(hidden(
        "var bool: a :: output_var;\nvar bool: b;\nsolve satisfy;\n"
    ));
    assert!(!hidden(
        "var 1..3: x :: output_var;\nvar 2..4: y :: is_defined_var;\n\
         constraint int_lin_eq([1, -1], [x, y], -1) :: defines_var(y);\nsolve satisfy;\n"
    ));
}

#[test]
fn all_solutions_are_distinct_on_the_output_and_cost_one_descent_each() {
    // x ≠ y, and 16 introduced booleans the output does not show, tied to nothing (as the
    // helpers of a lex decomposition are once it holds strictly): 6 solutions to print, each
    // once, found without enumerating the 2¹⁶ values of the helpers under each.
    let mut text = String::from("var 1..3: x :: output_var;\nvar 1..3: y :: output_var;\n");
    for i in 0..16 {
        text.push_str(&format!("var bool: h{i} :: var_is_introduced;\n"));
    }
    text.push_str("constraint int_ne(x, y);\n");
    let helpers: Vec<String> = (0..16).map(|i| format!("h{i}")).collect();
    text.push_str(&format!(
        "solve :: bool_search([{}], input_order, indomain_max, complete) satisfy;\n",
        helpers.join(", ")
    ));
    let model = flatzinc::build(&flatzinc::parse(&text).expect("parses")).expect("builds");
    let mut out = Vec::new();
    let options = Options {
        all: true,
        statistics: true,
        ..Options::default()
    };
    let status = flatzinc::run(&model, &options, &mut out).expect("runs");
    let out = String::from_utf8(out).expect("UTF-8");
    assert_eq!(status, Status::Complete);
    let mut shown: Vec<&str> = out
        .split("----------\n")
        .filter(|block| block.contains(" = "))
        .map(|block| block.trim_end_matches(|c| c != ';'))
        .collect();
    assert_eq!(shown.len(), 6, "{out}");
    shown.sort_unstable();
    shown.dedup();
    assert_eq!(shown.len(), 6, "a solution printed twice:\n{out}");
    let nodes: u64 = out
        .lines()
        .find_map(|line| line.strip_prefix("%%%mzn-stat: nodes="))
        .expect("statistics")
        .parse()
        .expect("a number");
    assert!(nodes <= 6 * 20, "{nodes} nodes for 6 solutions");
}

/// A job shop without search annotations (Lawrence's la07, one `disjunctive` per machine),
/// the model MiniZinc users write first: the default searches schedule it at once. Smallest
/// domain first on the start times, once the order of `cspkit fzn` for it, found no schedule
/// in seconds; dom/wdeg, once `fzn-cspkit`'s, proved the optimum after some 14,000 decisions.
#[test]
fn a_job_shop_without_search_annotations_is_scheduled_by_the_default_searches() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("fzn-job-shop");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("la07.fzn");
    std::fs::write(&path, crate::common::JobShop::la07().flatzinc()).unwrap();
    let run = |program: &str, flags: &[&str]| {
        let output = Command::new(program)
            .args(flags)
            .arg(&path)
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    // fzn-cspkit's free search proves the optimum, 890, within 2,000 decisions (the time
    // limit only stops a run gone wrong).
    let out = run(env!("CARGO_BIN_EXE_fzn-cspkit"), &["-s", "-t", "20000"]);
    assert!(
        out.contains("t_end = 890;\n----------\n==========\n"),
        "{out}"
    );
    let nodes: u64 = out
        .lines()
        .find_map(|line| line.strip_prefix("%%%mzn-stat: nodes="))
        .expect("statistics")
        .parse()
        .unwrap();
    assert!(nodes <= 2000, "{nodes} decisions");
    // cspkit fzn, with and without -f: a schedule within 1,000 decisions.
    let cspkit = env!("CARGO_BIN_EXE_cspkit");
    for free in [&[][..], &["-f"][..]] {
        let flags = [&["fzn", "--decision-limit", "1000"][..], free].concat();
        let out = run(cspkit, &flags);
        assert!(out.contains("t_end = "), "{flags:?}: {out}");
    }
}
