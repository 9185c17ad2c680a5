//! `Builder`: FlatZinc items into a `csp::Model`, with the search, the goal and the output the
//! items ask for.

use crate::ast::{BaseType, Expr, Goal, Item, Type};
use crate::error::FznError;
use crate::fzn_model::{Elem, FznModel, Output, OutputShape};
use csp::constraints::{ArithOp, Compare, Linear, Member, Regular, Reifiable};
use csp::Objective;
use csp::{
    Consistency, Lit, Model, ModelError, Phase, Reification, Relation, ValueSelect, VarId,
    VarSelect,
};
use rustc_hash::FxHashMap;

/// The values of a set: a range, kept as its bounds (a domain of a billion values costs no
/// more than one of ten), or a sorted list without repeats.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Values {
    Range(i64, i64),
    List(Vec<i64>),
}

impl Values {
    fn contains(&self, v: i64) -> bool {
        match self {
            Values::Range(low, high) => (*low..=*high).contains(&v),
            Values::List(values) => values.binary_search(&v).is_ok(),
        }
    }

    fn is_empty(&self) -> bool {
        match self {
            Values::Range(low, high) => high < low,
            Values::List(values) => values.is_empty(),
        }
    }

    /// The values, listed; `None` for a range too long to list.
    fn listed(&self) -> Option<Vec<i64>> {
        match self {
            Values::Range(low, high) if high.saturating_sub(*low) < 1 << 24 => {
                Some((*low..=*high).collect())
            }
            Values::Range(..) => None,
            Values::List(values) => Some(values.clone()),
        }
    }
}

/// What a name stands for.
#[derive(Clone, Debug)]
enum Named {
    /// An integer or Boolean variable or parameter (Booleans as 0/1).
    Scalar(Elem),
    /// An array of them.
    Array(Vec<Elem>),
    /// A set parameter.
    Set(Values),
    /// An array of set parameters.
    SetArray(Vec<Values>),
    /// A float parameter or variable, or an array of them: refused where used.
    Float,
}

/// The most variables an array declared without a value may create.
const MAX_FRESH_ARRAY: i64 = 1 << 20;

/// How a builtin's name ends: enforced, reified (`_reif`) or half-reified (`_imp`).
#[derive(Copy, Clone, PartialEq, Eq)]
enum Mode {
    Plain,
    Reif,
    Imp,
}

/// Builds a [`FznModel`] from items fed in order.
pub(crate) struct Builder {
    model: Model,
    /// Every declared name; FxHash, as a model names up to millions of things and SipHash
    /// was a fifth of the loading time.
    names: FxHashMap<String, Named>,
    constants: FxHashMap<i64, VarId>,
    outputs: Vec<Output>,
    objective: Option<Objective>,
    phases: Vec<Phase>,
    notes: Vec<String>,
    /// A variable fixed to a value outside its declared domain: no solution, whatever else.
    contradiction: Option<String>,
    solved: bool,
}

impl Builder {
    pub(crate) fn new() -> Self {
        Builder {
            model: Model::new(),
            names: FxHashMap::default(),
            constants: FxHashMap::default(),
            outputs: Vec::new(),
            objective: None,
            phases: Vec::new(),
            notes: Vec::new(),
            contradiction: None,
            solved: false,
        }
    }

    pub(crate) fn finish(mut self, last_line: usize) -> Result<FznModel, FznError> {
        // In name order, as fzn-gecode prints them, so that the two outputs compare byte for
        // byte.
        self.outputs.sort_by(|a, b| a.name.cmp(&b.name));
        if !self.solved {
            return Err(FznError::on_line(
                last_line,
                "the model has no solve item".to_owned(),
            ));
        }
        Ok(FznModel {
            model: self.model,
            objective: self.objective,
            phases: self.phases,
            outputs: self.outputs,
            notes: self.notes,
            contradiction: self.contradiction,
        })
    }

    pub(crate) fn add(&mut self, item: Item, line: usize) -> Result<(), FznError> {
        if self.solved {
            return Err(FznError::on_line(
                line,
                "nothing may follow the solve item".to_owned(),
            ));
        }
        match item {
            Item::Predicate { .. } => Ok(()),
            Item::Decl {
                ty,
                name,
                annotations,
                value,
            } => self.decl(ty, name, &annotations, value, line),
            Item::Constraint {
                name,
                args,
                annotations,
            } => match self.constraint(&name, &args, &annotations, line) {
                // `int_ne(x, x)` is valid FlatZinc: the model has no solution.
                Err(e) if e.never_holds => {
                    self.contradiction.get_or_insert(e.to_string());
                    Ok(())
                }
                other => other,
            },
            Item::Solve { annotations, goal } => {
                self.solved = true;
                self.solve(&annotations, goal, line)
            }
        }
    }

    fn engine(line: usize) -> impl Fn(ModelError) -> FznError {
        move |e| {
            let never_holds = matches!(e, ModelError::NeverHolds(_));
            let mut error = FznError::on_line(line, e.to_string());
            error.never_holds = never_holds;
            error
        }
    }

    fn small(value: i64, line: usize) -> Result<i32, FznError> {
        i32::try_from(value).map_err(|_| {
            FznError::unsupported(
                line,
                format!(
                    "the value {value} does not fit in 32 bits, which this solver's variables hold"
                ),
            )
        })
    }

    /// A variable fixed to `value`, one per value.
    fn constant(&mut self, value: i64, line: usize) -> Result<VarId, FznError> {
        if let Some(&var) = self.constants.get(&value) {
            return Ok(var);
        }
        let v = Self::small(value, line)?;
        let var = self.model.new_var(v..=v).map_err(Self::engine(line))?;
        self.constants.insert(value, var);
        Ok(var)
    }

