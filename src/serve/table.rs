//! The table: one game kept by the server, the seats' keys, the bots in their seats, the save
//! written after each decision, and a version of each viewer's page that moves only when what
//! that viewer may see has changed.
//!
//! Invariant: a page is drawn from a [`Sight`], which is built from the engine's calls for one
//! viewer (its picture, its log, its own prompt and options) and nothing else; a viewer's page
//! version moves only when its own page changed, so the timing of events tells a seat nothing
//! it could not read by reloading.

use super::page::{self, Sight};
use super::token::{Token, Tokens};
use crate::bots::{BotSpec, Policy};
use crate::engine::GameSettings;
use crate::engine::{Game, MoveError, RuntimeError, Viewer};
use crate::save::SaveFile;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use tokio::sync::watch;

/// Who a key belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Who {
    /// A seat, 0-based.
    Seat(u8),
    /// An onlooker: sees only what is public.
    Onlooker,
}

impl Who {
    /// The engine's viewer for this key.
    pub fn viewer(self) -> Viewer {
        match self {
            Who::Seat(p) => Viewer::Player(p),
            Who::Onlooker => Viewer::Spectator,
        }
    }
}

/// How a table is set up.
pub struct TableConfig {
    /// The game started (or resumed) for the table.
    pub game: Game,
    /// The rules file and variants, as a save names them.
    pub rules: String,
    /// The variant files stacked on the rules.
    pub variants: Vec<String>,
    /// The seats bots play.
    pub bots: BotSpec,
    /// Where the game is saved after each decision, if anywhere.
    pub save: Option<PathBuf>,
    /// Told to whoever runs the table: failures of rules and of saving.
    pub host: Arc<dyn Fn(&str) + Send + Sync>,
    /// A replay of a save: nothing is played, and every view of every decision may be stepped
    /// through (the host holds the save, secrets and all).
    pub replay: bool,
}

/// One decision of a game, stepped to, as one viewer saw it.
pub struct Step {
    /// What the viewer saw just after the decision.
    pub sight: Sight,
    /// The decision stepped to (0: the game as set up).
    pub at: usize,
    /// The decisions taken in all.
    pub total: usize,
    /// The move of each decision, as `P2: play 7D` (secret moves included: the game is over).
    pub moves: Vec<String>,
    /// The views there are: each seat's name, `onlookers` and `referee`.
    pub views: Vec<String>,
    /// The view shown.
    pub view: String,
}

/// Why a game cannot be stepped through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepRefusal {
    /// The game is still being played: its past views would tell secrets.
    NotOver,
    /// No such view.
    NoView(String),
    /// The game could not be replayed (the rules changed under a save).
    Replay(String),
}

/// Why a move was not taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The page the move came from is out of date: the table moved on.
    Stale,
    /// The key's seat is not deciding now (or it is an onlooker's key).
    NotYours,
    /// Not a legal move: why, as the seat may read it.
    Illegal(String),
    /// The game is over or has stopped.
    Closed,
}

/// One game at a table.
pub struct Table {
    tokens: Tokens,
    inner: Mutex<Inner>,
    /// Woken when the game moves, so that a bot whose turn it is plays.
    bots_wake: Condvar,
    /// Each viewer's page version (seats, then the onlooker), read by its event stream.
    versions: Vec<watch::Sender<u64>>,
    host: Arc<dyn Fn(&str) + Send + Sync>,
}

struct Inner {
    game: Game,
    rules: String,
    variants: Vec<String>,
    spec: BotSpec,
    /// A bot for each seat a bot plays (taken out while it thinks).
    bots: Vec<Option<Box<dyn Policy + Send>>>,
    is_bot: Vec<bool>,
    save: Option<PathBuf>,
    /// Set when a rule failed: the game stops where it was.
    stopped: bool,
    /// Set when the server shuts down: the bots stop.
    closing: bool,
    /// A replay: no moves are taken.
    replay: bool,
    /// A hash of each viewer's page, to tell when it changed.
    fingerprints: Vec<u64>,
}

impl Table {
    /// A table for `config`'s game, with a fresh key for every seat and one for onlookers.
    pub fn new(config: TableConfig) -> Result<Arc<Table>, std::io::Error> {
        let players = config.game.players();
        let tokens = Tokens::fresh(players)?;
        let bots: Vec<Option<Box<dyn Policy + Send>>> = (0..players)
            .map(|p| {
                config
                    .bots
                    .for_seat(p)
                    .map(|kind| kind.policy(config.game.seed(), p))
            })
            .collect();
        let is_bot = bots.iter().map(Option::is_some).collect();
        let viewers = players as usize + 1;
        let table = Table {
            tokens,
            inner: Mutex::new(Inner {
                game: config.game,
                rules: config.rules,
                variants: config.variants,
                spec: config.bots,
                bots,
                is_bot,
                save: config.save,
                stopped: false,
                closing: false,
                replay: config.replay,
                fingerprints: vec![0; viewers],
            }),
            bots_wake: Condvar::new(),
            versions: (0..viewers).map(|_| watch::channel(1).0).collect(),
            host: config.host,
        };
        table.refresh(&mut table.lock());
        Ok(Arc::new(table))
    }

