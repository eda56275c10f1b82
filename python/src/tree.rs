//! The search tree: the page `--tree page.html` writes, the picture `--tree tree.svg` draws,
//! and `TreeSession`, a search run a slice at a time for the live notebook widget, whose
//! page can be drawn at any moment.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Mutex};

use cspkit::teach::html::{self, Board};
use cspkit::teach::svg::{self, Slide};
use cspkit::teach::tree::SearchTree;
use cspkit::{Limit, Model, OwnedEvent, SearchObserver as _, SearchStats, SearchStep};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::raised;
use crate::model::RawModel;
use crate::options::{AnySolver, SearchOptions};
use crate::run::wait;
use crate::stats::stats_dict;
use crate::views::{BoardSpec, board, off_the_gil, run_search};

/// The tree page of a search of `model` (`wanted` solutions, 0 for all), at most
/// `tree_limit` nodes recorded, with the board `board_spec` describes.
#[pyfunction]
#[pyo3(signature = (model, board_spec, tree_limit, wanted, **options))]
pub fn tree_html(
    py: Python<'_>,
    model: &RawModel,
    board_spec: BoardSpec,
    tree_limit: usize,
    wanted: u64,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let options = SearchOptions::from_keywords(options)?.without_objective()?;
    let model = model.shared_model();
    let board = board(&model, board_spec)?;
    let page = off_the_gil(py, move |cancel| {
        let solver = options.solver(&model, cancel)?;
        let mut tree = SearchTree::new(&model)
            .with_limit(tree_limit)
            .with_domains(true);
        run_search(&mut solver.with_observer(&mut tree), wanted);
        Ok::<_, cspkit::ModelError>(html::render(&tree, &board, &html::tree_title(&tree)))
    })?;
    page.map_err(raised)
}

/// The tree of a search of `model` as an SVG picture fitting `width` x `height` (the
/// command line's 16:9 slide by default).
#[pyfunction]
#[pyo3(signature = (model, tree_limit, wanted, width=None, height=None, **options))]
pub fn tree_svg(
    py: Python<'_>,
    model: &RawModel,
    tree_limit: usize,
    wanted: u64,
    width: Option<u32>,
    height: Option<u32>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let options = SearchOptions::from_keywords(options)?.without_objective()?;
    let slide = match (width, height) {
        (None, None) => Slide::default(),
        (width, height) => {
            let default = Slide::default();
            Slide::new(
                width.unwrap_or(default.width()),
                height.unwrap_or(default.height()),
            )
            .map_err(raised)?
        }
    };
    let model = model.shared_model();
    let picture = off_the_gil(py, move |cancel| {
        let solver = options.solver(&model, cancel)?;
        let mut tree = SearchTree::new(&model).with_limit(tree_limit);
        run_search(&mut solver.with_observer(&mut tree), wanted);
        Ok::<_, cspkit::ModelError>(svg::render_slide(&tree, slide))
    })?;
    picture.map_err(raised)
}

/// What the session's thread is asked to do.
#[derive(Debug)]
enum Command {
    /// Run at most this many more tree nodes.
    Advance(u64),
    /// Draw the page of the tree so far, at most this many nodes.
    Page(usize),
}

/// What the session's thread answers.
#[derive(Debug)]
enum Reply {
    /// The solver is made (or the options did not suit the model).
    Ready(Result<(), String>),
    /// The nodes asked for have run, or the search ended, or it was interrupted.
    Advanced,
    /// The page asked for.
    Page(String),
}

/// Where a session's search stands, as of its last advance.
#[derive(Debug, Clone)]
struct Progress {
    status: &'static str,
    stats: SearchStats,
    solutions: u64,
    stopped_by: Option<Limit>,
}

/// A search run a slice at a time on its own thread, each event recorded in a search tree
/// whose page can be drawn between two slices: what the notebook widget shows live.
///
/// The status is `running` until the search ends: `solved` (the solutions asked for were
/// found), `complete` (every solution was found, fewer than asked for), `infeasible` (there
/// is none) or `limit` (a node or time limit stopped it; `stats["stopped_by"]` says which).
#[pyclass(module = "cspkit._cspkit")]
#[derive(Debug)]
pub struct RawTreeSession {
    /// The requests to the thread; dropping them ends it.
    commands: Mutex<SyncSender<Command>>,
    /// The thread's replies.
    replies: Mutex<Receiver<Reply>>,
    /// Raised by Ctrl-C: the thread ends its slice early.
    stop: Arc<AtomicBool>,
    progress: Arc<Mutex<Progress>>,
}

#[pymethods]
impl RawTreeSession {
    /// A session of a search of `model` for `wanted` solutions (0 for all), recording at
    /// most `tree_limit` nodes (the search itself runs on), with the board `board_spec`
    /// describes; nothing runs before the first `advance`.
    #[new]
    #[pyo3(signature = (model, board_spec, tree_limit, wanted, **options))]
    fn new(
        py: Python<'_>,
        model: &RawModel,
        board_spec: BoardSpec,
        tree_limit: usize,
        wanted: u64,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let options = SearchOptions::from_keywords(options)?.without_objective()?;
        let model = model.shared_model();
        let board = board(&model, board_spec)?;
        let (commands, requests) = mpsc::sync_channel::<Command>(0);
        let (reply, replies) = mpsc::sync_channel::<Reply>(1);
        let stop = Arc::new(AtomicBool::new(false));
        let progress = Arc::new(Mutex::new(Progress {
            status: "running",
            stats: SearchStats::default(),
            solutions: 0,
            stopped_by: None,
        }));
        let worker = Worker {
            board,
            tree_limit,
            wanted,
            stop: Arc::clone(&stop),
            progress: Arc::clone(&progress),
            requests,
            reply,
        };
        std::thread::spawn(move || worker.serve(&model, &options));
        let replies = Mutex::new(replies);
        let cancel = AtomicBool::new(false);
        match wait(py, &replies, &cancel, None)? {
            Reply::Ready(Ok(())) => {}
            Reply::Ready(Err(message)) => return Err(raised(message)),
            _ => return Err(PyRuntimeError::new_err("the tree session did not start")),
        }
        Ok(RawTreeSession {
            commands: Mutex::new(commands),
            replies,
            stop,
            progress,
        })
    }

