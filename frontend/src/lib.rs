#![recursion_limit = "512"]
//! The browser entry point: hydrate the server-rendered page. Everything else lives in `app`.

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_body(app::App);
}
