//! `chromatic_number` and `colour_with`: bounds first, then complete searches, for the fewest
//! colours or a colouring with K.

use crate::bounds;
use crate::clique::{largest_clique, CLIQUE_NODES};
use crate::clique_cover::clique_cover;
use crate::graph::Graph;
use crate::model::ColoringModel;
use crate::tabucol::{tabucol, TabuSearch};
use csp::{Limit, Limits, ModelError, Outcome, Poller, Statistics, Summary};
use std::fmt;

/// Under arc consistency, all-different constraints are added over cliques of at least this
/// many vertices that cover the edges. Triangles would be too, but a random graph has so many
/// that the search slows more than it gains.
pub const REDUNDANT_CLIQUE: usize = 4;

/// TabuCol gives up on a number of colours after this many moves without fewer conflicts,
/// plus [`TABU_STALL_PER_CELL`] per vertex and colour: larger graphs wander longer.
const TABU_STALL: u64 = 200_000;
const TABU_STALL_PER_CELL: u64 = 20;

/// A search's figures and the colouring it found, if any.
pub type Searched = (Summary, Option<Vec<u32>>);

/// How the drivers search.
#[derive(Clone, Debug)]
pub struct ChromaticSettings {
    /// The seed of TabuCol.
    pub seed: u64,
    /// All-different over cliques of [`REDUNDANT_CLIQUE`] or more vertices that cover the
    /// edges, in place of their `!=`: worth it where the search keeps arc consistency.
    pub redundant_cliques: bool,
    /// Search even where a clique settles the question, on the model with that clique's
    /// all-different and nothing coloured in advance, so that a proof log holds a (short)
    /// proof of it.
    pub prove_clique_bounds: bool,
    /// The limits of the searches; their node limit is shared by all of a run's searches.
    pub limits: Limits,
}

/// The complete search the drivers call for each number of colours, and what they tell it
/// as they go. Only [`ColouringSearch::first`] is required.
pub trait ColouringSearch {
    /// Why a search could not run (a proof file that cannot be written, say).
    type Error;

    /// A search for the first colouring `model` has (at most `k` colours), within `limits`:
    /// its figures and the colouring found. The driver checks the colouring is proper.
    fn first(
        &mut self,
        model: &ColoringModel,
        k: u32,
        limits: Limits,
    ) -> Result<Searched, Self::Error>;

    /// Told of each step of [`chromatic_number`] and [`colour_with`] as it is taken. By default, nothing.
    fn step(&mut self, _step: Step<'_>) {}
}

/// A step of [`chromatic_number`] or [`colour_with`].
#[derive(Clone, Copy, Debug)]
pub enum Step<'a> {
    /// DSATUR coloured the graph with this many colours.
    Dsatur(u32),
    /// A clique bounds the chromatic number from below.
    Clique {
        /// Its vertices.
        members: &'a [usize],
        /// No clique is larger; else it is the largest found in `nodes` nodes.
        proven: bool,
        /// The nodes its search took.
        nodes: u64,
    },
    /// TabuCol found a colouring with this many colours.
    Tabu(u32),
    /// A complete search found a colouring with this many colours.
    Found(u32),
    /// A complete search proved there is no colouring with this many colours.
    NoneWith(u32),
    /// [`colour_with`] found a clique of more than `k` vertices, so no `k`-colouring exists;
    /// told before the search that proves it under
    /// [`ChromaticSettings::prove_clique_bounds`].
    CliqueExceeds {
        /// The clique's vertices.
        members: &'a [usize],
        /// The number of colours asked for.
        k: u32,
    },
}

/// What a driver was doing when a limit stopped it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Colouring the graph by DSATUR.
    Dsatur,
    /// Looking for a largest clique.
    Clique,
    /// Covering the edges with cliques.
    Cover,
    /// Building a model.
    Building,
    /// Searching (TabuCol or a complete search).
    Searching,
}

impl Phase {
    /// What it was doing, as a phrase: "colouring by DSATUR".
    pub fn doing(self) -> &'static str {
        match self {
            Phase::Dsatur => "colouring by DSATUR",
            Phase::Clique => "looking for a clique",
            Phase::Cover => "covering the edges with cliques",
            Phase::Building => "building the model",
            Phase::Searching => "searching for a colouring",
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.doing())
    }
}

/// Why a driver gave no answer.
#[derive(Debug)]
pub enum ChromaticError<E> {
    /// A limit stopped it before it had a colouring.
    Stopped(Limit, Phase),
    /// The model could not be built (too large, say).
    Model(ModelError),
    /// The search could not run.
    Search(E),
    /// A search returned a colouring that is not proper: a bug, caught before anyone sees it.
    NotProper,
    /// A search coloured a clique of more than `k` vertices with `k` colours: a bug.
    CliqueColoured(u32),
}

