//! The one error type of every server function and of the participant API, so the UI and
//! programs can tell a caller's mistake (bad input, wrong password, not your turn) from an
//! internal fault or a lost connection.
//!
//! On the wire every error is `{"error": code, "message": text, "detail": {fields}}` with the
//! status of [`AppError::status`]: 4xx for the caller's mistakes, 503 when the server sheds
//! load it could not bear (`busy`), 500 only for faults (their `detail` carries the
//! `correlation_id` that the server log shows with the fault).

use leptos::server_fn::{
    codec::JsonEncoding,
    error::{FromServerFnError, ServerFnErrorErr},
};
use serde::{Deserialize, Serialize};

use wire::commands::MatchError;

mod decode;

// `remote = "Self"` derives `AppError::serialize` as an *inherent* function giving the tagged
// form `{"error": code, ..fields}`, which `decode` reads back; the `Serialize`/`Deserialize`
// trait impls below wrap it into [`ErrorBody`]. Outside this file use the traits (serde_json).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, strum::EnumDiscriminants, thiserror::Error)]
#[serde(remote = "Self", tag = "error", rename_all = "snake_case")]
// Read by hand (`decode`), not by serde's derive: a smaller browser bundle.
#[strum_discriminants(
    name(AppErrorCode),
    derive(strum::EnumString, strum::VariantNames, strum::EnumIter),
    strum(serialize_all = "snake_case")
)]
pub enum AppError {
    /// A field was missing or out of range; `problem` names the allowed range (the wire's
    /// `detail.why` is its English sentence, for programs that print it).
    #[error("{field}: {problem}")]
    InvalidInput { field: String, problem: InputProblem },
    /// The request body is not JSON at all.
    #[error("malformed JSON: {why}")]
    MalformedJson { why: String },
    /// The body is JSON but not of the expected shape (unknown or missing field, wrong type).
    #[error("unexpected JSON: {why}")]
    InvalidJson { why: String },
    /// A form, path or query the endpoint cannot read.
    #[error("malformed request: {why}")]
    BadRequest { why: String },
    #[error("wrong user name or password")]
    BadCredentials,
    #[error("you must be signed in to do this")]
    NotSignedIn,
    #[error("you are not allowed to do this")]
    Forbidden,
    #[error("the setup link is invalid or has already been used")]
    BadSetupToken,
    /// A browser request that another site started (Origin / Sec-Fetch-Site).
    #[error("{why}")]
    CrossSiteRequest { why: String },
    #[error("the request body is larger than {limit_bytes} bytes")]
    BodyTooLarge { limit_bytes: u64 },
    #[serde(rename = "content_type")]
    #[strum_discriminants(strum(serialize = "content_type"))]
    #[error("send Content-Type: {expected}")]
    UnsupportedMediaType { expected: String },
    #[error("SGF exists only for flat boards (depth 1); use the JSON record")]
    NoSgf,
    /// No route of the participant API has this path.
    #[error("no such API route: {path}; the routes are in /api/openapi.json")]
    NoRoute { path: String },
    #[error("{method} is not a method of this route; the routes are in /api/openapi.json")]
    MethodNotAllowed { method: String },
    #[error("too many sign-in attempts; try again in {retry_after_s} s")]
    Throttled { retry_after_s: u64 },
    /// Too many passwords are being checked at once (each takes ~19 MiB and a core for a
    /// moment): the request is refused rather than queued without bound.
    #[error(
        "the server is checking {waiting} passwords already (at most {limit} wait); try again in {retry_after_s} s"
    )]
    Busy { waiting: u64, limit: u64, retry_after_s: u64 },
    /// The database does not answer just now (restarting, unreachable, out of connections):
    /// nothing of the request was acknowledged; ask again.
    #[error("the database cannot be reached just now; try again in {retry_after_s} s")]
    DatabaseUnavailable { retry_after_s: u64 },
    /// The administrator's queue has no such item (it may have been decided meanwhile).
    #[error("room {room_id} has no open {kind:?} item in the queue")]
    NoQueueItem { room_id: i64, kind: wire::referee::QueueKind },
    /// Another administrator already handles the item.
    #[error("{by} already handles this item")]
    ClaimedByOther { by: String },
    /// No stored model has this id (003 §12.5).
    #[error("there is no model {id}")]
    NoModel { id: i64 },
    /// No program match has this id (003 §12.4).
    #[error("there is no program match {id}")]
    NoProgramMatch { id: i64 },
    /// No account has this id.
    #[error("there is no account {id}")]
    NoAccount { id: i64 },
    /// No account has this name (a profile asked for by name).
    #[error("there is no player named {username}")]
    NoPlayer { username: String },
    /// The one administrator who can still act cannot lose the role or be disabled.
    #[error("the last active administrator cannot be demoted or disabled; promote another account first")]
    LastAdministrator,
    /// An administrator disabled this account: it cannot sign in or act.
    #[error("this account is disabled")]
    AccountDisabled,
    #[error("the password-reset link is invalid, used or expired; ask an administrator for a new one")]
    BadResetLink,
    /// A model file refused on import: `field` is the JSON path of what is wrong (003 §12.6).
    #[error("model file: {field}: {why}")]
    BadModelFile { field: String, why: String },
    /// The participant program cannot be made: this installation lacks its engine (built by
    /// `scripts/build-participant.sh` beside the site root).
    #[error("the participant program's engine is not installed at {path}")]
    ParticipantUnavailable { path: String },
    /// Training refused before it starts (003 §12.2–12.3), e.g. fewer than two eligible games.
    #[error("training: {why}")]
    TrainingRefused { why: wire::learning::TrainingRefusal },
    /// A report refused (003 §6.4): who may report, about whom, at which event.
    #[error("report not possible: {why:?}")]
    ReportRefused { why: wire::conduct::ReportRefusal },
    /// No report case has this id, or it is already decided.
    #[error("there is no open report case {id}")]
    NoReportCase { id: i64 },
    /// The common rules have no such version (003 §1.5).
    #[error("there is no common-rules version {version}; the current one is {current}")]
    NoRulesVersion { version: u32, current: u32 },
    /// A precedent names a clause the current common rules do not have (003 §1.5).
    #[error("{clause:?} is not a clause of common-rules version {version}; cite one as \"003 §3.6\"")]
    NotAClause { clause: String, version: u32 },
    /// A precedent names a ruling that is not an administrator's action in that room.
    #[error("room {room_id} has no administrator's ruling at event {seq}")]
    NotARuling { room_id: i64, seq: i64 },
    /// A match command refused by the rules of the match procedure.
    #[serde(skip)]
    #[error(transparent)]
    Match(#[from] MatchError),
    /// Something failed on the server; details are in the server log, never sent out.
    #[error("internal server error")]
    Internal,
    /// The request never got a proper answer (network, encoding). Made by the browser only.
    #[serde(skip)]
    #[error("request failed: {0}")]
    Transport(String),
}

