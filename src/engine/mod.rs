//! The interpreter: runs a resolved program for a player count and a seed, stopping at every
//! decision; lists legal moves, applies one or explains why not, and renders each player's view.
//!
//! Invariants: deterministic for (program, seed, decisions); a failed move leaves the game as it
//! was; every run is bounded by [`Limits`].

mod alike;
mod clamps;
mod compile;
mod decide;
mod determinize;
mod error;
mod eval;
mod exec;
mod explain;
mod fixed;
mod imagine;
mod initial;
mod live;
mod memo;
mod moves;
mod nodes;
mod numbered;
mod observe;
mod picture;
mod pop;
#[cfg(any(test, feature = "reference"))]
mod reference;
mod replay;
mod rng;
mod sets;
mod settings;
mod setup;
mod several;
mod spare;
mod start;
mod state;
mod statements;
mod trail;
mod typed;
mod veil;
mod view;

pub use determinize::Redeal;
pub use error::{MoveError, RuntimeError};
pub use eval::{on_the_spot, MAX_CALL_DEPTH};
pub use exec::{Limits, MAX_PARAMS};
pub use fixed::FixedChance;
pub use imagine::{Imagination, ImaginationStats};
pub use moves::MAX_MOVES;
pub use numbered::numeric as numeric_options;
pub use picture::{
    InstancePanel, KindPanel, Look, Picture, SeatPanel, SectionPanel, Shown, SlotTable, Status,
};
pub use rng::Rng;
pub use settings::{asking_always, GameSettings};
pub use setup::Holder;
pub use several::Several;
pub use start::Start;
pub use state::Domains;
pub use state::{State, Table, WorkMeter};
pub use trail::Step;
pub use typed::show_typed;
pub use view::Viewer;

use crate::ir::{self, Program, Value};
use std::sync::Arc;

/// One decision taken: who took it and the move's label.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Record {
    /// Seat, 0-based.
    pub player: u8,
    /// The move as the player would type it.
    pub choice: String,
}

/// Who may read a line of the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Audience {
    /// Every player and onlooker.
    All,
    /// Only these seats.
    Only(Vec<u8>),
    /// Everyone but these seats, who see a private version of the line.
    AllBut(Vec<u8>),
}

/// A line of the game's log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogEntry {
    /// Who may read it.
    pub audience: Audience,
    /// What it says.
    pub text: String,
    /// Written by the engine to announce a decision (`P2: play 7D`, `P3 chose B`). Action
    /// arguments and non-secret choices are public by design; a secret pick, and a move's
    /// `secret` arguments, are announced to the chooser alone (the others read the move with
    /// them hidden).
    pub announcement: bool,
}

/// A line of the log as one viewer reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLine {
    /// What it says.
    pub text: String,
    /// Written for this viewer alone (a `tell`, or their own secret pick).
    pub private: bool,
    /// An announcement of a decision by the engine, rather than a line of the rules.
    pub announcement: bool,
}

/// The end of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Winning seats; empty when everyone loses.
    pub winners: Vec<u8>,
    /// Each seat's score.
    pub scores: Vec<i64>,
    /// Why the game ended early, if an `end game` said so.
    pub reason: Option<String>,
}

/// One option of a decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveOption {
    /// What the player types.
    pub label: String,
    /// A longer description, for help.
    pub detail: Option<String>,
}

/// What kind of decision is pending.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecisionKind {
    /// A turn: pick an action.
    Turn,
    /// Pick one option of a list.
    Choose,
    /// Yes or no.
    Ask,
    /// Several players pick in secret, at once.
    Secret,
}

/// How much a game keeps for people to read, and what it checks.
///
/// A game for people ([`Mode::full`]) keeps its log and the label of every decision, backs
/// up before each move so that a failing rule undoes it, and checks every declared invariant
/// after every decision. A playout for bots ([`Mode::playout`]) keeps none of that: it plays
/// the same game (the same chance, the same options in the same order) but renders no text
/// and builds no record, so that playing a move touches no strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mode {
    /// Keep the log, the labels of decisions and a backup for every move.
    pub record: bool,
    /// Check declared invariants after every decision.
    pub invariants: bool,
    /// Note which blocks of statements ran ([`Game::blocks_run`]) and how often each
    /// assignment clamped a number to its bounds ([`Game::clamps_at`]): `meeple sim`'s rules
    /// that never ran and its clamps.
    pub coverage: bool,
    /// Keep how the game came to be where it is (its start and every move, [`trail`]), so that
    /// a bot can imagine it again from what its seat saw ([`Imagination`]).
    pub trail: bool,
}

impl Mode {
    /// Everything kept and checked: the REPL, `meeple test`, scenarios and transcripts.
    pub fn full() -> Mode {
        Mode {
            record: true,
            invariants: true,
            coverage: false,
            trail: true,
        }
    }

    /// Nothing kept, invariants not checked: bots' playouts and simulations.
    pub fn playout() -> Mode {
        Mode {
            record: false,
            invariants: false,
            coverage: false,
            trail: false,
        }
    }

    /// This mode, noting which blocks of statements run.
    pub fn with_coverage(self) -> Mode {
        Mode {
            coverage: true,
            ..self
        }
    }

    /// This mode, keeping the game's trail: for a game in which a bot imagines what it cannot
    /// see ([`Imagination`]).
    pub fn with_trail(self) -> Mode {
        Mode {
            trail: true,
            ..self
        }
    }
}

/// Where a paused statement stands: its block and index.
pub(crate) type At = (ir::BlockId, usize);

#[derive(Debug, Clone)]
pub(crate) struct Turn {
    pub(crate) player: u8,
    /// Each legal move: its action and where its arguments start in `args`.
    pub(crate) moves: Vec<(ir::ActionId, u32)>,
    /// The arguments of every legal move, one after another.
    pub(crate) args: Vec<Value>,
    /// The `turn` statement: the actions it offers, for explaining refusals.
    pub(crate) at: At,
}

impl Turn {
    /// The action and arguments of legal move `i`.
    pub(crate) fn get(&self, program: &Program, i: usize) -> (ir::ActionId, &[Value]) {
        let (a, start) = self.moves[i];
        let n = program.actions[a.index()].params.len();
        (a, &self.args[start as usize..start as usize + n])
    }
}

