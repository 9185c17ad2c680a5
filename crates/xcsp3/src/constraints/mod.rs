//! Reading `<constraints>`: groups and blocks unfolded, each constraint element into the
//! model; an element this reader does not know is named with its line.

use crate::expression;

mod comparison;
mod connection;
mod counting;
mod elementary;
mod generic;
mod graph;
mod language;
mod meta;
mod scheduling;

use crate::intension::{relation, Operand};
use crate::symbolic::SymbolicValues;
use crate::{Reader, XcspError};
use csp::constraints::Reifiable;
use csp::{Reification, Relation, VarId};
use roxmltree::Node;

/// A group's arguments for one instance of its template: the parameters by number, and how
/// `%...` reads in that template.
pub(super) struct Args<'a> {
    tokens: &'a [String],
    /// The highest parameter number the template names anywhere; `%...` stands for the ones
    /// after it.
    highest: Option<usize>,
    /// The separator `%...` joins its parameters with (`,` in an expression).
    separator: &'static str,
}

impl<'a> Args<'a> {
    /// The arguments `tokens` for `template`.
    pub(super) fn new(template: Node<'_, '_>, tokens: &'a [String]) -> Self {
        let separator = if template.has_tag_name("intension") {
            ","
        } else {
            " "
        };
        let highest = template
            .descendants()
            .filter_map(|n| n.text())
            .flat_map(|text| text.split('%').skip(1))
            .filter_map(|after| {
                let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
                digits.parse::<usize>().ok()
            })
            .max();
        Args {
            tokens,
            highest,
            separator,
        }
    }
}

