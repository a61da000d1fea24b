//! `meeple lsp` in a real JSON-RPC conversation: the binary is spawned, spoken to with
//! Content-Length framed messages, and every answer is awaited with a timeout, so a server that
//! hangs fails the test instead of blocking it.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(20);

/// A running `meeple lsp`, killed when dropped.
struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_meeple"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("meeple lsp starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, messages) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if tx.send(message).is_err() {
                    break;
                }
            }
        });
        Client {
            child,
            stdin,
            messages,
            next_id: 1,
        }
    }

    fn send(&mut self, message: &Value) {
        self.send_raw(message.to_string().as_bytes());
    }

    fn send_raw(&mut self, body: &[u8]) {
        write!(self.stdin, "Content-Length: {}\r\n\r\n", body.len()).expect("write header");
        self.stdin.write_all(body).expect("write body");
        self.stdin.flush().expect("flush");
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and waits for its response (notifications meanwhile are dropped).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.wait_for(|m| m["id"] == json!(id))
    }

    /// The result of a request that must succeed.
    fn call(&mut self, method: &str, params: Value) -> Value {
        let response = self.request(method, params);
        assert!(
            response.get("error").is_none(),
            "{method} failed: {response}"
        );
        response["result"].clone()
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let n = self.wait_for(|m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        });
        n["params"]["diagnostics"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    fn wait_for(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.messages.recv_timeout(left) {
                Ok(m) if wanted(&m) => return m,
                Ok(_) => {}
                Err(_) => panic!("no answer from meeple lsp within {TIMEOUT:?}"),
            }
        }
    }

    /// Waits for the process to end; its exit status.
    fn wait_exit(&mut self) -> std::process::ExitStatus {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status;
            }
            assert!(Instant::now() < deadline, "meeple lsp did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// A fresh folder for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("meeple-lsp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display()).replace(' ', "%20")
}

fn pos(line: u32, character: u32) -> Value {
    json!({"line": line, "character": character})
}

fn at(uri: &str, line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": uri}, "position": pos(line, character)})
}

fn initialize(client: &mut Client, root: &Path) {
    let result = client.call(
        "initialize",
        json!({"processId": null, "rootUri": uri(root), "capabilities": {}}),
    );
    assert_eq!(result["capabilities"]["textDocumentSync"], json!(1));
    client.notify("initialized", json!({}));
}

/// A game with one error: `cions` in a log line, after a die that takes two UTF-16 units.
const BROKEN: &str = r#"game "Test" { players 2 }
# How many coins a player holds.
player var coins: int = 0
kind card[3] {
  value: int = 1
}
action take "Take a coin" {
  me.coins += 1
}
def total(p: player): int = p.coins + sum([c.value for c in card])
flow {
  repeat 3 {
    for p in players {
      turn p
      log "🎲 {cions}"
    }
  }
}
winners = [p in players where total(p) > 2]
"#;

