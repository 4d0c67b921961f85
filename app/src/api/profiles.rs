//! Players' profiles: games played, won, lost and drawn per preset, each kind of game apart
//! (matches, one device, practice, against the computer), the recent games and those under
//! way; the sanctions only for the player themself and administrators (003 §6.5).

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use super::RoomSummary;
use crate::AppError;
use wire::{conduct::SanctionEntry, mode::ModeTag, settings::Preset};

/// One preset and kind of game: how many were played and how they ended for this player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameCounts {
    pub preset: Preset,
    pub mode: ModeTag,
    pub played: u32,
    pub won: u32,
    pub lost: u32,
    /// Jigo, a draw by agreement or by repetition.
    pub drawn: u32,
    /// Void by sanction (003 §6.5): it counts for neither player.
    pub void: u32,
    /// Ended without a winner for this player otherwise: an administrator's decision without
    /// one, or a game on one device (both colours on one account).
    pub other: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    pub username: String,
    /// Matches between people first, then the other kinds; Space before Classic.
    pub counts: Vec<GameCounts>,
    /// The most recently finished games.
    pub recent: Vec<RoomSummary>,
    pub in_play: Vec<RoomSummary>,
    /// Only for the player themself and administrators; `None` for anyone else.
    pub sanctions: Option<Vec<SanctionEntry>>,
}

/// How a finished game ended for the account named `username`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Won,
    Lost,
    Drawn,
    Void,
    Other,
}

/// `username`'s outcome in a finished room (its listing).
pub fn outcome(listing: &wire::listing::Listing, mode: ModeTag, username: &str) -> Outcome {
    use engine::GameResult as R;
    use wire::listing::SeatLabel;
    let Some(result) = &listing.result else { return Outcome::Other };
    if *result == R::Void {
        return Outcome::Void;
    }
    // Both colours on one account: nobody's win.
    if matches!(mode, ModeTag::OneDevice | ModeTag::Practice) {
        return Outcome::Other;
    }
    let mine = |c| matches!(listing.player(c), Some(SeatLabel::Person { username: u }) if u == username);
    let colour = [engine::Color::Black, engine::Color::White].into_iter().find(|c| mine(*c));
    match (colour, result) {
        (None, _) => Outcome::Other,
        (_, R::Jigo { .. } | R::DrawAgreed | R::Repetition) => Outcome::Drawn,
        (Some(c), r) => match r.winner() {
            Some(w) if w == c => Outcome::Won,
            Some(_) => Outcome::Lost,
            None => Outcome::Other,
        },
    }
}

/// The counts over finished rooms, one row per preset and kind that occurs.
pub fn count(rooms: &[RoomSummary], username: &str) -> Vec<GameCounts> {
    let order = |m: ModeTag| match m {
        ModeTag::Match => 0,
        ModeTag::VsComputer => 1,
        ModeTag::OneDevice => 2,
        ModeTag::Practice => 3,
        ModeTag::ProgramMatch => 4,
    };
    let mut out: Vec<GameCounts> = Vec::new();
    for r in rooms {
        let Some(listing) = &r.listing else { continue };
        let i = match out.iter().position(|c| c.preset == r.preset && c.mode == r.mode) {
            Some(i) => i,
            None => {
                let zero = GameCounts {
                    preset: r.preset,
                    mode: r.mode,
                    played: 0,
                    won: 0,
                    lost: 0,
                    drawn: 0,
                    void: 0,
                    other: 0,
                };
                out.push(zero);
                out.len() - 1
            }
        };
        let c = &mut out[i];
        c.played += 1;
        match outcome(listing, r.mode, username) {
            Outcome::Won => c.won += 1,
            Outcome::Lost => c.lost += 1,
            Outcome::Drawn => c.drawn += 1,
            Outcome::Void => c.void += 1,
            Outcome::Other => c.other += 1,
        }
    }
    out.sort_by_key(|c| (order(c.mode), c.preset != Preset::Space));
    out
}

