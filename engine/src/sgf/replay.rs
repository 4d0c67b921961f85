//! Layer (b): [`SgfGame`] ↔ the engine's [`Game`], replaying every move
//! through the rules.

use super::text::{parse_sgf, write_sgf, SgfColor, SgfGame, SgfMove, SgfPoint};
use super::SgfError;
use crate::board::Color;
use crate::game::{Game, IllegalMove, Move, Phase};
use crate::geometry::{Geometry, Point};
use crate::labels::{classic_vertex, handicap_points};
use crate::rules::{KoRule, Komi, Rules, ScoringMethod};

/// Game information that SGF carries besides the moves.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SgfInfo {
    pub black_player: Option<String>,
    pub white_player: Option<String>,
    pub date: Option<String>,
    /// `RE` as written in the file (the engine's own result is in the game).
    pub result: Option<String>,
    /// `RU` as written.
    pub rules: Option<String>,
}

/// A replayed SGF game.
#[derive(Clone, Debug)]
pub struct ImportedGame {
    pub game: Game,
    pub info: SgfInfo,
    /// Moves that were replayed (all of them unless a limit was given).
    pub moves_replayed: usize,
}

fn color_of(c: SgfColor) -> Color {
    match c {
        SgfColor::Black => Color::Black,
        SgfColor::White => Color::White,
    }
}

fn letter(c: Color) -> &'static str {
    c.letter()
}

/// Scoring and repetition rules named by an SGF `RU` value, if recognised:
/// `Japanese`/`Korean` → territory, `Chinese`/`AGA`/`NZ`/`Tromp-Taylor` → area
/// (both with positional superko, 000 §5.3), and this engine's own
/// `ko=…;scoring=…;capture_bonus=…` form as written by [`rules_to_ru`].
pub fn rules_from_ru(ru: &str, base: Rules) -> Option<Rules> {
    let t = ru.trim();
    let lower = t.to_ascii_lowercase();
    let mut r = base;
    if lower.contains('=') {
        let mut any = false;
        for part in lower.split(';') {
            let (k, v) = part.split_once('=')?;
            match (k.trim(), v.trim()) {
                ("ko", "immediate") => r.ko = KoRule::Immediate,
                ("ko", "superko") | ("ko", "positional_superko") => r.ko = KoRule::PositionalSuperko,
                ("ko", "korean") => r.ko = KoRule::Korean,
                ("scoring", "area") => r.scoring = ScoringMethod::Area,
                ("scoring", "territory") => r.scoring = ScoringMethod::Territory,
                ("scoring", "space") => r.scoring = ScoringMethod::Space,
                ("capture_bonus", "on") | ("capture_bonus", "1") => r.capture_bonus = true,
                ("capture_bonus", "off") | ("capture_bonus", "0") => r.capture_bonus = false,
                _ => return None,
            }
            any = true;
        }
        return any.then_some(r);
    }
    match lower.as_str() {
        "japanese" | "korean" | "jp" | "ko" => {
            r.scoring = ScoringMethod::Territory;
            r.ko = KoRule::PositionalSuperko;
            Some(r)
        }
        "chinese" | "aga" | "nz" | "new zealand" | "tromp-taylor" | "tromp taylor" | "cn" => {
            r.scoring = ScoringMethod::Area;
            r.ko = KoRule::PositionalSuperko;
            Some(r)
        }
        _ => None,
    }
}

/// This engine's `RU` text for a rule set (read back by [`rules_from_ru`]).
pub fn rules_to_ru(r: &Rules) -> String {
    let ko = match r.ko {
        KoRule::Immediate => "immediate",
        KoRule::PositionalSuperko => "superko",
        KoRule::Korean => "korean",
    };
    let scoring = match r.scoring {
        ScoringMethod::Area => "area",
        ScoringMethod::Territory => "territory",
        ScoringMethod::Space => "space",
    };
    let bonus = if r.capture_bonus { "on" } else { "off" };
    format!("ko={ko};scoring={scoring};capture_bonus={bonus}")
}

fn point_of(geom: &Geometry, p: SgfPoint) -> Option<Point> {
    geom.point_from_offsets(p.x as usize, p.y as usize, 0)
}

