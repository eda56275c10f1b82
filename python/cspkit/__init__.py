"""cspkit from Python: a constraint-satisfaction engine for teaching backtracking.

Declare integer and boolean variables on a :class:`Model`, combine them with ``+ - *``
(by constants) into linear expressions, compare them with ``== != <= < >= >`` to build
constraints, post them with ``m += constraint``, and search::

    import cspkit

    m = cspkit.Model()
    x, y = m.int_var(0, 9, "x"), m.int_var(0, 9, "y")
    m += x + 2 * y == 10
    m += cspkit.all_different([x, y])
    solution = m.solve(var_order="mrv")
    print(solution[x], solution[y])

Boolean variables combine as literals (``b``, ``~b``) in ``any_of``, ``all_of``, ``xor``,
``at_least``...; any constraint can be reified (``b == (x + y <= 3)``, ``reified(c, b)``) or
half-reified (``b.implies(x != 2)``, ``implies(c, b)``) or negated (``~c``); the rest of the
catalogue (``element`` over variables, ``count``, ``member``, ``minimum``, ``times``,
``regular``, ``cumulative``, ...) takes variables, linear expressions or integers::

    b = m.bool_var("b")
    m += b == (x + y <= 3)
    m += cspkit.any_of([b, ~m.reify(cspkit.member(x, [1, 3]))])

The search runs in Rust with the GIL released; Ctrl-C stops it and raises
``KeyboardInterrupt``. Search options have the command line's names: ``propagation``
(``none``, ``fc``, ``forward``, ``full``/``mac``, ``ac3``), ``var_order`` (``input``,
``mrv``, ``mrv-random``, ``dom-deg``, ``dom-wdeg``), ``value_order`` (``asc``, ``desc``,
``middle``, ``random``, ``lcv``), ``branching`` (``assign``, ``split``, ``dway``),
``counting`` (``cspkit``, ``aima``: whether a variable propagation fixed is still assigned by
a decision of its own, as AIMA's BACKTRACKING-SEARCH does), ``restarts`` (``luby``,
``geometric``) with ``restart_base`` (failures, 100) and ``restart_factor`` (1.5),
``node_limit`` (decisions), ``time_limit`` (seconds), ``seed`` and ``backjump=True``
(conflict-directed backjumping: ``stats`` then counts ``backjumps`` and ``levels_skipped``;
not with ``propagation="ac3"``); ``minimize`` and ``maximize`` also take ``lns=True``
(large neighbourhood search).
"""

from __future__ import annotations

import builtins

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Optional, Union

from . import _cspkit
from ._cspkit import CspkitError
from . import _views
from ._views import TreeSession, compare, compare_html, sudoku_generate

__all__ = [
    "BoolVar",
    "Constraint",
    "Count",
    "CspkitError",
    "IntVar",
    "LinearExpr",
    "Model",
    "NotBoolVar",
    "QueensModel",
    "SearchResult",
    "Solution",
    "Solutions",
    "SudokuModel",
    "TreeSession",
    "abs_eq",
    "all_different",
    "all_different_except0",
    "all_of",
    "among",
    "any_of",
    "at_least",
    "at_most",
    "circuit",
    "compare",
    "compare_html",
    "count",
    "cumulative",
    "disjunctive",
    "div",
    "element",
    "exactly",
    "global_cardinality",
    "implies",
    "inverse",
    "lex_less",
    "lex_less_eq",
    "maximum",
    "member",
    "minimum",
    "mod",
    "negation",
    "negative_table",
    "pow",
    "product",
    "queens",
    "regular",
    "reified",
    "subcircuit",
    "sudoku",
    "sudoku_generate",
    "sum",
    "table",
    "times",
    "xor",
]


class LinearExpr:
    """A linear expression: a sum of ``coefficient * variable`` terms plus a constant.

    Built from variables with ``+``, ``-`` and ``*`` by integers; compared with
    ``== != <= < >= >`` into a :class:`Constraint`.
    """

    __slots__ = ("_model", "_terms", "_constant")

    def __init__(self, model: Optional["Model"], terms: dict, constant: int = 0) -> None:
        """An expression over `model`'s variables: `terms` maps variable index to coefficient."""
        self._model = model
        self._terms = terms
        self._constant = constant

    @property
    def constant(self) -> int:
        """The constant term."""
        return self._constant

    def terms(self) -> list:
        """The ``(coefficient, variable)`` pairs, coefficients never zero."""
        return [(c, self._model._var(i)) for i, c in self._terms.items() if c != 0]

    def value(self, solution: "Solution") -> int:
        """The expression's value in `solution`."""
        values = solution._values
        return self._constant + builtins.sum(c * values[i] for i, c in self._terms.items())

    def _combine(self, other: Any, sign: int) -> "LinearExpr":
        other = _as_expr(other)
        if other is NotImplemented:
            return NotImplemented
        model = _same_model(self._model, other._model)
        terms = dict(self._terms)
        for index, coefficient in other._terms.items():
            terms[index] = terms.get(index, 0) + sign * coefficient
        return LinearExpr(model, terms, self._constant + sign * other._constant)

    def __add__(self, other: Any) -> "LinearExpr":
        """The expression plus `other` (a variable, expression or integer)."""
        return self._combine(other, 1)

    def __radd__(self, other: Any) -> "LinearExpr":
        """`other` plus the expression."""
        return self._combine(other, 1)

    def __sub__(self, other: Any) -> "LinearExpr":
        """The expression minus `other`."""
        return self._combine(other, -1)

    def __rsub__(self, other: Any) -> "LinearExpr":
        """`other` minus the expression."""
        return (-self)._combine(other, 1)

    def __neg__(self) -> "LinearExpr":
        """The expression negated."""
        return self * -1

    def __pos__(self) -> "LinearExpr":
        """The expression itself."""
        return self

    def __mul__(self, factor: Any) -> "LinearExpr":
        """The expression times an integer constant."""
        if isinstance(factor, bool) or not isinstance(factor, int):
            if isinstance(factor, (IntVar, LinearExpr)):
                raise CspkitError(
                    "only multiplication by an integer constant makes a linear expression"
                )
            return NotImplemented
        return LinearExpr(
            self._model,
            {i: c * factor for i, c in self._terms.items()},
            self._constant * factor,
        )

    def __rmul__(self, factor: Any) -> "LinearExpr":
        """An integer constant times the expression."""
        return self.__mul__(factor)

    def _compare(self, other: Any, op: str) -> "Constraint":
        if isinstance(other, Constraint):
            if op in ("==", "!=") and isinstance(self, (BoolVar, NotBoolVar)):
                return reified(other, self if op == "==" else ~self)
            raise CspkitError(
                "only a boolean variable (or its negation ~b) can be compared with a "
                "constraint, with == (reification) or !="
            )
        difference = self._combine(other, -1)
        if difference is NotImplemented:
            raise CspkitError(f"cannot compare an expression with {other!r}")
        return Constraint(
            "linear", difference._model, (difference._terms, difference._constant, op), op
        )

    def __eq__(self, other: Any) -> "Constraint":  # type: ignore[override]
        """The constraint `self == other` (not a truth value: post it)."""
        return self._compare(other, "==")

    def __ne__(self, other: Any) -> "Constraint":  # type: ignore[override]
        """The constraint `self != other`."""
        return self._compare(other, "!=")

    def __le__(self, other: Any) -> "Constraint":
        """The constraint `self <= other`."""
        return self._compare(other, "<=")

    def __lt__(self, other: Any) -> "Constraint":
        """The constraint `self < other`."""
        return self._compare(other, "<")

    def __ge__(self, other: Any) -> "Constraint":
        """The constraint `self >= other`."""
        return self._compare(other, ">=")

    def __gt__(self, other: Any) -> "Constraint":
        """The constraint `self > other`."""
        return self._compare(other, ">")

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        """A short description."""
        parts = [f"{c}*{self._model._raw.var_name(i)}" for i, c in self._terms.items() if c]
        if self._constant or not parts:
            parts.append(str(self._constant))
        return " + ".join(parts)


