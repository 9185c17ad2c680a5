"""The modelling API: answers checked against brute force and published values."""

import itertools
import os
import signal
import threading
import time

import pytest

import csp_solver as cs
from csp_solver import Model, ModelError, Status


def queens(n):
    m = Model()
    q = m.int_vars(n, 0, n - 1, "q")
    m.all_different(q)
    m.all_different([q[i] + i for i in range(n)])
    m.all_different([q[i] - i for i in range(n)])
    return m, q


# OEIS A000170: the number of ways to place n non-attacking queens on an n x n board.
A000170 = {1: 1, 2: 0, 3: 0, 4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352}


@pytest.mark.parametrize("n", sorted(A000170))
def test_queens_counts_match_oeis(n):
    m, _ = queens(n)
    assert sum(1 for _ in m.solutions()) == A000170[n]


def test_every_solution_streamed_is_distinct_and_valid():
    m, q = queens(6)
    seen = set()
    for s in m.solutions():
        cols = tuple(s[q])
        assert len(set(cols)) == 6
        assert all(abs(cols[i] - cols[j]) != j - i for i in range(6) for j in range(i + 1, 6))
        seen.add(cols)
    assert len(seen) == A000170[6]


def test_send_more_money_has_its_one_published_solution():
    # 9567 + 1085 = 10652 (Dudeney, 1924), the only solution.
    m = Model()
    S, E, N, D, M, O, R, Y = (m.int_var(0, 9, c) for c in "SENDMORY")
    m.all_different([S, E, N, D, M, O, R, Y])
    m.add([S >= 1, M >= 1])
    m.add(1000 * S + 100 * E + 10 * N + D + 1000 * M + 100 * O + 10 * R + E
          == 10000 * M + 1000 * O + 100 * N + 10 * E + Y)
    found = [s[[S, E, N, D, M, O, R, Y]] for s in m.solutions()]
    assert found == [[9, 5, 6, 7, 1, 0, 8, 2]]


def knapsack_by_brute_force(weights, values, capacity):
    best = 0
    for take in itertools.product([0, 1], repeat=len(weights)):
        if sum(t * w for t, w in zip(take, weights)) <= capacity:
            best = max(best, sum(t * v for t, v in zip(take, values)))
    return best


@pytest.mark.parametrize("inference", [None, "mac", "fc"])
def test_knapsack_optimum_matches_brute_force(inference):
    weights = [12, 7, 11, 8, 9, 6, 5, 14, 3, 10]
    values = [24, 13, 23, 15, 16, 11, 9, 30, 4, 19]
    capacity = 40
    m = Model()
    take = [m.bool_var(f"t{i}") for i in range(len(weights))]
    m.add(sum(w * t for w, t in zip(weights, take)) <= capacity)
    m.maximize(sum(v * t for v, t in zip(values, take)))
    r = m.solve(inference=inference)
    assert r.status is Status.OPTIMAL
    assert r.objective == knapsack_by_brute_force(weights, values, capacity)
    assert sum(w * r[t] for w, t in zip(weights, take)) <= capacity


@pytest.mark.parametrize("inference", [None, "mac", "lcg"])
def test_the_knapsack_global_proves_the_brute_force_optimum_of_bounded_quantities(inference):
    # Up to two copies of each item within weight 30: the most profit, and the least weight
    # that earns 40, both against every assignment.
    weights = [7, 9, 4, 11, 6, 8, 5, 10, 3, 12]
    profits = [10, 13, 5, 16, 9, 11, 7, 15, 4, 17]
    every = [(sum(w * k for w, k in zip(weights, x)), sum(p * k for p, k in zip(profits, x)))
             for x in itertools.product(range(3), repeat=len(weights))]
    for objective, limit, brute in [
        ("max profit", 30, max(p for w, p in every if w <= 30)),
        ("min weight", 40, min(w for w, p in every if p >= 40)),
    ]:
        m = Model()
        xs = m.int_vars(len(weights), 0, 2, "x")
        weight, profit = m.int_var(0, 200, "weight"), m.int_var(0, 300, "profit")
        m.knapsack(weights, profits, xs, weight, profit)
        if objective == "max profit":
            m.add(weight <= limit)
            m.maximize(profit)
        else:
            m.add(profit >= limit)
            m.minimize(weight)
        r = m.solve(inference=inference)
        assert r.status is Status.OPTIMAL, objective
        assert r.objective == brute, objective
        assert sum(w * r[x] for w, x in zip(weights, xs)) == r[weight]
        assert sum(p * r[x] for p, x in zip(profits, xs)) == r[profit]


