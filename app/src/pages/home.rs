//! The home page: who is signed in, the rooms, and the 3D lattice.

use crate::sync_hydrate::IntoAnySync;
use leptos::prelude::*;
use leptos::server_fn::ServerFn as _;

use crate::{
    api::{current_user, lobby, lobby_command, my_games, server_info, LobbyAction, RoomSummary, SignIn, SignOut},
    board_view::BoardCanvas,
    tr,
};

use wire::{
    commands::RoomPhase,
    listing::{Listing, SeatLabel},
};

#[component]
pub fn HomePage() -> impl IntoView {
    view! {
        <crate::pages::TopBar home=true><Account/></crate::pages::TopBar>
        <main class="home">
            <section class="board-panel" aria-labelledby="board-title">
                <h2 id="board-title">{move || tr!("home.board_title")}</h2>
                <BoardCanvas size=19/>
                <p class="hint">{move || tr!("home.rotate_hint")}" "
                    <span class="axis x">"X"</span>" "<span class="axis y">"Y"</span>" "<span class="axis z">"Z"</span>
                </p>
            </section>
            <section class="rooms-panel" aria-labelledby="rooms-title">
                <h2 id="rooms-title">{move || tr!("home.rooms")}</h2>
                <p><a href="/rooms/new" data-testid="new-room-link">{move || tr!("home.new_room")}</a></p>
                <MyGames/>
                <Lobby/>
            </section>
        </main>
        <footer class="footer"><ServerStatus/></footer>
    }
}

/// Open challenges (join with one click) and the games anyone may watch.
#[component]
fn Lobby() -> impl IntoView {
    let changed = RwSignal::new(0u32);
    let lobby = crate::pages::resource(move || changed.get(), |_| lobby());
    let me = crate::pages::resource(move || changed.get(), |_| current_user());
    let error = RwSignal::new(None::<crate::AppError>);
    let act = move |room_id: i64, action: LobbyAction| {
        let go = action == LobbyAction::TakeSeat;
        leptos::task::spawn_local(async move {
            match lobby_command(room_id, action).await {
                Ok(_) if go =>
                {
                    #[cfg(feature = "hydrate")]
                    if let Some(w) = web_sys::window() {
                        let _ = w.location().assign(&format!("/rooms/{room_id}"));
                    }
                }
                Ok(_) => changed.update(|n| *n += 1),
                Err(e) => error.set(Some(e)),
            }
        });
    };
    view! {
        <Suspense fallback=|| view! { <p>"…"</p> }>
            {move || Suspend::new(async move {
                let me = me.await.ok().flatten();
                match lobby.await {
                    Ok(l) if l.open.is_empty() && l.live.is_empty() => view! {
                        <p class="empty" data-testid="rooms-empty">{move || tr!("home.no_rooms")}</p>
                    }.into_any_sync(),
                    Ok(l) => {
                        let signed_in = me.is_some();
                        let my_name = me.map(|u| u.username).unwrap_or_default();
                        view! {
                            <h3>{move || tr!("lobby.open_title")}</h3>
                            {l.open.is_empty().then(|| view! { <p class="empty">{move || tr!("lobby.no_open")}</p> })}
                            <ul class="rooms lobby" data-testid="open-challenges">
                                {l.open.into_iter().map(|r| {
                                    let id = r.id;
                                    let mine = r.creator == my_name;
                                    view! {
                                        <li data-testid="challenge">
                                            <a href=format!("/rooms/{id}")><strong>{r.name.clone()}</strong></a>
                                            " · "{preset_text(r.preset)}" · "{r.board.clone()}
                                            {r.listing.as_ref().map(|l| {
                                                let (time, rules) = {
                                                    let lang = crate::i18n::use_lang().get_untracked();
                                                    (crate::text::time_control(lang, &l.time), crate::text::listing_rules(lang, l))
                                                };
                                                view! { <br/><span class="hint">{time}" · "{rules}</span> }
                                            })}
                                            <br/><span class="hint">{tr!("lobby.waiting", who = waiting_name(&r), since = since(r.created_at_ms))}</span>
                                            " "
                                            {if mine {
                                                view! { <button data-testid="cancel-challenge" on:click=move |_| act(id, LobbyAction::CancelRoom)>{move || tr!("lobby.cancel_room")}</button> }.into_any_sync()
                                            } else if signed_in {
                                                view! { <button class="primary" data-testid="join-challenge" on:click=move |_| act(id, LobbyAction::TakeSeat)>{move || tr!("lobby.join")}</button> }.into_any_sync()
                                            } else {
                                                view! { <span class="hint">{move || tr!("lobby.sign_in_to_join")}</span> }.into_any_sync()
                                            }}
                                        </li>
                                    }
                                }).collect_view()}
                            </ul>
                            <h3>{move || tr!("lobby.live_title")}</h3>
                            {l.live.is_empty().then(|| view! { <p class="empty">{move || tr!("lobby.no_live")}</p> })}
                            <ul class="rooms lobby" data-testid="live-games">
                                {l.live.into_iter().map(|r| view! {
                                    <li data-testid="live-game">
                                        <a href=format!("/rooms/{}", r.id)><strong>{r.name.clone()}</strong></a>
                                        " · "{preset_text(r.preset)}" · "{r.board.clone()}{mode_mark(r.mode)}
                                        {r.listing.as_ref().map(|l| view! { <br/><span class="hint">{players_line(l)}</span> })}
                                    </li>
                                }).collect_view()}
                            </ul>
                        }.into_any_sync()
                    }
                    Err(e) => view! { <p class="error" role="alert">{move || crate::text::app_error(crate::i18n::use_lang().get(), &e)}</p> }.into_any_sync(),
                }
            })}
        </Suspense>
        {move || error.get().map(|e| view! {
            <p class="error" role="alert" data-testid="lobby-error">{move || crate::text::app_error(crate::i18n::use_lang().get(), &e)}</p>
        })}
    }
}

