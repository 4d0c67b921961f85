use super::*;
use engine::computer::DEFAULT_WEIGHTS;

/// A flat `w`×`h` request from rows (top row = y 1): `X` black, `O` white, `.` empty.
fn request(rows: &[&str], to_move: &str, extra: Value) -> Value {
    let mut stones = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            let colour = match ch {
                'X' => "black",
                'O' => "white",
                _ => continue,
            };
            stones.push(json!([{ "x": x + 1, "y": y + 1, "z": 1 }, colour]));
        }
    }
    let mut r = json!({
        "board": {"x": {"start": 1, "end": rows[0].len()}, "y": {"start": 1, "end": rows.len()},
                  "z": {"start": 1, "end": 1}},
        "stones": stones,
        "to_move": to_move,
        "weights": DEFAULT_WEIGHTS.0,
    });
    if let (Value::Object(r), Value::Object(extra)) = (&mut r, extra) {
        r.extend(extra);
    }
    r
}

fn ranked(v: &Value) -> R<Ranking> {
    rank(&Request::from_json(&v.to_string())?)
}

fn at(x: i64, y: i64) -> Coord {
    Coord::new(x, y, 1)
}

const CAPTURE: [&str; 5] = [
    ".X...", //
    "XOX..", //
    "XO...", //
    ".X...", //
    ".....",
];

#[test]
fn the_first_move_is_the_servers_computers_and_the_rest_follow_by_score() {
    for seed in 0..20u64 {
        let req = Request::from_json(&request(&["........."; 9], "black", json!({"seed": seed})).to_string()).unwrap();
        let game = position(&req).unwrap();
        let expected = computer::choose_move(
            &game,
            Color::Black,
            &DEFAULT_WEIGHTS,
            Level::Evaluator,
            seed,
            SearchLimits { max_playouts: DEFAULT_PLAYOUTS },
            &mut || false,
        );
        let r = rank(&req).unwrap();
        let Move::Place(p) = expected.mv else { panic!("the computer passes on an empty board") };
        assert_eq!(r.moves[0].at, game.geometry().coords_of(p).unwrap(), "seed {seed}");
        assert_eq!(r.moves.len(), DEFAULT_LIMIT);
        assert_eq!(r.candidates, 81);
        assert!(r.moves.windows(2).skip(1).all(|w| w[0].score >= w[1].score), "{:?}", r.moves);
    }
}

#[test]
fn takes_the_capture_and_an_excluded_move_is_never_proposed() {
    let r = ranked(&request(&CAPTURE, "black", json!({}))).unwrap();
    assert_eq!(r.moves[0].at, at(3, 3), "{r:?}");
    // The server refused it (say, as ko): the next-best comes first, the refused never.
    let r = ranked(&request(&CAPTURE, "black", json!({"excluded": [{"x": 3, "y": 3, "z": 1}]}))).unwrap();
    assert!(r.moves.iter().all(|m| m.at != at(3, 3)), "{r:?}");
    // 18 empty points, less the excluded one and Black's own eye in the corner (1,1).
    assert_eq!(r.candidates, 25 - 7 - 1 - 1);
}

#[test]
fn the_last_move_is_replayed_so_that_moves_near_it_score() {
    // Only near_last_move counts: the answer is next to the last stone, wherever it is.
    let mut w = [0.0; FEATURE_COUNT];
    w[Feature::NearLastMove.index()] = 1.0;
    for (x, y) in [(2, 2), (7, 6)] {
        let mut rows = vec![String::from("........."); 9];
        rows[y - 1].replace_range(x - 1..x, "O");
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let extra = json!({"weights": w, "last_move": {"x": x, "y": y, "z": 1}});
        let r = ranked(&request(&rows, "black", extra)).unwrap();
        let d = (r.moves[0].at.x - x as i64).abs() + (r.moves[0].at.y - y as i64).abs();
        assert_eq!((d, r.moves[0].score), (1, 1.0), "{r:?}");
    }
}

