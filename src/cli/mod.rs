//! The command line: `meeple check`, `play`, `serve`, `test`, `sim`, `fmt`, `new`, `doc` and `lsp`, parsed
//! with clap.
//!
//! Every command prints its own output and returns an exit status; usage errors are returned as
//! clap errors for `main` to print and exit with (status 2). Nothing here exits the process.

mod check;
mod check_json;
mod doc;
mod fmt;
mod golden_files;
mod help;
mod junit;
mod new;
mod play;
mod report;
mod serve;
mod sim;
mod test;

use clap::{Args, CommandFactory, Parser, Subcommand};
use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use crate::bots::BotSpec;
use crate::diag::RenderStyle;
use crate::sim::Shard;

/// Write board games as declarative `.rules` files; check them and play them.
#[derive(Debug, Parser)]
#[command(
    name = "meeple",
    version,
    propagate_version = true,
    disable_help_subcommand = true,
    after_long_help = "Guides built in: `meeple help language` is the language reference; \
                       also `sim`, `bots`, `serve`, `json`, `saves`, `testing`, `tools`, \
                       `editors`, `reliability`."
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check rules files and report every error and warning.
    ///
    /// Exits with 0 when no file has errors (warnings are allowed) and 1 otherwise.
    Check(CheckArgs),
    /// Play a game: hot seat at this terminal, with bots in some seats, or bots only.
    ///
    /// With a bot in every seat the game is played to the end and its public transcript (or,
    /// with --json, a JSON line a decision) is printed as it goes; if a rule fails, the output
    /// ends with the error and the game just before that decision is saved. Otherwise a REPL asks each seat in turn;
    /// type `help` there for its commands. Piped input is read as one command a line.
    Play(PlayArgs),
    /// Test rules files: check them, run their scenarios, play a seeded bot game for every
    /// player count (declared invariants are checked after every decision), and compare the
    /// check report and those games with the golden files kept in `snapshots/` beside the rules.
    ///
    /// A missing golden is written (outside CI; under CI, where `CI` is set, it fails); one that
    /// differs fails with a diff and its new text in `NAME.snap.new`, until `--accept` or
    /// `--review` takes it. Exits with 0 when everything passed and 1 otherwise.
    Test(TestArgs),
    /// Simulate many games by bots on every core and report their statistics.
    ///
    /// Game i of a batch uses seed S+i, so a batch is the same on any machine and for any
    /// --threads. The report (text, --json or per-game --csv) covers win rates with 95%
    /// intervals, first-seat advantage, endings, game length, scores, margins, actions taken and
    /// never taken, the options each choose, ask and secretly statement was answered with and the
    /// statements never asked, the rules that never ran, the numbers clamped to their bounds,
    /// branching, and every game in which a rule failed or a declared invariant broke (checked
    /// at every game's end, and throughout one game in a hundred) with the command to replay
    /// it. `meeple sim merge` combines --shard runs. Exits with 1 if a rule failed in any game.
    Sim(SimArgs),
    /// Lay rules files out the one canonical way (`--check`: only report files that differ).
    ///
    /// A folder means every `.rules` file under it. Comments and meaning are kept. Exits with 1
    /// if a file does not parse, or with --check if any file is not formatted.
    Fmt(fmt::FmtArgs),
    /// Start a new game: NAME.rules, a small working game to change, and a variant in NAME/.
    New(new::NewArgs),
    /// Serve the Language Server Protocol on standard input and output, for editors.
    Lsp,
    /// Open a playtest table in the browser: a private link per seat, one for onlookers.
    ///
    /// Each seat's page shows only what that seat may see, with its decisions as buttons (no
    /// JavaScript needed; with it, every page follows the game live). Bots play the seats
    /// --bots names. Runs until stopped (Ctrl-C); --save keeps the game after every decision.
    Serve(serve::ServeArgs),
    /// Draw a rulebook from the rules, for playtesters: plain text, or an HTML page with --html.
    ///
    /// Exits with 0 when the rulebook is written and 1 when the files do not check.
    Doc(doc::DocArgs),
    /// Print the help of a command (`meeple help sim merge`) or a guide built into meeple.
    ///
    /// The guides: `language` (the language reference), `sim`, `bots`, `serve`, `json`,
    /// `saves`, `testing`, `tools`, `editors`, `reliability`.
    Help(HelpArgs),
    /// Print a completion script for bash, zsh, fish, elvish or PowerShell.
    ///
    /// bash: `meeple completions bash > ~/.local/share/bash-completion/completions/meeple`;
    /// zsh: write it as `_meeple` in a folder of your `$fpath`; fish: to
    /// `~/.config/fish/completions/meeple.fish`; PowerShell: add
    /// `meeple completions powershell | Out-String | Invoke-Expression` to your profile.
    Completions(CompletionsArgs),
    /// Print the manual page of meeple, or of one command, in roff: `meeple man | man -l -`.
    Man(ManArgs),
}

