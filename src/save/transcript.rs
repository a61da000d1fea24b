//! Reading the JSON Lines stream of `meeple play --json` (schema `meeple-game/2`, docs/json.md)
//! as a save: its header names the rules, variants, players, seed and bots; its `decision`
//! lines are the decisions. It has no chain of state hashes (it is a public record), so it is
//! replayed without one. A last line cut short (a stream stopped while writing) is ignored.

use super::{Decision, SaveError, SaveFile, FORMAT, TRANSCRIPT_SCHEMA, TRANSCRIPT_SCHEMA_ASKING};
use serde_json::Value;

/// True if the text's first line is an object with a `schema` (a stream, not a save).
pub(super) fn is_transcript(text: &str) -> bool {
    /// Only `schema` is looked at: a save on one line is skipped through, not read into values.
    #[derive(serde::Deserialize)]
    struct First {
        schema: Option<serde::de::IgnoredAny>,
    }
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    serde_json::from_str::<First>(first).is_ok_and(|f| f.schema.is_some())
}

fn field<'a>(v: &'a Value, key: &str, line: usize) -> Result<&'a Value, SaveError> {
    v.get(key)
        .ok_or_else(|| SaveError::NotASave(format!("line {line} has no `{key}`")))
}

fn string(v: &Value, key: &str, line: usize) -> Result<String, SaveError> {
    field(v, key, line)?
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| SaveError::NotASave(format!("line {line}: `{key}` is not a string")))
}

fn strings(v: &Value, key: &str, line: usize) -> Result<Vec<String>, SaveError> {
    let bad = || SaveError::NotASave(format!("line {line}: `{key}` is not a list of strings"));
    field(v, key, line)?
        .as_array()
        .ok_or_else(bad)?
        .iter()
        .map(|x| x.as_str().map(str::to_string).ok_or_else(bad))
        .collect()
}

/// The stream as a save (paths as written: relative to the folder the game was played in).
/// Read a line at a time, each line's JSON dropped once its decision is taken from it, so a
/// long stream costs its decisions, not a tree of every line.
pub(super) fn parse(text: &str) -> Result<SaveFile, SaveError> {
    let complete = text.ends_with('\n');
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !l.trim().is_empty())
        .peekable();
    let object = |n: usize, line: &str, last: bool| -> Result<Option<Value>, SaveError> {
        match serde_json::from_str::<Value>(line) {
            Ok(v) if v.is_object() => Ok(Some(v)),
            // the last line of a stream stopped in the middle of writing it
            Err(_) if last && !complete => Ok(None),
            _ => Err(SaveError::Json(format!(
                "line {n} of the stream is not a JSON object"
            ))),
        }
    };
    let header = match lines.next() {
        Some((n, line)) => {
            let last = lines.peek().is_none();
            object(n, line, last)?.map(|h| (n, h))
        }
        None => None,
    };
    let Some((n, header)) = header else {
        return Err(SaveError::NotASave("the stream is empty".into()));
    };
    let (n, header) = (&n, &header);
    let schema = string(header, "schema", *n)?;
    let always_ask = schema == TRANSCRIPT_SCHEMA_ASKING;
    if schema != TRANSCRIPT_SCHEMA && !always_ask {
        return Err(SaveError::Format(format!(
            "`{schema}` (a `meeple play --json` stream; this version reads `{TRANSCRIPT_SCHEMA}`)"
        )));
    }
    let players = field(header, "players", *n)?
        .as_u64()
        .and_then(|p| u8::try_from(p).ok())
        .ok_or_else(|| SaveError::NotASave(format!("line {n}: `players` is not a seat count")))?;
    let seed = field(header, "seed", *n)?
        .as_u64()
        .ok_or_else(|| SaveError::NotASave(format!("line {n}: `seed` is not a whole number")))?;
    let bots = match header.get("bots") {
        None | Some(Value::Null) => None,
        Some(_) => Some(string(header, "bots", *n)?),
    };
    let mut decisions = Vec::new();
    while let Some((n, line)) = lines.next() {
        let last = lines.peek().is_none();
        let Some(event) = object(n, line, last)? else {
            continue;
        };
        if event.get("event").and_then(Value::as_str) != Some("decision") {
            continue;
        }
        let number = field(&event, "number", n)?.as_u64();
        if number != Some(decisions.len() as u64 + 1) {
            return Err(SaveError::NotASave(format!(
                "line {n}: decision {} was expected here",
                decisions.len() + 1
            )));
        }
        decisions.push(Decision {
            player: string(&event, "player", n)?,
            choice: string(&event, "choice", n)?,
            state: None,
        });
    }
    Ok(SaveFile {
        format: FORMAT,
        meeple: header
            .get("meeple")
            .and_then(Value::as_str)
            .map(str::to_string),
        rules: string(header, "rules", *n)?,
        variants: strings(header, "variant_files", *n)?,
        game: string(header, "game", *n)?,
        players,
        seed,
        bots,
        start: None,
        always_ask,
        decisions,
        end: None,
        sources: Vec::new(),
        texts: Vec::new(),
    })
}
