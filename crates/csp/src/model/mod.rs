//! `Model`: variables with finite domains and the constraints posted on them. The typed posting
//! methods (`all_different`, `linear`, ...) are in `post.rs`, above the constraints they build.

mod operand;
mod post;
mod projection;

pub use operand::Operand;
pub use post::Reification;

use crate::propagation::declared_domain::DeclaredDomain;
use crate::propagation::network::{Network, ValueLink};
use crate::{Constraint, ConstraintId, ModelError, VarId};
use std::borrow::Cow;
use std::ops::RangeInclusive;

/// One variable as declared: its name and its initial domain.
#[derive(Clone, Debug)]
pub(crate) struct VarDecl {
    pub(crate) name: Option<String>,
    pub(crate) domain: DeclaredDomain,
    /// Introduced by a front end to hold an intermediate value, not a variable of the
    /// problem as written: the dynamic orders branch on it only once the others are fixed.
    pub(crate) introduced: bool,
}

/// A constraint satisfaction problem: variables, their domains, and constraints.
///
/// Build it once, then solve it as often as you like with different [`Solver`](crate::Solver)
/// settings; solving never changes the model. A clone shares the constraints (they never
/// change once posted) and copies the rest.
#[derive(Clone, Debug, Default)]
pub struct Model {
    pub(crate) vars: Vec<VarDecl>,
    /// The constraints and who wakes them.
    pub(crate) network: Network,
    pub(crate) constraint_names: Vec<Option<String>>,
    /// Names by a rule, for variables created without one.
    namer: Option<Namer>,
    /// The value literals added for the LP relaxation, by variable
    /// ([`Model::add_value_literals`]).
    pub(crate) value_literals: std::collections::BTreeMap<VarId, Vec<(i32, VarId)>>,
}

/// A rule that names variables: a sudoku's cells are r1c1 to r9c9 without a string each.
#[derive(Clone)]
struct Namer(std::sync::Arc<dyn Fn(VarId) -> Option<String> + Send + Sync>);

impl std::fmt::Debug for Namer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Namer")
    }
}

impl Model {
    /// An empty model.
    pub fn new() -> Self {
        Model::default()
    }

    /// A variable over the integers in `range`, any range of `i32`: a narrow one is held as a
    /// bitset, a wide one (such as `0..=1_000_000_000`) as bounds and holes, whose memory does
    /// not grow with the span.
    pub fn new_var(&mut self, range: RangeInclusive<i32>) -> Result<VarId, ModelError> {
        self.push_var(None, DeclaredDomain::range(*range.start(), *range.end())?)
    }

    /// A named variable over the integers in `range`; the name shows in traces.
    pub fn new_named_var(
        &mut self,
        name: impl Into<String>,
        range: RangeInclusive<i32>,
    ) -> Result<VarId, ModelError> {
        let domain = DeclaredDomain::range(*range.start(), *range.end())?;
        self.push_var(Some(name.into()), domain)
    }

    /// A 0/1 variable, for Booleans (false is 0, true is 1).
    pub fn new_bool(&mut self) -> Result<VarId, ModelError> {
        self.new_var(0..=1)
    }

    /// A variable over exactly `values` (in any order; duplicates are ignored).
    pub fn new_var_from_values(
        &mut self,
        name: Option<&str>,
        values: &[i32],
    ) -> Result<VarId, ModelError> {
        self.push_var(name.map(str::to_owned), DeclaredDomain::values(values)?)
    }

    fn push_var(
        &mut self,
        name: Option<String>,
        domain: DeclaredDomain,
    ) -> Result<VarId, ModelError> {
        let id = u32::try_from(self.vars.len()).map_err(|_| ModelError::TooMany)?;
        self.vars.push(VarDecl {
            name,
            domain,
            introduced: false,
        });
        self.network.add_var();
        Ok(VarId(id))
    }

