//! The catalogue as the browser gets it. Both languages' texts were 120 KB of the WASM
//! bundle's first download, though a reader reads one. The server renders with the
//! compiled-in catalogue (rust-i18n); the browser's bundle compiles none in. Instead each
//! page's `<head>` names every language's file (`<meta name="sb-catalogue">`: code, name in
//! itself, address) and preloads its own, which the browser loads before it hydrates (so
//! hydration renders the server's very texts). Switching language fetches the other file
//! first. A file's address carries its content's hash, so browsers may keep it for a year.
//!
//! Each language is two files: the texts of the pages outside the first download (every page
//! but home is a lazy route), by the key prefixes in [`LATER`], and all the others. A lazy
//! route loads the later file as it loads its chunk (`pages::lazy_routes::Later`), a language
//! switch loads both, and a page rendered at another address than `/` preloads it with the
//! first. Should a later text still be looked up before its file came, the lookup fetches the
//! file and redraws the texts when it is in. A page from before a deploy asks for a first
//! file by its old name: it gets all the texts, as it did then.

use std::collections::HashMap;

/// Where the files are served: `/i18n/<code>-<hash>.json`.
pub const PATH: &str = "/i18n/";

/// The `<meta name>` of the head's list of languages.
pub const META_NAME: &str = "sb-catalogue";

/// Key prefixes of the texts only pages outside the first download show: 40% of the texts,
/// 7 KB of the first download's gzip. A test keeps them out of the first download's sources.
pub const LATER: &[&str] = &[
    "accounts",
    "admin",
    "case",
    "cases",
    "category",
    "conduct",
    "desk",
    "governance",
    "hold",
    "hold_next",
    "learning",
    "log",
    "me",
    "penalty",
    "programs",
    "record",
    "region",
    "replay",
    "report",
    "reset",
    "rules",
    "sanction",
    "setup",
    "sgf",
    "signup",
    "table",
    "verdict",
    "views",
];

/// Which of a language's two files holds a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// Loaded before the page hydrates.
    First,
    /// Loaded by the lazy routes ([`LATER`]).
    Later,
}

impl Part {
    pub fn of(key: &str) -> Part {
        let prefix = key.split('.').next().unwrap_or(key);
        if LATER.contains(&prefix) {
            Part::Later
        } else {
            Part::First
        }
    }
    /// What the file's name has between the code and the hash.
    #[cfg(feature = "ssr")]
    fn infix(self) -> &'static str {
        match self {
            Part::First => "",
            Part::Later => "later-",
        }
    }
}

/// One language's texts, as the browser keeps them: read from a file's JSON object.
#[derive(Debug, Default)]
pub struct Texts(HashMap<String, String>);

impl Texts {
    /// A file's body; anything but a JSON object of texts is refused, naming what was wrong.
    pub fn parse(json: &str) -> Result<Texts, String> {
        serde_json::from_str(json).map(Texts).map_err(|e| format!("catalogue file: {e}"))
    }
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).map(String::as_str)
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

#[cfg(feature = "ssr")]
pub use served::{file, files, stale_body, Served};

#[cfg(feature = "ssr")]
mod served {
    use sha2::{Digest, Sha256};

    use super::{Part, PATH};
    use crate::i18n::Lang;

    /// One of a language's files as the server sends it.
    #[derive(Debug)]
    pub struct Served {
        pub lang: Lang,
        pub part: Part,
        /// `ko-<16 hex of SHA-256>.json`, `ko-later-<…>.json`.
        pub name: String,
        /// `{"key": "text", …}`, keys sorted.
        pub json: String,
    }

    impl Served {
        pub fn href(&self) -> String {
            format!("{PATH}{}", self.name)
        }
    }

