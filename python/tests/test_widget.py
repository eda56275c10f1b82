"""The notebook widget's Python side (cspkit.widget.TreeWidget): its state after a search
against the native command line's statistics, the live pages of a search in slices, Stop,
and clear errors. Its front end is checked in headless Chromium by widget-check/run.sh.
"""

import re
import subprocess
import sys

import pytest

import cspkit

widget = pytest.importorskip(
    "cspkit.widget", reason='the notebook widget needs anywidget: pip install "cspkit[notebook]"'
)
TreeWidget = widget.TreeWidget


def cli_stats(cli: str, *args: str) -> dict:
    """The `--stats` line of the native command, as {name: int} (`tree nodes` -> nodes)."""
    done = subprocess.run(
        [cli, *args, "--stats"], check=True, capture_output=True, text=True, timeout=120
    )
    lines = (done.stdout + done.stderr).splitlines()
    line = next(l for l in lines if l.startswith("decisions "))
    stats = {}
    for item in line.split(", "):
        if not item.startswith("time "):
            name, value = item.rsplit(" ", 1)
            stats[name.replace(" ", "_")] = int(value)
    stats["nodes"] = stats.pop("tree_nodes")
    return stats


def title(page: str) -> str:
    """The title of a tree page (its <h1>)."""
    return re.search(r"<h1>(.*?)</h1>", page).group(1)


def pages_of(w: TreeWidget) -> list:
    """A list that receives (live, nodes, solutions, status, title) at every page sent."""
    seen = []
    w.observe(
        lambda _c: seen.append(
            (w.live, w.stats.get("nodes"), w.solutions, w.status, title(w.page))
        ),
        "page",
    )
    return seen


def test_state_after_a_run_is_the_searchs(cli):
    w = cspkit.queens(8).tree(solutions=0)
    assert w.wait(60)
    native = cli_stats(cli, "queens", "8", "--count")
    assert w.status == "complete"
    assert w.solutions == 92 == native["solutions"]  # 8-Queens has 92 solutions
    for name, value in native.items():
        assert w.stats[name] == value, name
    assert not w.live
    # The complete tree: every tree node the search made is drawn.
    assert title(w.page) == f"cspkit: the search tree ({native['nodes']} tree nodes)"
    assert w.pages >= 1 and w.elapsed >= 0 and not w.running


