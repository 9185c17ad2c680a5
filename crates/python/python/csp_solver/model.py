"""The modelling layer: integer variables, linear expressions, the engine's globals, solve."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from enum import Enum
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from . import _native

ModelError = _native.ModelError


class Status(Enum):
    """How a solve ended."""

    OPTIMAL = "optimal"  #: the objective's best value, proved
    SATISFIED = "satisfied"  #: a solution (not proved optimal, or no objective)
    UNSATISFIABLE = "unsatisfiable"  #: proved to have no solution
    UNKNOWN = "unknown"  #: stopped (limit, Ctrl-C) before any solution or proof


class LinExpr:
    """`sum(coef * var) + constant`, built with +, -, * by constants, and compared into a
    constraint with ==, !=, <, <=, >, >=."""

    __slots__ = ("terms", "constant")

    def __init__(self, terms: Optional[Dict["IntVar", int]] = None, constant: int = 0):
        self.terms: Dict[IntVar, int] = dict(terms or {})
        self.constant = constant

    @staticmethod
    def of(value: "Operand") -> "LinExpr":
        if isinstance(value, LinExpr):
            return value
        if isinstance(value, bool) or isinstance(value, int) or hasattr(value, "__index__"):
            return LinExpr({}, int(value))
        raise TypeError(f"not an integer expression: {value!r}")

    def _combine(self, other: "Operand", sign: int) -> "LinExpr":
        other = LinExpr.of(other)
        terms = dict(self.terms)
        for var, coef in other.terms.items():
            terms[var] = terms.get(var, 0) + sign * coef
        return LinExpr(terms, self.constant + sign * other.constant)

    def __add__(self, other):
        return self._combine(other, 1)

    __radd__ = __add__

    def __sub__(self, other):
        return self._combine(other, -1)

    def __rsub__(self, other):
        return LinExpr.of(other)._combine(self, -1)

    def __neg__(self):
        return self * -1

    def __mul__(self, k):
        if isinstance(k, LinExpr) and not k.terms:
            k = k.constant
        if not (isinstance(k, int) or hasattr(k, "__index__")):
            raise TypeError("a linear expression is multiplied by integers only; "
                            "for x * y use Model.times")
        k = int(k)
        return LinExpr({v: c * k for v, c in self.terms.items()}, self.constant * k)

    __rmul__ = __mul__

    def _compare(self, other, op):
        return Relation(self - other, op)

    def __eq__(self, other):  # type: ignore[override]
        return self._compare(other, "==")

    def __ne__(self, other):  # type: ignore[override]
        return self._compare(other, "!=")

    def __lt__(self, other):
        return self._compare(other, "<")

    def __le__(self, other):
        return self._compare(other, "<=")

    def __gt__(self, other):
        return self._compare(other, ">")

    def __ge__(self, other):
        return self._compare(other, ">=")

    __hash__ = None  # type: ignore[assignment]

    def value(self, solution: "Solution") -> int:
        return self.constant + sum(c * solution[v] for v, c in self.terms.items())

    def __repr__(self):
        parts = [f"{c}*{v}" for v, c in self.terms.items()]
        if self.constant or not parts:
            parts.append(str(self.constant))
        return " + ".join(parts)


class IntVar(LinExpr):
    """An integer variable of a model (a Boolean is one over 0..1)."""

    __slots__ = ("index", "name", "model")

    def __init__(self, model: "Model", index: int, name: Optional[str]):
        self.model = model
        self.index = index
        self.name = name if name is not None else f"x{index}"
        LinExpr.__init__(self, {self: 1}, 0)

    def __hash__(self):
        return hash((id(self.model), self.index))

    def __repr__(self):
        return self.name

    @property
    def bounds(self) -> Tuple[int, int]:
        return self.model._native.bounds(self.index)


Operand = Union[LinExpr, int]


@dataclass(frozen=True)
class Relation:
    """`expr op 0`, a linear constraint to `Model.add` (or to reify with `Model.reify`)."""

    expr: LinExpr
    op: str

    def __bool__(self):
        raise TypeError("a constraint has no truth value; post it with Model.add")

    def parts(self) -> Tuple[List[int], List[int], int]:
        coefs, idx = [], []
        for var, coef in self.expr.terms.items():
            if coef:
                coefs.append(coef)
                idx.append(var.index)
        return coefs, idx, -self.expr.constant


class Solution:
    """One solution: `solution[x]` is the value of variable (or expression) `x`."""

    def __init__(self, values: Sequence[int]):
        self.values = list(values)

    def __getitem__(self, x):
        if isinstance(x, IntVar):
            return self.values[x.index]
        if isinstance(x, LinExpr):
            return x.value(self)
        if isinstance(x, (list, tuple)):
            return [self[y] for y in x]
        raise TypeError(f"not a variable or expression: {x!r}")

    def __repr__(self):
        return f"Solution({self.values})"


@dataclass
class Result:
    """The end of `Model.solve`: its status, the last (best) solution, the objective's value
    in it, the engine's statistics, and the wall time in seconds."""

    status: Status
    solution: Optional[Solution]
    objective: Optional[int]
    stats: Dict[str, int] = field(default_factory=dict)
    runtime: float = 0.0
    solutions: int = 0
    interrupted: bool = False

    def __getitem__(self, x):
        if self.solution is None:
            raise LookupError(f"no solution ({self.status.value})")
        return self.solution[x]

    def __bool__(self):
        return self.solution is not None


