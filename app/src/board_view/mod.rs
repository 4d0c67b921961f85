//! The 3D board. `lattice` (the box in world space, picking among the points as drawn),
//! `orbit` (the camera and its preset views), `paint` (what is drawn: stones, marks and lines
//! as plain data), `region` (the region view's box and a drag's reference point) and
//! `gesture` (taps, drags, pinches, long presses and the region-selection drag as a state
//! machine) are plain Rust, compiled and tested natively; `renderer` draws with three-d on a
//! WebGL2 canvas and feeds the canvas' events to `gesture`, and exists only in the browser
//! build.
//!
//! A board (`BoardCanvas`) starts its renderer through `renderer::start`, a lazy function (a
//! WASM chunk of its own) called once the page has hydrated (`crate::hydrated`), and holds it
//! as a `dyn renderer::Drawing`. Why the 3D view looks as it does:
//! docs/decisions/0001-reading-the-3d-board.md.

pub mod gesture;
pub mod lattice;
pub mod orbit;
pub mod paint;
pub mod region;
#[cfg(feature = "hydrate")]
mod renderer;

use leptos::prelude::*;

use wire::events::Colour;

/// What the 3D view shows: the box, its stones (actual coordinates), the last move, the
/// selecting player's translucent preview (003 §2.4), the active layer (003 §7.6) and the
/// stones of the score statement in force taken as dead.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardScene {
    pub board: engine::BoxSpec,
    pub stones: Vec<([i64; 3], Colour)>,
    pub last: Option<[i64; 3]>,
    pub preview: Option<([i64; 3], Colour)>,
    pub layer: i64,
    pub dead: Vec<[i64; 3]>,
    /// Region-selection drag mode (003 §7.3): a drag marks a rectangle instead of rotating.
    pub region_select: bool,
    /// Draw the grid lines (the benchmark page measures their cost apart from the stones').
    pub grid: bool,
    /// Stones just captured, fading out (000 §9; empty when animations are off).
    pub ghosts: Vec<([i64; 3], Colour)>,
    /// The safe spaces the latest ruling cited (003 §3.2, §8.5): a green bead on each point.
    pub cited: Vec<[i64; 3]>,
    /// Coordinate names along the axes and at the reference point (003 §7.1–7.2).
    pub ticks: Ticks,
    /// Points the last move emptied by capture, marked until the next move.
    pub captured: Vec<[i64; 3]>,
    /// An isolated chain: everything else fades and its liberties are ringed.
    pub focus: Option<Focus>,
    /// Texts placed on screen at points: the last moves' numbers, the inspected point's name.
    pub tags: Vec<([i64; 3], String)>,
}

/// A chain shown apart from the rest of the board, and its liberties (empty neighbours).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Focus {
    pub chain: Vec<[i64; 3]>,
    pub liberties: Vec<[i64; 3]>,
}

/// Names written along the three axes from the reference point (003 §7.1–7.2), in the
/// room's labels: per axis the 0-based offsets named and their names, and the reference
/// point's own name. Drawn as HTML over the canvas, so they stay upright at any rotation.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Ticks {
    pub axes: [Vec<(u16, String)>; 3],
    pub origin: String,
}

impl Ticks {
    /// The offsets to name along an axis of `n` points: every one up to 7, else about six
    /// evenly spaced, always the first and the last.
    pub fn offsets(n: u16) -> Vec<u16> {
        if n <= 7 {
            return (0..n).collect();
        }
        let step = (n - 1).div_ceil(6);
        let mut out: Vec<u16> = (0..n).step_by(step as usize).collect();
        if out.last() != Some(&(n - 1)) {
            // Keep the last; drop a neighbour that would crowd it.
            if out.last().is_some_and(|l| n - 1 - l < step / 2 + 1) {
                out.pop();
            }
            out.push(n - 1);
        }
        out
    }
}

