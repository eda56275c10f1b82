"""aima-python's CSPs on cspkit: a ``CSP`` of aima-python's ``csp.py`` as a cspkit model.

aima-python (the code of Russell and Norvig's *Artificial Intelligence: A Modern Approach*)
describes a CSP by its ``variables``, its ``domains`` (a dict from variable to a list of
values), its ``neighbors`` (a dict from variable to the variables it shares a constraint
with) and one function ``constraints(A, a, B, b)``, true when ``A = a`` and ``B = b`` agree.
:func:`from_csp` turns such an object into a :class:`cspkit.Model`: one integer variable per
aima variable, in the order of ``csp.variables``, with the domain's values in sorted order
(integers as they are, other values as their positions ``0, 1, ...``), and one table constraint per pair of neighbours, holding the
pairs of values ``constraints`` accepts both ways round. cspkit then searches it, traces it
and draws its tree like any model.

:func:`backtracking_search` is aima-python's ``backtracking_search`` run by cspkit: same
arguments (aima-python's functions, or their names), same answer (an assignment dict, or
``None``), and ``csp.nassigns`` set to AIMA's count of assignments. cspkit tries the values
of a domain in sorted order; aima-python tries them in the order of its current domain
lists, which its ``restore`` changes as it backtracks (a pruned value goes back at the end).
Given a sorted ``order_domain_values`` (and, for MAC, ``AC3(csp)`` run once before the
search, as cspkit does), aima-python makes exactly the assignments cspkit makes, in
``csp.variables`` order, so the counts are equal; the test suite checks this against
aima-python itself for no inference, forward checking and MAC. With aima-python's own value
order the counts can differ (Zebra with forward checking: 4,211 here, 4,351 there)::

    from aima3.csp import australia_csp, forward_checking   # or aima-python's csp.py
    import cspkit.aima

    assignment = cspkit.aima.backtracking_search(australia_csp, inference=forward_checking)
    print(assignment, australia_csp.nassigns)

The conversion only reads the CSP; nothing of aima-python is imported.
"""

from __future__ import annotations

from typing import Any, Callable, Hashable, Optional, Union

from . import CspkitError, IntVar, Model, Solution, table

__all__ = ["AimaModel", "backtracking_search", "from_csp", "search_options"]

#: aima-python's inference functions and the cspkit propagation that makes the same
#: assignments: none (aima checks each value against the assigned neighbours first, as cspkit's
#: backtracking does), textbook forward checking, and AC-3 from the variable just assigned.
_INFERENCES = {"no_inference": "none", "forward_checking": "fc", "mac": "ac3"}
#: aima-python's variable orders and cspkit's nearest: only the first gives aima-python's
#: counts (aima-python's ``mrv`` breaks ties at random and counts the values consistent with
#: the assignment, where cspkit's reads the pruned domains).
_VARIABLE_ORDERS = {"first_unassigned_variable": "input", "mrv": "mrv"}
#: aima-python's value orders, and cspkit's names for them (domains are sorted here).
_VALUE_ORDERS = {"unordered_domain_values": "asc", "lcv": "lcv"}


def _name_of(choice: Union[str, Callable[..., Any], None], default: str) -> str:
    """The name of one of aima-python's functions, given as the function or its name."""
    if choice is None:
        return default
    if isinstance(choice, str):
        return choice
    return getattr(choice, "__name__", repr(choice))


def _sorted_values(values: Any, var: Hashable) -> list:
    """The distinct values of one domain in sorted order (by their text when they do not
    compare with each other)."""
    distinct = list(dict.fromkeys(values))
    try:
        return sorted(distinct)
    except TypeError:
        try:
            return sorted(distinct, key=repr)
        except TypeError as error:  # pragma: no cover - repr always gives text
            raise CspkitError(f"domain of {var!r}: values cannot be ordered ({error})") from None


def search_options(
    inference: Union[str, Callable[..., Any], None] = None,
    select_unassigned_variable: Union[str, Callable[..., Any], None] = None,
    order_domain_values: Union[str, Callable[..., Any], None] = None,
) -> dict:
    """The cspkit search options of one of aima-python's ``backtracking_search`` calls.

    Each argument is aima-python's function (``forward_checking``, ``mrv``, ...) or its name;
    ``None`` is aima-python's default. The options branch as the book does (``dway``: one
    child per value) and count as AIMA does (``counting="aima"``: every variable is assigned
    by a decision of its own).

    Raises:
        CspkitError: for a function cspkit has no counterpart of.
    """
    names = (
        ("inference", _name_of(inference, "no_inference"), _INFERENCES),
        (
            "select_unassigned_variable",
            _name_of(select_unassigned_variable, "first_unassigned_variable"),
            _VARIABLE_ORDERS,
        ),
        ("order_domain_values", _name_of(order_domain_values, "unordered_domain_values"), _VALUE_ORDERS),
    )
    chosen = []
    for argument, name, known in names:
        if name not in known:
            raise CspkitError(
                f"{argument}: cspkit has no counterpart of aima-python's {name!r} "
                f"(it knows {', '.join(known)})"
            )
        chosen.append(known[name])
    propagation, var_order, value_order = chosen
    return {
        "propagation": propagation,
        "var_order": var_order,
        "value_order": value_order,
        "branching": "dway",
        "counting": "aima",
    }


