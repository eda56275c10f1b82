//! [`Trace`]: a text trace of a search, one line per event, in the model's own words.

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::replay::Replay;
use super::sentences;
use crate::domain::Domain;
use crate::ids::{ConstraintId, VarId};
use crate::model::Model;
use crate::search::config::Counting;
use crate::search::observer::{BranchKind, Event, SearchObserver};
use crate::search::pairs::{free_domain, without_clashes};

/// Writes a search as it runs: each branch on its own line, indented by the decisions above
/// it, then what propagation fixed and why, and how the node ended.
///
/// ```text
/// row 1 = 1
///   row 2 = 3
///     row 3 has no value left (diagonals) ✗
///   row 2 ≠ 3
///   row 2 = 4
///     row 3 = 2 (only value left, diagonals)
///     row 4 has no value left (columns) ✗
/// ```
///
/// - A left branch (`x = v`, or `x ≤ v` when splitting domains) is a decision: the trace prints
///   exactly as many as the search's statistics count decisions (unless it is cut).
/// - A right branch (`x ≠ v`, `x > v`) is printed one level deeper than the decision it
///   refutes, under the same parent; if it leaves the variable one value, the line says so:
///   `row 2 ≠ 3 (so row 2 = 4)`.
/// - A variable fixed by propagation is printed with the constraint that removed its last
///   alternative; with [`with_domains`](Trace::with_domains), the domains of the unfixed
///   variables follow each propagation.
/// - A forced value is one fact, printed on one line. Under cspkit's counting the search never
///   branches on a fixed variable, and the line is printed where propagation fixed it. Under
///   AIMA's ([`with_counting`](Trace::with_counting)), where every variable is assigned by a
///   decision, it is printed where the decision assigns it, which says so:
///   `SA = 3 (only value left, NT-SA)`.
/// - A failure that follows its branch directly is printed on the branch's line, with the
///   variable the branch clashed with when one fixed variable of the failing constraint
///   suffices to explain it: `r1c3 = 5 ✗ box 1 already has 5 (r2c2)`,
///   `row 3 = 2 ✗ anti-diagonals, with row 1 = 4`.
///
/// With AC-3 ([`Propagation::Ac3`]), each run of it prints its queue of arcs (the first ten,
/// or all of them [`with_domains`](Trace::with_domains)), then one line per revision, with the
/// values it removed and the arcs it queued:
///
/// ```text
/// AC-3 queue: (NT, WA), (SA, WA)
/// revise(NT, WA): removed 1; queued (SA, NT), (Q, NT)
/// revise(SA, WA): removed 1; queued (NT, SA), (Q, SA), (NSW, SA), (V, SA)
/// revise(SA, NT): nothing removed
/// ```
///
/// [`Propagation::Ac3`]: crate::Propagation::Ac3
///
/// At most [`limit`](Trace::with_limit) lines are written; [`finish`](Trace::finish) then
/// writes one line saying what was cut. Writing errors stop the trace and are kept for
/// [`finish`](Trace::finish) to return.
///
/// # Examples
///
/// ```
/// use cspkit::models::queens::Queens;
/// use cspkit::teach::trace::Trace;
///
/// let queens = Queens::new(4)?;
/// let mut out = Vec::new();
/// let mut trace = Trace::new(queens.model(), &mut out);
/// let mut solver = queens.model().solver().with_observer(&mut trace);
/// assert!(solver.next_solution().is_solved());
/// drop(solver);
/// trace.finish()?;
/// let text = String::from_utf8(out)?;
/// assert!(text.starts_with("row 1 = 1\n  row 2 = 3\n"));
/// assert!(text.contains("    row 3 = 4 (only value left, columns)\n"));
/// assert!(text.ends_with("  ✓ solution\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Trace<'m, W: Write> {
    model: &'m Model,
    out: W,
    domains: bool,
    limit: usize,
    written: usize,
    /// The most bytes written, and the bytes written so far.
    max_bytes: usize,
    bytes: usize,
    /// Whether a line did not fit in the bytes left: no line is written after it.
    bytes_full: bool,
    /// The indentation of the current node's lines.
    indent: usize,
    /// The current node's branch line, kept back so that a failure can join it.
    pending: Option<String>,
    /// The last decision, for the wording of a failure that follows it at once.
    last_branch: Option<(VarId, i32, BranchKind)>,
    /// The variable a propagator emptied, for the failure that follows.
    wiped: Option<(VarId, ConstraintId)>,
    /// The domains along the current path, rebuilt from the events.
    replay: Replay,
    /// The length of AC-3's queue after the last event, to tell the arcs a revision queued.
    arcs_queued: usize,
    /// Whether the current node is propagated by AC-3, whose removals no one constraint of an
    /// edge explains: its lines name the arc instead.
    in_ac3: bool,
    cut: Cut,
    error: Option<io::Error>,
    /// Raised when writing fails, for a solver that stops on it.
    stop_on_error: Option<Arc<AtomicBool>>,
    /// Domains for the pair tests that word a failure (see `clash`), made at the first.
    scratch: Vec<Domain>,
    /// Whether the search assigns every variable by a decision (AIMA's counting), and for
    /// each variable propagation fixed, why: its line waits for the decision that assigns it.
    assigns_all: bool,
    forced: Vec<Option<Forced>>,
}

