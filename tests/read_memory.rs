//! Saves, `--json` streams and shards are read within a few times their size: the peak of live
//! heap bytes while one is parsed, counted by an allocator. (Read into a tree of JSON values
//! first, a save took fifteen times its size: 3 GB for a save of 195 MB.) A test binary of its
//! own, so that nothing else allocates while it measures.

mod counting;

use counting::{LIVE, PEAK};
use std::sync::atomic::Ordering;

/// The most live heap `parse` took beyond what was live before it, over the text's length.
fn peak_over_size<T>(text: &str, parse: impl FnOnce(&str) -> T) -> f64 {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let parsed = parse(text);
    let peak = PEAK.load(Ordering::Relaxed) - before;
    drop(parsed);
    peak as f64 / text.len() as f64
}

const DECISIONS: usize = 40_000;

#[test]
fn saves_streams_and_shards_are_read_within_a_few_times_their_size() {
    // A save: pretty JSON, a decision every few lines.
    let mut save = String::from(
        "{\n  \"format\": 3,\n  \"rules\": \"g.rules\",\n  \"variants\": [],\n  \"game\": \"G\",\n  \"players\": 2,\n  \"seed\": 1,\n  \"start\": \"0123456789abcdef\",\n  \"decisions\": [\n",
    );
    for i in 0..DECISIONS {
        let comma = if i + 1 < DECISIONS { "," } else { "" };
        save.push_str(&format!(
            "    {{\n      \"player\": \"P{}\",\n      \"choice\": \"play {i}\",\n      \"state\": \"{:016x}\"\n    }}{comma}\n",
            i % 2 + 1,
            i * 7919
        ));
    }
    save.push_str("  ],\n  \"end\": \"0123456789abcdef\"\n}\n");
    let ratio = peak_over_size(&save, |t| meeple::save::SaveFile::parse(t).expect("a save"));
    eprintln!(
        "a save of {} bytes: {ratio:.2} times its size at the peak",
        save.len()
    );
    assert!(ratio < 4.0, "{ratio}");

    // A stream: a JSON object a line, each with its log.
    let mut stream = String::from(
        r#"{"event":"game","schema":"meeple-game/3","meeple":"0.1.0","game":"G","rules":"g.rules","variant_files":[],"variants":[],"players":2,"seed":1,"bots":"random","log":[]}"#,
    );
    stream.push('\n');
    for i in 0..DECISIONS {
        stream.push_str(&format!(
            r#"{{"event":"decision","number":{},"player":"P{}","choice":"play {i}","log":["P{} plays {i}","the pile grows"]}}"#,
            i + 1,
            i % 2 + 1,
            i % 2 + 1
        ));
        stream.push('\n');
    }
    let path = std::env::temp_dir().join(format!("meeple-stream-{}.jsonl", std::process::id()));
    std::fs::write(&path, &stream).expect("write the stream");
    let ratio = peak_over_size(&stream, |_| {
        meeple::save::SaveFile::read(&path).expect("a stream")
    });
    let _ = std::fs::remove_file(&path);
    eprintln!(
        "a stream of {} bytes: {ratio:.2} times its size at the peak",
        stream.len()
    );
    // The file's text itself is read whole: one time its size, then its decisions.
    assert!(ratio < 4.0, "{ratio}");

    // A shard of a few thousand games, written by `meeple sim`.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_meeple"))
        .args([
            "sim",
            "tests/fixtures/finger_duel.rules",
            "--games",
            "5000",
            "--shard",
            "1/1",
            "--json",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("meeple sim runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let shard = String::from_utf8(o.stdout).expect("utf-8");
    let ratio = peak_over_size(&shard, |t| {
        meeple::sim::parse_shard_doc("shard.json", t).expect("a shard")
    });
    eprintln!(
        "a shard of {} bytes: {ratio:.2} times its size at the peak",
        shard.len()
    );
    assert!(ratio < 4.0, "{ratio}");
}
