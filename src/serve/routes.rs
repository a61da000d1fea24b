//! The table's HTTP routes: a page per key, moves as plain forms, `why`, and a stream of page
//! versions for live updates.
//!
//! Invariant: every route that shows or changes the game takes a key and acts only for whose
//! key it is; an unknown key gets the same answer whatever it is, and no answer carries
//! another viewer's page.

use super::limits::{Bounds, Limits, StreamGuard};
use super::page::{self, message_page, why_page};
use super::table::{Refusal, StepRefusal, Table, Who};
use axum::extract::{DefaultBodyLimit, Form, Path, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use std::convert::Infallible;
use std::sync::Arc;

/// The largest request body taken, in bytes: a move is a label or a few picks.
pub const MAX_BODY: usize = 16 * 1024;

/// The longest move read from a form, in bytes.
pub const MAX_MOVE: usize = 2048;

#[derive(Clone)]
struct Shared {
    table: Arc<Table>,
    limits: Arc<Limits>,
}

/// The routes of `table`, each key held to `bounds`.
pub fn router(table: Arc<Table>, bounds: Bounds) -> Router {
    let shared = Shared {
        table,
        limits: Arc::new(Limits::new(bounds)),
    };
    Router::new()
        .route("/", get(index))
        .route("/app.css", get(css))
        .route("/app.js", get(js))
        .route("/t/{token}", get(seat_page))
        .route("/t/{token}/move", post(play))
        .route("/t/{token}/why", get(why))
        .route("/t/{token}/events", get(events))
        .route("/t/{token}/step", get(step))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::map_response(harden))
        .with_state(shared)
}

/// Headers on every answer: nothing cached, no address sent on as a referrer (a link is a
/// key), no framing, and only the table's own script and style.
async fn harden(mut response: Response) -> Response {
    let h = response.headers_mut();
    let set = |h: &mut axum::http::HeaderMap, name, value: &'static str| {
        h.insert(name, HeaderValue::from_static(value));
    };
    set(h, header::CACHE_CONTROL, "no-store");
    set(h, header::REFERRER_POLICY, "no-referrer");
    set(h, header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(h, header::X_FRAME_OPTIONS, "DENY");
    set(
        h,
        header::CONTENT_SECURITY_POLICY,
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; \
         img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    );
    response
}

fn html(status: StatusCode, body: String) -> Response {
    (status, Html(body)).into_response()
}

async fn index() -> Response {
    html(
        StatusCode::OK,
        message_page(
            "Meeple table",
            "Each seat has a private link; ask whoever runs the table for yours.",
            None,
        ),
    )
}

async fn not_found() -> Response {
    no_such_table()
}

async fn css() -> Response {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        include_str!("assets/app.css"),
    )
        .into_response()
}

async fn js() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        include_str!("assets/app.js"),
    )
        .into_response()
}

/// The key's owner, or the answer to give instead (unknown key, too many requests).
fn admit(s: &Shared, token: &str) -> Result<Who, Response> {
    let Some(who) = s.table.who(token) else {
        return Err(no_such_table());
    };
    if !s.limits.admit(who) {
        return Err(html(
            StatusCode::TOO_MANY_REQUESTS,
            message_page(
                "Too many requests",
                "Slow down a little, then reload the page.",
                None,
            ),
        ));
    }
    Ok(who)
}

/// The one answer to a link that is no key of this table, whatever it is.
fn no_such_table() -> Response {
    html(
        StatusCode::NOT_FOUND,
        message_page(
            "No such table",
            "This link is not a seat at this table. Ask whoever runs the table for yours.",
            None,
        ),
    )
}

async fn seat_page(State(s): State<Shared>, Path(token): Path<String>) -> Response {
    let who = match admit(&s, &token) {
        Ok(w) => w,
        Err(r) => return r,
    };
    html(StatusCode::OK, page::render(&s.table.sight(who)))
}

