//! The common rules, precedent and the site's defaults as the server functions and the API
//! see them (003 §1.3–1.5, §9.7, §10.1). Reading is open to all; changing is for
//! administrators, with reasons, logged.

use crate::data::shipped_rules::is_citation;

use super::{Agreements, CommonRules, NewPrecedent, Precedent, RulesVersion, SiteDefaults};
use crate::{error::InputProblem, governance::SCORING_WAIT_MIN_MAX, matches::service::MatchService, AppError};
use room::MatchError;
use wire::{
    commands::Requester,
    settings::{Field, MatchSettings, ProblemKind, SettingProblem, SettingsError, RETENTION_DAYS_MAX},
};

fn admin_only(who: &Requester) -> Result<(), AppError> {
    if who.is_admin() {
        Ok(())
    } else {
        Err(MatchError::AdminOnly.into())
    }
}

fn in_range(field: &str, got: u32, max: u32) -> Result<u32, AppError> {
    if got <= max {
        Ok(got)
    } else {
        Err(AppError::input(field, InputProblem::Range { min: 0, max: u64::from(max), got: u64::from(got) }))
    }
}

impl MatchService {
    /// What a room created now agrees under: the version in force, its permits, the site's
    /// defaults (open to all: they are announced before play, 003 §9.7).
    pub async fn agreements(&self) -> Result<Agreements, AppError> {
        let (version, permits) = self.db().current_rules().await?;
        Ok(Agreements { version, permits, defaults: self.db().site_defaults().await? })
    }

    /// The common rules page: `version` in full (default: the current one) and the list.
    pub async fn common_rules(&self, version: Option<u32>) -> Result<CommonRules, AppError> {
        let (current, _) = self.db().current_rules().await?;
        let wanted = version.unwrap_or(current);
        let shown =
            self.db().rules_version(wanted).await?.ok_or(AppError::NoRulesVersion { version: wanted, current })?;
        Ok(CommonRules { current, shown, versions: self.db().rules_versions().await? })
    }

    /// Adds a precedent under a clause of the current version, making the next version
    /// (administrators only; 003 §1.5). Rooms created from now on pin it; rooms already
    /// created keep theirs.
    pub async fn add_precedent(&self, who: &Requester, p: NewPrecedent) -> Result<RulesVersion, AppError> {
        admin_only(who)?;
        let clause = p.clause.trim().to_string();
        let text = AppError::check_text("text", &p.text)?;
        let reasons = AppError::check_text("reasons", &p.reasons)?;
        if let Some(r) = p.ruling {
            // The ruling must be an administrator's action with reasons in that room's log.
            let events = self.db().load_events(r.room_id, r.seq - 1).await?;
            let ruling = events.first().filter(|e| e.seq == r.seq && e.event.audited().is_some());
            if ruling.is_none() {
                return Err(AppError::NotARuling { room_id: r.room_id, seq: r.seq });
            }
        }
        let now = self.now_ms();
        let by = who.username.clone();
        self.db()
            .add_precedent(who.user_id, now, move |latest| {
                if !is_citation(&clause) || !latest.clauses.iter().any(|c| c.id == clause) {
                    return Err(AppError::NotAClause { clause, version: latest.version });
                }
                let version = latest.version + 1;
                let precedent =
                    Precedent { clause: clause.clone(), text, reasons, ruling: p.ruling, version, at_ms: now, by };
                let mut clauses = latest.clauses.clone();
                if let Some(c) = clauses.iter_mut().find(|c| c.id == clause) {
                    c.precedents.push(precedent.clone());
                }
                Ok(RulesVersion {
                    version,
                    created_ms: now,
                    created_by: Some(precedent.by.clone()),
                    clauses,
                    permits: latest.permits.clone(),
                    precedent: Some(precedent),
                })
            })
            .await
    }

    /// Announces new site defaults (administrators only, with reasons; 003 §9.7, §10.1).
    pub async fn set_site_defaults(
        &self,
        who: &Requester,
        retention_days: u32,
        scoring_wait_min: u32,
        reasons: &str,
    ) -> Result<SiteDefaults, AppError> {
        admin_only(who)?;
        let days = in_range("retention_days", retention_days, RETENTION_DAYS_MAX)?;
        let wait = in_range("scoring_wait_min", scoring_wait_min, SCORING_WAIT_MIN_MAX)?;
        let reasons = AppError::check_text("reasons", reasons)?;
        self.db().set_site_defaults(who.user_id, days, wait, &reasons, self.now_ms()).await?;
        self.db().site_defaults().await
    }

    /// Pins what a new room agrees under (003 §1.4–1.5, §9.7): the version in force (a
    /// version named must be it: an agreement made under an older one is renewed first),
    /// special rules within that version's permits, and the site's retention unless the
    /// room agreed its own.
    pub(crate) async fn pin_agreements(&self, s: &mut MatchSettings) -> Result<(), AppError> {
        let (current, permits) = self.db().current_rules().await?;
        let refuse = |problems| AppError::invalid("settings", SettingsError { problems }.to_string());
        match s.common_rules_version {
            Some(v) if v != current => {
                return Err(refuse(vec![SettingProblem {
                    field: Field::CommonRulesVersion,
                    path: "common_rules_version".into(),
                    value: v.to_string(),
                    kind: ProblemKind::NotAllowed,
                    allowed: format!("{current}, the version in force for new rooms (agree again under it)"),
                    clause: "003 §1.5".into(),
                }]))
            }
            _ => s.common_rules_version = Some(current),
        }
        s.check_permits(current, &permits).map_err(|e| refuse(e.problems))?;
        if s.record_retention_days.is_none() {
            s.record_retention_days = Some(self.db().site_defaults().await?.retention_days);
        }
        Ok(())
    }
}
