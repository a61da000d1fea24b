//! The chapters drawn from every body of the rules at once — what is hidden, how the game ends,
//! what always holds — and the walk over statements they share.

use super::build::section;
use super::decls;
use super::expr::{expr, text};
use super::stmt;
use super::{Block, Section};
use crate::diag::SourceMap;
use crate::syntax::ast::{
    Block as Body, Decl, Expr, LetValue, Stmt, StmtKind, TypeExpr, Visibility, VisiblePart,
};

/// Every named body of statements, with the words for where it stands.
pub(super) fn bodies(decls: &[Decl]) -> Vec<(String, &Body)> {
    decls
        .iter()
        .filter_map(|d| match d {
            Decl::Setup(b) => Some(("the setup".to_string(), &b.body)),
            Decl::Flow(b) => Some(("the flow of play".to_string(), &b.body)),
            Decl::Phase(p) => Some((format!("phase {}", p.name.text), &p.body)),
            Decl::Effect(p) => Some((format!("effect {}", p.name.text), &p.body)),
            Decl::Action(a) => Some((format!("action {}", a.name.text), &a.body)),
            _ => None,
        })
        .collect()
}

/// Calls `f` on every statement of a body, nested ones included.
pub(super) fn walk<'a>(body: &'a Body, f: &mut dyn FnMut(&'a Stmt)) {
    for s in &body.stmts {
        f(s);
        for nested in s.kind.bodies() {
            walk(nested, f);
        }
    }
}

/// "What is hidden": secret and hidden values, secret choices, private messages.
pub(super) fn hidden(decls: &[Decl]) -> Section {
    let mut items = Vec::new();
    for d in decls {
        match d {
            Decl::Var(v) => {
                let whose = if v.per_player { "each player's " } else { "" };
                let what = format!("{whose}{}", v.name.text);
                items.extend(hidden_item(
                    &what,
                    v.visibility,
                    v.per_player,
                    &v.ty,
                    (&v.visible_when, &v.visible_part),
                ));
            }
            Decl::Kind(k) => {
                for f in &k.fields {
                    let what = format!("the {} of each {}", f.name.text, k.name.text);
                    items.extend(hidden_item(
                        &what,
                        f.visibility,
                        false,
                        &f.ty,
                        (&f.visible_when, &f.visible_part),
                    ));
                }
            }
            Decl::Record(r) => {
                for f in &r.fields {
                    let what = format!("the {} of each {}", f.name.text, r.name.text);
                    // `secret`: the player whose variable holds the record.
                    items.extend(hidden_item(
                        &what,
                        f.visibility,
                        true,
                        &f.ty,
                        (&f.visible_when, &None),
                    ));
                }
            }
            Decl::Action(a) => {
                for p in a.params.iter().filter(|p| p.secret.is_some()) {
                    items.push(format!(
                        "in action {}, the player moving gives {} in secret; the others read the \
                         move without it",
                        a.name.text, p.name.text
                    ));
                }
            }
            _ => {}
        }
    }
    said_in_bodies(decls, &mut items);
    let mut blocks = vec![Block::Para(
        "Everything not listed here is public: every player sees it, and every move with its \
         choices."
            .to_string(),
    )];
    if items.is_empty() {
        blocks.push(Block::Para("Nothing is hidden in this game.".to_string()));
    } else {
        blocks.push(Block::Items(items));
    }
    section(2, "What is hidden", blocks)
}

/// What the rules' statements keep from some players: secret choices, private lines, and the
/// instances they turn face up for all.
fn said_in_bodies(decls: &[Decl], items: &mut Vec<String>) {
    for (place, body) in bodies(decls) {
        walk(body, &mut |s| match &s.kind {
            StmtKind::Let {
                name,
                value:
                    LetValue::Choose {
                        player,
                        secret: true,
                        prompt,
                        ..
                    },
                ..
            } => {
                let (who, you) = stmt::subject(player);
                items.push(format!(
                    "in {place}, {who} {} {} in secret ({}); the others learn only that a choice \
                     was made",
                    if you { "choose" } else { "chooses" },
                    name.text,
                    text(prompt)
                ));
            }
            StmtKind::Secretly {
                player,
                players,
                choice,
                prompt,
                ..
            } => items.push(format!(
                "in {place}, each {} in {} chooses {} in secret, all at the same time ({}); \
                 the choices are revealed together",
                player.text,
                expr(players),
                choice.text,
                text(prompt)
            )),
            StmtKind::Tell { player, text: t } => {
                let (who, you) = stmt::subject(player);
                items.push(format!(
                    "in {place}, only {who} {} told {}",
                    if you { "are" } else { "is" },
                    text(t)
                ));
            }
            StmtKind::Reveal { item, shown: true } => items.push(format!(
                "in {place}, {} is turned face up: everyone sees it, and where it lies, even \
                 in a hidden place, until it is concealed",
                expr(item)
            )),
            _ => {}
        });
    }
}

