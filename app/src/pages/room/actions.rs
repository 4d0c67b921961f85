//! The action zone: right under the board on a phone, at the head of the side column on a
//! wide screen — what the person in the room can do now, by phase, and nothing else. Ready
//! while the game waits for it; in play the requests to answer, then Place stone with the
//! coordinate entry beside it and the move commands; in scoring the statement with Agree
//! first; in a hold why, since when and what each side can do; awaiting review what waits
//! for whom; after the end the result and its statement. A refusal or a notice shows here,
//! next to what caused it.

use leptos::prelude::*;

use super::{
    panel::{hold_text, MoveControls, Notices, PassGuidance, RecordLinks, Requests},
    tr_dyn, RoomCtx,
};
use crate::{pages::header::fmt_time, tr};
use wire::{
    commands::RoomPhase,
    events::{Event, HoldReason},
};

#[component]
pub fn ActionZone() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let phase = move || ctx.view.with(|v| v.phase);
    view! {
        <section class="action-zone" data-testid="actions" aria-label=move || tr!("table.actions")>
            <super::looking_back::HistoryBanner/>
            <Notices/>
            <HoldBlock/>
            <ReviewBlock/>
            <super::ReadyButton/>
            <WaitingReady/>
            <Show when=move || phase() == RoomPhase::Playing>
                <Requests/>
                <PassGuidance/>
            </Show>
            <super::scoring::ScoringPanel/>
            <EndRecord/>
            <MoveControls/>
        </section>
    }
}

/// Waiting for Ready: whose Ready is still missing (003 §1.6, §6.3).
#[component]
fn WaitingReady() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let missing = move || {
        ctx.view.with(|v| {
            if v.phase != RoomPhase::WaitingReady {
                return None;
            }
            let names: Vec<String> = [wire::events::Colour::Black, wire::events::Colour::White]
                .into_iter()
                .filter(|c| !v.ready[*c])
                .map(super::colour_text)
                .collect();
            (!names.is_empty()).then(|| tr!("table.waiting_ready", who = names.join(", ")))
        })
    };
    view! { {move || missing().map(|t| view! { <p class="hint" data-testid="waiting-ready">{t}</p> })} }
}

fn hold_next_key(h: &HoldReason) -> &'static str {
    match h {
        HoldReason::ServerRestart => "hold_next.restart",
        HoldReason::Disconnection { .. } => "hold_next.disconnection",
        HoldReason::ScoringDispute { .. } => "hold_next.dispute",
        HoldReason::Administrator { .. } => "hold_next.admin",
        HoldReason::PlayerCall { .. } => "hold_next.player_call",
        HoldReason::RulingObjection { .. } => "hold_next.ruling_objection",
        HoldReason::DamagedRecord { .. } => "hold_next.damaged",
    }
}

/// A hold: why, since when, what happens next, and what a player can do meanwhile.
#[component]
fn HoldBlock() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let held = move || ctx.view.with(|v| v.hold.clone());
    // The server's time of the hold; the stream's event before that view field existed.
    let since = move || {
        ctx.view.with(|v| v.hold_since_ms).map(fmt_time).or_else(|| {
            ctx.events
                .with(|es| es.iter().rev().find(|e| matches!(e.event, Event::Held { .. })).map(|e| fmt_time(e.at_ms)))
        })
    };
    view! {
        {move || held().map(|h| view! {
            <div class="hold-info" data-testid="hold-info" role="status">
                <h2>{tr!("room.held", why = hold_text(&h))}</h2>
                {since().map(|t| view! { <p data-testid="hold-since">{tr!("referee.held_since", time = t)}</p> })}
                <p data-testid="hold-next">{tr_dyn(hold_next_key(&h))}</p>
                {ctx.my_colour().is_some().then(|| view! { <p class="hint" data-testid="hold-you">{tr!("table.hold_you")}</p> })}
            </div>
        })}
    }
}

/// A counted result waiting for the administrator's review, or a result under review.
#[component]
fn ReviewBlock() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    view! {
        {move || ctx.view.with(|v| (v.phase == RoomPhase::AwaitingReview).then(|| view! {
            <p class="request" data-testid="awaiting-review">
                {tr!("referee.statement_waits", n = v.referee.awaiting_review.map(|w| w.statement).unwrap_or_default())}</p>
        }))}
        {move || ctx.view.with(|v| v.under_review.then(|| view! {
            <p class="request" data-testid="under-review">{tr!("referee.under_review")}</p>
        }))}
    }
}

/// After the end, the record: its replay and downloads for those who may read it (003 §8.1).
#[component]
fn EndRecord() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let shown = move || ctx.view.with(|v| v.phase == RoomPhase::Finished && v.may_read_record);
    view! {
        <Show when=shown>
            <p class="end-record" data-testid="end-record">{move || tr!("table.record")}": "<RecordLinks/></p>
        </Show>
    }
}
