//! `SymbolicValues`: each symbol a `type="symbolic"` domain lists gets an integer code; the
//! model works on the codes, and solutions print the symbols again.

use std::collections::HashMap;

/// The symbols met so far, coded `0, 1, 2, …` in order of first appearance.
#[derive(Clone, Debug, Default)]
pub(crate) struct SymbolicValues {
    codes: HashMap<String, i32>,
    names: Vec<String>,
}

impl SymbolicValues {
    /// The code of `symbol`, a new one the first time.
    pub(crate) fn code_or_new(&mut self, symbol: &str) -> Result<i32, String> {
        if let Some(&code) = self.codes.get(symbol) {
            return Ok(code);
        }
        let code = i32::try_from(self.names.len()).map_err(|_| "too many symbols".to_owned())?;
        self.codes.insert(symbol.to_owned(), code);
        self.names.push(symbol.to_owned());
        Ok(code)
    }

    /// The code of `symbol`, if a symbolic domain listed it.
    pub(crate) fn code(&self, symbol: &str) -> Option<i32> {
        self.codes.get(symbol).copied()
    }

    /// The symbol coded `code`.
    pub(crate) fn name(&self, code: i32) -> Option<&str> {
        usize::try_from(code)
            .ok()
            .and_then(|i| self.names.get(i))
            .map(String::as_str)
    }
}
