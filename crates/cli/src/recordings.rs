//! `--html`, `--trace-json` and `--tree`: the records of one search that a command can write
//! beside its normal output. Each is an observer of the very search whose results are
//! printed; none runs a search of its own.

use crate::args::RecordArgs;
use crate::events::{EventLog, Fanout, Header, Recorder};
use crate::render::replay::{self, Board, Trace};
use crate::render::trace_json::TraceJson;
use crate::render::tree::Tree;
use csp::{Model, Observer, Summary};

/// The records asked for, open while the search runs.
pub struct Recordings {
    json: Option<Recorder<TraceJson>>,
    tree: Option<Recorder<Tree>>,
    html: Option<Recorder<EventLog>>,
    args: RecordArgs,
    problem: String,
    /// The engine and its settings, as the page names them.
    config: String,
    board: Board,
}

impl Recordings {
    /// Opens the files asked for (the trace's header is written at once). `config` names the
    /// engine and its settings.
    pub fn open(
        args: &RecordArgs,
        model: &Model,
        board: Board,
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
                        .map_or_else(|| v.to_string(), |name| name.into_owned())
                })
                .collect();
            Recorder(Tree::new(names, board))
        });
        Ok(Recordings {
            json,
            tree,
            html: args.html.as_ref().map(|_| replay::recorder()),
            args: args.clone(),
            problem: problem.to_owned(),
            config: config.to_owned(),
            board,
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
        if let Some(html) = self.html.as_mut() {
            list.push(html);
        }
        list
    }

    /// Writes what is left to write, for the search that ended with `summary` (`stopped_by`
    /// names what stopped it early). Returns an error message if any file failed.
    pub fn finish(
        self,
        model: &Model,
        summary: &Summary,
        stopped_by: Option<&str>,
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
                    crate::render::tree::MAX_TREE_NODES
                );
            }
            std::fs::write(path, tree.to_dot(&self.problem))
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        if let (Some(log), Some(path)) = (self.html, &self.args.html) {
            let trace = Trace::new(
                model,
                self.board,
                &self.problem,
                &self.config,
                log,
                summary,
                stopped_by,
            );
            let message = replay::write_page(
                path,
                &format!("{}: the search step by step", self.problem),
                &self.config,
                &[trace],
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
