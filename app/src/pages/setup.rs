//! First start: the administrator opens the one-time link printed by the server and
//! chooses a name and password. There is never a default password.

use crate::sync_hydrate::IntoAnySync;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::{api::CompleteSetup, tr};

#[component]
pub fn SetupPage() -> impl IntoView {
    let token = move || use_query_map().read().get("token").unwrap_or_default();
    let action = ServerAction::<CompleteSetup>::new();
    let result = action.value();
    view! {
        <crate::pages::TopBar/>
        <main class="page narrow">
            <h1>{move || tr!("setup.title")}</h1>
            <p>{move || tr!("setup.only_link")}</p>
            <ActionForm action=action attr:class="card form" attr:id="setup-form">
                <input type="hidden" name="token" prop:value=token/>
                <super::NewAccountFields/>
                <button type="submit" class="primary">{move || tr!("setup.create")}</button>
            </ActionForm>
            {move || result.get().map(|r| match r {
                Ok(u) => view! {
                    <p class="ok" role="status" data-testid="setup-done">
                        {tr!("setup.done", name = u.username)}" "
                        <a href="/">{tr!("nav.home")}</a>
                    </p>
                }.into_any_sync(),
                Err(e) => view! { <p class="error" role="alert">{move || crate::text::app_error(crate::i18n::use_lang().get(), &e)}</p> }.into_any_sync(),
            })}
        </main>
    }
}
