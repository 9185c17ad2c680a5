//! The constraints that come with the engine; each file holds one, except the algorithms
//! some of them build on: `regin.rs`, `words.rs`, `hall_sets.rs` and `hall_intervals.rs`
//! (all_different), `cardinality_flow.rs` (global_cardinality), `components.rs` (the
//! strongly connected components both matchings read), `energetic.rs` (cumulative's
//! energetic reasoning) and `task.rs` (the task bounds the scheduling constraints read).

mod all_different;
mod all_different_except;
mod among;
mod arg_extremum;
mod arithmetic;
mod array_member;
mod bin_packing_load;
mod binary;
mod boolean;
mod cardinality_flow;
mod circuit;
mod compare;
mod components;
mod count;
mod cumulative;
mod diffn;
mod disjunctive;
mod element;
mod energetic;
mod global_cardinality;
mod hall_intervals;
mod hall_sets;
mod increasing;
mod inverse;
mod lex;
mod linear;
mod listed;
mod member;
mod min_max;
mod nfa;
mod not_equal;
mod nvalue;
mod path;
mod regin;
mod regular;
mod reified;
mod table;
mod task;
mod value_precede;
mod words;

pub use all_different::AllDifferent;
pub use all_different_except::AllDifferentExcept;
pub use among::Among;
pub use arg_extremum::ArgExtremum;
pub use arithmetic::{Abs, ArithOp, Arithmetic};
pub use array_member::ArrayMember;
pub use bin_packing_load::BinPackingLoad;
pub use binary::Binary;
pub use boolean::{BoolGate, BoolXor, Gate, Lit};
pub use circuit::Circuit;
pub use compare::{Compare, Relation};
pub use count::Count;
pub use cumulative::Cumulative;
pub use diffn::Diffn;
pub use disjunctive::Disjunctive;
pub use element::Element;
pub use global_cardinality::GlobalCardinality;
pub use increasing::Increasing;
pub use inverse::Inverse;
pub use lex::Lex;
pub use linear::{Linear, LinearOp};
pub use member::Member;
pub use min_max::Extremum;
pub use nfa::Nfa;
pub use not_equal::NotEqual;
pub use nvalue::NValue;
pub use path::Path;
pub use regular::Regular;
pub use reified::{Reifiable, Reified};
pub use table::{Table, TableData};
pub use value_precede::ValuePrecede;
