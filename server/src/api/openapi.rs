//! The OpenAPI document of the participant API, derived from the handlers' `#[utoipa::path]`
//! and the wire types' `ToSchema`. What is written here is only what the types cannot say:
//! the title, the session cookie, and the reusable error answers.

use app::ErrorBody;
use utoipa::{
    openapi::{
        schema::{AdditionalProperties, Schema},
        security::{ApiKey, ApiKeyValue, SecurityScheme},
        OpenApi, RefOr,
    },
    Modify, OpenApi as _,
};

pub(super) use answers::*;

#[derive(utoipa::OpenApi)]
#[openapi(
    info(
        title = "Space Baduk participant API",
        version = "1.0.0",
        description = "Play and follow Space Baduk matches from a program. Sign in with `POST /api/v1/session`; \
            the session cookie `sb_session` authenticates the other calls. Browsers' cross-site requests are \
            refused (Origin / Sec-Fetch-Site). Every refusal is JSON `{error, message, detail}`: `error` is a \
            stable code, `detail` an object with the error's fields; 4xx are the caller's mistakes, 500 a fault \
            whose `detail.correlation_id` names it in the server log (and in the `x-request-id` header), 503 \
            (with `Retry-After`) a request the server could not take just now and that may be sent again: \
            `database_unavailable` on any route, and the route's own reasons where it lists them."
    ),
    components(
        schemas(ErrorBody),
        responses(
            answers::BadRequest, answers::NotSignedIn, answers::NotAllowed, answers::CrossSite, answers::NoRoom,
            answers::NotNow, answers::TooLarge, answers::NotJson, answers::AgainstTheRules, answers::Throttled, answers::Busy, answers::Elsewhere,
            answers::Unavailable, answers::Fault
        )
    ),
    modifiers(&SessionCookie),
    tags(
        (name = "session", description = "Sign-in: the same session as the web pages"),
        (name = "rooms", description = "Rooms, their commands, state and events (003, 000)"),
        (name = "records", description = "Stored records (003 §8)"),
        (name = "admin", description = "For administrators"),
        (name = "models", description = "The basic computer's models and participant programs (003 §12.5–12.6)"),
        (name = "rules", description = "The common rules' versions and what a new room agrees under (003 §1.3–1.5, §10.1)"),
    )
)]
pub(super) struct ApiDoc;

/// The session cookie as a security scheme (`security(("session" = []))` on the routes).
struct SessionCookie;

impl Modify for SessionCookie {
    fn modify(&self, doc: &mut OpenApi) {
        let scheme = SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
            "sb_session",
            "The session cookie set by POST /api/v1/session",
        )));
        doc.components.get_or_insert_with(Default::default).add_security_scheme("session", scheme);
    }
}

/// The title, tags, scheme and reusable answers, merged with the routes' paths and schemas.
pub(super) fn finish(routes: OpenApi) -> OpenApi {
    let mut doc = ApiDoc::openapi().merge_from(routes);
    deny_unknown_variant_fields(&mut doc);
    unavailable_everywhere(&mut doc);
    doc
}

/// Every route that reads or writes the database may find it unreachable (a restart, a
/// cut-off): each one that can fail with a fault (500) lists `database_unavailable` (503) too,
/// unless it lists its own 503 already (the description above names it for all).
fn unavailable_everywhere(doc: &mut OpenApi) {
    for item in doc.paths.paths.values_mut() {
        let operations = [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.patch,
            &mut item.head,
            &mut item.options,
            &mut item.trace,
        ];
        for op in operations.into_iter().flatten() {
            let answers = &mut op.responses.responses;
            if answers.contains_key("500") && !answers.contains_key("503") {
                answers.insert("503".into(), RefOr::Ref(utoipa::openapi::Ref::from_response_name("Unavailable")));
            }
        }
    }
}

/// The document of the participant API, as served at `/api/openapi.json`.
pub fn openapi() -> OpenApi {
    finish(super::routes().split_for_parts().1)
}

/// utoipa marks `additionalProperties: false` on structs that deny unknown fields, but not
/// on the variants of tagged enums. Every tagged enum on this API refuses unknown fields
/// (commands and settings deny them; responses never carry extra ones), so each object
/// variant says so; the tests check serde refuses an extra field for every command. Not so
/// for an enum flattened into a struct (an `allOf` member): the struct's own fields sit
/// beside the variant's, so there the variants stay open.
fn deny_unknown_variant_fields(doc: &mut OpenApi) {
    let flattened = flattened_schemas(doc);
    let Some(components) = doc.components.as_mut() else { return };
    for (name, schema) in components.schemas.iter_mut() {
        let RefOr::T(Schema::OneOf(one_of)) = schema else { continue };
        if flattened.contains(name) {
            continue;
        }
        for variant in &mut one_of.items {
            if let RefOr::T(Schema::Object(object)) = variant {
                object.additional_properties.get_or_insert_with(|| Box::new(AdditionalProperties::FreeForm(false)));
            }
        }
    }
}

