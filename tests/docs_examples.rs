//! Every example in `docs/language.md` is a rules file, and this test holds the document to it.
//!
//! A fenced block whose info string starts with `rules` is an example. Its info string may carry
//! comma-separated attributes:
//!
//! - `error=CODE`: the example shows a mistake; checking it must report CODE, and no other error.
//! - `runtime-error=CODE`: the example checks cleanly but stops with CODE when played.
//! - `file=PATH`: the example is stored at PATH, so that a later variant can name it as `base`.
//! - `with=PATH`: a variant stacked on this example, as `--variant PATH` would (repeatable).
//! - `norun`: check only; do not play it.
//!
//! Every other example must check with no errors (warnings are allowed), pass every scenario it
//! declares, and play to its end with random bots, for every player count it allows, on a few
//! seeds. Blocks fenced as `rules-sketch` show planned syntax and are not tested. A failure names
//! the line of the block in `docs/language.md`.

use meeple::engine::{Game, MoveError, Viewer};
use meeple::load::{check_source, load_with, Loaded};
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

const DOC: &str = "docs/language.md";
const SEEDS: u64 = 3;

/// One fenced ```rules block of the document.
struct Example {
    /// Line of the opening fence, 1-based.
    line: usize,
    text: String,
    expect_error: Option<String>,
    expect_runtime_error: Option<String>,
    file: Option<PathBuf>,
    with: Vec<PathBuf>,
    run: bool,
}

fn doc_text() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(DOC);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {DOC}: {e}"))
}

fn examples(doc: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut open: Option<Example> = None;
    let mut in_other_fence = false;
    for (i, line) in doc.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(ex) = open.as_mut() {
            if trimmed.starts_with("```") {
                out.push(open.take().expect("an open block"));
            } else {
                ex.text.push_str(line);
                ex.text.push('\n');
            }
            continue;
        }
        let Some(info) = trimmed.strip_prefix("```") else {
            continue;
        };
        if in_other_fence {
            in_other_fence = false;
            continue;
        }
        let mut attrs = info.trim().split(',').map(str::trim);
        if attrs.next() != Some("rules") {
            in_other_fence = true;
            continue;
        }
        let mut ex = Example {
            line: i + 1,
            text: String::new(),
            expect_error: None,
            expect_runtime_error: None,
            file: None,
            with: Vec::new(),
            run: true,
        };
        for attr in attrs {
            match attr.split_once('=') {
                Some(("error", code)) => ex.expect_error = Some(code.to_string()),
                Some(("runtime-error", code)) => ex.expect_runtime_error = Some(code.to_string()),
                Some(("file", path)) => ex.file = Some(PathBuf::from(path)),
                Some(("with", path)) => ex.with.push(PathBuf::from(path)),
                None if attr == "norun" => ex.run = false,
                _ => panic!("{DOC}:{}: unknown attribute `{attr}`", i + 1),
            }
        }
        open = Some(ex);
    }
    assert!(open.is_none(), "{DOC}: a ```rules block is never closed");
    out
}

/// `a/../b.rules` → `b.rules`, so that the files of examples can name each other.
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

fn load(ex: &Example, files: &BTreeMap<PathBuf, String>) -> Loaded {
    match &ex.file {
        None if ex.with.is_empty() => {
            check_source(&format!("language.md-line-{}.rules", ex.line), &ex.text)
        }
        own => {
            let path = own
                .clone()
                .unwrap_or_else(|| PathBuf::from(format!("language.md-line-{}.rules", ex.line)));
            let mut files = files.clone();
            files.insert(normalize(&path), ex.text.clone());
            load_with(&path, &ex.with, &move |p: &Path| {
                files.get(&normalize(p)).cloned().ok_or_else(|| {
                    std::io::Error::new(std::io::ErrorKind::NotFound, "no such example file")
                })
            })
        }
    }
}

