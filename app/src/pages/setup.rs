//! First start: the administrator opens the one-time link printed by the server and
//! chooses a name and password. There is never a default password.

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::api::CompleteSetup;

#[component]
pub fn SetupPage() -> impl IntoView {
    let token = move || use_query_map().read().get("token").unwrap_or_default();
    let action = ServerAction::<CompleteSetup>::new();
    let result = action.value();
    view! {
        <main class="page narrow">
            <h1>"관리자 설정 · Administrator setup"</h1>
            <p>"서버가 처음 시작할 때 출력한 일회용 링크로만 사용할 수 있습니다. "
               "· This works only with the one-time link the server printed at first start."</p>
            <ActionForm action=action attr:class="card form" attr:id="setup-form">
                <input type="hidden" name="token" prop:value=token/>
                <super::NewAccountFields/>
                <button type="submit" class="primary">"관리자 만들기 · Create administrator"</button>
            </ActionForm>
            {move || result.get().map(|r| match r {
                Ok(u) => view! {
                    <p class="ok" role="status">
                        "관리자 " {u.username} " 계정이 만들어졌습니다. · Administrator created. "
                        <a href="/">"처음으로 · Home"</a>
                    </p>
                }.into_any(),
                Err(e) => view! { <p class="error" role="alert">{e.to_string()}</p> }.into_any(),
            })}
        </main>
    }
}
