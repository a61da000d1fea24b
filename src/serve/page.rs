//! A viewer's page: the picture of the game drawn from the rules (components by their type),
//! the viewer's own decision as forms that work without JavaScript, `why`, and the log.
//!
//! Every string here comes from the rules file or the engine and is untrusted: maud's `html!`
//! escapes each one it writes, in text and in attributes alike.

use super::table::Who;
use crate::engine::{
    DecisionKind, Game, KindPanel, LogLine, Look, MoveError, Picture, SeatPanel, SectionPanel,
    Shown, SlotTable, Status, Viewer,
};
use maud::{html, Markup, DOCTYPE};

/// The most options drawn as buttons; past it, the rest are typed.
pub const MAX_BUTTONS: usize = 240;

/// The most log lines on a page, newest first.
pub const MAX_LOG_LINES: usize = 400;

/// Everything one viewer's page shows, read from the engine for that viewer alone.
#[derive(Debug, Clone)]
pub struct Sight {
    /// Whose page.
    pub who: Who,
    /// The key in the page's links and forms (the viewer's own).
    pub token: String,
    /// The page's version: a form made from an older page is refused.
    pub version: u64,
    /// A rule failed and the game stopped.
    pub stopped: bool,
    /// A bot plays this seat.
    pub bot_seat: bool,
    /// The game as the viewer may see it.
    pub picture: Picture,
    /// The log lines the viewer may read, oldest first.
    pub log: Vec<LogLine>,
    /// The viewer's decision, when it must decide.
    pub decision: Option<Decision>,
}

/// A decision the viewer must make.
#[derive(Debug, Clone)]
pub struct Decision {
    /// What it is asked.
    pub prompt: String,
    /// A turn, a choice, a question or a secret choice.
    pub kind: DecisionKind,
    /// The first options (at most [`MAX_BUTTONS`]), each with the action it takes on a turn;
    /// an option alike to an earlier one (an identical card) is listed once, with its count.
    pub options: Vec<Offered>,
    /// How many options there are in all.
    pub count: usize,
    /// A choice of several: its elements, how many to take, and those taken already.
    pub several: Option<crate::engine::Several>,
    /// On a turn, the actions with no legal move now: each links to why not.
    pub unavailable: Vec<String>,
}

/// An option drawn as a button.
#[derive(Debug, Clone)]
pub struct Offered {
    /// As it is typed.
    pub label: String,
    /// The action it takes, on a turn.
    pub action: Option<String>,
    /// How many options it stands for: itself and those alike to it.
    pub alike: usize,
}

impl Decision {
    /// How many options the buttons stand for.
    fn covered(&self) -> usize {
        self.options.iter().map(|o| o.alike).sum()
    }
}

impl Sight {
    /// What `who` may see of `game` now.
    pub fn of(
        game: &Game,
        who: Who,
        token: String,
        version: u64,
        stopped: bool,
        bot_seat: bool,
    ) -> Sight {
        let viewer = who.viewer();
        let decision = match who {
            Who::Seat(p) if !stopped && !bot_seat && game.waiting_on().contains(&p) => {
                Some(decision_of(game, p))
            }
            _ => None,
        };
        Sight {
            who,
            token,
            version,
            stopped,
            bot_seat,
            picture: game.picture(viewer),
            log: game.log_lines(viewer),
            decision,
        }
        .printable()
    }

