//! The [`Constraint`] trait: a small required core and default hooks for each inference mode.
//!
//! # How to add a constraint
//!
//! Implement two methods and the constraint works in every mode:
//!
//! - [`Constraint::scope`]: the variables it is on, in a fixed order;
//! - [`Constraint::is_satisfied`]: given one value per scope variable, in scope order, whether
//!   the constraint holds. This is the constraint's meaning, and the engine never trusts a
//!   solution without it passing.
//!
//! The three hooks below have defaults built on those two, correct for any constraint but weak
//! (they act only once all but one scope variable is settled). Override them to filter sooner:
//!
//! | hook | used by | it must |
//! |---|---|---|
//! | [`check_assigned`](Constraint::check_assigned) | `none` | fail if the assigned part is already broken |
//! | [`forward_check`](Constraint::forward_check) | `fc` | remove values of unassigned variables that conflict with the assigned ones |
//! | [`propagate`](Constraint::propagate) | `mac` | remove values that have no support, as far as it can |
//! | [`propagate_changed`](Constraint::propagate_changed) | `mac` | the same, knowing which variables changed (defaults to `propagate`) |
//!
//! Four more hooks tune when `mac` runs it (see [`Wake`] and [`Priority`]): `wake_on` (the
//! change of a variable that wakes it; any removal by default), `priority` and `priority_on`
//! (its cost class, at the root and after a given change),
//! `idempotent` (whether its own changes can be left unseen; true by default) and
//! `wants_changes` (whether `propagate_changed` gets the exact list of changed variables
//! rather than the whole scope; false by default).
//!
//! Every hook reads and prunes through the [`Context`] (`remove` for one value, `remove_range`,
//! `set_min`, `set_max` and `fix` for many at once), reports how many compatibility tests it
//! made with [`Context::count_checks`], and returns a [`Conflict`] with `?` when a removal
//! wipes a domain out or with [`Context::violated`] when it sees the constraint broken. A hook
//! must never remove a value that still takes part in a solution of this constraint.
//!
//! Three more things make a constraint a good citizen of every search:
//!
//! - **Its consistency, stated.** The type's documentation says how strongly `propagate`
//!   filters (a line `Consistency: ...`: domain, bounds, or what it does short of either),
//!   as every Gecode propagator does; where a global offers a choice, it takes a
//!   [`Consistency`](crate::Consistency) at posting.
//! - **Reasons, for learning.** Under `lcg` every removal needs a reason: atoms true now whose
//!   conjunction, with the constraint, forces it. Prune with [`Context::remove_because`],
//!   [`Context::at_least_because`], [`Context::at_most_because`] or, for many removals with
//!   one reason, [`Context::because`]; fail with [`Context::violated_because`]. Build the
//!   reason only when [`Context::explaining`] says someone listens. A removal without a
//!   reason is still correct: learning then blames the current domains of the rest of the
//!   scope, which is always sound but makes long nogoods that prune little.
//! - **Proofs.** A constraint that is a linear (in)equality or an all-different says so in
//!   [`Constraint::checkable`], and then its reasons must be ones Pumpkin's checker accepts
//!   for that form; a model with a constraint that says `None` has no proof.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use csp::{Constraint, Context, Conflict, Model, Solver, VarId};
//!
//! /// x < y, filtered on bounds.
//! #[derive(Debug)]
//! struct Less([VarId; 2]);
//!
//! impl Constraint for Less {
//!     fn scope(&self) -> &[VarId] { &self.0 }
//!     fn is_satisfied(&self, v: &[i32]) -> bool { v[0] < v[1] }
//!     fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
//!         let [x, y] = self.0;
//!         let (Some(y_max), Some(x_min)) = (ctx.max(y), ctx.min(x)) else { return Ok(()) };
//!         // x <= y_max - 1 and y >= x_min + 1, a word of the bitset at a time.
//!         ctx.set_max(x, y_max.saturating_sub(1))?;
//!         ctx.set_min(y, x_min.saturating_add(1))?;
//!         Ok(())
//!     }
//! }
//!
//! let mut model = Model::new();
//! let x = model.new_var(0..=3)?;
//! let y = model.new_var(0..=3)?;
//! model.post(Less([x, y]))?;
//! assert_eq!(Solver::new(&model).count(), 6);
//! # Ok(())
//! # }
//! ```

use crate::propagation::context::{Conflict, Context};
use crate::propagation::earlier::Earlier;
use crate::propagation::linear_row::{DeclaredBounds, LinearRow, ValueRows};
use crate::{Atom, Checkable, Priority, VarId, Wake};
use smallvec::SmallVec;
use std::fmt::Debug;

/// A relation over some variables, with the hooks the search modes use to enforce it.
pub trait Constraint: Debug + Send + Sync {
    /// The variables the constraint is on. Values passed to `is_satisfied` follow this order.
    fn scope(&self) -> &[VarId];

