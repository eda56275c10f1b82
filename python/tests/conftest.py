"""Shared helpers of the cspkit Python tests."""

import os
import pathlib
import subprocess

import pytest

#: The repository's root (the Rust crate whose command line the tests compare with).
REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli() -> str:
    """The path of the native `cspkit` command (CSPKIT_CLI, or the release build)."""
    path = os.environ.get("CSPKIT_CLI") or str(REPO / "target" / "release" / "cspkit")
    if not os.path.exists(path):
        pytest.fail(f"no cspkit command at {path}: run `cargo build --release` first")
    return path


def run_cli(cli: str, *args: str) -> str:
    """The standard output of `cspkit args...`."""
    return subprocess.run(
        [cli, *args], check=True, capture_output=True, text=True, timeout=120
    ).stdout



def pytest_sessionfinish(session, exitstatus):
    """Under CSPKIT_REQUIRE_PYTHON_EXTRAS=1 (as CI sets it), any skipped test fails the run.

    The tests that need optional packages (aima-python, CPMpy, the notebook's) skip with a
    reason when those are missing on a developer's machine; CI installs them, so a skip there
    means an install went wrong.
    """
    if not os.environ.get("CSPKIT_REQUIRE_PYTHON_EXTRAS"):
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter else []
    if skipped:
        for report in skipped:
            reporter.write_line(f"skipped under CSPKIT_REQUIRE_PYTHON_EXTRAS: {report.longrepr}")
        session.exitstatus = 1