class IntVar(LinearExpr):
    """An integer variable of a :class:`Model` (also the expression ``1 * var``)."""

    __slots__ = ("index",)

    def __init__(self, model: "Model", index: int) -> None:
        """The variable with index `index` in `model` (use :meth:`Model.int_var`)."""
        super().__init__(model, {index: 1}, 0)
        self.index = index

    @property
    def name(self) -> str:
        """The variable's name (``x<index>`` if none was given)."""
        return self._model._raw.var_name(self.index)

    @property
    def bounds(self) -> tuple:
        """The smallest and largest values of the declared domain."""
        return self._model._raw.bounds(self.index)

    def __hash__(self) -> int:
        """A hash of the model and the variable's index."""
        return hash((id(self._model), self.index))

    def __repr__(self) -> str:
        """A short description."""
        return f"IntVar({self.name})"


class BoolVar(IntVar):
    """A boolean variable: an integer variable with values 0 (false) and 1 (true)."""

    __slots__ = ()

    def __invert__(self) -> "NotBoolVar":
        """The negated literal ``~b`` (true when `b` is false; also the expression ``1 - b``)."""
        return NotBoolVar(self)

    def implies(self, consequence: Any) -> "Constraint":
        """The constraint ``self -> consequence`` (a constraint or a literal)."""
        return implies(self, consequence)

    def __repr__(self) -> str:
        """A short description."""
        return f"BoolVar({self.name})"


def _as_expr(value: Any) -> Any:
    if isinstance(value, LinearExpr):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return LinearExpr(None, {}, value)
    return NotImplemented


def sum(items: Iterable[Union[LinearExpr, int]]) -> LinearExpr:  # noqa: A001
    """The sum of variables, expressions and integers, built in one pass.

    Python's built-in ``sum`` works too, but copies the growing expression at each ``+``:
    this one is linear in the number of terms, for long sums.
    """
    model: Optional[Model] = None
    terms: dict = {}
    constant = 0
    for item in items:
        expr = _as_expr(item)
        if expr is NotImplemented:
            raise CspkitError(f"sum: expected variables, expressions or integers, got {item!r}")
        model = _same_model(model, expr._model)
        for index, coefficient in expr._terms.items():
            terms[index] = terms.get(index, 0) + coefficient
        constant += expr._constant
    return LinearExpr(model, terms, constant)


def _same_model(a: Optional["Model"], b: Optional["Model"]) -> Optional["Model"]:
    if a is not None and b is not None and a is not b:
        raise CspkitError("an expression mixes variables of two different models")
    return a if a is not None else b


class Constraint:
    """A constraint waiting to be posted to its model with ``m += c`` or ``m.add(c)``.

    A constraint has no truth value: ``if x == y:`` raises ``TypeError``.
    """

    __slots__ = ("kind", "_model", "_payload", "_text")

    def __init__(self, kind: str, model: Optional["Model"], payload: tuple, text: str) -> None:
        """A constraint of kind `kind` (``linear``, ``all_different``, ``element``, ...)."""
        self.kind = kind
        self._model = model
        self._payload = payload
        self._text = text

    def __bool__(self) -> bool:
        """Raises TypeError: a constraint is posted, not tested."""
        raise TypeError(
            "a constraint has no truth value: post it with `model += constraint`"
        )

    def __invert__(self) -> "Constraint":
        """The negation of the constraint (see :func:`negation`)."""
        return negation(self)

    def __repr__(self) -> str:
        """A short description."""
        return f"Constraint({self.kind}: {self._text})"


def _indices(model: Optional["Model"], vars: Iterable[IntVar], what: str) -> tuple:
    vars = list(vars)
    for var in vars:
        if not isinstance(var, IntVar):
            raise CspkitError(f"{what}: expected variables, got {var!r}")
        model = _same_model(model, var._model)
    return model, [var.index for var in vars]


def all_different(vars: Iterable[IntVar]) -> Constraint:
    """The variables take pairwise different values."""
    model, indices = _indices(None, vars, "all_different")
    return Constraint("all_different", model, (indices,), f"{len(indices)} variables")


def element(array: Iterable[Any], index: Any, value: Any) -> Constraint:
    """``array[index] == value``, with a 0-based `index`; `array` holds integers, or variables
    (integers among them are fixed variables)."""
    array = list(array)
    if all(isinstance(a, int) for a in array) and all(
        isinstance(o, IntVar) for o in (index, value)
    ):
        model, (i, v) = _indices(None, [index, value], "element")
        return Constraint("element", model, ([int(a) for a in array], i, v),
                          "array[index] == value")
    model, operands = _operands(array + [index, value], "element")
    payload = (operands[:-2], operands[-2], operands[-1])
    return Constraint("element_vars", model, payload, "array[index] == value")


def table(vars: Iterable[IntVar], tuples: Iterable[Iterable[int]]) -> Constraint:
    """The variables' values form one of the allowed `tuples`."""
    model, indices = _indices(None, vars, "table")
    rows = [[int(a) for a in row] for row in tuples]
    return Constraint("table", model, (indices, rows), f"{len(rows)} tuples")


def circuit(successors: Iterable[IntVar]) -> Constraint:
    """The successor variables (0-based) form one circuit through every node."""
    model, indices = _indices(None, successors, "circuit")
    return Constraint("circuit", model, (indices,), f"{len(indices)} nodes")


def global_cardinality(
    vars: Iterable[IntVar], values: Iterable[int], counts: Iterable[IntVar], closed: bool = False
) -> Constraint:
    """Exactly ``counts[k]`` of the variables take the value ``values[k]``; with `closed`,
    every variable also takes one of `values`."""
    vars, counts, values = list(vars), list(counts), [int(v) for v in values]
    model, indices = _indices(None, vars + counts, "global_cardinality")
    payload = (indices[: len(vars)], values, indices[len(vars):])
    kind = "global_cardinality_closed" if closed else "global_cardinality"
    return Constraint(kind, model, payload, f"{len(values)} values")


