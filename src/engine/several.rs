//! Choosing several elements of a list as one decision (`choose any of`, `at most k of`,
//! `exactly k of`, `lo..hi of`).
//!
//! People see and type the whole choice at once (`3 5 7`); bots and the fast path see it as a
//! few steps, each "pick one more element" or "done", so that no list of subsets is ever built.
//! Elements are picked in list order (a step offers only elements after the last one picked),
//! so each selection is reached by exactly one sequence of steps, and a step is offered only
//! if enough elements remain after it to reach the least count. Elements are told apart by
//! position: a list holding two equal elements offers both (`5` and `5#2`, as a `choose` of one
//! labels them). The decision counts once, is announced once and is recorded once, when its
//! last step is taken.

use super::exec::{err, R};
use super::moves::option_labels;
use super::{normalize, open_choice, Game, MoveError, Pending, Record};
use crate::diag::Span;
use crate::ir::{self, List, Value};
use std::ops::Range;

/// What is typed for choosing no element at all.
pub const NOTHING: &str = "none";
/// The label of the step that ends a choice of several (on the fast path and for bots).
pub const DONE: &str = "done";

/// A choice of several in progress: how many it takes and the positions picked so far.
#[derive(Debug, Clone)]
pub(crate) struct Pick {
    min: usize,
    max: usize,
    /// Positions picked, increasing, as `Value::Int`s: a pooled list, so that a playout's steps
    /// allocate nothing.
    picked: List,
}

/// How many elements a choice of several takes, and where it stands, for front ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Several {
    /// Every element's label, as typed (`5`, `5#2`), in list order.
    pub labels: Vec<String>,
    /// The fewest that may be chosen.
    pub min: usize,
    /// The most that may be chosen.
    pub max: usize,
    /// The positions picked already (only a bot stepping through the choice leaves some).
    pub picked: Vec<usize>,
}

impl Several {
    /// "any", "at most 2", "exactly 3", "from 1 to 2": how many, in words.
    pub fn how_many(&self) -> String {
        if self.max == 0 {
            "none (nothing can be chosen now)".to_string()
        } else if self.min == self.max {
            format!("exactly {}", self.min)
        } else if self.max >= self.labels.len() && self.min == 0 {
            "any".to_string()
        } else if self.min > 0 {
            format!("from {} to {}", self.min, self.max)
        } else {
            format!("at most {}", self.max)
        }
    }
}

fn position(v: &Value) -> usize {
    match v {
        Value::Int(i) => *i as usize,
        _ => 0,
    }
}

impl Pick {
    /// A choice of `min` to `max` elements with nothing picked yet.
    pub(super) fn new(min: usize, max: usize) -> Pick {
        Pick {
            min,
            max,
            picked: List::new(),
        }
    }

    fn can_stop(&self) -> bool {
        self.picked.len() >= self.min
    }

    /// The positions the next step may pick, in a list of `n`.
    fn open(&self, n: usize) -> Range<usize> {
        let k = self.picked.len();
        if k >= self.max {
            return 0..0;
        }
        let next = self.picked.last().map_or(0, |v| position(v) + 1);
        let needed_after = self.min.saturating_sub(k + 1);
        next..n.saturating_sub(needed_after).max(next)
    }

    /// How many steps are on offer: "done" (first, when the count allows) and each element
    /// that may be picked.
    pub(super) fn count(&self, n: usize) -> usize {
        usize::from(self.can_stop()) + self.open(n).len()
    }

    /// The position step `index` picks, or `None` for "done".
    pub(super) fn step_position(&self, n: usize, index: usize) -> Option<usize> {
        let stop = usize::from(self.can_stop());
        (index >= stop).then(|| self.open(n).start + index - stop)
    }

    /// The step that picks position `pos`, if it is on offer.
    fn step_of(&self, n: usize, pos: usize) -> Option<usize> {
        let open = self.open(n);
        open.contains(&pos)
            .then(|| usize::from(self.can_stop()) + pos - open.start)
    }

    /// Takes step `index`; true if that ends the choice (done, or nothing more may be picked).
    pub(super) fn step(&mut self, n: usize, index: usize) -> bool {
        match self.step_position(n, index) {
            Some(pos) => {
                self.picked.push(Value::Int(pos as i64));
                self.open(n).is_empty()
            }
            None => true,
        }
    }

