//! Drives the `space-baduk-gtp` binary through stdin/stdout.

mod common;

const BIN: &str = env!("CARGO_BIN_EXE_space-baduk-gtp");

/// Runs a script (one command per line) and returns every response, without
/// the terminating empty line.
fn run(script: &str) -> Vec<String> {
    let (out, status) = run_raw(script, &[]);
    assert!(status.success(), "engine exited with {status:?}");
    split_responses(&out)
}

fn run_raw(script: &str, args: &[&str]) -> (String, std::process::ExitStatus) {
    let out = common::run_with_stdin(BIN, args, script);
    (String::from_utf8(out.stdout).unwrap(), out.status)
}

fn split_responses(out: &str) -> Vec<String> {
    assert!(out.is_empty() || out.ends_with("\n\n"), "unterminated output: {out:?}");
    out.split_terminator("\n\n").map(str::to_string).collect()
}

fn ok(r: &str) -> &str {
    assert!(r.starts_with('='), "expected success, got {r:?}");
    r[1..].trim_start_matches(|c: char| c.is_ascii_digit()).trim()
}

fn err(r: &str) -> &str {
    assert!(r.starts_with('?'), "expected failure, got {r:?}");
    r[1..].trim_start_matches(|c: char| c.is_ascii_digit()).trim()
}

