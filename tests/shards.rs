//! The recipes of docs/sim.md's "Shards and clusters", run as the page writes them, so that the
//! page cannot drift from what works: GNU parallel for real; the Slurm array's script and the
//! Kubernetes Indexed Job's commands with the variables their schedulers set (every task or
//! index in turn, and fewer games). Each merge prints byte for byte the report of one run, as
//! tests/sim.rs asserts of shards run by hand. And every flag they give `meeple sim` exists.

mod common;

use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The games a cluster's recipe plays, and the few the test plays instead.
const CLUSTER_GAMES: &str = "--games 1000000";
const TEST_GAMES: &str = "--games 400";

/// The section of docs/sim.md on shards.
fn section() -> String {
    let doc = std::fs::read_to_string(common::root().join("docs/sim.md")).expect("docs/sim.md");
    let start = doc.find("## Shards and clusters").expect("the section");
    let rest = &doc[start..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |e| e + 3);
    rest[..end].to_string()
}

/// The section's fenced code blocks: their language and text.
fn blocks() -> Vec<(String, String)> {
    let section = section();
    let mut out = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in section.lines() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(lang)) => open = Some((lang.trim().to_string(), String::new())),
            (Some(_), Some(_)) => out.push(open.take().expect("open")),
            (Some((_, text)), None) => {
                text.push_str(line);
                text.push('\n');
            }
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "a code block is not closed");
    out
}

/// The one block in `lang` that holds `mark`.
fn block(lang: &str, mark: &str) -> String {
    let found: Vec<String> = blocks()
        .into_iter()
        .filter(|(l, t)| l == lang && t.contains(mark))
        .map(|(_, t)| t)
        .collect();
    assert_eq!(found.len(), 1, "one `{lang}` block with `{mark}`");
    found[0].clone()
}

/// A folder to run recipes in: `rules` links to the package's, so the rules files' paths are
/// the page's.
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a scratch folder");
    std::os::unix::fs::symlink(common::root().join("rules"), dir.path().join("rules"))
        .expect("link rules");
    dir
}

/// `PATH` with the `meeple` under test first.
fn path_var() -> std::ffi::OsString {
    let bin = Path::new(env!("CARGO_BIN_EXE_meeple")).parent().unwrap();
    let mut dirs = vec![bin.to_path_buf()];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(dirs).unwrap()
}

