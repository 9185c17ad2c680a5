//! `listed`: the first few items of a constraint's arguments, for its description.

use std::fmt::{Display, Write as _};

/// The first `most` of `items` joined by `separator`, and `separator...` if there were more:
/// `x1, x2, x3, ...`. Descriptions show in traces and error lines, which a scope of thousands
/// would drown.
pub(crate) fn listed<T: Display>(
    items: impl ExactSizeIterator<Item = T>,
    most: usize,
    separator: &str,
) -> String {
    let more = items.len() > most;
    let mut text = String::new();
    for (i, item) in items.take(most).enumerate() {
        if i > 0 {
            text.push_str(separator);
        }
        let _ = write!(text, "{item}");
    }
    if more {
        text.push_str(separator);
        text.push_str("...");
    }
    text
}
