//! `meeple doc`: snapshots of the rulebook of every rules file (games and variants) and of one
//! HTML page; every action and every reason a rule gives for refusing a move is in its book; the
//! book never shows the program's insides; and the command line's exit codes and outputs.

mod common;

use common::{code, rel, root, run, stderr, stdout};
use meeple::load::load_merged_with;
use meeple::rulebook::{render, rulebook_with, Book};
use meeple::syntax::ast::{Decl, StmtKind, TextPart};
use std::path::{Path, PathBuf};

/// Reads files relative to the package root, so that every path in a book is relative too.
fn read(p: &Path) -> std::io::Result<String> {
    std::fs::read_to_string(root().join(p))
}

/// The book of a rules file (a path relative to the package), which must check.
fn book(path: &str, variants: &[&str]) -> Book {
    let variants: Vec<PathBuf> = variants.iter().map(PathBuf::from).collect();
    let (book, loaded) = rulebook_with(Path::new(path), &variants, &read);
    match book {
        Some(b) => b,
        None => panic!("{path} does not check: {:?}", loaded.diagnostics.0),
    }
}

#[test]
fn rulebooks_of_every_rules_file() {
    let mut files = 0;
    insta::with_settings!({ snapshot_path => "snapshots", prepend_module_to_snapshot => true }, {
        insta::glob!("../rules", "**/*.rules", |path| {
            files += 1;
            let text = render::text(&book(&rel(path), &[]));
            insta::assert_snapshot!("text", text);
        });
    });
    assert!(files >= 11, "found {files} rules files");
}

#[test]
fn an_html_rulebook() {
    let html = render::html(&book("rules/cheaters_game.rules", &[]));
    assert!(html.starts_with("<!DOCTYPE html>"));
    insta::with_settings!({ snapshot_path => "snapshots", prepend_module_to_snapshot => true }, {
        insta::assert_snapshot!("html_cheaters_game", html);
    });
}

#[test]
fn a_rulebook_of_stacked_variants_names_both() {
    let b = book(
        "rules/share_and_share_alike/carnival.rules",
        &["rules/share_and_share_alike/on_the_floor.rules"],
    );
    let text = render::text(&b);
    assert!(text.starts_with("# Share & Share Alike — Carnival, On The Floor\n"));
    let carnival = text.find("### Carnival").expect("a Carnival section");
    let floor = text
        .find("### On The Floor")
        .expect("an On The Floor section");
    assert!(carnival < floor, "in the order applied");
}

#[test]
fn a_variant_of_a_variant_says_what_it_builds_on() {
    let shorter = render::text(&book("tests/fixtures/ok/variants/shorter_race.rules", &[]));
    assert!(shorter.starts_with("# Dice Race — Short Race, Shorter Race\n"));
    let short = shorter
        .find("### Short Race")
        .expect("a Short Race section");
    let outer = shorter
        .find("### Shorter Race")
        .expect("a Shorter Race section");
    assert!(short < outer, "the inner variant first, as applied");
    assert!(
        shorter[outer..].contains("It builds on the variant Short Race in `short_race.rules`"),
        "{shorter}"
    );
    assert!(shorter[short..outer].contains("A variant of the game in `base.rules`."));
}

/// Every action's name, and every literal piece of every `require` reason, of a merged game.
fn names_and_reasons(path: &str) -> (Vec<String>, Vec<String>) {
    let (_, merged) = load_merged_with(Path::new(path), &[], &read);
    let merged = merged.expect("the files parse");
    let mut names = Vec::new();
    let mut reasons = Vec::new();
    for d in &merged.decls {
        let Decl::Action(a) = d else { continue };
        names.push(a.name.text.clone());
        for s in &a.body.stmts {
            if let StmtKind::Require { reason, .. } = &s.kind {
                for part in &reason.parts {
                    if let TextPart::Lit(piece) = part {
                        if !piece.trim().is_empty() {
                            reasons.push(piece.clone());
                        }
                    }
                }
            }
        }
    }
    (names, reasons)
}

#[test]
fn every_action_and_every_reason_is_in_the_book() {
    for path in common::all_rules() {
        let name = rel(&path);
        let text = render::text(&book(&name, &[]));
        let html = render::html(&book(&name, &[]));
        let (actions, reasons) = names_and_reasons(&name);
        for a in &actions {
            assert!(
                text.contains(&format!("### {a}")),
                "{name}: action `{a}` has no section"
            );
        }
        for r in &reasons {
            assert!(
                text.contains(r.as_str()),
                "{name}: reason piece `{r}` is missing"
            );
            let escaped = render::escape(r);
            assert!(
                html.contains(&escaped),
                "{name}: reason piece `{r}` is missing in HTML"
            );
        }
    }
}

