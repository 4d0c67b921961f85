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
                <label>"아이디 · User name (3–32)"
                    <input name="username" autocomplete="username" required minlength="3" maxlength="32"/>
                </label>
                <label>"비밀번호 · Password (10–128)"
                    <input type="password" name="password" autocomplete="new-password" required minlength="10" maxlength="128"/>
                </label>
                <label>"비밀번호 확인 · Password again"
                    <input type="password" name="password_again" autocomplete="new-password" required/>
                </label>
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
