//! Event logs stored before results and refusal reasons became typed (log format 1) are
//! upgraded when they are read, so that old rooms keep loading and replaying unchanged
//! (event "upcasting"). Format 1 differs in three places:
//! - `ended` had `winner`, a `reason` word and `summary_ko`/`summary_en` sentences; now it
//!   has a typed `result` (engine::GameResult);
//! - a `ScoreSummary` had `winner`, `margin_half` and the two sentences; now `result`;
//! - `illegal_attempt` had an English `message` beside its `reason` word. Such a row reads as
//!   the current event as it is (events ignore unknown fields), so it needs no upgrade.
//!
//! The sentences are dropped: people read results through the i18n catalogue.
//!
//! Not a format change but worth knowing when reading old logs: `record_viewer_approved`
//! events written before approvals named the account have no `user_id`. They read as
//! `user_id: None` (a serde default) and grant nothing (003 §8.1): the name alone cannot say
//! which account was meant, so the players approve the account again.
//!
//! Loading a room, its replay at restart and every record download read each stored event,
//! so a row is read once, from its text (`read_stored`), not into a `serde_json::Value` and
//! then again as the event; only a row that does not read as a current event is parsed as
//! JSON, to see whether it is format 1 (figures: docs/performance.md, "Reading stored events").

use engine::ScoringMethod;
use serde_json::{json, Map, Value};

use wire::events::Event;

/// Whether `body` is a format-1 event that `upgrade` changes.
fn is_format_1(body: &Value) -> bool {
    let has = |v: &Value, k: &str| v.get(k).is_some();
    match body.get("type").and_then(Value::as_str) {
        Some("ended") => has(body, "summary_ko") || body.get("score").is_some_and(|s| has(s, "summary_ko")),
        Some("statement_issued") => body.get("score").is_some_and(|s| has(s, "summary_ko")),
        _ => false,
    }
}

/// The scoring method a room's results were counted with, from its `room_created` event.
pub fn scoring_method(room_created: &Event) -> Option<ScoringMethod> {
    match room_created {
        Event::RoomCreated { settings, .. } => settings.engine_rules().ok().map(|r| r.scoring),
        _ => None,
    }
}

/// Rewrites a format-1 event body into the current format (a no-op for current bodies).
fn upgrade(body: &mut Value, method: ScoringMethod) {
    let Some(obj) = body.as_object_mut() else { return };
    if let Some(score) = obj.get_mut("score").and_then(Value::as_object_mut) {
        upgrade_score(score, method);
    }
    match obj.get("type").and_then(Value::as_str) {
        Some("ended") if obj.contains_key("reason") => {
            obj.remove("summary_ko");
            obj.remove("summary_en");
            let winner = obj.remove("winner").unwrap_or(Value::Null);
            let reason = obj.remove("reason").unwrap_or(Value::Null);
            let result = match reason.as_str() {
                // The margin of a counted result is the agreed statement's.
                Some("score") | Some("jigo") => obj
                    .get("score")
                    .and_then(|s| s.get("result"))
                    .cloned()
                    .unwrap_or_else(|| json!({"reason": "jigo", "method": method})),
                Some("resign") | Some("time") | Some("administrator") => json!({"reason": reason, "winner": winner}),
                _ => json!({ "reason": reason }),
            };
            obj.insert("result".into(), result);
        }
        _ => {}
    }
}

fn upgrade_score(score: &mut Map<String, Value>, method: ScoringMethod) {
    if !score.contains_key("summary_ko") {
        return;
    }
    score.remove("summary_ko");
    score.remove("summary_en");
    let winner = score.remove("winner").unwrap_or(Value::Null);
    let margin = score.remove("margin_half").and_then(|m| m.as_u64()).unwrap_or(0);
    let result = if winner.is_null() || margin == 0 {
        json!({"reason": "jigo", "method": method})
    } else {
        json!({"reason": "score", "winner": winner, "margin_half": margin, "method": method})
    };
    score.insert("result".into(), result);
}

/// A stored row's text, read: the event, or a format-1 body for [`decode`] to upgrade.
#[derive(Debug)]
// Not boxed: the event moves on unboxed into `StoredEvent`; format-1 rows are the rare ones.
#[allow(clippy::large_enum_variant)]
pub enum Body {
    Event(Event),
    Format1(Value),
}

/// Reads a stored row's text. Current rows are read from the text once, tag first
/// (`engine::tag_first`: a `Value` sorts its keys, and the reader would buffer the object and
/// read it again). Only a row that does not read so is parsed as JSON, to see whether it is
/// format 1. A format-1 `illegal_attempt` reads directly: events ignore unknown fields such
/// as its `message`.
pub fn read_stored(text: &str) -> Result<Body, String> {
    let unread = match serde_json::from_str(text) {
        Ok(event) => return Ok(Body::Event(event)),
        Err(e) => e,
    };
    match serde_json::from_str::<Value>(text) {
        Ok(body) if is_format_1(&body) => Ok(Body::Format1(body)),
        _ => Err(unread.to_string()),
    }
}

