//! Coordinate labels and notation.
//!
//! * Per-axis label sets (003 §7.1–7.2, §9.4): numeric (the actual
//!   coordinates), English letters, Korean syllables, or a custom list.
//!   Labels are case-sensitive and unique on one axis; they never change
//!   positions (a label set is a pure view of the geometry).
//! * Plain `x,y,z` parsing of actual coordinates.
//! * Classic notation for depth-1 boards (000 §3): columns `A…` skipping `I`,
//!   rows numbered from the bottom; star points (000 §3) and the fixed
//!   handicap table (000 §4 — deliberately not GTP's table).

use crate::geometry::{AxisName, Geometry, Point};
use serde::{Deserialize, Serialize};

/// Errors when turning text into a point. Every variant states the allowed range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum CoordError {
    #[error("expected three comma-separated coordinates x,y,z but found {found} part(s) in {input:?}")]
    WrongArity { input: String, found: usize },
    #[error("axis {axis}: {token:?} is not an integer; allowed {start}..={end}")]
    NotANumber { axis: AxisName, token: String, start: i64, end: i64 },
    #[error("axis {axis}: {value} is off the board; allowed {start}..={end}")]
    OutOfRange { axis: AxisName, value: i64, start: i64, end: i64 },
    #[error("axis {axis}: unknown label {label:?}; allowed labels are {allowed} (case-sensitive)")]
    UnknownLabel { axis: AxisName, label: String, allowed: String },
    #[error("{input:?} is not a classic vertex; columns {first_col}..{last_col} (no I), rows 1..{rows}")]
    BadVertex { input: String, first_col: char, last_col: char, rows: usize },
    #[error("classic notation needs a board of depth 1 (this board is {depth} deep)")]
    NotFlat { depth: usize },
}

/// Problems with a custom label set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum LabelError {
    #[error("axis {axis}: {given} labels given but the axis has {expected} lines")]
    WrongCount { axis: AxisName, given: usize, expected: usize },
    #[error("axis {axis}: label {label:?} appears more than once (labels are case-sensitive and unique per axis)")]
    Duplicate { axis: AxisName, label: String },
    #[error("axis {axis}: label {label:?} is empty or contains a comma or whitespace")]
    Malformed { axis: AxisName, label: String },
}

/// Built-in label kinds (003 §7.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum LabelKind {
    /// The actual coordinate numbers, e.g. `-2`, `0`, `7`.
    Numeric,
    /// `A`, `B`, … `Y` (25 letters, nothing skipped).
    English,
    /// `가`, `나`, `다`, … (25 syllables).
    Korean,
}

const ENGLISH: [&str; 25] = [
    "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R", "S", "T", "U", "V", "W",
    "X", "Y",
];
const KOREAN: [&str; 25] = [
    "가", "나", "다", "라", "마", "바", "사", "아", "자", "차", "카", "타", "파", "하", "거", "너", "더", "러", "머",
    "버", "서", "어", "저", "처", "커",
];

/// Validated labels of the three axes of one geometry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabelSet {
    axes: [Vec<String>; 3],
}

impl LabelSet {
    /// Built-in labels, one kind per axis.
    pub fn builtin(geom: &Geometry, kinds: [LabelKind; 3]) -> LabelSet {
        let spec = geom.spec();
        let mut axes: [Vec<String>; 3] = Default::default();
        for (i, name) in AxisName::ALL.into_iter().enumerate() {
            let a = spec.axis(name);
            let n = a.len().max(0) as usize;
            axes[i] = (0..n)
                .map(|k| match kinds[i] {
                    LabelKind::Numeric => (a.start + k as i64).to_string(),
                    LabelKind::English => ENGLISH[k.min(24)].to_string(),
                    LabelKind::Korean => KOREAN[k.min(24)].to_string(),
                })
                .collect();
        }
        LabelSet { axes }
    }

    /// Numeric labels on every axis (the default, 003 §7.1).
    pub fn numeric(geom: &Geometry) -> LabelSet {
        LabelSet::builtin(geom, [LabelKind::Numeric; 3])
    }

    /// Custom labels; one list per axis, validated (003 §9.4: case-sensitive,
    /// no duplicate label on one axis).
    pub fn custom(geom: &Geometry, x: Vec<String>, y: Vec<String>, z: Vec<String>) -> Result<LabelSet, LabelError> {
        let (w, h, d) = geom.dims();
        let axes = [x, y, z];
        for (i, name) in AxisName::ALL.into_iter().enumerate() {
            let expected = [w, h, d][i];
            if axes[i].len() != expected {
                return Err(LabelError::WrongCount { axis: name, given: axes[i].len(), expected });
            }
            for (k, l) in axes[i].iter().enumerate() {
                if l.is_empty() || l.contains(',') || l.chars().any(char::is_whitespace) {
                    return Err(LabelError::Malformed { axis: name, label: l.clone() });
                }
                if axes[i][..k].contains(l) {
                    return Err(LabelError::Duplicate { axis: name, label: l.clone() });
                }
            }
        }
        Ok(LabelSet { axes })
    }

    fn axis_index(name: AxisName) -> usize {
        match name {
            AxisName::X => 0,
            AxisName::Y => 1,
            AxisName::Z => 2,
        }
    }

    /// The labels of one axis in order.
    pub fn axis(&self, name: AxisName) -> &[String] {
        &self.axes[Self::axis_index(name)]
    }

    /// `"lx,ly,lz"` for a point, `None` if the point is off the board.
    pub fn format(&self, geom: &Geometry, p: Point) -> Option<String> {
        let (xi, yi, zi) = geom.offsets_of(p)?;
        Some(format!("{},{},{}", self.axes[0].get(xi)?, self.axes[1].get(yi)?, self.axes[2].get(zi)?))
    }

    /// Parse `"lx,ly,lz"` (case-sensitive labels; spaces around parts ignored).
    pub fn parse(&self, geom: &Geometry, s: &str) -> Result<Point, CoordError> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        if parts.len() != 3 {
            return Err(CoordError::WrongArity { input: s.to_string(), found: parts.len() });
        }
        let mut off = [0usize; 3];
        for (i, name) in AxisName::ALL.into_iter().enumerate() {
            let labels = &self.axes[i];
            match labels.iter().position(|l| l == parts[i]) {
                Some(k) => off[i] = k,
                None => {
                    let allowed = match (labels.first(), labels.last()) {
                        (Some(a), Some(b)) if labels.len() > 1 => format!("{a}..{b}"),
                        (Some(a), _) => a.clone(),
                        _ => String::new(),
                    };
                    return Err(CoordError::UnknownLabel { axis: name, label: parts[i].to_string(), allowed });
                }
            }
        }
        geom.point_from_offsets(off[0], off[1], off[2]).ok_or(CoordError::OutOfRange {
            axis: AxisName::X,
            value: off[0] as i64,
            start: 0,
            end: geom.width() as i64 - 1,
        })
    }
}

/// Parse actual coordinates `"x,y,z"` (e.g. `-2,0,7`).
pub fn parse_numeric_xyz(geom: &Geometry, s: &str) -> Result<Point, CoordError> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    if parts.len() != 3 {
        return Err(CoordError::WrongArity { input: s.to_string(), found: parts.len() });
    }
    let spec = geom.spec();
    let mut v = [0i64; 3];
    for (i, name) in AxisName::ALL.into_iter().enumerate() {
        let a = spec.axis(name);
        let n: i64 = parts[i].parse().map_err(|_| CoordError::NotANumber {
            axis: name,
            token: parts[i].to_string(),
            start: a.start,
            end: a.end,
        })?;
        if n < a.start || n > a.end {
            return Err(CoordError::OutOfRange { axis: name, value: n, start: a.start, end: a.end });
        }
        v[i] = n;
    }
    geom.index_of(v[0], v[1], v[2]).ok_or(CoordError::OutOfRange {
        axis: AxisName::X,
        value: v[0],
        start: spec.x.start,
        end: spec.x.end,
    })
}

// Defined here rather than in `geometry` so that `geometry` does not depend
// on this module (it only names points; parsing text is this module's job).
impl Geometry {
    /// Parse plain actual coordinates "x,y,z" (spaces allowed around numbers).
    pub fn parse_xyz(&self, s: &str) -> Result<Point, CoordError> {
        parse_numeric_xyz(self, s)
    }
}

/// Format actual coordinates `"x,y,z"`.
pub fn format_numeric_xyz(geom: &Geometry, p: Point) -> Option<String> {
    geom.coords_of(p).map(|c| c.to_string())
}

