//! A room stream's writes to one viewer: what the stream sends first (a snapshot or the gap),
//! then the live events as the room publishes them, paced for a viewer without a seat
//! (`super::pace`), in socket writes of at most about 4 KiB, closed the moment a viewing
//! restriction applies (003 §6.5).
//!
//! What is waiting goes out in one write (at most `BURST` events). Its framing is the
//! client's `?batch=`: one message per event (the default), batch messages (`true`), or
//! packed messages (`packed`, the browser's: `wire::packed`). On a paced stream the
//! view's changed fields go only with the write's last event that has them. A reconnecting
//! client's gap ends at the view and brings its fields. The 4 KiB is `CHUNK`: tungstenite
//! keeps each socket's write buffer at the size of its largest write. Little else outlives a
//! write: the opening snapshot is dropped once sent, the event list shrunk after a burst.

use app::AppError;
use axum::extract::ws::{Message, WebSocket};
use serde::Serialize;
use wire::{commands::MatchError, events::StoredEvent, live_view::LiveFields, packed, view::RoomView};

use super::extract::Framing;
use super::pace::Pace;

/// Messages on the stream, server → client.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum StreamMessage<'a> {
    /// The full state: sent when the client is too far behind for a gap.
    Snapshot { room: &'a RoomView },
    Event {
        event: &'a StoredEvent,
        /// With the last event of a commit while anyone watches: the view's fields after it
        /// (a browser applies moves, acknowledgements, passes and illegal attempts itself).
        /// A spectator's stream, paced, sends them only with the last event of each write.
        #[serde(skip_serializing_if = "Option::is_none")]
        live: Option<&'a LiveFields>,
    },
    /// The client fell too far behind the live stream; it should reconnect with its last seq.
    Lagged,
    /// The viewer may watch no longer (their viewing of this match was restricted, 003
    /// §6.5); the stream closes after this.
    Refused { error: app::error::ErrorBody },
}

/// What a stream sends before the live events: either brings the client to the view's version.
pub(super) enum Start {
    /// The room as it is.
    Snapshot(Box<RoomView>),
    /// The stored events the client lacks, up to the view's version, and the view's fields
    /// (their `version` is the view's).
    Gap { events: Vec<StoredEvent>, fields: Box<LiveFields> },
}

/// The viewing restrictions of one viewer in one room (003 §6.5), followed event by event
/// so an open stream closes the moment one applies: when it is imposed, and when an appeal
/// that suspended it is decided against the viewer (003 §6.6).
pub(super) struct Restrictions {
    viewer: Option<i64>,
    /// Every restriction naming the viewer, whatever its status, as of event `since`.
    numbers: Vec<u32>,
    since: i64,
}

impl Restrictions {
    pub(super) fn of(view: &RoomView, viewer: Option<i64>) -> Restrictions {
        let numbers = view
            .referee
            .sanctions
            .iter()
            .filter(|s| Self::names(&s.subject, s.penalty, viewer))
            .map(|s| s.number)
            .collect();
        Restrictions { viewer, numbers, since: view.version }
    }

    fn names(subject: &wire::conduct::Subject, penalty: wire::conduct::Penalty, viewer: Option<i64>) -> bool {
        use wire::conduct::{Penalty, Subject};
        matches!(subject, Subject::Spectator { user_id, .. } if Some(*user_id) == viewer)
            && penalty == Penalty::ViewingRestricted
    }

    /// The sanction number when `e` (after `since`) makes a restriction of the viewer apply.
    fn applied_by(&mut self, e: &StoredEvent) -> Option<u32> {
        use wire::events::Event;
        if e.seq <= self.since {
            return None;
        }
        match &e.event {
            Event::Sanctioned { number, subject, penalty, .. } if Self::names(subject, *penalty, self.viewer) => {
                self.numbers.push(*number);
                Some(*number)
            }
            Event::AppealDecided { number, upheld: true, .. } if self.numbers.contains(number) => Some(*number),
            _ => None,
        }
    }
}

/// Tells a viewer why their stream ends: a restriction of their viewing applies (003 §6.5).
async fn refuse(mut socket: WebSocket, sanction: u32) {
    let error = AppError::from(MatchError::ViewingRestricted { sanction }).body();
    if let Ok(t) = serde_json::to_string(&StreamMessage::Refused { error }) {
        let _ = socket.send(Message::Text(t.into())).await;
    }
}

