//! `meeple play`: load and check the rules, start (or resume) the game, then either let bots
//! play every seat and print the transcript or JSON, or hand the game to the REPL.

use super::report::{Failure, Stream, Table};
use super::{
    eprint_text, fail, load_game_reporting, stderr_style, usage_error, CliError, PlayArgs,
};
use crate::bots::{ask_bot, BotSpec};
use crate::diag::render;
use crate::engine::GameSettings;
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

/// What a subcommand returns early with: a usage error, or the exit status of a failure
/// already reported.
type Outcome = Result<ExitCode, CliError>;

/// Plays a game as the arguments say.
pub(super) fn run(args: &PlayArgs) -> Outcome {
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
    let files = play_files(args, save.as_ref())?;
    let Some(program) = load_game_reporting(save.as_ref(), &files.rules, &files.variants) else {
        return Ok(rules_have_errors(&files, save.is_some()));
    };
    let program = Arc::new(program);
    let players = match players_of(args, save.as_ref(), &program) {
        Ok(n) => n,
        Err(outcome) => return outcome,
    };
    let spec = match super::bots_for("play", args.bots.as_ref(), save.as_ref(), players) {
        Ok(spec) => spec,
        Err(outcome) => return outcome,
    };
    let all_bots = spec.covers_all(players);
    if args.json && !all_bots {
        return Err(json_needs_bots());
    }
    let seed = seed_of(args, save.as_ref(), all_bots);
    let settings = GameSettings::new(players, seed).max_decisions(args.max_decisions);
    let table = Table {
        program: &program,
        players,
        seed,
        rules: &files.rules,
        variant_files: &files.variants,
        bots: spec.render(),
    };
    let mut stream = Stream::new(args.json);
    let (game, seats) = match start(
        &program,
        &table,
        &settings,
        save.as_ref(),
        &spec,
        &mut stream,
    ) {
        Ok(started) => started,
        Err(outcome) => return outcome,
    };
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
    stream.flush_to(&mut io::stdout().lock())?;
    let Some(bots) = seats.into_all() else {
        return Ok(fail("a seat has no bot"));
    };
    let failure_path = args
        .save_on_failure
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("meeple-failure-{seed}.json")));
    let at = BotTable {
        files: &files,
        spec: &spec,
        failure_path: &failure_path,
        json: args.json,
    };
    play_bots(game, bots, stream, &at)
}

/// The rules file and variants to play: a save's, or the arguments'.
fn play_files(args: &PlayArgs, save: Option<&SaveFile>) -> Result<Files, CliError> {
    match (save, &args.file) {
        (Some(s), _) => Ok(Files {
            rules: s.rules.clone(),
            variants: s.variants.clone(),
        }),
        (None, Some(file)) => Ok(Files {
            rules: file.display().to_string(),
            variants: args
                .variants
                .iter()
                .map(|v| v.display().to_string())
                .collect(),
        }),
        (None, None) => Err(usage_error(
            "play",
            ErrorKind::MissingRequiredArgument,
            "a rules FILE (or --load SAVE) is required".into(),
        )),
    }
}

/// The failure of rules that do not check (their diagnostics already shown).
fn rules_have_errors(files: &Files, resuming: bool) -> ExitCode {
    let mut message = format!(
        "{}: the rules have errors; fix them and try again",
        files.rules
    );
    if resuming && !Path::new(&files.rules).exists() {
        message.push_str(
            "\n(a save names its rules relative to its own folder; a --json stream, or a save in format 1, relative to the folder the game was played in)",
        );
    }
    fail(&message)
}

/// The number of players: a save's, `--players`, or the game's fewest; refused outside the
/// game's counts.
fn players_of(args: &PlayArgs, save: Option<&SaveFile>, program: &Program) -> Result<u8, Outcome> {
    let (min, max) = (program.min_players, program.max_players);
    let players = match (save, args.players) {
        (Some(s), _) => s.players,
        (None, Some(n)) => n,
        (None, None) => min,
    };
    if (min..=max).contains(&players) {
        return Ok(players);
    }
    let message = format!(
        "{} is for {} players, not {players}",
        program.title,
        program.player_counts()
    );
    if save.is_some() {
        return Err(Ok(fail(&format!("cannot resume: {message}"))));
    }
    Err(Err(usage_error(
        "play",
        ErrorKind::ValueValidation,
        message,
    )))
}

