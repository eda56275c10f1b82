//! Seeing what a search does, for people learning or teaching backtracking.
//!
//! Everything here is built on the public observer API ([`SearchObserver::event`] and its
//! [`Event`] stream), so it costs nothing to a search that does not use it:
//!
//! - [`Trace`](trace::Trace): one line per event, indented by depth, in the model's own words
//!   (`row 2 = 4`, `row 3 = 1 (only value left, diagonals)`, `r1c3 = 5 ✗ box 1 already has 5`).
//!
//! [`SearchObserver::event`]: crate::SearchObserver::event
//! [`Event`]: crate::Event

pub mod trace;
