//! Reading `<variables>`: each `<var>` and `<array>` becomes variables of the model, named as
//! the instance names them (`x[2][0]`).

use crate::error::XcspError;
use crate::symbols::cells_picked;
use crate::Reader;
use csp::VarId;
use roxmltree::Node;

/// The most values a domain given as several pieces may list (a single range may be any size).
const MOST_LISTED_VALUES: i64 = 1 << 22;

impl Reader<'_> {
    /// Declares every variable of `<variables>`, in document order.
    pub(crate) fn variables(&mut self, node: Node<'_, '_>) -> Result<(), XcspError> {
        for child in node.children().filter(Node::is_element) {
            let id = self.attribute(child, "id")?;
            let symbolic = match child.attribute("type") {
                None | Some("integer") => false,
                Some("symbolic") => true,
                Some(kind) => {
                    return Err(self.fault(
                        child,
                        format!(
                        "`{id}`: {kind} variables are not supported (integer and symbolic only)"
                    ),
                    ))
                }
            };
            let first_new = self.declared.len();
            match child.tag_name().name() {
                "var" => self.single(child, id)?,
                "array" => self.array(child, id)?,
                other => {
                    return Err(
                        self.fault(child, format!("<{other}> is not a variable declaration"))
                    )
                }
            }
            if symbolic {
                self.symbolic
                    .extend(self.declared[first_new..].iter().copied());
            }
        }
        Ok(())
    }

    fn single(&mut self, node: Node<'_, '_>, id: &str) -> Result<(), XcspError> {
        let pieces = match node.attribute("as") {
            Some(like) => self.domain_as(node, like)?,
            None => self.domain(node, node.text().unwrap_or(""))?,
        };
        let var = self.new_var(node, id, &pieces)?;
        self.symbols
            .declare(id, Vec::new(), vec![Some(var)])
            .map_err(|why| self.fault(node, why))?;
        self.declared.push(var);
        Ok(())
    }

    fn array(&mut self, node: Node<'_, '_>, id: &str) -> Result<(), XcspError> {
        let size = self.attribute(node, "size")?;
        let dims = parse_size(size).map_err(|why| self.fault(node, format!("`{id}`: {why}")))?;
        let count = dims.iter().product::<usize>();
        // Each cell's domain: the element's text, or the <domain for="..."> that covers it.
        let mut pieces_of: Vec<Option<Vec<(i64, i64)>>> = vec![None; count];
        let parts: Vec<Node<'_, '_>> = node
            .children()
            .filter(|c| c.is_element() && c.has_tag_name("domain"))
            .collect();
        if parts.is_empty() {
            // `as="y"`: the domain of the variables of `y`, as for a `<var>`.
            let pieces = match node.attribute("as") {
                Some(like) => self.domain_as(node, like)?,
                None => self.domain(node, node.text().unwrap_or(""))?,
            };
            pieces_of.iter_mut().for_each(|p| *p = Some(pieces.clone()));
        }
        for part in parts {
            let pieces = self.domain(part, part.text().unwrap_or(""))?;
            let targets = self.attribute(part, "for")?;
            for target in targets.split_whitespace() {
                if target == "others" {
                    for slot in pieces_of.iter_mut().filter(|p| p.is_none()) {
                        *slot = Some(pieces.clone());
                    }
                    continue;
                }
                if !target.starts_with(&format!("{id}[")) {
                    return Err(self.fault(part, format!("`{target}` is not a part of `{id}`")));
                }
                for cell in cells_picked(target, &dims).map_err(|why| self.fault(part, why))? {
                    pieces_of[cell] = Some(pieces.clone());
                }
            }
        }
        let mut cells = Vec::with_capacity(count);
        for (flat, pieces) in pieces_of.iter().enumerate() {
            let Some(pieces) = pieces else {
                cells.push(None);
                continue;
            };
            let name = cell_name(id, &dims, flat);
            let var = self.new_var(node, &name, pieces)?;
            self.declared.push(var);
            cells.push(Some(var));
        }
        self.symbols
            .declare(id, dims, cells)
            .map_err(|why| self.fault(node, why))
    }

    /// The domain of the first variable that `like` names, as ranges of consecutive values.
    fn domain_as(&self, node: Node<'_, '_>, like: &str) -> Result<Vec<(i64, i64)>, XcspError> {
        let source = self
            .symbols
            .resolve(like)
            .map_err(|why| self.fault(node, why))?;
        let Some(&first) = source.first() else {
            return Err(self.fault(node, format!("`{like}` names no variable")));
        };
        let mut pieces: Vec<(i64, i64)> = Vec::new();
        for v in self.model.initial_values(first).map(i64::from) {
            match pieces.last_mut() {
                Some((_, high)) if *high + 1 == v => *high = v,
                _ => pieces.push((v, v)),
            }
        }
        Ok(pieces)
    }

    /// A variable over the union of `pieces` (ranges, sorted or not).
    fn new_var(
        &mut self,
        node: Node<'_, '_>,
        name: &str,
        pieces: &[(i64, i64)],
    ) -> Result<VarId, XcspError> {
        let narrow = |v: i64| i32::try_from(v).ok();
        let made = match pieces {
            [(low, high)] => match (narrow(*low), narrow(*high)) {
                (Some(low), Some(high)) => self.model.new_named_var(name, low..=high),
                _ => return Err(self.fault(node, format!("`{name}`: a bound beyond 32 bits"))),
            },
            _ => {
                let total: i64 = pieces.iter().map(|(a, b)| b - a + 1).sum();
                if total > MOST_LISTED_VALUES {
                    return Err(self.fault(
                        node,
                        format!("`{name}`: a domain of {total} values in several pieces"),
                    ));
                }
                let mut values = Vec::with_capacity(total as usize);
                for &(low, high) in pieces {
                    for v in low..=high {
                        values.push(narrow(v).ok_or_else(|| {
                            self.fault(node, format!("`{name}`: a value beyond 32 bits"))
                        })?);
                    }
                }
                self.model.new_var_from_values(Some(name), &values)
            }
        };
        made.map_err(|e| self.fault(node, format!("`{name}`: {e}")))
    }

    /// A domain's text, `0..9`, `1 3 5` or `-2..2 7`, as ranges; a symbolic domain's
    /// (`red green`) as its symbols' codes.
    fn domain(&mut self, node: Node<'_, '_>, text: &str) -> Result<Vec<(i64, i64)>, XcspError> {
        let mut pieces = Vec::new();
        let symbolic = node
            .ancestors()
            .find(|n| n.has_tag_name("var") || n.has_tag_name("array"))
            .and_then(|n| n.attribute("type"))
            == Some("symbolic");
        for token in text.split_whitespace() {
            if symbolic {
                let code = self
                    .values
                    .code_or_new(token)
                    .map_err(|why| self.fault(node, why))?;
                pieces.push((i64::from(code), i64::from(code)));
                continue;
            }
            let number = |s: &str| {
                s.parse::<i64>().map_err(|_| {
                    self.fault(node, format!("`{token}` is not an integer or a range"))
                })
            };
            let piece = match token.split_once("..") {
                Some((a, b)) => (number(a)?, number(b)?),
                None => {
                    let v = number(token)?;
                    (v, v)
                }
            };
            if piece.0 <= piece.1 {
                pieces.push(piece);
            }
        }
        if pieces.is_empty() {
            return Err(self.fault(node, "an empty domain"));
        }
        Ok(pieces)
    }
}

