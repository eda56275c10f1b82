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


def compare(model: Any, strategies: tuple, solutions: int = 1, **keywords: Any) -> list:
    """Not yet: the rows of the searches of `model`, one per strategy."""
    raise NotImplementedError("compare")


def compare_html(model: Any, *strategies: dict, **keywords: Any) -> str:
    """Not yet: the comparison page."""
    raise NotImplementedError("compare_html")


def sudoku_generate(**keywords: Any) -> str:
    """Not yet: a Sudoku puzzle."""
    raise NotImplementedError("sudoku_generate")
