//! Conduct in the room (003 §6.4–6.7): every sanction with its reasons, findings, appeals
//! and decisions, shown to everyone who watches; the sanctioned person's appeal; the
//! report form for players and signed-in spectators.

use crate::sync_hydrate::IntoAnySync;
use leptos::{prelude::*, task::spawn_local};
use strum::IntoEnumIterator;

use super::{colour_text, tr_dyn, tr_dyn_with, Notice, RoomCtx};
use crate::{
    api::conduct::file_report,
    pages::{header::fmt_time, room::reasons::REASONS_MAX},
    tr,
};
use wire::{
    commands::{Command, RoomPhase},
    conduct::{AppealRefusal, Category, NewReport, ReportAbout, SanctionRecord, Subject},
    events::Colour,
};

/// One sanction's lines: who, what, why, and each appeal with its decision.
#[component]
pub fn SanctionItem(s: SanctionRecord) -> impl IntoView {
    let penalty = tr_dyn(&format!("penalty.{}", s.penalty.as_str()));
    let category = tr_dyn(&format!("category.{}", s.category.as_str()));
    let status: &'static str = s.status.into();
    let who = match &s.subject {
        Subject::Player { colour } => format!("{} ({})", s.name, colour_text(*colour)),
        Subject::Spectator { .. } => s.name.clone(),
    };
    let head = tr_dyn_with(
        "conduct.line",
        &[
            ("n", &s.number.to_string()),
            ("name", &who),
            ("penalty", &penalty),
            ("category", &category),
            ("at", &fmt_time(s.at_ms)),
        ],
    );
    view! {
        <p><strong>{head}</strong>" · "<span class="sanction-status" data-testid="sanction-status" data-status=status>
            {tr_dyn(&format!("sanction.status.{status}"))}</span></p>
        <p class="reasons">{tr!("conduct.reasons", text = s.reasons.clone())}</p>
        {s.findings.clone().map(|f| view! { <p class="reasons">{tr!("conduct.findings", text = f)}</p> })}
        <ul class="appeals">
            {s.exceptions.iter().map(|x| view! {
                <li>{tr!("conduct.exception_line", at = fmt_time(x.at_ms), text = x.reasons.clone())}</li>
            }).collect_view()}
            {s.appeals.iter().map(|a| view! {
                <li data-testid="appeal">{tr!("conduct.appeal_line", at = fmt_time(a.at_ms), text = a.evidence.clone())}
                    {a.reasons.clone().zip(a.decided_ms).map(|(r, t)| view! {
                        <br/><span data-testid="appeal-decision">{tr!("conduct.appeal_decision", at = fmt_time(t), text = r)}</span>
                    })}
                </li>
            }).collect_view()}
        </ul>
    }
}

/// The room's sanctions (003 §6.5: with reasons both players see), and the appeal form for
/// the one they concern while it may be appealed.
#[component]
pub fn Sanctions() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let any = move || ctx.view.with(|v| !v.referee.sanctions.is_empty());
    view! {
        <Show when=any>
            <section class="sanctions" data-testid="sanctions" aria-label=move || tr!("conduct.title")>
                <h2>{move || tr!("conduct.title")}</h2>
                {move || ctx.view.with(|v| v.under_review && v.referee.appeal_on_result()).then(|| view! {
                    <p class="review" data-testid="result-under-review">{tr!("conduct.result_under_review")}</p>
                })}
                <ol>
                    {move || ctx.view.with(|v| v.referee.sanctions.iter().rev().map(|s| {
                        let me = ctx.me.with(|m| m.as_ref().map(|m| m.username.clone()));
                        let mine = match &s.subject {
                            Subject::Player { colour } => v.your_colour == Some(*colour),
                            Subject::Spectator { username, .. } => me.as_deref() == Some(username.as_str()),
                        };
                        // Untracked: the form is not rebuilt (losing what is typed) every second.
                        let server_now = (ctx.now.get_untracked() - ctx.offset.get_untracked()) as i64;
                        let open = mine && s.appeal_refusal(server_now).is_none();
                        let number = s.number;
                        view! {
                            <li data-testid="sanction" data-number=number.to_string()>
                                <SanctionItem s=s.clone()/>
                                {open.then(|| view! { <AppealForm number=number until=s.appeal_until_ms() exception=!s.exceptions.is_empty()/> })}
                            </li>
                        }
                    }).collect_view())}
                </ol>
            </section>
        </Show>
    }
}

#[component]
fn AppealForm(number: u32, until: i64, exception: bool) -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let evidence = RwSignal::new(String::new());
    view! {
        <form class="appeal-form" data-testid="appeal-form" on:submit=move |e| {
            e.prevent_default();
            let text = evidence.get_untracked();
            if text.trim().is_empty() {
                ctx.notice.set(Some(Notice::Error(tr!("desk.reasons_needed", max = REASONS_MAX))));
                return;
            }
            ctx.send_and(Command::Appeal { sanction: number, evidence: text }, move |ok| if ok { evidence.set(String::new()) });
        }>
            {(!exception).then(|| view! { <p class="hint">{tr!("conduct.appeal_until", until = fmt_time(until))}</p> })}
            <label>{move || tr!("conduct.evidence")}
                <textarea data-testid="appeal-evidence" required maxlength=REASONS_MAX.to_string() rows="3"
                    prop:value=evidence on:input=move |e| evidence.set(event_target_value(&e))></textarea>
            </label>
            <button type="submit" data-testid="appeal-send" disabled=move || ctx.busy.get()>{move || tr!("conduct.appeal")}</button>
        </form>
    }
}

