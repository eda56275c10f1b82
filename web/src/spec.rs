//! Reading a spec: the JSON object the page sends for one search (see the crate's docs).
//!
//! Every key is checked: an unknown key, or a value of the wrong type or out of range, is an
//! error naming the key, the value and what is accepted.

use cspkit::{Branching, Counting, Propagation};
use serde_json::{Map, Value};

use crate::error::WebError;
use crate::strategy::{
    BRANCHINGS, VALUE_ORDERS, VARIABLE_ORDERS, branching_by_name, propagation_names,
};

/// The node (decision) limit when the spec gives none: the page never hangs.
pub const DEFAULT_NODE_LIMIT: u64 = 100_000;

/// The time limit, in milliseconds, when the spec gives none.
pub const DEFAULT_TIME_LIMIT_MS: u64 = 10_000;

/// The nodes of the tree kept for drawing when the spec gives none.
pub const DEFAULT_TREE_LIMIT: usize = 100_000;

/// The lines of `run_trace` when the spec gives none: the CLI's `--trace-limit` default.
pub const DEFAULT_TRACE_LIMIT: usize = 1000;

/// The largest board searched (the CLI's limit for the tree search).
pub const MAX_QUEENS: u64 = 10_000;

/// The built-in maps (graphs) of `cspkit colour`.
pub const MAPS: [&str; 7] = [
    "australia",
    "myciel3",
    "myciel4",
    "myciel5",
    "myciel6",
    "myciel7",
    "myciel8",
];

/// The N-Queens models of `cspkit queens --model`.
pub const QUEENS_MODELS: [&str; 3] = ["alldiff", "binary", "board"];

/// The model a spec names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelSpec {
    /// `{"kind": "queens", "n": 8}`, with an optional `"model"` (alldiff, binary, board).
    Queens {
        /// The number of queens.
        n: usize,
        /// The model's name.
        model: String,
    },
    /// `{"kind": "sudoku", "grid": "..."}`.
    Sudoku {
        /// The puzzle's text.
        grid: String,
    },
    /// `{"kind": "colouring", "map": "australia", "colours": 3}`.
    Colouring {
        /// The graph's name.
        map: String,
        /// The number of colours.
        colours: i32,
    },
    /// `{"kind": "flatzinc", "text": "..."}`.
    FlatZinc {
        /// The FlatZinc source.
        text: String,
    },
}

/// One search, as the page asks for it.
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    /// The model.
    pub model: ModelSpec,
    /// The model's JSON text, which tells two models apart.
    pub model_key: String,
    /// `--propagation`, if given.
    pub propagation: Option<Propagation>,
    /// `--var-order`, if given.
    pub var_order: Option<String>,
    /// `--value-order`, if given.
    pub value_order: Option<String>,
    /// `--branching` (default assign).
    pub branching: Branching,
    /// `--count-as`, if given.
    pub counting: Option<Counting>,
    /// 1 for the first solution, 0 for all (a count), n for up to n.
    pub solutions: u64,
    /// The decision limit (`--node-limit`).
    pub node_limit: u64,
    /// The time limit in milliseconds.
    pub time_limit_ms: u64,
    /// The nodes of the tree kept for drawing.
    pub tree_limit: usize,
    /// The lines of `run_trace` (`--trace-limit`).
    pub trace_limit: usize,
    /// `--backjump`: conflict-directed backjumping (default off).
    pub backjump: bool,
}

