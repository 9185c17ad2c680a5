//! `Model::add_projections`: implied tables on the variables around small clusters of
//! constraints whose other variables appear nowhere else.

use crate::{ConstraintId, Model, ModelError, VarId};
use std::collections::{BTreeSet, HashSet};

/// The most variables in a cluster, and in its frontier (the table added).
const MOST_CLUSTER_VARS: usize = 5;
const MOST_FRONTIER_VARS: usize = 3;
/// The most constraints on a variable the cluster reads; one on more is on its frontier.
const MOST_LOCAL_DEGREE: usize = 64;
/// The most assignments of one cluster enumerated, and of all clusters together.
const MOST_CLUSTER_ASSIGNMENTS: u64 = 1 << 17;
const MOST_ASSIGNMENTS: u64 = 1 << 24;

impl Model {
    /// Adds, for each small cluster of constraints around variables that no other constraint
    /// involves, the table of the combinations the cluster allows on its other variables, its
    /// frontier. Returns how many tables it added.
    ///
    /// A front end's auxiliary variables often carry a relation between two others in
    /// pieces: a knight's move between the cells `x` and `y` as `|row(x) - row(y)| = a`,
    /// `|col(x) - col(y)| = b` and `(a, b)` in `{(1, 2), (2, 1)}`. Each piece is filtered to
    /// domain consistency, yet fixing `x` leaves `y` every cell at distance 1 or 2 in both
    /// directions, the diagonal ones too. The projection onto `(x, y)` is the knight's move
    /// itself, which the pieces only imply: posted beside them, it prunes what they cannot
    /// (XCSP3's QueenAttacking-hybrid-6 went from no tour in 60 s to its optimum in seconds).
    /// The pieces stay, so the auxiliary variables keep their values in every solution.
    ///
    /// A cluster starts from a variable; its variables are the scopes of that variable's
    /// constraints, those whose every constraint lies within them are local, the others its
    /// frontier. It is projected when it has at most 5 variables, 1 to 3 of them on the
    /// frontier, two constraints or more, at most 2^17 combinations of initial values, and
    /// the projection rules some combination of the frontier out (but not all); 2^24
    /// combinations at most are enumerated in all.
    pub fn add_projections(&mut self) -> Result<usize, ModelError> {
        let mut seen: HashSet<Vec<VarId>> = HashSet::new();
        let mut budget = MOST_ASSIGNMENTS;
        let mut added = 0;
        let vars: Vec<VarId> = self.vars().collect();
        for start in vars {
            let Some(cluster) = self.cluster_around(start) else {
                continue;
            };
            if !seen.insert(cluster.vars.clone()) {
                continue;
            }
            let Some(combinations) = self.combinations(&cluster.vars) else {
                continue;
            };
            if combinations > MOST_CLUSTER_ASSIGNMENTS || combinations > budget {
                continue;
            }
            budget -= combinations;
            if let Some(pairs) = self.project(&cluster) {
                self.post_projection(&cluster.frontier, pairs)?;
                added += 1;
            }
        }
        Ok(added)
    }

    /// The cluster around `start`, if it is small and has both local variables and a frontier.
    fn cluster_around(&self, start: VarId) -> Option<Cluster> {
        let mut vars = BTreeSet::new();
        for &c in self.constraints_on(start) {
            // Variable by variable: one wide scope (a sum over every task) would otherwise
            // be copied whole for each of its variables, quadratic in its width.
            for &v in self.constraint(c)?.scope() {
                vars.insert(v);
                if vars.len() > MOST_CLUSTER_VARS {
                    return None;
                }
            }
        }
        let within = |c: ConstraintId| {
            self.constraint(c)
                .is_some_and(|c| c.scope().iter().all(|v| vars.contains(v)))
        };
        // A variable on many constraints is taken for the frontier unread: it is on some
        // constraint outside the cluster in any model worth projecting, and reading its
        // constraints for every cluster that touches it would be quadratic in its degree.
        let read = |v: VarId| self.constraints_on(v).len() <= MOST_LOCAL_DEGREE;
        let (local, frontier): (Vec<VarId>, Vec<VarId>) = vars
            .iter()
            .partition(|&&v| read(v) && self.constraints_on(v).iter().all(|&c| within(c)));
        if local.is_empty() || frontier.is_empty() || frontier.len() > MOST_FRONTIER_VARS {
            return None;
        }
        let mut constraints: Vec<ConstraintId> = vars
            .iter()
            .filter(|&&v| read(v))
            .flat_map(|&v| self.constraints_on(v).iter().copied())
            .filter(|&c| within(c))
            .collect();
        constraints.sort_unstable();
        constraints.dedup();
        if constraints.len() < 2 {
            // One constraint's projection adds nothing its own domain-consistent filtering
            // does not already enforce (`x != y` out of an all-different over `x, y, z`).
            return None;
        }
        Some(Cluster {
            vars: vars.into_iter().collect(),
            frontier,
            constraints,
        })
    }

