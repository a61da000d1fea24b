//! The shape of the code a newcomer reads: no function in `src/` runs over
//! [`MAX_LINES`] lines (from its `fn` line to its closing brace) without a reason written
//! above it, on a line of its own: `// Long because …` (a big match over a closed set, say).
//! `scripts/long-functions.py` lists them all.

use std::path::{Path, PathBuf};

/// The longest a function may run without a reason written above it.
const MAX_LINES: usize = 100;

/// The folders and files under `src/` held to [`MAX_LINES`].
const COVERED: &[&str] = &[
    "src/bots",
    "src/check",
    "src/cli",
    "src/diag",
    "src/engine",
    "src/files",
    "src/golden.rs",
    "src/ir",
    "src/lib.rs",
    "src/load.rs",
    "src/lsp",
    "src/main.rs",
    "src/printable.rs",
    "src/repl",
    "src/rulebook",
    "src/save",
    "src/scenario",
    "src/serve",
    "src/sim",
    "src/syntax",
];

/// A function over [`MAX_LINES`] lines: where it starts, its name and length, and whether a
/// reason is written above it.
#[derive(Debug)]
struct Long {
    file: PathBuf,
    line: usize,
    name: String,
    lines: usize,
    reason: bool,
}

/// The name of the function a line declares, if it starts one (`pub(crate) const fn f`, say).
fn fn_name(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    loop {
        let before = rest;
        if let Some(r) = rest.strip_prefix("pub") {
            rest = r.trim_start();
            if rest.starts_with('(') {
                rest = rest[rest.find(')')? + 1..].trim_start();
            }
        }
        for word in ["const ", "async ", "unsafe ", "extern \"C\" "] {
            if let Some(r) = rest.strip_prefix(word) {
                rest = r.trim_start();
            }
        }
        if rest == before {
            break;
        }
    }
    let rest = rest.strip_prefix("fn ")?.trim_start();
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

/// The line (0-based) of the brace that closes the body of the function whose `fn` is on
/// line `start`; `None` for a declaration without a body. Comments, strings, raw strings
/// and character literals are skipped, so that a `'{'` in them counts for nothing.
fn body_end(lines: &[&str], start: usize) -> Option<usize> {
    let text: Vec<char> = lines[start..].join("\n").chars().collect();
    let (mut i, mut line, mut depth, mut opened) = (0, start, 0usize, false);
    // Parentheses and brackets of the signature: a `;` in `[u8; N]` ends no declaration.
    let mut nested = 0usize;
    let at = |i: usize| text.get(i).copied().unwrap_or('\0');
    while i < text.len() {
        let c = text[i];
        match c {
            '\n' => line += 1,
            '/' if at(i + 1) == '/' => {
                while i < text.len() && text[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            '/' if at(i + 1) == '*' => {
                i += 2;
                while i < text.len() && !(text[i] == '*' && at(i + 1) == '/') {
                    line += usize::from(text[i] == '\n');
                    i += 1;
                }
                i += 2;
                continue;
            }
            'r' if (at(i + 1) == '"' || (at(i + 1) == '#' && matches!(at(i + 2), '"' | '#')))
                && !(i > 0
                    && (text[i - 1].is_alphanumeric() || text[i - 1] == '_')
                    && text[i - 1] != 'b') =>
            {
                let hashes = text[i + 1..].iter().take_while(|&&h| h == '#').count();
                i += 2 + hashes;
                loop {
                    if i >= text.len() {
                        return None;
                    }
                    if text[i] == '"' && (1..=hashes).all(|k| at(i + k) == '#') {
                        i += 1 + hashes;
                        break;
                    }
                    line += usize::from(text[i] == '\n');
                    i += 1;
                }
                continue;
            }
            '"' => {
                i += 1;
                while i < text.len() && text[i] != '"' {
                    if text[i] == '\\' {
                        i += 1;
                    }
                    line += usize::from(at(i) == '\n');
                    i += 1;
                }
            }
            '\'' if at(i + 1) == '\\' => {
                i += 3;
                while i < text.len() && text[i] != '\'' {
                    i += 1;
                }
            }
            // A character literal; otherwise a lifetime, which has no closing quote.
            '\'' if at(i + 2) == '\'' => i += 2,
            '{' => {
                depth += 1;
                opened = true;
            }
            '}' => {
                depth = depth.saturating_sub(1);
                if opened && depth == 0 {
                    return Some(line);
                }
            }
            '(' | '[' => nested += 1,
            ')' | ']' => nested = nested.saturating_sub(1),
            ';' if !opened && nested == 0 => return None,
            _ => {}
        }
        i += 1;
    }
    None
}

/// Whether a `// Long because` line stands among the comments and attributes right above
/// line `start`.
fn has_reason(lines: &[&str], start: usize) -> bool {
    lines[..start]
        .iter()
        .rev()
        .map(|l| l.trim_start())
        .take_while(|l| l.starts_with("//") || l.starts_with("#["))
        .any(|l| l.starts_with("// Long because"))
}

/// The functions of `file`'s text over [`MAX_LINES`] lines.
fn long_functions(file: &Path, text: &str) -> Vec<Long> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let Some(name) = fn_name(line) else { continue };
        let Some(end) = body_end(&lines, start) else {
            continue;
        };
        if end - start + 1 > MAX_LINES {
            out.push(Long {
                file: file.to_path_buf(),
                line: start + 1,
                name: name.to_string(),
                lines: end - start + 1,
                reason: has_reason(&lines, start),
            });
        }
    }
    out
}

/// Every `.rs` file under `path` (or `path` itself), relative to the crate root.
fn rust_files(root: &Path, path: &Path, out: &mut Vec<PathBuf>) {
    let abs = root.join(path);
    if abs.is_file() {
        if path.extension().is_some_and(|e| e == "rs") {
            out.push(path.to_path_buf());
        }
        return;
    }
    let mut entries: Vec<_> = std::fs::read_dir(&abs)
        .unwrap_or_else(|e| panic!("{}: {e}", abs.display()))
        .map(|e| e.expect("a folder entry").file_name())
        .collect();
    entries.sort();
    for name in entries {
        rust_files(root, &path.join(name), out);
    }
}

#[test]
fn no_function_in_a_covered_folder_is_long_without_a_reason() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for c in COVERED {
        rust_files(root, Path::new(c), &mut files);
    }
    let unexplained: Vec<String> = files
        .iter()
        .flat_map(|f| {
            let text = std::fs::read_to_string(root.join(f)).expect("a source file");
            long_functions(f, &text)
        })
        .filter(|l| !l.reason)
        .map(|l| {
            format!(
                "{}:{} `{}`: {} lines",
                l.file.display(),
                l.line,
                l.name,
                l.lines
            )
        })
        .collect();
    assert!(
        unexplained.is_empty(),
        "functions over {MAX_LINES} lines without a `// Long because …` line above them: \
         split them into named helpers, or say why they are clearer whole:\n{}",
        unexplained.join("\n")
    );
}