fn describe(geom: &Geometry, p: Point) -> String {
    let sgf = geom.offsets_of(p).map(|(x, y, _)| SgfPoint { x: x as u8, y: y as u8 }.to_sgf()).unwrap_or_default();
    match classic_vertex(geom, p) {
        Some(v) => format!("{v} ({sgf})"),
        None => sgf,
    }
}

/// Replays an [`SgfGame`] on a new engine game.
///
/// `base` supplies the rules the file does not state; `KM` sets komi (a
/// negative komi goes to Black) and `HA` the handicap. When the `AB` stones
/// are exactly the 000 §4 handicap points they become the rules' handicap,
/// otherwise they are setup stones. Moves are replayed by their recorded
/// colour (`play_explicit`), so the same colour twice or White first is
/// fine; two passes followed by more moves resume play. `limit` replays only
/// the first `limit` moves. Every refused move is an
/// [`SgfError::IllegalMove`] naming the 1-based move number.
pub fn game_from_sgf(g: &SgfGame, base: Rules, limit: Option<usize>) -> Result<ImportedGame, SgfError> {
    replay_sgf(g, base, limit, |_| {})
}

/// Like [`game_from_sgf`] (no limit), calling `each` with the position before the first
/// move and after every move: a viewer steps through the record from one replay.
pub fn game_from_sgf_stepwise(g: &SgfGame, base: Rules, each: impl FnMut(&Game)) -> Result<ImportedGame, SgfError> {
    replay_sgf(g, base, None, each)
}

fn replay_sgf(
    g: &SgfGame,
    base: Rules,
    limit: Option<usize>,
    mut each: impl FnMut(&Game),
) -> Result<ImportedGame, SgfError> {
    let geom = Geometry::flat(g.width as i64, g.height as i64).map_err(|e| SgfError::UnsupportedSize {
        width: g.width,
        height: g.height,
        reason: e.to_string(),
    })?;
    let mut rules = base;
    rules.handicap = 0;
    if let Some(k) = g.komi {
        let komi = Komi::from_f64(k.abs()).map_err(|_| SgfError::BadProperty {
            property: "KM".into(),
            value: k.to_string(),
            move_number: None,
        })?;
        rules.komi = komi;
        rules.komi_to = if k < 0.0 { Color::Black } else { Color::White };
    }
    let mut setup_black: Vec<Point> = Vec::new();
    let mut setup_white: Vec<Point> = Vec::new();
    for (src, dst) in [(&g.setup_black, &mut setup_black), (&g.setup_white, &mut setup_white)] {
        for &p in src {
            let q = point_of(&geom, p).ok_or_else(|| SgfError::BadProperty {
                property: "AB/AW".into(),
                value: p.to_sgf(),
                move_number: None,
            })?;
            dst.push(q);
        }
    }
    if g.handicap >= 2 {
        let n = u8::try_from(g.handicap).unwrap_or(u8::MAX);
        if let Ok(mut table) = handicap_points(&geom, n) {
            table.sort_unstable();
            let mut ab = setup_black.clone();
            ab.sort_unstable();
            // 000 §4 placement: stones given by AB exactly, or implied when AB is absent.
            if ab == table || ab.is_empty() {
                rules.handicap = n;
                setup_black.retain(|p| !table.contains(p));
            }
        }
    }
    let mut game = Game::new(geom, rules).map_err(|e| SgfError::BadProperty {
        property: "HA".into(),
        value: format!("{} ({e})", g.handicap),
        move_number: None,
    })?;
    let mut changes: Vec<(Point, Option<Color>)> = Vec::new();
    changes.extend(setup_black.iter().map(|&p| (p, Some(Color::Black))));
    changes.extend(setup_white.iter().map(|&p| (p, Some(Color::White))));
    if !changes.is_empty() {
        if let Err(e) = game.set_stones(&changes) {
            // Name the first stone whose addition fails: stones are only added,
            // so a chain left without liberties stays so (no prefix passes after a failure).
            let mut culprit = changes[0];
            for i in 1..=changes.len() {
                let mut probe = game.clone();
                if probe.set_stones(&changes[..i]).is_err() {
                    culprit = changes[i - 1];
                    break;
                }
            }
            let (p, c) = culprit;
            return Err(SgfError::BadSetup {
                color: c.map(letter).unwrap_or("-"),
                coord: describe(game.geometry(), p),
                reason: e.to_string(),
            });
        }
    }
    let first = g.player_to_move.or_else(|| g.moves.first().map(|m| m.color)).map(color_of);
    if let Some(c) = first {
        if c != game.to_move() {
            game.set_first_to_move(c).map_err(|e| SgfError::BadSetup {
                color: letter(c),
                coord: String::new(),
                reason: e.to_string(),
            })?;
        }
    }
    let n = limit.map_or(g.moves.len(), |l| l.min(g.moves.len()));
    each(&game);
    for (i, m) in g.moves[..n].iter().enumerate() {
        play_recorded(&mut game, i + 1, m)?;
        each(&game);
    }
    Ok(ImportedGame {
        game,
        info: SgfInfo {
            black_player: g.black_player.clone(),
            white_player: g.white_player.clone(),
            date: g.date.clone(),
            result: g.result.clone(),
            rules: g.rules.clone(),
        },
        moves_replayed: n,
    })
}

