//! `--ac3-page FILE`: AC-3 on a drawing of the constraint graph, written after the search.

use std::fs::File;
use std::io::Write;
use std::path::Path;

use cspkit::Model;
use cspkit::teach::graph_page::{self, Ac3Recorder, GraphLayout};
use cspkit::teach::html::Board;

use crate::args::ShowArgs;
use crate::output::bad_input;

/// The file `--ac3-page` names, created before the search (a path that cannot be written is
/// reported before any time is spent).
pub(crate) struct Ac3Page<'a> {
    path: &'a Path,
    file: File,
}

impl<'a> Ac3Page<'a> {
    /// Creates the file of `--ac3-page`, if there is one.
    pub(crate) fn create(show: &'a ShowArgs) -> Result<Option<Self>, u8> {
        let Some(path) = show.ac3_page.as_deref() else {
            return Ok(None);
        };
        match File::create(path) {
            Ok(file) => Ok(Some(Ac3Page { path, file })),
            Err(error) => Err(bad_input(format_args!(
                "cannot write the AC-3 page to {}: {error}",
                path.display()
            ))),
        }
    }

    /// A recorder for the page.
    pub(crate) fn recorder<'m>(&self, model: &'m Model) -> Ac3Recorder<'m> {
        Ac3Recorder::new(model)
    }

    /// Draws what `recorder` saw, the nodes placed as the puzzle's `board` suggests (a grid's
    /// cells where they are, queens' rows in a column, any other graph in columns by distance), and writes the page.
    pub(crate) fn write(
        mut self,
        model: &Model,
        recorder: &Ac3Recorder<'_>,
        board: &Board,
    ) -> Result<(), u8> {
        let layout = match board {
            Board::Grid { columns, .. } => GraphLayout::Grid { columns: *columns },
            // The rows one under the other, as on the board.
            Board::Queens { rows, .. } => {
                let mut points: Vec<(f64, f64)> = (0..model.num_variables())
                    .map(|i| (0.0, i as f64))
                    .collect();
                for (k, var) in rows.iter().enumerate() {
                    if let Some(point) = points.get_mut(var.index()) {
                        *point = (0.0, k as f64);
                    }
                }
                GraphLayout::Points(points)
            }
            _ => GraphLayout::Layered,
        };
        let title = format!(
            "cspkit: AC-3 on the constraint graph ({} steps)",
            recorder.len()
        );
        let page = graph_page::render(model, recorder, &layout, &title).map_err(bad_input)?;
        if let Err(error) = self.file.write_all(page.as_bytes()) {
            return Err(bad_input(format_args!(
                "cannot write the AC-3 page to {}: {error}",
                self.path.display()
            )));
        }
        if recorder.cut() > 0 {
            note!(
                "cspkit: the AC-3 page holds the first {} steps; {} more were made",
                recorder.len(),
                recorder.cut()
            );
        }
        Ok(())
    }
}
