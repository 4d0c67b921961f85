//! What the administrator can do to a match (003 §1.5, §2.7, §3.2–3.6, §4.7, §5.7,
//! §6.1–6.3): hold and resume it, rule per chain and region, confirm a ruling after an
//! objection or a statement under review, decide a time-loss objection, correct a finalized
//! result, repair a damaged log, decide a match. Every action carries reasons and is
//! recorded; the caller is checked to be an administrator before any of this runs.

use super::{check_reasons, MatchState, Phase};
use wire::commands::{PendingKind, PhaseNeeded, RulingProblem};
use wire::{
    commands::{Command, MatchError, RoomPhase},
    events::{Event, HoldReason, Mark, MarkKind, Xyz},
    referee::{ChainRuling, ChainVerdict, CorrectionProposal, RegionRuling, RegionVerdict},
};

impl MatchState {
    pub(super) fn admin(&mut self, cmd: &Command, now: i64) -> Result<Vec<Event>, MatchError> {
        // A damaged log takes only its repair: anything else would be stored after events
        // that do not replay (003 §6.2).
        if let Some(HoldReason::DamagedRecord { seq, .. }) = self.hold() {
            if !matches!(cmd, Command::AdminRepair { .. }) {
                return Err(MatchError::RecordDamaged { seq: *seq });
            }
        }
        match cmd {
            Command::AdminHold { reasons } => {
                let reasons = check_reasons("reasons", reasons)?;
                if !matches!(
                    self.phase(),
                    RoomPhase::WaitingReady | RoomPhase::Playing | RoomPhase::Scoring | RoomPhase::AwaitingReview
                ) {
                    return Err(self.wrong_phase(PhaseNeeded::StartedNotHeld));
                }
                Ok(vec![Event::Held { reason: HoldReason::Administrator { reasons } }])
            }
            Command::AdminResume { reasons } => {
                let reasons = check_reasons("reasons", reasons)?;
                if self.phase() != RoomPhase::Held {
                    return Err(self.wrong_phase(PhaseNeeded::Held));
                }
                Ok(vec![Event::Resumed { reasons }])
            }
            Command::AdminRuling { chains, regions, reasons } => self.ruling(chains, regions, reasons),
            Command::AdminConfirmRuling { reasons } => {
                let reasons = check_reasons("reasons", reasons)?;
                let latest = self.referee.rulings.last().map(|r| r.number);
                let (Some(_), Some(ruling)) = (&self.referee.ruling_objection, latest) else {
                    return Err(MatchError::NoPendingRequest { what: PendingKind::RulingObjection });
                };
                let marks = self.scoring().map(|s| s.marks.clone()).unwrap_or_default();
                Ok(vec![Event::RulingConfirmed { ruling, reasons }, self.statement_event(marks)])
            }
            Command::AdminConfirmStatement { statement, reasons } => {
                let reasons = check_reasons("reasons", reasons)?;
                let Phase::AwaitingReview(s) = &self.phase else {
                    return Err(self.wrong_phase(PhaseNeeded::AwaitingReview));
                };
                if *statement != s.statement {
                    return Err(MatchError::StaleStatement { given: *statement, latest: s.statement });
                }
                Ok(vec![Event::StatementConfirmed { statement: *statement, reasons }, self.final_score()?])
            }
            Command::AdminTimeLossDecision { cancel, reasons } => {
                let reasons = check_reasons("reasons", reasons)?;
                let open = self.referee.time_loss.as_ref().is_some_and(|t| t.cancelled.is_none());
                if !open {
                    return Err(MatchError::NoPendingRequest { what: PendingKind::TimeLossObjection });
                }
                Ok(vec![Event::TimeLossDecided { cancelled: *cancel, reasons }])
            }
            Command::AdminProposeCorrection { correction, reasons } => {
                let reasons = check_reasons("reasons", reasons)?;
                if self.referee.correction.is_none() || self.phase() != RoomPhase::Finished {
                    return Err(MatchError::NoPendingRequest { what: PendingKind::CorrectionRequest });
                }
                self.propose_correction(correction, reasons)
            }
            Command::AdminCloseCorrection { reasons } => {
                let reasons = check_reasons("reasons", reasons)?;
                if self.referee.correction.is_none() {
                    return Err(MatchError::NoPendingRequest { what: PendingKind::CorrectionRequest });
                }
                Ok(vec![Event::CorrectionClosed { reasons }])
            }
            Command::AdminRepair { reasons } => {
                let reasons = check_reasons("reasons", reasons)?;
                let Some(HoldReason::DamagedRecord { seq, .. }) = self.hold() else {
                    return Err(MatchError::NoPendingRequest { what: PendingKind::DamagedRecord });
                };
                Ok(vec![Event::RecordRepaired { resume_after: seq - 1, reasons }])
            }
            Command::AdminDecide { winner, reasons } => {
                let reasons = check_reasons("reasons", reasons)?;
                if matches!(self.phase(), RoomPhase::Open | RoomPhase::Finished | RoomPhase::Cancelled) {
                    return Err(self.wrong_phase(PhaseNeeded::StartedUnfinished));
                }
                Ok(vec![
                    Event::Decided { winner: *winner, reasons },
                    Event::Ended {
                        result: engine::GameResult::Decision { winner: *winner },
                        score: None,
                        statement: None,
                    },
                ])
            }
            Command::AdminOpenAppeal { .. } | Command::AdminDecideAppeal { .. } => self.admin_appeal(cmd, now),
            _ => Err(MatchError::Internal),
        }
    }

