//! Sanctions and appeals in a room (003 §5.6, §6.5–6.7): the administrator sanctions a
//! player or a spectator with reasons; the sanctioned person appeals once within seven
//! days; the administrator may open one more on new evidence and decides it. The caller is
//! checked to be an administrator (or the sanctioned person) here, before any event.

use super::{check_reasons, opponent, MatchState, Occupant, SeatHolder};
use wire::{
    commands::{Command, MatchError, Requester},
    conduct::{
        AppealException, AppealRecord, AppealRefusal, Category, Penalty, SanctionProblem, SanctionRecord,
        SanctionStatus, Subject, Target,
    },
    events::Event,
};

impl MatchState {
    /// `spectator`: the account a `Target::Spectator` names, found by the caller (`None`:
    /// no such account).
    pub fn sanction(
        &mut self,
        caller: &Requester,
        cmd: &Command,
        spectator: Option<&SeatHolder>,
        now: i64,
    ) -> super::Decision {
        match self.decide_sanction(caller, cmd, spectator) {
            Ok(events) => self.accept(events, Ok(()), now),
            Err(e) => super::Decision::refuse(e),
        }
    }

    fn decide_sanction(
        &self,
        caller: &Requester,
        cmd: &Command,
        spectator: Option<&SeatHolder>,
    ) -> Result<Vec<Event>, MatchError> {
        let Command::AdminSanction { target, penalty, category, reasons, findings } = cmd else {
            return Err(MatchError::Internal);
        };
        if !caller.is_admin() {
            return Err(MatchError::AdminOnly);
        }
        let bad = |why| MatchError::BadSanction { why };
        let reasons = check_reasons("reasons", reasons)?;
        let findings = match findings.as_deref().map(str::trim).filter(|f| !f.is_empty()) {
            Some(f) => Some(check_reasons("findings", f)?),
            None => None,
        };
        // 003 §5.6: delay alone never proves intent; the administrator states what does.
        if *category == Category::DeliberateDelay && findings.is_none() {
            return Err(bad(SanctionProblem::FindingsRequired));
        }
        if penalty.for_player() != matches!(target, Target::Player { .. }) {
            return Err(bad(SanctionProblem::PenaltyNotForTarget));
        }
        let (subject, name) = match target {
            Target::Player { colour } => {
                let occupant = self.occupant_of(*colour).ok_or(bad(SanctionProblem::NotStarted))?;
                if matches!(occupant, Occupant::Computer) {
                    return Err(bad(SanctionProblem::NoPerson));
                }
                (Subject::Player { colour: *colour }, occupant.name().to_string())
            }
            Target::Spectator { username } => {
                let who = spectator.ok_or_else(|| MatchError::UnknownUser { username: username.clone() })?;
                if self.seats.iter().flatten().any(|o| o.account() == Some(who.user_id)) {
                    return Err(bad(SanctionProblem::IsAPlayer));
                }
                if self.viewing_restricted(who.user_id).is_some() {
                    return Err(bad(SanctionProblem::AlreadyRestricted));
                }
                (Subject::Spectator { user_id: who.user_id, username: who.username.clone() }, who.username.clone())
            }
        };
        let mut events = vec![Event::Sanctioned {
            number: self.referee.sanctions.len() as u32 + 1,
            subject,
            name,
            penalty: *penalty,
            category: *category,
            reasons,
            findings,
        }];
        // A loss or void of a match in play ends it; of a finished one it replaces the
        // result (in the fold).
        if let (Some(result), None) = (self.sanction_result(target, *penalty), self.result()) {
            events.push(Event::Ended { result, score: None, statement: None });
        }
        Ok(events)
    }

    /// The result a loss or void sets.
    fn sanction_result(&self, target: &Target, penalty: Penalty) -> Option<engine::GameResult> {
        match (penalty, target) {
            (Penalty::Loss, Target::Player { colour }) => {
                Some(engine::GameResult::Decision { winner: Some(opponent(*colour)) })
            }
            (Penalty::Void, _) => Some(engine::GameResult::Void),
            _ => None,
        }
    }

    /// The person who holds `colour`'s seat, once the game has started.
    fn occupant_of(&self, colour: wire::events::Colour) -> Option<&Occupant> {
        let seat = self.seat_of_colour(colour)?;
        self.seats[seat.index()].as_ref()
    }

    /// The sanctioned person's appeal (003 §6.6).
    pub(super) fn appeal(
        &self,
        caller: &Requester,
        number: u32,
        evidence: &str,
        now: i64,
    ) -> Result<Vec<Event>, MatchError> {
        let s = self.sanction_numbered(number)?;
        let theirs = match &s.subject {
            Subject::Player { colour } => self.occupant_of(*colour).and_then(Occupant::account) == Some(caller.user_id),
            Subject::Spectator { user_id, .. } => *user_id == caller.user_id,
        };
        if !theirs {
            return Err(MatchError::NotYourSanction { number });
        }
        let evidence = check_reasons("evidence", evidence)?;
        if let Some(why) = s.appeal_refusal(now) {
            return Err(MatchError::AppealNotAllowed { why });
        }
        Ok(vec![Event::AppealFiled { number, evidence }])
    }

