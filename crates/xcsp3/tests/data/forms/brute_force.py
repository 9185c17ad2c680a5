#!/usr/bin/env python3
"""Counts the solutions of each instance in this folder by trying every assignment, with
each constraint written out here as the XCSP3-core specification defines it: the oracle for
expected_counts.csv, and for the functions named objective_* the optimum, for
expected_optima.csv. Independent groups of variables are counted apart and multiplied.
Run: python3 brute_force.py (a few seconds)."""
from itertools import product


def count(domains, holds):
    return sum(1 for values in product(*domains) if holds(*values))


def r(a, b):
    return range(a, b + 1)


def lex_lt(a, b):
    return tuple(a) < tuple(b)


def element_constants():
    table = [3, 1, 4, 1, 5, 9, 2]
    return count([r(0, 6), r(0, 9), r(0, 9)],
                 lambda i, z, y: z == table[i] and z + y <= 10)


def element_variables():
    def holds(x0, x1, x2, x3, i, v):
        x = [x0, x1, x2, x3]
        return len(set(x)) == 4 and 1 <= i <= 4 and x[i - 1] == v
    return count([r(0, 3)] * 4 + [r(0, 5), r(1, 3)], holds)


def element_matrix():
    m = [[5, 3, 8], [2, 7, 1], [6, 6, 4]]
    return count([r(0, 4), r(0, 4), r(0, 20)],
                 lambda row, col, z: 1 <= row <= 3 and 0 <= col <= 2
                 and m[row - 1][col] == z and row != col)


def element_condition_member():
    def holds(x0, x1, x2, x3, i, m):
        x = [x0, x1, x2, x3]
        return x[i] > 2 and m in x and sum(x) <= 9
    return count([r(0, 4)] * 4 + [r(0, 3), r(2, 3)], holds)


def channel_forms():
    def two_lists(*v):
        x, y = v[:4], v[4:]
        # x indexed from 0, y from 1: x[i] = j exactly when y[j] = i.
        return all((x[i] == j) == (y[j - 1] == i) for i in range(4) for j in r(1, 4)) \
            and x[0] != 1
    one_list = count([r(0, 3)] * 4, lambda *s: all(
        (s[i] == j) == (s[j] == i) for i in range(4) for j in range(4)))

    def one_hot(*v):
        b, value = v[:4], v[4]
        # b indexed from 2: b[i] = 1 exactly when value = i, and one of them is.
        return sum(b) == 1 and all((b[i] == 1) == (value == i + 2) for i in range(4))
    return count([r(1, 4)] * 4 + [r(0, 3)] * 4, two_lists) * one_list \
        * count([r(0, 1)] * 4 + [r(0, 5)], one_hot)


def extremum_forms():
    return count([r(0, 3)] * 5, lambda a, b, c, d, lo: min(a, b, c, d) == lo
                 and max(a, b, c) >= 2 and max(b, c, d) != lo)


def counting_forms():
    total = 0
    for x in product(r(0, 3), repeat=5):
        if len(set(x[:3])) > 2 or x[3] + x[4] in (2, 4):
            continue
        k_ways = 1  # k is the number of distinct values, one way.
        y_ways = sum(1 for y in r(0, 3) if x.count(y) >= 2)
        c_ways = sum(1 for c in product(r(-1, 2), repeat=3)
                     if 1 <= sum(ci * xi for ci, xi in zip(c, x[:3])) <= 3)
        total += k_ways * y_ways * c_ways
    return total


def lex_forms():
    def matrix(*m):
        rows = [m[0:3], m[3:6], m[6:9]]
        cols = [m[0::3], m[1::3], m[2::3]]
        return all(lex_lt(rows[i], rows[i + 1]) and lex_lt(cols[i], cols[i + 1])
                   for i in range(2))
    lists = count([r(0, 2)] * 6, lambda a0, a1, b0, b1, d0, d1:
                  (a0, a1) >= (b0, b1) >= (d0, d1))
    return count([r(0, 1)] * 9, matrix) * lists


