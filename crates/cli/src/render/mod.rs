//! What the commands write besides their answers: statistics, traces, pictures and pages, one
//! format per file.

pub mod named_trace;
pub mod plot;
pub mod replay;
pub mod report;
pub mod svg;
pub mod table;
pub mod trace;
pub mod trace_json;
pub mod trace_text;
pub mod tree;
