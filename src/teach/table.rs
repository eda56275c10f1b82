//! A strategy table: one row per run of a search (its strategy and what it cost), written as
//! aligned text, CSV, JSON or Markdown. `cspkit compare` prints one; `--stats=json` prints one
//! row.

use std::fmt::Write as _;
use std::time::Duration;

use crate::search::stats::SearchStats;

/// One run: the strategy, as its parts are called on the command line, and its statistics.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The variable order (`input`, `mrv`, …).
    pub variable_order: String,
    /// The value order (`asc`, `lcv`, …).
    pub value_order: String,
    /// The propagation level (`none`, `fc`, `forward`, `full`).
    pub propagation: String,
    /// The branching (`assign`, `dway`, `split`).
    pub branching: String,
    /// Decisions (left branches; see [`SearchStats`] for every count's definition).
    pub decisions: u64,
    /// Nodes of the search tree: the root, decisions and refutations.
    pub tree_nodes: u64,
    /// Dead ends.
    pub failures: u64,
    /// AIMA's count of assignments (`nassigns`).
    pub nassigns: u64,
    /// Propagator runs.
    pub propagations: u64,
    /// Rewrites of a domain's word ([`SearchStats::domain_changes`]).
    pub domain_changes: u64,
    /// Solutions found.
    pub solutions: u64,
    /// Search time.
    pub time: Duration,
    /// `done`, or what stopped the run (`decision limit reached`, …).
    pub status: String,
}

impl Row {
    /// A row for a run of `strategy` (variable order, value order, propagation, branching)
    /// that ended with `stats` and `status`.
    pub fn new(strategy: [&str; 4], stats: &SearchStats, status: &str) -> Row {
        let [variable_order, value_order, propagation, branching] = strategy.map(str::to_owned);
        Row {
            variable_order,
            value_order,
            propagation,
            branching,
            decisions: stats.decisions,
            tree_nodes: stats.tree_nodes(),
            failures: stats.failures,
            nassigns: stats.nassigns,
            propagations: stats.propagations,
            domain_changes: stats.domain_changes,
            solutions: stats.solutions,
            time: stats.elapsed,
            status: status.to_owned(),
        }
    }

    fn cells(&self) -> Vec<String> {
        self.cells_with(None)
    }

    /// The cells, with `arcs` (a [`Record`]'s arc revisions and values removed) after the
    /// propagator runs, if given.
    fn cells_with(&self, arcs: Option<[u64; 2]>) -> Vec<String> {
        let mut cells = vec![
            self.variable_order.clone(),
            self.value_order.clone(),
            self.propagation.clone(),
            self.branching.clone(),
            self.decisions.to_string(),
            self.tree_nodes.to_string(),
            self.failures.to_string(),
            self.nassigns.to_string(),
            self.propagations.to_string(),
        ];
        cells.extend(arcs.into_iter().flatten().map(|count| count.to_string()));
        cells.extend([
            self.domain_changes.to_string(),
            self.solutions.to_string(),
            format!("{:.3}", self.time.as_secs_f64() * 1e3),
            self.status.clone(),
        ]);
        cells
    }

    /// The row as one JSON object.
    pub fn to_json(&self) -> String {
        json_object(&COLUMNS, &self.cells(), NUMERIC)
    }
}

