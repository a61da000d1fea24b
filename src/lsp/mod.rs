//! `meeple lsp`: a language server on standard input and output, for editors.
//!
//! Synchronous and single-threaded: each message is read, answered and, for a change, checked
//! before the next. A document is re-checked whole at every change, with its base from another
//! open document or from disk. Bad input never stops the server: bytes that are not a message are
//! skipped and answered with an error (`transport.rs`), a bad request is answered with an error,
//! and a panic while answering becomes one.

mod analysis;
mod complete;
mod edits;
mod features;
mod symbols;
/// Byte offsets and UTF-16 positions, paths and `file:` URIs.
pub mod text;
mod transport;

use crate::load::same_file;
use analysis::{analyse, Document};
use lsp_server::{ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{self as note, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CompletionOptions,
    DocumentSymbolResponse, GotoDefinitionResponse, HoverProviderCapability, InitializeResult,
    OneOf, PublishDiagnosticsParams, RenameOptions, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, Uri,
};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::process::ExitCode;

/// Serves on standard input and output until `exit`: status 0 after a `shutdown`, 1 otherwise.
pub fn run() -> io::Result<ExitCode> {
    let stdin = io::stdin();
    let stdout = io::stdout();
    let clean = serve(&mut stdin.lock(), &mut stdout.lock())?;
    Ok(if clean {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Serves one client on a pair of streams. Returns whether the client asked to shut down before
/// it left (by `exit` or by closing the input).
pub fn serve(input: &mut dyn BufRead, output: &mut dyn Write) -> io::Result<bool> {
    let mut server = Server {
        out: output,
        docs: BTreeMap::new(),
        initialized: false,
        shut_down: false,
    };
    loop {
        let message = match transport::read(input)? {
            Some(transport::Incoming::Message(m)) => m,
            None => return Ok(server.shut_down),
            // Not a message: its bytes are consumed, so answer and go on with the next one.
            Some(transport::Incoming::Skipped(code, why)) => {
                eprintln!("meeple lsp: skipped {why}");
                server.send_raw(&transport::error_without_id(code, &why))?;
                continue;
            }
        };
        match message {
            Message::Request(r) => {
                let id = r.id.clone();
                let reply = catch_unwind(AssertUnwindSafe(|| server.request(r)))
                    .unwrap_or_else(|_| Err(internal("the server failed on this request")));
                let response = match reply {
                    Ok(value) => Response::new_ok(id, value),
                    Err((code, message)) => Response::new_err(id, code as i32, message),
                };
                server.send(Message::Response(response))?;
            }
            Message::Notification(n) if n.method == note::Exit::METHOD => {
                return Ok(server.shut_down)
            }
            Message::Notification(n) => {
                let method = n.method.clone();
                if catch_unwind(AssertUnwindSafe(|| server.notification(n))).is_err() {
                    eprintln!("meeple lsp: failed on a `{method}` notification");
                }
            }
            Message::Response(_) => {}
        }
    }
}

type Reply = Result<Value, (ErrorCode, String)>;

fn internal(message: &str) -> (ErrorCode, String) {
    (ErrorCode::InternalError, message.to_string())
}

struct Server<'w> {
    out: &'w mut dyn Write,
    docs: BTreeMap<String, Document>,
    initialized: bool,
    shut_down: bool,
}

fn params<P: DeserializeOwned>(value: Value) -> Result<P, (ErrorCode, String)> {
    serde_json::from_value(value).map_err(|e| (ErrorCode::InvalidParams, e.to_string()))
}

fn json<T: serde::Serialize>(value: T) -> Reply {
    serde_json::to_value(value).map_err(|e| internal(&e.to_string()))
}

impl Server<'_> {
    fn send(&mut self, message: Message) -> io::Result<()> {
        message.write(&mut self.out)?;
        self.out.flush()
    }

    fn send_raw(&mut self, body: &str) -> io::Result<()> {
        write!(self.out, "Content-Length: {}\r\n\r\n{body}", body.len())?;
        self.out.flush()
    }

    // Long because it is one match over the requests the server answers, an arm each.
    fn request(&mut self, r: Request) -> Reply {
        if r.method == req::Initialize::METHOD {
            self.initialized = true;
            return json(capabilities());
        }
        if !self.initialized {
            return Err((
                ErrorCode::ServerNotInitialized,
                "the client has not sent `initialize`".into(),
            ));
        }
        if self.shut_down {
            return Err((ErrorCode::InvalidRequest, "the server is shut down".into()));
        }
        match r.method.as_str() {
            req::Shutdown::METHOD => {
                self.shut_down = true;
                Ok(Value::Null)
            }
            req::HoverRequest::METHOD => {
                let p: lsp_types::HoverParams = params(r.params)?;
                let at = p.text_document_position_params;
                json(
                    self.doc(&at.text_document.uri)
                        .and_then(|d| features::hover(d, at.position)),
                )
            }
            req::GotoDefinition::METHOD => {
                let p: lsp_types::GotoDefinitionParams = params(r.params)?;
                let at = p.text_document_position_params;
                let found = self
                    .doc(&at.text_document.uri)
                    .and_then(|d| features::definition(d, at.position));
                json(found.map(GotoDefinitionResponse::Scalar))
            }
            req::References::METHOD => {
                let p: lsp_types::ReferenceParams = params(r.params)?;
                let at = p.text_document_position;
                let found = self
                    .doc(&at.text_document.uri)
                    .map(|d| features::references(d, at.position, p.context.include_declaration));
                json(found.unwrap_or_default())
            }
            req::Completion::METHOD => {
                let p: lsp_types::CompletionParams = params(r.params)?;
                let at = p.text_document_position;
                let items = self
                    .doc(&at.text_document.uri)
                    .map(|d| complete::complete(d, at.position))
                    .unwrap_or_default();
                json(items)
            }
            req::DocumentSymbolRequest::METHOD => {
                let p: lsp_types::DocumentSymbolParams = params(r.params)?;
                let outline = self.doc(&p.text_document.uri).map(|d| {
                    // The text of the last version that parsed, parsed again: no document
                    // keeps its syntax tree.
                    let a = d.last_parsed();
                    let text = &a.loaded.sources.file(analysis::OWN_FILE).text;
                    let lines = text::Lines::new(text);
                    crate::syntax::parse(analysis::OWN_FILE, text)
                        .map(|ast| symbols::outline(&ast, text, &lines))
                        .unwrap_or_default()
                });
                json(DocumentSymbolResponse::Nested(outline.unwrap_or_default()))
            }
            req::PrepareRenameRequest::METHOD => {
                let p: lsp_types::TextDocumentPositionParams = params(r.params)?;
                let range = self
                    .doc(&p.text_document.uri)
                    .and_then(|d| features::prepare_rename(d, p.position));
                json(range.map(lsp_types::PrepareRenameResponse::Range))
            }
            req::Rename::METHOD => {
                let p: lsp_types::RenameParams = params(r.params)?;
                let at = p.text_document_position;
                let doc = self
                    .doc(&at.text_document.uri)
                    .ok_or((ErrorCode::InvalidParams, "this document is not open".into()))?;
                let edit = features::rename(doc, at.position, &p.new_name)
                    .map_err(|e| (ErrorCode::RequestFailed, e))?;
                json(edit)
            }
            req::Formatting::METHOD => {
                let p: lsp_types::DocumentFormattingParams = params(r.params)?;
                // `meeple fmt` has one layout: the editor's tab size and spaces are not asked.
                let edits = match self.doc(&p.text_document.uri) {
                    Some(d) => edits::formatting(d).map_err(|e| (ErrorCode::RequestFailed, e))?,
                    None => Vec::new(),
                };
                json(edits)
            }
            req::CodeActionRequest::METHOD => {
                let p: lsp_types::CodeActionParams = params(r.params)?;
                // Quick fixes are all it offers: asked only for other kinds, it has none.
                let wanted = p.context.only.as_ref().is_none_or(|only| {
                    only.iter().any(|k| {
                        let k = k.as_str();
                        let quickfix = "quickfix";
                        k.is_empty() || k == quickfix || quickfix.starts_with(&format!("{k}."))
                    })
                });
                let actions = match self.doc(&p.text_document.uri) {
                    Some(d) if wanted => edits::code_actions(d, p.range),
                    _ => Vec::new(),
                };
                json(actions)
            }
            other => Err((
                ErrorCode::MethodNotFound,
                format!("`{other}` is not supported"),
            )),
        }
    }

    fn doc(&self, uri: &Uri) -> Option<&Document> {
        self.docs.get(uri.as_str())
    }

    fn notification(&mut self, n: Notification) {
        if !self.initialized {
            return;
        }
        match n.method.as_str() {
            note::DidOpenTextDocument::METHOD => {
                let Ok(p) = params::<lsp_types::DidOpenTextDocumentParams>(n.params) else {
                    return;
                };
                let d = p.text_document;
                self.set_text(d.uri, d.text, d.version);
            }
            note::DidChangeTextDocument::METHOD => {
                let Ok(p) = params::<lsp_types::DidChangeTextDocumentParams>(n.params) else {
                    return;
                };
                let key = p.text_document.uri.as_str().to_string();
                let Some(doc) = self.docs.get(&key) else {
                    return;
                };
                let mut text = doc.text.clone();
                for change in p.content_changes {
                    match change.range {
                        // Full sync is what the server asks for; a range is applied all the same.
                        Some(range) => {
                            let lines = text::Lines::new(&text);
                            let start = lines.offset(&text, range.start);
                            let end = lines.offset(&text, range.end).max(start);
                            text.replace_range(start..end, &change.text);
                        }
                        None => text = change.text,
                    }
                }
                self.set_text(p.text_document.uri, text, p.text_document.version);
            }
            note::DidCloseTextDocument::METHOD => {
                let Ok(p) = params::<lsp_types::DidCloseTextDocumentParams>(n.params) else {
                    return;
                };
                if let Some(doc) = self.docs.remove(p.text_document.uri.as_str()) {
                    self.publish(&doc.uri, Vec::new(), None);
                    self.recheck_readers_of(&doc.path);
                }
            }
            _ => {}
        }
    }

    /// Stores a document's new text, checks it, and re-checks open documents that read it.
    fn set_text(&mut self, uri: Uri, text: String, version: i32) {
        let key = uri.as_str().to_string();
        let path = text::uri_to_path(&uri).unwrap_or_else(|| {
            PathBuf::from(uri.as_str().rsplit(['/', ':']).next().unwrap_or("untitled"))
        });
        let open = self.open_texts(&key);
        let analysis = analyse(&path, &text, &open);
        let parsed = match self.docs.remove(&key) {
            Some(old) if !analysis.parses => old.last_parsed_owned(),
            _ => None,
        };
        let doc = Document {
            uri,
            lines: text::Lines::new(&text),
            path: path.clone(),
            text,
            version,
            analysis,
            parsed,
        };
        let diagnostics = doc.analysis.diagnostics(&doc);
        self.publish(&doc.uri, diagnostics, Some(version));
        self.docs.insert(key, doc);
        self.recheck_readers_of(&path);
    }

    /// Re-checks every open document whose last check read the file at `path` (its base).
    fn recheck_readers_of(&mut self, path: &std::path::Path) {
        let readers: Vec<String> = self
            .docs
            .iter()
            .filter(|(_, d)| d.analysis.reads.iter().any(|r| same_file(r, path)))
            .map(|(k, _)| k.clone())
            .collect();
        for key in readers {
            let open = self.open_texts(&key);
            let Some(doc) = self.docs.get_mut(&key) else {
                continue;
            };
            // Its own text did not change, so whether it parses did not either.
            doc.analysis = analyse(&doc.path, &doc.text, &open);
            let diagnostics = doc.analysis.diagnostics(doc);
            let (uri, version) = (doc.uri.clone(), doc.version);
            self.publish(&uri, diagnostics, Some(version));
        }
    }

    /// The paths and texts of the open documents but one.
    fn open_texts(&self, except: &str) -> Vec<(PathBuf, String)> {
        self.docs
            .iter()
            .filter(|(k, _)| k.as_str() != except)
            .map(|(_, d)| (d.path.clone(), d.text.clone()))
            .collect()
    }

    fn publish(
        &mut self,
        uri: &Uri,
        diagnostics: Vec<lsp_types::Diagnostic>,
        version: Option<i32>,
    ) {
        let params = PublishDiagnosticsParams {
            uri: uri.clone(),
            diagnostics,
            version,
        };
        let n = Notification::new(note::PublishDiagnostics::METHOD.to_string(), params);
        if let Err(e) = self.send(Message::Notification(n)) {
            eprintln!("meeple lsp: cannot send diagnostics: {e}");
        }
    }
}

impl Document {
    /// The analysis worth keeping for completion once this document's text changes.
    fn last_parsed_owned(self) -> Option<analysis::Analysis> {
        match (self.analysis.parses, self.parsed) {
            (true, _) => Some(self.analysis),
            (false, older) => older,
        }
    }
}

fn capabilities() -> InitializeResult {
    InitializeResult {
        capabilities: ServerCapabilities {
            text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
            hover_provider: Some(HoverProviderCapability::Simple(true)),
            definition_provider: Some(OneOf::Left(true)),
            references_provider: Some(OneOf::Left(true)),
            document_symbol_provider: Some(OneOf::Left(true)),
            completion_provider: Some(CompletionOptions {
                trigger_characters: Some(vec![".".into()]),
                ..Default::default()
            }),
            rename_provider: Some(OneOf::Right(RenameOptions {
                prepare_provider: Some(true),
                work_done_progress_options: Default::default(),
            })),
            document_formatting_provider: Some(OneOf::Left(true)),
            code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
                code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
                ..Default::default()
            })),
            ..Default::default()
        },
        server_info: Some(ServerInfo {
            name: "meeple".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
        }),
    }
}
