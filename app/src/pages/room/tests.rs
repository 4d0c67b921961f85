//! The room page rendered on the server in every language of the catalogue, at each stage of
//! a Classic game and of a Space game, as a spectator and as the player to move: no text is
//! empty, a catalogue key or an unfilled parameter, and in the pseudo-locale every word comes
//! from the catalogue.

use leptos::prelude::*;

use crate::sync_hydrate::IntoAnySync;

use super::Room;
use crate::{
    api::auth::UserView,
    data::sha256_hex,
    i18n::{pseudo::QPS, Lang, UiLang},
    text::tests::outside_catalogue,
    Role,
};
use room::MatchState;
use wire::{
    commands::{Command, Requester, RoomPhase},
    events::{RoomSecrets, Xyz},
    referee::{ChainRuling, ChainVerdict},
    settings::{ColourAssignment, MatchSettings},
};

const HOST: i64 = 1;
const GUEST: i64 = 2;
/// An administrator, who sees the room with the referee's desk (`/admin/rooms/{id}`).
const ADMIN: i64 = 3;

fn caller(id: i64) -> Requester {
    Requester { user_id: id, username: name(id), role: Role::Player }
}
fn name(id: i64) -> String {
    ["", "host", "guest", "admin"][id as usize].to_string()
}

/// A room and a command script: the state after each stage worth looking at.
fn stages(mut settings: MatchSettings, first: Xyz, second: Xyz) -> Vec<(&'static str, MatchState)> {
    settings.colours = ColourAssignment::HostBlack;
    let secrets = RoomSecrets { invite_sha256: [sha256_hex("a"), sha256_hex("b")], nigiri_seed: Some(1) };
    let mut s = MatchState::new("Room".into(), settings, HOST, secrets).expect("valid settings");
    let mut now = 0;
    let mut run = |s: &mut MatchState, who: i64, c: Command| {
        now += 1000;
        let d = s.handle(&caller(who), &c, now);
        assert!(d.outcome.is_ok(), "{c:?}: {:?}", d.outcome);
    };
    let mut out = Vec::new();
    run(&mut s, HOST, Command::Join { code: "a".into() });
    out.push(("open", s.clone()));
    run(&mut s, GUEST, Command::Join { code: "b".into() });
    run(&mut s, HOST, Command::Confirm);
    run(&mut s, GUEST, Command::Confirm);
    out.push(("waiting_ready", s.clone()));
    run(&mut s, HOST, Command::Ready);
    run(&mut s, GUEST, Command::Ready);
    run(&mut s, HOST, Command::Move { at: first });
    run(&mut s, GUEST, Command::Acknowledge { move_number: 1 });
    run(&mut s, GUEST, Command::Move { at: second });
    run(&mut s, HOST, Command::Acknowledge { move_number: 2 });
    out.push(("playing", s.clone()));
    let mut resigned = s.clone();
    run(&mut s, HOST, Command::Pass);
    run(&mut s, GUEST, Command::Acknowledge { move_number: 3 });
    run(&mut s, GUEST, Command::Pass);
    assert_eq!(s.phase(), RoomPhase::Scoring);
    out.push(("scoring", s.clone()));
    // An administrator's ruling: everyone sees it with its reasons (003 §3.6).
    let mut ruled = s.clone();
    let admin = Requester { user_id: 9, username: "admin".into(), role: Role::Admin };
    let ruling = Command::AdminRuling {
        chains: vec![ChainRuling { at: first, verdict: ChainVerdict::Dead }],
        regions: Vec::new(),
        reasons: "x".into(),
    };
    let d = ruled.handle(&admin, &ruling, 100_000);
    assert!(d.outcome.is_ok(), "{:?}", d.outcome);
    assert_eq!(ruled.referee.rulings.len(), 1);
    out.push(("ruled", ruled));
    run(&mut resigned, HOST, Command::Resign);
    assert_eq!(resigned.phase(), RoomPhase::Finished);
    out.push(("finished", resigned));
    out
}

/// The room page's HTML as `who` (a seated player, or a spectator) sees it in `lang`.
fn render(lang: Lang, s: &MatchState, who: Option<i64>) -> String {
    let viewer = who.map(caller);
    let view = s.view(7, viewer.as_ref(), 60_000, 1);
    let admin = who == Some(ADMIN);
    let role = if admin { Role::Admin } else { Role::Player };
    // The administrator's room page: the console's desk below the board.
    let desk = admin.then_some((|| crate::pages::admin::desk::DeskPanel().into_any_sync()) as fn() -> AnyView);
    let me = who.map(|id| UserView { id, username: name(id), role });
    let owner = Owner::new();
    owner.with(|| {
        provide_context(UiLang(RwSignal::new(lang)));
        view! { <Room initial=view me=me code=None desk=desk/> }.to_html()
    })
}

