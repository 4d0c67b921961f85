//! Seating and agreement: invitations, confirmation of the settings (and the colours they
//! fix, by nigiri with the room's seed), readiness, acknowledgements, resignation and
//! record-viewer approvals (003 §1.3, §1.6, §2.4, §8.1).

use super::*;

impl MatchState {
    /// The seats a room of another mode than a match fills at creation, with the settings
    /// confirmed for them and, once both are seated, the start (003 §1.2, §11.1–11.4). The
    /// creator (`creator`) sits first, the computer or the guest second; facing the computer
    /// by invitation, the computer takes the creator's place and the invited person joins
    /// with the second code.
    pub fn seat_at_creation(&mut self, creator: &SeatHolder, now: i64) -> Result<Vec<Event>, MatchError> {
        use wire::mode::{Opponent, RoomMode};
        let mode = self.rules.mode().clone();
        let guest = |name: &str| FilledBy::Guest { host: creator.user_id, name: name.trim().to_string() };
        let person =
            Event::SeatTaken { seat: Seat::First, user_id: creator.user_id, username: creator.username.clone() };
        let (first, second) = match &mode {
            // An open challenge: its creator waits in the first seat.
            RoomMode::Match if self.rules.access() == wire::settings::RoomAccess::Open => {
                return self.accept_all(vec![person], now);
            }
            RoomMode::Match => return Ok(Vec::new()),
            RoomMode::OneDevice { second_player } => (Some(person), Some(guest(second_player))),
            RoomMode::Practice { computer: None } => (Some(person), Some(guest(&creator.username))),
            RoomMode::Practice { computer: Some(_) } | RoomMode::VsComputer { opponent: Opponent::Creator, .. } => {
                (Some(person), Some(FilledBy::Computer))
            }
            RoomMode::ProgramGame { .. } => {
                let events = vec![
                    Event::SeatFilled { seat: Seat::First, by: FilledBy::Computer },
                    Event::SeatFilled { seat: Seat::Second, by: FilledBy::Computer },
                    Event::SettingsConfirmed { seat: Seat::First },
                    Event::SettingsConfirmed { seat: Seat::Second },
                    Event::Started { black: self.black_at_start() },
                ];
                return self.accept_all(events, now);
            }
            RoomMode::VsComputer { opponent: Opponent::Invited, .. } => {
                let e = Event::SeatFilled { seat: Seat::First, by: FilledBy::Computer };
                let events = vec![e, Event::SettingsConfirmed { seat: Seat::First }];
                return self.accept_all(events, now);
            }
        };
        let mut events: Vec<Event> = first.into_iter().collect();
        if let Some(by) = second {
            events.push(Event::SeatFilled { seat: Seat::Second, by });
        }
        events.push(Event::SettingsConfirmed { seat: Seat::First });
        events.push(Event::SettingsConfirmed { seat: Seat::Second });
        events.push(Event::Started { black: self.black_at_start() });
        self.accept_all(events, now)
    }

    /// Which seat plays Black: in a program game, the first seat's colour; facing the
    /// computer, the side the creator chose for it; otherwise as agreed (host Black, host
    /// White, or nigiri with the room's seed).
    fn black_at_start(&self) -> Seat {
        use wire::mode::RoomMode;
        if let RoomMode::ProgramGame { first, .. } = self.rules.mode() {
            return if first.colour == Colour::Black { Seat::First } else { Seat::Second };
        }
        if let (Some(c), Some(seat)) = (self.rules.mode().computers().first(), self.computer_seats().next()) {
            return if c.colour == Colour::Black { seat } else { seat.other() };
        }
        match self.rules.colours() {
            ColourAssignment::HostBlack => Seat::First,
            ColourAssignment::HostWhite => Seat::Second,
            ColourAssignment::Nigiri => nigiri(self.nigiri_seed()),
        }
    }

    fn accept_all(&mut self, events: Vec<Event>, now: i64) -> Result<Vec<Event>, MatchError> {
        let d = self.accept(events, Ok(()), now);
        d.outcome.map(|()| d.events)
    }

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

    /// Anyone signed in takes the free seat of an open room.
    pub(super) fn take_seat(&mut self, caller: &Requester) -> Result<Vec<Event>, MatchError> {
        if self.phase() != RoomPhase::Open {
            return Err(self.wrong_phase(PhaseNeeded::Open));
        }
        if self.rules.access() != wire::settings::RoomAccess::Open {
            return Err(MatchError::ByInvitationOnly);
        }
        if self.seat_of(caller.user_id).is_some() {
            return Err(MatchError::AlreadySeated);
        }
        let seat = [Seat::First, Seat::Second]
            .into_iter()
            .find(|s| self.seats[s.index()].is_none())
            .ok_or(MatchError::SeatTaken)?;
        Ok(vec![Event::SeatTaken { seat, user_id: caller.user_id, username: caller.username.clone() }])
    }

