#!/usr/bin/env python3
"""cspkit against Gecode through MiniZinc, on the models of tests/mzn (some with larger data).

Each run is `minizinc --solver S -s MODEL [-D DATA] [-a]`, three times per solver, alternating;
the report gives the medians of the solver's own solveTime and of the whole command (MiniZinc's
compilation included), and the nodes. Prints a Markdown section on standard output.

Usage: bench/minizinc.py [--runs N]   (needs minizinc, fzn-gecode and a release build)
"""

import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "tests" / "mzn"

# (model, data, flags, what is measured)
WORKLOADS = [
    ("queens", "n=8", ["-a"], "all 92 solutions"),
    ("queens", "n=10", ["-a"], "all 724 solutions"),
    ("queens", "n=30", [], "first solution"),
    ("sudoku", "", [], "first (unique) solution"),
    ("send_more", "", ["-a"], "all solutions"),
    ("zebra", "", ["-a"], "all solutions"),
    ("magic_square", "n=4", [], "first solution"),
    ("langford", "n=8", ["-a"], "all 300 solutions"),
    ("nonogram", "", ["-a"], "all solutions"),
    ("kakuro", "", ["-a"], "all 18 solutions"),
    ("golomb", "m=8", [], "optimum 34, proved"),
    ("colouring", "", [], "optimum 4, proved"),
    ("knapsack", "", [], "optimum, proved"),
    ("jobshop", "", [], "optimum, proved"),
    ("globals", "", ["-a"], "all 2160 solutions"),
]


def stats(output):
    found = {}
    for line in output.splitlines():
        if line.startswith("%%%mzn-stat:") and "=" in line:
            key, value = line[len("%%%mzn-stat:"):].strip().split("=", 1)
            found.setdefault(key.strip(), value.strip())
    return found


def model_file(model, data, scratch):
    """The model, with `int: name = …;` set to the workload's value (`name=value`)."""
    text = (MODELS / f"{model}.mzn").read_text()
    if data:
        name, value = data.split("=")
        text, count = re.subn(rf"int: {name} = [^;]*;", f"int: {name} = {value};", text)
        if count != 1:
            sys.exit(f"{model}.mzn has no `int: {name} = …;` to set")
    path = Path(scratch, f"{model}-{data.replace('=', '')}.mzn")
    path.write_text(text)
    return path


def run(solvers, solver, model, data, flags):
    command = ["minizinc", "--solver", solver, "-s", *flags, str(model_file(model, data, solvers))]
    env = dict(os.environ, MZN_SOLVER_PATH=solvers)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
    wall = time.perf_counter() - start
    if done.returncode != 0 and "UNSATISFIABLE" not in done.stdout:
        sys.exit(f"{' '.join(command)} failed:\n{done.stderr}")
    found = stats(done.stdout)
    solutions = done.stdout.count("----------")
    complete = "==========" in done.stdout
    return wall, float(found.get("solveTime", "nan")), found.get("nodes", "?"), solutions, complete


def main():
    runs = 3
    if "--runs" in sys.argv:
        runs = int(sys.argv[sys.argv.index("--runs") + 1])
    fzn_cspkit = ROOT / "target" / "release" / "fzn-cspkit"
    if not fzn_cspkit.exists():
        sys.exit("build first: cargo build --release")
    with tempfile.TemporaryDirectory() as solvers:
        subprocess.run([str(fzn_cspkit), "--install-msc", solvers], check=True, capture_output=True)
        gecode = subprocess.run(["sh", "-c", "command -v fzn-gecode"], capture_output=True, text=True).stdout.strip()
        Path(solvers, "gecode-std.msc").write_text(
            '{"id": "org.cspkit.bench.gecode", "name": "gecode-std", "version": "6", '
            f'"executable": "{gecode}", "tags": ["cp", "int"], '
            '"stdFlags": ["-a", "-f", "-n", "-p", "-r", "-s", "-t"], '
            '"supportsMzn": false, "supportsFzn": true, "needsSolns2Out": true}'
        )
        print("## MiniZinc models: cspkit and Gecode through `minizinc`")
        print()
        print("The models of `tests/mzn/` (some with larger data), each run as `minizinc --solver S -s` "
              f"{runs} times per solver, alternating, on one machine in one run; medians. *solve* is "
              "the solver's own `solveTime`; *wall* is the whole command, MiniZinc's compilation "
              "included. Gecode is Debian's `fzn-gecode` 6.2 with MiniZinc's standard library (its "
              "packaged solver library does not match MiniZinc 2.6); cspkit uses its own library "
              "(`share/minizinc/cspkit`). Nodes are each solver's count: cspkit's decisions, "
              "Gecode's search nodes. With `-a` the two solvers' solution counts are checked equal. "
              "Regenerate with `bench/minizinc.py > bench/minizinc.md` after `cargo build --release`.")
        print()
        print("| model | data | measured | cspkit solve (ms) | Gecode solve (ms) | ratio | cspkit nodes | Gecode nodes | cspkit wall (ms) | Gecode wall (ms) |")
        print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
        for model, data, flags, what in WORKLOADS:
            results = {"cspkit": [], "gecode-std": []}
            for _ in range(runs):
                for solver in results:
                    results[solver].append(run(solvers, solver, model, data, flags))
            ours, theirs = results["cspkit"], results["gecode-std"]
            if (ours[0][3], ours[0][4]) != (theirs[0][3], theirs[0][4]) and "-a" in flags:
                sys.exit(f"{model} {data}: {ours[0][3:]} solutions for cspkit, {theirs[0][3:]} for Gecode")
            med = lambda rows, i: statistics.median(r[i] for r in rows)
            solve_ours, solve_theirs = med(ours, 1) * 1000, med(theirs, 1) * 1000
            ratio = solve_ours / solve_theirs if solve_theirs > 0 else float("nan")
            print(
                f"| {model} | {data or '—'} | {what} | {solve_ours:.2f} | {solve_theirs:.2f} | {ratio:.2f} "
                f"| {ours[0][2]} | {theirs[0][2]} | {med(ours, 0) * 1000:.0f} | {med(theirs, 0) * 1000:.0f} |"
            )


if __name__ == "__main__":
    main()
