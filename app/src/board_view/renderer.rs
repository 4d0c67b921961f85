//! Draws the box with three-d on the canvas' own WebGL2 context (no winit): the surface
//! grid lines as thin instanced cylinders and the inner ones as GL lines, the three reference
//! arrows (their X/Y/Z letters are HTML placed over the tips), stones as sphere impostors
//! (camera-facing squares shaded as spheres: one draw call per colour and shade), markers on
//! the last move and on dead stones, the translucent preview, captured stones fading out and
//! the active layer's frame. Stones that cannot be seen (inside a full 3×3×3 block) and inner
//! lines through only such stones are not drawn.
//!
//! Input: the canvas' pointer, wheel and key events are translated into `gesture` inputs,
//! and its intents applied here: orbit and zoom, a tap picked with `lattice::pick`, a
//! region-selection rectangle judged by `region::drag_reference`. Frames are drawn only when
//! something changed (every frame while spinning or while a capture fades).

use std::{cell::RefCell, rc::Rc, sync::Arc};

use leptos::prelude::{Callable, Callback};
use three_d::{
    vec3, AmbientLight, ClearState, ColorMapping, ColorMaterial, Context, CpuMaterial, CpuMesh, DirectionalLight,
    EffectMaterialId, Gm, InstancedMesh, Instances, Light, Mat4, Material, MaterialType, Mesh, PhysicalMaterial,
    Program, Quaternion, RenderStates, RenderTarget, Sprites, Srgba, Vec3, Viewer, Viewport,
};
use wasm_bindgen::{closure::Closure, JsCast};
use web_sys::{HtmlCanvasElement, PointerEvent, WebGl2RenderingContext, WheelEvent};

use super::{
    gesture::{self, Gesture, Input, Intent},
    lattice::{axes, pick, points_on, segments, view_radius, world_pos, LineKind, Segment},
    orbit::Orbit,
    BoardScene,
};
use crate::matches::events::Colour;

const BACKGROUND: [u8; 3] = super::preview::BACKGROUND;
const SURFACE: Srgba = Srgba::new_opaque(112, 140, 196);
/// Interior lines are dimmer so the box reads as a volume rather than a wall of lines.
const INTERIOR: Srgba = Srgba::new_opaque(46, 60, 96);
const AXIS_X: Srgba = Srgba::new_opaque(239, 68, 68);
const AXIS_Y: Srgba = Srgba::new_opaque(34, 197, 94);
const AXIS_Z: Srgba = Srgba::new_opaque(59, 130, 246);
const BLACK_STONE: Srgba = Srgba::new_opaque(24, 24, 28);
const WHITE_STONE: Srgba = Srgba::new_opaque(236, 236, 230);
const LAYER: Srgba = Srgba::new_opaque(250, 204, 21);
const LAST: Srgba = Srgba::new_opaque(239, 68, 68);
/// The dead-stone candidate's cube (003 §3.4).
const DEAD_MARK: Srgba = Srgba::new_opaque(249, 115, 22);
/// Stone radius in point spacings.
const STONE_R: f32 = 0.36;

struct Scene {
    canvas: HtmlCanvasElement,
    context: Context,
    lines: Gm<InstancedMesh, ColorMaterial>,
    inner_lines: Gm<InnerLines, ColorMaterial>,
    arrows: Vec<Gm<Mesh, ColorMaterial>>,
    /// One set of sprites per colour and shade (active layer or dimmed).
    stones: Vec<Gm<Sprites, StoneMaterial>>,
    markers: Option<Gm<InstancedMesh, ColorMaterial>>,
    /// The selecting player's translucent stone and the halo that keeps it visible.
    preview: Vec<Gm<Mesh, PhysicalMaterial>>,
    /// Dead-stone candidates (003 §3.4): an outline shell around each, in its own colour's
    /// opposite, and a cube marker — a shape no other marker has.
    dead_shells: Vec<Gm<Mesh, PhysicalMaterial>>,
    dead_marks: Option<Gm<InstancedMesh, ColorMaterial>>,
    /// Captured stones fading out, and when the fade began (ms since the epoch).
    ghosts: Vec<Gm<Mesh, PhysicalMaterial>>,
    ghosts_since: f64,
    layer_frame: Option<Gm<InstancedMesh, ColorMaterial>>,
    ambient: AmbientLight,
    sun: DirectionalLight,
    scene: BoardScene,
    on_pick: Option<Callback<[i64; 3]>>,
    on_region: Option<Callback<[i64; 3]>>,
    /// Told the orientation (yaw, pitch) after every frame drawn.
    on_turn: Option<Callback<[f32; 2]>>,
    /// Taps, drags, pinches and the region-selection drag.
    gesture: Gesture,
    /// The region-selection rectangle on screen now (canvas CSS px).
    shown_rect: Option<[f32; 4]>,
    spin: bool,
    orbit: Orbit,
    dirty: bool,
    frames: u32,
    alive: bool,
}

/// A DOM event listener kept alive in Rust.
type Listener = Closure<dyn FnMut(web_sys::Event)>;
/// The frame loop's `requestAnimationFrame` callback.
type FrameCallback = Closure<dyn FnMut()>;

