//! The three reference arrows (003 §7.2): a shaft and a cone head in each axis' colour, from
//! the reference point a little past the box.

use three_d::{vec3, ColorMaterial, Context, CpuMesh, Gm, Mat4, Mesh, Quaternion, RenderStates, Vec3};

use crate::board_view::{
    lattice::{axes, LineKind, Segment},
    paint,
};

/// The three reference arrows of an nx×ny×nz box.
pub(super) fn build_arrows(context: &Context, dims: [u16; 3]) -> Vec<Gm<Mesh, ColorMaterial>> {
    // Arrow heads shrink on small boxes so they do not hide the stones.
    let arrow_scale = (*dims.iter().max().unwrap_or(&19) as f32 / 19.0).clamp(0.4, 1.0);
    axes(dims).iter().map(|a| build_arrow(context, a, arrow_scale)).collect()
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
    let [r, g, b] = match s.kind {
        LineKind::AxisX => paint::AXIS_X,
        LineKind::AxisY => paint::AXIS_Y,
        _ => paint::AXIS_Z,
    };
    let material = ColorMaterial {
        color: three_d::Srgba::new_opaque(r, g, b),
        texture: None,
        render_states: RenderStates::default(),
        is_transparent: false,
    };
    Gm::new(Mesh::new(context, &mesh), material)
}
