//! `Encoding`: the two ways of stating N-Queens as constraints.

use std::fmt;
use std::str::FromStr;

/// How the column and diagonal rules become constraints.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// The textbook model: for every pair of rows i < j, `q[i] != q[j]` (columns) and
    /// `q[i] != q[j] ± (j - i)` (diagonals): 3·n(n-1)/2 binary constraints.
    Binary,
    /// Three global constraints: all_different over `q[i]`, over `q[i] + i` and over `q[i] - i`.
    #[default]
    AllDiff,
}

impl FromStr for Encoding {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "binary" => Ok(Encoding::Binary),
            "alldiff" => Ok(Encoding::AllDiff),
            _ => Err(format!(
                "unknown encoding '{s}' (expected binary or alldiff)"
            )),
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Encoding::Binary => "binary",
            Encoding::AllDiff => "alldiff",
        })
    }
}
