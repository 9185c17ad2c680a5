//! The rule that picks how a model is searched: from what the run asks for ([`Request`]) and
//! what the model is ([`Instance`]), a [`Plan`]: the settings of the first search, how many
//! searches run and which ([`Workers`]), large neighbourhood search, the declared search.
//!
//! Every front end (`csp fzn`, `csp xcsp3`, the Python module) calls this one rule, so that
//! the same model with the same options gets the same search whichever way it came in.

use crate::defaults::Defaults;
use crate::error::PolicyError;
use crate::lp::{LpChoice, LpDecision};
use crate::settings::{SearchOptions, SearchSettings};
use csp::{
    DeclaredRuns, Inference, Model, Objective, Phase, Portfolio, Sense, Solution, Solver, Summary,
    VarId,
};
use std::borrow::Cow;
use std::ops::ControlFlow;

/// The most searches a portfolio runs side by side, whatever was asked.
pub const MOST_THREADS: usize = 64;

/// Searches side by side for one solution of a model searched freely, when no thread count
/// and no search option is given: arc consistency with dom/wdeg beside learning, sharing the
/// machine.
///
/// Why (issue 41's note: 30 s, XCSP3 competition mode, each run pinned to one core, so that
/// the two searches share it): on the wider set's 51 CSPs, 47 answered against 43 for arc
/// consistency alone and 46 for learning alone; on `../shared/xcsp3`'s 43, all 43 against
/// 41 and 42.
pub const SATISFACTION_THREADS: usize = 2;

/// How many solutions a run looks for, when the model has no objective.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Wanted {
    /// One.
    #[default]
    One,
    /// More than one, all of them, or their count.
    Many,
}

/// What a run asks for, as plain options: the command line's flags and Python's keywords
/// alike (`None` or `false`: not given).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Request {
    /// The search options.
    pub search: SearchOptions,
    /// Large neighbourhood search asked for (`Some(true)`) or refused (`Some(false)`).
    pub lns: Option<bool>,
    /// Decisions follow the best solution so far (learning only).
    pub incumbent_phase: bool,
    /// A proof is written (learning, one search).
    pub proof: bool,
    /// The model's declared search is not followed (`-f`, MiniZinc's free search).
    pub free: bool,
    /// The model's declared search guides every run of learning, not every other one
    /// (`--declared-only`; refused beside `free`).
    pub declared_only: bool,
    /// Searches side by side: `Some(1)` one search, `None` as the rule decides.
    pub threads: Option<usize>,
    /// How many solutions, when the model has no objective.
    pub wanted: Wanted,
    /// Whether the LP relaxation joins the search.
    pub lp: LpChoice,
}

/// What the rule needs to know of a model.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Instance {
    /// The objective's direction, if any.
    pub objective: Option<Sense>,
    /// Whether the model declares a search (FlatZinc's annotations).
    pub declared_search: bool,
}

impl Instance {
    /// The facts of a FlatZinc model.
    pub fn of_flatzinc(model: &flatzinc::FznModel) -> Self {
        Instance {
            objective: model.objective.map(|o| o.sense),
            declared_search: !model.phases.is_empty(),
        }
    }

    /// The facts of an XCSP3 instance, which declares no search.
    pub fn of_xcsp3(instance: &xcsp3::XcspModel) -> Self {
        Instance {
            objective: instance.objective.map(|o| o.sense),
            declared_search: false,
        }
    }

    /// Every kind of model, for checking options before one is read.
    fn every_kind() -> impl Iterator<Item = Instance> {
        [None, Some(Sense::Minimize), Some(Sense::Maximize)]
            .into_iter()
            .flat_map(|objective| {
                [false, true].map(|declared_search| Instance {
                    objective,
                    declared_search,
                })
            })
    }
}

/// How many searches run, and which.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Workers {
    /// The one configured.
    One,
    /// The default optimisation portfolio (`csp::Portfolio::optimising`): learning beside
    /// two arc-consistency searches.
    Optimising,
    /// The one configured and others unlike it (`csp::Portfolio::varied`), this many.
    Varied(usize),
}

