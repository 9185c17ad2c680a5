//! `CubeSource` and `CubeControl`: a model's cubes split and searched for
//! `csp_solver.distributed`, each search without the interpreter's lock, under a bound and a
//! cancel flag that another Python thread (the Dask worker's watcher) sets while it runs.

use crate::convert::invalid;
use crate::model::PyModel;
use csp::{Model, Objective, Phase, SharedBound, VarId};
use csp_cubes::{merge, run_cube, CubeModel, CubeRecord, CubeResult};
use csp_policy::{LpChoice, Request, Wanted};
use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// How a solution is put into words in a result.
enum Words {
    /// FlatZinc's output items.
    FlatZinc(Box<flatzinc::FznModel>),
    /// XCSP3's instantiation.
    Xcsp3(Box<xcsp3::XcspModel>),
    /// The values as a JSON list, one per variable (a `csp_solver.Model`'s solution).
    Values,
}

/// A model read once per process, whose cubes are split and searched.
#[pyclass(name = "CubeSource", module = "csp_solver._native")]
pub(crate) struct PyCubeSource {
    model: Arc<Model>,
    objective: Option<Objective>,
    phases: Vec<Phase>,
    neighbourhood: Vec<VarId>,
    /// Why the reader already knows there is no solution, if it does.
    contradiction: Option<String>,
    words: Words,
}

impl PyCubeSource {
    fn cube_model(&self) -> CubeModel<'_> {
        CubeModel {
            model: &self.model,
            objective: self.objective,
            phases: self.phases.clone(),
            neighbourhood: self.neighbourhood.clone(),
        }
    }

    fn describe(&self, values: &[i32]) -> String {
        match &self.words {
            Words::FlatZinc(fzn) => {
                let mut text = String::new();
                fzn.format_solution(values, &mut text);
                text
            }
            Words::Xcsp3(instance) => instance.instantiation(values),
            Words::Values => serde_json::to_string(values).unwrap_or_default(),
        }
    }
}

#[pymethods]
impl PyCubeSource {
    /// A FlatZinc model, from its text.
    #[staticmethod]
    fn flatzinc(text: &str) -> PyResult<Self> {
        let fzn = flatzinc::load(text).map_err(|e| invalid(format!("FlatZinc: {e}")))?;
        Ok(PyCubeSource {
            model: Arc::new(fzn.model.clone()),
            objective: fzn.objective,
            phases: fzn.phases.clone(),
            neighbourhood: fzn.neighbourhood_vars(),
            contradiction: fzn.contradiction.clone(),
            words: Words::FlatZinc(Box::new(fzn)),
        })
    }

    /// An XCSP3 instance, from its bytes: XML, or LZMA-compressed as the competition ships it.
    #[staticmethod]
    fn xcsp3(data: &[u8]) -> PyResult<Self> {
        let xml = match std::str::from_utf8(data) {
            Ok(text) if text.trim_start().starts_with('<') => text.to_owned(),
            _ => xcsp3::decompress(data).map_err(|e| invalid(format!("XCSP3: {e}")))?,
        };
        let instance = xcsp3::load(&xml).map_err(|e| invalid(format!("XCSP3: {e}")))?;
        Ok(PyCubeSource {
            model: Arc::new(instance.model.clone()),
            objective: instance.objective,
            phases: Vec::new(),
            neighbourhood: instance.declared().to_vec(),
            contradiction: None,
            words: Words::Xcsp3(Box::new(instance)),
        })
    }

    /// A `csp_solver.Model`'s engine model, with its objective `(variable, minimise)`.
    #[staticmethod]
    #[pyo3(signature = (model, objective=None))]
    fn model(model: PyRef<'_, PyModel>, objective: Option<(u32, bool)>) -> PyResult<Self> {
        let objective = objective
            .map(|(x, minimise)| {
                let var = crate::convert::var(x)?;
                Ok::<_, PyErr>(if minimise {
                    Objective::minimize(var)
                } else {
                    Objective::maximize(var)
                })
            })
            .transpose()?;
        let inner = Arc::clone(&model.inner);
        Ok(PyCubeSource {
            neighbourhood: inner.vars().collect(),
            model: inner,
            objective,
            phases: Vec::new(),
            contradiction: None,
            words: Words::Values,
        })
    }

    /// The task the model asks: `optimize` with an objective, else `count` when `count`,
    /// else `solve`.
    fn task(&self, count: bool) -> String {
        self.cube_model().task(&request(count, None)).to_string()
    }

    /// Whether the objective is minimised (`None` without one).
    fn minimize(&self) -> Option<bool> {
        self.objective.map(|o| o.sense == csp::Sense::Minimize)
    }

    /// At least `cubes` cubes (where the model has that many parts), as JSON lines; none
    /// when the model has no solution by propagation alone. Raises on `time_limit`.
    #[pyo3(signature = (cubes, time_limit=None))]
    fn split(
        &self,
        py: Python<'_>,
        cubes: usize,
        time_limit: Option<f64>,
    ) -> PyResult<Vec<String>> {
        if self.contradiction.is_some() {
            return Ok(Vec::new());
        }
        let limits = limits(time_limit, None)?;
        let avoid: Vec<VarId> = self.objective.map(|o| o.var).into_iter().collect();
        let model = &self.model;
        let first: Vec<VarId> = self
            .phases
            .iter()
            .flat_map(|p| p.vars.iter().copied())
            .collect();
        let split = py
            .detach(|| csp::cube::split(model, cubes, &first, &avoid, &limits))
            .map_err(|limit| invalid(format!("the split was stopped by {limit}")))?;
        let of = split.cubes.len();
        Ok(split
            .cubes
            .iter()
            .enumerate()
            .map(|(i, cube)| CubeRecord::new(model, cube, i, of).to_line())
            .collect())
    }

