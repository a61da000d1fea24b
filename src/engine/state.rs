//! The values of a game in progress: global variables, per-player variables and the fields of
//! every instance.

use crate::ir::{List, Value};
use std::sync::Arc;

/// Every variable's value, by index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    /// Number of players.
    pub players: u8,
    /// Global variables, by `GlobalId`.
    pub globals: Vec<Value>,
    /// Per-player variables: `[player][PlayerVarId]`.
    pub player_vars: Vec<Vec<Value>>,
    /// Instances: `[KindId][instance][FieldId]`.
    pub entities: Vec<Vec<Vec<Value>>>,
    /// Names of instances from `shown as`, rendered at the start: `[KindId][instance]`.
    pub labels: Arc<Vec<Vec<String>>>,
    /// The lists that never change during a game, built once at its start.
    pub domains: Arc<Domains>,
}

/// Every seat, every instance of each kind and every value of each enum, as lists, so that
/// reading `players`, a kind or an enum as a list builds nothing.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Domains {
    /// Every seat in order.
    pub seats: List,
    /// Every instance of each kind, by `KindId`.
    pub instances: Vec<List>,
    /// Every value of each enum, by `EnumId`.
    pub enum_values: Vec<List>,
}