    /// Marks `var` as introduced by a front end (an intermediate value, as FlatZinc's
    /// `var_is_introduced`): `dom/deg` and `dom/wdeg` branch on it only once every variable
    /// not so marked is fixed, as ACE branches on the instance's own variables.
    pub fn set_introduced(&mut self, var: VarId) {
        if let Some(decl) = self.vars.get_mut(var.index()) {
            decl.introduced = true;
        }
    }

    /// Marks `var` introduced or, with `false`, a variable of the problem again: for a front
    /// end whose idea of which variables are the user's grows with the model (CPMpy's, whose
    /// user variables are those named in the constraints posted so far).
    pub fn mark_introduced(&mut self, var: VarId, introduced: bool) {
        if let Some(decl) = self.vars.get_mut(var.index()) {
            decl.introduced = introduced;
        }
    }

    /// Whether `var` is marked introduced.
    pub fn is_introduced(&self, var: VarId) -> bool {
        self.vars.get(var.index()).is_some_and(|d| d.introduced)
    }

    /// Posts any constraint, built in or your own. Fails if its scope is empty or names a
    /// variable this model does not have.
    ///
    /// A constraint that names a variable twice is run again after its own changes whatever
    /// its [`Constraint::idempotent`] says: its filtering treats the two places apart, so a
    /// removal at one can leave work at the other (`all_different(x, x + 1, y)`).
    pub fn post(
        &mut self,
        constraint: impl Constraint + 'static,
    ) -> Result<ConstraintId, ModelError> {
        self.post_boxed(Box::new(constraint), None)
    }

    /// Posts a constraint with a name that traces show instead of its description.
    pub fn post_named(
        &mut self,
        constraint: impl Constraint + 'static,
        name: impl Into<String>,
    ) -> Result<ConstraintId, ModelError> {
        self.post_boxed(Box::new(constraint), Some(name.into()))
    }

    fn post_boxed(
        &mut self,
        constraint: Box<dyn Constraint>,
        name: Option<String>,
    ) -> Result<ConstraintId, ModelError> {
        let id = self.network.add(constraint.into())?;
        self.constraint_names.push(name);
        Ok(id)
    }

    /// Posts a reified comparison of a variable with a constant, woken on that variable
    /// through `link` (see [`ValueLink`]).
    pub(crate) fn post_linked(
        &mut self,
        constraint: Box<dyn Constraint>,
        link: Option<(ValueLink, VarId)>,
    ) -> Result<ConstraintId, ModelError> {
        let id = self.network.add_linked(constraint.into(), link)?;
        self.constraint_names.push(None);
        Ok(id)
    }

    /// How many variables the model has.
    pub fn var_count(&self) -> usize {
        self.vars.len()
    }

    /// How many constraints the model has.
    pub fn constraint_count(&self) -> usize {
        self.network.len()
    }

    /// The constraints, in posting order.
    pub fn constraint_ids(&self) -> impl Iterator<Item = ConstraintId> {
        (0..self.network.len() as u32).map(ConstraintId)
    }

    /// The variables, in creation order.
    pub fn vars(&self) -> impl Iterator<Item = VarId> {
        (0..self.vars.len() as u32).map(VarId)
    }

