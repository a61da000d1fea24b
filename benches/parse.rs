//! Loading and checking in CPU time: for every rules file in `rules/` (variants included),
//! `meeple::load::load` in this process (read from disk, parse, apply variants, check, lower),
//! and the parse stage alone (`meeple::syntax::parse` of every file the load reads, from
//! memory).
//!
//! Each row first loads and parses [`WARM_UPS`] times, then takes [`SAMPLES`] samples, a load
//! and a parse each, alternating. It prints CPU time of this thread per load and per parse
//! (min / median / max and their range as a percentage of the median), and MB/s at the median
//! (1 MB = 10^6 bytes) of the bytes the load reads: `bytes` is the size of the file itself,
//! `read` that of every file the load reads (a variant reads its base too). Dropping what a
//! load or parse returned is not timed.
//!
//! `cargo bench --bench parse` runs it; `cargo bench --bench parse -- race` keeps only the
//! files whose path contains `race`.

#[path = "support/mod.rs"]
mod support;

use meeple::diag::FileId;
use meeple::load::{load, load_with};
use meeple::syntax;
use std::cell::RefCell;
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;
use support::{cpu_time, filters, matches, rules_files, Progress, Spread};

/// Untimed loads and parses before the samples.
const WARM_UPS: usize = 3;
/// Timed loads (and parses) per row.
const SAMPLES: usize = 30;

struct Row {
    name: String,
    bytes: usize,
    read: usize,
    errors: usize,
    load: Spread,
    parse: Spread,
}

/// The texts a load of `path` reads, in the order it reads them.
fn texts_read(path: &Path) -> (Vec<String>, usize) {
    let texts = RefCell::new(Vec::new());
    let loaded = load_with(path, &[], &|p: &Path| {
        let text = std::fs::read_to_string(p)?;
        texts.borrow_mut().push(text.clone());
        Ok(text)
    });
    (texts.into_inner(), loaded.diagnostics.error_count())
}

/// Parses each text as its own file; how many parsed without errors.
fn parse_all(texts: &[String]) -> usize {
    texts
        .iter()
        .enumerate()
        .filter(|(i, text)| black_box(syntax::parse(FileId(*i as u32), text)).is_ok())
        .count()
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let filters = filters();
    let progress = Progress::new();
    let mut rows = Vec::new();
    for (name, path) in rules_files() {
        if !matches(&filters, &name) {
            continue;
        }
        progress.show(format_args!("{name} ..."));
        let (texts, errors) = texts_read(&path);
        let bytes = std::fs::metadata(&path).map_or(0, |m| m.len() as usize);
        let read = texts.iter().map(String::len).sum();
        let parsed = parse_all(&texts);
        if parsed != texts.len() {
            println!(
                "{name}: {} of {} files do not parse; skipped",
                texts.len() - parsed,
                texts.len()
            );
            continue;
        }
        for _ in 0..WARM_UPS {
            black_box(load(&path, &[]));
            black_box(parse_all(&texts));
        }
        let mut loads = Vec::with_capacity(SAMPLES);
        let mut parses = Vec::with_capacity(SAMPLES);
        for _ in 0..SAMPLES {
            let (loaded, cpu) = cpu_time(|| load(&path, &[]));
            drop(black_box(loaded));
            loads.push(millis(cpu));
            let (parsed, cpu) = cpu_time(|| parse_all(&texts));
            black_box(parsed);
            parses.push(millis(cpu));
        }
        rows.push(Row {
            name,
            bytes,
            read,
            errors,
            load: Spread::of(&loads),
            parse: Spread::of(&parses),
        });
    }
    progress.done();
    if rows.is_empty() {
        println!("no rules files matched");
        return;
    }
    println!("{}", support::machine());
    println!(
        "load (read, parse, variants, check) and parse alone, CPU ms of this thread: \
         {SAMPLES} samples a row after {WARM_UPS} warm-ups; MB/s of the bytes read at the median"
    );
    let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(0).max(5);
    println!(
        "{:width$}  {:>6}  {:>6}  {:>22}  {:>6}  {:>6}  {:>22}  {:>6}  {:>6}  {:>5}",
        "rules",
        "bytes",
        "read",
        "load ms min/med/max",
        "range",
        "MB/s",
        "parse ms min/med/max",
        "range",
        "MB/s",
        "parse"
    );
    let ms = |s: Spread| format!("{:.3} / {:.3} / {:.3}", s.min, s.median, s.max);
    let mb_per_s = |bytes: usize, s: Spread| bytes as f64 / 1e6 / (s.median / 1e3);
    for r in &rows {
        println!(
            "{:width$}  {:>6}  {:>6}  {:>22}  {:>5.1}%  {:>6.1}  {:>22}  {:>5.1}%  {:>6.1}  {:>4.0}%{}",
            r.name,
            r.bytes,
            r.read,
            ms(r.load),
            r.load.range_percent(),
            mb_per_s(r.read, r.load),
            ms(r.parse),
            r.parse.range_percent(),
            mb_per_s(r.read, r.parse),
            r.parse.median / r.load.median * 100.0,
            if r.errors > 0 {
                format!("  ({} errors: the load stops early)", r.errors)
            } else {
                String::new()
            },
        );
    }
    println!("parse: the median parse as a share of the median load");
}
