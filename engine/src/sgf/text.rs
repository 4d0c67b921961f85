//! Layer (a): SGF text ↔ [`SgfGame`], a neutral description of one flat game.
//!
//! Reading goes through the `sgf-parse` crate (FF[4], with FF[3] mixed-case
//! identifiers converted). Only the main variation of the first game tree is
//! used. Writing is done here (FF[4]) so that the output is deterministic and
//! never recursive.

use sgf_parse::go::{Move as SgfParseMove, Point as SgfParsePoint, Prop};
use sgf_parse::{ParseOptions, SgfNode};

use super::SgfError;

/// Longest chain of nodes accepted in one path of the game tree.
///
/// `sgf-parse` builds and drops its tree recursively; this bound keeps that
/// recursion far from any stack limit (a real game has at most a few hundred
/// nodes; a 25×25 board at 3×points moves is 1,875).
pub const MAX_TREE_DEPTH: usize = 4_000;

/// Largest input accepted, in bytes (real records are a few kilobytes).
pub const MAX_SGF_BYTES: usize = 4 << 20;

/// Stone colour as written in SGF (`B` / `W`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SgfColor {
    Black,
    White,
}

impl SgfColor {
    /// `"B"` or `"W"`.
    pub fn letter(self) -> &'static str {
        match self {
            SgfColor::Black => "B",
            SgfColor::White => "W",
        }
    }

    pub fn other(self) -> SgfColor {
        match self {
            SgfColor::Black => SgfColor::White,
            SgfColor::White => SgfColor::Black,
        }
    }
}

/// A point in SGF orientation: `x` is the column from the left, `y` the row
/// from the top, both 0-based (`aa` is the top-left corner).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SgfPoint {
    pub x: u8,
    pub y: u8,
}

impl SgfPoint {
    /// The two-letter SGF form (`a`–`z`, then `A`–`Z`).
    pub fn to_sgf(self) -> String {
        let mut s = String::with_capacity(2);
        s.push(coord_char(self.x));
        s.push(coord_char(self.y));
        s
    }
}

fn coord_char(v: u8) -> char {
    if v < 26 {
        (b'a' + v) as char
    } else {
        (b'A' + (v - 26).min(25)) as char
    }
}

/// One move of the main line, with the colour exactly as recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SgfMove {
    pub color: SgfColor,
    /// `None` is a pass (`B[]`, or `B[tt]` on boards up to 19×19).
    pub point: Option<SgfPoint>,
}

/// A flat (depth-1) game as SGF describes it, independent of the engine.
#[derive(Clone, Debug, PartialEq)]
pub struct SgfGame {
    /// Columns (`SZ[w:h]` → w). Default 19.
    pub width: u8,
    /// Rows (`SZ[w:h]` → h). Default 19.
    pub height: u8,
    /// `KM`, if present.
    pub komi: Option<f64>,
    /// `HA`, 0 when absent.
    pub handicap: u32,
    /// `AB` stones before the first move (sorted, no duplicates).
    pub setup_black: Vec<SgfPoint>,
    /// `AW` stones before the first move (sorted, no duplicates).
    pub setup_white: Vec<SgfPoint>,
    /// `PL`: who moves first, if recorded.
    pub player_to_move: Option<SgfColor>,
    /// The main line, in order.
    pub moves: Vec<SgfMove>,
    /// `RE`, e.g. `B+3.5`, `W+R`, `0`.
    pub result: Option<String>,
    pub black_player: Option<String>,
    pub white_player: Option<String>,
    /// `DT`, as written.
    pub date: Option<String>,
    /// `RU`, as written.
    pub rules: Option<String>,
    /// `GN`, `EV`, `C` of the root and other text are not kept; `GC` is.
    pub game_comment: Option<String>,
}

impl Default for SgfGame {
    fn default() -> Self {
        SgfGame {
            width: 19,
            height: 19,
            komi: None,
            handicap: 0,
            setup_black: Vec::new(),
            setup_white: Vec::new(),
            player_to_move: None,
            moves: Vec::new(),
            result: None,
            black_player: None,
            white_player: None,
            date: None,
            rules: None,
            game_comment: None,
        }
    }
}