def inverse(f: Iterable[IntVar], g: Iterable[IntVar]) -> Constraint:
    """``f[i] == j`` if and only if ``g[j] == i`` (0-based): `g` is the inverse of `f`."""
    f, g = list(f), list(g)
    model, indices = _indices(None, f + g, "inverse")
    return Constraint("inverse", model, (indices[: len(f)], indices[len(f):]), "f, g")


def lex_less_eq(xs: Iterable[IntVar], ys: Iterable[IntVar]) -> Constraint:
    """The sequence `xs` is lexicographically at most `ys` (symmetry breaking)."""
    xs, ys = list(xs), list(ys)
    model, indices = _indices(None, xs + ys, "lex_less_eq")
    return Constraint("lex_less_eq", model, (indices[: len(xs)], indices[len(xs):]), "xs <= ys")


# --- Boolean literals, reification, arithmetic and the rest of the catalogue -------------


class NotBoolVar(LinearExpr):
    """The negation ``~b`` of a boolean variable: a literal, also the expression ``1 - b``."""

    __slots__ = ("var",)

    def __init__(self, var: "BoolVar") -> None:
        """The negation of `var`."""
        super().__init__(var._model, {var.index: -1}, 1)
        self.var = var

    def __invert__(self) -> "BoolVar":
        """The boolean variable itself: ``~~b`` is ``b``."""
        return self.var

    def implies(self, consequence: Any) -> "Constraint":
        """The constraint ``self -> consequence`` (a constraint or a literal)."""
        return implies(self, consequence)

    def __repr__(self) -> str:
        """A short description."""
        return f"~{self.var.name}"


Literal = Union["BoolVar", NotBoolVar, bool]


def _check_literal(value: Any, what: str) -> Optional["Model"]:
    if isinstance(value, bool):
        return None
    if isinstance(value, (IntVar, NotBoolVar)):
        return value._model
    raise TypeError(f"{what}: expected a boolean variable, its negation ~b, or True/False, "
                    f"got {value!r}")


def _literals(values: Iterable[Any], what: str) -> tuple:
    values = list(values)
    model = None
    for value in values:
        model = _same_model(model, _check_literal(value, what))
    return model, values


def _operand_model(value: Any, what: str) -> Optional["Model"]:
    if isinstance(value, LinearExpr):
        return value._model
    if isinstance(value, int):
        return None
    raise TypeError(f"{what}: expected a variable, a linear expression or an integer, "
                    f"got {value!r}")


def _operands(values: Iterable[Any], what: str, model: Optional["Model"] = None) -> tuple:
    values = list(values)
    for value in values:
        model = _same_model(model, _operand_model(value, what))
    return model, values


def _as_constraint(value: Any, what: str) -> "Constraint":
    """A constraint, or a literal made the constraint "it is true"."""
    if isinstance(value, Constraint):
        return value
    model = _check_literal(value, what)
    return Constraint("any_of", model, ([value],), f"{value!r}")


def any_of(literals: Iterable[Literal]) -> "Constraint":
    """At least one of the literals is true (a clause; false for none)."""
    model, values = _literals(literals, "any_of")
    return Constraint("any_of", model, (values,), f"{len(values)} literals")


def all_of(literals: Iterable[Literal]) -> "Constraint":
    """Every literal is true."""
    model, values = _literals(literals, "all_of")
    return Constraint("all_of", model, (values,), f"{len(values)} literals")


def xor(literals: Iterable[Literal]) -> "Constraint":
    """An odd number of the literals are true."""
    model, values = _literals(literals, "xor")
    return Constraint("xor", model, (values,), f"{len(values)} literals")


def at_least(k: int, literals: Iterable[Literal]) -> "Constraint":
    """At least `k` of the literals are true."""
    model, values = _literals(literals, "at_least")
    return Constraint("at_least", model, (int(k), values), f">= {k} of {len(values)}")


def at_most(k: int, literals: Iterable[Literal]) -> "Constraint":
    """At most `k` of the literals are true."""
    model, values = _literals(literals, "at_most")
    return Constraint("at_most", model, (int(k), values), f"<= {k} of {len(values)}")


def exactly(k: int, literals: Iterable[Literal]) -> "Constraint":
    """Exactly `k` of the literals are true."""
    model, values = _literals(literals, "exactly")
    return Constraint("exactly", model, (int(k), values), f"== {k} of {len(values)}")


def reified(constraint: "Constraint", b: Literal) -> "Constraint":
    """``b <-> constraint``: the literal `b` is true exactly when `constraint` holds.

    Any constraint can be reified; linear comparisons and memberships strongly (the
    library's ``reify_into`` and ``Member::reified``), the others through their check.
    Also written ``b == constraint``.
    """
    if not isinstance(constraint, Constraint):
        raise TypeError(f"reified: expected a constraint, got {constraint!r}")
    model = _same_model(constraint._model, _check_literal(b, "reified"))
    return Constraint("reified", model, (constraint, b), f"{b!r} <-> {constraint!r}")


def implies(premise: Any, consequence: Any) -> "Constraint":
    """``premise -> consequence``: half reification.

    Either `premise` is a literal and `consequence` a constraint or a literal
    (``b -> (x != 2)``), or `premise` is a constraint and `consequence` a literal
    (``(x + y <= 3) -> b``, posted as ``~b -> not (x + y <= 3)``).
    """
    if isinstance(premise, Constraint):
        if isinstance(consequence, Constraint):
            raise TypeError("implies: a constraint may imply a literal, not a constraint "
                            "(reify one of them first with model.reify)")
        _check_literal(consequence, "implies")
        return implies(_negate_literal(consequence), negation(premise))
    model = _check_literal(premise, "implies")
    consequence = _as_constraint(consequence, "implies")
    model = _same_model(model, consequence._model)
    return Constraint("implies", model, (premise, consequence),
                      f"{premise!r} -> {consequence!r}")


def _negate_literal(b: Literal) -> Literal:
    if isinstance(b, bool):
        return not b
    if isinstance(b, (BoolVar, NotBoolVar)):
        return ~b
    return NotBoolVar(b)


def negation(constraint: "Constraint") -> "Constraint":
    """The constraint that `constraint` does not hold (also ``~constraint``).

    A linear comparison is negated exactly (``x <= 3`` becomes ``x > 3``); any other is
    posted as its reification with a false boolean (it fails once its variables are fixed
    to values it accepts).
    """
    if not isinstance(constraint, Constraint):
        raise TypeError(f"negation: expected a constraint, got {constraint!r}")
    if constraint.kind == "linear":
        terms, constant, op = constraint._payload
        return Constraint("linear", constraint._model, (terms, constant, _NEGATED[op]),
                          _NEGATED[op])
    if constraint.kind == "not":
        return constraint._payload[0]
    return Constraint("not", constraint._model, (constraint,), f"not {constraint!r}")


