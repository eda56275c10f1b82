"""The teaching views from Python against the native command line: the trace, the events,
the tree page and picture, the live session, compare."""

import json
import os
import subprocess
import sys

import pytest

import cspkit
from conftest import REPO, run_cli

SUDOKU_2239 = (REPO / "samples" / "sudoku" / "2239.txt").read_text()

#: Run the scripts away from the source tree, so they import the installed package.
HERE = os.path.dirname(os.path.abspath(__file__))


# --- The trace ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, options",
    [
        ([], {}),
        (["--propagation", "none"], {"propagation": "none"}),
        (["--var-order", "mrv", "--value-order", "desc"], {"var_order": "mrv", "value_order": "desc"}),
        (["--propagation", "ac3"], {"propagation": "ac3"}),
        (["--branching", "split"], {"branching": "split"}),
        (["--count-as", "aima", "--propagation", "fc", "--branching", "dway"],
         {"counting": "aima", "propagation": "fc", "branching": "dway"}),
    ],
)
def test_the_trace_of_a_count_is_the_command_lines(cli, args, options):
    native = run_cli(
        cli, "queens", "6", "--count", "--trace", "--trace-limit", "100000", *args
    ).splitlines()
    lines = cspkit.queens(6).trace(100_000, solutions=0, **options)
    # The command line prints the trace, then the count: 6-Queens has 4 solutions (A000170).
    assert native[-1] == "4"
    assert lines == native[:-1]


def test_the_trace_of_a_first_solution_is_the_command_lines(cli):
    native = run_cli(cli, "sudoku", str(REPO / "samples" / "sudoku" / "2239.txt"), "--trace")
    lines = cspkit.sudoku(SUDOKU_2239).trace()
    assert lines, "a trace with no line"
    # The trace, then the solved grid.
    assert native.splitlines()[: len(lines)] == lines
    assert lines[-1].strip() == "✓ solution"


def test_the_trace_of_a_first_solution_with_restarts_is_the_command_lines(cli):
    native = run_cli(cli, "queens", "10", "--trace", "--trace-limit", "100000", "--restarts",
                     "luby", "--restart-base", "2", "--var-order", "mrv-random", "--seed", "3")
    lines = cspkit.queens(10).trace(
        100_000, restarts="luby", restart_base=2, var_order="mrv-random", seed=3
    )
    # The trace, then the board (10 lines) and the columns (1 line).
    assert native.splitlines() == lines + native.splitlines()[len(lines):]
    assert len(native.splitlines()) == len(lines) + 11


def test_a_cut_trace_ends_with_the_command_lines_note_and_the_domains_option_agrees(cli):
    native = run_cli(
        cli, "queens", "8", "--count", "--trace", "--trace-limit", "25", "--trace-domains"
    ).splitlines()
    lines = cspkit.queens(8).trace(25, solutions=0, domains=True)
    # The command line prints the count before the trace's last line, when the trace ends.
    assert native[-2] == "92"  # 8-Queens has 92 solutions (A000170): the count ran on
    assert lines == native[:-2] + native[-1:]
    assert len(lines) == 26
    assert lines[-1].startswith("… trace cut after 25 lines")
    assert "92 solutions" in lines[-1]


def test_a_trace_of_a_model_built_in_python_names_its_variables():
    m = cspkit.Model()
    x, y = m.int_var(1, 2, "x"), m.int_var(1, 2, "y")
    m += x != y
    lines = m.trace(solutions=0)
    assert lines[0] == "x = 1"
    assert any(line.strip().startswith("y = 2") for line in lines)
    assert sum("✓ solution" in line for line in lines) == 2


# --- The events --------------------------------------------------------------------------


def test_the_events_count_what_the_statistics_count():
    m = cspkit.queens(6)
    events = m.trace_events(solutions=0, propagation="none")
    stats = m.count(propagation="none").stats
    kinds = [e["kind"] for e in events]
    assert kinds.count("solution") == 4
    assert kinds.count("failure") == stats["failures"]
    decisions = [e for e in events if e["kind"] == "node" and e["branch"] == "="]
    assert len(decisions) == stats["decisions"]
    nodes = [e for e in events if e["kind"] == "node"]
    # Node ids in search order, each under an earlier node, one deeper than... its depth.
    assert [e["node"] for e in nodes] == list(range(1, len(nodes) + 1))
    assert all(e["parent"] < e["node"] for e in nodes)
    assert {e["var"] for e in nodes} <= {f"row {i}" for i in range(1, 7)}
    # Each backtrack undoes a decision of the same variable and value.
    for event in events:
        if event["kind"] == "backtrack":
            assert event["var"] == f"row {event['var_index'] + 1}"


