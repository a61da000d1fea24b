//! Where the REPL's commands come from: a line editor with history and tab completion in a
//! terminal, or plain lines from a pipe.

use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::error::ReadlineError;
use rustyline::history::FileHistory;
use rustyline::{Context, Editor, Helper, Highlighter, Hinter, Validator};
use std::collections::BTreeMap;
use std::io::{self, BufRead};
use std::path::PathBuf;

/// What one read gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// A line, without its newline.
    Text(String),
    /// The user pressed Ctrl-C: drop the line.
    Interrupted,
    /// A line that could not be read as text (it is not valid UTF-8): why, for the user. The
    /// line is skipped and the next one read.
    Unreadable(String),
    /// No more input.
    Eof,
}

/// Who is typing a line, and whether it answers a secret choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Asking {
    /// The seat that decides, if any.
    pub seat: Option<u8>,
    /// The line answers a secret choice: it is never remembered.
    pub secret: bool,
    /// The line names several of the moves at once (`3 5 7`): Tab completes its last word.
    pub several: bool,
}

/// A source of command lines.
pub trait Input {
    /// Reads a line after showing `prompt`; `moves` are the labels offered for completion,
    /// besides the commands; `asking` says whose history the line belongs to.
    fn read_line(&mut self, prompt: &str, moves: &[String], asking: Asking) -> io::Result<Line>;

    /// Waits for the next player to take the device: reads a line (kept out of the history)
    /// after showing `prompt`.
    fn pause(&mut self, prompt: &str) -> io::Result<Line> {
        self.read_line(
            prompt,
            &[],
            Asking {
                seat: None,
                secret: true,
                several: false,
            },
        )
    }

    /// True for a person at a terminal (the input shows the prompt and the typed line itself);
    /// false for a pipe, whose lines the REPL echoes after the prompt.
    fn is_terminal(&self) -> bool;
}

/// Lines from any reader, one command a line; used when stdin is not a terminal. A line that
/// is not valid UTF-8 is [`Line::Unreadable`]: that line is lost, not the session.
pub struct Plain<R> {
    reader: R,
    /// Lines read so far, to name a bad one.
    number: usize,
}

impl<R: BufRead> Plain<R> {
    /// Commands from `reader`.
    pub fn new(reader: R) -> Plain<R> {
        Plain { reader, number: 0 }
    }
}

impl<R: BufRead> Input for Plain<R> {
    fn read_line(&mut self, _prompt: &str, _moves: &[String], _: Asking) -> io::Result<Line> {
        let mut buf = Vec::new();
        if self.reader.read_until(b'\n', &mut buf)? == 0 {
            return Ok(Line::Eof);
        }
        self.number += 1;
        let line = buf.strip_suffix(b"\n").unwrap_or(&buf);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        match std::str::from_utf8(line) {
            Ok(text) => Ok(Line::Text(text.to_string())),
            // The bytes are not shown: the line may have answered a secret choice.
            Err(e) => Ok(Line::Unreadable(format!(
                "line {} of the input is not valid UTF-8 (a bad byte at column {})",
                self.number,
                e.valid_up_to() + 1
            ))),
        }
    }

    fn is_terminal(&self) -> bool {
        false
    }
}

/// What the line editor remembers, for the up arrow: one history per seat when several people
/// share the terminal (a seat never recalls another's lines), one for a person alone with
/// bots; a line that answers a secret choice is never remembered.
#[derive(Debug, Clone, Default)]
pub struct SeatHistories {
    per_seat: bool,
    lines: BTreeMap<Option<u8>, Vec<String>>,
}

impl SeatHistories {
    /// Histories kept apart by seat, or one for everybody.
    pub fn new(per_seat: bool) -> SeatHistories {
        SeatHistories {
            per_seat,
            lines: BTreeMap::new(),
        }
    }

    fn key(&self, seat: Option<u8>) -> Option<u8> {
        if self.per_seat {
            seat
        } else {
            None
        }
    }

    /// Remembers a typed line, unless it is blank or answers a secret choice; true if kept.
    pub fn record(&mut self, asking: Asking, line: &str) -> bool {
        if asking.secret || line.trim().is_empty() {
            return false;
        }
        let key = self.key(asking.seat);
        self.lines.entry(key).or_default().push(line.to_string());
        true
    }

