//! Solving: the [`Solver`] builder, its settings, and how solutions and figures come back.
//!
//! The search is depth-first with chronological backtracking. Each node assigns one variable
//! and then runs the chosen [`Inference`]; a failure undoes the node's changes from the trail
//! and tries the next value. Solutions are handed over one at a time and never stored, so a
//! solve that finds millions of them runs in the memory of one.

mod config;
pub(crate) mod core;
mod learning_search;
mod luby;
mod neighbourhood;
mod node_loop;
mod objective;
mod observer;
mod outcome;
mod phase;
mod portfolio;
mod session;
mod shared_bound;
mod statistics;
mod value_order;
mod var_order;

pub use config::{Inference, UnknownChoice, ValueOrder, VarOrder};
pub use objective::{Objective, Sense};
pub use observer::{NoObserver, Observer};
pub use outcome::{Outcome, Summary};
pub use phase::{DeclaredRuns, Phase, ValueSelect, VarSelect};
pub use portfolio::{Portfolio, OPTIMISATION_SHARES};
pub use session::Session;
pub use shared_bound::SharedBound;
pub use statistics::Statistics;

/// The depth at which [`Solver::shard`] deals out subtrees.
pub const SHARD_DEPTH: usize = 2;

pub(crate) use config::SolveConfig;

use crate::{Limits, Model, VarId};
use node_loop::{Run, Search};
use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;
use value_order::{
    Ascending, ChooseValue, Descending, LeastConstraining, PhasedValues, RandomOrder,
};
use var_order::{DomDeg, DomWdeg, InputOrder, MinDomain, Phased, SelectVar};

/// One solution, lent to the callback: valid only during the call.
#[derive(Copy, Clone, Debug)]
pub struct Solution<'a> {
    values: &'a [i32],
}

impl<'a> Solution<'a> {
    /// The value of `var`.
    pub fn value(&self, var: VarId) -> i32 {
        self.values[var.index()]
    }

    /// One value per variable, in creation order.
    pub fn values(&self) -> &'a [i32] {
        self.values
    }
}

/// Solves a [`Model`] with the chosen inference, heuristics and limits.
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use csp::{Inference, Model, Solver};
/// let mut model = Model::new();
/// let x = model.new_var(1..=3)?;
/// let y = model.new_var(1..=3)?;
/// model.not_equal(x, y)?;
/// let solver = Solver::new(&model).inference(Inference::Mac);
/// assert_eq!(solver.count(), 6);
/// assert_eq!(solver.first(), Some(vec![1, 2]));
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct Solver<'m> {
    model: &'m Model,
    config: SolveConfig,
}

impl<'m> Solver<'m> {
    /// A solver with the engine's defaults: arc consistency ([`Inference::Mac`]), dom/wdeg
    /// ([`VarOrder::DomWdeg`]), smallest values first, all solutions, no limits: one search
    /// that every propagator filters under, guided by where the failures are, with nothing
    /// to tune. (The command line and the Python module pick a search per model through the
    /// `csp_policy` crate; for one solution of a model without a declared search, that
    /// search begins with these.) A teaching comparison sets
    /// [`Inference::ForwardChecking`] or [`Inference::None`] and [`VarOrder::Input`]
    /// explicitly; a hard optimisation may do better with [`Inference::Lcg`].
    pub fn new(model: &'m Model) -> Self {
        Solver {
            model,
            config: SolveConfig::default(),
        }
    }

    /// How much to infer after each assignment.
    pub fn inference(mut self, inference: Inference) -> Self {
        self.config.inference = inference;
        self
    }

    /// Which variable to branch on.
    pub fn var_order(mut self, order: VarOrder) -> Self {
        self.config.var_order = order;
        self
    }

    /// In which order to try values.
    pub fn value_order(mut self, order: ValueOrder) -> Self {
        self.config.value_order = order;
        self
    }

    /// A declared search, as FlatZinc's `seq_search` of `int_search`es: branch on each phase's
    /// variables in turn, picked and valued as it says, then on the rest by the solver's
    /// variable and value order. `seed` drives [`ValueSelect::Random`].
    ///
    /// ```
    /// # fn main() -> Result<(), csp::ModelError> {
    /// use csp::{Model, Phase, Solver, ValueSelect, VarSelect};
    /// let mut model = Model::new();
    /// let x = model.new_var(0..=2)?;
    /// let y = model.new_var(0..=2)?;
    /// model.not_equal(x, y)?;
    /// // y first, largest value first; then x.
    /// let phases = vec![Phase::new(&[y], VarSelect::InputOrder, ValueSelect::Max)];
    /// assert_eq!(Solver::new(&model).phases(phases, 0).first(), Some(vec![0, 2]));
    /// # Ok(())
    /// # }
    /// ```
    pub fn phases(mut self, phases: Vec<Phase>, seed: u64) -> Self {
        self.config.phases = phases;
        self.config.phase_seed = seed;
        self
    }