/// Events a stream takes in one go: a burst waiting for a socket goes out together (in socket
/// writes of up to `CHUNK`) rather than one write per event, bounded so one busy room cannot
/// hold a socket's task for long.
const BURST: usize = 256;

/// How a stream goes on after a write.
enum Then {
    Follow,
    /// A restriction of this viewer's viewing applies (003 §6.5).
    Refuse(u32),
    /// The viewer fell too far behind: they reconnect with their last seq.
    Lagged,
    /// The room's broadcast ended.
    End,
}

type Published = std::sync::Arc<app::matches::published::Published>;
type Received = Result<Published, tokio::sync::broadcast::error::RecvError>;

/// One viewer's stream: where it is in the room's events, and what applies to the viewer.
struct Follower {
    live: tokio::sync::broadcast::Receiver<Published>,
    last: i64,
    restrictions: Restrictions,
    pace: Pace,
    /// The events of the write being made (a small allocation kept between writes).
    batch: Vec<Published>,
    /// How the client reads the events of a write (`?batch=`).
    framing: Framing,
}

impl Follower {
    /// The event to send (`None`: already sent, in the gap), or why the stream stops.
    fn step(&mut self, ev: Received) -> Result<Option<Published>, Then> {
        use tokio::sync::broadcast::error::RecvError;
        match ev {
            Ok(e) if e.seq <= self.last => Ok(None),
            Ok(e) => {
                self.last = e.seq;
                if let Some(sanction) = self.restrictions.applied_by(&e.stored) {
                    return Err(Then::Refuse(sanction));
                }
                self.pace.note(&e.stored);
                Ok(Some(e))
            }
            Err(RecvError::Lagged(_)) => Err(Then::Lagged),
            Err(RecvError::Closed) => Err(Then::End),
        }
    }

    /// Gathers `first` and the events already waiting (at most `BURST`) into `batch`.
    fn gather(&mut self, first: Received) -> Then {
        self.batch.clear();
        let mut ev = Some(first);
        while let Some(e) = ev {
            match self.step(e) {
                Ok(Some(e)) => self.batch.push(e),
                Ok(None) => {}
                Err(then) => return then,
            }
            if self.batch.len() >= BURST {
                break;
            }
            ev = self.waiting();
        }
        Then::Follow
    }

    /// The next event if one is already waiting, without waiting for one.
    fn waiting(&mut self) -> Option<Received> {
        use tokio::sync::broadcast::error::{RecvError, TryRecvError};
        match self.live.try_recv() {
            Ok(e) => Some(Ok(e)),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Lagged(n)) => Some(Err(RecvError::Lagged(n))),
            Err(TryRecvError::Closed) => Some(Err(RecvError::Closed)),
        }
    }

    /// `e`'s wire text, made once for every socket of the room; without the view's fields
    /// when a later event in the same write brings them.
    fn text(e: &Published, with_live: bool) -> Option<axum::extract::ws::Utf8Bytes> {
        e.frame(with_live, |event, live| serde_json::to_string(&StreamMessage::Event { event, live }).ok())
    }

    /// The WebSocket messages of the write in `batch`: one per event, or, when the client
    /// reads batches or packed messages, such messages of up to `CHUNK` bytes holding them
    /// all. On a paced stream only the last event carries the view's fields: the browser
    /// applies the events in order and takes the last fields, and the fields are most of an
    /// event's text.
    fn messages(&self) -> Option<Vec<Message>> {
        // The last event that has them: a write may end inside a commit, before the event
        // that brings that commit's fields.
        let last = self.batch.iter().rposition(|e| e.live.is_some());
        let paced = self.pace.is_paced();
        let with_live = |i: usize| self.batch[i].live.is_some() && (!paced || Some(i) == last);
        if self.framing == Framing::Packed {
            return packed_messages(&self.batch, with_live);
        }
        let texts = self.batch.iter().enumerate().map(|(i, e)| Follower::text(e, with_live(i)));
        if self.framing == Framing::PerEvent || self.batch.len() < 2 {
            return texts.map(|t| t.map(Message::Text)).collect();
        }
        // The events' shared texts joined as they are: no event is serialised again.
        let texts = texts.collect::<Option<Vec<_>>>()?;
        let mut messages = Vec::new();
        let mut group: Vec<&str> = Vec::new();
        let mut size = BATCH_OPEN.len() + 2;
        for t in &texts {
            if !group.is_empty() && size + t.len() + 1 > CHUNK {
                messages.push(batch_message(&group, size));
                group.clear();
                size = BATCH_OPEN.len() + 2;
            }
            group.push(t.as_str());
            size += t.len() + 1;
        }
        messages.push(batch_message(&group, size));
        Some(messages)
    }
}

