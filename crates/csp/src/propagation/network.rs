//! `Network`: the posted constraints, and which of them each variable's changes wake.

use crate::{Constraint, ConstraintId, ModelError, Priority, VarId, Wake};
use std::sync::Arc;

/// The constraints of a model as propagation reads them: each one with what it states once at
/// posting (its wake conditions, cost classes, idempotence), and each variable's watchers.
/// The constraints are shared, so that a copy of a model (to add a relaxation for one solve)
/// copies only the lists around them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Network {
    pub(crate) constraints: Vec<Arc<dyn Constraint>>,
    /// For each variable, the constraints whose scope holds it (each listed once).
    watchers: Vec<Vec<ConstraintId>>,
    /// For each constraint, when it wakes and how soon it runs, read once at posting.
    pub(crate) meta: Vec<ConstraintMeta>,
    /// For each variable, the change of it that wakes each of its watchers, in their order:
    /// read at every wake-up, so kept beside them (a reified comparison wakes on bounds for
    /// its sides and on fixing for its truth; a hash lookup of that cost Soccer 9% of its time).
    watcher_wakes: Vec<Vec<Wake>>,
    /// Whether some constraint wakes on a change of the variable's bounds (and only then
    /// does propagation compare its bounds before and after).
    pub(crate) bounds_watched: Vec<bool>,
}

/// What the engine reads of a constraint once, at posting, rather than at every wake-up.
#[derive(Copy, Clone, Debug)]
pub(crate) struct ConstraintMeta {
    pub(crate) priority: Priority,
    /// Its cost class after each change, indexed by [`Wake`].
    pub(crate) priority_on: [Priority; 3],
    pub(crate) idempotent: bool,
    /// Whether it is told exactly which variables changed, or given its whole scope.
    pub(crate) wants_changes: bool,
}

impl Network {
    /// Makes room for one more variable, watched by no constraint yet.
    pub(crate) fn add_var(&mut self) {
        self.watchers.push(Vec::new());
        self.watcher_wakes.push(Vec::new());
        self.bounds_watched.push(false);
    }

    /// How many constraints there are.
    pub(crate) fn len(&self) -> usize {
        self.constraints.len()
    }

    /// Adds `constraint`, which must have a scope of known variables and not contradict
    /// itself, with its wake conditions.
    pub(crate) fn add(
        &mut self,
        constraint: Arc<dyn Constraint>,
    ) -> Result<ConstraintId, ModelError> {
        let scope = constraint.scope();
        if scope.is_empty() {
            return Err(ModelError::EmptyScope);
        }
        if let Some(&unknown) = scope.iter().find(|v| v.index() >= self.watchers.len()) {
            return Err(ModelError::UnknownVariable(unknown));
        }
        if let Some(why) = constraint.contradiction() {
            return Err(ModelError::NeverHolds(why));
        }
        let id =
            ConstraintId(u32::try_from(self.constraints.len()).map_err(|_| ModelError::TooMany)?);
        for &var in scope {
            let list = &mut self.watchers[var.index()];
            if list.last() != Some(&id) {
                list.push(id);
                let wake = constraint.wake_on(var);
                self.watcher_wakes[var.index()].push(wake);
                self.bounds_watched[var.index()] |= wake == Wake::Bounds;
            }
        }
        self.meta.push(ConstraintMeta {
            priority: constraint.priority(),
            priority_on: [Wake::Domain, Wake::Bounds, Wake::Fixed]
                .map(|event| constraint.priority_on(event)),
            idempotent: constraint.idempotent() && !names_a_variable_twice(scope),
            wants_changes: constraint.wants_changes(),
        });
        self.constraints.push(constraint);
        Ok(id)
    }

    /// The constraint with this id.
    #[inline]
    pub(crate) fn get(&self, id: ConstraintId) -> Option<&dyn Constraint> {
        self.constraints.get(id.index()).map(|c| c.as_ref())
    }

    /// The constraints that have `var` in their scope.
    #[inline]
    pub(crate) fn constraints_on(&self, var: VarId) -> &[ConstraintId] {
        self.watchers.get(var.index()).map_or(&[], Vec::as_slice)
    }

    /// The change of `var` that wakes each of [`Network::constraints_on`]`(var)`, in order.
    #[inline]
    pub(crate) fn wakes_on(&self, var: VarId) -> &[Wake] {
        self.watcher_wakes
            .get(var.index())
            .map_or(&[], Vec::as_slice)
    }
}

/// Whether some variable appears twice in `scope`.
fn names_a_variable_twice(scope: &[VarId]) -> bool {
    if scope.len() <= 8 {
        // Most constraints are this small: no allocation.
        return scope
            .iter()
            .enumerate()
            .any(|(i, v)| scope[i + 1..].contains(v));
    }
    let mut sorted = scope.to_vec();
    sorted.sort_unstable();
    sorted.windows(2).any(|w| w[0] == w[1])
}
