#!/usr/bin/env bash
# The live page's browser tests: serves web/dist (with `cspkit serve --port 0`) and drives it
# in headless Chromium (playwright-core, from web/node_modules).
#   bash web/test.sh                 every check, one PASS/FAIL line each; exit 1 on a failure
#   bash web/test.sh --screenshots   also write docs/img/live-minizinc.png and live-compare.png
#   bash web/test.sh --only a,d      some checks (a to k)
# Needs: the built site (bash web/build.sh), the CLI (cargo build --release; or another
# build named by CSPKIT_CLI), Chromium (/usr/bin/chromium, or the CHROMIUM environment variable).
# The site is served by `cspkit serve`; a CLI without it falls back to Python's http.server.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ! -f web/dist/index.html || ! -f web/dist/pkg/cspkit_web.js ]]; then
  echo "web/test.sh: web/dist is not built: run bash web/build.sh" >&2
  exit 2
fi
if [[ ! -x "${CSPKIT_CLI:-target/release/cspkit}" ]]; then
  echo "web/test.sh: ${CSPKIT_CLI:-target/release/cspkit} is missing: run cargo build --release" >&2
  exit 2
fi
if [[ ! -d web/node_modules/playwright-core ]]; then
  (cd web && npm ci --no-audit --no-fund)
fi
exec node web/test/run.mjs "$@"