/// The most a packed message's own keys and numbers take, besides its events and fields.
const PACKED_FRAME: usize = 136;

/// The packed messages (`wire::packed`) of a write: as many events in each as `CHUNK`
/// holds, a new message wherever the numbers skip or an event's `dt` is unknown; each with the
/// last fields among its events that `with_live` lets go.
fn packed_messages(batch: &[Published], with_live: impl Fn(usize) -> bool) -> Option<Vec<Message>> {
    let mut messages = Vec::new();
    let mut texts: Vec<&str> = Vec::with_capacity(batch.len());
    let mut from = 0;
    let mut size = PACKED_FRAME;
    let mut live: Option<(i64, &str)> = None;
    for (i, e) in batch.iter().enumerate() {
        let text = e.packed()?;
        let fields = if with_live(i) { Some((e.seq, e.live_text()?)) } else { None };
        let fields_len = fields.as_ref().or(live.as_ref()).map_or(0, |(_, t)| t.len());
        let follows = i > from && e.dt.is_some() && batch[i - 1].seq + 1 == e.seq;
        if i > from && (!follows || size + text.len() + 1 + fields_len > CHUNK) {
            messages.push(Message::Text(packed::message(&batch[from], &texts, live.take()).into()));
            texts.clear();
            from = i;
            size = PACKED_FRAME;
        }
        size += text.len() + 1;
        texts.push(text);
        if fields.is_some() {
            live = fields;
        }
    }
    if !texts.is_empty() {
        messages.push(Message::Text(packed::message(&batch[from], &texts, live).into()));
    }
    Some(messages)
}

/// One message of a write: a lone event as itself, several as a batch.
fn batch_message(texts: &[&str], size: usize) -> Message {
    if let [one] = texts {
        return Message::Text((*one).into());
    }
    let mut joined = String::with_capacity(size);
    joined.push_str(BATCH_OPEN);
    for (i, t) in texts.iter().enumerate() {
        if i > 0 {
            joined.push(',');
        }
        joined.push_str(t);
    }
    joined.push_str("]}");
    Message::Text(joined.into())
}

/// The most a stream puts in one socket write, as far as events allow: tungstenite keeps each
/// socket's write buffer at the size of the largest write it held, so a spectator's write of
/// a busy second of play would otherwise stay allocated for every socket. A batch message is
/// cut to this size, and the stream writes out before a message that would take what it holds
/// past it; tungstenite writes out past it by itself (a gap). Not bounded: a single larger
/// message — the opening snapshot of a large board, or one large event.
pub(super) const CHUNK: usize = 4 * 1024 - 16;

/// Whether what the viewer sent ends the stream; anything else is ignored (read-only).
fn closed(incoming: Option<Result<Message, axum::Error>>) -> bool {
    matches!(incoming, None | Some(Err(_)) | Some(Ok(Message::Close(_))))
}

/// The opening of a batch message, `{"type":"batch","messages":[…]}`.
const BATCH_OPEN: &str = r#"{"type":"batch","messages":["#;

/// Writes `messages` out, flushing before what the socket holds would pass `CHUNK` and at
/// the end; false when the viewer is gone.
async fn write(socket: &mut WebSocket, messages: Vec<Message>) -> bool {
    use futures_util::SinkExt;
    if messages.is_empty() {
        return true;
    }
    let mut held = 0;
    for m in messages {
        let len = m.to_text().map_or(0, str::len);
        if held > 0 && held + len > CHUNK {
            if socket.flush().await.is_err() {
                return false;
            }
            held = 0;
        }
        held += len;
        if socket.feed(m).await.is_err() {
            return false;
        }
    }
    socket.flush().await.is_ok()
}

