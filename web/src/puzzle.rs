//! The model a spec names, built as the CLI builds it, with its views: the text of a solution
//! (as the CLI prints it), its values by name (for the page), and its board on the tree page.

use cspkit::flatzinc::{self, FznModel, OutputItem, OutputValue};
use cspkit::models::colouring::Colouring;
use cspkit::models::queens::Queens;
use cspkit::models::sudoku::{Grid, GridFormat, ParseError, Sudoku};
use cspkit::teach::html::{Board, BoardArray};
use cspkit::{Model, Propagation, SearchConfig, Solution, Solver};
use serde_json::{Map, Value, json};

use crate::error::{WebError, What};
use crate::spec::{ModelSpec, Spec};
use crate::strategy::{ChosenValueOrder, ChosenVariableOrder};

/// The solver of a spec: orders chosen by name, or a FlatZinc model's annotations.
pub type WebSolver<'m> = Solver<'m, ChosenVariableOrder, ChosenValueOrder>;

/// A model built from a spec.
#[derive(Debug)]
pub enum Puzzle {
    /// N-Queens.
    Queens(Queens),
    /// A Sudoku, and the format its grid was written in.
    Sudoku(Sudoku, GridFormat),
    /// A graph to colour.
    Colouring(Colouring),
    /// A FlatZinc model.
    FlatZinc(FznModel),
}

impl Puzzle {
    /// Builds the model of `spec`.
    ///
    /// # Errors
    ///
    /// A malformed grid or FlatZinc text (with its line and column), an unsupported FlatZinc
    /// feature, a model that cannot be built.
    pub fn build(spec: &ModelSpec) -> Result<Puzzle, WebError> {
        let model_error = |e: cspkit::ModelError| WebError::new(What::Model, e.to_string());
        match spec {
            ModelSpec::Queens { n, model } => {
                let built = match model.as_str() {
                    "binary" => Queens::pairwise(*n),
                    "board" => Queens::non_attacking(*n),
                    _ => Queens::new(*n),
                };
                built.map(Puzzle::Queens).map_err(model_error)
            }
            ModelSpec::Sudoku { grid } => {
                let (grid, format) = Grid::parse_bytes(grid.as_bytes(), None).map_err(|e| {
                    let hint = if matches!(e, ParseError::TextAfterGrid { .. }) {
                        " (one puzzle at a time)"
                    } else {
                        ""
                    };
                    WebError::located(What::Model, format!("the grid: {e}{hint}"))
                })?;
                grid.to_text(format)
                    .map_err(|e| WebError::new(What::Model, e.to_string()))?;
                let sudoku = Sudoku::new(&grid).map_err(model_error)?;
                Ok(Puzzle::Sudoku(sudoku, format))
            }
            ModelSpec::Colouring { map, colours } => {
                let built = match map.strip_prefix("myciel").map(str::parse::<u32>) {
                    Some(Ok(order)) => Colouring::mycielski(order, *colours),
                    _ => Colouring::australia(*colours),
                };
                built.map(Puzzle::Colouring).map_err(model_error)
            }
            ModelSpec::FlatZinc { text } => {
                let fzn_error = |e: flatzinc::FznError| {
                    let what = if e.unsupported {
                        What::Unsupported
                    } else {
                        What::FlatZinc
                    };
                    WebError {
                        message: e.to_string(),
                        line: Some(e.pos.line),
                        column: Some(e.pos.column),
                        what,
                    }
                };
                let items = flatzinc::parse(text).map_err(fzn_error)?;
                flatzinc::build(&items)
                    .map(Puzzle::FlatZinc)
                    .map_err(fzn_error)
            }
        }
    }

    /// The model.
    pub fn model(&self) -> &Model {
        match self {
            Puzzle::Queens(queens) => queens.model(),
            Puzzle::Sudoku(sudoku, _) => sudoku.model(),
            Puzzle::Colouring(graph) => graph.model(),
            Puzzle::FlatZinc(fzn) => fzn.model(),
        }
    }

