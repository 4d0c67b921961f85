//! Board geometry: validated boxes of three axes, dense point indices and
//! precomputed six-direction neighbour tables.
//!
//! 003 §1.1 / §9.3: every axis is given by integer `start` and `end` with
//! |value| ≤ 1,000,000, `start ≤ end`, and an odd length `end − start + 1`
//! in 1..=25. Lengths may differ between axes. The default board is
//! 19×19×19 with every axis 1..19; the maximum is 25×25×25 = 15,625 points.
//! Classic boards (000 §3: 9, 13, 19) are boxes of depth 1 and go through the
//! very same code.
//!
//! 003 §2.1: adjacency is six-directional (left/right, up/down, front/back),
//! never diagonal; surface and corner points only have the neighbours that
//! exist inside the box.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Largest absolute value of an axis endpoint (003 §1.1).
pub const MAX_ABS_COORD: i64 = 1_000_000;
/// Longest allowed axis (003 §1.1).
pub const MAX_AXIS_LEN: i64 = 25;
/// Largest number of points on a board (25³).
pub const MAX_POINTS: usize = 15_625;

/// One axis as given by the user: raw integers, not yet validated.
/// [`Geometry::new`] validates three of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct Axis {
    pub start: i64,
    pub end: i64,
}

impl Axis {
    pub const fn new(start: i64, end: i64) -> Axis {
        Axis { start, end }
    }
    /// The axis `1..=n`.
    pub const fn one_to(n: i64) -> Axis {
        Axis { start: 1, end: n }
    }
    /// Number of lines, `end − start + 1` (may be ≤ 0 for an invalid axis).
    pub const fn len(&self) -> i64 {
        self.end - self.start + 1
    }
    pub const fn is_empty(&self) -> bool {
        self.len() <= 0
    }
}

/// Which of the three axes (X left→right, Y top→bottom, Z back→front).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AxisName {
    X,
    Y,
    Z,
}

impl AxisName {
    pub const ALL: [AxisName; 3] = [AxisName::X, AxisName::Y, AxisName::Z];
    pub const fn as_str(self) -> &'static str {
        match self {
            AxisName::X => "x",
            AxisName::Y => "y",
            AxisName::Z => "z",
        }
    }
}

impl fmt::Display for AxisName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Raw, unvalidated description of a box (like shakmaty's `Setup`).
/// Turn it into a [`Geometry`] with [`Geometry::from_spec`] / `TryFrom`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct BoxSpec {
    pub x: Axis,
    pub y: Axis,
    pub z: Axis,
}

impl BoxSpec {
    /// The 003 §1.1 default board: 19×19×19, every axis 1..19.
    pub const DEFAULT: BoxSpec = BoxSpec { x: Axis::one_to(19), y: Axis::one_to(19), z: Axis::one_to(19) };
    pub const fn axis(&self, name: AxisName) -> Axis {
        match name {
            AxisName::X => self.x,
            AxisName::Y => self.y,
            AxisName::Z => self.z,
        }
    }
}

impl Default for BoxSpec {
    fn default() -> Self {
        BoxSpec::DEFAULT
    }
}

/// Why a box is not a valid board (003 §1.1). Every variant names the axis,
/// the offending value and the allowed range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum GeometryError {
    #[error("axis {axis}: endpoint {value} is out of range; endpoints must lie in -1000000..=1000000 (003 §1.1)")]
    EndpointOutOfRange { axis: AxisName, value: i64 },
    #[error("axis {axis}: start {start} is greater than end {end}; start must be ≤ end (003 §1.1)")]
    StartAfterEnd { axis: AxisName, start: i64, end: i64 },
    #[error("axis {axis}: length {length} ({start}..{end}) is not allowed; the length end−start+1 must be odd and within 1..=25 (003 §1.1)")]
    BadLength { axis: AxisName, start: i64, end: i64, length: i64 },
}

/// Actual coordinates of a point (the user's numbers, possibly negative).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Coord {
    pub x: i64,
    pub y: i64,
    pub z: i64,
}

impl Coord {
    pub const fn new(x: i64, y: i64, z: i64) -> Coord {
        Coord { x, y, z }
    }
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{},{}", self.x, self.y, self.z)
    }
}

