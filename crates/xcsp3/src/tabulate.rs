//! Small non-linear intension predicates as tables: the predicate evaluated on every
//! combination of its variables' values, the combinations that satisfy it posted as an
//! extension constraint (domain consistent), instead of a chain of auxiliary variables whose
//! reified pieces prune little. ACE converts small intension constraints the same way.

use crate::expression::Expr;
use crate::Reader;
use csp::VarId;

/// The most combinations a predicate's variables may have for it to become a table.
const MOST_COMBINATIONS: u64 = 1 << 16;

/// The most variables a tabulated predicate may have.
const MOST_VARIABLES: usize = 4;

/// A small expression's variables and, for each combination of their values where the
/// expression is defined, the values and the expression's value.
type Rows = (Vec<VarId>, Vec<(Vec<i32>, i64)>);

impl Reader<'_> {
    /// Posts `e` as the table of its satisfying combinations when it is worth it and small
    /// enough; `Ok(false)` when it is not (linear relations are posted better directly).
    pub(crate) fn tabulate(&mut self, e: &Expr) -> Result<bool, String> {
        if direct(e) {
            return Ok(false);
        }
        let Some((vars, rows)) = self.rows(e, MOST_VARIABLES)? else {
            return Ok(false);
        };
        let supports: Vec<Vec<Option<i32>>> = rows
            .into_iter()
            .filter(|(_, result)| *result == 1)
            .map(|(values, _)| values.into_iter().map(Some).collect())
            .collect();
        self.model
            .extension(&vars, &supports, true)
            .map_err(|e| e.to_string())?;
        Ok(true)
    }

    /// The value of a small non-linear expression (`or(eq(q,x[1]),ne(div(q,6),...))`) as a
    /// new variable tied to its variables by one table, when it is small enough.
    pub(crate) fn tabulated_value(&mut self, e: &Expr) -> Result<Option<VarId>, String> {
        if !matches!(e, Expr::Call(..)) || linear(e) || relates_variables(e) || switched(e) {
            return Ok(None);
        }
        let Some((mut vars, rows)) = self.rows(e, MOST_VARIABLES - 1)? else {
            return Ok(None);
        };
        let mut results: Vec<i32> = Vec::with_capacity(rows.len());
        for (_, result) in &rows {
            results.push(i32::try_from(*result).map_err(|_| "a value beyond 32 bits")?);
        }
        let mut taken = results.clone();
        taken.sort_unstable();
        taken.dedup();
        if taken.is_empty() {
            return Err("an expression defined for no values of its variables".into());
        }
        let z = self
            .model
            .new_var_from_values(None, &taken)
            .map_err(|e| e.to_string())?;
        let tuples: Vec<Vec<Option<i32>>> = rows
            .into_iter()
            .zip(results)
            .map(|((values, _), r)| values.into_iter().chain([r]).map(Some).collect())
            .collect();
        vars.push(z);
        self.model
            .extension(&vars, &tuples, true)
            .map_err(|e| e.to_string())?;
        Ok(Some(z))
    }

    /// [`Rows`] of `e`, when it has 1 to `most` variables of at most [`MOST_COMBINATIONS`]
    /// combinations.
    fn rows(&self, e: &Expr, most: usize) -> Result<Option<Rows>, String> {
        if !known(e) {
            // Left to the reader's other path, which names what it cannot take.
            return Ok(None);
        }
        let mut names: Vec<&str> = Vec::new();
        collect_names(e, &mut names);
        let mut vars: Vec<VarId> = Vec::new();
        let mut slots: Vec<(&str, usize)> = Vec::new();
        for name in names {
            if self.symbol_code(name).is_some() {
                continue;
            }
            let [v] = self.symbols.resolve(name)?[..] else {
                return Ok(None);
            };
            let slot = match vars.iter().position(|&u| u == v) {
                Some(slot) => slot,
                None => {
                    vars.push(v);
                    vars.len() - 1
                }
            };
            slots.push((name, slot));
        }
        if vars.is_empty() || vars.len() > most {
            return Ok(None);
        }
        // Counted before listed: a domain of 10^9 values (SuperNumber) took seconds to list.
        let combinations = vars
            .iter()
            .try_fold(1u64, |acc, &v| acc.checked_mul(self.model.initial_size(v)))
            .unwrap_or(u64::MAX);
        if combinations > MOST_COMBINATIONS {
            return Ok(None);
        }
        let domains: Vec<Vec<i32>> = vars.iter().map(|&v| self.model.initial_domain(v)).collect();
        let mut rows = Vec::new();
        let mut index = vec![0usize; vars.len()];
        let mut values = vec![0i32; vars.len()];
        'combinations: loop {
            for (k, d) in domains.iter().enumerate() {
                values[k] = d[index[k]];
            }
            let lookup = |name: &str| -> Option<i64> {
                match slots.iter().find(|(n, _)| *n == name) {
                    Some(&(_, slot)) => Some(i64::from(values[slot])),
                    None => self.symbol_code(name).map(i64::from),
                }
            };
            if let Some(result) = evaluate(e, &lookup) {
                rows.push((values.clone(), result));
            }
            for k in (0..index.len()).rev() {
                index[k] += 1;
                if index[k] < domains[k].len() {
                    continue 'combinations;
                }
                index[k] = 0;
            }
            break;
        }
        Ok(Some((vars, rows)))
    }
}