impl BoardScene {
    /// An empty cube of `size` lines per axis from 1.
    pub fn empty_cube(size: u16) -> BoardScene {
        let a = engine::Axis::one_to(size as i64);
        BoardScene {
            board: engine::BoxSpec { x: a, y: a, z: a },
            stones: Vec::new(),
            last: None,
            preview: None,
            layer: 1,
            dead: Vec::new(),
            region_select: false,
            grid: true,
            ghosts: Vec::new(),
            cited: Vec::new(),
            ticks: Ticks::default(),
            captured: Vec::new(),
            focus: None,
            tags: Vec::new(),
        }
    }
    /// Whether actual point `p` lies in the box.
    pub fn contains(&self, p: [i64; 3]) -> bool {
        let b = self.board;
        (b.x.start..=b.x.end).contains(&p[0])
            && (b.y.start..=b.y.end).contains(&p[1])
            && (b.z.start..=b.z.end).contains(&p[2])
    }
    pub fn dims(&self) -> [u16; 3] {
        let n = |a: engine::Axis| (a.end - a.start + 1).clamp(1, u16::MAX as i64) as u16;
        [n(self.board.x), n(self.board.y), n(self.board.z)]
    }
    /// 0-based offsets of an actual coordinate.
    pub fn offsets(&self, p: [i64; 3]) -> [u16; 3] {
        [(p[0] - self.board.x.start) as u16, (p[1] - self.board.y.start) as u16, (p[2] - self.board.z.start) as u16]
    }
    pub fn actual(&self, o: [u16; 3]) -> [i64; 3] {
        [self.board.x.start + o[0] as i64, self.board.y.start + o[1] as i64, self.board.z.start + o[2] as i64]
    }
}

pub use orbit::ViewPreset;

/// Links a view's orientation to buttons outside it (003 §7.6: the direction-match buttons
/// copy the direction only; each view keeps its own zoom). `now` is kept up to date by the
/// renderer as the view turns; setting `set_to` turns the view to that yaw and pitch;
/// `preset` turns it to a preset view (numbered, so the same button works twice).
#[derive(Debug, Clone, Copy)]
pub struct ViewTurn {
    pub now: StoredValue<Option<[f32; 2]>>,
    pub set_to: RwSignal<Option<[f32; 2]>>,
    pub preset: RwSignal<Option<(ViewPreset, u32)>>,
}

impl ViewTurn {
    pub fn new() -> ViewTurn {
        ViewTurn { now: StoredValue::new(None), set_to: RwSignal::new(None), preset: RwSignal::new(None) }
    }
    /// Turns the view to `p` and shows the whole box.
    pub fn show(self, p: ViewPreset) {
        self.preset.update(|v| *v = Some((p, v.map_or(0, |(_, n)| n + 1))));
    }
    /// Turns `other` to this view's direction.
    pub fn copy_to(self, other: ViewTurn) {
        if let Some(o) = self.now.get_value() {
            other.set_to.set(Some(o));
        }
    }
}

impl Default for ViewTurn {
    fn default() -> Self {
        ViewTurn::new()
    }
}