    /// Under [`Inference::Lcg`], which runs between restarts the declared search
    /// ([`Solver::phases`]) guides: every other one by default ([`DeclaredRuns`]).
    pub fn declared_runs(mut self, runs: DeclaredRuns) -> Self {
        self.config.declared_runs = runs;
        self
    }

    /// Searches with each `(var, value)` fixed from the start as well, as if its domain were
    /// that value alone: one model serves many instances that differ only in such givens (a
    /// sudoku's), built once. A value outside its variable's domain, or a variable given two
    /// values, leaves no solution. Solutions are checked against the model's constraints, not
    /// against these; the search keeps to them.
    ///
    /// ```
    /// # fn main() -> Result<(), csp::ModelError> {
    /// use csp::{Model, Solver};
    /// let mut model = Model::new();
    /// let x = model.new_var(1..=3)?;
    /// let y = model.new_var(1..=3)?;
    /// model.not_equal(x, y)?;
    /// assert_eq!(Solver::new(&model).assume(vec![(x, 2)]).count(), 2);
    /// assert_eq!(Solver::new(&model).assume(vec![(x, 2), (y, 2)]).count(), 0);
    /// # Ok(())
    /// # }
    /// ```
    pub fn assume(mut self, fixed: Vec<(VarId, i32)>) -> Self {
        self.config.assumed = fixed;
        self
    }

    /// A solution hint (a warm start, as OR-Tools' `AddHint`): under [`Inference::Lcg`], each
    /// decision on a hinted variable tries its hinted value first, while its domain holds it,
    /// until a first solution is found; then the search's own choices (and
    /// [`Solver::incumbent_phase`]) take over. A hint need not be a solution, or satisfy
    /// anything: it changes the order of the search, never its answers. The other modes
    /// follow their value order. A variable hinted twice takes the last value.
    ///
    /// ```
    /// # fn main() -> Result<(), csp::ModelError> {
    /// use csp::{Inference, Model, Solver};
    /// let mut model = Model::new();
    /// let xs: Vec<_> = (0..4).map(|_| model.new_var(0..=3)).collect::<Result<_, _>>()?;
    /// model.all_different(&xs)?;
    /// let hint = vec![(xs[0], 3), (xs[1], 2), (xs[2], 1), (xs[3], 0)];
    /// let first = Solver::new(&model).inference(Inference::Lcg).hint(hint).first();
    /// assert_eq!(first, Some(vec![3, 2, 1, 0]));
    /// # Ok(())
    /// # }
    /// ```
    pub fn hint(mut self, values: Vec<(VarId, i32)>) -> Self {
        self.config.hints = values;
        self
    }

    /// Stop after `k` solutions (`None`: find them all).
    pub fn max_solutions(mut self, k: Option<u64>) -> Self {
        self.config.max_solutions = k;
        self
    }

    /// Solution-based phase saving (Demirović, Chu and Stuckey, CP 2018): under
    /// [`Inference::Lcg`] with an objective, once a solution is found, each decision of every
    /// other run that does not follow the declared search ([`Solver::phases`]) gives its
    /// variable the value it has in the best solution so far, while its domain still holds
    /// it, in place of the most active value or the last one it had. Those runs look around the incumbent first, as a local search would; the
    /// runs between keep the free search's diversity; learning keeps the whole complete. It
    /// changes no answer, only the order. Off by default.
    pub fn incumbent_phase(mut self, on: bool) -> Self {
        self.config.incumbent_phase = on;
        self
    }

    /// Large neighbourhood search over `vars` (Shaw, CP 1998), on top of learning: under
    /// [`Inference::Lcg`] with an objective, once a solution is found, runs between the
    /// complete search's restarts keep part of `vars` fixed at their values in the best
    /// solution so far and search the rest, for a bounded number of conflicts. The part freed
    /// is a random share of `vars` or a window of consecutive ones (list them in an order
    /// that means something: time, a route), and its size adapts: it grows after a
    /// neighbourhood is explored to the end without a better solution, and shrinks after one
    /// runs out of conflicts. The fixings are decisions, so every nogood learned holds in the
    /// whole search; the complete runs, which take at least half the conflicts (and more,
    /// up to eight ninths, while 50 neighbourhoods in a row and more find nothing better),
    /// still prove optimality. An empty list turns it off (the default).
    pub fn lns(mut self, vars: Vec<VarId>) -> Self {
        self.config.lns = vars;
        self
    }

