//! Intension predicates into the kernel's constraints: linear relations where the expression is
//! linear, otherwise one auxiliary variable per sub-expression (arithmetic, reified comparisons,
//! Boolean gates), as a FlatZinc flattening would produce.

use crate::expression::Expr;
use crate::Reader;
use csp::constraints::{Compare, Member};
use csp::{Lit, Reification, Relation, VarId};

/// A sub-expression's value: a constant or a variable.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Operand {
    Const(i64),
    Var(VarId),
}

/// `sum(a * x) + constant`.
type LinearForm = (Vec<(i64, VarId)>, i64);

pub(crate) fn relation(op: &str) -> Option<Relation> {
    Some(match op {
        "eq" => Relation::Eq,
        "ne" => Relation::Ne,
        "lt" => Relation::Lt,
        "le" => Relation::Le,
        "gt" => Relation::Gt,
        "ge" => Relation::Ge,
        _ => return None,
    })
}

/// Whether operator `op` yields a truth value.
fn is_boolean(op: &str) -> bool {
    relation(op).is_some()
        || matches!(
            op,
            "and" | "or" | "not" | "imp" | "iff" | "xor" | "in" | "notin"
        )
}

impl Reader<'_> {
    /// Posts `e` as a predicate that must hold.
    pub(crate) fn predicate(&mut self, e: &Expr) -> Result<(), String> {
        if let Some(rewritten) = set_of_expressions(e) {
            return self.predicate(&rewritten);
        }
        let Expr::Call(op, args) = e else {
            return self.require(e);
        };
        match (op.as_str(), args.as_slice()) {
            ("and", _) => args.iter().try_for_each(|a| self.predicate(a)),
            (op, [a, b]) if relation(op).is_some() => {
                let rel = relation(op).unwrap_or(Relation::Eq);
                self.relate(a, rel, b)
            }
            ("eq", [first, rest @ ..]) if !rest.is_empty() => rest
                .iter()
                .try_for_each(|b| self.relate(first, Relation::Eq, b)),
            ("in", [x, Expr::Set(values)]) => {
                let x = self.var_of(x)?;
                let values = self.constants(values)?;
                self.model
                    .member(x, &values)
                    .map(drop)
                    .map_err(|e| e.to_string())
            }
            ("notin", [x, Expr::Set(values)]) => {
                let x = self.var_of(x)?;
                for v in self.constants(values)? {
                    self.model
                        .compare_value(x, Relation::Ne, i64::from(v))
                        .map_err(|e| e.to_string())?;
                }
                Ok(())
            }
            _ => self.require(e),
        }
    }

    /// `e`'s truth is 1.
    fn require(&mut self, e: &Expr) -> Result<(), String> {
        match self.truth(e)? {
            Operand::Const(1) => Ok(()),
            Operand::Const(_) => Err("a predicate that never holds".into()),
            Operand::Var(b) => self
                .model
                .compare_value(b, Relation::Eq, 1)
                .map(drop)
                .map_err(|e| e.to_string()),
        }
    }

    /// Posts `a rel b`: one linear constraint when both sides are linear, else through their
    /// values.
    fn relate(&mut self, a: &Expr, rel: Relation, b: &Expr) -> Result<(), String> {
        if let (Some((mut terms, ca)), Some((tb, cb))) =
            (self.linear_form(a)?, self.linear_form(b)?)
        {
            terms.extend(tb.into_iter().map(|(k, x)| (-k, x)));
            // sum(a) + ca rel sum(b) + cb  <=>  sum(a) - sum(b) rel cb - ca.
            let rhs = cb - ca;
            if terms.is_empty() {
                return if rel.holds(0, rhs) {
                    Ok(())
                } else {
                    Err("a relation between constants that does not hold".into())
                };
            }
            return self
                .model
                .linear(&terms, rel, rhs)
                .map(drop)
                .map_err(|e| e.to_string());
        }
        if rel == Relation::Eq {
            if let Some(done) = self.product_equal(a, b)? {
                return Ok(done);
            }
        }
        let (x, y) = (self.value(a)?, self.value(b)?);
        let posted = match (x, y) {
            (Operand::Var(x), Operand::Var(y)) => self.model.compare(x, rel, y),
            (Operand::Var(x), Operand::Const(c)) => self.model.compare_value(x, rel, c),
            (Operand::Const(c), Operand::Var(y)) => self.model.compare_value(y, flip(rel), c),
            (Operand::Const(p), Operand::Const(q)) => {
                return if rel.holds(p, q) {
                    Ok(())
                } else {
                    Err("a relation between constants that does not hold".into())
                };
            }
        };
        posted.map(drop).map_err(|e| e.to_string())
    }

    /// `e` as `sum(a * x) + c` when it is linear (constants, variables, add, sub, neg, mul by a
    /// constant), else `None`.
    fn linear_form(&mut self, e: &Expr) -> Result<Option<LinearForm>, String> {
        Ok(match e {
            Expr::Int(c) => Some((Vec::new(), *c)),
            Expr::Name(name) => match self.symbol_code(name) {
                Some(code) => Some((Vec::new(), i64::from(code))),
                None => Some((vec![(1, self.var_of(e)?)], 0)),
            },
            Expr::Call(op, args) => match (op.as_str(), args.as_slice()) {
                ("add", _) => {
                    let mut terms = Vec::new();
                    let mut constant = 0i64;
                    for a in args {
                        let Some((t, c)) = self.linear_form(a)? else {
                            return Ok(None);
                        };
                        terms.extend(t);
                        constant = constant.checked_add(c).ok_or("a constant beyond 64 bits")?;
                    }
                    Some((terms, constant))
                }
                ("sub", [a, b]) => {
                    let (Some((mut ta, ca)), Some((tb, cb))) =
                        (self.linear_form(a)?, self.linear_form(b)?)
                    else {
                        return Ok(None);
                    };
                    ta.extend(tb.into_iter().map(|(k, x)| (-k, x)));
                    Some((ta, ca - cb))
                }
                ("neg", [a]) => self
                    .linear_form(a)?
                    .map(|(t, c)| (t.into_iter().map(|(k, x)| (-k, x)).collect(), -c)),
                ("mul", [a, b]) => match (a, b) {
                    (Expr::Int(k), other) | (other, Expr::Int(k)) => self
                        .linear_form(other)?
                        .map(|(t, c)| (t.into_iter().map(|(a, x)| (a * k, x)).collect(), c * k)),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        })
    }

    /// The code of `name` when it is a symbol and not a variable's name.
    pub(crate) fn symbol_code(&self, name: &str) -> Option<i32> {
        match self.values.code(name) {
            Some(code) if self.symbols.resolve(name).is_err() => Some(code),
            _ => None,
        }
    }

    /// The single variable `e` names, or a variable holding its value.
    fn var_of(&mut self, e: &Expr) -> Result<VarId, String> {
        match e {
            Expr::Name(name) => {
                let vars = self.symbols.resolve(name)?;
                match vars.as_slice() {
                    [v] => Ok(*v),
                    _ => Err(format!("`{name}` is not one variable")),
                }
            }
            _ => match self.value(e)? {
                Operand::Var(v) => Ok(v),
                Operand::Const(c) => self.constant_var(c),
            },
        }
    }

    /// A variable fixed to `c`.
    fn constant_var(&mut self, c: i64) -> Result<VarId, String> {
        let c = i32::try_from(c).map_err(|_| format!("the constant {c} is beyond 32 bits"))?;
        self.model.new_var(c..=c).map_err(|e| e.to_string())
    }

    /// A new variable over `low..=high`.
    fn aux(&mut self, low: i64, high: i64) -> Result<VarId, String> {
        let (Ok(low), Ok(high)) = (i32::try_from(low), i32::try_from(high)) else {
            return Err(format!(
                "an intermediate value range {low}..{high} beyond 32 bits"
            ));
        };
        self.model.new_var(low..=high).map_err(|e| e.to_string())
    }

    /// The declared bounds of an operand.
    pub(crate) fn bounds(&self, x: Operand) -> (i64, i64) {
        match x {
            Operand::Const(c) => (c, c),
            Operand::Var(v) => self
                .model
                .initial_bounds(v)
                .map_or((0, 0), |(a, b)| (i64::from(a), i64::from(b))),
        }
    }

    fn constants(&self, values: &[Expr]) -> Result<Vec<i32>, String> {
        values
            .iter()
            .map(|v| match v {
                Expr::Int(c) => i32::try_from(*c).map_err(|_| format!("{c} is beyond 32 bits")),
                _ => Err("a set of values must list integers".into()),
            })
            .collect()
    }

    /// The integer value of `e`.
    pub(crate) fn value(&mut self, e: &Expr) -> Result<Operand, String> {
        let (op, args) = match e {
            Expr::Int(c) => return Ok(Operand::Const(*c)),
            Expr::Name(name) => {
                return match self.symbol_code(name) {
                    Some(code) => Ok(Operand::Const(i64::from(code))),
                    None => self.var_of(e).map(Operand::Var),
                }
            }
            Expr::Call(op, args) => (op.as_str(), args.as_slice()),
            Expr::Param(_) | Expr::Rest => return Err("a parameter outside a group".into()),
            Expr::Set(_) => return Err("a set where a value is expected".into()),
        };
        if is_boolean(op) {
            return self.truth(e);
        }
        if let Some((terms, constant)) = self.linear_form(e)? {
            return self.linear_value(terms, constant);
        }
        let values: Vec<Operand> = args
            .iter()
            .map(|a| self.value(a))
            .collect::<Result<_, _>>()?;
        match (op, values.as_slice()) {
            // Sums of terms that are not linear themselves (`sub(div(x,6),div(y,6))`).
            ("add" | "sub" | "neg", _) if !values.is_empty() => {
                let mut terms = Vec::with_capacity(values.len());
                let mut constant = 0i64;
                for (i, &v) in values.iter().enumerate() {
                    let sign = if op == "neg" || (op == "sub" && i > 0) {
                        -1
                    } else {
                        1
                    };
                    match v {
                        Operand::Const(c) => {
                            constant = constant
                                .checked_add(sign * c)
                                .ok_or("a constant beyond 64 bits")?;
                        }
                        Operand::Var(x) => terms.push((sign, x)),
                    }
                }
                self.linear_value(terms, constant)
            }
            ("abs", [x]) => {
                let (low, high) = self.bounds(*x);
                let top = low.abs().max(high.abs());
                let bottom = if low <= 0 && high >= 0 {
                    0
                } else {
                    low.abs().min(high.abs())
                };
                let (x, z) = (self.operand_var(*x)?, self.aux(bottom, top)?);
                self.model.abs(x, z).map_err(|e| e.to_string())?;
                Ok(Operand::Var(z))
            }
            ("dist", [_, _]) => {
                let difference = Expr::Call("sub".into(), args.to_vec());
                self.value(&Expr::Call("abs".into(), vec![difference]))
            }
            ("sqr", [x]) => self.product(*x, *x),
            ("mul", [x, y]) => self.product(*x, *y),
            ("mul", [first, rest @ ..]) => {
                let mut acc = *first;
                for &y in rest {
                    acc = self.product(acc, y)?;
                }
                Ok(acc)
            }
            ("div" | "mod" | "pow", [x, y]) => {
                let (xl, xh) = self.bounds(*x);
                let (yl, yh) = self.bounds(*y);
                let top = xl.abs().max(xh.abs());
                let (low, high) = match op {
                    "div" => (-top, top),
                    "mod" => {
                        let m = yl.abs().max(yh.abs()).saturating_sub(1).min(top);
                        (if xl < 0 { -m } else { 0 }, if xh > 0 { m } else { 0 })
                    }
                    // A power's range is left to the propagator.
                    _ => (i64::from(i32::MIN) + 1, i64::from(i32::MAX)),
                };
                let arith = match op {
                    "div" => csp::constraints::ArithOp::Div,
                    "mod" => csp::constraints::ArithOp::Mod,
                    _ => csp::constraints::ArithOp::Pow,
                };
                let (x, y) = (self.operand_var(*x)?, self.operand_var(*y)?);
                let z = self.aux(low.max(i64::from(i32::MIN)), high.min(i64::from(i32::MAX)))?;
                self.model
                    .arith(arith, x, y, z)
                    .map_err(|e| e.to_string())?;
                Ok(Operand::Var(z))
            }
            ("min" | "max", [_, ..]) => {
                let bounds: Vec<(i64, i64)> = values.iter().map(|&v| self.bounds(v)).collect();
                let (low, high) = if op == "min" {
                    (
                        bounds.iter().map(|b| b.0).min().unwrap_or(0),
                        bounds.iter().map(|b| b.1).min().unwrap_or(0),
                    )
                } else {
                    (
                        bounds.iter().map(|b| b.0).max().unwrap_or(0),
                        bounds.iter().map(|b| b.1).max().unwrap_or(0),
                    )
                };
                let xs: Vec<VarId> = values
                    .iter()
                    .map(|&v| self.operand_var(v))
                    .collect::<Result<_, _>>()?;
                let z = self.aux(low, high)?;
                let posted = if op == "min" {
                    self.model.min(&xs, z)
                } else {
                    self.model.max(&xs, z)
                };
                posted.map_err(|e| e.to_string())?;
                Ok(Operand::Var(z))
            }
            ("if", [c, a, b]) => {
                let (al, ah) = self.bounds(*a);
                let (bl, bh) = self.bounds(*b);
                let z = self.aux(al.min(bl), ah.max(bh))?;
                let c = self.operand_var(*c)?;
                let not_c = self.aux(0, 1)?;
                self.model.bool_not(c, not_c).map_err(|e| e.to_string())?;
                for (when, then) in [(c, *a), (not_c, *b)] {
                    let same = match then {
                        Operand::Var(v) => Compare::new(z, Relation::Eq, v, 0),
                        Operand::Const(k) => Compare::with_value(z, Relation::Eq, k),
                    };
                    self.model
                        .reify(when, same, Reification::Half)
                        .map_err(|e| e.to_string())?;
                }
                Ok(Operand::Var(z))
            }
            _ => Err(format!(
                "`{op}` with {} arguments is not supported",
                args.len()
            )),
        }
    }

    /// The value of `sum(terms) + constant`: the constant, the one variable, or a new
    /// variable over the sum's bounds tied to it by one linear constraint.
    fn linear_value(&mut self, terms: Vec<(i64, VarId)>, constant: i64) -> Result<Operand, String> {
        if terms.is_empty() {
            return Ok(Operand::Const(constant));
        }
        if let ([(1, x)], 0) = (terms.as_slice(), constant) {
            return Ok(Operand::Var(*x));
        }
        let (mut low, mut high) = (constant, constant);
        for &(a, x) in &terms {
            let (l, h) = self.bounds(Operand::Var(x));
            let (p, q) = (a.saturating_mul(l), a.saturating_mul(h));
            low = low.saturating_add(p.min(q));
            high = high.saturating_add(p.max(q));
        }
        let z = self.aux(low, high)?;
        let mut terms = terms;
        terms.push((-1, z));
        self.model
            .linear(&terms, Relation::Eq, -constant)
            .map_err(|e| e.to_string())?;
        Ok(Operand::Var(z))
    }

    fn operand_var(&mut self, x: Operand) -> Result<VarId, String> {
        match x {
            Operand::Var(v) => Ok(v),
            Operand::Const(c) => self.constant_var(c),
        }
    }

    /// `mul(x1,..,xk) = c` (either way round) with `c` a nonzero constant: each partial product
    /// divides `c`, the factors left being nonzero, so it lies within `-|c|..|c|` even where
    /// the factors' bounds multiply beyond 32 bits (Grocery: four prices in cents whose
    /// product is 711,000,000). `None` when `a = b` is not of that form.
    fn product_equal(&mut self, a: &Expr, b: &Expr) -> Result<Option<()>, String> {
        let (factors, c) = match (a, b) {
            (Expr::Call(op, factors), Expr::Int(c)) | (Expr::Int(c), Expr::Call(op, factors))
                if op == "mul" && factors.len() >= 2 && *c != 0 =>
            {
                (factors, *c)
            }
            _ => return Ok(None),
        };
        let cap = c.checked_abs().ok_or("a constant beyond 64 bits")?;
        let mut acc = self.value(&factors[0])?;
        for factor in &factors[1..] {
            let y = self.value(factor)?;
            acc = self.product_within(acc, y, cap)?;
        }
        match acc {
            Operand::Var(z) => self
                .model
                .compare_value(z, Relation::Eq, c)
                .map(drop)
                .map_err(|e| e.to_string())?,
            Operand::Const(p) if p == c => {}
            Operand::Const(_) => {
                return Err("a relation between constants that does not hold".into())
            }
        }
        Ok(Some(()))
    }

    /// `x * y`.
    pub(crate) fn product(&mut self, x: Operand, y: Operand) -> Result<Operand, String> {
        self.product_within(x, y, i64::MAX)
    }

    /// `x * y`, known to lie within `-cap..=cap`.
    fn product_within(&mut self, x: Operand, y: Operand, cap: i64) -> Result<Operand, String> {
        if let (Operand::Const(a), Operand::Const(b)) = (x, y) {
            return a
                .checked_mul(b)
                .map(Operand::Const)
                .ok_or_else(|| "a product beyond 64 bits".into());
        }
        let (xl, xh) = self.bounds(x);
        let (yl, yh) = self.bounds(y);
        let corners = [xl * yl, xl * yh, xh * yl, xh * yh];
        let low = corners.iter().copied().min().unwrap_or(0).max(-cap);
        let high = corners.iter().copied().max().unwrap_or(0).min(cap);
        let (x, y) = (self.operand_var(x)?, self.operand_var(y)?);
        let z = self.aux(low, high)?;
        self.model.times(x, y, z).map_err(|e| e.to_string())?;
        Ok(Operand::Var(z))
    }

    /// The truth of `e` as a constant 0/1 or a 0/1 variable.
    pub(crate) fn truth(&mut self, e: &Expr) -> Result<Operand, String> {
        if let Some(rewritten) = set_of_expressions(e) {
            return self.truth(&rewritten);
        }
        let Expr::Call(op, args) = e else {
            // A variable or a constant read as a truth value must be 0 or 1.
            return self.value(e);
        };
        let op = op.as_str();
        if let (Some(rel), [a, b]) = (relation(op), args.as_slice()) {
            let (x, y) = (self.value(a)?, self.value(b)?);
            let c = match (x, y) {
                (Operand::Const(p), Operand::Const(q)) => {
                    return Ok(Operand::Const(i64::from(rel.holds(p, q))))
                }
                (Operand::Var(x), Operand::Var(y)) => Compare::new(x, rel, y, 0),
                (Operand::Var(x), Operand::Const(c)) => Compare::with_value(x, rel, c),
                (Operand::Const(c), Operand::Var(y)) => Compare::with_value(y, flip(rel), c),
            };
            let b = self.aux(0, 1)?;
            self.model
                .reify(b, c, Reification::Full)
                .map_err(|e| e.to_string())?;
            return Ok(Operand::Var(b));
        }
        match (op, args.as_slice()) {
            ("in" | "notin", [x, Expr::Set(values)]) => {
                let x = self.var_of(x)?;
                let values = self.constants(values)?;
                let b = self.aux(0, 1)?;
                self.model
                    .reify(b, Member::new(x, &values), Reification::Full)
                    .map_err(|e| e.to_string())?;
                if op == "in" {
                    return Ok(Operand::Var(b));
                }
                self.negation(Operand::Var(b))
            }
            ("not", [a]) => {
                let t = self.truth(a)?;
                self.negation(t)
            }
            ("iff", _) if args.len() != 2 => Err("iff over other than two arguments".into()),
            ("and" | "or" | "imp" | "iff" | "xor", _) if !args.is_empty() => {
                let mut lits = Vec::with_capacity(args.len());
                for (i, a) in args.iter().enumerate() {
                    let t = self.truth(a)?;
                    // imp(a, b) is or(not a, b).
                    let t = if op == "imp" && i == 0 {
                        self.negation(t)?
                    } else {
                        t
                    };
                    lits.push(self.operand_var(t)?);
                }
                let r = self.aux(0, 1)?;
                let lits_of =
                    |vars: &[VarId]| vars.iter().map(|&v| Lit::pos(v)).collect::<Vec<_>>();
                let posted = match op {
                    "and" => self.model.bool_and(&lits_of(&lits), Some(Lit::pos(r))),
                    "or" | "imp" => self.model.bool_or(&lits_of(&lits), Some(Lit::pos(r))),
                    // r = xor(lits): lits and r have an even parity; iff is its negation for two.
                    "xor" => {
                        let mut all = lits_of(&lits);
                        all.push(Lit::pos(r));
                        self.model.bool_xor(&all, false)
                    }
                    // r = iff(a, b) = not xor(a, b): an odd parity.
                    _ => {
                        let mut all = lits_of(&lits);
                        all.push(Lit::pos(r));
                        self.model.bool_xor(&all, true)
                    }
                };
                posted.map_err(|e| e.to_string())?;
                Ok(Operand::Var(r))
            }
            // A truth operator not met above has arguments of the wrong kind (`in` without a
            // set): handing it to `value` would come straight back here.
            (op, args) if is_boolean(op) => Err(format!(
                "`{op}` with {} arguments of these kinds is not supported",
                args.len()
            )),
            _ => self.value(e),
        }
    }

    /// `1 - t`.
    fn negation(&mut self, t: Operand) -> Result<Operand, String> {
        match t {
            Operand::Const(c) => Ok(Operand::Const(i64::from(c == 0))),
            Operand::Var(b) => {
                let n = self.aux(0, 1)?;
                self.model.bool_not(b, n).map_err(|e| e.to_string())?;
                Ok(Operand::Var(n))
            }
        }
    }
}

/// `in(x, set(e1, e2))` over expressions, not only constants, as `or(eq(x,e1),eq(x,e2))`
/// (`notin` as its negation); `None` for anything else.
fn set_of_expressions(e: &Expr) -> Option<Expr> {
    let Expr::Call(op, args) = e else {
        return None;
    };
    let [x, Expr::Set(members)] = args.as_slice() else {
        return None;
    };
    if !matches!(op.as_str(), "in" | "notin") || members.iter().all(|m| matches!(m, Expr::Int(_))) {
        return None;
    }
    let equal = members
        .iter()
        .map(|m| Expr::Call("eq".into(), vec![x.clone(), m.clone()]))
        .collect();
    let any = Expr::Call("or".into(), equal);
    Some(if op == "in" {
        any
    } else {
        Expr::Call("not".into(), vec![any])
    })
}

/// `b rel' a` for `a rel b`.
pub(crate) fn flip(rel: Relation) -> Relation {
    match rel {
        Relation::Lt => Relation::Gt,
        Relation::Le => Relation::Ge,
        Relation::Gt => Relation::Lt,
        Relation::Ge => Relation::Le,
        other => other,
    }
}
