//! Open sign-up for players.

use crate::sync_hydrate::IntoAnySync;
use leptos::prelude::*;

use crate::{api::SignUp, tr};

#[component]
pub fn SignUpPage() -> impl IntoView {
    let action = ServerAction::<SignUp>::new();
    view! {
        <crate::pages::TopBar/>
        <main class="page narrow">
            <h1>{move || tr!("signup.title")}</h1>
            <ActionForm action=action attr:class="card form" attr:id="signup-form">
                <super::NewAccountFields/>
                <button type="submit" class="primary">{move || tr!("signup.create")}</button>
            </ActionForm>
            {move || action.value().get().map(|r| match r {
                Ok(u) => view! {
                    <p class="ok" role="status" data-testid="signup-done">
                        {tr!("signup.done", name = u.username)}" "<a href="/">{tr!("nav.home")}</a>
                    </p>
                }.into_any_sync(),
                Err(e) => view! { <p class="error" role="alert">{move || crate::text::app_error(crate::i18n::use_lang().get(), &e)}</p> }.into_any_sync(),
            })}
        </main>
    }
}
