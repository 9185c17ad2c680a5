//! The modes and orders the modules run every case under.

use csp::{Inference, ValueOrder, VarOrder};

/// Every inference mode.
pub const MODES: [Inference; 4] = [
    Inference::None,
    Inference::ForwardChecking,
    Inference::Mac,
    Inference::Lcg,
];
/// Every variable order the chronological searches take.
pub const VAR_ORDERS: [VarOrder; 4] = [
    VarOrder::Input,
    VarOrder::MinDomain,
    VarOrder::DomDeg,
    VarOrder::DomWdeg,
];
/// Every value order, the random one with a fixed seed.
pub const VALUE_ORDERS: [ValueOrder; 4] = [
    ValueOrder::Ascending,
    ValueOrder::Descending,
    ValueOrder::LeastConstraining,
    ValueOrder::Random { seed: 7 },
];