/// The texts a reader meets: text nodes and the attributes read aloud or shown on hover.
fn texts(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        out.push(unescape(&rest[..open]));
        rest = &rest[open..];
        if let Some(after) = rest.strip_prefix("<!--") {
            rest = after.find("-->").map_or("", |e| &after[e + 3..]);
            continue;
        }
        let close = rest.find('>').unwrap_or(rest.len() - 1);
        let tag = &rest[..close];
        for attr in ["aria-label=\"", "title=\"", "placeholder=\"", "alt=\""] {
            if let Some(at) = tag.find(attr) {
                let value = &tag[at + attr.len()..];
                out.push(unescape(&value[..value.find('"').unwrap_or(value.len())]));
            }
        }
        rest = &rest[close + 1..];
    }
    out.push(unescape(rest));
    out.into_iter().map(|t| t.trim().to_string()).filter(|t| !t.is_empty()).collect()
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&")
}

/// Every `<button>` says what it does, in words or in its `aria-label`.
fn assert_buttons_speak(html: &str, context: &str) {
    for (i, _) in html.match_indices("<button") {
        let tag_end = i + html[i..].find('>').expect("tag closes");
        let end = tag_end + html[tag_end..].find("</button>").expect("button closes");
        let inner = texts(&html[tag_end + 1..end]).concat();
        let labelled = html[i..tag_end].contains("aria-label=\"");
        assert!(!inner.is_empty() || labelled, "{context}: an empty button: {}", &html[i..end]);
    }
}

fn catalogue_keys() -> Vec<String> {
    let english = crate::_rust_i18n_backend().messages_for_locale(Lang::DEFAULT.code()).unwrap_or_default();
    english.into_iter().map(|(k, _)| k.into_owned()).collect()
}