/// `[3][4]` as `[3, 4]`.
fn parse_size(size: &str) -> Result<Vec<usize>, String> {
    let mut dims = Vec::new();
    for part in size.split('[').skip(1) {
        let inside = part
            .strip_suffix(']')
            .or_else(|| part.trim_end().strip_suffix(']'))
            .ok_or_else(|| format!("size `{size}` is not of the form [n][m]..."))?;
        dims.push(
            inside
                .trim()
                .parse::<usize>()
                .map_err(|_| format!("size `{size}`: `{inside}` is not a count"))?,
        );
    }
    if dims.is_empty() || dims.contains(&0) {
        return Err(format!("size `{size}` declares no cells"));
    }
    Ok(dims)
}

/// The name of cell `flat` (row-major) of array `id`: `x[1][2]`.
fn cell_name(id: &str, dims: &[usize], flat: usize) -> String {
    let mut index = vec![0; dims.len()];
    let mut rest = flat;
    for (slot, &size) in index.iter_mut().zip(dims).rev() {
        *slot = rest % size;
        rest /= size;
    }
    let mut name = id.to_owned();
    for i in index {
        name.push_str(&format!("[{i}]"));
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_cell_names_follow_row_major_order() {
        assert_eq!(parse_size("[3][4]").unwrap(), vec![3, 4]);
        assert!(parse_size("[0]").is_err());
        assert!(parse_size("3").is_err());
        assert_eq!(cell_name("x", &[3, 4], 7), "x[1][3]");
        assert_eq!(cell_name("y", &[5], 4), "y[4]");
    }
}
