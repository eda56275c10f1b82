//! `cspkit fzn` and `fzn-cspkit`: the FlatZinc solver MiniZinc calls, and its installation.
//!
//! One file, compiled into both programs: the arguments are MiniZinc's standard flags, read
//! by hand so that `fzn-cspkit` needs no argument parser.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use cspkit::flatzinc::{self, FznModel, Options, OutputItem, OutputValue, Status};
use cspkit::teach::TreeFormat;
use cspkit::teach::html::{Board, BoardArray};
use cspkit::teach::trace::Trace;
use cspkit::teach::tree::SearchTree;

/// Exit codes, as `cspkit`'s.
const SOLVED: u8 = 0;
const NO_SOLUTION: u8 = 1;
const BAD_INPUT: u8 = 2;
const STOPPED: u8 = 3;

pub const HELP: &str = "\
Solve a FlatZinc model (what MiniZinc compiles a model into), printing its solutions in the
FlatZinc output format.

Usage: cspkit fzn [OPTIONS] MODEL.fzn
       cspkit fzn --install-msc [DIR]

Options (MiniZinc's standard flags):
  -a            all solutions; for an optimisation, each improving solution
  -n N          stop after N solutions
  -s            statistics, as %%%mzn-stat: lines
  -t MS         time limit in milliseconds
  -f            free search: ignore the search annotations
  -r SEED       seed of indomain_random
  -p N          threads (accepted; the search runs on one)

Watching the search (cspkit fzn only; names are the model's: an output array's elements are
q[1], q[2], ... and x[1,1], ...):
  --trace              one line per event, interleaved with the output
  --trace-domains      the trace, with the domains after each propagation
  --trace-limit N      the most trace lines [default: 10000]
  --tree FILE          the search tree: FILE.dot, FILE.svg or FILE.html (a page to step through)
  --tree-limit N       the most tree nodes recorded [default: 5000]
  --install-msc [DIR]
                write the solver configuration cspkit.msc and cspkit's MiniZinc library
                into DIR (default: ~/.minizinc/solvers), for `minizinc --solver cspkit`

Output: each solution, then `----------`; `==========` when the search is complete;
`=====UNSATISFIABLE=====`; `=====UNKNOWN=====` when a limit stops it before any solution.
Exit codes: 0 solved, 1 no solution, 2 bad input or unsupported model, 3 stopped by a limit.";

/// Runs the FlatZinc front end on `args` (without the program's name); returns the exit code.
pub fn main(args: &[String]) -> u8 {
    match run(args) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("cspkit fzn: {message}");
            BAD_INPUT
        }
    }
}

/// What `cspkit fzn` shows of the search besides its answer.
#[derive(Debug)]
struct Watch {
    trace: bool,
    domains: bool,
    trace_limit: usize,
    tree: Option<PathBuf>,
    tree_limit: usize,
}

impl Default for Watch {
    fn default() -> Self {
        Watch {
            trace: false,
            domains: false,
            trace_limit: 10_000,
            tree: None,
            tree_limit: 5000,
        }
    }
}

