//! `Portfolio`: several solvers on one model, each on its own thread, sharing the best
//! objective value found, the first to finish ending them all.

use super::shared_bound::SharedBound;
use super::{Outcome, Solution, Solver, Summary};
use crate::turns::Turn;
use crate::{Inference, Limit, VarId, VarOrder};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// How often the thread that waits for the workers relays the caller's cancel flag.
const RELAY_INTERVAL: Duration = Duration::from_millis(1);

/// One part of a round of turns ([`Portfolio::in_turns`]): long enough that a switch costs
/// nothing to speak of (a few microseconds, and caches warmed again), short enough that
/// each worker runs several times in a second.
const TURN_UNIT: Duration = Duration::from_millis(10);

/// An optimisation's three searches in [`Portfolio::optimising`] when they take turns on one
/// core: learning three fifths of the time, arc consistency with the learning's orders and
/// arc consistency with the smallest domain first a fifth each.
///
/// Why (issue 41's notes; 30 s on the wider set's 148 XCSP3 COPs, 60 s on `../shared/xcsp3`'s
/// 42, each run pinned to one core): learning with arc consistency at 3:1 proved 64 and 42
/// optima, against 59 and 41 for learning alone; at even shares arc consistency gained as
/// much on the first set but lost two BinPacking proofs on the second, which take learning 29
/// to 35 s alone. Smallest domain first proves what wdeg does not where the objective counts
/// 0/1 terms (ConcertHall in 0.5 s alone, where wdeg and dom/deg, weighing the halls'
/// variables above the terms', do not in 30 s; TravelingPurchaser 1.5 s); on the 43 COPs
/// where the searches differ, the three proved 23 against 20 for the two.
pub const OPTIMISATION_SHARES: [u32; 3] = [3, 1, 1];

/// The Luby scale of [`Portfolio::varied`]'s arc-consistency worker.
const MAC_RESTART_SCALE: u64 = 100;

/// Solvers of one model run side by side, one thread each (a parallel portfolio, as CP-SAT's
/// workers): each solution better than every one handed over before is handed to the
/// caller, whichever worker found it; under an objective each worker prunes with the best
/// value any of them found (read every node); the first worker to finish (an optimum proved,
/// no solution, the solution asked for) stops the others. The workers take their limits and
/// objective from the first: give them all the same model, objective and limits, and vary
/// the search (inference, orders, seeds, [`Solver::lns`]).
///
/// A portfolio of one is that solver's own solve, thread and all. With several, which
/// worker is first to a solution depends on the threads' timing, so runs differ; and only a
/// search for one solution or for an optimum runs in parallel: one for many solutions of a
/// satisfaction problem runs the first worker alone, since the workers would find the same
/// ones.
///
/// ```
/// # fn main() -> Result<(), csp::ModelError> {
/// use csp::{Inference, Model, Portfolio, Solver, VarOrder};
/// let mut model = Model::new();
/// let x = model.new_var(0..=9)?;
/// let y = model.new_var(0..=9)?;
/// model.not_equal(x, y)?;
/// let learning = Solver::new(&model).inference(Inference::Lcg).maximize(x);
/// let mac = Solver::new(&model).inference(Inference::Mac).var_order(VarOrder::DomWdeg).maximize(x);
/// let mut best = None;
/// let summary = Portfolio::new(vec![learning, mac]).solve(|s| {
///     best = Some(s.value(x));
///     std::ops::ControlFlow::Continue(())
/// });
/// assert_eq!(best, Some(9));
/// assert_eq!(summary.outcome, csp::Outcome::Exhausted);
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct Portfolio<'m> {
    workers: Vec<Solver<'m>>,
    /// Each worker's share of a round when they take turns; empty: side by side.
    shares: Vec<u32>,
}

/// What the workers hand over, behind one lock.
struct Delivery<F> {
    on_solution: F,
    /// The objective's value in the last solution handed over.
    best: Option<i64>,
    delivered: u64,
    /// The caller asked to stop.
    stopped: bool,
}

impl<'m> Portfolio<'m> {
    /// A portfolio of these workers; the first one's limits and objective hold for all.
    pub fn new(workers: Vec<Solver<'m>>) -> Self {
        Portfolio {
            workers,
            shares: Vec::new(),
        }
    }