    /// Every text from the rules with its control characters written out (`\u{1b}`), as every
    /// output of meeple shows them; the labels a form sends back are kept as typed.
    fn printable(mut self) -> Sight {
        let p = &mut self.picture;
        clean(&mut p.title);
        clean(&mut p.heading);
        let shown = |v: &mut Vec<Shown>| {
            for s in v {
                clean(&mut s.name);
                clean(&mut s.text);
                match &mut s.look {
                    Look::Things(items) => items.iter_mut().for_each(clean),
                    Look::Part(items) => items.iter_mut().flatten().for_each(clean),
                    Look::Die { die, .. } => clean(die),
                    _ => {}
                }
            }
        };
        shown(&mut p.globals);
        for seat in &mut p.seats {
            clean(&mut seat.name);
            shown(&mut seat.vars);
        }
        for section in &mut p.sections {
            clean(&mut section.heading);
            shown(&mut section.entries);
            for seat in &mut section.seats {
                clean(&mut seat.name);
                shown(&mut seat.vars);
            }
        }
        for kind in &mut p.kinds {
            clean(&mut kind.name);
            for it in &mut kind.instances {
                clean(&mut it.label);
                shown(&mut it.fields);
            }
        }
        match &mut p.status {
            Status::Over {
                scores,
                winners,
                reason,
            } => {
                scores.iter_mut().for_each(|(name, _)| clean(name));
                winners.iter_mut().for_each(clean);
                reason.iter_mut().for_each(clean);
            }
            Status::Waiting(line) => clean(line),
            Status::Idle => {}
        }
        self.log.iter_mut().for_each(|l| clean(&mut l.text));
        if let Some(d) = &mut self.decision {
            clean(&mut d.prompt);
            d.unavailable.iter_mut().for_each(clean);
            if let Some(several) = &mut d.several {
                several.labels.iter_mut().for_each(clean);
            }
        }
        self
    }
}

/// `text` with its control characters written out.
fn clean(text: &mut String) {
    if let std::borrow::Cow::Owned(shown) = crate::printable::escape(text) {
        *text = shown;
    }
}

/// `text` as it reads on a page: its control characters written out.
pub fn printable(text: &str) -> String {
    crate::printable::escape(text).into_owned()
}

impl Sight {
    /// What `viewer` sees of `game`, with no decision to make: a step of a finished game.
    pub fn looking(game: &Game, viewer: Viewer, token: String) -> Sight {
        Sight {
            who: Who::Onlooker,
            token,
            version: 0,
            stopped: false,
            bot_seat: false,
            picture: game.picture(viewer),
            log: game.log_lines(viewer),
            decision: None,
        }
        .printable()
    }
}

fn decision_of(game: &Game, seat: u8) -> Decision {
    let count = game.option_count(seat);
    let shown = count.min(MAX_BUTTONS);
    let labels: Vec<String> = if count <= MAX_BUTTONS {
        game.options(seat).into_iter().map(|o| o.label).collect()
    } else {
        (0..shown)
            .map(|i| game.option_label(seat, i).unwrap_or_default())
            .collect()
    };
    let kind = game.decision_kind().unwrap_or(DecisionKind::Choose);
    let unavailable = if kind == DecisionKind::Turn {
        let offered: std::collections::BTreeSet<&str> = (0..count)
            .filter_map(|i| game.option_action(seat, i))
            .collect();
        game.program()
            .actions
            .iter()
            .map(|a| a.name.as_str())
            .filter(|a| !offered.contains(a))
            .map(str::to_string)
            .collect()
    } else {
        Vec::new()
    };
    Decision {
        prompt: game.prompt(seat).unwrap_or_default(),
        kind,
        unavailable,
        options: offered(game, seat, labels),
        count,
        several: game.several(seat),
    }
}

/// The buttons for `labels`, the first options of `seat`'s decision. Where they are all the
/// options, those alike to an earlier one (identical cards) are folded into it, as the REPL
/// lists them.
fn offered(game: &Game, seat: u8, labels: Vec<String>) -> Vec<Offered> {
    let first_alike = if labels.len() == game.option_count(seat) {
        game.first_alike(seat)
    } else {
        (0..labels.len()).collect()
    };
    let mut alike = vec![0usize; labels.len()];
    for &f in &first_alike {
        if let Some(n) = alike.get_mut(f) {
            *n += 1;
        }
    }
    labels
        .into_iter()
        .enumerate()
        .filter(|(i, _)| first_alike.get(*i).is_none_or(|f| f == i))
        .map(|(i, label)| Offered {
            label,
            action: game.option_action(seat, i).map(str::to_string),
            alike: alike.get(i).copied().unwrap_or(1).max(1),
        })
        .collect()
}

