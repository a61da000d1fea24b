//! `meeple help [TOPIC]`, `meeple completions SHELL` and `meeple man [COMMAND]`: the reference
//! and the shell's conveniences from the binary alone, with no clone of the repository.

use super::{Cli, CliError};
use clap::CommandFactory;
use std::io::{self, Write};
use std::process::ExitCode;

/// The guides built into the binary: a name, what it covers, and its text.
pub const TOPICS: &[(&str, &str, &str)] = &[
    (
        "language",
        "the language reference: every construct with an example, every diagnostic code",
        include_str!("../../docs/language.md"),
    ),
    (
        "sim",
        "meeple sim: the balance report, A/B comparisons, charts and shards",
        include_str!("../../docs/sim.md"),
    ),
    (
        "bots",
        "the bots: random, greedy, mcts, what they see and what they cost",
        include_str!("../../docs/bots.md"),
    ),
    (
        "serve",
        "meeple serve: the playtest table in the browser",
        include_str!("../../docs/serve.md"),
    ),
    (
        "json",
        "the JSON documents: check --json, play --json",
        include_str!("../../docs/json.md"),
    ),
    (
        "saves",
        "save files: what they hold and how they are read and written",
        include_str!("../../docs/saves.md"),
    ),
    (
        "testing",
        "meeple test: scenarios, bot games, golden files",
        include_str!("../../docs/testing.md"),
    ),
    (
        "tools",
        "meeple new, doc, fmt and the other designer tools",
        include_str!("../../docs/tools.md"),
    ),
    (
        "editors",
        "VS Code, Neovim and Helix, and the language server",
        include_str!("../../docs/editors.md"),
    ),
    (
        "reliability",
        "what Meeple promises: no panic, no hang, no data loss, no leak",
        include_str!("../../docs/reliability.md"),
    ),
];

/// The text of a guide, by name.
pub fn topic(name: &str) -> Option<&'static str> {
    TOPICS.iter().find(|t| t.0 == name).map(|t| t.2)
}

/// What `meeple help` says after the commands: the guides and how to read one.
pub(super) fn guides_list() -> String {
    let mut s = String::from("Guides (meeple help GUIDE):\n");
    for (name, about, _) in TOPICS {
        s.push_str(&format!("  {name:<12} {about}\n"));
    }
    s
}

/// `meeple help`: a command's help, or a guide.
pub(super) fn help(words: &[String]) -> Result<ExitCode, CliError> {
    let mut out = io::stdout().lock();
    let mut cmd = Cli::command();
    cmd.build();
    if words.is_empty() {
        write!(out, "{}", cmd.render_long_help())?;
        return Ok(ExitCode::SUCCESS);
    }
    if words.len() == 1 {
        if let Some(text) = topic(&words[0]) {
            write!(out, "{text}")?;
            return Ok(ExitCode::SUCCESS);
        }
    }
    let mut at = &mut cmd;
    for word in words {
        match at.find_subcommand_mut(word) {
            Some(sub) => at = sub,
            None => {
                let all = Cli::command();
                let known = all
                    .get_subcommands()
                    .map(|c| c.get_name())
                    .chain(TOPICS.iter().map(|t| t.0));
                let hint = crate::diag::suggest_name(word, known)
                    .map(|s| format!(" (did you mean `{s}`?)"))
                    .unwrap_or_default();
                return Err(super::usage_error(
                    "help",
                    clap::error::ErrorKind::InvalidValue,
                    format!(
                        "no command or guide is called `{}`{hint}\n\n{}",
                        crate::printable::escape(word),
                        guides_list()
                    ),
                ));
            }
        }
    }
    write!(out, "{}", at.render_long_help())?;
    Ok(ExitCode::SUCCESS)
}

/// `meeple completions SHELL`: the completion script, to be sourced by the shell.
pub(super) fn completions(shell: clap_complete::Shell) -> Result<ExitCode, CliError> {
    let mut out = io::stdout().lock();
    clap_complete::generate(shell, &mut Cli::command(), "meeple", &mut out);
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// `meeple man [COMMAND]`: the manual page of meeple, or of one of its commands, in roff.
pub(super) fn man(command: Option<&str>) -> Result<ExitCode, CliError> {
    let mut cmd = Cli::command();
    cmd.build();
    let page = match command {
        None => cmd,
        Some(name) => match cmd.find_subcommand(name) {
            Some(sub) => {
                // Titled `meeple-check(1)`, as git's commands are.
                let title: &'static str = Box::leak(format!("meeple-{name}").into_boxed_str());
                sub.clone().name(title).bin_name(format!("meeple {name}"))
            }
            None => {
                return Err(super::usage_error(
                    "man",
                    clap::error::ErrorKind::InvalidValue,
                    format!("no command is called `{}`", crate::printable::escape(name)),
                ))
            }
        },
    };
    let mut text = Vec::new();
    clap_mangen::Man::new(page).render(&mut text)?;
    io::stdout().lock().write_all(&text)?;
    Ok(ExitCode::SUCCESS)
}