/// What is wrong with a field, as data, so that each reader's language can say it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, strum::EnumDiscriminants, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
// Read by hand (`decode`), not by serde's derive: a smaller browser bundle.
#[strum_discriminants(
    name(InputProblemCode),
    derive(strum::EnumString, strum::VariantNames, strum::EnumIter),
    strum(serialize_all = "snake_case")
)]
pub enum InputProblem {
    /// A text of `got` characters where `min..=max` are allowed.
    #[error("must be {min}–{max} characters, got {got}")]
    Length { min: u64, max: u64, got: u64 },
    /// A user name holds a character other than letters, digits, `_` and `-`.
    #[error("may hold letters, digits, '_' and '-' only; found {found:?}")]
    Characters { found: char },
    #[error("the two passwords differ")]
    PasswordsDiffer,
    #[error("this name is taken")]
    Taken,
    /// The current password, given to change it, is not the account's.
    #[error("is not the account's current password")]
    WrongPassword,
    /// The change asked for is what the account already is.
    #[error("is already so")]
    Unchanged,
    /// A count that must be even, within `min..=max` (a program match's games).
    #[error("must be an even number from {min} to {max}, got {got}")]
    EvenRange { min: u64, max: u64, got: u64 },
    /// A number outside `min..=max`.
    #[error("must be from {min} to {max}, got {got}")]
    Range { min: u64, max: u64, got: u64 },
    /// Said by the server in words (the API's path, query and settings checks).
    #[error("{text}")]
    Words { text: String },
}

