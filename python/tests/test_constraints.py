"""The catalogue's constraints, reification and boolean constraints from Python, each
checked against a brute-force enumeration of the declared variables' values in Python."""

import itertools
import math

import pytest

import cspkit


def brute_force(domains, check):
    """Every assignment of the domains' product that `check` accepts, as a set of tuples."""
    return {values for values in itertools.product(*domains) if check(*values)}


def found(model, variables, **options):
    """The solutions projected on `variables`; each projection appears once (auxiliary
    variables are determined by the declared ones)."""
    rows = [tuple(s[v] for v in variables) for s in model.solutions(**options)]
    assert len(rows) == len(set(rows)), "two solutions differ only in auxiliary variables"
    return set(rows)


def check(build, domains, predicate, options=({}, {"propagation": "none"},
                                              {"propagation": "full"})):
    """Builds a model over fresh variables with these domains, posts `build(model, vars)`,
    and compares its solutions with the brute force of `predicate`, under each option set."""
    expected = brute_force(domains, predicate)
    for option in options:
        model = cspkit.Model()
        variables = []
        for i, domain in enumerate(domains):
            lo, hi = min(domain), max(domain)
            if (lo, hi) == (0, 1) and len(domain) == 2:
                variables.append(model.bool_var(f"v{i}"))
            else:
                variables.append(model.int_var(lo, hi, f"v{i}"))
        model += build(model, variables)
        assert found(model, variables, **option) == expected, option
    return expected


B = range(2)
SMALL = range(-2, 3)


def test_boolean_clauses():
    assert check(lambda m, v: cspkit.any_of([v[0], ~v[1], v[2]]), [B] * 3,
                 lambda a, b, c: a or not b or c)
    check(lambda m, v: cspkit.all_of([~v[0], v[1]]), [B] * 3, lambda a, b, c: not a and b)
    check(lambda m, v: cspkit.xor(v), [B] * 4, lambda *xs: sum(xs) % 2 == 1)
    check(lambda m, v: cspkit.xor([v[0], ~v[1], True]), [B] * 2,
          lambda a, b: (a + (1 - b) + 1) % 2 == 1)
    check(lambda m, v: cspkit.at_least(2, [v[0], ~v[1], v[2]]), [B] * 3,
          lambda a, b, c: a + (1 - b) + c >= 2)
    check(lambda m, v: cspkit.at_most(1, v), [B] * 3, lambda *xs: sum(xs) <= 1)
    check(lambda m, v: cspkit.exactly(2, v), [B] * 4, lambda *xs: sum(xs) == 2)


def test_full_reification_of_linear_comparisons():
    check(lambda m, v: v[0] == (v[1] + v[2] <= 1), [B, SMALL, SMALL],
          lambda b, x, y: b == (x + y <= 1))
    check(lambda m, v: ~v[0] == (2 * v[1] != v[2]), [B, SMALL, SMALL],
          lambda b, x, y: (1 - b) == (2 * x != y))
    check(lambda m, v: cspkit.reified(v[1] > v[2], v[0]), [B, SMALL, SMALL],
          lambda b, x, y: b == (x > y))
    check(lambda m, v: v[0] != (v[1] == 1), [B, SMALL], lambda b, x: b != (x == 1))


def test_half_reification_both_ways():
    check(lambda m, v: v[0].implies(v[1] != 2), [B, SMALL], lambda b, x: not b or x != 2)
    check(lambda m, v: (~v[0]).implies(v[1] >= 1), [B, SMALL], lambda b, x: b or x >= 1)
    check(lambda m, v: cspkit.implies(v[1] + v[2] <= 0, v[0]), [B, SMALL, SMALL],
          lambda b, x, y: not (x + y <= 0) or b)
    check(lambda m, v: cspkit.implies(v[0], v[1]), [B, B], lambda a, b: not a or b)
    check(lambda m, v: cspkit.implies(cspkit.all_different(v[1:]), v[0]),
          [B, range(3), range(3)], lambda b, x, y: x == y or b)
    check(lambda m, v: cspkit.implies(cspkit.member(v[1], [0, 2]), ~v[0]), [B, SMALL],
          lambda b, x: x not in (0, 2) or not b)
    check(lambda m, v: cspkit.implies(v[0], cspkit.any_of([v[1], v[2]])), [B] * 3,
          lambda a, b, c: not a or b or c)
    check(lambda m, v: cspkit.implies(v[0], cspkit.all_of([v[1], ~v[2]])), [B] * 3,
          lambda a, b, c: not a or (b and not c))
    check(lambda m, v: cspkit.implies(v[0], cspkit.xor([v[1], v[2]])), [B] * 3,
          lambda a, b, c: not a or b != c)


