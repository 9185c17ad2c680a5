//! The connection constraints: `<minimum>` and `<maximum>`, `<minimumArg>` and `<maximumArg>`,
//! `<element>` (over a list or a `<matrix>`, of integers or variables) and `<channel>`.

use super::Args;
use crate::intension::Operand;
use crate::{Reader, XcspError};
use csp::{Reification, Relation, VarId};
use roxmltree::Node;

impl Reader<'_> {
    /// `<minimum>` or `<maximum>`: the list's least or greatest value meets the condition.
    pub(super) fn extremum(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let name = node.tag_name().name();
        if node.children().any(|c| c.has_tag_name("index")) {
            return Err(self.fault(node, format!("<{name}> with <index> is not supported yet")));
        }
        let list = self.list_text(node, args)?;
        let xs = self.list_vars(node, &list)?;
        if xs.is_empty() {
            return Err(self.fault(node, format!("<{name}> over an empty list")));
        }
        let bounds: Vec<(i64, i64)> = xs.iter().map(|&x| self.var_bounds(x)).collect();
        let fold = |pick: fn(i64, i64) -> i64| {
            bounds
                .iter()
                .skip(1)
                .fold(bounds[0], |(l, h), &(a, b)| (pick(l, a), pick(h, b)))
        };
        let range = if name == "minimum" {
            fold(i64::min)
        } else {
            fold(i64::max)
        };
        let condition = self.required(node, "condition", args)?;
        let z = self.condition_var(node, &condition, range)?;
        if name == "minimum" {
            self.model.min(&xs, z)
        } else {
            self.model.max(&xs, z)
        }
        .map_err(|e| self.engine(node, e))?;
        Ok(())
    }

    /// `<maximumArg>` or `<minimumArg>`: the index (from the list's `startIndex`) of a
    /// greatest or least item meets the condition; of the first such item with
    /// `rank="first"`, the last with `"last"`, any with `"any"` (the default).
    pub(super) fn extremum_arg(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let name = node.tag_name().name();
        let maximum = name == "maximumArg";
        let start = self.start_index(
            node.children().find(|c| c.has_tag_name("list")),
            "startIndex",
        )?;
        let list = self.list_text(node, args)?;
        let xs = self.list_vars(node, &list)?;
        if xs.is_empty() {
            return Err(self.fault(node, format!("<{name}> over an empty list")));
        }
        let (first, last) = (i64::from(start), i64::from(start) + xs.len() as i64 - 1);
        let condition = self.required(node, "condition", args)?;
        let z = self.condition_var(node, &condition, (first, last))?;
        let engine = |reader: &Self, e| reader.engine(node, e);
        match node.attribute("rank").map_or("any", str::trim) {
            "first" => self.post_arg(&xs, first, z, maximum),
            "last" => {
                // The first of the reversed list, counted from the other end.
                let reversed: Vec<VarId> = xs.iter().rev().copied().collect();
                let from_end = self.new_var_over(node, first, last)?;
                self.post_arg(&reversed, first, from_end, maximum)
                    .map_err(|e| engine(self, e))?;
                self.model
                    .linear(&[(1, z), (1, from_end)], Relation::Eq, first + last)
            }
            "any" => {
                let bounds: Vec<(i64, i64)> = xs.iter().map(|&x| self.var_bounds(x)).collect();
                let low = bounds.iter().map(|b| b.0).min().unwrap_or(0);
                let high = bounds.iter().map(|b| b.1).max().unwrap_or(0);
                let best = self.new_var_over(node, low, high)?;
                if maximum {
                    self.model.max(&xs, best)
                } else {
                    self.model.min(&xs, best)
                }
                .map_err(|e| engine(self, e))?;
                self.model.element_vars(z, &xs, start, best)
            }
            other => {
                return Err(self.fault(node, format!("rank `{other}` is not first, last or any")))
            }
        }
        .map_err(|e| engine(self, e))?;
        Ok(())
    }

    /// `z` is the first index of the greatest (or least) of `xs`, counted from `first`.
    fn post_arg(
        &mut self,
        xs: &[VarId],
        first: i64,
        z: VarId,
        maximum: bool,
    ) -> Result<csp::ConstraintId, csp::ModelError> {
        if maximum {
            self.model.arg_max(xs, first, z)
        } else {
            self.model.arg_min(xs, first, z)
        }
    }

    /// `<element>`: the list's item at `<index>` (counted from `startIndex`) is `<value>` or
    /// meets `<condition>`; over a `<matrix>`, the item at a row and a column; without an
    /// index, some item is the value.
    pub(super) fn element(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        if let Some(matrix) = node.children().find(|c| c.has_tag_name("matrix")) {
            return self.matrix_element(node, matrix, args);
        }
        let list_node = node.children().find(|c| c.has_tag_name("list"));
        let start = self.start_index(list_node, "startIndex")?;
        let list = self.list_text(node, args)?;
        let items = self.operands(node, &list)?;
        let z = self.element_value(node, args, &items)?;
        let Some(index) = self.child_text(node, "index", args)? else {
            return self.member_of(node, &items, z);
        };
        let i = self.index_var(node, &index)?;
        self.element_of(node, i, &items, start, z)
    }

    /// `<element>` over a `<matrix>`: its rows flattened, indexed by `row * columns +
    /// column`, the row and the column kept within the matrix.
    fn matrix_element(
        &mut self,
        node: Node<'_, '_>,
        matrix: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let row_start = self.start_index(Some(matrix), "startRowIndex")?;
        let column_start = self.start_index(Some(matrix), "startColIndex")?;
        let text = self.text(matrix, args)?;
        let rows = self.matrix_operands(node, &text)?;
        let width = rows.first().map_or(0, Vec::len);
        if width == 0 || rows.iter().any(|r| r.len() != width) {
            return Err(self.fault(node, "<element> over a matrix whose rows differ in length"));
        }
        let items: Vec<Operand> = rows.concat();
        let z = self.element_value(node, args, &items)?;
        let index = self.required(node, "index", args)?;
        let [row, column] = self.operands(node, &index)?[..] else {
            return Err(self.fault(node, "<element> over a matrix has a row and a column index"));
        };
        let (row, column) = (
            self.operand_var_at(node, row)?,
            self.operand_var_at(node, column)?,
        );
        let engine = |reader: &Self, e| reader.engine(node, e);
        for (x, first, count) in [(row, row_start, rows.len()), (column, column_start, width)] {
            let last = i64::from(first) + count as i64 - 1;
            self.model
                .compare_value(x, Relation::Ge, i64::from(first))
                .map_err(|e| engine(self, e))?;
            self.model
                .compare_value(x, Relation::Le, last)
                .map_err(|e| engine(self, e))?;
        }
        let cells = i32::try_from(items.len())
            .map_err(|_| self.fault(node, "<element> over too large a matrix"))?;
        let k = self
            .model
            .new_var(0..=cells - 1)
            .map_err(|e| engine(self, e))?;
        // k = (row - row_start) * width + (column - column_start).
        let width = width as i64;
        self.model
            .linear(
                &[(width, row), (1, column), (-1, k)],
                Relation::Eq,
                width * i64::from(row_start) + i64::from(column_start),
            )
            .map_err(|e| engine(self, e))?;
        self.element_of(node, k, &items, 0, z)
    }

    /// `z = items[i - start]`, over integers or variables.
    fn element_of(
        &mut self,
        node: Node<'_, '_>,
        i: VarId,
        items: &[Operand],
        start: i32,
        z: VarId,
    ) -> Result<(), XcspError> {
        match constants(items) {
            Some(values) => self.model.element(i, &values, start, z),
            None => {
                let vars = items
                    .iter()
                    .map(|&o| self.operand_var_at(node, o))
                    .collect::<Result<Vec<_>, _>>()?;
                self.model.element_vars(i, &vars, start, z)
            }
        }
        .map_err(|e| self.engine(node, e))?;
        Ok(())
    }

    /// `z` is one of `items`.
    fn member_of(
        &mut self,
        node: Node<'_, '_>,
        items: &[Operand],
        z: VarId,
    ) -> Result<(), XcspError> {
        match constants(items) {
            Some(values) => self.model.member(z, &values),
            None => {
                let vars = items
                    .iter()
                    .map(|&o| self.operand_var_at(node, o))
                    .collect::<Result<Vec<_>, _>>()?;
                self.model.member_of(&vars, z)
            }
        }
        .map_err(|e| self.engine(node, e))?;
        Ok(())
    }

    /// The variable an `<element>` equals: its `<value>`, or one meeting its `<condition>`
    /// over the items' range.
    fn element_value(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
        items: &[Operand],
    ) -> Result<VarId, XcspError> {
        if let Some(value) = self.child_text(node, "value", args)? {
            let [value] = self.operands(node, &value)?[..] else {
                return Err(self.fault(node, "<element> has one <value>"));
            };
            return self.operand_var_at(node, value);
        }
        let Some(condition) = self.child_text(node, "condition", args)? else {
            return Err(self.fault(node, "<element> without <value> or <condition>"));
        };
        let range = items
            .iter()
            .map(|&o| self.bounds(o))
            .reduce(|(l, h), (a, b)| (l.min(a), h.max(b)))
            .unwrap_or((0, 0));
        self.condition_var(node, &condition, range)
    }

    /// `<channel>`: with two lists, `x[i] = j` exactly when `y[j] = i` (each counted from its
    /// `startIndex`); with one, the list is its own inverse; with a list and a `<value>`,
    /// the list's 0/1 variables have their single 1 at the value's index.
    pub(super) fn channel(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let lists: Vec<Node<'_, '_>> = node.children().filter(|c| c.has_tag_name("list")).collect();
        let mut read = Vec::with_capacity(lists.len().max(1));
        for &list in &lists {
            let start = self.start_index(Some(list), "startIndex")?;
            let text = self.text(list, args)?;
            read.push((self.list_vars(node, &text)?, start));
        }
        if lists.is_empty() {
            let text = self.text(node, args)?;
            read.push((self.list_vars(node, &text)?, 0));
        }
        if let Some(value) = self.child_text(node, "value", args)? {
            let [(ref xs, start)] = read[..] else {
                return Err(self.fault(node, "<channel> with <value> has one list"));
            };
            let xs = xs.clone();
            let [value] = self.operands(node, &value)?[..] else {
                return Err(self.fault(node, "<channel> has one <value>"));
            };
            let v = self.operand_var_at(node, value)?;
            return self.one_hot(node, &xs, start, v);
        }
        match &read[..] {
            [(xs, s)] => {
                // The list is its own inverse: its copy is the other side.
                let (xs, s) = (xs.clone(), *s);
                let mut copy = Vec::with_capacity(xs.len());
                for &x in &xs {
                    let (low, high) = self.var_bounds(x);
                    let y = self.new_var_over(node, low, high)?;
                    self.model
                        .compare(x, Relation::Eq, y)
                        .map_err(|e| self.engine(node, e))?;
                    copy.push(y);
                }
                self.model.inverse(&xs, i64::from(s), &copy, i64::from(s))
            }
            [(xs, s), (ys, t)] if xs.len() == ys.len() => {
                let (xs, ys, s, t) = (xs.clone(), ys.clone(), *s, *t);
                self.model.inverse(&xs, i64::from(s), &ys, i64::from(t))
            }
            [(xs, _), (ys, _)] => {
                return Err(self.fault(
                    node,
                    format!(
                        "<channel> over lists of {} and {} variables is not supported yet",
                        xs.len(),
                        ys.len()
                    ),
                ))
            }
            _ => return Err(self.fault(node, "<channel> has one or two lists")),
        }
        .map_err(|e| self.engine(node, e))?;
        Ok(())
    }

    /// `xs[i] = 1` exactly when `v = i + start`, and exactly one of `xs` is 1.
    fn one_hot(
        &mut self,
        node: Node<'_, '_>,
        xs: &[VarId],
        start: i32,
        v: VarId,
    ) -> Result<(), XcspError> {
        let engine = |reader: &Self, e| reader.engine(node, e);
        let terms: Vec<(i64, VarId)> = xs.iter().map(|&x| (1, x)).collect();
        self.model
            .linear(&terms, Relation::Eq, 1)
            .map_err(|e| engine(self, e))?;
        for (i, &x) in xs.iter().enumerate() {
            let same =
                csp::constraints::Compare::with_value(v, Relation::Eq, i64::from(start) + i as i64);
            self.model
                .reify(x, same, Reification::Full)
                .map_err(|e| engine(self, e))?;
        }
        Ok(())
    }

    /// The index variable of an `<element>` (an integer gets a variable of its own).
    fn index_var(&mut self, node: Node<'_, '_>, index: &str) -> Result<VarId, XcspError> {
        let [i] = self.operands(node, index)?[..] else {
            return Err(self.fault(node, "<element> has one <index>"));
        };
        self.operand_var_at(node, i)
    }

    /// The integer attribute `name` of `at` (0 when absent).
    fn start_index(&self, at: Option<Node<'_, '_>>, name: &str) -> Result<i32, XcspError> {
        let Some(at) = at else { return Ok(0) };
        match at.attribute(name) {
            None => Ok(0),
            Some(text) => text
                .trim()
                .parse()
                .map_err(|_| self.fault(at, format!("`{name}` is not an integer: `{text}`"))),
        }
    }

    /// A new variable over `low..=high` (saturated to 32 bits).
    fn new_var_over(
        &mut self,
        node: Node<'_, '_>,
        low: i64,
        high: i64,
    ) -> Result<VarId, XcspError> {
        let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
        self.model
            .new_var(clamp(low)..=clamp(high))
            .map_err(|e| self.engine(node, e))
    }

    /// The declared bounds of `x`.
    pub(super) fn var_bounds(&self, x: VarId) -> (i64, i64) {
        self.bounds(Operand::Var(x))
    }
}

/// The items as 32-bit integers, when they all are.
fn constants(items: &[Operand]) -> Option<Vec<i32>> {
    items
        .iter()
        .map(|o| match o {
            Operand::Const(c) => i32::try_from(*c).ok(),
            Operand::Var(_) => None,
        })
        .collect()
}
