//! Sentences for people, all from the i18n catalogue (`app/locales/`): results, the agreed
//! settings, durations. The stored log and the wire carry codes and numbers only; the UI and
//! the record download render them here, in the reader's language.

pub mod calendar;
mod errors;
pub mod learning;
mod result;
mod settings;

pub use errors::{app_error, match_error};
pub use result::{listed_result, result};
pub use settings::{
    computer_name, computer_name_short, ko_rule, listing_rules, play_summary, problem as settings_problem,
    settings_summary, time_control,
};

use crate::i18n::Lang;

/// A catalogue entry in `lang`.
pub use crate::i18n::text as t;

/// A server time's date, `YYYY-MM-DD` (UTC, the same on the server and in the browser).
pub fn date(ms: i64) -> String {
    calendar::date_time(ms).0
}

/// A catalogue entry with `%{name}` parameters, filled by rust-i18n's own substitution.
pub fn t_with(lang: Lang, key: &str, params: &[(&str, &str)]) -> String {
    let (names, values): (Vec<&str>, Vec<String>) = params.iter().map(|(n, v)| (*n, v.to_string())).unzip();
    rust_i18n::replace_patterns(&t(lang, key), &names, &values)
}

/// A mode's mark in lists, results and records (003 §11.1).
pub fn mode_tag(lang: Lang, tag: wire::mode::ModeTag) -> String {
    use wire::mode::ModeTag;
    t(
        lang,
        match tag {
            ModeTag::Match => "mode.tag.match",
            ModeTag::OneDevice => "mode.tag.one_device",
            ModeTag::Practice => "mode.tag.practice",
            ModeTag::VsComputer => "mode.tag.vs_computer",
            ModeTag::ProgramMatch => "mode.tag.program_match",
        },
    )
}

/// 흑 / Black.
pub fn colour(lang: Lang, c: engine::Color) -> String {
    t(
        lang,
        match c {
            engine::Color::Black => "colour.black",
            engine::Color::White => "colour.white",
        },
    )
}

