//! The editor support in `editors/` agrees with the language: the TextMate grammar and the Neovim
//! syntax name every keyword of `syntax::KEYWORDS`, the VS Code extension points at files that
//! exist, every snippet expands to rules that check, and Neovim (headless, through
//! `scripts/test-neovim.sh`) gives a `.rules` file the filetype its content says and starts
//! `meeple lsp` for it. (The grammar's scopes are tested against annotated samples by
//! `scripts/test-highlighting.sh`, and the `.vsix` is built by `scripts/build-vsix.sh`: both
//! need npm and are not run here; see docs/editors.md.)

#[path = "editors/snippets.rs"]
mod snippets;

use meeple::syntax::KEYWORDS;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn vscode() -> PathBuf {
    root().join("editors/vscode")
}

fn json(path: &str) -> Value {
    let text = std::fs::read_to_string(vscode().join(path)).expect(path);
    serde_json::from_str(&text).expect(path)
}

/// The words of every `match` and `begin` regex in a grammar, recursively.
fn regex_words(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(map) => {
            for (key, value) in map {
                match (key.as_str(), value) {
                    ("match" | "begin", Value::String(re)) => {
                        // Escapes such as `\b` and `\s` are not words of the language.
                        let re = re.replace("\\b", " ").replace("\\s", " ");
                        out.extend(
                            re.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                                .filter(|w| !w.is_empty())
                                .map(str::to_string),
                        );
                    }
                    _ => regex_words(value, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|i| regex_words(i, out)),
        _ => {}
    }
}

#[test]
fn the_textmate_grammar_names_every_keyword() {
    let grammar = json("syntaxes/meeple.tmLanguage.json");
    assert_eq!(grammar["scopeName"], "source.meeple");
    let mut words = BTreeSet::new();
    regex_words(&grammar, &mut words);
    let missing: Vec<&str> = KEYWORDS
        .iter()
        .copied()
        .filter(|k| !words.contains(*k))
        .collect();
    assert!(
        missing.is_empty(),
        "keywords the TextMate grammar does not highlight: {missing:?}"
    );
}

#[test]
fn the_extension_contributes_the_language_and_its_files() {
    let package = json("package.json");
    let language = &package["contributes"]["languages"][0];
    assert_eq!(language["id"], "meeple");
    assert_eq!(language["extensions"][0], ".rules");
    let grammar = &package["contributes"]["grammars"][0];
    assert_eq!(grammar["scopeName"], "source.meeple");
    let snippets = &package["contributes"]["snippets"][0];
    assert_eq!(snippets["language"], "meeple");
    for file in [
        language["configuration"].as_str().unwrap(),
        grammar["path"].as_str().unwrap(),
        snippets["path"].as_str().unwrap(),
        package["main"].as_str().unwrap(),
    ] {
        assert!(vscode().join(file).is_file(), "{file} is missing");
    }
    let config = json("language-configuration.json");
    assert_eq!(config["comments"]["lineComment"], "#");
}

#[test]
fn the_neovim_syntax_names_every_keyword() {
    let path = root().join("editors/neovim/syntax/meeple.vim");
    let text = std::fs::read_to_string(&path).expect("editors/neovim/syntax/meeple.vim");
    let named: BTreeSet<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("syn keyword "))
        .flat_map(|l| l.split_whitespace().skip(1))
        .collect();
    let missing: Vec<&str> = KEYWORDS
        .iter()
        .copied()
        .filter(|k| !named.contains(k))
        .collect();
    assert!(
        missing.is_empty(),
        "keywords the Neovim syntax does not highlight: {missing:?}"
    );
}

/// Needs `nvim` (0.7 or later) on the PATH: .ci/run installs Debian's when it is missing.
#[test]
fn neovim_gives_rules_files_their_filetype_and_starts_the_server() {
    let out = Command::new("bash")
        .arg(root().join("scripts/test-neovim.sh"))
        .env("MEEPLE", env!("CARGO_BIN_EXE_meeple"))
        .output()
        .expect("bash runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "scripts/test-neovim.sh failed:\n{text}"
    );
    assert_eq!(text.matches("ok: ").count(), 4, "{text}");
}

/// The words of the group after `open` in `line`, up to `close`, split at `sep`.
fn group<'a>(line: &'a str, open: &str, close: &str, sep: &str) -> BTreeSet<&'a str> {
    line.split_once(open)
        .and_then(|(_, rest)| rest.split_once(close))
        .map(|(words, _)| words.split(sep).collect())
        .expect("a group of words")
}

#[test]
fn the_editor_grammars_and_the_reference_name_every_built_in_function() {
    // The built-ins are declared once (`ir::Builtin::facts`, `ir::QueryKind::CALLED`): both
    // editor grammars' function patterns and docs/language.md's table must follow.
    let grammar = std::fs::read_to_string(vscode().join("syntaxes/meeple.tmLanguage.json"))
        .expect("the grammar");
    let regex = grammar
        .lines()
        .find(|l| l.contains("\\\\b(count|"))
        .expect("the built-in functions' regex");
    let textmate = group(regex, "\\\\b(", ")\\\\b", "|");
    let vim = std::fs::read_to_string(root().join("editors/neovim/syntax/meeple.vim"))
        .expect("the Neovim syntax");
    let pattern = vim
        .lines()
        .find(|l| l.starts_with("syn match meepleFunction "))
        .expect("the Neovim syntax's built-in functions");
    let neovim = group(pattern, "\\<\\(", "\\)\\ze", "\\|");
    let docs = std::fs::read_to_string(root().join("docs/language.md")).expect("the docs");
    let table = docs
        .split("## Built-in functions")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("the built-ins section");
    for b in meeple::ir::Builtin::ALL {
        // Its row, as declared: how it is called, and its doc line.
        let row = format!("| {} | {} |", b.forms(), b.facts().doc);
        assert!(
            table.lines().any(|l| l == row),
            "docs/language.md's built-in functions lack the row\n{row}"
        );
    }
    let names: BTreeSet<&str> = meeple::ir::Builtin::ALL
        .iter()
        .map(|b| b.name())
        .chain(meeple::ir::QUERY_NAMES)
        .collect();
    for name in &names {
        assert!(
            table.contains(&format!("`{name}(")),
            "`{name}` is not in docs/language.md's built-in functions"
        );
    }
    assert_eq!(textmate, names, "the TextMate grammar's built-in functions");
    assert_eq!(neovim, names, "the Neovim syntax's built-in functions");
}
