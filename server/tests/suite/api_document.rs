//! The participant API's document, kept as a file (`server/tests/data/openapi.json`): a change
//! to a route or a wire type that changes what programs are told shows here, and is made on
//! purpose — rewrite the file with `SPACE_BADUK_WRITE_OPENAPI=1 cargo test -p server --test
//! suite api_document` and let the diff be read in review. Beside it, the document checked
//! against the running server (every route answers), the command enum, the settings' tagged
//! enums, every kind of result, and the tag-first readers' names.

use serde_json::{json, Value};
use wire::settings::ColourAssignment;

use crate::support::*;
use testclient::{reqwest, tokio_tungstenite};

const KEPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/openapi.json");

/// The first place where `a` and `b` differ, as a JSON path (`None`: they are equal).
fn first_difference(a: &Value, b: &Value, at: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            keys.into_iter().find_map(|k| match (x.get(k), y.get(k)) {
                (Some(p), Some(q)) => first_difference(p, q, &format!("{at}/{k}")),
                (p, _) => Some(format!("{at}/{k} ({})", if p.is_some() { "only now" } else { "only in the file" })),
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            x.iter().zip(y).enumerate().find_map(|(i, (p, q))| first_difference(p, q, &format!("{at}/{i}")))
        }
        _ => (a != b).then(|| format!("{at}: {a} now, {b} in the file")),
    }
}

#[test]
fn the_api_document_is_the_one_kept_in_the_repository() {
    let now = serde_json::to_value(server::api::openapi()).unwrap();
    if std::env::var_os("SPACE_BADUK_WRITE_OPENAPI").is_some() {
        std::fs::write(KEPT, serde_json::to_string_pretty(&now).unwrap() + "\n").unwrap();
        return;
    }
    let kept: Value = serde_json::from_str(&std::fs::read_to_string(KEPT).unwrap()).unwrap();
    if let Some(at) = first_difference(&now, &kept, "") {
        panic!("the API document changed at {at}; if on purpose, rewrite {KEPT} (see this file's comment)");
    }
}

/// The OpenAPI document lists exactly the API's routes, and every documented route answers
/// (nothing documented is missing from the server).
#[tokio::test]
async fn openapi_document_is_in_step_with_the_routes() {
    let dir = tempfile::tempdir().unwrap();
    let srv = Running::start(dir.path()).await;
    let base = srv.base.clone();
    let r = reqwest::get(format!("{base}/api/openapi.json")).await.unwrap();
    assert_eq!(r.status(), 200);
    let doc: Value = r.json().await.unwrap();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    let mut documented: Vec<(String, String)> = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in ["get", "post", "delete", "put", "patch"] {
            if item.get(method).is_some() {
                documented.push((path.clone(), method.to_string()));
            }
        }
    }
    let mut routes: Vec<(String, String)> =
        server::api::ROUTES.iter().flat_map(|(p, ms)| ms.iter().map(move |m| (p.to_string(), m.to_string()))).collect();
    documented.sort();
    routes.sort();
    assert_eq!(documented, routes, "openapi.json and api::ROUTES differ");
    let http = reqwest::Client::new();
    for (path, method) in &routes {
        let url = format!("{base}{}", path.replace("{id}", "1"));
        let req = match method.as_str() {
            "get" => http.get(&url),
            "post" => http.post(&url).json(&json!({})),
            "delete" => http.delete(&url),
            _ => unreachable!(),
        };
        let status = req.send().await.unwrap().status().as_u16();
        assert_ne!(status, 405, "{method} {path} is documented but not served");
        if !path.contains("{id}") {
            assert_ne!(status, 404, "{method} {path} is documented but not served");
        }
    }
    // A cross-site page cannot open the stream (WebSockets are not bound by CORS).
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let alice = Player::sign_up(&base, "alice").await;
    let (_, created) =
        alice.post("/api/v1/rooms", json!({ "name": "r", "settings": classic_9(ColourAssignment::HostBlack) })).await;
    let ws_url = format!("{}/api/v1/rooms/{}/stream", base.replace("http://", "ws://"), created["room_id"]);
    let mut req = ws_url.as_str().into_client_request().unwrap();
    req.headers_mut().insert("origin", "http://evil.example".parse().unwrap());
    match tokio_tungstenite::connect_async(req).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => {
            assert_eq!(resp.status().as_u16(), 403)
        }
        other => panic!("cross-site handshake was not refused: {:?}", other.map(|(_, r)| r.status())),
    }
    let mut req = ws_url.as_str().into_client_request().unwrap();
    req.headers_mut().insert("origin", base.parse().unwrap());
    assert!(tokio_tungstenite::connect_async(req).await.is_ok(), "same-origin handshake accepted");
    srv.stop().await;
}