    /// Luby restarts: run `i` of the search may fail `scale` times the `i`-th term of the Luby
    /// sequence (1, 1, 2, 1, 1, 2, 4, ...) before it starts again from the root. A restart
    /// keeps what changes between runs, the random generator of [`ValueOrder::Random`] and the
    /// weights of [`VarOrder::DomWdeg`]; with neither, every run repeats the first. Restarts
    /// cut the long runs that chronological backtracking gets stuck in (N-Queens with `mrv`
    /// beyond a few thousand rows). They apply only to a search that stops at its first
    /// solution (`max_solutions(Some(1))`, no objective, no shard), since a restarted search
    /// would meet its solutions again.
    pub fn restarts(mut self, scale: Option<u64>) -> Self {
        self.config.restarts = scale;
        self
    }

    /// Branch and bound: find solutions with ever smaller values of `var`. Each solution
    /// delivered is strictly better than the one before; when the solve ends `Exhausted`, the
    /// last one is optimal.
    pub fn minimize(self, var: VarId) -> Self {
        self.optimize(Some(Objective::minimize(var)))
    }

    /// Branch and bound towards ever larger values of `var` (see [`Solver::minimize`]).
    pub fn maximize(self, var: VarId) -> Self {
        self.optimize(Some(Objective::maximize(var)))
    }

    /// Branch and bound on `objective` (see [`Solver::minimize`]); `None` solves without one.
    pub fn optimize(mut self, objective: Option<Objective>) -> Self {
        self.config.objective = objective;
        self
    }

    /// The inference set by [`Solver::inference`]: for a caller that needs a certain search
    /// (a proof log needs learning).
    pub fn chosen_inference(&self) -> Inference {
        self.config.inference
    }

    /// The objective set, if any: for an observer that must know what the search optimises
    /// (a proof log).
    pub fn objective(&self) -> Option<Objective> {
        self.config.objective
    }

    /// Explore only the `index`-th (0-based) of `parts` disjoint parts of the search tree, so
    /// that separate processes or machines can share one search; the parts' solutions add up
    /// to the whole. The tree is cut at depth [`SHARD_DEPTH`]: its nodes there are dealt out
    /// in turn, and a solution found above that depth belongs to part 0. Every part explores
    /// the few nodes above the cut.
    pub fn shard(mut self, index: u64, parts: u64) -> Self {
        if parts > 1 && index < parts {
            self.config.shard = Some((index, parts));
        }
        self
    }

    /// Under an objective, prune with `bound` as well as with this search's own solutions:
    /// only solutions strictly better than its best are looked for (read at every node and
    /// restart, so that it can be tightened from another thread while the search runs), and
    /// each better one found is offered back to it. Searches of disjoint parts of one model
    /// (the cubes of a distributed search) share their best so. Without an objective: no
    /// effect.
    pub fn shared_bound(mut self, bound: Arc<SharedBound>) -> Self {
        self.config.shared = Some(bound);
        self
    }

    /// Stop after this many nodes.
    pub fn node_limit(mut self, nodes: u64) -> Self {
        self.config.limits.nodes = Some(nodes);
        self
    }

    /// Stop after this much time.
    pub fn time_limit(mut self, time: Duration) -> Self {
        self.config.limits.time = Some(time);
        self
    }

    /// Stop as soon as `flag` is set, from any thread (a signal handler, a UI).
    pub fn cancel_flag(mut self, flag: Arc<AtomicBool>) -> Self {
        self.config.limits.cancel = Some(flag);
        self
    }