/// A dense point index into a particular [`Geometry`] (0..len). A `Point`
/// from another geometry or a made-up index is checked wherever it enters
/// the public API (see [`Geometry::contains`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[repr(transparent)]
#[serde(transparent)]
pub struct Point(pub u16);

impl Point {
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// Sentinel used in the padded neighbour table.
pub(crate) const NO_POINT: Point = Point(u16::MAX);

/// A validated board box with its neighbour tables. Cheap to share: the
/// engine keeps it behind an `Arc`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    spec: BoxSpec,
    w: usize,
    h: usize,
    d: usize,
    /// Up to six neighbours per point, the valid ones first; slot 7 holds
    /// the count (one 16-byte row per point, one cache access).
    nbr: Vec<[Point; 8]>,
    /// Zobrist keys per point for Black and White (same values as
    /// `zobrist::stone_key`, cached; shared with every board of this geometry).
    zob: Vec<[u64; 2]>,
}

fn validate_axis(name: AxisName, a: Axis) -> Result<usize, GeometryError> {
    for v in [a.start, a.end] {
        if !(-MAX_ABS_COORD..=MAX_ABS_COORD).contains(&v) {
            return Err(GeometryError::EndpointOutOfRange { axis: name, value: v });
        }
    }
    if a.start > a.end {
        return Err(GeometryError::StartAfterEnd { axis: name, start: a.start, end: a.end });
    }
    let len = a.len();
    if !(1..=MAX_AXIS_LEN).contains(&len) || len % 2 == 0 {
        return Err(GeometryError::BadLength { axis: name, start: a.start, end: a.end, length: len });
    }
    Ok(len as usize)
}

impl Geometry {
    /// Validate three axes (003 §1.1) and build the neighbour tables.
    pub fn new(x: Axis, y: Axis, z: Axis) -> Result<Geometry, GeometryError> {
        let w = validate_axis(AxisName::X, x)?;
        let h = validate_axis(AxisName::Y, y)?;
        let d = validate_axis(AxisName::Z, z)?;
        let n = w * h * d;
        let mut nbr = vec![[NO_POINT; 8]; n];
        for zi in 0..d {
            for yi in 0..h {
                for xi in 0..w {
                    let i = (zi * h + yi) * w + xi;
                    let mut k = 0usize;
                    let mut push = |j: usize| {
                        nbr[i][k] = Point(j as u16);
                        k += 1;
                    };
                    if xi > 0 {
                        push(i - 1);
                    }
                    if xi + 1 < w {
                        push(i + 1);
                    }
                    if yi > 0 {
                        push(i - w);
                    }
                    if yi + 1 < h {
                        push(i + w);
                    }
                    if zi > 0 {
                        push(i - w * h);
                    }
                    if zi + 1 < d {
                        push(i + w * h);
                    }
                    nbr[i][7] = Point(k as u16);
                }
            }
        }
        let zob = (0..n).map(|i| [crate::zobrist::stone_key(i, 1), crate::zobrist::stone_key(i, 2)]).collect();
        Ok(Geometry { spec: BoxSpec { x, y, z }, w, h, d, nbr, zob })
    }

    pub fn from_spec(spec: BoxSpec) -> Result<Geometry, GeometryError> {
        Geometry::new(spec.x, spec.y, spec.z)
    }

    /// An n×n×n cube with every axis 1..n.
    pub fn cube(n: i64) -> Result<Geometry, GeometryError> {
        Geometry::new(Axis::one_to(n), Axis::one_to(n), Axis::one_to(n))
    }

    /// A flat board of width `w` and height `h` (depth 1, axes 1..w, 1..h, 1..1).
    /// Classic boards 9, 13, 19 (000 §3) are `flat(n, n)`.
    pub fn flat(w: i64, h: i64) -> Result<Geometry, GeometryError> {
        Geometry::new(Axis::one_to(w), Axis::one_to(h), Axis::one_to(1))
    }

    /// The 003 §1.1 default board 19×19×19.
    pub fn default_box() -> Geometry {
        // The default spec is valid by construction.
        Geometry::from_spec(BoxSpec::DEFAULT).unwrap_or_else(|_| unreachable_geometry())
    }

