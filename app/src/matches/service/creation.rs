//! Making a room: its name, its settings pinned and checked, the computer's model chosen,
//! invitation codes, the first events stored, and its actor started under its lease.

use super::{CreatedRoom, MatchService};
use crate::{
    data::{leases::Taking, secrets::random_hex, sha256_hex},
    matches::actor,
    AppError,
};
use room::{MatchError, MatchState, Requester, SeatHolder};
use wire::{events::RoomSecrets, settings::MatchSettings};

/// Room names: 1–60 characters.
pub const ROOM_NAME_LEN: std::ops::RangeInclusive<usize> = 1..=60;

impl MatchService {
    pub async fn create_room(
        &self,
        creator: &Requester,
        name: &str,
        settings: MatchSettings,
    ) -> Result<CreatedRoom, AppError> {
        let name = name.trim();
        let n = name.chars().count();
        if !ROOM_NAME_LEN.contains(&n) {
            let (min, max) = (*ROOM_NAME_LEN.start() as u64, *ROOM_NAME_LEN.end() as u64);
            return Err(AppError::input("name", crate::error::InputProblem::Length { min, max, got: n as u64 }));
        }
        // 003 §12.4: a program game belongs to its program match.
        if settings.mode.is_program_game() {
            return Err(AppError::invalid("settings.mode", "program games are made by starting a program match"));
        }
        self.create_room_unchecked(creator, name, settings).await
    }

    /// Creates a room of any mode, program games included (their series makes them).
    pub(crate) async fn create_room_unchecked(
        &self,
        creator: &Requester,
        name: &str,
        settings: MatchSettings,
    ) -> Result<CreatedRoom, AppError> {
        let name = name.trim();
        let mut settings = settings;
        // The version, its permits and the site's retention are pinned before the one check.
        self.pin_agreements(&mut settings).await?;
        settings.validate().map_err(|e| AppError::invalid("settings", e.to_string()))?;
        self.prepare_mode(creator, &mut settings).await?;
        // Invitation codes: 10 random bytes as hex.
        let codes = [random_hex::<10>()?, random_hex::<10>()?];
        let secrets = RoomSecrets {
            invite_sha256: [sha256_hex(&codes[0]), sha256_hex(&codes[1])],
            nigiri_seed: Some(actor::random_seed()),
        };
        let (room_id, first) =
            self.db.insert_room(name, &settings, creator.user_id, &secrets, self.clock.now_ms()).await?;
        let lease = match self.db.take_lease(room_id, &self.instance.id, self.clock.now_ms()).await? {
            Taking::Taken { lease, .. } => lease,
            taking => {
                tracing::error!(room_id, ?taking, "a new room's lease was not taken");
                return Err(AppError::Internal);
            }
        };
        let mut state = MatchState::replay(&[first], secrets).map_err(|e| {
            tracing::error!(error = %e, "new room does not replay");
            AppError::Internal
        })?;
        // Modes other than a match seat their players now (003 §1.2, §11.2).
        let now = self.clock.now_ms();
        let creator_seat = SeatHolder { user_id: creator.user_id, username: creator.username.clone() };
        let seated = state.seat_at_creation(&creator_seat, now).map_err(|e| {
            tracing::error!(error = ?e, "new room's seats refused");
            AppError::Internal
        })?;
        let listing = state.listing();
        if seated.is_empty() {
            self.db.set_listing(room_id, &listing).await?;
        } else {
            let update = crate::data::room_log::ListingUpdate { listing: &listing, players_changed: true };
            let stored = self
                .db
                .append_events(
                    lease,
                    state.version,
                    now,
                    crate::data::room_log::Cause::by(Some(creator.user_id)),
                    seated,
                    Some(update),
                )
                .await?;
            if let Some(last) = stored.last() {
                state.version = last.seq;
            }
        }
        let handle = actor::spawn(
            room_id,
            Some(lease),
            state,
            self.db.clone(),
            self.clock.clone(),
            self.desk.clone(),
            Some(listing),
        );
        self.rooms.lock().await.insert(room_id, handle);
        Ok(CreatedRoom { room_id, invite_codes: codes })
    }

    /// Checks who may create the mode and pins the computer's model and seed (003 §11.2,
    /// §12.5): practice is the administrator's; a computer seat plays the chosen stored
    /// model (by default the built-in one), fixed for the room's life.
    pub(super) async fn prepare_mode(&self, creator: &Requester, settings: &mut MatchSettings) -> Result<(), AppError> {
        use wire::mode::{ModelPin, RoomMode};
        use wire::settings::ColourAssignment;
        if settings.mode.is_practice() && !creator.is_admin() {
            return Err(AppError::Match(MatchError::AdminOnly));
        }
        let invited = matches!(settings.mode, RoomMode::VsComputer { opponent: wire::mode::Opponent::Invited, .. });
        let program_game = settings.mode.is_program_game();
        let now = self.clock.now_ms();
        let mut first_is_black = None;
        for c in settings.mode.computers_mut() {
            let model = match c.model_id {
                None => self.db.builtin_model(now).await?,
                Some(id) => self.db.model(id).await?.ok_or(AppError::NoModel { id })?,
            };
            c.model_id = Some(model.id);
            c.model = Some(ModelPin { id: model.id, version: model.version, fingerprint: model.fingerprint });
            c.seed = actor::random_seed();
            // The colours follow from the computer's: its seat is the second (the first
            // when the other seat is by invitation, or in a program game for its first).
            let computer_first = invited || program_game;
            first_is_black.get_or_insert((c.colour == engine::Color::Black) == computer_first);
        }
        if let Some(black) = first_is_black {
            settings.colours = if black { ColourAssignment::HostBlack } else { ColourAssignment::HostWhite };
        }
        if let RoomMode::OneDevice { second_player } = &mut settings.mode {
            *second_player = second_player.trim().to_string();
        }
        Ok(())
    }
}