def test_the_search_runs_in_live_slices():
    w = TreeWidget(
        cspkit.queens(8), solutions=0, slice_nodes=200, every=0, live_nodes=50, start=False
    )
    assert w.status == "idle" and w.page == ""
    seen = pages_of(w)
    w.start()
    assert w.wait(60)
    live = [p for p in seen if p[0]]
    total = w.stats["nodes"]
    # A slice of 200 tree nodes between pages: a page after each of them but the last.
    assert len(live) == -(-total // 200) - 1 >= 3
    nodes = [p[1] for p in live]
    assert nodes == sorted(nodes) and len(set(nodes)) == len(nodes)
    assert all(0 < b - a <= 200 + 8 for a, b in zip([0] + nodes, nodes))
    assert all(p[3] == "running" for p in live)
    # Live pages draw at most live_nodes nodes; the last page is the whole tree.
    assert all(p[4].startswith("cspkit: the search tree (the first 50 of ") for p in live)
    assert seen[-1] == (False, total, 92, "complete", f"cspkit: the search tree ({total} tree nodes)")
    assert w.pages == len(seen)


def test_pages_at_most_every_interval():
    # every=10 s: the search (well under 10 s) sends its first live page and then the end.
    w = TreeWidget(cspkit.queens(8), solutions=0, slice_nodes=50, every=10, start=False)
    seen = pages_of(w)
    w.start()
    assert w.wait(60)
    assert [p[0] for p in seen] == [True, False]


def test_stop_from_the_front_end_ends_the_search():
    # All the solutions of 13-Queens take far longer than this test waits.
    w = TreeWidget(cspkit.queens(13), solutions=0, slice_nodes=200, every=0)
    seen = pages_of(w)
    for _ in range(500):
        if len(seen) >= 2:
            break
        w.wait(0.01)
    assert w.running and w.status == "running"
    # What the Stop button sends (widget.js: model.send({type: "stop"})).
    w._handle_custom_msg({"type": "stop"}, [])
    assert w.wait(10), "Stop did not end the search"
    assert w.status == "stopped" and not w.live
    assert w.stats["nodes"] < 100_000
    assert title(w.page) == f"cspkit: the search tree ({w.stats['nodes']} tree nodes)"
    assert w.session.status == "running"  # the search itself could go on


def test_stop_from_python_and_other_messages():
    w = TreeWidget(cspkit.queens(13), solutions=0, slice_nodes=200)
    w._handle_custom_msg({"type": "something else"}, [])
    w._handle_custom_msg("stop", [])
    assert w.running
    w.stop()
    assert w.wait(10) and w.status == "stopped"
    # Closing the widget (its views go) stops its search too.
    w = TreeWidget(cspkit.queens(13), solutions=0, slice_nodes=200)
    assert w.running
    w.close()
    assert w.wait(10) and not w.running


def test_limits_and_infeasible_models():
    w = cspkit.queens(8).tree(solutions=0, node_limit=50)
    assert w.wait(60)
    assert w.status == "limit" and w.stats["decisions"] == 50
    assert "stopped_by" in w.stats
    m = cspkit.Model()
    x, y = m.int_var(0, 1, "x"), m.int_var(0, 1, "y")
    m += x + y == 3
    w = m.tree()
    assert w.wait(60)
    assert w.status == "infeasible" and w.solutions == 0


def test_a_session_made_before():
    session = cspkit.queens(6).tree_session(solutions=0).run()
    w = TreeWidget(session)
    # An ended session is shown at once, no thread.
    assert not w.running and w.status == "complete" and w.solutions == 4
    assert w.page == session.page(100_000)
    fresh = cspkit.queens(6).tree_session(solutions=2)
    w = TreeWidget(fresh)
    assert w.wait(60) and w.status == "solved" and w.solutions == 2


def test_the_state_the_front_end_gets():
    w = cspkit.queens(5).tree(height=420)
    assert w.wait(60)
    state = w.get_state()
    for key in ("page", "live", "status", "stats", "solutions", "elapsed", "pages", "error", "height"):
        assert key in state, key
    assert state["height"] == 420 and state["status"] == "solved"
    assert "render" in w._esm and "model.send({ type: 'stop' })" in w._esm


def test_bad_options_raise_at_once():
    q = cspkit.queens(6)
    with pytest.raises(cspkit.CspkitError, match="var_order"):
        q.tree(var_order="sideways")
    with pytest.raises(cspkit.CspkitError, match="slice_nodes"):
        q.tree(slice_nodes=0)
    with pytest.raises(cspkit.CspkitError, match="every"):
        q.tree(every=-1)
    with pytest.raises(cspkit.CspkitError, match="solutions"):
        q.tree(solutions=-1)
    with pytest.raises(cspkit.CspkitError, match="expected a cspkit.Model or a cspkit.TreeSession, got str"):
        TreeWidget("queens 6")
    with pytest.raises(cspkit.CspkitError, match="not a TreeSession.*var_order"):
        TreeWidget(q.tree_session(), var_order="mrv")


def test_an_error_in_the_search_thread_is_shown():
    w = TreeWidget(cspkit.queens(6), start=False)

    def broken(nodes):
        raise RuntimeError("the engine broke")

    w.session.advance = broken
    w.start()
    assert w.wait(10)
    assert w.status == "error" and w.error == "RuntimeError: the engine broke"


def test_without_anywidget_the_error_names_the_extra():
    code = (
        "import sys; sys.modules['anywidget'] = None\n"
        "import cspkit\n"
        "try:\n"
        "    cspkit.queens(4).tree()\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    ).stdout
    assert 'pip install "cspkit[notebook]"' in out


def test_exit_while_searching_stops_the_search_cleanly():
    """A script that ends while a widget searches exits with 0 (its thread leaves Rust first)."""
    import subprocess
    import sys

    script = (
        "import time, cspkit\n"
        "from cspkit.widget import TreeWidget\n"
        "w = TreeWidget(cspkit.queens(30), solutions=0, propagation='none', slice_nodes=100000)\n"
        "time.sleep(0.5)\n"
        "assert w.running\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()


def test_fractional_and_infinite_slices_are_refused_or_rounded_up():
    with pytest.raises(cspkit.CspkitError, match="finite"):
        TreeWidget(cspkit.queens(4), start=False, slice_nodes=float("nan"))
    widget = TreeWidget(cspkit.queens(4), solutions=0, slice_nodes=0.5)
    assert widget.wait(30) and widget.status == "complete"
    with pytest.raises(cspkit.CspkitError, match="positive"):
        cspkit.queens(4).tree_session().run(0)
