//! `Model` for Python: variables by index, and one method per constraint family of the engine.

use crate::convert::{invalid, lits, model_error, relation, value, values, var, vars};
use csp::constraints::{ArithOp, Compare, Linear, Member, Nfa, Table, TableData};
use csp::{ConstraintId, Reification, VarId};
use pyo3::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;

/// A model under construction: variables are numbered from 0 in creation order. Shared with
/// the searches running on it, so posting waits until they are over.
#[pyclass(name = "Model", module = "csp_solver._native")]
pub(crate) struct PyModel {
    pub(crate) inner: Arc<csp::Model>,
    /// The tuples of each table posted packed, by their bytes: alike tables (a PyCSP3
    /// model's rows, each its own array of the same 362,880 tuples) share one index, as the
    /// XCSP3 reader shares a group's.
    packed_tables: HashMap<usize, HashMap<Vec<u8>, Arc<TableData>>>,
}

type Posted = PyResult<u32>;

/// The index Python sees for a constraint.
fn posted(id: Result<ConstraintId, csp::ModelError>) -> Posted {
    id.map(|c| c.index() as u32).map_err(model_error)
}

/// The index Python sees for a variable.
fn created(id: Result<VarId, csp::ModelError>) -> PyResult<u32> {
    id.map(|v| v.index() as u32).map_err(model_error)
}

/// Linear terms from coefficients and variables of the same length.
fn terms(coefs: &[i64], xs: &[u32]) -> PyResult<Vec<(i64, VarId)>> {
    if coefs.len() != xs.len() {
        return Err(invalid(format!(
            "{} coefficients for {} variables",
            coefs.len(),
            xs.len()
        )));
    }
    coefs
        .iter()
        .zip(xs)
        .map(|(&a, &x)| Ok((a, var(x)?)))
        .collect()
}

fn how(half: bool) -> Reification {
    if half {
        Reification::Half
    } else {
        Reification::Full
    }
}

impl PyModel {
    /// The model to post on, while no search holds it.
    fn model(&mut self) -> PyResult<&mut csp::Model> {
        Arc::get_mut(&mut self.inner).ok_or_else(|| {
            invalid("the model is being searched: finish or close its solutions first")
        })
    }
}

#[pymethods]
impl PyModel {
    #[new]
    fn new() -> Self {
        PyModel {
            inner: Arc::new(csp::Model::new()),
            packed_tables: HashMap::new(),
        }
    }

    /// A new integer variable over `lo..=hi`; returns its index.
    #[pyo3(signature = (lo, hi, name=None))]
    fn int_var(&mut self, lo: i64, hi: i64, name: Option<String>) -> PyResult<u32> {
        let (lo, hi) = (value(lo, "lower bound")?, value(hi, "upper bound")?);
        let model = self.model()?;
        created(match name {
            Some(name) => model.new_named_var(name, lo..=hi),
            None => model.new_var(lo..=hi),
        })
    }

    /// A new integer variable over exactly `domain`; returns its index.
    #[pyo3(signature = (domain, name=None))]
    fn var_from_values(&mut self, domain: Vec<i64>, name: Option<String>) -> PyResult<u32> {
        let domain = values(&domain, "value")?;
        created(self.model()?.new_var_from_values(name.as_deref(), &domain))
    }

    /// How many variables.
    fn var_count(&self) -> usize {
        self.inner.var_count()
    }

    /// How many constraints.
    fn constraint_count(&self) -> usize {
        self.inner.constraint_count()
    }

    /// Adds the implied tables of small clusters around auxiliary variables
    /// (`csp::Model::add_projections`): a relation a front end posted in pieces, as
    /// `d = |t|` with `t = x - y`, gets its table on `(x, y, d)` beside them. Returns how
    /// many it added.
    fn add_projections(&mut self) -> PyResult<usize> {
        self.model()?.add_projections().map_err(model_error)
    }

