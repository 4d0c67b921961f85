//! One module per page, plus the small pieces every page shares.

mod home;
mod setup;
mod signup;

pub use home::HomePage;
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

/// Registers the service worker once the app is interactive (see public/sw.js).
#[component]
pub fn ServiceWorkerRegistration() -> impl IntoView {
    #[cfg(feature = "hydrate")]
    Effect::new(|_| {
        if let Some(window) = web_sys::window() {
            let sw = window.navigator().service_worker();
            let _ = sw.register("/sw.js");
        }
    });
}
