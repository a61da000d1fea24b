//! Loading rules files from disk: a base game, the variants it is played with, and the patching
//! of the base by each variant (add, replace, remove named parts).
//!
//! A variant names its base with `base "../game.rules"`; a file given to `meeple play` may itself
//! be a variant, and further variants may be stacked with `--variant`. Every variant must rest on
//! the same base game.

use crate::check::{self, decl_span, index::NameIndex, Merged};
use crate::diag::{Diagnostic, Diagnostics, FileId, SourceMap, Span};
use crate::ir::Program;
use crate::syntax::{self, ast};
use std::path::{Path, PathBuf};

/// The outcome of loading and checking: a program if there were no errors, and every diagnostic.
pub struct Loaded {
    /// The runnable program, when the files had no errors.
    pub program: Option<Program>,
    /// Errors and warnings, in source order.
    pub diagnostics: Diagnostics,
    /// Every file read, for rendering the diagnostics.
    pub sources: SourceMap,
}

impl Loaded {
    /// Every file the load read (a variant's base included), as it was opened.
    pub fn files(&self) -> Vec<PathBuf> {
        self.sources.paths()
    }
}

/// Loads a rules file (a game or a variant) with extra variants, and checks the result.
pub fn load(path: &Path, variants: &[PathBuf]) -> Loaded {
    load_with(path, variants, &read_rules_file)
}

/// The largest rules file read, in bytes: the largest game is some 40 KB, so this is some 250
/// times past any, and small enough that any file under it is checked in under a second of
/// CPU and a few times its size in memory (docs/reliability.md).
pub const MAX_RULES_FILE: u64 = 10 * 1024 * 1024;

/// Reads a rules file from disk: a regular file whose name ends in `.rules`, of at most
/// [`MAX_RULES_FILE`] bytes, in UTF-8. So a device or a pipe named by mistake (`/dev/zero` as a
/// base) is refused rather than read forever, and a file that is not rules (`/etc/passwd` as a
/// base) is never read, so no diagnostic quotes its lines.
pub fn read_rules_file(path: &Path) -> std::io::Result<String> {
    if path.extension().is_none_or(|e| e != "rules") {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "it is not a `.rules` file",
        ));
    }
    crate::files::read_text(path, MAX_RULES_FILE)
}

/// Like [`load`], reading files through `read` (for tests and embedding).
pub fn load_with(
    path: &Path,
    variants: &[PathBuf],
    read: &dyn Fn(&Path) -> std::io::Result<String>,
) -> Loaded {
    load_inner(path, variants, read, false).0
}

/// Like [`load_with`], also indexing every declared name and its uses, for editors. The index
/// is empty when a file could not be read or parsed.
pub fn load_indexed(
    path: &Path,
    read: &dyn Fn(&Path) -> std::io::Result<String>,
) -> (Loaded, NameIndex) {
    let (loaded, index, _) = load_inner(path, &[], read, true);
    (loaded, index.unwrap_or_default())
}

/// Like [`load_with`], also returning the merged declarations (when the files parsed and the
/// variants applied), for front ends that read the rules themselves, such as the rulebook.
pub fn load_merged_with(
    path: &Path,
    variants: &[PathBuf],
    read: &dyn Fn(&Path) -> std::io::Result<String>,
) -> (Loaded, Option<Merged>) {
    let (loaded, _, merged) = load_inner(path, variants, read, false);
    (loaded, merged)
}

fn load_inner(
    path: &Path,
    variants: &[PathBuf],
    read: &dyn Fn(&Path) -> std::io::Result<String>,
    indexed: bool,
) -> (Loaded, Option<NameIndex>, Option<Merged>) {
    let mut loader = Loader {
        sources: SourceMap::default(),
        diags: Vec::new(),
        read,
    };
    let merged = loader.merge(path, variants);
    let Loader {
        sources, mut diags, ..
    } = loader;
    let Some(mut merged) = merged else {
        let loaded = Loaded {
            program: None,
            diagnostics: Diagnostics(diags),
            sources,
        };
        return (loaded, None, None);
    };
    merged.sources = sources.clone();
    let had_errors = diags.iter().any(Diagnostic::is_error);
    let (program, checked, index) = if indexed {
        let (program, checked, index) = check::check_indexed(&merged);
        (program, checked, Some(index))
    } else {
        let (program, checked) = check::check(&merged);
        (program, checked, None)
    };
    diags.extend(checked.0);
    // The program as it runs: small defs written into their callers (`ir::inline`), and its
    // roots numbered for the code the engine compiles from them (`ir::roots`).
    let program = program.map(|mut p| {
        crate::ir::inline::inline_small_defs(&mut p);
        crate::ir::roots::number_roots(&mut p);
        p
    });
    let loaded = Loaded {
        program: if had_errors { None } else { program },
        diagnostics: Diagnostics(diags),
        sources,
    };
    (loaded, index, Some(merged))
}