    fn var_of(&mut self, elem: Elem, line: usize) -> Result<VarId, FznError> {
        match elem {
            Elem::Var(var) => Ok(var),
            Elem::Const(value) => self.constant(value, line),
        }
    }

    // ---- declarations ----

    fn decl(
        &mut self,
        ty: Type,
        name: String,
        annotations: &[Expr],
        value: Option<Expr>,
        line: usize,
    ) -> Result<(), FznError> {
        if self.names.contains_key(&name) {
            return Err(FznError::on_line(
                line,
                format!("'{name}' is declared twice"),
            ));
        }
        let named = match (&ty.base, ty.array_len) {
            (BaseType::Float | BaseType::FloatIn(..), _) => {
                if ty.is_var {
                    return Err(FznError::unsupported(
                        line,
                        format!("'{name}' is a float variable: floats are not supported"),
                    ));
                }
                Named::Float
            }
            (BaseType::SetOfInt, None) if ty.is_var => {
                return Err(FznError::unsupported(
                    line,
                    format!(
                        "'{name}' is a set variable: sets are not supported (MiniZinc turns them \
                         into Booleans with nosets.mzn in the solver's library)"
                    ),
                ))
            }
            (BaseType::SetOfInt, None) => {
                let value = value.ok_or_else(|| {
                    FznError::on_line(line, format!("the parameter '{name}' has no value"))
                })?;
                Named::Set(self.set_value(&value, line)?)
            }
            (BaseType::SetOfInt, Some(len)) => {
                if ty.is_var && len > 0 {
                    return Err(FznError::unsupported(
                        line,
                        format!("'{name}' is an array of set variables: sets are not supported"),
                    ));
                }
                let Some(Expr::Array(items)) = value else {
                    return Err(FznError::on_line(
                        line,
                        format!("the array '{name}' has no value"),
                    ));
                };
                check_len(&name, len, items.len(), line)?;
                let sets = items
                    .iter()
                    .map(|e| self.set_value(e, line))
                    .collect::<Result<Vec<_>, _>>()?;
                if let (true, Some(dims)) = (sets.is_empty(), output_array_dims(annotations)) {
                    // An empty array of sets prints as any empty array does.
                    self.outputs.push(Output {
                        name: name.clone(),
                        shape: OutputShape::Array {
                            dims,
                            elems: Vec::new(),
                        },
                        is_bool: false,
                    });
                }
                Named::SetArray(sets)
            }
            (_, None) => {
                let is_bool = ty.base == BaseType::Bool;
                let elem = if ty.is_var {
                    self.new_scalar(&ty.base, value.as_ref(), &name, line)?
                } else {
                    let value = value.ok_or_else(|| {
                        FznError::on_line(line, format!("the parameter '{name}' has no value"))
                    })?;
                    Elem::Const(self.literal(&value, line)?)
                };
                if has_annotation(annotations, "output_var") {
                    self.outputs.push(Output {
                        name: name.clone(),
                        shape: OutputShape::Scalar(elem),
                        is_bool,
                    });
                }
                Named::Scalar(elem)
            }
            (_, Some(len)) => {
                let is_bool = ty.base == BaseType::Bool;
                let elems = match value {
                    Some(Expr::Array(items)) => {
                        check_len(&name, len, items.len(), line)?;
                        let mut elems = Vec::with_capacity(items.len());
                        for item in &items {
                            elems.push(self.elem(item, line)?);
                        }
                        elems
                    }
                    Some(Expr::Ident(other)) => match self.names.get(&other) {
                        Some(Named::Array(elems)) => elems.clone(),
                        _ => {
                            return Err(FznError::on_line(
                                line,
                                format!("'{other}' is not an array"),
                            ))
                        }
                    },
                    Some(_) => {
                        return Err(FznError::on_line(
                            line,
                            format!("the array '{name}' is given something else than an array"),
                        ))
                    }
                    None if ty.is_var => {
                        // An array of fresh variables (MiniZinc gives every array a value;
                        // this is for texts written by hand).
                        if len > MAX_FRESH_ARRAY {
                            return Err(FznError::unsupported(
                                line,
                                format!("the array '{name}' would be {len} new variables, more than {MAX_FRESH_ARRAY}"),
                            ));
                        }
                        let mut elems = Vec::with_capacity(len as usize);
                        for _ in 0..len {
                            elems.push(self.new_scalar(&ty.base, None, &name, line)?);
                        }
                        elems
                    }
                    None => {
                        return Err(FznError::on_line(
                            line,
                            format!("the array '{name}' has no value"),
                        ))
                    }
                };
                if ty.is_var {
                    for &elem in &elems {
                        self.restrict(elem, &ty.base, line)?;
                    }
                }
                if let Some(dims) = output_array_dims(annotations) {
                    self.outputs.push(Output {
                        name: name.clone(),
                        shape: OutputShape::Array {
                            dims,
                            elems: elems.clone(),
                        },
                        is_bool,
                    });
                }
                Named::Array(elems)
            }
        };
        self.names.insert(name, named);
        Ok(())
    }

