#!/usr/bin/env python3
"""Times `cspkit sudoku --why` on puzzles made unsolvable by one wrong given.

Usage: bench/why.py PUZZLES.txt [COUNT] [TIME_LIMIT]

Each puzzle (one a line, 81 symbols) gets one wrong given: the first empty cell takes the
smallest value that is not its solution's and that no given of its row, column or box holds
(so the clash is not a direct pair). Prints each time and whether the fewest givens were
proved, then the median.
"""
import statistics
import subprocess
import sys
import time

CSPKIT = "target/release/cspkit"


def peers(i, n=9, b=3):
    r, c = divmod(i, n)
    for j in range(n * n):
        s, t = divmod(j, n)
        if j != i and (s == r or t == c or (s // b == r // b and t // b == c // b)):
            yield j


def main():
    path = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    limit = sys.argv[3] if len(sys.argv) > 3 else "60"
    times, proved = [], 0
    for line in open(path).read().split()[:count]:
        solved = subprocess.run([CSPKIT, "sudoku"], input=line, capture_output=True, text=True)
        solution = solved.stdout.strip()
        i = line.index(".")
        used = {line[j] for j in peers(i)}
        value = next(v for v in "123456789" if v != solution[i] and v not in used)
        wrong = line[:i] + value + line[i + 1:]
        start = time.perf_counter()
        run = subprocess.run([CSPKIT, "sudoku", "--why", "--time-limit", limit],
                             input=wrong, capture_output=True, text=True)
        seconds = time.perf_counter() - start
        fewest = "not proved" not in run.stderr and run.returncode == 1
        proved += fewest
        times.append(seconds)
        first = run.stdout.splitlines()[0] if run.stdout else ""
        print(f"{seconds:7.3f} s  {'fewest' if fewest else 'fallback'}  "
              f"{first.count('=')} givens")
    print(f"median {statistics.median(times):.3f} s, max {max(times):.3f} s, "
          f"fewest proved {proved}/{len(times)}")


main()