_NEGATED = {"==": "!=", "!=": "==", "<=": ">", "<": ">=", ">=": "<", ">": "<="}


def minimum(vars: Iterable[Any], result: Any) -> "Constraint":
    """``min(vars) == result`` (operands: variables, expressions or integers)."""
    model, values = _operands(vars, "minimum")
    if not values:
        raise CspkitError("minimum: no variables (the min of nothing is undefined)")
    model, (result,) = _operands([result], "minimum", model)
    return Constraint("minimum", model, (values, result), f"min of {len(values)}")


def maximum(vars: Iterable[Any], result: Any) -> "Constraint":
    """``max(vars) == result``."""
    model, values = _operands(vars, "maximum")
    if not values:
        raise CspkitError("maximum: no variables (the max of nothing is undefined)")
    model, (result,) = _operands([result], "maximum", model)
    return Constraint("maximum", model, (values, result), f"max of {len(values)}")


def _arithmetic(op: str, x: Any, y: Any, z: Any) -> "Constraint":
    model, operands = _operands([x, y, z], op)
    return Constraint("arithmetic", model, (op, *operands), op)


def abs_eq(x: Any, z: Any) -> "Constraint":
    """``|x| == z``."""
    return _arithmetic("abs", x, x, z)


def times(x: Any, y: Any, z: Any) -> "Constraint":
    """``x * y == z`` (a product of variables, not linear)."""
    return _arithmetic("times", x, y, z)


def div(x: Any, y: Any, z: Any) -> "Constraint":
    """``x div y == z``, rounded towards zero; no solution with ``y == 0``."""
    return _arithmetic("div", x, y, z)


def mod(x: Any, y: Any, z: Any) -> "Constraint":
    """``x mod y == z``, with the sign of `x` (the remainder of :func:`div`)."""
    return _arithmetic("mod", x, y, z)


def pow(x: Any, y: Any, z: Any) -> "Constraint":  # noqa: A001
    """``x ** y == z`` for ``y >= 0``."""
    return _arithmetic("pow", x, y, z)


def product(factors: Iterable[Any], z: Any) -> "Constraint":
    """``factors[0] * factors[1] * ... == z`` (1 for no factor)."""
    model, values = _operands(factors, "product")
    model, (z,) = _operands([z], "product", model)
    return Constraint("product", model, (values, z), f"product of {len(values)}")


def count(vars: Iterable[Any], value: Any, count: Any) -> "Constraint":
    """Exactly `count` of the variables take `value` (each an integer or a variable)."""
    model, values = _operands(vars, "count")
    model, (value, count) = _operands([value, count], "count", model)
    return Constraint("count", model, (values, value, count), f"count of {len(values)}")


def among(vars: Iterable[Any], values: Iterable[int], count: Any) -> "Constraint":
    """Exactly `count` of the variables take a value among `values`."""
    model, operands = _operands(vars, "among")
    model, (count,) = _operands([count], "among", model)
    values = [int(v) for v in values]
    return Constraint("among", model, (operands, values, count), f"among {values}")


def member(x: Any, values: Iterable[int]) -> "Constraint":
    """`x` takes one of `values` (x in a set)."""
    model, (x,) = _operands([x], "member")
    values = sorted({int(v) for v in values})
    return Constraint("member", model, (x, values), f"in {values}")


def all_different_except0(vars: Iterable[Any]) -> "Constraint":
    """The variables that are not 0 take pairwise different values."""
    model, values = _operands(vars, "all_different_except0")
    return Constraint("all_different_except0", model, (values,), f"{len(values)} variables")


def negative_table(vars: Iterable[IntVar], tuples: Iterable[Iterable[int]]) -> "Constraint":
    """The variables' values form none of the forbidden `tuples`."""
    return negation(table(vars, tuples))


def subcircuit(successors: Iterable[IntVar]) -> "Constraint":
    """The successors (0-based) form one circuit through some nodes; ``succ[i] == i``
    leaves node `i` out."""
    model, indices = _indices(None, successors, "subcircuit")
    return Constraint("subcircuit", model, (indices,), f"{len(indices)} nodes")


def lex_less(xs: Iterable[IntVar], ys: Iterable[IntVar]) -> "Constraint":
    """The sequence `xs` is lexicographically strictly less than `ys`."""
    xs, ys = list(xs), list(ys)
    model, indices = _indices(None, xs + ys, "lex_less")
    return Constraint("lex_less", model, (indices[: len(xs)], indices[len(xs):]), "xs < ys")


def cumulative(starts: Iterable[Any], durations: Iterable[Any], demands: Iterable[Any],
               capacity: Any) -> "Constraint":
    """Tasks starting at `starts`, lasting `durations` and using `demands` of a resource never
    use more than `capacity` at once (each an integer or a variable)."""
    starts, durations, demands = list(starts), list(durations), list(demands)
    model, operands = _operands(starts + durations + demands + [capacity], "cumulative")
    n, m = len(starts), len(durations)
    payload = (operands[:n], operands[n:n + m], operands[n + m:-1], operands[-1])
    return Constraint("cumulative", model, payload, f"{n} tasks")


def disjunctive(starts: Iterable[Any], durations: Iterable[Any]) -> "Constraint":
    """Tasks starting at `starts` and lasting `durations` never overlap."""
    starts, durations = list(starts), list(durations)
    model, operands = _operands(starts + durations, "disjunctive")
    payload = (operands[: len(starts)], operands[len(starts):])
    return Constraint("disjunctive", model, payload, f"{len(starts)} tasks")


def regular(vars: Iterable[IntVar], transitions: Iterable[Iterable[int]], start: int,
            accepting: Iterable[int], states: Optional[int] = None) -> "Constraint":
    """The variables' values, in order, spell a word the automaton accepts.

    `transitions` are ``(from, value, to)`` triples over states ``0..states-1`` (by default
    one more than the largest state named); `start` is the initial state, `accepting` the
    final ones. A missing transition rejects.
    """
    model, indices = _indices(None, vars, "regular")
    transitions = [tuple(int(t) for t in triple) for triple in transitions]
    if any(len(t) != 3 for t in transitions):
        raise CspkitError("regular: each transition is a (from, value, to) triple")
    accepting = [int(a) for a in accepting]
    if states is None:
        named = [start, *accepting, *(t[0] for t in transitions), *(t[2] for t in transitions)]
        states = builtins.max(named) + 1
    if builtins.min([start, *accepting, *(t[0] for t in transitions),
                     *(t[2] for t in transitions)]) < 0:
        raise CspkitError("regular: states are numbered from 0")
    payload = (indices, states, int(start), accepting, transitions)
    return Constraint("regular", model, payload, f"{states} states")


