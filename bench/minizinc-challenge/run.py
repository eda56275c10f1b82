#!/usr/bin/env python3
"""cspkit against Gecode (and Pumpkin and Huub, when installed) on the MiniZinc benchmark problems.

The problems are those of https://github.com/MiniZinc/minizinc-benchmarks (the public
MiniZinc Challenge problems); they are not copied here. Give the path of a checkout, or of a
bare clone (its files are then extracted into the scratch directory as needed).

Two steps:

    run.py --select --benchmarks DIR
        writes selection.txt: one instance per problem directory (see README.md for the rule);
        the selection does not depend on any solver's results, only on the files and on whether
        the model compiles to FlatZinc with floats.

    run.py --benchmarks DIR [--timeout S] [--jobs N] [--only P,Q]
           [--solvers cspkit,cspkit-learn,gecode,pumpkin,huub] [--pumpkin-library REPO]
           [--results FILE.json]
        runs every selected instance with every solver through `minizinc --time-limit`, checks
        each solution of a solver other than Gecode with Gecode, cross-checks the statuses, prints the
        Markdown report (report.py) and saves the raw results if --results is given.

Every command goes through `minizinc` with MZN_SOLVER_PATH set to a scratch directory holding
cspkit's solver configuration (written by `fzn-cspkit --install-msc`) and a patched copy of
Gecode's MiniZinc library with its configuration (see `gecode_library`). Standard library only.
"""

import argparse
import concurrent.futures
import datetime
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SELECTION = HERE / "selection.txt"

CSPKIT_ID = "org.cspkit.cspkit"
GECODE_ID = "org.cspkit.bench.gecode"
PUMPKIN_ID = "org.cspkit.bench.pumpkin"
# The release whose MiniZinc library is used with the `pumpkin-solver` executable (crates.io).
PUMPKIN_REF = "pumpkin-solver-v0.5.0"
SOLVERS = ("cspkit", "gecode", "pumpkin", "huub")
# Run only when asked for: cspkit with learning from failures (`fzn-cspkit --learn`).
VARIANTS = ("cspkit-learn",)
SKIPPED = "skipped"
GRACE = 10  # seconds allowed past --time-limit before the process group is killed
FINAL = {"OPTIMAL", "UNSAT"}


# --------------------------------------------------------------------------------------------
# The benchmark files: a checkout, or a bare git repository read with git.


class Benchmarks:
    """The files of minizinc-benchmarks, from a checkout or from a (bare) git directory."""

    def __init__(self, path, scratch):
        self.path = Path(path).resolve()
        self.scratch = Path(scratch)
        self.git = (self.path / "HEAD").is_file() and (self.path / "objects").is_dir()
        if not self.git and not self.path.is_dir():
            sys.exit(f"{path}: not a directory")
        self._files = None

    def revision(self):
        """The commit of the benchmarks, when known."""
        git_dir = self.path if self.git else self.path / ".git"
        if not git_dir.exists():
            return "unknown"
        done = subprocess.run(["git", "--git-dir", str(git_dir), "rev-parse", "HEAD"],
                              capture_output=True, text=True)
        return done.stdout.strip() or "unknown"

    def files(self):
        """Every file, as a path relative to the top (with `/`), sorted."""
        if self._files is None:
            if self.git:
                done = subprocess.run(
                    ["git", "--git-dir", str(self.path), "ls-tree", "-r", "--name-only", "HEAD"],
                    capture_output=True, text=True, check=True)
                names = done.stdout.splitlines()
            else:
                names = []
                for top, dirs, files in os.walk(self.path):
                    dirs[:] = [d for d in dirs if d != ".git"]
                    rel = Path(top).relative_to(self.path)
                    names += [(rel / f).as_posix() for f in files]
            self._files = sorted(n for n in names if "/" in n)
        return self._files

    def problems(self):
        """The problem directories (top-level directories), sorted."""
        return sorted({name.split("/", 1)[0] for name in self.files()})

    def directory(self, problem, data=""):
        """A directory holding the problem's models (and the data file `data`, if given).

        From a git directory, the files are extracted into the scratch directory: every file of
        the problem but its data files (.dzn, .json), of which only `data`. Returns None when a
        needed file cannot be read (a partial clone may lack some)."""
        if not self.git:
            return self.path / problem
        target = self.scratch / "benchmarks"
        for name in self.files():
            if not name.startswith(problem + "/"):
                continue
            relative = name[len(problem) + 1:]
            if relative.endswith((".dzn", ".json")) and relative != data:
                continue
            path = target / name
            if path.exists():
                continue
            done = subprocess.run(["git", "--git-dir", str(self.path), "cat-file", "blob",
                                   f"HEAD:{name}"], capture_output=True)
            if done.returncode != 0:
                if relative.endswith(".mzn") or relative == data:
                    return None
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(done.stdout)
        return target / problem