    /// The keys of the table, for the links printed to the host.
    pub fn tokens(&self) -> &Tokens {
        &self.tokens
    }

    /// Whose key `token` is, if it is one of this table's.
    pub fn who(&self, token: &str) -> Option<Who> {
        self.tokens.who(token)
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic elsewhere while holding the lock leaves a game that is still whole: every
        // change to it is made by the engine, which restores it on error.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn index(&self, who: Who) -> usize {
        match who {
            Who::Seat(p) => p as usize,
            Who::Onlooker => self.versions.len() - 1,
        }
    }

    /// The version of `who`'s page now.
    pub fn version(&self, who: Who) -> u64 {
        *self.versions[self.index(who)].borrow()
    }

    /// A stream of `who`'s page versions, for its live updates.
    pub fn subscribe(&self, who: Who) -> watch::Receiver<u64> {
        self.versions[self.index(who)].subscribe()
    }

    /// What `who` may see now, to draw its page.
    pub fn sight(&self, who: Who) -> Sight {
        let inner = self.lock();
        let version = self.version(who);
        self.sight_of(&inner, who, version)
    }

    fn sight_of(&self, inner: &Inner, who: Who, version: u64) -> Sight {
        let token = self.tokens.token_of(who).as_str().to_string();
        let bot_seat = match who {
            Who::Seat(p) => inner.is_bot[p as usize],
            Who::Onlooker => false,
        };
        Sight::of(&inner.game, who, token, version, inner.stopped, bot_seat)
    }

    /// Why `input` would not be a legal move for `who` now (`None` if it is legal).
    pub fn why(&self, who: Who, input: &str) -> Option<String> {
        let Who::Seat(p) = who else {
            return Some("onlookers do not play".to_string());
        };
        self.lock().game.why(p, input)
    }

    /// Takes `who`'s move `input` (an option's label, or a choice of several typed whole),
    /// made from the page of version `version`.
    pub fn play(&self, who: Who, version: u64, input: &str) -> Result<(), Refusal> {
        let Who::Seat(seat) = who else {
            return Err(Refusal::NotYours);
        };
        let mut inner = self.lock();
        if inner.stopped || inner.replay || inner.game.is_over() {
            return Err(Refusal::Closed);
        }
        if version != self.version(who) {
            return Err(Refusal::Stale);
        }
        if inner.is_bot[seat as usize] || !inner.game.waiting_on().contains(&seat) {
            return Err(Refusal::NotYours);
        }
        match inner.game.apply_label(seat, input) {
            Ok(()) => {}
            Err(MoveError::Runtime(e)) => self.stop(&mut inner, &e),
            Err(e @ MoveError::Illegal { .. }) => {
                return Err(Refusal::Illegal(page::illegal_text(&e)))
            }
            Err(_) => return Err(Refusal::NotYours),
        }
        self.moved(&mut inner);
        Ok(())
    }

    /// After a move: save, bring every page up to date, and wake the bots.
    fn moved(&self, inner: &mut Inner) {
        self.save(inner);
        self.refresh(inner);
        self.bots_wake.notify_all();
    }

    /// A rule failed: the game stays as it was before the move, saved, and stops. The host
    /// reads the failure; the seats only that the game stopped.
    fn stop(&self, inner: &mut Inner, error: &RuntimeError) {
        inner.stopped = true;
        let diagnostic = crate::diag::render(
            &error.to_diagnostic(),
            &inner.game.program().sources,
            crate::diag::RenderStyle::plain(),
        );
        let path = inner
            .save
            .clone()
            .unwrap_or_else(|| PathBuf::from(format!("meeple-failure-{}.json", inner.game.seed())));
        let saved = self.write_save(inner, &path);
        let note = match saved {
            Ok(()) => format!(
                "{diagnostic}the game just before that decision is saved in `{}`; `meeple serve --load {}` reopens it",
                path.display(),
                path.display()
            ),
            Err(e) => format!("{diagnostic}the game was not saved: {e}"),
        };
        (self.host)(&note);
    }

    fn save(&self, inner: &Inner) {
        let Some(path) = inner.save.clone() else {
            return;
        };
        if let Err(e) = self.write_save(inner, &path) {
            (self.host)(&format!("the game was not saved: {e}"));
        }
    }

    fn write_save(&self, inner: &Inner, path: &std::path::Path) -> Result<(), String> {
        let bots = (inner.spec != BotSpec::default()).then(|| inner.spec.render());
        SaveFile::of_game(&inner.game, &inner.rules, &inner.variants, bots)
            .and_then(|s| s.write(path))
            .map_err(|e| e.to_string())
    }