    /// All limits at once.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.config.limits = limits;
        self
    }

    /// Runs the search, handing each solution to `on_solution`, which returns
    /// `ControlFlow::Break(())` to stop early.
    pub fn solve(&self, on_solution: impl FnMut(&Solution<'_>) -> ControlFlow<()>) -> Summary {
        self.solve_observed(NoObserver, on_solution)
    }

    /// As [`Solver::solve`], telling `observer` about every step of the search.
    pub fn solve_observed<O: Observer>(
        &self,
        observer: O,
        mut on_solution: impl FnMut(&Solution<'_>) -> ControlFlow<()>,
    ) -> Summary {
        let mut run = build(self.model, &self.config, observer);
        while let Some(values) = run.next_solution() {
            if on_solution(&Solution { values }).is_break() {
                run.stop();
                break;
            }
        }
        run.summary()
    }

    /// The number of solutions (up to [`Solver::max_solutions`]).
    pub fn count(&self) -> u64 {
        self.solve(|_| ControlFlow::Continue(())).stats.solutions
    }

    /// The first solution, if there is one.
    pub fn first(&self) -> Option<Vec<i32>> {
        self.solutions().next()
    }

    /// The domains after the chosen inference has filtered the root, before any branching:
    /// arc consistency under `mac`, the initial domains under `fc` and `none` (which filter
    /// only after an assignment), assumed values fixed in each. `None` when filtering alone
    /// proves there is no solution.
    pub fn root_domains(&self) -> Option<Vec<Vec<i32>>> {
        let mut core = core::Core::new(self.model, self.config.inference, false, &Limits::none());
        if !core.fix_at_root(&self.config.assumed) {
            return None;
        }
        if self.config.inference.propagates() && core.propagate_all(&mut NoObserver).is_err() {
            return None;
        }
        Some(
            self.model
                .vars()
                .map(|v| core.store.domains.iter(v).collect())
                .collect(),
        )
    }

    /// A session: this solver set up once for many solves, each under values assumed then
    /// (see [`Session`]).
    pub fn session(&self) -> Session<'m> {
        Session::new(build(self.model, &self.config, NoObserver))
    }

    /// The solutions as an iterator, found lazily one at a time.
    pub fn solutions(&self) -> Solutions<'m> {
        Solutions {
            run: build(self.model, &self.config, NoObserver),
        }
    }
}

/// The solutions of a solve, found one at a time as the iterator is advanced.
pub struct Solutions<'m> {
    run: Box<dyn Run + 'm>,
}

impl Solutions<'_> {
    /// The outcome and statistics so far.
    pub fn summary(&self) -> Summary {
        self.run.summary()
    }
}

impl Iterator for Solutions<'_> {
    type Item = Vec<i32>;

    fn next(&mut self) -> Option<Vec<i32>> {
        self.run.next_solution().map(<[i32]>::to_vec)
    }
}

/// Picks the compiled node loop for the configured heuristics.
fn build<'a, O: Observer + 'a>(
    model: &'a Model,
    config: &SolveConfig,
    observer: O,
) -> Box<dyn Run + 'a> {
    if config.inference == Inference::Lcg {
        return Box::new(learning_search::LearningSearch::new(
            model,
            config.clone(),
            observer,
        ));
    }
    match config.var_order {
        VarOrder::Input => with_value_order(model, config, InputOrder, observer),
        VarOrder::MinDomain => with_value_order(model, config, MinDomain::default(), observer),
        VarOrder::DomDeg => with_value_order(model, config, DomDeg::default(), observer),
        VarOrder::DomWdeg => {
            let order = DomWdeg::new(model.constraint_count());
            with_value_order(model, config, order, observer)
        }
        VarOrder::Wdeg => {
            let order = DomWdeg::weight_only(model.constraint_count());
            with_value_order(model, config, order, observer)
        }
    }
}

fn with_value_order<'a, V: SelectVar + 'a, O: Observer + 'a>(
    model: &'a Model,
    config: &SolveConfig,
    var_order: V,
    observer: O,
) -> Box<dyn Run + 'a> {
    let config = config.clone();
    match config.value_order {
        ValueOrder::Ascending => with_phases(model, config, var_order, Ascending, observer),
        ValueOrder::Descending => with_phases(model, config, var_order, Descending, observer),
        ValueOrder::LeastConstraining => with_phases(
            model,
            config,
            var_order,
            LeastConstraining::default(),
            observer,
        ),
        ValueOrder::Random { seed } => {
            with_phases(model, config, var_order, RandomOrder::new(seed), observer)
        }
    }
}

/// The node loop, under the declared phases when there are any.
fn with_phases<'a, V: SelectVar + 'a, W: ChooseValue + 'a, O: Observer + 'a>(
    model: &'a Model,
    config: SolveConfig,
    var_order: V,
    value_order: W,
    observer: O,
) -> Box<dyn Run + 'a> {
    if config.phases.is_empty() {
        return Box::new(Search::new(model, config, var_order, value_order, observer));
    }
    let values = PhasedValues::new(
        &config.phases,
        model.var_count(),
        config.phase_seed,
        value_order,
    );
    let vars = Phased::new(config.phases.clone(), var_order);
    Box::new(Search::new(model, config, vars, values, observer))
}
