//! Checking and lowering of scenarios, the designer's tests.

use super::scope::Scope;
use super::{consts, Checker};
use crate::diag::Diagnostic;
use crate::ir::{self, ScenarioStepKind as K, Type};
use crate::syntax::ast::{self, StepKind};

impl Checker<'_> {
    /// Lowers a scenario; seat names (P1, P2, ... or the game's own) are players in it.
    pub(crate) fn scenario(&mut self, sc: &ast::ScenarioDecl) {
        self.current = None;
        let mut scope = Scope::new(false);
        for p in 0..self.program.max_players.max(1) {
            let name = self.program.seat_name(p);
            if name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                scope.shadow(&name, Type::Player, sc.span);
            } else {
                // Keep slot numbers equal to seat numbers even for names that cannot be written.
                scope.shadow(" ", Type::Player, sc.span);
            }
        }
        let title = sc.title.literal().unwrap_or_default();
        let mut players = None;
        let mut seed = 1u64;
        let mut steps = Vec::new();
        for (i, step) in sc.steps.iter().enumerate() {
            let kind = match &step.kind {
                StepKind::Players(e) | StepKind::Seed(e) => {
                    let is_players = matches!(step.kind, StepKind::Players(_));
                    if i > 1
                        || (i == 1
                            && !matches!(
                                sc.steps[0].kind,
                                StepKind::Players(_) | StepKind::Seed(_)
                            ))
                    {
                        self.error(
                            Diagnostic::error(
                                "misplaced-step",
                                "`players` and `seed` come first in a scenario",
                                step.span,
                            )
                            .with_label("after another step")
                            .with_help("move it to the top of the scenario"),
                        );
                    }
                    match consts::int(e) {
                        Some(n) if is_players => {
                            if n < self.players.0 || n > self.players.1 {
                                self.error(
                                    Diagnostic::error(
                                        "invalid-players",
                                        format!("the game is not for {n} players"),
                                        e.span,
                                    )
                                    .with_label(format!(
                                        "the game allows {} to {}",
                                        self.players.0, self.players.1
                                    ))
                                    .with_help("choose a player count the game allows"),
                                );
                            }
                            players = Some(n.clamp(1, 16) as u8);
                        }
                        Some(n) if n >= 0 => seed = n as u64,
                        _ => self.error(
                            Diagnostic::error(
                                "not-constant",
                                "this must be a constant number",
                                e.span,
                            )
                            .with_label("not a constant")
                            .with_help("write a number, such as `seed 7`"),
                        ),
                    }
                    continue;
                }
                StepKind::Play { seat, moves } => {
                    let seat = seat.as_ref().map(|s| {
                        let (x, t) = self.expr(s, &mut scope);
                        self.expect_type(&Type::Player, &t, s.span, "who plays");
                        x
                    });
                    let moves = moves
                        .iter()
                        .map(|m| {
                            m.literal().unwrap_or_else(|| {
                                self.error(
                                    Diagnostic::error(
                                        "not-constant",
                                        "a move is written as plain text",
                                        m.span,
                                    )
                                    .with_label("has `{...}` in it")
                                    .with_help(
                                        "write the move as the REPL lists it, such as \"trade P2\"",
                                    ),
                                );
                                String::new()
                            })
                        })
                        .collect();
                    K::Play { seat, moves }
                }
                StepKind::RunUntil(c) => {
                    let (x, t) = self.expr(c, &mut scope);
                    self.expect_type(&Type::Bool, &t, c.span, "the condition of `run until`");
                    K::RunUntil(x)
                }
                StepKind::Set { place, value } => {
                    let Some((p, ty)) = self.place(place, &mut scope) else {
                        continue;
                    };
                    let (v, vt) = self.expr(value, &mut scope);
                    self.expect_type(&ty, &vt, value.span, "the new value");
                    K::Set(p, v)
                }
                StepKind::Let { name, value } => {
                    let (v, t) = self.expr(value, &mut scope);
                    K::Let(self.bind_local(&mut scope, name, t), v)
                }
                StepKind::Expect(c) => {
                    let (x, t) = self.expr(c, &mut scope);
                    self.expect_type(&Type::Bool, &t, c.span, "an expectation");
                    K::Expect(x)
                }
                StepKind::ExpectWinners(w) => {
                    let (x, t) = self.expr(w, &mut scope);
                    self.expect_type(
                        &Type::List(Box::new(Type::Player)),
                        &t,
                        w.span,
                        "the winners",
                    );
                    K::ExpectWinners(x)
                }
                StepKind::Finish => K::Finish,
            };
            steps.push(ir::ScenarioStep {
                kind,
                span: step.span,
            });
        }
        self.program.scenarios.push(ir::Scenario {
            title,
            players,
            seed,
            locals: scope.max_slots(),
            steps,
            span: sc.span,
        });
    }
}
