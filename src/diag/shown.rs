//! A file's text as a diagnostic draws it: control characters escaped ([`crate::printable`]),
//! so that a line of source quoted under a message cannot drive the terminal, and the offsets
//! of the file mapped onto the longer text.

use std::sync::Arc;

/// The escaped text of a file that holds control characters.
#[derive(Debug)]
pub(super) struct Shown {
    /// The text with each control character written as `\u{..}`.
    pub(super) text: Arc<str>,
    /// Where each line of `text` starts.
    pub(super) line_starts: Arc<Vec<usize>>,
    /// Each control character's offset in the file, and the bytes its escape and those before
    /// it add, in order.
    shifts: Vec<(usize, usize)>,
}

impl Shown {
    /// The escaped text of `text`, or `None` if it has nothing to escape.
    pub(super) fn of(text: &str) -> Option<Shown> {
        let escaped = crate::printable::escape_source(text);
        if matches!(escaped, std::borrow::Cow::Borrowed(_)) {
            return None;
        }
        let mut shifts = Vec::new();
        let mut added = 0;
        for (at, c) in text.char_indices() {
            if crate::printable::is_control(c) && c != '\r' {
                added += crate::printable::escaped(c).len() - c.len_utf8();
                shifts.push((at, added));
            }
        }
        let text: Arc<str> = escaped.into_owned().into();
        Some(Shown {
            line_starts: Arc::new(super::window::line_starts(&text)),
            text,
            shifts,
        })
    }

    /// Where offset `at` of the file lies in the escaped text.
    pub(super) fn offset(&self, at: usize) -> usize {
        let before = self.shifts.partition_point(|(pos, _)| *pos < at);
        at + before.checked_sub(1).map_or(0, |i| self.shifts[i].1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_follow_the_escapes() {
        let text = "ab\x1bcd\u{9b}e";
        let shown = Shown::of(text).expect("something to escape");
        assert_eq!(&*shown.text, "ab\\u{1b}cd\\u{9b}e");
        for (at, want) in [(0, 0), (2, 2), (3, 8), (5, 10), (7, 16)] {
            assert_eq!(shown.offset(at), want, "offset {at}");
        }
        assert!(Shown::of("plain\r\ntext").is_none());
    }
}
