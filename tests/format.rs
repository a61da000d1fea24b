//! `meeple fmt` and the formatter behind it, over every rules text the repository has: the
//! files in `rules/`, every ```rules example of `docs/language.md` and every fixture that
//! parses. Formatting twice gives what formatting once gives; the formatted text parses to the
//! same syntax tree, spans aside, and keeps every comment. `rules/` is kept formatted. The CLI:
//! `--check` exit codes, rewriting in place, and parse errors.

mod common;

use common::{code, rel, root, rules_files, run, stderr, stdout};
use meeple::diag::FileId;
use meeple::syntax::format::format;
use meeple::syntax::parse;
use std::path::{Path, PathBuf};

/// Every rules text to format: a name for messages, and the text.
fn corpus() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in ["rules", "tests/fixtures"] {
        for path in rules_files(&root().join(dir)) {
            let text = std::fs::read_to_string(&path).expect("readable rules file");
            out.push((rel(&path), text));
        }
    }
    for doc in ["docs/language.md", "docs/tools.md", "README.md"] {
        for (line, text) in doc_examples(doc) {
            out.push((format!("{doc}:{line}"), text));
        }
    }
    out
}

/// The ```rules blocks of a Markdown document of the package (not ```rules-sketch), with their
/// first lines; a block indented in a list loses the indent of its fence.
fn doc_examples(doc: &str) -> Vec<(usize, String)> {
    let doc = std::fs::read_to_string(root().join(doc)).expect("a document of the package");
    let mut out = Vec::new();
    // The open block: its line, its fence's indent, its text.
    let mut open: Option<(usize, usize, String)> = None;
    let mut in_other_fence = false;
    for (i, line) in doc.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some((first, indent, text)) = open.as_mut() {
            if trimmed.starts_with("```") {
                out.push((*first, std::mem::take(text)));
                open = None;
            } else {
                let cut = line.len() - line.trim_start_matches(' ').len();
                text.push_str(&line[cut.min(*indent)..]);
                text.push('\n');
            }
            continue;
        }
        let Some(info) = trimmed.strip_prefix("```") else {
            continue;
        };
        if in_other_fence {
            in_other_fence = false;
        } else if info.split(',').next().map(str::trim) == Some("rules") {
            open = Some((i + 1, line.len() - trimmed.len(), String::new()));
        } else {
            in_other_fence = true;
        }
    }
    out
}

/// The syntax tree's debug rendering with every span taken out.
fn tree(text: &str) -> Option<String> {
    let file = parse(FileId(0), text).ok()?;
    let debug = format!("{file:?}");
    let mut out = String::with_capacity(debug.len());
    let mut rest = debug.as_str();
    while let Some(at) = rest.find("Span { ") {
        out.push_str(&rest[..at]);
        let end = rest[at..].find('}').map_or(rest.len(), |n| at + n + 1);
        out.push_str("Span");
        rest = &rest[end..];
    }
    out.push_str(rest);
    Some(out)
}

/// The comments of a rules text, trailing whitespace removed, found independently of the
/// formatter: `#` to the end of the line, outside texts (whose `{...}` parts may hold comments).
fn comments(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    let mut in_text = false;
    let mut braces = 0usize;
    while let Some((i, c)) = chars.next() {
        let in_code = !in_text || braces > 0;
        match c {
            '#' if in_code => {
                let end = text[i..].find('\n').map_or(text.len(), |n| i + n);
                if !in_text {
                    out.push(text[i..end].trim_end().to_string());
                }
                while chars.peek().is_some_and(|(j, _)| *j < end) {
                    chars.next();
                }
            }
            '"' if braces == 0 => in_text = !in_text,
            '\\' if in_text && braces == 0 => {
                chars.next();
            }
            '{' if in_text => braces += 1,
            '}' if in_text && braces > 0 => braces -= 1,
            _ => {}
        }
    }
    out
}