/// Arguments of `meeple help`.
#[derive(Debug, Args)]
pub struct HelpArgs {
    /// A command (and its subcommand), or a guide; nothing for the list of both.
    #[arg(value_name = "TOPIC")]
    pub topic: Vec<String>,
}

/// Arguments of `meeple completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete in.
    #[arg(value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

/// Arguments of `meeple man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// A command, for its own page (`meeple-check(1)`); nothing for meeple(1).
    #[arg(value_name = "COMMAND")]
    pub command: Option<String>,
}

/// Games in a `meeple sim` batch when `--games` is not given: enough for win rates to within
/// about ±3 percentage points (95% intervals), few enough for random bots to play at once.
pub const DEFAULT_GAMES: u64 = 1000;

/// Arguments of `meeple sim`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct SimArgs {
    /// `merge`: combine shard files instead of simulating.
    #[command(subcommand)]
    pub command: Option<SimCommand>,

    /// The rules file: a game, or a variant (which names its base).
    #[arg(value_name = "FILE", required = true)]
    pub file: Option<PathBuf>,

    /// A variant file to stack on the game (repeatable, applied in order).
    #[arg(long = "variant", value_name = "V")]
    pub variants: Vec<PathBuf>,

    /// Number of players [default: the fewest the game allows].
    #[arg(long, short = 'p', value_name = "N",
          value_parser = clap::value_parser!(u8).range(1..))]
    pub players: Option<u8>,

    /// Number of games in the batch (all shards together), at most 1,000,000. A thousand games
    /// of random bots take a fraction of a second; of searching bots, far longer (the progress
    /// bar says how long).
    #[arg(long, short = 'g', value_name = "G", default_value_t = DEFAULT_GAMES,
          value_parser = parse_games)]
    pub games: u64,

    /// Bots by seat: `random`, `greedy` (tries each option one move ahead, scored by the rules'
    /// `score`, or their `goal`) or `mcts:N` (a search bot, N iterations a decision; `mcts` is 1000;
    /// `mcts:N:depth=D` imagines D decisions ahead, then scores the position, 30 unless given;
    /// `depth=end` plays each imagined game to its end; `mcts:N:worlds=W` searches W worlds a
    /// decision drawn from what the seat saw, 16 unless given) for every seat, or
    /// `1=mcts:500,2=random,...` (seats count from 1; seats not named are played by random
    /// bots) [default: random].
    #[arg(long, value_name = "SPEC", value_parser = parse_bots)]
    pub bots: Option<BotSpec>,

    /// Seed of game 0; game i uses seed S+i.
    #[arg(long, short = 's', value_name = "S", default_value_t = 1)]
    pub seed: u64,

    /// Worker threads [default: one a core]. The report is the same for any number.
    #[arg(long, short = 't', value_name = "T",
          value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub threads: Option<u64>,

    /// Print the report as one JSON document (schema `meeple-sim/1`, see `meeple help sim`).
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,

    /// Print one CSV row a game (seed, decisions, winners, scores, reason, failure) instead.
    #[arg(long)]
    pub csv: bool,

    /// Play only shard K of N: the games whose index i has i % N = K-1 (K counts from 1).
    /// With --json the document keeps the per-game records that `meeple sim merge` needs.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,

    /// Stop a game that has taken N decisions: its next decision fails with `decision-limit`
    /// and the report lists it with the command that replays it. For a game that may not end,
    /// so that search bots do not think through 100,000 decisions first.
    #[arg(long, value_name = "N", default_value_t = crate::sim::report::default_max_decisions(),
          value_parser = clap::value_parser!(u64).range(1..=crate::sim::MAX_DECISIONS))]
    pub max_decisions: u64,

    /// `--against`, `--against-variant` and `--html` (defined beside `meeple sim`).
    #[command(flatten)]
    pub more: sim::MoreSimArgs,
}

