//! The views of a box (003 §7.2–7.6, §9.4): the whole board in 3D and the region view
//! beside it — a second 3D view showing only the points and stones inside the region's box,
//! with its own rotation and zoom, or the active layer's plan. The direction-match buttons
//! copy one view's direction to the other, never the zoom. Both views share the active Z
//! layer; the region follows a point chosen outside it (on the whole board, by coordinates,
//! by a region drag) or the last move, and keeps still while the player taps inside it — a
//! plan that re-centred under the finger moved the next point away. The active layer's plan
//! is a reading aid (003 §7.7 leaves plan views out of the rules).
//!
//! On a phone the views are one at a time, chosen by tabs (the whole board first); on wider
//! screens side by side (stacked below 1200 px, 003 §7.6). Reading aids on the whole board:
//! preset views, a stones-only view, the last moves numbered, and a chain isolated (a long
//! press, or the button for the point last tapped) with its liberties ringed and counted.

use leptos::prelude::*;

use super::{board2d::LayerSvg, chain_of, label, RoomCtx};
use crate::{
    board_view::{
        region::{follow_layer, group_span, local_span, local_window, Span, Window},
        BoardCanvas, BoardScene, Focus, ViewPreset, ViewTurn,
    },
    tr,
};
use wire::events::Xyz;

/// How the region window is chosen (003 §7.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegionMode {
    LocalTen,
    WholeGroup,
    WholeBoard,
    Manual,
}

/// The region's box: the X/Y window and the Z range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegionBox {
    pub plane: Window,
    pub z: Span,
}

impl RegionBox {
    fn contains(&self, p: [i64; 3]) -> bool {
        self.plane.contains(p[0], p[1]) && self.z.contains(p[2])
    }
}

/// Which view a phone shows (wider screens show the whole board and the region together;
/// there the choice is only between the region's 3D view and its plan).
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum Pane {
    Whole,
    Plan,
    Region,
}

impl Pane {
    fn name(self) -> &'static str {
        self.into()
    }
}

/// How many of the last moves are numbered on request.
const NUMBERED: usize = 5;

