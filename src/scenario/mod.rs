//! Scenario tests: the designer's own checks, written in a rules file and run by `meeple test`
//! and by `cargo test` for every file in `rules/`.

use crate::bots::{ask_bot, Bot, BotKind};
use crate::diag::{Diagnostic, Span};
use crate::engine::GameSettings;
use crate::engine::{FixedChance, Game, Holder, MoveError, RuntimeError, Unstarted};
use crate::ir::{self, Program, Scenario, ScenarioStepKind as K, Value};
use std::sync::Arc;

/// How one scenario went.
#[derive(Debug, Clone)]
pub struct ScenarioReport {
    /// Its title.
    pub title: String,
    /// Where it is written.
    pub span: Span,
    /// Why it failed, if it did.
    pub failure: Option<Diagnostic>,
}

impl ScenarioReport {
    /// True if every step held.
    pub fn passed(&self) -> bool {
        self.failure.is_none()
    }
}

/// Runs every scenario of a program, in order.
pub fn run_all(program: &Arc<Program>) -> Vec<ScenarioReport> {
    program.scenarios.iter().map(|s| run(program, s)).collect()
}

/// Runs one scenario.
pub fn run(program: &Arc<Program>, scenario: &Scenario) -> ScenarioReport {
    ScenarioReport {
        title: scenario.title.clone(),
        span: scenario.span,
        failure: steps(program, scenario).err().map(|d| *d),
    }
}

fn fail(
    span: Span,
    message: impl Into<String>,
    label: impl Into<String>,
    help: &str,
) -> Box<Diagnostic> {
    Box::new(
        Diagnostic::error("scenario-failed", message, span)
            .with_label(label)
            .with_help(help),
    )
}

fn runtime(e: RuntimeError) -> Box<Diagnostic> {
    Box::new(e.to_diagnostic())
}

fn steps(program: &Arc<Program>, scenario: &Scenario) -> Result<(), Box<Diagnostic>> {
    let players = scenario.players.unwrap_or(program.min_players);
    let mut locals = vec![Value::None; scenario.locals.max(1)];
    for (p, slot) in locals.iter_mut().enumerate().take(players as usize) {
        *slot = Value::player(p as u8);
    }
    let unstarted = before_setup(program, scenario, players, &mut locals)?;
    let mut game = unstarted.start().map_err(runtime)?;
    let mut bots: Vec<Box<dyn Bot>> = (0..players)
        .map(|p| BotKind::Random.make(scenario.seed, p))
        .collect();
    // The `set` steps not yet followed by a step that plays on: the invariants must hold before
    // the game goes on from a position set by hand. Expectations, `let`s and scoring may look at
    // a position the rules could not reach (to test a def or the tie-breaks on it), so they do
    // not check.
    let mut sets: Option<ByHand> = None;
    for step in &scenario.steps {
        let span = step.span;
        let plays_on = matches!(
            step.kind,
            K::Play { .. } | K::RunUntil(_) | K::ExpectRefused { .. }
        );
        if plays_on {
            if let Some(by_hand) = sets.take() {
                invariants_after_set(&game, by_hand)?;
            }
        }
        match &step.kind {
            K::Play { seat, moves } => {
                play_moves(&mut game, seat.as_ref(), moves, &mut locals, span)?;
            }
            K::ExpectRefused { seat, mv, because } => {
                expect_refused(
                    &game,
                    seat.as_ref(),
                    mv,
                    because.as_deref(),
                    &mut locals,
                    span,
                )?;
            }
            K::ExpectOver(over) => {
                expect_over(&game, *over, span)?;
            }
            K::RunUntil(cond) => loop {
                // Stops when the condition holds or when the game ends, whichever comes first.
                if game.is_over() || truth(&game, cond, &mut locals)? {
                    break;
                }
                let seat = game.waiting_on()[0];
                let index = ask_bot(&game, seat, bots[seat as usize].as_mut()).unwrap_or(0);
                game.apply(seat, index).map_err(|e| match e {
                    MoveError::Runtime(r) => Box::new(
                        r.to_diagnostic()
                            .with_secondary(span, "a bot's move failed while running this"),
                    ),
                    e => fail(
                        span,
                        format!("a bot's move failed: {e}"),
                        "while running",
                        "fix the rule that failed",
                    ),
                })?;
            },
            K::Set(place, value) => {
                let v = game.eval_in(value, &mut locals).map_err(runtime)?;
                game.set_place(place, v, &mut locals).map_err(runtime)?;
                sets = Some(ByHand::after(sets, span, false));
            }
            K::Move(m) => {
                let m = plan_move(&game, m, &mut locals)?;
                game.move_item(&m.item, m.lists, m.at, span)
                    .map_err(runtime)?;
                sets = Some(ByHand::after(sets, span, true));
            }
            K::Rolls(_) | K::Picks(_) | K::Shuffles(_) => {
                for c in chance(&game, &step.kind, &mut locals)? {
                    game.fix_chance(c, span);
                }
            }
            K::ExpectWinners(expected) => {
                expect_winners(&mut game, expected, &mut locals)?;
            }
            K::Finish => {
                game.end_now().map_err(runtime)?;
            }
            K::Let(..) | K::Expect(_) => plain_step(&game, step, &mut locals)?,
        }
    }
    if let Some(at) = game.unused_chance() {
        return Err(fail(
            at,
            "chance fixed here was never drawn on",
            "not all of this was used",
            "the rules rolled, picked or shuffled less than this scenario expects; fix only what is drawn",
        ));
    }
    Ok(())
}

