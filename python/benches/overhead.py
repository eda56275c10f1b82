"""Python overhead against the native command line, on `queens 12` counting and on a Sudoku
workload (the same puzzles solved by `cspkit sudoku --batch`).

Run after installing the package, from outside the source tree:

    python python/benches/overhead.py [--cli path/to/cspkit] [--sudoku PUZZLES] [--limit N]

With the library's side built too (`cargo build --release --example native_overhead` in
python/), it also compares with the same workloads run by the library directly, models built
once (`--native` names that program; by default python/target/release/examples/).

PUZZLES is a file with one puzzle per line (81 characters, `.` or `0` for a blank), such as
the tdoku benchmark sets; `CSPKIT_BENCH_DATA` names it too. Without one, a small built-in list
is used. Prints the median wall time of RUNS runs of each and the ratio Python / native; the
native times include the command's process start, and its Sudoku time also includes reading the
puzzles and building their models, which the Python side does once before it is timed (the
workload the package is meant for: build a model once, search it in Rust).
"""

import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

import cspkit

RUNS = 7

#: Puzzles used when no file is given: hard 17-clue and "forum hardest" style grids.
BUILT_IN = [
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
    "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....",
    "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5....",
    "....14....3....2...7..........9...3.6.1.............8.2.....1.4....5.6.....7.8...",
    "......52..8.4......3...9...5.1...6..2..7........3.....6...1..........7.4.......3.",
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
    "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..",
    "12.3....435....1....4........54..2..6...7.........8.9...31..5.......9.7.....6...8",
    "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
]


def median_seconds(action) -> float:
    """The median wall time of `action()` over RUNS runs."""
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def report(name: str, native: float, python: float) -> None:
    """Prints one comparison."""
    print(f"{name}: native {native:.3f} s, Python {python:.3f} s, "
          f"ratio {python / native:.3f} ({100 * (python / native - 1):+.1f}%)")


def library(native: str, grids: list) -> dict:
    """The library's own medians (seconds) of the same workloads, by the example program."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as file:
        file.write("\n".join(grids) + "\n")
    try:
        lines = subprocess.run([native, file.name], check=True, capture_output=True,
                               text=True).stdout.splitlines()
    finally:
        os.unlink(file.name)
    figures = {}
    for line in lines:
        words = line.split()
        figures[words[0]] = float(words[-1])
    return figures


def queens(cli: str, library: dict) -> None:
    """`queens 12 --count` against `cspkit.queens(12).count()`."""
    command = [cli, "queens", "12", "--count"]
    native_count = int(subprocess.run(command, check=True, capture_output=True,
                                      text=True).stdout.split()[0])
    model = cspkit.queens(12)
    if model.count() != native_count:
        raise SystemExit("queens 12: the counts differ")
    native = median_seconds(lambda: subprocess.run(command, check=True, capture_output=True))
    python = median_seconds(model.count)
    report(f"queens 12 count ({native_count} solutions), command line", native, python)
    if "queens12" in library:
        report("queens 12 count, library", library["queens12"], python)


def puzzles(path: str, limit: int) -> list:
    """The first `limit` puzzles of the file (one per line), or the built-in ones."""
    if not path:
        return BUILT_IN[:limit]
    lines = pathlib.Path(path).read_text().split()
    return [line for line in lines if len(line) == 81][:limit]


def sudoku(cli: str, grids: list, library: dict) -> None:
    """`cspkit sudoku --batch` against solving each model built once from Python."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as file:
        file.write("\n".join(grids) + "\n")
    try:
        command = [cli, "sudoku", "--batch", "--format", "line", file.name]
        native_lines = subprocess.run(command, check=True, capture_output=True,
                                      text=True).stdout.split()
        models = [cspkit.sudoku(grid) for grid in grids]
        python_lines = []
        for model in models:
            solution = model.solve()
            board = model.board(solution) if solution is not None else None
            python_lines.append("".join(str(d) for row in board for d in row) if board else "-")
        if python_lines != native_lines[: len(python_lines)] or len(native_lines) != len(grids):
            raise SystemExit("sudoku: the solutions differ from the command line's")
        native = median_seconds(lambda: subprocess.run(command, check=True, capture_output=True))
        python = median_seconds(lambda: [model.solve() for model in models])
        report(f"sudoku, {len(grids)} puzzles, models built once, command line --batch",
               native, python)
        if "sudoku" in library:
            report(f"sudoku, {len(grids)} puzzles, models built once, library",
                   library["sudoku"], python)
        built = median_seconds(lambda: [cspkit.sudoku(grid).solve() for grid in grids])
        report(f"sudoku, {len(grids)} puzzles, models built each time", native, built)
    finally:
        os.unlink(file.name)


def main() -> None:
    """Times both workloads and prints the figures."""
    default = pathlib.Path(__file__).resolve().parents[2] / "target" / "release" / "cspkit"
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cli", nargs="?", default=None, help="the native cspkit command")
    parser.add_argument("--cli", dest="cli_option", default=None)
    parser.add_argument("--sudoku", default=os.environ.get("CSPKIT_BENCH_DATA", ""),
                        help="a file of puzzles, one per line")
    parser.add_argument("--limit", type=int, default=200, help="puzzles to take from the file")
    parser.add_argument("--native", default=str(
        pathlib.Path(__file__).resolve().parents[1] / "target" / "release" / "examples"
        / "native_overhead"), help="the library's side (the native_overhead example)")
    parser.add_argument("--skip-queens", action="store_true")
    args = parser.parse_args()
    cli = args.cli_option or args.cli or str(default)
    if not os.path.exists(cli):
        sys.exit(f"no cspkit command at {cli}: run `cargo build --release` first")
    grids = puzzles(args.sudoku, args.limit)
    figures = library(args.native, grids) if os.path.exists(args.native) else {}
    if not figures:
        print(f"(no library-side figures: {args.native} is missing)")
    if not args.skip_queens:
        queens(cli, figures)
    sudoku(cli, grids, figures)


if __name__ == "__main__":
    main()
