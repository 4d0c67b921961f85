//! Program matches (003 §12.4): strength is judged by repeated games between two programs —
//! two models, or one model at two levels — with colours swapped every game and the box,
//! time, komi and bonus identical. Each game is an ordinary room (mode `program_game`): the
//! same validation, events, record and review as any match. These are the wire types; the
//! series runs on the server (`program_runs`).

use serde::{Deserialize, Serialize};

use crate::{commands::RoomPhase, events::Colour, mode::ModelPin, settings::MatchSettings};

/// A series has an even number of games, so that each side plays Black as often as White.
pub const SERIES_GAMES: std::ops::RangeInclusive<u32> = 2..=100;

/// One side of a program match as asked for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Contestant {
    /// The stored model; absent: the built-in one.
    #[serde(default)]
    pub model_id: Option<i64>,
    /// 1: the evaluator alone; 2: the search.
    pub level: u8,
    /// Time per move (ms, 100..=10000).
    pub move_ms: u32,
}

/// What the administrator starts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ProgramMatchRequest {
    pub a: Contestant,
    pub b: Contestant,
    /// Games, even, 2..=100: A takes Black in the odd games, B in the even ones.
    pub games: u32,
    /// The settings every game shares (box, time, komi, bonus…); their `mode` is replaced by
    /// each game's, and `review` is always `required`: a person reviews each count (003
    /// §12.4), so a game waits in `awaiting_review` until the administrator confirms it.
    pub settings: MatchSettings,
}

/// One side as pinned when the series started (003 §12.5: a series never switches model).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PinnedContestant {
    pub model: ModelPin,
    pub level: u8,
    pub move_ms: u32,
}

/// Which side of the series.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Side {
    A,
    B,
}

impl Side {
    /// The side that plays Black in game `game` (1-based): A in the odd games.
    pub fn black_in(game: u32) -> Side {
        if game % 2 == 1 {
            Side::A
        } else {
            Side::B
        }
    }
}

/// One game of the series, as it stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SeriesGame {
    /// 1-based.
    pub game: u32,
    pub room_id: i64,
    /// The colour side A plays in this game.
    pub a_colour: Colour,
    pub phase: RoomPhase,
    pub result: Option<engine::GameResult>,
    /// The side that won, once finished with a winner.
    pub winner: Option<Side>,
    /// Whether the dead stones were agreed automatically (always, for a program game that
    /// was counted; the administrator's review then confirms or corrects them).
    pub marks_auto_agreed: bool,
    pub moves: u32,
}

/// A program match and its tally.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ProgramMatch {
    pub id: i64,
    pub created_at_ms: i64,
    pub a: PinnedContestant,
    pub b: PinnedContestant,
    pub games_planned: u32,
    pub settings: MatchSettings,
    /// The games created so far, in order; they run one at a time.
    pub games: Vec<SeriesGame>,
    pub wins_a: u32,
    pub wins_b: u32,
    /// Finished without a winner (jigo, a draw, a void).
    pub no_winner: u32,
    /// Every planned game finished.
    pub finished: bool,
}

impl ProgramMatch {
    /// Counts the finished games' winners.
    pub fn tally(&mut self) {
        let finished = self.games.iter().filter(|g| g.phase == RoomPhase::Finished);
        let (mut a, mut b, mut none) = (0, 0, 0);
        for g in finished {
            match g.winner {
                Some(Side::A) => a += 1,
                Some(Side::B) => b += 1,
                None => none += 1,
            }
        }
        (self.wins_a, self.wins_b, self.no_winner) = (a, b, none);
        self.finished = a + b + none == self.games_planned;
    }
}
