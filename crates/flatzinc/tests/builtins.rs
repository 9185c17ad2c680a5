//! Random small FlatZinc models over the builtins, solved on the engine under none, fc and
//! mac, against brute force over every assignment with each builtin evaluated as the FlatZinc
//! specification defines it (written out here, apart from the engine).
//!
//! `FZN_CASES` sets the number of models (300 by default; the closing note of issue 15 gives
//! a run of 100,000).

// A test fails by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use csp::{Inference, Solver, SplitMix64};
use flatzinc::{Elem, OutputShape};
use std::collections::BTreeSet;
use std::fmt::Write;

/// A variable of the random model: its name and domain.
struct Var {
    name: String,
    values: Vec<i64>,
    is_bool: bool,
}

/// Whether an assignment (values in declaration order) satisfies a constraint.
type Meaning = Box<dyn Fn(&[i64]) -> bool>;

/// One constraint: its FlatZinc text and its meaning on an assignment.
struct Item {
    text: String,
    holds: Meaning,
}

fn pick<'a, T>(rng: &mut SplitMix64, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len() as u64) as usize]
}

/// Truncating division and its remainder, as FlatZinc defines `int_div` and `int_mod`.
fn div(a: i64, b: i64) -> Option<i64> {
    (b != 0).then(|| a / b)
}

fn modulo(a: i64, b: i64) -> Option<i64> {
    (b != 0).then(|| a % b)
}

fn pow(a: i64, b: i64) -> Option<i64> {
    if b < 0 {
        // 1 div a^-b: defined for a != 0.
        return (a != 0).then(|| {
            let p = a.pow((-b) as u32);
            1 / p
        });
    }
    Some(a.pow(b as u32))
}

