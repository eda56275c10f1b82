//! `fzn-cspkit`: the FlatZinc solver program MiniZinc runs for `--solver cspkit` (`cspkit fzn`
//! solves the same models, and watches their search; see `cspkit fzn --help`).
//!
//! Its arguments are MiniZinc's standard flags, read by hand so that it needs no argument
//! parser.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, TryLockError};
use std::time::{Duration, Instant};

use cspkit::flatzinc::{self, Options, Status};

#[path = "cspkit/fzn.rs"]
mod fzn;

use fzn::{install, read_model};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    ExitCode::from(run_main(&args))
}

/// Exit codes, as `cspkit`'s.
const SOLVED: u8 = 0;
const NO_SOLUTION: u8 = 1;
const BAD_INPUT: u8 = 2;
const STOPPED: u8 = 3;

const HELP: &str = "\
Solve a FlatZinc model (what MiniZinc compiles a model into), printing its solutions in the
FlatZinc output format.

Usage: fzn-cspkit [OPTIONS] MODEL.fzn
       fzn-cspkit --install-msc [DIR]

Options (MiniZinc's standard flags):
  -a            all solutions; for an optimisation, each improving solution
  -n N          stop after N solutions; for an optimisation, after N improving
                solutions, each printed as it is found
  -s            statistics, as %%%mzn-stat: lines
  -t MS         time limit in milliseconds
  -f            free search: ignore the search annotations (the start times of a
                scheduling model by smallest minimum, the other variables by dom/wdeg,
                with Luby restarts; also used when the model has no annotation)
  -r SEED       seed of indomain_random
  -p N          threads (accepted; the search runs on one)
  --no-lns      optimisation by branch and bound alone, without the large-neighbourhood
                search that runs beside it by default
  --learn       learning from failures: each failure is analysed into a nogood that the
                search keeps and propagates (lazy clause generation); off by default
  --no-learn    no learning (the default)

  --install-msc [DIR]
                write the solver configuration cspkit.msc and cspkit's MiniZinc library
                into DIR (default: ~/.minizinc/solvers), for `minizinc --solver cspkit`

Output: each solution, then `----------`; `==========` when the search is complete;
`=====UNSATISFIABLE=====`; `=====UNKNOWN=====` when a limit stops it before any solution.
An optimisation prints its best solution at the end, or each improving one as it is found
with -a or -n N. SIGINT or SIGTERM stops the search as a limit does: the best solution found
is printed, then the statistics; a second signal ends the program at once.
Exit codes: 0 solved, 1 no solution, 2 bad input or unsupported model, 3 stopped by a limit.
`cspkit fzn` solves the same models, and watches their search (`cspkit fzn --help`).";

/// Runs the FlatZinc front end on `args` (without the program's name); returns the exit code.
fn run_main(args: &[String]) -> u8 {
    match run(args) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("fzn-cspkit: {message}");
            BAD_INPUT
        }
    }
}

fn run(args: &[String]) -> Result<u8, String> {
    // `-t` counts from here: reading a large model is part of the time asked for.
    let started = Instant::now();
    let mut options = Options {
        lns: true,
        cancel: Some(stop_on_signal()),
        ..Options::default()
    };
    let mut learn = false;
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
            "--no-lns" => options.lns = false,
            "--learn" => learn = true,
            "--no-learn" => learn = false,
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
                return Err(format!("unknown option {flag} (see fzn-cspkit --help)"));
            }
            path => {
                if file.replace(path).is_some() {
                    return Err("more than one model file given".into());
                }
            }
        }
    }
    let file = file.ok_or("no model file given (see fzn-cspkit --help)")?;
    let text = read_model(file)?;
    // The text, then the items, are let go as soon as read: a model's data can be large.
    let items = flatzinc::parse(&text).map_err(|e| format!("{file}: {e}"))?;
    drop(text);
    let model = flatzinc::build(&items).map_err(|e| format!("{file}: {e}"))?;
    drop(items);
    for warning in model.warnings() {
        eprintln!("fzn-cspkit: warning: {file}: {warning}");
    }
    options.time_limit = options
        .time_limit
        .map(|limit| limit.saturating_sub(started.elapsed()));
    let mut out = WholeWrites::default();
    let mut solver =
        flatzinc::solver_for(&model, &options, cspkit::NoObserver).with_learning(learn);
    let status = flatzinc::solve(&model, &options, &mut solver, &mut out);
    let _ = out.flush();
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

/// Held while a piece of the output is written: a second signal waits for it before ending the
/// program, so that the output never ends in the middle of a solution.
static WRITING: Mutex<()> = Mutex::new(());

/// A flag raised by SIGINT or SIGTERM, which stops the search; a second signal ends the program
/// at once (once the output being written, if any, is whole).
fn stop_on_signal() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let raised = Arc::clone(&flag);
    // If a handler cannot be installed, a signal ends the program as it would anyway.
    let _ = ctrlc::set_handler(move || {
        if raised.swap(true, Ordering::Relaxed) {
            // Standard output may be stuck (a reader that does not read): wait only so long.
            let waited = Instant::now();
            let _writing = loop {
                match WRITING.try_lock() {
                    Ok(guard) => break Some(guard),
                    Err(TryLockError::Poisoned(poisoned)) => break Some(poisoned.into_inner()),
                    Err(TryLockError::WouldBlock) if waited.elapsed() < Duration::from_secs(2) => {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    Err(TryLockError::WouldBlock) => break None,
                }
            };
            std::process::exit(130);
        }
    });
    flag
}

/// Standard output, written a whole piece at a time: what the solver writes is kept until it
/// flushes (after each solution, and at the end), then written out in one go, with
/// [`WRITING`] held.
#[derive(Debug, Default)]
struct WholeWrites {
    pending: Vec<u8>,
}

impl Write for WholeWrites {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let _writing = WRITING.lock().unwrap_or_else(PoisonError::into_inner);
        let mut out = io::stdout().lock();
        out.write_all(&self.pending)?;
        out.flush()?;
        self.pending.clear();
        Ok(())
    }
}
