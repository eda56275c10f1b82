"""The CPMpy back-end: CPMpy models solved by cspkit (SolverLookup name "cspkit").

Every solution is checked by CPMpy itself (the `.value()` of each constraint), solution
counts and optima against CPMpy's default solver OR-Tools (installed with cpmpy) and, for
the small models, against brute force over the variables' domains.
"""

import itertools

import pytest

cp = pytest.importorskip("cpmpy", reason="CPMpy is not installed (pip install cpmpy)")

import cspkit  # noqa: E402  (registers the back-end)
from cpmpy.exceptions import NotSupportedError  # noqa: E402
from cpmpy.expressions.utils import argval  # noqa: E402
from cpmpy.solvers.solver_interface import ExitStatus  # noqa: E402
from cspkit.cpmpy_backend import CPM_cspkit  # noqa: E402


def brute_force_count(variables, constraints):
    """The number of assignments of `variables` satisfying all `constraints`, by CPMpy's
    own evaluation of each constraint (relational semantics: `x[i]` with `i` out of range
    is false, not an error)."""
    count = 0
    domains = [range(int(v.lb), int(v.ub) + 1) for v in variables]
    for values in itertools.product(*domains):
        for var, value in zip(variables, values):
            var._value = bool(value) if var.is_bool() else value
        if all(argval(c) for c in constraints):
            count += 1
    return count