/// Names of the component schemas some `allOf` refers to (`#[serde(flatten)]` fields).
fn flattened_schemas(doc: &OpenApi) -> std::collections::HashSet<String> {
    fn walk(v: &serde_json::Value, in_all_of: bool, found: &mut std::collections::HashSet<String>) {
        match v {
            serde_json::Value::Object(map) => {
                if let (true, Some(serde_json::Value::String(r))) = (in_all_of, map.get("$ref")) {
                    if let Some(name) = r.strip_prefix("#/components/schemas/") {
                        found.insert(name.to_string());
                    }
                }
                for (key, value) in map {
                    walk(value, key == "allOf", found);
                }
            }
            serde_json::Value::Array(items) => items.iter().for_each(|item| walk(item, in_all_of, found)),
            _ => {}
        }
    }
    let mut found = std::collections::HashSet::new();
    if let Ok(v) = serde_json::to_value(doc) {
        walk(&v, false, &mut found);
    }
    found
}

/// The reusable error answers (types for the document only: their field is never read). The
/// codes named are those the route's status can carry.
#[allow(dead_code)]
mod answers {
    use app::ErrorBody;
    use utoipa::ToResponse;

    #[derive(ToResponse)]
    #[response(description = "The request cannot be read or is out of range: `invalid_input` (`detail.field` and \
        `detail.why` name the field and the allowed range), `invalid_json`, `malformed_json`, `bad_request`, `off_board`")]
    pub(crate) struct BadRequest(ErrorBody);

    #[derive(ToResponse)]
    #[response(description = "`not_signed_in`: sign in first")]
    pub(crate) struct NotSignedIn(ErrorBody);

    #[derive(ToResponse)]
    #[response(description = "Not yours to do: `not_a_player`, `admin_only`, `bad_invite_code`, `not_your_mark`, \
        `record_not_allowed`, `cross_site_request`")]
    pub(crate) struct NotAllowed(ErrorBody);

    #[derive(ToResponse)]
    #[response(description = "`cross_site_request`: a browser page of another site sent it")]
    pub(crate) struct CrossSite(ErrorBody);

    #[derive(ToResponse)]
    #[response(description = "`room_not_found`")]
    pub(crate) struct NoRoom(ErrorBody);

    #[derive(ToResponse)]
    #[response(description = "Not possible now: `wrong_phase`, `not_your_turn`, `awaiting_acknowledgement`, \
        `nothing_to_acknowledge`, `seat_taken`, `already_seated`, `already_done`, `suspended`, `time_expired`, \
        `undo_not_allowed`, `draw_offer_not_allowed`, `no_pending_request`, `stale_statement`")]
    pub(crate) struct NotNow(ErrorBody);

    #[derive(ToResponse)]
    #[response(description = "`body_too_large`: the body is over `detail.limit_bytes` (65536) bytes")]
    pub(crate) struct TooLarge(ErrorBody);

    #[derive(ToResponse)]
    #[response(description = "`content_type`: send `Content-Type: application/json`")]
    pub(crate) struct NotJson(ErrorBody);

    #[derive(ToResponse)]
    #[response(description = "Against the rules: `illegal` (the move is recorded as an illegal attempt; \
        `detail.reason` says why), `bad_mark`, or `unknown_user` (a record-viewer approval's `detail.username` \
        is nobody's user name)")]
    pub(crate) struct AgainstTheRules(ErrorBody);

    #[derive(ToResponse)]
    #[response(
        description = "`throttled`: too many failed sign-ins for this name or address",
        headers(("Retry-After" = u64, description = "Seconds to wait before the next attempt"))
    )]
    pub(crate) struct Throttled(ErrorBody);

    #[derive(ToResponse)]
    #[response(
        description = "`busy`: too many passwords are being checked at once, by sign-ins, sign-ups and \
        password changes (`detail.waiting`, `detail.limit`)",
        headers(("Retry-After" = u64, description = "Seconds to wait before trying again"))
    )]
    pub(crate) struct Busy(ErrorBody);

    #[derive(ToResponse)]
    #[response(
        description = "`served_elsewhere`: another server instance owns the room (issue 15 §3); ask again \
        after `detail.retry_after_s`",
        headers(("Retry-After" = u32, description = "Seconds to wait before asking again"))
    )]
    pub(crate) struct Elsewhere(ErrorBody);

    #[derive(ToResponse)]
    #[response(
        description = "`database_unavailable`: the database does not answer just now (restarting, \
        unreachable); the request was not acknowledged (it may or may not have been stored): read the state \
        and ask again after `detail.retry_after_s`",
        headers(("Retry-After" = u64, description = "Seconds to wait before asking again"))
    )]
    pub(crate) struct Unavailable(ErrorBody);

    #[derive(ToResponse)]
    #[response(description = "`internal`: a fault on the server; `detail.correlation_id` names it in the log")]
    pub(crate) struct Fault(ErrorBody);
}
