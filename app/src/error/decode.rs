//! Reads the app's own errors by value with the `tag_first` crate, as `wire::decode` reads the
//! wire's refusals (which says why): the answer's `{"error": code, ..fields}` and the input
//! problem's `{"kind": ..}`. The tests round-trip every code of the
//! error tree, the wire crate's refusals included.

use tag_first::tag_first;

use super::{AppError, AppErrorCode, InputProblem, InputProblemCode};

tag_first!(by_value InputProblem, InputProblemCode, "kind";
    Length { min, max, got },
    Characters { found },
    PasswordsDiffer, Taken, WrongPassword, Unchanged,
    EvenRange { min, max, got },
    Range { min, max, got },
    Words { text },
);

// `AppError`'s own `Deserialize` reads the `ErrorBody` (see `super`); this is its tagged form.
tag_first!(reader_only AppError, AppErrorCode, "error";
    InvalidInput { field, problem },
    MalformedJson { why },
    InvalidJson { why },
    BadRequest { why },
    BadCredentials, NotSignedIn, Forbidden, BadSetupToken,
    CrossSiteRequest { why },
    BodyTooLarge { limit_bytes },
    UnsupportedMediaType { expected },
    NoSgf,
    NoRoute { path },
    MethodNotAllowed { method },
    Throttled { retry_after_s },
    Busy { waiting, limit, retry_after_s },
    DatabaseUnavailable { retry_after_s },
    NoQueueItem { room_id, kind },
    ClaimedByOther { by },
    NoModel { id },
    NoProgramMatch { id },
    NoAccount { id },
    NoPlayer { username },
    LastAdministrator, AccountDisabled, BadResetLink,
    BadModelFile { field, why },
    ParticipantUnavailable { path },
    TrainingRefused { why },
    ReportRefused { why },
    NoReportCase { id },
    NoRulesVersion { version, current },
    NotAClause { clause, version },
    NotARuling { room_id, seq },
    Internal;
    // Sent under `MatchError`'s codes, or made by the browser only.
    skip Match, Transport
);

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use serde::Serialize;
    use serde_json::json;
    use strum::IntoEnumIterator;

    use super::*;
    use serde_json::Value;
    use tag_first::TagFirst;
    use wire::commands::*;
    use wire::conduct::{AppealRefusal, ReportRefusal, SanctionProblem, SanctionProblemCode};
    use wire::events::{Colour, FaultCause, MarkKind, Xyz};
    use wire::learning::TrainingRefusal;
    use wire::referee::QueueKind;

    /// Every sample reads back as itself from its serialized form, and the samples name every
    /// variant of `T` (so a variant added without a sample fails here).
    fn every_variant_round_trips<T>(samples: &[T], tagged: impl Fn(&T) -> Value)
    where
        T: TagFirst + PartialEq + std::fmt::Debug,
        T::Code: IntoEnumIterator + std::fmt::Debug,
    {
        let mut seen = BTreeSet::new();
        for s in samples {
            let v = tagged(s);
            let map = v.as_object().unwrap_or_else(|| panic!("{s:?} is not an object: {v}"));
            assert_eq!(tag_first::from_map::<T>(map.clone()).ok().as_ref(), Some(s), "{v}");
            seen.insert(format!("{:?}", map[T::TAG].as_str().unwrap().parse::<T::Code>().ok().unwrap()));
        }
        let all: BTreeSet<String> = T::Code::iter().map(|c| format!("{c:?}")).collect();
        let skipped: BTreeSet<String> = all.difference(&seen).cloned().collect();
        assert!(skipped.iter().all(|c| c == "Match" || c == "Transport"), "variants without a sample: {skipped:?}");
    }

    fn json<T: Serialize>(t: &T) -> Value {
        serde_json::to_value(t).unwrap()
    }

    const AT: Xyz = Xyz { x: 3, y: 4, z: 1 };

    #[test]
    fn every_match_error_and_refusal_reads_back() {
        use MatchError::*;
        every_variant_round_trips(
            &[
                RoomNotFound,
                BadInviteCode,
                SeatTaken,
                AlreadySeated,
                ByInvitationOnly,
                NotTheCreator,
                NotAPlayer,
                AdminOnly,
                WrongPhase { phase: RoomPhase::Scoring, needed: PhaseNeeded::StartedNotHeld },
                Suspended { colour: Colour::White, cause: FaultCause::Disconnected },
                AlreadyDone,
                NotYourTurn { to_move: Colour::Black },
                AwaitingAcknowledgement { colour: Colour::White, move_number: 12 },
                NothingToAcknowledge { move_number: 7 },
                OffBoard { at: AT, x_range: "1-19".into(), y_range: "1-19".into(), z_range: "1-1".into() },
                Illegal { at: AT, reason: engine::IllegalKind::Occupied },
                TimeExpired { colour: Colour::Black },
                UndoNotAllowed { why: UndoRefusal::AllUsed { allowance: 2 } },
                DrawOfferNotAllowed { why: DrawRefusal::TooSoon { needed: 50, so_far: 3 } },
                NoPendingRequest { what: PendingKind::OwnDrawOffer },
                BadMark { at: AT, why: MarkProblem::MarkedOtherwise { kind: MarkKind::Seki, by: None } },
                NotYourMark { at: AT },
                StaleStatement { given: 3, latest: 5 },
                InvalidInput { field: "reasons".into(), min: 1, max: 2000, got: 0 },
                UnknownUser { username: "kim".into() },
                RecordNotAllowed,
                RecordDeleted { at_ms: 1_700_000_000_000 },
                BadRuling { at: AT, why: RulingProblem::NotALifeSpace { space: AT } },
                ObjectionNotAllowed { why: ObjectionRefusal::TooLate { limit_days: 7 } },
                RecordDamaged { seq: 41 },
                ViewingRestricted { sanction: 2 },
                NoSanction { number: 9 },
                NotYourSanction { number: 1 },
                AppealNotAllowed { why: AppealRefusal::TooLate { limit_days: 7, until_ms: -5 } },
                BadSanction { why: SanctionProblem::IsAPlayer },
                ServedElsewhere { retry_after_s: 1 },
                DatabaseUnavailable { retry_after_s: 2 },
                Internal,
            ],
            json,
        );
        every_variant_round_trips(
            &[
                RulingProblem::NoStone,
                RulingProblem::NotEmpty,
                RulingProblem::NeedsTwoSafeSpaces { cited: 1, candidates: 3 },
                RulingProblem::NotALifeSpace { space: AT },
                RulingProblem::Repeated,
            ],
            json,
        );
        every_variant_round_trips(
            &[
                ObjectionRefusal::NoRuling,
                ObjectionRefusal::AlreadyObjected,
                ObjectionRefusal::NotATimeLoss,
                ObjectionRefusal::TooLate { limit_days: 7 },
            ],
            json,
        );
        every_variant_round_trips(
            &[
                UndoRefusal::InScoring,
                UndoRefusal::OffInThisMatch,
                UndoRefusal::AllUsed { allowance: 0 },
                UndoRefusal::AlreadyPending,
                UndoRefusal::NoMove,
                UndoRefusal::PassCannotBeUndone,
                UndoRefusal::AlreadyRefused,
            ],
            json,
        );
        every_variant_round_trips(
            &[
                DrawRefusal::OffInThisMatch,
                DrawRefusal::OfferPending { by: Colour::White },
                DrawRefusal::TooSoon { needed: 2, so_far: 1 },
            ],
            json,
        );
        every_variant_round_trips(
            &[
                MarkProblem::NoStone,
                MarkProblem::NotEmpty,
                MarkProblem::MarkedOtherwise { kind: MarkKind::Dead, by: Some(Colour::Black) },
                MarkProblem::NothingMarked,
            ],
            json,
        );
        every_variant_round_trips(
            &[
                AppealRefusal::AlreadyAppealed,
                AppealRefusal::TooLate { limit_days: 7, until_ms: 1 },
                AppealRefusal::UnderReview,
                AppealRefusal::NothingToDecide,
            ],
            json,
        );
        every_variant_round_trips(&sanction_problems(), json);
        every_variant_round_trips(
            &[
                ReportRefusal::NotAViewer,
                ReportRefusal::Yourself,
                ReportRefusal::NotASpectator { username: "lee".into() },
                ReportRefusal::NoPerson,
                ReportRefusal::NoSuchEvent { max: 12 },
            ],
            json,
        );
    }

    /// Unit variants only: one sample per code.
    fn sanction_problems() -> Vec<SanctionProblem> {
        SanctionProblemCode::iter()
            .map(|c| {
                let code: &str = c.into();
                serde_json::from_value::<SanctionProblem>(json!({ "code": code })).expect("a unit variant")
            })
            .collect()
    }

    #[test]
    fn every_app_error_reads_back_from_its_tagged_form_and_its_body() {
        use AppError::*;
        let samples = [
            AppError::input("username", InputProblem::Characters { found: '!' }),
            MalformedJson { why: "EOF".into() },
            InvalidJson { why: "missing field".into() },
            BadRequest { why: "query".into() },
            BadCredentials,
            NotSignedIn,
            Forbidden,
            BadSetupToken,
            CrossSiteRequest { why: "Origin".into() },
            BodyTooLarge { limit_bytes: 65536 },
            UnsupportedMediaType { expected: "application/json".into() },
            NoSgf,
            NoRoute { path: "/api/x".into() },
            MethodNotAllowed { method: "PUT".into() },
            Throttled { retry_after_s: 4 },
            Busy { waiting: 64, limit: 64, retry_after_s: 1 },
            DatabaseUnavailable { retry_after_s: 1 },
            NoQueueItem { room_id: 5, kind: QueueKind::PlayerCall },
            ClaimedByOther { by: "admin".into() },
            NoModel { id: 3 },
            NoProgramMatch { id: 4 },
            NoAccount { id: 6 },
            NoPlayer { username: "park".into() },
            LastAdministrator,
            AccountDisabled,
            BadResetLink,
            BadModelFile { field: "weights[3]".into(), why: "not a number".into() },
            ParticipantUnavailable { path: "/srv/participant.wasm".into() },
            TrainingRefused { why: TrainingRefusal::EpochsOutOfRange { got: 0, min: 1, max: 50 } },
            ReportRefused { why: ReportRefusal::NoSuchEvent { max: 3 } },
            NoReportCase { id: 2 },
            NoRulesVersion { version: 9, current: 2 },
            NotAClause { clause: "§99".into(), version: 1 },
            NotARuling { room_id: 1, seq: 8 },
            Internal,
        ];
        every_variant_round_trips(&samples, |e| AppError::serialize(e, serde_json::value::Serializer).unwrap());
        for e in samples {
            assert_eq!(AppError::from_body(e.body()), e);
        }
        every_variant_round_trips(
            &[
                TrainingRefusal::TooFewGames { have: 1, need: 2 },
                TrainingRefusal::EpochsOutOfRange { got: 51, min: 1, max: 50 },
                TrainingRefusal::AlreadyRunning,
                TrainingRefusal::PauseNotConfirmed { games_in_play: 3 },
                TrainingRefusal::NoPairs,
            ],
            json,
        );
        every_variant_round_trips(
            &[
                InputProblem::Length { min: 3, max: 32, got: 2 },
                InputProblem::Characters { found: '한' },
                InputProblem::PasswordsDiffer,
                InputProblem::Taken,
                InputProblem::WrongPassword,
                InputProblem::Unchanged,
                InputProblem::EvenRange { min: 2, max: 100, got: 3 },
                InputProblem::Range { min: 1, max: 50, got: 0 },
                InputProblem::Words { text: "must be 1-25".into() },
            ],
            json,
        );
    }

    #[test]
    fn every_seat_label_reads_back() {
        use wire::listing::SeatLabel;
        every_variant_round_trips(
            &[
                SeatLabel::Person { username: "kim".into() },
                SeatLabel::Guest { name: "손님".into() },
                SeatLabel::Computer,
            ],
            json,
        );
    }

    #[test]
    fn wrong_objects_are_refused_with_the_type_and_code_named() {
        let refused = |v: Value| serde_json::from_value::<MatchError>(v).unwrap_err().to_string();
        // A field missing, of the wrong type, or out of its type's range; an unknown code.
        assert!(refused(json!({ "error": "not_your_turn" })).contains("MatchError: \"error\" \"not_your_turn\""));
        assert!(refused(json!({ "error": "not_your_turn", "to_move": 1 })).contains("not_your_turn"));
        assert!(refused(json!({ "error": "no_sanction", "number": 4_294_967_296u64 })).contains("no_sanction"));
        assert!(refused(json!({ "error": "teapot" })).contains("teapot"));
        assert!(refused(json!({ "code": "seat_taken" })).contains("MatchError"));
        assert!(refused(json!("seat_taken")).contains("map"));
        assert!(serde_json::from_value::<InputProblem>(json!({ "kind": "characters", "found": "ab" })).is_err());
        // A nested refusal is read by the same hand; an absent optional field is `None`.
        assert_eq!(
            serde_json::from_value::<MatchError>(json!({
                "error": "bad_mark", "at": { "x": 3, "y": 4, "z": 1 },
                "why": { "code": "marked_otherwise", "kind": "dead" }
            }))
            .unwrap(),
            MatchError::BadMark { at: AT, why: MarkProblem::MarkedOtherwise { kind: MarkKind::Dead, by: None } }
        );
        // Fields the variant does not have are ignored, as serde's derive did.
        assert_eq!(
            serde_json::from_value::<UndoRefusal>(json!({ "code": "no_move", "extra": true })).unwrap(),
            UndoRefusal::NoMove
        );
    }
}
