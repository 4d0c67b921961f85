#![recursion_limit = "512"]
//! Space Baduk's Leptos application: routes, pages, server functions and the board view.
//!
//! Compiled twice: with `ssr` into the server (server functions run, `data` talks to SQLite
//! or PostgreSQL) and with `hydrate` into the WASM bundle (server functions become HTTP calls,
//! `board_view` draws with three-d). Neither side compiles the other's dependencies.
//!
//! The document's head is the server's alone (`shell`: plain tags, no leptos_meta in the
//! bundle); the browser hydrates the body. `App` holds the routes: every page but home is a
//! lazy route (`pages::lazy_routes`), and every page is wrapped in `sync_hydrate::SyncHydrate`.

pub mod accounts;
pub mod api;
pub mod board_view;
pub mod clock;
pub mod error;
pub mod governance;
#[cfg(feature = "hydrate")]
pub mod hydrated;
pub mod i18n;
pub mod learning;
#[cfg(feature = "ssr")]
pub mod matches;
pub mod pages;
pub mod sync_hydrate;
pub mod text;

#[cfg(feature = "ssr")]
pub mod data;

use leptos::prelude::*;
use leptos_router::{
    components::{Route, Router, Routes},
    Lazy, ParamSegment, SsrMode, StaticSegment,
};

pub use error::{AppError, ErrorBody};
pub use wire::{audit, role, Role};

// Translations (app/locales/*.yml), compiled into the server; see `i18n`. The browser's bundle
// compiles in none (`src/i18n` has no catalogue files): it reads the files the server serves
// (`i18n::catalogue`), so that no page's download carries the texts of every language.
#[cfg(not(feature = "hydrate"))]
rust_i18n::i18n!("locales", fallback = "en");
#[cfg(feature = "hydrate")]
rust_i18n::i18n!("src/i18n", fallback = "en", backend = i18n::catalogue::Fetched);

/// The package name cargo-leptos gives the wasm, JS and CSS bundle (`/pkg/<name>.*`).
pub const OUTPUT_NAME: &str = "space-baduk";

/// The bundle splitter's loader, which the main JS module imports (its name is fixed by
/// cargo-leptos' splitter: `--split` is required, see the Makefile).
pub const SPLIT_LOADER: &str = "/pkg/__wasm_split.______________________.js";

/// Retries the WASM chunks' fetches, which a weak network drops now and then: see the file.
const FETCH_RETRY_JS: &str = include_str!("fetch_retry.js");

/// The HTML document around the app, rendered on the server only.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    view! {
        <!DOCTYPE html>
        <html lang=i18n::initial_lang().code()>
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover"/>
                // The head is the server's alone (the browser hydrates the body), so its tags are
                // plain HTML here rather than leptos_meta's components, whose code the browser
                // bundle would carry.
                <title>"Space Baduk"</title>
                <link rel="stylesheet" id="leptos" href=format!("/pkg/{OUTPUT_NAME}.css")/>
                // Installable app (PWA) and tablet meta tags.
                <link rel="manifest" href="/manifest.webmanifest"/>
                <link rel="icon" href="/icons/icon-192.png" type="image/png"/>
                <link rel="apple-touch-icon" href="/icons/icon-192.png"/>
                <meta name="theme-color" content="#0b1020"/>
                <meta name="description" content="Baduk (Go) on three-dimensional boards and the classic flat board."/>
                <meta name="mobile-web-app-capable" content="yes"/>
                <meta name="apple-mobile-web-app-capable" content="yes"/>
                <meta name="apple-mobile-web-app-title" content="Space Baduk"/>
                <meta name="apple-mobile-web-app-status-bar-style" content="black-translucent"/>
                <AutoReload options=options.clone()/>
                // Before the module scripts: their chunk fetches go through it.
                <script inner_html=FETCH_RETRY_JS></script>
                <HydrationScripts options/>
                // The main module's import, fetched beside it instead of after it: one round
                // trip less before the page is interactive.
                <link rel="modulepreload" href=SPLIT_LOADER/>
                <i18n::catalogue::CatalogueHead lang=i18n::initial_lang()/>
            </head>
            <body>
                <App/>
            </body>
        </html>
    }
}

#[component]
pub fn App() -> impl IntoView {
    i18n::provide_lang();
    pages::Badges::provide();
    use pages::lazy_routes::*;
    use sync_hydrate::SyncHydrate;
    view! {
        <Router>
            <Routes fallback=|| SyncHydrate(view! { <pages::NotFound/> })>
                // Async SSR: the page is sent complete (rooms, user, version), so it is
                // readable before any script runs.
                <Route path=StaticSegment("") view=|| SyncHydrate(view! { <pages::HomePage/> }) ssr=SsrMode::Async/>
                <Route path=StaticSegment("setup") view={Lazy::<Later<SetupRoute>>::new()} ssr=SsrMode::Async/>
                <Route path=StaticSegment("signup") view={Lazy::<Later<SignUpRoute>>::new()}/>
                <Route path=(StaticSegment("rooms"), StaticSegment("new")) view={Lazy::<Later<NewRoomRoute>>::new()}/>
                <Route path=StaticSegment("games") view={Lazy::<Later<ArchiveRoute>>::new()}/>
                <Route path=(StaticSegment("games"), StaticSegment("sgf")) view={Lazy::<Later<SgfViewRoute>>::new()}/>
                <Route path=(StaticSegment("bench"), StaticSegment("board")) view={Lazy::<Later<BoardBenchRoute>>::new()}/>
                <Route path=(StaticSegment("rooms"), ParamSegment("id")) view={Lazy::<Later<RoomRoute>>::new()} ssr=SsrMode::Async/>
                <Route path=(StaticSegment("rooms"), ParamSegment("id"), StaticSegment("replay")) view={Lazy::<Later<ReplayRoute>>::new()} ssr=SsrMode::Async/>
                <Route path=StaticSegment("notifications") view={Lazy::<Later<NotificationsRoute>>::new()}/>
                <Route path=(StaticSegment("players"), ParamSegment("name")) view={Lazy::<Later<ProfileRoute>>::new()} ssr=SsrMode::Async/>
                <Route path=StaticSegment("account") view={Lazy::<Later<AccountRoute>>::new()}/>
                <Route path=StaticSegment("reset") view={Lazy::<Later<ResetRoute>>::new()}/>
                <Route path=StaticSegment("admin") view={Lazy::<Later<AdminRoute>>::new()}/>
                <Route path=(StaticSegment("admin"), StaticSegment("learning")) view={Lazy::<Later<LearningRoute>>::new()}/>
                <Route path=(StaticSegment("admin"), StaticSegment("accounts")) view={Lazy::<Later<AccountsAdminRoute>>::new()}/>
                <Route path=(StaticSegment("admin"), StaticSegment("log")) view={Lazy::<Later<AuditLogRoute>>::new()}/>
                <Route path=(StaticSegment("admin"), StaticSegment("rules")) view={Lazy::<Later<GovernanceRoute>>::new()}/>
                <Route path=StaticSegment("rules") view={Lazy::<Later<RulesRoute>>::new()}/>
                <Route path=(StaticSegment("rules"), StaticSegment("common")) view={Lazy::<Later<CommonRulesRoute>>::new()}/>
                <Route path=(StaticSegment("admin"), StaticSegment("rooms"), ParamSegment("id")) view={Lazy::<Later<AdminRoomRoute>>::new()} ssr=SsrMode::Async/>
            </Routes>
        </Router>
        <pages::ServiceWorkerRegistration/>
        <pages::PageFailed/>
    }
}
