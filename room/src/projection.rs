//! The room's state as each reader sees it: a viewer's full view, the fields the live stream
//! carries, a line of the lists, and the view at an earlier event of the log. The wire types
//! are the browser's too (`wire::view`, `wire::live_view`, `wire::listing`); making them from
//! the state is the server's alone.

use super::*;
use wire::commands::{Requester, RoomPhase};
use wire::events::{Colour, Event, Seat, StoredEvent};
use wire::listing::{Listing, SeatLabel};
use wire::live_view::LiveFields;
use wire::settings::MatchRules;
use wire::view::{FaultView, Hints, PendingUndo, RecordViewerView, ResultView, RoomView, ScoringView, Suggestions};

impl MatchState {
    /// The hints of the player to move (000 §8.3).
    pub fn hints(&self) -> Hints {
        let s = self;
        let g = &s.game;
        let c = s.to_move();
        let xyz = |p: engine::Point| xyz_of(g.geometry(), p);
        Hints {
            illegal: g.illegal_points(c).into_iter().map(|(p, e)| (xyz(p), e.kind())).collect(),
            atari: if s.rules.atari_warning() {
                g.chains_in_atari(Some(c)).into_iter().map(|a| a.stones.into_iter().map(xyz).collect()).collect()
            } else {
                Vec::new()
            },
        }
    }

    /// The room (`room_id`) as `viewer` sees it at `now`.
    pub fn view(&self, room_id: i64, viewer: Option<&Requester>, now: i64, watchers: usize) -> RoomView {
        let mut v = self.shared_view(room_id, watchers);
        self.personalise(&mut v, viewer, now);
        v
    }

    /// Adds what depends on the viewer and the time to a [`MatchState::shared_view`]: the
    /// viewer's colour, the hints for the player to move (000 §8.3), whether they may read the
    /// stored record (003 §8.1) and the clocks at `now`.
    pub fn personalise(&self, view: &mut RoomView, viewer: Option<&Requester>, now: i64) {
        let s = self;
        let your_colour = viewer.and_then(|v| s.colour_shown_to(v.user_id));
        // 000 §8.3: illegal points and atari warnings only for the player to move.
        let hints = your_colour.filter(|c| s.phase() == RoomPhase::Playing && *c == s.to_move()).map(|_| s.hints());
        view.your_colour = your_colour;
        view.hints = hints;
        view.may_read_record = viewer.is_some_and(|v| s.may_read_record(v));
        view.you_created = viewer.is_some_and(|v| v.user_id == s.created_by);
        view.server_time_ms = now;
        view.clocks = s.clocks.snapshot(now);
    }

    /// Everything that depends only on the room's state and its watcher count, so that one
    /// computation per event serves every viewer (the scoring suggestions are the costly part).
    pub fn shared_view(&self, room_id: i64, watchers: usize) -> RoomView {
        let s = self;
        let g = &s.game;
        let geometry = g.geometry();
        let xyz = |p: engine::Point| xyz_of(geometry, p);
        let stones = geometry.points().filter_map(|p| Some((xyz(p), g.stone_at(p)?))).collect();
        // The fields the live stream also carries, computed in one place.
        let LiveFields {
            version,
            server_time_ms,
            phase,
            to_move,
            move_number,
            last_move,
            captures,
            clocks,
            awaiting_ack,
            undo,
            undos_used,
            scoring_requests,
            draw_offer_by,
            faults,
            hold,
            hold_since_ms,
            attention,
            illegal_attempts,
            last_pass_by,
            hints: _,
        } = s.live_fields(0, false);
        let scoring = s.scoring().map(|sc| {
            let limit_s = match &s.rules {
                // 000 §8.5: the review limit; 003 §10.1: the scoring-wait alert, if agreed.
                MatchRules::Classic(c) => Some(c.scoring_deadline_s()),
                MatchRules::Space(sp) => sp.scoring_wait_s(),
            };
            let deadline_ms = limit_s.map(|l| sc.started_ms + l as i64 * 1000);
            let ownership = s
                .score_for(&sc.marks)
                .map(|st| st.ownership.iter().map(|c| ownership_char(*c)).collect())
                .unwrap_or_default();
            ScoringView {
                statement: sc.statement,
                marks: sc.marks.clone(),
                score: sc.score.clone(),
                consents: sc.consents,
                started_ms: sc.started_ms,
                deadline_ms,
                ownership,
                suggestions: suggestions(g),
            }
        });
        let result = s.ended.as_ref().and_then(|e| match e {
            Event::Ended { result, score, statement } => {
                Some(ResultView { result: *result, score: score.as_deref().cloned(), statement: *statement })
            }
            _ => None,
        });
        RoomView {
            room_id,
            version,
            server_time_ms,
            name: s.name.clone(),
            phase,
            settings: s.settings(),
            seats: [0, 1].map(|i| s.seats[i].as_ref().map(|h| h.name().to_string())),
            confirmed: s.confirmed,
            black: s.holder_of(Colour::Black).map(|h| h.name().to_string()),
            white: s.holder_of(Colour::White).map(|h| h.name().to_string()),
            your_colour: None,
            ready: s.ready_flags(),
            to_move,
            move_number,
            stones,
            last_move,
            captures,
            clocks,
            awaiting_ack,
            undo,
            undos_used,
            scoring_requests,
            draw_offer_by,
            scoring,
            faults,
            hold,
            hold_since_ms,
            attention,
            result,
            illegal_attempts,
            hints: None,
            record_viewers: s
                .record_viewers
                .iter()
                .map(|r| RecordViewerView { username: r.username.clone(), approved: r.approved })
                .collect(),
            may_read_record: false,
            you_created: false,
            last_pass_by,
            watchers,
            referee: s.referee.clone(),
            under_review: s.referee.under_review(),
            present: ByColour::both(false),
        }
    }
}