    /// The lines `seat` may recall, oldest first.
    pub fn lines(&self, seat: Option<u8>) -> &[String] {
        self.lines.get(&self.key(seat)).map_or(&[], Vec::as_slice)
    }
}

/// A line editor on the terminal, with history and completion.
pub struct Terminal {
    editor: Editor<Completions, FileHistory>,
    /// The history file, for a person alone at the table; none when people share it.
    file: Option<PathBuf>,
    histories: SeatHistories,
    /// Whose history the editor holds now.
    shown: Option<Option<u8>>,
}

impl Terminal {
    /// A line editor. With a history `file` (loaded now, saved when dropped; failures are
    /// ignored) the history is one person's; without one, each seat keeps its own in memory
    /// only. `None` if the terminal cannot be driven.
    pub fn new(file: Option<PathBuf>) -> Option<Terminal> {
        // Tab completes what is common to the candidates, and a second Tab lists them all
        // (bash's way), rather than cycling through them in place.
        let config = rustyline::Config::builder()
            .completion_type(rustyline::CompletionType::List)
            .build();
        let mut editor = Editor::<Completions, FileHistory>::with_config(config).ok()?;
        editor.set_helper(Some(Completions {
            moves: Vec::new(),
            several: false,
            files: FilenameCompleter::new(),
        }));
        let mut histories = SeatHistories::new(file.is_none());
        if let Some(f) = &file {
            let _ = editor.load_history(f);
            for l in editor.history().iter() {
                histories.record(Asking::default(), l);
            }
        }
        Some(Terminal {
            editor,
            file,
            histories,
            shown: Some(None),
        })
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        if let Some(f) = &self.file {
            let _ = self.editor.save_history(f);
        }
    }
}

impl Input for Terminal {
    fn read_line(&mut self, prompt: &str, moves: &[String], asking: Asking) -> io::Result<Line> {
        if let Some(h) = self.editor.helper_mut() {
            h.moves = moves.to_vec();
            h.several = asking.several;
        }
        // The editor holds the history of whoever types now, and nobody else's.
        if self.shown != Some(asking.seat) {
            let _ = self.editor.clear_history();
            for l in self.histories.lines(asking.seat) {
                let _ = self.editor.add_history_entry(l.as_str());
            }
            self.shown = Some(asking.seat);
        }
        let line = self.editor.readline(prompt);
        if let Ok(l) = &line {
            if self.histories.record(asking, l) {
                let _ = self.editor.add_history_entry(l.as_str());
            }
        }
        to_line(line)
    }

    fn pause(&mut self, prompt: &str) -> io::Result<Line> {
        to_line(self.editor.readline(prompt))
    }

    fn is_terminal(&self) -> bool {
        true
    }
}

fn to_line(read: Result<String, ReadlineError>) -> io::Result<Line> {
    match read {
        Ok(line) => Ok(Line::Text(line)),
        Err(ReadlineError::Interrupted) => Ok(Line::Interrupted),
        Err(ReadlineError::Eof) => Ok(Line::Eof),
        Err(ReadlineError::Io(e)) if e.kind() == io::ErrorKind::InvalidData => Ok(
            Line::Unreadable("the line typed is not valid UTF-8".to_string()),
        ),
        Err(ReadlineError::Io(e)) => Err(e),
        Err(e) => Err(io::Error::other(e.to_string())),
    }
}

/// The history file: `.meeple_history` in the home folder, or in the current folder.
pub fn history_path() -> PathBuf {
    let home = std::env::var_os("HOME").or_else(|| std::env::var_os("USERPROFILE"));
    match home {
        Some(h) if !h.is_empty() => PathBuf::from(h).join(".meeple_history"),
        _ => PathBuf::from(".meeple_history"),
    }
}

/// Tab completion over the current moves and the commands, and file names after `save`/`load`.
#[derive(Helper, Hinter, Highlighter, Validator)]
struct Completions {
    moves: Vec<String>,
    /// The moves are elements of a choice of several: each word is completed on its own.
    several: bool,
    files: FilenameCompleter,
}

