//! `/players/{name}`: a player's games played, won, lost and drawn per preset and kind, the
//! games under way and the recent ones; their sanctions only to themself and administrators
//! (the server leaves them out for anyone else).

use crate::sync_hydrate::IntoAnySync;
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

use crate::{
    api::{
        profiles::{player_profile, GameCounts, Profile},
        RoomSummary,
    },
    tr,
};

fn mode_name(m: wire::mode::ModeTag) -> &'static str {
    m.into()
}

fn kind_text(c: &GameCounts) -> String {
    let lang = crate::i18n::use_lang().get_untracked();
    let preset = crate::text::t(lang, &format!("preset.{}", c.preset.as_str()));
    format!("{preset} · {}", crate::text::mode_tag(lang, c.mode))
}

#[component]
fn Counts(counts: Vec<GameCounts>) -> impl IntoView {
    view! {
        <table class="counts" data-testid="profile-counts">
            <thead><tr>
                <th>{move || tr!("profile.kind")}</th><th>{move || tr!("profile.played")}</th>
                <th>{move || tr!("profile.won")}</th><th>{move || tr!("profile.lost")}</th>
                <th>{move || tr!("profile.drawn")}</th><th>{move || tr!("profile.void")}</th>
                <th>{move || tr!("profile.other")}</th>
            </tr></thead>
            <tbody>
                {counts.into_iter().map(|c| view! {
                    <tr data-testid="profile-row" data-mode=mode_name(c.mode) data-preset=c.preset.as_str()>
                        <td>{kind_text(&c)}</td><td>{c.played}</td><td>{c.won}</td><td>{c.lost}</td>
                        <td>{c.drawn}</td><td>{c.void}</td><td>{c.other}</td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table>
    }
}

fn game_list(list: Vec<RoomSummary>, testid: &'static str) -> impl IntoView {
    view! {
        <ul class="rooms" data-testid=testid>
            {list.into_iter().map(|r| {
                let lang = crate::i18n::use_lang().get_untracked();
                let detail = r.listing.as_ref().and_then(|l| l.result.as_ref().map(|res| crate::text::listed_result(lang, res, l.under_review)));
                let (date, _) = crate::text::calendar::date_time(r.created_at_ms);
                view! {
                    <li><a href=format!("/rooms/{}", r.id)><strong>{r.name}</strong></a>" · "{r.board}" · "{date}
                        {detail.map(|d| view! { " · "<span>{d}</span> })}</li>
                }
            }).collect_view()}
        </ul>
    }
}

#[component]
fn ProfileView(p: Profile) -> impl IntoView {
    let Profile { username, counts, recent, in_play, sanctions } = p;
    view! {
        <h1 data-testid="profile-name">{username}</h1>
        <section class="card">
            <h2>{move || tr!("profile.record")}</h2>
            {if counts.is_empty() {
                view! { <p class="hint">{move || tr!("profile.no_games")}</p> }.into_any_sync()
            } else {
                view! { <Counts counts/> }.into_any_sync()
            }}
        </section>
        {(!in_play.is_empty()).then(|| view! {
            <section class="card"><h2>{move || tr!("lobby.in_play")}</h2>{game_list(in_play, "profile-in-play")}</section>
        })}
        {(!recent.is_empty()).then(|| view! {
            <section class="card"><h2>{move || tr!("profile.recent")}</h2>{game_list(recent, "profile-recent")}</section>
        })}
        {sanctions.map(|list| view! {
            <section class="card" data-testid="profile-sanctions">
                <h2>{move || tr!("conduct.history")}</h2>
                <p class="hint">{move || tr!("profile.sanctions_private")}</p>
                {if list.is_empty() {
                    view! { <p class="hint">{move || tr!("conduct.none")}</p> }.into_any_sync()
                } else {
                    view! {
                        <ul>
                            {list.into_iter().map(|e| view! {
                                <li><a href=format!("/rooms/{}", e.room_id)>{e.room_name}</a>
                                    " · "{tr!("conduct.reasons", text = e.sanction.reasons.clone())}</li>
                            }).collect_view()}
                        </ul>
                    }.into_any_sync()
                }}
            </section>
        })}
    }
}

#[component]
pub fn ProfilePage() -> impl IntoView {
    let params = use_params_map();
    let name = move || params.read().get("name").unwrap_or_default();
    let data = crate::pages::resource(name, player_profile);
    view! {
        <crate::pages::TopBar/>
        <main class="page narrow" data-testid="profile">
            <Suspense fallback=|| view! { <p>"…"</p> }>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(p) => view! { <ProfileView p/> }.into_any_sync(),
                        Err(e) => view! {
                            <p class="error" role="alert" data-testid="profile-error">{crate::text::app_error(crate::i18n::use_lang().get(), &e)}</p>
                        }.into_any_sync(),
                    }
                })}
            </Suspense>
        </main>
    }
}
