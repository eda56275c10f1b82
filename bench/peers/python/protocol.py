"""What the Python drivers of bench/run.sh share: arguments and output lines.

    DRIVER sudoku MODE FILE [--limit K] [--timeout SECONDS]
    DRIVER queens MODE N... [--timeout SECONDS]

One line per puzzle or board size, flushed at once: ITEM ANSWER MICROSECONDS NODES FAILURES,
with '-' for a figure the peer does not report (the format of bench/peers/rust/src/lib.rs).
Times cover building the model and solving it, not reading the input.
"""

import argparse
import sys
import time


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("problem", choices=["sudoku", "queens"])
    parser.add_argument("mode")
    parser.add_argument("items", nargs="+")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--timeout", type=float, default=60.0)
    return parser.parse_args()


def puzzles(args):
    """(line number, 81 cells with 0 for a blank) for the first --limit puzzles of the file."""
    with open(args.items[0]) as f:
        lines = [(number, line.strip()) for number, line in enumerate(f, start=1)]
    found = [(number, [int(c) if c.isdigit() else 0 for c in line])
             for number, line in lines if len(line) == 81]
    return found[: args.limit] if args.limit is not None else found


def timed(work):
    """(result of work(), elapsed microseconds)."""
    started = time.perf_counter()
    result = work()
    return result, (time.perf_counter() - started) * 1e6


def emit(item, answer, micros, nodes=None, failures=None):
    figure = lambda x: "-" if x is None else str(x)
    print(f"{item} {answer} {micros:.1f} {figure(nodes)} {figure(failures)}", flush=True)


def unsupported(args):
    sys.exit(f"this peer has no {args.problem} {args.mode} workload")
