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
    watcher_wakes: Vec<Vec<WakeCode>>,
    /// Whether some constraint wakes on a change of the variable's bounds (and only then
    /// does propagation compare its bounds before and after).
    pub(crate) bounds_watched: Vec<bool>,
    /// For each variable, the reified comparisons of it with a constant, woken only when
    /// the comparison is settled by a change of it (see [`ValueLink`]).
    links: Vec<Links>,
}

/// How a reified comparison of a variable with a constant (`b <-> x <= 3`, `b <-> x = 5`)
/// depends on that variable: it can act only when a change of `x` settles the comparison,
/// which is a few of them per change where a variable with a literal for each of its values
/// has dozens. Chuffed and Pumpkin make such `b` the very literal of `x`; here the
/// comparisons stay propagators, but a change of `x` wakes only those it settles.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum ValueLink {
    /// `x <= threshold` (or its negation): settled once `threshold < min(x)` or
    /// `max(x) <= threshold`.
    AtMost(VarId, i64),
    /// `x = value` (or `x != value`): settled once `value` went or `x` is fixed.
    At(VarId, i64),
}

impl ValueLink {
    /// The variable compared.
    pub(crate) fn var(self) -> VarId {
        match self {
            ValueLink::AtMost(x, _) | ValueLink::At(x, _) => x,
        }
    }
}

/// One linked comparison: its constant, its 0/1 variable and the constraint.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Link {
    pub(crate) value: i64,
    pub(crate) b: VarId,
    pub(crate) constraint: ConstraintId,
}

/// A variable's linked comparisons, each kind sorted by its constant.
#[derive(Clone, Debug, Default)]
pub(crate) struct Links {
    pub(crate) at_most: Vec<Link>,
    pub(crate) at: Vec<Link>,
}

impl Links {
    fn insert(list: &mut Vec<Link>, link: Link) {
        let at = list.partition_point(|l| l.value <= link.value);
        list.insert(at, link);
    }

    /// The links of `list` whose constant lies in `low..=high`.
    pub(crate) fn within(list: &[Link], low: i64, high: i64) -> &[Link] {
        if low > high {
            return &[];
        }
        let start = list.partition_point(|l| l.value < low);
        let end = list.partition_point(|l| l.value <= high);
        &list[start..end.max(start)]
    }
}

/// A watcher's wake condition as the queue reads it: a [`Wake`] as a number, or
/// [`LINKED`] for a comparison woken through its variable's [`Links`] instead.
pub(crate) type WakeCode = u8;

/// The wake code of a linked comparison on its variable: above every event, so no event
/// wakes it through the watcher list.
pub(crate) const LINKED: WakeCode = 3;

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
        self.links.push(Links::default());
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
        self.add_linked(constraint, None)
    }

    /// Adds `constraint` as [`Network::add`] does; with a `link`, it is a reified
    /// comparison of the link's variable with a constant, woken on that variable only when a
    /// change settles the comparison (its own 0/1 variable must be another variable).
    pub(crate) fn add_linked(
        &mut self,
        constraint: Arc<dyn Constraint>,
        link: Option<(ValueLink, VarId)>,
    ) -> Result<ConstraintId, ModelError> {
        // A comparison reifying itself (`b <-> b <= 0`) is woken as any other constraint.
        let link = link.filter(|&(link, b)| link.var() != b);
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
                if link.is_some_and(|(link, _)| link.var() == var) {
                    self.watcher_wakes[var.index()].push(LINKED);
                    continue;
                }
                let wake = constraint.wake_on(var);
                self.watcher_wakes[var.index()].push(wake as WakeCode);
                self.bounds_watched[var.index()] |= wake == Wake::Bounds;
            }
        }
        if let Some((link, b)) = link {
            let links = &mut self.links[link.var().index()];
            let (list, value) = match link {
                ValueLink::AtMost(_, value) => (&mut links.at_most, value),
                ValueLink::At(_, value) => (&mut links.at, value),
            };
            Links::insert(
                list,
                Link {
                    value,
                    b,
                    constraint: id,
                },
            );
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

    /// The reified comparisons of `var` with constants, woken through these links.
    #[inline]
    pub(crate) fn links(&self, var: VarId) -> Option<&Links> {
        self.links
            .get(var.index())
            .filter(|l| !l.at_most.is_empty() || !l.at.is_empty())
    }

    /// The change of `var` that wakes each of [`Network::constraints_on`]`(var)`, in order.
    #[inline]
    pub(crate) fn wakes_on(&self, var: VarId) -> &[WakeCode] {
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