# --------------------------------------------------------------------------------------------
# Solver configurations.


def find_fzn_cspkit(given):
    """fzn-cspkit: the given path, $FZN_CSPKIT, or the release build of this repository."""
    candidates = [given, os.environ.get("FZN_CSPKIT")]
    if os.environ.get("CARGO_TARGET_DIR"):
        candidates.append(Path(os.environ["CARGO_TARGET_DIR"]) / "release" / "fzn-cspkit")
    candidates.append(ROOT / "target" / "release" / "fzn-cspkit")
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return Path(candidate).resolve()
    sys.exit("fzn-cspkit not found: `cargo build --release`, or give --fzn-cspkit PATH")


def gecode_library(source, target):
    """Copies Gecode's MiniZinc library `source` into `target`, patched for MiniZinc 2.6.

    Debian's Gecode 6.2 library does not type-check with MiniZinc 2.6's `globals.mzn`:
      * std/inverse_fn.mzn calls `inverse` on `var opt int` arrays, and Gecode's inverse.mzn
        replaces std/inverse.mzn (which has that overload) with a `var int` one only: the copy
        gets the overload appended, defined by the standard `fzn_inverse_opt` decomposition;
      * std/nvalue_fn.mzn calls `nvalue(n, x)` with `x` of any index set (`array[$X]`), but
        Gecode's nvalue.mzn declares it for `array[int]` only: the copy drops nvalue.mzn, so the
        standard library's nvalue.mzn (and its `fzn_nvalue` decomposition) is used instead.
    Returns the list of changes made, for the report.
    """
    shutil.copytree(source, target)
    changes = []
    inverse = target / "inverse.mzn"
    if inverse.is_file() and "var opt int" not in inverse.read_text():
        with inverse.open("a") as f:
            f.write('\n% Added for MiniZinc 2.6 (std/inverse_fn.mzn needs it).\n'
                    'include "fzn_inverse_opt.mzn";\n'
                    'predicate inverse(array[int] of var opt int: f,\n'
                    '                  array[int] of var opt int: invf) =\n'
                    '    fzn_inverse_opt(f, invf);\n')
        changes.append("inverse.mzn: `var opt int` overload added")
    nvalue = target / "nvalue.mzn"
    if nvalue.is_file():
        nvalue.unlink()
        changes.append("nvalue.mzn removed")
    return changes


def write_msc(path, ident, name, executable, mznlib, flags):
    """Writes a MiniZinc solver configuration for a FlatZinc executable (`mznlib` None: the
    standard library's decompositions)."""
    path.write_text(json.dumps({
        "id": ident, "name": name, "version": "bench", "executable": str(executable),
        "mznlib": str(mznlib) if mznlib else "", "tags": ["cp", "int"], "stdFlags": flags,
        "supportsMzn": False, "supportsFzn": True, "needsSolns2Out": True,
        "needsMznExecutable": False, "needsStdlibDir": False, "isGUIApplication": False,
    }, indent=2))