    /// A seated person leaves before play; the settings wait for both confirmations again.
    pub(super) fn leave_seat(&mut self, caller: &Requester) -> Result<Vec<Event>, MatchError> {
        if self.phase() != RoomPhase::Open {
            return Err(self.wrong_phase(PhaseNeeded::Open));
        }
        let seat = [Seat::First, Seat::Second]
            .into_iter()
            .find(|s| matches!(&self.seats[s.index()], Some(Occupant::Person(h)) if h.user_id == caller.user_id))
            .ok_or(MatchError::NotAPlayer)?;
        Ok(vec![Event::SeatLeft { seat }])
    }

    /// The creator (or an administrator) closes a room nobody plays in yet.
    pub(super) fn cancel_room(&mut self, caller: &Requester) -> Result<Vec<Event>, MatchError> {
        if caller.user_id != self.created_by && !caller.is_admin() {
            return Err(MatchError::NotTheCreator);
        }
        if self.phase() != RoomPhase::Open {
            return Err(self.wrong_phase(PhaseNeeded::Open));
        }
        Ok(vec![Event::RoomCancelled { by: caller.user_id }])
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
            events.push(Event::Started { black: self.black_at_start() });
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
        if r.ready[colour] {
            return Err(MatchError::AlreadyDone);
        }
        let other = opponent(colour);
        let mut events = vec![Event::Ready { colour }];
        // 003 §11.2: in practice one screen's Ready stands for both colours; the computer is
        // always ready (003 §11.4: it moves after the human's start).
        let stands_for_other = self.rules.mode().is_practice() || self.holder_of(other) == Some(&Occupant::Computer);
        if !r.ready[other] && stands_for_other {
            events.push(Event::Ready { colour: other });
        }
        if r.ready[other] || stands_for_other {
            events.push(Event::PlayResumed);
        }
        Ok(events)
    }

    pub(super) fn acknowledge(&mut self, colour: Colour, move_number: u32) -> Result<Vec<Event>, MatchError> {
        match self.awaiting_ack {
            Some((c, n)) if c == colour && n == move_number => {
                let mut events = vec![Event::MoveAcknowledged { colour, move_number }];
                // A late acknowledgement ends an acknowledgement fault (003 §5.6).
                if self.faults[colour].is_some_and(|f| f.cause == FaultCause::AcknowledgementTimeout) {
                    events.push(Event::Reconnected { colour });
                }
                Ok(events)
            }
            _ => Err(MatchError::NothingToAcknowledge { move_number }),
        }
    }

    pub(super) fn resign(&mut self, colour: Colour) -> Result<Vec<Event>, MatchError> {
        if !self.phase().accepts_resignation() {
            return Err(self.wrong_phase(PhaseNeeded::StartedUnfinished));
        }
        let result = engine::GameResult::resignation(colour);
        Ok(vec![Event::Resigned { colour }, ended(&result, None)])
    }

    /// `ApproveRecordViewer { username }` from `caller`, once the service looked the name
    /// up: `account` is the user it names (`None`: nobody). Either seated player of a started
    /// game approves; both must (003 §8.1). The approval is recorded by account id.
    pub fn approve_record_viewer(
        &mut self,
        caller: &Requester,
        username: &str,
        account: Option<&SeatHolder>,
        now: i64,
    ) -> Decision {
        let Some(seat) = self.seat_of(caller.user_id) else { return Decision::refuse(MatchError::NotAPlayer) };
        let Some(colour) = self.colour_of_seat(seat) else {
            return Decision::refuse(self.wrong_phase(PhaseNeeded::Started));
        };
        match self.approve_viewer(colour, username, account) {
            Ok(events) => self.accept(events, Ok(()), now),
            Err(e) => Decision::refuse(e),
        }
    }

