"""The teaching views of a model: the trace (lines and events), the search tree (page,
picture, and a resumable search for the notebook widget), compare, and the Sudoku tools.

The methods of :class:`cspkit.Model` and :class:`cspkit.SudokuModel` call these; the work is
done in Rust (``python/src/trace.rs``, ``tree.rs``, ``compare.rs``, ``puzzle.rs``), searches
with the GIL released, Ctrl-C stopping them with ``KeyboardInterrupt``.
"""

from __future__ import annotations

from typing import Any, Optional

from . import _cspkit
from ._cspkit import CspkitError

#: The most tree nodes a page or picture records unless told (the command line's
#: ``--tree-limit``); the search itself runs on.
TREE_LIMIT = 5000

#: The most tree nodes a :class:`TreeSession` records unless told.
SESSION_TREE_LIMIT = 100_000


def _count(name: str, value: Any) -> int:
    """`value` as a non-negative integer, or CspkitError naming the keyword `name`."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise CspkitError(f"{name}: expected a non-negative integer, got {value!r}")
    return value


def _board(model: Any) -> Optional[tuple]:
    """How the tree page draws `model`: the queens' board, a grid, or (None) a table."""
    from . import QueensModel, SudokuModel

    if isinstance(model, QueensModel) and model.rows:
        return ("queens", [row.index for row in model.rows], model.rows[0].bounds[0])
    if isinstance(model, SudokuModel) and model.cells:
        cells = [cell.index for row in model.cells for cell in row]
        return ("grid", cells, len(model.cells))
    return None


def trace(model: Any, max_lines: int, domains: bool, solutions: int, options: dict) -> list:
    """The ``--trace`` lines of a search of `model` (see :meth:`cspkit.Model.trace`)."""
    return _cspkit.trace_lines(
        model._raw,
        _count("max_lines", max_lines),
        bool(domains),
        _count("solutions", solutions),
        **model._options(options),
    )


def trace_events(
    model: Any, max_events: int, domains: bool, solutions: int, options: dict
) -> list:
    """The events of a search of `model` as dicts (see :meth:`cspkit.Model.trace_events`)."""
    return _cspkit.trace_events(
        model._raw,
        _count("max_events", max_events),
        bool(domains),
        _count("solutions", solutions),
        **model._options(options),
    )


def tree_html(model: Any, tree_limit: int, solutions: int, options: dict) -> str:
    """The tree page of a search of `model` (see :meth:`cspkit.Model.tree_html`)."""
    return _cspkit.tree_html(
        model._raw,
        _board(model),
        _count("tree_limit", tree_limit),
        _count("solutions", solutions),
        **model._options(options),
    )


def tree_svg(
    model: Any,
    tree_limit: int,
    width: Optional[int],
    height: Optional[int],
    solutions: int,
    options: dict,
) -> str:
    """The tree of a search of `model` as SVG (see :meth:`cspkit.Model.tree_svg`)."""
    return _cspkit.tree_svg(
        model._raw,
        _count("tree_limit", tree_limit),
        _count("solutions", solutions),
        None if width is None else _count("width", width),
        None if height is None else _count("height", height),
        **model._options(options),
    )