class AimaModel:
    """A cspkit :class:`Model` made from an aima-python CSP, with the way back.

    Attributes:
        model: the cspkit model (search it, trace it, draw its tree).
        variables: aima-python's variables, in the order of ``csp.variables``.
        values: for each aima variable, its domain in sorted order. A domain of integers is
            the cspkit variable's domain itself; otherwise the cspkit value ``i`` stands for
            ``values[var][i]``.
    """

    def __init__(
        self, model: Model, variables: list, values: dict, vars_by_aima: dict, codes: dict
    ) -> None:
        """Use :func:`from_csp`."""
        self.model = model
        self.variables = variables
        self.values = values
        self._vars = vars_by_aima
        self._decode = {
            var: dict(zip(codes[var], values[var])) for var in variables
        }

    def var(self, aima_var: Hashable) -> IntVar:
        """The cspkit variable of one of aima-python's variables."""
        try:
            return self._vars[aima_var]
        except KeyError:
            raise CspkitError(f"{aima_var!r} is not a variable of this CSP") from None

    def assignment(self, solution: Solution) -> dict:
        """A cspkit solution as aima-python's assignment: ``{aima variable: value}``."""
        return {
            var: self._decode[var][solution[self._vars[var]]] for var in self.variables
        }

    def __repr__(self) -> str:
        return (
            f"AimaModel({len(self.variables)} variables, "
            f"{self.model.num_constraints} constraints)"
        )


def from_csp(csp: Any) -> AimaModel:
    """The cspkit model of an aima-python ``CSP`` (anything with ``variables``, ``domains``,
    ``neighbors`` and ``constraints(A, a, B, b)``).

    One variable per aima variable, named by its text; one table constraint per pair of
    neighbours (a pair listed by either side), holding the value pairs ``constraints``
    accepts in both directions.

    Raises:
        CspkitError: when the CSP lacks one of the four parts, a domain is empty, or a
            neighbour is not a variable.
    """
    for part in ("variables", "domains", "neighbors", "constraints"):
        if not hasattr(csp, part):
            raise CspkitError(f"not an aima-python CSP: it has no {part!r}")
    variables = list(csp.variables or ())
    if not variables:
        raise CspkitError("the CSP has no variables (csp.variables is empty)")
    if len(set(variables)) != len(variables):
        raise CspkitError("csp.variables lists a variable twice")
    model = Model()
    values: dict = {}
    vars_by_aima: dict = {}
    codes: dict = {}
    names: set = set()
    for position, var in enumerate(variables):
        # Look the domain up, never test `in`: aima-python's UniversalDict (every variable
        # has the same domain) answers any key and has no membership test.
        try:
            domain = _sorted_values(csp.domains[var], var)
        except KeyError:
            raise CspkitError(f"variable {var!r} has no domain in csp.domains") from None
        if not domain:
            raise CspkitError(f"variable {var!r} has an empty domain")
        name = str(var)
        if name in names:
            name = f"{name}#{position}"
        names.add(name)
        values[var] = domain
        if all(type(v) is int and -(2**31) <= v < 2**31 for v in domain):
            # Integers stand for themselves, so the trace and the tree show the CSP's values.
            codes[var] = list(domain)
            vars_by_aima[var] = model.int_var_in(domain, name)
        else:
            codes[var] = list(range(len(domain)))
            vars_by_aima[var] = model.int_var(0, len(domain) - 1, name)
    pairs: dict = {}
    for var in variables:
        try:
            neighbours = list(csp.neighbors[var])
        except KeyError:
            neighbours = []
        for other in neighbours:
            if other not in vars_by_aima:
                raise CspkitError(f"neighbour {other!r} of {var!r} is not a variable of the CSP")
            if other == var:
                # aima-python never checks a variable against itself (it is not yet assigned
                # when its own values are tried): NQueensCSP lists every row as a neighbour.
                continue
            key = frozenset((var, other))
            pairs.setdefault(key, (var, other))
    for a, b in pairs.values():
        allowed = [
            (i, j)
            for i, x in zip(codes[a], values[a])
            for j, y in zip(codes[b], values[b])
            if csp.constraints(a, x, b, y) and csp.constraints(b, y, a, x)
        ]
        model += table([vars_by_aima[a], vars_by_aima[b]], allowed)
    return AimaModel(model, variables, values, vars_by_aima, codes)


def backtracking_search(
    csp: Any,
    select_unassigned_variable: Union[str, Callable[..., Any], None] = None,
    order_domain_values: Union[str, Callable[..., Any], None] = None,
    inference: Union[str, Callable[..., Any], None] = None,
    **options: Any,
) -> Optional[dict]:
    """aima-python's ``backtracking_search``, searched by cspkit.

    Takes aima-python's arguments (its functions or their names) and answers as it does: the
    first assignment found, as a dict, or ``None``. Sets ``csp.nassigns`` to AIMA's count of
    assignments, as aima-python's own search leaves it (with values tried in sorted order; see
    the module's documentation); the search's other statistics are in
    ``csp.cspkit_stats``. Further keyword arguments are cspkit search options (limits, say);
    a search stopped by a limit raises :class:`CspkitError`, as it found no answer either way.
    """
    converted = from_csp(csp)
    chosen = search_options(inference, select_unassigned_variable, order_domain_values)
    chosen.update(options)
    result = converted.model.search(**chosen)
    csp.nassigns = result.stats.get("nassigns", 0)
    csp.cspkit_stats = result.stats
    if result.status == "limit":
        raise CspkitError(f"the search stopped at a limit ({result.stats.get('stopped_by')})")
    if result.solution is None:
        return None
    return converted.assignment(result.solution)