/// What the board's component may ask of a running renderer. It holds the renderer as this
/// trait object so that its own code never names three-d: the renderer is a lazily loaded
/// WASM chunk (`start`), and a direct call would pull it back into the first download.
pub trait Drawing {
    /// Shows a new state of the board.
    fn set_scene(&self, scene: &BoardScene);
    /// Turns the view to `[yaw, pitch]`, keeping its zoom (003 §7.6).
    fn set_orientation(&self, o: [f32; 2]);
    /// Ends the frame loop and detaches the listeners.
    fn stop(self: Box<Self>);
}

/// Everything `start` needs, in one value (a lazy function's arguments cross a module
/// boundary; one owned struct keeps that boundary plain).
pub struct Start {
    pub canvas: HtmlCanvasElement,
    pub scene: BoardScene,
    pub on_pick: Option<Callback<[i64; 3]>>,
    pub on_region: Option<Callback<[i64; 3]>>,
    pub on_turn: Option<Callback<[f32; 2]>>,
    pub spin: bool,
    pub antialias: bool,
}

/// Starts a renderer on the canvas. Split out of the first download (issue 15 §6): the home,
/// lists and sign-in pages become interactive without three-d, and the chunk holding it is
/// fetched when a board first appears.
#[leptos::lazy]
pub fn start(s: Start) -> Result<Box<dyn Drawing>, String> {
    Handle::start(s).map(|h| Box::new(h) as Box<dyn Drawing>)
}

impl Drawing for Handle {
    fn set_scene(&self, scene: &BoardScene) {
        Handle::set_scene(self, scene)
    }
    fn set_orientation(&self, o: [f32; 2]) {
        Handle::set_orientation(self, o)
    }
    fn stop(self: Box<Self>) {
        Handle::stop(*self)
    }
}

/// Keeps the renderer alive; `stop` ends the frame loop and detaches the listeners.
struct Handle {
    scene: Rc<RefCell<Scene>>,
    listeners: Vec<(&'static str, Listener)>,
}

impl Handle {
    fn start(start: Start) -> Result<Handle, String> {
        let Start { canvas, scene, on_pick, on_region, on_turn, spin, antialias } = start;
        let options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&options, &"antialias".into(), &antialias.into());
        let gl = canvas
            .get_context_with_context_options("webgl2", &options)
            .map_err(|e| format!("getContext failed: {e:?}"))?
            .ok_or("WebGL2 is not available")?
            .dyn_into::<WebGl2RenderingContext>()
            .map_err(|_| "not a WebGL2 context")?;
        // three-d wants an `Arc` even though a WebGL context never leaves its thread (the
        // lint is allowed once, in the workspace table).
        let context = Context::from_gl_context(Arc::new(three_d::context::Context::from_webgl2_context(gl)))
            .map_err(|e| format!("three-d context: {e}"))?;
        let dims = scene.dims();
        // Filled in by the first `rebuild` below.
        let lines = build_lines(&context, &[]);
        let arrows = build_arrows(&context, dims);
        let ambient = AmbientLight::new(&context, 0.45, Srgba::WHITE);
        let sun = DirectionalLight::new(&context, 2.2, Srgba::WHITE, vec3(-0.4, -1.0, -0.6));
        let inner_lines = Gm::new(InnerLines::new(&context, &[]), ColorMaterial::default());
        let mut first = Scene {
            canvas: canvas.clone(),
            context,
            inner_lines,
            lines,
            arrows,
            stones: Vec::new(),
            markers: None,
            preview: Vec::new(),
            dead_shells: Vec::new(),
            dead_marks: None,
            ghosts: Vec::new(),
            ghosts_since: 0.0,
            layer_frame: None,
            ambient,
            sun,
            gesture: Gesture::new(scene.region_select),
            scene,
            on_pick,
            on_region,
            on_turn,
            shown_rect: None,
            spin,
            orbit: Orbit::for_radius(view_radius(dims)),
            dirty: true,
            frames: 0,
            alive: true,
        };
        first.rebuild();
        let scene = Rc::new(RefCell::new(first));
        let mut handle = Handle { scene: scene.clone(), listeners: Vec::new() };
        // One listener per pointer event, each only translating it for the gesture machine.
        for name in ["pointerdown", "pointermove", "pointerup", "pointercancel", "pointerleave"] {
            handle.listen(&canvas, name, move |s, e| {
                let e: &PointerEvent = e.unchecked_ref();
                let (id, x, y) = (e.pointer_id(), e.offset_x() as f32, e.offset_y() as f32);
                let input = match name {
                    "pointerdown" => {
                        // Moves and the release outside the canvas still come here.
                        let _ = s.canvas.set_pointer_capture(id);
                        Input::Down { id, button: e.button(), x, y }
                    }
                    "pointermove" => Input::Move { id, x, y },
                    "pointerup" => Input::Up { id, x, y },
                    _ => Input::Cancel { id },
                };
                s.input(input);
            });
        }
        // The context menu would hide a right-drag rotation (003 §7.3: both drags rotate).
        handle.listen(&canvas, "contextmenu", |_, e| e.prevent_default());
        handle.listen(&canvas, "wheel", |s, e| {
            let e: &WheelEvent = e.unchecked_ref();
            e.prevent_default();
            s.input(Input::Wheel { dy: e.delta_y() as f32 });
        });
        handle.listen(&canvas, "keydown", |s, e| {
            let e: &web_sys::KeyboardEvent = e.unchecked_ref();
            if let Some(intent) = gesture::key(&e.key()) {
                e.prevent_default();
                s.apply(intent);
            }
        });
        // Pointer drags must not scroll the page on touch screens.
        let _ = canvas.style().set_property("touch-action", "none");
        start_frame_loop(scene);
        Ok(handle)
    }

