//! `Expr`: an XCSP3 functional expression (`eq(%0,dist(x[1],x[0]))`), parsed from its text.

/// One node of an intension predicate or of an argument that is an expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Expr {
    /// An integer constant.
    Int(i64),
    /// A variable reference as written (`x[2][3]`, `y`), resolved later.
    Name(String),
    /// A group's parameter `%i`.
    Param(usize),
    /// All the remaining parameters of a group, `%...`.
    Rest,
    /// An operator applied to its arguments (`add(x,y,1)`).
    Call(String, Vec<Expr>),
    /// A set of expressions (`set(1,2,3)` and the `{...}` of `in`), as `in`'s second argument.
    Set(Vec<Expr>),
}

/// Parses `text` whole; the error says what was expected and at which byte.
pub(crate) fn parse(text: &str) -> Result<Expr, (usize, String)> {
    let mut p = Parser {
        text: text.as_bytes(),
        at: 0,
        depth: 0,
    };
    let e = p.expr()?;
    p.skip_space();
    if p.at < p.text.len() {
        return Err((p.at, format!("unexpected `{}`", p.text[p.at] as char)));
    }
    Ok(e)
}

/// How deeply expressions may nest: far beyond any real instance, well within the stack.
const MOST_NESTING: usize = 1000;

struct Parser<'t> {
    text: &'t [u8],
    at: usize,
    depth: usize,
}

impl Parser<'_> {
    fn skip_space(&mut self) {
        while self.at < self.text.len() && self.text[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.text.get(self.at).copied()
    }

    /// The arguments of a call or a set, up to and including the closing bracket.
    fn args(&mut self, close: u8) -> Result<Vec<Expr>, (usize, String)> {
        let mut args = Vec::new();
        if self.peek() == Some(close) {
            self.at += 1;
            return Ok(args);
        }
        loop {
            args.push(self.expr()?);
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(c) if c == close => {
                    self.at += 1;
                    return Ok(args);
                }
                _ => return Err((self.at, format!("expected `,` or `{}`", close as char))),
            }
        }
    }

    fn expr(&mut self) -> Result<Expr, (usize, String)> {
        self.depth += 1;
        let result = self.nested();
        self.depth -= 1;
        result
    }

    fn nested(&mut self) -> Result<Expr, (usize, String)> {
        if self.depth > MOST_NESTING {
            return Err((
                self.at,
                format!("expressions nested more than {MOST_NESTING} deep"),
            ));
        }
        let start = self.at;
        match self.peek() {
            None => Err((self.at, "expected an expression".into())),
            Some(b'%') => {
                self.at += 1;
                if self.text[self.at..].starts_with(b"...") {
                    self.at += 3;
                    return Ok(Expr::Rest);
                }
                let digits = self.word(|c| c.is_ascii_digit());
                digits
                    .parse()
                    .map(Expr::Param)
                    .map_err(|_| (start, "expected a parameter number after `%`".into()))
            }
            Some(b'{') => {
                self.at += 1;
                Ok(Expr::Set(self.args(b'}')?))
            }
            Some(c) if c == b'-' || c == b'+' || c.is_ascii_digit() => {
                let number = self.word(|c| c.is_ascii_digit() || c == b'-' || c == b'+');
                number
                    .parse()
                    .map(Expr::Int)
                    .map_err(|_| (start, format!("`{number}` is not an integer")))
            }
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => {
                let name = self
                    .word(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'[' | b']' | b'.'));
                if self.peek() != Some(b'(') {
                    return Ok(match name.as_str() {
                        "true" => Expr::Int(1),
                        "false" => Expr::Int(0),
                        _ => Expr::Name(name),
                    });
                }
                self.at += 1;
                let args = self.args(b')')?;
                Ok(if name == "set" {
                    Expr::Set(args)
                } else {
                    Expr::Call(name, args)
                })
            }
            Some(c) => Err((self.at, format!("unexpected `{}`", c as char))),
        }
    }

    /// The longest run of bytes from here that `ok` accepts, as text.
    fn word(&mut self, ok: impl Fn(u8) -> bool) -> String {
        let start = self.at;
        while self.at < self.text.len() && ok(self.text[self.at]) {
            self.at += 1;
        }
        String::from_utf8_lossy(&self.text[start..self.at]).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(op: &str, args: Vec<Expr>) -> Expr {
        Expr::Call(op.into(), args)
    }

    #[test]
    fn nested_calls_parameters_and_names_parse() {
        assert_eq!(
            parse(" eq(%0, dist(x[1],x[0])) ").unwrap(),
            call(
                "eq",
                vec![
                    Expr::Param(0),
                    call(
                        "dist",
                        vec![Expr::Name("x[1]".into()), Expr::Name("x[0]".into())]
                    )
                ]
            )
        );
        assert_eq!(
            parse("in(y,set(1,-2,3))").unwrap(),
            call(
                "in",
                vec![
                    Expr::Name("y".into()),
                    Expr::Set(vec![Expr::Int(1), Expr::Int(-2), Expr::Int(3)])
                ]
            )
        );
        assert_eq!(parse("add(%...)").unwrap(), call("add", vec![Expr::Rest]));
        assert_eq!(parse("not(true)").unwrap(), call("not", vec![Expr::Int(1)]));
    }

    #[test]
    fn faults_name_their_byte() {
        assert_eq!(parse("eq(x,").unwrap_err().0, 5);
        assert_eq!(parse("eq(x y)").unwrap_err().0, 5);
        assert!(parse("eq(x,1))").is_err());
        assert!(parse("%x").is_err());
        assert!(parse("1-2").is_err());
        let deep = format!("{}x{}", "not(".repeat(5000), ")".repeat(5000));
        assert!(parse(&deep).unwrap_err().1.contains("nested"));
    }
}
