//! `csp color --min`: the chromatic number, squeezed between a largest clique and colourings
//! from DSATUR, TabuCol and then complete searches with one colour fewer each time.

use super::{stopped, ColorJob, Done, Early};
use crate::exit_code::Status;
use crate::signals::Signals;
use crate::wording::count;
use coloring::{bounds, largest_clique, tabucol, Graph, TabuSearch, CLIQUE_NODES};
use csp::{Limit, Outcome, Poller, Statistics, Summary};

/// TabuCol gives up on a number of colours after this many moves without fewer conflicts,
/// plus [`TABU_STALL_PER_CELL`] per vertex and colour: larger graphs wander longer.
const TABU_STALL: u64 = 200_000;
const TABU_STALL_PER_CELL: u64 = 20;

/// What the run knows so far: the best colouring and the figures of its searches.
struct Best {
    colors: Vec<u32>,
    k: u32,
    stats: Statistics,
}

impl Best {
    fn new(colors: Vec<u32>) -> Self {
        let k = bounds::colors_used(&colors);
        Best {
            colors,
            k,
            stats: Statistics::default(),
        }
    }

    /// Keeps `colors` if it uses fewer colours (every colouring reaching here is checked).
    fn offer(&mut self, colors: Vec<u32>) -> bool {
        let k = bounds::colors_used(&colors);
        if k < self.k {
            self.colors = colors;
            self.k = k;
            return true;
        }
        false
    }

    /// The run ends with this colouring proven optimal.
    fn optimal(self) -> Done {
        eprintln!("colors {} optimal", self.k);
        let summary = Summary {
            outcome: Outcome::Exhausted,
            stats: self.stats,
        };
        (Status::Success, Some(summary), Some(self.colors))
    }

    /// The run ends on `limit` with this colouring, not proven optimal.
    fn stopped(self, limit: Limit, signals: &Signals) -> Done {
        eprintln!("colors {} best found, not proven", self.k);
        let summary = Summary {
            outcome: Outcome::LimitReached(limit),
            stats: self.stats,
        };
        let status = stopped(&summary, signals).unwrap_or(Status::Limit);
        (status, Some(summary), Some(self.colors))
    }
}

impl ColorJob {
    /// `best` is optimal because `clique` needs as many colours; under `--proof`, the proof
    /// of that (a search for one colour fewer, which fails at once) is written first.
    fn optimal_by_clique(
        &self,
        graph: &Graph,
        best: Best,
        clique: Vec<usize>,
        poller: &mut Poller,
    ) -> Result<Done, Early> {
        if self.proof.is_some() && best.k > 1 {
            self.clique_proof(graph, best.k - 1, clique, poller)?;
        }
        Ok(best.optimal())
    }

    /// The chromatic number. DSATUR comes first, so that a run stopped later still has a
    /// colouring to print; a largest clique bounds it from below; TabuCol takes colours away
    /// while it can; then a complete search for one colour fewer than the best, again and
    /// again, until one proves that none exists. So `--min` does at least what a user trying
    /// `--colors K` for smaller and smaller K would, from a better start.
    pub(super) fn minimum(
        &self,
        graph: &Graph,
        poller: &mut Poller,
        signals: &Signals,
    ) -> Result<Done, Early> {
        let dsatur = bounds::dsatur(graph, poller)
            .map_err(|limit| Early::Stopped(limit, "colouring by DSATUR"))?;
        let mut best = Best::new(dsatur);
        eprintln!(
            "csp color: DSATUR uses {}",
            count(best.k, "colour", "colours")
        );
        let clique = match largest_clique(graph, CLIQUE_NODES, poller) {
            Ok(clique) => clique,
            Err(limit) => return Ok(best.stopped(limit, signals)),
        };
        let lower = clique
            .members
            .len()
            .max(usize::from(graph.vertex_count() > 0)) as u32;
        let how = if clique.proven {
            "none is larger".to_owned()
        } else {
            format!(
                "the largest found in {}; a larger one may exist",
                count(clique.nodes, "node", "nodes")
            )
        };
        eprintln!(
            "csp color: a clique of {} needs as many colours ({how})",
            count(lower, "vertex", "vertices"),
        );
        if best.k <= lower {
            return self.optimal_by_clique(graph, best, clique.members, poller);
        }

        let cells = graph.vertex_count() as u64 * u64::from(best.k);
        let stall = TABU_STALL.saturating_add(TABU_STALL_PER_CELL.saturating_mul(cells));
        while best.k > lower {
            let k = best.k - 1;
            match tabucol(graph, k, &best.colors, stall, self.seed, poller) {
                Ok(TabuSearch { colors, moves }) => {
                    best.stats.moves += moves;
                    let improved = colors.is_some_and(|c| graph.is_proper(&c) && best.offer(c));
                    if !improved {
                        break;
                    }
                    eprintln!(
                        "csp color: TabuCol finds a colouring with {}",
                        count(best.k, "colour", "colours")
                    );
                }
                Err(limit) => return Ok(best.stopped(limit, signals)),
            }
        }
        if best.k <= lower {
            return self.optimal_by_clique(graph, best, clique.members, poller);
        }

        let cliques = match self.redundant_cliques(graph, poller) {
            Ok(cliques) => cliques,
            Err(Early::Stopped(limit, _)) => return Ok(best.stopped(limit, signals)),
            Err(early) => return Err(early),
        };
        while best.k > lower {
            let k = best.k - 1;
            // The node limit is the run's, shared by its searches.
            let limits = self.limits.less_nodes(best.stats.nodes);
            let (summary, found) =
                match self.first_colouring(graph, k, &clique.members, &cliques, limits, poller) {
                    Ok(done) => done,
                    Err(Early::Stopped(limit, _)) => return Ok(best.stopped(limit, signals)),
                    Err(early) => return Err(early),
                };
            best.stats.add(&summary.stats);
            match (found, summary.outcome) {
                (Some(colors), _) => {
                    best.offer(colors);
                    eprintln!(
                        "csp color: the search finds a colouring with {}",
                        count(best.k, "colour", "colours")
                    );
                }
                (None, Outcome::LimitReached(limit)) => {
                    return Ok(best.stopped(limit, signals));
                }
                (None, _) => {
                    eprintln!("csp color: no {k}-colouring exists (the search is complete)");
                    return Ok(best.optimal());
                }
            }
        }
        Ok(best.optimal())
    }
}
