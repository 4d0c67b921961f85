//! The engine of the exported participant program (003 §12.6: "a participant script
//! embedding the weights can join LAN games and receives state, turn, suicide and ko checks
//! from the common code").
//!
//! The JavaScript program (`app/src/learning/participant.js`) carries this crate compiled to
//! WASM and the model's eight weights. On its turn it hands the room's position to
//! [`choose_json`] and gets the stone moves ranked best first by the basic computer's
//! evaluator (`engine::computer`); it proposes them to the server in that order. Legality is
//! the server's: the position built here has no history, so it knows occupied points and
//! suicide but not ko or superko — the server's hints and refusals exclude those (the
//! request's `excluded`).
//!
//! # Request (JSON)
//!
//! ```json
//! {
//!   "board": {"x": {"start": 1, "end": 9}, "y": {"start": 1, "end": 9}, "z": {"start": 1, "end": 1}},
//!   "stones": [[{"x": 3, "y": 3, "z": 1}, "black"], [{"x": 4, "y": 4, "z": 1}, "white"]],
//!   "to_move": "black",
//!   "last_move": {"x": 4, "y": 4, "z": 1},
//!   "last_pass": false,
//!   "weights": {"captures": 2.5, "saves_atari": 1.75, "...": 0.0},
//!   "fingerprint": "sha256:…",
//!   "level": 1,
//!   "seed": 7,
//!   "playouts": 2000,
//!   "excluded": [{"x": 5, "y": 5, "z": 1}],
//!   "limit": 8
//! }
//! ```
//!
//! `board`, `stones`, `to_move` and `last_move` are the room view's fields as the server
//! sends them (`settings.board`, `stones`, `to_move`, `last_move`); `last_pass` says that the
//! opponent's last action was a pass (in the view: moves were made, `last_move` is null).
//! `weights` is an object by feature name or an array in feature order; `fingerprint`
//! (optional) must then be the weights' (`engine::computer::model::fingerprint`). The rest is
//! optional: `level` 1 (the evaluator) or 2 (the search, `playouts` per move), `seed` for the
//! computer's random choices, `excluded` points (the server's illegal-point hints and the
//! moves it refused), `limit` the number of moves answered ([`DEFAULT_LIMIT`]).
//!
//! # Answer (JSON)
//!
//! ```json
//! {"moves": [{"at": {"x": 3, "y": 4, "z": 1}, "score": 1.25}], "candidates": 79,
//!  "pass_reason": null, "level": 1, "playouts": 0}
//! ```
//!
//! At most `limit` moves, best first ([`rank`]); `candidates` counts every move that was
//! ranked. No moves: the computer passes, `pass_reason` says why. A refused request answers
//! `{"error": code, "message": text}` ([`ParticipantError::code`]).

use engine::{
    computer::{
        self, evaluator, features, model, search::SearchLimits, Choice, Feature, FeatureVector, Level, PassReason,
        Weights, FEATURE_COUNT,
    },
    BoxSpec, Color, Coord, Game, GeometryError, Move, Point, Rules, SetupError,
};
use serde_json::{json, Map, Value};

pub mod abi;

/// How many ranked moves an answer carries unless the request says otherwise.
pub const DEFAULT_LIMIT: usize = 8;

/// The search's playouts per move unless the request says otherwise (level 2).
pub const DEFAULT_PLAYOUTS: u32 = 2_000;
/// Most playouts a request may ask for.
pub const MAX_PLAYOUTS: u32 = 1_000_000;

/// Largest request accepted (bytes): a full 25³ box with every point listed twice fits.
pub const MAX_REQUEST_BYTES: usize = 4 << 20;

/// Why a request is refused. Each names the field (a JSON path) it is about.
#[derive(Debug, Clone, PartialEq)]
pub enum ParticipantError {
    /// The request is not JSON, or too large.
    Syntax { why: String },
    /// A field is missing or of the wrong shape.
    Field { field: String, why: String },
    /// The box is not a valid board (003 §1.1).
    Board(GeometryError),
    /// A point lies outside the box.
    OffBoard { field: String, at: Coord },
    /// The stones do not make a position (a point twice, a chain without liberties).
    Position { why: String },
    /// A weight outside its bounds, or a fingerprint that does not match the weights.
    Model { field: String, why: String },
    /// No such level.
    Level { found: u64 },
}

impl std::fmt::Display for ParticipantError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParticipantError::Syntax { why } => write!(f, "the request is not valid JSON: {why}"),
            ParticipantError::Field { field, why } => write!(f, "{field}: {why}"),
            ParticipantError::Board(e) => write!(f, "board: {e}"),
            ParticipantError::OffBoard { field, at } => {
                write!(f, "{field}: {},{},{} is outside the board", at.x, at.y, at.z)
            }
            ParticipantError::Position { why } => write!(f, "stones: {why}"),
            ParticipantError::Model { field, why } => write!(f, "{field}: {why}"),
            ParticipantError::Level { found } => write!(f, "level: {found} is not a level; the levels are 1 and 2"),
        }
    }
}

impl std::error::Error for ParticipantError {}

impl ParticipantError {
    /// The stable code of the error's kind, for programs.
    pub fn code(&self) -> &'static str {
        match self {
            ParticipantError::Syntax { .. } => "syntax",
            ParticipantError::Field { .. } => "field",
            ParticipantError::Board(_) => "board",
            ParticipantError::OffBoard { .. } => "off_board",
            ParticipantError::Position { .. } => "position",
            ParticipantError::Model { .. } => "model",
            ParticipantError::Level { .. } => "level",
        }
    }

    /// The wire form: `{"error": code, "message": text}`.
    pub fn to_json(&self) -> Value {
        json!({ "error": self.code(), "message": self.to_string() })
    }
}

type R<T> = Result<T, ParticipantError>;

/// A parsed request (see the crate documentation for its JSON).
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    pub board: BoxSpec,
    pub stones: Vec<(Coord, Color)>,
    pub to_move: Color,
    pub last_move: Option<Coord>,
    pub weights: Weights,
    /// The last action was the opponent's pass (the view has moves but no `last_move`).
    pub last_pass: bool,
    pub level: Level,
    pub seed: u64,
    /// The search's budget (level 2): it has no clock in here.
    pub playouts: u32,
    pub excluded: Vec<Coord>,
    pub limit: usize,
}

/// One ranked stone move.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ranked {
    pub at: Coord,
    pub score: f64,
}

/// The answer: the best `limit` moves, best first, out of `candidates`; none (and why) when
/// the computer passes.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranking {
    pub moves: Vec<Ranked>,
    pub candidates: usize,
    pub pass_reason: Option<&'static str>,
    /// What the basic computer itself chose (before the exclusions).
    pub choice: Choice,
}

impl Ranking {
    pub fn to_json(&self) -> Value {
        let moves: Vec<Value> = self
            .moves
            .iter()
            .map(|m| json!({ "at": { "x": m.at.x, "y": m.at.y, "z": m.at.z }, "score": m.score }))
            .collect();
        json!({
            "moves": moves,
            "candidates": self.candidates,
            "pass_reason": self.pass_reason,
            "level": self.choice.level.number(),
            "playouts": self.choice.playouts,
        })
    }
}

fn field_err(field: &str, why: impl std::fmt::Display) -> ParticipantError {
    ParticipantError::Field { field: field.to_string(), why: why.to_string() }
}

/// A field read with the engine's own serde shape (`BoxSpec`, `Coord`, `Color`). A macro,
/// not a generic function: naming the `DeserializeOwned` bound would need `serde` itself.
macro_rules! typed {
    ($v:expr, $field:expr) => {
        serde_json::from_value($v.clone()).map_err(|e| field_err($field, e))
    };
}

fn weights_of(v: &Value) -> R<Weights> {
    let mut w = [0.0f64; FEATURE_COUNT];
    match v {
        Value::Array(items) => {
            if items.len() != FEATURE_COUNT {
                return Err(field_err("weights", format!("{} weights; a model has exactly 8", items.len())));
            }
            for (i, item) in items.iter().enumerate() {
                w[i] = item.as_f64().ok_or_else(|| field_err(&format!("weights[{i}]"), "not a number"))?;
            }
        }
        Value::Object(map) => {
            for key in map.keys() {
                if key.parse::<Feature>().is_err() {
                    return Err(field_err(&format!("weights.{key}"), "not one of the eight features"));
                }
            }
            for f in Feature::ALL {
                let name: &'static str = f.into();
                let x = map.get(name).ok_or_else(|| field_err(&format!("weights.{name}"), "missing"))?;
                w[f.index()] = x.as_f64().ok_or_else(|| field_err(&format!("weights.{name}"), "not a number"))?;
            }
        }
        _ => return Err(field_err("weights", "expected an object by feature name or an array of 8 numbers")),
    }
    let w = Weights(w);
    model::check_weights(&w, "weights")
        .map_err(|e| ParticipantError::Model { field: e.field().to_string(), why: e.to_string() })?;
    Ok(w)
}

impl Request {
    /// Reads and checks a request (see the crate documentation).
    pub fn from_json(text: &str) -> R<Request> {
        if text.len() > MAX_REQUEST_BYTES {
            return Err(ParticipantError::Syntax { why: format!("{} bytes; at most {MAX_REQUEST_BYTES}", text.len()) });
        }
        let v: Value = serde_json::from_str(text).map_err(|e| ParticipantError::Syntax { why: e.to_string() })?;
        let Value::Object(o) = v else {
            return Err(ParticipantError::Syntax { why: "expected a JSON object".into() });
        };
        Request::from_object(&o)
    }

