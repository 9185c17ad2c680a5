"""csp as CPMpy's solver: known answers, CPMpy's own evaluation of every constraint, errors."""

import itertools
import time

import pytest

cp = pytest.importorskip("cpmpy")
from cpmpy.exceptions import NotSupportedError  # noqa: E402
from cpmpy.solvers.solver_interface import ExitStatus  # noqa: E402

import csp_solver.cpmpy  # noqa: E402

csp_solver.cpmpy.register()


def test_registered_by_name():
    assert "csp" in cp.SolverLookup.supported()
    assert isinstance(cp.SolverLookup.get("csp"), csp_solver.cpmpy.solver_class())


def test_send_more_money():
    s, e, n, d, m, o, r, y = letters = cp.intvar(0, 9, shape=8, name=list("SENDMORY"))
    model = cp.Model(cp.AllDifferent(letters), s > 0, m > 0,
                     cp.sum([1000, 100, 10, 1] * cp.cpm_array([s, e, n, d]))
                     + cp.sum([1000, 100, 10, 1] * cp.cpm_array([m, o, r, e]))
                     == cp.sum([10000, 1000, 100, 10, 1] * cp.cpm_array([m, o, n, e, y])))
    assert model.solveAll(solver="csp") == 1  # 9567 + 1085 = 10652, the only solution
    assert model.solve(solver="csp")
    assert list(letters.value()) == [9, 5, 6, 7, 1, 0, 8, 2]


def test_eight_queens_has_92_solutions_by_solve_all():
    q = cp.intvar(0, 7, shape=8, name="q")
    model = cp.Model(cp.AllDifferent(q), cp.AllDifferent([q[i] + i for i in range(8)]),
                     cp.AllDifferent([q[i] - i for i in range(8)]))
    seen = set()

    def record():
        assert all(c.value() for c in model.constraints)  # CPMpy's own evaluation
        seen.add(tuple(q.value()))

    assert model.solveAll(solver="csp", display=record) == 92  # OEIS A000170
    assert len(seen) == 92
    assert model.status().exitstatus == ExitStatus.OPTIMAL


def test_knapsack_optimum_matches_brute_force():
    weights = [12, 7, 11, 8, 9, 6, 5, 14, 3, 10]
    values = [24, 13, 23, 15, 16, 11, 9, 30, 4, 19]
    x = cp.boolvar(shape=len(weights), name="x")
    model = cp.Model(cp.sum(x * weights) <= 40, maximize=cp.sum(x * values))
    assert model.solve(solver="csp")
    best = max(sum(v for v, t in zip(values, take) if t)
               for take in itertools.product([0, 1], repeat=len(weights))
               if sum(w for w, t in zip(weights, take) if t) <= 40)
    assert model.objective_value() == best
    assert model.status().exitstatus == ExitStatus.OPTIMAL


def test_a_direct_knapsack_reaches_csp_natively_and_proves_the_brute_force_optimum():
    # CPMpy has no knapsack global; DirectConstraint calls csp's native `knapsack` (without
    # it the profit, bounded by nothing else, would reach 300).
    weights = [7, 9, 4, 11, 6, 8, 5, 10, 3, 12]
    profits = [10, 13, 5, 16, 9, 11, 7, 15, 4, 17]
    x = cp.intvar(0, 2, shape=len(weights), name="x")
    weight, profit = cp.intvar(0, 30, name="weight"), cp.intvar(0, 300, name="profit")
    direct = cp.DirectConstraint("knapsack", (weights, profits, list(x), weight, profit),
                                 novar=[0, 1])
    solver = cp.SolverLookup.get("csp")
    solver += direct
    solver.maximize(profit)
    assert solver.solve()
    brute = max(sum(p * k for p, k in zip(profits, t))
                for t in itertools.product(range(3), repeat=len(weights))
                if sum(w * k for w, k in zip(weights, t)) <= 30)
    assert solver.status().exitstatus == ExitStatus.OPTIMAL
    assert profit.value() == brute
    assert sum(w * v for w, v in zip(weights, x.value())) == weight.value() <= 30
    assert sum(p * v for p, v in zip(profits, x.value())) == profit.value()


