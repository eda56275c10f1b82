//! Reading the puzzle the arguments name, and refusing options that make no sense together.

use std::fs::File;
use std::io::{self, IsTerminal, Read};
use std::path::Path;

use cspkit::models::colouring::Colouring;
use cspkit::models::queens::Queens;
use cspkit::models::sudoku::{Grid, GridFormat, MAX_INPUT_BYTES, ParseError};

use crate::args::{LocalArgs, ModeArgs, QueensModel, ShowArgs, StrategyArgs};
use crate::output::bad_input;

/// Reads at most one byte more than a grid may take, from `file` or standard input if `None`.
pub(crate) fn read_input(file: Option<&Path>) -> Result<Vec<u8>, String> {
    let limit = MAX_INPUT_BYTES as u64 + 1;
    let mut bytes = Vec::new();
    let result = match file {
        Some(path) => File::open(path)
            .and_then(|f| f.take(limit).read_to_end(&mut bytes))
            .map_err(|e| format!("{}: {e}", path.display())),
        None => {
            if io::stdin().is_terminal() {
                note!("cspkit: reading a puzzle from standard input (end it with Ctrl-D)");
            }
            io::stdin()
                .lock()
                .take(limit)
                .read_to_end(&mut bytes)
                .map_err(|e| format!("standard input: {e}"))
        }
    };
    result.map(|_| bytes)
}

/// Refuses options that make no sense together, with `--local-search` or without.
pub(crate) fn check_local_options(
    mode: &ModeArgs,
    strategy: &StrategyArgs,
    local: &LocalArgs,
    show: &ShowArgs,
) -> Result<(), u8> {
    if local.local_search.is_none() {
        return check_options(mode, strategy, show, false);
    }
    match LocalArgs::conflict(mode, strategy, show) {
        Some(message) => Err(bad_input(message)),
        None => Ok(()),
    }
}

/// Refuses options that make no sense together.
fn check_options(
    mode: &ModeArgs,
    strategy: &StrategyArgs,
    show: &ShowArgs,
    batch: bool,
) -> Result<(), u8> {
    let conflict = strategy
        .conflict(mode.count || mode.all, batch)
        .or_else(|| show.conflict(strategy, batch));
    if let Some(message) = conflict {
        return Err(bad_input(message));
    }
    match show.tree_format() {
        Some(Err(message)) => Err(bad_input(message)),
        _ => Ok(()),
    }
}

/// Reads and parses one grid from `file` (standard input if absent or `-`); a bad input is
/// reported, and its exit code returned.
pub(crate) fn load_grid(
    file: Option<&Path>,
    format: Option<GridFormat>,
) -> Result<(Grid, GridFormat), u8> {
    let path = file.filter(|p| p.as_os_str() != "-");
    let source = path.map_or("standard input".into(), |p| p.display().to_string());
    let bytes = read_input(path).map_err(bad_input)?;
    match Grid::parse_bytes(&bytes, format) {
        Ok(parsed) => Ok(parsed),
        Err(error @ ParseError::TextAfterGrid { .. }) => Err(bad_input(format_args!(
            "{source}: {error} (to solve one puzzle per line, use --batch)"
        ))),
        Err(error) => Err(bad_input(format_args!("{source}: {error}"))),
    }
}

/// The N-Queens model asked for.
pub(crate) fn queens_model(n: usize, model: QueensModel) -> Result<Queens, u8> {
    let built = match model {
        QueensModel::Alldiff => Queens::new(n),
        QueensModel::Binary => Queens::pairwise(n),
        QueensModel::Board => Queens::non_attacking(n),
    };
    built.map_err(bad_input)
}

/// The colouring of the graph named `graph`.
pub(crate) fn colouring(graph: &str, colours: i32) -> Result<Colouring, u8> {
    let built = match graph.strip_prefix("myciel").map(str::parse::<u32>) {
        _ if graph == "australia" => Colouring::australia(colours),
        Some(Ok(order)) if (3..=8).contains(&order) => Colouring::mycielski(order, colours),
        _ => {
            return Err(bad_input(format_args!(
                "unknown graph {graph:?}: the graphs are australia and myciel3 to myciel8"
            )));
        }
    };
    built.map_err(bad_input)
}
