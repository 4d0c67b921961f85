//! The game bar: what a player needs in sight all game, at the top of the room (on a phone
//! above the board, on a wide screen at the head of the side column). Both players with
//! their presence, clock and captures; whose turn it is (the player to move's card lit);
//! the state line (phase, turn, every stopped state); and the rules being played — komi,
//! scoring, ko and time — during play, not only before it. A clock running low is marked
//! for every kind of clock (Space hours and Fischer as well as byo-yomi) and said once to a
//! screen reader.

use leptos::prelude::*;

use super::{colour_text, panel::clock_text, phase_text, RoomCtx};
use crate::tr;
use wire::{
    clocks::ClockView,
    commands::RoomPhase,
    events::{Colour, FaultCause},
    settings::TimeControl,
};

/// How close to losing on time a clock is marked as low: a tenth of the time the player
/// started with, at least 10 s and at most 5 min (a 2-hour Space clock at 5 min, 20 minutes
/// of Fischer at 2 min, 3 minutes at 18 s). Byo-yomi is low in its last period.
pub fn low_time_threshold_ms(control: &TimeControl, c: Colour) -> Option<i64> {
    let initial_s = match *control {
        TimeControl::SpaceHours { black, white } => i64::from(if c == Colour::Black { black } else { white }) * 3600,
        TimeControl::Fischer { main_s, .. } => i64::from(main_s),
        TimeControl::Byoyomi { .. } | TimeControl::None { .. } => return None,
    };
    Some((initial_s * 100).clamp(10_000, 300_000))
}

/// Whether `c`'s clock is low `elapsed` ms after the snapshot `k` (when it is running).
pub fn is_low(k: &ClockView, c: Colour, elapsed: f64) -> bool {
    let i = c;
    let running = if k.running == Some(c) { elapsed } else { 0.0 };
    let main = k.main_ms[i] as f64 - running;
    match k.control {
        TimeControl::Byoyomi { .. } => main <= 0.0 && k.periods_left[i] <= 1,
        TimeControl::None { .. } => false,
        _ => low_time_threshold_ms(&k.control, c).is_some_and(|t| main <= t as f64),
    }
}

#[component]
pub fn GameBar() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let started =
        move || ctx.view.with(|v| v.black.is_some() && !matches!(v.phase, RoomPhase::Open | RoomPhase::Cancelled));
    view! {
        <section class="game-bar" aria-label=move || tr!("room.panel")>
            <Show when=started>
                <div class="players">
                    <PlayerCard colour=Colour::Black/>
                    <PlayerCard colour=Colour::White/>
                </div>
            </Show>
            <StatusLine/>
            <Show when=started>
                <p class="rules-line" data-testid="rules-line">{move || ctx.view.with(|v| {
                    crate::text::play_summary(crate::i18n::use_lang().get(), &v.settings).join(" · ")
                })}</p>
            </Show>
        </section>
    }
}

/// One player's card: colour, name, presence, clock, captures.
#[component]
fn PlayerCard(colour: Colour) -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let c = colour;
    let key = if c == Colour::Black { "black" } else { "white" };
    let name = move || {
        ctx.view.with(|v| {
            // The computer's seat: which model and level plays (003 §11.4, §12.5).
            if let Some(seat) = v.settings.mode.computer_playing(c) {
                return crate::text::computer_name_short(crate::i18n::use_lang().get(), seat);
            }
            if c == Colour::Black { v.black.clone() } else { v.white.clone() }.unwrap_or_else(|| "—".into())
        })
    };
    let running = move || ctx.view.with(|v| v.clocks.running == Some(c));
    let to_move = move || ctx.view.with(|v| v.phase == RoomPhase::Playing && v.to_move == c);
    let caps = move || ctx.view.with(|v| v.captures[c]);
    let elapsed = move || {
        let now = ctx.now.get();
        ctx.view.with(|v| (now - ctx.offset.get() - v.server_time_ms as f64).max(0.0))
    };
    let low = move || {
        let e = elapsed();
        ctx.view.with(|v| matches!(v.phase, RoomPhase::Playing) && is_low(&v.clocks, c, e))
    };
    // Said once per game per side when the clock first runs low.
    Effect::new(move |told: Option<bool>| {
        let now_low = low();
        if now_low && told != Some(true) {
            ctx.announcement.set(tr!("table.low_time", who = colour_text(c), left = clock_text(ctx, c)));
        }
        now_low || told == Some(true)
    });
    let presence = move || {
        ctx.view.with(|v| {
            // Not the computer's, and not one's own (this page is open, so one is here).
            if v.settings.mode.computer_playing(c).is_some() || v.your_colour == Some(c) {
                return None;
            }
            let i = c;
            let reconnecting = v.faults[i].as_ref().filter(|f| f.cause == FaultCause::Disconnected).map(|f| {
                let left = ((f.wait_ends_at_ms as f64 - (ctx.now.get() - ctx.offset.get())) / 1000.0).max(0.0).ceil();
                tr!("table.reconnecting", s = left)
            });
            Some(match reconnecting {
                Some(text) => ("reconnecting", text),
                None if v.present[i] => ("online", tr!("table.online")),
                None => ("away", tr!("table.away")),
            })
        })
    };
    view! {
        <div class=format!("player {key}") class:to-move=to_move class:low=low data-testid=format!("player-{key}")>
            <span class="dot" aria-hidden="true"></span>
            <span class="who">{move || colour_text(c)}" · "{name}
                {move || presence().map(|(state, text)| view! {
                    <span class=format!("presence {state}") data-testid=format!("presence-{key}")>{text}</span>
                })}
            </span>
            <span class="clock" class:running=running data-testid=format!("clock-{key}")
                  aria-label=move || tr!("room.clock_of", who = colour_text(c))>
                {move || clock_text(ctx, c)}
            </span>
            <span class="caps">{move || tr!("room.captures", n = caps())}</span>
        </div>
    }
}

