//! The named choices of the public API read and write the names the command line uses:
//! `Display` and `FromStr` round-trip, and an unknown name is an error that lists the names.

use std::fmt::Display;
use std::str::FromStr;

use cspkit::models::sudoku::GridFormat;
use cspkit::teach::table;
use cspkit::{Branching, ParseNameError, PropagationLevel};

fn round_trips<T>(values: &[T], names: &[&str])
where
    T: Display + FromStr<Err = ParseNameError> + PartialEq + std::fmt::Debug + Copy,
{
    for (&value, &name) in values.iter().zip(names) {
        assert_eq!(value.to_string(), name);
        assert_eq!(name.parse::<T>(), Ok(value));
    }
    let error = "Nonsense".parse::<T>().unwrap_err();
    let message = error.to_string();
    assert!(message.contains("\"Nonsense\""), "{message}");
    assert!(names.iter().all(|n| message.contains(n)), "{message}");
}

#[test]
fn named_choices_read_and_write_their_command_line_names() {
    round_trips(&PropagationLevel::ALL, &["none", "forward", "full"]);
    assert_eq!("mac".parse(), Ok(PropagationLevel::Full));
    round_trips(
        &[Branching::Assign, Branching::Split, Branching::DWay],
        &["assign", "split", "dway"],
    );
    round_trips(
        &[GridFormat::Compact, GridFormat::Spaced, GridFormat::Line],
        &["compact", "spaced", "line"],
    );
    round_trips(
        &[
            table::Format::Text,
            table::Format::Csv,
            table::Format::Json,
            table::Format::Markdown,
        ],
        &["text", "csv", "json", "markdown"],
    );
}