fn describe(loaded: &Loaded) -> String {
    loaded
        .diagnostics
        .0
        .iter()
        .map(|d| {
            let (line, col) = loaded.sources.line_col(d.span);
            let file = &loaded.sources.file(d.span.file).name;
            format!("    [{}] {} ({file}:{line}:{col})", d.code, d.message)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Plays the game with random bots at every allowed player count; the first runtime error code.
fn play(program: Arc<meeple::ir::Program>) -> Result<(), (String, String)> {
    for players in program.min_players..=program.max_players {
        for seed in 1..=SEEDS {
            let where_ = format!("{players} players, seed {seed}");
            let result = meeple::sim::random_game(program.clone(), players, seed);
            match result {
                Ok(_) => {}
                Err(meeple::sim::SimError::Start(e)) => {
                    return Err((e.code.to_string(), format!("{where_}: {e}")))
                }
                Err(meeple::sim::SimError::Move(MoveError::Runtime(e))) => {
                    return Err((e.code.to_string(), format!("{where_}: {e}")))
                }
                Err(e) => return Err(("move".to_string(), format!("{where_}: {e}"))),
            }
        }
    }
    Ok(())
}

fn check_example(ex: &Example, files: &BTreeMap<PathBuf, String>) -> Result<(), String> {
    let loaded = load(ex, files);
    let errors: Vec<&str> = loaded
        .diagnostics
        .0
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.code)
        .collect();
    if let Some(code) = &ex.expect_error {
        if !errors.contains(&code.as_str()) {
            return Err(format!(
                "expected an error `{code}`, got:\n{}",
                describe(&loaded)
            ));
        }
        if errors.iter().any(|e| e != code) {
            return Err(format!(
                "expected only `{code}` errors, got:\n{}",
                describe(&loaded)
            ));
        }
        return Ok(());
    }
    if !errors.is_empty() {
        return Err(format!("expected no errors, got:\n{}", describe(&loaded)));
    }
    let program = Arc::new(loaded.program.expect("no errors, so a program"));
    for report in meeple::scenario::run_all(&program) {
        if let Some(d) = &report.failure {
            return Err(format!(
                "scenario \"{}\" failed: [{}] {}: {}",
                report.title, d.code, d.message, d.label
            ));
        }
    }
    match (&ex.expect_runtime_error, ex.run) {
        (Some(code), _) => match play(program) {
            Err((got, _)) if &got == code => Ok(()),
            Err((_, msg)) => Err(format!("expected runtime error `{code}`, got {msg}")),
            Ok(()) => Err(format!(
                "expected runtime error `{code}`, but every game ended"
            )),
        },
        (None, true) => play(program).map_err(|(_, msg)| format!("stopped while playing: {msg}")),
        (None, false) => Ok(()),
    }
}

#[test]
fn every_rules_example_in_the_language_reference_is_right() {
    let doc = doc_text();
    let examples = examples(&doc);
    assert!(
        examples.len() >= 40,
        "{DOC}: found only {} ```rules blocks",
        examples.len()
    );
    let files: BTreeMap<PathBuf, String> = examples
        .iter()
        .filter_map(|e| Some((normalize(e.file.as_ref()?), e.text.clone())))
        .collect();
    let failures: Vec<String> = examples
        .iter()
        .filter_map(|ex| {
            check_example(ex, &files)
                .err()
                .map(|why| format!("{DOC}:{}: {why}", ex.line))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} examples failed:\n\n{}",
        failures.len(),
        examples.len(),
        failures.join("\n\n")
    );
}

/// Kebab-case codes given to `Diagnostic::error`, `Diagnostic::warning` and runtime errors in
/// `src/`.
fn codes_in_source() -> Vec<String> {
    fn walk(dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("src is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("a source file");
                for opener in [
                    "Diagnostic::error(",
                    "Diagnostic::warning(",
                    "err(",
                    "RuntimeError::new(",
                ] {
                    for (at, _) in text.match_indices(opener) {
                        let rest = text[at + opener.len()..].trim_start();
                        let Some(rest) = rest.strip_prefix('"') else {
                            continue;
                        };
                        let code: String = rest.chars().take_while(|c| *c != '"').collect();
                        if !code.is_empty()
                            && code.chars().all(|c| c.is_ascii_lowercase() || c == '-')
                        {
                            out.push(code);
                        }
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut out);
    out.sort();
    out.dedup();
    out
}

#[test]
fn every_diagnostic_code_is_in_the_language_reference() {
    let doc = doc_text();
    let codes = codes_in_source();
    assert!(codes.len() > 20, "found only {} codes in src/", codes.len());
    let missing: Vec<&String> = codes
        .iter()
        .filter(|c| !doc.contains(&format!("| `{c}` |")))
        .collect();
    assert!(
        missing.is_empty(),
        "{DOC} has no table row `| `code` |` for: {missing:?}"
    );
}

fn example_file(doc: &str, name: &str) -> Arc<meeple::ir::Program> {
    let ex = examples(doc)
        .into_iter()
        .find(|e| e.file.as_deref() == Some(Path::new(name)))
        .unwrap_or_else(|| panic!("{DOC} has no example `file={name}`"));
    let loaded = check_source(name, &ex.text);
    Arc::new(
        loaded
            .program
            .unwrap_or_else(|| panic!("{name} does not check")),
    )
}

/// The reference quotes the engine's own words for a refusal; they must still be its words.
#[test]
fn the_quoted_refusal_is_what_the_engine_says() {
    let doc = doc_text();
    let game = Game::new(example_file(&doc, "market.rules"), 2, 1).expect("the game starts");
    let why = game.why(0, "buy 3 grain").expect("buy 3 grain is refused");
    assert!(
        doc.contains(&why),
        "{DOC} should quote the refusal as the engine words it: {why}"
    );
}

/// The reference quotes players' views; they must still be what those players see.
#[test]
fn the_quoted_views_are_what_the_players_see() {
    let doc = doc_text();
    let in_doc: String = doc.lines().map(|l| format!("{l}\n")).collect();
    for (file, players, seed, seat) in [
        ("peek.rules", 2, 1, 1),
        ("show.rules", 2, 1, 0),
        ("gems.rules", 2, 1, 0),
    ] {
        let game = Game::new(example_file(&doc, file), players, seed).expect("the game starts");
        let view = game.view(Viewer::Player(seat));
        let quoted: String = view.lines().map(|l| format!("{l}\n")).collect();
        assert!(
            in_doc.contains(&quoted),
            "{DOC} should quote P{}'s view of {file} exactly:\n{view}",
            seat + 1
        );
    }
}

/// The view quoted after a flip in "Part of a list" is what P2 sees.
#[test]
fn the_quoted_view_of_a_part_of_a_list_is_what_the_player_sees() {
    let doc = doc_text();
    let mut game = Game::new(example_file(&doc, "mat.rules"), 2, 1).expect("the game starts");
    game.apply_label(0, "flip").expect("P1 flips");
    let view = game.view(Viewer::Player(1));
    assert!(view.contains("mat [?, ?, rose]"), "{view}");
    let quoted: String = view.lines().map(|l| format!("{l}\n")).collect();
    let in_doc: String = doc.lines().map(|l| format!("{l}\n")).collect();
    assert!(
        in_doc.contains(&quoted),
        "{DOC} should quote P2's view of mat.rules after a flip exactly:\n{view}"
    );
}

/// The view quoted in "A field of a record seen by fewer" is what P2 sees after P1's hint.
#[test]
fn the_quoted_view_of_a_field_seen_by_fewer_is_what_the_player_sees() {
    let doc = doc_text();
    let mut game = Game::new(example_file(&doc, "held.rules"), 2, 1).expect("the game starts");
    game.apply_label(0, "hint 2").expect("P1 hints");
    let view = game.view(Viewer::Player(1));
    assert!(view.contains("slot(card: ?, told: no)"), "{view}");
    assert_quoted(&doc, &view, "P2's view of held.rules after a hint");
}

/// The view quoted in "Face up wherever it lies" is what P2 sees after P1 flashes a card: the
/// card in the middle of P1's secret hand, face up where it lies.
#[test]
fn the_quoted_view_of_a_revealed_card_is_what_the_player_sees() {
    let doc = doc_text();
    let mut game = Game::new(example_file(&doc, "flash.rules"), 2, 1).expect("the game starts");
    game.apply_label(0, "flash 5").expect("P1 flashes the 5");
    let view = game.view(Viewer::Player(1));
    assert!(view.contains("P1: hand [?, 5, ?]"), "{view}");
    assert_quoted(
        &doc,
        &view,
        "P2's view of flash.rules after P1 flashes the 5",
    );
    let public = game.view(Viewer::Spectator);
    assert!(public.contains("P1: hand [?, 5, ?]"), "{public}");
}

/// The view quoted in "Maps by a player" is what P2 sees once P1 has lent to P2: its own
/// secret map whole, the others' hidden.
#[test]
fn the_quoted_view_of_a_map_by_player_is_what_the_player_sees() {
    let doc = doc_text();
    let mut game = Game::new(example_file(&doc, "debts.rules"), 3, 1).expect("the game starts");
    game.apply_label(0, "lend P2").expect("P1 lends to P2");
    let view = game.view(Viewer::Player(1));
    assert!(view.contains("knows P1 yes, P2 no, P3 no"), "{view}");
    assert_quoted(&doc, &view, "P2's view of debts.rules after P1 lends");
}

/// The log line quoted in "Maps by a kind" is what the game writes once P1 has played
/// `red#2`, and P2 sees P1's secret map as its size alone.
#[test]
fn the_quoted_log_of_a_map_by_a_kind_is_what_the_game_writes() {
    let doc = doc_text();
    let mut game = Game::new(example_file(&doc, "marks.rules"), 2, 1).expect("the game starts");
    game.apply_label(0, "mark red#2").expect("P1 plays red#2");
    let line = "P1 plays red#2: red 0, blue 0, red#2 1, blue#2 0";
    let log = game.log(Viewer::Player(1)).join("\n");
    assert!(log.contains(line), "{log}");
    assert!(
        doc.contains(&format!("`{line}`")),
        "the reference quotes `{line}`"
    );
    let view = game.view(Viewer::Player(1));
    assert!(view.contains("seen 4 hidden"), "{view}");
    assert!(!view.contains("red#2 yes"), "{view}");
}

/// `view`, whole lines, is quoted in the reference.
fn assert_quoted(doc: &str, view: &str, what: &str) {
    let quoted: String = view.lines().map(|l| format!("{l}\n")).collect();
    let in_doc: String = doc.lines().map(|l| format!("{l}\n")).collect();
    assert!(
        in_doc.contains(&quoted),
        "{DOC} should quote {what} exactly:\n{view}"
    );
}

/// The view quoted in "Drawn only where it matters" is what P1 sees after a bet and a pass, and
/// at the start the entries whose `shown when` fails are not drawn, for any viewer.
#[test]
fn the_quoted_view_of_entries_drawn_when_they_matter_is_what_the_player_sees() {
    let doc = doc_text();
    let game = Game::new(example_file(&doc, "drawn.rules"), 2, 1).expect("the game starts");
    for viewer in [Viewer::Player(0), Viewer::Player(1), Viewer::Spectator] {
        let start = game.view(viewer);
        for absent in ["pot", "passed", "chips", "spent"] {
            assert!(
                !start.contains(absent),
                "{absent} drawn at the start:\n{start}"
            );
        }
        assert!(start.contains("rich no"), "{start}");
    }
    let view = quoted_view_after_a_bet_and_a_pass(&doc, game, "drawn.rules");
    // P2 passed: their `rich` is no longer drawn, though the rules still read it.
    assert!(!view.contains("P2: coins 0 · passed yes · rich"), "{view}");
}

/// P1's view of `game` (the docs' example `file`) after P1 bets and P2 passes, which the docs
/// must quote.
fn quoted_view_after_a_bet_and_a_pass(doc: &str, mut game: Game, file: &str) -> String {
    game.apply_label(0, "bet").expect("P1 bets");
    game.apply_label(1, "pass").expect("P2 passes");
    let view = game.view(Viewer::Player(0));
    assert_quoted(
        doc,
        &view,
        &format!("P1's view of {file} after a bet and a pass"),
    );
    view
}

/// The view quoted in "Headings that group entries" is what P1 sees after a bet and a pass: the
/// sections' entries under their headings, and on no flat line.
#[test]
fn the_quoted_view_of_sections_is_what_the_player_sees() {
    let doc = doc_text();
    let game = Game::new(example_file(&doc, "ledger.rules"), 2, 1).expect("the game starts");
    let view = quoted_view_after_a_bet_and_a_pass(&doc, game, "ledger.rules");
    assert!(view.contains("  Pot:\n    pot 1 · rounds 1"), "{view}");
}

/// The view quoted in "A row per position" is what P2 sees after P1's clue; each seat reads its
/// own hand's cells as `?` and the other's as numbers, an onlooker reads both as `?`, and the
/// cells are the lists' elements in order.
#[test]
fn the_quoted_table_of_a_hand_is_what_the_player_sees_and_hides_cell_by_cell() {
    let doc = doc_text();
    let mut game =
        Game::new(example_file(&doc, "hand_table.rules"), 2, 1).expect("the game starts");
    game.apply_label(0, "clue 2").expect("P1 gives a clue");
    let view = game.view(Viewer::Player(1));
    assert_quoted(&doc, &view, "P2's view of hand_table.rules after a clue");
    let hand = |p: u8| -> Vec<String> {
        let i = game
            .program()
            .player_vars
            .iter()
            .position(|v| v.name == "hand")
            .expect("a hand");
        match game.state().player_vars.get(p as usize, i) {
            meeple::ir::Value::List(xs) => xs
                .iter()
                .map(|x| meeple::engine::show(game.program(), game.state(), x))
                .collect(),
            other => panic!("a list, not {other:?}"),
        }
    };
    // The rows of a seat's table in a view: the first cell after the row number.
    let hand_column = |view: &str, seat: &str| -> Vec<String> {
        let block = view
            .split(&format!("    {seat}"))
            .nth(1)
            .expect("the seat's table");
        block
            .lines()
            .skip(2)
            .take_while(|l| l.starts_with("      "))
            .map(|l| l.split_whitespace().nth(1).unwrap_or("").to_string())
            .collect()
    };
    let hidden = vec!["?".to_string(); 3];
    for (viewer, own, other) in [(0u8, "P1 (you):", "P2:"), (1, "P2 (you):", "P1:")] {
        let view = game.view(Viewer::Player(viewer));
        assert_eq!(hand_column(&view, own), hidden, "{view}");
        assert_eq!(hand_column(&view, other), hand(1 - viewer), "{view}");
    }
    let public = game.view(Viewer::Spectator);
    for seat in ["P1:", "P2:"] {
        assert_eq!(hand_column(&public, seat), hidden, "{public}");
    }
}

#[test]
fn the_readme_example_is_right() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let readme = std::fs::read_to_string(&path).expect("README.md");
    let examples = examples(&readme);
    assert!(!examples.is_empty(), "README.md has no ```rules example");
    for ex in &examples {
        if let Err(why) = check_example(ex, &BTreeMap::new()) {
            panic!("README.md:{}: {why}", ex.line);
        }
    }
}
