//! The players' side of the referee (003 §1.4, §2.7, §3.6, §4.7, §5.7, §6.2): every ruling
//! with its reasons and cited spaces, shown to everyone; a player's opinion and objection
//! in scoring, the call to the administrator during play, the objection to a loss on time,
//! the referral of an error after the end and the answer to a proposed correction; why a
//! game is held and what happens next.

use leptos::prelude::*;

use super::{colour_text, label, tr_dyn, RoomCtx};
use crate::{
    pages::{
        header::fmt_time,
        room::reasons::{send_reasoned, Reasons},
    },
    tr,
};
use wire::{
    commands::{Command, RoomPhase},
    events::{Colour, Xyz},
    referee::{ChainOpinion, ChainVerdict, RegionVerdict},
    view::RoomView,
};

/// The points drawn as cited safe spaces: each cited point of the latest ruling with the
/// rest of the life-space candidate it lies in, when the scoring view lists it.
pub fn cited_points(v: &RoomView) -> Vec<Xyz> {
    let Some(r) = v.referee.rulings.last() else { return Vec::new() };
    let spaces: Vec<&Vec<Xyz>> = v
        .scoring
        .as_ref()
        .map(|s| s.suggestions.life_spaces.iter().flat_map(|(_, sp)| sp.iter()).collect())
        .unwrap_or_default();
    let mut out = Vec::new();
    for c in &r.chains {
        if let ChainVerdict::Alive { spaces: cited } = &c.verdict {
            for p in cited {
                match spaces.iter().find(|s| s.contains(p)) {
                    Some(s) => out.extend(s.iter().copied()),
                    None => out.push(*p),
                }
            }
        }
    }
    out.sort_by_key(|p| (p.z, p.y, p.x));
    out.dedup();
    out
}

fn verdict_key(v: &ChainVerdict) -> &'static str {
    match v {
        ChainVerdict::Alive { .. } => "verdict.alive",
        ChainVerdict::Seki => "verdict.seki",
        ChainVerdict::Dead => "verdict.dead",
        ChainVerdict::Unresolved => "verdict.unresolved",
    }
}

/// Every ruling of the room, its objection, the time-loss review and the corrections:
/// visible to everyone who watches (003 §3.6, §8.5).
#[component]
pub fn Rulings() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let any = move || {
        ctx.view.with(|v| {
            let r = &v.referee;
            !r.rulings.is_empty() || r.time_loss.is_some() || r.correction.is_some() || !r.corrections.is_empty()
        })
    };
    view! {
        <Show when=any>
            <section class="rulings" data-testid="rulings" aria-label=move || tr!("referee.rulings")>
                <h2>{move || tr!("referee.rulings")}</h2>
                // The latest ruling, its verdicts, reasons and cited spaces, with the objection
                // right under it: one block; earlier rulings folded below.
                {move || ctx.view.with(|v| v.referee.rulings.last().map(|r| ruling_view(v, r)))}
                <Objection/>
                {move || ctx.view.with(|v| (v.referee.rulings.len() > 1).then(|| view! {
                    <details class="earlier-rulings">
                        <summary>{tr!("table.earlier_rulings", n = v.referee.rulings.len() - 1)}</summary>
                        {v.referee.rulings.iter().rev().skip(1).map(|r| ruling_view(v, r)).collect_view()}
                    </details>
                }))}
                {move || ctx.view.with(|v| v.referee.time_loss.clone().map(|t| {
                    let state = match t.cancelled {
                        None => tr!("referee.time_loss_pending"),
                        Some(true) => tr!("referee.time_loss_cancelled"),
                        Some(false) => tr!("referee.time_loss_upheld"),
                    };
                    view! {
                        <p data-testid="time-loss-review">{tr!("referee.time_loss_objection", who = colour_text(t.objection.colour))}": "
                            <q>{t.objection.reasons}</q>" · "{state}
                            {t.reasons.map(|r| view! { " — "<q>{r}</q> })}</p>
                    }
                }))}
                <Corrections/>
            </section>
        </Show>
    }
}