#[test]
fn a_whole_conversation() {
    let dir = scratch("conversation");
    let file = dir.join("game.rules");
    std::fs::write(&file, BROKEN).unwrap();
    let doc = uri(&file);
    let mut client = Client::start();
    initialize(&mut client, &dir);

    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": doc, "languageId": "meeple", "version": 1, "text": BROKEN}}),
    );
    let diags = client.diagnostics(&doc);
    assert_eq!(diags.len(), 1, "{diags:?}");
    let d = &diags[0];
    assert_eq!(d["code"], "unknown-name");
    assert_eq!(d["severity"], 1);
    assert_eq!(d["source"], "meeple");
    // `      log "🎲 {cions}"`: the die is four bytes but two UTF-16 units, so `cions` starts
    // at character 15 (byte 17).
    assert_eq!(
        d["range"],
        json!({"start": pos(14, 15), "end": pos(14, 20)})
    );
    let message = d["message"].as_str().unwrap();
    assert!(message.starts_with("unknown name `cions`"), "{message}");
    assert!(message.contains("help: "), "{message}");

    // Hover on `coins` in `p.coins`: its kind, type, declaration and the comment above it.
    let hover = client.call("textDocument/hover", at(&doc, 9, 32));
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("player var coins: int = 0"), "{text}");
    assert!(text.contains("player variable `coins`: `int`"), "{text}");
    assert!(text.contains("How many coins a player holds."), "{text}");
    assert_eq!(
        hover["range"],
        json!({"start": pos(9, 30), "end": pos(9, 35)})
    );

    // Hover on the built-in `sum`: how it is called and what it gives, as it is declared.
    let sum = BROKEN.lines().nth(9).unwrap().find("sum(").unwrap() as u32;
    let hover = client.call("textDocument/hover", at(&doc, 9, sum + 1));
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("`sum(xs)`"), "{text}");
    assert!(text.contains("the total of a list of numbers"), "{text}");
    assert_eq!(
        hover["range"],
        json!({"start": pos(9, sum), "end": pos(9, sum + 3)})
    );

    // Definition of `total` where the winners use it.
    let def = client.call("textDocument/definition", at(&doc, 18, 32));
    assert_eq!(def["uri"], doc);
    assert_eq!(def["range"], json!({"start": pos(9, 4), "end": pos(9, 9)}));

    // References of `coins`: its declaration, `me.coins` and `p.coins`.
    let refs = client.call(
        "textDocument/references",
        json!({"textDocument": {"uri": doc}, "position": pos(2, 12), "context": {"includeDeclaration": true}}),
    );
    let lines: Vec<u64> = refs
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["range"]["start"]["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [2, 7, 9]);

    // Completion after `c.` in the def: the fields of a card.
    let items = client.call("textDocument/completion", at(&doc, 9, 45));
    assert_eq!(labels(&items), ["value"]);
    // Completion at the start of a line in the flow: keywords, names and locals.
    let items = client.call("textDocument/completion", at(&doc, 14, 6));
    let found = labels(&items);
    for wanted in ["turn", "log", "coins", "total", "card", "p", "count"] {
        assert!(found.contains(&wanted.to_string()), "{wanted}: {found:?}");
    }
    let count = items
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["label"] == "count")
        .expect("`count` is completed");
    assert_eq!(count["detail"], "count(xs)");
    assert_eq!(count["documentation"]["value"], "how many elements");

    // The outline.
    let symbols = client.call(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": doc}}),
    );
    let names: Vec<&str> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["Test", "coins", "card", "take", "total", "flow", "winners"]
    );
    let card = &symbols[2];
    assert_eq!(card["children"][0]["name"], "value");
    assert_eq!(card["range"]["start"], pos(3, 0));
    assert_eq!(card["range"]["end"], pos(5, 1));

    // Rename `total` from its use: the declaration and the use change.
    let prepared = client.call("textDocument/prepareRename", at(&doc, 18, 32));
    assert_eq!(prepared, json!({"start": pos(18, 30), "end": pos(18, 35)}));
    let edit = client.call(
        "textDocument/rename",
        json!({"textDocument": {"uri": doc}, "position": pos(18, 32), "newName": "worth"}),
    );
    let edits = edit["changes"][&doc].as_array().unwrap();
    let mut ranges: Vec<Value> = edits.iter().map(|e| e["range"].clone()).collect();
    ranges.sort_by_key(|r| r["start"]["line"].as_u64());
    assert_eq!(
        ranges,
        [
            json!({"start": pos(9, 4), "end": pos(9, 9)}),
            json!({"start": pos(18, 30), "end": pos(18, 35)})
        ]
    );
    assert!(edits.iter().all(|e| e["newText"] == "worth"));
    // A reserved word is refused.
    let refused = client.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": doc}, "position": pos(18, 32), "newName": "while"}),
    );
    assert!(refused["error"]["message"].as_str().is_some(), "{refused}");

    // Fix the error: no diagnostics remain.
    let fixed = BROKEN.replace("{cions}", "{p.coins}");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": doc, "version": 2}, "contentChanges": [{"text": fixed}]}),
    );
    assert_eq!(client.diagnostics(&doc), Vec::<Value>::new());

    assert_eq!(client.call("shutdown", Value::Null), Value::Null);
    client.notify("exit", Value::Null);
    let status = client.wait_exit();
    assert_eq!(status.code(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}

fn labels(items: &Value) -> Vec<String> {
    let list = items
        .as_array()
        .or_else(|| items["items"].as_array())
        .expect("completion items");
    list.iter()
        .map(|i| i["label"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn bad_input_is_answered_not_fatal() {
    let dir = scratch("robust");
    let mut client = Client::start();
    // Before `initialize`, requests are refused.
    let early = client.request("textDocument/hover", at("file:///nowhere.rules", 0, 0));
    assert_eq!(early["error"]["code"], -32002);
    initialize(&mut client, &dir);

    // Not JSON at all, and no length: each is answered with an error of no id, and skipped.
    client.send_raw(b"this is not json");
    let error = client.wait_for(|m| m["id"].is_null());
    assert_eq!(error["error"]["code"], -32700);
    client.stdin.write_all(b"X-Nonsense: 1\r\n\r\n").unwrap();
    let error = client.wait_for(|m| m["id"].is_null());
    assert_eq!(error["error"]["code"], -32600);
    // A method the server does not know, and parameters of the wrong shape.
    let unknown = client.request("textDocument/frobnicate", json!({}));
    assert_eq!(unknown["error"]["code"], -32601);
    let malformed = client.request("textDocument/hover", json!({"nonsense": true}));
    assert_eq!(malformed["error"]["code"], -32602);
    // A document never opened.
    let none = client.call("textDocument/hover", at("file:///nowhere.rules", 0, 0));
    assert_eq!(none, Value::Null);

    // A file that does not parse: one syntax error, and empty answers.
    let file = dir.join("broken.rules");
    let doc = uri(&file);
    let text = "game \"G\" { players 2 }\naction go { let = 3 }\n";
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": doc, "languageId": "meeple", "version": 1, "text": text}}),
    );
    let diags = client.diagnostics(&doc);
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0]["code"], "syntax-error");
    assert_eq!(
        client.call("textDocument/hover", at(&doc, 1, 8)),
        Value::Null
    );
    assert_eq!(
        client.call("textDocument/definition", at(&doc, 1, 8)),
        Value::Null
    );
    let symbols = client.call(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": doc}}),
    );
    assert_eq!(symbols, json!([]));
    // Positions far out of range, and in the middle of a character.
    for (line, character) in [(999, 999), (0, 999), (u32::MAX, u32::MAX)] {
        let hover = client.call("textDocument/hover", at(&doc, line, character));
        assert_eq!(hover, Value::Null);
        let items = client.call("textDocument/completion", at(&doc, line, character));
        assert!(labels(&items).contains(&"while".to_string()));
    }
    let refused = client.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": doc}, "position": pos(0, 0), "newName": "x"}),
    );
    assert!(refused.get("error").is_some(), "{refused}");
    // Two changes in one notification, the second by a range after a character of two UTF-16
    // units (the die is at character 17, `let ` ends at 25): the syntax error is mended.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": doc, "version": 2}, "contentChanges": [
            {"text": "game \"G\" { players 2 }\naction go { log \"🎲\" let = 3 }\n"},
            {"range": {"start": pos(1, 25), "end": pos(1, 25)}, "text": "x "},
        ]}),
    );
    let diags = client.diagnostics(&doc);
    let codes: Vec<&Value> = diags.iter().map(|d| &d["code"]).collect();
    assert_eq!(
        codes,
        [&json!("missing-flow"), &json!("unused-definition")],
        "{diags:?}"
    );

    // `exit` without `shutdown`: the server leaves with status 1, as the protocol says.
    client.notify("exit", Value::Null);
    assert_eq!(client.wait_exit().code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_variant_is_checked_on_its_base_from_disk() {
    let dir = scratch("variant");
    let game = dir.join("game.rules");
    std::fs::write(&game, BROKEN.replace("{cions}", "{p.coins}")).unwrap();
    std::fs::create_dir_all(dir.join("game")).unwrap();
    let variant = dir.join("game").join("rich.rules");
    let text = "variant \"Rich\" { base \"../game.rules\" }\n\
                replace action take \"Take two coins\" {\n  me.coins += 2\n}\n\
                remove action nosuch\n";
    std::fs::write(&variant, text).unwrap();
    let doc = uri(&variant);
    let mut client = Client::start();
    initialize(&mut client, &dir);
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": doc, "languageId": "meeple", "version": 1, "text": text}}),
    );
    let diags = client.diagnostics(&doc);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "variant-unknown-part");
    assert_eq!(
        diags[0]["range"],
        json!({"start": pos(4, 14), "end": pos(4, 20)})
    );
    // `coins` is declared in the base, on disk.
    let def = client.call("textDocument/definition", at(&doc, 2, 6));
    assert_eq!(def["uri"], uri(&game));
    assert_eq!(def["range"]["start"], pos(2, 11));

    // Fixed in the editor, not on disk: the open text is what is checked.
    let fixed = text.replace("remove action nosuch\n", "");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": doc, "version": 2}, "contentChanges": [{"text": fixed}]}),
    );
    assert_eq!(client.diagnostics(&doc), Vec::<Value>::new());

    // The base opened with an error: the variant, which reads it, is checked again.
    let base_doc = uri(&game);
    let broken_base = BROKEN.to_string();
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": base_doc, "languageId": "meeple", "version": 1, "text": broken_base}}),
    );
    assert_eq!(client.diagnostics(&base_doc).len(), 1);
    let diags = client.diagnostics(&doc);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "unknown-name");
    // Shown on `"../game.rules"` in the header of the variant.
    assert_eq!(
        diags[0]["range"],
        json!({"start": pos(0, 22), "end": pos(0, 37)})
    );
    assert!(diags[0]["message"].as_str().unwrap().contains("game.rules"));
    assert_eq!(
        diags[0]["relatedInformation"][0]["location"]["uri"],
        base_doc
    );

    assert_eq!(client.call("shutdown", Value::Null), Value::Null);
    client.notify("exit", Value::Null);
    assert_eq!(client.wait_exit().code(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_variant_of_a_variant_is_checked_through_the_chain() {
    let dir = scratch("variant_chain");
    let game = dir.join("game.rules");
    std::fs::write(&game, BROKEN.replace("{cions}", "{p.coins}")).unwrap();
    std::fs::create_dir_all(dir.join("game")).unwrap();
    let inner = dir.join("game").join("rich.rules");
    let inner_text = "variant \"Rich\" { base \"../game.rules\" }\n\
                      add player var gems: int = 0\n";
    std::fs::write(&inner, inner_text).unwrap();
    let outer = dir.join("game").join("richer.rules");
    let text = "variant \"Richer\" { base \"rich.rules\" }\n\
                replace player var gems: int = 3\n\
                replace action take \"Take coins\" {\n  me.coins += me.gems\n}\n";
    std::fs::write(&outer, text).unwrap();
    let doc = uri(&outer);
    let mut client = Client::start();
    initialize(&mut client, &dir);
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": doc, "languageId": "meeple", "version": 1, "text": text}}),
    );
    assert_eq!(client.diagnostics(&doc), Vec::<Value>::new());

    // The inner variant opened with a mistake: the outer one, which reads it, is checked again,
    // and the problem is shown on its `base "rich.rules"`.
    let inner_doc = uri(&inner);
    let broken_inner = inner_text.replace(
        "add player var gems",
        "add player var gems: int = 0\nremove action nosuch\n#",
    );
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": inner_doc, "languageId": "meeple", "version": 1, "text": broken_inner}}),
    );
    let inner_diags = client.diagnostics(&inner_doc);
    assert!(
        inner_diags
            .iter()
            .any(|d| d["code"] == "variant-unknown-part"),
        "{inner_diags:?}"
    );
    let diags = client.diagnostics(&doc);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "variant-unknown-part");
    assert_eq!(
        diags[0]["range"],
        json!({"start": pos(0, 24), "end": pos(0, 36)})
    );

    assert_eq!(client.call("shutdown", Value::Null), Value::Null);
    client.notify("exit", Value::Null);
    assert_eq!(client.wait_exit().code(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every rules file of the repository, asked about at many places: every answer is a result,
/// never an error, and every definition found is where the name is written.
#[test]
fn every_game_is_answered_everywhere() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    let mut dirs = vec![root.join("rules")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rules") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(!files.is_empty());
    let mut client = Client::start();
    initialize(&mut client, &root);
    let mut definitions = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let doc = uri(file);
        client.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": doc, "languageId": "meeple", "version": 1, "text": text}}),
        );
        let diags = client.diagnostics(&doc);
        assert!(
            diags.iter().all(|d| d["severity"] != 1),
            "{}: {diags:?}",
            file.display()
        );
        let symbols = client.call(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": doc}}),
        );
        assert!(!symbols.as_array().unwrap().is_empty());
        for (line, content) in text.lines().enumerate().step_by(3) {
            let line = line as u32;
            let width = content.encode_utf16().count() as u32;
            for character in [0, width / 3, width / 2, width.saturating_sub(2)] {
                client.call("textDocument/hover", at(&doc, line, character));
                client.call("textDocument/completion", at(&doc, line, character));
                let def = client.call("textDocument/definition", at(&doc, line, character));
                if def.is_null() {
                    continue;
                }
                definitions += 1;
                // The definition's range holds the very name asked about.
                let target = def["uri"].as_str().unwrap();
                let target_text = if target == doc {
                    text.clone()
                } else {
                    let path = target.strip_prefix("file://").unwrap().replace("%20", " ");
                    std::fs::read_to_string(path).unwrap()
                };
                let name = |text: &str, range: &Value| -> String {
                    let line = text
                        .lines()
                        .nth(range["start"]["line"].as_u64().unwrap() as usize)
                        .unwrap();
                    let units: Vec<u16> = line.encode_utf16().collect();
                    let from = range["start"]["character"].as_u64().unwrap() as usize;
                    let to = range["end"]["character"].as_u64().unwrap() as usize;
                    String::from_utf16(&units[from..to]).unwrap()
                };
                let refs = client.call(
                    "textDocument/references",
                    json!({"textDocument": {"uri": doc}, "position": pos(line, character),
                           "context": {"includeDeclaration": false}}),
                );
                let declared = name(&target_text, &def["range"]);
                for r in refs.as_array().unwrap() {
                    if r["uri"] == doc {
                        assert_eq!(name(&text, &r["range"]), declared, "{}", file.display());
                    }
                }
            }
        }
    }
    assert!(definitions > 100, "only {definitions} definitions found");
    assert_eq!(client.call("shutdown", Value::Null), Value::Null);
    client.notify("exit", Value::Null);
    assert_eq!(client.wait_exit().code(), Some(0));
}