def find_huub(given, env):
    """Huub's solver: the given .msc, or an installed MiniZinc solver whose id mentions huub."""
    if given:
        return str(Path(given).resolve())
    done = subprocess.run(["minizinc", "--solvers-json"], capture_output=True, text=True, env=env)
    try:
        solvers = json.loads(done.stdout)
    except ValueError:
        return None
    for solver in solvers:
        if "huub" in solver.get("id", "").lower():
            return solver["id"]
    return None


def pumpkin_library(source, reference, target):
    """Pumpkin's MiniZinc library (`minizinc/lib` of its repository) in `target`.

    `source` is the library directory itself, or a checkout or bare clone of Pumpkin's
    repository, from which `minizinc/lib` is read at `reference` (the release tag matching the
    installed `pumpkin-solver`). Returns (path, description), or (None, reason) when the
    library cannot be had."""
    source = Path(source).resolve()
    if (source / "redefinitions.mzn").is_file():
        return source, f"library `{source.name}` as given"
    git_dir = source if (source / "objects").is_dir() else source / ".git"
    listed = subprocess.run(["git", "--git-dir", str(git_dir), "ls-tree", "-r", "--name-only",
                             reference, "minizinc/lib/"], capture_output=True, text=True)
    names = listed.stdout.split()
    if listed.returncode != 0 or not names:
        return None, f"no minizinc/lib at {reference} in {source}"
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    for name in names:
        blob = subprocess.run(["git", "--git-dir", str(git_dir), "cat-file", "blob",
                               f"{reference}:{name}"], capture_output=True, check=True)
        (target / Path(name).name).write_bytes(blob.stdout)
    return target, f"its MiniZinc library `minizinc/lib` at `{reference}`"


def setup_solvers(args, scratch):
    """Writes the solver configurations into scratch/solvers; returns (env, {name: solver})."""
    solvers_dir = Path(scratch) / "solvers"
    solvers_dir.mkdir(parents=True, exist_ok=True)
    fzn_cspkit = find_fzn_cspkit(args.fzn_cspkit)
    subprocess.run([str(fzn_cspkit), "--install-msc", str(solvers_dir)], check=True,
                   capture_output=True)
    env = dict(os.environ, MZN_SOLVER_PATH=str(solvers_dir))
    # Each solver as the arguments that name it to `minizinc`.
    solvers = {"cspkit": [CSPKIT_ID], "cspkit-learn": [CSPKIT_ID, "--learn"]}
    fzn_gecode = args.fzn_gecode or shutil.which("fzn-gecode")
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    changed = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain",
                              "--untracked-files=no"], capture_output=True, text=True).stdout.strip()
    # The working tree's state at the start: a binary may hold changes not yet committed.
    dirty = " with uncommitted changes" if changed else ""
    notes = {"cspkit": f"`fzn-cspkit` built from commit {commit or 'unknown'}{dirty} of cspkit"}
    if "cspkit-learn" in args.solvers:
        notes["cspkit-learn"] = "the same `fzn-cspkit` with `--learn` (learning from failures)"
    if fzn_gecode and Path(args.gecode_mznlib).is_dir():
        library = solvers_dir / "gecode-mznlib"
        if library.exists():
            shutil.rmtree(library)
        changes = gecode_library(Path(args.gecode_mznlib), library)
        write_msc(solvers_dir / "gecode-bench.msc", GECODE_ID, "Gecode (patched library)",
                  Path(fzn_gecode).resolve(), library, ["-a", "-f", "-n", "-p", "-r", "-s", "-t"])
        solvers["gecode"] = [GECODE_ID]
        notes["gecode"] = ("`fzn-gecode` with a copy of its MiniZinc library, patched: "
                           + ("; ".join(changes) or "no change needed"))
    pumpkin = args.pumpkin or shutil.which("pumpkin-solver")
    if pumpkin and "pumpkin" in args.solvers:
        version = subprocess.run([pumpkin, "--version"], capture_output=True, text=True)
        version = (version.stdout.strip() or "version unknown").replace("pumpkin-solver ", "")
        if args.pumpkin_library:
            library, how = pumpkin_library(args.pumpkin_library, args.pumpkin_ref,
                                           solvers_dir / "pumpkin-mznlib")
        else:
            library, how = None, "no --pumpkin-library given"
        if library is None:
            how = f"the standard library's decompositions ({how})"
        write_msc(solvers_dir / "pumpkin-bench.msc", PUMPKIN_ID, "Pumpkin",
                  Path(pumpkin).resolve(), library, ["-a", "-f", "-r", "-s", "-t", "-v"])
        solvers["pumpkin"] = [PUMPKIN_ID]
        notes["pumpkin"] = f"`pumpkin-solver` {version} (crates.io) with {how}"
    huub = find_huub(args.huub_msc, env)
    if huub:
        solvers["huub"] = [huub]
        notes["huub"] = f"solver `{Path(huub).name}`"
    return env, solvers, notes


