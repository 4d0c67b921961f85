//! Draws the lattice with three-d on the canvas' own WebGL2 context (no winit) and turns
//! pointer and wheel input into orbit changes. Frames are drawn only when something
//! changed, so an idle board costs nothing.

use std::{cell::RefCell, collections::HashMap, rc::Rc, sync::Arc};

use three_d::{
    vec3, ClearState, ColorMaterial, Context, CpuMesh, Gm, InstancedMesh, Instances, Mat4, Mesh, Quaternion,
    RenderStates, RenderTarget, Srgba, Vec3, Viewport,
};
use wasm_bindgen::{closure::Closure, JsCast};
use web_sys::{HtmlCanvasElement, PointerEvent, WebGl2RenderingContext, WheelEvent};

use super::{
    lattice::{axes, bounding_radius, segments, LineKind, Segment},
    orbit::Orbit,
};

const BACKGROUND: (f32, f32, f32) = (0.043, 0.063, 0.125);
const SURFACE: Srgba = Srgba::new_opaque(112, 140, 196);
/// Interior lines are dimmer so the box reads as a volume rather than a wall of lines.
const INTERIOR: Srgba = Srgba::new_opaque(46, 60, 96);
const AXIS_X: Srgba = Srgba::new_opaque(239, 68, 68);
const AXIS_Y: Srgba = Srgba::new_opaque(34, 197, 94);
const AXIS_Z: Srgba = Srgba::new_opaque(59, 130, 246);

struct Scene {
    canvas: HtmlCanvasElement,
    context: Context,
    lines: Gm<InstancedMesh, ColorMaterial>,
    arrows: Vec<Gm<Mesh, ColorMaterial>>,
    orbit: Orbit,
    /// Active pointers by id, with their last position (CSS px), for drag and pinch.
    pointers: HashMap<i32, (f32, f32)>,
    dirty: bool,
    frames: u32,
    alive: bool,
}

