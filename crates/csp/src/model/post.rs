//! The model's typed posting methods: one per constraint family of `constraints/`, each
//! checking its arguments and building the propagator (`Model::post` takes any constraint).

use crate::constraints::{
    Abs, AllDifferent, AllDifferentExcept, Among, ArgExtremum, ArithOp, Arithmetic, ArrayMember,
    BinPackingLoad, Binary, BoolGate, BoolXor, Circuit, Compare, Count, Cumulative, Diffn,
    Disjunctive, Element, Extremum, Gate, GlobalCardinality, Increasing, Inverse, Knapsack, Lex,
    Linear, Lit, Member, NValue, NotEqual, Path, Regular, Reifiable, Reified, Relation, Table,
    ValuePrecede, SMALL_FACTOR_DECLARED,
};
use crate::{Consistency, ConstraintId, Model, ModelError, Operand, VarId};

/// How a 0/1 variable stands to a constraint it reifies (see [`Model::reify`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reification {
    /// `b <-> c`: `b` is 1 exactly when `c` holds.
    Full,
    /// `b -> c`: `c` holds when `b` is 1; when `b` is 0, `c` may hold or not.
    Half,
}

impl Model {
    /// `x != y`.
    pub fn not_equal(&mut self, x: VarId, y: VarId) -> Result<ConstraintId, ModelError> {
        self.post(NotEqual::new(x, y, 0))
    }

    /// `x rel y`, for any of the six relations (see [`Relation`]), where `y` is a variable
    /// or a constant ([`Operand`]).
    pub fn compare(
        &mut self,
        x: VarId,
        relation: Relation,
        y: impl Into<Operand>,
    ) -> Result<ConstraintId, ModelError> {
        match y.into() {
            Operand::Var(y) => self.compare_offset(x, relation, y, 0),
            Operand::Value(value) => self.compare_value(x, relation, value),
        }
    }

    /// `x rel y + offset`.
    pub fn compare_offset(
        &mut self,
        x: VarId,
        relation: Relation,
        y: VarId,
        offset: i64,
    ) -> Result<ConstraintId, ModelError> {
        self.post(Compare::new(x, relation, y, offset))
    }

    /// `x rel value` (as [`Model::compare`] with a constant).
    pub fn compare_value(
        &mut self,
        x: VarId,
        relation: Relation,
        value: i64,
    ) -> Result<ConstraintId, ModelError> {
        self.post(Compare::with_value(x, relation, value))
    }