/// How a model is searched: the rule's answer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The settings of the (first) search.
    pub settings: SearchSettings,
    /// How many searches run, and which.
    pub workers: Workers,
    /// Large neighbourhood search under learning, in an optimisation.
    pub lns: bool,
    /// Decisions follow the best solution so far.
    pub incumbent_phase: bool,
    /// The model's declared search is followed.
    pub follow_declared: bool,
    /// Free search (`-f`) under learning on a model that declares a search: until the
    /// first solution, every other run between restarts follows the declared search, as
    /// Chuffed's free search does throughout; then activity alone.
    ///
    /// Why (MiniZinc Challenge 2024 at 60 s, free search): activity alone found no solution
    /// of network_50_cstr's 4 real instances, 2 of portal's and 3 of yumi-dynamic's, which
    /// the alternation finds (and proves 2 of network_50_cstr); alternating throughout
    /// lost 3 proofs (harmony, hoist) and slowed others 1.5x to 2.5x.
    pub alternate_declared: bool,
    /// Which runs of learning the declared search guides, where it is followed or
    /// alternated.
    pub declared_runs: DeclaredRuns,
    /// Whether the LP relaxation joins the search (`Off` under a proof, which cannot log
    /// its inferences).
    pub lp: LpChoice,
}

impl Request {
    /// Whether the user chose the search in any way, so that it runs as chosen, alone.
    fn search_chosen(&self) -> bool {
        self.search.any_given() || self.lns.is_some() || self.incumbent_phase || self.proof
    }

    /// Checks the options against each other before any model is read: refused here if they
    /// would be refused for some model.
    pub fn check(&self) -> Result<(), PolicyError> {
        Instance::every_kind().try_for_each(|instance| self.plan(&instance).map(drop))
    }

    /// The plan for `instance`.
    ///
    /// Several searches run side by side only when nothing chose the search (an
    /// optimisation's portfolio, or two for one solution) or a thread count asks for them.
    /// The first search's defaults are the row the facts pick (a followed declared search,
    /// an optimisation, many solutions, one solution by several searches or by one; see
    /// [`Defaults`]), with the inference learning where an option only learning takes was
    /// given (a proof, `lns`, the incumbent phase), or arc consistency where an order or
    /// restarts were given without one (learning follows no variable order).
    pub fn plan(&self, instance: &Instance) -> Result<Plan, PolicyError> {
        let follow_declared = instance.declared_search && !self.free;
        let workers = match self.threads {
            // One search writes one proof.
            _ if self.proof => Workers::One,
            Some(n) if n > 1 => Workers::Varied(n.min(MOST_THREADS)),
            Some(_) => Workers::One,
            None if self.search_chosen() || follow_declared => Workers::One,
            None if instance.objective.is_some() => Workers::Optimising,
            None if self.wanted == Wanted::One => Workers::Varied(SATISFACTION_THREADS),
            None => Workers::One,
        };
        let row = match (follow_declared, instance.objective, self.wanted) {
            (true, _, _) => Defaults::Declared,
            (false, Some(sense), _) => Defaults::Optimise(sense),
            (false, None, Wanted::Many) => Defaults::Count,
            (false, None, Wanted::One) if workers == Workers::One => Defaults::SolveAlone,
            (false, None, Wanted::One) => Defaults::Solve,
        };
        let learning_asked = self.proof || self.lns == Some(true) || self.incumbent_phase;
        let mut defaults = row.settings();
        if learning_asked {
            defaults.inference = Inference::Lcg;
        } else if self.search.orders_given() || self.search.restarts.is_some() {
            // Learning follows no variable order and restarts on its own.
            defaults.inference = Inference::Mac;
        }
        let settings = SearchSettings::from_options(&self.search, defaults, false)?;
        let learning = settings.inference == Inference::Lcg;
        if self.proof && !learning {
            return Err(PolicyError::ProofNeedsLearning);
        }
        for (asked, option) in [
            (self.incumbent_phase, crate::Opt::IncumbentPhase),
            (self.lns == Some(true), crate::Opt::Lns),
        ] {
            if asked && !learning {
                return Err(PolicyError::NeedsLearning {
                    option,
                    inference: settings.inference,
                });
            }
        }
        if self.declared_only && self.free {
            return Err(PolicyError::DeclaredOnlyFree);
        }
        if self.proof && self.lp == LpChoice::On {
            return Err(PolicyError::LpWithProof);
        }
        Ok(Plan {
            lp: if self.proof { LpChoice::Off } else { self.lp },
            settings,
            workers,
            lns: learning && instance.objective.is_some() && self.lns != Some(false),
            incumbent_phase: self.incumbent_phase,
            follow_declared,
            alternate_declared: instance.declared_search && self.free && learning,
            declared_runs: match (self.free, self.declared_only) {
                (true, _) => DeclaredRuns::AlternateUntilSolution,
                (false, true) => DeclaredRuns::Every,
                (false, false) => DeclaredRuns::Alternate,
            },
        })
    }
}