/// What a seat reads of a refused move.
pub fn illegal_text(e: &MoveError) -> String {
    match e {
        MoveError::Illegal { reason, close, .. } => match close {
            Some(c) if !reason.contains(c.as_str()) => format!("{reason} (did you mean `{c}`?)"),
            _ => reason.clone(),
        },
        other => other.to_string(),
    }
}

/// `text` as a query value: letters, digits and `-_.~` as they are, all else percent-encoded.
fn query(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn base(sight: &Sight) -> String {
    format!("/t/{}", sight.token)
}

/// The whole page.
pub fn render(sight: &Sight) -> String {
    let p = &sight.picture;
    let base = base(sight);
    let markup = html! {
        (DOCTYPE)
        html lang="en" {
            (head(&format!("{} — {}", p.title, p.heading)))
            body data-version=(sight.version) data-events={ (base) "/events" } {
                header {
                    h1 { (p.title) }
                    p.who { (p.heading) @if sight.bot_seat { " · played by a bot" } }
                    @if sight.stopped {
                        p.status { "The game has stopped." }
                    } @else {
                        (status(&p.status))
                    }
                    @if sight.stopped || matches!(p.status, Status::Over { .. }) {
                        p { a href={ (base) "/step?n=0&view=referee" } { "Step through the game, decision by decision" } }
                    }
                }
                main {
                    div.play {
                        @if sight.stopped {
                            section.stopped role="alert" {
                                "The game has stopped: a rule failed. The host has the details and a save of the game."
                            }
                        }
                        @if let Some(d) = &sight.decision {
                            (decision(sight, d))
                        }
                        (board(p))
                    }
                    aside.side {
                        @if matches!(sight.who, Who::Seat(_)) && !sight.bot_seat && !sight.stopped {
                            section.whybox { h2 { "Why not?" } (why_form(&base, None)) }
                        }
                        (log(&sight.log))
                    }
                }
                script src="/app.js" {}
            }
        }
    };
    markup.into_string()
}

/// A step of a finished game: the game as one view saw it just after one decision, with the
/// way to the others.
pub fn step_page(step: &super::table::Step, token: &str) -> String {
    let p = &step.sight.picture;
    let link = |at: usize, view: &str| format!("/t/{token}/step?n={at}&view={view}");
    html! {
        (DOCTYPE)
        html lang="en" {
            (head(&format!("{} — decision {} of {}", p.title, step.at, step.total)))
            body {
                header {
                    h1 { (p.title) }
                    p.who { "Step through the game · " (p.heading) }
                    nav.steps {
                        @if step.at > 0 { a href=(link(0, &step.view)) { "« start" } " " a rel="prev" href=(link(step.at - 1, &step.view)) { "◀ back" } }
                        " "
                        strong { "decision " (step.at) " of " (step.total) }
                        " "
                        @if step.at < step.total { a rel="next" href=(link(step.at + 1, &step.view)) { "next ▶" } " " a href=(link(step.total, &step.view)) { "end »" } }
                    }
                    @if step.at > 0 { p.status { "Just played: " (step.moves[step.at - 1]) } }
                    nav.views {
                        "View as: "
                        @for v in &step.views {
                            @if *v == step.view { strong { (v) } } @else { a href=(link(step.at, v)) { (v) } }
                            " "
                        }
                    }
                    (status(&p.status))
                }
                main {
                    div.play { (board(p)) }
                    aside.side { (log(&step.sight.log)) }
                }
            }
        }
    }
    .into_string()
}

/// A page saying why a move would be refused, or that it is legal.
pub fn why_page(sight: &Sight, input: &str, answer: Option<&str>) -> String {
    let base = base(sight);
    let p = &sight.picture;
    html! {
        (DOCTYPE)
        html lang="en" {
            (head(&format!("why — {}", p.title)))
            body {
                main {
                    section.why {
                        h2 { "Why not `" (printable(input)) "`?" }
                        p.answer { (printable(answer.unwrap_or("It is a legal move now."))) }
                    }
                    (why_form(&base, Some(input)))
                    p { a href=(base) { "Back to the table" } }
                }
            }
        }
    }
    .into_string()
}

/// A page for a refused request: what went wrong and the way back.
pub fn message_page(title: &str, message: &str, back: Option<&str>) -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            (head(title))
            body {
                main {
                    section.refused role="alert" { h2 { (printable(title)) } p { (printable(message)) } }
                    @if let Some(back) = back { p { a href=(back) { "Back to the table" } } }
                }
            }
        }
    }
    .into_string()
}

