//! Writing a command's output file: only over a file of the same kind, never over an input, a
//! link or a device, and never half written.

use crate::load::same_file;
use std::io::{self, Error, ErrorKind, Read, Write};
use std::path::{Path, PathBuf};

/// What a command writes, and so which existing files it may replace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// A save (`save FILE` in the REPL, a failure save): JSON with `format` and `rules`.
    Save,
    /// The HTML page of `meeple sim --html`.
    SimPage,
    /// A rulebook of `meeple doc -o`, text or HTML.
    Rulebook,
    /// A golden file (`.snap`, `.snap.new`) of `meeple test`.
    Golden,
    /// A rules file laid out by `meeple fmt`: it replaces the file it read, and only that.
    Rules,
    /// The JUnit XML report of `meeple test --junit`.
    Junit,
}

/// The mark `meeple sim --html` puts in its page's head, by which it knows its own pages.
pub const SIM_PAGE_MARK: &str = "<meta name=\"generator\" content=\"meeple sim\">";
/// The mark `meeple doc` puts in an HTML rulebook's head.
pub const RULEBOOK_HTML_MARK: &str = "<meta name=\"generator\" content=\"meeple doc\">";
/// What a `meeple test --junit` report starts its root element with.
pub const JUNIT_MARK: &str = "<testsuites name=\"meeple test\"";
/// The first line of a text rulebook (a Markdown comment, unseen when the text is rendered).
pub const RULEBOOK_TEXT_MARK: &str = "<!-- meeple doc -->";

/// How much of an existing file is read to tell its kind.
const HEAD: u64 = 64 * 1024;

impl Output {
    /// What this output is called in a refusal.
    fn noun(self) -> &'static str {
        match self {
            Output::Save => "a Meeple save",
            Output::SimPage => "a page of `meeple sim --html`",
            Output::Rulebook => "a rulebook of `meeple doc`",
            Output::Golden => "a golden file of `meeple test`",
            Output::Rules => "a rules file",
            Output::Junit => "a JUnit report of `meeple test`",
        }
    }

    /// True if a file starting with `head` is one this output may replace.
    fn looks_like(self, head: &str) -> bool {
        let trimmed = head.trim_start();
        match self {
            Output::Save => {
                trimmed.starts_with('{')
                    && head.contains("\"format\"")
                    && head.contains("\"rules\"")
                    && !head.contains("\"schema\"")
            }
            Output::SimPage => head.contains(SIM_PAGE_MARK),
            Output::Rulebook => {
                head.contains(RULEBOOK_HTML_MARK) || trimmed.starts_with(RULEBOOK_TEXT_MARK)
            }
            Output::Golden => head.starts_with("---\n") || head.starts_with("---\r\n"),
            Output::Rules => true,
            Output::Junit => head.contains(JUNIT_MARK),
        }
    }
}

/// Whether `path` may receive `kind`: nothing is there yet, or a regular, writable file of that
/// kind that is none of `inputs`. The error says why not.
pub fn check_target(path: &Path, kind: Output, inputs: &[PathBuf]) -> io::Result<()> {
    let refuse = |why: String| Err(Error::new(ErrorKind::InvalidInput, why));
    if path.as_os_str().is_empty() {
        return refuse("no file name was given".into());
    }
    if inputs.iter().any(|i| same_file(i, path)) {
        return refuse(format!(
            "it is a file this command reads; {} goes to a file of its own",
            noun_lower(kind)
        ));
    }
    let rules = path.extension().is_some_and(|e| e == "rules");
    if rules && kind != Output::Rules {
        return refuse(format!(
            "it is a rules file; {} goes to a file of its own (such as `{}`)",
            noun_lower(kind),
            suggestion(path, kind)
        ));
    }
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        // Nothing there yet: the temporary file must be possible in its folder.
        Err(e) if e.kind() == ErrorKind::NotFound => return temporary(path, None).map(drop),
        Err(e) => return Err(e),
    };
    if meta.file_type().is_symlink() {
        return refuse("it is a symbolic link; meeple does not write through links".into());
    }
    if meta.is_dir() {
        return refuse("it is a folder".into());
    }
    if !meta.is_file() {
        return refuse("it is not a regular file".into());
    }
    if meta.permissions().readonly() {
        return refuse("it is read-only".into());
    }
    let mut head = Vec::new();
    std::fs::File::open(path)?
        .take(HEAD)
        .read_to_end(&mut head)?;
    if !kind.looks_like(&String::from_utf8_lossy(&head)) {
        return refuse(format!(
            "it exists and is not {}; choose another name, or move it away first",
            kind.noun()
        ));
    }
    Ok(())
}

/// Writes `text` to `path`, replacing a file there only if [`check_target`] allows it.
pub fn write_output(path: &Path, text: &str, kind: Output, inputs: &[PathBuf]) -> io::Result<()> {
    check_target(path, kind, inputs)?;
    let keep = std::fs::metadata(path).ok().map(|m| m.permissions());
    let tmp = temporary(path, keep)?;
    let tmp = filled(tmp, text)?;
    tmp.persist(path).map_err(|e| e.error)?;
    sync_folder(path);
    Ok(())
}

/// Writes `text` to `path`, which must not exist: nothing is ever replaced.
pub fn write_new(path: &Path, text: &str) -> io::Result<()> {
    let tmp = filled(temporary(path, None)?, text)?;
    tmp.persist_noclobber(path).map_err(|e| e.error)?;
    sync_folder(path);
    Ok(())
}