/// The subcommands of `meeple sim`.
#[derive(Debug, Subcommand)]
pub enum SimCommand {
    /// Combine the --json files of `meeple sim --shard K/N` runs (every K from 1 to N) into the
    /// report one run of the whole batch prints.
    Merge(MergeArgs),
}

/// Arguments of `meeple sim merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Shard files written by `meeple sim ... --shard K/N --json`: all of one batch, or all of
    /// one comparison (`--against B`), whose merge prints the comparison.
    #[arg(value_name = "SHARD.json", required = true)]
    pub files: Vec<PathBuf>,

    /// Print the merged report as one JSON document (as `meeple sim --json`).
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,

    /// Print one CSV row a game of every shard, in game order.
    #[arg(long)]
    pub csv: bool,
}

/// Arguments of `meeple test`.
#[derive(Debug, Args)]
pub struct TestArgs {
    /// Rules files to test (games or variants), or folders: every `.rules` file under them.
    /// Scenarios belong to the file they are written in.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,

    /// A variant file to stack on every file tested (repeatable).
    #[arg(long = "variant", value_name = "FILE")]
    pub variants: Vec<PathBuf>,

    /// Seed of the bot games.
    #[arg(long, short = 's', value_name = "S", default_value_t = 1)]
    pub seed: u64,

    /// Take every new or changed golden file as it now is (and delete goldens no longer made).
    #[arg(long, conflicts_with_all = ["review", "no_snapshots"])]
    pub accept: bool,

    /// Show each changed golden's diff and ask whether to accept it.
    #[arg(long, conflicts_with = "no_snapshots")]
    pub review: bool,

    /// Do not compare with golden files, nor write them.
    #[arg(long)]
    pub no_snapshots: bool,

    /// Also write every test's outcome to FILE as a JUnit XML report (one suite a rules file,
    /// one case a check, scenario, bot game and golden file), for CI services to show.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
}

/// Arguments of `meeple check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Rules files to check (games or variants).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,

    /// Print one JSON document instead of drawn diagnostics: every file with its errors and
    /// warnings (code, severity, message, help, line and column); schema `meeple-check/1`, see
    /// `meeple help json`. The exit status is the same.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `meeple play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The rules file: a game, or a variant (which names its base).
    #[arg(value_name = "FILE", required_unless_present = "load")]
    pub file: Option<PathBuf>,

    /// Number of players [default: the game's minimum].
    #[arg(long, short = 'p', value_name = "N", value_parser = clap::value_parser!(u8).range(1..))]
    pub players: Option<u8>,

    /// Seed of the game's randomness [default: a random 64-bit seed, told when the game is over
    /// so that it can be replayed, or at once when bots play every seat].
    #[arg(long, short = 's', value_name = "S")]
    pub seed: Option<u64>,

    /// A variant file to stack on the game (repeatable, applied in order).
    #[arg(long = "variant", value_name = "FILE")]
    pub variants: Vec<PathBuf>,

    /// Seats played by bots: `random`, `greedy` (tries each option one move ahead, scored by the
    /// rules' `score`, or their `goal`) or `mcts:N` (a search bot, N iterations a decision; `mcts` is 1000;
    /// `mcts:N:depth=D` imagines D decisions ahead, then scores the position, 30 unless given;
    /// `depth=end` plays each imagined game to its end; `mcts:N:worlds=W` searches W worlds a
    /// decision drawn from what the seat saw, 16 unless given) for every seat, or
    /// `2=mcts:500,4=random` (seats count from 1).
    #[arg(long, value_name = "SPEC", value_parser = parse_bots)]
    pub bots: Option<BotSpec>,

    /// Print the game as a stream of JSON lines, one a decision (schema `meeple-game/3`, see
    /// `meeple help json`; every seat must be a bot).
    #[arg(long)]
    pub json: bool,

    /// Resume a game saved with `save FILE` in the REPL, a failure save, or a `--json` stream
    /// (its rules, variants, players, seed and bots; `--bots` replaces the bots, `--bots none`
    /// leaves every seat to people).
    #[arg(long, value_name = "SAVE", conflicts_with_all = ["file", "players", "seed", "variants"])]
    pub load: Option<PathBuf>,

    /// Where to save the game just before a decision whose rules fail [default:
    /// meeple-failure-SEED.json in the working folder, when bots play every seat].
    #[arg(long, value_name = "PATH")]
    pub save_on_failure: Option<PathBuf>,

    /// Stop the game once it has taken N decisions: the next fails with `decision-limit`.
    /// Also with --load (a save does not keep the limit).
    #[arg(long, value_name = "N", default_value_t = crate::sim::report::default_max_decisions(),
          value_parser = clap::value_parser!(u64).range(1..=crate::sim::MAX_DECISIONS))]
    pub max_decisions: u64,
}

