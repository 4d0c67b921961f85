//! The HTML over the canvas, kept in place every frame: the X/Y/Z letters past the arrow
//! tips, the tick names along the edges through the reference point, the tags on their points
//! (move numbers, a named point) and the region-selection rectangle.

use three_d::{vec3, Vec3};
use wasm_bindgen::JsCast;

use super::Scene;
use crate::board_view::{
    lattice::{axes, world_pos},
    paint,
};

/// How far from the box's middle (CSS px) an axis letter is kept at least.
const MIN_FROM_MIDDLE: f32 = 34.0;
/// Room for half a letter and a little air (CSS px): past the arrow's head, past the box's
/// outline, and from the canvas' border.
const LETTER_GAP: f32 = 14.0;

impl Scene {
    /// Keeps the HTML over the canvas in place: the X/Y/Z letters past the arrow tips, the
    /// tick names beside the edges through the reference point, and the tags on their
    /// points. They turn with the board but stay upright, facing the reader (003 §7.2).
    pub(super) fn place_overlays(&self, camera: &three_d::Camera) {
        let Some(wrap) = self.canvas.parent_element() else { return };
        let dims = self.scene.dims();
        let dpr = self.dpr();
        let height = self.canvas.height() as f32;
        let to_css = |w: Vec3| {
            let p = camera.pixel_at_position(w);
            (p.x / dpr, (height - p.y) / dpr)
        };
        let put = |el: &web_sys::HtmlElement, (left, top): (f32, f32)| {
            let style = el.style();
            let _ = style.set_property("left", &format!("{left:.0}px"));
            let _ = style.set_property("top", &format!("{top:.0}px"));
        };
        let element = |selector: &str| {
            wrap.query_selector(selector).ok().flatten().and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        };
        // A letter sits on the ray from the box's middle through its arrow's head, past the
        // head and outside the box as drawn (beyond every corner's reach along that ray), kept
        // inside the canvas: an arrow pointing at the eye has its head over the middle, and a
        // letter there hid the stones under it.
        let centre = to_css(Vec3::new(0.0, 0.0, 0.0));
        let (nx, ny, nz) = (dims[0].max(1) - 1, dims[1].max(1) - 1, dims[2].max(1) - 1);
        let corners: Vec<(f32, f32)> = [0, 1, 2, 3, 4, 5, 6, 7]
            .iter()
            .map(|i| {
                let pick = |bit: u16, n: u16| if i & bit != 0 { n } else { 0 };
                to_css(Vec3::from(world_pos(dims, pick(1, nx), pick(2, ny), pick(4, nz))))
            })
            .collect();
        let (width, height_css) = (self.canvas.client_width() as f32, self.canvas.client_height() as f32);
        for (axis, seg) in ["x", "y", "z"].iter().zip(axes(dims)) {
            let Some(el) = element(&format!(".axis-label.{axis}")) else { continue };
            let tip = to_css(Vec3::from(seg.to));
            let base = to_css(Vec3::from(seg.from));
            let (mut dx, mut dy) = (tip.0 - centre.0, tip.1 - centre.1);
            if (dx * dx + dy * dy).sqrt() < 4.0 {
                (dx, dy) = (tip.0 - base.0, tip.1 - base.1);
            }
            let n = (dx * dx + dy * dy).sqrt().max(1e-3);
            let (ux, uy) = (dx / n, dy / n);
            let hull = corners.iter().map(|c| (c.0 - centre.0) * ux + (c.1 - centre.1) * uy).fold(0.0, f32::max);
            let reach = (n + LETTER_GAP).max(hull + LETTER_GAP).max(MIN_FROM_MIDDLE);
            let inside =
                |v: f32, size: f32| if size > 2.0 * LETTER_GAP { v.clamp(LETTER_GAP, size - LETTER_GAP) } else { v };
            put(&el, (inside(centre.0 + ux * reach, width), inside(centre.1 + uy * reach, height_css)));
        }
        // Tick names a little outside the box (away from its centre along the other two
        // axes), and the reference point's name. Numbered `data-n` 0, 1, 2…, so they are
        // found one by one without a NodeList.
        for n in 0.. {
            let Some(el) = element(&format!(".tick[data-n='{n}']")) else { break };
            let i: u16 = el.get_attribute("data-i").and_then(|v| v.parse().ok()).unwrap_or(0);
            let (o, out) = match el.get_attribute("data-axis").as_deref() {
                Some("x") => ([i.min(dims[0] - 1), 0, 0], vec3(0.0, 0.55, -0.55)),
                Some("y") => ([0, i.min(dims[1] - 1), 0], vec3(-0.55, 0.0, -0.55)),
                Some("z") => ([0, 0, i.min(dims[2] - 1)], vec3(-0.55, 0.55, 0.0)),
                _ => ([0, 0, 0], vec3(-0.7, 0.7, -0.7)),
            };
            put(&el, to_css(Vec3::from(world_pos(dims, o[0], o[1], o[2])) + out));
        }
        for (n, tag) in paint::tags(&self.scene).into_iter().enumerate() {
            let Some(el) = element(&format!(".board-tag[data-n='{n}']")) else { break };
            put(&el, to_css(Vec3::from(tag.at)));
        }
    }

    /// The rectangle drawn during a region-selection drag (CSS px), or none.
    pub(super) fn show_rect(&self, r: Option<[f32; 4]>) {
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
}
