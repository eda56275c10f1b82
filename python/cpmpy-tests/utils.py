"""The helpers CPMpy's tests import from their repository's ``tests/utils.py``."""

import functools

import pytest


def skip_on_missing_pblib(skip_on_exception_only=False):
    """Decorator (of a test or a test class): skips the test when it needs ``pypblib`` (PB encodings) and it is missing.

    With `skip_on_exception_only`, the test runs and is skipped only if it raises the
    missing-module error; otherwise it is skipped up front when pypblib cannot be imported.
    """
    def decorate(test):
        if isinstance(test, type):  # a test class: each of its test methods
            for name, method in list(vars(test).items()):
                if name.startswith("test") and callable(method):
                    setattr(test, name, decorate(method))
            return test

        @functools.wraps(test)
        def run(*args, **kwargs):
            try:
                import pypblib  # noqa: F401
                missing = False
            except ImportError:
                missing = True
            if missing and not skip_on_exception_only:
                pytest.skip("pypblib is not installed")
            try:
                return test(*args, **kwargs)
            except ImportError as error:
                if missing and "pblib" in str(error):
                    pytest.skip("pypblib is not installed")
                raise
        return run
    return decorate


def inclusive_range(lb, ub):
    """The integers from `lb` to `ub`, both included."""
    return range(lb, ub + 1)


def lambda_assert(condition):
    """A callback (for ``solveAll(display=...)``) asserting that `condition()` holds."""
    def check():
        assert condition()
    return check