/// The seed: a save's, `--seed`, or a fresh one, told on stderr when bots play every seat.
fn seed_of(args: &PlayArgs, save: Option<&SaveFile>, all_bots: bool) -> u64 {
    match (save, args.seed) {
        (Some(s), _) => s.seed,
        (None, Some(s)) => s,
        (None, None) => {
            let s = fresh_seed();
            // At a table with people the seed would tell them every hidden card: the REPL
            // shows it when the game is over.
            if all_bots {
                eprint_text(&format!(
                    "meeple: no --seed given; random seed {s} (replay with --seed {s})\n"
                ));
            }
            s
        }
    }
}

/// Starts the game of `program` with `settings`, or resumes `save`: the game, with its seats in step. With
/// bots in every seat the stream has the record so far; a game that cannot be set up is
/// reported (in the stream too) and ends the command.
fn start(
    program: &Arc<Program>,
    table: &Table<'_>,
    settings: &GameSettings,
    save: Option<&SaveFile>,
    spec: &BotSpec,
    stream: &mut Stream,
) -> Result<(Game, Seats), Outcome> {
    let all_bots = spec.covers_all(settings.players);
    let mut seats = Seats::new(spec, settings.seed, settings.players);
    // With bots in every seat, the record so far is written as the save is replayed (kept
    // back until the replay has checked out).
    let mut started_stream = false;
    let started = match save {
        Some(s) => s.restore(program.clone(), &mut |g, r| {
            if all_bots {
                if started_stream {
                    stream.decision(g);
                } else {
                    stream.header(g, table.rules, table.variant_files, spec.render());
                    started_stream = true;
                }
            }
            seats.keep_in_step(g, r)
        }),
        None => settings.start(program.clone()).map_err(SaveError::Start),
    };
    let mut game = match started {
        Ok(g) => g,
        Err(SaveError::Start(e)) => {
            if all_bots {
                // the record of a game that could not be set up: its header and the error
                stream.header_before_setup(table);
                let nothing = Failure {
                    seat: None,
                    choice: None,
                    save: None,
                };
                stream.failure(program, &e, &nothing);
                if let Err(io) = stream.flush_to(&mut io::stdout().lock()) {
                    return Err(Err(io.into()));
                }
            }
            return Err(Ok(runtime_failure(program, &e)));
        }
        Err(e) => return Err(Ok(fail(&format!("cannot resume: {e}")))),
    };
    // A save keeps no limit: the resumed game takes this one from where its record ends.
    game.set_max_decisions(settings.limits.decisions);
    if all_bots {
        if started_stream {
            stream.decision(&game);
        } else {
            stream.header(&game, table.rules, table.variant_files, spec.render());
        }
    }
    Ok((game, seats))
}

/// What a game played by bots in every seat needs besides the game.
struct BotTable<'a> {
    files: &'a Files,
    spec: &'a BotSpec,
    /// Where the game is saved if a rule fails.
    failure_path: &'a Path,
    json: bool,
}

/// Plays the game to its end by `bots`, streaming each decision: a failing rule is reported,
/// and the game just before it saved.
fn play_bots(
    mut game: Game,
    mut bots: Vec<Box<dyn crate::bots::Bot>>,
    mut stream: Stream,
    at: &BotTable<'_>,
) -> Outcome {
    let mut out = io::stdout().lock();
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
                let choice = (at.json || !secret).then_some(label.as_str());
                stream.flush_to(&mut out)?;
                drop(out);
                return bot_move_failed(&game, seat, choice, &e, stream, at);
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

/// Reports a rule that failed in `seat`'s move (`choice`, where it may be shown), in the
/// stream and on stderr, and saves the game just before it.
fn bot_move_failed(
    game: &Game,
    seat: u8,
    choice: Option<&str>,
    e: &RuntimeError,
    mut stream: Stream,
    at: &BotTable<'_>,
) -> Outcome {
    let program = game.program();
    let saved = save_failure(game, at.files, at.spec, at.failure_path);
    let shown = match &saved {
        Ok(()) => Some(at.failure_path.display().to_string()),
        Err(_) => None,
    };
    let failure = Failure {
        seat: Some(seat),
        choice,
        save: shown.as_deref(),
    };
    stream.failure(program, e, &failure);
    stream.flush_to(&mut io::stdout().lock())?;
    let code = runtime_failure(program, e);
    match saved {
        Ok(()) => eprint_text(&format!(
            "meeple: the game just before decision {} is saved in `{}`; `meeple play --load {}` reopens it\n",
            game.history().len() + 1,
            at.failure_path.display(),
            at.failure_path.display()
        )),
        Err(err) => eprint_text(&format!("meeple: the game was not saved: {err}\n")),
    }
    Ok(code)
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
