#![recursion_limit = "512"]
//! The browser entry point: hydrate the server-rendered page. Everything else lives in `app`.
//!
//! The bundle is always built split (`cargo leptos build --split`, then the checks and
//! rewrites of the Makefile's `LEPTOS_BUILD`): every page but home is a lazy route and the 3D
//! renderer a lazy function, each a WASM chunk fetched on first use (why:
//! docs/decisions/0004-a-small-browser-download.md).

/// Room for the bundle splitter. cargo-leptos' `--split` (wasm_split_cli_support 0.2.3) lays
/// each module's share of a data segment out again, every share aligned, and when the new
/// layout is longer than the segment it gives up and leaves the *whole* segment in the main
/// module ("Overlong segment 0 by 445 after relocation, putting it in main module"): the first
/// download then carried every chunk's strings and shaders, 470 instead of 230 KB. No code
/// reads these bytes, so the splitter places them in no module and their length is free for
/// its padding; non-zero so that they stay in `.rodata` (read-only) and `.data` (mutable)
/// instead of `.bss`, and `#[used]` so that the linker keeps them. They are not in the output.
#[used]
static SPLIT_SLACK_RODATA: [u8; 16 * 1024] = [0xA5; 16 * 1024];
#[used]
static SPLIT_SLACK_DATA: [std::sync::atomic::AtomicU8; 256] = [const { std::sync::atomic::AtomicU8::new(0xA5) }; 256];

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
        // The page's texts first (preloaded by its head): hydration renders the server's texts.
        // Without them it would render keys, so the server's page stays as it is, and says so.
        if let Err(why) = app::i18n::catalogue::load(app::i18n::initial_lang().code()).await {
            leptos::logging::error!("texts: {why}");
            app::pages::show_page_failed();
            return;
        }
        let body = leptos::prelude::document().body().expect("a page has a body");
        leptos::mount::hydrate_from_async(body, app::App).await.forget();
        app::hydrated::mark_hydrated();
    });
}
