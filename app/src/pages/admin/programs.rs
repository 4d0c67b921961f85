//! Program matches on `/admin/learning` (003 §12.4): start a series between two programs on a
//! flat board with GNU Go's comparison settings (area scoring, komi 7), and follow each game
//! and the tally. The API takes any shared settings; the form keeps to the usual comparison.

use crate::sync_hydrate::IntoAnySync;
use leptos::{prelude::*, task::spawn_local};

use super::error_text;

use crate::{
    api::learning::{list_models, list_program_matches, start_program_match},
    learning::programs::{
        Contestant, PinnedContestant, ProgramMatch, ProgramMatchRequest, SeriesGame, Side, SERIES_GAMES,
    },
    tr, AppError,
};

use wire::{
    commands::RoomPhase,
    mode::{DEFAULT_MOVE_MS, LEVELS, MOVE_MS},
    settings::MatchSettings,
};

/// One side's choices in the form.
#[derive(Clone, Copy)]
struct SideForm {
    model: RwSignal<Option<i64>>,
    level: RwSignal<u8>,
    move_ms: RwSignal<u32>,
}

impl SideForm {
    fn new(level: u8) -> Self {
        SideForm { model: RwSignal::new(None), level: RwSignal::new(level), move_ms: RwSignal::new(DEFAULT_MOVE_MS) }
    }
    fn contestant(&self) -> Contestant {
        Contestant {
            model_id: self.model.get_untracked(),
            level: self.level.get_untracked(),
            move_ms: self.move_ms.get_untracked(),
        }
    }
}

#[component]
pub fn ProgramMatches() -> impl IntoView {
    let models = crate::pages::resource(|| (), |_| list_models());
    let list = RwSignal::new(Vec::<ProgramMatch>::new());
    let error = RwSignal::new(None::<AppError>);
    let (a, b) = (SideForm::new(2), SideForm::new(1));
    let games = RwSignal::new(10u32);
    let size = RwSignal::new(9u16);
    let poll = move || {
        spawn_local(async move {
            match list_program_matches().await {
                Ok(l) => list.set(l),
                Err(e) => error.set(Some(e)),
            }
        })
    };
    // While a series plays the page asks every second.
    #[cfg(feature = "hydrate")]
    {
        poll();
        let handle = set_interval_with_handle(
            move || {
                if list.get_untracked().iter().any(|m| !m.finished) {
                    poll();
                }
            },
            std::time::Duration::from_millis(1000),
        );
        if let Ok(h) = handle {
            on_cleanup(move || h.clear());
        }
    }
    let start = move || {
        let mut settings = MatchSettings::classic_default(size.get_untracked());
        settings.scoring = engine::ScoringMethod::Area;
        settings.komi_half_points = 14;
        let request =
            ProgramMatchRequest { a: a.contestant(), b: b.contestant(), games: games.get_untracked(), settings };
        error.set(None);
        spawn_local(async move {
            match start_program_match(request).await {
                Ok(_) => poll(),
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let _ = poll;
    let side_fields = move |label: &'static str, s: SideForm| {
        view! {
            <fieldset>
                <legend>{move || crate::i18n::text(crate::i18n::use_lang().get(), label)}</legend>
                <label>{move || tr!("programs.model")}
                    <select data-testid=format!("{label}-model") on:change=move |e| s.model.set(event_target_value(&e).parse().ok())>
                        // The first choice is what an untouched select sends: the built-in model.
                        <option value="">{move || tr!("programs.model_builtin")}</option>
                        <Suspense fallback=|| ()>
                            {move || Suspend::new(async move {
                                models.await.unwrap_or_default().into_iter().map(|m| view! {
                                    <option value=m.id.to_string()>{tr!("programs.model_option", version = m.version, id = m.id)}</option>
                                }).collect_view()
                            })}
                        </Suspense>
                    </select>
                </label>
                <label>{move || tr!("programs.level")}
                    <select data-testid=format!("{label}-level") prop:value=move || s.level.get().to_string()
                        on:change=move |e| if let Ok(n) = event_target_value(&e).parse() { s.level.set(n) }>
                        {LEVELS.map(|l| view! { <option value=l.to_string()>{l}</option> }).collect_view()}
                    </select>
                </label>
                <label>{move || tr!("programs.move_ms", min = *MOVE_MS.start(), max = *MOVE_MS.end())}
                    <input type="number" data-testid=format!("{label}-ms") min=*MOVE_MS.start() max=*MOVE_MS.end() step="100"
                        prop:value=move || s.move_ms.get().to_string()
                        on:input=move |e| if let Ok(n) = event_target_value(&e).parse() { s.move_ms.set(n) }/>
                </label>
            </fieldset>
        }
    };
    view! {
        <section class="card" data-testid="program-matches">
            <h2>{move || tr!("programs.title")}</h2>
            <p class="hint">{move || tr!("programs.about")}</p>
            <form class="form" on:submit=move |e| { e.prevent_default(); start(); }>
                <div class="sides">
                    {side_fields("programs.side_a", a)}
                    {side_fields("programs.side_b", b)}
                </div>
                <label>{move || tr!("programs.games", min = *SERIES_GAMES.start(), max = *SERIES_GAMES.end())}
                    <input type="number" data-testid="series-games" min=*SERIES_GAMES.start() max=*SERIES_GAMES.end() step="2"
                        prop:value=move || games.get().to_string()
                        on:input=move |e| if let Ok(n) = event_target_value(&e).parse() { games.set(n) }/>
                </label>
                <label>{move || tr!("programs.board")}
                    <select data-testid="series-board" on:change=move |e| if let Ok(n) = event_target_value(&e).parse() { size.set(n) }>
                        {[9u16, 13, 19].map(|n| view! { <option value=n.to_string()>{format!("{n}×{n}")}</option> }).collect_view()}
                    </select>
                </label>
                <button type="submit" class="primary" data-testid="start-series">{move || tr!("programs.start")}</button>
            </form>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{error_text(&e)}</p> })}
            {move || list.get().into_iter().map(|m| view! { <Series m=m/> }).collect_view()}
        </section>
    }
}