    /// The same workers taking turns rather than running side by side, for one core: one
    /// runs while the others wait, worker `i` for `shares[i]` times 10 ms at each of its
    /// turns (1 for a worker `shares` leaves out; 0 still runs about a millisecond), so that
    /// they split the time as the shares say whatever the scheduler would do. A worker that
    /// ends leaves the round to the others.
    ///
    /// ```
    /// # fn main() -> Result<(), csp::ModelError> {
    /// use csp::{Inference, Model, Portfolio, Solver};
    /// let mut model = Model::new();
    /// let x = model.new_var(0..=99)?;
    /// let y = model.new_var(0..=99)?;
    /// model.not_equal(x, y)?;
    /// let learning = Solver::new(&model).inference(Inference::Lcg).minimize(x);
    /// let mac = Solver::new(&model).inference(Inference::Mac).minimize(x);
    /// let mut best = None;
    /// let summary = Portfolio::new(vec![learning, mac]).in_turns(&[3, 1]).solve(|s| {
    ///     best = Some(s.value(x));
    ///     std::ops::ControlFlow::Continue(())
    /// });
    /// assert_eq!(best, Some(0));
    /// assert_eq!(summary.outcome, csp::Outcome::Exhausted);
    /// # Ok(())
    /// # }
    /// ```
    pub fn in_turns(mut self, shares: &[u32]) -> Self {
        self.shares = (0..self.workers.len())
            .map(|i| shares.get(i).copied().unwrap_or(1))
            .collect();
        self
    }

    /// The default search of an optimisation: `learning` (learning, usually with large
    /// neighbourhood search) beside arc consistency with its orders and arc consistency with
    /// the smallest domain first, all three with its objective and limits: side by side, or
    /// taking turns ([`OPTIMISATION_SHARES`]) where this process may use one core only.
    pub fn optimising(learning: Solver<'m>) -> Self {
        let mac = learning
            .clone()
            .inference(Inference::Mac)
            .incumbent_phase(false)
            .lns(Vec::new());
        let by_domain = mac.clone().var_order(VarOrder::MinDomain);
        let portfolio = Portfolio::new(vec![learning, mac, by_domain]);
        let one_core = std::thread::available_parallelism().map_or(true, |n| n.get() == 1);
        if one_core {
            portfolio.in_turns(&OPTIMISATION_SHARES)
        } else {
            portfolio
        }
    }

    /// `first` and up to `threads - 1` searches unlike it, for problems where no one search
    /// is best: the others cycle through learning with large neighbourhood search over
    /// `neighbourhood`, arc consistency with Luby restarts (scale 100, which move dom/wdeg's
    /// search elsewhere; none under a declared search, which would only start over) and
    /// learning alone, leaving out the kind `first` is. Each keeps `first`'s orders and
    /// declared search (with its own seed) and does not follow the incumbent's values.
    pub fn varied(first: Solver<'m>, threads: usize, neighbourhood: &[VarId]) -> Self {
        let kinds = [
            (Inference::Lcg, true),
            (Inference::Mac, false),
            (Inference::Lcg, false),
        ];
        let own_inference = first.config.inference;
        let own = (
            own_inference,
            own_inference == Inference::Lcg && !first.config.lns.is_empty(),
        );
        let declared = !first.config.phases.is_empty();
        let mut others = kinds.iter().filter(|&&kind| kind != own).cycle();
        let mut workers = vec![first.clone()];
        for i in 1..threads {
            let Some(&(inference, lns)) = others.next() else {
                break;
            };
            let mut worker = first
                .clone()
                .inference(inference)
                .incumbent_phase(false)
                .lns(if lns { neighbourhood.to_vec() } else { vec![] });
            worker.config.phase_seed = first.config.phase_seed.wrapping_add(i as u64);
            if inference == Inference::Mac && !declared {
                worker = worker.restarts(Some(MAC_RESTART_SCALE));
            }
            workers.push(worker);
        }
        Portfolio::new(workers)
    }