    fn listen(
        &mut self,
        canvas: &HtmlCanvasElement,
        name: &'static str,
        f: impl Fn(&mut Scene, &web_sys::Event) + 'static,
    ) {
        let scene = self.scene.clone();
        let closure = Listener::new(move |e: web_sys::Event| {
            if let Ok(mut s) = scene.try_borrow_mut() {
                f(&mut s, &e);
            }
        });
        let opts = web_sys::AddEventListenerOptions::new();
        opts.set_passive(false); // wheel must be able to preventDefault
        let _ = canvas.add_event_listener_with_callback_and_add_event_listener_options(
            name,
            closure.as_ref().unchecked_ref(),
            &opts,
        );
        self.listeners.push((name, closure));
    }

    /// Shows a new state of the board. A different box (the region view's window moving)
    /// gets new lines and axes; the zoom stays relative to the box's size.
    fn set_scene(&self, scene: &BoardScene) {
        if let Ok(mut s) = self.scene.try_borrow_mut() {
            if s.scene != *scene {
                if s.scene.board != scene.board {
                    let (old, new) = (view_radius(s.scene.dims()), view_radius(scene.dims()));
                    s.arrows = build_arrows(&s.context, scene.dims());
                    let mut orbit = Orbit::for_radius(new);
                    orbit.yaw = s.orbit.yaw;
                    orbit.pitch = s.orbit.pitch;
                    orbit.distance = (s.orbit.distance * new / old).clamp(orbit.min_distance, orbit.max_distance);
                    s.orbit = orbit;
                }
                if s.scene.ghosts != scene.ghosts {
                    s.ghosts_since = now_ms(); // a new capture fades from the start
                }
                s.gesture.region_select = scene.region_select;
                s.scene = scene.clone();
                s.rebuild();
                s.dirty = true;
            }
        }
    }

    /// Turns the view to `[yaw, pitch]`, keeping its zoom (003 §7.6).
    fn set_orientation(&self, o: [f32; 2]) {
        if let Ok(mut s) = self.scene.try_borrow_mut() {
            s.orbit.turn_to(o[0], o[1]);
            s.dirty = true;
        }
    }

    fn stop(self) {
        let canvas = {
            let mut s = self.scene.borrow_mut();
            s.alive = false;
            s.canvas.clone()
        };
        for (name, closure) in &self.listeners {
            let _ = canvas.remove_event_listener_with_callback(name, closure.as_ref().unchecked_ref());
        }
    }
}

