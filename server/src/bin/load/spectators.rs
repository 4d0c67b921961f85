//! Spectators: WebSockets following the rooms' event streams, counting what they read.

use super::*;

/// How an event message starts (the stored event's `seq` first); several in a batch.
const EVENT_OPEN: &str = r#"{"type":"event","event":{"seq":"#;
/// How a packed message starts (its first event's `seq`, then `n`, the number of events).
const PACKED_OPEN: &str = r#"{"type":"packed","seq":"#;

/// The number after `key` in `text`.
pub(crate) fn number_after(text: &str, key: &str) -> Option<i64> {
    let i = text.find(key)? + key.len();
    let digits = &text[i..];
    let end = digits.find(|c: char| !c.is_ascii_digit()).unwrap_or(digits.len());
    digits[..end].parse().ok()
}

/// The `seq` of the last event in a message (one, a batch's or a packed one's), read without
/// a full parse.
pub(crate) fn seq_of(text: &str) -> Option<i64> {
    if text.starts_with(PACKED_OPEN) {
        return Some(number_after(text, PACKED_OPEN)? + number_after(text, r#","n":"#)? - 1);
    }
    number_after(&text[text.rfind(EVENT_OPEN)?..], EVENT_OPEN)
}

/// The events a WebSocket text holds: a batch's or a packed message's, or itself.
pub(crate) fn text_messages(text: &str) -> u64 {
    if text.starts_with(PACKED_OPEN) {
        number_after(text, r#","n":"#).map_or(0, |n| n as u64)
    } else if text.starts_with(r#"{"type":"batch""#) {
        text.matches(EVENT_OPEN).count() as u64
    } else {
        1
    }
}

pub(crate) async fn spectate(base: String, mut slot: watch::Receiver<i64>, stats: Arc<Stats>, gate: Arc<Semaphore>) {
    let mut room = *slot.borrow_and_update();
    let mut after = 0i64;
    loop {
        let connected = {
            let _permit = gate.acquire().await.expect("gate open");
            testclient::spectate(&base, room, after).await
        };
        let mut ws = match connected {
            Ok(ws) => ws,
            Err(e) => {
                stats.error(format!("ws connect: {}", ws_error_kind(&e)));
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
        };
        stats.spectators_connected.fetch_add(1, Relaxed);
        stats.spectator_connects.fetch_add(1, Relaxed);
        loop {
            tokio::select! {
                msg = ws.next() => match msg {
                    Some(Ok(Message::Text(t))) => {
                        stats.spectator_msgs.fetch_add(text_messages(&t), Relaxed);
                        stats.spectator_frames.fetch_add(1, Relaxed);
                        stats.spectator_bytes.fetch_add(t.len() as u64, Relaxed);
                        if let Some(seq) = seq_of(&t) {
                            after = seq;
                        }
                        if t.starts_with("{\"type\":\"lagged\"") {
                            stats.error("ws lagged (server dropped a slow viewer)");
                            break;
                        }
                    }
                    Some(Ok(Message::Close(_))) | None => {
                        if !stats.stop.load(Relaxed) {
                            stats.error("ws closed by server");
                        }
                        break;
                    }
                    Some(Ok(_)) => {}
                    Some(Err(e)) => {
                        if !stats.stop.load(Relaxed) {
                            stats.error(format!("ws read: {}", ws_error_kind(&e)));
                        }
                        break;
                    }
                },
                changed = slot.changed() => {
                    if changed.is_err() {
                        stats.spectators_connected.fetch_sub(1, Relaxed);
                        return;
                    }
                    room = *slot.borrow_and_update();
                    after = 0;
                    break;
                }
            }
        }
        stats.spectators_connected.fetch_sub(1, Relaxed);
        if stats.stop.load(Relaxed) {
            return;
        }
    }
}

pub(crate) fn ws_error_kind(e: &testclient::tokio_tungstenite::tungstenite::Error) -> String {
    use testclient::tokio_tungstenite::tungstenite::Error as E;
    match e {
        E::Io(io) => format!("io {:?}", io.kind()),
        E::Http(r) => format!("http {}", r.status()),
        E::ConnectionClosed | E::AlreadyClosed => "closed".into(),
        E::Protocol(_) => "protocol".into(),
        other => format!("{other}").chars().take(40).collect(),
    }
}
