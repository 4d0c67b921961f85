//! Running program matches (003 §12.4) on the server: one game at a time (so that both
//! programs think on an otherwise equal machine), each an ordinary room whose seats are
//! both held by the computer. A series survives a restart: it is resumed at boot where its
//! games stand.

use tokio::sync::broadcast::error::RecvError;

use super::programs::{
    Contestant, PinnedContestant, ProgramMatch, ProgramMatchRequest, SeriesGame, Side, SERIES_GAMES,
};
use crate::{
    data::programs::{SeriesPlan, SeriesRow},
    error::InputProblem,
    matches::service::MatchService,
    AppError, Role,
};
use room::{MatchError, Requester};
use wire::{
    commands::RoomPhase,
    events::{Colour, Event},
    mode::{ComputerSeat, ModelPin, RoomMode},
};

impl MatchService {
    /// Starts a program match (administrators only): the models are pinned now, the games
    /// are created one after another, A Black in the odd games.
    pub async fn start_program_match(
        &self,
        who: &Requester,
        req: ProgramMatchRequest,
    ) -> Result<ProgramMatch, AppError> {
        if !who.is_admin() {
            return Err(MatchError::AdminOnly.into());
        }
        if !SERIES_GAMES.contains(&req.games) || !req.games.is_multiple_of(2) {
            let (min, max) = (u64::from(*SERIES_GAMES.start()), u64::from(*SERIES_GAMES.end()));
            return Err(AppError::input("games", InputProblem::EvenRange { min, max, got: u64::from(req.games) }));
        }
        let plan = SeriesPlan {
            a: self.pin(&req.a).await?,
            b: self.pin(&req.b).await?,
            games: req.games,
            settings: req.settings,
        };
        // The shared settings, checked as the first game will be (box, time, komi, levels…).
        game_settings(&plan, 0, 1).validate().map_err(|e| AppError::invalid("settings", e.to_string()))?;
        let id = self.db().insert_series(&plan, self.clock().now_ms(), who.user_id).await?;
        self.spawn_series(id);
        self.program_match(who, id).await
    }

    /// Every program match, newest first, with its tally (administrators only).
    pub async fn program_matches(&self, who: &Requester) -> Result<Vec<ProgramMatch>, AppError> {
        if !who.is_admin() {
            return Err(MatchError::AdminOnly.into());
        }
        let mut out = Vec::new();
        for row in self.db().series_list().await? {
            out.push(self.report(row).await?);
        }
        Ok(out)
    }

    /// One program match with its games and tally (administrators only).
    pub async fn program_match(&self, who: &Requester, id: i64) -> Result<ProgramMatch, AppError> {
        if !who.is_admin() {
            return Err(MatchError::AdminOnly.into());
        }
        let row = self.db().series(id).await?.ok_or(AppError::NoProgramMatch { id })?;
        self.report(row).await
    }

    /// At start: every unfinished series goes on where it stands.
    pub async fn resume_program_matches(&self) -> Result<usize, AppError> {
        let ids = self.db().unfinished_series().await?;
        for id in &ids {
            self.spawn_series(*id);
        }
        Ok(ids.len())
    }

    async fn pin(&self, c: &Contestant) -> Result<PinnedContestant, AppError> {
        let model = match c.model_id {
            None => self.db().builtin_model(self.clock().now_ms()).await?,
            Some(id) => self.db().model(id).await?.ok_or(AppError::NoModel { id })?,
        };
        let model = ModelPin { id: model.id, version: model.version, fingerprint: model.fingerprint };
        Ok(PinnedContestant { model, level: c.level, move_ms: c.move_ms })
    }

    fn spawn_series(&self, id: i64) {
        let this = self.clone();
        tokio::spawn(async move {
            if let Err(e) = this.drive_series(id).await {
                tracing::error!(series = id, error = %e, "a program match stopped");
            }
        });
    }

