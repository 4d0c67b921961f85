//! The region view's box (003 §7.3–7.6, §9.4): an X/Y window judged on the active Z layer
//! and a Z range that follows the active layer. Plain maths over actual coordinates, shared
//! by the browser and the tests.
//!
//! - Local-ten mode: ten lines per axis around a reference point, split equally; ten is
//!   even, so the extra line goes to the **higher** coordinates: `[c − 4, c + 5]`. At a
//!   board edge the window shifts inwards (the opposite side gets the lines). An axis of
//!   ten lines or fewer is shown whole; nothing ever leaves the board.
//! - While the window holds fewer than ten empty points on the active layer it grows by one
//!   line on each side (or on the open side at an edge) until it has ten or covers the layer.
//! - Whole-group mode: the group's extent on each axis plus a margin of one line, clamped to
//!   the board; it may exceed ten lines.
//! - A layer chosen outside the Z range moves the range just far enough to include it.
//! - Reference point for a drag selection: among the stones inside the dragged rectangle the
//!   one drawn largest, ties broken by camera distance and then by coordinates (x, y, z);
//!   with no stones, the point of the active layer nearest the drag centre.

/// Lines shown per axis in local mode.
pub const LOCAL_LINES: i64 = 10;
/// Empty points the window should show on the active layer (003 §7.4).
pub const MIN_EMPTY: usize = 10;
/// Margin around a group in whole-group mode.
pub const GROUP_MARGIN: i64 = 1;

/// An inclusive range of actual coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub lo: i64,
    pub hi: i64,
}

impl Span {
    pub fn len(self) -> i64 {
        self.hi - self.lo + 1
    }
    pub fn is_empty(self) -> bool {
        self.hi < self.lo
    }
    pub fn contains(self, v: i64) -> bool {
        (self.lo..=self.hi).contains(&v)
    }
}

/// The window in X and Y on one layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub x: Span,
    pub y: Span,
}

impl Window {
    pub fn contains(&self, x: i64, y: i64) -> bool {
        self.x.contains(x) && self.y.contains(y)
    }
}

/// Ten lines around `c` on an axis `board` (see the module docs for the split and edges).
pub fn local_span(board: Span, c: i64) -> Span {
    if board.len() <= LOCAL_LINES {
        return board;
    }
    let c = c.clamp(board.lo, board.hi);
    let mut lo = c - (LOCAL_LINES / 2 - 1);
    let mut hi = c + LOCAL_LINES / 2;
    if lo < board.lo {
        hi += board.lo - lo;
        lo = board.lo;
    }
    if hi > board.hi {
        lo -= hi - board.hi;
        hi = board.hi;
    }
    Span { lo, hi }
}

/// Grows `w` one line per side at a time (the open side only at an edge) until `empty`
/// counts at least `MIN_EMPTY` empty points inside it, or it covers the whole layer.
pub fn expand_for_empty(board: Window, mut w: Window, empty: impl Fn(i64, i64) -> bool) -> Window {
    let count = |w: &Window| {
        let mut n = 0;
        for y in w.y.lo..=w.y.hi {
            for x in w.x.lo..=w.x.hi {
                if empty(x, y) {
                    n += 1;
                }
            }
        }
        n
    };
    while count(&w) < MIN_EMPTY && w != board {
        w.x = grow(board.x, w.x);
        w.y = grow(board.y, w.y);
    }
    w
}

/// One more line on each side, or two on the open side when one side is at the edge.
fn grow(board: Span, s: Span) -> Span {
    let mut out = s;
    let mut extra = 0;
    if out.lo > board.lo {
        out.lo -= 1;
    } else {
        extra += 1;
    }
    if out.hi < board.hi {
        out.hi += 1 + extra;
        extra = 0;
    } else {
        extra += 1;
    }
    out.lo = (out.lo - extra).max(board.lo);
    out.hi = out.hi.min(board.hi);
    out
}

/// Local-ten mode around (cx, cy), expanded for empty points.
pub fn local_window(board: Window, cx: i64, cy: i64, empty: impl Fn(i64, i64) -> bool) -> Window {
    let w = Window { x: local_span(board.x, cx), y: local_span(board.y, cy) };
    expand_for_empty(board, w, empty)
}

