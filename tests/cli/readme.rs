//! The README, run as a newcomer would type it: every `cspkit …` and `minizinc …` line of its
//! shell blocks runs on the files the repository ships (`samples/`), and must end with the exit
//! code its comment gives (`# exit N`, 0 otherwise) and print the number its comment starts with
//! (`# 14200`). Its tables of options and defaults must say what `--help` and `--stats` say.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

const README: &str = include_str!("../../README.md");

/// How long one README line may run before it counts as hanging.
const PATIENCE: Duration = Duration::from_secs(120);

/// A command of a README shell block: the line as typed, and what its comment promises.
#[derive(Debug)]
struct Example {
    line: String,
    command: String,
    exit: i32,
    number: Option<String>,
}

/// The `cspkit` and `minizinc` lines of the README's `sh` blocks, in order.
fn examples() -> Vec<Example> {
    let mut found = Vec::new();
    let mut in_shell = false;
    for line in README.lines() {
        if line.starts_with("```") {
            in_shell = !in_shell && line.trim() == "```sh";
            continue;
        }
        if !in_shell || !(line.starts_with("cspkit ") || line.starts_with("minizinc ")) {
            continue;
        }
        let (command, comment) = match line.find(" #") {
            Some(at) => (&line[..at], line[at + 2..].trim()),
            None => (line, ""),
        };
        let exit = comment
            .strip_prefix("exit ")
            .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
            .map_or(0, |code| code.parse().expect("an exit code"));
        // A number standing alone at the start of the comment (`# 14200`, `# 4 solutions`,
        // `# 1: unique`), not the start of a word such as `16x16`.
        let head = comment
            .split([' ', ':', ',', ';'])
            .next()
            .unwrap_or_default();
        let number =
            (!head.is_empty() && head.bytes().all(|b| b.is_ascii_digit())).then(|| head.to_owned());
        found.push(Example {
            line: line.to_owned(),
            command: command.trim().to_owned(),
            exit,
            number,
        });
    }
    found
}

fn minizinc_available() -> bool {
    let found = |program: &str| {
        Command::new("sh")
            .arg("-c")
            .arg(format!("command -v {program}"))
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    found("minizinc") && found("fzn-gecode")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A fresh folder `name` holding a copy of `samples/`, with a home of its own (for
/// `cspkit fzn --install-msc`): where the README's lines run.
fn workspace(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    copy_dir(&root.join("samples"), &dir.join("samples"));
    std::fs::create_dir_all(dir.join("home")).unwrap();
    dir
}

/// Runs `command` with `sh` in `dir`, the programs of this build first on the `PATH` (in place
/// of `cargo install`), no standard input, and a deadline.
fn run(command: &str, dir: &Path) -> Output {
    let programs = Path::new(env!("CARGO_BIN_EXE_cspkit")).parent().unwrap();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![programs.to_path_buf()];
    paths.extend(std::env::split_paths(&path));
    let child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", std::env::join_paths(paths).unwrap())
        .env("HOME", dir.join("home"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    // The output is read as it comes (a full pipe would stall the program), on a thread of
    // its own so that the deadline holds.
    let id = child.id();
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || sender.send(child.wait_with_output()));
    match receiver.recv_timeout(PATIENCE) {
        Ok(output) => output.expect("the output"),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &id.to_string()]).status();
            panic!("`{command}` ran past {PATIENCE:?}");
        }
    }
}

#[test]
fn every_command_line_of_the_readme_runs_as_documented() {
    let examples = examples();
    assert!(
        examples.len() >= 20,
        "the README's command lines were not found: {examples:?}"
    );
    let dir = workspace("readme-commands");
    let minizinc = minizinc_available();
    if !minizinc {
        assert!(
            std::env::var_os("CSPKIT_REQUIRE_MINIZINC").is_none(),
            "CSPKIT_REQUIRE_MINIZINC is set, but minizinc or fzn-gecode is missing"
        );
        crate::common::skipped(
            "the README's minizinc lines (minizinc not found: Debian package `minizinc`)",
        );
    }
    let mut ran = 0;
    for example in &examples {
        let needs_minizinc = example.command.starts_with("minizinc ")
            || example.command.starts_with("cspkit mzn ")
            || (example.command.starts_with("cspkit compare ") && example.command.contains(".mzn"));
        if needs_minizinc && !minizinc {
            continue;
        }
        let output = run(&example.command, &dir);
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            output.status.code(),
            Some(example.exit),
            "README line `{}` ended otherwise than its comment says\nstdout: {stdout}\nstderr: {stderr}",
            example.line
        );
        if let Some(number) = &example.number {
            assert_eq!(
                stdout.lines().next(),
                Some(number.as_str()),
                "README line `{}` printed otherwise than its comment says",
                example.line
            );
        }
        if example.exit == 0 {
            assert!(
                !stdout.trim().is_empty(),
                "`{}` printed nothing",
                example.line
            );
        }
        ran += 1;
    }
    // The files the README's lines write land in the workspace, not in the repository.
    assert!(dir.join("t.html").exists(), "the --tree line wrote no page");
    assert!(ran >= 20);
}