impl Spec {
    /// Reads a spec from its JSON text.
    ///
    /// # Errors
    ///
    /// A [`WebError`] of kind spec naming the key, the value and what is accepted.
    pub fn parse(text: &str) -> Result<Spec, WebError> {
        let value: Value = serde_json::from_str(text)
            .map_err(|e| WebError::spec(format!("the spec is not JSON: {e}")))?;
        let Value::Object(object) = value else {
            return Err(WebError::spec("the spec must be a JSON object"));
        };
        let keys = [
            "model",
            "propagation",
            "var_order",
            "value_order",
            "branching",
            "counting",
            "solutions",
            "node_limit",
            "time_limit_ms",
            "tree_limit",
            "trace_limit",
            "backjump",
        ];
        check_keys(&object, &keys, "the spec")?;
        let model_value = object
            .get("model")
            .ok_or_else(|| WebError::spec("the spec has no \"model\""))?;
        let model = model_spec(model_value)?;
        let propagation = optional_name(&object, "propagation", &propagation_names())?
            .map(|name| name.parse::<Propagation>())
            .transpose()
            .map_err(|e| WebError::spec(format!("propagation: {e}")))?;
        let var_order = optional_name(&object, "var_order", &VARIABLE_ORDERS)?;
        let value_order = optional_name(&object, "value_order", &VALUE_ORDERS)?;
        let branching = optional_name(&object, "branching", &BRANCHINGS)?
            .and_then(|name| branching_by_name(&name))
            .unwrap_or(Branching::Assign);
        let counting = optional_name(&object, "counting", &["cspkit", "aima"])?
            .map(|name| name.parse::<Counting>())
            .transpose()
            .map_err(|e| WebError::spec(format!("counting: {e}")))?;
        if counting == Some(Counting::Cspkit) && propagation == Some(Propagation::TextbookForward) {
            return Err(WebError::spec(
                "propagation fc assigns every variable by a decision (it propagates from \
                 decisions only): it cannot be combined with counting cspkit; propagation \
                 forward is forward checking that treats a fixed variable as assigned",
            ));
        }
        let backjump = match object.get("backjump") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(on)) => *on,
            Some(other) => {
                return Err(WebError::spec(format!(
                    "backjump: {other} is not true or false"
                )));
            }
        };
        if backjump && propagation == Some(Propagation::Ac3) {
            return Err(WebError::spec(
                "backjump follows the reasons of the constraints' own propagation: it cannot \
                 be combined with propagation ac3 (use fc, forward or full)",
            ));
        }
        Ok(Spec {
            model,
            model_key: model_value.to_string(),
            propagation,
            var_order,
            value_order,
            branching,
            counting,
            solutions: number(&object, "solutions", 0, u64::MAX)?.unwrap_or(1),
            node_limit: number(&object, "node_limit", 0, u64::MAX)?.unwrap_or(DEFAULT_NODE_LIMIT),
            time_limit_ms: number(&object, "time_limit_ms", 0, u64::MAX)?
                .unwrap_or(DEFAULT_TIME_LIMIT_MS),
            tree_limit: number(&object, "tree_limit", 1, usize::MAX as u64)?
                .map_or(DEFAULT_TREE_LIMIT, |n| n as usize),
            trace_limit: number(&object, "trace_limit", 0, usize::MAX as u64)?
                .map_or(DEFAULT_TRACE_LIMIT, |n| n as usize),
            backjump,
        })
    }
}

/// Refuses keys of `object` other than `keys`.
fn check_keys(object: &Map<String, Value>, keys: &[&str], what: &str) -> Result<(), WebError> {
    match object.keys().find(|key| !keys.contains(&key.as_str())) {
        Some(key) => Err(WebError::spec(format!(
            "unknown key {key:?} in {what}: the keys are {}",
            keys.join(", ")
        ))),
        None => Ok(()),
    }
}

/// The model of a spec's `"model"` value.
fn model_spec(value: &Value) -> Result<ModelSpec, WebError> {
    let Value::Object(object) = value else {
        return Err(WebError::spec(format!(
            "model: {value} is not an object such as {{\"kind\": \"queens\", \"n\": 8}}"
        )));
    };
    let kinds = ["queens", "sudoku", "colouring", "flatzinc"];
    let kind = optional_name(object, "kind", &kinds)?.ok_or_else(|| {
        WebError::spec("model: no \"kind\" (queens, sudoku, colouring, flatzinc)")
    })?;
    match kind.as_str() {
        "queens" => {
            check_keys(object, &["kind", "n", "model"], "the queens model")?;
            let n = number(object, "n", 1, MAX_QUEENS)?
                .ok_or_else(|| WebError::spec("model: queens needs \"n\", 1 to 10000"))?;
            let model = optional_name(object, "model", &QUEENS_MODELS)?
                .unwrap_or_else(|| "alldiff".to_owned());
            Ok(ModelSpec::Queens {
                n: n as usize,
                model,
            })
        }
        "sudoku" => {
            check_keys(object, &["kind", "grid"], "the sudoku model")?;
            Ok(ModelSpec::Sudoku {
                grid: text(object, "grid")?,
            })
        }
        "colouring" => {
            check_keys(object, &["kind", "map", "colours"], "the colouring model")?;
            let map = optional_name(object, "map", &MAPS)?
                .ok_or_else(|| WebError::spec("model: colouring needs \"map\""))?;
            let colours = number(object, "colours", 1, 1000)?.unwrap_or(3) as i32;
            Ok(ModelSpec::Colouring { map, colours })
        }
        _ => {
            check_keys(object, &["kind", "text"], "the flatzinc model")?;
            Ok(ModelSpec::FlatZinc {
                text: text(object, "text")?,
            })
        }
    }
}

