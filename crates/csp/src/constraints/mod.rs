//! The constraints that come with the engine; each file holds one, except `regin.rs` and
//! `words.rs`, the filtering all_different builds on.

mod all_different;
mod arithmetic;
mod binary;
mod boolean;
mod compare;
mod count;
mod element;
mod linear;
mod listed;
mod member;
mod min_max;
mod not_equal;
mod regin;
mod reified;
mod words;

pub use all_different::AllDifferent;
pub use arithmetic::{Abs, ArithOp, Arithmetic};
pub use binary::Binary;
pub use boolean::{BoolGate, BoolXor, Gate, Lit};
pub use compare::{Compare, Relation};
pub use count::Count;
pub use element::Element;
pub use linear::{Linear, LinearOp};
pub use member::Member;
pub use min_max::Extremum;
pub use not_equal::NotEqual;
pub use reified::{Reifiable, Reified};
