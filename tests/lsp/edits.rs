//! Answers that change the text: formatting, and the quick fixes of diagnostics.

use super::{pos, scratch, uri, Client};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;

/// `text` with LSP text edits applied (positions in UTF-16 units), the last first.
fn apply(text: &str, edits: &Value) -> String {
    let offset = |p: &Value| {
        let (line, character) = (
            p["line"].as_u64().unwrap(),
            p["character"].as_u64().unwrap(),
        );
        let start: usize = text
            .split_inclusive('\n')
            .take(line as usize)
            .map(str::len)
            .sum();
        let mut units = 0;
        for (i, c) in text[start..].char_indices() {
            if units >= character || c == '\n' {
                return start + i;
            }
            units += c.len_utf16() as u64;
        }
        text.len()
    };
    let mut edits: Vec<(usize, usize, &str)> = edits
        .as_array()
        .expect("a list of edits")
        .iter()
        .map(|e| {
            let r = &e["range"];
            (
                offset(&r["start"]),
                offset(&r["end"]),
                e["newText"].as_str().unwrap(),
            )
        })
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_string();
    for (start, end, new) in edits {
        out.replace_range(start..end, new);
    }
    out
}

fn open(client: &mut Client, doc: &str, text: &str) -> Vec<Value> {
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": doc, "languageId": "meeple", "version": 1, "text": text}}),
    );
    client.diagnostics(doc)
}

fn change(client: &mut Client, doc: &str, version: i32, text: &str) -> Vec<Value> {
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": doc, "version": version}, "contentChanges": [{"text": text}]}),
    );
    client.diagnostics(doc)
}

fn format(client: &mut Client, doc: &str) -> Value {
    client.call(
        "textDocument/formatting",
        json!({"textDocument": {"uri": doc}, "options": {"tabSize": 8, "insertSpaces": false}}),
    )
}

/// What `meeple fmt` writes for `text`, through a file of its own.
fn meeple_fmt(dir: &Path, text: &str) -> String {
    let file = dir.join("by_fmt.rules");
    std::fs::write(&file, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_meeple"))
        .arg("fmt")
        .arg(&file)
        .output()
        .expect("meeple fmt runs");
    assert!(out.status.success(), "{out:?}");
    std::fs::read_to_string(&file).unwrap()
}

#[test]
fn formatting_writes_what_meeple_fmt_writes() {
    let dir = scratch("formatting");
    let mut client = Client::start();
    let caps = client.call(
        "initialize",
        json!({"processId": null, "rootUri": uri(&dir), "capabilities": {}}),
    );
    assert_eq!(caps["capabilities"]["documentFormattingProvider"], true);
    client.notify("initialized", json!({}));

    // A rules file of the repository with its indentation undone and some lines pushed right.
    let original = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/small_print.rules"),
    )
    .unwrap();
    let messy: String = original
        .lines()
        .enumerate()
        .map(|(i, l)| format!("{}{}\n", " ".repeat(i % 3 * 3), l.trim_start()))
        .collect();
    assert_ne!(messy, original);
    let doc = uri(&dir.join("messy.rules"));
    open(&mut client, &doc, &messy);
    let edits = format(&mut client, &doc);
    assert_eq!(edits.as_array().map(Vec::len), Some(1), "{edits}");
    let formatted = apply(&messy, &edits);
    assert_eq!(formatted, meeple_fmt(&dir, &messy));
    assert_ne!(formatted, messy);

    // Formatted already: no edit.
    change(&mut client, &doc, 2, &formatted);
    assert_eq!(format(&mut client, &doc), json!([]));

    // A document that does not parse: no edits, and the server goes on answering.
    let broken = formatted.replacen("{", "{ (", 1);
    let diags = change(&mut client, &doc, 3, &broken);
    assert_eq!(diags[0]["code"], "syntax-error", "{diags:?}");
    assert_eq!(format(&mut client, &doc), json!([]));
    // Text of characters of two UTF-16 units, badly laid out: the edit covers all of it.
    let dice = "game \"🎲🎲\" { players 2 }\n  player var coins: int = 0\naction take \"🎲\" {\n me.coins += 1\n}\nflow {\n  repeat 2 {\n    for p in players {\n      turn p\n    }\n  }\n}\nwinners = players # 🎲🎲";
    change(&mut client, &doc, 4, dice);
    let edits = format(&mut client, &doc);
    assert_eq!(edits[0]["range"]["end"], pos(12, 24), "{edits}");
    assert_eq!(apply(dice, &edits), meeple_fmt(&dir, dice));
    // A document never opened: no edits.
    let elsewhere = uri(&dir.join("never_opened.rules"));
    assert_eq!(format(&mut client, &elsewhere), json!([]));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The quick fixes offered over a diagnostic's range (over a range if `diagnostic` is one).
fn fixes(client: &mut Client, doc: &str, diagnostic: &Value, only: Option<&str>) -> Vec<Value> {
    let given: Vec<&Value> = [diagnostic]
        .into_iter()
        .filter(|d| d.get("message").is_some())
        .collect();
    let mut context = json!({"diagnostics": given});
    if let Some(kind) = only {
        context["only"] = json!([kind]);
    }
    let actions = client.call(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": doc}, "range": diagnostic["range"], "context": context}),
    );
    actions.as_array().cloned().unwrap_or_default()
}

const GAME: &str = "game \"Fixes\" { players 2 }
player var points: int = 0
action take \"Take\" {
  me.points += 1
  log \"🎲 {me.points}\"
}
flow {
  repeat 3 {
    for p in players {
      turn p
    }
  }
}
winners = [p in players where p.points > 2]
";