# --------------------------------------------------------------------------------------------
# Running minizinc.


def run_minizinc(command, env, cwd, timeout):
    """Runs a command in its own process group; kills the group after `timeout` seconds.

    Returns (stdout, stderr, return code or None when killed, wall seconds)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = process.communicate(timeout=timeout)
        code = process.returncode
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        code = None
    return out, err, code, time.perf_counter() - start


def first_error(stderr, stdout=""):
    """The first line of an error message (MiniZinc's or the solver's)."""
    lines = [l.strip() for l in (stderr + "\n" + stdout).splitlines() if l.strip()]
    for line in lines:
        if re.search(r"error|exception|panick|abort", line, re.I) and not line.startswith("%"):
            return line[:200]
    informative = [l for l in lines if not l.startswith(("Warning", "%", "{", "}"))]
    return (informative[0] if informative else "no output")[:200]


def parse_output(out):
    """Parses `--output-mode json --output-objective` output.

    Returns (solutions as dicts, final marker or None, statistics dict)."""
    solutions, marker, stats, chunk = [], None, {}, []
    for line in out.splitlines():
        if line.startswith("%%%mzn-stat:") and "=" in line:
            key, value = line[len("%%%mzn-stat:"):].strip().split("=", 1)
            stats[key.strip()] = value.strip()
        elif line.startswith("%"):
            continue
        elif line == "----------":
            text = "\n".join(chunk).strip()
            chunk = []
            try:
                solutions.append(json.loads(text) if text else {})
            except ValueError:
                solutions.append({"_unparsed": text[:500]})
        elif re.fullmatch(r"=====[A-Za-z]+=====|==========", line):
            marker = line.strip("=") or "COMPLETE"
        else:
            chunk.append(line)
    return solutions, marker, stats


def objective_of(solution, stats):
    """The objective of a solution: `_objective` of the JSON, else the solver's statistic."""
    value = solution.get("_objective")
    if value is None and "objective" in stats:
        try:
            value = int(stats["objective"])
        except ValueError:
            value = None
    return value


def solve(solver, model, data, method, directory, env, timeout):
    """Runs one solver (its id and flags) on one instance within `timeout` seconds
    (compilation included)."""
    command = ["minizinc", "--solver", *solver, "--time-limit", str(int(timeout * 1000)),
               "--output-mode", "json", "--output-objective", "--intermediate", "-s", model]
    if data:
        command.append(data)
    out, err, code, wall = run_minizinc(command, env, directory, timeout + GRACE)
    solutions, marker, stats = parse_output(out)
    result = {"wall": round(wall, 3), "solutions": len(solutions), "killed": code is None}
    last = solutions[-1] if solutions else None
    if marker == "COMPLETE" and last is not None:
        status = "OPTIMAL" if method in ("min", "max") else "SATISFIED"
    elif marker == "UNSATISFIABLE":
        status = "UNSAT"
    elif marker == "ERROR" or (code not in (0, None) and last is None and marker is None):
        status = "ERROR"
        result["error"] = first_error(err, out)
    elif last is not None:
        status = "SATISFIED"
    else:
        status = "UNKNOWN"
        if marker and marker != "UNKNOWN":
            result["marker"] = marker
    result["status"] = status
    if status == "ERROR" and "panicked at" in err:
        # A crash of the solver itself (a Rust panic), told apart from a refused model.
        result["crashed"] = True
    if last is not None:
        result["solution"] = last
        result["objective"] = objective_of(last, stats)
    finished = status in FINAL or (status == "SATISFIED" and method == "sat")
    result["time"] = round(wall, 3) if finished else None
    return result