#[test]
fn a_base_that_is_not_rules_is_never_quoted_and_garbage_costs_no_later_message() {
    let dir = scratch("outside");
    std::fs::write(dir.join("secret.txt"), "TOP SECRET LINE\n").unwrap();
    let variant = dir.join("v.rules");
    let text = "variant \"P\" { base \"secret.txt\" }\n";
    std::fs::write(&variant, text).unwrap();
    let mut client = Client::start();
    initialize(&mut client, &dir);
    // Bytes that are no message, with no line break: the messages after them still arrive.
    client.stdin.write_all(b"\x00garbage\x1b[2J").unwrap();
    let v = uri(&variant);
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": v, "languageId": "meeple", "version": 1, "text": text}}),
    );
    let diagnostics = client.diagnostics(&v);
    let all = serde_json::to_string(&diagnostics).unwrap();
    assert!(!all.contains("TOP SECRET"), "{all}");
    assert!(all.contains("not a `.rules` file"), "{all}");
    // And the next request is answered too.
    let symbols = client.call(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": v}}),
    );
    assert!(symbols.is_array(), "{symbols}");
}

/// Formatting and quick fixes.
#[path = "lsp/edits.rs"]
mod edits;

/// A record's fields: completed after a value of the record and a `.`, described on hover.
const BIDS: &str = r#"game "Bids" { players 2 }
record bid {
  who: player = none
  amount: int = 0
}
def more(b: bid): int = b.amount + 1
var best: bid = bid(who: none)
flow { }
winners = [p in players where more(best) > 1]
"#;