/// `90` → "1 min 30 s" / "1분 30초"; `3600` → "1 h" / "1시간".
pub fn duration(lang: Lang, s: u32) -> String {
    let (h, m, sec) = (s / 3600, (s % 3600) / 60, s % 60);
    let mut parts = Vec::new();
    let n = |v: u32| v.to_string();
    if h > 0 {
        parts.push(t_with(lang, "dur.h", &[("n", &n(h))]));
    }
    if m > 0 {
        parts.push(t_with(lang, "dur.min", &[("n", &n(m))]));
    }
    if sec > 0 || parts.is_empty() {
        parts.push(t_with(lang, "dur.s", &[("n", &n(sec))]));
    }
    parts.join(" ")
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use engine::{Color, GameResult, IllegalKind, ScoringMethod};
    use wire::commands::*;
    use wire::events::{FaultCause, MarkKind, Xyz};
    use wire::settings::MatchSettings;

    /// Every key of the catalogue (those of the fallback language, which every language has).
    fn keys() -> Vec<String> {
        let english = crate::_rust_i18n_backend().messages_for_locale(Lang::DEFAULT.code()).unwrap_or_default();
        english.into_iter().map(|(k, _)| k.into_owned()).collect()
    }

    /// What the app renders from codes: every result, the default settings of both presets,
    /// one of each refusal (with every sub-reason).
    fn samples(lang: Lang) -> Vec<String> {
        let at = Xyz { x: 1, y: 2, z: 3 };
        let mut out = Vec::new();
        for r in [
            GameResult::from_totals(ScoringMethod::Territory, 9, 2),
            GameResult::from_totals(ScoringMethod::Area, 1, 4),
            GameResult::from_totals(ScoringMethod::Space, 3, 3),
            GameResult::resignation(Color::Black),
            GameResult::time_loss(Color::White),
            GameResult::DrawAgreed,
            GameResult::Repetition,
            GameResult::Decision { winner: Some(Color::Black) },
            GameResult::Decision { winner: None },
            GameResult::Void,
        ] {
            out.push(result(lang, &r));
        }
        out.extend(settings_summary(lang, &MatchSettings::space_default()));
        out.extend(settings_summary(lang, &MatchSettings::classic_default(19)));
        let mut errors = vec![
            MatchError::RoomNotFound,
            MatchError::BadInviteCode,
            MatchError::SeatTaken,
            MatchError::AlreadySeated,
            MatchError::ByInvitationOnly,
            MatchError::NotTheCreator,
            MatchError::NotAPlayer,
            MatchError::AdminOnly,
            MatchError::AlreadyDone,
            MatchError::RecordNotAllowed,
            MatchError::UnknownUser { username: "dave".into() },
            MatchError::Internal,
            MatchError::ServedElsewhere { retry_after_s: 2 },
            MatchError::DatabaseUnavailable { retry_after_s: 1 },
            MatchError::NotYourTurn { to_move: Color::White },
            MatchError::AwaitingAcknowledgement { colour: Color::Black, move_number: 3 },
            MatchError::NothingToAcknowledge { move_number: 4 },
            MatchError::OffBoard { at, x_range: "1..9".into(), y_range: "1..9".into(), z_range: "1..1".into() },
            MatchError::TimeExpired { colour: Color::Black },
            MatchError::NotYourMark { at },
            MatchError::StaleStatement { given: 1, latest: 2 },
            MatchError::InvalidInput { field: "reasons".into(), min: 1, max: 2000, got: 0 },
            MatchError::Suspended { colour: Color::White, cause: FaultCause::Disconnected },
            MatchError::Suspended { colour: Color::White, cause: FaultCause::AcknowledgementTimeout },
        ];
        for reason in [
            IllegalKind::Occupied,
            IllegalKind::Suicide,
            IllegalKind::Repetition,
            IllegalKind::Superko,
            IllegalKind::UndoRepetition,
            IllegalKind::Ko,
            IllegalKind::OffBoard,
            IllegalKind::NotYourTurn,
            IllegalKind::NotInPlay,
        ] {
            errors.push(MatchError::Illegal { at, reason });
        }
        use PhaseNeeded as P;
        for needed in [
            P::Open,
            P::BothSeated,
            P::WaitingReady,
            P::Started,
            P::StartedUnfinished,
            P::StartedNotHeld,
            P::Playing,
            P::Scoring,
            P::ScoringOrHeldInScoring,
            P::ClassicScoring,
            P::Held,
        ] {
            errors.push(MatchError::WrongPhase { phase: RoomPhase::Finished, needed });
        }
        use UndoRefusal as U;
        for why in [
            U::InScoring,
            U::OffInThisMatch,
            U::AllUsed { allowance: 3 },
            U::AlreadyPending,
            U::NoMove,
            U::PassCannotBeUndone,
            U::AlreadyRefused,
        ] {
            errors.push(MatchError::UndoNotAllowed { why });
        }
        for why in [
            DrawRefusal::OffInThisMatch,
            DrawRefusal::OfferPending { by: Color::Black },
            DrawRefusal::TooSoon { needed: 5, so_far: 2 },
        ] {
            errors.push(MatchError::DrawOfferNotAllowed { why });
        }
        use PendingKind as K;
        for what in
            [K::UndoFromOpponent, K::OwnUndo, K::OwnScoringRequest, K::DrawFromOpponent, K::OwnDrawOffer, K::OwnConsent]
        {
            errors.push(MatchError::NoPendingRequest { what });
        }
        for why in [
            MarkProblem::NoStone,
            MarkProblem::NotEmpty,
            MarkProblem::NothingMarked,
            MarkProblem::MarkedOtherwise { kind: MarkKind::Dead, by: Some(Color::White) },
            MarkProblem::MarkedOtherwise { kind: MarkKind::Seki, by: None },
        ] {
            errors.push(MatchError::BadMark { at, why });
        }
        out.extend(errors.iter().map(|e| match_error(lang, e)));
        out
    }

    #[test]
    fn no_rendered_text_is_a_catalogue_key_a_placeholder_or_empty() {
        let keys = keys();
        assert!(keys.len() > 200, "{} keys found", keys.len());
        for lang in Lang::all() {
            for text in samples(lang) {
                assert!(!text.trim().is_empty(), "{lang:?}: empty text");
                assert!(!text.contains("%{"), "{lang:?}: unfilled parameter in {text:?}");
                for k in &keys {
                    assert!(!text.contains(k), "{lang:?}: {text:?} shows the key {k}");
                }
                // A key missing from the catalogue comes back as itself (`error.undo.no_move`).
                let key_like = |w: &str| {
                    let w = w.trim_end_matches(['.', ',', ';', ':', ')']);
                    w.contains('.') && w.chars().all(|c| c.is_ascii_lowercase() || c == '_' || c == '.')
                };
                assert!(!text.split_whitespace().any(key_like), "{lang:?}: {text:?} looks like a missing key");
            }
        }
        // The languages really differ (no silent fallback to one of them).
        assert_ne!(samples(Lang::KO), samples(Lang::EN));
    }

    /// In the pseudo-locale, every word of a result, a settings summary and a refusal is
    /// bracketed: nothing is written outside the catalogue, so a third language's file is all
    /// a third language needs. (The room itself: `pages::room::tests`.)
    #[test]
    fn a_pseudo_locale_renders_results_settings_and_refusals_from_its_catalogue_alone() {
        let qps = crate::i18n::pseudo::QPS;
        for text in samples(qps) {
            assert_eq!(outside_catalogue(&text), "", "{text:?} has words from outside the catalogue");
        }
    }

    /// The account and request errors a page shows. Those with the server's own words in
    /// them (an invalid field's `why`, the API's refusals) come last, after `WORDED`.
    fn app_errors() -> Vec<crate::AppError> {
        use crate::{error::InputProblem, AppError as E};
        vec![
            E::BadCredentials,
            E::NotSignedIn,
            E::Forbidden,
            E::BadSetupToken,
            E::NoAccount { id: 7 },
            E::NoPlayer { username: "dave".into() },
            E::LastAdministrator,
            E::AccountDisabled,
            E::BadResetLink,
            E::Throttled { retry_after_s: 90 },
            E::Busy { waiting: 64, limit: 64, retry_after_s: 1 },
            E::DatabaseUnavailable { retry_after_s: 1 },
            E::NoSgf,
            E::Internal,
            E::Transport("offline".into()),
            E::Match(MatchError::SeatTaken),
            E::input("username", InputProblem::Length { min: 3, max: 32, got: 2 }),
            E::input("username", InputProblem::Characters { found: '!' }),
            E::input("password_again", InputProblem::PasswordsDiffer),
            E::input("username", InputProblem::Taken),
            E::input("current_password", InputProblem::WrongPassword),
            E::input("reasons", InputProblem::Unchanged),
            E::input("name", InputProblem::Length { min: 1, max: 60, got: 61 }),
            E::input("description", InputProblem::Length { min: 1, max: 2000, got: 0 }),
            E::input("evidence", InputProblem::Length { min: 1, max: 2000, got: 0 }),
            E::ReportRefused { why: wire::conduct::ReportRefusal::NotAViewer },
            E::ReportRefused { why: wire::conduct::ReportRefusal::Yourself },
            E::ReportRefused { why: wire::conduct::ReportRefusal::NoPerson },
            E::ReportRefused { why: wire::conduct::ReportRefusal::NotASpectator { username: "kim".into() } },
            E::ReportRefused { why: wire::conduct::ReportRefusal::NoSuchEvent { max: 9 } },
            E::NoReportCase { id: 3 },
            E::NoRulesVersion { version: 9, current: 2 },
            E::NotAClause { clause: "003 §99".into(), version: 2 },
            E::NotARuling { room_id: 4, seq: 12 },
            E::input("retention_days", InputProblem::Range { min: 0, max: 36_500, got: 40_000 }),
            E::Match(MatchError::RecordDeleted { at_ms: 1_800_000_000_000 }),
            // WORDED: from here on the text carries the server's English words.
            E::invalid("after", "must be a number"),
            E::BodyTooLarge { limit_bytes: 65536 },
        ]
    }
    const WORDED: usize = 33;

    #[test]
    fn account_errors_read_in_every_language() {
        use crate::error::InputProblem;
        let keys = keys();
        for lang in Lang::all() {
            for e in app_errors() {
                let text = app_error(lang, &e);
                assert!(!text.trim().is_empty() && !text.contains("%{"), "{lang:?}: {e:?} → {text:?}");
                assert!(!keys.iter().any(|k| text.contains(k.as_str())), "{lang:?}: {text:?} shows a key");
            }
        }
        assert_eq!(app_error(Lang::KO, &crate::AppError::BadCredentials), "사용자 이름이나 비밀번호가 틀렸습니다");
        assert_eq!(
            app_error(Lang::EN, &crate::AppError::Throttled { retry_after_s: 90 }),
            "Too many sign-in attempts; try again in 1 min 30 s"
        );
        let short = crate::AppError::input("username", InputProblem::Length { min: 3, max: 32, got: 2 });
        assert_eq!(app_error(Lang::KO, &short), "아이디: 3–32자여야 합니다 (지금 2자)");
        assert_eq!(app_error(Lang::EN, &short), "User name: must be 3–32 characters, got 2");
        // Programs get the same sentence in English as `detail.why`, and the typed problem.
        let body = short.body();
        assert_eq!(body.detail["why"], "must be 3–32 characters, got 2");
        assert_eq!(body.detail["problem"]["kind"], "length");
        let qps = crate::i18n::pseudo::QPS;
        for e in &app_errors()[..WORDED] {
            let text = app_error(qps, e);
            assert_eq!(outside_catalogue(&text), "", "{e:?}: {text:?} has words from outside the catalogue");
        }
    }

    /// The words of `text` outside pseudo-locale brackets (letters only: numbers, points and
    /// punctuation are data).
    pub(crate) fn outside_catalogue(text: &str) -> String {
        use crate::i18n::pseudo::{CLOSE, OPEN};
        let mut depth = 0u32;
        let mut out = String::new();
        for c in text.chars() {
            match c {
                OPEN => depth += 1,
                CLOSE => depth = depth.saturating_sub(1),
                c if depth == 0 && c.is_alphabetic() => out.push(c),
                _ if depth == 0 && !out.is_empty() && !out.ends_with(' ') => out.push(' '),
                _ => {}
            }
        }
        out.trim().to_string()
    }
}