    /// Plays the series' games in order: waits for the latest to finish, then creates the
    /// next, until all are played.
    async fn drive_series(&self, id: i64) -> Result<(), AppError> {
        loop {
            let row = self.db().series(id).await?.ok_or(AppError::NoProgramMatch { id })?;
            if let Some(last) = row.rooms.last().filter(|r| r.result.is_none()) {
                if !self.wait_finished(last.room_id).await? {
                    continue;
                }
                // Kept with the series, so that the report need not load finished rooms.
                let v = self.view(last.room_id, None).await?;
                let result = v.result.map(|r| r.result).ok_or(AppError::Internal)?;
                self.db().finish_series_game(id, last.game, &result, v.move_number).await?;
                continue;
            }
            let next = row.rooms.len() as u32 + 1;
            if next > row.plan.games {
                return self.db().finish_series(id, self.clock().now_ms()).await;
            }
            // The series' administrator creates each game (no seat is theirs).
            let creator = Requester { user_id: row.created_by, username: String::new(), role: Role::Admin };
            let name = format!(
                "#{id} · {next}/{} · m{} L{} – m{} L{}",
                row.plan.games, row.plan.a.model.id, row.plan.a.level, row.plan.b.model.id, row.plan.b.level
            );
            let created = self.create_room_unchecked(&creator, &name, game_settings(&row.plan, id, next)).await?;
            self.db().add_series_game(id, next, created.room_id).await?;
        }
    }

    /// Returns once room `room` finished (true), or false when its actor went away while
    /// waiting (the caller looks again).
    async fn wait_finished(&self, room: i64) -> Result<bool, AppError> {
        let h = self.handle(room).await?;
        let mut live = h.events.subscribe();
        // Subscribed first, then looked: an end between the two is not missed.
        if self.view(room, None).await?.phase == RoomPhase::Finished {
            return Ok(true);
        }
        loop {
            match live.recv().await {
                Ok(e) if matches!(e.event, Event::Ended { .. }) => {
                    if self.view(room, None).await?.phase == RoomPhase::Finished {
                        return Ok(true);
                    }
                }
                Ok(_) => {}
                Err(RecvError::Lagged(_)) => {
                    if self.view(room, None).await?.phase == RoomPhase::Finished {
                        return Ok(true);
                    }
                }
                Err(RecvError::Closed) => return Ok(false),
            }
        }
    }

    async fn report(&self, row: SeriesRow) -> Result<ProgramMatch, AppError> {
        let mut games = Vec::with_capacity(row.rooms.len());
        for room in &row.rooms {
            // A finished game reads from the series' own row; only the game in play is asked.
            let (phase, result, moves) = match room.result {
                Some((result, moves)) => (RoomPhase::Finished, Some(result), moves),
                None => {
                    let v = self.view(room.room_id, None).await?;
                    (v.phase, v.result.map(|r| r.result), v.move_number)
                }
            };
            let a_colour = if Side::black_in(room.game) == Side::A { Colour::Black } else { Colour::White };
            let winner = result.and_then(|r| r.winner()).map(|w| if w == a_colour { Side::A } else { Side::B });
            // Counted: the programs' marks were agreed automatically.
            let marks_auto_agreed =
                matches!(result, Some(engine::GameResult::Score { .. } | engine::GameResult::Jigo { .. }));
            games.push(SeriesGame {
                game: room.game,
                room_id: room.room_id,
                a_colour,
                phase,
                result,
                winner,
                marks_auto_agreed,
                moves,
            });
        }
        let mut report = ProgramMatch {
            id: row.id,
            created_at_ms: row.created_at_ms,
            a: row.plan.a,
            b: row.plan.b,
            games_planned: row.plan.games,
            settings: row.plan.settings,
            games,
            wins_a: 0,
            wins_b: 0,
            no_winner: 0,
            finished: false,
        };
        report.tally();
        Ok(report)
    }
}

/// Game `game`'s settings: the shared ones with both seats held by the computer, A in the
/// first seat, Black in the odd games, and every count reviewed by the administrator before
/// it is final (003 §12.4: "with human life and territory review").
fn game_settings(plan: &SeriesPlan, series: i64, game: u32) -> wire::settings::MatchSettings {
    let seat = |c: &PinnedContestant, colour| ComputerSeat {
        colour,
        level: c.level,
        move_ms: c.move_ms,
        model_id: Some(c.model.id),
        model: None,
        seed: 0,
    };
    let a_colour = if Side::black_in(game) == Side::A { Colour::Black } else { Colour::White };
    let b_colour = if a_colour == Colour::Black { Colour::White } else { Colour::Black };
    let mut settings = plan.settings.clone();
    settings.review = wire::referee::ReviewPolicy::Required;
    settings.mode = RoomMode::ProgramGame {
        first: Box::new(seat(&plan.a, a_colour)),
        second: Box::new(seat(&plan.b, b_colour)),
        series,
        game,
    };
    settings
}
