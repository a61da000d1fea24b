//! An in-process fuzzer on stable Rust, over parse + check and over random play of any rules
//! text (the cargo-fuzz targets in `fuzz/` do the same with coverage, on nightly).
//!
//! From the corpus (every rules file under `rules/` and `tests/fixtures/`, and the inputs that
//! once crashed), it makes inputs by stacking the deterministic mutations of
//! `common::fuzz::mutate` and by crossing two files over; each input is checked, its
//! diagnostics rendered, and if it checks, games by random choices are played under tight
//! limits. Inputs that still check join the pool, so mutations reach deeper into the engine.
//! A panic, or an input slower than `HANG`, is a failure: the input is written to
//! `tests/fixtures/fuzz_crashes/` and the test fails. Every file in that folder is replayed by
//! `crashes_found_by_fuzzing_stay_fixed`.
//!
//! `cargo test` runs a thousand inputs (a few seconds). For longer (docs/fuzzing.md):
//! `MEEPLE_FUZZ_SECONDS=3600 cargo test --release --test fuzz -- --nocapture`, and
//! `MEEPLE_FUZZ_SEED=N` for another stream of inputs.

mod common;

use common::fuzz::{mutate, try_text_seeded, Checked};
use common::{rel, root, rules_under};
use meeple::engine::Rng;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// More CPU time than this for one input (check and two short games) is a hang (CPU time of
/// the fuzzing thread, so that a loaded machine does not make one up).
const HANG: Duration = Duration::from_secs(10);

/// An input still running after this wall time is kept by the watchdog, and the process stops
/// (a hang cannot be interrupted otherwise). Generous: the machine may be busy.
const WALL_HANG: Duration = Duration::from_secs(60);

/// The CPU time of the calling thread (its wall time where that is not known).
fn thread_time() -> Duration {
    #[cfg(unix)]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `t` is a valid timespec to write to.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0 {
            return Duration::new(t.tv_sec as u64, t.tv_nsec as u32);
        }
    }
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// Inputs run by a plain `cargo test`.
const QUICK_INPUTS: usize = 1000;

/// At most this many inputs that check are kept in the pool besides the corpus.
const POOL: usize = 2000;

fn crash_dir() -> PathBuf {
    root().join("tests/fixtures/fuzz_crashes")
}

/// Every file in the crash folder, as (name, text); bytes that are not UTF-8 are replaced.
fn crashes() -> Vec<(String, String)> {
    let Ok(entries) = std::fs::read_dir(crash_dir()) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| {
            let bytes = std::fs::read(p).expect("readable");
            (rel(p), String::from_utf8_lossy(&bytes).into_owned())
        })
        .collect()
}

fn corpus() -> Vec<String> {
    let mut files = rules_under("rules");
    files.extend(rules_under("tests/fixtures"));
    let mut texts: Vec<String> = files
        .iter()
        .map(|p| std::fs::read_to_string(p).expect("readable"))
        .collect();
    texts.extend(crashes().into_iter().map(|(_, t)| t));
    texts
}

