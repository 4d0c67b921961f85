//! Screen-space lines: the lattice, the active layer's frame and the last move's crosshair.
//! Each segment is one instance of a quad that the vertex shader widens to its width in
//! CSS px across the segment's direction on screen (GL lines are one pixel wide, and thin
//! cylinders cost software GL most of a frame). A segment that passes behind the camera
//! (the camera inside a big box) is cut at the near plane. A line's colour goes towards
//! the background with its distance, by its `fade`: the lattice recedes.
//!
//! The lattice is drawn first and behind every stone, whatever its depth: on a 19³ box a
//! stone deep inside had dozens of lines in front of it, which covered it like noise. Depth
//! is read from the stones (nearer in front of farther) and the fading of the lines.

use three_d::{Context, InstanceBuffer, Program, Vec2, Vec3, Vec4, VertexBuffer, Viewer};

use super::discs::{colour, states};
use crate::board_view::paint::{Pass, Stroke, BACKGROUND};

const VERTEX: &str = "
uniform mat4 view;
uniform mat4 projection;
uniform vec2 viewportSize;
uniform float dpr;
uniform vec2 fadeRange;
uniform vec3 background;
// x: 0 at `from`, 1 at `to`; y: −1 or 1, the side.
in vec2 corner;
in vec3 from;
in vec3 to;
in vec4 colour;
// width (CSS px), fade
in vec2 params;
out vec4 col;
void main() {
    const float NEAR = 0.06;
    vec4 a = view * vec4(from, 1.0);
    vec4 b = view * vec4(to, 1.0);
    if (-a.z < NEAR && -b.z < NEAR) { gl_Position = vec4(2.0, 2.0, 2.0, 1.0); return; }
    if (-a.z < NEAR) { a = mix(a, b, (-NEAR - a.z) / (b.z - a.z)); }
    if (-b.z < NEAR) { b = mix(b, a, (-NEAR - b.z) / (a.z - b.z)); }
    vec4 ca = projection * a;
    vec4 cb = projection * b;
    vec2 half_vp = viewportSize * 0.5;
    vec2 sa = ca.xy / ca.w * half_vp;
    vec2 sb = cb.xy / cb.w * half_vp;
    vec2 d = sb - sa;
    vec2 dir = length(d) > 0.001 ? normalize(d) : vec2(1.0, 0.0);
    vec2 normal = vec2(-dir.y, dir.x);
    float w = params.x * dpr * 0.5;
    vec4 c = corner.x < 0.5 ? ca : cb;
    vec2 along = dir * w * (corner.x < 0.5 ? -1.0 : 1.0);
    vec2 offset = (normal * corner.y * w + along) / half_vp;
    gl_Position = vec4(c.xy + offset * c.w, c.z, c.w);
    float depth = -(corner.x < 0.5 ? a.z : b.z);
    float t = clamp((depth - fadeRange.x) / max(fadeRange.y - fadeRange.x, 0.001), 0.0, 1.0);
    col = vec4(mix(colour.rgb, background, params.y * t), colour.a);
}
";

const FRAGMENT: &str = "
in vec4 col;
layout (location = 0) out vec4 outColor;
void main() {
    outColor = col;
}
";

/// One pass's segments on the GPU.
struct Buffers {
    from: InstanceBuffer<Vec3>,
    to: InstanceBuffer<Vec3>,
    colour: InstanceBuffer<Vec4>,
    params: InstanceBuffer<Vec2>,
    count: u32,
}

/// The view's lines: one shader program, the solid lines (the lattice, the layer's frame)
/// and those over everything (the last move's crosshair), one draw call each.
pub struct Strokes {
    program: Program,
    corners: VertexBuffer<Vec2>,
    solid: Buffers,
    on_top: Buffers,
}

impl Strokes {
    pub fn new(context: &Context) -> Result<Strokes, String> {
        let program = Program::from_source(context, VERTEX, FRAGMENT).map_err(|e| format!("line shader: {e}"))?;
        let quad = [[0.0, -1.0], [1.0, -1.0], [1.0, 1.0], [0.0, -1.0], [1.0, 1.0], [0.0, 1.0]];
        let corners = VertexBuffer::new_with_data(context, &quad.map(|[x, y]| Vec2::new(x, y)));
        let empty = || Buffers {
            from: InstanceBuffer::new(context),
            to: InstanceBuffer::new(context),
            colour: InstanceBuffer::new(context),
            params: InstanceBuffer::new(context),
            count: 0,
        };
        Ok(Strokes { program, corners, solid: empty(), on_top: empty() })
    }

    /// Replaces the segments (each goes to its pass: solid, or over everything for any other).
    pub fn set(&mut self, strokes: &[Stroke]) {
        let (solid, on_top): (Vec<Stroke>, Vec<Stroke>) = strokes.iter().partition(|s| s.pass == Pass::Solid);
        for (b, list) in [(&mut self.solid, solid), (&mut self.on_top, on_top)] {
            b.count = list.len() as u32;
            if list.is_empty() {
                continue;
            }
            b.from.fill(&list.iter().map(|s| Vec3::from(s.from)).collect::<Vec<_>>());
            b.to.fill(&list.iter().map(|s| Vec3::from(s.to)).collect::<Vec<_>>());
            b.colour.fill(&list.iter().map(|s| colour(s.colour)).collect::<Vec<_>>());
            b.params.fill(&list.iter().map(|s| Vec2::new(s.width_px, s.fade)).collect::<Vec<_>>());
        }
    }

    /// Draws the solid segments, or (any other pass) those over everything; `fade_range` is
    /// the view distance over which the lattice goes from its colour towards the background:
    /// the box's nearest and farthest points.
    pub fn draw(&self, viewer: &dyn Viewer, dpr: f32, pass: Pass, fade_range: [f32; 2]) {
        let (b, pass) = if pass == Pass::Solid { (&self.solid, Pass::Solid) } else { (&self.on_top, Pass::OnTop) };
        if b.count == 0 {
            return;
        }
        let p = &self.program;
        let viewport = viewer.viewport();
        let bg = BACKGROUND.map(|v| f32::from(v) / 255.0);
        p.use_uniform("view", viewer.view());
        p.use_uniform("projection", viewer.projection());
        p.use_uniform("viewportSize", Vec2::new(viewport.width as f32, viewport.height as f32));
        p.use_uniform("dpr", dpr);
        p.use_uniform("fadeRange", Vec2::from(fade_range));
        p.use_uniform("background", Vec3::from(bg));
        p.use_vertex_attribute("corner", &self.corners);
        p.use_instance_attribute("from", &b.from);
        p.use_instance_attribute("to", &b.to);
        p.use_instance_attribute("colour", &b.colour);
        p.use_instance_attribute("params", &b.params);
        let states = match pass {
            // The lattice goes first and behind everything drawn after it: no depth written,
            // none tested — the states of a pass on top.
            Pass::Solid => states(Pass::OnTop),
            _ => states(pass),
        };
        p.draw_arrays_instanced(states, viewport, 6, b.count);
    }
}
