//! Bounds on what one key may ask of the server: requests in a window of time, and event
//! streams open at once.

use super::table::Who;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How much one key may ask of the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// Requests one key may make in a window.
    pub requests: u32,
    /// The window requests are counted in.
    pub window: Duration,
    /// Event streams one key may hold open at once (a seat's tabs and devices).
    pub streams: usize,
}

impl Default for Bounds {
    /// 300 requests in 10 seconds (a page reloads once for each change it sees, bots' moves
    /// in a row counted as one) and 8 streams.
    fn default() -> Bounds {
        Bounds {
            requests: 300,
            window: Duration::from_secs(10),
            streams: 8,
        }
    }
}

/// The counts behind the bounds.
pub struct Limits {
    bounds: Bounds,
    requests: Mutex<HashMap<Who, (Instant, u32)>>,
    streams: Mutex<HashMap<Who, Arc<AtomicUsize>>>,
}

impl Limits {
    /// Counts kept against `bounds`.
    pub fn new(bounds: Bounds) -> Limits {
        Limits {
            bounds,
            requests: Mutex::default(),
            streams: Mutex::default(),
        }
    }

    /// Counts a request of `who`'s key: false once it has made too many in this window.
    pub fn admit(&self, who: Who) -> bool {
        let mut requests = self.requests.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        let entry = requests.entry(who).or_insert((now, 0));
        if now.duration_since(entry.0) >= self.bounds.window {
            *entry = (now, 0);
        }
        entry.1 += 1;
        entry.1 <= self.bounds.requests
    }

    /// Opens an event stream for `who`, if it has fewer than its bound open; the
    /// guard closes it when dropped.
    pub fn enter_stream(&self, who: Who) -> Option<StreamGuard> {
        let count = self
            .streams
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(who)
            .or_default()
            .clone();
        if count.fetch_add(1, Ordering::SeqCst) >= self.bounds.streams {
            count.fetch_sub(1, Ordering::SeqCst);
            return None;
        }
        Some(StreamGuard(count))
    }
}

/// One open event stream, counted until dropped.
pub struct StreamGuard(Arc<AtomicUsize>);

impl Drop for StreamGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}