/// One ruling: each chain's verdict with the safe spaces it cites (drawn on the boards as
/// well), each region's, the reasons and the confirmation.
fn ruling_view(v: &RoomView, r: &wire::referee::RulingRecord) -> impl IntoView {
    view! {
        <div class="ruling" data-testid="ruling" data-number=r.number.to_string()>
            <p><strong>{tr!("referee.ruling_n", n = r.number, statement = r.statement)}</strong>" · "{fmt_time(r.at_ms)}</p>
            <ul>
                {r.chains.iter().map(|c| {
                    let cited = match &c.verdict {
                        ChainVerdict::Alive { spaces } => spaces.iter().map(|p| label(v, *p)).collect::<Vec<_>>().join(", "),
                        _ => String::new(),
                    };
                    view! {
                        <li data-testid=format!("ruled-{}-{}-{}", c.at.x, c.at.y, c.at.z)>
                            {label(v, c.at)}" — "<strong>{tr_dyn(verdict_key(&c.verdict))}</strong>
                            {(!cited.is_empty()).then(|| view! { " · "{tr!("referee.cited", list = cited.clone())} })}
                        </li>
                    }
                }).collect_view()}
                {r.regions.iter().map(|g| view! {
                    <li>{label(v, g.at)}" — "{tr_dyn(if g.verdict == RegionVerdict::Seki { "scoring.seki" } else { "verdict.neutral" })}</li>
                }).collect_view()}
            </ul>
            <p class="reasons" data-testid="ruling-reasons">{tr!("referee.reasons")}": "<q>{r.reasons.clone()}</q></p>
            {r.confirmed.clone().map(|c| view! { <p data-testid="ruling-confirmed">{tr!("referee.confirmed")}": "<q>{c}</q></p> })}
        </div>
    }
}

/// Right under the rulings: the objection to the latest, once stated, or the form to state it
/// (a player who has not objected to it yet, 003 §3.6).
#[component]
fn Objection() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let objection = RwSignal::new(String::new());
    let can_object = move || {
        ctx.view.with(|v| {
            let latest = v.referee.rulings.last().map(|r| r.number);
            matches!(v.phase, RoomPhase::Scoring | RoomPhase::Held | RoomPhase::AwaitingReview)
                && latest.is_some()
                && v.your_colour.is_some_and(|c| v.referee.objected[c] != latest)
        })
    };
    view! {
        {move || ctx.view.with(|v| v.referee.ruling_objection.clone().map(|o| view! {
            <p class="objection" data-testid="ruling-objection">{tr!("referee.objected", who = colour_text(o.colour))}": "<q>{o.reasons}</q></p>
        }))}
        <Show when=can_object>
            <form class="object" data-testid="object-ruling-form" on:submit=move |e| {
                e.prevent_default();
                send_reasoned(ctx, objection, |reasons| Some(Command::ObjectToRuling { reasons }));
            }>
                <Reasons value=objection/>
                <button type="submit" data-testid="object-ruling">{move || tr!("referee.object_ruling")}</button>
            </form>
        </Show>
    }
}

