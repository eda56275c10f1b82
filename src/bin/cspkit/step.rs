//! `--step`: the search one event at a time, driven from the keyboard.
//!
//! The search runs one node per [`Solver::step`] with a [`Trace`] writing into a buffer; each
//! line of the buffer waits for Enter. `c` (then Enter) prints the rest without waiting, `q`
//! quits. End of input counts as `c`, so `--step < /dev/null` prints the whole trace.

use std::io::{self, BufRead, Write};

use cspkit::teach::trace::Trace;
use cspkit::{Solution, Solver, StepEvent};

use crate::args::ShowArgs;
use crate::{Answer, ChosenValueOrder, ChosenVariableOrder, CliSolver, exit, output_failed};

/// What the reader asked for after a line.
enum Key {
    Next,
    Continue,
    Quit,
}

/// Steps through the search the mode asks for (a first solution, or all of them with `--all`
/// or `--count`); returns the exit code.
pub(crate) fn run(
    solver: CliSolver<'_>,
    show: &ShowArgs,
    answer: Answer<'_>,
    render: impl Fn(&Solution) -> String,
) -> u8 {
    let limit = usize::try_from(show.trace_limit).unwrap_or(usize::MAX);
    let trace = Trace::new(solver.model(), Vec::new()).with_limit(limit);
    let mut solver: Solver<'_, ChosenVariableOrder, ChosenValueOrder, Trace<'_, Vec<u8>>> =
        solver.with_observer(trace);
    let listing = answer.mode.count || answer.mode.all;
    let mut input = io::stdin().lock();
    let mut out = io::stdout().lock();
    let mut waiting = true;
    let mut found = 0u64;
    if waiting {
        note!("cspkit: Enter shows the next event; c then Enter runs to the end; q quits");
    }
    loop {
        let event = solver.step();
        solver.observer_mut().flush();
        let lines = std::mem::take(solver.observer_mut().writer_mut());
        for line in String::from_utf8_lossy(&lines).lines() {
            if let Err(error) = writeln!(out, "{line}").and_then(|()| out.flush()) {
                return output_failed(error, exit::SOLVED);
            }
            if waiting {
                match read_key(&mut input) {
                    Key::Next => {}
                    Key::Continue => waiting = false,
                    Key::Quit => {
                        note!("cspkit: stopped by q");
                        return exit::STOPPED;
                    }
                }
            }
        }
        match event {
            StepEvent::Solution { solution, .. } => {
                found += 1;
                if !answer.mode.count {
                    let text = render(&solution);
                    if let Err(error) = write!(out, "{text}") {
                        return output_failed(error, exit::SOLVED);
                    }
                }
                if !listing || answer.mode.limit.is_some_and(|max| found >= max) {
                    break;
                }
            }
            StepEvent::Exhausted => break,
            StepEvent::Stopped(limit) => {
                note!("cspkit: search stopped ({limit})");
                return exit::STOPPED;
            }
            _ => {}
        }
    }
    if answer.mode.count
        && let Err(error) = writeln!(out, "{found}")
    {
        return output_failed(error, exit::SOLVED);
    }
    // What the trace still holds: the line of the last node, and what a limit cut.
    if let Err(error) = solver.observer_mut().finish() {
        return output_failed(error, exit::SOLVED);
    }
    let rest = std::mem::take(solver.observer_mut().writer_mut());
    if let Err(error) = out.write_all(&rest) {
        return output_failed(error, exit::SOLVED);
    }
    crate::print_stats(&solver.stats(), answer.strategy, answer.level, "done");
    if found == 0 {
        note!("cspkit: no solution");
        return exit::NO_SOLUTION;
    }
    exit::SOLVED
}

/// The most bytes of one line of input kept: a key is a letter, and endless input without a
/// line break (`< /dev/zero`) must not fill the memory.
const MAX_KEY_LINE: u64 = 64;

/// Waits for a line of input: empty for the next event, `c` to continue, `q` to quit. A line
/// longer than [`MAX_KEY_LINE`] bytes ends the stepping (`c`): it is no key.
fn read_key(input: &mut impl BufRead) -> Key {
    let mut line = Vec::new();
    match io::Read::take(&mut *input, MAX_KEY_LINE).read_until(b'\n', &mut line) {
        Ok(0) | Err(_) => Key::Continue,
        Ok(_) if !line.ends_with(b"\n") && line.len() as u64 == MAX_KEY_LINE => Key::Continue,
        Ok(_) => match String::from_utf8_lossy(&line).trim() {
            "q" | "Q" => Key::Quit,
            "c" | "C" => Key::Continue,
            _ => Key::Next,
        },
    }
}
