//! FlatZinc, as MiniZinc 2.6 writes it, read into a `csp::Model` with its goal, its search and
//! its output.
//!
//! The text is read one item at a time (a hand-written lexer and recursive-descent parser, so
//! that an error names its line and column and a file of a million constraints is never held
//! as tokens) and each item is built as it comes. The FlatZinc builtins over integers and
//! Booleans are supported (comparisons, linear constraints, their reified and half-reified
//! forms, arithmetic, element, Boolean gates and clauses, set membership); floats and set
//! variables are refused by name and line. Nothing here prints or exits.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let text = "var 1..3: x :: output_var;\n\
//!             var 1..3: y :: output_var;\n\
//!             constraint int_lt(x, y);\n\
//!             solve maximize x;\n";
//! let fzn = flatzinc::load(text)?;
//! let var = fzn.objective_var().ok_or("an optimisation")?;
//! let best = csp::Solver::new(&fzn.model)
//!     .inference(csp::Inference::Mac)
//!     .maximize(var)
//!     .solutions()
//!     .last()
//!     .ok_or("a solution")?;
//! let mut printed = String::new();
//! fzn.format_solution(&best, &mut printed);
//! assert_eq!(printed, "x = 2;\ny = 3;\n");
//! # Ok(())
//! # }
//! ```

// Bad input must come back as an error, never a panic; tests may unwrap.
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod ast;
mod build;
mod error;
mod fzn_model;
mod lexer;
mod parser;

pub use error::FznError;
pub use fzn_model::{Elem, FznModel, Output, OutputShape};

/// csp's MiniZinc library: each file of `mznlib/` (name, text), sorted by name. MiniZinc
/// compiles a model for csp with it (`minizinc --solver csp`, once the CLI's
/// `csp minizinc-setup` has installed it): each global csp propagates natively becomes one
/// `csp_*` constraint that [`load`] reads, and the rest MiniZinc decomposes. It serves
/// MiniZinc 2.6 to 2.10.
pub const MZNLIB: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/mznlib.rs"));

/// Reads a FlatZinc text and builds its model.
pub fn load(text: &str) -> Result<FznModel, FznError> {
    let mut parser = parser::Parser::new(text)?;
    let mut builder = build::Builder::new();
    loop {
        let line = parser.line();
        match parser.next_item()? {
            Some(item) => {
                let place = model_place_of(&item);
                builder.add(item, line).map_err(|mut e| {
                    e.source = e.source.take().or(place);
                    e
                })?;
            }
            None => return builder.finish(line),
        }
    }
}

/// Where `item` comes from in the MiniZinc model, if MiniZinc annotated it with `mzn_path`.
fn model_place_of(item: &ast::Item) -> Option<String> {
    let annotations = match item {
        ast::Item::Decl { annotations, .. }
        | ast::Item::Constraint { annotations, .. }
        | ast::Item::Solve { annotations, .. } => annotations,
        ast::Item::Predicate { .. } => return None,
    };
    annotations.iter().find_map(|a| match a {
        ast::Expr::Call(name, args) if name == "mzn_path" => match args.first() {
            Some(ast::Expr::Str(path)) => error::model_place(path),
            _ => None,
        },
        _ => None,
    })
}
