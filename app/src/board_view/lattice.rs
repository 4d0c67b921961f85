//! Grid lines of an empty box, as segments in world space.
//!
//! World axes follow the board's (003 §7.1): X runs left→right (+x), Y top→bottom (−y in
//! world, since world y points up), Z back→front (+z, towards the default viewer). Points
//! are one unit apart and the box is centred on the origin.

/// What a segment is drawn as: ordinary grid or one of the three reference axes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    Grid,
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

/// All grid lines of the box: every line along X, Y and Z through the points. The three
/// lines through the reference point (the first point of every axis, "1,1,1") are marked as
/// axes so they can be drawn in distinct colours (003 §7.2).
pub fn segments(dims: [u16; 3]) -> Vec<Segment> {
    let [nx, ny, nz] = dims;
    let mut out = Vec::with_capacity(ny as usize * nz as usize + nx as usize * nz as usize + nx as usize * ny as usize);
    for j in 0..ny {
        for k in 0..nz {
            let kind = if j == 0 && k == 0 { LineKind::AxisX } else { LineKind::Grid };
            if nx > 1 {
                out.push(Segment { from: world_pos(dims, 0, j, k), to: world_pos(dims, nx - 1, j, k), kind });
            }
        }
    }
    for i in 0..nx {
        for k in 0..nz {
            let kind = if i == 0 && k == 0 { LineKind::AxisY } else { LineKind::Grid };
            if ny > 1 {
                out.push(Segment { from: world_pos(dims, i, 0, k), to: world_pos(dims, i, ny - 1, k), kind });
            }
        }
    }
    for i in 0..nx {
        for j in 0..ny {
            let kind = if i == 0 && j == 0 { LineKind::AxisZ } else { LineKind::Grid };
            if nz > 1 {
                out.push(Segment { from: world_pos(dims, i, j, 0), to: world_pos(dims, i, j, nz - 1), kind });
            }
        }
    }
    out
}

/// Radius of the sphere that encloses the box (for camera distance limits).
pub fn bounding_radius(dims: [u16; 3]) -> f32 {
    let h = |n: u16| (n as f32 - 1.0) / 2.0;
    (h(dims[0]).powi(2) + h(dims[1]).powi(2) + h(dims[2]).powi(2)).sqrt().max(0.5)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cube_19_has_three_families_of_361_lines() {
        let s = segments([19, 19, 19]);
        assert_eq!(s.len(), 3 * 361);
        let axes: Vec<_> = s.iter().filter(|s| s.kind != LineKind::Grid).collect();
        assert_eq!(axes.len(), 3, "exactly one line per reference axis");
    }

    #[test]
    fn axes_start_at_the_reference_point_and_point_the_right_way() {
        let dims = [5, 7, 9];
        let origin = world_pos(dims, 0, 0, 0);
        for s in segments(dims).into_iter().filter(|s| s.kind != LineKind::Grid) {
            assert_eq!(s.from, origin);
            let d = [s.to[0] - s.from[0], s.to[1] - s.from[1], s.to[2] - s.from[2]];
            match s.kind {
                LineKind::AxisX => assert_eq!(d, [4.0, 0.0, 0.0]),  // left → right
                LineKind::AxisY => assert_eq!(d, [0.0, -6.0, 0.0]), // top → bottom
                LineKind::AxisZ => assert_eq!(d, [0.0, 0.0, 8.0]),  // back → front
                LineKind::Grid => unreachable!(),
            }
        }
    }

    #[test]
    fn flat_board_has_no_depth_lines_and_is_centred() {
        let s = segments([9, 9, 1]);
        assert_eq!(s.len(), 18);
        assert_eq!(world_pos([9, 9, 1], 4, 4, 0), [0.0, 0.0, 0.0]);
    }
}
