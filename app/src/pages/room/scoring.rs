//! The scoring panel (003 §3.4–3.7, §4.3–4.6; 000 §5.5, §9): the mark tool, the numbered
//! statement with its breakdown, Agree / Withdraw bound to that number, the engine's
//! suggestions shown as proposals only, a chain's details, dispute (Space) or resume play
//! (Classic). After the end it shows the agreed statement.

use crate::sync_hydrate::IntoAnySync;
use leptos::prelude::*;
use wire::commands::RoomPhase;

use super::{chain_of, colour_text, label, RoomCtx};
use crate::tr;
use wire::{
    commands::Command,
    events::{Colour, MarkKind, ScoreSummary, Xyz},
    settings::Preset,
};

fn half(h: i64) -> String {
    if h % 2 == 0 {
        format!("{}", h / 2)
    } else {
        format!("{:.1}", h as f64 / 2.0)
    }
}

#[component]
pub fn ScoringPanel() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let scoring =
        move || ctx.view.with(|v| v.phase == RoomPhase::Scoring || (v.phase == RoomPhase::Held && v.scoring.is_some()));
    let final_score =
        move || ctx.view.with(|v| v.result.as_ref().and_then(|r| r.score.clone().map(|s| (r.statement, s))));
    view! {
        <Show when=scoring>
            <section class="scoring" data-testid="scoring" aria-label=move || tr!("scoring.title")>
                <h2>{move || tr!("scoring.title")}</h2>
                // Agree first: it is what the phase waits for (on a phone it was a screen down).
                <Consents/>
                <Statement/>
                <MarkTools/>
                <Suggestions/>
                <ChainDetails/>
            </section>
        </Show>
        {move || final_score().map(|(n, s)| view! {
            <section class="scoring final" data-testid="final-score">
                <h2>{tr!("scoring.final", n = n.unwrap_or_default())}</h2>
                <Breakdown score=s/>
            </section>
        })}
    }
}

#[component]
fn MarkTools() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let kind_button = move |k: MarkKind, key: &'static str, testid: &'static str| {
        view! {
            <button class:active=move || ctx.mark_kind.get() == k aria-pressed=move || (ctx.mark_kind.get() == k).to_string()
                data-testid=testid on:click=move |_| ctx.mark_kind.set(k)>{move || tr!(key)}</button>
        }
    };
    view! {
        // Marking only while scoring goes on (not while the room is held).
        <Show when=move || ctx.my_colour().is_some() && ctx.view.with(|v| v.phase == RoomPhase::Scoring)>
            <p class="hint">{move || tr!("scoring.how_to_mark")}</p>
            <div class="buttons" role="group">
                {kind_button(MarkKind::Dead, "scoring.dead", "mark-dead")}
                {kind_button(MarkKind::Unresolved, "scoring.unresolved", "mark-unresolved")}
                {kind_button(MarkKind::Seki, "scoring.seki", "mark-seki")}
            </div>
        </Show>
        <ul class="marks" data-testid="marks">
            {move || ctx.view.with(|v| v.scoring.as_ref().map(|s| s.marks.iter().map(|m| {
                let by = m.by.map(colour_text).unwrap_or_else(|| tr!("scoring.ruling"));
                let kind = tr!(match m.kind { MarkKind::Dead => "scoring.dead", MarkKind::Unresolved => "scoring.unresolved", MarkKind::Seki => "scoring.seki", MarkKind::Neutral => "verdict.neutral" });
                view! { <li>{format!("{} — {} ({})", label(v, m.at), kind, by)}</li> }
            }).collect_view()))}
        </ul>
    }
}

#[component]
fn Statement() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    view! {
        {move || ctx.view.with(|v| v.scoring.as_ref().map(|s| view! {
            <h3 data-testid="statement">{tr!("scoring.statement", n = s.statement)}</h3>
            <Breakdown score=s.score.clone()/>
        }))}
    }
}

/// Stones, territory, bonuses, komi and totals for each side, and the neutral classes in
/// 003 §9.5 order.
#[component]
fn Breakdown(score: ScoreSummary) -> impl IntoView {
    let rows = [
        ("scoring.stones", score.black.stones as i64 * 2, score.white.stones as i64 * 2),
        ("scoring.territory", score.black.territory as i64 * 2, score.white.territory as i64 * 2),
        ("scoring.captures", score.black.captures as i64 * 2, score.white.captures as i64 * 2),
        ("scoring.dead_captured", score.black.dead_captured as i64 * 2, score.white.dead_captured as i64 * 2),
        ("scoring.bonus", score.black.bonus as i64 * 2, score.white.bonus as i64 * 2),
        (
            "scoring.komi",
            score.black.komi_half + score.black.handicap_compensation_half,
            score.white.komi_half + score.white.handicap_compensation_half,
        ),
        ("scoring.total", score.black.total_half, score.white.total_half),
    ];
    let summary = score.clone();
    view! {
        <table class="breakdown" data-testid="breakdown">
            <thead><tr><th></th><th>{move || colour_text(Colour::Black)}</th><th>{move || colour_text(Colour::White)}</th></tr></thead>
            <tbody>
                {rows.into_iter().map(|(k, b, w)| view! {
                    <tr class:total=k == "scoring.total"><th scope="row">{move || tr!(k)}</th><td>{half(b)}</td><td>{half(w)}</td></tr>
                }).collect_view()}
            </tbody>
        </table>
        <p class="neutral">{move || tr!("scoring.neutral", unresolved = summary.neutral[0], seki = summary.neutral[1], general = summary.neutral[2])}</p>
        <p class="result-line" data-testid="score-result">{move || crate::text::result(crate::i18n::use_lang().get(), &score.result)}</p>
    }
}