# --------------------------------------------------------------------------------------------
# Checking a solution with Gecode.


def mzn_value(value):
    """A MiniZinc literal for a value of MiniZinc's JSON output (arrays flattened)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if value is None:
        return "<>"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(mzn_value(v) for v in flatten(value)) + "]"
    if isinstance(value, dict):
        if "set" in value:
            parts = []
            for item in value["set"]:
                if isinstance(item, list):
                    parts.append(f"{mzn_value(item[0])}..{mzn_value(item[1])}")
                else:
                    parts.append("{" + mzn_value(item) + "}")
            return "(" + " union ".join(parts) + ")" if parts else "{}"
        if "e" in value and "c" in value:
            return f"{value['c']}({mzn_value(value['e'])})"
        if "e" in value and "i" in value:
            return f"{value['e']}({value['i']})"
        if "e" in value:
            return value["e"] if isinstance(value["e"], str) else mzn_value(value["e"])
    raise ValueError(f"no MiniZinc literal for {value!r}")


def flatten(value):
    """The elements of a nested list, in row-major order (as `array1d` lists them)."""
    for item in value:
        if isinstance(item, list):
            yield from flatten(item)
        else:
            yield item


def check(solution, claimed, method, model, data, directory, env, scratch, timeout):
    """Re-solves the instance with Gecode, every output variable fixed to its value.

    Returns (verdict, detail): "checked", "WRONG" or "unchecked"."""
    lines = []
    try:
        for name, value in solution.items():
            if name.startswith("_"):
                continue
            if isinstance(value, list):
                lines.append(f"constraint array1d({name}) = {mzn_value(value)};")
            else:
                lines.append(f"constraint {name} = {mzn_value(value)};")
    except ValueError as e:
        return "unchecked", str(e)
    fixed = Path(tempfile.mkstemp(suffix=".mzn", dir=scratch)[1])
    fixed.write_text("% The solution to check.\n" + "\n".join(lines) + "\n")
    command = ["minizinc", "--solver", GECODE_ID, "--time-limit", str(int(timeout * 1000)),
               "--output-mode", "json", "--output-objective", model, str(fixed)]
    if data:
        command.append(data)
    out, err, code, _ = run_minizinc(command, env, directory, timeout + GRACE)
    fixed.unlink()
    solutions, marker, stats = parse_output(out)
    if marker == "UNSATISFIABLE":
        return "WRONG", "Gecode: no solution with these values"
    if not solutions:
        if marker == "ERROR" or code not in (0, None):
            return "unchecked", "Gecode: " + first_error(err, out)
        return "unchecked", "Gecode: no answer within the limit"
    if method not in ("min", "max"):
        return "checked", ""
    found = objective_of(solutions[-1], stats)
    if found == claimed:
        return "checked", ""
    if claimed is None or found is None:
        return "unchecked", f"objective {claimed} claimed, Gecode gives {found}"
    worse = found > claimed if method == "min" else found < claimed
    proved = marker == "COMPLETE"
    if worse and proved:
        return "WRONG", f"objective {claimed} claimed, at best {found} with these values"
    # The output variables do not determine the objective: the values are feasible.
    return "checked", f"values feasible; objective {claimed} not pinned (Gecode: {found})"


# --------------------------------------------------------------------------------------------
# Selection.


FLOAT = re.compile(r"^var\s+(float|-?\d+\.\d+)|\bfloat_\w+\(|\bint2float\(|\barray \[[^]]*\] of var float",
                   re.M)


def interface_method(instance, directory, env, args):
    """sat, min or max: the model's method, from `minizinc --model-interface-only`."""
    command = ["minizinc", "--solver", CSPKIT_ID, "--model-interface-only", instance["model"]]
    if instance["data"]:
        command.append(instance["data"])
    out, _, _, _ = run_minizinc(command, env, directory, args.compile_timeout)
    try:
        return json.loads(out)["method"]
    except (ValueError, KeyError):
        return "-"


