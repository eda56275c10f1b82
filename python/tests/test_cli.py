"""The package's answers against the native command line's (read, not copied)."""

import subprocess
import time

import pytest

import cspkit

from conftest import run_cli


@pytest.mark.parametrize("n", [4, 6, 8, 9])
def test_queens_count_equals_the_cli_count(cli, n):
    native = int(run_cli(cli, "queens", str(n), "--count").split()[0])
    assert cspkit.queens(n).count() == native


def test_queens_first_solution_equals_the_cli_board_rows(cli):
    # The CLI's first solution under its default strategy, compared by the queens' columns.
    for n in [5, 8]:
        model = cspkit.queens(n)
        ours = model.solve().board.splitlines()
        text = run_cli(cli, "queens", str(n))
        lines = [line for line in text.splitlines() if line.strip()]
        rows = [line.replace(" ", "") for line in lines if set(line.replace(" ", "")) <= set("Q.")]
        assert [r.index("Q") for r in rows[-n:]] == [r.index("Q") for r in ours], text


def test_queens_12_count_time_is_printed_against_the_cli(cli):
    started = time.perf_counter()
    native = int(run_cli(cli, "queens", "12", "--count").split()[0])
    native_time = time.perf_counter() - started
    started = time.perf_counter()
    ours = cspkit.queens(12).count()
    our_time = time.perf_counter() - started
    print(f"\nqueens 12 --count: native {native_time:.3f} s, Python {our_time:.3f} s")
    assert ours == native


def test_backjump_counts_the_same_solutions_and_the_jumps_the_cli_counts(cli):
    plain = cspkit.queens(8)
    assert plain.count(propagation="fc") == 92
    assert plain.last_stats["backjumps"] == plain.last_stats["levels_skipped"] == 0
    jumping = cspkit.queens(8)
    assert jumping.count(propagation="fc", backjump=True) == 92
    stats = jumping.last_stats
    assert stats["backjumps"] > 0
    assert stats["levels_skipped"] >= stats["backjumps"]
    # Jumping over decisions that had nothing to do with a failure saves their other branches.
    assert stats["decisions"] < plain.last_stats["decisions"]
    # The same search as the command line's, counted the same.
    native = subprocess.run(
        [cli, "queens", "8", "--count", "--propagation", "fc", "--backjump", "--stats"],
        check=True, capture_output=True, text=True, timeout=120,
    ).stderr
    line = next(l for l in native.splitlines() if l.startswith("decisions "))
    counts = dict(part.rsplit(" ", 1) for part in line.split(", ") if not part.startswith("time"))
    assert int(counts["backjumps"]) == stats["backjumps"]
    assert int(counts["levels skipped"]) == stats["levels_skipped"]
    assert int(counts["decisions"]) == stats["decisions"]


def test_backjump_is_refused_with_ac3_and_checked():
    with pytest.raises(cspkit.CspkitError, match="ac3"):
        cspkit.queens(6).count(propagation="ac3", backjump=True)
    with pytest.raises(cspkit.CspkitError, match="backjump: expected True or False"):
        cspkit.queens(6).count(backjump="yes")