impl Reader<'_> {
    /// Posts every constraint under `node` (`<constraints>` or a `<block>`).
    pub(crate) fn constraints(&mut self, node: Node<'_, '_>) -> Result<(), XcspError> {
        for child in node.children().filter(Node::is_element) {
            match child.tag_name().name() {
                "block" => self.constraints(child)?,
                "group" => self.group(child)?,
                _ => self.constraint(child, None)?,
            }
        }
        Ok(())
    }

    /// A `<group>`: its template once per `<args>`.
    fn group(&mut self, node: Node<'_, '_>) -> Result<(), XcspError> {
        let mut elements = node.children().filter(Node::is_element);
        let template = elements
            .next()
            .ok_or_else(|| self.fault(node, "a <group> without a template"))?;
        for args in elements.filter(|e| e.has_tag_name("args")) {
            // A reference to several variables (`x[1][]`) gives one parameter per variable.
            let mut tokens: Vec<String> = Vec::new();
            for token in args.text().unwrap_or("").split_whitespace() {
                tokens.extend(self.spread(token));
            }
            self.constraint(template, Some(&Args::new(template, &tokens)))?;
        }
        Ok(())
    }

    /// The text of `node` with a group's parameters put in.
    pub(super) fn text(
        &self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<String, XcspError> {
        let text = node.text().unwrap_or("");
        let Some(args) = args else {
            return Ok(text.to_owned());
        };
        let mut out = String::with_capacity(text.len());
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] != b'%' {
                let next = text[i..].find('%').map_or(text.len(), |k| i + k);
                out.push_str(&text[i..next]);
                i = next;
                continue;
            }
            if text[i + 1..].starts_with("...") {
                let from = args.highest.map_or(0, |h| h + 1);
                let rest: Vec<&str> = args.tokens.iter().skip(from).map(String::as_str).collect();
                out.push_str(&rest.join(args.separator));
                i += 4;
                continue;
            }
            let digits = text[i + 1..].bytes().take_while(u8::is_ascii_digit).count();
            let k: usize = text[i + 1..i + 1 + digits]
                .parse()
                .map_err(|_| self.fault(node, "a `%` not followed by a parameter number"))?;
            let token = args.tokens.get(k).ok_or_else(|| {
                self.fault(
                    node,
                    format!("parameter %{k} of {} given", args.tokens.len()),
                )
            })?;
            out.push_str(token);
            i += 1 + digits;
        }
        Ok(out)
    }

    /// A group's argument: a reference to several variables becomes their names, anything
    /// else stays as written.
    fn spread(&self, token: &str) -> Vec<String> {
        if !token.contains("[]") && !token.contains("..") {
            return vec![token.to_owned()];
        }
        match self.symbols.resolve(token) {
            Ok(vars) => vars
                .iter()
                .map(|&v| self.model.var_name(v).unwrap_or_default().into_owned())
                .collect(),
            Err(_) => vec![token.to_owned()],
        }
    }

    /// The text of `node`'s child `name`, parameters put in.
    pub(super) fn child_text(
        &self,
        node: Node<'_, '_>,
        name: &str,
        args: Option<&Args<'_>>,
    ) -> Result<Option<String>, XcspError> {
        match node.children().find(|c| c.has_tag_name(name)) {
            Some(child) => self.text(child, args).map(Some),
            None => Ok(None),
        }
    }

    /// The text of `node`'s child `name`, which it must have.
    pub(super) fn required(
        &self,
        node: Node<'_, '_>,
        name: &str,
        args: Option<&Args<'_>>,
    ) -> Result<String, XcspError> {
        self.child_text(node, name, args)?.ok_or_else(|| {
            self.fault(
                node,
                format!("<{}> without <{name}>", node.tag_name().name()),
            )
        })
    }

    /// The variables of `node`'s child `name`, which it must have.
    pub(super) fn required_vars(
        &mut self,
        node: Node<'_, '_>,
        name: &str,
        args: Option<&Args<'_>>,
    ) -> Result<Vec<VarId>, XcspError> {
        let text = self.required(node, name, args)?;
        self.list_vars(node, &text)
    }

    /// The operands of a list's text: references (spread to each variable), integers, or
    /// expressions (`dist(x[0],x[1])`).
    pub(crate) fn operands(
        &mut self,
        node: Node<'_, '_>,
        text: &str,
    ) -> Result<Vec<Operand>, XcspError> {
        let mut out = Vec::new();
        for token in split_list(text) {
            if token.contains('(') {
                let e = expression::parse(token).map_err(|(at, why)| {
                    self.fault(node, format!("`{token}`, byte {at}: {why}"))
                })?;
                let tabulated = self
                    .tabulated_value(&e)
                    .map_err(|why| self.fault(node, why))?;
                match tabulated {
                    Some(z) => out.push(Operand::Var(z)),
                    None => out.push(self.value(&e).map_err(|why| self.fault(node, why))?),
                }
            } else if let Ok(c) = token.parse::<i64>() {
                out.push(Operand::Const(c));
            } else if let Some(code) = self.symbol_code(token) {
                out.push(Operand::Const(i64::from(code)));
            } else {
                let vars = self
                    .symbols
                    .resolve(token)
                    .map_err(|why| self.fault(node, why))?;
                out.extend(vars.into_iter().map(Operand::Var));
            }
        }
        Ok(out)
    }

    /// The rows of a `<matrix>`: a two-dimensional reference (`x[][]`), or rows written out
    /// as tuples (`(x[0],3)(y,z)`) of references, integers or expressions.
    pub(super) fn matrix_operands(
        &mut self,
        node: Node<'_, '_>,
        text: &str,
    ) -> Result<Vec<Vec<Operand>>, XcspError> {
        let text = text.trim();
        if !text.starts_with('(') {
            let rows = self
                .symbols
                .matrix(text)
                .map_err(|why| self.fault(node, why))?;
            return Ok(rows
                .into_iter()
                .map(|row| row.into_iter().map(Operand::Var).collect())
                .collect());
        }
        let mut rows = Vec::new();
        for row in tuple_items(text).map_err(|why| self.fault(node, why))? {
            rows.push(self.operands(node, &row.join(" "))?);
        }
        Ok(rows)
    }

    /// [`Reader::matrix_operands`], each a variable (constants get one of their own).
    pub(super) fn matrix(
        &mut self,
        node: Node<'_, '_>,
        text: &str,
    ) -> Result<Vec<Vec<VarId>>, XcspError> {
        let rows = self.matrix_operands(node, text)?;
        rows.into_iter()
            .map(|row| {
                row.into_iter()
                    .map(|o| self.operand_var_at(node, o))
                    .collect()
            })
            .collect()
    }

    /// A variable holding `o`.
    pub(super) fn operand_var_at(
        &mut self,
        node: Node<'_, '_>,
        o: Operand,
    ) -> Result<VarId, XcspError> {
        match o {
            Operand::Var(v) => Ok(v),
            Operand::Const(c) => {
                let c =
                    i32::try_from(c).map_err(|_| self.fault(node, "a constant beyond 32 bits"))?;
                self.model
                    .new_var(c..=c)
                    .map_err(|e| self.fault(node, e.to_string()))
            }
        }
    }

    /// Like [`Reader::operands`], each a variable (constants get one of their own).
    pub(crate) fn list_vars(
        &mut self,
        node: Node<'_, '_>,
        text: &str,
    ) -> Result<Vec<VarId>, XcspError> {
        let operands = self.operands(node, text)?;
        operands
            .into_iter()
            .map(|o| self.operand_var_at(node, o))
            .collect()
    }

    /// One constraint element, to the reader of its family (the families of the XCSP3-core
    /// specification).
    fn constraint(&mut self, node: Node<'_, '_>, args: Option<&Args<'_>>) -> Result<(), XcspError> {
        if !self.poller.tick() {
            let limit = self.poller.stopped().unwrap_or(csp::Limit::Cancelled);
            return Err(XcspError::stopped(limit));
        }
        match node.tag_name().name() {
            "intension" => self.intension(node, args),
            "extension" => self.extension(node, args),
            "instantiation" => self.instantiation(node, args),
            "clause" => self.clause(node, args),
            "regular" => self.regular(node, args),
            "mdd" => self.mdd(node, args),
            "allDifferent" => self.all_different(node, args),
            "allEqual" => self.all_equal(node, args),
            "ordered" => self.ordered(node, args),
            "lex" => self.lex(node, args),
            "sum" => self.sum(node, args),
            "count" => self.count(node, args),
            "nValues" => self.n_values(node, args),
            "cardinality" => self.cardinality(node, args),
            "minimum" | "maximum" => self.extremum(node, args),
            "minimumArg" | "maximumArg" => self.extremum_arg(node, args),
            "precedence" => self.precedence(node, args),
            "binPacking" => self.bin_packing(node, args),
            "knapsack" => self.knapsack(node, args),
            "flow" => self.flow(node, args),
            "element" => self.element(node, args),
            "channel" => self.channel(node, args),
            "noOverlap" => self.no_overlap(node, args),
            "cumulative" => self.cumulative(node, args),
            "circuit" => self.circuit(node, args),
            "slide" => self.slide(node, args),
            other => Err(self.fault(node, format!("<{other}> is not supported yet"))),
        }
    }

    /// A new 0/1 variable that holds exactly when `c` does (not only implies it, so that a
    /// count of solutions counts each once).
    pub(super) fn reified_bool<C: Reifiable + 'static>(
        &mut self,
        node: Node<'_, '_>,
        c: C,
    ) -> Result<VarId, XcspError> {
        let b = self.model.new_bool().map_err(|e| self.engine(node, e))?;
        self.model
            .reify(b, c, Reification::Full)
            .map_err(|e| self.engine(node, e))?;
        Ok(b)
    }

    /// A fault from the engine while posting `node`, named after the element.
    pub(super) fn engine(&self, node: Node<'_, '_>, e: csp::ModelError) -> XcspError {
        self.fault(node, format!("<{}>: {e}", node.tag_name().name()))
    }

    /// The list of a constraint: its `<list>` child, or its own text when it has none.
    pub(super) fn list_text(
        &self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<String, XcspError> {
        match self.child_text(node, "list", args)? {
            Some(list) => Ok(list),
            None => self.text(node, args),
        }
    }

    /// Posts `sum(terms) condition`, the condition as `(op,operand)`: a relation to an
    /// integer or a variable, or `in`/`notin` a range (`1..5`) or a set (`{1,3}`).
    pub(super) fn condition(
        &mut self,
        node: Node<'_, '_>,
        mut terms: Vec<(i64, VarId)>,
        condition: &str,
    ) -> Result<(), XcspError> {
        let (rel, operand) = self.parse_condition(node, condition)?;
        let rel = match rel {
            Condition::Relation(rel) => rel,
            Condition::In(member) => {
                let values = self.condition_values(node, operand)?;
                let z = match terms[..] {
                    [(1, x)] => x,
                    _ => self
                        .model
                        .sum_var(&terms)
                        .map_err(|e| self.engine(node, e))?,
                };
                if member {
                    self.model
                        .member(z, &values)
                        .map_err(|e| self.engine(node, e))?;
                } else {
                    for v in values {
                        self.model
                            .compare_value(z, Relation::Ne, i64::from(v))
                            .map_err(|e| self.engine(node, e))?;
                    }
                }
                return Ok(());
            }
        };
        let rhs = match operand.parse::<i64>() {
            Ok(c) => c,
            Err(_) => {
                terms.push((-1, self.one_var(node, operand)?));
                0
            }
        };
        self.model
            .linear(&terms, rel, rhs)
            .map_err(|e| self.engine(node, e))?;
        Ok(())
    }

    /// A variable for the value a function constraint (`minimum`, `nValues`, …) computes,
    /// over `low..=high`, with `condition` posted on it; the condition's own variable when
    /// it is `(eq,z)`, so that nothing stands between the function and `z`.
    pub(super) fn condition_var(
        &mut self,
        node: Node<'_, '_>,
        condition: &str,
        (low, high): (i64, i64),
    ) -> Result<VarId, XcspError> {
        if let (Condition::Relation(Relation::Eq), operand) =
            self.parse_condition(node, condition)?
        {
            if operand.parse::<i64>().is_err() {
                return self.one_var(node, operand);
            }
        }
        let (low, high) = (
            i32::try_from(low.max(i64::from(i32::MIN))).unwrap_or(i32::MIN),
            i32::try_from(high.min(i64::from(i32::MAX))).unwrap_or(i32::MAX),
        );
        let z = self
            .model
            .new_var(low..=high)
            .map_err(|e| self.engine(node, e))?;
        self.condition(node, vec![(1, z)], condition)?;
        Ok(z)
    }

    /// The one variable `reference` names.
    fn one_var(&self, node: Node<'_, '_>, reference: &str) -> Result<VarId, XcspError> {
        let vars = self
            .symbols
            .resolve(reference)
            .map_err(|why| self.fault(node, why))?;
        match vars[..] {
            [v] => Ok(v),
            _ => Err(self.fault(node, format!("`{reference}` is not one variable"))),
        }
    }

    /// `(op,operand)` split, the operator read.
    fn parse_condition<'t>(
        &self,
        node: Node<'_, '_>,
        condition: &'t str,
    ) -> Result<(Condition, &'t str), XcspError> {
        let not_a_condition = || {
            self.fault(
                node,
                format!("condition `{}` is not (op,operand)", condition.trim()),
            )
        };
        let inside = condition
            .trim()
            .strip_prefix('(')
            .and_then(|c| c.strip_suffix(')'))
            .ok_or_else(not_a_condition)?;
        let (op, operand) = inside.split_once(',').ok_or_else(not_a_condition)?;
        let (op, operand) = (op.trim(), operand.trim());
        let kind = match op {
            "in" => Condition::In(true),
            "notin" => Condition::In(false),
            _ => Condition::Relation(
                relation(op)
                    .ok_or_else(|| self.fault(node, format!("`{op}` is not a relation")))?,
            ),
        };
        Ok((kind, operand))
    }

    /// The values of an `in` condition's range (`1..5`) or set (`{1,3}`).
    fn condition_values(&self, node: Node<'_, '_>, operand: &str) -> Result<Vec<i32>, XcspError> {
        let text = match operand.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            Some(set) => set.replace(',', " "),
            None => operand.to_owned(),
        };
        if let Some((a, b)) = text.split_once("..") {
            let (a, b) = (a.trim().parse::<i64>(), b.trim().parse::<i64>());
            if let (Ok(a), Ok(b)) = (a, b) {
                if b.saturating_sub(a) > 1 << 20 {
                    return Err(self.fault(node, format!("the range `{operand}` is too wide")));
                }
            }
        }
        parse_values(&text, &self.values)
            .map_err(|why| self.fault(node, format!("condition over `{operand}`: {why}")))
    }
}

