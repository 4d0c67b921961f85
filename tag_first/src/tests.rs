//! Both ways in read what serde's derive writes, with the tag anywhere; refusals name what
//! was wrong.

use serde::Serialize;
use serde_json::json;

#[derive(Debug, PartialEq, Serialize, strum::EnumDiscriminants)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[strum_discriminants(
    name(ShapeCode),
    derive(strum::EnumString, strum::VariantNames),
    strum(serialize_all = "snake_case")
)]
enum Shape {
    Dot,
    Line { from: u32, to: u32, label: Option<String> },
    Nested { inner: Inner },
}

#[derive(Debug, PartialEq, Serialize, strum::EnumDiscriminants)]
#[serde(tag = "code", rename_all = "snake_case")]
#[strum_discriminants(
    name(InnerCode),
    derive(strum::EnumString, strum::VariantNames),
    strum(serialize_all = "snake_case")
)]
enum Inner {
    Empty,
    Full { n: u32 },
    Internal,
}

crate::tag_first!(Shape, ShapeCode, "kind"; Dot, Line { from, to, label }, Nested { inner });
crate::tag_first!(by_value Inner, InnerCode, "code"; Empty, Full { n }; skip Internal);

#[test]
fn streamed_reads_what_serde_writes_and_any_key_order() {
    for s in [
        Shape::Dot,
        Shape::Line { from: 1, to: 2, label: Some("a".into()) },
        Shape::Nested { inner: Inner::Full { n: 3 } },
    ] {
        let text = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<Shape>(&text).unwrap(), s, "{text}");
    }
    let late_tag = r#"{"to": 2, "from": 1, "kind": "line"}"#;
    assert_eq!(serde_json::from_str::<Shape>(late_tag).unwrap(), Shape::Line { from: 1, to: 2, label: None });
    assert!(serde_json::from_str::<Shape>(r#"{"kind": "line", "from": 1}"#).unwrap_err().to_string().contains("`to`"));
    assert!(serde_json::from_str::<Shape>(r#"{"kind": "circle"}"#).unwrap_err().to_string().contains("circle"));
}

#[test]
fn by_value_reads_from_any_reader_and_names_the_type_and_tag_when_it_cannot() {
    let full = json!({ "n": 4, "extra": true, "code": "full" });
    assert_eq!(serde_json::from_value::<Inner>(full.clone()).unwrap(), Inner::Full { n: 4 });
    assert_eq!(serde_json::from_str::<Inner>(&full.to_string()).unwrap(), Inner::Full { n: 4 });
    let map = full.as_object().unwrap().clone();
    assert_eq!(crate::from_map::<Inner>(map).unwrap(), Inner::Full { n: 4 });
    let missing = serde_json::from_value::<Inner>(json!({ "code": "full" })).unwrap_err().to_string();
    assert!(missing.contains("not a Inner: \"code\" \"full\"") && missing.contains("`n`"), "{missing}");
    // A variant that is never sent does not read, though its code parses.
    let internal = serde_json::to_value(Inner::Internal).unwrap();
    assert_eq!(internal, json!({ "code": "internal" }));
    let skipped = serde_json::from_value::<Inner>(internal).unwrap_err().to_string();
    assert!(skipped.contains("Internal"), "{skipped}");
    assert!(serde_json::from_value::<Inner>(json!("full")).unwrap_err().to_string().contains("map"));
}