    fn from_object(o: &Map<String, Value>) -> R<Request> {
        const KNOWN: [&str; 12] = [
            "board",
            "stones",
            "to_move",
            "last_move",
            "last_pass",
            "weights",
            "fingerprint",
            "level",
            "seed",
            "playouts",
            "excluded",
            "limit",
        ];
        if let Some(k) = o.keys().find(|k| !KNOWN.contains(&k.as_str())) {
            return Err(field_err(k, format!("unknown field; the fields are {}", KNOWN.join(", "))));
        }
        let need = |k: &str| o.get(k).ok_or_else(|| field_err(k, "missing"));
        let present = |k: &str| o.get(k).filter(|v| !v.is_null());
        let board: BoxSpec = typed!(need("board")?, "board")?;
        let stones: Vec<(Coord, Color)> = typed!(need("stones")?, "stones")?;
        let to_move: Color = typed!(need("to_move")?, "to_move")?;
        let last_move: Option<Coord> = present("last_move").map(|v| typed!(v, "last_move")).transpose()?;
        let weights = weights_of(need("weights")?)?;
        if let Some(fp) = present("fingerprint") {
            let fp = fp.as_str().ok_or_else(|| field_err("fingerprint", "not a string"))?;
            let expected = model::fingerprint(&weights);
            if fp != expected {
                return Err(ParticipantError::Model {
                    field: "fingerprint".into(),
                    why: format!("{fp} does not match the weights, whose fingerprint is {expected}"),
                });
            }
        }
        let level = match present("level") {
            None => Level::Evaluator,
            Some(v) => {
                let n = v.as_u64().ok_or_else(|| field_err("level", "not a whole number"))?;
                u8::try_from(n).ok().and_then(Level::from_number).ok_or(ParticipantError::Level { found: n })?
            }
        };
        let seed = match present("seed") {
            None => 0,
            Some(v) => v.as_u64().ok_or_else(|| field_err("seed", "not a whole number ≥ 0"))?,
        };
        let last_pass = match present("last_pass") {
            None => false,
            Some(v) => v.as_bool().ok_or_else(|| field_err("last_pass", "not true or false"))?,
        };
        if last_pass && last_move.is_some() {
            return Err(field_err("last_pass", "the last action is either a move (last_move) or a pass"));
        }
        let playouts = match present("playouts") {
            None => DEFAULT_PLAYOUTS,
            Some(v) => v
                .as_u64()
                .filter(|n| (1..=u64::from(MAX_PLAYOUTS)).contains(n))
                .map(|n| n as u32)
                .ok_or_else(|| field_err("playouts", format!("not a whole number in 1..={MAX_PLAYOUTS}")))?,
        };
        let excluded: Vec<Coord> = present("excluded").map(|v| typed!(v, "excluded")).transpose()?.unwrap_or_default();
        let limit = match present("limit") {
            None => DEFAULT_LIMIT,
            Some(v) => v
                .as_u64()
                .filter(|n| *n >= 1)
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| field_err("limit", "not a whole number ≥ 1"))?,
        };
        Ok(Request { board, stones, to_move, last_move, last_pass, weights, level, seed, playouts, excluded, limit })
    }
}

/// The position of a request as an engine game, `to_move` to play. The last move, when
/// known, is replayed as a real move so that the features see it (`near_last_move`), and so
/// is the opponent's pass (the computer may pass back when the game is decided); the
/// game has no earlier history, so its ko and superko checks are empty (the server's are
/// the ones that count).
pub fn position(req: &Request) -> R<Game> {
    let geometry = engine::Geometry::from_spec(req.board).map_err(ParticipantError::Board)?;
    let point = |c: Coord, field: &str| {
        geometry.point_at(c).ok_or_else(|| ParticipantError::OffBoard { field: field.to_string(), at: c })
    };
    let mut seen = vec![false; geometry.len()];
    let mut changes: Vec<(Point, Option<Color>)> = Vec::with_capacity(req.stones.len());
    for (i, &(c, colour)) in req.stones.iter().enumerate() {
        let p = point(c, &format!("stones[{i}]"))?;
        if std::mem::replace(&mut seen[p.index()], true) {
            return Err(ParticipantError::Position { why: format!("{},{},{} is listed twice", c.x, c.y, c.z) });
        }
        changes.push((p, Some(colour)));
    }
    // The last move, played for real: its stone must be there, of the colour not to move.
    let last = match req.last_move {
        Some(c) => {
            let p = point(c, "last_move")?;
            let mover = req.to_move.opponent();
            changes.iter().position(|&(q, col)| q == p && col == Some(mover)).map(|i| (i, c, p, mover))
        }
        None => None,
    };
    if let Some((i, ..)) = last {
        changes.swap_remove(i);
    }
    let setup_err = |e: SetupError| ParticipantError::Position { why: e.to_string() };
    let mut game = Game::new(geometry, Rules::space()).map_err(setup_err)?;
    game.set_stones(&changes).map_err(setup_err)?;
    match last {
        Some((_, c, p, mover)) => {
            game.set_first_to_move(mover).map_err(setup_err)?;
            // Legal on the position before it: the stone's chain has a liberty after it, and
            // no opponent chain beside it was without one (captured stones are gone already).
            game.play(mover, Move::Place(p)).map_err(|e| ParticipantError::Position {
                why: format!("the last move {},{},{} cannot be replayed: {e}", c.x, c.y, c.z),
            })?;
        }
        None if req.last_pass => {
            let passer = req.to_move.opponent();
            game.set_first_to_move(passer).map_err(setup_err)?;
            game.play(passer, Move::Pass).map_err(|e| ParticipantError::Position { why: e.to_string() })?;
        }
        None => game.set_first_to_move(req.to_move).map_err(setup_err)?,
    }
    Ok(game)
}