    /// Whether the constraint holds for `values`, one per scope variable in scope order.
    fn is_satisfied(&self, values: &[i32]) -> bool;

    /// A short description for traces and error messages, such as `x != y + 1`.
    fn describe(&self) -> String {
        format!("{self:?}")
    }

    /// Why the constraint, as stated, can never hold whatever the domains (`x != x`, an
    /// all-different that names a variable twice with the same offset), or `None`. A model
    /// refuses such a constraint with [`ModelError::NeverHolds`](crate::ModelError)
    /// rather than posting a contradiction that only a search would find. The default says
    /// `None`.
    fn contradiction(&self) -> Option<String> {
        None
    }

    /// The constraint in a form an independent proof checker reads ([`Checkable`]), so that
    /// a proof of what learning found about a model of such constraints can be checked. Its
    /// explanations must then be inferences that checker accepts under
    /// [`Checkable::label`]. The default, `None`, keeps a model with this constraint out of
    /// proof logging.
    fn checkable(&self) -> Option<Checkable> {
        None
    }

    /// Linear rows that every solution of the constraint satisfies, for the LP relaxation
    /// ([`LpRelaxation`](crate::LpRelaxation)), pushed onto `rows`; `declared` gives the
    /// declared bounds of the variables, for the coefficients of a big-M form. Any rows the
    /// constraint implies are sound: the LP only ever infers what their integer combinations
    /// imply. The default gives the constraint's own form when [`Constraint::checkable`] is
    /// linear, and nothing otherwise.
    fn relax(&self, declared: &dyn DeclaredBounds, rows: &mut Vec<LinearRow>) {
        let _ = declared;
        match self.checkable() {
            Some(Checkable::LinearLe(terms, rhs)) => rows.push(LinearRow::at_most(terms, rhs)),
            Some(Checkable::LinearEq(terms, rhs)) => rows.push(LinearRow::equal(terms, rhs)),
            _ => {}
        }
    }

    /// The variables over whose value literals ([`DeclaredBounds::value_literals`])
    /// [`Constraint::relax`] gives stronger rows, and what those rows say: an
    /// all-different's "each value at most once" and a count's "the number of literals of
    /// the value" are rows only over them. The LP relaxation adds them where they are few
    /// ([`Model::add_relaxation_literals`](crate::Model::add_relaxation_literals)). The
    /// default: none.
    fn value_rows(&self) -> ValueRows<'_> {
        ValueRows::None
    }

    /// Plain backtracking: `var` has just been assigned; fail if the assigned part of the scope
    /// already breaks the constraint. The default checks once every scope variable is assigned.
    fn check_assigned(&self, var: VarId, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let _ = var;
        check_when_settled(self, ctx, |ctx, v| ctx.assigned_value(v))
    }

    /// Forward checking: `var` has just been assigned; remove from unassigned scope variables
    /// the values that conflict with the assignments. The default acts once exactly one scope
    /// variable is unassigned, testing each of its values.
    fn forward_check(&self, var: VarId, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let _ = var;
        filter_last_open(self, ctx, |ctx, v| ctx.assigned_value(v))
    }

    /// Arc consistency: remove values that cannot be part of a solution of this constraint,
    /// given the current domains. Called until no constraint changes anything. The default acts
    /// once all but one scope variable have a single value left.
    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        filter_last_open(self, ctx, |ctx, v| ctx.fixed_value(v))
    }

    /// The weakest change of `var` (one of the scope) after which [`Constraint::propagate`]
    /// must run again under `mac`. The default, [`Wake::Domain`], wakes it on any removal;
    /// a filter that reads only bounds says [`Wake::Bounds`], one that acts only on fixed
    /// variables [`Wake::Fixed`], and then costs nothing while those changes do not happen.
    fn wake_on(&self, var: VarId) -> Wake {
        let _ = var;
        Wake::Domain
    }

    /// How expensive [`Constraint::propagate`] is, for the order in which woken constraints
    /// run: cheap ones first. The default is [`Priority::Linear`].
    fn priority(&self) -> Priority {
        Priority::Linear
    }

    /// How expensive the run is when `event` is the strongest change among the variables that
    /// woke it, as Gecode's propagators price a run by its modification events. The default is
    /// [`Constraint::priority`] whatever happened. A propagator whose cheap part acts only on
    /// fixed variables (all_different removing their values) says its cheap class for
    /// [`Wake::Fixed`] and its expensive one otherwise, so that a removal alone sends it
    /// straight to the queue where its expensive part runs. The root run uses `priority`.
    fn priority_on(&self, event: Wake) -> Priority {
        let _ = event;
        self.priority()
    }

    /// Whether one run of [`Constraint::propagate`] leaves nothing for a second run to do, so
    /// that its own changes need not wake it (the default, true). Say false when a run can
    /// leave work behind; the engine then runs it again after its own changes.
    fn idempotent(&self) -> bool {
        true
    }

    /// Whether [`Constraint::propagate_changed`] is to be told exactly which scope variables
    /// changed. Keeping that list costs the engine a step per change and per constraint, so
    /// by default (false) it is not kept and the whole scope comes instead: a superset, always
    /// correct. An incremental filter over a long scope says true.
    fn wants_changes(&self) -> bool {
        false
    }

    /// Arc consistency, told which scope variables changed since this constraint last ran
    /// (repeats possible; the whole scope at the root, and always unless
    /// [`Constraint::wants_changes`] says true), so it can work incrementally. The default
    /// ignores the list and calls [`Constraint::propagate`].
    fn propagate_changed(&self, changed: &[VarId], ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let _ = changed;
        self.propagate(ctx)
    }

    /// The reason for a change to `var` this constraint made under
    /// [`Context::lazily`] with the word `payload`, built only now that conflict analysis
    /// asks for it: atoms about the domains as they were just before the change (`earlier`)
    /// whose conjunction, with this constraint, forces it. A filter whose reasons are long
    /// (a sum's, which lists every other term) saves building them for the many changes no
    /// conflict ever looks at, as Chuffed and Pumpkin do. The default, for a constraint that
    /// never calls `lazily`, lists the domains of the rest of the scope, holes and all:
    /// always a reason, seldom the shortest.
    fn explain(&self, payload: u32, var: VarId, earlier: &Earlier<'_>, out: &mut Vec<Atom>) {
        let _ = payload;
        let scope = self.scope();
        for (i, &y) in scope.iter().enumerate() {
            if y != var && !scope[..i].contains(&y) {
                earlier.domain(y, out);
            }
        }
    }

    /// Why `var` had no value in `low..=high` just before the change `earlier` looks at: a
    /// bound that jumped those values, holes this constraint made, needs them all gone.
    /// Pushes onto `out` atoms true then whose conjunction, with this constraint, rules the
    /// whole run out, and says true; or says false, and the holes are listed one by one (the
    /// default). A product that took hundreds of values out of `z` rules a run of them out by
    /// a few bounds of its factors, where the holes would each be an atom of the nogood.
    fn explain_gap(
        &self,
        var: VarId,
        range: (i32, i32),
        earlier: &Earlier<'_>,
        out: &mut Vec<Atom>,
    ) -> bool {
        let _ = (var, range, earlier, out);
        false
    }
}