#[test]
fn crashes_found_by_fuzzing_stay_fixed() {
    let mut failed = Vec::new();
    for (name, text) in crashes() {
        for seed in [1, 3, 7] {
            let started = thread_time();
            if let Err(msg) = try_text_seeded("input.rules", &text, true, seed) {
                failed.push(format!("{name} (seed {seed}): {msg}"));
            }
            let took = thread_time().saturating_sub(started);
            if took > HANG {
                failed.push(format!("{name} (seed {seed}): took {took:?} of CPU time"));
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Two texts crossed over: the start of one, the end of the other, cut at line starts.
fn cross(a: &str, b: &str, rng: &mut Rng) -> String {
    let lines = |t: &str| -> Vec<usize> {
        std::iter::once(0)
            .chain(t.match_indices('\n').map(|(i, _)| i + 1))
            .collect()
    };
    let (la, lb) = (lines(a), lines(b));
    let cut_a = la[rng.index(la.len())];
    let cut_b = lb[rng.index(lb.len())];
    format!("{}{}", &a[..cut_a], &b[cut_b..])
}

/// Keeps `text` as a failing input in the crash folder; its path, relative.
fn keep(text: &str) -> String {
    let path = crash_dir().join(crash_name(text));
    let _ = std::fs::create_dir_all(crash_dir());
    let _ = std::fs::write(&path, text);
    rel(&path)
}

/// Watches the input being run: one still running after `WALL_HANG` is kept, and the process ends
/// (a hang cannot be interrupted in-process). Dropping the watchdog stops it.
struct Watchdog {
    current: Arc<Mutex<(Instant, String)>>,
    done: Arc<AtomicBool>,
}

impl Watchdog {
    fn start() -> Watchdog {
        let current = Arc::new(Mutex::new((Instant::now(), String::new())));
        let done = Arc::new(AtomicBool::new(false));
        let (c, d) = (current.clone(), done.clone());
        std::thread::spawn(move || {
            while !d.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(250));
                let hung = {
                    let now = c.lock().unwrap_or_else(|e| e.into_inner());
                    (now.0.elapsed() > WALL_HANG).then(|| now.1.clone())
                };
                if let Some(text) = hung {
                    if d.load(Ordering::Relaxed) {
                        return;
                    }
                    let path = keep(&text);
                    eprintln!(
                        "fuzz: an input ran for more than {WALL_HANG:?}: a hang, kept in {path}"
                    );
                    std::process::exit(101);
                }
            }
        });
        Watchdog { current, done }
    }

    fn running(&self, text: &str) {
        let mut now = self.current.lock().unwrap_or_else(|e| e.into_inner());
        *now = (Instant::now(), text.to_string());
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
    }
}

/// The name a failing input is kept under: a hash of its text, so the same crash is kept once.
fn crash_name(text: &str) -> String {
    // FNV-1a: stable across Rust versions, unlike `DefaultHasher`.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.as_bytes() {
        h = (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}.input")
}

#[test]
fn mutated_rules_never_panic_nor_hang() {
    let seconds: Option<u64> = std::env::var("MEEPLE_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok());
    let seed: u64 = std::env::var("MEEPLE_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2025);
    let deadline = seconds.map(|s| Instant::now() + Duration::from_secs(s));
    let long = deadline.is_some();
    // A long run prints its own report; panics caught are not printed one by one.
    if long {
        std::panic::set_hook(Box::new(|_| {}));
    }
    let corpus = corpus();
    let watchdog = Watchdog::start();
    let mut pool: Vec<String> = Vec::new();
    let mut rng = Rng::new(seed, 7);
    let mut failures: Vec<(String, String)> = Vec::new();
    let (mut inputs, mut valid) = (0u64, 0u64);
    let started = Instant::now();
    let mut next_report = Duration::from_secs(60);
    loop {
        match deadline {
            Some(d) if Instant::now() >= d => break,
            None if inputs as usize >= QUICK_INPUTS => break,
            _ => {}
        }
        let pick = |rng: &mut Rng, pool: &[String]| -> String {
            let n = corpus.len() + pool.len();
            let i = rng.index(n);
            corpus
                .get(i)
                .unwrap_or_else(|| &pool[i - corpus.len()])
                .clone()
        };
        let mut text = pick(&mut rng, &pool);
        if rng.index(8) == 0 {
            let other = pick(&mut rng, &pool);
            text = cross(&text, &other, &mut rng);
        }
        for _ in 0..1 + rng.index(4) {
            text = mutate(&text, &mut rng).1;
        }
        let game_seed = rng.below(u64::MAX);
        watchdog.running(&text);
        let t0 = thread_time();
        let result = try_text_seeded("input.rules", &text, true, game_seed);
        let took = thread_time().saturating_sub(t0);
        inputs += 1;
        let failure = match result {
            Err(msg) => Some(msg),
            Ok(_) if took > HANG => Some(format!("took {took:?} of CPU time")),
            Ok(Checked::Valid(_)) => {
                valid += 1;
                if pool.len() < POOL {
                    pool.push(text.clone());
                } else {
                    let i = rng.index(POOL);
                    pool[i] = text.clone();
                }
                None
            }
            Ok(Checked::Broken) => None,
        };
        if let Some(msg) = failure {
            let path = keep(&text);
            eprintln!("fuzz: input {inputs} failed: {msg} (kept in {path})");
            failures.push((path, msg));
        }
        if long && started.elapsed() >= next_report {
            eprintln!(
                "fuzz: {inputs} inputs in {:?}, {valid} checked and played, {} failures",
                started.elapsed(),
                failures.len()
            );
            next_report += Duration::from_secs(60);
        }
    }
    drop(watchdog);
    if long {
        let _ = std::panic::take_hook();
    }
    eprintln!(
        "fuzz: {inputs} inputs (seed {seed}) in {:?}: {valid} checked and were played, {} failed",
        started.elapsed(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} inputs failed (kept in tests/fixtures/fuzz_crashes/):\n{}",
        failures.len(),
        failures
            .iter()
            .map(|(n, m)| format!("{n}: {m}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}
