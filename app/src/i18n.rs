//! Korean and English (rust-i18n: translations in `app/locales/app.yml`, compiled in). The
//! language is chosen on the server from the `sb_lang` cookie or the browser's
//! Accept-Language (Korean when the browser prefers it, English otherwise), written into
//! `<html lang>`, and read back by the browser at hydration so both render the same text.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Lang {
    Ko,
    En,
}

/// The cookie that remembers a reader's explicit choice.
pub const LANG_COOKIE: &str = "sb_lang";

impl Lang {
    /// Every language of the catalogue.
    pub const ALL: [Lang; 2] = [Lang::Ko, Lang::En];

    pub fn code(self) -> &'static str {
        match self {
            Lang::Ko => "ko",
            Lang::En => "en",
        }
    }
    pub fn other(self) -> Lang {
        match self {
            Lang::Ko => Lang::En,
            Lang::En => Lang::Ko,
        }
    }
    pub fn from_code(s: &str) -> Option<Lang> {
        match s.trim().to_ascii_lowercase().split(['-', '_']).next() {
            Some("ko") => Some(Lang::Ko),
            Some("en") => Some(Lang::En),
            _ => None,
        }
    }
    /// The first of Korean or English in an Accept-Language list, by its q-values.
    pub fn from_accept_language(header: &str) -> Option<Lang> {
        let mut best: Option<(f32, Lang)> = None;
        for part in header.split(',') {
            let mut it = part.split(';');
            let Some(lang) = it.next().and_then(Lang::from_code) else { continue };
            let q = it.find_map(|p| p.trim().strip_prefix("q=").and_then(|q| q.parse::<f32>().ok())).unwrap_or(1.0);
            if best.is_none_or(|(bq, _)| q > bq) {
                best = Some((q, lang));
            }
        }
        best.map(|(_, l)| l)
    }
    /// From a `Cookie` header value.
    pub fn from_cookie_header(header: &str) -> Option<Lang> {
        header.split(';').find_map(|kv| {
            let (k, v) = kv.trim().split_once('=')?;
            (k == LANG_COOKIE).then(|| Lang::from_code(v)).flatten()
        })
    }
}

/// The language of the page being rendered.
#[derive(Debug, Clone, Copy)]
pub struct UiLang(pub RwSignal<Lang>);

/// Decides the language (server: request headers; browser: `<html lang>` written by the
/// server) and provides it to the whole app.
pub fn provide_lang() -> RwSignal<Lang> {
    let lang = RwSignal::new(initial_lang());
    provide_context(UiLang(lang));
    lang
}

pub fn use_lang() -> RwSignal<Lang> {
    use_context::<UiLang>().map(|l| l.0).unwrap_or_else(|| RwSignal::new(Lang::En))
}

#[cfg(feature = "ssr")]
pub fn initial_lang() -> Lang {
    let Some(parts) = use_context::<axum::http::request::Parts>() else { return Lang::En };
    let header = |name| parts.headers.get(name).and_then(|v| v.to_str().ok());
    header(axum::http::header::COOKIE)
        .and_then(Lang::from_cookie_header)
        .or_else(|| header(axum::http::header::ACCEPT_LANGUAGE).and_then(Lang::from_accept_language))
        .unwrap_or(Lang::En)
}

#[cfg(not(feature = "ssr"))]
pub fn initial_lang() -> Lang {
    #[cfg(feature = "hydrate")]
    {
        web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
            .and_then(|e| e.get_attribute("lang"))
            .and_then(|l| Lang::from_code(&l))
            .unwrap_or(Lang::En)
    }
    #[cfg(not(feature = "hydrate"))]
    Lang::En
}

/// Switches language and remembers it for a year.
pub fn set_lang(lang: RwSignal<Lang>, to: Lang) {
    lang.set(to);
    #[cfg(feature = "hydrate")]
    {
        use wasm_bindgen::JsCast;
        if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
            if let Some(el) = doc.document_element() {
                let _ = el.set_attribute("lang", to.code());
            }
            if let Ok(html) = doc.dyn_into::<web_sys::HtmlDocument>() {
                let _ =
                    html.set_cookie(&format!("{LANG_COOKIE}={}; path=/; max-age=31536000; samesite=lax", to.code()));
            }
        }
    }
}

/// Translates `key` into the page's language (reactive when read inside a view closure).
#[macro_export]
macro_rules! tr {
    ($key:expr) => {
        rust_i18n::t!($key, locale = $crate::i18n::use_lang().get().code()).to_string()
    };
    ($key:expr, $($name:ident = $value:expr),+ $(,)?) => {
        rust_i18n::t!($key, locale = $crate::i18n::use_lang().get().code(), $($name = $value),+).to_string()
    };
}

/// Translates in a given language (outside reactive contexts, and in tests).
pub fn text(lang: Lang, key: &str) -> String {
    rust_i18n::t!(key, locale = lang.code()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn korean_is_chosen_when_the_browser_prefers_it() {
        assert_eq!(Lang::from_accept_language("ko-KR,ko;q=0.9,en-US;q=0.8"), Some(Lang::Ko));
        assert_eq!(Lang::from_accept_language("en-US,en;q=0.9,ko;q=0.5"), Some(Lang::En));
        assert_eq!(Lang::from_accept_language("fr-FR,en;q=0.4,ko;q=0.6"), Some(Lang::Ko));
        assert_eq!(Lang::from_accept_language("fr-FR"), None);
        assert_eq!(Lang::from_cookie_header("a=b; sb_lang=en; c=d"), Some(Lang::En));
    }

    #[test]
    fn every_key_has_both_languages() {
        let text = include_str!("../locales/app.yml");
        let mut key: Option<&str> = None;
        let mut seen = Vec::new();
        for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#') && !l.starts_with("_version")) {
            if !line.starts_with(' ') {
                if let Some(k) = key.take() {
                    assert_eq!(seen.len(), 2, "{k} needs ko and en, has {seen:?}");
                }
                key = Some(line.trim_end_matches(':'));
                seen.clear();
            } else if let Some((l, _)) = line.trim().split_once(':') {
                seen.push(l.to_string());
            }
        }
        for k in ["room.confirm_move", "room.pass", "scoring.agree"] {
            assert_ne!(super::text(Lang::Ko, k), super::text(Lang::En, k), "{k} translated");
            assert_ne!(super::text(Lang::En, k), k, "{k} exists");
        }
    }
}