/// A page's head: its title, a phone's width, no referrer, the table's style.
fn head(title: &str) -> Markup {
    html! {
        head {
            meta charset="utf-8";
            meta name="viewport" content="width=device-width, initial-scale=1";
            meta name="referrer" content="no-referrer";
            title { (title) }
            link rel="stylesheet" href="/app.css";
        }
    }
}

fn status(s: &Status) -> Markup {
    html! {
        @match s {
            Status::Over { scores, winners, reason } => {
                section.over {
                    h2 { "Game over" }
                    @if let Some(r) = reason { p { (r) } }
                    p.winners {
                        @if winners.is_empty() { "Nobody wins." } @else { "Winner: " (winners.join(", ")) }
                    }
                    table.scores {
                        tr { th { "Seat" } th { "Score" } }
                        @for (seat, score) in scores { tr { td { (seat) } td { (score) } } }
                    }
                }
            }
            Status::Waiting(line) => p.status { (line) },
            Status::Idle => {},
        }
    }
}

fn decision(sight: &Sight, d: &Decision) -> Markup {
    let action = format!("{}/move", base(sight));
    let kind = match d.kind {
        DecisionKind::Turn => "turn",
        DecisionKind::Choose => "choose",
        DecisionKind::Ask => "ask",
        DecisionKind::Secret => "secret",
    };
    html! {
        section.decide id="decide" data-kind=(kind) {
            h2 { (d.prompt) }
            @if d.kind == DecisionKind::Secret { p.note { "Your choice is secret: the others see only that you chose." } }
            @if let Some(several) = &d.several {
                form method="post" action=(action) {
                    input type="hidden" name="v" value=(sight.version);
                    p { "Choose " (several.how_many()) ":" }
                    @if several.max > 0 { ul.picks {
                        @for (i, label) in several.labels.iter().enumerate() {
                            li { label {
                                @if several.picked.contains(&i) {
                                    input type="checkbox" checked disabled;
                                } @else {
                                    input type="checkbox" name="pick" value={ "#" (i + 1) };
                                }
                                " " span.card { (label) }
                            } }
                        }
                    } }
                    button.play type="submit" { "Choose these" }
                }
            } @else {
                form.options method="post" action=(action) {
                    input type="hidden" name="v" value=(sight.version);
                    @for (group, options) in grouped(&d.options) {
                        div.group {
                            @if let Some(g) = group { h3 { (printable(g)) } }
                            @for o in options {
                                // The label as it is typed in the form; as it reads on the button.
                                button.option type="submit" name="move" value=(o.label) {
                                    (printable(&o.label))
                                    @if o.alike > 1 { " " span.alike { "(×" (o.alike) ", alike)" } }
                                }
                            }
                        }
                    }
                }
                @if d.count > d.covered() {
                    p.more { "…and " (d.count - d.covered()) " more: type one below." }
                }
                @if !d.unavailable.is_empty() {
                    p.unavailable {
                        "Not now: "
                        @for (i, a) in d.unavailable.iter().enumerate() {
                            @if i > 0 { " · " }
                            a href={ (base(sight)) "/why?move=" (query(a)) } title="why not?" { (a) }
                        }
                    }
                }
            }
            form.typed method="post" action=(action) {
                input type="hidden" name="v" value=(sight.version);
                label { "Or type a move " input type="text" name="move" autocomplete="off" maxlength="400"; }
                button type="submit" { "Play" }
            }
        }
    }
}