    /// Runs the workers, handing each improving solution to `on_solution` (from the worker's
    /// thread, one call at a time), which returns `ControlFlow::Break(())` to stop them all.
    /// The summary's outcome is `Exhausted` when a worker explored all (so the last solution
    /// handed over is optimal, or there is none), `Solved` when a worker found what was
    /// asked or the caller stopped, else the first worker's limit; its figures add up the
    /// workers', but for the time, which is the wall time.
    pub fn solve(
        &self,
        on_solution: impl FnMut(&Solution<'_>) -> ControlFlow<()> + Send,
    ) -> Summary {
        let Some(first) = self.workers.first() else {
            return Summary {
                outcome: Outcome::Exhausted,
                stats: Default::default(),
            };
        };
        let optimising = first.config.objective.is_some();
        let parallel = optimising || first.config.max_solutions == Some(1);
        if self.workers.len() == 1 || !parallel {
            return first.solve(on_solution);
        }
        let started = std::time::Instant::now();
        let stop = Arc::new(AtomicBool::new(false));
        // The caller's bound (Solver::shared_bound), else one of the portfolio's own.
        let shared = first
            .config
            .shared
            .clone()
            .unwrap_or_else(|| Arc::new(SharedBound::new()));
        let limits = first.config.limits.cancelled_by(&stop);
        let callers_flag = first.config.limits.cancel.clone();
        let objective = first.config.objective;
        let delivery = Mutex::new(Delivery {
            on_solution,
            best: None,
            delivered: 0,
            stopped: false,
        });
        // Each worker says when it ends, so that the wait ends with the last of them.
        let (done, ended) = std::sync::mpsc::channel::<()>();
        let turns: Vec<Duration> = self.shares.iter().map(|&s| TURN_UNIT * s).collect();
        let mut seats = Turn::table(&turns).into_iter();
        let summaries: Vec<Summary> = std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .workers
                .iter()
                .map(|worker| {
                    let mut worker = worker.clone();
                    worker.config.limits = limits.clone();
                    worker.config.objective = objective;
                    worker.config.shared = Some(Arc::clone(&shared));
                    worker.config.turn = seats.next();
                    let (stop, delivery, done) = (&stop, &delivery, done.clone());
                    scope.spawn(move || {
                        // Its turns go to the others once it ends, even by a panic.
                        let _leave = Leave(worker.config.turn.clone());
                        let summary = worker.solve(|s| {
                            let mut d = delivery.lock().unwrap_or_else(PoisonError::into_inner);
                            // Stopped, or a satisfaction problem's one solution already handed over.
                            if d.stopped || (objective.is_none() && d.delivered > 0) {
                                return ControlFlow::Break(());
                            }
                            let value = objective.map(|o| i64::from(s.value(o.var)));
                            let better = match (objective, value, d.best) {
                                (Some(o), Some(v), Some(best)) => o.is_better(v, best),
                                _ => true,
                            };
                            if !better {
                                return ControlFlow::Continue(());
                            }
                            d.best = value;
                            d.delivered += 1;
                            if (d.on_solution)(s).is_break() {
                                d.stopped = true;
                                stop.store(true, Ordering::Relaxed);
                                return ControlFlow::Break(());
                            }
                            ControlFlow::Continue(())
                        });
                        if !matches!(summary.outcome, Outcome::LimitReached(_)) {
                            stop.store(true, Ordering::Relaxed);
                        }
                        // The waiting thread may have gone: nothing to tell then.
                        let _ = done.send(());
                        summary
                    })
                })
                .collect();
            // Every worker has said it ended (its thread then only returns), or one that
            // panicked, saying nothing, is found finished at an interval. Counting the words
            // rather than asking the threads alone: a thread that has just said so may not
            // be finished yet, and a wait for a word that will not come took the interval
            // out of every solve (a millisecond, CPMpy's small repeated solves twice as long).
            let mut said = 0;
            while said < handles.len() && !handles.iter().all(|handle| handle.is_finished()) {
                if callers_flag
                    .as_ref()
                    .is_some_and(|flag| flag.load(Ordering::Relaxed))
                {
                    stop.store(true, Ordering::Relaxed);
                }
                if ended.recv_timeout(RELAY_INTERVAL).is_ok() {
                    said += 1;
                }
            }
            handles
                .into_iter()
                .filter_map(|handle| handle.join().ok())
                .collect()
        });
        let delivery = delivery
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        let mut stats = super::Statistics::default();
        for summary in &summaries {
            stats.add(&summary.stats);
        }
        stats.solutions = delivery.delivered;
        stats.elapsed = started.elapsed();
        let ended = |outcome| summaries.iter().any(|s| s.outcome == outcome);
        let outcome = if ended(Outcome::Exhausted) {
            Outcome::Exhausted
        } else if delivery.stopped || ended(Outcome::Solved) {
            Outcome::Solved
        } else {
            // Every worker reached a limit: the first worker's own, unless it only saw the
            // portfolio's stop, which stands for the caller's cancel flag.
            summaries
                .first()
                .map_or(Outcome::LimitReached(Limit::Cancelled), |s| s.outcome)
        };
        Summary { outcome, stats }
    }
}

/// Leaves a worker's seat at the table of turns when dropped.
struct Leave(Option<Turn>);

impl Drop for Leave {
    fn drop(&mut self) {
        if let Some(turn) = &self.0 {
            turn.leave();
        }
    }
}
