//! The GTP command dispatcher: one [`GtpEngine`] holds the game, the GTP rule
//! settings and the move generator's RNG, and answers one command line at a time.

use super::parse::{
    format_failure, format_success, parse_color, parse_float, parse_int, parse_line, parse_uint, parse_vertex, Command,
    GtpColor, RawVertex,
};
use crate::analysis::{dead_stone_candidates, seki_candidates};
use crate::board::Color;
use crate::computer::{choose_move, Level, SearchLimits, Weights};
use crate::game::scoring::score_simple;
use crate::game::{Game, Move, Phase};
use crate::geometry::{Axis, Geometry, Point};
use crate::labels::{classic_vertex, format_numeric_xyz, handicap_points, star_points};
use crate::playout::Rng;
use crate::rules::{KoRule, Komi, Rules, ScoringMethod};
use crate::sgf::{export_sgf, import_sgf, SgfInfo};

/// Reads a file for `loadsgf` (the library itself does no I/O).
pub type FileLoader = Box<dyn FnMut(&str) -> Result<String, String>>;

/// Makes the `stop` callback of one `genmove` search: the binary builds it
/// from its clock (the library has none).
pub type StopFactory = Box<dyn FnMut() -> Box<dyn FnMut() -> bool>>;

/// The basic computer behind `genmove` (`space-baduk-gtp --computer`, 003 §11.4).
pub struct ComputerPlayer {
    pub weights: Weights,
    pub level: Level,
    /// Mixed with the move number into each move's seed, so a replayed
    /// command sequence with a playout-count limit replays the same moves.
    pub seed: u64,
    pub limits: SearchLimits,
    pub stop: StopFactory,
}

/// How vertices are written: letter+row on `boardsize`/`rectangular_boardsize`
/// boards, actual `x,y,z` coordinates on `space_*` boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VertexStyle {
    Letters,
    Coordinates,
}

/// Every command this engine knows, in `list_commands` order.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "rectangular_boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "final_status_list",
    "fixed_handicap",
    "loadsgf",
    "printsgf",
    "is_legal",
    "list_stones",
    "captures",
    "space_boardsize",
    "space_box",
    "space_rule",
    "space_illegal_reason",
];

/// Engine name answered by `name`.
pub const ENGINE_NAME: &str = "Space Baduk";

type Answer = Result<String, String>;

/// GTP defaults after start (issue "GTP"): immediate repetition rule, area
/// scoring, no capture bonus, komi 0 to White.
pub fn default_rules() -> Rules {
    Rules {
        ko: KoRule::Immediate,
        scoring: ScoringMethod::Area,
        capture_bonus: false,
        komi: Komi::ZERO,
        komi_to: Color::White,
        handicap: 0,
    }
}

/// GTP state machine. Feed it lines with [`GtpEngine::handle_line`].
pub struct GtpEngine {
    game: Game,
    style: VertexStyle,
    rules: Rules,
    rng: Rng,
    loader: Option<FileLoader>,
    computer: Option<ComputerPlayer>,
    quit: bool,
    /// Recipient of a non-negative `komi` (set by `space_rule komi_to`,
    /// default White); a negative `komi` goes to Black without changing it.
    komi_to: Color,
}

impl Default for GtpEngine {
    fn default() -> Self {
        GtpEngine::new(0x5BAD_57A2)
    }
}

impl GtpEngine {
    /// A 19×19 board in letter notation with the GTP default rules; `seed`
    /// drives `genmove`.
    pub fn new(seed: u64) -> GtpEngine {
        let rules = default_rules();
        // 19×19 is a valid geometry, and `Game::new` can only fail on a handicap (here 0).
        let geom = Geometry::flat(19, 19).unwrap_or_else(|_| Geometry::default_box());
        let game = Game::new(geom, rules).expect("no handicap, so no setup error");
        GtpEngine {
            game,
            style: VertexStyle::Letters,
            rules,
            rng: Rng::new(seed),
            loader: None,
            computer: None,
            quit: false,
            komi_to: rules.komi_to,
        }
    }

    /// Supplies the file reader used by `loadsgf`.
    pub fn with_loader(mut self, loader: FileLoader) -> GtpEngine {
        self.loader = Some(loader);
        self
    }

    /// Makes `genmove` play the basic computer instead of random moves.
    pub fn with_computer(mut self, computer: ComputerPlayer) -> GtpEngine {
        self.computer = Some(computer);
        self
    }