/// SplitMix64: a seeded, well-mixed tie-break per point.
fn mix(seed: u64, p: Point) -> u64 {
    let mut z = seed ^ (u64::from(p.0).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The evaluator's own rule (`engine::computer::evaluator`): a move that only fills an own
/// single-point eye, without saving a chain in atari, is never a candidate.
fn only_fills_eye(f: &FeatureVector) -> bool {
    f[Feature::FillsOwnEye.index()] > 0.0 && f[Feature::SavesAtari.index()] == 0.0
}

/// The basic computer's answer for the request's position, then the fallbacks.
///
/// First the move the server's computer would play at this level with this seed
/// (`engine::computer::choose_move`), unless the request excludes it; then every other
/// candidate the evaluator would consider (legal here, not excluded, not only filling an own
/// eye, scoring at least the pass threshold), best score first, ties broken by the seed. The
/// best `limit` of them. When the computer passes, no moves (and its reason).
pub fn rank(req: &Request) -> R<Ranking> {
    let game = position(req)?;
    let geometry = game.geometry();
    let mut excluded = vec![false; geometry.len()];
    for (i, &c) in req.excluded.iter().enumerate() {
        let p = geometry.point_at(c).ok_or(ParticipantError::OffBoard { field: format!("excluded[{i}]"), at: c })?;
        excluded[p.index()] = true;
    }
    let limits = SearchLimits { max_playouts: req.playouts };
    // No clock in here: the search stops at its playout budget.
    let choice = computer::choose_move(&game, req.to_move, &req.weights, req.level, req.seed, limits, &mut || false);
    let first = match choice.mv {
        Move::Place(p) => Some(p).filter(|p| !excluded[p.index()]),
        Move::Pass => {
            let reason = choice.pass_reason.map(pass_reason_name);
            return Ok(Ranking { moves: Vec::new(), candidates: 0, pass_reason: reason, choice });
        }
    };
    let mut rest: Vec<(f64, u64, Point)> = features::all_features(&game, req.to_move)
        .into_iter()
        .filter(|(p, f)| !excluded[p.index()] && Some(*p) != first && !only_fills_eye(f))
        .map(|(p, f)| (req.weights.score(&f), mix(req.seed, p), p))
        .filter(|(score, _, _)| *score >= evaluator::PASS_THRESHOLD)
        .collect();
    rest.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let candidates = rest.len() + usize::from(first.is_some());
    let first = first.map(|p| (choice.score.unwrap_or(f64::NAN), p));
    let moves: Vec<Ranked> = first
        .into_iter()
        .chain(rest.into_iter().map(|(score, _, p)| (score, p)))
        .take(req.limit)
        .filter_map(|(score, p)| Some(Ranked { at: geometry.coords_of(p)?, score }))
        .collect();
    let pass_reason = moves.is_empty().then_some("no_candidate_left");
    Ok(Ranking { moves, candidates, pass_reason, choice })
}

fn pass_reason_name(r: PassReason) -> &'static str {
    match r {
        PassReason::NotInPlay => "not_in_play",
        PassReason::NoLegalMove => "no_legal_move",
        PassReason::OnlyOwnEyes => "only_own_eyes",
        PassReason::BelowThreshold => "below_threshold",
        PassReason::GameDecided => "game_decided",
    }
}

/// A request's text in, the answer's text out (an error answer when it is refused).
pub fn choose_json(text: &str) -> String {
    let answer = Request::from_json(text).and_then(|r| rank(&r)).map(|r| r.to_json());
    answer.unwrap_or_else(|e| e.to_json()).to_string()
}

#[cfg(test)]
mod tests;