def test_reification_of_boolean_and_global_constraints():
    check(lambda m, v: v[0] == cspkit.any_of(v[1:]), [B] * 4, lambda a, *xs: a == any(xs))
    check(lambda m, v: ~v[0] == cspkit.all_of(v[1:]), [B] * 4,
          lambda a, *xs: (not a) == all(xs))
    check(lambda m, v: v[0] == cspkit.xor(v[1:]), [B] * 4,
          lambda a, *xs: a == (sum(xs) % 2 == 1))
    check(lambda m, v: v[0] == cspkit.all_different(v[1:]), [B, range(3), range(3), range(3)],
          lambda b, *xs: b == (len(set(xs)) == 3))
    check(lambda m, v: ~v[0] == cspkit.member(v[1], [-1, 2]), [B, SMALL],
          lambda b, x: (not b) == (x in (-1, 2)))
    check(lambda m, v: v[0].implies(cspkit.member(v[1], [0, 1])), [B, SMALL],
          lambda b, x: not b or x in (0, 1))
    check(lambda m, v: v[0].implies(cspkit.table(v[1:], [(0, 1), (1, 0)])), [B, range(3),
                                                                            range(3)],
          lambda b, x, y: not b or (x, y) in ((0, 1), (1, 0)))
    check(lambda m, v: v[0] == cspkit.at_least(2, v[1:]), [B] * 4,
          lambda a, *xs: a == (sum(xs) >= 2))


def test_negations():
    check(lambda m, v: ~(v[0] + v[1] <= 1), [SMALL, SMALL], lambda x, y: x + y > 1)
    check(lambda m, v: ~cspkit.all_different(v), [range(3)] * 3,
          lambda *xs: len(set(xs)) < 3)
    check(lambda m, v: cspkit.negation(cspkit.member(v[0], [0, 2])), [SMALL],
          lambda x: x not in (0, 2))
    check(lambda m, v: ~(v[0] == (v[1] <= 0)), [B, SMALL], lambda b, x: b != (x <= 0))
    check(lambda m, v: cspkit.negative_table(v, [(0, 0), (1, 2), (2, 1)]), [range(3)] * 2,
          lambda x, y: (x, y) not in ((0, 0), (1, 2), (2, 1)))


def test_nested_reification_is_lowered_through_a_fresh_boolean():
    check(lambda m, v: cspkit.xor([m.reify(v[1] <= 0), v[0]]), [B, SMALL],
          lambda b, x: (x <= 0) != b)
    check(lambda m, v: m.reify(cspkit.implies(v[0], v[1] == 2)) == (v[2] == 1),
          [B, SMALL, B], lambda b, x, c: (not b or x == 2) == (c == 1))


def test_minimum_maximum_and_arithmetic():
    check(lambda m, v: cspkit.minimum(v[:3], v[3]), [SMALL] * 4,
          lambda a, b, c, z: min(a, b, c) == z)
    check(lambda m, v: cspkit.maximum([v[0], v[1] + 1, 0], v[2]), [SMALL] * 3,
          lambda a, b, z: max(a, b + 1, 0) == z)
    check(lambda m, v: cspkit.abs_eq(v[0], v[1]), [SMALL, SMALL], lambda x, z: abs(x) == z)
    check(lambda m, v: cspkit.times(v[0], v[1], v[2]), [SMALL, SMALL, range(-4, 5)],
          lambda x, y, z: x * y == z)
    check(lambda m, v: cspkit.div(v[0], v[1], v[2]), [range(-5, 6), SMALL, SMALL],
          lambda x, y, z: y != 0 and int(x / y) == z)
    check(lambda m, v: cspkit.mod(v[0], v[1], v[2]), [range(-5, 6), SMALL, SMALL],
          lambda x, y, z: y != 0 and math.fmod(x, y) == z)
    check(lambda m, v: cspkit.pow(v[0], v[1], v[2]), [SMALL, range(0, 3), range(-9, 10)],
          lambda x, y, z: x ** y == z)
    check(lambda m, v: cspkit.product(v[:3], v[3]), [range(1, 4)] * 3 + [range(0, 10)],
          lambda a, b, c, z: a * b * c == z)
    check(lambda m, v: cspkit.times(v[0], 3, v[1]), [SMALL, range(-6, 7)],
          lambda x, z: 3 * x == z)