    /// The propagation of the CLI's command for this model when none is asked for.
    pub fn default_propagation(&self) -> Propagation {
        match self {
            Puzzle::Queens(_) => Queens::DEFAULT_PROPAGATION.into(),
            _ => Propagation::Full,
        }
    }

    /// The solver `spec` asks for, configured as the CLI configures it for the same options
    /// (`--node-limit`, `--time-limit` in milliseconds): for FlatZinc, the model's search
    /// annotations where no order is named, and their branching.
    ///
    /// # Errors
    ///
    /// A configuration the model refuses.
    pub fn solver(&self, spec: &Spec) -> Result<WebSolver<'_>, WebError> {
        let mut config = SearchConfig::new()
            .with_propagation(spec.propagation.unwrap_or(self.default_propagation()))
            .with_branching(spec.branching)
            .with_backjumping(spec.backjump)
            .with_decision_limit(spec.node_limit)
            .with_time_limit(std::time::Duration::from_millis(spec.time_limit_ms));
        if let Some(counting) = spec.counting {
            config = config.with_counting(counting);
        }
        let named_variables = spec
            .var_order
            .as_deref()
            .and_then(ChosenVariableOrder::by_name);
        let named_values = spec
            .value_order
            .as_deref()
            .and_then(ChosenValueOrder::by_name);
        let (variables, values) = match self {
            Puzzle::FlatZinc(fzn) => (
                named_variables
                    .unwrap_or_else(|| ChosenVariableOrder::Annotations(fzn.variable_order())),
                named_values.unwrap_or_else(|| ChosenValueOrder::Annotations(fzn.value_order(0))),
            ),
            _ => (
                named_variables.unwrap_or(ChosenVariableOrder::Input(cspkit::InputOrder)),
                named_values.unwrap_or(ChosenValueOrder::Asc(cspkit::Ascending)),
            ),
        };
        let annotated_values = matches!(values, ChosenValueOrder::Annotations(_));
        let mut solver = self
            .model()
            .solver_with(config)
            .map_err(|e| WebError::new(What::Model, e.to_string()))?
            .with_variable_order(variables)
            .with_value_order(values);
        if let Puzzle::FlatZinc(fzn) = self
            && annotated_values
            && spec.branching == cspkit::Branching::Assign
        {
            solver = solver.with_branching(fzn.branching());
        }
        Ok(solver)
    }

    /// A solution as the CLI prints it.
    pub fn render(&self, solution: &Solution) -> String {
        match self {
            Puzzle::Queens(queens) => {
                let columns: Vec<String> = queens
                    .columns(solution)
                    .iter()
                    .map(ToString::to_string)
                    .collect();
                format!("{}{}\n", queens.board(solution), columns.join(" "))
            }
            Puzzle::Sudoku(sudoku, format) => sudoku
                .grid_of(solution)
                .to_text(*format)
                .unwrap_or_default(),
            Puzzle::Colouring(graph) => format!("{}\n", graph.describe(solution)),
            Puzzle::FlatZinc(fzn) => {
                let mut text = Vec::new();
                let _ = flatzinc::write_solution(fzn, solution, &mut text);
                String::from_utf8_lossy(&text).into_owned()
            }
        }
    }

    /// What the CLI prints between two solutions.
    pub fn separator(&self) -> &'static str {
        match self {
            Puzzle::Queens(_) => "\n",
            Puzzle::Sudoku(_, GridFormat::Line) => "",
            Puzzle::Sudoku(..) => "\n",
            Puzzle::Colouring(_) | Puzzle::FlatZinc(_) => "",
        }
    }

    /// A solution's values by the model's names: each variable's for the puzzles, each
    /// output variable and array (nested lists, one level per index set) for FlatZinc.
    pub fn values(&self, solution: &Solution) -> Value {
        let model = self.model();
        let mut object = Map::new();
        match self {
            Puzzle::FlatZinc(fzn) => {
                let value = |element: &OutputValue| match *element {
                    OutputValue::Var(var, true) => json!(solution[var] != 0),
                    OutputValue::Var(var, false) => json!(solution[var]),
                    OutputValue::Int(v) => json!(v),
                    OutputValue::Bool(b) => json!(b),
                };
                for item in fzn.output() {
                    match item {
                        OutputItem::Scalar { name, value: v } => {
                            object.insert(name.clone(), value(v));
                        }
                        OutputItem::Array {
                            name,
                            ranges,
                            values,
                        } => {
                            let flat: Vec<Value> = values.iter().map(value).collect();
                            object.insert(name.clone(), nested(&flat, ranges));
                        }
                        #[allow(unreachable_patterns, reason = "OutputItem may grow")]
                        _ => {}
                    }
                }
            }
            _ => {
                for (var, value) in model.variables().zip(solution.values()) {
                    object.insert(model.var_name(var).into_owned(), json!(value));
                }
            }
        }
        Value::Object(object)
    }

    /// The board beside the tree on the tree page, as the CLI draws it.
    pub fn board(&self) -> Board {
        match self {
            Puzzle::Queens(queens) => Board::Queens {
                rows: queens.rows().to_vec(),
                first_column: 1,
            },
            Puzzle::Sudoku(sudoku, _) => Board::Grid {
                columns: sudoku.cells().len().isqrt(),
                cells: sudoku.cells().to_vec(),
            },
            Puzzle::Colouring(_) => Board::Table,
            Puzzle::FlatZinc(fzn) => {
                let arrays = output_arrays(fzn);
                if arrays.is_empty() {
                    Board::Table
                } else {
                    Board::Arrays(arrays)
                }
            }
        }
    }
}