    pub fn spec(&self) -> BoxSpec {
        self.spec
    }
    /// Number of lines along x, y, z.
    pub fn dims(&self) -> (usize, usize, usize) {
        (self.w, self.h, self.d)
    }
    pub fn width(&self) -> usize {
        self.w
    }
    pub fn height(&self) -> usize {
        self.h
    }
    pub fn depth(&self) -> usize {
        self.d
    }
    /// Number of points.
    pub fn len(&self) -> usize {
        self.nbr.len()
    }
    pub fn is_empty(&self) -> bool {
        self.nbr.is_empty()
    }
    /// True for boards of depth 1 (classic notation applies).
    pub fn is_flat(&self) -> bool {
        self.d == 1
    }
    pub fn contains(&self, p: Point) -> bool {
        p.index() < self.len()
    }

    /// All points in index order.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        (0..self.len()).map(|i| Point(i as u16))
    }

    /// The point at actual coordinates, or `None` if outside the box.
    pub fn index_of(&self, x: i64, y: i64, z: i64) -> Option<Point> {
        let xi = x.checked_sub(self.spec.x.start)?;
        let yi = y.checked_sub(self.spec.y.start)?;
        let zi = z.checked_sub(self.spec.z.start)?;
        if xi < 0 || yi < 0 || zi < 0 {
            return None;
        }
        let (xi, yi, zi) = (xi as usize, yi as usize, zi as usize);
        if xi >= self.w || yi >= self.h || zi >= self.d {
            return None;
        }
        Some(Point(((zi * self.h + yi) * self.w + xi) as u16))
    }

    pub fn point_at(&self, c: Coord) -> Option<Point> {
        self.index_of(c.x, c.y, c.z)
    }

    /// Zero-based offsets (x, y, z) of a point from the box's start corner.
    pub fn offsets_of(&self, p: Point) -> Option<(usize, usize, usize)> {
        if !self.contains(p) {
            return None;
        }
        let i = p.index();
        Some((i % self.w, (i / self.w) % self.h, i / (self.w * self.h)))
    }

    /// Point from zero-based offsets.
    pub fn point_from_offsets(&self, xi: usize, yi: usize, zi: usize) -> Option<Point> {
        if xi >= self.w || yi >= self.h || zi >= self.d {
            return None;
        }
        Some(Point(((zi * self.h + yi) * self.w + xi) as u16))
    }

    /// Actual coordinates of a point, `None` for an index outside the box.
    pub fn coords_of(&self, p: Point) -> Option<Coord> {
        let (xi, yi, zi) = self.offsets_of(p)?;
        Some(Coord {
            x: self.spec.x.start + xi as i64,
            y: self.spec.y.start + yi as i64,
            z: self.spec.z.start + zi as i64,
        })
    }

    /// The existing six-direction neighbours of `p` (003 §2.1); empty for an
    /// index outside the box.
    #[inline]
    pub fn neighbours(&self, p: Point) -> &[Point] {
        match self.nbr.get(p.index()) {
            Some(row) => &row[..(row[7].0 as usize).min(6)],
            None => &[],
        }
    }

    /// Unchecked-index neighbour access for the hot path (p must be on board).
    #[inline(always)]
    pub(crate) fn nbrs(&self, p: usize) -> &[Point] {
        let row = &self.nbr[p];
        &row[..(row[7].0 as usize).min(6)]
    }

    /// Cached Zobrist key of a stone (`cell` 1 = Black, 2 = White).
    #[inline(always)]
    pub(crate) fn zkey(&self, p: usize, cell: u8) -> u64 {
        self.zob[p][(cell as usize - 1) & 1]
    }
}

fn unreachable_geometry() -> Geometry {
    Geometry {
        spec: BoxSpec { x: Axis::one_to(1), y: Axis::one_to(1), z: Axis::one_to(1) },
        w: 1,
        h: 1,
        d: 1,
        nbr: vec![[NO_POINT; 8]],
        zob: vec![[crate::zobrist::stone_key(0, 1), crate::zobrist::stone_key(0, 2)]],
    }
}

impl TryFrom<BoxSpec> for Geometry {
    type Error = GeometryError;
    fn try_from(spec: BoxSpec) -> Result<Self, Self::Error> {
        Geometry::from_spec(spec)
    }
}

