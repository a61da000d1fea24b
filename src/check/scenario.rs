//! Checking and lowering of scenarios, the designer's tests.

use super::scope::Scope;
use super::{consts, Checker};
use crate::diag::{Diagnostic, Span};
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
        let mut before_setup = Vec::new();
        self.scenario_players = Some(self.players.0);
        for (i, step) in sc.steps.iter().enumerate() {
            match &step.kind {
                StepKind::Players(e) | StepKind::Seed(e) => {
                    self.players_or_seed(sc, i, e, &mut players, &mut seed);
                    if let Some(n) = players {
                        self.scenario_players = Some(n.into());
                    }
                }
                StepKind::BeforeSetup(inner) => {
                    let first = sc.steps[..i]
                        .iter()
                        .all(|s| matches!(s.kind, StepKind::Players(_) | StepKind::Seed(_)));
                    if !first {
                        self.error(
                            Diagnostic::error(
                                "misplaced-step",
                                "`before setup` comes first in a scenario, after `players` and `seed`",
                                step.span,
                            )
                            .with_label("after another step")
                            .with_help("move it up, or merge it with the `before setup` above"),
                        );
                    }
                    for s in inner {
                        if let Some(x) = self.step(s, &mut scope, true) {
                            before_setup.push(x);
                        }
                    }
                }
                _ => {
                    if let Some(x) = self.step(step, &mut scope, false) {
                        steps.push(x);
                    }
                }
            }
        }
        self.scenario_players = None;
        self.program.scenarios.push(ir::Scenario {
            title,
            players,
            seed,
            locals: scope.max_slots(),
            before_setup,
            steps,
            span: sc.span,
        });
    }

    /// Step `i` of `sc`, a `players` or `seed` step of value `e`: it must come first, and
    /// its value be a constant (a player count the game allows).
    fn players_or_seed(
        &mut self,
        sc: &ast::ScenarioDecl,
        i: usize,
        e: &ast::Expr,
        players: &mut Option<u8>,
        seed: &mut u64,
    ) {
        let is_players = matches!(sc.steps[i].kind, StepKind::Players(_));
        if i > 1
            || (i == 1 && !matches!(sc.steps[0].kind, StepKind::Players(_) | StepKind::Seed(_)))
        {
            self.error(
                Diagnostic::error(
                    "misplaced-step",
                    "`players` and `seed` come first in a scenario",
                    sc.steps[i].span,
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
                *players = Some(n.clamp(1, 16) as u8);
            }
            Some(n) if n >= 0 => *seed = n as u64,
            _ => self.error(
                Diagnostic::error("not-constant", "this must be a constant number", e.span)
                    .with_label("not a constant")
                    .with_help("write a number, such as `seed 7`"),
            ),
        }
    }

    /// Checks and lowers one step other than `players`, `seed` and `before setup` (or one inside
    /// `before setup`, where only the steps that need no decision may stand).
    // Long because it is one match over every kind of scenario step, an arm its check.
    fn step(
        &mut self,
        step: &ast::Step,
        scope: &mut Scope,
        before_setup: bool,
    ) -> Option<ir::ScenarioStep> {
        if before_setup
            && !matches!(
                step.kind,
                StepKind::Set { .. }
                    | StepKind::Move { .. }
                    | StepKind::Let { .. }
                    | StepKind::Expect(_)
                    | StepKind::Rolls(_)
                    | StepKind::Picks(_)
                    | StepKind::Shuffles(_)
            )
        {
            self.error(
                Diagnostic::error(
                    "misplaced-step",
                    "only `set`, `move`, `let`, `expect`, `rolls`, `picks` and `shuffles` come before setup",
                    step.span,
                )
                .with_label("the game has not started here")
                .with_help("move this step after the `before setup { ... }` block"),
            );
            return None;
        }
        let kind = match &step.kind {
            StepKind::Players(_) | StepKind::Seed(_) | StepKind::BeforeSetup(_) => return None,
            StepKind::Play { seat, moves } => {
                let seat = seat.as_ref().map(|s| {
                    let (x, t) = self.expr(s, scope);
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
                let (x, t) = self.expr(c, scope);
                self.expect_type(&Type::Bool, &t, c.span, "the condition of `run until`");
                K::RunUntil(x)
            }
            // Checked as an assignment: `[i]` and `.field` write the whole place back.
            StepKind::Set {
                place,
                index,
                value,
            } => match self.assign_stmt(place, index, ast::AssignOp::Set, value, scope)? {
                ir::StmtKind::Assign { place, value, .. } => K::Set(place, value),
                _ => unreachable!("an assignment checks to an assignment"),
            },
            StepKind::Move { item, from, to, at } => {
                let (x, t) = self.expr(item, scope);
                let to = self.list_place(to, scope, &t, item.span, "joins")?;
                let from = match from {
                    Some(f) => Some(self.list_place(f, scope, &t, item.span, "leaves")?),
                    None => None,
                };
                let at = at.as_ref().map(|a| {
                    let (x, t) = self.expr(a, scope);
                    self.expect_type(&Type::Int, &t, a.span, "a position in a list");
                    x
                });
                K::Move(Box::new(ir::MoveStep {
                    item: x,
                    from,
                    to,
                    at,
                }))
            }
            StepKind::Let { name, value } => {
                let (v, t) = self.expr(value, scope);
                K::Let(self.bind_local(scope, name, t), v)
            }
            StepKind::Expect(c) => {
                self.in_expect = true;
                let (x, t) = self.expr(c, scope);
                self.in_expect = false;
                self.expect_type(&Type::Bool, &t, c.span, "an expectation");
                K::Expect(x)
            }
            StepKind::ExpectWinners(w) => {
                let (x, t) = self.expr(w, scope);
                self.expect_type(
                    &Type::List(Box::new(Type::Player)),
                    &t,
                    w.span,
                    "the winners",
                );
                K::ExpectWinners(x)
            }
            StepKind::Finish => K::Finish,
            StepKind::ExpectRefused { seat, mv, because } => {
                let seat = seat.as_ref().map(|s| {
                    let (x, t) = self.expr(s, scope);
                    self.expect_type(&Type::Player, &t, s.span, "who plays");
                    x
                });
                let mv = self.plain_text(
                    mv,
                    "write the move as the REPL lists it, such as \"trade P2\"",
                );
                let because = because
                    .as_ref()
                    .map(|b| self.plain_text(b, "write a part of the reason's words"));
                K::ExpectRefused { seat, mv, because }
            }
            StepKind::ExpectOver(over) => K::ExpectOver(*over),
            StepKind::Rolls(faces) => {
                let faces = faces
                    .iter()
                    .map(|f| {
                        let (x, t) = self.expr(f, scope);
                        self.expect_type(&Type::Int, &t, f.span, "a die's face");
                        if let Some(n) = consts::int(f) {
                            self.face_of_a_die(n, f.span);
                        }
                        x
                    })
                    .collect();
                K::Rolls(faces)
            }
            StepKind::Picks(values) => {
                K::Picks(values.iter().map(|v| self.expr(v, scope).0).collect())
            }
            StepKind::Shuffles(order) => {
                let (x, t) = self.expr(order, scope);
                if !matches!(t, Type::List(_) | Type::Error) {
                    self.expect_type(
                        &Type::List(Box::new(Type::Error)),
                        &t,
                        order.span,
                        "the order of a shuffle",
                    );
                }
                K::Shuffles(x)
            }
        };
        Some(ir::ScenarioStep {
            kind,
            span: step.span,
        })
    }

    /// A list of the game that a `move` takes an item out of or puts it into (`verb`: "leaves"
    /// or "joins"), holding elements of the item's type `item`.
    fn list_place(
        &mut self,
        names: &[ast::Name],
        scope: &mut Scope,
        item: &Type,
        item_span: Span,
        verb: &str,
    ) -> Option<(ir::Place, Span)> {
        let span = names[0].span.to(names[names.len() - 1].span);
        let written: Vec<&str> = names.iter().map(|n| n.text.as_str()).collect();
        let written = written.join(".");
        let (place, ty) = self.place(names, scope)?;
        if matches!(place, ir::Place::Local(_)) {
            self.error(
                Diagnostic::error(
                    "type-mismatch",
                    format!("`{written}` is named by this scenario, not part of the game"),
                    span,
                )
                .with_label("a scenario's `let`")
                .with_help(format!(
                    "the item {verb} a list of the game: a variable, a player's variable or a field"
                )),
            );
            return None;
        }
        let Some(element) = ty.element() else {
            self.error(
                Diagnostic::error(
                    "type-mismatch",
                    format!("`{written}` is not a list: an item {verb} a list"),
                    span,
                )
                .with_label(format!("this is {}", self.type_name(&ty)))
                .with_help(
                    "name a list variable, a player's list or a list field, such as `P1.hand`",
                ),
            );
            return None;
        };
        if !element.accepts(item) {
            self.error(
                Diagnostic::error(
                    "type-mismatch",
                    format!(
                        "`{written}` is {}, but the item is {}",
                        self.type_name(&ty),
                        self.type_name(item)
                    ),
                    item_span,
                )
                .with_label(format!("this is {}", self.type_name(item)))
                .with_secondary(span, format!("holds {}", self.type_name(&ty)))
                .with_help(format!(
                    "move {} here, or name a list of {}",
                    self.type_name(&element),
                    self.type_name(item)
                        .trim_start_matches("a ")
                        .trim_start_matches("an ")
                )),
            );
            return None;
        }
        Some((place, span))
    }

    /// A text written without `{...}`, as scenarios quote moves and reasons.
    fn plain_text(&mut self, text: &ast::Text, help: &str) -> String {
        text.literal().unwrap_or_else(|| {
            self.error(
                Diagnostic::error("not-constant", "a move is written as plain text", text.span)
                    .with_label("has `{...}` in it")
                    .with_help(help),
            );
            String::new()
        })
    }

    /// A fixed roll must be a face of some die: the die it meets is known only as it is rolled.
    fn face_of_a_die(&mut self, n: i64, span: crate::diag::Span) {
        let dice = &self.program.dice;
        if dice.iter().any(|d| d.faces.contains(&n)) {
            return;
        }
        let label = if dice.is_empty() {
            "the game has no dice".to_string()
        } else {
            let faces: Vec<String> = dice
                .iter()
                .map(|d| {
                    let shown: Vec<String> = d.faces.iter().map(|f| f.to_string()).collect();
                    format!("`{}` has {}", d.name, shown.join(", "))
                })
                .collect();
            faces.join("; ")
        };
        self.error(
            Diagnostic::error(
                "impossible-roll",
                format!("no die of this game shows {n}"),
                span,
            )
            .with_label(label)
            .with_help("fix a roll to a face the die that is rolled has"),
        );
    }
}
