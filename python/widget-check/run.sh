#!/usr/bin/env bash
# The check of the notebook widget's front end (python/cspkit/widget.js) in headless Chromium:
#   bash python/widget-check/run.sh
# 1. states.py runs the real Python widget (cspkit.widget.TreeWidget) and writes the states it
#    went through; 2. check.mjs feeds them to widget.js in Chromium (PASS/FAIL line each);
# 3. the same check against broken copies of widget.js must fail, each of them (so the check
#    can fail). Exit 1 on any failure, 2 when something needed is missing.
# Needs: Python with cspkit and anywidget (python/.venv, which python/test.sh makes; else
# PYTHON names one; missing, `pip install "python[notebook]"` goes into python/.venv), node
# with npm (playwright-core: web/node_modules, else `npm ci` here), Chromium (/usr/bin/chromium
# or CHROMIUM).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-$here/../.venv/bin/python}
if ! "$python" -c 'import cspkit.widget' 2>/dev/null; then
  if [[ -n "${PYTHON:-}" ]]; then
    echo "run.sh: $python cannot import cspkit.widget: pip install \"cspkit[notebook]\" into it" >&2
    exit 2
  fi
  echo "run.sh: installing cspkit[notebook] into python/.venv" >&2
  [[ -x "$python" ]] || python3 -m venv "$here/../.venv"
  "$python" -m pip install --quiet "$(cd "$here/.." && pwd)[notebook]"
fi
if [[ ! -d "$here/node_modules/playwright-core" && ! -d "$here/../../web/node_modules/playwright-core" ]]; then
  (cd "$here" && npm ci --no-audit --no-fund)
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# From the temporary folder, so that `import cspkit` is the installed package.
(cd "$work" && "$python" "$here/states.py" "$work/states.json")

echo "== widget.js"
node "$here/check.mjs" "$work/states.json"

# Broken copies of widget.js: each must fail the check (the line it breaks, the check that
# should notice).
widget="$here/../cspkit/widget.js"
mutants=(
  "model.on('change:page', onPage);|// no live pages|live"
  "frame.srcdoc = openingOn(html, selected);|frame.srcdoc = html;|live"
  "model.send({ type: 'stop' });|// Stop sends nothing|stop"
  "frame.srcdoc = openingOn(html, selected);|frame.srcdoc = WAITING;|tree"
  "stop.disabled = s !== 'running';|stop.disabled = false;|final"
)
failed=0
for mutant in "${mutants[@]}"; do
  IFS='|' read -r line broken expected <<<"$mutant"
  copy="$work/widget-broken.js"
  WIDGET_LINE=$line WIDGET_BROKEN=$broken node -e '
    const fs = require("fs");
    const [from, to] = process.argv.slice(1);
    const text = fs.readFileSync(from, "utf8");
    const line = process.env.WIDGET_LINE;
    if (!text.includes(line)) { console.error("run.sh: widget.js no longer has: " + line); process.exit(2); }
    fs.writeFileSync(to, text.split(line).join(process.env.WIDGET_BROKEN));
  ' "$widget" "$copy"
  if output=$(WIDGET_CHECK_TIMEOUT=3000 node "$here/check.mjs" "$work/states.json" "$copy" 2>&1); then
    echo "FAIL the check passes a widget.js without: $line"
    failed=1
  elif ! grep -q "^FAIL $expected" <<<"$output"; then
    echo "FAIL without \"$line\" the check fails, but not its \"$expected\" check:"
    echo "$output" | sed 's/^/    /'
    failed=1
  else
    echo "PASS the check fails a widget.js without \"$line\" ($expected)"
  fi
done
exit $failed
