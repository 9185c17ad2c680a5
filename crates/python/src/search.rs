//! `Search`: one solve of a model on a thread of its own, its solutions streamed to Python.
//!
//! The search runs without the interpreter's lock; Python takes its solutions one at a time
//! (the thread waits while one is untaken, so memory does not grow with their number) and,
//! while it waits, still answers Ctrl-C: the interrupt cancels the search.

use crate::convert::{invalid, var, vars};
use crate::model::PyModel;
use csp::{Objective, Outcome, Sense, Solver, Summary, ValueOrder};
use csp_policy::{
    Instance, Plan, PolicyError, ProofFiles, Request, SearchOptions, Spelling, Wanted,
};
use pyo3::prelude::*;
use std::borrow::Cow;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

/// How often a wait for the next solution looks at Python's signals.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// What the search thread hands over.
enum Event {
    Solution(Vec<i32>),
    Done(Summary),
    /// The search could not go on (writing its proof failed): the message.
    Failed(String),
}

/// A solve in progress: iterate it for its solutions (lists of values, one per variable), then
/// read its `summary()`.
#[pyclass(name = "Search", module = "csp_solver._native")]
pub(crate) struct PySearch {
    /// Behind a lock only because the wait releases the interpreter's lock (and so must be
    /// shareable); one reader at a time in any case.
    events: Mutex<Receiver<Event>>,
    cancel: Arc<AtomicBool>,
    summary: Option<Summary>,
    thread: Option<JoinHandle<()>>,
    /// How the policy planned the search, in words (`plan()`).
    described: String,
    /// Whether an LP relaxation joined the search, in words (`lp()`).
    lp: String,
}

/// Everything a search is set up by, read from Python's arguments.
struct Settings {
    /// How it is searched, as the policy planned it for every front end.
    plan: Plan,
    time_limit: Option<Duration>,
    node_limit: Option<u64>,
    max_solutions: Option<u64>,
    objective: Option<Objective>,
    first: Vec<csp::VarId>,
    neighbourhood: Vec<csp::VarId>,
    assumed: Vec<(csp::VarId, i32)>,
    /// Values to try first under learning, until a first solution (`csp::Solver::hint`).
    hints: Vec<(csp::VarId, i32)>,
}

impl Settings {
    fn solver<'m>(&self, model: &'m csp::Model, cancel: &Arc<AtomicBool>) -> Solver<'m> {
        let mut solver = self
            .plan
            .solver(model, &self.neighbourhood)
            .max_solutions(self.max_solutions)
            .optimize(self.objective)
            .cancel_flag(Arc::clone(cancel));
        if let Some(t) = self.time_limit {
            solver = solver.time_limit(t);
        }
        if let Some(n) = self.node_limit {
            solver = solver.node_limit(n);
        }
        if !self.first.is_empty() {
            let phase = csp::Phase::new(
                &self.first,
                csp::VarSelect::FirstFail,
                csp::ValueSelect::Min,
            );
            solver = solver.phases(vec![phase], 0);
        }
        if !self.hints.is_empty() {
            solver = solver.hint(self.hints.clone());
        }
        if !self.assumed.is_empty() {
            solver = solver.assume(self.assumed.clone());
        }
        solver
    }
}

/// The summary as JSON: how it ended (`solved`, `exhausted`, `time`, `nodes`, `cancelled`)
/// and the statistics.
fn summary_json(summary: &Summary) -> String {
    let outcome = match summary.outcome {
        Outcome::Solved => "solved",
        Outcome::Exhausted => "exhausted",
        Outcome::LimitReached(csp::Limit::Time) => "time",
        Outcome::LimitReached(csp::Limit::Nodes) => "nodes",
        Outcome::LimitReached(csp::Limit::Cancelled) => "cancelled",
    };
    let stats = serde_json::to_value(&summary.stats).unwrap_or_default();
    serde_json::json!({ "outcome": outcome, "stats": stats }).to_string()
}