/// Why an appeal is not open now, for the account page.
pub fn refusal_text(r: &AppealRefusal) -> String {
    let key: &'static str = r.into();
    match r {
        AppealRefusal::TooLate { limit_days, .. } => tr!("error.appeal.too_late", days = *limit_days),
        _ => tr_dyn(&format!("error.appeal.{key}")),
    }
}

/// The category of a report or sanction (003 §6.4), as its code in `value`.
#[component]
pub fn CategorySelect(value: RwSignal<String>, testid: &'static str) -> impl IntoView {
    view! {
        <label>{move || tr!("report.category")}
            <select data-testid=testid prop:value=value on:change=move |e| value.set(event_target_value(&e))>
                {Category::iter().map(|c| {
                    let key = format!("category.{}", c.as_str());
                    view! { <option value=c.as_str()>{move || tr_dyn(&key)}</option> }
                }).collect_view()}
            </select>
        </label>
    }
}

/// Reporting a player, a spectator or the match (003 §6.4): for signed-in players and
/// spectators; the event number the reporter is looking at is attached.
#[component]
pub fn ReportForm() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let signed_in = move || ctx.me.with(Option::is_some) && ctx.view.with(|v| v.phase != RoomPhase::Open);
    let about = RwSignal::new("match".to_string());
    let spectator = RwSignal::new(String::new());
    let category = RwSignal::new(Category::OutsideAssistance.as_str().to_string());
    let description = RwSignal::new(String::new());
    let sent = RwSignal::new(None::<Result<i64, String>>);
    let lang = crate::i18n::use_lang();
    let send = move || {
        let seq = ctx.view.with_untracked(|v| v.version);
        let about = match about.get_untracked().as_str() {
            "black" => ReportAbout::Player { colour: Colour::Black },
            "white" => ReportAbout::Player { colour: Colour::White },
            "spectator" => ReportAbout::Spectator { username: spectator.get_untracked().trim().to_string() },
            _ => ReportAbout::Match,
        };
        let Ok(category) = category.get_untracked().parse::<Category>() else { return };
        let report = NewReport { room_id: ctx.id, about, category, description: description.get_untracked(), seq };
        spawn_local(async move {
            let r = file_report(report).await;
            sent.set(Some(match r {
                Ok(_) => {
                    description.set(String::new());
                    Ok(seq)
                }
                Err(e) => Err(crate::text::app_error(lang.get_untracked(), &e)),
            }));
        });
    };
    view! {
        <Show when=signed_in>
            <details class="report" data-testid="report">
                <summary data-testid="report-open">{move || tr!("report.open")}</summary>
                <form data-testid="report-form" on:submit=move |e| { e.prevent_default(); send(); }>
                    <p class="hint">{move || tr!("report.hint")}</p>
                    <label>{move || tr!("report.about")}
                        <select data-testid="report-about" prop:value=about on:change=move |e| about.set(event_target_value(&e))>
                            <option value="match">{move || tr!("report.about.match")}</option>
                            {move || ctx.view.with(|v| [(Colour::Black, "black", &v.black), (Colour::White, "white", &v.white)]
                                .into_iter()
                                .filter_map(|(c, value, name)| name.clone().map(|n| (c, value, n)))
                                .map(|(c, value, name)| {
                                    let text = if c == Colour::Black { tr!("report.about.black", name = name) } else { tr!("report.about.white", name = name) };
                                    view! { <option value=value>{text}</option> }
                                })
                                .collect_view())}
                            <option value="spectator">{move || tr!("report.about.spectator")}</option>
                        </select>
                    </label>
                    <Show when=move || about.get() == "spectator">
                        <label>{move || tr!("report.spectator_name")}
                            <input data-testid="report-spectator" maxlength="40" prop:value=spectator
                                on:input=move |e| spectator.set(event_target_value(&e))/>
                        </label>
                    </Show>
                    <CategorySelect value=category testid="report-category"/>
                    <label>{move || tr!("report.description")}
                        <textarea data-testid="report-description" required maxlength=REASONS_MAX.to_string() rows="3"
                            prop:value=description on:input=move |e| description.set(event_target_value(&e))></textarea>
                    </label>
                    <button type="submit" data-testid="report-send">{move || tr!("report.send")}</button>
                    {move || sent.get().map(|r| match r {
                        Ok(seq) => view! { <p class="notice" role="status" data-testid="report-sent">{tr!("report.sent", n = seq)}</p> }.into_any_sync(),
                        Err(e) => view! { <p class="notice error" role="alert" data-testid="report-error">{e}</p> }.into_any_sync(),
                    })}
                </form>
            </details>
        </Show>
    }
}
