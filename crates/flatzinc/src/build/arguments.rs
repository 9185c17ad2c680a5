//! The arguments of items: sets, literals, elements, arrays, variables and constants, read
//! against the names declared so far.

use super::{Builder, Named, Values};
use crate::ast::Expr;
use crate::error::FznError;
use crate::fzn_model::Elem;
use csp::{Lit, VarId};

impl Builder {
    /// The values of a set expression.
    pub(super) fn set_value(&self, expr: &Expr, line: usize) -> Result<Values, FznError> {
        match expr {
            Expr::Range(low, high) => Ok(Values::Range(*low, *high)),
            Expr::Set(values) => {
                let mut values = values.clone();
                values.sort_unstable();
                values.dedup();
                Ok(Values::List(values))
            }
            Expr::Ident(name) => match self.names.get(name) {
                Some(Named::Set(values)) => Ok(values.clone()),
                _ => Err(FznError::on_line(line, format!("'{name}' is not a set"))),
            },
            Expr::Access(name, i) => match self.names.get(name) {
                Some(Named::SetArray(sets)) => Ok(index(sets, *i, name, line)?.clone()),
                _ => Err(FznError::on_line(
                    line,
                    format!("'{name}' is not an array of sets"),
                )),
            },
            _ => Err(FznError::on_line(line, "expected a set".to_owned())),
        }
    }

    /// The value of a literal integer or Boolean, or of a parameter.
    pub(super) fn literal(&self, expr: &Expr, line: usize) -> Result<i64, FznError> {
        match self.elem(expr, line)? {
            Elem::Const(v) => Ok(v),
            Elem::Var(_) => Err(FznError::on_line(
                line,
                "expected a constant, found a variable".to_owned(),
            )),
        }
    }

    /// An integer or Boolean: a literal, a name or an array element.
    pub(super) fn elem(&self, expr: &Expr, line: usize) -> Result<Elem, FznError> {
        match expr {
            Expr::Int(v) => Ok(Elem::Const(*v)),
            Expr::Bool(b) => Ok(Elem::Const(i64::from(*b))),
            Expr::Ident(name) => match self.names.get(name) {
                Some(Named::Scalar(elem)) => Ok(*elem),
                Some(Named::Float) => Err(FznError::unsupported(
                    line,
                    format!("'{name}' is a float: floats are not supported"),
                )),
                Some(_) => Err(FznError::on_line(
                    line,
                    format!("'{name}' is not an integer or a Boolean"),
                )),
                None => Err(FznError::on_line(line, format!("'{name}' is not declared"))),
            },
            Expr::Access(name, i) => match self.names.get(name) {
                Some(Named::Array(elems)) => Ok(*index(elems, *i, name, line)?),
                _ => Err(FznError::on_line(line, format!("'{name}' is not an array"))),
            },
            Expr::Float(_) | Expr::FloatRange(..) => Err(FznError::unsupported(
                line,
                "a float value: floats are not supported".to_owned(),
            )),
            _ => Err(FznError::on_line(
                line,
                "expected an integer or a Boolean".to_owned(),
            )),
        }
    }

    /// An array argument: a literal array or the name of one.
    pub(super) fn elems(&self, expr: &Expr, line: usize) -> Result<Vec<Elem>, FznError> {
        match expr {
            Expr::Array(items) => items.iter().map(|e| self.elem(e, line)).collect(),
            Expr::Ident(name) => match self.names.get(name) {
                Some(Named::Array(elems)) => Ok(elems.clone()),
                Some(Named::Float) => Err(FznError::unsupported(
                    line,
                    format!("'{name}' holds floats: floats are not supported"),
                )),
                _ => Err(FznError::on_line(line, format!("'{name}' is not an array"))),
            },
            _ => Err(FznError::on_line(line, "expected an array".to_owned())),
        }
    }

    pub(super) fn var(&mut self, expr: &Expr, line: usize) -> Result<VarId, FznError> {
        let elem = self.elem(expr, line)?;
        self.var_of(elem, line)
    }

