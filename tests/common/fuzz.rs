//! What the in-process fuzzers share (`tests/robustness.rs`, `tests/fuzz.rs`): checking a text
//! and playing it under `catch_unwind`, and the deterministic mutations of a rules text.

use super::{play_random, tight_limits};
use meeple::diag::{render_all, RenderStyle};
use meeple::engine::Rng;
use meeple::load::check_source;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

/// What a checked text turned out to be.
pub enum Checked {
    Valid(Arc<meeple::ir::Program>),
    Broken,
}

/// Checks a text, renders its diagnostics, and for a valid one plays a short game: all under
/// `catch_unwind`. Returns the panic message, if any.
pub fn try_text(name: &str, text: &str, play: bool) -> Result<Checked, String> {
    try_text_seeded(name, text, play, 3)
}

/// [`try_text`], the games played on `seed`.
pub fn try_text_seeded(name: &str, text: &str, play: bool, seed: u64) -> Result<Checked, String> {
    let checked = catch_unwind(AssertUnwindSafe(|| {
        let loaded = check_source(name, text);
        // Rendering reads the spans back out of the text: it must not panic either.
        let rendered = render_all(&loaded.diagnostics, &loaded.sources, RenderStyle::plain());
        let errors = loaded.diagnostics.has_errors();
        match loaded.program {
            Some(p) => {
                assert!(!errors, "a program despite errors:\n{rendered}");
                Checked::Valid(Arc::new(p))
            }
            None => {
                assert!(errors, "no program and no error:\n{rendered}");
                Checked::Broken
            }
        }
    }))
    .map_err(panic_message)?;
    if let (Checked::Valid(program), true) = (&checked, play) {
        let program = program.clone();
        catch_unwind(AssertUnwindSafe(|| {
            for players in [program.min_players, program.max_players] {
                // Over, failed with a runtime error, or cut short: all fine. Only a panic is not.
                let _ = play_random(program.clone(), players, seed, tight_limits(), 150);
            }
        }))
        .map_err(|e| format!("while playing: {}", panic_message(e)))?;
    }
    Ok(checked)
}

/// The text of a caught panic.
pub fn panic_message(e: Box<dyn std::any::Any + Send>) -> String {
    e.downcast_ref::<String>()
        .cloned()
        .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic".to_string())
}

/// Bits of text a mutation may put in: punctuation, keywords and extreme numbers.
pub const SPLICES: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "\"",
    ",",
    ":",
    ".",
    "..",
    "=",
    "+=",
    "-",
    "#",
    "\n",
    "{x}",
    "0",
    "1",
    "-1",
    "7",
    "100000",
    "9223372036854775807",
    "-9223372036854775807",
    "99999999999999999999",
    "me",
    "none",
    "true",
    "players",
    "turn",
    "flow",
    "game",
    "end game",
    "repeat",
    "while",
    "if",
    "else",
    "let",
    "for",
    "in",
    "where",
    "by",
    "top(",
    "count(",
    "secretly",
    "choose",
    "ask",
    "roll",
    "random",
    "é",
    "🎲",
    "\u{0}",
    "\t",
];

/// Numbers a mutation may put in place of another.
pub const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "-1",
    "-5",
    "16",
    "17",
    "1000",
    "100000",
    "1000000000",
    "9223372036854775807",
    "-9223372036854775807",
    "(-9223372036854775807 - 1)",
];

/// One deterministic mutation of `text`: replace, delete or duplicate some bytes, or splice in
/// a token. The result is made valid UTF-8 (a broken sequence becomes U+FFFD).
pub fn mutate(text: &str, rng: &mut Rng) -> (String, String) {
    let bytes = text.as_bytes();
    if bytes.is_empty() {
        return ("empty".into(), String::new());
    }
    let at = rng.index(bytes.len());
    let len = 1 + rng.index(8.min(bytes.len() - at));
    let mut out = bytes[..at].to_vec();
    let what = match rng.index(7) {
        // Numbers are where arithmetic, bounds and counts go wrong: swap one for an extreme.
        5 | 6 => {
            let digits: Vec<usize> = (0..bytes.len())
                .filter(|&i| {
                    bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_digit())
                })
                .collect();
            if digits.is_empty() {
                return ("no number".into(), text.to_string());
            }
            let start = digits[rng.index(digits.len())];
            let end = start
                + bytes[start..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
            let n = NUMBERS[rng.index(NUMBERS.len())];
            let mut out = bytes[..start].to_vec();
            out.extend_from_slice(n.as_bytes());
            out.extend_from_slice(&bytes[end..]);
            return (
                format!("number at {start} replaced by {n}"),
                String::from_utf8_lossy(&out).into_owned(),
            );
        }
        0 => {
            let alphabet = b" \n{}()[]\",.:=+-<>#0123456789abcdefmnoprstuvwxyz_\xc3\xa9";
            let b = alphabet[rng.index(alphabet.len())];
            out.push(b);
            out.extend_from_slice(&bytes[at + 1..]);
            format!("byte {at} replaced by {b:#04x}")
        }
        1 => {
            out.extend_from_slice(&bytes[at + len..]);
            format!("{len} bytes deleted at {at}")
        }
        2 => {
            out.extend_from_slice(&bytes[at..at + len]);
            out.extend_from_slice(&bytes[at..]);
            format!("{len} bytes duplicated at {at}")
        }
        _ => {
            let s = SPLICES[rng.index(SPLICES.len())];
            out.extend_from_slice(s.as_bytes());
            // Half the time the splice replaces a word, so that numbers and names change.
            let skip = if rng.index(2) == 0 {
                bytes[at..]
                    .iter()
                    .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                    .count()
            } else {
                0
            };
            out.extend_from_slice(&bytes[at + skip..]);
            format!("{s:?} spliced at {at} over {skip} bytes")
        }
    };
    (what, String::from_utf8_lossy(&out).into_owned())
}