class TreeSession:
    """A search run a slice at a time, its tree recorded as it goes: what the notebook
    widget draws live. Made by :meth:`cspkit.Model.tree_session`.

    ``advance(nodes)`` runs at most `nodes` more tree nodes in Rust with the GIL released
    (Ctrl-C stops the slice with ``KeyboardInterrupt``; the session can go on), and says
    whether the search has ended; ``page()`` is the tree page of the search so far.
    ``status`` is ``"running"`` until the end, then ``"solved"`` (the solutions asked for
    were found), ``"complete"`` (all of them, fewer than asked for), ``"infeasible"`` (none
    exists) or ``"limit"`` (``stats["stopped_by"]`` says which).
    """

    def __init__(
        self,
        model: Any,
        tree_limit: int = SESSION_TREE_LIMIT,
        solutions: int = 1,
        **options: Any,
    ) -> None:
        """A session of a search of `model` for `solutions` solutions (0: all), recording
        at most `tree_limit` nodes, with the search options `options`. Nothing runs yet."""
        #: The model searched.
        self.model = model
        self._raw = _cspkit.RawTreeSession(
            model._raw,
            _board(model),
            _count("tree_limit", tree_limit),
            _count("solutions", solutions),
            **model._options(options),
        )

    def advance(self, nodes: int) -> bool:
        """Runs at most `nodes` more tree nodes (fewer if the search ends); whether it has
        ended."""
        return self._raw.advance(_count("nodes", nodes))

    def run(self, slice_nodes: int = 10_000) -> "TreeSession":
        """Runs the search to its end (a slice of `slice_nodes` at a time); the session."""
        if _count("slice_nodes", slice_nodes) < 1:
            raise CspkitError(f"slice_nodes: expected a positive number of nodes, got {slice_nodes}")
        while not self.advance(slice_nodes):
            pass
        return self

    def page(self, max_nodes: int = 2000) -> str:
        """The tree page (self-contained HTML) of the search so far, at most `max_nodes`
        nodes drawn; complete once the search has ended."""
        return self._raw.page(_count("max_nodes", max_nodes))

    @property
    def done(self) -> bool:
        """Whether the search has ended."""
        return self._raw.status != "running"

    @property
    def status(self) -> str:
        """``running``, ``solved``, ``complete``, ``infeasible`` or ``limit``."""
        return self._raw.status

    @property
    def stats(self) -> dict:
        """The statistics of the search so far (``stopped_by`` when a limit stopped it)."""
        return self._raw.stats

    @property
    def solutions(self) -> int:
        """The solutions found so far."""
        return self._raw.solutions

    def __repr__(self) -> str:
        """A short description."""
        return (
            f"TreeSession(status={self.status!r}, nodes={self.stats['nodes']}, "
            f"solutions={self.solutions})"
        )



def _strategies(model: Any, strategies: tuple) -> list:
    """Each strategy's options with the model's defaults under them, checked to be dicts."""
    if not strategies:
        raise CspkitError("compare: give at least one strategy (a dict of search options)")
    out = []
    for k, strategy in enumerate(strategies, 1):
        if not isinstance(strategy, dict):
            raise CspkitError(
                f"compare: strategy {k} must be a dict of search options, got {strategy!r}"
            )
        out.append(model._options(strategy))
    return out


def compare(model: Any, *strategies: dict, solutions: int = 1) -> list:
    """One row per strategy of the searches of `model`: the columns of ``cspkit compare
    --format json`` as a dict, ready for ``pandas.DataFrame(rows)``.

    Each strategy is a dict of search options (``var_order``, ``value_order``,
    ``propagation``, ``branching``, limits, ``seed``); a model's own defaults (forward
    checking for N-Queens) apply where a strategy says nothing. Each search looks for
    `solutions` solutions (0: all, as ``cspkit compare --count``). A row has ``strategy``
    (the four names joined), ``var_order``, ``value_order``, ``propagation``, ``branching``,
    ``decisions``, ``nodes`` and ``tree_nodes`` (the same: tree nodes, the root included),
    ``failures``, ``nassigns``, ``propagations``, ``arc_revisions``, ``values_removed``,
    ``domain_changes``, ``solutions``, ``time`` (seconds) and ``status`` (``done``, or the
    limit that stopped the search).
    """
    rows, _ = _cspkit.compare(
        model._raw, _strategies(model, strategies), _count("solutions", solutions), None,
        None, "",
    )
    return rows