def test_unsatisfiable_model():
    x = cp.intvar(1, 4, shape=5, name="x")
    model = cp.Model(cp.AllDifferent(x))
    assert model.solve(solver="csp") is False
    assert model.status().exitstatus == ExitStatus.UNSATISFIABLE
    assert x[0].value() is None


def test_globals_and_reification_against_brute_force():
    x = cp.intvar(0, 3, shape=4, name="x")
    b = cp.boolvar(name="b")
    model = cp.Model(b == (x[0] + x[1] > x[2]), cp.Element([3, 1, 0, 2], x[3]) != x[0],
                     cp.Count(x, 2) <= 1, b | (cp.max(x) == 3))
    brute = 0
    for v in itertools.product(range(4), repeat=4):
        bv = v[0] + v[1] > v[2]
        brute += [3, 1, 0, 2][v[3]] != v[0] and v.count(2) <= 1 and (bv or max(v) == 3)
    assert model.solveAll(solver="csp") == brute


def test_optional_tasks_are_counted_and_optimised_as_brute_force_does():
    # Every schedule of three optional tasks (their ends given: each end is its start plus
    # its duration when present, free when absent), against brute force over every value.
    start = cp.intvar(0, 3, shape=3, name="s")
    end = cp.intvar(0, 5, shape=3, name="e")
    present = cp.boolvar(shape=3, name="p")
    durations = [2, 1, 3]
    model = cp.Model(cp.NoOverlapOptional(start=start, duration=durations, end=end,
                                          is_present=present))

    def fits(s, e, p):
        if any(p[i] and s[i] + durations[i] != e[i] for i in range(3)):
            return False
        return all(s[i] + durations[i] <= s[k] or s[k] + durations[k] <= s[i]
                   for i in range(3) for k in range(i + 1, 3) if p[i] and p[k])

    brute = sum(fits(s, e, p) for s in itertools.product(range(4), repeat=3)
                for e in itertools.product(range(6), repeat=3)
                for p in itertools.product([0, 1], repeat=3))
    assert model.solveAll(solver="csp") == brute
    # A flexible job shop, each job on one of two machines, minimising 10 times the makespan
    # plus the energy: with no precedences the makespan is the larger machine load.
    times = [[3, 4], [2, 5], [4, 2], [3, 3], [5, 2]]
    energy = [[4, 2], [3, 6], [5, 2], [4, 4], [6, 1]]
    jobs = len(times)
    start = cp.intvar(0, 20, shape=jobs, name="start")
    end = cp.intvar(0, 20, shape=jobs, name="end")
    on = cp.boolvar(shape=(jobs, 2), name="on")
    model = cp.Model([cp.sum(on[j]) == 1 for j in range(jobs)])
    for m in range(2):
        model += cp.NoOverlapOptional(start=start, end=end, duration=[t[m] for t in times],
                                      is_present=on[:, m])
    cost = 10 * cp.max(end) + cp.sum(on[j, m] * energy[j][m] for j in range(jobs) for m in range(2))
    model.minimize(cost)
    assert model.solve(solver="csp")
    best = min(10 * max(sum(times[j][m] for j in range(jobs) if pick[j] == m) for m in range(2))
               + sum(energy[j][pick[j]] for j in range(jobs))
               for pick in itertools.product(range(2), repeat=jobs))
    assert model.objective_value() == best
    assert model.status().exitstatus == ExitStatus.OPTIMAL
    # The same machines as CumulativeOptional of capacity 2 and demands 1 and 2.
    start = cp.intvar(0, 2, shape=3, name="t")
    present = cp.boolvar(shape=3, name="q")
    model = cp.Model(cp.CumulativeOptional(start=start, duration=[2, 2, 1], end=None,
                                           demand=[1, 2, 1], capacity=2, is_present=present))
    brute = 0
    for s in itertools.product(range(3), repeat=3):
        for p in itertools.product([0, 1], repeat=3):
            brute += all(sum([1, 2, 1][i] for i in range(3)
                             if p[i] and s[i] <= t < s[i] + [2, 2, 1][i]) <= 2 for t in range(5))
    assert model.solveAll(solver="csp") == brute


