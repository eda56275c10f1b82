#!/bin/sh
# Builds and installs the Python package into python/.venv, then runs its pytest suite
# against the native `cspkit` command (built here in release mode).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
(cd .. && cargo build --release --bin cspkit)
python3 -m venv .venv
.venv/bin/pip install --quiet --upgrade pip
start=$(date +%s)
.venv/bin/pip install --quiet ./ pytest
echo "pip install ./python: $(( $(date +%s) - start )) s"
# CPMpy (with OR-Tools) for tests/test_cpmpy.py, the CPMpy back-end against CPMpy itself.
.venv/bin/pip install --quiet "cpmpy==1.1.1"
# The notebook widget's extra (anywidget) and what runs the tutorial notebook headless.
.venv/bin/pip install --quiet nbclient ipykernel "./[notebook]"
# aima-python (the PyPI package aima3, its csp.py imports nothing beyond the standard library;
# its declared dependencies are for its notebooks): the reference of tests/test_aima.py.
.venv/bin/pip install --quiet --no-deps aima3==1.0.11
# Run from tests/ so that `import cspkit` is the installed package, not the source tree.
cd tests && ../.venv/bin/pytest -q -s . "$@"
