//! The comparison constraints: `<allDifferent>` (over a list, with `except`, over the rows
//! and columns of a `<matrix>`, or over several lists), `<allEqual>`, `<ordered>`, `<lex>`
//! and `<precedence>`.

use super::{parse_values, Args};
use crate::intension::{flip, relation, Operand};
use crate::{Reader, XcspError};
use csp::constraints::Compare;
use csp::{Relation, VarId};
use roxmltree::Node;

impl Reader<'_> {
    /// `<allDifferent>`: the list's values are distinct (bar the `<except>` values); over a
    /// `<matrix>`, each row's and each column's.
    pub(super) fn all_different(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        if node.children().filter(|c| c.has_tag_name("list")).count() > 1 {
            return self.distinct_lists(node, args);
        }
        let except = match self.child_text(node, "except", args)? {
            Some(text) => parse_values(&text, &self.values).map_err(|why| self.fault(node, why))?,
            None => Vec::new(),
        };
        let groups = match self.child_text(node, "matrix", args)? {
            Some(text) => {
                let rows = self.matrix(node, &text)?;
                let mut groups = columns(&rows);
                groups.extend(rows);
                groups
            }
            None => {
                let list = self.list_text(node, args)?;
                vec![self.list_vars(node, &list)?]
            }
        };
        for vars in groups {
            let posted = if except.is_empty() {
                self.model.all_different(&vars)
            } else {
                self.model.all_different_except(&vars, &except)
            };
            posted.map_err(|e| self.engine(node, e))?;
        }
        Ok(())
    }

    /// `<allDifferent>` over several `<list>`s: no two lists are equal, each pair differing
    /// at some position (a clause over reified disequalities, as ACE and CPMpy
    /// decompose it).
    fn distinct_lists(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        if node.children().any(|c| c.has_tag_name("except")) {
            return Err(self.fault(
                node,
                "<allDifferent> over several lists with <except> is not supported yet",
            ));
        }
        let mut lists = Vec::new();
        for list in node.children().filter(|c| c.has_tag_name("list")) {
            let text = self.text(list, args)?;
            lists.push(self.list_vars(node, &text)?);
        }
        let engine = |reader: &Self, e| reader.engine(node, e);
        for (p, a) in lists.iter().enumerate() {
            for b in &lists[p + 1..] {
                if a.len() != b.len() {
                    return Err(self.fault(
                        node,
                        format!(
                            "<allDifferent> over lists of {} and {} variables",
                            a.len(),
                            b.len()
                        ),
                    ));
                }
                let mut differs = Vec::with_capacity(a.len());
                for (&x, &y) in a.iter().zip(b) {
                    differs.push(self.reified_bool(node, Compare::new(x, Relation::Ne, y, 0))?);
                }
                self.model
                    .clause(&differs, &[])
                    .map_err(|e| engine(self, e))?;
            }
        }
        Ok(())
    }

    /// `<allEqual>`: every variable of the list equals the first.
    pub(super) fn all_equal(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let list = self.list_text(node, args)?;
        let vars = self.list_vars(node, &list)?;
        for pair in vars.windows(2) {
            self.model
                .compare(pair[0], Relation::Eq, pair[1])
                .map_err(|e| self.engine(node, e))?;
        }
        Ok(())
    }

    /// `<ordered>`: consecutive variables in the operator's order, `<lengths>` (integers or
    /// variables) apart at least (`x[i] + length[i] op x[i+1]`).
    pub(super) fn ordered(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let vars = self.required_vars(node, "list", args)?;
        let rel = self.order(node, args)?;
        let lengths = match self.child_text(node, "lengths", args)? {
            Some(text) => self.operands(node, &text)?,
            None => Vec::new(),
        };
        if !lengths.is_empty() && lengths.len() + 1 != vars.len() {
            return Err(self.fault(
                node,
                format!("{} lengths for {} variables", lengths.len(), vars.len()),
            ));
        }
        for (i, pair) in vars.windows(2).enumerate() {
            let posted = match lengths.get(i).copied().unwrap_or(Operand::Const(0)) {
                // x[i] + length[i] rel x[i+1], that is x[i+1] rel' x[i] + length[i].
                Operand::Const(offset) => {
                    self.model
                        .compare_offset(pair[1], flip(rel), pair[0], offset)
                }
                Operand::Var(length) => {
                    let terms = [(1, pair[0]), (1, length), (-1, pair[1])];
                    self.model.linear(&terms, rel, 0)
                }
            };
            posted.map_err(|e| self.engine(node, e))?;
        }
        Ok(())
    }

    /// `<lex>`: consecutive `<list>`s in the operator's lexicographic order; over a
    /// `<matrix>`, consecutive rows and consecutive columns.
    pub(super) fn lex(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let rel = self.order(node, args)?;
        let vectors = match self.child_text(node, "matrix", args)? {
            Some(text) => {
                let rows = self.matrix(node, &text)?;
                // Rows and columns are each a chain of their own.
                let cols = columns(&rows);
                self.lex_chain(node, &rows, rel)?;
                self.lex_chain(node, &cols, rel)?;
                return Ok(());
            }
            None => {
                let mut vectors = Vec::new();
                for list in node.children().filter(|c| c.has_tag_name("list")) {
                    let text = self.text(list, args)?;
                    vectors.push(self.list_vars(node, &text)?);
                }
                vectors
            }
        };
        self.lex_chain(node, &vectors, rel)
    }

    /// Each vector and the next in `rel`'s lexicographic order.
    fn lex_chain(
        &mut self,
        node: Node<'_, '_>,
        vectors: &[Vec<VarId>],
        rel: Relation,
    ) -> Result<(), XcspError> {
        for pair in vectors.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            if a.len() != b.len() {
                return Err(self.fault(
                    node,
                    format!("<lex> over lists of {} and {} variables", a.len(), b.len()),
                ));
            }
            let posted = match rel {
                Relation::Lt => self.model.lex(a, b, true),
                Relation::Le => self.model.lex(a, b, false),
                Relation::Gt => self.model.lex(b, a, true),
                Relation::Ge => self.model.lex(b, a, false),
                Relation::Eq | Relation::Ne => {
                    return Err(self.fault(node, "<lex> orders with lt, le, gt or ge"))
                }
            };
            posted.map_err(|e| self.engine(node, e))?;
        }
        Ok(())
    }

    /// `<precedence>`: each of `<values>` (by default every value of the list's domains, in
    /// increasing order) appears first in the list only after the one before it has; with
    /// `covered="true"`, every one of them appears.
    pub(super) fn precedence(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let list = self.list_text(node, args)?;
        let xs = self.list_vars(node, &list)?;
        let values = match self.child_text(node, "values", args)? {
            Some(text) => parse_values(&text, &self.values).map_err(|why| self.fault(node, why))?,
            None => {
                let mut all: Vec<i32> = xs
                    .iter()
                    .flat_map(|&x| self.model.initial_values(x))
                    .collect();
                all.sort_unstable();
                all.dedup();
                all
            }
        };
        let engine = |reader: &Self, e| reader.engine(node, e);
        self.model
            .value_precede_chain(&values, &xs)
            .map_err(|e| engine(self, e))?;
        let covered = node
            .children()
            .find(|c| c.has_tag_name("values"))
            .and_then(|v| v.attribute("covered"))
            .map(str::trim)
            == Some("true");
        if covered {
            let most = i32::try_from(xs.len()).unwrap_or(i32::MAX);
            for v in values {
                let n = self.model.new_var(1..=most).map_err(|e| engine(self, e))?;
                self.model
                    .among(n, &xs, &[v])
                    .map_err(|e| engine(self, e))?;
            }
        }
        Ok(())
    }

    /// The `<operator>` of an ordering constraint.
    fn order(&self, node: Node<'_, '_>, args: Option<&Args<'_>>) -> Result<Relation, XcspError> {
        let operator = self.required(node, "operator", args)?;
        relation(operator.trim())
            .filter(|r| !matches!(r, Relation::Eq | Relation::Ne))
            .ok_or_else(|| self.fault(node, format!("`{}` is not an order", operator.trim())))
    }
}

/// The columns of `rows`, as far as the shortest row goes.
fn columns(rows: &[Vec<VarId>]) -> Vec<Vec<VarId>> {
    let width = rows.iter().map(Vec::len).min().unwrap_or(0);
    (0..width)
        .map(|j| rows.iter().map(|row| row[j]).collect())
        .collect()
}
