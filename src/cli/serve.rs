//! `meeple serve`: start (or resume) a game and open a table in the browser, printing one
//! private link per seat and one for onlookers.

use super::{eprint_text, fail, load_game_reporting, usage_error, CliError};
use crate::bots::BotSpec;
use crate::engine::GameSettings;
use crate::ir::Program;
use crate::save::{SaveError, SaveFile};
use crate::serve::{Server, Table, TableConfig, Who};
use clap::error::ErrorKind;
use clap::Args;
use std::fmt::Write as _;
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// Arguments of `meeple serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The rules file: a game, or a variant (which names its base).
    #[arg(value_name = "FILE", required_unless_present_any = ["load", "replay"])]
    pub file: Option<PathBuf>,

    /// A variant file to stack on the game (repeatable, applied in order).
    #[arg(long = "variant", value_name = "FILE")]
    pub variants: Vec<PathBuf>,

    /// Number of players [default: the game's minimum].
    #[arg(long, short = 'p', value_name = "N", value_parser = clap::value_parser!(u8).range(1..))]
    pub players: Option<u8>,

    /// Seed of the game's randomness [default: a random 64-bit seed, never shown to the seats].
    #[arg(long, short = 's', value_name = "S")]
    pub seed: Option<u64>,

    /// Seats played by bots, as `meeple play --bots` takes them (`2=mcts:500,3=random`).
    #[arg(long, value_name = "SPEC", value_parser = super::parse_bots)]
    pub bots: Option<BotSpec>,

    /// The port to listen on [default: 0, any free port; the links say which].
    #[arg(long, value_name = "P", default_value_t = 0)]
    pub port: u16,

    /// The address to listen on. The default, 127.0.0.1, takes only this machine's browsers;
    /// `0.0.0.0` takes any that can reach it, over plain HTTP: a link is its seat's only key,
    /// so give each one only to its player.
    #[arg(long, value_name = "ADDR", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub host: IpAddr,

    /// Save the game to FILE after every decision (replacing it whole each time); `meeple play
    /// --load FILE` or `meeple serve --load FILE` resumes it.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,

    /// Resume a saved game (from the REPL's `save`, `serve --save` or a failure save).
    #[arg(long, value_name = "SAVE", conflicts_with_all = ["file", "players", "seed", "variants", "replay"])]
    pub load: Option<PathBuf>,

    /// Step through a saved game (a save, a failure save of `meeple sim` or `play`, a `--json`
    /// stream) decision by decision, as any seat, the onlookers or the referee saw it: one link,
    /// for whoever holds the save. Nothing is played.
    #[arg(long, value_name = "SAVE", conflicts_with_all = ["file", "players", "seed", "variants", "bots", "save"])]
    pub replay: Option<PathBuf>,
}

