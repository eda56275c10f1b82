#!/usr/bin/env python3
"""Learning as a gate: `fzn-cspkit` with and without `--learn` on the selected Challenge instances.

    learning.py --benchmarks DIR [--timeout S] [--jobs N] [--only P,Q] [--results FILE.json]

Each instance of selection.txt (floats skipped) is compiled once to FlatZinc with cspkit's
MiniZinc library (`minizinc -c`, as `minizinc --solver cspkit` would), then run by `fzn-cspkit -s`
(with `-a` on optimisation, as MiniZinc asks for intermediate solutions) within the time limit,
plain and with `--learn`, one after the other. Printed: per instance the status, search nodes
(decisions), solve time and nodes per second of both runs; then the two figures of the gate:

- among the instances both runs finish (a proof, or the solution of a satisfaction problem), on
  how many the tree with learning is smaller, the same size, larger;
- the median, over the instances both runs search in (at least 100 nodes each), of the ratio of
  nodes per second, learning to plain.

The statistics are those `fzn-cspkit -s` prints (`nodes`, `solveTime`). Standard library only;
the helpers (the benchmark files, the selection) are run.py's.
"""

import argparse
import concurrent.futures
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run  # noqa: E402  (the benchmark files and the selection, shared with run.py)


def stats_of(out):
    """The `%%%mzn-stat:` values of the last statistics block, and the final marker."""
    stats, marker = {}, None
    for line in out.splitlines():
        if line.startswith("%%%mzn-stat:"):
            key, _, value = line[len("%%%mzn-stat:"):].strip().partition("=")
            stats[key] = value
        elif line.startswith("=========="):
            marker = "COMPLETE"
        elif line.startswith("=====UNSATISFIABLE====="):
            marker = "UNSAT"
        elif line.startswith("=====UNKNOWN====="):
            marker = "UNKNOWN"
    return stats, marker, "----------" in out


def run_fzn(fzn_cspkit, fzn, method, timeout, learn):
    """One run of fzn-cspkit: status, nodes, solve time."""
    command = [str(fzn_cspkit), "-s", "-t", str(int(timeout * 1000))]
    if method in ("min", "max"):
        command.append("-a")
    if learn:
        command.append("--learn")
    command.append(str(fzn))
    started = time.monotonic()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout + 10)
    except subprocess.TimeoutExpired:
        return {"status": "KILLED", "nodes": None, "time": timeout + 10, "conflicts": 0}
    wall = time.monotonic() - started
    stats, marker, solved = stats_of(done.stdout)
    if done.returncode != 0 and not solved and marker is None:
        return {"status": "ERROR", "nodes": None, "time": wall,
                "error": (done.stderr.strip().splitlines() or [""])[-1][:120]}
    if marker == "UNSAT":
        status = "UNSAT"
    elif marker == "COMPLETE":
        status = "OPTIMAL" if method in ("min", "max") else "ALL"
    elif solved:
        status = "SOLVED" if method == "sat" else "SATISFIED"
    else:
        status = "UNKNOWN"
    nodes = int(stats["nodes"]) if "nodes" in stats else None
    seconds = float(stats.get("solveTime", wall))
    finished = status in ("UNSAT", "OPTIMAL", "ALL", "SOLVED")
    # Learning needs bitset domains: on a model with interval domains the search runs plain,
    # and prints no conflicts.
    conflicts = int(stats.get("conflicts", 0))
    return {"status": status, "nodes": nodes, "time": round(seconds, 3), "finished": finished,
            "conflicts": conflicts, "learned_literals": int(stats.get("learnedLiterals", 0))}


def measure(instance, bench, env, fzn_cspkit, scratch, timeout):
    """Compiles one instance and runs it plain and with learning."""
    directory = bench.directory(instance["problem"], instance["data"])
    row = {"problem": instance["problem"], "method": instance["method"]}
    if directory is None:
        return dict(row, error="files missing from the benchmarks copy")
    fzn = Path(scratch) / f"{instance['problem']}.fzn"
    command = ["minizinc", "--solver", run.CSPKIT_ID, "-c", instance["model"], "-o", str(fzn)]
    if instance["data"]:
        command.append(instance["data"])
    try:
        done = subprocess.run(command, capture_output=True, text=True, cwd=directory, env=env,
                              timeout=120)
    except subprocess.TimeoutExpired:
        return dict(row, error="compilation over 120 s")
    if done.returncode != 0:
        return dict(row, error=run.first_error(done.stderr, done.stdout))
    method = instance["method"]
    if method not in ("sat", "min", "max"):
        method = run.interface_method(instance, directory, env, argparse.Namespace(
            compile_timeout=120))
        row["method"] = method
    row["plain"] = run_fzn(fzn_cspkit, fzn, method, timeout, learn=False)
    row["learn"] = run_fzn(fzn_cspkit, fzn, method, timeout, learn=True)
    print(f"{row['problem']}: plain {row['plain']['status']} {row['plain']['nodes']} "
          f"learn {row['learn']['status']} {row['learn']['nodes']}", file=sys.stderr)
    return row