#[component]
pub fn SpaceViews() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let mode = RwSignal::new(RegionMode::LocalTen);
    let region_select = RwSignal::new(false);
    let pane = RwSignal::new(Pane::Whole);
    // The region pane's own choice between its 3D view and the plan (wide screens).
    let show_plan = RwSignal::new(false);
    let stones_only = RwSignal::new(false);
    let numbered = RwSignal::new(false);
    // A point of the isolated chain (long press, or the button).
    let isolated = RwSignal::new(None::<Xyz>);
    let (whole_turn, region_turn) = (ViewTurn::new(), ViewTurn::new());
    // The region's centre when set: a point chosen outside the region, or a drag's reference.
    let anchor = RwSignal::new(None::<Xyz>);
    // A tap inside the region pane is on its way: its selection must not move the window.
    let tapped_inside = StoredValue::new(false);
    Effect::new(move |_| {
        if let Some(at) = ctx.selection.get() {
            if !tapped_inside.get_value() {
                anchor.set(Some(at));
            }
            tapped_inside.set_value(false);
        }
    });
    let manual = RwSignal::new(None::<RegionBox>);
    let board = move || ctx.view.with(|v| v.settings.board);
    let full = move || {
        let b = board();
        RegionBox {
            plane: Window { x: Span { lo: b.x.start, hi: b.x.end }, y: Span { lo: b.y.start, hi: b.y.end } },
            z: Span { lo: b.z.start, hi: b.z.end },
        }
    };
    // The reference: the anchor, else the last move, else the board's centre.
    let reference = move || {
        let b = board();
        anchor.get().or_else(|| ctx.view.with(|v| v.last_move)).unwrap_or(Xyz {
            x: (b.x.start + b.x.end) / 2,
            y: (b.y.start + b.y.end) / 2,
            z: ctx.layer.get(),
        })
    };
    let region = Memo::new(move |_| {
        let layer = ctx.layer.get();
        let r = reference();
        let all = full();
        let local = || {
            let occupied: Vec<(i64, i64)> =
                ctx.view.with(|v| v.stones.iter().filter(|(p, _)| p.z == layer).map(|(p, _)| (p.x, p.y)).collect());
            let empty = |x: i64, y: i64| !occupied.contains(&(x, y));
            RegionBox { plane: local_window(all.plane, r.x, r.y, empty), z: local_span(all.z, r.z) }
        };
        let chosen = match mode.get() {
            RegionMode::WholeBoard => all,
            RegionMode::Manual => manual.get().unwrap_or(all),
            RegionMode::WholeGroup => {
                let group = ctx.view.with(|v| chain_of(v, r));
                let xs = group.iter().map(|p| p.x);
                let ys = group.iter().map(|p| p.y);
                let zs = group.iter().map(|p| p.z);
                match (group_span(all.plane.x, xs), group_span(all.plane.y, ys), group_span(all.z, zs)) {
                    (Some(x), Some(y), Some(z)) => RegionBox { plane: Window { x, y }, z },
                    _ => local(),
                }
            }
            RegionMode::LocalTen => local(),
        };
        // 003 §7.6: the views share the active layer; one outside the range moves it.
        RegionBox { z: follow_layer(all.z, chosen.z, layer), ..chosen }
    });
    let window = Signal::derive(move || region.get().plane);
    let z = Signal::derive(move || ctx.layer.get());
    let step_layer = move |d: i64| {
        let b = board();
        ctx.layer.update(|z| *z = (*z + d).clamp(b.z.start, b.z.end));
    };
    // The active layer, with the room's own Z label when it has one (003 §7.1).
    let layer_text = move || {
        let z = ctx.layer.get();
        let named = ctx.view.with(|v| {
            super::label_set(v)
                .and_then(|n| n.axis(engine::AxisName::Z).get((z - v.settings.board.z.start) as usize).cloned())
        });
        match named {
            Some(n) => format!("Z = {z} · {n}"),
            None => format!("Z = {z}"),
        }
    };
    let counts = move || {
        let r = region.get();
        let layer = ctx.layer.get();
        let (on_layer, inside) = ctx.view.with(|v| {
            let on_layer = v.stones.iter().filter(|(p, _)| p.z == layer && r.plane.contains(p.x, p.y)).count();
            let inside = v.stones.iter().filter(|(p, _)| r.contains([p.x, p.y, p.z])).count();
            (on_layer, inside)
        });
        let (nx, ny, nz) = (r.plane.x.len(), r.plane.y.len(), r.z.len());
        let reference = ctx.view.with(|v| label(v, Xyz { x: r.plane.x.lo, y: r.plane.y.lo, z: r.z.lo }));
        tr!(
            "region.info",
            reference = reference,
            nx = nx,
            ny = ny,
            nz = nz,
            layer = layer,
            empty = (nx * ny) as usize - on_layer,
            all = (nx * ny * nz) as usize - inside
        )
    };
    let set_mode = move |m: RegionMode| {
        if m == RegionMode::Manual {
            manual.set(Some(region.get_untracked()));
        }
        // 003 §7.6: local ten returns to the window around the selected point (or the last
        // move); whole group fits the group of the selected point (or of the last move).
        if matches!(m, RegionMode::LocalTen | RegionMode::WholeGroup) {
            anchor.set(ctx.selection.get_untracked());
        }
        mode.set(m);
    };
    let mode_button = move |m: RegionMode, key: &'static str, testid: &'static str| {
        view! {
            <button class:active=move || mode.get() == m aria-pressed=move || (mode.get() == m).to_string()
                data-testid=testid on:click=move |_| set_mode(m)>{move || tr!(key)}</button>
        }
    };
    // The isolated chain and its liberties, while its stones are on the board.
    let focus = Memo::new(move |_| {
        let at = isolated.get()?;
        // The chains are the live position's.
        if ctx.shown.with(|s| s.back.is_some()) {
            return None;
        }
        ctx.view.with(|v| {
            let chain = chain_of(v, at);
            if chain.is_empty() {
                return None;
            }
            Some(Focus {
                liberties: super::chains::liberties(v, &chain).iter().map(|p| [p.x, p.y, p.z]).collect(),
                chain: chain.iter().map(|p| [p.x, p.y, p.z]).collect(),
            })
        })
    });
    let scene = Signal::derive(move || {
        let shown = ctx.shown.get();
        let live = shown.back.is_none();
        let tags = if numbered.get() {
            // The moves up to the position shown.
            let upto = shown.back.map_or(i64::MAX, |b| b.seq);
            let recent = ctx.events.with(|es| {
                let held = es.partition_point(|e| e.seq <= upto);
                super::history::recent_moves(&es[..held], NUMBERED)
            });
            recent.into_iter().map(|(p, n)| ([p.x, p.y, p.z], n.to_string())).collect()
        } else {
            // The stone last tapped, by name: its layer (and row) read at a glance.
            ctx.inspected
                .get()
                .filter(|p| shown.stones.iter().any(|(q, _)| q == p))
                .map(|p| vec![([p.x, p.y, p.z], ctx.view.with(|v| label(v, p)))])
                .unwrap_or_default()
        };
        ctx.view.with(|v| BoardScene {
            board: v.settings.board,
            stones: shown.stones.iter().map(|(p, c)| ([p.x, p.y, p.z], *c)).collect(),
            last: shown.last.map(|p| [p.x, p.y, p.z]),
            preview: ctx
                .selection
                .get()
                .filter(|_| live)
                .map(|p| ([p.x, p.y, p.z], v.your_colour.unwrap_or(v.to_move))),
            layer: ctx.layer.get(),
            dead: v
                .scoring
                .as_ref()
                .filter(|_| live)
                .map(|s| s.score.dead_stones.iter().map(|p| [p.x, p.y, p.z]).collect())
                .unwrap_or_default(),
            region_select: region_select.get(),
            grid: !stones_only.get(),
            ghosts: ctx.ghosts.get().iter().map(|(p, c)| ([p.x, p.y, p.z], *c)).collect(),
            cited: super::referee::cited_points(v).into_iter().map(|p| [p.x, p.y, p.z]).collect(),
            ticks: ticks_of(v, v.settings.board),
            captured: shown.captured.iter().map(|p| [p.x, p.y, p.z]).collect(),
            focus: focus.get().filter(|_| live),
            tags,
        })
    });
    // 003 §7.5: the region view shows only the points and stones inside its box; its
    // reference axes start at the region's minimum corner (003 §7.2).
    let region_scene = Signal::derive(move || {
        let r = region.get();
        let whole = scene.get();
        let inside = |p: &[i64; 3]| r.contains(*p);
        let board = engine::BoxSpec {
            x: engine::Axis::new(r.plane.x.lo, r.plane.x.hi),
            y: engine::Axis::new(r.plane.y.lo, r.plane.y.hi),
            z: engine::Axis::new(r.z.lo, r.z.hi),
        };
        BoardScene {
            board,
            ticks: ctx.view.with(|v| ticks_of(v, board)),
            stones: whole.stones.into_iter().filter(|(p, _)| inside(p)).collect(),
            last: whole.last.filter(inside),
            preview: whole.preview.filter(|(p, _)| inside(p)),
            layer: whole.layer,
            dead: whole.dead.into_iter().filter(inside).collect(),
            region_select: false,
            grid: true,
            ghosts: whole.ghosts.into_iter().filter(|(p, _)| inside(p)).collect(),
            cited: whole.cited.into_iter().filter(inside).collect(),
            captured: whole.captured.into_iter().filter(inside).collect(),
            focus: whole.focus,
            tags: whole.tags.into_iter().filter(|(p, _)| inside(p)).collect(),
        }
    });
    let region_label = Signal::derive(move || {
        let r = region.get();
        tr!("region.canvas_label", nx = r.plane.x.len(), ny = r.plane.y.len(), nz = r.z.len())
    });
    let xyz = |p: [i64; 3]| Xyz { x: p[0], y: p[1], z: p[2] };
    let on_pick = Callback::new(move |p: [i64; 3]| ctx.tap(xyz(p)));
    // A tap inside the region (its 3D view or its plan) keeps the window where it is.
    let on_region_tap = Callback::new(move |at: Xyz| {
        if anchor.get_untracked().is_none() {
            anchor.set(Some(reference()));
        }
        tapped_inside.set_value(true);
        ctx.tap(at);
        if ctx.selection.get_untracked() != Some(at) {
            tapped_inside.set_value(false);
        }
    });
    let on_region_pick = Callback::new(move |p: [i64; 3]| on_region_tap.run(xyz(p)));
    let on_hold = Callback::new(move |p: [i64; 3]| isolated.set(Some(xyz(p))));
    // 003 §7.3: a dragged rectangle's reference point becomes the region's centre (local
    // ten lines) and its layer the active one; it is not a selection.
    let on_region = Callback::new(move |p: [i64; 3]| {
        anchor.set(Some(xyz(p)));
        ctx.layer.set(p[2]);
        mode.set(RegionMode::LocalTen);
    });
    let tab = move |p: Pane, key: &'static str| {
        view! {
            <button role="tab" aria-selected=move || (pane.get() == p).to_string() class:active=move || pane.get() == p
                data-testid=format!("pane-{}", p.name())
                on:click=move |_| {
                    pane.set(p);
                    match p {
                        Pane::Plan => show_plan.set(true),
                        Pane::Region => show_plan.set(false),
                        Pane::Whole => {}
                    }
                }>{move || tr!(key)}</button>
        }
    };
    let preset = move |p: ViewPreset| {
        let name: &'static str = p.into();
        let key = format!("views.{name}");
        view! {
            <button data-testid=format!("view-{name}") on:click=move |_| whole_turn.show(p)>
                {move || super::tr_dyn(&key)}</button>
        }
    };
    let toggle = move |on: RwSignal<bool>, key: &'static str, testid: &'static str| {
        view! {
            <button aria-pressed=move || on.get().to_string() class:active=move || on.get() data-testid=testid
                on:click=move |_| on.update(|v| *v = !*v)>{move || tr!(key)}</button>
        }
    };
    let inspected_stone =
        move || ctx.inspected.get().filter(|p| ctx.view.with(|v| v.stones.iter().any(|(q, _)| q == p)));
    let focus_text = move || {
        let f = focus.get()?;
        let at = isolated.get()?;
        Some(ctx.view.with(|v| {
            let stones =
                if f.chain.len() == 1 { tr!("views.stones_one") } else { tr!("views.stones_many", n = f.chain.len()) };
            tr!("views.chain_info", at = label(v, at), stones = stones, liberties = f.liberties.len())
        }))
    };
    view! {
        <div class="views" data-pane=move || pane.get().name()>
            <div class="pane-tabs" role="tablist" aria-label=move || tr!("views.panes")>
                {tab(Pane::Whole, "region.whole_board")}
                {tab(Pane::Plan, "region.show_plan")}
                {tab(Pane::Region, "region.show_3d")}
            </div>
            <div class="whole">
                <h2>{move || tr!("region.whole_board")}</h2>
                <BoardCanvas scene=scene on_pick=on_pick on_hold=on_hold on_region=on_region turn=whole_turn/>
                {move || focus_text().map(|t| view! {
                    <p class="focus-info" data-testid="chain-focus" role="status">{t}" "
                        <button data-testid="show-all" on:click=move |_| isolated.set(None)>{tr!("views.show_all")}</button>
                    </p>
                })}
                <div class="view-tools" role="toolbar" aria-label=move || tr!("views.tools")>
                    {preset(ViewPreset::Reset)}
                    {preset(ViewPreset::Front)}
                    {preset(ViewPreset::Top)}
                    {preset(ViewPreset::Side)}
                    {preset(ViewPreset::Isometric)}
                    {toggle(stones_only, "views.stones_only", "stones-only")}
                    {toggle(numbered, "views.numbers", "numbers")}
                    <button data-testid="isolate" disabled=move || inspected_stone().is_none()
                        on:click=move |_| isolated.set(inspected_stone())>{move || tr!("views.isolate")}</button>
                    <button data-testid="region-select" aria-pressed=move || region_select.get().to_string()
                        class:active=move || region_select.get()
                        on:click=move |_| region_select.update(|r| *r = !*r)>{move || tr!("region.drag_mode")}</button>
                    <button data-testid="match-from-region" on:click=move |_| region_turn.copy_to(whole_turn)>
                        {move || tr!("region.match_from_region")}</button>
                </div>
                <p class="hint">{move || tr!("views.hint")}" "
                    <span class="axis x">"X"</span>" "<span class="axis y">"Y"</span>" "<span class="axis z">"Z"</span></p>
            </div>
            <div class="region">
                <h2>{move || tr!("region.title")}</h2>
                <div class="buttons layer-controls">
                    <button data-testid="layer-down" on:click=move |_| step_layer(-1) aria-label=move || tr!("region.layer_down")>"Z −"</button>
                    <span class="layer" data-testid="layer">{layer_text}</span>
                    <button data-testid="layer-up" on:click=move |_| step_layer(1) aria-label=move || tr!("region.layer_up")>"Z +"</button>
                    <button data-testid="match-from-whole" on:click=move |_| whole_turn.copy_to(region_turn)>
                        {move || tr!("region.match_from_whole")}</button>
                </div>
                <div class="buttons modes" role="group">
                    {mode_button(RegionMode::LocalTen, "region.local_ten", "mode-local")}
                    {mode_button(RegionMode::WholeGroup, "region.whole_group", "mode-group")}
                    {mode_button(RegionMode::WholeBoard, "region.whole_layer", "mode-whole")}
                    {mode_button(RegionMode::Manual, "region.manual", "mode-manual")}
                </div>
                <Show when=move || mode.get() == RegionMode::Manual>
                    <ManualBounds manual=manual full=Signal::derive(full)/>
                </Show>
                <div class="buttons tabs" role="group">
                    <button data-testid="region-3d" aria-pressed=move || (!show_plan.get()).to_string()
                        class:active=move || !show_plan.get()
                        on:click=move |_| { show_plan.set(false); pane.update(|p| if *p == Pane::Plan { *p = Pane::Region }); }>
                        {move || tr!("region.show_3d")}</button>
                    <button data-testid="region-plan" aria-pressed=move || show_plan.get().to_string()
                        class:active=move || show_plan.get()
                        on:click=move |_| { show_plan.set(true); pane.update(|p| if *p == Pane::Region { *p = Pane::Plan }); }>
                        {move || tr!("region.show_plan")}</button>
                </div>
                // Both stay mounted (the WebGL context is kept); only one is shown.
                <div class="region-3d" class:hidden=move || show_plan.get()>
                    <BoardCanvas scene=region_scene on_pick=on_region_pick on_hold=on_hold turn=region_turn testid="region-canvas" label=region_label/>
                </div>
                <div class="region-plan" class:hidden=move || !show_plan.get()>
                    <LayerSvg window=window z=z classic=false testid="region" on_tap=on_region_tap/>
                    <p class="hint legend" aria-hidden="true">{move || tr!("views.adjacent_legend")}</p>
                </div>
                <p class="hint" data-testid="region-info">{counts}</p>
            </div>
        </div>
    }
}

