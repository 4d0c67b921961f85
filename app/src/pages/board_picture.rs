//! A flat board drawn as a picture (no room behind it): the rules page's diagrams and the
//! SGF viewer's positions, in the same SVG classes as the room's flat board so they look alike.

use crate::sync_hydrate::IntoAnySync;
use leptos::prelude::*;

use wire::events::Colour;

const CELL: f64 = 40.0;

/// One point of a picture. From ASCII (rows from the top, as KataGo's tests draw them): `X`
/// black, `O` white, `D` a dead white stone, `+`/`-` Black's/White's territory, a lowercase
/// letter a marked empty point, `.` empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    Empty,
    Stone(Colour),
    /// The last move's stone, with the room's marker.
    Last(Colour),
    DeadWhite,
    Territory(Colour),
    Mark(char),
}

pub fn parse(rows: &[&str]) -> Vec<Vec<Cell>> {
    rows.iter()
        .map(|r| {
            r.chars()
                .filter(|c| !c.is_whitespace())
                .map(|c| match c {
                    'X' => Cell::Stone(Colour::Black),
                    'O' => Cell::Stone(Colour::White),
                    'D' => Cell::DeadWhite,
                    '+' => Cell::Territory(Colour::Black),
                    '-' => Cell::Territory(Colour::White),
                    c if c.is_ascii_lowercase() => Cell::Mark(c),
                    _ => Cell::Empty,
                })
                .collect()
        })
        .collect()
}

/// The picture of `cells` (rows from the top); `coords` names the columns A–T without I and
/// the rows from the bottom (000 §3).
#[component]
pub fn BoardPicture(
    #[prop(into)] cells: Signal<Vec<Vec<Cell>>>,
    #[prop(into)] label: Signal<String>,
    testid: &'static str,
    #[prop(optional)] coords: bool,
) -> impl IntoView {
    let dims = move || cells.with(|c| (c.first().map_or(0, Vec::len), c.len()));
    let at = |i: usize| (i + 1) as f64 * CELL;
    let grid = move || {
        let (w, h) = dims();
        let mut lines = Vec::new();
        for x in 0..w {
            lines.push(view! { <line x1=at(x) y1=at(0) x2=at(x) y2=at(h.saturating_sub(1)) class="grid" class:edge={x == 0 || x + 1 == w}/> });
        }
        for y in 0..h {
            lines.push(view! { <line x1=at(0) y1=at(y) x2=at(w.saturating_sub(1)) y2=at(y) class="grid" class:edge={y == 0 || y + 1 == h}/> });
        }
        lines
    };
    let marks = move || {
        cells.with(|cells| {
            let mut out = Vec::new();
            for (y, row) in cells.iter().enumerate() {
                for (x, c) in row.iter().enumerate() {
                    let (cx, cy) = (at(x), at(y));
                    let stone = |colour: Colour| if colour == Colour::Black { "stone black" } else { "stone white" };
                    out.push(match *c {
                        Cell::Empty => ().into_any_sync(),
                        Cell::Stone(colour) => view! { <circle class=stone(colour) cx=cx cy=cy r="18"/> }.into_any_sync(),
                        Cell::Last(colour) => view! {
                            <circle class=stone(colour) cx=cx cy=cy r="18" data-testid="picture-last"/>
                            <text class="marker" class:on-black={colour == Colour::Black} x=cx y=cy + 6.0 text-anchor="middle">"●"</text>
                        }
                        .into_any_sync(),
                        Cell::DeadWhite => view! {
                            <g class="stone-g candidate"><circle class="stone white" cx=cx cy=cy r="18"/></g>
                            <text class="marker" x=cx y=cy + 6.0 text-anchor="middle">"×"</text>
                        }
                        .into_any_sync(),
                        Cell::Territory(colour) => {
                            let cls = if colour == Colour::Black { "terr black" } else { "terr white" };
                            view! { <rect class=cls x=cx - 6.0 y=cy - 6.0 width="12" height="12"/> }.into_any_sync()
                        }
                        Cell::Mark(m) => view! {
                            <circle class="diagram-spot" cx=cx cy=cy r="13"/>
                            <text class="diagram-mark" x=cx y=cy + 6.0 text-anchor="middle">{m.to_string()}</text>
                        }
                        .into_any_sync(),
                    });
                }
            }
            out
        })
    };
    let labels = move || {
        let (w, h) = dims();
        coords.then(|| {
            let mut out = Vec::new();
            for (x, l) in "ABCDEFGHJKLMNOPQRSTUVWXYZ".chars().take(w).enumerate() {
                out.push(view! { <text class="coord" x=at(x) y=CELL * 0.45 text-anchor="middle">{l.to_string()}</text> });
            }
            for y in 0..h {
                out.push(view! { <text class="coord" x=CELL * 0.45 y=at(y) + 5.0 text-anchor="middle">{(h - y).to_string()}</text> });
            }
            out
        })
    };
    let view_box = move || {
        let (w, h) = dims();
        format!("0 0 {} {}", (w + 1) as f64 * CELL, (h + 1) as f64 * CELL)
    };
    view! {
        <svg class="layer-board picture" viewBox=view_box role="img" aria-label=move || label.get() data-testid=testid>
            <rect class="wood" x="0" y="0" width="100%" height="100%"/>
            {grid}
            {labels}
            {marks}
        </svg>
    }
}