/// `--games`: a whole number from 1 to [`crate::sim::MAX_GAMES`], refused with the reason past it.
fn parse_games(s: &str) -> Result<u64, String> {
    let max = crate::sim::MAX_GAMES;
    let n: u64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a whole number of games"))?;
    if n == 0 {
        return Err("a batch needs at least 1 game".into());
    }
    if n > max {
        return Err(format!(
            "{n} games is more than one batch plays ({max}): each game's record is kept for \
             the report. A thousand games give win rates to about ±3 points, a million to ±0.1"
        ));
    }
    Ok(n)
}

fn parse_bots(s: &str) -> Result<BotSpec, String> {
    BotSpec::parse(s).map_err(|e| e.to_string())
}

/// Why a command stopped without an exit status of its own.
#[derive(Debug)]
enum CliError {
    /// Bad usage, to be reported by clap (exit status 2).
    Usage(Box<clap::Error>),
    /// Writing output or reading input failed.
    Io(io::Error),
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> CliError {
        CliError::Io(e)
    }
}

/// Parses `args` (the program name first) and runs the command. Returns the exit status, or a
/// usage error (including `--help` and `--version`) for the caller to print and exit with.
pub fn run<I, T>(args: I) -> Result<ExitCode, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = Cli::try_parse_from(args)?;
    let result = match cli.command {
        Command::Check(a) => check::run(&a),
        Command::Play(a) => play::run(&a),
        Command::Test(a) => test::run(&a),
        Command::Sim(a) => sim::run(&a),
        Command::Fmt(a) => fmt::run(&a),
        Command::New(a) => new::run(&a),
        Command::Lsp => crate::lsp::run().map_err(CliError::Io),
        Command::Doc(a) => doc::run(&a),
        Command::Serve(a) => serve::run(&a),
        Command::Help(a) => help::help(&a.topic),
        Command::Completions(a) => help::completions(a.shell),
        Command::Man(a) => help::man(a.command.as_deref()),
    };
    match result {
        Ok(code) => Ok(code),
        Err(CliError::Usage(e)) => Err(*e),
        // The reader went away (`meeple ... | head`): stop quietly.
        Err(CliError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(CliError::Io(e)) => {
            let _ = writeln!(io::stderr(), "meeple: {e}");
            Ok(ExitCode::FAILURE)
        }
    }
}

/// The bots of a game: those given on the command line, else those of the save resumed, else
/// none; checked against the player count. An error is the command's outcome.
fn bots_for(
    subcommand: &str,
    given: Option<&BotSpec>,
    save: Option<&crate::save::SaveFile>,
    players: u8,
) -> Result<BotSpec, Result<std::process::ExitCode, CliError>> {
    let spec = match (given, save.and_then(|s| s.bots.as_deref())) {
        (Some(spec), _) => spec.clone(),
        (None, Some(saved)) => match BotSpec::parse(saved) {
            Ok(spec) => spec,
            Err(e) => return Err(Ok(fail(&format!("cannot resume: the save's bots: {e}")))),
        },
        (None, None) => BotSpec::default(),
    };
    if let Err(e) = spec.check_seats(players) {
        return Err(Err(usage_error(
            subcommand,
            clap::error::ErrorKind::ValueValidation,
            e.to_string(),
        )));
    }
    Ok(spec)
}

/// A usage error of a subcommand, reported like clap's own (exit status 2).
fn usage_error(subcommand: &str, kind: clap::error::ErrorKind, message: String) -> CliError {
    let mut cmd = Cli::command();
    cmd.build();
    let err = match cmd.find_subcommand_mut(subcommand) {
        Some(sub) => sub.error(kind, message),
        None => cmd.error(kind, message),
    };
    CliError::Usage(Box::new(err))
}

