//! What the 3D view draws, as plain data: every stone, marker and line of a [`BoardScene`]
//! as screen-facing discs and screen-space strokes, each with its colour, size and drawing
//! pass. The renderer only uploads these; deciding them here keeps the decisions (what
//! marks the last move, what an isolated chain hides, which stones cannot be seen) native
//! and tested.
//!
//! Readability on a big box (19³ by default) rests on three choices:
//! - A disc is never drawn smaller than its `min_px` on screen, however far: at the default
//!   zoom of a 19³ box one point spacing is about 9 CSS px on a phone, so true-size stones
//!   were 6–7 px specks. Neighbouring stones then overlap, nearer ones in front.
//! - Every stone has an edge of the opposite tone (light on black, grey on white), so both
//!   colours stand out from the dark background and from each other.
//! - The lattice recedes: its lines fade towards the background with their distance from
//!   the camera, and a stones-only view leaves them out.

use super::{
    lattice::{points_on, segments, world_pos, LineKind, Segment},
    BoardScene,
};
use wire::events::Colour;

/// An sRGB colour with alpha, 0–255.
pub type Rgba = [u8; 4];

/// The view's background, as the renderer clears it.
pub const BACKGROUND: [u8; 3] = [11, 16, 32];
/// Stone radius in point spacings (0.5 would touch its neighbours).
pub const STONE_R: f32 = 0.42;
/// The smallest a stone is drawn, in CSS px of diameter: large enough to see and to tap
/// (WCAG 2.5.8 asks 24 px for a target: a tap within `TAP_MARGIN_PX` of a stone's edge
/// still takes it, so its target is at least 16 + 2·4 px).
pub const STONE_MIN_PX: f32 = 16.0;
pub const TAP_MARGIN_PX: f32 = 4.0;

pub const BLACK_FILL: [u8; 3] = [30, 30, 36];
/// The light edge that sets a black stone off the dark background.
pub const BLACK_EDGE: [u8; 3] = [200, 210, 232];
pub const WHITE_FILL: [u8; 3] = [238, 238, 232];
/// The grey edge that sets a white stone off a white or black one behind it; light enough
/// to stand out from the background too, so a white stone reads at its full size.
pub const WHITE_EDGE: [u8; 3] = [124, 128, 146];
/// The preview's edge: the confirm button's yellow (003 §2.4).
pub const PREVIEW_EDGE: [u8; 3] = [250, 204, 21];
/// The last move's ring.
pub const LAST_RING: [u8; 3] = [255, 84, 160];
/// Points emptied by the last move's captures.
pub const CAPTURED: [u8; 3] = [255, 120, 80];
pub const DEAD_MARK: [u8; 3] = [249, 115, 22];
pub const CITED: [u8; 3] = [74, 222, 128];
pub const LIBERTY: [u8; 3] = [74, 222, 128];
pub const SURFACE: [u8; 3] = [92, 114, 160];
pub const INTERIOR: [u8; 3] = [62, 78, 116];
pub const LAYER: [u8; 3] = [250, 204, 21];
pub const AXIS_X: [u8; 3] = [239, 68, 68];
pub const AXIS_Y: [u8; 3] = [34, 197, 94];
pub const AXIS_Z: [u8; 3] = [59, 130, 246];

/// The shape a disc is drawn as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A sphere-shaded stone with an edge ring; writes the depth of its sphere.
    Stone,
    /// A ring (the last move, liberties): only the edge band is drawn.
    Ring,
    /// A cross (a captured point).
    Cross,
    /// A filled flat dot (cited safe spaces).
    Dot,
    /// A square outline (a dead-stone candidate: a shape no other mark has).
    Square,
}

impl Shape {
    /// The code the fragment shader switches on.
    pub fn code(self) -> f32 {
        match self {
            Shape::Stone => 0.0,
            Shape::Ring => 1.0,
            Shape::Cross => 2.0,
            Shape::Dot => 3.0,
            Shape::Square => 4.0,
        }
    }
}

