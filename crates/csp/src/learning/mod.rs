//! Nogood learning by lazy clause generation: conflict analysis over the core's atom trail, the
//! learned nogoods and the activity the search branches by. The node loop that drives them is
//! `search::learning_search`.

pub(crate) mod activity;
pub(crate) mod analysis;
pub(crate) mod nogoods;
