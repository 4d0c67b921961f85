//! Creating a room (`/rooms/new`): the agreement before play (003 §1.2–1.5; 000 §2) as a
//! form over `MatchSettings`, checked by the server, which answers with the invitation
//! links for the two seats.

mod classic;
mod draft;
mod problems;
mod space;

use crate::sync_hydrate::IntoAnySync;
use leptos::{prelude::*, task::spawn_local};

use crate::{api::create_match, tr};

use draft::Draft;
use wire::{
    commands::CreatedRoom,
    settings::{ColourAssignment, MatchSettings, Preset, RoomAccess},
};

/// The komi field's test id (both presets have one).
const KOMI: &str = "komi";

#[component]
pub fn NewRoomPage() -> impl IntoView {
    let name = RwSignal::new(String::new());
    let preset = RwSignal::new(Preset::Space);
    // The preset's own settings, edited field by field and checked as they change.
    let draft = Draft::new(MatchSettings::space_default());
    // 003 §2.7: the referee's review before the result is final; `None`: the preset's default.
    let review = RwSignal::new(None::<wire::referee::ReviewPolicy>);
    // 003 §7.1: numeric, English, Korean or custom labels.
    let labels = space::LabelChoice::new();
    // Who plays (003 §1.2, §11): a match by invitation, one device, the computer, practice.
    let who = RwSignal::new(String::from("match"));
    // Who may sit: a match by invitation links, or an open challenge anyone signed in takes.
    let access = RwSignal::new(RoomAccess::Invitation);
    let second_player = RwSignal::new(String::new());
    let computer_colour = RwSignal::new(engine::Color::White);
    let level = RwSignal::new(2u8);
    let move_ms = RwSignal::new(wire::mode::DEFAULT_MOVE_MS);
    let model_id = RwSignal::new(None::<i64>);
    // Loaded after hydration, so that server and browser first render the same options.
    let models = RwSignal::new(Vec::<crate::learning::ModelSummary>::new());
    Effect::new(move |_| {
        spawn_local(async move {
            if let Ok(list) = crate::api::learning::list_models().await {
                models.set(list);
            }
        })
    });
    // 003 §1.3–1.5, §6.4, §9.7, §10.1: version, special rules, assistance, retention, wait.
    let agreement = super::agreement_fields::AgreementState::new();
    let result = RwSignal::new(None::<Result<CreatedRoom, crate::AppError>>);
    let busy = RwSignal::new(false);
    // Everything the form says, as the settings the server will check (tracked: the checks
    // and the summary follow every field).
    let settings = move || {
        let mut s = draft.s.get();
        if s.preset == Preset::Space {
            s.labels = labels.value();
        }
        if let Some(r) = review.get() {
            s.review = r;
        }
        use wire::mode::{ComputerSeat, Opponent, RoomMode};
        let seat = || ComputerSeat {
            colour: computer_colour.get(),
            level: level.get(),
            move_ms: move_ms.get(),
            model_id: model_id.get(),
            model: None,
            seed: 0,
        };
        s.mode = match who.get().as_str() {
            "one_device" => RoomMode::OneDevice { second_player: second_player.get() },
            "computer" => RoomMode::VsComputer { computer: seat(), opponent: Opponent::Creator },
            "practice_alone" => RoomMode::Practice { computer: None },
            "practice_computer" => RoomMode::Practice { computer: Some(seat()) },
            _ => RoomMode::Match,
        };
        s.access = if s.mode == RoomMode::Match { access.get() } else { RoomAccess::Invitation };
        agreement.track();
        agreement.apply(&mut s);
        s.normalized()
    };
    let problems = Memo::new(move |_| settings().validate().err().map(|e| e.problems).unwrap_or_default());
    let unreadable = move || draft.unreadable.with(|u| !u.is_empty());
    let submit = move || {
        if unreadable() || !problems.get_untracked().is_empty() {
            return;
        }
        let s = settings();
        let n = name.get_untracked();
        busy.set(true);
        spawn_local(async move {
            let r = create_match(n, s).await;
            busy.set(false);
            result.set(Some(r));
        });
    };
    let handicapped = move || draft.s.with(|s| s.handicap >= 2);
    let colours_now = move || draft.s.with(|s| s.colours);
    let sizes = move || match preset.get() {
        Preset::Space => vec![5u16, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25],
        Preset::Classic => vec![9, 13, 19],
    };
    // The size select: Classic's board, or Space's cube shortcuts (`None`: another box).
    let size_now = move || {
        draft.s.with(|s| match s.preset {
            Preset::Classic => s.classic_size(),
            Preset::Space => {
                let b = s.board;
                (b.x == b.y && b.y == b.z && b.x.start == 1).then(|| u16::try_from(b.x.end).ok()).flatten()
            }
        })
    };
    view! {
        <crate::pages::TopBar/>
        <main class="page narrow">
            <h1>{move || tr!("new.title")}</h1>
            <form class="card form" data-testid="new-room" on:submit=move |e| { e.prevent_default(); submit(); }>
                <label>{move || tr!("new.name")}
                    <input data-testid="room-name-input" required maxlength="60" prop:value=name on:input=move |e| name.set(event_target_value(&e))/>
                </label>
                <label>{move || tr!("new.who")}
                    <select data-testid="who" on:change=move |e| who.set(event_target_value(&e))>
                        <option value="match" selected>{move || tr!("new.who_match")}</option>
                        <option value="one_device">{move || tr!("new.who_one_device")}</option>
                        <option value="computer">{move || tr!("new.who_computer")}</option>
                        <option value="practice_alone">{move || tr!("new.who_practice_alone")}</option>
                        <option value="practice_computer">{move || tr!("new.who_practice_computer")}</option>
                    </select>
                </label>
                <Show when=move || who.get() == "match">
                    <label>{move || tr!("lobby.access")}
                        <select data-testid="access" prop:value=move || access_name(access.get()) on:change=move |e| access.set(
                            if event_target_value(&e) == "open" { RoomAccess::Open } else { RoomAccess::Invitation })>
                            <option value="invitation" selected>{move || tr!("lobby.access_invitation")}</option>
                            <option value="open">{move || tr!("lobby.access_open")}</option>
                        </select>
                    </label>
                </Show>
                <Show when=move || who.get() == "one_device">
                    <label>{move || tr!("new.second_player")}
                        <input data-testid="second-player" required maxlength="40" prop:value=second_player
                            on:input=move |e| second_player.set(event_target_value(&e))/>
                    </label>
                </Show>
                <Show when=move || who.get() == "computer" || who.get() == "practice_computer">
                    <fieldset class="computer" data-testid="computer-options">
                        <legend>{move || tr!("new.computer")}</legend>
                        <label>{move || tr!("new.your_colour")}
                            <select data-testid="your-colour" on:change=move |e| computer_colour.set(
                                if event_target_value(&e) == "white" { engine::Color::Black } else { engine::Color::White })>
                                <option value="black" selected>{move || tr!("colour.black")}</option>
                                <option value="white">{move || tr!("colour.white")}</option>
                            </select>
                        </label>
                        <label>{move || tr!("new.level")}
                            <select data-testid="level" on:change=move |e| level.set(if event_target_value(&e) == "1" { 1 } else { 2 })>
                                <option value="2" selected>{move || tr!("new.level_2")}</option>
                                <option value="1">{move || tr!("new.level_1")}</option>
                            </select>
                        </label>
                        <label>{move || tr!("new.move_time")}
                            <input type="number" data-testid="move-ms" min="100" max="10000" step="100"
                                prop:value=move || move_ms.get().to_string()
                                on:input=move |e| if let Ok(n) = event_target_value(&e).parse() { move_ms.set(n) }/>
                        </label>
                        <label>{move || tr!("new.model")}
                            <select data-testid="model" on:change=move |e| model_id.set(event_target_value(&e).parse().ok())>
                                <option value="">{move || tr!("new.model_default")}</option>
                                {move || models.get().into_iter().map(|m| view! {
                                    <option value=m.id.to_string()>{format!("{} {} · {}", tr!("learning.version"), m.version, m.fingerprint.chars().take(15).collect::<String>())}</option>
                                }).collect_view()}
                            </select>
                        </label>
                    </fieldset>
                </Show>
                <label>{move || tr!("new.preset")}
                    <select data-testid="preset" on:change=move |e| {
                        let p = if event_target_value(&e) == "classic" { Preset::Classic } else { Preset::Space };
                        preset.set(p);
                        // 000 §2: 19 by default (9×9 recommended for beginners).
                        draft.reset(p);
                    }>
                        <option value="space" selected>{move || tr!("new.space")}</option>
                        <option value="classic">{move || tr!("new.classic")}</option>
                    </select>
                </label>
                <label>{move || if preset.get() == Preset::Space { tr!("new.cube") } else { tr!("new.size") }}
                    <select data-testid="size" on:change=move |e| {
                        if let Ok(n) = event_target_value(&e).parse::<u16>() {
                            match preset.get_untracked() {
                                Preset::Classic => classic::set_size(draft, n),
                                Preset::Space => space::set_cube(draft, n),
                            }
                        }
                    }>
                        <Show when=move || size_now().is_none()>
                            <option value="" selected>{move || tr!("new.other_box")}</option>
                        </Show>
                        {move || sizes().into_iter().map(|n| view! {
                            <option value=n.to_string() selected=move || size_now() == Some(n)>{n.to_string()}</option>
                        }).collect_view()}
                    </select>
                    <problems::FieldProblems problems=problems path="board"/>
                </label>
                <Show when=move || preset.get() == Preset::Classic>
                    <p class="hint" data-testid="beginner-hint">{move || tr!("new.beginner_size")}</p>
                    <classic::ClassicFields draft=draft problems=problems/>
                </Show>
                <Show when=move || preset.get() == Preset::Space>
                    <space::SpaceFields draft=draft problems=problems labels=labels/>
                </Show>
                <Show when=move || who.get() != "computer" && who.get() != "practice_computer">
                <label>{move || tr!("new.colours")}
                    <select data-testid="colours" prop:value=move || colours_value(draft.s.with(|s| s.colours))
                        on:change=move |e| {
                            let c = match event_target_value(&e).as_str() {
                                "host_black" => ColourAssignment::HostBlack,
                                "host_white" => ColourAssignment::HostWhite,
                                _ => ColourAssignment::Nigiri,
                            };
                            draft.s.update(|s| s.colours = c);
                        }>
                        // 000 §4 step 1: with handicap stones the weaker player takes Black.
                        <option value="nigiri" disabled=handicapped selected={move || colours_now() == ColourAssignment::Nigiri}>
                            {move || tr!("new.nigiri")}</option>
                        <option value="host_black" selected={move || colours_now() == ColourAssignment::HostBlack}>
                            {move || if handicapped() { tr!("new.host_weaker") } else { tr!("new.host_black") }}</option>
                        <option value="host_white" selected={move || colours_now() == ColourAssignment::HostWhite}>
                            {move || if handicapped() { tr!("new.guest_weaker") } else { tr!("new.host_white") }}</option>
                    </select>
                    <problems::FieldProblems problems=problems path="colours"/>
                </label>
                </Show>
                <label class="check">
                    <input type="checkbox" data-testid="atari-warning" prop:checked=move || draft.s.with(|s| s.atari_warning)
                        on:change=move |e| draft.s.update(|s| s.atari_warning = event_target_checked(&e))/>
                    {move || if preset.get() == Preset::Space { tr!("new.atari_warning_space") } else { tr!("new.atari_warning") }}
                </label>
                <super::agreement_fields::AgreementFields state=agreement preset=preset/>
                <label>{move || tr!("new.review")}
                    <select data-testid="review" on:change=move |e| review.set(match event_target_value(&e).as_str() {
                        "required" => Some(wire::referee::ReviewPolicy::Required),
                        "when_disputed" => Some(wire::referee::ReviewPolicy::WhenDisputed),
                        _ => None,
                    })>
                        <option value="default">{move || tr!("new.review_default")}</option>
                        <option value="required">{move || tr!("summary.review.required")}</option>
                        <option value="when_disputed">{move || tr!("summary.review.when_disputed")}</option>
                    </select>
                </label>
                <section class="summary-preview" data-testid="summary-preview" aria-live="polite">
                    <h2>{move || tr!("new.summary")}</h2>
                    <ul>
                        {move || crate::text::settings_summary(crate::i18n::use_lang().get(), &settings())
                            .into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}
                    </ul>
                </section>
                <Show when=move || unreadable() || !problems.with(Vec::is_empty)>
                    <div class="error" role="alert" data-testid="form-problems">
                        <p>{move || tr!("new.fix_fields")}</p>
                        <ul>
                            {move || problems.get().into_iter().map(|p| view! {
                                <li>{crate::text::settings_problem(crate::i18n::use_lang().get(), &p)}</li>
                            }).collect_view()}
                        </ul>
                    </div>
                </Show>
                <button type="submit" class="primary" data-testid="create"
                    disabled=move || busy.get() || unreadable() || !problems.with(Vec::is_empty)>{move || tr!("new.create")}</button>
            </form>
            {move || result.get().map(|r| match r {
                // Seated already: practice, one device, the computer, an open challenge.
                Ok(c) if who.get_untracked() != "match" || access.get_untracked() == RoomAccess::Open => {
                    #[cfg(feature = "hydrate")]
                    if let Some(w) = web_sys::window() {
                        let _ = w.location().assign(&format!("/rooms/{}", c.room_id));
                    }
                    view! { <p role="status"><a data-testid="to-room" href=format!("/rooms/{}", c.room_id)>{tr!("new.to_room")}</a></p> }.into_any_sync()
                }
                Ok(c) => {
                    let origin = origin();
                    let link = |i: usize| format!("{origin}/rooms/{}?code={}", c.room_id, c.invite_codes[i]);
                    view! {
                        <section class="card invites" data-testid="invites">
                            <h2>{tr!("new.invitations")}</h2>
                            <p>{tr!("new.invite_host")}<br/><a data-testid="invite-0" href=link(0)>{link(0)}</a></p>
                            <p>{tr!("new.invite_guest")}<br/><a data-testid="invite-1" href=link(1)>{link(1)}</a></p>
                            <p class="hint">{tr!("new.shown_once")}</p>
                        </section>
                    }.into_any_sync()
                }
                Err(e) => view! { <p class="error" role="alert">{crate::text::app_error(crate::i18n::use_lang().get(), &e)}</p> }.into_any_sync(),
            })}
        </main>
    }
}

fn colours_value(c: ColourAssignment) -> &'static str {
    match c {
        ColourAssignment::Nigiri => "nigiri",
        ColourAssignment::HostBlack => "host_black",
        ColourAssignment::HostWhite => "host_white",
    }
}

fn access_name(a: RoomAccess) -> &'static str {
    a.into()
}

fn origin() -> String {
    #[cfg(feature = "hydrate")]
    {
        web_sys::window().and_then(|w| w.location().origin().ok()).unwrap_or_default()
    }
    #[cfg(not(feature = "hydrate"))]
    String::new()
}
