//! Reports, sanctions and conduct histories through the service (003 §6.4–6.7). Who may
//! report is checked here against the room (its players) and `room_viewers` (signed-in
//! spectators who watched); sanctions go to the room's actor like any administrator's
//! command, so they are validated, stored, logged and streamed the same way.

use tokio::sync::oneshot;

use super::MatchService;
use crate::matches::actor::{ConductFacts, Request};

use crate::{data::conduct::ReportRow, error::AppError};
use wire::{
    commands::{Command, MatchError, Requester},
    conduct::{
        CaseOutcome, Category, NewReport, Penalty, ReportAbout, ReportCase, ReportRefusal, SanctionEntry,
        SanctionRecord, Target,
    },
    events::Colour,
    referee::NoticeKind,
};

/// The latest decided cases the administrators' list shows below the open ones.
const DECIDED_SHOWN: i64 = 20;

/// What an administrator asks to sanction (the room's command, plus the case it closes).
pub struct SanctionRequest {
    pub room_id: i64,
    pub target: Target,
    pub penalty: Penalty,
    pub category: Category,
    pub reasons: String,
    pub findings: Option<String>,
    pub case: Option<i64>,
}

impl MatchService {
    async fn conduct_facts(&self, room_id: i64) -> Result<ConductFacts, MatchError> {
        let h = self.handle(room_id).await?;
        let (reply, rx) = oneshot::channel();
        self.deliver(room_id, h, Request::Conduct { reply }).await?;
        rx.await.map_err(|_| MatchError::Internal)
    }

    /// A signed-in spectator opened the live stream: they may report, and be reported.
    pub async fn note_viewer(&self, room_id: i64, who: &Requester) {
        if let Err(e) = self.db.note_viewer(room_id, who.user_id, self.clock.now_ms()).await {
            tracing::error!(room_id, error = %e, "viewer not noted");
        }
    }

    /// Files a report; it never stops the match (003 §6.5). Answers the case it joined.
    pub async fn file_report(&self, who: &Requester, r: &NewReport) -> Result<i64, AppError> {
        let refuse = |why| AppError::ReportRefused { why };
        let description = AppError::check_text("description", &r.description)?;
        let facts = self.conduct_facts(r.room_id).await?;
        let plays = facts.players.iter().any(|p| *p == Some(who.user_id));
        if !plays && !self.db.has_viewed(r.room_id, who.user_id).await? {
            return Err(refuse(ReportRefusal::NotAViewer));
        }
        if !(1..=facts.version).contains(&r.seq) {
            return Err(refuse(ReportRefusal::NoSuchEvent { max: facts.version }));
        }
        let subject = match &r.about {
            ReportAbout::Match => None,
            ReportAbout::Player { colour } => Some(facts.players[*colour].ok_or(refuse(ReportRefusal::NoPerson))?),
            ReportAbout::Spectator { username } => {
                let not_one = || refuse(ReportRefusal::NotASpectator { username: username.clone() });
                let user = self.db.user_by_name(username).await?.ok_or_else(not_one)?;
                if facts.players.iter().any(|p| *p == Some(user.id)) || !self.db.has_viewed(r.room_id, user.id).await? {
                    return Err(not_one());
                }
                Some(user.id)
            }
        };
        if subject == Some(who.user_id) {
            return Err(refuse(ReportRefusal::Yourself));
        }
        let now = self.clock.now_ms();
        let row = ReportRow {
            room_id: r.room_id,
            subject,
            reporter: who.user_id,
            category: r.category,
            description: &description,
            seq: r.seq,
        };
        let (case, new) = self.db.add_report(&row, now).await?;
        if new {
            let admins = self.db.admin_ids().await?;
            self.db.notify(&admins, Some(r.room_id), NoticeKind::NewQueueItem, Some("report"), now).await?;
        }
        self.desk.wake().await;
        Ok(case)
    }

