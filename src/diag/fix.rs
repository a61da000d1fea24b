//! Fixes: a diagnostic's suggestion as a change to the source, for an editor to apply.

use super::Span;
use std::ops::Range;

/// One way to carry out a diagnostic's suggestion: the text of `span` becomes `replacement`.
/// An empty span inserts; an empty replacement removes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    /// The source replaced.
    pub span: Span,
    /// What is written instead.
    pub replacement: String,
}

/// The longest old or new text a fix's title quotes.
const TITLE_QUOTE: usize = 40;

impl Fix {
    /// The bytes of `text` (the text of the span's file) the fix replaces, and with what; `None`
    /// if the span does not lie in `text`. A removal takes the blanks beside it too, and the
    /// whole line when it would leave the line blank, so that it leaves no gap behind.
    pub fn edit(&self, text: &str) -> Option<(Range<usize>, String)> {
        let (mut start, mut end) = (self.span.start as usize, self.span.end as usize);
        if start > end || !text.is_char_boundary(start) || !text.is_char_boundary(end) {
            return None;
        }
        if self.replacement.is_empty() && start < end {
            let blank = |c: char| c == ' ' || c == '\t';
            let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
            if text[line_start..start].chars().all(blank) {
                // First on its line (`add action x`): the blanks after go, the indent stays.
                end = text.len() - text[end..].trim_start_matches(blank).len();
            } else {
                // After other words (`card: paper secret`): the blanks before go.
                start = text[..start].trim_end_matches(blank).len();
            }
            let rest = &text[end..];
            let line_end = rest.find('\n').map_or(text.len(), |i| end + i);
            let rest_blank = text[end..line_end].chars().all(|c| blank(c) || c == '\r');
            if text[line_start..start].chars().all(blank) && rest_blank {
                start = line_start;
                end = (line_end + 1).min(text.len());
            }
        }
        Some((start..end, self.replacement.clone()))
    }

    /// What an editor's menu calls the fix: "Replace `pionts` with `points`".
    pub fn title(&self, text: &str) -> String {
        let old = text
            .get(self.span.start as usize..self.span.end as usize)
            .unwrap_or("");
        let new = self.replacement.trim();
        match (old.is_empty(), new.is_empty()) {
            (true, _) => format!("Insert `{}`", quote(new)),
            (false, true) if self.replacement.is_empty() => format!("Remove `{}`", quote(old)),
            (false, true) => format!("Replace `{}` with a line break", quote(old)),
            (false, false) => format!("Replace `{}` with `{}`", quote(old), quote(new)),
        }
    }
}