/// Bounds typed by hand (manual mode stops group following, 003 §7.6).
#[component]
fn ManualBounds(manual: RwSignal<Option<RegionBox>>, full: Signal<RegionBox>) -> impl IntoView {
    fn span_of(r: &mut RegionBox, axis: char) -> &mut Span {
        match axis {
            'x' => &mut r.plane.x,
            'y' => &mut r.plane.y,
            _ => &mut r.z,
        }
    }
    let field = move |axis: char, lo: bool| {
        let get = move || {
            manual.get().map(|mut r| {
                let s = *span_of(&mut r, axis);
                if lo {
                    s.lo
                } else {
                    s.hi
                }
            })
        };
        view! {
            <input type="number" size="3" prop:value=move || get().map(|v| v.to_string()).unwrap_or_default()
                data-testid=format!("bound-{axis}-{}", if lo { "lo" } else { "hi" })
                aria-label=format!("{} {}", axis.to_ascii_uppercase(), if lo { "min" } else { "max" })
                on:change=move |e| {
                    let Ok(n) = event_target_value(&e).trim().parse::<i64>() else { return };
                    let mut f = full.get_untracked();
                    let b = *span_of(&mut f, axis);
                    manual.update(|m| {
                        let mut r = m.unwrap_or(f);
                        let s = span_of(&mut r, axis);
                        let n = n.clamp(b.lo, b.hi);
                        if lo { s.lo = n.min(s.hi) } else { s.hi = n.max(s.lo) }
                        *m = Some(r);
                    });
                }/>
        }
    };
    view! {
        <div class="manual-bounds">
            "X "{field('x', true)}"–"{field('x', false)}
            " Y "{field('y', true)}"–"{field('y', false)}
            " Z "{field('z', true)}"–"{field('z', false)}
        </div>
    }
}

/// The names along the axes of `b` (the whole box or the region) and of its reference point,
/// in the room's labels (003 §7.1–7.2).
fn ticks_of(v: &wire::view::RoomView, b: engine::BoxSpec) -> crate::board_view::Ticks {
    let origin = Xyz { x: b.x.start, y: b.y.start, z: b.z.start };
    let axes = [b.x, b.y, b.z].map(|a| u16::try_from(a.end - a.start + 1).unwrap_or(1));
    let along = |axis: usize| {
        // The first point of each axis is the reference point, named once at the corner.
        crate::board_view::Ticks::offsets(axes[axis])
            .into_iter()
            .filter(|i| *i > 0)
            .map(|i| {
                let mut p = origin;
                match axis {
                    0 => p.x += i64::from(i),
                    1 => p.y += i64::from(i),
                    _ => p.z += i64::from(i),
                }
                let [x, y, z] = super::panel::axis_labels(v, p);
                (i, [x, y, z][axis].clone())
            })
            .collect()
    };
    crate::board_view::Ticks { axes: [along(0), along(1), along(2)], origin: super::label(v, origin) }
}