fn sorted_words(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

#[test]
fn administrative_commands_and_ids() {
    let r = run("protocol_version\n1 name\n2 version\nknown_command play\nknown_command fly\n\
                 # a comment line\n\n7 list_commands\nfoo\n9 quit\nname\n");
    assert_eq!(r.len(), 8, "{r:?}");
    assert_eq!(r[0], "= 2");
    assert_eq!(r[1], "=1 Space Baduk");
    assert!(r[2].starts_with("=2 ") && r[2].len() > 3, "{:?}", r[2]);
    assert_eq!(r[3], "= true");
    assert_eq!(r[4], "= false");
    let cmds: Vec<&str> = ok(&r[5]).lines().collect();
    for c in [
        "protocol_version",
        "name",
        "version",
        "known_command",
        "list_commands",
        "quit",
        "boardsize",
        "clear_board",
        "komi",
        "play",
        "genmove",
        "undo",
        "showboard",
        "final_score",
        "loadsgf",
        "fixed_handicap",
        "final_status_list",
        "is_legal",
        "list_stones",
        "captures",
        "printsgf",
        "rectangular_boardsize",
        "space_boardsize",
        "space_box",
        "space_rule",
        "space_illegal_reason",
    ] {
        assert!(cmds.contains(&c), "list_commands lacks {c}");
    }
    assert!(r[5].starts_with("=7\n"));
    assert_eq!(r[6], "? unknown command");
    assert_eq!(r[7], "=9 ");
    // nothing is answered after quit (the last "name" line is never read)
}

#[test]
fn quit_answers_then_exits() {
    let r = run("5 quit\n");
    assert_eq!(r, vec!["=5 ".to_string()]);
}

#[test]
fn malformed_commands_keep_the_engine_running() {
    let r = run("1x name\nplay\nplay black\nplay purple A1\nplay black Z99\nplay black I5\n\
                 boardsize 20\nboardsize x\nboardsize 0\nkomi abc\nspace_boardsize 3 3\n\
                 space_box 1 2 1 3 1 3\nspace_rule ko sometimes\nspace_rule colour red\n\
                 is_legal black\nlist_stones green\n3 undo\nfixed_handicap 99\n\
                 name\n");
    let n = r.len();
    assert_eq!(n, 19, "{r:?}");
    for resp in &r[..n - 1] {
        err(resp);
    }
    assert_eq!(r[16], "?3 cannot undo");
    assert_eq!(ok(&r[n - 1]), "Space Baduk");
}

#[test]
fn play_capture_list_stones_and_captures() {
    let r = run("boardsize 9\nclear_board\nplay white A1\nplay black A2\nplay black B1\n\
                 list_stones black\nlist_stones white\ncaptures black\ncaptures white\n\
                 is_legal white A1\nspace_illegal_reason white A1\nplay white A1\n\
                 play w A2\nspace_illegal_reason black E5\nis_legal b e5\n");
    assert_eq!(sorted_words(ok(&r[5])), vec!["A2", "B1"]);
    assert_eq!(ok(&r[6]), "");
    assert_eq!(ok(&r[7]), "1");
    assert_eq!(ok(&r[8]), "0");
    assert_eq!(ok(&r[9]), "0");
    assert_eq!(ok(&r[10]), "suicide");
    assert_eq!(err(&r[11]), "illegal move: suicide");
    assert_eq!(err(&r[12]), "illegal move: occupied");
    assert_eq!(ok(&r[13]), "");
    assert_eq!(ok(&r[14]), "1");
}

#[test]
fn immediate_repetition_ko_and_undo_restriction() {
    // Ko at B2/C2: White's retake is refused right away, allowed after an exchange (003 §2.3).
    let r = run("boardsize 9\nplay b B3\nplay w C3\nplay b A2\nplay w D2\nplay b B1\nplay w C1\n\
                 play b J9\nplay w B2\nplay b C2\ncaptures black\nis_legal w B2\n\
                 space_illegal_reason w B2\nplay w B2\nplay w H9\nplay b J8\nis_legal w B2\n\
                 play w B2\ncaptures white\n");
    for resp in &r[..10] {
        ok(resp);
    }
    assert_eq!(ok(&r[10]), "1");
    assert_eq!(ok(&r[11]), "0");
    let reason = ok(&r[12]).to_string();
    assert!(!reason.is_empty());
    assert_eq!(err(&r[13]), format!("illegal move: {reason}"));
    ok(&r[14]);
    ok(&r[15]);
    assert_eq!(ok(&r[16]), "1");
    ok(&r[17]);
    assert_eq!(ok(&r[18]), "1");

    // Undo restores the board; the undone arrangement may not be recreated by the
    // next stone move, even after a pass (003 §5.3), but a different move lifts it.
    let r = run("boardsize 9\nplay b E5\nundo\nlist_stones black\nis_legal b E5\n\
                 play b E5\nplay b D4\nplay w E5\nlist_stones white\nundo\nlist_stones white\n\
                 play w pass\nundo\n");
    ok(&r[1]);
    ok(&r[2]);
    assert_eq!(ok(&r[3]), "");
    assert_eq!(ok(&r[4]), "0");
    assert!(err(&r[5]).starts_with("illegal move: "));
    ok(&r[6]);
    ok(&r[7]);
    assert_eq!(ok(&r[8]), "E5");
    ok(&r[9]);
    assert_eq!(ok(&r[10]), "");
    ok(&r[11]);
    // A pass is never undone (003 §5.1).
    err(&r[12]);
}

#[test]
fn rectangular_and_space_boards() {
    let r = run("rectangular_boardsize 19 13\nplay b T13\nplay w T14\nplay w A1\nlist_stones b\n\
                 rectangular_boardsize 19 12\n");
    ok(&r[0]);
    ok(&r[1]);
    assert_eq!(err(&r[2]), "illegal move: off_board");
    ok(&r[3]);
    assert_eq!(ok(&r[4]), "T13");
    err(&r[5]);

    // 3D: a stone in the middle of a 3x3x3 box has six liberties; surround it.
    let r = run("space_boardsize 3 3 3\nplay b 2,2,2\nplay w 1,2,2\nplay w 3,2,2\nplay w 2,1,2\n\
                 play w 2,3,2\nplay w 2,2,1\nlist_stones black\nplay w 2,2,3\ncaptures white\n\
                 list_stones black\nplay b D4\nplay b 0,1,1\n");
    for resp in &r[..7] {
        ok(resp);
    }
    assert_eq!(ok(&r[7]), "2,2,2");
    ok(&r[8]);
    assert_eq!(ok(&r[9]), "1");
    assert_eq!(ok(&r[10]), "");
    err(&r[11]);
    assert_eq!(err(&r[12]), "illegal move: off_board");

    let r = run("space_box -1 1 0 2 5 7\nplay b -1,0,5\nplay w 1,2,7\nlist_stones w\nplay b 2,0,5\n\
                 space_box 0 1 0 0 0 0\n");
    ok(&r[0]);
    ok(&r[1]);
    ok(&r[2]);
    assert_eq!(ok(&r[3]), "1,2,7");
    err(&r[4]);
    err(&r[5]);
}

#[test]
fn final_score_area_with_komi_and_recipient() {
    // 5x5: Black wall on column C, White wall on D. Black 5 stones + 10 points,
    // White 5 stones + 5 points.
    let setup = "boardsize 5\nplay b C1\nplay w D1\nplay b C2\nplay w D2\nplay b C3\nplay w D3\n\
                 play b C4\nplay w D4\nplay b C5\nplay w D5\n";
    let r = run(&format!("{setup}komi 0.5\nfinal_score\n"));
    assert_eq!(ok(&r[12]), "B+4.5");
    let r = run(&format!("{setup}komi 5\nfinal_score\n"));
    assert_eq!(ok(&r[12]), "0");
    let r = run(&format!("{setup}komi 5.5\nfinal_score\n"));
    assert_eq!(ok(&r[12]), "W+0.5");
    let r = run(&format!("{setup}komi 1\nspace_rule komi_to black\nfinal_score\n"));
    assert_eq!(ok(&r[13]), "B+6");
    let r = run("boardsize 9\nfinal_score\n");
    assert_eq!(ok(&r[1]), "0");
}

/// 5x5: Black wall on C, White wall on D; a Black stone played at E3 was
/// captured by White E2 + E4. Every stone alive: Black 5 stones + 10 points,
/// White 7 stones + 3 points (E1, E3, E5), White holds 1 prisoner.
const WALLS_AND_A_PRISONER: &str = "boardsize 5\nplay b C1\nplay w D1\nplay b C2\nplay w D2\nplay b C3\nplay w D3\n\
     play b C4\nplay w D4\nplay b C5\nplay w D5\nplay b E3\nplay w E2\nplay w E4\ncaptures w\n";

#[test]
fn final_score_follows_the_scoring_rule_000_s6_2_s6_3() {
    let base = run(WALLS_AND_A_PRISONER);
    assert_eq!(base.len(), 15);
    for r in &base {
        ok(r);
    }
    assert_eq!(ok(&base[14]), "1", "White captured the stone at E3");
    let score = |rules: &str| {
        let r = run(&format!("{WALLS_AND_A_PRISONER}{rules}final_score\n"));
        for x in &r {
            ok(x);
        }
        ok(r.last().unwrap()).to_string()
    };
    // Area (default): B 5 + 10 = 15, W 7 + 3 = 10 (prisoners do not count).
    assert_eq!(score(""), "B+5");
    // Territory: B 10 + 0 prisoners = 10, W 3 + 1 prisoner = 4.
    assert_eq!(score("space_rule scoring territory\n"), "B+6");
    // Komi 5.5 to White: the two rules name different winners.
    assert_eq!(score("komi 5.5\n"), "W+0.5", "area: 15 against 15.5");
    assert_eq!(score("komi 5.5\nspace_rule scoring territory\n"), "B+0.5", "territory: 10 against 9.5");
    // The capture bonus adds prisoners to area (003 §4.1) and changes nothing under territory, which always counts them.
    assert_eq!(score("komi 5.5\nspace_rule capture_bonus on\n"), "W+1.5", "area + bonus: 15 against 16.5");
    assert_eq!(score("komi 5.5\nspace_rule capture_bonus on\nspace_rule scoring territory\n"), "B+0.5");
    // Komi to Black.
    assert_eq!(score("komi 1\nspace_rule komi_to black\n"), "B+6");
    assert_eq!(score("komi 1\nspace_rule komi_to black\nspace_rule scoring territory\n"), "B+7");
    // Switching back to area counts area again.
    assert_eq!(score("space_rule scoring territory\nspace_rule scoring area\n"), "B+5");
}

#[test]
fn final_score_territory_counts_stones_in_own_area_as_lost_points() {
    // Filling one's own territory costs a point under territory scoring only
    // (000 §6.2); a region touching both colours is nobody's under either rule.
    let setup = "boardsize 5\nplay b C1\nplay w D1\nplay b C2\nplay w D2\nplay b C3\nplay w D3\n\
                 play b C4\nplay w D4\nplay b C5\nplay w D5\n";
    let fill = "play b A1\nplay b A2\nplay b B1\n";
    let both = |rules: &str| -> Vec<String> {
        let r = run(&format!("{setup}{rules}final_score\n{fill}final_score\n"));
        for x in &r {
            ok(x);
        }
        vec![ok(&r[r.len() - 5]).to_string(), ok(r.last().unwrap()).to_string()]
    };
    // Area: B 5 + 10 → 8 + 7 = 15 either way; W 5 + 5 = 10.
    assert_eq!(both(""), ["B+5", "B+5"]);
    // Territory: B 10 → 7; W 5.
    assert_eq!(both("space_rule scoring territory\n"), ["B+5", "B+2"]);
    // A White stone in Black's area (alive by this count) makes that area neutral.
    let r = run(&format!("{setup}play w A3\nfinal_score\nspace_rule scoring territory\nfinal_score\n"));
    // Area: B 5 + 0, W 6 + 5 → W+6. Territory: B 0, W 5 → W+5.
    assert_eq!(ok(&r[12]), "W+6");
    assert_eq!(ok(&r[14]), "W+5");
}

#[test]
fn fixed_handicap_follows_the_000_table() {
    let r = run("boardsize 19\nfixed_handicap 3\nlist_stones black\nfixed_handicap 2\n\
                 boardsize 9\nfixed_handicap 5\nclear_board\nfixed_handicap 6\nfixed_handicap 1\n\
                 boardsize 13\nfixed_handicap 8\n");
    assert_eq!(ok(&r[1]), "Q16 D4 Q4");
    assert_eq!(sorted_words(ok(&r[2])), vec!["D4", "Q16", "Q4"]);
    err(&r[3]); // board not empty
    assert_eq!(sorted_words(ok(&r[5])), vec!["C3", "C7", "E5", "G3", "G7"]);
    err(&r[7]); // 6 stones do not exist on 9x9 (000 §4)
    err(&r[8]);
    assert_eq!(sorted_words(ok(&r[10])), vec!["D10", "D4", "D7", "G10", "G4", "K10", "K4", "K7"]);
}

#[test]
fn genmove_plays_legal_moves_and_passes_when_only_eyes_remain() {
    let r = run("boardsize 9\ngenmove b\nlist_stones b\ngenmove white\nlist_stones w\n");
    let v = ok(&r[1]).to_string();
    assert_ne!(v, "pass");
    assert_eq!(ok(&r[2]), v);
    let w = ok(&r[3]).to_string();
    assert_eq!(ok(&r[4]), w);
    assert_ne!(v, w);

    // 3x3 filled with Black except the two single-point eyes A1 and C3.
    let r = run("boardsize 3\nplay b A2\nplay b A3\nplay b B1\nplay b B2\nplay b B3\nplay b C1\n\
                 play b C2\ngenmove b\ngenmove w\nlist_stones b\n");
    for resp in &r[..8] {
        ok(resp);
    }
    assert_eq!(ok(&r[8]).to_ascii_lowercase(), "pass");
    assert_eq!(ok(&r[9]).to_ascii_lowercase(), "pass");
    assert_eq!(ok(&r[10]).split_whitespace().count(), 7);
}

#[test]
fn genmove_plays_a_whole_game_without_errors() {
    let mut script = String::from("boardsize 9\n");
    for _ in 0..150 {
        script.push_str("genmove b\ngenmove w\n");
    }
    script.push_str("final_score\n");
    let r = run(&script);
    for resp in &r {
        ok(resp);
    }
    let score = ok(r.last().unwrap());
    assert!(score == "0" || score.starts_with("B+") || score.starts_with("W+"), "{score}");
}

#[test]
fn showboard_printsgf_and_loadsgf() {
    let dir = std::env::temp_dir().join(format!("sb-gtp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("g.sgf");
    std::fs::write(&path, "(;FF[4]GM[1]SZ[9]KM[6.5];B[ee];W[cc];B[gg];W[];B[cg])").unwrap();
    let p = path.display().to_string();
    let r = run(&format!(
        "loadsgf {p}\nlist_stones b\nlist_stones w\nloadsgf {p} 3\nlist_stones b\nlist_stones w\n\
         showboard\nprintsgf\nloadsgf {p}.missing\nloadsgf {p} x\n"
    ));
    ok(&r[0]);
    assert_eq!(sorted_words(ok(&r[1])), vec!["C3", "E5", "G3"]);
    assert_eq!(ok(&r[2]), "C7");
    ok(&r[3]);
    assert_eq!(ok(&r[4]), "E5");
    assert_eq!(ok(&r[5]), "C7");
    let board = ok(&r[6]);
    assert!(board.contains('X') && board.contains('O'), "{board}");
    assert!(board.contains("A B C D E F G H J"), "{board}");
    let sgf = ok(&r[7]);
    assert!(sgf.contains("SZ[9]") && sgf.contains(";B[ee]") && sgf.contains(";W[cc]"), "{sgf}");
    err(&r[8]);
    err(&r[9]);

    // An SGF with a recording error: a clean error naming the move.
    std::fs::write(&path, "(;SZ[9];B[ee];W[ee])").unwrap();
    let r = run(&format!("loadsgf {p}\nlist_stones b\n"));
    let e = err(&r[0]);
    assert!(e.contains("move 2"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn final_status_list_classifies_stones() {
    // A white stone in atari that Black can take without a retake (000 §5.5 (a)).
    let r = run("boardsize 5\nplay b C1\nplay b C2\nplay b C3\nplay b C4\nplay b C5\n\
                 play b A2\nplay b A4\nplay w A3\nfinal_status_list dead\nfinal_status_list alive\n\
                 final_status_list seki\nfinal_status_list nonsense\n");
    for resp in &r[..9] {
        ok(resp);
    }
    assert_eq!(ok(&r[9]), "A3");
    assert_eq!(sorted_words(ok(&r[10])), vec!["A2", "A4", "C1", "C2", "C3", "C4", "C5"]);
    assert_eq!(ok(&r[11]), "");
    err(&r[12]);
}

#[test]
fn bench_playouts_prints_one_json_line() {
    let (out, status) = run_raw("", &["--bench-playouts", "9x9x1", "20", "--seed", "7"]);
    assert!(status.success());
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(v["board"], "9x9x1");
    assert_eq!(v["playouts"], 20);
    let moves = v["moves"].as_u64().unwrap();
    assert!((20 * 40..=20 * 243).contains(&moves), "{moves}");
    assert!(v["cpu_seconds"].as_f64().unwrap() >= 0.0);
    assert!(v["playouts_per_cpu_s"].as_f64().is_some());
    assert!(v["moves_per_cpu_s"].as_f64().is_some());
    // Same seed, same work.
    let (out2, _) = run_raw("", &["--bench-playouts", "9x9x1", "20", "--seed", "7"]);
    let v2: serde_json::Value = serde_json::from_str(out2.trim()).unwrap();
    assert_eq!(v2["moves"], v["moves"]);

    let (_, status) = run_raw("", &["--bench-playouts", "8x9x1", "1"]);
    assert!(!status.success());
    let (_, status) = run_raw("", &["--bench-playouts", "9x9", "x"]);
    assert!(!status.success());
}

#[test]
fn final_status_list_dead_stone_behind_a_wall_000_s5_5() {
    // Regression: 5×5, Black C1–C5, White A3. The white stone is shut inside
    // the area left of Black's wall without eyes (000 §5.5 (b)); it is a
    // dead-stone suggestion, the wall is alive.
    let r = run("boardsize 5\nplay b C1\nplay w A3\nplay b C2\nplay b C3\nplay b C4\nplay b C5\n\
         final_status_list dead\nfinal_status_list alive\n");
    for resp in &r[..7] {
        ok(resp);
    }
    assert_eq!(ok(&r[7]), "A3");
    assert_eq!(sorted_words(ok(&r[8])), vec!["C1", "C2", "C3", "C4", "C5"]);
}

#[test]
fn final_status_list_seki_names_both_sides_000_s5_6() {
    // 000 §5.6: A5 is enclosed by Black alone; Black's only outside
    // liberty C5 is shared with White's living chain — a seki candidate.
    // Both sides of a seki are in seki (003 §3.3), so White's chain
    // sharing the dame is listed too; dead/alive exclude them.
    let r = run("boardsize 5\nplay b B5\nplay b A4\nplay b B4\nplay w D5\nplay w C4\nplay w D4\n\
         play w A3\nplay w B3\nplay w C3\nfinal_status_list seki\nfinal_status_list alive\nfinal_status_list dead\n");
    for resp in &r[..10] {
        ok(resp);
    }
    assert_eq!(sorted_words(ok(&r[10])), vec!["A3", "A4", "B3", "B4", "B5", "C3", "C4", "D4", "D5"]);
    assert_eq!(ok(&r[11]), "");
    assert_eq!(ok(&r[12]), "", "the seki chains are not listed dead");
}

#[test]
fn negative_komi_does_not_stick_to_black_003_s4_3() {
    // `komi -2.5` gives 2.5 to Black; a later `komi 6.5` is White's again
    // (the recipient chosen by `space_rule komi_to`, default White).
    let r = run("boardsize 5\nkomi -2.5\nfinal_score\nkomi 6.5\nfinal_score\n\
         space_rule komi_to black\nkomi 3\nfinal_score\nkomi -1\nfinal_score\n\
         space_rule komi_to white\nfinal_score\n");
    assert_eq!(ok(&r[2]), "B+2.5");
    assert_eq!(ok(&r[4]), "W+6.5");
    assert_eq!(ok(&r[7]), "B+3");
    assert_eq!(ok(&r[9]), "B+1");
    assert_eq!(ok(&r[11]), "W+1");
}

#[test]
fn computer_genmove_takes_the_capture_and_passes_when_only_eyes_remain() {
    for level in ["1", "2"] {
        let args = ["--computer", "--level", level, "--move-ms", "100", "--seed", "3"];
        // White's E5 stone has one liberty left, E6: the computer takes it.
        let script =
            "boardsize 9\nplay b D5\nplay w E5\nplay b F5\nplay w A1\nplay b E4\nplay w A2\ngenmove b\ngenmove w\n";
        let (out, status) = run_raw(script, &args);
        assert!(status.success());
        let r = split_responses(&out);
        // Level 2's answer depends on the playouts that fit in the time, so
        // only level 1 is held to the capture here (the search's tactics are
        // tested with fixed playout counts in `computer::search`).
        if level == "1" {
            assert_eq!(ok(&r[7]).to_ascii_uppercase(), "E6", "Black captures");
        }
        for resp in &r[7..9] {
            assert_ne!(ok(resp).to_ascii_lowercase(), "pass", "level {level}");
        }
        // The 3×3 board of Black with two single-point eyes: nothing but own eyes left.
        let (out, _) = run_raw(
            "boardsize 3\nplay b A2\nplay b A3\nplay b B1\nplay b B2\nplay b B3\nplay b C1\nplay b C2\ngenmove b\n",
            &args,
        );
        let r = split_responses(&out);
        assert_eq!(ok(&r[8]).to_ascii_lowercase(), "pass", "level {level}");
    }
}

#[test]
fn computer_options_are_checked() {
    for args in [
        &["--computer", "--level", "3"][..],
        &["--computer", "--level"][..],
        &["--computer", "--move-ms", "0"][..],
        &["--computer", "--model", "/nonexistent/model.json"][..],
        &["--level", "1"][..],
        &["--frobnicate"][..],
    ] {
        let out = common::run_with_stdin(BIN, args, "quit\n");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("usage:"), "{args:?}");
    }
}
