//! Helpers shared by the benches, each of which includes this file with
//! `#[path = "support/mod.rs"] mod support;`: the CPU clock of this thread, sizing a repetition,
//! min / median / max, the rules files and the filter words, and progress on a terminal.
//!
//! Times are CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`: user and system time
//! of this thread only), so that another process sharing the machine slows a row less than it
//! would on the wall clock. It still shares caches, memory bandwidth and clock frequency.
#![allow(dead_code)] // every bench uses a part of it

use std::fmt;
use std::hint::black_box;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// CPU time consumed by this thread so far.
pub fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant the OS knows.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// The machine the figures belong to: its processor's model and how many threads may run at
/// once. CPU-time figures of the same binary differ by 2-3x between machines, and the ratio of
/// two programs by 10-20% (docs/performance.md), so every table says where it was taken.
pub fn machine() -> String {
    // Linux names the processor in /proc/cpuinfo; elsewhere the model is not looked for.
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines().find_map(|l| {
                l.strip_prefix("model name")?
                    .split_once(':')
                    .map(|(_, m)| m.trim().to_string())
            })
        })
        .unwrap_or_else(|| "a processor of unknown model".to_string());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!("machine: {model}, {threads} hardware threads")
}

/// The value of `f` and the CPU time of this thread it took.
pub fn cpu_time<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = thread_cpu_time();
    let value = f();
    (value, thread_cpu_time() - start)
}

/// How many calls `one(1)`, `one(2)`, … take about `target` of CPU time. Calls `one` at least
/// ten times and for at least `warm_up` of CPU time first, and sizes from their average.
pub fn calls_per<T>(target: Duration, warm_up: Duration, mut one: impl FnMut(u64) -> T) -> u64 {
    let start = thread_cpu_time();
    let mut calls = 0;
    while calls < 10 || thread_cpu_time() - start < warm_up {
        calls += 1;
        black_box(one(calls));
    }
    let per_call = (thread_cpu_time() - start).as_secs_f64() / calls as f64;
    ((target.as_secs_f64() / per_call) as u64).max(1)
}

/// The least, middle and greatest of some measurements.
#[derive(Debug, Clone, Copy)]
pub struct Spread {
    pub min: f64,
    pub median: f64,
    pub max: f64,
}

impl Spread {
    /// Of `xs`, which must not be empty. The median of an even count is the mean of the two
    /// middle values.
    pub fn of(xs: &[f64]) -> Spread {
        assert!(!xs.is_empty(), "no measurements");
        let mut v = xs.to_vec();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        let median = if n % 2 == 1 {
            v[n / 2]
        } else {
            (v[n / 2 - 1] + v[n / 2]) / 2.0
        };
        Spread {
            min: v[0],
            median,
            max: v[n - 1],
        }
    }

    /// `(max - min) / median`, as a percentage.
    pub fn range_percent(self) -> f64 {
        (self.max - self.min) / self.median * 100.0
    }
}

/// The words given after `cargo bench --bench NAME --`: `cargo bench` passes `--bench` itself,
/// and any word not starting with `--` filters the rows.
pub fn filters() -> Vec<String> {
    std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect()
}

/// Whether a row named `name` is kept: no filters, or one of them is part of the name.
pub fn matches(filters: &[String], name: &str) -> bool {
    filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str()))
}

/// The package root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rules` file under `rules/`, variants included, as (name relative to the package
/// root with forward slashes, path), sorted by name so that a game comes before the variants
/// in its folder.
pub fn rules_files() -> Vec<(String, PathBuf)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for p in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rules") {
                out.push(p);
            }
        }
    }
    let root = root();
    let mut paths = Vec::new();
    walk(&root.join("rules"), &mut paths);
    let mut files: Vec<(String, PathBuf)> = paths
        .into_iter()
        .map(|p| {
            let name = p
                .strip_prefix(&root)
                .unwrap_or(&p)
                .to_string_lossy()
                .replace('\\', "/");
            (name, p)
        })
        .collect();
    files.sort();
    files
}

/// One line of progress on stderr, rewritten in place; silent unless stderr is a terminal.
pub struct Progress {
    on: bool,
}

impl Progress {
    pub fn new() -> Progress {
        Progress {
            on: std::io::stderr().is_terminal(),
        }
    }

    /// Replaces the progress line.
    pub fn show(&self, line: fmt::Arguments) {
        if self.on {
            eprint!("\r\x1b[K{line}");
            let _ = std::io::stderr().flush();
        }
    }

    /// Clears the progress line.
    pub fn done(&self) {
        if self.on {
            eprint!("\r\x1b[K");
            let _ = std::io::stderr().flush();
        }
    }
}
