"""Validates the answers of a bench/run.sh run and writes its Markdown report on stdout.

    python3 bench/report.py RESULTS_DIR > report.md

Exit status 1 if any answer is wrong (the report is written all the same), 0 otherwise.
The results directory holds what run.sh wrote: meta.tsv, peers.tsv, manifest.tsv, one file
of lines `ITEM ANSWER MICROSECONDS NODES FAILURES` per workload, case and peer, and the
memory, start-up and criterion figures.
"""

import re
import json
import math
import statistics
import sys
from pathlib import Path

PEERS = ["cspkit", "cspkit-board", "gecode", "cp-sat", "python-constraint2", "selen", "puzzle-solver",
         "sudoku-crate", "bitboard"]

DATASETS = {
    "unbiased": "puzzles1_unbiased_first1000.txt",
    "17-clue": "puzzles2_17_clue.txt",
    "top1465": "puzzles3_magictour_top1465.txt",
    "hardest-1905": "puzzles5_forum_hardest_1905_11+.txt",
    "hardest-1106": "puzzles6_forum_hardest_1106.txt",
    "serg": "puzzles7_serg_benchmark.txt",
}
MULTI_SOLUTION_SETS = {"serg"}

# Numbers of solutions of N-Queens, n = 1..18 (OEIS A000170).
QUEENS_COUNTS = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184,
                 14772512, 95815104, 666090624]

# workload: (title of its section, its name in the summary)
SUDOKU_WORKLOADS = {
    "sudoku-lex": ("Sudoku: the lexicographically smallest solution", "Sudoku lex"),
    "sudoku-mrv": ("Sudoku: any solution, smallest domain first", "Sudoku any (MRV)"),
    "sudoku-count2": ("Sudoku: count up to 2 solutions (solve and prove unique)", "Sudoku count ≤ 2"),
}
QUEENS_WORKLOADS = {
    "queens-count": ("N-Queens: count all solutions", "Queens count"),
    "queens-first": ("N-Queens: first solution, smallest domain first", "Queens first (MRV)"),
    "queens-lex": ("N-Queens: the lexicographically first placement", "Queens lex"),
}

STRATEGIES = {
    "cspkit": "`benches/workloads.rs` on the public API. lex and count: input order, ascending; "
              "mrv: `SmallestDomain`, ascending. Sudoku at `PropagationLevel::Full` (Régin "
              "all-different), N-Queens at `Forward` (the `cspkit` program's defaults). "
              "Nodes are decisions.",
    "cspkit-board": "cspkit on the N-Queens model with one model-level constraint for the whole "
                    "board (`Queens::non_attacking`, `--model board`: the taken columns and "
                    "diagonals in three reversible words), written on the public API; the same "
                    "search and nodes as cspkit's three all-different constraints.",
    "gecode": "C++ driver: `distinct` with IPL_DOM on every Sudoku unit; lex and count2 branch "
              "INT_VAR_NONE/INT_VAL_MIN, mrv INT_VAR_SIZE_MIN/INT_VAL_MIN. N-Queens: three "
              "`distinct` (columns, and rows with offsets i and -i) at the default level. "
              "Nodes are Gecode's search nodes (both branches count), one thread.",
    "cp-sat": "Python driver, one worker. lex: fixed search CHOOSE_FIRST/SELECT_MIN_VALUE, "
              "`search_branching=FIXED_SEARCH`, `cp_model_presolve=False`; mrv: CP-SAT's default "
              "search; counts: `enumerate_all_solutions` with a counting callback. Nodes are "
              "`num_branches`, failures `num_conflicts`.",
    "python-constraint2": "Python driver: `AllDifferentConstraint` per unit; N-Queens with a "
                          "`FunctionConstraint` per pair of rows for the diagonals. Default "
                          "solver (static order: most constraints, then smallest domain). "
                          "No lex workload, no node counts, no time limit.",
    "selen": "Rust driver on `Model::int`/`alldiff` (N-Queens with auxiliary diagonal "
             "variables, as in selen's example). Its search is fixed: first unassigned "
             "variable, lower half first, so its first solution is the lexicographic minimum; "
             "no smallest-domain option, no node counts. Its 60 s default time limit is "
             "replaced by the run's per-puzzle limit and reported as `limit`.",
    "puzzle-solver": "Rust driver modelled on its own tests (`all_different` per unit; a "
                     "diagonal constraint of our own for N-Queens). It always branches on a "
                     "smallest domain: no lex workload; `solve_unique` gives count2 as "
                     "1 or not-unique. Nodes are `num_guesses`. No time limit.",
    "sudoku-crate": "The specialised `sudoku` crate (not a CSP engine): `some_solution` and "
                    "`solutions_count_up_to(2)`. The speed-of-light reference for 9x9.",
    "bitboard": "A plain bitboard N-Queens solver written for this suite (rows in order, "
                "smallest column first): reference for counting and for the lexicographic "
                "placement. Nodes are queens placed.",
}


