"""aima-python's CSPs on cspkit: the same assignments, counted the same, as aima-python itself.

aima-python is the PyPI package ``aima3`` (its ``csp.py``); each case runs aima-python's own
``backtracking_search`` and cspkit's on fresh copies of the same CSP and compares AIMA's
count of assignments (``csp.nassigns``) and the answer. aima-python tries the values of a
domain in the order the domain lists them; cspkit in sorted order, so aima-python's side is
given a sorted ``order_domain_values``. cspkit runs AC-3 once before a search with MAC, as
the book does before MAC; aima-python's side is given the same first AC-3.
"""

import copy

import pytest

import cspkit
import cspkit.aima

aima = pytest.importorskip("aima3.csp", reason="aima-python (pip install --no-deps aima3)")


def sorted_domain_values(var, assignment, csp):
    """aima-python's default value order, with each domain sorted."""
    return sorted(csp.choices(var))


def consistent(csp, assignment):
    """Whether `assignment` gives every variable a value of its domain and satisfies every
    constraint between neighbours (read from the CSP itself, not from its search state)."""
    return set(assignment) == set(csp.variables) and all(
        assignment[var] in csp.domains[var]
        and all(
            other == var or csp.constraints(var, assignment[var], other, assignment[other])
            for other in csp.neighbors[var]
        )
        for var in csp.variables
    )


def australia():
    return aima.MapColoringCSP(list("RGB"), "SA: WA NT Q NSW V; NT: WA Q; NSW: Q V; T: ")


CASES = {
    "australia": australia,
    "usa": lambda: copy.deepcopy(aima.usa),
    "france": lambda: copy.deepcopy(aima.france),
    "queens8": lambda: aima.NQueensCSP(8),
    "queens12": lambda: aima.NQueensCSP(12),
    "zebra": aima.Zebra,
    "sudoku-easy": lambda: aima.Sudoku(aima.easy1),
    "sudoku-harder": lambda: aima.Sudoku(aima.harder1),
}

INFERENCES = ["no_inference", "forward_checking", "mac"]

#: Left out: aima-python takes minutes on these (cspkit does not; the counts are large).
SLOW = {("sudoku-easy", "no_inference"), ("sudoku-harder", "no_inference"),
        ("sudoku-harder", "forward_checking")}


def aima_search(make, inference, variable_order="first_unassigned_variable"):
    """aima-python's own search on a fresh CSP: (answer, nassigns)."""
    csp = make()
    if inference == "mac":
        assert aima.AC3(csp), "AC-3 alone found the CSP inconsistent"
    answer = aima.backtracking_search(
        csp,
        select_unassigned_variable=getattr(aima, variable_order),
        order_domain_values=sorted_domain_values,
        inference=getattr(aima, inference),
    )
    return answer, csp.nassigns


@pytest.mark.parametrize(
    ("name", "inference"),
    [(name, inference) for name in sorted(CASES) for inference in INFERENCES
     if (name, inference) not in SLOW],
)
def test_nassigns_equal_aima_python(name, inference):
    expected_answer, expected_nassigns = aima_search(CASES[name], inference)
    csp = CASES[name]()
    answer = cspkit.aima.backtracking_search(csp, inference=getattr(aima, inference))
    assert csp.nassigns == expected_nassigns, (name, inference)
    assert answer == expected_answer
    if answer is not None:
        assert consistent(csp, answer)


def test_functions_by_name_and_mrv_runs():
    csp = australia()
    answer = cspkit.aima.backtracking_search(
        csp, "mrv", "unordered_domain_values", "forward_checking"
    )
    assert answer is not None and consistent(csp, answer)
    assert csp.cspkit_stats["nassigns"] == csp.nassigns >= len(csp.variables)


def test_unsatisfiable_csp_answers_none():
    # Australia with two colours: SA, WA and NT form a triangle.
    csp = aima.MapColoringCSP(list("RG"), "SA: WA NT Q NSW V; NT: WA Q; NSW: Q V; T: ")
    expected, expected_nassigns = aima_search(
        lambda: aima.MapColoringCSP(list("RG"), "SA: WA NT Q NSW V; NT: WA Q; NSW: Q V; T: "),
        "forward_checking",
    )
    assert expected is None
    assert cspkit.aima.backtracking_search(csp, inference="forward_checking") is None
    assert csp.nassigns == expected_nassigns


def test_converted_model_counts_and_maps_back():
    converted = cspkit.aima.from_csp(aima.NQueensCSP(6))
    assert converted.model.count() == 4  # 6-Queens has 4 solutions
    for solution in converted.model.solutions():
        assignment = converted.assignment(solution)
        assert consistent(aima.NQueensCSP(6), assignment)
    # Values of any kind map to their sorted positions.
    csp = australia()
    converted = cspkit.aima.from_csp(csp)
    assert converted.values["SA"] == ["B", "G", "R"]
    assert converted.var("SA").name == "SA"
    # Integer values stand for themselves (the trace shows the CSP's values).
    zebra = cspkit.aima.from_csp(aima.Zebra())
    assert zebra.var("Norwegian").bounds == (1, 1) and zebra.var("Red").bounds == (1, 5)
    with pytest.raises(cspkit.CspkitError, match="not a variable"):
        converted.var("Tasmania")


def test_bad_csps_and_functions_are_clear_errors():
    with pytest.raises(cspkit.CspkitError, match="no 'variables'"):
        cspkit.aima.from_csp(object())
    csp = australia()
    csp.neighbors["SA"] = list(csp.neighbors["SA"]) + ["Atlantis"]
    with pytest.raises(cspkit.CspkitError, match="'Atlantis' of 'SA' is not a variable"):
        cspkit.aima.from_csp(csp)

    def my_inference(csp, var, value, assignment, removals):
        return True

    with pytest.raises(cspkit.CspkitError, match="my_inference"):
        cspkit.aima.backtracking_search(australia(), inference=my_inference)
    with pytest.raises(cspkit.CspkitError, match="has an empty domain"):
        cspkit.aima.from_csp(aima.CSP(["X"], {"X": []}, {"X": []}, lambda *args: True))


def test_limit_is_not_no_solution():
    csp = aima.NQueensCSP(12)
    with pytest.raises(cspkit.CspkitError, match="limit"):
        cspkit.aima.backtracking_search(csp, node_limit=5)
