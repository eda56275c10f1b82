#!/usr/bin/env python3
"""Times `cspkit sudoku --why` and `--explain` on puzzles made unsolvable by one wrong given.

Usage: bench/why.py PUZZLES.txt [COUNT] [TIME_LIMIT]

Puzzles are one a line, side² symbols (4x4, 9x9, 16x16 or 25x25; `.` or `0` for an empty
cell, as cspkit reads them). Each puzzle gets one wrong given: the first empty cell takes the
smallest value that is not its solution's and that no given of its row, column or box holds
(so the clash is not a direct pair). Prints each `--why` time and whether the fewest givens
were proved (or the irreducible fallback said), the time of `--explain` on the puzzle as
it was, then the medians.
"""
import math
import statistics
import subprocess
import sys
import time

CSPKIT = "target/release/cspkit"
SYMBOLS = "123456789ABCDEFGHIJKLMNOP"


def peers(i, n):
    b = math.isqrt(n)
    r, c = divmod(i, n)
    for j in range(n * n):
        s, t = divmod(j, n)
        if j != i and (s == r or t == c or (s // b == r // b and t // b == c // b)):
            yield j


def timed(args, text):
    start = time.perf_counter()
    run = subprocess.run([CSPKIT, "sudoku", *args], input=text, capture_output=True, text=True)
    return time.perf_counter() - start, run


def main():
    path = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    limit = sys.argv[3] if len(sys.argv) > 3 else "60"
    why_times, explain_times, proved, explained = [], [], 0, 0
    for line in open(path).read().split()[:count]:
        n = math.isqrt(len(line))
        symbols = SYMBOLS[:n]
        solved = subprocess.run([CSPKIT, "sudoku"], input=line, capture_output=True, text=True)
        solution = "".join(ch for ch in solved.stdout if ch in symbols)
        if len(solution) != n * n:
            print(f"skipped: no solution read for {line[:20]}...")
            continue
        seconds, run = timed(["--explain", "--time-limit", limit], line)
        done = run.returncode == 0 and run.stdout.rstrip().endswith("solved")
        explained += done
        explain_times.append(seconds)
        i = next(k for k, ch in enumerate(line) if ch not in symbols)
        used = {line[j] for j in peers(i, n)}
        value = next(v for v in symbols if v != solution[i] and v not in used)
        wrong = line[:i] + value + line[i + 1:]
        seconds, run = timed(["--why", "--time-limit", limit], wrong)
        fewest = "not proved" not in run.stderr and run.returncode == 1
        proved += fewest
        why_times.append(seconds)
        first = run.stdout.splitlines()[0] if run.stdout else run.stderr.strip()[:60]
        print(f"--why {seconds:7.3f} s  {'fewest' if fewest else 'fallback'}  "
              f"{first.count('=')} givens  |  --explain {explain_times[-1]:7.3f} s "
              f"{'to the end' if done else 'cut'}")
    print(f"--why: median {statistics.median(why_times):.3f} s, max {max(why_times):.3f} s, "
          f"fewest proved {proved}/{len(why_times)}")
    print(f"--explain: median {statistics.median(explain_times):.3f} s, "
          f"max {max(explain_times):.3f} s, to the end {explained}/{len(explain_times)}")


main()
