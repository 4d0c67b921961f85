//! The room page (`/rooms/{id}`): the board views, the game panel and, in scoring, the
//! scoring panel. The server is the authority: the page shows the server's `RoomView`,
//! refreshed after every event of the room's live stream, and sends commands through the
//! `match_command` server function. It never decides legality itself.

mod actions;
mod bar;
mod board2d;
mod chains;
pub mod conduct;
mod history;
mod layer_text;
mod looking_back;
mod seating;
pub use seating::ReadyButton;
mod live;
mod panel;
mod point_labels;
pub use point_labels::{fmt_xyz, label, label_set};
pub mod reasons;
mod referee;
mod scoring;
mod sound;
mod space;
#[cfg(all(test, feature = "ssr"))]
mod tests;
mod top_bar;

/// Who may read the stored record, and the players' approvals (003 §8.1).
mod records;
pub use chains::chain_of;
mod replay;
pub use replay::ReplayPage;

use wire::commands::RoomPhase;
// The page words every part of the room uses (`super::colour_text`, …).
use super::words::{colour_text, phase_text, tr_dyn, tr_dyn_with};
use crate::sync_hydrate::IntoAnySync;
use leptos::{prelude::*, task::spawn_local};
use leptos_router::hooks::{use_params_map, use_query_map};

use crate::{
    api::{current_user, match_command, match_view, UserView},
    tr, AppError,
};

use wire::{
    commands::Command,
    events::{Colour, Event, MarkKind, StoredEvent, Xyz},
    settings::Preset,
    view::RoomView,
};

/// What the page tells the player (003 §2.5–2.6): kind decides the styling and the ARIA role.
#[derive(Debug, Clone, PartialEq)]
pub enum Notice {
    Info(String),
    Error(String),
}

/// The page's shared state, passed to every part of it.
#[derive(Clone, Copy)]
pub struct RoomCtx {
    pub id: i64,
    pub view: RwSignal<RoomView>,
    pub events: RwSignal<Vec<StoredEvent>>,
    pub me: RwSignal<Option<UserView>>,
    /// The selected point (a preview only this player sees, 003 §2.4).
    pub selection: RwSignal<Option<Xyz>>,
    /// The active Z layer shared by both views (003 §7.6).
    pub layer: RwSignal<i64>,
    /// A command is in flight: the confirm button is locked (003 §2.6).
    pub busy: RwSignal<bool>,
    pub notice: RwSignal<Option<Notice>>,
    /// Local time (ms), ticking once a second in the browser; the server's at first.
    pub now: RwSignal<f64>,
    /// Local time minus server time when the current view arrived.
    pub offset: RwSignal<f64>,
    pub mark_kind: RwSignal<MarkKind>,
    /// Classic 9×9 only: place on the first tap (000 §9).
    pub one_tap: RwSignal<bool>,
    /// A spoken summary of the latest event (the live region).
    pub announcement: RwSignal<String>,
    /// Stones just captured, shown fading out when animations are on (000 §9).
    pub ghosts: RwSignal<Vec<(Xyz, Colour)>>,
    pub animate: RwSignal<bool>,
    /// Sounds and the spoken countdown (000 §9): on unless this browser turned them off.
    pub sound: RwSignal<bool>,
    /// The point last tapped (any view, any phase): the chain an opinion is about.
    pub inspected: RwSignal<Option<Xyz>>,
    /// A view fetch is in flight / another was asked for meanwhile: a burst of events (a
    /// reconnection's gap) costs two fetches, not one per event.
    pub fetching: StoredValue<(bool, bool)>,
    /// How many positions back from the live one the boards show (0: live).
    pub back: RwSignal<usize>,
    /// The position the boards show: live, or one stepped back to.
    pub shown: Memo<Shown>,
}

/// The stones the boards show, the move that made the position and what it captured, and,
/// when stepped back, how far and at which move.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Shown {
    pub stones: Vec<(Xyz, Colour)>,
    pub last: Option<Xyz>,
    pub captured: Vec<Xyz>,
    pub back: Option<Back>,
}

/// How far back the boards are: `steps` positions before live, at move `move_number`, the
/// position after event `seq`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Back {
    pub steps: usize,
    pub move_number: u32,
    pub seq: i64,
}

