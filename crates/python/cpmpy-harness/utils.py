"""The helpers CPMpy's tests import from `utils`, which its source distribution leaves out.
Written for this project (see conftest.py)."""

import functools

import pytest


def skip_on_missing_pblib(skip_on_exception_only=False):
    """Skips a test that needs the optional `pblib` (PyPI `pypblib`) where it is missing."""
    try:
        import pypblib  # noqa: F401
        present = True
    except ImportError:
        present = False

    def decorate(test):
        @functools.wraps(test)
        def run(*args, **kwargs):
            if present:
                return test(*args, **kwargs)
            if not skip_on_exception_only:
                pytest.skip("`pypblib` not installed")
            try:
                return test(*args, **kwargs)
            except ImportError as e:
                if "pblib" in str(e).lower():
                    pytest.skip("`pypblib` not installed")
                raise

        return run

    return decorate


def inclusive_range(lb, ub):
    return range(lb, ub + 1)


def lambda_assert(check):
    def call():
        assert check()

    return call
