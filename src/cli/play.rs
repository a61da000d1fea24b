//! `meeple play`: load and check the rules, start (or resume) the game, then either let bots
//! play every seat and print the transcript or JSON, or hand the game to the REPL.

use super::report::{Failure, Stream, Table};
use super::{
    eprint_text, fail, load_game_reporting, stderr_style, usage_error, CliError, PlayArgs,
};
use crate::bots::{ask_bot, BotSpec};
use crate::diag::render;
use crate::engine::{Game, MoveError, RuntimeError};
use crate::ir::Program;
use crate::repl::{self, Files, Plain, ReplError, Seats, Session, Style, Terminal};
use crate::save::{SaveError, SaveFile};
use clap::error::ErrorKind;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

const FAILED: u8 = 1;

/// The REPL's line width: the terminal's, else `COLUMNS` when set (a pipe read by a person
/// through a pager, or a test), else unbounded (output read by a program).
fn repl_width(screen: bool) -> repl::Width {
    if screen {
        return repl::Width::Terminal;
    }
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse().ok())
        .map_or(repl::Width::Unbounded, repl::Width::Columns)
}

/// Plays a game as the arguments say.
pub(super) fn run(args: &PlayArgs) -> Result<ExitCode, CliError> {
    if args.json && args.bots.is_none() && args.load.is_none() {
        return Err(json_needs_bots());
    }
    let save = match &args.load {
        Some(path) => match SaveFile::read(path) {
            Ok(s) => Some(s),
            Err(e) => return Ok(fail(&format!("cannot resume: {e}"))),
        },
        None => None,
    };
    let files = match (&save, &args.file) {
        (Some(s), _) => Files {
            rules: s.rules.clone(),
            variants: s.variants.clone(),
        },
        (None, Some(file)) => Files {
            rules: file.display().to_string(),
            variants: args
                .variants
                .iter()
                .map(|v| v.display().to_string())
                .collect(),
        },
        (None, None) => {
            return Err(usage_error(
                "play",
                ErrorKind::MissingRequiredArgument,
                "a rules FILE (or --load SAVE) is required".into(),
            ))
        }
    };

    let Some(program) = load_game_reporting(save.as_ref(), &files.rules, &files.variants) else {
        let mut message = format!(
            "{}: the rules have errors; fix them and try again",
            files.rules
        );
        if save.is_some() && !Path::new(&files.rules).exists() {
            message.push_str(
                "\n(a save names its rules relative to its own folder; a --json stream, or a save in format 1, relative to the folder the game was played in)",
            );
        }
        return Ok(fail(&message));
    };
    let program = Arc::new(program);
    let (min, max) = (program.min_players, program.max_players);

    let players = match (&save, args.players) {
        (Some(s), _) => s.players,
        (None, Some(n)) => n,
        (None, None) => min,
    };
    if !(min..=max).contains(&players) {
        let message = format!(
            "{} is for {} players, not {players}",
            program.title,
            program.player_counts()
        );
        if save.is_some() {
            return Ok(fail(&format!("cannot resume: {message}")));
        }
        return Err(usage_error("play", ErrorKind::ValueValidation, message));
    }

    let spec = match super::bots_for("play", args.bots.as_ref(), save.as_ref(), players) {
        Ok(spec) => spec,
        Err(outcome) => return outcome,
    };
    let all_bots = spec.covers_all(players);
    if args.json && !all_bots {
        return Err(json_needs_bots());
    }

    let seed = match (&save, args.seed) {
        (Some(s), _) => s.seed,
        (None, Some(s)) => s,
        (None, None) => {
            let s = fresh_seed();
            // At a table with people the seed would tell them every hidden card: the REPL
            // shows it when the game is over.
            if spec.covers_all(players) {
                eprint_text(&format!(
                    "meeple: no --seed given; random seed {s} (replay with --seed {s})\n"
                ));
            }
            s
        }
    };

    let mut seats = Seats::new(&spec, seed, players);
    // With bots in every seat, the record so far is written as the save is replayed (kept
    // back until the replay has checked out).
    let mut stream = Stream::new(args.json);
    let mut started_stream = false;
    let started = match &save {
        Some(s) => s.restore(program.clone(), &mut |g, r| {
            if all_bots {
                if started_stream {
                    stream.decision(g);
                } else {
                    stream.header(g, &files.rules, &files.variants, spec.render());
                    started_stream = true;
                }
            }
            seats.keep_in_step(g, r)
        }),
        None => Game::new(program.clone(), players, seed).map_err(SaveError::Start),
    };
    let mut game = match started {
        Ok(g) => g,
        Err(SaveError::Start(e)) => {
            if all_bots {
                // the record of a game that could not be set up: its header and the error
                let table = Table {
                    program: &program,
                    players,
                    seed,
                    rules: &files.rules,
                    variant_files: &files.variants,
                    bots: spec.render(),
                };
                stream.header_before_setup(&table);
                let nothing = Failure {
                    seat: None,
                    choice: None,
                    save: None,
                };
                stream.failure(&program, &e, &nothing);
                stream.flush_to(&mut io::stdout().lock())?;
            }
            return Ok(runtime_failure(&program, &e));
        }
        Err(e) => return Ok(fail(&format!("cannot resume: {e}"))),
    };
    game.set_max_decisions(usize::try_from(args.max_decisions).unwrap_or(usize::MAX));

    if !all_bots {
        if let Some(path) = &args.load {
            let n = game.history().len();
            let mut out = io::stdout().lock();
            writeln!(
                out,
                "Resumed `{}`: {n} decision{} replayed.",
                path.display(),
                if n == 1 { "" } else { "s" }
            )?;
        }
        let failure_save = args.save_on_failure.clone();
        return hand_to_repl(game, seats, spec, files, save.is_some(), failure_save);
    }
    if started_stream {
        stream.decision(&game);
    } else {
        stream.header(&game, &files.rules, &files.variants, spec.render());
    }
    let mut out = io::stdout().lock();
    stream.flush_to(&mut out)?;
    let Some(mut bots) = seats.into_all() else {
        return Ok(fail("a seat has no bot"));
    };
    let failure_path = args
        .save_on_failure
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("meeple-failure-{seed}.json")));
    while !game.is_over() {
        let Some(&seat) = game.waiting_on().first() else {
            return Ok(fail("the game cannot go on: nobody is asked to decide"));
        };
        let index = ask_bot(&game, seat, bots[seat as usize].as_mut()).unwrap_or(0);
        let secret = game.decision_is_secret();
        let label = game.option_label(seat, index).unwrap_or_default();
        let recorded = game.history().len();
        match game.apply(seat, index) {
            // one pick of a choice of several: the decision is streamed when it is whole
            Ok(()) if game.history().len() == recorded => {}
            Ok(()) => stream.decision(&game),
            Err(MoveError::Runtime(e)) => {
                let saved = save_failure(&game, &files, &spec, &failure_path);
                let shown = match &saved {
                    Ok(()) => Some(failure_path.display().to_string()),
                    Err(_) => None,
                };
                let failure = Failure {
                    seat: Some(seat),
                    choice: (args.json || !secret).then_some(label.as_str()),
                    save: shown.as_deref(),
                };
                stream.failure(&program, &e, &failure);
                stream.flush_to(&mut out)?;
                drop(out);
                let code = runtime_failure(&program, &e);
                match saved {
                    Ok(()) => eprint_text(&format!(
                        "meeple: the game just before decision {} is saved in `{}`; `meeple play --load {}` reopens it\n",
                        game.history().len() + 1,
                        failure_path.display(),
                        failure_path.display()
                    )),
                    Err(err) => eprint_text(&format!("meeple: the game was not saved: {err}\n")),
                }
                return Ok(code);
            }
            Err(e) => {
                stream.flush_to(&mut out)?;
                return Ok(fail(&format!("a bot's move was refused: {e}")));
            }
        }
        stream.flush_to(&mut out)?;
    }
    stream.finish(&game);
    stream.flush_to(&mut out)?;
    Ok(ExitCode::SUCCESS)
}