/// One run with every count of its statistics: those of a [`Row`], and the arc revisions of
/// AC-3 with the values they removed ([`SearchStats::revisions`],
/// [`SearchStats::removals`]; 0 for another inference). The row `cspkit compare` and
/// `--stats=FORMAT` write, in the columns of [`RECORD_COLUMNS`].
///
/// # Examples
///
/// ```
/// use cspkit::models::colouring::Colouring;
/// use cspkit::teach::table::{self, Format, Record};
/// use cspkit::{Propagation, SearchConfig};
///
/// let australia = Colouring::australia(3)?;
/// let config = SearchConfig::new().with_propagation(Propagation::Ac3);
/// let mut solver = australia.model().solver_with(config)?;
/// solver.count();
/// let record = Record::new(["input", "asc", "ac3", "assign"], &solver.stats(), "done");
/// assert_eq!(record.revisions, 128);
/// let csv = table::render_records(&[record], Format::Csv);
/// assert!(csv.starts_with("var_order,value_order,propagation,branching,decisions,"));
/// assert!(csv.contains(",propagations,arc_revisions,values_removed,domain_changes,"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Record {
    /// The strategy and the counts every inference has.
    pub row: Row,
    /// Arc revisions of AC-3: the times REVISE(Xi, Xj) ran.
    pub revisions: u64,
    /// The values AC-3's revisions removed.
    pub removals: u64,
    /// Whether the run used conflict-directed backjumping
    /// ([`SearchConfig::with_backjumping`](crate::SearchConfig::with_backjumping)): its
    /// record then has the columns of [`BACKJUMP_COLUMNS`] too, and so has every record of a
    /// table that holds it.
    pub backjumping: bool,
    /// Backjumps that skipped at least one decision ([`SearchStats::backjumps`]).
    pub backjumps: u64,
    /// Decisions jumped over by those backjumps ([`SearchStats::levels_skipped`]).
    pub levels_skipped: u64,
}

impl Record {
    /// A record of a run of `strategy` (variable order, value order, propagation, branching)
    /// that ended with `stats` and `status`.
    pub fn new(strategy: [&str; 4], stats: &SearchStats, status: &str) -> Record {
        Record {
            row: Row::new(strategy, stats, status),
            revisions: stats.revisions,
            removals: stats.removals,
            backjumping: false,
            backjumps: stats.backjumps,
            levels_skipped: stats.levels_skipped,
        }
    }

    /// The same record, of a run with backjumping on or off (`backjumping`): with it on, the
    /// record has the columns of [`BACKJUMP_COLUMNS`].
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::models::queens::Queens;
    /// use cspkit::teach::table::{self, Format, Record};
    /// use cspkit::Propagation;
    ///
    /// let queens = Queens::new(8)?;
    /// let mut solver = queens
    ///     .model()
    ///     .solver()
    ///     .with_propagation(Propagation::TextbookForward)
    ///     .with_backjumping(true);
    /// solver.count();
    /// let stats = solver.stats();
    /// let record = Record::new(["input", "asc", "fc", "assign"], &stats, "done").with_backjumping(true);
    /// assert!(record.to_json().contains(&format!("\"backjumps\": {}", stats.backjumps)));
    /// let csv = table::render_records(&[record], Format::Csv);
    /// assert!(csv.starts_with("var_order,value_order,propagation,branching,backjump,decisions,"));
    /// assert!(csv.contains(",values_removed,backjumps,levels_skipped,domain_changes,"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_backjumping(mut self, backjumping: bool) -> Record {
        self.backjumping = backjumping;
        self
    }

    /// The cells, with those of [`BACKJUMP_COLUMNS`] if `backjump` (a table holding a run with
    /// backjumping).
    fn cells(&self, backjump: bool) -> Vec<String> {
        let mut cells = self.row.cells_with(Some([self.revisions, self.removals]));
        if backjump {
            let on = if self.backjumping { "on" } else { "off" };
            cells.insert(4, on.to_owned());
            // After the values removed (shifted by one by the column inserted).
            let at = RECORD_COLUMNS
                .iter()
                .position(|&c| c == "values_removed")
                .map_or(cells.len(), |i| i + 2);
            cells.insert(at, self.levels_skipped.to_string());
            cells.insert(at, self.backjumps.to_string());
        }
        cells
    }

    /// The record as one JSON object (with the fields of [`BACKJUMP_COLUMNS`] for a run with
    /// backjumping).
    pub fn to_json(&self) -> String {
        self.to_json_in(self.backjumping)
    }

    /// The record as one JSON object, with the fields of [`BACKJUMP_COLUMNS`] if `backjump`.
    fn to_json_in(&self, backjump: bool) -> String {
        let columns = record_columns(backjump);
        json_object(&columns, &self.cells(backjump), record_numeric(backjump))
    }
}