impl Scene {
    /// Rebuilds what is drawn from `self.scene`: grid lines, stones, markers, preview,
    /// fading captures and the layer's frame (the arrows depend on the box alone: `set_scene`).
    fn rebuild(&mut self) {
        let sc = &self.scene;
        let dims = sc.dims();
        let at = |p: [i64; 3]| {
            let o = sc.offsets(p);
            Vec3::from(world_pos(dims, o[0], o[1], o[2]))
        };
        // Stones are sphere impostors: two triangles facing the camera, shaded as a sphere
        // in the fragment shader. Software GL spends its time per vertex, so a full 25³ box
        // costs 31,250 triangles instead of the ~1M of real spheres (issue 5 point 1).
        // Stones of the active layer are drawn fully; others slightly dimmed to read depth.
        // A stone inside a full 3×3×3 block of stones cannot be seen from any direction, so
        // it is not drawn: a full 25³ box draws its 3,458 outer stones instead of 15,625.
        // (Six face neighbours are not enough: with empty diagonals it shows between them.)
        // Taps and markers do not depend on this.
        let occupied: std::collections::HashSet<[i64; 3]> = sc.stones.iter().map(|(p, _)| *p).collect();
        let hidden = |p: [i64; 3]| {
            (-1..=1)
                .all(|dx| (-1..=1).all(|dy| (-1..=1).all(|dz| occupied.contains(&[p[0] + dx, p[1] + dy, p[2] + dz]))))
        };
        // Likewise an inner grid line whose every point is such a hidden stone.
        let shown: Vec<Segment> = segments(dims)
            .into_iter()
            .filter(|seg| seg.kind != LineKind::Interior || !points_on(dims, seg).iter().all(|o| hidden(sc.actual(*o))))
            .collect();
        let (inner, outer): (Vec<Segment>, Vec<Segment>) =
            shown.into_iter().partition(|seg| seg.kind == LineKind::Interior);
        self.lines = build_lines(&self.context, &outer);
        self.inner_lines = Gm::new(InnerLines::new(&self.context, &inner), ColorMaterial::default());
        let mut groups: [Vec<Vec3>; 4] = Default::default();
        for (p, c) in sc.stones.iter().filter(|(p, _)| !hidden(*p)) {
            let g = usize::from(*c == Colour::White) * 2 + usize::from(p[2] != sc.layer);
            groups[g].push(at(*p));
        }
        let shades = [BLACK_STONE, dim(BLACK_STONE), WHITE_STONE, dim(WHITE_STONE)];
        self.stones = groups
            .iter()
            .zip(shades)
            .filter(|(centres, _)| !centres.is_empty())
            .map(|(centres, color)| {
                let mut sprites = Sprites::new(&self.context, centres, None);
                sprites.set_transformation(Mat4::from_scale(STONE_R));
                Gm::new(sprites, StoneMaterial { color })
            })
            .collect();
        let sphere = CpuMesh::sphere(12);
        // Markers: a small red bead on the last move, a green one on each cited safe space.
        let mut marks = Vec::new();
        let mut mark_colors = Vec::new();
        if let Some(p) = sc.last {
            marks.push(Mat4::from_translation(at(p) + vec3(0.0, 0.0, STONE_R)) * Mat4::from_scale(0.12));
            mark_colors.push(LAST);
        }
        // Cited safe spaces are empty points: a green bead where a stone would sit.
        for p in &sc.cited {
            marks.push(Mat4::from_translation(at(*p)) * Mat4::from_scale(0.18));
            mark_colors.push(Srgba::new_opaque(74, 222, 128));
        }
        self.markers = (!marks.is_empty()).then(|| {
            let instances = Instances { transformations: marks, colors: Some(mark_colors), ..Default::default() };
            let material = ColorMaterial { color: Srgba::WHITE, ..Default::default() };
            Gm::new(InstancedMesh::new(&self.context, &instances, &sphere), material)
        });
        // 003 §2.4: the preview must read clearly for both colours on the dark background. A
        // translucent black stone alone is nearly invisible (contrast ≈ 1.01:1), so every
        // preview is a lighter stone inside a yellow halo (colours and their modelled
        // contrast: `preview.rs`).
        self.preview = sc
            .preview
            .map(|(p, c)| {
                use super::preview::{BLACK, HALO, HALO_ALPHA, WHITE};
                let ([r, g, b], alpha) = if c == Colour::Black { BLACK } else { WHITE };
                let [hr, hg, hb] = HALO;
                vec![
                    translucent(&self.context, &sphere, at(p), STONE_R * 1.35, Srgba::new(hr, hg, hb, HALO_ALPHA)),
                    translucent(&self.context, &sphere, at(p), STONE_R, Srgba::new(r, g, b, alpha)),
                ]
            })
            .unwrap_or_default();
        // 003 §3.4: a dead-stone candidate keeps its own colour, with an outline (a shell of
        // the opposite shade around it) and a candidate marker (an orange cube on top) —
        // unlike the last move's red bead in shape as well as colour.
        let colour_at = |p: &[i64; 3]| sc.stones.iter().find(|(q, _)| q == p).map(|(_, c)| *c);
        self.dead_shells = sc
            .dead
            .iter()
            .map(|p| {
                let shell = match colour_at(p) {
                    Some(Colour::Black) => Srgba::new(236, 236, 230, 80),
                    _ => Srgba::new(24, 24, 28, 90),
                };
                translucent(&self.context, &sphere, at(*p), STONE_R * 1.3, shell)
            })
            .collect();
        self.dead_marks = (!sc.dead.is_empty()).then(|| {
            let transformations = sc
                .dead
                .iter()
                .map(|p| Mat4::from_translation(at(*p) + vec3(0.0, STONE_R + 0.08, 0.0)) * Mat4::from_scale(0.09))
                .collect();
            let colors = Some(vec![DEAD_MARK; sc.dead.len()]);
            let instances = Instances { transformations, colors, ..Default::default() };
            let material = ColorMaterial { color: Srgba::WHITE, ..Default::default() };
            Gm::new(InstancedMesh::new(&self.context, &instances, &CpuMesh::cube()), material)
        });
        self.ghosts = sc
            .ghosts
            .iter()
            .map(|(p, c)| {
                let mut mesh = sphere.clone();
                let _ = mesh.transform(Mat4::from_translation(at(*p)) * Mat4::from_scale(STONE_R));
                Gm::new(Mesh::new(&self.context, &mesh), ghost_material(&self.context, *c, 1.0))
            })
            .collect();
        // The active layer's outline (003 §7.6: both views share it).
        self.layer_frame = (dims[2] > 1).then(|| {
            let k = (sc.layer - sc.board.z.start).clamp(0, dims[2] as i64 - 1) as u16;
            let (x1, y1) = (dims[0] - 1, dims[1] - 1);
            let c = [
                world_pos(dims, 0, 0, k),
                world_pos(dims, x1, 0, k),
                world_pos(dims, x1, y1, k),
                world_pos(dims, 0, y1, k),
            ];
            let segs: Vec<Segment> =
                (0..4).map(|i| Segment { from: c[i], to: c[(i + 1) % 4], kind: LineKind::Surface }).collect();
            let mut g = build_lines(&self.context, &segs);
            let instances = Instances {
                transformations: segs
                    .iter()
                    .map(|s| {
                        let from = Vec3::from(s.from);
                        let d = Vec3::from(s.to) - from;
                        let len = (d.x * d.x + d.y * d.y + d.z * d.z).sqrt().max(1e-3);
                        along(from, d / len, len, 0.05)
                    })
                    .collect(),
                colors: Some(vec![LAYER; 4]),
                ..Default::default()
            };
            g.geometry.set_instances(&instances);
            g
        });
    }

    /// Captured stones fade out over `GHOST_MS` (the page removes them afterwards).
    fn fade_ghosts(&mut self) {
        if self.ghosts.is_empty() {
            return;
        }
        let left = (1.0 - (now_ms() - self.ghosts_since) / GHOST_MS).clamp(0.0, 1.0) as f32;
        for (g, (_, c)) in self.ghosts.iter_mut().zip(&self.scene.ghosts) {
            g.material = ghost_material(&self.context, *c, left);
        }
        self.dirty = true;
    }

