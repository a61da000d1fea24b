//! Meeple: board games written as declarative `.rules` files, checked, played and tested
//! without recompiling.
//!
//! The pipeline, one folder a stage: [`syntax`] (pest → AST) → [`load`] (variants) →
//! [`check`] (resolve, type, lint, lower to [`ir`]) → [`engine`] (state, flow, effects, views)
//! → front ends ([`bots`], [`sim`], [`scenario`], [`golden`], [`repl`], [`rulebook`], [`cli`], [`lsp`]),
//! each starting its games from one [`engine::GameSettings`].

pub mod bots;
pub mod check;
pub mod cli;
pub mod diag;
pub mod engine;
pub mod files;
pub mod golden;
pub mod ir;
pub mod load;
pub mod lsp;
pub mod printable;
pub mod repl;
pub mod rulebook;
pub mod save;
pub mod scenario;
pub mod serve;
pub mod sim;
pub mod syntax;
