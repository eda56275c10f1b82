//! Seeing what a search does, for people learning or teaching backtracking.
//!
//! Everything here is built on the public observer API ([`SearchObserver::event`] and its
//! [`Event`] stream), so it costs nothing to a search that does not use it:
//!
//! - [`Trace`](trace::Trace): one line per event, indented by depth, in the model's own words
//!   (`row 2 = 4`, `row 3 = 1 (only value left, diagonals)`, `r1c3 = 5 ✗ box 1 already has 5`).
//! - [`SearchTree`](tree::SearchTree): the tree that ran, node by node, with the domains at
//!   each node if asked; [`dot`], [`svg`] and [`html`] draw it (Graphviz text, a picture drawn
//!   here, and one self-contained page to step through).
//! - [`table`]: a strategy table, one row per run, as text, CSV, JSON or Markdown.
//!
//! [`SearchObserver::event`]: crate::SearchObserver::event
//! [`Event`]: crate::Event

pub mod dot;
pub mod html;
mod replay;
pub mod svg;
pub mod table;
pub mod trace;
pub mod tree;