/// The game of `scenario` with its `before setup` steps applied: initial values set, setup
/// not run.
fn before_setup(
    program: &Arc<Program>,
    scenario: &Scenario,
    players: u8,
    locals: &mut [Value],
) -> Result<Unstarted, Box<Diagnostic>> {
    let mut unstarted = GameSettings::new(players, scenario.seed)
        .unstarted(program.clone())
        .map_err(runtime)?;
    for step in &scenario.before_setup {
        match &step.kind {
            K::Set(place, value) => {
                let v = unstarted.game().eval_in(value, locals).map_err(runtime)?;
                unstarted.set_place(place, v, locals).map_err(runtime)?;
            }
            K::Move(m) => {
                let m = plan_move(unstarted.game(), m, locals)?;
                unstarted
                    .move_item(&m.item, m.lists, m.at, step.span)
                    .map_err(runtime)?;
            }
            K::Rolls(_) | K::Picks(_) | K::Shuffles(_) => {
                for c in chance(unstarted.game(), &step.kind, locals)? {
                    unstarted.fix_chance(c, step.span);
                }
            }
            _ => plain_step(unstarted.game(), step, locals)?,
        }
    }
    Ok(unstarted)
}

/// A `play` step: `moves` played in turn by `seat` (or whoever decides), the first refused
/// failing the scenario.
fn play_moves(
    game: &mut Game,
    seat: Option<&ir::Expr>,
    moves: &[String],
    locals: &mut [Value],
    span: Span,
) -> Result<(), Box<Diagnostic>> {
    // Choices of one option taken without asking since the move before: a move
    // that fails after one may have been meant for the choice it passed over.
    let mut passed_over: Vec<String> = Vec::new();
    for m in moves {
        let who = seat_for(game, seat, locals, span, m)?;
        let cursor = game.log_end();
        // `#2` names the second option, as at the REPL. A bare number stays a label: `2`
        // written for a choice of one option, taken without asking, must not play option 2
        // of the decision after it.
        let resolved = if m.trim_start().starts_with('#') {
            game.resolve_typed(who, m)
        } else {
            Ok(m.clone())
        };
        let applied = match resolved {
            Ok(label) => game.apply_label(who, &label),
            Err(reason) => Err(MoveError::Illegal {
                input: m.clone(),
                reason,
                close: None,
            }),
        };
        if applied.is_ok() {
            let (lines, _) = game.log_since(crate::engine::Viewer::Referee, cursor);
            passed_over = lines
                .into_iter()
                .filter(|l| l.ends_with("(the only option)"))
                .collect();
        }
        if let Err(e) = applied {
            if let MoveError::Runtime(r) = e {
                // Pointing at the rule that failed, and at the move that ran it.
                return Err(Box::new(r.to_diagnostic().with_secondary(
                    span,
                    format!("{} played `{m}` here", game.seat_name(who)),
                )));
            }
            let help = match passed_over.last() {
                Some(line) => format!(
                    "a choice of one option is no decision: it was taken without \
                     asking (`{line}`), so `{m}` was tried at the decision after it; \
                     leave the forced choice out of `play`"
                ),
                None => "check the moves with `meeple play` and `moves`".to_string(),
            };
            return Err(fail(
                span,
                format!("{} cannot play `{m}`: {e}", game.seat_name(who)),
                "this move was refused",
                &help,
            ));
        }
    }
    Ok(())
}

