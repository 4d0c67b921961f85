//! The reader's language (rust-i18n: the catalogue in `app/locales/`, compiled into the server;
//! the browser loads its language's files, `catalogue`). Every
//! language is a locale of the catalogue: adding one is adding a file there (`fr.yml` with
//! the keys of `app.yml`), nothing else — `Lang::all`, the switch and the record download
//! take what the catalogue has. The language is chosen on the server from the `sb_lang`
//! cookie or the browser's Accept-Language (English when it names none of ours), written
//! into `<html lang>`, and read back by the browser at hydration so both render the same text.

use std::borrow::Cow;

use leptos::prelude::*;

pub mod catalogue;

/// A language the catalogue has, by its code (`ko`, `en`, …). Only the catalogue's own
/// locales can be made (`from_code`), so every `Lang` has every text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Lang(&'static str);

/// The cookie that remembers a reader's explicit choice.
pub const LANG_COOKIE: &str = "sb_lang";

impl Lang {
    pub const KO: Lang = Lang("ko");
    pub const EN: Lang = Lang("en");
    /// For readers whose browser names none of the catalogue's languages; also the
    /// catalogue's fallback (`rust_i18n::i18n!(…, fallback = "en")`).
    pub const DEFAULT: Lang = Lang::EN;

    /// Every language of the catalogue, by code.
    pub fn all() -> Vec<Lang> {
        #[cfg(test)]
        pseudo::register();
        crate::_rust_i18n_available_locales().into_iter().map(|code| Lang(intern(code))).collect()
    }
    pub fn code(self) -> &'static str {
        self.0
    }
    /// The language's name in itself ("한국어", "English"), for the switch.
    pub fn name(self) -> String {
        // The browser may not have loaded this language's file: the page lists its name.
        #[cfg(feature = "hydrate")]
        if let Some(name) = catalogue::listed_name(self.0) {
            return name;
        }
        text(self, "lang.name")
    }
    /// The next language of the catalogue (the switch goes round them all).
    pub fn next(self) -> Lang {
        let all = Lang::all();
        let at = all.iter().position(|l| *l == self).unwrap_or(0);
        all.get((at + 1) % all.len().max(1)).copied().unwrap_or(Lang::DEFAULT)
    }
    /// A catalogue language from a code or tag (`ko-KR`, `EN_us`): its primary subtag.
    pub fn from_code(s: &str) -> Option<Lang> {
        let primary = s.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        Lang::all().into_iter().find(|l| l.0 == primary)
    }
    /// The most wanted catalogue language of an Accept-Language list, by its q-values.
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

/// A locale code as `'static`: the compiled-in catalogue's codes already are; a code added at
/// run time (the tests' pseudo-locale) is kept once, so the few that exist leak once each.
fn intern(code: Cow<'static, str>) -> &'static str {
    match code {
        Cow::Borrowed(c) => c,
        Cow::Owned(c) => {
            static KEPT: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());
            let mut kept = KEPT.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if let Some(k) = kept.iter().find(|k| **k == c) {
                return k;
            }
            let k: &'static str = Box::leak(c.into_boxed_str());
            kept.push(k);
            k
        }
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
    #[cfg(feature = "hydrate")]
    catalogue::redraw_on_load(lang);
    lang
}

pub fn use_lang() -> RwSignal<Lang> {
    use_context::<UiLang>().map(|l| l.0).unwrap_or_else(|| RwSignal::new(Lang::DEFAULT))
}

#[cfg(feature = "ssr")]
pub fn initial_lang() -> Lang {
    let Some(parts) = use_context::<axum::http::request::Parts>() else { return Lang::DEFAULT };
    let header = |name| parts.headers.get(name).and_then(|v| v.to_str().ok());
    header(axum::http::header::COOKIE)
        .and_then(Lang::from_cookie_header)
        .or_else(|| header(axum::http::header::ACCEPT_LANGUAGE).and_then(Lang::from_accept_language))
        .unwrap_or(Lang::DEFAULT)
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
            .unwrap_or(Lang::DEFAULT)
    }
    #[cfg(not(feature = "hydrate"))]
    Lang::DEFAULT
}

/// Switches language and remembers it for a year. In the browser, once its two files are
/// loaded (`catalogue`); if they cannot be, the page stays in its language.
pub fn set_lang(lang: RwSignal<Lang>, to: Lang) {
    #[cfg(not(feature = "hydrate"))]
    lang.set(to);
    #[cfg(feature = "hydrate")]
    leptos::task::spawn_local(async move {
        // Both files: a lazy page may be shown, or be on its way, when the switch lands.
        let loaded = match catalogue::load(to.code()).await {
            Ok(()) => catalogue::load_later(to.code()).await,
            other => other,
        };
        if let Err(why) = loaded {
            leptos::logging::error!("language {}: {why}", to.code());
            return;
        }
        lang.set(to);
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
    });
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
    #[cfg(test)]
    pseudo::register();
    rust_i18n::t!(key, locale = lang.code()).to_string()
}