def test_variables_defined_by_expressions():
    expected = brute_force([SMALL] * 3, lambda x, y, z: abs(x) + max(y, z) == 2 and x * y != 1)
    m = cspkit.Model()
    x, y, z = m.int_vars(3, -2, 2, "v")
    m += m.abs_of(x) + m.max_of([y, z]) == 2
    m += m.times(x, y) != 1
    assert found(m, [x, y, z]) == expected
    m = cspkit.Model()
    x, y = m.int_var(-5, 5, "x"), m.int_var(1, 3, "y")
    q, r, lo = m.div(x, y), m.mod(x, y), m.min_of([x, y])
    assert {(s[x], s[y], s[q], s[r], s[lo]) for s in m.solutions()} == {
        (a, b, int(a / b), int(math.fmod(a, b)), min(a, b))
        for a in range(-5, 6) for b in range(1, 4)
    }
    m = cspkit.Model()
    x, i = m.int_var(0, 9, "x"), m.int_var(0, 2, "i")
    e = m.element_of([5, x, 7], i)
    p = m.product_of([x, i])
    s2 = m.pow(i, 2)
    w = m.var_for(2 * x - i)
    rows = {(s[x], s[i], s[e], s[p], s[s2], s[w]) for s in m.solutions()}
    assert rows == {(a, b, [5, a, 7][b], a * b, b * b, 2 * a - b)
                    for a in range(10) for b in range(3)}


def test_count_among_member_and_element_over_variables():
    check(lambda m, v: cspkit.count(v[:3], 1, v[3]), [range(3)] * 3 + [range(4)],
          lambda a, b, c, n: [a, b, c].count(1) == n)
    check(lambda m, v: cspkit.count(v[:3], v[3], 2), [range(3)] * 4,
          lambda a, b, c, x: [a, b, c].count(x) == 2)
    check(lambda m, v: cspkit.count(v[:2], v[2], v[3]), [range(3)] * 3 + [range(3)],
          lambda a, b, x, n: [a, b].count(x) == n)
    check(lambda m, v: cspkit.among(v[:3], [0, 2], v[3]), [range(3)] * 3 + [range(4)],
          lambda a, b, c, n: sum(x in (0, 2) for x in (a, b, c)) == n)
    check(lambda m, v: cspkit.member(v[0] + v[1], [-3, 0, 4]), [SMALL, SMALL],
          lambda x, y: x + y in (-3, 0, 4))
    check(lambda m, v: cspkit.element([v[0], 2, v[1]], v[2], v[3]),
          [range(3), range(3), range(-1, 4), range(3)],
          lambda a, b, i, z: 0 <= i < 3 and [a, 2, b][i] == z)


def test_global_constraints():
    check(lambda m, v: cspkit.all_different_except0(v), [range(3)] * 3,
          lambda *xs: len([x for x in xs if x]) == len({x for x in xs if x}))
    check(lambda m, v: cspkit.subcircuit(v), [range(4)] * 4, is_subcircuit)
    check(lambda m, v: cspkit.lex_less(v[:2], v[2:]), [range(3)] * 4,
          lambda a, b, c, d: (a, b) < (c, d))
    check(lambda m, v: cspkit.global_cardinality(v[:3], [0, 1], v[3:], closed=True),
          [range(3)] * 3 + [range(4)] * 2,
          lambda a, b, c, n0, n1: all(x in (0, 1) for x in (a, b, c))
          and [a, b, c].count(0) == n0 and [a, b, c].count(1) == n1)
    check(lambda m, v: cspkit.cumulative(v[:3], [2, 1, v[3]], [1, 2, 1], 2),
          [range(4)] * 3 + [range(1, 3)],
          lambda s0, s1, s2, d2: all(
              sum(dem for s, d, dem in ((s0, 2, 1), (s1, 1, 2), (s2, d2, 1)) if s <= t < s + d)
              <= 2 for t in range(8)))
    check(lambda m, v: cspkit.disjunctive(v, [2, 1, 2]), [range(5)] * 3,
          lambda *s: all(a + da <= b or b + db <= a
                         for (a, da), (b, db) in itertools.combinations(zip(s, (2, 1, 2)), 2)))
    # Words over {0, 1} with no two 1s in a row, ending with 0: states 0 (last 0), 1 (last 1).
    transitions = [(0, 0, 0), (0, 1, 1), (1, 0, 0)]
    check(lambda m, v: cspkit.regular(v, transitions, 0, [0]), [B] * 5,
          lambda *w: w[-1] == 0 and all(not (a and b) for a, b in zip(w, w[1:])))


