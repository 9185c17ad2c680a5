//! `Symbols`: the declared variables and arrays by name, and the references that pick from
//! them (`x[2][]`, `x[1..3]`, `y`).

use csp::VarId;
use std::collections::HashMap;

/// A declared name: a single variable (no dimensions) or an array, cell by cell in row-major
/// order; a cell no domain covered is `None` (XCSP3 lets an array leave cells undefined).
#[derive(Clone, Debug)]
struct Declared {
    dims: Vec<usize>,
    cells: Vec<Option<VarId>>,
}

/// Every name the instance declares.
#[derive(Clone, Debug, Default)]
pub(crate) struct Symbols {
    by_name: HashMap<String, Declared>,
}

impl Symbols {
    /// Declares `name` with `dims` (empty for a single variable) and its cells.
    pub(crate) fn declare(
        &mut self,
        name: &str,
        dims: Vec<usize>,
        cells: Vec<Option<VarId>>,
    ) -> Result<(), String> {
        if self.by_name.contains_key(name) {
            return Err(format!("`{name}` is declared twice"));
        }
        self.by_name
            .insert(name.to_owned(), Declared { dims, cells });
        Ok(())
    }

    /// The variables `reference` picks, in row-major order: `x` (a variable, or a whole
    /// array), `x[2]`, `x[]` (every index), `x[1..3]`, in any combination per dimension.
    /// Undefined cells are skipped when a range covers them and an error when named alone.
    pub(crate) fn resolve(&self, reference: &str) -> Result<Vec<VarId>, String> {
        let (name, picks) = split_reference(reference)?;
        let declared = self
            .by_name
            .get(name)
            .ok_or_else(|| format!("`{name}` is not a declared variable"))?;
        let single = !picks.is_empty() && picks.iter().all(|p| matches!(p, Pick::One(_)));
        let mut out = Vec::new();
        for flat in flat_indices(reference, &picks, &declared.dims)? {
            match declared.cells[flat] {
                Some(v) => out.push(v),
                None if single => return Err(format!("`{reference}` is an undefined cell")),
                None => {}
            }
        }
        Ok(out)
    }

    /// The rows of the two-dimensional selection `reference` makes (`x[][]`, `x[1..3][]`,
    /// `y[0][][]`): exactly two dimensions must range over more than one pick, and every
    /// cell must be defined.
    pub(crate) fn matrix(&self, reference: &str) -> Result<Vec<Vec<VarId>>, String> {
        let (name, picks) = split_reference(reference)?;
        let declared = self
            .by_name
            .get(name)
            .ok_or_else(|| format!("`{name}` is not a declared variable"))?;
        let all = vec![Pick::All; declared.dims.len()];
        let picks = if picks.is_empty() {
            &all[..]
        } else {
            &picks[..]
        };
        let free: Vec<usize> = picks
            .iter()
            .zip(&declared.dims)
            .filter_map(|(pick, &size)| match *pick {
                Pick::All => Some(size),
                Pick::Span(a, b) => Some(b.saturating_sub(a) + 1),
                Pick::One(_) => None,
            })
            .collect();
        let [_, columns] = free[..] else {
            return Err(format!("`{reference}` is not a two-dimensional selection"));
        };
        let cells = flat_indices(reference, picks, &declared.dims)?
            .into_iter()
            .map(|flat| {
                declared.cells[flat].ok_or_else(|| format!("`{reference}` has an undefined cell"))
            })
            .collect::<Result<Vec<VarId>, String>>()?;
        Ok(cells
            .chunks(columns.max(1))
            .map(<[VarId]>::to_vec)
            .collect())
    }
}

/// The cells of an array of dimensions `dims` that `reference` (to that array) picks, as
/// row-major positions.
pub(crate) fn cells_picked(reference: &str, dims: &[usize]) -> Result<Vec<usize>, String> {
    let (_, picks) = split_reference(reference)?;
    flat_indices(reference, &picks, dims)
}

