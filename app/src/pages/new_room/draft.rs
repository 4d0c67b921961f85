//! What the form is editing: the preset's settings as one [`MatchSettings`], and the typed
//! text of number fields that do not read as numbers (kept apart, so that the settings stay
//! well-typed while a field is half typed).

use std::collections::BTreeSet;

use leptos::prelude::*;

use wire::settings::{classic_default_komi_half_points, format_half_points, ColourAssignment, MatchSettings, Preset};

#[derive(Clone, Copy)]
pub struct Draft {
    pub s: RwSignal<MatchSettings>,
    /// Komi as typed, in points (steps of 0.5); the settings hold half points.
    pub komi_text: RwSignal<String>,
    /// Classic: once the player sets komi, scoring and handicap no longer move it (000 §2).
    pub komi_touched: RwSignal<bool>,
    /// The fields whose text is not a number, by test id.
    pub unreadable: RwSignal<BTreeSet<&'static str>>,
}

impl Draft {
    pub fn new(s: MatchSettings) -> Draft {
        let komi = format_half_points(i64::from(s.komi_half_points));
        Draft {
            s: RwSignal::new(s),
            komi_text: RwSignal::new(komi),
            komi_touched: RwSignal::new(false),
            unreadable: RwSignal::new(BTreeSet::new()),
        }
    }

    /// Starts again from `preset`'s defaults (Classic 19, 000 §2; Space 19×19×19, 003 §1.1).
    pub fn reset(&self, preset: Preset) {
        let s = match preset {
            Preset::Space => MatchSettings::space_default(),
            Preset::Classic => MatchSettings::classic_default(19),
        };
        self.komi_text.set(format_half_points(i64::from(s.komi_half_points)));
        self.komi_touched.set(false);
        self.unreadable.set(BTreeSet::new());
        self.s.set(s);
    }

    /// Classic: komi follows scoring and handicap until the player sets it (6.5 territory,
    /// 7.5 area, 0.5 with handicap; 000 §2, §4 step 4). With a handicap the weaker player
    /// takes Black, so nigiri gives way to "host Black" (000 §4 step 1).
    pub fn classic_changed(&self) {
        let s = self.s.get_untracked();
        if s.preset != Preset::Classic {
            return;
        }
        if !self.komi_touched.get_untracked() {
            let k = classic_default_komi_half_points(s.scoring, s.handicap);
            self.komi_text.set(format_half_points(i64::from(k)));
            self.s.update(|s| s.komi_half_points = k);
        }
        if s.handicap >= 2 && s.colours == ColourAssignment::Nigiri {
            self.s.update(|s| s.colours = ColourAssignment::HostBlack);
        }
    }

    pub fn set_komi_text(&self, text: String) {
        self.komi_touched.set(true);
        match parse_half_points(&text) {
            Some(k) => {
                self.mark(super::KOMI, false);
                self.s.update(|s| s.komi_half_points = k);
            }
            None => self.mark(super::KOMI, true),
        }
        self.komi_text.set(text);
    }

    pub fn mark(&self, testid: &'static str, bad: bool) {
        self.unreadable.update(|u| {
            if bad {
                u.insert(testid);
            } else {
                u.remove(testid);
            }
        });
    }

    pub fn is_unreadable(&self, testid: &'static str) -> Signal<bool> {
        let u = self.unreadable;
        Signal::derive(move || u.with(|u| u.contains(testid)))
    }
}

/// `"6.5"` → 13, `"-2"` → −4; `None` for anything that is not a whole number of half points.
pub fn parse_half_points(text: &str) -> Option<i32> {
    let v: f64 = text.trim().replace(',', ".").parse().ok()?;
    let half = v * 2.0;
    (half.is_finite() && half.fract() == 0.0 && half.abs() <= f64::from(i32::MAX)).then_some(half as i32)
}

/// A number input bound to one integer setting; text that is not an integer is flagged
/// beside the field rather than silently ignored.
#[component]
pub fn NumberField(
    draft: Draft,
    testid: &'static str,
    #[prop(into)] value: Signal<i64>,
    set: Callback<i64>,
    min: i64,
    max: i64,
    #[prop(default = 1)] step: i64,
) -> impl IntoView {
    view! {
        <input type="number" data-testid=testid min=min.to_string() max=max.to_string() step=step.to_string()
            inputmode="numeric"
            prop:value=move || value.get().to_string()
            on:input=move |e| {
                let parsed = event_target_value(&e).trim().parse::<i64>();
                draft.mark(testid, parsed.is_err());
                if let Ok(v) = parsed {
                    set.run(v);
                }
            }/>
        <super::problems::Unreadable bad=draft.is_unreadable(testid) testid=testid/>
    }
}

#[cfg(test)]
mod tests {
    use super::parse_half_points;

    #[test]
    fn komi_reads_in_steps_of_half_a_point() {
        assert_eq!(parse_half_points("6.5"), Some(13));
        assert_eq!(parse_half_points(" -2 "), Some(-4));
        assert_eq!(parse_half_points("7,5"), Some(15));
        assert_eq!(parse_half_points("0"), Some(0));
        assert_eq!(parse_half_points("6.25"), None);
        assert_eq!(parse_half_points("six"), None);
        assert_eq!(parse_half_points(""), None);
        assert_eq!(parse_half_points("1e300"), None);
    }
}
