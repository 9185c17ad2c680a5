"""Every route to the same model gets the same search: the command line's FlatZinc route
(`csp fzn -v`), its XCSP3 route (`csp xcsp3 -v`, which PyCSP3 runs) and the Python module
(`Search.plan()`) say what the one policy (`csp_policy`) chose, and it is the same for the same
model and options: with and without an objective (each direction), for one solution and many,
with a thread count or without, with search options, and with a declared search followed or
left (`-f`)."""
import subprocess

import pytest

import csp_solver as cs
from csp_solver import _native
from csp_solver.binary import binary

# x, y in 0..3, x != y, z = x + y: the same model in each route's language.
FZN = """var 0..3: x :: output_var;
var 0..3: y :: output_var;
var 0..6: z :: output_var;
constraint int_ne(x, y);
constraint int_lin_eq([1, 1, -1], [x, y, z], 0);
solve {annotation} {goal};
"""
XCSP3 = """<instance format="XCSP3" type="{kind}">
  <variables>
    <var id="x"> 0..3 </var>
    <var id="y"> 0..3 </var>
    <var id="z"> 0..6 </var>
  </variables>
  <constraints>
    <intension> ne(x,y) </intension>
    <intension> eq(z,add(x,y)) </intension>
  </constraints>
  {objectives}
</instance>
"""
DECLARED = ":: int_search([x, y], input_order, indomain_min, complete)"


def fzn_plan(tmp_path, goal, flags, declared=False):
    model = tmp_path / "m.fzn"
    model.write_text(FZN.format(annotation=DECLARED if declared else "", goal=goal))
    run = subprocess.run([binary(), "fzn", "-v", *flags, str(model)], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    lines = [l for l in run.stderr.splitlines() if l.startswith("csp fzn: search: ")]
    assert len(lines) == 1, run.stderr
    return lines[0].removeprefix("csp fzn: search: ")


def xcsp3_plan(tmp_path, goal, flags):
    kind, objectives = "CSP", ""
    if goal != "satisfy":
        sense, var = goal.split()
        kind, objectives = "COP", f"<objectives><{sense}> {var} </{sense}></objectives>"
    model = tmp_path / "m.xml"
    model.write_text(XCSP3.format(kind=kind, objectives=objectives))
    run = subprocess.run([binary(), "xcsp3", "-v", *flags, str(model)], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode in (0, 3), run.stderr
    lines = [l for l in run.stderr.splitlines() if l.startswith("csp xcsp3: search: ")]
    assert len(lines) == 1, run.stderr
    return lines[0].removeprefix("csp xcsp3: search: ")


def python_plan(goal, options, max_solutions=1):
    m = cs.Model()
    x, y = m.int_var(0, 3, "x"), m.int_var(0, 3, "y")
    z = m.int_var(0, 6, "z")
    m.add(x != y)
    m.add(x + y == z)
    objective = None
    if goal != "satisfy":
        objective = (z.index, goal.startswith("minimize"))
    search = _native.Search(m._native, objective=objective, max_solutions=max_solutions,
                            **options)
    try:
        return search.plan()
    finally:
        search.close()


# (the run's options as flags, as Python's keywords), the same options each way.
OPTIONS = [
    ([], {}),
    (["-p", "1"], {"threads": 1}),
    (["-p", "3"], {"threads": 3}),
    (["--inference", "mac"], {"inference": "mac"}),
    (["--inference", "lcg"], {"inference": "lcg"}),
    (["--var-order", "mrv"], {"var_order": "mrv"}),
    (["--val-order", "desc"], {"value_order": "desc"}),
    (["--lp", "off"], {"lp": "off"}),
    (["--lp", "on"], {"lp": "on"}),
    (["--inference", "fc", "--var-order", "dom-deg"], {"inference": "fc", "var_order": "dom-deg"}),
]
GOALS = ["satisfy", "minimize z", "maximize z"]


@pytest.mark.parametrize("flags,keywords", OPTIONS)
@pytest.mark.parametrize("goal", GOALS)
def test_the_xcsp3_route_and_python_get_the_same_search(tmp_path, goal, flags, keywords):
    assert xcsp3_plan(tmp_path, goal, flags) == python_plan(goal, keywords)


@pytest.mark.parametrize("flags,keywords", OPTIONS)
@pytest.mark.parametrize("goal", GOALS)
def test_the_flatzinc_route_gets_the_same_search_with_a_thread_count(tmp_path, goal, flags,
                                                                     keywords):
    # `csp fzn` runs one search unless -p says more, as MiniZinc's protocol has it; given
    # the same thread count, and with its declared search left (-f) or absent, it searches
    # as the others do; but that under -f, learning takes the declared search in every
    # other run until a first solution (the others have none to take).
    threads = {"threads": 1, **keywords}
    expected = python_plan(goal, threads)
    assert fzn_plan(tmp_path, goal, flags) == expected
    alternating = "; the declared search in every other run until a solution"
    free = fzn_plan(tmp_path, goal, ["-f", *flags], declared=True)
    if expected.startswith("inference lcg"):
        assert free == expected + alternating
    else:
        assert free == expected
    with_count = flags if "-p" in flags else ["-p", str(threads["threads"]), *flags]
    assert xcsp3_plan(tmp_path, goal, with_count) == expected


@pytest.mark.parametrize("goal", GOALS)
def test_many_solutions_get_the_same_search(tmp_path, goal):
    if goal != "satisfy":
        return  # counting is of satisfaction problems (csp xcsp3 refuses an objective)
    expected = python_plan(goal, {}, max_solutions=None)
    assert xcsp3_plan(tmp_path, goal, ["--count"]) == expected
    assert fzn_plan(tmp_path, goal, ["-a"]) == expected
    assert "variable order mrv" in expected


@pytest.mark.parametrize("goal", GOALS)
def test_a_declared_search_is_followed_by_arc_consistency_alone(tmp_path, goal):
    followed = fzn_plan(tmp_path, goal, [], declared=True)
    assert followed.endswith("the declared search followed"), followed
    assert followed.startswith("inference mac, variable order dom-wdeg"), followed
    assert "one search" in followed
    # -p N still adds searches unlike it, each following the declared search.
    assert "3 searches side by side" in fzn_plan(tmp_path, goal, ["-p", "3"], declared=True)


def test_the_defaults_are_what_the_policy_documents(tmp_path):
    # The rows of crates/policy/src/defaults.rs, as each route reports them.
    assert python_plan("satisfy", {}) == (
        "inference mac, variable order dom-wdeg, value order asc; 2 searches side by side")
    assert python_plan("satisfy", {"threads": 1}) == (
        "inference lcg, variable order dom-wdeg, value order asc; one search")
    assert xcsp3_plan(tmp_path, "maximize z", []) == (
        "inference lcg, variable order dom-wdeg, value order desc; beside two "
        "arc-consistency searches; large neighbourhood search")
    assert fzn_plan(tmp_path, "minimize z", []) == (
        "inference lcg, variable order dom-wdeg, value order asc; one search; "
        "large neighbourhood search")