fn run(args: &[String]) -> Result<u8, String> {
    let mut options = Options::default();
    let mut watch = Watch::default();
    let mut file: Option<&str> = None;
    let mut args = args.iter();
    let number = |flag: &str, value: Option<&String>| -> Result<u64, String> {
        let value = value.ok_or_else(|| format!("{flag} needs a number"))?;
        value
            .parse::<u64>()
            .map_err(|_| format!("{flag}: not a number: {value:?}"))
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-a" | "--all-solutions" | "--all" => options.all = true,
            "-s" | "--statistics" => options.statistics = true,
            "-f" | "--free-search" => options.free = true,
            "-n" | "--num-solutions" => match number(arg, args.next())? {
                0 => return Err("-n 0: ask for at least one solution".into()),
                n => options.solutions = Some(n),
            },
            "-t" | "--time-limit" => {
                options.time_limit = Some(Duration::from_millis(number(arg, args.next())?));
            }
            "-r" | "--random-seed" => options.seed = number(arg, args.next())?,
            "-p" | "--parallel" => {
                number(arg, args.next())?;
            }
            "--trace" => watch.trace = true,
            "--trace-domains" => {
                watch.trace = true;
                watch.domains = true;
            }
            "--trace-limit" => {
                watch.trace_limit =
                    usize::try_from(number(arg, args.next())?).unwrap_or(usize::MAX);
            }
            "--tree" => {
                let path = args.next().ok_or("--tree needs a file")?;
                watch.tree = Some(PathBuf::from(path));
            }
            "--tree-limit" => {
                watch.tree_limit = usize::try_from(number(arg, args.next())?).unwrap_or(usize::MAX);
            }
            "-h" | "--help" => {
                println!("{HELP}");
                println!(
                    "\nSupported FlatZinc builtins: {}",
                    flatzinc::SUPPORTED.join(", ")
                );
                return Ok(SOLVED);
            }
            "--install-msc" => {
                let dir = args.next().map(PathBuf::from);
                return install(dir).map(|()| SOLVED);
            }
            flag if flag.starts_with('-') && flag.len() > 1 => {
                return Err(format!("unknown option {flag} (see cspkit fzn --help)"));
            }
            path => {
                if file.replace(path).is_some() {
                    return Err("more than one model file given".into());
                }
            }
        }
    }
    let file = file.ok_or("no model file given (see cspkit fzn --help)")?;
    // The tree's file is checked and created before the model is read and solved.
    let tree_file = match watch.tree.as_deref() {
        Some(path) => {
            let format = TreeFormat::from_path(path).map_err(|e| format!("--tree {e}"))?;
            let created = std::fs::File::create(path)
                .map_err(|e| format!("cannot write the tree to {}: {e}", path.display()))?;
            Some((format, created))
        }
        None => None,
    };
    let text = read_model(file)?;
    // The text, then the items, are let go as soon as read: a model's data can be large.
    let items = flatzinc::parse(&text).map_err(|e| format!("{file}: {e}"))?;
    drop(text);
    let model = flatzinc::build(&items).map_err(|e| format!("{file}: {e}"))?;
    drop(items);
    let status = if watch.trace || tree_file.is_some() {
        watched(&model, &options, &watch, tree_file, file)?
    } else {
        let stdout = std::io::stdout();
        let mut out = std::io::BufWriter::new(stdout.lock());
        let status = flatzinc::run(&model, &options, &mut out);
        let _ = out.flush();
        status
    };
    let status = match status {
        Ok(status) => status,
        // A closed standard output (a pipe to `head`) is no reason to fail loudly.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(SOLVED),
        Err(e) => return Err(format!("cannot write the output: {e}")),
    };
    Ok(match status {
        Status::Solutions | Status::Complete => SOLVED,
        Status::Unsatisfiable => NO_SOLUTION,
        Status::Unknown => STOPPED,
    })
}

/// Solves the model with the trace and the tree asked for watching; writes the tree at the end.
/// The trace and the answer share standard output, unbuffered, so that they come in order.
fn watched(
    model: &FznModel,
    options: &Options,
    watch: &Watch,
    tree_file: Option<(TreeFormat, std::fs::File)>,
    file: &str,
) -> Result<std::io::Result<Status>, String> {
    let trace = watch.trace.then(|| {
        Trace::new(&model.model, std::io::stdout())
            .with_domains(watch.domains)
            .with_limit(watch.trace_limit)
    });
    let tree = tree_file.as_ref().map(|(format, _)| {
        SearchTree::new(&model.model)
            .with_limit(watch.tree_limit)
            .with_domains(*format == TreeFormat::Html)
    });
    let mut observers = (trace, tree);
    let status = flatzinc::run_observed(model, options, &mut std::io::stdout(), &mut observers);
    let (trace, tree) = observers;
    if let Some(mut trace) = trace {
        let _ = trace.finish();
    }
    if let (Some(tree), Some((format, mut out))) = (tree, tree_file) {
        let held = tree.nodes().len() as u64;
        let title = if tree.cut() > 0 {
            format!(
                "cspkit fzn {file}: the search tree (the first {held} of {} tree nodes)",
                held + tree.cut()
            )
        } else {
            format!("cspkit fzn {file}: the search tree ({held} tree nodes)")
        };
        let text = format.render(&tree, &board_of(model), &title);
        out.write_all(text.as_bytes())
            .map_err(|e| format!("cannot write the tree: {e}"))?;
    }
    Ok(status)
}

/// The page's board for a FlatZinc model: its output arrays (a row for one index set, a grid
/// for two or more, rows of the last) and its output variables, one cell each; the table of
/// all variables if it outputs none.
fn board_of(model: &FznModel) -> Board {
    let cell = |value: &OutputValue| match *value {
        OutputValue::Var(var, _) => Some(var),
        _ => None,
    };
    let arrays: Vec<BoardArray> = model
        .output
        .iter()
        .map(|item| match item {
            OutputItem::Scalar { name, value } => BoardArray {
                name: name.clone(),
                columns: 1,
                cells: vec![cell(value)],
            },
            OutputItem::Array {
                name,
                ranges,
                values,
            } => BoardArray {
                name: name.clone(),
                columns: ranges.last().map_or(1, |&(low, high)| {
                    usize::try_from(high - low + 1).unwrap_or(1)
                }),
                cells: values.iter().map(cell).collect(),
            },
        })
        .filter(|a| a.cells.iter().any(Option::is_some))
        .collect();
    if arrays.is_empty() {
        Board::Table
    } else {
        Board::Arrays(arrays)
    }
}

/// The largest FlatZinc file read: larger ones (or endless input, `/dev/zero`) are refused
/// before they fill the memory. The MiniZinc Challenge's largest compiled models are tens of
/// megabytes.
const MAX_MODEL_BYTES: u64 = 256 << 20;

/// Reads the model file, refusing one larger than [`MAX_MODEL_BYTES`] or not UTF-8.
fn read_model(file: &str) -> Result<String, String> {
    use std::io::Read as _;
    let mut bytes = Vec::new();
    std::fs::File::open(file)
        .and_then(|f| f.take(MAX_MODEL_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read {file}: {e}"))?;
    if bytes.len() as u64 > MAX_MODEL_BYTES {
        return Err(format!(
            "{file}: larger than {} MiB, the most cspkit reads",
            MAX_MODEL_BYTES >> 20
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let text = String::from_utf8_lossy(&e.as_bytes()[..at]);
        let line = text.matches('\n').count() + 1;
        let column = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        format!("{file}: line {line}, column {column}: not UTF-8 text")
    })
}

/// Writes `cspkit.msc` and the MiniZinc library into `dir` (default `~/.minizinc/solvers`).
fn install(dir: Option<PathBuf>) -> Result<(), String> {
    let dir = match dir {
        Some(dir) => dir,
        None => {
            let home = std::env::var_os("HOME").ok_or("HOME is not set: give a directory")?;
            Path::new(&home).join(".minizinc").join("solvers")
        }
    };
    let executable = solver_executable()?;
    let library = dir.join("cspkit").join("mznlib");
    std::fs::create_dir_all(&library)
        .map_err(|e| format!("cannot create {}: {e}", library.display()))?;
    for (name, text) in flatzinc::MZNLIB {
        let path = library.join(name);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let json = |path: &Path| {
        let text = path.display().to_string();
        text.replace('\\', "\\\\").replace('"', "\\\"")
    };
    let msc = format!(
        r#"{{
  "id": "org.cspkit.cspkit",
  "name": "cspkit",
  "description": "cspkit, a small constraint-satisfaction engine in Rust",
  "version": "{version}",
  "mznlib": "{library}",
  "executable": "{executable}",
  "tags": ["cp", "int"],
  "stdFlags": ["-a", "-n", "-s", "-t", "-f", "-r", "-p"],
  "supportsMzn": false,
  "supportsFzn": true,
  "needsSolns2Out": true,
  "needsMznExecutable": false,
  "needsStdlibDir": false,
  "isGUIApplication": false
}}
"#,
        version = env!("CARGO_PKG_VERSION"),
        library = json(&library),
        executable = json(&executable),
    );
    let path = dir.join("cspkit.msc");
    std::fs::write(&path, msc).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    println!(
        "wrote {} (solver: {})",
        path.display(),
        executable.display()
    );
    println!("now: minizinc --solver cspkit model.mzn [data.dzn]");
    Ok(())
}

/// The `fzn-cspkit` program next to the running one (or the running one itself).
fn solver_executable() -> Result<PathBuf, String> {
    let me = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let me = me.canonicalize().unwrap_or(me);
    let name = format!("fzn-cspkit{}", std::env::consts::EXE_SUFFIX);
    if me.file_name().is_some_and(|n| n == name.as_str()) {
        return Ok(me);
    }
    let sibling = me.with_file_name(&name);
    if sibling.is_file() {
        Ok(sibling)
    } else {
        Err(format!(
            "{} not found next to {}: build or install both programs (cargo install --path .)",
            name,
            me.display()
        ))
    }
}
