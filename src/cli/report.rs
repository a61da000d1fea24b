//! The record `meeple play` prints when bots play every seat, written decision by decision so
//! that a failing rule keeps everything before it: the public transcript (text), or the JSON
//! Lines stream of schema `meeple-game/3` (docs/json.md). Only the onlooker's log and view are
//! shown; the JSON also names every decision, as `--load` needs to replay it.

use crate::diag::{SourceMap, Span};
use crate::engine::{Game, LogCursor, RuntimeError, Viewer};
use crate::ir::Program;
use crate::printable::{escape, escape_json};
use crate::save::TRANSCRIPT_SCHEMA;
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::io::{self, Write};

/// The stream being written: what the onlooker has been shown so far.
pub(super) struct Stream {
    json: bool,
    shown: LogCursor,
    buffer: Vec<u8>,
}

#[derive(serde::Serialize)]
struct Header<'a> {
    event: &'static str,
    schema: &'static str,
    meeple: &'static str,
    game: &'a str,
    rules: &'a str,
    variant_files: &'a [String],
    variants: &'a [String],
    players: u8,
    seed: u64,
    bots: String,
    log: &'a [String],
}

#[derive(serde::Serialize)]
struct DecisionEvent<'a> {
    event: &'static str,
    number: usize,
    player: String,
    choice: &'a str,
    log: &'a [String],
}

#[derive(serde::Serialize)]
struct OutcomeEvent {
    event: &'static str,
    decisions: usize,
    winners: Vec<String>,
    scores: SeatScores,
    reason: Option<String>,
}

#[derive(serde::Serialize)]
struct ErrorEvent<'a> {
    event: &'static str,
    decision: Option<usize>,
    player: Option<String>,
    choice: Option<&'a str>,
    code: &'a str,
    message: &'a str,
    help: &'a str,
    rule: Rule,
    save: Option<&'a str>,
}

/// Where a rule is: its file, line and column, and the line of source.
#[derive(serde::Serialize)]
pub(super) struct Rule {
    file: String,
    line: usize,
    column: usize,
    source: String,
}

impl Rule {
    /// The rule a span points into.
    pub(super) fn at(sources: &SourceMap, span: Span) -> Rule {
        let file = sources.file(span.file);
        let (line, column) = sources.line_col(span);
        let source = file
            .text
            .lines()
            .nth(line.saturating_sub(1))
            .unwrap_or("")
            .trim()
            .to_string();
        Rule {
            file: file.name.clone(),
            line,
            column,
            source,
        }
    }
}

/// Scores by seat name, in seat order.
struct SeatScores(Vec<(String, i64)>);

impl Serialize for SeatScores {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// The game at the table, as the header names it.
pub(super) struct Table<'a> {
    /// The rules.
    pub program: &'a Program,
    /// Seats.
    pub players: u8,
    /// The seed.
    pub seed: u64,
    /// The rules file as given.
    pub rules: &'a str,
    /// The variant files as given.
    pub variant_files: &'a [String],
    /// The bots, as `--bots` takes them.
    pub bots: String,
}

/// What the stream says about a failed rule, beyond the error itself.
pub(super) struct Failure<'a> {
    /// The seat whose decision failed, and its move (`None` if it was a secret choice and the
    /// stream is text, or the rules failed before the first decision).
    pub seat: Option<u8>,
    /// The move, if it may be shown.
    pub choice: Option<&'a str>,
    /// Where the game just before the failing decision was saved.
    pub save: Option<&'a str>,
}

impl Stream {
    /// A stream in JSON Lines or text.
    pub(super) fn new(json: bool) -> Stream {
        Stream {
            json,
            shown: LogCursor::default(),
            buffer: Vec::new(),
        }
    }

    /// The first line(s): the game, its files, seed and bots, and the log of its setup.
    pub(super) fn header(
        &mut self,
        game: &Game,
        rules: &str,
        variant_files: &[String],
        bots: String,
    ) {
        let log = self.fresh_log(game);
        let table = Table {
            program: game.program(),
            players: game.players(),
            seed: game.seed(),
            rules,
            variant_files,
            bots,
        };
        self.header_of(&table, &log);
    }

    /// The header of a game whose setup failed: there is no log.
    pub(super) fn header_before_setup(&mut self, table: &Table) {
        self.header_of(table, &[]);
    }