    /// A language's texts whose keys `keep` takes, as a file's JSON: `{"key": "text", …}`,
    /// keys sorted.
    fn texts_json(lang: Lang, keep: impl Fn(&str) -> bool) -> String {
        let messages = crate::_rust_i18n_backend().messages_for_locale(lang.code()).unwrap_or_default();
        let texts: std::collections::BTreeMap<&str, &str> =
            messages.iter().filter(|(k, _)| keep(k)).map(|(k, v)| (k.as_ref(), v.as_ref())).collect();
        serde_json::to_string(&texts).unwrap_or_else(|_| "{}".into())
    }

    /// Every language's files, made once from the compiled-in catalogue.
    pub fn files() -> &'static [Served] {
        static FILES: std::sync::LazyLock<Vec<Served>> = std::sync::LazyLock::new(|| {
            Lang::all()
                .into_iter()
                .flat_map(|lang| {
                    [Part::First, Part::Later].map(|part| {
                        let json = texts_json(lang, |key| Part::of(key) == part);
                        let hash = Sha256::digest(json.as_bytes());
                        let name = format!("{}-{}{}.json", lang.code(), part.infix(), hex::encode(&hash[..8]));
                        Served { lang, part, name, json }
                    })
                })
                .collect()
        });
        &FILES
    }

    /// What a request for `f` by an older name gets: a first file's old name may come from a
    /// page from before the texts were split, which reads all of them from it.
    pub fn stale_body(f: &'static Served) -> &'static str {
        static WHOLE: std::sync::LazyLock<Vec<(Lang, String)>> = std::sync::LazyLock::new(|| {
            Lang::all().into_iter().map(|lang| (lang, texts_json(lang, |_| true))).collect()
        });
        match f.part {
            Part::Later => &f.json,
            Part::First => WHOLE.iter().find(|(l, _)| *l == f.lang).map_or(&f.json, |(_, json)| json),
        }
    }

    /// A language's file of one part.
    pub fn of(lang: Lang, part: Part) -> Option<&'static Served> {
        files().iter().find(|f| f.lang == lang && f.part == part)
    }

    /// The file a request names: `Some((file, true))` for a current file; `Some((file,
    /// false))` for a language's file (of the part named) by an older hash (a page from before a deploy: it gets
    /// today's texts, not to be kept); `None` for no language of the catalogue.
    pub fn file(name: &str) -> Option<(&'static Served, bool)> {
        let files = files();
        if let Some(f) = files.iter().find(|f| f.name == name) {
            return Some((f, true));
        }
        let (code, rest) = name.strip_suffix(".json")?.split_once('-')?;
        let part = if rest.starts_with(Part::Later.infix()) { Part::Later } else { Part::First };
        files.iter().find(|f| f.lang.code() == code && f.part == part).map(|f| (f, false))
    }
}

