//! Space Baduk rules engine: 3D and classic baduk, exact and fast.
//! Pure Rust, no I/O; builds for native targets and `wasm32-unknown-unknown`.
//!
//! The specification is the Space rules text (003, primary) and the classic
//! baduk design card (000, the Classic preset); clause numbers are cited
//! throughout as `003 §2.3`, `000 §6.4`.
//!
//! * [`geometry`] — validated boxes ([`BoxSpec`] raw → [`Geometry`] checked),
//!   dense [`Point`] indices, six-direction neighbours.
//! * `zobrist` (private) — the fixed hash keys, computed per (point, colour).
//! * [`labels`] — label sets, `x,y,z` parsing, classic notation, star points,
//!   the 000 §4 handicap table.
//! * [`board`] — the fast board (incremental chains, liberties, Zobrist hash).
//! * [`rules`] — independent rule settings and the `Space` / `Classic` presets.
//! * [`game`] — checked play, typed [`IllegalMove`] reasons (`errors`), undo with
//!   the 003 §5.3 restriction, the repetition journal (`history`), phases; with the two
//!   parts that need a whole game and that it needs in turn: [`scoring`] (territory, area
//!   and Space formula score statements) and [`record`] (versioned JSON game records with
//!   deterministic replay), re-exported here as `engine::scoring` and `engine::record`.
//! * [`analysis`] — chains, empty components, life-space / dead / seki candidates.
//! * [`result`] — [`GameResult`], one variant per way a game ends; no sentences.
//! * [`sgf`] — SGF import and export for flat boards.
//! * [`gtp`] — GTP version 2 and the 3D `space_*` extension (binary `space-baduk-gtp`).
//! * [`playout`] — the standard random-playout workload used by benchmarks.
//! * [`computer`] — the basic computer opponent (003 §11.4) and its learning (003 §12).
//! * `fuzz_entry` (hidden) — entry points of the cargo-fuzz targets and no-panic tests.
//!
//! ```
//! use engine::{Color, Game, Geometry, Move, Rules};
//! let g = Geometry::flat(9, 9).unwrap();
//! let mut game = Game::new(g, Rules::classic()).unwrap();
//! let p = game.geometry().index_of(5, 5, 1).unwrap();
//! game.play(Color::Black, Move::Place(p)).unwrap();
//! assert_eq!(game.stone_at(p), Some(Color::Black));
//! assert_eq!(game.to_move(), Color::White);
//! ```

pub mod analysis;
pub mod board;
pub mod computer;
pub mod game;
pub mod geometry;
pub mod labels;
pub mod playout;
pub mod result;
pub mod rules;
mod zobrist;

pub use analysis::{
    dead_stone_candidates, seki_candidates, Analysis, ChainInfo, ChainSpaces, DeadCandidate, DeadReason,
    EmptyComponent, LifeSpace, SekiCandidate,
};
pub use board::{Board, Color};
pub use game::{record, scoring};
pub use game::{
    AtariChain, Game, IllegalKind, IllegalMove, Move, Phase, PhaseError, PlayOutcome, RepetitionKind, SetupError,
    UndoError, UndoOutcome,
};
pub use geometry::{Axis, AxisName, BoxSpec, Coord, Geometry, GeometryError, Point, MAX_POINTS};
pub use labels::{
    classic_vertex, format_numeric_xyz, handicap_points, parse_classic_vertex, parse_numeric_xyz, star_points,
    CoordError, HandicapError, LabelError, LabelKind, LabelSet,
};
pub use record::{replay_json, Action, GameRecord, MarksRecord, RecordError, SetupStone, RECORD_VERSION};
pub use result::GameResult;
pub use rules::{KoRule, Komi, KomiError, Rules, ScoringMethod};
pub use scoring::{
    score, score_board, score_simple, score_simple_area, score_with, HalfPoints, NeutralCounts, PointClass,
    ScoreStatement, ScoringError, ScoringMarks, SideScore,
};

// SGF, GTP and fuzzing entry points (see README "SGF", "GTP").
#[doc(hidden)]
pub mod fuzz_entry;
pub mod gtp;
pub mod sgf;
