#!/usr/bin/env python3
"""The Markdown report of a run of run.py, from its saved results.

Usage: report.py RESULTS.json   (prints the Markdown section on standard output)

Verdict between two solvers on one instance (see README.md):
  1. a solver that finishes (proves the optimum or unsatisfiability, or finds a solution of a
     satisfaction problem) beats one that does not;
  2. both finish: the faster wins if the other takes more than 10% longer, else a tie;
  3. neither finishes: the better objective at the limit wins (respecting minimize/maximize);
     a solver with a solution beats one without; otherwise a tie.
A result flagged wrong (refuted by the checker or contradicted by another solver) counts as no
result at all.
"""

import json
import re
import sys

NAMES = {"cspkit": "cspkit", "cspkit-learn": "cspkit --learn", "gecode": "Gecode",
         "pumpkin": "Pumpkin", "huub": "Huub"}
# cspkit's columns: each is compared with every other solver (cspkit --learn with cspkit once).
OURS = ("cspkit", "cspkit-learn")


def finished(result, method):
    """Whether the solver finished: a proof, or a solution of a satisfaction problem."""
    if result.get("wrong") or result.get("status") is None:
        return False
    status = result["status"]
    return status in ("OPTIMAL", "UNSAT") or (status == "SATISFIED" and method == "sat")


def usable_objective(result):
    """The objective at the limit, unless the result is flagged wrong."""
    return None if result.get("wrong") else result.get("objective")


def has_solution(result):
    return not result.get("wrong") and result.get("solution") is not None


def compare(a, b, method):
    """1 if result a is better than b, -1 if worse, 0 for a tie (the rule of the docstring)."""
    fa, fb = finished(a, method), finished(b, method)
    if fa != fb:
        return 1 if fa else -1
    if fa:
        ta, tb = a["time"], b["time"]
        if tb > 1.1 * ta:
            return 1
        if ta > 1.1 * tb:
            return -1
        return 0
    oa, ob = usable_objective(a), usable_objective(b)
    if method in ("min", "max") and oa is not None and ob is not None:
        if oa == ob:
            return 0
        return 1 if (oa < ob) == (method == "min") else -1
    sa, sb = has_solution(a), has_solution(b)
    if sa != sb:
        return 1 if sa else -1
    return 0


def proved(result):
    """Whether the result is a proof: the optimum, or unsatisfiability."""
    return not result.get("wrong") and result.get("status") in ("OPTIMAL", "UNSAT")


def tidy_error(text):
    """An error message without what belongs to the machine that ran it: a Rust panic's
    thread id, and the directories above a crate's own files."""
    text = re.sub(r"thread '[^']*' \(\d+\) panicked", "panicked", text)
    return re.sub(r"(?:/[^\s/]+)*/registry/src/[^/\s]+/", "", text)


def cell(result):
    """status / objective / time of one solver, for the table."""
    if result.get("status") is None:
        return result.get("absent", "—")
    parts = [result["status"]]
    if result["status"] == "ERROR" and result.get("error"):
        error = tidy_error(result["error"])[:100]
        parts = [f"{'CRASH' if result.get('crashed') else 'ERROR'}: {error}"]
    if result.get("objective") is not None:
        parts.append(str(result["objective"]))
    parts.append(f"{result['time']:.2f}s" if result.get("time") is not None else "limit"
                 if result["status"] in ("SATISFIED", "UNKNOWN") else f"{result['wall']:.2f}s")
    if result.get("check"):
        parts.append(result["check"] if result["check"] != "checked" else "✓")
    if result.get("wrong"):
        parts.append(f"**WRONG**: {result['wrong']}")
    return " ".join(parts).replace("|", "\\|")


def repeats(results):
    """How the short runs were timed, for the report's opening paragraph."""
    count, below = results.get("repeats", 1), results.get("repeat_below", 0)
    if count <= 1:
        return ", one run each"
    return (f"; a run that finished in under {below:g} s was run {count} times, the solvers "
            "taking turns, and its time is the median")


def verdict(rs, ours, other, method):
    """compare() of two solvers' results on one instance; None if either was not run."""
    if rs.get(other, {}).get("status") is None or rs.get(ours, {}).get("status") is None:
        return None
    return compare(rs[ours], rs[other], method)


