"""The modelling API: variables, expressions, constraints, solutions, optimisation."""

import itertools

import pytest

import cspkit


def brute_force(domains, check):
    """Every assignment of the domains that `check` accepts, in lexicographic order."""
    return [values for values in itertools.product(*domains) if check(*values)]


def test_linear_constraints_have_exactly_the_brute_force_solutions():
    m = cspkit.Model()
    x, y, z = m.int_vars(3, 0, 4, "v")
    m += x + 2 * y - z == 3
    m += x != y
    m += 3 - z < y
    found = sorted((s[x], s[y], s[z]) for s in m.solutions())
    expected = brute_force(
        [range(5)] * 3, lambda a, b, c: a + 2 * b - c == 3 and a != b and 3 - c < b
    )
    assert found == expected
    assert m.count() == len(expected)


def test_every_comparison_operator_posts_its_relation():
    for op, relation in [
        ("==", lambda a, b: a == b),
        ("!=", lambda a, b: a != b),
        ("<=", lambda a, b: a <= b),
        ("<", lambda a, b: a < b),
        (">=", lambda a, b: a >= b),
        (">", lambda a, b: a > b),
    ]:
        m = cspkit.Model()
        x, y = m.int_var(-2, 2, "x"), m.int_var(-2, 2, "y")
        left, right = 2 * x, y + 1
        m += {"==": left == right, "!=": left != right, "<=": left <= right,
              "<": left < right, ">=": left >= right, ">": left > right}[op]
        expected = brute_force([range(-2, 3)] * 2, lambda a, b: relation(2 * a, b + 1))
        assert m.count() == len(expected), op


def test_all_different_counts_permutations():
    m = cspkit.Model()
    xs = m.int_vars(4, 1, 4, "x")
    m += cspkit.all_different(xs)
    assert m.count() == 24


def test_element_table_and_circuit_constraints():
    m = cspkit.Model()
    i, v = m.int_var(0, 3, "i"), m.int_var(0, 50, "v")
    m += cspkit.element([10, 20, 30, 40], i, v)
    assert sorted(s[v] for s in m.solutions()) == [10, 20, 30, 40]

    m = cspkit.Model()
    a, b = m.int_var(0, 3), m.int_var(0, 3)
    m += cspkit.table([a, b], [(0, 1), (2, 3), (3, 3)])
    assert sorted((s[a], s[b]) for s in m.solutions()) == [(0, 1), (2, 3), (3, 3)]

    m = cspkit.Model()
    succ = m.int_vars(4, 0, 3, "succ")
    m += cspkit.circuit(succ)
    assert m.count() == 6  # (n - 1)! Hamiltonian circuits on 4 nodes


def test_global_cardinality_inverse_and_lex_have_the_brute_force_solutions():
    m = cspkit.Model()
    xs = m.int_vars(3, 0, 2, "x")
    ones, twos = m.int_var(0, 3, "ones"), m.int_var(0, 3, "twos")
    m += cspkit.global_cardinality(xs, [1, 2], [ones, twos])
    found = sorted(tuple(s[v] for v in xs + [ones, twos]) for s in m.solutions())
    expected = sorted(
        (*t, t.count(1), t.count(2)) for t in itertools.product(range(3), repeat=3)
    )
    assert found == expected

    m = cspkit.Model()
    f, g = m.int_vars(3, 0, 2, "f"), m.int_vars(3, 0, 2, "g")
    m += cspkit.inverse(f, g)
    for s in m.solutions():
        assert all(s[g[s[f[i]]]] == i for i in range(3))
    assert m.count() == 6  # one per permutation f

    m = cspkit.Model()
    xs, ys = m.int_vars(2, 0, 2, "x"), m.int_vars(2, 0, 2, "y")
    m += cspkit.lex_less_eq(xs, ys)
    expected = brute_force([range(3)] * 4, lambda a, b, c, d: (a, b) <= (c, d))
    assert sorted(tuple(s[v] for v in xs + ys) for s in m.solutions()) == expected


def test_solution_reads_by_variable_name_and_expression():
    m = cspkit.Model()
    x = m.int_var(3, 3, "x")
    flag = m.bool_var("flag")
    m += flag == 1
    s = m.solve()
    assert s is not None and m.last_status == "solved"
    assert s[x] == 3 and s.value("x") == 3 and s.value(2 * x + flag) == 7
    assert set(v.name for v in s) == {"x", "flag"}
    assert dict((v.name, s[v]) for v in s) == {"x": 3, "flag": 1}


def test_infeasible_model_returns_none_with_status():
    m = cspkit.Model()
    x = m.int_var(0, 3)
    m += x > 5
    assert m.solve() is None
    assert m.last_status == "infeasible"
    result = m.search()
    assert not result and result.status == "infeasible"