/// `flat`, row by row, as nested lists over `ranges`.
fn nested(flat: &[Value], ranges: &[(i64, i64)]) -> Value {
    match ranges {
        [] | [_] => Value::Array(flat.to_vec()),
        [_, rest @ ..] => {
            let inner: usize = rest
                .iter()
                .map(|&(low, high)| usize::try_from(high - low + 1).unwrap_or(0))
                .product();
            if inner == 0 {
                return Value::Array(Vec::new());
            }
            Value::Array(
                flat.chunks(inner)
                    .map(|chunk| nested(chunk, rest))
                    .collect(),
            )
        }
    }
}

/// The model's output, as the arrays of a board: a row for one index set, a grid for two or
/// more (rows of the last), each output variable a cell of its own (as `cspkit fzn --tree`).
fn output_arrays(fzn: &FznModel) -> Vec<BoardArray> {
    let cell = |value: &OutputValue| match *value {
        OutputValue::Var(var, _) => Some(var),
        _ => None,
    };
    let constant = |value: &OutputValue| match *value {
        OutputValue::Int(v) => Some(v),
        OutputValue::Bool(b) => Some(i64::from(b)),
        OutputValue::Var(..) => None,
    };
    fzn.output()
        .iter()
        .filter_map(|item| match item {
            OutputItem::Scalar { name, value } => Some(BoardArray {
                name: name.clone(),
                columns: 1,
                cells: vec![cell(value)],
                constants: vec![constant(value)],
            }),
            OutputItem::Array {
                name,
                ranges,
                values,
            } => Some(BoardArray {
                name: name.clone(),
                columns: ranges.last().map_or(1, |&(low, high)| {
                    usize::try_from(high - low + 1).unwrap_or(1).max(1)
                }),
                cells: values.iter().map(cell).collect(),
                constants: values.iter().map(constant).collect(),
            }),
            #[allow(unreachable_patterns, reason = "OutputItem may grow")]
            _ => None,
        })
        .filter(|a| a.cells.iter().any(Option::is_some))
        .collect()
}