#[test]
fn every_folder_of_src_is_covered_or_listed_as_still_to_do() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(root, Path::new("src"), &mut files);
    let unlisted: Vec<String> = files
        .iter()
        .filter(|f| !COVERED.iter().any(|c| f.starts_with(c)))
        .map(|f| f.display().to_string())
        .collect();
    assert!(
        unlisted.is_empty(),
        "source files not covered: {unlisted:?}"
    );
}

#[test]
fn the_count_runs_from_fn_to_the_closing_brace_past_braces_in_literals() {
    let body = |n: usize| "    x += 1;\n".repeat(n);
    let text = format!(
        "/// Short.\nfn short() {{\n{}}}\n\n// Long because a test says so.\nfn explained() {{\n{}}}\n\n\
         pub(crate) fn quoted(_: [u8; 2]) {{\n    let open = '{{';\n    let q = '\\'';\n    let s = \"}}}}\";\n    let r = r#\"{{\"#;\n    // }}\n{}}}\n\
         trait T {{\n    fn declared(&self);\n}}\n",
        body(98),
        body(99),
        body(98),
    );
    let found = long_functions(Path::new("t.rs"), &text);
    let names: Vec<(&str, usize, bool)> = found
        .iter()
        .map(|l| (l.name.as_str(), l.lines, l.reason))
        .collect();
    assert_eq!(names, [("explained", 101, true), ("quoted", 105, false)]);
}