/// The documented command types are exactly the commands the server accepts, with their
/// fields. `kind_of` has no wildcard arm, so a new command fails to compile until it is
/// added to `SAMPLES` and the document.
#[test]
fn openapi_command_types_match_the_command_enum() {
    use wire::{
        commands::Command,
        events::{MarkKind, Xyz},
        referee::{ChainOpinion, ChainRuling, ChainVerdict, CorrectionProposal, RegionRuling, RegionVerdict},
    };
    fn kind_of(c: &Command) -> usize {
        match c {
            Command::Join { .. } => 0,
            Command::Confirm => 1,
            Command::Ready => 2,
            Command::Move { .. } => 3,
            Command::Acknowledge { .. } => 4,
            Command::Pass => 5,
            Command::Resign => 6,
            Command::RequestUndo => 7,
            Command::AnswerUndo { .. } => 8,
            Command::RequestScoring => 9,
            Command::OfferDraw => 10,
            Command::AnswerDraw { .. } => 11,
            Command::CancelDrawOffer => 12,
            Command::Mark { .. } => 13,
            Command::Unmark { .. } => 14,
            Command::Consent { .. } => 15,
            Command::WithdrawConsent => 16,
            Command::Dispute { .. } => 17,
            Command::ResumePlay => 18,
            Command::ApproveRecordViewer { .. } => 19,
            Command::AdminHold { .. } => 20,
            Command::AdminResume { .. } => 21,
            Command::AdminRuling { .. } => 22,
            Command::AdminDecide { .. } => 23,
            Command::CancelScoringRequest => 24,
            Command::StateOpinion { .. } => 25,
            Command::ObjectToRuling { .. } => 26,
            Command::CallAdministrator { .. } => 27,
            Command::ObjectToTimeLoss { .. } => 28,
            Command::RequestCorrection { .. } => 29,
            Command::AnswerCorrection { .. } => 30,
            Command::AdminConfirmRuling { .. } => 31,
            Command::AdminConfirmStatement { .. } => 32,
            Command::AdminTimeLossDecision { .. } => 33,
            Command::AdminProposeCorrection { .. } => 34,
            Command::AdminCloseCorrection { .. } => 35,
            Command::AdminRepair { .. } => 36,
            Command::Appeal { .. } => 37,
            Command::AdminSanction { .. } => 38,
            Command::AdminOpenAppeal { .. } => 39,
            Command::AdminDecideAppeal { .. } => 40,
            Command::TakeSeat => 41,
            Command::LeaveSeat => 42,
            Command::CancelRoom => 43,
            Command::CancelUndo => 44,
        }
    }
    let at = Xyz { x: 1, y: 1, z: 1 };
    let r = || "r".to_string();
    let samples = [
        Command::Join { code: r() },
        Command::Confirm,
        Command::Ready,
        Command::Move { at },
        Command::Acknowledge { move_number: 1 },
        Command::Pass,
        Command::Resign,
        Command::RequestUndo,
        Command::AnswerUndo { accept: true },
        Command::CancelUndo,
        Command::TakeSeat,
        Command::LeaveSeat,
        Command::CancelRoom,
        Command::RequestScoring,
        Command::CancelScoringRequest,
        Command::OfferDraw,
        Command::AnswerDraw { accept: true },
        Command::CancelDrawOffer,
        Command::Mark { at, kind: MarkKind::Dead },
        Command::Unmark { at },
        Command::Consent { statement: 1 },
        Command::WithdrawConsent,
        Command::Dispute { reason: r() },
        Command::ResumePlay,
        Command::ApproveRecordViewer { username: r() },
        Command::AdminHold { reasons: r() },
        Command::AdminResume { reasons: r() },
        Command::AdminRuling {
            chains: vec![ChainRuling { at, verdict: ChainVerdict::Alive { spaces: vec![at, at] } }],
            regions: vec![RegionRuling { at, verdict: RegionVerdict::Neutral }],
            reasons: r(),
        },
        Command::AdminDecide { winner: None, reasons: r() },
        Command::StateOpinion { at, opinion: ChainOpinion::Seki, reasons: r() },
        Command::ObjectToRuling { reasons: r() },
        Command::CallAdministrator { reason: r() },
        Command::ObjectToTimeLoss { reasons: r() },
        Command::RequestCorrection { reasons: r() },
        Command::AnswerCorrection { accept: false },
        Command::AdminConfirmRuling { reasons: r() },
        Command::AdminConfirmStatement { statement: 3, reasons: r() },
        Command::AdminTimeLossDecision { cancel: true, reasons: r() },
        Command::AdminProposeCorrection {
            correction: CorrectionProposal::Result {
                result: engine::GameResult::Resign { winner: engine::Color::White },
            },
            reasons: r(),
        },
        Command::AdminCloseCorrection { reasons: r() },
        Command::AdminRepair { reasons: r() },
        Command::Appeal { sanction: 1, evidence: r() },
        Command::AdminSanction {
            target: wire::conduct::Target::Spectator { username: r() },
            penalty: wire::conduct::Penalty::ViewingRestricted,
            category: wire::conduct::Category::Other,
            reasons: r(),
            findings: Some(r()),
        },
        Command::AdminOpenAppeal { sanction: 1, reasons: r() },
        Command::AdminDecideAppeal { sanction: 1, uphold: false, reasons: r(), result: Some(engine::GameResult::Void) },
    ];
    let mut seen: Vec<usize> = samples.iter().map(kind_of).collect();
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), samples.len(), "one sample per command");
    let doc = serde_json::to_value(server::api::openapi()).unwrap();
    let variants = doc["components"]["schemas"]["Command"]["oneOf"].as_array().expect("Command is a oneOf");
    let documented: std::collections::BTreeMap<&str, &Value> = variants
        .iter()
        .map(|v| (v["properties"]["type"]["enum"][0].as_str().expect("each variant names its type"), v))
        .collect();
    assert_eq!(documented.len(), variants.len(), "one variant per type");
    let mut actual = Vec::new();
    for c in &samples {
        let v = serde_json::to_value(c).unwrap();
        let kind = v["type"].as_str().unwrap();
        let schema = documented.get(kind).unwrap_or_else(|| panic!("{kind} is not documented"));
        let fields = v.as_object().unwrap();
        for field in fields.keys() {
            assert!(schema["properties"].get(field).is_some(), "{v}: field {field} is not documented");
        }
        // Required means required: without any one of them the server refuses the command.
        for required in schema["required"].as_array().unwrap() {
            let required = required.as_str().unwrap();
            assert!(fields.contains_key(required), "{kind}: {required} is documented as required");
            if required != "type" {
                let mut without = v.clone();
                without.as_object_mut().unwrap().remove(required);
                assert!(serde_json::from_value::<Command>(without).is_err(), "{kind} without {required}");
            }
        }
        // `additionalProperties: false` holds: an extra field is refused.
        assert_eq!(schema["additionalProperties"], false, "{kind}");
        let mut extra = v.clone();
        extra.as_object_mut().unwrap().insert("unexpected".into(), json!(1));
        assert!(serde_json::from_value::<Command>(extra).is_err(), "{kind} with an unknown field is refused");
        actual.push(kind.to_string());
    }
    let mut documented: Vec<&str> = documented.keys().copied().collect();
    let mut actual: Vec<&str> = actual.iter().map(String::as_str).collect();
    documented.sort();
    actual.sort();
    assert_eq!(documented, actual);
}

