//! `run_cube`: one cube of a model searched as the policy plans the whole model's search.

use crate::task::Task;
use csp::cube::Cube;
use csp::{Limits, Model, Objective, Phase, SharedBound, Summary, VarId};
use csp_policy::{Instance, PolicyError, Request, Wanted};
use std::ops::ControlFlow;
use std::sync::Arc;

/// A model as a front end read it, for its cubes to be searched.
#[derive(Clone, Debug)]
pub struct CubeModel<'m> {
    /// The whole model.
    pub model: &'m Model,
    /// Its objective, if any.
    pub objective: Option<Objective>,
    /// Its declared search (FlatZinc's annotations), if any.
    pub phases: Vec<Phase>,
    /// The variables large neighbourhood search and the portfolios vary.
    pub neighbourhood: Vec<VarId>,
}

impl CubeModel<'_> {
    /// What a search of it asks, with `request`'s wanted solutions.
    pub fn task(&self, request: &Request) -> Task {
        match (self.objective, request.wanted) {
            (Some(_), _) => Task::Optimize,
            (None, Wanted::Many) => Task::Count,
            (None, Wanted::One) => Task::Solve,
        }
    }
}

/// Why a cube could not be searched.
#[derive(Debug)]
pub enum CubeError {
    /// The options refused by the policy.
    Policy(PolicyError),
    /// A literal the model refused.
    Model(csp::ModelError),
}

impl std::fmt::Display for CubeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CubeError::Policy(e) => e.fmt(f),
            CubeError::Model(e) => write!(f, "the cube: {e}"),
        }
    }
}

impl std::error::Error for CubeError {}

/// What one cube's search found.
#[derive(Clone, Debug)]
pub struct CubeRun {
    /// What was asked.
    pub task: Task,
    /// Solutions found that passed the check (improving ones, in an optimisation).
    pub solutions: u64,
    /// The last of them (the best, in an optimisation): one value per variable of the model.
    pub last: Option<Vec<i32>>,
    /// Its objective value.
    pub objective: Option<i64>,
    /// Solutions that failed the check against the model or the cube, and were not taken
    /// (a bug in csp).
    pub wrong: u64,
    /// How the search ended, and its figures.
    pub summary: Summary,
}

impl CubeRun {
    /// Whether the search ended by itself (see [`CubeResult::complete`](crate::CubeResult)).
    pub fn complete(&self) -> bool {
        match self.summary.outcome {
            csp::Outcome::Exhausted => self.wrong == 0,
            csp::Outcome::Solved => self.task == Task::Solve,
            csp::Outcome::LimitReached(_) => false,
        }
    }
}

/// Searches `cube` of `model` as the policy plans the whole model's search for `request`
/// (counting every solution, one, or the best), within `limits`, its random choices seeded by
/// `seed`. Under `bound`, an optimisation looks only for better than the best value it holds,
/// which may be tightened from another thread while the search runs, and offers it what it
/// finds. Each solution is checked against every constraint of the model and the cube before
/// `on_solution` sees it (one value per variable).
pub fn run_cube(
    model: &CubeModel<'_>,
    cube: &Cube,
    request: &Request,
    limits: Limits,
    seed: u64,
    bound: Option<Arc<SharedBound>>,
    mut on_solution: impl FnMut(&[i32]) + Send,
) -> Result<CubeRun, CubeError> {
    let task = model.task(request);
    let instance = Instance {
        objective: model.objective.map(|o| o.sense),
        declared_search: !model.phases.is_empty(),
    };
    let plan = request.plan(&instance).map_err(CubeError::Policy)?;
    let restricted = cube.restrict(model.model).map_err(CubeError::Model)?;
    let (searched, _) = plan.relaxed(&restricted, model.objective);
    let mut solver = plan.solver(&searched, &model.neighbourhood).limits(limits);
    solver = plan.declared(solver, model.phases.clone(), seed);
    solver = match (task, model.objective) {
        (Task::Count, _) => solver.max_solutions(None),
        (Task::Solve, _) => solver.max_solutions(Some(1)),
        (Task::Optimize, objective) => solver.optimize(objective),
    };
    if let Some(bound) = bound {
        solver = solver.shared_bound(bound);
    }
    let width = model.model.var_count();
    let mut solutions = 0;
    let mut wrong = 0;
    let mut last: Option<Vec<i32>> = None;
    let summary = plan.solve(solver, &model.neighbourhood, |s| {
        let values = &s.values()[..width.min(s.values().len())];
        if model.model.check_solution(values).is_err() || !cube.contains(values) {
            wrong += 1;
            return ControlFlow::Continue(());
        }
        solutions += 1;
        on_solution(values);
        match &mut last {
            Some(held) => held.copy_from_slice(values),
            None => last = Some(values.to_vec()),
        }
        ControlFlow::Continue(())
    });
    let objective = model
        .objective
        .zip(last.as_ref())
        .map(|(o, values)| i64::from(values[o.var.index()]));
    Ok(CubeRun {
        task,
        solutions,
        last,
        objective,
        wrong,
        summary,
    })
}