/// The tests' third language: the pseudo-locale `qps` (as Windows calls it), every English
/// entry bracketed and accented, `%{…}` parameters kept. It joins the catalogue at run time
/// through rust-i18n's own extension point, as a third file would at build time; a text that
/// comes out unbracketed did not come from the catalogue.
#[cfg(test)]
pub(crate) mod pseudo {
    use super::Lang;
    use std::{borrow::Cow, collections::HashMap};

    pub const QPS: Lang = Lang("qps");
    pub const OPEN: char = '⟦';
    pub const CLOSE: char = '⟧';

    /// Adds `qps` to the catalogue (once per test process).
    pub fn register() {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            let english = crate::_rust_i18n_backend().messages_for_locale("en").unwrap_or_default();
            let entries: HashMap<Cow<'static, str>, Cow<'static, str>> = english
                .into_iter()
                .map(|(key, value)| (Cow::Owned(format!("pseudo.{key}")), Cow::Owned(pseudo(&value))))
                .collect();
            let mut backend = rust_i18n::SimpleBackend::new();
            backend.add_translations(Cow::Borrowed(QPS.0), entries);
            crate::_rust_i18n_extend(Box::leak(Box::new(backend)), "pseudo");
        });
    }

    /// "Komi %{k} to %{who}" → "⟦Ķömï %{k} ţö %{who}⟧".
    pub fn pseudo(english: &str) -> String {
        let mut out = String::from(OPEN);
        let mut in_param = false;
        let mut chars = english.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '%' && chars.peek() == Some(&'{') {
                in_param = true;
            }
            out.push(if in_param { c } else { accent(c) });
            if c == '}' {
                in_param = false;
            }
        }
        out.push(CLOSE);
        out
    }

    fn accent(c: char) -> char {
        match c {
            'a' => 'á',
            'e' => 'é',
            'i' => 'ï',
            'o' => 'ö',
            'u' => 'ü',
            'c' => 'ç',
            'n' => 'ñ',
            'A' => 'Å',
            'E' => 'É',
            'O' => 'Ö',
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wanted_language_is_chosen_from_the_browser_and_the_cookie() {
        assert_eq!(Lang::from_accept_language("ko-KR,ko;q=0.9,en-US;q=0.8"), Some(Lang::KO));
        assert_eq!(Lang::from_accept_language("en-US,en;q=0.9,ko;q=0.5"), Some(Lang::EN));
        assert_eq!(Lang::from_accept_language("fr-FR,en;q=0.4,ko;q=0.6"), Some(Lang::KO));
        assert_eq!(Lang::from_accept_language("fr-FR"), None);
        assert_eq!(Lang::from_cookie_header("a=b; sb_lang=en; c=d"), Some(Lang::EN));
        assert_eq!(Lang::from_code("KO_kr"), Some(Lang::KO));
        assert_eq!(Lang::from_code("xx"), None, "only the catalogue's languages");
    }

    /// Every language of the catalogue has every key of the fallback (English), and no more.
    #[test]
    fn every_language_has_every_key() {
        let keys = |code: &str| -> std::collections::BTreeSet<String> {
            crate::_rust_i18n_backend()
                .messages_for_locale(code)
                .unwrap_or_default()
                .into_iter()
                .map(|(k, _)| k.into_owned())
                .collect()
        };
        let english = keys("en");
        assert!(english.len() > 100, "the catalogue is read: {} keys", english.len());
        let files: Vec<Lang> = Lang::all().into_iter().filter(|l| *l != pseudo::QPS).collect();
        assert!(files.contains(&Lang::KO) && files.contains(&Lang::EN), "{files:?}");
        for lang in files {
            let have = keys(lang.code());
            let missing: Vec<_> = english.difference(&have).collect();
            let extra: Vec<_> = have.difference(&english).collect();
            assert!(missing.is_empty() && extra.is_empty(), "{}: missing {missing:?}, extra {extra:?}", lang.code());
            assert!(!lang.name().is_empty() && lang.name() != "lang.name", "{} names itself", lang.code());
        }
        for k in ["room.confirm_move", "room.pass", "scoring.agree"] {
            assert_ne!(crate::i18n::text(Lang::KO, k), crate::i18n::text(Lang::EN, k), "{k} translated");
        }
    }

    /// The pseudo-locale is a language like the others: listed, chosen by its code, switched
    /// to and from, every text bracketed.
    #[test]
    fn a_third_language_joins_by_its_catalogue_alone() {
        assert!(Lang::all().contains(&pseudo::QPS), "{:?}", Lang::all());
        assert_eq!(Lang::from_code("qps-ploc"), Some(pseudo::QPS));
        assert_eq!(pseudo::QPS.name(), pseudo::pseudo(&Lang::EN.name()));
        assert_eq!(
            crate::i18n::text(pseudo::QPS, "room.pass"),
            pseudo::pseudo(&crate::i18n::text(Lang::EN, "room.pass"))
        );
        // The switch goes round every language and comes back.
        let mut seen = vec![Lang::KO];
        while let Some(next) = Some(seen.last().unwrap().next()).filter(|n| *n != Lang::KO) {
            seen.push(next);
            assert!(seen.len() <= Lang::all().len(), "{seen:?}");
        }
        seen.sort();
        assert_eq!(seen, Lang::all());
    }
}