fn contestant_text(c: &PinnedContestant) -> String {
    let ms = c.move_ms.to_string();
    let (id, version, level) = (c.model.id.to_string(), c.model.version.to_string(), c.level.to_string());
    crate::text::t_with(
        crate::i18n::use_lang().get(),
        "programs.contestant",
        &[("id", &id), ("version", &version), ("level", &level), ("ms", &ms)],
    )
}

/// One series: its sides, tally and games.
#[component]
fn Series(m: ProgramMatch) -> impl IntoView {
    let played = m.games.iter().filter(|g| g.result.is_some()).count();
    let tally = tr!(
        "programs.tally",
        a = m.wins_a,
        b = m.wins_b,
        none = m.no_winner,
        played = played,
        planned = m.games_planned
    );
    view! {
        <div class="series" data-testid="series">
            <h3>{tr!("programs.series", id = m.id)}</h3>
            <p>"A: "{contestant_text(&m.a)}<br/>"B: "{contestant_text(&m.b)}</p>
            <p data-testid="series-tally"><strong>{tally}</strong></p>
            <div class="table-wrap"><table class="models">
                <thead><tr>
                    <th>{tr!("programs.game")}</th><th>{tr!("programs.a_plays")}</th>
                    <th>{tr!("programs.result")}</th><th>{tr!("programs.winner")}</th><th>{tr!("programs.record")}</th>
                </tr></thead>
                <tbody>{m.games.into_iter().map(|g| view! { <GameRow g=g/> }).collect_view()}</tbody>
            </table></div>
        </div>
    }
}

#[component]
fn GameRow(g: SeriesGame) -> impl IntoView {
    let lang = crate::i18n::use_lang().get();
    let result = match (&g.result, g.phase) {
        (Some(r), _) => crate::text::result(lang, r).into_any_sync(),
        // 003 §12.4: a person reviews each count; the desk is where.
        (None, RoomPhase::AwaitingReview) => view! {
            <a data-testid="series-review" href=format!("/admin/rooms/{}", g.room_id)>{tr!("programs.review")}</a>
        }
        .into_any_sync(),
        (None, _) => tr!("programs.playing", moves = g.moves).into_any_sync(),
    };
    let winner = match g.winner {
        Some(Side::A) => "A",
        Some(Side::B) => "B",
        None => "—",
    };
    view! {
        <tr data-testid="series-game">
            <td><a href=format!("/rooms/{}", g.room_id)>{g.game}</a></td>
            <td>{crate::text::colour(lang, g.a_colour)}</td>
            <td>{result}{g.marks_auto_agreed.then(|| view! { <small>" · "{tr!("programs.auto_agreed")}</small> })}</td>
            <td>{winner}</td>
            <td><a href=format!("/api/v1/rooms/{}/record", g.room_id) download>"JSON"</a>" · "
                <a href=format!("/api/v1/rooms/{}/record.sgf", g.room_id) download>"SGF"</a></td>
        </tr>
    }
}
