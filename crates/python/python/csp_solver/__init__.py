"""csp: a constraint solver in Rust. A modelling API (`Model`), a CPMpy solver
(`csp_solver.cpmpy.register()`), and the `csp` command line, installed beside it."""

from ._native import __version__
from .model import IntVar, LinExpr, Model, ModelError, Relation, Result, Solution, Status
from .binary import binary

__all__ = ["Model", "IntVar", "LinExpr", "Relation", "Result", "Solution", "Status",
           "ModelError", "binary", "__version__"]