    /// The positions picked so far.
    pub(super) fn positions(&self) -> impl Iterator<Item = usize> + '_ {
        self.picked.iter().map(position)
    }

    /// The elements picked, in list order: the value the choice gives.
    pub(super) fn result(&self, options: &[Value]) -> Value {
        let mut out = List::new();
        for p in self.positions() {
            out.push(options[p].clone());
        }
        out.into_value()
    }

    /// The choice as a person types it: the picked elements' labels, or `none`.
    pub(super) fn label(
        &self,
        program: &ir::Program,
        state: &super::State,
        options: &[Value],
        element: Option<&ir::Type>,
    ) -> String {
        if self.picked.is_empty() {
            return NOTHING.to_string();
        }
        let labels = option_labels(program, state, options, element);
        let picked: Vec<&str> = self.positions().map(|p| labels[p].as_str()).collect();
        picked.join(" ")
    }
}

/// Reads a typed choice of several against the elements' labels: each element by its label
/// (`5`, `5#2`, or a repeated `5 5` for both fives), by `#N` for the N-th, or by a bare number
/// N where no element is a number; `none` for none. Gives the positions, increasing.
/// `loose`: for each option, its name without an instance's number and whether every option
/// of that name is alike (see [`Game::loose_names`]); an option typed so is the first such one
/// not taken yet.
fn read_positions(
    labels: &[String],
    shown: &[String],
    loose: &[Option<(String, bool)>],
    input: &str,
) -> Result<Vec<usize>, String> {
    // `[a, b]`, as the log shows a list, is read too (and saves written before choices of
    // several recorded subsets so).
    let trimmed = input.trim();
    let inner = trimmed
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .unwrap_or(trimmed);
    if inner.trim().is_empty() && inner.len() < trimmed.len() {
        return Ok(Vec::new());
    }
    let cleaned = inner.replace(',', " ");
    let words: Vec<&str> = cleaned.split_whitespace().collect();
    // Commas separate what is typed, so a label's own (`bid(who: P1, amount: 3)`) count as
    // spaces too.
    let fold = |l: &String| normalize(&l.replace(',', " "));
    let folded: Vec<String> = labels.iter().map(fold).collect();
    let folded_shown: Vec<String> = shown.iter().map(fold).collect();
    if words.len() == 1
        && words[0].eq_ignore_ascii_case(NOTHING)
        && !folded.iter().any(|l| l == NOTHING)
    {
        return Ok(Vec::new());
    }
    let numeric = labels.iter().any(|l| l.parse::<i64>().is_ok());
    let mut taken: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let mut found = None;
        for len in (1..=words.len() - i).rev() {
            let typed = normalize(&words[i..i + len].join(" "));
            let by_number = |n: &str| {
                n.parse::<usize>()
                    .ok()
                    .filter(|n| (1..=labels.len()).contains(n))
                    .map(|n| n - 1)
            };
            let pos = if len == 1 && typed.starts_with('#') {
                by_number(&typed[1..])
            } else {
                let exact = folded.iter().position(|l| *l == typed);
                // a value typed again means the next equal element
                let free =
                    || (0..labels.len()).find(|p| folded_shown[*p] == typed && !taken.contains(p));
                match exact {
                    Some(p) if taken.contains(&p) => free().or(exact),
                    Some(p) => Some(p),
                    None => free(),
                }
            }
            .or_else(|| (len == 1 && !numeric).then(|| by_number(&typed)).flatten());
            let pos = match pos {
                Some(p) if !taken.contains(&p) => Some(p),
                // `tempura` twice: the first is the label of one, the second names the next
                // alike one.
                other => by_loose_name(labels, loose, &typed, &taken)?.or(other),
            };
            if let Some(p) = pos {
                found = Some((p, len, words[i..i + len].join(" ")));
                break;
            }
        }
        let Some((p, len, typed)) = found else {
            return Err(format!(
                "`{}` is not one of the options; they are: {} (or #N for the N-th)",
                words[i],
                super::moves::listed(labels.iter().map(String::as_str))
            ));
        };
        if taken.contains(&p) {
            return Err(format!("`{typed}` is named twice"));
        }
        taken.push(p);
        i += len;
    }
    taken.sort_unstable();
    Ok(taken)
}

/// The first option not in `taken` that `typed` names without an instance's number, when
/// every option of that name is alike; refused when they differ.
fn by_loose_name(
    labels: &[String],
    loose: &[Option<(String, bool)>],
    typed: &str,
    taken: &[usize],
) -> Result<Option<usize>, String> {
    let named = || {
        loose
            .iter()
            .enumerate()
            .filter(move |(_, l)| l.as_ref().is_some_and(|(name, _)| name == typed))
    };
    if named().any(|(_, l)| l.as_ref().is_some_and(|(_, alike)| !alike)) {
        let differing: Vec<String> = named()
            .filter_map(|(p, _)| labels.get(p).cloned())
            .collect();
        return Err(super::alike::differ(&differing));
    }
    Ok(named().map(|(p, _)| p).find(|p| !taken.contains(p)))
}

