//! The administrator's side of conduct (003 §5.6, §6.4–6.7): report cases on the
//! dashboard (each reporter's line, closed without action or answered by a sanction at
//! the room's desk), and on the desk the sanction form and the appeals.

use crate::sync_hydrate::IntoAnySync;
use leptos::{prelude::*, task::spawn_local};
use strum::IntoEnumIterator;

use crate::pages::room::reasons::{send_reasoned, Reasons, REASONS_MAX};
use crate::{
    api::conduct::{admin_dismiss_report, admin_report_cases, admin_sanction},
    pages::{
        header::fmt_time,
        room::{Notice, RoomCtx},
        words::{colour_text, tr_dyn},
    },
    tr,
};
use wire::{
    commands::Command,
    conduct::{AppealRefusal, Category, Penalty, ReportCase, SanctionStatus, Target},
    events::Colour,
};

/// The report cases: open ones first (oldest first), then the latest decided.
#[component]
pub fn ReportCases() -> impl IntoView {
    let cases = RwSignal::new(None::<Result<Vec<ReportCase>, String>>);
    let lang = crate::i18n::use_lang();
    let load = move || {
        spawn_local(async move {
            let r = admin_report_cases().await.map_err(|e| crate::text::app_error(lang.get_untracked(), &e));
            cases.try_set(Some(r));
        });
    };
    Effect::new(move |_| load());
    view! {
        <section class="cases" data-testid="report-cases" aria-label=move || tr!("cases.title")>
            <h2>{move || tr!("cases.title")}</h2>
            {move || match cases.get() {
                None => view! { <p>"…"</p> }.into_any_sync(),
                Some(Err(e)) => view! { <p class="error" role="alert">{e}</p> }.into_any_sync(),
                Some(Ok(list)) => view! {
                    // Decided cases stay listed below; "none" speaks of the open ones.
                    {list.iter().all(|c| c.outcome.is_some()).then(|| view! {
                        <p class="hint" data-testid="cases-none">{tr!("cases.none")}</p>
                    })}
                    <ol class="case-list">
                        {list.into_iter().map(|c| view! { <Case case=c reload=Callback::new(move |()| load())/> }).collect_view()}
                    </ol>
                }.into_any_sync(),
            }}
        </section>
    }
}

#[component]
fn Case(case: ReportCase, reload: Callback<()>) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let reasons = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let id = case.id;
    let head = match (&case.subject, case.subject_colour) {
        (None, _) => tr!("cases.about_match", room = case.room_name.clone()),
        (Some(n), Some(c)) => {
            tr!("cases.about", room = case.room_name.clone(), name = format!("{n} ({})", colour_text(c)))
        }
        (Some(n), None) => tr!("cases.about", room = case.room_name.clone(), name = n.clone()),
    };
    let desk = format!("/admin/rooms/{}?case={id}", case.room_id);
    let dismiss = move || {
        let text = reasons.get_untracked();
        spawn_local(async move {
            match admin_dismiss_report(id, text).await {
                Ok(()) => reload.run(()),
                Err(e) => error.set(Some(crate::text::app_error(lang.get_untracked(), &e))),
            }
        });
    };
    let open = case.outcome.is_none();
    view! {
        <li data-testid="report-case" data-case=id.to_string() class:decided=!open>
            <p><strong>{head}</strong>" · "{fmt_time(case.opened_ms)}" · #"{id}</p>
            <ul>
                {case.reports.iter().map(|r| {
                    let category = tr_dyn(&format!("category.{}", r.category.as_str()));
                    view! { <li data-testid="report-line">{tr!("cases.line", reporter = r.reporter.clone(), category = category,
                        seq = r.seq, at = fmt_time(r.at_ms), text = r.description.clone())}</li> }
                }).collect_view()}
            </ul>
            {case.outcome.map(|o| {
                let outcome: &'static str = o.into();
                view! { <p data-testid="case-decided">{tr!("cases.decided", at = fmt_time(case.decided_ms.unwrap_or_default()),
                    outcome = tr_dyn(&format!("case.outcome.{outcome}")), text = case.reasons.clone().unwrap_or_default())}</p> }
            })}
            {open.then(|| view! {
                <p><a href=desk.clone() data-testid="case-desk">{move || tr!("cases.open_room")}</a></p>
                <form class="inline" on:submit=move |e| { e.prevent_default(); dismiss(); }>
                    <label class="reasons">{move || tr!("desk.reasons")}
                        <textarea data-testid="case-reasons" required maxlength=REASONS_MAX.to_string() rows="2"
                            prop:value=reasons on:input=move |e| reasons.set(event_target_value(&e))></textarea>
                    </label>
                    <button type="submit" data-testid="case-dismiss">{move || tr!("cases.dismiss")}</button>
                </form>
                {move || error.get().map(|t| view! { <p class="notice error" role="alert">{t}</p> })}
            })}
        </li>
    }
}

