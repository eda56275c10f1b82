//! `cspkit compare`, `--stats=FORMAT`, the binary queens model and graph colouring, run as a
//! user would: the table's shape, its numbers against single runs, and its formats.

use crate::support::{cspkit, text};

/// A small JSON reader, enough to check the output parses: returns the values of the objects
/// of a top-level array (or of one object), as (key, raw value) pairs.
fn parse_json(input: &str) -> Vec<Vec<(String, String)>> {
    struct P<'a>(&'a [u8], usize);
    impl P<'_> {
        fn ws(&mut self) {
            while self.1 < self.0.len() && self.0[self.1].is_ascii_whitespace() {
                self.1 += 1;
            }
        }
        fn eat(&mut self, c: u8) {
            self.ws();
            assert_eq!(
                self.0.get(self.1),
                Some(&c),
                "expected {:?} at {}",
                c as char,
                self.1
            );
            self.1 += 1;
        }
        fn string(&mut self) -> String {
            self.eat(b'"');
            let mut out = String::new();
            loop {
                match self.0[self.1] {
                    b'"' => break,
                    b'\\' => {
                        self.1 += 1;
                        assert!(b"\"\\/bfnrtu".contains(&self.0[self.1]), "bad escape");
                        out.push(self.0[self.1] as char);
                    }
                    c => {
                        assert!(c >= 0x20, "a control character in a string");
                        out.push(c as char);
                    }
                }
                self.1 += 1;
            }
            self.1 += 1;
            out
        }
        fn value(&mut self) -> String {
            self.ws();
            match self.0[self.1] {
                b'"' => self.string(),
                b'{' | b'[' => panic!("nested values are not expected here"),
                _ => {
                    let start = self.1;
                    while self.1 < self.0.len() && !b",}] \n".contains(&self.0[self.1]) {
                        self.1 += 1;
                    }
                    let raw = std::str::from_utf8(&self.0[start..self.1])
                        .unwrap()
                        .to_owned();
                    assert!(
                        raw.parse::<f64>().is_ok()
                            || ["true", "false", "null"].contains(&raw.as_str()),
                        "not a JSON value: {raw}"
                    );
                    raw
                }
            }
        }
        fn object(&mut self) -> Vec<(String, String)> {
            self.eat(b'{');
            let mut fields = Vec::new();
            loop {
                let key = self.string();
                self.eat(b':');
                fields.push((key, self.value()));
                self.ws();
                if self.0[self.1] == b'}' {
                    self.1 += 1;
                    return fields;
                }
                self.eat(b',');
            }
        }
    }
    let mut p = P(input.as_bytes(), 0);
    p.ws();
    let objects = if p.0[p.1] == b'[' {
        p.1 += 1;
        let mut all = Vec::new();
        loop {
            all.push(p.object());
            p.ws();
            if p.0[p.1] == b']' {
                p.1 += 1;
                break;
            }
            p.eat(b',');
        }
        all
    } else {
        vec![p.object()]
    };
    p.ws();
    assert_eq!(p.1, p.0.len(), "trailing text after the JSON value");
    objects
}

fn field<'a>(object: &'a [(String, String)], key: &str) -> &'a str {
    &object
        .iter()
        .find(|(k, _)| k == key)
        .unwrap_or_else(|| panic!("no {key}"))
        .1
}

#[test]
fn the_table_has_a_row_per_combination_in_every_format() {
    let base = [
        "compare",
        "queens",
        "6",
        "--count",
        "--var-order",
        "input,mrv,dom-wdeg",
        "--value-order",
        "asc,lcv",
        "--propagation",
        "none,fc,full",
    ];
    let csv = cspkit(&[&base[..], &["--format", "csv"]].concat());
    assert!(csv.status.success(), "{}", text(&csv.stderr));
    let lines: Vec<String> = text(&csv.stdout).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 1 + 3 * 2 * 3);
    assert!(
        lines.iter().all(|l| l.split(',').count() == 15),
        "{lines:?}"
    );
    assert!(
        lines[1..].iter().all(|l| l.split(',').nth(12) == Some("4")),
        "every run counts 4"
    );

    let json = cspkit(&[&base[..], &["--format", "json"]].concat());
    let rows = parse_json(&text(&json.stdout));
    assert_eq!(rows.len(), 18);
    assert!(rows.iter().all(|r| field(r, "status") == "done"));

    let markdown = text(&cspkit(&[&base[..], &["--format", "markdown"]].concat()).stdout);
    assert_eq!(markdown.lines().count(), 2 + 18);
    assert!(
        markdown
            .lines()
            .all(|l| l.starts_with('|') && l.ends_with('|'))
    );

    let plain = text(&cspkit(&base).stdout);
    assert_eq!(plain.lines().count(), 1 + 18);
    assert!(plain.starts_with("var_order"));
}

