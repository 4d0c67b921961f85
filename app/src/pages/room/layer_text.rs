//! The box as text, a layer at a time: a grid of the active layer in the room's labels
//! (● black, ○ white, · empty), for a screen reader and for a keyboard alone. The arrow keys
//! move along X and Y, Page Up / Page Down go to the layer behind or in front, Home / End to
//! the row's ends, L to the last move; Enter selects the point (the preview shows on every
//! view) and Enter on the selected point places the stone on the player's turn. Each cell
//! names its point and what is on it; the grid is drawn only while it is open.

use leptos::prelude::*;

use super::{label, RoomCtx};
use crate::tr;
use wire::{
    commands::RoomPhase,
    events::{Colour, Xyz},
};

fn symbol(c: Option<Colour>) -> &'static str {
    match c {
        Some(Colour::Black) => "●",
        Some(Colour::White) => "○",
        None => "·",
    }
}

#[component]
pub fn LayerText() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let open = RwSignal::new(false);
    let board = move || ctx.view.with(|v| v.settings.board);
    // The keyboard's point, always on the layer the grid shows (the layer may change from
    // another view): the cursor, else the selection, else the last move, else the centre.
    let cursor = RwSignal::new(None::<Xyz>);
    let at = move || {
        let b = board();
        let p = cursor
            .get()
            .or_else(|| ctx.selection.get())
            .or_else(|| ctx.view.with(|v| v.last_move))
            .unwrap_or(Xyz { x: (b.x.start + b.x.end) / 2, y: (b.y.start + b.y.end) / 2, z: 0 });
        Xyz { z: ctx.layer.get(), ..p }
    };
    let colour_at = move |p: Xyz| ctx.shown.with(|s| s.stones.iter().find(|(q, _)| *q == p).map(|(_, c)| *c));
    let describe = move |p: Xyz| {
        let name = ctx.view.with(|v| label(v, p));
        let what = match colour_at(p) {
            Some(c) => super::colour_text(c),
            None => tr!("views.empty"),
        };
        let last = ctx.shown.with(|s| s.last == Some(p));
        let selected = ctx.selection.get() == Some(p);
        let mut parts = vec![format!("{name}: {what}")];
        if last {
            parts.push(tr!("views.last_move"));
        }
        if selected {
            parts.push(tr!("views.selected"));
        }
        parts.join(", ")
    };
    let focus_cell = move |p: Xyz| {
        #[cfg(feature = "hydrate")]
        {
            use wasm_bindgen::JsCast;
            let sel = format!("[data-testid=cell-{}-{}-{}]", p.x, p.y, p.z);
            if let Some(el) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.query_selector(&sel).ok().flatten())
                .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
            {
                let _ = el.focus();
            }
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = p;
    };
    let go = move |p: Xyz| {
        let b = board();
        let p = Xyz {
            x: p.x.clamp(b.x.start, b.x.end),
            y: p.y.clamp(b.y.start, b.y.end),
            z: p.z.clamp(b.z.start, b.z.end),
        };
        cursor.set(Some(p));
        if p.z != ctx.layer.get_untracked() {
            ctx.layer.set(p.z);
            // The grid is drawn again for the new layer; the cell exists after this turn.
            ctx.announcement.set(tr!("views.layer_now", z = p.z));
        }
        request_focus(move || focus_cell(p));
    };
    let on_key = move |e: leptos::ev::KeyboardEvent| {
        // The browser's own shortcuts (address bar, history) pass through.
        if e.ctrl_key() || e.alt_key() || e.meta_key() {
            return;
        }
        let p = at();
        let b = board();
        let next = match e.key().as_str() {
            "ArrowLeft" => Some(Xyz { x: p.x - 1, ..p }),
            "ArrowRight" => Some(Xyz { x: p.x + 1, ..p }),
            "ArrowUp" => Some(Xyz { y: p.y - 1, ..p }),
            "ArrowDown" => Some(Xyz { y: p.y + 1, ..p }),
            "PageUp" => Some(Xyz { z: p.z - 1, ..p }),
            "PageDown" => Some(Xyz { z: p.z + 1, ..p }),
            "Home" => Some(Xyz { x: b.x.start, ..p }),
            "End" => Some(Xyz { x: b.x.end, ..p }),
            "l" | "L" => ctx.view.with_untracked(|v| v.last_move),
            "Enter" | " " => {
                e.prevent_default();
                let mine =
                    ctx.view.with_untracked(|v| v.phase == RoomPhase::Playing && v.your_colour == Some(v.to_move));
                if ctx.selection.get_untracked() == Some(p) && mine {
                    ctx.confirm();
                } else {
                    ctx.tap(p);
                }
                return;
            }
            _ => None,
        };
        if let Some(n) = next {
            e.prevent_default();
            go(n);
        }
    };
    // Drawn again only for another layer (the cells follow the stones themselves), so that
    // the focused cell stays.
    let grid = move || {
        let b = ctx.view.with_untracked(|v| v.settings.board);
        let z = ctx.layer.get();
        let xs: Vec<i64> = (b.x.start..=b.x.end).collect();
        let ys: Vec<i64> = (b.y.start..=b.y.end).collect();
        let head = xs
            .iter()
            .map(|x| {
                let name = ctx
                    .view
                    .with_untracked(|v| super::panel::axis_labels(v, Xyz { x: *x, y: b.y.start, z })[0].clone());
                view! { <th scope="col">{name}</th> }
            })
            .collect_view();
        let rows = ys
            .iter()
            .map(|y| {
                let y = *y;
                let row_name =
                    ctx.view.with_untracked(|v| super::panel::axis_labels(v, Xyz { x: b.x.start, y, z })[1].clone());
                let cells = xs
                    .iter()
                    .map(|x| {
                        let p = Xyz { x: *x, y, z };
                        view! {
                            <td role="gridcell" data-testid=format!("cell-{}-{}-{}", p.x, p.y, p.z)
                                tabindex=move || if at() == p { "0" } else { "-1" }
                                aria-label=move || describe(p)
                                aria-selected=move || (ctx.selection.get() == Some(p)).to_string()
                                class:last=move || ctx.shown.with(|s| s.last == Some(p))
                                class:cursor=move || at() == p
                                on:click=move |_| { cursor.set(Some(p)); ctx.tap(p); }>
                                {move || symbol(colour_at(p))}
                            </td>
                        }
                    })
                    .collect_view();
                view! { <tr><th scope="row">{row_name}</th>{cells}</tr> }
            })
            .collect_view();
        view! {
            <table class="layer-grid" role="grid" data-testid="layer-text"
                aria-label=move || tr!("views.grid_label", z = z, nx = xs.len(), ny = ys.len())
                on:keydown=on_key>
                <thead><tr><th></th>{head}</tr></thead>
                <tbody>{rows}</tbody>
            </table>
        }
    };
    view! {
        <section class="layer-text" data-testid="layer-text-box">
            <button class="fold" aria-expanded=move || open.get().to_string() data-testid="layer-text-open"
                on:click=move |_| open.update(|o| *o = !*o)>{move || tr!("views.text_view", z = ctx.layer.get())}</button>
            {move || open.get().then(|| view! {
                <p class="hint">{tr!("views.text_keys")}</p>
                {grid}
            })}
        </section>
    }
}

/// Runs `f` after the current turn of the event loop (a cell drawn by this change exists
/// then).
fn request_focus(f: impl FnOnce() + 'static) {
    #[cfg(feature = "hydrate")]
    {
        let cb = wasm_bindgen::closure::Closure::once_into_js(f);
        if let Some(w) = web_sys::window() {
            use wasm_bindgen::JsCast;
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(cb.unchecked_ref(), 0);
        }
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = f;
}