impl Game {
    /// A choice of several by `seat` from `n` elements, as `count` says; `None` when nothing
    /// may be picked (the choice is the empty list, without asking). Refused: a negative count,
    /// or more than the list holds for `exactly`.
    pub(super) fn pick_for(
        &mut self,
        count: &ir::ChooseCount,
        seat: u8,
        n: usize,
        span: Span,
    ) -> R<Option<Pick>> {
        let (k, exactly) = match count {
            ir::ChooseCount::Any => return Ok((n > 0).then(|| Pick::new(0, n))),
            ir::ChooseCount::AtMost(k) => (k, false),
            ir::ChooseCount::Exactly(k) => (k, true),
            ir::ChooseCount::Between(lo, hi) => return self.pick_between((lo, hi), seat, n, span),
        };
        let k = self.eval_with(|ev, l| ev.int(k, l))?;
        if k < 0 {
            return Err(err(
                "bad-count",
                format!("cannot choose {k} elements"),
                span,
                "choose 0 or more",
            ));
        }
        let k = usize::try_from(k).unwrap_or(usize::MAX);
        if exactly && k > n {
            return Err(err(
                "no-options",
                format!(
                    "{} must choose exactly {k} from a list of {n}",
                    self.seat_name(seat)
                ),
                span,
                "guard the choice with `if count(...) >= ...`, or choose `at most` as many",
            ));
        }
        let max = k.min(n);
        Ok((max > 0).then(|| Pick::new(if exactly { k } else { 0 }, max)))
    }

    /// A choice of `lo..hi` of `n` elements: at least `lo` (refused where the list holds
    /// fewer), at most `hi`.
    fn pick_between(
        &mut self,
        (lo, hi): (&ir::Expr, &ir::Expr),
        seat: u8,
        n: usize,
        span: Span,
    ) -> R<Option<Pick>> {
        let lo = self.eval_with(|ev, l| ev.int(lo, l))?;
        let hi = self.eval_with(|ev, l| ev.int(hi, l))?;
        if lo < 0 || hi < lo {
            return Err(err(
                "bad-count",
                format!("cannot choose from {lo} to {hi} elements"),
                span,
                "choose from 0 or more, the fewest first",
            ));
        }
        let (lo, hi) = (
            usize::try_from(lo).unwrap_or(usize::MAX),
            usize::try_from(hi).unwrap_or(usize::MAX),
        );
        if lo > n {
            return Err(err(
                "no-options",
                format!(
                    "{} must choose at least {lo} from a list of {n}",
                    self.seat_name(seat)
                ),
                span,
                "guard the choice with `if count(...) >= ...`, or choose fewer",
            ));
        }
        let max = hi.min(n);
        Ok((max > 0).then(|| Pick::new(lo, max)))
    }

    /// The pick of `seat`'s pending choice of several, with its options.
    pub(super) fn pick_of(&self, seat: u8) -> Option<(&Pick, &List)> {
        match self.pending.as_ref()? {
            Pending::Choose {
                player,
                options,
                pick: Some(pick),
                ..
            } if *player == seat => Some((pick, options)),
            Pending::Secret { choices, .. } => {
                let c = open_choice(choices, seat)?;
                Some((c.pick.as_ref()?, &c.options))
            }
            _ => None,
        }
    }

    /// The choice of several `seat` must make now, if that is its decision: the elements'
    /// labels and how many to choose. The REPL lists it and reads `3 5 7` with
    /// [`Game::apply_label`].
    pub fn several(&self, seat: u8) -> Option<Several> {
        let (pick, options) = self.pick_of(seat)?;
        Some(Several {
            labels: option_labels(&self.program, &self.state, options, self.options_type()),
            min: pick.min,
            max: pick.max.min(options.len()),
            picked: pick.positions().collect(),
        })
    }

    /// The label of step `index` of a choice of several: `done`, or the element it picks.
    pub(super) fn step_label(&self, seat: u8, index: usize) -> Option<String> {
        let (pick, options) = self.pick_of(seat)?;
        Some(match pick.step_position(options.len(), index) {
            None => DONE.to_string(),
            Some(p) => super::moves::option_label(
                &self.program,
                &self.state,
                options,
                p,
                self.options_type(),
            ),
        })
    }