/// A decision in progress. Prompts are rendered when read, except in a game for people,
/// which renders them as it pauses so that a failing prompt fails where it is written.
#[derive(Debug, Clone)]
pub(crate) enum Pending {
    Turn(Turn),
    Choose {
        player: u8,
        prompt: Option<String>,
        options: ir::List,
        slot: ir::Slot,
        secret: bool,
        at: At,
        /// A choice of several elements, stepped through one pick at a time.
        pick: Option<several::Pick>,
    },
    Ask {
        player: u8,
        prompt: Option<String>,
        slot: ir::Slot,
        at: At,
    },
    Secret {
        choices: Vec<SecretChoice>,
        player_slot: ir::Slot,
        choice_slot: ir::Slot,
        then: ir::BlockId,
        at: At,
    },
}

/// One seat's part of a secret choice made by several at once.
#[derive(Debug, Clone)]
pub(crate) struct SecretChoice {
    pub(crate) seat: u8,
    /// Rendered as the choice paused, in a game for people only.
    pub(crate) prompt: Option<String>,
    pub(crate) options: ir::List,
    pub(crate) chosen: Option<usize>,
    /// A choice of several elements, stepped through one pick at a time.
    pub(crate) pick: Option<several::Pick>,
}

/// The part of a secret choice that `seat` has still to make.
fn open_choice(choices: &[SecretChoice], seat: u8) -> Option<&SecretChoice> {
    choices
        .iter()
        .find(|c| c.seat == seat && c.chosen.is_none())
}

/// A game in progress.
///
/// Cloning a game copies a position cheaply: lists are shared until one side writes them.
/// That is how a bot explores a move and comes back: clone, play, drop.
#[derive(Debug)]
pub struct Game {
    program: Arc<Program>,
    seed: u64,
    limits: Limits,
    mode: Mode,
    state: State,
    rng: Rng,
    /// Chance fixed by a scenario, used before `rng`; `None` in every other game.
    fixed: Option<Box<fixed::Fixed>>,
    /// The running bodies, innermost last.
    frames: Vec<exec::Frame>,
    /// Every frame's slots, one after another.
    stack: Vec<Value>,
    /// The `secretly` blocks running once per chooser, innermost last.
    secrets: Vec<exec::SecretLoop>,
    /// Vectors kept from one turn to the next.
    kept: spare::Kept,
    /// The program and code, held for the machine's runs.
    held: exec::Held,
    pending: Option<Pending>,
    outcome: Option<Outcome>,
    log: Vec<LogEntry>,
    history: Vec<Record>,
    decisions: usize,
    /// With [`Mode::coverage`]: which blocks have run, by block id.
    ran: exec::BlocksRun,
    /// With [`Mode::coverage`]: how many times each statement clamped a number.
    clamps: clamps::Clamps,
    /// With [`Mode::trail`]: where the game started and every move since.
    trail: Option<Box<trail::Trail>>,
    /// In a game played again for one seat: what it reads, and how chance is drawn.
    replay: Option<Box<replay::Replay>>,
}

/// A copy holds the position and how it came to be; it notes no coverage of its own (the games
/// a bot imagines are not the game played) and keeps none of the buffers that hold nothing of
/// the position.
impl Clone for Game {
    fn clone(&self) -> Game {
        Game {
            program: self.program.clone(),
            seed: self.seed,
            limits: self.limits,
            mode: self.mode,
            state: self.state.clone(),
            rng: self.rng.clone(),
            fixed: self.fixed.clone(),
            frames: self.frames.clone(),
            stack: self.stack.clone(),
            secrets: self.secrets.clone(),
            kept: self.kept.clone(),
            held: self.held.clone(),
            pending: self.pending.clone(),
            outcome: self.outcome.clone(),
            log: self.log.clone(),
            history: self.history.clone(),
            decisions: self.decisions,
            ran: self.ran.clone(),
            clamps: self.clamps.clone(),
            trail: self.trail.clone(),
            replay: self.replay.clone(),
        }
    }

    /// The copy [`Game::clone`] makes, in this game's buffers, but with what it ran and
    /// clamped counted afresh: a search copies a world into the same scratch game at every
    /// iteration, and would otherwise allocate and free every vector of the game each time.
    fn clone_from(&mut self, source: &Game) {
        // Every field named, so that a field added to `Game` is not left uncopied unseen.
        let Game {
            program,
            seed,
            limits,
            mode,
            state,
            rng,
            fixed,
            frames,
            stack,
            secrets,
            // `kept` holds nothing of the position: its emptied buffers serve the copy as well.
            kept: _,
            held: _,
            pending,
            outcome,
            log,
            history,
            decisions,
            ran: _,
            clamps: _,
            trail,
            replay,
        } = source;
        if !Arc::ptr_eq(&self.program, program) {
            self.program = program.clone();
        }
        self.seed = *seed;
        self.limits = *limits;
        self.mode = *mode;
        self.state.clone_from(state);
        self.rng.clone_from(rng);
        self.fixed.clone_from(fixed);
        self.frames.clone_from(frames);
        self.stack.clone_from(stack);
        for s in self.secrets.drain(..) {
            spare::give_secret_choices(s.choices);
        }
        self.secrets.clone_from(secrets);
        self.held.keep_for(program, &state.domains.code);
        self.pending.clone_from(pending);
        self.outcome.clone_from(outcome);
        self.log.clone_from(log);
        self.history.clone_from(history);
        self.decisions = *decisions;
        self.ran = exec::BlocksRun::default();
        self.clamps = clamps::Clamps::default();
        self.trail.clone_from(trail);
        self.replay.clone_from(replay);
    }
}

/// A game's buffers serve the next game on its thread: a simulation starts thousands.
impl Drop for Game {
    fn drop(&mut self) {
        spare::give_machine(spare::Machine {
            frames: std::mem::take(&mut self.frames),
            stack: std::mem::take(&mut self.stack),
            secrets: std::mem::take(&mut self.secrets),
            kept: std::mem::take(&mut self.kept),
        });
    }
}