/// The columns of a table of [`Record`]s, with those of [`BACKJUMP_COLUMNS`] if `backjump`.
fn record_columns(backjump: bool) -> Vec<&'static str> {
    let mut columns = RECORD_COLUMNS.to_vec();
    if backjump {
        columns.insert(4, BACKJUMP_COLUMNS[0]);
        let at = columns
            .iter()
            .position(|&c| c == "values_removed")
            .map_or(columns.len(), |i| i + 1);
        columns.insert(at, BACKJUMP_COLUMNS[2]);
        columns.insert(at, BACKJUMP_COLUMNS[1]);
    }
    columns
}

/// The columns of [`record_columns`] that hold numbers: all but the strategy's and the status.
fn record_numeric(backjump: bool) -> std::ops::Range<usize> {
    let len = record_columns(backjump).len();
    if backjump { 5..len - 1 } else { RECORD_NUMERIC }
}

/// One JSON object: each of `columns` with its cell, unquoted in the `numeric` range.
fn json_object(columns: &[&str], cells: &[String], numeric: std::ops::Range<usize>) -> String {
    let mut out = String::from("{");
    for (i, (name, cell)) in columns.iter().zip(cells).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let value = if numeric.contains(&i) {
            cell.clone()
        } else {
            json_literal(cell)
        };
        let _ = write!(out, "\"{name}\": {value}");
    }
    out.push('}');
    out
}

/// The columns, in order (the time in milliseconds).
pub const COLUMNS: [&str; 13] = [
    "var_order",
    "value_order",
    "propagation",
    "branching",
    "decisions",
    "tree_nodes",
    "failures",
    "nassigns",
    "propagations",
    "domain_changes",
    "solutions",
    "time_ms",
    "status",
];

/// The columns that hold numbers (right-aligned, unquoted in JSON).
const NUMERIC: std::ops::Range<usize> = 4..12;

/// The columns of a [`Record`], in order: those of [`COLUMNS`], with the arc revisions and the
/// values they removed after the propagator runs.
pub const RECORD_COLUMNS: [&str; 15] = [
    "var_order",
    "value_order",
    "propagation",
    "branching",
    "decisions",
    "tree_nodes",
    "failures",
    "nassigns",
    "propagations",
    "arc_revisions",
    "values_removed",
    "domain_changes",
    "solutions",
    "time_ms",
    "status",
];

/// The columns a table of [`Record`]s gains when one of its runs used backjumping: whether
/// each run did (`on` or `off`, after the branching), then its backjumps and the levels they
/// skipped (after the values removed).
pub const BACKJUMP_COLUMNS: [&str; 3] = ["backjump", "backjumps", "levels_skipped"];

/// The columns of a [`Record`] that hold numbers.
const RECORD_NUMERIC: std::ops::Range<usize> = 4..14;

/// How to write a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Aligned columns, for a terminal.
    Text,
    /// Comma-separated values with a header line (fields quoted when needed).
    Csv,
    /// A JSON array of objects.
    Json,
    /// A Markdown table.
    Markdown,
}

impl Format {
    /// The format's name, as `--format` and `--stats=FORMAT` write it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Markdown => "markdown",
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Format {
    type Err = crate::ParseNameError;

    /// `text`, `csv`, `json` or `markdown`.
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        crate::error::parse_name(
            "table format",
            name,
            &[
                ("text", Format::Text),
                ("csv", Format::Csv),
                ("json", Format::Json),
                ("markdown", Format::Markdown),
            ],
            &["text", "csv", "json", "markdown"],
        )
    }
}

/// A JSON string literal.
#[deprecated(
    since = "0.3.0",
    note = "an internal of `table::render`, no longer public in the next version"
)]
#[doc(hidden)]
pub fn json_string(text: &str) -> String {
    json_literal(text)
}

