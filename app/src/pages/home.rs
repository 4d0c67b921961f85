//! The home page: who is signed in, the rooms, and the 3D lattice.

use leptos::prelude::*;

use crate::{
    api::{current_user, list_rooms, my_games, server_info, SignIn, SignOut},
    board_view::BoardCanvas,
    tr,
};

#[component]
pub fn HomePage() -> impl IntoView {
    view! {
        <header class="topbar">
            <a class="brand" href="/">"Space Baduk"<span class="sub">" 공간 바둑"</span></a>
            <Account/>
            <super::HeaderBadges/>
            <super::LangSwitch/>
        </header>
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
                <Rooms/>
            </section>
        </main>
        <footer class="footer"><ServerStatus/></footer>
    }
}

#[component]
fn Rooms() -> impl IntoView {
    let rooms = Resource::new(|| (), |_| list_rooms());
    view! {
        <Suspense fallback=|| view! { <p>"…"</p> }>
            {move || Suspend::new(async move {
                match rooms.await {
                    Ok(list) if list.is_empty() => view! {
                        <p class="empty" data-testid="rooms-empty">{move || tr!("home.no_rooms")}</p>
                    }.into_any(),
                    Ok(list) => view! {
                        <ul class="rooms" data-testid="rooms">
                            {list.into_iter().map(|r| view! {
                                <li><a href=format!("/rooms/{}", r.id) data-testid="room-link"><strong>{r.name}</strong></a>
                                    " · "{preset_text(r.preset)}" · "{r.board}" · "{super::room::phase_text(r.status)}
                                    {mode_mark(r.mode)}</li>
                            }).collect_view()}
                        </ul>
                    }.into_any(),
                    Err(e) => view! { <p class="error" role="alert">{move || crate::text::app_error(crate::i18n::use_lang().get(), &e)}</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

/// The player's unfinished games. Opened as the installed app (standalone display, or the
/// manifest's start URL), the page goes straight into the most recent one (issue 5 point 8).
#[component]
fn MyGames() -> impl IntoView {
    let games = Resource::new(|| (), |_| my_games());
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        let Some(Ok(list)) = games.get() else { return };
        let Some(first) = list.first() else { return };
        let Some(w) = web_sys::window() else { return };
        let standalone = w.match_media("(display-mode: standalone)").ok().flatten().is_some_and(|m| m.matches());
        let from_app = w.location().search().is_ok_and(|s| s.contains("source=pwa"));
        if standalone || from_app {
            let _ = w.location().assign(&format!("/rooms/{}", first.id));
        }
    });
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                match games.await {
                    Ok(list) if !list.is_empty() => Some(view! {
                        <h3>{move || tr!("home.your_games")}</h3>
                        <ul class="rooms" data-testid="my-games">
                            {list.into_iter().map(|r| view! {
                                <li><a href=format!("/rooms/{}", r.id)><strong>{r.name}</strong></a>" · "{r.board}" · "{super::room::phase_text(r.status)}{mode_mark(r.mode)}</li>
                            }).collect_view()}
                        </ul>
                    }),
                    _ => None,
                }
            })}
        </Suspense>
    }
}

#[component]
fn Account() -> impl IntoView {
    let sign_in = ServerAction::<SignIn>::new();
    let sign_out = ServerAction::<SignOut>::new();
    // Re-read the user after every sign-in or sign-out.
    let user = Resource::new(move || (sign_in.version().get(), sign_out.version().get()), |_| current_user());
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                match user.await {
                    Ok(Some(u)) => view! {
                        <div class="account" data-testid="signed-in">
                            <a href="/account" data-testid="account-link">{u.username.clone()}</a>
                            <span>" ("{role_label(u.role)}")"</span>
                            <ActionForm action=sign_out>
                                <button type="submit">{move || tr!("home.sign_out")}</button>
                            </ActionForm>
                        </div>
                    }.into_any(),
                    _ => view! {
                        <ActionForm action=sign_in attr:class="account signin" attr:id="signin-form">
                            <label class="sr-only" for="signin-user">{move || tr!("home.user_name")}</label>
                            <input id="signin-user" name="username" placeholder=move || tr!("home.user_name") autocomplete="username" required/>
                            <label class="sr-only" for="signin-pass">{move || tr!("home.password")}</label>
                            <input id="signin-pass" type="password" name="password" placeholder=move || tr!("home.password") autocomplete="current-password" required/>
                            <button type="submit" class="primary">{move || tr!("home.sign_in")}</button>
                            <a href="/signup">{move || tr!("home.sign_up")}</a>
                        </ActionForm>
                    }.into_any(),
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
fn mode_mark(tag: crate::matches::mode::ModeTag) -> Option<impl IntoView> {
    (tag != crate::matches::mode::ModeTag::Match).then(|| {
        view! { " · "<span class="mode-tag" data-testid="mode-tag">{move || crate::text::mode_tag(crate::i18n::use_lang().get(), tag)}</span> }
    })
}

fn preset_text(preset: crate::matches::settings::Preset) -> String {
    match preset {
        crate::matches::settings::Preset::Classic => tr!("new.classic"),
        crate::matches::settings::Preset::Space => tr!("new.space"),
    }
}

/// Server version from SSR, and a button that measures a live round trip after hydration.
#[component]
fn ServerStatus() -> impl IntoView {
    let info = Resource::new(|| (), |_| server_info());
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