    /// The variables of the first `N` arguments (the caller has checked there are `N`).
    pub(super) fn first_vars<const N: usize>(
        &mut self,
        args: &[Expr],
        line: usize,
    ) -> Result<[VarId; N], FznError> {
        let mut vars = Vec::with_capacity(N);
        for arg in args.iter().take(N) {
            vars.push(self.var(arg, line)?);
        }
        vars.try_into()
            .map_err(|_| FznError::on_line(line, format!("expected {N} arguments")))
    }

    pub(super) fn vars(&mut self, expr: &Expr, line: usize) -> Result<Vec<VarId>, FznError> {
        let elems = self.elems(expr, line)?;
        elems.into_iter().map(|e| self.var_of(e, line)).collect()
    }

    /// A set of integers as its values that fit 32 bits: a value beyond is no variable's, so
    /// leaving it out changes nothing for the sets that name values to count or to except.
    pub(super) fn int_set(&self, expr: &Expr, line: usize) -> Result<Vec<i32>, FznError> {
        Self::listed_set(self.set_value(expr, line)?, line)
    }

    /// An array of sets of integers, each as [`Builder::int_set`] reads one.
    pub(super) fn int_sets(&self, expr: &Expr, line: usize) -> Result<Vec<Vec<i32>>, FznError> {
        let sets = match expr {
            Expr::Array(items) => items
                .iter()
                .map(|e| self.set_value(e, line))
                .collect::<Result<Vec<Values>, FznError>>()?,
            Expr::Ident(name) => match self.names.get(name) {
                Some(Named::SetArray(sets)) => sets.clone(),
                _ => {
                    return Err(FznError::on_line(
                        line,
                        format!("'{name}' is not an array of sets"),
                    ))
                }
            },
            _ => return Err(FznError::on_line(line, "expected an array of sets".into())),
        };
        sets.into_iter()
            .map(|set| Self::listed_set(set, line))
            .collect()
    }

    /// A set's values that fit 32 bits, listed; a range of over 2^24 values is refused.
    pub(super) fn listed_set(set: Values, line: usize) -> Result<Vec<i32>, FznError> {
        let values: Vec<i64> = match set {
            Values::Range(low, high) => {
                let (low, high) = (low.max(i64::from(i32::MIN)), high.min(i64::from(i32::MAX)));
                if high - low >= 1 << 24 {
                    return Err(FznError::unsupported(
                        line,
                        format!("the set {low}..{high} is too large to list (over 2^24 values)"),
                    ));
                }
                (low..=high).collect()
            }
            Values::List(values) => values,
        };
        Ok(values
            .into_iter()
            .filter_map(|v| i32::try_from(v).ok())
            .collect())
    }

    /// Constants that must fit 32 bits, as every variable's values do.
    pub(super) fn small_consts(&self, expr: &Expr, line: usize) -> Result<Vec<i32>, FznError> {
        self.consts(expr, line)?
            .into_iter()
            .map(|v| Self::small(v, line))
            .collect()
    }

    pub(super) fn consts(&self, expr: &Expr, line: usize) -> Result<Vec<i64>, FznError> {
        self.elems(expr, line)?
            .into_iter()
            .map(|e| match e {
                Elem::Const(v) => Ok(v),
                Elem::Var(_) => Err(FznError::on_line(
                    line,
                    "expected an array of constants".to_owned(),
                )),
            })
            .collect()
    }

    pub(super) fn lits(&mut self, expr: &Expr, line: usize) -> Result<Vec<Lit>, FznError> {
        Ok(self.vars(expr, line)?.into_iter().map(Lit::pos).collect())
    }
}

/// The element `i` (1-based) of `items`.
fn index<'a, T>(items: &'a [T], i: i64, name: &str, line: usize) -> Result<&'a T, FznError> {
    usize::try_from(i - 1)
        .ok()
        .and_then(|at| items.get(at))
        .ok_or_else(|| {
            FznError::on_line(
                line,
                format!("{name}[{i}] is outside the array's 1..{}", items.len()),
            )
        })
}
