//! Before the game: taking a seat (by invitation or an open challenge's free seat),
//! confirming the settings, leaving the seat or cancelling the room; then Ready.

use leptos::prelude::*;

use super::{colour_text, RoomCtx};
use crate::{sync_hydrate::IntoAnySync, tr};
use wire::commands::{Command, RoomPhase};

/// Before the start: taking a seat by invitation and confirming the settings (003 §1.3).
#[component]
pub fn Seating(code: Option<String>) -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let code = StoredValue::new(code);
    let open = move || ctx.view.with(|v| v.phase == RoomPhase::Open);
    view! {
        <Show when=move || ctx.view.with(|v| v.phase == RoomPhase::Cancelled)>
            <p class="notice" data-testid="room-cancelled" role="status">{move || tr!("lobby.cancelled")}</p>
        </Show>
        <Show when=open>
            <section class="seating" data-testid="seating">
                <h2>{move || tr!("room.seating")}</h2>
                <p>{move || ctx.view.with(|v| format!("{} · {}",
                    v.seats[0].clone().unwrap_or_else(|| "—".into()), v.seats[1].clone().unwrap_or_else(|| "—".into())))}</p>
                <ul class="settings-summary">
                    {move || ctx.view.with(|v| {
                        let lines = crate::text::settings_summary(crate::i18n::use_lang().get(), &v.settings);
                        lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()
                    })}
                </ul>
                {move || {
                    let seated = ctx.view.with(|v| {
                        ctx.me.with(|m| m.as_ref().is_some_and(|m| v.seats.iter().flatten().any(|s| *s == m.username)))
                    });
                    let signed_in = ctx.me.with(|m| m.is_some());
                    match (signed_in, seated, code.get_value()) {
                        (false, _, _) => view! { <p><a href="/">{tr!("room.sign_in_to_join")}</a></p> }.into_any_sync(),
                        (true, false, Some(c)) => view! {
                            <button class="primary" data-testid="join" on:click=move |_| ctx.send(Command::Join { code: c.clone() })>
                                {tr!("room.join")}
                            </button>
                        }.into_any_sync(),
                        // An open room's free seat, for anyone signed in.
                        (true, false, None) if ctx.view.with(|v| v.settings.access == wire::settings::RoomAccess::Open
                            && v.seats.iter().any(Option::is_none)) => view! {
                            <button class="primary" data-testid="take-seat" on:click=move |_| ctx.send(Command::TakeSeat)>
                                {tr!("lobby.join")}
                            </button>
                        }.into_any_sync(),
                        (true, false, None) => view! { <p>{tr!("room.need_invitation")}</p> }.into_any_sync(),
                        (true, true, _) => {
                            let both = ctx.view.with(|v| v.seats.iter().all(Option::is_some));
                            let done = ctx.view.with(|v| {
                                ctx.me.with(|m| m.as_ref().is_some_and(|m| (0..2).any(|i| v.confirmed[i] && v.seats[i].as_deref() == Some(m.username.as_str()))))
                            });
                            view! {
                                <button class="primary" data-testid="confirm-settings" disabled=!both || done
                                    on:click=move |_| ctx.send(Command::Confirm)>
                                    {tr!("room.confirm_settings")}
                                </button>
                                <span class="hint">{if !both { tr!("room.waiting_opponent") } else if done { tr!("room.waiting_confirm") } else { String::new() }}</span>
                                " "
                                <button data-testid="leave-seat" on:click=move |_| ctx.send(Command::LeaveSeat)>{tr!("lobby.leave_seat")}</button>
                            }.into_any_sync()
                        }
                    }
                }}
                {move || ctx.view.with(|v| v.you_created).then(|| view! {
                    <button data-testid="cancel-room" on:click=move |_| ctx.send(Command::CancelRoom)>{move || tr!("lobby.cancel_room")}</button>
                })}
            </section>
        </Show>
    }
}

/// The Ready button (003 §1.6, §6.3).
#[component]
pub fn ReadyButton() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let show =
        move || ctx.view.with(|v| v.phase == RoomPhase::WaitingReady && v.your_colour.is_some_and(|c| !v.ready[c]));
    view! {
        <Show when=show>
            <button class="primary" data-testid="ready" on:click=move |_| ctx.send(Command::Ready)>
                {move || ctx.view.with(|v| match (&v.settings.mode, v.your_colour) {
                    // One screen: Ready for each colour in turn; practice: one for both.
                    (m, _) if m.is_practice() => tr!("mode.ready_both"),
                    (m, Some(c)) if m.one_screen_both_colours() => tr!("mode.ready_for", who = colour_text(c)),
                    _ => tr!("room.ready"),
                })}
            </button>
        </Show>
    }
}
