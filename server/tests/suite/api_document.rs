//! The participant API's document, kept as a file (`server/tests/data/openapi.json`): a change
//! to a route or a wire type that changes what programs are told shows here, and is made on
//! purpose — rewrite the file with `SPACE_BADUK_WRITE_OPENAPI=1 cargo test -p server --test
//! suite api_document` and let the diff be read in review.

use serde_json::Value;

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
