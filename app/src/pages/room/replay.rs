//! The replay viewer (`/rooms/{id}/replay`): any game whose record the viewer may read
//! (003 §8.1), stepped through on the same flat or 3D board as the live room — the moves,
//! passes, illegal attempts and undos shown as such, the captures and the clocks at each
//! step, and the final result with its statement. ←/→ step, Home/End jump.

use std::collections::HashMap;

use crate::sync_hydrate::IntoAnySync;
use leptos::{prelude::*, task::spawn_local};
use leptos_router::hooks::use_params_map;

use super::{board2d, colour_text, describe_error, label, space, RoomCtx};
use crate::{
    api::replay::{replay_frame, replay_steps},
    tr, AppError,
};
use wire::{
    events::Colour,
    replay::{ReplayStep, StepKind},
    view::RoomView,
};

#[component]
pub fn ReplayPage() -> impl IntoView {
    let params = use_params_map();
    let id = move || params.read().get("id").and_then(|s| s.parse::<i64>().ok());
    let data = crate::pages::resource(id, |id| async move {
        let id = id.ok_or_else(|| AppError::invalid("room", "not a room number"))?;
        let steps = replay_steps(id).await?;
        let last = steps.last().map(|s| s.seq).ok_or_else(|| AppError::invalid("room", "no play to replay"))?;
        let first = replay_frame(id, last).await?;
        Ok::<_, AppError>((id, steps, first))
    });
    view! {
        <Suspense fallback=|| view! { <p class="page">"…"</p> }>
            {move || Suspend::new(async move {
                match data.await {
                    Ok((id, steps, first)) => view! { <Replay id=id steps=steps first=first/> }.into_any_sync(),
                    Err(e) => view! {
                        <main class="page"><h1>{move || tr!("replay.title")}</h1>
                            <p class="error" role="alert" data-testid="replay-error">{describe_error(&e)}</p>
                            <p><a href="/">{move || tr!("nav.home")}</a></p>
                        </main>
                    }.into_any_sync(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn Replay(id: i64, steps: Vec<ReplayStep>, first: RoomView) -> impl IntoView {
    // The clocks stand still at each step: "now" is the step's own time (set with each frame).
    let ctx = RoomCtx::new(first.clone(), None);
    ctx.animate.set(false);
    provide_context(ctx);
    let steps = StoredValue::new(steps);
    let count = steps.with_value(Vec::len);
    let at = RwSignal::new(count.saturating_sub(1));
    let frames = StoredValue::new(HashMap::from([(first.version, first)]));
    let failed = RwSignal::new(None::<String>);
    // Shows step `i`'s frame: from the ones already fetched, or asked of the server.
    let show = move |i: usize| {
        let Some(seq) = steps.with_value(|s| s.get(i).map(|s| s.seq)) else { return };
        at.set(i);
        let put = move |v: RoomView| {
            ctx.now.set(v.server_time_ms as f64);
            if let Some(m) = v.last_move {
                ctx.layer.set(m.z);
            }
            ctx.view.set(v);
        };
        if let Some(v) = frames.with_value(|f| f.get(&seq).cloned()) {
            put(v);
            return;
        }
        spawn_local(async move {
            match replay_frame(id, seq).await {
                Ok(v) => {
                    frames.update_value(|f| {
                        f.insert(seq, v.clone());
                    });
                    // A slower answer for a step already left behind is kept, not shown.
                    if at.get_untracked() == i {
                        failed.set(None);
                        put(v);
                    }
                }
                Err(e) => failed.set(Some(describe_error(&e))),
            }
        });
    };
    let last = count.saturating_sub(1);
    let step_by = move |d: i64| {
        let i = (at.get_untracked() as i64 + d).clamp(0, last as i64) as usize;
        show(i);
    };
    // 003 §7 keyboard use: ←/→ one step, Home/End the ends.
    let handle = window_event_listener(leptos::ev::keydown, move |e| {
        let target_is_field = e
            .target()
            .and_then(|t| leptos::wasm_bindgen::JsCast::dyn_into::<leptos::web_sys::HtmlElement>(t).ok())
            .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"));
        if target_is_field {
            return;
        }
        match e.key().as_str() {
            "ArrowLeft" => step_by(-1),
            "ArrowRight" => step_by(1),
            "Home" => show(0),
            "End" => show(last),
            _ => return,
        }
        e.prevent_default();
    });
    on_cleanup(move || handle.remove());
    let flat = ctx.is_flat();
    let describe = move |s: &ReplayStep| ctx.view.with_untracked(|v| step_text(v, &s.kind));
    view! {
        <super::top_bar::RoomTopBar>
            <span class="room-name" data-testid="room-name">{move || ctx.view.with(|v| v.name.clone())}</span>
        </super::top_bar::RoomTopBar>
        <main class="room replay" class:flat=flat data-testid="replay">
            {if flat {
                view! { <section class="board-area"><board2d::FlatBoard/></section> }.into_any_sync()
            } else {
                view! { <section class="board-area space"><space::SpaceViews/></section> }.into_any_sync()
            }}
            <aside class="side">
                <h1 class="replay-title">{move || tr!("replay.title")}</h1>
                <p class="status" role="status" aria-live="polite" data-testid="replay-step">
                    {move || steps.with_value(|s| s.get(at.get()).map(describe)).unwrap_or_default()}
                    " · "{move || tr!("replay.step_of", n = at.get() + 1, total = count)}
                </p>
                <div class="replay-controls" role="group" aria-label=move || tr!("replay.controls")>
                    <button data-testid="replay-first" on:click=move |_| show(0) disabled={move || at.get() == 0}
                        aria-label=move || tr!("replay.first")>"|◀"</button>
                    <button data-testid="replay-back" on:click=move |_| step_by(-1) disabled={move || at.get() == 0}
                        aria-label=move || tr!("replay.back")>"◀"</button>
                    <button data-testid="replay-forward" on:click=move |_| step_by(1) disabled={move || at.get() >= last}
                        aria-label=move || tr!("replay.forward")>"▶"</button>
                    <button data-testid="replay-last" on:click=move |_| show(last) disabled={move || at.get() >= last}
                        aria-label=move || tr!("replay.last")>"▶|"</button>
                </div>
                <p class="hint">{move || tr!("replay.keys")}</p>
                {move || failed.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
                <dl class="replay-facts">
                    <dt>{move || tr!("replay.captures")}</dt>
                    <dd data-testid="replay-captures">{move || ctx.view.with(|v| format!("{} {} · {} {}",
                        colour_text(Colour::Black), v.captures.black, colour_text(Colour::White), v.captures.white))}</dd>
                    <dt>{move || tr!("replay.clocks")}</dt>
                    <dd data-testid="replay-clocks">{move || format!("{} {} · {} {}",
                        colour_text(Colour::Black), super::panel::clock_text(ctx, Colour::Black),
                        colour_text(Colour::White), super::panel::clock_text(ctx, Colour::White))}</dd>
                </dl>
                {move || ctx.view.with(|v| v.result.clone()).map(|r| {
                    let lang = crate::i18n::use_lang().get();
                    view! {
                        <section class="replay-result" data-testid="replay-result">
                            <p><strong>{crate::text::result(lang, &r.result)}</strong></p>
                            {r.statement.map(|n| view! { <p>{tr!("replay.statement", n = n)}</p> })}
                        </section>
                    }
                })}
                <ol class="replay-list" data-testid="replay-list">
                    {steps.with_value(|all| all.iter().enumerate().map(|(i, s)| {
                        let kind = s.kind.clone();
                        let illegal = matches!(kind, StepKind::Illegal { .. });
                        let undo = matches!(kind, StepKind::Undo { .. });
                        view! {
                            <li class:current=move || at.get() == i class:illegal=illegal class:undo=undo>
                                <button data-testid=format!("replay-step-{i}") aria-current=move || (at.get() == i).then_some("step")
                                    on:click=move |_| show(i)>
                                    {move || ctx.view.with_untracked(|v| step_text(v, &kind))}
                                </button>
                            </li>
                        }
                    }).collect_view())}
                </ol>
                <p><a href=format!("/rooms/{id}") data-testid="to-room">{move || tr!("replay.to_room")}</a></p>
            </aside>
        </main>
    }
}

/// One step in words: "12. Black D4 (2 captured)", "Illegal: White Q16 (ko)", "Undo".
fn step_text(v: &RoomView, k: &StepKind) -> String {
    match k {
        StepKind::Start => tr!("replay.start"),
        StepKind::Move { colour, at, move_number, captured: 0 } => {
            tr!("replay.move", n = move_number, who = colour_text(*colour), at = label(v, *at))
        }
        StepKind::Move { colour, at, move_number, captured } => tr!(
            "replay.move_captures",
            n = move_number,
            who = colour_text(*colour),
            at = label(v, *at),
            captured = captured
        ),
        StepKind::Pass { colour, move_number } => tr!("replay.pass", n = move_number, who = colour_text(*colour)),
        StepKind::Illegal { colour, at, reason } => tr!(
            "replay.illegal",
            who = colour_text(*colour),
            at = label(v, *at),
            why = super::tr_dyn(&format!("reason.{}", reason.as_str()))
        ),
        StepKind::Undo { by, moves } => tr!("replay.undo", who = colour_text(*by), moves = moves),
        StepKind::Resigned { colour } => tr!("replay.resigned", who = colour_text(*colour)),
        StepKind::TimeExpired { colour } => tr!("replay.time_expired", who = colour_text(*colour)),
        StepKind::Ended => tr!("replay.ended"),
    }
}
