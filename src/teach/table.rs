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

    fn cells(&self) -> [String; 13] {
        [
            self.variable_order.clone(),
            self.value_order.clone(),
            self.propagation.clone(),
            self.branching.clone(),
            self.decisions.to_string(),
            self.tree_nodes.to_string(),
            self.failures.to_string(),
            self.nassigns.to_string(),
            self.propagations.to_string(),
            self.domain_changes.to_string(),
            self.solutions.to_string(),
            format!("{:.3}", self.time.as_secs_f64() * 1e3),
            self.status.clone(),
        ]
    }

    /// The row as one JSON object.
    pub fn to_json(&self) -> String {
        let mut out = String::from("{");
        for (i, (name, cell)) in COLUMNS.iter().zip(self.cells()).enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let numeric = NUMERIC.contains(&i);
            let value = if numeric { cell } else { json_literal(&cell) };
            let _ = write!(out, "\"{name}\": {value}");
        }
        out.push('}');
        out
    }
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
    let mut out = String::new();
    match format {
        Format::Json => {
            out.push_str("[\n");
            for (i, row) in rows.iter().enumerate() {
                let comma = if i + 1 < rows.len() { "," } else { "" };
                let _ = writeln!(out, "  {}{comma}", row.to_json());
            }
            out.push_str("]\n");
        }
        Format::Csv => {
            let _ = writeln!(out, "{}", COLUMNS.join(","));
            for row in rows {
                let cells: Vec<String> = row.cells().iter().map(|c| csv_field(c)).collect();
                let _ = writeln!(out, "{}", cells.join(","));
            }
        }
        Format::Markdown => {
            let _ = writeln!(out, "| {} |", COLUMNS.join(" | "));
            let align: Vec<&str> = (0..COLUMNS.len())
                .map(|i| if NUMERIC.contains(&i) { "---:" } else { "---" })
                .collect();
            let _ = writeln!(out, "|{}|", align.join("|"));
            for row in rows {
                let cells: Vec<String> =
                    row.cells().iter().map(|c| c.replace('|', "\\|")).collect();
                let _ = writeln!(out, "| {} |", cells.join(" | "));
            }
        }
        Format::Text => {
            let all: Vec<[String; 13]> = rows.iter().map(Row::cells).collect();
            let widths: Vec<usize> = (0..COLUMNS.len())
                .map(|i| {
                    all.iter()
                        .map(|cells| cells[i].chars().count())
                        .chain([COLUMNS[i].len()])
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
                        if NUMERIC.contains(&i) {
                            format!("{}{c}", " ".repeat(pad))
                        } else {
                            format!("{c}{}", " ".repeat(pad))
                        }
                    })
                    .collect();
                padded.join("  ").trim_end().to_owned()
            };
            let header: Vec<String> = COLUMNS.iter().map(|c| (*c).to_owned()).collect();
            let _ = writeln!(out, "{}", line(&header));
            for cells in &all {
                let _ = writeln!(out, "{}", line(cells));
            }
        }
    }
    out
}
