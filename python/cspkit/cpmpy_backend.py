"""CPMpy models solved by cspkit: the solver interface ``CPM_cspkit``, name ``"cspkit"``.

``import cspkit`` registers it with CPMpy's ``SolverLookup`` when CPMpy is installed, so::

    import cpmpy as cp
    import cspkit  # noqa: F401  (registers the "cspkit" solver)

    x = cp.intvar(1, 9, shape=3, name="x")
    model = cp.Model(cp.AllDifferent(x), cp.sum(x) == 12)
    model.solve(solver="cspkit", var_order="dom-wdeg")

How a CPMpy model reaches cspkit: CPMpy's own transformations (the ones its other
constraint-programming back-ends use) bring each constraint into a flat normal form —
linear comparisons, ``bv -> constraint`` half-reifications, clauses, a few global
constraints and ``f(x, y) == z`` for the non-linear functions — and this module posts
each form with cspkit's constraints:

- linear comparisons (``sum``, ``wsum``, ``sub``, a variable) as cspkit's linear constraints;
  a negated boolean ``~b`` is ``1 - b``;
- ``b1 & ... & bn -> linear`` (and clauses) as one linear constraint with a big-M term
  computed from the variables' bounds (exact for integers);
- ``b -> (linear != k)`` as a table over ``b`` and a variable equal to the linear sum;
- ``AllDifferent``, ``Table``, ``Circuit``, ``Inverse``, ``GlobalCardinalityCount`` as
  cspkit's own constraints; every other global is decomposed by CPMpy;
- ``x * y``, ``x // y``, ``x % y``, ``x ** y`` as tables of the function over the
  arguments' domains (at most ``MAX_TABLE_ROWS`` rows, else ``NotSupportedError``).

Search options (``propagation``, ``var_order``, ``value_order``, ``branching``, ``restarts``,
``seed``, ``node_limit``, ...) pass through ``solve(**options)``; by default the back-end
searches with maintained arc consistency and ``dom-wdeg``. Floats, solution hints,
assumptions and the other solver-specific features of CPMpy raise ``NotSupportedError``.
"""

from __future__ import annotations

import itertools
import time
from typing import Any, Optional

from cpmpy.exceptions import NotSupportedError
from cpmpy.expressions.core import BoolVal, Comparison, Expression, Operator
from cpmpy.expressions.globalconstraints import GlobalConstraint
from cpmpy.expressions.utils import is_any_list, is_bool, is_num
from cpmpy.expressions.variables import NegBoolView, _BoolVarImpl, _NumVarImpl
from cpmpy.solvers.solver_interface import ExitStatus, SolverInterface, SolverStatus
from cpmpy.solvers.utils import SolverLookup
from cpmpy.transformations.comparison import only_numexpr_equality
from cpmpy.transformations.decompose_global import decompose_in_tree, decompose_objective
from cpmpy.transformations.flatten_model import flatten_constraint, get_or_make_var
from cpmpy.transformations.get_variables import get_variables
from cpmpy.transformations.linearize import canonical_comparison
from cpmpy.transformations.negation import push_down_negation
from cpmpy.transformations.normalize import toplevel_list
from cpmpy.transformations.reification import only_bv_reifies, only_implies, reify_rewrite
from cpmpy.transformations.safening import no_partial_functions, safen_objective

import cspkit

__all__ = ["CPM_cspkit", "MAX_TABLE_ROWS", "register"]

#: The largest table a non-linear function (``*``, ``//``, ``%``, ``**``) or a reified
#: ``!=`` may become; a larger one raises ``NotSupportedError``.
MAX_TABLE_ROWS = 200_000

#: The search options the back-end uses unless ``solve(**options)`` says otherwise.
DEFAULT_OPTIONS = {"propagation": "full", "var_order": "dom-wdeg"}

# A linear expression: ({variable index: coefficient}, constant).
_Linear = tuple


