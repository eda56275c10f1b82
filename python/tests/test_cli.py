"""The package's answers against the native command line's (read, not copied)."""

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
