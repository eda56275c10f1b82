#!/usr/bin/env bash
# Checks that the WebAssembly module searches exactly as the native program: builds both
# (web/build.sh, then cargo build --release), then compares their traces byte for byte
# (web/check/equivalence.mjs). Run from anywhere; exits non-zero at the first difference.
#
#     web/check.sh            build, then check
#     web/check.sh --no-build check what is built
set -euo pipefail

WEB="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(dirname "$WEB")"

if [ "${1:-}" != "--no-build" ]; then
    "$WEB/build.sh"
    (cd "$REPO" && cargo build --release --bin cspkit)
fi
node "$WEB/check/equivalence.mjs" "$WEB/dist" "$REPO/target/release/cspkit" "$REPO"