    /// The name of step `index` (its element as shown, or `done`), unnumbered.
    pub(super) fn step_name(&self, seat: u8, index: usize) -> Option<String> {
        let (pick, options) = self.pick_of(seat)?;
        Some(match pick.step_position(options.len(), index) {
            None => DONE.to_string(),
            Some(p) => super::moves::show_option(
                &self.program,
                &self.state,
                &options[p],
                self.options_type(),
            ),
        })
    }

    /// What step `index` is, as a number equal for the same step in any imagined state.
    pub(super) fn step_key(&self, seat: u8, index: usize) -> Option<(u8, Option<&Value>)> {
        let (pick, options) = self.pick_of(seat)?;
        Some(match pick.step_position(options.len(), index) {
            None => (4, None),
            Some(p) => (5, Some(&options[p])),
        })
    }

    /// Takes a step of `seat`'s choice of several: true if the choice is still open after it
    /// (nothing more to do), false if it ends now or the pending decision is no such choice.
    pub(super) fn pick_step(&mut self, seat: u8, index: usize) -> bool {
        let (pick, n) = match self.pending.as_mut() {
            Some(Pending::Choose {
                options,
                pick: Some(pick),
                ..
            }) => (pick, options.len()),
            Some(Pending::Secret { choices, .. }) => {
                match choices
                    .iter_mut()
                    .find(|c| c.seat == seat && c.chosen.is_none())
                {
                    Some(c) => match c.pick.as_mut() {
                        Some(pick) => (pick, c.options.len()),
                        None => return false,
                    },
                    None => return false,
                }
            }
            _ => return false,
        };
        !pick.step(n, index)
    }

    /// Records a choice of several as one decision, in a game for people.
    pub(super) fn record_several(&mut self, player: u8, label: &str) {
        if self.mode.record {
            self.history.push(Record {
                player,
                choice: label.to_string(),
            });
        }
    }

    /// Applies a choice of several typed at once (`3 5 7`, `none`): every pick and the end,
    /// or nothing if one is refused.
    pub(super) fn apply_several(
        &mut self,
        player: u8,
        input: &str,
    ) -> Option<Result<(), MoveError>> {
        let several = self.several(player)?;
        let (shown, loose): (Vec<String>, _) = match self.pick_of(player) {
            Some((_, options)) => (
                options
                    .iter()
                    .map(|v| {
                        super::moves::show_option(
                            &self.program,
                            &self.state,
                            v,
                            self.options_type(),
                        )
                    })
                    .collect(),
                self.loose_names(player, options),
            ),
            None => return None,
        };
        let refuse = |reason: String| {
            Some(Err(MoveError::Illegal {
                input: input.trim().to_string(),
                reason,
                close: None,
            }))
        };
        let positions = match read_positions(&several.labels, &shown, &loose, input) {
            Ok(p) => p,
            Err(reason) => return refuse(reason),
        };
        let total = several.picked.len() + positions.len();
        if total < several.min || total > several.max {
            return refuse(format!(
                "choose {} of the {} options; `{}` names {}",
                several.how_many(),
                several.labels.len(),
                input.trim(),
                positions.len()
            ));
        }
        if let (Some(last), Some(first)) = (several.picked.last(), positions.first()) {
            if first <= last {
                return refuse(format!(
                    "`{}` is picked already or comes before a pick: add only later options",
                    several.labels[*first]
                ));
            }
        }
        let backup = super::exec::Backup::take(self);
        // The choice ends when the count of decisions moves: what comes next may be another.
        let start = self.decisions;
        let mut result = Ok(());
        for pos in positions {
            let Some((pick, options)) = self.pick_of(player).filter(|_| self.decisions == start)
            else {
                break;
            };
            let Some(step) = pick.step_of(options.len(), pos) else {
                break;
            };
            result = self.apply(player, step);
            if result.is_err() {
                break;
            }
        }
        // What was named is picked: end the choice if it is still open.
        if result.is_ok() && self.decisions == start && self.pick_of(player).is_some() {
            result = self.apply(player, 0);
        }
        if result.is_err() {
            backup.restore(self);
        }
        Some(result)
    }

