//! The propagation core: domains and their trail, the `Constraint` trait and the `Context` it
//! filters through, wake events and priorities, the atom trail that records why each atom
//! became true, and the queue that runs constraints to a fixpoint. It imports nothing from
//! search, learning or the model's posting methods; they are built on it.

pub(crate) mod atom_trail;
pub(crate) mod checkable;
pub(crate) mod consistency;
pub(crate) mod constraint;
pub(crate) mod context;
pub(crate) mod declared_domain;
pub(crate) mod domains;
pub(crate) mod earlier;
pub(crate) mod interval_domain;
pub(crate) mod linear_row;
pub(crate) mod network;
pub(crate) mod queue;
pub(crate) mod wake;
