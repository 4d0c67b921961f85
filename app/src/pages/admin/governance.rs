//! `/admin/rules`: the site's announced defaults (record retention, scoring wait; 003 §9.7,
//! §10.1) with their notice date, record retention — a dry run of what a run would delete
//! now and what it keeps with why, the latest runs, a run on demand — and adding a
//! precedent to the common rules (003 §1.5). Every change with reasons, in the
//! administrators' log. Administrators only (the server refuses everyone else).

use leptos::{prelude::*, task::spawn_local};

use super::{super::header::fmt_time, error_text};
use crate::{
    api::governance::{admin_add_precedent, admin_retention, admin_run_retention, admin_set_site_defaults},
    governance::{NewPrecedent, RetentionHold, RetentionItem, RetentionReport, RetentionStatus, RulingRef, RunTrigger},
    tr, AppError,
};

#[component]
pub fn GovernancePage() -> impl IntoView {
    let data = crate::pages::resource(|| (), |_| super::for_admin(admin_retention));
    view! {
        <super::AdminFrame testid="governance" title="governance.title">
            <super::Loaded data body=|status| view! { <Governance initial=status/> }/>
            <p><a href="/rules/common">{move || tr!("rules.common.title")}</a>" · "
                <a href="/admin/log">{move || tr!("log.title")}</a>" · "
                <a href="/admin">{move || tr!("admin.title")}</a></p>
        </super::AdminFrame>
    }
}

fn hold_text(h: &RetentionHold) -> String {
    match h {
        RetentionHold::OpenItem { item } => {
            tr!(
                "governance.hold.open_item",
                item = crate::i18n::text(crate::i18n::use_lang().get(), &format!("queue.{}", <&str>::from(*item)))
            )
        }
        RetentionHold::UnderReview => tr!("governance.hold.under_review"),
        RetentionHold::OpenReport => tr!("governance.hold.open_report"),
        RetentionHold::AppealWindow { until_ms } => tr!("governance.hold.appeal_window", until = fmt_time(*until_ms)),
        RetentionHold::Damaged => tr!("governance.hold.damaged"),
    }
}

fn trigger_text(t: RunTrigger) -> String {
    crate::i18n::text(crate::i18n::use_lang().get(), &format!("governance.trigger.{}", <&str>::from(t)))
}

#[component]
fn Item(i: RetentionItem) -> impl IntoView {
    let holds = i.holds.iter().map(hold_text).collect::<Vec<_>>().join(" · ");
    view! {
        <li data-testid="retention-item" data-room=i.room_id.to_string()>
            <a href=format!("/admin/rooms/{}", i.room_id)>{format!("#{} {}", i.room_id, i.name)}</a>" · "
            {tr!("governance.ended", date = fmt_time(i.ended_ms), days = i.retention_days)}
            {i.archived.then(|| view! { " · "<span class="badge">{tr!("governance.archived")}</span> })}
            {(!holds.is_empty()).then(|| view! { <br/><span class="hint" data-testid="retention-holds">{holds}</span> })}
        </li>
    }
}

#[component]
fn Report(r: RetentionReport, testid: &'static str) -> impl IntoView {
    view! {
        <div data-testid=testid>
            <p>{tr!("governance.deleted", n = r.deleted.len())}</p>
            <ul class="retention">{r.deleted.into_iter().map(|i| view! { <Item i/> }).collect_view()}</ul>
            <p>{tr!("governance.kept", n = r.kept.len())}</p>
            <ul class="retention">{r.kept.into_iter().map(|i| view! { <Item i/> }).collect_view()}</ul>
        </div>
    }
}

/// Reasons for an administrator's change (1–2000 characters; the server checks).
#[component]
fn ReasonsInput(value: RwSignal<String>, testid: &'static str) -> impl IntoView {
    view! {
        <label>{move || tr!("accounts.reasons")}
            <textarea data-testid=testid rows="2" maxlength="2000" prop:value=value
                on:input=move |e| value.set(event_target_value(&e))></textarea>
        </label>
    }
}