class _Recording:
    """The engine's model, with every call that changed it kept in order: replayed, they
    rebuild it, which is how a `Model` is pickled (to a Dask worker, say)."""

    #: The native methods that read the model and change nothing.
    _READS = frozenset({"var_count", "constraint_count", "solutions_on", "var_name", "bounds",
                        "constraint_name", "check"})

    __slots__ = ("model", "calls")

    def __init__(self, model, calls=()):
        self.model = model
        self.calls: List[Tuple[str, tuple, dict]] = []
        for name, args, kwargs in calls:
            getattr(self, name)(*args, **kwargs)

    def __getattr__(self, name):
        method = getattr(self.model, name)
        if name in self._READS or not callable(method):
            return method

        def changing(*args, **kwargs):
            result = method(*args, **kwargs)
            self.calls.append((name, args, kwargs))
            return result

        return changing


class Model:
    """A constraint model: variables, constraints, maybe an objective.

    >>> m = Model()
    >>> x, y = m.int_var(0, 9, "x"), m.int_var(0, 9, "y")
    >>> m.add(x + 2 * y == 12); m.add(x > y)
    >>> r = m.solve(); (r[x], r[y])
    (6, 3)
    """

    def __init__(self):
        self._native = _native.Model()
        # Every change to the engine's model goes through here, and is kept for pickling.
        self._post = _Recording(self._native)
        self.vars: List[IntVar] = []
        self._objective: Optional[Tuple[IntVar, bool]] = None

    def __getstate__(self):
        # The calls that built the engine's model, the variables' names and the objective:
        # enough to build it again elsewhere (the variables are new objects there).
        objective = None
        if self._objective is not None:
            objective = (self._objective[0].index, self._objective[1])
        return {"calls": self._post.calls, "vars": [(v.index, v.name) for v in self.vars],
                "objective": objective}

    def __setstate__(self, state):
        self._native = _native.Model()
        self._post = _Recording(self._native, state["calls"])
        self.vars = [IntVar(self, index, name) for index, name in state["vars"]]
        self._objective = None
        if state["objective"] is not None:
            index, minimise = state["objective"]
            self._objective = (next(v for v in self.vars if v.index == index), minimise)

    # -- variables ------------------------------------------------------------------------
    def int_var(self, lo: int, hi: int, name: Optional[str] = None) -> IntVar:
        """A new integer variable over `lo..hi` (both included)."""
        var = IntVar(self, self._post.int_var(int(lo), int(hi), name), name)
        self.vars.append(var)
        return var

    def int_vars(self, n: int, lo: int, hi: int, name: str = "x") -> List[IntVar]:
        """`n` new variables over `lo..hi`, named `name[0]`, `name[1]`, ..."""
        return [self.int_var(lo, hi, f"{name}[{i}]") for i in range(n)]

    def var_in(self, values: Iterable[int], name: Optional[str] = None) -> IntVar:
        """A new variable over exactly `values`."""
        var = IntVar(self, self._post.var_from_values([int(v) for v in values], name), name)
        self.vars.append(var)
        return var

    def bool_var(self, name: Optional[str] = None) -> IntVar:
        """A new 0/1 variable."""
        return self.int_var(0, 1, name)

    def _as_var(self, x: Operand) -> IntVar:
        """`x` itself if a variable, else a new variable equal to it."""
        if isinstance(x, IntVar):
            if x.model is not self:
                raise ModelError(f"variable {x} belongs to another model")
            return x
        expr = LinExpr.of(x)
        self._own(expr)
        lo = expr.constant + sum(min(c * v.bounds[0], c * v.bounds[1]) for v, c in expr.terms.items())
        hi = expr.constant + sum(max(c * v.bounds[0], c * v.bounds[1]) for v, c in expr.terms.items())
        var = self.int_var(lo, hi)
        self.add(var == expr)
        return var

    def _own(self, expr: LinExpr) -> None:
        for var in expr.terms:
            if var.model is not self:
                raise ModelError(f"variable {var} belongs to another model")

    # -- constraints ----------------------------------------------------------------------
    def add(self, constraint: Union[Relation, Iterable[Relation]]) -> None:
        """Posts a linear constraint (`x + 2 * y <= 10`), or each of several."""
        if isinstance(constraint, Relation):
            self._own(constraint.expr)
            coefs, idx, rhs = constraint.parts()
            self._post.linear(coefs, idx, constraint.op, rhs)
            return
        if isinstance(constraint, bool):
            raise TypeError("a plain bool, not a constraint: compare expressions built "
                            "from this model's variables")
        try:
            items = iter(constraint)
        except TypeError:
            raise TypeError(f"not a constraint: {constraint!r}") from None
        for c in items:
            self.add(c)

    def __iadd__(self, constraint):
        """`m += x + y == 10` posts as `m.add` does."""
        self.add(constraint)
        return self

    def reify(self, b: IntVar, constraint: Relation, half: bool = False) -> None:
        """`b` is 1 exactly when `constraint` holds (`b -> constraint` when `half`)."""
        self._own(constraint.expr)
        b = self._as_var(b)
        coefs, idx, rhs = constraint.parts()
        self._post.linear_reif(b.index, coefs, idx, constraint.op, rhs, half)

    def clause(self, positive: Sequence[IntVar] = (), negative: Sequence[IntVar] = ()) -> None:
        """At least one of `positive` is 1 or one of `negative` is 0."""
        self._post.clause(self._indices(positive), self._indices(negative))

    def all_different(self, xs: Sequence[Operand]) -> None:
        """All of `xs` take different values."""
        self._post.all_different(self._indices(xs))

    def all_different_except(self, xs: Sequence[Operand], values: Iterable[int]) -> None:
        """All of `xs` differ, except that `values` may repeat (`[0]`: all_different_except_0)."""
        self._post.all_different_except(self._indices(xs), [int(v) for v in values])

    def table(self, xs: Sequence[Operand], tuples: Iterable[Sequence[Optional[int]]],
              allowed: bool = True) -> None:
        """`xs` take the values of one of `tuples` (of none when not `allowed`); `None` in a
        tuple matches any value."""
        rows = [[None if v is None else int(v) for v in t] for t in tuples]
        self._post.table(self._indices(xs), rows, allowed)

    def element(self, array: Sequence[Operand], index: Operand, value: Operand) -> None:
        """`array[index] == value` (indices from 0)."""
        if all(isinstance(a, int) for a in array):
            self._post.element_values(self._as_var(index).index, [int(a) for a in array], 0,
                                        self._as_var(value).index)
        else:
            self._post.element(self._as_var(index).index, self._indices(array), 0,
                                 self._as_var(value).index)

    def minimum(self, xs: Sequence[Operand], z: Operand) -> None:
        """`z == min(xs)`."""
        self._post.minimum(self._indices(xs), self._as_var(z).index)

    def maximum(self, xs: Sequence[Operand], z: Operand) -> None:
        """`z == max(xs)`."""
        self._post.maximum(self._indices(xs), self._as_var(z).index)

    def times(self, x: Operand, y: Operand, z: Operand) -> None:
        """`x * y == z`."""
        self._post.arith("*", self._as_var(x).index, self._as_var(y).index, self._as_var(z).index)

    def count(self, xs: Sequence[Operand], value: Operand, n: Operand) -> None:
        """`n` of `xs` equal `value`."""
        self._post.count(self._indices(xs), self._as_var(value).index, self._as_var(n).index)

    def circuit(self, succ: Sequence[Operand]) -> None:
        """`succ[i]` is node i's successor (from 0) on one cycle through every node."""
        self._post.circuit(self._indices(succ), 0, False)

    def cumulative(self, starts: Sequence[Operand], durations: Sequence[Operand],
                   demands: Sequence[Operand], capacity: Operand) -> None:
        """Tasks never use more than `capacity` at once."""
        self._post.cumulative(self._indices(starts), self._indices(durations),
                                self._indices(demands), self._as_var(capacity).index)

    def no_overlap(self, starts: Sequence[Operand], durations: Sequence[int]) -> None:
        """Tasks of fixed `durations` never overlap."""
        self._post.disjunctive(self._indices(starts), [int(d) for d in durations], False)

    def knapsack(self, weights: Sequence[int], profits: Sequence[int], xs: Sequence[Operand],
                 weight: Operand, profit: Operand) -> None:
        """`xs[i]` copies of item i, of weight `weights[i]` and profit `profits[i]`, weigh
        `weight` and earn `profit` in all; every one of them is at least 0, and so must the
        weights and profits be (MiniZinc's knapsack: beside the two sums, the linear
        relaxation bounds each total by the other)."""
        self._post.knapsack([int(w) for w in weights], [int(p) for p in profits],
                              self._indices(xs), self._as_var(weight).index,
                              self._as_var(profit).index)

    def increasing(self, xs: Sequence[Operand], strict: bool = False) -> None:
        """`xs` never goes down (always up when `strict`)."""
        self._post.increasing(self._indices(xs), strict, False)

    def lex_less_eq(self, xs: Sequence[Operand], ys: Sequence[Operand], strict: bool = False) -> None:
        """`xs` is lexicographically at most `ys` (below it when `strict`)."""
        self._post.lex(self._indices(xs), self._indices(ys), strict)

    def _indices(self, xs: Sequence[Operand]) -> List[int]:
        return [self._as_var(x).index for x in xs]

    # -- objective and solving ------------------------------------------------------------
    def minimize(self, expr: Operand) -> None:
        """Look for the smallest value of `expr`."""
        self._objective = (self._as_var(expr), True)

    def maximize(self, expr: Operand) -> None:
        """Look for the largest value of `expr`."""
        self._objective = (self._as_var(expr), False)

    def _search(self, max_solutions, time_limit, first=None, **options) -> "_native.Search":
        objective = None
        if self._objective is not None:
            var, minimise = self._objective
            objective = (var.index, minimise)
        return _native.Search(self._native, max_solutions=max_solutions, time_limit=time_limit,
                              objective=objective, first=first, **options)

    def solve(self, time_limit: Optional[float] = None, *, inference: Optional[str] = None,
              var_order: Optional[str] = None, value_order: Optional[str] = None,
              seed: int = 0, threads: Optional[int] = None, node_limit: Optional[int] = None,
              on_solution: Optional[Callable[[Solution], object]] = None,
              hint: Optional[Sequence[Tuple[Operand, int]]] = None,
              proof: Optional[str] = None, lp: Optional[str] = None) -> Result:
        """Finds a solution, or under an objective the best one within `time_limit` seconds.

        `inference`: none, fc, mac or lcg; `var_order` and `value_order` as the command
        line's. Naming none of them, nor `threads`, runs several searches side by side, the
        first to finish ending the others (under an objective, learning beside two
        arc-consistency searches; for one solution, arc consistency beside learning); naming
        one runs that search alone, and `threads` > 1 adds searches unlike it. Each improving
        solution goes to `on_solution`. Ctrl-C stops the search and returns what was found.
        `hint`: `(variable, value)` pairs that learning tries first until a first solution (a
        warm start). `proof`: a file for a DRCP proof of what the search proves (no solution,
        or the optimum), with the model beside it as `.fzn`, for Pumpkin's checker
        (`pumpkin-checker FILE.fzn FILE`); learning, one search, linear and all-different
        constraints only. `lp`: "auto" (the default: in an optimisation whose objective is in
        the LP's rows, up to 400 of them, or 1,500 over an all-different's value literals), "on"
        or "off", the LP relaxation of the model (linear constraints, reifications, gates,
        element, all-different and counts over value literals and the like) inside the search.
        """
        started = time.perf_counter()
        hinted = None
        if hint is not None:
            hinted = [(self._as_var(x).index, int(v)) for x, v in hint]
        search = self._search(1 if self._objective is None else None, time_limit,
                              inference=inference, var_order=var_order, value_order=value_order,
                              seed=seed, threads=threads, node_limit=node_limit, hint=hinted,
                              proof=proof, lp=lp)
        best, count, interrupted = None, 0, False
        try:
            for values in search:
                best, count = Solution(values), count + 1
                self._check(values)
                if on_solution is not None:
                    on_solution(best)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            search.close()
        summary = json.loads(search.summary() or '{"outcome": "cancelled", "stats": {}}')
        objective = None
        if best is not None and self._objective is not None:
            objective = best[self._objective[0]]
        exhausted = summary["outcome"] == "exhausted"
        if best is None:
            status = Status.UNSATISFIABLE if exhausted else Status.UNKNOWN
        elif self._objective is not None and exhausted:
            status = Status.OPTIMAL
        else:
            status = Status.SATISFIED
        return Result(status, best, objective, summary["stats"], time.perf_counter() - started,
                      count, interrupted)

    def solutions(self, time_limit: Optional[float] = None, *, limit: Optional[int] = None,
                  **options) -> Iterator[Solution]:
        """Every solution (the first `limit`), one at a time, found as they are asked for."""
        search = self._search(limit, time_limit, **options)
        try:
            for values in search:
                self._check(values)
                yield Solution(values)
        finally:
            search.close()

    def _check(self, values: Sequence[int]) -> None:
        broken = self._native.check(list(values))
        if broken is not None:
            raise AssertionError("csp found a solution that breaks constraint "
                                 f"{self._native.constraint_name(broken)}: a bug in csp; "
                                 "please report it")
