//! `/admin/accounts`: every account with its role, state and open sign-ins; per account,
//! with reasons: make or unmake an administrator, disable or enable, issue a one-time
//! password-reset link (shown once). Each action is in the administrators' log
//! (`/admin/log`). Administrators only (the server refuses everyone else the data).

use leptos::{prelude::*, task::spawn_local};

use super::error_text;

use super::super::header::fmt_time;
use crate::{
    accounts::{AccountChange, AccountSummary, ResetLink},
    api::account::{admin_accounts, admin_change_account, admin_reset_link},
    tr, AppError, Role,
};

#[component]
pub fn AccountsAdminPage() -> impl IntoView {
    let data = crate::pages::resource(|| (), |_| super::for_admin(admin_accounts));
    view! {
        <super::AdminFrame testid="accounts-admin" title="accounts.title">
            <super::Loaded data body=|list| view! { <Accounts initial=list/> }/>
            <p><a href="/admin/log">{move || tr!("log.title")}</a>" · "<a href="/admin">{move || tr!("admin.title")}</a></p>
        </super::AdminFrame>
    }
}

#[component]
fn Accounts(initial: Vec<AccountSummary>) -> impl IntoView {
    let accounts = RwSignal::new(initial);
    let reload = move || {
        spawn_local(async move {
            if let Ok(list) = admin_accounts().await {
                accounts.set(list);
            }
        });
    };
    view! {
        <table class="accounts" data-testid="accounts">
            <thead><tr>
                <th>{move || tr!("accounts.name")}</th>
                <th>{move || tr!("accounts.role")}</th>
                <th>{move || tr!("accounts.state")}</th>
                <th>{move || tr!("accounts.logins")}</th>
                <th>{move || tr!("accounts.created")}</th>
                <th>{move || tr!("accounts.act")}</th>
            </tr></thead>
            <tbody>
                <For each=move || accounts.get() key=|a| (a.id, a.role, a.disabled_at_ms, a.logins) let:a>
                    <AccountRow a=a reload=reload/>
                </For>
            </tbody>
        </table>
    }
}

/// The link as the owner opens it: this site's address and the path (the server knows no
/// public address of its own for sure; the browser does).
fn absolute(path: &str) -> String {
    #[cfg(feature = "hydrate")]
    if let Some(origin) = web_sys::window().and_then(|w| w.location().origin().ok()) {
        return format!("{origin}{path}");
    }
    path.to_string()
}

pub(super) fn role_text(role: Role) -> String {
    match role {
        Role::Admin => tr!("home.role_admin"),
        Role::Player => tr!("home.role_player"),
    }
}

#[component]
fn AccountRow(a: AccountSummary, reload: impl Fn() + Copy + Send + Sync + 'static) -> impl IntoView {
    let reasons = RwSignal::new(String::new());
    let error = RwSignal::new(None::<AppError>);
    let link = RwSignal::new(None::<ResetLink>);
    let id = a.id;
    let disabled = a.disabled_at_ms.is_some();
    let change = move |c: AccountChange| {
        let why = reasons.get_untracked();
        spawn_local(async move {
            match admin_change_account(id, c, why).await {
                Ok(_) => reload(),
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let reset = move |_| {
        let why = reasons.get_untracked();
        spawn_local(async move {
            match admin_reset_link(id, why).await {
                Ok(l) => {
                    error.set(None);
                    link.set(Some(l));
                    reload();
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let (role_label, new_role) = match a.role {
        Role::Admin => ("accounts.make_player", Role::Player),
        Role::Player => ("accounts.make_admin", Role::Admin),
    };
    let state_label = if disabled { "accounts.enable" } else { "accounts.disable" };
    view! {
        <tr data-testid="account-row" data-name=a.username.clone() class:disabled=disabled>
            <td><strong>{a.username.clone()}</strong></td>
            <td data-testid="account-role">{move || role_text(a.role)}</td>
            <td data-testid="account-state">{move || if disabled {
                tr!("accounts.disabled_since", when = fmt_time(a.disabled_at_ms.unwrap_or_default()))
            } else {
                tr!("accounts.active")
            }}</td>
            // Labelled for the phone, where the table's header row is not shown.
            <td data-label=move || tr!("accounts.logins")>{a.logins}</td>
            <td class="when" data-label=move || tr!("accounts.created")>{fmt_time(a.created_at_ms)}</td>
            <td class="act">
                <details>
                    <summary data-testid="account-act">{move || tr!("accounts.act")}</summary>
                    <label>{move || tr!("accounts.reasons")}
                        <textarea data-testid="account-reasons" rows="2" maxlength="2000"
                            prop:value=move || reasons.get() on:input=move |ev| reasons.set(event_target_value(&ev))/>
                    </label>
                    <div class="buttons">
                        <button data-testid="account-role-change" on:click=move |_| change(AccountChange::Role { role: new_role })>
                            {move || crate::i18n::text(crate::i18n::use_lang().get(), role_label)}</button>
                        <button data-testid="account-state-change" on:click=move |_| change(AccountChange::Disabled { disabled: !disabled })>
                            {move || crate::i18n::text(crate::i18n::use_lang().get(), state_label)}</button>
                        <button data-testid="account-reset" on:click=reset>{move || tr!("accounts.reset_link")}</button>
                    </div>
                    {move || link.get().map(|l| view! {
                        <p class="ok" data-testid="reset-link">
                            {tr!("accounts.link_made", when = fmt_time(l.expires_at_ms))}" "
                            <code data-testid="reset-path">{absolute(&l.path)}</code>
                        </p>
                    })}
                    {move || error.get().map(|e| view! { <p class="error" role="alert">{error_text(&e)}</p> })}
                </details>
            </td>
        </tr>
    }
}