/// The first line of a text, cut short if long.
fn quote(text: &str) -> String {
    let line = text.lines().next().unwrap_or("").trim_end();
    let cut: String = line.chars().take(TITLE_QUOTE).collect();
    if cut.len() < text.trim_end().len() {
        format!("{cut} …")
    } else {
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::FileId;

    fn apply(text: &str, find: &str, replacement: &str) -> String {
        let start = text.find(find).unwrap();
        let fix = Fix {
            span: Span::new(FileId(0), start, start + find.len()),
            replacement: replacement.into(),
        };
        let (range, new) = fix.edit(text).unwrap();
        let mut out = text.to_string();
        out.replace_range(range, &new);
        out
    }

    #[test]
    fn a_replacement_replaces_the_span_only() {
        assert_eq!(
            apply("x = pionts + 1", "pionts", "points"),
            "x = points + 1"
        );
    }

    #[test]
    fn a_removal_leaves_no_gap() {
        // first on its line: the blanks after it go, the indent stays
        assert_eq!(apply("  add action x { }\n", "add", ""), "  action x { }\n");
        // after other words: the blanks before it go
        assert_eq!(
            apply("action a(c: card secret) { }", "secret", ""),
            "action a(c: card) { }"
        );
        assert_eq!(apply("let x = 1 ;  # one\n", ";", ""), "let x = 1  # one\n");
        // alone on its lines: the lines go
        let text = "match c {\n  red { }\n  else {\n    log \"x\"\n  }\n}\n";
        assert_eq!(
            apply(text, "else {\n    log \"x\"\n  }", ""),
            "match c {\n  red { }\n}\n"
        );
        assert_eq!(apply("a\r\n  b\r\nc", "b", ""), "a\r\nc");
        assert_eq!(apply("a\n  b", "b", ""), "a\n");
    }

    #[test]
    fn a_span_outside_the_text_is_no_edit() {
        let fix = Fix {
            span: Span::new(FileId(0), 3, 9),
            replacement: String::new(),
        };
        assert_eq!(fix.edit("short"), None);
        assert_eq!(fix.edit("é€€"), None, "inside a character");
    }

    #[test]
    fn titles_quote_the_change() {
        let text = "x pionts else {\n  log \"long\"\n}";
        let at = |s: &str, r: &str| {
            let start = text.find(s).unwrap();
            Fix {
                span: Span::new(FileId(0), start, start + s.len()),
                replacement: r.into(),
            }
            .title(text)
        };
        assert_eq!(at("pionts", "points"), "Replace `pionts` with `points`");
        assert_eq!(at("else {\n  log \"long\"\n}", ""), "Remove `else { …`");
        assert_eq!(at("", "add "), "Insert `add`");
        assert_eq!(at("pionts", "\n  "), "Replace `pionts` with a line break");
    }

    /// A small game that checks clean, and a variant of it that does too.
    const GAME: &str = r#"game "Fixes" { players 2 }
enum colour { red, blue }
kind card[2] {
  value: int = 1
}
die sixes: 1..6
table chart(face: int, gain: int) {
  (1, 2),
  (2, 3),
}
var level: int in 0..10 = 0
player var points: int = 0
effect pay(p: player, n: int) {
  p.points += n
}
def base_gain(): int = 1
action take(n: int in 1..3) "Take" {
  let r = roll sixes
  let c = red
  match c {
    red { me.points += r }
    blue { me.points += 2 }
  }
  pay(me, n + base_gain() + nth(chart, 1).gain + sum([k.value for k in card]))
}
flow {
  repeat 3 {
    for p in players {
      turn p only take
    }
  }
}
winners = [p in players where p.points > level]
"#;

    const VARIANT: &str = r#"variant "Bonus" {
  base "g.rules"
}
add effect bonus(p: player) {
  p.points += 1
}
replace effect pay(p: player, n: int) {
  p.points += n
  bonus(p)
}
"#;

    /// `g.rules` and `v.rules` with these texts, loaded: the variant if there is one.
    fn check(game: &str, variant: Option<&str>) -> crate::load::Loaded {
        let file = if variant.is_some() {
            "v.rules"
        } else {
            "g.rules"
        };
        let (game, variant) = (game.to_string(), variant.unwrap_or("").to_string());
        let read = move |p: &std::path::Path| match p.file_name().and_then(|n| n.to_str()) {
            Some("g.rules") => Ok(game.clone()),
            Some("v.rules") => Ok(variant.clone()),
            _ => Err(std::io::Error::other("no such file")),
        };
        crate::load::load_with(std::path::Path::new(file), &[], &read)
    }

    #[test]
    fn every_fix_applied_gives_back_the_text_that_checks_clean() {
        let clean = |game: &str, variant: Option<&str>| {
            let d = check(game, variant).diagnostics.0;
            assert!(d.is_empty(), "{d:?}");
        };
        clean(GAME, None);
        clean(GAME, Some(VARIANT));
        // (in the variant?, text written, text broken, the code of the diagnostic to fix)
        let cases = [
            (false, "level]", "levle]", "unknown-name"),
            (false, "k.value", "k.valeu", "unknown-field"),
            (false, "p.points += n", "p.pionts += n", "unknown-field"),
            (false, "player, n: int)", "player, n: intt)", "unknown-type"),
            (false, "only take", "only takk", "unknown-action"),
            (false, "roll sixes", "roll sixe", "unknown-die"),
            (false, ").gain", ").gian", "unknown-column"),
            (false, "    red {", "    redd {", "unknown-name"),
            (false, "  let r", "  lett r", "syntax-error"),
            (false, "let c = red\n", "let c = red;\n", "syntax-error"),
            (
                false,
                "let c = red\n  match",
                "let c = red; match",
                "syntax-error",
            ),
            (false, "0..10", "10..0", "invalid-bounds"),
            (false, "base_gain() +", "base_gain +", "type-mismatch"),
            (
                false,
                "player, n: int)",
                "player, n: int secret)",
                "secret-parameter",
            ),
            (
                false,
                "2 }\n  }",
                "2 }\n    else { }\n  }",
                "unreachable-arm",
            ),
            (
                false,
                "\neffect pay",
                "\nadd effect pay",
                "patch-outside-variant",
            ),
            (
                true,
                "replace effect pay",
                "replace effect payy",
                "variant-unknown-part",
            ),
            (
                true,
                "replace effect pay",
                "add effect pay",
                "variant-duplicate-part",
            ),
            (
                true,
                "replace effect pay",
                "effect pay",
                "variant-missing-patch",
            ),
            (
                true,
                "add effect bonus",
                "replace effect bonus",
                "variant-unknown-part",
            ),
            (
                true,
                "}\nadd",
                "}\ngame \"G\" { players 2 }\nadd",
                "variant-missing-patch",
            ),
        ];
        for (in_variant, good, bad, code) in cases {
            let original = if in_variant { VARIANT } else { GAME };
            assert!(original.contains(good), "{good}");
            let broken = original.replacen(good, bad, 1);
            let loaded = if in_variant {
                check(GAME, Some(&broken))
            } else {
                check(&broken, None)
            };
            let d = loaded
                .diagnostics
                .0
                .iter()
                .find(|d| d.code == code && !d.fixes.is_empty())
                .unwrap_or_else(|| panic!("{bad}: no {code} with a fix: {:?}", loaded.diagnostics));
            assert_eq!(d.fixes.len(), 1, "{bad}");
            let (range, new) = d.fixes[0].edit(&broken).expect("the fix lies in the text");
            let mut fixed = broken.clone();
            fixed.replace_range(range, &new);
            assert_eq!(fixed, original, "{bad}: {}", d.message);
        }
    }
}