/// Phase, turn and every stopped state: hold, reconnection wait, the opponent's fault.
#[component]
fn StatusLine() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let text = move || {
        ctx.view.with(|v| {
            let mut parts = vec![phase_text(v.phase)];
            if v.phase == RoomPhase::Playing {
                parts.push(match v.your_colour {
                    Some(me) if me == v.to_move && !v.settings.mode.one_screen_both_colours() => {
                        tr!("table.your_move", n = v.move_number + 1)
                    }
                    _ => tr!("room.to_move", who = colour_text(v.to_move), n = v.move_number + 1),
                });
            }
            if let Some((c, _)) = v.awaiting_ack {
                if v.phase == RoomPhase::Playing {
                    parts.push(tr!("room.waiting_ack", who = colour_text(c)));
                }
            }
            for (i, f) in v.faults.iter().enumerate() {
                if let Some(f) = f {
                    let who = colour_text(if i == 0 { Colour::Black } else { Colour::White });
                    let left =
                        ((f.wait_ends_at_ms as f64 - (ctx.now.get() - ctx.offset.get())) / 1000.0).max(0.0).ceil();
                    parts.push(tr!("room.fault", who = who, s = left));
                }
            }
            if v.phase == RoomPhase::WaitingReady {
                parts.push(tr!("room.press_ready"));
            }
            // The room says who acts on this screen.
            if v.settings.mode.one_screen_both_colours() && v.phase != RoomPhase::Finished {
                parts.push(match (v.settings.mode.is_practice(), v.your_colour) {
                    (true, _) => tr!("mode.screen_practice"),
                    (false, Some(c)) => tr!("mode.screen_one_device", who = colour_text(c)),
                    (false, None) => tr!("mode.screen_one_device_any"),
                });
            }
            if v.settings.mode.tag() != wire::mode::ModeTag::Match {
                parts.push(crate::text::mode_tag(crate::i18n::use_lang().get(), v.settings.mode.tag()));
            }
            if let Some(r) = &v.result {
                parts.push(crate::text::result(crate::i18n::use_lang().get(), &r.result));
                if v.under_review {
                    parts.push(tr!("referee.under_review"));
                }
            }
            parts.join(" · ")
        })
    };
    let alert = move || ctx.view.with(|v| v.hold.is_some() || v.faults.iter().any(Option::is_some));
    let mine = move || ctx.view.with(|v| v.phase == RoomPhase::Playing && v.your_colour == Some(v.to_move));
    view! {
        <p class="status" class:alert=alert class:mine=mine data-testid="status" role="status">{text}</p>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(control: TimeControl, main_ms: [i64; 2], periods_left: [u32; 2]) -> ClockView {
        let (main_ms, periods_left) = (main_ms.into(), periods_left.into());
        ClockView { control, main_ms, periods_left, running: Some(Colour::Black), turn_left_ms: None, at_ms: 0 }
    }

    #[test]
    fn every_kind_of_clock_runs_low_near_its_end() {
        // Space hours: a tenth of the player's own hours, at most five minutes.
        let space = TimeControl::SpaceHours { black: 2, white: 1 };
        assert_eq!(low_time_threshold_ms(&space, Colour::Black), Some(300_000));
        assert!(!is_low(&clock(space, [301_000, 9_000_000], [0, 0]), Colour::Black, 0.0));
        assert!(is_low(&clock(space, [301_000, 9_000_000], [0, 0]), Colour::Black, 2_000.0), "running down");
        assert!(!is_low(&clock(space, [301_000, 9_000_000], [0, 0]), Colour::White, 0.0));
        // Fischer: 3 minutes starts marking at 18 s; never under 10 s.
        let fischer = TimeControl::Fischer { main_s: 180, increment_s: 10 };
        assert_eq!(low_time_threshold_ms(&fischer, Colour::White), Some(18_000));
        assert_eq!(
            low_time_threshold_ms(&TimeControl::Fischer { main_s: 30, increment_s: 0 }, Colour::White),
            Some(10_000)
        );
        assert!(is_low(&clock(fischer, [17_000, 60_000], [0, 0]), Colour::Black, 0.0));
        // Byo-yomi: the last period; no clock never.
        let byo = TimeControl::Byoyomi { main_s: 600, period_s: 30, periods: 3 };
        assert!(!is_low(&clock(byo, [0, 0], [2, 3]), Colour::Black, 0.0));
        assert!(is_low(&clock(byo, [0, 0], [1, 3]), Colour::Black, 0.0));
        assert!(!is_low(&clock(byo, [5_000, 0], [1, 3]), Colour::Black, 0.0));
        assert!(!is_low(&clock(TimeControl::None { idle_limit_s: 300 }, [0, 0], [0, 0]), Colour::Black, 0.0));
    }
}