/// Checks the shape of the tree before handing it to `sgf-parse`: bounded size
/// and bounded depth (see [`MAX_TREE_DEPTH`]). Mirrors the lexer's rules for
/// bracketed values and escapes.
fn precheck(text: &str) -> Result<(), SgfError> {
    if text.len() > MAX_SGF_BYTES {
        return Err(SgfError::TooLarge { bytes: text.len(), limit: MAX_SGF_BYTES });
    }
    let mut in_value = false;
    let mut escaped = false;
    let mut depth: usize = 0;
    let mut saved: Vec<usize> = Vec::new();
    for c in text.chars() {
        if in_value {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == ']' {
                in_value = false;
            }
            continue;
        }
        match c {
            '[' => in_value = true,
            '(' => saved.push(depth),
            ')' => depth = saved.pop().unwrap_or(0),
            ';' => {
                depth += 1;
                if depth > MAX_TREE_DEPTH {
                    return Err(SgfError::TooDeep { limit: MAX_TREE_DEPTH });
                }
            }
            _ => {}
        }
        if saved.len() > MAX_TREE_DEPTH {
            return Err(SgfError::TooDeep { limit: MAX_TREE_DEPTH });
        }
    }
    Ok(())
}

/// Takes a parsed tree apart iteratively so that dropping it never recurses deeply.
fn dismantle(root: SgfNode<Prop>) {
    let mut stack = vec![root];
    while let Some(mut node) = stack.pop() {
        stack.append(&mut node.children);
    }
}

/// Normalises SimpleText: line breaks and tabs become spaces, trimmed.
fn simple_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut last_space = false;
    for c in s.chars() {
        let c = if c.is_whitespace() { ' ' } else { c };
        if c == ' ' && last_space {
            continue;
        }
        last_space = c == ' ';
        out.push(c);
    }
    out.trim().to_string()
}

fn non_empty(s: String) -> Option<String> {
    if s.is_empty() {
        None
    } else {
        Some(s)
    }
}

fn check_point(p: SgfParsePoint, w: u8, h: u8) -> Option<SgfPoint> {
    if p.x < w && p.y < h {
        Some(SgfPoint { x: p.x, y: p.y })
    } else {
        None
    }
}

/// Parses SGF text (FF[1]–FF[4]) into an [`SgfGame`]: the first game tree,
/// its main variation. Syntax errors, bad sizes and off-board points are
/// typed errors; moves are not checked against the rules here (see
/// [`super::replay`]).
pub fn parse_sgf(text: &str) -> Result<SgfGame, SgfError> {
    precheck(text)?;
    let options = ParseOptions { convert_mixed_case_identifiers: true, lenient: false };
    let trees = sgf_parse::parse_with_options(text, &options).map_err(|e| SgfError::Syntax(e.to_string()))?;
    let mut trees = trees.into_iter();
    let first = trees.next().ok_or(SgfError::NoGame)?;
    // Drop any further trees without deep recursion.
    for t in trees {
        if let Ok(node) = t.into_go_node() {
            dismantle(node);
        }
    }
    let root = match first.into_go_node() {
        Ok(node) => node,
        Err(_) => return Err(SgfError::NotGo),
    };
    let result = read_tree(&root);
    dismantle(root);
    result
}