def comparison_forms():
    def latin(*g):
        rows = [g[0:3], g[3:6], g[6:9]]
        return all(len(set(row)) == 3 for row in rows) and \
            all(len({rows[0][j], rows[1][j], rows[2][j]}) == 3 for j in range(3))

    def rest(e0, e1, e2, e3, q0, q1, q2):
        e = [e0, e1, e2, e3]
        nonzero = [v for v in e if v != 0]
        return len(set(nonzero)) == len(nonzero) and q0 == q1 == q2 == e0 \
            and e1 + 1 <= e2 and e2 <= e3
    return count([r(1, 3)] * 9, latin) * count([r(0, 3)] * 4 + [r(0, 4)] * 3, rest)


def automata():
    nfa = [("a", 0, "z"), ("a", 1, "a"), ("a", 2, "a"), ("a", -1, "a"), ("a", -1, "b"),
           ("z", 1, "a"), ("z", 2, "a"), ("z", -1, "a"), ("z", -1, "b"),
           ("b", -1, "b"), ("b", 1, "b"), ("b", 0, "b"), ("b", 2, "c"),
           ("c", 0, "c"), ("c", 1, "c"), ("c", 2, "c"), ("c", -1, "c")]

    def accepts(word, transitions, start, finals):
        states = {start}
        for v in word:
            states = {t for (f, value, t) in transitions if f in states and value == v}
        return bool(states & finals)
    mdd = [("r", 0, "n1"), ("r", 1, "n2"), ("r", 2, "n2"), ("n1", 0, "n3"), ("n1", 2, "n4"),
           ("n2", 1, "n3"), ("n2", 1, "n4"), ("n3", 0, "t"), ("n3", 1, "t"), ("n4", 2, "t")]
    return count([r(-1, 2)] * 6, lambda *w: accepts(w, nfa, "a", {"c"})) \
        * count([r(0, 2)] * 3, lambda *w: accepts(w, mdd, "r", {"t"}))


def apart(a, la, b, lb):
    return a + la <= b or b + lb <= a


def no_overlap():
    lengths = [2, 1, 3]
    line = count([r(0, 5)] * 3, lambda *s: all(
        apart(s[i], lengths[i], s[j], lengths[j]) for i in range(3) for j in range(i + 1, 3)))
    # zeroIgnored="false": a task of length 0 may not sit strictly inside another.
    strict_lengths = [2, 0, 1]
    strict = count([r(0, 4)] * 3, lambda *t: all(
        apart(t[i], strict_lengths[i], t[j], strict_lengths[j])
        for i in range(3) for j in range(i + 1, 3)))
    sizes = [(2, 1), (1, 2), (1, 1)]

    def boxes(x0, x1, x2, y0, y1, y2):
        x, y = [x0, x1, x2], [y0, y1, y2]
        return all(apart(x[i], sizes[i][0], x[j], sizes[j][0])
                   or apart(y[i], sizes[i][1], y[j], sizes[j][1])
                   for i in range(3) for j in range(i + 1, 3))
    return line * strict * count([r(0, 2)] * 6, boxes)


def cumulative():
    def holds(*v):
        o, ln, h, u = v[0:3], v[3:6], v[6:9], v[9:11]
        # Lengths of 0 are ignored by noOverlap (zeroIgnored defaults to true).
        return all(sum(h[i] for i in range(3) if o[i] <= t < o[i] + ln[i]) < 3
                   for t in range(0, 6)) and \
            (ln[0] == 0 or ln[1] == 0 or apart(u[0], ln[0], u[1], ln[1]))
    return count([r(0, 3)] * 3 + [r(0, 2)] * 3 + [r(1, 2)] * 3 + [r(0, 3)] * 2, holds)


def circuit_slide():
    def circuit(*n):
        moved = [i for i in range(5) if n[i] != i]
        if len(moved) < 2 or len(set(n)) != 5:
            return False
        seen, i = set(), moved[0]
        while i not in seen:
            seen.add(i)
            i = n[i]
        return seen == set(moved)
    slide = count([r(0, 2)] * 6, lambda *w: all(w[i] != w[(i + 1) % 6] for i in range(6))
                  and w[0] <= w[1] and w[2] <= w[3] and w[4] <= w[5])
    return count([r(0, 4)] * 5, circuit) * slide