/// Who waits in an open challenge: the person seated (the creator may have left the seat).
fn waiting_name(r: &RoomSummary) -> String {
    let seated = r.listing.as_ref().and_then(|l| {
        l.seats.iter().flatten().find_map(|s| match s {
            SeatLabel::Person { username } => Some(username.clone()),
            _ => None,
        })
    });
    seated.unwrap_or_else(|| r.creator.clone())
}

/// "2026-12-02 20:45" (UTC, the same on the server and in the browser).
fn since(ms: i64) -> String {
    let (date, time) = crate::text::calendar::date_time(ms);
    format!("{date} {time}")
}

/// "Black alice · White bob · move 12".
pub(crate) fn players_line(l: &Listing) -> String {
    let name = |c| match l.player(c) {
        Some(SeatLabel::Person { username }) => username.clone(),
        Some(SeatLabel::Guest { name }) => name.clone(),
        Some(SeatLabel::Computer) => tr!("lobby.computer"),
        None => tr!("lobby.free"),
    };
    let vs = tr!("lobby.vs", black = name(engine::Color::Black), white = name(engine::Color::White));
    format!("{vs} · {}", tr!("lobby.move_n", n = l.move_number))
}

/// The signed-in player's games: waiting for them, under way, finished. Opened as the
/// installed app (standalone display, or the manifest's start URL), the page goes straight
/// into the first that waits for them, else the most recent under way.
#[component]
fn MyGames() -> impl IntoView {
    let games = crate::pages::resource(|| (), |_| my_games());
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        let Some(Ok(g)) = games.get() else { return };
        let Some(first) = g.waiting_for_you.first().or(g.in_play.first()) else { return };
        let Some(w) = web_sys::window() else { return };
        let standalone = w.match_media("(display-mode: standalone)").ok().flatten().is_some_and(|m| m.matches());
        let from_app = w.location().search().is_ok_and(|s| s.contains("source=pwa"));
        if standalone || from_app {
            let _ = w.location().assign(&format!("/rooms/{}", first.id));
        }
    });
    let group = |key: &'static str, testid: &'static str, list: Vec<RoomSummary>| {
        (!list.is_empty()).then(|| view! {
            <h3>{move || crate::i18n::text(crate::i18n::use_lang().get(), key)}</h3>
            <ul class="rooms" data-testid=testid>
                {list.into_iter().map(|r| {
                    let detail = r.listing.as_ref().map(|l| match &l.result {
                        Some(res) => crate::text::listed_result(crate::i18n::use_lang().get_untracked(), res, l.under_review),
                        None if l.phase == RoomPhase::Open => super::words::phase_text(r.status),
                        None => players_line(l),
                    });
                    view! {
                        <li><a href=format!("/rooms/{}", r.id)><strong>{r.name}</strong></a>" · "{r.board}{mode_mark(r.mode)}
                            {detail.map(|d| view! { <br/><span class="hint">{d}</span> })}</li>
                    }
                }).collect_view()}
            </ul>
        })
    };
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                games.await.ok().map(|g| view! {
                    {group("lobby.waiting_for_you", "games-waiting", g.waiting_for_you)}
                    {group("lobby.in_play", "my-games", g.in_play)}
                    {group("lobby.finished", "games-finished", g.finished)}
                    <p><a href="/games" data-testid="archive-link">{move || tr!("archive.link")}</a></p>
                })
            })}
        </Suspense>
    }
}

