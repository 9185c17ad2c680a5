//! The constraints that come with the engine; each file holds one.

mod all_different;
mod binary;
mod compare;
mod linear;
mod not_equal;
mod regin;

pub use all_different::AllDifferent;
pub use binary::Binary;
pub use compare::{Compare, Reified, Relation};
pub use linear::{Linear, LinearOp};
pub use not_equal::NotEqual;