    /// The administrator's side of an appeal: an exception, or the final decision.
    pub(super) fn admin_appeal(&self, cmd: &Command, now: i64) -> Result<Vec<Event>, MatchError> {
        match cmd {
            Command::AdminOpenAppeal { sanction, reasons } => {
                let reasons = check_reasons("reasons", reasons)?;
                let s = self.sanction_numbered(*sanction)?;
                // Only a refused appeal needs an exception; an open door needs none.
                match s.appeal_refusal(now) {
                    Some(AppealRefusal::AlreadyAppealed | AppealRefusal::TooLate { .. }) => {}
                    Some(why) => return Err(MatchError::AppealNotAllowed { why }),
                    None => return Err(MatchError::AlreadyDone),
                }
                Ok(vec![Event::AppealExceptionOpened { number: *sanction, reasons }])
            }
            Command::AdminDecideAppeal { sanction, uphold, reasons, result } => {
                let reasons = check_reasons("reasons", reasons)?;
                let s = self.sanction_numbered(*sanction)?;
                if s.status != SanctionStatus::UnderReview {
                    return Err(MatchError::AppealNotAllowed { why: AppealRefusal::NothingToDecide });
                }
                let result = if !*uphold && s.penalty.sets_result() {
                    match result.or(s.result_before) {
                        Some(r) => Some(r),
                        None => return Err(MatchError::BadSanction { why: SanctionProblem::ResultRequired }),
                    }
                } else {
                    None
                };
                Ok(vec![Event::AppealDecided { number: *sanction, upheld: *uphold, reasons, result }])
            }
            _ => Err(MatchError::Internal),
        }
    }

    fn sanction_numbered(&self, number: u32) -> Result<&SanctionRecord, MatchError> {
        self.referee.sanctions.iter().find(|s| s.number == number).ok_or(MatchError::NoSanction { number })
    }

    /// The sanction restricting `user_id`'s viewing of this match, if one applies (under
    /// review it is suspended; 003 §6.6).
    pub fn viewing_restricted(&self, user_id: i64) -> Option<u32> {
        self.referee.sanctions.iter().find_map(|s| match s.subject {
            Subject::Spectator { user_id: u, .. }
                if u == user_id && s.penalty == Penalty::ViewingRestricted && s.status.applies() =>
            {
                Some(s.number)
            }
            _ => None,
        })
    }

    /// The account of a sanction's subject (a spectator's, or the seat's person).
    pub fn sanction_subject_account(&self, s: &SanctionRecord) -> Option<i64> {
        match &s.subject {
            Subject::Player { colour } => self.occupant_of(*colour).and_then(Occupant::account),
            Subject::Spectator { user_id, .. } => Some(*user_id),
        }
    }

    /// Folds the conduct events (called by `note`).
    pub(super) fn note_conduct(&mut self, e: &Event, t: i64) {
        match e {
            Event::Sanctioned { number, subject, name, penalty, category, reasons, findings } => {
                let before = self.result();
                self.referee.sanctions.push(SanctionRecord {
                    number: *number,
                    subject: subject.clone(),
                    name: name.clone(),
                    penalty: *penalty,
                    category: *category,
                    reasons: reasons.clone(),
                    findings: findings.clone(),
                    at_ms: t,
                    result_before: before,
                    status: SanctionStatus::InForce,
                    appeals: Vec::new(),
                    exceptions: Vec::new(),
                });
                if before.is_some() {
                    let target = match subject {
                        Subject::Player { colour } => Target::Player { colour: *colour },
                        Subject::Spectator { username, .. } => Target::Spectator { username: username.clone() },
                    };
                    if let Some(r) = self.sanction_result(&target, *penalty) {
                        self.replace_result(r);
                    }
                }
            }
            Event::AppealFiled { number, evidence } => {
                if let Some(s) = self.referee.sanctions.iter_mut().find(|s| s.number == *number) {
                    s.status = SanctionStatus::UnderReview;
                    s.appeals.push(AppealRecord {
                        evidence: evidence.clone(),
                        at_ms: t,
                        upheld: None,
                        reasons: None,
                        decided_ms: None,
                    });
                }
            }
            Event::AppealExceptionOpened { number, reasons } => {
                if let Some(s) = self.referee.sanctions.iter_mut().find(|s| s.number == *number) {
                    s.exceptions.push(AppealException { reasons: reasons.clone(), at_ms: t });
                }
            }
            Event::AppealDecided { number, upheld, reasons, result } => {
                if let Some(s) = self.referee.sanctions.iter_mut().find(|s| s.number == *number) {
                    s.status = if *upheld { SanctionStatus::Upheld } else { SanctionStatus::Lifted };
                    if let Some(a) = s.appeals.last_mut() {
                        a.upheld = Some(*upheld);
                        a.reasons = Some(reasons.clone());
                        a.decided_ms = Some(t);
                    }
                }
                if let Some(r) = result {
                    self.replace_result(*r);
                }
            }
            _ => {}
        }
    }

    /// A finished match's result replaced (the original stays in the log and the record).
    fn replace_result(&mut self, r: engine::GameResult) {
        if let Some(Event::Ended { result, .. }) = &mut self.ended {
            *result = r;
        }
    }
}
