//! The archive of finished games: the games whose stored record the viewer may read
//! (003 §8.1) — their own, those both players approved them to read, and for an
//! administrator every one — with result, date, board and rules, filtered by preset, board
//! size, outcome, a player's name and dates.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use super::RoomSummary;
use crate::AppError;
use wire::settings::Preset;

/// How a game ended for the viewer, as the archive filters it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArchiveOutcome {
    Won,
    Lost,
    Drawn,
    Void,
}

/// Which finished games to show; every field may be left out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArchiveFilter {
    pub preset: Option<Preset>,
    /// Lines along x (a Classic board's size, a cube's side).
    pub size: Option<u16>,
    pub outcome: Option<ArchiveOutcome>,
    /// Part of either player's name, any case.
    #[serde(default)]
    pub player: String,
    /// Ended at or after this time (ms).
    pub from_ms: Option<i64>,
    /// Ended before this time (ms).
    pub to_ms: Option<i64>,
}

/// The most games one search reads; the archive shows the newest of them.
pub const ARCHIVE_SCAN: u32 = 2_000;
/// The most games one answer lists.
pub const ARCHIVE_LIMIT: usize = 200;

impl ArchiveFilter {
    /// Whether `r` passes, seen by `username`.
    pub fn admits(&self, r: &RoomSummary, username: &str) -> bool {
        use super::profiles::{outcome, Outcome};
        if self.preset.is_some_and(|p| p != r.preset) {
            return false;
        }
        if let Some(n) = self.size {
            if !r.board.starts_with(&format!("{n}x")) {
                return false;
            }
        }
        let ended = r.ended_at_ms.unwrap_or(r.created_at_ms);
        if self.from_ms.is_some_and(|f| ended < f) || self.to_ms.is_some_and(|t| ended >= t) {
            return false;
        }
        let Some(listing) = &r.listing else { return self.outcome.is_none() && self.player.trim().is_empty() };
        let wanted = self.player.trim().to_lowercase();
        if !wanted.is_empty() {
            use wire::listing::SeatLabel;
            let named = listing.seats.iter().flatten().any(|s| match s {
                SeatLabel::Person { username } => username.to_lowercase().contains(&wanted),
                SeatLabel::Guest { name } => name.to_lowercase().contains(&wanted),
                SeatLabel::Computer => false,
            });
            if !named {
                return false;
            }
        }
        match self.outcome {
            None => true,
            Some(want) => {
                let got = outcome(listing, r.mode, username);
                matches!(
                    (want, got),
                    (ArchiveOutcome::Won, Outcome::Won)
                        | (ArchiveOutcome::Lost, Outcome::Lost)
                        | (ArchiveOutcome::Drawn, Outcome::Drawn)
                        | (ArchiveOutcome::Void, Outcome::Void)
                )
            }
        }
    }
}

/// The finished games the signed-in viewer may read, newest first, filtered.
#[server(endpoint = "archive", input = server_fn::codec::Json)]
pub async fn archive(filter: ArchiveFilter) -> Result<Vec<RoomSummary>, AppError> {
    let db = super::db()?;
    let user =
        crate::data::sessions::current(&db, &super::auth::session().await?).await?.ok_or(AppError::NotSignedIn)?;
    if filter.player.chars().count() > 40 {
        let got = filter.player.chars().count() as u64;
        return Err(AppError::input("player", crate::error::InputProblem::Length { min: 0, max: 40, got }));
    }
    if let Some(n) = filter.size {
        if !(1..=25).contains(&n) {
            return Err(AppError::input("size", crate::error::InputProblem::Range { min: 1, max: 25, got: n.into() }));
        }
    }
    let rooms = if user.role == crate::Role::Admin {
        let rows = db.finished_rooms(ARCHIVE_SCAN).await?;
        rows.into_iter()
            .map(RoomSummary::try_from)
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .map(RoomSummary::redacted)
            .collect()
    } else {
        super::rooms::readable_games(&db, user.id, ARCHIVE_SCAN).await?
    };
    Ok(rooms.into_iter().filter(|r| filter.admits(r, &user.username)).take(ARCHIVE_LIMIT).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::profiles::tests::finished;
    use engine::{Color, GameResult};
    use wire::{listing::SeatLabel, mode::ModeTag};

    fn game(preset: Preset, board: &str, ended: i64, white: &str, result: GameResult) -> RoomSummary {
        let mut r = finished(1, preset, ModeTag::Match, "ann", SeatLabel::Person { username: white.into() }, result);
        r.board = board.into();
        r.ended_at_ms = Some(ended);
        r
    }

    #[test]
    fn the_filter_keeps_what_each_field_asks_for() {
        let won = game(Preset::Classic, "19x19x1", 5_000, "Bob", GameResult::Resign { winner: Color::Black });
        let lost = game(Preset::Space, "9x9x9", 9_000, "carol", GameResult::Resign { winner: Color::White });
        let all = ArchiveFilter::default();
        assert!(all.admits(&won, "ann") && all.admits(&lost, "ann"));
        let f = |f: ArchiveFilter| [won.clone(), lost.clone()].into_iter().filter(|r| f.admits(r, "ann")).count();
        assert_eq!(f(ArchiveFilter { preset: Some(Preset::Space), ..Default::default() }), 1);
        assert_eq!(f(ArchiveFilter { size: Some(19), ..Default::default() }), 1);
        assert_eq!(f(ArchiveFilter { size: Some(1), ..Default::default() }), 0, "19x… is not size 1");
        assert_eq!(f(ArchiveFilter { outcome: Some(ArchiveOutcome::Won), ..Default::default() }), 1);
        assert!(ArchiveFilter { outcome: Some(ArchiveOutcome::Lost), ..Default::default() }.admits(&lost, "ann"));
        assert_eq!(f(ArchiveFilter { player: " BOB ".into(), ..Default::default() }), 1);
        assert_eq!(f(ArchiveFilter { from_ms: Some(6_000), ..Default::default() }), 1);
        assert_eq!(f(ArchiveFilter { to_ms: Some(5_000), ..Default::default() }), 0, "the end is exclusive");
    }
}