/// A point as seen on screen during a drag selection.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Seen {
    pub at: [i64; 3],
    /// Position on the canvas (CSS px from its top left, as the dragged rectangle).
    pub screen: [f32; 2],
    /// Apparent radius on screen (px).
    pub size: f32,
    /// Distance from the camera.
    pub distance: f32,
    pub has_stone: bool,
}

/// The reference point of a drag over `rect` (x0, y0, x1, y1 in screen px): 003 §7.3, §9.4.
pub fn drag_reference(seen: &[Seen], rect: [f32; 4], active_z: i64) -> Option<[i64; 3]> {
    let [x0, y0, x1, y1] = rect;
    let (lx, hx, ly, hy) = (x0.min(x1), x0.max(x1), y0.min(y1), y0.max(y1));
    let inside = |s: &&Seen| (lx..=hx).contains(&s.screen[0]) && (ly..=hy).contains(&s.screen[1]);
    let stones = seen.iter().filter(|s| s.has_stone).filter(inside);
    let best = stones.min_by(|a, b| {
        b.size
            .total_cmp(&a.size)
            .then(a.distance.total_cmp(&b.distance))
            .then(a.at[0].cmp(&b.at[0]))
            .then(a.at[1].cmp(&b.at[1]))
            .then(a.at[2].cmp(&b.at[2]))
    });
    if let Some(s) = best {
        return Some(s.at);
    }
    let (cx, cy) = ((lx + hx) / 2.0, (ly + hy) / 2.0);
    seen.iter()
        .filter(|s| s.at[2] == active_z)
        .min_by(|a, b| {
            let d = |s: &Seen| (s.screen[0] - cx).powi(2) + (s.screen[1] - cy).powi(2);
            d(a).total_cmp(&d(b)).then(a.at.cmp(&b.at))
        })
        .map(|s| s.at)
}

/// A layer kept inside the board's Z axis.
pub fn clamp_layer(z_axis: Span, z: i64) -> i64 {
    z.clamp(z_axis.lo, z_axis.hi)
}

/// 003 §7.6: a layer chosen outside the region's Z range shifts the range (same length,
/// inside the board) just far enough to include it; a layer inside leaves it alone.
pub fn follow_layer(board: Span, s: Span, layer: i64) -> Span {
    let layer = clamp_layer(board, layer);
    let shift = if layer < s.lo {
        layer - s.lo
    } else if layer > s.hi {
        layer - s.hi
    } else {
        0
    };
    let len = s.len().min(board.len());
    let lo = (s.lo + shift).clamp(board.lo, board.hi - len + 1);
    Span { lo, hi: lo + len - 1 }
}

/// Whole-group mode on one axis: the group's extent with the margin, inside the board.
pub fn group_span(board: Span, values: impl Iterator<Item = i64> + Clone) -> Option<Span> {
    let lo = values.clone().min()?;
    let hi = values.max()?;
    Some(Span { lo: (lo - GROUP_MARGIN).max(board.lo), hi: (hi + GROUP_MARGIN).min(board.hi) })
}

#[cfg(test)]
mod tests {
    use super::*;

    const B19: Span = Span { lo: 1, hi: 19 };

    #[test]
    fn ten_lines_split_with_the_extra_line_on_the_higher_side() {
        // 003 §7.4: equal on both sides; ten is even, so the higher side gets five.
        assert_eq!(local_span(B19, 10), Span { lo: 6, hi: 15 });
        assert_eq!(local_span(B19, 10).len(), 10);
    }

    #[test]
    fn at_a_board_edge_the_window_shifts_to_the_opposite_side() {
        assert_eq!(local_span(B19, 1), Span { lo: 1, hi: 10 });
        assert_eq!(local_span(B19, 3), Span { lo: 1, hi: 10 });
        assert_eq!(local_span(B19, 19), Span { lo: 10, hi: 19 });
        assert_eq!(local_span(Span { lo: -5, hi: 20 }, 20), Span { lo: 11, hi: 20 });
    }

    #[test]
    fn an_axis_of_ten_lines_or_fewer_is_shown_whole() {
        assert_eq!(local_span(Span { lo: 1, hi: 5 }, 3), Span { lo: 1, hi: 5 });
        assert_eq!(local_span(Span { lo: 1, hi: 1 }, 1), Span { lo: 1, hi: 1 });
    }