/// The head's part (rendered by the server's `shell` only): every language's entry, and the
/// page's own file preloaded, so that it downloads beside the bundle rather than after it;
/// at any address but `/` (a lazy route's page; a 404 page takes it in vain) its later file too.
#[cfg(feature = "ssr")]
#[leptos::component]
pub fn CatalogueHead(lang: crate::i18n::Lang) -> impl leptos::IntoView {
    use leptos::prelude::*;
    let home = use_context::<axum::http::request::Parts>().is_none_or(|p| p.uri.path() == "/");
    let parts: &[Part] = if home { &[Part::First] } else { &[Part::First, Part::Later] };
    let preload = parts.iter().filter_map(|part| served::of(lang, *part)).map(Served::href);
    let href = |lang, part| served::of(lang, part).map(Served::href).unwrap_or_default();
    view! {
        // Built, not written as a tag: the view macro cannot take `as` as an attribute name.
        {preload
            .map(|href| leptos::html::link().rel("preload").r#as("fetch").crossorigin("anonymous").href(href))
            .collect_view()}
        {files()
            .iter()
            .filter(|f| f.part == Part::First)
            .map(|f| {
                let name = crate::i18n::text(f.lang, "lang.name");
                view! {
                    <meta name=META_NAME data-code=f.lang.code() data-name=name data-href=f.href()
                        data-later=href(f.lang, Part::Later)/>
                }
            })
            .collect_view()}
    }
}

/// The browser never renders the document's head.
#[cfg(not(feature = "ssr"))]
#[leptos::component]
pub fn CatalogueHead(lang: crate::i18n::Lang) -> impl leptos::IntoView {
    let _ = lang;
}

#[cfg(feature = "hydrate")]
pub use fetched::{listed_name, load, load_later, redraw_on_load, Fetched};

/// The later texts of the page's language, on the server nothing (it has them all).
pub async fn later_texts() {
    #[cfg(feature = "hydrate")]
    if let Err(why) = fetched::load_later(fetched::current_code()).await {
        leptos::logging::error!("{why}");
    }
}

/// The browser's side: the languages the page lists, the files loaded so far, and the
/// rust-i18n backend that reads them (`lib.rs`: `i18n!(…, backend = Fetched)`).
#[cfg(feature = "hydrate")]
mod fetched {
    use std::{
        borrow::Cow,
        cell::{Cell, RefCell},
        sync::{OnceLock, RwLock},
    };

    use leptos::prelude::*;
    use wasm_bindgen::JsCast;

    use super::{Part, Texts, META_NAME};
    use crate::i18n::Lang;

    /// A language the page lists.
    struct Listed {
        code: &'static str,
        name: String,
        first: String,
        later: String,
    }

    /// The page's list, read from its head once.
    fn listed() -> &'static [Listed] {
        static LISTED: OnceLock<Vec<Listed>> = OnceLock::new();
        LISTED.get_or_init(|| {
            let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return Vec::new() };
            let Ok(metas) = doc.query_selector_all(&format!("meta[name=\"{META_NAME}\"]")) else { return Vec::new() };
            (0..metas.length())
                .filter_map(|i| metas.get(i)?.dyn_into::<web_sys::Element>().ok())
                .filter_map(|m| {
                    let code: &'static str = Box::leak(m.get_attribute("data-code")?.into_boxed_str());
                    Some(Listed {
                        code,
                        name: m.get_attribute("data-name")?,
                        first: m.get_attribute("data-href")?,
                        // Without it (a page from before the split) no later file: `load_later` says so.
                        later: m.get_attribute("data-later").unwrap_or_default(),
                    })
                })
                .collect()
        })
    }

    /// A language's name in itself, as the page lists it (its file may not be loaded).
    pub fn listed_name(code: &str) -> Option<String> {
        listed().iter().find(|l| l.code == code).map(|l| l.name.clone())
    }

    /// The files loaded, by code and part. Kept for the page's life (a file is loaded once),
    /// so lookups can lend their texts out as `'static`.
    static LOADED: RwLock<Vec<(&'static str, Part, &'static Texts)>> = RwLock::new(Vec::new());

    fn loaded(code: &str, part: Part) -> Option<&'static Texts> {
        LOADED.read().ok()?.iter().find(|(c, p, _)| *c == code && *p == part).map(|(_, _, t)| *t)
    }

    thread_local! {
        /// The page's language signal: touched when a later file arrives that a lookup missed.
        static REDRAW: Cell<Option<RwSignal<Lang>>> = const { Cell::new(None) };
        /// The languages whose later file a missed lookup already asked for.
        static ASKED: RefCell<Vec<&'static str>> = const { RefCell::new(Vec::new()) };
    }

    /// Registers the page's language (`i18n::provide_lang`).
    pub fn redraw_on_load(lang: RwSignal<Lang>) {
        REDRAW.set(Some(lang));
    }

    /// The page's language now (switches included).
    pub fn current_code() -> &'static str {
        REDRAW.get().and_then(|l| l.try_get_untracked()).unwrap_or_else(crate::i18n::initial_lang).code()
    }

    /// Loads a language's first file unless it is loaded already.
    pub async fn load(code: &str) -> Result<(), String> {
        load_part(code, Part::First).await
    }

    /// Loads a language's later file unless it is loaded already.
    pub async fn load_later(code: &str) -> Result<(), String> {
        load_part(code, Part::Later).await
    }

    async fn load_part(code: &str, part: Part) -> Result<(), String> {
        if loaded(code, part).is_some() {
            return Ok(());
        }
        let listed = listed().iter().find(|l| l.code == code).ok_or_else(|| format!("no catalogue for {code}"))?;
        let href = match part {
            Part::First => &listed.first,
            Part::Later => &listed.later,
        };
        if href.is_empty() {
            return Err(format!("no later texts listed for {code}"));
        }
        let window = web_sys::window().ok_or("no window")?;
        let js = |e: wasm_bindgen::JsValue| format!("{href}: {e:?}");
        let response: web_sys::Response =
            wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(href)).await.map_err(js)?.unchecked_into();
        if !response.ok() {
            return Err(format!("{href}: HTTP {}", response.status()));
        }
        let body = wasm_bindgen_futures::JsFuture::from(response.text().map_err(js)?).await.map_err(js)?;
        let texts = Texts::parse(&body.as_string().unwrap_or_default())?;
        if let Ok(mut kept) = LOADED.write() {
            // Two switches in quick succession may both have fetched it: keep one.
            if !kept.iter().any(|(c, p, _)| *c == listed.code && *p == part) {
                kept.push((listed.code, part, Box::leak(Box::new(texts))));
            }
        }
        Ok(())
    }

    /// A later text looked up before its file came: fetch the file (once), then redraw. Only
    /// for the page's language: rust-i18n asks the fallback language next, which can wait.
    fn missed(code: &str) {
        if code != current_code() {
            return;
        }
        let Some(listed) = listed().iter().find(|l| l.code == code) else { return };
        let first_ask = ASKED.with_borrow_mut(|asked| {
            let new = !asked.contains(&listed.code);
            if new {
                asked.push(listed.code);
            }
            new
        });
        if first_ask {
            leptos::task::spawn_local(async move {
                match load_later(listed.code).await {
                    Ok(()) => {
                        if let Some(lang) = REDRAW.get() {
                            lang.try_update(|_| {});
                        }
                    }
                    Err(why) => leptos::logging::error!("{why}"),
                }
            });
        }
    }

    /// rust-i18n's view of the fetched files.
    pub struct Fetched;

    impl rust_i18n::Backend for Fetched {
        fn available_locales(&self) -> Vec<Cow<'_, str>> {
            listed().iter().map(|l| Cow::Borrowed(l.code)).collect()
        }
        fn translate(&self, locale: &str, key: &str) -> Option<Cow<'_, str>> {
            let part = Part::of(key);
            let Some(texts) = loaded(locale, part) else {
                if part == Part::Later {
                    missed(locale);
                }
                return None;
            };
            texts.get(key).map(Cow::Borrowed)
        }
        fn messages_for_locale(&self, locale: &str) -> Option<Vec<(Cow<'_, str>, Cow<'_, str>)>> {
            let parts = [Part::First, Part::Later].map(|p| loaded(locale, p));
            Some(
                parts
                    .into_iter()
                    .flatten()
                    .flat_map(|t| t.iter())
                    .map(|(k, v)| (Cow::Borrowed(k), Cow::Borrowed(v)))
                    .collect(),
            )
        }
    }
}

