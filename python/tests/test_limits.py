"""Limits: a limited search says "limit", never "no solution"."""

import cspkit


def test_node_limit_is_a_limit_not_no_solution():
    result = cspkit.queens(30).search(node_limit=3, propagation="none")
    assert result.status == "limit"
    assert result.solution is None
    assert "decision" in result.stats["stopped_by"]


def test_limited_count_is_not_exact():
    count = cspkit.queens(10).count(node_limit=50)
    assert count.status == "limit" and not count.exact
    assert count < 724  # 10-queens has 724 solutions (OEIS A000170)
    full = cspkit.queens(10).count()
    assert full == 724 and full.exact


def test_time_limit_stops_a_long_count():
    count = cspkit.queens(28).count(time_limit=0.2)
    assert count.status == "limit"
    assert "time" in count.stats["stopped_by"]


def test_a_limited_solution_iterator_ends_with_the_limit():
    solutions = cspkit.queens(8).solutions(node_limit=20)
    found = list(solutions)
    assert len(found) < 92
    assert solutions.status.startswith("limit")


def test_optimisation_under_a_limit_is_not_called_optimal():
    m = cspkit.Model()
    xs = m.int_vars(12, 0, 11, "x")
    m += cspkit.all_different(xs)
    result = m.maximize(sum(i * x for i, x in enumerate(xs)), node_limit=5)
    assert result.status == "limit"