fn play_recorded(game: &mut Game, move_number: usize, m: &SgfMove) -> Result<(), SgfError> {
    let c = color_of(m.color);
    let mv = match m.point {
        None => Move::Pass,
        Some(p) => match point_of(game.geometry(), p) {
            Some(q) => Move::Place(q),
            None => return Err(SgfError::OffBoard { move_number, coord: p.to_sgf() }),
        },
    };
    if game.phase() == Phase::Scoring {
        // Play continued after two passes: resume with `c` to move (000 §5.5).
        let _ = game.resume(c.opponent());
    }
    match game.play_explicit(c, mv) {
        Ok(_) => Ok(()),
        Err(e) => Err(illegal(game, move_number, c, mv, &e)),
    }
}

fn illegal(game: &Game, move_number: usize, c: Color, mv: Move, e: &IllegalMove) -> SgfError {
    let coord = match mv {
        Move::Pass => "pass".to_string(),
        Move::Place(p) => describe(game.geometry(), p),
    };
    SgfError::IllegalMove { move_number, color: letter(c), coord, reason: e.reason_word().to_string() }
}

/// Reads SGF text and replays it (see [`game_from_sgf`]).
pub fn import_sgf(text: &str, base: Rules, limit: Option<usize>) -> Result<ImportedGame, SgfError> {
    let g = parse_sgf(text)?;
    game_from_sgf(&g, base, limit)
}

/// Describes an engine game (depth 1 only) as an [`SgfGame`]: size, komi
/// (negative when it goes to Black), handicap, setup stones, rules, the
/// counted moves in order (undone moves are left out) and the result.
pub fn sgf_from_game(game: &Game, info: &SgfInfo) -> Result<SgfGame, SgfError> {
    let geom = game.geometry();
    if !geom.is_flat() {
        return Err(SgfError::Unexportable(format!(
            "SGF holds flat boards only; this board is {}x{}x{}",
            geom.width(),
            geom.height(),
            geom.depth()
        )));
    }
    let to_sgf = |p: Point| -> Result<SgfPoint, SgfError> {
        let (x, y, _) =
            geom.offsets_of(p).ok_or_else(|| SgfError::Unexportable(format!("point {p} is off the board")))?;
        Ok(SgfPoint { x: x as u8, y: y as u8 })
    };
    let rules = game.rules();
    let mut setup_black = Vec::new();
    let mut setup_white = Vec::new();
    for &(p, c) in game.setup_stones() {
        match c {
            Color::Black => setup_black.push(to_sgf(p)?),
            Color::White => setup_white.push(to_sgf(p)?),
        }
    }
    setup_black.sort();
    setup_white.sort();
    let mut moves = Vec::new();
    for (c, mv) in game.moves() {
        let color = match c {
            Color::Black => SgfColor::Black,
            Color::White => SgfColor::White,
        };
        let point = match mv {
            Move::Pass => None,
            Move::Place(p) => Some(to_sgf(p)?),
        };
        moves.push(SgfMove { color, point });
    }
    let komi = rules.komi.points();
    let komi = if rules.komi_to == Color::Black { -komi } else { komi };
    let implied_first = moves.first().map(|m| m.color).unwrap_or(SgfColor::Black);
    let first = match game.first_to_move() {
        Color::Black => SgfColor::Black,
        Color::White => SgfColor::White,
    };
    Ok(SgfGame {
        width: geom.width() as u8,
        height: geom.height() as u8,
        komi: Some(komi),
        handicap: rules.handicap as u32,
        setup_black,
        setup_white,
        player_to_move: (first != implied_first || (moves.is_empty() && first != SgfColor::Black)).then_some(first),
        moves,
        result: game.result().map(|r| r.sgf()).or_else(|| info.result.clone()),
        black_player: info.black_player.clone(),
        white_player: info.white_player.clone(),
        date: info.date.clone(),
        rules: Some(rules_to_ru(rules)),
        game_comment: None,
    })
}

