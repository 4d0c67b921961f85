//! Draws the box with three-d on the canvas' own WebGL2 context (no winit). What is drawn
//! is decided by `paint` (plain data, tested natively); here it goes to the GPU: the lines
//! as screen-space strokes (`strokes`), stones and marks as screen-facing discs (`discs`),
//! the three reference arrows as meshes (their X/Y/Z letters, the tick names and the tags
//! are HTML placed over the canvas every frame).
//!
//! Input: the canvas' pointer, wheel and key events are translated into `gesture` inputs,
//! and its intents applied here: orbit and zoom, a tap picked among the points as drawn
//! (`lattice::pick_on_screen`), a long press that isolates the chain under it, a
//! region-selection rectangle judged by `region::drag_reference`. Frames are drawn only
//! when something changed (every frame while spinning or while a capture fades).
//!
//! `start` is a lazy function (`#[leptos::lazy]`): the renderer and three-d are a WASM chunk
//! of their own, fetched once the page has hydrated (`crate::hydrated`), so they are in no
//! page's first download (docs/decisions/0004-a-small-browser-download.md). It answers with a
//! `Box<dyn Drawing>`, which is all the board holds of it.

mod arrows;
mod discs;
mod overlay;
mod probe;
mod strokes;

use std::{cell::RefCell, rc::Rc, sync::Arc};

use leptos::prelude::{Callable, Callback};
use three_d::{vec3, ClearState, ColorMaterial, Context, Gm, InnerSpace, Mesh, RenderTarget, Vec3, Viewport};
use wasm_bindgen::{closure::Closure, JsCast};
use web_sys::{HtmlCanvasElement, PointerEvent, WebGl2RenderingContext, WheelEvent};

use super::{
    gesture::{self, Gesture, Input, Intent},
    lattice::{bounding_radius, pick_on_screen, view_radius, world_pos, OnScreen},
    orbit::{Orbit, ViewPreset},
    paint::{self, Pass, Picture, BACKGROUND, STONE_MIN_PX, STONE_R, TAP_MARGIN_PX},
    BoardScene,
};
use arrows::build_arrows;
use discs::{Discs, Slot};
use strokes::Strokes;

/// The camera's vertical field of view.
const FOV_DEGREES: f32 = 40.0;
/// An empty point is taken by a tap this close to it (point spacings at its distance).
const EMPTY_PICK_RADIUS: f32 = 0.42;
/// How long a captured stone takes to fade (the page clears them after 800 ms).
const GHOST_MS: f64 = 750.0;

struct Scene {
    canvas: HtmlCanvasElement,
    context: Context,
    discs: Discs,
    strokes: Strokes,
    arrows: Vec<Gm<Mesh, ColorMaterial>>,
    /// What is on the GPU now, so that a change re-uploads only the sets it touches (a tap's
    /// preview is one disc, not the whole board again).
    picture: Picture,
    /// When the captured stones' fade began (ms since the epoch).
    ghosts_since: f64,
    scene: BoardScene,
    on_pick: Option<Callback<[i64; 3]>>,
    on_hold: Option<Callback<[i64; 3]>>,
    on_region: Option<Callback<[i64; 3]>>,
    /// Told the orientation (yaw, pitch) after every frame drawn.
    on_turn: Option<Callback<[f32; 2]>>,
    /// Taps, drags, pinches, long presses and the region-selection drag.
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
    /// Turns to a preset view and shows the whole box.
    fn show(&self, preset: ViewPreset);
    /// Ends the frame loop and detaches the listeners.
    fn stop(self: Box<Self>);
}

/// Everything `start` needs, in one value (a lazy function's arguments cross a module
/// boundary; one owned struct keeps that boundary plain).
pub struct Start {
    pub canvas: HtmlCanvasElement,
    pub scene: BoardScene,
    pub on_pick: Option<Callback<[i64; 3]>>,
    pub on_hold: Option<Callback<[i64; 3]>>,
    pub on_region: Option<Callback<[i64; 3]>>,
    pub on_turn: Option<Callback<[f32; 2]>>,
    pub spin: bool,
    pub antialias: bool,
}

