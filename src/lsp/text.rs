//! Positions and paths as the protocol has them: byte offsets to UTF-16 line and character
//! positions and back, and `file:` URIs to paths and back.

use crate::load::normalize;
use lsp_types::{Position, Range, Uri};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Where each line of a text starts, to turn byte offsets into positions and back.
#[derive(Debug, Clone)]
pub struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    /// The line starts of `text` (`\n` ends a line; a `\r` before it belongs to no line).
    pub fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { starts }
    }

    /// The position of a byte offset: its line, and its column in UTF-16 code units. An offset
    /// past the end, or inside a character, is moved back to the nearest character start.
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let character: usize = text[start..offset].chars().map(char::len_utf16).sum();
        Position::new(line as u32, character as u32)
    }

    /// The range of a byte span.
    pub fn range(&self, text: &str, start: usize, end: usize) -> Range {
        Range::new(
            self.position(text, start),
            self.position(text, end.max(start)),
        )
    }

    /// The byte offset of a position. A line past the end means the end of the text; a
    /// character past the end of its line means the end of that line.
    pub fn offset(&self, text: &str, pos: Position) -> usize {
        let Some(&start) = self.starts.get(pos.line as usize) else {
            return text.len();
        };
        let end = self
            .starts
            .get(pos.line as usize + 1)
            .map_or(text.len(), |&next| next - 1);
        let line = text[start..end].trim_end_matches('\r');
        let mut units = 0usize;
        for (i, c) in line.char_indices() {
            if units >= pos.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        start + line.len()
    }
}

/// The path of a `file:` URI; `None` for any other scheme.
pub fn uri_to_path(uri: &Uri) -> Option<PathBuf> {
    let s = uri.as_str();
    let rest = s.strip_prefix("file://")?;
    // `file:///home/x` has an empty authority; `file://host/share` is left alone.
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    if !path.starts_with('/') {
        return None;
    }
    let decoded = percent_decode(path)?;
    // `file:///C:/x` on Windows is the path `C:/x`.
    let bytes = decoded.as_bytes();
    if cfg!(windows) && bytes.len() > 2 && bytes[2] == b':' && bytes[1].is_ascii_alphabetic() {
        return Some(PathBuf::from(&decoded[1..]));
    }
    Some(PathBuf::from(decoded))
}

/// The `file:` URI of a path, made absolute against the working directory and without `.` and
/// `..` (a variant's `base "../game.rules"` names the game's own URI).
pub fn path_to_uri(path: &Path) -> Option<Uri> {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().ok()?.join(path)
    };
    let absolute = normalize(&joined);
    let text = absolute.to_str()?.replace('\\', "/");
    let mut out = String::from("file://");
    if !text.starts_with('/') {
        out.push('/');
    }
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~:".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    Uri::from_str(&out).ok()
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units() {
        let text = "ab\n\u{e9}\u{1F3B2}x\r\nlast";
        let lines = Lines::new(text);
        // `x` is after a 2-byte é (1 unit) and a 4-byte die (2 units).
        let x = text.find('x').unwrap();
        assert_eq!(lines.position(text, x), Position::new(1, 3));
        assert_eq!(lines.offset(text, Position::new(1, 3)), x);
        // Past the end of a line: its end, before `\r\n`.
        assert_eq!(lines.offset(text, Position::new(1, 99)), x + 1);
        assert_eq!(lines.offset(text, Position::new(9, 0)), text.len());
        // Inside the die: moved back to its start.
        assert_eq!(lines.position(text, x - 1), Position::new(1, 1));
        assert_eq!(lines.position(text, 999), Position::new(2, 4));
    }

    #[test]
    fn file_uris_round_trip() {
        let uri = Uri::from_str("file:///tmp/my%20games/a.rules").unwrap();
        let path = uri_to_path(&uri).unwrap();
        assert_eq!(path, PathBuf::from("/tmp/my games/a.rules"));
        assert_eq!(path_to_uri(&path).unwrap().as_str(), uri.as_str());
        assert!(uri_to_path(&Uri::from_str("untitled:Untitled-1").unwrap()).is_none());
        let base = path_to_uri(Path::new("/tmp/game/./../game.rules")).unwrap();
        assert_eq!(base.as_str(), "file:///tmp/game.rules");
    }
}