def test_knapsack_counts_its_brute_force_solutions_and_rules_out_negative_quantities():
    m = Model()
    xs = m.int_vars(3, -1, 2, "x")
    weight, profit = m.int_var(0, 6, "weight"), m.int_var(2, 9, "profit")
    m.knapsack([2, 3, 1], [3, 1, 2], xs, weight, profit)
    brute = sum(1 for x in itertools.product(range(-1, 3), repeat=3)
                if min(x) >= 0 and 2 * x[0] + 3 * x[1] + x[2] <= 6
                and 2 <= 3 * x[0] + x[1] + 2 * x[2] <= 9)
    assert sum(1 for _ in m.solutions()) == brute


def test_a_negative_weight_or_unequal_lists_make_knapsack_a_model_error():
    m = Model()
    xs = m.int_vars(2, 0, 1, "x")
    weight, profit = m.int_var(0, 9, "weight"), m.int_var(0, 9, "profit")
    with pytest.raises(ModelError, match="knapsack"):
        m.knapsack([1, -2], [1, 1], xs, weight, profit)
    with pytest.raises(ModelError, match="knapsack"):
        m.knapsack([1], [1, 1], xs, weight, profit)


def test_pigeonhole_is_proved_unsatisfiable():
    m = Model()
    holes = m.int_vars(5, 1, 4, "pigeon")
    m.all_different(holes)
    r = m.solve()
    assert r.status is Status.UNSATISFIABLE
    assert not r
    with pytest.raises(LookupError):
        r[holes[0]]


def test_reification_counts_match_brute_force():
    m = Model()
    x = m.int_vars(3, 0, 3, "x")
    b = m.bool_var("b")
    m.reify(b, x[0] + x[1] <= x[2])
    m.add(b == 1)
    brute = sum(1 for v in itertools.product(range(4), repeat=3) if v[0] + v[1] <= v[2])
    assert sum(1 for _ in m.solutions()) == brute


def test_globals_agree_with_brute_force():
    m = Model()
    x = m.int_vars(4, 0, 3, "x")
    m.element([3, 1, 0, 2], x[0], x[1])
    m.maximum(x[1:3], x[3])
    m.table([x[0], x[2]], [(0, 1), (1, 2), (2, None), (3, 3)])
    brute = 0
    for v in itertools.product(range(4), repeat=4):
        ok = [3, 1, 0, 2][v[0]] == v[1] and max(v[1], v[2]) == v[3]
        ok = ok and (v[0], v[2]) in {(0, 1), (1, 2), (3, 3)} | {(2, k) for k in range(4)}
        brute += ok
    assert sum(1 for _ in m.solutions()) == brute


def test_every_inference_and_order_gives_the_same_count():
    for inference in ["none", "fc", "mac", "lcg"]:
        # Learning branches on its own activity order: it takes no var_order.
        orders = [None] if inference == "lcg" else ["input", "mrv", "dom-wdeg"]
        for var_order in orders:
            m, _ = queens(7)
            options = {} if var_order is None else {"var_order": var_order}
            n = sum(1 for _ in m.solutions(inference=inference, **options))
            assert n == A000170[7], (inference, var_order)


def test_an_order_learning_would_not_follow_is_refused_as_the_command_line_refuses_it():
    m, _ = queens(5)
    with pytest.raises(ModelError, match="var_order does not apply to inference lcg"):
        m.solve(inference="lcg", var_order="mrv")


def test_threads_find_the_same_optimum():
    m, q = queens(8)
    m.minimize(q[0] + 2 * q[7])
    one, four = m.solve(), m.solve(threads=4)
    assert one.status is four.status is Status.OPTIMAL
    assert one.objective == four.objective == min(
        s[q[0]] + 2 * s[q[7]] for s in queens_solutions(8))


def queens_solutions(n):
    m, q = queens(n)
    return [s for s in m.solutions()]


def test_solutions_limit_and_statistics():
    m, _ = queens(8)
    assert len(list(m.solutions(limit=5))) == 5
    r = m.solve()
    assert r.stats["solutions"] == 1 and r.stats["nodes"] >= 1
    assert r.runtime >= 0