fn ownership_char(c: engine::scoring::PointClass) -> char {
    use engine::scoring::PointClass::*;
    match c {
        BlackStone => 'b',
        WhiteStone => 'w',
        BlackTerritory => 'B',
        WhiteTerritory => 'W',
        NeutralUnresolved => 'u',
        NeutralSeki => 's',
        NeutralGeneral => 'n',
    }
}

fn suggestions(g: &engine::Game) -> Suggestions {
    let geometry = g.geometry();
    let xyz = |p: engine::Point| xyz_of(geometry, p);
    let board = g.board();
    let an = engine::analysis::Analysis::new(board);
    Suggestions {
        dead: engine::analysis::dead_stone_candidates(board)
            .into_iter()
            .map(|d| d.stones.into_iter().map(xyz).collect())
            .collect(),
        seki: engine::analysis::seki_candidates(board)
            .into_iter()
            .map(|s| s.region.into_iter().map(xyz).collect())
            .collect(),
        life_spaces: an
            .all_life_spaces()
            .into_iter()
            .filter_map(|cs| {
                let first = *an.chains.get(cs.chain)?.stones.first()?;
                Some((xyz(first), cs.spaces.iter().map(|sp| sp.points.iter().map(|p| xyz(*p)).collect()).collect()))
            })
            .collect(),
    }
}

impl MatchState {
    /// The fields the live stream carries at `now` (also what [`MatchState::shared_view`]
    /// shows), with the hints of the player to move when `hints` (and play is on).
    pub fn live_fields(&self, now: i64, hints: bool) -> LiveFields {
        let s = self;
        let g = &s.game;
        let geometry = g.geometry();
        let last_move = match g.last_move() {
            Some((_, engine::Move::Place(p))) => Some(xyz_of(geometry, p)),
            _ => None,
        };
        let grace = s.rules.reconnection_wait_s() as i64 * 1000;
        LiveFields {
            version: s.version,
            server_time_ms: now,
            phase: s.phase(),
            to_move: s.to_move(),
            move_number: g.move_number(),
            last_move,
            captures: ByColour::from_fn(|c| g.captures(c)),
            clocks: s.clocks.snapshot(now),
            awaiting_ack: s.awaiting_ack,
            undo: s.undo.map(|u| PendingUndo {
                colour: u.colour,
                move_number: u.move_number,
                plies: u.plies,
                expires_at_ms: u.since_ms + UNDO_ANSWER_MS,
            }),
            undos_used: s.undos_used,
            scoring_requests: s.scoring_requests,
            draw_offer_by: s.draw.pending_by,
            faults: s.faults.map(|f| {
                f.map(|f| FaultView { cause: f.cause, since_ms: f.since_ms, wait_ends_at_ms: f.since_ms + grace })
            }),
            hold: s.hold().cloned(),
            hold_since_ms: s.hold_since_ms(),
            attention: s.attention,
            illegal_attempts: s.illegal_attempts,
            last_pass_by: match g.last_move_since_resumption() {
                Some((c, engine::Move::Pass)) => Some(c),
                _ => None,
            },
            hints: (hints && s.phase() == RoomPhase::Playing).then(|| s.hints()),
        }
    }
}

