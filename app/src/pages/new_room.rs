//! Creating a room (`/rooms/new`): the agreement before play (003 §1.2–1.5; 000 §2) as a
//! form over `MatchSettings`, checked by the server, which answers with the invitation
//! links for the two seats.

use leptos::{prelude::*, task::spawn_local};

use crate::{
    api::create_match,
    matches::{
        commands::CreatedRoom,
        settings::{ColourAssignment, CoordLabels, MatchSettings, Preset, RoomAccess, TimeControl},
    },
    tr,
};

#[component]
pub fn NewRoomPage() -> impl IntoView {
    let name = RwSignal::new(String::new());
    let preset = RwSignal::new(Preset::Space);
    let size = RwSignal::new(19u16);
    let depth = RwSignal::new(19u16);
    let hours = RwSignal::new(1u32);
    let colours = RwSignal::new(ColourAssignment::Nigiri);
    // 003 §2.7: the referee's review before the result is final; `None`: the preset's default.
    let review = RwSignal::new(None::<crate::matches::referee::ReviewPolicy>);
    // 003 §7.1: numeric, English, Korean or custom labels, one kind for all three axes.
    let labels = RwSignal::new(String::from("numeric"));
    let custom = [RwSignal::new(String::new()), RwSignal::new(String::new()), RwSignal::new(String::new())];
    // Who plays (003 §1.2, §11): a match by invitation, one device, the computer, practice.
    let who = RwSignal::new(String::from("match"));
    // Issue 14 §2: a match by invitation links, or an open challenge anyone signed in takes.
    let access = RwSignal::new(RoomAccess::Invitation);
    let second_player = RwSignal::new(String::new());
    let computer_colour = RwSignal::new(engine::Color::White);
    let level = RwSignal::new(2u8);
    let move_ms = RwSignal::new(crate::matches::mode::DEFAULT_MOVE_MS);
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
    let submit = move || {
        let mut s = match preset.get_untracked() {
            Preset::Space => {
                let mut s = MatchSettings::space_default();
                let n = size.get_untracked() as i64;
                let d = depth.get_untracked() as i64;
                s.board = engine::BoxSpec {
                    x: engine::Axis::one_to(n),
                    y: engine::Axis::one_to(n),
                    z: engine::Axis::one_to(d),
                };
                s.time = TimeControl::SpaceHours { black: hours.get_untracked(), white: hours.get_untracked() };
                let kind = |k| CoordLabels::Builtin { x: k, y: k, z: k };
                s.labels = match labels.get_untracked().as_str() {
                    "english" => kind(engine::LabelKind::English),
                    "korean" => kind(engine::LabelKind::Korean),
                    "custom" => {
                        let list = |i: usize| custom[i].get_untracked().split_whitespace().map(String::from).collect();
                        CoordLabels::Custom { x: list(0), y: list(1), z: list(2) }
                    }
                    _ => CoordLabels::default(),
                };
                s
            }
            Preset::Classic => MatchSettings::classic_default(size.get_untracked()),
        };
        s.colours = colours.get_untracked();
        if let Some(r) = review.get_untracked() {
            s.review = r;
        }
        {
            use crate::matches::mode::{ComputerSeat, Opponent, RoomMode};
            let seat = || ComputerSeat {
                colour: computer_colour.get_untracked(),
                level: level.get_untracked(),
                move_ms: move_ms.get_untracked(),
                model_id: model_id.get_untracked(),
                model: None,
                seed: 0,
            };
            s.mode = match who.get_untracked().as_str() {
                "one_device" => RoomMode::OneDevice { second_player: second_player.get_untracked() },
                "computer" => RoomMode::VsComputer { computer: seat(), opponent: Opponent::Creator },
                "practice_alone" => RoomMode::Practice { computer: None },
                "practice_computer" => RoomMode::Practice { computer: Some(seat()) },
                _ => RoomMode::Match,
            };
            s.access = if s.mode == RoomMode::Match { access.get_untracked() } else { RoomAccess::Invitation };
        }
        agreement.apply(&mut s);
        let n = name.get_untracked();
        busy.set(true);
        spawn_local(async move {
            let r = create_match(n, s).await;
            busy.set(false);
            result.set(Some(r));
        });
    };
    let sizes = move || match preset.get() {
        Preset::Space => vec![5u16, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25],
        Preset::Classic => vec![9, 13, 19],
    };
    view! {
        <header class="topbar"><a class="brand" href="/">"Space Baduk"</a><super::HeaderBadges/><super::LangSwitch/></header>
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
                        size.set(19);
                        depth.set(if p == Preset::Classic { 1 } else { 19 });
                    }>
                        <option value="space" selected>{move || tr!("new.space")}</option>
                        <option value="classic">{move || tr!("new.classic")}</option>
                    </select>
                </label>
                <label>{move || tr!("new.size")}
                    <select data-testid="size" on:change=move |e| {
                        if let Ok(n) = event_target_value(&e).parse::<u16>() {
                            size.set(n);
                            if preset.get_untracked() == Preset::Space { depth.set(n); }
                        }
                    }>
                        {move || sizes().into_iter().map(|n| view! {
                            <option value=n.to_string() selected=move || size.get() == n>{n.to_string()}</option>
                        }).collect_view()}
                    </select>
                </label>
                <Show when=move || preset.get() == Preset::Classic>
                    <p class="hint" data-testid="beginner-hint">{move || tr!("new.beginner_size")}</p>
                </Show>
                <Show when=move || preset.get() == Preset::Space>
                    <label>{move || tr!("new.hours")}
                        <input type="number" min="1" max="5" prop:value=move || hours.get().to_string()
                            on:input=move |e| if let Ok(h) = event_target_value(&e).parse() { hours.set(h) }/>
                    </label>
                    <label>{move || tr!("new.labels")}
                        <select data-testid="labels" on:change=move |e| labels.set(event_target_value(&e))>
                            <option value="numeric" selected>{move || tr!("new.labels_numeric")}</option>
                            <option value="english">{move || tr!("new.labels_english")}</option>
                            <option value="korean">{move || tr!("new.labels_korean")}</option>
                            <option value="custom">{move || tr!("new.labels_custom")}</option>
                        </select>
                    </label>
                    <Show when=move || labels.get() == "custom">
                        <p class="hint">{move || tr!("new.labels_custom_hint")}</p>
                        {["X", "Y", "Z"].into_iter().zip(custom).map(|(axis, v)| view! {
                            <label>{axis}
                                <input data-testid=format!("labels-{}", axis.to_lowercase()) prop:value=v
                                    on:input=move |e| v.set(event_target_value(&e))/>
                            </label>
                        }).collect_view()}
                    </Show>
                </Show>
                <Show when=move || who.get() != "computer" && who.get() != "practice_computer">
                <label>{move || tr!("new.colours")}
                    <select data-testid="colours" on:change=move |e| colours.set(match event_target_value(&e).as_str() {
                        "host_black" => ColourAssignment::HostBlack,
                        "host_white" => ColourAssignment::HostWhite,
                        _ => ColourAssignment::Nigiri,
                    })>
                        <option value="nigiri">{move || tr!("new.nigiri")}</option>
                        <option value="host_black">{move || tr!("new.host_black")}</option>
                        <option value="host_white">{move || tr!("new.host_white")}</option>
                    </select>
                </label>
                </Show>
                <super::agreement_fields::AgreementFields state=agreement preset=preset/>
                <label>{move || tr!("new.review")}
                    <select data-testid="review" on:change=move |e| review.set(match event_target_value(&e).as_str() {
                        "required" => Some(crate::matches::referee::ReviewPolicy::Required),
                        "when_disputed" => Some(crate::matches::referee::ReviewPolicy::WhenDisputed),
                        _ => None,
                    })>
                        <option value="default">{move || tr!("new.review_default")}</option>
                        <option value="required">{move || tr!("summary.review.required")}</option>
                        <option value="when_disputed">{move || tr!("summary.review.when_disputed")}</option>
                    </select>
                </label>
                <button type="submit" class="primary" data-testid="create" disabled=busy>{move || tr!("new.create")}</button>
            </form>
            {move || result.get().map(|r| match r {
                // Seated already: practice, one device, the computer, an open challenge.
                Ok(c) if who.get_untracked() != "match" || access.get_untracked() == RoomAccess::Open => {
                    #[cfg(feature = "hydrate")]
                    if let Some(w) = web_sys::window() {
                        let _ = w.location().assign(&format!("/rooms/{}", c.room_id));
                    }
                    view! { <p role="status"><a data-testid="to-room" href=format!("/rooms/{}", c.room_id)>{tr!("new.to_room")}</a></p> }.into_any()
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
                    }.into_any()
                }
                Err(e) => view! { <p class="error" role="alert">{crate::text::app_error(crate::i18n::use_lang().get(), &e)}</p> }.into_any(),
            })}
        </main>
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
