//! `tabucol`: a local search for a k-colouring, a strong upper bound on the chromatic number.
//!
//! TabuCol (Hertz and de Werra, 1987) with the move and tenure of Galinier and Hao (1999):
//! the colouring is complete but may have conflicts (edges whose ends share a colour); each
//! move recolours one vertex in conflict with the colour that lowers the conflicts most, and
//! a vertex may not take back the colour it left for `L + 0.6·c` moves (`L` random in 0..10,
//! `c` the vertices in conflict) unless that beats the best count seen. A table of how many
//! neighbours of each vertex have each colour makes a move's effect a subtraction.

use crate::graph::Graph;
use csp::{Limit, Poller, SplitMix64};

/// The result of one [`tabucol`] run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TabuSearch {
    /// A proper colouring with colours `0..k`, if one was found.
    pub colors: Option<Vec<u32>>,
    /// Moves made.
    pub moves: u64,
}

/// Looks for a colouring of `graph` with colours `0..k`, starting from `start` (one colour per
/// vertex; those of `k` or more are first given their least-conflicting colour below `k`).
/// Gives up after `stall` moves without a new fewest-conflicts count. `Err` is the limit of
/// `poller`, ticked once per move, that stopped it.
pub fn tabucol(
    graph: &Graph,
    k: u32,
    start: &[u32],
    stall: u64,
    seed: u64,
    poller: &mut Poller,
) -> Result<TabuSearch, Limit> {
    let n = graph.vertex_count();
    let k = k as usize;
    if n == 0 {
        return Ok(TabuSearch {
            colors: Some(Vec::new()),
            moves: 0,
        });
    }
    if k == 0 {
        return Ok(TabuSearch {
            colors: None,
            moves: 0,
        });
    }
    let mut rng = SplitMix64::new(seed);
    let mut colors: Vec<usize> = start.iter().map(|&c| c as usize).collect();
    colors.resize(n, k);
    // neighbours[v * k + c]: how many neighbours of v have colour c.
    let mut neighbours = vec![0u32; n * k];
    for v in 0..n {
        if colors[v] >= k {
            continue;
        }
        for &u in graph.neighbours(v) {
            neighbours[u as usize * k + colors[v]] += 1;
        }
    }
    for v in 0..n {
        if colors[v] < k {
            continue;
        }
        let row = &neighbours[v * k..(v + 1) * k];
        let least = (0..k).min_by_key(|&c| row[c]).unwrap_or(0);
        colors[v] = least;
        for &u in graph.neighbours(v) {
            neighbours[u as usize * k + least] += 1;
        }
    }
    let mut conflicted = IndexedSet::new(n);
    let mut conflicts: u64 = 0;
    for v in 0..n {
        let here = neighbours[v * k + colors[v]];
        if here > 0 {
            conflicted.insert(v);
            conflicts += u64::from(here);
        }
    }
    conflicts /= 2;
    if k == 1 && conflicts > 0 {
        // One colour and an edge: no move can help.
        return Ok(TabuSearch {
            colors: None,
            moves: 0,
        });
    }
    let mut best = conflicts;
    // tabu[v * k + c]: the move until which v may not take colour c.
    let mut tabu = vec![0u64; n * k];
    let mut moves: u64 = 0;
    let mut since_best: u64 = 0;
    while conflicts > 0 {
        if since_best >= stall {
            return Ok(TabuSearch {
                colors: None,
                moves,
            });
        }
        if !poller.tick() {
            return Err(poller.stopped().unwrap_or(Limit::Cancelled));
        }
        // The best move not tabu (or tabu but beating the best count), ties broken at random.
        let mut chosen: Option<(usize, usize)> = None;
        let mut chosen_delta = i64::MAX;
        let mut ties = 0;
        for &v in conflicted.members() {
            let row = &neighbours[v * k..(v + 1) * k];
            let here = i64::from(row[colors[v]]);
            for (c, &there) in row.iter().enumerate() {
                if c == colors[v] {
                    continue;
                }
                let delta = i64::from(there) - here;
                if delta > chosen_delta {
                    continue;
                }
                let improves_best = (conflicts as i64 + delta) < best as i64;
                if tabu[v * k + c] > moves && !improves_best {
                    continue;
                }
                if delta < chosen_delta {
                    chosen_delta = delta;
                    chosen = Some((v, c));
                    ties = 1;
                } else {
                    ties += 1;
                    if rng.below(ties) == 0 {
                        chosen = Some((v, c));
                    }
                }
            }
        }
        let (v, c) = match chosen {
            Some(choice) => choice,
            None => {
                // Every move is tabu: a random one keeps the search going.
                let members = conflicted.members();
                let v = members[rng.below(members.len() as u64) as usize];
                let c = (colors[v] + 1 + rng.below(k as u64 - 1) as usize) % k;
                (v, c)
            }
        };
        let old = colors[v];
        let delta = i64::from(neighbours[v * k + c]) - i64::from(neighbours[v * k + old]);
        colors[v] = c;
        for &u in graph.neighbours(v) {
            let u = u as usize;
            neighbours[u * k + old] -= 1;
            neighbours[u * k + c] += 1;
            if neighbours[u * k + colors[u]] > 0 {
                conflicted.insert(u);
            } else {
                conflicted.remove(u);
            }
        }
        if neighbours[v * k + c] > 0 {
            conflicted.insert(v);
        } else {
            conflicted.remove(v);
        }
        conflicts = (conflicts as i64 + delta) as u64;
        moves += 1;
        let tenure = rng.below(10) + (conflicted.len() as u64 * 6).div_ceil(10);
        tabu[v * k + old] = moves + tenure;
        if conflicts < best {
            best = conflicts;
            since_best = 0;
        } else {
            since_best += 1;
        }
    }
    Ok(TabuSearch {
        colors: Some(colors.into_iter().map(|c| c as u32).collect()),
        moves,
    })
}

/// A set of vertices with O(1) insert, remove and listing.
struct IndexedSet {
    members: Vec<usize>,
    /// The place of each vertex in `members`, or `usize::MAX`.
    place: Vec<usize>,
}

impl IndexedSet {
    fn new(n: usize) -> Self {
        IndexedSet {
            members: Vec::new(),
            place: vec![usize::MAX; n],
        }
    }

    fn insert(&mut self, v: usize) {
        if self.place[v] == usize::MAX {
            self.place[v] = self.members.len();
            self.members.push(v);
        }
    }

    fn remove(&mut self, v: usize) {
        let at = self.place[v];
        if at != usize::MAX {
            let last = self.members.len() - 1;
            self.members.swap(at, last);
            self.place[self.members[at]] = at;
            self.members.pop();
            self.place[v] = usize::MAX;
        }
    }

    fn members(&self) -> &[usize] {
        &self.members
    }

    fn len(&self) -> usize {
        self.members.len()
    }
}