impl Game {
    /// Starts a game for people of `players` with `seed`, everything else the default: a
    /// shorthand for [`GameSettings::new`] then [`GameSettings::start`].
    pub fn new(program: Arc<Program>, players: u8, seed: u64) -> Result<Game, RuntimeError> {
        GameSettings::new(players, seed).start(program)
    }

    /// Starts a playout for bots: the same game as [`Game::new`], without log, labels, backups
    /// or invariant checks (see [`Mode::playout`]); a shorthand for [`GameSettings::playout`].
    pub fn playout(program: Arc<Program>, players: u8, seed: u64) -> Result<Game, RuntimeError> {
        GameSettings::playout(players, seed).start(program)
    }

    /// A game with nothing set yet.
    fn blank(
        program: Arc<Program>,
        players: u8,
        seed: u64,
        limits: Limits,
        mode: Mode,
    ) -> Result<Game, RuntimeError> {
        if players < program.min_players || players > program.max_players {
            return Err(RuntimeError::new(
                "player-count",
                format!(
                    "{} is for {} players, not {players}",
                    program.title,
                    program.player_counts()
                ),
                crate::diag::Span::default(),
                if program.min_players == program.max_players {
                    format!("play it with --players {}", program.min_players)
                } else {
                    format!(
                        "choose --players from {} to {}",
                        program.min_players, program.max_players
                    )
                },
            ));
        }
        let epoch = memo::Epoch::fresh();
        let program_blocks = program.blocks.len();
        let spare::Machine {
            frames,
            stack,
            secrets,
            kept,
        } = spare::machine();
        let game = Game {
            state: State {
                players,
                globals: Vec::new(),
                player_vars: Default::default(),
                entities: Vec::new(),
                labels: Default::default(),
                domains: Default::default(),
                out: Vec::new(),
                in_play: None,
                revealed: Vec::new(),
                work: state::WorkMeter::new(limits.steps_per_decision),
                epoch,
                written: memo::Written::new(program.variables.count(), epoch),
            },
            program,
            seed,
            limits,
            mode,
            rng: Rng::new(seed, 0),
            fixed: None,
            frames,
            stack,
            secrets,
            kept,
            held: Default::default(),
            pending: None,
            outcome: None,
            log: Vec::new(),
            history: Vec::new(),
            decisions: 0,
            ran: exec::BlocksRun::new(if mode.coverage { program_blocks } else { 0 }),
            clamps: clamps::Clamps::default(),
            trail: None,
            replay: None,
        };
        Ok(game)
    }

    /// Checks every declared invariant now (as after every decision in a game for people):
    /// for a position changed by hand.
    pub fn check_invariants_now(&self) -> Result<(), RuntimeError> {
        self.check_invariants().map_err(|e| *e)
    }

    /// What this game keeps and checks.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The seats out of the game (`eliminate`), in the order they went out, each with the
    /// number of decisions taken before it went out.
    pub fn eliminated(&self) -> &[(u8, u32)] {
        &self.state.out
    }

    /// The number of decisions taken so far.
    pub fn decisions(&self) -> usize {
        self.decisions
    }

    /// The decisions this game may take before the next one fails with `decision-limit`.
    pub fn max_decisions(&self) -> usize {
        self.limits.decisions
    }

    /// Sets how many decisions this game may take (a resumed or rebuilt game keeps the limit
    /// its session was given); a limit already passed fails the next decision.
    pub fn set_max_decisions(&mut self, decisions: usize) {
        self.limits.decisions = decisions;
    }

    /// The seat that decides next: the only one, or the first in seat order of those making a
    /// secret choice at once. `None` once the game is over. Allocates nothing.
    pub fn to_decide(&self) -> Option<u8> {
        match self.pending.as_ref()? {
            Pending::Turn(t) => Some(t.player),
            Pending::Choose { player, .. } | Pending::Ask { player, .. } => Some(*player),
            Pending::Secret { choices, .. } => choices
                .iter()
                .filter(|c| c.chosen.is_none())
                .map(|c| c.seat)
                .min(),
        }
    }

    /// How many options `seat` has now (0 if it has nothing to decide). Allocates nothing.
    pub fn option_count(&self, seat: u8) -> usize {
        match &self.pending {
            Some(Pending::Turn(t)) if t.player == seat => t.moves.len(),
            Some(Pending::Choose {
                player,
                options,
                pick,
                ..
            }) if *player == seat => pick
                .as_ref()
                .map_or(options.len(), |p| p.count(options.len())),
            Some(Pending::Ask { player, .. }) if *player == seat => 2,
            Some(Pending::Secret { choices, .. }) => open_choice(choices, seat).map_or(0, |c| {
                c.pick
                    .as_ref()
                    .map_or(c.options.len(), |p| p.count(c.options.len()))
            }),
            _ => 0,
        }
    }

    /// Plays option `index` of `seat`'s decision: the fast path for bots, which renders and
    /// records nothing in a playout. A refused move leaves the game unchanged. In a game for
    /// people a failing rule is undone as by [`Game::apply`]; in a playout it leaves the game
    /// over without an outcome, to be dropped.
    pub fn play(&mut self, seat: u8, index: usize) -> Result<(), MoveError> {
        if self.mode.record {
            return self.apply(seat, index);
        }
        if index >= self.option_count(seat) {
            return Err(self.refusal(seat, &format!("#{}", index.saturating_add(1))));
        }
        self.advance(seat, index).map_err(|e| self.failed(e))
    }