def test_the_events_stop_at_the_limit_and_carry_domains_only_when_asked():
    m = cspkit.queens(8)
    assert len(m.trace_events(10, solutions=0)) == 10
    plain = {e["kind"] for e in m.trace_events(solutions=1)}
    assert not plain & {"pruned", "propagated"}
    rich = m.trace_events(solutions=1, domains=True)
    propagated = [e for e in rich if e["kind"] == "propagated"]
    assert propagated, "no propagated event with domains=True"
    # Every variable's domain, within the board's columns.
    assert all(len(e["domains"]) == 8 for e in propagated)
    assert all(set(d) <= set(range(1, 9)) for e in propagated for d in e["domains"])
    pruned = [e for e in rich if e["kind"] == "pruned"]
    assert pruned and all(set(e["after"]) < set(e["before"]) for e in pruned)


# --- The tree ----------------------------------------------------------------------------


def test_the_tree_page_is_the_one_the_command_line_writes(cli, tmp_path):
    page = tmp_path / "tree.html"
    run_cli(cli, "queens", "6", "--tree", str(page))
    assert cspkit.queens(6).tree_html() == page.read_text()
    sudoku = tmp_path / "sudoku.html"
    run_cli(cli, "sudoku", str(REPO / "samples" / "sudoku" / "2239.txt"),
            "--propagation", "forward", "--tree", str(sudoku))
    assert cspkit.sudoku(SUDOKU_2239).tree_html(propagation="forward") == sudoku.read_text()


def test_the_tree_picture_is_the_one_the_command_line_draws(cli, tmp_path):
    picture = tmp_path / "tree.svg"
    subprocess.run([cli, "queens", "6", "--count", "--tree", str(picture), "--tree-limit", "30",
                    "--tree-size", "800x600"], check=True, capture_output=True)
    svg = cspkit.queens(6).tree_svg(solutions=0, tree_limit=30, width=800, height=600)
    assert svg == picture.read_text()
    assert svg.startswith("<svg")


# --- The live session --------------------------------------------------------------------


def test_a_session_advanced_in_slices_ends_where_a_count_does():
    m = cspkit.queens(6)
    session = m.tree_session(solutions=0)
    assert (session.status, session.done, session.solutions) == ("running", False, 0)
    slices = 0
    while not session.advance(5):
        slices += 1
        assert session.status == "running"
    count = m.count()
    assert slices > 3, "the slices were not slices"
    assert (session.status, session.solutions) == ("complete", 4)
    assert session.stats["nodes"] == count.stats["nodes"]
    assert session.stats["failures"] == count.stats["failures"]
    # Once ended, the page is the whole tree page of the same search.
    assert session.page(5000) == m.tree_html(solutions=0)
    assert session.advance(10) is True


def test_a_session_page_mid_search_draws_the_tree_so_far():
    session = cspkit.queens(10).tree_session(solutions=0, propagation="none")
    session.advance(40)
    page = session.page(max_nodes=20)
    assert page.startswith("<!DOCTYPE html>")
    assert "the first 20 of " in page
    assert not session.done


@pytest.mark.parametrize(
    "model, options, status, solutions",
    [
        (lambda: cspkit.queens(6), {}, "solved", 1),
        (lambda: cspkit.queens(6), {"solutions": 3}, "solved", 3),
        (lambda: cspkit.queens(6), {"solutions": 10}, "complete", 4),
        (lambda: cspkit.queens(3), {}, "infeasible", 0),
        (lambda: cspkit.queens(12), {"node_limit": 30, "solutions": 0,
                                     "propagation": "none"}, "limit", 0),
    ],
)
def test_a_session_ends_with_the_status_of_its_search(model, options, status, solutions):
    session = model().tree_session(**options).run()
    assert session.done
    assert (session.status, session.solutions) == (status, solutions)
    if status == "limit":
        assert "stopped_by" in session.stats


def test_sigint_during_advance_stops_the_slice_and_leaves_the_session_resumable():
    script = """
import cspkit, os, signal, threading
session = cspkit.queens(40).tree_session(solutions=0, propagation="none", tree_limit=1000)
threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
try:
    session.advance(10**12)
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted", session.status, flush=True)
before = session.stats["nodes"]
session.advance(10)
print(session.stats["nodes"] > before, flush=True)
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=30, cwd=HERE
    )
    assert done.stdout.split() == ["interrupted", "running", "True"], done.stderr


def test_sigint_during_a_view_raises_keyboard_interrupt_and_the_next_search_works():
    script = """