def rate(r):
    return r["nodes"] / r["time"] if r.get("nodes") and r.get("time") else None


def report(rows, timeout):
    """The table and the two figures, in Markdown."""
    lines = [f"`fzn-cspkit -s` with a {timeout:g} s limit, plain and with `--learn`.", "",
             "| problem | plain | nodes | s | nodes/s | learn | nodes | s | nodes/s | ratio |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    smaller = equal = both = 0
    ratios, engaged_ratios = [], []
    engaged = engaged_smaller = engaged_both = 0
    for row in rows:
        if "error" in row:
            lines.append(f"| {row['problem']} | {row['error']} |||||||||")
            continue
        p, q = row["plain"], row["learn"]
        rp, rq = rate(p), rate(q)
        ratio = rq / rp if rp and rq and p["nodes"] >= 100 and q["nodes"] >= 100 else None
        learned = q.get("conflicts", 0) > 0
        engaged += learned
        if ratio is not None:
            ratios.append(ratio)
            if learned:
                engaged_ratios.append(ratio)
        if p.get("finished") and q.get("finished") and p["status"] == q["status"]:
            both += 1
            if q["nodes"] is not None and p["nodes"] is not None:
                smaller += q["nodes"] < p["nodes"]
                equal += q["nodes"] == p["nodes"]
                if learned:
                    engaged_both += 1
                    engaged_smaller += q["nodes"] < p["nodes"]

        def cells(r, nodes_per_second):
            speed = f"{nodes_per_second:,.0f}" if nodes_per_second else "–"
            nodes = f"{r['nodes']:,}" if r.get("nodes") is not None else "–"
            return f"{r['status']} | {nodes} | {r['time']:.2f} | {speed}"
        lines.append(f"| {row['problem']} | {cells(p, rp)} | {cells(q, rq)} | "
                     f"{f'{ratio:.2f}' if ratio is not None else '–'} |")
    lines.append("")
    lines.append(f"Finished by both (same status): {both}; the tree with learning smaller on "
                 f"{smaller} of them, the same size on {equal}, larger on "
                 f"{both - smaller - equal}.")
    lines.append(f"Learning analysed conflicts on {engaged} instances (elsewhere the model has "
                 f"interval domains, or the search met no failure); of the {engaged_both} of "
                 f"them both runs finish, the tree with learning is smaller on "
                 f"{engaged_smaller}.")
    if engaged_ratios:
        lines.append(f"Nodes per second, learning over plain, where it analysed conflicts "
                     f"({len(engaged_ratios)} instances, ≥ 100 nodes each): median "
                     f"{statistics.median(engaged_ratios):.3f}, at least half of plain on "
                     f"{sum(r >= 0.5 for r in engaged_ratios)}.")
    if ratios:
        lines.append(f"Nodes per second, learning over plain, on the {len(ratios)} instances "
                     f"both search in (≥ 100 nodes): median {statistics.median(ratios):.3f}, "
                     f"at least half of plain on {sum(r >= 0.5 for r in ratios)}.")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--benchmarks", required=True,
                        help="checkout (or bare clone) of github.com/MiniZinc/minizinc-benchmarks")
    parser.add_argument("--timeout", type=float, default=10, help="seconds per run (default 10)")
    parser.add_argument("--jobs", type=int, default=1, help="instances run at once (default 1)")
    parser.add_argument("--only", type=lambda s: s.split(","), help="PROBLEM[,PROBLEM...]")
    parser.add_argument("--fzn-cspkit", help="fzn-cspkit executable (default: the release build)")
    parser.add_argument("--scratch", help="scratch directory (default: a temporary one)")
    parser.add_argument("--results", help="save the raw results to this JSON file")
    args = parser.parse_args()
    fzn_cspkit = run.find_fzn_cspkit(args.fzn_cspkit)
    with tempfile.TemporaryDirectory() as temporary:
        scratch = Path(args.scratch or temporary).resolve()
        scratch.mkdir(parents=True, exist_ok=True)
        bench = run.Benchmarks(args.benchmarks, scratch)
        solvers = scratch / "solvers"
        solvers.mkdir(exist_ok=True)
        subprocess.run([str(fzn_cspkit), "--install-msc", str(solvers)], check=True,
                       capture_output=True)
        env = dict(run.os.environ, MZN_SOLVER_PATH=str(solvers))
        instances = [i for i in run.read_selection() if run.SKIPPED not in i["note"]
                     and (not args.only or i["problem"] in args.only)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            rows = list(pool.map(
                lambda i: measure(i, bench, env, fzn_cspkit, scratch, args.timeout), instances))
        if args.results:
            Path(args.results).write_text(json.dumps(rows, indent=1) + "\n")
        print(report(rows, args.timeout))


if __name__ == "__main__":
    main()
