"""csp_solver.distributed on a Dask LocalCluster of two worker processes on 127.0.0.1: split,
search and merge give the sequential answers (OEIS A000170, OEIS A107739, ACE's counts and
optima, brute force), and a worker killed mid-run leaves the count exact."""

import csv
import itertools
import os
import signal

import pytest

distributed_dask = pytest.importorskip("distributed")

from csp_solver import Model, distributed  # noqa: E402

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "..")
XCSP3 = os.path.join(ROOT, "crates", "xcsp3", "tests", "data")
FZN = os.path.join(ROOT, "crates", "cli", "tests", "data", "fzn")


def a000170():
    """OEIS A000170, as copied into tests/data."""
    with open(os.path.join(ROOT, "tests", "data", "nqueens_oeis_counts.csv")) as f:
        return {int(row["n"]): int(row["all_solutions_A000170"]) for row in csv.DictReader(f)}


def expected(name, kind):
    """ACE's answer for an XCSP3 instance copied into crates/xcsp3/tests/data."""
    table = "expected_counts.csv" if kind == "csp" else "expected_optima.csv"
    with open(os.path.join(XCSP3, table)) as f:
        for line in f:
            path, value = line.strip().rsplit(",", 1)
            if path == f"{kind}/{name}.xml":
                return int(value)
    raise KeyError(name)


def start_cluster():
    cluster = distributed_dask.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                            host="127.0.0.1", dashboard_address=":0")
    return cluster, distributed_dask.Client(cluster)


@pytest.fixture(scope="module")
def client():
    cluster, client = start_cluster()
    yield client
    client.close()
    cluster.close()


def queens(n):
    m = Model()
    q = m.int_vars(n, 0, n - 1, "q")
    m.all_different(q)
    m.all_different([q[i] + i for i in range(n)])
    m.all_different([q[i] - i for i in range(n)])
    return m


def test_queens_counts_match_a000170_up_to_12(client):
    counts = a000170()
    for n in range(1, 13):
        result = distributed.count(queens(n), client, cubes=24)
        assert result.complete, (n, result)
        assert result.count == counts[n], n