/// Runs `script` with `shell -e -c` in `dir`, with `env` set; fails on any status but 0.
fn script(shell: &str, dir: &Path, script: &str, env: &[(&str, String)]) -> Output {
    let o = Command::new(shell)
        .args(["-e", "-c", script])
        .current_dir(dir)
        .env("PATH", path_var())
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{shell} runs: {e}"));
    assert!(
        o.status.success(),
        "{shell} -c {script:?} {env:?}: {}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// The `meeple` commands in `text`: each line's words (lines continued with `\` joined) from
/// `meeple` up to the first shell operator, their quotes taken off.
fn meeple_commands(text: &str) -> Vec<Vec<String>> {
    let text = text.replace("\\\n", " ");
    let mut out = Vec::new();
    for line in text.lines() {
        let mut rest = line;
        while let Some(at) = rest.find("meeple sim") {
            let words: Vec<String> = rest[at..]
                .split_whitespace()
                .map(|w| w.trim_matches(|c| c == '\'' || c == '"').to_string())
                .take_while(|w| !w.starts_with('>') && !["||", "|", ";", "&&"].contains(&&**w))
                .collect();
            rest = &rest[at + 10..];
            out.push(words);
        }
    }
    out
}

/// The one `meeple sim` command in `text` that plays shards: its arguments for one run of the
/// whole batch (no `--shard`, `--json` or `--threads`).
fn unsharded(text: &str) -> Vec<String> {
    let commands: Vec<Vec<String>> = meeple_commands(text)
        .into_iter()
        .filter(|c| c.iter().any(|w| w == "--shard"))
        .collect();
    assert_eq!(commands.len(), 1, "one shard command in {text}");
    let mut args = Vec::new();
    let mut words = commands[0][1..].iter();
    while let Some(w) = words.next() {
        match w.as_str() {
            "--shard" | "--threads" => {
                words.next();
            }
            "--json" => {}
            _ => args.push(w.clone()),
        }
    }
    args
}

/// Checks that `report` (a merge's) is byte for byte the report of one run of `args`.
fn same_as_one_run(dir: &Path, args: &[String], report: &Path) {
    let one = Command::new(env!("CARGO_BIN_EXE_meeple"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("meeple runs");
    assert!(one.status.code() == Some(0), "{args:?}: {one:?}");
    let merged = std::fs::read(report).expect("the merged report");
    assert!(
        merged == one.stdout,
        "the merge of the shards is the report of one run of {args:?}:\n{}\n---\n{}",
        String::from_utf8_lossy(&merged),
        String::from_utf8_lossy(&one.stdout)
    );
}

/// The number after `prefix` in `text`.
fn number_after(text: &str, prefix: &str) -> u32 {
    let at = text
        .find(prefix)
        .unwrap_or_else(|| panic!("`{prefix}` in {text}"))
        + prefix.len();
    let digits: String = text[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().expect("a number")
}

#[test]
fn gnu_parallel_shards_merge_into_the_report_of_one_run() {
    assert!(
        Command::new("parallel")
            .arg("--version")
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success()),
        "GNU parallel is needed: `.ci/run` installs it (apt-get install parallel)"
    );
    let recipe = block("sh", "parallel ");
    let n = number_after(&recipe, "--shard {}/");
    let values = recipe.split(":::").nth(1).expect("the values of K");
    let values: Vec<&str> = values.lines().next().unwrap().split_whitespace().collect();
    let all: Vec<String> = (1..=n).map(|k| k.to_string()).collect();
    assert_eq!(values, all, "K runs over 1 to N");
    let dir = scratch();
    script("bash", dir.path(), &recipe, &[]);
    for k in 1..=n {
        assert!(dir.path().join(format!("shard-{k}.json")).is_file(), "{k}");
    }
    same_as_one_run(
        dir.path(),
        &unsharded(&recipe),
        &dir.path().join("report.txt"),
    );
}

#[test]
fn a_slurm_array_merges_into_the_report_of_one_run() {
    let job = block("sh", "#SBATCH");
    let n = number_after(&job, "#SBATCH --array=1-");
    assert!(job.contains(&format!("--shard \"$SLURM_ARRAY_TASK_ID/{n}\"")));
    assert!(job.contains(CLUSTER_GAMES), "{job}");
    let job = job.replace(CLUSTER_GAMES, TEST_GAMES);
    let dir = scratch();
    for k in 1..=n {
        let env = [
            ("SLURM_ARRAY_TASK_ID", k.to_string()),
            ("SLURM_CPUS_PER_TASK", "1".to_string()),
        ];
        script("bash", dir.path(), &job, &env);
    }
    let submit = block("sh", "sbatch --dependency=afterany:");
    let wrap = submit.split("--wrap '").nth(1).expect("--wrap");
    let merge = &wrap[..wrap.find('\'').expect("quoted")];
    script("sh", dir.path(), merge, &[]);
    same_as_one_run(dir.path(), &unsharded(&job), &dir.path().join("report.txt"));
}

/// The shell script of a Job's container: the block scalar under `args:` (`- |`), dedented,
/// its `/results` volume moved to `results`.
fn container_script(manifest: &str, results: &Path) -> String {
    let lines: Vec<&str> = manifest.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim() == "- |")
        .expect("args: - |");
    let indent = |l: &str| l.len() - l.trim_start().len();
    let body: Vec<&str> = lines[at + 1..]
        .iter()
        .take_while(|l| indent(l) > indent(lines[at]))
        .copied()
        .collect();
    let margin = indent(body[0]);
    body.iter()
        .map(|l| format!("{}\n", &l[margin..]))
        .collect::<String>()
        .replace("/results/", &format!("{}/", results.display()))
}

#[test]
fn a_kubernetes_indexed_job_merges_into_the_report_of_one_run() {
    let job = block("yaml", "completionMode: Indexed");
    for line in [
        "kind: Job",
        "restartPolicy: Never",
        "mountPath: /results",
        "claimName: meeple-results",
        "parallelism: ",
    ] {
        assert!(job.contains(line), "{line}");
    }
    let n = number_after(&job, "completions: ");
    assert!(job.contains("k=$((JOB_COMPLETION_INDEX + 1))"));
    assert!(job.contains(&format!("--shard \"$k/{n}\"")));
    assert!(job.contains(CLUSTER_GAMES), "{job}");
    let merge_job = block("yaml", "meeple sim merge");
    assert!(merge_job.contains("claimName: meeple-results"));

    let dir = scratch();
    let results = dir.path().join("results");
    std::fs::create_dir(&results).unwrap();
    let shard = container_script(&job.replace(CLUSTER_GAMES, TEST_GAMES), &results);
    // The control plane sets the index, from 0 to completions - 1.
    for index in 0..n {
        script(
            "sh",
            dir.path(),
            &shard,
            &[("JOB_COMPLETION_INDEX", index.to_string())],
        );
    }
    for k in 1..=n {
        assert!(results.join(format!("shard-{k}.json")).is_file(), "{k}");
    }
    script(
        "sh",
        dir.path(),
        &container_script(&merge_job, &results),
        &[],
    );
    same_as_one_run(dir.path(), &unsharded(&shard), &results.join("report.txt"));
}

#[test]
fn every_flag_the_recipes_give_meeple_exists() {
    let help = |args: &[&str]| common::stdout(&common::run(args));
    let help = help(&["sim", "--help"]) + &help(&["sim", "merge", "--help"]);
    let known: Vec<&str> = help
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| w.starts_with('-'))
        .collect();
    let mut commands = 0;
    for (_, text) in blocks() {
        for command in meeple_commands(&text) {
            commands += 1;
            for word in command.iter().filter(|w| w.starts_with('-')) {
                let flag = word.split('=').next().unwrap();
                assert!(known.contains(&flag), "`{flag}` in {command:?}");
            }
        }
    }
    assert!(commands >= 6, "{commands} commands");
    assert!(known.contains(&"--shard") && !known.contains(&"--shards"));
}