/// The fewest colours found: optimal when `summary.outcome` is [`Outcome::Exhausted`], the
/// best found when a limit stopped the run.
#[derive(Clone, Debug)]
pub struct Chromatic {
    /// Each vertex's colour, from 0; checked proper.
    pub colors: Vec<u32>,
    /// How the run ended, with the figures of its searches (TabuCol's moves included).
    pub summary: Summary,
}

impl Chromatic {
    /// How many colours `colors` uses.
    pub fn colours(&self) -> u32 {
        bounds::colors_used(&self.colors)
    }

    /// Whether no colouring with fewer colours exists.
    pub fn optimal(&self) -> bool {
        self.summary.outcome == Outcome::Exhausted
    }
}

/// The answer of [`colour_with`].
#[derive(Clone, Debug)]
pub enum KColouring {
    /// A colouring with at most K colours, checked proper.
    Found {
        /// Each vertex's colour, from 0.
        colors: Vec<u32>,
        /// The search's figures.
        summary: Summary,
    },
    /// None exists: this clique has more than K vertices. With
    /// [`ChromaticSettings::prove_clique_bounds`], the figures of the search that proved it.
    CliqueTooLarge {
        /// The clique's vertices.
        clique: Vec<usize>,
        /// The proof search's figures, if one ran.
        summary: Option<Summary>,
    },
    /// The search found none: none exists if it ran to its end, else a limit stopped it.
    NotFound {
        /// The search's figures and how it ended.
        summary: Summary,
    },
}

/// The chromatic number of `graph`. DSATUR comes first, so that a run stopped later still
/// has a colouring; a largest clique bounds it from below; TabuCol takes colours away while
/// it can; then a complete search for one colour fewer than the best, again and again, until
/// one proves that none exists. So it does at least what a user trying K colours for smaller
/// and smaller K would, from a better start. A limit after DSATUR ends the run with the best
/// colouring found.
pub fn chromatic_number<S: ColouringSearch>(
    graph: &Graph,
    settings: &ChromaticSettings,
    search: &mut S,
    poller: &mut Poller,
) -> Result<Chromatic, ChromaticError<S::Error>> {
    let dsatur = bounds::dsatur(graph, poller)
        .map_err(|limit| ChromaticError::Stopped(limit, Phase::Dsatur))?;
    let mut best = Best::new(dsatur);
    let mut driver = Driver {
        graph,
        settings,
        search,
    };
    driver.search.step(Step::Dsatur(best.k));
    match driver.narrow(&mut best, poller) {
        Ok(()) => Ok(best.end(Outcome::Exhausted)),
        Err(ChromaticError::Stopped(limit, _)) => Ok(best.end(Outcome::LimitReached(limit))),
        Err(error) => Err(error),
    }
}

/// A colouring of `graph` with at most `k` colours, or the proof that there is none: by the
/// largest clique found, else by a complete search from that clique's colours.
pub fn colour_with<S: ColouringSearch>(
    graph: &Graph,
    k: u32,
    settings: &ChromaticSettings,
    search: &mut S,
    poller: &mut Poller,
) -> Result<KColouring, ChromaticError<S::Error>> {
    let mut driver = Driver {
        graph,
        settings,
        search,
    };
    // The same clique as the chromatic number's: the larger, the more colours fixed early.
    let clique = largest_clique(graph, CLIQUE_NODES, poller)
        .map_err(|limit| ChromaticError::Stopped(limit, Phase::Clique))?
        .members;
    if clique.len() > k as usize {
        driver.search.step(Step::CliqueExceeds {
            members: &clique,
            k,
        });
        let summary = if settings.prove_clique_bounds {
            Some(driver.clique_proof(k, clique.clone(), poller)?)
        } else {
            None
        };
        return Ok(KColouring::CliqueTooLarge { clique, summary });
    }
    let cliques = driver.redundant_cliques(poller)?;
    let (summary, found) =
        driver.first_colouring(k, &clique, &cliques, settings.limits.clone(), poller)?;
    Ok(match found {
        Some(colors) => KColouring::Found { colors, summary },
        None => KColouring::NotFound { summary },
    })
}

/// The best colouring so far and the figures of the searches.
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

    fn end(self, outcome: Outcome) -> Chromatic {
        Chromatic {
            colors: self.colors,
            summary: Summary {
                outcome,
                stats: self.stats,
            },
        }
    }
}

/// A graph, the settings and the search, for the steps both drivers share.
struct Driver<'a, S> {
    graph: &'a Graph,
    settings: &'a ChromaticSettings,
    search: &'a mut S,
}

