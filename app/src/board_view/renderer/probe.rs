//! What a test reads of the view: where the stones, the last move and the preview are drawn
//! (and, asked for, every point), written on the canvas after a frame. The test then reads
//! the pixels there; this only says where to look.

use three_d::{InnerSpace, Vec3};

use super::Scene;
use crate::board_view::{
    lattice::world_pos,
    paint::{STONE_MIN_PX, STONE_R},
};
use wire::events::Colour;

impl Scene {
    /// For a test that asked (`data-probe` on the canvas): where the stones, the last move and
    /// the preview are on screen (CSS px from the canvas' top left) and the radius each is
    /// drawn with, as `data-projection` JSON. The test then reads the pixels there; this only
    /// says where to look.
    pub(super) fn write_probe(&self, camera: &three_d::Camera) {
        let dpr = self.dpr();
        let focal = self.focal();
        let eye = Vec3::from(self.orbit.eye());
        let forward = (-eye).normalize();
        let dims = self.scene.dims();
        let place = |p: [i64; 3], world_r: f32, min_px: f32| {
            let o = self.scene.offsets(p);
            let w = Vec3::from(world_pos(dims, o[0], o[1], o[2]));
            let depth = (w - eye).dot(forward).max(1e-3);
            let s = camera.pixel_at_position(w);
            let r = (world_r * focal / depth).max(min_px * dpr) / dpr;
            format!(
                "{{\"at\":[{},{},{}],\"x\":{:.1},\"y\":{:.1},\"r\":{:.2},\"depth\":{:.3}}}",
                p[0],
                p[1],
                p[2],
                s.x / dpr,
                (self.canvas.height() as f32 - s.y) / dpr,
                r,
                depth
            )
        };
        let stone = |p: [i64; 3]| place(p, STONE_R, STONE_MIN_PX / 2.0);
        let stones: Vec<String> = self
            .scene
            .stones
            .iter()
            .map(|(p, c)| {
                let s = stone(*p);
                format!(
                    "{},\"colour\":\"{}\"}}",
                    &s[..s.len() - 1],
                    if *c == Colour::Black { "black" } else { "white" }
                )
            })
            .collect();
        // With `data-probe="points"`, every point of the box too (small boxes: a test taps one).
        let points: Vec<String> = if self.canvas.get_attribute("data-probe").as_deref() == Some("points") {
            self.on_screen(camera)
                .iter()
                .map(|p| {
                    let a = self.scene.actual(p.at);
                    format!("[{},{},{},{:.1},{:.1}]", a[0], a[1], a[2], p.screen[0], p.screen[1])
                })
                .collect()
        } else {
            Vec::new()
        };
        let json = format!(
            "{{\"stones\":[{}],\"last\":{},\"preview\":{},\"points\":[{}]}}",
            stones.join(","),
            self.scene.last.map(stone).unwrap_or_else(|| "null".into()),
            self.scene.preview.map(|(p, _)| stone(p)).unwrap_or_else(|| "null".into()),
            points.join(","),
        );
        let _ = self.canvas.set_attribute("data-projection", &json);
    }
}
