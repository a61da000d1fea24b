//! Files the commands read and write, kept in bounds.
//!
//! Reads ([`read_text`]): only a regular file is opened (a device, a pipe or a folder named by
//! mistake is refused before it is opened, so `/dev/zero` is not read until memory runs out and
//! a FIFO does not block), no larger than a cap the caller names, and its text must be UTF-8 (the
//! first bad byte is named by line and column).
//!
//! Writes ([`write_output`]): a command replaces only a file of its own kind of output: never a
//! link, a device, a read-only file, a rules file, one of the command's own inputs, or a file
//! that does not look like what the command writes (a save, a report, a rulebook, a golden). The
//! text goes to a temporary file created exclusively under an unpredictable name in the same
//! folder, synced, then renamed over the target; on any failure the temporary file is removed.

mod output;

pub use output::{
    check_target, write_new, write_output, Output, JUNIT_MARK, RULEBOOK_HTML_MARK,
    RULEBOOK_TEXT_MARK, SIM_PAGE_MARK,
};

use std::io::{self, Error, ErrorKind, Read};
use std::path::Path;

/// Reads the text of a regular file of at most `cap` bytes. Refused, with the reason in the
/// error: a path that is not a regular file, a file larger than `cap`, text that is not UTF-8.
pub fn read_text(path: &Path, cap: u64) -> io::Result<String> {
    let bytes = read_bytes(path, cap)?;
    String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        // The prefix is valid UTF-8, so columns count characters as an editor does.
        let text = std::str::from_utf8(valid).unwrap_or_default();
        let line = text.matches('\n').count() + 1;
        let column = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Error::new(
            ErrorKind::InvalidData,
            format!(
                "it is not UTF-8 text: line {line}, column {column} holds a byte that is not UTF-8"
            ),
        )
    })
}

/// Reads the bytes of a regular file of at most `cap` bytes (see [`read_text`]).
pub fn read_bytes(path: &Path, cap: u64) -> io::Result<Vec<u8>> {
    // Asked before opening: opening a FIFO waits for a writer, and a device never ends.
    regular(&std::fs::metadata(path)?)?;
    let mut file = std::fs::File::open(path)?;
    // Asked again of what was opened, in case the path was changed in between.
    let meta = file.metadata()?;
    regular(&meta)?;
    if meta.len() > cap {
        return Err(too_large(cap));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    (&mut file).take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(too_large(cap));
    }
    Ok(bytes)
}

fn regular(meta: &std::fs::Metadata) -> io::Result<()> {
    if meta.is_file() {
        return Ok(());
    }
    let what = if meta.is_dir() {
        "it is a folder"
    } else {
        "it is not a regular file (a device, a pipe or a socket)"
    };
    Err(Error::new(ErrorKind::InvalidInput, what))
}

fn too_large(cap: u64) -> Error {
    Error::new(
        ErrorKind::InvalidInput,
        format!("it is larger than {}", size(cap)),
    )
}

/// A size in bytes as people read it: `16 MiB`, `512 KiB`, `100 bytes`.
pub fn size(bytes: u64) -> String {
    const KIB: u64 = 1024;
    const MIB: u64 = 1024 * KIB;
    if bytes >= MIB && bytes % MIB == 0 {
        format!("{} MiB", bytes / MIB)
    } else if bytes >= KIB && bytes % KIB == 0 {
        format!("{} KiB", bytes / KIB)
    } else {
        format!("{bytes} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("meeple-files-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        dir
    }

    #[test]
    fn only_regular_files_under_the_cap_are_read() {
        let dir = scratch("read");
        let file = dir.join("a.txt");
        std::fs::write(&file, "12345").unwrap();
        assert_eq!(read_text(&file, 5).unwrap(), "12345");
        let e = read_text(&file, 4).unwrap_err().to_string();
        assert_eq!(e, "it is larger than 4 bytes");
        let e = read_text(&dir, 100).unwrap_err().to_string();
        assert_eq!(e, "it is a folder");
        #[cfg(unix)]
        {
            let e = read_text(Path::new("/dev/zero"), 100)
                .unwrap_err()
                .to_string();
            assert!(e.contains("not a regular file"), "{e}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn text_that_is_not_utf8_is_placed_by_line_and_column() {
        let dir = scratch("utf8");
        let file = dir.join("a.rules");
        std::fs::write(&file, b"game \"G\"\n  \xc3\xa9t\xff\n").unwrap();
        let e = read_text(&file, 100).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidData);
        assert!(e.to_string().contains("line 2, column 5"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn sizes_read_as_people_say_them() {
        assert_eq!(size(16 * 1024 * 1024), "16 MiB");
        assert_eq!(size(512 * 1024), "512 KiB");
        assert_eq!(size(100), "100 bytes");
    }
}