impl<S: ColouringSearch> Driver<'_, S> {
    /// Takes colours away from `best` until a clique or a complete search shows none can go:
    /// `Ok` when `best` is optimal, `Err(Stopped)` when a limit came first.
    fn narrow(
        &mut self,
        best: &mut Best,
        poller: &mut Poller,
    ) -> Result<(), ChromaticError<S::Error>> {
        let graph = self.graph;
        let clique = largest_clique(graph, CLIQUE_NODES, poller)
            .map_err(|limit| ChromaticError::Stopped(limit, Phase::Clique))?;
        let lower = clique
            .members
            .len()
            .max(usize::from(graph.vertex_count() > 0)) as u32;
        self.search.step(Step::Clique {
            members: &clique.members,
            proven: clique.proven,
            nodes: clique.nodes,
        });
        if best.k <= lower {
            return self.optimal_by_clique(best.k, clique.members, poller);
        }

        let cells = graph.vertex_count() as u64 * u64::from(best.k);
        let stall = TABU_STALL.saturating_add(TABU_STALL_PER_CELL.saturating_mul(cells));
        while best.k > lower {
            let k = best.k - 1;
            let TabuSearch { colors, moves } =
                tabucol(graph, k, &best.colors, stall, self.settings.seed, poller)
                    .map_err(|limit| ChromaticError::Stopped(limit, Phase::Searching))?;
            best.stats.moves += moves;
            let improved = colors.is_some_and(|c| graph.is_proper(&c) && best.offer(c));
            if !improved {
                break;
            }
            self.search.step(Step::Tabu(best.k));
        }
        if best.k <= lower {
            return self.optimal_by_clique(best.k, clique.members, poller);
        }

        let cliques = self.redundant_cliques(poller)?;
        while best.k > lower {
            let k = best.k - 1;
            // The node limit is the run's, shared by its searches.
            let limits = self.settings.limits.less_nodes(best.stats.nodes);
            let (summary, found) =
                self.first_colouring(k, &clique.members, &cliques, limits, poller)?;
            best.stats.add(&summary.stats);
            match (found, summary.outcome) {
                (Some(colors), _) => {
                    best.offer(colors);
                    self.search.step(Step::Found(best.k));
                }
                (None, Outcome::LimitReached(limit)) => {
                    return Err(ChromaticError::Stopped(limit, Phase::Searching));
                }
                (None, _) => {
                    self.search.step(Step::NoneWith(k));
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    /// `k` colours are optimal because `clique` needs as many; with `prove_clique_bounds`,
    /// the search for one colour fewer (which fails at once) runs first.
    fn optimal_by_clique(
        &mut self,
        k: u32,
        clique: Vec<usize>,
        poller: &mut Poller,
    ) -> Result<(), ChromaticError<S::Error>> {
        if self.settings.prove_clique_bounds && k > 1 {
            // The clique proves `k` optimal whether or not this search ends: a proof cut
            // short is the proof log's to report.
            self.clique_proof(k - 1, clique, poller)?;
        }
        Ok(())
    }

    /// The search for a `k`-colouring when a clique of more than `k` vertices settles it,
    /// on the model with that clique's all-different and nothing coloured in advance.
    fn clique_proof(
        &mut self,
        k: u32,
        clique: Vec<usize>,
        poller: &mut Poller,
    ) -> Result<Summary, ChromaticError<S::Error>> {
        let mut cliques = self.redundant_cliques(poller)?;
        cliques.push(clique);
        let limits = self.settings.limits.clone();
        let (summary, found) = self.first_colouring(k, &[], &cliques, limits, poller)?;
        if found.is_some() {
            return Err(ChromaticError::CliqueColoured(k));
        }
        Ok(summary)
    }

    /// A search for a colouring with at most `k` colours, the colours of `clique` fixed and
    /// all-different over `cliques`: its figures and the colouring found, checked proper.
    fn first_colouring(
        &mut self,
        k: u32,
        clique: &[usize],
        cliques: &[Vec<usize>],
        limits: Limits,
        poller: &mut Poller,
    ) -> Result<Searched, ChromaticError<S::Error>> {
        let model = ColoringModel::with_cliques(self.graph, k, clique, cliques, poller).map_err(
            |error| match error {
                ModelError::Stopped(limit) => ChromaticError::Stopped(limit, Phase::Building),
                error => ChromaticError::Model(error),
            },
        )?;
        let (summary, found) = self
            .search
            .first(&model, k, limits)
            .map_err(ChromaticError::Search)?;
        if found
            .as_ref()
            .is_some_and(|colors| !self.graph.is_proper(colors))
        {
            return Err(ChromaticError::NotProper);
        }
        Ok((summary, found))
    }

    /// The cliques whose all-different constraints the model gets, if the settings ask.
    fn redundant_cliques(
        &mut self,
        poller: &mut Poller,
    ) -> Result<Vec<Vec<usize>>, ChromaticError<S::Error>> {
        if !self.settings.redundant_cliques {
            return Ok(Vec::new());
        }
        clique_cover(self.graph, REDUNDANT_CLIQUE, poller)
            .map_err(|limit| ChromaticError::Stopped(limit, Phase::Cover))
    }
}