/// The settings' tagged enums are documented as refusing unknown fields, and they do.
#[test]
fn openapi_settings_variants_refuse_what_they_do_not_document() {
    use wire::settings::{AssistanceScope, CoordLabels, TimeControl, UndoAllowance};
    fn check<T: serde::Serialize + serde::de::DeserializeOwned>(schema: &str, samples: &[T]) {
        let doc = serde_json::to_value(server::api::openapi()).unwrap();
        let variants = doc["components"]["schemas"][schema]["oneOf"].as_array().unwrap().clone();
        for sample in samples {
            let mut v = serde_json::to_value(sample).unwrap();
            let Some(fields) = v.as_object_mut() else { continue }; // a plain string variant
            assert!(
                variants.iter().any(|s| s["additionalProperties"] == false),
                "{schema}: object variants deny unknown fields"
            );
            fields.insert("unexpected".into(), json!(1));
            assert!(serde_json::from_value::<T>(v.clone()).is_err(), "{schema}: {v} is refused");
        }
    }
    check(
        "TimeControl",
        &[
            TimeControl::SpaceHours { black: 1, white: 2 },
            TimeControl::None { idle_limit_s: 300 },
            TimeControl::Byoyomi { main_s: 0, period_s: 30, periods: 3 },
            TimeControl::Fischer { main_s: 60, increment_s: 5 },
        ],
    );
    check("AssistanceScope", &[AssistanceScope::None, AssistanceScope::Agreed { assistants: vec![] }]);
    check("CoordLabels", &[CoordLabels::default()]);
    check("UndoAllowance", &[UndoAllowance::Off, UndoAllowance::Limited(1), UndoAllowance::Unlimited]);
}

