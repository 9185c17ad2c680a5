//! What the text traces share: writing each event's lines as one record, and listing the
//! values filtering ruled out, grouped by variable.

use crate::output::Output;
use std::cell::RefCell;
use std::fmt::{Display, Write as _};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The lines of the event being traced, written to the output as one record.
pub struct TraceText<'a> {
    out: &'a RefCell<Output>,
    /// Set when the reader went away, so the search stops.
    cancel: Arc<AtomicBool>,
    /// The event's lines so far.
    pub text: String,
}

impl<'a> TraceText<'a> {
    pub fn new(out: &'a RefCell<Output>, cancel: Arc<AtomicBool>) -> Self {
        TraceText {
            out,
            cancel,
            text: String::new(),
        }
    }

    /// Writes the event's lines and starts the next; a closed output stops the search.
    pub fn emit(&mut self) {
        let mut out = self.out.borrow_mut();
        if !out.record(self.text.as_bytes()) {
            self.cancel.store(true, Ordering::Relaxed);
        }
        self.text.clear();
    }
}

/// The indentation of a line at `depth` (1 for the first assignment).
pub fn indent(depth: usize) -> String {
    "  ".repeat(depth.saturating_sub(1))
}

/// `a -> 1, 2; b -> 5`: the (variable, value) pairs sorted and grouped by variable, each
/// written by `name` and `value`.
pub fn grouped<K: Ord + Copy, V: Ord + Copy, N: Display, W: Display>(
    pairs: &mut [(K, V)],
    name: impl Fn(K) -> N,
    value: impl Fn(V) -> W,
) -> String {
    pairs.sort_unstable();
    let mut groups: Vec<String> = Vec::new();
    let mut current = None;
    for &(k, v) in pairs.iter() {
        if current != Some(k) {
            groups.push(format!("{} -> {}", name(k), value(v)));
            current = Some(k);
        } else if let Some(last) = groups.last_mut() {
            let _ = write!(last, ", {}", value(v));
        }
    }
    groups.join("; ")
}

/// `atom` in words, its variable named by `name`: `r3c5 != 4`, `row 2 >= 3`.
pub fn atom_text(atom: csp::Atom, name: impl Fn(csp::VarId) -> String) -> String {
    match atom {
        csp::Atom::Eq(x, v) => format!("{} = {v}", name(x)),
        csp::Atom::Ne(x, v) => format!("{} != {v}", name(x)),
        csp::Atom::Le(x, v) => format!("{} <= {v}", name(x)),
        csp::Atom::Ge(x, v) => format!("{} >= {v}", name(x)),
    }
}