fn read_tree(root: &SgfNode<Prop>) -> Result<SgfGame, SgfError> {
    let mut g = SgfGame::default();

    // Root properties first: the size is needed to read points.
    for prop in root.properties() {
        match prop {
            Prop::GM(v) if *v != 1 => return Err(SgfError::NotGo),
            Prop::SZ((w, h)) => {
                if *w == 0 || *h == 0 || *w > 52 || *h > 52 {
                    return Err(SgfError::BadSize(format!("{w}:{h}")));
                }
                g.width = *w;
                g.height = *h;
            }
            Prop::Invalid(id, vals) if id == "SZ" => {
                return Err(SgfError::BadSize(vals.join(",")));
            }
            _ => {}
        }
    }
    let (w, h) = (g.width, g.height);
    let tt_is_pass = w <= 19 && h <= 19;

    let mut move_number = 0usize;
    let mut black: Vec<SgfPoint> = Vec::new();
    let mut white: Vec<SgfPoint> = Vec::new();
    for node in root.main_variation() {
        for prop in node.properties() {
            match prop {
                Prop::B(m) | Prop::W(m) => {
                    move_number += 1;
                    let color = if matches!(prop, Prop::B(_)) { SgfColor::Black } else { SgfColor::White };
                    let point = match m {
                        SgfParseMove::Pass => None,
                        SgfParseMove::Move(p) if tt_is_pass && p.x == 19 && p.y == 19 => None,
                        SgfParseMove::Move(p) => match check_point(*p, w, h) {
                            Some(pt) => Some(pt),
                            None => {
                                return Err(SgfError::OffBoard {
                                    move_number,
                                    coord: SgfPoint { x: p.x, y: p.y }.to_sgf(),
                                })
                            }
                        },
                    };
                    g.moves.push(SgfMove { color, point });
                }
                Prop::AB(points) | Prop::AW(points) => {
                    if move_number > 0 {
                        return Err(SgfError::SetupAfterMoves { move_number });
                    }
                    let target = if matches!(prop, Prop::AB(_)) { &mut black } else { &mut white };
                    for p in points {
                        match check_point(*p, w, h) {
                            Some(pt) => target.push(pt),
                            None => {
                                return Err(SgfError::BadProperty {
                                    property: prop_ident(prop),
                                    value: SgfPoint { x: p.x, y: p.y }.to_sgf(),
                                    move_number: None,
                                })
                            }
                        }
                    }
                }
                Prop::AE(points) => {
                    if move_number > 0 {
                        return Err(SgfError::SetupAfterMoves { move_number });
                    }
                    for p in points {
                        black.retain(|q| !(q.x == p.x && q.y == p.y));
                        white.retain(|q| !(q.x == p.x && q.y == p.y));
                    }
                }
                Prop::PL(c) if move_number == 0 => {
                    g.player_to_move = Some(match c {
                        sgf_parse::Color::Black => SgfColor::Black,
                        sgf_parse::Color::White => SgfColor::White,
                    });
                }
                Prop::KM(k) => {
                    if !k.is_finite() || k.abs() > 10_000.0 {
                        return Err(SgfError::BadProperty {
                            property: "KM".into(),
                            value: k.to_string(),
                            move_number: None,
                        });
                    }
                    g.komi = Some(*k);
                }
                Prop::HA(n) => {
                    g.handicap = u32::try_from(*n).map_err(|_| SgfError::BadProperty {
                        property: "HA".into(),
                        value: n.to_string(),
                        move_number: None,
                    })?;
                }
                Prop::RE(t) => g.result = non_empty(simple_text(&t.text)),
                Prop::PB(t) => g.black_player = non_empty(simple_text(&t.text)),
                Prop::PW(t) => g.white_player = non_empty(simple_text(&t.text)),
                Prop::DT(t) => g.date = non_empty(simple_text(&t.text)),
                Prop::RU(t) => g.rules = non_empty(simple_text(&t.text)),
                Prop::GC(t) => g.game_comment = non_empty(t.text.trim().to_string()),
                // Some old records break a line inside a move value (`W[dc\n]`):
                // surrounding whitespace is tolerated.
                Prop::Invalid(id, vals)
                    if (id == "B" || id == "W")
                        && vals.len() == 1
                        && vals[0].trim() != vals[0]
                        && vals[0].trim().parse::<SgfParseMove>().is_ok() =>
                {
                    move_number += 1;
                    let color = if id == "B" { SgfColor::Black } else { SgfColor::White };
                    let m: SgfParseMove = vals[0].trim().parse().map_err(|_| SgfError::BadProperty {
                        property: id.clone(),
                        value: vals[0].clone(),
                        move_number: Some(move_number),
                    })?;
                    let point = match m {
                        SgfParseMove::Pass => None,
                        SgfParseMove::Move(p) if tt_is_pass && p.x == 19 && p.y == 19 => None,
                        SgfParseMove::Move(p) => match check_point(p, w, h) {
                            Some(pt) => Some(pt),
                            None => {
                                return Err(SgfError::OffBoard {
                                    move_number,
                                    coord: SgfPoint { x: p.x, y: p.y }.to_sgf(),
                                })
                            }
                        },
                    };
                    g.moves.push(SgfMove { color, point });
                }
                Prop::Invalid(id, vals) => {
                    let mn = if id == "B" || id == "W" { Some(move_number + 1) } else { None };
                    match id.as_str() {
                        // Rule-relevant properties must be readable.
                        "B" | "W" | "AB" | "AW" | "AE" | "KM" | "HA" | "PL" => {
                            return Err(SgfError::BadProperty {
                                property: id.clone(),
                                value: vals.join(","),
                                move_number: mn,
                            })
                        }
                        // Comments, markup, timing etc. in a bad form are ignored.
                        _ => {}
                    }
                }
                _ => {}
            }
        }
    }
    // HA[0] and HA[1] are sometimes written for even games.
    black.sort();
    black.dedup();
    white.sort();
    white.dedup();
    if let Some(p) = black.iter().find(|p| white.binary_search(p).is_ok()) {
        return Err(SgfError::BadProperty { property: "AB/AW".into(), value: p.to_sgf(), move_number: None });
    }
    g.setup_black = black;
    g.setup_white = white;
    Ok(g)
}

