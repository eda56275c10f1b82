//! `--local-search min-conflicts`: any model of the CLI solved by the library's
//! [`MinConflicts`], with a trace of its steps, its statistics, and an answer that keeps
//! "solved" apart from "not found in N steps" (never "no solution": local search is
//! incomplete).

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::Ordering;

use cspkit::{
    LocalOutcome, LocalSearchObserver, LocalSearchStats, MinConflicts, MinConflictsRestart,
    MinConflictsStart, MinConflictsStep, Model, Solution,
};

use crate::args::{LocalArgs, ShowArgs, TableFormat};
use crate::limits::{interrupt, started};
use crate::output::{counted, exit, output_failed};

/// The step budget of `--max-steps` when none is given.
pub(crate) const DEFAULT_MAX_STEPS: u64 = 1_000_000;

/// Solves `model` by the local search of `args`, printing the solution drawn by `render` on
/// standard output, the trace of `show` (each step and restart, up to `--trace-limit` lines)
/// on standard output before it, and the statistics of `args.stats` on standard error.
/// Returns the exit code: 0 solved, 3 not found within the steps or the time limit (with a
/// message saying that this is not a proof that there is no solution).
///
/// The solution is checked against every constraint of `model` before it is printed.
pub(crate) fn run(
    model: &Model,
    args: &LocalArgs,
    show: &ShowArgs,
    render: impl Fn(&Solution) -> String,
) -> u8 {
    let max_steps = args.max_steps.unwrap_or(DEFAULT_MAX_STEPS);
    let mut search = MinConflicts::new(model)
        .with_seed(args.seed.unwrap_or_default())
        .with_max_steps(max_steps)
        .with_cancel_flag(Arc::clone(interrupt()));
    if let Some(steps) = args.restart_after {
        search = search.with_restart_after(steps);
    }
    if let Some(time) = args.time_limit {
        // Counted from the start of the program: building a large model (millions of
        // queens) takes seconds too.
        search = search.with_time_limit(time.saturating_sub(started().elapsed()));
    }
    let mut out = io::stdout().lock();
    let outcome = if show.trace {
        let limit = show.trace_limit;
        let mut trace = StepTrace {
            model,
            out: &mut out,
            limit,
            written: 0,
            cut: 0,
            failed: None,
        };
        let outcome = search.run_observed(&mut trace);
        if let Err(error) = trace.finish() {
            let code = output_failed(error, exit::STOPPED);
            if code != exit::STOPPED {
                return code;
            }
        }
        outcome
    } else {
        search.run()
    };
    let stats = search.stats();
    let LocalOutcome::Solved(solution) = outcome else {
        print_stats(args, &search, &stats, false);
        let why = stats
            .stopped_by
            .map_or_else(String::new, |limit| format!(" ({limit})"));
        note!(
            "cspkit: no solution found in {} steps{why} (min-conflicts is incomplete: this does \
             not mean there is none)",
            stats.steps
        );
        return exit::STOPPED;
    };
    // The library checked the solution; the CLI's promise is checked here again.
    if !model.is_solution(solution.values()) {
        note!("cspkit: internal error: local search gave an assignment that breaks a constraint");
        return exit::STOPPED;
    }
    let written = out
        .write_all(render(&solution).as_bytes())
        .and_then(|()| out.flush());
    print_stats(args, &search, &stats, true);
    match written {
        Ok(()) => exit::SOLVED,
        Err(error) => output_failed(error, exit::SOLVED),
    }
}