def summary(instances, ours, other):
    """The count of verdicts of `ours` against `other`, as report lines."""
    counts = [0, 0, 0]  # better, tie, worse
    sound = [0, 0, 0]  # the same, without the instances on which the other solver crashed
    crashes = 0
    for instance in instances:
        rs = instance["results"]
        c = verdict(rs, ours, other, instance["method"])
        if c is None:
            continue
        counts[1 - c] += 1
        if rs[other].get("crashed"):
            crashes += 1
        else:
            sound[1 - c] += 1
    a, b = NAMES[ours], NAMES[other]
    better, tie, worse = counts
    if not better + tie + worse:
        return [f"- {a} vs {b}: no comparison ({b} not run)."]
    ratio = f" ({better / worse:.1f}x)" if worse else ""
    lines = [f"- {a} vs {b}: {a} better {better}, tie {tie}, {b} better {worse}{ratio}."]
    if crashes:
        better, tie, worse = sound
        ratio = f" ({better / worse:.1f}x)" if worse else ""
        lines.append(f"  {b} crashed (a panic) on {crashes}; without those: {a} better "
                     f"{better}, tie {tie}, {b} better {worse}{ratio}.")
    return lines


def markdown(results):
    """The report: one row per instance, then the counts of the verdicts."""
    solvers = [s for s in results["solvers"] if s in NAMES]
    others = [s for s in solvers if s != "cspkit"]
    ran = [NAMES[s] for s in solvers]
    lines = [
        "## MiniZinc Challenge problems: " + ", ".join(ran[:-1]) + " and " + ran[-1]
        if len(ran) > 1 else f"## MiniZinc Challenge problems: {ran[0]}",
        "",
        f"One instance per problem of minizinc-benchmarks (commit {results['benchmarks'][:12]}, "
        "selection in `bench/minizinc-challenge/selection.txt`), each solver run through "
        f"`{results['minizinc']}` with a {results['timeout']:g} s limit including compilation "
        f"({results['jobs']} instance(s) at a time; {results['date']}){repeats(results)}. "
        "A cell is status, "
        "objective, time to finish (*limit* when it did not); ✓ means Gecode accepted the "
        "solution with every output variable fixed. Regenerate with "
        "`bench/minizinc-challenge/report.py RESULTS.json`.",
        "",
    ]
    for solver, note in results.get("solver_notes", {}).items():
        lines.append(f"- {NAMES.get(solver, solver)}: {note}")
    lines.append("")
    header = ["problem", "data"] + [NAMES[s] for s in solvers] + ["verdict"]
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "---|" * len(header))
    present = [o for o in others
               if any(i["results"].get(o, {}).get("status") for i in results["instances"])]
    wrong = 0
    for instance in results["instances"]:
        rs = instance["results"]
        verdicts = []
        for other in others:
            c = verdict(rs, "cspkit", other, instance["method"])
            if c is None:
                continue
            verdicts.append({1: "cspkit better", 0: "tie", -1: f"{NAMES[other]} better"}[c]
                            + (f" (vs {NAMES[other]})" if len(present) > 1 else ""))
        if any(r.get("wrong") for r in rs.values()):
            wrong += 1
            verdicts.append("**WRONG answer**")
        row = [instance["problem"], instance["data"] or "—"]
        row += [cell(rs.get(s, {})) for s in solvers] + ["; ".join(verdicts)]
        lines.append("| " + " | ".join(row) + " |")
    lines.append("")
    for ours in [s for s in OURS if s in solvers]:
        for other in solvers:
            if other in OURS[:OURS.index(ours) + 1]:
                continue  # itself, or a pair already counted the other way round
            lines += summary(results["instances"], ours, other)
    proofs = {s: sum(proved(i["results"].get(s, {})) for i in results["instances"])
              for s in solvers
              if any(i["results"].get(s, {}).get("status") for i in results["instances"])}
    lines.append("- Proved (optimal or unsatisfiable): "
                 + ", ".join(f"{NAMES[s]} {n}" for s, n in proofs.items()) + ".")
    lines.append(f"- Instances with a wrong answer flagged: {wrong}.")
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        print(markdown(json.load(f)))


if __name__ == "__main__":
    main()
