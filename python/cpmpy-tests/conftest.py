"""pytest plug-in that runs CPMpy's own test suite (from its sdist) against one solver.

CPMpy's sdist ships its tests without the ``conftest.py`` and ``utils.py`` of its
repository; this file and ``utils.py`` here play their part, written for this runner:

- ``--solver NAME`` (default ``cspkit``): the value of the ``solver`` fixture;
- only the tests that use the ``solver`` fixture are collected (the others exercise
  CPMpy itself, or the default solver OR-Tools, not the back-end);
- ``@pytest.mark.generate_constraints.with_args(gen)`` parametrises ``constraint`` with
  ``gen(solver)``; ``requires_solver(*names)`` skips unless the solver is named,
  ``requires_dependency(*modules)`` skips unless they import.
"""

import importlib.util

import pytest

import cspkit  # noqa: F401  (registers the "cspkit" solver with CPMpy)


def pytest_addoption(parser):
    """The ``--solver`` option."""
    parser.addoption("--solver", action="store", default="cspkit",
                     help="the CPMpy solver the tests run against (default cspkit)")
    parser.addoption("--as-default", action="store_true",
                     help="make the solver CPMpy's default (first in SolverLookup) and run "
                          "instead the tests that do NOT use the `solver` fixture")


def pytest_configure(config):
    """Declares the markers CPMpy's tests use; with --as-default, reorders SolverLookup."""
    if config.getoption("--as-default"):
        from cpmpy.solvers.utils import SolverLookup

        name = config.getoption("--solver")
        solvers = SolverLookup.base_solvers.__func__

        def solver_first(cls):
            """The solver under test first: the one `model.solve()` uses."""
            listed = solvers(cls)
            return [s for s in listed if s[0] == name] + [s for s in listed if s[0] != name]

        SolverLookup.base_solvers = classmethod(solver_first)
    for marker in ("generate_constraints(generator): parametrise `constraint`",
                   "requires_solver(*names): only for these solvers",
                   "requires_dependency(*modules): only when these modules import",
                   "depends_on_solver: uses the solver indirectly",
                   "flaky(reruns): (not rerun here)", "timeout(seconds): (not enforced here)"):
        config.addinivalue_line("markers", marker)


@pytest.fixture
def solver(request):
    """The solver under test (also set as ``self.solver`` on test classes)."""
    name = request.config.getoption("--solver")
    if request.cls is not None:
        request.cls.solver = name
    return name


def pytest_generate_tests(metafunc):
    """Parametrises ``constraint`` from a ``generate_constraints`` marker."""
    marker = metafunc.definition.get_closest_marker("generate_constraints")
    if marker is None or "constraint" not in metafunc.fixturenames:
        return
    name = metafunc.config.getoption("--solver")
    constraints = list(marker.args[0](name))
    metafunc.parametrize("constraint", constraints, ids=[str(c) for c in constraints])


def pytest_collection_modifyitems(config, items):
    """Keeps the tests of the solver; skips those for other solvers or missing modules."""
    name = config.getoption("--solver")
    as_default = config.getoption("--as-default")
    kept, deselected = [], []
    for item in items:
        if ("solver" in item.fixturenames) == as_default:
            deselected.append(item)
            continue
        kept.append(item)
        required = item.get_closest_marker("requires_solver")
        if required is not None and name not in required.args:
            item.add_marker(pytest.mark.skip(reason=f"only for {', '.join(required.args)}"))
        dependency = item.get_closest_marker("requires_dependency")
        if dependency is not None and not all(
            importlib.util.find_spec(module) for module in dependency.args
        ):
            item.add_marker(pytest.mark.skip(reason=f"needs {', '.join(dependency.args)}"))
    if deselected:
        config.hook.pytest_deselected(items=deselected)
    items[:] = kept