def test_implications_under_either_polarity_and_reifications_against_brute_force():
    # b -> c and not b -> not c are posted as one b <-> c; a half alone, under a negated
    # literal too, stays a half; an implication of a Boolean under a negated one is a clause.
    x = cp.intvar(0, 3, shape=3, name="x")
    b = cp.boolvar(shape=4, name="b")
    model = cp.Model(b[0] == (x[0] == 2), (~b[1]).implies(x[1] > 1), b[2].implies(x[2] != 0),
                     (~b[3]).implies(b[0] | b[2]), (~b[0]).implies(~b[3]))
    brute = 0
    for xs in itertools.product(range(4), repeat=3):
        for bs in itertools.product([0, 1], repeat=4):
            brute += (bs[0] == (xs[0] == 2) and (bs[1] or xs[1] > 1) and (not bs[2] or xs[2] != 0)
                      and (bs[3] or bs[0] or bs[2]) and (bs[0] or not bs[3]))
    assert model.solveAll(solver="csp") == brute
    # Added one at a time, the two halves of a reification still make it whole.
    solver = cp.SolverLookup.get("csp")
    solver += b[0].implies(x[0] == 2)
    solver += (~b[0]).implies(x[0] != 2)
    assert solver.solveAll() == 4


def test_regular_and_mdd_are_posted_natively_and_count_as_brute_force_does():
    # A nondeterministic automaton over values -1, 0 and 2: words of length 5 that end
    # in "0 2" somewhere after a -1, with string-named states.
    x = cp.intvar(-1, 2, shape=5, name="x")
    transitions = [("s", -1, "s"), ("s", 0, "s"), ("s", 2, "s"), ("s", -1, "a"),
                   ("a", -1, "a"), ("a", 0, "a"), ("a", 2, "a"), ("a", 0, "b"), ("b", 2, "f"),
                   ("f", -1, "f"), ("f", 0, "f"), ("f", 2, "f")]
    regular = cp.Regular(x, transitions, "s", ["f"])
    solver = cp.SolverLookup.get("csp", cp.Model(regular))
    assert "regular" in solver.csp_model.constraint_name(solver.csp_model.constraint_count() - 1)

    def accepts(word):
        current = {"s"}
        for v in word:
            current = {b for a, w, b in transitions if a in current and w == v}
        return "f" in current

    brute = sum(accepts(w) for w in itertools.product(range(-1, 3), repeat=5))
    assert solver.solveAll() == brute
    # CPMpy's own MDD example: exactly [1,1,1], [2,2,1] and [2,3,2].
    y = cp.intvar(0, 3, shape=3, name="y")
    mdd = cp.MDD(y, [("A", 1, "B"), ("A", 2, "C"), ("B", 1, "D"), ("C", 2, "D"), ("C", 3, "E"),
                     ("D", 1, "F"), ("E", 2, "F")])
    seen = set()
    assert cp.Model(mdd).solveAll(solver="csp", display=lambda: seen.add(tuple(y.value()))) == 3
    assert seen == {(1, 1, 1), (2, 2, 1), (2, 3, 2)}


def test_solution_limit_and_incremental_solving():
    x = cp.intvar(0, 9, shape=3, name="x")
    s = cp.SolverLookup.get("csp", cp.Model(cp.AllDifferent(x)))
    assert s.solveAll(solution_limit=7) == 7
    assert s.status().exitstatus == ExitStatus.FEASIBLE
    s += x[0] >= 5
    assert s.solve() and x[0].value() >= 5
    s += x[0] >= 9
    assert s.solve() and x[0].value() == 9
    s += x[1] + x[2] >= 18  # 9 and 9, or more: not with x[0] = 9 beside them
    assert not s.solve()
    assert s.status().exitstatus == ExitStatus.UNSATISFIABLE


def test_solve_all_with_an_objective_gives_every_optimal_solution_as_brute_force_does():
    x = cp.intvar(0, 3, shape=4, name="x")
    model = cp.Model(cp.sum(x) >= 5, x[0] != x[1], minimize=x[0] + x[1] + x[2])
    seen = set()
    count = model.solveAll(solver="csp", display=lambda: seen.add(tuple(x.value())))
    feasible = [v for v in itertools.product(range(4), repeat=4) if sum(v) >= 5 and v[0] != v[1]]
    best = min(a + b + c for a, b, c, _ in feasible)
    expected = {v for v in feasible if v[0] + v[1] + v[2] == best}
    assert count == len(expected) > 1 and seen == expected
    assert model.status().exitstatus == ExitStatus.OPTIMAL
    # Maximised, with a solution limit: that many, not proved all.
    model = cp.Model(cp.sum(x) <= 5, maximize=cp.sum(x))
    assert model.solveAll(solver="csp", solution_limit=3) == 3
    assert model.status().exitstatus == ExitStatus.FEASIBLE