/// "How the game ends": the end of the flow, every `end game`, the score and the winners.
pub(super) fn the_end(decls: &[Decl], sources: &SourceMap) -> Section {
    let mut blocks = vec![Block::Para(
        "The game ends when the flow of play reaches its end.".to_string(),
    )];
    let mut early = Vec::new();
    for (place, body) in bodies(decls) {
        walk(body, &mut |s| {
            if let StmtKind::Finish(why, _) = &s.kind {
                early.push(match why {
                    Some(t) => format!("in {place}: {}", text(t)),
                    None => format!("in {place}"),
                });
            }
        });
    }
    if !early.is_empty() {
        blocks.push(Block::Para(
            "It also ends at once, as it stands:".to_string(),
        ));
        blocks.push(Block::Items(early));
    }
    let mut out = Vec::new();
    for (place, body) in bodies(decls) {
        walk(body, &mut |s| {
            if let StmtKind::Eliminate { reason, .. } = &s.kind {
                out.push(match reason {
                    Some(t) => format!("in {place}: {}", text(t)),
                    None => format!("in {place}"),
                });
            }
        });
    }
    if !out.is_empty() {
        blocks.push(Block::Para(
            "A player may be put out of the game, and then takes no more turns:".to_string(),
        ));
        blocks.push(Block::Items(out));
        blocks.push(Block::Para(
            "When the last player still in is put out, the game ends.".to_string(),
        ));
    }
    let score = decls.iter().find_map(|d| match d {
        Decl::Score(s) => Some(s),
        _ => None,
    });
    match score {
        Some(s) => {
            blocks.extend(decls::notes_block(sources, s.keyword.span));
            blocks.push(Block::Para(format!(
                "Score: each player {} scores {}.",
                s.player.text,
                expr(&s.body)
            )));
        }
        None => blocks.push(Block::Para("Score: there are no scores.".to_string())),
    }
    let winners = decls.iter().find_map(|d| match d {
        Decl::Winners(w) => Some(w),
        _ => None,
    });
    match winners {
        Some(w) => {
            blocks.extend(decls::notes_block(sources, w.keyword.span));
            blocks.push(Block::Para(format!(
                "Winners: {}. If that leaves nobody, nobody wins.",
                expr(&w.body)
            )));
        }
        None => blocks.push(Block::Para(
            "Winners: the players with the highest score; a tie is a shared win.".to_string(),
        )),
    }
    // The goal is for the bots, but a reader learns from it what the game is about.
    if let Some(g) = decls.iter().find_map(|d| match d {
        Decl::Goal(g) => Some(g),
        _ => None,
    }) {
        blocks.extend(decls::notes_block(sources, g.keyword.span));
        blocks.push(Block::Para(format!(
            "Goal: each player {} plays for {}.",
            g.player.text,
            expr(&g.body)
        )));
    }
    section(2, "How the game ends", blocks)
}

/// "Always true": the invariants.
pub(super) fn invariants(decls: &[Decl]) -> Vec<Section> {
    let items: Vec<String> = decls
        .iter()
        .filter_map(|d| match d {
            Decl::Invariant(i) => Some(decls::invariant_item(i)),
            _ => None,
        })
        .collect();
    if items.is_empty() {
        return Vec::new();
    }
    vec![section(
        2,
        "Always true",
        vec![
            Block::Para(
                "The rules keep these true throughout the game (checked after every decision):"
                    .to_string(),
            ),
            Block::Items(items),
        ],
    )]
}

/// "What the views show": the `show` values, worked out when a view is drawn, and the headings
/// views draw entries under (`section`).
pub(super) fn shows(decls: &[Decl]) -> Vec<Section> {
    let items: Vec<String> = decls
        .iter()
        .filter_map(|d| match d {
            Decl::Show(s) => Some(decls::show_item(s)),
            _ => None,
        })
        .collect();
    let headings: Vec<String> = decls
        .iter()
        .filter_map(|d| match d {
            Decl::Section(s) => Some(decls::section_item(s)),
            _ => None,
        })
        .collect();
    if items.is_empty() && headings.is_empty() {
        return Vec::new();
    }
    let mut blocks = Vec::new();
    if !items.is_empty() {
        blocks.push(Block::Para(
            "Besides the variables, every view shows these values, worked out from the game \
             as it stands; one that reads a player's own secrets is shown to that player only:"
                .to_string(),
        ));
        blocks.push(Block::Items(items));
    }
    if !headings.is_empty() {
        blocks.push(Block::Para(
            "Views draw these under a heading of their own, a player's for each player, and \
             leave out a heading with nothing to draw:"
                .to_string(),
        ));
        blocks.push(Block::Items(headings));
    }
    vec![section(2, "What the views show", blocks)]
}

/// What is hidden of one variable or field, if anything: who sees it, and what others see.
fn hidden_item(
    what: &str,
    vis: Visibility,
    per_player: bool,
    ty: &TypeExpr,
    (visible_when, part): (&Option<Box<Expr>>, &Option<Box<VisiblePart>>),
) -> Option<String> {
    // A condition can only widen what the visibility allows; bookkeeping hides nothing.
    if matches!(vis, Visibility::Public | Visibility::Internal) {
        return None;
    }
    let mut out = format!("{what}: {}", decls::visibility(vis, per_player));
    if let Some(w) = visible_when {
        out.push_str(&format!(
            ", and also visible to a viewer when: {}",
            super::expr::visibility_condition(w)
        ));
    }
    if matches!(ty, TypeExpr::List(..)) {
        let who = if vis == Visibility::Secret && per_player {
            "the others"
        } else {
            "everyone"
        };
        let verb = if who == "everyone" { "sees" } else { "see" };
        out.push_str(&format!("; {who} {verb} how many items it holds"));
    }
    if let Some(p) = part {
        out.push_str(&format!("; but {}", decls::part_words(p)));
    }
    Some(out)
}
