//! Open sign-up for players.

use leptos::prelude::*;

use crate::api::SignUp;

#[component]
pub fn SignUpPage() -> impl IntoView {
    let action = ServerAction::<SignUp>::new();
    view! {
        <main class="page narrow">
            <h1>"가입 · Sign up"</h1>
            <ActionForm action=action attr:class="card form" attr:id="signup-form">
                <super::NewAccountFields/>
                <button type="submit" class="primary">"가입 · Create account"</button>
            </ActionForm>
            {move || action.value().get().map(|r| match r {
                Ok(u) => view! {
                    <p class="ok" role="status" data-testid="signup-done">
                        {u.username}" — 가입되었습니다. · Account created. "<a href="/">"처음으로 · Home"</a>
                    </p>
                }.into_any(),
                Err(e) => view! { <p class="error" role="alert">{e.to_string()}</p> }.into_any(),
            })}
        </main>
    }
}
