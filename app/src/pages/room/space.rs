//! The views of a box (003 §7.2–7.6, §9.4): the whole board in 3D, the region view beside
//! it (stacked on narrow screens), and the active layer's plan inside the region window.
//! Both views share the active Z layer; the region follows the selected point or group
//! (local-ten or whole-group mode) until the player sets bounds by hand or shows the whole
//! layer.

use leptos::prelude::*;

use super::{board2d::LayerSvg, chain_of, RoomCtx};
use crate::{
    board_view::{
        region::{group_window, local_window, Span, Window},
        BoardCanvas, BoardScene,
    },
    matches::events::Xyz,
    tr,
};

/// How the region window is chosen (003 §7.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegionMode {
    LocalTen,
    WholeGroup,
    WholeLayer,
    Manual,
}

#[component]
pub fn SpaceViews() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let mode = RwSignal::new(RegionMode::LocalTen);
    let region_select = RwSignal::new(false);
    // The reference chosen by a region drag, until the next selection.
    let region_ref = RwSignal::new(None::<Xyz>);
    Effect::new(move |_| {
        if ctx.selection.get().is_some() {
            region_ref.set(None);
        }
    });
    let manual = RwSignal::new(None::<Window>);
    let board = move || ctx.view.with(|v| v.settings.board);
    let full = move || {
        let b = board();
        Window { x: Span { lo: b.x.start, hi: b.x.end }, y: Span { lo: b.y.start, hi: b.y.end } }
    };
    // The reference: the selection, else the last move, else the board's centre.
    let reference = move || {
        let b = board();
        ctx.selection.get().or_else(|| region_ref.get()).or_else(|| ctx.view.with(|v| v.last_move)).unwrap_or(Xyz {
            x: (b.x.start + b.x.end) / 2,
            y: (b.y.start + b.y.end) / 2,
            z: ctx.layer.get(),
        })
    };
    let window = Signal::derive(move || {
        let z = ctx.layer.get();
        let r = reference();
        let occupied: Vec<(i64, i64)> =
            ctx.view.with(|v| v.stones.iter().filter(|(p, _)| p.z == z).map(|(p, _)| (p.x, p.y)).collect());
        let empty = |x: i64, y: i64| !occupied.contains(&(x, y));
        match mode.get() {
            RegionMode::WholeLayer => full(),
            RegionMode::Manual => manual.get().unwrap_or_else(full),
            RegionMode::WholeGroup => {
                let group: Vec<(i64, i64)> =
                    ctx.view.with(|v| chain_of(v, r).into_iter().filter(|p| p.z == z).map(|p| (p.x, p.y)).collect());
                group_window(full(), &group).unwrap_or_else(|| local_window(full(), r.x, r.y, empty))
            }
            RegionMode::LocalTen => local_window(full(), r.x, r.y, empty),
        }
    });
    let z = Signal::derive(move || ctx.layer.get());
    let z_span = move || {
        let b = board();
        (b.z.start, b.z.end)
    };
    let step_layer = move |d: i64| {
        let (lo, hi) = z_span();
        ctx.layer.update(|z| *z = (*z + d).clamp(lo, hi));
    };
    let counts = move || {
        let w = window.get();
        let zz = ctx.layer.get();
        let stones = ctx.view.with(|v| v.stones.iter().filter(|(p, _)| p.z == zz && w.contains(p.x, p.y)).count());
        let total = (w.x.len() * w.y.len()) as usize;
        tr!("region.info", x = w.x.lo, y = w.y.lo, z = zz, nx = w.x.len(), ny = w.y.len(), empty = total - stones)
    };
    let set_mode = move |m: RegionMode| {
        if m == RegionMode::Manual {
            manual.set(Some(window.get_untracked()));
        }
        mode.set(m);
    };
    let mode_button = move |m: RegionMode, key: &'static str, testid: &'static str| {
        view! {
            <button class:active=move || mode.get() == m aria-pressed=move || (mode.get() == m).to_string()
                data-testid=testid on:click=move |_| set_mode(m)>{move || tr!(key)}</button>
        }
    };
    let scene = Signal::derive(move || {
        ctx.view.with(|v| BoardScene {
            board: v.settings.board,
            stones: v.stones.iter().map(|(p, c)| ([p.x, p.y, p.z], *c)).collect(),
            last: v.last_move.map(|p| [p.x, p.y, p.z]),
            preview: ctx.selection.get().map(|p| ([p.x, p.y, p.z], v.your_colour.unwrap_or(v.to_move))),
            layer: ctx.layer.get(),
            dead: v
                .scoring
                .as_ref()
                .map(|s| s.score.dead_stones.iter().map(|p| [p.x, p.y, p.z]).collect())
                .unwrap_or_default(),
            region_select: region_select.get(),
        })
    });
    let on_pick = Callback::new(move |p: [i64; 3]| ctx.tap(Xyz { x: p[0], y: p[1], z: p[2] }));
    // 003 §7.3: a dragged rectangle's reference point becomes the region's centre (local
    // ten lines) and its layer the active one; it is not a selection.
    let on_region = Callback::new(move |p: [i64; 3]| {
        region_ref.set(Some(Xyz { x: p[0], y: p[1], z: p[2] }));
        ctx.layer.set(p[2]);
        mode.set(RegionMode::LocalTen);
    });
    view! {
        <div class="views">
            <div class="whole">
                <h2>{move || tr!("region.whole_board")}</h2>
                <div class="buttons">
                    <button data-testid="region-select" aria-pressed=move || region_select.get().to_string()
                        class:active=move || region_select.get()
                        on:click=move |_| region_select.update(|r| *r = !*r)>{move || tr!("region.drag_mode")}</button>
                </div>
                <BoardCanvas scene=scene on_pick=on_pick on_region=on_region/>
                <p class="hint">{move || tr!("region.rotate_hint")}" "
                    <span class="axis x">"X"</span>" "<span class="axis y">"Y"</span>" "<span class="axis z">"Z"</span></p>
            </div>
            <div class="region">
                <h2>{move || tr!("region.title")}</h2>
                <div class="buttons layer-controls">
                    <button data-testid="layer-down" on:click=move |_| step_layer(-1) aria-label=move || tr!("region.layer_down")>"Z −"</button>
                    <span class="layer" data-testid="layer">{move || format!("Z = {}", ctx.layer.get())}</span>
                    <button data-testid="layer-up" on:click=move |_| step_layer(1) aria-label=move || tr!("region.layer_up")>"Z +"</button>
                </div>
                <div class="buttons modes" role="group">
                    {mode_button(RegionMode::LocalTen, "region.local_ten", "mode-local")}
                    {mode_button(RegionMode::WholeGroup, "region.whole_group", "mode-group")}
                    {mode_button(RegionMode::WholeLayer, "region.whole_layer", "mode-layer")}
                    {mode_button(RegionMode::Manual, "region.manual", "mode-manual")}
                </div>
                <Show when=move || mode.get() == RegionMode::Manual>
                    <ManualBounds manual=manual full=Signal::derive(full)/>
                </Show>
                <LayerSvg window=window z=z classic=false testid="region"/>
                <p class="hint" data-testid="region-info">{counts}</p>
            </div>
        </div>
    }
}

