//! `run_trace`: the standard output of `cspkit <model> <options> --trace`, produced in the
//! same order by the same library calls, so that a native and a WebAssembly search can be
//! compared byte for byte.
//!
//! The spec's `solutions` stands for the CLI's mode: 1 the first solution (no option), 0
//! `--count`, n `--all --limit n`; `node_limit` for `--node-limit`, `time_limit_ms` for
//! `--time-limit` (in seconds there), `trace_limit` for `--trace-limit`.

use std::cell::RefCell;
use std::io::{self, Write};
use std::rc::Rc;

use cspkit::flatzinc::{self, Options};
use cspkit::teach::trace::Trace;
use cspkit::{Limit, Outcome};

use crate::error::WebError;
use crate::puzzle::Puzzle;
use crate::spec::Spec;

/// A writer into a buffer shared by the trace and the solutions, as standard output is.
#[derive(Debug, Clone, Default)]
pub struct Shared(pub Rc<RefCell<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The standard output of the CLI's `--trace` run of `spec`.
///
/// # Errors
///
/// A model that cannot be built, or a solver it refuses.
pub fn run_trace(spec: &Spec) -> Result<String, WebError> {
    let puzzle = Puzzle::build(&spec.model)?;
    let solver = puzzle.solver(spec)?;
    let out = Shared::default();
    let mut trace = Trace::new(puzzle.model(), out.clone())
        .with_counting(solver.config().counting())
        .with_limit(spec.trace_limit);
    let mut printed = out.clone();
    {
        let mut solver = solver.with_observer(&mut trace);
        if let Puzzle::FlatZinc(fzn) = &puzzle {
            let count = spec.solutions == 0;
            let options = Options {
                all: spec.solutions != 1,
                solutions: (spec.solutions > 1).then_some(spec.solutions),
                time_limit: None,
                free: false,
                seed: 0,
                statistics: false,
                lns: false,
                cancel: None,
            };
            let status = if count {
                let mut counted = SolutionCounter::default();
                let status = flatzinc::solve(fzn, &options, &mut solver, &mut counted);
                // A count is printed when the search finished, as `cspkit fzn --count`.
                if matches!(
                    status,
                    Ok(flatzinc::Status::Complete | flatzinc::Status::Unsatisfiable)
                ) {
                    let _ = writeln!(printed, "{}", counted.solutions);
                }
                status
            } else {
                flatzinc::solve(fzn, &options, &mut solver, &mut printed)
            };
            let _ = status;
        } else {
            let render = |s: &cspkit::Solution| puzzle.render(s);
            let separator = puzzle.separator();
            if spec.solutions == 0 {
                let count = solver.count_up_to(u64::MAX);
                if matches!(count.stopped_by, None | Some(Limit::Solutions)) {
                    let _ = writeln!(printed, "{}", count.solutions);
                }
            } else if spec.solutions > 1 {
                let mut found = 0;
                let mut solutions = solver.solutions();
                while found < spec.solutions {
                    let Some(solution) = solutions.next() else {
                        break;
                    };
                    let sep = if found > 0 { separator } else { "" };
                    let _ = write!(printed, "{sep}{}", render(&solution));
                    found += 1;
                }
            } else if let Outcome::Solved(solution) = solver.next_solution() {
                let _ = write!(printed, "{}", render(&solution));
            }
        }
    }
    let _ = trace.finish();
    drop(trace);
    let bytes = out.0.borrow().clone();
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// A sink that counts FlatZinc solutions (the lines `----------`), as `cspkit fzn --count`
/// does.
#[derive(Debug, Default)]
struct SolutionCounter {
    solutions: u64,
    line: Vec<u8>,
}

impl Write for SolutionCounter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for &byte in buf {
            if byte == b'\n' {
                if self.line == b"----------" {
                    self.solutions += 1;
                }
                self.line.clear();
            } else if self.line.len() <= 10 {
                self.line.push(byte);
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
