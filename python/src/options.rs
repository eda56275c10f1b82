//! The search options a Python call passes as keywords, checked once on the calling thread,
//! with the names the command line accepts (`--propagation`, `--var-order`, `--value-order`,
//! `--branching`, `--count-as`, `--restarts`, `--restart-base`, `--node-limit`, `--time-limit`,
//! `--seed`, `--backjump`), and `lns` for the optimising searches.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use cspkit::{
    Ascending, Branching, Counting, Descending, DomWdeg, DomainOverDegree, InputOrder,
    LeastConstraining, Lns, MiddleOut, Model, ModelError, Propagation, RandomValue, RestartPolicy,
    SearchConfig, SmallestDomain, SmallestDomainRandomTies, Solver, ValueOrder, VariableOrder,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::raised;

/// The variable orders by their command-line names.
const VARIABLE_ORDERS: [&str; 5] = ["input", "mrv", "mrv-random", "dom-deg", "dom-wdeg"];
/// The value orders by their command-line names.
const VALUE_ORDERS: [&str; 5] = ["asc", "desc", "middle", "random", "lcv"];
/// The restart policies by their command-line names.
const RESTARTS: [&str; 2] = ["luby", "geometric"];
/// The failures of the first run with restarts, as the command line's `--restart-base`.
const DEFAULT_RESTART_BASE: u64 = 100;
/// The growth factor of geometric restarts, as the command line's.
const GEOMETRIC_FACTOR: f64 = 1.5;
/// The option names a search accepts.
const OPTION_NAMES: [&str; 14] = [
    "propagation",
    "var_order",
    "value_order",
    "branching",
    "counting",
    "restarts",
    "restart_base",
    "restart_factor",
    "lns",
    "node_limit",
    "decision_limit",
    "time_limit",
    "seed",
    "backjump",
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
    counting: Option<Counting>,
    restarts: Option<&'static str>,
    restart_base: Option<u64>,
    restart_factor: Option<f64>,
    lns: bool,
    decision_limit: Option<u64>,
    time_limit: Option<Duration>,
    seed: u64,
    backjump: bool,
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
                "counting" => {
                    let name: String = value.extract()?;
                    options.counting = Some(
                        name.parse::<Counting>()
                            .map_err(|error| raised(format!("counting: {error}")))?,
                    );
                }
                "restarts" => {
                    let text: String = value.extract()?;
                    options.restarts = Some(
                        RESTARTS
                            .iter()
                            .find(|name| **name == text)
                            .copied()
                            .ok_or_else(|| {
                                raised(format!(
                                    "restarts: unknown policy {text:?} (the policies are {})",
                                    RESTARTS.join(", ")
                                ))
                            })?,
                    );
                }
                "restart_base" => {
                    let failures: u64 =
                        value
                            .extract()
                            .ok()
                            .filter(|base| *base > 0)
                            .ok_or_else(|| {
                                raised(format!(
                                    "restart_base: expected a positive integer, got {value}"
                                ))
                            })?;
                    options.restart_base = Some(failures);
                }
                "restart_factor" => {
                    let factor: f64 = value
                        .extract()
                        .ok()
                        .filter(|factor: &f64| factor.is_finite() && *factor > 1.0)
                        .ok_or_else(|| {
                            raised(format!(
                                "restart_factor: expected a finite number greater than 1, got {value}"
                            ))
                        })?;
                    options.restart_factor = Some(factor);
                }
                "lns" => options.lns = value.extract()?,
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
                "backjump" => {
                    options.backjump = value.extract().map_err(|_| {
                        raised(format!("backjump: expected True or False, got {value}"))
                    })?;
                }
                _ => {
                    return Err(raised(format!(
                        "unknown search option {key:?} (the options are {})",
                        OPTION_NAMES.join(", ")
                    )));
                }
            }
        }
        if options.restarts.is_none()
            && (options.restart_base.is_some() || options.restart_factor.is_some())
        {
            return Err(raised(
                "restart_base and restart_factor need restarts=\"luby\" or \"geometric\"",
            ));
        }
        if options.backjump && options.propagation == Some(Propagation::Ac3) {
            return Err(raised(
                "backjump=True follows the reasons of the constraints' own propagation: it \
                 cannot be combined with propagation=\"ac3\" (use fc, forward or full)",
            ));
        }
        if options.restart_factor.is_some() && options.restarts != Some("geometric") {
            return Err(raised(
                "restart_factor is the growth of restarts=\"geometric\" only",
            ));
        }
        Ok(options)
    }

    /// These options for a search without an objective: an error if they ask for large
    /// neighbourhood search (`lns=True`), which only `minimize` and `maximize` run.
    ///
    /// # Errors
    ///
    /// `CspkitError` when `lns` is set.
    pub fn without_objective(self) -> PyResult<SearchOptions> {
        if self.lns {
            return Err(raised(
                "lns=True needs an objective: it is an option of minimize and maximize",
            ));
        }
        Ok(self)
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
        if let Some(counting) = self.counting {
            config = config.with_counting(counting);
        }
        let base = self.restart_base.unwrap_or(DEFAULT_RESTART_BASE);
        match self.restarts {
            Some("luby") => config = config.with_restarts(RestartPolicy::luby(base)),
            Some(_) => {
                let factor = self.restart_factor.unwrap_or(GEOMETRIC_FACTOR);
                config = config.with_restarts(RestartPolicy::geometric(base, factor));
            }
            None => {}
        }
        if self.backjump {
            config = config.with_backjumping(true);
        }
        if self.lns {
            config = config.with_lns(Lns::new().with_seed(self.seed));
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