/// When and how a disc or stroke is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pass {
    /// The stones, opaque and writing depth; for lines, the lattice, drawn first and behind
    /// every stone (`renderer::strokes` says why).
    Solid,
    /// Blended, hidden behind what is in front of it (faded stones, markers on stones).
    Overlay,
    /// Blended, drawn over everything: what must be found at once (the last move's ring,
    /// the preview).
    OnTop,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Disc {
    pub centre: [f32; 3],
    /// World radius (point spacings).
    pub radius: f32,
    /// The smallest radius on screen, CSS px.
    pub min_px: f32,
    pub fill: Rgba,
    pub edge: Rgba,
    /// The edge band's width as a fraction of the radius (at least 2 px on screen).
    pub edge_frac: f32,
    pub shape: Shape,
    /// How far towards the camera (world units) its depth is taken, so that a mark on a
    /// stone is in front of that stone.
    pub lift: f32,
    /// A dark rim (at least one CSS px) around the outside of the edge band: a stone stands
    /// out from a light stone behind it as its edge stands out from the dark background, and
    /// the preview and the last move's ring are found among stones.
    pub outlined: bool,
    pub pass: Pass,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stroke {
    pub from: [f32; 3],
    pub to: [f32; 3],
    pub colour: Rgba,
    pub width_px: f32,
    /// How much the line fades towards the background with its distance (0: never, 1: the
    /// farthest part of the box nearly vanishes).
    pub fade: f32,
    pub pass: Pass,
}

/// A text placed on screen at a point (move numbers, the inspected point's name).
#[derive(Debug, Clone, PartialEq)]
pub struct Tag {
    pub at: [f32; 3],
    pub text: String,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Picture {
    pub discs: Vec<Disc>,
    pub strokes: Vec<Stroke>,
    /// Captured stones fading out (000 §9), drawn apart so that the fade is one number.
    pub ghosts: Vec<Disc>,
}

fn rgba(c: [u8; 3], a: u8) -> Rgba {
    [c[0], c[1], c[2], a]
}

/// A colour taken `t` of the way towards the background.
fn towards_background(c: [u8; 3], t: f32) -> [u8; 3] {
    let mix = |a: u8, b: u8| (f32::from(a) * (1.0 - t) + f32::from(b) * t).round() as u8;
    [mix(c[0], BACKGROUND[0]), mix(c[1], BACKGROUND[1]), mix(c[2], BACKGROUND[2])]
}

/// A stone of colour `c`: on the active layer in full, elsewhere a little dimmer (the
/// body only: the edge keeps its contrast).
pub fn stone(centre: [f32; 3], c: Colour, on_layer: bool) -> Disc {
    let (fill, edge) = match c {
        Colour::Black => (BLACK_FILL, BLACK_EDGE),
        Colour::White => (WHITE_FILL, WHITE_EDGE),
    };
    let fill = if on_layer || c == Colour::Black { fill } else { towards_background(fill, 0.18) };
    let edge_frac = if c == Colour::Black { 0.24 } else { 0.1 };
    Disc {
        centre,
        radius: STONE_R,
        min_px: STONE_MIN_PX / 2.0,
        fill: rgba(fill, 255),
        edge: rgba(edge, 255),
        edge_frac,
        shape: Shape::Stone,
        lift: 0.0,
        outlined: true,
        pass: Pass::Solid,
    }
}

/// A stone faded out while a chain is isolated: no edge, most of the way to the background.
fn faded(mut d: Disc) -> Disc {
    d.fill[3] = 40;
    d.edge[3] = 0;
    d.outlined = false;
    d.pass = Pass::Overlay;
    d
}

fn mark(centre: [f32; 3], scale: f32, colour: [u8; 3], shape: Shape, pass: Pass) -> Disc {
    Disc {
        centre,
        radius: STONE_R * scale,
        min_px: STONE_MIN_PX / 2.0 * scale,
        fill: rgba(colour, 255),
        edge: rgba(colour, 255),
        edge_frac: 0.3,
        shape,
        lift: STONE_R * 1.05,
        outlined: false,
        pass,
    }
}

/// The crosshair's colours: the axes' own, lighter, so that each line reads against the
/// dark background and says which axis it runs along.
pub const CROSS_X: [u8; 3] = [255, 130, 130];
pub const CROSS_Y: [u8; 3] = [120, 235, 160];
pub const CROSS_Z: [u8; 3] = [140, 180, 255];

/// Lines through `p` along the three axes across the whole box, in the axes' colours: the
/// last move's crosshair, which also tells its layer and its row at a glance. Drawn over
/// everything, like the ring: it is how the last move is found among hundreds of stones.
fn crosshair(dims: [u16; 3], o: [u16; 3]) -> impl Iterator<Item = Stroke> {
    let ends = [
        (world_pos(dims, 0, o[1], o[2]), world_pos(dims, dims[0] - 1, o[1], o[2]), CROSS_X),
        (world_pos(dims, o[0], 0, o[2]), world_pos(dims, o[0], dims[1] - 1, o[2]), CROSS_Y),
        (world_pos(dims, o[0], o[1], 0), world_pos(dims, o[0], o[1], dims[2] - 1), CROSS_Z),
    ];
    ends.into_iter().filter(|(a, b, _)| a != b).map(|(from, to, c)| Stroke {
        from,
        to,
        colour: rgba(c, 200),
        width_px: 2.5,
        fade: 0.0,
        pass: Pass::OnTop,
    })
}

/// Everything the view draws of `sc`.
pub fn paint(sc: &BoardScene) -> Picture {
    let dims = sc.dims();
    let inside = |p: [i64; 3]| sc.contains(p);
    let at = |p: [i64; 3]| {
        let o = sc.offsets(p);
        world_pos(dims, o[0], o[1], o[2])
    };
    let occupied: std::collections::HashSet<[i64; 3]> = sc.stones.iter().map(|(p, _)| *p).collect();
    // A stone inside a full 3×3×3 block of stones cannot be seen from any direction, so it is
    // not drawn: a full 25³ box draws its 3,458 outer stones instead of 15,625. (Six face
    // neighbours are not enough: with empty diagonals it shows between them.) Taps and
    // markers do not depend on this.
    let hidden = |p: [i64; 3]| {
        (-1..=1).all(|dx| (-1..=1).all(|dy| (-1..=1).all(|dz| occupied.contains(&[p[0] + dx, p[1] + dy, p[2] + dz]))))
    };
    let focus = sc.focus.as_ref();
    let in_focus = |p: &[i64; 3]| focus.is_none_or(|f| f.chain.contains(p));
    let mut out = Picture::default();

    // The lattice: hidden while a chain is isolated or in the stones-only view.
    if sc.grid && focus.is_none() {
        for seg in segments(dims) {
            if seg.kind == LineKind::Interior && points_on(dims, &seg).iter().all(|o| hidden(sc.actual(*o))) {
                continue;
            }
            out.strokes.push(lattice_stroke(&seg));
        }
    }
    // The active layer's outline (003 §7.6: both views share it).
    if dims[2] > 1 {
        let k = (sc.layer - sc.board.z.start).clamp(0, i64::from(dims[2]) - 1) as u16;
        let (x1, y1) = (dims[0] - 1, dims[1] - 1);
        let c = [
            world_pos(dims, 0, 0, k),
            world_pos(dims, x1, 0, k),
            world_pos(dims, x1, y1, k),
            world_pos(dims, 0, y1, k),
        ];
        for i in 0..4 {
            out.strokes.push(Stroke {
                from: c[i],
                to: c[(i + 1) % 4],
                colour: rgba(LAYER, 255),
                width_px: 3.0,
                fade: 0.0,
                pass: Pass::Solid,
            });
        }
    }
    for (p, c) in sc.stones.iter().filter(|(p, _)| inside(*p) && !hidden(*p)) {
        let d = stone(at(*p), *c, p[2] == sc.layer);
        out.discs.push(if in_focus(p) { d } else { faded(d) });
    }
    if let Some(f) = focus {
        // 003 §3.9's liberties of the isolated chain: a green ring on each.
        for p in f.liberties.iter().filter(|p| inside(**p)) {
            out.discs.push(Disc { lift: 0.0, ..mark(at(*p), 0.7, LIBERTY, Shape::Ring, Pass::OnTop) });
        }
    }
    if let Some(p) = sc.last.filter(|p| inside(*p)) {
        if focus.is_none() {
            out.strokes.extend(crosshair(dims, sc.offsets(p)));
        }
        out.discs.push(Disc { outlined: true, ..mark(at(p), 1.5, LAST_RING, Shape::Ring, Pass::OnTop) });
    }
    for p in sc.captured.iter().filter(|p| inside(**p)) {
        out.discs.push(Disc { lift: 0.0, ..mark(at(*p), 0.8, CAPTURED, Shape::Cross, Pass::Overlay) });
    }
    // Cited safe spaces (003 §3.2, §8.5) are empty points: a green dot where a stone would sit.
    for p in sc.cited.iter().filter(|p| inside(**p)) {
        out.discs.push(Disc { lift: 0.0, ..mark(at(*p), 0.5, CITED, Shape::Dot, Pass::Overlay) });
    }
    // 003 §3.4: a dead-stone candidate keeps its colour, with a square outline around it.
    for p in sc.dead.iter().filter(|p| inside(**p)) {
        out.discs.push(mark(at(*p), 1.25, DEAD_MARK, Shape::Square, Pass::OnTop));
    }
    // 003 §2.4: the selecting player's preview, in their colour with the confirm button's
    // yellow edge, over everything so that it is never lost behind other stones.
    if let Some((p, c)) = sc.preview.filter(|(p, _)| inside(*p)) {
        let mut d = stone(at(p), c, true);
        d.fill[3] = 200;
        d.edge = rgba(PREVIEW_EDGE, 255);
        d.edge_frac = 0.38;
        d.outlined = true;
        d.pass = Pass::OnTop;
        out.discs.push(d);
    }
    out.ghosts = sc
        .ghosts
        .iter()
        .filter(|(p, _)| inside(*p))
        .map(|(p, c)| Disc { pass: Pass::Overlay, ..stone(at(*p), *c, true) })
        .collect();
    out
}

fn lattice_stroke(seg: &Segment) -> Stroke {
    let (colour, width_px, fade) = match seg.kind {
        LineKind::Interior => (INTERIOR, 1.0, 0.85),
        _ => (SURFACE, 1.5, 0.6),
    };
    Stroke { from: seg.from, to: seg.to, colour: rgba(colour, 255), width_px, fade, pass: Pass::Solid }
}

/// The world positions of the tags the scene asks for (move numbers, a named point).
pub fn tags(sc: &BoardScene) -> Vec<Tag> {
    let dims = sc.dims();
    sc.tags
        .iter()
        .filter(|(p, _)| sc.contains(*p))
        .map(|(p, text)| {
            let o = sc.offsets(*p);
            Tag { at: world_pos(dims, o[0], o[1], o[2]), text: text.clone() }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board_view::Focus;

    /// WCAG 2 contrast ratio of two sRGB colours.
    fn contrast(a: [u8; 3], b: [u8; 3]) -> f64 {
        let lum = |c: [u8; 3]| {
            let lin = |v: u8| {
                let v = f64::from(v) / 255.0;
                if v <= 0.040_45 {
                    v / 12.92
                } else {
                    ((v + 0.055) / 1.055).powf(2.4)
                }
            };
            0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
        };
        let (x, y) = (lum(a), lum(b));
        (x.max(y) + 0.05) / (x.min(y) + 0.05)
    }

    /// A first check of the chosen colours (WCAG 1.4.11 asks 3:1 of what identifies a
    /// graphic); the end-to-end test measures the drawn pixels.
    #[test]
    fn each_stone_has_a_part_that_stands_out_from_the_background_and_from_the_other_colour() {
        assert!(contrast(BLACK_EDGE, BACKGROUND) >= 3.0);
        assert!(contrast(WHITE_FILL, BACKGROUND) >= 3.0);
        assert!(contrast(PREVIEW_EDGE, BACKGROUND) >= 3.0);
        assert!(contrast(LAST_RING, BACKGROUND) >= 3.0);
        assert!(contrast(BLACK_FILL, WHITE_FILL) >= 3.0);
        assert!(contrast(BLACK_FILL, BLACK_EDGE) >= 3.0, "the edge reads as a ring around the body");
        assert!(contrast(WHITE_EDGE, WHITE_FILL) >= 3.0);
        assert!(contrast(WHITE_EDGE, BLACK_FILL) >= 3.0, "a white stone before a black one");
        assert!(contrast(WHITE_EDGE, BACKGROUND) >= 3.0, "a white stone's edge is part of its size");
        // And against the lattice's brightest lines, which may run right beside a stone.
        assert!(contrast(BLACK_EDGE, SURFACE) >= 3.0);
        assert!(contrast(WHITE_FILL, SURFACE) >= 3.0);
    }

    fn scene(n: u16) -> BoardScene {
        BoardScene::empty_cube(n)
    }

    #[test]
    fn the_last_move_gets_a_ring_over_everything_and_a_crosshair_along_the_three_axes() {
        let mut s = scene(19);
        s.stones = vec![([10, 10, 10], Colour::Black), ([3, 4, 5], Colour::White)];
        s.last = Some([3, 4, 5]);
        let p = paint(&s);
        let ring: Vec<_> = p.discs.iter().filter(|d| d.shape == Shape::Ring).collect();
        assert_eq!(ring.len(), 1);
        assert_eq!(ring[0].pass, Pass::OnTop);
        assert_eq!(ring[0].centre, world_pos([19; 3], 2, 3, 4));
        assert!(ring[0].min_px > STONE_MIN_PX / 2.0, "the ring is drawn outside the stone");
        let cross: Vec<_> = p.strokes.iter().filter(|s| s.pass == Pass::OnTop).collect();
        assert_eq!(cross.len(), 3);
        for s in &cross {
            // Each runs across the whole box through the stone's point.
            let d: Vec<f32> = (0..3).map(|i| (s.to[i] - s.from[i]).abs()).collect();
            assert_eq!(d.iter().filter(|v| **v == 18.0).count(), 1, "{s:?}");
        }
    }

    #[test]
    fn stones_are_never_smaller_than_their_minimum_and_both_colours_have_an_edge() {
        let mut s = scene(19);
        s.stones = vec![([1, 1, 1], Colour::Black), ([2, 1, 1], Colour::White)];
        let p = paint(&s);
        let stones: Vec<_> = p.discs.iter().filter(|d| d.shape == Shape::Stone).collect();
        assert_eq!(stones.len(), 2);
        for d in stones {
            assert_eq!(d.min_px * 2.0, STONE_MIN_PX);
            assert_ne!(d.edge[..3], d.fill[..3]);
            assert!(d.edge_frac > 0.0);
            assert!(d.outlined, "a dark rim sets a stone off a light stone behind it");
        }
    }

    #[test]
    fn the_lattice_fades_with_depth_and_the_stones_only_view_drops_it() {
        let mut s = scene(5);
        let with = paint(&s);
        assert!(with.strokes.iter().any(|s| s.fade > 0.5), "inner lines recede");
        s.grid = false;
        let without = paint(&s);
        // Only the active layer's frame is left.
        assert_eq!(without.strokes.len(), 4);
    }

    #[test]
    fn an_isolated_chain_fades_the_rest_hides_the_lattice_and_rings_its_liberties() {
        let mut s = scene(5);
        s.stones = vec![([1, 1, 1], Colour::Black), ([2, 1, 1], Colour::Black), ([5, 5, 5], Colour::White)];
        s.last = Some([5, 5, 5]);
        s.focus = Some(Focus { chain: vec![[1, 1, 1], [2, 1, 1]], liberties: vec![[3, 1, 1], [1, 2, 1], [2, 2, 1]] });
        let p = paint(&s);
        let solid = p.discs.iter().filter(|d| d.shape == Shape::Stone && d.pass == Pass::Solid).count();
        let faded = p.discs.iter().filter(|d| d.shape == Shape::Stone && d.pass == Pass::Overlay).count();
        assert_eq!((solid, faded), (2, 1));
        assert_eq!(p.discs.iter().filter(|d| d.shape == Shape::Ring && d.fill[..3] == LIBERTY).count(), 3);
        assert_eq!(p.strokes.len(), 4, "only the layer frame: no lattice, no crosshair");
    }

    #[test]
    fn captures_previews_dead_stones_and_cited_spaces_each_have_their_own_shape() {
        let mut s = scene(5);
        s.stones = vec![([1, 1, 1], Colour::Black)];
        s.captured = vec![[2, 2, 2]];
        s.dead = vec![[1, 1, 1]];
        s.cited = vec![[4, 4, 4]];
        s.preview = Some(([3, 3, 3], Colour::Black));
        let p = paint(&s);
        let shape_at = |w: [f32; 3], shape: Shape| p.discs.iter().any(|d| d.centre == w && d.shape == shape);
        assert!(shape_at(world_pos([5; 3], 1, 1, 1), Shape::Cross));
        assert!(shape_at(world_pos([5; 3], 0, 0, 0), Shape::Square));
        assert!(shape_at(world_pos([5; 3], 3, 3, 3), Shape::Dot));
        let preview = p.discs.iter().find(|d| d.centre == world_pos([5; 3], 2, 2, 2)).unwrap();
        assert_eq!(
            (preview.shape, preview.pass, preview.edge[..3].to_vec()),
            (Shape::Stone, Pass::OnTop, PREVIEW_EDGE.to_vec())
        );
        assert!(preview.outlined, "the preview is found among stones too");
    }

    #[test]
    fn a_full_box_draws_only_its_outer_stones() {
        let mut s = scene(5);
        for z in 1..=5 {
            for y in 1..=5 {
                for x in 1..=5 {
                    s.stones.push(([x, y, z], Colour::Black));
                }
            }
        }
        let p = paint(&s);
        assert_eq!(p.discs.iter().filter(|d| d.shape == Shape::Stone).count(), 125 - 27);
    }

    #[test]
    fn points_outside_the_box_are_left_out() {
        let mut s = scene(3);
        s.stones = vec![([9, 9, 9], Colour::Black)];
        s.last = Some([9, 9, 9]);
        s.tags = vec![([9, 9, 9], "1".into()), ([1, 1, 1], "2".into())];
        let p = paint(&s);
        assert!(p.discs.is_empty());
        assert_eq!(tags(&s).len(), 1);
    }
}
