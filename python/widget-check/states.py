"""Writes the states the real notebook widget goes through, for the front end's check.

    python states.py OUT.json

Runs ``cspkit.widget.TreeWidget`` on all the solutions of 6-Queens (forward checking, the
model's default), small slices and no pause between pages, so that the search sends
several live pages before the complete one, and records the widget's synced state (what
Jupyter hands the front end) before the search and at every page. check.mjs feeds these to
widget.js in headless Chromium.
"""

from __future__ import annotations

import json
import sys

import cspkit
from cspkit.widget import TreeWidget

#: The synced traits widget.js reads.
KEYS = ("page", "live", "status", "stats", "solutions", "elapsed", "pages", "error", "height")


def synced(widget: TreeWidget) -> dict:
    """The widget's synced state, as the front end gets it."""
    state = widget.get_state()
    return {key: state[key] for key in KEYS}


def main(out: str) -> None:
    """Runs the widget and writes its states to `out`."""
    widget = TreeWidget(cspkit.queens(6), solutions=0, slice_nodes=15, every=0, start=False)
    states = [synced(widget)]
    widget.observe(lambda _change: states.append(synced(widget)), "page")
    widget.start()
    if not widget.wait(60):
        raise SystemExit("states.py: the search did not end within 60 s")
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"model": "queens 6, all solutions", "states": states}, f)
    live = sum(1 for s in states if s["live"])
    print(f"states.py: {len(states)} states ({live} live pages), final {states[-1]['status']}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: python states.py OUT.json")
    main(sys.argv[1])
