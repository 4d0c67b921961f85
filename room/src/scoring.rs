//! Counting (003 §3.4–3.7, §4.2–4.6; 000 §5.5): marks on whole chains or empty regions,
//! numbered score statements, consents bound to a number, disputes for the administrator,
//! and the Classic way back to play.

use super::{check_reasons, ended, opponent, xyz_of, MatchState};
use wire::commands::{MarkProblem, PendingKind, PhaseNeeded};
use wire::{
    commands::{MatchError, RoomPhase},
    events::{Attention, Colour, Event, HoldReason, Mark, MarkKind, ScoreSummary, SideTotals, Xyz},
    settings::MatchRules,
};

/// The engine's marks for a list of marks in force.
pub(crate) fn engine_marks(g: &engine::Geometry, marks: &[Mark]) -> engine::scoring::ScoringMarks {
    let mut out = engine::scoring::ScoringMarks::default();
    for m in marks {
        let Some(p) = g.index_of(m.at.x, m.at.y, m.at.z) else {
            continue;
        };
        match m.kind {
            MarkKind::Dead => out.dead.push(p),
            MarkKind::Unresolved => out.unresolved.push(p),
            MarkKind::Seki => out.seki.push(p),
            MarkKind::Neutral => out.neutral.push(p),
        }
    }
    out
}

fn side(s: &engine::scoring::SideScore) -> SideTotals {
    SideTotals {
        stones: s.stones,
        territory: s.territory,
        captures: s.captures,
        dead_captured: s.dead_captured,
        bonus: s.bonus,
        komi_half: s.komi.0,
        handicap_compensation_half: s.handicap_compensation.0,
        total_half: s.total.0,
    }
}

pub(crate) fn summary(g: &engine::Geometry, st: &engine::scoring::ScoreStatement) -> ScoreSummary {
    ScoreSummary {
        black: side(&st.black),
        white: side(&st.white),
        neutral: [st.neutral.unresolved, st.neutral.seki, st.neutral.general],
        result: st.result,
        dead_stones: st.dead_stones.iter().map(|p| xyz_of(g, *p)).collect(),
        unresolved_stones: st.unresolved_stones.iter().map(|p| xyz_of(g, *p)).collect(),
    }
}

impl MatchState {
    /// The engine's statement for `marks` (validated when they were made).
    pub(crate) fn score_for(&self, marks: &[Mark]) -> Result<engine::scoring::ScoreStatement, MatchError> {
        engine::scoring::score(&self.game, &engine_marks(self.game.geometry(), marks)).map_err(|e| {
            tracing::error!(error = %e, "marks in force do not score");
            MatchError::Internal
        })
    }

    /// A new statement with the next number; consents given before are void (003 §4.5).
    pub(super) fn statement_event(&self, marks: Vec<Mark>) -> Event {
        let score = match self.score_for(&marks) {
            Ok(st) => summary(self.game.geometry(), &st),
            Err(_) => match self.score_for(&[]) {
                Ok(st) => summary(self.game.geometry(), &st),
                Err(_) => engine_fallback_summary(),
            },
        };
        Event::StatementIssued { number: self.next_statement, marks, score }
    }

    fn require_scoring(&self) -> Result<&super::ScoringState, MatchError> {
        if self.phase() != RoomPhase::Scoring {
            return Err(self.wrong_phase(PhaseNeeded::Scoring));
        }
        if let Some(e) = self.suspension() {
            // 003 §4.6: a disconnection suspends consent processing and finalization.
            return Err(e);
        }
        self.scoring().ok_or(MatchError::Internal)
    }

    /// Checks that `at` can carry a mark of `kind`: a stone for dead/unresolved, an empty
    /// point for seki.
    pub(super) fn check_mark(&self, at: Xyz, kind: MarkKind) -> Result<engine::Point, MatchError> {
        let p = self.point(at)?;
        let stone = self.game.stone_at(p).is_some();
        match kind {
            MarkKind::Dead | MarkKind::Unresolved if !stone => {
                Err(MatchError::BadMark { at, why: MarkProblem::NoStone })
            }
            MarkKind::Seki | MarkKind::Neutral if stone => Err(MatchError::BadMark { at, why: MarkProblem::NotEmpty }),
            _ => Ok(p),
        }
    }

    /// The mark in force on the same chain (stones) or empty region as `p`.
    pub(super) fn mark_on(&self, p: engine::Point, marks: &[Mark]) -> Option<Mark> {
        let board = self.game.board();
        let g = self.game.geometry();
        let same = |q: engine::Point| match (board.chain_head(p), board.chain_head(q)) {
            (Some(a), Some(b)) => a == b,
            (None, None) => {
                let an = engine::analysis::Analysis::new(board);
                an.empty_at(p).is_some() && an.empty_at(p) == an.empty_at(q)
            }
            _ => false,
        };
        marks.iter().find(|m| g.index_of(m.at.x, m.at.y, m.at.z).is_some_and(same)).cloned()
    }

