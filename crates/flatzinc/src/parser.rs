//! `Parser`: FlatZinc tokens into items, one item at a time.

use crate::ast::{BaseType, Expr, Goal, Item, Type};
use crate::error::FznError;
use crate::lexer::{Lexer, Pos, Token};

/// Reads the items of a FlatZinc text in order. Recursive descent over the grammar of the
/// FlatZinc specification (MiniZinc 2.6), holding one token of look-ahead.
pub(crate) struct Parser<'t> {
    lexer: Lexer<'t>,
    token: Token,
    pos: Pos,
}

/// How deep arrays and annotation calls may nest before the text is refused: FlatZinc itself
/// nests a few levels, and a bound keeps a hostile input from exhausting the stack.
const MAX_DEPTH: usize = 64;

impl<'t> Parser<'t> {
    pub(crate) fn new(text: &'t str) -> Result<Self, FznError> {
        let mut lexer = Lexer::new(text);
        let (token, pos) = lexer.next_token()?;
        Ok(Parser { lexer, token, pos })
    }

    /// Where the current token starts.
    pub(crate) fn line(&self) -> usize {
        self.pos.line
    }

    fn advance(&mut self) -> Result<Token, FznError> {
        let (next, pos) = self.lexer.next_token()?;
        self.pos = pos;
        Ok(std::mem::replace(&mut self.token, next))
    }

    fn error(&self, message: String) -> FznError {
        FznError::at(self.pos.line, self.pos.column, message)
    }

    fn unexpected(&self, wanted: &str) -> FznError {
        self.error(format!(
            "expected {wanted}, found {}",
            self.token.describe()
        ))
    }

    fn is_punct(&self, c: char) -> bool {
        self.token == Token::Punct(c)
    }

    fn is_keyword(&self, word: &str) -> bool {
        matches!(&self.token, Token::Ident(name) if name == word)
    }

    fn expect_punct(&mut self, c: char) -> Result<(), FznError> {
        if self.is_punct(c) {
            self.advance()?;
            Ok(())
        } else {
            Err(self.unexpected(&format!("'{c}'")))
        }
    }

    fn expect_keyword(&mut self, word: &str) -> Result<(), FznError> {
        if self.is_keyword(word) {
            self.advance()?;
            Ok(())
        } else {
            Err(self.unexpected(&format!("'{word}'")))
        }
    }

    fn ident(&mut self) -> Result<String, FznError> {
        match &self.token {
            Token::Ident(_) => match self.advance()? {
                Token::Ident(name) => Ok(name),
                _ => Err(self.unexpected("a name")),
            },
            _ => Err(self.unexpected("a name")),
        }
    }

    /// Items separated by commas up to `close`, which it consumes; a comma may end the list
    /// (MiniZinc accepts one).
    fn list<T>(
        &mut self,
        close: char,
        mut item: impl FnMut(&mut Self) -> Result<T, FznError>,
    ) -> Result<Vec<T>, FznError> {
        let mut items = Vec::new();
        while !self.is_punct(close) {
            items.push(item(self)?);
            if self.is_punct(',') {
                self.advance()?;
            } else {
                break;
            }
        }
        self.expect_punct(close)?;
        Ok(items)
    }

    fn int(&mut self) -> Result<i64, FznError> {
        match self.token {
            Token::Int(v) => {
                self.advance()?;
                Ok(v)
            }
            _ => Err(self.unexpected("an integer")),
        }
    }

    /// The next item, or `None` at the end of the text.
    pub(crate) fn next_item(&mut self) -> Result<Option<Item>, FznError> {
        let item = match &self.token {
            Token::End => return Ok(None),
            Token::Ident(word) => match word.as_str() {
                "predicate" => self.predicate()?,
                "constraint" => self.constraint()?,
                "solve" => self.solve()?,
                _ => self.decl()?,
            },
            _ => return Err(self.unexpected("a declaration, a constraint or the solve item")),
        };
        self.expect_punct(';')?;
        Ok(Some(item))
    }

    /// `predicate name(params)`: only the name matters; the parameters are skipped.
    fn predicate(&mut self) -> Result<Item, FznError> {
        self.advance()?;
        let name = self.ident()?;
        self.expect_punct('(')?;
        let mut depth = 1usize;
        while depth > 0 {
            match self.advance()? {
                Token::Punct('(') => depth += 1,
                Token::Punct(')') => depth -= 1,
                Token::End => {
                    return Err(self.error("a predicate declaration is not closed".into()))
                }
                _ => {}
            }
        }
        Ok(Item::Predicate { name })
    }

    fn constraint(&mut self) -> Result<Item, FznError> {
        self.advance()?;
        let name = self.ident()?;
        self.expect_punct('(')?;
        let args = self.list(')', |p| p.expr(0))?;
        let annotations = self.annotations()?;
        Ok(Item::Constraint {
            name,
            args,
            annotations,
        })
    }

    fn solve(&mut self) -> Result<Item, FznError> {
        self.advance()?;
        let annotations = self.annotations()?;
        let goal = match &self.token {
            Token::Ident(word) if word == "satisfy" => {
                self.advance()?;
                Goal::Satisfy
            }
            Token::Ident(word) if word == "minimize" => {
                self.advance()?;
                Goal::Minimize(self.expr(0)?)
            }
            Token::Ident(word) if word == "maximize" => {
                self.advance()?;
                Goal::Maximize(self.expr(0)?)
            }
            _ => return Err(self.unexpected("'satisfy', 'minimize' or 'maximize'")),
        };
        Ok(Item::Solve { annotations, goal })
    }