#[cfg(all(test, feature = "ssr"))]
mod tests {
    use super::*;
    use crate::i18n::{pseudo::QPS, text, Lang};

    /// Each language's two files hold exactly its catalogue between them, each text in the
    /// file its prefix names, read back as the browser reads them.
    #[test]
    fn every_language_files_hold_its_whole_catalogue_split_by_part() {
        for lang in Lang::all().into_iter().filter(|l| *l != QPS) {
            let parts = [Part::First, Part::Later].map(|part| {
                let (served, current) = file(&served::of(lang, part).unwrap().name).unwrap();
                assert!(current);
                assert_eq!(served.part, part);
                (part, Texts::parse(&served.json).unwrap())
            });
            let keys = crate::_rust_i18n_backend().messages_for_locale(lang.code()).unwrap();
            assert_eq!(parts[0].1.len() + parts[1].1.len(), keys.len(), "{}", lang.code());
            for (k, v) in keys {
                let (_, texts) = parts.iter().find(|(part, _)| *part == Part::of(&k)).unwrap();
                assert_eq!(texts.get(&k), Some(v.as_ref()), "{} {k}", lang.code());
            }
            assert_eq!(parts[0].1.get("lang.name"), Some(text(lang, "lang.name").as_str()));
            assert!(parts[1].1.get("rules.title").is_some() && parts[0].1.get("rules.title").is_none());
            assert!(parts[1].1.len() * 4 > keys_len(lang), "the later part is worth its file");
        }
        let names: Vec<&str> = files().iter().map(|f| f.name.as_str()).collect();
        for start in ["ko-", "en-", "ko-later-", "en-later-"] {
            assert!(names.iter().any(|n| n.starts_with(start) && n.ends_with(".json")), "{start} in {names:?}");
        }
    }