    /// Every distinct combination of `xs`' values that the model's solutions take, in the
    /// order found (arc consistency, one search on this thread): what a table standing for
    /// the model on `xs` lists. `None` when there are more than `most`, or the search
    /// reaches `node_limit` first.
    fn solutions_on(
        &self,
        py: Python<'_>,
        xs: Vec<u32>,
        most: usize,
        node_limit: u64,
    ) -> PyResult<Option<Vec<Vec<i32>>>> {
        let xs = vars(&xs)?;
        if let Some(x) = xs.iter().find(|x| x.index() >= self.inner.var_count()) {
            return Err(invalid(format!("no variable {}", x.index())));
        }
        let model = &self.inner;
        Ok(py.detach(|| {
            let mut seen = std::collections::HashSet::new();
            let mut rows = Vec::new();
            let mut too_many = false;
            let summary = csp::Solver::new(model)
                .inference(csp::Inference::Mac)
                .max_solutions(None)
                .node_limit(node_limit)
                .solve(|s| {
                    let row: Vec<i32> = xs.iter().map(|&x| s.value(x)).collect();
                    if seen.insert(row.clone()) {
                        rows.push(row);
                    }
                    if rows.len() > most {
                        too_many = true;
                        return std::ops::ControlFlow::Break(());
                    }
                    std::ops::ControlFlow::Continue(())
                });
            (summary.outcome == csp::Outcome::Exhausted && !too_many).then_some(rows)
        }))
    }

    /// The variable's name, if it has one.
    fn var_name(&self, x: u32) -> PyResult<Option<String>> {
        Ok(self.inner.var_name(var(x)?).map(|n| n.into_owned()))
    }

    /// Marks every variable but `problem` as introduced (dom/wdeg and dom/deg branch on those
    /// only once the others are fixed), and those of `problem` as the problem's own.
    fn set_problem_vars(&mut self, problem: Vec<u32>) -> PyResult<()> {
        let problem = vars(&problem)?;
        let model = self.model()?;
        let all: Vec<VarId> = model.vars().collect();
        for v in all {
            model.mark_introduced(v, true);
        }
        for v in problem {
            model.mark_introduced(v, false);
        }
        Ok(())
    }

    /// The smallest and largest initial values of `x`.
    fn bounds(&self, x: u32) -> PyResult<(i32, i32)> {
        self.inner
            .initial_bounds(var(x)?)
            .ok_or_else(|| invalid(format!("no variable {x}")))
    }

    /// The constraint's name or description.
    fn constraint_name(&self, c: u32) -> PyResult<String> {
        let id = self.inner.constraint_ids().nth(c as usize);
        let id = id.ok_or_else(|| invalid(format!("no constraint {c}")))?;
        Ok(self.inner.constraint_name(id))
    }

    /// Whether `values` (one per variable) satisfies every constraint; else the first broken
    /// constraint's index.
    fn check(&self, values: Vec<i32>) -> Option<u32> {
        self.inner
            .check_solution(&values)
            .err()
            .map(|c| c.index() as u32)
    }

    /// `sum(coefs[i] * xs[i]) op rhs`, `op` one of `==`, `!=`, `<`, `<=`, `>`, `>=`.
    fn linear(&mut self, coefs: Vec<i64>, xs: Vec<u32>, op: &str, rhs: i64) -> Posted {
        let terms = terms(&coefs, &xs)?;
        let op = relation(op)?;
        posted(self.model()?.linear(&terms, op, rhs))
    }

    /// `b <-> linear` (or `b -> linear` when `half`).
    fn linear_reif(
        &mut self,
        b: u32,
        coefs: Vec<i64>,
        xs: Vec<u32>,
        op: &str,
        rhs: i64,
        half: bool,
    ) -> Posted {
        let terms = terms(&coefs, &xs)?;
        let op = relation(op)?;
        let b = var(b)?;
        posted(
            self.model()?
                .reify(b, Linear::new(&terms, op, rhs), how(half)),
        )
    }

    /// `x op y + offset`.
    fn compare(&mut self, x: u32, op: &str, y: u32, offset: i64) -> Posted {
        let (x, op, y) = (var(x)?, relation(op)?, var(y)?);
        posted(self.model()?.compare_offset(x, op, y, offset))
    }