impl RoomCtx {
    /// A room's context showing `view`: nothing selected, the layer of the last move (else
    /// the middle one), the clocks read at the view's time, sound off until the page says.
    pub fn new(view: RoomView, me: Option<UserView>) -> RoomCtx {
        let b = view.settings.board;
        let layer = view.last_move.map(|m| m.z).unwrap_or((b.z.start + b.z.end) / 2);
        let view = RwSignal::new(view);
        let events = RwSignal::new(Vec::<StoredEvent>::new());
        let back = RwSignal::new(0usize);
        let shown = Memo::new(move |_| {
            let n = back.get();
            view.with(|v| {
                events.with(|es| match history::position(&v.stones, es, n) {
                    Some(p) => Shown {
                        stones: p.stones,
                        last: p.last,
                        captured: p.captured,
                        back: Some(Back { steps: n, move_number: p.move_number, seq: p.seq }),
                    },
                    None => Shown {
                        stones: v.stones.clone(),
                        last: v.last_move,
                        // The marks of the last move's captures, while it is the last move.
                        captured: if history::last_move(es) == v.last_move {
                            history::last_captures(es)
                        } else {
                            Vec::new()
                        },
                        back: None,
                    },
                })
            })
        });
        RoomCtx {
            id: view.with_untracked(|v| v.room_id),
            now: RwSignal::new(view.with_untracked(|v| v.server_time_ms) as f64),
            view,
            events,
            back,
            shown,
            me: RwSignal::new(me),
            selection: RwSignal::new(None),
            layer: RwSignal::new(layer),
            busy: RwSignal::new(false),
            notice: RwSignal::new(None),
            offset: RwSignal::new(0.0),
            mark_kind: RwSignal::new(MarkKind::Dead),
            one_tap: RwSignal::new(false),
            announcement: RwSignal::new(String::new()),
            ghosts: RwSignal::new(Vec::new()),
            animate: RwSignal::new(true),
            sound: RwSignal::new(false),
            inspected: RwSignal::new(None),
            fetching: StoredValue::new((false, false)),
        }
    }

    pub fn my_colour(&self) -> Option<Colour> {
        self.view.with(|v| v.your_colour)
    }
    pub fn is_flat(&self) -> bool {
        self.view.with(|v| v.settings.board.z.start == v.settings.board.z.end)
    }
    pub fn preset(&self) -> Preset {
        self.view.with(|v| v.settings.preset)
    }

    /// Sends a command; afterwards the view is refreshed (the stream does it as well).
    pub fn send(self, cmd: Command) {
        self.send_and(cmd, |_| {});
    }

    /// Sends a command and tells `done` whether it was accepted (a refusal is shown).
    pub fn send_and(self, cmd: Command, done: impl FnOnce(bool) + 'static) {
        if self.busy.get_untracked() {
            return;
        }
        self.busy.set(true);
        let is_move = matches!(cmd, Command::Move { .. });
        // Taken before the task: after an await it runs outside the page's owner.
        let lang = crate::i18n::use_lang();
        spawn_local(async move {
            let r = match_command(self.id, cmd).await;
            self.busy.set(false);
            match r {
                Ok(_) => {
                    if is_move {
                        self.selection.set(None);
                    }
                    self.notice.set(None);
                    done(true);
                }
                Err(e) => {
                    let text = self.view.with_untracked(|v| room_error(lang.get_untracked(), v, &e));
                    self.notice.set(Some(Notice::Error(text)));
                    done(false);
                    // A refusal: the view may be behind what the server holds.
                    self.refresh();
                }
            }
            // Accepted: its events come on the stream, which applies or fetches (live.rs).
        });
    }

    /// Fetches the current view (kept only if it is not older than the one shown).
    pub fn refresh(self) {
        let Some((in_flight, _)) = self.fetching.try_get_value() else { return };
        if in_flight {
            self.fetching.try_set_value((true, true));
            return;
        }
        self.fetching.try_set_value((true, false));
        spawn_local(async move {
            loop {
                let mut behind = false;
                if let Ok(mut v) = match_view(self.id).await {
                    if v.version >= self.view.with_untracked(|c| c.version) {
                        // Events applied while this view was on its way (they came without
                        // the view's fields, so the page's version is older than they are)
                        // are applied to it again, or, if one cannot be, it is asked again.
                        let later: Vec<Event> = self.events.with_untracked(|es| {
                            es.iter().filter(|e| e.seq > v.version).map(|e| e.event.clone()).collect()
                        });
                        behind = !later.iter().all(wire::live_view::applied_in_browser);
                        if !behind {
                            later.iter().for_each(|e| v.apply_live(e, None));
                            self.offset.set(local_now() - v.server_time_ms as f64);
                            self.view.set(v);
                        }
                    }
                }
                // Asked again while fetching: one more fetch covers all of those events.
                let Some((_, again)) = self.fetching.try_get_value() else { break };
                if behind && !again {
                    // The server's view is older than events the stream already brought (an
                    // instance catching up): asked again after a pause, not in a tight loop.
                    self.fetching.try_set_value((false, false));
                    set_timeout(move || self.refresh(), BEHIND_PAUSE);
                    break;
                }
                self.fetching.try_set_value((again, false));
                if !again {
                    break;
                }
            }
        });
    }