class Solution(Mapping):
    """One solution: a read-only mapping from variable (or variable name) to value."""

    def __init__(self, model: "Model", values: list) -> None:
        """The solution of `model` with these values, one per variable by index."""
        self._model = model
        self._values = values

    def value(self, var: Union[IntVar, LinearExpr, str]) -> int:
        """The value of a variable, a variable's name, or an expression."""
        return self[var]

    def __getitem__(self, key: Union[IntVar, LinearExpr, str]) -> int:
        """The value of a variable, a variable's name, or an expression."""
        if isinstance(key, IntVar):
            if key._model is not self._model:
                raise KeyError(f"{key!r} is not a variable of this solution's model")
            return self._values[key.index]
        if isinstance(key, LinearExpr):
            return key.value(self)
        if isinstance(key, str):
            return self._values[self._model.var(key).index]
        raise KeyError(key)

    def __iter__(self) -> Iterator[IntVar]:
        """The variables (or the iterator itself, for an iterator)."""
        return iter(self._model.variables())

    def __len__(self) -> int:
        """The number of variables."""
        return len(self._values)

    def __eq__(self, other: object) -> bool:
        """The constraint `self == other` (not a truth value: post it)."""
        if isinstance(other, Solution):
            return self._model is other._model and self._values == other._values
        return super().__eq__(other)

    __hash__ = None  # type: ignore[assignment]

    @property
    def values_list(self) -> list:
        """All values, by variable index."""
        return list(self._values)

    @property
    def board(self) -> Any:
        """The solution as its model draws it (built-in models), else the values list."""
        return self._model.board(self)

    def __repr__(self) -> str:
        """A short description."""
        shown = ", ".join(
            f"{self._model._raw.var_name(i)}={v}" for i, v in enumerate(self._values[:20])
        )
        more = ", ..." if len(self._values) > 20 else ""
        return f"Solution({shown}{more})"


class SearchResult:
    """What a search found: ``status`` and, when any, the (best) ``solution``.

    ``status`` is ``"solved"``, ``"optimal"``, ``"infeasible"`` (the search finished: there
    is no solution) or ``"limit"`` (a limit stopped it first; ``stats["stopped_by"]`` says
    which). A result is true when it holds a solution.
    """

    def __init__(self, status: str, solution: Optional[Solution], stats: dict,
                 objective: Optional[int] = None) -> None:
        """A result with this status, solution, statistics and objective value."""
        self.status = status
        self.solution = solution
        self.stats = stats
        self.objective = objective

    def __bool__(self) -> bool:
        """Whether a solution was found (for `minimize`/`maximize`, the best one)."""
        return self.solution is not None

    def __repr__(self) -> str:
        """A short description."""
        extra = f", objective={self.objective}" if self.objective is not None else ""
        return f"SearchResult(status={self.status!r}{extra}, solution={self.solution!r})"


class Count(int):
    """A number of solutions, with ``status`` (``"complete"`` or ``"limit"``) and ``stats``.

    Under a limit the number is only a lower bound: ``exact`` is then false.
    """

    status: str
    stats: dict

    def __new__(cls, solutions: int, status: str, stats: dict) -> "Count":
        """A count of `solutions` with its status and statistics."""
        count = super().__new__(cls, solutions)
        count.status = status
        count.stats = stats
        return count

    @property
    def exact(self) -> bool:
        """Whether the search finished, so the count is the number of solutions."""
        return self.status == "complete"


class Solutions(Iterator):
    """The solutions of a model, found one at a time by a solver kept alive in Rust.

    After the iteration, ``status`` is ``"exhausted"`` or ``"limit: <why>"``; ``stats``
    are the search's statistics so far.
    """

    def __init__(self, model: "Model", raw: Any) -> None:
        """Solutions of `model` from the extension's iterator `raw`."""
        self._model = model
        self._raw = raw

    def __iter__(self) -> "Solutions":
        """The variables (or the iterator itself, for an iterator)."""
        return self

    def __next__(self) -> Solution:
        """The next solution; StopIteration when the search ends."""
        values = next(self._raw)
        self._model.last_stats = self._raw.stats
        return Solution(self._model, values)

    @property
    def status(self) -> Optional[str]:
        """``None`` while solutions may remain; then ``"exhausted"`` or ``"limit: ..."``."""
        return self._raw.status

    @property
    def stats(self) -> dict:
        """The statistics of the search so far."""
        return self._raw.stats


