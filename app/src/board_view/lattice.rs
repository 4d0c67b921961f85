//! The box in world space: where its points are, its grid lines as segments (and the points
//! each passes through), the three reference axes, the enclosing radius, and the point a
//! tap takes among the points as drawn on screen (`pick_on_screen`).
//!
//! World axes follow the board's (003 §7.1): X runs left→right (+x), Y top→bottom (−y in
//! world, since world y points up), Z back→front (+z, towards the default viewer). Points
//! are one unit apart and the box is centred on the origin.

/// What a segment is drawn as: a grid line inside the box, one on its surface, or one of
/// the three reference axes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    Interior,
    Surface,
    AxisX,
    AxisY,
    AxisZ,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    pub from: [f32; 3],
    pub to: [f32; 3],
    pub kind: LineKind,
}

/// World position of board point (i, j, k), 0-based along X, Y, Z, on an nx×ny×nz box.
pub fn world_pos(dims: [u16; 3], i: u16, j: u16, k: u16) -> [f32; 3] {
    let c = |n: u16| (n as f32 - 1.0) / 2.0;
    [i as f32 - c(dims[0]), c(dims[1]) - j as f32, k as f32 - c(dims[2])]
}

/// All grid lines of the box: every line along X, Y and Z through the points, marked as
/// surface lines when they lie on a face of the box (drawn brighter: they outline it).
pub fn segments(dims: [u16; 3]) -> Vec<Segment> {
    let [nx, ny, nz] = dims;
    let edge = |v: u16, n: u16| v == 0 || v + 1 == n;
    let kind = |surface: bool| {
        if surface {
            LineKind::Surface
        } else {
            LineKind::Interior
        }
    };
    let mut out = Vec::with_capacity(ny as usize * nz as usize + nx as usize * nz as usize + nx as usize * ny as usize);
    if nx > 1 {
        for j in 0..ny {
            for k in 0..nz {
                let kind = kind(edge(j, ny) || edge(k, nz));
                out.push(Segment { from: world_pos(dims, 0, j, k), to: world_pos(dims, nx - 1, j, k), kind });
            }
        }
    }
    if ny > 1 {
        for i in 0..nx {
            for k in 0..nz {
                let kind = kind(edge(i, nx) || edge(k, nz));
                out.push(Segment { from: world_pos(dims, i, 0, k), to: world_pos(dims, i, ny - 1, k), kind });
            }
        }
    }
    if nz > 1 {
        for i in 0..nx {
            for j in 0..ny {
                let kind = kind(edge(i, nx) || edge(j, ny));
                out.push(Segment { from: world_pos(dims, i, j, 0), to: world_pos(dims, i, j, nz - 1), kind });
            }
        }
    }
    out
}

/// The 0-based offsets of board point nearest world position `w` (inverse of `world_pos`).
pub fn offsets_at(dims: [u16; 3], w: [f32; 3]) -> [u16; 3] {
    let c = |n: u16| (n as f32 - 1.0) / 2.0;
    let clamp = |v: f32, n: u16| v.round().clamp(0.0, (n.max(1) - 1) as f32) as u16;
    [clamp(w[0] + c(dims[0]), dims[0]), clamp(c(dims[1]) - w[1], dims[1]), clamp(w[2] + c(dims[2]), dims[2])]
}

/// The board points a grid line passes through, in order.
pub fn points_on(dims: [u16; 3], s: &Segment) -> Vec<[u16; 3]> {
    let (a, b) = (offsets_at(dims, s.from), offsets_at(dims, s.to));
    let axis = (0..3).find(|&i| a[i] != b[i]).unwrap_or(0);
    let (lo, hi) = (a[axis].min(b[axis]), a[axis].max(b[axis]));
    (lo..=hi)
        .map(|v| {
            let mut p = a;
            p[axis] = v;
            p
        })
        .collect()
}

/// How far the axis arrows reach past the last point, in point spacings.
pub const AXIS_OVERSHOOT: f32 = 1.5;

/// The three reference axes (003 §7.2): from the reference point (the first point of every
/// axis, "1,1,1") along +X, +Y and +Z, a little past the box so their heads stay visible.
pub fn axes(dims: [u16; 3]) -> [Segment; 3] {
    let o = world_pos(dims, 0, 0, 0);
    let len = |n: u16| (n as f32 - 1.0) + AXIS_OVERSHOOT;
    [
        Segment { from: o, to: [o[0] + len(dims[0]), o[1], o[2]], kind: LineKind::AxisX },
        Segment { from: o, to: [o[0], o[1] - len(dims[1]), o[2]], kind: LineKind::AxisY },
        Segment { from: o, to: [o[0], o[1], o[2] + len(dims[2])], kind: LineKind::AxisZ },
    ]
}

/// Radius of the sphere around the box centre that holds everything a view draws: the box,
/// the axis arrows past its reference corner, a stone's radius and room for the letters and
/// tick labels (003 §7.5–7.6). The camera fits this, not the box alone, so that a small
/// region (3×2×2) shows its stones, arrows and letters whole instead of cropping them.
pub fn view_radius(dims: [u16; 3]) -> f32 {
    const MARGIN: f32 = 0.36 + 0.6;
    let h = |n: u16| (n.max(1) as f32 - 1.0) / 2.0;
    let corner = (h(dims[0]).powi(2) + h(dims[1]).powi(2) + h(dims[2]).powi(2)).sqrt();
    let tips = axes(dims).map(|a| (a.to[0].powi(2) + a.to[1].powi(2) + a.to[2].powi(2)).sqrt());
    tips.into_iter().fold(corner, f32::max) + MARGIN
}

/// Radius of the sphere that encloses the box (for camera distance limits).
pub fn bounding_radius(dims: [u16; 3]) -> f32 {
    let h = |n: u16| (n as f32 - 1.0) / 2.0;
    (h(dims[0]).powi(2) + h(dims[1]).powi(2) + h(dims[2]).powi(2)).sqrt().max(0.5)
}

/// A board point as a view shows it: where on screen (CSS px), how far from the camera, and
/// the radius within which a tap takes it (a stone's drawn disc with a margin; for an empty
/// point, the pick radius at its distance).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OnScreen {
    pub at: [u16; 3],
    pub screen: [f32; 2],
    pub depth: f32,
    pub radius: f32,
    /// A stone's drawn radius (CSS px); `None` for an empty point.
    pub stone: Option<f32>,
}

/// The point a tap at `tap` takes: what is seen there. The nearest stone whose drawn disc
/// holds the tap (stones are drawn in front of the empty points around them and may be drawn
/// larger than their spacing); else, within the margin around the discs, the stone whose
/// centre is closest; else the nearest empty point within its radius.
pub fn pick_on_screen(points: &[OnScreen], tap: [f32; 2]) -> Option<[u16; 3]> {
    let off = |p: &OnScreen| ((p.screen[0] - tap[0]).powi(2) + (p.screen[1] - tap[1]).powi(2)).sqrt();
    let ahead = || points.iter().filter(|p| p.depth > 0.0);
    let on_disc =
        ahead().filter(|p| p.stone.is_some_and(|drawn| off(p) <= drawn)).min_by(|a, b| a.depth.total_cmp(&b.depth));
    let in_margin =
        || ahead().filter(|p| p.stone.is_some() && off(p) <= p.radius).min_by(|a, b| off(a).total_cmp(&off(b)));
    let empty =
        || ahead().filter(|p| p.stone.is_none() && off(p) <= p.radius).min_by(|a, b| a.depth.total_cmp(&b.depth));
    on_disc.or_else(in_margin).or_else(empty).map(|p| p.at)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_tap_takes_the_stone_seen_there_before_an_empty_point_in_front_of_it() {
        let at = |i: u16, x: f32, depth: f32, radius: f32, stone: bool| OnScreen {
            at: [i, 0, 0],
            screen: [x, 100.0],
            depth,
            radius,
            stone: stone.then_some(radius - 4.0),
        };
        let points = [at(1, 100.0, 5.0, 6.0, false), at(2, 102.0, 9.0, 12.0, true), at(3, 104.0, 8.0, 12.0, true)];
        // Two stones' discs hold the tap: the nearer; the empty point in front does not take it.
        assert_eq!(pick_on_screen(&points, [101.0, 100.0]), Some([3, 0, 0]));
        // Beyond every stone's disc, the empty point within its radius.
        let points = [at(1, 100.0, 5.0, 6.0, false), at(2, 130.0, 9.0, 12.0, true)];
        assert_eq!(pick_on_screen(&points, [104.0, 100.0]), Some([1, 0, 0]));
        assert_eq!(pick_on_screen(&points, [110.0, 100.0]), None);
        // Behind the camera nothing is taken.
        assert_eq!(pick_on_screen(&[at(1, 100.0, -1.0, 50.0, true)], [100.0, 100.0]), None);
    }

    #[test]
    fn a_tap_on_a_disc_beats_a_nearer_stone_whose_margin_only_reaches_it() {
        let stone = |i: u16, x: f32, depth: f32| OnScreen {
            at: [i, 0, 0],
            screen: [x, 100.0],
            depth,
            radius: 12.0,
            stone: Some(8.0),
        };
        // The tap is on the far stone's disc and in the margin of the near one beside it.
        let points = [stone(1, 100.0, 5.0), stone(2, 111.0, 9.0)];
        assert_eq!(pick_on_screen(&points, [109.0, 100.0]), Some([2, 0, 0]));
        // Between two discs, in both margins: the closer centre.
        let points = [stone(1, 100.0, 5.0), stone(2, 120.0, 9.0)];
        assert_eq!(pick_on_screen(&points, [111.0, 100.0]), Some([2, 0, 0]));
        assert_eq!(pick_on_screen(&points, [109.0, 100.0]), Some([1, 0, 0]));
    }

    #[test]
    fn the_view_fits_arrows_and_stones_for_every_box_size() {
        // 003 §7.5–7.6: what is drawn stays inside the fitted sphere, small boxes included.
        for dims in [[1, 1, 1], [3, 2, 2], [7, 5, 3], [19, 19, 19], [25, 25, 25], [25, 1, 1]] {
            let r = view_radius(dims);
            for a in axes(dims) {
                let tip = (a.to[0].powi(2) + a.to[1].powi(2) + a.to[2].powi(2)).sqrt();
                assert!(tip + 0.36 < r, "{dims:?}: arrow tip {tip} outside {r}");
            }
            assert!(bounding_radius(dims) < r, "{dims:?}");
        }
        // Small regions are no longer fitted to the box alone: 3×2×2 was 1.22.
        assert!(view_radius([3, 2, 2]) > 3.0);
    }

    use super::*;

    #[test]
    fn a_line_passes_through_the_points_of_its_row() {
        let dims = [3, 4, 5];
        for s in segments(dims) {
            let pts = points_on(dims, &s);
            assert_eq!(Vec::from(world_pos(dims, pts[0][0], pts[0][1], pts[0][2])), Vec::from(s.from));
            let last = pts[pts.len() - 1];
            assert_eq!(Vec::from(world_pos(dims, last[0], last[1], last[2])), Vec::from(s.to));
            assert!(pts.len() == 3 || pts.len() == 4 || pts.len() == 5, "{pts:?}");
        }
        assert_eq!(offsets_at(dims, world_pos(dims, 2, 3, 4)), [2, 3, 4]);
    }

    #[test]
    fn cube_19_has_three_families_of_361_lines() {
        let s = segments([19, 19, 19]);
        assert_eq!(s.len(), 3 * 361);
        // Per family, the lines not on the surface form a 17×17 block.
        let interior = s.iter().filter(|s| s.kind == LineKind::Interior).count();
        assert_eq!(interior, 3 * 17 * 17);
    }

    #[test]
    fn axes_start_at_the_reference_point_and_point_the_right_way() {
        let dims = [5, 7, 9];
        let origin = world_pos(dims, 0, 0, 0);
        let o = AXIS_OVERSHOOT;
        for s in axes(dims) {
            assert_eq!(s.from, origin);
            let d = [s.to[0] - s.from[0], s.to[1] - s.from[1], s.to[2] - s.from[2]];
            match s.kind {
                LineKind::AxisX => assert_eq!(d, [4.0 + o, 0.0, 0.0]), // left → right
                LineKind::AxisY => assert_eq!(d, [0.0, -6.0 - o, 0.0]), // top → bottom
                LineKind::AxisZ => assert_eq!(d, [0.0, 0.0, 8.0 + o]), // back → front
                _ => panic!("not an axis: {s:?}"),
            }
        }
    }

    #[test]
    fn flat_board_has_no_depth_lines_and_is_centred() {
        let s = segments([9, 9, 1]);
        assert_eq!(s.len(), 18);
        assert!(s.iter().all(|s| s.kind == LineKind::Surface), "every line of a flat board is on its surface");
        assert_eq!(world_pos([9, 9, 1], 4, 4, 0), [0.0, 0.0, 0.0]);
    }
}