#[test]
fn passes_with_the_computers_reason_when_only_own_eyes_are_left() {
    let rows = [
        ".X.X.", //
        "XXXXX", //
        "XXXXX", //
        "XXXXX", //
        "XXXXX",
    ];
    let r = ranked(&request(&rows, "black", json!({}))).unwrap();
    assert_eq!((r.moves.len(), r.pass_reason), (0, Some("only_own_eyes")), "{r:?}");
    assert_eq!(ranked(&request(&rows, "black", json!({}))).unwrap().to_json()["moves"], json!([]));
}

#[test]
fn weights_by_name_and_the_fingerprint_are_checked() {
    let mut by_name = Map::new();
    for f in Feature::ALL {
        let name: &'static str = f.into();
        by_name.insert(name.into(), json!(DEFAULT_WEIGHTS.0[f.index()]));
    }
    let fp = model::fingerprint(&DEFAULT_WEIGHTS);
    let r = Request::from_json(&request(&CAPTURE, "black", json!({"weights": by_name, "fingerprint": fp})).to_string());
    assert_eq!(r.unwrap().weights, DEFAULT_WEIGHTS);
    let other = model::fingerprint(&Weights([0.0; FEATURE_COUNT]));
    let e = Request::from_json(&request(&CAPTURE, "black", json!({"fingerprint": other})).to_string()).unwrap_err();
    assert_eq!((e.code(), e.to_string().contains("does not match")), ("model", true), "{e}");
    let e = Request::from_json(&request(&CAPTURE, "black", json!({"weights": [1, 2, 3]})).to_string()).unwrap_err();
    assert_eq!(e, field_err("weights", "3 weights; a model has exactly 8"));
    let mut big = DEFAULT_WEIGHTS.0;
    big[2] = 1e9;
    let e = Request::from_json(&request(&CAPTURE, "black", json!({"weights": big})).to_string()).unwrap_err();
    assert!(matches!(&e, ParticipantError::Model { field, .. } if field == "weights.self_atari"), "{e:?}");
}

#[test]
fn bad_requests_are_refused_with_the_field_named() {
    let cases = [
        (json!({"level": 3}), "level"),
        (json!({"colour": "black"}), "field"),
        (json!({"excluded": [{"x": 9, "y": 1, "z": 1}]}), "off_board"),
        (json!({"last_move": {"x": 2, "y": 2, "z": 1}, "last_pass": true}), "field"),
        (json!({"limit": 0}), "field"),
        (
            json!({"board": {"x": {"start": 1, "end": 4}, "y": {"start": 1, "end": 5}, "z": {"start": 1, "end": 1}}}),
            "board",
        ),
    ];
    for (extra, code) in cases {
        let e = ranked(&request(&CAPTURE, "black", extra.clone())).unwrap_err();
        assert_eq!(e.code(), code, "{extra}: {e}");
        assert_eq!(
            serde_json::from_str::<Value>(&choose_json(&request(&CAPTURE, "black", extra).to_string())).unwrap()
                ["error"],
            code
        );
    }
    let mut twice = request(&CAPTURE, "black", json!({}));
    twice["stones"].as_array_mut().unwrap().push(json!([{"x": 2, "y": 1, "z": 1}, "white"]));
    assert_eq!(ranked(&twice).unwrap_err().code(), "position");
    assert_eq!(ranked(&request(&CAPTURE, "black", json!({}))).map(|r| r.moves.len()).ok(), Some(DEFAULT_LIMIT));
    assert_eq!(serde_json::from_str::<Value>(&choose_json("[1")).unwrap()["error"], "syntax");
}

#[test]
fn a_three_dimensional_box_is_ranked_too() {
    let box3 = json!({"x": {"start": -1, "end": 1}, "y": {"start": 1, "end": 3}, "z": {"start": 5, "end": 7}});
    let r = ranked(&json!({"board": box3, "stones": [[{"x": 0, "y": 2, "z": 6}, "black"]], "to_move": "white",
                            "last_move": {"x": 0, "y": 2, "z": 6}, "weights": DEFAULT_WEIGHTS.0}))
    .unwrap();
    assert_eq!(r.candidates, 26, "{r:?}");
    assert!(r.moves.iter().all(|m| (-1..=1).contains(&m.at.x) && (5..=7).contains(&m.at.z)), "{r:?}");
}