/// An open referral and the history of corrections (original, corrected, reasons; 003 §4.7).
#[component]
fn Corrections() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let lang = move || crate::i18n::use_lang().get();
    view! {
        {move || ctx.view.with(|v| v.referee.correction.clone().map(|c| {
            let by = c.by.map(colour_text).unwrap_or_else(|| tr!("referee.administrator"));
            let mine = v.your_colour.filter(|me| c.proposal.as_ref().is_some_and(|p| p.answers[*me].is_none()));
            view! {
                <div class="correction" data-testid="correction">
                    <p>{tr!("referee.correction_referred", who = by)}": "<q>{c.reasons.clone()}</q></p>
                    {c.proposal.clone().map(|p| view! {
                        <p data-testid="correction-proposal">{tr!("referee.correction_proposed", result = crate::text::result(lang(), &p.result))}
                            " — "<q>{p.reasons.clone()}</q></p>
                        <p>{[Colour::Black, Colour::White].into_iter().map(|k| format!("{}: {} ", colour_text(k), match p.answers[k] {
                            None => tr!("scoring.not_yet"),
                            Some(true) => tr!("referee.accepted"),
                            Some(false) => tr!("referee.refused"),
                        })).collect::<String>()}</p>
                    })}
                    {mine.map(|_| view! {
                        <div class="buttons">
                            <button class="primary" data-testid="correction-accept" on:click=move |_| ctx.send(Command::AnswerCorrection { accept: true })>{tr!("room.accept")}</button>
                            <button data-testid="correction-refuse" on:click=move |_| ctx.send(Command::AnswerCorrection { accept: false })>{tr!("room.refuse")}</button>
                        </div>
                    })}
                </div>
            }
        }))}
        {move || ctx.view.with(|v| (!v.referee.corrections.is_empty()).then(|| view! {
            <h3>{tr!("referee.corrections")}</h3>
            <ul data-testid="corrections">
                {v.referee.corrections.iter().map(|c| view! {
                    <li>{fmt_time(c.at_ms)}" · "{tr!("referee.original", result = crate::text::result(lang(), &c.original))}" → "
                        {match &c.corrected {
                            Some(r) => crate::text::result(lang(), r),
                            None => tr!("referee.unchanged"),
                        }}" — "<q>{c.reasons.clone()}</q></li>
                }).collect_view()}
            </ul>
        }))}
    }
}

/// The players' controls for the referee: opinions in scoring, the call during play, the
/// objections and referrals after the end (a hold and a review are told in the action zone;
/// the objection to a ruling sits under the ruling).
#[component]
pub fn PlayerReferee() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    view! {
        <Show when=move || ctx.my_colour().is_some()>
            <ScoringControls/>
            <PlayControls/>
            <EndControls/>
        </Show>
    }
}

/// The stones' chains, each named by its first stone (the same key the server uses).
fn chain_heads(v: &RoomView) -> Vec<Xyz> {
    let mut seen: Vec<Xyz> = Vec::new();
    let mut heads = Vec::new();
    let mut stones: Vec<Xyz> = v.stones.iter().map(|(p, _)| *p).collect();
    stones.sort_by_key(|p| (p.z, p.y, p.x));
    for p in stones {
        if seen.contains(&p) {
            continue;
        }
        let chain = super::chain_of(v, p);
        seen.extend(chain.iter().copied());
        heads.push(p);
    }
    heads
}

fn xyz_value(p: Xyz) -> String {
    format!("{},{},{}", p.x, p.y, p.z)
}