def select(args, bench, env, scratch):
    """Writes selection.txt: one instance per problem directory (the rule is in README.md)."""
    rows = []
    for problem in bench.problems():
        files = [f[len(problem) + 1:] for f in bench.files() if f.startswith(problem + "/")]
        models = sorted(f for f in files if "/" not in f and f.endswith(".mzn"))
        data = sorted(f for f in files if f.endswith((".dzn", ".json")))
        if not models:
            rows.append((problem, "-", "-", "-", f"no model, {SKIPPED}"))
            continue
        model, datum = models[0], (data[0] if data else "")
        directory = bench.directory(problem, datum)
        if directory is None:
            rows.append((problem, model, datum or "-", "-",
                         "not checked: missing from the copy of the benchmarks read by --select"))
            continue
        method = interface_method({"model": model, "data": datum}, directory, env, args)
        fzn = Path(scratch) / "select.fzn"
        command = ["minizinc", "--solver", CSPKIT_ID, "-c", "--fzn", str(fzn),
                   "--ozn", str(fzn.with_suffix(".ozn")), model]
        out, err, code, _ = run_minizinc(command + ([datum] if datum else []), env, directory,
                                         args.compile_timeout)
        if code is None:
            note = f"compile > {args.compile_timeout}s with cspkit's library"
        elif code != 0:
            message = first_error(err, out)
            note = (f"float, {SKIPPED}" if "float" in message.lower()
                    else "compile error with cspkit's library: " + message.replace("\t", " "))
        elif FLOAT.search(fzn.read_text()):
            note = f"float, {SKIPPED}"
        else:
            note = ""
        rows.append((problem, model, datum or "-", method, note))
        print(f"{problem}: {model} {datum or '-'} {method} {note}", file=sys.stderr)
    header = (
        "# One instance per problem directory of minizinc-benchmarks (written by run.py --select).\n"
        f"# benchmarks commit: {bench.revision()}\n"
        "# Rule: the first .mzn of the directory (sorted), with the first .dzn/.json data file\n"
        "# found anywhere under the directory (sorted paths), or no data if it has none; models\n"
        "# whose FlatZinc (compiled with cspkit's library) has floats are skipped.\n"
        "# Columns (tab-separated): problem, model, data, method (sat/min/max), note.\n")
    SELECTION.write_text(header + "".join("\t".join(row) + "\n" for row in rows))
    print(f"wrote {SELECTION} ({len(rows)} problems)", file=sys.stderr)


def read_selection():
    """The instances of selection.txt: dicts with problem, model, data, method, note."""
    if not SELECTION.is_file():
        sys.exit(f"{SELECTION} missing: run with --select first")
    rows = []
    for line in SELECTION.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        problem, model, data, method, note = (line.split("\t") + [""] * 5)[:5]
        rows.append({"problem": problem, "model": model, "data": "" if data == "-" else data,
                     "method": method, "note": note})
    return rows


# --------------------------------------------------------------------------------------------
# Cross-checks between solvers.


def better_objective(a, b, method):
    """Whether objective a is strictly better than b."""
    return a < b if method == "min" else a > b


