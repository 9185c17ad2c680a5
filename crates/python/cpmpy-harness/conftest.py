"""Runs CPMpy's own tests (its `tests/` folder, from the cpmpy source distribution) on one
solver, csp by default: the `--solver` option, the `solver` and `constraint` fixtures and the
markers those tests use, which the source distribution leaves out. Written for this project;
`scripts/cpmpy-tests` copies it beside CPMpy's tests and runs them."""

import pytest

import csp_solver.cpmpy

csp_solver.cpmpy.register()

MARKERS = ["requires_solver", "requires_dependency", "generate_constraints", "depends_on_solver",
           "dataset_download", "flaky"]


def pytest_addoption(parser):
    parser.addoption("--solver", action="store", default="csp", help="the solver to test")


def pytest_configure(config):
    for marker in MARKERS:
        config.addinivalue_line("markers", f"{marker}: used by CPMpy's tests")


def _chosen(config):
    return config.getoption("--solver")


@pytest.fixture
def solver(request):
    name = request.param if hasattr(request, "param") else _chosen(request.config)
    if getattr(request, "cls", None) is not None:
        request.cls.solver = name
    if getattr(request, "instance", None) is not None:
        request.instance.solver = name
    return name


@pytest.fixture
def constraint(request):
    return request.param


def pytest_generate_tests(metafunc):
    if "solver" not in metafunc.fixturenames:
        return
    name = _chosen(metafunc.config)
    generator = metafunc.definition.get_closest_marker("generate_constraints")
    if generator is not None:
        cases = [(name, c) for c in generator.args[0](name)]
        metafunc.parametrize(("solver", "constraint"), cases, ids=str)
        return
    for marker in metafunc.definition.iter_markers("parametrize"):
        names = marker.args[0] if marker.args else ""
        names = names.split(",") if isinstance(names, str) else list(names)
        if "solver" in [n.strip() for n in names]:
            return  # the test names its solvers itself
    metafunc.parametrize("solver", [name], indirect=True)


def pytest_collection_modifyitems(config, items):
    """Leaves out the tests written for other solvers alone."""
    name = _chosen(config)
    kept, left = [], []
    for item in items:
        marker = item.get_closest_marker("requires_solver")
        (left if marker is not None and name not in marker.args else kept).append(item)
        callspec = getattr(item, "callspec", None)
        if callspec is not None and "solver" in callspec.params and callspec.params["solver"] != name:
            kept.remove(item) if item in kept else None
            left.append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept
