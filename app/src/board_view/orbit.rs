//! An orbiting camera: yaw and pitch around the box centre, and a distance. Dragging turns
//! it, wheel and pinch change the distance; both are clamped so the board never flips or
//! disappears.

use std::f32::consts::FRAC_PI_2;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Orbit {
    /// Rotation about the world up axis, radians.
    pub yaw: f32,
    /// Elevation above the horizontal plane, radians, kept inside (−π/2, π/2).
    pub pitch: f32,
    pub distance: f32,
    pub min_distance: f32,
    pub max_distance: f32,
}

/// Radians turned per CSS pixel dragged.
pub const DRAG_SPEED: f32 = 0.008;
const PITCH_LIMIT: f32 = FRAC_PI_2 - 0.01;

impl Orbit {
    /// A view that shows the whole box from front-left-above, so that the reference corner
    /// (top-left-back, 003 §7.1) and its three axes are in sight.
    pub fn for_radius(radius: f32) -> Self {
        Orbit {
            yaw: -0.55,
            pitch: 0.45,
            distance: radius * 3.0,
            min_distance: radius * 0.25,
            max_distance: radius * 8.0,
        }
    }

    /// Eye position in world space, looking at the origin.
    pub fn eye(&self) -> [f32; 3] {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        [self.distance * cp * sy, self.distance * sp, self.distance * cp * cy]
    }

    /// Turn by a pointer drag of (dx, dy) CSS pixels.
    pub fn drag(&mut self, dx: f32, dy: f32) {
        if !(dx.is_finite() && dy.is_finite()) {
            return;
        }
        self.yaw = (self.yaw - dx * DRAG_SPEED).rem_euclid(std::f32::consts::TAU);
        self.pitch = (self.pitch + dy * DRAG_SPEED).clamp(-PITCH_LIMIT, PITCH_LIMIT);
    }

    /// Turn to a given direction (another view's, 003 §7.6), leaving the distance alone.
    pub fn turn_to(&mut self, yaw: f32, pitch: f32) {
        if yaw.is_finite() && pitch.is_finite() {
            self.yaw = yaw.rem_euclid(std::f32::consts::TAU);
            self.pitch = pitch.clamp(-PITCH_LIMIT, PITCH_LIMIT);
        }
    }

    /// Multiply the distance by `factor` (< 1 zooms in), within the limits.
    pub fn zoom(&mut self, factor: f32) {
        if factor.is_finite() && factor > 0.0 {
            self.distance = (self.distance * factor).clamp(self.min_distance, self.max_distance);
        }
    }

    /// Zoom factor for a wheel delta in pixels: 100 px ≈ 10 %.
    pub fn wheel_factor(delta_y: f32) -> f32 {
        (delta_y * 0.001).clamp(-0.5, 0.5).exp()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn len(v: [f32; 3]) -> f32 {
        (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
    }

    #[test]
    fn eye_is_at_the_distance() {
        let o = Orbit::for_radius(10.0);
        assert!((len(o.eye()) - o.distance).abs() < 1e-3);
    }

    #[test]
    fn pitch_never_flips_over_the_pole() {
        let mut o = Orbit::for_radius(10.0);
        o.drag(0.0, 1.0e6);
        assert!(o.pitch < FRAC_PI_2);
        o.drag(0.0, -1.0e7);
        assert!(o.pitch > -FRAC_PI_2);
    }

    #[test]
    fn zoom_is_clamped_and_ignores_nonsense() {
        let mut o = Orbit::for_radius(10.0);
        o.zoom(1e-9);
        assert_eq!(o.distance, o.min_distance);
        o.zoom(1e9);
        assert_eq!(o.distance, o.max_distance);
        let before = o;
        o.zoom(f32::NAN);
        o.zoom(-2.0);
        o.drag(f32::INFINITY, 0.0);
        assert_eq!(o, before);
    }

    #[test]
    fn turning_to_another_direction_keeps_the_zoom() {
        let mut a = Orbit::for_radius(10.0);
        a.zoom(0.5);
        let mut b = Orbit::for_radius(4.0);
        b.drag(120.0, -40.0);
        a.turn_to(b.yaw, b.pitch);
        assert_eq!((a.yaw, a.pitch), (b.yaw, b.pitch));
        assert_eq!(a.distance, Orbit::for_radius(10.0).distance * 0.5);
        a.turn_to(f32::NAN, 0.0);
        assert_eq!(a.yaw, b.yaw);
    }

    #[test]
    fn wheel_down_zooms_out_and_up_zooms_in() {
        assert!(Orbit::wheel_factor(100.0) > 1.0);
        assert!(Orbit::wheel_factor(-100.0) < 1.0);
    }
}