    fn header_of(&mut self, table: &Table, log: &[String]) {
        let program = table.program;
        let (rules, variant_files) = (table.rules, table.variant_files);
        if self.json {
            let header = Header {
                event: "game",
                schema: TRANSCRIPT_SCHEMA,
                meeple: env!("CARGO_PKG_VERSION"),
                game: &program.title,
                rules,
                variant_files,
                variants: &program.variants,
                players: table.players,
                seed: table.seed,
                bots: table.bots.clone(),
                log,
            };
            self.json_line(&header);
        } else {
            let variants = if program.variants.is_empty() {
                String::new()
            } else {
                format!(" with {}", program.variants.join(", "))
            };
            self.text(&format!(
                "{}{variants} · {} players · seed {}\n\n",
                program.title, table.players, table.seed
            ));
            self.lines(log);
        }
    }

    /// The decision just taken in `game`, with the log lines it wrote.
    pub(super) fn decision(&mut self, game: &Game) {
        let log = self.fresh_log(game);
        if self.json {
            let Some(record) = game.history().last() else {
                return;
            };
            let event = DecisionEvent {
                event: "decision",
                number: game.history().len(),
                player: game.seat_name(record.player),
                choice: &record.choice,
                log: &log,
            };
            self.json_line(&event);
        } else {
            self.lines(&log);
        }
    }

    /// The end: the final view (text) or the outcome.
    pub(super) fn finish(&mut self, game: &Game) {
        if self.json {
            let outcome = game.outcome();
            let event = OutcomeEvent {
                event: "outcome",
                decisions: game.history().len(),
                winners: outcome
                    .map(|o| o.winners.iter().map(|p| game.seat_name(*p)).collect())
                    .unwrap_or_default(),
                scores: SeatScores(
                    outcome
                        .map(|o| {
                            o.scores
                                .iter()
                                .enumerate()
                                .map(|(p, s)| (game.seat_name(p as u8), *s))
                                .collect()
                        })
                        .unwrap_or_default(),
                ),
                reason: outcome.and_then(|o| o.reason.clone()),
            };
            self.json_line(&event);
        } else {
            self.text("\n");
            self.text(&game.view(Viewer::Spectator));
        }
    }

    /// The last line(s) when a rule failed: the error, where, and the save.
    pub(super) fn failure(&mut self, program: &Program, e: &RuntimeError, f: &Failure) {
        let rule = Rule::at(&program.sources, e.span);
        let player = f.seat.map(|s| program.seat_name(s));
        if self.json {
            let event = ErrorEvent {
                event: "error",
                decision: e.decision,
                player,
                choice: f.choice,
                code: e.code,
                message: &e.message,
                help: &e.help,
                rule,
                save: f.save,
            };
            self.json_line(&event);
            return;
        }
        let when = match (e.decision, &player, f.choice) {
            (Some(n), Some(p), Some(c)) => format!("in decision {n} ({p}: {c})"),
            (Some(n), Some(p), None) => format!("in decision {n} ({p}'s secret choice)"),
            (Some(n), None, _) => format!("in decision {n}"),
            (None, ..) => "before the first decision".to_string(),
        };
        let mut text = format!(
            "\nA rule failed {when}: {}: {}\n  at {}:{}:{}: {}\n",
            e.code, e.message, rule.file, rule.line, rule.column, rule.source
        );
        if let (Some(save), Some(n)) = (f.save, e.decision) {
            text.push_str(&format!(
                "The game just before decision {n} is saved in `{save}` (`meeple play --load {save}` reopens it).\n"
            ));
        }
        self.text(&text);
    }

    /// Writes what is buffered and flushes.
    pub(super) fn flush_to(&mut self, out: &mut dyn Write) -> io::Result<()> {
        // What the rules wrote is shown as text: escaped in the transcript, and in JSON the
        // controls serde_json leaves (DEL and C1) escaped as JSON escapes.
        let text = String::from_utf8_lossy(&self.buffer);
        let shown = if self.json {
            escape_json(&text)
        } else {
            // A transcript read at a terminal fits its width; to a pipe it goes whole.
            super::fitted(&escape(&text)).into()
        };
        out.write_all(shown.as_bytes())?;
        self.buffer.clear();
        out.flush()
    }

    fn fresh_log(&mut self, game: &Game) -> Vec<String> {
        let (fresh, next) = game.log_since(Viewer::Spectator, self.shown);
        self.shown = next;
        fresh
    }

    fn lines(&mut self, lines: &[String]) {
        for line in lines {
            self.text(line);
            self.text("\n");
        }
    }

    fn text(&mut self, s: &str) {
        self.buffer.extend_from_slice(s.as_bytes());
    }

    fn json_line<T: Serialize>(&mut self, value: &T) {
        // Serializing plain structs of strings and numbers cannot fail.
        if serde_json::to_writer(&mut self.buffer, value).is_ok() {
            self.buffer.push(b'\n');
        }
    }
}