/// A condition's operator: a relation, or membership (`in`) or its negation.
#[derive(Copy, Clone, Debug)]
enum Condition {
    Relation(Relation),
    In(bool),
}

/// A list's items: whitespace separates them, except inside an expression's brackets.
pub(super) fn split_list(text: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let mut depth = 0i32;
    let mut start = None;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            c if c.is_whitespace() && depth == 0 => {
                if let Some(s) = start.take() {
                    push(&text[s..i], &mut items);
                }
                continue;
            }
            _ => {}
        }
        if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        push(&text[s..], &mut items);
    }
    items
}

/// Adds `item` to `items`; an integer repeated in XCSP3's compact form (`1x3`) adds each of
/// its copies.
fn push<'t>(item: &'t str, items: &mut Vec<&'t str>) {
    match repeated(item) {
        Some((value, times)) => items.extend(std::iter::repeat_n(value, times)),
        None => items.push(item),
    }
}

/// The most copies XCSP3's compact form may stand for (`1x3` is three): more is refused as
/// not an integer rather than filling the memory.
const MOST_REPEATED: usize = 1 << 22;

/// XCSP3's compact form of a repeated integer, `vxk` for `k` copies of `v` (`1x3` is
/// `1 1 1`, `-2x2` is `-2 -2`): the integer's text and the number of copies.
fn repeated(token: &str) -> Option<(&str, usize)> {
    let (value, times) = token.split_once('x')?;
    value.parse::<i64>().ok()?;
    let times = times.parse::<usize>().ok()?;
    (times <= MOST_REPEATED).then_some((value, times))
}