    /// Keeps the X/Y/Z letters at the arrow tips: they turn with the board but are HTML,
    /// so they always face the reader (003 §7.2).
    fn place_axis_labels(&self, camera: &three_d::Camera) {
        let Some(wrap) = self.canvas.parent_element() else { return };
        let dims = self.scene.dims();
        let dpr = (self.canvas.width() as f32 / self.canvas.client_width().max(1) as f32).max(0.1);
        for (axis, seg) in ["x", "y", "z"].iter().zip(axes(dims)) {
            let Ok(Some(el)) = wrap.query_selector(&format!(".axis-label.{axis}")) else { continue };
            let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() else { continue };
            let tip = Vec3::from(seg.to);
            let p = camera.pixel_at_position(tip);
            let (left, top) = (p.x / dpr, (self.canvas.height() as f32 - p.y) / dpr);
            let style = el.style();
            let _ = style.set_property("left", &format!("{left:.0}px"));
            let _ = style.set_property("top", &format!("{top:.0}px"));
        }
        // Tick names beside the edges through the reference point, a little outside the box
        // (away from its centre along the other two axes), and the reference point's name.
        // Numbered `data-n` 0, 1, 2…, so they are found one by one without a NodeList.
        for n in 0.. {
            let Ok(Some(el)) = wrap.query_selector(&format!(".tick[data-n='{n}']")) else { break };
            let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() else { continue };
            let i: u16 = el.get_attribute("data-i").and_then(|v| v.parse().ok()).unwrap_or(0);
            let (o, out) = match el.get_attribute("data-axis").as_deref() {
                Some("x") => ([i.min(dims[0] - 1), 0, 0], vec3(0.0, 0.55, -0.55)),
                Some("y") => ([0, i.min(dims[1] - 1), 0], vec3(-0.55, 0.0, -0.55)),
                Some("z") => ([0, 0, i.min(dims[2] - 1)], vec3(-0.55, 0.55, 0.0)),
                _ => ([0, 0, 0], vec3(-0.7, 0.7, -0.7)),
            };
            let p = camera.pixel_at_position(Vec3::from(world_pos(dims, o[0], o[1], o[2])) + out);
            let (left, top) = (p.x / dpr, (self.canvas.height() as f32 - p.y) / dpr);
            let style = el.style();
            let _ = style.set_property("left", &format!("{left:.0}px"));
            let _ = style.set_property("top", &format!("{top:.0}px"));
        }
    }

    /// The rectangle drawn during a region-selection drag (CSS px), or none.
    fn show_rect(&self, r: Option<[f32; 4]>) {
        let Some(wrap) = self.canvas.parent_element() else { return };
        let Ok(Some(el)) = wrap.query_selector(".drag-rect") else { return };
        let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() else { return };
        let style = el.style();
        match r {
            None => {
                let _ = style.set_property("display", "none");
            }
            Some([x0, y0, x1, y1]) => {
                let _ = style.set_property("display", "block");
                let _ = style.set_property("left", &format!("{}px", x0.min(x1)));
                let _ = style.set_property("top", &format!("{}px", y0.min(y1)));
                let _ = style.set_property("width", &format!("{}px", (x1 - x0).abs()));
                let _ = style.set_property("height", &format!("{}px", (y1 - y0).abs()));
            }
        }
    }

    /// 003 §7.3, §9.4: the dragged rectangle's reference point — the stone drawn largest,
    /// then nearest, then by coordinates; with no stones, the active layer's point nearest
    /// the centre — goes to `on_region`.
    fn select_region(&self, rect: [f32; 4]) {
        let Some(cb) = self.on_region else { return };
        let camera = self.camera();
        let dims = self.scene.dims();
        let dpr = (self.canvas.width() as f32 / self.canvas.client_width().max(1) as f32).max(0.1);
        let eye = Vec3::from(self.orbit.eye());
        // Apparent radius: the stone radius over the distance, scaled by the focal length.
        let focal = (self.canvas.height() as f32 / dpr) / (2.0 * (20.0f32).to_radians().tan());
        let stones: std::collections::HashSet<[i64; 3]> = self.scene.stones.iter().map(|(p, _)| *p).collect();
        let mut seen = Vec::with_capacity(dims.iter().map(|d| *d as usize).product());
        for k in 0..dims[2] {
            for j in 0..dims[1] {
                for i in 0..dims[0] {
                    let w = Vec3::from(world_pos(dims, i, j, k));
                    let p = camera.pixel_at_position(w);
                    let at = self.scene.actual([i, j, k]);
                    let d = w - eye;
                    let distance = (d.x * d.x + d.y * d.y + d.z * d.z).sqrt().max(1e-3);
                    seen.push(super::region::Seen {
                        at,
                        screen: [p.x / dpr, (self.canvas.height() as f32 - p.y) / dpr],
                        size: STONE_R * focal / distance,
                        distance,
                        has_stone: stones.contains(&at),
                    });
                }
            }
        }
        if let Some(r) = super::region::drag_reference(&seen, rect, self.scene.layer) {
            cb.run(r);
        }
    }