    /// A tap or click on point `at` in any view.
    pub fn tap(self, at: Xyz) {
        self.inspected.set(Some(at));
        let (phase, occupied) = self.view.with_untracked(|v| (v.phase, v.stones.iter().any(|(p, _)| *p == at)));
        self.layer.set(at.z);
        if self.looking_back() {
            return;
        }
        if phase == RoomPhase::Scoring && self.my_colour().is_some() {
            let marked = self.view.with_untracked(|v| {
                v.scoring.as_ref().is_some_and(|s| s.marks.iter().any(|m| same_target(v, m.at, at)))
            });
            let kind = self.mark_kind.get_untracked();
            if occupied || kind == MarkKind::Seki {
                let cmd = if marked && self.preset() == Preset::Space {
                    Command::Unmark { at }
                } else {
                    Command::Mark { at, kind: if occupied && kind == MarkKind::Seki { MarkKind::Dead } else { kind } }
                };
                self.send(cmd);
            }
            return;
        }
        if occupied {
            // 003 §7.7: choosing an occupied point clears an earlier empty-point selection.
            self.selection.set(None);
            self.notice.set(Some(Notice::Info(tr!("room.occupied", at = fmt_xyz(self, at)))));
            return;
        }
        self.selection.set(Some(at));
        // 000 §9: a point the player may not take says why at once, before any confirmation.
        let illegal = self.view.with_untracked(|v| {
            v.hints.as_ref().and_then(|h| h.illegal.iter().find(|(p, _)| *p == at).map(|(_, kind)| *kind))
        });
        match illegal {
            Some(kind) => {
                let why = tr_dyn(&format!("reason.{}", kind.as_str()));
                self.notice.set(Some(Notice::Error(tr!("room.illegal_here", at = fmt_xyz(self, at), reason = why))));
            }
            None => self.notice.set(None),
        }
        if illegal.is_none() && self.one_tap.get_untracked() && self.is_flat() {
            self.confirm();
        }
    }

    /// The boards show an earlier position: a tap there names a point of the past, nothing
    /// to play or mark (the player is told how to go back to live).
    fn looking_back(self) -> bool {
        let back = self.back.get_untracked() > 0;
        if back {
            self.notice.set(Some(Notice::Info(tr!("table.past_position"))));
        }
        back
    }

    /// The yellow confirm button (003 §2.4, §2.6).
    pub fn confirm(self) {
        if self.looking_back() {
            return;
        }
        let Some(at) = self.selection.get_untracked() else {
            self.notice.set(Some(Notice::Info(tr!("room.select_first"))));
            return;
        };
        let (phase, to_move) = self.view.with_untracked(|v| (v.phase, v.to_move));
        if phase != RoomPhase::Playing {
            self.notice.set(Some(Notice::Info(tr!("room.not_playing", phase = phase_text(phase)))));
            return;
        }
        if self.my_colour() != Some(to_move) {
            // The selection stays for inspection (003 §2.6, §7.3).
            self.notice.set(Some(Notice::Info(tr!("room.opponents_turn"))));
            return;
        }
        self.send(Command::Move { at });
    }
}

/// How long the page waits before asking again for a view that came back older than events
/// the stream had already brought.
const BEHIND_PAUSE: std::time::Duration = std::time::Duration::from_millis(250);

/// Whether a mark at `mark` already covers the point tapped: the same point or the same
/// chain (the server decides; this only picks Mark or Unmark for the tap).
fn same_target(v: &RoomView, mark: Xyz, at: Xyz) -> bool {
    mark == at || chain_of(v, mark).contains(&at)
}