def test_a_float_sum_objective_is_optimised_exactly_as_brute_force_does():
    # CPMpy's own FloatSum tests (x, y, z with 0.3, 0.5, 0.6, negated literals among them),
    # which CPMpy runs for a fixed list of solvers, and a knapsack with decimal values.
    x, y, z = cp.boolvar(shape=3, name=tuple("xyz"))
    fs = cp.FloatSum([0.3, 0.5, 0.6], [~x, y, ~z], const=1)
    s = cp.SolverLookup.get("csp")
    s.maximize(fs)
    assert s.solve()
    assert (x.value(), y.value(), z.value()) == (False, True, False)
    assert fs.value() == pytest.approx(2.4) and s.objective_value() is None
    assert len(s.user_vars) == 3
    weights, values = [4, 3, 5, 2, 6], [1.25, 0.8, 2.05, 0.3, 1.9]
    take = cp.boolvar(shape=5, name="take")
    s = cp.SolverLookup.get("csp", cp.Model(cp.sum(take * weights) <= 10))
    s.maximize(cp.FloatSum(values, list(take), const=-0.5))
    assert s.solve() and s.status().exitstatus == ExitStatus.OPTIMAL
    best = max(sum(v for v, t in zip(values, pick) if t) - 0.5
               for pick in itertools.product([0, 1], repeat=5)
               if sum(w for w, t in zip(weights, pick) if t) <= 10)
    assert cp.FloatSum(values, list(take), const=-0.5).value() == pytest.approx(best)


def test_assumptions_and_core():
    x, y, z = cp.boolvar(shape=3, name=["x", "y", "z"])
    s = cp.SolverLookup.get("csp")
    s += [x | y, ~x | z, y | ~z]
    assert not s.solve(assumptions=[~x, ~y])
    core = s.get_core()
    assert ~y in core
    assert cp.Model([x | y, ~x | z, y | ~z] + core).solve(solver="csp") is False


def test_errors_are_cpmpy_errors():
    big = cp.intvar(0, 2 ** 40, name="big")
    with pytest.raises(NotSupportedError, match="32-bit"):
        cp.Model(big >= 3).solve(solver="csp")
    with pytest.raises(NotSupportedError, match="decimals"):
        s = cp.SolverLookup.get("csp")
        s.maximize(cp.FloatSum([1 / 3], [cp.boolvar()], const=0))
    x = cp.intvar(0, 3, name="x")
    with pytest.raises(ValueError):
        cp.Model(x >= 1).solve(solver="csp", time_limit=-1)
    with pytest.raises(TypeError, match="no_such_option"):
        cp.Model(x >= 1).solve(solver="csp", no_such_option=3)


def test_time_limit():
    p = cp.intvar(1, 11, shape=12, name="p")
    model = cp.Model([p[i] != p[j] for i in range(12) for j in range(i + 1, 12)])
    started = time.perf_counter()
    assert model.solve(solver="csp", time_limit=0.3, inference="none", var_order="input") is False
    assert model.status().exitstatus == ExitStatus.UNKNOWN
    assert time.perf_counter() - started < 30  # catches a hang only


