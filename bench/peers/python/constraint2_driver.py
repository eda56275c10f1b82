"""python-constraint2 driver for bench/run.sh (protocol in protocol.py).

Sudoku: one variable per cell (domain 1..9, or the given alone) and an AllDifferentConstraint
on every row, column and block. N-Queens: one variable per row (columns 1..n), an
AllDifferentConstraint on the rows and one FunctionConstraint per pair of rows for the
diagonals, as in the library's documentation. The default OptimizedBacktrackingSolver orders
the variables once (most constraints, then smallest domain first) and cannot follow the input
order, so there is no lexicographic workload. No node counts, no time limit.
"""

from constraint import AllDifferentConstraint, FunctionConstraint, Problem

from protocol import emit, parse_args, puzzles, timed, unsupported


def sudoku_problem(cells):
    problem = Problem()
    for i, value in enumerate(cells):
        problem.addVariable(i, [value] if value else list(range(1, 10)))
    for g in range(9):
        problem.addConstraint(AllDifferentConstraint(), [g * 9 + k for k in range(9)])
        problem.addConstraint(AllDifferentConstraint(), [k * 9 + g for k in range(9)])
        problem.addConstraint(AllDifferentConstraint(),
                              [(g // 3 * 3 + k // 3) * 9 + g % 3 * 3 + k % 3 for k in range(9)])
    return problem


def queens_problem(n):
    problem = Problem()
    problem.addVariables(range(n), range(1, n + 1))
    problem.addConstraint(AllDifferentConstraint())
    for i in range(n):
        for j in range(i + 1, n):
            problem.addConstraint(FunctionConstraint(lambda a, b, d=j - i: abs(a - b) != d), (i, j))
    return problem


def first(problem, size, join):
    solution = problem.getSolution()
    return join(str(solution[i]) for i in range(size)) if solution else "none"


def count_up_to(problem, limit):
    found = 0
    for _ in problem.getSolutionIter():
        found += 1
        if found >= limit:
            break
    return str(found)


def main():
    args = parse_args()
    if args.problem == "sudoku" and args.mode in ("mrv", "count2"):
        for number, cells in puzzles(args):
            if args.mode == "mrv":
                answer, micros = timed(lambda: first(sudoku_problem(cells), 81, "".join))
            else:
                answer, micros = timed(lambda: count_up_to(sudoku_problem(cells), 2))
            emit(number, answer, micros)
    elif args.problem == "queens" and args.mode in ("count", "mrv"):
        for n in map(int, args.items):
            if args.mode == "mrv":
                answer, micros = timed(lambda: first(queens_problem(n), n, ",".join))
            else:
                answer, micros = timed(lambda: str(len(queens_problem(n).getSolutions())))
            emit(n, answer, micros)
    else:
        unsupported(args)


if __name__ == "__main__":
    main()