def cross_check(instance):
    """Flags contradictory answers: UNSAT against a solution, different proven optima, a
    proven optimum beaten by a checked solution, a solution the checker refutes."""
    results = {s: r for s, r in instance["results"].items() if "status" in r}
    method = instance["method"]
    for name, r in results.items():
        if r.get("check") == "WRONG":
            r.setdefault("wrong", f"solution refuted: {r.get('check_detail', '')}")
    for name, r in results.items():
        for other, o in results.items():
            if other == name or o.get("wrong"):
                continue
            if r["status"] == "UNSAT" and o.get("solution") is not None:
                r.setdefault("wrong", f"UNSAT, but {other} found a solution")
            if (r["status"] == "OPTIMAL" and method in ("min", "max")
                    and o.get("objective") is not None and r.get("objective") is not None):
                # Of two different proven optima, the worse one is refuted by the other's solution.
                if better_objective(o["objective"], r["objective"], method):
                    proves = "proves" if o["status"] == "OPTIMAL" else "found"
                    r.setdefault("wrong", f"optimum {r['objective']}, {other} {proves} {o['objective']}")


# --------------------------------------------------------------------------------------------


def run_instance(instance, args, bench, env, solvers, scratch):
    """Runs every solver on one instance, checking every solution but Gecode's with Gecode."""
    directory = bench.directory(instance["problem"], instance["data"])
    if directory is None:
        missing = {"status": "ERROR", "error": "files missing from the benchmarks copy",
                   "wall": 0.0, "time": None}
        return dict(instance, results={name: dict(missing) for name in args.solvers})
    if instance["method"] not in ("sat", "min", "max"):
        instance = dict(instance, method=interface_method(instance, directory, env, args))
    results = {}
    for name in args.solvers:
        if name not in solvers:
            results[name] = {"status": None, "absent": "not installed"}
            continue
        r = solve(solvers[name], instance["model"], instance["data"], instance["method"],
                  directory, env, args.timeout)
        if name != "gecode" and r.get("solution") is not None and "gecode" in solvers:
            r["check"], r["check_detail"] = check(
                r["solution"], r.get("objective"), instance["method"], instance["model"],
                instance["data"], directory, env, scratch, args.check_timeout)
        results[name] = r
        print(f"{instance['problem']}: {name} {r['status']} {r.get('objective', '')} "
              f"{r['wall']:.1f}s {r.get('check', '')} {r.get('error', '')}", file=sys.stderr)
    repeat_short_runs(instance, args, directory, env, solvers, results)
    instance = dict(instance, results=results)
    cross_check(instance)
    return instance