    /// True after `quit` was answered.
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// The current game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn vertex_style(&self) -> VertexStyle {
        self.style
    }

    /// Answers one input line: `None` for empty and comment lines, else the
    /// full response text (`=… \n\n` or `?… \n\n`).
    pub fn handle_line(&mut self, line: &str) -> Option<String> {
        match parse_line(line) {
            Ok(None) => None,
            Ok(Some(cmd)) => {
                let id = cmd.id;
                Some(match self.execute(&cmd) {
                    Ok(body) => format_success(id, &body),
                    Err(msg) => format_failure(id, &msg),
                })
            }
            Err(e) => Some(format_failure(e.id, &e.message)),
        }
    }

    /// Runs one parsed command.
    pub fn execute(&mut self, cmd: &Command) -> Answer {
        let a: Vec<&str> = cmd.args.iter().map(String::as_str).collect();
        match cmd.name.as_str() {
            "protocol_version" => Ok("2".into()),
            "name" => Ok(ENGINE_NAME.into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => {
                let [name] = args::<1>(&a)?;
                Ok(COMMANDS.contains(&name.to_ascii_lowercase().as_str()).to_string())
            }
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => {
                self.quit = true;
                Ok(String::new())
            }
            "boardsize" => {
                let [n] = args::<1>(&a)?;
                let n = parse_uint(n).ok_or("boardsize not an integer")?;
                self.new_board(
                    Axis::one_to(n.min(1000) as i64),
                    Axis::one_to(n.min(1000) as i64),
                    Axis::one_to(1),
                    VertexStyle::Letters,
                )
                .map_err(|_| "unacceptable size".to_string())
            }
            "rectangular_boardsize" => {
                let [x, y] = args::<2>(&a)?;
                let x = parse_uint(x).ok_or("size not an integer")?.min(1000) as i64;
                let y = parse_uint(y).ok_or("size not an integer")?.min(1000) as i64;
                self.new_board(Axis::one_to(x), Axis::one_to(y), Axis::one_to(1), VertexStyle::Letters)
                    .map_err(|_| "unacceptable size".to_string())
            }
            "space_boardsize" => {
                let [x, y, z] = args::<3>(&a)?;
                let mut v = [0i64; 3];
                for (slot, s) in v.iter_mut().zip([x, y, z]) {
                    *slot = parse_uint(s).ok_or("size not an integer")?.min(1000) as i64;
                }
                self.new_board(Axis::one_to(v[0]), Axis::one_to(v[1]), Axis::one_to(v[2]), VertexStyle::Coordinates)
            }
            "space_box" => {
                let v = args::<6>(&a)?;
                let mut n = [0i64; 6];
                for (slot, s) in n.iter_mut().zip(v) {
                    *slot = parse_int(s).ok_or("coordinate not an integer")?;
                }
                self.new_board(
                    Axis::new(n[0], n[1]),
                    Axis::new(n[2], n[3]),
                    Axis::new(n[4], n[5]),
                    VertexStyle::Coordinates,
                )
            }
            "clear_board" => {
                args::<0>(&a)?;
                self.rules.handicap = 0;
                self.reset_game()
            }
            "komi" => {
                let [k] = args::<1>(&a)?;
                let k = parse_float(k).ok_or("komi not a float")?;
                let komi = Komi::from_f64(k.abs()).map_err(|e| e.to_string())?;
                let mut r = self.rules;
                r.komi = komi;
                // A negative komi goes to Black; otherwise to the recipient set
                // by `space_rule komi_to` (default White) — an earlier negative
                // komi does not stick (003 §4.3: komi ≥ 0 to an agreed recipient).
                r.komi_to = if k < 0.0 { Color::Black } else { self.komi_to };
                self.change_rules(r)
            }
            "space_rule" => self.space_rule(&a),
            "play" => {
                let [c, v] = args::<2>(&a)?;
                let c = color_arg(c)?;
                let mv = self.move_arg(v)?;
                self.play(c, mv).map(|_| String::new())
            }
            "genmove" => {
                let [c] = args::<1>(&a)?;
                let c = color_arg(c)?;
                self.genmove(c)
            }
            "undo" => {
                args::<0>(&a)?;
                self.game.undo().map(|_| String::new()).map_err(|_| "cannot undo".to_string())
            }
            "showboard" => {
                args::<0>(&a)?;
                Ok(self.showboard())
            }
            "final_score" => {
                args::<0>(&a)?;
                // Under the rules set with `space_rule scoring` / `capture_bonus` / `komi_to`.
                Ok(score_simple(&self.game).gtp_result())
            }
            "final_status_list" => {
                let [s] = args::<1>(&a)?;
                self.final_status_list(s)
            }
            "fixed_handicap" => {
                let [n] = args::<1>(&a)?;
                self.fixed_handicap(n)
            }
            "loadsgf" => self.loadsgf(&a),
            "printsgf" => {
                args::<0>(&a)?;
                export_sgf(&self.game, &SgfInfo::default()).map_err(|e| e.to_string())
            }
            "is_legal" => {
                let [c, v] = args::<2>(&a)?;
                let c = color_arg(c)?;
                let legal = match self.move_arg(v)? {
                    Move::Pass => self.game.phase() != Phase::Over,
                    Move::Place(p) => self.legal_now(c, p),
                };
                Ok(if legal { "1" } else { "0" }.into())
            }
            "space_illegal_reason" => {
                let [c, v] = args::<2>(&a)?;
                let c = color_arg(c)?;
                Ok(match self.move_arg(v)? {
                    Move::Pass => String::new(),
                    Move::Place(p) => self.reason_now(c, p).unwrap_or_default(),
                })
            }
            "list_stones" => {
                let [c] = args::<1>(&a)?;
                let c = color_arg(c)?;
                let g = self.game.geometry();
                let v: Vec<String> =
                    g.points().filter(|&p| self.game.stone_at(p) == Some(c)).map(|p| self.vertex(p)).collect();
                Ok(v.join(" "))
            }
            "captures" => {
                let [c] = args::<1>(&a)?;
                Ok(self.game.captures(color_arg(c)?).to_string())
            }
            _ => Err("unknown command".into()),
        }
    }

    // --------------------------------------------------------------
    // Boards and rules

    fn new_board(&mut self, x: Axis, y: Axis, z: Axis, style: VertexStyle) -> Answer {
        let geom = Geometry::new(x, y, z).map_err(|e| e.to_string())?;
        if style == VertexStyle::Letters && (geom.width() > 25 || geom.height() > 25) {
            return Err("unacceptable size".into());
        }
        let mut r = self.rules;
        r.handicap = 0;
        let game = Game::new(geom, r).map_err(|e| e.to_string())?;
        self.rules = r;
        self.game = game;
        self.style = style;
        Ok(String::new())
    }

    fn reset_game(&mut self) -> Answer {
        let geom = self.game.geometry().clone();
        self.game = Game::new(geom, self.rules).map_err(|e| e.to_string())?;
        Ok(String::new())
    }

    /// Applies new rules to the current game by replaying its setup and moves
    /// (rules are fixed per game, 003 §1.3, so the game is rebuilt). Refused
    /// if the moves so far break the new rules.
    fn change_rules(&mut self, r: Rules) -> Answer {
        let mut g = Game::new(self.game.geometry().clone(), r).map_err(|e| e.to_string())?;
        let setup: Vec<(Point, Option<Color>)> = self.game.setup_stones().iter().map(|&(p, c)| (p, Some(c))).collect();
        if !setup.is_empty() {
            g.set_stones(&setup).map_err(|e| e.to_string())?;
        }
        if g.to_move() != self.game.first_to_move() {
            g.set_first_to_move(self.game.first_to_move()).map_err(|e| e.to_string())?;
        }
        for (c, mv) in self.game.moves() {
            if g.phase() == Phase::Scoring {
                let _ = g.resume(c.opponent());
            }
            g.play_explicit(c, mv).map_err(|e| format!("the moves so far break the new rule: {}", e.reason_word()))?;
        }
        self.rules = r;
        self.game = g;
        Ok(String::new())
    }

    fn space_rule(&mut self, a: &[&str]) -> Answer {
        let [what, value] = args::<2>(a)?;
        let mut r = self.rules;
        match (what.to_ascii_lowercase().as_str(), value.to_ascii_lowercase().as_str()) {
            ("ko", "immediate") => r.ko = KoRule::Immediate,
            ("ko", "superko") => r.ko = KoRule::PositionalSuperko,
            ("ko", "korean") => r.ko = KoRule::Korean,
            ("scoring", "area") => r.scoring = ScoringMethod::Area,
            ("scoring", "territory") => r.scoring = ScoringMethod::Territory,
            ("capture_bonus", "on") => r.capture_bonus = true,
            ("capture_bonus", "off") => r.capture_bonus = false,
            ("komi_to", "black") => r.komi_to = Color::Black,
            ("komi_to", "white") => r.komi_to = Color::White,
            ("ko", _) => return Err("ko must be immediate, superko or korean".into()),
            ("scoring", _) => return Err("scoring must be area or territory".into()),
            ("capture_bonus", _) => return Err("capture_bonus must be on or off".into()),
            ("komi_to", _) => return Err("komi_to must be black or white".into()),
            _ => return Err("unknown rule; use ko, scoring, capture_bonus or komi_to".into()),
        }
        self.change_rules(r)?;
        if what.eq_ignore_ascii_case("komi_to") {
            self.komi_to = r.komi_to;
        }
        Ok(String::new())
    }

    // --------------------------------------------------------------
    // Vertices

    /// The vertex text of a point in the current style.
    pub fn vertex(&self, p: Point) -> String {
        let g = self.game.geometry();
        let s = match self.style {
            VertexStyle::Letters => classic_vertex(g, p),
            VertexStyle::Coordinates => format_numeric_xyz(g, p),
        };
        s.unwrap_or_else(|| format!("{p}"))
    }

    /// Parses a vertex argument into a move. A well-formed vertex outside the
    /// board is `illegal move: off_board`; text in the other style is a syntax error.
    fn move_arg(&self, s: &str) -> Result<Move, String> {
        let g = self.game.geometry();
        let off = || "illegal move: off_board".to_string();
        match (parse_vertex(s), self.style) {
            (Some(RawVertex::Pass), _) => Ok(Move::Pass),
            (Some(RawVertex::Letter { col, row }), VertexStyle::Letters) => {
                if col >= g.width() || row > g.height() {
                    return Err(off());
                }
                g.point_from_offsets(col, g.height() - row, 0).map(Move::Place).ok_or_else(off)
            }
            (Some(RawVertex::Xyz(x, y, z)), VertexStyle::Coordinates) => {
                g.index_of(x, y, z).map(Move::Place).ok_or_else(off)
            }
            (Some(RawVertex::Letter { .. }), VertexStyle::Coordinates) => {
                Err("invalid vertex: this board uses x,y,z coordinates".into())
            }
            (Some(RawVertex::Xyz(..)), VertexStyle::Letters) => {
                Err("invalid vertex: this board uses letter+number vertices".into())
            }
            (None, _) => Err(format!("invalid vertex '{}'", super::parse::clip(s))),
        }
    }

    // --------------------------------------------------------------
    // Moves

    /// Plays for `c` whatever the turn (GTP colours are explicit). After two
    /// passes GTP play simply continues: the game resumes with `c` to move.
    fn play(&mut self, c: Color, mv: Move) -> Result<(), String> {
        if self.game.phase() == Phase::Scoring {
            let _ = self.game.resume(c.opponent());
        }
        self.game.play_explicit(c, mv).map(|_| ()).map_err(|e| format!("illegal move: {}", e.reason_word()))
    }

    fn legal_now(&self, c: Color, p: Point) -> bool {
        self.reason_now(c, p).is_none()
    }

    /// The rule reason word, treating the scoring phase as playable (GTP resumes).
    fn reason_now(&self, c: Color, p: Point) -> Option<String> {
        if self.game.phase() == Phase::Scoring {
            let mut g = self.game.clone();
            let _ = g.resume(c.opponent());
            return g.illegal_reason(c, p).map(|e| e.reason_word().to_string());
        }
        self.game.illegal_reason(c, p).map(|e| e.reason_word().to_string())
    }

    /// With a [`ComputerPlayer`], the basic computer's move (it may pass,
    /// 003 §11.4); otherwise a uniformly random legal move that does not fill
    /// a single-point own eye, pass when there is none.
    fn genmove(&mut self, c: Color) -> Answer {
        if self.game.phase() == Phase::Over {
            return Err("game is over".into());
        }
        if self.game.phase() == Phase::Scoring {
            let _ = self.game.resume(c.opponent());
        }
        let mv = if let Some(cp) = self.computer.as_mut() {
            let seed = cp.seed ^ u64::from(self.game.move_number()).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let mut stop = (cp.stop)();
            choose_move(&self.game, c, &cp.weights, cp.level, seed, cp.limits, &mut *stop).mv
        } else {
            let board = self.game.board();
            let mut candidates: Vec<Point> =
                self.game.legal_points(c).into_iter().filter(|&p| !board.is_single_point_eye(p, c)).collect();
            candidates.sort_unstable();
            if candidates.is_empty() {
                Move::Pass
            } else {
                Move::Place(candidates[self.rng.below(candidates.len())])
            }
        };
        self.play(c, mv)?;
        Ok(match mv {
            Move::Pass => "pass".into(),
            Move::Place(p) => self.vertex(p),
        })
    }

    // --------------------------------------------------------------
    // Other commands

    fn fixed_handicap(&mut self, n: &str) -> Answer {
        let n = parse_uint(n).ok_or("number of stones not an integer")?;
        if self.style == VertexStyle::Coordinates || !self.game.geometry().is_flat() {
            return Err("fixed_handicap needs a boardsize board".into());
        }
        if self.game.move_number() > 0
            || self.game.board().stone_count(Color::Black) + self.game.board().stone_count(Color::White) > 0
        {
            return Err("board not empty".into());
        }
        let n = u8::try_from(n).map_err(|_| "invalid number of stones".to_string())?;
        let points = handicap_points(self.game.geometry(), n).map_err(|e| e.to_string())?;
        if points.is_empty() {
            return Err("invalid number of stones".into());
        }
        let mut r = self.rules;
        r.handicap = n;
        let game = Game::new(self.game.geometry().clone(), r).map_err(|e| e.to_string())?;
        self.rules = r;
        self.game = game;
        Ok(points.iter().map(|&p| self.vertex(p)).collect::<Vec<_>>().join(" "))
    }

    fn final_status_list(&self, which: &str) -> Answer {
        let board = self.game.board();
        let g = board.geometry();
        let mut raw_dead = vec![false; g.len()];
        for d in dead_stone_candidates(board) {
            for p in d.stones {
                raw_dead[p.index()] = true;
            }
        }
        let mut seki = vec![false; g.len()];
        for s in seki_candidates(board) {
            // Stones bordering a seki region (000 §5.6) are in seki, and so
            // are the (living) opposing chains that share its dame: both
            // sides live in seki (003 §3.3).
            let region_border = s.region.iter().flat_map(|&p| g.neighbours(p).iter().map(move |&q| (q, s.color)));
            let dame_border =
                s.shared_liberties.iter().flat_map(|&p| g.neighbours(p).iter().map(move |&q| (q, s.color.opponent())));
            for (q, c) in region_border.chain(dame_border) {
                let living_opponent = c == s.color || !raw_dead[q.index()];
                if board.stone_at(q) == Some(c) && living_opponent && !seki[q.index()] {
                    for r in board.chain_stones(q) {
                        seki[r.index()] = true;
                    }
                }
            }
        }
        // A chain in seki has fewer than two eyes and is shut in, so 000 §5.5
        // (b) also names it; the more specific seki suggestion wins.
        let dead: Vec<bool> = raw_dead.iter().zip(&seki).map(|(&d, &k)| d && !k).collect();
        let keep: Box<dyn Fn(usize) -> bool> = match which.to_ascii_lowercase().as_str() {
            "dead" => Box::new(|i| dead[i]),
            "seki" => Box::new(|i| seki[i] && !dead[i]),
            "alive" => Box::new(|i| !dead[i] && !seki[i]),
            _ => return Err("status must be alive, dead or seki".into()),
        };
        let v: Vec<String> =
            g.points().filter(|&p| board.stone_at(p).is_some() && keep(p.index())).map(|p| self.vertex(p)).collect();
        Ok(v.join(" "))
    }

    fn loadsgf(&mut self, a: &[&str]) -> Answer {
        let (file, limit) = match a {
            [f] => (*f, None),
            [f, n] => {
                let n = parse_uint(n).ok_or("move number not an integer")?;
                // GTP: the position before move `n` is played.
                (*f, Some(n.saturating_sub(1).min(1 << 20) as usize))
            }
            _ => return Err("usage: loadsgf FILE [MOVE_NUMBER]".into()),
        };
        let loader = self.loader.as_mut().ok_or("cannot load file")?;
        let text = loader(file).map_err(|e| format!("cannot load file: {e}"))?;
        let mut base = self.rules;
        base.handicap = 0;
        let imported = import_sgf(&text, base, limit).map_err(|e| e.to_string())?;
        self.rules = *imported.game.rules();
        self.game = imported.game;
        self.style = VertexStyle::Letters;
        Ok(String::new())
    }

    /// Text diagram: `X` Black, `O` White, `+` star points, `.` empty; one
    /// block per z layer on 3D boards.
    fn showboard(&self) -> String {
        let g = self.game.geometry();
        let (w, h, d) = g.dims();
        let stars = star_points(g);
        let mut out = String::new();
        let spec = g.spec();
        for zi in 0..d {
            if self.style == VertexStyle::Coordinates {
                out.push_str(&format!("z = {}\n", spec.z.start + zi as i64));
                // x header: actual coordinates
                out.push_str("      ");
                for xi in 0..w {
                    out.push_str(&format!("{:>4}", spec.x.start + xi as i64));
                }
                out.push('\n');
            } else {
                out.push_str("   ");
                for xi in 0..w {
                    out.push(' ');
                    out.push(super::parse::COLUMN_LETTERS[xi] as char);
                }
                out.push('\n');
            }
            for yi in 0..h {
                let label = match self.style {
                    VertexStyle::Letters => format!("{:>3}", h - yi),
                    VertexStyle::Coordinates => format!("{:>6}", spec.y.start + yi as i64),
                };
                out.push_str(&label);
                for xi in 0..w {
                    let p = match g.point_from_offsets(xi, yi, zi) {
                        Some(p) => p,
                        None => continue,
                    };
                    let ch = match self.game.stone_at(p) {
                        Some(Color::Black) => 'X',
                        Some(Color::White) => 'O',
                        None if stars.contains(&p) => '+',
                        None => '.',
                    };
                    if self.style == VertexStyle::Coordinates {
                        out.push_str("   ");
                    } else {
                        out.push(' ');
                    }
                    out.push(ch);
                }
                if self.style == VertexStyle::Letters {
                    out.push_str(&format!(" {}", h - yi));
                }
                out.push('\n');
            }
        }
        out.push_str(&format!(
            "captures: black {} white {}; {} to move; move {}",
            self.game.captures(Color::Black),
            self.game.captures(Color::White),
            self.game.to_move().english(),
            self.game.move_number()
        ));
        out
    }
}

