"""Building a 10,000-variable model from Python (target: under a second; printed, not asserted)."""

import time

import cspkit


def test_ten_thousand_variable_model_builds_and_solves():
    started = time.perf_counter()
    m = cspkit.Model()
    xs = m.int_vars(10_000, 0, 9, "x")
    for a, b in zip(xs, xs[1:]):
        m += a + 1 >= b
    m += sum(xs[:100]) == 100
    m += cspkit.sum(xs) <= 90_000
    built = time.perf_counter() - started
    print(f"\n10,000 variables and 10,000 constraints built in {built:.3f} s")
    assert len(m.variables()) == 10_000
    assert m.num_constraints >= 10_000
    solution = m.solve()
    assert sum(solution[x] for x in xs[:100]) == 100
    assert sum(solution[x] for x in xs) <= 90_000