fn check_room(settings: MatchSettings, first: Xyz, second: Xyz) {
    let keys = catalogue_keys();
    // Data, not text: the names, the product's name, coordinates such as "D4", and each
    // language's name in itself (the switch offers the next one so).
    let mut data_words: Vec<String> =
        ["Space Baduk", "Room", "host", "guest", "admin", "JSON", "SGF", "WebGL2"].map(String::from).to_vec();
    data_words.extend(Lang::all().into_iter().filter(|l| *l != QPS).map(Lang::name));
    let data = |t: &str| {
        let mut t = t.to_string();
        for d in &data_words {
            t = t.replace(d.as_str(), " ");
        }
        t
    };
    for (stage, s) in stages(settings, first, second) {
        for who in [None, Some(HOST), Some(GUEST), Some(ADMIN)] {
            for lang in Lang::all() {
                let context = format!("{} {stage} as {who:?} in {}", s.settings().preset.as_str(), lang.code());
                let html = render(lang, &s, who);
                assert_buttons_speak(&html, &context);
                let texts = texts(&html);
                assert!(texts.len() > 5, "{context}: the page renders: {html}");
                for t in &texts {
                    assert!(!t.contains("%{"), "{context}: unfilled parameter in {t:?}");
                    for k in &keys {
                        assert_ne!(t, k, "{context}: shows the key {k}");
                        assert!(!t.contains(&format!("{}.{k}", lang.code())), "{context}: a missing key in {t:?}");
                    }
                    if lang == QPS {
                        let outside = outside_catalogue(&data(t));
                        let coordinate = |w: &str| w.chars().count() <= 1;
                        assert!(
                            outside.split_whitespace().all(coordinate),
                            "{context}: {t:?} has words from outside the catalogue: {outside:?}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn a_classic_room_renders_from_the_catalogue_in_every_language() {
    let xyz = |x, y| Xyz { x, y, z: 1 };
    check_room(MatchSettings::classic_default(9), xyz(3, 3), xyz(7, 7));
}

#[test]
fn a_space_room_renders_from_the_catalogue_in_every_language() {
    let mut s = MatchSettings::space_default();
    s.board = engine::BoxSpec { x: engine::Axis::one_to(5), y: engine::Axis::one_to(5), z: engine::Axis::one_to(5) };
    let xyz = |x, y, z| Xyz { x, y, z };
    check_room(s, xyz(1, 1, 1), xyz(5, 5, 5));
}

/// The coordinate entry names what may be typed: 9×9 columns A–J (no I) and rows 1–9, a Space
/// box its own numbers.
#[test]
fn the_coordinate_entry_names_the_boards_own_ranges() {
    let xyz = |x, y| Xyz { x, y, z: 1 };
    let (_, playing) = stages(MatchSettings::classic_default(9), xyz(3, 3), xyz(7, 7)).swap_remove(2);
    let html = render(Lang::EN, &playing, Some(HOST));
    assert!(html.contains("Column (A–J)") && html.contains("Row (1–9)"), "{html}");
    let mut space = MatchSettings::space_default();
    space.board = engine::BoxSpec { x: engine::Axis { start: -2, end: 2 }, ..space.board };
    let (_, playing) = stages(space, Xyz { x: 0, y: 1, z: 1 }, Xyz { x: 1, y: 5, z: 5 }).swap_remove(2);
    let html = render(Lang::EN, &playing, Some(HOST));
    assert!(html.contains("X (-2–2)") && html.contains("Z (1–"), "{html}");
}

/// The room page as `viewer` (any user, or nobody) sees it.
fn render_for(lang: Lang, s: &MatchState, viewer: Option<Requester>) -> String {
    let view = s.view(7, viewer.as_ref(), 60_000, 1);
    let me = viewer.map(|v| UserView { id: v.user_id, username: v.username, role: v.role });
    let owner = Owner::new();
    owner.with(|| {
        provide_context(UiLang(RwSignal::new(lang)));
        view! { <Room initial=view me=me code=None desk=None/> }.to_html()
    })
}

/// 003 §8.1: the download links for the players, administrators and viewers both players
/// approved, and for nobody else; the players approve by user name and see by whom.
#[test]
fn the_record_links_follow_who_may_read_the_record() {
    use room::SeatHolder;
    let xyz = |x, y| Xyz { x, y, z: 1 };
    let (_, mut s) = stages(MatchSettings::classic_default(9), xyz(3, 3), xyz(7, 7)).swap_remove(2);
    let viewer = Requester { user_id: 5, username: "dave".into(), role: Role::Player };
    let admin = Requester { user_id: 6, username: "referee".into(), role: Role::Admin };
    let links =
        |html: &str| html.contains("data-testid=\"record-json\"") && html.contains("data-testid=\"record-sgf\"");
    let form = |html: &str| html.contains("data-testid=\"record-viewer-name\"");
    for who in [caller(HOST), caller(GUEST)] {
        let html = render_for(Lang::EN, &s, Some(who));
        assert!(links(&html) && form(&html), "a player downloads and approves");
        assert!(html.contains("No viewer approved yet"), "{html}");
    }
    let html = render_for(Lang::EN, &s, Some(admin.clone()));
    assert!(links(&html) && !form(&html), "an administrator downloads but does not approve");
    for who in [None, Some(viewer.clone())] {
        let html = render_for(Lang::EN, &s, who);
        assert!(!links(&html) && !form(&html), "no links for a spectator: {html}");
    }
    let dave = SeatHolder { user_id: 5, username: "dave".into() };
    assert!(s.approve_record_viewer(&caller(HOST), "dave", Some(&dave), 70_000).outcome.is_ok());
    let html = render_for(Lang::EN, &s, Some(viewer.clone()));
    assert!(!links(&html), "one approval is not enough");
    assert!(html.contains("dave: approved by Black, waiting for White"), "{html}");
    assert!(s.approve_record_viewer(&caller(GUEST), "dave", Some(&dave), 71_000).outcome.is_ok());
    let html = render_for(Lang::EN, &s, Some(viewer));
    assert!(links(&html) && !form(&html), "an approved viewer downloads");
    assert!(html.contains("dave: approved by both players"), "{html}");
    let ko = render_for(Lang::KO, &s, Some(caller(HOST)));
    assert!(ko.contains("dave: 두 대국자 모두 승인") && ko.contains("관전자 아이디"), "{ko}");
    // A stranger sees the approvals, not the links.
    let stranger = Requester { user_id: 8, username: "carol".into(), role: Role::Player };
    let html = render_for(Lang::EN, &s, Some(stranger));
    assert!(!links(&html) && html.contains("dave: approved by both players"));
}

/// A ruling is shown to everyone with its verdict per chain and its reasons; players in
/// scoring get the opinion form, and the objection once a ruling exists (003 §3.6).
#[test]
fn a_ruling_and_the_players_referee_controls_render() {
    let xyz = |x, y| Xyz { x, y, z: 1 };
    let all = stages(MatchSettings::classic_default(9), xyz(3, 3), xyz(7, 7));
    let (_, ruled) = all.iter().find(|(n, _)| *n == "ruled").expect("a ruled stage").clone();
    let spectator = render(Lang::EN, &ruled, None);
    assert!(
        spectator.contains("data-testid=\"rulings\"") && spectator.contains("data-testid=\"ruled-3-3-1\""),
        "{spectator}"
    );
    assert!(!spectator.contains("data-testid=\"opinion-form\""), "spectators have no command");
    let player = render(Lang::EN, &ruled, Some(GUEST));
    assert!(
        player.contains("data-testid=\"opinion-form\"") && player.contains("data-testid=\"object-ruling\""),
        "{player}"
    );
    let (_, playing) = all.iter().find(|(n, _)| *n == "playing").expect("a playing stage").clone();
    assert!(render(Lang::EN, &playing, Some(HOST)).contains("data-testid=\"call-admin\""));
    let desk = render(Lang::EN, &ruled, Some(ADMIN));
    for id in ["referee-desk", "ruling-form", "send-ruling", "action-hold", "send-decide", "reasons"] {
        assert!(desk.contains(&format!("data-testid=\"{id}\"")), "{id}: {desk}");
    }
    let (_, finished) = all.iter().find(|(n, _)| *n == "finished").expect("a finished stage").clone();
    assert!(render(Lang::EN, &finished, Some(HOST)).contains("data-testid=\"request-correction\""));
}
