//! Just enough of the WebDriver protocol to drive headless Chromium through ChromeDriver, both
//! from the distribution's packages (`.ci/run` installs them): sessions, navigation, elements,
//! clicks, page text and screenshots.

use crate::common::http;
use serde_json::{json, Value};
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The W3C name of an element reference in WebDriver's JSON.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// Where the browser and its driver are: `MEEPLE_CHROMIUM` and `MEEPLE_CHROMEDRIVER`, or
/// Debian's paths.
pub fn programs() -> (PathBuf, PathBuf) {
    let var = |name: &str, default: &str| {
        std::env::var_os(name)
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(default))
    };
    (
        var("MEEPLE_CHROMIUM", "/usr/bin/chromium"),
        var("MEEPLE_CHROMEDRIVER", "/usr/bin/chromedriver"),
    )
}

/// A running ChromeDriver, stopped when dropped.
pub struct Driver {
    child: Child,
    addr: SocketAddr,
    chromium: PathBuf,
}

impl Driver {
    /// Starts ChromeDriver on a free port of loopback and waits until it answers.
    pub fn start() -> Driver {
        let (chromium, driver) = programs();
        assert!(
            chromium.exists() && driver.exists(),
            "the browser tests need Chromium and ChromeDriver ({} and {}): `.ci/run` installs \
             them from the distribution's packages (apt-get install chromium chromium-driver)",
            chromium.display(),
            driver.display()
        );
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(&driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("ChromeDriver starts");
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let started = Instant::now();
        while std::net::TcpStream::connect(addr).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "ChromeDriver answers"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Driver {
            child,
            addr,
            chromium,
        }
    }

    /// A new headless browser, its window `width` × `height` pixels.
    pub fn session(&self, profile: &Path, width: u32, height: u32) -> Session {
        self.start_session(profile, width, height, None)
    }

    /// A new headless browser that shows pages as a phone `width` CSS pixels wide does: its
    /// screen that wide, and a page without a viewport meta laid out 980 pixels wide and
    /// shrunk to fit, as phones do.
    pub fn phone(&self, profile: &Path, width: u32, height: u32) -> Session {
        let metrics = json!({"deviceMetrics": {
            "width": width, "height": height, "pixelRatio": 1.0, "mobile": true, "touch": true
        }});
        self.start_session(profile, width.max(500), height, Some(metrics))
    }

    fn start_session(
        &self,
        profile: &Path,
        width: u32,
        height: u32,
        mobile: Option<Value>,
    ) -> Session {
        let args = [
            "--headless".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--hide-scrollbars".into(),
            format!("--user-data-dir={}", profile.display()),
            format!("--window-size={width},{height}"),
        ];
        let mut options = json!({"binary": self.chromium, "args": args});
        if let Some(m) = mobile {
            options["mobileEmulation"] = m;
        }
        let body = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": options
        }}});
        let answer = call(self.addr, "POST", "/session", Some(body));
        let id = answer["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("a session: {answer}"))
            .to_string();
        Session {
            addr: self.addr,
            id,
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One browser.
pub struct Session {
    addr: SocketAddr,
    id: String,
}

impl Session {
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        call(
            self.addr,
            method,
            &format!("/session/{}{path}", self.id),
            body,
        )
    }

    /// Opens `url`.
    pub fn go(&self, url: &str) {
        self.call("POST", "/url", Some(json!({"url": url})));
    }

    /// The elements matching a CSS selector.
    pub fn find_all(&self, css: &str) -> Vec<String> {
        let found = self.call(
            "POST",
            "/elements",
            Some(json!({"using": "css selector", "value": css})),
        );
        found
            .as_array()
            .map(|xs| {
                xs.iter()
                    .filter_map(|x| x[ELEMENT].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// An element's text as shown.
    pub fn text(&self, element: &str) -> String {
        self.call("GET", &format!("/element/{element}/text"), None)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Clicks an element.
    pub fn click(&self, element: &str) {
        self.call(
            "POST",
            &format!("/element/{element}/click"),
            Some(json!({})),
        );
    }

    /// The text of the whole page as shown.
    pub fn page_text(&self) -> String {
        match self.find_all("body").first() {
            Some(body) => self.text(body),
            None => String::new(),
        }
    }

    /// Runs a script in the page and returns its value.
    pub fn script(&self, source: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": source, "args": []})),
        )
    }

    /// Resizes the window.
    pub fn resize(&self, width: u32, height: u32) {
        self.call(
            "POST",
            "/window/rect",
            Some(json!({"width": width, "height": height})),
        );
    }

    /// A PNG of the window.
    pub fn screenshot(&self) -> Vec<u8> {
        let data = self.call("GET", "/screenshot", None);
        base64(data.as_str().expect("a screenshot"))
    }

    /// Waits until `done` holds for the page's text, up to `seconds`.
    pub fn wait_for(&self, seconds: u64, what: &str, done: impl Fn(&Session) -> bool) {
        let started = Instant::now();
        while !done(self) {
            assert!(
                started.elapsed() < Duration::from_secs(seconds),
                "waited {seconds} s for {what}; the page shows:\n{}",
                self.page_text()
            );
            std::thread::sleep(Duration::from_millis(15));
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = call(self.addr, "DELETE", &format!("/session/{}", self.id), None);
    }
}

/// One WebDriver command: its JSON answer's `value`.
fn call(addr: SocketAddr, method: &str, path: &str, body: Option<Value>) -> Value {
    if std::env::var_os("MEEPLE_WEBDRIVER_TRACE").is_some() {
        eprintln!("webdriver: {method} {path} {body:?}");
    }
    let body = body.map(|b| b.to_string());
    let sent = Instant::now();
    let answer = http::request_json(addr, method, path, body.as_deref());
    if std::env::var_os("MEEPLE_WEBDRIVER_TRACE").is_some() {
        eprintln!(
            "  -> {} in {:?}: {}",
            answer.status,
            sent.elapsed(),
            &answer.body[..answer.body.len().min(100)]
        );
    }
    let value: Value = serde_json::from_str(&answer.body)
        .unwrap_or_else(|e| panic!("{method} {path}: {e}: {}", answer.body));
    assert!(
        answer.status < 400,
        "{method} {path}: {} {}",
        answer.status,
        value
    );
    value["value"].clone()
}

/// Standard base64, as WebDriver sends screenshots.
fn base64(text: &str) -> Vec<u8> {
    let digit = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for d in text.bytes().filter_map(digit) {
        acc = (acc << 6) | u32::from(d);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}