    /// Plays on until the game ends, each decision taken where it arises by `pick(seat,
    /// options)`, an index below `options` (the seat's [`Game::option_count`]): the same game as
    /// [`Game::play`] with the same picks, without returning to the caller between decisions.
    /// The fast path of random playouts and of search bots' rollouts. Stops early, with the
    /// game where it stands, once `limit` more decisions have been counted
    /// ([`Game::decisions`]). An error leaves the game as [`Game::play`]'s would.
    pub fn play_out(
        &mut self,
        limit: usize,
        mut pick: impl FnMut(u8, usize) -> usize,
    ) -> Result<(), MoveError> {
        let stop = self.decisions.saturating_add(limit);
        if !self.mode.record && !self.mode.invariants && self.trail.is_none() {
            if self.to_decide().is_none() {
                return Ok(());
            }
            // The machine takes every decision where it arises, the pending one first, in the
            // same order, with the same picks and the same budgets as `play` would.
            let mut picker = exec::Picker {
                pick: &mut pick,
                stop,
                refused: None,
            };
            if let Err(e) = self.run_picking(&mut picker) {
                let number = self.decisions;
                return Err(self.failed(e.in_decision(number)));
            }
            return match picker.refused {
                Some((seat, index)) => {
                    Err(self.refusal(seat, &format!("#{}", index.saturating_add(1))))
                }
                None => Ok(()),
            };
        }
        // A game that records or checks invariants takes each decision as `play` does.
        while let Some(seat) = self.to_decide() {
            if self.decisions >= stop {
                break;
            }
            let index = pick(seat, self.option_count(seat));
            self.play(seat, index)?;
        }
        Ok(())
    }

    /// A rule failed in a game that records nothing: the game is left over, without an
    /// outcome.
    fn failed(&mut self, e: RuntimeError) -> MoveError {
        self.pending = None;
        self.clear_frames();
        MoveError::Runtime(e)
    }

    /// Takes the decision, runs the rules to the next one and checks the invariants if this
    /// game checks them.
    fn advance(&mut self, seat: u8, index: usize) -> Result<(), RuntimeError> {
        self.note_step(seat, index);
        let number = self.decisions + 1;
        let mut steps = || -> Result<(), RuntimeError> {
            self.decide(seat, index)?;
            self.run()?;
            if self.mode.invariants {
                self.check_invariants()?;
            }
            Ok(())
        };
        steps().map_err(|e| e.in_decision(number))
    }

    /// The program being played.
    pub fn program(&self) -> &Arc<Program> {
        &self.program
    }

    /// The seed the game was started with.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Number of players.
    pub fn players(&self) -> u8 {
        self.state.players
    }

    /// The display name of a seat.
    pub fn seat_name(&self, p: u8) -> String {
        self.program.seat_name(p)
    }

    /// The seat with this display name (case-insensitive).
    pub fn seat_by_name(&self, name: &str) -> Option<u8> {
        (0..self.players()).find(|p| self.seat_name(*p).eq_ignore_ascii_case(name))
    }