def test_on_solution_sees_each_improvement():
    m, q = queens(8)
    m.maximize(sum(i * q[i] for i in range(8)))
    seen = []
    r = m.solve(on_solution=lambda s: seen.append(sum(i * s[q[i]] for i in range(8))))
    assert seen == sorted(seen) and len(set(seen)) == len(seen)
    assert seen[-1] == r.objective


def hard_model():
    # 12 pigeons in 11 holes under plain backtracking: far more than a second of search.
    m = Model()
    p = m.int_vars(12, 1, 11, "p")
    for i in range(12):
        for j in range(i + 1, 12):
            m.add(p[i] != p[j])
    return m


def test_time_limit_stops_the_search_with_unknown():
    started = time.perf_counter()
    r = hard_model().solve(time_limit=0.3, inference="none", var_order="input")
    elapsed = time.perf_counter() - started
    assert r.status is Status.UNKNOWN
    assert elapsed < 30  # only catches a hang: the limit itself is 0.3 s


@pytest.mark.skipif(os.name != "posix", reason="SIGINT from a timer thread")
def test_ctrl_c_stops_a_solve_and_returns_what_was_found():
    m = hard_model()
    # Python's own Ctrl-C handler, whatever this process inherited (a shell's background job
    # starts with SIGINT ignored, and Python then installs none).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        started = time.perf_counter()
        r = m.solve(inference="none", var_order="input", time_limit=120)
        elapsed = time.perf_counter() - started
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert r.interrupted
    assert r.status is Status.UNKNOWN
    assert elapsed < 60  # the interrupt, not the safety limit, ended it


def test_bad_input_raises_model_error_with_the_engine_message():
    m = Model()
    with pytest.raises(ModelError, match="empty"):
        m.int_var(5, 3)
    with pytest.raises(ModelError, match="32-bit"):
        m.int_var(0, 2 ** 40)
    x = m.int_var(0, 3, "x")
    other = Model().int_var(0, 3, "y")
    with pytest.raises(ModelError, match="another model"):
        m.add(x + other == 2)
    with pytest.raises(ModelError, match="unknown relation"):
        cs._native.Model().linear([1], [0], "=<", 3)
    with pytest.raises(ModelError):
        m.solve(time_limit=-1)
    with pytest.raises(ModelError, match="inference"):
        m.solve(inference="magic")
    with pytest.raises(TypeError):
        m.add(x * x == 4)
    with pytest.raises(TypeError):
        if x == 3:
            pass


def test_the_model_takes_constraints_between_solves():
    m = Model()
    x = m.int_var(0, 9, "x")
    m.add(x >= 3)
    assert m.solve()[x] == 3
    m.add(x != 3)
    assert m.solve()[x] == 4
    for s in m.solutions(limit=1):
        break
    m.add(x >= 8)  # the iterator above was closed when the loop left it
    assert m.solve()[x] == 8


def test_a_hint_is_followed_and_a_proof_is_written_for_the_checker(tmp_path):
    m = Model()
    xs = m.int_vars(4, 0, 3, "x")
    m.all_different(xs)
    first = m.solve(inference="lcg", threads=1)
    hint = [3, 2, 1, 0]
    assert [first[x] for x in xs] != hint
    hinted = m.solve(inference="lcg", threads=1, hint=list(zip(xs, hint)))
    assert [hinted[x] for x in xs] == hint
    # Five pigeons, four holes: no solution, and a proof of it.
    p = Model()
    pigeons = p.int_vars(5, 0, 3, "pigeon")
    p.all_different(pigeons)
    proof = tmp_path / "pigeons.drcp"
    r = p.solve(proof=str(proof))
    assert r.status == Status.UNSATISFIABLE
    fzn = tmp_path / "pigeons.fzn"
    assert proof.read_text().strip() and fzn.read_text().strip()
    import shutil
    import subprocess
    checker = shutil.which("pumpkin-checker")
    if checker is not None:  # .ci/run builds it; the CLI's Python test puts it on the PATH
        run = subprocess.run([checker, str(fzn), str(proof)], capture_output=True, text=True)
        assert run.returncode == 0 and "Proof is valid" in run.stdout + run.stderr, run.stdout
    # A proof needs learning.
    with pytest.raises(ModelError, match="proof"):
        p.solve(proof=str(tmp_path / "mac.drcp"), inference="mac")