class Model:
    """A constraint model: variables, constraints, and the searches over them.

    A model can be searched many times with different options; each search reads the
    model as it is when the search starts.
    """

    #: Options a search of this kind of model uses unless told otherwise.
    default_options: dict = {}

    def _options(self, options: dict) -> dict:
        return {**self.default_options, **options}

    def __init__(self) -> None:
        """An empty model."""
        self._raw = _cspkit.RawModel()
        self._vars: list = []
        self._constants: dict = {}
        #: The statistics of the last search, as a dict.
        self.last_stats: dict = {}
        #: The status of the last :meth:`solve`: ``solved``, ``infeasible`` or ``limit``.
        self.last_status: Optional[str] = None

    @classmethod
    def _wrapping(cls, raw: Any) -> "Model":
        model = cls.__new__(cls)
        Model.__init__(model)
        model._raw = raw
        model._vars = [IntVar(model, i) for i in range(raw.num_variables())]
        return model

    def _var(self, index: int) -> IntVar:
        return IntVar(self, index)

    def int_var(self, lo: int, hi: int, name: Optional[str] = None) -> IntVar:
        """A new integer variable with values ``lo..=hi``."""
        var = IntVar(self, self._raw.int_var(lo, hi, name))
        self._vars.append(var)
        return var

    def int_var_in(self, values: Iterable[int], name: Optional[str] = None) -> IntVar:
        """A new integer variable whose values are `values` (any order; repeats ignored)."""
        var = IntVar(self, self._raw.int_var_in(list(values), name))
        self._vars.append(var)
        return var

    def int_vars(self, n: int, lo: int, hi: int, name: Optional[str] = None) -> list:
        """`n` new integer variables with values ``lo..=hi``, named ``name[i]`` if named."""
        first = self._raw.int_vars(n, lo, hi, name)
        new = [IntVar(self, first + i) for i in range(n)]
        self._vars.extend(new)
        return new

    def bool_var(self, name: Optional[str] = None) -> BoolVar:
        """A new boolean variable (0 or 1)."""
        var = BoolVar(self, self._raw.bool_var(name))
        self._vars.append(var)
        return var

    def variables(self) -> list:
        """The variables, in declaration order."""
        return list(self._vars)

    def var(self, name: str) -> IntVar:
        """The variable called `name`."""
        for var in self._vars:
            if var.name == name:
                return var
        raise CspkitError(f"no variable named {name!r}")

    @property
    def num_constraints(self) -> int:
        """The number of constraints posted (after the library's own decomposition)."""
        return self._raw.num_constraints()

    def add(self, constraint: Union[Constraint, Iterable[Constraint]]) -> "Model":
        """Posts a constraint (or each of several)."""
        if not isinstance(constraint, Constraint):
            if isinstance(constraint, bool):
                raise CspkitError(
                    f"expected a constraint, got the boolean {constraint} "
                    "(a comparison of constants, or of variables of another library?)"
                )
            try:
                items = list(constraint)
            except TypeError:
                raise CspkitError(f"expected a constraint, got {constraint!r}") from None
            for item in items:
                self.add(item)
            return self
        if constraint._model is not None and constraint._model is not self:
            raise CspkitError(f"{constraint!r} is over variables of another model")
        payload = constraint._payload
        if constraint.kind == "reified":
            kind, args = self._lower(payload[0])
            self._raw.reify_constraint(kind, args, self._literal(payload[1]))
        elif constraint.kind == "implies":
            kind, args = self._lower(payload[1])
            self._raw.imply_constraint(self._literal(payload[0]), kind, args)
        else:
            self._raw.post_constraint(*self._lower(constraint))
        return self

    # --- Lowering constraints to the extension's descriptions (variables by index) ---

    def _constant(self, value: int) -> int:
        """The index of a variable fixed to `value` (one per value and model)."""
        index = self._constants.get(value)
        if index is None:
            index = self._raw.int_var(value, value, None)
            self._constants[value] = index
        return index

    def _index(self, operand: Any) -> int:
        """The index of a variable standing for `operand`: itself, a variable equal to a
        linear expression, or a fixed variable for an integer."""
        if isinstance(operand, IntVar):
            if operand._model is not self:
                raise CspkitError(f"{operand!r} is a variable of another model")
            return operand.index
        if isinstance(operand, LinearExpr):
            _same_model(self, operand._model)
            terms = [(c, i) for i, c in operand._terms.items() if c != 0]
            if not terms:
                return self._constant(operand._constant)
            if len(terms) == 1 and terms[0][0] == 1 and operand._constant == 0:
                return terms[0][1]
            return self._raw.var_for(terms, operand._constant)
        if isinstance(operand, int):
            return self._constant(int(operand))
        raise TypeError(f"expected a variable, a linear expression or an integer, got {operand!r}")

    def _literal(self, value: Any) -> tuple:
        """A literal as ``(index, negated)``."""
        if isinstance(value, bool):
            return (self._constant(int(value)), False)
        if isinstance(value, NotBoolVar):
            return (self._index(value.var), True)
        if isinstance(value, IntVar):
            return (self._index(value), False)
        raise TypeError(f"expected a boolean variable, ~b, or True/False, got {value!r}")

    def _fresh_bool(self) -> int:
        return self._raw.bool_var(None)

    def _lower(self, constraint: Constraint) -> tuple:
        """The constraint as the extension's ``(kind, args)``, posting the definitions of
        any auxiliary variable it needs first."""
        kind, p = constraint.kind, constraint._payload
        index, literal = self._index, self._literal
        if kind == "linear":
            terms, constant, op = p
            return kind, ([(c, i) for i, c in terms.items() if c != 0], constant, op)
        if kind in ("any_of", "all_of", "xor"):
            return kind, ([literal(v) for v in p[0]],)
        if kind in ("at_least", "at_most", "exactly"):
            return kind, (p[0], [literal(v) for v in p[1]])
        if kind == "not":
            return kind, self._lower(p[0])
        if kind == "reified":
            # b <-> c as a value: r <-> c, then the parity of ~b and r.
            inner, b = p
            r = self._fresh_bool()
            self._raw.reify_constraint(*self._lower(inner), (r, False))
            negated_b = literal(_negate_literal(b))
            return "xor", ([negated_b, (r, False)],)
        if kind == "implies":
            b, inner = p
            r = self._fresh_bool()
            self._raw.reify_constraint(*self._lower(inner), (r, False))
            return "any_of", ([literal(_negate_literal(b)), (r, False)],)
        if kind in ("minimum", "maximum", "product"):
            return kind, ([index(v) for v in p[0]], index(p[1]))
        if kind == "arithmetic":
            op, x, y, z = p
            return kind, (op, index(x), index(y), index(z))
        if kind == "count":
            vars, value, count = p
            if isinstance(value, int) and not isinstance(value, LinearExpr):
                return "among", ([index(v) for v in vars], [int(value)], index(count))
            value_index, bools = index(value), []
            for var in vars:
                b = self._fresh_bool()
                self._raw.reify_constraint(
                    "linear", ([(1, index(var)), (-1, value_index)], 0, "=="), (b, False)
                )
                bools.append((1, b))
            return "linear", (bools + [(-1, index(count))], 0, "==")
        if kind == "among":
            return kind, ([index(v) for v in p[0]], p[1], index(p[2]))
        if kind == "member":
            return kind, (index(p[0]), p[1])
        if kind == "all_different_except0":
            indices = [index(v) for v in p[0]]
            bounds = [self._raw.bounds(i) for i in indices]
            lo = builtins.min((b[0] for b in bounds), default=0)
            hi = builtins.max((b[1] for b in bounds), default=0)
            if hi - lo > 1_000_000:
                raise CspkitError(
                    "all_different_except0: the variables' values span more than a million "
                    f"({lo}..{hi})"
                )
            values = [v for v in range(lo, hi + 1) if v != 0]
            return "global_cardinality_bounds", (indices, values, [(0, 1)] * len(values))
        if kind == "element_vars":
            return kind, ([index(a) for a in p[0]], index(p[1]), index(p[2]))
        if kind == "cumulative":
            starts, durations, demands, capacity = p
            return kind, ([index(v) for v in starts], [index(v) for v in durations],
                          [index(v) for v in demands], index(capacity))
        if kind == "disjunctive":
            return kind, ([index(v) for v in p[0]], [index(v) for v in p[1]])
        return kind, p

    # --- Variables defined by an expression (auxiliary: not among `variables()`) ---

    def var_for(self, expr: Union[LinearExpr, int]) -> IntVar:
        """A variable equal to the linear expression (the variable itself for a variable)."""
        return IntVar(self, self._index(expr))

    def min_of(self, vars: Iterable[Any]) -> IntVar:
        """A new variable, the minimum of the variables (or expressions, integers)."""
        return IntVar(self, self._raw.extremum([self._index(v) for v in vars], False))

    def max_of(self, vars: Iterable[Any]) -> IntVar:
        """A new variable, the maximum of the variables (or expressions, integers)."""
        return IntVar(self, self._raw.extremum([self._index(v) for v in vars], True))

    def _operation(self, op: str, x: Any, y: Any) -> IntVar:
        return IntVar(self, self._raw.operation(op, self._index(x), self._index(y)))

    def abs_of(self, x: Any) -> IntVar:
        """A new variable ``|x|``."""
        return self._operation("abs", x, x)

    def times(self, x: Any, y: Any) -> IntVar:
        """A new variable ``x * y`` (a product of variables)."""
        return self._operation("times", x, y)

    def div(self, x: Any, y: Any) -> IntVar:
        """A new variable ``x div y``, rounded towards zero (``y == 0`` has no solution)."""
        return self._operation("div", x, y)

    def mod(self, x: Any, y: Any) -> IntVar:
        """A new variable ``x mod y``, with the sign of `x` (``y == 0`` has no solution)."""
        return self._operation("mod", x, y)

    def pow(self, x: Any, y: Any) -> IntVar:
        """A new variable ``x ** y`` (``y < 0`` has no solution)."""
        return self._operation("pow", x, y)

    def product_of(self, factors: Iterable[Any]) -> IntVar:
        """A new variable, the product of the factors."""
        return IntVar(self, self._raw.product_of([self._index(v) for v in factors]))

    def element_of(self, array: Iterable[Any], index: Any) -> IntVar:
        """A new variable ``array[index]`` (0-based; integers or variables in `array`)."""
        array = list(array)
        if not array:
            raise CspkitError("element_of: the array is empty")
        bounds = [(a, a) if isinstance(a, int) else self._raw.bounds(self._index(a))
                  for a in array]
        lo = builtins.min(b[0] for b in bounds)
        hi = builtins.max(b[1] for b in bounds)
        value = IntVar(self, self._raw.int_var(lo, hi, None))
        self.add(element(array, index, value))
        return value

    def reify(self, constraint: Constraint) -> "BoolVar":
        """A new boolean variable, true exactly when `constraint` holds."""
        b = BoolVar(self, self._fresh_bool())
        self.add(reified(constraint, b))
        return b

    def describe(self) -> str:
        """A short text summary: the variables (with their domains' bounds) and the
        constraints by kind, as the library names them after its decomposition."""
        n = self._raw.num_variables()
        auxiliary = builtins.sum(1 for i in range(n) if self._raw.is_auxiliary(i))
        names = self._raw.constraint_names()
        kinds: dict = {}
        for name in names:
            kinds[name] = kinds.get(name, 0) + 1
        lines = [
            f"{type(self).__name__}: {n} variables ({len(self._vars)} declared, "
            f"{n - len(self._vars)} added), {len(names)} constraints",
            "variables:",
        ]
        shown = self._vars[:10]
        for var in shown:
            lo, hi = var.bounds
            lines.append(f"  {var.name} in {lo}..{hi}")
        if len(self._vars) > len(shown):
            lines.append(f"  ... and {len(self._vars) - len(shown)} more")
        if auxiliary:
            lines.append(f"  ({auxiliary} auxiliary from the library's decompositions)")
        lines.append("constraints by kind:")
        for name, number in sorted(kinds.items(), key=lambda item: (-item[1], item[0])):
            lines.append(f"  {name}: {number}")
        return "\n".join(lines)

    def __iadd__(self, constraint: Union[Constraint, Iterable[Constraint]]) -> "Model":
        """Posts the constraint(s): ``model += constraint``."""
        return self.add(constraint)

    def search(self, **options: Any) -> SearchResult:
        """Searches for one solution; the result says ``solved``, ``infeasible`` or ``limit``."""
        status, values, stats = self._raw.solve(**self._options(options))
        self.last_stats, self.last_status = stats, status
        return SearchResult(status, None if values is None else Solution(self, values), stats)

    def solve(self, **options: Any) -> Optional[Solution]:
        """The first solution, or ``None`` (then ``last_status`` says ``infeasible`` or ``limit``)."""
        return self.search(**options).solution

    def solutions(self, **options: Any) -> Solutions:
        """The solutions as a lazy iterator: each ``next`` resumes the search in Rust."""
        return Solutions(self, self._raw.solutions(**self._options(options)))

    def count(self, **options: Any) -> Count:
        """The number of solutions (a lower bound when ``status`` is ``"limit"``)."""
        solutions, status, stats = self._raw.count(**self._options(options))
        self.last_stats, self.last_status = stats, status
        return Count(solutions, status, stats)

    def _optimize(self, objective: Any, maximize: bool, options: dict) -> SearchResult:
        objective = _as_expr(objective)
        if objective is NotImplemented:
            raise CspkitError("the objective must be a variable or a linear expression")
        _same_model(self, objective._model)
        terms = [(c, i) for i, c in objective._terms.items() if c != 0]
        # The search compares objective values as 64-bit integers: an objective that can
        # leave that range would compare wrongly, so it is refused here.
        low = high = objective._constant
        for coefficient, index in terms:
            lo, hi = self._raw.bounds(index)
            low += min(coefficient * lo, coefficient * hi)
            high += max(coefficient * lo, coefficient * hi)
        if low < -(2**63) or high > 2**63 - 1:
            raise CspkitError(
                f"the objective ranges over [{low}, {high}], beyond 64-bit integers"
            )
        status, values, value, stats = self._raw.optimize(
            terms, objective._constant, maximize, **self._options(options)
        )
        self.last_stats, self.last_status = stats, status
        solution = None if values is None else Solution(self, values)
        return SearchResult(status, solution, stats, value)

    def minimize(self, objective: Union[LinearExpr, int], **options: Any) -> SearchResult:
        """The solution with the smallest `objective`, by branch and bound."""
        return self._optimize(objective, False, options)

    def maximize(self, objective: Union[LinearExpr, int], **options: Any) -> SearchResult:
        """The solution with the largest `objective`, by branch and bound."""
        return self._optimize(objective, True, options)

    def board(self, solution: Solution) -> Any:
        """How a solution is drawn: the list of values (built-in models draw boards)."""
        return solution.values_list

    def __repr__(self) -> str:
        """A short description."""
        return f"Model({len(self._vars)} variables, {self.num_constraints} constraints)"

    # --- The teaching views: trace, tree, compare (the work is in cspkit/_views.py) ---

    def trace(
        self, max_lines: int = 1000, *, domains: bool = False, solutions: int = 1,
        **options: Any,
    ) -> list:
        """The lines ``cspkit ... --trace`` prints for a search of this model: at most
        `max_lines`, then one saying what was cut (the search itself runs on).

        `solutions` is how many to search for (0: all, as ``--count``); `domains` adds the
        domains of the unfixed variables after each node (``--trace-domains``); `options`
        are the search options.
        """
        return _views.trace(self, max_lines, domains, solutions, options)

    def trace_events(
        self, max_events: int = 100_000, *, domains: bool = False, solutions: int = 1,
        **options: Any,
    ) -> list:
        """The events of a search of this model, one dict each, at most `max_events` (the
        search stops there).

        Every dict has ``kind``: ``node`` (``node``, ``parent``, ``var``, ``var_index``,
        ``value``, ``branch`` one of ``= ≠ ≤ >``, ``depth``), ``failure`` (``node``,
        ``constraint``, ``var``, ``depth``), ``backtrack`` (``var``, ``var_index``,
        ``value``, ``depth``), ``solution`` (``node``, ``depth``), ``arc_queue`` and
        ``revise`` (AC-3), ``improved``; with `domains`, also ``pruned`` (``var``,
        ``before``, ``after``, ``constraint``) and ``propagated`` (``domains``, every
        variable's values by index). Variables and constraints are named.
        """
        return _views.trace_events(self, max_events, domains, solutions, options)

    def tree_html(
        self, *, tree_limit: int = _views.TREE_LIMIT, solutions: int = 1, **options: Any
    ) -> str:
        """The search tree as the self-contained page ``--tree page.html`` writes (the
        board and domains at each node, keys to walk it), at most `tree_limit` nodes
        recorded; `solutions` to search for (0: all)."""
        return _views.tree_html(self, tree_limit, solutions, options)

    def tree_svg(
        self, *, tree_limit: int = _views.TREE_LIMIT, width: Optional[int] = None,
        height: Optional[int] = None, solutions: int = 1, **options: Any,
    ) -> str:
        """The search tree as the SVG picture ``--tree tree.svg`` draws, fitting `width` x
        `height` (the 16:9 slide of ``--tree-size`` by default)."""
        return _views.tree_svg(self, tree_limit, width, height, solutions, options)

    def tree_session(
        self, *, tree_limit: int = _views.SESSION_TREE_LIMIT, solutions: int = 1,
        **options: Any,
    ) -> "TreeSession":
        """A search of this model to run a slice at a time (:class:`TreeSession`), its tree
        page drawn at any moment: what the notebook widget shows live."""
        return TreeSession(self, tree_limit=tree_limit, solutions=solutions, **options)

    def compare(self, *strategies: dict, solutions: int = 1) -> list:
        """One row per strategy (a dict of search options) of the searches of this model,
        for ``pandas.DataFrame(rows)``: see :func:`cspkit.compare`."""
        return _views.compare(self, *strategies, solutions=solutions)

    # --- The notebook widget (the work is in cspkit/widget.py, which needs anywidget) ---

    def tree(self, **options: Any) -> Any:
        """The notebook widget of a search of this model: its tree page, drawn live as the
        search runs in the background, the board and domains of the node clicked, the
        counts and a Stop button; ``display(model.tree(solutions=0))`` or a cell's last
        line. `options` are :class:`cspkit.widget.TreeWidget`'s (``slice_nodes``,
        ``every``, ``live_nodes``, ``final_nodes``, ``height``, ``start``) and
        :meth:`tree_session`'s (``solutions``, ``tree_limit``, the search options).

        Raises ImportError naming ``pip install "cspkit[notebook]"`` without anywidget.
        """
        from .widget import TreeWidget

        return TreeWidget(self, **options)