    /// A scalar variable of type `base`, or what `value` makes it: a constant or another
    /// variable (then restricted to `base` too).
    fn new_scalar(
        &mut self,
        base: &BaseType,
        value: Option<&Expr>,
        name: &str,
        line: usize,
    ) -> Result<Elem, FznError> {
        if let Some(value) = value {
            let elem = self.elem(value, line)?;
            self.restrict(elem, base, line)?;
            return Ok(elem);
        }
        let var = match base {
            BaseType::Bool => self.model.new_named_var(name, 0..=1),
            BaseType::Int => self.model.new_named_var(name, i32::MIN..=i32::MAX),
            BaseType::IntIn(domain) => match self.set_value(domain, line)? {
                values if values.is_empty() => {
                    self.contradiction
                        .get_or_insert(format!("line {line}: '{name}' has an empty domain"));
                    self.model.new_named_var(name, 0..=0)
                }
                Values::Range(low, high) => {
                    let range = Self::small(low, line)?..=Self::small(high, line)?;
                    self.model.new_named_var(name, range)
                }
                Values::List(values) => {
                    let small = values
                        .iter()
                        .map(|&v| Self::small(v, line))
                        .collect::<Result<Vec<_>, _>>()?;
                    self.model.new_var_from_values(Some(name), &small)
                }
            },
            _ => {
                return Err(FznError::unsupported(
                    line,
                    format!("'{name}' has a type this solver does not support"),
                ))
            }
        }
        .map_err(Self::engine(line))?;
        Ok(Elem::Var(var))
    }

    /// Keeps `elem` within `base` (a variable declared with a domain and a value).
    fn restrict(&mut self, elem: Elem, base: &BaseType, line: usize) -> Result<(), FznError> {
        let allowed = match base {
            BaseType::Bool => Values::Range(0, 1),
            BaseType::IntIn(domain) => self.set_value(domain, line)?,
            _ => return Ok(()),
        };
        match elem {
            Elem::Const(v) => {
                if !allowed.contains(v) {
                    self.contradiction.get_or_insert(format!(
                        "line {line}: the value {v} is outside the declared domain"
                    ));
                }
            }
            Elem::Var(var) => self.keep_within(var, &allowed, line)?,
        }
        Ok(())
    }

    /// Posts `var in allowed`, unless the variable's declared domain is inside already.
    fn keep_within(&mut self, var: VarId, allowed: &Values, line: usize) -> Result<(), FznError> {
        let Some((low, high)) = self.model.initial_bounds(var) else {
            return Ok(());
        };
        let engine = Self::engine(line);
        match allowed {
            Values::Range(a, b) => {
                if i64::from(low) < *a {
                    self.model
                        .compare_value(var, Relation::Ge, *a)
                        .map_err(&engine)?;
                }
                if i64::from(high) > *b {
                    self.model
                        .compare_value(var, Relation::Le, *b)
                        .map_err(&engine)?;
                }
            }
            Values::List(values) => {
                let small: Vec<i32> = values
                    .iter()
                    .filter_map(|&v| i32::try_from(v).ok())
                    .filter(|v| (low..=high).contains(v))
                    .collect();
                let inside = i64::from(high) - i64::from(low) < 1 << 24
                    && self
                        .model
                        .initial_values(var)
                        .all(|v| small.binary_search(&v).is_ok());
                if small.is_empty() {
                    self.contradiction
                        .get_or_insert(format!("line {line}: a variable has no allowed value"));
                } else if !inside {
                    self.model.member(var, &small).map_err(engine)?;
                }
            }
        }
        Ok(())
    }

    // ---- expressions ----