/// Options one after another, gathered under the action they take (runs of the same action);
/// an action whose one move is its bare name needs no heading, and such moves share a row.
fn grouped(options: &[Offered]) -> Vec<(Option<&str>, Vec<&Offered>)> {
    let mut groups: Vec<(Option<&str>, Vec<&Offered>)> = Vec::new();
    for (i, o) in options.iter().enumerate() {
        let same = |j: usize| options.get(j).is_some_and(|p| p.action == o.action);
        let bare = o.action.as_deref() == Some(o.label.as_str())
            && !(i > 0 && same(i - 1))
            && !same(i + 1);
        let heading = if bare { None } else { o.action.as_deref() };
        match groups.last_mut() {
            Some((g, offered)) if *g == heading => offered.push(o),
            _ => groups.push((heading, vec![o])),
        }
    }
    groups
}

fn why_form(base: &str, input: Option<&str>) -> Markup {
    html! {
        form.whyform method="get" action={ (base) "/why" } {
            label { "Why can't I play " input type="text" name="move" value=(input.unwrap_or("")) placeholder="a move" maxlength="400"; "?" }
            button type="submit" { "Ask the rules" }
        }
    }
}

fn board(p: &Picture) -> Markup {
    html! {
        @if !p.globals.is_empty() {
            section.table-state {
                h2 { "On the table" }
                (entries(&p.globals))
            }
        }
        section.seats {
            @for seat in &p.seats { (seat_panel(seat)) }
        }
        @for s in &p.sections { (section_panel(s)) }
        @for kind in &p.kinds { (kind_panel(kind)) }
    }
}

fn seat_panel(seat: &SeatPanel) -> Markup {
    let class = match (seat.you, seat.deciding) {
        (true, true) => "seat you deciding",
        (true, false) => "seat you",
        (false, true) => "seat deciding",
        (false, false) => "seat",
    };
    html! {
        section class=(class) {
            h3 {
                (seat_title(seat))
                @if seat.deciding { span.marker title="to decide" { " ◀ to decide" } }
            }
            (entries(&seat.vars))
        }
    }
}

/// A seat's name as a panel's heading: `(you)` for the viewer's own, a marker if it is out.
fn seat_title(seat: &SeatPanel) -> Markup {
    html! {
        (seat.name)
        @if seat.you { " (you)" }
        @if seat.out { span.marker title="out of the game" { " · out" } }
    }
}