    /// A tap at canvas offset (CSS px): the point under it, if any, goes to `on_pick`.
    fn tap(&mut self, x: f32, y: f32) {
        let Some(cb) = self.on_pick else { return };
        let camera = self.camera();
        let dpr = (self.canvas.width() as f32 / self.canvas.client_width().max(1) as f32).max(0.1);
        let pixel = (x * dpr, self.canvas.height() as f32 - y * dpr);
        let origin = camera.position_at_pixel(pixel);
        let dir = camera.view_direction_at_pixel(pixel);
        let dims = self.scene.dims();
        if let Some(o) = pick(dims, origin.into(), dir.into(), 0.42) {
            cb.run(self.scene.actual(o));
        }
    }

    fn camera(&self) -> three_d::Camera {
        let (w, h) = (self.canvas.width(), self.canvas.height());
        let [ex, ey, ez] = self.orbit.eye();
        three_d::Camera::new_perspective(
            Viewport::new_at_origo(w, h),
            vec3(ex, ey, ez),
            vec3(0.0, 0.0, 0.0),
            vec3(0.0, 1.0, 0.0),
            three_d::degrees(40.0),
            0.05,
            self.orbit.max_distance * 3.0,
        )
    }

    /// One pointer or wheel event through the gesture machine; keeps the rectangle on screen
    /// in step with it.
    fn input(&mut self, input: Input) {
        if let Some(intent) = self.gesture.handle(input) {
            self.apply(intent);
        }
        let rect = self.gesture.rect();
        if rect != self.shown_rect {
            self.show_rect(rect);
            self.shown_rect = rect;
        }
    }

    fn apply(&mut self, intent: Intent) {
        match intent {
            Intent::Tap { x, y } => self.tap(x, y),
            Intent::Orbit { dx, dy } => {
                self.orbit.drag(dx, dy);
                self.dirty = true;
            }
            Intent::Zoom { factor } => {
                self.orbit.zoom(factor);
                self.dirty = true;
            }
            Intent::Region { rect } => self.select_region(rect),
        }
    }

    /// Matches the drawing buffer to the element's size; returns true if it changed.
    fn fit_canvas(&mut self) -> bool {
        let dpr = web_sys::window().map(|w| w.device_pixel_ratio()).unwrap_or(1.0).min(2.0);
        let w = ((self.canvas.client_width() as f64) * dpr).round().max(1.0) as u32;
        let h = ((self.canvas.client_height() as f64) * dpr).round().max(1.0) as u32;
        if self.canvas.width() != w || self.canvas.height() != h {
            self.canvas.set_width(w);
            self.canvas.set_height(h);
            true
        } else {
            false
        }
    }

    fn draw(&mut self) {
        let (w, h) = (self.canvas.width(), self.canvas.height());
        let camera = self.camera();
        let [r, g, b] = BACKGROUND.map(|c| f32::from(c) / 255.0);
        let lights: [&dyn three_d::Light; 2] = [&self.ambient, &self.sun];
        let target = RenderTarget::screen(&self.context, w, h);
        target
            .clear(ClearState::color_and_depth(r, g, b, 1.0, 1.0))
            .render(&camera, self.scene.grid.then_some(&self.lines), &[])
            .render(&camera, self.scene.grid.then_some(&self.inner_lines), &[])
            .render(&camera, &self.arrows, &[])
            .render(&camera, self.layer_frame.iter(), &[])
            .render(&camera, self.stones.iter(), &[])
            .render(&camera, self.markers.iter(), &[])
            .render(&camera, self.dead_marks.iter(), &[])
            .render(&camera, self.dead_shells.iter(), &lights)
            .render(&camera, self.preview.iter(), &lights)
            .render(&camera, self.ghosts.iter(), &lights);
        self.place_axis_labels(&camera);
        self.frames += 1;
        let _ = self.canvas.set_attribute("data-frames", &self.frames.to_string());
        // The view's direction and zoom, for the direction-match buttons and the tests.
        let o = self.orbit;
        let _ = self.canvas.set_attribute("data-yaw", &format!("{:.3}", o.yaw));
        let _ = self.canvas.set_attribute("data-pitch", &format!("{:.3}", o.pitch));
        let _ = self.canvas.set_attribute("data-distance", &format!("{:.3}", o.distance));
        if let Some(cb) = self.on_turn {
            cb.run([o.yaw, o.pitch]);
        }
    }
}

fn start_frame_loop(scene: Rc<RefCell<Scene>>) {
    let slot: Rc<RefCell<Option<FrameCallback>>> = Rc::new(RefCell::new(None));
    let first = slot.clone();
    *first.borrow_mut() = Some(Closure::new(move || {
        let keep_going = {
            let mut s = scene.borrow_mut();
            if s.alive {
                let resized = s.fit_canvas();
                if s.spin {
                    s.orbit.drag(3.0, 0.0);
                    s.dirty = true;
                }
                s.fade_ghosts();
                if s.dirty || resized {
                    s.dirty = false;
                    s.draw();
                }
            }
            s.alive
        };
        if keep_going {
            request_frame(slot.borrow().as_ref());
        } else {
            slot.borrow_mut().take(); // drop the closure: the loop ends
        }
    }));
    request_frame(first.borrow().as_ref());
}

fn request_frame(f: Option<&FrameCallback>) {
    if let (Some(w), Some(f)) = (web_sys::window(), f) {
        let _ = w.request_animation_frame(f.as_ref().unchecked_ref());
    }
}

/// A stone drawn on a camera-facing square: a disc shaded like a sphere lit from the upper
/// left (in view space, so every stone reads the same from any direction), with a small
/// highlight; the corners are discarded.
struct StoneMaterial {
    color: Srgba,
}

