"""CPMpy's solver interface to csp: `register()` once, then `SolverLookup.get("csp")` or
`model.solve(solver="csp")`.

The model goes through CPMpy's own transformations (the flat normal form with half
reification, as for OR-Tools), then each constraint is posted natively: linear constraints
(reified or not), clauses, and the globals csp has a propagator for. CPMpy decomposes the rest.
A `DirectConstraint` calls the native model's method of its name (`knapsack`, for one).
A FloatSum objective is taken when its coefficients are decimals (scaled to integers exactly).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from typing import Optional

from . import _native

NAME = "csp"

# Each comparison's negation.
_NEGATED = {"==": "!=", "!=": "==", "<=": ">", ">": "<=", "<": ">=", ">=": "<"}

# The globals (and global functions) csp posts with a propagator of its own.
SUPPORTED_GLOBALS = frozenset({
    "alldifferent", "alldifferent_except_n", "table", "negative_table", "short_table", "xor",
    "circuit", "subcircuit", "subcircuitwithstart", "inverse", "cumulative", "no_overlap",
    "cumulative_optional", "no_overlap_optional", "increasing", "decreasing", "regular", "mdd",
    "strictly_increasing", "strictly_decreasing", "lex_less", "lex_lesseq", "gcc",
    "precedence", "indomain",
    "min", "max", "abs", "mul", "div", "mod", "pow", "element", "count", "nvalue", "among",
})


# A small constraint that CPMpy would post in pieces around new variables (`abs(x // 6 - y
# // 6) == 1 and ...`) is posted as the table of its solutions instead, as `csp xcsp3` posts
# a small intension: at most this many variables, of at most this many combinations of
# values, and this many combinations over all such constraints of one solver.
MOST_TABLE_VARIABLES = 4
MOST_TABLE_COMBINATIONS = 1 << 16
MOST_TABLED_COMBINATIONS = 1 << 22


def _interface():
    """The solver class, built on CPMpy's `SolverInterface` once CPMpy is imported."""
    from cpmpy.exceptions import NotSupportedError
    from cpmpy.expressions.core import BoolVal, Comparison, Expression, Operator
    from cpmpy.expressions.globalconstraints import DirectConstraint, GlobalConstraint
    from cpmpy.expressions.globalfunctions import GlobalFunction
    from cpmpy.expressions.utils import STAR, flatlist, get_bounds, is_any_list, is_num
    from cpmpy.expressions.variables import NegBoolView, _BoolVarImpl, _NumVarImpl, boolvar, intvar
    from cpmpy.solvers.solver_interface import ExitStatus, SolverInterface, SolverStatus
    from cpmpy.transformations.comparison import only_numexpr_equality
    from cpmpy.transformations.decompose_global import decompose_in_tree, decompose_objective
    from cpmpy.transformations.flatten_model import flatten_constraint, flatten_objective
    from cpmpy.transformations.get_variables import get_variables
    from cpmpy.transformations.negation import push_down_negation, push_down_negation_objective
    from cpmpy.transformations.normalize import toplevel_list
    from cpmpy.transformations.reification import only_bv_reifies, only_implies, reify_rewrite
    from cpmpy.transformations.safening import no_partial_functions, safen_objective

    def _literal(e):
        return is_num(e) or isinstance(e, (BoolVal, _BoolVarImpl))

    def _linear_side(e):
        """Whether `e` is linear in variables and in truths CPMpy reifies (`(x == 2) + (y ==
        2) <= 1` is a sum of two 0/1 variables), truths of no non-linear term."""
        if is_num(e) or isinstance(e, _NumVarImpl):
            return True
        if _truth(e):
            return not _arithmetic(e)
        name = getattr(e, "name", None)
        if isinstance(e, Operator) and name in ("sum", "sub", "-"):
            return all(_linear_side(a) for a in e.args)
        if isinstance(e, Operator) and name == "wsum":
            return all(_linear_side(a) for a in e.args[1])
        if isinstance(e, (Operator, GlobalFunction)) and name == "mul":
            a, b = e.args
            return (is_num(a) and _linear_side(b)) or (is_num(b) and _linear_side(a))
        return False

    def _direct(e):
        """Whether CPMpy's transformations leave `e` as csp posts it directly, with no new
        variable: a relation between linear sides, its reification by a literal, a clause,
        a conjunction of such, a global constraint (posted, or decomposed, as it is)."""
        if _literal(e) or isinstance(e, GlobalConstraint):
            return True
        if isinstance(e, Comparison):
            a, b = e.args
            if _linear_side(a) and _linear_side(b):
                return True
            # A linear relation between two variables or more, reified (Soccer's 1,800
            # `b == (x >= y)` over 107 values would make tables of 11,449 rows each, as
            # `csp xcsp3` found): posted as one reified linear constraint.
            return e.name == "==" and ((_literal(a) and _direct(b)) or (_literal(b) and _direct(a)))
        if isinstance(e, Operator):
            if e.name == "and":
                return all(_direct(a) for a in e.args)
            if e.name == "or":
                return all(_literal(a) for a in e.args)
            if e.name == "->":
                return _literal(e.args[0]) and _direct(e.args[1])
        return False

    def _arithmetic(e):
        """Whether `e` holds a non-linear numeric term (`x // 6`, `abs(x - y)`, `x * y`,
        `min(x, y)`), which CPMpy posts as a piece of its own around a new
        variable. A Boolean structure of linear relations alone (`(x == 0) | (y == x)`) is
        posted as reified linear constraints and a clause, which learning explains better
        than a table: CPMpy's npuzzle took 1.5 s rather than 0.3 s with its 342 such
        constraints as tables, basketball 1.2 s rather than 0.3 s."""
        if is_num(e) or isinstance(e, _NumVarImpl):
            return False
        if is_any_list(e):
            return any(_arithmetic(a) for a in e)
        if not isinstance(e, Expression):
            return False
        if isinstance(e, GlobalFunction) and e.name == "element":
            # Posted by its own domain-consistent propagator: as strong as a table, and
            # cheaper (XCSP3's Fastfood through CPMpy took 0.4 s with its 136 as tables,
            # against 0.07 s).
            return any(_arithmetic(a) for a in e.args)
        if not e.is_bool() and not _linear_side(e):
            return True
        return any(_arithmetic(a) for a in getattr(e, "args", ()))

    def _packed(rows, arity):
        """A table's rows of integers packed as 32-bit values, one row after another (numpy
        reads a list of lists or an array at C speed, where a loop over 3.3 million values
        took a second); `None` for rows with a wildcard, or none, or beyond 32 bits."""
        import numpy
        try:
            table = numpy.asarray(rows)
        except (ValueError, TypeError):
            return None
        if table.ndim != 2 or table.shape[0] == 0 or table.shape[1] != arity \
                or table.dtype.kind not in "iub":
            return None
        if table.dtype.kind != "b" and (table.min() < -2 ** 31 or table.max() >= 2 ** 31):
            return None
        return table.astype("<i4").tobytes()

    def _shape(e, at):
        """`e` with each variable replaced by its place in a scope (`at`: name -> place):
        equal for two constraints alike but for their variables."""
        if isinstance(e, NegBoolView):
            return ("~", at[e._bv.name])
        if isinstance(e, _NumVarImpl):
            return at[e.name]
        if is_num(e):
            return ("=", e)
        if is_any_list(e):
            return tuple(_shape(a, at) for a in e)
        if not isinstance(e, Expression):
            return ("?", e)
        return (type(e).__name__, getattr(e, "name", None), _shape(e.args, at))

    def _switched(e):
        """Whether `e` is a truth times a value (`(p == 0) * cost`), posted better as a
        reified truth times the value than as a table of every value (`csp xcsp3` found
        tables of 40,004 rows for Mapping's such terms)."""
        if not (isinstance(e, (Operator, GlobalFunction)) and e.name == "mul"):
            return False
        a, b = e.args
        return _truth(a) != _truth(b)

    def _truth(e):
        return isinstance(e, Expression) and e.is_bool()

    class CPM_csp(SolverInterface):
        """csp through CPMpy.

        `solve()` takes, besides `time_limit` and `display`: `inference` (none, fc, mac, lcg),
        `var_order`, `value_order`, `seed`, `threads`, `node_limit`, as the `csp` command.
        """

        supported_global_constraints = SUPPORTED_GLOBALS
        supported_reified_global_constraints = frozenset()

        @staticmethod
        def supported():
            return True

        @classmethod
        def version(cls) -> Optional[str]:
            return _native.__version__

        def __init__(self, cpm_model=None, subsolver=None, proof=None):
            """`proof`: a file to write a DRCP proof to at each solve (the model it speaks of
            goes beside it, with the extension .fzn); `verify()` checks it with Pumpkin's
            checker. Proofs need learning, one search, and a model the checker reads
            (linear and all-different constraints after CPMpy's transformations)."""
            if subsolver is not None:
                raise NotSupportedError("csp has no subsolvers")
            self._proof = None if proof is None else str(proof)
            self.csp_model = _native.Model()
            self._constants = {}
            self._objective_var = None
            self._objective_min = True
            self.objective_ = None
            self._unsat = False
            self._assumptions = None
            self._hint = None
            # A FloatSum objective's power of ten (see _float_objective), else None.
            self._float_scale = None
            # The objective variable's value in the last solution loaded.
            self._objective_reached = None
            # Each 0/1 variable's negation, made once: csp variable -> variable `not` it.
            self._negations = {}
            # Half reifications of the batch being posted, paired at its end (see _post_all).
            self._pending = None
            # How many constraints the model had when its projections were last added.
            self._projected = 0
            # Whether small constraints may become tables (see _tabulated), and how many
            # combinations of values they may still take in all.
            self._tables = True
            self._table_budget = MOST_TABLED_COMBINATIONS
            # The solutions listed for each shape of constraint and its domains (_post_table).
            self._listed = {}
            super().__init__(name=NAME, cpm_model=cpm_model)

        @property
        def native_model(self):
            return self.csp_model

        # -- variables --------------------------------------------------------------------
        def solver_var(self, cpm_var):
            if is_num(cpm_var):
                return self._constant(int(cpm_var))
            if isinstance(cpm_var, NegBoolView):
                raise NotSupportedError(f"csp: a negated Boolean where a variable is needed: {cpm_var}")
            if isinstance(cpm_var, _NumVarImpl):
                index = self._varmap.get(cpm_var.name)
                if index is None:
                    if isinstance(cpm_var, _BoolVarImpl):
                        lb, ub = 0, 1
                    else:
                        lb, ub = int(cpm_var.lb), int(cpm_var.ub)
                    index = self._new_var(lb, ub, str(cpm_var.name))
                    self._varmap[cpm_var.name] = index
                return index
            raise NotSupportedError(f"csp: not a variable: {cpm_var}")

        def _new_var(self, lb, ub, name=None):
            try:
                return self.csp_model.int_var(lb, ub, name)
            except _native.ModelError as e:
                raise NotSupportedError(f"csp: variable {name} over {lb}..{ub}: {e}") from None

        def _constant(self, value):
            index = self._constants.get(value)
            if index is None:
                index = self._new_var(value, value)
                self._constants[value] = index
            return index

        def _var(self, expr):
            """A csp variable for a variable, a constant or a negated Boolean."""
            if isinstance(expr, NegBoolView):
                return self._negation(self.solver_var(expr._bv))
            return self.solver_var(expr)

        def _negation(self, v):
            """A 0/1 variable equal to `not v`, one for each `v`."""
            index = self._negations.get(v)
            if index is None:
                index = self._new_var(0, 1)
                self.csp_model.bool_xor([(index, True), (v, True)], True)
                self._negations[v] = index
            return index

        def _vars(self, exprs):
            return [self._var(e) for e in exprs]

        def _lit(self, expr):
            """A literal `(var, positive)` for a Boolean variable or its negation."""
            if isinstance(expr, NegBoolView):
                return (self.solver_var(expr._bv), False)
            if isinstance(expr, _BoolVarImpl):
                return (self.solver_var(expr), True)
            if is_num(expr):
                return (self._constant(1 if expr else 0), True)
            raise NotSupportedError(f"csp: not a Boolean literal: {expr}")

        def _linear(self, expr, sign=1):
            """`expr` as (coefficients, variables, constant), for a linear expression."""
            coefs, xs, const = [], [], 0

            def term(a, x):
                nonlocal const
                if is_num(x):
                    const += a * int(x)
                elif isinstance(x, NegBoolView):  # not b = 1 - b
                    const += a
                    coefs.append(-a)
                    xs.append(self.solver_var(x._bv))
                elif isinstance(x, _NumVarImpl):
                    coefs.append(a)
                    xs.append(self.solver_var(x))
                elif isinstance(x, Operator) and x.name == "sum":
                    for y in x.args:
                        term(a, y)
                elif isinstance(x, Operator) and x.name == "wsum":
                    for w, y in zip(*x.args):
                        term(a * int(w), y)
                elif isinstance(x, Operator) and x.name == "sub":
                    term(a, x.args[0])
                    term(-a, x.args[1])
                elif isinstance(x, Operator) and x.name == "-":
                    term(-a, x.args[0])
                elif isinstance(x, (Operator, GlobalFunction)) and x.name == "mul" and is_num(x.args[0]):
                    term(a * int(x.args[0]), x.args[1])
                elif isinstance(x, (Operator, GlobalFunction)) and x.name == "mul" and is_num(x.args[1]):
                    term(a * int(x.args[1]), x.args[0])
                else:
                    raise NotSupportedError(f"csp: not a linear expression: {x}")

            term(sign, expr)
            return coefs, xs, const

        # -- objective --------------------------------------------------------------------
        def objective(self, expr, minimize=True):
            from cpmpy.expressions.core import Expression
            if getattr(expr, "name", None) == "floatsum":
                return self._float_objective(expr, minimize)
            if not isinstance(expr, Expression) and not is_num(expr):
                raise NotSupportedError(f"csp: integer objectives only, not {type(expr).__name__}")
            self._float_scale = None
            get_variables(expr, collect=self.user_vars)
            obj, safe_cons = safen_objective(self._tabulated_terms(expr))
            obj = push_down_negation_objective(obj)
            obj, decomp_cons = decompose_objective(obj, supported=self.supported_global_constraints,
                                                   supported_reified=self.supported_reified_global_constraints,
                                                   csemap=self._csemap)
            obj, flat_cons = flatten_objective(obj, csemap=self._csemap)
            self._post_all(safe_cons + decomp_cons + flat_cons)
            if isinstance(obj, _NumVarImpl) and not isinstance(obj, NegBoolView):
                var = self.solver_var(obj)
            else:
                var = self._equal_to(obj)
            self.objective_ = expr
            self._objective_var = var
            self._objective_min = minimize

        def _equal_to(self, linear):
            """A new variable equal to the linear expression `linear`, over its bounds."""
            coefs, xs, const = self._linear(linear)
            lb, ub = get_bounds(linear)
            var = self._new_var(int(lb), int(ub))
            self.csp_model.linear(coefs + [-1], xs + [var], "==", -const)
            return var

        def _float_objective(self, fs, minimize):
            """CPMpy's FloatSum, its coefficients decimals of up to 6 places: the integer sum
            of the coefficients times the least power of ten that makes them whole, an exact
            rescaling; its value is read back from `FloatSum.value()`."""
            coefs = [float(c) for c in fs.coeffs]
            scale = next((10 ** k for k in range(7)
                          if all(abs(c * 10 ** k - round(c * 10 ** k)) < 1e-9 * 10 ** k
                                 for c in coefs)), None)
            if scale is None:
                raise NotSupportedError("csp: FloatSum coefficients with more than 6 decimals "
                                        "cannot be scaled to integers exactly")
            weights = [int(round(c * scale)) for c in coefs]
            get_variables(list(fs.vars), collect=self.user_vars)
            self.objective_ = fs
            self._objective_var = self._equal_to(Operator("wsum", [weights, list(fs.vars)]))
            self._objective_min = minimize
            self._float_scale = scale

        def minimize(self, expr):
            self.objective(expr, minimize=True)

        def maximize(self, expr):
            self.objective(expr, minimize=False)

        def has_objective(self):
            return self._objective_var is not None

        # -- constraints ------------------------------------------------------------------
        def transform(self, cpm_expr):
            cons = toplevel_list(cpm_expr)
            cons = no_partial_functions(cons)
            cons = push_down_negation(cons)
            cons = decompose_in_tree(cons, supported=self.supported_global_constraints,
                                     supported_reified=self.supported_reified_global_constraints,
                                     csemap=self._csemap)
            cons = flatten_constraint(cons, csemap=self._csemap)
            cons = reify_rewrite(cons, supported=frozenset(["sum", "wsum"]), csemap=self._csemap)
            cons = only_numexpr_equality(cons, supported=frozenset(["sum", "wsum", "sub"]),
                                         csemap=self._csemap)
            cons = only_bv_reifies(cons, csemap=self._csemap)
            cons = only_implies(cons, csemap=self._csemap)
            return cons

        def add(self, cpm_expr):
            get_variables(cpm_expr, collect=self.user_vars)
            self._post_all(cpm_expr)
            return self

        __add__ = add

        def _post_all(self, cpm_expr):
            outer = self._pending is None
            if outer:
                self._pending = {}
            try:
                rest = [c for c in toplevel_list(cpm_expr) if not self._tabulated(c)]
                for con in self.transform(rest):
                    try:
                        self._post(con)
                    except _native.ModelError as e:
                        raise NotSupportedError(f"csp: {con}: {e}") from None
                if outer:
                    self._post_reifications()
            finally:
                if outer:
                    self._pending = None

        def _tabulated(self, con):
            """Posts `con` as the table of its solutions when CPMpy would post it in pieces
            around new variables (a non-linear or nested relation: `abs(x // 6 - y // 6) ==
            1 and abs(x % 6 - y % 6) == 2`, each piece filtered alone, fixing `x` leaves `y`
            most cells) and it is small: `MOST_TABLE_VARIABLES` variables of at most
            `MOST_TABLE_COMBINATIONS` combinations. The table is what the pieces allow, found
            by posting them alone and listing their solutions, so the two mean the same
            (partial functions too). Not under a proof, whose checker reads no table.
            XCSP3's QueenAttacking-6 through CPMpy: no solution in 20 s -> optimal in 0.1 s."""
            if not self._tables or self._proof is not None or _direct(con) \
                    or not _arithmetic(con):
                return False
            scope = get_variables(con)
            if not 1 <= len(scope) <= MOST_TABLE_VARIABLES:
                return False
            combinations = self._table_size(scope)
            return combinations is not None and self._post_table(con, scope, combinations)

        def _table_size(self, scope):
            """How many combinations of values `scope` has, if few enough for a table (at
            most `MOST_TABLE_COMBINATIONS`, and within what the solver's tables have left)."""
            most = min(MOST_TABLE_COMBINATIONS, self._table_budget)
            combinations = 1
            for v in scope:
                combinations *= int(v.ub) - int(v.lb) + 1
                if combinations > most:
                    return None
            return combinations

        def _post_table(self, con, scope, combinations):
            """Posts `con` as the table of its solutions on `scope`, whose variables take
            `combinations` combinations of values it may allow; False, posting nothing,
            when they cannot be listed (`_solutions_of`)."""
            # Constraints alike but for their variables (QueenAttacking's 35 knight's moves,
            # SocialGolfers' 2,400 products of two 0/1 variables) share one listing.
            key = (_shape(con, {v.name: k for k, v in enumerate(scope)}),
                   tuple((int(v.lb), int(v.ub)) for v in scope))
            if key not in self._listed:
                self._listed[key] = self._solutions_of(con, scope, combinations)
            rows = self._listed[key]
            if rows is None:
                return False
            self._table_budget -= combinations
            if not rows:
                self._unsat = True
            else:
                self.csp_model.table(self._vars(scope), rows, True)
            return True

        def _tabulated_terms(self, expr):
            """`expr` (an objective), where it is a sum, with each small non-linear term
            replaced by a new variable tied to the term's variables by one table, as `csp
            xcsp3` does (the term is flattened into pieces otherwise, as a constraint is in
            `_tabulated`); a linear relation between variables and a product of a truth and
            a value stay, posted better directly. At most `MOST_TABLE_VARIABLES - 1`
            variables a term, the new one making up the table's."""
            if not self._tables or self._proof is not None or not isinstance(expr, Operator):
                return expr
            if expr.name == "sum":
                weights, terms = None, list(expr.args)
            elif expr.name == "wsum":
                weights, terms = list(expr.args[0]), list(expr.args[1])
            else:
                return expr
            changed = False
            for k, term in enumerate(terms):
                if is_num(term) or _linear_side(term) or _switched(term) or not _arithmetic(term):
                    continue
                scope = get_variables(term)
                if not 1 <= len(scope) < MOST_TABLE_VARIABLES:
                    continue
                if len(scope) >= 2 and _direct(term):
                    continue
                combinations = self._table_size(scope)
                if combinations is None:
                    continue
                if term.is_bool():
                    value = boolvar()
                else:
                    lb, ub = get_bounds(term)
                    value = intvar(int(lb), int(ub))
                if self._post_table(value == term, scope + [value], combinations):
                    terms[k] = value
                    changed = True
            if not changed:
                return expr
            return Operator("sum", terms) if weights is None else Operator("wsum", [weights, terms])

        def _solutions_of(self, con, scope, combinations):
            """The combinations of `scope`'s values that `con`, posted alone in pieces,
            allows; `None` if listing them takes more than a few nodes per combination (new
            variables free of `scope`, which a table cannot stand for)."""
            alone = CPM_csp()
            alone._tables = False
            alone.add(con)
            if alone._unsat:
                return []
            at = [alone.solver_var(v) for v in scope]
            return alone.csp_model.solutions_on(at, combinations, 64 * combinations + 1024)

        def _post_reifications(self):
            """The batch's half reifications of linear comparisons, `b -> c` and `not b -> not
            c` paired into one `b <-> c` (CPMpy writes each reified comparison as those two):
            one propagator, and no cluster of three for the projections to tabulate."""
            for (v, coefs, xs, op, rhs), (when_true, when_false) in self._pending.items():
                try:
                    if when_true and when_false:
                        self.csp_model.linear_reif(v, list(coefs), list(xs), op, rhs, False)
                    elif when_true:
                        self.csp_model.linear_reif(v, list(coefs), list(xs), op, rhs, True)
                    else:
                        self.csp_model.linear_reif(self._negation(v), list(coefs), list(xs),
                                                   _NEGATED[op], rhs, True)
                except _native.ModelError as e:
                    raise NotSupportedError(f"csp: {v} -> {op} {rhs}: {e}") from None

        def _post(self, c):
            m = self.csp_model
            if isinstance(c, DirectConstraint):
                # A method of csp's own model, by name, its variables as csp's (CPMpy's way
                # to a native constraint it has no global for: `DirectConstraint("knapsack",
                # (weights, profits, xs, weight, profit), novar=[0, 1])`).
                c.callSolver(self, m)
                return
            if isinstance(c, BoolVal):
                if not c.value():
                    self._unsat = True
                return
            if isinstance(c, _BoolVarImpl):  # a literal that must hold
                v, positive = self._lit(c)
                m.compare_value(v, "==", 1 if positive else 0)
                return
            if isinstance(c, Operator):
                if c.name == "or":
                    self._clause([self._lit(a) for a in c.args])
                    return
                if c.name == "and":
                    for a in c.args:
                        self._post(a)
                    return
                if c.name == "->":
                    self._post_implied(self._lit(c.args[0]), c.args[1])
                    return
            if isinstance(c, Comparison):
                self._post_comparison(c)
                return
            if isinstance(c, GlobalConstraint):
                self._post_global(c)
                return
            raise NotSupportedError(f"csp: constraint not supported: {c}")

        def _clause(self, lits):
            pos = [v for v, p in lits if p]
            neg = [v for v, p in lits if not p]
            if not pos and not neg:
                self._unsat = True
                return
            self.csp_model.clause(pos, neg)

        def _post_implied(self, cond, rhs):
            """`cond -> rhs` for a literal `cond`."""
            v, positive = cond
            if isinstance(rhs, BoolVal):
                if not rhs.value():
                    self.csp_model.compare_value(v, "==", 0 if positive else 1)
                return
            if isinstance(rhs, _BoolVarImpl):
                self._clause([(v, not positive), self._lit(rhs)])
                return
            if isinstance(rhs, Operator) and rhs.name == "or":
                self._clause([(v, not positive)] + [self._lit(a) for a in rhs.args])
                return
            if isinstance(rhs, Operator) and rhs.name == "and":
                for a in rhs.args:
                    self._post_implied(cond, a)
                return
            if isinstance(rhs, Comparison):
                coefs, xs, value = self._comparison_terms(rhs)
                # Keyed by what `v` (true) stands for: `not v -> c` is `v` standing for `not c`.
                op = rhs.name if positive else _NEGATED[rhs.name]
                key = (v, tuple(coefs), tuple(xs), op, value)
                # Always within _post_all, which posts the batch's pending halves at its end.
                when_true, when_false = self._pending.get(key, (False, False))
                self._pending[key] = (when_true or positive, when_false or not positive)
                return
            raise NotSupportedError(f"csp: implication not supported: {cond} -> {rhs}")

        def _comparison_terms(self, c):
            """`lhs op rhs` as `sum(coefs * xs) op value`."""
            lhs, rhs = c.args
            coefs, xs, const = self._linear(lhs)
            c2, x2, k2 = self._linear(rhs, -1)
            return coefs + c2, xs + x2, -(const + k2)

        def _post_comparison(self, c):
            lhs, rhs = c.args
            m = self.csp_model
            if isinstance(lhs, GlobalFunction) or (isinstance(lhs, Operator) and lhs.name == "mul"
                                                   and not is_num(lhs.args[0]) and not is_num(lhs.args[1])):
                if c.name != "==":
                    raise NotSupportedError(f"csp: comparison not supported: {c}")
                self._post_function(lhs, self._var(rhs))
                return
            coefs, xs, value = self._comparison_terms(c)
            if not xs:
                holds = {"==": 0 == value, "!=": 0 != value, "<=": 0 <= value, "<": 0 < value,
                         ">=": 0 >= value, ">": 0 > value}[c.name]
                if not holds:
                    self._unsat = True
                return
            m.linear(coefs, xs, c.name, value)

        def _post_function(self, f, z):
            """`f(...) == z` for a global function csp has."""
            m = self.csp_model
            name, args = f.name, f.args
            if name in ("min", "max"):
                (m.minimum if name == "min" else m.maximum)(self._vars(args), z)
            elif name == "abs":
                m.abs(self._var(args[0]), z)
            elif name in ("mul", "div", "mod", "pow"):
                op = "*" if name == "mul" else name
                m.arith(op, self._var(args[0]), self._var(args[1]), z)
            elif name == "element":
                arr, idx = args
                if all(is_num(a) for a in arr):
                    m.element_values(self._var(idx), [int(a) for a in arr], 0, z)
                else:
                    m.element(self._var(idx), self._vars(arr), 0, z)
            elif name == "count":
                arr, val = args
                m.count(self._vars(arr), self._var(val), z)
            elif name == "nvalue":
                m.nvalue(z, self._vars(args))
            elif name == "among":
                arr, vals = args
                if all(is_num(v) for v in vals):
                    m.among(z, self._vars(arr), [int(v) for v in vals])
                else:
                    self._post_decomposition(f == z)
            else:
                raise NotSupportedError(f"csp: global function not supported: {f}")

        def _post_decomposition(self, c):
            """Posts CPMpy's decomposition of `c`, its new variables kept out of the user's."""
            cons, defining = c.decompose()
            self._post_all(list(cons) + list(defining))

        def _post_global(self, g):
            m = self.csp_model
            name, args = g.name, g.args
            if name == "alldifferent":
                m.all_different(self._vars(args))
            elif name == "alldifferent_except_n":
                arr, n = args
                ns = n if is_any_list(n) else [n]
                if not all(is_num(v) for v in ns):
                    return self._post_decomposition(g)
                m.all_different_except(self._vars(arr), [int(v) for v in ns])
            elif name in ("table", "negative_table", "short_table"):
                arr, rows = args
                packed = _packed(rows, len(arr))
                if packed is not None:
                    m.table_packed(self._vars(arr), packed, name != "negative_table")
                    return
                rows = [[None if (isinstance(v, str) and v == STAR) else int(v) for v in row]
                        for row in rows]
                if not rows:
                    if name != "negative_table":
                        self._unsat = True
                    return
                m.table(self._vars(arr), rows, name != "negative_table")
            elif name == "xor":
                m.bool_xor([self._lit(a) for a in args], True)
            elif name == "circuit":
                m.circuit(self._vars(args), 0, False)
            elif name == "subcircuit":
                # CPMpy's XCSP3 reader's: the nodes not their own successor form one cycle,
                # or none does (csp's subcircuit, as MiniZinc's).
                m.circuit(self._vars(args), 0, True)
            elif name == "subcircuitwithstart":
                # The same, the node `start` on the cycle.
                succ, start = self._vars(args[:-1]), int(args[-1])
                m.circuit(succ, 0, True)
                m.compare_value(succ[start], "!=", start)
            elif name == "inverse":
                fwd, rev = args
                m.inverse(self._vars(fwd), 0, self._vars(rev), 0)
            elif name == "cumulative":
                if len(args) == 4:
                    start, dur, demand, cap = args
                    end = None
                else:
                    start, dur, end, demand, cap = args
                self._scheduling_basics(start, dur, end, demand)
                m.cumulative(self._vars(start), self._vars(dur), self._vars(demand), self._var(cap))
            elif name == "no_overlap":
                if len(args) == 2:
                    (start, dur), end = args, None
                else:
                    start, dur, end = args
                self._scheduling_basics(start, dur, end, [])
                if all(is_num(d) for d in dur):
                    # Not strict: a task of no duration occupies no time (CPMpy's semantics).
                    m.disjunctive(self._vars(start), [int(d) for d in dur], False)
                else:
                    one = self._constant(1)
                    m.cumulative(self._vars(start), self._vars(dur), [one] * len(start), one)
            elif name in ("cumulative_optional", "no_overlap_optional"):
                if name == "no_overlap_optional":
                    start, dur, *rest = args
                    end, present = rest if len(rest) == 2 else (None, rest[0])
                    demand, cap = [1] * len(start), 1
                else:
                    start, dur, *rest = args
                    end, demand, cap, present = rest if len(rest) == 4 else [None] + rest
                    if not is_any_list(demand):
                        demand = [demand] * len(start)
                # An absent task uses nothing: its usage is its demand when present, else 0.
                usages = []
                for p, r in zip(present, demand):
                    if is_num(p):
                        usages.append(self._var(r if p else 0))
                        continue
                    if is_num(r) and int(r) == 1:
                        usages.append(self._var(p))
                        continue
                    lb, ub = get_bounds(r)
                    u = intvar(min(0, int(lb)), max(0, int(ub)))
                    self._post_all([p.implies(u == r), (~p).implies(u == 0)])
                    usages.append(self._var(u))
                for i, p in enumerate(present):
                    conds = [dur[i] >= 0] + ([] if name == "no_overlap_optional" else [demand[i] >= 0])
                    if end is not None:
                        conds.append(start[i] + dur[i] == end[i])
                    self._post_all([p.implies(c) for c in conds])
                m.cumulative(self._vars(start), self._vars(dur), usages, self._var(cap))
                if end is not None and is_num(cap) and all(is_num(d) for d in dur) \
                        and all(is_num(r) for r in demand):
                    self._energy_bound(start, [int(d) for d in dur], end, present,
                                       [int(r) for r in demand], int(cap))
            elif name in ("regular", "mdd"):
                if name == "regular":
                    arr, transitions, start, accepting = args
                else:  # a layered diagram: from its root, n values lead to its sink
                    arr = args[0]
                    transitions = [(a, v, b) for a, out in g.mapping.items() for v, b in out.items()]
                    start, accepting = g.root_node, [g.sink_node]
                states = {}
                number = lambda q: states.setdefault(q, len(states))  # noqa: E731
                start = number(start)
                accepting = [number(q) for q in accepting]
                transitions = [(number(a), int(v), number(b)) for a, v, b in transitions]
                m.automaton(self._vars(arr), len(states), transitions, start, accepting)
            elif name in ("increasing", "decreasing", "strictly_increasing", "strictly_decreasing"):
                m.increasing(self._vars(args), name.startswith("strictly"), name.endswith("decreasing"))
            elif name in ("lex_less", "lex_lesseq"):
                xs, ys = args
                if len(xs) != len(ys):
                    return self._post_decomposition(g)
                m.lex(self._vars(xs), self._vars(ys), name == "lex_less")
            elif name == "gcc":
                arr, vals, occ = args
                if not all(is_num(v) for v in vals) or len(set(int(v) for v in vals)) != len(vals):
                    return self._post_decomposition(g)
                m.global_cardinality(self._vars(arr), [int(v) for v in vals], self._vars(occ),
                                     bool(getattr(g, "closed", False)))
            elif name == "precedence":
                arr, values = args
                m.value_precede_chain([int(v) for v in values], self._vars(arr))
            elif name == "indomain":
                expr, arr = args
                if len(arr) == 0:
                    self._unsat = True
                elif all(is_num(v) for v in arr):
                    m.member(self._var(expr), sorted(set(int(v) for v in arr)))
                else:
                    m.member_of(self._vars(arr), self._var(expr))
            else:
                raise NotSupportedError(f"csp: global constraint not supported: {g}")

        def _energy_bound(self, start, dur, end, present, demand, cap):
            """Implied, for optional tasks of constant sizes: the energy of the present ones
            fits between the earliest start and the latest end, `sum(d * r * present) <= cap
            * (max(end) - least start)`. Time-tabling sees a task only once it is present and
            placed; this bound rises as soon as tasks are given to the resource, as CP-SAT's
            energy relaxation of its intervals does. CPMpy's flexible job shop example: 0.3 s
            to its proved optimum, against 1.0 s without."""
            if not start or cap <= 0:
                return
            earliest = min(int(get_bounds(s)[0]) for s in start)
            lbs, ubs = zip(*(get_bounds(e) for e in end))
            latest = self._new_var(int(max(lbs)), int(max(ubs)))
            self.csp_model.maximum(self._vars(end), latest)
            # sum(coefs * xs) + fixed <= cap * latest - cap * earliest
            coefs, xs, fixed = [], [], 0
            for d, r, p in zip(dur, demand, present):
                energy = d * r
                if energy <= 0:
                    continue
                if is_num(p):
                    fixed += energy if p else 0
                    continue
                v, positive = self._lit(p)
                if positive:
                    coefs.append(energy)
                else:  # energy * (1 - v)
                    coefs.append(-energy)
                    fixed += energy
                xs.append(v)
            self.csp_model.linear(coefs + [-cap], xs + [latest], "<=", -cap * earliest - fixed)

        def _scheduling_basics(self, start, dur, end, demand):
            """What CPMpy's scheduling globals say besides: durations and demands are not
            negative, and each end is its start plus its duration."""
            for d in list(dur) + list(demand):
                self._post_all([d >= 0])
            if end is not None:
                self._post_all([s + d == e for s, d, e in zip(start, dur, end)])

        # -- solving ----------------------------------------------------------------------
        def _user_indices(self, first=True):
            """The user's variables and their csp variables, in creation order. `first`: all
            the others are marked introduced, so that dom/wdeg branches on them last; else
            every variable is the problem's alike."""
            users = list(self.user_vars)
            indices = [self._var(v) for v in users]
            order = sorted(range(len(users)), key=lambda i: indices[i])
            users, indices = [users[i] for i in order], [indices[i] for i in order]
            if first:
                self.csp_model.set_problem_vars(indices)
            else:
                self.csp_model.set_problem_vars(list(range(self.csp_model.var_count())))
            return users, indices

        def _assumed(self, lit):
            """An assumption (a Boolean variable or its negation) as `(variable, value)`."""
            v, positive = self._lit(lit)
            return (v, 1 if positive else 0)

        def get_core(self):
            """After an unsatisfiable `solve(assumptions=...)`: a subset of the assumptions
            that is unsatisfiable with the constraints, and minimal (each one left out in turn,
            kept when the rest become satisfiable)."""
            if self._assumptions is None or self.cpm_status.exitstatus != ExitStatus.UNSATISFIABLE:
                raise AssertionError("get_core: call solve(assumptions=...) and get UNSAT first")
            core = list(self._assumptions)
            i = 0
            while i < len(core):
                rest = core[:i] + core[i + 1:]
                if self._satisfiable_under(rest):
                    i += 1
                else:
                    core = rest
            return core

        def solution_hint(self, cpm_vars, vals):
            """A warm start, as OR-Tools' `solution_hint`: under learning (csp's default for
            `solve`), each decision on a hinted variable tries its hinted value first until a
            first solution is found. The hint need not satisfy anything; it changes the
            search's order, never its answers. A new hint replaces the last; an empty one
            clears it."""
            cpm_vars, vals = flatlist(cpm_vars), flatlist(vals)
            if len(cpm_vars) != len(vals):
                raise ValueError(f"csp: {len(cpm_vars)} variables hinted with {len(vals)} values")
            hint = []
            for v, value in zip(cpm_vars, vals):
                if value is None:
                    continue
                if isinstance(v, NegBoolView):
                    v, value = v._bv, not value
                hint.append((self.solver_var(v), int(value)))
            self._hint = hint or None

        def get_proof_files(self):
            """The proof and the model beside it, as the last solve wrote them."""
            if self._proof is None:
                raise ValueError("csp: no proof asked for (SolverLookup.get('csp', model, proof=FILE))")
            return [self._proof, os.path.splitext(self._proof)[0] + ".fzn"]

        def verify(self):
            """Checks the last solve's proof with Pumpkin's checker (`pumpkin-checker` on the
            PATH; `cargo install pumpkin-checker`): True when it accepts the proof. The
            checker's last line is kept in `verify_status`."""
            checker = shutil.which("pumpkin-checker")
            if checker is None:
                raise NotSupportedError("csp: verify() needs pumpkin-checker on the PATH "
                                        "(cargo install pumpkin-checker)")
            proof, fzn = self.get_proof_files()
            run = subprocess.run([checker, fzn, proof], capture_output=True, text=True)
            lines = (run.stdout + run.stderr).strip().splitlines()
            self.verify_status = lines[-1] if lines else ""
            return run.returncode == 0 and "valid" in self.verify_status.lower() \
                and "invalid" not in self.verify_status.lower()

        def _satisfiable_under(self, lits):
            search = _native.Search(self.csp_model, max_solutions=1,
                                    assume=[self._assumed(a) for a in lits])
            try:
                found = next(iter(search), None) is not None
            finally:
                search.close()
            return found

        def _search(self, time_limit, max_solutions, first=None, assume=None, optimise=True,
                    **kwargs):
            if time_limit is not None and time_limit < 0:
                raise ValueError(f"csp: time limit {time_limit} is negative")
            options = {k: kwargs.pop(k) for k in ("inference", "var_order", "value_order", "seed",
                                                    "threads", "node_limit", "lp") if k in kwargs}
            if kwargs:
                raise TypeError(f"csp: unknown solve arguments: {', '.join(sorted(kwargs))}")
            self._project()
            objective = None
            if optimise and self._objective_var is not None and max_solutions != 0:
                objective = (self._objective_var, self._objective_min)
            return _native.Search(self.csp_model, time_limit=time_limit, max_solutions=max_solutions,
                                  objective=objective, first=first, assume=assume, hint=self._hint,
                                  proof=self._proof, **options)

        def _project(self):
            """Before a search on constraints added since the last: the implied tables of
            small clusters around CPMpy's auxiliary variables (as `csp xcsp3` adds them), so
            that a relation CPMpy flattened into pieces (`d == abs(x - y)` into a sum and an
            abs) is also filtered whole. CPMpy's all_interval example at n = 14 (10 solutions)
            went from 1.05 s to 0.007 s, its npuzzle from 2.0 s to 0.6 s; its sport
            scheduling from 0.16 s to 0.33 s (810 tables, which slow the learning search)."""
            count = self.csp_model.constraint_count()
            if count > self._projected:
                self.csp_model.add_projections()
                self._projected = self.csp_model.constraint_count()

        def _load(self, users, indices, values):
            for v, i in zip(users, indices):
                value = values[i]
                v._value = bool(value) if isinstance(v, _BoolVarImpl) else value

        def _clear(self):
            for v in self.user_vars:
                v._value = None

        def solve(self, time_limit=None, display=None, assumptions=None, **kwargs):
            start = time.time()
            # One solution of a satisfaction problem: CPMpy's auxiliary variables (the
            # Booleans of its reified comparisons) are branched on as the user's are, which
            # found CSPLib's sport schedule in 0.06 s against 0.32 s (branching on them last);
            # an optimisation keeps the user's first (Golomb 8: 2.3 s against 6.3 s).
            users, indices = self._user_indices(first=self._objective_var is not None)
            assumed = None
            self._assumptions = None
            if assumptions is not None:
                self._assumptions = list(assumptions)
                assumed = [self._assumed(a) for a in self._assumptions]
            self.cpm_status = SolverStatus(self.name)
            self.objective_value_ = None
            if self._unsat:
                self.cpm_status.exitstatus = ExitStatus.UNSATISFIABLE
                self.cpm_status.solve_time = 0.0
                self.cpm_status.runtime = time.time() - start
                self._clear()
                return False
            search = self._search(time_limit, 1 if self._objective_var is None else None,
                                  assume=assumed, **kwargs)
            best = None
            try:
                for values in search:
                    best = values
                    if display is not None:
                        self._load(users, indices, values)
                        self._set_objective_value(values)
                        self.print_display(display)
            except KeyboardInterrupt:
                pass
            finally:
                search.close()
            outcome = json.loads(search.summary() or '{"outcome": "cancelled"}')["outcome"]
            if best is None:
                status = ExitStatus.UNSATISFIABLE if outcome == "exhausted" else ExitStatus.UNKNOWN
            elif self._objective_var is not None and outcome == "exhausted":
                status = ExitStatus.OPTIMAL
            else:
                status = ExitStatus.FEASIBLE
            self.cpm_status.exitstatus = status
            self.cpm_status.solve_time = time.time() - start
            self.cpm_status.runtime = self.cpm_status.solve_time
            if best is None:
                self._clear()
                return False
            self._load(users, indices, best)
            self._set_objective_value(best)
            return True

        def _set_objective_value(self, values):
            if self._objective_var is None:
                return
            value = self._objective_reached = values[self._objective_var]
            if self._float_scale is not None:
                # As CPMpy asks of a FloatSum: its value is FloatSum.value(); this one is
                # given only when whole.
                exact = value / self._float_scale + self.objective_.const
                value = int(exact) if float(exact).is_integer() else None
            self.objective_value_ = value

        def solveAll(self, display=None, time_limit=None, solution_limit=None, call_from_model=False,
                     **kwargs):
            start = time.time()
            assume, proved = None, True
            if self.has_objective():
                # Every optimal solution, as Choco's find_all_optimal_solutions: the optimum
                # first, then the solutions with the objective at it. Past the time limit,
                # those at the best value found, FEASIBLE.
                if not self.solve(time_limit=time_limit, **kwargs):
                    return 0
                proved = self.cpm_status.exitstatus == ExitStatus.OPTIMAL
                assume = [(self._objective_var, self._objective_reached)]
                if time_limit is not None:
                    time_limit = max(0.0, time_limit - (time.time() - start))
            users, indices = self._user_indices()
            self.cpm_status = SolverStatus(self.name)
            if self._unsat:
                self.cpm_status.exitstatus = ExitStatus.UNSATISFIABLE
                self.cpm_status.solve_time = self.cpm_status.runtime = 0.0
                self._clear()
                return 0
            # The user's variables are branched on first: the solutions that differ only in
            # auxiliary variables then come one after the other, and count once. dom/wdeg
            # does so by itself, as the others are marked introduced; another order (the
            # enumeration's default, the smallest domain first) is given them as a first
            # phase.
            own_order = kwargs.get("var_order") in ("dom-wdeg", "dom-deg")
            search = self._search(time_limit, None, first=None if own_order else indices,
                                  assume=assume, optimise=False, **kwargs)
            count, previous, last, limited = 0, None, None, False
            try:
                for values in search:
                    projected = [values[i] for i in indices]
                    if projected == previous:
                        continue
                    previous, last = projected, values
                    count += 1
                    if display is not None:
                        self._load(users, indices, values)
                        self.print_display(display)
                    if solution_limit is not None and count >= solution_limit:
                        limited = True
                        break
            except KeyboardInterrupt:
                pass
            finally:
                search.close()
            outcome = json.loads(search.summary() or '{"outcome": "cancelled"}')["outcome"]
            if count == 0 and assume is not None:
                # The time ran out before the first again: the optimum's own solution.
                self.cpm_status.solve_time = self.cpm_status.runtime = time.time() - start
                self.cpm_status.exitstatus = ExitStatus.FEASIBLE
                if display is not None:
                    self.print_display(display)
                return 1
            if count == 0:
                status = ExitStatus.UNSATISFIABLE if outcome == "exhausted" else ExitStatus.UNKNOWN
            # Cut at the limit, as CPMpy's interfaces report it, though a small search may
            # have run out while being stopped.
            elif outcome == "exhausted" and proved and not limited:
                status = ExitStatus.OPTIMAL
            else:
                status = ExitStatus.FEASIBLE
            self.cpm_status.exitstatus = status
            self.cpm_status.solve_time = time.time() - start
            self.cpm_status.runtime = self.cpm_status.solve_time
            if last is None:
                self._clear()
            else:
                self._load(users, indices, last)
            return count

    return CPM_csp


_CLASS = None


def solver_class():
    """CPMpy's solver class for csp (CPMpy must be installed)."""
    global _CLASS
    if _CLASS is None:
        _CLASS = _interface()
    return _CLASS


def register() -> None:
    """Makes csp one of CPMpy's solvers: `SolverLookup.get("csp")`, `model.solve("csp")`."""
    from cpmpy.solvers.utils import SolverLookup

    cls = solver_class()
    if getattr(SolverLookup, "_csp_registered", False):
        return
    original = SolverLookup.base_solvers.__func__

    def base_solvers(lookup):
        return list(original(lookup)) + [(NAME, cls)]

    SolverLookup.base_solvers = classmethod(base_solvers)
    SolverLookup._csp_registered = True
