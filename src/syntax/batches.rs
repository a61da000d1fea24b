//! Reading a file's items some dozens at a time, and a large file in two halves at once.
//!
//! pest keeps a queue of tokens for everything one call parses: dozens of bytes of tokens for
//! each byte of text, which for a file of megabytes is hundreds of megabytes written and read
//! back. So items are parsed some dozens at a time (`Rule::first_items`, `Rule::next_items`),
//! each call from the end of the one before, and lowered at once. A large file is also read from
//! a second place at the same time, on another thread: a line near its middle that looks like
//! the start of an item. Where the first reader finds an item starting exactly there, the second
//! reader's items are the rest of the file, since an item's parse depends only on where it
//! starts; where it finds none (the guess was inside an item), the first reads on to the end
//! alone. Either way the items are those of reading the file in one go.

use super::lower::Lowerer;
use super::{ast, Rule, RulesParser};
use crate::diag::{Diagnostic, FileId};
use pest::Parser;
use std::sync::atomic::{AtomicBool, Ordering};

/// Files at least this long are read in two halves at once: below it a thread costs more than it
/// saves.
pub(super) const SPLIT_FROM: usize = 1 << 20;

/// How many items `Rule::first_items` and `Rule::next_items` read at most.
const ITEMS_PER_BATCH: usize = 64;

/// The items of `text` and the errors of lowering them, as `Rule::file` reads them; None at an
/// item that does not parse (the caller parses the whole file again for the error).
pub(super) fn read(
    file: FileId,
    text: &str,
    split_from: usize,
) -> Option<(Vec<ast::Item>, Vec<Diagnostic>)> {
    let stop = AtomicBool::new(false);
    let Some(middle) = (text.len() >= split_from)
        .then(|| item_like_line(text, text.len() / 2))
        .flatten()
    else {
        return match run(file, text, 0, None, &stop)? {
            Run::Finished(items, errors) | Run::Reached(items, errors) => Some((items, errors)),
        };
    };
    std::thread::scope(|scope| {
        let second = scope.spawn(|| run(file, text, middle, None, &stop));
        let first = run(file, text, 0, Some(middle), &stop);
        if !matches!(first, Some(Run::Reached(..))) {
            // A syntax error, or read to the end alone: the second reader's work is not needed.
            stop.store(true, Ordering::Relaxed);
        }
        let second = second
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        match first? {
            Run::Finished(items, errors) => Some((items, errors)),
            Run::Reached(mut items, mut errors) => {
                let (Run::Finished(rest, more) | Run::Reached(rest, more)) = second?;
                items.extend(rest);
                errors.extend(more);
                Some((items, errors))
            }
        }
    })
}

/// What one reader read.
enum Run {
    /// Every item to the end of the file.
    Finished(Vec<ast::Item>, Vec<Diagnostic>),
    /// Every item before the place it was to stop at, where an item starts.
    Reached(Vec<ast::Item>, Vec<Diagnostic>),
}

/// Reads items from `from` (where an item starts, or 0) to the end, or to `until` if an item
/// starts exactly there; None at an item that does not parse, or when told to stop.
fn run(
    file: FileId,
    text: &str,
    from: usize,
    mut until: Option<usize>,
    stop: &AtomicBool,
) -> Option<Run> {
    let mut lowerer = Lowerer::new(file);
    let mut items = Vec::new();
    let mut starts = Vec::new();
    let mut at = from;
    loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let rule = if at == 0 {
            Rule::first_items
        } else {
            Rule::next_items
        };
        let pairs = RulesParser::parse(rule, &text[at..]).ok()?;
        let end = at + pairs.clone().next()?.as_span().end();
        let before = items.len();
        // Where this batch's items start: only a reader told where to stop looks at them.
        starts.clear();
        let at_end = lowerer.items_at(pairs, at, &mut items, &mut starts);
        if let Some(place) = until {
            if let Some(i) = starts.iter().position(|&s| s >= place) {
                if starts[i] == place {
                    items.truncate(before + i);
                    // The lowering's errors about items from there on are the other reader's.
                    let mut errors = lowerer.into_errors();
                    errors.retain(|e| (e.span.start as usize) < place);
                    return Some(Run::Reached(items, errors));
                }
                // The place was inside an item: read on alone.
                until = None;
            }
        }
        if at_end {
            return Some(Run::Finished(items, lowerer.into_errors()));
        }
        if items.len() < before + ITEMS_PER_BATCH {
            // Not the end, and a batch cut short: the next item does not parse.
            return None;
        }
        at = end;
    }
}

/// The start of the first line at or after `from` that begins with a letter, as items do when
/// written at the left margin; None if there is none.
fn item_like_line(text: &str, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = from;
    loop {
        let newline = at + bytes.get(at..)?.iter().position(|&b| b == b'\n')?;
        at = newline + 1;
        if bytes.get(at).is_some_and(u8::is_ascii_alphabetic) {
            return Some(at);
        }
    }
}
