//! `FznError`: what is wrong with a FlatZinc text, and where.

use std::fmt;

/// A FlatZinc text that cannot be read or run: a syntax error (with its line and column), a
/// builtin or type this solver does not support (with the line of its item), or a model the
/// engine refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FznError {
    /// 1-based: the line of the token at fault, or of the item.
    pub line: usize,
    /// 1-based, in characters; `None` when the whole item is at fault.
    pub column: Option<usize>,
    /// What is wrong, in a sentence without the position.
    pub message: String,
    /// Where in the MiniZinc model the item at fault comes from (`model.mzn:3:12`), when
    /// MiniZinc left its `mzn_path` annotation in the FlatZinc (`--keep-paths`, or a solver
    /// configuration that asks for paths): the place a user can find, where the FlatZinc's
    /// own line is in a file MiniZinc deletes.
    pub source: Option<String>,
    /// Whether the text is valid FlatZinc that uses something not supported here (as opposed
    /// to a text that is wrong).
    pub unsupported: bool,
    /// A constraint the engine refused as one that can never hold: the builder reads that
    /// as an unsatisfiable model, not as an error.
    pub(crate) never_holds: bool,
}

impl FznError {
    pub(crate) fn at(line: usize, column: usize, message: String) -> Self {
        FznError {
            line,
            column: Some(column),
            message,
            source: None,
            unsupported: false,
            never_holds: false,
        }
    }

    pub(crate) fn on_line(line: usize, message: String) -> Self {
        FznError {
            line,
            column: None,
            message,
            source: None,
            unsupported: false,
            never_holds: false,
        }
    }

    pub(crate) fn unsupported(line: usize, message: String) -> Self {
        FznError {
            line,
            column: None,
            message,
            source: None,
            unsupported: true,
            never_holds: false,
        }
    }
}

impl fmt::Display for FznError {
    /// `line L[, column C]: message`, or `model.mzn:L:C: message` when the model's place is
    /// known.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(source) = &self.source {
            return write!(f, "{source}: {}", self.message);
        }
        match self.column {
            Some(column) => write!(f, "line {}, column {column}: {}", self.line, self.message),
            None => write!(f, "line {}: {}", self.line, self.message),
        }
    }
}

impl std::error::Error for FznError {}

/// The outermost place of an `mzn_path` annotation's text (`file|line|col|line|col|kind|...;`
/// segments, outermost first) as `file:line:col`.
pub(crate) fn model_place(mzn_path: &str) -> Option<String> {
    let first = mzn_path.split(';').next()?;
    let mut fields = first.split('|');
    let file = fields.next().filter(|f| !f.is_empty())?;
    let line: usize = fields.next()?.parse().ok()?;
    let column: usize = fields.next()?.parse().ok()?;
    Some(format!("{file}:{line}:{column}"))
}

#[cfg(test)]
mod tests {
    use super::model_place;

    #[test]
    fn the_model_place_is_the_first_segment_of_an_mzn_path() {
        // As MiniZinc 2.6.4 writes them under --keep-paths.
        let decl = "/tmp/fl.mzn|1|16|1|16|id|x;/tmp/fl.mzn|1|1|1|16|vd;";
        assert_eq!(model_place(decl).as_deref(), Some("/tmp/fl.mzn:1:16"));
        let call = "m.mzn|3|12|3|34|bin|'>=';m.mzn|3|12|3|34|ca|float_le;";
        assert_eq!(model_place(call).as_deref(), Some("m.mzn:3:12"));
        assert_eq!(model_place(""), None);
        assert_eq!(model_place("m.mzn|x|1"), None);
    }
}