/// A player's profile; anyone may read it (the sanctions excepted).
#[server(endpoint = "player_profile")]
pub async fn player_profile(username: String) -> Result<Profile, AppError> {
    let db = super::db()?;
    let user = db
        .user_by_name(username.trim())
        .await?
        .ok_or_else(|| AppError::NoPlayer { username: username.trim().chars().take(40).collect() })?;
    let viewer = crate::data::sessions::current(&db, &super::auth::session().await?).await?;
    let summaries = |rows: Vec<crate::data::RoomRow>| {
        rows.into_iter().map(RoomSummary::try_from).collect::<Result<Vec<_>, AppError>>()
    };
    let finished = super::rooms::finished_games(&db, user.id, 10_000).await?;
    let counts = count(&finished, &user.username);
    let recent = finished.into_iter().take(20).collect();
    let in_play = summaries(db.rooms_of(user.id).await?)?.into_iter().map(RoomSummary::redacted).collect();
    let may_see_sanctions = viewer.is_some_and(|v| v.id == user.id || v.role == crate::Role::Admin);
    let sanctions = match may_see_sanctions {
        true => Some(super::play::service()?.sanctions_of(user.id).await?),
        false => None,
    };
    Ok(Profile { username: user.username, counts, recent, in_play, sanctions })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use engine::{Color, GameResult};
    use wire::{
        commands::RoomPhase,
        events::Seat,
        listing::{Listing, SeatLabel},
        settings::{RoomAccess, TimeControl},
    };

    /// A finished 9×9 room, `black` (an account) in the first seat against `white`.
    pub(crate) fn finished(
        id: i64,
        preset: Preset,
        mode: ModeTag,
        black: &str,
        white: SeatLabel,
        result: GameResult,
    ) -> RoomSummary {
        let listing = Listing {
            access: RoomAccess::Invitation,
            phase: RoomPhase::Finished,
            seats: [Some(SeatLabel::Person { username: black.into() }), Some(white)],
            black: Some(Seat::First),
            move_number: 10,
            to_move: None,
            time: TimeControl::Fischer { main_s: 60, increment_s: 0 },
            komi_half_points: 13,
            komi_to: Color::White,
            handicap: 0,
            scoring: engine::ScoringMethod::Territory,
            ko: engine::KoRule::PositionalSuperko,
            waiting_on: Vec::new(),
            players: Vec::new(),
            readers: Vec::new(),
            result: Some(result),
            under_review: false,
        };
        RoomSummary {
            id,
            name: format!("r{id}"),
            preset,
            board: "9x9x1".into(),
            status: RoomPhase::Finished,
            mode,
            created_at_ms: 0,
            ended_at_ms: Some(0),
            creator: black.into(),
            listing: Some(listing),
        }
    }

    #[test]
    fn counts_follow_the_players_colour_and_keep_kinds_and_presets_apart() {
        let person = |n: &str| SeatLabel::Person { username: n.into() };
        let rooms = [
            finished(
                1,
                Preset::Classic,
                ModeTag::Match,
                "ann",
                person("bo"),
                GameResult::Resign { winner: Color::Black },
            ),
            finished(
                2,
                Preset::Classic,
                ModeTag::Match,
                "bo",
                person("ann"),
                GameResult::Resign { winner: Color::Black },
            ),
            finished(3, Preset::Classic, ModeTag::Match, "ann", person("bo"), GameResult::DrawAgreed),
            finished(4, Preset::Classic, ModeTag::Match, "ann", person("bo"), GameResult::Void),
            finished(5, Preset::Classic, ModeTag::Match, "ann", person("bo"), GameResult::Decision { winner: None }),
            finished(
                6,
                Preset::Space,
                ModeTag::VsComputer,
                "ann",
                SeatLabel::Computer,
                GameResult::Time { winner: Color::White },
            ),
            finished(
                7,
                Preset::Space,
                ModeTag::OneDevice,
                "ann",
                SeatLabel::Guest { name: "kid".into() },
                GameResult::Resign { winner: Color::Black },
            ),
        ];
        let c = count(&rooms, "ann");
        let row = |p, m| c.iter().find(|r| r.preset == p && r.mode == m).cloned().unwrap();
        let classic = row(Preset::Classic, ModeTag::Match);
        assert_eq!(
            (classic.played, classic.won, classic.lost, classic.drawn, classic.void, classic.other),
            (5, 1, 1, 1, 1, 1)
        );
        let computer = row(Preset::Space, ModeTag::VsComputer);
        assert_eq!((computer.played, computer.lost), (1, 1));
        let device = row(Preset::Space, ModeTag::OneDevice);
        assert_eq!((device.played, device.won, device.other), (1, 0, 1), "both colours on one account: no win");
        assert_eq!(c[0].mode, ModeTag::Match, "matches between people first");
        // The other player's view of the same games.
        let bo = row_of(&count(&rooms, "bo"), Preset::Classic, ModeTag::Match);
        assert_eq!((bo.won, bo.lost), (1, 1));
    }

    fn row_of(c: &[GameCounts], p: Preset, m: ModeTag) -> GameCounts {
        c.iter().find(|r| r.preset == p && r.mode == m).cloned().unwrap()
    }
}