/// A canvas showing a box in 3D: drag (any button) to rotate, wheel or pinch to zoom, arrow
/// keys and ± on the keyboard; a tap (a press that moves at most `gesture::TAP_SLOP` px, not
/// a drag) on a point calls `on_pick` with its actual coordinates. In the scene's
/// region-selection mode a drag draws a rectangle instead and its reference point goes to
/// `on_region`. Server-rendered as a plain canvas with a text fallback; after hydration
/// the WASM renderer takes it over.
#[component]
pub fn BoardCanvas(
    #[prop(default = 19)] size: u16,
    #[prop(optional, into)] scene: Option<Signal<BoardScene>>,
    #[prop(optional)] on_pick: Option<Callback<[i64; 3]>>,
    /// A long press on a stone: its point.
    #[prop(optional)]
    on_hold: Option<Callback<[i64; 3]>>,
    /// In region-selection mode: the reference point of the dragged rectangle.
    #[prop(optional)]
    on_region: Option<Callback<[i64; 3]>>,
    /// Turn the board a little every frame (the frame-time benchmark page).
    #[prop(optional)]
    spin: bool,
    #[prop(optional)] turn: Option<ViewTurn>,
    /// Multisampled edges (the benchmark page can switch them off to measure their cost).
    #[prop(default = true)]
    antialias: bool,
    #[prop(default = "board-canvas")] testid: &'static str,
    /// The canvas' accessible name (default: the box's size).
    #[prop(optional, into)]
    label: Option<Signal<String>>,
) -> impl IntoView {
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let scene = scene.unwrap_or_else(|| Signal::stored(BoardScene::empty_cube(size)));
    let dims = scene.with_untracked(|s| s.dims());
    #[cfg(feature = "hydrate")]
    {
        let handle = StoredValue::new_local(None::<Box<dyn renderer::Drawing>>);
        Effect::new(move |_| {
            if let Some(el) = canvas.get() {
                let on_turn = turn.map(|t| Callback::new(move |o: [f32; 2]| t.now.set_value(Some(o))));
                leptos::task::spawn_local(async move {
                    // The page first, then the renderer's chunk.
                    crate::hydrated::hydrated().await;
                    let Some(current) = scene.try_get_untracked() else { return };
                    let start = renderer::Start {
                        canvas: el,
                        scene: current,
                        on_pick,
                        on_hold,
                        on_region,
                        on_turn,
                        spin,
                        antialias,
                    };
                    match renderer::start(start).await {
                        Ok(h) => {
                            // Moves may have come while the renderer's chunk was loading.
                            if let Some(now) = scene.try_get_untracked() {
                                h.set_scene(&now);
                            }
                            if let Some(o) = turn.and_then(|t| t.set_to.try_get_untracked().flatten()) {
                                h.set_orientation(o);
                            }
                            let mut h = Some(h);
                            handle.try_update_value(|slot| *slot = h.take());
                            // The board left the page while the chunk was loading.
                            if let Some(orphan) = h {
                                orphan.stop();
                            }
                        }
                        Err(e) => leptos::logging::error!("board renderer: {e}"),
                    }
                });
            }
        });
        Effect::new(move |_| {
            let s = scene.get();
            handle.with_value(|h| {
                if let Some(h) = h {
                    h.set_scene(&s);
                }
            });
        });
        Effect::new(move |_| {
            let Some(o) = turn.and_then(|t| t.set_to.get()) else { return };
            handle.with_value(|h| {
                if let Some(h) = h {
                    h.set_orientation(o);
                }
            });
        });
        Effect::new(move |_| {
            let Some((p, _)) = turn.and_then(|t| t.preset.get()) else { return };
            handle.with_value(|h| {
                if let Some(h) = h {
                    h.show(p);
                }
            });
        });
        on_cleanup(move || {
            if let Some(h) = handle.try_update_value(|h| h.take()).flatten() {
                h.stop();
            }
        });
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (on_pick, on_hold, on_region, spin, turn, antialias);
    let [nx, ny, nz] = dims;
    // Re-drawn only when the names change, not with every stone.
    let ticks = Memo::new(move |_| scene.with(|s| s.ticks.clone()));
    let tags = Memo::new(move |_| scene.with(|s| paint::tags(s).into_iter().map(|t| t.text).collect::<Vec<_>>()));
    view! {
        <div class="canvas-wrap">
            <canvas
                node_ref=canvas
                class="board-canvas"
                data-testid=testid
                data-frames="0"
                role="img"
                aria-label=move || label.map(|l| l.get()).unwrap_or_else(|| crate::tr!("board.canvas_label", nx = nx, ny = ny, nz = nz))
                tabindex="0"
            >
                {move || crate::tr!("board.needs_webgl2")}
            </canvas>
            // Direction letters, placed over the arrow tips by the renderer.
            <span class="axis-label x" aria-hidden="true">"X"</span>
            <span class="axis-label y" aria-hidden="true">"Y"</span>
            <span class="axis-label z" aria-hidden="true">"Z"</span>
            // Coordinate names along the axes and the reference point's, placed by the renderer.
            {move || ticks.with(|t| {
                let origin = (!t.origin.is_empty()).then(|| view! {
                    <span class="tick origin" data-axis="o" data-i="0" data-n="0" data-testid="tick-origin">{t.origin.clone()}</span>
                });
                let first = usize::from(!t.origin.is_empty());
                let along = ["x", "y", "z"]
                    .into_iter()
                    .zip(t.axes.iter())
                    .flat_map(|(axis, list)| list.iter().map(move |(i, name)| (axis, *i, name.clone())))
                    .enumerate()
                    .map(|(n, (axis, i, name))| view! {
                        <span class="tick" data-axis=axis data-i=i.to_string() data-n=(n + first).to_string()
                            data-testid=format!("tick-{axis}") aria-hidden="true">{name}</span>
                    })
                    .collect_view();
                view! { {origin}{along} }
            })}
            // Move numbers and a named point, placed on their points by the renderer.
            {move || tags.with(|t| t.iter().enumerate().map(|(n, text)| view! {
                <span class="board-tag" data-n=n.to_string() data-testid="board-tag" aria-hidden="true">{text.clone()}</span>
            }).collect_view())}
            <div class="drag-rect" aria-hidden="true"></div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::Ticks;

    #[test]
    fn ticks_name_short_axes_fully_and_long_ones_evenly_with_both_ends() {
        assert_eq!(Ticks::offsets(1), vec![0]);
        assert_eq!(Ticks::offsets(7), (0..7).collect::<Vec<_>>());
        assert_eq!(Ticks::offsets(19), vec![0, 3, 6, 9, 12, 15, 18]);
        let t = Ticks::offsets(25);
        assert_eq!((t[0], *t.last().unwrap()), (0, 24));
        assert!(t.len() <= 8);
        for n in 1..=25 {
            let t = Ticks::offsets(n);
            assert_eq!((t[0], *t.last().unwrap()), (0, n - 1), "{n}");
            assert!(t.windows(2).all(|w| w[0] < w[1]), "{n}");
        }
    }
}
