//! `Relation`: how two integers compare (`=`, `!=`, `<`, `<=`, `>`, `>=`).

use std::fmt;

/// How two integers compare.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl Relation {
    /// The six relations, for whoever tries them all (tests, random models).
    pub const ALL: [Relation; 6] = [
        Relation::Eq,
        Relation::Le,
        Relation::Lt,
        Relation::Ge,
        Relation::Gt,
        Relation::Ne,
    ];

    /// Whether `a rel b`.
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Relation::Eq => a == b,
            Relation::Ne => a != b,
            Relation::Lt => a < b,
            Relation::Le => a <= b,
            Relation::Gt => a > b,
            Relation::Ge => a >= b,
        }
    }

    /// The relation that holds exactly when this one does not.
    pub fn negation(self) -> Relation {
        match self {
            Relation::Eq => Relation::Ne,
            Relation::Ne => Relation::Eq,
            Relation::Lt => Relation::Ge,
            Relation::Le => Relation::Gt,
            Relation::Gt => Relation::Le,
            Relation::Ge => Relation::Lt,
        }
    }
}

impl fmt::Display for Relation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Relation::Eq => "=",
            Relation::Ne => "!=",
            Relation::Lt => "<",
            Relation::Le => "<=",
            Relation::Gt => ">",
            Relation::Ge => ">=",
        })
    }
}
