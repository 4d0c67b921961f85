//! One module per page, plus the small pieces every page shares.
//!
//! Shared here: `PageFailed`, the hidden notice shown (with a reload button) when the page's
//! WASM stops, such as after a chunk fetch failed even through `fetch_retry.js`'s retries;
//! `hydrated`, which what a page does not need at once (the 3D renderer's chunk) waits for.
//! Resources come through `resource` (clippy refuses `Resource::new`).

mod account;
mod admin;
mod agreement_fields;
mod archive;
mod board_picture;
mod common_rules;
pub(crate) mod header;
mod home;
pub mod lazy_routes;
mod new_room;
mod notifications;
mod profile;
mod resource;
mod room;
mod rules_page;
mod setup;
mod sgf_view;
mod signup;
pub mod words;

pub use account::{AccountPage, ResetPage};
pub use admin::{AccountsAdminPage, AdminPage, AdminRoomPage, AuditLogPage, GovernancePage, LearningPage};
pub use archive::ArchivePage;
pub use common_rules::CommonRulesPage;
pub use header::{Badges, HeaderBadges, TopBar};
pub use home::HomePage;
pub use new_room::NewRoomPage;
pub use notifications::NotificationsPage;
pub use profile::ProfilePage;
pub(crate) use resource::resource;
pub use room::{ReplayPage, RoomPage};
pub use rules_page::RulesPage;
pub use setup::SetupPage;
pub use sgf_view::SgfViewPage;
pub use signup::SignUpPage;

use leptos::prelude::*;

#[component]
pub fn NotFound() -> impl IntoView {
    view! {
        <main class="page">
            <h1>"Space Baduk"</h1>
            <p>{move || crate::tr!("page.not_found")}</p>
            <p><a href="/">{move || crate::tr!("nav.home")}</a></p>
        </main>
    }
}

/// Name, password and confirmation: the fields of every form that creates an account.
/// The limits match `data::accounts` (the server checks them again).
#[component]
pub fn NewAccountFields() -> impl IntoView {
    view! {
        <label>{move || crate::tr!("account.user_name_range")}
            <input name="username" autocomplete="username" required minlength="3" maxlength="32"/>
        </label>
        <label>{move || crate::tr!("account.password_range")}
            <input type="password" name="password" autocomplete="new-password" required minlength="10" maxlength="128"/>
        </label>
        <label>{move || crate::tr!("account.password_again")}
            <input type="password" name="password_again" autocomplete="new-password" required/>
        </label>
    }
}

/// The notice a page shows when its WASM has stopped (a panic, such as a chunk of the split
/// bundle that could not be fetched even after `fetch_retry.js`'s tries): rendered hidden by
/// the server in the reader's language, shown by the browser's panic hook
/// (`frontend::hydrate`). The button is plain HTML, since the app's own handlers are gone.
pub const PAGE_FAILED_ID: &str = "page-failed";

#[component]
pub fn PageFailed() -> impl IntoView {
    view! {
        <div id=PAGE_FAILED_ID class="page-failed" role="alert" hidden>
            <p>{move || crate::tr!("page.failed")}</p>
            <button type="button" onclick="location.reload()">{move || crate::tr!("page.reload")}</button>
        </div>
    }
}

/// Shows `PageFailed`'s notice (from the panic hook: no reactivity, only the DOM).
#[cfg(feature = "hydrate")]
pub fn show_page_failed() {
    if let Some(notice) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(PAGE_FAILED_ID))
    {
        let _ = notice.remove_attribute("hidden");
    }
}

/// Registers the service worker once the app is interactive (see public/sw.js).
#[component]
pub fn ServiceWorkerRegistration() -> impl IntoView {
    #[cfg(feature = "hydrate")]
    Effect::new(|_| {
        if let Some(window) = web_sys::window() {
            // Service workers exist only in secure contexts (HTTPS, or this machine): a page
            // served over plain HTTP on a LAN (the seed's three-PC set-up) has none, and
            // works without one.
            let navigator = window.navigator();
            if js_sys::Reflect::has(&navigator, &"serviceWorker".into()).unwrap_or(false) {
                let _ = navigator.service_worker().register("/sw.js");
            }
        }
    });
}

/// Switches to the next language of the catalogue, named in itself (remembered in a cookie).
#[component]
pub fn LangSwitch() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    view! {
        <button class="lang" data-testid="lang-switch" on:click=move |_| crate::i18n::set_lang(lang, lang.get().next())>
            {move || lang.get().next().name()}
        </button>
    }
}

/// `/bench/board?n=25`: a full n×n×n box (every point a stone, colours in a fixed pattern)
/// turning every frame, for measuring frame time (a benchmark, not a test). `stones=K` puts
/// K stones instead, scattered over the box as in a middle game (a fixed arithmetic walk over
/// the points, the same every time), with the last one marked as the last move. `fill=0`,
/// `grid=0` and `aa=0` (no multisampling) measure the stones, the grid and multisampling apart.
#[component]
pub fn BoardBenchPage() -> impl IntoView {
    use crate::board_view::{BoardCanvas, BoardScene};
    use wire::events::Colour;
    let query = leptos_router::hooks::use_query_map();
    let n = query.with_untracked(|q| q.get("n").and_then(|v| v.parse::<i64>().ok())).unwrap_or(25).clamp(1, 25);
    let mut scene = BoardScene::empty_cube(n as u16);
    for z in 1..=n {
        for y in 1..=n {
            for x in 1..=n {
                let c = if (x + 2 * y + 3 * z) % 2 == 0 { Colour::Black } else { Colour::White };
                scene.stones.push(([x, y, z], c));
            }
        }
    }
    if let Some(k) = query.with_untracked(|q| q.get("stones").and_then(|v| v.parse::<i64>().ok())) {
        let cells = n * n * n;
        let k = k.clamp(0, cells);
        // Steps of a number coprime to n³ visit every point once, spread over the box.
        let step = (1..cells).rev().find(|s| gcd(*s, cells) == 1 && *s * 8 < cells * 5).unwrap_or(1);
        scene.stones = (0..k)
            .map(|i| {
                let c = (i * step) % cells;
                let colour = if i % 2 == 0 { Colour::Black } else { Colour::White };
                ([c % n + 1, c / n % n + 1, c / (n * n) + 1], colour)
            })
            .collect();
        scene.last = scene.stones.last().map(|(p, _)| *p);
    }
    // `fill=0` leaves the box empty and `grid=0` hides the lines: the parts' costs apart.
    let flag = |k: &str| query.with_untracked(|q| q.get(k).map(|v| v != "0")).unwrap_or(true);
    if !flag("fill") {
        scene.stones.clear();
        scene.last = None;
    }
    scene.grid = flag("grid");
    scene.layer = (n + 1) / 2;
    let stones = scene.stones.len();
    view! {
        <main class="page">
            <h1>{format!("{n}×{n}×{n} · {stones} stones")}</h1>
            <BoardCanvas scene=Signal::stored(scene) spin=true antialias=flag("aa")/>
        </main>
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