impl Plan {
    /// The model to search: `model` with its LP relaxation where the plan's [`LpChoice`]
    /// takes one for it and `objective`, and what was decided (for `-v`). Every front end
    /// searches what this returns.
    pub fn relaxed<'m>(
        &self,
        model: &'m Model,
        objective: Option<Objective>,
    ) -> (Cow<'m, Model>, LpDecision) {
        self.lp.decide(model, objective)
    }

    /// A solver for `model` with the plan's settings, incumbent phase and, where the plan
    /// says, large neighbourhood search over `neighbourhood`; the front end adds the limits,
    /// the objective, the declared search and how many solutions.
    pub fn solver<'m>(&self, model: &'m Model, neighbourhood: &[VarId]) -> Solver<'m> {
        let solver = self
            .settings
            .solver(model)
            .incumbent_phase(self.incumbent_phase);
        match self.lns {
            true => solver.lns(neighbourhood.to_vec()),
            false => solver,
        }
    }

    /// Runs `solver` (made by [`Plan::solver`] and finished by the front end) as the plan's
    /// workers: alone, or as the first of a portfolio whose others vary it (over
    /// `neighbourhood` where they search in neighbourhoods).
    pub fn solve(
        &self,
        solver: Solver<'_>,
        neighbourhood: &[VarId],
        on_solution: impl FnMut(&Solution<'_>) -> ControlFlow<()> + Send,
    ) -> Summary {
        match self.workers {
            Workers::One => solver.solve(on_solution),
            Workers::Optimising => Portfolio::optimising(solver).solve(on_solution),
            Workers::Varied(n) => Portfolio::varied(solver, n, neighbourhood).solve(on_solution),
        }
    }

    /// `solver` with the model's declared search `phases` (its random choices seeded by
    /// `seed`), where the plan follows it or alternates with it; else as it is.
    pub fn declared<'m>(&self, solver: Solver<'m>, phases: Vec<Phase>, seed: u64) -> Solver<'m> {
        if self.follow_declared || self.alternate_declared {
            solver
                .phases(phases, seed)
                .declared_runs(self.declared_runs)
        } else {
            solver
        }
    }

    /// The plan in words, for `-v` and the tests: `inference lcg, ...; 3 searches ...`.
    pub fn describe(&self) -> String {
        let workers = match self.workers {
            Workers::One => "one search".to_owned(),
            Workers::Optimising => "beside two arc-consistency searches".to_owned(),
            Workers::Varied(n) => format!("{n} searches side by side"),
        };
        let mut text = format!("{}; {workers}", self.settings.describe());
        if self.lns {
            text.push_str("; large neighbourhood search");
        }
        if self.follow_declared {
            text.push_str(match self.declared_runs {
                DeclaredRuns::Every => "; the declared search followed in every run",
                _ => "; the declared search followed",
            });
        }
        if self.lp != LpChoice::Auto {
            text.push_str(&format!("; lp {}", self.lp));
        }
        if self.alternate_declared {
            text.push_str("; the declared search in every other run until a solution");
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use csp::VarOrder;

    /// Search options that choose the inference alone.
    fn inferring(inference: Inference) -> SearchOptions {
        SearchOptions {
            inference: Some(inference),
            ..SearchOptions::default()
        }
    }

    fn plan(request: &Request, objective: Option<Sense>, declared_search: bool) -> Plan {
        let instance = Instance {
            objective,
            declared_search,
        };
        match request.plan(&instance) {
            Ok(plan) => plan,
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn nothing_asked_runs_the_portfolios_of_a_model_searched_freely() {
        let none = Request::default();
        let optimise = plan(&none, Some(Sense::Maximize), false);
        assert_eq!(optimise.workers, Workers::Optimising);
        assert_eq!(optimise.settings.inference, Inference::Lcg);
        assert_eq!(optimise.settings.value_order, csp::ValueOrder::Descending);
        assert!(optimise.lns);
        let one = plan(&none, None, false);
        assert_eq!(one.workers, Workers::Varied(SATISFACTION_THREADS));
        assert_eq!(one.settings.inference, Inference::Mac);
        let alone = Request {
            threads: Some(1),
            ..Request::default()
        };
        assert_eq!(plan(&alone, None, false).settings.inference, Inference::Lcg);
        let restarted = Request {
            search: SearchOptions {
                restarts: Some(100),
                ..SearchOptions::default()
            },
            ..Request::default()
        };
        let restarts = plan(&restarted, None, false);
        assert_eq!(restarts.settings.inference, Inference::Mac);
        assert_eq!(restarts.workers, Workers::One);
        let many = Request {
            wanted: Wanted::Many,
            ..Request::default()
        };
        let count = plan(&many, None, false);
        assert_eq!(count.workers, Workers::One);
        assert_eq!(count.settings.var_order, VarOrder::MinDomain);
    }

    #[test]
    fn a_declared_search_is_followed_by_one_search_unless_free() {
        let followed = plan(&Request::default(), Some(Sense::Minimize), true);
        assert!(followed.follow_declared);
        assert_eq!(followed.workers, Workers::One);
        assert_eq!(followed.settings.inference, Inference::Mac);
        let free = Request {
            free: true,
            ..Request::default()
        };
        let freely = plan(&free, Some(Sense::Minimize), true);
        assert_eq!(freely.workers, Workers::Optimising);
        // Free, learning takes the declared search in every other run until a solution;
        // arc consistency, asked for, does not; nor does a model that declares none.
        assert!(!freely.follow_declared && freely.alternate_declared);
        let mac = Request {
            free: true,
            search: inferring(Inference::Mac),
            ..Request::default()
        };
        assert!(!plan(&mac, Some(Sense::Minimize), true).alternate_declared);
        assert!(!plan(&free, Some(Sense::Minimize), false).alternate_declared);
        assert!(!followed.alternate_declared);
        assert_eq!(followed.declared_runs, DeclaredRuns::Alternate);
        assert_eq!(freely.declared_runs, DeclaredRuns::AlternateUntilSolution);
    }

    #[test]
    fn declared_only_keeps_the_declared_search_in_every_run_and_refuses_free_search() {
        let only = Request {
            declared_only: true,
            search: inferring(Inference::Lcg),
            ..Request::default()
        };
        let every = plan(&only, Some(Sense::Minimize), true);
        assert!(every.follow_declared && !every.alternate_declared);
        assert_eq!(every.declared_runs, DeclaredRuns::Every);
        assert!(every
            .describe()
            .contains("the declared search followed in every run"));
        let both = Request { free: true, ..only };
        assert!(matches!(both.check(), Err(PolicyError::DeclaredOnlyFree)));
    }

    #[test]
    fn options_only_learning_takes_ask_for_learning_and_an_order_for_arc_consistency() {
        let proof = Request {
            proof: true,
            threads: Some(4),
            ..Request::default()
        };
        let proved = plan(&proof, None, false);
        assert_eq!(proved.settings.inference, Inference::Lcg);
        assert_eq!(proved.workers, Workers::One);
        let ordered = Request {
            search: SearchOptions {
                var_order: Some(VarOrder::MinDomain),
                ..SearchOptions::default()
            },
            ..Request::default()
        };
        let by_order = plan(&ordered, Some(Sense::Minimize), false);
        assert_eq!(by_order.settings.inference, Inference::Mac);
        assert_eq!(by_order.workers, Workers::One);
        let refused = Request {
            lns: Some(true),
            search: inferring(Inference::Mac),
            ..Request::default()
        };
        assert!(refused.check().is_err());
    }
}