/// The options (`--name`) and values of `cspkit help SUBCOMMAND`.
fn help_options(subcommand: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let output = Command::new(env!("CARGO_BIN_EXE_cspkit"))
        .args(["help", subcommand])
        .output()
        .expect("cspkit runs");
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let mut options = BTreeSet::new();
    let mut values = BTreeSet::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed
            .strip_prefix("--")
            .filter(|_| line.starts_with("      "))
        {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            options.insert(format!("--{name}"));
        }
        if let Some(alias) = trimmed.strip_prefix("[alias: ") {
            options.insert(alias.trim_end_matches(']').to_owned());
        }
        if let Some(value) = trimmed.strip_prefix("- ") {
            values.insert(value.split(':').next().unwrap().trim().to_owned());
        }
    }
    options.remove("--help");
    (options, values)
}

/// The lines of the README's table that starts with `header`.
fn table_rows(header: &str) -> Vec<Vec<String>> {
    let start = README
        .find(header)
        .unwrap_or_else(|| panic!("no table {header:?} in the README"));
    README[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|cell| cell.trim().to_owned())
                .collect()
        })
        .collect()
}

/// The backquoted words of a table cell.
fn quoted(cell: &str) -> impl Iterator<Item = String> + '_ {
    cell.split('`').skip(1).step_by(2).map(|w| {
        w.split_whitespace()
            .next()
            .unwrap_or_default()
            .trim_end_matches("[=FORMAT]")
            .to_owned()
    })
}

#[test]
fn the_readme_options_table_names_every_option_and_value_of_help_and_no_other() {
    let mut help = (BTreeSet::new(), BTreeSet::new());
    for subcommand in ["sudoku", "queens", "colour"] {
        let (options, values) = help_options(subcommand);
        help.0.extend(options);
        help.1.extend(values);
    }
    let mut readme = (BTreeSet::new(), BTreeSet::new());
    for row in table_rows("| option | values | what it does |") {
        readme
            .0
            .extend(quoted(&row[0]).filter(|w| w.starts_with("--")));
        // The values of an option, and the aliases the table gives in its text.
        readme
            .1
            .extend(quoted(&row[1]).filter(|w| !w.starts_with('.')));
    }
    readme.1.remove("mac"); // an alias, which --help does not list among the values
    assert_eq!(
        readme.0, help.0,
        "options: the README's table against --help"
    );
    assert_eq!(
        readme.1, help.1,
        "values: the README's table against --help"
    );
}

#[test]
fn the_defaults_tables_of_the_readme_and_help_are_what_stats_reports() {
    let help = Command::new(env!("CARGO_BIN_EXE_cspkit"))
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    let rows =
        table_rows("| entry point | propagation | variable order | value order | branching |");
    let dir = workspace("readme-defaults");
    for (subcommand, target) in [
        ("sudoku", "samples/sudoku/2239.txt"),
        ("queens", "8"),
        ("colour", "australia"),
    ] {
        let entry = format!("`cspkit {subcommand}`");
        let row = rows
            .iter()
            .find(|r| r[0] == entry)
            .unwrap_or_else(|| panic!("no row for {entry} in the README's defaults"));
        let words: Vec<String> = row[1..].iter().flat_map(|c| quoted(c).take(1)).collect();
        let output = run(&format!("cspkit {subcommand} {target} --stats"), &dir);
        let stderr = String::from_utf8_lossy(&output.stderr);
        let strategy = format!(
            "strategy: var-order {}, value-order {}, propagation {}, branching {}",
            words[1], words[2], words[0], words[3]
        );
        assert!(
            stderr.lines().next() == Some(strategy.as_str()),
            "{entry}: the README says {strategy:?}, --stats says {stderr:?}"
        );
        let help_row = format!("cspkit {subcommand}");
        let defaults = &help[help.find("Defaults").expect("--help gives the defaults")..];
        let help_line = defaults
            .lines()
            .find(|l| l.trim_start().starts_with(&help_row))
            .unwrap_or_else(|| panic!("no {help_row} in --help's defaults"));
        let help_words: Vec<&str> = help_line.split_whitespace().skip(2).collect();
        assert_eq!(
            help_words,
            [&words[0], &words[1], &words[2], &words[3]],
            "{entry}: --help's defaults against the README's"
        );
    }
}