/// Why a variable has one value left, for the decision that assigns it under AIMA's counting.
#[derive(Debug, Clone, Copy)]
enum Forced {
    /// A constraint's propagation removed the last alternative.
    By(ConstraintId),
    /// AC-3, or a refutation, left it one value.
    Unnamed,
}

/// What a cut trace did not show.
#[derive(Debug, Default, Clone, Copy)]
struct Cut {
    /// Lines not written before the events stopped being read in full (at least one when
    /// the trace is cut).
    lines: u64,
    decisions: u64,
    failures: u64,
    solutions: u64,
}

impl<'m, W: Write> Trace<'m, W> {
    /// The default limit on the number of lines.
    pub const DEFAULT_LIMIT: usize = 1000;

    /// The default limit on the bytes written: the domains of a large model make long lines
    /// (a thousand lines of 1000-Queens domains would be hundreds of megabytes).
    pub const DEFAULT_BYTE_LIMIT: usize = 4 << 20;

    /// A trace of searches of `model`, written to `out`.
    pub fn new(model: &'m Model, out: W) -> Self {
        Trace {
            model,
            out,
            domains: false,
            limit: Self::DEFAULT_LIMIT,
            written: 0,
            max_bytes: Self::DEFAULT_BYTE_LIMIT,
            bytes_full: false,
            bytes: 0,
            indent: 0,
            pending: None,
            last_branch: None,
            wiped: None,
            replay: Replay::new(model),
            arcs_queued: 0,
            in_ac3: false,
            cut: Cut::default(),
            error: None,
            stop_on_error: None,
            scratch: Vec::new(),
            assigns_all: false,
            forced: Vec::new(),
        }
    }

