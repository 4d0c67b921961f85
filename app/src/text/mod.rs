//! Sentences for people, all from the i18n catalogue (`app/locales/`): results, the agreed
//! settings, durations. The stored log and the wire carry codes and numbers only; the UI and
//! the record download render them here, in the reader's language.

mod result;
mod settings;

pub use result::result;
pub use settings::settings_summary;

use crate::i18n::Lang;

/// A catalogue entry in `lang`.
pub fn t(lang: Lang, key: &str) -> String {
    rust_i18n::t!(key, locale = lang.code()).to_string()
}

/// A catalogue entry with `%{name}` parameters.
pub fn t_with(lang: Lang, key: &str, params: &[(&str, &str)]) -> String {
    let mut s = t(lang, key);
    for (name, value) in params {
        s = s.replace(&format!("%{{{name}}}"), value);
    }
    s
}

/// 흑 / Black.
pub fn colour(lang: Lang, c: engine::Color) -> String {
    t(
        lang,
        match c {
            engine::Color::Black => "colour.black",
            engine::Color::White => "colour.white",
        },
    )
}

/// `90` → "1 min 30 s" / "1분 30초"; `3600` → "1 h" / "1시간".
pub fn duration(lang: Lang, s: u32) -> String {
    let (h, m, sec) = (s / 3600, (s % 3600) / 60, s % 60);
    let mut parts = Vec::new();
    let n = |v: u32| v.to_string();
    if h > 0 {
        parts.push(t_with(lang, "dur.h", &[("n", &n(h))]));
    }
    if m > 0 {
        parts.push(t_with(lang, "dur.min", &[("n", &n(m))]));
    }
    if sec > 0 || parts.is_empty() {
        parts.push(t_with(lang, "dur.s", &[("n", &n(sec))]));
    }
    parts.join(" ")
}