fn prop_ident(p: &Prop) -> String {
    match p {
        Prop::AB(_) => "AB".into(),
        Prop::AW(_) => "AW".into(),
        _ => "?".into(),
    }
}

/// Escapes a SimpleText/Text value: `\` and `]` get a backslash.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == '\\' || c == ']' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn format_komi(k: f64) -> String {
    if k == k.trunc() && k.abs() < 1e15 {
        format!("{}", k as i64)
    } else {
        format!("{k}")
    }
}

/// Writes an [`SgfGame`] as FF[4] text: a root node with the game
/// information and setup, then one node per move (passes as `B[]`).
pub fn write_sgf(g: &SgfGame) -> String {
    let mut s = String::with_capacity(64 + g.moves.len() * 7);
    s.push_str("(;FF[4]GM[1]CA[UTF-8]AP[SpaceBaduk:");
    s.push_str(env!("CARGO_PKG_VERSION"));
    s.push(']');
    if g.width == g.height {
        s.push_str(&format!("SZ[{}]", g.width));
    } else {
        s.push_str(&format!("SZ[{}:{}]", g.width, g.height));
    }
    if let Some(k) = g.komi {
        s.push_str(&format!("KM[{}]", format_komi(k)));
    }
    if g.handicap >= 2 {
        s.push_str(&format!("HA[{}]", g.handicap));
    }
    let text_props =
        [("RU", &g.rules), ("PB", &g.black_player), ("PW", &g.white_player), ("DT", &g.date), ("RE", &g.result)];
    for (id, v) in text_props {
        if let Some(v) = v {
            s.push_str(id);
            s.push('[');
            s.push_str(&escape(&simple_text(v)));
            s.push(']');
        }
    }
    if let Some(c) = &g.game_comment {
        s.push_str("GC[");
        s.push_str(&escape(c));
        s.push(']');
    }
    for (id, pts) in [("AB", &g.setup_black), ("AW", &g.setup_white)] {
        if !pts.is_empty() {
            s.push_str(id);
            for p in pts {
                s.push('[');
                s.push_str(&p.to_sgf());
                s.push(']');
            }
        }
    }
    if let Some(c) = g.player_to_move {
        s.push_str(&format!("PL[{}]", c.letter()));
    }
    for (i, m) in g.moves.iter().enumerate() {
        if i % 10 == 0 {
            s.push('\n');
        }
        s.push(';');
        s.push_str(m.color.letter());
        s.push('[');
        if let Some(p) = m.point {
            s.push_str(&p.to_sgf());
        }
        s.push(']');
    }
    s.push_str(")\n");
    s
}

#[cfg(test)]
mod tests;