    fn approve_viewer(
        &mut self,
        colour: Colour,
        username: &str,
        account: Option<&SeatHolder>,
    ) -> Result<Vec<Event>, MatchError> {
        use wire::commands::APPROVED_NAME_LEN as LEN;
        let (min, max) = (*LEN.start(), *LEN.end());
        let name = username.trim();
        let got = name.chars().count();
        if !LEN.contains(&got) {
            return Err(MatchError::InvalidInput { field: "username".into(), min, max, got });
        }
        let account = account.ok_or_else(|| MatchError::UnknownUser { username: name.to_string() })?;
        if self.record_viewers.iter().any(|v| v.user_id == account.user_id && v.approved[colour]) {
            return Err(MatchError::AlreadyDone);
        }
        Ok(vec![Event::RecordViewerApproved {
            colour,
            username: account.username.clone(),
            user_id: Some(account.user_id),
        }])
    }
}

#[cfg(test)]
mod record_viewer_tests {
    use super::*;
    use wire::{settings::MatchSettings, Role};

    fn who(id: i64, name: &str, role: Role) -> Requester {
        Requester { user_id: id, username: name.into(), role }
    }

    /// A Classic room with host (1) and guest (2) playing.
    fn started() -> MatchState {
        let secrets = RoomSecrets { invite_sha256: [sha256_hex("a"), sha256_hex("b")], nigiri_seed: Some(1) };
        let mut settings = MatchSettings::classic_default(9);
        settings.colours = ColourAssignment::HostBlack;
        let mut s = MatchState::new("r".into(), settings, 1, secrets).unwrap();
        let (host, guest) = (who(1, "host", Role::Player), who(2, "guest", Role::Player));
        for (c, cmd) in [
            (&host, Command::Join { code: "a".into() }),
            (&guest, Command::Join { code: "b".into() }),
            (&host, Command::Confirm),
            (&guest, Command::Confirm),
        ] {
            assert!(s.handle(c, &cmd, 0).outcome.is_ok(), "{cmd:?}");
        }
        s
    }

    #[test]
    fn approvals_are_by_account_and_need_both_players() {
        let mut s = started();
        let (host, guest) = (who(1, "host", Role::Player), who(2, "guest", Role::Player));
        let dave = SeatHolder { user_id: 7, username: "Ärger_x".into() };
        // A namesake in another case (an account from before names were keyed) is another id.
        let namesake = who(8, "ärger_x", Role::Player);
        let d = s.approve_record_viewer(&host, "ärger_x", Some(&dave), 10);
        assert_eq!(d.outcome, Ok(()));
        assert_eq!(
            d.events,
            vec![Event::RecordViewerApproved { colour: Colour::Black, username: "Ärger_x".into(), user_id: Some(7) }]
        );
        assert!(!s.may_read_record(&who(7, "Ärger_x", Role::Player)), "one approval is not enough");
        let again = s.approve_record_viewer(&host, "Ärger_x", Some(&dave), 11);
        assert_eq!(again.outcome, Err(MatchError::AlreadyDone));
        assert_eq!(s.approve_record_viewer(&guest, "ÄRGER_X", Some(&dave), 12).outcome, Ok(()));
        assert!(s.may_read_record(&who(7, "Ärger_x", Role::Player)));
        assert!(!s.may_read_record(&namesake), "the same name in another case is another account");
        assert!(!s.may_read_record(&who(9, "Ärger_x", Role::Player)), "the same name on another id reads nothing");
        assert!(s.may_read_record(&host) && s.may_read_record(&who(3, "referee", Role::Admin)));
        assert_eq!(
            s.record_viewers,
            vec![RecordViewer { user_id: 7, username: "Ärger_x".into(), approved: ByColour::both(true) }]
        );
    }

    #[test]
    fn refusals_name_what_is_wrong() {
        let mut s = started();
        let host = who(1, "host", Role::Player);
        let dave = SeatHolder { user_id: 7, username: "dave".into() };
        assert_eq!(
            s.approve_record_viewer(&host, "nobody", None, 1).outcome,
            Err(MatchError::UnknownUser { username: "nobody".into() })
        );
        assert!(matches!(
            s.approve_record_viewer(&host, "  ", Some(&dave), 1).outcome,
            Err(MatchError::InvalidInput { ref field, got: 0, .. }) if field == "username"
        ));
        let stranger = who(5, "carol", Role::Player);
        assert_eq!(s.approve_record_viewer(&stranger, "dave", Some(&dave), 1).outcome, Err(MatchError::NotAPlayer));
        // The pure state cannot look names up: the command itself is the service's to resolve.
        let cmd = Command::ApproveRecordViewer { username: "dave".into() };
        assert_eq!(s.handle(&host, &cmd, 1).outcome, Err(MatchError::Internal));
        assert!(s.record_viewers.is_empty());
    }
}
