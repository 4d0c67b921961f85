//! The live queue, oldest first: room, kind, age, who claimed it, and a Claim button. In the
//! browser the list follows `/api/v1/admin/stream`, which sends the whole queue at once and
//! after every change; the list is replaced by each message.

use leptos::{prelude::*, task::spawn_local};

use crate::{
    api::referee::claim_item,
    pages::{
        header::{age_text, now_ms, set_queue_len},
        words::tr_dyn,
    },
    tr,
};

use wire::referee::QueueEntry;

/// One message of the admin stream (read in the browser only).
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum StreamMessage {
    Queue { items: Vec<QueueEntry> },
}

fn sorted(mut items: Vec<QueueEntry>) -> Vec<QueueEntry> {
    items.sort_by_key(|e| (e.since_ms, e.room_id));
    items
}

#[component]
pub fn Queue(initial: Vec<QueueEntry>) -> impl IntoView {
    let items = RwSignal::new(sorted(initial));
    let error = RwSignal::new(None::<String>);
    let now = RwSignal::new(now_ms());
    let live = RwSignal::new(false);
    let lang = crate::i18n::use_lang();
    stream::start(items, live, now);
    Effect::new(move |_| set_queue_len(items.with(Vec::len)));
    let claim = move |e: QueueEntry| {
        spawn_local(async move {
            match claim_item(e.room_id, e.kind).await {
                Ok(updated) => {
                    error.set(None);
                    items.update(|list| {
                        for it in list.iter_mut() {
                            if it.room_id == updated.room_id && it.kind == updated.kind {
                                *it = updated.clone();
                            }
                        }
                    });
                }
                Err(err) => error.set(Some(crate::text::app_error(lang.get_untracked(), &err))),
            }
        });
    };
    view! {
        <p class="hint" data-testid="queue-live" data-live=move || live.get().to_string()>
            {move || if live.get() { tr!("admin.live") } else { tr!("admin.not_live") }}
        </p>
        {move || error.get().map(|t| view! { <p class="notice error" role="alert" data-testid="queue-error">{t}</p> })}
        <table class="queue" data-testid="admin-queue">
            <thead><tr>
                <th>{move || tr!("admin.room")}</th><th>{move || tr!("admin.kind")}</th>
                <th>{move || tr!("admin.age")}</th><th>{move || tr!("admin.claimed_by")}</th><th></th>
            </tr></thead>
            <tbody>
                {move || items.get().into_iter().map(|e| {
                    let kind = e.kind.as_str();
                    let claimed = e.claimed_by.clone();
                    let entry = e.clone();
                    view! {
                        <tr data-testid="queue-item" data-room=e.room_id.to_string() data-kind=kind>
                            <td><a href=format!("/admin/rooms/{}", e.room_id) data-testid="queue-room">{e.room_name.clone()}</a></td>
                            <td>{move || tr_dyn(&format!("queue.{kind}"))}</td>
                            <td>{move || age_text(e.since_ms, now.get())}</td>
                            <td data-testid="claimed-by">{claimed.clone().unwrap_or_else(|| "—".into())}</td>
                            <td><button data-testid="claim" on:click=move |_| claim(entry.clone())>{move || tr!("admin.claim")}</button></td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
        {move || items.with(Vec::is_empty).then(|| view! { <p class="empty" data-testid="queue-empty">{tr!("admin.queue_empty")}</p> })}
    }
}

mod stream {
    use super::QueueEntry;
    use leptos::prelude::*;

    #[cfg(not(feature = "hydrate"))]
    pub fn start(items: RwSignal<Vec<QueueEntry>>, live: RwSignal<bool>, now: RwSignal<i64>) {
        let _ = (items, live, now);
    }

    /// Opens the admin stream after hydration; a closed connection reconnects after 3 s.
    #[cfg(feature = "hydrate")]
    pub fn start(items: RwSignal<Vec<QueueEntry>>, live: RwSignal<bool>, now: RwSignal<i64>) {
        use std::{cell::RefCell, rc::Rc};
        use wasm_bindgen::{closure::Closure, JsCast};
        use web_sys::{MessageEvent, WebSocket};

        struct Conn {
            socket: Option<WebSocket>,
            closed_by_us: bool,
            handlers: Vec<Closure<dyn FnMut(web_sys::Event)>>,
        }

        fn connect(conn: Rc<RefCell<Conn>>, items: RwSignal<Vec<QueueEntry>>, live: RwSignal<bool>) {
            let Some(loc) = web_sys::window().map(|w| w.location()) else { return };
            let (Ok(proto), Ok(host)) = (loc.protocol(), loc.host()) else { return };
            let scheme = if proto == "https:" { "wss" } else { "ws" };
            let Ok(socket) = WebSocket::new(&format!("{scheme}://{host}/api/v1/admin/stream")) else { return };
            let on_message = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
                let Some(text) = e.dyn_ref::<MessageEvent>().and_then(|m| m.data().as_string()) else { return };
                if let Ok(super::StreamMessage::Queue { items: list }) = serde_json::from_str(&text) {
                    items.try_set(super::sorted(list));
                }
            });
            let on_open = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| {
                live.try_set(true);
            });
            let c = conn.clone();
            let on_close = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| {
                live.try_set(false);
                if c.borrow().closed_by_us {
                    return;
                }
                let again = c.clone();
                set_timeout(move || connect(again, items, live), std::time::Duration::from_secs(3));
            });
            socket.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            socket.set_onopen(Some(on_open.as_ref().unchecked_ref()));
            socket.set_onclose(Some(on_close.as_ref().unchecked_ref()));
            let mut k = conn.borrow_mut();
            k.socket = Some(socket);
            k.handlers = vec![on_message, on_open, on_close];
        }

        let conn = Rc::new(RefCell::new(Conn { socket: None, closed_by_us: false, handlers: Vec::new() }));
        let c = conn.clone();
        Effect::new(move |prev: Option<()>| {
            if prev.is_none() {
                connect(c.clone(), items, live);
            }
        });
        // The ages move on once a minute.
        if let Ok(h) = set_interval_with_handle(
            move || {
                now.try_set(crate::pages::header::now_ms());
            },
            std::time::Duration::from_secs(30),
        ) {
            on_cleanup(move || h.clear());
        }
        let stored = StoredValue::new_local(conn);
        on_cleanup(move || {
            let Some(c) = stored.try_get_value() else { return };
            let mut k = c.borrow_mut();
            k.closed_by_us = true;
            if let Some(s) = k.socket.take() {
                let _ = s.close();
            }
        });
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_queue_message_reads_as_the_list() {
        let text = r#"{"type":"queue","items":[{"room_id":3,"room_name":"R","kind":"player_call","since_ms":5,"claimed_by":null,"claimed_at_ms":null}]}"#;
        let super::StreamMessage::Queue { items } = serde_json::from_str(text).expect("a queue message");
        assert_eq!(items.len(), 1);
        assert_eq!(items[0].kind, wire::referee::QueueKind::PlayerCall);
    }
}