/// Why there is no view of a record at the event asked for.
#[derive(Debug)]
pub enum ReplayedToError {
    /// No event `got` in this log, whose last is `max`.
    NoSuchEvent { got: u64, max: u64 },
    /// The stored log does not replay up to it.
    Damaged(ReplayError),
}

impl MatchState {
    /// The room as it stood after event `seq` of `log` (this room's stored log), seen by
    /// nobody in particular, with the clocks as they read at that event.
    pub fn replayed_to(&self, room_id: i64, log: &[StoredEvent], seq: i64) -> Result<RoomView, ReplayedToError> {
        let last = log.last().map_or(0, |e| e.seq);
        let Some(end) = log.iter().position(|e| e.seq == seq) else {
            let got = u64::try_from(seq).unwrap_or(0);
            let max = u64::try_from(last).unwrap_or(0);
            return Err(ReplayedToError::NoSuchEvent { got, max });
        };
        let at_ms = log[end].at_ms;
        let state = Self::replay(&log[..=end], self.secrets_for_replay()).map_err(ReplayedToError::Damaged)?;
        let mut v = state.shared_view(room_id, 0);
        v.may_read_record = true;
        v.server_time_ms = at_ms;
        v.clocks = state.clocks.snapshot(at_ms);
        Ok(v)
    }
}

impl MatchState {
    /// This room as the lists show it now.
    pub fn listing(&self) -> Listing {
        let settings = self.settings();
        let label = |o: &Occupant| match o {
            Occupant::Person(h) => SeatLabel::Person { username: h.username.clone() },
            Occupant::Guest { name, .. } => SeatLabel::Guest { name: name.clone() },
            Occupant::Computer => SeatLabel::Computer,
        };
        let mut players: Vec<i64> = self.seats.iter().flatten().filter_map(Occupant::account).collect();
        players.sort_unstable();
        players.dedup();
        let mut readers: Vec<i64> =
            self.record_viewers.iter().filter(|v| v.approved.all(|a| *a)).map(|v| v.user_id).collect();
        readers.sort_unstable();
        readers.dedup();
        let playing = matches!(self.phase, Phase::Playing);
        Listing {
            access: settings.access,
            phase: self.phase(),
            seats: [self.seats[0].as_ref().map(label), self.seats[1].as_ref().map(label)],
            black: self.black,
            move_number: self.game.move_number(),
            to_move: playing.then(|| self.to_move()),
            time: settings.time,
            komi_half_points: settings.komi_half_points,
            komi_to: settings.komi_to,
            handicap: settings.handicap,
            scoring: settings.scoring,
            ko: settings.ko,
            waiting_on: self.waiting_on(),
            players,
            readers,
            result: self.result(),
            under_review: self.referee.under_review(),
        }
    }

    /// The accounts whose action the room waits for.
    fn waiting_on(&self) -> Vec<i64> {
        let colours = [Colour::Black, Colour::White];
        let mut who: Vec<i64> = match &self.phase {
            Phase::Open => [Seat::First, Seat::Second]
                .into_iter()
                .filter(|s| !self.confirmed[s.index()] && self.seats.iter().all(Option::is_some))
                .filter_map(|s| self.seats[s.index()].as_ref().and_then(Occupant::account))
                .collect(),
            Phase::WaitingReady(r) => {
                colours.into_iter().filter(|c| !r.ready[*c]).filter_map(|c| self.account_of(c)).collect()
            }
            Phase::Playing => {
                let c = if let Some((c, _)) = self.awaiting_ack {
                    c
                } else if let Some(u) = self.undo {
                    opponent(u.colour)
                } else if let Some(by) = self.draw.pending_by {
                    opponent(by)
                } else {
                    self.to_move()
                };
                self.account_of(c).into_iter().collect()
            }
            Phase::Scoring(s) => colours
                .into_iter()
                .filter(|c| s.consents[*c] != Some(s.statement))
                .filter_map(|c| self.account_of(c))
                .collect(),
            Phase::Held { .. } | Phase::AwaitingReview(_) | Phase::Finished { .. } | Phase::Cancelled => Vec::new(),
        };
        who.sort_unstable();
        who.dedup();
        who
    }
}
