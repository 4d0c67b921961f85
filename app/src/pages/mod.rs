//! One module per page, plus the small pieces every page shares.

mod home;
mod new_room;
mod room;
mod setup;
mod signup;

pub use home::HomePage;
pub use new_room::NewRoomPage;
pub use room::RoomPage;
pub use setup::SetupPage;
pub use signup::SignUpPage;

use leptos::prelude::*;

#[component]
pub fn NotFound() -> impl IntoView {
    view! {
        <main class="page">
            <h1>"Space Baduk"</h1>
            <p>"페이지를 찾을 수 없습니다. · Page not found."</p>
            <p><a href="/">"처음으로 · Home"</a></p>
        </main>
    }
}

/// Name, password and confirmation: the fields of every form that creates an account.
/// The limits match `data::accounts` (the server checks them again).
#[component]
pub fn NewAccountFields() -> impl IntoView {
    view! {
        <label>"아이디 · User name (3–32)"
            <input name="username" autocomplete="username" required minlength="3" maxlength="32"/>
        </label>
        <label>"비밀번호 · Password (10–128)"
            <input type="password" name="password" autocomplete="new-password" required minlength="10" maxlength="128"/>
        </label>
        <label>"비밀번호 확인 · Password again"
            <input type="password" name="password_again" autocomplete="new-password" required/>
        </label>
    }
}

/// Registers the service worker once the app is interactive (see public/sw.js), and marks
/// the page as hydrated (`window.__sb_hydrated`, which the browser tests wait for).
#[component]
pub fn ServiceWorkerRegistration() -> impl IntoView {
    #[cfg(feature = "hydrate")]
    Effect::new(|_| {
        if let Some(window) = web_sys::window() {
            let sw = window.navigator().service_worker();
            let _ = sw.register("/sw.js");
            let _ = js_sys::Reflect::set(&window, &"__sb_hydrated".into(), &true.into());
        }
    });
}

/// Switches between Korean and English (remembered in a cookie).
#[component]
pub fn LangSwitch() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    view! {
        <button class="lang" data-testid="lang-switch" on:click=move |_| crate::i18n::set_lang(lang, lang.get().other())>
            {move || if lang.get() == crate::i18n::Lang::Ko { "English" } else { "한국어" }}
        </button>
    }
}