/// An `expect refused` step: `mv` tried on a copy of the game must be refused, for a
/// reason that says `because` if given.
fn expect_refused(
    game: &Game,
    seat: Option<&ir::Expr>,
    mv: &str,
    because: Option<&str>,
    locals: &mut [Value],
    span: Span,
) -> Result<(), Box<Diagnostic>> {
    let who = seat_for(game, seat, locals, span, mv)?;
    // Tried on a copy: the game does not change, and a move undone because a rule
    // or an invariant failed counts as refused, as it would be in play.
    let mut trial = game.clone();
    let reason = match trial.apply_label(who, mv) {
        Ok(()) => {
            return Err(fail(
                span,
                format!(
                    "expected `{mv}` to be refused, but {} may play it",
                    game.seat_name(who)
                ),
                "this move was allowed",
                "the rules do not forbid what this scenario expects them to",
            ))
        }
        Err(MoveError::Illegal { reason, .. }) => reason,
        Err(e) => e.to_string(),
    };
    if let Some(want) = because {
        if !reason.to_lowercase().contains(&want.to_lowercase()) {
            return Err(fail(
                span,
                format!("`{mv}` was refused, but not because \"{want}\""),
                format!("refused because: {reason}"),
                "the move is refused by another rule than this scenario expects",
            ));
        }
    }
    Ok(())
}

/// An `expect over` (or `expect not over`) step.
fn expect_over(game: &Game, over: bool, span: Span) -> Result<(), Box<Diagnostic>> {
    if over && !game.is_over() {
        let names: Vec<String> = game
            .waiting_on()
            .iter()
            .map(|p| game.seat_name(*p))
            .collect();
        return Err(fail(
            span,
            "expected the game to be over, but it goes on",
            format!("{} must decide", names.join(", ")),
            "the end of the game does not come when this scenario expects",
        ));
    }
    if !over {
        if let Some(outcome) = game.outcome() {
            let reason = outcome
                .reason
                .as_ref()
                .map_or(String::new(), |r| format!(": {r}"));
            return Err(fail(
                span,
                format!("expected the game to go on, but it is over{reason}"),
                "the game has ended",
                "the end of the game comes before this scenario expects",
            ));
        }
    }
    Ok(())
}

