#!/usr/bin/env bash
# Runs a command several times and prints each wall time and their median, in seconds.
#
#   bench/median.sh RUNS COMMAND [ARGS...]
#
# The command's standard output is discarded; its standard error is kept. Example:
#
#   bench/median.sh 5 target/release/cspkit queens 15 --count --jobs 2
set -euo pipefail
if [ $# -lt 2 ]; then
    echo "usage: bench/median.sh RUNS COMMAND [ARGS...]" >&2
    exit 2
fi
runs=$1
shift
times=()
for _ in $(seq "$runs"); do
    start=$(date +%s%N)
    "$@" > /dev/null
    end=$(date +%s%N)
    times+=("$(( (end - start) / 1000000 ))")
done
sorted=$(printf '%s\n' "${times[@]}" | sort -n)
median=$(printf '%s\n' "$sorted" | sed -n "$(( (runs + 1) / 2 ))p")
printf 'runs (ms): %s\n' "${times[*]}"
printf 'median: %d.%03d s\n' "$(( median / 1000 ))" "$(( median % 1000 ))"