    /// `b <-> (x op y + offset)` (or `->` when `half`).
    fn compare_reif(
        &mut self,
        b: u32,
        x: u32,
        op: &str,
        y: u32,
        offset: i64,
        half: bool,
    ) -> Posted {
        let (b, x, op, y) = (var(b)?, var(x)?, relation(op)?, var(y)?);
        posted(
            self.model()?
                .reify(b, Compare::new(x, op, y, offset), how(half)),
        )
    }

    /// `x op value`.
    fn compare_value(&mut self, x: u32, op: &str, value: i64) -> Posted {
        let (x, op) = (var(x)?, relation(op)?);
        posted(self.model()?.compare_value(x, op, value))
    }

    /// `b <-> (x op value)` (or `->` when `half`).
    fn compare_value_reif(&mut self, b: u32, x: u32, op: &str, value: i64, half: bool) -> Posted {
        let (b, x, op) = (var(b)?, var(x)?, relation(op)?);
        posted(
            self.model()?
                .reify(b, Compare::with_value(x, op, value), how(half)),
        )
    }

    /// `x in domain`.
    fn member(&mut self, x: u32, domain: Vec<i64>) -> Posted {
        let (x, domain) = (var(x)?, values(&domain, "value")?);
        posted(self.model()?.member(x, &domain))
    }

    /// `b <-> x in domain` (or `->` when `half`).
    fn member_reif(&mut self, b: u32, x: u32, domain: Vec<i64>, half: bool) -> Posted {
        let (b, x, domain) = (var(b)?, var(x)?, values(&domain, "value")?);
        posted(self.model()?.reify(b, Member::new(x, &domain), how(half)))
    }

    /// `y` equals one of `xs`.
    fn member_of(&mut self, xs: Vec<u32>, y: u32) -> Posted {
        let (xs, y) = (vars(&xs)?, var(y)?);
        posted(self.model()?.member_of(&xs, y))
    }

    /// The clause `or(positive) or or(not negative)` over 0/1 variables.
    fn clause(&mut self, positive: Vec<u32>, negative: Vec<u32>) -> Posted {
        let (p, n) = (vars(&positive)?, vars(&negative)?);
        posted(self.model()?.clause(&p, &n))
    }

    /// `r <-> and(lits)` (every literal holds without `r`); literals are `(var, positive)`.
    #[pyo3(signature = (lits, r=None))]
    fn bool_and(&mut self, lits: Vec<(u32, bool)>, r: Option<(u32, bool)>) -> Posted {
        let (lits, r) = (self::lits(&lits)?, r.map(|r| self::lits(&[r])).transpose()?);
        posted(self.model()?.bool_and(&lits, r.map(|r| r[0])))
    }

    /// `r <-> or(lits)` (some literal holds without `r`).
    #[pyo3(signature = (lits, r=None))]
    fn bool_or(&mut self, lits: Vec<(u32, bool)>, r: Option<(u32, bool)>) -> Posted {
        let (lits, r) = (self::lits(&lits)?, r.map(|r| self::lits(&[r])).transpose()?);
        posted(self.model()?.bool_or(&lits, r.map(|r| r[0])))
    }

    /// An odd number of `lits` hold when `odd`, an even number otherwise.
    fn bool_xor(&mut self, lits: Vec<(u32, bool)>, odd: bool) -> Posted {
        let lits = self::lits(&lits)?;
        posted(self.model()?.bool_xor(&lits, odd))
    }

    /// All of `xs` take different values.
    fn all_different(&mut self, xs: Vec<u32>) -> Posted {
        let xs = vars(&xs)?;
        posted(self.model()?.all_different(&xs))
    }

    /// All of `xs` differ, except that the values of `except` may repeat.
    fn all_different_except(&mut self, xs: Vec<u32>, except: Vec<i64>) -> Posted {
        let (xs, except) = (vars(&xs)?, values(&except, "value")?);
        posted(self.model()?.all_different_except(&xs, &except))
    }

