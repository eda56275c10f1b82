"""Ctrl-C stops a long search quickly and cleanly."""

import os
import signal
import subprocess
import sys
import time

SCRIPT = """
import cspkit
print("ready", flush=True)
try:
    cspkit.queens(40).count(propagation="none")
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    # Nothing is broken: the next search works.
    print(cspkit.queens(8).count(), flush=True)
"""

#: Run the scripts away from the source tree, so they import the installed package.
HERE = os.path.dirname(os.path.abspath(__file__))


def test_sigint_during_a_long_count_raises_keyboard_interrupt_within_a_second():
    child = subprocess.Popen(
        [sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=HERE,
    )
    assert child.stdout.readline().strip() == "ready"
    time.sleep(0.5)  # well inside the count
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=10)
    elapsed = time.monotonic() - sent
    assert out.split() == ["interrupted", "92"], err
    assert child.returncode == 0, err
    assert elapsed < 1.0, f"took {elapsed:.2f} s to stop"


def test_sigint_during_a_solution_iterator_leaves_it_resumable():
    script = """
import cspkit, os, signal, threading
it = cspkit.queens(40).solutions(propagation="none", var_order="input")
threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
try:
    for _ in range(10**9):
        next(it)
except KeyboardInterrupt:
    print("interrupted", flush=True)
m = cspkit.queens(6)
s = m.solutions()
print(len(list(s)), s.status, flush=True)
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=30, cwd=HERE
    )
    assert done.stdout.split() == ["interrupted", "4", "exhausted"], done.stderr