def test_minimize_and_maximize_find_the_brute_force_optimum():
    m = cspkit.Model()
    x, y = m.int_var(0, 6, "x"), m.int_var(0, 6, "y")
    m += x + y >= 5
    m += x - y <= 2
    objective = 3 * x + 2 * y
    feasible = brute_force([range(7)] * 2, lambda a, b: a + b >= 5 and a - b <= 2)
    low = m.minimize(objective)
    assert low.status == "optimal"
    assert low.objective == min(3 * a + 2 * b for a, b in feasible)
    assert low.solution.value(objective) == low.objective
    high = m.maximize(objective)
    assert high.objective == max(3 * a + 2 * b for a, b in feasible)


def test_every_strategy_option_gives_the_same_count():
    for propagation in ["none", "fc", "forward", "full", "mac", "ac3"]:
        for var_order in ["input", "mrv", "dom-deg", "dom-wdeg", "mrv-random"]:
            for value_order in ["asc", "desc", "middle", "random", "lcv"]:
                count = cspkit.queens(6).count(
                    propagation=propagation, var_order=var_order, value_order=value_order
                )
                assert count == 4, (propagation, var_order, value_order)
    assert cspkit.queens(6).count(branching="split", value_order="middle") == 4


def test_stats_are_a_dict_of_numbers():
    m = cspkit.queens(6)
    count = m.count()
    for key in ["nodes", "decisions", "failures", "backtracks", "solutions", "elapsed"]:
        assert key in m.last_stats
    assert m.last_stats["solutions"] == count.stats["solutions"] == 4
    assert m.last_stats["decisions"] > 0


def test_solutions_iterator_is_lazy_and_survives_other_searches():
    m = cspkit.queens(8)
    solutions = m.solutions()
    first = next(solutions)
    assert solutions.status is None
    assert m.count() == 92  # another search meanwhile
    rest = list(solutions)
    assert len(rest) == 91 and solutions.status == "exhausted"
    assert first not in rest


def test_queens_board_has_one_queen_per_row_column_and_diagonal():
    board = cspkit.queens(8).solve().board.splitlines()
    columns = [row.index("Q") for row in board]
    assert all(row.count("Q") == 1 for row in board)
    assert sorted(columns) == list(range(8))
    assert len({r + c for r, c in enumerate(columns)}) == 8
    assert len({r - c for r, c in enumerate(columns)}) == 8


# A published puzzle (Wikipedia's "Sudoku" article), given as 81 characters.
PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def test_sudoku_solution_reads_as_a_valid_board_keeping_the_givens():
    model = cspkit.sudoku(PUZZLE)
    board = model.solve().board
    for r in range(9):
        assert sorted(board[r]) == list(range(1, 10))
        assert sorted(board[c][r] for c in range(9)) == list(range(1, 10))
        box = [board[3 * (r // 3) + i][3 * (r % 3) + j] for i in range(3) for j in range(3)]
        assert sorted(box) == list(range(1, 10))
    for index, char in enumerate(PUZZLE):
        if char != ".":
            assert board[index // 9][index % 9] == int(char)
    assert model.count() == 1


def test_cspkit_sum_equals_the_builtin_sum():
    m = cspkit.Model()
    xs = m.int_vars(5, 0, 3, "x")
    mine, builtin = cspkit.sum(xs + [2, 2 * xs[0]]), sum(xs) + 2 + 2 * xs[0]
    m += mine == 7
    count = m.count()
    other = cspkit.Model()
    ys = other.int_vars(5, 0, 3, "y")
    other += sum(ys) + 2 + 2 * ys[0] == 7
    assert count == other.count() > 0
    assert [(c, v.index) for c, v in mine.terms()] == [(c, v.index) for c, v in builtin.terms()]


def test_the_gil_is_released_during_a_search():
    import threading

    started, done = threading.Event(), threading.Event()
    ticks = 0

    def search():
        model = cspkit.queens(11)
        started.set()
        model.count(propagation="none")  # about 0.3 s
        done.set()

    worker = threading.Thread(target=search)
    worker.start()
    started.wait()
    while not done.is_set():
        ticks += 1  # Python code running while Rust searches
    worker.join()
    # Were the GIL held, this thread would get at most a switch interval (5 ms) of the search.
    assert ticks > 100_000


def test_solutions_iterated_by_two_threads_is_an_error_not_a_hang():
    import threading

    solutions = cspkit.queens(11).solutions(propagation="none", value_order="desc")
    errors = []

    def take_two():
        try:
            next(solutions)
            next(solutions)
        except cspkit.CspkitError as error:
            errors.append(error)

    threads = [threading.Thread(target=take_two, daemon=True) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads)
    assert all("another thread" in str(error) for error in errors)


def test_objective_beyond_64_bits_is_refused():
    m = cspkit.Model()
    x = m.int_var(-3, 3, "x")
    with pytest.raises(cspkit.CspkitError, match="beyond 64-bit"):
        m.minimize(x * 2**62)
    assert m.minimize(x * 2**60).solution[x] == -3
    q = cspkit.queens(5)
    v = q.variables()
    assert q.minimize(v[0] - v[1], propagation="fc").objective == -3
