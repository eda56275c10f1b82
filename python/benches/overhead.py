"""Python overhead on `queens 12` counting: the package against the native command line.

Run after installing the package, from outside the source tree:
    python python/benches/overhead.py [path/to/cspkit]
Prints the median of 7 runs of each (the command's time includes its process start).
"""

import pathlib
import statistics
import subprocess
import sys
import time

import cspkit

RUNS = 7


def median_seconds(action) -> float:
    """The median wall time of `action()` over RUNS runs."""
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    """Times both and prints them with their ratio."""
    default = pathlib.Path(__file__).resolve().parents[2] / "target" / "release" / "cspkit"
    cli = sys.argv[1] if len(sys.argv) > 1 else str(default)
    native_count = int(subprocess.run([cli, "queens", "12", "--count"], check=True,
                                      capture_output=True, text=True).stdout.split()[0])
    model = cspkit.queens(12)
    assert model.count() == native_count
    native = median_seconds(lambda: subprocess.run([cli, "queens", "12", "--count"], check=True,
                                                   capture_output=True))
    python = median_seconds(model.count)
    print(f"queens 12 count ({native_count}): native {native:.3f} s, "
          f"Python {python:.3f} s, ratio {python / native:.2f}")


if __name__ == "__main__":
    main()