def small_models():
    """(name, variables, constraints): models small enough for brute force."""
    x = cp.intvar(-3, 4, shape=3, name="x")
    b = cp.boolvar(shape=3, name="b")
    i = cp.intvar(0, 3, name="i")
    yield "linear", list(x), [cp.sum(x) == 2, 2 * x[0] - x[1] <= 1, x[2] != 0]
    yield "alldifferent", list(x), [cp.AllDifferent(x), x[0] < x[1]]
    yield "reified", [*x, *b], [
        b[0] == (x[0] > x[1]),
        b[1].implies(x[2] != 2),
        (~b[2]) | (x[0] + x[2] >= 3),
        cp.sum(b) >= 2,
    ]
    yield "nonlinear", list(x), [x[0] * x[1] == x[2], x[0] // 2 == x[1] % 3]
    yield "min-max-abs", list(x), [cp.max(x) - cp.min(x) == 3, cp.abs(x[0]) >= 2]
    yield "element", [*x, i], [cp.Element([3, 1, 4, 1], i) == x[0], x[i] == x[1] + 1]
    yield "table", list(x), [cp.Table(x, [[0, 1, 2], [1, 1, 1], [-3, 4, 0], [2, 2, 2]]),
                             x[0] <= 1]
    yield "xor", [*b, *x[:1]], [cp.Xor(b), b[0].implies(x[0] >= 2)]


@pytest.mark.parametrize("name, variables, constraints", list(small_models()))
def test_counts_against_brute_force_and_ortools(name, variables, constraints):
    """solveAll counts each solution of the user's variables once, as brute force and
    OR-Tools do, and every solution satisfies every constraint by CPMpy's evaluation."""
    checked = []

    def check():
        assert all(argval(c) for c in constraints), name
        checked.append(tuple(v.value() for v in variables))

    model = cp.Model(constraints)
    count = model.solveAll(solver="cspkit", display=check)
    assert count == len(set(checked)) == len(checked)
    assert count == model.solveAll(solver="ortools")
    assert count == brute_force_count(variables, constraints)
    assert count > 0


@pytest.mark.parametrize("options", [{}, {"propagation": "forward", "var_order": "mrv"},
                                     {"propagation": "forward", "value_order": "desc", "branching": "split"}])
def test_send_more_money(options):
    """SEND+MORE=MONEY: the one solution, found under several search options."""
    s, e, n, d, m, o, r, y = letters = cp.intvar(0, 9, shape=8, name="l")
    constraints = [
        cp.AllDifferent(letters),
        s > 0, m > 0,
        1000 * s + 100 * e + 10 * n + d + 1000 * m + 100 * o + 10 * r + e
        == 10000 * m + 1000 * o + 100 * n + 10 * e + y,
    ]
    model = cp.Model(constraints)
    assert model.solve(solver="cspkit", **options)
    assert all(c.value() for c in constraints)
    assert [int(v) for v in letters.value()] == [9, 5, 6, 7, 1, 0, 8, 2]
    assert model.solveAll(solver="cspkit", **options) == 1


def test_queens_count_matches_ortools():
    """8 queens with CPMpy's usual model: 92 solutions, as OR-Tools counts."""
    q = cp.intvar(0, 7, shape=8, name="q")
    model = cp.Model(cp.AllDifferent(q), cp.AllDifferent(q + range(8)),
                     cp.AllDifferent(q - range(8)))
    assert model.solveAll(solver="cspkit") == 92 == model.solveAll(solver="ortools")


def test_globals_solutions_checked_by_cpmpy():
    """Circuit, Inverse, GlobalCardinalityCount and Cumulative (decomposed) solutions
    satisfy CPMpy's own evaluation; counts agree with OR-Tools."""
    succ = cp.intvar(0, 4, shape=5, name="succ")
    f, g = cp.intvar(0, 3, shape=4, name="f"), cp.intvar(0, 3, shape=4, name="g")
    v, occ = cp.intvar(0, 2, shape=4, name="v"), cp.intvar(0, 4, shape=2, name="occ")
    start = cp.intvar(0, 4, shape=3, name="start")
    cases = [
        [cp.Circuit(succ)],
        [cp.Inverse(f, g), f[0] != 0],
        [cp.GlobalCardinalityCount(v, [0, 2], occ), occ[0] == 1],
        [cp.GlobalCardinalityCount(v, [0, 2], occ, closed=True)],
        [cp.Cumulative(start, [2, 1, 2], None, [1, 1, 1], 2)],
    ]
    for constraints in cases:
        model = cp.Model(constraints)
        count = model.solveAll(
            solver="cspkit", display=lambda: all(c.value() for c in constraints) or pytest.fail(
                f"not a solution of {constraints}"))
        assert count == model.solveAll(solver="ortools") > 0, constraints


@pytest.mark.parametrize("sense", ["minimize", "maximize"])
def test_optimum_matches_ortools(sense):
    """A small knapsack: the same optimum as OR-Tools, status OPTIMAL, a feasible solution."""
    take = cp.boolvar(shape=6, name="take")
    weights, values = [3, 4, 5, 2, 6, 1], [4, 5, 7, 2, 8, 1]
    constraints = [cp.sum(take * weights) <= 11, take[0].implies(~take[1])]
    objective = cp.sum(take * values) - 2 * take[5]
    optima = []
    for solver in ("cspkit", "ortools"):
        model = cp.Model(constraints)
        getattr(model, sense)(objective)
        assert model.solve(solver=solver)
        assert all(c.value() for c in constraints)
        assert model.status().exitstatus == ExitStatus.OPTIMAL
        assert model.objective_value() == objective.value()
        optima.append(model.objective_value())
    assert optima[0] == optima[1]


def test_nonlinear_objective():
    """An objective that is not linear (a product) gets an auxiliary variable."""
    x, y = cp.intvar(1, 6, name="x"), cp.intvar(1, 6, name="y")
    model = cp.Model(x + y == 7)
    model.maximize(x * y)
    assert model.solve(solver="cspkit")
    assert model.objective_value() == 12 == x.value() * y.value()


def test_unsatisfiable_and_status():
    """An infeasible model: solve is False, status UNSATISFIABLE, values cleared."""
    x = cp.intvar(0, 3, shape=3, name="x")
    model = cp.Model(cp.AllDifferent(x), cp.sum(x) <= 2)
    assert not model.solve(solver="cspkit")
    assert model.status().exitstatus == ExitStatus.UNSATISFIABLE
    assert x[0].value() is None
    assert model.solveAll(solver="cspkit") == 0


def test_time_limit_stops_a_hard_search():
    """A pigeonhole problem too hard for plain backtracking: the time limit stops it."""
    x = cp.intvar(0, 10, shape=12, name="x")
    model = cp.Model([a != b for a, b in itertools.combinations(x, 2)])
    solver = cp.SolverLookup.get("cspkit", model)
    assert not solver.solve(time_limit=0.3, propagation="none", var_order="input")
    assert solver.status().exitstatus == ExitStatus.UNKNOWN
    assert solver.status().runtime < 5


def test_solution_limit_and_lookup():
    """The name is registered; solveAll stops at solution_limit with status FEASIBLE."""
    assert "cspkit" in cp.SolverLookup.supported()
    assert cp.SolverLookup.lookup("cspkit") is CPM_cspkit
    x = cp.intvar(0, 5, shape=3, name="x")
    solver = cp.SolverLookup.get("cspkit", cp.Model(cp.AllDifferent(x)))
    assert solver.solveAll(solution_limit=7) == 7
    assert solver.status().exitstatus == ExitStatus.FEASIBLE
    assert isinstance(solver.native_model, cspkit.Model)


def test_not_supported():
    """What cspkit cannot express raises CPMpy's NotSupportedError with a reason."""
    x, y, z = (cp.intvar(0, 10**6, name=n) for n in "xyz")
    with pytest.raises(NotSupportedError, match="table rows"):
        cp.SolverLookup.get("cspkit", cp.Model(x // y == z))
    b = cp.boolvar(name="b")
    solver = cp.SolverLookup.get("cspkit", cp.Model(b | (x > 3)))
    with pytest.raises(NotSupportedError, match="assumptions"):
        solver.solve(assumptions=[b])
    with pytest.raises(NotSupportedError, match="subsolver"):
        cp.SolverLookup.get("cspkit:other")


def test_product_over_large_domains_is_cspkit_product():
    """A product too large for a table is cspkit's own product constraint (bounds)."""
    x, y, z = (cp.intvar(0, 10**6, name=n) for n in "xyz")
    model = cp.Model(x * y == z, x == 1000, y >= 999, y <= 1001, z <= 999_500)
    solver = cp.SolverLookup.get("cspkit", model)
    assert solver.solve()
    assert (x.value(), y.value(), z.value()) == (1000, 999, 999_000)
    assert model.solve("ortools") and z.value() == 999_000
    factors = cp.intvar(1, 30, shape=5, name="f")
    model = cp.Model(cp.cpm_array(factors).prod() == 30**5 - 1)
    assert not cp.SolverLookup.get("cspkit", model).solve()
    assert not model.solve("ortools")