    /// `table`'s constraint (no `None`), its tuples packed one after another as 32-bit
    /// little-endian values in `data` (`numpy.ndarray.astype("<i4").tobytes()`): a table of
    /// 362,880 rows, which took a second as lists of lists, takes milliseconds.
    fn table_packed(&mut self, xs: Vec<u32>, data: &[u8], supports: bool) -> Posted {
        self.model()?;
        let xs = vars(&xs)?;
        let width = 4 * xs.len();
        if width == 0 || data.len() % width != 0 {
            return Err(invalid(format!(
                "{} bytes of tuples for {} variables of 4 bytes each",
                data.len(),
                xs.len()
            )));
        }
        let alike = self.packed_tables.entry(xs.len()).or_default();
        let tuples = match alike.get(data) {
            Some(tuples) => Arc::clone(tuples),
            None => {
                let rows = data
                    .chunks_exact(width)
                    .map(|row| {
                        row.chunks_exact(4)
                            .map(|b| b.try_into().map(|b| Some(i32::from_le_bytes(b))))
                            .collect::<Result<Vec<_>, _>>()
                    })
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|_| invalid("a value of other than 4 bytes"))?;
                let tuples = TableData::new(xs.len(), &rows)
                    .map(Arc::new)
                    .ok_or_else(|| invalid("a tuple of another length"))?;
                alike.insert(data.to_vec(), Arc::clone(&tuples));
                tuples
            }
        };
        let table = Table::over(&xs, tuples, supports)
            .ok_or_else(|| invalid("tuples of another length than the variables"))?;
        posted(self.model()?.post(table))
    }

    /// `xs` take the values of one of `tuples` (or of none, unless `supports`); `None`
    /// matches any value.
    fn table(&mut self, xs: Vec<u32>, tuples: Vec<Vec<Option<i64>>>, supports: bool) -> Posted {
        let xs = vars(&xs)?;
        let tuples = tuples
            .iter()
            .map(|t| {
                t.iter()
                    .map(|v| v.map(|v| value(v, "table value")).transpose())
                    .collect::<PyResult<Vec<_>>>()
            })
            .collect::<PyResult<Vec<_>>>()?;
        posted(self.model()?.extension(&xs, &tuples, supports))
    }

    /// `z = xs[index - first]`.
    fn element(&mut self, index: u32, xs: Vec<u32>, first: i64, z: u32) -> Posted {
        let (index, xs, z) = (var(index)?, vars(&xs)?, var(z)?);
        let first = value(first, "first index")?;
        posted(self.model()?.element_vars(index, &xs, first, z))
    }

    /// `z = values[index - first]`.
    fn element_values(&mut self, index: u32, values: Vec<i64>, first: i64, z: u32) -> Posted {
        let (index, z) = (var(index)?, var(z)?);
        let (values, first) = (
            self::values(&values, "value")?,
            value(first, "first index")?,
        );
        posted(self.model()?.element(index, &values, first, z))
    }

    /// `z = min(xs)`.
    fn minimum(&mut self, xs: Vec<u32>, z: u32) -> Posted {
        let (xs, z) = (vars(&xs)?, var(z)?);
        posted(self.model()?.min(&xs, z))
    }

    /// `z = max(xs)`.
    fn maximum(&mut self, xs: Vec<u32>, z: u32) -> Posted {
        let (xs, z) = (vars(&xs)?, var(z)?);
        posted(self.model()?.max(&xs, z))
    }

    /// `z = |x|`.
    fn abs(&mut self, x: u32, z: u32) -> Posted {
        let (x, z) = (var(x)?, var(z)?);
        posted(self.model()?.abs(x, z))
    }

    /// `z = x op y` for `op` one of `*`, `div` (towards zero), `mod` (the sign of x), `pow`.
    fn arith(&mut self, op: &str, x: u32, y: u32, z: u32) -> Posted {
        let op = match op {
            "*" | "mul" => ArithOp::Times,
            "div" => ArithOp::Div,
            "mod" => ArithOp::Mod,
            "pow" => ArithOp::Pow,
            _ => {
                return Err(invalid(format!(
                    "unknown operation {op:?} (*, div, mod or pow)"
                )))
            }
        };
        let (x, y, z) = (var(x)?, var(y)?, var(z)?);
        posted(self.model()?.arith(op, x, y, z))
    }

    /// `c` is the number of `xs` equal to `y`.
    fn count(&mut self, xs: Vec<u32>, y: u32, c: u32) -> Posted {
        let (xs, y, c) = (vars(&xs)?, var(y)?, var(c)?);
        posted(self.model()?.count(&xs, y, c))
    }

    /// `n` of `xs` take a value in `values`.
    fn among(&mut self, n: u32, xs: Vec<u32>, values: Vec<i64>) -> Posted {
        let (n, xs, values) = (var(n)?, vars(&xs)?, self::values(&values, "value")?);
        posted(self.model()?.among(n, &xs, &values))
    }

    /// `n` is the number of distinct values among `xs`.
    fn nvalue(&mut self, n: u32, xs: Vec<u32>) -> Posted {
        let (n, xs) = (var(n)?, vars(&xs)?);
        posted(self.model()?.nvalue(n, &xs))
    }

    /// `succ[i] - offset` is node `i`'s successor, on one cycle through every node (through
    /// the nodes not their own successor when `sub`).
    fn circuit(&mut self, succ: Vec<u32>, offset: i64, sub: bool) -> Posted {
        let (succ, offset) = (vars(&succ)?, value(offset, "offset")?);
        posted(self.model()?.circuit(&succ, offset, sub))
    }

    /// `f[i] = j` exactly when `g[j] = i`, indexed from `f_first` and `g_first`.
    fn inverse(&mut self, f: Vec<u32>, f_first: i64, g: Vec<u32>, g_first: i64) -> Posted {
        let (f, g) = (vars(&f)?, vars(&g)?);
        posted(self.model()?.inverse(&f, f_first, &g, g_first))
    }

    /// Tasks at `starts` lasting `durations` using `usages` never use more than `capacity`.
    fn cumulative(
        &mut self,
        starts: Vec<u32>,
        durations: Vec<u32>,
        usages: Vec<u32>,
        capacity: u32,
    ) -> Posted {
        let (s, d, u, c) = (
            vars(&starts)?,
            vars(&durations)?,
            vars(&usages)?,
            var(capacity)?,
        );
        posted(self.model()?.cumulative(&s, &d, &u, c))
    }

    /// Tasks at `starts` lasting the constant `durations` never overlap.
    fn disjunctive(&mut self, starts: Vec<u32>, durations: Vec<i64>, strict: bool) -> Posted {
        let starts = vars(&starts)?;
        posted(self.model()?.disjunctive(&starts, &durations, strict))
    }

    /// Rectangles at `(x[i], y[i])` of size `dx[i]` by `dy[i]` do not overlap.
    fn diffn(
        &mut self,
        x: Vec<u32>,
        y: Vec<u32>,
        dx: Vec<u32>,
        dy: Vec<u32>,
        strict: bool,
    ) -> Posted {
        let (x, y, dx, dy) = (vars(&x)?, vars(&y)?, vars(&dx)?, vars(&dy)?);
        posted(self.model()?.diffn(&x, &y, &dx, &dy, strict))
    }

    /// `xs` never goes down (always up when `strict`); with `decreasing`, the other way.
    fn increasing(&mut self, xs: Vec<u32>, strict: bool, decreasing: bool) -> Posted {
        let xs = vars(&xs)?;
        let model = self.model()?;
        posted(if decreasing {
            model.decreasing(&xs, strict)
        } else {
            model.increasing(&xs, strict)
        })
    }

    /// `xs` is lexicographically at most `ys` (below it when `strict`).
    fn lex(&mut self, xs: Vec<u32>, ys: Vec<u32>, strict: bool) -> Posted {
        let (xs, ys) = (vars(&xs)?, vars(&ys)?);
        posted(self.model()?.lex(&xs, &ys, strict))
    }

    /// Exactly `counts[i]` of `xs` take `cover[i]`; when `closed`, only values of `cover`.
    fn global_cardinality(
        &mut self,
        xs: Vec<u32>,
        cover: Vec<i64>,
        counts: Vec<u32>,
        closed: bool,
    ) -> Posted {
        let (xs, cover, counts) = (vars(&xs)?, values(&cover, "value")?, vars(&counts)?);
        posted(
            self.model()?
                .global_cardinality_counts(&xs, &cover, &counts, closed),
        )
    }

    /// In `xs`, each of `values` occurs only after an occurrence of the one before it.
    fn value_precede_chain(&mut self, values: Vec<i64>, xs: Vec<u32>) -> PyResult<Option<u32>> {
        let (values, xs) = (self::values(&values, "value")?, vars(&xs)?);
        let last = self
            .model()?
            .value_precede_chain(&values, &xs)
            .map_err(model_error)?;
        Ok(last.map(|c| c.index() as u32))
    }

    /// `xs` spells a word of the automaton with states `1..=states`, symbols
    /// `1..=symbols`, transitions `next` row by row (0 for none), start state and accepting
    /// states.
    fn regular(
        &mut self,
        xs: Vec<u32>,
        states: usize,
        symbols: usize,
        next: Vec<i64>,
        start: i64,
        accepting: Vec<i64>,
    ) -> Posted {
        let xs = vars(&xs)?;
        posted(
            self.model()?
                .regular(&xs, states, symbols, &next, start, &accepting),
        )
    }

    /// `xs` spells a word of the automaton with states `0..states`, `transitions`
    /// `(from, value, to)` (several on one value from a state allowed: it is made
    /// deterministic), `start` and `accepting` states; values are the symbols as they are.
    fn automaton(
        &mut self,
        xs: Vec<u32>,
        states: usize,
        transitions: Vec<(usize, i64, usize)>,
        start: usize,
        accepting: Vec<usize>,
    ) -> Posted {
        let xs = vars(&xs)?;
        let transitions = transitions
            .into_iter()
            .map(|(from, v, to)| Ok((from, value(v, "value")?, to)))
            .collect::<PyResult<Vec<_>>>()?;
        let nfa = Nfa {
            states,
            transitions,
            start,
            accepting,
        };
        let regular = nfa.to_regular(&xs).map_err(invalid)?;
        posted(self.model()?.post(regular))
    }

    /// The multi-valued decision diagram with `nodes` nodes (node 0 the root) and `edges`
    /// `(from, values, to)`, one layer per variable.
    fn mdd(&mut self, xs: Vec<u32>, nodes: usize, edges: Vec<(usize, Vec<i64>, usize)>) -> Posted {
        let xs = vars(&xs)?;
        let edges = edges
            .into_iter()
            .map(|(from, vs, to)| Ok((from, values(&vs, "value")?, to)))
            .collect::<PyResult<Vec<_>>>()?;
        posted(self.model()?.mdd(&xs, nodes, &edges))
    }

    /// Items of `weights` go into `bins` numbered from `first`; `loads[b]` is bin b's weight.
    fn bin_packing_load(
        &mut self,
        loads: Vec<u32>,
        first: i64,
        bins: Vec<u32>,
        weights: Vec<i64>,
    ) -> Posted {
        let (loads, bins) = (vars(&loads)?, vars(&bins)?);
        let (first, weights) = (value(first, "first bin")?, values(&weights, "weight")?);
        posted(
            self.model()?
                .bin_packing_load(&loads, first, &bins, &weights),
        )
    }

    /// `xs[i]` copies of item `i` weigh `weight` and earn `profit` in all, every number at
    /// least 0.
    fn knapsack(
        &mut self,
        weights: Vec<i64>,
        profits: Vec<i64>,
        xs: Vec<u32>,
        weight: u32,
        profit: u32,
    ) -> Posted {
        let (xs, weight, profit) = (vars(&xs)?, var(weight)?, var(profit)?);
        let (weights, profits) = (values(&weights, "weight")?, values(&profits, "profit")?);
        posted(
            self.model()?
                .knapsack(&weights, &profits, &xs, weight, profit),
        )
    }

    /// `z` is the first index (from `first`) of the largest of `xs` (smallest when `min`).
    fn arg_extremum(&mut self, xs: Vec<u32>, first: i64, z: u32, min: bool) -> Posted {
        let (xs, z) = (vars(&xs)?, var(z)?);
        let model = self.model()?;
        posted(if min {
            model.arg_min(&xs, first, z)
        } else {
            model.arg_max(&xs, first, z)
        })
    }
}
