//! `--html`, `--trace-json` and `--tree`: the records of one search that a command can write
//! beside its normal output.

use crate::args::RecordArgs;
use crate::events::{Fanout, Header, Recorder};
use crate::replay::{self, Board};
use crate::search_options::SearchSettings;
use crate::trace_json::TraceJson;
use crate::tree::Tree;
use csp::{Limits, Model, Observer};

/// The records asked for, open while the search runs.
pub struct Recordings {
    json: Option<Recorder<TraceJson>>,
    tree: Option<Recorder<Tree>>,
    args: RecordArgs,
    problem: String,
}

impl Recordings {
    /// Opens the files asked for (the trace's header is written at once).
    pub fn open(
        args: &RecordArgs,
        model: &Model,
        problem: &str,
        config: &str,
    ) -> Result<Self, String> {
        let json = match &args.trace_json {
            Some(path) => Some(Recorder(TraceJson::create(
                path,
                &Header::new(model, problem, config),
            )?)),
            None => None,
        };
        let tree = args.tree.as_ref().map(|_| {
            let names = model
                .vars()
                .map(|v| {
                    model
                        .var_name(v)
                        .map_or_else(|| v.to_string(), str::to_owned)
                })
                .collect();
            Recorder(Tree::new(names))
        });
        Ok(Recordings {
            json,
            tree,
            args: args.clone(),
            problem: problem.to_owned(),
        })
    }

    /// The observers to attach, beside any the command has of its own.
    pub fn observers(&mut self) -> Vec<&mut dyn Observer> {
        let mut list: Vec<&mut dyn Observer> = Vec::new();
        if let Some(json) = self.json.as_mut() {
            list.push(json);
        }
        if let Some(tree) = self.tree.as_mut() {
            list.push(tree);
        }
        list
    }

    /// Writes what is left to write; returns an error message if any file failed.
    pub fn finish(
        self,
        model: &Model,
        board: Board,
        search: &SearchSettings,
        limits: &Limits,
        max_solutions: Option<u64>,
    ) -> Result<(), String> {
        if let (Some(Recorder(json)), Some(path)) = (self.json, &self.args.trace_json) {
            if let Some(e) = json.finish() {
                return Err(format!("cannot write {}: {e}", path.display()));
            }
        }
        if let (Some(Recorder(tree)), Some(path)) = (self.tree, &self.args.tree) {
            if tree.truncated {
                eprintln!(
                    "csp: warning: the search tree was cut at {} nodes; --tree is meant for small instances",
                    crate::tree::MAX_TREE_NODES
                );
            }
            std::fs::write(path, tree.to_dot(&self.problem))
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        if let Some(path) = &self.args.html {
            let message = replay::single(
                path,
                model,
                board,
                &self.problem,
                search,
                limits,
                max_solutions,
            )?;
            eprintln!("{message}");
        }
        Ok(())
    }
}

/// The recordings' observers and `extra` as one, or `None` when there are none, so that the
/// caller runs the plain, fastest loop.
pub fn observers<'a>(
    recordings: &'a mut Recordings,
    extra: Option<&'a mut dyn Observer>,
) -> Option<Fanout<'a>> {
    let mut list = recordings.observers();
    if let Some(o) = extra {
        list.push(o);
    }
    (!list.is_empty()).then_some(Fanout(list))
}
