//! `HallIntervals`: bounds consistency for all_different, after López-Ortiz, Quimper, Tromp and
//! van Beek, "A fast and simple algorithm for bounds consistency of the alldifferent
//! constraint" (IJCAI 2003), in O(n log n).
//!
//! Each variable is read as the interval between its bounds. A Hall interval is an interval
//! of k values holding the intervals of k variables: those variables take all of its values,
//! so every other variable must leave it. The algorithm sweeps the variables by upper bound,
//! keeping the capacity left in each stretch between consecutive distinct bounds in a
//! union-find-like forest, and raises each lower bound past the Hall intervals it starts in;
//! a mirrored sweep lowers the upper bounds.

/// Working memory for one run, kept between runs so that nothing is allocated in the search.
#[derive(Default, Debug)]
pub(crate) struct HallIntervals {
    /// Per place: the interval being narrowed, first as read.
    pub(crate) low: Vec<i64>,
    pub(crate) high: Vec<i64>,
    min_rank: Vec<usize>,
    max_rank: Vec<usize>,
    by_min: Vec<usize>,
    by_max: Vec<usize>,
    /// The distinct values `low` and `high + 1`, sorted, between two sentinels.
    bounds: Vec<i64>,
    /// The forest over bound ranks (the paper's `t`), Hall interval links (`h`), and the
    /// capacity left between a rank and the previous one (`d`).
    tree: Vec<usize>,
    hall: Vec<usize>,
    capacity: Vec<i64>,
}

impl HallIntervals {
    /// Starts a run over no intervals.
    pub(crate) fn clear(&mut self) {
        self.low.clear();
        self.high.clear();
    }

    /// Adds a place whose values lie in `low..=high`.
    pub(crate) fn push(&mut self, low: i64, high: i64) {
        self.low.push(low);
        self.high.push(high);
    }

    /// Narrows every interval to bounds consistency: `low` and `high` then hold the new bounds.
    /// False when the intervals cannot take distinct values (a Hall interval overfull).
    pub(crate) fn narrow(&mut self) -> bool {
        if self.low.is_empty() {
            return true;
        }
        let top = self.rank_bounds();
        self.raise_lows(top) && self.lower_highs(top)
    }

    /// Sorts the places by each bound and ranks the distinct bounds; returns the rank of the
    /// largest, `nb` in the paper.
    fn rank_bounds(&mut self) -> usize {
        let n = self.low.len();
        let (low, high) = (&self.low, &self.high);
        self.by_min.clear();
        self.by_min.extend(0..n);
        self.by_min.sort_unstable_by_key(|&i| low[i]);
        self.by_max.clear();
        self.by_max.extend(0..n);
        self.by_max.sort_unstable_by_key(|&i| high[i]);
        self.min_rank.resize(n, 0);
        self.max_rank.resize(n, 0);
        let mut min = low[self.by_min[0]];
        let mut max = high[self.by_max[0]] + 1;
        let mut last = min - 2;
        self.bounds.clear();
        self.bounds.push(last);
        let (mut i, mut j, mut top) = (0, 0, 0);
        loop {
            if i < n && min <= max {
                if min != last {
                    last = min;
                    self.bounds.push(min);
                    top += 1;
                }
                self.min_rank[self.by_min[i]] = top;
                i += 1;
                if i < n {
                    min = low[self.by_min[i]];
                }
            } else {
                if max != last {
                    last = max;
                    self.bounds.push(max);
                    top += 1;
                }
                self.max_rank[self.by_max[j]] = top;
                j += 1;
                if j == n {
                    break;
                }
                max = high[self.by_max[j]] + 1;
            }
        }
        self.bounds.push(last + 2);
        self.tree.resize(top + 2, 0);
        self.hall.resize(top + 2, 0);
        self.capacity.resize(top + 2, 0);
        top
    }

    /// The sweep by upper bound that raises lower bounds past Hall intervals.
    fn raise_lows(&mut self, top: usize) -> bool {
        let (tree, hall, capacity, bounds) = (
            &mut self.tree,
            &mut self.hall,
            &mut self.capacity,
            &self.bounds,
        );
        tree[0] = 0;
        hall[0] = 0;
        capacity[0] = 0;
        for i in 1..=top + 1 {
            tree[i] = i - 1;
            hall[i] = i - 1;
            capacity[i] = bounds[i] - bounds[i - 1];
        }
        for &v in &self.by_max {
            let (x, y) = (self.min_rank[v], self.max_rank[v]);
            let mut z = path_max(tree, x + 1);
            let j = tree[z];
            capacity[z] -= 1;
            if capacity[z] == 0 {
                tree[z] = z + 1;
                z = path_max(tree, tree[z]);
                tree[z] = j;
            }
            path_set(tree, x + 1, z, z);
            if capacity[z] < bounds[z] - bounds[y] {
                return false;
            }
            if hall[x] > x {
                let w = path_max(hall, hall[x]);
                self.low[v] = bounds[w];
                path_set(hall, x, w, w);
            }
            if capacity[z] == bounds[z] - bounds[y] {
                let from = hall[y];
                path_set(hall, from, j - 1, y);
                hall[y] = j - 1;
            }
        }
        true
    }