/// Checks one file from a string, as if it were on disk at `name`; variants are not followed.
pub fn check_source(name: &str, text: &str) -> Loaded {
    let owned = text.to_string();
    let name_path = PathBuf::from(name);
    let np = name_path.clone();
    load_with(&name_path, &[], &move |p: &Path| {
        if p == np {
            Ok(owned.clone())
        } else {
            Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "not available when checking a single text",
            ))
        }
    })
}

struct Parsed {
    path: PathBuf,
    file: FileId,
    ast: ast::File,
    header: Option<ast::VariantDecl>,
}

struct Loader<'r> {
    sources: SourceMap,
    diags: Vec<Diagnostic>,
    read: &'r dyn Fn(&Path) -> std::io::Result<String>,
}

/// How many control characters in strings are warned about one by one, in a file.
const CONTROLS_NAMED: usize = 5;

impl Loader<'_> {
    /// Warns of each control character in a string of the file (a few, then how many more):
    /// every output shows it escaped, but one in a string is a mistake or a trick.
    fn warn_of_controls(&mut self, file: FileId, text: &str) {
        let found = syntax::controls::in_strings(text);
        for (i, &(at, c)) in found.iter().enumerate().take(CONTROLS_NAMED) {
            let more = match found.len().saturating_sub(CONTROLS_NAMED) {
                n if i + 1 == CONTROLS_NAMED && n > 0 => {
                    format!(" ({n} more in this file)")
                }
                _ => String::new(),
            };
            self.diags.push(
                Diagnostic::warning(
                    "control-character",
                    format!(
                        "a control character (U+{:04X}) in a string{more}",
                        c as u32
                    ),
                    Span::new(file, at, at + c.len_utf8()),
                )
                .with_label(format!("shown as `{}`, never obeyed by a terminal", crate::printable::escaped(c)))
                .with_help("take it out: a string is text for players (`\\n` writes a new line, `\\t` a tab)"),
            );
        }
    }
    fn parse(&mut self, path: &Path, from: Option<Span>) -> Option<Parsed> {
        let text = match (self.read)(path) {
            Ok(t) => t,
            Err(e) => {
                // Text that is not UTF-8 is a file found but not readable as rules.
                let (code, help) = if e.kind() == std::io::ErrorKind::InvalidData {
                    ("not-utf8", Some("save the file as UTF-8 text"))
                } else {
                    ("file-not-found", None)
                };
                let d = match from {
                    Some(span) => Diagnostic::error(
                        code,
                        format!("cannot read `{}`: {e}", path.display()),
                        span,
                    )
                    .with_label("this file")
                    .with_help(help.unwrap_or("paths are relative to the file that names them")),
                    None => {
                        let id = self.sources.add(path.display().to_string(), "");
                        Diagnostic::error(
                            code,
                            format!("cannot read `{}`: {e}", path.display()),
                            Span::new(id, 0, 0),
                        )
                        .with_help(help.unwrap_or("check the path; rules files end in .rules"))
                    }
                };
                self.diags.push(d);
                return None;
            }
        };
        let file = self.sources.add(path.display().to_string(), text.as_str());
        let ast = match syntax::parse(file, &text) {
            Ok(a) => a,
            Err(errs) => {
                self.diags.extend(errs);
                return None;
            }
        };
        self.warn_of_controls(file, &text);
        let mut header = None;
        for item in &ast.items {
            if let ast::Item::Decl {
                decl: ast::Decl::Variant(v),
                ..
            } = item
            {
                if header.is_some() {
                    self.diags.push(
                        Diagnostic::error(
                            "duplicate-definition",
                            "a second variant header",
                            v.span,
                        )
                        .with_label("the variant is already named above")
                        .with_help("a variant file has one `variant` header"),
                    );
                }
                header.get_or_insert_with(|| v.clone());
            }
        }
        Some(Parsed {
            path: path.to_path_buf(),
            file,
            ast,
            header,
        })
    }

    /// Follows `base` links from a file down to its base game; returns the chain base-first.
    fn chain(&mut self, path: &Path, from: Option<Span>) -> Option<Vec<Parsed>> {
        let mut chain = Vec::new();
        let mut next = Some((path.to_path_buf(), from));
        while let Some((p, from)) = next.take() {
            if chain.len() > 16 || chain.iter().any(|c: &Parsed| same_file(&c.path, &p)) {
                let span = from.unwrap_or_default();
                self.diags.push(
                    Diagnostic::error(
                        "variant-base-cycle",
                        "these variants name each other as their base",
                        span,
                    )
                    .with_label("leads back to a file already loaded")
                    .with_help("a chain of `base` links must end at a game file"),
                );
                return None;
            }
            let parsed = self.parse(&p, from)?;
            if let Some(h) = &parsed.header {
                match &h.base {
                    Some(base) => {
                        let rel = base.literal().unwrap_or_default();
                        let dir = p.parent().unwrap_or(Path::new("."));
                        next = Some((dir.join(rel), Some(base.span)));
                    }
                    None => self.diags.push(
                        Diagnostic::error(
                            "variant-missing-base",
                            "this variant does not name its base game",
                            h.span,
                        )
                        .with_label("no `base` here")
                        .with_help("add `base \"../game.rules\"` inside the variant header"),
                    ),
                }
            }
            chain.push(parsed);
        }
        chain.reverse();
        Some(chain)
    }

    fn merge(&mut self, path: &Path, variants: &[PathBuf]) -> Option<Merged> {
        let mut chain = self.chain(path, None)?;
        for v in variants {
            let mut more = self.chain(v, None)?;
            let base = &chain[0];
            if !same_file(&more[0].path, &base.path) {
                let span = more
                    .get(1)
                    .and_then(|m| m.header.as_ref())
                    .and_then(|h| h.base.as_ref())
                    .map(|b| b.span);
                let d = if more.len() == 1 {
                    // No `base` at all: a game of its own was named as a variant.
                    Diagnostic::error(
                        "variant-base-mismatch",
                        format!("`{}` is a game, not a variant", v.display()),
                        Span::new(more[0].file, 0, 0),
                    )
                    .with_label("it names no `base` game")
                    .with_help(format!(
                        "a variant names its game in its header (`variant \"…\" {{ base \
                         \"…\" }}`); to play this game rather than `{}`, give it as the file",
                        base.path.display()
                    ))
                } else {
                    Diagnostic::error(
                        "variant-base-mismatch",
                        format!("`{}` is a variant of another game", v.display()),
                        span.unwrap_or(Span::new(more[0].file, 0, 0)),
                    )
                    .with_label(format!("its base is `{}`", more[0].path.display()))
                    .with_help(format!(
                        "combine only variants of `{}`",
                        base.path.display()
                    ))
                };
                self.diags.push(d);
                return None;
            }
            for m in more.drain(1..) {
                if !chain.iter().any(|c| same_file(&c.path, &m.path)) {
                    chain.push(m);
                }
            }
        }
        if chain[0].header.is_some() {
            // The chain stopped at a variant with no `base`: `chain` reported it already.
            return None;
        }
        self.check_excludes(&chain);
        let mut merged = Merged::default();
        // Scenarios belong to the file they are written in: only the file played or tested
        // contributes its own.
        let primary = path.to_path_buf();
        let base = chain.remove(0);
        let base_is_primary = same_file(&base.path, &primary);
        for item in base.ast.items {
            match item {
                ast::Item::Decl {
                    patch: None,
                    decl: ast::Decl::Scenario(_),
                } if !base_is_primary => {}
                ast::Item::Decl { patch: None, decl } => merged.decls.push(decl),
                ast::Item::Decl {
                    patch: Some((_, span)),
                    ..
                } => self
                    .diags
                    .push(patch_outside_variant(span).with_fix(span, "")),
                ast::Item::Remove { span, .. } => self.diags.push(patch_outside_variant(span)),
            }
        }
        for v in chain {
            let title = v
                .header
                .as_ref()
                .and_then(|h| h.title.literal())
                .unwrap_or_default();
            merged.variants.push(title);
            let is_primary = same_file(&v.path, &primary);
            for item in v.ast.items {
                match item {
                    ast::Item::Decl {
                        patch: None,
                        decl: ast::Decl::Scenario(sc),
                    } => {
                        if is_primary {
                            merged.decls.push(ast::Decl::Scenario(sc));
                        }
                    }
                    item => self.apply(&mut merged, item),
                }
            }
        }
        Some(merged)
    }

    fn check_excludes(&mut self, chain: &[Parsed]) {
        for v in chain.iter().skip(1) {
            let Some(h) = &v.header else { continue };
            let dir = v.path.parent().unwrap_or(Path::new("."));
            for ex in &h.excludes {
                let target = dir.join(ex.literal().unwrap_or_default());
                if let Some(other) = chain.iter().skip(1).find(|c| same_file(&c.path, &target)) {
                    let other_title = other
                        .header
                        .as_ref()
                        .and_then(|h| h.title.literal())
                        .unwrap_or_default();
                    let title = h.title.literal().unwrap_or_default();
                    self.diags.push(
                        Diagnostic::error(
                            "variants-exclude",
                            format!("`{title}` cannot be combined with `{other_title}`"),
                            ex.span,
                        )
                        .with_label("this variant excludes the other")
                        .with_help(format!("play `{title}` or `{other_title}`, not both")),
                    );
                }
            }
        }
    }

    fn apply(&mut self, merged: &mut Merged, item: ast::Item) {
        match item {
            ast::Item::Remove { kind, name, .. } => match find_part(merged, kind, &name.text) {
                Some(i) => {
                    merged.decls.remove(i);
                }
                None => self.missing_part(merged, kind, &name, "remove", None),
            },
            ast::Item::Decl {
                patch: Some((patch, patch_span)),
                decl,
            } => {
                let Some((kind, name)) = decl.part() else {
                    self.diags.push(
                        Diagnostic::error(
                            "variant-unknown-part",
                            "a game header cannot be patched",
                            decl_span(&decl),
                        )
                        .with_label("not a named part")
                        .with_help(
                            "a variant changes parts of its base: vars, actions, phases, flow, ...",
                        ),
                    );
                    return;
                };
                match (patch, find_part(merged, kind, &name.text)) {
                    (ast::Patch::Replace, Some(i)) => merged.decls[i] = decl,
                    (ast::Patch::Replace, None) => {
                        self.missing_part(merged, kind, &name, "replace", Some(patch_span))
                    }
                    (ast::Patch::Add, None) => merged.decls.push(decl),
                    (ast::Patch::Add, Some(i)) => {
                        let first = decl_span(&merged.decls[i]);
                        let mut d = Diagnostic::error(
                            "variant-duplicate-part",
                            format!(
                                "the base game already has {} `{}`",
                                kind.keyword(),
                                name.text
                            ),
                            name.span,
                        )
                        .with_label("already in the base")
                        .with_help(format!("use `replace {} ...` to change it", kind.keyword()))
                        .with_fix(patch_span, "replace");
                        if first.file == name.span.file {
                            d = d.with_secondary(first, "declared here");
                        }
                        self.diags.push(d);
                    }
                }
            }
            ast::Item::Decl {
                patch: None,
                decl: ast::Decl::Variant(_),
            } => {}
            // A variant may draw what it adds or replaces under a heading of its own.
            ast::Item::Decl {
                patch: None,
                decl: decl @ ast::Decl::Section(_),
            } => merged.decls.push(decl),
            ast::Item::Decl { patch: None, decl } => {
                let span = decl_span(&decl);
                let d = match decl {
                    ast::Decl::Game(_) => Diagnostic::error("variant-missing-patch", "a variant file cannot have a game header", span)
                        .with_label("the game is named by the base file")
                        .with_help("remove this header; the variant's own header is `variant \"Name\" { base \"...\" }`")
                        .with_fix(span, ""),
                    _ => {
                        let d = Diagnostic::error("variant-missing-patch", "a variant must say what it does with each part", span)
                            .with_label("add, replace or remove?")
                            .with_help("write `add` before a new part or `replace` before a changed one");
                        // The word the part lacks, before its declaration: `replace` if the
                        // base has it, `add` if not.
                        let Some((kind, name)) = decl.part() else {
                            self.diags.push(d);
                            return;
                        };
                        let verb = match find_part(merged, kind, &name.text) {
                            Some(_) => "replace ",
                            None => "add ",
                        };
                        let text = &self.sources.file(span.file).text;
                        match declaration_start(text, span.start as usize) {
                            Some(at) => d.with_fix(Span::new(span.file, at, at), verb),
                            None => d,
                        }
                    }
                };
                self.diags.push(d);
            }
        }
    }

    /// Reports a part that a variant would `verb` (`remove`, `replace`) and the base lacks,
    /// suggesting a part of the same kind by a near name; `replace_at` is where `replace` is
    /// written, for the fix to `add`.
    fn missing_part(
        &mut self,
        merged: &Merged,
        kind: ast::PartKind,
        name: &ast::Name,
        verb: &str,
        replace_at: Option<Span>,
    ) {
        let same_kind: Vec<String> = merged
            .decls
            .iter()
            .filter_map(|d| d.part())
            .filter(|(k, _)| *k == kind)
            .map(|(_, n)| n.text)
            .collect();
        let mut d = Diagnostic::error(
            "variant-unknown-part",
            format!(
                "the base game has no {} `{}` to {verb}",
                kind.keyword(),
                name.text
            ),
            name.span,
        )
        .with_label(format!("no such {} in the base", kind.keyword()));
        d = match crate::diag::suggest_name(&name.text, same_kind.iter().map(String::as_str)) {
            Some(s) => d.with_suggestion(&s),
            None if kind.is_singleton() => {
                d.with_help(format!("use `add {}` to give the game one", kind.keyword()))
            }
            None => d.with_help(format!(
                "use `add {} {}` for a new part",
                kind.keyword(),
                name.text
            )),
        };
        // `replace` of a part the base lacks: `add` is the fix (a misspelling is not).
        if let (Some(at), true) = (replace_at, d.fixes.is_empty()) {
            d = d.with_fix(at, "add");
        }
        self.diags.push(d);
    }
}

