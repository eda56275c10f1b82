#!/usr/bin/env bash
# Installs Pumpkin, the lazy clause generation solver the benchmark and the cross-check tests run
# beside cspkit: its FlatZinc solver `pumpkin-solver` and its proof checker `pumpkin-checker`,
# both from crates.io at one release, with the versions of their lock files (`--locked`).
# Does nothing when that release is already installed. Prints where the executables are.
#
# usage: bench/minizinc-challenge/install-pumpkin.sh [--root DIR]
#   --root DIR   install into DIR/bin (default: cargo's own, ~/.cargo/bin)
set -euo pipefail

version=0.5.0
root=()
if [[ ${1:-} == --root ]]; then
    [[ -n ${2:-} ]] || { echo "--root needs a directory" >&2; exit 2; }
    root=(--root "$2")
    bin="$2/bin"
elif [[ $# -gt 0 ]]; then
    echo "usage: $0 [--root DIR]" >&2
    exit 2
else
    bin="${CARGO_HOME:-$HOME/.cargo}/bin"
fi

installed() {
    [[ -x $bin/pumpkin-solver && -x $bin/pumpkin-checker ]] &&
        "$bin/pumpkin-solver" --version 2>/dev/null | grep -qF "$version"
}

if ! installed; then
    echo "installing pumpkin-solver and pumpkin-checker $version from crates.io" >&2
    cargo install --quiet --locked "${root[@]}" "pumpkin-solver@$version" "pumpkin-checker@$version"
fi
installed || { echo "pumpkin-solver $version is not in $bin after installing it" >&2; exit 1; }
echo "$bin"