def _truncated_div(a: int, b: int) -> int:
    """Integer division rounding towards zero, as CPMpy's ``//``."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _function_value(name: str, args: list) -> Optional[int]:
    """The value of CPMpy's numeric function `name` at integer `args`, None where undefined."""
    if name == "mul":
        product = 1
        for a in args:
            product *= a
        return product
    a, b = args
    if name == "div":
        return None if b == 0 else _truncated_div(a, b)
    if name == "mod":
        return None if b == 0 else a - b * _truncated_div(a, b)
    if name == "pow":
        return None if b < 0 else a**b
    raise NotSupportedError(f"cspkit: the function {name!r} is not supported")


class CPM_cspkit(SolverInterface):
    """CPMpy's solver interface to cspkit: ``SolverLookup.get("cspkit", model)``.

    Creates the following attributes (see CPMpy's ``SolverInterface`` for the others):

    - ``cspkit_model``: the :class:`cspkit.Model` the constraints are posted to
    - ``last_stats``: the statistics of the last search (a dict)
    """

    supported_global_constraints = frozenset(
        {"alldifferent", "table", "circuit", "inverse", "gcc", "mul", "div", "mod", "pow"}
    )
    supported_reified_global_constraints = frozenset()

    @staticmethod
    def supported() -> bool:
        """cspkit is always available where this module can be imported."""
        return True

    @staticmethod
    def version() -> Optional[str]:
        """The installed version of the cspkit package."""
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("cspkit")
        except PackageNotFoundError:
            return None

    def __init__(self, cpm_model=None, subsolver=None, **options: Any) -> None:
        """A cspkit solver for `cpm_model` (optional); `options` are default search options.

        Arguments:
            cpm_model: a CPMpy ``Model`` whose constraints and objective are posted.
            subsolver: not used; must be None.
            options: cspkit search options used by every search of this solver
                (``propagation``, ``var_order``, ...), over :data:`DEFAULT_OPTIONS`.
        """
        if subsolver is not None:
            raise NotSupportedError(f"cspkit has no subsolvers (got {subsolver!r})")
        self.cspkit_model = cspkit.Model()
        self._raw = self.cspkit_model._raw
        self._bounds: list = []  # (lo, hi) per cspkit variable index
        self._constants: dict = {}  # value -> index of a fixed variable
        self._sparse: dict = {}  # index -> the values a product's auxiliary can take
        self._objective: Optional[_Linear] = None
        self._objective_is_min = True
        self._options = {**DEFAULT_OPTIONS, **options}
        self._aux_count = 0
        self.last_stats: dict = {}
        super().__init__(name="cspkit", cpm_model=cpm_model)

    @property
    def native_model(self) -> "cspkit.Model":
        """The underlying :class:`cspkit.Model`."""
        return self.cspkit_model

    # ------------------------------------------------------------------ variables

    def _new_var(self, lo: int, hi: int, name: Optional[str], boolean: bool = False) -> int:
        if boolean:
            index = self.cspkit_model.bool_var(name).index
        else:
            index = self.cspkit_model.int_var(int(lo), int(hi), name).index
        self._bounds.append((int(lo), int(hi)))
        return index

    def _aux_var(self, lo: int, hi: int) -> int:
        self._aux_count += 1
        return self._new_var(lo, hi, f"_cspkit_aux{self._aux_count}")

    def _constant_var(self, value: int) -> int:
        value = int(value)
        if value not in self._constants:
            self._constants[value] = self._new_var(value, value, f"_cspkit_const{value}")
        return self._constants[value]

    def solver_var(self, cpm_var) -> int:
        """The cspkit variable index of a CPMpy variable (created on first use).

        A negated boolean ``~b`` has no index of its own: constraints use ``1 - b``.
        """
        if isinstance(cpm_var, NegBoolView):
            raise NotSupportedError("cspkit: a negated boolean has no variable of its own")
        if isinstance(cpm_var, _NumVarImpl):
            index = self._varmap.get(cpm_var.name)
            if index is None:
                if cpm_var.is_bool():
                    index = self._new_var(0, 1, cpm_var.name, boolean=True)
                else:
                    index = self._new_var(cpm_var.lb, cpm_var.ub, cpm_var.name)
                self._varmap[cpm_var.name] = index
            return index
        raise NotSupportedError(f"cspkit: not a variable: {cpm_var!r}")

    def _var_or_constant(self, arg) -> int:
        """The index of a variable, or of a fixed variable for a constant or ``~b``."""
        if is_num(arg):
            if isinstance(arg, float) and not float(arg).is_integer():
                raise NotSupportedError(f"cspkit: floats are not supported ({arg})")
            return self._constant_var(int(arg))
        if isinstance(arg, NegBoolView):
            index = self._aux_var(0, 1)
            self._post_linear(self._sum(self._linear(arg), ({index: -1}, 0)), "==")
            return index
        if isinstance(arg, _NumVarImpl):
            return self.solver_var(arg)
        raise NotSupportedError(f"cspkit: expected a variable or a constant, got {arg}")

    # ------------------------------------------------------------------ linear algebra

    @staticmethod
    def _sum(a: _Linear, b: _Linear, scale: int = 1) -> _Linear:
        terms = dict(a[0])
        for index, c in b[0].items():
            terms[index] = terms.get(index, 0) + scale * c
        return terms, a[1] + scale * b[1]

    @staticmethod
    def _scale(a: _Linear, factor: int) -> _Linear:
        return {i: factor * c for i, c in a[0].items()}, factor * a[1]

    def _range(self, lin: _Linear) -> tuple:
        """The smallest and largest values of a linear expression over the bounds."""
        lo = hi = lin[1]
        for index, c in lin[0].items():
            vlo, vhi = self._bounds[index]
            lo += min(c * vlo, c * vhi)
            hi += max(c * vlo, c * vhi)
        return lo, hi

    def _linear(self, expr) -> _Linear:
        """The linear form of a numeric expression of the flat normal form."""
        if is_num(expr):
            if isinstance(expr, float) and not float(expr).is_integer():
                raise NotSupportedError(f"cspkit: floats are not supported ({expr})")
            return {}, int(expr)
        if isinstance(expr, BoolVal):
            return {}, int(expr.value())
        if isinstance(expr, NegBoolView):
            return {self.solver_var(expr._bv): -1}, 1
        if isinstance(expr, _NumVarImpl):
            return {self.solver_var(expr): 1}, 0
        if isinstance(expr, Expression):
            name, args = expr.name, expr.args
            if name == "sum":
                total: _Linear = ({}, 0)
                for arg in args:
                    total = self._sum(total, self._linear(arg))
                return total
            if name == "wsum":
                total = ({}, 0)
                for weight, arg in zip(args[0], args[1]):
                    total = self._sum(total, self._linear(arg), self._integer(weight))
                return total
            if name == "sub":
                return self._sum(self._linear(args[0]), self._linear(args[1]), -1)
            if name == "-":
                return self._scale(self._linear(args[0]), -1)
            if name == "mul" and len(args) == 2 and (is_num(args[0]) or is_num(args[1])):
                constant, other = (args[0], args[1]) if is_num(args[0]) else (args[1], args[0])
                return self._scale(self._linear(other), self._integer(constant))
            if name in ("mul", "div", "mod", "pow"):
                return {self._function_var(expr): 1}, 0
        raise NotSupportedError(f"cspkit: the expression {expr} is not supported")

    @staticmethod
    def _integer(value) -> int:
        if isinstance(value, float) and not float(value).is_integer():
            raise NotSupportedError(f"cspkit: floats are not supported ({value})")
        return int(value)

    # ------------------------------------------------------------------ posting

    def _post_linear(self, lin: _Linear, op: str) -> None:
        """Posts ``lin op 0``."""
        terms = [(c, i) for i, c in lin[0].items() if c != 0]
        if not terms:
            holds = {"==": lin[1] == 0, "!=": lin[1] != 0, "<=": lin[1] <= 0,
                     "<": lin[1] < 0, ">=": lin[1] >= 0, ">": lin[1] > 0}[op]
            if not holds:
                self._post_false()
            return
        self._raw.post_linear(terms, lin[1], op)

    def _post_false(self) -> None:
        self._raw.post_linear([(1, self._constant_var(0))], -1, "==")

    def _post_implied_le(self, conditions: list, lin: _Linear) -> None:
        """Posts ``c1 & ... & cn -> lin <= 0`` with a big-M term (conditions are literals)."""
        if not conditions:
            self._post_linear(lin, "<=")
            return
        big_m = self._range(lin)[1]
        if big_m <= 0:
            return  # holds whatever the conditions
        # lin <= M * sum(1 - c_i)
        total = lin
        for condition in conditions:
            total = self._sum(total, self._linear(condition), big_m)
        total = (total[0], total[1] - big_m * len(conditions))
        self._post_linear(total, "<=")

    def _post_implied_comparison(self, conditions: list, lin: _Linear, op: str) -> None:
        """Posts ``conditions -> lin op 0``."""
        if op == "<=":
            self._post_implied_le(conditions, lin)
        elif op == "<":
            self._post_implied_le(conditions, (lin[0], lin[1] + 1))
        elif op == ">=":
            self._post_implied_le(conditions, self._scale(lin, -1))
        elif op == ">":
            negated = self._scale(lin, -1)
            self._post_implied_le(conditions, (negated[0], negated[1] + 1))
        elif op == "==":
            self._post_implied_le(conditions, lin)
            self._post_implied_le(conditions, self._scale(lin, -1))
        elif op == "!=":
            self._post_implied_not_equal(conditions, lin)
        else:
            raise NotSupportedError(f"cspkit: the comparison {op!r} is not supported")

    def _post_implied_not_equal(self, conditions: list, lin: _Linear) -> None:
        """Posts ``conditions -> lin != 0`` as a table over a condition and ``lin``'s value."""
        if not conditions:
            self._post_linear(lin, "!=")
            return
        lo, hi = self._range(lin)
        if not lo <= 0 <= hi:
            return
        if len(conditions) > 1:
            # one literal implied by all the conditions stands for them
            both = self._aux_var(0, 1)
            self._post_implied_le(conditions, ({both: -1}, 1))
            conditions = [self._cpm_index_literal(both)]
        if 2 * (hi - lo + 1) > MAX_TABLE_ROWS:
            raise NotSupportedError(
                f"cspkit: a reified != over a range of {hi - lo + 1} values is too large"
            )
        condition = conditions[0]
        if isinstance(condition, tuple):  # an aux literal: (index, active value)
            cond_index, active = condition
        elif isinstance(condition, NegBoolView):
            cond_index, active = self.solver_var(condition._bv), 0
        else:
            cond_index, active = self.solver_var(condition), 1
        value = self._aux_var(lo, hi)
        self._post_linear(self._sum(lin, ({value: 1}, 0), -1), "==")
        rows = [[1 - active, v] for v in range(lo, hi + 1)]
        rows += [[active, v] for v in range(lo, hi + 1) if v != 0]
        self._raw.post_table([cond_index, value], rows)

    @staticmethod
    def _cpm_index_literal(index: int) -> tuple:
        return (index, 1)

    def _post_implied(self, conditions: list, expr) -> None:
        """Posts ``conditions -> expr`` (no conditions: ``expr`` itself)."""
        if isinstance(expr, (bool,)) or (is_bool(expr) and not isinstance(expr, Expression)):
            if not expr:
                self._post_implied_le(conditions, ({}, 1))
            return
        if isinstance(expr, BoolVal):
            if not expr.value():
                self._post_implied_le(conditions, ({}, 1))
            return
        if isinstance(expr, _BoolVarImpl):  # a literal: lit >= 1
            self._post_implied_le(conditions, self._sum(({}, 1), self._linear(expr), -1))
            return
        if isinstance(expr, Operator):
            if expr.name == "and":
                for arg in expr.args:
                    self._post_implied(conditions, arg)
                return
            if expr.name == "or":  # clause: sum(lits) >= 1
                total: _Linear = ({}, 1)
                for arg in expr.args:
                    if not isinstance(arg, _BoolVarImpl):
                        raise NotSupportedError(f"cspkit: a disjunct is not a literal: {arg}")
                    total = self._sum(total, self._linear(arg), -1)
                self._post_implied_le(conditions, total)
                return
            if expr.name == "->":
                condition, consequence = expr.args
                if not isinstance(condition, _BoolVarImpl):
                    raise NotSupportedError(f"cspkit: the condition {condition} is not a literal")
                self._post_implied(conditions + [condition], consequence)
                return
        if isinstance(expr, Comparison):
            lhs, rhs = expr.args
            if not conditions and expr.name == "==" and getattr(lhs, "name", None) in (
                "mul", "div", "mod", "pow"
            ) and not self._is_linear_mul(lhs):
                self._post_function(lhs, rhs)
                return
            lin = self._sum(self._linear(lhs), self._linear(rhs), -1)
            self._post_implied_comparison(conditions, lin, expr.name)
            return
        if isinstance(expr, GlobalConstraint):
            if conditions:
                raise NotSupportedError(f"cspkit: the reified global constraint {expr}")
            self._post_global(expr)
            return
        raise NotSupportedError(f"cspkit: the constraint {expr} is not supported")

    @staticmethod
    def _is_linear_mul(expr) -> bool:
        return expr.name == "mul" and len(expr.args) == 2 and any(is_num(a) for a in expr.args)

    def _values(self, index: int) -> range:
        """The values a variable may take: its reachable values for a product's auxiliary."""
        if index in self._sparse:
            return self._sparse[index]
        lo, hi = self._bounds[index]
        return range(lo, hi + 1)

    def _function_table(self, name: str, arg_indices: list) -> list:
        """The rows ``[*args, f(args)]`` of a function over its arguments' values."""
        size = 1
        for index in arg_indices:
            size *= len(self._values(index))
        if size > MAX_TABLE_ROWS:
            raise NotSupportedError(
                f"cspkit: the function {name!r} over {size} argument combinations "
                f"is more than {MAX_TABLE_ROWS} table rows"
            )
        table = []
        for row in itertools.product(*(self._values(i) for i in arg_indices)):
            value = _function_value(name, list(row))
            if value is not None:
                table.append([*row, value])
        return table

    def _binary_arguments(self, function) -> tuple:
        """The function's name and argument indices; a product of more than two
        factors becomes a chain of binary products over auxiliary variables."""
        args = [self._var_or_constant(a) for a in function.args]
        if function.name != "mul":
            return function.name, args
        while len(args) > 2:
            rows = self._function_table("mul", args[:2])
            values = sorted({r[-1] for r in rows})
            product = self._aux_var(values[0], values[-1])
            self._sparse[product] = values
            self._raw.post_table(args[:2] + [product], rows)
            args = [product] + args[2:]
        return "mul", args

    def _table_too_large(self, function) -> bool:
        """Whether a product's table would exceed MAX_TABLE_ROWS (then cspkit's own product
        constraint, which reasons on bounds, takes it)."""
        if function.name != "mul":
            return False
        size = 1
        for arg in function.args:
            size *= len(self._values(self._var_or_constant(arg)))
        return size > MAX_TABLE_ROWS

    def _product_var(self, function) -> int:
        """A new variable equal to the product of the function's factors, posted as cspkit's
        product constraint over bounds (no table)."""
        factors = [self._var_or_constant(a) for a in function.args]
        lo, hi = 1, 1
        for index in factors:
            f_lo, f_hi = self._bounds[index]
            corners = [lo * f_lo, lo * f_hi, hi * f_lo, hi * f_hi]
            lo, hi = min(corners), max(corners)
        if lo < -(2**31) or hi > 2**31 - 1:
            raise NotSupportedError(
                f"cspkit: a product of {len(factors)} factors ranges over [{lo}, {hi}], "
                "beyond 32-bit integers"
            )
        index = self._aux_var(lo, hi)
        self._raw.post_constraint("product", (factors, index))
        return index

    def _post_function(self, function, target) -> None:
        """Posts ``function(args) == target`` as a table (a large product as cspkit's
        product constraint)."""
        if self._table_too_large(function):
            factors = [self._var_or_constant(a) for a in function.args]
            self._raw.post_constraint("product", (factors, self._var_or_constant(target)))
            return
        name, args = self._binary_arguments(function)
        target_index = self._var_or_constant(target)
        lo, hi = self._bounds[target_index]
        rows = [r for r in self._function_table(name, args) if lo <= r[-1] <= hi]
        self._raw.post_table(args + [target_index], rows)

    def _function_var(self, function) -> int:
        """A new variable equal to ``function(args)`` (for a function nested in a sum)."""
        if self._table_too_large(function):
            return self._product_var(function)
        name, args = self._binary_arguments(function)
        rows = self._function_table(name, args)
        if not rows:
            self._post_false()
            return self._constant_var(0)
        values = sorted({r[-1] for r in rows})
        index = self._aux_var(values[0], values[-1])
        self._sparse[index] = values
        self._raw.post_table(args + [index], rows)
        return index

    def _post_global(self, expr) -> None:
        name = expr.name
        if name == "alldifferent":
            self._raw.post_all_different([self._var_or_constant(a) for a in expr.args])
        elif name == "table":
            array, rows = expr.args
            self._raw.post_table(
                [self._var_or_constant(a) for a in array],
                [[self._integer(v) for v in row] for row in rows],
            )
        elif name == "circuit":
            self._raw.post_circuit([self._var_or_constant(a) for a in expr.args])
        elif name == "inverse":
            forward, reverse = expr.args
            self._raw.post_inverse(
                [self._var_or_constant(a) for a in forward],
                [self._var_or_constant(a) for a in reverse],
            )
        elif name == "gcc":
            variables, values, occurrences = expr.args
            indices = [self._var_or_constant(a) for a in variables]
            values = [self._integer(v) for v in values]
            self._raw.post_global_cardinality(
                indices, values, [self._var_or_constant(a) for a in occurrences]
            )
            if getattr(expr, "closed", False):
                for index in indices:
                    self._raw.post_table([index], [[v] for v in values])
        else:
            raise NotSupportedError(f"cspkit: the global constraint {expr} is not supported")

    # ------------------------------------------------------------------ CPMpy's interface

    def transform(self, cpm_expr) -> list:
        """CPMpy's transformations into the flat normal form this back-end posts."""
        cpm_cons = toplevel_list(cpm_expr)
        cpm_cons = no_partial_functions(cpm_cons)  # a table leaves out x // 0 itself
        cpm_cons = push_down_negation(cpm_cons)
        cpm_cons = decompose_in_tree(
            cpm_cons,
            supported=self.supported_global_constraints,
            supported_reified=self.supported_reified_global_constraints,
            csemap=self._csemap,
        )
        cpm_cons = flatten_constraint(cpm_cons, csemap=self._csemap)
        cpm_cons = reify_rewrite(
            cpm_cons, supported=frozenset({"sum", "wsum", "sub"}), csemap=self._csemap
        )
        cpm_cons = only_numexpr_equality(
            cpm_cons, supported=frozenset({"sum", "wsum", "sub"}), csemap=self._csemap
        )
        cpm_cons = only_bv_reifies(cpm_cons, csemap=self._csemap)
        cpm_cons = only_implies(cpm_cons, csemap=self._csemap)
        cpm_cons = canonical_comparison(cpm_cons)
        return cpm_cons

    def add(self, cpm_expr) -> "CPM_cspkit":
        """Transforms and posts constraints (a CPMpy expression or a list of them).

        Raises ``NotSupportedError`` for what cspkit cannot express.
        """
        get_variables(cpm_expr, collect=self.user_vars)
        for constraint in self.transform(cpm_expr):
            self._post_implied([], constraint)
        return self

    __add__ = add

    def objective(self, expr, minimize: bool = True) -> None:
        """Sets the objective to minimise (or maximise); the last one set counts."""
        get_variables(expr, collect=self.user_vars)
        obj, safe_cons = safen_objective(expr)
        obj, decomp_cons = decompose_objective(
            obj,
            supported=self.supported_global_constraints,
            supported_reified=self.supported_reified_global_constraints,
            csemap=self._csemap,
        )
        self.add(safe_cons + decomp_cons)
        try:
            self._objective = self._linear(obj)
        except NotSupportedError:
            obj_var, obj_cons = get_or_make_var(obj)
            self.add(obj_cons)
            self._objective = self._linear(obj_var)
        self._objective_is_min = minimize

    def has_objective(self) -> bool:
        """Whether an objective is set."""
        return self._objective is not None

    def _search_options(self, time_limit, kwargs: dict) -> dict:
        options = {**self._options, **kwargs}
        if time_limit is not None:
            if time_limit < 0:
                raise ValueError(f"Time limit cannot be negative, but got {time_limit}")
            options["time_limit"] = float(time_limit)
        return options

    def _store(self, values: Optional[list]) -> None:
        for cpm_var in self.user_vars:
            if values is None:
                cpm_var._value = None
            else:
                value = values[self.solver_var(cpm_var)]
                cpm_var._value = bool(value) if cpm_var.is_bool() else value

    def solve(self, time_limit: Optional[float] = None, **kwargs: Any) -> bool:
        """Searches for a solution (the optimum with an objective); True when one is found.

        Arguments:
            time_limit: seconds, optional.
            kwargs: cspkit search options (``propagation``, ``var_order``, ``value_order``,
                ``branching``, ``restarts``, ``node_limit``, ``seed``, ``lns``, ...).
        """
        if kwargs.pop("assumptions", None) is not None:
            raise NotSupportedError("cspkit: solving under assumptions is not supported")
        self.solver_vars(list(self.user_vars))
        options = self._search_options(time_limit, kwargs)
        self.cpm_status = SolverStatus(self.name)
        start = time.time()
        if self.has_objective():
            terms = [(c, i) for i, c in self._objective[0].items() if c != 0]
            status, values, value, stats = self._raw.optimize(
                terms, self._objective[1], not self._objective_is_min, **options
            )
            self.objective_value_ = value
        else:
            status, values, stats = self._raw.solve(**options)
        self.cpm_status.runtime = time.time() - start
        self.cpm_status.solve_time = self.cpm_status.runtime
        self.last_stats = stats
        if status == "optimal":
            self.cpm_status.exitstatus = ExitStatus.OPTIMAL
        elif status == "solved" or (status == "limit" and values is not None):
            self.cpm_status.exitstatus = ExitStatus.FEASIBLE
        elif status == "infeasible":
            self.cpm_status.exitstatus = ExitStatus.UNSATISFIABLE
        else:
            self.cpm_status.exitstatus = ExitStatus.UNKNOWN
        self._store(values)
        if values is None:
            self.objective_value_ = None
        return self._solve_return(self.cpm_status)

    def solveAll(self, display=None, time_limit: Optional[float] = None,
                 solution_limit: Optional[int] = None, call_from_model: bool = False,
                 **kwargs: Any) -> int:
        """Enumerates the solutions with cspkit's own search; returns how many.

        Solutions are counted over the user's variables (auxiliary variables of the
        transformations never make two solutions out of one). `display` is a callback,
        an expression or a list of expressions, as in CPMpy.
        """
        if self.has_objective():
            raise NotSupportedError(
                f"Solver of type {self} does not support finding all optimal solutions!"
            )
        self.solver_vars(list(self.user_vars))
        user_vars = list(self.user_vars)
        indices = [self.solver_var(v) for v in user_vars]
        options = self._search_options(time_limit, kwargs)
        self.cpm_status = SolverStatus(self.name)
        start = time.time()
        seen: set = set()
        iterator = self._raw.solutions(**options)
        for values in iterator:
            key = tuple(values[i] for i in indices)
            if key in seen:
                continue
            seen.add(key)
            self._store(values)
            self.print_display(display)
            if solution_limit is not None and len(seen) >= solution_limit:
                break
        self.last_stats = iterator.stats
        self.cpm_status.runtime = self.cpm_status.solve_time = time.time() - start
        exhausted = iterator.status == "exhausted" and (
            solution_limit is None or len(seen) < solution_limit
        )
        if not seen:
            self.cpm_status.exitstatus = (
                ExitStatus.UNSATISFIABLE if exhausted else ExitStatus.UNKNOWN
            )
            self._store(None)
        else:
            self.cpm_status.exitstatus = ExitStatus.OPTIMAL if exhausted else ExitStatus.FEASIBLE
        return len(seen)


def register() -> None:
    """Adds ``("cspkit", CPM_cspkit)`` to CPMpy's ``SolverLookup`` (once; after its own)."""
    if getattr(SolverLookup, "_cspkit_registered", False):
        return
    base_solvers = SolverLookup.base_solvers.__func__

    def with_cspkit(cls):
        """CPMpy's solvers, then cspkit."""
        return [*base_solvers(cls), ("cspkit", CPM_cspkit)]

    SolverLookup.base_solvers = classmethod(with_cspkit)
    SolverLookup._cspkit_registered = True


register()