    /// Words the lines as the search counts ([`Counting`]; by default cspkit's, where a
    /// variable propagation fixed is never branched on, and its value is printed where it
    /// was fixed). Under [`Counting::Aima`], where every variable is assigned by a decision
    /// even when propagation fixed it, a forced value is printed once, on the decision that
    /// assigns it: `SA = 3 (only value left, NT-SA)`. Give the counting the solver follows,
    /// [`SearchConfig::counting`](crate::SearchConfig::counting).
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::models::colouring::Colouring;
    /// use cspkit::teach::trace::Trace;
    /// use cspkit::{Branching, Propagation, SearchConfig};
    ///
    /// let australia = Colouring::australia(3)?;
    /// let config = SearchConfig::new()
    ///     .with_propagation(Propagation::TextbookForward)
    ///     .with_branching(Branching::DWay);
    /// let mut out = Vec::new();
    /// let mut trace = Trace::new(australia.model(), &mut out).with_counting(config.counting());
    /// let mut solver = australia.model().solver_with(config)?.with_observer(&mut trace);
    /// assert!(solver.next_solution().is_solved());
    /// drop(solver);
    /// trace.finish()?;
    /// let text = String::from_utf8(out)?;
    /// assert!(text.contains("    SA = 3 (only value left, "));
    /// assert_eq!(text.matches("SA = 3").count(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_counting(mut self, counting: Counting) -> Self {
        self.assigns_all = counting == Counting::Aima;
        self
    }

    /// Remembers why `var` has one value left, for the decision that will assign it.
    fn remember_forced(&mut self, var: VarId, why: Forced) {
        if self.forced.is_empty() {
            self.forced = vec![None; self.model.num_variables()];
        }
        if let Some(slot) = self.forced.get_mut(var.index()) {
            *slot = Some(why);
        }
    }

    /// Raises `flag` when writing fails (a closed pipe: `cspkit … --trace | head`), so that a
    /// solver given the same flag ([`Solver::with_cancel_flag`]) stops instead of searching on
    /// for a trace nobody reads.
    ///
    /// [`Solver::with_cancel_flag`]: crate::Solver::with_cancel_flag
    pub fn with_stop_on_error(mut self, flag: Arc<AtomicBool>) -> Self {
        self.stop_on_error = Some(flag);
        self
    }

    /// Also prints, after each node's propagation, the domains of the variables still unfixed.
    pub fn with_domains(mut self, domains: bool) -> Self {
        self.domains = domains;
        self
    }

    /// Writes at most `bytes` bytes; a line that would go past them is cut as past the line
    /// limit (the search itself is not limited).
    pub fn with_byte_limit(mut self, bytes: usize) -> Self {
        self.max_bytes = bytes;
        self
    }

    /// Writes at most `lines` lines (the search itself is not limited).
    pub fn with_limit(mut self, lines: usize) -> Self {
        self.limit = lines;
        self
    }

    /// Writes what is still held back and, if the trace was cut, a line saying what it left
    /// out; returns the first writing error, if there was one.
    ///
    /// # Errors
    ///
    /// The first error the writer returned.
    pub fn finish(&mut self) -> io::Result<()> {
        self.flush_pending();
        if self.cut.lines > 0 {
            let cut = self.cut;
            let line = format!(
                "… trace cut after {} lines ({} bytes): not shown: {}, {}, {}",
                self.written,
                self.bytes,
                sentences::counted(cut.decisions, "decision"),
                sentences::counted(cut.failures, "failure"),
                sentences::counted(cut.solutions, "solution"),
            );
            self.write_raw(&line);
        }
        if let Some(error) = self.error.take() {
            return Err(error);
        }
        self.out.flush()
    }

    /// Writes the line held back for a failure or a solution to join, if there is one (for a
    /// reader who must see it now, between two steps of a search).
    pub fn flush(&mut self) {
        self.flush_pending();
    }

    /// The domains where the trace stands, as it rebuilds them from the events it has seen (to
    /// word its lines): after a node's propagation, the node's; at a failure, those the failing
    /// propagator left, an emptied one included. For drawing the state of the search beside
    /// the trace, such as a puzzle's board after each node.
    ///
    /// Once the trace is [cut](Trace::is_cut), it no longer follows the domains (that would
    /// cost time at every node for lines never written): they stay where the last line left
    /// them.
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::models::queens::Queens;
    /// use cspkit::teach::trace::Trace;
    ///
    /// let queens = Queens::new(4)?;
    /// let mut trace = Trace::new(queens.model(), std::io::sink());
    /// let mut solver = queens.model().solver().with_observer(&mut trace);
    /// assert!(solver.next_solution().is_solved());
    /// drop(solver);
    /// assert_eq!(queens.board_at(trace.domains()), ".Q..\n...Q\nQ...\n..Q.\n");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn domains(&self) -> &[Domain] {
        self.replay.current()
    }

    /// Whether a line or byte limit has been reached: no more lines are written, and the
    /// events are only counted (decisions, failures and solutions, for the line
    /// [`finish`](Trace::finish) writes), at a cost per event that does not grow with the
    /// model. The trace then no longer [observes propagation](SearchObserver::observes_propagation).
    pub fn is_cut(&self) -> bool {
        self.full()
    }

    /// The writer (to drain a buffer between two steps of a search).
    pub fn writer_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// Whether the line or byte limit has been reached.
    fn full(&self) -> bool {
        self.written >= self.limit || self.bytes_full
    }

    /// Writes a line, or counts it if a limit is reached (or would be, for the bytes).
    fn line(&mut self, indent: usize, text: &str) {
        let size = indent + text.len() + 1;
        if !self.full() && self.bytes + size > self.max_bytes {
            // No line after one that did not fit: the trace stops at a line, not mid-search
            // at whatever short line still fits.
            self.bytes_full = true;
        }
        if self.full() {
            self.cut.lines += 1;
            return;
        }
        self.written += 1;
        self.bytes += size;
        let line = format!("{:indent$}{text}", "");
        self.write_raw(&line);
    }

    fn write_raw(&mut self, line: &str) {
        if self.error.is_none()
            && let Err(error) = writeln!(self.out, "{line}")
        {
            self.error = Some(error);
            if let Some(flag) = &self.stop_on_error {
                flag.store(true, Ordering::Relaxed);
            }
        }
    }

    fn flush_pending(&mut self) {
        if let Some(text) = self.pending.take() {
            let indent = self.indent.saturating_sub(2);
            self.line(indent, &text);
        }
    }

    fn name(&self, var: VarId) -> String {
        self.model.var_name(var).into_owned()
    }

    /// Why a node failed, in words.
    fn reason(&mut self, constraint: Option<ConstraintId>, var: Option<VarId>) -> String {
        match (constraint, var) {
            (Some(c), None) => {
                let name = self.model.constraint_name(c);
                let clash = match self.last_branch {
                    Some((x, v, BranchKind::Equal)) => self.clash(c, x, v).map(|clash| (v, clash)),
                    _ => None,
                };
                match clash {
                    Some((v, (y, w))) if v == w => {
                        let v = self.model.value_name(y, v);
                        format!("{name} already has {v} ({})", self.name(y))
                    }
                    Some((_, (y, w))) => {
                        let w = self.model.value_name(y, w);
                        format!("{name}, with {} = {w}", self.name(y))
                    }
                    None => name.to_owned(),
                }
            }
            _ => sentences::failure(self.model, constraint, var),
        }
    }

    /// A variable `y`, fixed to `w` at the failed node, such that `x = v` and `y = w` alone
    /// already violate constraint `c` (the first in its scope), by the pair tests textbook
    /// forward checking filters with.
    fn clash(&mut self, c: ConstraintId, x: VarId, v: i32) -> Option<(VarId, i32)> {
        let constraint = self.model.constraint_list().get(c.index())?;
        let scope = constraint.scope();
        // One scratch for every failure: the pair tests read and write the scope alone.
        if self.scratch.is_empty() {
            self.scratch = self.model.initial_domains().to_vec();
        }
        let free = free_domain(self.model, scope);
        let fits = without_clashes(&mut self.scratch, constraint.as_ref(), &free, (x, v));
        let current = self.replay.current();
        let scratch = &self.scratch;
        scope.iter().find_map(|&y| {
            let w = current.get(y.index())?.value()?;
            (y != x && (!fits || !scratch[y.index()].contains(w))).then_some((y, w))
        })
    }

    /// The first `shown` arcs of `arcs`, and how many there are if not all are shown.
    fn arc_list(&self, arcs: &[(VarId, VarId)], shown: usize) -> String {
        let mut list: Vec<String> = arcs
            .iter()
            .take(shown)
            .map(|&(x, y)| format!("({}, {})", self.name(x), self.name(y)))
            .collect();
        if arcs.len() > shown {
            list.push(format!("… ({} arcs)", arcs.len()));
        }
        list.join(", ")
    }

    fn domains_line(&self, domains: &[Domain]) -> Option<String> {
        let unfixed: Vec<String> = self
            .model
            .variables()
            .zip(domains)
            .filter(|(_, d)| !d.is_fixed())
            .map(|(var, d)| {
                let d = self.model.domain_text(var, d);
                format!("{} ∈ {d}", self.model.var_name(var))
            })
            .collect();
        (!unfixed.is_empty()).then(|| format!("· {}", unfixed.join(", ")))
    }
}