    /// The values of a set expression.
    fn set_value(&self, expr: &Expr, line: usize) -> Result<Values, FznError> {
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
    fn literal(&self, expr: &Expr, line: usize) -> Result<i64, FznError> {
        match self.elem(expr, line)? {
            Elem::Const(v) => Ok(v),
            Elem::Var(_) => Err(FznError::on_line(
                line,
                "expected a constant, found a variable".to_owned(),
            )),
        }
    }

    /// An integer or Boolean: a literal, a name or an array element.
    fn elem(&self, expr: &Expr, line: usize) -> Result<Elem, FznError> {
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
    fn elems(&self, expr: &Expr, line: usize) -> Result<Vec<Elem>, FznError> {
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

    fn var(&mut self, expr: &Expr, line: usize) -> Result<VarId, FznError> {
        let elem = self.elem(expr, line)?;
        self.var_of(elem, line)
    }

    /// The variables of the first `N` arguments (the caller has checked there are `N`).
    fn first_vars<const N: usize>(
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

    fn vars(&mut self, expr: &Expr, line: usize) -> Result<Vec<VarId>, FznError> {
        let elems = self.elems(expr, line)?;
        elems.into_iter().map(|e| self.var_of(e, line)).collect()
    }

    /// A set of integers as its values that fit 32 bits: a value beyond is no variable's, so
    /// leaving it out changes nothing for the sets that name values to count or to except.
    fn int_set(&self, expr: &Expr, line: usize) -> Result<Vec<i32>, FznError> {
        Self::listed_set(self.set_value(expr, line)?, line)
    }

    /// An array of sets of integers, each as [`Builder::int_set`] reads one.
    fn int_sets(&self, expr: &Expr, line: usize) -> Result<Vec<Vec<i32>>, FznError> {
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
    fn listed_set(set: Values, line: usize) -> Result<Vec<i32>, FznError> {
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
    fn small_consts(&self, expr: &Expr, line: usize) -> Result<Vec<i32>, FznError> {
        self.consts(expr, line)?
            .into_iter()
            .map(|v| Self::small(v, line))
            .collect()
    }

    fn consts(&self, expr: &Expr, line: usize) -> Result<Vec<i64>, FznError> {
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

    fn lits(&mut self, expr: &Expr, line: usize) -> Result<Vec<Lit>, FznError> {
        Ok(self.vars(expr, line)?.into_iter().map(Lit::pos).collect())
    }

    // ---- constraints ----

    fn post_reifiable<C: Reifiable + csp::Constraint + 'static>(
        &mut self,
        c: C,
        mode: Mode,
        r: Option<&Expr>,
        line: usize,
    ) -> Result<(), FznError> {
        match (mode, r) {
            (Mode::Plain, _) => self.model.post(c).map(|_| ()),
            (Mode::Reif | Mode::Imp, Some(r)) => {
                let b = self.var(r, line)?;
                let how = if mode == Mode::Reif {
                    Reification::Full
                } else {
                    Reification::Half
                };
                self.model.reify(b, c, how).map(|_| ())
            }
            (_, None) => {
                return Err(FznError::on_line(
                    line,
                    "missing the Boolean argument".into(),
                ))
            }
        }
        .map_err(Self::engine(line))
    }

    fn constraint(
        &mut self,
        name: &str,
        args: &[Expr],
        annotations: &[Expr],
        line: usize,
    ) -> Result<(), FznError> {
        let (base, mode) = if let Some(base) = name.strip_suffix("_reif") {
            (base, Mode::Reif)
        } else if let Some(base) = name.strip_suffix("_imp") {
            (base, Mode::Imp)
        } else {
            (name, Mode::Plain)
        };
        let arity = |n: usize| -> Result<(), FznError> {
            let wanted = n + usize::from(mode != Mode::Plain);
            if args.len() == wanted {
                Ok(())
            } else {
                Err(FznError::on_line(
                    line,
                    format!("{name} takes {wanted} arguments, not {}", args.len()),
                ))
            }
        };
        let relation = match base {
            "int_eq" | "bool_eq" => Some(Relation::Eq),
            "int_ne" | "bool_ne" => Some(Relation::Ne),
            "int_le" | "bool_le" => Some(Relation::Le),
            "int_lt" | "bool_lt" => Some(Relation::Lt),
            "int_ge" => Some(Relation::Ge),
            "int_gt" => Some(Relation::Gt),
            _ => None,
        };
        if let Some(relation) = relation {
            arity(2)?;
            let a = self.elem(&args[0], line)?;
            let b = self.elem(&args[1], line)?;
            let c = match (a, b) {
                (Elem::Var(x), Elem::Var(y)) => Compare::new(x, relation, y, 0),
                (Elem::Var(x), Elem::Const(v)) => Compare::with_value(x, relation, v),
                (Elem::Const(v), Elem::Var(y)) => Compare::with_value(y, flip(relation), v),
                (Elem::Const(_), Elem::Const(_)) => {
                    let x = self.var_of(a, line)?;
                    Compare::with_value(x, relation, self.literal(&args[1], line)?)
                }
            };
            return self.post_reifiable(c, mode, args.get(2), line);
        }
        let linear = match base {
            "int_lin_eq" | "bool_lin_eq" => Some(Relation::Eq),
            "int_lin_le" | "bool_lin_le" => Some(Relation::Le),
            "int_lin_ne" => Some(Relation::Ne),
            _ => None,
        };
        if let Some(op) = linear {
            arity(3)?;
            let coefficients = self.consts(&args[0], line)?;
            let vars = self.vars(&args[1], line)?;
            if coefficients.len() != vars.len() {
                return Err(FznError::on_line(
                    line,
                    format!(
                        "{name} has {} coefficients for {} variables",
                        coefficients.len(),
                        vars.len()
                    ),
                ));
            }
            let mut terms: Vec<(i64, VarId)> = coefficients.into_iter().zip(vars).collect();
            let rhs = match self.elem(&args[2], line)? {
                Elem::Const(v) => v,
                Elem::Var(c) => {
                    terms.push((-1, c));
                    0
                }
            };
            return self.post_reifiable(Linear::new(&terms, op, rhs), mode, args.get(3), line);
        }
        if base == "set_in" {
            arity(2)?;
            let x = self.var(&args[0], line)?;
            let set = self.set_value(&args[1], line)?;
            if set.is_empty() {
                // Nothing is in the empty set: x in {} is false.
                let never = Compare::with_value(x, Relation::Lt, i64::from(i32::MIN));
                return self.post_reifiable(never, mode, args.get(2), line);
            }
            if let (Values::Range(..), Mode::Plain) = (&set, mode) {
                return self.keep_within(x, &set, line);
            }
            let Some(values) = set.listed() else {
                return Err(FznError::unsupported(
                    line,
                    format!("{name} over a range of more than 2^24 values"),
                ));
            };
            let values: Vec<i32> = values
                .into_iter()
                .filter_map(|v| i32::try_from(v).ok())
                .collect();
            if values.is_empty() {
                let never = Compare::with_value(x, Relation::Lt, i64::from(i32::MIN));
                return self.post_reifiable(never, mode, args.get(2), line);
            }
            return self.post_reifiable(Member::new(x, &values), mode, args.get(2), line);
        }
        if mode != Mode::Plain {
            return self.boolean_reified(base, mode, args, line);
        }
        self.functional(name, args, annotations, line)
    }

    /// The reified forms of the Boolean builtins that have them: `bool_clause_reif`,
    /// `array_bool_and_imp` and the like are stated through the gates.
    fn boolean_reified(
        &mut self,
        base: &str,
        mode: Mode,
        args: &[Expr],
        line: usize,
    ) -> Result<(), FznError> {
        let name = match mode {
            Mode::Reif => format!("{base}_reif"),
            _ => format!("{base}_imp"),
        };
        match (base, mode) {
            ("bool_clause", Mode::Reif) if args.len() == 3 => {
                // r <-> or(as) or or(not bs)
                let mut lits = self.lits(&args[0], line)?;
                let negative = self.lits(&args[1], line)?;
                lits.extend(negative.into_iter().map(Lit::negated));
                let r = self.var(&args[2], line)?;
                self.model
                    .bool_or(&lits, Some(Lit::pos(r)))
                    .map(|_| ())
                    .map_err(Self::engine(line))
            }
            ("bool_and" | "bool_or", Mode::Imp) if args.len() == 3 => {
                // r -> (a op b): a clause for or; two for and.
                let a = self.var(&args[0], line)?;
                let b = self.var(&args[1], line)?;
                let r = self.var(&args[2], line)?;
                let engine = Self::engine(line);
                if base == "bool_or" {
                    self.model.clause(&[a, b], &[r]).map_err(engine)?;
                } else {
                    self.model.clause(&[a], &[r]).map_err(&engine)?;
                    self.model.clause(&[b], &[r]).map_err(engine)?;
                }
                Ok(())
            }
            ("array_bool_or", Mode::Imp) if args.len() == 2 => {
                let positive = self.vars(&args[0], line)?;
                let r = self.var(&args[1], line)?;
                self.model
                    .clause(&positive, &[r])
                    .map(|_| ())
                    .map_err(Self::engine(line))
            }
            ("array_bool_and", Mode::Imp) if args.len() == 2 => {
                let all = self.vars(&args[0], line)?;
                let r = self.var(&args[1], line)?;
                for a in all {
                    self.model.clause(&[a], &[r]).map_err(Self::engine(line))?;
                }
                Ok(())
            }
            ("bool_xor", Mode::Imp) if args.len() == 3 => {
                // r -> a != b
                let a = self.var(&args[0], line)?;
                let b = self.var(&args[1], line)?;
                let r = self.var(&args[2], line)?;
                let engine = Self::engine(line);
                self.model.clause(&[a, b], &[r]).map_err(&engine)?;
                self.model.clause(&[], &[a, b, r]).map_err(engine)?;
                Ok(())
            }
            _ => Err(FznError::unsupported(
                line,
                format!("the constraint {name} is not supported"),
            )),
        }
    }

    /// The builtins that are neither comparisons nor linear: arithmetic, element, Booleans.
    fn functional(
        &mut self,
        name: &str,
        args: &[Expr],
        annotations: &[Expr],
        line: usize,
    ) -> Result<(), FznError> {
        let arity = |n: usize| -> Result<(), FznError> {
            if args.len() == n {
                Ok(())
            } else {
                Err(FznError::on_line(
                    line,
                    format!("{name} takes {n} arguments, not {}", args.len()),
                ))
            }
        };
        let engine = Self::engine(line);
        match name {
            "int_plus" | "int_minus" => {
                arity(3)?;
                let [a, b, c] = self.first_vars::<3>(args, line)?;
                // a + b = c, or a - b = c.
                let sign = if name == "int_plus" { 1 } else { -1 };
                self.model
                    .linear(&[(1, a), (sign, b), (-1, c)], Relation::Eq, 0)
                    .map_err(engine)?;
            }
            "int_times" | "int_div" | "int_mod" | "int_pow" => {
                arity(3)?;
                let op = match name {
                    "int_times" => ArithOp::Times,
                    "int_div" => ArithOp::Div,
                    "int_mod" => ArithOp::Mod,
                    _ => ArithOp::Pow,
                };
                let [a, b, c] = self.first_vars::<3>(args, line)?;
                self.model.arith(op, a, b, c).map_err(engine)?;
            }
            "int_abs" => {
                arity(2)?;
                let [a, b] = self.first_vars::<2>(args, line)?;
                self.model.abs(a, b).map_err(engine)?;
            }
            "int_max" | "int_min" => {
                arity(3)?;
                let [a, b, c] = self.first_vars::<3>(args, line)?;
                if name == "int_max" {
                    self.model.max(&[a, b], c).map_err(engine)?;
                } else {
                    self.model.min(&[a, b], c).map_err(engine)?;
                }
            }
            "array_int_maximum" | "array_int_minimum" => {
                arity(2)?;
                let m = self.var(&args[0], line)?;
                let xs = self.vars(&args[1], line)?;
                if name == "array_int_maximum" {
                    self.model.max(&xs, m).map_err(engine)?;
                } else {
                    self.model.min(&xs, m).map_err(engine)?;
                }
            }
            "array_int_element" | "array_bool_element" => {
                arity(3)?;
                let index = self.var(&args[0], line)?;
                let values = self.small_consts(&args[1], line)?;
                let result = self.var(&args[2], line)?;
                self.model
                    .element(index, &values, 1, result)
                    .map_err(engine)?;
            }
            "array_var_int_element" | "array_var_bool_element" => {
                arity(3)?;
                let index = self.var(&args[0], line)?;
                let vars = self.vars(&args[1], line)?;
                let result = self.var(&args[2], line)?;
                self.model
                    .element_vars(index, &vars, 1, result)
                    .map_err(engine)?;
            }
            "bool2int" => {
                arity(2)?;
                let [b, x] = self.first_vars::<2>(args, line)?;
                self.model.bool_to_int(b, x).map_err(engine)?;
            }
            "bool_not" => {
                arity(2)?;
                let [a, b] = self.first_vars::<2>(args, line)?;
                self.model.bool_not(a, b).map_err(engine)?;
            }
            "bool_and" | "bool_or" | "array_bool_and" | "array_bool_or" => {
                // r <-> a op b, or r <-> op(as).
                let (lits, r) = if name.starts_with("array_") {
                    arity(2)?;
                    (self.lits(&args[0], line)?, self.var(&args[1], line)?)
                } else {
                    arity(3)?;
                    let [a, b, r] = self.first_vars::<3>(args, line)?;
                    (vec![Lit::pos(a), Lit::pos(b)], r)
                };
                let r = Some(Lit::pos(r));
                if name.ends_with("_and") {
                    self.model.bool_and(&lits, r)
                } else {
                    self.model.bool_or(&lits, r)
                }
                .map_err(engine)?;
            }
            "bool_xor" => {
                // bool_xor(a, b): a != b; bool_xor(a, b, r): r <-> a != b.
                let lits = args
                    .iter()
                    .map(|e| self.var(e, line).map(Lit::pos))
                    .collect::<Result<Vec<_>, _>>()?;
                match lits.len() {
                    2 => self.model.bool_xor(&lits, true).map_err(engine)?,
                    3 => self.model.bool_xor(&lits, false).map_err(engine)?,
                    n => {
                        return Err(FznError::on_line(
                            line,
                            format!("bool_xor takes 2 or 3 arguments, not {n}"),
                        ))
                    }
                };
            }
            "array_bool_xor" => {
                arity(1)?;
                let lits = self.lits(&args[0], line)?;
                self.model.bool_xor(&lits, true).map_err(engine)?;
            }
            "bool_clause" => {
                arity(2)?;
                let positive = self.vars(&args[0], line)?;
                let negative = self.vars(&args[1], line)?;
                self.model.clause(&positive, &negative).map_err(engine)?;
            }
            "csp_count_eq" => {
                arity(3)?;
                let xs = self.vars(&args[0], line)?;
                let [y, c] = [self.var(&args[1], line)?, self.var(&args[2], line)?];
                self.model.count(&xs, y, c).map_err(engine)?;
            }
            "csp_cumulative" => {
                arity(4)?;
                let starts = self.vars(&args[0], line)?;
                let durations = self.vars(&args[1], line)?;
                let usages = self.vars(&args[2], line)?;
                let capacity = self.var(&args[3], line)?;
                self.model
                    .cumulative(&starts, &durations, &usages, capacity)
                    .map_err(engine)?;
            }
            "csp_circuit" | "csp_subcircuit" => {
                arity(2)?;
                let succ = self.vars(&args[0], line)?;
                let offset = i32::try_from(self.literal(&args[1], line)?).map_err(|_| {
                    FznError::on_line(line, "the circuit's first index is beyond 32 bits".into())
                })?;
                let sub = name == "csp_subcircuit";
                self.model.circuit(&succ, offset, sub).map_err(engine)?;
            }
            "csp_table_int" | "csp_table_bool" => {
                arity(2)?;
                let xs = self.vars(&args[0], line)?;
                let cells = self.consts(&args[1], line)?;
                if xs.is_empty() || cells.len() % xs.len() != 0 {
                    return Err(FznError::on_line(
                        line,
                        format!(
                            "{name}: {} values do not make tuples of {}",
                            cells.len(),
                            xs.len()
                        ),
                    ));
                }
                let tuples = cells
                    .chunks(xs.len())
                    .map(|t| t.iter().map(|&v| i32::try_from(v).ok().map(Some)).collect())
                    .collect::<Option<Vec<Vec<Option<i32>>>>>()
                    .ok_or_else(|| {
                        FznError::on_line(line, format!("{name}: a value beyond 32 bits"))
                    })?;
                self.model.extension(&xs, &tuples, true).map_err(engine)?;
            }
            "csp_lex_lesseq_int"
            | "csp_lex_lesseq_bool"
            | "csp_lex_less_int"
            | "csp_lex_less_bool" => {
                arity(2)?;
                let xs = self.vars(&args[0], line)?;
                let ys = self.vars(&args[1], line)?;
                let strict = name.starts_with("csp_lex_less_");
                self.model.lex(&xs, &ys, strict).map_err(engine)?;
            }
            "csp_global_cardinality_low_up" | "csp_global_cardinality_low_up_closed" => {
                arity(4)?;
                let xs = self.vars(&args[0], line)?;
                let cover = self.small_consts(&args[1], line)?;
                let low = self.consts(&args[2], line)?;
                let high = self.consts(&args[3], line)?;
                let closed = name.ends_with("_closed");
                self.model
                    .global_cardinality(&xs, &cover, &low, &high, closed)
                    .map_err(engine)?;
            }
            "csp_global_cardinality" | "csp_global_cardinality_closed" => {
                arity(3)?;
                let xs = self.vars(&args[0], line)?;
                let cover = self.small_consts(&args[1], line)?;
                let counts = self.vars(&args[2], line)?;
                let closed = name.ends_with("_closed");
                self.model
                    .global_cardinality_counts(&xs, &cover, &counts, closed)
                    .map_err(engine)?;
            }
            "csp_inverse" => {
                arity(4)?;
                let f = self.vars(&args[0], line)?;
                let f_first = self.literal(&args[1], line)?;
                let g = self.vars(&args[2], line)?;
                let g_first = self.literal(&args[3], line)?;
                self.model
                    .inverse(&f, f_first, &g, g_first)
                    .map_err(engine)?;
            }
            "csp_nvalue" => {
                arity(2)?;
                let n = self.var(&args[0], line)?;
                let xs = self.vars(&args[1], line)?;
                self.model.nvalue(n, &xs).map_err(engine)?;
            }
            "csp_increasing" | "csp_decreasing" => {
                arity(2)?;
                let xs = self.vars(&args[0], line)?;
                let strict = self.literal(&args[1], line)? != 0;
                if name == "csp_increasing" {
                    self.model.increasing(&xs, strict).map_err(engine)?;
                } else {
                    self.model.decreasing(&xs, strict).map_err(engine)?;
                }
            }
            "csp_member_of" => {
                arity(2)?;
                let xs = self.vars(&args[0], line)?;
                let y = self.var(&args[1], line)?;
                self.model.member_of(&xs, y).map_err(engine)?;
            }
            "csp_bin_packing_load" => {
                arity(4)?;
                let loads = self.vars(&args[0], line)?;
                let first = Self::small(self.literal(&args[1], line)?, line)?;
                let bins = self.vars(&args[2], line)?;
                let weights = self.small_consts(&args[3], line)?;
                self.model
                    .bin_packing_load(&loads, first, &bins, &weights)
                    .map_err(engine)?;
            }
            "csp_arg_max" | "csp_arg_min" => {
                arity(3)?;
                let xs = self.vars(&args[0], line)?;
                let first = self.literal(&args[1], line)?;
                let z = self.var(&args[2], line)?;
                if name == "csp_arg_max" {
                    self.model.arg_max(&xs, first, z).map_err(engine)?;
                } else {
                    self.model.arg_min(&xs, first, z).map_err(engine)?;
                }
            }
            "csp_dpath" | "csp_path" => {
                arity(7)?;
                let first = Self::small(self.literal(&args[0], line)?, line)?;
                let from = self.small_consts(&args[1], line)?;
                let to = self.small_consts(&args[2], line)?;
                if from.len() != to.len() {
                    return Err(FznError::on_line(
                        line,
                        format!("{name}: {} edge starts but {} ends", from.len(), to.len()),
                    ));
                }
                let ends: Vec<(i32, i32)> = from.into_iter().zip(to).collect();
                let s = self.var(&args[3], line)?;
                let t = self.var(&args[4], line)?;
                let ns = self.vars(&args[5], line)?;
                let es = self.vars(&args[6], line)?;
                let directed = name == "csp_dpath";
                self.model
                    .path(first, &ends, s, t, &ns, &es, directed)
                    .map_err(engine)?;
            }
            "csp_mdd" => {
                arity(5)?;
                let xs = self.vars(&args[0], line)?;
                let nodes = usize::try_from(self.literal(&args[1], line)?).map_err(|_| {
                    FznError::on_line(line, "mdd: a negative number of nodes".into())
                })?;
                let node = |v: i64| {
                    usize::try_from(v)
                        .map_err(|_| FznError::on_line(line, format!("mdd: node {v}")))
                };
                let from = self.consts(&args[2], line)?;
                let labels = self.int_sets(&args[3], line)?;
                let to = self.consts(&args[4], line)?;
                if from.len() != labels.len() || to.len() != labels.len() {
                    return Err(FznError::on_line(
                        line,
                        "mdd: the edges' from, label and to differ in number".into(),
                    ));
                }
                let mut edges = Vec::with_capacity(labels.len());
                for ((f, label), t) in from.into_iter().zip(labels).zip(to) {
                    edges.push((node(f)?, label, node(t)?));
                }
                self.model.mdd(&xs, nodes, &edges).map_err(engine)?;
            }
            "csp_among" => {
                arity(3)?;
                let n = self.var(&args[0], line)?;
                let xs = self.vars(&args[1], line)?;
                let values = self.int_set(&args[2], line)?;
                self.model.among(n, &xs, &values).map_err(engine)?;
            }
            "csp_diffn" | "csp_diffn_nonstrict" => {
                arity(4)?;
                let x = self.vars(&args[0], line)?;
                let y = self.vars(&args[1], line)?;
                let dx = self.vars(&args[2], line)?;
                let dy = self.vars(&args[3], line)?;
                let strict = name == "csp_diffn";
                self.model.diffn(&x, &y, &dx, &dy, strict).map_err(engine)?;
            }
            "csp_value_precede" => {
                arity(3)?;
                let (s, t) = (self.literal(&args[0], line)?, self.literal(&args[1], line)?);
                let xs = self.vars(&args[2], line)?;
                match (i32::try_from(s), i32::try_from(t)) {
                    // Over no variables it always holds.
                    _ if xs.is_empty() => {}
                    (Ok(s), Ok(t)) => {
                        self.model.value_precede(s, t, &xs).map_err(engine)?;
                    }
                    // A value beyond 32 bits is no variable's: `t` never occurs, or `s`
                    // never does and then neither may `t`.
                    (Err(_), Ok(t)) => {
                        for &x in &xs {
                            self.model
                                .compare_value(x, Relation::Ne, i64::from(t))
                                .map_err(&engine)?;
                        }
                    }
                    _ => {}
                }
            }
            "csp_all_different_except" => {
                arity(2)?;
                let xs = self.vars(&args[0], line)?;
                let except = self.int_set(&args[1], line)?;
                // Over no variable it holds, and the engine posts nothing without a scope
                // (MiniZinc's own test posts alldifferent_except_0([])).
                if !xs.is_empty() {
                    self.model
                        .all_different_except(&xs, &except)
                        .map_err(engine)?;
                }
            }
            "csp_regular" => {
                arity(7)?;
                let xs = self.vars(&args[0], line)?;
                let count = |v: i64, what: &str| {
                    usize::try_from(v)
                        .map_err(|_| FznError::on_line(line, format!("regular: {what} is {v}")))
                };
                let states = count(self.literal(&args[1], line)?, "the number of states")?;
                let symbols = count(self.literal(&args[2], line)?, "the number of symbols")?;
                let next = self.consts(&args[3], line)?;
                let start = self.literal(&args[4], line)?;
                let accepting = match self.set_value(&args[5], line)? {
                    Values::Range(low, high) => (low..=high).collect(),
                    Values::List(values) => values,
                };
                let first = self.literal(&args[6], line)?;
                let c = Regular::new(&xs, states, symbols, &next, start, &accepting)
                    .map_err(|why| FznError::on_line(line, why))?;
                let c = i32::try_from(first)
                    .ok()
                    .and_then(|first| c.symbols_from(first))
                    .ok_or_else(|| {
                        FznError::on_line(line, "regular: the symbols pass 32 bits".into())
                    })?;
                self.model.post(c).map_err(engine)?;
            }
            "csp_disjunctive" | "csp_disjunctive_strict" => {
                arity(2)?;
                let starts = self.vars(&args[0], line)?;
                let durations = self.consts(&args[1], line)?;
                let strict = name == "csp_disjunctive_strict";
                self.model
                    .disjunctive(&starts, &durations, strict)
                    .map_err(engine)?;
            }
            "all_different_int" | "csp_all_different" => {
                arity(1)?;
                let vars = self.vars(&args[0], line)?;
                let consistency = consistency(annotations).unwrap_or_default();
                // Over no variable it holds.
                if !vars.is_empty() {
                    self.model
                        .all_different_with(&vars, consistency)
                        .map_err(engine)?;
                }
            }
            _ => {
                return Err(FznError::unsupported(
                    line,
                    format!("the constraint {name} is not supported"),
                ))
            }
        }
        Ok(())
    }

    // ---- the solve item ----

    fn solve(&mut self, annotations: &[Expr], goal: Goal, line: usize) -> Result<(), FznError> {
        self.objective = match goal {
            Goal::Satisfy => None,
            Goal::Minimize(e) => Some(Objective::minimize(self.var(&e, line)?)),
            Goal::Maximize(e) => Some(Objective::maximize(self.var(&e, line)?)),
        };
        for annotation in annotations {
            self.search(annotation, line)?;
        }
        Ok(())
    }

    /// Adds the phases of one search annotation; notes what it ignores.
    fn search(&mut self, annotation: &Expr, line: usize) -> Result<(), FznError> {
        match annotation {
            Expr::Call(name, args) if name == "seq_search" || name == "warm_start_array" => {
                if name == "warm_start_array" {
                    self.notes
                        .push(format!("line {line}: ignored annotation {name}"));
                    return Ok(());
                }
                if let Some(Expr::Array(inner)) = args.first() {
                    for a in inner {
                        self.search(a, line)?;
                    }
                }
                Ok(())
            }
            Expr::Call(name, args)
                if (name == "int_search" || name == "bool_search") && args.len() >= 3 =>
            {
                let vars: Vec<VarId> = self
                    .elems(&args[0], line)?
                    .into_iter()
                    .filter_map(|e| match e {
                        Elem::Var(v) => Some(v),
                        Elem::Const(_) => None,
                    })
                    .collect();
                let select = match &args[1] {
                    Expr::Ident(s) => match s.as_str() {
                        "input_order" => VarSelect::InputOrder,
                        "first_fail" => VarSelect::FirstFail,
                        "anti_first_fail" => VarSelect::AntiFirstFail,
                        "smallest" => VarSelect::Smallest,
                        "largest" => VarSelect::Largest,
                        "max_regret" => VarSelect::MaxRegret,
                        other => {
                            self.notes.push(format!(
                                "line {line}: variable selection {other} is taken as first_fail"
                            ));
                            VarSelect::FirstFail
                        }
                    },
                    _ => VarSelect::InputOrder,
                };
                let value = match &args[2] {
                    Expr::Ident(s) => match s.as_str() {
                        "indomain_min" | "indomain" => ValueSelect::Min,
                        "indomain_max" => ValueSelect::Max,
                        "indomain_median" | "indomain_middle" => ValueSelect::Median,
                        "indomain_random" => ValueSelect::Random,
                        "indomain_split" | "indomain_interval" => ValueSelect::Split,
                        "indomain_reverse_split" => ValueSelect::ReverseSplit,
                        other => {
                            self.notes.push(format!(
                                "line {line}: value selection {other} is taken as indomain_min"
                            ));
                            ValueSelect::Min
                        }
                    },
                    _ => ValueSelect::Min,
                };
                if !vars.is_empty() {
                    self.phases.push(Phase::new(&vars, select, value));
                }
                Ok(())
            }
            Expr::Call(name, _) | Expr::Ident(name) => {
                self.notes
                    .push(format!("line {line}: ignored search annotation {name}"));
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

/// `a rel b` as `b rel' a`.
fn flip(relation: Relation) -> Relation {
    match relation {
        Relation::Lt => Relation::Gt,
        Relation::Le => Relation::Ge,
        Relation::Gt => Relation::Lt,
        Relation::Ge => Relation::Le,
        other => other,
    }
}

fn check_len(name: &str, declared: i64, given: usize, line: usize) -> Result<(), FznError> {
    if declared == given as i64 {
        Ok(())
    } else {
        Err(FznError::on_line(
            line,
            format!("the array '{name}' is declared with {declared} elements but given {given}"),
        ))
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

/// The filtering strength a constraint's annotation asks for: MiniZinc's
/// `value_propagation`, `bounds_propagation` and `domain_propagation`, or their older names
/// `bounds` and `domain`.
fn consistency(annotations: &[Expr]) -> Option<Consistency> {
    annotations.iter().find_map(|a| match a {
        Expr::Ident(name) => match name.as_str() {
            "value_propagation" => Some(Consistency::Value),
            "bounds_propagation" | "bounds" => Some(Consistency::Bounds),
            "domain_propagation" | "domain" => Some(Consistency::Domain),
            _ => None,
        },
        _ => None,
    })
}

fn has_annotation(annotations: &[Expr], name: &str) -> bool {
    annotations
        .iter()
        .any(|a| matches!(a, Expr::Ident(n) if n == name))
}

/// The index ranges of an `output_array([a..b, ...])` annotation.
fn output_array_dims(annotations: &[Expr]) -> Option<Vec<(i64, i64)>> {
    annotations.iter().find_map(|a| match a {
        Expr::Call(name, args) if name == "output_array" => match args.first() {
            Some(Expr::Array(ranges)) => ranges
                .iter()
                .map(|r| match r {
                    Expr::Range(low, high) => Some((*low, *high)),
                    _ => None,
                })
                .collect(),
            _ => None,
        },
        _ => None,
    })
}