def repeat_short_runs(instance, args, directory, env, solvers, results):
    """Times again the runs that finished within --repeat-below seconds, the solvers taking
    turns, and keeps the median as their time: a run of a fraction of a second is mostly
    compilation and process start-up, whose noise would otherwise decide the 10% verdict.
    Status, solution and objective stay those of the first run; every wall time is kept."""
    short = [name for name, r in results.items()
             if r.get("time") is not None and r["time"] < args.repeat_below]
    walls = {name: [results[name]["wall"]] for name in short}
    for _ in range(args.repeats - 1):
        for name in short:
            again = solve(solvers[name], instance["model"], instance["data"], instance["method"],
                          directory, env, args.timeout)
            # A repeat that does not finish counts as the limit.
            walls[name].append(again["time"] if again["time"] is not None else args.timeout)
    for name in short:
        times = sorted(walls[name])
        results[name]["walls"] = walls[name]
        results[name]["time"] = round(times[len(times) // 2], 3)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--benchmarks", required=True,
                        help="checkout (or bare clone) of github.com/MiniZinc/minizinc-benchmarks")
    parser.add_argument("--select", action="store_true", help="write selection.txt and stop")
    parser.add_argument("--timeout", type=float, default=20, help="seconds per run (default 20)")
    parser.add_argument("--check-timeout", type=float, default=60,
                        help="seconds for Gecode to check a solution (default 60)")
    parser.add_argument("--compile-timeout", type=float, default=120,
                        help="seconds per compilation in --select (default 120)")
    parser.add_argument("--repeats", type=int, default=3,
                        help="runs of an instance that finished quickly, median kept (default 3)")
    parser.add_argument("--repeat-below", type=float, default=5,
                        help="seconds under which a finished run is repeated (default 5)")
    parser.add_argument("--jobs", type=int, default=1, help="instances run at once (default 1)")
    parser.add_argument("--only", type=lambda s: s.split(","), help="PROBLEM[,PROBLEM...]")
    parser.add_argument("--solvers", type=lambda s: s.split(","), default=list(SOLVERS),
                        help="solvers to run (default cspkit,gecode,pumpkin,huub; "
                             "cspkit-learn is cspkit with --learn)")
    parser.add_argument("--results", help="save the raw results to this JSON file")
    parser.add_argument("--scratch", help="scratch directory (default: a temporary one)")
    parser.add_argument("--fzn-cspkit", help="fzn-cspkit executable (default: the release build)")
    parser.add_argument("--fzn-gecode", help="fzn-gecode executable (default: from PATH)")
    parser.add_argument("--gecode-mznlib", default="/usr/share/minizinc/gecode",
                        help="Gecode's MiniZinc library, copied and patched")
    parser.add_argument("--pumpkin", help="pumpkin-solver executable (default: from PATH)")
    parser.add_argument("--pumpkin-library",
                        help="Pumpkin's MiniZinc library: its directory, or a checkout or bare "
                             "clone of Pumpkin's repository")
    parser.add_argument("--pumpkin-ref", default=PUMPKIN_REF,
                        help=f"the tag or commit of that repository to read (default {PUMPKIN_REF})")
    parser.add_argument("--huub-msc", help="Huub's solver configuration (.msc)")
    args = parser.parse_args()
    unknown = set(args.solvers) - set(SOLVERS) - set(VARIANTS)
    if unknown:
        sys.exit(f"unknown solvers: {', '.join(sorted(unknown))}")

    with tempfile.TemporaryDirectory() as temporary:
        scratch = Path(args.scratch or temporary).resolve()
        scratch.mkdir(parents=True, exist_ok=True)
        bench = Benchmarks(args.benchmarks, scratch)
        env, solvers, notes = setup_solvers(args, scratch)
        if args.select:
            select(args, bench, env, scratch)
            return
        instances = [i for i in read_selection()
                     if SKIPPED not in i["note"] and (not args.only or i["problem"] in args.only)]
        if args.only:
            missing = set(args.only) - {i["problem"] for i in read_selection()}
            if missing:
                sys.exit(f"not in selection.txt: {', '.join(sorted(missing))}")
        if "gecode" not in solvers:
            print("fzn-gecode or its library not found: no Gecode column, no checks",
                  file=sys.stderr)
        minizinc = subprocess.run(["minizinc", "--version"], capture_output=True, text=True)
        results = {
            "date": datetime.datetime.now().isoformat(timespec="seconds"),
            "timeout": args.timeout, "jobs": args.jobs, "repeats": args.repeats,
            "repeat_below": args.repeat_below, "solvers": args.solvers,
            "benchmarks": bench.revision(), "minizinc": minizinc.stdout.splitlines()[0],
            "solver_notes": notes, "instances": [],
        }
        done = [None] * len(instances)
        saving = threading.Lock()

        def run_and_save(index):
            outcome = run_instance(instances[index], args, bench, env, solvers, scratch)
            with saving:
                done[index] = outcome
                # Saved after every instance, so an interrupted run keeps what it measured
                # (report.py reads the partial file as it reads a finished one).
                if args.results:
                    partial = dict(results, instances=[d for d in done if d is not None])
                    Path(args.results + ".partial").write_text(json.dumps(partial, indent=1))

        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            list(pool.map(run_and_save, range(len(instances))))
        results["instances"] = done
        if args.results:
            Path(args.results).write_text(json.dumps(results, indent=1) + "\n")
            Path(args.results + ".partial").unlink(missing_ok=True)
        sys.path.insert(0, str(HERE))
        import report
        print(report.markdown(results))


if __name__ == "__main__":
    main()