/// A temporary file beside `path`, created exclusively under an unpredictable name (never
/// through a link), with `permissions` if given (the file it replaces keeps its own), and
/// removed when dropped unless it is renamed into place.
fn temporary(
    path: &Path,
    permissions: Option<std::fs::Permissions>,
) -> io::Result<tempfile::NamedTempFile> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let mut builder = tempfile::Builder::new();
    let prefix = format!(".{name}.");
    builder.prefix(&prefix).suffix(".tmp");
    if let Some(p) = permissions {
        builder.permissions(p);
    }
    builder.tempfile_in(folder)
}

/// The temporary file with `text` written and synced to disk, so that the rename that follows
/// never puts a file in place whose bytes are not there yet.
fn filled(mut tmp: tempfile::NamedTempFile, text: &str) -> io::Result<tempfile::NamedTempFile> {
    tmp.write_all(text.as_bytes())?;
    tmp.as_file().sync_all()?;
    Ok(tmp)
}

/// Syncs the folder of `path`, so that the rename itself survives a crash (where the platform
/// allows opening a folder; failures are not worth reporting once the file is in place).
fn sync_folder(path: &Path) {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if let Ok(dir) = std::fs::File::open(folder) {
        let _ = dir.sync_all();
    }
}

fn noun_lower(kind: Output) -> &'static str {
    match kind {
        Output::Save => "a save",
        Output::SimPage => "the page",
        Output::Rulebook => "the rulebook",
        Output::Golden => "a golden file",
        Output::Rules => "a rules file",
        Output::Junit => "the report",
    }
}

/// A name for `kind` beside a rules file: `game.json` for `game.rules`.
fn suggestion(path: &Path, kind: Output) -> String {
    let extension = match kind {
        Output::Save => "json",
        Output::SimPage => "html",
        Output::Rulebook => "md",
        Output::Golden => "snap",
        Output::Rules => "rules",
        Output::Junit => "xml",
    };
    path.with_extension(extension).display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("meeple-out-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        dir
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    const SAVE: &str = "{\n  \"format\": 3,\n  \"rules\": \"g.rules\"\n}\n";

    #[test]
    fn a_save_replaces_only_a_save() {
        let dir = scratch("kinds");
        let save = dir.join("s.json");
        write_output(&save, SAVE, Output::Save, &[]).unwrap();
        write_output(&save, SAVE, Output::Save, &[]).expect("a save over a save");
        let notes = dir.join("notes.txt");
        std::fs::write(&notes, "my notes").unwrap();
        let e = write_output(&notes, SAVE, Output::Save, &[]).unwrap_err();
        assert!(e.to_string().contains("is not a Meeple save"), "{e}");
        assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes");
        let rules = dir.join("g.rules");
        std::fs::write(&rules, "game \"G\" { players 2 }").unwrap();
        let e = write_output(&rules, SAVE, Output::Save, &[]).unwrap_err();
        assert!(e.to_string().contains("it is a rules file"), "{e}");
        let input = dir.join("input.json");
        std::fs::write(&input, SAVE).unwrap();
        let e = write_output(&input, SAVE, Output::Save, std::slice::from_ref(&input)).unwrap_err();
        assert!(e.to_string().contains("a file this command reads"), "{e}");
        assert_eq!(
            entries(&dir),
            ["g.rules", "input.json", "notes.txt", "s.json"],
            "no temporary file is left"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn links_devices_and_read_only_files_are_refused() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("links");
        let victim = dir.join("victim.json");
        std::fs::write(&victim, SAVE).unwrap();
        let link = dir.join("link.json");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        let e = write_output(&link, "x", Output::Save, &[]).unwrap_err();
        assert!(e.to_string().contains("symbolic link"), "{e}");
        // A pipe stands for a device here: a test that wrote over `/dev/null` itself, run as
        // root against a regression, would replace it for the whole machine.
        let fifo = dir.join("pipe.json");
        let c = std::ffi::CString::new(fifo.to_string_lossy().as_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path; mkfifo only creates the pipe.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
        let e = write_output(&fifo, "x", Output::Save, &[]).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        let locked = dir.join("locked.json");
        std::fs::write(&locked, SAVE).unwrap();
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o444)).unwrap();
        let e = write_output(&locked, "x", Output::Save, &[]).unwrap_err();
        assert!(e.to_string().contains("read-only"), "{e}");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), SAVE);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_temporary_link_is_not_followed_and_a_replaced_file_keeps_its_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("planted");
        let victim = dir.join("victim.txt");
        std::fs::write(&victim, "precious").unwrap();
        let save = dir.join("x.json");
        // The name the old code wrote through.
        std::os::unix::fs::symlink(&victim, dir.join("x.json.tmp")).unwrap();
        std::fs::write(&save, SAVE).unwrap();
        std::fs::set_permissions(&save, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_output(&save, SAVE, Output::Save, &[]).unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        let mode = std::fs::metadata(&save).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_failed_write_leaves_no_temporary_file_and_new_never_replaces() {
        let dir = scratch("failed");
        let e = write_output(&dir.join("missing/x.json"), SAVE, Output::Save, &[]);
        assert!(e.is_err());
        let fresh = dir.join("fresh.json");
        write_new(&fresh, SAVE).unwrap();
        assert!(write_new(&fresh, "other").is_err());
        assert_eq!(std::fs::read_to_string(&fresh).unwrap(), SAVE);
        assert_eq!(entries(&dir), ["fresh.json"]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
