//! The search options a Python call passes as keywords, checked once on the calling thread,
//! with the names the command line accepts (`--propagation`, `--var-order`, `--value-order`,
//! `--branching`, `--node-limit`, `--time-limit`).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use cspkit::{
    Ascending, Branching, Descending, DomWdeg, DomainOverDegree, InputOrder, LeastConstraining,
    MiddleOut, Model, ModelError, Propagation, RandomValue, SearchConfig, SmallestDomain,
    SmallestDomainRandomTies, Solver, ValueOrder, VariableOrder,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::raised;

/// The variable orders by their command-line names.
const VARIABLE_ORDERS: [&str; 5] = ["input", "mrv", "mrv-random", "dom-deg", "dom-wdeg"];
/// The value orders by their command-line names.
const VALUE_ORDERS: [&str; 5] = ["asc", "desc", "middle", "random", "lcv"];
/// The option names a search accepts.
const OPTION_NAMES: [&str; 8] = [
    "propagation",
    "var_order",
    "value_order",
    "branching",
    "node_limit",
    "decision_limit",
    "time_limit",
    "seed",
];

/// A variable order any thread may own.
pub type AnyVariableOrder = Box<dyn VariableOrder + Send>;
/// A value order any thread may own.
pub type AnyValueOrder = Box<dyn ValueOrder + Send>;
/// The solver every Python search runs.
pub type AnySolver<'m> = Solver<'m, AnyVariableOrder, AnyValueOrder>;

/// Checked search options.
#[derive(Debug, Clone, Default)]
pub struct SearchOptions {
    propagation: Option<Propagation>,
    variable_order: Option<&'static str>,
    value_order: Option<&'static str>,
    branching: Option<Branching>,
    decision_limit: Option<u64>,
    time_limit: Option<Duration>,
    seed: u64,
}

impl SearchOptions {
    /// The options in `keywords` (none: the library's defaults).
    ///
    /// # Errors
    ///
    /// `CspkitError` naming an unknown option, or an unknown value and the values allowed.
    pub fn from_keywords(keywords: Option<&Bound<'_, PyDict>>) -> PyResult<SearchOptions> {
        let mut options = SearchOptions::default();
        let Some(keywords) = keywords else {
            return Ok(options);
        };
        for (key, value) in keywords.iter() {
            let key: String = key.extract()?;
            if value.is_none() {
                continue;
            }
            match key.as_str() {
                "propagation" => {
                    let name: String = value.extract()?;
                    options.propagation = Some(
                        name.parse::<Propagation>()
                            .map_err(|error| raised(format!("propagation: {error}")))?,
                    );
                }
                "var_order" => {
                    options.variable_order = Some(named(&key, &value, &VARIABLE_ORDERS)?);
                }
                "value_order" => options.value_order = Some(named(&key, &value, &VALUE_ORDERS)?),
                "branching" => {
                    let name: String = value.extract()?;
                    options.branching = Some(
                        name.parse::<Branching>()
                            .map_err(|error| raised(format!("branching: {error}")))?,
                    );
                }
                "node_limit" | "decision_limit" => {
                    let nodes: u64 = value.extract().map_err(|_| {
                        raised(format!(
                            "{key}: expected a non-negative integer, got {value}"
                        ))
                    })?;
                    options.decision_limit = Some(nodes);
                }
                "time_limit" => {
                    let seconds: f64 = value.extract()?;
                    let time = Duration::try_from_secs_f64(seconds).map_err(|_| {
                        raised(format!(
                            "time_limit: expected a non-negative number of seconds, got {value}"
                        ))
                    })?;
                    options.time_limit = Some(time);
                }
                "seed" => options.seed = value.extract()?,
                _ => {
                    return Err(raised(format!(
                        "unknown search option {key:?} (the options are {})",
                        OPTION_NAMES.join(", ")
                    )));
                }
            }
        }
        Ok(options)
    }

    /// A solver of `model` with these options, stopped early when `cancel` is raised.
    ///
    /// # Errors
    ///
    /// The library's error when the model cannot be searched with these options (AC-3 on a
    /// constraint it cannot read, for one).
    pub fn solver<'m>(
        &self,
        model: &'m Model,
        cancel: Arc<AtomicBool>,
    ) -> Result<AnySolver<'m>, ModelError> {
        let mut config = SearchConfig::new().with_cancel_flag(cancel);
        if let Some(propagation) = self.propagation {
            config = config.with_propagation(propagation);
        }
        if let Some(branching) = self.branching {
            config = config.with_branching(branching);
        }
        if let Some(decisions) = self.decision_limit {
            config = config.with_decision_limit(decisions);
        }
        if let Some(time) = self.time_limit {
            config = config.with_time_limit(time);
        }
        Ok(model
            .solver_with(config)?
            .with_variable_order(self.variable_order_box())
            .with_value_order(self.value_order_box()))
    }

    /// The variable order named, input order by default.
    fn variable_order_box(&self) -> AnyVariableOrder {
        match self.variable_order.unwrap_or("input") {
            "mrv" => Box::new(SmallestDomain),
            "mrv-random" => Box::new(SmallestDomainRandomTies::new(self.seed)),
            "dom-deg" => Box::new(DomainOverDegree),
            "dom-wdeg" => Box::new(DomWdeg::new()),
            _ => Box::new(InputOrder),
        }
    }

    /// The value order named, ascending by default.
    fn value_order_box(&self) -> AnyValueOrder {
        match self.value_order.unwrap_or("asc") {
            "desc" => Box::new(Descending),
            "middle" => Box::new(MiddleOut),
            "random" => Box::new(RandomValue::new(self.seed)),
            "lcv" => Box::new(LeastConstraining::new()),
            _ => Box::new(Ascending),
        }
    }
}

/// The name among `names` that `value` spells.
fn named(key: &str, value: &Bound<'_, PyAny>, names: &[&'static str]) -> PyResult<&'static str> {
    let text: String = value.extract()?;
    names
        .iter()
        .find(|name| **name == text)
        .copied()
        .ok_or_else(|| {
            raised(format!(
                "{key}: unknown order {text:?} (the orders are {})",
                names.join(", ")
            ))
        })
}