/// The line that makes a phone show a page at its own width.
const VIEWPORT: &str = "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">";

/// Words that only the program's insides would print.
const INSIDES: &[&str] = &[
    "Span {", "span:", "ExprKind", "StmtKind", "Name {", "Some(", "Lit(",
];

#[test]
fn books_of_valid_fixtures_show_no_insides() {
    let mut files = common::rules_under("tests/fixtures/ok");
    files.extend(common::all_rules());
    let (mut drawn, mut tables) = (0, 0);
    for path in files {
        let name = rel(&path);
        let variants: Vec<PathBuf> = Vec::new();
        let (Some(b), _) = rulebook_with(Path::new(&name), &variants, &read) else {
            continue; // a base that needs a variant, or a file about another feature
        };
        drawn += 1;
        let text = render::text(&b);
        for inside in INSIDES {
            assert!(!text.contains(inside), "{name}: `{inside}` in\n{text}");
        }
        // A designer's def, effect or phase is called in words, never as code:
        // "the number of business_values() of them" read as a program.
        for (i, _) in text.match_indices('(') {
            let word: String = text[..i]
                .chars()
                .rev()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            // (A text of the rules may say "share(s)"; a call has brackets right after a name
            // with an underscore, or empty ones.)
            let call = !word.is_empty() && (word.contains('_') || text[i..].starts_with("()"));
            assert!(
                !call,
                "{name}: a call written as code: {}",
                text[i.saturating_sub(30)..(i + 10).min(text.len())].replace('\n', " ")
            );
        }
        let html = render::html(&b);
        assert!(html.starts_with("<!DOCTYPE html>") && html.ends_with("</html>\n"));
        assert!(!html.contains("<script"), "{name}: a script in the page");
        // On a phone: the page at the phone's width, and every table scrolling by itself.
        assert!(html.contains(VIEWPORT), "{name}: no viewport");
        assert_eq!(
            html.matches("<table>").count(),
            html.matches("<div class=\"scroll\">\n<table>").count(),
            "{name}: a table not wrapped"
        );
        tables += html.matches("<table>").count();
    }
    assert!(tables > 0, "some book has a table");
    assert!(drawn >= 11, "drew {drawn} books");
}

