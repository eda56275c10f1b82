#!/usr/bin/env bash
# WebAssembly against native, both in one run: `queens 12 --count` and the Sudoku workload of
# bench/run.sh (the lexicographically smallest solution of each puzzle of a set, at full
# propagation, one solver restarted with each puzzle's givens), from the same Rust code
# (web/src/bench.rs), each run several times; prints the medians and the ratios.
#
#     web/bench/run.sh [--no-build] [--runs N] [--queens N] [SUDOKU_FILE]
#
# SUDOKU_FILE is one puzzle a line (default: puzzles3_magictour_top1465.txt in
# $CSPKIT_BENCH_DATA, else ../shared/data/sudoku from the repository root, as bench/run.sh).
set -euo pipefail

WEB="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPO="$(dirname "$WEB")"
build=1
runs=7
queens=12
file=
while (($#)); do
    case $1 in
        --no-build) build=0 ;;
        --runs) runs=$2; shift ;;
        --queens) queens=$2; shift ;;
        -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
        *) file=$1 ;;
    esac
    shift
done
data=${CSPKIT_BENCH_DATA:-$REPO/../shared/data/sudoku}
file=${file:-$data/puzzles3_magictour_top1465.txt}
[ -f "$file" ] || { echo "run.sh: no Sudoku file $file (give one, or set CSPKIT_BENCH_DATA)" >&2; exit 2; }

if ((build)); then
    "$WEB/build.sh"
fi
(cd "$WEB" && cargo build --release --example bench_native)
node "$WEB/bench/bench.mjs" "$WEB/dist" "$WEB/target/release/examples/bench_native" "$file" "$runs" "$queens"
