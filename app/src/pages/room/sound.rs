//! Sound in the room (000 §9): a stone placed, a capture, your turn, and the byo-yomi
//! countdown — the last ten seconds of a period counted with a beep each, shown in large
//! numbers with the board's border changing colour. On by default; the switch is remembered
//! in this browser. Every sound played is also appended to `window.__sb_sounds`, so that a
//! test observes what would be heard.

use leptos::prelude::*;

use super::RoomCtx;
use wire::{events::Colour, settings::TimeControl};

/// The seconds counted aloud at the end of a byo-yomi period (000 §9).
pub const COUNTDOWN_S: i64 = 10;

// The live stream that plays most of them runs in the browser only.
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sound {
    Stone,
    Capture,
    YourTurn,
    /// One of the last seconds of a period.
    Count(i64),
}

#[cfg(feature = "hydrate")]
impl Sound {
    fn name(self) -> String {
        match self {
            Sound::Stone => "stone".into(),
            Sound::Capture => "capture".into(),
            Sound::YourTurn => "your_turn".into(),
            Sound::Count(n) => format!("count_{n}"),
        }
    }

    /// Pitch (Hz) and length (ms) of the tone.
    fn tone(self) -> (f32, f64) {
        match self {
            Sound::Stone => (220.0, 60.0),
            Sound::Capture => (330.0, 140.0),
            Sound::YourTurn => (660.0, 120.0),
            Sound::Count(n) if n <= 3 => (990.0, 150.0),
            Sound::Count(_) => (880.0, 90.0),
        }
    }
}

#[cfg(feature = "hydrate")]
const STORAGE_KEY: &str = "sb_sound";

/// Whether sound is on: the choice remembered in this browser, on by default.
pub fn remembered() -> bool {
    #[cfg(feature = "hydrate")]
    {
        let stored = web_sys::window()
            .and_then(|w| w.local_storage().ok().flatten())
            .and_then(|s| s.get_item(STORAGE_KEY).ok().flatten());
        stored.as_deref() != Some("off")
    }
    #[cfg(not(feature = "hydrate"))]
    true
}

pub fn remember(on: bool) {
    #[cfg(feature = "hydrate")]
    if let Some(s) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = s.set_item(STORAGE_KEY, if on { "on" } else { "off" });
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = on;
}

/// Plays `sound` when sound is on.
pub fn play(ctx: RoomCtx, sound: Sound) {
    if !ctx.sound.get_untracked() {
        return;
    }
    #[cfg(feature = "hydrate")]
    hydrate::play(sound);
    #[cfg(not(feature = "hydrate"))]
    let _ = sound;
}

/// The seconds left in the current byo-yomi period of `c`'s running clock when they are
/// among the last [`COUNTDOWN_S`]; `None` otherwise (another control, main time, not
/// running).
pub fn countdown(ctx: RoomCtx, c: Colour) -> Option<i64> {
    let now = ctx.now.get();
    ctx.view.with(|v| {
        let k = &v.clocks;
        if k.running != Some(c) {
            return None;
        }
        let TimeControl::Byoyomi { period_s, .. } = k.control else { return None };
        let elapsed = (now - ctx.offset.get() - v.server_time_ms as f64).max(0.0);
        if k.main_ms[c] as f64 - elapsed > 0.0 {
            return None;
        }
        let period = f64::from(period_s) * 1000.0;
        let left = k.turn_left_ms? as f64 - elapsed;
        if left <= 0.0 {
            return None;
        }
        let in_period = left % period;
        let in_period = if in_period == 0.0 { period } else { in_period };
        let s = (in_period / 1000.0).ceil() as i64;
        (s <= COUNTDOWN_S).then_some(s)
    })
}

/// The switch, and the countdown's sound for the player whose clock it is.
#[component]
pub fn SoundSwitch() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    // Each counted second sounds once, for the player to move only.
    let last = StoredValue::new(None::<i64>);
    Effect::new(move |_| {
        let Some(me) = ctx.my_colour() else { return };
        let n = countdown(ctx, me);
        if n != last.get_value() {
            last.set_value(n);
            if let Some(n) = n {
                play(ctx, Sound::Count(n));
            }
        }
    });
    view! {
        <label class="one-tap">
            <input type="checkbox" data-testid="sound" prop:checked=ctx.sound
                on:change=move |e| {
                    let on = event_target_checked(&e);
                    ctx.sound.set(on);
                    remember(on);
                }/>
            {move || crate::tr!("room.sound")}
        </label>
    }
}

#[cfg(feature = "hydrate")]
mod hydrate {
    use std::cell::RefCell;

    use wasm_bindgen::JsValue;

    use super::Sound;

    thread_local! {
        /// Made at the first sound (browsers start audio only after the page was used).
        static AUDIO: RefCell<Option<web_sys::AudioContext>> = const { RefCell::new(None) };
    }

    pub fn play(sound: Sound) {
        log(&sound.name());
        AUDIO.with(|a| {
            let mut a = a.borrow_mut();
            if a.is_none() {
                *a = web_sys::AudioContext::new().ok();
            }
            if let Some(ctx) = a.as_ref() {
                let _ = beep(ctx, sound.tone());
            }
        });
    }

    fn beep(ctx: &web_sys::AudioContext, (hz, ms): (f32, f64)) -> Result<(), JsValue> {
        let osc = ctx.create_oscillator()?;
        let gain = ctx.create_gain()?;
        osc.frequency().set_value(hz);
        gain.gain().set_value(0.15);
        osc.connect_with_audio_node(&gain)?;
        gain.connect_with_audio_node(&ctx.destination())?;
        let t = ctx.current_time();
        osc.start_with_when(t)?;
        osc.stop_with_when(t + ms / 1000.0)?;
        Ok(())
    }

    /// `window.__sb_sounds.push(name)`: what a test reads instead of listening.
    fn log(name: &str) {
        let Some(w) = web_sys::window() else { return };
        let key = JsValue::from_str("__sb_sounds");
        let list = js_sys::Reflect::get(&w, &key)
            .ok()
            .filter(|v| v.is_object())
            .unwrap_or_else(|| js_sys::Array::new().into());
        let list = js_sys::Array::from(&list);
        list.push(&JsValue::from_str(name));
        let _ = js_sys::Reflect::set(&w, &key, &list);
    }
}