impl Material for StoneMaterial {
    fn fragment_shader_source(&self, _lights: &[&dyn Light]) -> String {
        let mut source = String::from(ColorMapping::fragment_shader_source());
        source.push_str(
            "
uniform vec4 surfaceColor;
uniform highp mat4 viewProjection;
uniform highp vec3 eye;
uniform float radius;
in vec2 uvs;
in vec3 pos;
layout (location = 0) out vec4 outColor;
void main() {
    vec2 p = uvs * 2.0 - 1.0;
    float r2 = dot(p, p);
    if (r2 > 1.0) discard;
    vec3 n = vec3(p, sqrt(1.0 - r2));
    // The depth of the sphere's surface, not of the flat square through its centre, so that
    // grid lines meet the stone's surface instead of showing through it.
    vec3 surface = pos + normalize(eye - pos) * radius * n.z;
    vec4 clip = viewProjection * vec4(surface, 1.0);
    gl_FragDepth = clamp(clip.z / clip.w * 0.5 + 0.5, 0.0, 1.0);
    float diffuse = max(dot(n, normalize(vec3(-0.45, 0.55, 0.7))), 0.0);
    float highlight = pow(max(dot(n, normalize(vec3(-0.25, 0.35, 0.9))), 0.0), 28.0);
    float rim = smoothstep(0.82, 1.0, r2) * 0.25;
    vec3 c = surfaceColor.rgb * (0.32 + 0.78 * diffuse) * (1.0 - rim) + vec3(0.45 * highlight);
    outColor = vec4(color_mapping(c), 1.0);
}
",
        );
        source
    }

    fn id(&self) -> EffectMaterialId {
        EffectMaterialId(0x0A01)
    }

    fn use_uniforms(&self, program: &Program, viewer: &dyn Viewer, _lights: &[&dyn Light]) {
        viewer.color_mapping().use_uniforms(program);
        program.use_uniform("surfaceColor", self.color.to_linear_srgb());
        program.use_uniform("radius", STONE_R);
    }

    fn render_states(&self) -> RenderStates {
        RenderStates::default()
    }

    fn material_type(&self) -> MaterialType {
        MaterialType::Opaque
    }
}

/// How long a captured stone takes to fade (the page clears them after 800 ms).
const GHOST_MS: f64 = 750.0;

/// A translucent sphere of `radius` at `centre`.
fn translucent(
    context: &Context,
    sphere: &CpuMesh,
    centre: Vec3,
    radius: f32,
    albedo: Srgba,
) -> Gm<Mesh, PhysicalMaterial> {
    let mut mesh = sphere.clone();
    let _ = mesh.transform(Mat4::from_translation(centre) * Mat4::from_scale(radius));
    let material =
        PhysicalMaterial::new_transparent(context, &CpuMaterial { albedo, roughness: 0.5, ..Default::default() });
    Gm::new(Mesh::new(context, &mesh), material)
}

fn ghost_material(context: &Context, c: Colour, left: f32) -> PhysicalMaterial {
    let base = if c == Colour::Black { BLACK_STONE } else { WHITE_STONE };
    let alpha = (200.0 * left) as u8;
    PhysicalMaterial::new_transparent(
        context,
        &CpuMaterial { albedo: Srgba::new(base.r, base.g, base.b, alpha), roughness: 0.5, ..Default::default() },
    )
}

fn now_ms() -> f64 {
    js_sys::Date::now()
}

fn dim(c: Srgba) -> Srgba {
    let f = |v: u8| ((v as f32) * 0.75 + 30.0).min(255.0) as u8;
    Srgba::new_opaque(f(c.r), f(c.g), f(c.b))
}

/// The three reference arrows of an nx×ny×nz box (the grid lines depend on the stones as
/// well and are built by `rebuild`).
fn build_arrows(context: &Context, dims: [u16; 3]) -> Vec<Gm<Mesh, ColorMaterial>> {
    // Arrow heads shrink on small boxes so they do not hide the stones.
    let arrow_scale = (*dims.iter().max().unwrap_or(&19) as f32 / 19.0).clamp(0.4, 1.0);
    axes(dims).iter().map(|a| build_arrow(context, a, arrow_scale)).collect()
}

/// The inner grid lines as GL line primitives (one pixel wide): a big box has over 1,500 of
/// them, and as thin cylinders they were most of a frame's cost on software GL. The
/// surface lines stay cylinders (thicker and brighter; they outline the box); the axes are
/// arrow meshes.
struct InnerLines {
    context: Context,
    positions: three_d::VertexBuffer<Vec3>,
    colors: three_d::VertexBuffer<three_d::Vec4>,
}

impl InnerLines {
    fn new(context: &Context, segs: &[Segment]) -> InnerLines {
        let mut positions = Vec::with_capacity(segs.len() * 2);
        for s in segs {
            positions.push(Vec3::from(s.from));
            positions.push(Vec3::from(s.to));
        }
        let color = INTERIOR.to_linear_srgb();
        InnerLines {
            context: context.clone(),
            colors: three_d::VertexBuffer::new_with_data(context, &vec![color; positions.len()]),
            positions: three_d::VertexBuffer::new_with_data(context, &positions),
        }
    }
}

impl<'a> IntoIterator for &'a InnerLines {
    type Item = &'a dyn three_d::Geometry;
    type IntoIter = std::iter::Once<&'a dyn three_d::Geometry>;
    fn into_iter(self) -> Self::IntoIter {
        std::iter::once(self)
    }
}

