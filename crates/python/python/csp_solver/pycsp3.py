"""PyCSP3's route to csp: compile the current PyCSP3 model to XCSP3, run `csp xcsp3` (the
command this package installed), and read the values back into the model's variables.

    from pycsp3 import *
    from csp_solver.pycsp3 import solve
    x = VarArray(size=8, dom=range(8))
    satisfy(AllDifferent(x), ...)
    if solve() in (SAT, OPTIMUM):
        print(values(x))

After `solve`, PyCSP3's own `status()`, `solution()` and `bound()` answer for csp's run.
"""

from __future__ import annotations

from typing import Optional

from .binary import binary


def solve(*, time_limit: Optional[float] = None, options: str = "", filename: Optional[str] = None,
          verbose: int = -1):
    """Solves the current PyCSP3 model with csp and returns PyCSP3's status (`SAT`,
    `OPTIMUM`, `UNSAT` or `UNKNOWN`). `time_limit` in seconds; `options`: more arguments of
    `csp xcsp3` (such as `--threads 2`)."""
    import pycsp3
    from pycsp3.solvers.external.external import ExternalProcess

    instance = pycsp3.compile(filename, verbose=verbose)
    if instance is None or instance[0] is None:
        raise RuntimeError("PyCSP3 could not compile the model")
    process = ExternalProcess("csp", f"{binary()} xcsp3")
    if time_limit is not None:
        process.setting(f"--time-limit {float(time_limit)}")
    if options:
        process.setting(options)
    # PyCSP3's status(), solution() and bound() read its current solver: make it csp's run.
    pycsp3._solver = process
    return process.solve(instance, verbose=verbose)
