//! `chromatic_number` and `colour_with` against the published chromatic numbers and brute force.

use crate::dimacs_graphs::{load, published};
use crate::random_graphs::{brute_force_colorings, random_graph};
use coloring::{
    chromatic_number, colour_with, Chromatic, ChromaticSettings, ColoringModel, ColouringSearch,
    Graph, KColouring, Searched, Step,
};
use csp::{Inference, Limit, Limits, Outcome, Poller, Solver, SplitMix64};
use std::ops::ControlFlow;

/// A plain search under `inference`, counting the steps it is told of.
struct Plain {
    inference: Inference,
    searches: u32,
    steps: Vec<String>,
}

impl Plain {
    fn new(inference: Inference) -> Self {
        Plain {
            inference,
            searches: 0,
            steps: Vec::new(),
        }
    }
}

impl ColouringSearch for Plain {
    type Error = ();

    fn first(&mut self, model: &ColoringModel, _k: u32, limits: Limits) -> Result<Searched, ()> {
        self.searches += 1;
        let mut found = None;
        let summary = Solver::new(&model.model)
            .inference(self.inference)
            .limits(limits)
            .solve(|s| {
                found = Some(model.colors(s));
                ControlFlow::Break(())
            });
        Ok((summary, found))
    }

    fn step(&mut self, step: Step<'_>) {
        self.steps.push(format!("{step:?}"));
    }
}

fn settings(redundant_cliques: bool, prove_clique_bounds: bool) -> ChromaticSettings {
    ChromaticSettings {
        seed: 1,
        redundant_cliques,
        prove_clique_bounds,
        limits: Limits::none(),
    }
}

/// The chromatic number by the driver under `inference`, and the search it used.
fn by_driver(
    graph: &Graph,
    settings: &ChromaticSettings,
    inference: Inference,
) -> (Chromatic, Plain) {
    let mut search = Plain::new(inference);
    let found = chromatic_number(graph, settings, &mut search, &mut Poller::unlimited()).unwrap();
    (found, search)
}

/// The smallest k with a proper colouring, by brute force (a graph with a vertex or more).
fn brute_force_chromatic(graph: &Graph) -> u32 {
    (1..)
        .find(|&k| brute_force_colorings(graph, k) > 0)
        .unwrap()
}

#[test]
fn the_chromatic_number_of_each_dimacs_graph_is_the_published_one() {
    for (name, _, _, chromatic) in published() {
        let graph = &load(&name).graph;
        for (inference, redundant) in [(Inference::Mac, true), (Inference::ForwardChecking, false)]
        {
            let (found, search) = by_driver(graph, &settings(redundant, false), inference);
            assert!(found.optimal(), "{name}: {:?}", search.steps);
            assert_eq!(found.colours(), chromatic, "{name}, {inference:?}");
            assert!(graph.is_proper(&found.colors), "{name}");
            assert!(search.steps[0].starts_with("Dsatur"), "{:?}", search.steps);
        }
    }
}

#[test]
fn the_drivers_agree_with_brute_force_on_random_graphs() {
    let mut rng = SplitMix64::new(11);
    for case in 0..120 {
        let graph = random_graph(&mut rng, 1, 7, 16);
        let chromatic = brute_force_chromatic(&graph);
        let prove = case % 2 == 0;
        let (found, _) = by_driver(&graph, &settings(true, prove), Inference::Mac);
        assert!(found.optimal(), "case {case}");
        assert_eq!(found.colours(), chromatic, "case {case}");
        assert!(graph.is_proper(&found.colors), "case {case}");
        for k in 1..=chromatic + 1 {
            let mut search = Plain::new(Inference::ForwardChecking);
            let answer = colour_with(
                &graph,
                k,
                &settings(false, prove),
                &mut search,
                &mut Poller::unlimited(),
            )
            .unwrap();
            match answer {
                KColouring::Found { colors, .. } => {
                    assert!(k >= chromatic, "case {case}, k = {k}");
                    assert!(graph.is_proper(&colors) && colors.iter().all(|&c| c < k));
                }
                KColouring::CliqueTooLarge { clique, summary } => {
                    assert!(k < chromatic && clique.len() > k as usize, "case {case}");
                    for (i, &u) in clique.iter().enumerate() {
                        assert!(clique[..i].iter().all(|&v| graph.adjacent(u, v)));
                    }
                    // Under the proof setting a search ran, and found nothing.
                    assert_eq!(summary.is_some(), prove, "case {case}");
                    assert_eq!(search.searches, u32::from(prove), "case {case}");
                }
                KColouring::NotFound { summary } => {
                    assert!(k < chromatic, "case {case}, k = {k}");
                    assert_eq!(summary.outcome, Outcome::Exhausted, "case {case}");
                }
            }
        }
    }
}

#[test]
fn a_node_limit_ends_the_chromatic_number_with_the_best_colouring_found() {
    // queen6_6 needs 7 colours; DSATUR and TabuCol alone do not show it, so the searches run
    // until the node limit stops them, and the best colouring so far is the answer.
    let graph = &load("queen6_6").graph;
    let mut settings = settings(false, false);
    settings.limits = Limits::none().with_nodes(Some(10));
    let (found, _) = by_driver(graph, &settings, Inference::ForwardChecking);
    assert_eq!(found.summary.outcome, Outcome::LimitReached(Limit::Nodes));
    assert!(!found.optimal());
    assert!(graph.is_proper(&found.colors));
    assert!(found.colours() >= 7, "{}", found.colours());
}