#[component]
fn Account() -> impl IntoView {
    let sign_in = ServerAction::<SignIn>::new();
    let sign_out = ServerAction::<SignOut>::new();
    // Plain forms, not `ActionForm`: it reads the fields with serde_qs, which the first
    // download can do without. Without scripts they post to the same URLs.
    let (username, password) = (NodeRef::<leptos::html::Input>::new(), NodeRef::<leptos::html::Input>::new());
    // Re-read the user after every sign-in or sign-out.
    let user = crate::pages::resource(move || (sign_in.version().get(), sign_out.version().get()), |_| current_user());
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                match user.await {
                    Ok(Some(u)) => view! {
                        <div class="account" data-testid="signed-in">
                            <a href="/account" data-testid="account-link">{u.username.clone()}</a>
                            <span>" ("{role_label(u.role)}")"</span>
                            <a href=format!("/players/{}", u.username) data-testid="profile-link">{move || tr!("profile.link")}</a>
                            <form method="post" action=SignOut::url() on:submit=move |ev| {
                                ev.prevent_default();
                                sign_out.dispatch(SignOut {});
                            }>
                                <button type="submit">{move || tr!("home.sign_out")}</button>
                            </form>
                        </div>
                    }.into_any_sync(),
                    _ => view! {
                        <form method="post" action=SignIn::url() class="account signin" id="signin-form" on:submit=move |ev| {
                            ev.prevent_default();
                            if let (Some(username), Some(password)) = (username.get(), password.get()) {
                                sign_in.dispatch(SignIn { username: username.value(), password: password.value() });
                            }
                        }>
                            <label class="sr-only" for="signin-user">{move || tr!("home.user_name")}</label>
                            <input id="signin-user" node_ref=username name="username" placeholder=move || tr!("home.user_name") autocomplete="username" required/>
                            <label class="sr-only" for="signin-pass">{move || tr!("home.password")}</label>
                            <input id="signin-pass" node_ref=password type="password" name="password" placeholder=move || tr!("home.password") autocomplete="current-password" required/>
                            <button type="submit" class="primary">{move || tr!("home.sign_in")}</button>
                            <a href="/signup">{move || tr!("home.sign_up")}</a>
                        </form>
                    }.into_any_sync(),
                }
            })}
        </Suspense>
        {move || sign_in.value().get().and_then(|r| r.err()).map(|e| view! {
            <p class="error" role="alert" data-testid="signin-error">{move || crate::text::app_error(crate::i18n::use_lang().get(), &e)}</p>
        })}
    }
}

fn role_label(role: crate::Role) -> String {
    match role {
        crate::Role::Admin => tr!("home.role_admin"),
        crate::Role::Player => tr!("home.role_player"),
    }
}

/// " · practice" and the like; nothing for an ordinary match.
fn mode_mark(tag: wire::mode::ModeTag) -> Option<impl IntoView> {
    (tag != wire::mode::ModeTag::Match).then(|| {
        view! { " · "<span class="mode-tag" data-testid="mode-tag">{move || crate::text::mode_tag(crate::i18n::use_lang().get(), tag)}</span> }
    })
}

fn preset_text(preset: wire::settings::Preset) -> String {
    match preset {
        wire::settings::Preset::Classic => tr!("new.classic"),
        wire::settings::Preset::Space => tr!("new.space"),
    }
}

/// Server version from SSR, and a button that measures a live round trip after hydration.
#[component]
fn ServerStatus() -> impl IntoView {
    let info = crate::pages::resource(|| (), |_| server_info());
    let check = Action::new(|_: &()| async move {
        let started = now_ms();
        server_info().await.map(|i| (i, now_ms() - started))
    });
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                info.await.ok().map(|i| view! {
                    <span data-testid="server-version">{i.product}" "{i.version}</span>
                })
            })}
        </Suspense>
        " · "
        <button type="button" data-testid="check-server" on:click=move |_| { check.dispatch(()); }>
            {move || tr!("home.check_server")}
        </button>
        <span data-testid="check-result" aria-live="polite">
            {move || match check.value().get() {
                None if check.pending().get() => "…".to_string(),
                None => String::new(),
                Some(Ok((i, ms))) => format!(" ✓ {} {} · {:.0} ms", i.product, i.version, ms),
                Some(Err(e)) => format!(" ✗ {e}"),
            }}
        </span>
    }
}

fn now_ms() -> f64 {
    #[cfg(feature = "hydrate")]
    {
        js_sys::Date::now()
    }
    #[cfg(not(feature = "hydrate"))]
    {
        0.0
    }
}
