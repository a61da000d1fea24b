//! Text the REPL prints: the moves on offer, the outcome, help; and reading a typed move.

use crate::engine::{Game, Several};
use std::fmt::Write;

/// The commands, as listed by `help`.
pub const HELP: &str = "\
Commands:
  NUMBER or MOVE   make a move: its number in the list, or the move as
                   shown (any case)
  #NUMBER          make the move of that number in the list; when the
                   moves are numbers themselves (listed #1, #2, ...), a
                   bare number is always the move of that value and #N
                   the N-th in the list
  moves            list the legal moves again (a long list is cut in the
                   middle)
  moves all        list every legal move, however many
  state            show the game as the player to decide sees it
  log              show the whole log that player may read
  why MOVE         explain why a move is not allowed now
  undo             take back the last move made at this device (and bot
                   moves after it), unless chance was drawn on or someone
                   saw something new since
  save FILE        save the game (rules, seed, bots and moves) to FILE:
                   the referee's record, which tells every secret; not
                   for players' eyes. Only a new file or an old save is
                   written: never the rules, nor another file
  load FILE        load a saved game of the same rules and player count
  reload           read the rules files again and replay the game so far
                   under them (with secrets in the game: save it, and
                   start a new one under them)
  help             show this list
  quit             leave on purpose (the game is not saved)
Tab completes moves and commands in a terminal, and lists them when
several fit. A move named like a command is made by its number.
Ctrl-D at a terminal leaves too, asking first if moves were made since
the last save.
A rule that fails on a move saves the game and names the save; with
secrets in the game the game then stops (trying the move again would
tell what is hidden).
Commands piped in (not a terminal) end at the end of input; the exit
status is 1 if a line was refused (a move not made, a command that
failed, a line not UTF-8), if the input ended before the game did
without `quit`, or if the game stopped, else 0.
";

/// A list longer than this is shown cut: its head, a line saying what is left out, its tail.
const LONGEST_SHOWN: usize = 40;
/// How many entries of a cut list are shown before the gap.
const HEAD: usize = 20;
/// How many entries of a cut list are shown after the gap.
const TAIL: usize = 5;

/// Whether entry `i` of a list of `len` is shown; `all` shows every entry.
fn shown(i: usize, len: usize, all: bool) -> bool {
    all || len <= LONGEST_SHOWN || i < HEAD || i >= len - TAIL
}

/// The line standing for the entries left out of a cut list, where entry `i` is the first of them.
fn gap(out: &mut String, i: usize, len: usize, all: bool, hash: &str) {
    if !all && len > LONGEST_SHOWN && i == HEAD {
        let left_out = len - HEAD - TAIL;
        let _ = writeln!(
            out,
            "  … {left_out} more, {hash}{} to {hash}{} (`moves all` lists every one)",
            HEAD + 1,
            len - TAIL
        );
    }
}

/// The question put to `seat` and its numbered options; a long list is cut unless `all`.
pub fn moves(game: &Game, seat: u8, all: bool) -> String {
    let mut out = String::new();
    if let Some(p) = game.prompt(seat) {
        let _ = writeln!(out, "{p}");
    }
    if let Some(several) = game.several(seat) {
        return several_moves(&several, out, all);
    }
    let options = game.options(seat);
    // Where moves are numbers, the list numbers them `#N`, as they must be typed.
    let numeric = crate::engine::numeric_options(&options);
    let hash = if numeric { "#" } else { "" };
    let len = options.len();
    // Options alike to an earlier one (identical cards) are listed once, with their count.
    let first_alike = game.first_alike(seat);
    let mut alike = vec![0usize; len];
    for &f in &first_alike {
        alike[f] += 1;
    }
    for (i, o) in options.iter().enumerate() {
        gap(&mut out, i, len, all, hash);
        if !shown(i, len, all) || first_alike.get(i).is_some_and(|&f| f != i) {
            continue;
        }
        let times = if alike[i] > 1 {
            format!(" (×{}, alike)", alike[i])
        } else {
            String::new()
        };
        match &o.detail {
            Some(d) => {
                let _ = writeln!(out, "  {hash}{}. {}{times} — {d}", i + 1, o.label);
            }
            None => {
                let _ = writeln!(out, "  {hash}{}. {}{times}", i + 1, o.label);
            }
        }
    }
    // A move whose first word is a command is read as the command: it is chosen by number.
    for (i, o) in options.iter().enumerate() {
        let first = o
            .label
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_lowercase();
        if super::COMMANDS.contains(&first.as_str()) || first == "exit" || first == "?" {
            let _ = writeln!(
                out,
                "  (`{first}` is also a command: type #{} to choose move {})",
                i + 1,
                i + 1
            );
        }
    }
    if numeric {
        let _ = writeln!(
            out,
            "  (these moves are numbers: a number typed is the move of that value; #N is the N-th in the list)"
        );
    }
    out
}

/// The elements of a choice of several, and how to type it.
fn several_moves(several: &Several, mut out: String, all: bool) -> String {
    let numeric = several.labels.iter().any(|l| l.parse::<i64>().is_ok());
    let hash = if numeric { "#" } else { "" };
    // Asked although nothing may be picked, so that being spared it tells no secret.
    if several.max == 0 {
        let _ = writeln!(out, "  Nothing can be chosen now: type `none`.");
        return out;
    }
    let _ = writeln!(
        out,
        "  Choose {} of these, typed together (such as `{}`){}:",
        several.how_many(),
        several
            .labels
            .iter()
            .take(2)
            .cloned()
            .collect::<Vec<_>>()
            .join(" "),
        if several.min == 0 {
            "; `none` for none"
        } else {
            ""
        }
    );
    let len = several.labels.len();
    for (i, label) in several.labels.iter().enumerate() {
        gap(&mut out, i, len, all, hash);
        // what is picked is always shown, wherever it lies
        if !shown(i, len, all) && !several.picked.contains(&i) {
            continue;
        }
        let picked = if several.picked.contains(&i) {
            " (picked)"
        } else {
            ""
        };
        let _ = writeln!(out, "  {hash}{}. {label}{picked}", i + 1);
    }
    if numeric {
        let _ = writeln!(
            out,
            "  (these are numbers: a number typed is the element of that value; #N is the N-th)"
        );
    }
    out
}

/// The end of the game: the reason, the scores and the winners.
pub fn outcome(game: &Game) -> String {
    let Some(o) = game.outcome() else {
        return String::new();
    };
    let mut out = String::from("Game over.");
    if let Some(r) = &o.reason {
        // A sentence of its own after "Game over.": the rules' `end when ... "the third fuse
        // burns"` starts it in lower case.
        let _ = write!(out, " {}", sentence_case(r));
    }
    out.push('\n');
    let scores: Vec<String> = o
        .scores
        .iter()
        .enumerate()
        .map(|(p, s)| format!("{} {s}", game.seat_name(p as u8)))
        .collect();
    let _ = writeln!(out, "Scores: {}", scores.join(", "));
    let winners: Vec<String> = o.winners.iter().map(|p| game.seat_name(*p)).collect();
    let _ = match winners.len() {
        0 => writeln!(out, "Nobody wins."),
        1 => writeln!(out, "Winner: {}", winners[0]),
        _ => writeln!(out, "Winners: {}", winners.join(", ")),
    };
    out
}

/// `text` with its first letter in upper case.
fn sentence_case(text: &str) -> std::borrow::Cow<'_, str> {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) if c.is_lowercase() => format!("{}{}", c.to_uppercase(), chars.as_str()).into(),
        _ => text.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn an_ending_reason_starts_its_sentence_in_upper_case() {
        assert_eq!(
            sentence_case("the third fuse burns"),
            "The third fuse burns"
        );
        assert_eq!(sentence_case("P2 runs out"), "P2 runs out");
        assert_eq!(sentence_case(""), "");
    }

    #[test]
    fn help_fits_78_columns() {
        for line in HELP.lines() {
            assert!(
                line.chars().count() <= 78,
                "{} columns: {line}",
                line.chars().count()
            );
        }
    }

    #[test]
    fn a_move_named_like_a_command_is_listed_with_its_number() {
        let src = "game \"G\" { players 2 }\nflow { for p in players { turn p } }\naction rest \"Rest\" { }\naction help \"Help\" { }\n";
        let loaded = crate::load::check_source("g.rules", src);
        assert!(loaded
            .diagnostics
            .0
            .iter()
            .any(|d| d.code == "command-name"));
        let program = Arc::new(loaded.program.expect("warnings only"));
        let game = Game::new(program, 2, 1).expect("starts");
        let listed = moves(&game, 0, false);
        assert!(
            listed.contains("(`help` is also a command: type #2 to choose move 2)"),
            "{listed}"
        );
        assert_eq!(game.resolve_typed(0, "#2"), Ok("help".to_string()));
    }

    /// A game whose first decision offers the values 2 to 6.
    fn two_to_six() -> Game {
        let src = "game \"N\" { players 2 }\nplayer var got: int = 0\nflow {\n  for p in players {\n    let n = choose p \"Pick\" from 2..6\n    p.got = n\n  }\n}\nscore(p) = p.got\n";
        let loaded = crate::load::check_source("n.rules", src);
        let program = loaded.program.expect("checks");
        Game::new(Arc::new(program), 2, 1).expect("starts")
    }

    #[test]
    fn where_moves_are_numbers_a_number_is_a_value_and_hash_n_an_item() {
        let game = two_to_six();
        let labels: Vec<String> = game.options(0).into_iter().map(|o| o.label).collect();
        assert_eq!(labels, ["2", "3", "4", "5", "6"]);
        assert_eq!(game.resolve_typed(0, "3"), Ok("3".into()), "the value 3");
        assert_eq!(
            game.resolve_typed(0, "#3"),
            Ok("4".into()),
            "the third item"
        );
        assert_eq!(game.resolve_typed(0, "# 1"), Ok("2".into()));
        // 1 is no value on offer: the engine refuses it; it is never taken for item 1
        assert_eq!(game.resolve_typed(0, "1"), Ok("1".into()));
        assert!(game.clone().apply_label(0, "1").is_err());
        assert_eq!(
            game.resolve_typed(0, "#6"),
            Err("there is no move 6; the moves are numbered 1 to 5".into())
        );
        assert_eq!(
            game.resolve_typed(0, "#x"),
            Err("`#x` is not a move number".into())
        );
        let list = moves(&game, 0, false);
        assert!(list.contains("  #2. 3\n"), "{list}");
        assert!(
            list.contains("a number typed is the move of that value"),
            "{list}"
        );
    }

    /// A game whose first decision offers `from..to`, or picks any of them with `several`.
    fn range_game(from: i64, to: i64, several: bool) -> Game {
        let choice = if several {
            format!("let ns = choose any of p \"Pick\" from {from}..{to}\n    p.got = count(ns)")
        } else {
            format!("let n = choose p \"Pick\" from {from}..{to}\n    p.got = n")
        };
        let src = format!("game \"N\" {{ players 2 }}\nplayer var got: int = 0\nflow {{\n  for p in players {{\n    {choice}\n  }}\n}}\nscore(p) = p.got\n");
        let loaded = crate::load::check_source("n.rules", &src);
        let program = loaded.program.expect("checks");
        Game::new(Arc::new(program), 2, 1).expect("starts")
    }

    #[test]
    fn a_long_list_is_cut_in_the_middle_and_moves_all_lists_every_one() {
        let game = range_game(1, 100_000, false);
        let cut = moves(&game, 0, false);
        assert!(cut.contains("  #20. 20\n"), "{cut}");
        assert!(!cut.contains("  #21. 21\n"), "{cut}");
        assert!(
            cut.contains("  … 99975 more, #21 to #99995 (`moves all` lists every one)\n"),
            "{cut}"
        );
        assert!(cut.contains("  #99996. 99996\n"), "{cut}");
        assert!(cut.contains("  #100000. 100000\n"), "{cut}");
        assert!(cut.lines().count() < 40, "{cut}");
        let all = moves(&game, 0, true);
        assert!(all.contains("  #50000. 50000\n"));
        assert!(!all.contains("more, #"));
        // at the edge: 40 are listed whole, 41 are cut
        assert!(!moves(&range_game(1, 40, false), 0, false).contains("more,"));
        let cut41 = moves(&range_game(1, 41, false), 0, false);
        assert!(cut41.contains("  … 16 more, #21 to #36 "), "{cut41}");
    }

    #[test]
    fn a_long_choice_of_several_is_cut_too() {
        let game = range_game(1, 60, true);
        let cut = moves(&game, 0, false);
        assert!(cut.contains("  … 35 more, #21 to #55 "), "{cut}");
        assert!(!cut.contains("  #30. 30\n"), "{cut}");
        assert!(moves(&game, 0, true).contains("  #30. 30\n"));
        let why = game.why(0, "1 61").expect("61 is no element");
        assert!(
            why.ends_with(", 24, ... (60 in all) (or #N for the N-th)"),
            "{why}"
        );
    }

    #[test]
    fn a_refusal_among_many_options_names_a_few_and_how_many_there_are() {
        let game = range_game(1, 100_000, false);
        for refused in [game.why(0, "0"), game.why(0, "100001")] {
            let why = refused.expect("not an option");
            assert!(why.starts_with("the options are: 1, 2, 3,"), "{why}");
            assert!(why.ends_with(", 24, ... (100000 in all)"), "{why}");
        }
        // a short list is named whole
        let why = range_game(1, 5, false).why(0, "9").expect("not an option");
        assert_eq!(why, "the options are: 1, 2, 3, 4, 5");
    }
}
