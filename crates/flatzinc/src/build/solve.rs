//! The solve item: the goal, and the search its annotations declare (the phases, and notes
//! on what is ignored).

use super::Builder;
use crate::ast::{Expr, Goal};
use crate::error::FznError;
use crate::fzn_model::Elem;
use csp::{Objective, Phase, ValueSelect, VarId, VarSelect};

impl Builder {
    pub(super) fn solve(
        &mut self,
        annotations: &[Expr],
        goal: Goal,
        line: usize,
    ) -> Result<(), FznError> {
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
