//! The room's live stream in the browser: one WebSocket carrying the room's numbered events.
//! The page — a spectator's or a player's — applies moves, acknowledgements, passes and
//! illegal attempts itself, with the view's fields (and, for the player to move, the hints)
//! that come with each commit's last event — on a spectator's paced stream, with each write's
//! last event that has them; the events of a write come in packed messages
//! (`wire::packed`); after any other event, a gap, or fields without the hints this
//! player should see, the view is fetched again. A dropped connection reconnects with the last
//! event number and receives exactly the gap — or, for a viewer who may not read the stored
//! record (003 §8.1), a snapshot of the room and the live events after it. The open socket is
//! also this player's presence (003 §6.1). Displaying an opponent's move sends the
//! acknowledgement that starts the player's clock (003 §5.5).
//!
//! The stream's messages are read with borrowed raw parts (`RawValue`) and
//! `serde_json::from_slice`, never through `serde_json::Value`, so that each type has one
//! reader in the bundle (docs/decisions/0004-a-small-browser-download.md).

use super::RoomCtx;

pub fn start(ctx: RoomCtx) {
    #[cfg(feature = "hydrate")]
    hydrate::start(ctx);
    #[cfg(not(feature = "hydrate"))]
    let _ = ctx;
}

#[cfg(feature = "hydrate")]
mod hydrate {
    use std::{cell::RefCell, rc::Rc};

    use leptos::prelude::*;
    use serde_json::value::RawValue;
    use wasm_bindgen::{closure::Closure, JsCast};
    use web_sys::{MessageEvent, WebSocket};

    use super::super::{event_line, local_now, Notice, RoomCtx};
    use wire::{
        commands::Command,
        events::{Event, StoredEvent},
        live_view::{applied_in_browser, LiveFields},
    };

    /// More than the longest pace of a spectator's stream (1 s) and a slow network.
    const CLOCK_JUMP_MS: f64 = 3_000.0;

    struct Conn {
        socket: Option<WebSocket>,
        last_seq: i64,
        /// The version the page opened at: events up to it are history (they fill the move
        /// list) and raise no live notice or sound.
        live_after: i64,
        closed_by_us: bool,
        acked: u32,
        /// The last event applied to the view whose fields have not come yet (they come with
        /// the commit's last event, or a later one's on a spectator's paced stream).
        applied: Option<i64>,
        _handlers: Vec<Closure<dyn FnMut(web_sys::Event)>>,
        _tick: Option<Closure<dyn FnMut()>>,
        tick_id: Option<i32>,
    }

    pub fn start(ctx: RoomCtx) {
        let conn = Rc::new(RefCell::new(Conn {
            socket: None,
            last_seq: 0,
            live_after: ctx.view.with_untracked(|v| v.version),
            closed_by_us: false,
            acked: 0,
            applied: None,
            _handlers: Vec::new(),
            _tick: None,
            tick_id: None,
        }));
        // Start after hydration, in the browser only.
        let c = conn.clone();
        Effect::new(move |prev: Option<()>| {
            if prev.is_none() {
                ctx.offset.set(local_now() - ctx.view.with_untracked(|v| v.server_time_ms) as f64);
                connect(ctx, c.clone());
                start_ticking(ctx, c.clone());
            }
        });
        // Acknowledge a displayed move once (this effect runs after the view shows it).
        let c = conn.clone();
        Effect::new(move |_| {
            let pending = ctx.view.with(|v| match (v.awaiting_ack, v.your_colour) {
                (Some((who, n)), Some(me)) if who == me && v.phase == wire::commands::RoomPhase::Playing => Some(n),
                _ => None,
            });
            if let Some(n) = pending {
                let already = c.borrow().acked >= n;
                if !already {
                    c.borrow_mut().acked = n;
                    let id = ctx.id;
                    leptos::task::spawn_local(async move {
                        // The acknowledgement comes back on the stream; only a refusal
                        // means the view is not what this page thinks.
                        if crate::api::match_command(id, Command::Acknowledge { move_number: n }).await.is_err() {
                            ctx.refresh();
                        }
                    });
                }
            }
        });
        let stored = StoredValue::new_local(conn.clone());
        on_cleanup(move || {
            let Some(c) = stored.try_get_value() else { return };
            let mut k = c.borrow_mut();
            k.closed_by_us = true;
            if let Some(s) = k.socket.take() {
                let _ = s.close();
            }
            if let (Some(id), Some(w)) = (k.tick_id.take(), web_sys::window()) {
                w.clear_interval_with_handle(id);
            }
        });
    }

    fn start_ticking(ctx: RoomCtx, conn: Rc<RefCell<Conn>>) {
        let tick = Closure::<dyn FnMut()>::new(move || ctx.now.set(local_now()));
        if let Some(w) = web_sys::window() {
            if let Ok(id) = w.set_interval_with_callback_and_timeout_and_arguments_0(tick.as_ref().unchecked_ref(), 250)
            {
                conn.borrow_mut().tick_id = Some(id);
            }
        }
        ctx.now.set(local_now());
        conn.borrow_mut()._tick = Some(tick);
    }

