"""Python never panics on its arguments: Hypothesis calls every method of the native model, the
native search and the modelling layer's `solve` with random values of every argument (huge,
negative, NaN, infinite, of the wrong type, empty lists, nested lists) and sees only Python
exceptions, a `ModelError` carrying the engine's message. A panic inside the extension reaches
Python as `pyo3_runtime.PanicException`, which derives from `BaseException`, not `Exception`:
it is not caught here and fails the test. The examples are bounded (`settings` below) so that
the suite stays fast; `HYPOTHESIS_PROFILE=long` runs ten times as many."""
import math
import os

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import csp_solver as cs
from csp_solver import ModelError, _native

settings.register_profile("ci", max_examples=150, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=1500, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# Words the module takes somewhere (relations, inferences, orders), so that some random calls
# get past the first check and reach the engine.
WORDS = ["==", "!=", "<=", "<", ">=", ">", "=<", "mac", "lcg", "fc", "none", "mrv", "dom-wdeg",
         "wdeg", "input", "asc", "desc", "lcv", "random", "+", "*", "div", "mod", "magic", ""]
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=6),
    st.integers(min_value=-(2 ** 70), max_value=2 ** 70),
    st.sampled_from([2 ** 31 - 1, -(2 ** 31), 2 ** 31, 2 ** 32, 2 ** 63, -(2 ** 63) - 1, 2 ** 64]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([1e20, -1e20, math.inf, -math.inf, math.nan, 1e-300, 0.5]),
    st.sampled_from(WORDS),
    st.text(max_size=4),
)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.tuples(inner, inner), max_leaves=10)

NATIVE_MODEL_METHODS = sorted(n for n in dir(_native.Model) if not n.startswith("_"))
# Every keyword of the native search but `proof`, whose random text would name files in the
# working directory; it is tried below with paths in a temporary one.
SEARCH_KEYWORDS = ["inference", "var_order", "value_order", "seed", "threads", "time_limit",
                   "node_limit", "max_solutions", "objective", "first", "neighbourhood",
                   "assume", "hint"]
SOLVE_KEYWORDS = ["time_limit", "inference", "var_order", "value_order", "seed", "threads",
                  "node_limit", "hint"]


def a_small_native_model():
    m = _native.Model()
    for _ in range(3):
        m.int_var(0, 3, None)
    return m


def only_python_exceptions(call):
    """Runs `call`; an `Exception` is fine (a `ModelError` must say something), anything
    else (a panic) propagates."""
    try:
        return call()
    except ModelError as e:
        assert str(e).strip(), "a ModelError without a message"
    except Exception:  # TypeError, ValueError, OverflowError: Python's own checks
        pass
    return None


def drain(search, most=50):
    """Takes up to `most` solutions, then closes the search."""
    try:
        for i, _ in enumerate(search):
            if i >= most:
                break
    finally:
        search.close()
    search.summary()


@given(name=st.sampled_from(NATIVE_MODEL_METHODS), args=st.lists(VALUES, max_size=6))
def test_the_native_model_raises_only_python_exceptions(name, args):
    m = a_small_native_model()
    only_python_exceptions(lambda: getattr(m, name)(*args))
    # Whatever was posted or refused, the model still solves or says why.
    only_python_exceptions(lambda: drain(_native.Search(m, threads=1, node_limit=10_000)))


@given(keywords=st.dictionaries(st.sampled_from(SEARCH_KEYWORDS), VALUES, max_size=6))
def test_the_native_search_raises_only_python_exceptions(keywords):
    m = a_small_native_model()
    m.all_different([0, 1, 2])
    search = only_python_exceptions(lambda: _native.Search(m, **keywords))
    if search is not None:
        only_python_exceptions(lambda: drain(search))


@given(keywords=st.dictionaries(st.sampled_from(SOLVE_KEYWORDS), VALUES, max_size=5),
       optimise=st.sampled_from([None, "min", "max"]))
def test_solve_raises_only_python_exceptions(keywords, optimise):
    m = cs.Model()
    xs = m.int_vars(3, 0, 3, "x")
    m.all_different(xs)
    if optimise == "min":
        m.minimize(xs[0] + xs[1])
    elif optimise == "max":
        m.maximize(xs[0] + xs[1])
    only_python_exceptions(lambda: m.solve(**keywords))


@given(path=st.sampled_from(["p.drcp", "p.fzn", "p", "sub/p.drcp", "", ".", "p.drcp/"]),
       inference=st.sampled_from([None, "lcg", "mac"]))
def test_proof_paths_raise_only_python_exceptions(tmp_path_factory, path, inference):
    folder = tmp_path_factory.mktemp("proof")
    m = cs.Model()
    xs = m.int_vars(4, 0, 2, "x")
    m.all_different(xs)  # four pigeons, three holes
    only_python_exceptions(lambda: m.solve(proof=str(folder / path) if path else path,
                                           inference=inference))


@pytest.mark.parametrize("seconds", [1e20, math.inf, -1.0, math.nan, 4e9])
def test_a_time_limit_out_of_range_is_refused_with_a_model_error(seconds):
    m = cs.Model()
    m.int_var(0, 3, "x")
    with pytest.raises(ModelError, match="time_limit"):
        m.solve(time_limit=seconds)


def test_a_time_limit_within_a_century_is_taken():
    m = cs.Model()
    x = m.int_var(0, 3, "x")
    m.minimize(x)
    assert m.solve(time_limit=3e9).objective == 0
