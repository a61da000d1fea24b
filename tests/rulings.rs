//! The rulings the games rest on live in the repository. Every ruling id a file in `rules/` cites
//! (`# ruling SSA-3: ...`, `(SP-5)` in a scenario's name) has an entry in `docs/rulings.md`; every
//! entry there is cited by the rules files it names; and nothing in `rules/` points at `shared/`,
//! a folder beside the repository that its users do not have.
//!
//! A ruling id is a token of two to four capital letters, a hyphen and a number (`INC-10`).

mod common;

use common::{all_rules, rel, root};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const DOC: &str = "docs/rulings.md";

/// Whether `token` has the shape of a ruling id: `SSA-3`, `INC-10`.
fn is_id(token: &str) -> bool {
    let Some((letters, number)) = token.split_once('-') else {
        return false;
    };
    (2..=4).contains(&letters.len())
        && letters.bytes().all(|b| b.is_ascii_uppercase())
        && !number.is_empty()
        && number.bytes().all(|b| b.is_ascii_digit())
}

/// Every ruling id in `text`, whole tokens only.
fn ids_in(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .map(|t| t.trim_matches('-'))
        .filter(|t| is_id(t))
        .map(str::to_string)
        .collect()
}

/// The entries of `docs/rulings.md`: each `### ID — title` heading with the text under it, up to
/// the next heading.
fn entries() -> BTreeMap<String, String> {
    let doc = std::fs::read_to_string(root().join(DOC)).expect("docs/rulings.md");
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in doc.lines() {
        if line.starts_with('#') {
            current = None;
            if let Some(heading) = line.strip_prefix("### ") {
                let id = heading.split_whitespace().next().unwrap_or("");
                if is_id(id) {
                    assert!(!out.contains_key(id), "{DOC}: two entries for {id}");
                    out.insert(id.to_string(), String::new());
                    current = Some(id.to_string());
                }
            }
            continue;
        }
        if let Some(id) = &current {
            let body = out.get_mut(id).expect("entry");
            body.push_str(line);
            body.push('\n');
        }
    }
    out
}

/// The `rules/....rules` paths written in backticks in `text`.
fn rules_paths_in(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| s.starts_with("rules/") && s.ends_with(".rules"))
        .map(str::to_string)
        .collect()
}

/// The rulings each rules file cites, by its relative name.
fn cited() -> BTreeMap<String, BTreeSet<String>> {
    let files = all_rules();
    assert!(files.len() >= 5, "found {} rules files", files.len());
    files
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).expect("a rules file");
            (rel(p), ids_in(&text))
        })
        .collect()
}

#[test]
fn every_ruling_cited_in_rules_has_an_entry() {
    let entries = entries();
    let mut missing = Vec::new();
    for (file, ids) in cited() {
        for id in ids {
            if !entries.contains_key(&id) {
                missing.push(format!("{file}: {id}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "rulings cited in rules/ without an entry in {DOC}:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_entry_is_cited_where_it_says() {
    let entries = entries();
    assert!(entries.len() >= 50, "{DOC} has {} entries", entries.len());
    let cited = cited();
    for (id, body) in &entries {
        let files = rules_paths_in(body);
        assert!(!files.is_empty(), "{DOC}: {id} names no rules file");
        for file in files {
            let ids = cited
                .get(&file)
                .unwrap_or_else(|| panic!("{DOC}: {id} names `{file}`, which is not in rules/"));
            assert!(
                ids.contains(id),
                "{DOC}: {id} names `{file}`, which does not cite it"
            );
        }
    }
}

fn every_file(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("a folder")
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            every_file(&p, out);
        } else {
            out.push(p);
        }
    }
}

#[test]
fn nothing_in_rules_points_outside_the_repository() {
    let mut files = Vec::new();
    every_file(&root().join("rules"), &mut files);
    assert!(files.len() >= 5, "found {} files", files.len());
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue; // not text
        };
        for (n, line) in text.lines().enumerate() {
            assert!(
                !line.contains("shared/"),
                "{}:{}: cites a file outside the repository: {line}",
                rel(&path),
                n + 1
            );
        }
    }
    let doc = std::fs::read_to_string(root().join(DOC)).expect("docs/rulings.md");
    assert!(
        !doc.contains("shared/"),
        "{DOC} cites a file outside the repository"
    );
}

#[test]
fn ids_are_read_as_whole_tokens() {
    let ids = ids_in("# ruling SSA-7, SSA-8: ... (INC-3 to INC-10) EG-11: x2 UTF-8ish A-1 ABCDE-2");
    let want: BTreeSet<String> = ["SSA-7", "SSA-8", "INC-3", "INC-10", "EG-11"]
        .into_iter()
        .map(str::to_string)
        .collect();
    assert_eq!(ids, want);
}