#[component]
fn Governance(initial: RetentionStatus) -> impl IntoView {
    let status = RwSignal::new(initial);
    let error = RwSignal::new(None::<AppError>);
    let done = RwSignal::new(None::<String>);
    let reload = move || {
        spawn_local(async move {
            match admin_retention().await {
                Ok(s) => status.set(s),
                Err(e) => error.set(Some(e)),
            }
        })
    };
    let d = status.get_untracked().defaults;
    let days = RwSignal::new(d.retention_days.to_string());
    let wait = RwSignal::new(d.scoring_wait_min.to_string());
    let reasons = RwSignal::new(String::new());
    let number = |s: RwSignal<String>| s.get_untracked().trim().parse::<u32>().unwrap_or(u32::MAX);
    let save = move |_| {
        let (d, w, why) = (number(days), number(wait), reasons.get_untracked());
        // A message left by the previous action must not read as this one's result.
        done.set(None);
        spawn_local(async move {
            match admin_set_site_defaults(d, w, why).await {
                Ok(_) => {
                    error.set(None);
                    reasons.set(String::new());
                    done.set(Some(tr!("governance.defaults_saved")));
                    reload();
                }
                Err(e) => error.set(Some(e)),
            }
        })
    };
    let run_reasons = RwSignal::new(String::new());
    let run = move |_| {
        let why = run_reasons.get_untracked();
        done.set(None);
        spawn_local(async move {
            match admin_run_retention(why).await {
                Ok(r) => {
                    error.set(None);
                    run_reasons.set(String::new());
                    done.set(Some(tr!("governance.run_done", n = r.deleted.len())));
                    reload();
                }
                Err(e) => error.set(Some(e)),
            }
        })
    };
    // A precedent: clause, text, reasons, the ruling it came from (003 §1.5).
    let clause = RwSignal::new(String::new());
    let text = RwSignal::new(String::new());
    let p_reasons = RwSignal::new(String::new());
    let room = RwSignal::new(String::new());
    let seq = RwSignal::new(String::new());
    let add = move |_| {
        let ruling = match (room.get_untracked().trim().parse(), seq.get_untracked().trim().parse()) {
            (Ok(room_id), Ok(seq)) => Some(RulingRef { room_id, seq }),
            _ => None,
        };
        let p = NewPrecedent {
            clause: clause.get_untracked(),
            text: text.get_untracked(),
            reasons: p_reasons.get_untracked(),
            ruling,
        };
        done.set(None);
        spawn_local(async move {
            match admin_add_precedent(p).await {
                Ok(v) => {
                    error.set(None);
                    for s in [clause, text, p_reasons, room, seq] {
                        s.set(String::new());
                    }
                    done.set(Some(tr!("governance.precedent_added", version = v.version)));
                }
                Err(e) => error.set(Some(e)),
            }
        })
    };
    view! {
        {move || done.get().map(|t| view! { <p class="ok" role="status" data-testid="governance-done">{t}</p> })}
        {move || error.get().map(|e| view! { <p class="error" role="alert" data-testid="governance-error">{error_text(&e)}</p> })}
        <section class="card site-defaults" data-testid="site-defaults">
            <h2>{move || tr!("governance.defaults")}</h2>
            <p data-testid="defaults-now">{move || {
                let d = status.get().defaults;
                let when = match (d.set_ms, d.set_by) {
                    (Some(ms), Some(by)) => tr!("governance.defaults_set", date = fmt_time(ms), by = by),
                    _ => tr!("new.defaults_program"),
                };
                tr!("governance.defaults_now", days = d.retention_days, wait = d.scoring_wait_min, when = when)
            }}</p>
            <form on:submit=move |e| { e.prevent_default(); save(()); }>
                <label>{move || tr!("new.retention")}
                    <input type="number" data-testid="defaults-retention" min="0" max="36500" prop:value=days
                        on:input=move |e| days.set(event_target_value(&e))/>
                </label>
                <label>{move || tr!("new.scoring_wait")}
                    <input type="number" data-testid="defaults-wait" min="0" max="10080" prop:value=wait
                        on:input=move |e| wait.set(event_target_value(&e))/>
                </label>
                <ReasonsInput value=reasons testid="defaults-reasons"/>
                <button type="submit" data-testid="defaults-save">{move || tr!("governance.defaults_save")}</button>
            </form>
        </section>
        <section class="card" data-testid="retention">
            <h2>{move || tr!("governance.retention")}</h2>
            <p class="hint">{move || tr!("governance.retention_rule")}</p>
            <h3>{move || tr!("governance.dry_run", date = fmt_time(status.get().dry_run.at_ms))}</h3>
            {move || view! { <Report r=status.get().dry_run testid="dry-run"/> }}
            <form class="site-defaults" on:submit=move |e| { e.prevent_default(); run(()); }>
                <ReasonsInput value=run_reasons testid="run-reasons"/>
                <button type="submit" data-testid="run-retention">{move || tr!("governance.run_now")}</button>
            </form>
            <h3>{move || tr!("governance.runs")}</h3>
            <ol class="runs" data-testid="retention-runs">
                {move || status.get().runs.into_iter().map(|r| view! {
                    <li>{fmt_time(r.at_ms)}" · "{trigger_text(r.trigger)}" · "
                        {tr!("governance.run_summary", deleted = r.deleted.len(), kept = r.kept.len())}</li>
                }).collect_view()}
            </ol>
        </section>
        <section class="card site-defaults" data-testid="precedent">
            <h2>{move || tr!("governance.precedent")}</h2>
            <p class="hint">{move || tr!("governance.precedent_rule")}</p>
            <form on:submit=move |e| { e.prevent_default(); add(()); }>
                <label>{move || tr!("governance.clause")}
                    <input data-testid="precedent-clause" placeholder="003 §3.6" prop:value=clause
                        on:input=move |e| clause.set(event_target_value(&e))/>
                </label>
                <label>{move || tr!("governance.precedent_text")}
                    <textarea data-testid="precedent-text" rows="3" maxlength="2000" prop:value=text
                        on:input=move |e| text.set(event_target_value(&e))></textarea>
                </label>
                <ReasonsInput value=p_reasons testid="precedent-reasons"/>
                <label>{move || tr!("governance.ruling_room")}
                    <input type="number" data-testid="precedent-room" min="1" prop:value=room
                        on:input=move |e| room.set(event_target_value(&e))/>
                </label>
                <label>{move || tr!("governance.ruling_seq")}
                    <input type="number" data-testid="precedent-seq" min="1" prop:value=seq
                        on:input=move |e| seq.set(event_target_value(&e))/>
                </label>
                <button type="submit" data-testid="precedent-add">{move || tr!("governance.precedent_add")}</button>
            </form>
        </section>
    }
}