    fn keys_len(lang: Lang) -> usize {
        crate::_rust_i18n_backend().messages_for_locale(lang.code()).unwrap().len()
    }

    /// Every prefix of `LATER` names texts, and no source of the first download (home, its
    /// header, the shared text helpers) names a key under one: such a text would wait for
    /// the later file on the home page.
    #[test]
    fn later_prefixes_name_texts_the_first_download_does_not_use() {
        let keys = crate::_rust_i18n_backend().messages_for_locale("en").unwrap();
        for prefix in LATER {
            assert!(keys.iter().any(|(k, _)| Part::of(k) == Part::Later && k.starts_with(prefix)), "{prefix}");
        }
        let first_download = [
            include_str!("../pages/home.rs"),
            include_str!("../pages/header.rs"),
            include_str!("../pages/mod.rs"),
            include_str!("../lib.rs"),
            include_str!("../board_view/mod.rs"),
            include_str!("../error/mod.rs"),
            include_str!("../text/mod.rs"),
            include_str!("../text/errors.rs"),
            include_str!("../text/result.rs"),
            include_str!("../text/settings.rs"),
            include_str!("../text/learning.rs"),
            include_str!("mod.rs"),
        ];
        for source in first_download {
            for prefix in LATER {
                for named in [format!("\"{prefix}."), format!("key(\"{prefix}\"")] {
                    assert!(!source.contains(&named), "{named} in a source of the first download");
                }
            }
        }
    }

    #[test]
    fn an_older_hash_gets_todays_file_of_its_part_and_an_unknown_language_none() {
        let (f, current) = file("ko-0000000000000000.json").unwrap();
        assert_eq!((f.lang, f.part, current), (Lang::KO, Part::First, false));
        // A page from before the split reads every text from its first file.
        let whole = Texts::parse(stale_body(f)).unwrap();
        assert_eq!(whole.len(), keys_len(Lang::KO));
        assert_eq!(whole.get("rules.title"), Some(text(Lang::KO, "rules.title").as_str()));
        let (f, current) = file("en-later-0000000000000000.json").unwrap();
        assert_eq!((f.lang, f.part, current), (Lang::EN, Part::Later, false));
        assert_eq!(stale_body(f), f.json);
        assert!(file("xx-0000000000000000.json").is_none());
        assert!(file("ko").is_none());
        assert!(file("").is_none());
    }

    #[test]
    fn a_body_that_is_not_a_catalogue_is_refused() {
        assert!(Texts::parse("[1, 2]").unwrap_err().starts_with("catalogue file:"));
        assert!(Texts::parse("{\"a\": 1}").is_err());
        assert_eq!(Texts::parse("{\"a\": \"b\"}").unwrap().get("a"), Some("b"));
    }
}