    /// The mirrored sweep, by lower bound from the top, that lowers upper bounds.
    fn lower_highs(&mut self, top: usize) -> bool {
        let (tree, hall, capacity, bounds) = (
            &mut self.tree,
            &mut self.hall,
            &mut self.capacity,
            &self.bounds,
        );
        for i in 0..=top {
            tree[i] = i + 1;
            hall[i] = i + 1;
            capacity[i] = bounds[i + 1] - bounds[i];
        }
        tree[top + 1] = top + 1;
        hall[top + 1] = top + 1;
        capacity[top + 1] = 0;
        for &v in self.by_min.iter().rev() {
            let (x, y) = (self.max_rank[v], self.min_rank[v]);
            let mut z = path_min(tree, x - 1);
            let j = tree[z];
            capacity[z] -= 1;
            if capacity[z] == 0 {
                tree[z] = z - 1;
                z = path_min(tree, tree[z]);
                tree[z] = j;
            }
            path_set(tree, x - 1, z, z);
            if capacity[z] < bounds[y] - bounds[z] {
                return false;
            }
            if hall[x] < x {
                let w = path_min(hall, hall[x]);
                self.high[v] = bounds[w] - 1;
                path_set(hall, x, w, w);
            }
            if capacity[z] == bounds[y] - bounds[z] {
                let from = hall[y];
                path_set(hall, from, j + 1, y);
                hall[y] = j + 1;
            }
        }
        true
    }
}

/// Follows `links` upwards from `i` to the root of its path.
fn path_max(links: &[usize], mut i: usize) -> usize {
    while links[i] > i {
        i = links[i];
    }
    i
}

/// Follows `links` downwards from `i` to the root of its path.
fn path_min(links: &[usize], mut i: usize) -> usize {
    while links[i] < i {
        i = links[i];
    }
    i
}

/// Points every node on the path from `start` up to (not including) `end` at `to`.
fn path_set(links: &mut [usize], start: usize, end: usize, to: usize) {
    let mut k = start;
    while k != end {
        let next = links[k];
        links[k] = to;
        k = next;
    }
}

#[cfg(test)]
mod tests {
    use super::HallIntervals;

    /// Bounds consistency by brute force: each bound kept is the least (greatest) value of its
    /// interval from which distinct values can be picked in the others' intervals.
    fn brute(intervals: &[(i64, i64)]) -> Option<Vec<(i64, i64)>> {
        let n = intervals.len();
        let mut supported: Vec<Vec<i64>> = vec![Vec::new(); n];
        let mut pick = vec![0i64; n];
        fn walk(
            k: usize,
            intervals: &[(i64, i64)],
            pick: &mut Vec<i64>,
            supported: &mut Vec<Vec<i64>>,
        ) {
            if k == intervals.len() {
                for (i, &v) in pick.iter().enumerate() {
                    supported[i].push(v);
                }
                return;
            }
            for v in intervals[k].0..=intervals[k].1 {
                if !pick[..k].contains(&v) {
                    pick[k] = v;
                    walk(k + 1, intervals, pick, supported);
                }
            }
        }
        walk(0, intervals, &mut pick, &mut supported);
        supported
            .iter()
            .map(|s| Some((*s.iter().min()?, *s.iter().max()?)))
            .collect()
    }

    #[test]
    fn narrows_exactly_to_the_brute_force_bounds() {
        let mut rng = crate::SplitMix64::new(7);
        let mut hall = HallIntervals::default();
        for _ in 0..20_000 {
            let n = 1 + rng.below(6) as usize;
            let intervals: Vec<(i64, i64)> = (0..n)
                .map(|_| {
                    let a = rng.below(8) as i64 - 3;
                    (a, a + rng.below(4) as i64)
                })
                .collect();
            hall.clear();
            for &(a, b) in &intervals {
                hall.push(a, b);
            }
            let got = hall.narrow().then(|| {
                hall.low
                    .iter()
                    .copied()
                    .zip(hall.high.iter().copied())
                    .collect()
            });
            assert_eq!(got, brute(&intervals), "{intervals:?}");
        }
    }
}