/// The desk's conduct part: impose a sanction (prefilled from `?case=` when the dashboard
/// sent the administrator here), and answer appeals.
#[component]
pub fn DeskConduct() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let case = RwSignal::new(case_in_address());
    let target = RwSignal::new("white".to_string());
    let spectator = RwSignal::new(String::new());
    let penalty = RwSignal::new(Penalty::Warning.as_str().to_string());
    let category = RwSignal::new(Category::OutsideAssistance.as_str().to_string());
    let reasons = RwSignal::new(String::new());
    let findings = RwSignal::new(String::new());
    let lang = crate::i18n::use_lang();
    let impose = move || {
        let text = reasons.get_untracked();
        if text.trim().is_empty() {
            ctx.notice.set(Some(Notice::Error(tr!("desk.reasons_needed", max = REASONS_MAX))));
            return;
        }
        let target = match target.get_untracked().as_str() {
            "black" => Target::Player { colour: Colour::Black },
            "white" => Target::Player { colour: Colour::White },
            _ => Target::Spectator { username: spectator.get_untracked().trim().to_string() },
        };
        let (Ok(penalty), Ok(category)) = (penalty.get_untracked().parse(), category.get_untracked().parse()) else {
            return;
        };
        let findings = Some(findings.get_untracked()).filter(|f| !f.trim().is_empty());
        let case_id = case.get_untracked().trim().parse::<i64>().ok();
        let room = ctx.id;
        spawn_local(async move {
            match admin_sanction(room, target, penalty, category, text, findings, case_id).await {
                Ok(_) => {
                    reasons.set(String::new());
                    case.set(String::new());
                    ctx.notice.set(None);
                    ctx.refresh();
                }
                Err(e) => ctx.notice.set(Some(Notice::Error(crate::text::app_error(lang.get_untracked(), &e)))),
            }
        });
    };
    view! {
        <section class="desk-conduct" data-testid="desk-conduct">
            <h3>{move || tr!("desk.sanction.title")}</h3>
            <form class="sanction-form" data-testid="sanction-form" on:submit=move |e| { e.prevent_default(); impose(); }>
                <label>{move || tr!("desk.sanction.target")}
                    <select data-testid="sanction-target" prop:value=target on:change=move |e| {
                        let t = event_target_value(&e);
                        // A spectator's measure is the viewing restriction; a player's a warning first.
                        penalty.set(if t == "spectator" { Penalty::ViewingRestricted } else { Penalty::Warning }.as_str().to_string());
                        target.set(t);
                    }>
                        <option value="black">{move || colour_text(Colour::Black)}</option>
                        <option value="white">{move || colour_text(Colour::White)}</option>
                        <option value="spectator">{move || tr!("report.about.spectator")}</option>
                    </select>
                </label>
                <Show when=move || target.get() == "spectator">
                    <label>{move || tr!("report.spectator_name")}
                        <input data-testid="sanction-spectator" maxlength="40" prop:value=spectator
                            on:input=move |e| spectator.set(event_target_value(&e))/>
                    </label>
                </Show>
                <label>{move || tr!("desk.sanction.penalty")}
                    <select data-testid="sanction-penalty" prop:value=penalty on:change=move |e| penalty.set(event_target_value(&e))>
                        {Penalty::iter().map(|p| {
                            let key = format!("penalty.{}", p.as_str());
                            view! { <option value=p.as_str()>{move || tr_dyn(&key)}</option> }
                        }).collect_view()}
                    </select>
                </label>
                <crate::pages::room::conduct::CategorySelect value=category testid="sanction-category"/>
                <Reasons value=reasons/>
                <label>{move || tr!("field.findings")}
                    <textarea data-testid="sanction-findings" maxlength=REASONS_MAX.to_string() rows="2"
                        prop:value=findings on:input=move |e| findings.set(event_target_value(&e))></textarea>
                </label>
                <label>{move || tr!("desk.sanction.case")}
                    <input data-testid="sanction-case" inputmode="numeric" prop:value=case on:input=move |e| case.set(event_target_value(&e))/>
                </label>
                <button type="submit" data-testid="sanction-send">{move || tr!("desk.sanction.send")}</button>
            </form>
            <Appeals/>
        </section>
    }
}

