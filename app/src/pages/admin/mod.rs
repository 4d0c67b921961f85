//! The referee's console: `/admin`, the live queue of what waits for an administrator, and
//! `/admin/rooms/{id}`, a room's board with the referee's desk beside it. Administrators
//! only: others are told so (the server refuses them the data anyway).

mod accounts;
mod conduct;
pub(super) mod desk;
mod frame;
mod governance;
mod learning;
mod log;
mod programs;
mod queue;

pub use accounts::AccountsAdminPage;
pub use governance::GovernancePage;
pub use learning::LearningPage;
pub use log::AuditLogPage;

use frame::{error_text, for_admin, refusal, AdminFrame, Loaded};

use leptos::prelude::*;

use crate::{api::referee::admin_queue, sync_hydrate::IntoAnySync, tr};

#[component]
pub fn AdminPage() -> impl IntoView {
    let data = crate::pages::resource(|| (), |_| for_admin(admin_queue));
    view! {
        <AdminFrame testid="admin" title="admin.title">
            <Loaded data body=|items| view! { <queue::Queue initial=items/><conduct::ReportCases/> }/>
            <p><a href="/admin/learning" data-testid="to-learning">{move || tr!("learning.title")}</a>" · "
                <a href="/admin/accounts" data-testid="to-accounts">{move || tr!("accounts.title")}</a>" · "
                <a href="/admin/log" data-testid="to-log">{move || tr!("log.title")}</a>" · "
                <a href="/admin/rules" data-testid="to-governance">{move || tr!("governance.title")}</a>" · "
                <a href="/">{move || tr!("nav.home")}</a></p>
        </AdminFrame>
    }
}

/// `/admin/rooms/{id}`: the room page with the referee's desk.
#[component]
pub fn AdminRoomPage() -> impl IntoView {
    super::room::room_page(Some(|| desk::DeskPanel().into_any_sync()))
}