/// The JSON body of every error answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ErrorBody {
    /// Stable machine-readable code, e.g. `not_your_turn`, `invalid_input`.
    pub error: String,
    /// What went wrong, for people.
    pub message: String,
    /// The error's fields (e.g. `field`/`why`, `retry_after_s`, `correlation_id`); maybe empty.
    #[serde(default)]
    #[cfg_attr(feature = "ssr", schema(value_type = Object))]
    pub detail: serde_json::Map<String, serde_json::Value>,
}

impl AppError {
    /// An invalid field, said in words (see [`AppError::input`] for the typed problems).
    pub fn invalid(field: &str, why: impl Into<String>) -> Self {
        AppError::input(field, InputProblem::Words { text: why.into() })
    }
    pub fn input(field: &str, problem: InputProblem) -> Self {
        AppError::InvalidInput { field: field.to_string(), problem }
    }

    /// A text field of reasons, evidence or a description: trimmed, 1–2000 characters
    /// (`REASONS_LEN`), or the typed length problem naming `field`.
    pub fn check_text(field: &str, text: &str) -> Result<String, Self> {
        let range = wire::commands::REASONS_LEN;
        let t = text.trim();
        let n = t.chars().count();
        if range.contains(&n) {
            return Ok(t.to_string());
        }
        let (min, max) = (*range.start() as u64, *range.end() as u64);
        Err(AppError::input(field, InputProblem::Length { min, max, got: n as u64 }))
    }

    /// The HTTP status of this error's answer.
    pub fn status(&self) -> u16 {
        use AppError::*;
        match self {
            InvalidInput { .. } | MalformedJson { .. } | InvalidJson { .. } | BadRequest { .. } => 400,
            BadCredentials | NotSignedIn => 401,
            Forbidden | BadSetupToken | CrossSiteRequest { .. } | AccountDisabled | BadResetLink => 403,
            BodyTooLarge { .. } => 413,
            UnsupportedMediaType { .. } => 415,
            NoRoute { .. }
            | NoQueueItem { .. }
            | NoModel { .. }
            | NoProgramMatch { .. }
            | NoAccount { .. }
            | NoPlayer { .. } => 404,
            LastAdministrator => 409,
            ReportRefused { why: wire::conduct::ReportRefusal::NotAViewer } => 403,
            ReportRefused { .. } => 422,
            NoReportCase { .. } | NoRulesVersion { .. } => 404,
            NotAClause { .. } | NotARuling { .. } => 422,
            BadModelFile { .. } => 422,
            TrainingRefused { .. } => 409,
            ParticipantUnavailable { .. } => 503,
            ClaimedByOther { .. } => 409,
            MethodNotAllowed { .. } => 405,
            NoSgf => 422,
            Throttled { .. } => 429,
            Busy { .. } | DatabaseUnavailable { .. } => 503,
            Match(m) => match_status(m),
            Internal | Transport(_) => 500,
        }
    }

    /// The wire form (without a correlation id; the HTTP layer adds it to 500s).
    pub fn body(&self) -> ErrorBody {
        let tagged = match self {
            AppError::Match(m) => serde_json::to_value(m),
            AppError::Transport(_) => Ok(serde_json::json!({ "error": "transport" })),
            other => AppError::serialize(other, serde_json::value::Serializer),
        };
        let mut detail = match tagged {
            Ok(serde_json::Value::Object(map)) => map,
            _ => serde_json::Map::new(),
        };
        if let AppError::InvalidInput { problem, .. } = self {
            detail.insert("why".into(), serde_json::Value::String(problem.to_string()));
        }
        let error = match detail.remove("error") {
            Some(serde_json::Value::String(code)) => code,
            _ => "internal".to_string(),
        };
        ErrorBody { error, message: self.to_string(), detail }
    }

    /// Reads an error answer back (the browser's side of [`AppError::body`]).
    pub fn from_body(body: ErrorBody) -> Self {
        let mut tagged = body.detail;
        tagged.insert("error".into(), serde_json::Value::String(body.error.clone()));
        tag_first::from_map::<AppError>(tagged.clone())
            .or_else(|_| tag_first::from_map::<MatchError>(tagged).map(AppError::Match))
            .unwrap_or_else(|_| AppError::Transport(format!("{}: {}", body.error, body.message)))
    }
}