#[test]
fn a_row_of_the_table_is_the_run_that_stats_describe() {
    let table = cspkit(&[
        "compare",
        "queens",
        "7",
        "--count",
        "--var-order",
        "mrv",
        "--value-order",
        "lcv",
        "--propagation",
        "forward",
        "--format",
        "json",
    ]);
    let rows = parse_json(&text(&table.stdout));
    let single = cspkit(&[
        "queens",
        "7",
        "--count",
        "--var-order",
        "mrv",
        "--value-order",
        "lcv",
        "--stats=json",
    ]);
    assert_eq!(text(&single.stdout), "40\n");
    let stats = parse_json(&text(&single.stderr));
    for key in [
        "var_order",
        "value_order",
        "propagation",
        "decisions",
        "tree_nodes",
        "nassigns",
        "failures",
        "solutions",
    ] {
        assert_eq!(field(&rows[0], key), field(&stats[0], key), "{key}");
    }
    // Plain --stats keeps its line.
    let plain = cspkit(&["queens", "7", "--count", "--stats"]);
    assert!(text(&plain.stderr).starts_with("strategy: var-order input, value-order asc, propagation forward, branching assign\ndecisions "));
}

#[test]
fn degree_orders_differ_from_smallest_domain_first_on_a_mycielski_graph() {
    let table = cspkit(&[
        "compare",
        "colour",
        "myciel4",
        "--colours",
        "4",
        "--count",
        "--var-order",
        "mrv,dom-deg,dom-wdeg",
        "--value-order",
        "asc",
        "--propagation",
        "forward",
        "--format",
        "json",
    ]);
    let rows = parse_json(&text(&table.stdout));
    let nodes: Vec<u64> = rows
        .iter()
        .map(|r| field(r, "decisions").parse().unwrap())
        .collect();
    // myciel4 needs five colours: every run proves there is no 4-colouring, each its own way.
    assert!(
        rows.iter()
            .all(|r| field(r, "solutions") == "0" && field(r, "status") == "done")
    );
    assert!(nodes[0] != nodes[1] && nodes[1] != nodes[2], "{nodes:?}");
}

