//! The golden-vector file format (described in `engine/tests/data/README.md`),
//! shared by the generator (`examples/golden_vectors.rs`) and the test that
//! drives the files (`tests/golden.rs`), so that both write a line the same way.

use engine::{Axis, BoxSpec, Color, Coord, Game, Geometry, KoRule, Move, Point, Rules};

/// The header of a file: the box, the repetition rule and the seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    pub spec: BoxSpec,
    pub ko: KoRule,
    pub seed: u64,
    pub moves: usize,
}

impl Header {
    /// The Space preset with this file's repetition rule (scoring plays no part).
    pub fn rules(&self) -> Rules {
        Rules { ko: self.ko, ..Rules::space() }
    }
    pub fn new_game(&self) -> Result<Game, String> {
        let geom = Geometry::from_spec(self.spec).map_err(|e| e.to_string())?;
        Game::new(geom, self.rules()).map_err(|e| e.to_string())
    }
    pub fn write(&self) -> String {
        let a = |x: Axis| format!("{}..{}", x.start, x.end);
        format!(
            "box {} {} {}\nko {}\nseed {}\nmoves {}\n",
            a(self.spec.x),
            a(self.spec.y),
            a(self.spec.z),
            ko_word(self.ko),
            self.seed,
            self.moves
        )
    }
}

pub fn ko_word(k: KoRule) -> &'static str {
    match k {
        KoRule::Immediate => "immediate",
        KoRule::PositionalSuperko => "positional_superko",
        KoRule::Korean => "korean",
    }
}

/// The stones, compactly: layers in increasing z separated by `|`, rows in
/// increasing y separated by `/`, points in increasing x; `X` black, `O`
/// white, a number for that many empty points (as in chess FEN).
pub fn board_string(g: &Game) -> String {
    board_string_of(g.geometry(), |p| g.stone_at(p))
}

/// [`board_string`] of any arrangement of `geom` (e.g. one read from GNU Go).
pub fn board_string_of(geom: &Geometry, stone_at: impl Fn(Point) -> Option<Color>) -> String {
    let (w, h, d) = geom.dims();
    let mut s = String::with_capacity(geom.len());
    for z in 0..d {
        if z > 0 {
            s.push('|');
        }
        for y in 0..h {
            if y > 0 {
                s.push('/');
            }
            let mut empty = 0;
            for x in 0..w {
                let p = geom.point_from_offsets(x, y, z).expect("offsets inside the box");
                match stone_at(p) {
                    None => empty += 1,
                    Some(c) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push(if c == Color::Black { 'X' } else { 'O' });
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
        }
    }
    s
}

/// One move line, from the state of `g` after move number `n` (`color`
/// played `mv`): `n colour move captures-by-black captures-by-white
/// legal-points-for-the-side-to-move board`.
pub fn move_line(n: usize, color: Color, mv: Move, g: &Game) -> String {
    let mv = match mv {
        Move::Pass => "pass".to_string(),
        Move::Place(p) => g.geometry().coords_of(p).expect("a played point is on the board").to_string(),
    };
    format!(
        "{n} {} {mv} {} {} {} {}",
        color.letter(),
        g.captures(Color::Black),
        g.captures(Color::White),
        g.legal_points(g.to_move()).len(),
        board_string(g)
    )
}

/// The move of a line: number, colour, point (`None` for a pass).
pub fn parse_move(line: &str) -> Result<(usize, Color, Option<Coord>), String> {
    let f: Vec<&str> = line.split(' ').collect();
    if f.len() != 7 {
        return Err(format!("expected 7 fields, found {}", f.len()));
    }
    let n = f[0].parse().map_err(|_| format!("bad move number {:?}", f[0]))?;
    let color = match f[1] {
        "B" => Color::Black,
        "W" => Color::White,
        other => return Err(format!("bad colour {other:?}")),
    };
    if f[2] == "pass" {
        return Ok((n, color, None));
    }
    let v: Vec<i64> =
        f[2].split(',').map(str::parse).collect::<Result<_, _>>().map_err(|_| format!("bad move {:?}", f[2]))?;
    match v[..] {
        [x, y, z] => Ok((n, color, Some(Coord::new(x, y, z)))),
        _ => Err(format!("bad move {:?}", f[2])),
    }
}

/// A file: its header and its move lines with their 1-based line numbers.
/// Lines starting with `#` and blank lines are comments.
pub fn read(text: &str) -> Result<(Header, Vec<(usize, String)>), String> {
    let mut lines =
        text.lines().enumerate().map(|(i, l)| (i + 1, l)).filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    let mut field = |key: &str| -> Result<String, String> {
        let (i, l) = lines.next().ok_or(format!("missing `{key}` line"))?;
        l.strip_prefix(key)
            .and_then(|r| r.strip_prefix(' '))
            .map(str::to_string)
            .ok_or(format!("line {i}: expected `{key} …`, found {l:?}"))
    };
    let axes = field("box")?;
    let axis = |s: &str| -> Result<Axis, String> {
        let (a, b) = s.split_once("..").ok_or(format!("bad axis {s:?}"))?;
        Ok(Axis::new(
            a.parse().map_err(|_| format!("bad axis {s:?}"))?,
            b.parse().map_err(|_| format!("bad axis {s:?}"))?,
        ))
    };
    let a: Vec<&str> = axes.split(' ').collect();
    let [x, y, z] = a[..] else {
        return Err(format!("bad box {axes:?}"));
    };
    let spec = BoxSpec { x: axis(x)?, y: axis(y)?, z: axis(z)? };
    let ko = match field("ko")?.as_str() {
        "immediate" => KoRule::Immediate,
        "positional_superko" => KoRule::PositionalSuperko,
        "korean" => KoRule::Korean,
        other => return Err(format!("bad ko rule {other:?}")),
    };
    let seed = field("seed")?.parse().map_err(|_| "bad seed".to_string())?;
    let moves = field("moves")?.parse().map_err(|_| "bad move count".to_string())?;
    let body: Vec<(usize, String)> = lines.map(|(i, l)| (i, l.to_string())).collect();
    Ok((Header { spec, ko, seed, moves }, body))
}

/// Replays a file through the engine and compares every line with the line
/// the engine's state gives: the first difference is the error.
pub fn check(text: &str) -> Result<Header, String> {
    let (header, body) = read(text)?;
    let mut game = header.new_game()?;
    for (k, (i, line)) in body.iter().enumerate() {
        let (n, color, at) = parse_move(line).map_err(|e| format!("line {i}: {e}"))?;
        if n != k + 1 {
            return Err(format!("line {i}: move number {n}, expected {}", k + 1));
        }
        let mv = match at {
            None => Move::Pass,
            Some(c) => Move::Place(game.geometry().point_at(c).ok_or(format!("line {i}: {c} is off the board"))?),
        };
        game.play(color, mv).map_err(|e| format!("line {i}: the engine refuses {line:?}: {e}"))?;
        let ours = move_line(n, color, mv, &game);
        if &ours != line {
            return Err(format!("line {i}: the file says\n  {line}\nbut the engine gives\n  {ours}"));
        }
    }
    if body.len() != header.moves {
        return Err(format!("{} move lines, the header says {}", body.len(), header.moves));
    }
    Ok(header)
}
