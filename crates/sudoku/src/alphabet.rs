//! `Alphabet`: which character stands for which value, and which ones mean a blank.

use std::fmt;
use std::sync::OnceLock;

/// The symbols of one grid size: `symbols[v - 1]` writes the value `v`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alphabet {
    symbols: Vec<char>,
    /// Whether a letter may be read in either case: true for the default alphabets, whose
    /// letters are all of one case; a custom alphabet is taken exactly as given.
    fold_case: bool,
    /// Whether this is a default alphabet rather than one the user gave.
    default: bool,
}

/// Why some text is not an alphabet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AlphabetError {
    /// A symbol stands twice, at these positions (1-based).
    Repeats {
        /// The repeated symbol.
        symbol: char,
        /// Where it first stands.
        first: usize,
        /// Where it stands again.
        second: usize,
    },
    /// A symbol that reads as a blank or a separator, at this position (1-based).
    Reserved {
        /// The symbol.
        symbol: char,
        /// Where it stands.
        position: usize,
    },
}

impl fmt::Display for AlphabetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AlphabetError::Repeats {
                symbol,
                first,
                second,
            } => write!(
                f,
                "'{symbol}' stands twice, at positions {first} and {second} \
                 (letters are case-sensitive: 'a' and 'A' are two symbols)"
            ),
            AlphabetError::Reserved { symbol, position } => write!(
                f,
                "'{}' at position {position} is reserved for blanks and layout \
                 (. - _ : , | # and spaces)",
                symbol.escape_default()
            ),
        }
    }
}

impl std::error::Error for AlphabetError {}

impl Alphabet {
    /// An alphabet from its symbols in value order, taken exactly as given: `a` and `A` are
    /// two symbols. Fails on a repeat or on a symbol that reads as a blank or a separator.
    pub fn new(symbols: &str) -> Result<Self, AlphabetError> {
        let symbols: Vec<char> = symbols.chars().collect();
        let reserved =
            |c: char| matches!(c, '.' | '-' | '_' | ':' | ',' | '|' | '#') || c.is_whitespace();
        for (i, &symbol) in symbols.iter().enumerate() {
            if reserved(symbol) {
                return Err(AlphabetError::Reserved {
                    symbol,
                    position: i + 1,
                });
            }
            if let Some(j) = symbols[..i].iter().position(|&s| s == symbol) {
                return Err(AlphabetError::Repeats {
                    symbol,
                    first: j + 1,
                    second: i + 1,
                });
            }
        }
        Ok(Alphabet {
            symbols,
            fold_case: false,
            default: false,
        })
    }

    /// A default alphabet: its letters, all of one case, are read in either.
    pub(crate) fn default_of(symbols: &str) -> Option<Self> {
        let alphabet = Alphabet::new(symbols).ok()?;
        let folded: std::collections::BTreeSet<char> = alphabet
            .symbols
            .iter()
            .map(char::to_ascii_uppercase)
            .collect();
        let fold_case = folded.len() == alphabet.symbols.len();
        Some(Alphabet {
            fold_case,
            default: true,
            ..alphabet
        })
    }

    /// Whether this is a default alphabet, not one the user gave.
    pub fn is_default(&self) -> bool {
        self.default
    }

    /// The number of symbols, that is the grid's side.
    pub fn len(&self) -> usize {
        self.symbols.len()
    }

    /// Whether the alphabet has no symbols.
    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }

    /// The value (1-based) a character stands for, `Some(0)` for a blank, `None` otherwise.
    pub fn value_of(&self, c: char) -> Option<u16> {
        // Blanks first: they are most cells of a puzzle, and no alphabet holds them.
        if matches!(c, '.' | '-' | '_') {
            return Some(0);
        }
        let at = |c: char| self.symbols.iter().position(|&s| s == c);
        let found = at(c).or_else(|| {
            let other = if c.is_ascii_lowercase() {
                c.to_ascii_uppercase()
            } else {
                c.to_ascii_lowercase()
            };
            (self.fold_case && other != c).then(|| at(other)).flatten()
        });
        if let Some(i) = found {
            return Some(i as u16 + 1);
        }
        (c == '0' && !self.symbols.contains(&'0')).then_some(0)
    }

    /// The character for value `v` (1-based).
    pub fn symbol(&self, v: u16) -> char {
        self.symbols
            .get(usize::from(v).wrapping_sub(1))
            .copied()
            .unwrap_or('.')
    }

    /// The symbols, in value order.
    pub fn as_string(&self) -> String {
        self.symbols.iter().collect()
    }

    /// Whether `c` is a symbol in another case only (a hint for a custom alphabet).
    pub fn has_other_case_of(&self, c: char) -> bool {
        !self.fold_case
            && c.is_ascii_alphabetic()
            && self.value_of(c).is_none()
            && self.symbols.iter().any(|s| s.eq_ignore_ascii_case(&c))
    }
}

/// How cells are written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Symbols {
    /// One character per cell.
    Chars(Alphabet),
    /// Numbers separated by spaces (grids larger than 25 x 25).
    Numbers,
}

impl Symbols {
    /// The default symbols for a grid of this side: 1-9 up to 9x9, 1-9 then A-G for 16x16, A-Y
    /// for 25x25, numbers beyond. A `custom` alphabet of the same length wins.
    pub fn for_side(side: usize, custom: Option<&Alphabet>) -> Symbols {
        if let Some(custom) = custom.filter(|a| a.len() == side) {
            return Symbols::Chars(custom.clone());
        }
        // Built once per size: every puzzle read asks, some twice.
        static DEFAULTS: [OnceLock<Option<Alphabet>>; 26] = [const { OnceLock::new() }; 26];
        let default = match side {
            1..=9 => &"123456789"[..side],
            16 => "123456789ABCDEFG",
            25 => "ABCDEFGHIJKLMNOPQRSTUVWXY",
            _ => return Symbols::Numbers,
        };
        match DEFAULTS[side].get_or_init(|| Alphabet::default_of(default)) {
            Some(a) => Symbols::Chars(a.clone()),
            None => Symbols::Numbers,
        }
    }

    /// Writes value `v` (0 for a blank).
    pub fn write(&self, v: u16, out: &mut String) {
        match self {
            Symbols::Chars(_) if v == 0 => out.push('.'),
            Symbols::Chars(a) => out.push(a.symbol(v)),
            Symbols::Numbers if v == 0 => out.push('.'),
            Symbols::Numbers => out.push_str(&v.to_string()),
        }
    }

    /// A short description for error messages, such as `1-9` or `A-Y`.
    pub fn describe(&self) -> String {
        match self {
            Symbols::Chars(a) => {
                let s = a.as_string();
                match (s.chars().next(), s.chars().last()) {
                    (Some(first), Some(last)) if s.len() > 2 => format!("{first}-{last} ({s})"),
                    _ => s,
                }
            }
            Symbols::Numbers => "numbers".to_owned(),
        }
    }
}