/// Once `settled` gives a value for every scope variable, checks the constraint on them (a
/// conflict if it is broken); before that, does nothing.
pub(crate) fn check_when_settled<C: Constraint + ?Sized>(
    constraint: &C,
    ctx: &mut Context<'_>,
    settled: impl Fn(&Context<'_>, VarId) -> Option<i32>,
) -> Result<(), Conflict> {
    let mut values: SmallVec<[i32; 8]> = SmallVec::new();
    for &v in constraint.scope() {
        match settled(ctx, v) {
            Some(value) => values.push(value),
            None => return Ok(()),
        }
    }
    ctx.count_checks(1);
    if constraint.is_satisfied(&values) {
        Ok(())
    } else {
        Err(ctx.violated())
    }
}

/// The most values the default filtering tries one by one; a wider last open variable is left
/// alone until it is fixed.
const WIDEST_FILTERED: u64 = 1 << 16;

/// The default filtering: when `settled` gives a value for every scope variable but one, keep
/// only the values of that one which satisfy the constraint; when it gives all, check.
pub(crate) fn filter_last_open<C: Constraint + ?Sized>(
    constraint: &C,
    ctx: &mut Context<'_>,
    settled: impl Fn(&Context<'_>, VarId) -> Option<i32>,
) -> Result<(), Conflict> {
    let scope = constraint.scope();
    let mut values: SmallVec<[i32; 8]> = SmallVec::with_capacity(scope.len());
    let mut open = None;
    for (i, &v) in scope.iter().enumerate() {
        match settled(ctx, v) {
            Some(value) => values.push(value),
            None if open.is_none() => {
                open = Some(i);
                values.push(0);
            }
            None => return Ok(()),
        }
    }
    match open {
        None => {
            ctx.count_checks(1);
            if constraint.is_satisfied(&values) {
                Ok(())
            } else {
                Err(ctx.violated())
            }
        }
        Some(i) => {
            let var = scope[i];
            if ctx.size_u64(var) > WIDEST_FILTERED {
                // Too many values to try one by one; the check once it is fixed still runs.
                return Ok(());
            }
            for candidate in ctx.values_vec(var) {
                values[i] = candidate;
                ctx.count_checks(1);
                if !constraint.is_satisfied(&values) {
                    ctx.remove(var, candidate)?;
                }
            }
            Ok(())
        }
    }
}