/// Writes the statistics `--stats` asks for on standard error.
fn print_stats(
    args: &LocalArgs,
    search: &MinConflicts<'_>,
    stats: &LocalSearchStats,
    solved: bool,
) {
    let Some(format) = args.stats else {
        return;
    };
    let status = match (solved, stats.stopped_by) {
        (true, _) => "solved".to_owned(),
        (false, Some(limit)) => limit.to_string(),
        (false, None) => "not found".to_owned(),
    };
    let ms = stats.elapsed.as_secs_f64() * 1e3;
    let fields: [(&str, String); 8] = [
        ("method", "min-conflicts".to_owned()),
        ("seed", search.seed().to_string()),
        ("max_steps", search.max_steps().to_string()),
        ("restart_after", search.restart_after().to_string()),
        ("steps", stats.steps.to_string()),
        ("restarts", stats.restarts.to_string()),
        ("time_ms", format!("{ms:.3}")),
        ("status", status),
    ];
    let text = match format {
        TableFormat::Text => format!(
            "strategy: local search min-conflicts, seed {}, max steps {}, restart after {}\n\
             steps {}, restarts {}, in conflict after the first start {}, conflicts left {}, \
             time {ms:.3} ms",
            search.seed(),
            search.max_steps(),
            search.restart_after(),
            stats.steps,
            stats.restarts,
            stats.initial_conflicted,
            stats.final_conflicts,
        ),
        TableFormat::Json => {
            let body: Vec<String> = fields
                .iter()
                .map(|(name, value)| match *name {
                    "method" | "status" => format!("\"{name}\":\"{value}\""),
                    _ => format!("\"{name}\":{value}"),
                })
                .collect();
            format!("{{{}}}", body.join(","))
        }
        TableFormat::Csv => {
            let names: Vec<&str> = fields.iter().map(|(name, _)| *name).collect();
            let values: Vec<&str> = fields.iter().map(|(_, value)| value.as_str()).collect();
            format!("{}\n{}", names.join(","), values.join(","))
        }
        TableFormat::Markdown => {
            let names: Vec<&str> = fields.iter().map(|(name, _)| *name).collect();
            let values: Vec<&str> = fields.iter().map(|(_, value)| value.as_str()).collect();
            format!(
                "| {} |\n|{}\n| {} |",
                names.join(" | "),
                "---|".repeat(names.len()),
                values.join(" | ")
            )
        }
    };
    note!("{text}");
}

/// The most values of a start shown in the trace.
const START_SHOWN: usize = 40;

/// The trace of `--trace`: a line per start, step and restart, in the model's names, up to a
/// number of lines; a last line says how many were left out.
struct StepTrace<'a, W: Write> {
    model: &'a Model,
    out: &'a mut W,
    limit: u64,
    written: u64,
    cut: u64,
    failed: Option<io::Error>,
}

impl<W: Write> StepTrace<'_, W> {
    fn line(&mut self, text: std::fmt::Arguments<'_>) {
        if self.failed.is_some() {
            return;
        }
        if self.written >= self.limit {
            self.cut += 1;
            return;
        }
        self.written += 1;
        if let Err(error) = writeln!(self.out, "{text}") {
            // A reader gone (`--trace | head`): no point searching on.
            interrupt().store(true, Ordering::Relaxed);
            self.failed = Some(error);
        }
    }

    /// Writes the line that says what was cut, and flushes.
    fn finish(mut self) -> io::Result<()> {
        if let Some(error) = self.failed.take() {
            return Err(error);
        }
        if self.cut > 0 {
            writeln!(
                self.out,
                "... {} more trace lines not shown (--trace-limit {})",
                self.cut, self.limit
            )?;
        }
        self.out.flush()
    }
}

impl<W: Write> LocalSearchObserver for StepTrace<'_, W> {
    fn step(&mut self, step: &MinConflictsStep) {
        if self.written >= self.limit {
            // Formatting the name is the cost of a step line: skip it once the limit is hit.
            self.cut += 1;
            return;
        }
        let name = self.model.var_name(step.variable).into_owned();
        self.line(format_args!(
            "step {}: {name} {} -> {} (conflicts {} -> {}, {} in all)",
            step.step,
            self.model.value_name(step.variable, step.old_value),
            self.model.value_name(step.variable, step.new_value),
            step.conflicts_before,
            step.conflicts_after,
            step.total_conflicts
        ));
    }

    fn restart(&mut self, restart: &MinConflictsRestart) {
        self.line(format_args!(
            "restart {} after {} steps (fewest conflicts {}): a new start with {} conflicts",
            restart.restart, restart.steps, restart.best_conflicts, restart.conflicts
        ));
    }

    fn start(&mut self, start: &MinConflictsStart<'_>) {
        if self.written >= self.limit {
            self.cut += 1;
            return;
        }
        // The first values, in the model's names: a line, whatever the size of the model.
        let mut values: Vec<String> = self
            .model
            .variables()
            .zip(start.values)
            .take(START_SHOWN)
            .map(|(var, &value)| {
                format!(
                    "{} = {}",
                    self.model.var_name(var),
                    self.model.value_name(var, value)
                )
            })
            .collect();
        if start.values.len() > START_SHOWN {
            values.push(format!("… ({} variables)", start.values.len()));
        }
        self.line(format_args!(
            "start: {} ({})",
            values.join(", "),
            counted(start.conflicts, "conflict")
        ));
    }
}
