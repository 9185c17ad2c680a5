//! `Alphabet`: which character stands for which value, and which ones mean a blank.

/// The symbols of one grid size: `symbols[v - 1]` writes the value `v`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alphabet {
    symbols: Vec<char>,
}

/// How cells are written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Symbols {
    /// One character per cell.
    Chars(Alphabet),
    /// Numbers separated by spaces (grids larger than 25 x 25).
    Numbers,
}

impl Alphabet {
    /// An alphabet from its symbols in value order; `None` if a symbol repeats or is a blank
    /// character other than `0`.
    pub fn new(symbols: &str) -> Option<Self> {
        let symbols: Vec<char> = symbols.chars().map(|c| c.to_ascii_uppercase()).collect();
        let mut sorted = symbols.clone();
        sorted.sort_unstable();
        sorted.dedup();
        let reserved =
            |c: &char| matches!(c, '.' | '-' | '_' | ':' | ',' | '|' | '#') || c.is_whitespace();
        (sorted.len() == symbols.len() && !symbols.iter().any(reserved))
            .then_some(Alphabet { symbols })
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
        let upper = c.to_ascii_uppercase();
        if let Some(i) = self.symbols.iter().position(|&s| s == upper) {
            return Some(i as u16 + 1);
        }
        match c {
            '.' | '-' | '_' => Some(0),
            '0' if !self.symbols.contains(&'0') => Some(0),
            _ => None,
        }
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
}

impl Symbols {
    /// The default symbols for a grid of this side: 1-9 up to 9x9, 1-9 then A-G for 16x16, A-Y
    /// for 25x25, numbers beyond. A `custom` alphabet of the same length wins.
    pub fn for_side(side: usize, custom: Option<&Alphabet>) -> Symbols {
        if let Some(custom) = custom.filter(|a| a.len() == side) {
            return Symbols::Chars(custom.clone());
        }
        let default = match side {
            1..=9 => &"123456789"[..side],
            16 => "123456789ABCDEFG",
            25 => "ABCDEFGHIJKLMNOPQRSTUVWXY",
            _ => return Symbols::Numbers,
        };
        match Alphabet::new(default) {
            Some(a) => Symbols::Chars(a),
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