#[test]
fn the_binary_queens_model_and_the_colouring_command_answer_as_published() {
    // Placements of n queens (OEIS A000170), on the pairwise model and the one-constraint
    // board.
    for model in ["binary", "board"] {
        for (n, count) in [(4, "2"), (5, "10"), (6, "4"), (7, "40"), (8, "92")] {
            let output = cspkit(&["queens", &n.to_string(), "--model", model, "--count"]);
            assert_eq!(text(&output.stdout).trim(), count, "{n} queens, {model}");
        }
    }
    // The board model's first placement is the lexicographic one.
    let first = cspkit(&["queens", "8", "--model", "board"]);
    assert_eq!(text(&first.stdout).lines().last(), Some("1 5 8 6 3 7 2 4"));
    // Australia in three colours: 6 colourings of the mainland, times 3 for Tasmania.
    assert_eq!(
        text(&cspkit(&["colour", "australia", "--count"]).stdout),
        "18\n"
    );
    let one = text(&cspkit(&["colour", "australia"]).stdout);
    assert!(one.starts_with("WA=") && one.contains(" T="), "{one}");
    let none = cspkit(&["colour", "myciel3", "--colours", "3"]);
    assert_eq!(none.status.code(), Some(1));
    let bad = cspkit(&["colour", "petersen"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("unknown graph \"petersen\""));
    let bad = cspkit(&["compare", "queens", "0"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn a_model_is_counted_on_the_variables_its_output_shows() {
    // x ≠ y, and 12 introduced booleans the output does not show and nothing defines:
    // 6 solutions as MiniZinc lists them, not 6 · 2¹².
    let mut fzn = String::from("var 1..3: x :: output_var;\nvar 1..3: y :: output_var;\n");
    for i in 0..12 {
        fzn.push_str(&format!("var bool: h{i} :: var_is_introduced;\n"));
    }
    fzn.push_str("constraint int_ne(x, y);\nsolve satisfy;\n");
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("compare-hidden.fzn");
    std::fs::write(&path, fzn).expect("writes the model");
    let path = path.to_str().expect("a UTF-8 path");
    let csv = cspkit(&[
        "compare",
        path,
        "--count",
        "--var-order",
        "input,mrv",
        "--value-order",
        "asc,desc",
        "--propagation",
        "none,full",
        "--format",
        "csv",
    ]);
    assert!(csv.status.success(), "{}", text(&csv.stderr));
    let lines: Vec<String> = text(&csv.stdout).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 1 + 2 * 2 * 2);
    assert!(
        lines[1..].iter().all(|l| l.split(',').nth(12) == Some("6")),
        "every run counts 6: {lines:?}"
    );
}

/// The count after `key` in the text line of `--stats`.
fn text_stat(stderr: &str, key: &str) -> String {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("decisions "))
        .unwrap_or_else(|| panic!("no statistics in {stderr:?}"));
    line.split(", ")
        .find_map(|part| Some(part.strip_prefix(key)?.trim().to_owned()))
        .unwrap_or_else(|| panic!("no {key} in {line:?}"))
}

#[test]
fn compare_runs_with_and_without_backjumping_and_counts_the_jumps() {
    let base = [
        "compare",
        "queens",
        "8",
        "--count",
        "--var-order",
        "input",
        "--value-order",
        "asc",
        "--propagation",
        "fc,forward",
    ];
    let both = cspkit(&[&base[..], &["--backjump", "off,on", "--format", "json"]].concat());
    assert!(both.status.success(), "{}", text(&both.stderr));
    let rows = parse_json(&text(&both.stdout));
    assert_eq!(rows.len(), 4, "two levels, each with and without");
    let setting: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (field(r, "backjump"), field(r, "propagation")))
        .collect();
    assert_eq!(
        setting,
        [
            ("off", "fc"),
            ("off", "forward"),
            ("on", "fc"),
            ("on", "forward")
        ]
    );
    for row in &rows {
        assert_eq!(field(row, "solutions"), "92");
        let (jumps, skipped): (u64, u64) = (
            field(row, "backjumps").parse().unwrap(),
            field(row, "levels_skipped").parse().unwrap(),
        );
        if field(row, "backjump") == "off" {
            assert_eq!((jumps, skipped), (0, 0));
        } else {
            assert!(skipped >= jumps);
        }
    }
    // Each "on" row is the run `--backjump --stats` describes, jumps included.
    let single = cspkit(&[
        "queens",
        "8",
        "--count",
        "--propagation",
        "fc",
        "--backjump",
        "--stats",
    ]);
    let stderr = text(&single.stderr);
    for (key, column) in [
        ("backjumps", "backjumps"),
        ("levels skipped", "levels_skipped"),
        ("decisions", "decisions"),
    ] {
        assert_eq!(text_stat(&stderr, key), field(&rows[2], column), "{key}");
    }
    assert_ne!(field(&rows[2], "backjumps"), "0", "8-Queens with fc jumps");
    // Fewer decisions with the jumps, the same on forward (which never jumps here).
    let decisions = |r: usize| field(&rows[r], "decisions").parse::<u64>().unwrap();
    assert!(decisions(2) < decisions(0));

    // `--backjump` alone: every run with it. Without: the columns are not there.
    let on = cspkit(&[&base[..], &["--backjump", "--format", "csv"]].concat());
    let csv = text(&on.stdout);
    assert!(csv.starts_with("var_order,value_order,propagation,branching,backjump,decisions,"));
    assert!(csv.contains(",values_removed,backjumps,levels_skipped,domain_changes,"));
    assert!(
        csv.lines()
            .skip(1)
            .all(|l| l.split(',').nth(4) == Some("on"))
    );
    let off = text(&cspkit(&[&base[..], &["--format", "csv"]].concat()).stdout);
    assert!(!off.contains("backjump"), "{off}");

    // AC-3 has no reasons to follow: refused by name, as the solve commands refuse it.
    let ac3 = cspkit(&[
        "compare",
        "queens",
        "6",
        "--propagation",
        "ac3",
        "--backjump",
    ]);
    assert_eq!(ac3.status.code(), Some(2));
    assert!(text(&ac3.stderr).contains("--propagation ac3"));
}

#[test]
fn stats_json_and_csv_count_the_backjumps() {
    let args = [
        "queens",
        "8",
        "--count",
        "--propagation",
        "fc",
        "--backjump",
    ];
    let json = cspkit(&[&args[..], &["--stats=json"]].concat());
    let record = parse_json(&text(&json.stderr));
    let line = cspkit(&[&args[..], &["--stats"]].concat());
    let line = text(&line.stderr);
    assert_eq!(field(&record[0], "backjump"), "on");
    assert_eq!(
        field(&record[0], "backjumps"),
        text_stat(&line, "backjumps")
    );
    assert_eq!(
        field(&record[0], "levels_skipped"),
        text_stat(&line, "levels skipped")
    );
    let csv = text(&cspkit(&[&args[..], &["--stats=csv"]].concat()).stderr);
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let values: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = |name: &str| values[header.iter().position(|&h| h == name).unwrap()];
    assert_eq!(at("backjumps"), text_stat(&line, "backjumps"));
    assert_eq!(at("levels_skipped"), text_stat(&line, "levels skipped"));
    // Without --backjump the record keeps its columns.
    let plain = text(&cspkit(&["queens", "8", "--count", "--stats=csv"]).stderr);
    assert!(!plain.contains("backjump"), "{plain}");
}