    /// How many combinations of initial values `vars` have, if that fits a `u64`.
    fn combinations(&self, vars: &[VarId]) -> Option<u64> {
        vars.iter().try_fold(1u64, |n, &v| {
            let (low, high) = self.initial_bounds(v)?;
            let width = (i64::from(high) - i64::from(low) + 1) as u64;
            n.checked_mul(width.min(MOST_CLUSTER_ASSIGNMENTS + 1))
        })
    }

    /// The combinations of the frontier that some assignment of the cluster allowed by all
    /// its constraints extends; `None` when that is every combination (nothing to add).
    fn project(&self, cluster: &Cluster) -> Option<Vec<Vec<i32>>> {
        let domains: Vec<Vec<i32>> = cluster
            .vars
            .iter()
            .map(|&v| self.initial_domain(v))
            .collect();
        if domains.iter().any(Vec::is_empty) {
            return None;
        }
        let place = |v: VarId| cluster.vars.iter().position(|&u| u == v);
        let scopes: Vec<(&dyn crate::Constraint, Vec<usize>)> = cluster
            .constraints
            .iter()
            .filter_map(|&c| {
                let constraint = self.constraint(c)?;
                let places: Option<Vec<usize>> =
                    constraint.scope().iter().map(|&v| place(v)).collect();
                Some((constraint, places?))
            })
            .collect();
        let frontier: Vec<usize> = cluster.frontier.iter().filter_map(|&v| place(v)).collect();
        let mut allowed: BTreeSet<Vec<i32>> = BTreeSet::new();
        let mut at = vec![0usize; domains.len()];
        let mut values: Vec<i32> = domains.iter().map(|d| d[0]).collect();
        let mut scoped = Vec::new();
        'assignments: loop {
            let holds = scopes.iter().all(|(constraint, places)| {
                scoped.clear();
                scoped.extend(places.iter().map(|&p| values[p]));
                constraint.is_satisfied(&scoped)
            });
            if holds {
                allowed.insert(frontier.iter().map(|&p| values[p]).collect());
            }
            // The next assignment, the last variable fastest.
            for k in (0..domains.len()).rev() {
                at[k] += 1;
                if at[k] < domains[k].len() {
                    values[k] = domains[k][at[k]];
                    continue 'assignments;
                }
                at[k] = 0;
                values[k] = domains[k][0];
            }
            break;
        }
        let every: usize = frontier.iter().map(|&p| domains[p].len()).product();
        // Nothing allowed: the cluster has no solution, which its own filtering finds.
        (!allowed.is_empty() && allowed.len() < every).then(|| allowed.into_iter().collect())
    }

    /// Posts the table of `rows` over `frontier`.
    fn post_projection(
        &mut self,
        frontier: &[VarId],
        rows: Vec<Vec<i32>>,
    ) -> Result<ConstraintId, ModelError> {
        let tuples: Vec<Vec<Option<i32>>> = rows
            .into_iter()
            .map(|row| row.into_iter().map(Some).collect())
            .collect();
        self.extension(frontier, &tuples, true)
    }
}

/// Variables, sorted, the constraints within them, and those of them that other constraints
/// involve too.
struct Cluster {
    vars: Vec<VarId>,
    frontier: Vec<VarId>,
    constraints: Vec<ConstraintId>,
}

#[cfg(test)]
mod tests;
