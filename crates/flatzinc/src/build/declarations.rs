//! Declarations: variables and parameters, scalars and arrays, with their domains and the
//! outputs their annotations ask for.

use super::{Builder, Named, Values, MAX_FRESH_ARRAY};
use crate::ast::{BaseType, Expr, Type};
use crate::error::FznError;
use crate::fzn_model::{Elem, Output, OutputShape};
use csp::{Relation, VarId};

impl Builder {
    pub(super) fn decl(
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
    pub(super) fn restrict(
        &mut self,
        elem: Elem,
        base: &BaseType,
        line: usize,
    ) -> Result<(), FznError> {
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
    pub(super) fn keep_within(
        &mut self,
        var: VarId,
        allowed: &Values,
        line: usize,
    ) -> Result<(), FznError> {
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