def expressions():
    def step(a, b):
        return abs(a // 4 - b // 4) != (a % 4 - b % 4)
    return count([r(0, 11)] * 4, lambda a, b, c, d: step(a, b) and step(b, c)
                 and step(c, d) and a * b - c // 3 == d)


def expressions_wide():
    # Five variables: past the tables, through the reader's auxiliary variables.
    def holds(a, b, c, d, e):
        return (a * b + c) % (d + 1) == e and abs(a - e) != b - c // (d + 1) \
            and (a < b or (c != d or e > 2) or ((a < 1) != (d > 3)) or a == 0)
    return count([r(0, 5)] * 5, holds)


def clauses():
    # A literal `x` holds at 1, `not(x)` at 0; a clause holds when one of its literals does.
    def holds(b0, b1, b2, b3, b4, y):
        return (b0 or not b1 or b2) and (not b0 or not b2 or b3) and (not b3 or b4) \
            and (not b4 or b1) and (b2 or b3 or not b4) and b0 + b1 + b4 == y
    return count([r(0, 1)] * 5 + [r(0, 3)], holds)


def declarations():
    # y and z take x's domain by `as`.
    values = [0, 2, 5]
    return count([values] * 5, lambda x0, x1, y0, y1, z: len({x0, x1, y0}) == 3 and y1 < z)


def objective_nvalues():
    # The fewest distinct values among x: three apart, and x[4] apart from them.
    def holds(x):
        return x[0] != x[1] and x[1] != x[2] and x[2] != x[0] and x[3] + x[4] == 5 \
            and x[4] < x[0] and x[4] != x[1] and x[4] != x[2]
    return min(len(set(x)) for x in product(r(0, 4), repeat=5) if holds(x))


def load(bins, sizes, b):
    return sum(w for x, w in zip(bins, sizes) if x == b)


def bin_packing():
    # Bin j's load is the sum of the sizes of the items put in j.
    condition = count([r(0, 2)] * 4, lambda *x: all(load(x, [2, 3, 1, 2], b) <= 4 for b in r(0, 2)))
    # Loads of bins 0..2 given; an item may go in bin 3, whose load nothing says.
    loads = count([r(0, 3)] * 3 + [r(0, 5)] * 3,
                  lambda y0, y1, y2, *l: all(load((y0, y1, y2), [1, 2, 2], b) == l[b] for b in r(0, 2)))
    limits = count([r(0, 1)] * 3 + [r(0, 4)],
                   lambda z0, z1, z2, c: load((z0, z1, z2), [3, 2, 2], 0) <= 4
                   and load((z0, z1, z2), [3, 2, 2], 1) <= c)
    return condition * loads * limits


def knapsack():
    return count([r(0, 2)] * 3 + [r(5, 8)],
                 lambda a, b, c, p: 2 * a + 3 * b + 4 * c <= 8 and 3 * a + 4 * b + 5 * c >= p)


def knapsack_signed():
    # A quantity may be negative: the sums alone, no knapsack's "at least 0".
    return count([r(-1, 2)] * 3 + [r(2, 6)],
                 lambda a, b, c, p: 2 * a + 3 * b + c <= 4 and 3 * a + b + 2 * c >= p)


def objective_knapsack():
    # The most profit within weight 30, up to two of each of ten items.
    weights = [7, 9, 4, 11, 6, 8, 5, 10, 3, 12]
    profits = [10, 13, 5, 16, 9, 11, 7, 15, 4, 17]
    return max(sum(p * k for p, k in zip(profits, x)) for x in product(r(0, 2), repeat=10)
               if sum(w * k for w, k in zip(weights, x)) <= 30)


def flow():
    def balanced(arcs, flows, nodes, balance):
        return all(sum(f for (u, _), f in zip(arcs, flows) if u == n)
                   - sum(f for (_, v), f in zip(arcs, flows) if v == n) == b
                   for n, b in zip(nodes, balance))
    arcs = [(1, 2), (1, 3), (2, 3), (2, 4), (3, 4)]
    weighted = count([r(0, 3)] * 5 + [r(0, 12)], lambda *v: balanced(arcs, v[:5], [1, 2, 3, 4], [3, 0, 0, -3])
                     and sum(w * f for w, f in zip([1, 3, 1, 2, 1], v[:5])) <= v[5])
    cycle = count([r(0, 2)] * 3 + [r(-2, 2)],
                  lambda *v: balanced([(0, 1), (1, 2), (2, 0)], v[:3], [0, 1, 2], [v[3], 0, 0]))
    return weighted * cycle


def precedes(x, values):
    # Each value occurs only after the one before it in `values` has.
    return all(t not in x or (s in x and x.index(s) < x.index(t)) for s, t in zip(values, values[1:]))


def precedence():
    return count([r(0, 2)] * 4, lambda *v: precedes(v, [0, 1, 2])) \
        * count([r(0, 2)] * 4, lambda *w: precedes(w, [2, 0]) and 2 in w and 0 in w)


def arg_extremum():
    def holds(m0, m1, m2, i, j, k):
        m, e = [m0, m1, m2], [m0, m1 + 1, m2]
        first_max = m.index(max(m))
        last_min = max(p for p in range(3) if m[p] == min(m))
        return i == first_max and j == 1 + last_min and 0 <= k < 3 and e[k] == max(e)
    return count([r(0, 2)] * 3 + [r(0, 3), r(0, 3), r(0, 2)], holds)


def ordered_lists():
    ordered = count([r(0, 4)] * 3 + [r(1, 2)] * 2,
                    lambda s0, s1, s2, d0, d1: s0 + d0 <= s1 and s1 + d1 <= s2)
    rows = count([r(0, 1)] * 4, lambda a, b, c, d: len({(a, b), (c, d), (1, 1)}) == 3)
    return ordered * rows


def boxes_3d():
    def disjoint(o, lengths, ignore_zero):
        for i in range(len(o)):
            for j in range(i + 1, len(o)):
                if ignore_zero and (0 in lengths[i] or 0 in lengths[j]):
                    continue
                if not any(apart(o[i][d], lengths[i][d], o[j][d], lengths[j][d]) for d in range(3)):
                    return False
        return True
    ignored = count([r(0, 1)] * 10, lambda *v: disjoint(
        [v[0:3], v[3:6], v[6:9]], [(1, 1, 1), (2, 1, 1), (1, v[9], 1)], True))
    strict = count([r(0, 1)] * 6, lambda *p: disjoint([p[0:3], p[3:6]], [(1, 0, 1), (1, 1, 1)], False))
    return ignored * strict


def product_wide():
    # A nonzero product c needs nonzero factors that divide it, so the factors lie within
    # -|c|..|c|, well inside the declared domains (0..2000, -1000..1000).
    positive = count([r(0, 24)] * 3, lambda a, b, c: a * b * c == 24)
    signed = count([r(-12, 12)] * 4, lambda a, b, c, d: a * b * c * d == -12)
    return positive * signed


def sum_of_comparisons():
    # w[i] is the number of s[j] above s[i] (as Soccer's worst positions): fixed by s.
    def holds(s0, s1, s2, s3):
        terms = [s0 + 1 >= s1, s2 < s3, s1 == s3, 2 * s0 != s2 - 1, s0 <= 2]
        return sum(c * t for c, t in zip([1, 2, 1, 1, 1], terms)) >= 3
    return count([r(0, 4)] * 4, holds)


def switched_products():
    # Products of a truth and a value (Mapping's costs on the processor used).
    def holds(p0, p1, p2, c0, c1, c2, m):
        total = (p0 == 0) * c0 + (p1 == 0) * c1 + c2 * (p2 != 1)
        return total == m and max((p0 < p1) * c1, (p2 == 2) * (c0 + 1)) >= 2
    return count([r(0, 2)] * 3 + [r(-2, 4)] * 3 + [r(0, 5)], holds)


if __name__ == "__main__":
    for name, f in list(globals().items()):
        if callable(f) and f.__module__ == "__main__" and name not in (
                "count", "r", "lex_lt", "apart", "load", "precedes") and not name.startswith("_"):
            print(f"{name.replace('_', '-')}.xml,{f()}")
