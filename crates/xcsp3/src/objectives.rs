//! Reading `<objectives>`: the one objective, minimised or maximised, as a variable of the
//! model (a sum, a maximum or minimum, a number of distinct values, or an expression gets one
//! of its own).

use crate::constraints::split_list;
use crate::intension::Operand;
use crate::{Reader, XcspError};
use csp::{Objective, VarId};
use roxmltree::Node;

impl Reader<'_> {
    /// The objective under `<objectives>`; several are refused.
    pub(crate) fn objectives(&mut self, node: Node<'_, '_>) -> Result<Objective, XcspError> {
        let mut elements = node.children().filter(Node::is_element);
        let Some(goal) = elements.next() else {
            return Err(self.fault(node, "<objectives> without an objective"));
        };
        if let Some(second) = elements.next() {
            return Err(self.fault(second, "a second objective is not supported"));
        }
        let minimise = match goal.tag_name().name() {
            "minimize" => true,
            "maximize" => false,
            other => return Err(self.fault(goal, format!("<{other}> is not an objective"))),
        };
        let var = self.objective_var(goal)?;
        Ok(if minimise {
            Objective::minimize(var)
        } else {
            Objective::maximize(var)
        })
    }

    fn objective_var(&mut self, goal: Node<'_, '_>) -> Result<VarId, XcspError> {
        let list = match goal.children().find(|c| c.has_tag_name("list")) {
            Some(list) => list.text().unwrap_or("").to_owned(),
            None => goal.text().unwrap_or("").to_owned(),
        };
        let kind = goal.attribute("type").unwrap_or("expression");
        let engine = |reader: &Self, e: csp::ModelError| reader.fault(goal, e.to_string());
        match kind {
            "expression" => {
                let operands = self.operands(goal, &list)?;
                match operands[..] {
                    [Operand::Var(v)] => Ok(v),
                    [Operand::Const(c)] => {
                        let c = i32::try_from(c)
                            .map_err(|_| self.fault(goal, "a constant beyond 32 bits"))?;
                        self.model.new_var(c..=c).map_err(|e| engine(self, e))
                    }
                    _ => {
                        Err(self.fault(goal, "an objective of type expression has one expression"))
                    }
                }
            }
            "sum" => {
                let xs = self.list_vars(goal, &list)?;
                let coeffs = match goal.children().find(|c| c.has_tag_name("coeffs")) {
                    Some(c) => split_list(c.text().unwrap_or(""))
                        .into_iter()
                        .map(|v| {
                            v.parse::<i64>()
                                .map_err(|_| self.fault(c, format!("`{v}` is not a coefficient")))
                        })
                        .collect::<Result<Vec<_>, _>>()?,
                    None => vec![1; xs.len()],
                };
                if coeffs.len() != xs.len() {
                    return Err(self.fault(
                        goal,
                        format!("{} coefficients for {} terms", coeffs.len(), xs.len()),
                    ));
                }
                let terms: Vec<(i64, VarId)> = coeffs.into_iter().zip(xs).collect();
                self.model.sum_var(&terms).map_err(|e| engine(self, e))
            }
            "maximum" | "minimum" => {
                let xs = self.list_vars(goal, &list)?;
                let bounds: Vec<(i32, i32)> = xs
                    .iter()
                    .filter_map(|&x| self.model.initial_bounds(x))
                    .collect();
                let (low, high) = if kind == "maximum" {
                    (
                        bounds.iter().map(|b| b.0).max(),
                        bounds.iter().map(|b| b.1).max(),
                    )
                } else {
                    (
                        bounds.iter().map(|b| b.0).min(),
                        bounds.iter().map(|b| b.1).min(),
                    )
                };
                let (Some(low), Some(high)) = (low, high) else {
                    return Err(self.fault(goal, "an objective over no variables"));
                };
                let z = self
                    .model
                    .new_var(low..=high)
                    .map_err(|e| engine(self, e))?;
                let posted = if kind == "maximum" {
                    self.model.max(&xs, z)
                } else {
                    self.model.min(&xs, z)
                };
                posted.map_err(|e| engine(self, e))?;
                Ok(z)
            }
            "nValues" => {
                let xs = self.list_vars(goal, &list)?;
                let most = i32::try_from(xs.len())
                    .map_err(|_| self.fault(goal, "an objective over too many variables"))?;
                let z = self
                    .model
                    .new_var(most.min(1)..=most)
                    .map_err(|e| engine(self, e))?;
                self.model.nvalue(z, &xs).map_err(|e| engine(self, e))?;
                Ok(z)
            }
            other => Err(self.fault(
                goal,
                format!("an objective of type {other} is not supported yet"),
            )),
        }
    }
}
