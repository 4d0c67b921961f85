//! Seating and agreement: invitations, confirmation of the settings (and the colours they
//! fix, by nigiri with the room's seed), readiness, acknowledgements, resignation and
//! record-viewer approvals (003 §1.3, §1.6, §2.4, §8.1).

use super::*;

impl MatchState {
    pub(super) fn join(&mut self, caller: &Requester, code: &str) -> Result<Vec<Event>, MatchError> {
        if self.phase() != RoomPhase::Open {
            return Err(self.wrong_phase(PhaseNeeded::Open));
        }
        if self.seat_of(caller.user_id).is_some() {
            return Err(MatchError::AlreadySeated);
        }
        let digest = sha256_hex(code.trim());
        let seat = [Seat::First, Seat::Second]
            .into_iter()
            .find(|s| self.secrets.invite_sha256[s.index()] == digest)
            .ok_or(MatchError::BadInviteCode)?;
        if self.seats[seat.index()].is_some() {
            return Err(MatchError::SeatTaken);
        }
        Ok(vec![Event::SeatTaken { seat, user_id: caller.user_id, username: caller.username.clone() }])
    }

    pub(super) fn confirm(&mut self, seat: Seat) -> Result<Vec<Event>, MatchError> {
        if self.phase() != RoomPhase::Open {
            return Err(self.wrong_phase(PhaseNeeded::Open));
        }
        if self.confirmed[seat.index()] {
            return Err(MatchError::AlreadyDone);
        }
        if self.seats.iter().any(Option::is_none) {
            return Err(self.wrong_phase(PhaseNeeded::BothSeated));
        }
        let mut events = vec![Event::SettingsConfirmed { seat }];
        if self.confirmed[seat.other().index()] {
            let black = match self.rules.colours() {
                ColourAssignment::HostBlack => Seat::First,
                ColourAssignment::HostWhite => Seat::Second,
                ColourAssignment::Nigiri => nigiri(self.nigiri_seed()),
            };
            events.push(Event::Started { black });
        }
        Ok(events)
    }

    /// The room's nigiri seed. A room created before seeds were drawn at creation and still
    /// open takes it from its first invitation digest (secret, random and recorded too).
    pub(super) fn nigiri_seed(&self) -> u64 {
        self.secrets.nigiri_seed.unwrap_or_else(|| {
            u64::from_str_radix(self.secrets.invite_sha256[0].get(..16).unwrap_or("0"), 16).unwrap_or(0)
        })
    }

    pub(super) fn ready(&mut self, colour: Colour) -> Result<Vec<Event>, MatchError> {
        let Phase::WaitingReady(r) = &self.phase else {
            return Err(self.wrong_phase(PhaseNeeded::WaitingReady));
        };
        if r.ready[colour_index(colour)] {
            return Err(MatchError::AlreadyDone);
        }
        let mut events = vec![Event::Ready { colour }];
        if r.ready[colour_index(opponent(colour))] {
            events.push(Event::PlayResumed);
        }
        Ok(events)
    }

    pub(super) fn acknowledge(&mut self, colour: Colour, move_number: u32) -> Result<Vec<Event>, MatchError> {
        match self.awaiting_ack {
            Some((c, n)) if c == colour && n == move_number => {
                let mut events = vec![Event::MoveAcknowledged { colour, move_number }];
                // A late acknowledgement ends an acknowledgement fault (003 §5.6).
                if self.faults[colour_index(colour)].is_some_and(|f| f.cause == FaultCause::AcknowledgementTimeout) {
                    events.push(Event::Reconnected { colour });
                }
                Ok(events)
            }
            _ => Err(MatchError::NothingToAcknowledge { move_number }),
        }
    }

    pub(super) fn resign(&mut self, colour: Colour) -> Result<Vec<Event>, MatchError> {
        if matches!(self.phase(), RoomPhase::Open | RoomPhase::Finished) {
            return Err(self.wrong_phase(PhaseNeeded::StartedUnfinished));
        }
        let result = engine::GameResult::resignation(colour);
        Ok(vec![Event::Resigned { colour }, ended(&result, None)])
    }

    pub(super) fn approve_viewer(&mut self, colour: Colour, username: &str) -> Result<Vec<Event>, MatchError> {
        let name = username.trim();
        if name.is_empty() || name.chars().count() > 40 {
            let got = name.chars().count();
            return Err(MatchError::InvalidInput { field: "username".into(), min: 1, max: 40, got });
        }
        let lower = name.to_lowercase();
        if self.record_viewers.iter().any(|(n, ok)| *n == lower && ok[colour_index(colour)]) {
            return Err(MatchError::AlreadyDone);
        }
        Ok(vec![Event::RecordViewerApproved { colour, username: name.to_string() }])
    }
}