    fn stones_of(&self, p: engine::Point) -> Vec<Xyz> {
        let mut s = self.game.board().chain_stones(p);
        s.sort_unstable();
        s.into_iter().map(|q| self.xyz(q)).collect()
    }

    /// 000 §5.5 step 2: a Classic group — the same-colour stones joined through empty
    /// points and the opponent's stones marked dead — as one stone of each of its chains,
    /// `p`'s chain first.
    pub(super) fn classic_group(&self, p: engine::Point, marks: &[Mark]) -> Vec<engine::Point> {
        let board = self.game.board();
        let g = self.game.geometry();
        let Some(colour) = self.game.stone_at(p) else { return vec![p] };
        let dead_opponent = |q: engine::Point| {
            self.game.stone_at(q).is_some_and(|c| c != colour)
                && self.mark_on(q, marks).is_some_and(|m| m.kind == MarkKind::Dead)
        };
        let mut seen = vec![false; g.len()];
        let mut heads = Vec::new();
        let mut todo = vec![p];
        seen[p.index()] = true;
        while let Some(q) = todo.pop() {
            match self.game.stone_at(q) {
                Some(c) if c == colour => {
                    if let Some(h) = board.chain_head(q) {
                        if !heads.iter().any(|(head, _)| *head == h) {
                            heads.push((h, q));
                        }
                    }
                }
                None => {}
                Some(_) if dead_opponent(q) => {}
                Some(_) => continue,
            }
            for &n in g.neighbours(q) {
                if !seen[n.index()] {
                    seen[n.index()] = true;
                    todo.push(n);
                }
            }
        }
        let first = board.chain_head(p);
        heads.sort_by_key(|(h, _)| Some(*h) != first);
        heads.into_iter().map(|(h, q)| if Some(h) == first { p } else { q }).collect()
    }

    /// Classic marks (000 §5.5 step 2): a stone mark toggles its whole group, one mark per
    /// chain so that counting and statements stay per chain; the same mark again removes it.
    fn classic_mark(
        &self,
        colour: Colour,
        p: engine::Point,
        kind: MarkKind,
        marks: &[Mark],
    ) -> (Vec<Mark>, Vec<Event>) {
        let group =
            if matches!(kind, MarkKind::Dead | MarkKind::Unresolved) { self.classic_group(p, marks) } else { vec![p] };
        let mut now = marks.to_vec();
        let mut events = Vec::new();
        let existing: Vec<Mark> = group.iter().filter_map(|q| self.mark_on(*q, marks)).collect();
        for m in &existing {
            now.retain(|x| x != m);
            events.push(Event::MarkWithdrawn { colour, mark: m.clone() });
        }
        // The tapped chain's mark decides: the same kind again only removes.
        let same_again = self.mark_on(p, marks).is_some_and(|m| m.kind == kind);
        if !same_again {
            for q in group {
                let new = Mark { at: self.xyz(q), kind, by: Some(colour) };
                now.push(new.clone());
                events.push(Event::MarkAdded { colour, mark: new, stones: self.stones_of(q) });
            }
        }
        (now, events)
    }

    pub(super) fn mark(&mut self, colour: Colour, at: Xyz, kind: MarkKind) -> Result<Vec<Event>, MatchError> {
        let marks = self.require_scoring()?.marks.clone();
        let p = self.check_mark(at, kind)?;
        if matches!(self.rules, MatchRules::Classic(_)) {
            let (now, mut events) = self.classic_mark(colour, p, kind, &marks);
            events.push(self.statement_event(now));
            return Ok(events);
        }
        let existing = self.mark_on(p, &marks);
        let mut events = Vec::new();
        let mut now_marks = marks.clone();
        // Space (Classic returned above): 003 §3.5, a mark in force stays until its author
        // withdraws it.
        match existing {
            Some(m) if m.kind == kind => return Err(MatchError::AlreadyDone),
            Some(m) => {
                return Err(MatchError::BadMark { at, why: MarkProblem::MarkedOtherwise { kind: m.kind, by: m.by } });
            }
            None => {
                let new = Mark { at, kind, by: Some(colour) };
                now_marks.push(new.clone());
                events.push(Event::MarkAdded { colour, mark: new, stones: self.stones_of(p) });
            }
        }
        events.push(self.statement_event(now_marks));
        Ok(events)
    }