/// Starts the table (or a replay) and serves it until the process is stopped.
pub(super) fn run(args: &ServeArgs) -> Result<ExitCode, CliError> {
    let save = match args.load.as_ref().or(args.replay.as_ref()) {
        Some(path) => match SaveFile::read(path) {
            Ok(s) => Some(s),
            Err(e) => return Ok(fail(&format!("cannot resume: {e}"))),
        },
        None => None,
    };
    let (rules, variants) = match (&save, &args.file) {
        (Some(s), _) => (s.rules.clone(), s.variants.clone()),
        (None, Some(file)) => (
            file.display().to_string(),
            args.variants
                .iter()
                .map(|v| v.display().to_string())
                .collect(),
        ),
        (None, None) => {
            return Err(usage_error(
                "serve",
                ErrorKind::MissingRequiredArgument,
                "a rules FILE (or --load SAVE, or --replay SAVE) is required".into(),
            ))
        }
    };
    let Some(program) = load_game_reporting(save.as_ref(), &rules, &variants) else {
        return Ok(fail(&format!(
            "{rules}: the rules have errors; fix them and try again"
        )));
    };
    let program = Arc::new(program);
    let players = match (&save, args.players) {
        (Some(s), _) => s.players,
        (None, Some(n)) => n,
        (None, None) => program.min_players,
    };
    if !(program.min_players..=program.max_players).contains(&players) {
        let message = format!(
            "{} is for {} players, not {players}",
            program.title,
            program.player_counts()
        );
        return Err(usage_error("serve", ErrorKind::ValueValidation, message));
    }
    let spec = match super::bots_for("serve", args.bots.as_ref(), save.as_ref(), players) {
        Ok(spec) => spec,
        Err(outcome) => return outcome,
    };
    let seed = save
        .as_ref()
        .map(|s| s.seed)
        .or(args.seed)
        .unwrap_or_else(super::play::fresh_seed);
    let started = match &save {
        Some(s) => s.restore(program.clone(), &mut |_, _| {}),
        None => GameSettings::new(players, seed)
            .start(program.clone())
            .map_err(SaveError::Start),
    };
    let game = match started {
        Ok(g) => g,
        Err(SaveError::Start(e)) => return Ok(super::play::runtime_failure(&program, &e)),
        Err(e) => return Ok(fail(&format!("cannot resume: {e}"))),
    };
    let table = Table::new(TableConfig {
        game,
        rules,
        variants,
        bots: spec.clone(),
        save: args.save.clone(),
        host: Arc::new(|note: &str| {
            eprint_text(&format!(
                "meeple serve: {}\n",
                crate::printable::escape_source(note)
            ))
        }),
        replay: args.replay.is_some(),
    })?;
    let server = match Server::start(table, SocketAddr::new(args.host, args.port)) {
        Ok(s) => s,
        Err(e) => {
            return Ok(fail(&format!(
                "cannot listen on {}:{}: {e} (try another --port)",
                args.host, args.port
            )))
        }
    };
    // Written whole, and a closed stdout does not stop the table: the links are told once.
    tell(&links(args, &program, players, &spec, &server));
    server.wait();
    Ok(ExitCode::SUCCESS)
}

/// What the host is told once the table listens: for a replay, its link; for a game, each
/// seat's link (or its bot), the onlookers', and how the game is kept.
fn links(
    args: &ServeArgs,
    program: &Program,
    players: u8,
    spec: &BotSpec,
    server: &Server,
) -> String {
    let mut out = String::new();
    let title = crate::printable::escape(&program.title);
    if args.replay.is_some() {
        let _ = writeln!(
            out,
            "{} (a replay) at http://{}; step through it here:\n  replay  {}/step?n=0&view=referee\nCtrl-C stops it.",
            title,
            server.addr(),
            server.link(Who::Onlooker)
        );
        return out;
    }
    let _ = writeln!(
        out,
        "{} for {players} at http://{} — give each player only their own link:",
        title,
        server.addr()
    );
    for p in 0..players {
        let seat = program.seat_name(p);
        let name = crate::printable::escape(&seat);
        match spec.for_seat(p) {
            Some(kind) => {
                let _ = writeln!(out, "  {name}  (played by {})", kind.name());
            }
            None => {
                let _ = writeln!(out, "  {name}  {}", server.link(Who::Seat(p)));
            }
        }
    }
    let _ = writeln!(out, "  onlookers  {}", server.link(Who::Onlooker));
    if !args.host.is_loopback() {
        let _ = writeln!(
            out,
            "Listening on {} over plain HTTP: anyone who has a link can play that seat.",
            args.host
        );
    }
    match &args.save {
        Some(path) => {
            let _ = writeln!(
                out,
                "The game is saved to {} after every decision. Ctrl-C stops the table.",
                path.display()
            );
        }
        None => {
            let _ = writeln!(
                out,
                "Ctrl-C stops the table (and the game: add --save FILE to keep it)."
            );
        }
    }
    out
}

/// Prints `text` on stdout, come what may: the table runs on if nobody reads it.
fn tell(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}
