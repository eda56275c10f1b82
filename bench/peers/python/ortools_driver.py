"""Google OR-Tools CP-SAT driver for bench/run.sh (protocol in protocol.py).

Sudoku: 81 integer variables 1..9, add_all_different on every row, column and block, givens
as equalities. N-Queens: one variable per row, add_all_different on the rows and on the rows
plus and minus their index. Always one worker.

- lex: a fixed search, add_decision_strategy(CHOOSE_FIRST, SELECT_MIN_VALUE) with
  search_branching = FIXED_SEARCH; presolve is off, since presolve may fix or merge variables
  and the first solution is then not the lexicographic minimum.
- mrv: CP-SAT's own default search (any solution).
- count2 / count: enumerate_all_solutions with a callback that counts (and stops at 2).

Nodes and failures are CP-SAT's num_branches and num_conflicts.
"""

from ortools.sat.python import cp_model

from protocol import emit, parse_args, puzzles, timed, unsupported


def sudoku_model(cells):
    model = cp_model.CpModel()
    x = [model.new_int_var(1, 9, f"c{i}") for i in range(81)]
    for g in range(9):
        model.add_all_different([x[g * 9 + k] for k in range(9)])
        model.add_all_different([x[k * 9 + g] for k in range(9)])
        model.add_all_different([x[(g // 3 * 3 + k // 3) * 9 + g % 3 * 3 + k % 3] for k in range(9)])
    for var, value in zip(x, cells):
        if value:
            model.add(var == value)
    return model, x


def queens_model(n):
    model = cp_model.CpModel()
    x = [model.new_int_var(1, n, f"q{i}") for i in range(n)]
    model.add_all_different(x)
    model.add_all_different([x[i] + i for i in range(n)])
    model.add_all_different([x[i] - i for i in range(n)])
    return model, x


class Counter(cp_model.CpSolverSolutionCallback):
    def __init__(self, stop_at):
        super().__init__()
        self.count = 0
        self.stop_at = stop_at

    def on_solution_callback(self):
        self.count += 1
        if self.count >= self.stop_at:
            self.stop_search()


def solve(model, x, mode, timeout, render):
    """(answer, solver) for one model."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = timeout
    if mode == "lex":
        model.add_decision_strategy(x, cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE)
        solver.parameters.search_branching = cp_model.FIXED_SEARCH
        solver.parameters.cp_model_presolve = False
    if mode in ("count", "count2"):
        solver.parameters.enumerate_all_solutions = True
        counter = Counter(2 if mode == "count2" else float("inf"))
        status = solver.solve(model, counter)
        if status == cp_model.UNKNOWN or (status == cp_model.FEASIBLE and counter.count < counter.stop_at):
            return "limit", solver
        return str(counter.count), solver
    status = solver.solve(model)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return render([solver.value(v) for v in x]), solver
    return ("none" if status == cp_model.INFEASIBLE else "limit"), solver


def main():
    args = parse_args()
    if args.problem == "sudoku" and args.mode in ("lex", "mrv", "count2"):
        for number, cells in puzzles(args):
            (answer, solver), micros = timed(
                lambda: solve(*sudoku_model(cells), args.mode, args.timeout,
                              lambda values: "".join(map(str, values))))
            emit(number, answer, micros, solver.num_branches, solver.num_conflicts)
    elif args.problem == "queens" and args.mode in ("count", "mrv", "lex"):
        for n in map(int, args.items):
            (answer, solver), micros = timed(
                lambda: solve(*queens_model(n), args.mode, args.timeout,
                              lambda values: ",".join(map(str, values))))
            emit(n, answer, micros, solver.num_branches, solver.num_conflicts)
    else:
        unsupported(args)


if __name__ == "__main__":
    main()
