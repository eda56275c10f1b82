//! The errors the page receives: a JSON object naming what went wrong and where.
//!
//! `{"error": "<message>", "line": <1-based or null>, "column": <1-based or null>,
//! "what": "spec" | "model" | "flatzinc" | "unsupported"}`

use std::fmt;

use serde_json::json;

/// What kind of input an error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum What {
    /// The spec itself: an unknown key, a bad value.
    Spec,
    /// The model: a malformed grid, a graph that cannot be coloured so, too many queens.
    Model,
    /// A FlatZinc text that cannot be read or built.
    FlatZinc,
    /// Valid input that cspkit does not support (floats, set variables, an unknown constraint).
    Unsupported,
}

impl What {
    fn name(self) -> &'static str {
        match self {
            What::Spec => "spec",
            What::Model => "model",
            What::FlatZinc => "flatzinc",
            What::Unsupported => "unsupported",
        }
    }
}

/// An error for the page: a message worded as the CLI words it, and where in the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebError {
    /// The message.
    pub message: String,
    /// The line (from 1), if the error has a place.
    pub line: Option<usize>,
    /// The column (from 1), if the error has a place.
    pub column: Option<usize>,
    /// What the error is about.
    pub what: What,
}

impl WebError {
    /// An error without a place.
    pub fn new(what: What, message: impl Into<String>) -> WebError {
        WebError {
            message: message.into(),
            line: None,
            column: None,
            what,
        }
    }

    /// An error whose message may name a place as `line L, column C` (as cspkit's parsers
    /// word it): the place is read from it.
    pub fn located(what: What, message: impl Into<String>) -> WebError {
        let message = message.into();
        let (line, column) = place_of(&message).unzip();
        WebError {
            message,
            line,
            column,
            what,
        }
    }

    /// A bad value of a spec's key.
    pub fn spec(message: impl Into<String>) -> WebError {
        WebError::new(What::Spec, message)
    }

    /// The error as the JSON text the page receives.
    pub fn to_json(&self) -> String {
        json!({
            "error": self.message,
            "line": self.line,
            "column": self.column,
            "what": self.what.name(),
        })
        .to_string()
    }
}

impl fmt::Display for WebError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// The first `line L, column C` of a message.
fn place_of(message: &str) -> Option<(usize, usize)> {
    let at = message.find("line ")?;
    let rest = &message[at + 5..];
    let (line, rest) = rest.split_once(", column ")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some((line.trim().parse().ok()?, digits.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_in_the_message_becomes_line_and_column() {
        let error = WebError::located(What::FlatZinc, "line 3, column 14: expected `;`");
        assert_eq!((error.line, error.column), (Some(3), Some(14)));
        let text = error.to_json();
        assert!(text.contains("\"line\":3") && text.contains("\"what\":\"flatzinc\""));
    }

    #[test]
    fn a_message_without_a_place_has_null_line_and_column() {
        let error = WebError::spec("unknown key \"nodes\"");
        assert_eq!((error.line, error.column), (None, None));
        assert!(error.to_json().contains("\"line\":null"));
    }
}