#[component]
fn Consents() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let dispute = RwSignal::new(String::new());
    let state = move || {
        ctx.view.with(|v| {
            let s = v.scoring.as_ref()?;
            let mine =
                v.your_colour.filter(|_| v.phase == RoomPhase::Scoring).map(|c| s.consents[c] == Some(s.statement));
            Some((s.statement, s.consents, mine))
        })
    };
    view! {
        {move || state().map(|(n, consents, mine)| view! {
            {mine.map(|agreed| view! {
                <div class="buttons">
                    {if agreed {
                        view! { <button data-testid="withdraw" on:click=move |_| ctx.send(Command::WithdrawConsent)>{tr!("scoring.withdraw")}</button> }.into_any_sync()
                    } else {
                        view! { <button class="primary" data-testid="agree" on:click=move |_| ctx.send(Command::Consent { statement: n })>{tr!("scoring.agree", n = n)}</button> }.into_any_sync()
                    }}
                    {(ctx.preset() == Preset::Classic).then(|| view! {
                        <button data-testid="resume-play" on:click=move |_| ctx.send(Command::ResumePlay)>{tr!("scoring.resume_play")}</button>
                    })}
                </div>
            })}
            <p data-testid="consents">
                {[Colour::Black, Colour::White].into_iter().map(|c| {
                    let agreed = consents[c] == Some(n);
                    format!("{}: {}", colour_text(c), if agreed { tr!("scoring.agreed") } else { tr!("scoring.not_yet") })
                }).collect::<Vec<_>>().join(" · ")}
            </p>
            {mine.map(|_| view! {
                <form class="dispute" on:submit=move |e| { e.prevent_default(); ctx.send(Command::Dispute { reason: dispute.get_untracked() }); }>
                    <label>{tr!("scoring.dispute_reason")}
                        <input data-testid="dispute-reason" prop:value=dispute on:input=move |e| dispute.set(event_target_value(&e))/></label>
                    <button type="submit" data-testid="dispute">{tr!("scoring.dispute")}</button>
                </form>
            })}
        })}
    }
}

/// The engine's proposals (003 §3.4, §3.12): never verdicts.
#[component]
fn Suggestions() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    view! {
        {move || ctx.view.with(|v| v.scoring.as_ref().map(|s| {
            let dead: Vec<String> = s.suggestions.dead.iter().filter_map(|c| c.first().map(|p| format!("{} ({})", label(v, *p), c.len()))).collect();
            let seki = s.suggestions.seki.len();
            view! {
                <p class="hint" data-testid="suggestions">
                    {tr!("scoring.suggested_dead", list = if dead.is_empty() { "—".to_string() } else { dead.join(", ") })}
                    " · "{tr!("scoring.suggested_seki", n = seki)}
                    " · "{tr!("scoring.life_spaces", n = s.suggestions.life_spaces.iter().map(|(_, sp)| sp.len()).sum::<usize>())}
                </p>
            }
        }))}
    }
}

/// 003 §3.4: a chain's coordinates, stone count and surface / interior connectivity.
#[component]
fn ChainDetails() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let inspect = RwSignal::new(None::<Xyz>);
    // The last mark (or the selection) is the chain inspected.
    Effect::new(move |_| {
        let last = ctx.view.with(|v| v.scoring.as_ref().and_then(|s| s.marks.last().map(|m| m.at)));
        if let Some(at) = last {
            inspect.set(Some(at));
        }
    });
    view! {
        {move || inspect.get().and_then(|at| ctx.view.with(|v| {
            let chain = chain_of(v, at);
            if chain.is_empty() { return None; }
            let b = v.settings.board;
            let on_surface = |p: &Xyz| p.x == b.x.start || p.x == b.x.end || p.y == b.y.start || p.y == b.y.end
                || (b.z.start != b.z.end && (p.z == b.z.start || p.z == b.z.end));
            let surface = chain.iter().filter(|p| on_surface(p)).count();
            let coords: Vec<String> = chain.iter().map(|p| label(v, *p)).collect();
            Some(view! {
                <div class="chain" data-testid="chain-details">
                    <p>{if chain.len() == 1 {
                        tr!("scoring.chain_one", surface = surface, interior = 1 - surface)
                    } else {
                        tr!("scoring.chain", n = chain.len(), surface = surface, interior = chain.len() - surface)
                    }}</p>
                    <p class="coords">{coords.join(" ")}</p>
                </div>
            })
        }))}
    }
}
