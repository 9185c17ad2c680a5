//! Nogood learning by lazy clause generation: the atom trail, conflict analysis, the learned
//! nogoods and the activity the search branches by. The node loop that drives them is
//! `search::learning_search`.

pub(crate) mod activity;
pub(crate) mod analysis;
pub(crate) mod atom_trail;
pub(crate) mod nogoods;
