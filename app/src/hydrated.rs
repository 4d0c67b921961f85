//! The moment the page has hydrated: marked once by the browser's entry point, awaited by
//! what must not share the first download with the page (the 3D renderer's chunk).

thread_local! {
    /// Whether the page has hydrated, and who waits for it ([`hydrated`]).
    static HYDRATED: std::cell::RefCell<(bool, Vec<std::task::Waker>)> =
        const { std::cell::RefCell::new((false, Vec::new())) };
}

/// Resolves once the page has hydrated (at once ever after: pages reached by the router).
/// What the page does not need to be usable waits for it — the 3D renderer's chunk above
/// all, which would otherwise share the first download with the page's own.
pub fn hydrated() -> impl std::future::Future<Output = ()> {
    std::future::poll_fn(|cx| {
        HYDRATED.with_borrow_mut(|(done, waiting)| {
            if *done {
                std::task::Poll::Ready(())
            } else {
                waiting.push(cx.waker().clone());
                std::task::Poll::Pending
            }
        })
    })
}

/// Marks the page as hydrated (`window.__sb_hydrated`, which the browser tests wait for, and
/// `__sb_hydrated_at`, when): called once the whole page, its lazy route's chunk included,
/// has been hydrated. Wakes what waits in [`hydrated`].
pub fn mark_hydrated() {
    use wasm_bindgen::JsCast;
    let waiting = HYDRATED.with_borrow_mut(|(done, waiting)| {
        *done = true;
        std::mem::take(waiting)
    });
    waiting.into_iter().for_each(std::task::Waker::wake);
    let Some(window) = web_sys::window() else { return };
    let _ = js_sys::Reflect::set(&window, &"__sb_hydrated".into(), &true.into());
    if let Ok(p) = js_sys::Reflect::get(&window, &"performance".into()) {
        if let Ok(now) = js_sys::Reflect::get(&p, &"now".into()) {
            if let Some(f) = now.dyn_ref::<js_sys::Function>() {
                if let Ok(t) = f.call0(&p) {
                    let _ = js_sys::Reflect::set(&window, &"__sb_hydrated_at".into(), &t);
                }
            }
        }
    }
}