#[pymethods]
impl PySearch {
    /// Starts a search of `model`, planned by the policy every front end calls
    /// (`csp_policy::Request::plan`), so that it searches as `csp xcsp3` would: without
    /// `inference` nor orders, an optimum by learning (`lcg`, with large neighbourhood search
    /// over `neighbourhood`, every variable when not given) beside two arc-consistency
    /// searches (`csp::Portfolio::optimising`); one solution by arc consistency with dom/wdeg
    /// beside learning; many solutions by arc consistency with the smallest domain first.
    /// `threads`: that many searches side by side (`csp::Portfolio::varied`), 1 for the first
    /// alone. The policy's refusals come back as `ModelError`s naming the keyword.
    /// `first`: variables to branch on before the others, the smallest domain first,
    /// smallest value first. `objective`: `(variable, minimise)`. `assume`: `(variable, value)` pairs fixed
    /// for this search only. `hint`: `(variable, value)` pairs tried first under learning until a
    /// first solution is found (a warm start; it changes no answer). `proof`: a file to write
    /// a DRCP proof of what the search proves to, with the model beside it as `.fzn`
    /// (learning, one search; a model of linear and all-different constraints). `lp`: `auto`
    /// (the default: in an optimisation whose objective is in the LP's rows, up to 400),
    /// `on` or `off`, the LP relaxation of the model in the search.
    #[new]
    #[pyo3(signature = (model, *, inference=None, var_order=None, value_order=None, seed=0,
        threads=None, time_limit=None, node_limit=None, max_solutions=Some(1), objective=None,
        first=None, neighbourhood=None, assume=None, hint=None, proof=None, lp=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        model: PyRef<'_, PyModel>,
        inference: Option<&str>,
        var_order: Option<&str>,
        value_order: Option<&str>,
        seed: u64,
        threads: Option<usize>,
        time_limit: Option<f64>,
        node_limit: Option<u64>,
        max_solutions: Option<u64>,
        objective: Option<(u32, bool)>,
        first: Option<Vec<u32>>,
        neighbourhood: Option<Vec<u32>>,
        assume: Option<Vec<(u32, i64)>>,
        hint: Option<Vec<(u32, i64)>>,
        proof: Option<PathBuf>,
        lp: Option<&str>,
    ) -> PyResult<Self> {
        let parse = |what: &str, e: csp::UnknownChoice| invalid(format!("{what}: {e}"));
        let refused = |e: PolicyError| invalid(e.message(Spelling::Keywords));
        let random = value_order == Some("random");
        let search = SearchOptions {
            inference: inference
                .map(|name| name.parse().map_err(|e| parse("inference", e)))
                .transpose()?,
            var_order: var_order
                .map(|name| name.parse().map_err(|e| parse("var_order", e)))
                .transpose()?,
            val_order: match value_order {
                Some("random") => Some(ValueOrder::Random { seed }),
                Some(name) => Some(name.parse().map_err(|e| parse("value_order", e))?),
                None => None,
            },
            // The seed has a default here, and seeds random values only.
            seed: random.then_some(seed),
            restarts: None,
        };
        let request = Request {
            search,
            lns: None,
            incumbent_phase: false,
            proof: proof.is_some(),
            free: false,
            declared_only: false,
            threads,
            wanted: match max_solutions {
                Some(1) => Wanted::One,
                _ => Wanted::Many,
            },
            lp: lp
                .map(|name| name.parse().map_err(|e| parse("lp", e)))
                .transpose()?
                .unwrap_or_default(),
        };
        let instance = Instance {
            objective: objective.map(|(_, minimise)| match minimise {
                true => Sense::Minimize,
                false => Sense::Maximize,
            }),
            // `first` puts variables first; it declares no search of the model's.
            declared_search: false,
        };
        let plan = request.plan(&instance).map_err(refused)?;
        let time_limit = time_limit
            .map(csp_policy::time_limit_seconds)
            .transpose()
            .map_err(refused)?;
        csp_policy::check_node_limit(node_limit).map_err(refused)?;
        let objective = match objective {
            Some((x, true)) => Some(Objective::minimize(var(x)?)),
            Some((x, false)) => Some(Objective::maximize(var(x)?)),
            None => None,
        };
        let neighbourhood = match neighbourhood {
            Some(xs) => vars(&xs)?,
            None => model.inner.vars().collect(),
        };
        let settings = Settings {
            plan,
            time_limit,
            node_limit,
            max_solutions,
            objective,
            first: vars(&first.unwrap_or_default())?,
            neighbourhood,
            assumed: assume
                .unwrap_or_default()
                .into_iter()
                .map(|(x, v)| Ok((var(x)?, crate::convert::value(v, "assumed value")?)))
                .collect::<PyResult<_>>()?,
            hints: hints(hint.unwrap_or_default())?,
        };
        let assumed = settings.assumed.iter().map(|&(x, _)| x);
        for x in settings
            .first
            .iter()
            .copied()
            .chain(settings.neighbourhood.iter().copied())
            .chain(assumed)
            .chain(settings.hints.iter().map(|&(x, _)| x))
        {
            if x.index() >= model.inner.var_count() {
                return Err(invalid(format!("no variable {}", x.index())));
            }
        }
        let described = settings.plan.describe();
        let proof = match proof {
            Some(path) => {
                let solver = settings.solver(&model.inner, &Arc::new(AtomicBool::new(false)));
                let files = ProofFiles::create(&path, None, &model.inner, &solver);
                Some(files.map_err(refused)?)
            }
            None => None,
        };
        // The model searched: with its LP relaxation where the plan takes one (a copy that
        // shares the constraints), else the model itself.
        let (relaxed, lp) = settings.plan.relaxed(&model.inner, settings.objective);
        let shared = match relaxed {
            Cow::Owned(relaxed) => Arc::new(relaxed),
            Cow::Borrowed(_) => Arc::clone(&model.inner),
        };
        let lp = lp.to_string();
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&cancel);
        let (tx, rx) = sync_channel(1);
        let thread = std::thread::Builder::new()
            .name("csp-search".into())
            .spawn(move || {
                let solver = settings.solver(&shared, &flag);
                let hand_over =
                    |s: &csp::Solution<'_>| match tx.send(Event::Solution(s.values().to_vec())) {
                        Ok(()) => ControlFlow::Continue(()),
                        Err(_) => ControlFlow::Break(()),
                    };
                if let Some(files) = proof {
                    let _ = tx.send(match files.prove(&solver, &shared, hand_over) {
                        Ok((summary, _)) => Event::Done(summary),
                        Err(e) => Event::Failed(e.message(Spelling::Keywords)),
                    });
                    return;
                }
                let summary = settings
                    .plan
                    .solve(solver, &settings.neighbourhood, hand_over);
                let _ = tx.send(Event::Done(summary));
            })
            .map_err(|e| invalid(format!("could not start the search thread: {e}")))?;
        Ok(PySearch {
            events: Mutex::new(rx),
            cancel,
            summary: None,
            thread: Some(thread),
            described,
            lp,
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next solution, one value per variable; `StopIteration` when the search is over.
    /// Ctrl-C while waiting cancels the search and raises `KeyboardInterrupt`.
    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Vec<i32>>> {
        if self.summary.is_some() {
            return Ok(None);
        }
        loop {
            let events = &self.events;
            let event = py.detach(|| {
                events
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .recv_timeout(SIGNAL_POLL)
            });
            match event {
                Ok(Event::Solution(values)) => return Ok(Some(values)),
                Ok(Event::Done(summary)) => {
                    self.summary = Some(summary);
                    self.join(py);
                    return Ok(None);
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(interrupt) = py.check_signals() {
                        self.cancel.store(true, Ordering::Relaxed);
                        return Err(interrupt);
                    }
                }
                Ok(Event::Failed(message)) => {
                    self.join(py);
                    return Err(invalid(message));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(invalid("the search thread ended without a summary"));
                }
            }
        }
    }

    /// Asks the search to stop; the solutions it found stay to be taken.
    fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// Cancels the search and waits for its thread, leaving solutions untaken: after this,
    /// the model takes constraints again.
    fn close(&mut self, py: Python<'_>) {
        self.cancel.store(true, Ordering::Relaxed);
        while self.summary.is_none() {
            let events = &self.events;
            let event = py.detach(|| events.lock().unwrap_or_else(PoisonError::into_inner).recv());
            match event {
                Ok(Event::Done(summary)) => self.summary = Some(summary),
                Ok(Event::Solution(_)) => {}
                Ok(Event::Failed(_)) => break,
                Err(_) => break,
            }
        }
        self.join(py);
    }

    /// How the search is run, in the policy's words, as `csp fzn -v` and `csp xcsp3 -v` say
    /// it: `inference lcg, variable order dom-wdeg, value order asc; ...`.
    fn plan(&self) -> String {
        self.described.clone()
    }

    /// Whether the LP relaxation joined the search, and its size or why not, as `csp fzn -v`
    /// says it: `an LP relaxation of 2 rows and 41 columns`.
    fn lp(&self) -> String {
        self.lp.clone()
    }

    /// How the search ended and what it did, as JSON, once it is over; `None` before.
    fn summary(&self) -> Option<String> {
        self.summary.as_ref().map(summary_json)
    }
}

impl PySearch {
    /// Waits for the search thread, which has sent its last word, to let go of the model.
    fn join(&mut self, py: Python<'_>) {
        if let Some(thread) = self.thread.take() {
            let _ = py.detach(|| thread.join());
        }
    }
}

impl Drop for PySearch {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// Hinted `(variable, value)` pairs. A value outside `i32` is in no domain: it is passed
/// over, as a value outside its variable's domain is.
fn hints(pairs: Vec<(u32, i64)>) -> PyResult<Vec<(csp::VarId, i32)>> {
    let mut hints = Vec::new();
    for (x, v) in pairs {
        let x = var(x)?;
        if let Ok(v) = i32::try_from(v) {
            hints.push((x, v));
        }
    }
    Ok(hints)
}