/// The items of tuples `(a,b)(c,d)`, tuple by tuple; commas inside an item's own brackets
/// (`add(x,1)`) do not split it.
pub(super) fn tuple_items(text: &str) -> Result<Vec<Vec<&str>>, String> {
    let mut tuples = Vec::new();
    let mut depth = 0usize;
    let mut current: Vec<&str> = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match c {
            '(' => {
                if depth == 0 {
                    start = i + 1;
                }
                depth += 1;
            }
            ')' => {
                depth = depth
                    .checked_sub(1)
                    .ok_or_else(|| format!("`{}`: unbalanced brackets", text.trim()))?;
                if depth == 0 {
                    current.push(text[start..i].trim());
                    tuples.push(std::mem::take(&mut current));
                }
            }
            ',' if depth == 1 => {
                current.push(text[start..i].trim());
                start = i + 1;
            }
            c if depth == 0 && !c.is_whitespace() => {
                return Err(format!("`{}` is not a list of tuples", text.trim()))
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err(format!("`{}`: unbalanced brackets", text.trim()));
    }
    Ok(tuples)
}

/// Integers, ranges (`1 3..5`, each spread) and symbols, as their codes.
pub(super) fn parse_values(text: &str, symbols: &SymbolicValues) -> Result<Vec<i32>, String> {
    let mut out = Vec::new();
    // split_list spreads the compact form of a repeated integer (`0x2`) into its copies.
    for token in split_list(text) {
        let number = |s: &str| {
            s.parse::<i32>()
                .map_err(|_| format!("`{token}` is not an integer"))
        };
        match token.split_once("..") {
            Some((a, b)) => out.extend(number(a)?..=number(b)?),
            None => match symbols.code(token) {
                Some(code) if token.parse::<i32>().is_err() => out.push(code),
                _ => out.push(number(token)?),
            },
        }
    }
    Ok(out)
}

/// Tuples `(1,2)(3,*)`, or for one variable the values `1 2 5..7`; `*` is any value.
pub(super) fn parse_tuples(
    text: &str,
    arity: usize,
    symbols: &SymbolicValues,
) -> Result<Vec<Vec<Option<i32>>>, String> {
    let text = text.trim();
    if arity == 1 && !text.starts_with('(') {
        return Ok(parse_values(text, symbols)?
            .into_iter()
            .map(|v| vec![Some(v)])
            .collect());
    }
    let mut tuples = Vec::new();
    for part in text.split(')') {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let inside = part
            .strip_prefix('(')
            .ok_or_else(|| format!("`{part}` is not a tuple"))?;
        let tuple: Vec<Option<i32>> = inside
            .split(',')
            .map(|v| match v.trim() {
                "*" => Ok(None),
                v => v
                    .parse::<i32>()
                    .ok()
                    .or_else(|| symbols.code(v))
                    .map(Some)
                    .ok_or_else(|| format!("`{v}` is not a tuple value")),
            })
            .collect::<Result<_, _>>()?;
        if tuple.len() != arity {
            return Err(format!(
                "a tuple of {} values over {arity} variables",
                tuple.len()
            ));
        }
        tuples.push(tuple);
    }
    Ok(tuples)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_values_and_tuples_split_as_xcsp3_writes_them() {
        assert_eq!(
            split_list(" x[0] dist(x[1], x[2])  3 "),
            vec!["x[0]", "dist(x[1], x[2])", "3"]
        );
        // XCSP3's compact form of a repeated integer, as pycsp3 writes coefficients.
        assert_eq!(
            split_list("x[0] 1x3 -2x2 x[1]"),
            vec!["x[0]", "1", "1", "1", "-2", "-2", "x[1]"]
        );
        assert_eq!(split_list("1x99999999999"), vec!["1x99999999999"]);
        let mut symbols = SymbolicValues::default();
        assert_eq!(
            parse_values("1 3..5 -2", &symbols).unwrap(),
            vec![1, 3, 4, 5, -2]
        );
        assert_eq!(parse_values("0x2 5", &symbols).unwrap(), vec![0, 0, 5]);
        assert!(parse_values("1x99999999999", &symbols).is_err());
        symbols.code_or_new("red").unwrap();
        symbols.code_or_new("red-yellow").unwrap();
        assert_eq!(
            parse_tuples("(red-yellow,*)(red,3)", 2, &symbols).unwrap(),
            vec![vec![Some(1), None], vec![Some(0), Some(3)]]
        );
        assert!(parse_values("blue", &symbols).is_err());
        assert_eq!(
            parse_tuples("(1,2)( 3 , *)", 2, &symbols).unwrap(),
            vec![vec![Some(1), Some(2)], vec![Some(3), None]]
        );
        assert_eq!(parse_tuples("1 4..5", 1, &symbols).unwrap().len(), 3);
        assert!(parse_tuples("(1,2,3)", 2, &symbols).is_err());
        assert!(parse_tuples("(1,a)", 2, &symbols).is_err());
        assert_eq!(
            tuple_items("(x[0], add(y,1))( 3 ,z)").unwrap(),
            vec![vec!["x[0]", "add(y,1)"], vec!["3", "z"]]
        );
        assert!(tuple_items("(1,2").is_err());
        assert!(tuple_items("1 (2)").is_err());
    }
}