class QueensModel(Model):
    """The N-Queens model: ``rows[i]`` is the column of row `i`'s queen.

    Its searches use forward checking unless told otherwise, as the command line's do.
    """

    default_options = {"propagation": "forward"}

    rows: list

    def board(self, solution: Solution) -> str:
        """The board, one line per row, ``Q`` for a queen and ``.`` for an empty square."""
        n = len(self.rows)
        first = self.rows[0].bounds[0] if self.rows else 0
        return "\n".join(
            "".join("Q" if solution[row] - first == col else "." for col in range(n))
            for row in self.rows
        )


class SudokuModel(Model):
    """A Sudoku model: ``cells[r][c]`` is the variable of row `r`, column `c`."""

    cells: list

    def board(self, solution: Solution) -> list:
        """The solved grid as a list of rows of digits."""
        return [[solution[cell] for cell in row] for row in self.cells]

    # --- The puzzle tools of `cspkit sudoku` (the work is in cspkit/_views.py) ---
    # They read the givens (the cells fixed when the model was made), not constraints posted
    # since.

    def grade(
        self, *, decision_limit: int = _views.PUZZLE_DECISION_LIMIT,
        time_limit: Optional[float] = None,
    ) -> dict:
        """How hard the puzzle is, as ``--grade`` says: a dict of ``difficulty``
        (``given``, ``forward``: naked singles solve it, ``full``: single-unit reasoning
        does, ``search``: it needs a guess), ``hardest`` (the hardest technique, or None),
        ``rounds``, ``decisions``, ``guesses``, ``techniques`` ({name: times used}),
        ``unique`` (None when a limit stopped the count of solutions), and the rating by
        human techniques on grids up to 9x9: ``rating`` (Sudoku Explainer scale),
        ``rating_hardest`` (its hardest step) and ``level`` (the technique ladder), None on
        larger grids.

        Raises CspkitError when the puzzle has no solution or a limit stopped the grading.
        """
        return _views.sudoku_grade(self, decision_limit, time_limit)

    def explain(
        self, *, decision_limit: int = _views.PUZZLE_DECISION_LIMIT,
        time_limit: Optional[float] = None,
    ) -> list:
        """A solving path, one deduction a line, as ``--explain`` prints it: each line
        places or removes values with the reason, guesses (from the solution) where no
        deduction is left, and the last says ``solved`` or gives the contradiction of a
        puzzle without solution. Raises CspkitError when a limit stopped it."""
        return _views.sudoku_explain(self, decision_limit, time_limit)

    def hint(
        self, *, decision_limit: int = _views.PUZZLE_DECISION_LIMIT,
        time_limit: Optional[float] = None,
    ) -> Optional[str]:
        """The next deduction, as ``--hint`` prints it (the first line of the path without
        guesses)."""
        return _views.sudoku_hint(self, decision_limit, time_limit)

    def why(
        self, row: Optional[int] = None, col: Optional[int] = None, *,
        decision_limit: int = _views.PUZZLE_DECISION_LIMIT,
        time_limit: Optional[float] = None,
    ) -> Any:
        """Why, in Sudoku's words.

        With no cell: which givens clash, as ``--why`` finds them: None when the puzzle has
        a solution, else a dict of ``givens`` ((row, col, value) triples, 1-based), whether
        the set is proved ``minimal``, and the ``lines`` ``--why`` prints (the deductions
        that show the clash). With a cell (1-based `row`, `col`): the line of the solving
        path (:meth:`explain`) that places it, or None for a given.
        """
        return _views.sudoku_why(self, row, col, decision_limit, time_limit)


def queens(n: int) -> QueensModel:
    """The library's N-Queens model with `n` queens (one variable per row)."""
    raw, rows = _cspkit.queens(n)
    model = QueensModel._wrapping(raw)
    model.rows = [model._vars[i] for i in rows]
    return model


def sudoku(grid_text: str) -> SudokuModel:
    """The Sudoku model of a grid in any format the command line reads (81 characters,
    ``.`` or ``0`` for an empty cell, or the grid drawn on lines)."""
    raw, cells, side = _cspkit.sudoku(grid_text)
    model = SudokuModel._wrapping(raw)
    model.cells = [[model._vars[cells[r * side + c]] for c in range(side)]
                   for r in range(side)]
    return model


# CPMpy back-end: registered with CPMpy's SolverLookup (name "cspkit") when CPMpy is
# installed. Without CPMpy, `import cspkit` only pays for one `find_spec` look-up.
def _register_cpmpy_backend() -> None:
    import importlib.util

    if importlib.util.find_spec("cpmpy") is not None:
        from . import cpmpy_backend  # noqa: F401  (registers on import)


_register_cpmpy_backend()