/// Bounds typed by hand (manual mode stops group following, 003 §7.6).
#[component]
fn ManualBounds(manual: RwSignal<Option<Window>>, full: Signal<Window>) -> impl IntoView {
    let field = move |axis: char, lo: bool| {
        let get = move || {
            manual.get().map(|w| {
                let s = if axis == 'x' { w.x } else { w.y };
                if lo {
                    s.lo
                } else {
                    s.hi
                }
            })
        };
        view! {
            <input type="number" size="3" prop:value=move || get().map(|v| v.to_string()).unwrap_or_default()
                aria-label=format!("{} {}", axis.to_ascii_uppercase(), if lo { "min" } else { "max" })
                on:change=move |e| {
                    let Ok(n) = event_target_value(&e).trim().parse::<i64>() else { return };
                    let f = full.get_untracked();
                    manual.update(|m| {
                        let mut w = m.unwrap_or(f);
                        let (s, b) = if axis == 'x' { (&mut w.x, f.x) } else { (&mut w.y, f.y) };
                        let n = n.clamp(b.lo, b.hi);
                        if lo { s.lo = n.min(s.hi) } else { s.hi = n.max(s.lo) }
                        *m = Some(w);
                    });
                }/>
        }
    };
    view! {
        <div class="manual-bounds">
            "X "{field('x', true)}"–"{field('x', false)}" Y "{field('y', true)}"–"{field('y', false)}
        </div>
    }
}
