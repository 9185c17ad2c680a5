//! The items of a FlatZinc model as the parser reads them, before any meaning is given.

/// An expression: a literal, a name, an array of expressions, or an annotation call.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    /// A variable, a parameter or (in annotations) a bare annotation name.
    Ident(String),
    /// `a[i]`: one element of a named array (1-based, as FlatZinc indexes).
    Access(String, i64),
    /// `low..high` (an empty set when `high < low`).
    Range(i64, i64),
    /// `{v1, v2, ...}`.
    Set(Vec<i64>),
    /// `low..high` over floats (only in declarations of float variables, which are refused).
    FloatRange(f64, f64),
    /// `[e1, e2, ...]`.
    Array(Vec<Expr>),
    /// `name(args)`, in annotations.
    Call(String, Vec<Expr>),
}

/// The type of a declared parameter or variable.
#[derive(Clone, Debug, PartialEq)]
pub enum BaseType {
    Bool,
    Int,
    Float,
    /// `low..high` or `{...}` for `var`; the values allowed.
    IntIn(Expr),
    /// `var 0.0..1.0`.
    FloatIn(f64, f64),
    /// `set of int` or `set of 1..3` (a set variable or parameter).
    SetOfInt,
}

/// A declared type: `var` or not, an array of some length or not.
#[derive(Clone, Debug, PartialEq)]
pub struct Type {
    pub is_var: bool,
    /// The index set `1..n` of an array, as `n`.
    pub array_len: Option<i64>,
    pub base: BaseType,
}

/// One item of the model, with the line it starts on.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// `predicate name(...)`: a declaration of a solver-specific predicate.
    Predicate { name: String },
    /// A parameter or a variable: `type: name :: annotations = value;`.
    Decl {
        ty: Type,
        name: String,
        annotations: Vec<Expr>,
        value: Option<Expr>,
    },
    /// `constraint name(args) :: annotations;`.
    Constraint {
        name: String,
        args: Vec<Expr>,
        annotations: Vec<Expr>,
    },
    /// `solve :: annotations satisfy | minimize e | maximize e;`.
    Solve { annotations: Vec<Expr>, goal: Goal },
}

/// What the solve item asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Goal {
    Satisfy,
    Minimize(Expr),
    Maximize(Expr),
}