import cspkit, os, signal, threading, time
m = cspkit.queens(40)
views = [
    lambda: m.tree_html(solutions=0, propagation="none"),
    lambda: m.trace(solutions=0, propagation="none"),
    lambda: m.trace_events(10**9, solutions=0, propagation="none"),
    lambda: cspkit.compare(m, {"propagation": "none"}, solutions=0),
]
for view in views:
    threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    start = time.monotonic()
    try:
        view()
        print("finished", flush=True)
    except KeyboardInterrupt:
        print("interrupted", time.monotonic() - start < 1.5, flush=True)
print(len(cspkit.queens(6).trace(solutions=0)) > 0, flush=True)
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, cwd=HERE
    )
    assert done.stdout.split() == ["interrupted", "True"] * 4 + ["True"], done.stderr


# --- Compare -----------------------------------------------------------------------------


def test_compare_rows_are_the_command_lines_table(cli, tmp_path):
    page = tmp_path / "compare.html"
    native = json.loads(run_cli(
        cli, "compare", "queens", "6", "--count", "--var-order", "input,mrv",
        "--value-order", "asc", "--propagation", "forward", "--format", "json",
        "--tree", str(page),
    ))
    m = cspkit.queens(6)
    a, b = {"var_order": "input"}, {"var_order": "mrv"}
    rows = cspkit.compare(m, a, b, solutions=0)
    def timeless(rows):
        return [{k: v for k, v in row.items() if k != "time"} for row in rows]

    assert timeless(m.compare(a, b, solutions=0)) == timeless(rows)
    assert len(rows) == len(native) == 2
    for row, expected in zip(rows, native):
        for key, value in expected.items():
            if key != "time_ms":
                assert row[key] == value, key
        assert row["nodes"] == row["tree_nodes"]
        assert row["time"] >= 0
        assert row["strategy"] == f"{row['var_order']}, asc, forward, assign"
    # Rows a pandas.DataFrame takes: the same keys, plain values.
    assert len({tuple(r) for r in rows}) == 1
    assert all(isinstance(v, (int, float, str)) for r in rows for v in r.values())
    html = cspkit.compare_html(m, a, b, solutions=0, title="cspkit compare queens 6")
    assert html == page.read_text()


def test_compare_refuses_what_it_cannot_do():
    m = cspkit.queens(5)
    with pytest.raises(cspkit.CspkitError, match="at least one strategy"):
        cspkit.compare(m)
    with pytest.raises(cspkit.CspkitError, match="strategy 2 must be a dict"):
        cspkit.compare(m, {}, "mrv")
    with pytest.raises(cspkit.CspkitError, match="strategy 1: .*unknown order"):
        cspkit.compare(m, {"var_order": "smallest"})
    with pytest.raises(cspkit.CspkitError, match="1 to 4 strategies"):
        cspkit.compare_html(m, *[{}] * 5)


# --- Errors ------------------------------------------------------------------------------


def test_bad_arguments_raise_cspkit_errors_naming_them():
    m = cspkit.queens(4)
    with pytest.raises(cspkit.CspkitError, match="max_lines"):
        m.trace(-1)
    with pytest.raises(cspkit.CspkitError, match="solutions"):
        m.trace_events(solutions=-2)
    with pytest.raises(cspkit.CspkitError, match="unknown search option"):
        m.tree_html(colour="red")
    with pytest.raises(cspkit.CspkitError, match="tree_limit"):
        m.tree_session(tree_limit="many")
    with pytest.raises(cspkit.CspkitError):
        m.tree_svg(width=1, height=1)
    with pytest.raises(cspkit.CspkitError, match="nodes"):
        m.tree_session().advance(-5)
    for view in (m.trace, m.trace_events, m.tree_html, m.tree_svg, m.tree_session):
        with pytest.raises(cspkit.CspkitError, match="lns=True needs an objective"):
            view(lns=True)


def test_ac3_on_a_constraint_it_cannot_read_is_the_librarys_error_not_a_panic():
    m = cspkit.Model()
    xs = m.int_vars(3, 0, 2, "x")
    m += cspkit.sum(xs) == 3
    for view in (m.trace, m.trace_events, m.tree_html, m.tree_svg, m.tree_session):
        with pytest.raises(cspkit.CspkitError, match="AC-3 cannot take constraint"):
            view(propagation="ac3")
    with pytest.raises(cspkit.CspkitError, match="AC-3 cannot take constraint"):
        cspkit.compare(m, {}, {"propagation": "ac3"})
