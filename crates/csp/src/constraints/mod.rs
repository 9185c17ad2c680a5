//! The constraints that come with the engine; each file holds one.

mod all_different;
mod binary;
mod compare;
mod linear;
mod member;
mod not_equal;
mod regin;
mod reified;

pub use all_different::AllDifferent;
pub use binary::Binary;
pub use compare::{Compare, Relation};
pub use linear::{Linear, LinearOp};
pub use member::Member;
pub use not_equal::NotEqual;
pub use reified::{Reifiable, Reified};
