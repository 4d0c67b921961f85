//! Packed stream messages: the events of a write in few bytes, for the clients that ask for
//! them (`?batch=packed`: the browser and the load benchmark). With thousands of spectators
//! the cost of a room's stream is its socket writes, and each write holds at most about
//! 4 KiB; a move or an acknowledgement packed is about 20 bytes instead of about 150.
//!
//! `{"type":"packed","seq":S,"n":N,"at_ms":T,"events":[E,…],"live_seq":K,"live":LiveFields}`:
//! the events numbered S to S+N−1, in order; the first at `at_ms` T (its own `dt` is to be
//! ignored), each later one `dt` milliseconds after the one before it; the view's fields
//! (`live`, optional) as of event K — once per message, the latest among its events that
//! the stream sends them with, on a player's stream too.
//! An event `E` is an array `[dt, actor, kind, …]` (`actor`: the user id or null):
//! - kind 0, any event: `[dt, actor, 0, Event]`;
//! - kind 1, a move: `[dt, actor, 1, colour, x, y, z, move_number, cx, cy, cz, …]` (the
//!   captured points, three numbers each);
//! - kind 2, an acknowledgement: `[dt, actor, 2, colour, move_number]`;
//! - kind 3, a pass: `[dt, actor, 3, colour, move_number]`.
//!
//! `colour` is 0 for Black and 1 for White. Each event's text is made once per room and shared
//! by every socket, so `dt` is from the room's previous event whichever message that went in;
//! the first event of a message takes `at_ms` instead.

use std::fmt::Write;

use serde_json::value::RawValue;

use super::events::{Colour, Event, StoredEvent, Xyz};
use super::live_view::LiveFields;

/// The message's `type`.
pub const TYPE: &str = "packed";

const ANY: u8 = 0;
const MOVE: u8 = 1;
const ACKNOWLEDGED: u8 = 2;
const PASSED: u8 = 3;

/// `e`'s text inside a packed message's `events`, `dt` milliseconds after the room's previous
/// event (`None` when the error is in serialising a kind-0 event).
pub fn event_text(e: &StoredEvent, dt: i64) -> Option<String> {
    let mut t = String::with_capacity(32);
    let _ = write!(t, "[{dt},");
    match e.actor {
        Some(a) => {
            let _ = write!(t, "{a}");
        }
        None => t.push_str("null"),
    }
    let colour = |c: &Colour| u8::from(*c == Colour::White);
    // Writing to a String cannot fail.
    match &e.event {
        Event::MovePlayed { colour: c, at, move_number, captured } => {
            let _ = write!(t, ",{MOVE},{},{},{},{},{move_number}", colour(c), at.x, at.y, at.z);
            for p in captured {
                let _ = write!(t, ",{},{},{}", p.x, p.y, p.z);
            }
        }
        Event::MoveAcknowledged { colour: c, move_number } => {
            let _ = write!(t, ",{ACKNOWLEDGED},{},{move_number}", colour(c));
        }
        Event::Passed { colour: c, move_number } => {
            let _ = write!(t, ",{PASSED},{},{move_number}", colour(c));
        }
        other => {
            let _ = write!(t, ",{ANY},{}", serde_json::to_string(other).ok()?);
        }
    }
    t.push(']');
    Some(t)
}

/// The time since the room's event before `e`, when `before` (the number and time of the
/// last event published) is that event.
pub fn dt(before: Option<(i64, i64)>, e: &StoredEvent) -> Option<i64> {
    before.filter(|(seq, _)| seq + 1 == e.seq).map(|(_, at)| e.at_ms - at)
}

/// A packed message of the events from `first` on, whose texts (`event_text`) are `texts`,
/// with the view's fields (their text) as of event `live.0`.
pub fn message(first: &StoredEvent, texts: &[&str], live: Option<(i64, &str)>) -> String {
    let size = texts.iter().map(|t| t.len() + 1).sum::<usize>() + live.map_or(0, |(_, f)| f.len() + 40);
    let mut t = String::with_capacity(size + 100);
    let _ =
        write!(t, r#"{{"type":"{TYPE}","seq":{},"n":{},"at_ms":{},"events":["#, first.seq, texts.len(), first.at_ms);
    for (i, e) in texts.iter().enumerate() {
        if i > 0 {
            t.push(',');
        }
        t.push_str(e);
    }
    t.push(']');
    if let Some((seq, fields)) = live {
        let _ = write!(t, r#","live_seq":{seq},"live":{fields}"#);
    }
    t.push('}');
    t
}

/// What a packed message could not be read as (a fault of the server that sent it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable(pub &'static str);

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "packed stream message without a readable {}", self.0)
    }
}