    /// The variable's name: the one given at its creation, else the one the rule of
    /// [`Model::name_by`] gives, if any.
    pub fn var_name(&self, var: VarId) -> Option<Cow<'_, str>> {
        if let Some(name) = self.vars.get(var.index())?.name.as_deref() {
            return Some(Cow::Borrowed(name));
        }
        self.namer
            .as_ref()
            .and_then(|rule| rule.0(var))
            .map(Cow::Owned)
    }

    /// Names the variables created without a name by `rule`, when a name is asked for (traces,
    /// the replay page). Cheaper than a string per variable where names follow a pattern: a
    /// sudoku model built for each of thousands of puzzles names its cells this way.
    pub fn name_by(&mut self, rule: impl Fn(VarId) -> Option<String> + Send + Sync + 'static) {
        self.namer = Some(Namer(std::sync::Arc::new(rule)));
    }

    /// The initial domain of `var`, smallest value first (every value: mind wide domains).
    pub fn initial_domain(&self, var: VarId) -> Vec<i32> {
        self.initial_values(var).collect()
    }

    /// The initial domain of `var`, smallest value first, one at a time.
    pub fn initial_values(&self, var: VarId) -> impl Iterator<Item = i32> + '_ {
        self.vars
            .get(var.index())
            .into_iter()
            .flat_map(|d| d.domain.iter())
    }

    /// How many values `var`'s initial domain has (0 for a variable not of this model),
    /// without listing them.
    pub fn initial_size(&self, var: VarId) -> u64 {
        self.vars.get(var.index()).map_or(0, |d| d.domain.size())
    }

    /// The smallest and largest values of `var`'s initial domain.
    pub fn initial_bounds(&self, var: VarId) -> Option<(i32, i32)> {
        self.vars
            .get(var.index())
            .map(|d| (d.domain.low, d.domain.high))
    }

    /// The constraint with this id.
    pub fn constraint(&self, id: ConstraintId) -> Option<&dyn Constraint> {
        self.network.get(id)
    }

    /// The constraints that have `var` in their scope.
    pub fn constraints_on(&self, var: VarId) -> &[ConstraintId] {
        self.network.constraints_on(var)
    }

    /// The name given at posting, or the constraint's own description.
    pub fn constraint_name(&self, id: ConstraintId) -> String {
        if id == ConstraintId::OBJECTIVE {
            return id.to_string();
        }
        match self.constraint_names.get(id.index()) {
            Some(Some(name)) => name.clone(),
            Some(None) => self.network.constraints[id.index()].describe(),
            None => format!("{id}"),
        }
    }

    /// A digest of the model's shape: each variable's domain (bounds and size) and each
    /// constraint's scope, in order (FNV-1a, the same on every machine and build). Two loads
    /// of one file give the same; a cube or a result made for another model is told apart
    /// by it before it can be applied to the wrong variables.
    pub fn fingerprint(&self) -> u64 {
        const PRIME: u64 = 0x0000_0100_0000_01b3;
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |word: u64| {
            for byte in word.to_le_bytes() {
                hash = (hash ^ u64::from(byte)).wrapping_mul(PRIME);
            }
        };
        eat(self.vars.len() as u64);
        for var in &self.vars {
            eat(var.domain.low as u64);
            eat(var.domain.high as u64);
            eat(var.domain.size());
        }
        eat(self.network.len() as u64);
        for constraint in &self.network.constraints {
            let scope = constraint.scope();
            eat(scope.len() as u64);
            for var in scope {
                eat(u64::from(var.0));
            }
        }
        hash
    }

    /// Whether `values` (one per variable, in creation order) satisfies every constraint, each
    /// judged by its own `is_satisfied` alone. Returns the first broken constraint otherwise.
    pub fn check_solution(&self, values: &[i32]) -> Result<(), ConstraintId> {
        // Values past the model's variables are those a copy of it added (an LP's value
        // literals, after every variable of the model): no constraint here reads them.
        if values.len() < self.vars.len() {
            return Err(ConstraintId(0));
        }
        let mut scoped = Vec::new();
        for (i, c) in self.network.constraints.iter().enumerate() {
            scoped.clear();
            scoped.extend(c.scope().iter().map(|v| values[v.index()]));
            if !c.is_satisfied(&scoped) {
                return Err(ConstraintId(i as u32));
            }
        }
        Ok(())
    }
}

/// A model's declared domains bound its variables for a relaxation's big-M forms.
impl crate::DeclaredBounds for Model {
    fn bounds(&self, var: VarId) -> (i32, i32) {
        self.initial_bounds(var).unwrap_or((0, 0))
    }

    fn value_literals(&self, var: VarId) -> Option<&[(i32, VarId)]> {
        self.value_literals.get(&var).map(Vec::as_slice)
    }
}
