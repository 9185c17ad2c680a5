"""Random integer programs written as a modeller writes them in CPMpy, for the LP relaxation's
benchmark (`scripts/bench-lp`) and its test (`test_lp.py`): 0/1 knapsacks, a multi-dimensional
knapsack and a fixed-charge transportation problem, each seeded, with an exact oracle beside
each for the sizes brute force reaches (dynamic programming, enumeration)."""

import itertools
import random

import cpmpy as cp


def knapsack_data(n, seed):
    """Weights 10-59, values 10-89, capacity a third of the weights (issue 62's figures)."""
    rng = random.Random(seed)
    weights = [rng.randint(10, 59) for _ in range(n)]
    values = [rng.randint(10, 89) for _ in range(n)]
    return weights, values, sum(weights) // 3


def knapsack(n, seed=1):
    weights, values, capacity = knapsack_data(n, seed)
    x = cp.boolvar(shape=n, name="x")
    return cp.Model(cp.sum(x * weights) <= capacity, maximize=cp.sum(x * values))


def knapsack_optimum(n, seed=1):
    """By dynamic programming over the capacity."""
    weights, values, capacity = knapsack_data(n, seed)
    best = [0] * (capacity + 1)
    for w, v in zip(weights, values):
        for c in range(capacity, w - 1, -1):
            best[c] = max(best[c], best[c - w] + v)
    return best[capacity]


def multi_knapsack_data(n, seed, dimensions=5):
    """`dimensions` weights per item (10-59), each capacity a third of its weights' total."""
    rng = random.Random(seed)
    weights = [[rng.randint(10, 59) for _ in range(n)] for _ in range(dimensions)]
    values = [rng.randint(10, 89) for _ in range(n)]
    return weights, values, [sum(row) // 3 for row in weights]


def multi_knapsack(n, seed=1):
    weights, values, capacities = multi_knapsack_data(n, seed)
    x = cp.boolvar(shape=n, name="x")
    model = cp.Model(maximize=cp.sum(x * values))
    for row, capacity in zip(weights, capacities):
        model += cp.sum(x * row) <= capacity
    return model


def multi_knapsack_optimum(n, seed=1):
    """By trying every subset (n up to about 16)."""
    weights, values, capacities = multi_knapsack_data(n, seed)
    best = 0
    for chosen in itertools.product((0, 1), repeat=n):
        if all(sum(w * c for w, c in zip(row, chosen)) <= cap
               for row, cap in zip(weights, capacities)):
            best = max(best, sum(v * c for v, c in zip(values, chosen)))
    return best


def transport_data(sources, sinks, seed):
    """Supplies 10-30 with demands that use about four fifths of them; unit costs 1-9,
    fixed costs of opening an arc 20-60."""
    rng = random.Random(seed)
    supply = [rng.randint(10, 30) for _ in range(sources)]
    total = sum(supply) * 4 // 5
    cuts = sorted(rng.sample(range(1, total), sinks - 1))
    demand = [b - a for a, b in zip([0] + cuts, cuts + [total])]
    unit = [[rng.randint(1, 9) for _ in range(sinks)] for _ in range(sources)]
    fixed = [[rng.randint(20, 60) for _ in range(sinks)] for _ in range(sources)]
    return supply, demand, unit, fixed


def transport(sources, sinks, seed=1):
    """Fixed-charge transportation: ship every demand from the supplies, paying per unit and
    once for each arc used."""
    supply, demand, unit, fixed = transport_data(sources, sinks, seed)
    flow = cp.intvar(0, max(supply), shape=(sources, sinks), name="flow")
    used = cp.boolvar(shape=(sources, sinks), name="used")
    model = cp.Model()
    for i in range(sources):
        model += cp.sum(flow[i, :]) <= supply[i]
        for j in range(sinks):
            model += flow[i, j] <= min(supply[i], demand[j]) * used[i, j]
    for j in range(sinks):
        model += cp.sum(flow[:, j]) == demand[j]
    cost = cp.sum([unit[i][j] * flow[i, j] + fixed[i][j] * used[i, j]
                   for i in range(sources) for j in range(sinks)])
    model.minimize(cost)
    return model


def transport_optimum(sources, sinks, seed=1):
    """By trying every split of each demand among the sources (small cases only)."""
    supply, demand, unit, fixed = transport_data(sources, sinks, seed)

    def splits(total, parts):
        if parts == 1:
            yield (total,)
            return
        for first in range(total + 1):
            for rest in splits(total - first, parts - 1):
                yield (first,) + rest

    best = None
    for columns in itertools.product(*(list(splits(d, sources)) for d in demand)):
        if any(sum(col[i] for col in columns) > supply[i] for i in range(sources)):
            continue
        cost = sum(unit[i][j] * col[i] + (fixed[i][j] if col[i] else 0)
                   for j, col in enumerate(columns) for i in range(sources))
        best = cost if best is None else min(best, cost)
    return best