def test_a_solution_hint_is_followed_and_changes_no_answer():
    q = cp.intvar(0, 7, shape=8, name="q")
    model = cp.Model(cp.AllDifferent(q), cp.AllDifferent([q[i] + i for i in range(8)]),
                     cp.AllDifferent([q[i] - i for i in range(8)]))
    s = cp.SolverLookup.get("csp", model)
    # One of 8-queens' 92 boards, not the first the search meets without a hint.
    board = [7, 1, 3, 0, 6, 4, 2, 5]
    assert s.solve(inference="lcg", threads=1)
    unhinted = list(q.value())
    assert unhinted != board
    s.solution_hint(q, board)
    assert s.solve(inference="lcg", threads=1)
    assert list(q.value()) == board
    # A hint that is no solution at all still leads to a solution.
    s.solution_hint(q, [0] * 8)
    assert s.solve(inference="lcg", threads=1)
    assert all(c.value() for c in model.constraints)
    # Under an objective the optimum is the same, hinted or not.
    weights, values = [12, 7, 11, 8, 9, 6, 5, 14, 3, 10], [24, 13, 23, 15, 16, 11, 9, 30, 4, 19]
    x = cp.boolvar(shape=len(weights), name="x")
    knapsack = cp.Model(cp.sum(x * weights) <= 40, maximize=cp.sum(x * values))
    plain = cp.SolverLookup.get("csp", knapsack)
    assert plain.solve()
    hinted = cp.SolverLookup.get("csp", knapsack)
    hinted.solution_hint(x, [1] * len(weights))
    assert hinted.solve()
    assert hinted.objective_value() == plain.objective_value()
    assert hinted.status().exitstatus == ExitStatus.OPTIMAL


def test_all_interval_series_counted_with_each_difference_a_table_match_brute_force():
    # d[i] = |x[i+1] - x[i]| would reach csp as a sum and an abs around a new variable; it
    # is posted as the table of its solutions on (x[i], x[i+1], d[i]) instead.
    n = 7
    x = cp.intvar(1, n, shape=n, name="x")
    d = cp.intvar(1, n - 1, shape=n - 1, name="d")
    model = cp.Model(cp.AllDifferent(x), cp.AllDifferent(d),
                     [d[i] == abs(x[i + 1] - x[i]) for i in range(n - 1)])
    s = cp.SolverLookup.get("csp", model)
    names = [s.native_model.constraint_name(c) for c in range(s.native_model.constraint_count())]
    assert sum(name.startswith("table(") for name in names) == n - 1
    assert s.native_model.var_count() == 2 * n - 1  # no variable of CPMpy's pieces
    brute = sum(1 for p in itertools.permutations(range(1, n + 1))
                if len({abs(p[i + 1] - p[i]) for i in range(n - 1)}) == n - 1)
    assert s.solveAll() == brute