/// The string value of `key`.
fn text(object: &Map<String, Value>, key: &str) -> Result<String, WebError> {
    match object.get(key) {
        Some(Value::String(text)) => Ok(text.clone()),
        Some(other) => Err(WebError::spec(format!("{key}: {other} is not a string"))),
        None => Err(WebError::spec(format!("the model has no {key:?}"))),
    }
}

/// The value of `key`, one of `names`, if present.
fn optional_name(
    object: &Map<String, Value>,
    key: &str,
    names: &[&str],
) -> Result<Option<String>, WebError> {
    match object.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(name)) if names.contains(&name.as_str()) => Ok(Some(name.clone())),
        Some(other) => Err(WebError::spec(format!(
            "{key}: {other} is not one of {}",
            names.join(", ")
        ))),
    }
}

/// The whole number value of `key`, from `min` to `max`, if present.
fn number(
    object: &Map<String, Value>,
    key: &str,
    min: u64,
    max: u64,
) -> Result<Option<u64>, WebError> {
    match object.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) if n.as_u64().is_some_and(|n| (min..=max).contains(&n)) => {
            Ok(n.as_u64())
        }
        Some(other) => Err(WebError::spec(format!(
            "{key}: {other} is not a whole number from {min} to {max}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_keys_take_the_page_defaults() {
        let spec = Spec::parse(r#"{"model": {"kind": "queens", "n": 8}}"#).unwrap();
        assert_eq!(
            spec.model,
            ModelSpec::Queens {
                n: 8,
                model: "alldiff".into()
            }
        );
        assert_eq!(spec.solutions, 1);
        assert_eq!(spec.node_limit, DEFAULT_NODE_LIMIT);
        assert_eq!(spec.time_limit_ms, DEFAULT_TIME_LIMIT_MS);
        assert_eq!(spec.propagation, None);
    }

    #[test]
    fn an_unknown_key_is_named_with_the_keys_accepted() {
        let error =
            Spec::parse(r#"{"model": {"kind": "queens", "n": 8}, "nodes": 5}"#).unwrap_err();
        assert!(error.message.contains("\"nodes\""), "{error}");
        assert!(error.message.contains("node_limit"), "{error}");
    }

    #[test]
    fn a_bad_value_is_named_with_what_is_accepted() {
        let error = Spec::parse(r#"{"model": {"kind": "queens", "n": 8}, "var_order": "first"}"#)
            .unwrap_err();
        assert!(error.message.contains("\"first\""), "{error}");
        assert!(error.message.contains("mrv"), "{error}");
        let error = Spec::parse(r#"{"model": {"kind": "queens", "n": 0}}"#).unwrap_err();
        assert!(error.message.starts_with("n: 0"), "{error}");
    }

    #[test]
    fn mac_is_full_propagation() {
        let spec =
            Spec::parse(r#"{"model": {"kind": "queens", "n": 4}, "propagation": "mac"}"#).unwrap();
        assert_eq!(spec.propagation, Some(Propagation::Full));
    }

    #[test]
    fn backjump_is_a_boolean_off_by_default_and_not_with_ac3() {
        let queens = r#"{"model": {"kind": "queens", "n": 8}"#;
        assert!(!Spec::parse(&format!("{queens}}}")).unwrap().backjump);
        assert!(
            Spec::parse(&format!("{queens}, \"backjump\": true}}"))
                .unwrap()
                .backjump
        );
        let error = Spec::parse(&format!("{queens}, \"backjump\": \"yes\"}}")).unwrap_err();
        assert!(error.message.contains("true or false"), "{error}");
        let error = Spec::parse(&format!(
            "{queens}, \"backjump\": true, \"propagation\": \"ac3\"}}"
        ))
        .unwrap_err();
        assert!(error.message.contains("ac3"), "{error}");
    }
}
