//! What the program writes besides the answer: exit codes, errors, statistics, and whether
//! the reader of standard output is still there.

use std::io;
use std::sync::atomic::Ordering;

use cspkit::teach::table;
use cspkit::{Propagation, SearchStats};

use crate::args::{Defaults, StrategyArgs, TableFormat};
use crate::limits::interrupt;

/// Exit codes.
pub(crate) mod exit {
    /// Solved (or counted at least one solution).
    pub const SOLVED: u8 = 0;
    /// No solution exists.
    pub const NO_SOLUTION: u8 = 1;
    /// Malformed input or bad usage.
    pub const BAD_INPUT: u8 = 2;
    /// A limit stopped the search before it could answer.
    pub const STOPPED: u8 = 3;
}

/// Whether the reader of standard output has gone (a closed pipe: `cspkit … --trace | head`),
/// asked without writing anything.
#[cfg(unix)]
pub(crate) fn stdout_closed() -> bool {
    use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
    use std::os::fd::AsFd;
    let stdout = io::stdout();
    let mut fds = [PollFd::new(stdout.as_fd(), PollFlags::POLLOUT)];
    poll(&mut fds, PollTimeout::ZERO).is_ok()
        && fds[0]
            .revents()
            .is_some_and(|r| r.intersects(PollFlags::POLLERR | PollFlags::POLLHUP))
}

/// Whether the reader of standard output has gone: not known on this system.
#[cfg(not(unix))]
pub(crate) fn stdout_closed() -> bool {
    false
}

/// Watches standard output while a search writes nothing to it (a trace past its limit):
/// when its reader goes, the search is stopped, as a write would have found.
pub(crate) fn watch_stdout() {
    let _ = std::thread::Builder::new()
        .name("stdout-watch".to_owned())
        .spawn(|| {
            loop {
                std::thread::sleep(std::time::Duration::from_millis(50));
                if stdout_closed() {
                    interrupt().store(true, Ordering::Relaxed);
                    return;
                }
            }
        });
}

/// Writes the statistics on standard error, as `--stats` asks: a line of text, or one row of
/// a strategy table (`strategy` and `defaults` name the row; `status` says how the search ended).
pub(crate) fn print_stats(
    stats: &SearchStats,
    strategy: &StrategyArgs,
    defaults: &Defaults,
    status: &str,
) {
    let Some(format) = strategy.stats else {
        return;
    };
    if format != TableFormat::Text {
        let names = strategy.names(defaults);
        let names = [&*names[0], &*names[1], &*names[2], &*names[3]];
        let record = table::Record::new(names, stats, status).with_backjumping(strategy.backjump);
        let text = match format {
            TableFormat::Json => record.to_json(),
            _ => table::render_records(&[record], format.into())
                .trim_end()
                .to_owned(),
        };
        note!("{text}");
        return;
    }
    let [var_order, value_order, propagation, branching] = strategy.names(defaults);
    note!(
        "strategy: var-order {var_order}, value-order {value_order}, propagation {propagation}, \
         branching {branching}{}",
        if strategy.learn {
            ", learning"
        } else if strategy.backjump {
            ", backjumping"
        } else {
            ""
        }
    );
    let mut restarts = if stats.restarts > 0 {
        format!(", restarts {}", stats.restarts)
    } else {
        String::new()
    };
    if strategy.backjump || stats.backjumps > 0 {
        restarts += &format!(
            ", backjumps {}, levels skipped {}",
            stats.backjumps, stats.levels_skipped
        );
    }
    if strategy.learn || stats.learned > 0 {
        restarts += &format!(
            ", conflicts {}, nogoods learned {} ({} literals, mean backjump distance {:.2})",
            stats.conflicts,
            stats.learned,
            stats.learned_literals,
            stats.mean_backjump_distance()
        );
        if stats.forgotten > 0 {
            restarts += &format!(", nogoods forgotten {}", stats.forgotten);
        }
    }
    if stats.revisions > 0 || propagation == Propagation::Ac3.name() {
        restarts += &format!(
            ", arc revisions {}, values removed {}",
            stats.revisions, stats.removals
        );
    }
    note!(
        "decisions {}, tree nodes {}, failures {}, nassigns {}, backtracks {}, propagations {}, \
         domain changes {}, solutions {}, max depth {}{restarts}, time {:.3} ms",
        stats.decisions,
        stats.tree_nodes(),
        stats.failures,
        stats.nassigns,
        stats.backtracks,
        stats.propagations,
        stats.domain_changes,
        stats.solutions,
        stats.max_depth,
        stats.elapsed.as_secs_f64() * 1e3
    );
}

/// `count` and `noun`, in the plural unless `count` is 1.
pub(crate) fn counted(count: u64, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// Reports an error on standard error and returns the bad-input exit code.
pub(crate) fn bad_input(message: impl std::fmt::Display) -> u8 {
    note!("cspkit: {message}");
    exit::BAD_INPUT
}

/// Turns an output error into an exit code: a closed pipe (`cspkit … | head`) ends quietly.
pub(crate) fn output_failed(error: io::Error, code: u8) -> u8 {
    if error.kind() == io::ErrorKind::BrokenPipe {
        return code;
    }
    bad_input(format_args!("cannot write the output: {error}"))
}
