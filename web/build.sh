#!/usr/bin/env bash
# Builds the live page into web/dist/: cspkit as WebAssembly (web/dist/pkg/), the page
# (web/site/), and the MiniZinc compiler from npm (web/dist/minizinc/). Run from anywhere:
#
#     web/build.sh
#
# Needs Rust (rustup), and node with npm for the MiniZinc compiler. Installs what else it
# needs: the wasm32-unknown-unknown target and the wasm-bindgen command of the version the
# crate pins. Safe to run again: it rebuilds what changed and replaces web/dist/.
set -euo pipefail

WEB="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DIST="$WEB/dist"
TARGET=wasm32-unknown-unknown
# The same version as the crate's `wasm-bindgen = "=…"` in web/Cargo.toml: the two must match.
BINDGEN_VERSION=0.2.130

step() { printf '\n== %s\n' "$*" >&2; }

if ! rustup target list --installed | grep -qx "$TARGET"; then
    step "adding the Rust target $TARGET"
    rustup target add "$TARGET"
fi

if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $BINDGEN_VERSION" ]; then
    step "installing wasm-bindgen-cli $BINDGEN_VERSION"
    cargo install wasm-bindgen-cli --version "$BINDGEN_VERSION"
fi

step "building the WebAssembly module"
(cd "$WEB" && cargo build --release --target "$TARGET")

step "generating its JavaScript bindings"
rm -rf "$DIST"
mkdir -p "$DIST/pkg"
wasm-bindgen --target web --no-typescript --out-dir "$DIST/pkg" \
    "$WEB/target/$TARGET/release/cspkit_web.wasm"

if [ -d "$WEB/site" ]; then
    step "copying the page"
    cp -R "$WEB/site/." "$DIST/"
else
    echo "warning: no web/site/ folder: the site has the module but no page" >&2
fi

step "fetching the MiniZinc compiler (npm ci)"
(cd "$WEB" && npm ci --no-audit --no-fund)
mkdir -p "$DIST/minizinc"
for file in minizinc.mjs minizinc-worker.js minizinc.wasm minizinc.data; do
    cp "$WEB/node_modules/minizinc/dist/$file" "$DIST/minizinc/"
done

size() { du -sh "$@" | cut -f1; }
compressed() { tar czf - -C "$DIST" "$@" . | wc -c | awk '{ printf "%.2f MB", $1 / 1e6 }'; }
step "done: $DIST"
echo "site: $(size "$DIST") on disk; compressed (tar.gz): $(compressed --exclude ./minizinc) without the MiniZinc compiler, $(compressed) with it"