impl three_d::Geometry for InnerLines {
    fn draw(&self, viewer: &dyn Viewer, program: &Program, render_states: RenderStates) {
        if self.positions.vertex_count() == 0 {
            return;
        }
        program.use_uniform("viewProjection", viewer.projection() * viewer.view());
        program.use_vertex_attribute("position", &self.positions);
        program.use_vertex_attribute("color", &self.colors);
        let n = self.positions.vertex_count() as i32;
        program.draw_with(render_states, viewer.viewport(), || {
            use three_d::context::HasContext;
            // SAFETY: glow marks every GL call unsafe; this one draws `n` vertices from the two
            // attribute buffers bound just above, which hold exactly `n` vertices each.
            unsafe { self.context.draw_arrays(three_d::context::LINES, 0, n) };
        });
    }

    fn vertex_shader_source(&self) -> String {
        "
uniform mat4 viewProjection;
in vec3 position;
in vec4 color;
out vec4 col;
void main() {
    col = color;
    gl_Position = viewProjection * vec4(position, 1.0);
}
"
        .to_owned()
    }

    fn id(&self) -> three_d::GeometryId {
        three_d::GeometryId(0x0A01)
    }

    fn render_with_material(&self, material: &dyn Material, viewer: &dyn Viewer, lights: &[&dyn Light]) {
        if let Err(e) = three_d::render_with_material(&self.context, viewer, self, material, lights) {
            leptos::logging::error!("inner grid lines: {e}");
        }
    }

    fn render_with_effect(
        &self,
        material: &dyn three_d::Effect,
        viewer: &dyn Viewer,
        lights: &[&dyn Light],
        color_texture: Option<three_d::ColorTexture>,
        depth_texture: Option<three_d::DepthTexture>,
    ) {
        if let Err(e) =
            three_d::render_with_effect(&self.context, viewer, self, material, lights, color_texture, depth_texture)
        {
            leptos::logging::error!("inner grid lines: {e}");
        }
    }

    fn aabb(&self) -> three_d::AxisAlignedBoundingBox {
        three_d::AxisAlignedBoundingBox::INFINITE
    }
}

/// Grid lines as one instanced mesh of thin cylinders (three-d's `Line` is 2D only and GL
/// lines are one pixel wide): the surface lines, brighter, outlining the box (the inner
/// lines are `InnerLines`), and the active layer's frame (which replaces the instances).
fn build_lines(context: &Context, segs: &[Segment]) -> Gm<InstancedMesh, ColorMaterial> {
    let mut transformations = Vec::with_capacity(segs.len());
    let mut colors = Vec::with_capacity(segs.len());
    for s in segs {
        let from = Vec3::from(s.from);
        let d = Vec3::from(s.to) - from;
        let len = (d.x * d.x + d.y * d.y + d.z * d.z).sqrt();
        if len <= 0.0 {
            continue;
        }
        let (radius, color) = match s.kind {
            LineKind::Interior => (0.014, INTERIOR),
            _ => (0.022, SURFACE),
        };
        transformations.push(along(from, d / len, len, radius));
        colors.push(color);
    }
    let instances = Instances { transformations, colors: Some(colors), ..Default::default() };
    let material = ColorMaterial {
        color: Srgba::WHITE,
        texture: None,
        render_states: RenderStates::default(),
        is_transparent: false,
    };
    // Three sides are enough for lines a pixel or two wide, and half the triangles of six:
    // long thin triangles are what software GL pays most for.
    Gm::new(InstancedMesh::new(context, &instances, &CpuMesh::cylinder(3)), material)
}

/// Maps three-d's unit mesh along +X (length 1, radius 1) onto a segment from `from` in
/// unit direction `dir`.
fn along(from: Vec3, dir: Vec3, len: f32, radius: f32) -> Mat4 {
    let rotation: Mat4 = Quaternion::from_arc(vec3(1.0, 0.0, 0.0), dir, None).into();
    Mat4::from_translation(from) * rotation * Mat4::from_nonuniform_scale(len, radius, radius)
}

/// A reference axis as an arrow in its own colour: a shaft with a cone head of fixed size.
fn build_arrow(context: &Context, s: &Segment, scale: f32) -> Gm<Mesh, ColorMaterial> {
    let head_radius: f32 = 0.32 * scale;
    let head_length: f32 = 0.9 * scale;
    let shaft_radius: f32 = 0.07 * scale;
    let from = Vec3::from(s.from);
    let d = Vec3::from(s.to) - from;
    let len = (d.x * d.x + d.y * d.y + d.z * d.z).sqrt().max(head_length * 1.5);
    let mut mesh = CpuMesh::arrow(1.0 - head_length / len, shaft_radius / head_radius, 12);
    let dir = if d.x == 0.0 && d.y == 0.0 && d.z == 0.0 { vec3(1.0, 0.0, 0.0) } else { d / len };
    let _ = mesh.transform(along(from, dir, len, head_radius));
    let color = match s.kind {
        LineKind::AxisX => AXIS_X,
        LineKind::AxisY => AXIS_Y,
        _ => AXIS_Z,
    };
    let material =
        ColorMaterial { color, texture: None, render_states: RenderStates::default(), is_transparent: false };
    Gm::new(Mesh::new(context, &mesh), material)
}
