//! No panic on any input, and exact round trips: arbitrary strings and bytes,
//! and inputs shaped like the real formats, thrown at the same three entry
//! points as the cargo-fuzz targets in `engine/fuzz` (SGF parsing, JSON record
//! parsing, GTP commands). The SGF and record entry points assert that
//! whatever they read prints and reads back equal (see `engine::fuzz_entry`).

use engine::fuzz_entry;
use proptest::prelude::*;

fn config() -> ProptestConfig {
    ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() }
}

/// SGF-shaped text: nested trees, nodes and properties with short values.
fn sgf_like() -> impl Strategy<Value = String> {
    let ident = prop::sample::select(vec![
        "B", "W", "AB", "AW", "AE", "SZ", "KM", "HA", "PL", "RE", "PB", "C", "GM", "FF", "Xy", "tt",
    ]);
    let value = prop_oneof![
        "[a-u]{2}",
        Just(String::new()),
        "[0-9]{1,3}(:[0-9]{1,3})?",
        "-?[0-9]{1,2}\\.?[05]?",
        "[a-zA-Z\\\\\\]\\[ ;()]{0,6}",
    ];
    let prop = (ident, prop::collection::vec(value, 1..3)).prop_map(|(i, vs)| {
        let mut s = i.to_string();
        for v in vs {
            s.push('[');
            s.push_str(&v);
            s.push(']');
        }
        s
    });
    let node = prop::collection::vec(prop, 0..4).prop_map(|ps| format!(";{}", ps.concat()));
    let seq = prop::collection::vec(node, 0..12).prop_map(|ns| ns.concat());
    (seq.clone(), prop::collection::vec(seq, 0..3), any::<bool>()).prop_map(|(main, vars, close)| {
        let mut s = format!("(;SZ[9]{main}");
        for v in vars {
            s.push('(');
            s.push_str(&v);
            s.push(')');
        }
        if close {
            s.push(')');
        }
        s
    })
}

/// GTP-shaped scripts: known commands with plausible and implausible arguments.
fn gtp_like() -> impl Strategy<Value = String> {
    let cmd = prop::sample::select(vec![
        "play",
        "genmove",
        "boardsize",
        "rectangular_boardsize",
        "space_boardsize",
        "space_box",
        "komi",
        "undo",
        "is_legal",
        "list_stones",
        "captures",
        "final_score",
        "final_status_list",
        "fixed_handicap",
        "showboard",
        "printsgf",
        "space_rule",
        "space_illegal_reason",
        "clear_board",
        "loadsgf",
        "known_command",
        "quit",
        "name",
        "bogus",
    ]);
    let arg = prop_oneof![
        prop::sample::select(vec![
            "b",
            "w",
            "black",
            "white",
            "pass",
            "ko",
            "superko",
            "korean",
            "scoring",
            "area",
            "territory",
            "capture_bonus",
            "on",
            "off",
            "komi_to",
            "dead",
            "alive",
            "seki"
        ])
        .prop_map(str::to_string),
        "[A-HJ-Z][0-9]{1,2}",
        "-?[0-9]{1,2},-?[0-9]{1,2},-?[0-9]{1,2}",
        "-?[0-9]{1,7}(\\.[0-9])?",
        ".{0,8}",
    ];
    let line = (prop::option::of(0u32..100), cmd, prop::collection::vec(arg, 0..7)).prop_map(|(id, c, args)| {
        let mut s = id.map(|i| format!("{i} ")).unwrap_or_default();
        s.push_str(c);
        for a in args {
            s.push(' ');
            s.push_str(&a);
        }
        s
    });
    prop::collection::vec(line, 1..30).prop_map(|ls| ls.join("\n"))
}

/// JSON-record-shaped text: a valid small record with random edits.
fn record_like() -> impl Strategy<Value = String> {
    let base = r#"{"version":1,"geometry":{"x":{"start":1,"end":5},"y":{"start":1,"end":5},"z":{"start":1,"end":1}},"rules":{"ko":"immediate","scoring":"space","capture_bonus":false,"komi":0.0,"komi_to":"white","handicap":0},"setup":[],"first_to_move":"black","actions":[{"type":"play","color":"black","at":{"x":3,"y":3,"z":1}},{"type":"pass","color":"white"},{"type":"undo","color":"black","at":{"x":3,"y":3,"z":1}}]}"#;
    (0..base.len(), 0..base.len(), ".{0,6}").prop_map(move |(a, b, ins)| {
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        let hi = hi.min(lo + 12);
        let mut s = String::new();
        s.push_str(base.get(..lo).unwrap_or(""));
        s.push_str(&ins);
        s.push_str(base.get(hi..).unwrap_or(""));
        s
    })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn sgf_arbitrary_bytes(data in prop::collection::vec(any::<u8>(), 0..512)) {
        fuzz_entry::sgf(&data);
    }

    #[test]
    fn sgf_arbitrary_strings(s in ".{0,300}") {
        fuzz_entry::sgf(s.as_bytes());
    }

    #[test]
    fn sgf_shaped(s in sgf_like()) {
        fuzz_entry::sgf(s.as_bytes());
    }

    #[test]
    fn record_arbitrary_bytes(data in prop::collection::vec(any::<u8>(), 0..512)) {
        fuzz_entry::record_json(&data);
    }

    #[test]
    fn record_shaped(s in record_like()) {
        fuzz_entry::record_json(s.as_bytes());
    }

    #[test]
    fn gtp_arbitrary_bytes(data in prop::collection::vec(any::<u8>(), 0..512)) {
        fuzz_entry::gtp(&data);
    }

    #[test]
    fn gtp_arbitrary_strings(s in ".{0,300}") {
        fuzz_entry::gtp(s.as_bytes());
    }

    #[test]
    fn gtp_shaped(s in gtp_like()) {
        fuzz_entry::gtp(s.as_bytes());
    }
}

/// Every GTP line gets exactly one well-formed response (or none for blank
/// and comment lines), whatever it holds.
#[test]
fn gtp_always_answers_in_protocol_form() {
    let mut runner = proptest::test_runner::TestRunner::new(config());
    runner
        .run(&gtp_like(), |script| {
            let mut e = engine::gtp::GtpEngine::new(3);
            for line in script.lines() {
                if let Some(r) = e.handle_line(line) {
                    prop_assert!(r.starts_with('=') || r.starts_with('?'), "{r:?}");
                    prop_assert!(r.ends_with("\n\n") && !r[..r.len() - 2].contains("\n\n"), "{r:?}");
                }
                if e.should_quit() {
                    break;
                }
            }
            Ok(())
        })
        .unwrap();
}
