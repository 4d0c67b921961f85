//! Screen-facing discs: stones shaded as spheres, and the flat marks (rings, crosses, dots,
//! squares). One instanced draw call per set: each disc is two triangles that the vertex
//! shader turns to face the camera and never makes smaller than the disc's `min_px` on
//! screen (`paint` explains why); the fragment shader cuts the shape out, draws the edge
//! band (at least 2 px wide) and, for a stone, writes the depth of its sphere so that
//! nearer stones stand in front and lines meet its surface.

use three_d::{
    Blend, Context, Cull, DepthTest, InstanceBuffer, Program, RenderStates, Vec2, Vec3, Vec4, VertexBuffer, Viewer,
    WriteMask,
};

use crate::board_view::paint::{Disc, Pass};

const VERTEX: &str = "
uniform mat4 view;
uniform mat4 projection;
uniform vec2 viewportSize;
uniform float dpr;
in vec2 corner;
in vec3 centre;
in vec4 fill;
in vec4 edge;
// radius (world), min radius (CSS px), edge fraction, shape code
in vec4 shape;
// how far the depth is lifted towards the camera; 1 when outlined
in vec2 extra;
out vec2 p;
out vec4 vFill;
out vec4 vEdge;
out float vEdgeFrac;
out float vShape;
out float vPixels;
out vec3 vCentre;
out float vRadius;
out float vLift;
out float vRim;
void main() {
    vec4 c = view * vec4(centre, 1.0);
    float depth = -c.z;
    // Behind the camera: outside the clip volume, dropped.
    if (depth <= 0.01) { gl_Position = vec4(2.0, 2.0, 2.0, 1.0); return; }
    float focal = projection[1][1] * viewportSize.y * 0.5;
    float px = max(shape.x * focal / depth, shape.y * dpr);
    float r = px * depth / focal;
    p = corner;
    vFill = fill;
    vEdge = edge;
    // An outlined disc's band holds its dark rim (its outer third, at least one CSS px) and
    // still two px of edge colour inside it.
    bool outlined = extra.y > 0.5;
    vEdgeFrac = max(shape.z, (outlined ? 3.0 : 2.0) * dpr / px);
    vRim = outlined ? max(vEdgeFrac / 3.0, dpr / px) : 0.0;
    vShape = shape.w;
    vPixels = px;
    vCentre = c.xyz;
    vRadius = r;
    vLift = extra.x;
    gl_Position = projection * vec4(c.xy + corner * r, c.z, 1.0);
}
";

const FRAGMENT: &str = "
uniform mat4 projection;
uniform float alphaScale;
in vec2 p;
in vec4 vFill;
in vec4 vEdge;
in float vEdgeFrac;
in float vShape;
in float vPixels;
in vec3 vCentre;
in float vRadius;
in float vLift;
in float vRim;
layout (location = 0) out vec4 outColor;
float depthOf(vec3 v) {
    vec4 clip = projection * vec4(v, 1.0);
    return clamp(clip.z / clip.w * 0.5 + 0.5, 0.0, 1.0);
}
void main() {
    float r = length(p);
    // One screen pixel in disc units, for smooth edges.
    float aa = 1.0 / max(vPixels, 1.0);
    vec4 col;
    float coverage = 1.0 - smoothstep(1.0 - aa, 1.0, r);
    float inner = 1.0 - vEdgeFrac;
    if (vShape < 0.5) {
        // A stone: a sphere lit from the upper left in view space, its edge band around it.
        if (r > 1.0) discard;
        vec3 n = vec3(p, sqrt(max(1.0 - r * r, 0.0)));
        float diffuse = max(dot(n, normalize(vec3(-0.45, 0.55, 0.7))), 0.0);
        float highlight = pow(max(dot(n, normalize(vec3(-0.25, 0.35, 0.9))), 0.0), 28.0);
        vec3 body = vFill.rgb * (0.55 + 0.55 * diffuse) + vec3(0.35 * highlight);
        float band = smoothstep(inner - aa, inner, r);
        col = vec4(mix(body, vEdge.rgb, band * vEdge.a), mix(vFill.a, 1.0, band * vEdge.a) * coverage);
        gl_FragDepth = depthOf(vCentre + vec3(p * vRadius, n.z * vRadius));
    } else {
        float a;
        if (vShape < 1.5) {
            // Ring: the outer band.
            a = coverage * smoothstep(inner - aa, inner, r);
        } else if (vShape < 2.5) {
            // Cross: two bars along the diagonals.
            float d = min(abs(p.x - p.y), abs(p.x + p.y)) * 0.7071;
            a = (1.0 - smoothstep(vEdgeFrac * 0.5 - aa, vEdgeFrac * 0.5, d)) * (1.0 - smoothstep(0.9 - aa, 0.9, r));
        } else if (vShape < 3.5) {
            a = coverage;
        } else {
            // Square outline.
            float m = max(abs(p.x), abs(p.y));
            a = (1.0 - smoothstep(0.85 - aa, 0.85, m)) * smoothstep(0.85 - vEdgeFrac - aa, 0.85 - vEdgeFrac, m);
        }
        if (a <= 0.01) discard;
        col = vec4(vEdge.rgb, vEdge.a * a);
        gl_FragDepth = depthOf(vCentre + vec3(0.0, 0.0, vLift));
    }
    // The rim: dark, so that a disc stands out from a light stone behind it as its edge
    // band stands out from the dark background.
    if (vRim > 0.0 && r > 1.0 - vRim) {
        col.rgb = vec3(0.04, 0.06, 0.12);
    }
    col.a *= alphaScale;
    if (col.a <= 0.004) discard;
    outColor = col;
}
";

/// Which of the view's disc sets: one per pass, and the captured stones fading out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    Solid,
    Overlay,
    OnTop,
    Ghosts,
}

impl Slot {
    fn index(self) -> usize {
        self as usize
    }
    pub fn of(pass: Pass) -> Slot {
        match pass {
            Pass::Solid => Slot::Solid,
            Pass::Overlay => Slot::Overlay,
            Pass::OnTop => Slot::OnTop,
        }
    }
    fn pass(self) -> Pass {
        match self {
            Slot::Solid => Pass::Solid,
            Slot::Overlay | Slot::Ghosts => Pass::Overlay,
            Slot::OnTop => Pass::OnTop,
        }
    }
}

/// One set's per-disc data on the GPU.
struct Buffers {
    centre: InstanceBuffer<Vec3>,
    fill: InstanceBuffer<Vec4>,
    edge: InstanceBuffer<Vec4>,
    shape: InstanceBuffer<Vec4>,
    extra: InstanceBuffer<Vec2>,
    count: u32,
}

/// The view's discs: one shader program, a set of buffers per slot, one draw call per slot.
pub struct Discs {
    program: Program,
    corners: VertexBuffer<Vec2>,
    sets: [Buffers; 4],
}

/// An RGBA colour in bytes as the shaders take it.
pub(super) fn colour(c: [u8; 4]) -> Vec4 {
    Vec4::new(f32::from(c[0]) / 255.0, f32::from(c[1]) / 255.0, f32::from(c[2]) / 255.0, f32::from(c[3]) / 255.0)
}

impl Discs {
    pub fn new(context: &Context) -> Result<Discs, String> {
        let program = Program::from_source(context, VERTEX, FRAGMENT).map_err(|e| format!("disc shader: {e}"))?;
        let square = [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]];
        let corners = VertexBuffer::new_with_data(context, &square.map(|[x, y]| Vec2::new(x, y)));
        let empty = || Buffers {
            centre: InstanceBuffer::new(context),
            fill: InstanceBuffer::new(context),
            edge: InstanceBuffer::new(context),
            shape: InstanceBuffer::new(context),
            extra: InstanceBuffer::new(context),
            count: 0,
        };
        Ok(Discs { program, corners, sets: [empty(), empty(), empty(), empty()] })
    }

    /// Replaces the discs of `slot`.
    pub fn set(&mut self, slot: Slot, discs: &[Disc]) {
        let b = &mut self.sets[slot.index()];
        b.count = discs.len() as u32;
        if discs.is_empty() {
            return;
        }
        b.centre.fill(&discs.iter().map(|d| Vec3::from(d.centre)).collect::<Vec<_>>());
        b.fill.fill(&discs.iter().map(|d| colour(d.fill)).collect::<Vec<_>>());
        b.edge.fill(&discs.iter().map(|d| colour(d.edge)).collect::<Vec<_>>());
        b.shape.fill(
            &discs.iter().map(|d| Vec4::new(d.radius, d.min_px, d.edge_frac, d.shape.code())).collect::<Vec<_>>(),
        );
        b.extra.fill(&discs.iter().map(|d| Vec2::new(d.lift, f32::from(u8::from(d.outlined)))).collect::<Vec<_>>());
    }

    /// Draws `slot`, its alpha multiplied by `alpha` (captured stones fading).
    pub fn draw(&self, viewer: &dyn Viewer, dpr: f32, slot: Slot, alpha: f32) {
        let b = &self.sets[slot.index()];
        if b.count == 0 {
            return;
        }
        let p = &self.program;
        let viewport = viewer.viewport();
        p.use_uniform("view", viewer.view());
        p.use_uniform("projection", viewer.projection());
        p.use_uniform("viewportSize", Vec2::new(viewport.width as f32, viewport.height as f32));
        p.use_uniform("dpr", dpr);
        p.use_uniform("alphaScale", alpha);
        p.use_vertex_attribute("corner", &self.corners);
        p.use_instance_attribute("centre", &b.centre);
        p.use_instance_attribute("fill", &b.fill);
        p.use_instance_attribute("edge", &b.edge);
        p.use_instance_attribute("shape", &b.shape);
        p.use_instance_attribute("extra", &b.extra);
        p.draw_arrays_instanced(states(slot.pass()), viewport, 6, b.count);
    }
}

/// The GL states of a pass: solid writes depth; an overlay is blended and hidden behind
/// nearer things; on top is blended over everything.
pub fn states(pass: Pass) -> RenderStates {
    match pass {
        Pass::Solid => RenderStates {
            write_mask: WriteMask::COLOR_AND_DEPTH,
            depth_test: DepthTest::LessOrEqual,
            blend: Blend::TRANSPARENCY,
            cull: Cull::None,
        },
        Pass::Overlay => RenderStates {
            write_mask: WriteMask::COLOR,
            depth_test: DepthTest::LessOrEqual,
            blend: Blend::TRANSPARENCY,
            cull: Cull::None,
        },
        Pass::OnTop => RenderStates {
            write_mask: WriteMask::COLOR,
            depth_test: DepthTest::Always,
            blend: Blend::TRANSPARENCY,
            cull: Cull::None,
        },
    }
}
