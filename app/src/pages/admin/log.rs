//! `/admin/log`: the administrators' log — every action on accounts and in rooms with
//! actor, time, target, reasons and what changed — filtered by administrator, room, kind
//! and dates (the filter is the page's query, so a filtered view is a link), and exported
//! as JSON or CSV with the same filter. Administrators only.

use crate::sync_hydrate::IntoAnySync;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use strum::IntoEnumIterator;

use super::super::header::fmt_time;
use crate::text::calendar::day_start_ms;
use crate::{
    api::account::admin_log,
    audit::{AuditAction, AuditEntry, AuditFilter},
    tr, Role,
};

const DAY_MS: i64 = 86_400_000;

/// The filter the page's query holds: `actor`, `room`, `action`, `from` and `to` (dates,
/// UTC; `to` includes its day). Unreadable values are left out, as the form cannot make them.
#[derive(Debug, Clone, Default, PartialEq)]
struct Query {
    actor: String,
    room: String,
    action: String,
    from: String,
    to: String,
}

impl Query {
    fn filter(&self) -> AuditFilter {
        let text = |s: &str| Some(s.trim().to_string()).filter(|s| !s.is_empty());
        AuditFilter {
            actor: text(&self.actor),
            room: self.room.trim().parse().ok(),
            action: AuditAction::iter().find(|a| <&str>::from(*a) == self.action),
            from_ms: day_start_ms(&self.from),
            to_ms: day_start_ms(&self.to).map(|d| d + DAY_MS),
        }
    }

    /// The same filter as the export's query string (absent fields left out).
    fn export_query(&self) -> String {
        match serde_urlencoded::to_string(self.filter()) {
            Ok(q) if !q.is_empty() => format!("?{q}"),
            _ => String::new(),
        }
    }
}

pub fn action_text(a: AuditAction) -> String {
    crate::i18n::text(crate::i18n::use_lang().get(), &format!("log.action.{}", <&str>::from(a)))
}

#[component]
pub fn AuditLogPage() -> impl IntoView {
    let query = move || {
        let q = use_query_map().read();
        let get = |k: &str| q.get(k).unwrap_or_default();
        Query { actor: get("actor"), room: get("room"), action: get("action"), from: get("from"), to: get("to") }
    };
    let data = crate::pages::resource(query, |q| super::for_admin(move || admin_log(q.filter())));
    view! {
        <super::AdminFrame testid="audit-log" title="log.title">
            <Filters q=query()/>
            <p class="exports">
                <a data-testid="export-json" href=move || format!("/api/v1/admin/audit{}", query().export_query())>{move || tr!("log.export_json")}</a>" · "
                <a data-testid="export-csv" href=move || format!("/api/v1/admin/audit.csv{}", query().export_query())>{move || tr!("log.export_csv")}</a>
            </p>
            <super::Loaded data body=entries/>
            <p><a href="/admin/accounts">{move || tr!("accounts.title")}</a>" · "<a href="/admin">{move || tr!("admin.title")}</a></p>
        </super::AdminFrame>
    }
}

/// The log's entries as a table, or the note that there are none.
fn entries(log: Vec<AuditEntry>) -> impl IntoView {
    if log.is_empty() {
        return view! { <p class="empty" data-testid="audit-empty">{move || tr!("log.empty")}</p> }.into_any_sync();
    }
    view! {
        <div class="table-wrap">
            <table class="audit" data-testid="audit">
                <thead><tr>
                    <th>{move || tr!("log.when")}</th>
                    <th>{move || tr!("log.actor")}</th>
                    <th>{move || tr!("log.action")}</th>
                    <th>{move || tr!("log.target")}</th>
                    <th>{move || tr!("log.reasons")}</th>
                </tr></thead>
                <tbody>{log.into_iter().map(row).collect_view()}</tbody>
            </table>
        </div>
    }
    .into_any_sync()
}

/// A plain GET form: the filter lands in the page's query, so it works before hydration
/// and a filtered log can be bookmarked.
#[component]
fn Filters(q: Query) -> impl IntoView {
    let chosen = q.action.clone();
    view! {
        <form class="filters" method="get" action="/admin/log" data-testid="log-filters">
            <label>{move || tr!("log.actor")}<input name="actor" value=q.actor.clone() data-testid="filter-actor"/></label>
            <label>{move || tr!("log.room")}<input name="room" inputmode="numeric" value=q.room.clone() data-testid="filter-room"/></label>
            <label>{move || tr!("log.action")}
                <select name="action" data-testid="filter-action">
                    <option value="">{move || tr!("log.any_action")}</option>
                    {AuditAction::iter().map(|a| {
                        let code: &'static str = a.into();
                        view! { <option value=code selected=chosen == code>{move || action_text(a)}</option> }
                    }).collect_view()}
                </select>
            </label>
            <label>{move || tr!("log.from")}<input type="date" name="from" value=q.from.clone() data-testid="filter-from"/></label>
            <label>{move || tr!("log.to")}<input type="date" name="to" value=q.to.clone() data-testid="filter-to"/></label>
            <button type="submit" data-testid="filter-apply">{move || tr!("log.apply")}</button>
        </form>
    }
}

/// A role change as `before → after` in words, a room action with the result it found;
/// the other actions say it by their name (the exports hold every before and after).
fn change_text(e: &AuditEntry) -> String {
    let role = |v: &Option<serde_json::Value>| {
        v.as_ref().and_then(|v| v.get("role")).and_then(|r| serde_json::from_value::<Role>(r.clone()).ok())
    };
    let result_before = e
        .before
        .as_ref()
        .and_then(|v| v.get("result"))
        .and_then(|r| serde_json::from_value::<engine::GameResult>(r.clone()).ok());
    let lang = crate::i18n::use_lang().get();
    match (role(&e.before), role(&e.after), result_before) {
        (Some(b), Some(a), _) => format!("{} → {}", super::accounts::role_text(b), super::accounts::role_text(a)),
        (_, _, Some(r)) => {
            crate::text::t_with(lang, "log.result_before", &[("result", &crate::text::result(lang, &r))])
        }
        _ => String::new(),
    }
}

fn row(e: AuditEntry) -> impl IntoView {
    let change = e.clone();
    let code: &'static str = e.action.into();
    let target = match (e.target_user.clone(), e.room_id) {
        (Some(name), _) => view! { <span>{name}</span> }.into_any_sync(),
        (None, Some(room)) => view! {
            <a href=format!("/admin/rooms/{room}")>{move || tr!("log.room_n", n = room)}</a>
        }
        .into_any_sync(),
        (None, None) => ().into_any_sync(),
    };
    view! {
        <tr data-testid="audit-row" data-action=code>
            <td class="when">{fmt_time(e.at_ms)}</td>
            <td>{e.actor.clone()}</td>
            <td>{move || action_text(e.action)}" "<span class="change">{move || change_text(&change)}</span></td>
            <td>{target}</td>
            <td class="why">{e.reasons.clone()}</td>
        </tr>
    }
}

#[cfg(test)]
mod tests {
    use super::AuditAction;

    #[test]
    fn every_action_has_one_name_and_words_in_every_language() {
        use strum::IntoEnumIterator;
        for a in AuditAction::iter() {
            let code: &'static str = a.into();
            assert_eq!(serde_json::to_value(a).unwrap(), code, "the stored, sent and linked names agree");
            for lang in crate::i18n::Lang::all() {
                let key = format!("log.action.{code}");
                let words = crate::i18n::text(lang, &key);
                assert!(!words.is_empty() && words != key, "{lang:?}: {key}");
            }
        }
    }
}