def compare_html(
    model: Any,
    *strategies: dict,
    solutions: int = 1,
    tree_limit: int = TREE_LIMIT,
    title: str = "cspkit compare",
) -> str:
    """The page of the search trees of `model` under 1 to 4 strategies side by side, as
    ``cspkit compare ... --tree page.html`` writes it: each tree with its statistics, and
    where they part named and marked. Strategies and `solutions` as :func:`compare`."""
    _, page = _cspkit.compare(
        model._raw, _strategies(model, strategies), _count("solutions", solutions),
        _count("tree_limit", tree_limit), _board(model), str(title),
    )
    return page


#: Decisions each search of a Sudoku tool may take unless told (the command line's default).
PUZZLE_DECISION_LIMIT = 1_000_000


def sudoku_generate(
    clues: Optional[int] = None,
    difficulty: Optional[str] = None,
    symmetric: bool = False,
    seed: int = 0,
    size: int = 9,
    decision_limit: Optional[int] = None,
    time_limit: Optional[float] = None,
) -> str:
    """A Sudoku puzzle with one solution, as ``cspkit sudoku --generate`` makes it (the same
    seed makes the same puzzle): the grid on one line, ``0`` for an empty cell; read it with
    :func:`cspkit.sudoku`.

    `clues`: stop removing clues at this many; `difficulty`: ``easy`` (naked singles solve
    it), ``medium`` (single-unit reasoning does) or ``hard`` (it needs a guess); `symmetric`:
    clues in pairs symmetric about the centre; `size`: 4, 9, 16 or 25 rows;
    `decision_limit`: decisions of each search; `time_limit`: seconds for the whole.
    """
    return _cspkit.sudoku_generate(
        _count("size", size),
        None if clues is None else _count("clues", clues),
        difficulty,
        bool(symmetric),
        _count("seed", seed),
        None if decision_limit is None else _count("decision_limit", decision_limit),
        time_limit,
    )


def _cells(model: Any) -> list:
    """The givens of a Sudoku model, row by row, 0 for an open cell."""
    cells = []
    for row in model.cells:
        for cell in row:
            lo, hi = cell.bounds
            cells.append(lo if lo == hi else 0)
    return cells


def sudoku_grade(model: Any, decision_limit: int, time_limit: Optional[float]) -> dict:
    """See :meth:`cspkit.SudokuModel.grade`."""
    return _cspkit.sudoku_grade(
        _cells(model), _count("decision_limit", decision_limit), time_limit
    )


def sudoku_explain(model: Any, decision_limit: int, time_limit: Optional[float]) -> list:
    """See :meth:`cspkit.SudokuModel.explain`."""
    lines, _ = _cspkit.sudoku_explain(
        _cells(model), True, _count("decision_limit", decision_limit), time_limit
    )
    return lines


def sudoku_hint(
    model: Any, decision_limit: int, time_limit: Optional[float]
) -> Optional[str]:
    """See :meth:`cspkit.SudokuModel.hint`."""
    lines, _ = _cspkit.sudoku_explain(
        _cells(model), False, _count("decision_limit", decision_limit), time_limit
    )
    return lines[0] if lines else None


def sudoku_why(
    model: Any,
    row: Optional[int],
    col: Optional[int],
    decision_limit: int,
    time_limit: Optional[float],
) -> Any:
    """See :meth:`cspkit.SudokuModel.why`."""
    decision_limit = _count("decision_limit", decision_limit)
    if row is None and col is None:
        found = _cspkit.sudoku_why(_cells(model), decision_limit, time_limit)
        if found is None:
            return None
        givens, minimal, lines = found
        return {
            "givens": [(r + 1, c + 1, v) for r, c, v in givens],
            "minimal": minimal,
            "lines": lines,
        }
    if row is None or col is None:
        raise CspkitError("why: give both row and col (1-based), or neither")
    for name, value in (("row", row), ("col", col)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise CspkitError(f"why: {name} is 1-based, got {value!r}")
    return _cspkit.sudoku_why_cell(
        _cells(model), row - 1, col - 1, decision_limit, time_limit
    )
