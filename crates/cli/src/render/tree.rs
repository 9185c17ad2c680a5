//! `--tree FILE.dot`: the search tree in Graphviz DOT, for small instances.
//!
//! Each node is an assignment, under the node it was made in. Green nodes lead to a solution
//! (doubled border: the solution itself), red ones failed at once, grey ones were explored and
//! exhausted. Past a size a drawing no longer helps, so the tree stops growing there and says so.

use crate::events::{Event, EventSink};
use crate::render::replay::Board;
use std::fmt::Write as _;

/// The most nodes drawn.
pub const MAX_TREE_NODES: usize = 2000;

/// Builds the tree as events arrive.
pub struct Tree {
    names: Vec<String>,
    board: Board,
    /// (id, label, state) per node.
    nodes: Vec<(usize, String, &'static str)>,
    edges: Vec<(usize, usize)>,
    /// The open path: node ids from the root.
    path: Vec<usize>,
    pub truncated: bool,
}

impl Tree {
    /// `names` are the variable names, used in labels; `board` says how a value reads (a
    /// queen's column from 1, as every human view counts them).
    pub fn new(names: Vec<String>, board: Board) -> Self {
        Tree {
            names,
            board,
            nodes: vec![(0, "root".to_owned(), "open")],
            edges: Vec::new(),
            path: vec![0],
            truncated: false,
        }
    }

    pub fn to_dot(&self, title: &str) -> String {
        let mut out = format!(
            "digraph search {{\n  label=\"{}\";\n  node [shape=box, style=\"rounded,filled\", fontname=\"sans-serif\"];\n",
            title.replace('"', "'")
        );
        for (id, label, state) in &self.nodes {
            let (fill, extra) = match *state {
                "solution" => ("palegreen", ", peripheries=2"),
                "failed" => ("mistyrose", ""),
                "on_path" => ("honeydew", ""),
                _ => ("whitesmoke", ""),
            };
            let _ = writeln!(
                out,
                "  n{id} [label=\"{}\", fillcolor={fill}{extra}];",
                label.replace('"', "'")
            );
        }
        for (from, to) in &self.edges {
            let _ = writeln!(out, "  n{from} -> n{to};");
        }
        if self.truncated {
            let _ = writeln!(out, "  more [label=\"... tree cut at {MAX_TREE_NODES} nodes\", shape=plaintext, style=\"\"];");
        }
        out.push_str("}\n");
        out
    }

    fn mark_path(&mut self, state: &'static str) {
        for &id in &self.path {
            if let Some(node) = self.nodes.get_mut(id) {
                if node.2 != "solution" {
                    node.2 = state;
                }
            }
        }
    }
}

impl EventSink for Tree {
    fn event(&mut self, event: Event) {
        match event {
            Event::Assign { var, value, .. } => {
                if self.nodes.len() >= MAX_TREE_NODES {
                    self.truncated = true;
                    self.path.push(usize::MAX);
                    return;
                }
                let id = self.nodes.len();
                let name = self.names.get(var as usize).cloned().unwrap_or_default();
                let label = match self.board {
                    Board::Queens => format!("{name}: column {}", i64::from(value) + 1),
                    Board::Sudoku(_) | Board::Generic => format!("{name} = {value}"),
                };
                self.nodes.push((id, label, "open"));
                if let Some(&parent) = self.path.last() {
                    if parent != usize::MAX {
                        self.edges.push((parent, id));
                    }
                }
                self.path.push(id);
            }
            Event::Wipeout { .. } | Event::Violation { .. } => {
                if let Some(&id) = self.path.last() {
                    if let Some(node) = self.nodes.get_mut(id) {
                        node.2 = "failed";
                    }
                }
            }
            Event::Solution { .. } => {
                if let Some(&id) = self.path.last() {
                    if let Some(node) = self.nodes.get_mut(id) {
                        node.2 = "solution";
                    }
                }
                self.mark_path("on_path");
            }
            Event::Backtrack { .. } => {
                self.path.pop();
            }
            Event::Prune { .. } => {}
        }
    }
}
