//! Unit tests of the layout rules, and a fuzz of the formatter over damaged rules files.

use super::*;

fn fmt(src: &str) -> String {
    match format(FileId(0), src) {
        Ok(out) => out,
        Err(e) => panic!("does not format: {e:?}\n{src}"),
    }
}

/// Formats and checks that formatting again changes nothing.
fn stable(src: &str) -> String {
    let once = fmt(src);
    assert_eq!(fmt(&once), once, "not idempotent for:\n{src}");
    once
}

#[test]
fn spaces_around_operators_and_after_commas_none_inside_brackets() {
    let src = "def f(a:int,b :int):int=( a+b )*-a-count([ 1,2 ,3 ])\nvar v: list of int=[-1 , 2]\n";
    assert_eq!(
        stable(src),
        "def f(a: int, b: int): int = (a + b) * -a - count([1, 2, 3])\nvar v: list of int = [-1, 2]\n"
    );
}

#[test]
fn form_feeds_and_vertical_tabs_are_space_as_the_grammar_takes_them() {
    let src = "var a: int =\x0c 1\x0b\ndef f(): int =\x0ba\n";
    assert_eq!(stable(src), "var a: int = 1\ndef f(): int = a\n");
}

#[test]
fn ranges_fields_and_signs_are_tight() {
    let src = "die d6 : 1 .. 6\ndef g(): int = me . x+ - 2\ndef h(): list of int = 0..-3\n";
    assert_eq!(
        stable(src),
        "die d6: 1..6\ndef g(): int = me.x + -2\ndef h(): list of int = 0..-3\n"
    );
}

#[test]
fn a_space_before_a_bracket_after_a_name_is_kept_as_written() {
    let src = "kind a[5] { }\nkind b [5] { }\ndef f(): int = g(1)\ndef h(): int = g  (1)\n";
    assert_eq!(
        stable(src),
        "kind a[5] { }\nkind b [5] { }\ndef f(): int = g(1)\ndef h(): int = g (1)\n"
    );
}

#[test]
fn an_index_is_tight_after_a_name_and_kept_as_written_after_a_bracket() {
    let src = "def f(): int = xs[ 2 ]+me.hand[count(xs)]+[1, 2][1]+g(1) [2]\n";
    assert_eq!(
        stable(src),
        "def f(): int = xs[2] + me.hand[count(xs)] + [1, 2][1] + g(1) [2]\n"
    );
}

#[test]
fn blocks_are_indented_two_spaces_a_level() {
    let src = "flow {\nwhile true {\n        for p in players {\nturn p\n}\n    }\n}\n";
    assert_eq!(
        stable(src),
        "flow {\n  while true {\n    for p in players {\n      turn p\n    }\n  }\n}\n"
    );
}

#[test]
fn else_follows_its_brace_and_empty_blocks_have_a_space() {
    let src = "flow {\n  if true {\n  log \"a\"\n  }   else{\nlog \"b\" }\n}\naction pass {}\n";
    assert_eq!(
        stable(src),
        "flow {\n  if true {\n    log \"a\"\n  } else {\n    log \"b\" }\n}\naction pass { }\n"
    );
}

#[test]
fn continuation_lines_are_one_level_deeper() {
    let src = "def f(): int =\nif true then 1\n      else 2\ninvariant i =\n    all(p in players where\n p.x > 0\n and p.y > 0)\n";
    assert_eq!(
        stable(src),
        "def f(): int =\n  if true then 1\n  else 2\ninvariant i =\n  all(p in players where\n      p.x > 0\n      and p.y > 0)\n"
    );
}

#[test]
fn a_line_after_a_bracket_that_ends_a_line_is_not_a_continuation() {
    let src = "def f(): bool = all(\np in players where p.x > 0\nand p.y > 0)\n";
    assert_eq!(
        stable(src),
        "def f(): bool = all(\n  p in players where p.x > 0\n    and p.y > 0)\n"
    );
}

#[test]
fn statements_on_one_line_are_two_spaces_apart() {
    let src = "scenario \"s\" {\nplayers 4 seed 2\nset P1.x = 1 set P2.x = -2   expect P1.x == 1\n}\nflow { let a = [f(x) for x in xs]    log \"{a}\" }\naction  play { }\nremove action set\n";
    assert_eq!(
        stable(src),
        "scenario \"s\" {\n  players 4  seed 2\n  set P1.x = 1  set P2.x = -2  expect P1.x == 1\n}\nflow { let a = [f(x) for x in xs]  log \"{a}\" }\naction play { }\nremove action set\n"
    );
}

#[test]
fn the_winners_of_an_ending_are_its_expression_not_a_statement_after_it() {
    // `players` also starts a scenario step; after `winners` it is the winners.
    let src =
        "action a { end game \"done\" winners players }\naction b { end game winners  players }\n";
    assert_eq!(
        stable(src),
        "action a { end game \"done\" winners players }\naction b { end game winners players }\n"
    );
}

#[test]
fn elements_of_a_list_split_over_lines_line_up() {
    let src = "def f(): list of int = nth([\n      1, 2,\n        3,\n   4], 1)\nenum e {\n a,\n   b,\n}\n";
    assert_eq!(
        stable(src),
        "def f(): list of int = nth([\n  1, 2,\n  3,\n  4], 1)\nenum e {\n  a,\n  b,\n}\n"
    );
}

#[test]
fn a_closing_bracket_after_a_split_parameter_list_closes_at_its_line() {
    let src = "effect e(a: int,\nb: int) {\nlog \"x\"\n}\n";
    assert_eq!(
        stable(src),
        "effect e(a: int,\n  b: int) {\n  log \"x\"\n}\n"
    );
}