/// Which status each refusal of the match procedure gets.
fn match_status(e: &MatchError) -> u16 {
    use MatchError::*;
    match e {
        RoomNotFound => 404,
        RecordDeleted { .. } => 410,
        UnknownUser { .. } => 422,
        NotAPlayer
        | AdminOnly
        | BadInviteCode
        | ByInvitationOnly
        | NotTheCreator
        | NotYourMark { .. }
        | RecordNotAllowed
        | ViewingRestricted { .. }
        | NotYourSanction { .. } => 403,
        NoSanction { .. } => 404,
        SeatTaken
        | AlreadySeated
        | AlreadyDone
        | WrongPhase { .. }
        | NotYourTurn { .. }
        | AwaitingAcknowledgement { .. }
        | NothingToAcknowledge { .. }
        | Suspended { .. }
        | TimeExpired { .. }
        | UndoNotAllowed { .. }
        | DrawOfferNotAllowed { .. }
        | NoPendingRequest { .. }
        | StaleStatement { .. }
        | ObjectionNotAllowed { .. }
        | RecordDamaged { .. }
        | AppealNotAllowed { .. } => 409,
        OffBoard { .. } | InvalidInput { .. } => 400,
        Illegal { .. } | BadMark { .. } | BadRuling { .. } | BadSanction { .. } => 422,
        ServedElsewhere { .. } | DatabaseUnavailable { .. } => 503,
        Internal => 500,
    }
}

impl Serialize for AppError {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.body().serialize(s)
    }
}

impl<'de> Deserialize<'de> for AppError {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        ErrorBody::deserialize(d).map(AppError::from_body)
    }
}

impl FromServerFnError for AppError {
    type Encoder = JsonEncoding;

    /// On the server these are the caller's unreadable arguments or a framework fault; in
    /// the browser, a request that failed on the way.
    fn from_server_fn_error(value: ServerFnErrorErr) -> Self {
        #[cfg(feature = "ssr")]
        {
            match value {
                ServerFnErrorErr::Args(why) | ServerFnErrorErr::Deserialization(why) => AppError::BadRequest { why },
                ServerFnErrorErr::MissingArg(name) => AppError::BadRequest { why: format!("missing {name}") },
                other => {
                    tracing::error!(error = %other, "server function failed");
                    AppError::Internal
                }
            }
        }
        #[cfg(not(feature = "ssr"))]
        {
            AppError::Transport(value.to_string())
        }
    }
}

#[cfg(feature = "ssr")]
pub use response::{correlation_id, CORRELATION_ID};

#[cfg(feature = "ssr")]
mod response {
    use axum::{
        http::{header, HeaderValue, StatusCode},
        response::{IntoResponse, Response},
        Json,
    };

    use super::AppError;

    tokio::task_local! {
        /// The id of the request being answered, set by the server for each request; logged
        /// with faults and sent in their answers so the two can be matched.
        pub static CORRELATION_ID: String;
    }

    /// The current request's id, or a fresh one outside a request (a fixed word where the
    /// OS has no random source: the fault is still answered).
    pub fn correlation_id() -> String {
        CORRELATION_ID
            .try_with(Clone::clone)
            .unwrap_or_else(|_| getrandom::u64().map_or_else(|_| "unnumbered".to_string(), |n| format!("{n:016x}")))
    }

    impl IntoResponse for AppError {
        fn into_response(self) -> Response {
            let status = StatusCode::from_u16(self.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            let mut body = self.body();
            // A room another instance serves is not a fault (nothing to look up in the log).
            if status.is_server_error() && status != StatusCode::SERVICE_UNAVAILABLE {
                let id = correlation_id();
                tracing::error!(correlation_id = %id, error = ?self, "answered with a server error");
                body.detail.insert("correlation_id".into(), id.into());
            }
            let mut response = (status, Json(body)).into_response();
            if let AppError::Throttled { retry_after_s }
            | AppError::Busy { retry_after_s, .. }
            | AppError::DatabaseUnavailable { retry_after_s } = self
            {
                response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(retry_after_s));
            }
            if let AppError::Match(
                wire::commands::MatchError::ServedElsewhere { retry_after_s }
                | wire::commands::MatchError::DatabaseUnavailable { retry_after_s },
            ) = self
            {
                response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(retry_after_s));
            }
            response
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wire::events::{Colour, Xyz};

