//! The home page: who is signed in, the rooms, and the 3D lattice.

use leptos::prelude::*;

use crate::{
    api::{current_user, list_rooms, my_games, server_info, SignIn, SignOut},
    board_view::BoardCanvas,
};

#[component]
pub fn HomePage() -> impl IntoView {
    view! {
        <header class="topbar">
            <a class="brand" href="/">"Space Baduk"<span class="sub">" 공간 바둑"</span></a>
            <Account/>
        </header>
        <main class="home">
            <section class="board-panel" aria-labelledby="board-title">
                <h2 id="board-title">"19×19×19 판 · board"</h2>
                <BoardCanvas size=19/>
                <p class="hint">"끌어서 회전, 휠·핀치로 확대 · Drag to rotate; wheel or pinch to zoom. "
                    <span class="axis x">"X"</span>" "<span class="axis y">"Y"</span>" "<span class="axis z">"Z"</span>
                </p>
            </section>
            <section class="rooms-panel" aria-labelledby="rooms-title">
                <h2 id="rooms-title">"대국실 · Rooms"</h2>
                <p><a href="/rooms/new" data-testid="new-room-link">"대국실 만들기 · New room"</a></p>
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
                        <p class="empty" data-testid="rooms-empty">"아직 대국실이 없습니다. · No rooms yet."</p>
                    }.into_any(),
                    Ok(list) => view! {
                        <ul class="rooms" data-testid="rooms">
                            {list.into_iter().map(|r| view! {
                                <li><a href=format!("/rooms/{}", r.id) data-testid="room-link"><strong>{r.name}</strong></a>
                                    " · "{r.preset}" · "{r.board}" · "{r.status}</li>
                            }).collect_view()}
                        </ul>
                    }.into_any(),
                    Err(e) => view! { <p class="error" role="alert">{e.to_string()}</p> }.into_any(),
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
                        <h3>"내 대국 · Your games"</h3>
                        <ul class="rooms" data-testid="my-games">
                            {list.into_iter().map(|r| view! {
                                <li><a href=format!("/rooms/{}", r.id)><strong>{r.name}</strong></a>" · "{r.board}" · "{r.status}</li>
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
                            <span>{u.username.clone()}" ("{role_label(&u.role)}")"</span>
                            <ActionForm action=sign_out>
                                <button type="submit">"로그아웃 · Sign out"</button>
                            </ActionForm>
                        </div>
                    }.into_any(),
                    _ => view! {
                        <ActionForm action=sign_in attr:class="account signin" attr:id="signin-form">
                            <label class="sr-only" for="signin-user">"아이디 · User name"</label>
                            <input id="signin-user" name="username" placeholder="아이디 · user" autocomplete="username" required/>
                            <label class="sr-only" for="signin-pass">"비밀번호 · Password"</label>
                            <input id="signin-pass" type="password" name="password" placeholder="비밀번호 · password" autocomplete="current-password" required/>
                            <button type="submit" class="primary">"로그인 · Sign in"</button>
                            <a href="/signup">"가입 · Sign up"</a>
                        </ActionForm>
                    }.into_any(),
                }
            })}
        </Suspense>
        {move || sign_in.value().get().and_then(|r| r.err()).map(|e| view! {
            <p class="error" role="alert" data-testid="signin-error">{e.to_string()}</p>
        })}
    }
}

fn role_label(role: &str) -> &'static str {
    match role {
        "admin" => "관리자 · admin",
        _ => "기사 · player",
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
            "서버 확인 · Check server"
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