    /// Open report cases, then the latest decided (administrators only).
    pub async fn report_cases(&self, who: &Requester) -> Result<Vec<ReportCase>, AppError> {
        if !who.is_admin() {
            return Err(MatchError::AdminOnly.into());
        }
        let mut cases = self.db.report_cases(DECIDED_SHOWN).await?;
        for (c, subject) in &mut cases {
            if let (Some(id), Ok(facts)) = (*subject, self.conduct_facts(c.room_id).await) {
                c.subject_colour =
                    [Colour::Black, Colour::White].into_iter().find(|col| facts.players[*col] == Some(id));
            }
        }
        Ok(cases.into_iter().map(|(c, _)| c).collect())
    }

    /// Closes a case without a sanction, with reasons; its reporters are told.
    pub async fn dismiss_report(&self, who: &Requester, case: i64, reasons: &str) -> Result<(), AppError> {
        if !who.is_admin() {
            return Err(MatchError::AdminOnly.into());
        }
        let reasons = AppError::check_text("reasons", reasons)?;
        self.close_case(who, case, CaseOutcome::Dismissed, None, &reasons).await
    }

    async fn close_case(
        &self,
        who: &Requester,
        case: i64,
        outcome: CaseOutcome,
        sanction: Option<u32>,
        reasons: &str,
    ) -> Result<(), AppError> {
        let now = self.clock.now_ms();
        let Some((room_id, _)) = self.db.open_case_subject(case).await? else {
            return Err(AppError::NoReportCase { id: case });
        };
        let reporters = self.db.decide_case(case, who.user_id, outcome, sanction, reasons, now).await?;
        if reporters.is_empty() {
            return Err(AppError::NoReportCase { id: case });
        }
        self.db.notify(&reporters, Some(room_id), NoticeKind::ReportDecided, Some(outcome.into()), now).await?;
        self.desk.wake().await;
        Ok(())
    }

    /// Imposes a sanction in its room (and closes the report case it answers, if any).
    pub async fn impose_sanction(&self, who: &Requester, req: SanctionRequest) -> Result<SanctionRecord, AppError> {
        if !who.is_admin() {
            return Err(MatchError::AdminOnly.into());
        }
        if let Some(case) = req.case {
            match self.db.open_case_subject(case).await? {
                Some((room, _)) if room == req.room_id => {}
                _ => return Err(AppError::NoReportCase { id: case }),
            }
        }
        let reasons = req.reasons.clone();
        let cmd = Command::AdminSanction {
            target: req.target,
            penalty: req.penalty,
            category: req.category,
            reasons: req.reasons,
            findings: req.findings,
        };
        let reply = self.command(req.room_id, who.clone(), cmd).await?;
        // The number this command's event gave the sanction (not the room's latest: another
        // administrator may have sanctioned meanwhile).
        let number = reply
            .events
            .iter()
            .find_map(|e| match e.event {
                wire::events::Event::Sanctioned { number, .. } => Some(number),
                _ => None,
            })
            .ok_or(AppError::Internal)?;
        let facts = self.conduct_facts(req.room_id).await?;
        let (record, _) = facts.sanctions.into_iter().find(|(s, _)| s.number == number).ok_or(AppError::Internal)?;
        if let Some(case) = req.case {
            self.close_case(who, case, CaseOutcome::Sanctioned, Some(record.number), reasons.trim()).await?;
        }
        Ok(record)
    }

    /// Every sanction on `user_id` (a player's or a spectator's), newest first: their own
    /// history, or an administrator's look at it.
    pub async fn sanctions_of(&self, user_id: i64) -> Result<Vec<SanctionEntry>, AppError> {
        let now = self.clock.now_ms();
        let mut out = Vec::new();
        for room_id in self.db.rooms_with_sanctions().await? {
            let facts = match self.conduct_facts(room_id).await {
                Ok(f) => f,
                Err(MatchError::RoomNotFound) => continue,
                Err(e) => return Err(e.into()),
            };
            for (sanction, account) in facts.sanctions {
                if account == Some(user_id) {
                    let appeal_refusal = sanction.appeal_refusal(now);
                    out.push(SanctionEntry { room_id, room_name: facts.name.clone(), sanction, appeal_refusal });
                }
            }
        }
        out.sort_by_key(|e| std::cmp::Reverse(e.sanction.at_ms));
        Ok(out)
    }
}