    /// Searches the cube of JSON line `cube` (counting every solution when `count`), under
    /// `control`'s bound and cancel flag, within `time_limit` seconds, `threads` searches
    /// side by side (default 1); returns its result as one JSON object.
    #[pyo3(signature = (cube, *, count=false, control=None, time_limit=None, threads=None, seed=1))]
    #[allow(clippy::too_many_arguments)]
    fn solve(
        &self,
        py: Python<'_>,
        cube: &str,
        count: bool,
        control: Option<PyRef<'_, PyCubeControl>>,
        time_limit: Option<f64>,
        threads: Option<usize>,
        seed: u64,
    ) -> PyResult<String> {
        let record = CubeRecord::parse(cube).map_err(|e| invalid(e.to_string()))?;
        let parsed = record
            .cube_for(&self.model)
            .map_err(|e| invalid(e.to_string()))?;
        let request = request(count, Some(threads.unwrap_or(1)));
        let model = self.cube_model();
        let task = model.task(&request);
        let (bound, cancel) = match &control {
            Some(c) => (Some(Arc::clone(&c.bound)), Arc::clone(&c.cancel)),
            None => (None, Arc::new(AtomicBool::new(false))),
        };
        let started_bound = model
            .objective
            .zip(bound.as_ref())
            .and_then(|(o, b)| b.best(o.sense));
        let limits = limits(time_limit, Some(&cancel))?;
        let run = if self.contradiction.is_none() {
            let run = py
                .detach(|| run_cube(&model, &parsed, &request, limits, seed, bound, |_| {}))
                .map_err(|e| invalid(e.to_string()))?;
            if run.wrong > 0 {
                return Err(invalid(format!(
                    "{} solutions failed the check against the model and were withheld (a bug \
                     in csp: please report it)",
                    run.wrong
                )));
            }
            Some(run)
        } else {
            None
        };
        let result = CubeResult::of_run(&record, &model, task, started_bound, run.as_ref(), |v| {
            self.describe(v)
        });
        Ok(result.to_line())
    }
}

/// A cube's search as the policy plans the whole model's, for one solution or every one.
fn request(count: bool, threads: Option<usize>) -> Request {
    Request {
        threads,
        wanted: if count { Wanted::Many } else { Wanted::One },
        lp: LpChoice::Auto,
        ..Request::default()
    }
}

/// The limits of a split or a cube's search.
fn limits(time_limit: Option<f64>, cancel: Option<&Arc<AtomicBool>>) -> PyResult<csp::Limits> {
    let mut limits = csp::Limits::none();
    if let Some(seconds) = time_limit {
        let time = csp_policy::time_limit_seconds(seconds).map_err(|e| invalid(e.to_string()))?;
        limits = limits.with_time(Some(time));
    }
    if let Some(flag) = cancel {
        limits = limits.with_cancel(flag);
    }
    Ok(limits)
}

/// The bound and the cancel flag of one cube's search, set from Python while it runs.
#[pyclass(name = "CubeControl", module = "csp_solver._native")]
pub(crate) struct PyCubeControl {
    bound: Arc<SharedBound>,
    cancel: Arc<AtomicBool>,
}

#[pymethods]
impl PyCubeControl {
    #[new]
    fn new() -> Self {
        PyCubeControl {
            bound: Arc::new(SharedBound::new()),
            cancel: Arc::new(AtomicBool::new(false)),
        }
    }

    /// A solution of `value` exists elsewhere: the search looks only for better from now on.
    fn tighten(&self, value: i64, minimize: bool) {
        self.bound.tighten(sense(minimize), value);
    }

    /// The best value known to this search: its own or one it was told of.
    fn best(&self, minimize: bool) -> Option<i64> {
        self.bound.best(sense(minimize))
    }

    /// Stops the search at its next node; it returns what it found, incomplete.
    fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// The sense of an objective that is minimised when `minimize`.
fn sense(minimize: bool) -> csp::Sense {
    if minimize {
        csp::Sense::Minimize
    } else {
        csp::Sense::Maximize
    }
}

/// The cubes' results (JSON objects) merged: the answer as one JSON object.
#[pyfunction]
pub(crate) fn merge_results(results: Vec<String>) -> PyResult<String> {
    let parsed: Vec<CubeResult> = results
        .iter()
        .map(|r| CubeResult::parse(r).map_err(invalid))
        .collect::<PyResult<_>>()?;
    let merged = merge(&parsed).map_err(|e| invalid(e.to_string()))?;
    let json = serde_json::json!({
        "task": merged.task,
        "complete": merged.complete(),
        "answer": merged.summary(),
        "solutions": merged.solutions,
        "objective": merged.best,
        "minimize": merged.minimize,
        "output": merged.output,
        "cubes": merged.of,
        "missing": merged.missing,
        "incomplete": merged.incomplete,
    });
    Ok(json.to_string())
}