    #[test]
    fn a_crowded_layer_grows_the_window_equally_until_ten_points_are_empty() {
        let board = Window { x: B19, y: B19 };
        // Everything inside 3..=16 × 3..=16 is occupied: 6..=15 has no empty point, nor has
        // 5..=16; 4..=17 has 27.
        let empty = |x: i64, y: i64| !((3..=16).contains(&x) && (3..=16).contains(&y));
        let w = local_window(board, 10, 10, empty);
        assert_eq!(w, Window { x: Span { lo: 4, hi: 17 }, y: Span { lo: 4, hi: 17 } }, "one line per side per step");
        let n = (w.y.lo..=w.y.hi)
            .flat_map(|y| (w.x.lo..=w.x.hi).map(move |x| (x, y)))
            .filter(|(x, y)| empty(*x, *y))
            .count();
        assert!(n >= MIN_EMPTY);
    }

    #[test]
    fn growth_at_an_edge_goes_to_the_open_side_and_stops_at_the_whole_layer() {
        let board = Window { x: B19, y: B19 };
        let w = expand_for_empty(board, Window { x: Span { lo: 1, hi: 10 }, y: Span { lo: 1, hi: 10 } }, |_, _| false);
        assert_eq!(w, board, "a full layer ends with the whole layer, not a loop");
        assert_eq!(grow(B19, Span { lo: 1, hi: 10 }), Span { lo: 1, hi: 12 });
        assert_eq!(grow(B19, Span { lo: 10, hi: 19 }), Span { lo: 8, hi: 19 });
    }

    #[test]
    fn whole_group_mode_adds_a_margin_and_may_exceed_ten_lines() {
        let g = [(1, 5), (14, 6), (7, 18)];
        let x = group_span(B19, g.iter().map(|p| p.0)).unwrap();
        let y = group_span(B19, g.iter().map(|p| p.1)).unwrap();
        assert_eq!((x, y), (Span { lo: 1, hi: 15 }, Span { lo: 4, hi: 19 }), "clamped to the board");
        assert!(x.len() > LOCAL_LINES);
        assert_eq!(group_span(B19, [4, 9, 6].into_iter()), Some(Span { lo: 3, hi: 10 }));
        assert_eq!(group_span(B19, std::iter::empty()), None);
    }

    #[test]
    fn a_layer_outside_the_z_range_shifts_it_within_the_board() {
        // 003 §7.6: the whole board and the region share the active layer.
        let r = Span { lo: 6, hi: 15 };
        assert_eq!(follow_layer(B19, r, 9), r, "a layer inside leaves the range alone");
        assert_eq!(follow_layer(B19, r, 17), Span { lo: 8, hi: 17 }, "just far enough, same length");
        assert_eq!(follow_layer(B19, r, 2), Span { lo: 2, hi: 11 });
        assert_eq!(follow_layer(B19, r, 40), Span { lo: 10, hi: 19 }, "never past the board");
        let small = Span { lo: 1, hi: 5 };
        assert_eq!(follow_layer(small, small, 3), small);
    }

    #[test]
    fn drag_reference_prefers_the_largest_stone_then_the_nearest_then_coordinates() {
        let s = |at: [i64; 3], x: f32, size: f32, distance: f32, has_stone: bool| Seen {
            at,
            screen: [x, 10.0],
            size,
            distance,
            has_stone,
        };
        let seen = [
            s([1, 1, 1], 5.0, 8.0, 10.0, true),
            s([2, 1, 1], 6.0, 9.0, 12.0, true),
            s([3, 1, 1], 7.0, 9.0, 11.0, true),
            s([4, 1, 1], 8.0, 9.0, 11.0, true),
            s([9, 9, 9], 500.0, 20.0, 1.0, true), // outside the rectangle
        ];
        assert_eq!(drag_reference(&seen, [0.0, 0.0, 20.0, 20.0], 1), Some([3, 1, 1]));
        // Without stones: the active layer's point nearest the centre.
        let empty = [
            s([1, 1, 2], 9.0, 5.0, 5.0, false),
            s([2, 2, 1], 11.0, 5.0, 5.0, false),
            s([3, 3, 1], 30.0, 5.0, 5.0, false),
        ];
        assert_eq!(drag_reference(&empty, [0.0, 0.0, 20.0, 20.0], 1), Some([2, 2, 1]));
    }
}