/// True when `NO_COLOR` asks for no colour: set to anything but the empty string (no-color.org:
/// an empty `NO_COLOR=` is as if it were unset), everywhere meeple colours anything.
fn no_color() -> bool {
    asks_no_color(std::env::var_os("NO_COLOR"))
}

/// Whether a value of `NO_COLOR` (`None`: unset) asks for no colour.
fn asks_no_color(value: Option<OsString>) -> bool {
    value.is_some_and(|v| !v.is_empty())
}

/// How to render diagnostics on a stream: colour only on a terminal and without `NO_COLOR`;
/// at a terminal, as wide as `COLUMNS` says, else as the terminal is (`terminal`, its width
/// when the stream is one), so that no word is cut across rows.
fn render_style(terminal: Option<Option<u16>>) -> RenderStyle {
    let Some(measured) = terminal else {
        return RenderStyle::plain();
    };
    let width = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse().ok())
        .or(measured.map(usize::from))
        .filter(|w| *w >= 40)
        .unwrap_or(80);
    RenderStyle {
        color: !no_color(),
        width,
    }
}

/// A text report for stdout, its lines wrapped at the terminal's width when stdout is one (no
/// word cut across rows), whole for a pipe or a file.
fn fitted(text: &str) -> String {
    let width = if io::stdout().is_terminal() {
        crate::repl::Width::Terminal
    } else {
        crate::repl::Width::Unbounded
    };
    crate::repl::fit(text, width)
}

/// The style for stdout.
fn stdout_style() -> RenderStyle {
    let out = io::stdout();
    render_style(
        out.is_terminal()
            .then(|| terminal_size::terminal_size_of(&out).map(|(w, _)| w.0)),
    )
}

/// The style for stderr.
fn stderr_style() -> RenderStyle {
    let err = io::stderr();
    render_style(
        err.is_terminal()
            .then(|| terminal_size::terminal_size_of(&err).map(|(w, _)| w.0)),
    )
}

/// Loads a rules file with its variants, printing its errors and warnings to stderr; the
/// program, or `None` if it does not check.
fn load_reporting(file: &std::path::Path, variants: &[PathBuf]) -> Option<crate::ir::Program> {
    reporting(crate::load::load(file, variants))
}

/// The rules of a game to play: those of `save` when one is resumed (the files it names, or the
/// texts it carries when those are gone or changed, said on stderr), else `rules` with
/// `variants`; errors and warnings printed to stderr. The program, or `None` if they do not
/// check.
fn load_game_reporting(
    save: Option<&crate::save::SaveFile>,
    rules: &str,
    variants: &[String],
) -> Option<crate::ir::Program> {
    let Some(save) = save else {
        let variants: Vec<PathBuf> = variants.iter().map(PathBuf::from).collect();
        return load_reporting(std::path::Path::new(rules), &variants);
    };
    let (loaded, from) = save.load_rules();
    if let crate::save::RulesFrom::Saved(why) = from {
        eprint_text(&format!(
            "meeple: {why}; the game goes on under the rules saved with it (`reload` at the \
             REPL reads the files as they are now)\n"
        ));
    }
    reporting(loaded)
}

/// Prints a load's errors and warnings to stderr; the program, or `None` if it does not check.
fn reporting(loaded: crate::load::Loaded) -> Option<crate::ir::Program> {
    if !loaded.diagnostics.0.is_empty() {
        eprint_text(&crate::diag::render_all(
            &loaded.diagnostics,
            &loaded.sources,
            stderr_style(),
        ));
    }
    loaded.program
}

/// Prints `message` to stderr; exit status 1.
fn fail(message: &str) -> ExitCode {
    // A message may carry the rules' text (a title, a seat's name): shown as text.
    eprint_text(&format!("meeple: {}\n", crate::printable::escape(message)));
    ExitCode::from(1)
}

/// Writes to stderr, ignoring failures (there is nowhere else to report them).
fn eprint_text(text: &str) {
    let _ = io::stderr().lock().write_all(text.as_bytes());
}

/// `1 error`, `3 errors`.
fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_no_color_is_as_if_unset() {
        assert!(!asks_no_color(None));
        assert!(!asks_no_color(Some(OsString::new())));
        assert!(asks_no_color(Some(OsString::from("1"))));
    }
}