def test_small_nonlinear_constraints_and_objective_terms_as_tables_against_brute_force():
    # Divisions by a variable that may be 0, remainders of negative numbers, products,
    # nested Boolean structure and an objective of such terms: each small one is posted
    # as a table of what CPMpy's pieces allow, which must be what CPMpy's own evaluation
    # (its relational semantics: a comparison with an undefined side is false) accepts.
    x = cp.intvar(-3, 3, name="x")
    y = cp.intvar(-2, 2, name="y")
    z = cp.intvar(0, 4, name="z")
    b = cp.boolvar(name="b")
    # The fourth is the first with x and y swapped: alike but for its variables' domains,
    # so listed apart.
    constraints = [(x // y == z) | (x % 3 == 1), b == (abs(x - y) * z <= 4),
                   (z % 2 == 0).implies(cp.min([x, y]) < 0) | (x * y == z),
                   (y // x == z) | (y % 3 == 1)]
    terms = [(x == y) | (x // 2 != z), abs(y - z) * 3, cp.max([x, z]) % 3]
    model = cp.Model(constraints)
    s = cp.SolverLookup.get("csp", model)
    names = [s.native_model.constraint_name(c) for c in range(s.native_model.constraint_count())]
    assert sum(name.startswith("table(") for name in names) == len(constraints)
    scope = [x, y, z, b]

    def assign(values):
        for v, value in zip(scope, values):
            v._value = value

    combinations = list(itertools.product(range(-3, 4), range(-2, 3), range(5), [False, True]))
    accepted = []
    for values in combinations:
        assign(values)
        if all(c.value() for c in constraints):
            accepted.append(values)
    assert accepted and len(accepted) < len(combinations)
    assert s.solveAll() == len(accepted)
    best = None
    for values in accepted:
        assign(values)
        cost = sum(int(t.value()) for t in terms)
        best = cost if best is None else min(best, cost)
    model.minimize(cp.sum(terms))
    s = cp.SolverLookup.get("csp", model)
    names = [s.native_model.constraint_name(c) for c in range(s.native_model.constraint_count())]
    assert sum(name.startswith("table(") for name in names) == len(constraints) + len(terms)
    assert s.solve()
    assert s.objective_value() == best
    assert s.status().exitstatus == ExitStatus.OPTIMAL


def test_tables_given_as_arrays_count_as_brute_force_does():
    # Rows as numpy arrays go to csp packed (and alike arrays share one index); rows with
    # a wildcard, as lists; pairs have their own propagator. Each count against brute force.
    import numpy as np
    x = cp.intvar(0, 3, shape=3, name="x")
    y = cp.intvar(0, 3, shape=3, name="y")
    rows = np.array([[0, 1, 2], [1, 2, 3], [2, 2, 2], [3, 0, 1], [1, 1, 0]])
    pairs = np.array([[0, 3], [3, 0], [1, 1], [2, 3]])
    banned = np.array([[0, 0, 0], [1, 1, 1], [2, 2, 2]])
    model = cp.Model(cp.Table(x, rows), cp.Table(y, rows.copy()), cp.Table([x[0], y[0]], pairs),
                     cp.NegativeTable([x[2], y[2], x[1]], banned),
                     cp.ShortTable([x[1], y[1], y[2]], [[1, "*", 0], [2, 2, "*"], ["*", 3, 1]]))
    row_set = {tuple(r) for r in rows.tolist()}
    brute = 0
    for xs in itertools.product(range(4), repeat=3):
        for ys in itertools.product(range(4), repeat=3):
            brute += (xs in row_set and ys in row_set and [xs[0], ys[0]] in pairs.tolist()
                      and [xs[2], ys[2], xs[1]] not in banned.tolist()
                      and ((xs[1], ys[2]) == (1, 0) or (xs[1], ys[1]) == (2, 2)
                           or (ys[1], ys[2]) == (3, 1)))
    assert brute > 0
    assert model.solveAll(solver="csp") == brute


def test_subcircuits_of_the_xcsp3_reader_count_as_cpmpy_evaluates_them():
    # CPMpy's XCSP3 reader's SubCircuit and SubCircuitWithStart are posted as csp's
    # subcircuit; every assignment of 5 successors is judged by CPMpy's own value().
    from cpmpy.tools.xcsp3.globals import SubCircuit, SubCircuitWithStart
    n = 5
    succ = cp.intvar(0, n - 1, shape=n, name="succ")
    for constraint in (SubCircuit(succ), SubCircuitWithStart(succ, start_index=2)):
        s = cp.SolverLookup.get("csp", cp.Model(constraint))
        names = [s.native_model.constraint_name(c)
                 for c in range(s.native_model.constraint_count())]
        assert any("circuit" in name for name in names), names
        brute = 0
        for values in itertools.product(range(n), repeat=n):
            for v, value in zip(succ, values):
                v._value = value
            brute += bool(constraint.value())
        assert s.solveAll() == brute


def test_a_proof_of_unsatisfiability_is_written_and_checked_by_pumpkins_checker(tmp_path):
    # CPMpy's own test_prooflogging model: four variables over 1..3, pairwise different.
    a, b, c, d = cp.intvar(1, 3, shape=4, name=list("abcd"))
    model = cp.Model(a != b, a != c, a != d, b != c, b != d, c != d)
    proof = tmp_path / "four.drcp"
    s = cp.SolverLookup.get("csp", model, proof=str(proof))
    assert s.solve() is False
    assert s.status().exitstatus == ExitStatus.UNSATISFIABLE
    files = s.get_proof_files()
    assert files == [str(proof), str(tmp_path / "four.fzn")]
    for file in files:
        assert (tmp_path / file).read_text().strip(), f"{file} is empty"
    import shutil
    if shutil.which("pumpkin-checker") is None:
        # The checker is a peer (.ci/run builds it into target/tools/bin, which the CLI's
        # Python test puts on the PATH); without it verify() says what it needs.
        with pytest.raises(NotSupportedError, match="pumpkin-checker"):
            s.verify()
    else:
        assert s.verify() is True, s.verify_status
    # A model the checker cannot read is refused up front, naming the constraint.
    x = cp.intvar(0, 5, shape=2, name="x")
    times = cp.Model(x[0] * x[1] == 7)
    with pytest.raises(Exception, match="proof"):
        cp.SolverLookup.get("csp", times, proof=str(tmp_path / "times.drcp")).solve()