#[test]
fn formatting_keeps_meaning_and_comments_and_is_idempotent() {
    let mut formatted = 0;
    for (name, text) in corpus() {
        let Some(before) = tree(&text) else {
            // A fixture or example that shows a syntax error: the formatter refuses it.
            assert!(
                format(FileId(0), &text).is_err(),
                "{name}: formats but does not parse"
            );
            continue;
        };
        let once = format(FileId(0), &text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let twice = format(FileId(0), &once).unwrap_or_else(|e| panic!("{name}, again: {e:?}"));
        assert_eq!(twice, once, "{name}: formatting twice differs from once");
        assert_eq!(tree(&once), Some(before), "{name}: the syntax tree changed");
        assert_eq!(comments(&once), comments(&text), "{name}: comments changed");
        assert!(
            once.ends_with('\n') && !once.ends_with("\n\n"),
            "{name}: ending"
        );
        assert!(!once.contains(" \n"), "{name}: trailing spaces");
        formatted += 1;
    }
    assert!(formatted > 40, "only {formatted} texts formatted");
}

#[test]
fn the_comment_finder_skips_texts() {
    let text = "log \"#1 {x # in braces\n} # still text\" # real\n# also real \n";
    assert_eq!(comments(text), ["# real", "# also real"]);
}

#[test]
fn the_examples_of_the_formatter_doc_are_formatted() {
    let examples = doc_examples("docs/tools.md");
    assert!(!examples.is_empty());
    for (line, text) in examples {
        let formatted = format(FileId(0), &text).unwrap_or_else(|e| panic!("line {line}: {e:?}"));
        assert_eq!(formatted, text, "docs/tools.md:{line} is not formatted");
    }
}

#[test]
fn a_shown_part_of_a_list_is_laid_out_and_kept() {
    let messy = "game \"M\" { players 2 }\nplayer   secret var mat: list of int = []   visible   last\n  owner.k\nplayer var k: int = 0\nvar row: list of int = [] visible when true visible first(2)\nflow { }\n";
    let formatted = format(FileId(0), messy).expect("formats");
    assert!(
        formatted.contains("player secret var mat: list of int = [] visible last\n  owner.k\n"),
        "{formatted}"
    );
    assert!(
        // `first(2)` as written: a name before `(` keeps whether a space was written.
        formatted.contains("var row: list of int = [] visible when true visible first(2)\n"),
        "{formatted}"
    );
    assert_eq!(tree(&formatted), tree(messy), "the same syntax tree");
    assert_eq!(format(FileId(0), &formatted).expect("formats"), formatted);
}

#[test]
fn a_map_by_a_range_with_bounded_entries_is_laid_out_and_kept() {
    let messy = "game \"M\" { players 2 }\nvar lanes :  int in 0 .. 7 by  1 .. 5 = [ 1,2,3,4,5 ]\nplayer var g: int by   -2..2=0\nflow { lanes[ 3 ] += 1 }\n";
    let formatted = format(FileId(0), messy).expect("formats");
    assert!(
        formatted.contains("var lanes: int in 0..7 by 1..5 = [1, 2, 3, 4, 5]\n"),
        "{formatted}"
    );
    assert!(
        formatted.contains("player var g: int by -2..2 = 0\n"),
        "{formatted}"
    );
    assert_eq!(tree(&formatted), tree(messy), "the same syntax tree");
    assert_eq!(format(FileId(0), &formatted).expect("formats"), formatted);
}

#[test]
fn reveal_and_conceal_are_laid_out_as_statements_and_kept() {
    // Neither word is reserved: a variable named `reveal` is still subtracted from.
    let messy = "game \"M\" { players 2 }\nkind card[2] { rank: int = index }\nvar reveal: int = 0\nflow {\n  let c = first(card)\n  reveal    c   conceal c\n  reveal=-1\n  reveal c  reveal = reveal -1\n}\n";
    let formatted = format(FileId(0), messy).expect("formats");
    assert!(
        formatted
            .contains("  reveal c  conceal c\n  reveal = -1\n  reveal c  reveal = reveal - 1\n"),
        "{formatted}"
    );
    assert_eq!(tree(&formatted), tree(messy), "the same syntax tree");
    assert_eq!(format(FileId(0), &formatted).expect("formats"), formatted);
}

#[test]
fn a_section_is_indented_as_a_block_and_kept() {
    let messy = "game \"M\" { players 2 }\nsection   \"Pot\"{\nvar pot: int = 0\n    player show rich = owner.k > 1   shown when owner.k > 0\n}\nplayer var k: int = 0\nflow { }\n";
    let formatted = format(FileId(0), messy).expect("formats");
    assert!(
        formatted.contains(
            "section \"Pot\" {\n  var pot: int = 0\n  player show rich = owner.k > 1 shown when owner.k > 0\n}\n"
        ),
        "{formatted}"
    );
    assert_eq!(tree(&formatted), tree(messy), "the same syntax tree");
    assert_eq!(format(FileId(0), &formatted).expect("formats"), formatted);
}

#[test]
fn every_file_in_rules_is_formatted() {
    let mut unformatted = Vec::new();
    for path in rules_files(&root().join("rules")) {
        let text = std::fs::read_to_string(&path).expect("readable rules file");
        match format(FileId(0), &text) {
            Ok(f) if f == text => {}
            _ => unformatted.push(rel(&path)),
        }
    }
    assert!(
        unformatted.is_empty(),
        "not formatted (run `cargo run -- fmt rules`): {unformatted:?}"
    );
}

/// A fresh, empty folder for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("meeple-format-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

const TIDY: &str =
    "game \"G\" { players 2 }\n\nflow {\n  turn first(players) # one turn\n}\n\naction go { }\n";
const MESSY: &str =
    "game \"G\" {players 2}\n\n\n\nflow {\nturn first(players) # one turn\n}\n\naction go {}   \n";

fn arg(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 temporary path")
}

#[test]
fn check_exits_0_when_formatted_and_1_when_not_and_changes_nothing() {
    let dir = temp_dir("check");
    let tidy = dir.join("tidy.rules");
    let messy = dir.join("sub").join("messy.rules");
    std::fs::create_dir_all(messy.parent().expect("a folder")).expect("sub folder");
    std::fs::write(&tidy, TIDY).expect("write");
    std::fs::write(&messy, MESSY).expect("write");

    let o = run(&["fmt", "--check", arg(&tidy)]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert_eq!(stdout(&o), "");

    let o = run(&["fmt", "--check", arg(&dir)]);
    assert_eq!(code(&o), 1, "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("would reformat") && out.contains("messy.rules"),
        "{out}"
    );
    assert!(!out.contains("tidy.rules"), "{out}");
    assert!(out.contains("-game \"G\" {players 2}") && out.contains("+game \"G\" { players 2 }"));
    assert_eq!(std::fs::read_to_string(&messy).expect("read"), MESSY);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fmt_rewrites_in_place_and_then_checks_clean() {
    let dir = temp_dir("rewrite");
    let messy = dir.join("messy.rules");
    let tidy = dir.join("tidy.rules");
    std::fs::write(&messy, MESSY).expect("write");
    std::fs::write(&tidy, TIDY).expect("write");

    let o = run(&["fmt", arg(&dir)]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("messy.rules") && !stdout(&o).contains("tidy.rules"));
    assert_eq!(std::fs::read_to_string(&messy).expect("read"), TIDY);
    assert_eq!(std::fs::read_to_string(&tidy).expect("read"), TIDY);
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .expect("list")
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(leftovers.len(), 2, "temporary files left: {leftovers:?}");

    let o = run(&["fmt", "--check", arg(&dir)]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_that_does_not_parse_is_reported_and_left_alone() {
    let dir = temp_dir("broken");
    let broken = dir.join("broken.rules");
    let text = "game \"G\" { players 2 }\nflow {  let = 3 }\n";
    std::fs::write(&broken, text).expect("write");
    for args in [vec!["fmt", "--check"], vec!["fmt"]] {
        let mut args = args;
        args.push(arg(&broken));
        let o = run(&args);
        assert_eq!(code(&o), 1, "{args:?}");
        let err = stderr(&o);
        assert!(
            err.contains("syntax-error") && err.contains("broken.rules:2"),
            "{err}"
        );
        assert!(err.contains("not formatted"), "{err}");
        assert_eq!(std::fs::read_to_string(&broken).expect("read"), text);
    }
    let o = run(&["fmt", "--check", arg(&dir.join("missing.rules"))]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("cannot read"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn links_are_written_through_and_linked_folders_not_followed() {
    use std::os::unix::fs::symlink;
    let dir = temp_dir("links");
    let outside = temp_dir("links-target");
    let target = outside.join("game.rules");
    std::fs::write(&target, MESSY).expect("write");
    let link = dir.join("link.rules");
    symlink(&target, &link).expect("a link to a file");
    symlink(&dir, dir.join("loop")).expect("a link to a folder");

    let o = run(&["fmt", arg(&dir)]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert_eq!(stdout(&o).matches("formatted").count(), 1, "{}", stdout(&o));
    assert!(std::fs::symlink_metadata(&link)
        .expect("the link")
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_to_string(&target).expect("read"), TIDY);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&outside);
}
