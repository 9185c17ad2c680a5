//! Any argument list through the command line's parser and checks: an error message or a
//! checked job, never a panic. One argument per line of the input.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let args = std::iter::once("csp").chain(text.split('\n'));
    if let Err(message) = csp_cli::check_args(args) {
        assert!(!message.trim().is_empty(), "an empty error message");
    }
});