impl<W: Write> SearchObserver for Trace<'_, W> {
    /// The 0.2 way to feed an event, kept for callers that still do: the same as `on_event`.
    #[allow(
        deprecated,
        reason = "forwards the deprecated method of 0.2 to `on_event`"
    )]
    fn event(&mut self, event: &Event<'_>) {
        self.on_event(event);
    }

    fn observes_propagation(&self) -> bool {
        !self.full()
    }

    fn on_event(&mut self, event: &Event<'_>) {
        if matches!(event, Event::Backtrack { .. }) {
            // No line: the refutation's node that follows has one.
            return;
        }
        if self.full() {
            // Cut: what `finish` reports is counted, nothing else is done.
            self.flush_pending();
            // Each event that would have made a line: the count says whether anything was
            // cut (the line counts of propagation, which is no longer observed, are unknown).
            let line = match *event {
                Event::Node { kind, .. } => {
                    if matches!(kind, BranchKind::Equal | BranchKind::AtMost) {
                        self.cut.decisions += 1;
                    }
                    true
                }
                Event::Failure { .. } => {
                    self.cut.failures += 1;
                    true
                }
                Event::Solution { .. } => {
                    self.cut.solutions += 1;
                    true
                }
                Event::Pruned { after, .. } => after.is_fixed() && !self.assigns_all,
                Event::Propagated { .. } => self.domains,
                Event::ArcQueue { .. } | Event::Revise { .. } | Event::Improved { .. } => true,
                Event::Backjump { .. } | Event::Learned { .. } => true,
                Event::Backtrack { .. } | Event::NogoodUsed { .. } => false,
            };
            self.cut.lines += u64::from(line);
            return;
        }
        // Under AIMA's counting, whether a decision assigns a variable that already had one
        // value left (read before the event changes the domains).
        let forced_value = match *event {
            Event::Node {
                var,
                value,
                kind: BranchKind::Equal,
                ..
            } if self.assigns_all => {
                let current = self.replay.current();
                (current.get(var.index()).and_then(Domain::value) == Some(value)).then(|| {
                    let why = self.forced.get(var.index()).copied().flatten();
                    match why {
                        Some(Forced::By(c)) => {
                            format!(" (only value left, {})", self.model.constraint_name(c))
                        }
                        _ => " (only value left)".to_owned(),
                    }
                })
            }
            _ => None,
        };
        self.replay.observe(event);
        match *event {
            Event::Node {
                var,
                value,
                kind,
                depth,
                ..
            } => {
                self.flush_pending();
                let left = matches!(kind, BranchKind::Equal | BranchKind::AtMost);
                if left && self.full() {
                    self.cut.decisions += 1;
                }
                // A decision sits at its depth; a refutation beside the decision it refutes.
                self.indent = 2 * if left { depth } else { depth + 1 };
                let mut line = sentences::branch(self.model, var, kind, value);
                if let Some(forced) = forced_value {
                    line.push_str(&forced);
                }
                // A refutation that leaves one value decides the variable by itself (under
                // AIMA's counting, the decision that follows says so).
                if let (false, Some(left)) = (left, self.replay.current()[var.index()].value()) {
                    if self.assigns_all {
                        self.remember_forced(var, Forced::Unnamed);
                    } else {
                        let left = self.model.value_name(var, left);
                        line = format!("{line} (so {} = {left})", self.name(var));
                    }
                }
                self.pending = Some(line);
                self.last_branch = Some((var, value, kind));
                self.wiped = None;
                self.in_ac3 = false;
            }
            Event::Pruned {
                var,
                after,
                constraint,
                ..
            } => {
                if after.is_empty() {
                    self.wiped = Some((var, constraint));
                } else if after.is_fixed() && self.assigns_all {
                    // Printed on the decision that will assign it.
                    let why = if self.in_ac3 {
                        Forced::Unnamed
                    } else {
                        Forced::By(constraint)
                    };
                    self.remember_forced(var, why);
                } else if let Some(value) = after.value() {
                    self.flush_pending();
                    let value = self.model.value_name(var, value);
                    let text = if self.in_ac3 {
                        format!("{} = {value} (only value left)", self.name(var))
                    } else {
                        format!(
                            "{} = {value} (only value left, {})",
                            self.name(var),
                            self.model.constraint_name(constraint)
                        )
                    };
                    self.line(self.indent, &text);
                    self.last_branch = None;
                }
            }
            Event::Propagated { domains, .. } => {
                if self.domains
                    && let Some(text) = self.domains_line(domains)
                {
                    self.flush_pending();
                    self.line(self.indent, &text);
                }
            }
            Event::Failure {
                constraint, var, ..
            } => {
                if self.full() {
                    self.cut.failures += 1;
                }
                let var = var.or(self.wiped.map(|(v, _)| v));
                let reason = match var {
                    Some(var) if self.in_ac3 => sentences::no_value_left(self.model, var, None),
                    _ => self.reason(constraint, var),
                };
                match self.pending.take() {
                    Some(branch) => {
                        self.pending = Some(format!("{branch} ✗ {reason}"));
                        self.flush_pending();
                    }
                    None => self.line(self.indent, &format!("✗ {reason}")),
                }
            }
            Event::Solution { .. } => {
                if self.full() {
                    self.cut.solutions += 1;
                }
                match self.pending.take() {
                    Some(branch) => {
                        self.pending = Some(format!("{branch} {}", sentences::SOLUTION));
                        self.flush_pending();
                    }
                    None => self.line(self.indent, sentences::SOLUTION),
                }
            }
            Event::ArcQueue { arcs, .. } => {
                self.flush_pending();
                self.in_ac3 = true;
                self.arcs_queued = arcs.len();
                let shown = if self.domains { arcs.len() } else { 10 };
                let mut text = format!("AC-3 queue: {}", self.arc_list(arcs, shown));
                if arcs.is_empty() {
                    text.push_str("(empty)");
                }
                self.line(self.indent, &text);
            }
            Event::Revise {
                from,
                to,
                removed,
                queue,
                ..
            } => {
                self.flush_pending();
                let added = (queue.len() + 1).saturating_sub(self.arcs_queued);
                self.arcs_queued = queue.len();
                let mut text = sentences::revise(self.model, from, to, removed);
                if added > 0 {
                    let new = &queue[queue.len() - added..];
                    text.push_str(&format!("; queued {}", self.arc_list(new, new.len())));
                }
                self.line(self.indent, &text);
            }
            Event::Improved { value, .. } => {
                self.line(
                    self.indent,
                    &format!("★ objective {value}: the best so far"),
                );
            }
            Event::Backjump {
                depth,
                to,
                conflict,
                skipped,
                ..
            } => {
                self.flush_pending();
                let names: Vec<String> = conflict.iter().map(|&v| self.name(v)).collect();
                let mut text = format!("↩ conflict set {{{}}}", names.join(", "));
                if to == 0 {
                    text.push_str(": no decision to go back to, the search is over");
                } else if !skipped.is_empty() {
                    let back = self.name(conflict[conflict.len() - 1]);
                    let skipped: Vec<String> = skipped.iter().map(|&v| self.name(v)).collect();
                    let verb = if skipped.len() == 1 { "has" } else { "have" };
                    text.push_str(&format!(
                        ": back to {back}; {} {verb} nothing to do with it",
                        skipped.join(", ")
                    ));
                }
                self.line(2 * depth.min(to.max(1)), &text);
            }
            Event::Learned { depth, nogood, .. } => {
                self.flush_pending();
                let text = crate::search::learning::describe_nogood(self.model, nogood);
                self.line(2 * depth, &text);
            }
            Event::Backtrack { .. } | Event::NogoodUsed { .. } => {}
        }
    }
}
