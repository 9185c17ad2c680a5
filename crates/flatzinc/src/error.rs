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
            unsupported: false,
            never_holds: false,
        }
    }

    pub(crate) fn on_line(line: usize, message: String) -> Self {
        FznError {
            line,
            column: None,
            message,
            unsupported: false,
            never_holds: false,
        }
    }

    pub(crate) fn unsupported(line: usize, message: String) -> Self {
        FznError {
            line,
            column: None,
            message,
            unsupported: true,
            never_holds: false,
        }
    }
}

impl fmt::Display for FznError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(column) => write!(f, "line {}, column {column}: {}", self.line, self.message),
            None => write!(f, "line {}: {}", self.line, self.message),
        }
    }
}

impl std::error::Error for FznError {}
