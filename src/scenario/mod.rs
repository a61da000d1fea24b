//! Scenario tests: the designer's own checks, written in a rules file and run by `meeple test`
//! and by `cargo test` for every file in `rules/`.

use crate::bots::{ask_bot, Bot, BotKind};
use crate::diag::{Diagnostic, Span};
use crate::engine::{show, Game};
use crate::ir::{self, BinOp, ExprKind, Program, Scenario, ScenarioStepKind as K, Value};
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

fn steps(program: &Arc<Program>, scenario: &Scenario) -> Result<(), Box<Diagnostic>> {
    let players = scenario.players.unwrap_or(program.min_players);
    let mut game =
        Game::new(program.clone(), players, scenario.seed).map_err(|e| e.to_diagnostic())?;
    let mut locals = vec![Value::None; scenario.locals.max(1)];
    for (p, slot) in locals.iter_mut().enumerate().take(players as usize) {
        *slot = Value::Player(p as u8);
    }
    let mut bots: Vec<Box<dyn Bot>> = (0..players)
        .map(|p| BotKind::Random.make(scenario.seed, p))
        .collect();
    for step in &scenario.steps {
        let span = step.span;
        let runtime = |e: crate::engine::RuntimeError| Box::new(e.to_diagnostic());
        match &step.kind {
            K::Play { seat, moves } => {
                for m in moves {
                    let who = match seat {
                        Some(s) => match game.eval_in(s, &mut locals).map_err(runtime)? {
                            Value::Player(p) => p,
                            _ => {
                                return Err(fail(
                                    span,
                                    "no such seat in this game",
                                    "this seat",
                                    "use a seat the game has",
                                ))
                            }
                        },
                        None => match game.waiting_on().as_slice() {
                            [p] => *p,
                            [] => {
                                return Err(fail(
                                    span,
                                    format!("`{m}`: the game is over"),
                                    "nobody is deciding",
                                    "remove the move, or check why the game ended",
                                ))
                            }
                            many => {
                                let names: Vec<String> =
                                    many.iter().map(|p| game.seat_name(*p)).collect();
                                return Err(fail(
                                    span,
                                    format!(
                                        "`{m}`: {} must decide; which one plays it?",
                                        names.join(", ")
                                    ),
                                    "several seats decide now",
                                    "name the seat, such as `play P2 \"...\"`",
                                ));
                            }
                        },
                    };
                    if let Err(e) = game.apply_label(who, m) {
                        return Err(fail(
                            span,
                            format!("{} cannot play `{m}`: {e}", game.seat_name(who)),
                            "this move was refused",
                            "check the moves with `meeple play` and `moves`",
                        ));
                    }
                }
            }
            K::RunUntil(cond) => loop {
                // Stops when the condition holds or when the game ends, whichever comes first.
                if game.is_over() || truth(&game, cond, &mut locals)? {
                    break;
                }
                let seat = game.waiting_on()[0];
                let index = ask_bot(&game, seat, bots[seat as usize].as_mut()).unwrap_or(0);
                game.apply(seat, index).map_err(|e| {
                    fail(
                        span,
                        format!("a bot's move failed: {e}"),
                        "while running",
                        "fix the rule that failed",
                    )
                })?;
            },
            K::Let(slot, value) => {
                locals[*slot as usize] = game.eval_in(value, &mut locals).map_err(runtime)?;
            }
            K::Set(place, value) => {
                let v = game.eval_in(value, &mut locals).map_err(runtime)?;
                game.set_place(place, v, &mut locals).map_err(runtime)?;
            }
            K::Expect(cond) => {
                if !truth(&game, cond, &mut locals)? {
                    let src = program.sources.snippet(cond.span).to_string();
                    let detail = explain(&game, cond, &mut locals);
                    return Err(fail(
                        cond.span,
                        format!("expected `{src}`"),
                        detail,
                        "the rules do not do what this scenario expects",
                    ));
                }
            }
            K::ExpectWinners(expected) => {
                let want = game.eval_in(expected, &mut locals).map_err(runtime)?;
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
            }
            K::Finish => {
                game.end_now().map_err(runtime)?;
            }
        }
    }
    Ok(())
}

fn truth(game: &Game, cond: &ir::Expr, locals: &mut [Value]) -> Result<bool, Box<Diagnostic>> {
    match game
        .eval_in(cond, locals)
        .map_err(|e| Box::new(e.to_diagnostic()))?
    {
        Value::Bool(b) => Ok(b),
        _ => Ok(false),
    }
}

/// The values behind a failed expectation: both sides of a comparison, or the value itself.
fn explain(game: &Game, cond: &ir::Expr, locals: &mut [Value]) -> String {
    let program = game.program();
    let mut describe = |e: &ir::Expr| {
        let src = program.sources.snippet(e.span).to_string();
        match game.eval_in(e, locals) {
            Ok(v) => format!("`{src}` is {}", show(program, game.state(), &v)),
            Err(err) => format!("`{src}` fails: {}", err.message),
        }
    };
    match &cond.kind {
        // Constants speak for themselves; describe only the sides that were computed.
        ExprKind::Binary(op, a, b) if !matches!(op, BinOp::And | BinOp::Or) => {
            let sides: Vec<String> = [a, b]
                .into_iter()
                .filter(|e| !matches!(e.kind, ExprKind::Const(_)))
                .map(|e| describe(e))
                .collect();
            sides.join(", ")
        }
        _ => describe(cond),
    }
}