impl Completer for Completions {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let head = line.get(..pos).unwrap_or(line);
        let starts = |word: &str| {
            head.get(..word.len())
                .is_some_and(|h| h.eq_ignore_ascii_case(word))
        };
        if starts("save ") || starts("load ") {
            return self.files.complete(line, pos, ctx);
        }
        let (start, words): (usize, Vec<&str>) = if self.several && head.contains(' ') {
            // `3 5 7`: the word being typed is one more element
            let last = head.rfind(char::is_whitespace).map_or(0, |i| i + 1);
            (last, self.moves.iter().map(String::as_str).collect())
        } else if starts("why ") {
            (4, self.moves.iter().map(String::as_str).collect())
        } else {
            let moves = self.moves.iter().map(String::as_str);
            (0, moves.chain(super::COMMANDS.iter().copied()).collect())
        };
        let typed = head.get(start..).unwrap_or("").to_lowercase();
        let pairs = words
            .into_iter()
            .filter(|w| w.to_lowercase().starts_with(&typed))
            .map(|w| Pair {
                display: w.to_string(),
                replacement: w.to_string(),
            })
            .collect();
        Ok((start, pairs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn complete(line: &str) -> (usize, Vec<String>) {
        complete_with(line, false, &["north", "north east", "stay"])
    }

    fn complete_with(line: &str, several: bool, moves: &[&str]) -> (usize, Vec<String>) {
        let c = Completions {
            moves: moves.iter().map(|m| m.to_string()).collect(),
            several,
            files: FilenameCompleter::new(),
        };
        let history = rustyline::history::DefaultHistory::new();
        let ctx = Context::new(&history);
        let (start, pairs) = c.complete(line, line.len(), &ctx).unwrap();
        (start, pairs.into_iter().map(|p| p.replacement).collect())
    }

    #[test]
    fn completes_moves_and_commands() {
        assert_eq!(
            complete("No"),
            (0, vec!["north".into(), "north east".into()])
        );
        assert_eq!(complete("st"), (0, vec!["stay".into(), "state".into()]));
        assert_eq!(complete("why s"), (4, vec!["stay".into()]));
        assert_eq!(complete("qu"), (0, vec!["quit".into()]));
    }

    #[test]
    fn a_choice_of_several_completes_each_word() {
        let cards = ["7H", "7S", "QD"];
        assert_eq!(
            complete_with("7", true, &cards),
            (0, vec!["7H".into(), "7S".into()])
        );
        assert_eq!(complete_with("7H q", true, &cards), (3, vec!["QD".into()]));
        assert_eq!(complete_with("7H q", false, &cards), (0, vec![]));
    }

    #[test]
    fn plain_reads_lines_then_eof() {
        let mut p = Plain::new("one\r\ntwo\n\nthree".as_bytes());
        let mut got = Vec::new();
        while let Line::Text(t) = p.read_line("> ", &[], Asking::default()).unwrap() {
            got.push(t);
        }
        assert_eq!(got, ["one", "two", "", "three"]);
    }

    #[test]
    fn a_line_of_bad_bytes_is_unreadable_and_the_next_is_read() {
        let mut p = Plain::new(&b"one\nt\xffo\r\n\xc3\nthree\n"[..]);
        let mut got = Vec::new();
        loop {
            match p.read_line("> ", &[], Asking::default()).unwrap() {
                Line::Eof => break,
                l => got.push(l),
            }
        }
        assert_eq!(
            got,
            [
                Line::Text("one".into()),
                Line::Unreadable(
                    "line 2 of the input is not valid UTF-8 (a bad byte at column 2)".into()
                ),
                Line::Unreadable(
                    "line 3 of the input is not valid UTF-8 (a bad byte at column 1)".into()
                ),
                Line::Text("three".into()),
            ]
        );
    }

    #[test]
    fn a_seat_never_recalls_another_seats_lines_nor_a_secret_choice() {
        let mut h = SeatHistories::new(true);
        let p1 = |secret| Asking {
            seat: Some(0),
            secret,
            several: false,
        };
        assert!(h.record(p1(false), "honest"));
        assert!(!h.record(p1(true), "rock"), "a secret choice is not kept");
        assert!(h.record(
            Asking {
                seat: Some(1),
                secret: false,
                several: false,
            },
            "cheat"
        ));
        assert_eq!(h.lines(Some(0)), ["honest"]);
        assert_eq!(h.lines(Some(1)), ["cheat"]);
        // One person alone with bots keeps one history, still without secrets.
        let mut alone = SeatHistories::new(false);
        alone.record(p1(false), "honest");
        alone.record(p1(true), "paper");
        assert_eq!(alone.lines(Some(0)), ["honest"]);
    }
}
