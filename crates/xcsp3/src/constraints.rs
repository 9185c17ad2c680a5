//! Reading `<constraints>`: groups and blocks unfolded, each constraint element into the
//! model; an element this reader does not know is named with its line.

use crate::expression;
use crate::intension::{flip, linear_relation, relation, Operand};
use crate::{Reader, XcspError};
use csp::{Relation, VarId};
use roxmltree::Node;

/// A group's arguments for one instance of its template: the parameters by number, and how
/// `%...` reads in that template.
struct Args<'a> {
    tokens: &'a [String],
    /// The highest parameter number the template names anywhere; `%...` stands for the ones
    /// after it.
    highest: Option<usize>,
    /// The separator `%...` joins its parameters with (`,` in an expression).
    separator: &'static str,
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
        for args in elements.filter(|e| e.has_tag_name("args")) {
            // A reference to several variables (`x[1][]`) gives one parameter per variable.
            let mut tokens: Vec<String> = Vec::new();
            for token in args.text().unwrap_or("").split_whitespace() {
                tokens.extend(self.spread(token));
            }
            let args = Args {
                tokens: &tokens,
                highest,
                separator,
            };
            self.constraint(template, Some(&args))?;
        }
        Ok(())
    }

    /// The text of `node` with a group's parameters put in.
    fn text(&self, node: Node<'_, '_>, args: Option<&Args<'_>>) -> Result<String, XcspError> {
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
    fn child_text(
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
    fn required(
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
                out.push(self.value(&e).map_err(|why| self.fault(node, why))?);
            } else if let Ok(c) = token.parse::<i64>() {
                out.push(Operand::Const(c));
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

    /// Like [`Reader::operands`], each a variable (constants get one of their own).
    pub(crate) fn list_vars(
        &mut self,
        node: Node<'_, '_>,
        text: &str,
    ) -> Result<Vec<VarId>, XcspError> {
        let operands = self.operands(node, text)?;
        operands
            .into_iter()
            .map(|o| match o {
                Operand::Var(v) => Ok(v),
                Operand::Const(c) => {
                    let c = i32::try_from(c)
                        .map_err(|_| self.fault(node, "a constant beyond 32 bits"))?;
                    self.model
                        .new_var(c..=c)
                        .map_err(|e| self.fault(node, e.to_string()))
                }
            })
            .collect()
    }

    /// One constraint element.
    fn constraint(&mut self, node: Node<'_, '_>, args: Option<&Args<'_>>) -> Result<(), XcspError> {
        let name = node.tag_name().name();
        let engine =
            |reader: &Self, e: csp::ModelError| reader.fault(node, format!("<{name}>: {e}"));
        match name {
            "intension" => {
                let text = match self.child_text(node, "function", args)? {
                    Some(text) => text,
                    None => self.text(node, args)?,
                };
                let e = expression::parse(&text).map_err(|(at, why)| {
                    self.fault(node, format!("`{}`, byte {at}: {why}", text.trim()))
                })?;
                self.predicate(&e).map_err(|why| self.fault(node, why))
            }
            "allDifferent" => {
                if node.children().any(|c| c.has_tag_name("matrix")) {
                    return Err(
                        self.fault(node, "<allDifferent> over a <matrix> is not supported yet")
                    );
                }
                let list = match self.child_text(node, "list", args)? {
                    Some(list) => list,
                    None => self.text(node, args)?,
                };
                let vars = self.list_vars(node, &list)?;
                match self.child_text(node, "except", args)? {
                    Some(except) => {
                        let except = parse_values(&except).map_err(|why| self.fault(node, why))?;
                        self.model
                            .all_different_except(&vars, &except)
                            .map_err(|e| engine(self, e))?;
                    }
                    None => {
                        self.model
                            .all_different(&vars)
                            .map_err(|e| engine(self, e))?;
                    }
                }
                Ok(())
            }
            "extension" => {
                let list = self.required(node, "list", args)?;
                let vars = self.list_vars(node, &list)?;
                let (text, supports) = match (
                    self.child_text(node, "supports", args)?,
                    self.child_text(node, "conflicts", args)?,
                ) {
                    (Some(t), None) => (t, true),
                    (None, Some(t)) => (t, false),
                    _ => {
                        return Err(
                            self.fault(node, "<extension> needs one of <supports> and <conflicts>")
                        )
                    }
                };
                let tuples =
                    parse_tuples(&text, vars.len()).map_err(|why| self.fault(node, why))?;
                self.model
                    .extension(&vars, &tuples, supports)
                    .map_err(|e| engine(self, e))?;
                Ok(())
            }
            "sum" => {
                let list = self.required(node, "list", args)?;
                let xs = self.list_vars(node, &list)?;
                let coeffs = match self.child_text(node, "coeffs", args)? {
                    Some(text) => {
                        let cs: Vec<i64> = parse_values(&text)
                            .map_err(|why| self.fault(node, why))?
                            .into_iter()
                            .map(i64::from)
                            .collect();
                        if cs.len() != xs.len() {
                            return Err(self.fault(
                                node,
                                format!("{} coefficients for {} terms", cs.len(), xs.len()),
                            ));
                        }
                        cs
                    }
                    None => vec![1; xs.len()],
                };
                let condition = self.required(node, "condition", args)?;
                let terms: Vec<(i64, VarId)> = coeffs.into_iter().zip(xs).collect();
                self.condition(node, terms, &condition)
            }
            "instantiation" => {
                let list = self.required(node, "list", args)?;
                let vars = self.list_vars(node, &list)?;
                let values = self.required(node, "values", args)?;
                let values = parse_values(&values).map_err(|why| self.fault(node, why))?;
                if values.len() != vars.len() {
                    return Err(self.fault(
                        node,
                        format!("{} values for {} variables", values.len(), vars.len()),
                    ));
                }
                for (x, v) in vars.into_iter().zip(values) {
                    self.model
                        .compare_value(x, Relation::Eq, i64::from(v))
                        .map_err(|e| engine(self, e))?;
                }
                Ok(())
            }
            "ordered" => {
                let list = self.required(node, "list", args)?;
                let vars = self.list_vars(node, &list)?;
                let operator = self.required(node, "operator", args)?;
                let rel = relation(operator.trim()).ok_or_else(|| {
                    self.fault(node, format!("`{}` is not an order", operator.trim()))
                })?;
                let lengths = match self.child_text(node, "lengths", args)? {
                    Some(text) => Some(parse_values(&text).map_err(|why| self.fault(node, why))?),
                    None => None,
                };
                for (i, pair) in vars.windows(2).enumerate() {
                    let offset = lengths
                        .as_ref()
                        .and_then(|l| l.get(i))
                        .copied()
                        .map_or(0, i64::from);
                    // x[i] + length[i] rel x[i+1], that is x[i+1] rel' x[i] + length[i].
                    self.model
                        .compare_offset(pair[1], flip(rel), pair[0], offset)
                        .map_err(|e| engine(self, e))?;
                }
                Ok(())
            }
            "cardinality" => self.cardinality(node, args),
            "count" => {
                let list = self.required(node, "list", args)?;
                let xs = self.list_vars(node, &list)?;
                let values = self.required(node, "values", args)?;
                let values = parse_values(&values).map_err(|why| {
                    self.fault(
                        node,
                        format!("<count> over values that are not integers: {why}"),
                    )
                })?;
                let condition = self.required(node, "condition", args)?;
                // n counts the xs that take one of the values; the condition bounds n.
                let n = self
                    .model
                    .new_var(0..=xs.len() as i32)
                    .map_err(|e| engine(self, e))?;
                self.model
                    .among(n, &xs, &values)
                    .map_err(|e| engine(self, e))?;
                self.condition(node, vec![(1, n)], &condition)
            }
            other => Err(self.fault(node, format!("<{other}> is not supported yet"))),
        }
    }

    /// `<cardinality>`: each value of `<values>` occurs among the list as `<occurs>` says (a
    /// variable, a number or a range per value), only those values when `closed`.
    fn cardinality(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let engine =
            |reader: &Self, e: csp::ModelError| reader.fault(node, format!("<cardinality>: {e}"));
        let list = self.required(node, "list", args)?;
        let xs = self.list_vars(node, &list)?;
        let values_node = node.children().find(|c| c.has_tag_name("values"));
        let closed = values_node.and_then(|v| v.attribute("closed")) == Some("true");
        let values = self.required(node, "values", args)?;
        let cover = parse_values(&values).map_err(|_| {
            self.fault(
                node,
                "<cardinality> over values that are variables is not supported yet",
            )
        })?;
        let occurs = self.required(node, "occurs", args)?;
        let items = split_list(&occurs);
        if items.len() != cover.len() && !occurs.contains('[') {
            return Err(self.fault(
                node,
                format!("{} occurrences for {} values", items.len(), cover.len()),
            ));
        }
        let constant = |item: &str| -> Option<(i64, i64)> {
            match item.split_once("..") {
                Some((a, b)) => Some((a.parse().ok()?, b.parse().ok()?)),
                None => item.parse().ok().map(|v| (v, v)),
            }
        };
        let bounds: Option<Vec<(i64, i64)>> = items.iter().map(|i| constant(i)).collect();
        match bounds {
            Some(bounds) => {
                let (low, high): (Vec<i64>, Vec<i64>) = bounds.into_iter().unzip();
                self.model
                    .global_cardinality(&xs, &cover, &low, &high, closed)
                    .map_err(|e| engine(self, e))?;
            }
            None => {
                let counts = self.list_vars(node, &occurs)?;
                if counts.len() != cover.len() {
                    return Err(self.fault(
                        node,
                        format!("{} occurrences for {} values", counts.len(), cover.len()),
                    ));
                }
                self.model
                    .global_cardinality_counts(&xs, &cover, &counts, closed)
                    .map_err(|e| engine(self, e))?;
            }
        }
        Ok(())
    }

    /// Posts `sum(terms) condition`, the condition as `(op,operand)`.
    pub(crate) fn condition(
        &mut self,
        node: Node<'_, '_>,
        mut terms: Vec<(i64, VarId)>,
        condition: &str,
    ) -> Result<(), XcspError> {
        let inside = condition
            .trim()
            .strip_prefix('(')
            .and_then(|c| c.strip_suffix(')'))
            .ok_or_else(|| {
                self.fault(
                    node,
                    format!("condition `{}` is not (op,operand)", condition.trim()),
                )
            })?;
        let (op, operand) = inside
            .split_once(',')
            .ok_or_else(|| self.fault(node, format!("condition `{inside}` is not (op,operand)")))?;
        let (op, operand) = (op.trim(), operand.trim());
        let engine = |reader: &Self, e: csp::ModelError| reader.fault(node, e.to_string());
        if op == "in" || op == "notin" {
            return Err(self.fault(node, format!("condition `{op}` is not supported yet")));
        }
        let rel =
            relation(op).ok_or_else(|| self.fault(node, format!("`{op}` is not a relation")))?;
        let rhs = match operand.parse::<i64>() {
            Ok(c) => c,
            Err(_) => {
                let vars = self
                    .symbols
                    .resolve(operand)
                    .map_err(|why| self.fault(node, why))?;
                let [v] = vars.as_slice() else {
                    return Err(self.fault(node, format!("`{operand}` is not one variable")));
                };
                terms.push((-1, *v));
                0
            }
        };
        let (op, rhs) = linear_relation(rel, rhs);
        self.model
            .linear(&terms, op, rhs)
            .map_err(|e| engine(self, e))?;
        Ok(())
    }
}

/// A list's items: whitespace separates them, except inside an expression's brackets.
fn split_list(text: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let mut depth = 0i32;
    let mut start = None;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            c if c.is_whitespace() && depth == 0 => {
                if let Some(s) = start.take() {
                    items.push(&text[s..i]);
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
        items.push(&text[s..]);
    }
    items
}

/// Integers and ranges (`1 3..5`), each range spread.
fn parse_values(text: &str) -> Result<Vec<i32>, String> {
    let mut out = Vec::new();
    for token in text.split_whitespace() {
        let number = |s: &str| {
            s.parse::<i32>()
                .map_err(|_| format!("`{token}` is not an integer"))
        };
        match token.split_once("..") {
            Some((a, b)) => out.extend(number(a)?..=number(b)?),
            None => out.push(number(token)?),
        }
    }
    Ok(out)
}

/// Tuples `(1,2)(3,*)`, or for one variable the values `1 2 5..7`; `*` is any value.
fn parse_tuples(text: &str, arity: usize) -> Result<Vec<Vec<Option<i32>>>, String> {
    let text = text.trim();
    if arity == 1 && !text.starts_with('(') {
        return Ok(parse_values(text)?
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
                    .map(Some)
                    .map_err(|_| format!("`{v}` is not a tuple value")),
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
        assert_eq!(parse_values("1 3..5 -2").unwrap(), vec![1, 3, 4, 5, -2]);
        assert_eq!(
            parse_tuples("(1,2)( 3 , *)", 2).unwrap(),
            vec![vec![Some(1), Some(2)], vec![Some(3), None]]
        );
        assert_eq!(parse_tuples("1 4..5", 1).unwrap().len(), 3);
        assert!(parse_tuples("(1,2,3)", 2).is_err());
        assert!(parse_tuples("(1,a)", 2).is_err());
    }
}