    /// The current values (everything, unfiltered: render views with [`Game::view`]).
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The decisions taken so far, as typed (empty in a playout, which keeps no record).
    pub fn history(&self) -> &[Record] {
        &self.history
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Which blocks of statements have run in this game (by block id), if it was started with
    /// [`Mode::coverage`]; a copy of a game (a bot's imagined one) notes none.
    pub fn blocks_run(&self) -> Option<&[bool]> {
        self.ran.get()
    }

    /// How many times statement `index` of `block` (an assignment) has held a number to its
    /// variable's bounds (`int in lo..hi`) in this game, if it was started with
    /// [`Mode::coverage`]; a copy of a game notes none. Initial values and a scenario's `set`
    /// are not counted.
    pub fn clamps_at(&self, block: ir::BlockId, index: usize) -> Option<u32> {
        let n = self.state.domains.code.flat.statement_at(block, index);
        self.clamps.get(n.unwrap_or(usize::MAX))
    }

    /// True once the game is over.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The seats that must decide now, in seat order (several for a secret choice).
    pub fn waiting_on(&self) -> Vec<u8> {
        match &self.pending {
            None => Vec::new(),
            Some(Pending::Turn(t)) => vec![t.player],
            Some(Pending::Choose { player, .. }) | Some(Pending::Ask { player, .. }) => {
                vec![*player]
            }
            Some(Pending::Secret { choices, .. }) => {
                let mut w: Vec<u8> = choices
                    .iter()
                    .filter(|c| c.chosen.is_none())
                    .map(|c| c.seat)
                    .collect();
                w.sort_unstable();
                w.dedup();
                w
            }
        }
    }

    /// What kind of decision is pending, if any.
    pub fn decision_kind(&self) -> Option<DecisionKind> {
        self.pending.as_ref().map(|p| match p {
            Pending::Turn(_) => DecisionKind::Turn,
            Pending::Choose { .. } => DecisionKind::Choose,
            Pending::Ask { .. } => DecisionKind::Ask,
            Pending::Secret { .. } => DecisionKind::Secret,
        })
    }

    /// True if the pending decision is made in secret (`choose secretly`, `secretly each`, a
    /// turn offering a move with a `secret` argument):
    /// what is typed for it must not be remembered where others could see it.
    pub fn decision_is_secret(&self) -> bool {
        match &self.pending {
            Some(Pending::Secret { .. }) | Some(Pending::Choose { secret: true, .. }) => true,
            // a turn offering a move with a secret argument
            Some(Pending::Turn(t)) => t.moves.iter().any(|(a, _)| {
                self.program.actions[a.index()]
                    .params
                    .iter()
                    .any(|p| p.secret)
            }),
            _ => false,
        }
    }

    /// The question put to `player`, if they must decide.
    pub fn prompt(&self, player: u8) -> Option<String> {
        match self.pending.as_ref()? {
            Pending::Turn(t) if t.player == player => Some(format!(
                "{}, your turn: choose an action",
                self.seat_name(player)
            )),
            Pending::Choose {
                player: p,
                prompt,
                at,
                ..
            }
            | Pending::Ask {
                player: p,
                prompt,
                at,
                ..
            } if *p == player => Some(match prompt {
                Some(text) => text.clone(),
                None => self.render_prompt(*at, None),
            }),
            Pending::Secret {
                choices,
                player_slot,
                at,
                ..
            } => open_choice(choices, player).map(|c| match &c.prompt {
                Some(text) => text.clone(),
                None => self.render_prompt(*at, Some((*player_slot, player))),
            }),
            _ => None,
        }
    }

    /// The action that option `index` of `seat`'s turn would take, by name (`None` if the
    /// pending decision is not `seat`'s turn). Allocates nothing.
    pub fn option_action(&self, seat: u8, index: usize) -> Option<&str> {
        let a = self.option_action_id(seat, index)?;
        Some(self.program.actions[a.index()].name.as_str())
    }

    /// [`Game::option_action`] as the action's id (its index in the program's actions).
    pub fn option_action_id(&self, seat: u8, index: usize) -> Option<ir::ActionId> {
        match &self.pending {
            Some(Pending::Turn(t)) if t.player == seat && index < t.moves.len() => {
                Some(t.get(&self.program, index).0)
            }
            _ => None,
        }
    }

    /// What option `index` of `seat`'s decision is, as a number: equal for the same move
    /// (the same action and arguments, the same value chosen, the same answer) whatever its
    /// position in the list, so that a search can recognise a move across imagined states.
    pub fn option_key(&self, seat: u8, index: usize) -> Option<u64> {
        use std::hash::{Hash, Hasher};
        if index >= self.option_count(seat) {
            return None;
        }
        let mut h = MoveHasher::default();
        if let Some(step) = self.step_key(seat, index) {
            step.hash(&mut h);
            return Some(h.finish());
        }
        match self.pending.as_ref()? {
            Pending::Turn(t) => {
                let (a, args) = t.get(&self.program, index);
                (0u8, a.0, args).hash(&mut h);
            }
            Pending::Choose { options, .. } => (1u8, &options[index]).hash(&mut h),
            Pending::Ask { .. } => (2u8, index).hash(&mut h),
            Pending::Secret { choices, .. } => {
                let c = open_choice(choices, seat)?;
                (3u8, &c.options[index]).hash(&mut h);
            }
        }
        Some(h.finish())
    }

    /// Where the pending decision is written in the rules (the `turn`, `choose`, `ask` or
    /// `secretly` statement): tells decisions apart for statistics. Allocates nothing.
    pub fn decision_span(&self) -> Option<crate::diag::Span> {
        let at = self.decision_at()?;
        Some(self.program.block(at.0).stmts[at.1].span)
    }

    /// The statement of the pending decision.
    fn decision_at(&self) -> Option<At> {
        Some(match self.pending.as_ref()? {
            Pending::Turn(t) => t.at,
            Pending::Choose { at, .. } | Pending::Ask { at, .. } | Pending::Secret { at, .. } => {
                *at
            }
        })
    }

    /// The type that shows the pending choice's options, where their values alone would not.
    pub(super) fn options_type(&self) -> Option<&ir::Type> {
        moves::options_type(&self.program, self.decision_at()?)
    }

    /// The legal options of `player` now; empty if they have nothing to decide.
    pub fn options(&self, player: u8) -> Vec<MoveOption> {
        // A list's labels are numbered by the repeats before them: rendered in one pass.
        if let Some(list) = self.listed_options(player) {
            return moves::option_labels(&self.program, &self.state, list, self.options_type())
                .into_iter()
                .map(|label| MoveOption {
                    label,
                    detail: None,
                })
                .collect();
        }
        (0..self.option_count(player))
            .map(|i| MoveOption {
                label: self.option_label(player, i).unwrap_or_default(),
                detail: match &self.pending {
                    Some(Pending::Turn(t)) => {
                        let (a, _) = t.get(&self.program, i);
                        self.program.actions[a.index()].description.clone()
                    }
                    _ => None,
                },
            })
            .collect()
    }

    /// The values `player` chooses one of, when their options are exactly a list's elements (a
    /// `choose ... from` or a secret choice, not a choice of several).
    fn listed_options(&self, player: u8) -> Option<&[Value]> {
        let list = match &self.pending {
            Some(Pending::Choose {
                options,
                pick: None,
                ..
            }) => Some(&options[..]),
            Some(Pending::Secret { choices, .. }) => open_choice(choices, player)
                .filter(|c| c.pick.is_none())
                .map(|c| &c.options[..]),
            _ => None,
        }?;
        (self.option_count(player) == list.len()).then_some(list)
    }

    /// The option of a choice among numbers in increasing order (a range) labelled `typed`,
    /// found without labelling every number: `None` when the choice is not one of those.
    fn numbered_option(&self, player: u8, typed: &str) -> Option<Option<usize>> {
        let list = self.listed_options(player)?;
        if !moves::increasing_numbers(list) {
            return None;
        }
        // Only the label itself names an option: `7`, not `07` or `+7`.
        let n = typed.parse::<i64>().ok().filter(|n| n.to_string() == typed);
        Some(n.and_then(|n| list.binary_search(&Value::Int(n)).ok()))
    }

    /// Applies `player`'s choice of option `index`. On any error the game is unchanged.
    pub fn apply(&mut self, player: u8, index: usize) -> Result<(), MoveError> {
        if index >= self.option_count(player) {
            return Err(self.refusal(player, &format!("#{}", index.saturating_add(1))));
        }
        self.apply_checked(player, index)
    }

    /// Applies `player`'s move given as typed (the option's label). On any error the game is
    /// unchanged.
    pub fn apply_label(&mut self, player: u8, input: &str) -> Result<(), MoveError> {
        if let Some(result) = self.apply_several(player, input) {
            return result;
        }
        let wanted = normalize(input);
        if let Some(found) = self.numbered_option(player, &wanted) {
            return match found {
                Some(index) => self.apply_checked(player, index),
                None => Err(self.refusal(player, input.trim())),
            };
        }
        let options = self.options(player);
        match options.iter().position(|o| normalize(&o.label) == wanted) {
            Some(index) => self.apply_checked(player, index),
            None => match self.move_in_any_order(player, input) {
                Some(index) => self.apply_checked(player, index),
                None => match self.named_by_shown_name(player, input) {
                    alike::Named::Alike(index) => self.apply_checked(player, index),
                    alike::Named::Different(labels) => Err(MoveError::Illegal {
                        input: input.trim().to_string(),
                        reason: alike::differ(&labels),
                        close: None,
                    }),
                    alike::Named::Nothing => Err(self.refusal(player, input.trim())),
                },
            },
        }
    }

    /// The move of `player`'s turn that `input` names with a set argument's elements in
    /// another order than its label's (`take3 W R K` for `take3 R K W`).
    fn move_in_any_order(&self, player: u8, input: &str) -> Option<usize> {
        let Some(Pending::Turn(t)) = &self.pending else {
            return None;
        };
        if t.player != player {
            return None;
        }
        (0..t.moves.len()).find(|&i| {
            let (a, args) = t.get(&self.program, i);
            let def = &self.program.actions[a.index()];
            sets::typed_in_any_order(&self.program, &self.state, def, args, input)
        })
    }

    /// The label of one option, as the player types it (rendered now; the fast path never
    /// needs it).
    pub fn option_label(&self, player: u8, index: usize) -> Option<String> {
        if index >= self.option_count(player) {
            return None;
        }
        if let Some(step) = self.step_label(player, index) {
            return Some(step);
        }
        let program = &self.program;
        Some(match self.pending.as_ref()? {
            Pending::Turn(t) => {
                let (a, args) = t.get(program, index);
                moves::move_label(program, &self.state, &program.actions[a.index()], args)
            }
            Pending::Choose { options, .. } => {
                moves::option_label(program, &self.state, options, index, self.options_type())
            }
            Pending::Ask { at, .. } => moves::ask_labels(program, *at)[index].to_string(),
            Pending::Secret { choices, .. } => {
                let c = open_choice(choices, player)?;
                moves::option_label(program, &self.state, &c.options, index, self.options_type())
            }
        })
    }

    /// What option `index` of `seat`'s `choose`, `ask` or `secretly` decision names: the value
    /// as shown (`red`, `P2`, a kind's `shown as` name), the `ask`'s word, or for a step of a
    /// choice of several its element or `done`; `None` for a turn. Unlike
    /// [`Game::option_label`], repeats in the list are not numbered, so the same value has the
    /// same name in any list, and alike instances one name (`tempura`, not `tempura#2`): what
    /// statistics count options by.
    pub fn option_name(&self, seat: u8, index: usize) -> Option<String> {
        if index >= self.option_count(seat) {
            return None;
        }
        if let Some(step) = self.step_name(seat, index) {
            return Some(step);
        }
        let option = match self.pending.as_ref()? {
            Pending::Turn(_) => return None,
            Pending::Choose { options, .. } => &options[index],
            Pending::Ask { at, .. } => {
                return Some(moves::ask_labels(&self.program, *at)[index].to_string())
            }
            Pending::Secret { choices, .. } => &open_choice(choices, seat)?.options[index],
        };
        let shown = moves::show_option(&self.program, &self.state, option, self.options_type());
        // Instances that look alike (`tempura`, `tempura#2`) are one option to a player.
        Some(match option {
            Value::Entity(_) => moves::without_repeat_number(&shown).to_string(),
            _ => shown,
        })
    }

    fn apply_checked(&mut self, player: u8, index: usize) -> Result<(), MoveError> {
        let backup = exec::Backup::take(self);
        // A choice of several is recorded once, whole, when its last step is taken.
        if self.pick_of(player).is_none() {
            let label = self.option_label(player, index).unwrap_or_default();
            self.history.push(Record {
                player,
                choice: label,
            });
        }
        match self.advance(player, index) {
            Ok(()) => Ok(()),
            Err(e) => {
                backup.restore(self);
                Err(MoveError::Runtime(e))
            }
        }
    }

    fn refusal(&self, player: u8, input: &str) -> MoveError {
        if self.is_over() {
            return MoveError::GameOver;
        }
        let waiting = self.waiting_on();
        if !waiting.contains(&player) {
            return MoveError::NotYourDecision {
                player: self.seat_name(player),
                waiting: waiting.iter().map(|p| self.seat_name(*p)).collect(),
            };
        }
        let (reason, close) = self.why_not(player, input);
        MoveError::Illegal {
            input: input.to_string(),
            reason,
            close,
        }
    }

    /// Why `input` is not a legal move for `player` now, or `None` if it is legal.
    pub fn why(&self, player: u8, input: &str) -> Option<String> {
        if let Some(reason) = self.why_several(player, input) {
            return reason;
        }
        let wanted = normalize(input);
        if self
            .options(player)
            .iter()
            .any(|o| normalize(&o.label) == wanted)
            || self.move_in_any_order(player, input).is_some()
        {
            return None;
        }
        match self.named_by_shown_name(player, input) {
            alike::Named::Alike(_) => return None,
            alike::Named::Different(labels) => return Some(alike::differ(&labels)),
            alike::Named::Nothing => {}
        }
        Some(match self.refusal(player, input.trim()) {
            MoveError::Illegal { reason, .. } => reason,
            other => other.to_string(),
        })
    }

    /// The game as `viewer` may see it.
    pub fn view(&self, viewer: Viewer) -> String {
        view::render(self, viewer)
    }

    /// The game as `viewer` may see it, in parts to draw: what [`Game::view`] writes as text.
    pub fn picture(&self, viewer: Viewer) -> Picture {
        picture::picture(self, viewer)
    }

    /// The instances `viewer` can see somewhere now, and those it cannot see anywhere, with
    /// their names: for tests that nothing hidden leaks.
    pub fn instances_seen(&self, viewer: Viewer) -> (Vec<String>, Vec<String>) {
        let (seen, unseen) = view::instances_seen(self, viewer);
        let name = |v: &Value| show(&self.program, &self.state, v);
        (
            seen.iter().map(name).collect(),
            unseen.iter().map(name).collect(),
        )
    }

    /// How far the game's stream of chance has been read: it moves with every roll, shuffle and
    /// random pick, so two positions of one game with the same value drew on chance equally.
    pub fn chance_drawn(&self) -> u128 {
        self.rng.position() + self.fixed.as_ref().map_or(0, |f| u128::from(f.used))
    }

    /// True if `seat` knows something now that it did not know at `earlier` (a position of the
    /// same game, before) and that not everyone knows: a value it may see that others may not
    /// (a card drawn to its hand, a field turned visible to it by a look), or a log line written
    /// for it alone.
    pub fn seat_learned_since(&self, earlier: &Game, seat: u8) -> bool {
        let viewer = Viewer::Player(seat);
        let before = view::visible_values(earlier, viewer);
        let public = view::visible_values(self, Viewer::Spectator);
        let learned = view::visible_values(self, viewer)
            .into_iter()
            .any(|x| !public.contains(&x) && !before.contains(&x));
        let private_lines = |g: &Game| {
            g.log_lines(viewer)
                .iter()
                .filter(|l| l.private && !l.announcement)
                .count()
        };
        learned || private_lines(self) > private_lines(earlier)
    }

    /// The whole position as text, secrets and all, for the chain of state hashes in a save:
    /// every variable and field, how far chance has been drawn, every log line with its
    /// audience, the record of decisions, who must decide and their options, and the outcome.
    /// Deterministic for a position, but tied to this version of meeple (its layout may change
    /// between versions). Never show it to a player.
    pub fn canonical(&self) -> String {
        self.canonical_text(0, true)
    }

    /// The position as [`Game::canonical`] gives it, but of the log only the lines written
    /// after `since`, and without the record of decisions: for a chain of hashes in which each
    /// link already covers the decisions and log lines before it, so that a save of a long game
    /// is hashed in time that grows with its length, not with its square.
    pub fn canonical_since(&self, since: LogCursor) -> String {
        self.canonical_text(since.0, false)
    }

    /// Where the log ends now, for [`Game::log_since`] and [`Game::canonical_since`].
    pub fn log_end(&self) -> LogCursor {
        LogCursor(self.log.len())
    }

    fn canonical_text(&self, log_from: usize, with_history: bool) -> String {
        use std::fmt::Write;
        fn value(out: &mut String, v: &Value) {
            match v {
                Value::None => out.push('N'),
                Value::Bool(b) => out.push(if b.get() { 'T' } else { 'F' }),
                Value::Int(n) => {
                    let _ = write!(out, "I{n}");
                }
                Value::Player(p) => {
                    let _ = write!(out, "P{}", p.get());
                }
                Value::Enum(x) => {
                    let _ = write!(out, "E{}.{}", x.enum_id().index(), x.index());
                }
                Value::Entity(x) => {
                    let _ = write!(out, "K{}.{}", x.kind().index(), x.index());
                }
                Value::List(xs) => {
                    out.push('[');
                    for x in xs.iter() {
                        value(out, x);
                        out.push(',');
                    }
                    out.push(']');
                }
            }
        }
        let mut out = String::new();
        let _ = writeln!(
            out,
            "players {} chance {}",
            self.players(),
            self.chance_drawn()
        );
        out.push_str("globals ");
        for v in &self.state.globals {
            value(&mut out, v);
            out.push(';');
        }
        for (p, vars) in self.state.player_vars.iter().enumerate() {
            let _ = write!(out, "\nseat {p} ");
            for v in vars {
                value(&mut out, v);
                out.push(';');
            }
        }
        for (k, instances) in self.state.entities.iter().enumerate() {
            for (i, fields) in instances.iter().enumerate() {
                let _ = write!(out, "\ninstance {k}.{i} ");
                for v in fields {
                    value(&mut out, v);
                    out.push(';');
                }
            }
        }
        // Written only once a seat is out, so that the positions of games that eliminate no
        // one hash as they always have.
        for (seat, at) in &self.state.out {
            let _ = write!(out, "\nout {seat} {at}");
        }
        // Likewise only for an instance revealed now.
        for (k, instances) in self.state.entities.iter().enumerate() {
            for i in 0..instances.len() as u32 {
                if self.state.is_revealed(k, i) {
                    let _ = write!(out, "\nrevealed {k}.{i}");
                }
            }
        }
        for entry in self.log.get(log_from..).unwrap_or_default() {
            let _ = write!(out, "\nlog {:?} {:?}", entry.audience, entry.text);
        }
        if with_history {
            for r in &self.history {
                let _ = write!(out, "\ndecided {} {:?}", r.player, r.choice);
            }
        }
        for seat in self.waiting_on() {
            let _ = write!(out, "\nwaiting {seat}");
            for o in self.options(seat) {
                let _ = write!(out, " {:?}", o.label);
            }
        }
        if let Some(o) = &self.outcome {
            let _ = write!(out, "\nover {:?} {:?} {:?}", o.winners, o.scores, o.reason);
        }
        out.push('\n');
        out
    }

    /// The log lines `viewer` may read, oldest first, with who they were written for and by.
    pub fn log_lines(&self, viewer: Viewer) -> Vec<LogLine> {
        view::log_entries(self, viewer)
    }

    /// The log lines `viewer` may read, oldest first.
    pub fn log(&self, viewer: Viewer) -> Vec<String> {
        view::log(self, viewer, 0)
    }

    /// The log lines `viewer` may read that were written after `cursor` (the start of the log
    /// for `LogCursor::default()`), and the cursor to read on from: a front end that prints
    /// the log as the game goes reads each line once, not the whole log at every decision.
    pub fn log_since(&self, viewer: Viewer, cursor: LogCursor) -> (Vec<String>, LogCursor) {
        let from = cursor.0.min(self.log.len());
        (view::log(self, viewer, from), self.log_end())
    }
}

/// A place in a game's log, from which [`Game::log_since`] reads on. Opaque: it counts the
/// lines written for every seat, which no viewer may learn. Past the end of a shorter log (a
/// game replayed without its last moves) it stands at that log's end.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct LogCursor(usize);

/// A game whose initial values are set but whose `setup` has not run yet
/// ([`GameSettings::unstarted`]).
#[derive(Debug, Clone)]
pub struct Unstarted(Game, bool);

impl Unstarted {
    /// The game as it stands: read its state, evaluate in it.
    pub fn game(&self) -> &Game {
        &self.0
    }

