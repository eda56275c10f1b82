//! cspkit in the browser: the engine compiled to WebAssembly, with the functions the live
//! page (`web/site/`) calls from its Web Worker.
//!
//! Every function takes a *spec*, the JSON text of one search:
//!
//! ```json
//! {"model": {"kind": "queens", "n": 8}, "propagation": "forward", "var_order": "mrv",
//!  "value_order": "asc", "branching": "assign", "counting": "cspkit", "solutions": 1,
//!  "node_limit": 100000, "time_limit_ms": 10000, "tree_limit": 100000}
//! ```
//!
//! The model is `queens` (`n`, optional `model`: alldiff, binary, board), `sudoku` (`grid`:
//! the puzzle's text as `cspkit sudoku` reads it), `colouring` (`map`, `colours`) or
//! `flatzinc` (`text`). Strategy names are the CLI's; absent keys take the CLI's defaults for
//! the model, and the limits the page's (100,000 nodes, 10 s). `solutions` is 1 for the first
//! solution, 0 for all (a count), n for up to n. `trace_limit` (default 1000, the CLI's
//! `--trace-limit`) bounds [`run_trace`]. `"backjump": true` (the CLI's `--backjump`) turns on
//! conflict-directed backjumping; the progress then counts `backjumps` and `levels_skipped`.
//!
//! A function that fails throws a string holding the JSON of the error:
//! `{"error": "...", "line": 3 | null, "column": 14 | null, "what": "spec" | "model" |
//! "flatzinc" | "unsupported"}`.
//!
//! The work is done by the modules below over cspkit's public API; this file only converts
//! to and from JavaScript.

pub mod bench;
pub mod error;
pub mod pages;
pub mod puzzle;
pub mod session;
pub mod spec;
pub mod strategy;
pub mod trace_run;

use wasm_bindgen::prelude::*;

use crate::error::WebError;
use crate::session::SearchSession;
use crate::spec::Spec;

/// A failure as the JavaScript exception the page catches: the error's JSON text.
fn thrown(error: WebError) -> JsValue {
    JsValue::from_str(&error.to_json())
}

/// Reads a spec, or the exception to throw.
fn spec_of(text: &str) -> Result<Spec, JsValue> {
    Spec::parse(text).map_err(thrown)
}

/// One search, run a slice at a time (`advance`) or a trace line at a time (`step`).
#[wasm_bindgen]
#[derive(Debug)]
pub struct Session {
    inner: SearchSession,
}

#[wasm_bindgen]
impl Session {
    /// A session of the search `spec` asks for, not started.
    #[wasm_bindgen(constructor)]
    pub fn new(spec: &str) -> Result<Session, JsValue> {
        let spec = spec_of(spec)?;
        SearchSession::new(&spec)
            .map(|inner| Session { inner })
            .map_err(thrown)
    }

    /// Runs the search for about `budget_ms` milliseconds, or to its end; the progress
    /// (JSON).
    pub fn advance(&mut self, budget_ms: f64) -> String {
        self.inner.advance(budget_ms).to_string()
    }

    /// Runs the search to its next trace line; the new lines, the last event's name and the
    /// progress (JSON).
    pub fn step(&mut self) -> String {
        self.inner.step().to_string()
    }

    /// The tree page of the search so far (the HTML of `--tree page.html`), at most
    /// `max_nodes` nodes drawn.
    pub fn page(&self, max_nodes: u32) -> String {
        self.inner.page(max_nodes as usize)
    }

    /// The trace lines from line `from` on, `\n`-separated.
    pub fn trace(&self, from: u32) -> String {
        self.inner.trace(from as usize)
    }

    /// The solutions found, by the model's names (JSON).
    pub fn solutions(&self) -> String {
        self.inner.solutions().to_string()
    }

    /// Where the search stands, without running it (JSON).
    pub fn progress(&self) -> String {
        self.inner.progress().to_string()
    }
}

/// The comparison page of two searches of the same model.
#[wasm_bindgen]
pub fn compare(spec_a: &str, spec_b: &str) -> Result<String, JsValue> {
    pages::compare(&spec_of(spec_a)?, &spec_of(spec_b)?).map_err(thrown)
}

/// What `cspkit sudoku --explain`, `--hint` or `--why` prints (`what`: explain, hint, why).
#[wasm_bindgen]
pub fn explain(spec: &str, what: &str) -> Result<String, JsValue> {
    pages::explain(&spec_of(spec)?, what).map_err(thrown)
}

/// The whole search's standard output with `--trace`, as the CLI prints it.
#[wasm_bindgen]
pub fn run_trace(spec: &str) -> Result<String, JsValue> {
    trace_run::run_trace(&spec_of(spec)?).map_err(thrown)
}

/// The lists of the page's menus, and the defaults (JSON).
#[wasm_bindgen]
pub fn models() -> String {
    pages::models().to_string()
}

/// cspkit's version.
#[wasm_bindgen]
pub fn version() -> String {
    cspkit::VERSION.to_owned()
}

/// cspkit's MiniZinc library (the globals the MiniZinc compiler keeps whole for cspkit), for
/// compiling a model in the page: JSON `[[file name, text], ...]`.
#[wasm_bindgen]
pub fn mznlib() -> String {
    serde_json::Value::from(
        cspkit::flatzinc::MZNLIB
            .iter()
            .map(|(name, text)| serde_json::json!([name, text]))
            .collect::<Vec<_>>(),
    )
    .to_string()
}

/// Counts the solutions of a spec at full speed, with nothing recorded (the benchmark's
/// workload); JSON: `{"solutions", "stopped_by", "nodes", "failures"}`.
#[wasm_bindgen]
pub fn count(spec: &str) -> Result<String, JsValue> {
    pages::count(&spec_of(spec)?)
        .map(|v| v.to_string())
        .map_err(thrown)
}

/// The benchmark: counts the solutions of `n` queens as `cspkit queens N --count` (JSON:
/// solutions, nodes).
#[wasm_bindgen]
pub fn bench_queens_count(n: u32) -> Result<String, JsValue> {
    bench::queens_count(n as usize)
        .map(|v| v.to_string())
        .map_err(thrown)
}

/// The benchmark: the Sudoku workload on the first `limit` puzzles of `text` (JSON: puzzles,
/// solved, nodes, checksum).
#[wasm_bindgen]
pub fn bench_sudoku(text: &str, limit: u32) -> Result<String, JsValue> {
    bench::sudoku_workload(text, limit as usize)
        .map(|v| v.to_string())
        .map_err(thrown)
}