/// Whether the page is wider than a phone (the room folds some parts away on a phone). True
/// on the server, whose page the browser then folds.
pub fn wide_screen() -> bool {
    #[cfg(feature = "hydrate")]
    {
        web_sys::window().and_then(|w| w.match_media("(max-width: 700px)").ok().flatten()).is_none_or(|m| !m.matches())
    }
    #[cfg(not(feature = "hydrate"))]
    {
        true
    }
}

pub fn local_now() -> f64 {
    #[cfg(feature = "hydrate")]
    {
        js_sys::Date::now()
    }
    #[cfg(not(feature = "hydrate"))]
    {
        0.0
    }
}

/// A refusal as the player reads it: the server's typed error in the page's language, with
/// the coordinate and the reason when a move was illegal (003 §2.5).
pub fn describe_error(e: &AppError) -> String {
    crate::text::app_error(crate::i18n::use_lang().get(), e)
}

/// A refusal in the room's own words: an illegal point is named by the room's labels, as the
/// selection and the move list name it (003 §2.5, §7.1).
pub fn room_error(lang: crate::i18n::Lang, v: &RoomView, e: &AppError) -> String {
    if let AppError::Match(wire::commands::MatchError::Illegal { at, reason }) = e {
        let reason = crate::text::t(lang, &format!("reason.{}", reason.as_str()));
        return crate::text::t_with(lang, "error.illegal", &[("at", &label(v, *at)), ("reason", &reason)]);
    }
    crate::text::app_error(lang, e)
}

/// One event as a line of the move list and as a spoken announcement.
pub fn event_line(v: &RoomView, e: &Event) -> Option<(String, bool)> {
    let name = |c: &Colour| colour_text(*c);
    Some(match e {
        Event::MovePlayed { colour, at, move_number, captured } => {
            let mut s = format!("{move_number}. {} {}", name(colour), label(v, *at));
            if !captured.is_empty() {
                s.push_str(&format!(", {}", tr!("room.captured", n = captured.len())));
            }
            (s, false)
        }
        Event::Passed { colour, move_number } => {
            (format!("{move_number}. {} {}", name(colour), tr!("room.pass")), false)
        }
        Event::IllegalAttempt { colour, at, reason, .. } => {
            (format!("✗ {} {} — {}", name(colour), label(v, *at), tr_dyn(&format!("reason.{}", reason.as_str()))), true)
        }
        Event::UndoAccepted { at, undone_colour, .. } => {
            (format!("↶ {} {} ({})", name(undone_colour), label(v, *at), tr!("room.undone")), false)
        }
        Event::TakenBack { moves, .. } => {
            let each: Vec<String> = moves
                .iter()
                .map(|m| {
                    let what = m.at.map_or_else(|| tr!("room.pass"), |at| label(v, at));
                    format!("{} {what}", name(&m.colour))
                })
                .collect();
            (format!("↶ {} ({})", each.join(", "), tr!("room.taken_back")), false)
        }
        Event::Resigned { colour } => (format!("{} {}", name(colour), tr!("room.resigned")), false),
        Event::Ended { result, .. } => (crate::text::result(crate::i18n::use_lang().get_untracked(), result), false),
        _ => return None,
    })
}

#[component]
pub fn RoomPage() -> impl IntoView {
    room_page(None)
}

