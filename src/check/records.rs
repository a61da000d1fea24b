//! Records: values with named fields (`record clue { colour: colour = none  number: int }`),
//! built as `clue(colour: red, number: 3)` and read as `c.number`.
//!
//! At run time a record is a list of its fields in declaration order: building one is a list
//! written out, and `.field` is the list's element at the field's position, worked out here,
//! so the engine has nothing of its own to learn. Only its type tells a record from a list,
//! which is why texts and views show it through `ir::TextPart::Typed` and
//! `engine::show_typed`.

use super::expr::error_expr;
use super::scope::{suggest, Scope, Symbol};
use super::{const_expr, index, Checker};
use crate::diag::{Diagnostic, Span};
use crate::ir::{self, Builtin, RecordId, Type, Value};
use crate::syntax::ast;
use std::collections::BTreeMap;

/// A record's defaults, worked out when first needed (a default may build a record declared
/// anywhere, so the order of declarations cannot be followed).
#[derive(Debug, Clone)]
pub(super) enum Defaults {
    /// Not checked yet.
    Pending,
    /// Being checked: a construction of the record met now is one inside its own default.
    Checking,
    /// Each field's default, lowered, if it has one.
    Done(Vec<Option<ir::Expr>>),
}

impl Checker<'_> {
    /// Pass 1: the record's id and name, as a type and as what builds it.
    pub(super) fn declare_record(&mut self, r: &ast::RecordDecl) {
        let id = RecordId(self.program.records.len() as u32);
        self.define(&r.name, Symbol::Record(id));
        self.program.records.push(ir::RecordDef {
            name: r.name.text.clone(),
            fields: Vec::new(),
            label: None,
            veils: Vec::new(),
        });
        self.record_defaults.push(Defaults::Pending);
        self.record_spans.push(Vec::new());
    }

    /// Pass 2: record `r`'s fields, their types, each name once. A field holds only records
    /// declared before its own (`record-order`), so that no record holds itself.
    pub(super) fn record_fields(&mut self, rd: &ast::RecordDecl, r: usize) {
        let mut seen = BTreeMap::new();
        let mut fields = Vec::new();
        let mut spans = Vec::new();
        let mut veils = Vec::new();
        for (i, fd) in rd.fields.iter().enumerate() {
            let (ty, bounds) = self.resolve_type(&fd.ty);
            if bounds.is_some() {
                self.error(
                    Diagnostic::error(
                        "record-field-bounded",
                        format!("the field `{}` of a record cannot be bounded", fd.name.text),
                        fd.ty.span(),
                    )
                    .with_label("bounds are kept for variables and kinds' fields")
                    .with_help(
                        "write `int`, and keep the number within its range where it changes (`clamp(x, lo, hi)`)",
                    ),
                );
            }
            if let Some(later) = later_record(&ty, r) {
                let name = self.program.records[later.index()].name.clone();
                self.error(
                    Diagnostic::error(
                        "record-order",
                        format!(
                            "the field `{}` holds `{name}`, which is not declared before `{}`",
                            fd.name.text, rd.name.text
                        ),
                        fd.ty.span(),
                    )
                    .with_label("a record declared here or later")
                    .with_help(format!(
                        "declare `{name}` above `{}`: a record holds only records declared before it, so that none holds itself",
                        rd.name.text
                    )),
                );
            }
            match seen.insert(fd.name.text.clone(), fd.name.span) {
                Some(first) => self.field_twice(&fd.name, first),
                None => {
                    self.note_decl(&fd.name, index::Pending::RecordField(RecordId(r as u32), i))
                }
            }
            fields.push((fd.name.text.clone(), ty));
            spans.push(fd.name.span);
            veils.push(self.field_visibility(fd));
        }
        self.program.records[r].veils = veils;
        self.program.records[r].fields = fields;
        self.record_spans[r] = spans;
    }

    /// A field's own visibility, its `visible when` left for pass 3: `None` for a public
    /// field. `internal` is refused: a record's field is seen with the record or less.
    fn field_visibility(&mut self, fd: &ast::RecordField) -> Option<ir::FieldVeil> {
        match fd.visibility {
            ast::Visibility::Public => {
                if let Some(w) = &fd.visible_when {
                    self.error(
                        Diagnostic::warning(
                            "visible-when-public",
                            format!(
                                "the field `{}` is public: `visible when` shows it to nobody more",
                                fd.name.text
                            ),
                            w.span,
                        )
                        .with_label("whoever sees the record sees this field")
                        .with_help(format!(
                            "write `hidden {}: ...` to show it only where the condition holds",
                            fd.name.text
                        )),
                    );
                }
                None
            }
            ast::Visibility::Internal => {
                self.error(
                    Diagnostic::error(
                        "record-field-internal",
                        format!("the field `{}` of a record cannot be internal", fd.name.text),
                        fd.name.span,
                    )
                    .with_label("a record's field is seen with the record, or by fewer")
                    .with_help(
                        "write `hidden` (seen by nobody unless `visible when` says so), or keep the bookkeeping in an `internal` variable",
                    ),
                );
                None
            }
            visibility => Some(ir::FieldVeil {
                visibility,
                visible_when: None,
            }),
        }
    }

    /// `veiled-options`: a choice among records with a field some seat may not see. Its
    /// options are shown to the chooser whole, so the choice would tell the field.
    pub(super) fn no_veiled_options(&mut self, element: &Type, span: Span) {
        if !self.program.veiled(element) {
            return;
        }
        self.error(
            Diagnostic::error(
                "veiled-options",
                "these options hold a record's field that not every seat may see",
                span,
            )
            .with_label("each option would be shown to the chooser whole")
            .with_help(
                "choose a position instead (`... from 1..count(me.hand)`), or a field every seat sees",
            ),
        );
    }

    /// Pass 3 for every record, in the order declared.
    pub(super) fn record_bodies(&mut self) {
        let merged = self.merged;
        let records = merged.decls.iter().filter_map(|d| match d {
            ast::Decl::Record(rd) => Some(rd),
            _ => None,
        });
        for (r, rd) in records.enumerate() {
            self.record_body(rd, r);
        }
    }

    /// Pass 3: the `shown as` text, with `it` the value, and the defaults, checked even where
    /// no construction leaves a field out.
    fn record_body(&mut self, rd: &ast::RecordDecl, r: usize) {
        let id = RecordId(r as u32);
        if let Some(label) = &rd.label {
            let mut scope = Scope::new(false);
            scope.shadow("it", Type::Record(id), rd.name.span);
            let text = self.text(label, &mut scope);
            self.program.records[r].label = Some((text, scope.max_slots()));
        }
        for (i, fd) in rd.fields.iter().enumerate() {
            let Some(cond) = &fd.visible_when else {
                continue;
            };
            let mut scope = Scope::new(false);
            scope.shadow("viewer", Type::Player, fd.name.span);
            scope.shadow("owner", Type::Player, fd.name.span);
            scope.shadow("it", Type::Record(id), fd.name.span);
            let (body, ty) = self.expr(cond, &mut scope);
            self.expect_type(&Type::Bool, &ty, cond.span, "a visibility condition");
            let visible = ir::EndFn {
                locals: scope.max_slots(),
                body,
            };
            if let Some(Some(veil)) = self.program.records[r].veils.get_mut(i) {
                veil.visible_when = Some(visible);
            }
        }
        self.defaults_of(id, rd.name.span);
    }

    /// Record `r`'s defaults, checked the first time they are needed; `None`, reported, when
    /// a default builds its own record.
    fn defaults_of(&mut self, r: RecordId, at: Span) -> Option<Vec<Option<ir::Expr>>> {
        match self.record_defaults.get(r.index())? {
            Defaults::Done(d) => return Some(d.clone()),
            Defaults::Checking => {
                self.error(
                    Diagnostic::error(
                        "not-constant",
                        format!(
                            "a default of `{}` builds a `{}` itself",
                            self.program.records[r.index()].name,
                            self.program.records[r.index()].name
                        ),
                        at,
                    )
                    .with_label("built again while its defaults are worked out")
                    .with_help("give this field its value where the record is built"),
                );
                return None;
            }
            Defaults::Pending => {}
        }
        self.record_defaults[r.index()] = Defaults::Checking;
        let merged = self.merged;
        let decl = merged
            .decls
            .iter()
            .filter_map(|d| match d {
                ast::Decl::Record(rd) => Some(rd),
                _ => None,
            })
            .nth(r.index())?;
        let mut defaults = Vec::with_capacity(decl.fields.len());
        for (i, fd) in decl.fields.iter().enumerate() {
            let Some(d) = &fd.default else {
                defaults.push(None);
                continue;
            };
            // A default reads no local: it is written where the record is declared.
            let mut scope = Scope::new(false);
            let (x, t) = self.expr(d, &mut scope);
            self.note_init_locals(scope.max_slots());
            let want = self.program.records[r.index()]
                .fields
                .get(i)
                .map_or(Type::Error, |f| f.1.clone());
            let what = format!("the default of `{}`", fd.name.text);
            defaults.push(Some(self.value_for(&want, x, &t, d.span, &what)));
        }
        self.record_defaults[r.index()] = Defaults::Done(defaults.clone());
        Some(defaults)
    }

    /// `clue(colour: red, number: 3)`: a list of the fields in declaration order, those left
    /// out taking their defaults.
    pub(super) fn construct(
        &mut self,
        name: &ast::Name,
        given: &[(ast::Name, ast::Expr)],
        span: Span,
        scope: &mut Scope,
    ) -> (ir::Expr, Type) {
        let r = match self.symbols.get(&name.text).map(|s| s.0) {
            Some(Symbol::Record(r)) => r,
            other => {
                // The values are checked all the same, for their own mistakes.
                for (_, v) in given {
                    self.expr(v, scope);
                }
                if let Some(sym) = other {
                    self.use_symbol(sym);
                }
                self.not_a_record(name, other.is_some());
                return error_expr(span);
            }
        };
        self.use_symbol(Symbol::Record(r));
        self.note_symbol_use(name);
        let fields = self.program.records[r.index()].fields.clone();
        let mut values: Vec<Option<(ir::Expr, Span)>> = vec![None; fields.len()];
        for (f, v) in given {
            let (x, t) = self.expr(v, scope);
            let Some(i) = fields.iter().position(|(n, _)| *n == f.text) else {
                self.unknown_record_field(f, r);
                continue;
            };
            if let Some(decl) = self.record_spans[r.index()].get(i).copied() {
                self.note_use(f, decl);
            }
            if let Some((_, first)) = &values[i] {
                let first = *first;
                self.error(
                    Diagnostic::error(
                        "record-field-twice",
                        format!("the field `{}` is given twice", f.text),
                        f.span,
                    )
                    .with_label("given again here")
                    .with_secondary(first, "first given here")
                    .with_help("give each field once"),
                );
                continue;
            }
            let what = format!("the field `{}`", f.text);
            let x = self.value_for(&fields[i].1, x, &t, v.span, &what);
            values[i] = Some((x, f.span));
        }
        let defaults = if values.iter().any(Option::is_none) {
            self.defaults_of(r, name.span).unwrap_or_default()
        } else {
            Vec::new()
        };
        let mut missing = Vec::new();
        let mut items = Vec::with_capacity(fields.len());
        for (i, v) in values.into_iter().enumerate() {
            match (v, defaults.get(i).cloned().flatten()) {
                (Some((x, _)), _) => items.push(x),
                (None, Some(d)) => items.push(d),
                (None, None) => {
                    missing.push(fields[i].0.clone());
                    items.push(const_expr(Value::None, span));
                }
            }
        }
        // `defaults` is empty only after a report (`defaults_of`), so only what has no
        // default is missing.
        if !missing.is_empty() && defaults.len() == fields.len() {
            let list: Vec<String> = missing.iter().map(|m| format!("`{m}`")).collect();
            self.error(
                Diagnostic::error(
                    "record-field-missing",
                    format!(
                        "`{}` needs {} here: {} has no default",
                        name.text,
                        list.join(", "),
                        if missing.len() == 1 { "it" } else { "they" }
                    ),
                    span,
                )
                .with_label("not given")
                .with_help(format!(
                    "give it, as in `{}({}: ...)`, or give the field a default where the record is declared",
                    name.text, missing[0]
                )),
            );
        }
        (
            ir::Expr::new(ir::ExprKind::List(items), span),
            Type::Record(r),
        )
    }

    /// `c.number` of a record: its element at the field's position.
    pub(super) fn record_field(
        &mut self,
        base: ir::Expr,
        r: RecordId,
        field: &ast::Name,
        span: Span,
    ) -> (ir::Expr, Type) {
        let Some((i, ty)) = self.field_index(r, field) else {
            return error_expr(span);
        };
        if self.program.records[r.index()].veils[i].is_some() {
            // The analyses of what a seat may see find the read by its span.
            self.program.veiled_reads.insert(span, (r, i));
        }
        let at = const_expr(Value::Int(i as i64 + 1), field.span);
        (
            ir::Expr::new(ir::ExprKind::Builtin(Builtin::Index, vec![base, at]), span),
            ty,
        )
    }

    /// The position of `field` in record `r`, as the constant key of an index (from 1), and
    /// its type; `None`, reported with the nearest name, if `r` has no such field.
    pub(super) fn field_position(
        &mut self,
        r: RecordId,
        field: &ast::Name,
    ) -> Option<(ir::Expr, Type)> {
        let (i, ty) = self.field_index(r, field)?;
        Some((const_expr(Value::Int(i as i64 + 1), field.span), ty))
    }

    /// The index (from 0) of `field` in record `r`, and its type, its use noted; `None`,
    /// reported with the nearest name, if `r` has no such field.
    fn field_index(&mut self, r: RecordId, field: &ast::Name) -> Option<(usize, Type)> {
        let fields = &self.program.records[r.index()].fields;
        let Some(i) = fields.iter().position(|(n, _)| *n == field.text) else {
            self.unknown_record_field(field, r);
            return None;
        };
        let ty = fields[i].1.clone();
        if let Some(decl) = self.record_spans[r.index()].get(i).copied() {
            self.note_use(field, decl);
        }
        Some((i, ty))
    }

    /// `unknown-field` for a record: the nearest field's name suggested.
    fn unknown_record_field(&mut self, field: &ast::Name, r: RecordId) {
        let def = &self.program.records[r.index()];
        let names: Vec<String> = def.fields.iter().map(|f| f.0.clone()).collect();
        let mut d = Diagnostic::error(
            "unknown-field",
            format!("the record `{}` has no field `{}`", def.name, field.text),
            field.span,
        )
        .with_label("no such field");
        d = match suggest(&field.text, names.iter().map(String::as_str)) {
            Some(s) => d.with_suggestion(&s),
            None => d.with_help(format!("its fields are {}", names.join(", "))),
        };
        self.error(d);
    }

    /// `not-a-record`: named arguments given to what is not a record (`known`: a name that
    /// is something else), with the nearest record's name if one is close.
    fn not_a_record(&mut self, name: &ast::Name, known: bool) {
        let records = self.symbol_names(|s| matches!(s, Symbol::Record(_)));
        let mut d = Diagnostic::error(
            "not-a-record",
            format!(
                "`{}` is not a record, so its arguments cannot be named",
                name.text
            ),
            name.span,
        )
        .with_label(if known {
            "not a record"
        } else {
            "no record has this name"
        });
        d = match suggest(&name.text, records.iter().map(String::as_str)) {
            Some(s) if !known => d.with_suggestion(&s),
            _ => d.with_help(
                "only a record is built with named fields (`clue(colour: red)`); give a function's arguments in order",
            ),
        };
        self.error(d);
    }

    /// `clue(red, 3)` or `clue()`: a record built without names, refused unless nothing is
    /// given (every field then takes its default).
    pub(super) fn record_call(
        &mut self,
        name: &ast::Name,
        args: &[ast::Expr],
        span: Span,
        scope: &mut Scope,
    ) -> (ir::Expr, Type) {
        if let Some(first) = args.first() {
            self.error(
                Diagnostic::error(
                    "record-needs-names",
                    "a record's fields are given by name",
                    first.span,
                )
                .with_label("no field named here")
                .with_help(format!(
                    "name the field it is for, as in `{}(field: value)`",
                    name.text
                )),
            );
            for a in args {
                self.expr(a, scope);
            }
            return error_expr(span);
        }
        self.construct(name, &[], span, scope)
    }
}

/// A record `r` or later that `ty` holds, at any depth.
fn later_record(ty: &Type, r: usize) -> Option<RecordId> {
    match ty {
        Type::Record(x) if x.index() >= r => Some(*x),
        Type::List(t) | Type::Map(t, _) => later_record(t, r),
        _ => None,
    }
}
