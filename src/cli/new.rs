//! `meeple new NAME [--dir D]`: starts a game from a template: `NAME.rules`, a small working
//! game with scenarios and invariants, and `NAME/long_game.rules`, a variant of it.

use super::{fail, CliError};
use clap::Args;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `meeple new`.
#[derive(Debug, Args)]
pub struct NewArgs {
    /// The game's file stem: letters, digits, `_` and `-` (`my_game` makes `my_game.rules`).
    #[arg(value_name = "NAME")]
    pub name: String,

    /// The folder to create the files in (created if need be).
    #[arg(long, value_name = "D", default_value = ".")]
    pub dir: PathBuf,
}

/// The game template; `{name}` and `{title}` are filled in.
const GAME: &str = include_str!("templates/game.rules");
/// The variant template, in the folder named after the game.
const VARIANT: &str = include_str!("templates/variant.rules");
/// The variant's file name.
const VARIANT_FILE: &str = "long_game.rules";
/// The longest name accepted.
const MAX_NAME: usize = 64;

/// Creates the game and its variant; exit status 1 if the name is unsafe or a file exists.
pub(super) fn run(args: &NewArgs) -> Result<ExitCode, CliError> {
    let name = args.name.as_str();
    if let Err(why) = check_name(name) {
        return Ok(fail(&format!("cannot make a game named `{name}`: {why}")));
    }
    let files = [
        (args.dir.join(format!("{name}.rules")), GAME),
        (args.dir.join(name).join(VARIANT_FILE), VARIANT),
    ];
    for (path, _) in &files {
        if path.exists() {
            return Ok(fail(&format!(
                "{} already exists; nothing was written (pick another name or --dir)",
                path.display()
            )));
        }
    }
    let title = title(name);
    for (path, template) in &files {
        let text = fill(template, name, &title);
        if let Err(e) = create(path, &text) {
            return Ok(fail(&format!("cannot write {}: {e}", path.display())));
        }
    }
    let mut out = io::stdout().lock();
    for (path, _) in &files {
        writeln!(out, "created {}", path.display())?;
    }
    // Their golden files too, so that `meeple test` passes at once, under CI as well.
    for (path, _) in &files {
        match crate::golden::write_all(path, &[], crate::golden::DEFAULT_SEED) {
            Ok(written) => writeln!(
                out,
                "created {} golden files in {}",
                written.len(),
                crate::golden::folder_of(path).display()
            )?,
            Err(e) => return Ok(fail(&format!("cannot write golden files: {e}"))),
        }
    }
    let game = files[0].0.display();
    writeln!(
        out,
        "next: `meeple check {game}`, `meeple test {game}`, `meeple play {game} --players 2`"
    )?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Whether `name` is a safe file stem: 1 to 64 letters, digits, `_` and `-`, not starting with
/// `-`. The reason if not.
pub(crate) fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("the name is empty".into());
    }
    if name.len() > MAX_NAME {
        return Err(format!("names are at most {MAX_NAME} characters"));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        return Err(format!(
            "`{}` is not allowed: use letters, digits, `_` and `-` only",
            c.escape_default()
        ));
    }
    if name.starts_with('-') {
        return Err("a name cannot start with `-`".into());
    }
    Ok(())
}

/// The game's title: `my_game` is `My Game`.
fn title(name: &str) -> String {
    name.split(['_', '-'])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut cs = w.chars();
            cs.next().map_or(String::new(), |c| {
                c.to_ascii_uppercase().to_string() + cs.as_str()
            })
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A template with its placeholders filled in.
fn fill(template: &str, name: &str, title: &str) -> String {
    template.replace("{name}", name).replace("{title}", title)
}

/// Writes a new file (never over an old one), creating its folder.
fn create(path: &Path, text: &str) -> io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)?;
    }
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?;
    file.write_all(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_safe_file_stems() {
        for ok in ["demo", "my_game", "dice-race2", "_x"] {
            assert_eq!(check_name(ok), Ok(()), "{ok}");
        }
        for bad in [
            "",
            "../x",
            "a/b",
            "a b",
            "-x",
            "é",
            "a.rules",
            &"x".repeat(65),
        ] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn titles_capitalise_each_word() {
        assert_eq!(title("demo"), "Demo");
        assert_eq!(title("my_game"), "My Game");
        assert_eq!(title("dice-race2"), "Dice Race2");
        assert_eq!(title("_x_"), "X");
    }

    #[test]
    fn the_templates_are_formatted_and_filled() {
        use crate::diag::FileId;
        use crate::syntax::format::format;
        for template in [GAME, VARIANT] {
            let text = fill(template, "demo", "Demo");
            assert!(!text.contains("{name}") && !text.contains("{title}"));
            assert_eq!(
                format(FileId(0), &text).ok().as_deref(),
                Some(text.as_str())
            );
        }
    }
}