    /// Writes a value to a resolved place, as [`Game::set_place`].
    pub fn set_place(
        &mut self,
        place: &ir::Place,
        value: Value,
        locals: &mut [Value],
    ) -> Result<(), RuntimeError> {
        self.1 = true;
        self.0.set_place(place, value, locals)
    }

    /// Moves an item from one list to another, as [`Game::move_item`].
    pub fn move_item(
        &mut self,
        item: &Value,
        lists: (setup::Holder, setup::Holder),
        at: Option<usize>,
        span: crate::diag::Span,
    ) -> Result<(), RuntimeError> {
        self.1 = true;
        self.0.move_item(item, lists, at, span)
    }

    /// Fixes the next result of chance, as [`Game::fix_chance`].
    pub fn fix_chance(&mut self, chance: FixedChance, span: crate::diag::Span) {
        self.0.fix_chance(chance, span);
    }

    /// Runs `setup` and the flow to the first decision, and checks the invariants if the game
    /// checks them.
    pub fn start(self) -> Result<Game, RuntimeError> {
        let mut game = self.0;
        game.begin(self.1)?;
        Ok(game)
    }
}

/// Moves compare without case and with runs of spaces folded.
fn normalize(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// A value as players read it: `P2`, `red`, `crate-3` (or the kind's `shown as` name),
/// `[3, 5]`.
pub fn show(program: &Program, state: &State, v: &Value) -> String {
    match v {
        Value::None => "none".into(),
        Value::Bool(b) => if b.get() { "yes" } else { "no" }.into(),
        Value::Int(n) => n.to_string(),
        Value::Player(p) => program.seat_name(p.get()),
        Value::Enum(x) => program.enums[x.enum_id().index()].shown[x.index() as usize].clone(),
        Value::Entity(x) => {
            let (k, i) = (x.kind(), x.index());
            if let Some(label) = state.labels.get(k.index()).and_then(|l| l.get(i as usize)) {
                return label.clone();
            }
            let kind = &program.kinds[k.index()];
            match kind.names.get(i as usize) {
                Some(name) => name.clone(),
                None => format!("{}-{}", kind.name, i + 1),
            }
        }
        Value::List(xs) => format!(
            "[{}]",
            xs.iter()
                .map(|x| show(program, state, x))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The hash behind [`Game::option_key`]: FNV-1a over whole words rather than SipHash over
/// bytes. A search keys every option of every position it walks through, and the key only
/// has to tell the moves of one decision apart, not resist an adversary.
#[derive(Debug, Clone, Copy)]
struct MoveHasher(u64);

impl Default for MoveHasher {
    fn default() -> MoveHasher {
        MoveHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl MoveHasher {
    #[inline]
    fn mix(&mut self, word: u64) {
        self.0 = (self.0 ^ word).wrapping_mul(0x0100_0000_01b3);
    }
}

impl std::hash::Hasher for MoveHasher {
    fn finish(&self) -> u64 {
        // FNV's low bits mix poorly; fold the high half in.
        self.0 ^ (self.0 >> 29)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.mix(u64::from(b));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.mix(u64::from(n));
    }

    fn write_u16(&mut self, n: u16) {
        self.mix(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.mix(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.mix(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.mix(n as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CARDS: &str = r#"
game "Labels" { players 2 }
enum rank { nine shown as "9", ten shown as "10", jack shown as "J" }
enum suit { hearts shown as "H", spades }
kind card[6] shown as "{it.rank}{it.suit}" {
  rank: rank = nth(rank, (index - 1) % 3 + 1)
  suit: suit = nth(suit, (index - 1) / 3 + 1)
}
player var picked: rank = none
flow { for p in players { turn p } }
action pick(r: rank) "Pick a rank" {
  me.picked = r
  log "{me} picks {r}; the first card is {first(card)}"
}
"#;

    #[test]
    fn a_long_list_is_labelled_in_one_pass_as_one_by_one() {
        let src = "game \"L\" { players 2 }\nplayer var got: int = 0\nflow {\n  for p in players {\n    let n = choose p \"Pick\" from [1, 2, 1, 3, 1, 2] + (1..99990)\n    p.got = n\n  }\n}\nscore(p) = p.got\n";
        let loaded = crate::load::check_source("l.rules", src);
        let program = Arc::new(loaded.program.expect("checks"));
        let game = Game::new(program, 2, 1).expect("starts");
        // 99996 options: one by one, this was quadratic (minutes)
        let labels: Vec<String> = game.options(0).into_iter().map(|o| o.label).collect();
        assert_eq!(labels.len(), 99_996);
        assert_eq!(
            labels[..8],
            ["1", "2", "1#2", "3", "1#3", "2#2", "1#4", "2#3"]
        );
        for i in [0, 2, 5, 7, 99_995] {
            assert_eq!(
                game.option_label(0, i).as_ref(),
                Some(&labels[i]),
                "option {i}"
            );
        }
    }

    #[test]
    fn enum_values_shown_as_a_text_are_shown_and_typed_that_way() {
        let loaded = crate::load::check_source("labels.rules", CARDS);
        let program = Arc::new(loaded.program.expect("checks"));
        let mut game = Game::new(program.clone(), 2, 1).expect("starts");
        let labels: Vec<String> = game.options(0).into_iter().map(|o| o.label).collect();
        assert_eq!(labels, ["pick 9", "pick 10", "pick J"]);
        game.apply_label(0, "pick j")
            .expect("typed as shown, any case");
        let state = game.state();
        let cards: Vec<String> = (0..6)
            .map(|i| show(&program, state, &Value::entity(ir::KindId(0), i)))
            .collect();
        assert_eq!(cards, ["9H", "10H", "JH", "9spades", "10spades", "Jspades"]);
        assert!(game
            .log(Viewer::Spectator)
            .iter()
            .any(|l| l == "P1 picks J; the first card is 9H"));
        // The rules still name the value as declared.
        assert_eq!(program.enums[0].values[2], "jack");
    }

    #[test]
    fn an_argument_that_is_no_value_lists_the_values_and_a_wrong_count_says_so() {
        let loaded = crate::load::check_source("labels.rules", CARDS);
        let program = Arc::new(loaded.program.expect("checks"));
        let game = Game::new(program, 2, 1).expect("starts");
        let reason = game.why(0, "pick jack").expect("refused");
        assert_eq!(
            reason,
            "`jack` is not a value of <r>; the values are: 9, 10, J"
        );
        let reason = game.why(0, "pick 9 10").expect("refused");
        assert!(reason.contains("takes 1 argument(s)"), "{reason}");
        assert_eq!(game.why(0, "pick J"), None);
    }

    #[test]
    fn an_enum_value_is_shown_as_a_plain_text() {
        let src = "game \"G\" { players 2 }\nenum e { a shown as \"{1}\", b }\nvar x: e = a\nflow { log \"{x} {b}\" }\n";
        let loaded = crate::load::check_source("g.rules", src);
        assert!(loaded.program.is_none());
        assert!(loaded
            .diagnostics
            .0
            .iter()
            .any(|d| d.code == "not-constant"));
    }
}
