//! The promises of docs/reliability.md, end to end through the `meeple` binary: no write that
//! destroys, no read outside bounds, no secret told by a failure, no failure that loses the
//! game, no raw terminal escape. Each test reproduces a defect of issue 43's audit.

mod common;

use common::{code, meeple, meeple_bytes, run, stderr, stdout};
use std::path::{Path, PathBuf};
use std::process::Output;

const DUEL: &str = "tests/fixtures/finger_duel.rules";
const SECRET_SUMS: &str = "tests/fixtures/run/secret_sums.rules";
const BOT_CRASH: &str = "tests/fixtures/run/bot_crash.rules";
const GAME: &str = "rules/cheaters_game.rules";

/// A fresh scratch folder under `target/`, as a path relative to the crate root.
fn scratch(name: &str) -> String {
    let rel = format!("target/reliability-tests/{name}");
    let abs = abs(&rel);
    let _ = std::fs::remove_dir_all(&abs);
    std::fs::create_dir_all(&abs).expect("scratch folder");
    rel
}

fn abs(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn script(lines: &[&str]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// The names in a folder, sorted.
fn entries(rel: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(abs(rel))
        .expect("the folder")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

// ------------------------------------------------------------------------ writes that cannot destroy

#[test]
fn save_never_replaces_the_rules_being_played_nor_any_file_that_is_not_a_save() {
    let dir = scratch("save-targets");
    let rules = format!("{dir}/duel.rules");
    std::fs::copy(abs(DUEL), abs(&rules)).expect("copy the game");
    let original = std::fs::read_to_string(abs(&rules)).unwrap();
    std::fs::write(abs(&format!("{dir}/notes.txt")), "my notes").unwrap();
    let mut lines = vec![
        "1".to_string(),
        format!("save {rules}"),
        format!("save {dir}/notes.txt"),
    ];
    // A pipe stands for a device entry: a regression that wrote over `/dev/null` itself, run
    // as root, would replace it for the whole machine (as the code before this test did).
    #[cfg(unix)]
    {
        let fifo = abs(&format!("{dir}/pipe.json"));
        let c = std::ffi::CString::new(fifo.to_string_lossy().as_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path; mkfifo only creates the pipe.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
        lines.push(format!("save {dir}/pipe.json"));
    }
    lines.extend([
        format!("save {dir}/game.json"),
        format!("save {dir}/game.json"),
        "quit".into(),
    ]);
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let o = meeple(&["play", &rules, "--seed", "2"], &script(&lines));
    let out = stdout(&o);
    assert_eq!(
        std::fs::read_to_string(abs(&rules)).unwrap(),
        original,
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(abs(&format!("{dir}/notes.txt"))).unwrap(),
        "my notes"
    );
    assert!(
        out.contains(&format!(
            "Not saved: cannot write `{rules}`: it is a file this command reads"
        )),
        "{out}"
    );
    assert!(out.contains("it exists and is not a Meeple save"), "{out}");
    if cfg!(unix) {
        assert!(
            out.contains(&format!(
                "cannot write `{dir}/pipe.json`: it is not a regular file"
            )),
            "{out}"
        );
    }
    assert_eq!(
        out.matches("Saved 1 decision").count(),
        2,
        "a save over a save: {out}"
    );
    let mut left = entries(&dir);
    left.retain(|n| n != "pipe.json");
    assert_eq!(
        left,
        ["duel.rules", "game.json", "notes.txt"],
        "no temporary file is left"
    );
}

#[cfg(unix)]
#[test]
fn save_refuses_links_and_read_only_files_and_never_writes_through_a_planted_link() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("save-links");
    let victim = format!("{dir}/victim.txt");
    std::fs::write(abs(&victim), "precious").unwrap();
    // The name the old code wrote its temporary file at, planted as a link.
    std::os::unix::fs::symlink(abs(&victim), abs(&format!("{dir}/x.json.tmp"))).unwrap();
    std::os::unix::fs::symlink(abs(&victim), abs(&format!("{dir}/link.json"))).unwrap();
    let locked = format!("{dir}/locked.json");
    let o = meeple(
        &["play", DUEL, "--seed", "2"],
        &script(&["1", &format!("save {locked}"), "quit"]),
    );
    assert!(stdout(&o).contains("Saved 1 decision"), "{}", stdout(&o));
    std::fs::set_permissions(abs(&locked), std::fs::Permissions::from_mode(0o444)).unwrap();
    let before = std::fs::read(abs(&locked)).unwrap();
    let o = meeple(
        &["play", DUEL, "--seed", "2"],
        &script(&[
            "1",
            &format!("save {dir}/x.json"),
            &format!("save {dir}/link.json"),
            &format!("save {locked}"),
            "quit",
        ]),
    );
    let out = stdout(&o);
    assert_eq!(
        std::fs::read_to_string(abs(&victim)).unwrap(),
        "precious",
        "{out}"
    );
    assert!(out.contains("it is a symbolic link"), "{out}");
    assert!(out.contains("it is read-only"), "{out}");
    assert_eq!(std::fs::read(abs(&locked)).unwrap(), before);
    let mode = std::fs::metadata(abs(&locked))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o444, "the mode is kept");
}

#[test]
fn sim_html_and_doc_never_write_over_their_own_input_nor_a_file_of_another_kind() {
    let dir = scratch("outputs");
    let rules = format!("{dir}/duel.rules");
    std::fs::copy(abs(DUEL), abs(&rules)).unwrap();
    let original = std::fs::read_to_string(abs(&rules)).unwrap();
    let o = run(&["sim", &rules, "--games", "3", "--html", &rules]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("it is a file this command reads"),
        "{}",
        stderr(&o)
    );
    let o = run(&["doc", &rules, "-o", &rules]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("it is a file this command reads"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(abs(&rules)).unwrap(), original);

    let notes = format!("{dir}/notes.md");
    std::fs::write(abs(&notes), "# My notes\n").unwrap();
    let o = run(&["doc", &rules, "-o", &notes]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("it exists and is not a rulebook of `meeple doc`"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(abs(&notes)).unwrap(),
        "# My notes\n"
    );
    let page = format!("{dir}/page.html");
    std::fs::write(abs(&page), "<html>mine</html>").unwrap();
    let o = run(&["sim", &rules, "--games", "3", "--html", &page]);
    assert_eq!(code(&o), 1);
    assert!(o.stdout.is_empty(), "refused before the games");
    assert_eq!(
        std::fs::read_to_string(abs(&page)).unwrap(),
        "<html>mine</html>"
    );

    // Their own outputs are written, and written again.
    let book = format!("{dir}/book.md");
    let report = format!("{dir}/report.html");
    for _ in 0..2 {
        assert_eq!(code(&run(&["doc", &rules, "-o", &book])), 0);
        assert_eq!(
            code(&run(&[
                "doc",
                &rules,
                "--html",
                "-o",
                &format!("{dir}/book.html")
            ])),
            0
        );
        assert_eq!(
            code(&run(&["sim", &rules, "--games", "3", "--html", &report])),
            0
        );
    }
    assert_eq!(
        entries(&dir),
        [
            "book.html",
            "book.md",
            "duel.rules",
            "notes.md",
            "page.html",
            "report.html"
        ]
    );
}

// -------------------------------------------------------------------- reads that stay in bounds

#[test]
fn a_variant_based_on_a_file_that_is_not_rules_quotes_none_of_it() {
    let dir = scratch("base-outside");
    std::fs::write(abs(&format!("{dir}/secret.txt")), "TOP SECRET LINE\n").unwrap();
    let variant = format!("{dir}/v.rules");
    std::fs::write(abs(&variant), "variant \"P\" { base \"secret.txt\" }\n").unwrap();
    let o = run(&["check", &variant]);
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    assert!(!out.contains("TOP SECRET"), "{out}");
    assert!(out.contains("it is not a `.rules` file"), "{out}");
}

/// Runs meeple and gives it `seconds` to end: a command that blocks fails the test, not CI.
#[cfg(unix)]
fn within(seconds: u64, args: &[&str]) -> std::process::Output {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_meeple"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("meeple runs");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    while child.try_wait().expect("a status").is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("`meeple {}` did not end within {seconds} s", args.join(" "));
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().expect("its output")
}

#[cfg(unix)]
#[test]
fn devices_pipes_and_huge_files_are_refused_before_they_are_read() {
    let dir = scratch("devices");
    let fifo = abs(&format!("{dir}/fifo.json"));
    let c = std::ffi::CString::new(fifo.to_string_lossy().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path; mkfifo only creates the pipe.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
    let fifo = fifo.to_string_lossy().into_owned();
    // Sparse: their size is on record, their bytes are never written.
    let huge_save = abs(&format!("{dir}/huge.json"));
    std::fs::File::create(&huge_save)
        .unwrap()
        .set_len(65 << 20)
        .unwrap();
    let huge_shard = abs(&format!("{dir}/huge-shard.json"));
    std::fs::File::create(&huge_shard)
        .unwrap()
        .set_len(600 << 20)
        .unwrap();
    let cases: [(&[&str], &str); 6] = [
        (&["play", "--load", "/dev/zero"], "not a regular file"),
        (&["play", "--load", &fifo], "not a regular file"),
        (&["sim", "merge", "/dev/zero"], "not a regular file"),
        (&["sim", "merge", &fifo], "not a regular file"),
        (
            &["play", "--load", &huge_save.to_string_lossy()],
            "larger than 64 MiB",
        ),
        (
            &["sim", "merge", &huge_shard.to_string_lossy()],
            "larger than 512 MiB",
        ),
    ];
    for (args, why) in cases {
        let o = within(10, args);
        assert_eq!(code(&o), 1, "{args:?}");
        assert!(stderr(&o).contains(why), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn a_byte_order_mark_is_accepted_and_bad_utf8_is_placed() {
    let dir = scratch("encoding");
    let text = std::fs::read(abs(DUEL)).unwrap();
    let bom = format!("{dir}/bom.rules");
    std::fs::write(abs(&bom), [b"\xef\xbb\xbf".as_slice(), &text].concat()).unwrap();
    let o = run(&["check", &bom]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let bad = format!("{dir}/bad.rules");
    std::fs::write(abs(&bad), b"game \"G\" { players 2 }\n# caf\xe9\n").unwrap();
    let o = run(&["check", &bad]);
    assert_eq!(code(&o), 1);
    assert!(stdout(&o).contains("not-utf8"), "{}", stdout(&o));
    // (the message is wrapped where it is drawn)
    let flat = stdout(&o).split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("line 2, │ column 6") || flat.contains("line 2, column 6"),
        "{flat}"
    );
}

// -------------------------------------------------------------------- failures that tell no secret

/// `meeple play RULES --seed 1 EXTRA --save-on-failure SCRATCH/NAME` with `moves` typed: its
/// output and the save's path.
fn play_saving_failures(
    rules: &str,
    extra: &[&str],
    moves: &[&str],
    folder: &str,
    name: &str,
) -> (Output, String) {
    let save = format!("{}/{name}", scratch(folder));
    let args = [
        &["play", rules, "--seed", "1"][..],
        extra,
        &["--save-on-failure", &save],
    ]
    .concat();
    (meeple(&args, &script(moves)), save)
}

#[test]
fn a_rule_failing_on_a_secret_shows_no_value_and_stops_the_game_saved() {
    let (o, save) = play_saving_failures(
        SECRET_SUMS,
        &[],
        &["share P2", "share P2", "state", "quit"],
        "secret-failure",
        "failed.json",
    );
    let out = stdout(&o);
    // The other seat's stash is 158: a failure that said `158 / 0` told it.
    assert!(!out.replace("stash 158", "").contains("158"), "{out}");
    assert!(
        out.contains("a division by zero (its values are not shown"),
        "{out}"
    );
    // Tried once: the game stops, so the move cannot be tried again for free.
    assert_eq!(out.matches("A rule failed").count(), 1, "{out}");
    assert!(out.contains("The game stops here"), "{out}");
    assert!(
        !out.contains("> state"),
        "no line after the failure is read: {out}"
    );
    assert!(out.contains(&format!("saved in `{save}`")), "{out}");
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("the game stopped"), "{}", stderr(&o));
    let kept = meeple::save::SaveFile::read(&abs(&save)).expect("the game is saved");
    assert!(kept.decisions.is_empty());
}

#[test]
fn a_failing_removal_from_a_secret_hand_is_no_free_question() {
    // P2 holds 2 and 3. Taking 1 fails: the game stops there, once, for everyone to see.
    let (o, _) = play_saving_failures(
        SECRET_SUMS,
        &[],
        &["take 1", "take 2", "quit"],
        "secret-take",
        "failed.json",
    );
    let out = stdout(&o);
    assert_eq!(out.matches("A rule failed").count(), 1, "{out}");
    assert!(!out.contains("> take 2"), "{out}");
    assert!(out.contains("(its values are not shown"), "{out}");
    assert_eq!(code(&o), 1);
}

#[test]
fn a_bots_failing_move_at_a_table_of_people_is_handled_as_a_persons_and_saved() {
    let (o, save) = play_saving_failures(
        BOT_CRASH,
        &["--bots", "2=random"],
        &["go", "quit"],
        "bot-failure",
        "bot.json",
    );
    let dir = save.trim_end_matches("/bot.json").to_string();
    let out = stdout(&o);
    assert!(out.contains("A rule failed while P2's bot moved."), "{out}");
    assert!(
        out.contains("The move was not made; the game is as it was."),
        "{out}"
    );
    assert!(out.contains(&format!("saved in `{save}`")), "{out}");
    assert!(
        out.contains("P2's bot's moves failed 3 times in a row"),
        "{out}"
    );
    assert_eq!(code(&o), 1);
    let kept = meeple::save::SaveFile::read(&abs(&save)).expect("the game is saved");
    assert_eq!(kept.decisions.len(), 1, "P1's move is kept");
    // Three failures at one position make one save, not three.
    assert_eq!(out.matches("(the referee's record").count(), 1, "{out}");
    // The save reopens where the game stopped (and the bot fails there again).
    let again = format!("{dir}/again.json");
    let o = meeple(
        &["play", "--load", &save, "--save-on-failure", &again],
        &script(&["quit"]),
    );
    assert!(stdout(&o).contains("1 decision replayed"), "{}", stdout(&o));
    assert_eq!(entries(&dir), ["again.json", "bot.json"]);
}

#[test]
fn a_failure_without_a_save_path_is_saved_under_a_new_name_that_tells_no_seed() {
    let dir = scratch("numbered");
    let rules = abs(SECRET_SUMS).to_string_lossy().into_owned();
    let play = |seed: &str| {
        let child = std::process::Command::new(env!("CARGO_BIN_EXE_meeple"))
            .args(["play", &rules, "--seed", seed])
            .current_dir(abs(&dir))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("meeple runs");
        common::finish(child, b"share P2\n")
    };
    let first = play("77");
    assert!(
        stdout(&first).contains("saved in `meeple-failure-table-1.json`"),
        "{}",
        stdout(&first)
    );
    let second = play("77");
    assert!(stdout(&second).contains("saved in `meeple-failure-table-2.json`"));
    assert_eq!(
        entries(&dir),
        ["meeple-failure-table-1.json", "meeple-failure-table-2.json"]
    );
}

// ----------------------------------------------------------------------------- text only

#[test]
fn control_characters_from_the_rules_reach_no_output_raw() {
    let dir = scratch("escapes");
    let rules = format!("{dir}/esc.rules");
    let text = "game \"Esc\x1b]0;title\x07\" { players 2 }\n\
                flow { for p in players { turn p } }\n\
                action go \"Go \x1b[2J now\" { log \"{me} \x1b]52;c;ZXZpbA==\x07 clip\u{9b}2J\" }\n";
    std::fs::write(abs(&rules), text).unwrap();
    let raw = |bytes: &[u8]| {
        let s = String::from_utf8_lossy(bytes);
        s.chars().any(|c| c.is_control() && c != '\n' && c != '\t')
    };
    let outputs = [
        run(&["check", &rules]),
        meeple(&["play", &rules, "--seed", "1"], "go\nstate\nlog\nquit\n"),
        run(&["play", &rules, "--bots", "random", "--seed", "1"]),
        run(&["play", &rules, "--bots", "random", "--seed", "1", "--json"]),
        run(&["doc", &rules]),
        run(&["doc", &rules, "--html"]),
        run(&["sim", &rules, "--games", "2"]),
        run(&["sim", &rules, "--games", "2", "--json"]),
    ];
    for o in &outputs {
        assert!(!raw(&o.stdout), "{}", String::from_utf8_lossy(&o.stdout));
        assert!(!raw(&o.stderr), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let check = stdout(&outputs[0]);
    assert!(check.contains("control-character"), "{check}");
    assert!(
        check.contains("\"Esc\\u{1b}]0;title\\u{7}\""),
        "the source line, escaped: {check}"
    );
    let repl = stdout(&outputs[1]);
    assert!(
        repl.contains("P1 \\u{1b}]52;c;ZXZpbA==\\u{7} clip\\u{9b}2J"),
        "{repl}"
    );
    // JSON says the same text, escaped as JSON.
    let json = stdout(&outputs[3]);
    let first: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!(first["game"], "Esc\x1b]0;title\x07");
}

#[test]
fn the_repl_escapes_a_line_it_cannot_read_too() {
    let o = meeple_bytes(&["play", DUEL, "--seed", "2"], b"\x1b[2Jhello\nquit\n");
    let out = stdout(&o);
    assert!(!out.contains('\x1b'), "{out}");
}

// ----------------------------------------------------------------------------- sim in bounds

#[test]
fn sim_refuses_a_batch_too_large_to_keep_with_the_reason() {
    for games in ["1000000000", "1000000000000000000", "18446744073709551615"] {
        let o = within_any(&["sim", GAME, "--players", "3", "--games", games]);
        assert_eq!(code(&o), 2, "{games}");
        assert!(
            stderr(&o).contains("more than one batch plays (1000000)"),
            "{}",
            stderr(&o)
        );
    }
    let o = run(&["sim", GAME, "--players", "3", "--games", "10^18"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("is not a whole number of games"),
        "{}",
        stderr(&o)
    );
}

/// [`run`], but never waiting on a batch that was not refused (unix: at most 10 s).
fn within_any(args: &[&str]) -> std::process::Output {
    #[cfg(unix)]
    {
        within(10, args)
    }
    #[cfg(not(unix))]
    {
        run(args)
    }
}

#[test]
fn sim_merge_checks_every_record_and_names_the_bad_one() {
    let dir = scratch("merge");
    let o = run(&[
        "sim",
        GAME,
        "--players",
        "3",
        "--games",
        "4",
        "--shard",
        "1/1",
        "--json",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let shard: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    type Edit = fn(&mut serde_json::Value);
    let edits: [(&str, Edit, &str); 3] = [
        (
            "seat",
            |s| s["records"][1]["winners"] = serde_json::json!([99]),
            "the record of game 1: it names seat 100 as a winner, and the game has 3",
        ),
        (
            "length",
            |s| s["records"][2]["decisions"] = serde_json::json!(1u64 << 63),
            "the record of game 2: 9223372036854775808 decisions, more than the batch's --max-decisions",
        ),
        (
            "scores",
            |s| s["records"][0]["scores"] = serde_json::json!([1]),
            "the record of game 0: 1 scores",
        ),
    ];
    for (name, edit, expected) in edits {
        let mut bad = shard.clone();
        edit(&mut bad);
        let path = format!("{dir}/{name}.json");
        std::fs::write(abs(&path), bad.to_string()).unwrap();
        let o = run(&["sim", "merge", &path]);
        assert_eq!(code(&o), 1, "{name}: {}", stderr(&o));
        assert!(stderr(&o).contains(expected), "{name}: {}", stderr(&o));
    }
}

// ----------------------------------------------------------------------------- small ones

#[test]
fn a_save_that_no_longer_replays_says_whether_the_rules_changed_or_the_save_was_edited() {
    let dir = scratch("rules-edit");
    let rules = format!("{dir}/duel.rules");
    std::fs::copy(abs(DUEL), abs(&rules)).unwrap();
    let save = format!("{dir}/game.json");
    let o = meeple(
        &["play", &rules, "--seed", "2"],
        &script(&["1", "2", &format!("save {save}"), "quit"]),
    );
    assert!(stdout(&o).contains("Saved 2 decisions"), "{}", stdout(&o));
    let text = std::fs::read_to_string(abs(&rules)).unwrap();
    std::fs::write(
        abs(&rules),
        text.replace("p.points += n", "p.points += 2 * n"),
    )
    .unwrap();
    // A save carries its rules: it goes on under them, and says the file changed.
    let o = meeple(&["play", "--load", &save], &script(&["quit"]));
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!("`{rules}` has changed since the game was saved")),
        "{}",
        stderr(&o)
    );
    // A save made before saves carried their rules replays under the files as they are now.
    let mut older: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(abs(&save)).unwrap()).unwrap();
    older
        .as_object_mut()
        .unwrap()
        .remove("texts")
        .expect("texts");
    std::fs::write(abs(&save), older.to_string()).unwrap();
    let o = run(&["play", "--load", &save]);
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert!(
        err.contains(&format!(
            "the rules have changed since the game was saved (`{rules}` differs)"
        )),
        "{err}"
    );
    assert!(!err.contains("seed or players"), "{err}");
}

#[test]
fn a_huge_rules_file_is_answered_at_once_and_a_flood_of_warnings_is_counted_not_drawn() {
    let dir = scratch("huge-rules");
    let cap = meeple::load::MAX_RULES_FILE as usize;
    assert_eq!(
        cap,
        10 << 20,
        "docs/reliability.md and docs/language.md give the cap"
    );
    // A file of the largest size read, all unused variables: checked, not refused, and its
    // warnings are a hundred and a count (the count exact, so none is lost or counted twice).
    let mut text = String::from(
        "game \"Big\" { players 2 }\nflow { for p in players { turn p } }\naction go { }\n",
    );
    let mut vars = 0;
    loop {
        let line = format!("var v{vars}: int = {vars}\n");
        if text.len() + line.len() > cap {
            break;
        }
        text.push_str(&line);
        vars += 1;
    }
    text.push_str(&" ".repeat(cap - text.len()));
    assert_eq!(text.len(), cap);
    let huge = format!("{dir}/huge.rules");
    std::fs::write(abs(&huge), &text).unwrap();
    let o = run(&["check", &huge]);
    let out = stdout(&o);
    assert_eq!(code(&o), 0, "{}", &out[..out.len().min(2000)]);
    assert!(
        out.ends_with("ok (0 errors, 101 warnings)\n"),
        "{}",
        &out[out.len().saturating_sub(800)..]
    );
    let count = format!(
        "{} more `unused-definition` problems like the ones above",
        vars - 100
    );
    assert!(out.contains(&count), "{count}: {}", &out[out.len() - 800..]);
    // Drawn one by one, the warnings alone would be dozens of megabytes.
    assert!(out.len() < 100_000, "{} bytes of output", out.len());
    // The shown ones are the first in the file, in order; the count is at the first left out.
    assert!(out.contains("var `v0` is never used"), "{}", &out[..2000]);
    assert!(out.contains("var `v99` is never used"));
    assert!(!out.contains("var `v100` is never used"));
    // One byte more and it is not read at all.
    text.push('\n');
    std::fs::write(abs(&huge), &text).unwrap();
    let o = run(&["check", &huge]);
    assert_eq!(code(&o), 1);
    assert!(
        stdout(&o).contains("it is larger than 10 MiB"),
        "{}",
        stdout(&o)
    );
}