/// A packed message as it arrives: the events left as their JSON text until their kind is
/// known. Why not `serde_json::Value`: reading through `Value` would compile a second
/// deserializer for `Event` and everything in it into the room's WASM; this way the browser
/// reads events with the same `from_slice` reader as the rest of the page.
#[derive(serde::Deserialize)]
struct Received<'a> {
    seq: Option<i64>,
    n: Option<u64>,
    at_ms: Option<i64>,
    #[serde(borrow)]
    events: Option<Vec<Vec<&'a RawValue>>>,
    live_seq: Option<i64>,
    #[serde(borrow)]
    live: Option<&'a RawValue>,
}

/// A whole number's JSON text (the server writes them plainly: no exponent, no fraction).
fn int<T: std::str::FromStr>(v: &RawValue, what: &'static str) -> Result<T, Unreadable> {
    v.get().parse().map_err(|_| Unreadable(what))
}

/// The events the packed message `text` holds, in order, each with the view's fields when
/// they are as of that event.
pub fn unpack(text: &str) -> Result<Vec<(StoredEvent, Option<LiveFields>)>, Unreadable> {
    let msg: Received = serde_json::from_slice(text.as_bytes()).map_err(|_| Unreadable("message"))?;
    let seq = msg.seq.ok_or(Unreadable("seq"))?;
    let mut at_ms = msg.at_ms.ok_or(Unreadable("at_ms"))?;
    let mut live = match msg.live {
        None => None,
        Some(v) => Some((
            msg.live_seq.ok_or(Unreadable("live_seq"))?,
            serde_json::from_slice::<LiveFields>(v.get().as_bytes()).map_err(|_| Unreadable("live"))?,
        )),
    };
    let events = msg.events.ok_or(Unreadable("events"))?;
    // `n` is what a reader that does not parse the events counts (the load benchmark).
    if msg.n != Some(events.len() as u64) {
        return Err(Unreadable("n"));
    }
    let mut out = Vec::with_capacity(events.len());
    for (i, e) in events.into_iter().enumerate() {
        if e.len() < 3 {
            return Err(Unreadable("event"));
        }
        if i > 0 {
            at_ms += int::<i64>(e[0], "dt")?;
        }
        let actor = match e[1].get() {
            "null" => None,
            _ => Some(int(e[1], "actor")?),
        };
        let seq = seq + i as i64;
        let colour = |v: &RawValue| match v.get() {
            "0" => Ok(Colour::Black),
            "1" => Ok(Colour::White),
            _ => Err(Unreadable("colour")),
        };
        let number = |v: &RawValue| int::<u32>(v, "move_number");
        let xyz = |p: &[&RawValue]| -> Result<Xyz, Unreadable> {
            Ok(Xyz { x: int(p[0], "point")?, y: int(p[1], "point")?, z: int(p[2], "point")? })
        };
        let event = match (int::<u8>(e[2], "event kind").ok(), e.len()) {
            (Some(ANY), 4) => {
                serde_json::from_slice::<Event>(e[3].get().as_bytes()).map_err(|_| Unreadable("event"))?
            }
            (Some(MOVE), n) if n >= 8 && (n - 8) % 3 == 0 => Event::MovePlayed {
                colour: colour(e[3])?,
                at: xyz(&e[4..7])?,
                move_number: number(e[7])?,
                captured: e[8..].chunks(3).map(xyz).collect::<Result<_, _>>()?,
            },
            (Some(ACKNOWLEDGED), 5) => Event::MoveAcknowledged { colour: colour(e[3])?, move_number: number(e[4])? },
            (Some(PASSED), 5) => Event::Passed { colour: colour(e[3])?, move_number: number(e[4])? },
            _ => return Err(Unreadable("event kind")),
        };
        let fields = live.take_if(|(at, _)| *at == seq).map(|(_, f)| f);
        out.push((StoredEvent { seq, at_ms, actor, event }, fields));
    }
    match live {
        Some(_) => Err(Unreadable("live_seq")),
        None => Ok(out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packed(events: &[StoredEvent], live: Option<(i64, &str)>) -> String {
        let texts: Vec<String> = events
            .iter()
            .enumerate()
            .map(|(i, e)| event_text(e, if i == 0 { 0 } else { e.at_ms - events[i - 1].at_ms }).unwrap())
            .collect();
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        let text = message(&events[0], &texts, live);
        serde_json::from_str::<serde_json::Value>(&text).expect("a packed message is JSON");
        text
    }

    fn stored(seq: i64, at_ms: i64, actor: Option<i64>, event: Event) -> StoredEvent {
        StoredEvent { seq, at_ms, actor, event }
    }

    #[test]
    fn every_kind_comes_back_as_it_was() {
        let p = |x, y, z| Xyz { x, y, z };
        let events = vec![
            stored(
                41,
                1_764_900_000_000,
                Some(7),
                Event::MovePlayed { colour: Colour::Black, at: p(3, 4, 5), move_number: 120, captured: vec![] },
            ),
            stored(42, 1_764_900_000_013, Some(8), Event::MoveAcknowledged { colour: Colour::Black, move_number: 120 }),
            stored(
                43,
                1_764_900_001_000,
                Some(8),
                Event::MovePlayed {
                    colour: Colour::White,
                    at: p(0, 24, 0),
                    move_number: 121,
                    captured: vec![p(1, 24, 0), p(0, 23, 0)],
                },
            ),
            stored(44, 1_764_900_000_999, None, Event::Passed { colour: Colour::White, move_number: 122 }),
            stored(45, 1_764_900_002_000, None, Event::PlayResumed),
            stored(46, 1_764_900_002_000, Some(7), Event::Resigned { colour: Colour::Black }),
        ];
        let back: Vec<StoredEvent> = unpack(&packed(&events, None)).unwrap().into_iter().map(|(e, _)| e).collect();
        assert_eq!(back, events);
    }

    #[test]
    fn a_move_is_a_few_bytes() {
        let e = stored(
            9,
            0,
            Some(12),
            Event::MovePlayed {
                colour: Colour::White,
                at: Xyz { x: 18, y: 18, z: 18 },
                move_number: 6859,
                captured: vec![],
            },
        );
        assert_eq!(event_text(&e, 250).unwrap(), "[250,12,1,1,18,18,18,6859]");
        let verbose = serde_json::to_string(&e).unwrap();
        assert!(verbose.len() > 3 * event_text(&e, 250).unwrap().len(), "{verbose}");
    }

    #[test]
    fn the_fields_go_with_the_event_they_are_as_of() {
        let fields = r#"{"version":2,"server_time_ms":0,"phase":"playing","to_move":"white","move_number":1,
            "captures":[0,0],"clocks":{"control":{"kind":"space_hours","black":1,"white":1},
            "main_ms":[3599867,3599879],"periods_left":[0,0],"running":null,"turn_left_ms":null,"at_ms":0},
            "undos_used":[0,0],"scoring_requests":[null,null],"faults":[null,null],"illegal_attempts":0}"#;
        let events: Vec<_> = (1..=3).map(|s| stored(s, 10 * s, None, Event::PlayResumed)).collect();
        let back = unpack(&packed(&events, Some((2, fields)))).unwrap();
        let with: Vec<_> = back.iter().map(|(e, f)| (e.seq, f.as_ref().map(|f| f.version))).collect();
        assert_eq!(with, vec![(1, None), (2, Some(2)), (3, None)]);
        assert!(
            unpack(&packed(&events, Some((9, fields)))).is_err(),
            "fields as of an event the message does not hold"
        );
    }

    #[test]
    fn what_is_not_a_packed_message_is_refused_naming_the_field() {
        let bad = |t: &str| unpack(t).unwrap_err().0;
        assert_eq!(bad(r#"{"seq":1,"n":1,"at_ms":0,"events":[[0,null,2,2,5]]}"#), "colour");
        assert_eq!(bad(r#"{"seq":1,"n":1,"at_ms":0,"events":[[0,null,1,0,1,2,3,4,5]]}"#), "event kind");
        assert_eq!(bad(r#"{"seq":1,"n":1,"at_ms":0,"events":[[0,null,9]]}"#), "event kind");
        assert_eq!(bad(r#"{"seq":1,"n":1,"at_ms":0,"events":[[0,null,257,0,1]]}"#), "event kind");
        assert_eq!(bad(r#"{"n":0,"at_ms":0,"events":[]}"#), "seq");
        assert_eq!(bad(r#"{"seq":1,"n":1,"at_ms":0,"events":[[0,"x",3,0,1]]}"#), "actor");
        assert_eq!(bad(r#"{"seq":1,"n":2,"at_ms":0,"events":[[0,null,3,0,1]]}"#), "n");
    }
}
