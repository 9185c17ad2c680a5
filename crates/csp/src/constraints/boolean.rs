//! Boolean constraints over 0/1 variables: literals, and/or gates, clauses and parity.
//!
//! A Boolean is a variable over `0..=1` ([`Model::new_bool`](crate::Model::new_bool)), 0 for
//! false; a [`Lit`] is one, or its negation. Every constraint here first keeps its variables
//! within 0/1, so an integer variable used as a Boolean is narrowed to it.

use super::listed::listed;
use crate::{Atom, Conflict, Constraint, Context, DeclaredBounds, LinearRow, VarId, Wake};
use std::fmt;

/// A Boolean literal: a 0/1 variable (`positive`) or its negation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lit {
    /// The variable, over 0/1.
    pub var: VarId,
    /// True for `var`, false for `not var`.
    pub positive: bool,
}

impl Lit {
    /// The literal `var` (true when `var` is 1).
    pub fn pos(var: VarId) -> Self {
        Lit {
            var,
            positive: true,
        }
    }

    /// The literal `not var` (true when `var` is 0).
    pub fn neg(var: VarId) -> Self {
        Lit {
            var,
            positive: false,
        }
    }

    /// The opposite literal.
    pub fn negated(self) -> Self {
        Lit {
            var: self.var,
            positive: !self.positive,
        }
    }

    /// Whether the literal is true when its variable takes `value` (1 is true).
    fn is_true_for(self, value: i32) -> bool {
        (value == 1) == self.positive
    }

    /// The literal's value (1 true, 0 false) as `constant + coefficient * var`.
    fn linear(self) -> (i64, i64) {
        if self.positive {
            (0, 1)
        } else {
            (1, -1)
        }
    }

    /// The literal's truth once its variable is fixed.
    fn value(self, ctx: &Context<'_>) -> Option<bool> {
        ctx.fixed_value(self.var).map(|v| self.is_true_for(v))
    }

    /// Makes the literal `truth`, because of `reason`.
    fn set(self, truth: bool, ctx: &mut Context<'_>, reason: &[Atom]) -> Result<(), Conflict> {
        let value = i32::from(truth == self.positive);
        ctx.fix_because(self.var, value, reason).map(|_| ())
    }

    /// The atom that says the literal is `truth`.
    fn atom(self, truth: bool) -> Atom {
        Atom::Eq(self.var, i32::from(truth == self.positive))
    }
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.positive {
            write!(f, "{}", self.var)
        } else {
            write!(f, "not {}", self.var)
        }
    }
}

/// Keeps every variable of `scope` within 0/1.
fn restrict_to_bool(scope: &[VarId], ctx: &mut Context<'_>) -> Result<(), Conflict> {
    for &var in scope {
        ctx.within(var, 0, 1)?;
    }
    Ok(())
}

/// Which gate a [`BoolGate`] is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Gate {
    /// All the literals hold.
    And,
    /// At least one literal holds.
    Or,
}

/// `r <-> and(lits)` or `r <-> or(lits)`; without `r`, the gate itself must hold (for `or`,
/// that is a clause).
///
/// Consistency: domain consistency when the variables are distinct (a false literal makes an
/// `and` false, all true make it true; a true `and` makes every literal true, a false one with
/// a single literal open makes that one false; `or` is the mirror). One pass over the literals
/// per wake-up. Under `none` and `fc`, the default hooks.
#[derive(Clone, Debug)]
pub struct BoolGate {
    gate: Gate,
    lits: Vec<Lit>,
    result: Option<Lit>,
    /// The result's variable (if any), then the literals' variables.
    scope: Vec<VarId>,
}

impl BoolGate {
    /// `result <-> gate(lits)`, or `gate(lits)` must hold when `result` is `None`.
    pub fn new(gate: Gate, lits: &[Lit], result: Option<Lit>) -> Self {
        let scope = result.iter().chain(lits).map(|l| l.var).collect();
        BoolGate {
            gate,
            lits: lits.to_vec(),
            result,
            scope,
        }
    }

    /// The clause `or(positive) or or(not negative)`.
    pub fn clause(positive: &[VarId], negative: &[VarId]) -> Self {
        let lits: Vec<Lit> = positive
            .iter()
            .map(|&v| Lit::pos(v))
            .chain(negative.iter().map(|&v| Lit::neg(v)))
            .collect();
        BoolGate::new(Gate::Or, &lits, None)
    }

    /// The gate as a conjunction: `and` as it is, `or(l) = not and(not l)`. Returns whether
    /// the literals are to be read negated and the conjunction's target: a literal, or the
    /// truth it must have.
    fn as_conjunction(&self) -> (bool, Result<Lit, bool>) {
        match (self.gate, self.result) {
            (Gate::And, Some(r)) => (false, Ok(r)),
            (Gate::And, None) => (false, Err(true)),
            (Gate::Or, Some(r)) => (true, Ok(r.negated())),
            (Gate::Or, None) => (true, Err(false)),
        }
    }
}

