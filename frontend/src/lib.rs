#![recursion_limit = "512"]
//! The browser entry point: hydrate the server-rendered page. Everything else lives in `app`.

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    // Lazy routes (app::pages::lazy_routes) need the asynchronous hydration: it waits for a
    // page's chunk before it hydrates that page. This is `leptos::mount::hydrate_lazy`, plus
    // telling the page when it is done (the tests and `make bench-ui` wait for that).
    let _ = any_spawner::Executor::init_wasm_bindgen();
    leptos::task::spawn_local(async {
        let body = leptos::prelude::document().body().expect("a page has a body");
        leptos::mount::hydrate_from_async(body, app::App).await.forget();
        app::pages::mark_hydrated();
    });
}