def read_tsv(path, columns):
    rows = []
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                rows.append(dict(zip(columns, line.split("\t"))))
    return rows


def read_answers(path):
    """{item: (answer, micros, nodes, failures)} from a driver's output."""
    answers = {}
    if not path.exists():
        return answers
    for line in path.read_text().splitlines():
        fields = line.split()
        if len(fields) != 5 or line.startswith("#"):
            continue
        item, answer, micros, nodes, failures = fields
        number = lambda x: None if x == "-" else int(x)
        answers[int(item)] = (answer, float(micros), number(nodes), number(failures))
    return answers


# ------------------------------------------------------------------------------------------
# Validation.

def sudoku_problem(puzzle, answer):
    """Why `answer` is not a completion of `puzzle`, or None if it is one."""
    if len(answer) != 81 or not answer.isdigit() or "0" in answer:
        return "not a full grid"
    if any(p not in ".0" and p != a for p, a in zip(puzzle, answer)):
        return "changes a given"
    units = [[r * 9 + c for c in range(9)] for r in range(9)]
    units += [[r * 9 + c for r in range(9)] for c in range(9)]
    units += [[(b // 3 * 3 + k // 3) * 9 + b % 3 * 3 + k % 3 for k in range(9)] for b in range(9)]
    if any(len({answer[i] for i in unit}) != 9 for unit in units):
        return "breaks a row, column or block"
    return None


def queens_problem(n, answer):
    """Why `answer` is not a placement of n queens, or None if it is one."""
    try:
        columns = [int(c) for c in answer.split(",")]
    except ValueError:
        return "not a placement"
    if len(columns) != n or sorted(columns) != list(range(1, n + 1)):
        return "not one queen per row and column"
    if len({c + i for i, c in enumerate(columns)}) != n or len({c - i for i, c in enumerate(columns)}) != n:
        return "two queens on a diagonal"
    return None


class Validator:
    def __init__(self):
        self.problems = []  # (case, item, reason)
        self.checked = 0

    def check(self, case, item, reason):
        self.checked += 1
        if reason:
            self.problems.append((case, item, reason))
        return reason is None


def validate_sudoku(validator, case, mode, dataset, puzzles, answers, reference):
    """Checks every answer; `reference` holds cspkit's answers for the lex comparison."""
    wrong = 0
    for item, (answer, _, _, _) in answers.items():
        if answer == "limit":
            continue
        puzzle = puzzles.get(item)
        if puzzle is None:
            reason = "no such puzzle"
        elif mode == "count2":
            expected = 2 if dataset in MULTI_SOLUTION_SETS else 1
            if answer == "not-unique":
                reason = None if expected == 2 else "says not unique, but the solution is unique"
            else:
                reason = None if answer == str(expected) else f"counted {answer}, expected {expected}"
        elif answer == "none":
            reason = "found no solution"
        else:
            reason = sudoku_problem(puzzle, answer)
            if reason is None and mode == "lex" and item in reference and reference[item][0] != "limit" \
                    and reference[item][0] != answer:
                reason = "not the lexicographically smallest solution (differs from cspkit's)"
        wrong += not validator.check(case, item, reason)
    return wrong


def validate_queens(validator, case, mode, answers, reference):
    wrong = 0
    for n, (answer, _, _, _) in answers.items():
        if answer == "limit":
            continue
        if mode == "count":
            known = QUEENS_COUNTS[n - 1] if n <= len(QUEENS_COUNTS) else None
            reason = None if known is None or answer == str(known) else f"counted {answer}, expected {known}"
        elif answer == "none":
            reason = None if n in (2, 3) else "found no placement"
        else:
            reason = queens_problem(n, answer)
            if reason is None and mode == "lex" and n in reference and reference[n][0] not in ("limit", answer):
                reason = "not the lexicographically first placement"
        wrong += not validator.check(case, n, reason)
    return wrong


# ------------------------------------------------------------------------------------------
# Figures.

def percentile(values, fraction):
    """The nearest-rank percentile."""
    ordered = sorted(values)
    rank = math.ceil(fraction * len(ordered))
    return ordered[min(max(rank, 1), len(ordered)) - 1]


def fmt_micros(us):
    if us >= 1e6:
        return f"{us / 1e6:.2f} s"
    if us >= 1e3:
        return f"{us / 1e3:.1f} ms"
    return f"{us:.0f} µs"


def fmt_number(x):
    if x is None:
        return "–"
    if x >= 1e6:
        return f"{x / 1e6:.2f} M"
    if x >= 1e4:
        return f"{x / 1e3:.0f} k"
    if x >= 100:
        return f"{x:.0f}"
    return f"{x:.1f}"


def ratio(peer, base, items):
    """Peer time over cspkit time on the same items, as (total ratio, median ratio, bound).

    Items where both searches hit their limit are left out. `bound` is ">=" when only the peer
    hit a limit on some item (its true time, so the ratio, is larger), "<=" when only cspkit
    did, "~" when both happened on different items, and "" otherwise.
    """
    both_stopped = lambda i: peer[i][0] == "limit" and base[i][0] == "limit"
    common = [i for i in items if i in base and not both_stopped(i)]
    if not common:
        return None
    peer_times = [peer[i][1] for i in common]
    base_times = [base[i][1] for i in common]
    peer_stopped = any(peer[i][0] == "limit" for i in common)
    base_stopped = any(base[i][0] == "limit" for i in common)
    bound = {(True, False): ">=", (False, True): "<=", (True, True): "~"}.get((peer_stopped, base_stopped), "")
    return (sum(peer_times) / sum(base_times),
            statistics.median(peer_times) / statistics.median(base_times),
            bound)


def fmt_ratio(r, which=0):
    if r is None:
        return "–"
    value = r[which]
    text = f"{value:.2f}" if value < 100 else f"{value:.0f}"
    prefix = {">=": "≥ ", "<=": "≤ ", "~": "~ "}.get(r[2], "") if which == 0 else ""
    return prefix + text


# ------------------------------------------------------------------------------------------
# The report.

class Report:
    def __init__(self, results):
        self.results = results
        self.meta = {row["key"]: row["value"] for row in read_tsv(results / "meta.tsv", ["key", "value"])}
        self.peers = read_tsv(results / "peers.tsv", ["peer", "status", "version", "note"])
        self.manifest = read_tsv(results / "manifest.tsv", ["workload", "key", "peer", "state", "parameters", "seconds"])
        self.validator = Validator()
        self.lines = []
        self.summary = {}  # (workload label) -> {peer: ratio}
        self.data = Path(self.meta.get("data", "."))
        self.puzzle_cache = {}

    def out(self, text=""):
        self.lines.append(text)

    def cases(self, workload):
        return [row for row in self.manifest if row["workload"] == workload]

    def answers(self, workload, key, peer):
        return read_answers(self.results / workload / key / f"{peer}.txt")

    def puzzles(self, dataset):
        if dataset not in self.puzzle_cache:
            path = self.data / DATASETS[dataset]
            lines = path.read_text().splitlines() if path.exists() else []
            self.puzzle_cache[dataset] = {i: line for i, line in enumerate(lines, start=1) if len(line) == 81}
        return self.puzzle_cache[dataset]

    def table(self, header, rows, text_columns=1):
        """A Markdown table: the first `text_columns` columns and the last one if it is named
        `notes` are left-aligned, the others (figures) right-aligned."""
        self.out("| " + " | ".join(header) + " |")
        left = lambda i: i < text_columns or header[i] in ("notes", "how it runs")
        self.out("|" + "|".join("---" if left(i) else "---:" for i in range(len(header))) + "|")
        for row in rows:
            self.out("| " + " | ".join(str(cell) for cell in row) + " |")
        self.out()

    # -- sections ---------------------------------------------------------------------------

    def sudoku_section(self, workload, title, label):
        cases = self.cases(workload)
        if not cases:
            return
        mode = workload.split("-", 1)[1]
        self.out(f"## {title}")
        self.out()
        rows = []
        for dataset in DATASETS:
            base = self.answers(workload, dataset, "cspkit")
            for case in [c for c in cases if c["key"] == dataset]:
                peer = case["peer"]
                answers = self.answers(workload, dataset, peer)
                wrong = validate_sudoku(self.validator, f"{workload} {dataset} {peer}", mode, dataset,
                                        self.puzzles(dataset), answers, base)
                if not answers:
                    rows.append([dataset, peer, "0", "–", "–", "–", "–", "–", "–", "–", "–", case["state"]])
                    continue
                times = [a[1] for a in answers.values()]
                nodes = [a[2] for a in answers.values() if a[2] is not None]
                failures = [a[3] for a in answers.values() if a[3] is not None]
                stopped = sum(a[0] == "limit" for a in answers.values())
                r = None if peer == "cspkit" else ratio(answers, base, answers.keys())
                if r is not None:
                    self.summary.setdefault(f"{label}, {dataset}", {})[peer] = r
                notes = [case["parameters"]] if case["parameters"] else []
                if case["state"] != "finished":
                    notes.append(case["state"])
                rows.append([
                    dataset, peer, len(answers), stopped or "", wrong or "",
                    f"{len(times) / (sum(times) / 1e6):,.0f}",
                    fmt_micros(statistics.median(times)), fmt_micros(percentile(times, 0.99)),
                    fmt_number(statistics.mean(nodes)) if nodes else "–",
                    fmt_number(statistics.mean(failures)) if failures else "–",
                    "" if peer == "cspkit" else f"{fmt_ratio(r)} / {fmt_ratio(r, 1)}",
                    "; ".join(notes),
                ])
        self.table(["set", "peer", "puzzles", "limit", "wrong", "puzzles/s", "median", "p99",
                    "nodes/puzzle", "failures/puzzle", "ratio total / median", "notes"], rows, 2)
        if mode == "lex":
            self.lex_agreement(workload)

    def lex_agreement(self, workload):
        """States how many serg answers equal cspkit's: the check of the lexicographic claim."""
        base = self.answers(workload, "serg", "cspkit")
        agreements = []
        for case in self.cases(workload):
            if case["key"] != "serg" or case["peer"] == "cspkit":
                continue
            answers = self.answers(workload, "serg", case["peer"])
            compared = [i for i, a in answers.items() if a[0] != "limit" and i in base]
            same = sum(answers[i][0] == base[i][0] for i in compared)
            agreements.append(f"{case['peer']} {same} of {len(compared)}")
        if agreements:
            self.out("On serg, where every puzzle has several solutions, the answers equal cspkit's "
                     "for: " + ", ".join(agreements) + ". (CP-SAT gives the lexicographic minimum "
                     "only with presolve off and one worker; see `bench/README.md`.)")
            self.out()

    def levels_section(self):
        cases = self.cases("levels")
        if not cases:
            return
        self.out("## Propagation levels (cspkit): plain backtracking, forward checking, full")
        self.out()
        self.out("The same puzzles at each level, default strategy (input order, ascending), so every "
                 "level must find the same, lexicographically smallest, solution. `none` runs with a "
                 "node limit; a puzzle that hits it is counted under *hit limit* and its figures "
                 "are lower bounds.")
        self.out()
        rows = []
        for case in cases:
            dataset, level = case["key"].rsplit("-", 1)
            answers = self.answers("levels", case["key"], "cspkit")
            reference = self.answers("sudoku-lex", dataset, "cspkit")
            wrong = validate_sudoku(self.validator, f"levels {case['key']}", "lex", dataset,
                                    self.puzzles(dataset), answers, reference)
            if not answers:
                rows.append([dataset, level, 0, "", "", "–", "–", "–", "–", case["state"]])
                continue
            times = [a[1] for a in answers.values()]
            rows.append([
                dataset, level, len(answers), sum(a[0] == "limit" for a in answers.values()) or "",
                wrong or "", fmt_number(statistics.mean(a[2] for a in answers.values())),
                fmt_number(statistics.mean(a[3] for a in answers.values())),
                fmt_micros(statistics.median(times)), f"{sum(times) / 1e6:.2f} s",
                case["parameters"] + ("" if case["state"] == "finished" else "; " + case["state"]),
            ])
        self.table(["set", "level", "puzzles", "hit limit", "wrong", "nodes/puzzle", "failures/puzzle",
                    "median", "total", "notes"], rows, 2)

    def queens_section(self, workload, title, label):
        cases = self.cases(workload)
        if not cases:
            return
        mode = {"queens-count": "count", "queens-first": "mrv", "queens-lex": "lex"}[workload]
        self.out(f"## {title}")
        self.out()
        peers = [c["peer"] for c in cases]
        all_answers = {p: self.answers(workload, "all", p) for p in peers}
        base = all_answers.get("cspkit", {})
        reference = all_answers.get("bitboard") or base
        for case in cases:
            validate_queens(self.validator, f"{workload} {case['peer']}", mode,
                            all_answers[case["peer"]], reference)
        sizes = sorted({n for answers in all_answers.values() for n in answers})
        time_rows, node_rows = [], []
        for n in sizes:
            time_row, node_row = [n], [n]
            for peer in peers:
                answer = all_answers[peer].get(n)
                if answer is None:
                    time_row.append("")
                    node_row.append("")
                    continue
                cell = "limit " + fmt_micros(answer[1]) if answer[0] == "limit" else fmt_micros(answer[1])
                if peer != "cspkit" and n in base:
                    r = ratio(all_answers[peer], base, [n])
                    cell += f" ({fmt_ratio(r)})"
                time_row.append(cell)
                node_row.append(fmt_number(answer[2]))
            time_rows.append(time_row)
            node_rows.append(node_row)
        for peer in peers:
            if peer != "cspkit":
                r = ratio(all_answers[peer], base, all_answers[peer].keys())
                if r is not None:
                    self.summary.setdefault(label, {})[peer] = r
        self.out("Time per board (ratio to cspkit in brackets); `limit` means the per-board time limit "
                 "stopped the search (`≥`/`≤` mark the ratio as a bound, `–` means both stopped); an "
                 "empty cell is a board the peer was not given or did not reach within its budget.")
        self.out()
        self.table(["n"] + peers, time_rows)
        self.out("Nodes (each peer's own count; see the peers table):")
        self.out()
        self.table(["n"] + peers, node_rows)
        notes = [f"{c['peer']}: {c['parameters']}" + ("" if c["state"] == "finished" else f", {c['state']}")
                 for c in cases]
        self.out("Runs: " + "; ".join(notes) + ".")
        self.out()

    def cost_section(self):
        rows = read_tsv(self.results / "cost.tsv", ["workload", "case", "instructions", "aggregate"])
        if not rows:
            return
        self.out("## What a search node costs the engine")
        self.out()
        self.out(f"One fixed case of each workload, run by the workloads program under "
                 f"{self.meta.get('cost tool', 'callgrind')}: the instructions of the whole program "
                 "(model construction and reading the input included) over the **tree nodes** (the "
                 "root of each search, every decision and every refutation), and the engine's own "
                 "counts per tree node: propagator runs and domain changes (`SearchStats`). "
                 "Instructions do not depend on the machine's load; they are the figure to compare "
                 "between two commits.")
        self.out()
        table = []
        for row in rows:
            aggregate = row["aggregate"]
            items = re.search(r": (\d+) (\w+),", aggregate)
            nodes = re.search(r"; (\d+) tree nodes, ([\d.]+) propagations and ([\d.]+) domain changes", aggregate)
            if not (items and nodes and row["instructions"].isdigit()):
                table.append([row["workload"], row["case"], "?", "?", "?", "?", "?"])
                continue
            count, tree = int(items.group(1)), int(nodes.group(1))
            instructions = int(row["instructions"])
            table.append([row["workload"], row["case"], f"{tree:,}", f"{instructions / max(tree, 1):,.0f}",
                          nodes.group(2), nodes.group(3), f"{instructions / max(count, 1):,.0f}"])
        self.table(["workload", "case", "tree nodes", "instructions per tree node",
                    "propagations per tree node", "domain changes per tree node",
                    "instructions per puzzle or board"], table, 2)

    def memory_section(self):
        rows = read_tsv(self.results / "memory.tsv", ["command", "rss", "baseline", "input"])
        if not rows:
            return
        self.out("## Peak memory of the `cspkit` program")
        self.out()
        self.out(f"Maximum resident set size, measured with {self.meta.get('rss tool', '?')}; the "
                 "baseline is `cspkit --version`.")
        self.out()
        mib = lambda kib: f"{int(kib) / 1024:.1f} MiB" if kib.strip().isdigit() else "?"
        self.table(["command", "input", "peak RSS", "baseline"],
                   [[f"`{r['command']}`", r.get("input") or "", mib(r["rss"]), mib(r["baseline"])] for r in rows], 2)

    def startup_section(self):
        path = self.results / "startup.json"
        if not path.exists():
            return
        result = json.loads(path.read_text())["results"][0]
        times = [t * 1e6 for t in result["times"]]
        self.out("## Start-up plus one 9x9 solve")
        self.out()
        self.out(f"`cspkit sudoku FILE` on the first puzzle of top1465, {len(times)} runs with "
                 f"{self.meta.get('startup tool', '?')}: median **{fmt_micros(statistics.median(times))}**, "
                 f"mean {fmt_micros(statistics.mean(times))}, min {fmt_micros(min(times))}, "
                 f"max {fmt_micros(max(times))}.")
        self.out()

    def micro_section(self):
        root = self.results / "criterion"
        estimates = sorted(root.glob("*/*/new/estimates.json")) if root.exists() else []
        if not estimates:
            return
        self.out("## Criterion micro-benchmarks (`cargo bench --bench micro`)")
        self.out()
        self.out("`all_different/*` run a solver stopped before its first decision (search set-up "
                 "plus the root propagation): subtract `all_different/setup_only` for the "
                 "propagation alone.")
        self.out()
        rows = []
        for path in estimates:
            info = json.loads((path.parent / "benchmark.json").read_text())
            median = json.loads(path.read_text())["median"]
            low, high = median["confidence_interval"]["lower_bound"], median["confidence_interval"]["upper_bound"]
            rows.append([f"`{info['full_id']}`", fmt_ns(median["point_estimate"]), f"{fmt_ns(low)} – {fmt_ns(high)}"])
        self.table(["benchmark", "median", "95% interval"], rows)

    def summary_section(self):
        if not self.summary:
            return
        peers = [p for p in PEERS[1:] if any(p in row for row in self.summary.values())]
        self.out("## Summary: time ratios")
        self.out()
        self.out("Peer time / cspkit time on the same inputs (total over the puzzles or boards both "
                 "ran): **above 1 means cspkit is faster**. `≥` marks a ratio where the peer hit a "
                 "time limit on some input, so the true ratio is larger; `≤` one where cspkit did; "
                 "`~` both, on different inputs. Inputs where both hit the limit are left out. Medians and per-puzzle figures are in the "
                 "sections below.")
        self.out()
        rows = [[label] + [fmt_ratio(ratios.get(p)) for p in peers] for label, ratios in self.summary.items()]
        self.table(["workload"] + peers, rows)

    def peers_section(self):
        self.out("## Peers")
        self.out()
        rows = [["cspkit", "built", self.meta.get("cspkit", "?"), STRATEGIES["cspkit"]]]
        if any(row["peer"] == "cspkit-board" for row in self.manifest):
            rows.append(["cspkit-board", "built", self.meta.get("cspkit", "?"), STRATEGIES["cspkit-board"]])
        for row in self.peers:
            note = STRATEGIES.get(row["peer"], "")
            if row["status"] != "installed":
                note = f"**{row['status']}**: {row['note']}"
            else:
                note = f"{row['note']}. {note}"
            rows.append([row["peer"], row["status"], row["version"], note])
        self.table(["peer", "status", "version", "how it runs"], rows, 3)

    def validation_section(self):
        self.out("## Validation")
        self.out()
        problems = self.validator.problems
        self.out(f"{self.validator.checked:,} answers checked: every Sudoku solution is a valid completion "
                 "of its puzzle; lexicographic answers equal cspkit's (and N-Queens ones the bitboard "
                 "search's); counts equal 1 on the unique sets and 2 on serg; N-Queens counts equal the "
                 "known numbers (OEIS A000170); placements are valid. Answers stopped by a limit are "
                 "not counted as wrong.")
        self.out()
        if not problems:
            self.out("**No wrong answer.**")
        else:
            self.out(f"**{len(problems)} wrong answers**, the first ones:")
            self.out()
            for case, item, reason in problems[:20]:
                self.out(f"- {case}, item {item}: {reason}")
        self.out()

    def write(self):
        meta = self.meta
        body_start = len(self.lines)
        for workload, (title, label) in SUDOKU_WORKLOADS.items():
            self.sudoku_section(workload, title, label)
        self.levels_section()
        for workload, (title, label) in QUEENS_WORKLOADS.items():
            self.queens_section(workload, title, label)
        self.cost_section()
        self.memory_section()
        self.startup_section()
        self.micro_section()
        body = self.lines[body_start:]
        self.lines = self.lines[:body_start]

        self.out("# cspkit benchmarks")
        self.out()
        kind = "a quick smoke run (small subsets)" if meta.get("quick") == "1" else "a full run"
        self.out(f"Generated by `{meta.get('command', 'bench/run.sh')}` ({kind}) on {meta.get('date', '?')}. "
                 "Rerun it to refresh this file; `bench/README.md` explains the options.")
        self.out()
        self.out("**The machine is shared and noisy**: other work ran on the same cores during the run, "
                 "so times vary from run to run by tens of percent; compare ratios and node counts "
                 "rather than absolute times, and rerun before drawing fine conclusions. Every figure "
                 "comes from one run.")
        self.out()
        # The engine's history and profile, written by hand (bench/engine.md), kept across runs.
        notes = Path(__file__).resolve().parent / "engine.md"
        if notes.is_file():
            self.out(notes.read_text(encoding="utf-8").rstrip())
            self.out()
        # cspkit against Gecode through MiniZinc (bench/minizinc.py), kept across runs.
        minizinc = Path(__file__).resolve().parent / "minizinc.md"
        if minizinc.is_file():
            self.out(minizinc.read_text(encoding="utf-8").rstrip())
            self.out()
        self.out("## Machine and tools")
        self.out()
        rows = [
            ["CPU", meta.get("cpu", "?")],
            ["cores (`nproc`)", meta.get("nproc", "?")],
            ["memory", meta.get("memory", "?")],
            ["kernel", meta.get("kernel", "?")],
            ["load average at the end", meta.get("load", "?")],
            ["duration of the run", meta.get("duration", "?")],
            ["cspkit", meta.get("cspkit", "?")],
            ["rustc", meta.get("rustc", "?")],
            ["cargo", meta.get("cargo", "?")],
            ["criterion", meta.get("criterion", "?")],
            ["Python", meta.get("python", "?")],
        ]
        rows += [[row["peer"], row["version"]] for row in self.peers if row["status"] == "installed"]
        if "startup tool" in meta:
            rows.append(["start-up timer", meta["startup tool"]])
        if "rss tool" in meta:
            rows.append(["peak memory", meta["rss tool"]])
        self.table(["", ""], rows, 2)
        self.out("## How to read the tables")
        self.out()
        self.out("- Every driver times each board the same way: **building the model plus solving "
                 "it**, excluding reading and parsing the input. For Sudoku, cspkit and Gecode "
                 "build the model of the empty grid once and time each puzzle from adding its "
                 "givens (cspkit: a solver restarted with them; Gecode: a clone of the base space "
                 "with `rel` posts) to the answer; the other peers build a model per puzzle. "
                 "Python peers pay for building their model in Python.")
        self.out("- *puzzles/s* is the number of puzzles over the sum of their times; *median* and "
                 "*p99* are per puzzle; *nodes* and *failures* are each peer's own statistics (their "
                 "definitions differ: see the peers table).")
        self.out("- *ratio total / median*: the peer's total time over cspkit's total time on the same "
                 "puzzles, then the same for the medians. Above 1, cspkit is faster.")
        self.out("- Slow peers run the first puzzles of each set only (*notes*); the ratio is always "
                 "taken on the puzzles both ran. *limit* counts searches stopped by a per-puzzle time "
                 "limit; *wrong* counts invalid answers (see Validation). Each driver is one process "
                 "per set or list of boards, so its first puzzle or board also pays for warming up.")
        self.out("- Sets (tdoku's benchmark sets, read from the data directory): "
                 + ", ".join(f"{k} = `{v}`" for k, v in DATASETS.items()) + ". serg puzzles have "
                 "several solutions each, so it is the set where the lexicographic answer is tested.")
        self.out()
        self.summary_section()
        self.lines += body
        self.peers_section()
        self.validation_section()
        return "\n".join(self.lines).rstrip() + "\n"


def fmt_ns(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.2f} µs"
    return f"{ns:.1f} ns"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: report.py RESULTS_DIR")
    report = Report(Path(sys.argv[1]))
    sys.stdout.write(report.write())
    sys.exit(1 if report.validator.problems else 0)


if __name__ == "__main__":
    main()