    /// Runs at most `nodes` more tree nodes with the GIL released (fewer if the search
    /// ends); whether the search has ended. Ctrl-C stops the slice and raises
    /// `KeyboardInterrupt`; the session can then go on.
    fn advance(&self, py: Python<'_>, nodes: u64) -> PyResult<bool> {
        if self.status() == "running" {
            let _ = self.exchange(py, Command::Advance(nodes))?;
        }
        Ok(self.status() != "running")
    }

    /// The tree page of the search so far (complete once the search has ended), at most
    /// `max_nodes` nodes drawn.
    fn page(&self, py: Python<'_>, max_nodes: usize) -> PyResult<String> {
        match self.exchange(py, Command::Page(max_nodes))? {
            Reply::Page(page) => Ok(page),
            _ => Err(PyRuntimeError::new_err(
                "the tree session answered out of turn",
            )),
        }
    }

    /// `running`, `solved`, `complete`, `infeasible` or `limit`.
    #[getter]
    fn status(&self) -> &'static str {
        self.progress.lock().expect("the progress lock").status
    }

    /// The solutions found so far.
    #[getter]
    fn solutions(&self) -> u64 {
        self.progress.lock().expect("the progress lock").solutions
    }

    /// The statistics of the search so far, with `stopped_by` when a limit stopped it.
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let progress = self.progress.lock().expect("the progress lock").clone();
        let stats = stats_dict(py, &progress.stats)?;
        if let Some(limit) = progress.stopped_by {
            stats.set_item("stopped_by", limit.to_string())?;
        }
        Ok(stats)
    }
}

impl RawTreeSession {
    /// Sends `command` and waits for its reply with the GIL released.
    fn exchange(&self, py: Python<'_>, command: Command) -> PyResult<Reply> {
        // One exchange at a time; another thread waiting here would hold the GIL the first
        // needs to return.
        let Ok(commands) = self.commands.try_lock() else {
            return Err(raised(
                "the tree session is busy in another thread: one call at a time",
            ));
        };
        commands
            .send(command)
            .map_err(|_| PyRuntimeError::new_err("the tree session's thread has stopped"))?;
        let reply = wait(py, &self.replies, &self.stop, None);
        self.stop.store(false, Ordering::Relaxed);
        reply
    }
}

/// The session's thread: the solver, the tree, and what it answers.
struct Worker {
    board: Board,
    tree_limit: usize,
    wanted: u64,
    stop: Arc<AtomicBool>,
    progress: Arc<Mutex<Progress>>,
    requests: Receiver<Command>,
    reply: SyncSender<Reply>,
}

impl Worker {
    /// Makes the solver, then answers requests until the session is dropped.
    fn serve(self, model: &Model, options: &SearchOptions) {
        let mut solver = match options.solver(model, Arc::new(AtomicBool::new(false))) {
            Ok(solver) => solver,
            Err(error) => {
                let _ = self.reply.send(Reply::Ready(Err(error.to_string())));
                return;
            }
        };
        if self.reply.send(Reply::Ready(Ok(()))).is_err() {
            return;
        }
        let mut tree = SearchTree::new(model)
            .with_limit(self.tree_limit)
            .with_domains(true);
        let mut progress = Progress {
            status: "running",
            stats: SearchStats::default(),
            solutions: 0,
            stopped_by: None,
        };
        while let Ok(command) = self.requests.recv() {
            let reply = match command {
                Command::Advance(nodes) => {
                    self.advance(&mut solver, &mut tree, &mut progress, nodes);
                    Reply::Advanced
                }
                Command::Page(max_nodes) => {
                    let drawn = tree.truncated(max_nodes);
                    Reply::Page(html::render(&drawn, &self.board, &html::tree_title(&drawn)))
                }
            };
            if self.reply.send(reply).is_err() {
                return;
            }
        }
    }

    /// Runs the search for at most `nodes` tree nodes, to its end, or until stopped.
    fn advance(
        &self,
        solver: &mut AnySolver<'_>,
        tree: &mut SearchTree<'_>,
        progress: &mut Progress,
        nodes: u64,
    ) {
        let mut made = 0;
        while progress.status == "running" && made < nodes && !self.stop.load(Ordering::Relaxed) {
            let step = solver.next_step();
            if let Some(event) = step.event() {
                tree.on_event(&event);
            }
            match step {
                SearchStep::Event(OwnedEvent::Node { .. }) => made += 1,
                SearchStep::Solution { .. } => {
                    progress.solutions += 1;
                    if self.wanted != 0 && progress.solutions >= self.wanted {
                        progress.status = "solved";
                    }
                }
                SearchStep::Exhausted => {
                    progress.status = if progress.solutions == 0 {
                        "infeasible"
                    } else {
                        "complete"
                    };
                }
                SearchStep::Stopped(limit) => {
                    progress.status = "limit";
                    progress.stopped_by = Some(limit);
                }
                _ => {}
            }
        }
        progress.stats = solver.stats();
        *self.progress.lock().expect("the progress lock") = progress.clone();
    }
}