#[test]
fn a_record_s_fields_are_completed_and_described() {
    let dir = scratch("records");
    let file = dir.join("bids.rules");
    std::fs::write(&file, BIDS).unwrap();
    let doc = uri(&file);
    let mut client = Client::start();
    initialize(&mut client, &dir);
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": doc, "languageId": "meeple", "version": 1, "text": BIDS}}),
    );
    assert_eq!(client.diagnostics(&doc), Vec::<Value>::new());
    // Completion after `b.`: the bid's fields, and nothing else's.
    let dot = BIDS.lines().nth(5).unwrap().find("b.").unwrap() as u32;
    let items = client.call("textDocument/completion", at(&doc, 5, dot + 2));
    assert_eq!(labels(&items), ["who", "amount"]);
    // Hover on `amount` in `b.amount`: a field of each bid, with its type.
    let hover = client.call("textDocument/hover", at(&doc, 5, dot + 3));
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(
        text.contains("field `amount`: `int`, of each `bid`"),
        "{text}"
    );
    // Hover on the record's name where it is built.
    let built = BIDS.lines().nth(6).unwrap().rfind("bid(").unwrap() as u32;
    let hover = client.call("textDocument/hover", at(&doc, 6, built + 1));
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("record `bid`"), "{text}");
    // The outline lists the record with its fields.
    let symbols = client.call(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": doc}}),
    );
    let bid = &symbols[1];
    assert_eq!(bid["name"], "bid");
    assert_eq!(bid["children"][1]["name"], "amount");
    assert_eq!(client.call("shutdown", Value::Null), Value::Null);
    client.notify("exit", Value::Null);
    assert_eq!(client.wait_exit().code(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}