/// Whether `e` is a relation between linear sides (or a conjunction of such), which the
/// reader posts as linear constraints, as strong as a table and cheaper.
fn direct(e: &Expr) -> bool {
    let Expr::Call(op, args) = e else {
        return false;
    };
    match op.as_str() {
        "and" => args.iter().all(direct),
        "eq" | "ne" | "lt" | "le" | "gt" | "ge" => args.iter().all(linear),
        "in" | "notin" => {
            matches!(args.as_slice(), [x, Expr::Set(values)] if linear(x)
                && values.iter().all(|v| matches!(v, Expr::Int(_))))
        }
        _ => false,
    }
}

/// Whether `e` is a relation between linear sides over two variables or more (a term
/// `ge(score[0],score[18])` of a sum), whose truth is posted better as a reified linear
/// relation than as a table of every pair of values: Soccer's 1,800 such terms over
/// domains of 107 values made tables of 11,449 rows each, 7 s to read and 300 nodes a
/// second to search. Over one variable the table is the set of values where it holds.
fn relates_variables(e: &Expr) -> bool {
    if !direct(e) {
        return false;
    }
    let mut names = Vec::new();
    collect_names(e, &mut names);
    names.sort_unstable();
    names.dedup();
    names.len() >= 2
}

/// Whether `e` is a product of a truth and a value over variables (`mul(eq(p[0],0),cost[0])`:
/// the cost when the condition holds, else 0), which the reader posts as a reified truth
/// times the value: as strong, where a table lists every value of the variables. Mapping's
/// 28 such terms over costs of 10,001 values made tables of 40,004 rows whose explanations
/// under learning took 7 GB in 8 s.
fn switched(e: &Expr) -> bool {
    let Expr::Call(op, args) = e else {
        return false;
    };
    let truth = |a: &Expr| {
        matches!(a, Expr::Call(op, _) if matches!(op.as_str(),
            "eq" | "ne" | "lt" | "le" | "gt" | "ge" | "in" | "notin"
            | "not" | "and" | "or" | "xor" | "iff" | "imp"))
    };
    let mut names = Vec::new();
    match (op.as_str(), args.as_slice()) {
        ("mul", [a, b]) if truth(a) && !truth(b) => collect_names(b, &mut names),
        ("mul", [a, b]) if truth(b) && !truth(a) => collect_names(a, &mut names),
        _ => return false,
    }
    !names.is_empty()
}

/// Whether `e` is written as a linear expression.
fn linear(e: &Expr) -> bool {
    match e {
        Expr::Int(_) | Expr::Name(_) => true,
        Expr::Call(op, args) => match (op.as_str(), args.as_slice()) {
            ("add" | "sub" | "neg", _) => args.iter().all(linear),
            ("mul", [Expr::Int(_), x]) | ("mul", [x, Expr::Int(_)]) => linear(x),
            _ => false,
        },
        _ => false,
    }
}

/// Whether every operator of `e` is one [`evaluate`] knows, with arguments it takes.
fn known(e: &Expr) -> bool {
    let Expr::Call(op, args) = e else {
        return matches!(e, Expr::Int(_) | Expr::Name(_));
    };
    let n = args.len();
    let fits = match op.as_str() {
        "in" | "notin" => {
            return matches!(args.as_slice(), [x, Expr::Set(members)] if known(x)
                && members.iter().all(known))
        }
        "neg" | "abs" | "sqr" | "not" => n == 1,
        "sub" | "dist" | "div" | "mod" | "pow" | "ne" | "lt" | "le" | "gt" | "ge" | "iff"
        | "imp" => n == 2,
        "if" => n == 3,
        "eq" => n >= 2,
        "add" | "mul" | "min" | "max" | "and" | "or" | "xor" => n >= 1,
        _ => false,
    };
    fits && args.iter().all(known)
}

/// The names `e` mentions, in order, with repeats.
fn collect_names<'e>(e: &'e Expr, out: &mut Vec<&'e str>) {
    match e {
        Expr::Name(name) => out.push(name),
        Expr::Call(_, args) | Expr::Set(args) => args.iter().for_each(|a| collect_names(a, out)),
        _ => {}
    }
}