    /// A parameter or variable declaration.
    fn decl(&mut self) -> Result<Item, FznError> {
        let ty = self.ty()?;
        self.expect_punct(':')?;
        let name = self.ident()?;
        let annotations = self.annotations()?;
        let value = if self.is_punct('=') {
            self.advance()?;
            Some(self.expr(0)?)
        } else {
            None
        };
        Ok(Item::Decl {
            ty,
            name,
            annotations,
            value,
        })
    }

    /// `array [1..n] of T`, `var T` or `T`.
    fn ty(&mut self) -> Result<Type, FznError> {
        let mut array_len = None;
        if self.is_keyword("array") {
            self.advance()?;
            self.expect_punct('[')?;
            if self.is_keyword("int") {
                // `array [int] of ...` appears only in predicate declarations, which are
                // skipped; elsewhere an index set is a range.
                return Err(self.unexpected("an index set 1..n"));
            }
            let low = self.int()?;
            if !matches!(self.token, Token::DotDot) {
                return Err(self.unexpected("'..'"));
            }
            self.advance()?;
            let high = self.int()?;
            if low != 1 && high >= low {
                return Err(self.error(format!("an array's index set must start at 1, not {low}")));
            }
            array_len = Some((high - low + 1).max(0));
            self.expect_punct(']')?;
            self.expect_keyword("of")?;
        }
        let is_var = self.is_keyword("var");
        if is_var {
            self.advance()?;
        }
        let base = match &self.token {
            Token::Ident(word) if word == "bool" => {
                self.advance()?;
                BaseType::Bool
            }
            Token::Ident(word) if word == "int" => {
                self.advance()?;
                BaseType::Int
            }
            Token::Ident(word) if word == "float" => {
                self.advance()?;
                BaseType::Float
            }
            Token::Ident(word) if word == "set" => {
                self.advance()?;
                self.expect_keyword("of")?;
                // `set of int`, or `set of 1..3`, `set of {1, 3}`: the elements' type.
                if self.is_keyword("int") {
                    self.advance()?;
                } else {
                    self.expr(0)?;
                }
                BaseType::SetOfInt
            }
            Token::Int(_) | Token::Punct('{') => BaseType::IntIn(self.expr(0)?),
            Token::Float(_) => match self.expr(0)? {
                Expr::FloatRange(low, high) => BaseType::FloatIn(low, high),
                _ => return Err(self.unexpected("a float range")),
            },
            _ => return Err(self.unexpected("a type")),
        };
        Ok(Type {
            is_var,
            array_len,
            base,
        })
    }

    /// `:: a :: b ...`, possibly none.
    fn annotations(&mut self) -> Result<Vec<Expr>, FznError> {
        let mut annotations = Vec::new();
        while matches!(self.token, Token::ColonColon) {
            self.advance()?;
            annotations.push(self.expr(0)?);
        }
        Ok(annotations)
    }

    /// One expression; `depth` counts the arrays and calls around it.
    fn expr(&mut self, depth: usize) -> Result<Expr, FznError> {
        if depth > MAX_DEPTH {
            return Err(self.error(format!(
                "arrays or annotations nested more than {MAX_DEPTH} deep"
            )));
        }
        if matches!(
            self.token,
            Token::Punct(_) | Token::DotDot | Token::ColonColon | Token::End
        ) && !self.is_punct('{')
            && !self.is_punct('[')
        {
            return Err(self.unexpected("an expression"));
        }
        match self.advance()? {
            Token::Int(low) => {
                if matches!(self.token, Token::DotDot) {
                    self.advance()?;
                    let high = self.int()?;
                    Ok(Expr::Range(low, high))
                } else {
                    Ok(Expr::Int(low))
                }
            }
            Token::Float(low) => {
                if matches!(self.token, Token::DotDot) {
                    self.advance()?;
                    let high = match self.token {
                        Token::Float(v) => v,
                        Token::Int(v) => v as f64,
                        _ => return Err(self.unexpected("a number")),
                    };
                    self.advance()?;
                    Ok(Expr::FloatRange(low, high))
                } else {
                    Ok(Expr::Float(low))
                }
            }
            Token::Str(text) => Ok(Expr::Str(text)),
            Token::Punct('{') => Ok(Expr::Set(self.list('}', Self::int)?)),
            Token::Punct('[') => Ok(Expr::Array(self.list(']', |p| p.expr(depth + 1))?)),
            Token::Ident(name) => {
                match name.as_str() {
                    "true" => return Ok(Expr::Bool(true)),
                    "false" => return Ok(Expr::Bool(false)),
                    _ => {}
                }
                if self.is_punct('(') {
                    self.advance()?;
                    let args = self.list(')', |p| p.expr(depth + 1))?;
                    Ok(Expr::Call(name, args))
                } else if self.is_punct('[') {
                    self.advance()?;
                    let index = self.int()?;
                    self.expect_punct(']')?;
                    Ok(Expr::Access(name, index))
                } else {
                    Ok(Expr::Ident(name))
                }
            }
            other => Err(self.error(format!(
                "expected an expression, found {}",
                other.describe()
            ))),
        }
    }
}