/// A move from a form: `v`, the version of the page it was made on, and either `move` (a
/// label, or a choice of several typed whole) or one `pick` per element chosen.
async fn play(
    State(s): State<Shared>,
    Path(token): Path<String>,
    Form(fields): Form<Vec<(String, String)>>,
) -> Response {
    let who = match admit(&s, &token) {
        Ok(w) => w,
        Err(r) => return r,
    };
    let back = format!("/t/{token}");
    let refuse = |status: StatusCode, title: &str, message: &str| {
        html(status, message_page(title, message, Some(&back)))
    };
    let version = fields
        .iter()
        .find(|(k, _)| k == "v")
        .and_then(|(_, v)| v.parse::<u64>().ok());
    let Some(version) = version else {
        return refuse(
            StatusCode::BAD_REQUEST,
            "Not a move",
            "The form did not say which page it came from.",
        );
    };
    let typed = fields
        .iter()
        .find(|(k, v)| k == "move" && !v.trim().is_empty())
        .map(|(_, v)| v.clone());
    let picks: Vec<&str> = fields
        .iter()
        .filter(|(k, _)| k == "pick")
        .map(|(_, v)| v.as_str())
        .collect();
    let input = match typed {
        Some(m) => m,
        None if picks.is_empty() => "none".to_string(),
        None => picks.join(" "),
    };
    if input.len() > MAX_MOVE {
        return refuse(
            StatusCode::PAYLOAD_TOO_LARGE,
            "Not a move",
            "That move is far longer than any move of this game.",
        );
    }
    // The engine's work runs off the async threads: a move may run many rules.
    let table = s.table.clone();
    let result = tokio::task::spawn_blocking(move || table.play(who, version, &input)).await;
    match result {
        Ok(Ok(())) => Redirect::to(&back).into_response(),
        Ok(Err(Refusal::Stale)) => refuse(
            StatusCode::CONFLICT,
            "The table moved on",
            "The game changed before your move arrived, so nothing was played. Look at the table again and choose.",
        ),
        Ok(Err(Refusal::NotYours)) => refuse(
            StatusCode::FORBIDDEN,
            "Not your decision",
            "You have nothing to decide now.",
        ),
        Ok(Err(Refusal::Closed)) => refuse(
            StatusCode::CONFLICT,
            "The game has ended",
            "No more moves are taken at this table.",
        ),
        Ok(Err(Refusal::Illegal(reason))) => {
            refuse(StatusCode::UNPROCESSABLE_ENTITY, "Not allowed", &reason)
        }
        Err(_) => refuse(
            StatusCode::INTERNAL_SERVER_ERROR,
            "The move was not taken",
            "The table could not take it; try again.",
        ),
    }
}

#[derive(serde::Deserialize)]
struct WhyQuery {
    #[serde(rename = "move", default)]
    input: String,
}

async fn why(
    State(s): State<Shared>,
    Path(token): Path<String>,
    Query(q): Query<WhyQuery>,
) -> Response {
    let who = match admit(&s, &token) {
        Ok(w) => w,
        Err(r) => return r,
    };
    let input: String = q.input.chars().take(400).collect();
    let sight = s.table.sight(who);
    let answer = s.table.why(who, &input);
    html(StatusCode::OK, why_page(&sight, &input, answer.as_deref()))
}

/// Server-sent events: the version of the key's page, now and each time it changes.
async fn events(State(s): State<Shared>, Path(token): Path<String>) -> Response {
    let who = match admit(&s, &token) {
        Ok(w) => w,
        Err(r) => return r,
    };
    let Some(guard) = s.limits.enter_stream(who) else {
        return html(
            StatusCode::TOO_MANY_REQUESTS,
            message_page("Too many pages open", "Close some tabs of this seat.", None),
        );
    };
    let mut receiver = s.table.subscribe(who);
    let now = *receiver.borrow_and_update();
    let stream = futures_util::stream::unfold(
        (receiver, Some(now), guard),
        |(mut receiver, first, guard): (_, Option<u64>, StreamGuard)| async move {
            let version = match first {
                Some(v) => v,
                None => {
                    receiver.changed().await.ok()?;
                    *receiver.borrow_and_update()
                }
            };
            let event = Event::default().data(version.to_string());
            Some((Ok::<Event, Infallible>(event), (receiver, None, guard)))
        },
    );
    Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response()
}

#[derive(serde::Deserialize)]
struct StepQuery {
    #[serde(default)]
    n: usize,
    #[serde(default = "referee")]
    view: String,
}

fn referee() -> String {
    "referee".into()
}

/// A finished game (or a replayed save), decision by decision, as any view saw it.
async fn step(
    State(s): State<Shared>,
    Path(token): Path<String>,
    Query(q): Query<StepQuery>,
) -> Response {
    if let Err(r) = admit(&s, &token) {
        return r;
    }
    let back = format!("/t/{token}");
    let table = s.table.clone();
    let view: String = q.view.chars().take(100).collect();
    let result = tokio::task::spawn_blocking(move || table.step(q.n, &view)).await;
    match result {
        Ok(Ok(step)) => html(StatusCode::OK, page::step_page(&step, &token)),
        Ok(Err(StepRefusal::NotOver)) => html(
            StatusCode::FORBIDDEN,
            message_page(
                "Not yet",
                "The game can be stepped through once it is over.",
                Some(&back),
            ),
        ),
        Ok(Err(StepRefusal::NoView(v))) => html(
            StatusCode::NOT_FOUND,
            message_page(
                "No such view",
                &format!("There is no view `{v}`."),
                Some(&back),
            ),
        ),
        Ok(Err(StepRefusal::Replay(_))) | Err(_) => html(
            StatusCode::INTERNAL_SERVER_ERROR,
            message_page(
                "The game could not be replayed",
                "Its decisions no longer fit the rules.",
                Some(&back),
            ),
        ),
    }
}