/// SGF text of an engine game (see [`sgf_from_game`]).
pub fn export_sgf(game: &Game, info: &SgfInfo) -> Result<String, SgfError> {
    Ok(write_sgf(&sgf_from_game(game, info)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classic() -> Rules {
        Rules::classic()
    }

    #[test]
    fn replays_by_recorded_colour_and_round_trips() {
        let text = "(;FF[4]GM[1]SZ[9]KM[6.5]PB[Kim]PW[Lee]DT[2026-11-30]RE[W+R]\
                    ;W[ee];W[cc];B[gg];B[];W[];B[cg];W[dd])";
        let imp = import_sgf(text, classic(), None).unwrap();
        let g = &imp.game;
        assert_eq!(imp.moves_replayed, 7);
        assert_eq!(g.first_to_move(), Color::White);
        assert_eq!(g.move_number(), 7);
        assert_eq!(g.rules().komi.half_points(), 13);
        assert_eq!(imp.info.black_player.as_deref(), Some("Kim"));
        let geom = g.geometry();
        let at = |v: &str| crate::labels::parse_classic_vertex(geom, v).unwrap();
        assert_eq!(g.stone_at(at("E5")), Some(Color::White));
        assert_eq!(g.stone_at(at("C7")), Some(Color::White));
        assert_eq!(g.stone_at(at("G3")), Some(Color::Black));
        let out = export_sgf(g, &imp.info).unwrap();
        let back = import_sgf(&out, classic(), None).unwrap();
        assert_eq!(back.game.moves(), g.moves());
        assert_eq!(back.game.board(), g.board());
        assert_eq!(back.game.rules(), g.rules());
        assert!(out.contains("PB[Kim]") && out.contains("RE[W+R]") && out.contains("DT[2026-11-30]"));
    }

    #[test]
    fn recording_errors_name_the_move() {
        let e = import_sgf("(;SZ[9];B[ee];W[cc];B[ee])", classic(), None).unwrap_err();
        assert_eq!(e.move_number(), Some(3));
        assert!(
            matches!(&e, SgfError::IllegalMove { reason, color: "B", coord, .. }
            if reason == "occupied" && coord == "E5 (ee)"),
            "{e:?}"
        );
        assert!(e.to_string().contains("move 3"), "{e}");
        // Suicide in the corner.
        let e = import_sgf("(;SZ[9];B[ba];W[];B[ab];W[aa])", classic(), None).unwrap_err();
        assert!(matches!(&e, SgfError::IllegalMove { move_number: 4, reason, .. } if reason == "suicide"), "{e:?}");
    }

    #[test]
    fn stepwise_sees_every_position_the_limits_make() {
        let text = "(;SZ[9]AB[aa];B[ee];W[cc];B[];W[gg])";
        let g = parse_sgf(text).unwrap();
        let mut seen = Vec::new();
        let full = game_from_sgf_stepwise(&g, classic(), |game| seen.push(game.clone())).unwrap();
        assert_eq!(seen.len(), 5);
        for (n, game) in seen.iter().enumerate() {
            let prefix = import_sgf(text, classic(), Some(n)).unwrap().game;
            assert_eq!(game.move_number(), prefix.move_number(), "after {n} moves");
            assert_eq!(game.board().hash(), prefix.board().hash(), "after {n} moves");
        }
        assert_eq!(seen.last().unwrap().board().hash(), full.game.board().hash());
    }

    #[test]
    fn limit_replays_a_prefix() {
        let imp = import_sgf("(;SZ[9];B[ee];W[cc];B[gg])", classic(), Some(2)).unwrap();
        assert_eq!(imp.game.move_number(), 2);
        assert_eq!(imp.moves_replayed, 2);
    }

    #[test]
    fn sizes_komi_and_handicap() {
        let e = import_sgf("(;SZ[18];B[aa])", classic(), None).unwrap_err();
        assert!(matches!(e, SgfError::UnsupportedSize { width: 18, height: 18, .. }), "{e:?}");
        let imp = import_sgf("(;SZ[19:13]KM[-3.5];B[sm])", classic(), None).unwrap();
        assert_eq!(imp.game.geometry().dims(), (19, 13, 1));
        assert_eq!(imp.game.rules().komi_to, Color::Black);
        assert_eq!(imp.game.rules().komi.half_points(), 7);
        let out = export_sgf(&imp.game, &SgfInfo::default()).unwrap();
        assert!(out.contains("SZ[19:13]") && out.contains("KM[-3.5]"), "{out}");
        assert!(import_sgf("(;SZ[9]KM[6.25])", classic(), None).is_err());

        // 000 §4: AB on the table points become the rules' handicap; White moves first.
        let imp = import_sgf("(;SZ[19]HA[2]AB[pd][dp];W[qp])", classic(), None).unwrap();
        assert_eq!(imp.game.rules().handicap, 2);
        assert_eq!(imp.game.setup_stones().len(), 2);
        let out = export_sgf(&imp.game, &SgfInfo::default()).unwrap();
        assert!(out.contains("HA[2]") && out.contains("AB[dp][pd]"), "{out}");
        let back = import_sgf(&out, classic(), None).unwrap();
        assert_eq!(back.game.board(), imp.game.board());
        // Other AB positions stay setup stones.
        let imp = import_sgf("(;SZ[19]HA[2]AB[aa][ss];W[qp])", classic(), None).unwrap();
        assert_eq!(imp.game.rules().handicap, 0);
        assert_eq!(imp.game.setup_stones().len(), 2);
        // A setup stone without liberties is refused.
        let e = import_sgf("(;SZ[9]AB[aa]AW[ab][ba])", classic(), None).unwrap_err();
        assert!(matches!(&e, SgfError::BadSetup { color: "W", coord, .. } if coord == "B9 (ba)"), "{e:?}");
    }

    #[test]
    fn play_resumes_after_two_passes() {
        let imp = import_sgf("(;SZ[9];B[ee];W[];B[];W[cc])", classic(), None).unwrap();
        assert_eq!(imp.game.phase(), Phase::Playing);
        assert_eq!(imp.game.move_number(), 4);
    }

    #[test]
    fn rules_text() {
        let base = Rules::space();
        for r in [Rules::classic(), Rules::classic_area(), Rules::space()] {
            let mut r = r;
            r.capture_bonus = true;
            let back = rules_from_ru(&rules_to_ru(&r), base).unwrap();
            assert_eq!((back.ko, back.scoring, back.capture_bonus), (r.ko, r.scoring, r.capture_bonus));
        }
        assert_eq!(rules_from_ru("Japanese", base).unwrap().scoring, ScoringMethod::Territory);
        assert_eq!(rules_from_ru("Chinese", base).unwrap().scoring, ScoringMethod::Area);
        assert!(rules_from_ru("ko=sometimes", base).is_none());
        assert!(rules_from_ru("Ing", base).is_none());
    }

    #[test]
    fn deep_boards_do_not_export() {
        let g = Game::new(Geometry::cube(3).unwrap(), Rules::space()).unwrap();
        assert!(matches!(export_sgf(&g, &SgfInfo::default()), Err(SgfError::Unexportable(_))));
    }
}
