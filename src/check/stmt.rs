//! Checking and lowering of statements and blocks.

use super::scope::{Scope, Symbol};
use super::Checker;
use crate::diag::{Diagnostic, Span};
use crate::ir::{self, StmtKind as S, Type};
use crate::syntax::ast::{self, AssignOp, LetValue, StmtKind};

impl Checker<'_> {
    /// Checks a block in a nested scope and stores it in the arena.
    pub(crate) fn block(&mut self, b: &ast::Block, scope: &mut Scope, nested: bool) -> ir::BlockId {
        if nested {
            scope.push();
        }
        let stmts = b.stmts.iter().filter_map(|s| self.stmt(s, scope)).collect();
        self.unreachable_after_exit(b);
        if nested {
            scope.pop();
        }
        let id = ir::BlockId(self.program.blocks.len() as u32);
        self.program.blocks.push(ir::Block { stmts });
        id
    }

    /// Warns of statements after a `return`, `break`, `continue` or `end game` in one block:
    /// they can never run.
    fn unreachable_after_exit(&mut self, b: &ast::Block) {
        // A `break` outside a loop is already an error, not an exit.
        let in_loop = self.loops > 0;
        let exits = |k: &StmtKind| match k {
            StmtKind::Return | StmtKind::Finish(..) => true,
            StmtKind::Break | StmtKind::Continue => in_loop,
            _ => false,
        };
        let Some(i) = b.stmts.iter().position(|s| exits(&s.kind)) else {
            return;
        };
        let (Some(exit), Some(next)) = (b.stmts.get(i), b.stmts.get(i + 1)) else {
            return;
        };
        self.error(
            Diagnostic::warning(
                "unreachable-code",
                "this statement can never run",
                next.span,
            )
            .with_label("never reached")
            .with_secondary(exit.span, "the block is left here")
            .with_help("remove it, or put the early exit inside an `if`"),
        );
    }

    /// A body of a loop: `break` and `continue` inside it leave or go on with this loop.
    fn loop_body(&mut self, b: &ast::Block, scope: &mut Scope) -> ir::BlockId {
        self.loops += 1;
        let id = self.block(b, scope, true);
        self.loops -= 1;
        id
    }

    /// The actions `only` names, each an error when it names none.
    fn named_actions(&mut self, only: &[ast::Name]) -> Vec<ir::ActionId> {
        only.iter()
            .filter_map(|n| match self.actions.get(&n.text).copied() {
                Some(a) => {
                    self.use_symbol(Symbol::Action(a));
                    if self.index.is_some() {
                        let key = (true, n.text.clone());
                        if let Some(decl) = self.own_spans.get(&key) {
                            self.note_use(n, *decl);
                        }
                    }
                    Some(a)
                }
                _ => {
                    let names: Vec<String> = self
                        .program
                        .actions
                        .iter()
                        .map(|a| a.name.clone())
                        .collect();
                    let mut d = Diagnostic::error(
                        "unknown-action",
                        format!("no action named `{}`", n.text),
                        n.span,
                    )
                    .with_label("not an action");
                    d = match super::scope::suggest(&n.text, names.iter().map(String::as_str)) {
                        Some(x) => d.with_suggestion(&x),
                        None => {
                            d.with_help(format!("declare it with `action {} {{ ... }}`", n.text))
                        }
                    };
                    self.error(d);
                    None
                }
            })
            .collect()
    }

    /// `window ps only a, d until d`: the seats and actions checked, `d` among the actions,
    /// and hidden slots for the seats, the engine's place in the round and count of declines.
    fn window(
        &mut self,
        players: &ast::Expr,
        only: &[ast::Name],
        until: &ast::Name,
        scope: &mut Scope,
    ) -> S {
        let (ps, pt) = self.expr(players, scope);
        self.expect_type(
            &Type::List(Box::new(Type::Player)),
            &pt,
            players.span,
            "the seats of the window",
        );
        let actions = self.named_actions(only);
        let decline = match only.iter().any(|n| n.text == until.text) {
            true => self
                .named_actions(std::slice::from_ref(until))
                .first()
                .copied(),
            false => {
                // Named, it is meant to be offered: not reported unused as well.
                if let Some(a) = self.actions.get(&until.text).copied() {
                    self.use_symbol(Symbol::Action(a));
                }
                self.error(
                    Diagnostic::error(
                        "window-decline",
                        format!("`{}` is not among the window's actions", until.text),
                        until.span,
                    )
                    .with_label("not listed after `only`")
                    .with_help(format!(
                        "list it: `only {}, {}`",
                        only.iter()
                            .map(|n| n.text.as_str())
                            .collect::<Vec<_>>()
                            .join(", "),
                        until.text
                    )),
                );
                None
            }
        };
        // The round and the declines live in slots no name reaches (a space is in no name).
        scope.push();
        let seats_slot = scope.shadow(" window seats", pt, until.span);
        let seat_slot = scope.shadow(" window seat", Type::Int, until.span);
        let quiet_slot = scope.shadow(" window quiet", Type::Int, until.span);
        scope.pop();
        S::Window {
            players: ps,
            actions,
            decline: decline.unwrap_or(ir::ActionId(0)),
            seats_slot,
            seat_slot,
            quiet_slot,
        }
    }

    fn stmt(&mut self, s: &ast::Stmt, scope: &mut Scope) -> Option<ir::Stmt> {
        let span = s.span;
        let kind = match &s.kind {
            StmtKind::Let { name, ty, value } => self.let_stmt(name, ty.as_ref(), value, scope)?,
            StmtKind::Assign {
                place,
                index,
                op,
                value,
            } => self.assign_stmt(place, index, *op, value, scope)?,
            StmtKind::Remove { place, index, at } => self.remove_at(place, index, at, scope)?,
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                let (c, t) = self.expr(cond, scope);
                self.expect_type(&Type::Bool, &t, cond.span, "the condition of `if`");
                let then = self.block(then, scope, true);
                let otherwise = otherwise.as_ref().map(|b| self.block(b, scope, true));
                S::If {
                    cond: c,
                    then,
                    otherwise,
                }
            }
            StmtKind::For { .. } => self.for_stmt(s, scope)?,
            StmtKind::Repeat { count, body } => {
                let (c, t) = self.expr(count, scope);
                self.expect_type(&Type::Int, &t, count.span, "the count of `repeat`");
                S::Repeat {
                    count: c,
                    body: self.loop_body(body, scope),
                }
            }
            StmtKind::While { cond, body } => {
                let (c, t) = self.expr(cond, scope);
                self.expect_type(&Type::Bool, &t, cond.span, "the condition of `while`");
                S::While {
                    cond: c,
                    body: self.loop_body(body, scope),
                }
            }
            StmtKind::Turn { .. } => self.turn_stmt(s, scope)?,
            StmtKind::Window {
                players,
                only,
                until,
            } => self.window(players, only, until, scope),
            StmtKind::Log(t) => S::Log(self.text(t, scope)),
            StmtKind::Tell { player, text } => {
                let (p, t) = self.expr(player, scope);
                self.expect_type(&Type::Player, &t, player.span, "who is told");
                S::Tell {
                    player: p,
                    text: self.text(text, scope),
                }
            }
            StmtKind::Require { .. } | StmtKind::Prefer(_) => return self.misplaced(s),
            StmtKind::Finish(..) => self.finish_stmt(s, scope)?,
            StmtKind::Eliminate { .. } => self.eliminate_stmt(s, scope)?,
            StmtKind::Reveal { item, shown } => {
                let (x, t) = self.expr(item, scope);
                self.revealed_type(&t, item.span, *shown);
                S::Reveal {
                    item: x,
                    shown: *shown,
                }
            }
            StmtKind::Secretly { .. } => self.secretly_stmt(s, scope)?,
            StmtKind::Call { name, args } => self.call_stmt(name, args, s, scope)?,
            StmtKind::Match { value, arms } => self.match_stmt(value, arms, scope),
            StmtKind::Return => S::Return,
            StmtKind::Break | StmtKind::Continue if self.loops == 0 => return self.misplaced(s),
            StmtKind::Break => S::Break,
            StmtKind::Continue => S::Continue,
        };
        Some(ir::Stmt { kind, span })
    }

    /// Reports a statement that stands where it cannot: a `require` or `prefer` not at the
    /// start of an action, a `break` or `continue` outside a loop. No statement results.
    fn misplaced(&mut self, s: &ast::Stmt) -> Option<ir::Stmt> {
        let span = s.span;
        let diagnostic = match &s.kind {
            StmtKind::Prefer(_) => {
                super::bodies::misplaced_prefer(span, "not at the start of an action")
            }
            StmtKind::Require { .. } => Diagnostic::error(
                "misplaced-require",
                "`require` belongs at the start of an action",
                span,
            )
            .with_label("not at the start of an action")
            .with_help("move it above the action's first effect; elsewhere, use `if`"),
            _ => {
                let word = if matches!(s.kind, StmtKind::Break) {
                    "break"
                } else {
                    "continue"
                };
                Diagnostic::error("misplaced-exit", format!("`{word}` outside a loop"), span)
                    .with_label("no `for`, `repeat` or `while` around it")
                    .with_help(
                        "`break` and `continue` stand inside a loop's body (a `secretly` block is not one); to leave an effect or action, write `return`",
                    )
            }
        };
        self.error(diagnostic);
        None
    }

    /// `for x in xs where cond { ... }`: the loop's slot bound for its body.
    fn for_stmt(&mut self, s: &ast::Stmt, scope: &mut Scope) -> Option<S> {
        let StmtKind::For {
            var,
            source,
            filter,
            body,
        } = &s.kind
        else {
            return None;
        };
        let (src, slot, filter) = self.loop_binding(
            var,
            source,
            filter.as_ref(),
            scope,
            "what `for` ranges over",
        );
        let body = self.loop_body(body, scope);
        scope.pop();
        Some(S::For {
            slot,
            source: src,
            filter,
            body,
        })
    }

    /// `turn p` or `turn p only a, b`: whose turn, and the actions offered.
    fn turn_stmt(&mut self, s: &ast::Stmt, scope: &mut Scope) -> Option<S> {
        let StmtKind::Turn { player, only } = &s.kind else {
            return None;
        };
        let (p, t) = self.expr(player, scope);
        self.expect_type(&Type::Player, &t, player.span, "whose turn it is");
        let actions = if only.is_empty() {
            let all: Vec<ir::ActionId> = (0..self.program.actions.len() as u32)
                .map(ir::ActionId)
                .collect();
            for a in &all {
                self.use_symbol(Symbol::Action(*a));
            }
            all
        } else {
            self.named_actions(only)
        };
        if self.program.actions.is_empty() {
            self.error(
                Diagnostic::error(
                    "unknown-action",
                    "a turn, but the game has no actions",
                    s.span,
                )
                .with_label("nothing to choose from")
                .with_help("declare an action, such as `action pass { }`"),
            );
        }
        Some(S::Turn { player: p, actions })
    }

    /// `end game "why" winners xs`.
    fn finish_stmt(&mut self, s: &ast::Stmt, scope: &mut Scope) -> Option<S> {
        let StmtKind::Finish(t, winners) = &s.kind else {
            return None;
        };
        let why = t.as_ref().map(|t| self.text(t, scope));
        let winners = winners.as_ref().map(|w| {
            let (x, ty) = self.expr(w, scope);
            self.expect_type(
                &Type::List(Box::new(Type::Player)),
                &ty,
                w.span,
                "the winners of this ending",
            );
            x
        });
        Some(S::Finish(why, winners))
    }

    /// `eliminate p "why"`: one player, not a list of them.
    fn eliminate_stmt(&mut self, s: &ast::Stmt, scope: &mut Scope) -> Option<S> {
        let StmtKind::Eliminate { player, reason } = &s.kind else {
            return None;
        };
        let (p, t) = self.expr(player, scope);
        if t == Type::List(Box::new(Type::Player)) {
            self.error(
                Diagnostic::error(
                    "eliminate-list",
                    "`eliminate` takes out one player, and this is a list of players",
                    player.span,
                )
                .with_label("a list of players")
                .with_help("take them out one at a time: `for p in xs { eliminate p }`"),
            );
        } else {
            self.expect_type(&Type::Player, &t, player.span, "who is out of the game");
        }
        Some(S::Eliminate {
            player: p,
            reason: reason.as_ref().map(|t| self.text(t, scope)),
        })
    }

    /// `secretly each p in ps choose ...`: the choosers' and the choice's slots bound for its block.
    fn secretly_stmt(&mut self, s: &ast::Stmt, scope: &mut Scope) -> Option<S> {
        let StmtKind::Secretly {
            player,
            players,
            count,
            choice,
            prompt,
            options,
            then,
        } = &s.kind
        else {
            return None;
        };
        let (ps, pt) = self.expr(players, scope);
        self.expect_type(
            &Type::List(Box::new(Type::Player)),
            &pt,
            players.span,
            "who chooses",
        );
        scope.push();
        let player_slot = self.bind_local(scope, player, Type::Player);
        let prompt = self.text(prompt, scope);
        let (opts, ot) = self.expr(options, scope);
        let element = self.element_of(&ot, options.span, "the options");
        self.no_veiled_options(&element, options.span);
        let mut elem = element.clone();
        let count = count.as_ref().map(|c| {
            elem = Type::List(Box::new(elem.clone()));
            self.choose_count(c, options, scope)
        });
        let choice_slot = self.bind_local(scope, choice, elem);
        // The block runs once per chooser: a loop of the engine's, not the designer's.
        let loops = std::mem::replace(&mut self.loops, 0);
        let then = self.block(then, scope, true);
        self.loops = loops;
        scope.pop();
        Some(S::Secretly {
            player_slot,
            players: ps,
            count,
            choice_slot,
            prompt,
            options: opts,
            element,
            asked: false,
            then,
        })
    }

    fn let_stmt(
        &mut self,
        name: &ast::Name,
        written: Option<&ast::TypeExpr>,
        value: &LetValue,
        scope: &mut Scope,
    ) -> Option<S> {
        let written = written.map(|t| self.local_type(t));
        let (kind, ty) = match value {
            LetValue::Expr(e) => self.let_expr(name, written.as_ref(), e, scope),
            LetValue::Choose { .. } => self.let_choose(value, scope)?,
            LetValue::Ask { .. } => self.let_ask(name, value, scope)?,
            LetValue::Roll { .. } => self.let_roll(value, scope)?,
            LetValue::Random(e) => {
                let (x, t) = self.expr(e, scope);
                let elem = self.element_of(&t, e.span, "what `random` picks from");
                (S::Random { slot: 0, from: x }, elem)
            }
            LetValue::Shuffle(e) => {
                let (x, t) = self.expr(e, scope);
                self.element_of(&t, e.span, "what `shuffle` shuffles");
                (S::Shuffle { slot: 0, from: x }, t)
            }
            LetValue::Pop { .. } => self.let_pop(value, scope)?,
        };
        // A decision's or chance's value of the type written, which the local then has.
        let ty = match written {
            Some(w) if !matches!(value, LetValue::Expr(_)) => {
                self.expect_type(&w, &ty, name.span, "the local's value");
                w
            }
            _ => ty,
        };
        // Bound after the value is checked, so `let x = x + 1` refers to the outer x.
        let slot = self.bind_local(scope, name, ty);
        Some(match kind {
            S::Let(_, x) => S::Let(slot, x),
            S::Choose {
                player,
                prompt,
                options,
                secret,
                count,
                element,
                asked,
                ..
            } => S::Choose {
                slot,
                player,
                prompt,
                options,
                secret,
                count,
                element,
                asked,
            },
            S::Ask {
                player,
                prompt,
                yes,
                no,
                ..
            } => S::Ask {
                slot,
                player,
                prompt,
                yes,
                no,
            },
            S::Roll { count, die, .. } => S::Roll { slot, count, die },
            S::Random { from, .. } => S::Random { slot, from },
            S::Shuffle { from, .. } => S::Shuffle { slot, from },
            S::Pop {
                count,
                place,
                path,
                at,
                ..
            } => S::Pop {
                slot,
                count,
                place,
                path,
                at,
            },
            other => other,
        })
    }

    /// `let x = expr`, `let x: card = expr`: the value, of the type written if one is.
    fn let_expr(
        &mut self,
        name: &ast::Name,
        written: Option<&Type>,
        e: &ast::Expr,
        scope: &mut Scope,
    ) -> (S, Type) {
        let (x, t) = self.expr(e, scope);
        match written {
            Some(w) => {
                let x = self.value_for(w, x, &t, e.span, "the local's value");
                (S::Let(0, x), w.clone())
            }
            None => {
                if t == Type::Nothing {
                    self.untyped_none(name, e.span);
                    // Reported once: what reads the local later is not reported again.
                    return (S::Let(0, x), Type::Error);
                }
                (S::Let(0, x), t)
            }
        }
    }

    /// The type written in `let x: card = ...`; a local takes no bounds (it is never clamped).
    fn local_type(&mut self, t: &ast::TypeExpr) -> Type {
        let (ty, bounds) = self.resolve_type(t);
        if bounds.is_some() {
            self.error(
                Diagnostic::error(
                    "type-mismatch",
                    "a local's type takes no bounds: nothing would hold it in them",
                    t.span(),
                )
                .with_label("bounds on a local")
                .with_help("write `int`; bounds belong to the game's variables and fields"),
            );
        }
        ty
    }

    /// `let x = none`: a local of no type, which later code could not read fields of.
    fn untyped_none(&mut self, name: &ast::Name, span: Span) {
        self.error(
            Diagnostic::error(
                "none-needs-type",
                format!(
                    "`{}` starts as `none`, which has no type of its own",
                    name.text
                ),
                span,
            )
            .with_label("of no type")
            .with_help(format!(
                "write the type it will hold: `let {}: card = none` (a kind, an enum or `player`)",
                name.text
            )),
        );
    }

    /// `let x = choose ...`: the statement, its slot still to bind, and the type bound.
    fn let_choose(&mut self, value: &LetValue, scope: &mut Scope) -> Option<(S, Type)> {
        let LetValue::Choose {
            player,
            prompt,
            options,
            secret,
            count,
            always_ask,
        } = value
        else {
            return None;
        };
        let (p, pt) = self.expr(player, scope);
        self.expect_type(&Type::Player, &pt, player.span, "who chooses");
        if let Some(span) = always_ask {
            self.needless_always_ask(*span, count.is_some());
        }
        let prompt = self.text(prompt, scope);
        let (o, ot) = self.expr(options, scope);
        let element = self.element_of(&ot, options.span, "the options");
        self.no_veiled_options(&element, options.span);
        let mut elem = element.clone();
        let count = count.as_ref().map(|c| {
            elem = Type::List(Box::new(elem.clone()));
            self.choose_count(c, options, scope)
        });
        Some((
            S::Choose {
                slot: 0,
                player: p,
                prompt,
                options: o,
                secret: *secret,
                count,
                element,
                asked: always_ask.is_some(),
            },
            elem,
        ))
    }

    /// `let x = ask ...`: the statement, its slot still to bind, and the type bound.
    fn let_ask(
        &mut self,
        name: &ast::Name,
        value: &LetValue,
        scope: &mut Scope,
    ) -> Option<(S, Type)> {
        let LetValue::Ask {
            player,
            prompt,
            words,
        } = value
        else {
            return None;
        };
        let (p, pt) = self.expr(player, scope);
        self.expect_type(&Type::Player, &pt, player.span, "who is asked");
        let prompt = self.text(prompt, scope);
        let (yes, no) = words
            .as_ref()
            .map_or(("yes".to_string(), "no".to_string()), |(y, n)| {
                (y.text.clone(), n.text.clone())
            });
        if yes == no {
            let span = words.as_ref().map_or(name.span, |w| w.1.span);
            self.error(
                Diagnostic::error(
                    "duplicate-definition",
                    "both answers have the same word",
                    span,
                )
                .with_label("same as the first answer")
                .with_help("give the two answers different words, such as `(accept, refuse)`"),
            );
        }
        Some((
            S::Ask {
                slot: 0,
                player: p,
                prompt,
                yes,
                no,
            },
            Type::Bool,
        ))
    }

    /// `let x = roll ...`: the statement, its slot still to bind, and the type bound.
    fn let_roll(&mut self, value: &LetValue, scope: &mut Scope) -> Option<(S, Type)> {
        let LetValue::Roll { count, die } = value else {
            return None;
        };
        let die_id = match self.symbols.get(&die.text).map(|s| s.0) {
            Some(Symbol::Die(d)) => {
                self.use_symbol(Symbol::Die(d));
                self.note_symbol_use(die);
                d
            }
            _ => {
                let dice: Vec<String> = self.program.dice.iter().map(|d| d.name.clone()).collect();
                let mut d = Diagnostic::error(
                    "unknown-die",
                    format!("no die named `{}`", die.text),
                    die.span,
                )
                .with_label("not a die");
                d = match super::scope::suggest(&die.text, dice.iter().map(String::as_str)) {
                    Some(x) => d.with_suggestion(&x),
                    None => d.with_help(format!("declare it, such as `die {}: 1..6`", die.text)),
                };
                self.error(d);
                ir::DieId(0)
            }
        };
        let count = count.as_ref().map(|c| {
            let (x, t) = self.expr(c, scope);
            self.expect_type(&Type::Int, &t, c.span, "the number of dice");
            x
        });
        let ty = if count.is_some() {
            Type::List(Box::new(Type::Int))
        } else {
            Type::Int
        };
        Some((
            S::Roll {
                slot: 0,
                count,
                die: die_id,
            },
            ty,
        ))
    }

    /// `let x = pop ...`: the statement, its slot still to bind, and the type bound.
    fn let_pop(&mut self, value: &LetValue, scope: &mut Scope) -> Option<(S, Type)> {
        let LetValue::Pop {
            count,
            place,
            index,
            at,
        } = value
        else {
            return None;
        };
        if let (Some(c), Some(i)) = (count, at) {
            self.error(
                Diagnostic::error(
                    "pop-count-and-position",
                    "`pop` takes either the last few (`pop n of xs`) or one at a position (`pop xs at i`), not both",
                    c.span.to(i.span),
                )
                .with_label("a count and a position")
                .with_help("take one element at a time: `let x = pop xs at i`"),
            );
        }
        // Read as `pop xs at i` after the report, so that the name is still bound.
        let count = count.as_ref().filter(|_| at.is_none()).map(|c| {
            let (x, t) = self.expr(c, scope);
            self.expect_type(&Type::Int, &t, c.span, "how many are taken off");
            x
        });
        let at = at.as_ref().map(|i| self.position(i, scope));
        let (target, path, ty, elem) =
            self.list_taken_from(place, index, "what `pop` takes from", scope)?;
        let ty = if count.is_some() { ty } else { elem };
        Some((
            S::Pop {
                slot: 0,
                count,
                place: target,
                path,
                at,
            },
            ty,
        ))
    }

    /// `place = v`, `place[i] = v`, `v.field = x` and `xs[i].field += n`: the whole place
    /// written, or one element or field of it (`assign_at`). A place whose names end in fields
    /// of a record (`p.bid.amount`) writes the record back whole.
    pub(super) fn assign_stmt(
        &mut self,
        place: &[ast::Name],
        index: &[(ast::PlaceStep, Span)],
        op: AssignOp,
        value: &ast::Expr,
        scope: &mut Scope,
    ) -> Option<S> {
        let (v, vt) = self.expr(value, scope);
        let (target, ty, fields) = self.place_steps(place, scope)?;
        if fields == 0 && index.is_empty() {
            let span = place[0].span.to(place[place.len() - 1].span);
            return Some(self.assign(target, ty, span, op, (v, vt), value.span));
        }
        let first = place[0].span;
        let mut steps: Vec<(ast::PlaceStep, Span)> = place[place.len() - fields..]
            .iter()
            .map(|f| (ast::PlaceStep::Field(f.clone()), first.to(f.span)))
            .collect();
        steps.extend(index.iter().cloned());
        self.assign_at((target, ty), &steps, op, (v, vt), value.span, scope)
    }

    fn assign(
        &mut self,
        target: ir::Place,
        ty: Type,
        place_span: Span,
        op: AssignOp,
        (mut v, vt): (ir::Expr, Type),
        value_span: Span,
    ) -> S {
        let mut element = false;
        match (op, ty.element()) {
            (AssignOp::Set, _) => v = self.value_for(&ty, v, &vt, value_span, "the new value"),
            // `xs += ys` joins lists; `xs += x` adds one element; `-=` removes likewise.
            (AssignOp::Add | AssignOp::Sub, Some(elem)) if ty != Type::Error => {
                if !ty.accepts(&vt) {
                    element = true;
                    self.expect_type(
                        &elem,
                        &vt,
                        value_span,
                        "what is added to or removed from the list",
                    );
                }
            }
            (AssignOp::Add | AssignOp::Sub, _) => {
                self.expect_type(
                    &Type::Int,
                    &ty,
                    place_span,
                    "the variable changed by `+=` or `-=`",
                );
                self.expect_type(&Type::Int, &vt, value_span, "the amount");
            }
        }
        S::Assign {
            place: target,
            op,
            value: v,
            element,
        }
    }

    /// A position in a list (`pop xs at i`, `remove xs at i`): a number.
    fn position(&mut self, i: &ast::Expr, scope: &mut Scope) -> ir::Expr {
        let (x, t) = self.expr(i, scope);
        self.expect_type(&Type::Int, &t, i.span, "a position in a list");
        x
    }

    /// `remove xs at i`: `pop xs at i` into a slot no name reaches, the element dropped.
    fn remove_at(
        &mut self,
        place: &[ast::Name],
        index: &[(ast::PlaceStep, Span)],
        at: &ast::Expr,
        scope: &mut Scope,
    ) -> Option<S> {
        let at = self.position(at, scope);
        let (target, path, _, elem) =
            self.list_taken_from(place, index, "what `remove` takes from", scope)?;
        let slot = scope.shadow(" removed", elem, stepped_span(place, index));
        Some(S::Pop {
            slot,
            count: None,
            place: target,
            path,
            at: Some(at),
        })
    }

    /// `xs[i] = v`, `xs[i] += n`, `xs[i] -= n`, and `xs[i][j] = v` a level down: the list
    /// written back whole with the element at position `i` replaced (`Builtin::Replace`; a
    /// level down, the element `xs[i]` itself so replaced first), so that both run paths, the
    /// clamps, the visibility and the bots see an ordinary assignment of the list.
    fn assign_at(
        &mut self,
        (place, ty): (ir::Place, Type),
        index: &[(ast::PlaceStep, Span)],
        op: AssignOp,
        (v, vt): (ir::Expr, Type),
        value_span: Span,
        scope: &mut Scope,
    ) -> Option<S> {
        let whole_span = index.last().map_or(value_span, |(_, t)| *t);
        let kind = match &place {
            ir::Place::Local(s) => ir::ExprKind::Local(*s),
            ir::Place::Global(g) => ir::ExprKind::Global(*g),
            ir::Place::PlayerVar(b, id) => ir::ExprKind::PlayerVar(Box::new(b.clone()), *id),
            ir::Place::Field(b, k, f) => ir::ExprKind::Field(Box::new(b.clone()), *k, *f),
        };
        // Each level: what is indexed (read), the key, and the target's span up to it.
        let mut levels = Vec::with_capacity(index.len());
        let mut container = ir::Expr::new(kind, index[0].1);
        let mut container_ty = ty;
        for (k, (step, target)) in index.iter().enumerate() {
            // A level down, the element indexed is the target up to the level before.
            let indexed = if k == 0 { *target } else { index[k - 1].1 };
            let (i, elem) = self.place_step(&container_ty, step, indexed, scope)?;
            let element = ir::Expr::new(
                ir::ExprKind::Builtin(ir::Builtin::Index, vec![container.clone(), i.clone()]),
                *target,
            );
            levels.push((container, i, *target));
            container = element;
            container_ty = elem;
        }
        let new = match op {
            AssignOp::Set => self.value_for(&container_ty, v, &vt, value_span, "the new element"),
            AssignOp::Add | AssignOp::Sub if container_ty.element().is_some() => {
                self.list_changed_at(op, (container, &container_ty), (v, &vt), value_span)
            }
            AssignOp::Add | AssignOp::Sub => {
                self.expect_type(
                    &Type::Int,
                    &container_ty,
                    whole_span,
                    "the element changed by `+=` or `-=`",
                );
                self.expect_type(&Type::Int, &vt, value_span, "the amount");
                let bin = if op == AssignOp::Add {
                    ast::BinOp::Add
                } else {
                    ast::BinOp::Sub
                };
                ir::Expr::new(
                    ir::ExprKind::Binary(bin, Box::new(container), Box::new(v)),
                    whole_span.to(value_span),
                )
            }
        };
        // Written back from the innermost level out.
        let whole = levels
            .into_iter()
            .rev()
            .fold(new, |new, (read, i, target)| {
                ir::Expr::new(
                    ir::ExprKind::Builtin(ir::Builtin::Replace, vec![read, i, new]),
                    target,
                )
            });
        Some(S::Assign {
            place,
            op: AssignOp::Set,
            value: whole,
            element: false,
        })
    }

    /// One `[i]` or `.field` step of a place: the position (from 1) it reads in the value
    /// before it, whose type is `container_ty`, and the type of what it reaches. `indexed` is
    /// the span of what the step is taken of.
    fn place_step(
        &mut self,
        container_ty: &Type,
        step: &ast::PlaceStep,
        indexed: Span,
        scope: &mut Scope,
    ) -> Option<(ir::Expr, Type)> {
        Some(match step {
            ast::PlaceStep::Index(at) => {
                let (i, it) = self.expr(at, scope);
                let mut elem = self.index_element(container_ty, indexed)?;
                let i = self.index_key(container_ty, i, &it, at.span, &mut elem);
                (i, elem)
            }
            ast::PlaceStep::Field(f) => match container_ty {
                Type::Record(r) => self.field_position(*r, f)?,
                Type::Error => return None,
                other => {
                    self.no_field_here(other, f);
                    return None;
                }
            },
        })
    }

    /// `decks[l] += c`, `decks[l] -= c` (or a list of them): the list `decks[l]` reads,
    /// `element`, with the value added at its end or removed (one equal element each, as
    /// `xs -= x` removes), to be written back as [`Self::assign_at`] writes.
    fn list_changed_at(
        &mut self,
        op: AssignOp,
        (element, element_ty): (ir::Expr, &Type),
        (v, vt): (ir::Expr, &Type),
        value_span: Span,
    ) -> ir::Expr {
        let span = element.span.to(value_span);
        // A list of the same type is joined or taken away; anything else is one element.
        let one = !element_ty.accepts(vt);
        if one {
            if let Some(elem) = element_ty.element() {
                self.expect_type(
                    &elem,
                    vt,
                    value_span,
                    "what is added to or removed from the list",
                );
            }
        }
        let kind = match op {
            AssignOp::Add => {
                let added = if one {
                    ir::Expr::new(ir::ExprKind::List(vec![v]), value_span)
                } else {
                    v
                };
                ir::ExprKind::Binary(ast::BinOp::Add, Box::new(element), Box::new(added))
            }
            _ => {
                let one = ir::Value::Bool(ir::Truth::new(one));
                let one = ir::Expr::new(ir::ExprKind::Const(one), value_span);
                ir::ExprKind::Builtin(ir::Builtin::Without, vec![element, v, one])
            }
        };
        ir::Expr::new(kind, span)
    }

    /// `xs[i].field` where `xs[i]` is no record: an instance's or a player's field is changed
    /// through a name, and anything else has no fields.
    fn no_field_here(&mut self, ty: &Type, f: &ast::Name) {
        let t = self.type_name(ty);
        let (message, help) = if matches!(ty, Type::Entity(_) | Type::Player) {
            (
                format!("only a record's field can be changed here, and this is {t}"),
                format!(
                    "name it first: `let x = ...` of what stands before `.{0}`, then `x.{0} = ...`",
                    f.text
                ),
            )
        } else {
            (
                format!("{t} has no field `{}`", f.text),
                "`.field` reaches a field of a record, an instance or a player".to_string(),
            )
        };
        self.error(
            Diagnostic::error("type-mismatch", message, f.span)
                .with_label(format!("`.{}` of {t}", f.text))
                .with_help(help),
        );
    }

    /// The list `pop` or `remove` takes from: the place, the positions (outermost first) of
    /// the steps of `xs[i].cards[j]` taken into its value, the type of the list reached and
    /// of its elements (`what` names the list where it is none).
    fn list_taken_from(
        &mut self,
        place: &[ast::Name],
        index: &[(ast::PlaceStep, Span)],
        what: &str,
        scope: &mut Scope,
    ) -> Option<(ir::Place, Vec<ir::Expr>, Type, Type)> {
        let (target, ty) = self.place(place, scope)?;
        if let Some((_, far)) = index.get(ir::MAX_PATH) {
            // The step past the last one allowed: from the end of the target up to it.
            let far = &Span {
                start: index[ir::MAX_PATH - 1].1.end,
                ..*far
            };
            self.error(
                Diagnostic::error(
                    "too-deep",
                    format!(
                        "`pop` and `remove` reach at most {} steps into a list",
                        ir::MAX_PATH
                    ),
                    *far,
                )
                .with_label("a step too many")
                .with_help(
                    "name the inner list first (`let row = ...`), take from it, and write it back",
                ),
            );
            return None;
        }
        let mut path = Vec::with_capacity(index.len());
        let mut reached = ty;
        for (k, (step, target)) in index.iter().enumerate() {
            let indexed = if k == 0 { *target } else { index[k - 1].1 };
            let (i, elem) = self.place_step(&reached, step, indexed, scope)?;
            path.push(i);
            reached = elem;
        }
        let elem = self.element_of(&reached, stepped_span(place, index), what);
        Some((target, path, reached, elem))
    }

    /// The place `a.b.c` names (a variable, a local, a player's variable or an instance's
    /// field), for a statement that takes or writes a whole list: a record's field is refused
    /// there.
    pub(crate) fn place(
        &mut self,
        place: &[ast::Name],
        scope: &mut Scope,
    ) -> Option<(ir::Place, Type)> {
        let (target, ty, fields) = self.place_steps(place, scope)?;
        if fields > 0 {
            let field = &place[place.len() - fields];
            self.error(
                Diagnostic::error(
                    "type-mismatch",
                    format!("`{}` is a record's field, which this cannot take from or set", field.text),
                    field.span,
                )
                .with_label("a field of a record")
                .with_help("take the field into a `let`, change it, and write it back with `v.field = ...`"),
            );
            return None;
        }
        Some((target, ty))
    }

    /// The place `a.b.c` names, its type, and how many of its last names are fields of a
    /// record it holds (`p.bid.amount`: the place `p.bid`, and one field).
    pub(crate) fn place_steps(
        &mut self,
        place: &[ast::Name],
        scope: &mut Scope,
    ) -> Option<(ir::Place, Type, usize)> {
        let first = &place[0];
        // A local or a variable of the game holding a record: the names after it are fields.
        let holds_record = match scope.lookup(&first.text) {
            Some((_, ty)) => matches!(ty, Type::Record(_)),
            None => match self.symbols.get(&first.text).map(|s| s.0) {
                Some(Symbol::Global(id)) => {
                    matches!(self.program.globals[id.index()].ty, Type::Record(_))
                }
                _ => false,
            },
        };
        if place.len() == 1 || holds_record {
            let (target, ty) = self.named_place(first, scope)?;
            return self.record_steps(place, 1, target, ty);
        }
        // `a.b.c = v`: the first name an expression, then fields of players and instances,
        // until a record's.
        let mut base = ast::Expr {
            kind: ast::ExprKind::Name(first.clone()),
            span: first.span,
        };
        if first.text == "me" {
            base.kind = ast::ExprKind::Me;
        }
        let (mut b, mut bt) = self.expr(&base, scope);
        for (n, field) in place.iter().enumerate().skip(1) {
            let span = first.span.to(field.span);
            let (lowered, ty) = self.field_expr(b.clone(), &bt, field, span);
            let target = match lowered.kind {
                ir::ExprKind::PlayerVar(_, id) => ir::Place::PlayerVar(b, id),
                ir::ExprKind::Field(_, k, f) => {
                    self.program.kinds[k.index()].mutable = true;
                    ir::Place::Field(b, k, f)
                }
                _ => {
                    if !matches!(bt, Type::Error) && !matches!(ty, Type::Error) {
                        self.error(
                            Diagnostic::error("type-mismatch", format!("`{}` cannot be changed", first.text), first.span)
                                .with_label("not a variable")
                                .with_help("only variables, per-player variables, fields of instances and fields of records held in them can be set"),
                        );
                    }
                    return None;
                }
            };
            if matches!(ty, Type::Record(_)) || n + 1 == place.len() {
                return self.record_steps(place, n + 1, target, ty);
            }
            b = lowered;
            bt = ty;
        }
        None
    }

    /// A place reached after `at` names: the rest of `place` are fields of the record it holds.
    fn record_steps(
        &mut self,
        place: &[ast::Name],
        at: usize,
        target: ir::Place,
        ty: Type,
    ) -> Option<(ir::Place, Type, usize)> {
        let rest = place.len() - at;
        if rest > 0 && !matches!(ty, Type::Record(_) | Type::Error) {
            // The fields of what is no record: reported as a read of them would be.
            let none = super::const_expr(ir::Value::None, place[at].span);
            let span = place[0].span.to(place[at].span);
            let (_, t) = self.field_expr(none, &ty, &place[at], span);
            if t != Type::Error {
                self.error(
                    Diagnostic::error("type-mismatch", format!("`{}` cannot be changed through `{}`", place[at].text, place[at - 1].text), place[at].span)
                        .with_label("not a variable")
                        .with_help("only variables, per-player variables, fields of instances and fields of records held in them can be set"),
                );
            }
            return None;
        }
        Some((target, ty, rest))
    }

    /// A place of one name: a local or a variable of the game.
    fn named_place(&mut self, first: &ast::Name, scope: &mut Scope) -> Option<(ir::Place, Type)> {
        if let Some((slot, ty)) = scope.lookup(&first.text) {
            self.note_local_use(first, scope);
            return Some((ir::Place::Local(slot), ty));
        }
        match self.symbols.get(&first.text).map(|s| s.0) {
            Some(Symbol::Global(id)) => {
                self.use_symbol(Symbol::Global(id));
                self.note_symbol_use(first);
                Some((
                    ir::Place::Global(id),
                    self.program.globals[id.index()].ty.clone(),
                ))
            }
            Some(_) => {
                self.error(
                    Diagnostic::error(
                        "type-mismatch",
                        format!("`{}` cannot be changed", first.text),
                        first.span,
                    )
                    .with_label("not a variable")
                    .with_help(
                        "only variables, per-player variables and fields of instances can be set",
                    ),
                );
                None
            }
            None => {
                let mut names = scope.names();
                names.extend(self.program.globals.iter().map(|g| g.name.clone()));
                self.unknown_name(
                    first,
                    names.iter().map(String::as_str),
                    "no variable has this name",
                );
                None
            }
        }
    }

    fn call_stmt(
        &mut self,
        name: &ast::Name,
        args: &[ast::Expr],
        s: &ast::Stmt,
        scope: &mut Scope,
    ) -> Option<S> {
        if self.actions.contains_key(&name.text) && !self.symbols.contains_key(&name.text) {
            self.error(
                Diagnostic::error("type-mismatch", format!("`{}` is an action, which players choose", name.text), s.span)
                    .with_label("actions are not called")
                    .with_help("offer it with `turn p only ...`, or move its effects into an `effect` both can run"),
            );
            return None;
        }
        match self.symbols.get(&name.text).map(|s| s.0) {
            Some(Symbol::Proc(id)) => {
                self.use_symbol(Symbol::Proc(id));
                self.note_symbol_use(name);
                let sig = self.proc_sigs.get(id.index()).cloned().unwrap_or_default();
                let lowered: Vec<(ir::Expr, Type)> =
                    args.iter().map(|a| self.expr(a, scope)).collect();
                if sig.len() != args.len() {
                    self.arity_error(name, sig.len(), args.len(), s.span);
                    return None;
                }
                let mut out = Vec::new();
                for (((x, t), want), a) in lowered.into_iter().zip(&sig).zip(args) {
                    self.expect_type(want, &t, a.span, "an argument");
                    out.push(x);
                }
                Some(S::Call {
                    proc: id,
                    args: out,
                })
            }
            Some(Symbol::Def(_)) => {
                self.error(
                    Diagnostic::error(
                        "type-mismatch",
                        format!("`{}` computes a value but does nothing", name.text),
                        s.span,
                    )
                    .with_label("its value is thrown away")
                    .with_help(format!(
                        "use it in an expression, such as `let x = {}(...)`",
                        name.text
                    )),
                );
                None
            }
            _ => {
                let procs: Vec<String> =
                    self.program.procs.iter().map(|p| p.name.clone()).collect();
                self.unknown_name(
                    name,
                    procs.iter().map(String::as_str),
                    "no effect or phase has this name",
                );
                None
            }
        }
    }
}

