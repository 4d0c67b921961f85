//! The 3D board. `lattice` and `orbit` are plain maths (tested natively); `renderer` turns
//! them into three-d draw calls on a WebGL2 canvas and exists only in the browser build.

pub mod lattice;
pub mod orbit;
#[cfg(feature = "hydrate")]
mod renderer;

use leptos::prelude::*;

/// A canvas showing an empty `size`³ lattice. Server-rendered as a plain canvas with a text
/// fallback; after hydration the WASM renderer takes it over.
#[component]
pub fn BoardCanvas(#[prop(default = 19)] size: u16) -> impl IntoView {
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    #[cfg(feature = "hydrate")]
    {
        let handle = StoredValue::new_local(None::<renderer::Handle>);
        Effect::new(move |_| {
            if let Some(el) = canvas.get() {
                match renderer::Handle::start(el, size) {
                    Ok(h) => handle.set_value(Some(h)),
                    Err(e) => leptos::logging::error!("board renderer: {e}"),
                }
            }
        });
        on_cleanup(move || {
            if let Some(h) = handle.try_update_value(|h| h.take()).flatten() {
                h.stop();
            }
        });
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = size;
    view! {
        <canvas
            node_ref=canvas
            class="board-canvas"
            data-testid="board-canvas"
            data-frames="0"
            role="img"
            aria-label=format!("빈 {size}×{size}×{size} 판 · Empty {size}×{size}×{size} board")
            tabindex="0"
        >
            "이 판을 보려면 WebGL2가 필요합니다. · This board needs WebGL2."
        </canvas>
    }
}