    #[test]
    fn every_kind_of_error_round_trips_through_its_body() {
        let at = Xyz { x: 3, y: 3, z: 1 };
        let errors = [
            AppError::invalid("username", "must be 3–32 characters, got 2"),
            AppError::input("username", InputProblem::Length { min: 3, max: 32, got: 2 }),
            AppError::input("username", InputProblem::Characters { found: '!' }),
            AppError::input("password_again", InputProblem::PasswordsDiffer),
            AppError::MalformedJson { why: "EOF".into() },
            AppError::BadCredentials,
            AppError::Throttled { retry_after_s: 4 },
            AppError::Busy { waiting: 64, limit: 64, retry_after_s: 1 },
            AppError::DatabaseUnavailable { retry_after_s: 1 },
            AppError::BodyTooLarge { limit_bytes: 65536 },
            AppError::Internal,
            AppError::Match(MatchError::NotYourTurn { to_move: Colour::White }),
            AppError::Match(MatchError::Illegal { at, reason: engine::IllegalKind::Occupied }),
            AppError::Match(MatchError::RoomNotFound),
        ];
        for e in errors {
            let json = serde_json::to_value(&e).unwrap();
            assert!(json["detail"].is_object(), "{json}");
            assert_eq!(json["message"], e.to_string());
            assert_eq!(serde_json::from_value::<AppError>(json).unwrap(), e);
        }
    }

    #[test]
    fn bodies_carry_the_code_and_the_fields_apart() {
        let body = AppError::Match(MatchError::NotYourTurn { to_move: Colour::White }).body();
        assert_eq!(body.error, "not_your_turn");
        assert_eq!(serde_json::Value::Object(body.detail), serde_json::json!({ "to_move": "white" }));
        let body = AppError::NotSignedIn.body();
        assert_eq!((body.error.as_str(), body.detail.len()), ("not_signed_in", 0));
    }

    #[test]
    fn statuses_separate_mistakes_from_faults() {
        assert_eq!(AppError::BadCredentials.status(), 401);
        assert_eq!(AppError::invalid("x", "y").status(), 400);
        assert_eq!(AppError::Match(MatchError::RoomNotFound).status(), 404);
        assert_eq!(AppError::Match(MatchError::SeatTaken).status(), 409);
        assert_eq!(AppError::Throttled { retry_after_s: 1 }.status(), 429);
        assert_eq!(AppError::Internal.status(), 500);
    }

    #[cfg(feature = "ssr")]
    #[tokio::test]
    async fn faults_answer_500_with_the_requests_correlation_id_and_throttling_names_the_wait() {
        use axum::response::IntoResponse;
        let answer = CORRELATION_ID.scope("0123abcd".into(), async { AppError::Internal.into_response() }).await;
        assert_eq!(answer.status(), 500);
        let body = axum::body::to_bytes(answer.into_body(), 1 << 16).await.unwrap();
        let body: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(body["error"], "internal");
        assert_eq!(body["detail"]["correlation_id"], "0123abcd");
        let answer = AppError::Throttled { retry_after_s: 7 }.into_response();
        assert_eq!((answer.status().as_u16(), answer.headers()["retry-after"].to_str().unwrap()), (429, "7"));
        // A refusal is no fault: nothing to correlate.
        let answer = AppError::NotSignedIn.into_response();
        let body = axum::body::to_bytes(answer.into_body(), 1 << 16).await.unwrap();
        assert_eq!(serde_json::from_slice::<serde_json::Value>(&body).unwrap()["detail"], serde_json::json!({}));
    }

    #[test]
    fn an_unknown_code_is_kept_as_a_transport_error() {
        let e = AppError::from_body(ErrorBody {
            error: "teapot".into(),
            message: "short and stout".into(),
            detail: Default::default(),
        });
        assert_eq!(e, AppError::Transport("teapot: short and stout".into()));
    }
}
