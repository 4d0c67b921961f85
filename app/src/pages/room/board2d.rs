//! A layer of the board drawn as SVG: the whole flat board of the Classic preset (star
//! points, A–T columns without I, rows counted from the bottom; 000 §3, §9) and the region
//! view of a box (the active Z layer inside a window; 003 §7.3–7.6). X runs left to right
//! and Y top to bottom (003 §7.1). Every intersection is a generous hit target; stones carry
//! a text marker besides their colour so that marks never rely on colour alone.

use leptos::prelude::*;

use super::{label, RoomCtx};
use crate::{
    board_view::region::{Span, Window},
    tr,
};
use wire::events::{Colour, Event, MarkKind, Xyz};

const CELL: f64 = 40.0;

/// The whole flat board (Classic).
#[component]
pub fn FlatBoard() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let window = Signal::derive(move || {
        ctx.view.with(|v| {
            let b = v.settings.board;
            Window { x: Span { lo: b.x.start, hi: b.x.end }, y: Span { lo: b.y.start, hi: b.y.end } }
        })
    });
    let z = Signal::derive(move || ctx.view.with(|v| v.settings.board.z.start));
    // 000 §9: on a phone a finger hides the point it chooses on a 13×13 or 19×19 board; a
    // magnifier above the finger shows the intersections under it while it touches.
    let loupe = RwSignal::new(None::<Loupe>);
    let lines = move || ctx.view.with(|v| v.settings.board.x.end - v.settings.board.x.start + 1);
    let wrap = NodeRef::<leptos::html::Div>::new();
    let follow = move |e: leptos::ev::PointerEvent| {
        if e.pointer_type() != "touch" || lines() < 13 {
            return;
        }
        #[cfg(feature = "hydrate")]
        {
            let Some(div) = wrap.get() else { return };
            let Some(svg) = div.first_element_child() else { return };
            let r = svg.get_bounding_client_rect();
            let d = div.get_bounding_client_rect();
            if r.width() <= 0.0 {
                return;
            }
            let units = (lines() + 1) as f64 * CELL;
            let scale = units / r.width();
            let (ux, uy) = ((e.client_x() as f64 - r.left()) * scale, (e.client_y() as f64 - r.top()) * scale);
            // Centred on the nearest intersection: the one a tap there would choose.
            let snap = |u: f64| (u / CELL).round().clamp(1.0, lines() as f64) * CELL;
            loupe.set(Some(Loupe {
                x: snap(ux),
                y: snap(uy),
                left: e.client_x() as f64 - d.left(),
                top: e.client_y() as f64 - d.top(),
            }));
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = (e, wrap);
    };
    view! {
        <div class="flat-wrap" node_ref=wrap
            on:pointerdown=follow on:pointermove=follow
            on:pointerup=move |_| loupe.set(None) on:pointercancel=move |_| loupe.set(None)
            on:pointerleave=move |_| loupe.set(None)>
            <LayerSvg window=window z=z classic=true testid="board" on_tap=Callback::new(move |at| ctx.tap(at))/>
            {move || loupe.get().map(|l| view! {
                <svg class="loupe" data-testid="loupe" aria-hidden="true"
                    viewBox=format!("{} {} {} {}", l.x - LOUPE_R, l.y - LOUPE_R, 2.0 * LOUPE_R, 2.0 * LOUPE_R)
                    style=format!("left: {:.0}px; top: {:.0}px", l.left, l.top)>
                    <use href="#flat-board-content"/>
                    <circle class="loupe-aim" cx=l.x cy=l.y r="21"/>
                </svg>
            })}
        </div>
    }
}

/// The magnifier's centre (board units, on an intersection) and the finger (px in the wrap).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Loupe {
    x: f64,
    y: f64,
    left: f64,
    top: f64,
}

/// Half the width of what the magnifier shows, in board units (1.75 intersections).
const LOUPE_R: f64 = 70.0;

// The board's colours also as presentation attributes: the magnifier shows the board through
// `<use>`, whose copy the page's `.layer-board …` rules do not reach (the CSS, which matches
// the board itself, says the same and adds the edges, hover and high contrast).
const INK: &str = "#3b2a12";

fn stone_fill(c: Colour) -> &'static str {
    match c {
        Colour::Black => "#16161a",
        Colour::White => "#f4f2ea",
    }
}

fn stone_edge(c: Colour) -> &'static str {
    match c {
        Colour::Black => "#000",
        // 3:1 against the wood (#6b6659 was 2.9:1): a white stone's edge is what sets it off.
        Colour::White => "#4d473b",
    }
}