/// A random model: its text, its variables and its constraints' meanings.
fn random_model(rng: &mut SplitMix64) -> (String, Vec<Var>, Vec<Item>) {
    let mut vars = Vec::new();
    let int_count = 2 + rng.below(2) as usize;
    for i in 0..int_count {
        let low = rng.below(7) as i64 - 4;
        let high = low + rng.below(5) as i64;
        let mut values: Vec<i64> = (low..=high).collect();
        if rng.below(4) == 0 && values.len() > 2 {
            // A domain with a hole, declared as a set.
            values.remove(1);
        }
        vars.push(Var {
            name: format!("x{i}"),
            values,
            is_bool: false,
        });
    }
    for i in 0..2 {
        vars.push(Var {
            name: format!("b{i}"),
            values: vec![0, 1],
            is_bool: true,
        });
    }
    let ints: Vec<usize> = (0..int_count).collect();
    let bools: Vec<usize> = (int_count..vars.len()).collect();
    let mut text = String::new();
    for v in &vars {
        let domain = if v.is_bool {
            "bool".to_owned()
        } else if v.values.len() as i64 == v.values[v.values.len() - 1] - v.values[0] + 1 {
            format!("{}..{}", v.values[0], v.values[v.values.len() - 1])
        } else {
            let listed: Vec<String> = v.values.iter().map(i64::to_string).collect();
            format!("{{{}}}", listed.join(", "))
        };
        writeln!(text, "var {domain}: {} :: output_var;", v.name).unwrap();
    }
    let name = |i: usize, vars: &[Var]| vars[i].name.clone();
    let mut items: Vec<Item> = Vec::new();
    for _ in 0..1 + rng.below(3) {
        let kind = rng.below(37);
        let (a, b, c) = (*pick(rng, &ints), *pick(rng, &ints), *pick(rng, &ints));
        let (p, q, r) = (*pick(rng, &bools), *pick(rng, &bools), *pick(rng, &bools));
        let k = rng.below(7) as i64 - 3;
        let item = match kind {
            0..=2 => {
                let (op, f) = *pick::<(&str, fn(i64, i64) -> bool)>(
                    rng,
                    &[
                        ("int_eq", |x, y| x == y),
                        ("int_ne", |x, y| x != y),
                        ("int_le", |x, y| x <= y),
                        ("int_lt", |x, y| x < y),
                    ],
                );
                let (xa, xb) = (name(a, &vars), name(b, &vars));
                match kind {
                    0 => Item {
                        text: format!("{op}({xa}, {xb})"),
                        holds: Box::new(move |v| f(v[a], v[b])),
                    },
                    1 => Item {
                        text: format!("{op}_reif({xa}, {k}, {})", name(p, &vars)),
                        holds: Box::new(move |v| f(v[a], k) == (v[p] == 1)),
                    },
                    _ => Item {
                        text: format!("{op}_imp({k}, {xb}, {})", name(p, &vars)),
                        holds: Box::new(move |v| v[p] == 0 || f(k, v[b])),
                    },
                }
            }
            3..=5 => {
                let (op, f) = *pick::<(&str, fn(i64, i64) -> bool)>(
                    rng,
                    &[
                        ("int_lin_eq", |s, c| s == c),
                        ("int_lin_le", |s, c| s <= c),
                        ("int_lin_ne", |s, c| s != c),
                    ],
                );
                let (ca, cb) = (rng.below(5) as i64 - 2, rng.below(5) as i64 - 2);
                let args = format!(
                    "[{ca}, {cb}], [{}, {}], {k}",
                    name(a, &vars),
                    name(b, &vars)
                );
                let sum = move |v: &[i64]| ca * v[a] + cb * v[b];
                match kind {
                    3 => Item {
                        text: format!("{op}({args})"),
                        holds: Box::new(move |v| f(sum(v), k)),
                    },
                    4 => Item {
                        text: format!("{op}_reif({args}, {})", name(p, &vars)),
                        holds: Box::new(move |v| f(sum(v), k) == (v[p] == 1)),
                    },
                    _ => Item {
                        text: format!("{op}_imp({args}, {})", name(p, &vars)),
                        holds: Box::new(move |v| v[p] == 0 || f(sum(v), k)),
                    },
                }
            }
            6 => {
                let (op, f) = *pick::<(&str, fn(i64, i64) -> Option<i64>)>(
                    rng,
                    &[
                        ("int_times", |x, y| Some(x * y)),
                        ("int_div", div),
                        ("int_mod", modulo),
                        ("int_pow", pow),
                        ("int_plus", |x, y| Some(x + y)),
                        ("int_max", |x, y| Some(x.max(y))),
                        ("int_min", |x, y| Some(x.min(y))),
                    ],
                );
                Item {
                    text: format!(
                        "{op}({}, {}, {})",
                        name(a, &vars),
                        name(b, &vars),
                        name(c, &vars)
                    ),
                    holds: Box::new(move |v| f(v[a], v[b]) == Some(v[c])),
                }
            }
            7 => Item {
                text: format!("int_abs({}, {})", name(a, &vars), name(b, &vars)),
                holds: Box::new(move |v| v[a].abs() == v[b]),
            },
            8 => {
                let table: Vec<i64> = (0..3).map(|_| rng.below(7) as i64 - 3).collect();
                let listed: Vec<String> = table.iter().map(i64::to_string).collect();
                Item {
                    text: format!(
                        "array_int_element({}, [{}], {})",
                        name(a, &vars),
                        listed.join(", "),
                        name(b, &vars)
                    ),
                    holds: Box::new(move |v| {
                        usize::try_from(v[a] - 1)
                            .ok()
                            .and_then(|i| table.get(i))
                            .is_some_and(|&t| t == v[b])
                    }),
                }
            }
            9 => {
                let d = *pick(rng, &ints);
                Item {
                    text: format!(
                        "array_var_int_element({}, [{}, {}], {})",
                        name(a, &vars),
                        name(b, &vars),
                        name(d, &vars),
                        name(c, &vars)
                    ),
                    holds: Box::new(move |v| match v[a] {
                        1 => v[b] == v[c],
                        2 => v[d] == v[c],
                        _ => false,
                    }),
                }
            }
            10 => {
                let set: Vec<i64> = {
                    let mut s: Vec<i64> = (0..3).map(|_| rng.below(9) as i64 - 4).collect();
                    s.sort_unstable();
                    s.dedup();
                    s
                };
                let listed: Vec<String> = set.iter().map(i64::to_string).collect();
                Item {
                    text: format!(
                        "set_in_reif({}, {{{}}}, {})",
                        name(a, &vars),
                        listed.join(", "),
                        name(p, &vars)
                    ),
                    holds: Box::new(move |v| set.contains(&v[a]) == (v[p] == 1)),
                }
            }
            11 => {
                let (op, f) = *pick::<(&str, fn(bool, bool) -> bool)>(
                    rng,
                    &[
                        ("bool_and", |x, y| x && y),
                        ("bool_or", |x, y| x || y),
                        ("bool_xor", |x, y| x != y),
                    ],
                );
                Item {
                    text: format!(
                        "{op}({}, {}, {})",
                        name(p, &vars),
                        name(q, &vars),
                        name(r, &vars)
                    ),
                    holds: Box::new(move |v| f(v[p] == 1, v[q] == 1) == (v[r] == 1)),
                }
            }
            12 => Item {
                text: format!("bool_clause([{}], [{}])", name(p, &vars), name(q, &vars)),
                holds: Box::new(move |v| v[p] == 1 || v[q] == 0),
            },
            13 => Item {
                text: format!(
                    "array_bool_or([{}, {}], {})",
                    name(p, &vars),
                    name(q, &vars),
                    name(r, &vars)
                ),
                holds: Box::new(move |v| (v[p] == 1 || v[q] == 1) == (v[r] == 1)),
            },
            14 => Item {
                text: format!("bool2int({}, {})", name(p, &vars), name(a, &vars)),
                holds: Box::new(move |v| v[p] == v[a]),
            },
            16 => {
                let d = *pick(rng, &ints);
                Item {
                    text: format!(
                        "csp_count_eq([{}, {}], {}, {})",
                        name(a, &vars),
                        name(b, &vars),
                        name(c, &vars),
                        name(d, &vars)
                    ),
                    holds: Box::new(move |v| {
                        i64::from(v[a] == v[c]) + i64::from(v[b] == v[c]) == v[d]
                    }),
                }
            }
            17 => {
                // Two tasks on one machine, durations constants (MiniZinc's decomposition
                // of disjunctive and disjunctive_strict is the oracle).
                let (d, e) = (rng.below(4) as i64, rng.below(4) as i64);
                let strict = rng.below(2) == 0;
                let kind = if strict { "_strict" } else { "" };
                Item {
                    text: format!(
                        "csp_disjunctive{kind}([{}, {}], [{d}, {e}])",
                        name(a, &vars),
                        name(b, &vars)
                    ),
                    holds: Box::new(move |v| {
                        (!strict && (d == 0 || e == 0)) || v[a] + d <= v[b] || v[b] + e <= v[a]
                    }),
                }
            }
            18 => {
                // Two tasks (start, duration, usage) and a capacity, all variables: at each
                // start of a running task, the running tasks fit, and the capacity is not
                // negative (MiniZinc's fzn_cumulative).
                let t = [
                    (a, b, c),
                    (*pick(rng, &ints), *pick(rng, &ints), *pick(rng, &ints)),
                ];
                let cap = *pick(rng, &ints);
                let listed = |f: fn(&(usize, usize, usize)) -> usize| -> String {
                    t.iter()
                        .map(|x| name(f(x), &vars))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                Item {
                    text: format!(
                        "csp_cumulative([{}], [{}], [{}], {})",
                        listed(|x| x.0),
                        listed(|x| x.1),
                        listed(|x| x.2),
                        name(cap, &vars)
                    ),
                    holds: Box::new(move |v| {
                        let runs = |&(_, d, r): &(usize, usize, usize)| v[d] > 0 && v[r] > 0;
                        v[cap] >= 0
                            && t.iter().filter(|x| runs(x)).all(|x| {
                                let at = v[x.0];
                                let used: i64 = t
                                    .iter()
                                    .filter(|y| runs(y) && v[y.0] <= at && at < v[y.0] + v[y.1])
                                    .map(|y| v[y.2])
                                    .sum();
                                used <= v[cap]
                            })
                    }),
                }
            }
            19 => {
                // A (sub)circuit over three successor variables, nodes named from `first`:
                // followed from a node in it, the successors come back after visiting each
                // node in it once (all of them for a circuit; none in it is a subcircuit too).
                let succ = [a, b, c];
                let first = rng.below(3) as i64 - 1;
                let sub = rng.below(2) == 0;
                let kind = if sub { "sub" } else { "" };
                let listed: Vec<String> = succ.iter().map(|&x| name(x, &vars)).collect();
                Item {
                    text: format!("csp_{kind}circuit([{}], {first})", listed.join(", ")),
                    holds: Box::new(move |v| {
                        let next: Option<Vec<usize>> = succ
                            .iter()
                            .map(|&x| usize::try_from(v[x] - first).ok().filter(|&k| k < 3))
                            .collect();
                        let Some(next) = next else { return false };
                        let inside: Vec<usize> = (0..3).filter(|&i| next[i] != i).collect();
                        if inside.is_empty() {
                            return sub;
                        }
                        if !sub && inside.len() < 3 {
                            return false;
                        }
                        let mut k = inside[0];
                        let mut visited = 0;
                        loop {
                            k = next[k];
                            visited += 1;
                            if k == inside[0] || visited > 3 {
                                break;
                            }
                        }
                        k == inside[0] && visited == inside.len()
                    }),
                }
            }
            20 => {
                // A two-state automaton over two symbols from `first`, read along three
                // variables: run it.
                let next: Vec<usize> = (0..4).map(|_| rng.below(3) as usize).collect();
                let accepting: Vec<usize> = (1..=2).filter(|_| rng.below(2) == 0).collect();
                let first = rng.below(3) as i64 - 1;
                let xs = [a, b, c];
                let listed: Vec<String> = xs.iter().map(|&x| name(x, &vars)).collect();
                let table: Vec<String> = next.iter().map(usize::to_string).collect();
                let finals: Vec<String> = accepting.iter().map(usize::to_string).collect();
                Item {
                    text: format!(
                        "csp_regular([{}], 2, 2, [{}], 1, {{{}}}, {first})",
                        listed.join(", "),
                        table.join(", "),
                        finals.join(", ")
                    ),
                    holds: Box::new(move |v| {
                        let mut q = 1;
                        for &x in &xs {
                            let symbol = v[x] - first;
                            if q == 0 || !(0..2).contains(&symbol) {
                                return false;
                            }
                            q = next[(q - 1) * 2 + symbol as usize];
                        }
                        accepting.contains(&q)
                    }),
                }
            }
            21 => {
                // A table of up to four pairs over two variables.
                let rows: Vec<[i64; 2]> = (0..1 + rng.below(4))
                    .map(|_| [rng.below(7) as i64 - 3, rng.below(7) as i64 - 3])
                    .collect();
                let cells: Vec<String> = rows.iter().flatten().map(i64::to_string).collect();
                Item {
                    text: format!(
                        "csp_table_int([{}, {}], [{}])",
                        name(a, &vars),
                        name(b, &vars),
                        cells.join(", ")
                    ),
                    holds: Box::new(move |v| rows.contains(&[v[a], v[b]])),
                }
            }
            22 => {
                // all_different over three places (a variable may repeat), at a strength
                // chosen by annotation, or by default.
                let xs = [a, b, c];
                let listed: Vec<String> = xs.iter().map(|&x| name(x, &vars)).collect();
                let annotation = *pick(
                    rng,
                    &[
                        "",
                        " :: value_propagation",
                        " :: bounds_propagation",
                        " :: bounds",
                        " :: domain",
                    ],
                );
                Item {
                    text: format!("all_different_int([{}]){annotation}", listed.join(", ")),
                    holds: Box::new(move |v| {
                        v[xs[0]] != v[xs[1]] && v[xs[0]] != v[xs[2]] && v[xs[1]] != v[xs[2]]
                    }),
                }
            }
            23 => {
                // How many of three places take each of two values, between bounds, closed
                // or not.
                let xs = [a, b, c];
                let cover = [rng.below(5) as i64 - 2, rng.below(5) as i64 - 2];
                let low = [rng.below(3) as i64, rng.below(3) as i64];
                let high = [
                    low[0] + rng.below(3) as i64 - 1,
                    low[1] + rng.below(3) as i64,
                ];
                let closed = rng.below(2) == 0;
                let listed: Vec<String> = xs.iter().map(|&x| name(x, &vars)).collect();
                Item {
                    text: format!(
                        "csp_global_cardinality_low_up{}([{}], [{}, {}], [{}, {}], [{}, {}])",
                        if closed { "_closed" } else { "" },
                        listed.join(", "),
                        cover[0],
                        cover[1],
                        low[0],
                        low[1],
                        high[0],
                        high[1]
                    ),
                    holds: Box::new(move |v| {
                        (!closed || xs.iter().all(|&x| cover.contains(&v[x])))
                            && (0..2).all(|i| {
                                let taken = xs.iter().filter(|&&x| v[x] == cover[i]).count() as i64;
                                low[i] <= taken && taken <= high[i]
                            })
                    }),
                }
            }
            24 => {
                // How many of two places take a value, counted by a third variable.
                let value = rng.below(5) as i64 - 2;
                let closed = rng.below(2) == 0;
                Item {
                    text: format!(
                        "csp_global_cardinality{}([{}, {}], [{value}], [{}])",
                        if closed { "_closed" } else { "" },
                        name(a, &vars),
                        name(b, &vars),
                        name(c, &vars)
                    ),
                    holds: Box::new(move |v| {
                        let taken = [a, b].iter().filter(|&&x| v[x] == value).count() as i64;
                        (!closed || (v[a] == value && v[b] == value)) && taken == v[c]
                    }),
                }
            }
            25 => {
                // In three places, t occurs only after some s.
                let (s, t) = (rng.below(5) as i64 - 2, rng.below(5) as i64 - 2);
                let xs = [a, b, c];
                let listed: Vec<String> = xs.iter().map(|&x| name(x, &vars)).collect();
                Item {
                    text: format!("csp_value_precede({s}, {t}, [{}])", listed.join(", ")),
                    holds: Box::new(move |v| {
                        let values: Vec<i64> = xs.iter().map(|&x| v[x]).collect();
                        match values.iter().position(|&w| w == t) {
                            Some(first) if s != t => values[..first].contains(&s),
                            _ => true,
                        }
                    }),
                }
            }
            26 => {
                // Two rectangles at (a, b) and (c, a) of sizes drawn from the variables and
                // constants, strict or not.
                let strict = rng.below(2) == 0;
                let (w, h) = (rng.below(3) as i64, rng.below(3) as i64);
                Item {
                    text: format!(
                        "csp_diffn{}([{}, {}], [{}, {}], [{w}, {}], [{h}, 1])",
                        if strict { "" } else { "_nonstrict" },
                        name(a, &vars),
                        name(c, &vars),
                        name(b, &vars),
                        name(a, &vars),
                        name(b, &vars)
                    ),
                    holds: Box::new(move |v| {
                        let first = [v[a], v[b], w, h];
                        let second = [v[c], v[a], v[b], 1];
                        let empty = first[2] == 0 || first[3] == 0 || second[2] == 0;
                        (!strict && empty)
                            || first[0] + first[2] <= second[0]
                            || second[0] + second[2] <= first[0]
                            || first[1] + first[3] <= second[1]
                            || second[1] + second[3] <= first[1]
                    }),
                }
            }
            27 => {
                // c counts how many of a and b lie in a set of two values.
                let set = [rng.below(5) as i64 - 2, rng.below(5) as i64 - 2];
                Item {
                    text: format!(
                        "csp_among({}, [{}, {}], {{{}, {}}})",
                        name(c, &vars),
                        name(a, &vars),
                        name(b, &vars),
                        set[0],
                        set[1]
                    ),
                    holds: Box::new(move |v| {
                        [a, b].iter().filter(|&&x| set.contains(&v[x])).count() as i64 == v[c]
                    }),
                }
            }
            28 => {
                // a, b, c in order, either way, strictly or not.
                let (down, strict) = (rng.below(2) == 0, rng.below(2) == 0);
                Item {
                    text: format!(
                        "csp_{}([{}, {}, {}], {strict})",
                        if down { "decreasing" } else { "increasing" },
                        name(a, &vars),
                        name(b, &vars),
                        name(c, &vars)
                    ),
                    holds: Box::new(move |v| {
                        let step = i64::from(strict);
                        let (x, y, z) = if down {
                            (v[c], v[b], v[a])
                        } else {
                            (v[a], v[b], v[c])
                        };
                        x + step <= y && y + step <= z
                    }),
                }
            }
            29 => {
                // [a, b] from index k and [c, a] from index k + 1 are inverse functions.
                let (f_first, g_first) = (k, k + 1);
                Item {
                    text: format!(
                        "csp_inverse([{}, {}], {f_first}, [{}, {}], {g_first})",
                        name(a, &vars),
                        name(b, &vars),
                        name(c, &vars),
                        name(a, &vars)
                    ),
                    holds: Box::new(move |v| {
                        let (f, g) = ([v[a], v[b]], [v[c], v[a]]);
                        let at = |array: &[i64; 2], first: i64, index: i64| {
                            usize::try_from(index - first)
                                .ok()
                                .and_then(|i| array.get(i).copied())
                        };
                        (0..2).all(|i| at(&g, g_first, f[i]) == Some(f_first + i as i64))
                            && (0..2).all(|j| at(&f, f_first, g[j]) == Some(g_first + j as i64))
                    }),
                }
            }
            30 => {
                // c is the number of distinct values among a, b and p.
                Item {
                    text: format!(
                        "csp_nvalue({}, [{}, {}, {}])",
                        name(c, &vars),
                        name(a, &vars),
                        name(b, &vars),
                        name(p, &vars)
                    ),
                    holds: Box::new(move |v| {
                        let mut values = vec![v[a], v[b], v[p]];
                        values.sort_unstable();
                        values.dedup();
                        values.len() as i64 == v[c]
                    }),
                }
            }
            31 => {
                // c equals a or b.
                Item {
                    text: format!(
                        "csp_member_of([{}, {}], {})",
                        name(a, &vars),
                        name(b, &vars),
                        name(c, &vars)
                    ),
                    holds: Box::new(move |v| v[c] == v[a] || v[c] == v[b]),
                }
            }
            32 => {
                // Items p, q of weights 1 and 2 into bins k, k + 1, whose loads are a and b.
                Item {
                    text: format!(
                        "csp_bin_packing_load([{}, {}], {k}, [{}, {}], [1, 2])",
                        name(a, &vars),
                        name(b, &vars),
                        name(p, &vars),
                        name(q, &vars)
                    ),
                    holds: Box::new(move |v| {
                        let mut loads = [0i64; 2];
                        for (item, w) in [(p, 1), (q, 2)] {
                            match usize::try_from(v[item] - k).ok().filter(|&i| i < 2) {
                                Some(i) => loads[i] += w,
                                None => return false,
                            }
                        }
                        // When p and q are one variable, both items go to its bin.
                        loads == [v[a], v[b]]
                    }),
                }
            }
            33 => {
                // c is the first index, from k, of the largest (or smallest) of a, b, p.
                let max = rng.below(2) == 0;
                Item {
                    text: format!(
                        "csp_arg_{}([{}, {}, {}], {k}, {})",
                        if max { "max" } else { "min" },
                        name(a, &vars),
                        name(b, &vars),
                        name(p, &vars),
                        name(c, &vars)
                    ),
                    holds: Box::new(move |v| {
                        let xs = [v[a], v[b], v[p]];
                        let best = if max {
                            xs.iter().max()
                        } else {
                            xs.iter().min()
                        };
                        let first = xs.iter().position(|x| Some(x) == best);
                        first.is_some_and(|i| k + i as i64 == v[c])
                    }),
                }
            }
            34 => {
                // a, b spell a path of a two-level diagram: root 1 goes to node 2 on {k}
                // and to node 3 on {k + 1, k + 2}; node 2 ends on {0, 1}, node 3 on {k}.
                Item {
                    text: format!(
                        "csp_mdd([{}, {}], 3, [1, 1, 2, 3], [{{{k}}}, {}..{}, {{0, 1}}, {{{k}}}], \
                         [2, 3, 0, 0])",
                        name(a, &vars),
                        name(b, &vars),
                        k + 1,
                        k + 2
                    ),
                    holds: Box::new(move |v| {
                        (v[a] == k && (v[b] == 0 || v[b] == 1))
                            || ((v[a] == k + 1 || v[a] == k + 2) && v[b] == k)
                    }),
                }
            }
            35 => {
                // Nodes k and k + 1 (chosen by p and q), one edge from k to k + 1 (chosen by
                // r): a path from a to b, directed or not.
                let directed = rng.below(2) == 0;
                Item {
                    text: format!(
                        "csp_{}path({k}, [{k}], [{}], {}, {}, [{}, {}], [{}])",
                        if directed { "d" } else { "" },
                        k + 1,
                        name(a, &vars),
                        name(b, &vars),
                        name(p, &vars),
                        name(q, &vars),
                        name(r, &vars)
                    ),
                    holds: Box::new(move |v| {
                        let (s, t) = (v[a] - k, v[b] - k);
                        if !(0..2).contains(&s) || !(0..2).contains(&t) {
                            return false;
                        }
                        let ns = [v[p], v[q]];
                        if ns[s as usize] != 1 || ns[t as usize] != 1 {
                            return false;
                        }
                        if s == t {
                            // The node alone.
                            return ns[1 - s as usize] == 0 && v[r] == 0;
                        }
                        v[r] == 1 && (!directed || s == 0)
                    }),
                }
            }
            36 => {
                // a copies of an item of weight 2 and profit |k|, p of one of weight 1 and
                // profit 3: weight b, profit c, every number at least 0.
                let gain = k.abs();
                Item {
                    text: format!(
                        "csp_knapsack([2, 1], [{gain}, 3], [{}, {}], {}, {})",
                        name(a, &vars),
                        name(p, &vars),
                        name(b, &vars),
                        name(c, &vars)
                    ),
                    holds: Box::new(move |v| {
                        [v[a], v[p], v[b], v[c]].iter().all(|&x| x >= 0)
                            && v[b] == 2 * v[a] + v[p]
                            && v[c] == gain * v[a] + 3 * v[p]
                    }),
                }
            }
            _ => Item {
                text: format!(
                    "bool_lin_le([1, {k}], [{}, {}], {})",
                    name(p, &vars),
                    name(q, &vars),
                    1
                ),
                holds: Box::new(move |v| v[p] + k * v[q] <= 1),
            },
        };
        writeln!(text, "constraint {};", item.text).unwrap();
        items.push(item);
    }
    text.push_str("solve satisfy;\n");
    (text, vars, items)
}

/// Every assignment of `vars` that satisfies every item, as value vectors.
fn brute_force(vars: &[Var], items: &[Item]) -> BTreeSet<Vec<i64>> {
    let mut found = BTreeSet::new();
    let mut at = vec![0usize; vars.len()];
    loop {
        let values: Vec<i64> = at.iter().zip(vars).map(|(&i, v)| v.values[i]).collect();
        if items.iter().all(|item| (item.holds)(&values)) {
            found.insert(values);
        }
        let Some(k) = (0..vars.len())
            .rev()
            .find(|&k| at[k] + 1 < vars[k].values.len())
        else {
            return found;
        };
        at[k] += 1;
        at[k + 1..].fill(0);
    }
}

#[test]
fn every_mode_finds_exactly_the_brute_force_solutions_of_random_models() {
    let cases: u64 = std::env::var("FZN_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let mut rng = SplitMix64::new(15);
    for case in 0..cases {
        let (text, vars, items) = random_model(&mut rng);
        let expected = brute_force(&vars, &items);
        let fzn = flatzinc::load(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        if fzn.contradiction.is_some() {
            // A constraint that can never hold (`int_ne(x0, x0)`): no solution, no search.
            assert!(
                expected.is_empty(),
                "case {case}: said contradictory\n{text}"
            );
            continue;
        }
        for inference in [Inference::None, Inference::ForwardChecking, Inference::Mac] {
            let mut found = BTreeSet::new();
            Solver::new(&fzn.model)
                .inference(inference)
                .max_solutions(None)
                .solve(|s| {
                    // The outputs come in name order; the brute force has the declarations'.
                    let values = vars
                        .iter()
                        .map(|var| {
                            let output = fzn.outputs.iter().find(|o| o.name == var.name).unwrap();
                            match output.shape {
                                OutputShape::Scalar(Elem::Var(v)) => i64::from(s.value(v)),
                                OutputShape::Scalar(Elem::Const(c)) => c,
                                _ => unreachable!("scalars only"),
                            }
                        })
                        .collect::<Vec<_>>();
                    // A model variable no output names is fixed or free; count each output
                    // assignment once.
                    found.insert(values);
                    std::ops::ControlFlow::Continue(())
                });
            assert_eq!(
                found, expected,
                "case {case}, {inference:?}: solutions differ\n{text}"
            );
        }
    }
}

/// MiniZinc's propagation annotations reach all_different: each strength wakes on the change
/// it reads (fixing, bounds, any removal), and no annotation means domain consistency.
#[test]
fn a_propagation_annotation_chooses_how_all_different_filters() {
    use csp::Wake;
    for (annotation, wake) in [
        ("", Wake::Domain),
        (":: value_propagation", Wake::Fixed),
        (":: bounds_propagation", Wake::Bounds),
        (":: bounds", Wake::Bounds),
        (":: domain_propagation", Wake::Domain),
        (":: domain", Wake::Domain),
    ] {
        let text = format!(
            "var 1..3: x;\nvar 1..3: y;\nvar 1..3: z;\n\
             constraint all_different_int([x, y, z]) {annotation};\nsolve satisfy;\n"
        );
        let fzn = flatzinc::load(&text).unwrap();
        let model = &fzn.model;
        let id = model.constraint_ids().next().unwrap();
        let constraint = model.constraint(id).unwrap();
        let x = constraint.scope()[0];
        assert_eq!(constraint.wake_on(x), wake, "{annotation}");
        assert_eq!(Solver::new(model).inference(Inference::Mac).count(), 6);
    }
}

/// An all-different over no variable holds (MiniZinc's test_alldiff_except0 posts one), and
/// over constants it holds when they differ.
#[test]
fn all_different_over_no_variable_or_constants_holds_when_it_should() {
    let text = "predicate csp_all_different_except(array [int] of var int: x, set of int: e);\n\
        var 1..2: x;\n\
        constraint csp_all_different_except([], 0..0);\n\
        constraint all_different_int([]);\n\
        constraint csp_all_different_except([0, 0, 1], 0..0);\n\
        constraint all_different_int([1, x]);\nsolve satisfy;\n";
    let fzn = flatzinc::load(text).unwrap();
    assert_eq!(Solver::new(&fzn.model).count(), 1);
    let refused =
        flatzinc::load("var 1..2: x;\nconstraint all_different_int([1, 1, x]);\nsolve satisfy;\n");
    let unsatisfiable = match refused {
        Err(_) => true,
        Ok(fzn) => fzn.contradiction.is_some() || Solver::new(&fzn.model).count() == 0,
    };
    assert!(unsatisfiable);
}