/// The row-major positions `picks` select in an array of dimensions `dims` (no picks: all).
fn flat_indices(reference: &str, picks: &[Pick], dims: &[usize]) -> Result<Vec<usize>, String> {
    let all = vec![Pick::All; dims.len()];
    let picks = if picks.is_empty() { &all[..] } else { picks };
    if picks.len() != dims.len() {
        return Err(format!(
            "`{reference}`: the array has {} dimensions",
            dims.len()
        ));
    }
    let mut ranges = Vec::with_capacity(picks.len());
    for (pick, &size) in picks.iter().zip(dims) {
        let (low, high) = match *pick {
            Pick::All => (0, size),
            Pick::One(i) => (i, i + 1),
            Pick::Span(a, b) => (a, b + 1),
        };
        if high > size || low >= high {
            return Err(format!(
                "`{reference}`: index out of 0..{}",
                size.saturating_sub(1)
            ));
        }
        ranges.push((low, high));
    }
    let mut out = Vec::new();
    let mut index: Vec<usize> = ranges.iter().map(|r| r.0).collect();
    loop {
        out.push(
            index
                .iter()
                .zip(dims)
                .fold(0, |acc, (&i, &size)| acc * size + i),
        );
        // The next index, the last dimension fastest.
        let mut d = index.len();
        loop {
            if d == 0 {
                return Ok(out);
            }
            d -= 1;
            index[d] += 1;
            if index[d] < ranges[d].1 {
                break;
            }
            index[d] = ranges[d].0;
        }
    }
}

/// How one dimension of a reference picks its indices.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Pick {
    All,
    One(usize),
    Span(usize, usize),
}

/// `x[2][]` into `x` and its picks.
fn split_reference(reference: &str) -> Result<(&str, Vec<Pick>), String> {
    let reference = reference.trim();
    let name_end = reference.find('[').unwrap_or(reference.len());
    let name = &reference[..name_end];
    if name.is_empty() {
        return Err(format!("`{reference}` names no variable"));
    }
    let mut picks = Vec::new();
    let mut rest = &reference[name_end..];
    while !rest.is_empty() {
        let close = rest
            .find(']')
            .filter(|_| rest.starts_with('['))
            .ok_or_else(|| format!("`{reference}`: unbalanced brackets"))?;
        let inside = rest[1..close].trim();
        let number = |s: &str| {
            s.trim()
                .parse::<usize>()
                .map_err(|_| format!("`{reference}`: `{s}` is not an index"))
        };
        picks.push(if inside.is_empty() {
            Pick::All
        } else if let Some((a, b)) = inside.split_once("..") {
            Pick::Span(number(a)?, number(b)?)
        } else {
            Pick::One(number(inside)?)
        });
        rest = &rest[close + 1..];
    }
    Ok((name, picks))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(n: usize) -> Vec<Option<VarId>> {
        let mut model = csp::Model::new();
        (0..n)
            .map(|_| Some(model.new_var(0..=1).unwrap()))
            .collect()
    }

    #[test]
    fn references_pick_cells_in_row_major_order() {
        let cells = vars(6);
        let mut symbols = Symbols::default();
        symbols.declare("x", vec![2, 3], cells.clone()).unwrap();
        let at = |i: usize| cells[i].unwrap();
        assert_eq!(symbols.resolve("x[1][2]").unwrap(), vec![at(5)]);
        assert_eq!(symbols.resolve("x[][1]").unwrap(), vec![at(1), at(4)]);
        assert_eq!(symbols.resolve("x[0][1..2]").unwrap(), vec![at(1), at(2)]);
        assert_eq!(symbols.resolve("x").unwrap().len(), 6);
        assert_eq!(symbols.resolve("x[][]").unwrap().len(), 6);
        assert!(symbols.resolve("x[2][0]").is_err());
        assert!(symbols.resolve("x[0]").is_err());
        assert!(symbols.resolve("y").is_err());
        assert!(symbols.resolve("x[0][a]").is_err());
        assert_eq!(
            symbols.matrix("x[][]").unwrap(),
            vec![vec![at(0), at(1), at(2)], vec![at(3), at(4), at(5)]]
        );
        assert_eq!(
            symbols.matrix("x[][1..2]").unwrap(),
            vec![vec![at(1), at(2)], vec![at(4), at(5)]]
        );
        assert!(symbols.matrix("x[0][]").is_err());
    }

    #[test]
    fn undefined_cells_are_skipped_in_ranges_and_refused_alone() {
        let mut cells = vars(3);
        cells[1] = None;
        let mut symbols = Symbols::default();
        symbols.declare("y", vec![3], cells).unwrap();
        assert_eq!(symbols.resolve("y[]").unwrap().len(), 2);
        assert!(symbols.resolve("y[1]").is_err());
    }
}