    /// 003 §3.2–3.3, §3.6, §8.4: a verdict per chain (alive only with two cited safe spaces
    /// from that chain's candidates, or seki) and per region; a new statement follows and
    /// consents are cleared (003 §4.5). Marks on chains and regions not ruled stay.
    fn ruling(
        &self,
        chains: &[ChainRuling],
        regions: &[RegionRuling],
        reasons: &str,
    ) -> Result<Vec<Event>, MatchError> {
        let reasons = check_reasons("reasons", reasons)?;
        let in_scoring =
            matches!(self.phase, Phase::Scoring(_) | Phase::AwaitingReview(_) | Phase::Held { scoring: Some(_), .. });
        if !in_scoring {
            return Err(self.wrong_phase(PhaseNeeded::ScoringOrHeldInScoring));
        }
        if chains.is_empty() && regions.is_empty() {
            return Err(MatchError::InvalidInput { field: "chains".into(), min: 1, max: usize::MAX, got: 0 });
        }
        let board = self.game.board();
        let an = engine::analysis::Analysis::new(board);
        let mut marks: Vec<Mark> = self.scoring().map(|s| s.marks.clone()).unwrap_or_default();
        let mut seen_chains = Vec::new();
        for r in chains {
            let bad = |why| MatchError::BadRuling { at: r.at, why };
            let p = self.point(r.at)?;
            let chain = an.chain_at(p).ok_or(bad(RulingProblem::NoStone))?;
            if seen_chains.contains(&chain) {
                return Err(bad(RulingProblem::Repeated));
            }
            seen_chains.push(chain);
            let kind = match &r.verdict {
                ChainVerdict::Alive { spaces } => {
                    let candidates = an.life_spaces(chain).spaces;
                    let mut cited: Vec<usize> = Vec::new();
                    for at in spaces {
                        let q = self.point(*at)?;
                        let Some(i) = candidates.iter().position(|c| c.points.contains(&q)) else {
                            return Err(bad(RulingProblem::NotALifeSpace { space: *at }));
                        };
                        if cited.contains(&i) {
                            return Err(bad(RulingProblem::Repeated));
                        }
                        cited.push(i);
                    }
                    if cited.len() < 2 {
                        return Err(bad(RulingProblem::NeedsTwoSafeSpaces {
                            cited: cited.len() as u32,
                            candidates: candidates.len() as u32,
                        }));
                    }
                    None
                }
                ChainVerdict::Seki => None,
                ChainVerdict::Dead => Some(MarkKind::Dead),
                ChainVerdict::Unresolved => Some(MarkKind::Unresolved),
            };
            self.replace_mark(&mut marks, p, r.at, kind);
        }
        let mut seen_regions = Vec::new();
        for r in regions {
            let bad = |why| MatchError::BadRuling { at: r.at, why };
            let p = self.point(r.at)?;
            let region = an.empty_at(p).ok_or(bad(RulingProblem::NotEmpty))?;
            if seen_regions.contains(&region) {
                return Err(bad(RulingProblem::Repeated));
            }
            seen_regions.push(region);
            let kind = match r.verdict {
                RegionVerdict::Neutral => MarkKind::Neutral,
                RegionVerdict::Seki => MarkKind::Seki,
            };
            self.replace_mark(&mut marks, p, r.at, Some(kind));
        }
        let statement = self.statement_event(marks.clone());
        Ok(vec![
            Event::Ruling { marks, reasons, finalize: false, chains: chains.to_vec(), regions: regions.to_vec() },
            statement,
        ])
    }

    /// Drops the mark on `p`'s chain or region and puts the ruling's in its place.
    fn replace_mark(&self, marks: &mut Vec<Mark>, p: engine::Point, at: Xyz, kind: Option<MarkKind>) {
        if let Some(m) = self.mark_on(p, marks) {
            marks.retain(|x| *x != m);
        }
        if let Some(kind) = kind {
            marks.push(Mark { at, kind, by: None });
        }
    }

    /// 003 §4.7: corrected marks are counted into a new statement; a corrected result is
    /// taken as stated. Either applies only after both players consent again.
    fn propose_correction(&self, c: &CorrectionProposal, reasons: String) -> Result<Vec<Event>, MatchError> {
        match c {
            CorrectionProposal::Result { result } => Ok(vec![Event::CorrectionProposed {
                result: *result,
                statement: None,
                marks: None,
                score: None,
                reasons,
            }]),
            CorrectionProposal::Marks { dead, seki, unresolved, neutral } => {
                let mut marks = Vec::new();
                for (list, kind) in [
                    (dead, MarkKind::Dead),
                    (unresolved, MarkKind::Unresolved),
                    (seki, MarkKind::Seki),
                    (neutral, MarkKind::Neutral),
                ] {
                    for at in list {
                        self.check_mark(*at, kind)?;
                        marks.push(Mark { at: *at, kind, by: None });
                    }
                }
                let st = self.score_for(&marks).map_err(|_| MatchError::BadMark {
                    at: marks.first().map_or(Xyz { x: 0, y: 0, z: 0 }, |m| m.at),
                    why: wire::commands::MarkProblem::MarkedOtherwise { kind: MarkKind::Dead, by: None },
                })?;
                let summary = super::scoring::summary(self.game.geometry(), &st);
                Ok(vec![Event::CorrectionProposed {
                    result: st.result,
                    statement: Some(self.next_statement),
                    marks: Some(marks),
                    score: Some(Box::new(summary)),
                    reasons,
                }])
            }
        }
    }
}
