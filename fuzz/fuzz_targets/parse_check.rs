//! Any text through the parser and the checker, and its diagnostics rendered: never a panic,
//! and a program exactly when there is no error.
#![no_main]

use libfuzzer_sys::fuzz_target;
use meeple::diag::{render_all, RenderStyle};
use meeple::load::check_source;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let loaded = check_source("input.rules", &text);
    let _ = render_all(&loaded.diagnostics, &loaded.sources, RenderStyle::plain());
    assert_eq!(
        loaded.program.is_some(),
        !loaded.diagnostics.has_errors(),
        "a program exactly when there is no error"
    );
});
