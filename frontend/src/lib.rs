#![recursion_limit = "512"]
//! The browser entry point: hydrate the server-rendered page. Everything else lives in `app`.

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    // A panic stops the WASM for good: say so on the page (its notice is already there,
    // hidden, in the reader's language) besides the console.
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        app::pages::show_page_failed();
    }));
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
