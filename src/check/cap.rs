//! The diagnostics of one check, held at most [`MAX_PER_CODE`] (and one) of each code: a file
//! of half a million unused variables holds a hundred warnings and a count while it is checked,
//! not half a million.

use crate::diag::{Diagnostic, FileId, Span};
use std::collections::{BTreeMap, BinaryHeap};

/// How many diagnostics of one code a check reports one by one; past them, one more says how
/// many were left out. A file of half a million unused variables is answered in a moment with
/// a hundred warnings and a count, not half a million drawn one by one.
pub const MAX_PER_CODE: usize = 100;

/// Where a diagnostic stands in the report: source order, then the order it was found in.
type Place = (FileId, u32, usize);

/// One held diagnostic, ordered by its place only.
struct Held(Place, Diagnostic);

impl PartialEq for Held {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl Eq for Held {}
impl PartialOrd for Held {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Held {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.cmp(&other.0)
    }
}

/// The diagnostics of one code found so far.
#[derive(Default)]
struct OfCode {
    /// The first `MAX_PER_CODE + 1` in source order (a max-heap: the last of them on top).
    first: BinaryHeap<Held>,
    /// How many came after all of those, and whether any of them is an error.
    past: usize,
    past_error: bool,
}

/// Diagnostics as a check finds them, in any order, each code held to the first
/// [`MAX_PER_CODE`] in source order and a count of the rest.
#[derive(Default)]
pub(crate) struct Capped {
    found: usize,
    codes: BTreeMap<&'static str, OfCode>,
}

impl Capped {
    /// Holds `d` if it is among the first of its code so far; otherwise only counts it.
    pub(crate) fn push(&mut self, d: Diagnostic) {
        let held = Held((d.span.file, d.span.start, self.found), d);
        self.found += 1;
        let code = self.codes.entry(held.1.code).or_default();
        if code.first.len() <= MAX_PER_CODE {
            code.first.push(held);
            return;
        }
        let later = match code.first.peek_mut() {
            Some(mut last) if held < *last => std::mem::replace(&mut *last, held),
            _ => held,
        };
        code.past += 1;
        code.past_error |= later.1.is_error();
    }

    /// Counts a diagnostic of `code` at `span` without building it, when it would only be
    /// counted (its code already holds its first ones, all before it); false if it must be
    /// built and pushed. Half a million unused names cost a count each, not three texts.
    pub(crate) fn count_if_past(&mut self, code: &'static str, span: Span, error: bool) -> bool {
        let place = (span.file, span.start, self.found);
        let Some(of) = self.codes.get_mut(code) else {
            return false;
        };
        match of.first.peek() {
            Some(last) if of.first.len() > MAX_PER_CODE && place > last.0 => {
                self.found += 1;
                of.past += 1;
                of.past_error |= error;
                true
            }
            _ => false,
        }
    }

    /// Every diagnostic held, in source order, with one more for each code that had more than
    /// [`MAX_PER_CODE`], at the first left out, counting them (an error if any left out is one,
    /// so a file with errors still has errors).
    pub(crate) fn finish(self) -> Vec<Diagnostic> {
        let mut kept = Vec::new();
        let mut summaries = Vec::new();
        for (code, of) in self.codes {
            let mut first = of.first.into_sorted_vec();
            if first.len() > MAX_PER_CODE {
                let Held(_, d) = first.pop().expect("more than MAX_PER_CODE");
                let count = of.past + 1;
                let message = format!(
                    "{count} more `{code}` problems like the ones above, not shown one by one"
                );
                let summary = if of.past_error || d.is_error() {
                    Diagnostic::error(code, message, d.span)
                } else {
                    Diagnostic::warning(code, message, d.span)
                };
                summaries.push(summary.with_label("the first of them").with_help(format!(
                    "the first {MAX_PER_CODE} of each kind are shown; fix those and check again"
                )));
            }
            kept.extend(first.into_iter().map(|Held(_, d)| d));
        }
        // Stable: within a code, the order found; a code's count after its last one shown.
        kept.extend(summaries);
        kept.sort_by_key(|d| (d.span.file, d.span.start, d.code));
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warning(start: u32) -> Diagnostic {
        Diagnostic::warning(
            "unused-definition",
            format!("at {start}"),
            Span::new(FileId(0), start as usize, start as usize + 1),
        )
    }

    #[test]
    fn counting_without_building_reports_what_pushing_reports() {
        // Out of order, so that some later-found ones still displace held ones.
        let starts: Vec<u32> = (0..500).map(|i| (i * 7919) % 1000).collect();
        let mut pushed = Capped::default();
        let mut lazy = Capped::default();
        let mut built = 0;
        for &s in &starts {
            pushed.push(warning(s));
            let span = Span::new(FileId(0), s as usize, s as usize + 1);
            if !lazy.count_if_past("unused-definition", span, false) {
                built += 1;
                lazy.push(warning(s));
            }
        }
        let show = |c: Capped| {
            c.finish()
                .iter()
                .map(|d| format!("{} {}", d.span.start, d.message))
                .collect::<Vec<_>>()
        };
        assert_eq!(show(pushed), show(lazy));
        assert!(built < starts.len(), "{built} built: none was only counted");
    }
}