/// Every kind of result, with and without a score, is what the document says a view's
/// `result` is (`ResultView` flattens `GameResult` beside `score` and `statement`).
#[test]
fn every_result_is_documented() {
    use engine::{GameResult, ScoringMethod};
    use wire::view::ResultView;
    for result in GameResult::one_of_each(ScoringMethod::Territory) {
        let view = ResultView { result, score: None, statement: Some(3) };
        crate::support::assert_documented("ResultView", &serde_json::to_value(&view).unwrap());
    }
    let mut wrong =
        serde_json::to_value(ResultView { result: GameResult::Void, score: None, statement: None }).unwrap();
    wrong["reason"] = json!("forfeit");
    let refused = std::panic::catch_unwind(|| crate::support::assert_documented("ResultView", &wrong));
    assert!(refused.is_err(), "an unknown reason is not documented");
}

/// The enums read tag first (the `tag_first` crate) parse their tag with strum's names, while
/// serde's derive writes it and the document lists it: the three must name the variants
/// alike, or a variant written under a `#[serde(rename)]` strum does not know would not read
/// back. The document's names are serde's (utoipa reads serde's attributes).
#[test]
fn tag_first_enums_read_every_tag_the_document_names() {
    use tag_first::TagFirst;
    fn check<T: TagFirst>(schema: &str) {
        let doc = serde_json::to_value(server::api::openapi()).unwrap();
        let variants = doc["components"]["schemas"][schema]["oneOf"]
            .as_array()
            .unwrap_or_else(|| panic!("{schema} is documented as variants"));
        let mut documented: Vec<&str> = variants
            .iter()
            .map(|v| {
                v["properties"][T::TAG]["enum"][0]
                    .as_str()
                    .unwrap_or_else(|| panic!("{schema}: {v} names its {}", T::TAG))
            })
            .collect();
        let mut read: Vec<&str> = T::VARIANTS.to_vec();
        documented.sort_unstable();
        read.sort_unstable();
        assert_eq!(documented, read, "{schema}");
    }
    use wire::{conduct::Subject, events, mode::RoomMode, referee::ChainVerdict, settings};
    check::<engine::GameResult>("GameResult");
    check::<events::Event>("Event");
    check::<events::HoldReason>("HoldReason");
    check::<events::FilledBy>("FilledBy");
    check::<RoomMode>("RoomMode");
    check::<settings::TimeControl>("TimeControl");
    check::<settings::AssistanceScope>("AssistanceScope");
    check::<settings::SpecialRule>("SpecialRule");
    check::<settings::CoordLabels>("CoordLabels");
    check::<Subject>("Subject");
    check::<ChainVerdict>("ChainVerdict");
    // Of the error tree (read by value), the one the document describes.
    check::<wire::learning::TrainingRefusal>("TrainingRefusal");
}
