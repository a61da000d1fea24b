//! The values of a game in progress: global variables, per-player variables and the fields of
//! every instance.

use crate::ir::Value;
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
}