/// Where the base (as merged so far) declares the part `kind` `name`.
fn find_part(merged: &Merged, kind: ast::PartKind, name: &str) -> Option<usize> {
    merged
        .decls
        .iter()
        .position(|d| d.part().is_some_and(|(k, n)| k == kind && n.text == name))
}

/// Where the declaration whose name starts at `name` starts: the first word of the name's line,
/// when only declaration words (`player secret var`, `effect`, ...) lie between it and the name.
fn declaration_start(text: &str, name: usize) -> Option<usize> {
    let before = text.get(..name)?;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let words = &before[line_start..];
    let at = line_start + (words.len() - words.trim_start().len());
    let keywords = [
        "player",
        "public",
        "secret",
        "hidden",
        "internal",
        "var",
        "kind",
        "enum",
        "action",
        "effect",
        "phase",
        "def",
        "table",
        "die",
        "invariant",
        "show",
    ];
    words
        .split_whitespace()
        .all(|w| keywords.contains(&w))
        .then_some(at)
}

/// An `add`, `replace` or `remove` in a game file. Dropping an `add` or a `replace` is the fix
/// that declares the part plainly; a `remove` has none.
fn patch_outside_variant(span: Span) -> Diagnostic {
    Diagnostic::error(
        "patch-outside-variant",
        "`add`, `replace` and `remove` belong in variant files",
        span,
    )
    .with_label("this file is a game, not a variant")
    .with_help(
        "declare the part plainly here, or move the patch into a variant file with a `variant` \
         header",
    )
}

/// True when two paths name the same file: the same file on disk, or the same path once `.` and
/// `..` are read.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => normalize(a) == normalize(b),
    }
}

/// A path without `.` and `..` parts, read as written (links are not followed).
pub fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}
