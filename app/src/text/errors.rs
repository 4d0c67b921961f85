//! A refused command as the player reads it (every `MatchError`, from the catalogue).

use super::{colour, t, t_with};
use crate::i18n::Lang;
use wire::commands::{DrawRefusal, MarkProblem, MatchError, ObjectionRefusal, RulingProblem, UndoRefusal};
use wire::conduct::{AppealRefusal, ReportRefusal};

pub fn match_error(lang: Lang, e: &MatchError) -> String {
    let tw = |key: &str, params: &[(&str, &str)]| t_with(lang, key, params);
    let key = |prefix: &str, name: &str| t(lang, &format!("{prefix}.{name}"));
    let xyz = |at: &wire::events::Xyz| at.to_string();
    match e {
        MatchError::Illegal { at, reason } => {
            tw("error.illegal", &[("at", &xyz(at)), ("reason", &key("reason", reason.as_str()))])
        }
        MatchError::OffBoard { x_range, y_range, z_range, .. } => {
            tw("error.off_board", &[("x", x_range), ("y", y_range), ("z", z_range)])
        }
        MatchError::NotYourTurn { .. } => t(lang, "room.opponents_turn"),
        MatchError::AwaitingAcknowledgement { .. } => t(lang, "error.awaiting_ack"),
        MatchError::TimeExpired { .. } => t(lang, "error.time_expired"),
        MatchError::WrongPhase { phase, needed } => tw(
            "error.wrong_phase",
            &[("phase", &key("phase", phase.as_str())), ("needed", &key("error.needed", needed.into()))],
        ),
        MatchError::Suspended { colour: c, cause } => {
            let cause: &str = match cause {
                wire::events::FaultCause::Disconnected => "error.suspended_disconnected",
                wire::events::FaultCause::AcknowledgementTimeout => "error.suspended_no_ack",
            };
            tw(cause, &[("colour", &colour(lang, *c))])
        }
        MatchError::NothingToAcknowledge { move_number } => {
            tw("error.nothing_to_acknowledge", &[("n", &move_number.to_string())])
        }
        MatchError::UndoNotAllowed { why } => match why {
            UndoRefusal::AllUsed { allowance } => tw("error.undo.all_used", &[("n", &allowance.to_string())]),
            other => key("error.undo", other.into()),
        },
        MatchError::DrawOfferNotAllowed { why } => match why {
            DrawRefusal::OfferPending { by } => tw("error.draw.offer_pending", &[("colour", &colour(lang, *by))]),
            DrawRefusal::TooSoon { needed, so_far } => {
                tw("error.draw.too_soon", &[("needed", &needed.to_string()), ("so_far", &so_far.to_string())])
            }
            other => key("error.draw", other.into()),
        },
        MatchError::NoPendingRequest { what } => key("error.pending", what.into()),
        MatchError::BadMark { at, why } => {
            let why = match why {
                MarkProblem::MarkedOtherwise { by: Some(c), .. } => {
                    tw("error.mark.marked_by", &[("colour", &colour(lang, *c))])
                }
                MarkProblem::MarkedOtherwise { by: None, .. } => t(lang, "error.mark.marked_by_ruling"),
                other => key("error.mark", other.into()),
            };
            tw("error.bad_mark", &[("at", &xyz(at)), ("why", &why)])
        }
        MatchError::NotYourMark { at } => tw("error.not_your_mark", &[("at", &xyz(at))]),
        MatchError::StaleStatement { given, latest } => {
            tw("error.stale_statement", &[("given", &given.to_string()), ("latest", &latest.to_string())])
        }
        MatchError::InvalidInput { field, min, max, got } => tw(
            "error.text_length",
            &[("field", field), ("min", &min.to_string()), ("max", &max.to_string()), ("got", &got.to_string())],
        ),
        MatchError::RoomNotFound => t(lang, "error.room_not_found"),
        MatchError::UnknownUser { username } => tw("error.unknown_user", &[("name", username)]),
        MatchError::BadInviteCode => t(lang, "error.bad_invite_code"),
        MatchError::SeatTaken => t(lang, "error.seat_taken"),
        MatchError::AlreadySeated => t(lang, "error.already_seated"),
        MatchError::ByInvitationOnly => t(lang, "error.by_invitation_only"),
        MatchError::NotTheCreator => t(lang, "error.not_the_creator"),
        MatchError::NotAPlayer => t(lang, "error.not_a_player"),
        MatchError::AdminOnly => t(lang, "error.admin_only"),
        MatchError::AlreadyDone => t(lang, "error.already_done"),
        MatchError::RecordNotAllowed => t(lang, "error.record_not_allowed"),
        MatchError::RecordDeleted { at_ms } => t_with(lang, "error.record_deleted", &[("date", &super::date(*at_ms))]),
        MatchError::BadRuling { at, why } => {
            let why = match why {
                RulingProblem::NeedsTwoSafeSpaces { cited, candidates } => tw(
                    "error.ruling.needs_two_safe_spaces",
                    &[("cited", &cited.to_string()), ("candidates", &candidates.to_string())],
                ),
                RulingProblem::NotALifeSpace { space } => {
                    tw("error.ruling.not_a_life_space", &[("space", &xyz(space))])
                }
                other => key("error.ruling", other.into()),
            };
            tw("error.bad_ruling", &[("at", &xyz(at)), ("why", &why)])
        }
        MatchError::ObjectionNotAllowed { why } => match why {
            ObjectionRefusal::TooLate { limit_days } => {
                tw("error.objection.too_late", &[("days", &limit_days.to_string())])
            }
            other => key("error.objection", other.into()),
        },
        MatchError::RecordDamaged { seq } => tw("error.record_damaged", &[("seq", &seq.to_string())]),
        MatchError::ViewingRestricted { sanction } => tw("error.viewing_restricted", &[("n", &sanction.to_string())]),
        MatchError::NoSanction { number } => tw("error.no_sanction", &[("n", &number.to_string())]),
        MatchError::NotYourSanction { number } => tw("error.not_your_sanction", &[("n", &number.to_string())]),
        MatchError::AppealNotAllowed { why } => match why {
            AppealRefusal::TooLate { limit_days, .. } => {
                tw("error.appeal.too_late", &[("days", &limit_days.to_string())])
            }
            other => key("error.appeal", other.into()),
        },
        MatchError::BadSanction { why } => key("error.sanction", why.into()),
        MatchError::ServedElsewhere { retry_after_s } => {
            tw("error.served_elsewhere", &[("wait", &super::duration(lang, *retry_after_s))])
        }
        MatchError::DatabaseUnavailable { .. } => t(lang, "error.database_unavailable"),
        MatchError::Internal => t(lang, "error.internal"),
    }
}