#[test]
fn html_escapes_everything() {
    let dir = std::env::temp_dir().join(format!("meeple-doc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("esc.rules");
    std::fs::write(
        &file,
        "game \"<b>Bold</b> & 'Co'\" { players 2 }\n\
         player var coins: int = 0\n\
         flow { for p in players { turn p } }\n\
         # a <note> & more\n\
         action take \"Take <script>alert(1)</script>\" {\n\
           require me.coins < 3 else \"no more than 3 <coins> & \\\"that\\\" is it\"\n\
           me.coins += 1\n\
         }\n",
    )
    .expect("written");
    let (b, loaded) = meeple::rulebook::rulebook(&file, &[]);
    let b = b.unwrap_or_else(|| panic!("{:?}", loaded.diagnostics.0));
    let html = render::html(&b);
    assert!(!html.contains("<b>Bold") && !html.contains("<script>") && !html.contains("<coins>"));
    assert!(html.contains("&lt;b&gt;Bold&lt;/b&gt; &amp; &#39;Co&#39;"));
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(html.contains("a &lt;note&gt; &amp; more"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cli_doc_prints_text_and_html_and_fails_on_a_broken_file() {
    let out = run(&["doc", "rules/cheaters_game.rules"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // The first line marks a rulebook that `-o` may write over (a comment in Markdown).
    assert!(stdout(&out).starts_with("<!-- meeple doc -->\n# Cheater's Game\n"));
    assert_eq!(
        stdout(&out),
        format!(
            "<!-- meeple doc -->\n{}",
            render::text(&book("rules/cheaters_game.rules", &[]))
        )
    );

    let out = run(&["doc", "rules/cheaters_game.rules", "--html"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).starts_with("<!DOCTYPE html>"));
    assert!(stdout(&out).contains(VIEWPORT));

    let out = run(&[
        "doc",
        "rules/share_and_share_alike.rules",
        "--variant",
        "rules/share_and_share_alike/loose_lips.rules",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("### Loose Lips"));

    let out = run(&["doc", "tests/fixtures/err/type_mismatch.rules"]);
    assert_eq!(code(&out), 1);
    assert!(stdout(&out).is_empty(), "no book for a broken file");
    assert!(stderr(&out).contains("type-mismatch"), "{}", stderr(&out));
    assert!(stderr(&out).contains("failed (1 error"), "{}", stderr(&out));

    let out = run(&["doc", "no/such/file.rules"]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("file-not-found"), "{}", stderr(&out));

    let out = run(&["doc"]);
    assert_eq!(code(&out), 2, "a missing FILE is a usage error");

    let out = run(&["doc", "--help"]);
    assert_eq!(code(&out), 0);
    assert!(stdout(&out).contains("--html") && stdout(&out).contains("--variant"));
}

#[test]
fn cli_doc_writes_to_a_file() {
    let dir = std::env::temp_dir().join(format!("meeple-doc-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let target = dir.join("book.html");
    let target_s = target.to_string_lossy().to_string();
    let out = run(&["doc", "rules/small_print.rules", "--html", "-o", &target_s]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
    let page = std::fs::read_to_string(&target).expect("the page is written");
    assert!(page.starts_with("<!DOCTYPE html>"));
    let out = run(&[
        "doc",
        "rules/small_print.rules",
        "-o",
        &dir.join("none/x.md").to_string_lossy(),
    ]);
    assert_eq!(code(&out), 1, "an unwritable output fails");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The complete, valid examples of the language reference (```rules boxes without a file name
/// or an expected error), each as its text.
fn reference_examples() -> Vec<String> {
    let doc = std::fs::read_to_string(root().join("docs/language.md")).expect("the reference");
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in doc.lines() {
        match &mut current {
            None if line == "```rules" => current = Some(String::new()),
            Some(_) if line == "```" => out.extend(current.take()),
            Some(text) => {
                text.push_str(line);
                text.push('\n');
            }
            None => {}
        }
    }
    out
}

#[test]
fn every_example_of_the_language_reference_has_a_book() {
    let dir = std::env::temp_dir().join(format!("meeple-doc-ex-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let examples = reference_examples();
    assert!(examples.len() >= 20, "found {} examples", examples.len());
    for (i, text) in examples.iter().enumerate() {
        let file = dir.join(format!("example{i}.rules"));
        std::fs::write(&file, text).expect("written");
        let (b, loaded) = meeple::rulebook::rulebook(&file, &[]);
        let b = b.unwrap_or_else(|| {
            panic!(
                "example {i} does not check: {:?}\n{text}",
                loaded.diagnostics.0
            )
        });
        let book = render::text(&b);
        for inside in INSIDES {
            assert!(!book.contains(inside), "example {i}: `{inside}` in\n{book}");
        }
        assert!(render::html(&b).starts_with("<!DOCTYPE html>"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_variant_that_removes_a_part_a_game_has_once_names_it_once() {
    let base = "game \"G\" { players 2 }\nvar pot: int = 0\nflow { for p in players { turn p } }\n\
                action add \"Add one\" { pot += 1 }\nscore(p) = pot\ngoal(p) = pot\n";
    let variant = "variant \"Aimless\" { base \"base.rules\" }\nremove goal\n";
    let files = |p: &Path| -> std::io::Result<String> {
        match p.file_name().and_then(|n| n.to_str()) {
            Some("base.rules") => Ok(base.to_string()),
            Some("aimless.rules") => Ok(variant.to_string()),
            _ => Err(std::io::ErrorKind::NotFound.into()),
        }
    };
    let (book, loaded) = rulebook_with(Path::new("aimless.rules"), &[], &files);
    let book = book.unwrap_or_else(|| panic!("checks: {:?}", loaded.diagnostics.0));
    let text = render::text(&book);
    assert!(text.contains("removes the goal"), "{text}");
    assert!(!text.contains("goal goal"), "{text}");
    assert!(!text.contains("Goal:"), "the goal is gone: {text}");
}

#[test]
fn a_reveal_is_said_where_it_is_written_and_among_what_is_hidden() {
    let text = render::text(&book("tests/fixtures/ok/flashed_hand.rules", &[]));
    for line in [
        "turn shown face up: everyone sees it, wherever it lies, until it is concealed",
        "turn c face up: everyone sees it, wherever it lies, until it is concealed",
        "turn c face down again: only those who may see where it lies see it",
        "in action flash, c is turned face up: everyone sees it, and where it lies, even in a \
         hidden place, until it is concealed",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
}
