//! Looking back during a live game: the controls that step through earlier positions on the
//! same boards (`history` works them out), and the banner that says which position is shown,
//! announces a new move meanwhile and goes back to live with one press.

use leptos::prelude::*;

use super::{event_line, history, RoomCtx};
use crate::tr;

/// Stepping back through earlier positions of the game on the same boards, and back to live
/// with one press. Arrow keys step while the controls have focus.
#[component]
pub fn HistoryControls() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let depth = Memo::new(move |_| ctx.events.with(|es| history::depth(es)));
    let step = move |d: i64| ctx.back.update(|b| *b = (*b as i64 + d).clamp(0, depth.get_untracked() as i64) as usize);
    let at = move || {
        let shown = ctx.shown.get();
        let live = ctx.view.with(|v| v.move_number);
        match shown.back {
            Some(b) => tr!("table.at_move", n = b.move_number, live = live),
            None => tr!("table.live", live = live),
        }
    };
    view! {
        <Show when=move || { depth.get() > 0 }>
            <div class="history" role="group" aria-label=move || tr!("table.history") data-testid="history"
                on:keydown=move |e| match e.key().as_str() {
                    // Alt+arrows are the browser's Back and Forward.
                    _ if e.alt_key() || e.ctrl_key() || e.meta_key() => {}
                    "ArrowLeft" => { e.prevent_default(); step(1) }
                    "ArrowRight" => { e.prevent_default(); step(-1) }
                    _ => {}
                }>
                <button data-testid="history-start" aria-label=move || tr!("table.first")
                    on:click=move |_| ctx.back.set(depth.get_untracked())>"«"</button>
                <button data-testid="history-back" aria-label=move || tr!("table.back") on:click=move |_| step(1)>"‹"</button>
                <span class="at" data-testid="history-at" aria-live="polite">{at}</span>
                // Forward and back to live only while looking back: nothing disabled lingers.
                <Show when=move || { ctx.back.get() > 0 }>
                    <button data-testid="history-forward" aria-label=move || tr!("table.forward")
                        on:click=move |_| step(-1)>"›"</button>
                    <button class="primary" data-testid="history-live" on:click=move |_| ctx.back.set(0)>{move || tr!("table.to_live")}</button>
                </Show>
            </div>
        </Show>
    }
}

/// While an earlier position is shown: which, and what has happened since (a new move is
/// announced), with the way back to live.
#[component]
pub fn HistoryBanner() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let since = move || {
        let shown = ctx.shown.get();
        let n = shown.back?.move_number;
        let latest = ctx.events.with(|es| {
            es.iter().rev().find_map(|e| ctx.view.with(|v| event_line(v, &e.event).filter(|(_, illegal)| !illegal)))
        });
        Some((n, latest.map(|(l, _)| l).unwrap_or_default()))
    };
    view! {
        {move || since().map(|(n, latest)| view! {
            <div class="request looking-back" data-testid="looking-back" role="status">
                <p>{tr!("table.looking_back", n = n)}" "<span data-testid="latest-move">{tr!("table.latest", line = latest)}</span></p>
                <button class="primary" data-testid="back-to-live" on:click=move |_| ctx.back.set(0)>{tr!("table.to_live")}</button>
            </div>
        })}
    }
}
