//! An orbiting camera: yaw and pitch around the box centre, and a distance. Dragging turns
//! it, wheel and pinch change the distance; both are clamped so the board never flips or
//! disappears.

use std::f32::consts::FRAC_PI_2;

/// The views a button turns to: along the box's axes, the isometric corner view, and the
/// view a board opens with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::EnumIter, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum ViewPreset {
    /// From the front (+Z): X across, Y down, as a layer plan is drawn.
    Front,
    /// From above: X across, Z down the screen.
    Top,
    /// From the right (+X): Z across, Y down.
    Side,
    /// The isometric view: the three axes at equal angles.
    Isometric,
    /// The opening view and zoom.
    Reset,
}

impl ViewPreset {
    /// (yaw, pitch) of the preset.
    pub fn orientation(self) -> (f32, f32) {
        match self {
            ViewPreset::Front => (0.0, 0.0),
            ViewPreset::Top => (0.0, PITCH_LIMIT),
            ViewPreset::Side => (FRAC_PI_2, 0.0),
            // atan(1/√2): each axis at the same angle to the screen.
            ViewPreset::Isometric => (-std::f32::consts::FRAC_PI_4, 0.615_48),
            ViewPreset::Reset => (DEFAULT_YAW, DEFAULT_PITCH),
        }
    }
}

/// From the front left, above: the reference corner's three axes in sight (003 §7.2), X
/// along the top and Y down the left edge; Z comes towards the eye (from any angle one axis
/// crosses the box's middle on screen: from the front right it was Y, its names over the
/// stones), and its letter is kept off the middle (`renderer::overlay`).
const DEFAULT_YAW: f32 = -0.55;
const DEFAULT_PITCH: f32 = 0.45;
/// The opening distance in view radii. 2.92 fits the whole sphere around the box in the
/// 40° field; a box seen at an angle fills less than its sphere, and at 3.0 a 19³ box took
/// 70% of a phone's canvas across. At 2.65 it takes about 80%, the arrows' letters still in.
const HOME: f32 = 2.65;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Orbit {
    /// Rotation about the world up axis, radians.
    pub yaw: f32,
    /// Elevation above the horizontal plane, radians, kept inside (−π/2, π/2).
    pub pitch: f32,
    pub distance: f32,
    pub min_distance: f32,
    pub max_distance: f32,
    /// The distance that shows the whole box (the opening zoom).
    pub home_distance: f32,
}

/// Radians turned per CSS pixel dragged.
pub const DRAG_SPEED: f32 = 0.008;
const PITCH_LIMIT: f32 = FRAC_PI_2 - 0.01;

impl Orbit {
    /// A view that shows the whole box from front-left-above, so that the reference corner
    /// (top-left-back, 003 §7.1) and its three axes are in sight.
    pub fn for_radius(radius: f32) -> Self {
        Orbit {
            yaw: DEFAULT_YAW,
            pitch: DEFAULT_PITCH,
            distance: radius * HOME,
            min_distance: radius * 0.25,
            max_distance: radius * 8.0,
            home_distance: radius * HOME,
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

    /// Turn to a preset view; every preset shows the whole box again (the zoom is reset).
    pub fn show(&mut self, preset: ViewPreset) {
        let (yaw, pitch) = preset.orientation();
        self.yaw = yaw;
        self.pitch = pitch.clamp(-PITCH_LIMIT, PITCH_LIMIT);
        self.distance = self.home_distance;
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
    fn presets_turn_to_their_direction_and_show_the_whole_box() {
        let mut o = Orbit::for_radius(10.0);
        o.zoom(0.3);
        o.show(ViewPreset::Front);
        assert_eq!((o.yaw, o.pitch), (0.0, 0.0));
        assert_eq!(o.distance, Orbit::for_radius(10.0).distance);
        // From the front the eye is on +Z, from the side on +X, from above on +Y.
        let e = o.eye();
        assert!(e[2] > 25.0 && e[0].abs() < 1e-3);
        o.show(ViewPreset::Side);
        assert!(o.eye()[0] > 25.0);
        o.show(ViewPreset::Top);
        assert!(o.eye()[1] > 25.0);
        o.show(ViewPreset::Reset);
        assert_eq!(o, Orbit::for_radius(10.0));
    }

    #[test]
    fn wheel_down_zooms_out_and_up_zooms_in() {
        assert!(Orbit::wheel_factor(100.0) > 1.0);
        assert!(Orbit::wheel_factor(-100.0) < 1.0);
    }
}
