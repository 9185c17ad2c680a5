//! `ColoringModel`: k-colouring as a CSP on the engine, with symmetry broken on a clique.

use crate::graph::Graph;
use csp::{Limit, Model, ModelError, Poller, Relation, Solution, VarId};

/// One variable per vertex (its colour, 0-based) and `!=` per edge. The vertices of `clique`
/// get the colours 0, 1, 2, ... in advance: any colouring can be renamed to agree, so this
/// loses no colouring up to renaming and removes the k! renamings of each.
#[derive(Debug)]
pub struct ColoringModel {
    /// The model to solve.
    pub model: Model,
    /// The colour of each vertex.
    pub vertices: Vec<VarId>,
    /// With [`ColoringModel::minimizing`], the number of colours used, to minimise.
    pub colors_used: Option<VarId>,
}

/// The most memory a colouring's model and search may take, in bytes (2 GiB).
pub const MAX_MODEL_BYTES: u64 = 2 << 30;

impl ColoringModel {
    /// About how many bytes the model of a graph takes, searched. Measured peaks (GNU time,
    /// 2026-11-22): 205 MB for 1,000,000 vertices and 1 edge, 348 MB for 200,000 vertices and
    /// 2,000,000 edges: about 200 bytes a vertex and 150 an edge, rounded up here.
    pub fn estimated_bytes(graph: &Graph) -> u64 {
        256 * graph.vertex_count() as u64 + 192 * graph.edges().len() as u64
    }

    /// Colourings with at most `k` colours; a graph whose model would need more than
    /// [`MAX_MODEL_BYTES`] is refused before the model is built.
    pub fn new(graph: &Graph, k: u32, clique: &[usize]) -> Result<Self, ModelError> {
        Self::build(graph, k, clique, &mut Poller::unlimited())
    }

    /// As [`ColoringModel::new`], ticking `poller` once per vertex and edge; fails with
    /// [`ModelError::Stopped`] when its limits stop the building (a graph of millions of
    /// vertices takes seconds).
    pub fn build(
        graph: &Graph,
        k: u32,
        clique: &[usize],
        poller: &mut Poller,
    ) -> Result<Self, ModelError> {
        Self::with_cliques(graph, k, clique, &[], poller)
    }

    /// As [`ColoringModel::build`], with an all-different constraint over each of `cliques`
    /// (vertex lists, such as those of [`clique_cover`](crate::clique_cover)) in place of the
    /// `!=` of the edges they cover. Under arc consistency all-different matches vertices to
    /// colours (Régin) and sees more than the edges: eight queens in a row of a queen graph,
    /// with eight colours, must take them all. Dropping the covered edges leaves the same
    /// pruning for fewer propagators to wake; `poller` is ticked once per clique too.
    pub fn with_cliques(
        graph: &Graph,
        k: u32,
        clique: &[usize],
        cliques: &[Vec<usize>],
        poller: &mut Poller,
    ) -> Result<Self, ModelError> {
        let stopped =
            |poller: &Poller| ModelError::Stopped(poller.stopped().unwrap_or(Limit::Cancelled));
        let needed = Self::estimated_bytes(graph);
        if needed > MAX_MODEL_BYTES {
            return Err(ModelError::TooLarge {
                needed,
                max: MAX_MODEL_BYTES,
            });
        }
        let top = i32::try_from(k).map_err(|_| ModelError::TooMany)? - 1;
        if top < 0 {
            return Err(ModelError::EmptyDomain);
        }
        let mut model = Model::new();
        let mut vertices = Vec::with_capacity(graph.vertex_count());
        for v in 0..graph.vertex_count() {
            let fixed = clique.iter().position(|&c| c == v);
            let var = match fixed {
                Some(color) if (color as i32) <= top => {
                    model.new_named_var(format!("vertex {}", v + 1), color as i32..=color as i32)?
                }
                Some(_) => return Err(ModelError::EmptyDomain),
                None => model.new_named_var(format!("vertex {}", v + 1), 0..=top)?,
            };
            vertices.push(var);
            if !poller.tick() {
                return Err(stopped(poller));
            }
        }
        // covered[v]: the neighbours of v it shares a clique with.
        let mut covered: Vec<Vec<u32>> = vec![
            Vec::new();
            if cliques.is_empty() {
                0
            } else {
                graph.vertex_count()
            }
        ];
        let mut scope = Vec::new();
        for members in cliques {
            scope.clear();
            scope.extend(members.iter().map(|&v| vertices[v]));
            model.all_different(&scope)?;
            for &u in members {
                covered[u].extend(members.iter().filter(|&&v| v != u).map(|&v| v as u32));
            }
            if !poller.tick() {
                return Err(stopped(poller));
            }
        }
        for list in &mut covered {
            list.sort_unstable();
            list.dedup();
        }
        for &(u, v) in graph.edges() {
            let in_clique = covered
                .get(u as usize)
                .is_some_and(|list| list.binary_search(&v).is_ok());
            if !in_clique {
                model.not_equal(vertices[u as usize], vertices[v as usize])?;
            }
            if !poller.tick() {
                return Err(stopped(poller));
            }
        }
        Ok(ColoringModel {
            model,
            vertices,
            colors_used: None,
        })
    }

    /// Colourings with at most `k` colours and a variable for the number used (at least the
    /// clique's size), for branch and bound to minimise; built as [`ColoringModel::build`].
    pub fn minimizing(
        graph: &Graph,
        k: u32,
        clique: &[usize],
        poller: &mut Poller,
    ) -> Result<Self, ModelError> {
        let mut coloring = ColoringModel::build(graph, k, clique, poller)?;
        let low = i32::try_from(clique.len().max(1)).map_err(|_| ModelError::TooMany)?;
        let high = i32::try_from(k).map_err(|_| ModelError::TooMany)?;
        let used = coloring
            .model
            .new_named_var("colors used", low.min(high)..=high)?;
        for &v in &coloring.vertices {
            // colour(v) + 1 <= used
            coloring
                .model
                .linear(&[(1, v), (-1, used)], Relation::Le, -1)?;
            if !poller.tick() {
                return Err(ModelError::Stopped(
                    poller.stopped().unwrap_or(Limit::Cancelled),
                ));
            }
        }
        coloring.colors_used = Some(used);
        Ok(coloring)
    }

    /// The colour of each vertex in a solution, from 0.
    pub fn colors(&self, solution: &Solution<'_>) -> Vec<u32> {
        self.vertices
            .iter()
            .map(|&v| solution.value(v) as u32)
            .collect()
    }
}
