//! `XcspError`: what is wrong with an instance, and where.

use std::fmt;

/// A fault in an instance, or a part of XCSP3 this reader does not support, with the place in
/// the text where it is (1-based line and column) when there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XcspError {
    /// The line and column of the element or text at fault.
    pub at: Option<(u32, u32)>,
    /// What is wrong, in one line.
    pub what: String,
    /// The limit that stopped the read before it was done (the instance may be fine).
    pub stopped: Option<csp::Limit>,
}

impl XcspError {
    /// A fault at a place.
    pub(crate) fn at(at: (u32, u32), what: impl Into<String>) -> Self {
        XcspError {
            at: Some(at),
            what: what.into(),
            stopped: None,
        }
    }

    /// A fault of the whole input (it cannot be decompressed, it is not XML).
    pub(crate) fn whole(what: impl Into<String>) -> Self {
        XcspError {
            at: None,
            what: what.into(),
            stopped: None,
        }
    }

    /// The read stopped on `limit` before it was done.
    pub(crate) fn stopped(limit: csp::Limit) -> Self {
        XcspError {
            at: None,
            what: format!("stopped by {limit} while reading"),
            stopped: Some(limit),
        }
    }
}

impl fmt::Display for XcspError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.at {
            Some((line, column)) => write!(f, "line {line}, column {column}: {}", self.what),
            None => f.write_str(&self.what),
        }
    }
}

impl std::error::Error for XcspError {}