    /// `b <-> c` ([`Reification::Full`]: the 0/1 variable `b` is 1 exactly when `c` holds) or
    /// `b -> c` ([`Reification::Half`]: when `b` is 1, `c` holds), for a comparison
    /// ([`Compare`](crate::constraints::Compare)), a membership
    /// ([`Member`](crate::constraints::Member)) or any other [`Reifiable`] constraint.
    ///
    /// ```
    /// # fn main() -> Result<(), csp::ModelError> {
    /// use csp::constraints::Compare;
    /// use csp::{Model, Reification, Relation, Solver};
    ///
    /// let mut model = Model::new();
    /// let x = model.new_var(0..=3)?;
    /// let small = model.new_var(0..=1)?;
    /// model.reify(small, Compare::with_value(x, Relation::Le, 1), Reification::Full)?;
    /// // One solution per value of x, with `small` decided by it.
    /// assert_eq!(Solver::new(&model).count(), 4);
    /// # Ok(())
    /// # }
    /// ```
    pub fn reify<C: Reifiable + 'static>(
        &mut self,
        b: VarId,
        c: C,
        how: Reification,
    ) -> Result<ConstraintId, ModelError> {
        // A comparison with a constant is woken on its variable only when a change settles
        // it: a variable with a reified literal for each value wakes a few, not all of them.
        let link = (&c as &dyn std::any::Any)
            .downcast_ref::<Compare>()
            .and_then(Compare::value_link)
            .map(|link| (link, b));
        let reified = Reified::new(b, c, how == Reification::Half);
        self.post_linked(Box::new(reified), link)
    }

    /// `x in values`: `x` takes one of `values` (in any order; an empty set is refused).
    pub fn member(&mut self, x: VarId, values: &[i32]) -> Result<ConstraintId, ModelError> {
        self.post(Member::new(x, values))
    }

    /// `x != y + offset`.
    pub fn not_equal_offset(
        &mut self,
        x: VarId,
        y: VarId,
        offset: i32,
    ) -> Result<ConstraintId, ModelError> {
        self.post(NotEqual::new(x, y, offset))
    }

    /// All of `vars` take different values.
    pub fn all_different(&mut self, vars: &[VarId]) -> Result<ConstraintId, ModelError> {
        self.post(AllDifferent::new(vars.to_vec()))
    }

    /// All of `vars` take different values, filtered under `mac` with the strength
    /// `consistency` ([`AllDifferent`] says what each does).
    pub fn all_different_with(
        &mut self,
        vars: &[VarId],
        consistency: Consistency,
    ) -> Result<ConstraintId, ModelError> {
        self.post(AllDifferent::new(vars.to_vec()).with_consistency(consistency))
    }

    /// Between `low[i]` and `high[i]` of `xs` take the value `cover[i]`, for each `i`;
    /// when `closed`, every one of `xs` takes a value of `cover` (MiniZinc's
    /// `global_cardinality_low_up` and `_closed`; see [`GlobalCardinality`]).
    pub fn global_cardinality(
        &mut self,
        xs: &[VarId],
        cover: &[i32],
        low: &[i64],
        high: &[i64],
        closed: bool,
    ) -> Result<ConstraintId, ModelError> {
        let c = GlobalCardinality::low_up(xs, cover, low, high, closed).ok_or_else(|| {
            ModelError::InvalidConstraint(format!(
                "{} cover values but {} lower and {} upper bounds",
                cover.len(),
                low.len(),
                high.len()
            ))
        })?;
        self.post(c)
    }

    /// Exactly `counts[i]` of `xs` take the value `cover[i]`, for each `i`; when `closed`,
    /// every one of `xs` takes a value of `cover` (MiniZinc's `global_cardinality` and
    /// `_closed`).
    pub fn global_cardinality_counts(
        &mut self,
        xs: &[VarId],
        cover: &[i32],
        counts: &[VarId],
        closed: bool,
    ) -> Result<ConstraintId, ModelError> {
        let c = GlobalCardinality::counted(xs, cover, counts, closed).ok_or_else(|| {
            ModelError::InvalidConstraint(format!(
                "{} cover values but {} counts",
                cover.len(),
                counts.len()
            ))
        })?;
        self.post(c)
    }

    /// In `xs`, the value `t` occurs only after some occurrence of `s` (see
    /// [`ValuePrecede`]).
    pub fn value_precede(
        &mut self,
        s: i32,
        t: i32,
        xs: &[VarId],
    ) -> Result<ConstraintId, ModelError> {
        self.post(ValuePrecede::new(s, t, xs))
    }

    /// In `xs`, each of `values` occurs only after some occurrence of the one before it
    /// (MiniZinc's `value_precede_chain`): one [`ValuePrecede`] per consecutive pair. Returns
    /// the last one posted, or `None` for fewer than two values.
    pub fn value_precede_chain(
        &mut self,
        values: &[i32],
        xs: &[VarId],
    ) -> Result<Option<ConstraintId>, ModelError> {
        let mut last = None;
        for pair in values.windows(2) {
            last = Some(self.value_precede(pair[0], pair[1], xs)?);
        }
        Ok(last)
    }

    /// Rectangles at `(x[i], y[i])` of size `dx[i]` by `dy[i]` do not overlap; unless
    /// `strict`, one of zero width or height overlaps nothing (MiniZinc's `diffn` and
    /// `diffn_nonstrict`; see [`Diffn`]).
    pub fn diffn(
        &mut self,
        x: &[VarId],
        y: &[VarId],
        dx: &[VarId],
        dy: &[VarId],
        strict: bool,
    ) -> Result<ConstraintId, ModelError> {
        let c = Diffn::new(x, y, dx, dy, strict).ok_or_else(|| {
            ModelError::InvalidConstraint(format!(
                "diffn over {} x, {} y, {} dx and {} dy",
                x.len(),
                y.len(),
                dx.len(),
                dy.len()
            ))
        })?;
        self.post(c)
    }

    /// `n` of `xs` take a value in `values` (MiniZinc's `among`; see [`Among`]).
    pub fn among(
        &mut self,
        n: VarId,
        xs: &[VarId],
        values: &[i32],
    ) -> Result<ConstraintId, ModelError> {
        self.post(Among::new(n, xs, values))
    }

    /// `vars` take distinct values, except that the values of `except` may repeat
    /// (MiniZinc's `all_different_except_0` with `except = [0]`; see
    /// [`AllDifferentExcept`]).
    pub fn all_different_except(
        &mut self,
        vars: &[VarId],
        except: &[i32],
    ) -> Result<ConstraintId, ModelError> {
        self.post(AllDifferentExcept::new(vars, except))
    }

    /// The values `vars[i] + offsets[i]` are all different.
    pub fn all_different_offsets(
        &mut self,
        vars: &[VarId],
        offsets: &[i32],
    ) -> Result<ConstraintId, ModelError> {
        let c = AllDifferent::with_offsets(vars.to_vec(), offsets.to_vec()).ok_or_else(|| {
            ModelError::InvalidConstraint(format!(
                "{} variables but {} offsets",
                vars.len(),
                offsets.len()
            ))
        })?;
        self.post(c)
    }

    /// A binary constraint given by a predicate on `(x, y)`.
    pub fn binary(
        &mut self,
        x: VarId,
        y: VarId,
        allowed: impl Fn(i32, i32) -> bool + Send + Sync + 'static,
    ) -> Result<ConstraintId, ModelError> {
        self.post(Binary::predicate(x, y, allowed))
    }

    /// `vars` take the values of one of `tuples` (a positive table, MiniZinc's `table`), for
    /// any number of variables: each tuple has one value per variable. Two variables get the
    /// binary propagator of [`Binary::table`]; more, [`Table`]'s compact table. For stars
    /// (any value) or forbidden tuples, see [`Model::extension`].
    ///
    /// ```
    /// # fn main() -> Result<(), csp::ModelError> {
    /// use csp::{Model, Solver};
    /// let mut model = Model::new();
    /// let x = model.new_var(0..=2)?;
    /// let y = model.new_var(0..=2)?;
    /// let z = model.new_var(0..=2)?;
    /// model.table(&[x, y], &[[0, 1], [1, 2], [2, 0]])?;
    /// model.table(&[x, y, z], &[[0, 1, 2], [1, 2, 2], [2, 2, 2]])?;
    /// assert_eq!(Solver::new(&model).count(), 2);
    /// # Ok(())
    /// # }
    /// ```
    pub fn table<T: AsRef<[i32]>>(
        &mut self,
        vars: &[VarId],
        tuples: &[T],
    ) -> Result<ConstraintId, ModelError> {
        if let Some(bad) = tuples.iter().find(|t| t.as_ref().len() != vars.len()) {
            return Err(ModelError::InvalidConstraint(format!(
                "a table over {} variables has a tuple of {} values",
                vars.len(),
                bad.as_ref().len()
            )));
        }
        if let [x, y] = *vars {
            let pairs = tuples.iter().map(|t| (t.as_ref()[0], t.as_ref()[1]));
            return self.post(Binary::table(x, y, pairs));
        }
        let tuples: Vec<Vec<Option<i32>>> = tuples
            .iter()
            .map(|t| t.as_ref().iter().map(|&v| Some(v)).collect())
            .collect();
        self.extension(vars, &tuples, true)
    }

    /// `sum(a * x for (a, x) in terms) relation rhs`, for any of the six relations,
    /// filtered on bounds.
    ///
    /// ```
    /// # fn main() -> Result<(), csp::ModelError> {
    /// use csp::{Model, Relation, Solver};
    /// let mut model = Model::new();
    /// let x = model.new_var(0..=3)?;
    /// let y = model.new_var(0..=3)?;
    /// model.linear(&[(1, x), (2, y)], Relation::Lt, 3)?; // x + 2y < 3
    /// assert_eq!(Solver::new(&model).count(), 4); // (0..=2, 0) and (0, 1)
    /// # Ok(())
    /// # }
    /// ```
    pub fn linear(
        &mut self,
        terms: &[(i64, VarId)],
        relation: Relation,
        rhs: i64,
    ) -> Result<ConstraintId, ModelError> {
        self.post(Linear::new(terms, relation, rhs))
    }

    /// The clause `or(positive) or or(not negative)` over 0/1 variables.
    pub fn clause(
        &mut self,
        positive: &[VarId],
        negative: &[VarId],
    ) -> Result<ConstraintId, ModelError> {
        self.post(BoolGate::clause(positive, negative))
    }

    /// `r <-> and(lits)` (or, without `r`, every literal holds).
    pub fn bool_and(&mut self, lits: &[Lit], r: Option<Lit>) -> Result<ConstraintId, ModelError> {
        self.post(BoolGate::new(Gate::And, lits, r))
    }

    /// `r <-> or(lits)` (or, without `r`, some literal holds: a clause).
    pub fn bool_or(&mut self, lits: &[Lit], r: Option<Lit>) -> Result<ConstraintId, ModelError> {
        self.post(BoolGate::new(Gate::Or, lits, r))
    }

    /// An odd number of `lits` hold when `odd`, an even number otherwise. `r <-> a xor b` is
    /// `bool_xor(&[a, b, r], false)`.
    pub fn bool_xor(&mut self, lits: &[Lit], odd: bool) -> Result<ConstraintId, ModelError> {
        self.post(BoolXor::new(lits, odd))
    }

    /// `b = not a`, for 0/1 variables.
    pub fn bool_not(&mut self, a: VarId, b: VarId) -> Result<ConstraintId, ModelError> {
        self.post(BoolXor::new(&[Lit::pos(a), Lit::pos(b)], true))
    }

    /// The channel between a Boolean `b` and an integer `x`: `x = b`, so `x` is 0 or 1.
    pub fn bool_to_int(&mut self, b: VarId, x: VarId) -> Result<ConstraintId, ModelError> {
        self.post(BoolXor::new(&[Lit::pos(b), Lit::pos(x)], false))
    }

    /// `op(x, y) = z` for `*`, `div`, `mod` and `^` (see [`ArithOp`]).
    pub fn arith(
        &mut self,
        op: ArithOp,
        x: VarId,
        y: VarId,
        z: VarId,
    ) -> Result<ConstraintId, ModelError> {
        let small = op == ArithOp::Times
            && [x, y]
                .iter()
                .any(|&v| self.initial_size(v) <= SMALL_FACTOR_DECLARED);
        self.post(Arithmetic::new(op, x, y, z).small_factor(small))
    }

    /// `x * y = z`.
    pub fn times(&mut self, x: VarId, y: VarId, z: VarId) -> Result<ConstraintId, ModelError> {
        self.arith(ArithOp::Times, x, y, z)
    }

    /// `|x| = z`.
    pub fn abs(&mut self, x: VarId, z: VarId) -> Result<ConstraintId, ModelError> {
        self.post(Abs::new(x, z))
    }

    /// `z = max(xs)`.
    pub fn max(&mut self, xs: &[VarId], z: VarId) -> Result<ConstraintId, ModelError> {
        self.post(Extremum::new(xs, z, true))
    }

    /// `z = min(xs)`.
    pub fn min(&mut self, xs: &[VarId], z: VarId) -> Result<ConstraintId, ModelError> {
        self.post(Extremum::new(xs, z, false))
    }

    /// `z` is the first index of the largest of `xs` (MiniZinc's `arg_max`), indexed from
    /// `first` (see [`ArgExtremum`]).
    pub fn arg_max(
        &mut self,
        xs: &[VarId],
        first: i64,
        z: VarId,
    ) -> Result<ConstraintId, ModelError> {
        self.arg_extremum(xs, first, z, true)
    }

    /// `z` is the first index of the smallest of `xs` (MiniZinc's `arg_min`), indexed from
    /// `first` (see [`ArgExtremum`]).
    pub fn arg_min(
        &mut self,
        xs: &[VarId],
        first: i64,
        z: VarId,
    ) -> Result<ConstraintId, ModelError> {
        self.arg_extremum(xs, first, z, false)
    }

    fn arg_extremum(
        &mut self,
        xs: &[VarId],
        first: i64,
        z: VarId,
        maximum: bool,
    ) -> Result<ConstraintId, ModelError> {
        if xs.is_empty() {
            return Err(ModelError::InvalidConstraint(
                "arg_max or arg_min of no variables".into(),
            ));
        }
        self.post(ArgExtremum::new(xs, first, z, maximum))
    }

    /// `xs` never goes down, or, when `strict`, always goes up (MiniZinc's `increasing` and
    /// `strictly_increasing`; see [`Increasing`]).
    pub fn increasing(&mut self, xs: &[VarId], strict: bool) -> Result<ConstraintId, ModelError> {
        self.post(Increasing::new(xs, strict, false))
    }

    /// `xs` never goes up, or, when `strict`, always goes down (MiniZinc's `decreasing` and
    /// `strictly_decreasing`; see [`Increasing`]).
    pub fn decreasing(&mut self, xs: &[VarId], strict: bool) -> Result<ConstraintId, ModelError> {
        self.post(Increasing::new(xs, strict, true))
    }

    /// `f[i] = j` exactly when `g[j] = i`, `f` indexed from `f_first` and `g` from `g_first`
    /// (MiniZinc's `inverse`; see [`Inverse`]).
    pub fn inverse(
        &mut self,
        f: &[VarId],
        f_first: i64,
        g: &[VarId],
        g_first: i64,
    ) -> Result<ConstraintId, ModelError> {
        self.post(Inverse::new(f, f_first, g, g_first))
    }

    /// `n` is the number of distinct values among `xs` (MiniZinc's `nvalue`; see
    /// [`NValue`]).
    pub fn nvalue(&mut self, n: VarId, xs: &[VarId]) -> Result<ConstraintId, ModelError> {
        self.post(NValue::new(n, xs))
    }

    /// The nodes and edges chosen by `ns` and `es` (0/1, one per node and per edge) form one
    /// simple path from node `s` to node `t` of the graph whose nodes are numbered from
    /// `first` and whose edge `i` goes from `ends[i].0` to `ends[i].1` (MiniZinc's `dpath`
    /// when `directed`, else `path`; see [`Path`]).
    #[allow(clippy::too_many_arguments)]
    pub fn path(
        &mut self,
        first: i32,
        ends: &[(i32, i32)],
        s: VarId,
        t: VarId,
        ns: &[VarId],
        es: &[VarId],
        directed: bool,
    ) -> Result<ConstraintId, ModelError> {
        let path = Path::new(first, ends, s, t, ns, es, directed).map_err(|why| {
            ModelError::InvalidConstraint(format!(
                "{}: {why}",
                if directed { "dpath" } else { "path" }
            ))
        })?;
        self.post(path)
    }

    /// `y` equals one of `xs` (MiniZinc's `member` over variables; see [`ArrayMember`]).
    pub fn member_of(&mut self, xs: &[VarId], y: VarId) -> Result<ConstraintId, ModelError> {
        self.post(ArrayMember::new(xs, y))
    }

    /// Item `i` of weight `weights[i]` goes into bin `bins[i]`, one of `first..first +
    /// loads.len()`, and `loads[b]` is the weight in bin `b` (MiniZinc's `bin_packing_load`;
    /// see [`BinPackingLoad`]).
    pub fn bin_packing_load(
        &mut self,
        loads: &[VarId],
        first: i32,
        bins: &[VarId],
        weights: &[i32],
    ) -> Result<ConstraintId, ModelError> {
        let c = BinPackingLoad::new(loads, first, bins, weights).ok_or_else(|| {
            ModelError::InvalidConstraint(format!(
                "bin_packing_load: {} items but {} weights, or bins numbered past 32 bits",
                bins.len(),
                weights.len()
            ))
        })?;
        self.post(c)
    }

    /// `xs[i]` copies of item `i`, of weight `weights[i]` and profit `profits[i]`, weigh
    /// `weight` and earn `profit` in all, every number at least 0 (MiniZinc's `knapsack`):
    /// the two sums as [`Linear`]s and, beside them, the [`Knapsack`] that bounds each by
    /// the other through the linear relaxation. An error for lists of unequal length or a
    /// negative weight or profit.
    ///
    /// ```
    /// # fn main() -> Result<(), csp::ModelError> {
    /// use csp::{Model, Solver};
    /// let mut model = Model::new();
    /// let xs: Vec<_> = (0..3).map(|_| model.new_var(0..=1)).collect::<Result<_, _>>()?;
    /// let weight = model.new_var(0..=5)?;
    /// let profit = model.new_var(0..=20)?;
    /// model.knapsack(&[3, 2, 4], &[7, 4, 8], &xs, weight, profit)?;
    /// let best = Solver::new(&model).maximize(profit).solutions().last();
    /// assert_eq!(best.map(|v| v[profit.index()]), Some(11)); // items 0 and 1
    /// # Ok(())
    /// # }
    /// ```
    pub fn knapsack(
        &mut self,
        weights: &[i32],
        profits: &[i32],
        xs: &[VarId],
        weight: VarId,
        profit: VarId,
    ) -> Result<ConstraintId, ModelError> {
        let c = Knapsack::new(weights, profits, xs, weight, profit).ok_or_else(|| {
            ModelError::InvalidConstraint(format!(
                "knapsack: {} weights, {} profits and {} items, or a negative weight or profit",
                weights.len(),
                profits.len(),
                xs.len()
            ))
        })?;
        for (coefficients, total) in [(weights, weight), (profits, profit)] {
            let mut terms: Vec<(i64, VarId)> = coefficients
                .iter()
                .zip(xs)
                .map(|(&c, &x)| (i64::from(c), x))
                .collect();
            terms.push((-1, total));
            self.linear(&terms, Relation::Eq, 0)?;
        }
        self.post(c)
    }

    /// `xs` follows a path from the root, node 1, to the terminal, node 0, of a deterministic
    /// multivalued decision diagram of nodes `1..=nodes` (MiniZinc's `mdd`): `edges` are
    /// `(from, values, to)`, one step per variable. Posted as the [`Regular`] automaton whose
    /// states are the nodes and the terminal; an error for a node out of range, two edges
    /// from one node on one value, or a table of over 2^24 transitions.
    pub fn mdd(
        &mut self,
        xs: &[VarId],
        nodes: usize,
        edges: &[(usize, Vec<i32>, usize)],
    ) -> Result<ConstraintId, ModelError> {
        let invalid = |why: String| ModelError::InvalidConstraint(format!("mdd: {why}"));
        let values = edges
            .iter()
            .flat_map(|(_, values, _)| values.iter().copied());
        let (low, high) = values.fold((i32::MAX, i32::MIN), |(l, h), v| (l.min(v), h.max(v)));
        let symbols = if low > high {
            0
        } else {
            (i64::from(high) - i64::from(low) + 1) as usize
        };
        let states = nodes + 1;
        if states.saturating_mul(symbols) > 1 << 24 {
            return Err(invalid(format!(
                "{states} states by {symbols} values is over 2^24 transitions"
            )));
        }
        let mut next = vec![0i64; states * symbols];
        for (from, values, to) in edges {
            if !(1..=nodes).contains(from) || *to > nodes {
                return Err(invalid(format!(
                    "an edge from node {from} to node {to}, beyond nodes 0..={nodes}"
                )));
            }
            // The terminal, node 0, is the automaton's last state.
            let target = if *to == 0 { states } else { *to } as i64;
            for &v in values {
                let at = (from - 1) * symbols + (i64::from(v) - i64::from(low)) as usize;
                if next[at] != 0 && next[at] != target {
                    return Err(invalid(format!(
                        "node {from} has two edges on value {v} (not deterministic)"
                    )));
                }
                next[at] = target;
            }
        }
        let first = if symbols == 0 { 0 } else { low };
        let c = Regular::new(xs, states, symbols, &next, 1, &[states as i64])
            .map_err(invalid)?
            .symbols_from(first)
            .ok_or_else(|| invalid("the values pass 32 bits".into()))?;
        self.post(c)
    }

    /// `c` is the number of `xs` equal to `y` (MiniZinc's `count_eq`).
    pub fn count(&mut self, xs: &[VarId], y: VarId, c: VarId) -> Result<ConstraintId, ModelError> {
        self.post(Count::new(xs, y, c))
    }

    /// `succ[i] - offset` is node `i`'s successor, and the successors form one cycle through
    /// every node (MiniZinc's `circuit`), or, when `sub`, one cycle through the nodes that are
    /// not their own successor (`subcircuit`). Posts [`Circuit`] and, beside it, an
    /// all_different on the successors, filtered by Régin's matching; returns the circuit's
    /// id.
    pub fn circuit(
        &mut self,
        succ: &[VarId],
        offset: i32,
        sub: bool,
    ) -> Result<ConstraintId, ModelError> {
        self.all_different(succ)?;
        self.post(Circuit::new(succ, offset, sub))
    }

    /// `vars` take the values of one of `tuples` (`supports`), or of none of them; `None` in
    /// a tuple matches any value (see [`Table`]). The tuples must have one value (or star)
    /// per variable.
    pub fn extension(
        &mut self,
        vars: &[VarId],
        tuples: &[Vec<Option<i32>>],
        supports: bool,
    ) -> Result<ConstraintId, ModelError> {
        let c = Table::new(vars, tuples, supports).ok_or_else(|| {
            ModelError::InvalidConstraint(format!(
                "a table over {} variables has a tuple of another length",
                vars.len()
            ))
        })?;
        self.post(c)
    }

    /// `xs` is lexicographically at most `ys` (below it when `strict`): MiniZinc's
    /// `lex_lesseq` and `lex_less` (see [`Lex`]).
    pub fn lex(
        &mut self,
        xs: &[VarId],
        ys: &[VarId],
        strict: bool,
    ) -> Result<ConstraintId, ModelError> {
        self.post(Lex::new(xs, ys, strict))
    }

    /// `xs` spells a word the automaton accepts (MiniZinc's `regular`; see [`Regular`]):
    /// states `1..=states`, symbols `1..=symbols`, `next` the transitions row by row (state 1
    /// first, 0 for none), `start` the first state, `accepting` the final ones.
    pub fn regular(
        &mut self,
        xs: &[VarId],
        states: usize,
        symbols: usize,
        next: &[i64],
        start: i64,
        accepting: &[i64],
    ) -> Result<ConstraintId, ModelError> {
        let c = Regular::new(xs, states, symbols, next, start, accepting)
            .map_err(ModelError::InvalidConstraint)?;
        self.post(c)
    }

    /// Tasks starting at `starts`, lasting `durations` and using `usages` of a resource
    /// never use more than `capacity` at once (MiniZinc's `cumulative`; see
    /// [`Cumulative`]). Durations, usages and capacity are each variables or constants
    /// ([`Operand`]).
    ///
    /// When the declared bounds leave no two tasks room to run together (the least usages of
    /// any two pass the largest capacity), the resource is a machine, and a [`Disjunctive`]
    /// over the starts and the least durations is posted beside it, implied and stronger
    /// (edge-finding, not-first/not-last), as Gecode does for such a `cumulative`. Returns
    /// the cumulative's id.
    ///
    /// ```
    /// # fn main() -> Result<(), csp::ModelError> {
    /// use csp::{Model, Relation, Solver};
    /// let mut model = Model::new();
    /// let starts = [model.new_var(0..=9)?, model.new_var(0..=9)?, model.new_var(0..=9)?];
    /// let end = model.new_var(0..=12)?;
    /// model.cumulative(&starts, &[3, 2, 4], &[2, 1, 2], 3)?;
    /// for (&s, d) in starts.iter().zip([3, 2, 4]) {
    ///     model.linear(&[(1, s), (-1, end)], Relation::Le, -d)?; // s + d <= end
    /// }
    /// let best = Solver::new(&model).minimize(end).solutions().last();
    /// assert_eq!(best.map(|v| v[end.index()]), Some(7));
    /// # Ok(())
    /// # }
    /// ```
    pub fn cumulative<D, U>(
        &mut self,
        starts: &[VarId],
        durations: &[D],
        usages: &[U],
        capacity: impl Into<Operand>,
    ) -> Result<ConstraintId, ModelError>
    where
        D: Copy + Into<Operand>,
        U: Copy + Into<Operand>,
    {
        let durations = &self.operand_vars(durations)?[..];
        let usages = &self.operand_vars(usages)?[..];
        let capacity = self.operand_var(capacity)?;
        let c = Cumulative::new(starts, durations, usages, capacity).ok_or_else(|| {
            ModelError::InvalidConstraint(format!(
                "cumulative: {} starts, {} durations and {} usages",
                starts.len(),
                durations.len(),
                usages.len()
            ))
        })?;
        let id = self.post(c)?;
        if let Some((starts, durations)) = self.exclusive_tasks(starts, durations, usages, capacity)
        {
            self.disjunctive(&starts, &durations, false)?;
        }
        Ok(id)
    }

    /// The starts and least durations of the tasks of a cumulative that surely use some of
    /// the resource, when every two of them need more than its largest capacity together;
    /// `None` otherwise, or for fewer than two.
    fn exclusive_tasks(
        &self,
        starts: &[VarId],
        durations: &[VarId],
        usages: &[VarId],
        capacity: VarId,
    ) -> Option<(Vec<VarId>, Vec<i64>)> {
        let (_, cap) = self.initial_bounds(capacity)?;
        let mut least_usages = Vec::new();
        let mut kept = (Vec::new(), Vec::new());
        for ((&s, &d), &r) in starts.iter().zip(durations).zip(usages) {
            let (usage, _) = self.initial_bounds(r)?;
            let (duration, _) = self.initial_bounds(d)?;
            if usage > 0 {
                least_usages.push(i64::from(usage));
                kept.0.push(s);
                kept.1.push(i64::from(duration.max(0)));
            }
        }
        least_usages.sort_unstable();
        match least_usages[..] {
            [a, b, ..] if a + b > i64::from(cap) => Some(kept),
            _ => None,
        }
    }

    /// Tasks starting at `starts` and lasting `durations` never overlap (MiniZinc's
    /// `disjunctive`, or `disjunctive_strict` when `strict`; see [`Disjunctive`]).
    pub fn disjunctive(
        &mut self,
        starts: &[VarId],
        durations: &[impl Copy + Into<i64>],
        strict: bool,
    ) -> Result<ConstraintId, ModelError> {
        let durations: Vec<i64> = durations.iter().map(|&d| d.into()).collect();
        let c = Disjunctive::new(starts, &durations, strict).ok_or_else(|| {
            ModelError::InvalidConstraint(format!(
                "disjunctive: {} starts and {} durations",
                starts.len(),
                durations.len()
            ))
        })?;
        self.post(c)
    }

    /// `z = values[x - first]`: element over constants, indexed from `first`.
    pub fn element(
        &mut self,
        x: VarId,
        values: &[i32],
        first: i32,
        z: VarId,
    ) -> Result<ConstraintId, ModelError> {
        self.post(Element::constants(x, values, first, z))
    }

    /// `z = vars[x - first]`: element over variables, indexed from `first`.
    pub fn element_vars(
        &mut self,
        x: VarId,
        vars: &[VarId],
        first: i32,
        z: VarId,
    ) -> Result<ConstraintId, ModelError> {
        self.post(Element::variables(x, vars, first, z))
    }

    /// A new variable equal to `sum(a * x for (a, x) in terms)`, over the range the terms'
    /// initial bounds allow: the objective to hand [`Solver::minimize`](crate::Solver::minimize)
    /// or `maximize` when the goal is a linear expression. Fails with
    /// [`ModelError::OutOfRange`] when that range leaves `i32`.
    ///
    /// ```
    /// # fn main() -> Result<(), csp::ModelError> {
    /// use csp::{Inference, Model, Solver};
    /// let mut model = Model::new();
    /// let x = model.new_var(1..=3)?;
    /// let y = model.new_var(1..=3)?;
    /// model.not_equal(x, y)?;
    /// let cost = model.sum_var(&[(3, x), (-2, y)])?; // 3x - 2y
    /// let best = Solver::new(&model).inference(Inference::Mac).minimize(cost).solutions().last();
    /// assert_eq!(best, Some(vec![1, 3, -3]));
    /// # Ok(())
    /// # }
    /// ```
    pub fn sum_var(&mut self, terms: &[(i64, VarId)]) -> Result<VarId, ModelError> {
        let (mut low, mut high) = (0i128, 0i128);
        for &(a, x) in terms {
            let Some((lo, hi)) = self.initial_bounds(x) else {
                return Err(ModelError::UnknownVariable(x));
            };
            let (p, q) = (
                i128::from(a) * i128::from(lo),
                i128::from(a) * i128::from(hi),
            );
            low += p.min(q);
            high += p.max(q);
        }
        let fits = |v: i128| i32::try_from(v).ok();
        let (Some(low), Some(high)) = (fits(low), fits(high)) else {
            return Err(ModelError::OutOfRange(format!(
                "the sum's range {low}..={high}"
            )));
        };
        let z = self.new_var(low..=high)?;
        let mut with_z = terms.to_vec();
        with_z.push((-1, z));
        self.linear(&with_z, Relation::Eq, 0)?;
        Ok(z)
    }
}