/// A JSON string literal.
fn json_literal(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// The table of `rows`, in `format`.
///
/// # Examples
///
/// ```
/// use cspkit::teach::table::{self, Format, Row};
/// use cspkit::models::queens::Queens;
///
/// let queens = Queens::new(6)?;
/// let mut solver = queens.model().solver();
/// solver.count();
/// let row = Row::new(["input", "asc", "full", "assign"], &solver.stats(), "done");
/// let csv = table::render(&[row], Format::Csv);
/// assert!(csv.starts_with("var_order,value_order,propagation,branching,decisions,tree_nodes,"));
/// assert!(csv.lines().nth(1).unwrap().starts_with("input,asc,full,assign,"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn render(rows: &[Row], format: Format) -> String {
    let cells: Vec<Vec<String>> = rows.iter().map(Row::cells).collect();
    let json: Vec<String> = rows.iter().map(Row::to_json).collect();
    render_cells(&COLUMNS, NUMERIC, &cells, &json, format)
}

/// The table of `records`, in `format`: [`render`] with the columns of AC-3's arc revisions
/// and the values they removed ([`RECORD_COLUMNS`]).
///
/// When one of the records used backjumping ([`Record::backjumping`]), every row has the
/// columns of [`BACKJUMP_COLUMNS`] too.
pub fn render_records(records: &[Record], format: Format) -> String {
    let backjump = records.iter().any(|r| r.backjumping);
    let cells: Vec<Vec<String>> = records.iter().map(|r| r.cells(backjump)).collect();
    let json: Vec<String> = records.iter().map(|r| r.to_json_in(backjump)).collect();
    let columns = record_columns(backjump);
    render_cells(&columns, record_numeric(backjump), &cells, &json, format)
}

/// A table of `columns` (numbers in the `numeric` range) with a row of `rows` each (and its
/// JSON object in `json`), in `format`.
fn render_cells(
    columns: &[&str],
    numeric: std::ops::Range<usize>,
    rows: &[Vec<String>],
    json: &[String],
    format: Format,
) -> String {
    let mut out = String::new();
    match format {
        Format::Json => {
            out.push_str("[\n");
            for (i, row) in json.iter().enumerate() {
                let comma = if i + 1 < json.len() { "," } else { "" };
                let _ = writeln!(out, "  {row}{comma}");
            }
            out.push_str("]\n");
        }
        Format::Csv => {
            let _ = writeln!(out, "{}", columns.join(","));
            for row in rows {
                let cells: Vec<String> = row.iter().map(|c| csv_field(c)).collect();
                let _ = writeln!(out, "{}", cells.join(","));
            }
        }
        Format::Markdown => {
            let _ = writeln!(out, "| {} |", columns.join(" | "));
            let align: Vec<&str> = (0..columns.len())
                .map(|i| if numeric.contains(&i) { "---:" } else { "---" })
                .collect();
            let _ = writeln!(out, "|{}|", align.join("|"));
            for row in rows {
                let cells: Vec<String> = row.iter().map(|c| c.replace('|', "\\|")).collect();
                let _ = writeln!(out, "| {} |", cells.join(" | "));
            }
        }
        Format::Text => {
            let widths: Vec<usize> = (0..columns.len())
                .map(|i| {
                    rows.iter()
                        .map(|cells| cells[i].chars().count())
                        .chain([columns[i].len()])
                        .max()
                        .unwrap_or(0)
                })
                .collect();
            let line = |cells: &[String]| -> String {
                let padded: Vec<String> = cells
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        let pad = widths[i] - c.chars().count();
                        if numeric.contains(&i) {
                            format!("{}{c}", " ".repeat(pad))
                        } else {
                            format!("{c}{}", " ".repeat(pad))
                        }
                    })
                    .collect();
                padded.join("  ").trim_end().to_owned()
            };
            let header: Vec<String> = columns.iter().map(|c| (*c).to_owned()).collect();
            let _ = writeln!(out, "{}", line(&header));
            for cells in rows {
                let _ = writeln!(out, "{}", line(cells));
            }
        }
    }
    out
}
