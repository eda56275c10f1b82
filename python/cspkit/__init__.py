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

The search runs in Rust with the GIL released; Ctrl-C stops it and raises
``KeyboardInterrupt``. Search options have the command line's names: ``propagation``
(``none``, ``fc``, ``forward``, ``full``/``mac``, ``ac3``), ``var_order`` (``input``,
``mrv``, ``mrv-random``, ``dom-deg``, ``dom-wdeg``), ``value_order`` (``asc``, ``desc``,
``middle``, ``random``, ``lcv``), ``branching`` (``assign``, ``split``, ``dway``),
``counting`` (``cspkit``, ``aima``: whether a variable propagation fixed is still assigned by
a decision of its own, as AIMA's BACKTRACKING-SEARCH does), ``restarts`` (``luby``,
``geometric``) with ``restart_base`` (failures, 100) and ``restart_factor`` (1.5),
``node_limit`` (decisions), ``time_limit`` (seconds) and ``seed``; ``minimize`` and
``maximize`` also take ``lns=True`` (large neighbourhood search).
"""

from __future__ import annotations

import builtins

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Optional, Union

from . import _cspkit
from ._cspkit import CspkitError

__all__ = [
    "BoolVar",
    "Constraint",
    "Count",
    "CspkitError",
    "IntVar",
    "LinearExpr",
    "Model",
    "QueensModel",
    "SearchResult",
    "Solution",
    "Solutions",
    "SudokuModel",
    "all_different",
    "circuit",
    "element",
    "global_cardinality",
    "inverse",
    "lex_less_eq",
    "queens",
    "sudoku",
    "sum",
    "table",
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


def element(array: Iterable[int], index: IntVar, value: IntVar) -> Constraint:
    """``array[index] == value``, with a 0-based `index`."""
    model, (i, v) = _indices(None, [index, value], "element")
    return Constraint("element", model, ([int(a) for a in array], i, v), "array[index] == value")


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
    vars: Iterable[IntVar], values: Iterable[int], counts: Iterable[IntVar]
) -> Constraint:
    """Exactly ``counts[k]`` of the variables take the value ``values[k]``."""
    vars, counts, values = list(vars), list(counts), [int(v) for v in values]
    model, indices = _indices(None, vars + counts, "global_cardinality")
    payload = (indices[: len(vars)], values, indices[len(vars):])
    return Constraint("global_cardinality", model, payload, f"{len(values)} values")


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
        """Raises TypeError: a constraint is posted, not tested."""
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
        post = getattr(self._raw, f"post_{constraint.kind}")
        if constraint.kind == "linear":
            terms, constant, op = constraint._payload
            post([(c, i) for i, c in terms.items() if c != 0], constant, op)
        else:
            post(*constraint._payload)
        return self

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


def queens(n: int) -> QueensModel:
    """The library's N-Queens model with `n` queens (one variable per row)."""
    raw, rows = _cspkit.queens(n)
    model = QueensModel._wrapping(raw)
    model.rows = [model._var(i) for i in rows]
    return model


def sudoku(grid_text: str) -> SudokuModel:
    """The Sudoku model of a grid in any format the command line reads (81 characters,
    ``.`` or ``0`` for an empty cell, or the grid drawn on lines)."""
    raw, cells, side = _cspkit.sudoku(grid_text)
    model = SudokuModel._wrapping(raw)
    model.cells = [[model._var(cells[r * side + c]) for c in range(side)] for r in range(side)]
    return model


# CPMpy back-end: registered with CPMpy's SolverLookup (name "cspkit") when CPMpy is
# installed. Without CPMpy, `import cspkit` only pays for one `find_spec` look-up.
def _register_cpmpy_backend() -> None:
    import importlib.util

    if importlib.util.find_spec("cpmpy") is not None:
        from . import cpmpy_backend  # noqa: F401  (registers on import)


_register_cpmpy_backend()
