//! Reading framed messages (`Content-Length: N`, a blank line, N bytes of JSON) so that bad
//! framing or bad JSON costs one message, never the connection, and never unbounded memory.

use lsp_server::Message;
use std::io::{self, BufRead, Read};

/// The longest message read: a rules file is at most `load::MAX_RULES_FILE`, and JSON may
/// escape every byte of it in six; the rest of the message is small beside that.
pub const MAX_MESSAGE: usize = 6 * crate::load::MAX_RULES_FILE as usize + 1024 * 1024;
/// The longest header line read.
const MAX_HEADER_LINE: u64 = 4096;

/// What came in: a message, or why the bytes read were not one.
pub enum Incoming {
    /// A JSON-RPC message.
    Message(Message),
    /// Bytes that were skipped, with the JSON-RPC error code and message to answer them with.
    Skipped(i32, String),
}

/// Reads the next message; `None` at the end of the input.
pub fn read(input: &mut dyn BufRead) -> io::Result<Option<Incoming>> {
    let mut length: Option<Result<usize, String>> = None;
    let mut any_header = false;
    loop {
        let mut line = Vec::new();
        let read = Read::take(&mut *input, MAX_HEADER_LINE).read_until(b'\n', &mut line)?;
        if read == 0 {
            return Ok(None);
        }
        if line.last() != Some(&b'\n') {
            // A line too long to be a header: skip the rest of it.
            skip_line(input)?;
            return Ok(Some(skipped(-32600, "a header line is too long")));
        }
        let line = String::from_utf8_lossy(&line);
        let line = line.trim_end_matches(['\r', '\n']);
        // Bytes before a `Content-Length` on its line (garbage, or the tail of a message whose
        // length was wrong) are dropped, and the header starts the message afresh: without
        // this, the garbage's line swallowed the header, the body was read as the next header
        // line, and so on, message after message.
        let line = match find_content_length(line) {
            Some(at) if at > 0 => {
                any_header = false;
                length = None;
                &line[at..]
            }
            _ => line,
        };
        if line.is_empty() {
            if any_header {
                break;
            }
            continue; // blank lines between messages
        }
        any_header = true;
        if let Some((name, value)) = line.split_once(':') {
            if name.trim().eq_ignore_ascii_case("Content-Length") {
                length = Some(value.trim().parse::<usize>().map_err(|e| e.to_string()));
            }
        }
    }
    let length = match length {
        None => return Ok(Some(skipped(-32600, "a message without Content-Length"))),
        Some(Err(e)) => {
            return Ok(Some(skipped(-32600, &format!("a bad Content-Length: {e}"))));
        }
        Some(Ok(n)) => n,
    };
    if length > MAX_MESSAGE {
        io::copy(&mut Read::take(&mut *input, length as u64), &mut io::sink())?;
        return Ok(Some(skipped(
            -32600,
            &format!("a message of {length} bytes, more than {MAX_MESSAGE}"),
        )));
    }
    let mut body = vec![0; length];
    match input.read_exact(&mut body) {
        // The input ended inside a message: the client is gone.
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        other => other?,
    }
    Ok(Some(match serde_json::from_slice::<Message>(&body) {
        Ok(m) => Incoming::Message(m),
        Err(e) => skipped(-32700, &format!("not a JSON-RPC message: {e}")),
    }))
}

/// Where `Content-Length:` starts in `line`, whatever its case.
fn find_content_length(line: &str) -> Option<usize> {
    const NAME: &[u8] = b"content-length:";
    line.as_bytes()
        .windows(NAME.len())
        .position(|w| w.eq_ignore_ascii_case(NAME))
}

fn skipped(code: i32, why: &str) -> Incoming {
    Incoming::Skipped(code, why.to_string())
}

fn skip_line(input: &mut dyn BufRead) -> io::Result<()> {
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        match buf.iter().position(|b| *b == b'\n') {
            Some(i) => {
                input.consume(i + 1);
                return Ok(());
            }
            None => {
                let n = buf.len();
                input.consume(n);
            }
        }
    }
}

/// The answer to bytes that were not a request: an error with a null id, as JSON-RPC says.
pub fn error_without_id(code: i32, message: &str) -> String {
    serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": code, "message": message},
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &str) -> Vec<Result<String, i32>> {
        let mut reader = io::BufReader::new(input.as_bytes());
        let mut out = Vec::new();
        while let Some(incoming) = read(&mut reader).unwrap() {
            out.push(match incoming {
                Incoming::Message(Message::Notification(n)) => Ok(n.method),
                Incoming::Message(_) => Ok("other".into()),
                Incoming::Skipped(code, _) => Err(code),
            });
        }
        out
    }

    #[test]
    fn garbage_before_a_header_costs_nothing_after_it() {
        let good = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let framed = |body: &str| format!("Content-Length: {}\r\n\r\n{body}", body.len());
        // garbage with no line break, then three messages: each is read
        let input = [
            "\x00garbage\u{1b}".to_string(),
            framed(good),
            framed(good),
            framed(good),
        ]
        .concat();
        assert_eq!(all(&input), vec![Ok("initialized".to_string()); 3]);
        // a length too short leaves the body's tail before the next header: that message is
        // lost, not the ones after it
        let short = format!("Content-Length: 10\r\n\r\n{good}");
        let input = [short, framed(good), framed(good)].concat();
        let read = all(&input);
        assert_eq!(read[0], Err(-32700));
        assert_eq!(
            read[1..],
            [Ok("initialized".into()), Ok("initialized".into())]
        );
    }

    #[test]
    fn bad_framing_costs_one_message() {
        let good = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let framed = |body: &str| format!("Content-Length: {}\r\n\r\n{body}", body.len());
        let input = [
            framed("not json"),
            "X-Nonsense: 1\r\n\r\n".to_string(),
            "Content-Length: many\r\n\r\n".to_string(),
            format!("{}\n", "h".repeat(10_000)),
            framed(good),
            format!("Content-Length: {}\n\n{good}", good.len()),
        ]
        .concat();
        assert_eq!(
            all(&input),
            [
                Err(-32700),
                Err(-32600),
                Err(-32600),
                Err(-32600),
                Ok("initialized".into()),
                Ok("initialized".into())
            ]
        );
    }
}
