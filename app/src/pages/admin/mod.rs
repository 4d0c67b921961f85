//! The referee's console: `/admin`, the live queue of what waits for an administrator, and
//! `/admin/rooms/{id}`, a room's board with the referee's desk beside it. Administrators
//! only: others are told so (the server refuses them the data anyway).

mod accounts;
mod conduct;
pub(super) mod desk;
mod governance;
mod learning;
mod log;
mod programs;
mod queue;

pub use accounts::AccountsAdminPage;
pub use governance::GovernancePage;
pub use learning::LearningPage;
pub use log::AuditLogPage;

use crate::sync_hydrate::IntoAnySync;
use leptos::prelude::*;

use super::header::HeaderBadges;
use crate::{
    api::{current_user, referee::admin_queue},
    tr, AppError,
};

#[component]
pub fn AdminPage() -> impl IntoView {
    let data = crate::pages::resource(|| (), |_| for_admin(admin_queue));
    view! {
        <header class="topbar">
            <a class="brand" href="/">"Space Baduk"</a>
            <HeaderBadges/>
            <super::LangSwitch/>
        </header>
        <main class="page admin" data-testid="admin">
            <h1>{move || tr!("admin.title")}</h1>
            <Suspense fallback=|| view! { <p>"…"</p> }>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(Some(items)) => view! { <queue::Queue initial=items/><conduct::ReportCases/> }.into_any_sync(),
                        Ok(None) => refusal().into_any_sync(),
                        Err(e) => view! {
                            <p class="error" role="alert">{move || crate::text::app_error(crate::i18n::use_lang().get(), &e)}</p>
                        }.into_any_sync(),
                    }
                })}
            </Suspense>
            <p><a href="/admin/learning" data-testid="to-learning">{move || tr!("learning.title")}</a>" · "
                <a href="/admin/accounts" data-testid="to-accounts">{move || tr!("accounts.title")}</a>" · "
                <a href="/admin/log" data-testid="to-log">{move || tr!("log.title")}</a>" · "
                <a href="/admin/rules" data-testid="to-governance">{move || tr!("governance.title")}</a>" · "
                <a href="/">{move || tr!("nav.home")}</a></p>
        </main>
    }
}

/// `load`'s data for an administrator; `None` for anyone else, who reads [`refusal`] (the
/// server refuses them the data anyway).
pub(super) async fn for_admin<T, F>(load: impl FnOnce() -> F) -> Result<Option<T>, AppError>
where
    F: std::future::Future<Output = Result<T, AppError>>,
{
    let me = current_user().await?;
    if !me.as_ref().is_some_and(|m| m.role.is_admin()) {
        return Ok(None);
    }
    Ok(Some(load().await?))
}

/// A refusal in the page's language.
fn error_text(e: &AppError) -> String {
    crate::text::app_error(crate::i18n::use_lang().get(), e)
}

/// What a visitor who is not an administrator reads instead of the console.
pub fn refusal() -> impl IntoView {
    view! { <p class="error" role="alert" data-testid="admin-refused">{move || tr!("admin.refused")}</p> }
}

/// `/admin/rooms/{id}`: the room page with the referee's desk.
#[component]
pub fn AdminRoomPage() -> impl IntoView {
    super::room::room_page(true)
}
