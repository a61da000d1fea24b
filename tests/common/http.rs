//! A small HTTP/1.1 client for the table's tests: one request a connection, read to its end.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// An answer: status, headers (names in lower case) and body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    /// The first header named `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Sends one request with a form body (if any) and reads the whole answer.
pub fn request(addr: SocketAddr, method: &str, path: &str, form: Option<&str>) -> Answer {
    send(
        addr,
        method,
        path,
        form,
        "application/x-www-form-urlencoded",
    )
}

/// Sends one request with a JSON body (if any) and reads the whole answer.
pub fn request_json(addr: SocketAddr, method: &str, path: &str, json: Option<&str>) -> Answer {
    send(addr, method, path, json, "application/json")
}

fn send(addr: SocketAddr, method: &str, path: &str, body: Option<&str>, kind: &str) -> Answer {
    let mut stream = TcpStream::connect(addr).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .expect("timeout");
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if let Some(body) = body {
        head.push_str(&format!(
            "Content-Type: {kind}\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    head.push_str("\r\n");
    head.push_str(body.unwrap_or(""));
    stream.write_all(head.as_bytes()).expect("sends");
    let mut raw = Vec::new();
    let mut buf = [0u8; 16384];
    // Read to the end, or to the length the head gives (a server may keep the line open).
    loop {
        let n = stream.read(&mut buf).expect("reads");
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&buf[..n]);
        if let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok());
            if length.is_some_and(|len| raw.len() >= end + 4 + len) {
                break;
            }
        }
    }
    parse(&raw)
}

/// `GET path`.
pub fn get(addr: SocketAddr, path: &str) -> Answer {
    request(addr, "GET", path, None)
}

/// `POST path` with a form.
pub fn post(addr: SocketAddr, path: &str, form: &[(&str, &str)]) -> Answer {
    let body: Vec<String> = form
        .iter()
        .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
        .collect();
    request(addr, "POST", path, Some(&body.join("&")))
}

/// Percent-encodes a form value.
pub fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            b' ' => "+".to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn parse(raw: &[u8]) -> Answer {
    let text = String::from_utf8_lossy(raw).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked {
        unchunk(body)
    } else {
        body.to_string()
    };
    Answer {
        status,
        headers,
        body,
    }
}

fn unchunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// Opens `path` as an event stream and reads the `data:` of its first `count` events.
pub fn events(addr: SocketAddr, path: &str, count: usize) -> (u16, Vec<String>) {
    let mut stream = TcpStream::connect(addr).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("timeout");
    let head = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n");
    stream.write_all(head.as_bytes()).expect("sends");
    let mut seen = String::new();
    let mut buf = [0u8; 4096];
    let mut data = Vec::new();
    loop {
        let n = match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
        data = seen
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .map(|d| d.trim().to_string())
            .collect();
        if data.len() >= count || seen.starts_with("HTTP/1.1 4") {
            break;
        }
    }
    let status = seen
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, data)
}

/// The values of every `<button name="move" value="...">` on a page, unescaped.
pub fn move_buttons(page: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in page.split("<button").skip(1) {
        let tag = part.split('>').next().unwrap_or("");
        if !tag.contains("name=\"move\"") {
            continue;
        }
        if let Some(v) = tag
            .split("value=\"")
            .nth(1)
            .and_then(|v| v.split('"').next())
        {
            out.push(unescape(v));
        }
    }
    out
}

/// The page's version, from `data-version` on its body.
pub fn version(page: &str) -> String {
    page.split("data-version=\"")
        .nth(1)
        .and_then(|v| v.split('"').next())
        .unwrap_or_else(|| panic!("a page with a version:\n{page}"))
        .to_string()
}

/// The values of the checkboxes of a choice of several.
pub fn pick_boxes(page: &str) -> Vec<String> {
    page.split("name=\"pick\" value=\"")
        .skip(1)
        .filter_map(|v| v.split('"').next())
        .map(unescape)
        .collect()
}

/// HTML's escapes undone (those maud writes).
pub fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}