// ---------------------------------------------------------------------------
// Classic notation (000 §3)

/// Column letters A… skipping I (000 §3); 25 letters cover the widest board.
const CLASSIC_COLS: [char; 25] = [
    'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'J', 'K', 'L', 'M', 'N', 'O', 'P', 'Q', 'R', 'S', 'T', 'U', 'V', 'W', 'X',
    'Y', 'Z',
];

/// Classic vertex of a point on a depth-1 board: column letter (no I) and the
/// row counted from the bottom (000 §3), e.g. `"D4"`.
pub fn classic_vertex(geom: &Geometry, p: Point) -> Option<String> {
    if !geom.is_flat() {
        return None;
    }
    let (xi, yi, _) = geom.offsets_of(p)?;
    let col = CLASSIC_COLS.get(xi)?;
    Some(format!("{}{}", col, geom.height() - yi))
}

/// Parse a classic vertex (`"D4"`, also `"d4"` as GTP requires).
pub fn parse_classic_vertex(geom: &Geometry, s: &str) -> Result<Point, CoordError> {
    if !geom.is_flat() {
        return Err(CoordError::NotFlat { depth: geom.depth() });
    }
    let bad = || CoordError::BadVertex {
        input: s.to_string(),
        first_col: 'A',
        last_col: CLASSIC_COLS[geom.width().clamp(1, 25) - 1],
        rows: geom.height(),
    };
    let t = s.trim();
    let mut chars = t.chars();
    let c = chars.next().ok_or_else(bad)?.to_ascii_uppercase();
    let xi = CLASSIC_COLS.iter().position(|&k| k == c).ok_or_else(bad)?;
    let row: usize = chars.as_str().parse().map_err(|_| bad())?;
    if xi >= geom.width() || row == 0 || row > geom.height() {
        return Err(bad());
    }
    geom.point_from_offsets(xi, geom.height() - row, 0).ok_or_else(bad)
}

fn classic_points(geom: &Geometry, names: &[&str]) -> Vec<Point> {
    names.iter().filter_map(|n| parse_classic_vertex(geom, n).ok()).collect()
}

/// Side length if the board is one of the classic square boards 9/13/19.
fn classic_size(geom: &Geometry) -> Option<usize> {
    let (w, h, d) = geom.dims();
    (d == 1 && w == h && matches!(w, 9 | 13 | 19)).then_some(w)
}

/// Star points (화점) of the classic boards (000 §3); empty for other boards.
pub fn star_points(geom: &Geometry) -> Vec<Point> {
    match classic_size(geom) {
        Some(9) => classic_points(geom, &["C3", "G3", "C7", "G7", "E5"]),
        Some(13) => classic_points(geom, &["D4", "K4", "D10", "K10", "G7"]),
        Some(19) => classic_points(geom, &["D4", "K4", "Q4", "D10", "K10", "Q10", "D16", "K16", "Q16"]),
        _ => Vec::new(),
    }
}

/// Why a handicap cannot be placed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum HandicapError {
    #[error("fixed handicap needs a classic 9×9, 13×13 or 19×19 board (000 §4)")]
    UnsupportedBoard,
    #[error("handicap {stones} is not allowed on this board; allowed: 0 or 2..={max} (000 §4)")]
    BadCount { stones: u8, max: u8 },
}

/// Fixed handicap placement of 000 §4 (not GTP's table): returns the points
/// for `n` stones (empty for 0).
pub fn handicap_points(geom: &Geometry, n: u8) -> Result<Vec<Point>, HandicapError> {
    let size = classic_size(geom);
    if n == 0 {
        return Ok(Vec::new());
    }
    let size = size.ok_or(HandicapError::UnsupportedBoard)?;
    let max = if size == 9 { 5 } else { 9 };
    if n == 1 || n > max {
        return Err(HandicapError::BadCount { stones: n, max });
    }
    // (upper-right, lower-left, lower-right, upper-left, centre, left-mid, right-mid, lower-mid, upper-mid)
    let t: [&str; 9] = match size {
        19 => ["Q16", "D4", "Q4", "D16", "K10", "D10", "Q10", "K4", "K16"],
        13 => ["K10", "D4", "K4", "D10", "G7", "D7", "K7", "G4", "G10"],
        _ => ["G7", "C3", "G3", "C7", "E5", "", "", "", ""],
    };
    let idx: &[usize] = match n {
        2 => &[0, 1],
        3 => &[0, 1, 2],
        4 => &[0, 1, 2, 3],
        5 => &[0, 1, 2, 3, 4],
        6 => &[0, 1, 2, 3, 5, 6],
        7 => &[0, 1, 2, 3, 5, 6, 4],
        8 => &[0, 1, 2, 3, 5, 6, 7, 8],
        _ => &[0, 1, 2, 3, 5, 6, 7, 8, 4],
    };
    let names: Vec<&str> = idx.iter().map(|&i| t[i]).collect();
    Ok(classic_points(geom, &names))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Axis, Coord};

    #[test]
    fn geometry_parse_xyz_is_numeric_parsing() {
        let g = Geometry::new(Axis::new(-2, 2), Axis::new(0, 2), Axis::new(7, 9)).unwrap();
        let p = g.parse_xyz(" -2, 0 ,7").unwrap();
        assert_eq!(g.coords_of(p), Some(Coord::new(-2, 0, 7)));
        assert_eq!(g.parse_xyz("3,0,7"), parse_numeric_xyz(&g, "3,0,7"));
        assert!(g.parse_xyz("3,0,7").is_err());
    }

    #[test]
    fn classic_vertices_skip_i_and_count_rows_from_bottom() {
        // 000 §3: A B C D E F G H J K …; rows from the bottom starting at 1.
        let g = Geometry::flat(19, 19).unwrap();
        let a1 = parse_classic_vertex(&g, "A1").unwrap();
        assert_eq!(g.coords_of(a1), Some(Coord::new(1, 19, 1))); // bottom-left; y runs top→bottom
        let j19 = parse_classic_vertex(&g, "J19").unwrap();
        assert_eq!(g.coords_of(j19), Some(Coord::new(9, 1, 1)));
        assert_eq!(classic_vertex(&g, j19).as_deref(), Some("J19"));
        assert_eq!(parse_classic_vertex(&g, "t19").map(|p| classic_vertex(&g, p)), Ok(Some("T19".into())));
        assert!(matches!(parse_classic_vertex(&g, "I5"), Err(CoordError::BadVertex { .. })));
        assert!(parse_classic_vertex(&g, "U1").is_err());
        assert!(parse_classic_vertex(&g, "A20").is_err());
        assert!(parse_classic_vertex(&g, "A0").is_err());
        assert!(parse_classic_vertex(&g, "").is_err());
        let e = parse_classic_vertex(&g, "Z9").unwrap_err().to_string();
        assert!(e.contains("A..T"), "{e}");
        let cube = Geometry::cube(3).unwrap();
        assert_eq!(parse_classic_vertex(&cube, "A1"), Err(CoordError::NotFlat { depth: 3 }));
    }

    #[test]
    fn star_points_match_000_s3() {
        // 000 §3 화점.
        for (n, names) in [
            (9, vec!["C3", "G3", "C7", "G7", "E5"]),
            (13, vec!["D4", "K4", "D10", "K10", "G7"]),
            (19, vec!["D4", "K4", "Q4", "D10", "K10", "Q10", "D16", "K16", "Q16"]),
        ] {
            let g = Geometry::flat(n, n).unwrap();
            let got: Vec<String> = star_points(&g).iter().map(|&p| classic_vertex(&g, p).unwrap()).collect();
            assert_eq!(got, names);
        }
        assert!(star_points(&Geometry::cube(9).unwrap()).is_empty());
    }

    #[test]
    fn handicap_table_matches_000_s4() {
        // 000 §4 table (Korean/Japanese convention, not GTP's).
        let g = Geometry::flat(19, 19).unwrap();
        let v = |n| -> Vec<String> {
            let mut x: Vec<String> =
                handicap_points(&g, n).unwrap().iter().map(|&p| classic_vertex(&g, p).unwrap()).collect();
            x.sort();
            x
        };
        let s = |a: &[&str]| -> Vec<String> {
            let mut x: Vec<String> = a.iter().map(|s| s.to_string()).collect();
            x.sort();
            x
        };
        assert_eq!(v(2), s(&["Q16", "D4"]));
        assert_eq!(v(3), s(&["Q16", "D4", "Q4"]));
        assert_eq!(v(4), s(&["Q16", "D4", "Q4", "D16"]));
        assert_eq!(v(5), s(&["Q16", "D4", "Q4", "D16", "K10"]));
        assert_eq!(v(6), s(&["Q16", "D4", "Q4", "D16", "D10", "Q10"]));
        assert_eq!(v(7), s(&["Q16", "D4", "Q4", "D16", "D10", "Q10", "K10"]));
        assert_eq!(v(8), s(&["Q16", "D4", "Q4", "D16", "D10", "Q10", "K4", "K16"]));
        assert_eq!(v(9), s(&["Q16", "D4", "Q4", "D16", "D10", "Q10", "K4", "K16", "K10"]));
        let g13 = Geometry::flat(13, 13).unwrap();
        let got: Vec<String> =
            handicap_points(&g13, 8).unwrap().iter().map(|&p| classic_vertex(&g13, p).unwrap()).collect();
        assert_eq!(got, ["K10", "D4", "K4", "D10", "D7", "K7", "G4", "G10"]);
        let g9 = Geometry::flat(9, 9).unwrap();
        assert_eq!(handicap_points(&g9, 5).unwrap().len(), 5);
        assert_eq!(handicap_points(&g9, 6), Err(HandicapError::BadCount { stones: 6, max: 5 }));
        assert_eq!(handicap_points(&g, 1), Err(HandicapError::BadCount { stones: 1, max: 9 }));
        assert_eq!(handicap_points(&Geometry::cube(9).unwrap(), 2), Err(HandicapError::UnsupportedBoard));
        assert_eq!(handicap_points(&Geometry::cube(9).unwrap(), 0), Ok(vec![]));
    }

    #[test]
    fn label_sets_are_case_sensitive_and_unique() {
        // 003 §9.4: labels are case-sensitive; no duplicates per axis.
        let g = Geometry::new(Axis::new(-2, 2), Axis::one_to(3), Axis::one_to(1)).unwrap();
        let ls = LabelSet::builtin(&g, [LabelKind::Numeric, LabelKind::English, LabelKind::Korean]);
        let p = ls.parse(&g, "-2,B,가").unwrap();
        assert_eq!(g.coords_of(p), Some(Coord::new(-2, 2, 1)));
        assert_eq!(ls.format(&g, p).as_deref(), Some("-2,B,가"));
        let e = ls.parse(&g, "-2,b,가").unwrap_err();
        assert!(matches!(e, CoordError::UnknownLabel { axis: AxisName::Y, .. }));
        assert!(e.to_string().contains("A..C"), "{e}");
        assert!(matches!(ls.parse(&g, "1,2"), Err(CoordError::WrongArity { found: 2, .. })));
        let custom = LabelSet::custom(
            &g,
            vec!["a".into(), "A".into(), "b".into(), "B".into(), "c".into()],
            vec!["x".into(), "y".into(), "z".into()],
            vec!["only".into()],
        )
        .unwrap();
        assert_eq!(g.coords_of(custom.parse(&g, "A,z,only").unwrap()), Some(Coord::new(-1, 3, 1)));
        let dup = LabelSet::custom(
            &g,
            vec!["a".into(), "b".into(), "a".into(), "d".into(), "e".into()],
            vec!["x".into(), "y".into(), "z".into()],
            vec!["q".into()],
        );
        assert_eq!(dup, Err(LabelError::Duplicate { axis: AxisName::X, label: "a".into() }));
    }

    #[test]
    fn numeric_parse_states_allowed_range() {
        let g = Geometry::new(Axis::new(-2, 2), Axis::new(0, 0), Axis::new(5, 9)).unwrap();
        let p = parse_numeric_xyz(&g, "-2,0,7").unwrap();
        assert_eq!(format_numeric_xyz(&g, p).as_deref(), Some("-2,0,7"));
        let e = parse_numeric_xyz(&g, "3,0,7").unwrap_err();
        assert_eq!(e, CoordError::OutOfRange { axis: AxisName::X, value: 3, start: -2, end: 2 });
        assert!(e.to_string().contains("-2..=2"));
        assert!(matches!(parse_numeric_xyz(&g, "0,zero,7"), Err(CoordError::NotANumber { axis: AxisName::Y, .. })));
        assert!(parse_numeric_xyz(&g, "99999999999999999999999,0,7").is_err());
    }
}
