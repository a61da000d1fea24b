//! The values of maps (`check::maps` holds their types and keys): an initial value or a whole
//! map set (one value for every entry, or a list written out, a list of lists for a map of
//! maps), and a map in a text or a `show`, as its entries.
//!
//! A map by player has one entry per seat, so its value follows the player count (as does a
//! map by a kind whose count follows it, or by a range whose ends do): where the game may be
//! played by several counts, the value is built for each count as a `by players { ... }`
//! would be, and the one for the count played is taken when it runs.

use super::scope::Scope;
use super::Checker;
use crate::diag::{Diagnostic, Span};
use crate::ir::{self, Builtin, MapKey, Type};

impl Checker<'_> {
    /// A value for a place of type `want`, checked: for a map, another map of its type, one
    /// value for every entry or a list written out with one value per entry (`p.gems = 0`).
    pub(crate) fn value_for(
        &mut self,
        want: &Type,
        v: ir::Expr,
        vt: &Type,
        span: Span,
        what: &str,
    ) -> ir::Expr {
        if !matches!(want, Type::Map(..)) || want.accepts(vt) {
            self.expect_type(want, vt, span, what);
            return v;
        }
        self.map_initial(want, v, vt, span)
            .unwrap_or_else(|| super::const_expr(ir::Value::None, span))
    }

    /// A map's initial value: one value of the element type fills every entry (at every level
    /// of a map of maps); a list written out with one value per key gives them in the keys'
    /// order (a list of lists, for a map of maps). `None`, reported, otherwise.
    pub(crate) fn map_initial(
        &mut self,
        want: &Type,
        init: ir::Expr,
        ty: &Type,
        span: Span,
    ) -> Option<ir::Expr> {
        // In a scenario, the count it is played by.
        let (lo, hi) = self.scenario_players.map_or(self.players, |n| (n, n));
        // `by players { 2: [...], 3: [...] }`: each count's list checked against that count
        // (for a map by an enum too, whose size is the same for every count).
        if let ir::ExprKind::ByPlayers(entries) = &init.kind {
            let mut sized = Vec::new();
            for (a, b, x) in entries.clone() {
                for n in a.max(lo)..=b.min(hi) {
                    sized.push((n, n, self.map_sized(want, x.clone(), ty, x.span, n, true)?));
                }
            }
            return Some(ir::Expr::new(ir::ExprKind::ByPlayers(sized), init.span));
        }
        if lo >= hi || !self.follows_players(want) {
            return self.map_sized(want, init, ty, span, lo, lo == hi);
        }
        // The first count reports what is wrong; the others only size what was found right.
        let mut sized = vec![(
            lo,
            lo,
            self.map_sized(want, init.clone(), ty, span, lo, false)?,
        )];
        for n in lo + 1..=hi {
            sized.push((
                n,
                n,
                self.map_sized(want, init.clone(), ty, span, n, false)?,
            ));
        }
        Some(ir::Expr::new(ir::ExprKind::ByPlayers(sized), span))
    }

    /// [`Checker::map_initial`] for a game of `players` players; `fixed` when the count is
    /// known where the value is written, so that a list may be written out for a map by player.
    fn map_sized(
        &mut self,
        want: &Type,
        init: ir::Expr,
        ty: &Type,
        span: Span,
        players: i64,
        fixed: bool,
    ) -> Option<ir::Expr> {
        let Type::Map(elem, k) = want else {
            return None;
        };
        let n = self.map_len(*k, players);
        if fills(want, ty) {
            let entry = if elem.accepts(ty) {
                init
            } else {
                self.map_sized(elem, init, ty, span, players, fixed)?
            };
            return Some(ir::Expr::new(ir::ExprKind::List(vec![entry; n]), span));
        }
        if let (Type::List(got), ir::ExprKind::List(items)) = (ty, &init.kind) {
            if fits(elem, got) {
                if !fixed && !self.same_len_for_every_count(*k) {
                    self.list_for_players(*k, span);
                    return None;
                }
                if items.len() != n {
                    self.wrong_size(*k, n, items.len(), span, players);
                    return None;
                }
                if elem.accepts(got) {
                    return Some(init);
                }
                // A list of lists for a map of maps: each inner list is its entry's map.
                let mut entries = Vec::with_capacity(n);
                for x in items.clone() {
                    let s = x.span;
                    entries.push(self.map_sized(elem, x, got, s, players, fixed)?);
                }
                return Some(ir::Expr::new(ir::ExprKind::List(entries), init.span));
            }
        }
        self.expect_type(elem, ty, span, "the value of every entry");
        None
    }

    /// `map-size`: a list written out with `got` values for a map of `n` keys `k`, in a game
    /// of `players` players.
    fn wrong_size(&mut self, k: MapKey, n: usize, got: usize, span: Span, players: i64) {
        let keys = self.map_keys_name(k);
        let (what, each) = match k {
            MapKey::Enum(_) => ("values", format!("each {keys}, in its order")),
            MapKey::Range(..) | MapKey::PlayerRange(_) => {
                ("keys", format!("each key of {keys}, in order"))
            }
            MapKey::Player => ("players", "each player, in seat order".to_string()),
            MapKey::Kind(_) => ("instances", format!("each instance of {keys}, in order")),
        };
        let has = match k {
            MapKey::Player => "the game has".to_string(),
            _ if !self.same_len_for_every_count(k) => format!("with {players} players {keys} has"),
            _ => format!("{keys} has"),
        };
        self.error(
            Diagnostic::error(
                "map-size",
                format!("{has} {n} {what}, but this list has {got}"),
                span,
            )
            .with_label(if got == 1 {
                "1 value".to_string()
            } else {
                format!("{got} values")
            })
            .with_help(format!("give one value for {each}, or one value for all")),
        );
    }

    /// `map-follows-players`: a list written out for a map by keys `k` whose number follows
    /// the player count (the players, a kind counted from it, a range whose ends follow it),
    /// in a game whose player count varies, so that no one length fits every game.
    fn list_for_players(&mut self, k: MapKey, span: Span) {
        let (lo, hi) = self.players;
        let keys = self.map_keys_name(k);
        let what = match k {
            MapKey::Player => "a map by player has one entry per player".to_string(),
            MapKey::Kind(_) => format!(
                "a map by {keys} has one entry per instance, as many as the player count makes"
            ),
            _ => {
                format!("a map by {keys} has one entry per key, as many as the player count makes")
            }
        };
        self.error(
            Diagnostic::error(
                "map-follows-players",
                format!(
                    "{what}, and this game is played by {lo} to {hi}: a list written out cannot fit every count"
                ),
                span,
            )
            .with_label("a list of one length")
            .with_help(format!(
                "give one value for every player (`= 0`), or a list for each count, as in `by players {{ {} }}`",
                counts_example(lo, hi)
            )),
        );
    }

    /// Whether a map of type `want` has, at some level, keys whose number follows the player
    /// count: the players, a kind counted from it, or a range whose ends follow it.
    fn follows_players(&self, want: &Type) -> bool {
        match want {
            Type::Map(elem, k) => !self.same_len_for_every_count(*k) || self.follows_players(elem),
            _ => false,
        }
    }

    /// `{m}` in a text, for a map `m` of `elem` by `k`: each entry as its key and value, written
    /// as the `{each}` part `{each k in E "{k} {m[k]}" sep ", "}` would be: `red 2, blue 0` by
    /// an enum or a player, and `1: 2, 2: 0` by a range, where a number beside a number would
    /// not tell key from value. An entry that is a map is shown so too, in brackets:
    /// `P1 (red 2, blue 0), P2 (red 0, blue 1)`.
    pub(crate) fn map_text(
        &mut self,
        m: ir::Expr,
        elem: &Type,
        k: MapKey,
        scope: &mut Scope,
    ) -> ir::TextPart {
        let span = m.span;
        // The inner map's key is bound while this one's is, in a slot of its own.
        scope.push();
        let slot = scope.shadow(" entry", k.key_type(), span);
        let key = || ir::Expr::new(ir::ExprKind::Local(slot), span);
        let value = ir::Expr::new(
            ir::ExprKind::Builtin(Builtin::Index, vec![m, self.map_position(k, key())]),
            span,
        );
        let between = match k {
            MapKey::Range(..) | MapKey::PlayerRange(_) => ": ",
            MapKey::Enum(_) | MapKey::Player | MapKey::Kind(_) => " ",
        };
        let mut parts = vec![ir::TextPart::Expr(key()), ir::TextPart::Lit(between.into())];
        match elem {
            Type::Map(inner, inner_key) => {
                parts.push(ir::TextPart::Lit("(".into()));
                parts.push(self.map_text(value, inner, *inner_key, scope));
                parts.push(ir::TextPart::Lit(")".into()));
            }
            t if ir::RecordDef::within(t) => parts.push(ir::TextPart::Typed(value, t.clone())),
            _ => parts.push(ir::TextPart::Expr(value)),
        }
        scope.pop();
        ir::TextPart::Each {
            slot,
            source: self.map_keys(k, span),
            filter: None,
            body: ir::Text { parts },
            sep: ir::Text {
                parts: vec![ir::TextPart::Lit(", ".into())],
            },
        }
    }
}

/// Whether one value of type `ty` fills every entry of a map of type `want`, at every level:
/// `0` fills an `int by gem by player`.
fn fills(want: &Type, ty: &Type) -> bool {
    match want {
        Type::Map(elem, _) => elem.accepts(ty) || fills(elem, ty),
        _ => false,
    }
}

/// Whether a value of type `ty` may stand for an entry of type `want`: one of its type, one
/// that fills it, or for a map, a list of what may stand for its entries.
fn fits(want: &Type, ty: &Type) -> bool {
    if want.accepts(ty) || fills(want, ty) {
        return true;
    }
    match (want, ty) {
        (Type::Map(elem, _), Type::List(got)) => fits(elem, got),
        _ => false,
    }
}

/// `2: [...], 3: [...]` for the counts `lo..hi`, the middle ones left out past three.
fn counts_example(lo: i64, hi: i64) -> String {
    let each = |n: i64| format!("{n}: [...]");
    if hi - lo < 3 {
        (lo..=hi).map(each).collect::<Vec<_>>().join(", ")
    } else {
        format!("{}, ..., {}", each(lo), each(hi))
    }
}