    /// Why a typed choice of several is refused, or `None` if it would be taken.
    pub(super) fn why_several(&self, player: u8, input: &str) -> Option<Option<String>> {
        self.several(player)?;
        let mut copy = self.clone();
        Some(match copy.apply_several(player, input)? {
            Ok(()) => None,
            Err(MoveError::Illegal { reason, .. }) => Some(reason),
            Err(e) => Some(e.to_string()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_pick_in_list_order_and_stop_when_the_count_allows() {
        // exactly 2 of 4: the first step cannot pick the last element (nothing would follow)
        let mut p = Pick::new(2, 2);
        assert_eq!(p.count(4), 3);
        assert!(!p.step(4, 1), "picks position 1, one more to go");
        assert_eq!(p.count(4), 2, "positions 2 and 3");
        assert!(p.step(4, 1), "picks 3: the choice ends");
        assert_eq!(p.positions().collect::<Vec<_>>(), [1, 3]);
        // any of 3: done first
        let mut p = Pick::new(0, 3);
        assert_eq!(p.count(3), 4);
        assert_eq!(p.step_position(3, 0), None);
        assert!(!p.step(3, 1), "picks position 0");
        assert_eq!(p.count(3), 3, "done, 1 and 2");
        assert!(
            p.step(3, 2),
            "picks 2, the last: nothing is left but done, so it ends"
        );
        assert_eq!(p.positions().collect::<Vec<_>>(), [0, 2]);
    }

    #[test]
    fn typed_choices_are_read_by_label_position_and_repeat() {
        let labels: Vec<String> = ["5", "3", "5#2"].map(String::from).to_vec();
        let shown: Vec<String> = ["5", "3", "5"].map(String::from).to_vec();
        assert_eq!(read_positions(&labels, &shown, &[], "3 5"), Ok(vec![0, 1]));
        assert_eq!(read_positions(&labels, &shown, &[], "5 5"), Ok(vec![0, 2]));
        assert_eq!(
            read_positions(&labels, &shown, &[], "#3, #2"),
            Ok(vec![1, 2])
        );
        assert_eq!(read_positions(&labels, &shown, &[], "none"), Ok(vec![]));
        assert_eq!(read_positions(&labels, &shown, &[], "[]"), Ok(vec![]));
        assert_eq!(
            read_positions(&labels, &shown, &[], "[5, 7]"),
            Err(
                "`7` is not one of the options; they are: 5, 3, 5#2 (or #N for the N-th)"
                    .to_string()
            )
        );
        assert_eq!(
            read_positions(&labels, &shown, &[], "[3, 5]"),
            Ok(vec![0, 1])
        );
        assert_eq!(
            read_positions(&labels, &shown, &[], "3 3"),
            Err("`3` is named twice".to_string())
        );
        assert!(
            read_positions(&labels, &shown, &[], "2").is_err(),
            "2 is a value here"
        );
        let words: Vec<String> = ["red card", "blue"].map(String::from).to_vec();
        assert_eq!(
            read_positions(&words, &words, &[], "Blue red card"),
            Ok(vec![0, 1])
        );
        assert_eq!(read_positions(&words, &words, &[], "2"), Ok(vec![1]));
        // A record's label holds commas and spaces; typed as the log shows it, or bare.
        let records: Vec<String> = ["bid(who: P1, amount: 3)", "bid(who: P2, amount: 3)"]
            .map(String::from)
            .to_vec();
        assert_eq!(
            read_positions(
                &records,
                &records,
                &[],
                "[bid(who: P2, amount: 3), bid(who: P1, amount: 3)]"
            ),
            Ok(vec![0, 1])
        );
        assert_eq!(
            read_positions(&records, &records, &[], "bid(who: P2, amount: 3)"),
            Ok(vec![1])
        );
    }

    #[test]
    fn alike_options_are_typed_by_their_name_and_differing_ones_refused() {
        let labels: Vec<String> = ["tempura", "tempura#2", "sashimi", "maki", "maki#2"]
            .map(String::from)
            .to_vec();
        let alike = |name: &str, same: bool| Some((name.to_string(), same));
        let loose = [
            alike("tempura", true),
            alike("tempura", true),
            None,
            alike("maki", false),
            alike("maki", false),
        ];
        let read = |input| read_positions(&labels, &labels, &loose, input);
        assert_eq!(read("tempura#2 tempura"), Ok(vec![0, 1]));
        assert_eq!(read("tempura tempura"), Ok(vec![0, 1]));
        assert_eq!(read("sashimi tempura"), Ok(vec![0, 2]));
        assert!(read("tempura tempura tempura").is_err(), "only two");
        assert_eq!(read("maki"), Ok(vec![3]), "the label of the first");
        assert_eq!(
            read("maki maki"),
            Err("it names 2 options that differ; type one of maki, maki#2".to_string())
        );
    }
}