    fn connect(ctx: RoomCtx, conn: Rc<RefCell<Conn>>) {
        let Some(loc) = web_sys::window().map(|w| w.location()) else { return };
        let (Ok(proto), Ok(host)) = (loc.protocol(), loc.host()) else { return };
        let scheme = if proto == "https:" { "wss" } else { "ws" };
        let after = conn.borrow().last_seq;
        let url = format!("{scheme}://{host}/api/v1/rooms/{}/stream?after={after}&batch=packed", ctx.id);
        let Ok(socket) = WebSocket::new(&url) else { return };
        let c = conn.clone();
        let on_message = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
            let Some(text) = e.dyn_ref::<MessageEvent>().and_then(|m| m.data().as_string()) else { return };
            on_text(ctx, &c, &text);
        });
        let c = conn.clone();
        let on_close = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| {
            if c.borrow().closed_by_us {
                return;
            }
            // Reconnect with the last event number after a short pause.
            let again = c.clone();
            let retry = Closure::once_into_js(move || connect(ctx, again));
            if let Some(w) = web_sys::window() {
                let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(retry.unchecked_ref(), 1000);
            }
        });
        socket.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        socket.set_onclose(Some(on_close.as_ref().unchecked_ref()));
        let mut k = conn.borrow_mut();
        k.socket = Some(socket);
        k._handlers = vec![on_message, on_close];
    }

    /// A stream message's kind (its `type`).
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Kind {
        Batch,
        Packed,
        Event,
        Snapshot,
        Refused,
        Lagged,
        #[serde(other)]
        Other,
    }

    /// A stream message with its parts left as their JSON text until its kind says how to
    /// read them. Why not `serde_json::Value`: reading the view and the events through
    /// `Value` would compile a second deserializer for them into the room's WASM; this way
    /// they are read with the same `from_slice` reader as the page's resources.
    #[derive(serde::Deserialize)]
    struct Message<'a> {
        #[serde(rename = "type")]
        kind: Kind,
        #[serde(borrow)]
        messages: Option<Vec<&'a RawValue>>,
        #[serde(borrow)]
        event: Option<&'a RawValue>,
        #[serde(borrow)]
        live: Option<&'a RawValue>,
        #[serde(borrow)]
        room: Option<&'a RawValue>,
    }

    fn read<'a, T: serde::Deserialize<'a>>(raw: Option<&'a RawValue>) -> Option<T> {
        serde_json::from_slice(raw?.get().as_bytes()).ok()
    }

    fn on_text(ctx: RoomCtx, conn: &Rc<RefCell<Conn>>, text: &str) {
        let Ok(msg) = serde_json::from_slice::<Message>(text.as_bytes()) else { return };
        match msg.kind {
            // One write of several events (a paced spectator's, or several waiting): in order.
            Kind::Batch => {
                for m in msg.messages.unwrap_or_default() {
                    on_text(ctx, conn, m.get());
                }
            }
            // The browser's own framing: a write's events in few bytes.
            Kind::Packed => {
                // A message that cannot be read: the view is fetched instead.
                let Ok(events) = wire::packed::unpack(text) else { return ctx.refresh() };
                for (e, live) in events {
                    on_event(ctx, conn, e, live);
                }
            }
            Kind::Event => {
                let Some(e) = read::<StoredEvent>(msg.event) else { return };
                on_event(ctx, conn, e, read::<LiveFields>(msg.live));
            }
            Kind::Snapshot => {
                if let Some(v) = read::<wire::view::RoomView>(msg.room) {
                    conn.borrow_mut().last_seq = v.version;
                    ctx.view.set(v);
                }
                ctx.refresh();
            }
            // 003 §6.5: this viewer's viewing was restricted; the page says so on reload.
            Kind::Refused => {
                conn.borrow_mut().closed_by_us = true;
                if let Some(w) = web_sys::window() {
                    let _ = w.location().reload();
                }
            }
            Kind::Lagged => {
                if let Some(s) = conn.borrow().socket.as_ref() {
                    let _ = s.close();
                }
            }
            Kind::Other => {}
        }
    }

    /// One event of the room, with the view's fields when they are as of it.
    fn on_event(ctx: RoomCtx, conn: &Rc<RefCell<Conn>>, e: StoredEvent, live: Option<LiveFields>) {
        if e.seq <= conn.borrow().last_seq {
            return;
        }
        conn.borrow_mut().last_seq = e.seq;
        // After an undo or a hold a move number can be shown (and acknowledged) again.
        if matches!(
            e.event,
            Event::UndoAccepted { .. } | Event::TakenBack { .. } | Event::Held { .. } | Event::PlayResumed
        ) {
            conn.borrow_mut().acked = 0;
        }
        let is_live = e.seq > conn.borrow().live_after;
        if is_live {
            react(ctx, &e.event);
            // Someone looking back keeps looking at the same position.
            if ctx.back.get_untracked() > 0 && super::super::history::changes_position(&e.event) {
                ctx.back.update(|b| *b += 1);
            }
        }
        let applied = apply(ctx, conn, &e, live);
        if is_live && applied {
            announce_ataris(ctx, &e.event);
        }
        ctx.events.update(|v| v.push(e));
        if !applied {
            ctx.refresh();
        }
    }

    /// Applies `e` to the page's view when the view is in step with it (the event right
    /// after what the view holds); false when the view must be fetched instead. True also
    /// when the view already holds it.
    fn apply(ctx: RoomCtx, conn: &Rc<RefCell<Conn>>, e: &StoredEvent, live: Option<LiveFields>) -> bool {
        let version = ctx.view.with_untracked(|v| v.version);
        // A view fetched while the event was on its way already holds it (on a spectator's
        // paced stream the fetch is often ahead): nothing to apply, nothing to fetch.
        if e.seq <= version {
            return true;
        }
        let base = version.max(conn.borrow().applied.unwrap_or(0));
        let lacks_hints = live.as_ref().is_some_and(|f| ctx.view.with_untracked(|v| f.lacks_hints_for(v)));
        if !applied_in_browser(&e.event) || e.seq != base + 1 || lacks_hints {
            conn.borrow_mut().applied = None;
            return false;
        }
        if let Some(f) = &live {
            // A spectator's paced write comes up to a pace after the commit, so the smallest
            // offset seen is the truest (a larger one is delay); one larger by more than any
            // pace is the local clock having jumped.
            let sample = local_now() - f.server_time_ms as f64;
            ctx.offset.update(|o| {
                if sample < *o || sample - *o > CLOCK_JUMP_MS {
                    *o = sample;
                }
            });
        }
        conn.borrow_mut().applied = if live.is_some() { None } else { Some(e.seq) };
        ctx.view.update(|v| v.apply_live(&e.event, live));
        true
    }

    /// After a move (the view holds it): the chains it left in atari, in the room's labels.
    fn announce_ataris(ctx: RoomCtx, e: &Event) {
        let Event::MovePlayed { at, .. } = e else { return };
        let ataris = ctx.view.with_untracked(|v| {
            super::super::chains::ataris_around(v, *at)
                .into_iter()
                .map(|(p, c, n)| {
                    crate::tr!("table.atari", who = super::super::colour_text(c), at = super::super::label(v, p), n = n)
                })
                .collect::<Vec<_>>()
        });
        if !ataris.is_empty() {
            ctx.announcement.update(|a| {
                a.push_str(". ");
                a.push_str(&ataris.join(". "));
            });
        }
    }

    /// 003 §7.7: selection and preview clear on an opposing move, an undo, a restoration and
    /// on entering hold, scoring or the end. The live region announces moves.
    fn react(ctx: RoomCtx, e: &Event) {
        let me = ctx.my_colour();
        let clears = match e {
            Event::MovePlayed { colour, .. } | Event::Passed { colour, .. } => Some(*colour) != me,
            Event::UndoAccepted { .. }
            | Event::TakenBack { .. }
            | Event::Held { .. }
            | Event::Resumed { .. }
            | Event::ScoringEntered
            | Event::Ended { .. } => true,
            _ => false,
        };
        if clears {
            ctx.selection.set(None);
        }
        // 000 §9: a stone, a capture, and the turn coming to this player.
        if let Event::MovePlayed { colour, captured, .. } = e {
            let s = if captured.is_empty() {
                super::super::sound::Sound::Stone
            } else {
                super::super::sound::Sound::Capture
            };
            super::super::sound::play(ctx, s);
            if me.is_some_and(|m| m != *colour) {
                super::super::sound::play(ctx, super::super::sound::Sound::YourTurn);
            }
        }
        if let Event::Passed { colour, .. } = e {
            if me.is_some_and(|m| m != *colour) {
                super::super::sound::play(ctx, super::super::sound::Sound::YourTurn);
            }
        }
        if let Event::IllegalAttempt { colour, .. } = e {
            if Some(*colour) != me {
                ctx.notice.set(Some(Notice::Info(
                    ctx.view.with_untracked(|v| event_line(v, e).map(|l| l.0).unwrap_or_default()),
                )));
            }
        }
        // 000 §9: captured stones fade out (switchable in the panel).
        if let Event::MovePlayed { colour, captured, .. } = e {
            if ctx.animate.get_untracked() && !captured.is_empty() {
                let lost = match colour {
                    wire::events::Colour::Black => wire::events::Colour::White,
                    wire::events::Colour::White => wire::events::Colour::Black,
                };
                let ghosts: Vec<_> = captured.iter().map(|p| (*p, lost)).collect();
                ctx.ghosts.set(ghosts.clone());
                // Only this capture's timer clears it (a later capture keeps its own 800 ms).
                let clear = Closure::once_into_js(move || {
                    if ctx.ghosts.try_with_untracked(|g| *g == ghosts).unwrap_or(false) {
                        ctx.ghosts.set(Vec::new());
                    }
                });
                if let Some(w) = web_sys::window() {
                    let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(clear.unchecked_ref(), 800);
                }
            }
        }
        if let Some((line, _)) = ctx.view.with_untracked(|v| event_line(v, e)) {
            ctx.announcement.set(line);
        }
    }
}