impl Constraint for BoolGate {
    /// It acts on fixed literals only.
    fn wake_on(&self, _var: VarId) -> Wake {
        Wake::Fixed
    }

    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    /// A clause as `sum(lits) >= 1`; `r <-> or(lits)` as `r >= l` for each literal and
    /// `r <= sum(lits)`, `r <-> and(lits)` as `r <= l` and `r >= sum(lits) - (n - 1)`: the
    /// convex hull of each gate. A conjunction that must hold fixes its literals at the
    /// root, and gives nothing.
    fn relax(&self, _declared: &dyn DeclaredBounds, rows: &mut Vec<LinearRow>) {
        let mut sum_terms: Vec<(i64, VarId)> = Vec::with_capacity(self.lits.len() + 1);
        let mut sum_constant = 0;
        for l in &self.lits {
            let (c, a) = l.linear();
            sum_constant += c;
            sum_terms.push((a, l.var));
        }
        let Some(r) = self.result else {
            if self.gate == Gate::Or {
                rows.push(LinearRow::at_least(sum_terms, 1 - sum_constant));
            }
            return;
        };
        let (cr, ar) = r.linear();
        // Each literal against the result: (cr + ar r) - (cl + al x), at least 0 for `or`
        // (r >= l), at most 0 for `and` (r <= l).
        for l in &self.lits {
            let (cl, al) = l.linear();
            let terms = vec![(ar, r.var), (-al, l.var)];
            rows.push(match self.gate {
                Gate::Or => LinearRow::at_least(terms, cl - cr),
                Gate::And => LinearRow::at_most(terms, cl - cr),
            });
        }
        let n = self.lits.len() as i64;
        let mut terms: Vec<(i64, VarId)> = sum_terms.iter().map(|&(a, x)| (-a, x)).collect();
        terms.push((ar, r.var));
        // r - sum(lits): at most 0 for `or`, at least -(n - 1) for `and`.
        rows.push(match self.gate {
            Gate::Or => LinearRow::at_most(terms, sum_constant - cr),
            Gate::And => LinearRow::at_least(terms, sum_constant - cr - (n - 1)),
        });
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        if values.iter().any(|&v| v != 0 && v != 1) {
            return false;
        }
        let (result, lits) = match self.result {
            Some(r) => (Some(r.is_true_for(values[0])), &values[1..]),
            None => (None, values),
        };
        let mut truths = self.lits.iter().zip(lits).map(|(l, &v)| l.is_true_for(v));
        let holds = match self.gate {
            Gate::And => truths.all(|t| t),
            Gate::Or => truths.any(|t| t),
        };
        result.map_or(holds, |r| r == holds)
    }

    fn describe(&self) -> String {
        let lits = listed(self.lits.iter(), 8, ", ");
        let name = match self.gate {
            Gate::And => "and",
            Gate::Or => "or",
        };
        match self.result {
            Some(r) => format!("{r} <-> {name}({lits})"),
            None => format!("{name}({lits})"),
        }
    }

    /// A long clause (a model's `bool_clause` over every support variable) is woken by each
    /// of its literals fixed: told which, it keeps only those within 0/1, not the whole
    /// scope again (the whole scope comes at the root).
    fn wants_changes(&self) -> bool {
        self.scope.len() > 8
    }

    fn propagate_changed(&self, changed: &[VarId], ctx: &mut Context<'_>) -> Result<(), Conflict> {
        restrict_to_bool(changed, ctx)?;
        self.filter(ctx)
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        restrict_to_bool(&self.scope, ctx)?;
        self.filter(ctx)
    }
}