/// A `section`: its heading, its game entries, then each seat's entries in it.
fn section_panel(s: &SectionPanel) -> Markup {
    html! {
        section.grouped {
            h2 { (s.heading) }
            @if s.table {
                @if !s.entries.is_empty() { (slot_table(&s.entries)) }
                @for seat in &s.seats {
                    h3 { (seat_title(seat)) }
                    (slot_table(&seat.vars))
                }
            } @else {
                @if !s.entries.is_empty() { (entries(&s.entries)) }
                @if !s.seats.is_empty() {
                    div.things {
                        @for seat in &s.seats {
                            div.thing {
                                h3 { (seat_title(seat)) }
                                (entries(&seat.vars))
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Lists drawn side by side (`section ... as table`): a row per position, a hidden element
/// drawn as a card's back.
fn slot_table(shown: &[Shown]) -> Markup {
    let t = SlotTable::of(shown);
    html! {
        table.slots {
            thead { tr { th scope="col" { "#" } @for h in &t.names { th scope="col" { (h) } } } }
            tbody {
                @for (r, row) in t.rows.iter().enumerate() {
                    tr {
                        th scope="row" { (r + 1) }
                        @for cell in row {
                            @match cell {
                                Some(x) => td { (x) },
                                None => td { span.back.small title="hidden" { "?" } },
                            }
                        }
                    }
                }
            }
        }
    }
}

fn kind_panel(kind: &KindPanel) -> Markup {
    html! {
        section.kind {
            h2 { (kind.name) }
            div.things {
                @for it in &kind.instances {
                    div.thing {
                        h3 { (it.label) }
                        (entries(&it.fields))
                    }
                }
            }
            @if kind.unlisted > 0 {
                p.note { "not listed: " (kind.unlisted) ", for which " code { (kind.listed_when) } " is false" }
            }
        }
    }
}

fn entries(shown: &[Shown]) -> Markup {
    html! {
        dl {
            @for s in shown {
                div.entry { dt { (s.name) } dd { (look(s)) } }
            }
        }
    }
}

/// A value drawn by what it is: a track for a bounded number, cards for a list, backs with a
/// count for a hidden one.
fn look(s: &Shown) -> Markup {
    html! {
        @match &s.look {
            Look::Number { value, bounds: Some((lo, hi)) } if hi - lo <= 20 && hi >= lo => {
                span.track role="img" aria-label={ (value) " of " (lo) "–" (hi) } {
                    @for n in *lo..=*hi {
                        span class=(if n == *value { "step on" } else { "step" }) { (n) }
                    }
                }
            }
            Look::Number { value, bounds: Some((lo, hi)) } => {
                span.num { (value) } " "
                meter min=(lo) max=(hi) value=(value) {}
            }
            Look::Number { value, bounds: None } => span.num { (value) },
            Look::Die { value, die } => span.die title=(die) role="img" aria-label={ (die) " showing " (value) } { (value) },
            Look::Truth(b) => span class=(if *b { "truth yes" } else { "truth no" }) { (s.text) },
            Look::Seat(_) => span.seatname { (s.text) },
            Look::Word => span.word { (s.text) },
            Look::Things(items) if items.is_empty() => span.empty { "none" },
            Look::Things(items) => span.cards {
                @for (item, n) in runs(items) {
                    span.card { (item) @if n > 1 { " " span.times { "×" (n) } } }
                }
            },
            Look::Backs(n) => span.cards {
                @for _ in 0..(*n).min(8) { span.back {} }
                span.count { (n) " hidden" }
            },
            Look::Part(items) => span.cards {
                @for run in part_runs(items) {
                    @match run {
                        Ok(item) => span.card { (item) },
                        Err(n) => {
                            @for _ in 0..n.min(8) { span.back title="hidden" {} }
                            @if n > 3 { span.count { (n) " hidden" } }
                        }
                    }
                }
            },
            Look::Unknown => span.back.small title="hidden" { "?" },
        }
    }
}

/// A list shown in part as its shown elements and its runs of hidden ones (`Err(how many)`).
fn part_runs(items: &[Option<String>]) -> Vec<Result<&str, usize>> {
    let mut out: Vec<Result<&str, usize>> = Vec::new();
    for item in items {
        match (item, out.last_mut()) {
            (Some(x), _) => out.push(Ok(x)),
            (None, Some(Err(n))) => *n += 1,
            (None, _) => out.push(Err(1)),
        }
    }
    out
}

/// Equal neighbours counted together: a hand of nine `share` cards reads `share ×9`.
fn runs(items: &[String]) -> Vec<(&str, usize)> {
    let mut out: Vec<(&str, usize)> = Vec::new();
    for item in items {
        match out.last_mut() {
            Some((last, n)) if *last == item.as_str() => *n += 1,
            _ => out.push((item.as_str(), 1)),
        }
    }
    out
}

fn log(lines: &[LogLine]) -> Markup {
    let skipped = lines.len().saturating_sub(MAX_LOG_LINES);
    html! {
        section.log {
            h2 { "Log" }
            ol reversed start=(lines.len()) {
                @for line in lines[skipped..].iter().rev() {
                    li class=(match (line.private, line.announcement) {
                        (true, _) => "private",
                        (false, true) => "move",
                        (false, false) => "rule",
                    }) {
                        (line.text)
                        @if line.private { " " small { "(to you)" } }
                    }
                }
            }
            @if skipped > 0 { p.note { (skipped) " earlier lines" } }
        }
    }
}