/// The value of `e` (truths as 0 and 1) with `lookup` giving each name's value; `None` where
/// it is undefined (a division by zero, an overflow, an unknown operator).
pub(crate) fn evaluate(e: &Expr, lookup: &dyn Fn(&str) -> Option<i64>) -> Option<i64> {
    let (op, args) = match e {
        Expr::Int(c) => return Some(*c),
        Expr::Name(name) => return lookup(name),
        Expr::Call(op, args) => (op.as_str(), args.as_slice()),
        Expr::Param(_) | Expr::Rest | Expr::Set(_) => return None,
    };
    if let ("in" | "notin", [x, Expr::Set(members)]) = (op, args) {
        let x = evaluate(x, lookup)?;
        let mut found = false;
        for m in members {
            found |= evaluate(m, lookup)? == x;
        }
        return Some(i64::from(found == (op == "in")));
    }
    if op == "if" {
        let [c, a, b] = args else { return None };
        return if match evaluate(c, lookup)? {
            0 => false,
            1 => true,
            _ => return None,
        } {
            evaluate(a, lookup)
        } else {
            evaluate(b, lookup)
        };
    }
    let values: Vec<i64> = args
        .iter()
        .map(|a| evaluate(a, lookup))
        .collect::<Option<_>>()?;
    let truth = |b: bool| Some(i64::from(b));
    // A truth operator's arguments must be truths: 0 or 1, as the reader's other path
    // requires of them.
    if matches!(op, "not" | "and" | "or" | "xor" | "iff" | "imp")
        && values.iter().any(|&v| v != 0 && v != 1)
    {
        return None;
    }
    match (op, values.as_slice()) {
        ("neg", [x]) => x.checked_neg(),
        ("abs", [x]) => x.checked_abs(),
        ("sqr", [x]) => x.checked_mul(*x),
        ("add", _) => values.iter().try_fold(0i64, |a, &b| a.checked_add(b)),
        ("mul", _) => values.iter().try_fold(1i64, |a, &b| a.checked_mul(b)),
        ("sub", [x, y]) => x.checked_sub(*y),
        ("dist", [x, y]) => x.checked_sub(*y).and_then(i64::checked_abs),
        // Integer division and remainder round toward zero, as in ACE (Java) and MiniZinc.
        ("div", [x, y]) => x.checked_div(*y),
        ("mod", [x, y]) => x.checked_rem(*y),
        ("pow", [x, y]) => u32::try_from(*y).ok().and_then(|y| x.checked_pow(y)),
        ("min", [_, ..]) => values.iter().copied().min(),
        ("max", [_, ..]) => values.iter().copied().max(),
        ("eq", [first, rest @ ..]) if !rest.is_empty() => truth(rest.iter().all(|v| v == first)),
        ("ne", [x, y]) => truth(x != y),
        ("lt", [x, y]) => truth(x < y),
        ("le", [x, y]) => truth(x <= y),
        ("gt", [x, y]) => truth(x > y),
        ("ge", [x, y]) => truth(x >= y),
        ("not", [x]) => truth(*x == 0),
        ("and", _) => truth(values.iter().all(|&v| v != 0)),
        ("or", _) => truth(values.iter().any(|&v| v != 0)),
        ("xor", _) => truth(values.iter().filter(|&&v| v != 0).count() % 2 == 1),
        ("iff", [x, y]) => truth((*x != 0) == (*y != 0)),
        ("imp", [x, y]) => truth(*x == 0 || *y != 0),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expression::parse;

    fn value(text: &str, x: i64, y: i64) -> Option<i64> {
        let e = parse(text).unwrap();
        evaluate(&e, &|name| match name {
            "x" => Some(x),
            "y" => Some(y),
            _ => None,
        })
    }

    #[test]
    fn expressions_evaluate_as_the_specification_defines_them() {
        assert_eq!(value("add(x,mul(y,3),1)", 2, 5), Some(18));
        assert_eq!(value("dist(x,y)", 2, 5), Some(3));
        assert_eq!(value("div(x,y)", -7, 2), Some(-3));
        assert_eq!(value("mod(x,y)", -7, 2), Some(-1));
        assert_eq!(value("div(x,y)", 1, 0), None);
        assert_eq!(value("if(lt(x,y),x,y)", 4, 3), Some(3));
        assert_eq!(value("in(x,set(1,y,9))", 4, 4), Some(1));
        assert_eq!(value("notin(x,set(1,y,9))", 4, 4), Some(0));
        assert_eq!(value("imp(gt(x,1),eq(y,0))", 2, 1), Some(0));
        assert_eq!(value("xor(x,y,1)", 1, 1), Some(1));
        // Truth operators take truths: 2 is not one.
        assert_eq!(value("or(x,y)", 2, 0), None);
        assert_eq!(value("if(x,1,2)", 2, 0), None);
        assert_eq!(value("eq(x,y,2)", 2, 2), Some(1));
        assert_eq!(value("pow(x,y)", 2, 10), Some(1024));
        assert_eq!(value("unknown(x)", 2, 10), None);
    }
}
