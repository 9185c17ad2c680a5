//! `DimacsReader`: the DIMACS `.col` format, fed one line at a time.
//!
//! `c` lines are comments, `p edge V E` (or `p col V E`) declares the graph, `e u v` adds an
//! edge between 1-based vertices, and `n v w` gives a vertex a value (weighted colouring
//! files have them), which colouring does not use. Repeated edges and self-loops, which some
//! published files contain, are dropped and counted, and so are `n` lines and the `e` lines
//! against the count the `p` line declared, so that the caller can mention them.

use crate::graph::Graph;
use std::fmt;

/// A line that does not fit the format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DimacsError {
    /// The line (1-based).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for DimacsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for DimacsError {}

/// What was read: the graph and what was dropped from it.
#[derive(Clone, Debug)]
pub struct DimacsGraph {
    /// The graph, vertices 0-based.
    pub graph: Graph,
    /// The edge count the `p` line announced.
    pub declared_edges: usize,
    /// The `e` lines read (self-loops and repeats included), to hold against `declared_edges`.
    pub edge_lines: usize,
    /// The `n` lines (vertex values) read and ignored.
    pub value_lines: usize,
    /// Edges listed more than once (counted once).
    pub repeated_edges: usize,
    /// Edges from a vertex to itself (dropped).
    pub self_loops: usize,
}

/// Reads a DIMACS graph line by line.
#[derive(Debug, Default)]
pub struct DimacsReader {
    vertices: Option<usize>,
    declared_edges: usize,
    edges: Vec<(u32, u32)>,
    self_loops: usize,
    edge_lines: usize,
    value_lines: usize,
}

/// The most vertices a graph may declare: 4,194,304, whose model takes about 1 GB (see
/// [`ColoringModel::estimated_bytes`](crate::ColoringModel::estimated_bytes)). Checked on the
/// `p` line, before the graph is allocated.
pub const MAX_VERTICES: usize = 1 << 22;

impl DimacsReader {
    /// A reader with nothing read yet.
    pub fn new() -> Self {
        DimacsReader::default()
    }

    /// Reads line `number` (1-based).
    pub fn feed(&mut self, number: usize, line: &str) -> Result<(), DimacsError> {
        let fail = |message: String| DimacsError {
            line: number,
            message,
        };
        let mut words = line.split_whitespace();
        match words.next() {
            None | Some("c") => Ok(()),
            Some(w) if w.starts_with('c') => Ok(()),
            Some("p") => {
                if self.vertices.is_some() {
                    return Err(fail("a second 'p' line".into()));
                }
                let kind = words.next().unwrap_or("");
                if kind != "edge" && kind != "col" && kind != "edges" {
                    return Err(fail(format!("'p {kind}': expected 'p edge V E'")));
                }
                let v = number_word(words.next(), "the vertex count").map_err(fail)?;
                let e = number_word(words.next(), "the edge count").map_err(fail)?;
                if v > MAX_VERTICES {
                    return Err(fail(format!(
                        "{v} vertices; at most {MAX_VERTICES} are supported"
                    )));
                }
                self.vertices = Some(v);
                self.declared_edges = e;
                self.edges.reserve(e.min(1 << 20));
                Ok(())
            }
            Some("e") => {
                let Some(n) = self.vertices else {
                    return Err(fail("an edge before the 'p edge V E' line".into()));
                };
                let u = number_word(words.next(), "the first vertex").map_err(fail)?;
                let v = number_word(words.next(), "the second vertex").map_err(fail)?;
                for x in [u, v] {
                    if x == 0 || x > n {
                        return Err(fail(format!("vertex {x} is not between 1 and {n}")));
                    }
                }
                self.edge_lines += 1;
                if u == v {
                    self.self_loops += 1;
                } else {
                    self.edges.push(((u - 1) as u32, (v - 1) as u32));
                }
                Ok(())
            }
            Some("n") => {
                let Some(n) = self.vertices else {
                    return Err(fail("a vertex value before the 'p edge V E' line".into()));
                };
                let v = number_word(words.next(), "the vertex").map_err(fail)?;
                if v == 0 || v > n {
                    return Err(fail(format!("vertex {v} is not between 1 and {n}")));
                }
                self.value_lines += 1;
                Ok(())
            }
            Some(other) => Err(fail(format!(
                "'{other}' lines are not DIMACS graph lines (c, p, e, n)"
            ))),
        }
    }

    /// The graph read, once every line has been fed.
    pub fn finish(self, last_line: usize) -> Result<DimacsGraph, DimacsError> {
        let Some(vertices) = self.vertices else {
            return Err(DimacsError {
                line: last_line,
                message: "no 'p edge V E' line".into(),
            });
        };
        let listed = self.edges.len();
        let graph = Graph::new(vertices, self.edges);
        Ok(DimacsGraph {
            repeated_edges: listed - graph.edges().len(),
            declared_edges: self.declared_edges,
            edge_lines: self.edge_lines,
            value_lines: self.value_lines,
            self_loops: self.self_loops,
            graph,
        })
    }
}

fn number_word(word: Option<&str>, what: &str) -> Result<usize, String> {
    let word = word.ok_or_else(|| format!("{what} is missing"))?;
    word.parse()
        .map_err(|_| format!("{what} '{word}' is not a whole number"))
}