#[test]
fn a_quick_fix_applies_the_suggestion() {
    let dir = scratch("quickfix");
    let mut client = Client::start();
    let caps = client.call(
        "initialize",
        json!({"processId": null, "rootUri": uri(&dir), "capabilities": {}}),
    );
    assert_eq!(
        caps["capabilities"]["codeActionProvider"]["codeActionKinds"],
        json!(["quickfix"])
    );
    client.notify("initialized", json!({}));
    let doc = uri(&dir.join("game.rules"));
    assert_eq!(open(&mut client, &doc, GAME), Vec::<Value>::new());

    // `pionts` after a die of two UTF-16 units.
    let text = GAME.replace("{me.points}", "{me.pionts}");
    let diags = change(&mut client, &doc, 2, &text);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "unknown-field");
    let actions = fixes(&mut client, &doc, &diags[0], None);
    assert_eq!(actions.len(), 1, "{actions:?}");
    let fix = &actions[0];
    assert_eq!(fix["kind"], "quickfix");
    assert_eq!(fix["title"], "Replace `pionts` with `points`");
    assert_eq!(fix["isPreferred"], true);
    assert_eq!(fix["diagnostics"], json!([diags[0]]));
    let edits = &fix["edit"]["changes"][&doc];
    assert_eq!(
        edits[0]["range"],
        json!({"start": pos(4, 14), "end": pos(4, 20)})
    );
    let fixed = apply(&text, edits);
    assert_eq!(fixed, GAME);
    assert_eq!(change(&mut client, &doc, 3, &fixed), Vec::<Value>::new());
    // Asked for refactorings only, or over another line: none.
    assert_eq!(
        fixes(&mut client, &doc, &diags[0], Some("refactor")),
        Vec::<Value>::new()
    );
    let elsewhere = json!({"range": {"start": pos(0, 0), "end": pos(0, 4)}});
    assert!(elsewhere.get("message").is_none());
    assert_eq!(
        fixes(&mut client, &doc, &elsewhere, None),
        Vec::<Value>::new()
    );

    // A misspelt keyword in a file that does not parse, and a `;`: fixed one after the other.
    let text = GAME
        .replace("  turn p", "  trun p")
        .replace("me.points += 1", "me.points += 1;");
    let mut version = 4;
    let mut current = text.clone();
    for _ in 0..2 {
        let diags = change(&mut client, &doc, version, &current);
        version += 1;
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert_eq!(diags[0]["code"], "syntax-error");
        let actions = fixes(&mut client, &doc, &diags[0], Some("quickfix"));
        assert_eq!(actions.len(), 1, "{diags:?}");
        current = apply(&current, &actions[0]["edit"]["changes"][&doc]);
    }
    assert_eq!(current, GAME);
    assert_eq!(
        change(&mut client, &doc, version, &current),
        Vec::<Value>::new()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