impl Checker<'_> {
    /// Warns of an `always ask` on a choice that is asked anyway: in a game that says `always
    /// ask` in its header, or on a choice of several (picking none of one option is a choice).
    fn needless_always_ask(&mut self, span: crate::diag::Span, several: bool) {
        let why = if self.program.always_ask {
            "the game's header says `always ask`: every choice is asked already"
        } else if several {
            "a choice of several is always asked"
        } else {
            return;
        };
        self.error(
            Diagnostic::warning(
                "needless-always-ask",
                "this `always ask` changes nothing",
                span,
            )
            .with_label(why)
            .with_help("remove it"),
        );
    }

    /// Refuses a `reveal` or `conceal` of anything but one instance of a kind: only an
    /// instance carries the mark that shows it wherever it lies.
    fn revealed_type(&mut self, t: &Type, span: crate::diag::Span, shown: bool) {
        let word = if shown { "reveal" } else { "conceal" };
        let help = match t {
            Type::Entity(_) | Type::Error => return,
            Type::List(inner) if matches!(**inner, Type::Entity(_)) => {
                format!("{word} them one at a time: `for c in xs {{ {word} c }}`")
            }
            Type::Nothing => format!("{word} an instance of a kind, not `none`"),
            _ => "only an instance of a kind can be revealed; show another value with a \
                  variable or field `visible when` a condition holds"
                .to_string(),
        };
        let message = format!(
            "`{word}` takes one instance of a kind, and this is {}",
            self.type_name(t)
        );
        self.error(
            Diagnostic::error("reveal-not-instance", message, span)
                .with_label("not an instance")
                .with_help(help),
        );
    }
}

/// The span of a place and its `[i]` and `.field` steps: `p.rows[2]`.
fn stepped_span(place: &[ast::Name], index: &[(ast::PlaceStep, Span)]) -> Span {
    let names = place[0].span.to(place[place.len() - 1].span);
    index.last().map_or(names, |(_, target)| *target)
}
