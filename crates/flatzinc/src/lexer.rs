//! `Lexer`: FlatZinc text as tokens, each with the line and column where it starts.

use crate::error::FznError;

/// One token of FlatZinc.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Token {
    /// A name or a keyword (`var`, `constraint`, `int`, ...): the grammar tells them apart.
    Ident(String),
    Int(i64),
    Float(f64),
    Str(String),
    /// `(`, `)`, `[`, `]`, `{`, `}`, `,`, `:`, `;`, `=`.
    Punct(char),
    /// `..`
    DotDot,
    /// `::`
    ColonColon,
    End,
}

impl Token {
    /// How an error message names the token.
    pub(crate) fn describe(&self) -> String {
        match self {
            Token::Ident(name) => format!("'{name}'"),
            Token::Int(v) => format!("the number {v}"),
            Token::Float(v) => format!("the number {v}"),
            Token::Str(_) => "a string".to_owned(),
            Token::Punct(c) => format!("'{c}'"),
            Token::DotDot => "'..'".to_owned(),
            Token::ColonColon => "'::'".to_owned(),
            Token::End => "the end of the file".to_owned(),
        }
    }
}

/// A position in the text, both 1-based; the column counts characters.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pos {
    pub(crate) line: usize,
    pub(crate) column: usize,
}

/// Reads tokens one at a time from the text, so that a large file is never held as a token
/// list.
pub(crate) struct Lexer<'t> {
    text: &'t [u8],
    at: usize,
    line: usize,
    line_start: usize,
    /// UTF-8 continuation bytes met on this line so far (in strings), which take no column.
    line_extra: usize,
}

impl<'t> Lexer<'t> {
    pub(crate) fn new(text: &'t str) -> Self {
        Lexer {
            text: text.as_bytes(),
            at: 0,
            line: 1,
            line_start: 0,
            line_extra: 0,
        }
    }

    /// Where the lexer stands. Columns count characters: a multi-byte character (legal only in
    /// strings) counts once. Kept as counts, not found by rereading the line, which can be an
    /// array of a million elements.
    fn pos(&self) -> Pos {
        Pos {
            line: self.line,
            column: self.at - self.line_start - self.line_extra + 1,
        }
    }

    fn error(&self, at: Pos, message: String) -> FznError {
        FznError::at(at.line, at.column, message)
    }

    /// Skips white space and `%` comments.
    fn skip_blank(&mut self) {
        while let Some(&b) = self.text.get(self.at) {
            match b {
                b'\n' => {
                    self.at += 1;
                    self.line += 1;
                    self.line_start = self.at;
                    self.line_extra = 0;
                }
                b' ' | b'\t' | b'\r' => self.at += 1,
                b'%' => {
                    while self.text.get(self.at).is_some_and(|&b| b != b'\n') {
                        self.at += 1;
                    }
                }
                _ => break,
            }
        }
    }

    /// The next token and where it starts.
    pub(crate) fn next_token(&mut self) -> Result<(Token, Pos), FznError> {
        self.skip_blank();
        let start = self.pos();
        let Some(&b) = self.text.get(self.at) else {
            return Ok((Token::End, start));
        };
        let token = match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let begin = self.at;
                while self
                    .text
                    .get(self.at)
                    .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
                {
                    self.at += 1;
                }
                Token::Ident(String::from_utf8_lossy(&self.text[begin..self.at]).into_owned())
            }
            b'0'..=b'9' => self.number(start, false)?,
            b'-' if self.text.get(self.at + 1).is_some_and(u8::is_ascii_digit) => {
                self.at += 1;
                self.number(start, true)?
            }
            b'"' => self.string(start)?,
            b'.' if self.text.get(self.at + 1) == Some(&b'.') => {
                self.at += 2;
                Token::DotDot
            }
            b':' if self.text.get(self.at + 1) == Some(&b':') => {
                self.at += 2;
                Token::ColonColon
            }
            b'(' | b')' | b'[' | b']' | b'{' | b'}' | b',' | b':' | b';' | b'=' => {
                self.at += 1;
                Token::Punct(char::from(b))
            }
            _ => {
                let shown = String::from_utf8_lossy(&self.text[self.at..])
                    .chars()
                    .next()
                    .unwrap_or('?');
                return Err(self.error(start, format!("unexpected character '{shown}'")));
            }
        };
        Ok((token, start))
    }

    /// An integer or a float; the sign, if any, is already read. `1..5` is the integer 1 then
    /// `..`, not a float.
    fn number(&mut self, start: Pos, negative: bool) -> Result<Token, FznError> {
        let begin = self.at;
        let digits = |lexer: &mut Self| {
            while lexer.text.get(lexer.at).is_some_and(u8::is_ascii_digit) {
                lexer.at += 1;
            }
        };
        if self.text.get(self.at) == Some(&b'0')
            && matches!(self.text.get(self.at + 1), Some(b'x' | b'o'))
        {
            let radix = if self.text[self.at + 1] == b'x' {
                16
            } else {
                8
            };
            self.at += 2;
            let digits_start = self.at;
            while self
                .text
                .get(self.at)
                .is_some_and(|b| char::from(*b).is_digit(radix))
            {
                self.at += 1;
            }
            let text = String::from_utf8_lossy(&self.text[digits_start..self.at]);
            return i64::from_str_radix(&text, radix)
                .ok()
                .and_then(|v| if negative { v.checked_neg() } else { Some(v) })
                .map(Token::Int)
                .ok_or_else(|| self.error(start, format!("the number {text} is too large")));
        }
        digits(self);
        let mut float = false;
        if self.text.get(self.at) == Some(&b'.')
            && self.text.get(self.at + 1).is_some_and(u8::is_ascii_digit)
        {
            float = true;
            self.at += 1;
            digits(self);
        }
        if matches!(self.text.get(self.at), Some(b'e' | b'E')) {
            let sign = usize::from(matches!(self.text.get(self.at + 1), Some(b'+' | b'-')));
            if self
                .text
                .get(self.at + 1 + sign)
                .is_some_and(u8::is_ascii_digit)
            {
                float = true;
                self.at += 1 + sign;
                digits(self);
            }
        }
        let text = String::from_utf8_lossy(&self.text[begin..self.at]);
        let signed = if negative {
            format!("-{text}")
        } else {
            text.into_owned()
        };
        if float {
            signed
                .parse::<f64>()
                .map(Token::Float)
                .map_err(|_| self.error(start, format!("'{signed}' is not a number")))
        } else {
            signed.parse::<i64>().map(Token::Int).map_err(|_| {
                self.error(
                    start,
                    format!("the integer {signed} does not fit in 64 bits"),
                )
            })
        }
    }

    /// A string literal, with its escapes kept as written (only output annotations use them).
    fn string(&mut self, start: Pos) -> Result<Token, FznError> {
        self.at += 1;
        let begin = self.at;
        loop {
            match self.text.get(self.at) {
                None | Some(b'\n') => {
                    return Err(self.error(start, "a string is not closed on its line".to_owned()))
                }
                Some(b'\\') => self.at += 2,
                Some(b'"') => break,
                Some(&b) => {
                    self.line_extra += usize::from(b & 0xC0 == 0x80);
                    self.at += 1;
                }
            }
        }
        let end = self.at.min(self.text.len());
        self.at = end + 1;
        Ok(Token::Str(
            String::from_utf8_lossy(&self.text[begin..end]).into_owned(),
        ))
    }
}
