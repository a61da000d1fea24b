//! `meeple lsp` holds each open document within a few times its size: live heap bytes, counted
//! by an allocator, after documents of 100 KB are opened. (A test of its own binary, so that
//! nothing else allocates while it measures.)

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::{self, BufRead, Read};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed to the system allocator unchanged; the counter does not affect
// the memory returned.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size, Ordering::Relaxed);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// Input that notes the live heap when the server first reads past `mark`: by then it has
/// answered every message before it.
struct Marked {
    input: io::Cursor<Vec<u8>>,
    mark: u64,
    live_at_mark: Option<usize>,
}

impl Read for Marked {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.note();
        self.input.read(buf)
    }
}

impl BufRead for Marked {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.note();
        self.input.fill_buf()
    }
    fn consume(&mut self, n: usize) {
        self.input.consume(n)
    }
}

impl Marked {
    fn note(&mut self) {
        if self.live_at_mark.is_none() && self.input.position() >= self.mark {
            self.live_at_mark = Some(LIVE.load(Ordering::Relaxed));
        }
    }
}

fn framed(message: serde_json::Value) -> Vec<u8> {
    let body = message.to_string();
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

/// A rules file of about `size` bytes: a real game, then unused variables.
fn document(size: usize) -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut text = std::fs::read_to_string(root.join("rules/endgame.rules")).expect("a game");
    let mut i = 0;
    while text.len() < size {
        text.push_str(&format!("var padding_{i}: int = {i}\n"));
        i += 1;
    }
    text
}

#[test]
fn open_documents_are_held_within_a_few_times_their_size() {
    const SIZE: usize = 100_000;
    const DOCUMENTS: usize = 5;
    let text = document(SIZE);
    let mut input = framed(serde_json::json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}
    }));
    input.extend(framed(
        serde_json::json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    ));
    for d in 0..DOCUMENTS {
        input.extend(framed(serde_json::json!({
            "jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": {"textDocument": {
                "uri": format!("file:///nowhere/game{d}.rules"),
                "languageId": "meeple", "version": 1, "text": text,
            }}
        })));
    }
    let mark = input.len() as u64;
    input.extend(framed(
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}),
    ));
    input.extend(framed(
        serde_json::json!({"jsonrpc": "2.0", "method": "exit"}),
    ));
    let mut reader = Marked {
        input: io::Cursor::new(input),
        mark,
        live_at_mark: None,
    };
    let before = LIVE.load(Ordering::Relaxed);
    let clean = meeple::lsp::serve(&mut reader, &mut io::sink()).expect("serves");
    assert!(clean);
    let held = reader.live_at_mark.expect("read past the documents") - before;
    let per_document = held / DOCUMENTS;
    eprintln!(
        "{per_document} bytes held per open document of {} bytes",
        text.len()
    );
    // It held 40 times the text, its program and two syntax trees included; now the text twice
    // (the editor's and the checker's), its names and uses, its diagnostics.
    assert!(
        per_document <= 6 * text.len(),
        "{per_document} bytes held per document of {} bytes",
        text.len()
    );
}
