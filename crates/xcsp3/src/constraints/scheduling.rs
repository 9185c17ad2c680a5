//! The packing and scheduling constraints: `<noOverlap>` (tasks on a line, or boxes in two
//! dimensions) and `<cumulative>` (tasks sharing a resource).

use super::{tuple_items, Args};
use crate::intension::Operand;
use crate::{Reader, XcspError};
use csp::{LinearOp, VarId};
use roxmltree::Node;

impl Reader<'_> {
    /// `<noOverlap>`: tasks at `<origins>` lasting `<lengths>` never overlap; with tuples,
    /// boxes in two dimensions. A task of length 0 overlaps nothing unless `zeroIgnored` is
    /// `false`.
    pub(super) fn no_overlap(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let strict = node.attribute("zeroIgnored").map(str::trim) == Some("false");
        let origins = self.required(node, "origins", args)?;
        let lengths = self.required(node, "lengths", args)?;
        if origins.trim_start().starts_with('(') {
            return self.boxes(node, &origins, &lengths, strict);
        }
        let starts = self.list_vars(node, &origins)?;
        let lengths = self.operands(node, &lengths)?;
        if starts.len() != lengths.len() {
            return Err(self.fault(
                node,
                format!("{} origins and {} lengths", starts.len(), lengths.len()),
            ));
        }
        let fixed: Option<Vec<i64>> = lengths
            .iter()
            .map(|l| match l {
                Operand::Const(c) => Some(*c),
                Operand::Var(_) => None,
            })
            .collect();
        if let Some(durations) = fixed {
            self.model
                .disjunctive(&starts, &durations, strict)
                .map_err(|e| self.engine(node, e))?;
            return Ok(());
        }
        if strict {
            return Err(self.fault(
                node,
                "<noOverlap> with lengths that are variables and zeroIgnored=\"false\" is not supported yet",
            ));
        }
        // Tasks of unit height on a resource of capacity 1; one of length 0 uses none of it.
        let durations = lengths
            .into_iter()
            .map(|l| self.operand_var_at(node, l))
            .collect::<Result<Vec<_>, _>>()?;
        let one = self.operand_var_at(node, Operand::Const(1))?;
        let heights = vec![one; starts.len()];
        self.model
            .cumulative(&starts, &durations, &heights, one)
            .map_err(|e| self.engine(node, e))?;
        Ok(())
    }

    /// `<noOverlap>` over boxes `(x,y)` of sizes `(dx,dy)`.
    fn boxes(
        &mut self,
        node: Node<'_, '_>,
        origins: &str,
        lengths: &str,
        strict: bool,
    ) -> Result<(), XcspError> {
        let pairs = |reader: &mut Self, text: &str| -> Result<Vec<(VarId, VarId)>, XcspError> {
            let mut out = Vec::new();
            for item in tuple_items(text).map_err(|why| reader.fault(node, why))? {
                let [a, b] = reader.operands(node, &item.join(" "))?[..] else {
                    return Err(reader.fault(
                        node,
                        "<noOverlap> over boxes in other than two dimensions is not supported yet",
                    ));
                };
                out.push((
                    reader.operand_var_at(node, a)?,
                    reader.operand_var_at(node, b)?,
                ));
            }
            Ok(out)
        };
        let at = pairs(self, origins)?;
        let size = pairs(self, lengths)?;
        if at.len() != size.len() {
            return Err(self.fault(
                node,
                format!("{} origins and {} lengths", at.len(), size.len()),
            ));
        }
        let (x, y): (Vec<VarId>, Vec<VarId>) = at.into_iter().unzip();
        let (dx, dy): (Vec<VarId>, Vec<VarId>) = size.into_iter().unzip();
        self.model
            .diffn(&x, &y, &dx, &dy, strict)
            .map_err(|e| self.engine(node, e))?;
        Ok(())
    }

    /// `<cumulative>`: tasks at `<origins>` lasting `<lengths>` and using `<heights>` never
    /// use more than the condition's capacity at once (`(le,c)` or `(lt,c)`); `<ends>`, when
    /// given, are the origins plus the lengths.
    pub(super) fn cumulative(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let mut lists = Vec::with_capacity(3);
        for name in ["origins", "lengths", "heights"] {
            let text = self.required(node, name, args)?;
            lists.push(self.list_vars(node, &text)?);
        }
        let [starts, durations, heights] = &lists[..] else {
            return Err(self.fault(node, "<cumulative> needs origins, lengths and heights"));
        };
        if durations.len() != starts.len() || heights.len() != starts.len() {
            return Err(self.fault(
                node,
                format!(
                    "{} origins, {} lengths and {} heights",
                    starts.len(),
                    durations.len(),
                    heights.len()
                ),
            ));
        }
        if let Some(ends) = self.child_text(node, "ends", args)? {
            let ends = self.list_vars(node, &ends)?;
            if ends.len() != starts.len() {
                return Err(self.fault(
                    node,
                    format!("{} ends for {} origins", ends.len(), starts.len()),
                ));
            }
            for ((&s, &d), &e) in starts.iter().zip(durations).zip(&ends) {
                self.model
                    .linear(&[(1, s), (1, d), (-1, e)], LinearOp::Eq, 0)
                    .map_err(|e| self.engine(node, e))?;
            }
        }
        let condition = self.required(node, "condition", args)?;
        let inside = condition
            .trim()
            .trim_start_matches('(')
            .trim_end_matches(')');
        let capacity = match inside.split_once(',').map(|(op, c)| (op.trim(), c.trim())) {
            Some(("le", c)) => self.operands(node, c)?,
            Some(("lt", c)) => match self.operands(node, c)?[..] {
                [Operand::Const(k)] => vec![Operand::Const(k - 1)],
                _ => Vec::new(),
            },
            _ => Vec::new(),
        };
        let [capacity] = capacity[..] else {
            return Err(self.fault(
                node,
                format!(
                    "<cumulative> with condition `{}` is not supported yet (le or lt)",
                    condition.trim()
                ),
            ));
        };
        let capacity = self.operand_var_at(node, capacity)?;
        self.model
            .cumulative(starts, durations, heights, capacity)
            .map_err(|e| self.engine(node, e))?;
        Ok(())
    }
}
