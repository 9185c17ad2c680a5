//! The constraints that come with the engine; each file holds one.

mod all_different;
mod binary;
mod not_equal;
mod regin;

pub use all_different::AllDifferent;
pub use binary::Binary;
pub use not_equal::NotEqual;