/// The edge of the small marks of neighbouring layers: the opposite tone, so that a black
/// mark reads on a black stone's shadow and a white one on the wood.
fn stone_edge_strong(c: Colour) -> &'static str {
    match c {
        Colour::Black => "#f4f2ea",
        Colour::White => "#16161a",
    }
}

/// One layer inside `window`, drawn as a board; a tap on a point goes to `on_tap`. It shows
/// the position the room's boards show (live, or stepped back); on a box, the stones on the
/// layers just behind and in front are marked on their points (▲ behind, ▼ in front).
#[component]
pub fn LayerSvg(
    window: Signal<Window>,
    z: Signal<i64>,
    classic: bool,
    testid: &'static str,
    on_tap: Callback<Xyz>,
) -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let dims = move || {
        let w = window.get();
        (w.x.len() as f64, w.y.len() as f64)
    };
    let view_box = move || {
        let (nx, ny) = dims();
        format!("0 0 {} {}", (nx + 1.0) * CELL, (ny + 1.0) * CELL)
    };
    let px = move |x: i64| (x - window.get().x.lo + 1) as f64 * CELL;
    let py = move |y: i64| (y - window.get().y.lo + 1) as f64 * CELL;
    let board = move || ctx.view.with(|v| v.settings.board);
    let geometry = move || ctx.view.with(|v| v.settings.geometry().ok());

    let grid = move || {
        let w = window.get();
        let b = board();
        let mut lines = Vec::new();
        for x in w.x.lo..=w.x.hi {
            // Lines at the board's edge are drawn bolder; inner lines stay visible (003 §7.5).
            let edge = x == b.x.start || x == b.x.end;
            lines.push(view! {
                <line x1=px(x) y1=py(w.y.lo) x2=px(x) y2=py(w.y.hi) class:edge=edge class="grid" stroke=INK stroke-width="1.2"/>
            });
        }
        for y in w.y.lo..=w.y.hi {
            let edge = y == b.y.start || y == b.y.end;
            lines.push(view! {
                <line x1=px(w.x.lo) y1=py(y) x2=px(w.x.hi) y2=py(y) class:edge=edge class="grid" stroke=INK stroke-width="1.2"/>
            });
        }
        lines.collect_view()
    };
    let stars = move || {
        if !classic {
            return Vec::new();
        }
        let Some(g) = geometry() else { return Vec::new() };
        engine::labels::star_points(&g)
            .into_iter()
            .filter_map(|p| g.coords_of(p))
            .map(|c| view! { <circle class="star" cx=px(c.x) cy=py(c.y) r="4" fill=INK/> })
            .collect::<Vec<_>>()
    };
    let labels = move || {
        let w = window.get();
        let g = geometry();
        let names = ctx.view.with(super::label_set);
        let named = |a: engine::AxisName, k: i64| names.as_ref().and_then(|n| n.axis(a).get(k as usize).cloned());
        let b = board();
        let mut out = Vec::new();
        for x in w.x.lo..=w.x.hi {
            let text = if classic && names.is_none() {
                g.as_ref()
                    .and_then(|g| g.index_of(x, w.y.lo, z.get()).and_then(|p| engine::labels::classic_vertex(g, p)))
                    .map(|s| s.trim_end_matches(|c: char| c.is_ascii_digit()).to_string())
                    .unwrap_or_default()
            } else {
                named(engine::AxisName::X, x - b.x.start).unwrap_or_else(|| x.to_string())
            };
            out.push(view! { <text class="coord" x=px(x) y=CELL * 0.45 text-anchor="middle" fill=INK>{text}</text> });
        }
        for y in w.y.lo..=w.y.hi {
            let text = if classic && names.is_none() {
                (b.y.end - y + 1).to_string()
            } else {
                named(engine::AxisName::Y, y - b.y.start).unwrap_or_else(|| y.to_string())
            };
            out.push(
                view! { <text class="coord" x=CELL * 0.45 y=py(y) + 5.0 text-anchor="middle" fill=INK>{text}</text> },
            );
        }
        out
    };
    // Territory and neutral points in scoring (proposals until agreed, 003 §3.5).
    let ownership = move || {
        ctx.view.with(|v| {
            let Some(s) = &v.scoring else { return Vec::new() };
            let w = window.get();
            let b = v.settings.board;
            let (nx, ny) = (b.x.end - b.x.start + 1, b.y.end - b.y.start + 1);
            let chars: Vec<char> = s.ownership.chars().collect();
            let mut out = Vec::new();
            for y in w.y.lo..=w.y.hi {
                for x in w.x.lo..=w.x.hi {
                    let i = ((z.get() - b.z.start) * ny * nx + (y - b.y.start) * nx + (x - b.x.start)) as usize;
                    let class = match chars.get(i) {
                        Some('B') => "terr black",
                        Some('W') => "terr white",
                        Some('s') | Some('u') => "terr neutral",
                        _ => continue,
                    };
                    out.push(view! { <rect class=class x=px(x) - 5.0 y=py(y) - 5.0 width="10" height="10"/> });
                }
            }
            out
        })
    };
    let stones = move || {
        let shown = ctx.shown.get();
        let live = shown.back.is_none();
        ctx.view.with(|v| {
            let w = window.get();
            let last = shown.last;
            let marks = v.scoring.as_ref().filter(|_| live).map(|s| s.marks.clone()).unwrap_or_default();
            let dead: Vec<Xyz> =
                v.scoring.as_ref().filter(|_| live).map(|s| s.score.dead_stones.clone()).unwrap_or_default();
            let atari: Vec<Xyz> = v.hints.as_ref().filter(|_| live).map(|h| h.atari.concat()).unwrap_or_default();
            shown
                .stones
                .iter()
                .filter(|(p, _)| p.z == z.get() && w.contains(p.x, p.y))
                .map(|(p, c)| {
                    let cls = match c {
                        Colour::Black => "stone black",
                        Colour::White => "stone white",
                    };
                    let is_last = last == Some(*p);
                    let marked = marks.iter().find(|m| m.at == *p).map(|m| m.kind)
                        .or_else(|| dead.contains(p).then_some(MarkKind::Dead));
                    let in_atari = atari.contains(p);
                    let marker = match marked {
                        Some(MarkKind::Dead) => "×",
                        Some(MarkKind::Unresolved) => "?",
                        Some(MarkKind::Seki | MarkKind::Neutral) => "",
                        None if in_atari => "!",
                        None if is_last => "●",
                        None => "",
                    };
                    let (cx, cy) = (px(p.x), py(p.y));
                    view! {
                        <g class="stone-g" class:candidate=marked.is_some() class:atari=in_atari
                           data-testid=format!("stone-{}-{}-{}", p.x, p.y, p.z)>
                            <circle class=cls cx=cx cy=cy r="18" fill=stone_fill(*c) stroke=stone_edge(*c)/>
                            <text class="marker" class:on-black=*c == Colour::Black x=cx y=cy + 6.0 text-anchor="middle">{marker}</text>
                        </g>
                    }
                })
                .collect::<Vec<_>>()
        })
    };
    // Stones on the neighbouring layers of a box: a small triangle on the point, ▲ for the
    // layer behind (Z − 1), ▼ for the one in front (Z + 1), in the stone's colour.
    let adjacent = move || {
        if classic {
            return Vec::new();
        }
        let shown = ctx.shown.get();
        let w = window.get();
        let zz = z.get();
        let here: std::collections::HashSet<(i64, i64)> =
            shown.stones.iter().filter(|(p, _)| p.z == zz).map(|(p, _)| (p.x, p.y)).collect();
        shown
            .stones
            .iter()
            .filter(|(p, _)| (p.z == zz - 1 || p.z == zz + 1) && w.contains(p.x, p.y) && !here.contains(&(p.x, p.y)))
            .map(|(p, c)| {
                let (cx, cy) = (px(p.x), py(p.y));
                let behind = p.z < zz;
                // Behind: up and to the left of the point; in front: down and to the right.
                let d = if behind {
                    format!("M{} {}l-8 12h16z", cx - 9.0, cy - 18.0)
                } else {
                    format!("M{} {}l-8 -12h16z", cx + 9.0, cy + 18.0)
                };
                let cls = match c {
                    Colour::Black => "adjacent black",
                    Colour::White => "adjacent white",
                };
                view! {
                    <path class=cls d=d fill=stone_fill(*c) stroke=stone_edge_strong(*c)
                        data-testid=format!("adjacent-{}-{}-{}", p.x, p.y, p.z)/>
                }
            })
            .collect::<Vec<_>>()
    };
    // Life-space candidates in scoring (003 §3.2, §3.9): proposals, drawn as small rings.
    let life = move || {
        ctx.view.with(|v| {
            let w = window.get();
            let Some(s) = &v.scoring else { return Vec::new() };
            s.suggestions
                .life_spaces
                .iter()
                .flat_map(|(_, spaces)| spaces.iter().flatten())
                .filter(|p| p.z == z.get() && w.contains(p.x, p.y))
                .map(|p| view! { <circle class="life" cx=px(p.x) cy=py(p.y) r="7"/> })
                .collect::<Vec<_>>()
        })
    };
    // The safe spaces the latest ruling cited (003 §3.2, §8.5), for everyone to see.
    let cited = move || {
        ctx.view.with(|v| {
            let w = window.get();
            super::referee::cited_points(v)
                .into_iter()
                .filter(|p| p.z == z.get() && w.contains(p.x, p.y))
                .map(|p| {
                    view! {
                        <rect class="cited-space" x=px(p.x) - 9.0 y=py(p.y) - 9.0 width="18" height="18" rx="3"
                            data-testid=format!("cited-{}-{}-{}", p.x, p.y, p.z)/>
                    }
                })
                .collect::<Vec<_>>()
        })
    };
    let ghosts = move || {
        let w = window.get();
        ctx.ghosts
            .get()
            .into_iter()
            .filter(|(p, _)| p.z == z.get() && w.contains(p.x, p.y))
            .map(|(p, c)| {
                let cls = if c == Colour::Black { "stone black ghost" } else { "stone white ghost" };
                view! { <circle class=cls cx=px(p.x) cy=py(p.y) r="18" data-testid="ghost"/> }
            })
            .collect::<Vec<_>>()
    };
    let preview = move || {
        let sel = ctx.selection.get()?;
        if ctx.back.get() > 0 {
            return None;
        }
        let w = window.get();
        if sel.z != z.get() || !w.contains(sel.x, sel.y) {
            return None;
        }
        let colour = ctx.view.with(|v| v.your_colour.unwrap_or(v.to_move));
        let cls = if colour == Colour::Black { "stone black preview" } else { "stone white preview" };
        Some(view! {
            // A preview is a translucent stone in a dashed dark ring: the ring is what stands
            // out from the wood for a white preview (3:1; the stone alone was 1.5:1), and no
            // placed stone has one.
            <g data-testid="preview">
                <circle class=cls cx=px(sel.x) cy=py(sel.y) r="17" fill=stone_fill(colour) fill-opacity="0.7"/>
                <circle class="preview-ring" cx=px(sel.x) cy=py(sel.y) r="18" fill="none" stroke=INK stroke-width="3.5" stroke-dasharray="7 4"/>
            </g>
        })
    };
    let illegal = move || {
        ctx.view.with(|v| {
            let w = window.get();
            v.hints
                .as_ref()
                .map(|h| {
                    h.illegal
                        .iter()
                        .filter(|(p, _)| p.z == z.get() && w.contains(p.x, p.y))
                        .map(|(p, _)| view! { <path class="illegal" d=format!("M{} {}l8 8m0 -8l-8 8", px(p.x) - 4.0, py(p.y) - 4.0)/> })
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    };
    // 000 §9: in scoring, the group the opponent marked or unmarked last is ringed, so that a
    // player sees what changed before agreeing again.
    let changed = move || {
        let me = ctx.my_colour()?;
        let stones = ctx.view.with(|v| {
            if v.phase != wire::commands::RoomPhase::Scoring {
                return None;
            }
            ctx.events.with(|es| {
                es.iter().rev().find_map(|e| match &e.event {
                    Event::MarkAdded { colour, stones, .. } => Some((*colour, stones.clone())),
                    Event::MarkWithdrawn { colour, mark } => Some((*colour, super::chain_of(v, mark.at))),
                    _ => None,
                })
            })
        })?;
        let (by, stones) = stones;
        let w = window.get();
        (by != me).then(|| {
            stones
                .into_iter()
                .filter(|p| p.z == z.get() && w.contains(p.x, p.y))
                .map(|p| view! {
                    <circle class="changed" cx=px(p.x) cy=py(p.y) r="23" data-testid=format!("changed-{}-{}-{}", p.x, p.y, p.z)/>
                })
                .collect::<Vec<_>>()
        })
    };
    // Transparent hit targets on every intersection, drawn last so they get the pointer.
    let hits = move || {
        let w = window.get();
        let zz = z.get();
        let mut out = Vec::new();
        for y in w.y.lo..=w.y.hi {
            for x in w.x.lo..=w.x.hi {
                let at = Xyz { x, y, z: zz };
                let name = ctx.view.with_untracked(|v| label(v, at));
                out.push(view! {
                    <circle class="hit" cx=px(x) cy=py(y) r="19" fill="transparent"
                        data-testid=format!("pt-{x}-{y}-{zz}")
                        aria-label=name
                        on:click=move |_| on_tap.run(at)/>
                });
            }
        }
        out
    };
    view! {
        <svg class="layer-board" class:classic=classic viewBox=view_box data-testid=testid role="group"
             aria-label=move || tr!("room.board_label")>
            <g id=classic.then_some("flat-board-content")>
            <rect class="wood" x="0" y="0" width="100%" height="100%" fill="#d9b26f"/>
            {grid}
            {stars}
            {labels}
            {ownership}
            {adjacent}
            {stones}
            {illegal}
            {life}
            {cited}
            {ghosts}
            {preview}
            {changed}
            {hits}
            </g>
        </svg>
    }
}
