"""The notebook widget: the tree page of a search, inline in Jupyter, live as it runs.

:class:`TreeWidget` is an `anywidget <https://anywidget.dev>`_ (Jupyter, JupyterLab, VS Code
and the other anywidget hosts). It shows cspkit's own tree page (the page ``cspkit ...
--tree page.html`` writes: click a node for its board and domains, keys to walk the tree)
in a frame, with the search's counts, its status and a Stop button above it. The search
runs in a background thread a slice of nodes at a time (:meth:`cspkit.TreeSession.advance`,
in Rust with the GIL released, so the notebook stays usable); the page of the tree so far
goes to the front end at most once a second, the complete tree when the search ends::

    import cspkit
    cspkit.queens(8).tree(solutions=0, propagation="mac")   # the last line of a cell

The widget needs the ``notebook`` extra: ``pip install "cspkit[notebook]"``.
"""

from __future__ import annotations

#: What to install when anywidget is missing.
INSTALL_HINT = 'the cspkit notebook widget needs anywidget: pip install "cspkit[notebook]"'

try:
    import anywidget
    import traitlets
except ImportError as _missing:  # pragma: no cover - exercised in a subprocess by the tests
    raise ImportError(f"{INSTALL_HINT} ({_missing})") from _missing

import pathlib
import atexit
import threading
import weakref
import time
from typing import TYPE_CHECKING, Any, Optional, Union

from . import _views
from ._cspkit import CspkitError
from ._views import TreeSession

if TYPE_CHECKING:
    from . import Model

__all__ = ["TreeWidget", "INSTALL_HINT"]

#: Tree nodes drawn in a page while the search runs (the web page's figure).
LIVE_NODES = 2000
#: Seconds between two pages while the search runs.
EVERY = 1.0
#: Tree nodes each slice of the search runs before the widget looks at the clock and Stop.
SLICE_NODES = 1000


#: The widgets whose search thread was started, stopped when the interpreter exits.
_RUNNING: "weakref.WeakSet[TreeWidget]" = weakref.WeakSet()


@atexit.register
def _stop_running_widgets() -> None:
    """At exit, stops every widget's search and waits for its thread to leave Rust (the slice
    running ends first): a thread still searching when the interpreter shuts down would abort
    the process."""
    for widget in list(_RUNNING):
        widget.stop()
    for widget in list(_RUNNING):
        thread = widget._thread
        if thread is not None:
            thread.join(timeout=30)