/// An `expect winners` step: the game ended now, its winners those `expected` names.
fn expect_winners(
    game: &mut Game,
    expected: &ir::Expr,
    locals: &mut [Value],
) -> Result<(), Box<Diagnostic>> {
    let want = game.eval_in(expected, locals).map_err(runtime)?;
    let outcome = game.end_now().map_err(runtime)?.clone();
    let want = want.seats();
    if want != outcome.winners {
        let names = |ps: &[u8]| {
            if ps.is_empty() {
                "nobody".to_string()
            } else {
                ps.iter()
                    .map(|p| game.seat_name(*p))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        let scores: Vec<String> = outcome
            .scores
            .iter()
            .enumerate()
            .map(|(p, s)| format!("{} {s}", game.seat_name(p as u8)))
            .collect();
        return Err(fail(
            expected.span,
            format!(
                "expected {} to win, but {} won",
                names(&want),
                names(&outcome.winners)
            ),
            format!("scores: {}", scores.join(", ")),
            "the scoring or the tie-break does not do what this scenario expects",
        ));
    }
    Ok(())
}

/// A step that reads the game and changes nothing in it: `let` and `expect`.
fn plain_step(
    game: &Game,
    step: &ir::ScenarioStep,
    locals: &mut [Value],
) -> Result<(), Box<Diagnostic>> {
    match &step.kind {
        K::Let(slot, value) => {
            locals[*slot as usize] = game.eval_in(value, locals).map_err(runtime)?;
        }
        K::Expect(cond) if !truth(game, cond, locals)? => {
            let program = game.program();
            let src = program.sources.snippet(cond.span).to_string();
            let detail = game.explain(cond, locals);
            return Err(fail(
                cond.span,
                format!("expected `{src}`"),
                detail,
                "the rules do not do what this scenario expects",
            ));
        }
        _ => {}
    }
    Ok(())
}

/// The results of chance a `rolls`, `picks` or `shuffles` step fixes, in order.
fn chance(
    game: &Game,
    kind: &K,
    locals: &mut [Value],
) -> Result<Vec<FixedChance>, Box<Diagnostic>> {
    let mut out = Vec::new();
    match kind {
        K::Rolls(faces) => {
            for f in faces {
                match game.eval_in(f, locals).map_err(runtime)? {
                    Value::Int(n) => out.push(FixedChance::Roll(n)),
                    _ => {
                        return Err(fail(
                            f.span,
                            "a roll is fixed to a number",
                            "not a number",
                            "write the face the die shows, such as `rolls 6`",
                        ))
                    }
                }
            }
        }
        K::Picks(values) => {
            for v in values {
                out.push(FixedChance::Pick(game.eval_in(v, locals).map_err(runtime)?));
            }
        }
        K::Shuffles(order) => {
            let v = game.eval_in(order, locals).map_err(runtime)?;
            out.push(FixedChance::Order(match v {
                Value::List(xs) => xs.iter().cloned().collect(),
                other => vec![other],
            }));
        }
        _ => {}
    }
    Ok(out)
}

/// The seat that plays (or tries) a move: the one named, or the only one deciding.
fn seat_for(
    game: &Game,
    seat: Option<&ir::Expr>,
    locals: &mut [Value],
    span: Span,
    m: &str,
) -> Result<u8, Box<Diagnostic>> {
    if let Some(s) = seat {
        return match game.eval_in(s, locals).map_err(runtime)? {
            Value::Player(p) => Ok(p.get()),
            _ => Err(fail(
                span,
                "no such seat in this game",
                "this seat",
                "use a seat the game has",
            )),
        };
    }
    match game.waiting_on().as_slice() {
        [p] => Ok(*p),
        [] => Err(fail(
            span,
            format!("`{m}`: the game is over"),
            "nobody is deciding",
            "remove the move, or check why the game ended",
        )),
        many => {
            let names: Vec<String> = many.iter().map(|p| game.seat_name(*p)).collect();
            Err(fail(
                span,
                format!(
                    "`{m}`: {} must decide; which one plays it?",
                    names.join(", ")
                ),
                "several seats decide now",
                "name the seat, such as `play P2 \"...\"`",
            ))
        }
    }
}

/// A run of `set` and `move` steps, after which the invariants must hold before play goes on.
#[derive(Debug, Clone, Copy)]
struct ByHand {
    /// Where the run is written.
    span: Span,
    /// Whether it has a `set`, and whether it has a `move`.
    set: bool,
    moved: bool,
}

impl ByHand {
    /// The run `before` (if any) and the step at `span` after it.
    fn after(before: Option<ByHand>, span: Span, moved: bool) -> ByHand {
        let mut run = before.unwrap_or(ByHand {
            span,
            set: false,
            moved: false,
        });
        run.span = run.span.to(span);
        run.set |= !moved;
        run.moved |= moved;
        run
    }
}

/// The invariants must hold after a run of `set` and `move` steps.
fn invariants_after_set(game: &Game, by_hand: ByHand) -> Result<(), Box<Diagnostic>> {
    game.check_invariants_now().map_err(|e| {
        let mut d = e.to_diagnostic();
        d.label = "no longer holds".into();
        let (after, help) = match (by_hand.set, by_hand.moved) {
            (true, false) => (
                "after this `set`",
                "a scenario's `set` must leave a position the rules allow: set the other values too",
            ),
            (false, _) => (
                "after this `move`",
                "a `move` keeps the item in one list, but the rules may ask more of the \
                 position: set or move the other values too",
            ),
            (true, true) => (
                "after these `set` and `move` steps",
                "a scenario's `set` and `move` must leave a position the rules allow: set or \
                 move the other values too",
            ),
        };
        d.help = Some(help.into());
        Box::new(d.with_secondary(by_hand.span, after))
    })
}

/// A `move` checked against the position, before anything changes.
struct PlannedMove {
    /// What moves.
    item: Value,
    /// The list it leaves and the list it joins.
    lists: (Holder, Holder),
    /// Its 0-based position in the list it joins; last if `None`.
    at: Option<usize>,
}

/// Finds where a `move`'s item is and checks where it goes.
fn plan_move(
    game: &Game,
    m: &ir::MoveStep,
    locals: &mut [Value],
) -> Result<PlannedMove, Box<Diagnostic>> {
    let item = game.eval_in(&m.item, locals).map_err(runtime)?;
    let shown = crate::engine::show(game.program(), game.state(), &item);
    let to = holder(game, &m.to, locals)?;
    let holders = game.holders_of(&item);
    let names = |hs: &[Holder]| {
        hs.iter()
            .map(|h| format!("`{}`", game.holder_name(*h)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let from = match &m.from {
        Some(named) => {
            let from = holder(game, named, locals)?;
            if !holders.contains(&from) {
                let label = if holders.is_empty() {
                    "it is in no list of the game".to_string()
                } else {
                    format!("it is in {}", names(&holders))
                };
                return Err(fail(
                    named.1,
                    format!("`{shown}` is not in `{}`", game.holder_name(from)),
                    label,
                    "name the list that holds it, or leave out `from` to take it from wherever \
                     it is",
                ));
            }
            from
        }
        None => match holders.as_slice() {
            [one] => *one,
            [] => {
                return Err(fail(
                    m.item.span,
                    format!("`{shown}` is in no list of the game"),
                    "not in any list variable, player's list or list field",
                    "a `move` takes the item out of the list that holds it; to add a value \
                     that is in no list, `set` the list",
                ))
            }
            several => {
                return Err(fail(
                    m.item.span,
                    format!("`{shown}` is in several lists: {}", names(several)),
                    "which one does it leave?",
                    &format!(
                        "say which with `from`: `move {} from {} to ...`",
                        game.program().sources.snippet(m.item.span),
                        game.holder_name(several[0])
                    ),
                ))
            }
        },
    };
    let at = match &m.at {
        None => None,
        Some(e) => {
            let held = match game.held(to) {
                Value::List(xs) => xs.len(),
                _ => 0,
            };
            let room = held - usize::from(from == to) + 1;
            match game.eval_in(e, locals).map_err(runtime)? {
                Value::Int(n) if n >= 1 && n as u64 <= room as u64 => Some(n as usize - 1),
                v => {
                    let v = crate::engine::show(game.program(), game.state(), &v);
                    return Err(fail(
                        e.span,
                        format!("`{}` has no position {v}", game.holder_name(to)),
                        format!("positions 1 to {room}, once the item has left where it is"),
                        "`at 1` puts the item first; leave `at` out to put it last",
                    ));
                }
            }
        }
    };
    Ok(PlannedMove {
        item,
        lists: (from, to),
        at,
    })
}

/// The list of the game a `move` names.
fn holder(
    game: &Game,
    (place, span): &(ir::Place, Span),
    locals: &mut [Value],
) -> Result<Holder, Box<Diagnostic>> {
    game.holder(place, locals).map_err(runtime)?.ok_or_else(|| {
        fail(
            *span,
            "a scenario's own name is not part of the game",
            "not a list of the game",
            "name a list variable, a player's list or a list field",
        )
    })
}

fn truth(game: &Game, cond: &ir::Expr, locals: &mut [Value]) -> Result<bool, Box<Diagnostic>> {
    match game
        .eval_in(cond, locals)
        .map_err(|e| Box::new(e.to_diagnostic()))?
    {
        Value::Bool(b) => Ok(b.get()),
        _ => Ok(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DICE: &str = r#"
game "Dice" { players 2..3 }
die d6: 1..6
var goal: int = 20
var first: player = none
var order: list of int = []
player var pos: int = 0
invariant on_board "nobody passes 30" = all(p in players where p.pos <= 30)
setup {
  let f = random players
  first = f
  let o = shuffle [1, 2, 3, 4]
  order = o
}
flow {
  while all(p in players where p.pos < goal) {
    for p in players { turn p }
  }
}
action move "Roll and move" {
  let r = roll d6
  me.pos += r
}
action cheat "Move 6" {
  require me.pos == 99 else "cheating is not allowed"
  me.pos += 6
}
score(p) = p.pos
"#;

    /// The reports of the scenarios `scenarios` written after the dice game.
    fn run_with(scenarios: &str) -> Vec<ScenarioReport> {
        let src = format!("{DICE}\n{scenarios}");
        let loaded = crate::load::check_source("dice.rules", &src);
        let Some(program) = loaded.program else {
            panic!("does not check: {:?}", loaded.diagnostics.0);
        };
        run_all(&Arc::new(program))
    }

    fn failure(report: &ScenarioReport) -> &Diagnostic {
        report.failure.as_ref().expect("fails")
    }

    #[test]
    fn chance_fixed_before_setup_and_during_play_is_used_first() {
        let reports = run_with(
            r#"
scenario "fixed" {
  players 3
  before setup {
    set goal = 8
    picks P2
    shuffles [3, 1]
  }
  expect goal == 8 and first == P2 and nth(order, 1) == 3 and nth(order, 2) == 1
  rolls 3, 3, 5, 5, 5, 2
  play "move", "move", "move", "move", "move", "move"
  expect P1.pos == 8 and P2.pos == 8 and P3.pos == 7
  expect game over
}
"#,
        );
        assert!(reports[0].passed(), "{:?}", reports[0].failure);
    }

    #[test]
    fn a_fixed_roll_the_die_lacks_or_chance_never_drawn_fails() {
        let reports = run_with(
            r#"
scenario "unused" {
  rolls 2, 2
  play "move"
}
scenario "a pick from elsewhere" {
  players 2
  before setup { picks P3 }
}
"#,
        );
        let unused = failure(&reports[0]);
        assert!(
            unused.message.contains("never drawn on"),
            "{}",
            unused.message
        );
        let pick = failure(&reports[1]);
        assert!(pick.message.contains("not among"), "{}", pick.message);
    }

    #[test]
    fn the_same_scenario_gives_the_same_result() {
        let text = r#"
scenario "bots" {
  players 3
  seed 9
  rolls 6
  run until P3.pos > 10
  expect P1.pos == 0
}
"#;
        let a = run_with(text);
        let b = run_with(text);
        let (a, b) = (failure(&a[0]), failure(&b[0]));
        assert_eq!(a.label, b.label);
    }

    #[test]
    fn expect_refused_passes_when_refused_and_fails_when_allowed() {
        let reports = run_with(
            r#"
scenario "refused" {
  expect refused "cheat" because "not allowed"
  expect refused P2 "move"
  expect refused "fly"
  expect P1.pos == 0
}
scenario "allowed" {
  expect refused P1 "move"
}
scenario "another reason" {
  expect refused "cheat" because "too late"
}
"#,
        );
        assert!(reports[0].passed(), "{:?}", reports[0].failure);
        let allowed = failure(&reports[1]);
        assert!(
            allowed.message.contains("P1 may play it"),
            "{}",
            allowed.message
        );
        let other = failure(&reports[2]);
        assert!(
            other.label.contains("cheating is not allowed"),
            "{}",
            other.label
        );
    }

    #[test]
    fn a_rule_failing_in_a_played_move_points_at_the_rule_and_the_move() {
        let reports = run_with(
            r#"
scenario "over the edge" {
  set P1.pos = 28
  rolls 6
  play "move"
}
"#,
        );
        let d = failure(&reports[0]);
        assert_eq!(d.code, "invariant-broken");
        assert!(d.message.contains("nobody passes 30"), "{}", d.message);
        assert_eq!(d.labels[0].message, "P1 played `move` here");
    }

    #[test]
    fn a_failing_and_shows_each_part() {
        let reports = run_with(
            r#"
scenario "parts" {
  expect goal == 20 and P1.pos == 3 and not (first == none)
}
"#,
        );
        let d = failure(&reports[0]);
        assert!(d.label.contains("`goal == 20` is yes"), "{}", d.label);
        assert!(
            d.label.contains("`P1.pos == 3` is no (`P1.pos` is 0)"),
            "{}",
            d.label
        );
    }

    #[test]
    fn invariants_are_checked_after_sets_before_the_game_plays_on() {
        let reports = run_with(
            r#"
scenario "broken" {
  set P1.pos = 40
  expect P1.pos == 40
  play "move"
}
scenario "mended by a later set" {
  set P1.pos = 40
  expect not over
  set P1.pos = 4
  play "move"
}
scenario "over" {
  expect game over
}
"#,
        );
        let broken = failure(&reports[0]);
        assert_eq!(broken.code, "invariant-broken");
        assert_eq!(broken.labels[0].message, "after this `set`");
        assert!(reports[1].passed(), "{:?}", reports[1].failure);
        let over = failure(&reports[2]);
        assert!(over.message.contains("expected the game to be over"));
    }
}

#[cfg(test)]
mod forced_choices {
    use super::*;

    #[test]
    fn a_move_meant_for_a_choice_of_one_option_says_it_was_taken_without_asking() {
        let src = r#"
game "Forced" { players 2 }
player var got: int = 0
flow { for p in players { turn p } }
action take {
  let n = choose me "How many?" from [me.got + 1]
  me.got += n
}
scenario "the forced choice written out" {
  play "take", "1"
}
scenario "a plain wrong move" {
  play "give"
}
"#;
        let loaded = crate::load::check_source("forced.rules", src);
        let program = Arc::new(loaded.program.expect("checks"));
        let reports = run_all(&program);
        let forced = reports[0].failure.as_ref().expect("fails");
        let help = forced.help.as_deref().unwrap_or("");
        assert!(help.contains("taken without asking"), "{help}");
        assert!(help.contains("P1 chose 1 (the only option)"), "{help}");
        let plain = reports[1].failure.as_ref().expect("fails");
        assert!(
            !plain
                .help
                .as_deref()
                .unwrap_or("")
                .contains("without asking"),
            "only where a choice was passed over"
        );
    }
}