impl Serialize for Geometry {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.spec.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Geometry {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let spec = BoxSpec::deserialize(d)?;
        Geometry::from_spec(spec).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_box_is_19_cubed() {
        // 003 §1.1: default 19×19×19 = 6,859 points.
        let g = Geometry::default_box();
        assert_eq!(g.len(), 6859);
        assert_eq!(g.dims(), (19, 19, 19));
        assert_eq!(g.spec(), BoxSpec::DEFAULT);
    }

    #[test]
    fn maximum_box_fits_u16() {
        // 003 §1.1: maximum 25×25×25 = 15,625 points.
        let g = Geometry::cube(25).unwrap();
        assert_eq!(g.len(), MAX_POINTS);
        let last = Point((MAX_POINTS - 1) as u16);
        assert_eq!(g.coords_of(last), Some(Coord::new(25, 25, 25)));
    }

    #[test]
    fn axis_validation_names_axis_value_and_range() {
        // 003 §1.1: odd length 1..25, |v| ≤ 1e6, start ≤ end.
        let e = Geometry::new(Axis::one_to(19), Axis::one_to(18), Axis::one_to(1)).unwrap_err();
        assert_eq!(e, GeometryError::BadLength { axis: AxisName::Y, start: 1, end: 18, length: 18 });
        assert!(e.to_string().contains("axis y"));
        assert!(e.to_string().contains("1..=25"));
        let e = Geometry::new(Axis::one_to(3), Axis::one_to(3), Axis::new(5, 4)).unwrap_err();
        assert!(matches!(e, GeometryError::StartAfterEnd { axis: AxisName::Z, start: 5, end: 4 }));
        let e = Geometry::new(Axis::new(-1_000_001, -1_000_001), Axis::one_to(3), Axis::one_to(3)).unwrap_err();
        assert!(matches!(e, GeometryError::EndpointOutOfRange { axis: AxisName::X, value: -1_000_001 }));
        assert!(Geometry::cube(27).is_err());
        assert!(Geometry::cube(0).is_err());
        // Endpoints themselves need not be odd; negative ranges are fine.
        let g = Geometry::new(Axis::new(-2, 2), Axis::new(0, 0), Axis::new(1_000_000 - 24, 1_000_000)).unwrap();
        assert_eq!(g.dims(), (5, 1, 25));
        let p = g.index_of(-2, 0, 999_990).unwrap();
        assert_eq!(g.coords_of(p), Some(Coord::new(-2, 0, 999_990)));
        assert_eq!(g.index_of(3, 0, 999_990), None);
        assert_eq!(g.index_of(i64::MIN, 0, 0), None);
    }

    #[test]
    fn neighbour_counts_interior_surface_corner() {
        // 003 §2.1: interior 6, face 5, edge 4, corner 3.
        let g = Geometry::cube(5).unwrap();
        let n = |x, y, z| g.neighbours(g.index_of(x, y, z).unwrap()).len();
        assert_eq!(n(3, 3, 3), 6);
        assert_eq!(n(1, 3, 3), 5);
        assert_eq!(n(1, 1, 3), 4);
        assert_eq!(n(1, 1, 1), 3);
        assert_eq!(n(5, 5, 5), 3);
        // Flat classic board: corner 2, edge 3, centre 4.
        let f = Geometry::flat(9, 9).unwrap();
        let m = |x, y| f.neighbours(f.index_of(x, y, 1).unwrap()).len();
        assert_eq!((m(1, 1), m(5, 1), m(5, 5)), (2, 3, 4));
        // Neighbours are symmetric and never diagonal.
        for p in g.points() {
            let c = g.coords_of(p).unwrap();
            for &q in g.neighbours(p) {
                assert!(g.neighbours(q).contains(&p));
                let d = g.coords_of(q).unwrap();
                assert_eq!((c.x - d.x).abs() + (c.y - d.y).abs() + (c.z - d.z).abs(), 1);
            }
        }
        assert!(g.neighbours(Point(60000)).is_empty());
    }

    #[test]
    fn serde_round_trip_validates() {
        let g = Geometry::flat(13, 13).unwrap();
        let s = serde_json::to_string(&g).unwrap();
        let back: Geometry = serde_json::from_str(&s).unwrap();
        assert_eq!(back, g);
        let bad = r#"{"x":{"start":1,"end":4},"y":{"start":1,"end":3},"z":{"start":1,"end":1}}"#;
        assert!(serde_json::from_str::<Geometry>(bad).is_err());
    }
}