def _positive(name: str, value: Any, allow_zero: bool = False) -> Any:
    """`value` checked to be a number > 0 (or >= 0), else CspkitError naming `name`."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise CspkitError(f"TreeWidget: {name} must be a number, got {value!r}")
    if value != value or value in (float("inf"), float("-inf")):
        raise CspkitError(f"TreeWidget: {name} must be a finite number, got {value!r}")
    if value < 0 or (value == 0 and not allow_zero):
        bound = ">= 0" if allow_zero else "> 0"
        raise CspkitError(f"TreeWidget: {name} must be {bound}, got {value!r}")
    return value


class TreeWidget(anywidget.AnyWidget):
    """The tree page of a search, live as the search runs, with its counts and a Stop button.

    ``TreeWidget(model, **options)`` searches `model` (a :class:`cspkit.Model`) with
    ``model.tree_session(**options)``: the search options, ``solutions`` (how many to look
    for, 0 for all) and ``tree_limit`` (nodes recorded); ``TreeWidget(session)`` shows a
    :class:`cspkit.TreeSession` made before (and runs it on if it has not ended).
    :meth:`cspkit.Model.tree` is the short way: ``display(model.tree(solutions=0))``.

    The search starts at once in a background thread (unless ``start=False``: then call
    :meth:`start`), `slice_nodes` tree nodes at a time; while it runs the front end gets the
    page of the tree so far (at most `live_nodes` nodes drawn) every `every` seconds at most,
    and the complete page (at most `final_nodes` nodes) when it ends. Stop (the button, or
    :meth:`stop`) ends the search between two slices and shows the tree so far;
    :meth:`wait` waits for the end.

    The synced state, readable from Python: ``page`` (the HTML shown), ``live`` (whether it
    is a page of a search still running), ``status`` (``idle``, ``running``, then the
    session's ``solved``, ``complete``, ``infeasible`` or ``limit``, or ``stopped``, or
    ``error`` with ``error`` saying what went wrong), ``stats`` (the search's statistics,
    as :attr:`cspkit.TreeSession.stats`), ``solutions``, ``elapsed`` (seconds of search),
    ``pages`` (pages sent so far) and ``height`` (of the frame, in pixels).
    """

    _esm = pathlib.Path(__file__).with_name("widget.js")

    #: The tree page shown (self-contained HTML); empty before the first one.
    page = traitlets.Unicode("").tag(sync=True)
    #: Whether `page` is the tree of a search still running (else the final page).
    live = traitlets.Bool(False).tag(sync=True)
    #: idle, running, solved, complete, infeasible, limit, stopped or error.
    status = traitlets.Unicode("idle").tag(sync=True)
    #: The statistics of the search so far (decisions as ``nodes``, ``failures``, ...).
    stats = traitlets.Dict().tag(sync=True)
    #: Solutions found so far.
    solutions = traitlets.Int(0).tag(sync=True)
    #: Seconds the search has run.
    elapsed = traitlets.Float(0.0).tag(sync=True)
    #: Pages sent to the front end so far.
    pages = traitlets.Int(0).tag(sync=True)
    #: What went wrong, when ``status`` is ``error``.
    error = traitlets.Unicode("").tag(sync=True)
    #: Height of the tree page's frame, in pixels.
    height = traitlets.Int(600).tag(sync=True)

    def __init__(
        self,
        source: Union["Model", TreeSession],
        *,
        slice_nodes: int = SLICE_NODES,
        every: float = EVERY,
        live_nodes: int = LIVE_NODES,
        final_nodes: int = _views.SESSION_TREE_LIMIT,
        height: int = 600,
        start: bool = True,
        **options: Any,
    ) -> None:
        """A widget of a search of `source` (a model, searched with `options`, or a tree
        session); see the class for the rest. Bad options raise :class:`CspkitError` here."""
        from . import Model  # noqa: F811 - the package imports this module lazily: no cycle

        if isinstance(source, TreeSession):
            if options:
                raise CspkitError(
                    "TreeWidget: search options go with a model, not a TreeSession (made "
                    f"with its own): got {', '.join(sorted(options))}"
                )
            session = source
        elif isinstance(source, Model):
            session = source.tree_session(**options)
        else:
            raise CspkitError(
                "TreeWidget: expected a cspkit.Model or a cspkit.TreeSession, got "
                f"{type(source).__name__}"
            )
        self._slice = max(1, int(_positive("slice_nodes", slice_nodes)))
        self._every = float(_positive("every", every, allow_zero=True))
        self._live_nodes = max(1, int(_positive("live_nodes", live_nodes)))
        self._final_nodes = max(1, int(_positive("final_nodes", final_nodes)))
        super().__init__(height=int(_positive("height", height)))
        self.session = session
        self._stop = threading.Event()
        self._elapsed = 0.0
        self._thread: Optional[threading.Thread] = None
        self.on_msg(self._on_message)
        if session.done:
            self._publish(final=True, status=session.status)
        elif start:
            self.start()

    # ------------------------------------------------------------------ control

    def start(self) -> "TreeWidget":
        """Starts the search in a background thread (once; later calls do nothing)."""
        if self._thread is None and not self.session.done:
            self.status = "running"
            self._thread = threading.Thread(
                target=self._run, name="cspkit-tree-widget", daemon=True
            )
            self._thread.start()
            _RUNNING.add(self)
        return self

    def stop(self) -> None:
        """Stops the search after the slice running now; the tree so far stays shown."""
        self._stop.set()

    def wait(self, timeout: Optional[float] = None) -> bool:
        """Waits for the search to end (at most `timeout` seconds); whether it has ended."""
        if self._thread is not None:
            self._thread.join(timeout)
            return not self._thread.is_alive()
        return self.status != "running"

    def close(self) -> None:
        """Stops the search and closes the widget (its views in the notebook go)."""
        if hasattr(self, "_stop"):  # not when __init__ failed (ipywidgets closes on delete)
            self.stop()
        super().close()

    @property
    def running(self) -> bool:
        """Whether the search thread is running."""
        return self._thread is not None and self._thread.is_alive()

    # ------------------------------------------------------------------ the search thread

    def _on_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """A message from the front end: ``{"type": "stop"}`` from the Stop button."""
        if isinstance(content, dict) and content.get("type") == "stop":
            self.stop()

    def _run(self) -> None:
        """The search thread: slices, a live page at most every `every` seconds, the end."""
        began = time.monotonic()
        last = None
        try:
            while not self._stop.is_set():
                ended = self.session.advance(self._slice)
                self._elapsed = time.monotonic() - began
                if ended:
                    break
                now = time.monotonic()
                if last is None or now - last >= self._every:
                    self._publish(final=False, status="running")
                    last = time.monotonic()
            self._elapsed = time.monotonic() - began
            status = self.session.status
            if status == "running":
                status = "stopped"
            self._publish(final=True, status=status)
        except BaseException as problem:  # noqa: BLE001 - shown in the widget, not lost
            with self.hold_sync():
                self.error = f"{type(problem).__name__}: {problem}"
                self.status = "error"
                self.live = False

    def _publish(self, final: bool, status: str) -> None:
        """Sends the page of the tree so far (the complete one when `final`), the counts
        and `status` to the front end in one message."""
        page = self.session.page(self._final_nodes if final else self._live_nodes)
        stats = dict(self.session.stats)
        # One message to the front end; `page` last, so that observers of it in Python
        # see the counts that go with it.
        with self.hold_sync():
            self.live = not final
            self.stats = stats
            self.solutions = self.session.solutions
            self.elapsed = round(self._elapsed, 3)
            self.pages = self.pages + 1
            self.status = status
            self.page = page

    def __repr__(self) -> str:
        """A short description (a notebook shows the widget itself)."""
        return (
            f"TreeWidget(status={self.status!r}, nodes={self.stats.get('nodes', 0)}, "
            f"solutions={self.solutions}, pages={self.pages})"
        )