def is_subcircuit(*succ):
    """Whether the successors form one cycle through the nodes that do not point at
    themselves (none at all is allowed)."""
    if sorted(succ) != list(range(len(succ))):
        return False
    on = [i for i, s in enumerate(succ) if s != i]
    if not on:
        return True
    node, seen = on[0], set()
    while node not in seen:
        seen.add(node)
        node = succ[node]
    return seen == set(on)


def test_describe_names_the_variables_and_the_constraints_by_kind():
    m = cspkit.Model()
    xs = m.int_vars(3, 0, 4, "x")
    m += cspkit.all_different(xs)
    m += xs[0] + xs[1] <= 5
    m += xs[1] != xs[2] + 1
    text = m.describe()
    assert "3 variables" in text and "3 constraints" in text
    assert "x[0] in 0..4" in text
    assert "AllDifferent: 1" in text
    assert m.describe() != cspkit.Model().describe()


@pytest.mark.parametrize("bad, error", [
    (lambda m, v: cspkit.any_of([v[1]]), cspkit.CspkitError),  # not a 0/1 variable
    (lambda m, v: cspkit.any_of([3]), TypeError),
    (lambda m, v: cspkit.any_of([]), cspkit.CspkitError),  # the empty clause never holds
    (lambda m, v: cspkit.xor([]), cspkit.CspkitError),
    (lambda m, v: cspkit.table([v[1], v[1]], [[1, 2, 3]]), cspkit.CspkitError),
    (lambda m, v: cspkit.disjunctive([v[1]], [1, 2]), cspkit.CspkitError),
    (lambda m, v: cspkit.circuit([]), cspkit.CspkitError),
    (lambda m, v: m.div(v[1], 0) == 1, cspkit.CspkitError),
    (lambda m, v: cspkit.reified(v[0] <= 1, 5), TypeError),
    (lambda m, v: cspkit.regular([v[1]], [(0, 1, 1), (0, 1, 0)], 0, [1]), cspkit.CspkitError),
    (lambda m, v: cspkit.global_cardinality([v[1]], [1, 1], [v[1], v[1]]), cspkit.CspkitError),
    (lambda m, v: cspkit.implies(v[1] <= 1, v[1] >= 0), TypeError),
    (lambda m, v: v[1] == cspkit.all_different([v[1]]), cspkit.CspkitError),
    (lambda m, v: cspkit.minimum([], v[1]), cspkit.CspkitError),
    (lambda m, v: cspkit.inverse([v[1]], [v[1], v[1]]), cspkit.CspkitError),
    (lambda m, v: cspkit.cumulative([v[1]], [1, 2], [1], 1), cspkit.CspkitError),
])
def test_bad_constraints_raise_a_python_error(bad, error):
    m = cspkit.Model()
    variables = [m.bool_var("b"), m.int_var(0, 5, "x")]
    with pytest.raises(error):
        m += bad(m, variables)


def test_reified_empty_clause_and_parity_are_false():
    check(lambda m, v: v[0] == cspkit.any_of([]), [B], lambda b: b == 0)
    check(lambda m, v: v[0] == cspkit.xor([]), [B], lambda b: b == 0)


def test_mixing_two_models_is_an_error():
    a, b = cspkit.Model(), cspkit.Model()
    x, y = a.bool_var(), b.bool_var()
    with pytest.raises(cspkit.CspkitError):
        cspkit.any_of([x, y])
    with pytest.raises(cspkit.CspkitError):
        a.min_of([x, y])