/// Any refusal as a person reads it: match refusals and the account errors from the
/// catalogue. The participant API's own refusals (unreadable JSON, wrong route…) and a
/// problem the server said in words keep its English inside a catalogue sentence.
pub fn app_error(lang: Lang, e: &crate::AppError) -> String {
    use crate::AppError as E;
    match e {
        E::Match(m) => match_error(lang, m),
        E::BadCredentials => t(lang, "error.bad_credentials"),
        E::NotSignedIn => t(lang, "error.not_signed_in"),
        E::Forbidden => t(lang, "error.forbidden"),
        E::BadSetupToken => t(lang, "error.bad_setup_token"),
        E::NoAccount { id } => t_with(lang, "error.no_account", &[("id", &id.to_string())]),
        E::NoPlayer { username } => t_with(lang, "error.no_player", &[("name", username)]),
        E::LastAdministrator => t(lang, "error.last_administrator"),
        E::AccountDisabled => t(lang, "error.account_disabled"),
        E::BadResetLink => t(lang, "error.bad_reset_link"),
        E::Throttled { retry_after_s } => {
            let wait = super::duration(lang, u32::try_from(*retry_after_s).unwrap_or(u32::MAX));
            t_with(lang, "error.throttled", &[("wait", &wait)])
        }
        E::Busy { .. } => t(lang, "error.busy"),
        E::DatabaseUnavailable { .. } => t(lang, "error.database_unavailable"),
        E::NoSgf => t(lang, "error.no_sgf"),
        E::NoQueueItem { .. } => t(lang, "error.no_queue_item"),
        E::ClaimedByOther { by } => t_with(lang, "error.claimed_by_other", &[("by", by)]),
        E::NoModel { id } => t_with(lang, "error.no_model", &[("id", &id.to_string())]),
        E::NoProgramMatch { id } => t_with(lang, "error.no_program_match", &[("id", &id.to_string())]),
        E::BadModelFile { field, why } => t_with(lang, "error.bad_model_file", &[("field", field), ("why", why)]),
        E::ParticipantUnavailable { .. } => t(lang, "error.participant_unavailable"),
        E::TrainingRefused { why } => crate::text::learning::refusal(lang, why),
        E::ReportRefused { why } => match why {
            ReportRefusal::NotASpectator { username } => {
                t_with(lang, "error.report.not_a_spectator", &[("name", username)])
            }
            ReportRefusal::NoSuchEvent { max } => {
                t_with(lang, "error.report.no_such_event", &[("max", &max.to_string())])
            }
            other => t(lang, &format!("error.report.{}", <&str>::from(other))),
        },
        E::NoReportCase { id } => t_with(lang, "error.no_report_case", &[("id", &id.to_string())]),
        E::NoRulesVersion { version, current } => t_with(
            lang,
            "error.no_rules_version",
            &[("version", &version.to_string()), ("current", &current.to_string())],
        ),
        E::NotAClause { clause, version } => {
            t_with(lang, "error.not_a_clause", &[("clause", clause), ("version", &version.to_string())])
        }
        E::NotARuling { room_id, seq } => {
            t_with(lang, "error.not_a_ruling", &[("room", &room_id.to_string()), ("seq", &seq.to_string())])
        }
        E::Internal => t(lang, "error.internal"),
        E::Transport(_) => t(lang, "error.transport"),
        E::InvalidInput { field, problem } => {
            let name = match field.as_str() {
                known @ ("username" | "password" | "password_again" | "name" | "settings" | "room"
                | "current_password" | "reasons" | "description" | "evidence" | "findings") => {
                    t(lang, &format!("field.{known}"))
                }
                other => other.to_string(),
            };
            t_with(lang, "error.invalid_field", &[("field", &name), ("why", &input_problem(lang, problem))])
        }
        other => t_with(lang, "error.request_refused", &[("message", &other.to_string())]),
    }
}

/// What is wrong with a field (the sentence after its name).
fn input_problem(lang: Lang, p: &crate::error::InputProblem) -> String {
    use crate::error::InputProblem as P;
    let n = |v: u64| v.to_string();
    match p {
        P::Length { min, max, got } => {
            t_with(lang, "problem.length", &[("min", &n(*min)), ("max", &n(*max)), ("got", &n(*got))])
        }
        P::Characters { found } => t_with(lang, "problem.characters", &[("found", &format!("{found:?}"))]),
        P::PasswordsDiffer => t(lang, "problem.passwords_differ"),
        P::Taken => t(lang, "problem.taken"),
        P::WrongPassword => t(lang, "problem.wrong_password"),
        P::Unchanged => t(lang, "problem.unchanged"),
        P::EvenRange { min, max, got } => {
            t_with(lang, "problem.even_range", &[("min", &n(*min)), ("max", &n(*max)), ("got", &n(*got))])
        }
        P::Range { min, max, got } => {
            t_with(lang, "problem.range", &[("min", &n(*min)), ("max", &n(*max)), ("got", &n(*got))])
        }
        P::Words { text } => text.clone(),
    }
}