    /// Moves the version of every viewer whose page changed.
    fn refresh(&self, inner: &mut Inner) {
        let viewers = inner.game.players() as usize + 1;
        for i in 0..viewers {
            let who = if i + 1 == viewers {
                Who::Onlooker
            } else {
                Who::Seat(i as u8)
            };
            // The page as drawn at a fixed version, so that only its content counts.
            let html = page::render(&self.sight_of(inner, who, 0));
            let mut h = std::collections::hash_map::DefaultHasher::new();
            html.hash(&mut h);
            let print = h.finish();
            if inner.fingerprints[i] != print {
                inner.fingerprints[i] = print;
                self.versions[i].send_modify(|v| *v += 1);
            }
        }
    }

    /// Plays the bots' seats whenever they must decide, until the table closes: each bot
    /// thinks on a copy of the game, outside the lock, so that pages load meanwhile.
    pub fn run_bots(&self) {
        let mut inner = self.lock();
        loop {
            if inner.closing {
                return;
            }
            let seat = (!inner.stopped && !inner.replay && !inner.game.is_over())
                .then(|| inner.game.waiting_on())
                .and_then(|w| w.into_iter().find(|p| inner.is_bot[*p as usize]));
            let Some(seat) = seat else {
                inner = self
                    .bots_wake
                    .wait(inner)
                    .unwrap_or_else(|e| e.into_inner());
                continue;
            };
            let Some(mut bot) = inner.bots[seat as usize].take() else {
                inner = self
                    .bots_wake
                    .wait(inner)
                    .unwrap_or_else(|e| e.into_inner());
                continue;
            };
            let copy = inner.game.clone();
            let decisions = inner.game.decisions();
            drop(inner);
            let index = (copy.option_count(seat) > 0).then(|| bot.decide(&copy, seat));
            inner = self.lock();
            inner.bots[seat as usize] = Some(bot);
            // Nobody else can move for this seat, but a secret choice may have taken others'.
            if inner.game.decisions() != decisions || inner.stopped {
                continue;
            }
            let Some(index) = index else {
                inner = self
                    .bots_wake
                    .wait(inner)
                    .unwrap_or_else(|e| e.into_inner());
                continue;
            };
            match inner.game.apply(seat, index) {
                Ok(()) => {}
                Err(MoveError::Runtime(e)) => self.stop(&mut inner, &e),
                Err(e) => {
                    inner.stopped = true;
                    (self.host)(&format!("a bot's move was refused: {e}"));
                }
            }
            self.moved(&mut inner);
        }
    }

    /// Decision `at` of the game (clamped to those taken) as `view` saw it: a seat's name,
    /// `onlookers` or `referee`. Only once the game is over (or the table is a replay, or the
    /// game stopped on a failing rule), since the past views show what every seat held.
    pub fn step(&self, at: usize, view: &str) -> Result<Step, StepRefusal> {
        let (program, players, seed, history, key) = {
            let inner = self.lock();
            if !(inner.replay || inner.stopped || inner.game.is_over()) {
                return Err(StepRefusal::NotOver);
            }
            let g = &inner.game;
            (
                g.program().clone(),
                g.players(),
                g.seed(),
                g.history().to_vec(),
                self.tokens.token_of(Who::Onlooker).as_str().to_string(),
            )
        };
        let total = history.len();
        let at = at.min(total);
        let game = crate::save::replay(
            program,
            &GameSettings::new(players, seed),
            &history[..at],
            &mut |_, _| {},
        )
        .map_err(|e| StepRefusal::Replay(e.to_string()))?;
        let mut views: Vec<String> = (0..players).map(|p| game.seat_name(p)).collect();
        views.push("onlookers".into());
        views.push("referee".into());
        let viewer = match view {
            "referee" => Viewer::Referee,
            "onlookers" => Viewer::Spectator,
            name => match game.seat_by_name(name) {
                Some(p) => Viewer::Player(p),
                None => return Err(StepRefusal::NoView(name.to_string())),
            },
        };
        let moves = history
            .iter()
            .map(|r| format!("{}: {}", game.seat_name(r.player), r.choice))
            .collect();
        Ok(Step {
            sight: Sight::looking(&game, viewer, key),
            at,
            total,
            moves,
            views,
            view: view.to_string(),
        })
    }

    /// Stops the bots (the server is shutting down).
    pub fn close(&self) {
        self.lock().closing = true;
        self.bots_wake.notify_all();
    }

    /// A copy of the game as it stands, secrets and all: for the host and for tests, never a
    /// page.
    pub fn game(&self) -> Game {
        self.lock().game.clone()
    }

    /// The key of `who`.
    pub fn token_of(&self, who: Who) -> &Token {
        self.tokens.token_of(who)
    }
}