def queens_fzn(n, folder):
    """N-Queens in FlatZinc, as MiniZinc flattens it: `!=` on columns and both diagonals."""
    lines = [f"var 1..{n}: q{i} :: output_var;" for i in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            lines += [f"constraint int_ne(q{i}, q{j});",
                      f"constraint int_lin_ne([1, -1], [q{i}, q{j}], {j - i});",
                      f"constraint int_lin_ne([1, -1], [q{i}, q{j}], -{j - i});"]
    path = os.path.join(folder, f"queens{n}.fzn")
    with open(path, "w") as f:
        f.write("\n".join(lines + ["solve satisfy;"]) + "\n")
    return path


def test_flatzinc_counts_match_a000170(client, tmp_path):
    counts = a000170()
    for n in (4, 7, 9, 10):
        result = distributed.count(queens_fzn(n, str(tmp_path)), client, cubes=12)
        assert (result.count, result.complete) == (counts[n], True), n


def test_four_by_four_sudoku_grids_number_288():
    # OEIS A107739: 288 Sudoku grids of order 2 (4 x 4). Through a scheduler's address and a
    # cluster of its own, as a user on a cluster would give them.
    cluster, client = start_cluster()
    try:
        m = Model()
        g = [[m.int_var(1, 4, f"c{r}{c}") for c in range(4)] for r in range(4)]
        for i in range(4):
            m.all_different(g[i])
            m.all_different([g[r][i] for r in range(4)])
            br, bc = 2 * (i // 2), 2 * (i % 2)
            m.all_different([g[br + r][bc + c] for r in range(2) for c in range(2)])
        result = distributed.count(m, cluster.scheduler_address, cubes=20)
        assert (result.count, result.complete) == (288, True)
    finally:
        client.close()
        cluster.close()


@pytest.mark.parametrize("name", ["Zebra", "AllInterval-10", "MagicSequence-10"])
def test_xcsp3_counts_equal_aces(client, name):
    result = distributed.count(os.path.join(XCSP3, f"{name}.xml.lzma"), client, cubes=16)
    assert result.complete
    assert result.count == expected(name, "csp")


@pytest.mark.parametrize("name", ["Recipe", "Knapsack-Knapsack_20-50-00", "GolombRuler-8"])
def test_xcsp3_optima_equal_aces(client, name):
    result = distributed.optimize(os.path.join(XCSP3, f"{name}.xml.lzma"), client, cubes=16)
    assert result.complete, result
    assert result.objective == expected(name, "cop")
    assert result.answer == f"optimum {result.objective}"


def test_flatzinc_optimum_solution_and_unsatisfiable(client):
    # The knapsack's optimum, 15, checked by brute force over its 32 choices.
    weights, values = [12, 2, 1, 4, 1], [4, 2, 1, 10, 2]
    best = max(sum(v for v, t in zip(values, take) if t)
               for take in itertools.product([0, 1], repeat=5)
               if sum(w for w, t in zip(weights, take) if t) <= 15)
    result = distributed.optimize(os.path.join(FZN, "knapsack.fzn"), client, cubes=8)
    assert (result.objective, result.complete) == (best, True)
    assert f"value = {best};" in result.solution
    found = distributed.solve(os.path.join(FZN, "order.fzn"), client)
    assert found.complete and found.count >= 1 and "----------" not in found.solution
    refuted = distributed.solve(os.path.join(FZN, "unsat.fzn"), client)
    assert refuted.unsatisfiable and refuted.answer == "unsatisfiable", refuted
    m = Model()
    pigeons = m.int_vars(6, 1, 5, "p")
    for a, b in itertools.combinations(pigeons, 2):
        m.add(a != b)
    refuted = distributed.count(m, client, cubes=30)
    assert (refuted.count, refuted.complete, refuted.answer) == (0, True, "count 0 (complete)")


def test_a_model_optimum_equals_the_sequential_one(client):
    m = Model()
    xs = m.int_vars(8, 0, 9, "x")
    weights = [3, 7, 2, 9, 4, 6, 5, 8]
    m.add(sum(w * x for w, x in zip(weights, xs)) <= 60)
    m.all_different(xs[:5])
    m.maximize(sum((i % 3 + 1) * x for i, x in enumerate(xs)) - xs[0] * 2)
    sequential = m.solve()
    result = distributed.optimize(m, client, cubes=40)
    assert result.complete
    assert result.objective == sequential.objective
    values = result.solution
    assert sum(w * values[x] for w, x in zip(weights, xs)) <= 60


def brute_force_count(domains, constraints):
    return sum(1 for values in itertools.product(*domains)
               if all(c(values) for c in constraints))


def test_random_small_models_count_as_brute_force(client):
    hypothesis = pytest.importorskip("hypothesis")
    st = hypothesis.strategies

    @hypothesis.settings(max_examples=8, deadline=None, derandomize=True)
    @hypothesis.given(st.lists(st.tuples(st.integers(-2, 2), st.integers(0, 4)), min_size=2,
                               max_size=4),
                      st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3),
                                         st.sampled_from(["!=", "<=", "<"])), max_size=4),
                      st.integers(-3, 8), st.integers(1, 12))
    def check(domains, pairs, bound, cubes):
        m = Model()
        xs = [m.int_var(lo, lo + span, f"x{i}") for i, (lo, span) in enumerate(domains)]
        ranges = [range(lo, lo + span + 1) for lo, span in domains]
        checks = []
        for a, b, op in pairs:
            a, b = a % len(xs), b % len(xs)
            if a == b:
                continue
            if op == "!=":
                m.add(xs[a] != xs[b])
                checks.append(lambda v, a=a, b=b: v[a] != v[b])
            elif op == "<=":
                m.add(xs[a] <= xs[b])
                checks.append(lambda v, a=a, b=b: v[a] <= v[b])
            else:
                m.add(xs[a] < xs[b])
                checks.append(lambda v, a=a, b=b: v[a] < v[b])
        m.add(sum(xs) <= bound)
        checks.append(lambda v: sum(v) <= bound)
        result = distributed.count(m, client, cubes=cubes)
        assert result.complete
        assert result.count == brute_force_count(ranges, checks)

    check()


def test_a_worker_killed_mid_run_leaves_the_count_exact():
    cluster, client = start_cluster()
    try:
        pids = list(client.run(os.getpid).values())
        killed = []

        def kill_one(done, total):
            # Once a few cubes are done, one worker process dies without a word.
            if done == 4 and not killed:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])

        result = distributed.count(queens(13), client, cubes=60, progress=kill_one)
        assert killed, "the run ended before the kill"
        assert result.complete, result
        assert result.count == a000170()[13]
    finally:
        client.close()
        cluster.close()


def test_a_model_pickles_by_its_calls():
    import pickle

    m = queens(6)
    copy = pickle.loads(pickle.dumps(m))
    assert [v.name for v in copy.vars] == [v.name for v in m.vars]
    assert sum(1 for _ in copy.solutions()) == 4


def test_the_command_line_counts_on_a_local_cluster_and_says_what_is_missing(tmp_path):
    import subprocess
    import sys

    model = queens_fzn(8, str(tmp_path))
    run = subprocess.run([sys.executable, "-m", "csp_solver.distributed", "count", model,
                          "--local", "2", "--cubes", "10", "--no-progress"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "count 92 (complete)"
    assert lines[1].startswith("cubes: ") and " with a result" in lines[1]
    missing = subprocess.run([sys.executable, "-m", "csp_solver.distributed", "optimize",
                              os.path.join(tmp_path, "nowhere.fzn"), "--local", "1"],
                             capture_output=True, text=True, timeout=60)
    assert missing.returncode == 2
    assert "nowhere.fzn" in missing.stderr