#[test]
fn comments_are_kept_alone_or_after_code_at_their_column() {
    let src = "# header\n\n\n\nvar a: int = 0      # aligned\nvar bb: int  =  0   # aligned\nflow {\n# inside\n  turn first(players)#tight\n      # before the brace\n}\n# the end\n";
    assert_eq!(
        stable(src),
        "# header\n\nvar a: int = 0      # aligned\nvar bb: int = 0     # aligned\nflow {\n  # inside\n  turn first(players) #tight\n  # before the brace\n}\n# the end\n"
    );
}

#[test]
fn a_trailing_comment_moves_right_when_the_code_grows() {
    let src = "var a:int=0# c\n";
    assert_eq!(stable(src), "var a: int = 0 # c\n");
}

#[test]
fn a_hash_in_a_text_is_not_a_comment() {
    let src = "flow {\n  log \"#1 { 2 } wins # not a comment\"# a comment\n}\n";
    let out = stable(src);
    assert_eq!(
        out,
        "flow {\n  log \"#1 { 2 } wins # not a comment\" # a comment\n}\n"
    );
}

#[test]
fn a_text_over_several_lines_is_kept_as_written() {
    let src = "flow {\n    log \"one   \n   two\"   \n}\n";
    assert_eq!(stable(src), "flow {\n  log \"one   \n   two\"\n}\n");
}

#[test]
fn trailing_whitespace_blank_runs_and_final_newlines_are_tidied() {
    let src = "\n\n\r\nvar a: int = 0   \r\n\r\n\r\n\tvar b: int = 0 # c   \n\n\n";
    // The comment keeps its column: the tab counted as one.
    assert_eq!(stable(src), "var a: int = 0\n\nvar b: int = 0  # c\n");
    assert_eq!(stable(""), "");
    assert_eq!(stable("# only a comment"), "# only a comment\n");
}

#[test]
fn a_file_that_does_not_parse_is_an_error() {
    let Err(FormatError::Syntax(e)) = format(FileId(3), "flow { let = 3 }") else {
        panic!("formats a file that does not parse");
    };
    assert_eq!(e[0].code, "syntax-error");
    assert_eq!(e[0].span.file, FileId(3));
    assert!(format(FileId(0), "flow { log \"open }").is_err());
}

#[test]
fn scenario_steps_split_over_lines_continue() {
    let src = "scenario \"s\" {\nplayers 3\nplay \"a\",\n\"b\"\nexpect P1.x == 1\n}\n";
    assert_eq!(
        stable(src),
        "scenario \"s\" {\n  players 3\n  play \"a\",\n    \"b\"\n  expect P1.x == 1\n}\n"
    );
}

#[test]
fn new_scenario_steps_lay_out_like_the_others() {
    let src = "scenario \"s\" {\nbefore setup {\npicks P2\nshuffles [3,1]\n}\nrolls 3,3,\n5\nexpect refused P1 \"cheat\"  because \"no\"\nexpect game over\nexpect not over\n}\n";
    assert_eq!(
        stable(src),
        "scenario \"s\" {\n  before setup {\n    picks P2\n    shuffles [3, 1]\n  }\n  rolls 3, 3,\n    5\n  expect refused P1 \"cheat\" because \"no\"\n  expect game over\n  expect not over\n}\n"
    );
}

#[test]
fn a_move_step_lays_out_like_a_set() {
    let src = "scenario \"s\" {\nbefore setup {\nmove  2 to   P1.purse\n}\nmove red_3 from P2.hand to deck at 1   move [1,2] to xs\nmove c to P1.hand\n}\n";
    assert_eq!(
        stable(src),
        "scenario \"s\" {\n  before setup {\n    move 2 to P1.purse\n  }\n  move red_3 from P2.hand to deck at 1  move [1, 2] to xs\n  move c to P1.hand\n}\n"
    );
}

/// The rules files of the repository, for the fuzz.
fn rules_texts() -> Vec<String> {
    fn walk(dir: &std::path::Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "rules") {
                out.push(std::fs::read_to_string(&p).expect("readable rules file"));
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules"),
        &mut out,
    );
    assert!(!out.is_empty(), "no rules files found");
    out
}

#[test]
fn damaged_files_format_or_fail_but_never_panic() {
    const INSERTS: [&str; 15] = [
        "#", "\"", "{", "}", "\n", "-", "(", "]", " ", "é", "\r", "..", "\t", "# x\n", "\n\n\n",
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    let mut formatted = 0;
    for text in rules_texts() {
        let bounds: Vec<usize> = text
            .char_indices()
            .map(|(i, _)| i)
            .chain([text.len()])
            .collect();
        for round in 0..60 {
            let at = bounds[next(bounds.len())];
            let damaged = match round % 3 {
                0 => text[..at].to_string(),
                1 => {
                    let end = bounds[(bounds.partition_point(|b| *b <= at)).min(bounds.len() - 1)];
                    format!("{}{}", &text[..at], &text[end..])
                }
                _ => format!(
                    "{}{}{}",
                    &text[..at],
                    INSERTS[next(INSERTS.len())],
                    &text[at..]
                ),
            };
            if let Ok(once) = format(FileId(0), &damaged) {
                formatted += 1;
                assert_eq!(fmt(&once), once, "not idempotent after damage at {at}");
            }
        }
    }
    assert!(formatted > 0, "no damaged file formatted at all");
}

#[test]
fn a_field_named_like_a_step_word_ends_its_line() {
    // `rolls` and `picks` lead an expression as scenario steps, but not after a `.`.
    let src = "table t(picks: int, rolls: int) {\n  (1, 2)\n}\nvar x: int = nth(t, 1).picks\nvar y: int = nth(t, 1).rolls\nvar z: int = 3\n";
    assert_eq!(stable(src), src);
}
