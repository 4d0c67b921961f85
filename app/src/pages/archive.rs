//! `/games`: the finished games whose record the viewer may read, with result, date, board
//! and rules, filtered; each opens in the replay viewer or its room.

use crate::sync_hydrate::IntoAnySync;
use leptos::{prelude::*, task::spawn_local};

use super::header::fmt_time;
use crate::text::calendar::day_start_ms;
use crate::{
    api::{
        archive::{archive, ArchiveFilter, ArchiveOutcome},
        RoomSummary,
    },
    tr,
};
use wire::settings::Preset;

const DAY_MS: i64 = 86_400_000;

#[component]
pub fn ArchivePage() -> impl IntoView {
    let preset = RwSignal::new(String::new());
    let size = RwSignal::new(String::new());
    let outcome = RwSignal::new(String::new());
    let player = RwSignal::new(String::new());
    let from = RwSignal::new(String::new());
    let to = RwSignal::new(String::new());
    let found = RwSignal::new(None::<Result<Vec<RoomSummary>, crate::AppError>>);
    let search = move || {
        let filter = ArchiveFilter {
            preset: match preset.get_untracked().as_str() {
                "space" => Some(Preset::Space),
                "classic" => Some(Preset::Classic),
                _ => None,
            },
            size: size.get_untracked().parse().ok(),
            outcome: match outcome.get_untracked().as_str() {
                "won" => Some(ArchiveOutcome::Won),
                "lost" => Some(ArchiveOutcome::Lost),
                "drawn" => Some(ArchiveOutcome::Drawn),
                "void" => Some(ArchiveOutcome::Void),
                _ => None,
            },
            player: player.get_untracked(),
            from_ms: day_start_ms(&from.get_untracked()),
            // The "to" day is included: before the next day's start.
            to_ms: day_start_ms(&to.get_untracked()).map(|d| d + DAY_MS),
        };
        spawn_local(async move { found.set(Some(archive(filter).await)) });
    };
    // The first list once the page is interactive (no filter).
    Effect::new(move |_| search());
    let sizes = [5u16, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25];
    view! {
        <crate::pages::TopBar/>
        <main class="page" data-testid="archive">
            <h1>{move || tr!("archive.title")}</h1>
            <p class="hint">{move || tr!("archive.hint")}" "<a href="/games/sgf" data-testid="sgf-link">{move || tr!("sgf.title")}</a></p>
            <form class="card archive-filters" data-testid="archive-filter" on:submit=move |e| { e.prevent_default(); search(); }>
                <label>{move || tr!("archive.preset")}
                    <select data-testid="archive-preset" on:change=move |e| preset.set(event_target_value(&e))>
                        <option value="">{move || tr!("archive.any")}</option>
                        <option value="space">{move || tr!("new.space")}</option>
                        <option value="classic">{move || tr!("new.classic")}</option>
                    </select>
                </label>
                <label>{move || tr!("archive.size")}
                    <select data-testid="archive-size" on:change=move |e| size.set(event_target_value(&e))>
                        <option value="">{move || tr!("archive.any")}</option>
                        {sizes.into_iter().map(|n| view! { <option value=n.to_string()>{n.to_string()}</option> }).collect_view()}
                    </select>
                </label>
                <label>{move || tr!("archive.outcome")}
                    <select data-testid="archive-outcome" on:change=move |e| outcome.set(event_target_value(&e))>
                        <option value="">{move || tr!("archive.any")}</option>
                        <option value="won">{move || tr!("archive.won")}</option>
                        <option value="lost">{move || tr!("archive.lost")}</option>
                        <option value="drawn">{move || tr!("archive.draw")}</option>
                        <option value="void">{move || tr!("archive.void")}</option>
                    </select>
                </label>
                <label>{move || tr!("archive.player")}
                    <input data-testid="archive-player" maxlength="40" prop:value=player on:input=move |e| player.set(event_target_value(&e))/>
                </label>
                <label>{move || tr!("archive.from")}
                    <input type="date" data-testid="archive-from" prop:value=from on:input=move |e| from.set(event_target_value(&e))/>
                </label>
                <label>{move || tr!("archive.to")}
                    <input type="date" data-testid="archive-to" prop:value=to on:input=move |e| to.set(event_target_value(&e))/>
                </label>
                <button type="submit" class="primary" data-testid="archive-apply">{move || tr!("archive.apply")}</button>
            </form>
            {move || found.get().map(|r| match r {
                Err(e) => view! { <p class="error" role="alert">{crate::text::app_error(crate::i18n::use_lang().get(), &e)}</p> }.into_any_sync(),
                Ok(list) if list.is_empty() => view! { <p class="empty" data-testid="archive-empty">{tr!("archive.none")}</p> }.into_any_sync(),
                Ok(list) => view! {
                    <ul class="rooms archive-list" data-testid="archive-list">
                        {list.into_iter().map(|r| {
                            let lang = crate::i18n::use_lang().get_untracked();
                            let result = r.listing.as_ref().and_then(|l| l.result.as_ref().map(|res| crate::text::listed_result(lang, res, l.under_review)));
                            let players = r.listing.as_ref().map(super::home::players_line);
                            let rules = r.listing.as_ref().map(|l| crate::text::listing_rules(lang, l));
                            let when = r.ended_at_ms.map(fmt_time);
                            let preset = crate::text::t(lang, &format!("preset.{}", r.preset.as_str()));
                            view! {
                                <li data-testid="archive-game">
                                    <a href=format!("/rooms/{}/replay", r.id) data-testid="archive-replay"><strong>{r.name.clone()}</strong></a>
                                    " · "{preset}" · "{board_text(&r)}
                                    {result.map(|t| view! { " · "<span data-testid="archive-result">{t}</span> })}
                                    <br/><span class="hint">{players}{when.map(|w| format!(" · {w}"))}</span>
                                    {rules.map(|t| view! { <br/><span class="hint">{t}</span> })}
                                    <br/><a href=format!("/rooms/{}", r.id)>{tr!("replay.to_room")}</a>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                }.into_any_sync(),
            })}
        </main>
    }
}

/// "19×19" for a flat board, "7×5×3" for a box.
fn board_text(r: &RoomSummary) -> String {
    let b = r.board.replace('x', "×");
    match (r.preset, b.strip_suffix("×1")) {
        (Preset::Classic, Some(flat)) => flat.to_string(),
        _ => b,
    }
}
