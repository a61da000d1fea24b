//! The order in which initial values are computed: each after everything it reads, so that
//! `var total: int = sum(p.coins for p in players)` sees the players' coins. A cycle is an error.

use super::Checker;
use crate::diag::Diagnostic;
use crate::ir::{self, DefId, ExprKind as K, InitItem};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};

impl Checker<'_> {
    /// Orders the initial values of fields, globals and per-player variables.
    pub(crate) fn order_initial_values(&mut self) {
        let program = &self.program;
        // Declaration order is kept wherever dependencies allow: fields, globals, player vars.
        let items: Vec<InitItem> = (0..program.kinds.len() as u32)
            .map(|k| InitItem::Fields(ir::KindId(k)))
            .chain((0..program.globals.len() as u32).map(|g| InitItem::Global(ir::GlobalId(g))))
            .chain(
                (0..program.player_vars.len() as u32)
                    .map(|v| InitItem::PlayerVar(ir::PlayerVarId(v))),
            )
            .collect();
        let deps: Vec<BTreeSet<InitItem>> = items
            .iter()
            .map(|item| {
                let mut out = BTreeSet::new();
                let mut defs = BTreeSet::new();
                let exprs: Vec<&ir::Expr> = match item {
                    InitItem::Fields(k) => program.kinds[k.index()]
                        .fields
                        .iter()
                        .map(|f| &f.init)
                        .collect(),
                    InitItem::Global(g) => vec![&program.globals[g.index()].init],
                    InitItem::PlayerVar(v) => vec![&program.player_vars[v.index()].init],
                };
                for e in exprs {
                    reads(program, e, &mut out, &mut defs);
                }
                out.remove(item); // a field may read its own kind's other fields
                out
            })
            .collect();
        // Each step takes the first item, in declaration order, whose dependencies are all
        // computed: a heap of the ready items' positions, and a count of what each still waits
        // for, so that many declarations do not make it quadratic.
        let position: BTreeMap<InitItem, usize> = items
            .iter()
            .enumerate()
            .map(|(i, item)| (*item, i))
            .collect();
        let mut waiting_for: Vec<usize> = vec![0; items.len()];
        let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); items.len()];
        for (i, d) in deps.iter().enumerate() {
            for j in d.iter().filter_map(|x| position.get(x)) {
                waiting_for[i] += 1;
                dependents[*j].push(i);
            }
        }
        let mut ready: BinaryHeap<Reverse<usize>> = (0..items.len())
            .filter(|i| waiting_for[*i] == 0)
            .map(Reverse)
            .collect();
        let mut done = vec![false; items.len()];
        let mut order = Vec::new();
        while let Some(Reverse(i)) = ready.pop() {
            done[i] = true;
            order.push(items[i]);
            for &d in &dependents[i] {
                waiting_for[d] -= 1;
                if waiting_for[d] == 0 {
                    ready.push(Reverse(d));
                }
            }
        }
        if let Some(i) = done.iter().position(|d| !d) {
            let (name, span) = self.init_item_name(items[i]);
            self.error(
                Diagnostic::error(
                    "initial-value-cycle",
                    format!("the initial value of `{name}` depends on itself"),
                    span,
                )
                .with_label("reads a value that reads this one back")
                .with_help(
                    "give one of them a plain starting value and compute the other in `setup`",
                ),
            );
            return;
        }
        self.program.init_order = order;
    }

    fn init_item_name(&self, item: InitItem) -> (String, crate::diag::Span) {
        match item {
            InitItem::Fields(k) => {
                let kind = &self.program.kinds[k.index()];
                (
                    kind.name.clone(),
                    kind.fields.first().map(|f| f.span).unwrap_or_default(),
                )
            }
            InitItem::Global(g) => (
                self.program.globals[g.index()].name.clone(),
                self.program.globals[g.index()].span,
            ),
            InitItem::PlayerVar(v) => (
                self.program.player_vars[v.index()].name.clone(),
                self.program.player_vars[v.index()].span,
            ),
        }
    }
}

/// Everything an expression reads, through the defs it calls.
fn reads(
    program: &ir::Program,
    e: &ir::Expr,
    out: &mut BTreeSet<InitItem>,
    defs: &mut BTreeSet<DefId>,
) {
    let children: Vec<&ir::Expr> = match &e.kind {
        K::Const(_)
        | K::Local(_)
        | K::EnumValues(_)
        | K::Instances(_)
        | K::Players
        | K::AllPlayers
        | K::PlayerCount => Vec::new(),
        K::Global(g) => {
            out.insert(InitItem::Global(*g));
            Vec::new()
        }
        K::PlayerVar(b, v) => {
            out.insert(InitItem::PlayerVar(*v));
            vec![b]
        }
        K::Field(b, k, _) => {
            out.insert(InitItem::Fields(*k));
            vec![b]
        }
        K::Call(d, args) => {
            let mut c: Vec<&ir::Expr> = args.iter().collect();
            if defs.insert(*d) {
                c.push(&program.defs[d.index()].body);
            }
            c
        }
        K::Builtin(_, args) | K::List(args) => args.iter().collect(),
        K::TableCell { row, .. } => vec![row],
        K::Binary(_, a, b) => vec![a, b],
        K::Unary(_, a) => vec![a],
        K::If(a, b, c) => vec![a, b, c],
        K::Query {
            source,
            filter,
            map,
            keys,
            ..
        } => {
            let mut c: Vec<&ir::Expr> = vec![source];
            c.extend(filter.as_deref());
            c.extend(map.as_deref());
            c.extend(keys.iter());
            c
        }
        K::ByPlayers(entries) => entries.iter().map(|(_, _, x)| x).collect(),
    };
    for c in children {
        reads(program, c, out, defs);
    }
}