/// The `?case=` the dashboard's link carries (read in the browser: the desk renders
/// without a router in the page tests).
fn case_in_address() -> String {
    #[cfg(feature = "hydrate")]
    {
        let search = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
        search
            .trim_start_matches('?')
            .split('&')
            .find_map(|kv| kv.strip_prefix("case="))
            .filter(|v| v.chars().all(|c| c.is_ascii_digit()))
            .unwrap_or_default()
            .to_string()
    }
    #[cfg(not(feature = "hydrate"))]
    String::new()
}

/// Appeals under review (decide: uphold or lift) and refused ones (open an exception).
#[component]
fn Appeals() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let any = move || ctx.view.with(|v| !v.referee.sanctions.is_empty());
    view! {
        <Show when=any>
            <h3>{move || tr!("desk.appeal.title")}</h3>
            <ul class="desk-appeals">
                {move || ctx.view.with(|v| v.referee.sanctions.iter().rev().map(|s| {
                    let number = s.number;
                    let server_now = (ctx.now.get_untracked() - ctx.offset.get_untracked()) as i64;
                    let under_review = s.status == SanctionStatus::UnderReview;
                    let exception_possible = matches!(
                        s.appeal_refusal(server_now),
                        Some(AppealRefusal::AlreadyAppealed | AppealRefusal::TooLate { .. })
                    );
                    let needs_result = s.penalty.sets_result() && s.result_before.is_none();
                    view! {
                        <li data-testid="desk-sanction" data-number=number.to_string()>
                            <crate::pages::room::conduct::SanctionItem s=s.clone()/>
                            {under_review.then(|| view! { <DecideAppeal number=number needs_result=needs_result/> })}
                            {exception_possible.then(|| view! { <OpenException number=number/> })}
                        </li>
                    }
                }).collect_view())}
            </ul>
        </Show>
    }
}

#[component]
fn DecideAppeal(number: u32, needs_result: bool) -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let reasons = RwSignal::new(String::new());
    // Lifting a loss or void that ended play: the result that applies instead.
    let lifted = RwSignal::new("none".to_string());
    let decide = move |uphold: bool| {
        let result = match lifted.get_untracked().as_str() {
            "black" => Some(engine::GameResult::Decision { winner: Some(Colour::Black) }),
            "white" => Some(engine::GameResult::Decision { winner: Some(Colour::White) }),
            _ => Some(engine::GameResult::Decision { winner: None }),
        }
        .filter(|_| needs_result && !uphold);
        send_reasoned(ctx, reasons, |reasons| {
            Some(Command::AdminDecideAppeal { sanction: number, uphold, reasons, result })
        });
    };
    view! {
        <form class="appeal-decision" data-testid="appeal-decide-form" on:submit=move |e| e.prevent_default()>
            <Reasons value=reasons/>
            {needs_result.then(|| view! {
                <label>{move || tr!("desk.appeal.lift_result")}
                    <select data-testid="appeal-lift-result" prop:value=lifted on:change=move |e| lifted.set(event_target_value(&e))>
                        <option value="none">{move || tr!("desk.no_winner")}</option>
                        <option value="black">{move || format!("{} — {}", tr!("desk.winner"), colour_text(Colour::Black))}</option>
                        <option value="white">{move || format!("{} — {}", tr!("desk.winner"), colour_text(Colour::White))}</option>
                    </select>
                </label>
            })}
            <button type="button" data-testid="appeal-uphold" on:click=move |_| decide(true)>{move || tr!("desk.appeal.uphold")}</button>
            <button type="button" data-testid="appeal-lift" on:click=move |_| decide(false)>{move || tr!("desk.appeal.lift")}</button>
        </form>
    }
}

#[component]
fn OpenException(number: u32) -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let reasons = RwSignal::new(String::new());
    view! {
        <form class="appeal-exception" data-testid="appeal-exception-form" on:submit=move |e| {
            e.prevent_default();
            send_reasoned(ctx, reasons, |reasons| Some(Command::AdminOpenAppeal { sanction: number, reasons }));
        }>
            <Reasons value=reasons/>
            <button type="submit" data-testid="appeal-open-exception">{move || tr!("desk.appeal.open_exception")}</button>
        </form>
    }
}
