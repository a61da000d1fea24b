//! Symbols, local scopes and did-you-mean suggestions.

use crate::diag::Span;
use crate::ir::{self, Slot, Type};
use std::collections::HashMap;

/// What a top-level name refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Symbol {
    Global(ir::GlobalId),
    PlayerVar(ir::PlayerVarId),
    Enum(ir::EnumId),
    EnumValue(ir::EnumId, u16),
    Instance(ir::KindId, u32),
    Kind(ir::KindId),
    Die(ir::DieId),
    Def(ir::DefId),
    Proc(ir::ProcId),
    Action(ir::ActionId),
    Table(ir::TableId),
    Record(ir::RecordId),
}

/// Values the language defines; no declaration may reuse these names.
pub(crate) const BUILTIN_VALUES: &[&str] = &["players", "player_count", "all_players"];

/// Functions the language defines (the built-ins of `ir::Builtin`, then the queries that read
/// like calls); no `def`, `effect` or `phase` may reuse these names (a variable may: `take`
/// and `take(xs, 2)` cannot be confused).
pub(crate) const BUILTIN_FUNCTIONS: &[&str] = &FUNCTION_NAMES;

const FUNCTION_NAMES: [&str; ir::Builtin::ALL.len() + ir::QUERY_NAMES.len()] = {
    let mut names = [""; ir::Builtin::ALL.len() + ir::QUERY_NAMES.len()];
    let mut i = 0;
    while i < ir::Builtin::ALL.len() {
        names[i] = ir::Builtin::ALL[i].name();
        i += 1;
    }
    let mut q = 0;
    while q < ir::QUERY_NAMES.len() {
        names[i + q] = ir::QUERY_NAMES[q];
        q += 1;
    }
    names
};

/// Local variables of one body, in nested blocks; each gets its own slot.
pub(crate) struct Scope {
    frames: Vec<HashMap<String, (Slot, Type, Span)>>,
    next: usize,
    max: usize,
    /// True inside an action, where `me` is slot 0.
    pub(crate) has_me: bool,
}

impl Scope {
    /// A fresh scope; in an action, slot 0 holds `me`.
    pub(crate) fn new(has_me: bool) -> Scope {
        let next = usize::from(has_me);
        Scope {
            frames: vec![HashMap::new()],
            next,
            max: next,
            has_me,
        }
    }

    /// Binds a name in the innermost block; Err with the first span if already bound there.
    pub(crate) fn bind(&mut self, name: &str, ty: Type, span: Span) -> Result<Slot, Span> {
        let slot = self.next as Slot;
        let frame = self.frames.last_mut().expect("scope has a frame");
        if let Some((_, _, first)) = frame.get(name) {
            return Err(*first);
        }
        frame.insert(name.to_string(), (slot, ty, span));
        self.next += 1;
        self.max = self.max.max(self.next);
        Ok(slot)
    }

    /// Binds a name, shadowing any earlier binding of it.
    pub(crate) fn shadow(&mut self, name: &str, ty: Type, span: Span) -> Slot {
        let slot = self.next as Slot;
        self.frames
            .last_mut()
            .expect("scope has a frame")
            .insert(name.to_string(), (slot, ty, span));
        self.next += 1;
        self.max = self.max.max(self.next);
        slot
    }

    /// Looks a local up, innermost first.
    pub(crate) fn lookup(&self, name: &str) -> Option<(Slot, Type)> {
        self.frames
            .iter()
            .rev()
            .find_map(|f| f.get(name))
            .map(|(s, t, _)| (*s, t.clone()))
    }

    /// Where the local visible now under this name was bound.
    pub(crate) fn span_of(&self, name: &str) -> Option<Span> {
        self.frames
            .iter()
            .rev()
            .find_map(|f| f.get(name))
            .map(|(_, _, span)| *span)
    }

    /// Every local name visible now, for suggestions.
    pub(crate) fn names(&self) -> Vec<String> {
        self.frames.iter().flat_map(|f| f.keys().cloned()).collect()
    }

    /// Enters a nested block.
    pub(crate) fn push(&mut self) {
        self.frames.push(HashMap::new());
    }

    /// Leaves a nested block. Slots are not reused, so a suspended frame keeps its values.
    pub(crate) fn pop(&mut self) {
        self.frames.pop();
    }

    /// Slots the body needs.
    pub(crate) fn max_slots(&self) -> usize {
        self.max
    }
}

/// The closest candidate to a misspelt name, if any is close enough.
/// The closest candidate to a misspelt name (`diag::suggest_name`), as the checker calls it.
pub(crate) use crate::diag::suggest_name as suggest;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        assert_eq!(
            suggest("cions", ["coins", "gems"]).as_deref(),
            Some("coins")
        );
        assert_eq!(suggest("zzz", ["coins", "gems"]), None);
    }

    #[test]
    fn tied_suggestions_do_not_depend_on_the_order_of_the_candidates() {
        let one = suggest("gold", ["golf", "gole"]);
        let other = suggest("gold", ["gole", "golf"]);
        assert_eq!(one, other);
        assert_eq!(one.as_deref(), Some("gole"));
    }

    #[test]
    fn nested_blocks_shadow_and_do_not_reuse_slots() {
        let mut s = Scope::new(true);
        let a = s.bind("a", Type::Int, Span::default()).unwrap();
        s.push();
        let b = s.bind("a", Type::Bool, Span::default()).unwrap();
        assert_ne!(a, b);
        assert_eq!(s.lookup("a").unwrap().1, Type::Bool);
        s.pop();
        assert_eq!(s.lookup("a").unwrap().1, Type::Int);
        assert_eq!(s.max_slots(), 3);
    }
}
