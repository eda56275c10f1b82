//! Seeing what a search does, for people learning or teaching backtracking.
//!
//! Everything here is built on the public observer API ([`SearchObserver::on_event`] and its
//! [`Event`] stream), so it costs nothing to a search that does not use it:
//!
//! - [`Trace`](trace::Trace): one line per event, indented by depth, in the model's own words
//!   (`row 2 = 4`, `row 3 = 1 (only value left, diagonals)`, `r1c3 = 5 ✗ box 1 already has 5`).
//! - [`SearchTree`](tree::SearchTree): the tree that ran, node by node, with the domains at
//!   each node if asked; [`dot`], [`svg`] and [`html`] draw it (Graphviz text, a picture drawn
//!   here, and one self-contained page to step through).
//! - [`graph_page`]: AC-3 ([`Propagation::Ac3`](crate::Propagation::Ac3)) on a drawing of the
//!   constraint graph, one page to step through: the arc being revised, the queue, the
//!   domains, with keys and auto-play.
//! - [`table`]: a strategy table, one row per run, as text, CSV, JSON or Markdown.
//!
//! [`SearchObserver::on_event`]: crate::SearchObserver::on_event
//! [`Event`]: crate::Event

pub mod dot;
pub mod graph_page;
pub mod html;
mod removals;
mod replay;
mod sentences;
pub mod svg;
pub mod table;
pub mod trace;
pub mod tree;

use std::path::{Path, PathBuf};

/// The kinds of file a search tree is written to, told by the file's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TreeFormat {
    /// Graphviz text (`.dot`, `.gv`), by [`dot::render`].
    Dot,
    /// A picture (`.svg`) that fits a 16:9 slide, by [`svg::render_slide`] at the default
    /// [`svg::Slide`].
    Svg,
    /// A page to step through (`.html`, `.htm`), by [`html::render`]; it shows the domains at
    /// each node if the tree recorded them.
    Html,
}

/// A file name whose extension names no [`TreeFormat`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: the file must end in .dot, .svg or .html (the format to write)", .0.display())]
pub struct UnknownTreeFormat(pub PathBuf);

impl TreeFormat {
    /// The format the extension of `path` asks for (in any case).
    ///
    /// # Errors
    ///
    /// [`UnknownTreeFormat`] for any other extension, or none.
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::teach::TreeFormat;
    /// use std::path::Path;
    ///
    /// assert_eq!(TreeFormat::from_path(Path::new("t.HTML")), Ok(TreeFormat::Html));
    /// assert!(TreeFormat::from_path(Path::new("t.png")).is_err());
    /// ```
    pub fn from_path(path: &Path) -> Result<TreeFormat, UnknownTreeFormat> {
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match extension.as_deref() {
            Some("dot" | "gv") => Ok(TreeFormat::Dot),
            Some("svg") => Ok(TreeFormat::Svg),
            Some("html" | "htm") => Ok(TreeFormat::Html),
            _ => Err(UnknownTreeFormat(path.to_path_buf())),
        }
    }

    /// `tree` drawn in this format; the page draws `board` and has the title `title`.
    pub fn render(self, tree: &tree::SearchTree<'_>, board: &html::Board, title: &str) -> String {
        match self {
            TreeFormat::Dot => dot::render(tree),
            TreeFormat::Svg => svg::render_slide(tree, svg::Slide::default()),
            TreeFormat::Html => html::render(tree, board, title),
        }
    }
}