/// Starts a renderer on the canvas. Split out of the first download: the home,
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
    fn show(&self, preset: ViewPreset) {
        if let Ok(mut s) = self.scene.try_borrow_mut() {
            s.orbit.show(preset);
            s.dirty = true;
        }
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
        let Start { canvas, scene, on_pick, on_hold, on_region, on_turn, spin, antialias } = start;
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
        let mut first = Scene {
            canvas: canvas.clone(),
            discs: Discs::new(&context)?,
            strokes: Strokes::new(&context)?,
            arrows: build_arrows(&context, dims),
            context,
            picture: Picture::default(),
            ghosts_since: 0.0,
            gesture: Gesture::new(scene.region_select),
            scene,
            on_pick,
            on_hold,
            on_region,
            on_turn,
            shown_rect: None,
            spin,
            orbit: Orbit::for_radius(view_radius(dims)),
            dirty: true,
            frames: 0,
            alive: true,
        };
        first.upload(paint::paint(&first.scene));
        let scene = Rc::new(RefCell::new(first));
        let mut handle = Handle { scene: scene.clone(), listeners: Vec::new() };
        // One listener per pointer event, each only translating it for the gesture machine.
        for name in ["pointerdown", "pointermove", "pointerup", "pointercancel", "pointerleave"] {
            let timer_target = scene.clone();
            handle.listen(&canvas, name, move |s, e| {
                let e: &PointerEvent = e.unchecked_ref();
                let (id, x, y) = (e.pointer_id(), e.offset_x() as f32, e.offset_y() as f32);
                let input = match name {
                    "pointerdown" => {
                        // Moves and the release outside the canvas still come here.
                        let _ = s.canvas.set_pointer_capture(id);
                        s.input(Input::Down { id, button: e.button(), x, y });
                        hold_timer(timer_target.clone(), id, s.gesture.presses());
                        return;
                    }
                    "pointermove" => Input::Move { id, x, y },
                    "pointerup" => Input::Up { id, x, y },
                    _ => Input::Cancel { id },
                };
                s.input(input);
            });
        }
        // The context menu would hide a right-drag rotation (003 §7.3: both drags rotate), and
        // a long press on a touch screen would open it.
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
    /// gets new axes; the zoom stays relative to the box's size.
    fn set_scene(&self, scene: &BoardScene) {
        if let Ok(mut s) = self.scene.try_borrow_mut() {
            if s.scene == *scene {
                return;
            }
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
            let picture = paint::paint(&s.scene);
            s.upload(picture);
            s.dirty = true;
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

/// After `gesture::HOLD_MS`, tells the gesture machine that press number `press` of pointer
/// `id` may still be down (it decides whether that press is a long press).
fn hold_timer(scene: Rc<RefCell<Scene>>, id: i32, press: u32) {
    let Some(w) = web_sys::window() else { return };
    let f = Closure::once_into_js(move || {
        if let Ok(mut s) = scene.try_borrow_mut() {
            if s.alive {
                s.input(Input::Held { id, press });
            }
        }
    });
    let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(f.unchecked_ref(), gesture::HOLD_MS);
}

impl Scene {
    /// Puts `picture` on the GPU, re-uploading only the sets that changed.
    fn upload(&mut self, picture: Picture) {
        let old = std::mem::take(&mut self.picture);
        if picture.strokes != old.strokes || self.frames == 0 {
            self.strokes.set(&picture.strokes);
        }
        for pass in [Pass::Solid, Pass::Overlay, Pass::OnTop] {
            let of = |p: &Picture| p.discs.iter().filter(|d| d.pass == pass).copied().collect::<Vec<_>>();
            let now = of(&picture);
            if now != of(&old) || self.frames == 0 {
                self.discs.set(Slot::of(pass), &now);
            }
        }
        if picture.ghosts != old.ghosts || self.frames == 0 {
            self.discs.set(Slot::Ghosts, &picture.ghosts);
        }
        self.picture = picture;
    }

    /// Captured stones fade out over `GHOST_MS` (the page removes them afterwards).
    fn ghost_alpha(&self) -> f32 {
        (1.0 - (now_ms() - self.ghosts_since) / GHOST_MS).clamp(0.0, 1.0) as f32
    }

    fn dpr(&self) -> f32 {
        (self.canvas.width() as f32 / self.canvas.client_width().max(1) as f32).max(0.1)
    }

    /// Focal length in device px (the projection's vertical scale over half the height).
    fn focal(&self) -> f32 {
        self.canvas.height() as f32 / (2.0 * (FOV_DEGREES / 2.0).to_radians().tan())
    }

    /// Every board point as drawn now: screen position (CSS px), distance along the view,
    /// and the radius a tap takes it within.
    fn on_screen(&self, camera: &three_d::Camera) -> Vec<OnScreen> {
        let dims = self.scene.dims();
        let dpr = self.dpr();
        let focal = self.focal();
        let eye = Vec3::from(self.orbit.eye());
        let forward = (-eye).normalize();
        let stones: std::collections::HashSet<[i64; 3]> = self.scene.stones.iter().map(|(p, _)| *p).collect();
        let mut out = Vec::with_capacity(dims.iter().map(|d| *d as usize).product());
        for k in 0..dims[2] {
            for j in 0..dims[1] {
                for i in 0..dims[0] {
                    let w = Vec3::from(world_pos(dims, i, j, k));
                    let depth = (w - eye).dot(forward);
                    let p = camera.pixel_at_position(w);
                    let stone = stones.contains(&self.scene.actual([i, j, k]));
                    let drawn = stone.then(|| (STONE_R * focal / depth.max(1e-3)).max(STONE_MIN_PX / 2.0 * dpr) / dpr);
                    let radius = match drawn {
                        Some(r) => r + TAP_MARGIN_PX,
                        None => EMPTY_PICK_RADIUS * focal / depth.max(1e-3) / dpr,
                    };
                    out.push(OnScreen {
                        at: [i, j, k],
                        screen: [p.x / dpr, (self.canvas.height() as f32 - p.y) / dpr],
                        depth,
                        radius,
                        stone: drawn,
                    });
                }
            }
        }
        out
    }

    /// The point under canvas offset (x, y) in CSS px, as drawn.
    fn point_at(&self, x: f32, y: f32) -> Option<[i64; 3]> {
        let camera = self.camera();
        pick_on_screen(&self.on_screen(&camera), [x, y]).map(|o| self.scene.actual(o))
    }

    /// A tap: the point under it, if any, goes to `on_pick`.
    fn tap(&mut self, x: f32, y: f32) {
        let Some(cb) = self.on_pick else { return };
        if let Some(p) = self.point_at(x, y) {
            cb.run(p);
        }
    }

    /// A long press: the stone under it goes to `on_hold`; anything else under it is a slow
    /// tap (its release does nothing more).
    fn hold(&mut self, x: f32, y: f32) {
        let Some(p) = self.point_at(x, y) else { return };
        match self.on_hold {
            Some(cb) if self.scene.stones.iter().any(|(q, _)| *q == p) => cb.run(p),
            _ => self.tap(x, y),
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
            three_d::degrees(FOV_DEGREES),
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
            Intent::Hold { x, y } => self.hold(x, y),
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
        if self.canvas.client_width() == 0 {
            return; // folded away: nothing to see, nothing to spend
        }
        let camera = self.camera();
        let dpr = self.dpr();
        let [r, g, b] = BACKGROUND.map(|c| f32::from(c) / 255.0);
        // The lattice fades over the box's depth as seen from here.
        let reach = bounding_radius(self.scene.dims());
        let fade = [self.orbit.distance - reach, self.orbit.distance + reach];
        let ghosts = self.ghost_alpha();
        let target = RenderTarget::screen(&self.context, w, h);
        target.clear(ClearState::color_and_depth(r, g, b, 1.0, 1.0));
        let _ = target.write::<std::convert::Infallible>(|| {
            self.strokes.draw(&camera, dpr, Pass::Solid, fade);
            self.discs.draw(&camera, dpr, Slot::Solid, 1.0);
            Ok(())
        });
        target.render(&camera, &self.arrows, &[]);
        let _ = target.write::<std::convert::Infallible>(|| {
            self.discs.draw(&camera, dpr, Slot::Overlay, 1.0);
            if ghosts > 0.0 {
                self.discs.draw(&camera, dpr, Slot::Ghosts, ghosts);
            }
            self.strokes.draw(&camera, dpr, Pass::OnTop, fade);
            self.discs.draw(&camera, dpr, Slot::OnTop, 1.0);
            Ok(())
        });
        self.place_overlays(&camera);
        self.frames += 1;
        let _ = self.canvas.set_attribute("data-frames", &self.frames.to_string());
        // The view's direction and zoom, for the direction-match buttons and the tests.
        let o = self.orbit;
        let _ = self.canvas.set_attribute("data-yaw", &format!("{:.3}", o.yaw));
        let _ = self.canvas.set_attribute("data-pitch", &format!("{:.3}", o.pitch));
        let _ = self.canvas.set_attribute("data-distance", &format!("{:.3}", o.distance));
        if self.canvas.has_attribute("data-probe") {
            self.write_probe(&camera);
        }
        if let Some(cb) = self.on_turn {
            cb.run([o.yaw, o.pitch]);
        }
    }

    /// 003 §7.3, §9.4: the dragged rectangle's reference point — the stone drawn largest,
    /// then nearest, then by coordinates; with no stones, the active layer's point nearest
    /// the centre — goes to `on_region`.
    fn select_region(&self, rect: [f32; 4]) {
        let Some(cb) = self.on_region else { return };
        let camera = self.camera();
        let dpr = self.dpr();
        let focal = self.focal() / dpr;
        let seen: Vec<super::region::Seen> = self
            .on_screen(&camera)
            .into_iter()
            .map(|p| {
                let distance = p.depth.max(1e-3);
                super::region::Seen {
                    at: self.scene.actual(p.at),
                    screen: p.screen,
                    // Apparent size: the stone radius over the distance, by the focal length.
                    size: STONE_R * focal / distance,
                    distance,
                    has_stone: p.stone.is_some(),
                }
            })
            .collect();
        if let Some(r) = super::region::drag_reference(&seen, rect, self.scene.layer) {
            cb.run(r);
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
                if !s.picture.ghosts.is_empty() && s.ghost_alpha() > 0.0 {
                    s.dirty = true; // a capture is fading
                }
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

fn now_ms() -> f64 {
    js_sys::Date::now()
}