/// Saves the game (just before a failing decision) as the referee's record.
fn save_failure(game: &Game, files: &Files, spec: &BotSpec, path: &Path) -> Result<(), SaveError> {
    let bots = (*spec != BotSpec::default()).then(|| spec.render());
    SaveFile::of_game(game, &files.rules, &files.variants, bots)?.write(path)
}

/// Runs the REPL on stdin and stdout: a line editor on a terminal, plain lines from a pipe.
fn hand_to_repl(
    game: Game,
    seats: Seats,
    spec: crate::bots::BotSpec,
    files: Files,
    resumed: bool,
    failure_save: Option<PathBuf>,
) -> Result<ExitCode, CliError> {
    // A history file only for a person alone with bots: at a shared table it would keep one
    // seat's lines for the next to recall.
    let people = (0..game.players())
        .filter(|p| spec.for_seat(*p).is_none())
        .count();
    let interactive = io::stdin().is_terminal();
    let screen = io::stdout().is_terminal();
    let style = Style {
        color: super::stdout_style().color,
        clear_screen: interactive && screen,
        width: repl_width(screen),
    };
    let mut session = Session::new(game, seats, spec, files, style, resumed);
    session.save_failures_to(failure_save);
    let mut out = io::stdout();
    let terminal = if interactive {
        Terminal::new((people <= 1).then(repl::history_path))
    } else {
        None
    };
    let result = match terminal {
        Some(mut t) => session.run(&mut t, &mut out),
        None => session.run(&mut Plain::new(io::stdin().lock()), &mut out),
    };
    match result {
        Ok(ended) => Ok(ended.failure().map_or(ExitCode::SUCCESS, |why| fail(&why))),
        Err(ReplError::Io(e)) => Err(CliError::Io(e)),
    }
}

fn json_needs_bots() -> CliError {
    usage_error(
        "play",
        ErrorKind::ArgumentConflict,
        "--json needs a bot in every seat (for example --bots random)".into(),
    )
}

/// Renders a failed rule with its source to stderr; exit status 1.
pub(super) fn runtime_failure(program: &Program, e: &RuntimeError) -> ExitCode {
    eprint_text(&render(
        &e.to_diagnostic(),
        &program.sources,
        stderr_style(),
    ));
    ExitCode::from(FAILED)
}

/// A fresh 64-bit seed: from the operating system's randomness (std seeds its hash maps from
/// it), mixed with the clock. Every one of the 2^64 seeds can come out, so a seed cannot be
/// found by trying them all from what a seat sees.
pub(super) fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    h.write_u128(nanos);
    h.write_u32(std::process::id());
    h.finish()
}