/// Keeps the renderer alive; `stop` ends the frame loop and detaches the listeners.
pub struct Handle {
    scene: Rc<RefCell<Scene>>,
    listeners: Vec<(&'static str, Closure<dyn FnMut(web_sys::Event)>)>,
}

impl Handle {
    pub fn start(canvas: HtmlCanvasElement, size: u16) -> Result<Handle, String> {
        let gl = canvas
            .get_context("webgl2")
            .map_err(|e| format!("getContext failed: {e:?}"))?
            .ok_or("WebGL2 is not available")?
            .dyn_into::<WebGl2RenderingContext>()
            .map_err(|_| "not a WebGL2 context")?;
        let context = Context::from_gl_context(Arc::new(three_d::context::Context::from_webgl2_context(gl)))
            .map_err(|e| format!("three-d context: {e}"))?;
        let dims = [size, size, size];
        let lines = build_lines(&context, &segments(dims));
        let arrows = axes(dims).iter().map(|a| build_arrow(&context, a)).collect();
        let scene = Rc::new(RefCell::new(Scene {
            canvas: canvas.clone(),
            context,
            lines,
            arrows,
            orbit: Orbit::for_radius(bounding_radius(dims)),
            pointers: HashMap::new(),
            dirty: true,
            frames: 0,
            alive: true,
        }));
        let mut handle = Handle { scene: scene.clone(), listeners: Vec::new() };
        handle.listen(&canvas, "pointerdown", |s, e| {
            let e: &PointerEvent = e.unchecked_ref();
            let _ = s.canvas.set_pointer_capture(e.pointer_id());
            s.pointers.insert(e.pointer_id(), (e.client_x() as f32, e.client_y() as f32));
        });
        handle.listen(&canvas, "pointermove", |s, e| {
            let e: &PointerEvent = e.unchecked_ref();
            s.pointer_moved(e.pointer_id(), e.client_x() as f32, e.client_y() as f32);
        });
        for name in ["pointerup", "pointercancel", "pointerleave"] {
            handle.listen(&canvas, name, |s, e| {
                let e: &PointerEvent = e.unchecked_ref();
                s.pointers.remove(&e.pointer_id());
            });
        }
        handle.listen(&canvas, "wheel", |s, e| {
            let e: &WheelEvent = e.unchecked_ref();
            e.prevent_default();
            s.orbit.zoom(Orbit::wheel_factor(e.delta_y() as f32));
            s.dirty = true;
        });
        // Keyboard: arrows rotate, +/- zoom, so the view is usable without a pointer.
        handle.listen(&canvas, "keydown", |s, e| {
            let e: &web_sys::KeyboardEvent = e.unchecked_ref();
            let step = 12.0;
            match e.key().as_str() {
                "ArrowLeft" => s.orbit.drag(-step, 0.0),
                "ArrowRight" => s.orbit.drag(step, 0.0),
                "ArrowUp" => s.orbit.drag(0.0, -step),
                "ArrowDown" => s.orbit.drag(0.0, step),
                "+" | "=" => s.orbit.zoom(0.9),
                "-" | "_" => s.orbit.zoom(1.1),
                _ => return,
            }
            e.prevent_default();
            s.dirty = true;
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
        let closure = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
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

    pub fn stop(self) {
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
    fn pointer_moved(&mut self, id: i32, x: f32, y: f32) {
        let Some(&(px, py)) = self.pointers.get(&id) else {
            return;
        };
        match self.pointers.len() {
            1 => self.orbit.drag(x - px, y - py),
            2 => {
                // Pinch: zoom by the change of distance between the two pointers.
                let other = self.pointers.iter().find(|(k, _)| **k != id).map(|(_, v)| *v);
                if let Some((ox, oy)) = other {
                    let before = ((px - ox).powi(2) + (py - oy).powi(2)).sqrt();
                    let after = ((x - ox).powi(2) + (y - oy).powi(2)).sqrt();
                    if before > 1.0 && after > 1.0 {
                        self.orbit.zoom(before / after);
                    }
                }
            }
            _ => {}
        }
        self.pointers.insert(id, (x, y));
        self.dirty = true;
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
        let [ex, ey, ez] = self.orbit.eye();
        let camera = three_d::Camera::new_perspective(
            Viewport::new_at_origo(w, h),
            vec3(ex, ey, ez),
            vec3(0.0, 0.0, 0.0),
            vec3(0.0, 1.0, 0.0),
            three_d::degrees(40.0),
            0.05,
            self.orbit.max_distance * 3.0,
        );
        let (r, g, b) = BACKGROUND;
        RenderTarget::screen(&self.context, w, h)
            .clear(ClearState::color_and_depth(r, g, b, 1.0, 1.0))
            .render(&camera, &self.lines, &[])
            .render(&camera, &self.arrows, &[]);
        self.frames += 1;
        let _ = self.canvas.set_attribute("data-frames", &self.frames.to_string());
    }
}

fn start_frame_loop(scene: Rc<RefCell<Scene>>) {
    let slot: Rc<RefCell<Option<Closure<dyn FnMut()>>>> = Rc::new(RefCell::new(None));
    let first = slot.clone();
    *first.borrow_mut() = Some(Closure::new(move || {
        let keep_going = {
            let mut s = scene.borrow_mut();
            if s.alive {
                let resized = s.fit_canvas();
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

fn request_frame(f: Option<&Closure<dyn FnMut()>>) {
    if let (Some(w), Some(f)) = (web_sys::window(), f) {
        let _ = w.request_animation_frame(f.as_ref().unchecked_ref());
    }
}

/// All grid lines as one instanced mesh of thin cylinders (WebGL lines are 1 px and 2D
/// only in three-d), axes thicker and coloured.
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
    Gm::new(InstancedMesh::new(context, &instances, &CpuMesh::cylinder(6)), material)
}

/// Maps three-d's unit mesh along +X (length 1, radius 1) onto a segment from `from` in
/// unit direction `dir`.
fn along(from: Vec3, dir: Vec3, len: f32, radius: f32) -> Mat4 {
    let rotation: Mat4 = Quaternion::from_arc(vec3(1.0, 0.0, 0.0), dir, None).into();
    Mat4::from_translation(from) * rotation * Mat4::from_nonuniform_scale(len, radius, radius)
}

/// A reference axis as an arrow in its own colour: a shaft with a cone head of fixed size.
fn build_arrow(context: &Context, s: &Segment) -> Gm<Mesh, ColorMaterial> {
    const HEAD_RADIUS: f32 = 0.32;
    const HEAD_LENGTH: f32 = 0.9;
    const SHAFT_RADIUS: f32 = 0.07;
    let from = Vec3::from(s.from);
    let d = Vec3::from(s.to) - from;
    let len = (d.x * d.x + d.y * d.y + d.z * d.z).sqrt().max(HEAD_LENGTH * 1.5);
    let mut mesh = CpuMesh::arrow(1.0 - HEAD_LENGTH / len, SHAFT_RADIUS / HEAD_RADIUS, 12);
    let dir = if d.x == 0.0 && d.y == 0.0 && d.z == 0.0 { vec3(1.0, 0.0, 0.0) } else { d / len };
    let _ = mesh.transform(along(from, dir, len, HEAD_RADIUS));
    let color = match s.kind {
        LineKind::AxisX => AXIS_X,
        LineKind::AxisY => AXIS_Y,
        _ => AXIS_Z,
    };
    let material =
        ColorMaterial { color, texture: None, render_states: RenderStates::default(), is_transparent: false };
    Gm::new(Mesh::new(context, &mesh), material)
}