/// The gap's events as the room publishes them: each `dt` from the one before, the view's
/// fields with the event they are as of.
fn gap(events: Vec<StoredEvent>, fields: LiveFields) -> Vec<Published> {
    let mut fields = Some(fields);
    let mut before: Option<(i64, i64)> = None;
    events
        .into_iter()
        .map(|e| {
            let dt = packed::dt(before, &e);
            before = Some((e.seq, e.at_ms));
            let live = fields.take_if(|f| f.version == e.seq);
            app::matches::published::Published::new(e, live, dt)
        })
        .collect()
}

pub(super) async fn pump(
    mut socket: WebSocket,
    start: Start,
    live: tokio::sync::broadcast::Receiver<Published>,
    restrictions: Restrictions,
    pace: Pace,
    framing: Framing,
) {
    let send = |m: &StreamMessage| serde_json::to_string(m).map(|t| Message::Text(t.into()));
    // The client has everything up to the view's version after the snapshot or the gap
    // (before it, when it asked from later): the live stream goes on from there.
    let last = match &start {
        Start::Snapshot(room) => room.version,
        Start::Gap { fields, .. } => fields.version,
    };
    let mut f = Follower { live, last, restrictions, pace, batch: Vec::new(), framing };
    match start {
        Start::Snapshot(room) => {
            if let Ok(m) = send(&StreamMessage::Snapshot { room: &room }) {
                if socket.send(m).await.is_err() {
                    return;
                }
            }
        }
        // Written as a live write is. No restriction can apply in the gap: it ends at the
        // view, which the restrictions were read from (`Restrictions::since`).
        Start::Gap { events, fields } => {
            f.batch = gap(events, *fields);
            f.batch.iter().for_each(|e| f.pace.note(e));
            let Some(messages) = f.messages() else { return };
            if !write(&mut socket, messages).await {
                return;
            }
            // Sent: not held for the rest of the stream.
            f.batch = Vec::new();
        }
    }
    loop {
        // A paced viewer sleeps out its pace before it looks for events: what is committed
        // meanwhile waits in the room's broadcast and goes in one write. Its task is woken
        // once per write, by its timer, rather than by the next event and then its timer
        // (with thousands of spectators the wake-ups are much of the cost).
        if let Some(next) = f.pace.held_until(tokio::time::Instant::now()) {
            tokio::select! {
                incoming = socket.recv() => if closed(incoming) { return } else { continue },
                () = tokio::time::sleep_until(next) => {}
            }
        }
        let ev = match f.waiting() {
            Some(ev) => ev,
            None => {
                // Nothing waiting after the interval: no longer among the writing streams.
                f.pace.quiet();
                tokio::select! {
                    incoming = socket.recv() => if closed(incoming) { return } else { continue },
                    ev = f.live.recv() => ev,
                }
            }
        };
        let then = f.gather(ev);
        // The write, in socket writes of up to `CHUNK`.
        let Some(messages) = f.messages() else { return };
        if !write(&mut socket, messages).await {
            return;
        }
        match then {
            // Only already-sent events (the gap's): nothing written, nothing paced.
            Then::Follow if f.batch.is_empty() => {}
            Then::Follow => f.pace.wrote(tokio::time::Instant::now(), f.batch.len() < BURST),
            Then::Refuse(sanction) => return refuse(socket, sanction).await,
            Then::Lagged => {
                if let Ok(m) = send(&StreamMessage::Lagged) {
                    let _ = socket.send(m).await;
                }
                return;
            }
            Then::End => return,
        }
        // Not kept at a burst's size between writes: per socket, that adds up.
        f.batch.clear();
        f.batch.shrink_to(64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::pace::SpectatorPace;
    use app::matches::published::Published;
    use wire::events::{Colour, Event, StoredEvent, Xyz};
    use wire::live_view::LiveFields;

    /// The view's fields as the stream sends them (with the view's version `version`).
    fn fields(version: i64) -> LiveFields {
        let mut v: serde_json::Value = serde_json::from_str(
            r#"{"version":0,"server_time_ms":0,"phase":"playing","to_move":"white","move_number":1,
            "last_move":{"x":1,"y":1,"z":1},"captures":[0,0],"clocks":{"control":{"kind":"space_hours",
            "black":1,"white":1},"main_ms":[3599867,3599879],"periods_left":[0,0],"running":null,
            "turn_left_ms":null,"at_ms":0},"awaiting_ack":["white",1],"undos_used":[0,0],
            "scoring_requests":[null,null],"faults":[null,null],"illegal_attempts":0}"#,
        )
        .unwrap();
        v["version"] = version.into();
        serde_json::from_value(v).unwrap()
    }

    /// A paced spectator's write of `events` moves; `with_fields(seq)`: that event ends a commit.
    fn follower(framing: Framing, events: usize, with_fields: impl Fn(i64) -> bool) -> Follower {
        let (_, live) = tokio::sync::broadcast::channel(4);
        let pace = Pace::new(&SpectatorPace::new(std::time::Duration::from_millis(250), 10_000), None, false);
        let restrictions = Restrictions { viewer: None, numbers: Vec::new(), since: 0 };
        let batch = (1..=events as i64)
            .map(|seq| {
                let at = Xyz { x: 3, y: 4, z: 5 };
                let event = Event::MovePlayed { colour: Colour::Black, at, move_number: seq as u32, captured: vec![] };
                let stored = StoredEvent { seq, at_ms: 1_764_900_000_000, actor: Some(7), event };
                Published::new(stored, with_fields(seq).then(|| fields(seq)), (seq > 1).then_some(0))
            })
            .collect();
        Follower { live, last: 0, restrictions, pace, batch, framing }
    }

    /// Each message's events, in order.
    fn events(messages: Vec<Message>) -> Vec<Vec<serde_json::Value>> {
        messages
            .into_iter()
            .map(|m| {
                let text = m.into_text().unwrap();
                assert!(text.len() <= CHUNK, "a message of {} bytes, more than {CHUNK}", text.len());
                let v: serde_json::Value = serde_json::from_str(&text).unwrap();
                match v["type"].as_str() {
                    Some("batch") => v["messages"].as_array().unwrap().clone(),
                    _ => vec![v],
                }
            })
            .collect()
    }

    #[test]
    fn a_large_write_comes_in_batch_messages_of_at_most_a_chunk_with_the_fields_once_at_its_end() {
        let messages = events(follower(Framing::Batch, 200, |_| true).messages().unwrap());
        assert!(messages.len() > 1, "200 events do not fit one chunk");
        assert!(messages[..messages.len() - 1].iter().all(|m| m.len() > 1), "batch messages but the last");
        let all: Vec<_> = messages.into_iter().flatten().collect();
        let seqs: Vec<i64> = all.iter().map(|e| e["event"]["seq"].as_i64().unwrap()).collect();
        assert_eq!(seqs, (1..=200).collect::<Vec<_>>());
        let with: Vec<i64> =
            all.iter().filter(|e| !e["live"].is_null()).map(|e| e["live"]["version"].as_i64().unwrap()).collect();
        assert_eq!(with, vec![200], "only the write's last event carries the view's fields");
    }

    #[test]
    fn a_write_that_ends_inside_a_commit_keeps_the_fields_of_the_last_commit_it_holds() {
        // Commits end at even numbers; the write stops after event 7, before 8 brings its fields.
        let all: Vec<_> =
            events(follower(Framing::Batch, 7, |seq| seq % 2 == 0).messages().unwrap()).into_iter().flatten().collect();
        let with: Vec<i64> =
            all.iter().filter(|e| !e["live"].is_null()).map(|e| e["event"]["seq"].as_i64().unwrap()).collect();
        assert_eq!(with, vec![6]);
    }

    #[test]
    fn a_client_that_reads_no_batches_gets_one_message_per_event_and_a_lone_leftover_is_itself() {
        let messages = events(follower(Framing::PerEvent, 30, |_| true).messages().unwrap());
        assert_eq!(messages.len(), 30);
        assert_eq!(
            (messages[29][0]["type"].as_str(), messages[29][0]["event"]["seq"].as_i64()),
            (Some("event"), Some(30))
        );
        // As many events as one chunk holds, and one more: a batch, then that event as itself.
        let full = events(follower(Framing::Batch, 200, |_| false).messages().unwrap())[0].len();
        let f = follower(Framing::Batch, full + 1, |_| false);
        let messages =
            f.messages().unwrap().into_iter().map(|m| m.into_text().unwrap().to_string()).collect::<Vec<_>>();
        assert_eq!(messages.len(), 2);
        assert!(messages[0].starts_with(BATCH_OPEN));
        assert!(messages[1].starts_with(r#"{"type":"event""#), "{}", messages[1]);
    }

    /// Each packed message's events, in order, as `unpack` reads them.
    fn unpacked(messages: Vec<Message>) -> Vec<Vec<(StoredEvent, Option<LiveFields>)>> {
        messages
            .into_iter()
            .map(|m| {
                let text = m.into_text().unwrap();
                assert!(text.len() <= CHUNK, "a message of {} bytes, more than {CHUNK}", text.len());
                packed::unpack(&text).unwrap()
            })
            .collect()
    }

    #[test]
    fn a_packed_write_holds_every_event_as_stored_in_a_fifth_of_the_messages() {
        let f = follower(Framing::Packed, 1000, |seq| seq % 2 == 0);
        let messages = unpacked(f.messages().unwrap());
        let batches = follower(Framing::Batch, 1000, |seq| seq % 2 == 0).messages().unwrap().len();
        assert!(messages.len() * 5 <= batches, "{} packed messages against {batches} batch messages", messages.len());
        let all: Vec<_> = messages.into_iter().flatten().collect();
        let stored: Vec<StoredEvent> = f.batch.iter().map(|p| p.stored.clone()).collect();
        assert_eq!(all.iter().map(|(e, _)| e.clone()).collect::<Vec<_>>(), stored);
        let with: Vec<i64> = all
            .iter()
            .filter_map(|(e, f)| f.as_ref().map(|f| (e.seq, f.version)))
            .map(|(s, v)| {
                assert_eq!(s, v, "the fields go with the event they are as of");
                s
            })
            .collect();
        assert_eq!(with, vec![1000], "a paced write's fields once, at its end");
    }

    #[test]
    fn a_packed_message_starts_where_an_events_time_since_the_one_before_is_unknown() {
        let mut f = follower(Framing::Packed, 6, |seq| seq == 5);
        let at = |p: &Published| (p.seq, p.at_ms);
        // Event 4 was published by a room loaded anew: its `dt` is unknown.
        f.batch[3] = Published::new(f.batch[3].stored.clone(), None, None);
        let messages = unpacked(f.messages().unwrap());
        let seqs: Vec<Vec<i64>> = messages.iter().map(|m| m.iter().map(|(e, _)| e.seq).collect()).collect();
        assert_eq!(seqs, vec![vec![1, 2, 3], vec![4, 5, 6]]);
        let times: Vec<(i64, i64)> = messages.iter().flatten().map(|(e, _)| (e.seq, e.at_ms)).collect();
        assert_eq!(times, f.batch.iter().map(|p| at(p)).collect::<Vec<_>>());
        assert_eq!(messages[1][1].1.as_ref().map(|f| f.version), Some(5), "the fields with event 5, before 6");
    }

    #[test]
    fn a_players_packed_write_has_the_fields_of_the_last_commit_in_each_message() {
        let mut f = follower(Framing::Packed, 400, |seq| seq % 2 == 0);
        f.pace = Pace::new(&SpectatorPace::new(std::time::Duration::from_millis(250), 10_000), Some(7), true);
        let messages = unpacked(f.messages().unwrap());
        assert!(messages.len() > 1, "400 events with fields do not fit one chunk");
        for m in &messages {
            let with: Vec<i64> = m.iter().filter_map(|(e, f)| f.as_ref().map(|_| e.seq)).collect();
            let last_commit = m.iter().rev().find(|(e, _)| e.seq % 2 == 0).map(|(e, _)| e.seq);
            assert_eq!(with, last_commit.into_iter().collect::<Vec<_>>());
        }
    }

    #[test]
    fn a_reconnecting_clients_gap_keeps_the_times_and_the_fields_at_the_view() {
        let events: Vec<StoredEvent> = (5..=9)
            .map(|seq| StoredEvent { seq, at_ms: 1_000 + seq * seq, actor: None, event: Event::PlayResumed })
            .collect();
        let published = gap(events.clone(), fields(9));
        assert_eq!(
            published.iter().map(|p| p.dt).collect::<Vec<_>>(),
            vec![None, Some(11), Some(13), Some(15), Some(17)]
        );
        assert_eq!(
            published.iter().map(|p| p.live.is_some()).collect::<Vec<_>>(),
            vec![false, false, false, false, true]
        );
        let mut f = follower(Framing::Packed, 0, |_| false);
        f.batch = published;
        let all: Vec<_> = unpacked(f.messages().unwrap()).into_iter().flatten().collect();
        assert_eq!(all.iter().map(|(e, _)| e.clone()).collect::<Vec<_>>(), events);
    }
}