fn args<'a, const N: usize>(a: &[&'a str]) -> Result<[&'a str; N], String> {
    <[&str; N]>::try_from(a).map_err(|_| {
        if N == 0 {
            "syntax error: no arguments expected".to_string()
        } else {
            format!("syntax error: {N} argument{} expected", if N == 1 { "" } else { "s" })
        }
    })
}

fn color_arg(s: &str) -> Result<Color, String> {
    match parse_color(s) {
        Some(GtpColor::Black) => Ok(Color::Black),
        Some(GtpColor::White) => Ok(Color::White),
        None => Err(format!("invalid color '{}'", super::parse::clip(s))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(e: &mut GtpEngine, line: &str) -> String {
        e.handle_line(line).unwrap_or_default()
    }

    #[test]
    fn vertices_follow_the_board_style() {
        let mut e = GtpEngine::default();
        assert_eq!(run(&mut e, "boardsize 9"), "= \n\n");
        assert_eq!(run(&mut e, "play b A1"), "= \n\n");
        let a1 = e.game().geometry().index_of(1, 9, 1).unwrap();
        assert_eq!(e.game().stone_at(a1), Some(Color::Black));
        assert_eq!(run(&mut e, "play w 1,1,1"), "? invalid vertex: this board uses letter+number vertices\n\n");
        assert_eq!(run(&mut e, "space_box -2 2 0 0 7 7"), "= \n\n");
        assert_eq!(run(&mut e, "play b -2,0,7"), "= \n\n");
        assert_eq!(run(&mut e, "list_stones b"), "= -2,0,7\n\n");
        assert_eq!(run(&mut e, "play b A1"), "? invalid vertex: this board uses x,y,z coordinates\n\n");
    }

    #[test]
    fn rule_changes_replay_the_game() {
        let mut e = GtpEngine::default();
        run(&mut e, "boardsize 9");
        run(&mut e, "play b E5");
        assert_eq!(run(&mut e, "space_rule ko superko"), "= \n\n");
        assert_eq!(e.game().rules().ko, KoRule::PositionalSuperko);
        assert_eq!(e.game().move_number(), 1);
        assert_eq!(run(&mut e, "komi 6.5"), "= \n\n");
        assert_eq!(e.game().rules().komi.half_points(), 13);
        assert_eq!(run(&mut e, "komi -2"), "= \n\n");
        assert_eq!(e.game().rules().komi_to, Color::Black);
        assert!(run(&mut e, "komi 0.3").starts_with('?'));
    }
}