impl Body {
    /// Whether the row needs the room's scoring method to be read ([`Body::into_event`]).
    pub fn needs_upgrade(&self) -> bool {
        matches!(self, Body::Format1(_))
    }

    /// The event, a format-1 body upgraded with the room's scoring method (see [`decode`]).
    pub fn into_event(self, method: Option<ScoringMethod>) -> Result<Event, String> {
        match self {
            Body::Event(event) => Ok(event),
            Body::Format1(body) => decode(body, method),
        }
    }
}

/// One stored body as an event, upgraded first if it is format 1 (which needs the room's
/// scoring method; see [`scoring_method`]).
fn decode(mut body: Value, method: Option<ScoringMethod>) -> Result<Event, String> {
    if is_format_1(&body) {
        upgrade(&mut body, method.ok_or("a format-1 event needs the room's scoring method")?);
    }
    serde_json::from_value(body).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use room::MatchState;
    use wire::events::{RoomSecrets, StoredEvent};

    /// A fixture's log (`StoredEvent` values, oldest first) read as the database loader reads
    /// rows, from their text: secrets and the scoring method from the `room_created` row, then
    /// `read_stored` and `into_event`.
    fn parse_log(values: Vec<Value>) -> Result<(Vec<StoredEvent>, RoomSecrets), String> {
        let first = values.first().and_then(|v| v.get("event")).ok_or("empty log")?.to_string();
        let secrets: RoomSecrets = serde_json::from_str(&first).map_err(|e| e.to_string())?;
        let method = match read_stored(&first)? {
            Body::Event(e) => scoring_method(&e),
            Body::Format1(_) => None,
        };
        let events = values
            .into_iter()
            .map(|v| {
                let event = read_stored(&v["event"].to_string())?.into_event(method)?;
                let at = |k: &str| v[k].as_i64();
                Ok(StoredEvent {
                    seq: at("seq").ok_or("seq")?,
                    at_ms: at("at_ms").ok_or("at_ms")?,
                    actor: at("actor"),
                    event,
                })
            })
            .collect::<Result<_, String>>()?;
        Ok((events, secrets))
    }

    /// Every log of `tests/fixtures/event-logs-v1` (written by the format-1 version's state
    /// tests) still replays to the same room: version, phase, moves, board and result.
    #[test]
    fn format_1_logs_replay_unchanged() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/event-logs-v1");
        let mut n = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let file: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let (log, secrets) =
                parse_log(file["log"].as_array().unwrap().clone()).unwrap_or_else(|e| panic!("{path:?}: {e}"));
            let s = MatchState::replay(&log, secrets).unwrap_or_else(|e| panic!("{path:?}: {e}"));
            let want = &file["expect"];
            assert_eq!(s.version, want["version"].as_i64().unwrap(), "{path:?}");
            assert_eq!(serde_json::to_value(s.phase()).unwrap(), want["phase"], "{path:?}");
            assert_eq!(u64::from(s.game.move_number()), want["move_number"].as_u64().unwrap(), "{path:?}");
            assert_eq!(s.game.hash().to_string(), want["board_hash"].as_str().unwrap(), "{path:?}");
            match (&s.ended, want["ended"].as_object()) {
                (None, None) => {}
                (Some(Event::Ended { result, statement, .. }), Some(old)) => {
                    let r = serde_json::to_value(result).unwrap();
                    let reason = if old["reason"] == "score" && old["winner"].is_null() {
                        "jigo".into()
                    } else {
                        old["reason"].clone()
                    };
                    assert_eq!(r["reason"], reason, "{path:?}");
                    assert_eq!(
                        result.winner().map(|c| serde_json::to_value(c).unwrap()).unwrap_or(Value::Null),
                        old["winner"],
                        "{path:?}"
                    );
                    assert_eq!(
                        serde_json::to_value(statement).unwrap(),
                        old.get("statement").cloned().unwrap_or(Value::Null)
                    );
                    if let Some(score) = old.get("score") {
                        assert_eq!(
                            u64::from(result.margin_half().unwrap()),
                            score["margin_half"].as_u64().unwrap(),
                            "{path:?}"
                        );
                    }
                }
                (got, want) => panic!("{path:?}: ended {got:?}, expected {want:?}"),
            }
            n += 1;
        }
        assert!(n >= 15, "only {n} fixture logs");
    }

    /// An approval stored before approvals carried the account id reads, replays, and gives
    /// no one access by name; a new approval of the same name by id does (003 §8.1).
    #[test]
    fn old_approvals_by_name_alone_grant_nothing() {
        use room::SeatHolder;
        use wire::{commands::Requester, settings::MatchSettings, Role};
        let old = json!({"type": "record_viewer_approved", "colour": "black", "username": "dave"});
        let e = decode(old, None).unwrap();
        assert_eq!(
            e,
            Event::RecordViewerApproved { colour: engine::Color::Black, username: "dave".into(), user_id: None }
        );
        assert_eq!(serde_json::to_value(&e).unwrap().get("user_id"), None, "written back without an id");
        let mut settings = MatchSettings::classic_default(9);
        settings.colours = wire::settings::ColourAssignment::HostBlack;
        let secrets = RoomSecrets {
            invite_sha256: [crate::data::sha256_hex("a"), crate::data::sha256_hex("b")],
            nigiri_seed: None,
        };
        let stored = |seq: i64, event: Event| StoredEvent { seq, at_ms: seq, actor: None, event };
        let black = engine::Color::Black;
        let white = engine::Color::White;
        let log = vec![
            stored(1, Event::RoomCreated { name: "r".into(), settings, created_by: 1 }),
            stored(2, Event::SeatTaken { seat: wire::events::Seat::First, user_id: 1, username: "host".into() }),
            stored(3, Event::SeatTaken { seat: wire::events::Seat::Second, user_id: 2, username: "guest".into() }),
            stored(4, Event::SettingsConfirmed { seat: wire::events::Seat::First }),
            stored(5, Event::SettingsConfirmed { seat: wire::events::Seat::Second }),
            stored(6, Event::Started { black: wire::events::Seat::First }),
            stored(7, Event::RecordViewerApproved { colour: black, username: "dave".into(), user_id: None }),
            stored(8, Event::RecordViewerApproved { colour: white, username: "dave".into(), user_id: None }),
        ];
        let mut s = MatchState::replay(&log, secrets).unwrap();
        let dave = Requester { user_id: 9, username: "dave".into(), role: Role::Player };
        assert!(s.record_viewers.is_empty());
        assert!(!s.may_read_record(&dave), "approved by name only: no access");
        let account = SeatHolder { user_id: 9, username: "dave".into() };
        for id in [1, 2] {
            let player = Requester { user_id: id, username: String::new(), role: Role::Player };
            assert_eq!(s.approve_record_viewer(&player, "dave", Some(&account), 9).outcome, Ok(()));
        }
        assert!(s.may_read_record(&dave));
    }

    #[test]
    fn current_bodies_are_left_alone_and_format_1_results_become_typed() {
        let current = json!({"type": "ended", "result": {"reason": "resign", "winner": "white"}});
        assert!(!is_format_1(&current));
        let mut old = json!({"type": "ended", "winner": "white", "reason": "resign", "summary_ko": "백 불계승", "summary_en": "White wins by resignation"});
        assert!(is_format_1(&old));
        upgrade(&mut old, ScoringMethod::Area);
        assert_eq!(old, current);
        let e = decode(old, None).unwrap();
        assert_eq!(
            e,
            Event::Ended {
                result: engine::GameResult::Resign { winner: engine::Color::White },
                score: None,
                statement: None
            }
        );
        let old_score =
            json!({"type": "ended", "winner": null, "reason": "score", "summary_ko": "빅", "summary_en": "Jigo"});
        assert!(decode(old_score, None).is_err(), "a format-1 result without the room's method is refused");
    }

    /// What the loader reads from a row's text: a current event at once, a format-1 body for
    /// upgrading, and for anything else the reader's own error.
    #[test]
    fn stored_rows_are_read_from_their_text() {
        let current = r#"{"type":"ended","result":{"reason":"resign","winner":"white"}}"#;
        let Body::Event(e) = read_stored(current).unwrap() else { panic!("a current row is an event") };
        assert_eq!(
            e,
            Event::Ended {
                result: engine::GameResult::Resign { winner: engine::Color::White },
                score: None,
                statement: None
            }
        );

        let old = r#"{"type":"ended","winner":"black","reason":"time","summary_ko":"흑 시간승","summary_en":"Black wins on time"}"#;
        let stored = read_stored(old).unwrap();
        assert!(stored.needs_upgrade());
        assert_eq!(
            stored.into_event(Some(ScoringMethod::Territory)).unwrap(),
            Event::Ended {
                result: engine::GameResult::Time { winner: engine::Color::Black },
                score: None,
                statement: None
            }
        );

        // A format-1 refusal reads as it is: events ignore unknown fields such as its `message`.
        let old_illegal =
            r#"{"type":"illegal_attempt","colour":"black","at":{"x":1,"y":1,"z":1},"reason":"suicide","message":"x"}"#;
        let Body::Event(e) = read_stored(old_illegal).unwrap() else { panic!("reads directly") };
        assert_eq!(
            e,
            Event::IllegalAttempt {
                colour: engine::Color::Black,
                at: wire::events::Xyz { x: 1, y: 1, z: 1 },
                reason: engine::IllegalKind::Suicide
            }
        );

        let wrong = r#"{"type":"ended","result":{"reason":"resign","winner":"grey"}}"#;
        let why = read_stored(wrong).unwrap_err();
        assert!(why.contains("grey"), "{why}");
        assert!(read_stored("{not json").is_err());
        assert!(read_stored(r#"{"type":"no_such_event"}"#).unwrap_err().contains("no_such_event"));
    }
}