impl BoolGate {
    /// Filtering on literals within 0/1.
    fn filter(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let (flip, target) = self.as_conjunction();
        let lit = |l: Lit| if flip { l.negated() } else { l };
        let target_lit = target.ok();
        let target_false = |ctx: &Context<'_>| match target {
            Ok(t) => t.value(ctx) == Some(false),
            Err(truth) => !truth,
        };
        // target <-> and(lit(l) for l in lits)
        ctx.count_checks(1);
        let explaining = ctx.explaining();
        let mut open = 0usize;
        let mut last_open = None;
        for &l in &self.lits {
            match lit(l).value(ctx) {
                Some(false) => {
                    return match target {
                        Ok(t) => t.set(false, ctx, &[lit(l).atom(false)]),
                        Err(true) => Err(ctx.violated()),
                        Err(false) => Ok(()),
                    };
                }
                Some(true) => {}
                None => {
                    open += 1;
                    last_open = Some(lit(l));
                    // Two open literals under a conjunction that must be false leave
                    // nothing to do, whatever the rest are (a false one would only satisfy
                    // it): a clause stops reading here.
                    if open == 2 && target_false(ctx) {
                        return Ok(());
                    }
                }
            }
        }
        let target = match target {
            Ok(t) => t.value(ctx).ok_or(t),
            Err(truth) => Ok(truth),
        };
        // The literals that are true now, as atoms, for reasons.
        let true_atoms = |except: Option<Lit>| -> Vec<Atom> {
            if !explaining {
                return Vec::new();
            }
            self.lits
                .iter()
                .map(|&l| lit(l))
                .filter(|&l| Some(l) != except)
                .map(|l| l.atom(true))
                .collect()
        };
        match (target, last_open) {
            // Every literal true: so is the conjunction.
            (Err(t), None) => t.set(true, ctx, &true_atoms(None)),
            (Ok(false), None) => Err(ctx.violated()),
            (Ok(true), _) => {
                let reason: Vec<Atom> = target_lit.iter().map(|t| t.atom(true)).collect();
                for &l in &self.lits {
                    lit(l).set(true, ctx, &reason)?;
                }
                Ok(())
            }
            (Ok(false), Some(only)) if open == 1 => {
                let mut reason = true_atoms(Some(only));
                reason.extend(target_lit.map(|t| t.atom(false)));
                only.set(false, ctx, &reason)
            }
            _ => Ok(()),
        }
    }
}

/// `xor(lits)`: an odd number of the literals hold when `odd`, an even number otherwise.
///
/// Consistency: domain consistency (the last open variable is set to make the parity right;
/// until then every value has a support). A negated literal is its variable xor 1, and a
/// variable named twice cancels out, so propagation works on the variables named an odd number
/// of times against the parity that leaves.
#[derive(Clone, Debug)]
pub struct BoolXor {
    lits: Vec<Lit>,
    odd: bool,
    scope: Vec<VarId>,
    /// The variables named an odd number of times, and the parity they must have.
    counted: Vec<VarId>,
    counted_odd: bool,
}

impl BoolXor {
    /// The parity of the true literals is odd when `odd`, even otherwise.
    pub fn new(lits: &[Lit], odd: bool) -> Self {
        let negated = lits.iter().filter(|l| !l.positive).count();
        let mut vars: Vec<VarId> = lits.iter().map(|l| l.var).collect();
        vars.sort_unstable();
        let counted = vars
            .chunk_by(|a, b| a == b)
            .filter(|run| run.len() % 2 == 1)
            .map(|run| run[0])
            .collect();
        BoolXor {
            lits: lits.to_vec(),
            odd,
            scope: lits.iter().map(|l| l.var).collect(),
            counted,
            counted_odd: odd != (negated % 2 == 1),
        }
    }
}

impl Constraint for BoolXor {
    /// It acts on fixed literals only.
    fn wake_on(&self, _var: VarId) -> Wake {
        Wake::Fixed
    }

    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    /// Two literals as one row: `l1 + l2 = 1` when odd (they differ), `l1 - l2 = 0` when
    /// even (they are equal, as `bool2int` makes them). Longer parities give nothing.
    fn relax(&self, _declared: &dyn DeclaredBounds, rows: &mut Vec<LinearRow>) {
        let [l1, l2] = self.lits[..] else {
            return;
        };
        let ((c1, a1), (c2, a2)) = (l1.linear(), l2.linear());
        rows.push(if self.odd {
            LinearRow::equal(vec![(a1, l1.var), (a2, l2.var)], 1 - c1 - c2)
        } else {
            LinearRow::equal(vec![(a1, l1.var), (-a2, l2.var)], c2 - c1)
        });
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        values.iter().all(|&v| v == 0 || v == 1)
            && self
                .lits
                .iter()
                .zip(values)
                .filter(|(l, &v)| l.is_true_for(v))
                .count()
                % 2
                == usize::from(self.odd)
    }

    fn describe(&self) -> String {
        let parity = if self.odd { "odd" } else { "even" };
        format!("xor({}) is {parity}", listed(self.lits.iter(), 8, ", "))
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        restrict_to_bool(&self.scope, ctx)?;
        ctx.count_checks(1);
        let mut parity = false;
        let mut open = None;
        for &var in &self.counted {
            match ctx.fixed_value(var) {
                Some(v) => parity ^= v == 1,
                None if open.is_some() => return Ok(()),
                None => open = Some(var),
            }
        }
        match open {
            Some(var) => {
                // The others' values decide it.
                let reason: Vec<Atom> = if ctx.explaining() {
                    self.counted
                        .iter()
                        .filter(|&&v| v != var)
                        .filter_map(|&v| ctx.fixed_value(v).map(|x| Atom::Eq(v, x)))
                        .collect()
                } else {
                    Vec::new()
                };
                let value = i32::from(parity != self.counted_odd);
                ctx.fix_because(var, value, &reason).map(|_| ())
            }
            None if parity == self.counted_odd => Ok(()),
            None => Err(ctx.violated()),
        }
    }
}