/// The room page; with a `desk` (`/admin/rooms/{id}`: the referee's, made by the console) it
/// spans the page below the board.
pub fn room_page(desk: Option<fn() -> AnyView>) -> impl IntoView {
    let params = use_params_map();
    let query = use_query_map();
    let id = move || params.read().get("id").and_then(|s| s.parse::<i64>().ok());
    let code = move || query.read().get("code");
    let data = crate::pages::resource(id, |id| async move {
        let id = id.ok_or_else(|| AppError::invalid("room", "not a room number"))?;
        let view = match_view(id).await?;
        let me = current_user().await.ok().flatten();
        Ok::<_, AppError>((view, me))
    });
    view! {
        <Suspense fallback=|| view! { <p class="page">"…"</p> }>
            {move || Suspend::new(async move {
                match data.await {
                    Ok((view, me)) => view! { <Room initial=view me=me code=code() desk=desk/> }.into_any_sync(),
                    Err(e) => view! {
                        <main class="page"><h1>"Space Baduk"</h1>
                            <p class="error" role="alert">{describe_error(&e)}</p>
                            <p><a href="/">{move || tr!("nav.home")}</a></p>
                        </main>
                    }.into_any_sync(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn Room(initial: RoomView, me: Option<UserView>, code: Option<String>, desk: Option<fn() -> AnyView>) -> impl IntoView {
    let ctx = RoomCtx::new(initial, me);
    ctx.sound.set(sound::remembered());
    provide_context(ctx);
    live::start(ctx);
    your_move_in_title(ctx);
    let flat = ctx.is_flat();
    // On a phone: the bar (turn, clocks), the board, then the action of the moment, in the
    // page's order (so the keyboard's and a screen reader's too); the rest follows, folded.
    // On a wide screen the board takes the left, the bar and the action head the right.
    view! {
        <top_bar::RoomTopBar text_size=true>
            <span class="room-name" data-testid="room-name">{move || ctx.view.with(|v| v.name.clone())}</span>
        </top_bar::RoomTopBar>
        <div class="sr-only" aria-live="polite" data-testid="announce">{move || ctx.announcement.get()}</div>
        // data-version: the last event the page holds, so a test can wait until it is in step.
        <main class="room" class:flat=flat class:with-desk=desk.is_some() data-version=move || ctx.view.with(|v| v.version)
            data-phase=move || ctx.view.with(|v| v.phase.as_str())
            class:counting=move || ctx.my_colour().and_then(|c| sound::countdown(ctx, c)).is_some()>
            // 000 §9: the last seconds of a byo-yomi period in large numbers.
            {move || ctx.my_colour().and_then(|c| sound::countdown(ctx, c)).map(|n| view! {
                <div class="countdown" data-testid="countdown" aria-hidden="true">{n}</div>
            })}
            {view! { <seating::Seating code=code/> }.into_any_sync()}
            {view! { <bar::GameBar/> }.into_any_sync()}
            {if flat {
                view! { <section class="board-area"><board2d::FlatBoard/><looking_back::HistoryControls/></section> }.into_any_sync()
            } else {
                view! { <section class="board-area space"><space::SpaceViews/><looking_back::HistoryControls/></section> }.into_any_sync()
            }}
            {view! { <actions::ActionZone/> }.into_any_sync()}
            <aside class="side">
                // The box as text, a layer at a time: another board, right after the action.
                {(!flat).then(|| view! { <layer_text::LayerText/> }.into_any_sync())}
                {view! { <referee::Rulings/> }.into_any_sync()}
                {view! { <referee::PlayerReferee/> }.into_any_sync()}
                {view! { <conduct::Sanctions/> }.into_any_sync()}
                {view! { <panel::MoveList/> }.into_any_sync()}
                {view! { <panel::Footer/> }.into_any_sync()}
                {view! { <records::RecordViewers/> }.into_any_sync()}
                {view! { <panel::Preferences/> }.into_any_sync()}
                {view! { <conduct::ReportForm/> }.into_any_sync()}
            </aside>
            // The referee's desk spans the page below the board: its tables need the width.
            {desk.map(|d| view! { <div class="desk-area">{d()}</div> }.into_any_sync())}
        </main>
    }
}

/// The tab's title and icon say when it is this player's move (a tab in the background is
/// how most people wait for a reply): "● Your move · room" and the icon with a dot.
fn your_move_in_title(ctx: RoomCtx) {
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        let (mine, name) = ctx.view.with(|v| {
            let mine = v.phase == RoomPhase::Playing
                && v.your_colour == Some(v.to_move)
                && !v.settings.mode.one_screen_both_colours();
            (mine, v.name.clone())
        });
        let title = if mine { tr!("table.title_your_move", room = name) } else { format!("{name} · Space Baduk") };
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
        doc.set_title(&title);
        if let Ok(Some(icon)) = doc.query_selector("link[rel~=icon]") {
            let href = if mine { YOUR_MOVE_ICON } else { PLAIN_ICON };
            let _ = icon.set_attribute("href", href);
        }
    });
    // Leaving the room for another page of the app: the tab no longer says it is your move.
    #[cfg(feature = "hydrate")]
    on_cleanup(|| {
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
        doc.set_title("Space Baduk");
        if let Ok(Some(icon)) = doc.query_selector("link[rel~=icon]") {
            let _ = icon.set_attribute("href", PLAIN_ICON);
        }
    });
    #[cfg(not(feature = "hydrate"))]
    let _ = ctx;
}

/// The product's icon with a yellow dot in its corner: the tab's icon while it is your move.
#[cfg(feature = "hydrate")]
const YOUR_MOVE_ICON: &str = "/icons/your-move.svg";
#[cfg(feature = "hydrate")]
const PLAIN_ICON: &str = "/icons/icon-192.png";
