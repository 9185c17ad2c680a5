//! Constraint items: each builtin, by family as the XCSP3 reader has them (one file per
//! family), and the reified and half-reified forms.

mod arithmetic;
mod boolean;
mod comparison;
mod connection;
mod counting;
mod graph;
mod language;
mod scheduling;

use super::{Builder, Mode};
use crate::ast::Expr;
use crate::error::FznError;
use csp::constraints::Reifiable;
use csp::{Consistency, Reification, Relation};

/// One constraint item as the family readers take it.
#[derive(Clone, Copy)]
pub(super) struct Call<'a> {
    /// The builtin's name as written.
    name: &'a str,
    /// The name without `_reif` or `_imp`.
    base: &'a str,
    mode: Mode,
    args: &'a [Expr],
    annotations: &'a [Expr],
    line: usize,
}

impl<'a> Call<'a> {
    fn new(name: &'a str, args: &'a [Expr], annotations: &'a [Expr], line: usize) -> Self {
        let (base, mode) = if let Some(base) = name.strip_suffix("_reif") {
            (base, Mode::Reif)
        } else if let Some(base) = name.strip_suffix("_imp") {
            (base, Mode::Imp)
        } else {
            (name, Mode::Plain)
        };
        Call {
            name,
            base,
            mode,
            args,
            annotations,
            line,
        }
    }

    /// Whether the builtin has `n` arguments (and the Boolean of a reified form).
    fn arity(&self, n: usize) -> Result<(), FznError> {
        let wanted = n + usize::from(self.mode != Mode::Plain);
        if self.args.len() == wanted {
            Ok(())
        } else {
            Err(FznError::on_line(
                self.line,
                format!(
                    "{} takes {wanted} arguments, not {}",
                    self.name,
                    self.args.len()
                ),
            ))
        }
    }
}

/// A family's reader: posts the builtin if it is one of the family's, and says whether it was.
type Family = fn(&mut Builder, &Call<'_>) -> Result<bool, FznError>;

impl Builder {
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

    /// Posts the constraint item `name(args)`: a relation, linear relation or `set_in`
    /// (reified or not), a reified Boolean builtin, or a builtin of one of the families.
    pub(super) fn constraint(
        &mut self,
        name: &str,
        args: &[Expr],
        annotations: &[Expr],
        line: usize,
    ) -> Result<(), FznError> {
        let call = Call::new(name, args, annotations, line);
        if self.relation(&call)? {
            return Ok(());
        }
        if call.mode != Mode::Plain {
            return self.boolean_reified(call.base, call.mode, args, line);
        }
        let families: [Family; 8] = [
            Self::arithmetic,
            Self::boolean,
            Self::connection,
            Self::counting,
            Self::comparison,
            Self::scheduling,
            Self::graph,
            Self::language,
        ];
        for family in families {
            if family(self, &call)? {
                return Ok(());
            }
        }
        Err(FznError::unsupported(
            line,
            format!("the constraint {name} is not supported"),
        ))
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