    pub(super) fn unmark(&mut self, colour: Colour, at: Xyz) -> Result<Vec<Event>, MatchError> {
        let marks = self.require_scoring()?.marks.clone();
        let p = self.point(at)?;
        let m = self.mark_on(p, &marks).ok_or(MatchError::BadMark { at, why: MarkProblem::NothingMarked })?;
        // 003 §3.5: one's own marks only; the opponent's stay. Classic toggles freely.
        if matches!(self.rules, MatchRules::Space(_)) && m.by != Some(colour) {
            return Err(MatchError::NotYourMark { at });
        }
        let rest: Vec<Mark> = marks.into_iter().filter(|x| *x != m).collect();
        Ok(vec![Event::MarkWithdrawn { colour, mark: m }, self.statement_event(rest)])
    }

    pub(super) fn consent(&mut self, colour: Colour, statement: u64) -> Result<Vec<Event>, MatchError> {
        let s = self.require_scoring()?;
        if statement != s.statement {
            return Err(MatchError::StaleStatement { given: statement, latest: s.statement });
        }
        if s.consents[colour] == Some(statement) {
            return Err(MatchError::AlreadyDone);
        }
        let (b, w) = (s.score.black.total_half, s.score.white.total_half);
        let mut events = vec![Event::Consented { colour, statement, black_total_half: b, white_total_half: w }];
        // 003 §4.5: final only when both consent to the same latest statement.
        if s.consents[opponent(colour)] == Some(statement) {
            events.push(self.both_consented(statement)?);
        }
        Ok(events)
    }

    /// Both consented to `statement`: the end, or with review required the administrator's
    /// review first (003 §2.7).
    pub(super) fn both_consented(&self, statement: u64) -> Result<Event, MatchError> {
        match self.rules.review() {
            wire::referee::ReviewPolicy::Required => Ok(Event::ReviewRequested { statement }),
            wire::referee::ReviewPolicy::WhenDisputed => self.final_score(),
        }
    }

    /// The `Ended` event for the statement in force.
    pub(super) fn final_score(&self) -> Result<Event, MatchError> {
        let s = self.scoring().ok_or(MatchError::Internal)?;
        let st = self.score_for(&s.marks)?;
        Ok(ended(&st.result, Some((s.statement, summary(self.game.geometry(), &st)))))
    }

    pub(super) fn withdraw_consent(&mut self, colour: Colour) -> Result<Vec<Event>, MatchError> {
        // 003 §4.6: until the result is final, also while it waits for review.
        let s = match &self.phase {
            super::Phase::AwaitingReview(s) => s,
            _ => self.require_scoring()?,
        };
        let Some(n) = s.consents[colour] else {
            return Err(MatchError::NoPendingRequest { what: PendingKind::OwnConsent });
        };
        let (b, w) = (s.score.black.total_half, s.score.white.total_half);
        Ok(vec![Event::ConsentWithdrawn { colour, statement: n, black_total_half: b, white_total_half: w }])
    }

    /// 003 §3.6: disagreement holds scoring for the administrator; nothing is removed.
    pub(super) fn dispute(&mut self, colour: Colour, reason: &str) -> Result<Vec<Event>, MatchError> {
        if self.phase() != RoomPhase::Scoring {
            return Err(self.wrong_phase(PhaseNeeded::Scoring));
        }
        let reason = check_reasons("reason", reason)?;
        Ok(vec![
            Event::Held { reason: HoldReason::ScoringDispute { colour, reason } },
            Event::AttentionNeeded { attention: Attention::ScoringDispute },
        ])
    }

    /// Classic 000 §5.5 step 5: marks are dropped and play goes on; the requester's
    /// opponent moves first.
    pub(super) fn continue_play(&mut self, colour: Colour) -> Result<Vec<Event>, MatchError> {
        if !matches!(self.rules, MatchRules::Classic(_)) {
            // 000 §5.5 step 5 is Classic only; in Space, dispute for the administrator (003 §3.6).
            return Err(MatchError::WrongPhase { phase: self.phase(), needed: PhaseNeeded::ClassicScoring });
        }
        self.require_scoring()?;
        Ok(vec![Event::PlayContinued { requested_by: colour }])
    }
}

/// Only reached if even an unmarked board fails to score (a bug, logged above), and as the
/// score of counting just entered, before its first statement.
pub(super) fn engine_fallback_summary() -> ScoreSummary {
    let zero = SideTotals {
        stones: 0,
        territory: 0,
        captures: 0,
        dead_captured: 0,
        bonus: 0,
        komi_half: 0,
        handicap_compensation_half: 0,
        total_half: 0,
    };
    ScoreSummary {
        black: zero,
        white: zero,
        neutral: [0, 0, 0],
        result: engine::GameResult::from_totals(engine::ScoringMethod::Space, 0, 0),
        dead_stones: Vec::new(),
        unresolved_stones: Vec::new(),
    }
}