/// In scoring: state an opinion on a chain, object to the latest ruling (003 §3.6).
#[component]
fn ScoringControls() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let scoring =
        move || ctx.view.with(|v| matches!(v.phase, RoomPhase::Scoring | RoomPhase::Held) && v.scoring.is_some());
    let chain = RwSignal::new(String::new());
    let opinion = RwSignal::new("alive".to_string());
    let reasons = RwSignal::new(String::new());
    // The chain last tapped is the one an opinion is about.
    Effect::new(move |_| {
        if let Some(at) = ctx.inspected.get() {
            let head = ctx.view.with_untracked(|v| {
                let c = super::chain_of(v, at);
                chain_heads(v).into_iter().find(|h| c.contains(h))
            });
            if let Some(h) = head {
                chain.set(xyz_value(h));
            }
        }
    });
    view! {
        <Show when=scoring>
            <form class="opinion" data-testid="opinion-form" on:submit=move |e| {
                e.prevent_default();
                let at = chain.get_untracked().parse::<wire::events::Xyz>().ok();
                let op = match opinion.get_untracked().as_str() {
                    "dead" => ChainOpinion::Dead,
                    "seki" => ChainOpinion::Seki,
                    _ => ChainOpinion::Alive,
                };
                match at {
                    Some(at) => send_reasoned(ctx, reasons, |reasons| Some(Command::StateOpinion { at, opinion: op, reasons })),
                    None => ctx.notice.set(Some(super::Notice::Info(tr!("referee.choose_chain")))),
                }
            }>
                <h3>{move || tr!("referee.opinion")}</h3>
                <label>{move || tr!("referee.chain")}
                    <select data-testid="opinion-chain" prop:value=chain on:change=move |e| chain.set(event_target_value(&e))>
                        <option value="">"—"</option>
                        {move || ctx.view.with(|v| chain_heads(v).into_iter().map(|h| {
                            let n = super::chain_of(v, h).len();
                            view! { <option value=xyz_value(h)>{format!("{} ({n})", label(v, h))}</option> }
                        }).collect_view())}
                    </select>
                </label>
                <select data-testid="opinion-kind" aria-label=move || tr!("referee.opinion") prop:value=opinion
                    on:change=move |e| opinion.set(event_target_value(&e))>
                    <option value="alive">{move || tr!("verdict.alive")}</option>
                    <option value="dead">{move || tr!("verdict.dead")}</option>
                    <option value="seki">{move || tr!("verdict.seki")}</option>
                </select>
                <Reasons value=reasons/>
                <button type="submit" data-testid="state-opinion">{move || tr!("referee.state_opinion")}</button>
            </form>
        </Show>
    }
}

/// During play: call the administrator (003 §1.4).
#[component]
fn PlayControls() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let in_play = move || ctx.view.with(|v| matches!(v.phase, RoomPhase::Playing | RoomPhase::WaitingReady));
    let reason = RwSignal::new(String::new());
    view! {
        <Show when=in_play>
            // Folded: rarely needed, and on a phone its reasons box took a screen's third.
            <details class="call-fold">
                <summary>{move || tr!("referee.call_admin")}</summary>
                <form class="call" data-testid="call-admin-form" on:submit=move |e| {
                    e.prevent_default();
                    send_reasoned(ctx, reason, |reason| Some(Command::CallAdministrator { reason }));
                }>
                    <Reasons value=reason/>
                    <button type="submit" data-testid="call-admin">{move || tr!("referee.call_admin")}</button>
                </form>
            </details>
        </Show>
    }
}

/// After the end: object to a loss on time (003 §5.7), refer an error (003 §4.7).
#[component]
fn EndControls() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let time_loss = move || {
        ctx.view.with(|v| {
            v.phase == RoomPhase::Finished
                && v.referee.time_loss.is_none()
                && v.result.as_ref().is_some_and(|r| matches!(r.result, engine::GameResult::Time { .. }))
        })
    };
    let can_refer =
        move || ctx.view.with(|v| v.phase == RoomPhase::Finished && v.referee.correction.is_none() && !v.under_review);
    let loss = RwSignal::new(String::new());
    let error = RwSignal::new(String::new());
    view! {
        <Show when=time_loss>
            <form class="object" data-testid="object-time-loss-form" on:submit=move |e| {
                e.prevent_default();
                send_reasoned(ctx, loss, |reasons| Some(Command::ObjectToTimeLoss { reasons }));
            }>
                <Reasons value=loss/>
                <button type="submit" data-testid="object-time-loss">{move || tr!("referee.object_time_loss")}</button>
            </form>
        </Show>
        <Show when=can_refer>
            <form class="object" data-testid="request-correction-form" on:submit=move |e| {
                e.prevent_default();
                send_reasoned(ctx, error, |reasons| Some(Command::RequestCorrection { reasons }));
            }>
                <Reasons value=error/>
                <button type="submit" data-testid="request-correction">{move || tr!("referee.request_correction")}</button>
            </form>
        </Show>
    }
}
